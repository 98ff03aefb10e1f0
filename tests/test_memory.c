/* memory: footprints against published formulas (Korthikanti et al. 2022 Table 2; ZeRO;
 * DeepSpeed's and Megatron-LM's estimators; PEFT's LoRA counts), consistency, error paths. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "hwfit.h"
#include "fixtures.h"

#define GIB 1073741824.0
#define P8B 8030261248ull /* Llama-3.1-8B parameters (safetensors metadata) */

static void llama8b(hwfit_model *m) { fixture_llama_3_1_8b(m); }

/* GPT-3 175B as Korthikanti et al. 2022 model it: MHA, 4h GeLU MLP, LayerNorm. */
static void gpt3(hwfit_model *m) {
    hwfit_model_init(m);
    m->layers = 96;
    m->hidden = 12288;
    m->intermediate = 4 * 12288;
    m->heads = 96;
    m->kv_heads = 96;
    m->vocab = 51200;
    m->mlp = HWFIT_MODEL_MLP_PLAIN;
    m->norm = HWFIT_MODEL_NORM_LAYER;
}

static hwfit_memory_out estimate_ok(const hwfit_model *m, const hwfit_memory_in *in) {
    hwfit_memory_out out;
    hwfit_status st = hwfit_memory_estimate(m, in, &out);
    cr_assert_eq(st, HWFIT_OK, "%s", hwfit_status_name(st));
    cr_assert_eq(out.total_bytes, out.weights_bytes + out.kv_bytes + out.activation_bytes +
                                      out.gradient_bytes + out.optimizer_bytes +
                                      out.overhead_bytes);
    return out;
}

static hwfit_dtype dt(const char *name) {
    hwfit_dtype d;
    cr_assert_eq(hwfit_dtype_parse(name, &d), HWFIT_OK, "%s", name);
    return d;
}

Test(memory, inference_of_llama_3_1_8b_in_bf16) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.context = 8192;
    hwfit_memory_out o = estimate_ok(&m, &in);
    cr_assert_eq(o.weights_bytes, 2 * P8B); /* 16,060,522,496 B (memory.md c.2) */
    cr_assert_eq(o.params, P8B);
    cr_assert_eq(o.kv_bytes, 1ull << 30);   /* 131,072 B/token x 8192 */
    cr_assert_eq(o.overhead_bytes, 1ull << 30);
    cr_assert_eq(o.gradient_bytes, 0);
    cr_assert_eq(o.optimizer_bytes, 0);
    cr_assert_eq(o.trainable_params, 0);
    /* Workspace: 2048 tokens x 2 B x (2h + 3 x 14336) + fp32 logits of one sequence. */
    cr_assert_eq(o.activation_dense_layer_bytes, 2048ull * 2 * (2 * 4096 + 3 * 14336));
    cr_assert_eq(o.activation_other_bytes, 4ull * 128256);
    cr_assert_eq(o.activation_bytes, o.activation_dense_layer_bytes + o.activation_other_bytes);
    /* Without flash attention, one layer's scores of the chunk over the context. */
    in.flash_attention = 0;
    hwfit_memory_out n = estimate_ok(&m, &in);
    cr_assert_eq(n.activation_bytes - o.activation_bytes, 2048ull * 8192 * 32 * 2);
}

/* q4_k linear weights (rows are whole 256-value super-blocks: 4.5 bits each) with bf16
 * norms, embedding and head: 32 x (218,103,808 x 9/16 + 16,384) + 2 x 1,050,673,152 + 8,192. */
Test(memory, quantized_weights_keep_embeddings_and_norms_wide) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.weights = dt("q4_k");
    hwfit_memory_out o = estimate_ok(&m, &in);
    cr_assert_eq(o.weights_bytes, 6027747328ull);
    in.keep_embeddings = 0; /* embedding and head in q4_k too */
    hwfit_memory_out q = estimate_ok(&m, &in);
    cr_assert_eq(q.weights_bytes, o.weights_bytes - 2 * 525336576ull * 2 + 2 * 525336576ull * 9 / 16);
    /* A wider KV format costs more; fp8 halves bf16. */
    hwfit_memory_init(&in);
    in.kv = dt("fp8");
    cr_assert_eq(estimate_ok(&m, &in).kv_bytes, 4096ull * 65536);
}

/* Mixed-precision AdamW: 2 (bf16 weights) + 2 (bf16 grads) + 12 (fp32 master, two moments)
 * = 16 bytes per parameter (ZeRO, Rajbhandari et al. 2020, section 3.1, K = 12). */
Test(memory, full_fine_tuning_model_states_are_16_bytes_per_parameter) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_FULL;
    hwfit_memory_out o = estimate_ok(&m, &in);
    cr_assert_eq(o.weights_bytes, 2 * P8B);
    cr_assert_eq(o.gradient_bytes, 2 * P8B);
    cr_assert_eq(o.optimizer_bytes, 12 * P8B);
    cr_assert_eq(o.trainable_params, P8B);
    cr_assert_eq(o.kv_bytes, 0);
    /* ZeRO paper, N = 8 data-parallel ranks (memory.md c.4: 41.13, 28.05, 14.96 GiB). The
     * stages partition optimizer (1), + gradients (2), + parameters (3). */
    const double n = 8;
    double z1 = o.weights_bytes + o.gradient_bytes + o.optimizer_bytes / n;
    double z2 = o.weights_bytes + (o.gradient_bytes + o.optimizer_bytes) / n;
    double z3 = (o.weights_bytes + o.gradient_bytes + o.optimizer_bytes) / n;
    cr_assert_eq(z1, 2.0 * P8B + 2.0 * P8B + 12.0 * P8B / n);
    cr_assert(fabs(z1 / GIB - 41.13) < 0.005 && fabs(z2 / GIB - 28.05) < 0.005 &&
              fabs(z3 / GIB - 14.96) < 0.005, "%f %f %f", z1 / GIB, z2 / GIB, z3 / GIB);

    /* DeepSpeed estimate_zero2_model_states_mem_needs (after PR #5099), no offload:
     * GPU = 2P + int(18P / N), 18 = 2 (16-bit grads) + 4 (fp32 grads) + 4 (fp32 params) +
     * 8 (Adam states): our bf16 and fp32 gradient variants plus the optimizer states. */
    hwfit_memory_in in32 = in;
    in32.gradients = dt("fp32");
    hwfit_memory_out o32 = estimate_ok(&m, &in32);
    cr_assert_eq(o32.gradient_bytes, 4 * P8B);
    uint64_t ds_states = o.gradient_bytes + o32.gradient_bytes + o.optimizer_bytes;
    cr_assert_eq(ds_states, 18 * P8B);
    uint64_t ds_z2 = o.weights_bytes + (uint64_t)(ds_states / 8);
    cr_assert_eq(ds_z2, 34128610304ull);
    cr_assert(fabs(ds_z2 / GIB - 31.78) < 0.005);
    /* estimate_zero3_model_states_mem_needs, no offload: 4 x largest layer + int(18P / N);
     * the largest layer is the embedding (525,336,576): 18.78 GiB. */
    hwfit_model_param_counts p;
    cr_assert_eq(hwfit_model_params(&m, &p), HWFIT_OK);
    uint64_t ds_z3 = 4 * p.embedding + ds_states / 8;
    cr_assert(fabs(ds_z3 / GIB - 18.78) < 0.005);

    /* Megatron-LM theoretical_memory_usage.py: 18 bytes per parameter without the
     * distributed optimizer (bf16 weight 2 + fp32 main grad 4 + fp32 master and moments 12),
     * 6 + 12 / DP with it: 134.62 GiB and, at DP 8, 56.09 GiB. */
    uint64_t meg = o32.weights_bytes + o32.gradient_bytes + o32.optimizer_bytes;
    cr_assert_eq(meg, 18 * P8B);
    cr_assert(fabs(meg / GIB - 134.62) < 0.005);
    double meg_dist = o32.weights_bytes + o32.gradient_bytes + o32.optimizer_bytes / 8.0;
    cr_assert(fabs(meg_dist / GIB - 56.09) < 0.005);
    /* Megatron's parameter formula (compute_weight_and_optimizer_memory):
     * L * 2h^2 ((1 + g/a)(d a/h) + (F/h) * 3/2 + 1/h) + 2 V h (untied) + h = our total. */
    double h = 4096, L = 32, a = 32, g = 8, d = 128, F = 14336, V = 128256;
    double meg_params = L * 2 * h * h * ((1 + g / a) * (d * a / h) + F / h * 1.5 + 1 / h) +
                        2 * V * h + h;
    cr_assert_eq(meg_params, (double)p.total);
}

/* The faces' shared default (the memory command and Python's memory and memory_batch ask
 * it): LoRA and QLoRA recipes checkpoint every layer, the other modes store everything;
 * hwfit_memory_init itself leaves "none" for every mode. */
Test(memory, recompute_default_is_full_for_adapters_only) {
    cr_assert_eq(hwfit_memory_recompute_default(HWFIT_MEMORY_LORA), HWFIT_MEMORY_RECOMPUTE_FULL);
    cr_assert_eq(hwfit_memory_recompute_default(HWFIT_MEMORY_QLORA), HWFIT_MEMORY_RECOMPUTE_FULL);
    cr_assert_eq(hwfit_memory_recompute_default(HWFIT_MEMORY_FULL), HWFIT_MEMORY_RECOMPUTE_NONE);
    cr_assert_eq(hwfit_memory_recompute_default(HWFIT_MEMORY_INFERENCE),
                 HWFIT_MEMORY_RECOMPUTE_NONE);
    cr_assert_eq(hwfit_memory_recompute_default((hwfit_memory_mode)99),
                 HWFIT_MEMORY_RECOMPUTE_NONE);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    cr_assert_eq(in.recompute, HWFIT_MEMORY_RECOMPUTE_NONE);
}

Test(memory, optimizer_variants) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_FULL;
    in.optimizer = HWFIT_MEMORY_ADAMW_8BIT; /* 4 master + 2 */
    cr_assert_eq(estimate_ok(&m, &in).optimizer_bytes, 6 * P8B);
    in.optimizer = HWFIT_MEMORY_SGD; /* 4 master + 4 momentum */
    cr_assert_eq(estimate_ok(&m, &in).optimizer_bytes, 8 * P8B);
    /* torch.optim.SGD with momentum 0 (its default) keeps no state: the master copy only;
     * pure bf16 (no master) holds nothing beyond the weights and gradients; the fp32 moment
     * format does not matter. */
    in.optimizer = HWFIT_MEMORY_SGD_PLAIN;
    cr_assert_eq(estimate_ok(&m, &in).optimizer_bytes, 4 * P8B);
    in.master_weights = 0;
    hwfit_memory_out plain = estimate_ok(&m, &in);
    cr_assert_eq(plain.optimizer_bytes, 0);
    cr_assert_eq(plain.weights_bytes + plain.gradient_bytes, 4 * P8B);
    in.master_weights = 1;
    in.optimizer = (hwfit_memory_optimizer)(HWFIT_MEMORY_SGD_PLAIN + 1);
    hwfit_problem why;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EINVAL);
    cr_assert_str_eq(why.field, "optimizer");
    in.optimizer = HWFIT_MEMORY_ADAMW;
    in.master_weights = 0;
    cr_assert_eq(estimate_ok(&m, &in).optimizer_bytes, 8 * P8B);
    /* fp32 training: no master copy, 4 + 4 + 8 = 16 bytes per parameter. */
    in.master_weights = 1;
    in.weights = dt("fp32");
    in.gradients = dt("fp32");
    hwfit_memory_out o = estimate_ok(&m, &in);
    cr_assert_eq(o.weights_bytes + o.gradient_bytes + o.optimizer_bytes, 16 * P8B);
}

/* Korthikanti et al. 2022, Table 2, bytes per layer with 16-bit activations, for GPT-3 175B
 * (a 96, h 12288, s 2048, b 1): sbh(34 + 5as/h) = 114 sbh; t = 8: sbh(10 + 24/t + 5as/(ht))
 * = 23 sbh; + sequence parallel sbh(34/t + 5as/(ht)) = 14.25 sbh; selective sbh(10 + 24/t) =
 * 13 sbh; selective + SP 34 sbh/t = 4.25 sbh; full 2 sbh. */
Test(memory, activations_reproduce_korthikanti_table_2) {
    hwfit_model m;
    gpt3(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_FULL;
    in.context = 2048;
    in.flash_attention = 0;
    const uint64_t sbh = 2048ull * 12288;
    cr_assert_eq(estimate_ok(&m, &in).activation_dense_layer_bytes, 114 * sbh);
    in.tensor_parallel = 8;
    cr_assert_eq(estimate_ok(&m, &in).activation_dense_layer_bytes, 23 * sbh);
    in.sequence_parallel = 1;
    cr_assert_eq(estimate_ok(&m, &in).activation_dense_layer_bytes, 57 * sbh / 4);
    in.sequence_parallel = 0;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_SELECTIVE;
    cr_assert_eq(estimate_ok(&m, &in).activation_dense_layer_bytes, 13 * sbh);
    in.sequence_parallel = 1;
    cr_assert_eq(estimate_ok(&m, &in).activation_dense_layer_bytes, 34 * sbh / 8);
    in.sequence_parallel = 0;
    in.tensor_parallel = 1;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    hwfit_memory_out full = estimate_ok(&m, &in);
    cr_assert_eq(full.activation_dense_layer_bytes, 2 * sbh);
    /* ... plus, at the peak, one layer rebuilt without recomputation, and its attention's
     * backward beyond the stored scores (eager_grads): with dropout, the dropout's gradient
     * beside the softmax output, the mask and the incoming gradient, A = 2 bytes a score
     * of the 96 heads' 2,048^2. */
    cr_assert_eq(full.activation_bytes - full.activation_other_bytes,
                 96 * 2 * sbh + 114 * sbh + 2ull * 96 * 2048 * 2048);
    /* Flash attention drops the 5as/h term: 34 sbh. */
    in.recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    in.flash_attention = 1;
    cr_assert_eq(estimate_ok(&m, &in).activation_dense_layer_bytes, 34 * sbh);
    /* Without dropout the two 1-byte masks and the attention-dropout terms go: 32 sbh and
     * 2as^2b. */
    in.dropout = 0;
    cr_assert_eq(estimate_ok(&m, &in).activation_dense_layer_bytes, 32 * sbh);
    in.flash_attention = 0;
    cr_assert_eq(estimate_ok(&m, &in).activation_dense_layer_bytes,
                 32 * sbh + 2ull * 96 * 2048 * 2048);
    /* Megatron's other terms, t = 1: input ids 8sb + embedding dropout sbh (dropout on) and
     * the output layer with cross-entropy 4sbh(1 + V/h). */
    in.dropout = 1;
    cr_assert_eq(estimate_ok(&m, &in).activation_other_bytes,
                 8ull * 2048 + sbh + 4 * sbh + 4ull * 2048 * 51200);
}

/* softmax_fp32 (transformers' eager attention: softmax(..., dtype=torch.float32).to(dtype),
 * then the value matmul): the fp32 softmax output and the 16-bit probabilities, 4 + A
 * bytes a score for GPT-3's 96 heads at 2,048 tokens, or with dropout the mask and the
 * dropout output beside the fp32 output, 4 + 1 + A; nothing with flash attention; under
 * full recomputation the rebuilt layer carries it. */
Test(memory, softmax_fp32_keeps_the_eager_softmax_in_fp32) {
    hwfit_model m;
    gpt3(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    cr_assert_eq(in.softmax_fp32, 0);
    in.mode = HWFIT_MEMORY_FULL;
    in.context = 2048;
    in.flash_attention = 0;
    in.dropout = 0;
    const uint64_t sbh = 2048ull * 12288, scores = 96ull * 2048 * 2048;
    cr_assert_eq(estimate_ok(&m, &in).activation_dense_layer_bytes, 32 * sbh + 2 * scores);
    in.softmax_fp32 = 1;
    cr_assert_eq(estimate_ok(&m, &in).activation_dense_layer_bytes, 32 * sbh + 6 * scores);
    in.dropout = 1;
    cr_assert_eq(estimate_ok(&m, &in).activation_dense_layer_bytes, 34 * sbh + 7 * scores);
    in.softmax_fp32 = 0;
    cr_assert_eq(estimate_ok(&m, &in).activation_dense_layer_bytes, 34 * sbh + 5 * scores);
    /* Full recomputation: the rebuilt layer holds them, 2 bytes a score more, and its
     * backward beyond them (eager_grads, with dropout): 7 - A = 5 bytes a score (the fp32
     * softmax output, its fp32 gradient and the fp32 input gradient, 12, over the 7 kept)
     * against A = 2 in bf16 (the dropout's backward): 5 bytes a score in all. */
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    uint64_t plain = estimate_ok(&m, &in).activation_bytes;
    in.softmax_fp32 = 1;
    cr_assert_eq(estimate_ok(&m, &in).activation_bytes - plain, 5 * scores);
    /* Flash attention keeps no scores: no effect. */
    in.flash_attention = 1;
    uint64_t flash = estimate_ok(&m, &in).activation_bytes;
    in.softmax_fp32 = 0;
    cr_assert_eq(estimate_ok(&m, &in).activation_bytes, flash);
}

/* eager_grads: one layer's eager attention backward holds, beyond the scores it stored, per
 * score of Llama 3.1 8B LoRA (32 heads) at 1,024 tokens, micro-batch 2, no dropout, no
 * recomputation (the activations: 32 stored layers, the tables' extra, and this):
 *  - own-dtype softmax (gpt-oss's eager_attention_forward, bf16): saved output, incoming
 *    gradient and input gradient, 3A over the A kept: 2A = 4 bytes;
 *  - softmax_fp32 in bf16 (the toType path): 4 + 4 + 4 over 4 + A: 6 bytes;
 *  - softmax_fp32 in fp16 (ATen's half_to_float kernel, an fp16 input gradient): 4 + 4 + A
 *    over 4 + A, and the cast's backward 4 + A + 4: 4 bytes;
 *  - softmax_fp32 in fp32 (the casts return their input): the own-dtype counts, 4 kept
 *    (not 8) and 2A = 8 more;
 *  - flash attention: nothing, whatever softmax_fp32 says. */
Test(memory, eager_attention_backward_holds_the_score_gradients) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 1024;
    in.micro_batch = 2;
    in.batch = 2;
    in.dropout = 0;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    const uint64_t scores = 32ull * 1024 * 1024 * 2;
    hwfit_memory_out flash = estimate_ok(&m, &in);
    cr_assert_eq(flash.activation_bytes - flash.activation_other_bytes,
                 32 * flash.activation_dense_layer_bytes);
    in.flash_attention = 0;
    hwfit_memory_out own = estimate_ok(&m, &in);
    cr_assert_eq(own.activation_dense_layer_bytes - flash.activation_dense_layer_bytes,
                 2 * scores);
    cr_assert_eq(own.activation_bytes - own.activation_other_bytes,
                 32 * own.activation_dense_layer_bytes + 4 * scores);
    in.softmax_fp32 = 1;
    hwfit_memory_out bf16 = estimate_ok(&m, &in);
    cr_assert_eq(bf16.activation_dense_layer_bytes - flash.activation_dense_layer_bytes,
                 6 * scores);
    cr_assert_eq(bf16.activation_bytes - bf16.activation_other_bytes,
                 32 * bf16.activation_dense_layer_bytes + 6 * scores);
    /* At the backward's start, the score gradients beside the stored activations. */
    cr_assert_geq(bf16.backward_bytes, bf16.forward_bytes);
    in.activations = hwfit_dtype_make(HWFIT_DTYPE_FP16);
    hwfit_memory_out fp16 = estimate_ok(&m, &in);
    cr_assert_eq(fp16.activation_bytes - fp16.activation_other_bytes,
                 32 * fp16.activation_dense_layer_bytes + 4 * scores);
    in.activations = hwfit_dtype_make(HWFIT_DTYPE_FP32);
    hwfit_memory_out fp32 = estimate_ok(&m, &in);
    in.softmax_fp32 = 0;
    hwfit_memory_out fp32_own = estimate_ok(&m, &in);
    cr_assert_eq(fp32.activation_bytes, fp32_own.activation_bytes);
    cr_assert_eq(fp32.activation_bytes - fp32.activation_other_bytes,
                 32 * fp32.activation_dense_layer_bytes + 8 * scores);
    in.flash_attention = 1;
    hwfit_memory_out fp32_flash = estimate_ok(&m, &in);
    cr_assert_eq(fp32.activation_dense_layer_bytes - fp32_flash.activation_dense_layer_bytes,
                 4 * scores);
    /* Flash attention: no score gradient, in every recomputation. */
    in.activations = hwfit_dtype_make(HWFIT_DTYPE_BF16);
    const hwfit_memory_recompute rcs[] = {HWFIT_MEMORY_RECOMPUTE_NONE,
                                          HWFIT_MEMORY_RECOMPUTE_SELECTIVE,
                                          HWFIT_MEMORY_RECOMPUTE_FULL};
    for (size_t i = 0; i < 3; i++) {
        in.recompute = rcs[i];
        in.flash_attention = 1;
        hwfit_memory_out f = estimate_ok(&m, &in);
        in.flash_attention = 0;
        hwfit_memory_out e = estimate_ok(&m, &in);
        /* Eager: every layer's scores (none), the rebuilt layer's (full; selective's
         * recomputed core is in the backward's transient, not the activations), and 2A more. */
        uint64_t stored = i == 0 ? 32 * 2 * scores : i == 2 ? 2 * scores : 0;
        cr_assert_eq(e.activation_bytes - f.activation_bytes, stored + 4 * scores,
                     "recompute %d", (int)rcs[i]);
    }
}

/* Megatron-LM compute_activation_memory (sequence parallel + selective recompute): per layer
 * sbh(18 + 4F/h) / t, here with F = 3h: 30 sbh / t. */
Test(memory, activations_reproduce_megatron_for_any_ffn_width) {
    hwfit_model m;
    gpt3(&m);
    m.intermediate = 3 * 12288;
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_FULL;
    in.context = 4096;
    in.micro_batch = 2;
    in.tensor_parallel = 4;
    in.sequence_parallel = 1;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_SELECTIVE;
    const uint64_t sbh = 4096ull * 2 * 12288;
    cr_assert_eq(estimate_ok(&m, &in).activation_dense_layer_bytes, 30 * sbh / 4);
}

/* A Mixtral-8x7B-shaped model (32 MoE layers of 8 experts, top 2, GQA 32/8). */
static void mixtral_shape(hwfit_model *x) {
    hwfit_model_init(x);
    x->layers = 32;
    x->hidden = 4096;
    x->vocab = 32000;
    x->heads = 32;
    x->kv_heads = 8;
    x->experts = 8;
    x->experts_per_token = 2;
    x->expert_intermediate = 14336;
    cr_assert_eq(hwfit_model_set_moe_layers(x, 0, 1, 0), HWFIT_OK);
}

/* PEFT's print_trainable_parameters for Llama-3-8B (same shapes as 3.1): r = 16 on all linear
 * layers 41,943,040; r = 8 on q_proj and v_proj 3,407,872 (32 x 8 x (8192 + 5120)). */
Test(memory, lora_adapter_parameters) {
    hwfit_model m;
    llama8b(&m);
    uint64_t n = 0;
    cr_assert_eq(hwfit_memory_lora_params(&m, 16, HWFIT_LORA_ALL, &n), HWFIT_OK);
    cr_assert_eq(n, 41943040ull);
    cr_assert_eq(hwfit_memory_lora_params(&m, 8, HWFIT_LORA_Q | HWFIT_LORA_V, &n), HWFIT_OK);
    cr_assert_eq(n, 3407872ull);
    /* Only adapters carry gradients and optimizer states. */
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    hwfit_memory_out o = estimate_ok(&m, &in);
    cr_assert_eq(o.adapter_params, 41943040ull);
    cr_assert_eq(o.trainable_params, 41943040ull);
    cr_assert_eq(o.weights_bytes, 2 * P8B + 2 * 41943040ull);
    cr_assert_eq(o.gradient_bytes, 2 * 41943040ull);
    cr_assert_eq(o.optimizer_bytes, 12 * 41943040ull);
    /* Experts take the MLP targets: Mixtral r = 8 on gate/up/down of 8 experts per layer. */
    hwfit_model x;
    mixtral_shape(&x);
    cr_assert_eq(hwfit_memory_lora_params(&x, 8, HWFIT_LORA_GATE | HWFIT_LORA_UP | HWFIT_LORA_DOWN,
                                          &n),
                 HWFIT_OK);
    cr_assert_eq(n, 32ull * 8 * 3 * 8 * (4096 + 14336));
}

/* QLoRA: the base's linear weights in nf4 with double quantisation (bitsandbytes blocks over
 * each flattened weight), norms, embedding and head in bf16: 5,702,295,552 B for the 8B. */
Test(memory, qlora_stores_the_base_in_nf4_dq) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_QLORA;
    hwfit_memory_out q = estimate_ok(&m, &in);
    cr_assert_eq(q.weights_bytes, 5702295552ull + 2 * 41943040ull);
    in.mode = HWFIT_MEMORY_LORA;
    hwfit_memory_out l = estimate_ok(&m, &in);
    cr_assert_lt(q.weights_bytes, l.weights_bytes);
    cr_assert_eq(q.gradient_bytes, l.gradient_bytes);
    cr_assert_eq(q.activation_bytes, l.activation_bytes);
}

Test(memory, less_recomputation_or_more_ranks_never_lower_memory) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_FULL;
    in.flash_attention = 0;
    uint64_t none = estimate_ok(&m, &in).activation_bytes;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_SELECTIVE;
    uint64_t sel = estimate_ok(&m, &in).activation_bytes;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    uint64_t full = estimate_ok(&m, &in).activation_bytes;
    cr_assert(none > sel && sel > full, "%lu %lu %lu", (unsigned long)none, (unsigned long)sel,
              (unsigned long)full);
    in.recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    uint64_t prev = UINT64_MAX;
    for (uint32_t t = 1; t <= 8; t *= 2) {
        in.tensor_parallel = t;
        uint64_t a = estimate_ok(&m, &in).activation_bytes;
        cr_assert_lt(a, prev);
        prev = a;
    }
    /* Activations grow with micro-batch and sequence. */
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_FULL;
    uint64_t a1 = estimate_ok(&m, &in).activation_bytes;
    in.micro_batch = 2;
    cr_assert_eq(estimate_ok(&m, &in).activation_bytes, 2 * a1); /* linear in b */
    in.context = 8192;
    cr_assert_gt(estimate_ok(&m, &in).activation_bytes, 2 * a1);
}

Test(memory, pipeline_stages_sum_to_the_whole_model) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_FULL;
    hwfit_memory_out whole = estimate_ok(&m, &in);
    in.layer_count = 12;
    in.head = 0;
    hwfit_memory_out first = estimate_ok(&m, &in);
    in.first_layer = 12;
    in.layer_count = 0;
    in.embedding = 0;
    in.head = 1;
    hwfit_memory_out last = estimate_ok(&m, &in);
    cr_assert_eq(first.layers + last.layers, 32);
    cr_assert_eq(first.weights_bytes + last.weights_bytes, whole.weights_bytes);
    cr_assert_eq(first.params + last.params, whole.params);
    cr_assert_eq(first.gradient_bytes + last.gradient_bytes, whole.gradient_bytes);
    cr_assert_eq(first.optimizer_bytes + last.optimizer_bytes, whole.optimizer_bytes);
    cr_assert_eq(first.activation_bytes + last.activation_bytes, whole.activation_bytes);
    /* A tied model's last stage holds a copy of the embedding for its head. */
    m.tie_embeddings = 1;
    hwfit_memory_out tied_last = estimate_ok(&m, &in);
    cr_assert_eq(tied_last.params, last.params);
    in.embedding = 1;
    in.first_layer = 0;
    hwfit_memory_out tied_whole = estimate_ok(&m, &in);
    cr_assert_eq(tied_whole.params, P8B - 525336576ull);
    /* Inference KV of a stage is the stage's layers. */
    hwfit_memory_init(&in);
    in.layer_count = 8;
    cr_assert_eq(estimate_ok(&m, &in).kv_bytes, 8ull * 4096 * 4096);
}

/* experts_indexed (transformers GptOssExperts in training: a copy of each hit expert's
 * matrices kept; with the experts trained, a whole-parameter zero tensor in each index's
 * backward). DeepSeek-V3 full, 1,024 tokens, no recomputation: every one of the 256
 * experts is hit (1,024 x 8 slots), 256 x 3 x 7168 x 2048 values of copies in bf16 per
 * MoE layer; 2 tokens hit at most 16. The transient is 256 x 2 x 7168 x 2048 in the
 * gradients' format, once. Refused for a dense model. */
Test(memory, experts_indexed_keeps_copies) {
    hwfit_model m;
    cr_assert_eq(fixture_deepseek_v3(&m), HWFIT_OK);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_FULL;
    in.context = 1024;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    hwfit_memory_out a = estimate_ok(&m, &in);
    in.experts_indexed = 1;
    hwfit_memory_out b = estimate_ok(&m, &in);
    const uint64_t copies = 256ull * 3 * 7168 * 2048 * 2, grad = 256ull * 2 * 7168 * 2048 * 2;
    cr_assert_eq(b.activation_moe_layer_bytes - a.activation_moe_layer_bytes, copies);
    cr_assert_eq(b.activation_dense_layer_bytes, a.activation_dense_layer_bytes);
    cr_assert_eq(b.activation_bytes - a.activation_bytes, 58 * copies + grad);
    in.context = 2;
    hwfit_memory_out c = estimate_ok(&m, &in);
    in.experts_indexed = 0;
    hwfit_memory_out d = estimate_ok(&m, &in);
    cr_assert_eq(c.activation_moe_layer_bytes - d.activation_moe_layer_bytes,
                 16ull * 3 * 7168 * 2048 * 2);
    hwfit_model l;
    llama8b(&l);
    in.experts_indexed = 1;
    hwfit_memory_out o;
    hwfit_problem why;
    cr_assert_eq(hwfit_memory_estimate(&l, &in, &o), HWFIT_EINVAL);
    cr_assert_eq(hwfit_memory_validate(&l, &in, &why), HWFIT_EINVAL);
    cr_assert_str_eq(why.field, "experts_indexed");
    in.experts_indexed = 2;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
}

Test(memory, moe_and_mtp_layers) {
    hwfit_model m;
    cr_assert_eq(fixture_deepseek_v3(&m), HWFIT_OK);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.weights = dt("fp8");
    hwfit_memory_out o = estimate_ok(&m, &in);
    cr_assert_eq(o.params, 671026419200ull);
    /* fp8 linear weights, bf16 embedding, head, norms, routers and router biases. */
    cr_assert_lt(o.weights_bytes, 2 * o.params);
    cr_assert_gt(o.weights_bytes, o.params);
    cr_assert_eq(o.kv_bytes, 4096ull * 70272);
    in.mtp = 1;
    hwfit_memory_out t = estimate_ok(&m, &in);
    cr_assert_eq(t.params, 671026419200ull + 11610068224ull);
    cr_assert_eq(t.kv_bytes, 4096ull * 62 * 1152);
    cr_assert_gt(t.activation_moe_layer_bytes, 0);
    cr_assert_gt(t.activation_dense_layer_bytes, 0);
    /* Of them the routed experts' (what ZeRO partitions over the expert-data-parallel
     * group, shard.h): 58 MoE layers x 256 experts x 3 x 7168 x 2048 = 653,908,770,816
     * parameters (hwfit model's params_experts), fp8 linear weights: 1 byte each. */
    const uint64_t experts = 58ull * 256 * 3 * 7168 * 2048;
    cr_assert_eq(o.expert_params, experts);
    cr_assert_eq(o.expert_weights_bytes, experts);
    cr_assert_eq(o.expert_trainable_params + o.expert_gradient_bytes + o.expert_optimizer_bytes,
                 0);
    /* The MTP layer is an MoE layer: 256 more experts. */
    cr_assert_eq(t.expert_params, experts + 256ull * 3 * 7168 * 2048);
    /* Full training in bf16: 2 + 2 + 12 bytes per expert parameter. */
    in.mtp = 0;
    in.mode = HWFIT_MEMORY_FULL;
    in.weights = dt("bf16");
    in.layer_count = 4; /* layers 0-3: three dense, one MoE */
    hwfit_memory_out f = estimate_ok(&m, &in);
    const uint64_t one = 256ull * 3 * 7168 * 2048;
    cr_assert_eq(f.expert_params, one);
    cr_assert_eq(f.expert_trainable_params, one);
    cr_assert_eq(f.expert_weights_bytes, 2 * one);
    cr_assert_eq(f.expert_gradient_bytes, 2 * one);
    cr_assert_eq(f.expert_optimizer_bytes, 12 * one);
    cr_assert_lt(f.expert_weights_bytes, f.weights_bytes);
    /* LoRA on the MLP: each expert's gate, up (7168 -> 2048) and down gain r (7168 + 2048)
     * adapter parameters; they are the experts' trainable parameters. */
    in.mode = HWFIT_MEMORY_LORA;
    in.lora_targets = HWFIT_LORA_GATE | HWFIT_LORA_UP | HWFIT_LORA_DOWN;
    hwfit_memory_out l = estimate_ok(&m, &in);
    const uint64_t adapters = 256ull * 3 * 16 * (7168 + 2048);
    cr_assert_eq(l.expert_params, one);
    cr_assert_eq(l.expert_trainable_params, adapters);
    cr_assert_eq(l.expert_weights_bytes, 2 * one + 2 * adapters);
    cr_assert_eq(l.expert_gradient_bytes, 2 * adapters);
    cr_assert_eq(l.expert_optimizer_bytes, 12 * adapters);
    /* A dense model has none. */
    hwfit_model d;
    llama8b(&d);
    hwfit_memory_out z = estimate_ok(&d, &in);
    cr_assert_eq(z.expert_params + z.expert_weights_bytes + z.expert_trainable_params +
                     z.expert_gradient_bytes + z.expert_optimizer_bytes,
                 0);
}

/* ---- errors ------------------------------------------------------------------------------------ */

typedef void (*mutate_fn)(hwfit_memory_in *);
static void i_mode(hwfit_memory_in *in) { in->mode = (hwfit_memory_mode)9; }
static void i_opt(hwfit_memory_in *in) { in->optimizer = (hwfit_memory_optimizer)9; }
static void i_rec(hwfit_memory_in *in) { in->recompute = (hwfit_memory_recompute)9; }
static void i_batch(hwfit_memory_in *in) { in->batch = 0; }
static void i_ctx(hwfit_memory_in *in) { in->context = 0; }
static void i_mb(hwfit_memory_in *in) { in->micro_batch = 0; }
static void i_tp(hwfit_memory_in *in) { in->tensor_parallel = 0; }
static void i_nan(hwfit_memory_in *in) { in->overhead_bytes = NAN; }
static void i_inf(hwfit_memory_in *in) { in->overhead_bytes = INFINITY; }
static void i_neg(hwfit_memory_in *in) { in->overhead_bytes = -1.0; }
static void i_huge(hwfit_memory_in *in) { in->overhead_bytes = 1e300; }
static void i_rank(hwfit_memory_in *in) {
    in->mode = HWFIT_MEMORY_LORA;
    in->lora_rank = 0;
}
static void i_targets0(hwfit_memory_in *in) {
    in->mode = HWFIT_MEMORY_QLORA;
    in->lora_targets = 0;
}
static void i_targets_bad(hwfit_memory_in *in) {
    in->mode = HWFIT_MEMORY_LORA;
    in->lora_targets = 0x80;
}
static void i_grad_q(hwfit_memory_in *in) {
    in->mode = HWFIT_MEMORY_FULL;
    in->gradients = hwfit_dtype_make(HWFIT_DTYPE_Q8_0);
}
static void i_act_q(hwfit_memory_in *in) { in->activations = hwfit_dtype_make(HWFIT_DTYPE_NF4); }
static void i_lora_q(hwfit_memory_in *in) {
    in->mode = HWFIT_MEMORY_LORA;
    in->lora_dtype = hwfit_dtype_make(HWFIT_DTYPE_INT4);
}
static void i_full_q(hwfit_memory_in *in) {
    in->mode = HWFIT_MEMORY_FULL;
    in->weights = hwfit_dtype_make(HWFIT_DTYPE_Q4_K);
}
static void i_weights_id(hwfit_memory_in *in) { in->weights.id = HWFIT_DTYPE_COUNT_; }
static void i_kv_id(hwfit_memory_in *in) { in->kv.id = HWFIT_DTYPE_COUNT_; }
static void i_kv_group(hwfit_memory_in *in) { in->kv.group_size = 7; }
static void i_unq_id(hwfit_memory_in *in) { in->unquantized.id = HWFIT_DTYPE_COUNT_; }
static void i_first(hwfit_memory_in *in) { in->first_layer = 32; }
static void i_count(hwfit_memory_in *in) {
    in->first_layer = 30;
    in->layer_count = 3;
}
static void i_loss(hwfit_memory_in *in) { in->loss = (hwfit_memory_loss)(HWFIT_MEMORY_LOSS_LIGER + 1); }
static void i_fast_model(hwfit_memory_in *in) { in->unsloth_fast_model = 2; }
static void i_single_unit(hwfit_memory_in *in) { in->fsdp_single_unit = 2; }
static void i_built_whole(hwfit_memory_in *in) { in->built_whole = 2; }
static void i_norm_fp32(hwfit_memory_in *in) { in->norm_weight_fp32 = 2; }
static void i_dequant_work(hwfit_memory_in *in) { in->dequant_work_bytes = 65; }
static void i_views(hwfit_memory_in *in) { in->zero3_linear_views_kept = 2; }
static void i_overflow(hwfit_memory_in *in) { in->batch = UINT64_MAX / 4; }
static void i_overflow_train(hwfit_memory_in *in) {
    in->mode = HWFIT_MEMORY_FULL;
    in->micro_batch = UINT64_MAX / 4;
}

Test(memory, bad_inputs_are_refused_without_touching_the_output) {
    static const struct {
        mutate_fn f;
        hwfit_status want;
    } cases[] = {
        {i_mode, HWFIT_EINVAL},        {i_opt, HWFIT_EINVAL},      {i_rec, HWFIT_EINVAL},
        {i_batch, HWFIT_EDOM},         {i_ctx, HWFIT_EDOM},        {i_mb, HWFIT_EDOM},
        {i_tp, HWFIT_EDOM},            {i_nan, HWFIT_EDOM},        {i_inf, HWFIT_EDOM},
        {i_neg, HWFIT_EDOM},           {i_huge, HWFIT_EDOM},       {i_rank, HWFIT_EDOM},
        {i_targets0, HWFIT_EDOM},      {i_targets_bad, HWFIT_EDOM}, {i_grad_q, HWFIT_EDOM},
        {i_act_q, HWFIT_EDOM},         {i_lora_q, HWFIT_EDOM},     {i_full_q, HWFIT_EUNSUPPORTED},
        {i_weights_id, HWFIT_EINVAL},  {i_kv_id, HWFIT_EINVAL},    {i_kv_group, HWFIT_EDOM},
        {i_unq_id, HWFIT_EINVAL},      {i_first, HWFIT_EDOM},      {i_count, HWFIT_EDOM},
        {i_overflow, HWFIT_ERANGE},    {i_overflow_train, HWFIT_ERANGE},
        {i_loss, HWFIT_EINVAL},        {i_fast_model, HWFIT_EDOM}, {i_single_unit, HWFIT_EDOM},
        {i_built_whole, HWFIT_EDOM},   {i_norm_fp32, HWFIT_EDOM},  {i_dequant_work, HWFIT_EDOM},
        {i_views, HWFIT_EDOM},
    };
    hwfit_model m;
    llama8b(&m);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hwfit_memory_in in;
        hwfit_memory_init(&in);
        cases[i].f(&in);
        hwfit_memory_out o, poison;
        memset(&o, 0x5a, sizeof o);
        memset(&poison, 0x5a, sizeof poison);
        cr_assert_eq(hwfit_memory_estimate(&m, &in, &o), cases[i].want, "case %zu: %s", i,
                     hwfit_status_name(hwfit_memory_estimate(&m, &in, &o)));
        cr_assert_eq(memcmp(&o, &poison, sizeof o), 0, "case %zu wrote the output", i);
    }
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    hwfit_memory_out o;
    cr_assert_eq(hwfit_memory_estimate(NULL, &in, &o), HWFIT_EINVAL);
    cr_assert_eq(hwfit_memory_estimate(&m, NULL, &o), HWFIT_EINVAL);
    cr_assert_eq(hwfit_memory_estimate(&m, &in, NULL), HWFIT_EINVAL);
    m.layers = 0; /* an invalid model */
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &o), HWFIT_EDOM);
    uint64_t n = 9;
    cr_assert_eq(hwfit_memory_lora_params(&m, 8, HWFIT_LORA_ALL, &n), HWFIT_EDOM);
    llama8b(&m);
    cr_assert_eq(hwfit_memory_lora_params(NULL, 8, HWFIT_LORA_ALL, &n), HWFIT_EINVAL);
    cr_assert_eq(hwfit_memory_lora_params(&m, 8, HWFIT_LORA_ALL, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit_memory_lora_params(&m, 0, HWFIT_LORA_ALL, &n), HWFIT_EDOM);
    cr_assert_eq(hwfit_memory_lora_params(&m, 8, 0, &n), HWFIT_EDOM);
    cr_assert_eq(hwfit_memory_lora_params(&m, 8, 0x100, &n), HWFIT_EDOM);
    cr_assert_eq(n, 9);
    hwfit_memory_init(NULL); /* ignored */
}

Test(memory, lora_target_names_parse_like_peft) {
    unsigned t = 0;
    cr_assert_eq(hwfit_memory_lora_targets_parse("q_proj,v_proj", &t), HWFIT_OK);
    cr_assert_eq(t, HWFIT_LORA_Q | HWFIT_LORA_V);
    cr_assert_eq(hwfit_memory_lora_targets_parse("all-linear", &t), HWFIT_OK);
    cr_assert_eq(t, HWFIT_LORA_ALL);
    cr_assert_eq(hwfit_memory_lora_targets_parse("attention,down", &t), HWFIT_OK);
    cr_assert_eq(t, HWFIT_LORA_ATTENTION | HWFIT_LORA_DOWN);
    cr_assert_eq(hwfit_memory_lora_targets_parse("mlp", &t), HWFIT_OK);
    cr_assert_eq(t, HWFIT_LORA_GATE | HWFIT_LORA_UP | HWFIT_LORA_DOWN);
    t = 77;
    cr_assert_eq(hwfit_memory_lora_targets_parse("", &t), HWFIT_EPARSE);
    cr_assert_eq(hwfit_memory_lora_targets_parse("q,,v", &t), HWFIT_EPARSE);
    cr_assert_eq(hwfit_memory_lora_targets_parse("q,", &t), HWFIT_EPARSE);
    cr_assert_eq(hwfit_memory_lora_targets_parse("lm_head", &t), HWFIT_ENOTFOUND);
    cr_assert_eq(hwfit_memory_lora_targets_parse("Q", &t), HWFIT_ENOTFOUND);
    cr_assert_eq(hwfit_memory_lora_targets_parse("_proj", &t), HWFIT_ENOTFOUND);
    cr_assert_eq(t, 77);
    cr_assert_eq(hwfit_memory_lora_targets_parse(NULL, &t), HWFIT_EINVAL);
    cr_assert_eq(hwfit_memory_lora_targets_parse("q", NULL), HWFIT_EINVAL);
}

/* ---- phases and framework profiles (docs/formulas.md, "phases and profiles") ------------ */

static void check_phases(const hwfit_memory_out *o, const hwfit_memory_in *in) {
    cr_assert_geq(o->allocated_bytes, o->forward_bytes);
    cr_assert_geq(o->allocated_bytes, o->backward_bytes);
    cr_assert_geq(o->allocated_bytes, o->step_bytes);
    const uint64_t ph[5] = {o->forward_bytes, o->backward_bytes, o->step_bytes, o->load_bytes,
                            o->eval_bytes};
    cr_assert_leq((unsigned)o->peak_phase, (unsigned)HWFIT_MEMORY_PHASE_EVALUATION);
    cr_assert_eq(ph[o->peak_phase], o->allocated_bytes);
    cr_assert_geq(o->reserved_bytes, o->allocated_bytes);
    cr_assert_eq(o->peak_bytes, o->reserved_bytes + o->overhead_bytes);
    double extra = (double)o->allocated_bytes * in->fragmentation;
    cr_assert_geq(o->reserved_bytes - o->allocated_bytes, o->stranded_bytes);
    /* transformers' warm-up block sets the load phase: one exact segment, no reserve on
     * it, under whatever the training phases reserve. */
    if (o->peak_phase == HWFIT_MEMORY_PHASE_LOAD && in->load_warmup != HWFIT_MEMORY_WARMUP_NONE)
        return;
    cr_assert(o->reserved_bytes - o->stranded_bytes - o->allocated_bytes == (uint64_t)ceil(extra));
}

/* Default inputs (no profile): the forward pass holds the weights, the optimizer states,
 * every stored activation and the loss; the step holds the weights, the states and the
 * whole gradient. The sum of the parts is an upper bound of the peak. */
Test(memory, phases_of_full_fine_tuning) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_FULL;
    in.context = 2048;
    hwfit_memory_out o = estimate_ok(&m, &in);
    check_phases(&o, &in);
    uint64_t fixed = o.weights_bytes + o.optimizer_bytes;
    cr_assert_eq(o.forward_bytes, fixed + o.activation_bytes);
    cr_assert_eq(o.step_bytes, fixed + o.gradient_bytes);
    /* Backward: the larger of its start (activations) and its end (gradients and the
     * first layer's activations). */
    uint64_t act = o.activation_bytes, g = o.gradient_bytes;
    uint64_t end = g + o.activation_dense_layer_bytes;
    cr_assert_eq(o.backward_bytes, fixed + (act > end ? act : end));
    cr_assert_leq(o.peak_bytes, o.total_bytes);
    /* Megatron's fp32 logits: 4 sb(h + V) bytes at the head. */
    cr_assert_eq(o.loss_bytes, 2048ull * 4 * (4096 + 128256));
    /* A gradient buffer that lives through the step holds both. */
    in.gradient_buffer = 1;
    hwfit_memory_out b = estimate_ok(&m, &in);
    check_phases(&b, &in);
    cr_assert_eq(b.backward_bytes, fixed + act + g);
    cr_assert_eq(b.peak_bytes, b.total_bytes);
    /* Stepping in backward: only the largest unit's gradient (the 525M-parameter embedding)
     * is ever live. */
    in.gradient_buffer = 0;
    in.optimizer_in_backward = 1;
    hwfit_model_param_counts p;
    cr_assert_eq(hwfit_model_params(&m, &p), HWFIT_OK);
    hwfit_memory_out ib = estimate_ok(&m, &in);
    check_phases(&ib, &in);
    cr_assert_eq(ib.step_bytes, fixed + 2 * p.embedding);
    cr_assert_leq(ib.allocated_bytes, o.allocated_bytes);
    /* Foreach AdamW adds one state-sized temporary (fp32 moments: 4 bytes a parameter). */
    in.optimizer_in_backward = 0;
    in.fused_optimizer = 0;
    hwfit_memory_out fe = estimate_ok(&m, &in);
    cr_assert_eq(fe.step_bytes, o.step_bytes + 4 * P8B);
}

/* The head's weight gradient (V x h) is made by the backward's first matmul, so it is live
 * beside the layer rebuilt after it; stepped in backward it is freed at once, unless tied
 * (the autograd engine holds the head's contribution until the embedding's arrives). */
Test(memory, head_gradient_beside_the_rebuilt_layer) {
    hwfit_model m;
    llama8b(&m);
    hwfit_model_param_counts p;
    cr_assert_eq(hwfit_model_params(&m, &p), HWFIT_OK);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_FULL;
    in.context = 32768; /* the backward's start above its end */
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    hwfit_memory_out o = estimate_ok(&m, &in);
    check_phases(&o, &in);
    uint64_t fixed = o.weights_bytes + o.optimizer_bytes;
    cr_assert_eq(o.backward_bytes, fixed + o.activation_bytes + 2 * p.embedding);
    /* Stepped in backward, untied: freed as soon as made. */
    in.optimizer_in_backward = 1;
    hwfit_memory_out ib = estimate_ok(&m, &in);
    cr_assert_eq(ib.backward_bytes, fixed + ib.activation_bytes);
    /* Tied: held to the backward's end. */
    m.tie_embeddings = 1;
    hwfit_memory_out tied = estimate_ok(&m, &in);
    check_phases(&tied, &in);
    cr_assert_eq(tied.backward_bytes,
                 tied.weights_bytes + tied.optimizer_bytes + tied.activation_bytes + 2 * p.embedding);
    /* No layer rebuilt: the start is the loss's backward, before the head's gradient. */
    m.tie_embeddings = 0;
    in.optimizer_in_backward = 0;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    hwfit_memory_out none = estimate_ok(&m, &in);
    cr_assert_eq(none.backward_bytes, fixed + none.activation_bytes);
    /* LoRA without the head trained: no head gradient. */
    in.mode = HWFIT_MEMORY_LORA;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    hwfit_memory_out lo = estimate_ok(&m, &in);
    cr_assert_eq(lo.backward_bytes, lo.weights_bytes + lo.optimizer_bytes + lo.activation_bytes);
}

Test(memory, loss_kinds_per_logit) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 1000;
    const uint64_t sb = 1000, h = 4096, v = 128256;
    const struct { hwfit_memory_loss loss; uint64_t bytes; } cases[] = {
        {HWFIT_MEMORY_LOSS_FP32, sb * 4 * (h + v)},
        {HWFIT_MEMORY_LOSS_UPCAST, sb * (4 * h + 14 * v)},        /* bf16 + 12 fp32 bytes */
        {HWFIT_MEMORY_LOSS_UPCAST_FREED, sb * (4 * h + 12 * v)},  /* the bf16 logits freed */
        {HWFIT_MEMORY_LOSS_COMPILED, sb * (4 * h + 4 * v)},       /* bf16 logits + gradient */
        {HWFIT_MEMORY_LOSS_CHUNKED, sb * (4 * h + 2 * v + (12 * v + 7) / 8)},
        {HWFIT_MEMORY_LOSS_FUSED, sb * 8 * h},
    };
    uint64_t last = UINT64_MAX;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        in.loss = cases[i].loss;
        hwfit_memory_out o = estimate_ok(&m, &in);
        cr_assert_eq(o.loss_bytes, cases[i].bytes, "loss %d", (int)cases[i].loss);
        check_phases(&o, &in);
        if (i > 1) cr_assert_lt(o.loss_bytes, last); /* upcast > freed > compiled > chunked > fused */
        last = o.loss_bytes;
    }
    /* Compiled, the chunked loss keeps the logits and a log-sum-exp per token only. */
    in.loss = HWFIT_MEMORY_LOSS_CHUNKED;
    in.compile = 1;
    cr_assert_eq(estimate_ok(&m, &in).loss_bytes, sb * (4 * h + 2 * v));
}

/* A profile only sets inputs: it never changes what is counted (parameters, adapters,
 * layers), and every input it sets can be set alone to the same effect. One input says what
 * is counted: lora_modules, the modules LoRA adapters wrap (a framework's modules, not a
 * choice of its run). The adapters then equal those of that input set alone, and equal the
 * default's wherever the modules are not fused (on Llama: every profile but megatron's). */
Test(memory, profiles_change_choices_not_counts) {
    hwfit_model m;
    llama8b(&m);
    const hwfit_memory_mode modes[] = {HWFIT_MEMORY_FULL, HWFIT_MEMORY_LORA, HWFIT_MEMORY_QLORA};
    for (size_t k = 0; k < 3; k++) {
        hwfit_memory_in base;
        hwfit_memory_init(&base);
        base.mode = modes[k];
        base.context = 1024;
        hwfit_memory_out ref = estimate_ok(&m, &base);
        for (size_t i = 0; hwfit_memory_profile_name(i) != NULL; i++) {
            const char *name = hwfit_memory_profile_name(i);
            for (uint32_t gpus = 1; gpus <= 2; gpus++) {
                hwfit_memory_in in = base;
                uint64_t sets = 0;
                cr_assert_eq(hwfit_memory_profile_apply(name, gpus, &in, &sets), HWFIT_OK);
                cr_assert_neq(sets, 0u, "%s", name);
                hwfit_memory_out o = estimate_ok(&m, &in);
                check_phases(&o, &in);
                hwfit_memory_in alone = base;
                alone.lora_modules = in.lora_modules;
                hwfit_memory_out mods = estimate_ok(&m, &alone);
                if (in.lora_modules != HWFIT_MEMORY_LORA_MODULES_FUSED)
                    cr_assert_eq(mods.adapter_params, ref.adapter_params, "%s", name);
                else
                    cr_assert_str_eq(name, "megatron");
                cr_assert_eq(o.params, ref.params, "%s", name);
                cr_assert_eq(o.trainable_params, mods.trainable_params, "%s", name);
                cr_assert_eq(o.adapter_params, mods.adapter_params, "%s", name);
                cr_assert_eq(o.layers, ref.layers, "%s", name);
                /* More recomputation never raises the peak. */
                uint64_t prev = UINT64_MAX;
                for (int rc = HWFIT_MEMORY_RECOMPUTE_NONE; rc <= HWFIT_MEMORY_RECOMPUTE_FULL; rc++) {
                    in.recompute = (hwfit_memory_recompute)rc;
                    hwfit_memory_out r = estimate_ok(&m, &in);
                    cr_assert_leq(r.peak_bytes, prev, "%s recompute %d mode %zu gpus %u: %llu > %llu", name, rc, k,
                                  gpus, (unsigned long long)r.peak_bytes,
                                  (unsigned long long)prev);
                    prev = r.peak_bytes;
                }
            }
        }
    }
    /* torchtune, one device, full: paged 8-bit AdamW stepped in backward (its
     * 8B_full_single_device.yaml); the same inputs set alone give the same answer. */
    hwfit_memory_in a, b;
    hwfit_memory_init(&a);
    a.mode = HWFIT_MEMORY_FULL;
    b = a;
    cr_assert_eq(hwfit_memory_profile_apply("torchtune", 1, &a, NULL), HWFIT_OK);
    cr_assert_eq(a.optimizer, HWFIT_MEMORY_ADAMW_8BIT);
    cr_assert(a.paged_optimizer && a.optimizer_in_backward && !a.master_weights);
    b.optimizer = HWFIT_MEMORY_ADAMW_8BIT;
    b.paged_optimizer = 1;
    b.optimizer_in_backward = 1;
    b.master_weights = 0;
    b.optimizer_states = dt("bf16");
    b.loss = HWFIT_MEMORY_LOSS_CHUNKED;
    b.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    b.dropout = 0;
    b.gated_act_kept = 1;   /* its FeedForward runs eager */
    b.norm_upcast_kept = 1; /* and its RMSNorm */
    b.logits_freed = 1;     /* its recipes `del logits` before backward */
    b.overhead_bytes = a.overhead_bytes;
    b.fragmentation = a.fragmentation;
    hwfit_memory_out oa = estimate_ok(&m, &a), ob = estimate_ok(&m, &b);
    cr_assert_eq(oa.peak_bytes, ob.peak_bytes);
    cr_assert_eq(oa.optimizer_bytes, 0); /* paged: not on the device */
    /* Several devices: plain AdamW with bf16 moments, 4 bytes a parameter. */
    hwfit_memory_init(&a);
    a.mode = HWFIT_MEMORY_FULL;
    cr_assert_eq(hwfit_memory_profile_apply("torchtune", 8, &a, NULL), HWFIT_OK);
    cr_assert_eq(estimate_ok(&m, &a).optimizer_bytes, 4 * P8B);
    /* Megatron: fp32 master and moments, fp32 main_grad: 18 bytes a parameter. */
    hwfit_memory_init(&a);
    a.mode = HWFIT_MEMORY_FULL;
    cr_assert_eq(hwfit_memory_profile_apply("megatron", 8, &a, NULL), HWFIT_OK);
    hwfit_memory_out mg = estimate_ok(&m, &a);
    cr_assert_eq(mg.weights_bytes + mg.gradient_bytes + mg.optimizer_bytes, 18 * P8B);
    cr_assert_eq(hwfit_memory_profile_apply("no-such", 1, &a, NULL), HWFIT_ENOTFOUND);
    /* LLaMA-Factory checkpoints every layer unless told not to (its
     * disable_gradient_checkpointing defaults to False); the Trainer it runs does not. */
    hwfit_memory_init(&a);
    a.mode = HWFIT_MEMORY_LORA;
    b = a;
    uint64_t sets = 0;
    cr_assert_eq(hwfit_memory_profile_apply("llama-factory", 1, &a, &sets), HWFIT_OK);
    cr_assert_eq(a.recompute, HWFIT_MEMORY_RECOMPUTE_FULL);
    cr_assert(sets & HWFIT_PROFILE_RECOMPUTE);
    cr_assert_eq(hwfit_memory_profile_apply("hf-trainer", 1, &b, NULL), HWFIT_OK);
    cr_assert_eq(b.recompute, HWFIT_MEMORY_RECOMPUTE_NONE);
    /* Otherwise the Trainer's choices. */
    cr_assert(a.master_weights == b.master_weights && a.fused_optimizer == b.fused_optimizer &&
              a.loss == b.loss && a.optimizer_states.id == b.optimizer_states.id &&
              a.gradients.id == b.gradients.id && a.lora_dtype.id == b.lora_dtype.id &&
              a.overhead_bytes == b.overhead_bytes && a.fragmentation == b.fragmentation);
}

/* The FP8 choices are apart from the others: megatron's Transformer Engine linears keep
 * FP8 inputs in full training (hwfit_memory_profile_apply_fp8), which the plain apply never
 * sets; LoRA and profiles without an FP8 choice are left untouched, and the result equals
 * setting fp8_inputs_saved alone. */
Test(memory, profile_fp8_choices_only_from_apply_fp8) {
    hwfit_model m;
    llama8b(&m);
    for (size_t i = 0; hwfit_memory_profile_name(i) != NULL; i++) {
        const char *name = hwfit_memory_profile_name(i);
        hwfit_memory_in in;
        hwfit_memory_init(&in);
        in.mode = HWFIT_MEMORY_FULL;
        uint64_t sets = 0;
        cr_assert_eq(hwfit_memory_profile_apply(name, 8, &in, &sets), HWFIT_OK);
        cr_assert_eq(sets & HWFIT_PROFILE_FP8_INPUTS, 0u, "%s", name);
        cr_assert_eq(in.fp8_inputs_saved, 0, "%s", name);
        hwfit_memory_in f8 = in;
        cr_assert_eq(hwfit_memory_profile_apply_fp8(name, 8, &f8, &sets), HWFIT_OK);
        int te = strcmp(name, "megatron") == 0;
        cr_assert_eq(!!(sets & HWFIT_PROFILE_FP8_INPUTS), te, "%s", name);
        cr_assert_eq(f8.fp8_inputs_saved, te, "%s", name);
        hwfit_memory_in alone = in;
        alone.fp8_inputs_saved = te;
        cr_assert_eq(memcmp(&alone, &f8, sizeof f8), 0, "%s", name);
        in.mode = HWFIT_MEMORY_LORA;
        f8 = in;
        cr_assert_eq(hwfit_memory_profile_apply_fp8(name, 8, &f8, &sets), HWFIT_OK);
        cr_assert_eq(sets, 0u, "%s", name);
        cr_assert_eq(memcmp(&in, &f8, sizeof f8), 0, "%s", name);
    }
    /* In the model, the FP8 copies make the activations smaller. */
    hwfit_memory_in a;
    hwfit_memory_init(&a);
    a.mode = HWFIT_MEMORY_FULL;
    a.context = 1024;
    a.recompute = HWFIT_MEMORY_RECOMPUTE_SELECTIVE;
    hwfit_memory_in b = a;
    cr_assert_eq(hwfit_memory_profile_apply_fp8("megatron", 8, &b, NULL), HWFIT_OK);
    cr_assert_lt(estimate_ok(&m, &b).activation_bytes, estimate_ok(&m, &a).activation_bytes);
}

/* Per-module formats: only the MLPs in nf4; the attention alone in fp8. */
Test(memory, module_formats_replace_the_weight_format_per_module) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    hwfit_memory_out bf = estimate_ok(&m, &in);
    in.module_formats = 1;
    in.attention_weights = dt("bf16");
    in.mlp_weights = dt("bf16");
    in.expert_weights = dt("bf16");
    cr_assert_eq(estimate_ok(&m, &in).weights_bytes, bf.weights_bytes);
    in.mlp_weights = dt("nf4");
    hwfit_memory_out q = estimate_ok(&m, &in);
    /* 32 layers x 3 matrices of 4096 x 14336: bf16 2 bytes -> nf4 (4 bits + an fp32 scale
     * per 64 values: 0.5625 bytes). */
    uint64_t mlp = 32ull * 3 * 4096 * 14336;
    cr_assert_eq(bf.weights_bytes - q.weights_bytes, 2 * mlp - mlp / 64 * 36);
    in.mlp_weights = dt("bf16");
    in.attention_weights = dt("fp8");
    uint64_t attn = 32ull * (2 * 4096 * 4096 + 2 * 1024 * 4096);
    cr_assert_eq(bf.weights_bytes - estimate_ok(&m, &in).weights_bytes, attn);
    /* Full training of a quantized module is refused like quantized weights. */
    in.mode = HWFIT_MEMORY_FULL;
    in.mlp_weights = dt("nf4");
    hwfit_memory_out o;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &o), HWFIT_EUNSUPPORTED);
}

/* DoRA: a magnitude per output feature of each targeted matrix, and the two outputs the
 * magnitude multiplies kept for its gradient (peft dora.py: (m/n - 1) * base_result +
 * m/n * lora_result * scaling): the base layer's and the LoRA branch's. */
Test(memory, dora_adds_magnitudes_and_kept_outputs) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.lora_targets = HWFIT_LORA_Q | HWFIT_LORA_V;
    in.context = 1000;
    hwfit_memory_out l = estimate_ok(&m, &in);
    in.dora = 1;
    hwfit_memory_out d = estimate_ok(&m, &in);
    cr_assert_eq(d.adapter_params - l.adapter_params, 32ull * (4096 + 1024));
    cr_assert_eq(d.activation_dense_layer_bytes - l.activation_dense_layer_bytes,
                 2 * 1000ull * (4096 + 1024) * 2);
    /* LoRA dropout keeps each adapter's input copy (bf16) and its mask (1 byte). */
    in.dora = 0;
    in.lora_dropout = 1;
    hwfit_memory_out r = estimate_ok(&m, &in);
    cr_assert_eq(r.activation_dense_layer_bytes - l.activation_dense_layer_bytes,
                 1000ull * (4096 + 4096) * 3);
    /* LitGPT's fused q/k/v adapter: q and v read the same normed hidden state through one
     * dropout, kept once; the adapters' parameters do not change. */
    in.lora_qkv_one_dropout = 1;
    hwfit_memory_out one = estimate_ok(&m, &in);
    cr_assert_eq(r.activation_dense_layer_bytes - one.activation_dense_layer_bytes,
                 1000ull * 4096 * 3);
    cr_assert_eq(one.adapter_params, r.adapter_params);
    /* Adapters outside q, k and v keep their own dropouts: o adds its input again. */
    in.lora_targets = HWFIT_LORA_Q | HWFIT_LORA_V | HWFIT_LORA_O;
    hwfit_memory_out qvo = estimate_ok(&m, &in);
    cr_assert_eq(qvo.activation_dense_layer_bytes - one.activation_dense_layer_bytes,
                 1000ull * 4096 * 3);
    /* Without dropout there is nothing to share. */
    in.lora_targets = HWFIT_LORA_Q | HWFIT_LORA_V;
    in.lora_dropout = 0;
    cr_assert_eq(estimate_ok(&m, &in).activation_dense_layer_bytes, l.activation_dense_layer_bytes);
    /* Not 0 or 1: refused with the field named. */
    in.lora_dropout = 1;
    in.lora_qkv_one_dropout = 2;
    hwfit_problem why;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "lora_qkv_one_dropout");
}

/* A frozen base keeps no linear inputs for weight gradients: LoRA on q and v stores less
 * than full fine-tuning at the same shape, LoRA on every matrix as much. */
Test(memory, frozen_base_keeps_fewer_activations) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.context = 1000;
    in.dropout = 0;
    in.mode = HWFIT_MEMORY_FULL;
    uint64_t full = estimate_ok(&m, &in).activation_dense_layer_bytes;
    in.mode = HWFIT_MEMORY_LORA;
    cr_assert_eq(estimate_ok(&m, &in).activation_dense_layer_bytes, full);
    in.lora_targets = HWFIT_LORA_Q | HWFIT_LORA_V;
    /* No MLP input (h) and no down-projection input (F) kept: 2 bytes each. */
    cr_assert_eq(estimate_ok(&m, &in).activation_dense_layer_bytes,
                 full - 1000ull * 2 * (4096 + 14336));
}

/* QLoRA through bitsandbytes: every 4-bit linear keeps its input (MatMul4Bit), so a frozen
 * layer stores what a trained one does; LoRA on bf16 weights is unchanged by the switch. */
Test(memory, qlora_inputs_kept_store_every_frozen_linear_input) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.context = 1000;
    in.dropout = 0;
    in.mode = HWFIT_MEMORY_QLORA;
    in.lora_targets = HWFIT_LORA_Q | HWFIT_LORA_V;
    uint64_t dropped = estimate_ok(&m, &in).activation_dense_layer_bytes;
    in.qlora_inputs_kept = 1;
    /* The MLP input (h) and the down projection's input (F), 2 bytes each, per token. */
    cr_assert_eq(estimate_ok(&m, &in).activation_dense_layer_bytes,
                 dropped + 1000ull * 2 * (4096 + 14336));
    in.lora_targets = HWFIT_LORA_ALL; /* every input is kept anyway */
    uint64_t all = estimate_ok(&m, &in).activation_dense_layer_bytes;
    in.qlora_inputs_kept = 0;
    cr_assert_eq(estimate_ok(&m, &in).activation_dense_layer_bytes, all);
    in.mode = HWFIT_MEMORY_LORA;
    in.lora_targets = HWFIT_LORA_Q | HWFIT_LORA_V;
    uint64_t lora = estimate_ok(&m, &in).activation_dense_layer_bytes;
    in.qlora_inputs_kept = 1;
    cr_assert_eq(estimate_ok(&m, &in).activation_dense_layer_bytes, lora);
    /* The profiles: bitsandbytes QLoRA (Trainer, LitGPT) keeps them, torchao's NF4 does not. */
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_QLORA;
    cr_assert_eq(hwfit_memory_profile_apply("hf-trainer+peft", 1, &in, NULL), HWFIT_OK);
    cr_assert_eq(in.qlora_inputs_kept, 1);
    cr_assert_eq(hwfit_memory_profile_apply("litgpt", 1, &in, NULL), HWFIT_OK);
    cr_assert_eq(in.qlora_inputs_kept, 1);
    cr_assert_eq(hwfit_memory_profile_apply("torchtune", 1, &in, NULL), HWFIT_OK);
    cr_assert_eq(in.qlora_inputs_kept, 0);
}

/* LitGPT unties a tied head: a second vocab x hidden matrix, in the linear weights' format
 * (nf4 with them in QLoRA); an untied model is unchanged. */
Test(memory, untied_head_adds_the_head_in_the_linear_format) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    hwfit_memory_out a = estimate_ok(&m, &in);
    in.untied_head = 1;
    cr_assert_eq(estimate_ok(&m, &in).weights_bytes, a.weights_bytes); /* not tied */
    m.tie_embeddings = 1;
    in.untied_head = 0;
    hwfit_memory_out tied = estimate_ok(&m, &in);
    in.untied_head = 1;
    hwfit_memory_out untied = estimate_ok(&m, &in);
    cr_assert_eq(untied.weights_bytes - tied.weights_bytes, 128256ull * 4096 * 2);
    cr_assert_eq(untied.params - tied.params, 128256ull * 4096);
    cr_assert_eq(untied.trainable_params, tied.trainable_params);
    in.mode = HWFIT_MEMORY_QLORA;
    in.qlora_base = dt("nf4");
    uint64_t q1 = estimate_ok(&m, &in).weights_bytes;
    in.untied_head = 0;
    uint64_t q0 = estimate_ok(&m, &in).weights_bytes;
    uint64_t nf4 = 0;
    cr_assert_eq(hwfit_dtype_matrix_bytes(dt("nf4"), 128256, 4096, &nf4), HWFIT_OK);
    cr_assert_eq(q1 - q0, nf4);
    hwfit_memory_init(&in);
    cr_assert_eq(hwfit_memory_profile_apply("litgpt", 1, &in, NULL), HWFIT_OK);
    cr_assert_eq(in.untied_head, 1);
}

/* Packed rows: no change with flash attention; without it the block mask, A s^2 b. */
Test(memory, packed_rows_keep_a_mask_without_flash_attention) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 2048;
    in.micro_batch = 2;
    hwfit_memory_out a = estimate_ok(&m, &in);
    in.packed = 1;
    cr_assert_eq(estimate_ok(&m, &in).activation_bytes, a.activation_bytes);
    in.flash_attention = 0;
    in.packed = 0;
    hwfit_memory_out b = estimate_ok(&m, &in);
    in.packed = 1;
    cr_assert_eq(estimate_ok(&m, &in).activation_bytes - b.activation_bytes,
                 2048ull * 2048 * 2 * 2);
}

/* Activation offload keeps two layers' worth; the fragmentation reserve rounds up. */
Test(memory, offload_and_reserve) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_QLORA;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    in.context = 100000;
    hwfit_memory_out a = estimate_ok(&m, &in);
    in.activation_offload = 1;
    in.fragmentation = 0.1;
    hwfit_memory_out b = estimate_ok(&m, &in);
    check_phases(&b, &in);
    cr_assert_eq(a.activation_bytes - b.activation_bytes,
                 30ull * 100000 * 4096 * 2); /* 32 layer inputs -> 2 */
    in.fragmentation = 1.5;
    hwfit_memory_out o;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &o), HWFIT_EDOM);
    in.fragmentation = 0.1;
    in.loss = (hwfit_memory_loss)(HWFIT_MEMORY_LOSS_LIGER + 1);
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &o), HWFIT_EINVAL);
}

/* Soft-capped logits run eager (softcap_eager, LitGPT): every stored layer keeps a s^2 b
 * scores three times, the tanh output (bf16), the fp32 softmax and its bf16 copy: 8 bytes a
 * score. Nothing without soft-capping; with full recomputation only the recomputed layer.
 * One layer's backward holds 6 bytes a score more (eager_grads: at the bf16 softmax's
 * backward the tanh output, the fp32 output, its fp32 gradient and the fp32 input
 * gradient, 14, over the 8 kept). */
Test(memory, softcap_eager_keeps_the_scores_of_soft_capped_attention) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 512;
    in.micro_batch = 2;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    hwfit_memory_out flash = estimate_ok(&m, &in);
    in.softcap_eager = 1;
    cr_assert_eq(estimate_ok(&m, &in).activation_bytes, flash.activation_bytes); /* no cap */
    m.attention_softcap = 1;
    hwfit_memory_out eager = estimate_ok(&m, &in);
    cr_assert_eq(eager.activation_bytes - flash.activation_bytes,
                 32ull * 32 * 512 * 512 * 2 * 8 + 32ull * 512 * 512 * 2 * 6);
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    uint64_t full_eager = estimate_ok(&m, &in).activation_bytes;
    in.softcap_eager = 0;
    cr_assert_eq(full_eager - estimate_ok(&m, &in).activation_bytes,
                 32ull * 512 * 512 * 2 * (8 + 6));
    hwfit_memory_init(&in);
    cr_assert_eq(hwfit_memory_profile_apply("litgpt", 1, &in, NULL), HWFIT_OK);
    cr_assert_eq(in.softcap_eager, 1);
    hwfit_memory_init(&in);
    cr_assert_eq(hwfit_memory_profile_apply("hf-trainer+peft", 1, &in, NULL), HWFIT_OK);
    cr_assert_eq(in.softcap_eager, 0);
}

/* gated_act_kept: an eager gated MLP keeps act(gate) too, F per token and layer in the
 * activation format (Llama 3.1 8B: 14336 x 2 bytes); nothing in inference or compiled. */
Test(memory, gated_act_kept_stores_the_activation_output) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 512;
    in.micro_batch = 2;
    hwfit_memory_out a = estimate_ok(&m, &in);
    in.gated_act_kept = 1;
    hwfit_memory_out b = estimate_ok(&m, &in);
    check_phases(&b, &in);
    cr_assert_eq(b.activation_bytes - a.activation_bytes, 32ull * 1024 * 14336 * 2);
    cr_assert_eq(b.activation_dense_layer_bytes - a.activation_dense_layer_bytes,
                 1024ull * 14336 * 2);
    in.compile = 1; /* fused: act(gate) recomputed */
    hwfit_memory_out c = estimate_ok(&m, &in);
    in.gated_act_kept = 0;
    cr_assert_eq(estimate_ok(&m, &in).activation_bytes, c.activation_bytes);
    in.compile = 0;
    in.mode = HWFIT_MEMORY_INFERENCE;
    hwfit_memory_out i0 = estimate_ok(&m, &in);
    in.gated_act_kept = 1;
    cr_assert_eq(estimate_ok(&m, &in).activation_bytes, i0.activation_bytes);
    hwfit_memory_init(&in);
    cr_assert_eq(in.gated_act_kept, 0);
    cr_assert_eq(hwfit_memory_profile_apply("hf-trainer", 1, &in, NULL), HWFIT_OK);
    cr_assert_eq(in.gated_act_kept, 1);
    hwfit_memory_init(&in);
    uint64_t sets = 0;
    cr_assert_eq(hwfit_memory_profile_apply("megatron", 8, &in, &sets), HWFIT_OK);
    cr_assert_eq(in.gated_act_kept, 0); /* fused bias_swiglu */
    cr_assert_eq(sets & HWFIT_PROFILE_GATED_ACT, 0u);
}

/* norm_weight_fp32: LitGPT's RMSNorm multiplies the fp32 normalized tensor by the fp32 weight
 * before casting back, so a trained weight keeps that tensor in fp32: 2 bytes more an element
 * than norm_upcast_kept's bf16 copy in full training (Llama 3.1 8B, 1,024 tokens: 64 layer
 * norms and the final one, 4,096 wide), nothing with frozen norms (LoRA), without
 * norm_upcast_kept or compiled; the litgpt profile sets it, no other. */
Test(memory, norm_weight_fp32_keeps_the_normalized_tensor_in_fp32) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    cr_assert_eq(in.norm_weight_fp32, 0);
    in.mode = HWFIT_MEMORY_FULL;
    in.context = 512;
    in.micro_batch = 2;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    in.norm_upcast_kept = 1;
    const uint64_t sbh = 1024ull * 4096;
    hwfit_memory_out a = estimate_ok(&m, &in);
    in.norm_weight_fp32 = 1;
    hwfit_memory_out b = estimate_ok(&m, &in);
    check_phases(&b, &in);
    cr_assert_eq(b.activation_dense_layer_bytes - a.activation_dense_layer_bytes, 2 * 2 * sbh);
    cr_assert_eq(b.activation_bytes - a.activation_bytes, 32 * 2 * 2 * sbh + 2 * sbh);
    in.mode = HWFIT_MEMORY_LORA; /* frozen norm weights: nothing kept for them */
    in.norm_weight_fp32 = 0;
    hwfit_memory_out la = estimate_ok(&m, &in);
    in.norm_weight_fp32 = 1;
    cr_assert_eq(estimate_ok(&m, &in).activation_bytes, la.activation_bytes);
    in.mode = HWFIT_MEMORY_FULL;
    in.norm_upcast_kept = 0; /* no eager norm: nothing */
    hwfit_memory_out na = estimate_ok(&m, &in);
    in.norm_weight_fp32 = 0;
    cr_assert_eq(estimate_ok(&m, &in).activation_bytes, na.activation_bytes);
    for (const char *const *p = (const char *const[]){"litgpt", "torchtune", "hf-trainer", NULL};
         *p; p++) {
        hwfit_memory_init(&in);
        uint64_t sets = 0;
        cr_assert_eq(hwfit_memory_profile_apply(*p, 1, &in, &sets), HWFIT_OK);
        int lit = (*p)[0] == 'l';
        cr_assert_eq(in.norm_weight_fp32, lit, "%s", *p);
        cr_assert_eq((sets & HWFIT_PROFILE_NORM_WEIGHT_FP32) != 0, lit, "%s", *p);
    }
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_FULL;
    in.norm_weight_fp32 = 2;
    hwfit_memory_out out;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &out), HWFIT_EDOM);
}

/* norm_upcast_kept: an eager RMSNorm keeps the fp32 copy of its input (4 bytes an element
 * where the norm's input counted 2) and, when its weight trains, the normalized bf16 tensor
 * (2 more): per token and norm 2h frozen (LoRA), 4h trained (full); 2 norms a layer and the
 * final norm (Llama 3.1 8B: h 4096, 32 layers); nothing compiled, in inference or on a
 * LayerNorm model. */
Test(memory, norm_upcast_kept_stores_the_fp32_input) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 512;
    in.micro_batch = 2;
    const uint64_t sbh = 1024ull * 4096;
    hwfit_memory_out a = estimate_ok(&m, &in);
    in.norm_upcast_kept = 1;
    hwfit_memory_out b = estimate_ok(&m, &in);
    check_phases(&b, &in);
    cr_assert_eq(b.activation_dense_layer_bytes - a.activation_dense_layer_bytes, 2 * 2 * sbh);
    cr_assert_eq(b.activation_bytes - a.activation_bytes, 32 * 2 * 2 * sbh + 2 * sbh);
    in.mode = HWFIT_MEMORY_FULL; /* the norms' weights train: the normalized bf16 too */
    in.norm_upcast_kept = 0;
    hwfit_memory_out fa = estimate_ok(&m, &in);
    in.norm_upcast_kept = 1;
    hwfit_memory_out fb = estimate_ok(&m, &in);
    cr_assert_eq(fb.activation_dense_layer_bytes - fa.activation_dense_layer_bytes, 4 * 2 * sbh);
    cr_assert_eq(fb.activation_bytes - fa.activation_bytes, 32 * 4 * 2 * sbh + 4 * sbh);
    in.compile = 1; /* one fused kernel: its bf16 input and a reciprocal per token */
    hwfit_memory_out c = estimate_ok(&m, &in);
    in.norm_upcast_kept = 0;
    cr_assert_eq(estimate_ok(&m, &in).activation_bytes, c.activation_bytes);
    in.compile = 0;
    in.norm_upcast_kept = 1;
    m.norm = HWFIT_MODEL_NORM_LAYER; /* F.layer_norm keeps its input as it is */
    hwfit_memory_out l1 = estimate_ok(&m, &in);
    in.norm_upcast_kept = 0;
    cr_assert_eq(estimate_ok(&m, &in).activation_bytes, l1.activation_bytes);
    m.norm = HWFIT_MODEL_NORM_RMS;
    in.mode = HWFIT_MEMORY_INFERENCE;
    hwfit_memory_out i0 = estimate_ok(&m, &in);
    in.norm_upcast_kept = 1;
    cr_assert_eq(estimate_ok(&m, &in).activation_bytes, i0.activation_bytes);
    /* the profiles whose models run the eager norm set it; megatron and unsloth fuse it */
    const char *eager[] = {"torchtune", "hf-trainer", "deepspeed", "fsdp", "litgpt",
                           "llama-factory"};
    for (size_t i = 0; i < sizeof eager / sizeof eager[0]; i++) {
        hwfit_memory_init(&in);
        cr_assert_eq(hwfit_memory_profile_apply(eager[i], 1, &in, NULL), HWFIT_OK);
        cr_assert_eq(in.norm_upcast_kept, 1, "%s", eager[i]);
    }
    const char *fused[] = {"megatron", "unsloth"};
    for (size_t i = 0; i < sizeof fused / sizeof fused[0]; i++) {
        hwfit_memory_init(&in);
        uint64_t sets = 0;
        cr_assert_eq(hwfit_memory_profile_apply(fused[i], 8, &in, &sets), HWFIT_OK);
        cr_assert_eq(in.norm_upcast_kept, 0, "%s", fused[i]);
        cr_assert_eq(sets & HWFIT_PROFILE_NORM_UPCAST, 0u);
    }
}

/* A compiled gated MLP keeps gate and up (2F), and the product when the down projection's
 * weight or adapter takes a gradient: torch.compile's partitioner never recomputes a node
 * a backward matmul reads (ban_recompute_materialized_backward). With the down projection
 * frozen nothing more goes: the product's and the activation's backward still need gate
 * and up, so a frozen MLP stores 2F compiled as in eager fused form. With an adapter on
 * the down projection, eager and compiled both keep its input (3F); full training
 * compiled keeps 3F, eager with gated_act_kept 4F. Llama 3.1 8B, F = 14336, 2-byte
 * activations. */
Test(memory, compiled_frozen_mlp_keeps_gate_and_up) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.lora_targets = HWFIT_LORA_Q | HWFIT_LORA_V;
    in.context = 512;
    in.micro_batch = 2;
    hwfit_memory_out eager = estimate_ok(&m, &in);
    in.compile = 1;
    hwfit_memory_out compiled = estimate_ok(&m, &in);
    check_phases(&compiled, &in);
    cr_assert_eq(compiled.activation_dense_layer_bytes, eager.activation_dense_layer_bytes);
    in.lora_targets = HWFIT_LORA_ALL;
    hwfit_memory_out all_c = estimate_ok(&m, &in);
    in.compile = 0;
    hwfit_memory_out all_e = estimate_ok(&m, &in);
    cr_assert_eq(all_e.activation_dense_layer_bytes, all_c.activation_dense_layer_bytes);
    in.mode = HWFIT_MEMORY_FULL;
    in.gated_act_kept = 1;
    hwfit_memory_out full_e = estimate_ok(&m, &in);
    in.compile = 1;
    hwfit_memory_out full_c = estimate_ok(&m, &in);
    check_phases(&full_c, &in);
    cr_assert_eq(full_e.activation_dense_layer_bytes - full_c.activation_dense_layer_bytes,
                 1024ull * 14336 * 2); /* act(gate) recomputed, the product kept */
}

/* kv_repeated: GQA's K and V repeated to the 32 query heads, (32 - 8) x 128 x 2 values more
 * per token and layer (Llama 3.1 8B); an MHA model is unchanged. */
Test(memory, kv_repeated_keeps_the_repeated_keys_and_values) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 512;
    hwfit_memory_out a = estimate_ok(&m, &in);
    in.kv_repeated = 1;
    hwfit_memory_out b = estimate_ok(&m, &in);
    cr_assert_eq(b.activation_bytes - a.activation_bytes, 32ull * 512 * (32 - 8) * 128 * 2 * 2);
    m.kv_heads = 32;
    in.kv_repeated = 0;
    uint64_t mha = estimate_ok(&m, &in).activation_bytes;
    in.kv_repeated = 1;
    cr_assert_eq(estimate_ok(&m, &in).activation_bytes, mha);
    hwfit_memory_init(&in);
    cr_assert_eq(hwfit_memory_profile_apply("litgpt", 1, &in, NULL), HWFIT_OK);
    cr_assert_eq(in.kv_repeated, 1);
}

/* dequant_transient: the largest 4-bit matrix dequantized to bf16 is live in forward and
 * backward, not in the step. Llama 3.1 8B QLoRA: the MLP's 14336 x 4096; with the head
 * quantized too (untied_head), the head's 128256 x 4096. A bf16 base has nothing to
 * dequantize. */
Test(memory, dequant_transient_holds_the_largest_quantized_matrix) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_QLORA;
    in.context = 512;
    hwfit_memory_out a = estimate_ok(&m, &in);
    cr_assert_eq(a.dequant_bytes, 0);
    in.dequant_transient = 1;
    hwfit_memory_out b = estimate_ok(&m, &in);
    check_phases(&b, &in);
    cr_assert_eq(b.dequant_bytes, 14336ull * 4096 * 2);
    cr_assert_eq(b.forward_bytes - a.forward_bytes, b.dequant_bytes);
    cr_assert_eq(b.backward_bytes - a.backward_bytes, b.dequant_bytes);
    cr_assert_eq(b.step_bytes, a.step_bytes);
    in.untied_head = 1;
    cr_assert_eq(estimate_ok(&m, &in).dequant_bytes, 128256ull * 4096 * 2);
    in.tensor_parallel = 2;
    cr_assert_eq(estimate_ok(&m, &in).dequant_bytes, 128256ull * 4096);
    in.tensor_parallel = 1;
    in.mode = HWFIT_MEMORY_LORA;
    cr_assert_eq(estimate_ok(&m, &in).dequant_bytes, 0);
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_QLORA;
    cr_assert_eq(hwfit_memory_profile_apply("torchtune", 1, &in, NULL), HWFIT_OK);
    cr_assert_eq(in.dequant_transient, 1);
}

/* dequant_work_bytes: torchao NF4's eager dequantization holds its int64 indices and
 * looked-up halves (12 bytes an element) beside the bf16 output: Llama 3.1 8B QLoRA, the
 * MLP's 14336 x 4096 at 2 + 12 bytes, in forward and backward, not in the step; compiled,
 * the output alone; nothing without dequant_transient; the torchtune profile sets 12 for
 * QLoRA, the bitsandbytes profiles 0; above 64 refused. */
Test(memory, dequant_work_bytes_beside_the_dequantized_matrix) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    cr_assert_eq(in.dequant_work_bytes, 0);
    in.mode = HWFIT_MEMORY_QLORA;
    in.context = 512;
    in.dequant_transient = 1;
    const hwfit_memory_out a = estimate_ok(&m, &in);
    in.dequant_work_bytes = 12;
    const hwfit_memory_out b = estimate_ok(&m, &in);
    check_phases(&b, &in);
    const uint64_t mlp = 14336ull * 4096;
    cr_assert_eq(a.dequant_bytes, 2 * mlp);
    cr_assert_eq(b.dequant_bytes, 14 * mlp);
    cr_assert_eq(b.forward_bytes - a.forward_bytes, 12 * mlp);
    cr_assert_eq(b.backward_bytes - a.backward_bytes, 12 * mlp);
    cr_assert_eq(b.step_bytes, a.step_bytes);
    cr_assert_eq(b.load_bytes, a.load_bytes);
    in.compile = 1; /* inductor fuses the chain: the output alone */
    cr_assert_eq(estimate_ok(&m, &in).dequant_bytes, 2 * mlp);
    in.compile = 0;
    in.dequant_transient = 0;
    cr_assert_eq(estimate_ok(&m, &in).dequant_bytes, 0);
    in.dequant_work_bytes = 65;
    hwfit_memory_out out;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &out), HWFIT_EDOM);
    const char *names[] = {"torchtune", "hf-trainer", "unsloth"};
    for (size_t i = 0; i < 3; i++) {
        hwfit_memory_init(&in);
        in.mode = HWFIT_MEMORY_QLORA;
        cr_assert_eq(hwfit_memory_profile_apply(names[i], 1, &in, NULL), HWFIT_OK);
        cr_assert_eq(in.dequant_work_bytes, i == 0 ? 12 : 0, "%s", names[i]);
    }
}

/* load_quantize_bytes: quantizing on the device at load holds the largest quantized matrix
 * times the bytes per element (torchao 0.1's to_nf4: 68) beside the weights; the load phase
 * is the weights plus that and sets the peak when it is the largest. Llama 3.1 8B QLoRA:
 * the MLP's 14336 x 4096 (/t under tensor parallelism); nothing to quantize in bf16 LoRA;
 * torchtune's QLoRA profile sets 4 (torchao >= 0.2: the bf16 weight and its scaled copy). */
Test(memory, load_quantize_bytes_makes_a_load_phase) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_QLORA;
    in.context = 512;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    hwfit_memory_out a = estimate_ok(&m, &in);
    cr_assert_eq(a.load_bytes, a.weights_bytes);
    cr_assert_neq(a.peak_phase, HWFIT_MEMORY_PHASE_LOAD);
    in.load_quantize_bytes = 68.0;
    hwfit_memory_out b = estimate_ok(&m, &in);
    cr_assert_eq(b.load_bytes, b.weights_bytes + 14336ull * 4096 * 68);
    cr_assert_eq(b.forward_bytes, a.forward_bytes);
    cr_assert_eq(b.backward_bytes, a.backward_bytes);
    cr_assert_eq(b.step_bytes, a.step_bytes);
    cr_assert_eq(b.peak_phase, HWFIT_MEMORY_PHASE_LOAD);
    cr_assert_eq(b.allocated_bytes, b.load_bytes);
    cr_assert_gt(b.reserved_bytes, a.reserved_bytes);
    in.tensor_parallel = 2;
    hwfit_memory_out c = estimate_ok(&m, &in);
    cr_assert_eq(c.load_bytes, c.weights_bytes + 14336ull * 4096 / 2 * 68);
    in.tensor_parallel = 1;
    in.mode = HWFIT_MEMORY_LORA;
    hwfit_memory_out d = estimate_ok(&m, &in);
    cr_assert_eq(d.load_bytes, d.weights_bytes);
    in.load_quantize_bytes = -1.0;
    hwfit_problem why;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "load_quantize_bytes");
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_QLORA;
    cr_assert_eq(hwfit_memory_profile_apply("torchtune", 1, &in, NULL), HWFIT_OK);
    cr_assert_eq(in.load_quantize_bytes, 4.0);
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    cr_assert_eq(hwfit_memory_profile_apply("torchtune", 1, &in, NULL), HWFIT_OK);
    cr_assert_eq(in.load_quantize_bytes, 0.0);
}

/* untied_head on an untied model: the head in the linear weights' format (nf4 in QLoRA,
 * as Lightning's bitsandbytes plugin quantizes lm_head), the embedding kept in bf16. */
Test(memory, untied_head_quantizes_the_head_of_an_untied_model) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_QLORA;
    in.qlora_base = dt("nf4");
    hwfit_memory_out a = estimate_ok(&m, &in);
    in.untied_head = 1;
    hwfit_memory_out b = estimate_ok(&m, &in);
    uint64_t nf4 = 0;
    cr_assert_eq(hwfit_dtype_matrix_bytes(dt("nf4"), 128256, 4096, &nf4), HWFIT_OK);
    cr_assert_eq(a.weights_bytes - b.weights_bytes, 128256ull * 4096 * 2 - nf4);
    cr_assert_eq(a.params, b.params);
}

/* previous_graph: the previous micro-batch's bf16 logits (s b V x 2) in forward and step;
 * with bitsandbytes' kept 4-bit inputs also each layer's attention and MLP inputs (2h),
 * the output projection's (a d) and the down projection's (F), and the quantized head's
 * input h. Backward does not hold them. */
Test(memory, previous_graph_holds_the_last_logits_and_4bit_inputs) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 512;
    in.micro_batch = 2;
    hwfit_memory_out a = estimate_ok(&m, &in);
    in.previous_graph = 1;
    hwfit_memory_out b = estimate_ok(&m, &in);
    check_phases(&b, &in);
    cr_assert_eq(b.carried_bytes, 1024ull * 128256 * 2);
    cr_assert_eq(b.forward_bytes - a.forward_bytes, b.carried_bytes);
    cr_assert_eq(b.step_bytes - a.step_bytes, b.carried_bytes);
    cr_assert_eq(b.backward_bytes, a.backward_bytes);
    in.mode = HWFIT_MEMORY_QLORA;
    in.qlora_inputs_kept = 1;
    uint64_t layer = 1024ull * (2 * 4096 + 4096 + 14336) * 2;
    cr_assert_eq(estimate_ok(&m, &in).carried_bytes, 1024ull * 128256 * 2 + 32 * layer);
    in.untied_head = 1; /* the head is nf4 too: its input */
    cr_assert_eq(estimate_ok(&m, &in).carried_bytes,
                 1024ull * 128256 * 2 + 32 * layer + 1024ull * 4096 * 2);
    in.qlora_inputs_kept = 0;
    cr_assert_eq(estimate_ok(&m, &in).carried_bytes, 1024ull * 128256 * 2);
    in.head = 0;
    cr_assert_eq(estimate_ok(&m, &in).carried_bytes, 0);
    hwfit_memory_init(&in);
    cr_assert_eq(hwfit_memory_profile_apply("litgpt", 1, &in, NULL), HWFIT_OK);
    cr_assert_eq(in.previous_graph, 1);
    hwfit_memory_init(&in);
    cr_assert_eq(hwfit_memory_profile_apply("fsdp", 2, &in, NULL), HWFIT_OK);
    cr_assert_eq(in.previous_graph, 0);
}

/* Loss fp32-copy (Megatron as its code runs): the bf16 logits beside their fp32 copy, 2 sbV
 * more than Megatron's estimate (fp32); the megatron profile sets it. */
Test(memory, loss_fp32_copy_keeps_the_logits_beside_their_fp32_copy) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_FULL;
    in.context = 1024;
    hwfit_memory_out a = estimate_ok(&m, &in);
    in.loss = HWFIT_MEMORY_LOSS_FP32_COPY;
    hwfit_memory_out b = estimate_ok(&m, &in);
    check_phases(&b, &in);
    cr_assert_eq(b.loss_bytes - a.loss_bytes, 1024ull * 128256 * 2);
    in.loss = (hwfit_memory_loss)(HWFIT_MEMORY_LOSS_LIGER + 1);
    hwfit_memory_out o;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &o), HWFIT_EINVAL);
    hwfit_memory_init(&in);
    cr_assert_eq(hwfit_memory_profile_apply("megatron", 8, &in, NULL), HWFIT_OK);
    cr_assert_eq(in.loss, HWFIT_MEMORY_LOSS_FP32_COPY);
}

/* trained_fp32 (LLaMA-Factory's cast_trainable_params_to_fp32): full training holds every
 * weight in fp32 and no master copy; with fp32 gradients and moments, 4 + 4 + 8 = 16 bytes a
 * parameter (Llama 3.1 8B: 8,030,261,248). LoRA: the adapters are fp32, the base as given. */
Test(memory, trained_fp32_holds_the_trained_parameters_in_fp32) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_FULL;
    in.context = 1024;
    hwfit_memory_out a = estimate_ok(&m, &in);
    /* Before: bf16 weights, an fp32 master copy, fp32 moments, bf16 gradients. */
    cr_assert_eq(a.weights_bytes, 2 * P8B);
    cr_assert_eq(a.optimizer_bytes, 12 * P8B);
    in.trained_fp32 = 1;
    hwfit_memory_out b = estimate_ok(&m, &in);
    check_phases(&b, &in);
    cr_assert_eq(b.weights_bytes, 4 * P8B);
    cr_assert_eq(b.optimizer_bytes, 8 * P8B); /* no master copy: the weights are fp32 */
    cr_assert_eq(b.gradient_bytes, a.gradient_bytes); /* as `gradients` says */
    cr_assert_eq(b.activation_bytes, a.activation_bytes); /* autocast: bf16 activations */
    in.gradients = dt("fp32");
    hwfit_memory_out c = estimate_ok(&m, &in);
    cr_assert_eq(c.weights_bytes + c.gradient_bytes + c.optimizer_bytes, 16 * P8B);
    /* The master flag has nothing to copy. */
    in.master_weights = 0;
    cr_assert_eq(estimate_ok(&m, &in).optimizer_bytes, c.optimizer_bytes);
    /* LoRA: the adapters in fp32 whatever lora_dtype says; the frozen base unchanged. */
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 1024;
    hwfit_memory_out l = estimate_ok(&m, &in);
    in.trained_fp32 = 1;
    hwfit_memory_out u = estimate_ok(&m, &in);
    cr_assert_eq(u.weights_bytes - l.weights_bytes, 2 * l.adapter_params);
    cr_assert_eq(u.optimizer_bytes, 8 * l.adapter_params); /* fp32 adapters: no master */
    /* Inference ignores it. */
    hwfit_memory_init(&in);
    hwfit_memory_out i0 = estimate_ok(&m, &in);
    in.trained_fp32 = 1;
    cr_assert_eq(estimate_ok(&m, &in).weights_bytes, i0.weights_bytes);
    /* The llama-factory profile sets it with fp32 gradients and moments; the Trainer it
     * runs does not. */
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_FULL;
    uint64_t sets = 0;
    cr_assert_eq(hwfit_memory_profile_apply("llama-factory", 1, &in, &sets), HWFIT_OK);
    cr_assert(sets & HWFIT_PROFILE_TRAINED_FP32);
    cr_assert_eq(in.trained_fp32, 1);
    cr_assert_eq(in.gradients.id, HWFIT_DTYPE_FP32);
    cr_assert_eq(in.optimizer_states.id, HWFIT_DTYPE_FP32);
    in.context = 1024;
    hwfit_memory_out f = estimate_ok(&m, &in);
    cr_assert_eq(f.weights_bytes + f.gradient_bytes + f.optimizer_bytes, 16 * P8B);
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_FULL;
    cr_assert_eq(hwfit_memory_profile_apply("hf-trainer", 1, &in, NULL), HWFIT_OK);
    cr_assert_eq(in.trained_fp32, 0);
}

/* The Trainer drops the model's outputs before backward (compute_loss returns the loss
 * alone): its profiles' loss is upcast-freed, the 16-bit logits gone at the loss's backward
 * peak (12 bytes a logit); LLaMA-Factory and ms-swift run the same Trainer. */
Test(memory, hf_trainer_loss_drops_the_outputs_before_backward) {
    const char *names[] = {"hf-trainer", "hf-trainer+peft", "llama-factory", "ms-swift"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        hwfit_memory_in in;
        hwfit_memory_init(&in);
        in.mode = HWFIT_MEMORY_FULL;
        cr_assert_eq(hwfit_memory_profile_apply(names[i], 4, &in, NULL), HWFIT_OK);
        cr_assert_eq(in.loss, HWFIT_MEMORY_LOSS_UPCAST_FREED, "%s", names[i]);
    }
}

/* Loss inplace (Unsloth's Fast_CrossEntropyLoss before Cut Cross Entropy): the bf16 logits
 * whole, a log-sum-exp and a loss per token in fp32, over the head's input 4h. Llama 3.1 8B
 * (h 4096, V 128,256), 1,024 tokens. */
Test(memory, loss_inplace_keeps_the_logits_and_two_floats_a_token) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 1024;
    in.loss = HWFIT_MEMORY_LOSS_INPLACE;
    hwfit_memory_out o = estimate_ok(&m, &in);
    check_phases(&o, &in);
    cr_assert_eq(o.loss_bytes, 1024ull * (4 * 4096 + 2 * 128256 + 8));
    in.loss = HWFIT_MEMORY_LOSS_FUSED;
    cr_assert_eq(o.loss_bytes - estimate_ok(&m, &in).loss_bytes,
                 1024ull * (2 * 128256 + 8 - 4 * 4096));
}

/* kept_layers (a skip list's single layers, Unsloth's Dynamic 4-bit): each kept matrix of a
 * QLoRA nf4-dq model takes its bf16 bytes instead of its nf4-dq bytes; on a device holding
 * half the layers, half of them (rounded up). Llama 3.1 8B (h 4096, I 14336, 32 layers). */
Test(memory, kept_layers_hold_single_layers_matrices_unquantized) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_QLORA;
    in.qlora_base = hwfit_dtype_make(HWFIT_DTYPE_NF4_DQ);
    in.context = 1024;
    hwfit_memory_out plain = estimate_ok(&m, &in);
    in.kept_layers[HWFIT_KEPT_DOWN] = 2;
    in.kept_layers[HWFIT_KEPT_O] = 1;
    hwfit_memory_out kept = estimate_ok(&m, &in);
    uint64_t bf, q, bo, qo;
    cr_assert_eq(hwfit_dtype_matrix_bytes(hwfit_dtype_make(HWFIT_DTYPE_BF16), 4096, 14336, &bf),
                 HWFIT_OK);
    cr_assert_eq(hwfit_dtype_matrix_bytes(in.qlora_base, 4096, 14336, &q), HWFIT_OK);
    cr_assert_eq(hwfit_dtype_matrix_bytes(hwfit_dtype_make(HWFIT_DTYPE_BF16), 4096, 4096, &bo),
                 HWFIT_OK);
    cr_assert_eq(hwfit_dtype_matrix_bytes(in.qlora_base, 4096, 4096, &qo), HWFIT_OK);
    cr_assert_eq(kept.weights_bytes - plain.weights_bytes, 2 * (bf - q) + (bo - qo));
    cr_assert_eq(kept.params, plain.params);
    /* Half the layers: half the kept bytes, rounded up. */
    in.layer_count = 16;
    hwfit_memory_out half = estimate_ok(&m, &in);
    in.kept_layers[HWFIT_KEPT_DOWN] = in.kept_layers[HWFIT_KEPT_O] = 0;
    hwfit_memory_out half_plain = estimate_ok(&m, &in);
    cr_assert_eq(half.weights_bytes - half_plain.weights_bytes,
                 (2 * (bf - q) * 16 + 31) / 32 + ((bo - qo) * 16 + 31) / 32);
    /* Unquantized weights: nothing to keep, so the layers are refused rather than ignored
     * (the formats' check, before the counts'). */
    in.layer_count = 0;
    in.mode = HWFIT_MEMORY_LORA;
    in.kept_layers[HWFIT_KEPT_DOWN] = 2;
    hwfit_problem why;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EINVAL);
    cr_assert_str_eq(why.field, "kept_layers");
    hwfit_memory_out refused;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &refused), HWFIT_EINVAL);
    in.kept_layers[HWFIT_KEPT_DOWN] = 0;
    estimate_ok(&m, &in);
    /* More than the model's layers is refused. */
    in.mode = HWFIT_MEMORY_QLORA;
    in.kept_layers[HWFIT_KEPT_Q] = 33;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "kept_layers");
}

/* Loss inplace-cast (Unsloth's CausalLM_fast_forward before Cut Cross Entropy:
 * logits.to(config.torch_dtype) in a run computing in another 16-bit format): the loss keeps
 * what inplace keeps, and the forward phase holds one more copy of the bf16 logits,
 * 2 x V bytes a token; backward (the recomputed layer after the head's backward) does not.
 * Llama 3.1 8B (V 128,256), 1,024 tokens, no recomputation of layers beyond the default. */
Test(memory, loss_inplace_cast_holds_a_second_copy_of_the_logits_in_forward_only) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 1024;
    in.loss = HWFIT_MEMORY_LOSS_INPLACE;
    hwfit_memory_out plain = estimate_ok(&m, &in);
    in.loss = HWFIT_MEMORY_LOSS_INPLACE_CAST;
    hwfit_memory_out o = estimate_ok(&m, &in);
    check_phases(&o, &in);
    cr_assert_eq(o.loss_bytes, plain.loss_bytes);
    cr_assert_eq(o.forward_bytes - plain.forward_bytes, 1024ull * 2 * 128256);
    cr_assert_eq(o.backward_bytes, plain.backward_bytes);
    cr_assert_eq(o.step_bytes, plain.step_bytes);
    /* A value past the last loss is refused. */
    in.loss = (hwfit_memory_loss)(HWFIT_MEMORY_LOSS_LIGER + 1);
    hwfit_memory_out bad;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &bad), HWFIT_EINVAL);
}

/* outputs_fp32 (Accelerate's ConvertOutputsToFp32 around the forward under the Trainer's
 * fp16/bf16: tensor.float() on each 16-bit output): with a loss that leaves the logits
 * 16-bit, their fp32 copy, 4 x V bytes a token, is live at the forward's end only. Loss
 * inplace: +4V a token in forward; inplace-cast: its cast copy (2V) is freed before the
 * copy is made, so the forward's end holds 4V instead of 2V. Backward, the step and the loss
 * part do not move; other losses count nothing; kept outputs are the fp32 copy. Llama 3.1
 * 8B (V 128,256), 1,024 tokens. */
Test(memory, outputs_fp32_holds_the_logits_fp32_copy_at_the_forwards_end) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    cr_assert_eq(in.outputs_fp32, 0);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 1024;
    in.loss = HWFIT_MEMORY_LOSS_INPLACE;
    hwfit_memory_out plain = estimate_ok(&m, &in);
    in.outputs_fp32 = 1;
    hwfit_memory_out o = estimate_ok(&m, &in);
    check_phases(&o, &in);
    cr_assert_eq(o.loss_bytes, plain.loss_bytes);
    cr_assert_eq(o.forward_bytes - plain.forward_bytes, 1024ull * 4 * 128256);
    cr_assert_eq(o.backward_bytes, plain.backward_bytes);
    cr_assert_eq(o.step_bytes, plain.step_bytes);
    in.loss = HWFIT_MEMORY_LOSS_INPLACE_CAST;
    o = estimate_ok(&m, &in);
    cr_assert_eq(o.forward_bytes - plain.forward_bytes, 1024ull * 4 * 128256);
    cr_assert_eq(o.backward_bytes, plain.backward_bytes);
    /* The fused loss returns no logits: nothing. */
    in.loss = HWFIT_MEMORY_LOSS_FUSED;
    hwfit_memory_out fused = estimate_ok(&m, &in);
    in.outputs_fp32 = 0;
    hwfit_memory_out fused0 = estimate_ok(&m, &in);
    cr_assert_eq(fused.forward_bytes, fused0.forward_bytes);
    cr_assert_eq(fused.allocated_bytes, fused0.allocated_bytes);
    /* Kept through backward (outputs_kept), the logits are the fp32 copy: 4V, not 2V. */
    in.loss = HWFIT_MEMORY_LOSS_INPLACE;
    in.outputs_kept = 1;
    hwfit_memory_out k0 = estimate_ok(&m, &in);
    in.outputs_fp32 = 1;
    hwfit_memory_out k1 = estimate_ok(&m, &in);
    cr_assert_eq(k0.outputs_bytes, 1024ull * 2 * 128256);
    cr_assert_eq(k1.outputs_bytes, 1024ull * 4 * 128256);
    /* 0 or 1 only. */
    in.outputs_fp32 = 2;
    hwfit_problem why;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "outputs_fp32");
    /* The unsloth and hf-trainer profiles (and the Trainer's front ends) set it; torchtune,
     * whose loop is its own, does not. */
    uint64_t sets = 0;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_QLORA;
    cr_assert_eq(hwfit_memory_profile_apply("unsloth", 1, &in, &sets), HWFIT_OK);
    cr_assert_eq(in.outputs_fp32, 1);
    cr_assert(sets & HWFIT_PROFILE_OUTPUTS_FP32);
    hwfit_memory_init(&in);
    cr_assert_eq(hwfit_memory_profile_apply("hf-trainer", 1, &in, &sets), HWFIT_OK);
    cr_assert_eq(in.outputs_fp32, 1);
    hwfit_memory_init(&in);
    cr_assert_eq(hwfit_memory_profile_apply("llama-factory", 1, &in, &sets), HWFIT_OK);
    cr_assert_eq(in.outputs_fp32, 1);
    hwfit_memory_init(&in);
    cr_assert_eq(hwfit_memory_profile_apply("torchtune", 1, &in, &sets), HWFIT_OK);
    cr_assert_eq(in.outputs_fp32, 0);
}

/* expandable_segments 0 (PyTorch's default caching allocator, c10/cuda/
 * CUDACachingAllocator.cpp: best fit, no merge across segments): a loss that frees its
 * 16-bit logits before a larger fp32 request leaves that block reserved. inplace-cast with
 * outputs_fp32 (Unsloth under Accelerate): the head's bf16 logits (2V a token) freed after
 * the cast, too small for the fp32 copy: reserved at the forward's end is its allocation +
 * 2V a token. upcast-freed (the Trainer, torchtitan): the logits freed before backward, too
 * small for log_softmax's fp32 gradient: the loss's backward + 2V a token. Not with
 * expandable segments, fp32 logits, or another loss. Llama 3.1 8B (V 128,256), LoRA,
 * 1,024 tokens, no fragmentation. */
Test(memory, the_loss_strands_its_freed_logits_block_in_the_reserve) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    cr_assert_eq(in.expandable_segments, 0);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 1024;
    in.fragmentation = 0.0;
    const uint64_t a = 1024ull * 2 * 128256;
    in.loss = HWFIT_MEMORY_LOSS_INPLACE_CAST;
    in.outputs_fp32 = 1;
    hwfit_memory_out o = estimate_ok(&m, &in);
    check_phases(&o, &in);
    uint64_t want = o.forward_bytes + a > o.allocated_bytes ? o.forward_bytes + a : o.allocated_bytes;
    cr_assert_eq(o.reserved_bytes, want);
    cr_assert_eq(o.stranded_bytes, want - o.allocated_bytes);
    cr_assert_gt(o.stranded_bytes, 0);
    /* Expandable segments map new pages only at a segment's end: the freed logits lie
     * below their live cast copy, so they stay stranded. */
    in.expandable_segments = 1;
    hwfit_memory_out ex = estimate_ok(&m, &in);
    cr_assert_eq(ex.stranded_bytes, o.stranded_bytes);
    cr_assert_eq(ex.reserved_bytes, o.reserved_bytes);
    in.expandable_segments = 0;
    /* Without Accelerate's fp32 copy no larger request follows: nothing stranded. */
    in.outputs_fp32 = 0;
    o = estimate_ok(&m, &in);
    cr_assert_eq(o.stranded_bytes, 0);
    cr_assert_eq(o.reserved_bytes, o.allocated_bytes);
    /* upcast-freed: in the loss's backward (here backward's start, no recomputation). */
    in.loss = HWFIT_MEMORY_LOSS_UPCAST_FREED;
    o = estimate_ok(&m, &in);
    check_phases(&o, &in);
    want = o.backward_bytes + a > o.allocated_bytes ? o.backward_bytes + a : o.allocated_bytes;
    cr_assert_eq(o.reserved_bytes, want);
    cr_assert_eq(o.stranded_bytes, a); /* backward's start, the loss's, is the peak */
    /* allocated is untouched: the block is free, only reserved */
    in.expandable_segments = 1;
    hwfit_memory_out e = estimate_ok(&m, &in);
    cr_assert_eq(e.allocated_bytes, o.allocated_bytes);
    cr_assert_eq(e.stranded_bytes, 0);
    cr_assert_eq(e.reserved_bytes, e.allocated_bytes);
    /* fp32 logits fit the fp32 gradient: nothing stranded; nor with the fused loss. */
    in.expandable_segments = 0;
    in.activations = dt("fp32");
    cr_assert_eq(estimate_ok(&m, &in).stranded_bytes, 0);
    in.activations = dt("bf16");
    in.loss = HWFIT_MEMORY_LOSS_FUSED;
    cr_assert_eq(estimate_ok(&m, &in).stranded_bytes, 0);
    /* With fragmentation, it applies to what is allocated; the strand adds whole. */
    in.loss = HWFIT_MEMORY_LOSS_UPCAST_FREED;
    in.fragmentation = 0.1;
    o = estimate_ok(&m, &in);
    check_phases(&o, &in);
    cr_assert_eq(o.stranded_bytes, a);
    /* 0 or 1 only. */
    in.expandable_segments = 2;
    hwfit_problem why;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "expandable_segments");
    /* torchtitan's launcher sets expandable segments; the Trainer's runs keep the default. */
    uint64_t sets = 0;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_FULL;
    cr_assert_eq(hwfit_memory_profile_apply("torchtitan", 8, &in, &sets), HWFIT_OK);
    cr_assert_eq(in.expandable_segments, 1);
    cr_assert(sets & HWFIT_PROFILE_EXPANDABLE);
    hwfit_memory_init(&in);
    cr_assert_eq(hwfit_memory_profile_apply("hf-trainer", 1, &in, &sets), HWFIT_OK);
    cr_assert_eq(in.expandable_segments, 0);
    /* `import unsloth` sets expandable segments (c599ae0f27, 2024-03-17): from 2024.4. */
    hwfit_memory_init(&in);
    cr_assert_eq(hwfit_memory_profile_apply_release("unsloth", "2024.3", 1, &in, &sets),
                 HWFIT_OK);
    cr_assert_eq(in.expandable_segments, 0);
    cr_assert_eq(hwfit_memory_profile_apply_release("unsloth", "2024.4", 1, &in, &sets),
                 HWFIT_OK);
    cr_assert_eq(in.expandable_segments, 1);
    cr_assert(sets & HWFIT_PROFILE_EXPANDABLE);
}

/* fp8_inputs_saved (Transformer Engine's linears under fp8_autocast keep their FP8-cast
 * input): per token and dense layer the QKV and MLP inputs (2h), the down projection's
 * input (F) and o_proj's input (a d_v) cost 1 byte, not 2, when the attention core is
 * recomputed (selective); without recomputation the flash kernel keeps its own bf16 output
 * beside o_proj's FP8 copy, so that one costs 2 + 1. Llama 3.1 8B (h 4096, F 14336, 32
 * heads of 128), full, 1,024 tokens. Refused outside mode full and with the op policy;
 * 0 or 1; no profile sets it (fit sets it for megatron with --precision fp8). */
Test(memory, fp8_inputs_saved_keeps_the_linears_inputs_in_one_byte) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    cr_assert_eq(in.fp8_inputs_saved, 0);
    in.mode = HWFIT_MEMORY_FULL;
    in.context = 512;
    in.micro_batch = 2;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_SELECTIVE;
    hwfit_memory_out a = estimate_ok(&m, &in);
    in.fp8_inputs_saved = 1;
    hwfit_memory_out b = estimate_ok(&m, &in);
    check_phases(&b, &in);
    cr_assert_eq(a.activation_dense_layer_bytes - b.activation_dense_layer_bytes,
                 1024ull * (2 * 4096 + 14336 + 4096));
    in.recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    hwfit_memory_out d = estimate_ok(&m, &in);
    in.fp8_inputs_saved = 0;
    hwfit_memory_out c = estimate_ok(&m, &in);
    cr_assert_eq(c.activation_dense_layer_bytes - d.activation_dense_layer_bytes,
                 1024ull * (2 * 4096 + 14336 - 4096));
    /* With sequence parallelism over t = 4 the saved inputs are the local shards. */
    in.recompute = HWFIT_MEMORY_RECOMPUTE_SELECTIVE;
    in.tensor_parallel = 4;
    in.sequence_parallel = 1;
    hwfit_memory_out e = estimate_ok(&m, &in);
    in.fp8_inputs_saved = 1;
    hwfit_memory_out f = estimate_ok(&m, &in);
    cr_assert_eq(e.activation_dense_layer_bytes - f.activation_dense_layer_bytes,
                 1024ull * (2 * 4096 + 14336 + 4096) / 4);
    hwfit_problem why;
    in.fp8_inputs_saved = 2;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "fp8_inputs_saved");
    in.fp8_inputs_saved = 1;
    in.mode = HWFIT_MEMORY_LORA;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EUNSUPPORTED);
    cr_assert_str_eq(why.field, "fp8_inputs_saved");
    in.mode = HWFIT_MEMORY_FULL;
    in.tensor_parallel = 1;
    in.sequence_parallel = 0;
    in.selective = HWFIT_MEMORY_SELECTIVE_OPS;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EUNSUPPORTED);
    cr_assert_str_eq(why.field, "fp8_inputs_saved");
    uint64_t sets = 0;
    hwfit_memory_init(&in);
    cr_assert_eq(hwfit_memory_profile_apply("megatron", 8, &in, &sets), HWFIT_OK);
    cr_assert_eq(in.fp8_inputs_saved, 0);
}

/* grads_upcast_in_step (Megatron-Core's _copy_model_grads_to_main_grads: shard_main_param
 * .grad = shard_model_grad.float()): with bf16 gradients and master weights the step holds
 * an fp32 copy of every trained parameter's gradient, 4 bytes each; nothing with fp32
 * gradients (.float() returns the tensor). The megatron profile sets it. */
Test(memory, grads_upcast_in_step_holds_fp32_gradient_copies) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    cr_assert_eq(in.grads_upcast_in_step, 0);
    in.mode = HWFIT_MEMORY_FULL;
    in.context = 512;
    in.gradients = hwfit_dtype_make(HWFIT_DTYPE_BF16);
    hwfit_memory_out a = estimate_ok(&m, &in);
    in.grads_upcast_in_step = 1;
    hwfit_memory_out b = estimate_ok(&m, &in);
    check_phases(&b, &in);
    cr_assert_eq(b.step_bytes - a.step_bytes, 4 * b.trainable_params);
    cr_assert_eq(b.forward_bytes, a.forward_bytes);
    in.gradients = hwfit_dtype_make(HWFIT_DTYPE_FP32);
    hwfit_memory_out c = estimate_ok(&m, &in);
    in.grads_upcast_in_step = 0;
    cr_assert_eq(estimate_ok(&m, &in).step_bytes, c.step_bytes);
    hwfit_problem why;
    in.grads_upcast_in_step = 2;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "grads_upcast_in_step");
    uint64_t sets = 0;
    hwfit_memory_init(&in);
    cr_assert_eq(hwfit_memory_profile_apply("megatron", 8, &in, &sets), HWFIT_OK);
    cr_assert_eq(in.grads_upcast_in_step, 1);
    cr_assert(sets & HWFIT_PROFILE_GRADS_UPCAST);
    hwfit_memory_init(&in);
    cr_assert_eq(hwfit_memory_profile_apply("torchtitan", 8, &in, &sets), HWFIT_OK);
    cr_assert_eq(in.grads_upcast_in_step, 0);
}

/* Loss chunked-inplace (ms-swift's ChunkedCrossEntropyLoss under sequence parallelism,
 * swift/sequence_parallel/utils.py): the bf16 logits whole and a bf16 loss per token over
 * the head's input 4h, plus one chunk's backward work, 3 x 2 bytes x chunk rows x V, the
 * chunk capped at the tokens. Llama 3.1 8B (h 4096, V 128,256), 4,096 tokens. */
Test(memory, loss_chunked_inplace_keeps_the_logits_and_one_chunk_of_work) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    cr_assert_eq(in.loss_chunk_tokens, 2048);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 4096;
    in.loss = HWFIT_MEMORY_LOSS_CHUNKED_INPLACE;
    hwfit_memory_out o = estimate_ok(&m, &in);
    check_phases(&o, &in);
    const uint64_t whole = 4096ull * (4 * 4096 + 2 * 128256 + 2);
    cr_assert_eq(o.loss_bytes, whole + 3ull * 2 * 2048 * 128256);
    in.loss_chunk_tokens = 512;
    cr_assert_eq(estimate_ok(&m, &in).loss_bytes, whole + 3ull * 2 * 512 * 128256);
    /* A chunk longer than the tokens works on the tokens. */
    in.loss_chunk_tokens = 1u << 20;
    cr_assert_eq(estimate_ok(&m, &in).loss_bytes, whole + 3ull * 2 * 4096 * 128256);
    /* Other losses ignore the chunk. */
    in.loss = HWFIT_MEMORY_LOSS_INPLACE;
    hwfit_memory_out a = estimate_ok(&m, &in);
    in.loss_chunk_tokens = 7;
    cr_assert_eq(estimate_ok(&m, &in).loss_bytes, a.loss_bytes);
    /* Zero rows and an unknown loss are refused, naming the field. */
    in.loss = HWFIT_MEMORY_LOSS_CHUNKED_INPLACE;
    in.loss_chunk_tokens = 0;
    hwfit_problem why;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "loss_chunk_tokens");
    in.loss_chunk_tokens = 2048;
    in.loss = (hwfit_memory_loss)(HWFIT_MEMORY_LOSS_LIGER + 1);
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EINVAL);
    cr_assert_str_eq(why.field, "loss");
}

/* full_modules (PEFT modules_to_save: ModulesToSaveWrapper deep-copies the module, freezes
 * the original and trains the copy). Llama 3.1 8B: the embedding and the untied head are
 * 128,256 x 4,096 = 525,336,576 parameters each; the norms 32 layers x 2 x 4,096 + the final
 * 4,096 = 266,240. Each copy weighs its format (bf16: 2 B) beside the original, and trains
 * as the adapters do: a bf16 gradient (2 B), an fp32 master copy (4 B) and two fp32 AdamW
 * moments (8 B). */
#define VH8B 525336576ull
#define NORMS8B 266240ull
Test(memory, full_modules_train_a_copy_beside_the_frozen_original) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 1024;
    hwfit_memory_out l = estimate_ok(&m, &in);
    in.full_modules = HWFIT_FULL_EMBEDDING | HWFIT_FULL_HEAD;
    hwfit_memory_out e = estimate_ok(&m, &in);
    check_phases(&e, &in);
    cr_assert_eq(e.weights_bytes - l.weights_bytes, 2 * VH8B * 2);
    cr_assert_eq(e.trainable_params - l.trainable_params, 2 * VH8B);
    cr_assert_eq(e.adapter_params, l.adapter_params); /* the copies are not adapters */
    cr_assert_eq(e.params, l.params);                 /* nor model parameters */
    cr_assert_eq(e.gradient_bytes - l.gradient_bytes, 2 * VH8B * 2);
    cr_assert_eq(e.optimizer_bytes - l.optimizer_bytes, 2 * VH8B * 12);
    cr_assert_eq(e.activation_bytes, l.activation_bytes);
    /* The norms: 266,240 more, 2 B each in bf16, and as trained. */
    in.full_modules = HWFIT_FULL_ALL;
    hwfit_memory_out a = estimate_ok(&m, &in);
    cr_assert_eq(a.weights_bytes - e.weights_bytes, NORMS8B * 2);
    cr_assert_eq(a.trainable_params - e.trainable_params, NORMS8B);
    cr_assert_eq(a.optimizer_bytes - e.optimizer_bytes, NORMS8B * 12);
    /* Without a master copy: 8 B of moments a parameter; paged moments: none. */
    in.full_modules = HWFIT_FULL_HEAD;
    in.master_weights = 0;
    hwfit_memory_out h = estimate_ok(&m, &in);
    in.full_modules = 0;
    hwfit_memory_out h0 = estimate_ok(&m, &in);
    cr_assert_eq(h.optimizer_bytes - h0.optimizer_bytes, VH8B * 8);
    in.paged_optimizer = 1;
    in.full_modules = HWFIT_FULL_HEAD;
    h = estimate_ok(&m, &in);
    in.full_modules = 0;
    h0 = estimate_ok(&m, &in);
    cr_assert_eq(h.optimizer_bytes, h0.optimizer_bytes);
    cr_assert_eq(h.gradient_bytes - h0.gradient_bytes, VH8B * 2);
    /* A stage without the embedding holds the head's copy only. */
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 1024;
    in.embedding = 0;
    hwfit_memory_out s0 = estimate_ok(&m, &in);
    in.full_modules = HWFIT_FULL_EMBEDDING | HWFIT_FULL_HEAD;
    hwfit_memory_out s1 = estimate_ok(&m, &in);
    cr_assert_eq(s1.trainable_params - s0.trainable_params, VH8B);
    /* trained_fp32 (LLaMA-Factory casts what trains): the copies in fp32, no master. */
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 1024;
    in.trained_fp32 = 1;
    hwfit_memory_out u0 = estimate_ok(&m, &in);
    in.full_modules = HWFIT_FULL_EMBEDDING;
    hwfit_memory_out u1 = estimate_ok(&m, &in);
    cr_assert_eq(u1.weights_bytes - u0.weights_bytes, VH8B * 4);
    cr_assert_eq(u1.optimizer_bytes - u0.optimizer_bytes, VH8B * 8);
    /* QLoRA: the embedding stays bf16 (keep_embeddings) and trains; quantized with the
     * rest, it cannot. */
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_QLORA;
    in.context = 1024;
    in.full_modules = HWFIT_FULL_EMBEDDING;
    hwfit_memory_out q = estimate_ok(&m, &in);
    in.full_modules = 0;
    cr_assert_eq(q.trainable_params - estimate_ok(&m, &in).trainable_params, VH8B);
    in.full_modules = HWFIT_FULL_EMBEDDING;
    in.keep_embeddings = 0;
    hwfit_problem why;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "full_modules");
    /* Other modes refuse it; unknown bits are refused. */
    hwfit_memory_init(&in);
    in.full_modules = HWFIT_FULL_HEAD;
    hwfit_memory_out o;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &o), HWFIT_EDOM);
    in.mode = HWFIT_MEMORY_FULL;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "full_modules");
    in.mode = HWFIT_MEMORY_LORA;
    in.full_modules = 0x100;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &o), HWFIT_EDOM);
}

/* kv_built (transformers' use_cache=True beside checkpointing applied outside the model) and
 * outputs_kept (the loop's outputs alive through backward, the step and the next forward). Llama 3.1 8B: 8 KV heads x (128
 * + 128) = 2,048 values cached per token and layer, 32 layers, bf16; 1,024 tokens. The cache
 * is 2,048 x 1,024 x 2 x 32 = 134,217,728 bytes, in the forward only unless the outputs are
 * kept; the kept logits with the loss upcast are 1,024 x 128,256 x 4 = 525,336,576 bytes. */
Test(memory, kv_built_and_outputs_kept) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 1024;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    const uint64_t built = 2048ull * 1024 * 2 * 32, logits = 1024ull * 128256 * 4;
    hwfit_memory_out base = estimate_ok(&m, &in);
    cr_assert_eq(base.outputs_bytes, 0);
    in.kv_built = 1;
    hwfit_memory_out a = estimate_ok(&m, &in);
    check_phases(&a, &in);
    cr_assert_eq(a.outputs_bytes, built);
    cr_assert_eq(a.forward_bytes - base.forward_bytes, built);
    cr_assert_eq(a.backward_bytes, base.backward_bytes); /* freed when the forward returns */
    cr_assert_eq(a.total_bytes, base.total_bytes);
    /* Without full recomputation the saved K and V are those very tensors. */
    in.recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    hwfit_memory_out n = estimate_ok(&m, &in);
    cr_assert_eq(n.outputs_bytes, 0);
    in.kv_built = 0;
    cr_assert_eq(estimate_ok(&m, &in).forward_bytes, n.forward_bytes);
    /* The outputs kept: the cache through backward and the fp32 logits to its end. */
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    in.loss = HWFIT_MEMORY_LOSS_UPCAST;
    hwfit_memory_out u = estimate_ok(&m, &in);
    in.kv_built = 1;
    in.outputs_kept = 1;
    hwfit_memory_out k = estimate_ok(&m, &in);
    check_phases(&k, &in);
    cr_assert_eq(k.outputs_bytes, built + logits);
    /* The previous micro-batch's outputs are alive in this forward (the loop rebinds its
     * variable when the call returns) beside the cache this forward builds, and through
     * the optimizer's step. */
    cr_assert_eq(k.forward_bytes - u.forward_bytes, built + built + logits);
    cr_assert_eq(k.step_bytes - u.step_bytes, built + logits);
    cr_assert(k.backward_bytes >= u.backward_bytes + built);
    cr_assert(k.backward_bytes <= u.backward_bytes + built + logits);
    /* A loop computing its loss after the call (loss_after_call, torchtune's 2024 recipes)
     * rebinds the kept outputs before that loss: they meet this call's logits and cache at
     * its return, the loss's bytes (upcast: 4 h + 14 V a token, above the two logits'
     * 8 V) not beside them; the forward is then its own plus this call's cache. */
    in.loss_after_call = 1;
    hwfit_memory_out l = estimate_ok(&m, &in);
    check_phases(&l, &in);
    cr_assert_eq(l.forward_bytes - u.forward_bytes, built);
    cr_assert_eq(l.step_bytes, k.step_bytes);
    cr_assert_eq(l.backward_bytes, k.backward_bytes);
    in.loss_after_call = 2;
    hwfit_problem why;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
    in.loss_after_call = 0;
    /* A stage without the head keeps no logits. */
    in.head = 0;
    cr_assert_eq(estimate_ok(&m, &in).outputs_bytes, built);
    /* Inference holds none of it. */
    hwfit_memory_init(&in);
    in.kv_built = in.outputs_kept = 1;
    cr_assert_eq(estimate_ok(&m, &in).outputs_bytes, 0);
}

/* probs_kept (a metric's softmax of the logits kept by the loop: prime-rl's SFT trainer at
 * f037882c8, `probs = softmax(logits, dim=-1)` after the loss, not deleted before
 * backward). Llama 3.1 8B LoRA, 1,024 tokens, full recomputation: with an upcast loss the
 * probabilities are fp32, 1,024 x 128,256 x 4 = 525,336,576 bytes, in the forward (the
 * previous micro-batch's), the whole backward and the step; with a 16-bit loss they are in
 * the activations' format. */
Test(memory, probs_kept_stay_through_every_phase) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 1024;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    in.loss = HWFIT_MEMORY_LOSS_UPCAST_FREED;
    const uint64_t probs = 1024ull * 128256 * 4;
    hwfit_memory_out base = estimate_ok(&m, &in);
    in.probs_kept = 1;
    hwfit_memory_out k = estimate_ok(&m, &in);
    check_phases(&k, &in);
    cr_assert_eq(k.outputs_bytes, probs);
    cr_assert_eq(k.forward_bytes - base.forward_bytes, probs);
    cr_assert_eq(k.backward_bytes - base.backward_bytes, probs);
    cr_assert_eq(k.step_bytes - base.step_bytes, probs);
    cr_assert_eq(k.total_bytes, base.total_bytes);
    /* The softmax of 16-bit logits (loss inplace: the logits leave the model in bf16). */
    in.loss = HWFIT_MEMORY_LOSS_INPLACE;
    hwfit_memory_out b16 = estimate_ok(&m, &in);
    cr_assert_eq(b16.outputs_bytes, probs / 2);
    /* Not with outputs_kept, not other than 0 or 1: refused with the field named. */
    hwfit_problem why;
    in.outputs_kept = 1;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EINVAL);
    cr_assert_str_eq(why.field, "probs_kept");
    in.outputs_kept = 0;
    in.probs_kept = 2;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "probs_kept");
    /* A stage without the head keeps none; inference holds none. */
    in.probs_kept = 1;
    in.head = 0;
    cr_assert_eq(estimate_ok(&m, &in).outputs_bytes, 0);
    hwfit_memory_init(&in);
    in.probs_kept = 1;
    cr_assert_eq(estimate_ok(&m, &in).outputs_bytes, 0);
}

/* loss_parallel (PyTorch's DTensor loss parallelism over vocabulary-sharded logits, which
 * torchtitan turns on with TP): the decomposed log-softmax and the fused nll/log-softmax
 * backward hold 4 bytes a logit more. Llama 3.1 8B full, 1,024 tokens, t = 2: 1,024 x
 * 128,256 x 4 / 2 = 262,668,288 bytes more in the loss, upcast-freed or upcast; nothing at
 * t = 1 or with another loss. */
Test(memory, loss_parallel_adds_four_bytes_a_logit_under_tp) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_FULL;
    in.context = 1024;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    in.tensor_parallel = 2;
    const uint64_t more = 1024ull * 128256 * 4 / 2;
    const hwfit_memory_loss losses[2] = {HWFIT_MEMORY_LOSS_UPCAST_FREED, HWFIT_MEMORY_LOSS_UPCAST};
    for (int k = 0; k < 2; k++) {
        in.loss = losses[k];
        in.loss_parallel = 0;
        hwfit_memory_out base = estimate_ok(&m, &in);
        in.loss_parallel = 1;
        hwfit_memory_out lp = estimate_ok(&m, &in);
        check_phases(&lp, &in);
        cr_assert_eq(lp.activation_bytes - base.activation_bytes, more);
    }
    /* Without TP the logits are whole: the aten kernels run. */
    in.tensor_parallel = 1;
    in.loss_parallel = 0;
    hwfit_memory_out one = estimate_ok(&m, &in);
    in.loss_parallel = 1;
    cr_assert_eq(estimate_ok(&m, &in).activation_bytes, one.activation_bytes);
    /* Another loss: nothing. */
    in.tensor_parallel = 2;
    in.loss = HWFIT_MEMORY_LOSS_FUSED;
    hwfit_memory_out fused = estimate_ok(&m, &in);
    in.loss_parallel = 0;
    cr_assert_eq(estimate_ok(&m, &in).activation_bytes, fused.activation_bytes);
    in.loss_parallel = 2;
    hwfit_problem why;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "loss_parallel");
}

/* whole_masks (Unsloth 2024.7-2024.8 on Gemma 2 without flash-attn softcapping:
 * LlamaModel_fast_forward builds SWA_mask and GA_mask once, each max_position_embeddings^2
 * values in inputs_embeds' dtype, and keeps them on the model). Llama 3.1 8B LoRA standing
 * in, P = 8192, bf16 activations: 2 x 8192^2 x 2 = 268,435,456 bytes with the activations,
 * in the forward, backward and step; none in inference; refused without max_context and
 * above 16. */
Test(memory, whole_masks_stay_through_every_phase) {
    hwfit_model m;
    llama8b(&m);
    m.max_context = 8192;
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    cr_assert_eq(in.whole_masks, 0);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 1024;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    const uint64_t masks = 2ull * 8192 * 8192 * 2;
    hwfit_memory_out base = estimate_ok(&m, &in);
    cr_assert_eq(base.masks_bytes, 0);
    in.whole_masks = 2;
    hwfit_memory_out k = estimate_ok(&m, &in);
    check_phases(&k, &in);
    cr_assert_eq(k.masks_bytes, masks);
    cr_assert_eq(k.activation_bytes - base.activation_bytes, masks);
    cr_assert_eq(k.activation_other_bytes - base.activation_other_bytes, masks);
    cr_assert_eq(k.total_bytes - base.total_bytes, masks);
    cr_assert_eq(k.forward_bytes - base.forward_bytes, masks);
    cr_assert_eq(k.backward_bytes - base.backward_bytes, masks);
    cr_assert_eq(k.step_bytes - base.step_bytes, masks);
    cr_assert_eq(k.load_bytes, base.load_bytes);
    /* fp32 activations: 4 bytes a value. */
    in.activations = hwfit_dtype_make(HWFIT_DTYPE_FP32);
    hwfit_memory_out b32 = estimate_ok(&m, &in);
    cr_assert_eq(b32.masks_bytes, 2 * masks);
    in.activations = hwfit_dtype_make(HWFIT_DTYPE_BF16);
    /* Refused: above 16, and without the model's max_context. */
    hwfit_problem why;
    in.whole_masks = 17;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "whole_masks");
    in.whole_masks = 2;
    m.max_context = 0;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EINVAL);
    cr_assert_str_eq(why.field, "whole_masks");
    /* Inference holds none. */
    m.max_context = 8192;
    hwfit_memory_init(&in);
    in.whole_masks = 2;
    cr_assert_eq(estimate_ok(&m, &in).masks_bytes, 0);
}

/* sink_mask_bytes (Unsloth 2025.8.10 to 2025.9.8 on gpt-oss: flex_attention_with_sink's
 * block mask from PyTorch's create_block_mask without _compile, the dense (1, 1, s, s + 1)
 * mask materialized and reduced per block). Llama 3.1 8B LoRA given attention sinks standing
 * in, s = 32,768, full recomputation, the fused loss: 10 x 32,768 x 32,769 bytes beside the
 * fixed part (weights, optimizer states), the dequantized weight and a gradient buffer in the
 * forward; backward and step untouched; nothing for a model without sinks, in inference,
 * or at 0; refused above 64. The unsloth profile sets 10 for 2025.8.10 to 2025.9.8 only. */
Test(memory, sink_mask_builds_in_the_forward) {
    hwfit_model m;
    llama8b(&m);
    m.attention_sinks = 1;
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    cr_assert_eq(in.sink_mask_bytes, 0);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 32768;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    in.loss = HWFIT_MEMORY_LOSS_FUSED; /* no logits kept: the stored checkpoints alone */
    hwfit_memory_out base = estimate_ok(&m, &in);
    in.sink_mask_bytes = 10;
    hwfit_memory_out k = estimate_ok(&m, &in);
    check_phases(&k, &in);
    const uint64_t mask = 10ull * 32768 * 32769;
    uint64_t at_build = k.weights_bytes + k.optimizer_bytes + k.kv_bytes + k.masks_bytes + mask +
                        k.dequant_bytes + (in.gradient_buffer ? k.gradient_bytes : 0);
    cr_assert_gt(at_build, base.forward_bytes);
    cr_assert_eq(k.forward_bytes, at_build);
    cr_assert_eq(k.backward_bytes, base.backward_bytes);
    cr_assert_eq(k.step_bytes, base.step_bytes);
    cr_assert_eq(k.activation_bytes, base.activation_bytes);
    /* A model without sinks builds no such mask. */
    m.attention_sinks = 0;
    hwfit_memory_out none = estimate_ok(&m, &in);
    in.sink_mask_bytes = 0;
    cr_assert_eq(estimate_ok(&m, &in).forward_bytes, none.forward_bytes);
    in.sink_mask_bytes = 10;
    m.attention_sinks = 1;
    /* Refused above 64. */
    hwfit_problem why;
    in.sink_mask_bytes = 65;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "sink_mask_bytes");
    /* Inference: none. */
    hwfit_memory_in inf;
    hwfit_memory_init(&inf);
    hwfit_memory_out i0 = estimate_ok(&m, &inf);
    inf.sink_mask_bytes = 10;
    cr_assert_eq(estimate_ok(&m, &inf).forward_bytes, i0.forward_bytes);
    /* The unsloth profile's dated rows. */
    const char *rel[] = {"2025.8.9", "2025.8.10", "2025.9.8", "2025.9.9", "2026.1"};
    const uint32_t want[] = {0, 10, 10, 0, 0};
    for (int i = 0; i < 5; i++) {
        hwfit_memory_in p;
        hwfit_memory_init(&p);
        uint64_t sets = 0;
        cr_assert_eq(hwfit_memory_profile_apply_release("unsloth", rel[i], 1, &p, &sets), HWFIT_OK);
        cr_assert_eq(p.sink_mask_bytes, want[i], "release %s", rel[i]);
        cr_assert_eq((sets & HWFIT_PROFILE_SINK_MASK) != 0, want[i] != 0, "release %s", rel[i]);
    }
}

/* flash_attention HWFIT_ATTENTION_SDPA (transformers' default dispatch): eager for a model
 * whose attention has learned sinks (gpt-oss declares _supports_sdpa = False), fused for any
 * other; the estimate is the eager or the flash one, exactly. Values past 2 are refused. The
 * transformers-based profiles set SDPA; LLaMA-Factory and axolotl send gpt-oss to a
 * sink-aware FlashAttention-3 kernel (flash); Unsloth ran it eager until 2025.8.10. */
Test(memory, sdpa_attention_is_eager_only_with_attention_sinks) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    cr_assert_eq(in.flash_attention, HWFIT_ATTENTION_FLASH);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 2048;
    in.dropout = 0;
    for (int sinks = 0; sinks < 2; sinks++) {
        m.attention_sinks = sinks;
        in.flash_attention = HWFIT_ATTENTION_SDPA;
        cr_assert_eq(hwfit_memory_attention_flash(&m, &in), !sinks);
        hwfit_memory_out sdpa = estimate_ok(&m, &in);
        check_phases(&sdpa, &in);
        in.flash_attention = sinks ? HWFIT_ATTENTION_EAGER : HWFIT_ATTENTION_FLASH;
        hwfit_memory_out same = estimate_ok(&m, &in);
        in.flash_attention = sinks ? HWFIT_ATTENTION_FLASH : HWFIT_ATTENTION_EAGER;
        hwfit_memory_out other = estimate_ok(&m, &in);
        cr_assert_eq(sdpa.activation_bytes, same.activation_bytes, "sinks %d", sinks);
        cr_assert_eq(sdpa.backward_bytes, same.backward_bytes, "sinks %d", sinks);
        cr_assert_eq(sdpa.peak_bytes, same.peak_bytes, "sinks %d", sinks);
        cr_assert_neq(sdpa.activation_bytes, other.activation_bytes, "sinks %d", sinks);
    }
    cr_assert_eq(hwfit_memory_attention_flash(NULL, &in), 1); /* no model: no sinks */
    cr_assert_eq(hwfit_memory_attention_flash(&m, NULL), 0);
    in.flash_attention = 4; /* beyond HWFIT_ATTENTION_MATH */
    cr_assert_eq(hwfit_memory_attention_flash(&m, &in), 0);
    hwfit_problem why;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EINVAL);
    cr_assert_str_eq(why.field, "flash_attention");
    in.flash_attention = -1;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EINVAL);
    /* The profiles. */
    const struct { const char *name, *release; int want; } p[] = {
        {"hf-trainer", NULL, HWFIT_ATTENTION_SDPA}, {"hf-trainer+peft", NULL, HWFIT_ATTENTION_SDPA},
        {"ms-swift", NULL, HWFIT_ATTENTION_SDPA},   {"llama-factory", NULL, HWFIT_ATTENTION_FLASH},
        {"axolotl", NULL, HWFIT_ATTENTION_FLASH},   {"unsloth", "2025.8.9", HWFIT_ATTENTION_SDPA},
        {"unsloth", "2025.8.10", HWFIT_ATTENTION_FLASH}, {"unsloth", NULL, HWFIT_ATTENTION_FLASH}};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) {
        hwfit_memory_in q;
        hwfit_memory_init(&q);
        q.flash_attention = HWFIT_ATTENTION_EAGER;
        uint64_t sets = 0;
        cr_assert_eq(hwfit_memory_profile_apply_release(p[i].name, p[i].release, 1, &q, &sets),
                     HWFIT_OK);
        cr_assert_eq(q.flash_attention, p[i].want, "%s %s", p[i].name,
                     p[i].release ? p[i].release : "latest");
        cr_assert(sets & HWFIT_PROFILE_ATTENTION, "%s", p[i].name);
    }
    /* Profiles that leave the attention as given. */
    const char *left[] = {"torchtune", "deepspeed", "fsdp", "megatron", "litgpt", "torchtitan"};
    for (size_t i = 0; i < sizeof left / sizeof left[0]; i++) {
        hwfit_memory_in q;
        hwfit_memory_init(&q);
        q.flash_attention = HWFIT_ATTENTION_EAGER;
        uint64_t sets = 0;
        cr_assert_eq(hwfit_memory_profile_apply(left[i], 1, &q, &sets), HWFIT_OK);
        cr_assert_eq(q.flash_attention, HWFIT_ATTENTION_EAGER, "%s", left[i]);
        cr_assert_eq(sets & HWFIT_PROFILE_ATTENTION, 0, "%s", left[i]);
    }
}

/* logits_freed (torchtune's `del logits` before backward): the loss's saved tensors go in
 * the loss's own backward, so backward's start is S + max(L + H, T + K) instead of
 * S + L + T + K. Llama 3.1 8B, 1,024 tokens, full recomputation, the chunked loss compiled.
 * LoRA (the head frozen, H = K = 0): the start falls by min(L, T). Full fine-tuning with
 * the optimizer in backward (the untied head's gradient freed once stepped, K = 0): the
 * eight chunk matmuls each make a whole V x h gradient (128,256 x 4,096 x 2 =
 * 1,050,673,152 bytes) that autograd sums beside the next, with 7/8 of the logits'
 * gradients (1,024 x 128,256 x 2 / 8 = 32,833,536 bytes less): H = 2 x 1,050,673,152 -
 * 32,833,536. */
Test(memory, logits_freed_ends_the_loss_before_the_rebuild) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 1024;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    in.loss = HWFIT_MEMORY_LOSS_CHUNKED;
    in.compile = 1;
    const uint64_t inputs = 32ull * 1024 * 4096 * 2; /* the stored layer inputs */
    hwfit_memory_out base = estimate_ok(&m, &in);
    uint64_t loss = base.loss_bytes,
             t = base.activation_bytes - base.activation_other_bytes - inputs;
    in.logits_freed = 1;
    hwfit_memory_out a = estimate_ok(&m, &in);
    check_phases(&a, &in);
    cr_assert_eq(base.backward_bytes - a.backward_bytes, loss < t ? loss : t);
    cr_assert_eq(a.forward_bytes, base.forward_bytes);
    cr_assert_eq(a.total_bytes, base.total_bytes);
    /* Full fine-tuning, stepped in backward. */
    in.mode = HWFIT_MEMORY_FULL;
    in.master_weights = 0;
    in.optimizer_in_backward = 1;
    in.logits_freed = 0;
    hwfit_memory_out fb = estimate_ok(&m, &in);
    in.logits_freed = 1;
    hwfit_memory_out ff = estimate_ok(&m, &in);
    check_phases(&ff, &in);
    const uint64_t h = 2ull * 1050673152 - 32833536;
    uint64_t side = loss + h > t ? loss + h : t;
    /* the start, the forward's end (fixed + S + L) with the loss's side for L; the
     * legacy start (S + L + T) was below the backward's end here */
    cr_assert_eq(ff.backward_bytes, fb.forward_bytes - loss + side);
    cr_assert_gt(ff.backward_bytes, fb.backward_bytes);
    /* Without recomputation there is no rebuilt layer: nothing changes. */
    in.recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    hwfit_memory_out nr = estimate_ok(&m, &in);
    in.logits_freed = 0;
    cr_assert_eq(estimate_ok(&m, &in).backward_bytes, nr.backward_bytes);
    /* A flag is 0 or 1. */
    in.logits_freed = 2;
    hwfit_problem why;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "logits_freed");
}

Test(memory, full_modules_parse_reads_module_names) {
    unsigned bits = 0;
    cr_assert_eq(hwfit_memory_full_modules_parse("embed_tokens,lm_head", &bits), HWFIT_OK);
    cr_assert_eq(bits, HWFIT_FULL_EMBEDDING | HWFIT_FULL_HEAD);
    cr_assert_eq(hwfit_memory_full_modules_parse("word_embeddings,output_layer", &bits),
                 HWFIT_OK);
    cr_assert_eq(bits, HWFIT_FULL_EMBEDDING | HWFIT_FULL_HEAD);
    cr_assert_eq(hwfit_memory_full_modules_parse("norms", &bits), HWFIT_OK);
    cr_assert_eq(bits, HWFIT_FULL_NORMS);
    cr_assert_eq(hwfit_memory_full_modules_parse("all", &bits), HWFIT_OK);
    cr_assert_eq(bits, HWFIT_FULL_ALL);
    bits = 7;
    cr_assert_eq(hwfit_memory_full_modules_parse("embed,q_proj", &bits), HWFIT_ENOTFOUND);
    cr_assert_eq(bits, 7); /* unchanged on failure */
    cr_assert_eq(hwfit_memory_full_modules_parse("embed,", &bits), HWFIT_EPARSE);
    cr_assert_eq(hwfit_memory_full_modules_parse(NULL, &bits), HWFIT_EINVAL);
}

/* selective OPS on MoE layers and MLA attention (torchtitan at 99fee81: deepseek_v3
 * parallelize.py _op_sac_save_list, activation_checkpoint.py; memory.c op_block).
 * DeepSeek-V3 (h 7168, 128 heads, q_lora 1536, kv_lora 512 + rope 64, nope 128, v 128; F
 * 18432; 256 experts, 8 a token; one shared expert of 2048), 4096 tokens, bf16, per token:
 * Whole block: the input 7168; the attention's matmuls wq_a 1536 (1st, saved), wq_b
 * 24,576, wkv_a 576 (3rd, saved), wkv_b 32,768, wo 7168 (5th, saved); the kernel's output
 * 128 x 128 = 16,384 and fp32 log-sum-exp 512 bytes: 32,832 values + 512 bytes. MoE: the
 * router (6th, recomputed), the shared expert's w1 2048 (7th, saved), w3 (8th), w2 7168
 * (9th, saved): 42,048 values, 84,608 bytes; with ep 8 the two all-to-alls' outputs, 8 x
 * 7168 each: +229,376 bytes = 313,984. Dense: w1 (6th), w3 18,432 (7th, saved), w2 (8th):
 * 51,264 values, 103,040 bytes. FlexAttention uncompiled: the two norms' inputs and fp32
 * rstd, the attention's and the MoE's inputs (4 x 7168 values + 8 bytes); MoE from 1:
 * router 256 (saved), all-to-alls 2 x 8 x 7168, shared w3 2048 (3rd, saved): 145,664
 * values, 291,336 bytes (61,960 without ep); dense: w1 18,432 and w2 7168 (1st and 3rd):
 * 54,272 values, 108,552 bytes. Llama 3.1 8B with FlexAttention: 4 x 4096 + 14,336 + 4096
 * values + 8 bytes = 69,640 (63,616 without). */
Test(memory, selective_ops_moe_mla) {
    hwfit_model ds;
    cr_assert_eq(fixture_deepseek_v3(&ds), HWFIT_OK);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    cr_assert_eq(in.expert_parallel, 1);
    cr_assert_eq(in.flex_attention, 0);
    in.mode = HWFIT_MEMORY_FULL;
    in.context = 4096;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_SELECTIVE;
    in.selective = HWFIT_MEMORY_SELECTIVE_OPS;
    const uint64_t tok = 4096;
    hwfit_memory_out o = estimate_ok(&ds, &in);
    check_phases(&o, &in);
    cr_assert_eq(o.activation_moe_layer_bytes, 84608 * tok);
    cr_assert_eq(o.activation_dense_layer_bytes, 103040 * tok);
    in.expert_parallel = 8;
    o = estimate_ok(&ds, &in);
    cr_assert_eq(o.activation_moe_layer_bytes, 313984 * tok);
    cr_assert_eq(o.activation_dense_layer_bytes, 103040 * tok);
    in.flex_attention = 1;
    o = estimate_ok(&ds, &in);
    check_phases(&o, &in);
    cr_assert_eq(o.activation_moe_layer_bytes, 291336 * tok);
    cr_assert_eq(o.activation_dense_layer_bytes, 108552 * tok);
    /* kept less than Korthikanti's selective (every activation with flash attention) */
    hwfit_memory_in k = in;
    k.selective = HWFIT_MEMORY_SELECTIVE_ATTENTION;
    cr_assert_lt(o.activation_bytes, estimate_ok(&ds, &k).activation_bytes);
    in.expert_parallel = 1;
    cr_assert_eq(estimate_ok(&ds, &in).activation_moe_layer_bytes, 61960 * tok);
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in l = in;
    cr_assert_eq(estimate_ok(&m, &l).activation_dense_layer_bytes, 69640 * tok);
    l.flex_attention = 0;
    cr_assert_eq(estimate_ok(&m, &l).activation_dense_layer_bytes, 63616 * tok);
    l.flex_attention = 1;
    l.compile = 1; /* compiled, torchtitan wraps the dense block whole: op_layer's count */
    hwfit_memory_in lc = l;
    lc.flex_attention = 0;
    cr_assert_eq(estimate_ok(&m, &l).activation_dense_layer_bytes,
                 estimate_ok(&m, &lc).activation_dense_layer_bytes);
    /* refused: compiled or tensor-parallel MoE/MLA layers; bad values */
    hwfit_problem why;
    hwfit_memory_out out;
    in.compile = 1;
    cr_assert_eq(hwfit_memory_estimate(&ds, &in, &out), HWFIT_EUNSUPPORTED);
    in.compile = 0;
    in.tensor_parallel = 2;
    cr_assert_eq(hwfit_memory_validate(&ds, &in, &why), HWFIT_EUNSUPPORTED);
    cr_assert_str_eq(why.field, "selective");
    in.tensor_parallel = 1;
    in.expert_parallel = 0;
    cr_assert_eq(hwfit_memory_validate(&ds, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "expert_parallel");
    in.expert_parallel = 1;
    in.flex_attention = 2;
    cr_assert_eq(hwfit_memory_validate(&ds, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "flex_attention");
}

/* ep_a2a_recomputed: torchtitan before c4e229115 ran the expert all-to-all through a Python
 * autograd.Function (expert_parallel.py _A2A at f738a03bf) outside the op policy's save list,
 * so its two outputs are recomputed with the layer. DeepSeek-V3 as above, whole block, ep 8,
 * 4096 tokens: the MoE layer keeps 313,984 bytes a token with them saved and 84,608 without
 * (2 x 8 x 7168 bf16 values = 229,376 bytes out), the same as without expert parallelism;
 * the recomputed layer's transient may take them instead, so activation_bytes falls by at
 * most the 58 MoE layers' share. Dense layers do not move; ep 1 does not move. */
Test(memory, ep_a2a_recomputed_leaves_the_stored_layer) {
    hwfit_model ds;
    cr_assert_eq(fixture_deepseek_v3(&ds), HWFIT_OK);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    cr_assert_eq(in.ep_a2a_recomputed, 0);
    in.mode = HWFIT_MEMORY_FULL;
    in.context = 4096;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_SELECTIVE;
    in.selective = HWFIT_MEMORY_SELECTIVE_OPS;
    in.expert_parallel = 8;
    const uint64_t tok = 4096;
    hwfit_memory_out saved = estimate_ok(&ds, &in);
    cr_assert_eq(saved.activation_moe_layer_bytes, 313984 * tok);
    in.ep_a2a_recomputed = 1;
    hwfit_memory_out re = estimate_ok(&ds, &in);
    check_phases(&re, &in);
    cr_assert_eq(re.activation_moe_layer_bytes, 84608 * tok);
    cr_assert_eq(re.activation_dense_layer_bytes, saved.activation_dense_layer_bytes);
    cr_assert_lt(re.activation_bytes, saved.activation_bytes);
    cr_assert_geq(re.activation_bytes + 229376 * tok * 58, saved.activation_bytes);
    in.expert_parallel = 1; /* no all-to-alls: nothing to recompute */
    hwfit_memory_in ne = in;
    ne.ep_a2a_recomputed = 0;
    cr_assert_eq(estimate_ok(&ds, &in).activation_bytes, estimate_ok(&ds, &ne).activation_bytes);
    hwfit_problem why;
    in.ep_a2a_recomputed = 2;
    cr_assert_eq(hwfit_memory_validate(&ds, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "ep_a2a_recomputed");
}

/* selective OPS: torchtitan's op-level policy (torchtitan parallelize_llama.py _save_list,
 * "save every other mm"). Llama 3.1 8B (h 4096, 32 heads, 8 KV heads of 128, F 14336),
 * s 8192, b 2: 16,384 tokens. Per token and layer, bf16: the input 2h = 8192, q 8192,
 * v 2048, the attention output 8192, gate 28,672, the fp32 log-sum-exp 4 x 32 = 128 and,
 * eager, the down projection's output 8192: 63,616 bytes (55,424 compiled: the partitioner
 * drops the down projection's output, which backward never reads). The layer rebuilt in
 * backward holds what it stores without recomputation (dropout on: 10h + 2(a d + 2 k d +
 * a d_v) + 2 x 3F = 147,456) less the 55,296 it kept: 92,160. Tensor parallelism 2 with
 * sequence parallelism: the input and the two reduce-scatter outputs / 2 (12,288), the
 * column outputs and the log-sum-exp / 2 (23,616), the row-parallel down output whole
 * (8192): 44,096; compiled 4096 + 23,616 = 27,712. */
Test(memory, selective_ops_keeps_torchtitans_saved_outputs) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_FULL;
    in.context = 8192;
    in.micro_batch = 2;
    const uint64_t tok = 16384;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_SELECTIVE;
    hwfit_memory_out korth = estimate_ok(&m, &in);
    cr_assert_eq(korth.activation_dense_layer_bytes, 147456 * tok); /* flash: as none */
    in.selective = HWFIT_MEMORY_SELECTIVE_OPS;
    hwfit_memory_out op = estimate_ok(&m, &in);
    check_phases(&op, &in);
    cr_assert_eq(op.activation_dense_layer_bytes, 63616 * tok);
    cr_assert_eq(korth.activation_bytes - op.activation_bytes, 32 * (147456 - 63616) * tok);
    cr_assert_eq(op.peak_phase, HWFIT_MEMORY_PHASE_BACKWARD);
    /* the rebuilt layer and, beside it, the head's bf16 gradient (V x h) */
    hwfit_model_param_counts pc;
    cr_assert_eq(hwfit_model_params(&m, &pc), HWFIT_OK);
    cr_assert_eq(op.backward_bytes - op.forward_bytes, 92160 * tok + 2 * pc.embedding);
    in.compile = 1;
    hwfit_memory_out opc = estimate_ok(&m, &in);
    cr_assert_eq(opc.activation_dense_layer_bytes, 55424 * tok);
    in.compile = 0;
    in.tensor_parallel = 2;
    in.sequence_parallel = 1;
    cr_assert_eq(estimate_ok(&m, &in).activation_dense_layer_bytes, 44096 * tok);
    in.compile = 1;
    cr_assert_eq(estimate_ok(&m, &in).activation_dense_layer_bytes, 27712 * tok);
    in.compile = 0;
    in.tensor_parallel = 1;
    in.sequence_parallel = 0;
    /* the policy acts on selective recomputation only */
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    hwfit_memory_out full_op = estimate_ok(&m, &in);
    in.selective = HWFIT_MEMORY_SELECTIVE_ATTENTION;
    cr_assert_eq(estimate_ok(&m, &in).peak_bytes, full_op.peak_bytes);
    /* more kept than full recomputation, less than Korthikanti's selective with flash */
    cr_assert_lt(full_op.activation_bytes, op.activation_bytes);
    cr_assert_lt(op.activation_bytes, korth.activation_bytes);
    /* refused where the matmul count is not a dense layer's seven, or out of range */
    hwfit_problem why;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_SELECTIVE;
    in.selective = HWFIT_MEMORY_SELECTIVE_OPS;
    in.mode = HWFIT_MEMORY_LORA;
    hwfit_memory_out out;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &out), HWFIT_EUNSUPPORTED);
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EUNSUPPORTED);
    cr_assert_str_eq(why.field, "selective");
    in.mode = HWFIT_MEMORY_INFERENCE; /* inference recomputes nothing: no refusal */
    estimate_ok(&m, &in);
    in.mode = HWFIT_MEMORY_FULL;
    hwfit_model ds;
    cr_assert_eq(fixture_deepseek_v3(&ds), HWFIT_OK);
    in.compile = 1; /* MoE and MLA layers compiled: not modelled (selective_ops_moe_mla) */
    cr_assert_eq(hwfit_memory_estimate(&ds, &in, &out), HWFIT_EUNSUPPORTED);
    in.compile = 0;
    in.selective = (hwfit_memory_selective)2;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EINVAL);
    cr_assert_str_eq(why.field, "selective");
    /* the torchtitan profile chooses it for full training only (no LoRA in torchtitan) */
    uint64_t sets = 0;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_FULL;
    cr_assert_eq(hwfit_memory_profile_apply("torchtitan", 8, &in, &sets), HWFIT_OK);
    cr_assert_eq(in.recompute, HWFIT_MEMORY_RECOMPUTE_SELECTIVE);
    cr_assert_eq(in.selective, HWFIT_MEMORY_SELECTIVE_OPS);
    cr_assert(sets & HWFIT_PROFILE_SELECTIVE);
    cr_assert_eq(in.fused_optimizer, 0);
    cr_assert_eq(in.loss, HWFIT_MEMORY_LOSS_UPCAST_FREED);
    cr_assert_eq(in.dropout, 0);
    /* its fp32 model: FSDP2 holds fp32 parameter shards, gathered in bf16 (no bf16 partition
     * beside a master copy) */
    cr_assert_eq(in.trained_fp32, 1);
    cr_assert_eq(in.fsdp_flat_upcast, 1);
    cr_assert_eq(in.master_weights, 0);
    cr_assert_eq(in.gradients.id, HWFIT_DTYPE_FP32); /* the fp32 parameters' dtype */
    cr_assert(sets & HWFIT_PROFILE_FSDP_FLAT_UPCAST);
    cr_assert_eq(in.reduce_held_bytes, 4); /* reduce_dtype float32 */
    /* torchtune's distributed recipes (FSDP2 without mp_policy): bf16, several devices only */
    hwfit_memory_in tt;
    hwfit_memory_init(&tt);
    tt.mode = HWFIT_MEMORY_FULL;
    cr_assert_eq(hwfit_memory_profile_apply("torchtune", 8, &tt, &sets), HWFIT_OK);
    cr_assert_eq(tt.reduce_held_bytes, 2);
    cr_assert(sets & HWFIT_PROFILE_REDUCE_HELD);
    hwfit_memory_init(&tt);
    tt.mode = HWFIT_MEMORY_FULL;
    cr_assert_eq(hwfit_memory_profile_apply("torchtune", 1, &tt, &sets), HWFIT_OK);
    cr_assert_eq(tt.reduce_held_bytes, 0);
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    cr_assert_eq(hwfit_memory_profile_apply("torchtitan", 8, &in, &sets), HWFIT_OK);
    cr_assert_eq(in.selective, HWFIT_MEMORY_SELECTIVE_ATTENTION);
    cr_assert_eq(sets & (HWFIT_PROFILE_SELECTIVE | HWFIT_PROFILE_RECOMPUTE), 0u);
}

/* residual_fp32 (PEFT's prepare_model_for_kbit_training: fp32 norms, bitsandbytes' linears
 * return their input's dtype, so the stream between layers is fp32): under full
 * recomputation each layer's checkpoint is 4 bytes an element instead of 2. Llama 3.1 8B
 * QLoRA, 1,024 tokens: 32 x 1,024 x 4,096 x 2 more bytes stored, in forward and backward
 * alike. A 16-bit base is not k-bit prepared: nothing changes; nor without recomputation. */
Test(memory, residual_fp32_doubles_the_checkpoints_of_a_quantized_base) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_QLORA;
    in.context = 1024;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    cr_assert_eq(in.residual_fp32, 0);
    hwfit_memory_out base = estimate_ok(&m, &in);
    in.residual_fp32 = 1;
    hwfit_memory_out a = estimate_ok(&m, &in);
    check_phases(&a, &in);
    const uint64_t extra = 32ull * 1024 * 4096 * 2;
    cr_assert_eq(a.forward_bytes - base.forward_bytes, extra);
    cr_assert_eq(a.activation_bytes - base.activation_bytes, extra);
    /* LoRA on a bf16 base: no k-bit preparation. */
    in.mode = HWFIT_MEMORY_LORA;
    hwfit_memory_out l1 = estimate_ok(&m, &in);
    in.residual_fp32 = 0;
    cr_assert_eq(estimate_ok(&m, &in).forward_bytes, l1.forward_bytes);
    /* Without recomputation the layers store their own tensors: unchanged. */
    in.mode = HWFIT_MEMORY_QLORA;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    hwfit_memory_out n0 = estimate_ok(&m, &in);
    in.residual_fp32 = 1;
    cr_assert_eq(estimate_ok(&m, &in).forward_bytes, n0.forward_bytes);
    /* A flag is 0 or 1. */
    in.residual_fp32 = 2;
    hwfit_problem why;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "residual_fp32");
}

/* LoRA on fused projections (lora_modules). Phi-3 (model_type phi3) fuses q/k/v into
 * qkv_proj and gate/up into gate_up_proj (transformers modeling_phi3.py); PEFT puts one
 * adapter on each: r 16 on every linear of phi-3-mini-4k-instruct gives PEFT's printed
 * "trainable params: 25,165,824" (nehru/ai-docstring-generator README.md at e6d4edd2),
 * where separate projections give 29,884,416 (Unsloth's llamafied checkpoint, torchtune). */
static hwfit_model phi3_mini(void) {
    hwfit_model m;
    hwfit_error err;
    cr_assert_eq(hwfit_hf_config_load(HWFIT_TEST_DATA "/models/phi-3-mini-4k-instruct.config.json",
                                      &m, &err),
                 HWFIT_OK);
    cr_assert_eq(m.fused_modules, HWFIT_MODEL_FUSED_QKV | HWFIT_MODEL_FUSED_GATE_UP);
    return m;
}

Test(memory, lora_modules_follow_the_checkpoint) {
    hwfit_model m = phi3_mini();
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 1000;
    cr_assert_eq(in.lora_modules, HWFIT_MEMORY_LORA_MODULES_SEPARATE); /* the default */
    hwfit_memory_out sep = estimate_ok(&m, &in);
    cr_assert_eq(sep.adapter_params, 29884416ull);
    cr_assert_eq(sep.trainable_params, 29884416ull);
    in.lora_modules = HWFIT_MEMORY_LORA_MODULES_CHECKPOINT;
    hwfit_memory_out ck = estimate_ok(&m, &in);
    cr_assert_eq(ck.adapter_params, 25165824ull);
    cr_assert_eq(ck.trainable_params, 25165824ull);
    /* One A per fused module: the difference is r x hidden for k, v and up per layer. */
    cr_assert_eq(sep.adapter_params - ck.adapter_params, 32ull * 16 * 3 * 3072);
    /* Megatron-Core's fusion is the same on Phi-3. */
    in.lora_modules = HWFIT_MEMORY_LORA_MODULES_FUSED;
    cr_assert_eq(estimate_ok(&m, &in).adapter_params, 25165824ull);
    /* A target naming part of a fused module adapts the whole module: q and v adapt
     * qkv_proj (r (3072 + 3 x 3072) a layer), gate adapts gate_up_proj. */
    in.lora_modules = HWFIT_MEMORY_LORA_MODULES_CHECKPOINT;
    in.lora_targets = HWFIT_LORA_Q | HWFIT_LORA_V;
    cr_assert_eq(estimate_ok(&m, &in).adapter_params, 32ull * 16 * (3072 + 9216));
    in.lora_targets = HWFIT_LORA_Q;
    cr_assert_eq(estimate_ok(&m, &in).adapter_params, 32ull * 16 * (3072 + 9216));
    in.lora_targets = HWFIT_LORA_GATE;
    cr_assert_eq(estimate_ok(&m, &in).adapter_params, 32ull * 16 * (3072 + 2 * 8192));
    /* Separate, q alone is q alone. */
    in.lora_modules = HWFIT_MEMORY_LORA_MODULES_SEPARATE;
    in.lora_targets = HWFIT_LORA_Q;
    cr_assert_eq(estimate_ok(&m, &in).adapter_params, 32ull * 16 * (3072 + 3072));
    /* LoRA dropout: one per module, of its input. Separate: q, k, v, gate, up each keep a
     * copy of the hidden state; fused: qkv_proj and gate_up_proj one each (3 bytes a
     * value: the bf16 copy and the mask). */
    in.lora_targets = HWFIT_LORA_ALL;
    in.lora_dropout = 1;
    hwfit_memory_out sd = estimate_ok(&m, &in);
    in.lora_modules = HWFIT_MEMORY_LORA_MODULES_CHECKPOINT;
    hwfit_memory_out cd = estimate_ok(&m, &in);
    cr_assert_eq(sd.activation_dense_layer_bytes - cd.activation_dense_layer_bytes,
                 1000ull * 3 * 3072 * 3);
    /* DoRA: a magnitude per output of each module, the same outputs either way. */
    in.lora_dropout = 0;
    in.dora = 1;
    hwfit_memory_out cdora = estimate_ok(&m, &in);
    cr_assert_eq(cdora.adapter_params - ck.adapter_params,
                 32ull * (9216 + 3072 + 2 * 8192 + 3072));
    cr_assert_eq(cdora.activation_dense_layer_bytes - ck.activation_dense_layer_bytes,
                 2 * 1000ull * (9216 + 3072 + 2 * 8192 + 3072) * 2);
}

/* A checkpoint without fused modules (Llama) is unchanged under "checkpoint"; Megatron-Core
 * fuses q/k/v into linear_qkv and gate/up into linear_fc1 whatever the checkpoint. */
Test(memory, lora_modules_fused_on_llama) {
    hwfit_model m;
    llama8b(&m);
    cr_assert_eq(m.fused_modules, 0u);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 1000;
    in.lora_dropout = 1;
    hwfit_memory_out sep = estimate_ok(&m, &in);
    cr_assert_eq(sep.adapter_params, 41943040ull);
    in.lora_modules = HWFIT_MEMORY_LORA_MODULES_CHECKPOINT;
    hwfit_memory_out ck = estimate_ok(&m, &in);
    cr_assert_eq(ck.adapter_params, sep.adapter_params);
    cr_assert_eq(ck.activation_dense_layer_bytes, sep.activation_dense_layer_bytes);
    cr_assert_eq(ck.peak_bytes, sep.peak_bytes);
    /* linear_qkv r (4096 + 4096 + 1024 + 1024), linear_proj r (4096 + 4096), linear_fc1
     * r (4096 + 2 x 14336), linear_fc2 r (14336 + 4096), 32 layers. */
    in.lora_modules = HWFIT_MEMORY_LORA_MODULES_FUSED;
    hwfit_memory_out fu = estimate_ok(&m, &in);
    cr_assert_eq(fu.adapter_params,
                 32ull * 16 * ((4096 + 6144) + 8192 + (4096 + 28672) + 18432));
    cr_assert_eq(fu.adapter_params, 35651584ull);
    cr_assert_eq(sep.activation_dense_layer_bytes - fu.activation_dense_layer_bytes,
                 1000ull * 3 * 4096 * 3);
}

/* Routed experts: Megatron's grouped linear_fc1 holds each expert's gate and up, one
 * adapter per expert (ms-swift LoraParallelLinear on TEGroupedLinear); MLA's projections
 * are separate modules everywhere, so fused q/k/v does not apply to them. */
Test(memory, lora_modules_fused_experts_and_mla) {
    hwfit_model x;
    mixtral_shape(&x);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.lora_rank = 8;
    in.lora_targets = HWFIT_LORA_GATE | HWFIT_LORA_UP | HWFIT_LORA_DOWN;
    hwfit_memory_out sep = estimate_ok(&x, &in);
    cr_assert_eq(sep.adapter_params, 32ull * 8 * 3 * 8 * (4096 + 14336));
    in.lora_modules = HWFIT_MEMORY_LORA_MODULES_FUSED;
    hwfit_memory_out fu = estimate_ok(&x, &in);
    cr_assert_eq(sep.adapter_params - fu.adapter_params, 32ull * 8 * 8 * 4096);
    cr_assert_eq(sep.expert_trainable_params - fu.expert_trainable_params, 32ull * 8 * 8 * 4096);
    /* Its checkpoint fuses nothing: checkpoint is separate. */
    in.lora_modules = HWFIT_MEMORY_LORA_MODULES_CHECKPOINT;
    cr_assert_eq(estimate_ok(&x, &in).adapter_params, sep.adapter_params);

    hwfit_model ds;
    cr_assert_eq(fixture_deepseek_v3(&ds), HWFIT_OK);
    in.lora_targets = HWFIT_LORA_ATTENTION;
    in.lora_modules = HWFIT_MEMORY_LORA_MODULES_SEPARATE;
    uint64_t mla = estimate_ok(&ds, &in).adapter_params;
    in.lora_modules = HWFIT_MEMORY_LORA_MODULES_FUSED;
    cr_assert_eq(estimate_ok(&ds, &in).adapter_params, mla);
}

/* Bad values are refused with the field named. */
Test(memory, lora_modules_refused_out_of_range) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.lora_modules = (hwfit_memory_lora_modules)3;
    hwfit_problem why;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EINVAL);
    cr_assert_str_eq(why.field, "lora_modules");
    hwfit_memory_out o;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &o), HWFIT_EINVAL);
    in.lora_modules = HWFIT_MEMORY_LORA_MODULES_CHECKPOINT;
    m.fused_modules = 0x04u;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "model.fused_modules");
}

/* The profiles say which modules their LoRA wraps: PEFT's (the Trainer and its front ends,
 * DeepSpeed, FSDP) the checkpoint's, Megatron-Core's fused, the others separate; full
 * fine-tuning keeps the default. */
Test(memory, lora_modules_of_the_profiles) {
    static const struct {
        const char *name;
        hwfit_memory_lora_modules modules;
    } want[] = {
        {"hf-trainer", HWFIT_MEMORY_LORA_MODULES_CHECKPOINT},
        {"hf-trainer+peft", HWFIT_MEMORY_LORA_MODULES_CHECKPOINT},
        {"llama-factory", HWFIT_MEMORY_LORA_MODULES_CHECKPOINT},
        {"axolotl", HWFIT_MEMORY_LORA_MODULES_CHECKPOINT},
        {"ms-swift", HWFIT_MEMORY_LORA_MODULES_CHECKPOINT},
        {"deepspeed", HWFIT_MEMORY_LORA_MODULES_CHECKPOINT},
        {"fsdp", HWFIT_MEMORY_LORA_MODULES_CHECKPOINT},
        {"megatron", HWFIT_MEMORY_LORA_MODULES_FUSED},
        {"unsloth", HWFIT_MEMORY_LORA_MODULES_SEPARATE},
        {"torchtune", HWFIT_MEMORY_LORA_MODULES_SEPARATE},
        {"litgpt", HWFIT_MEMORY_LORA_MODULES_SEPARATE},
        {"torchtitan", HWFIT_MEMORY_LORA_MODULES_SEPARATE},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        for (int mode = HWFIT_MEMORY_LORA; mode <= HWFIT_MEMORY_QLORA; mode++) {
            hwfit_memory_in in;
            hwfit_memory_init(&in);
            in.mode = (hwfit_memory_mode)mode;
            uint64_t sets = 0;
            cr_assert_eq(hwfit_memory_profile_apply(want[i].name, 1, &in, &sets), HWFIT_OK);
            cr_assert_eq(in.lora_modules, want[i].modules, "%s", want[i].name);
            cr_assert_eq((sets & HWFIT_PROFILE_LORA_MODULES) != 0,
                         want[i].modules != HWFIT_MEMORY_LORA_MODULES_SEPARATE, "%s",
                         want[i].name);
        }
        hwfit_memory_in full;
        hwfit_memory_init(&full);
        full.mode = HWFIT_MEMORY_FULL;
        cr_assert_eq(hwfit_memory_profile_apply(want[i].name, 1, &full, NULL), HWFIT_OK);
        cr_assert_eq(full.lora_modules, HWFIT_MEMORY_LORA_MODULES_SEPARATE);
    }
}

/* The evaluation phase (evaluation, eval_batch, eval_kv_cache): Llama 2 7B (32 layers,
 * hidden 4096, 32 K/V heads of 128, vocab 32000) evaluated at 8 x 2048 tokens. */
static void llama2_7b(hwfit_model *m) {
    fixture_llama_3_1_8b(m);
    m->kv_heads = 32;
    m->intermediate = 11008;
    m->vocab = 32000;
}

/* --loss liger: Liger-Kernel's forward is the fused linear cross-entropy in training and, in
 * evaluation, the whole logits with transformers' loss. Llama 2 7B LoRA, 2,048 tokens, full
 * recomputation: every training figure is fused's; the evaluation forward holds per token
 * the head's bf16 input and per logit 12 bytes (upcast-freed's evaluation: the larger of
 * the bf16 logits with their fp32 copy and log-softmax, 2 + 8, and 12) instead of fused's 8h
 * a token; the eval replay is off so the figures are the plain sums. */
Test(memory, liger_loss_is_fused_in_training_and_whole_in_evaluation) {
    hwfit_model m;
    llama2_7b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 2048;
    in.micro_batch = 1;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    in.evaluation = 1;
    in.eval_batch = 1;
    in.eval_replay = 0;
    in.loss = HWFIT_MEMORY_LOSS_FUSED;
    const hwfit_memory_out f = estimate_ok(&m, &in);
    in.loss = HWFIT_MEMORY_LOSS_LIGER;
    const hwfit_memory_out l = estimate_ok(&m, &in);
    check_phases(&l, &in);
    cr_assert_eq(l.forward_bytes, f.forward_bytes);
    cr_assert_eq(l.backward_bytes, f.backward_bytes);
    cr_assert_eq(l.step_bytes, f.step_bytes);
    cr_assert_eq(l.loss_bytes, f.loss_bytes);
    cr_assert_eq(l.activation_bytes, f.activation_bytes);
    cr_assert_eq(l.eval_bytes - f.eval_bytes, 2048ull * (2 * 4096 + 12 * 32000) - 2048ull * 8 * 4096);
    in.loss = HWFIT_MEMORY_LOSS_UPCAST_FREED; /* the same evaluation as the model's loss */
    cr_assert_eq(estimate_ok(&m, &in).eval_bytes, l.eval_bytes);
    in.loss = (hwfit_memory_loss)(HWFIT_MEMORY_LOSS_LIGER + 1);
    hwfit_memory_out out;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &out), HWFIT_EINVAL);
}

Test(memory, evaluation_phase) {
    hwfit_model m;
    llama2_7b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    cr_assert_eq(in.evaluation, 0);
    cr_assert_eq(in.eval_batch, 8u);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 2048;
    in.micro_batch = 1;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    in.loss = HWFIT_MEMORY_LOSS_UPCAST;
    hwfit_memory_out base = estimate_ok(&m, &in);
    cr_assert_eq(base.eval_bytes, 0u);
    /* The eval forward's K/V cache: K and V of every layer at 8 x 2048 tokens, bf16. */
    in.evaluation = 1;
    hwfit_memory_out nocache = estimate_ok(&m, &in);
    in.eval_kv_cache = 1;
    hwfit_memory_out cache = estimate_ok(&m, &in);
    cr_assert_eq(cache.eval_bytes - nocache.eval_bytes, 2ull * 32 * 8 * 2048 * 4096 * 2);
    /* The training phases do not move; at micro-batch 1 with full recomputation the
     * evaluation at 8 sequences sets the peak. */
    cr_assert_eq(cache.forward_bytes, base.forward_bytes);
    cr_assert_eq(cache.backward_bytes, base.backward_bytes);
    cr_assert_eq(cache.step_bytes, base.step_bytes);
    cr_assert_eq(cache.peak_phase, HWFIT_MEMORY_PHASE_EVALUATION);
    cr_assert_eq(cache.allocated_bytes, cache.eval_bytes);
    cr_assert_gt(cache.peak_bytes, base.peak_bytes);
    /* The eval phase holds the weights and optimizer states, never the gradients. */
    cr_assert_geq(cache.eval_bytes, cache.weights_bytes + cache.optimizer_bytes);
    /* A small evaluation without the cache stays below the training peak: the answer is
     * the training one. */
    in.eval_kv_cache = 0;
    in.eval_batch = 1;
    hwfit_memory_out small = estimate_ok(&m, &in);
    cr_assert_gt(small.eval_bytes, 0u);
    cr_assert_neq(small.peak_phase, HWFIT_MEMORY_PHASE_EVALUATION);
    cr_assert_eq(small.peak_bytes, base.peak_bytes);
    cr_assert_eq(small.allocated_bytes, base.allocated_bytes);
    /* fp32 cache when the residual stream is fp32 on a quantized base (PEFT's k-bit
     * preparation). */
    in.mode = HWFIT_MEMORY_QLORA;
    in.qlora_base = dt("nf4");
    in.residual_fp32 = 1;
    in.eval_batch = 8;
    hwfit_memory_out q0 = estimate_ok(&m, &in);
    in.eval_kv_cache = 1;
    hwfit_memory_out q1 = estimate_ok(&m, &in);
    cr_assert_eq(q1.eval_bytes - q0.eval_bytes, 2ull * 32 * 8 * 2048 * 4096 * 4);
    /* Bad values are refused with the field named. */
    hwfit_problem why;
    in.eval_batch = 0;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "eval_batch");
    in.eval_batch = 8;
    in.evaluation = 2;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "evaluation");
    in.evaluation = 1;
    in.eval_kv_cache = 2;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "eval_kv_cache");
    in.eval_kv_cache = 1;
    in.mode = HWFIT_MEMORY_INFERENCE;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EINVAL);
    cr_assert_str_eq(why.field, "evaluation");
}

/* The evaluation forward's segments (memory.c hwfit__memory_eval_segments): the Hinglish
 * QLoRA run's evaluation of Llama 2 7B (fp4 base, fp32 hidden states, LoRA r 64 on q, k, v and o, 8 x
 * 2048 tokens, the K/V cache kept). Each layer's K and V are carved out of blocks the
 * layer's transients freed and pin them, so the next layer's largest requests take new
 * segments: the reserve is the fixed tensors' with the fraction plus the replay's
 * segments, 34,191,966,208 bytes (tests/data/tools/eval_replay.py, a second
 * implementation of the allocator's rules), above the evaluation's allocated bytes with
 * the fraction; the difference is stranded. The allocated bytes do not move; with
 * expandable segments nothing strands. */
Test(memory, evaluation_segments_replayed) {
    hwfit_model m;
    llama2_7b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_QLORA;
    in.qlora_base = dt("nf4");
    in.unquantized = dt("fp32");
    in.lora_dtype = dt("fp32");
    in.gradients = dt("fp32");
    in.optimizer_states = dt("fp32");
    in.master_weights = 0;
    in.residual_fp32 = 1;
    in.lora_rank = 64;
    in.lora_targets = HWFIT_LORA_ATTENTION;
    in.lora_dropout = 0;
    in.context = 2048;
    in.micro_batch = 2;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    in.loss = HWFIT_MEMORY_LOSS_UPCAST_FREED;
    in.fragmentation = 0.1;
    in.evaluation = 1;
    in.eval_batch = 8;
    in.eval_kv_cache = 1;
    hwfit_memory_out r = estimate_ok(&m, &in);
    cr_assert_eq(r.peak_phase, HWFIT_MEMORY_PHASE_EVALUATION);
    uint64_t fixed = r.weights_bytes + r.optimizer_bytes + r.kv_bytes;
    uint64_t wf = fixed + (uint64_t)ceil((double)fixed * 0.1);
    cr_assert_eq(r.reserved_bytes, wf + 34191966208ull);
    uint64_t plain = r.allocated_bytes + (uint64_t)ceil((double)r.allocated_bytes * 0.1);
    cr_assert_gt(r.reserved_bytes, plain);
    cr_assert_eq(r.stranded_bytes, r.reserved_bytes - plain);
    cr_assert_eq(r.peak_bytes, r.reserved_bytes + r.overhead_bytes);
    in.expandable_segments = 1;
    hwfit_memory_out x = estimate_ok(&m, &in);
    cr_assert_eq(x.allocated_bytes, r.allocated_bytes);
    cr_assert_eq(x.reserved_bytes, plain);
    cr_assert_eq(x.stranded_bytes, 0u);
    /* A framework with layers of its own (eval_replay 0, the unsloth profile): the
     * fraction alone, as with expandable segments. */
    in.expandable_segments = 0;
    in.eval_replay = 0;
    hwfit_memory_out n = estimate_ok(&m, &in);
    cr_assert_eq(n.allocated_bytes, r.allocated_bytes);
    cr_assert_eq(n.reserved_bytes, plain);
    hwfit_memory_in u;
    hwfit_memory_init(&u);
    cr_assert_eq(u.eval_replay, 1);
    u.mode = HWFIT_MEMORY_QLORA;
    cr_assert_eq(hwfit_memory_profile_apply("unsloth", 1, &u, NULL), HWFIT_OK);
    cr_assert_eq(u.eval_replay, 0);
    u.eval_replay = 2;
    hwfit_problem why;
    cr_assert_eq(hwfit_memory_validate(&m, &u, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "eval_replay");
    in.eval_replay = 1;
    in.expandable_segments = 1;
    /* The upcast-freed loss at the evaluation: 12 bytes a logit (transformers up to 4.45:
     * the fp32 logits, their shifted copy, the log-softmax) where fp32-copy counts A + 8. */
    in.loss = HWFIT_MEMORY_LOSS_FP32_COPY;
    hwfit_memory_out c = estimate_ok(&m, &in);
    cr_assert_eq(x.eval_bytes - c.eval_bytes, 2ull * 8 * 2048 * 32000);
}

/* Unsloth's chunked fused loss (HWFIT_MEMORY_LOSS_FUSED_CHUNKED; unsloth_zoo
 * fused_losses/cross_entropy_loss.py get_chunk_size). Llama 3.1 8B at 8 x 2048 rows: the
 * micro-batch's fp32 logits are 4 x 16384 x 128256 = 8,405,385,216 bytes; a chunk's work
 * is its rows x (2 x 2 x 128256 logits and their gradient + 2 x 4096 hidden-state
 * gradient) = 521,216 bytes a row. */
static hwfit_memory_in chunked_in(void) {
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_QLORA;
    in.context = 2048;
    in.micro_batch = 8;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    in.loss = HWFIT_MEMORY_LOSS_FUSED_CHUNKED;
    return in;
}

Test(memory, fused_chunked_counts_chunks_as_unsloth) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in = chunked_in();
    const uint64_t row = 2ull * 2 * 128256 + 2ull * 4096;
    /* The defaults (since d9fe1f43): T = 4 GiB, x = 8405385216 / 2^32 = 1.96, rounded up
     * to 4 chunks of 4096 rows. */
    cr_assert_eq(in.loss_target_bytes, 4294967296.0);
    cr_assert_eq(in.loss_free_share, 0.5);
    cr_assert_eq(in.loss_chunks_round_up, 1);
    cr_assert(isinf(in.card_bytes));
    hwfit_memory_out o = estimate_ok(&m, &in);
    cr_assert_eq(o.loss_chunks, 4);
    cr_assert_eq(o.loss_chunk_bytes, 4096 * row);
    /* Rounded to the nearest multiple of 4 (2025.8.5 to 2026.6): 4 round(0.49) = 0, so one
     * chunk, the whole micro-batch (up to twice the target stays whole). */
    in.loss_chunks_round_up = 0;
    o = estimate_ok(&m, &in);
    cr_assert_eq(o.loss_chunks, 1);
    cr_assert_eq(o.loss_chunk_bytes, 16384 * row);
    /* Python's round is half to even: x = 2 (T = 2 N V) is 4 round(0.5) = 0, one chunk;
     * x = 6 is 4 round(1.5) = 8. Rounding up: x = 2 gives 4, x = 6 gives 8. */
    in.loss_target_bytes = 8405385216.0 / 2.0;
    cr_assert_eq(estimate_ok(&m, &in).loss_chunks, 1);
    in.loss_chunks_round_up = 1;
    cr_assert_eq(estimate_ok(&m, &in).loss_chunks, 4);
    in.loss_target_bytes = 8405385216.0 / 6.0;
    cr_assert_eq(estimate_ok(&m, &in).loss_chunks, 8);
    in.loss_chunks_round_up = 0;
    cr_assert_eq(estimate_ok(&m, &in).loss_chunks, 8);
    /* No cap and no card: nothing bounds T, one chunk. */
    in.loss_target_bytes = INFINITY;
    o = estimate_ok(&m, &in);
    cr_assert_eq(o.loss_chunks, 1);
    cr_assert_eq(o.loss_chunk_bytes, 16384 * row);
    /* A target below a row's fp32 logits: one row a chunk. */
    in.loss_target_bytes = 1.0;
    o = estimate_ok(&m, &in);
    cr_assert_eq(o.loss_chunks, 16384);
    cr_assert_eq(o.loss_chunk_bytes, row);
}

Test(memory, fused_chunked_smaller_card_never_larger_chunks) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in = chunked_in();
    in.loss_target_bytes = INFINITY;
    in.loss_chunks_round_up = 0;
    uint64_t chunks = 0, bytes = UINT64_MAX;
    const double cards[] = {141 * GIB, 80 * GIB, 48 * GIB, 24 * GIB, 16 * GIB, 12 * GIB};
    for (size_t i = 0; i < sizeof cards / sizeof cards[0]; i++) {
        in.card_bytes = cards[i];
        hwfit_memory_out o = estimate_ok(&m, &in);
        cr_assert_geq(o.loss_chunks, chunks, "card %g GiB", cards[i] / GIB);
        cr_assert_leq(o.loss_chunk_bytes, bytes, "card %g GiB", cards[i] / GIB);
        chunks = o.loss_chunks;
        bytes = o.loss_chunk_bytes;
    }
    cr_assert_gt(chunks, 1); /* a 12 GiB card splits what an H200 keeps whole */
    /* Half the free memory: a larger share never gives more chunks. */
    in.card_bytes = 24 * GIB;
    uint64_t half = estimate_ok(&m, &in).loss_chunks;
    in.loss_free_share = 1.0;
    cr_assert_leq(estimate_ok(&m, &in).loss_chunks, half);
}

Test(memory, fused_chunked_work_is_the_forwards_end) {
    /* Against the fused loss (8h a token kept): the chunked one keeps the head's input and
     * the hidden states' gradient (4h + 2h) and adds one chunk's work to the forward only. */
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in = chunked_in();
    hwfit_memory_out c = estimate_ok(&m, &in);
    in.loss = HWFIT_MEMORY_LOSS_FUSED;
    hwfit_memory_out f = estimate_ok(&m, &in);
    cr_assert_eq(f.loss_chunks, 0);
    cr_assert_eq(f.loss_chunk_bytes, 0);
    cr_assert_eq(c.loss_bytes, 16384ull * 6 * 4096);
    cr_assert_eq(f.loss_bytes - c.loss_bytes, 16384ull * 2 * 4096);
    cr_assert_eq(c.forward_bytes + 16384ull * 2 * 4096, f.forward_bytes + c.loss_chunk_bytes);
    /* Inference has no loss chunks. */
    in.loss = HWFIT_MEMORY_LOSS_FUSED_CHUNKED;
    in.mode = HWFIT_MEMORY_INFERENCE;
    cr_assert_eq(estimate_ok(&m, &in).loss_chunks, 0);
}

static void i_target0(hwfit_memory_in *in) { in->loss_target_bytes = 0.0; }
static void i_target_nan(hwfit_memory_in *in) { in->loss_target_bytes = NAN; }
static void i_share0(hwfit_memory_in *in) { in->loss_free_share = 0.0; }
static void i_share2(hwfit_memory_in *in) { in->loss_free_share = 2.0; }
static void i_round2(hwfit_memory_in *in) { in->loss_chunks_round_up = 2; }
static void i_card0(hwfit_memory_in *in) { in->card_bytes = 0.0; }
static void i_card_neg_inf(hwfit_memory_in *in) { in->card_bytes = -INFINITY; }

Test(memory, fused_chunked_inputs_are_checked) {
    hwfit_model m;
    llama8b(&m);
    static const struct {
        void (*set)(hwfit_memory_in *);
        const char *field;
    } bad[] = {{i_target0, "loss_target_bytes"}, {i_target_nan, "loss_target_bytes"},
               {i_share0, "loss_free_share"},    {i_share2, "loss_free_share"},
               {i_round2, "loss_chunks_round_up"}, {i_card0, "card_bytes"},
               {i_card_neg_inf, "card_bytes"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        hwfit_memory_in in = chunked_in();
        bad[i].set(&in);
        hwfit_memory_out out;
        hwfit_problem why;
        cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM, "%s", bad[i].field);
        cr_assert_str_eq(why.field, bad[i].field);
        cr_assert_eq(hwfit_memory_estimate(&m, &in, &out), HWFIT_EDOM, "%s", bad[i].field);
    }
}

/* Unsloth's FastModel path under several processes (unsloth_fast_model): from 2025.12.8
 * (PR #3751) models/vision.py checkpoints with use_reentrant = not is_distributed() and
 * drops the offloaded checkpointer, so the layer inputs stay on the card; FastLanguageModel's
 * own path, one process, or an earlier release keep the offload. Each bound. */
Test(memory, unsloth_fast_model_keeps_checkpoints_under_several_processes) {
    static const struct {
        const char *release;
        uint32_t gpus;
        int fast, offload;
    } r[] = {{"2025.12.8", 2, 1, 0}, {"2026.8.3", 8, 1, 0}, {NULL, 2, 1, 0},
             {"2025.12.7", 2, 1, 1}, {"2026.8.3", 1, 1, 1}, {"2026.8.3", 2, 0, 1}};
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
        hwfit_memory_in in = chunked_in();
        in.unsloth_fast_model = r[i].fast;
        uint64_t sets = 0;
        cr_assert_eq(hwfit_memory_profile_apply_release("unsloth", r[i].release, r[i].gpus, &in,
                                                        &sets),
                     HWFIT_OK, "%zu", i);
        cr_assert_eq(in.activation_offload, r[i].offload, "%zu", i);
        cr_assert_eq(in.recompute, HWFIT_MEMORY_RECOMPUTE_FULL, "%zu: checkpointing stays", i);
        cr_assert(sets & HWFIT_PROFILE_OFFLOAD);
    }
    /* Other profiles do not read it. */
    hwfit_memory_in a = chunked_in(), b = chunked_in();
    b.unsloth_fast_model = 1;
    cr_assert_eq(hwfit_memory_profile_apply("hf-trainer+peft", 2, &a, NULL), HWFIT_OK);
    cr_assert_eq(hwfit_memory_profile_apply("hf-trainer+peft", 2, &b, NULL), HWFIT_OK);
    b.unsloth_fast_model = 0;
    cr_assert_eq(memcmp(&a, &b, sizeof a), 0);
    /* Not 0 or 1: refused. */
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_out o;
    a.unsloth_fast_model = 2;
    cr_assert_eq(hwfit_memory_estimate(&m, &a, &o), HWFIT_EDOM);
}

/* TRL's release (hwfit_memory_profile_apply_releases): Unsloth 2025.11.5 to 2026.6.x hand
 * the SFTConfig's gradient_checkpointing to for_training, and TRL's SFTConfig says True only
 * from 0.22.0, so below it the offloaded checkpoints are off (unsloth f7be4b1140 to
 * 2b06616a7e; TRL a222aeb46). Each bound on either side. */
Test(memory, unsloth_checkpointing_by_trl_release) {
    static const struct {
        const char *release, *trl;
        int off;
    } r[] = {{"2026.6.9", "0.15.2", 1}, {"2025.11.5", "0.21.9", 1},
             {"2025.11.4", "0.15.2", 0}, {"2026.7.1", "0.15.2", 0},
             {"2026.6.9", "0.22.0", 0},  {"2026.6.9", "1.9", 0},
             {"2026.6.9", NULL, 0},      {NULL, "0.15.2", 0}};
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
        hwfit_memory_in in = chunked_in();
        uint64_t sets = 0;
        const hwfit_memory_releases rel = {.framework = r[i].release, .trl = r[i].trl};
        cr_assert_eq(hwfit_memory_profile_apply_releases("unsloth", &rel, 1, &in, &sets),
                     HWFIT_OK, "%zu", i);
        cr_assert_eq(in.recompute,
                     r[i].off ? HWFIT_MEMORY_RECOMPUTE_NONE : HWFIT_MEMORY_RECOMPUTE_FULL,
                     "%zu", i);
        cr_assert_eq(in.activation_offload, !r[i].off, "%zu", i);
        cr_assert(sets & HWFIT_PROFILE_RECOMPUTE);
        /* Without the libraries' releases the answer is hwfit_memory_profile_apply_release's. */
        hwfit_memory_in a = chunked_in(), b = chunked_in();
        const hwfit_memory_releases own = {.framework = r[i].release};
        cr_assert_eq(hwfit_memory_profile_apply_releases("unsloth", &own, 1, &a, NULL),
                     HWFIT_OK);
        cr_assert_eq(hwfit_memory_profile_apply_release("unsloth", r[i].release, 1, &b, NULL),
                     HWFIT_OK);
        cr_assert_eq(memcmp(&a, &b, sizeof a), 0, "%zu", i);
    }
    /* The override holds every layer's activations: the peak rises. */
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in on = chunked_in(), off = chunked_in();
    const hwfit_memory_releases new_trl = {.framework = "2026.6.9", .trl = "0.22.2"},
                                old_trl = {.framework = "2026.6.9", .trl = "0.15.2"};
    cr_assert_eq(hwfit_memory_profile_apply_releases("unsloth", &new_trl, 1, &on, NULL),
                 HWFIT_OK);
    cr_assert_eq(hwfit_memory_profile_apply_releases("unsloth", &old_trl, 1, &off, NULL),
                 HWFIT_OK);
    hwfit_memory_out a, b;
    cr_assert_eq(hwfit_memory_estimate(&m, &on, &a), HWFIT_OK);
    cr_assert_eq(hwfit_memory_estimate(&m, &off, &b), HWFIT_OK);
    cr_assert_gt(b.peak_bytes, a.peak_bytes + 1000000000ull);
    /* Which profiles depend on TRL's and transformers' releases: unsloth alone (trl's own
     * release is TRL's). */
    static const char *const libs[] = {"trl", "transformers"};
    for (size_t l = 0; l < 2; l++) {
        size_t n = 0;
        for (size_t i = 0; hwfit_memory_profile_name(i) != NULL; i++) {
            const char *name = hwfit_memory_profile_name(i);
            int dated = -1;
            cr_assert_eq(hwfit_memory_profile_library_dated(name, libs[l], &dated), HWFIT_OK);
            cr_assert_eq(dated, strcmp(name, "unsloth") == 0, "%s %s", name, libs[l]);
            n += (size_t)dated;
            hwfit_memory_in in = chunked_in(), before = chunked_in();
            hwfit_memory_releases rel = {0};
            if (l == 0) rel.trl = "0.15.2";
            else rel.transformers = "4.51.3";
            cr_assert_eq(hwfit_memory_profile_apply_releases(name, &rel, 1, &in, NULL),
                         dated ? HWFIT_OK : HWFIT_EUNSUPPORTED, "%s", name);
            if (!dated) cr_assert_eq(memcmp(&in, &before, sizeof in), 0, "%s", name);
        }
        cr_assert_eq(n, 1);
    }
    int dated = 7;
    cr_assert_eq(hwfit_memory_profile_library_dated("unsloth", "peft", &dated), HWFIT_ENOTFOUND);
    cr_assert_eq(dated, 7);
    /* Malformed releases: refused, the inputs untouched. */
    static const char *const bad[] = {"", "0", "0.", "0.15.", "0.15.2.1", "1000.1", "v0.15",
                                      "0.15.2 ", "2025.11"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        for (size_t l = 0; l < 2; l++) {
            hwfit_memory_in in = chunked_in(), before = chunked_in();
            hwfit_memory_releases rel = {.framework = "2026.6.9"};
            if (l == 0) rel.trl = bad[i];
            else rel.transformers = bad[i];
            cr_assert_eq(hwfit_memory_profile_apply_releases("unsloth", &rel, 1, &in, NULL),
                         HWFIT_EPARSE, "'%s'", bad[i]);
            cr_assert_eq(memcmp(&in, &before, sizeof in), 0, "'%s'", bad[i]);
        }
}

/* transformers' caching allocator warm-up (hwfit_memory_in::load_warmup; modeling_utils.py
 * caching_allocator_warmup): one block of the state dict's bytes (unquantized; half for a
 * quantized model), capped by the card's free memory, a floor under the allocated and
 * reserved peak when the loading is counted. Llama 3.1 8B, 8,030,261,248 parameters, untied:
 * bf16 16,060,522,496 bytes, 2 MiB-rounded 16,060,530,688; QLoRA half of that. */
Test(memory, load_warmup_block_by_release) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 128;
    in.lora_rank = 8;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    hwfit_memory_out none, w, nocard;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &none), HWFIT_OK);
    in.load_warmup = HWFIT_MEMORY_WARMUP_MARGIN_UNTIED;
    /* No card: the block depends on the card's free memory; none counted. */
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &nocard), HWFIT_OK);
    cr_assert_eq(nocard.load_bytes, none.load_bytes);
    cr_assert_eq(nocard.reserved_bytes, none.reserved_bytes);
    in.card_bytes = 1024.0 * 1073741824.0; /* room enough: the whole count */
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &w), HWFIT_OK);
    const uint64_t block = 16062087168ull; /* ceil(16,060,522,496 / 2 MiB) = 7,659 x 2 MiB */
    cr_assert_eq(w.load_bytes, block > none.load_bytes ? block : none.load_bytes);
    cr_assert_geq(w.allocated_bytes, block);
    cr_assert_geq(w.reserved_bytes, block);
    cr_assert_geq(w.allocated_bytes, none.allocated_bytes);
    /* Only where the whole model is on the device: a tensor-parallel rank or a pipeline
     * stage loads without the block. */
    {
        /* QLoRA, whose block (a byte a parameter) is above its 4-bit weights. */
        hwfit_memory_in part = in;
        part.mode = HWFIT_MEMORY_QLORA;
        hwfit_memory_out whole, tp, stage;
        cr_assert_eq(hwfit_memory_estimate(&m, &part, &whole), HWFIT_OK);
        cr_assert_eq(whole.peak_phase, HWFIT_MEMORY_PHASE_LOAD);
        part.tensor_parallel = 2;
        cr_assert_eq(hwfit_memory_estimate(&m, &part, &tp), HWFIT_OK);
        cr_assert_lt(tp.load_bytes, whole.load_bytes);
        cr_assert_neq(tp.peak_phase, HWFIT_MEMORY_PHASE_LOAD);
        part.tensor_parallel = 1;
        part.head = 0;
        part.layer_count = 16;
        cr_assert_eq(hwfit_memory_estimate(&m, &part, &stage), HWFIT_OK);
        cr_assert_lt(stage.load_bytes, whole.load_bytes);
    }
    /* The peak statistics reset after loading: no load phase at all. */
    in.load_counted = 0;
    hwfit_memory_out reset;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &reset), HWFIT_OK);
    cr_assert_leq(reset.allocated_bytes, none.allocated_bytes);
    cr_assert_neq(reset.peak_phase, HWFIT_MEMORY_PHASE_LOAD);
    in.load_counted = 1;
    /* 4.50 skips a quantized model; 4.51 reserves half its 16-bit size. */
    in.mode = HWFIT_MEMORY_QLORA;
    in.load_warmup = HWFIT_MEMORY_WARMUP_UNQUANTIZED_95;
    hwfit_memory_out q50, q51;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &q50), HWFIT_OK);
    cr_assert_lt(q50.load_bytes, block / 2);
    in.load_warmup = HWFIT_MEMORY_WARMUP_95;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &q51), HWFIT_OK);
    /* 2 floor(S / 4) = 8,030,261,248, up to 3,830 x 2 MiB; above the 4-bit weights. */
    cr_assert_eq(q51.load_bytes, 8032092160ull);
    /* The cap: a 12 GiB card less 1 GiB of context: 0.95 x 11 GiB, halved (4.51), or
     * 11 GiB - 1.2 GiB, halved (4.52). */
    in.card_bytes = 12.0 * 1073741824.0;
    hwfit_memory_out c51, c52;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &c51), HWFIT_OK);
    in.load_warmup = HWFIT_MEMORY_WARMUP_MARGIN;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &c52), HWFIT_OK);
    const double gib = 1073741824.0, mib2 = 2097152.0;
    const uint64_t b51 = (uint64_t)(ceil(2.0 * floor(0.95 * 11.0 * gib / 4.0) / mib2) * mib2),
                   b52 = (uint64_t)(ceil(2.0 * floor((11.0 - 1.2) * gib / 4.0) / mib2) * mib2);
    /* q50's load is the 4-bit weights alone (no block): the floor is the larger. */
    cr_assert_eq(c51.load_bytes, b51 > q50.load_bytes ? b51 : q50.load_bytes);
    cr_assert_eq(c52.load_bytes, b52 > q50.load_bytes ? b52 : q50.load_bytes);
    cr_assert_lt(c52.load_bytes, q51.load_bytes);
    /* A tied head is counted twice until 4.53 and once from 4.54 (Llama 3.1 8B's shapes
     * with its head tied). */
    hwfit_model t;
    llama8b(&t);
    t.tie_embeddings = 1;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 128;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    in.card_bytes = 1024.0 * 1073741824.0;
    hwfit_model_param_counts pc;
    cr_assert_eq(hwfit_model_params(&t, &pc), HWFIT_OK);
    in.load_warmup = HWFIT_MEMORY_WARMUP_MARGIN;
    hwfit_memory_out twice, once;
    cr_assert_eq(hwfit_memory_estimate(&t, &in, &twice), HWFIT_OK);
    in.load_warmup = HWFIT_MEMORY_WARMUP_MARGIN_UNTIED;
    cr_assert_eq(hwfit_memory_estimate(&t, &in, &once), HWFIT_OK);
    cr_assert_eq(twice.load_bytes,
                 (uint64_t)(ceil(2.0 * (double)(pc.total + pc.embedding) / mib2) * mib2));
    in.load_warmup = HWFIT_MEMORY_WARMUP_NONE;
    hwfit_memory_out plain_load;
    cr_assert_eq(hwfit_memory_estimate(&t, &in, &plain_load), HWFIT_OK);
    const uint64_t b_once = (uint64_t)(ceil(2.0 * (double)pc.total / mib2) * mib2);
    cr_assert_eq(once.load_bytes, b_once > plain_load.load_bytes ? b_once : plain_load.load_bytes);
    cr_assert_gt(twice.load_bytes, once.load_bytes);
    /* Bad values refused. */
    in.load_warmup = (hwfit_memory_warmup)5;
    cr_assert_eq(hwfit_memory_estimate(&t, &in, &once), HWFIT_EINVAL);
    in.load_warmup = HWFIT_MEMORY_WARMUP_NONE;
    in.load_counted = 2;
    cr_assert_eq(hwfit_memory_estimate(&t, &in, &once), HWFIT_EDOM);
    /* The unsloth profile by transformers' release (from Unsloth 2025.4). */
    static const struct {
        const char *release, *tf;
        hwfit_memory_warmup w;
    } r[] = {{"2025.6.1", "4.49.0", HWFIT_MEMORY_WARMUP_NONE},
             {"2025.6.1", "4.50.3", HWFIT_MEMORY_WARMUP_UNQUANTIZED_95},
             {"2025.6.1", "4.51.3", HWFIT_MEMORY_WARMUP_95},
             {"2025.6.1", "4.53.2", HWFIT_MEMORY_WARMUP_MARGIN},
             {"2025.9.1", "4.56.2", HWFIT_MEMORY_WARMUP_MARGIN_UNTIED},
             {"2025.9.1", "4.57.6", HWFIT_MEMORY_WARMUP_MARGIN_UNTIED},
             {"2026.8.1", "5.5.0", HWFIT_MEMORY_WARMUP_NONE},
             {"2025.9.1", NULL, HWFIT_MEMORY_WARMUP_NONE},
             {"2025.3.19", "4.51.3", HWFIT_MEMORY_WARMUP_NONE},
             {"2024.8", NULL, HWFIT_MEMORY_WARMUP_NONE}};
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
        hwfit_memory_in p;
        hwfit_memory_init(&p);
        p.mode = HWFIT_MEMORY_QLORA;
        const hwfit_memory_releases rel = {.framework = r[i].release, .transformers = r[i].tf};
        cr_assert_eq(hwfit_memory_profile_apply_releases("unsloth", &rel, 1, &p, NULL),
                     HWFIT_OK);
        cr_assert_eq(p.load_warmup, r[i].w, "%zu", i);
    }
}

/* The profile by release (hwfit_memory_profile_apply_release): Unsloth's loss as each
 * release computed it; a malformed release leaves the inputs untouched. */
Test(memory, unsloth_profile_by_release) {
    static const struct {
        const char *release;
        hwfit_memory_loss loss;
        double target;
        int round_up;
    } r[] = {{"2024.5", HWFIT_MEMORY_LOSS_INPLACE, 4294967296.0, 1},
             {"2024.11.6", HWFIT_MEMORY_LOSS_INPLACE, 4294967296.0, 1},
             {"2024.11.7", HWFIT_MEMORY_LOSS_FUSED, 4294967296.0, 1},
             {"2025.3", HWFIT_MEMORY_LOSS_FUSED, 4294967296.0, 1},
             {"2025.8.5", HWFIT_MEMORY_LOSS_FUSED_CHUNKED, 1073741824.0, 0},
             {"2025.11.6", HWFIT_MEMORY_LOSS_FUSED_CHUNKED, INFINITY, 0},
             {"2026.6.9", HWFIT_MEMORY_LOSS_FUSED_CHUNKED, INFINITY, 0},
             {"2026.7.1", HWFIT_MEMORY_LOSS_FUSED_CHUNKED, 4294967296.0, 1},
             {NULL, HWFIT_MEMORY_LOSS_FUSED_CHUNKED, 4294967296.0, 1}};
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
        hwfit_memory_in in = chunked_in();
        in.loss = HWFIT_MEMORY_LOSS_FP32;
        uint64_t sets = 0;
        cr_assert_eq(hwfit_memory_profile_apply_release("unsloth", r[i].release, 1, &in, &sets),
                     HWFIT_OK, "%s", r[i].release ? r[i].release : "latest");
        cr_assert_eq(in.loss, r[i].loss, "%s", r[i].release ? r[i].release : "latest");
        cr_assert_eq(in.loss_target_bytes, r[i].target, "%s", r[i].release ? r[i].release : "");
        cr_assert_eq(in.loss_chunks_round_up, r[i].round_up, "%s",
                     r[i].release ? r[i].release : "");
        cr_assert(sets & HWFIT_PROFILE_LOSS);
    }
    /* The latest is hwfit_memory_profile_apply's. */
    hwfit_memory_in a = chunked_in(), b = chunked_in();
    cr_assert_eq(hwfit_memory_profile_apply("unsloth", 1, &a, NULL), HWFIT_OK);
    cr_assert_eq(hwfit_memory_profile_apply_release("unsloth", NULL, 1, &b, NULL), HWFIT_OK);
    cr_assert_eq(memcmp(&a, &b, sizeof a), 0);
    /* A profile without dated rows is the same for every release. */
    hwfit_memory_in t1 = chunked_in(), t2 = chunked_in();
    cr_assert_eq(hwfit_memory_profile_apply_release("torchtune", "2024.5", 1, &t1, NULL),
                 HWFIT_OK);
    cr_assert_eq(hwfit_memory_profile_apply("torchtune", 1, &t2, NULL), HWFIT_OK);
    cr_assert_eq(memcmp(&t1, &t2, sizeof t1), 0);
    /* hwfit_memory_profile_dated says which: of every profile unsloth, trl and axolotl
     * have dated rows (an alias of a dated profile would be dated too: none is). */
    size_t dated_n = 0;
    for (size_t i = 0; hwfit_memory_profile_name(i) != NULL; i++) {
        int dated = -1;
        cr_assert_eq(hwfit_memory_profile_dated(hwfit_memory_profile_name(i), &dated),
                     HWFIT_OK);
        cr_assert(dated == 0 || dated == 1);
        cr_assert_eq(dated, strcmp(hwfit_memory_profile_name(i), "unsloth") == 0 ||
                                strcmp(hwfit_memory_profile_name(i), "trl") == 0 ||
                                strcmp(hwfit_memory_profile_name(i), "axolotl") == 0,
                     "%s", hwfit_memory_profile_name(i));
        dated_n += (size_t)dated;
    }
    cr_assert_eq(dated_n, 3);
    /* axolotl from v0.3.0 (September 2023) casts the norms, embedding and head back to 16
     * bits after PEFT's k-bit preparation: no fp32 residual stream. */
    for (int k = 0; k < 2; k++) {
        hwfit_memory_in ax;
        hwfit_memory_init(&ax);
        ax.mode = HWFIT_MEMORY_QLORA;
        cr_assert_eq(hwfit_memory_profile_apply_release("axolotl", k ? "2023.9" : "2023.8", 1,
                                                        &ax, NULL),
                     HWFIT_OK);
        cr_assert_eq(ax.residual_fp32, k ? 0 : 1);
        cr_assert_eq(ax.unquantized.id, k ? HWFIT_DTYPE_BF16 : HWFIT_DTYPE_FP32);
    }
    int dated = 7;
    cr_assert_eq(hwfit_memory_profile_dated("nothing", &dated), HWFIT_ENOTFOUND);
    cr_assert_eq(dated, 7);
    cr_assert_eq(hwfit_memory_profile_dated(NULL, &dated), HWFIT_EINVAL);
    cr_assert_eq(hwfit_memory_profile_dated("unsloth", NULL), HWFIT_EINVAL);
    /* Malformed releases: refused, the inputs untouched. */
    static const char *const bad[] = {"",       "2025",     "2025.",   "2025.13", "2025.0",
                                      "25.11",  "2025.11.", "2025.11.6.1", "v2025.11",
                                      "2025.11.1000", "2025.11.6 ", "abc"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        hwfit_memory_in in = chunked_in(), before = chunked_in();
        cr_assert_eq(hwfit_memory_profile_apply_release("unsloth", bad[i], 1, &in, NULL),
                     HWFIT_EPARSE, "'%s'", bad[i]);
        cr_assert_eq(memcmp(&in, &before, sizeof in), 0, "'%s'", bad[i]);
    }
    hwfit_memory_in in = chunked_in();
    cr_assert_eq(hwfit_memory_profile_apply_release("nothing", "2025.1", 1, &in, NULL),
                 HWFIT_ENOTFOUND);
    cr_assert_eq(hwfit_memory_profile_apply_release(NULL, "2025.1", 1, &in, NULL),
                 HWFIT_EINVAL);
    cr_assert_eq(hwfit_memory_profile_apply_release("unsloth", "2025.1", 0, &in, NULL),
                 HWFIT_EDOM);
}

/* Unsloth's short micro-batches (loss_short_tokens): from 2024.12.5 to 2025.10.10 a
 * micro-batch of at most 1024 tokens skips the fused loss and keeps its whole logits
 * (CausalLM_fast_forward: `if bsz*q_len <= 1024: RETURN_LOGITS = True`). Unpacked runs meet
 * such a micro-batch; its forward's end competes with the forward phase. */
Test(memory, short_micro_batches_keep_whole_logits) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in = chunked_in();
    in.loss = HWFIT_MEMORY_LOSS_FUSED;
    in.activation_offload = 1; /* Unsloth's offloaded checkpoints: two layers' inputs stay */
    in.micro_batch = 2;        /* 4096 rows */
    hwfit_memory_out none = estimate_ok(&m, &in);
    in.loss_short_tokens = 1024;
    cr_assert_eq(in.loss_short, HWFIT_MEMORY_LOSS_INPLACE); /* the default */
    hwfit_memory_out sh = estimate_ok(&m, &in);
    /* 1024 rows of whole bf16 logits (256 MiB) are more than the fused loss's 8h at 4096. */
    cr_assert_gt(sh.forward_bytes, none.forward_bytes);
    /* A larger threshold meets a longer short micro-batch: 1024 more rows of logits. */
    in.loss_short_tokens = 2048;
    hwfit_memory_out sh2 = estimate_ok(&m, &in);
    cr_assert_gt(sh2.forward_bytes - sh.forward_bytes, 1024ull * 128256 * 2);
    in.loss_short_tokens = 1024;
    cr_assert_eq(sh.backward_bytes, none.backward_bytes); /* forward's end only */
    cr_assert_eq(sh.total_bytes, none.total_bytes);       /* the parts are the micro-batch's */
    /* The cast copy beside the logits: more. */
    in.loss_short = HWFIT_MEMORY_LOSS_INPLACE_CAST;
    hwfit_memory_out cast = estimate_ok(&m, &in);
    cr_assert_eq(cast.forward_bytes - sh.forward_bytes, 1024ull * 128256 * 2);
    /* Packed: every micro-batch has 4096 tokens, none takes the path. */
    in.packed = 1;
    cr_assert_eq(estimate_ok(&m, &in).forward_bytes, none.forward_bytes);
    /* Packed within the threshold: the micro-batch itself takes it. */
    in.micro_batch = 1;
    in.context = 512;
    in.loss_short = HWFIT_MEMORY_LOSS_INPLACE;
    hwfit_memory_out small = estimate_ok(&m, &in);
    in.loss_short_tokens = 0;
    hwfit_memory_out small_none = estimate_ok(&m, &in);
    cr_assert_gt(small.forward_bytes, small_none.forward_bytes);
    /* Only whole-logits losses. */
    in.loss_short_tokens = 1024;
    in.loss_short = HWFIT_MEMORY_LOSS_FUSED;
    hwfit_problem why;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EINVAL);
    cr_assert_str_eq(why.field, "loss_short");
}

Test(memory, unsloth_short_path_by_release) {
    static const struct {
        const char *release;
        uint32_t tokens;
        double target;
        double share;
    } r[] = {{"2024.12.4", 0, 4294967296.0, 0.5},     {"2024.12.5", 1024, 4294967296.0, 0.5},
             {"2025.4.7", 1024, 4294967296.0, 0.5},      {"2025.8.5", 1024, 1073741824.0, 1.0},
             {"2025.9.1", 1024, 1073741824.0, 1.0},      {"2025.9.2", 1024, INFINITY, 0.5},
             {"2025.10.10", 1024, INFINITY, 0.5},        {"2025.10.11", 0, INFINITY, 0.5},
             {NULL, 0, 4294967296.0, 0.5}};
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
        hwfit_memory_in in = chunked_in();
        cr_assert_eq(hwfit_memory_profile_apply_release("unsloth", r[i].release, 1, &in, NULL),
                     HWFIT_OK);
        const char *name = r[i].release ? r[i].release : "latest";
        cr_assert_eq(in.loss_short_tokens, r[i].tokens, "%s", name);
        cr_assert_eq(in.loss_target_bytes, r[i].target, "%s", name);
        cr_assert_eq(in.loss_free_share, r[i].share, "%s", name);
    }
}

/* record_lengths (unpacked micro-batches of varying length): the loss's logits-sized
 * segments of each earlier record stay reserved (records_bytes, in reserved and stranded,
 * never allocated); records replayed in the caching allocator's rules (best fit, split,
 * 2 MiB segments). Llama 3.1 8B LoRA, the Trainer's upcast-freed loss, 4,096 tokens. */
Test(memory, record_lengths_reserve_segments_not_allocations) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    for (unsigned k = 0; k < HWFIT_MEMORY_RECORDS; k++) cr_assert_eq(in.record_lengths[k], 0);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 4096;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    in.loss = HWFIT_MEMORY_LOSS_UPCAST_FREED;
    in.logits_freed = 1;
    hwfit_memory_out base = estimate_ok(&m, &in);
    cr_assert_eq(base.records_bytes, 0);
    in.record_lengths[0] = 1000;
    in.record_lengths[1] = 3000;
    hwfit_memory_out r = estimate_ok(&m, &in);
    check_phases(&r, &in);
    cr_assert_eq(r.allocated_bytes, base.allocated_bytes);
    cr_assert_eq(r.forward_bytes, base.forward_bytes);
    cr_assert_gt(r.records_bytes, 0);
    cr_assert_eq(r.reserved_bytes, base.reserved_bytes + r.records_bytes);
    cr_assert_eq(r.stranded_bytes, base.stranded_bytes + r.records_bytes);
    cr_assert_eq(r.peak_bytes, base.peak_bytes + r.records_bytes);
    /* The 3,000-token record alone: its upcast-freed steps take segments of 2, 4 and 4 bytes
     * a logit (128,256 logits a token) that the 4,096-token step cannot reuse for its own
     * fp32 requests; at most the whole of that step's blocks, at least its largest. */
    hwfit_memory_in one = in;
    one.record_lengths[0] = 3000;
    one.record_lengths[1] = 0;
    hwfit_memory_out o = estimate_ok(&m, &one);
    const uint64_t logits = 3000ull * 128256;
    cr_assert_geq(o.records_bytes, 4 * logits);
    cr_assert_leq(o.records_bytes, 14 * logits + 8 * 2097152ull);
    /* More records never reserve less. */
    cr_assert_geq(r.records_bytes, o.records_bytes);
    /* A card caps the reading: the records' cached segments go first. */
    hwfit_memory_in capped = in;
    capped.card_bytes = (double)(base.peak_bytes + r.records_bytes / 2);
    hwfit_memory_out c = estimate_ok(&m, &capped);
    cr_assert_eq(c.peak_bytes, base.peak_bytes + r.records_bytes / 2);
    cr_assert_eq(c.records_bytes, r.records_bytes - (r.records_bytes - r.records_bytes / 2));
    /* Expandable segments grow in place: nothing kept. So for a loss the replay does not
     * know (fused), and in inference. */
    hwfit_memory_in ex = in;
    ex.expandable_segments = 1;
    cr_assert_eq(estimate_ok(&m, &ex).records_bytes, 0);
    ex = in;
    ex.loss = HWFIT_MEMORY_LOSS_FUSED;
    cr_assert_eq(estimate_ok(&m, &ex).records_bytes, 0);
    /* fp32 logits grow with the length as well: records count in any format. */
    ex = in;
    ex.activations = dt("fp32");
    cr_assert_gt(estimate_ok(&m, &ex).records_bytes, r.records_bytes);
    /* The upcast loss holds its logits to the end (DeepSpeed's engine): its records keep
     * at least the fp32 blocks upcast-freed's keep. */
    ex = in;
    ex.loss = HWFIT_MEMORY_LOSS_UPCAST;
    hwfit_memory_out up = estimate_ok(&m, &ex);
    check_phases(&up, &ex);
    cr_assert_geq(up.records_bytes, 4 * logits);
    ex = in;
    ex.mode = HWFIT_MEMORY_INFERENCE;
    cr_assert_eq(estimate_ok(&m, &ex).records_bytes, 0);
    /* A record at or above the context is none (a search over contexts); order is checked. */
    ex = in;
    ex.context = 2048;
    hwfit_memory_in ex1 = ex;
    ex1.record_lengths[1] = 0;
    cr_assert_eq(estimate_ok(&m, &ex).records_bytes, estimate_ok(&m, &ex1).records_bytes);
    hwfit_problem why;
    ex = in;
    ex.record_lengths[1] = 900;
    cr_assert_eq(hwfit_memory_validate(&m, &ex, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "record_lengths");
    ex = in;
    ex.record_lengths[0] = 0;
    cr_assert_eq(hwfit_memory_validate(&m, &ex, &why), HWFIT_EDOM);
    /* The parser. */
    uint32_t l[HWFIT_MEMORY_RECORDS];
    memset(l, 0xab, sizeof l);
    cr_assert_eq(hwfit_memory_record_lengths_parse("700,1500,3100", l), HWFIT_OK);
    cr_assert(l[0] == 700 && l[1] == 1500 && l[2] == 3100 && l[3] == 0 && l[7] == 0);
    cr_assert_eq(hwfit_memory_record_lengths_parse("1,2,3,4,5,6,7,8,9", l), HWFIT_EDOM);
    cr_assert_eq(l[0], 700); /* untouched on failure */
    cr_assert_eq(hwfit_memory_record_lengths_parse("0", l), HWFIT_EDOM);
    cr_assert_eq(hwfit_memory_record_lengths_parse("4294967296", l), HWFIT_EDOM);
    cr_assert_eq(hwfit_memory_record_lengths_parse("99999999999999999999999", l), HWFIT_EDOM);
    cr_assert_eq(hwfit_memory_record_lengths_parse("", l), HWFIT_EPARSE);
    cr_assert_eq(hwfit_memory_record_lengths_parse("1,,2", l), HWFIT_EPARSE);
    cr_assert_eq(hwfit_memory_record_lengths_parse("1,2,", l), HWFIT_EPARSE);
    cr_assert_eq(hwfit_memory_record_lengths_parse("-1", l), HWFIT_EPARSE);
    cr_assert_eq(hwfit_memory_record_lengths_parse("1.5", l), HWFIT_EPARSE);
}

/* hwfit_memory_records_typical: records at the length distribution's quantiles 1 - e^-k
 * (Renyi: -ln(1 - G) of successive records is a unit-rate Poisson process). Lognormal
 * lengths of mean 103 and sd 23 tokens, 8,000 single-sample micro-batches cut at 192: the
 * quantiles 0.632 ... 0.9997 of that lognormal, below the bound. */
Test(memory, records_typical_are_the_record_quantiles) {
    uint32_t l[HWFIT_MEMORY_RECORDS];
    cr_assert_eq(hwfit_memory_records_typical(103, 23, 192, 8000, 1, l), HWFIT_OK);
    const uint32_t want[] = {108, 128, 145, 159, 173, 187, 0, 0};
    for (unsigned k = 0; k < HWFIT_MEMORY_RECORDS; k++)
        cr_assert_eq(l[k], want[k], "record %u: %u", k, l[k]);
    /* Each is the lognormal's quantile 1 - e^-k: check the first by its cumulative. */
    double s2 = log1p((23.0 / 103) * (23.0 / 103)), mu = log(103.0) - s2 / 2;
    double p1 = 0.5 * erfc(-((log(108.0) - mu) / sqrt(s2)) / sqrt(2.0));
    cr_assert(fabs(p1 - (1 - exp(-1.0))) < 0.01, "%g", p1);
    /* The records estimate what a run's allocator keeps: the estimate's input takes them. */
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 192;
    in.loss = HWFIT_MEMORY_LOSS_UPCAST_FREED;
    memcpy(in.record_lengths, l, sizeof l);
    cr_assert_gt(estimate_ok(&m, &in).records_bytes, 0);
    /* Micro-batches of 8 pad to the longest of 8: the records move up. */
    uint32_t l8[HWFIT_MEMORY_RECORDS];
    cr_assert_eq(hwfit_memory_records_typical(103, 23, 192, 8000, 8, l8), HWFIT_OK);
    cr_assert_gt(l8[0], l[0]);
    /* Many records: the longest eight kept, growing. */
    cr_assert_eq(hwfit_memory_records_typical(500, 400, 100000, 100000000, 1, l), HWFIT_OK);
    for (unsigned k = 1; k < HWFIT_MEMORY_RECORDS; k++) cr_assert_gt(l[k], l[k - 1]);
    /* One length, or a bound the lengths never reach below: no record. */
    cr_assert_eq(hwfit_memory_records_typical(100, 0, 192, 1000, 1, l), HWFIT_OK);
    cr_assert_eq(l[0], 0);
    cr_assert_eq(hwfit_memory_records_typical(5000, 100, 192, 1000, 1, l), HWFIT_OK);
    cr_assert_eq(l[0], 0);
    /* A single micro-batch has no earlier record. */
    cr_assert_eq(hwfit_memory_records_typical(103, 23, 192, 1, 1, l), HWFIT_OK);
    cr_assert_eq(l[0], 0);
    /* Bad values. */
    l[0] = 7;
    cr_assert_eq(hwfit_memory_records_typical(0, 1, 192, 10, 1, l), HWFIT_EDOM);
    cr_assert_eq(hwfit_memory_records_typical(NAN, 1, 192, 10, 1, l), HWFIT_EDOM);
    cr_assert_eq(hwfit_memory_records_typical(INFINITY, 1, 192, 10, 1, l), HWFIT_EDOM);
    cr_assert_eq(hwfit_memory_records_typical(100, -1, 192, 10, 1, l), HWFIT_EDOM);
    cr_assert_eq(hwfit_memory_records_typical(100, 1, 0, 10, 1, l), HWFIT_EDOM);
    cr_assert_eq(hwfit_memory_records_typical(100, 1, 192, 0, 1, l), HWFIT_EDOM);
    cr_assert_eq(hwfit_memory_records_typical(100, 1, 192, 10, 0, l), HWFIT_EDOM);
    cr_assert_eq(l[0], 7);
    cr_assert_eq(hwfit_memory_records_typical(100, 1, 192, 10, 1, NULL), HWFIT_EINVAL);
}

/* head_cast_kept (autocast casts a frozen fp32 head per use, aten cached_cast caching only
 * leaves that require a gradient; the matmul saves the cast for the hidden states'
 * gradient): V h A more from the forward's end through the head's backward, nothing beside
 * the rebuilt layer or in the step. Llama 3.1 8B (untied head 128,256 x 4,096), QLoRA with
 * the tables kept in fp32 (PEFT's prepare_model_for_kbit_training), bf16 autocast. */
Test(memory, head_cast_kept_holds_the_fp32_heads_autocast_copy) {
    hwfit_model m;
    llama8b(&m);
    const uint64_t vh = 128256ull * 4096;
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    cr_assert_eq(in.head_cast_kept, 0);
    in.mode = HWFIT_MEMORY_QLORA;
    in.qlora_base = dt("nf4");
    in.unquantized = dt("fp32");
    in.context = 1024;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    in.loss = HWFIT_MEMORY_LOSS_UPCAST_FREED;
    in.logits_freed = 1;
    hwfit_memory_out plain = estimate_ok(&m, &in);
    cr_assert_eq(plain.head_cast_bytes, 0);
    in.head_cast_kept = 1;
    hwfit_memory_out o = estimate_ok(&m, &in);
    check_phases(&o, &in);
    cr_assert_eq(o.head_cast_bytes, vh * 2);
    cr_assert_eq(o.forward_bytes - plain.forward_bytes, vh * 2);
    /* Backward: the loss's side holds it, the rebuilt layer does not: at most the copy. */
    cr_assert_geq(o.backward_bytes, plain.backward_bytes);
    cr_assert_leq(o.backward_bytes - plain.backward_bytes, vh * 2);
    cr_assert_eq(o.step_bytes, plain.step_bytes);
    cr_assert_eq(o.total_bytes, plain.total_bytes);
    /* Without recomputation the backward's start is the loss's backward: the copy whole. */
    in.recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    in.head_cast_kept = 0;
    hwfit_memory_out n0 = estimate_ok(&m, &in);
    in.head_cast_kept = 1;
    hwfit_memory_out n1 = estimate_ok(&m, &in);
    cr_assert_eq(n1.backward_bytes - n0.backward_bytes, vh * 2);
    cr_assert_eq(n1.forward_bytes - n0.forward_bytes, vh * 2);
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    /* fp16 autocast: two bytes too; no autocast (fp32 activations): no cast. */
    in.activations = dt("fp16");
    cr_assert_eq(estimate_ok(&m, &in).head_cast_bytes, vh * 2);
    in.activations = dt("fp32");
    hwfit_memory_out f32 = estimate_ok(&m, &in);
    cr_assert_eq(f32.head_cast_bytes, 0);
    in.head_cast_kept = 0;
    cr_assert_eq(estimate_ok(&m, &in).forward_bytes, f32.forward_bytes);
    in.head_cast_kept = 1;
    in.activations = dt("bf16");
    /* A 16-bit head is used as stored: nothing. */
    in.unquantized = dt("bf16");
    cr_assert_eq(estimate_ok(&m, &in).head_cast_bytes, 0);
    in.unquantized = dt("fp32");
    /* A trained head (its copy trained in full, or mode full) is not this case. */
    in.full_modules = HWFIT_FULL_HEAD;
    cr_assert_eq(estimate_ok(&m, &in).head_cast_bytes, 0);
    in.full_modules = 0;
    /* Losses that never run the head as one matmul: nothing. */
    in.loss = HWFIT_MEMORY_LOSS_FUSED;
    cr_assert_eq(estimate_ok(&m, &in).head_cast_bytes, 0);
    in.loss = HWFIT_MEMORY_LOSS_UPCAST_FREED;
    /* LoRA over an fp32 model under bf16 autocast: the head is the weights' format. */
    in.mode = HWFIT_MEMORY_LORA;
    in.weights = dt("fp32");
    cr_assert_eq(estimate_ok(&m, &in).head_cast_bytes, vh * 2);
    in.mode = HWFIT_MEMORY_FULL;
    cr_assert_eq(estimate_ok(&m, &in).head_cast_bytes, 0);
    in.mode = HWFIT_MEMORY_LORA;
    in.weights = dt("bf16");
    cr_assert_eq(estimate_ok(&m, &in).head_cast_bytes, 0);
    /* Two ranks of tensor parallelism split the head: half each. */
    in.weights = dt("fp32");
    in.tensor_parallel = 2;
    cr_assert_eq(estimate_ok(&m, &in).head_cast_bytes, vh);
    in.tensor_parallel = 1;
    /* 0 or 1 only. */
    in.head_cast_kept = 2;
    hwfit_problem why;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "head_cast_kept");
    /* The Trainer-based profiles set it; torchtune and unsloth, whose loops are their own,
     * do not. */
    static const struct { const char *name; int on; } p[] = {
        {"hf-trainer", 1}, {"hf-trainer+peft", 1}, {"llama-factory", 1}, {"axolotl", 1},
        {"ms-swift", 1},   {"trl", 1},             {"torchtune", 0},     {"unsloth", 0}};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) {
        uint64_t sets = 0;
        hwfit_memory_init(&in);
        in.mode = HWFIT_MEMORY_QLORA;
        cr_assert_eq(hwfit_memory_profile_apply(p[i].name, 1, &in, &sets), HWFIT_OK);
        cr_assert_eq(in.head_cast_kept, p[i].on, "%s", p[i].name);
        cr_assert_eq((sets & HWFIT_PROFILE_HEAD_CAST) != 0, p[i].on, "%s", p[i].name);
    }
}

/* TRL's chunked_nll (HWFIT_MEMORY_LOSS_TRL_CHUNKED): per token as fused, and at the
 * forward's end one chunk's work and the head's copy its matmul keeps: for c rows
 * (min(loss_chunk_tokens, s b)) and A-byte autocast, an fp32 head keeps V h A beside
 * (A + 12) c V; a 16-bit head keeps V h A beside the larger of its fp32 copy with the
 * chunk's logits (4 V h + A c V) and the chunk's work; without autocast a 16-bit head
 * keeps its fp32 copy (4 V h) and an fp32 head nothing, the work (4 + 12) c V. */
Test(memory, loss_trl_chunked_keeps_one_chunk_and_the_heads_copy) {
    hwfit_model m;
    llama8b(&m);
    const uint64_t v = 128256, vh = v * 4096;
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_QLORA;
    in.qlora_base = dt("nf4");
    in.unquantized = dt("fp32");
    in.context = 1024;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    in.loss = HWFIT_MEMORY_LOSS_FUSED;
    hwfit_memory_out fused = estimate_ok(&m, &in);
    in.loss = HWFIT_MEMORY_LOSS_TRL_CHUNKED;
    in.loss_chunk_tokens = 256;
    hwfit_memory_out o = estimate_ok(&m, &in);
    check_phases(&o, &in);
    cr_assert_eq(o.loss_bytes, fused.loss_bytes);
    cr_assert_eq(o.head_cast_bytes, vh * 2);
    cr_assert_eq(o.forward_bytes - fused.forward_bytes, vh * 2 + 14 * 256 * v);
    /* Backward: the copy and the chunk in the loss's backward, before the last layer is
     * rebuilt: the start holds the larger of them and the rebuilt layer. */
    cr_assert_geq(o.backward_bytes, fused.backward_bytes);
    cr_assert_leq(o.backward_bytes - fused.backward_bytes, vh * 2 + 14 * 256 * v);
    cr_assert_leq(o.backward_bytes, o.forward_bytes);
    cr_assert_eq(o.step_bytes, fused.step_bytes);
    /* The loop dropping the logits (logits_freed) adds nothing here: a chunked or fused loss
     * never holds the whole logits' gradient, so with a frozen head the backward is at most
     * what it is with the logits kept (and for TRL's loss below the forward's end). */
    for (int fused_loss = 0; fused_loss < 2; fused_loss++) {
        in.loss = fused_loss ? HWFIT_MEMORY_LOSS_FUSED : HWFIT_MEMORY_LOSS_TRL_CHUNKED;
        in.logits_freed = 1;
        hwfit_memory_out lf = estimate_ok(&m, &in);
        in.logits_freed = 0;
        hwfit_memory_out kf = estimate_ok(&m, &in);
        cr_assert_leq(lf.backward_bytes, kf.backward_bytes, "fused %d", fused_loss);
        cr_assert_eq(lf.forward_bytes, kf.forward_bytes, "fused %d", fused_loss);
        if (!fused_loss) cr_assert_leq(lf.backward_bytes, lf.forward_bytes);
    }
    in.loss = HWFIT_MEMORY_LOSS_TRL_CHUNKED;
    /* head_cast_kept is the loss's own here: no second copy. */
    in.head_cast_kept = 1;
    cr_assert_eq(estimate_ok(&m, &in).forward_bytes, o.forward_bytes);
    in.head_cast_kept = 0;
    /* A chunk is at most the micro-batch's rows. */
    in.context = 100;
    in.loss = HWFIT_MEMORY_LOSS_FUSED;
    hwfit_memory_out f100 = estimate_ok(&m, &in);
    in.loss = HWFIT_MEMORY_LOSS_TRL_CHUNKED;
    cr_assert_eq(estimate_ok(&m, &in).forward_bytes - f100.forward_bytes,
                 vh * 2 + 14 * 100 * v);
    in.context = 1024;
    /* A 16-bit head under autocast: its fp32 copy with the chunk's logits is the larger. */
    in.unquantized = dt("bf16");
    in.loss = HWFIT_MEMORY_LOSS_FUSED;
    hwfit_memory_out f16 = estimate_ok(&m, &in);
    in.loss = HWFIT_MEMORY_LOSS_TRL_CHUNKED;
    hwfit_memory_out o16 = estimate_ok(&m, &in);
    cr_assert_eq(o16.head_cast_bytes, vh * 2);
    cr_assert_eq(o16.forward_bytes - f16.forward_bytes, vh * 2 + 4 * vh + 2 * 256 * v);
    /* Without autocast: a 16-bit head keeps its fp32 copy; an fp32 head nothing. */
    in.activations = dt("fp32");
    in.loss = HWFIT_MEMORY_LOSS_FUSED;
    hwfit_memory_out n16 = estimate_ok(&m, &in);
    in.loss = HWFIT_MEMORY_LOSS_TRL_CHUNKED;
    hwfit_memory_out t16 = estimate_ok(&m, &in);
    cr_assert_eq(t16.head_cast_bytes, vh * 4);
    cr_assert_eq(t16.forward_bytes - n16.forward_bytes, vh * 4 + 16 * 256 * v);
    in.unquantized = dt("fp32");
    in.loss = HWFIT_MEMORY_LOSS_FUSED;
    hwfit_memory_out n32 = estimate_ok(&m, &in);
    in.loss = HWFIT_MEMORY_LOSS_TRL_CHUNKED;
    hwfit_memory_out t32 = estimate_ok(&m, &in);
    cr_assert_eq(t32.head_cast_bytes, 0);
    cr_assert_eq(t32.forward_bytes - n32.forward_bytes, 16 * 256 * v);
    /* Inference: the loss is not run. */
    in.mode = HWFIT_MEMORY_INFERENCE;
    cr_assert_eq(estimate_ok(&m, &in).head_cast_bytes, 0);
}

/* The trl profile (TRL's SFTTrainer over hf-trainer+peft): chunked_nll with TRL's 256-row
 * chunk from 1.7.0, the Trainer's loss before; its releases are semantic versions. */
Test(memory, trl_profile_by_release) {
    hwfit_memory_in base, in;
    hwfit_memory_init(&base);
    base.mode = HWFIT_MEMORY_QLORA;
    uint64_t sets = 0;
    in = base;
    cr_assert_eq(hwfit_memory_profile_apply("trl", 1, &in, &sets), HWFIT_OK);
    cr_assert_eq(in.loss, HWFIT_MEMORY_LOSS_TRL_CHUNKED);
    cr_assert_eq(in.loss_chunk_tokens, 256);
    cr_assert(sets & HWFIT_PROFILE_LOSS_CHUNK);
    static const char *const since[] = {"1.7", "1.7.0", "1.9.2", "2.0"};
    for (size_t i = 0; i < sizeof since / sizeof since[0]; i++) {
        in = base;
        cr_assert_eq(hwfit_memory_profile_apply_release("trl", since[i], 1, &in, NULL), HWFIT_OK);
        cr_assert_eq(in.loss, HWFIT_MEMORY_LOSS_TRL_CHUNKED, "%s", since[i]);
    }
    /* Before 1.7.0: what hf-trainer+peft chooses (the model's own loss). */
    hwfit_memory_in peft = base;
    cr_assert_eq(hwfit_memory_profile_apply("hf-trainer+peft", 1, &peft, NULL), HWFIT_OK);
    static const char *const before[] = {"1.6.9", "1.4", "0.26.2", "0.0"};
    for (size_t i = 0; i < sizeof before / sizeof before[0]; i++) {
        in = base;
        cr_assert_eq(hwfit_memory_profile_apply_release("trl", before[i], 1, &in, &sets),
                     HWFIT_OK);
        cr_assert_eq(memcmp(&in, &peft, sizeof in), 0, "%s", before[i]);
        cr_assert(!(sets & HWFIT_PROFILE_LOSS_CHUNK), "%s", before[i]);
    }
    /* Calendar releases are Unsloth's, semantic ones TRL's: each refuses the other. */
    static const char *const bad[] = {"2025.11", "1000.1", "1.1000", "1.9.2.1", "1", "v1.9"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        in = base;
        cr_assert_eq(hwfit_memory_profile_apply_release("trl", bad[i], 1, &in, NULL),
                     HWFIT_EPARSE, "%s", bad[i]);
        cr_assert_eq(memcmp(&in, &base, sizeof in), 0, "%s", bad[i]);
    }
    in = base;
    cr_assert_eq(hwfit_memory_profile_apply_release("unsloth", "1.9.2", 1, &in, NULL),
                 HWFIT_EPARSE);
}

/* DoRA as PEFT runs it (DoraLinearLayer.forward): each adapted linear makes x_eye (I x I in
 * the input's format), lora_weight (O x I, A), the scaled copy (A) and the sum (the input's
 * format) for the weight norm: the largest one's temporaries join the dequantized-weight slot
 * (the larger of the two); F.linear(x, weight) saves the base weight, a copy when its format
 * is not the input's, with the layer's tensors. Llama 3.1 8B, all linears adapted. */
Test(memory, dora_weight_norm_temporaries_and_saved_weight_copies) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.lora_targets = HWFIT_LORA_ALL;
    in.context = 256;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    in.dequant_transient = 0;
    hwfit_memory_out plain = estimate_ok(&m, &in);
    cr_assert_eq(plain.dequant_bytes, 0);
    in.dora = 1;
    hwfit_memory_out o = estimate_ok(&m, &in);
    check_phases(&o, &in);
    /* down_proj (I 14,336, O 4,096), bf16 in and out: 14,336^2 x 2 + 14,336 x 4,096 x 6 */
    const uint64_t down = 14336ull * 14336 * 2 + 14336ull * 4096 * 6;
    cr_assert_eq(o.dequant_bytes, down);
    /* A QLoRA base with fp32 hidden states (PEFT's k-bit preparation): the input is fp32,
     * x_eye and the sum 4 bytes, and every adapted weight is saved dequantized in fp32. */
    in.mode = HWFIT_MEMORY_QLORA;
    in.qlora_base = dt("nf4");
    in.residual_fp32 = 1;
    hwfit_memory_out q = estimate_ok(&m, &in);
    cr_assert_eq(q.dequant_bytes, 14336ull * 14336 * 4 + 14336ull * 4096 * 8);
    /* The saved copies, per layer: the layer's linear elements (218,103,808) x 4 bytes. Every
     * layer keeps them without recomputation; compared with the same run whose base is
     * already in the input's format (fp32 weights, fp32 activations: no copy). */
    const uint64_t layer_copy = 218103808ull * 4;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.lora_targets = HWFIT_LORA_ALL;
    in.context = 256;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    in.dora = 1;
    in.activations = dt("fp32");
    in.weights = dt("bf16");
    hwfit_memory_out copied = estimate_ok(&m, &in);
    in.weights = dt("fp32");
    hwfit_memory_out same = estimate_ok(&m, &in);
    cr_assert_eq(copied.activation_bytes - same.activation_bytes, 32 * layer_copy);
    /* Full recomputation keeps one layer's copies, in the layer rebuilt. */
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    in.weights = dt("bf16");
    hwfit_memory_out c1 = estimate_ok(&m, &in);
    in.weights = dt("fp32");
    hwfit_memory_out s1 = estimate_ok(&m, &in);
    cr_assert_eq(c1.activation_bytes - s1.activation_bytes, layer_copy,
                 "%llu", (unsigned long long)(c1.activation_bytes - s1.activation_bytes));
    /* Without DoRA nothing of this. */
    in.dora = 0;
    cr_assert_eq(estimate_ok(&m, &in).dequant_bytes, 0);
}

/* Record lengths with fp32 logits (no autocast): `.float()` returns them and its backward
 * casts nothing, so a record's step takes the logits, the saved log-softmax and the two
 * fp32 gradients, each 4 x 1,000 x 128,256 bytes in a segment of its own rounded to 2 MiB
 * (245 x 2 MiB): three segments stay reserved when the loop drops the logits before
 * backward (nll_loss's gradient reuses the logits' block), four when it keeps them. */
Test(memory, record_lengths_with_fp32_logits_take_no_copy) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 4096;
    in.activations = dt("fp32");
    in.loss = HWFIT_MEMORY_LOSS_UPCAST_FREED;
    in.logits_freed = 1;
    in.record_lengths[0] = 1000;
    const uint64_t seg = 245ull * 2097152;
    cr_assert_eq(estimate_ok(&m, &in).records_bytes, 3 * seg);
    in.loss = HWFIT_MEMORY_LOSS_UPCAST;
    in.logits_freed = 0;
    cr_assert_eq(estimate_ok(&m, &in).records_bytes, 4 * seg);
}

/* HWFIT_ATTENTION_MATH (PyTorch SDPA's math backend, fp32 for half inputs): per score 4
 * kept (the fp32 probabilities) and 12 at their backward, against eager attention's own-dtype
 * A and 3A; per token and layer the fp32 scaled query, expanded keys and expanded values,
 * 4 x 32 x (128 + 128 + 128) = 49,152 bytes, in place of the A-byte q, k, v (2 x (32 + 8 +
 * 8) x 128 = 12,288). Llama 3.1 8B LoRA, 1,024 tokens, no dropout: per layer
 * 2 x 1,024^2 x 32 + 36,864 x 1,024 = 104,857,600 bytes more stored, and the backward's
 * score gradients 4 bytes a score more (8 against 4), 134,217,728 once. */
Test(memory, attention_math_keeps_fp32_scores_and_inputs) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 1024;
    in.dropout = 0;
    const uint64_t layer = 104857600ull, grads = 134217728ull;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    in.flash_attention = HWFIT_ATTENTION_EAGER;
    hwfit_memory_out e = estimate_ok(&m, &in);
    in.flash_attention = HWFIT_ATTENTION_MATH;
    hwfit_memory_out o = estimate_ok(&m, &in);
    check_phases(&o, &in);
    cr_assert_eq(o.activation_bytes - e.activation_bytes, layer + grads);
    cr_assert_eq(hwfit_memory_attention_flash(&m, &in), 0);
    in.recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    in.flash_attention = HWFIT_ATTENTION_EAGER;
    e = estimate_ok(&m, &in);
    in.flash_attention = HWFIT_ATTENTION_MATH;
    o = estimate_ok(&m, &in);
    cr_assert_eq(o.activation_bytes - e.activation_bytes, 32 * layer + grads);
    /* Beyond the math backend: refused. */
    in.flash_attention = HWFIT_ATTENTION_MATH + 1;
    hwfit_problem why;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EINVAL);
    cr_assert_str_eq(why.field, "flash_attention");
}

/* SDPA on a card without a flash kernel (card_no_flash): transformers passes enable_gqa when
 * there is no mask, so a GQA model with micro-batches of one unpacked row runs SDPA's math
 * backend; padded or packed micro-batches (a mask), MHA models, sinks (eager), other
 * choices and inference are unchanged. The estimate follows the resolution. */
Test(memory, sdpa_resolves_to_math_on_a_card_without_flash) {
    hwfit_model m;
    llama8b(&m); /* GQA: 32 query, 8 key/value heads */
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    cr_assert_eq(in.card_no_flash, 0);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 1024;
    in.micro_batch = 1;
    in.flash_attention = HWFIT_ATTENTION_SDPA;
    cr_assert_eq(hwfit_memory_attention(&m, &in), HWFIT_ATTENTION_FLASH);
    in.card_no_flash = 1;
    cr_assert_eq(hwfit_memory_attention(&m, &in), HWFIT_ATTENTION_MATH);
    cr_assert_eq(hwfit_memory_attention_flash(&m, &in), 0);
    hwfit_memory_out sdpa = estimate_ok(&m, &in);
    in.flash_attention = HWFIT_ATTENTION_MATH;
    hwfit_memory_out math = estimate_ok(&m, &in);
    cr_assert_eq(sdpa.activation_bytes, math.activation_bytes);
    cr_assert_eq(sdpa.peak_bytes, math.peak_bytes);
    in.flash_attention = HWFIT_ATTENTION_SDPA;
    in.micro_batch = 2;
    cr_assert_eq(hwfit_memory_attention(&m, &in), HWFIT_ATTENTION_FLASH);
    in.micro_batch = 1;
    in.packed = 1;
    cr_assert_eq(hwfit_memory_attention(&m, &in), HWFIT_ATTENTION_FLASH);
    in.packed = 0;
    in.mode = HWFIT_MEMORY_INFERENCE;
    cr_assert_eq(hwfit_memory_attention(&m, &in), HWFIT_ATTENTION_FLASH);
    in.mode = HWFIT_MEMORY_LORA;
    hwfit_model mha = m;
    mha.kv_heads = mha.heads;
    cr_assert_eq(hwfit_memory_attention(&mha, &in), HWFIT_ATTENTION_FLASH);
    hwfit_model sinks = m;
    sinks.attention_sinks = 1;
    cr_assert_eq(hwfit_memory_attention(&sinks, &in), HWFIT_ATTENTION_EAGER);
    in.flash_attention = HWFIT_ATTENTION_FLASH;
    cr_assert_eq(hwfit_memory_attention(&m, &in), HWFIT_ATTENTION_FLASH);
    in.flash_attention = HWFIT_ATTENTION_EAGER;
    cr_assert_eq(hwfit_memory_attention(&m, &in), HWFIT_ATTENTION_EAGER);
    cr_assert_eq(hwfit_memory_attention(&m, NULL), HWFIT_ATTENTION_EAGER);
    in.flash_attention = HWFIT_ATTENTION_SDPA;
    in.card_no_flash = 2;
    hwfit_problem why;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "card_no_flash");
}

/* sdpa_gqa_math 0 (the unsloth profile: its own xFormers kernels serve a card without flash):
 * SDPA stays fused there; the Trainer-based profiles keep transformers' call (1). */
Test(memory, sdpa_math_fallback_is_transformers_call) {
    hwfit_model m;
    llama8b(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    cr_assert_eq(in.sdpa_gqa_math, 1);
    in.mode = HWFIT_MEMORY_QLORA;
    in.micro_batch = 1;
    in.flash_attention = HWFIT_ATTENTION_SDPA;
    in.card_no_flash = 1;
    cr_assert_eq(hwfit_memory_attention(&m, &in), HWFIT_ATTENTION_MATH);
    in.sdpa_gqa_math = 0;
    cr_assert_eq(hwfit_memory_attention(&m, &in), HWFIT_ATTENTION_FLASH);
    in.flash_attention = HWFIT_ATTENTION_MATH; /* given: the math backend still */
    cr_assert_eq(hwfit_memory_attention(&m, &in), HWFIT_ATTENTION_MATH);
    static const struct { const char *name, *release; int math; } p[] = {
        {"hf-trainer+peft", NULL, 1}, {"trl", NULL, 1}, {"unsloth", "2025.3", 0},
        {"unsloth", NULL, 0}};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) {
        uint64_t sets = 0;
        hwfit_memory_init(&in);
        in.mode = HWFIT_MEMORY_QLORA;
        in.micro_batch = 1;
        in.card_no_flash = 1;
        cr_assert_eq(hwfit_memory_profile_apply_release(p[i].name, p[i].release, 1, &in, &sets),
                     HWFIT_OK);
        cr_assert_eq(in.sdpa_gqa_math, p[i].math, "%s", p[i].name);
        in.flash_attention = HWFIT_ATTENTION_SDPA;
        cr_assert_eq(hwfit_memory_attention(&m, &in) == HWFIT_ATTENTION_MATH, p[i].math, "%s",
                     p[i].name);
    }
    in.sdpa_gqa_math = 2;
    hwfit_problem why;
    cr_assert_eq(hwfit_memory_validate(&m, &in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "sdpa_gqa_math");
}

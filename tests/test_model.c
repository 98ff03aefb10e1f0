/* model: exact parameter counts and KV bytes of hand-described models against published
 * totals and hand derivations, consistency between the decompositions, and error paths.
 * (The same models loaded from their config.json files are tested in test_hf_config.c.) */
#include <criterion/criterion.h>
#include <string.h>

#include "hwfit.h"
#include "fixtures.h"

/* Llama-3.1 (meta-llama/Llama-3.1-{8B,70B,405B} config.json): GQA, gated MLP, untied, RMSNorm. */
static void llama(hwfit_model *m, uint32_t layers, uint64_t hidden, uint64_t inter, uint32_t heads,
                  uint32_t kv_heads) {
    hwfit_model_init(m);
    m->layers = layers;
    m->hidden = hidden;
    m->intermediate = inter;
    m->heads = heads;
    m->kv_heads = kv_heads;
    m->vocab = 128256;
}

/* DeepSeek-V3 (deepseek-ai/DeepSeek-V3 config.json): MLA, 3 dense + 58 MoE layers, MTP 1. */
static void deepseek_v3(hwfit_model *m) { cr_assert_eq(fixture_deepseek_v3(m), HWFIT_OK); }

static hwfit_model_param_counts params_ok(const hwfit_model *m) {
    hwfit_model_param_counts p;
    hwfit_status st = hwfit_model_params(m, &p);
    cr_assert_eq(st, HWFIT_OK, "%s", hwfit_status_name(st));
    return p;
}

static hwfit_model_kv_out kv_ok(const hwfit_model *m, const char *dtype, uint64_t batch,
                                uint64_t context) {
    hwfit_model_kv_in in;
    hwfit_model_kv_init(&in);
    cr_assert_eq(hwfit_dtype_parse(dtype, &in.dtype), HWFIT_OK);
    in.batch = batch;
    in.context = context;
    hwfit_model_kv_out out;
    cr_assert_eq(hwfit_model_kv(m, &in, &out), HWFIT_OK);
    return out;
}

/* Every model here: the parts add up to the total, the layer kinds to the parts. */
static void assert_decomposes(const hwfit_model *m) {
    hwfit_model_param_counts p = params_ok(m);
    cr_assert_eq(p.total, p.embedding + p.head + p.attention + p.mlp + p.experts +
                              p.shared_experts + p.router + p.norms);
    const hwfit_model_layer_params *k[2] = {&p.dense, &p.moe};
    uint64_t n[2] = {p.dense_layers, p.moe_layers}, layers = 0;
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(k[i]->total, k[i]->attention + k[i]->mlp + k[i]->experts +
                                      k[i]->shared_experts + k[i]->router + k[i]->norms);
        layers += n[i] * k[i]->total;
    }
    cr_assert_eq(p.total, p.embedding + p.head + p.final_norm + layers);
    cr_assert_eq(p.attention, n[0] * p.dense.attention + n[1] * p.moe.attention);
    cr_assert_eq(p.dense_layers + p.moe_layers, m->layers);
    /* A range over all layers, and over two halves, gives the same sums. */
    hwfit_model_range all, a, b;
    cr_assert_eq(hwfit_model_layer_range(m, 0, m->layers, &all), HWFIT_OK);
    cr_assert_eq(all.params, layers);
    cr_assert_eq(all.active, p.active - p.embedding - p.head - p.final_norm);
    uint32_t half = m->layers / 2;
    if (half > 0) {
        cr_assert_eq(hwfit_model_layer_range(m, 0, half, &a), HWFIT_OK);
        cr_assert_eq(hwfit_model_layer_range(m, half, m->layers - half, &b), HWFIT_OK);
        cr_assert_eq(a.params + b.params, all.params);
        cr_assert_eq(a.moe_layers + b.moe_layers, p.moe_layers);
        cr_assert_eq(a.sliding_layers + b.sliding_layers, all.sliding_layers);
    }
    cr_assert_leq(p.active, p.total);
}

/* Exact counts of the checkpoints' safetensors metadata (reference/memory.md, c.2; HF API
 * ?expand=safetensors for 70B: {BF16: 70,553,706,496}). */
Test(model, llama_3_1_counts_are_the_checkpoint_counts) {
    hwfit_model m;
    llama(&m, 32, 4096, 14336, 32, 8);
    hwfit_model_param_counts p = params_ok(&m);
    cr_assert_eq(p.total, 8030261248ull);
    cr_assert_eq(p.active, p.total);
    /* Per-layer pieces (memory.md c.2): attention 4096*(4096+1024+1024) + 4096*4096. */
    cr_assert_eq(p.dense.attention, 41943040ull);
    cr_assert_eq(p.dense.mlp, 176160768ull);
    cr_assert_eq(p.dense.total, 218112000ull);
    cr_assert_eq(p.embedding, 525336576ull);
    cr_assert_eq(p.head, 525336576ull); /* untied: llm-analysis drops this (7.50B) */
    cr_assert_eq(p.final_norm, 4096);
    cr_assert_eq(p.norms, 32 * 2 * 4096 + 4096);
    assert_decomposes(&m);

    llama(&m, 80, 8192, 28672, 64, 8);
    cr_assert_eq(params_ok(&m).total, 70553706496ull);
    llama(&m, 126, 16384, 53248, 128, 8);
    cr_assert_eq(params_ok(&m).total, 405853388800ull);
    m.kv_heads = 16; /* the 405B config variant with 16 KV heads (memory.md c.1) */
    cr_assert_eq(params_ok(&m).total, 410081247232ull);
}

/* KV per token, bf16 (memory.md c.3): 2 * L * k * d * 2 bytes. gpu_poor's 8x overstatement
 * (1,048,576 B for the 8B) is what GQA-unaware tools print. */
Test(model, llama_3_1_kv_cache_per_token) {
    hwfit_model m;
    llama(&m, 32, 4096, 14336, 32, 8);
    hwfit_model_kv_out kv = kv_ok(&m, "bf16", 1, 8192);
    cr_assert_eq(kv.bytes_per_token, 131072);
    cr_assert_eq(kv.layer_bytes_per_token, 4096);
    cr_assert_eq(kv.bytes, 131072ull * 8192); /* 1 GiB at 8K */
    cr_assert_eq(kv_ok(&m, "bf16", 1, 131072).bytes, 16ull << 30);
    cr_assert_eq(kv_ok(&m, "fp8", 1, 1).bytes_per_token, 65536);
    /* q8_0 KV (llama.cpp): rows of 1024 values = 32 blocks of 34 B, K and V per layer. */
    cr_assert_eq(kv_ok(&m, "q8_0", 1, 1).bytes_per_token, 32ull * 2 * 32 * 34);
    llama(&m, 80, 8192, 28672, 64, 8);
    cr_assert_eq(kv_ok(&m, "bf16", 1, 1).bytes_per_token, 327680);
    llama(&m, 126, 16384, 53248, 128, 8);
    cr_assert_eq(kv_ok(&m, "bf16", 1, 1).bytes_per_token, 516096);
}

/* Mixtral-8x7B: 46,702,792,704 parameters (mistralai/Mixtral-8x7B-v0.1 safetensors; the
 * model card's "46.7B total, 12.9B active"). Derived by hand from modeling_mixtral.py:
 * layer = attention 41,943,040 + 8 experts x 176,160,768 + router 32,768 + norms 8,192. */
Test(model, mixtral_total_and_active) {
    hwfit_model m;
    hwfit_model_init(&m);
    m.layers = 32;
    m.hidden = 4096;
    m.vocab = 32000;
    m.heads = 32;
    m.kv_heads = 8;
    m.experts = 8;
    m.experts_per_token = 2;
    m.expert_intermediate = 14336;
    cr_assert_eq(hwfit_model_set_moe_layers(&m, 0, 1, 0), HWFIT_OK);
    hwfit_model_param_counts p = params_ok(&m);
    cr_assert_eq(p.total, 46702792704ull);
    cr_assert_eq(p.active, 12879925248ull);
    cr_assert_eq(p.moe_layers, 32);
    cr_assert_eq(p.dense_layers, 0);
    cr_assert_eq(p.moe.expert, 176160768ull);
    cr_assert_eq(p.moe.router, 32768);
    cr_assert_eq(p.moe.experts, 8 * 176160768ull);
    cr_assert_eq(p.mlp, 0);
    assert_decomposes(&m);
}

/* DeepSeek-V3: 671,026,419,200 main-model parameters (the model card's "671B of the Main
 * Model weights"), derived by hand from modeling_deepseek.py: MLA attention 187,107,328
 * per layer; dense layer 583,483,392; MoE layer 11,507,286,272 (256 experts x 44,040,192 +
 * shared 44,040,192 + router 1,835,008 + bias 256). Active per token 37,552,297,472
 * ("37B activated"). The MTP layer adds 11,610,068,224 (its MoE block, eh_proj 2h x h and
 * three norms); the checkpoint's "14B" also stores copies of the embedding and head. */
Test(model, deepseek_v3_mla_moe_counts) {
    hwfit_model m;
    deepseek_v3(&m);
    hwfit_model_param_counts p = params_ok(&m);
    cr_assert_eq(p.total, 671026419200ull);
    cr_assert_eq(p.active, 37552297472ull);
    cr_assert_eq(p.dense_layers, 3);
    cr_assert_eq(p.moe_layers, 58);
    cr_assert_eq(p.dense.attention, 187107328ull);
    cr_assert_eq(p.moe.attention, 187107328ull);
    cr_assert_eq(p.dense.total, 583483392ull);
    cr_assert_eq(p.moe.total, 11507286272ull);
    cr_assert_eq(p.moe.expert, 3ull * 7168 * 2048);
    cr_assert_eq(p.moe.shared_experts, 3ull * 7168 * 2048);
    cr_assert_eq(p.moe.router, 256ull * 7168 + 256);
    cr_assert_eq(p.mtp_layers, 1);
    cr_assert_eq(p.mtp_layer, 11610068224ull);
    cr_assert_eq(p.mtp, p.mtp_layer);
    assert_decomposes(&m);
    /* KV: the 576-value latent per layer, 61 layers, bf16: 70,272 B per token (vLLM
     * MLAAttentionSpec head_size 576; hf-mem's MHA guess is 1,748,992 B). */
    hwfit_model_kv_out kv = kv_ok(&m, "bf16", 1, 1);
    cr_assert_eq(kv.layer_bytes_per_token, 1152);
    cr_assert_eq(kv.bytes_per_token, 70272);
    /* gguf-parser-go issue #8: at 64K the latent cache is 64Ki * 70,272 B = 4.39 GiB. */
    cr_assert_eq(kv_ok(&m, "bf16", 1, 65536).bytes, 65536ull * 70272);
    /* MTP layers' cache only on request. */
    hwfit_model_kv_in in;
    hwfit_model_kv_init(&in);
    in.context = 1;
    in.include_mtp = 1;
    cr_assert_eq(hwfit_model_kv(&m, &in, &kv), HWFIT_OK);
    cr_assert_eq(kv.bytes_per_token, 62 * 1152);
}

/* Gemma-2-9B-shaped: head_dim 256 != 3584/16 = 224, 4 norms per layer, tied, sliding window
 * 4096 on even layers (modeling_gemma2.py is_sliding = not layer_idx % 2). 9,241,705,984
 * parameters (google/gemma-2-9b safetensors total; hand-derived: layer 198,195,200). */
Test(model, explicit_head_dim_tied_and_alternating_windows) {
    hwfit_model m;
    hwfit_model_init(&m);
    m.layers = 42;
    m.hidden = 3584;
    m.vocab = 256000;
    m.heads = 16;
    m.kv_heads = 8;
    m.head_dim = 256;
    m.intermediate = 14336;
    m.norms_per_layer = 4;
    m.tie_embeddings = 1;
    m.sliding_window = 4096;
    cr_assert_eq(hwfit_model_set_sliding_layers(&m, HWFIT_MODEL_SLIDING_PERIOD, 2), HWFIT_OK);
    cr_assert_eq(m.layer_flags[0], HWFIT_MODEL_LAYER_SLIDING);
    cr_assert_eq(m.layer_flags[1], 0);
    hwfit_model_param_counts p = params_ok(&m);
    cr_assert_eq(p.total, 9241705984ull);
    cr_assert_eq(p.head, 0);
    cr_assert_eq(p.dense.total, 198195200ull);
    assert_decomposes(&m);
    /* KV: 2 * 8 * 256 * 2 B = 8192 B per layer; 21 full + 21 capped at 4096 tokens. */
    hwfit_model_kv_out kv = kv_ok(&m, "bf16", 2, 8192);
    cr_assert_eq(kv.layer_bytes_per_token, 8192);
    cr_assert_eq(kv.full_layers, 21);
    cr_assert_eq(kv.sliding_layers, 21);
    cr_assert_eq(kv.sliding_tokens, 4096);
    cr_assert_eq(kv.bytes, 2ull * (21 * 8192 + 21 * 4096) * 8192);
    /* Below the window every layer holds the whole context. */
    kv = kv_ok(&m, "bf16", 1, 1000);
    cr_assert_eq(kv.bytes, 1000ull * kv.bytes_per_token);
    /* Untying adds V x h. */
    uint64_t tied = p.total;
    m.tie_embeddings = 0;
    cr_assert_eq(params_ok(&m).total, tied + 256000ull * 3584);
}

Test(model, sliding_rules_mark_the_documented_layers) {
    hwfit_model m;
    hwfit_model_init(&m);
    m.layers = 34;
    cr_assert_eq(hwfit_model_set_sliding_layers(&m, HWFIT_MODEL_SLIDING_PERIOD, 6), HWFIT_OK);
    int full = 0;
    for (int i = 0; i < 34; i++)
        if (!(m.layer_flags[i] & HWFIT_MODEL_LAYER_SLIDING)) full++;
    cr_assert_eq(full, 5); /* layers 5, 11, 17, 23, 29 (Gemma-3: 5 local per global) */
    cr_assert_eq(m.layer_flags[5], 0);
    cr_assert_eq(hwfit_model_set_sliding_layers(&m, HWFIT_MODEL_SLIDING_FROM, 30), HWFIT_OK);
    cr_assert_eq(m.layer_flags[29], 0);
    cr_assert_eq(m.layer_flags[30], HWFIT_MODEL_LAYER_SLIDING);
    cr_assert_eq(hwfit_model_set_sliding_layers(&m, HWFIT_MODEL_SLIDING_ALL, 0), HWFIT_OK);
    cr_assert_eq(m.layer_flags[0], HWFIT_MODEL_LAYER_SLIDING);
    cr_assert_eq(hwfit_model_set_sliding_layers(&m, HWFIT_MODEL_SLIDING_NONE, 0), HWFIT_OK);
    cr_assert_eq(m.layer_flags[33], 0);
    /* MoE marking keeps sliding flags and vice versa. */
    cr_assert_eq(hwfit_model_set_sliding_layers(&m, HWFIT_MODEL_SLIDING_ALL, 0), HWFIT_OK);
    cr_assert_eq(hwfit_model_set_moe_layers(&m, 0, 2, 1), HWFIT_OK); /* Qwen step 2 */
    cr_assert_eq(m.layer_flags[0], HWFIT_MODEL_LAYER_SLIDING);
    cr_assert_eq(m.layer_flags[1], HWFIT_MODEL_LAYER_SLIDING | HWFIT_MODEL_LAYER_MOE);
}

/* Biases and q/k norms: Qwen2.5-7B (q, k, v biases; 7,615,616,512 = HF "7.62B" total) and a
 * Qwen3-8B shape (q/k RMSNorm of head_dim; 8,190,735,360 = HF "8.19B"). */
Test(model, biases_and_qk_norms_are_counted) {
    hwfit_model m;
    hwfit_model_init(&m);
    m.layers = 28;
    m.hidden = 3584;
    m.vocab = 152064;
    m.heads = 28;
    m.kv_heads = 4;
    m.intermediate = 18944;
    m.q_bias = m.k_bias = m.v_bias = 1;
    hwfit_model_param_counts p = params_ok(&m);
    cr_assert_eq(p.total, 7615616512ull);
    cr_assert_eq(p.dense.attention, 2ull * 3584 * 3584 + 2ull * 3584 * 512 + 3584 + 2 * 512);
    m.o_bias = 1;
    cr_assert_eq(params_ok(&m).total, 7615616512ull + 28 * 3584);
    m.o_bias = 0;
    m.mlp_bias = 1;
    cr_assert_eq(params_ok(&m).total, 7615616512ull + 28 * (2 * 18944 + 3584));

    hwfit_model_init(&m);
    m.layers = 36;
    m.hidden = 4096;
    m.vocab = 151936;
    m.heads = 32;
    m.kv_heads = 8;
    m.head_dim = 128;
    m.intermediate = 12288;
    m.qk_norm = 1;
    cr_assert_eq(params_ok(&m).total, 8190735360ull);
}

Test(model, plain_mlp_and_layernorm_counts) {
    /* GPT-2-small shape: 12 layers, h 768, MHA, 4h plain MLP with biases, LayerNorm, tied:
     * per layer 4h^2 + 4h (attention with biases) + 8h^2 + 5h (MLP) + 4h (two LayerNorms)
     * = 7,087,872; plus wte 50257 x 768 and ln_f 2h (no position embedding modelled). */
    hwfit_model m;
    hwfit_model_init(&m);
    m.layers = 12;
    m.hidden = 768;
    m.vocab = 50257;
    m.heads = 12;
    m.kv_heads = 12;
    m.intermediate = 3072;
    m.mlp = HWFIT_MODEL_MLP_PLAIN;
    m.norm = HWFIT_MODEL_NORM_LAYER;
    m.q_bias = m.k_bias = m.v_bias = m.o_bias = m.mlp_bias = 1;
    m.tie_embeddings = 1;
    hwfit_model_param_counts p = params_ok(&m);
    cr_assert_eq(p.dense.total, 7087872ull);
    cr_assert_eq(p.total, 12ull * 7087872 + 50257ull * 768 + 2 * 768);
    assert_decomposes(&m);
}

Test(model, flops_are_two_per_active_weight_plus_attention) {
    hwfit_model m;
    llama(&m, 32, 4096, 14336, 32, 8);
    hwfit_model_flops_out f;
    cr_assert_eq(hwfit_model_flops(&m, 1, &f), HWFIT_OK);
    /* 2 x (total - embedding): the head is a matmul, the embedding a lookup. */
    cr_assert_eq(f.matmul_flop, 2.0 * (8030261248.0 - 525336576.0));
    cr_assert_eq(f.attention_flop, 2.0 * 32 * 256 * 32); /* one attended token */
    cr_assert_eq(f.forward_flop, f.matmul_flop + f.attention_flop);
    cr_assert_eq(f.training_flop, 3.0 * f.forward_flop);
    hwfit_model_flops_out g;
    cr_assert_eq(hwfit_model_flops(&m, 8192, &g), HWFIT_OK);
    cr_assert_eq(g.attention_flop, 8192.0 * f.attention_flop);
    /* Tied: the head's matmul still counts. */
    m.tie_embeddings = 1;
    cr_assert_eq(hwfit_model_flops(&m, 1, &g), HWFIT_OK);
    cr_assert_eq(g.matmul_flop, f.matmul_flop);
    /* MoE: only active experts; sliding layers attend to their window. */
    deepseek_v3(&m);
    cr_assert_eq(hwfit_model_flops(&m, 1, &f), HWFIT_OK);
    cr_assert_eq(f.matmul_flop, 2.0 * (37552297472.0 - 926679040.0));
    hwfit_model_init(&m);
    m.layers = 2;
    m.hidden = 64;
    m.vocab = 10;
    m.heads = 4;
    m.kv_heads = 4;
    m.intermediate = 128;
    m.sliding_window = 100;
    m.layer_flags[0] = HWFIT_MODEL_LAYER_SLIDING;
    cr_assert_eq(hwfit_model_flops(&m, 1000, &f), HWFIT_OK);
    cr_assert_eq(f.attention_flop, 2.0 * 4 * 32 * (1000 + 100));
}

Test(model, kv_grows_with_context_and_batch_and_a_range_sums_to_the_whole) {
    hwfit_model m;
    deepseek_v3(&m);
    uint64_t prev = 0;
    for (uint64_t c = 1; c < 5000; c += 333) {
        uint64_t b = kv_ok(&m, "bf16", 3, c).bytes;
        cr_assert_gt(b, prev);
        prev = b;
    }
    cr_assert_eq(kv_ok(&m, "bf16", 4, 100).bytes, 4 * kv_ok(&m, "bf16", 1, 100).bytes);
    hwfit_model_kv_in in;
    hwfit_model_kv_init(&in);
    hwfit_model_kv_out a, b, all;
    cr_assert_eq(hwfit_model_kv(&m, &in, &all), HWFIT_OK);
    in.layer_count = 20;
    cr_assert_eq(hwfit_model_kv(&m, &in, &a), HWFIT_OK);
    in.first_layer = 20;
    in.layer_count = 0; /* to the end */
    cr_assert_eq(hwfit_model_kv(&m, &in, &b), HWFIT_OK);
    cr_assert_eq(a.bytes + b.bytes, all.bytes);
    cr_assert_eq(a.full_layers + b.full_layers, 61);
}

/* ---- errors ---------------------------------------------------------------------------------- */

typedef void (*mutate_fn)(hwfit_model *);
static void m_layers0(hwfit_model *m) { m->layers = 0; }
static void m_layers_big(hwfit_model *m) { m->layers = HWFIT_MODEL_MAX_LAYERS + 1; }
static void m_hidden0(hwfit_model *m) { m->hidden = 0; }
static void m_vocab0(hwfit_model *m) { m->vocab = 0; }
static void m_heads0(hwfit_model *m) { m->heads = 0; }
static void m_kv0(hwfit_model *m) { m->kv_heads = 0; }
static void m_kv_not_divisor(hwfit_model *m) { m->kv_heads = 5; }
static void m_kv_above(hwfit_model *m) { m->kv_heads = 64; }
static void m_hidden_not_multiple(hwfit_model *m) { m->hidden = 4097; }
static void m_inter0(hwfit_model *m) { m->intermediate = 0; }
static void m_moe_without_experts(hwfit_model *m) { m->layer_flags[3] = HWFIT_MODEL_LAYER_MOE; }
static void m_topk_above(hwfit_model *m) {
    m->experts = 4;
    m->experts_per_token = 5;
    m->expert_intermediate = 10;
}
static void m_expert_width0(hwfit_model *m) {
    m->experts = 4;
    m->experts_per_token = 2;
}
static void m_shared_width0(hwfit_model *m) {
    m->experts = 4;
    m->experts_per_token = 2;
    m->expert_intermediate = 10;
    m->shared_experts = 1;
}
static void m_sliding_without_window(hwfit_model *m) {
    m->layer_flags[0] = HWFIT_MODEL_LAYER_SLIDING;
}
static void m_huge_hidden(hwfit_model *m) { m->hidden = HWFIT_MODEL_MAX_SIZE + 1; }
static void m_huge_heads(hwfit_model *m) { m->heads = HWFIT_MODEL_MAX_DIM + 1; }
static void m_mla_no_rank(hwfit_model *m) {
    m->attention = HWFIT_MODEL_ATTENTION_MLA;
    m->v_head_dim = 128;
    m->qk_nope_head_dim = 128;
}
static void m_norms_many(hwfit_model *m) { m->norms_per_layer = 17; }
static void m_attention_enum(hwfit_model *m) { m->attention = (hwfit_model_attention)7; }
static void m_mlp_enum(hwfit_model *m) { m->mlp = (hwfit_model_mlp)7; }
static void m_norm_enum(hwfit_model *m) { m->norm = (hwfit_model_norm)7; }

Test(model, inconsistent_models_are_refused_without_touching_the_output) {
    static const struct {
        mutate_fn f;
        hwfit_status want;
    } cases[] = {
        {m_layers0, HWFIT_EDOM},           {m_layers_big, HWFIT_EDOM},
        {m_hidden0, HWFIT_EDOM},           {m_vocab0, HWFIT_EDOM},
        {m_heads0, HWFIT_EDOM},            {m_kv0, HWFIT_EDOM},
        {m_kv_not_divisor, HWFIT_EDOM},    {m_kv_above, HWFIT_EDOM},
        {m_hidden_not_multiple, HWFIT_EDOM}, {m_inter0, HWFIT_EDOM},
        {m_moe_without_experts, HWFIT_EDOM}, {m_topk_above, HWFIT_EDOM},
        {m_expert_width0, HWFIT_EDOM},     {m_shared_width0, HWFIT_EDOM},
        {m_sliding_without_window, HWFIT_EDOM}, {m_huge_hidden, HWFIT_EDOM},
        {m_huge_heads, HWFIT_EDOM},        {m_mla_no_rank, HWFIT_EDOM},
        {m_norms_many, HWFIT_EDOM},        {m_attention_enum, HWFIT_EINVAL},
        {m_mlp_enum, HWFIT_EINVAL},        {m_norm_enum, HWFIT_EINVAL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hwfit_model m;
        llama(&m, 32, 4096, 14336, 32, 8);
        cases[i].f(&m);
        hwfit_model_param_counts p, poison_p;
        memset(&p, 0x5a, sizeof p);
        memset(&poison_p, 0x5a, sizeof poison_p);
        cr_assert_eq(hwfit_model_params(&m, &p), cases[i].want, "case %zu", i);
        cr_assert_eq(memcmp(&p, &poison_p, sizeof p), 0, "case %zu wrote params", i);
        cr_assert_eq(hwfit_model_check(&m), cases[i].want, "case %zu", i);
        hwfit_model_kv_in in;
        hwfit_model_kv_init(&in);
        hwfit_model_kv_out kv, poison_kv;
        memset(&kv, 0x5a, sizeof kv);
        memset(&poison_kv, 0x5a, sizeof poison_kv);
        cr_assert_eq(hwfit_model_kv(&m, &in, &kv), cases[i].want, "case %zu", i);
        cr_assert_eq(memcmp(&kv, &poison_kv, sizeof kv), 0);
        hwfit_model_flops_out f, poison_f;
        memset(&f, 0x5a, sizeof f);
        memset(&poison_f, 0x5a, sizeof poison_f);
        cr_assert_eq(hwfit_model_flops(&m, 10, &f), cases[i].want, "case %zu", i);
        cr_assert_eq(memcmp(&f, &poison_f, sizeof f), 0);
        hwfit_model_range r, poison_r;
        memset(&r, 0x5a, sizeof r);
        memset(&poison_r, 0x5a, sizeof poison_r);
        cr_assert_eq(hwfit_model_layer_range(&m, 0, 1, &r), cases[i].want, "case %zu", i);
        cr_assert_eq(memcmp(&r, &poison_r, sizeof r), 0);
    }
}

Test(model, counts_that_overflow_64_bits_are_refused) {
    hwfit_model m;
    llama(&m, 1024, HWFIT_MODEL_MAX_SIZE, HWFIT_MODEL_MAX_SIZE, 1, 1);
    m.head_dim = 1;
    m.vocab = HWFIT_MODEL_MAX_SIZE;
    hwfit_model_param_counts p;
    memset(&p, 0x5a, sizeof p);
    cr_assert_eq(hwfit_model_params(&m, &p), HWFIT_ERANGE);
    cr_assert_eq(p.total, 0x5a5a5a5a5a5a5a5aull);
    /* Shared expert width n * w beyond 64 bits. */
    llama(&m, 2, 64, 64, 4, 4);
    m.experts = 2;
    m.experts_per_token = 1;
    m.expert_intermediate = 64;
    m.shared_experts = HWFIT_MODEL_MAX_DIM;
    m.shared_expert_intermediate = HWFIT_MODEL_MAX_SIZE;
    m.layer_flags[1] = HWFIT_MODEL_LAYER_MOE;
    cr_assert_eq(hwfit_model_params(&m, &p), HWFIT_ERANGE);
    /* KV bytes beyond 64 bits for a huge batch. */
    llama(&m, 32, 4096, 14336, 32, 8);
    hwfit_model_kv_in in;
    hwfit_model_kv_init(&in);
    in.batch = UINT64_MAX / 2;
    hwfit_model_kv_out kv;
    cr_assert_eq(hwfit_model_kv(&m, &in, &kv), HWFIT_ERANGE);
}

Test(model, bad_arguments_are_refused) {
    hwfit_model m;
    llama(&m, 32, 4096, 14336, 32, 8);
    hwfit_model_param_counts p;
    hwfit_model_kv_in in;
    hwfit_model_kv_init(&in);
    hwfit_model_kv_out kv;
    hwfit_model_flops_out f;
    hwfit_model_range r;
    cr_assert_eq(hwfit_model_params(NULL, &p), HWFIT_EINVAL);
    cr_assert_eq(hwfit_model_params(&m, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit_model_check(NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit_model_kv(NULL, &in, &kv), HWFIT_EINVAL);
    cr_assert_eq(hwfit_model_kv(&m, NULL, &kv), HWFIT_EINVAL);
    cr_assert_eq(hwfit_model_kv(&m, &in, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit_model_flops(NULL, 1, &f), HWFIT_EINVAL);
    cr_assert_eq(hwfit_model_flops(&m, 1, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit_model_flops(&m, 0, &f), HWFIT_EDOM);
    cr_assert_eq(hwfit_model_layer_range(NULL, 0, 1, &r), HWFIT_EINVAL);
    cr_assert_eq(hwfit_model_layer_range(&m, 0, 1, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit_model_layer_range(&m, 0, 0, &r), HWFIT_EDOM);
    cr_assert_eq(hwfit_model_layer_range(&m, 32, 1, &r), HWFIT_EDOM);
    cr_assert_eq(hwfit_model_layer_range(&m, 31, 2, &r), HWFIT_EDOM);
    cr_assert_eq(hwfit_model_layer_range(&m, 31, 1, &r), HWFIT_OK);
    in.batch = 0;
    cr_assert_eq(hwfit_model_kv(&m, &in, &kv), HWFIT_EDOM);
    hwfit_model_kv_init(&in);
    in.context = 0;
    cr_assert_eq(hwfit_model_kv(&m, &in, &kv), HWFIT_EDOM);
    hwfit_model_kv_init(&in);
    in.first_layer = 32;
    cr_assert_eq(hwfit_model_kv(&m, &in, &kv), HWFIT_EDOM);
    hwfit_model_kv_init(&in);
    in.layer_count = 33;
    cr_assert_eq(hwfit_model_kv(&m, &in, &kv), HWFIT_EDOM);
    hwfit_model_kv_init(&in);
    in.dtype.id = HWFIT_DTYPE_COUNT_;
    cr_assert_eq(hwfit_model_kv(&m, &in, &kv), HWFIT_EINVAL);
    in.dtype = hwfit_dtype_make(HWFIT_DTYPE_Q4_K);
    in.dtype.group_size = 3;
    cr_assert_eq(hwfit_model_kv(&m, &in, &kv), HWFIT_EDOM);
    /* Layer rules */
    cr_assert_eq(hwfit_model_set_moe_layers(NULL, 0, 1, 0), HWFIT_EINVAL);
    cr_assert_eq(hwfit_model_set_moe_layers(&m, 0, 0, 0), HWFIT_EDOM);
    cr_assert_eq(hwfit_model_set_moe_layers(&m, 0, 2, 2), HWFIT_EDOM);
    cr_assert_eq(hwfit_model_set_sliding_layers(NULL, HWFIT_MODEL_SLIDING_ALL, 0), HWFIT_EINVAL);
    cr_assert_eq(hwfit_model_set_sliding_layers(&m, (hwfit_model_sliding)9, 0), HWFIT_EINVAL);
    cr_assert_eq(hwfit_model_set_sliding_layers(&m, HWFIT_MODEL_SLIDING_PERIOD, 0), HWFIT_EDOM);
    m.layers = 0;
    cr_assert_eq(hwfit_model_set_moe_layers(&m, 0, 1, 0), HWFIT_EDOM);
    cr_assert_eq(hwfit_model_set_sliding_layers(&m, HWFIT_MODEL_SLIDING_ALL, 0), HWFIT_EDOM);
    hwfit_model_init(NULL);   /* ignored */
    hwfit_model_kv_init(NULL); /* ignored */
}

/* The layer with the most tensors any model can have (MLA with q_lora_rank and biases, MoE
 * with a router bias, gated experts with biases, gated shared experts and their gate, an MTP
 * layer): 28, what model.c's HWFIT__LAYER_TENSORS_MAX holds with no margin. It must
 * prepare: a refusal here means a layer kind grew past that bound. */
Test(model, largest_layer_prepares) {
    hwfit_model m;
    deepseek_v3(&m);
    m.o_bias = 1;
    m.mlp_bias = 1;
    m.shared_expert_gate = 1;
    m.norm = HWFIT_MODEL_NORM_LAYER;
    hwfit_model_param_counts p;
    cr_assert_eq(hwfit_model_params(&m, &p), HWFIT_OK);
    cr_assert_gt(p.mtp_layer, 0);
}

/* The largest GQA layer: biases on q, k, v, o, q/k norms and attention sinks (10 tensors),
 * the same MoE block and MTP layer as above: also 28, and it prepares. */
Test(model, largest_gqa_layer_prepares) {
    hwfit_model m;
    deepseek_v3(&m);
    m.attention = HWFIT_MODEL_ATTENTION_GQA;
    m.kv_heads = 8;
    m.head_dim = 128;
    m.q_bias = m.k_bias = m.v_bias = m.o_bias = 1;
    m.qk_norm = 1;
    m.attention_sinks = 1;
    m.mlp_bias = 1;
    m.shared_expert_gate = 1;
    m.norm = HWFIT_MODEL_NORM_LAYER;
    hwfit_model_param_counts p;
    cr_assert_eq(hwfit_model_params(&m, &p), HWFIT_OK);
    cr_assert_gt(p.mtp_layer, 0);
}

/* Attention sinks (gpt-oss GptOssAttention.sinks): one parameter per query head and layer,
 * in the attention part and in the active count. */
Test(model, attention_sinks_add_one_parameter_per_head) {
    hwfit_model m;
    hwfit_model_init(&m);
    m.layers = 3;
    m.heads = 8;
    m.kv_heads = 2;
    m.head_dim = 16;
    m.hidden = 64;
    m.vocab = 100;
    m.intermediate = 128;
    hwfit_model_param_counts a, b;
    cr_assert_eq(hwfit_model_params(&m, &a), HWFIT_OK);
    m.attention_sinks = 1;
    cr_assert_eq(hwfit_model_params(&m, &b), HWFIT_OK);
    cr_assert_eq(b.dense.attention, a.dense.attention + 8);
    cr_assert_eq(b.total, a.total + 3 * 8);
    cr_assert_eq(b.active, a.active + 3 * 8);
}

/* Chunked attention (Llama 4): the cache of a chunked layer is bounded by the chunk as a
 * window's is, but the token at position p attends to ((p - 1) mod chunk) + 1 tokens, not
 * min(p, window): at p = chunk + 1 it starts a new chunk and attends to itself only. */
Test(model, chunked_layers_bound_the_cache_and_attend_within_the_chunk) {
    hwfit_model m;
    hwfit_model_init(&m);
    m.layers = 4;
    m.heads = 4;
    m.kv_heads = 1;
    m.head_dim = 8;
    m.hidden = 32;
    m.vocab = 50;
    m.intermediate = 64;
    m.sliding_window = 16;
    cr_assert_eq(hwfit_model_set_sliding_layers(&m, HWFIT_MODEL_SLIDING_PERIOD, 4), HWFIT_OK);
    /* 2 a (d + d_v) = 128 FLOP per attended token per layer. */
    hwfit_model_flops_out slide, chunk;
    cr_assert_eq(hwfit_model_flops(&m, 17, &slide), HWFIT_OK);
    m.chunked_attention = 1;
    cr_assert_eq(hwfit_model_flops(&m, 17, &chunk), HWFIT_OK);
    cr_assert_eq(slide.matmul_flop, chunk.matmul_flop);
    cr_assert_eq(slide.attention_flop, 128.0 * (17 + 3 * 16));
    cr_assert_eq(chunk.attention_flop, 128.0 * (17 + 3 * 1));
    cr_assert_eq(hwfit_model_flops(&m, 16, &chunk), HWFIT_OK);
    cr_assert_eq(chunk.attention_flop, 128.0 * (16 + 3 * 16));
    cr_assert_eq(hwfit_model_flops(&m, 40, &chunk), HWFIT_OK);
    cr_assert_eq(chunk.attention_flop, 128.0 * (40 + 3 * 8));
    /* The cache: 3 chunked layers hold at most 16 tokens, the full one all 40. */
    hwfit_model_kv_in in;
    hwfit_model_kv_init(&in);
    in.context = 40;
    hwfit_model_kv_out kv;
    cr_assert_eq(hwfit_model_kv(&m, &in, &kv), HWFIT_OK);
    cr_assert_eq(kv.sliding_layers, 3);
    cr_assert_eq(kv.bytes, kv.layer_bytes_per_token * (40 + 3 * 16));
}

/* shard: per-card footprints against hand-derived values and the ZeRO, DeepSpeed and
 * Megatron-LM formulas; the seed server's questions; consistency (sums, monotonicity,
 * inverse questions); every invalid-layout reason; every error path. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hwfit.h"

#define GIB 1073741824.0
#define CARD_96GB (96.0 * GIB) /* rtx-pro-6000-server: "96 GB" read as GiB (gpu.h) */
#define P70B 70553706496ull    /* Llama-3.1-70B parameters (safetensors metadata) */
#define P8B 8030261248ull      /* Llama-3.1-8B */

static hwfit_model llama8, llama70, llama405, deepseek, mixtral;

static void load(const char *file, hwfit_model *m) {
    char path[512];
    snprintf(path, sizeof path, "%s/models/%s", HWFIT_TEST_DATA, file);
    hwfit_error err;
    cr_assert_eq(hwfit_hf_config_load(path, m, &err), HWFIT_OK, "%s: %s", file, err.message);
}

static void setup(void) {
    load("llama-3.1-8b.config.json", &llama8);
    load("llama-3.1-70b.config.json", &llama70);
    load("llama-3.1-405b.config.json", &llama405);
    load("deepseek-v3.config.json", &deepseek);
    load("mixtral-8x7b-instruct-v0.1.config.json", &mixtral);
}

TestSuite(shard, .init = setup);

/* The seed server: 8 x rtx-pro-6000-server. */
static hwfit_shard_in seed(uint32_t gpus) {
    hwfit_shard_in in;
    hwfit_shard_init(&in);
    in.capacity_bytes = CARD_96GB;
    in.gpus = gpus;
    return in;
}

static hwfit_shard_out estimate_ok(const hwfit_model *m, const hwfit_shard_in *in) {
    hwfit_shard_out o;
    hwfit_status st = hwfit_shard_estimate(m, in, &o);
    cr_assert_eq(st, HWFIT_OK, "%s", hwfit_status_name(st));
    const hwfit_shard_card *c = &o.worst;
    cr_assert_eq(c->total_bytes, c->weights_bytes + c->kv_bytes + c->activation_bytes +
                                     c->gradient_bytes + c->optimizer_bytes + c->buffer_bytes +
                                     c->overhead_bytes);
    return o;
}

/* What hwfit_memory_estimate gives for the one card of `in` (its memory input with the
 * layout's recomputation): one card without ZeRO must be that estimate. */
static hwfit_memory_out memory_of_one_card(const hwfit_model *m, const hwfit_shard_in *in) {
    hwfit_memory_in mi = in->memory;
    mi.recompute = in->layout.recompute;
    hwfit_memory_out mo;
    cr_assert_eq(hwfit_memory_estimate(m, &mi, &mo), HWFIT_OK);
    return mo;
}

static hwfit_shard_card card_ok(const hwfit_model *m, const hwfit_shard_in *in, uint32_t s) {
    hwfit_shard_card c;
    hwfit_status st = hwfit_shard_card_at(m, in, s, &c);
    cr_assert_eq(st, HWFIT_OK, "%s", hwfit_status_name(st));
    return c;
}

static hwfit_dtype dt(const char *name) {
    hwfit_dtype d;
    cr_assert_eq(hwfit_dtype_parse(name, &d), HWFIT_OK, "%s", name);
    return d;
}

/* ---- hand-derived per-card figures ------------------------------------------------------- */

/* Llama-3.1-70B at tp = 8, per card: q and o 8192 x 1024 each, k and v one 128-wide head
 * each (8 heads / 8), MLP 3 x 8192 x 3584, two norms of 8192 (replicated); embedding and
 * head 16,032 x 8192 each (128,256 / 8); final norm 8192. */
Test(shard, tensor_parallel_card_of_llama_70b_by_hand) {
    hwfit_shard_in in = seed(8);
    in.layout.tp = 8;
    in.memory.context = 8192;
    hwfit_shard_out o = estimate_ok(&llama70, &in);
    uint64_t layer = 2ull * 8192 * 1024 + 2ull * 8192 * 128 + 3ull * 8192 * 3584 + 2 * 8192;
    uint64_t params = 80 * layer + 2ull * 16032 * 8192 + 8192;
    cr_assert_eq(layer, 106971136ull);
    cr_assert_eq(o.worst.params, params);
    cr_assert_eq(o.worst.weights_bytes, 2 * params);
    /* The eight shards hold the model plus seven extra copies of the replicated norms. */
    uint64_t norms = 80ull * 2 * 8192 + 8192;
    cr_assert_eq(8 * params, P70B + 7 * norms);
    /* KV: one head of K and V per layer per card, 2 x 128 x 2 B x 80 layers per token. */
    cr_assert_eq(o.worst.kv_bytes_per_token, 2ull * 128 * 2 * 80);
    cr_assert_eq(o.worst.kv_bytes, 8192ull * 40960);
    cr_assert_eq(o.worst.overhead_bytes, 1ull << 30);
    cr_assert_eq(o.worst.buffer_bytes, 64ull << 20); /* one communicator: TP */
    cr_assert_eq(o.worst.gradient_bytes + o.worst.optimizer_bytes, 0);
    cr_assert_eq(o.usable_bytes, (uint64_t)(CARD_96GB * 0.9));
    cr_assert(o.fits);
    cr_assert_eq(o.total_bytes, 8 * o.worst.total_bytes);
}

/* The card of a stage equals hwfit_memory_estimate on that stage's layer range of the rank
 * model (weights, KV) and of the full model with tensor_parallel (activations). */
Test(shard, a_card_is_the_memory_estimate_of_its_stage) {
    hwfit_shard_in in = seed(8);
    in.layout.tp = 2;
    in.layout.pp = 4;
    in.memory.context = 32768;
    in.memory.batch = 3;
    hwfit_model rank = llama70;
    rank.heads = 32;
    rank.kv_heads = 4;
    rank.head_dim = 128;
    rank.intermediate = 14336;
    rank.vocab = 64128;
    for (uint32_t s = 0; s < 4; s++) {
        hwfit_shard_card c = card_ok(&llama70, &in, s);
        cr_assert_eq(c.layers, 20);
        cr_assert_eq(c.first_layer, 20 * s);
        hwfit_memory_in mi = in.memory;
        mi.first_layer = 20 * s;
        mi.layer_count = 20;
        mi.embedding = s == 0;
        mi.head = s == 3;
        hwfit_memory_out w;
        cr_assert_eq(hwfit_memory_estimate(&rank, &mi, &w), HWFIT_OK);
        cr_assert_eq(c.weights_bytes, w.weights_bytes, "stage %u", s);
        cr_assert_eq(c.params, w.params);
        cr_assert_eq(c.kv_bytes, w.kv_bytes);
        mi.tensor_parallel = 2;
        hwfit_memory_out a;
        cr_assert_eq(hwfit_memory_estimate(&llama70, &mi, &a), HWFIT_OK);
        cr_assert_eq(c.activation_bytes, a.activation_bytes, "stage %u", s);
        cr_assert_eq(c.overhead_bytes, a.overhead_bytes);
        /* TP and PP communicators. */
        cr_assert_eq(c.buffer_bytes, 2 * (64ull << 20));
    }
}

/* Llama-3.1-405B, 126 layers on 4 stages: vLLM get_pp_indices gives 31, 32, 32, 31 (the
 * remainder of 2 on the two stages before the last). */
Test(shard, uneven_layers_split_as_vllm_does) {
    hwfit_shard_in in = seed(4);
    in.layout.pp = 4;
    const uint32_t layers[4] = {31, 32, 32, 31}, first[4] = {0, 31, 63, 95};
    uint64_t sum = 0;
    for (uint32_t s = 0; s < 4; s++) {
        hwfit_shard_card c = card_ok(&llama405, &in, s);
        cr_assert_eq(c.layers, layers[s], "stage %u", s);
        cr_assert_eq(c.first_layer, first[s]);
        cr_assert_eq(c.embedding, s == 0);
        cr_assert_eq(c.head, s == 3);
        sum += c.params;
    }
    cr_assert_eq(sum, 405853388800ull); /* memory.md c.2: the whole model, once */
    /* 7 layers on 3 stages: 2, 3, 2 (vLLM's docstring example). */
    hwfit_model m = llama8;
    m.layers = 7;
    in.gpus = 3;
    in.layout.pp = 3;
    cr_assert_eq(card_ok(&m, &in, 0).layers, 2);
    cr_assert_eq(card_ok(&m, &in, 1).layers, 3);
    cr_assert_eq(card_ok(&m, &in, 2).layers, 2);
    /* The largest card is the first stage: embedding and 32 layers' share. */
    in.layout.uneven_layers = 0;
    hwfit_shard_reason why;
    cr_assert_eq(hwfit_shard_check(&m, &in, &why), HWFIT_OK);
    cr_assert_eq(why, HWFIT_SHARD_UNEVEN);
}

/* vLLM: num_kv_heads per GPU = max(1, kv_heads // tp): at tp = 16 the eight heads of
 * Llama-3.1-70B are replicated, so a card holds as much KV cache as at tp = 8. */
Test(shard, kv_heads_are_replicated_when_tp_exceeds_them) {
    hwfit_shard_in in = seed(16);
    in.layout.tp = 16;
    in.memory.context = 4096;
    hwfit_shard_out t16 = estimate_ok(&llama70, &in);
    in.gpus = 8;
    in.layout.tp = 8;
    hwfit_shard_out t8 = estimate_ok(&llama70, &in);
    cr_assert_eq(t16.worst.kv_bytes, t8.worst.kv_bytes);
    cr_assert_eq(t16.worst.kv_bytes, 4096ull * 40960);
    /* K and V projections are replicated too: 2 x 8192 x 128 per layer, q and o halve. */
    uint64_t layer16 = 2ull * 8192 * 512 + 2ull * 8192 * 128 + 3ull * 8192 * 1792 + 2 * 8192;
    cr_assert_eq(t16.worst.params, 80 * layer16 + 2ull * 8016 * 8192 + 8192);
    /* MLA: the latent (512 + 64 values per token per layer) is on every rank. */
    hwfit_shard_in d = seed(8);
    d.memory.weights = dt("fp8");
    d.layout.tp = 8;
    hwfit_shard_out mla8 = estimate_ok(&deepseek, &d);
    d.gpus = 1;
    d.layout.tp = 1;
    d.capacity_bytes = 1e15;
    hwfit_shard_out mla1 = estimate_ok(&deepseek, &d);
    cr_assert_eq(mla8.worst.kv_bytes, mla1.worst.kv_bytes);
    cr_assert_eq(mla8.worst.kv_bytes_per_token, 61ull * 576 * 2);
}

/* ---- training: ZeRO, DeepSpeed, Megatron ------------------------------------------------------ */

static hwfit_shard_in full_8b(uint32_t dp, uint32_t zero) {
    hwfit_shard_in in = seed(dp);
    in.memory.mode = HWFIT_MEMORY_FULL;
    in.layout.dp = dp;
    in.layout.zero_stage = zero;
    in.layout.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    in.capacity_bytes = 1e13;
    return in;
}

/* Rajbhandari et al. 2020, Figure 1 with K = 12 (mixed-precision Adam): per device
 * ZeRO-1 (2 + 2)P + 12P/N, ZeRO-2 2P + (2 + 12)P/N, ZeRO-3 (2 + 2 + 12)P/N. */
Test(shard, zero_stages_divide_model_states_as_the_paper) {
    const uint64_t n = 8, p = P8B;
    hwfit_shard_in in = full_8b(8, 0);
    hwfit_shard_card c0 = estimate_ok(&llama8, &in).worst;
    cr_assert_eq(c0.weights_bytes + c0.gradient_bytes + c0.optimizer_bytes, 16 * p);
    cr_assert_eq(c0.trainable_params, p);
    cr_assert_eq(c0.shard_weights_bytes, 2 * p);
    in.layout.zero_stage = 1;
    hwfit_shard_card c1 = estimate_ok(&llama8, &in).worst;
    cr_assert_eq(c1.weights_bytes + c1.gradient_bytes, 4 * p);
    cr_assert_eq(c1.optimizer_bytes, 12 * p / n);
    in.layout.zero_stage = 2;
    hwfit_shard_card c2 = estimate_ok(&llama8, &in).worst;
    cr_assert_eq(c2.weights_bytes, 2 * p);
    cr_assert_eq(c2.gradient_bytes + c2.optimizer_bytes, 14 * p / n);
    in.layout.zero_stage = 3;
    in.zero3_live_layers = 1;
    hwfit_shard_card c3 = estimate_ok(&llama8, &in).worst;
    cr_assert_eq(c3.weights_bytes + c3.gradient_bytes + c3.optimizer_bytes, 16 * p / n);
    /* DeepSpeed estimate_zero3_model_states_mem_needs: + 4 x largest layer (fp16 parameters
     * and gradients gathered): here the head, 128,256 x 4096 = 525,336,576, with its final
     * norm of 4096; plus one NCCL communicator and the DDP bucket. */
    cr_assert_eq(c3.buffer_bytes, 4ull * (525336576 + 4096) + (64ull << 20) + (25ull << 20));
    /* Two live units (FSDP's prefetch) add one more gathered unit of parameters: a decoder
     * layer (218,112,000), not a second table, as the embedding and the head are at the two
     * ends of the pass (changed in the fifth round; it was the head again). */
    in.zero3_live_layers = 2;
    cr_assert_eq(estimate_ok(&llama8, &in).worst.buffer_bytes - c3.buffer_bytes,
                 2ull * 218112000);
    /* Activations do not change with ZeRO. */
    cr_assert_eq(c3.activation_bytes, c0.activation_bytes);
}

/* root_unsharded (FSDP's root unit): the embedding and head stay gathered beside the two
 * live layers, and their gradients are held together; ZeRO-3 only. Llama 3.1 8B on 8 cards:
 * tables 2 x 525,336,576 + 4096 (final norm) parameters, a decoder layer 218,112,000, all in
 * bf16, bf16 gradients. */
Test(shard, root_unsharded_keeps_the_tables_gathered) {
    hwfit_shard_in in = full_8b(8, 3);
    in.zero3_live_layers = 2;
    const uint64_t tables = 2ull * 525336576 + 4096, layer = 218112000, head = 525336576 + 4096;
    hwfit_shard_card a = estimate_ok(&llama8, &in).worst;
    in.memory.root_unsharded = 1;
    hwfit_shard_card b = estimate_ok(&llama8, &in).worst;
    /* Without: the head and one layer live (one table per window), the head's gradients. */
    cr_assert_eq(a.buffer_bytes - (64ull << 20) - (25ull << 20), 2 * head + 2 * layer + 2 * head);
    cr_assert_eq(b.buffer_bytes - (64ull << 20) - (25ull << 20),
                 2 * tables + 2 * (2 * layer) + 2 * tables);
    cr_assert_eq(b.weights_bytes, a.weights_bytes);
    cr_assert_eq(b.activation_bytes, a.activation_bytes);
    /* Without ZeRO-3 nothing is gathered: no change. */
    in.layout.zero_stage = 2;
    hwfit_shard_card c = estimate_ok(&llama8, &in).worst;
    in.memory.root_unsharded = 0;
    cr_assert_eq(estimate_ok(&llama8, &in).worst.buffer_bytes, c.buffer_bytes);
    /* The fsdp and hf-trainer profiles set it (Accelerate's decoder-layer auto-wrap leaves
     * the tables to the root); deepspeed and torchtune do not. */
    const char *on[] = {"fsdp", "hf-trainer", "axolotl"}, *off[] = {"deepspeed", "torchtune"};
    for (size_t i = 0; i < 3; i++) {
        hwfit_memory_in m;
        hwfit_memory_init(&m);
        m.mode = HWFIT_MEMORY_LORA;
        cr_assert_eq(hwfit_memory_profile_apply(on[i], 2, &m, NULL), HWFIT_OK);
        cr_assert_eq(m.root_unsharded, 1, "%s", on[i]);
    }
    for (size_t i = 0; i < 2; i++) {
        hwfit_memory_in m;
        hwfit_memory_init(&m);
        m.mode = HWFIT_MEMORY_LORA;
        cr_assert_eq(hwfit_memory_profile_apply(off[i], 2, &m, NULL), HWFIT_OK);
        cr_assert_eq(m.root_unsharded, 0, "%s", off[i]);
    }
}

/* ZeRO-3's gathered window in the step: every unit is resharded and its unsharded gradient
 * freed before the optimizer's step (torch FSDP1 _post_backward_hook's
 * _post_backward_reshard, _post_backward_final_callback's _catch_all_reshard), so the step
 * allocates none of it; the gathered parameters' blocks stay reserved (allocated on FSDP1's
 * unshard stream, which the step does not use). Llama 3.1 8B full on 8 cards, ZeRO-3, bf16:
 * the window is the head (525,336,576 + 4096) and one layer (218,112,000), the gradient unit
 * the head's; ZeRO-2 gathers nothing: its step is the same but for the gradients' shard. */
Test(shard, zero3_step_allocates_no_gathered_unit) {
    const uint64_t layer = 218112000, head = 525336576 + 4096;
    hwfit_shard_in in = full_8b(8, 3);
    in.zero3_live_layers = 2;
    hwfit_shard_card a = card_ok(&llama8, &in, 0);
    const uint64_t window = 2 * head + 2 * layer, grad_unit = 2 * head;
    cr_assert_eq(a.buffer_bytes - (64ull << 20) - (25ull << 20), window + grad_unit);
    /* Two more live layers: forward and backward hold them, the step does not. */
    in.zero3_live_layers = 4;
    hwfit_shard_card b = card_ok(&llama8, &in, 0);
    cr_assert_eq(b.buffer_bytes - a.buffer_bytes, 2 * 2 * layer);
    cr_assert_eq(b.forward_bytes - a.forward_bytes, 2 * 2 * layer);
    cr_assert_eq(b.backward_bytes - a.backward_bytes, 2 * 2 * layer);
    cr_assert_eq(b.step_bytes, a.step_bytes);
    /* The root unit gathered (both tables and their gradients): the same. */
    in.zero3_live_layers = 2;
    in.memory.root_unsharded = 1;
    hwfit_shard_card c = card_ok(&llama8, &in, 0);
    cr_assert(c.buffer_bytes > a.buffer_bytes);
    cr_assert_eq(c.step_bytes, a.step_bytes);
    /* The step's reserve keeps the gathered parameters' blocks: at least the step's own
     * reserve plus the window. */
    const double f = in.memory.fragmentation;
    cr_assert_geq(a.reserved_bytes, (uint64_t)((double)a.step_bytes * (1.0 + f)) + window);
    cr_assert_geq(a.reserved_bytes, a.allocated_bytes);
    /* ZeRO-2 gathers nothing: its step holds the same but the whole gradient's shard and
     * the parameters' (ZeRO-2 keeps them whole). */
    in.memory.root_unsharded = 0;
    in.layout.zero_stage = 2;
    hwfit_shard_card z2 = card_ok(&llama8, &in, 0);
    cr_assert_eq(z2.step_bytes - a.step_bytes, z2.weights_bytes - a.weights_bytes);
}

/* no_reshard_after_forward (FSDP2 reshard_after_forward=False, torchtitan under pipelining)
 * and unsharded_grad_bytes (torch pipelining's set_requires_gradient_sync(False) on an FSDP
 * stage, FSDP2 accumulating in reduce_dtype): every unit of the card gathered, and its
 * unsharded gradients, held through forward and backward and freed before the step.
 * Llama 3.1 8B full on 8 cards, ZeRO-3, bf16: P8B = 32 layers of 218,112,000 + two tables
 * of 525,336,576 + the final norm's 4096. */
Test(shard, no_reshard_after_forward_keeps_every_unit_gathered) {
    const uint64_t p = P8B, layer = 218112000, emb = 525336576, head = emb + 4096;
    hwfit_shard_in in = full_8b(8, 3);
    in.zero3_live_layers = 2;
    hwfit_shard_card a = card_ok(&llama8, &in, 0);
    in.memory.no_reshard_after_forward = 1;
    hwfit_shard_card b = card_ok(&llama8, &in, 0);
    /* Default: the head and one layer live, the head's gradient unit. Kept gathered: the
     * whole model in bf16 instead of the window, the gradient unit unchanged. */
    cr_assert_eq(a.buffer_bytes - b.buffer_bytes + 2 * p, 2 * head + 2 * layer);
    cr_assert_eq(b.buffer_bytes - (64ull << 20) - (25ull << 20), 2 * p + 2 * head);
    cr_assert_eq(b.gradient_bytes, a.gradient_bytes);
    cr_assert_eq(b.activation_bytes, a.activation_bytes);
    /* Forward and backward hold them; the step does not (resharded by then). */
    cr_assert_eq(b.backward_bytes - a.backward_bytes, 2 * p - 2 * head - 2 * layer);
    cr_assert_eq(b.forward_bytes - a.forward_bytes, 2 * p - 2 * head - 2 * layer);
    cr_assert_eq(a.step_bytes, b.step_bytes); /* neither the window nor the units */
    /* Unsharded fp32 gradients of every trained element: 4 P more in forward and backward. */
    in.memory.unsharded_grad_bytes = 4;
    hwfit_shard_card c = card_ok(&llama8, &in, 0);
    cr_assert_eq(c.gradient_bytes - b.gradient_bytes, 4 * p);
    cr_assert_eq(c.backward_bytes - b.backward_bytes, 4 * p);
    cr_assert_eq(c.forward_bytes - b.forward_bytes, 4 * p);
    cr_assert_eq(c.step_bytes, b.step_bytes);
    /* The root unit is among the units: not counted twice; only its gradient unit (both
     * tables, reduced together) replaces the head's. */
    in.memory.root_unsharded = 1;
    hwfit_shard_card d = card_ok(&llama8, &in, 0);
    cr_assert_eq(d.buffer_bytes - c.buffer_bytes, 2 * emb);
    in.memory.root_unsharded = 0;
    /* Pipelined over two stages (dp 4): stage 0 holds its 16 layers and the embedding
     * gathered instead of a window of one layer and the embedding. */
    hwfit_shard_in pp = full_8b(4, 3);
    pp.gpus = 8;
    pp.layout.pp = 2;
    pp.zero3_live_layers = 2;
    hwfit_shard_card e0 = card_ok(&llama8, &pp, 0);
    pp.memory.no_reshard_after_forward = 1;
    pp.memory.unsharded_grad_bytes = 2;
    hwfit_shard_card e1 = card_ok(&llama8, &pp, 0);
    cr_assert_eq(e1.buffer_bytes - e0.buffer_bytes, 2 * (16 * layer + emb) - 2 * layer - 2 * emb);
    cr_assert_eq(e1.gradient_bytes - e0.gradient_bytes, 2 * (16 * layer + emb));
    /* Without ZeRO-3 nothing is gathered or kept unsharded by FSDP: no change. */
    hwfit_shard_in z2 = full_8b(8, 2);
    hwfit_shard_card f0 = card_ok(&llama8, &z2, 0);
    z2.memory.no_reshard_after_forward = 1;
    z2.memory.unsharded_grad_bytes = 4;
    hwfit_shard_card f1 = card_ok(&llama8, &z2, 0);
    cr_assert_eq(f1.peak_bytes, f0.peak_bytes);
    cr_assert_eq(f1.buffer_bytes, f0.buffer_bytes);
    cr_assert_eq(f1.gradient_bytes, f0.gradient_bytes);
}

/* grad_covers_frozen (FSDP1 use_orig_params=True: one FlatParameter per decoder layer holds
 * its frozen weights and its LoRA adapters and requires grad, _flat_param.py
 * _validate_tensors_to_flatten): each layer's gradients cover its 218,112,000 parameters
 * and its adapters, sharded (/ 8) and unsharded (unsharded_grad_bytes, FSDP1 no_sync); the
 * frozen tables (the root unit) have none; the optimizer states stay the adapters'. Llama
 * 3.1 8B LoRA on 8 cards, ZeRO-3. */
Test(shard, grad_covers_frozen_counts_a_mixed_units_frozen_elements) {
    const uint64_t layer = 218112000, n = 8;
    hwfit_shard_in in = full_8b(8, 3);
    in.memory.mode = HWFIT_MEMORY_LORA;
    hwfit_shard_card a = card_ok(&llama8, &in, 0);
    const uint64_t adapters = a.trainable_params, gb = 2; /* bf16 gradients */
    cr_assert_eq(a.gradient_bytes, (gb * adapters + n - 1) / n);
    in.memory.grad_covers_frozen = 1;
    hwfit_shard_card b = card_ok(&llama8, &in, 0);
    const uint64_t elements = 32 * layer + adapters;
    cr_assert_eq(b.gradient_bytes, (gb * elements + n - 1) / n);
    cr_assert_eq(b.trainable_params, a.trainable_params);
    cr_assert_eq(b.optimizer_bytes, a.optimizer_bytes);
    cr_assert_eq(b.weights_bytes, a.weights_bytes);
    /* backward makes a layer's whole flat gradient (the gradient unit): one layer more */
    cr_assert_eq(b.buffer_bytes - a.buffer_bytes,
                 gb * (layer + adapters / 32) - gb * (adapters / 32));
    cr_assert(b.backward_bytes > a.backward_bytes);
    /* FSDP1 no_sync: every layer's unsharded flat gradient, in bf16 */
    in.memory.unsharded_grad_bytes = 2;
    hwfit_shard_card c = card_ok(&llama8, &in, 0);
    cr_assert_eq(c.gradient_bytes - b.gradient_bytes, 2 * elements);
    in.memory.grad_covers_frozen = 0;
    hwfit_shard_card d = card_ok(&llama8, &in, 0);
    cr_assert_eq(d.gradient_bytes - a.gradient_bytes, 2 * adapters);
    /* Accumulating 4 micro-batches (a global batch of 32 on 8 cards): with the reduction after every
     * micro-batch the sharded gradients are held through forward (the gradient buffer);
     * deferred to the last one (unsharded_grad_bytes) no sharded gradient exists before
     * that backward, which turns the unsharded ones into them unit by unit: allocated,
     * forward holds the unsharded gradients instead of the sharded ones and backward never
     * both whole; reserved, the sharded ones come on the reduction's stream beside the
     * unsharded ones' freed blocks, so the reserve holds both. */
    in.layout.global_batch = 32;
    in.memory.grad_covers_frozen = 1;
    in.memory.unsharded_grad_bytes = 0;
    hwfit_shard_card m0 = card_ok(&llama8, &in, 0);
    in.memory.unsharded_grad_bytes = 2;
    hwfit_shard_card m1 = card_ok(&llama8, &in, 0);
    const uint64_t sharded = (gb * elements + n - 1) / n;
    cr_assert_eq(m0.gradient_bytes, sharded);
    cr_assert_eq(m1.forward_bytes - m0.forward_bytes, 2 * elements - sharded);
    cr_assert(m1.backward_bytes < m0.backward_bytes + 2 * elements);
    cr_assert(m1.reserved_bytes >= m0.backward_bytes + 2 * elements);
    in.layout.global_batch = 0;
    /* Full fine-tuning: every element trained already, no change. */
    hwfit_shard_in full = full_8b(8, 3);
    hwfit_shard_card f0 = card_ok(&llama8, &full, 0);
    full.memory.grad_covers_frozen = 1;
    hwfit_shard_card f1 = card_ok(&llama8, &full, 0);
    cr_assert_eq(f1.gradient_bytes, f0.gradient_bytes);
    cr_assert_eq(f1.peak_bytes, f0.peak_bytes);
    /* QLoRA's packed base is not modelled: refused; 2 is not a flag. */
    hwfit_shard_out o;
    in.memory.grad_covers_frozen = 1;
    in.memory.mode = HWFIT_MEMORY_QLORA;
    cr_assert_eq(hwfit_shard_estimate(&llama8, &in, &o), HWFIT_EUNSUPPORTED);
    in.memory.mode = HWFIT_MEMORY_LORA;
    in.memory.grad_covers_frozen = 2;
    cr_assert_eq(hwfit_shard_estimate(&llama8, &in, &o), HWFIT_EDOM);
}

/* reduce_held_bytes (FSDP2's comm_ctx.reduce_scatter_state: the previous layer's
 * reduce-scatter input, in reduce_dtype, held until the next layer's post_backward): one
 * layer's trained elements at that many bytes more in the buffers. Llama 3.1 8B full on 8
 * cards, ZeRO-3: a layer is 218,112,000 parameters; not below ZeRO-3. */
Test(shard, reduce_held_bytes_holds_one_layers_reduce_scatter_input) {
    const uint64_t layer = 218112000;
    hwfit_shard_in in = full_8b(8, 3);
    hwfit_shard_card a = card_ok(&llama8, &in, 0);
    in.memory.reduce_held_bytes = 4;
    hwfit_shard_card b = card_ok(&llama8, &in, 0);
    cr_assert_eq(b.buffer_bytes - a.buffer_bytes, 4 * layer);
    cr_assert_eq(b.backward_bytes - a.backward_bytes, 4 * layer);
    cr_assert_eq(b.gradient_bytes, a.gradient_bytes);
    in.memory.reduce_held_bytes = 2;
    hwfit_shard_card c = card_ok(&llama8, &in, 0);
    cr_assert_eq(c.buffer_bytes - a.buffer_bytes, 2 * layer);
    hwfit_shard_in z2 = full_8b(8, 2);
    hwfit_shard_card d0 = card_ok(&llama8, &z2, 0);
    z2.memory.reduce_held_bytes = 4;
    hwfit_shard_card d1 = card_ok(&llama8, &z2, 0);
    cr_assert_eq(d1.buffer_bytes, d0.buffer_bytes);
}

/* logits_freed (torchtune's `del logits`): the loss's tensors go before the last layer is
 * rebuilt. Llama 3.1 8B full under ZeRO-3 on 8 cards, 4,096 tokens, the chunked loss
 * compiled: the head's unsharded gradient (the unit of the head and final norm, 525,340,672
 * bf16 parameters) is in the buffers as the running sum of the chunk matmuls' gradients, so
 * the loss's backward holds one more, and the start is S + max(L + K, T) instead of
 * S + L + T. Without ZeRO-3 the running sum is beyond the buffers too (2K less a chunk of
 * logits). */
Test(shard, logits_freed_ends_the_loss_before_the_rebuild) {
    const uint64_t k = 2ull * 525340672;
    hwfit_shard_in in = full_8b(8, 3);
    in.memory.context = 4096;
    in.memory.loss = HWFIT_MEMORY_LOSS_CHUNKED;
    in.memory.compile = 1;
    hwfit_shard_card a = card_ok(&llama8, &in, 0);
    in.memory.logits_freed = 1;
    hwfit_shard_card b = card_ok(&llama8, &in, 0);
    hwfit_memory_in mi = in.memory;
    mi.recompute = HWFIT_MEMORY_RECOMPUTE_FULL; /* the layout's */
    hwfit_memory_out m;
    cr_assert_eq(hwfit_memory_estimate(&llama8, &mi, &m), HWFIT_OK);
    uint64_t loss = m.loss_bytes,
             t = m.activation_bytes - m.activation_other_bytes - 32ull * 4096 * 4096 * 2;
    uint64_t side = loss + k > t ? loss + k : t;
    cr_assert_eq(b.backward_bytes + loss + t, a.backward_bytes + side, "%llu %llu %llu %llu",
                 (unsigned long long)a.backward_bytes, (unsigned long long)b.backward_bytes,
                 (unsigned long long)loss, (unsigned long long)t);
    cr_assert_eq(b.forward_bytes, a.forward_bytes);
    cr_assert_eq(b.step_bytes, a.step_bytes);
}

/* offload_after_load (Accelerate's FSDP2 cpu_ram_efficient_loading): under parameter
 * offload the card first holds its shards and one whole unit as the model loads; the
 * allocator keeps them reserved, so the load phase can set the peak. Llama 3.1 8B full on
 * 8 cards, ZeRO-3, optimizer and parameters offloaded: the shards are the weights the card
 * holds without parameter offload, the largest unit the head with the final norm,
 * 525,336,576 + 4096 bf16 parameters. Off (the default) the offloaded weights never count. */
Test(shard, offload_after_load_counts_the_shards_while_loading) {
    hwfit_shard_in in = full_8b(8, 3);
    in.memory.context = 128;
    in.layout.offload = HWFIT_SHARD_OFFLOAD_OPTIMIZER;
    const uint64_t shards = estimate_ok(&llama8, &in).worst.weights_bytes;
    in.layout.offload = HWFIT_SHARD_OFFLOAD_OPTIMIZER | HWFIT_SHARD_OFFLOAD_PARAMS;
    hwfit_shard_card off = estimate_ok(&llama8, &in).worst;
    in.memory.offload_after_load = 1;
    hwfit_shard_card on = estimate_ok(&llama8, &in).worst;
    const uint64_t load = shards + 2ull * (525336576 + 4096);
    cr_assert_eq(shards, 2ull * P8B / 8);
    cr_assert(load > off.allocated_bytes);
    cr_assert_neq(off.peak_phase, HWFIT_MEMORY_PHASE_LOAD);
    cr_assert_eq(on.peak_phase, HWFIT_MEMORY_PHASE_LOAD);
    cr_assert_eq(on.allocated_bytes, load);
    /* The training phases and the parts are those of the plain offload. */
    cr_assert_eq(on.forward_bytes, off.forward_bytes);
    cr_assert_eq(on.total_bytes, off.total_bytes);
    cr_assert_eq(on.weights_bytes, off.weights_bytes);
    /* Without parameter offload the shards stay on the card anyway: no change. */
    in.layout.offload = HWFIT_SHARD_OFFLOAD_OPTIMIZER;
    hwfit_shard_card kept = estimate_ok(&llama8, &in).worst;
    in.memory.offload_after_load = 0;
    cr_assert_eq(estimate_ok(&llama8, &in).worst.allocated_bytes, kept.allocated_bytes);
}

/* fsdp_wrap_residue (FSDP1's flat-parameter build on the compute stream, torch
 * _init_utils.py _init_param_handle_from_module with device_id): the largest unit U (the
 * root's tables: embedding, head and final norm, 2 x 525,336,576 + 4096 bf16 parameters of
 * Llama 3.1 8B) is on the card twice with its shard U / z while it is flattened and
 * sharded, and those segments stay cached for the compute stream; the gathered parameters
 * (the root and two live layers L of 218,112,000) are on the unshard stream, an offloaded
 * shard's copy U / z on the pre-unshard stream. A layer's build, before the root's, leaves
 * 2L + L/z cached that the root's tables (each larger than L) cannot reuse. Full on 2
 * cards, ZeRO-3 with everything offloaded, 128 tokens: the residue exceeds the compute
 * stream's own peak, so reserved is 2U + U/2 + 2L + L/2 + (U + 2L) + U/2; allocated does
 * not move. Off or below ZeRO-3 it changes nothing. */
Test(shard, fsdp_wrap_residue_keeps_the_flat_build_reserved) {
    const uint64_t u = 2ull * (2ull * 525336576 + 4096), l = 2ull * 218112000;
    hwfit_shard_in in = full_8b(2, 3);
    in.memory.context = 128;
    in.memory.root_unsharded = 1;
    in.layout.offload = HWFIT_SHARD_OFFLOAD_OPTIMIZER | HWFIT_SHARD_OFFLOAD_PARAMS;
    hwfit_shard_card off = estimate_ok(&llama8, &in).worst;
    in.memory.fsdp_wrap_residue = 1;
    hwfit_shard_card on = estimate_ok(&llama8, &in).worst;
    cr_assert_eq(on.weights_bytes, 0);
    cr_assert_eq(on.reserved_bytes, 2 * u + u / 2 + 2 * l + l / 2 + (u + 2 * l) + u / 2, "%llu",
                 (unsigned long long)on.reserved_bytes);
    cr_assert(on.reserved_bytes > off.reserved_bytes);
    cr_assert_eq(on.allocated_bytes, off.allocated_bytes);
    cr_assert_eq(on.peak_bytes - on.reserved_bytes, off.peak_bytes - off.reserved_bytes);
    /* Without parameter offload the shards stay (in the weights) and nothing is copied. */
    in.layout.offload = HWFIT_SHARD_OFFLOAD_OPTIMIZER;
    hwfit_shard_card kept = estimate_ok(&llama8, &in).worst;
    cr_assert_eq(kept.reserved_bytes, kept.weights_bytes + 2 * u + 2 * l + (u + 2 * l),
                 "%llu %llu",
                 (unsigned long long)kept.reserved_bytes,
                 (unsigned long long)kept.weights_bytes);
    /* A compute-stream peak above the residue (4 x 8,192 tokens, the profiles' 10 %
     * reserve): the streams' sum is that peak's reserve without the gathered parameters,
     * plus them and the shard copy; without parameter offload (no copy) that is below the
     * phases' reserve, which stands. */
    in.memory.context = 8192;
    in.layout.micro_batch = 4;
    in.memory.fragmentation = 0.10;
    hwfit_shard_card big_on = estimate_ok(&llama8, &in).worst;
    in.memory.fsdp_wrap_residue = 0;
    cr_assert_eq(estimate_ok(&llama8, &in).worst.reserved_bytes, big_on.reserved_bytes);
    in.layout.offload = HWFIT_SHARD_OFFLOAD_OPTIMIZER | HWFIT_SHARD_OFFLOAD_PARAMS;
    hwfit_shard_card big_off = estimate_ok(&llama8, &in).worst;
    in.memory.fsdp_wrap_residue = 1;
    big_on = estimate_ok(&llama8, &in).worst;
    const uint64_t fb = big_on.forward_bytes > big_on.backward_bytes ? big_on.forward_bytes
                                                                     : big_on.backward_bytes;
    const double own = (double)(fb - (u + 2 * l));
    uint64_t ex = (uint64_t)(own * 0.10);
    if ((double)ex < own * 0.10) ex++;
    cr_assert_eq(big_on.reserved_bytes, fb - (u + 2 * l) + ex + (u + 2 * l) + u / 2);
    cr_assert(big_on.reserved_bytes > big_off.reserved_bytes);
    cr_assert_eq(big_on.allocated_bytes, big_off.allocated_bytes);
    /* Below ZeRO-3 nothing is gathered or flattened over the cards. */
    hwfit_shard_in z2 = full_8b(2, 2);
    z2.memory.context = 128;
    hwfit_shard_card z2off = estimate_ok(&llama8, &z2).worst;
    z2.memory.fsdp_wrap_residue = 1;
    cr_assert_eq(estimate_ok(&llama8, &z2).worst.reserved_bytes, z2off.reserved_bytes);
}

/* offload_keeps_grads (Megatron-Core's --optimizer-cpu-offload, HybridDeviceOptimizer in
 * core/optimizer/cpu_offloading/hybrid_optimizer.py): the master weights and moments step on
 * the host, which gets a pinned copy of the gradients; the card keeps its fp32 main_grad
 * buffer. Llama 3.1 8B full on 8 cards, ZeRO-1 (Megatron's distributed optimizer: the
 * gradient buffer whole on every card), fp32 gradients: 4 P of gradients stay on the card
 * where ZeRO-Offload leaves none; the host holds the same either way. */
Test(shard, offload_keeps_grads_leaves_the_gradient_buffer_on_the_card) {
    const uint64_t p = P8B;
    hwfit_shard_in in = full_8b(8, 1);
    in.memory.gradients = hwfit_dtype_make(HWFIT_DTYPE_FP32);
    in.layout.offload = HWFIT_SHARD_OFFLOAD_OPTIMIZER;
    hwfit_shard_out zo = estimate_ok(&llama8, &in);
    in.memory.offload_keeps_grads = 1;
    hwfit_shard_out mc = estimate_ok(&llama8, &in);
    cr_assert_eq(zo.worst.gradient_bytes, 0);
    cr_assert_eq(zo.worst.optimizer_bytes, 0);
    cr_assert_eq(mc.worst.gradient_bytes, 4 * p);
    cr_assert_eq(mc.worst.optimizer_bytes, 0);
    cr_assert_eq(mc.worst.weights_bytes, zo.worst.weights_bytes);
    cr_assert_eq(mc.host_bytes, zo.host_bytes);
    cr_assert_eq(mc.worst.step_bytes - zo.worst.step_bytes, 4 * p);
    /* Without the optimizer offloaded the flag changes nothing. */
    in.layout.offload = 0;
    hwfit_shard_card on = estimate_ok(&llama8, &in).worst;
    in.memory.offload_keeps_grads = 0;
    hwfit_shard_card off = estimate_ok(&llama8, &in).worst;
    cr_assert_eq(on.peak_bytes, off.peak_bytes);
    cr_assert_eq(on.gradient_bytes, 4 * p);
    /* The megatron profile sets it, DeepSpeed's does not; 0 or 1 only. */
    hwfit_memory_in mi;
    uint64_t sets = 0;
    hwfit_memory_init(&mi);
    mi.mode = HWFIT_MEMORY_FULL;
    cr_assert_eq(hwfit_memory_profile_apply("megatron", 8, &mi, &sets), HWFIT_OK);
    cr_assert_eq(mi.offload_keeps_grads, 1);
    cr_assert(sets & HWFIT_PROFILE_OFFLOAD_KEEPS_GRADS);
    hwfit_memory_init(&mi);
    cr_assert_eq(mi.offload_keeps_grads, 0);
    cr_assert_eq(hwfit_memory_profile_apply("deepspeed", 8, &mi, &sets), HWFIT_OK);
    cr_assert_eq(mi.offload_keeps_grads, 0);
    in.memory.offload_keeps_grads = 2;
    hwfit_shard_out out;
    cr_assert_eq(hwfit_shard_estimate(&llama8, &in, &out), HWFIT_EDOM);
}

/* FSDP with no auto-wrap policy (fsdp_single_unit): one FlatParameter for the whole model,
 * the root, gathered through backward; its split() views' gradients are held until
 * SplitBackward concatenates them, so the card's whole unsharded gradient is there twice at
 * the backward's end, and gone (reduce-scattered) before the step. Llama 3.1 8B full in bf16
 * on 8 cards, ZeRO-3: against the same run with every unit kept gathered
 * (no_reshard_after_forward), the window loses the largest unit's gradient (the head with
 * the final norm, 128,256 x 4,096 + 4,096: ug) and the backward's end gains 2 x 2 B x P8B. */
Test(shard, fsdp_single_unit_holds_the_whole_gradient_twice_at_the_end) {
    const uint64_t ug = 2ull * (128256 * 4096 + 4096); /* the head and the final norm */
    hwfit_shard_in in = full_8b(8, 3);
    in.memory.no_reshard_after_forward = 1;
    const hwfit_shard_card a = estimate_ok(&llama8, &in).worst;
    in.memory.fsdp_single_unit = 1;
    const hwfit_shard_card b = estimate_ok(&llama8, &in).worst;
    cr_assert_eq(b.buffer_bytes, a.buffer_bytes - ug + 4 * P8B);
    cr_assert_eq(b.forward_bytes, a.forward_bytes - ug);
    cr_assert_eq(b.step_bytes, a.step_bytes, "reduce-scattered before the step");
    cr_assert_gt(b.backward_bytes, a.backward_bytes + 3 * P8B);
    /* It implies the whole model gathered: the same without no_reshard_after_forward. */
    in.memory.no_reshard_after_forward = 0;
    const hwfit_shard_card c = estimate_ok(&llama8, &in).worst;
    cr_assert_eq(c.buffer_bytes, b.buffer_bytes);
    cr_assert_eq(c.backward_bytes, b.backward_bytes);
    /* Not 0 or 1: refused. */
    in.memory.fsdp_single_unit = 2;
    hwfit_shard_out out;
    cr_assert_eq(hwfit_shard_estimate(&llama8, &in, &out), HWFIT_EDOM);
}

/* A model built whole on the card before it was sharded (built_whole: FSDP1 wrapping an
 * on-device model, DeepSpeed ZeRO-3 without zero.Init): each parameter's segment stays
 * cached on the compute stream and no unit-sized request fits one, so the card's whole
 * unsharded weights (bf16 Llama 3.1 8B: 2 x P8B, whatever the number of cards) are
 * reserved beside the run's own peak; nothing allocated changes. Without an allocator
 * reserve fraction the compute stream's peak is the reserve, so it grows by exactly that. */
Test(shard, built_whole_strands_the_whole_model_in_the_reserve) {
    for (uint32_t dp = 2; dp <= 8; dp *= 2) {
        hwfit_shard_in in = full_8b(dp, 3);
        in.memory.fragmentation = 0;
        const hwfit_shard_card a = estimate_ok(&llama8, &in).worst;
        in.memory.built_whole = 1;
        const hwfit_shard_card b = estimate_ok(&llama8, &in).worst;
        cr_assert_eq(b.forward_bytes, a.forward_bytes);
        cr_assert_eq(b.backward_bytes, a.backward_bytes);
        cr_assert_eq(b.step_bytes, a.step_bytes);
        cr_assert_eq(b.allocated_bytes, a.allocated_bytes);
        cr_assert_eq(a.reserved_bytes, a.allocated_bytes, "dp %u", dp);
        cr_assert_eq(b.reserved_bytes, a.reserved_bytes + 2 * P8B, "dp %u", dp);
        cr_assert_eq(b.peak_bytes - b.reserved_bytes, a.peak_bytes - a.reserved_bytes);
    }
    /* Below ZeRO-3 nothing is sharded after the build: no effect. */
    hwfit_shard_in in = full_8b(8, 2);
    const hwfit_shard_card a = estimate_ok(&llama8, &in).worst;
    in.memory.built_whole = 1;
    cr_assert_eq(estimate_ok(&llama8, &in).worst.peak_bytes, a.peak_bytes);
    /* Not 0 or 1: refused. */
    in.memory.built_whole = 2;
    hwfit_shard_out out;
    cr_assert_eq(hwfit_shard_estimate(&llama8, &in, &out), HWFIT_EDOM);
}

/* zero3_linear_views_kept: without DeepSpeed's own linear each mm's saved view keeps its
 * gathered weight to its backward, so with no recomputation the card's layers and head stay
 * gathered (not the embedding), beside one layer re-gathered for its backward. Llama 3.1 8B
 * full bf16, 8 cards, ZeRO-3: against every unit kept gathered (no_reshard_after_forward) the
 * window differs by the embedding less one layer (218,112,000 parameters); nothing with full
 * recomputation; nothing allocated in the step. */
Test(shard, zero3_linear_views_keep_the_layers_gathered_without_recomputation) {
    const uint64_t emb = 2ull * 128256 * 4096, layer = 2ull * 218112000;
    hwfit_shard_in in = full_8b(8, 3);
    const hwfit_shard_card full_a = estimate_ok(&llama8, &in).worst;
    in.memory.zero3_linear_views_kept = 1;
    const hwfit_shard_card full_b = estimate_ok(&llama8, &in).worst;
    cr_assert_eq(full_b.peak_bytes, full_a.peak_bytes, "the checkpointed forward saves nothing");
    in.layout.recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    in.memory.zero3_linear_views_kept = 0;
    const hwfit_shard_card a = estimate_ok(&llama8, &in).worst;
    in.memory.zero3_linear_views_kept = 1;
    const hwfit_shard_card b = estimate_ok(&llama8, &in).worst;
    cr_assert_gt(b.buffer_bytes, a.buffer_bytes + 10 * layer);
    cr_assert_eq(b.forward_bytes - a.forward_bytes, b.buffer_bytes - a.buffer_bytes);
    cr_assert_eq(b.step_bytes, a.step_bytes);
    in.memory.zero3_linear_views_kept = 0;
    in.memory.no_reshard_after_forward = 1;
    const hwfit_shard_card c = estimate_ok(&llama8, &in).worst;
    cr_assert_eq(c.buffer_bytes - b.buffer_bytes, emb - layer);
    in.memory.no_reshard_after_forward = 0;
    in.memory.zero3_linear_views_kept = 2;
    hwfit_shard_out out;
    cr_assert_eq(hwfit_shard_estimate(&llama8, &in, &out), HWFIT_EDOM);
}

/* DeepSpeed's ZeRO optimizer reduces gradients through contiguous buffers of
 * reduce_bucket_size elements in the engine's 16-bit format, on every rank, instead of a DDP
 * bucket: stages 1-2 one per backward and a second with overlap_comm (stage_1_and_2.py
 * backward, ipg_buffer), stage 3 one for the run (stage3.py __ipg_bucket_flat_buffer). */
Test(shard, zero_buckets_are_deepspeeds_reduce_buffers) {
    const uint64_t ddp = 26214400u;
    for (uint32_t zero = 1; zero <= 3; zero++) {
        hwfit_shard_in in = full_8b(8, zero);
        const uint64_t base = estimate_ok(&llama8, &in).worst.buffer_bytes;
        in.memory.zero_buckets = 1;
        const uint64_t one = estimate_ok(&llama8, &in).worst.buffer_bytes;
        cr_assert_eq(one + ddp - base, 1000000000u, "stage %u: 5e8 bf16 elements", zero);
        in.reduce_bucket_elements = 2e8;
        in.overlap_comm = 1;
        const uint64_t two = estimate_ok(&llama8, &in).worst.buffer_bytes;
        cr_assert_eq(two + ddp - base, zero <= 2 ? 800000000u : 400000000u, "stage %u", zero);
        /* fp32 training (no bf16 or fp16 in the config): the module stays fp32. */
        in.memory.activations = hwfit_dtype_make(HWFIT_DTYPE_FP32);
        in.overlap_comm = 0;
        cr_assert_eq(estimate_ok(&llama8, &in).worst.buffer_bytes + ddp - base, 800000000u);
    }
    /* On a single card too (the buffers do not depend on dp); without ZeRO DeepSpeed's
     * engine reduces one bucket at a time (no DDP Reducer: no copy of the gradient). */
    hwfit_shard_in one = full_8b(1, 2);
    one.memory.zero_buckets = 1;
    cr_assert_eq(estimate_ok(&llama8, &one).worst.buffer_bytes, 1000000000u);
    hwfit_shard_in z0 = full_8b(8, 0);
    const hwfit_shard_card c0 = estimate_ok(&llama8, &z0).worst;
    z0.memory.zero_buckets = 1;
    cr_assert_eq(estimate_ok(&llama8, &z0).worst.buffer_bytes,
                 c0.buffer_bytes - c0.gradient_bytes + ddp);
    /* An update in backward (LOMO): DeepSpeed gets no optimizer and builds no ZeRO
     * optimizer (stage 3: DeepSpeedZeRoOffload), so none of its buffers, whatever dp. */
    hwfit_shard_in lomo = full_8b(8, 3);
    lomo.memory.zero_buckets = 1;
    lomo.memory.optimizer_in_backward = 1;
    lomo.memory.gradient_buffer = 0;
    const uint64_t lb = estimate_ok(&llama8, &lomo).worst.buffer_bytes;
    lomo.memory.zero_buckets = 0; /* a bucket in flight, as FSDP's reductions */
    cr_assert_eq(estimate_ok(&llama8, &lomo).worst.buffer_bytes - lb, ddp,
                 "not even one bucket: the hook reduces each .grad in place");
    lomo = full_8b(1, 3);
    lomo.memory.zero_buckets = 1;
    lomo.memory.optimizer_in_backward = 1;
    const hwfit_shard_card l1 = estimate_ok(&llama8, &lomo).worst;
    lomo.memory.optimizer_in_backward = 0;
    cr_assert_eq(estimate_ok(&llama8, &lomo).worst.buffer_bytes - l1.buffer_bytes, 1000000000u);
    /* The deepspeed profile turns them on. */
    hwfit_memory_in mi;
    hwfit_memory_init(&mi);
    mi.mode = HWFIT_MEMORY_FULL;
    uint64_t sets = 0;
    cr_assert_eq(hwfit_memory_profile_apply("deepspeed", 8, &mi, &sets), HWFIT_OK);
    cr_assert(sets & HWFIT_PROFILE_ZERO_BUCKETS);
    cr_assert_eq(mi.zero_buckets, 1);
    hwfit_memory_init(&mi);
    mi.mode = HWFIT_MEMORY_FULL;
    cr_assert_eq(hwfit_memory_profile_apply("fsdp", 8, &mi, &sets), HWFIT_OK);
    cr_assert_eq(mi.zero_buckets, 0);
}

/* PyTorch DDP (torch/csrc/distributed/c10d/reducer.cpp initialize_buckets): the Reducer
 * allocates every bucket's flat gradients tensor at construction and holds it for the run,
 * a second copy of the trained gradient whatever bucket_cap_mb ("the saved memory size will
 * be equal to the total gradients size", DistributedDataParallel gradient_as_bucket_view).
 * Llama 3.1 8B full in bf16 on 8 cards: 2P bytes of buckets beside the 2P of gradients;
 * none on one card (no DDP), none under ZeRO, none when the gradient lives in a buffer
 * (Megatron's, or the buckets themselves with gradient_as_bucket_view). */
Test(shard, ddp_buckets_hold_a_copy_of_the_gradient) {
    const uint64_t groups = 67108864u; /* one NCCL communicator (dp), 64 MiB */
    hwfit_shard_in in = full_8b(8, 0);
    hwfit_shard_card c = estimate_ok(&llama8, &in).worst;
    cr_assert_eq(c.gradient_bytes, 2 * P8B);
    cr_assert_eq(c.buffer_bytes, groups + 2 * P8B);
    /* bucket_cap_mb cuts the copy, it does not size it. */
    in.bucket_bytes = 100.0 * 1048576.0;
    cr_assert_eq(estimate_ok(&llama8, &in).worst.buffer_bytes, groups + 2 * P8B);
    /* The gradient in a buffer of the framework's own (Megatron's, or the buckets
     * themselves): one bucket in flight. */
    in.memory.gradient_buffer = 1;
    hwfit_shard_card b = estimate_ok(&llama8, &in).worst;
    cr_assert_eq(b.buffer_bytes, groups + (uint64_t)in.bucket_bytes);
    /* LoRA: the buckets cover the adapters' gradients only. */
    in = full_8b(8, 0);
    in.memory.mode = HWFIT_MEMORY_LORA;
    in.memory.lora_rank = 16;
    c = estimate_ok(&llama8, &in).worst;
    cr_assert(c.gradient_bytes > 0 && c.gradient_bytes < P8B / 50);
    cr_assert_eq(c.buffer_bytes, groups + c.gradient_bytes);
    /* One card: no replicas, no Reducer. ZeRO-1: the ZeRO path's single bucket. */
    in = full_8b(1, 0);
    cr_assert_eq(estimate_ok(&llama8, &in).worst.buffer_bytes, 0);
    in = full_8b(8, 1);
    cr_assert_eq(estimate_ok(&llama8, &in).worst.buffer_bytes, groups + 26214400u);
}

/* trained_fp32 under ZeRO: DeepSpeed's engine casts the module back to 16 bits
 * (runtime/engine.py _configure_distributed_model: self.module.bfloat16()) and keeps fp32
 * master partitions (zero/stage_1_and_2.py single_partition_of_fp32_groups), so the fp32
 * parameters LLaMA-Factory made become bf16 weights and bf16 gradients with the 4 + 8 bytes
 * of master and moments partitioned. Llama 3.1 8B full (P8B), 8 cards. Without ZeRO (plain
 * data parallelism) they stay fp32 tensors: 4 + 4 + 8 bytes, no master copy. */
Test(shard, trained_fp32_under_zero_becomes_master_weights) {
    const uint64_t n = 8, p = P8B;
    hwfit_shard_in in = full_8b(8, 0);
    in.memory.trained_fp32 = 1;
    in.memory.gradients = hwfit_dtype_make(HWFIT_DTYPE_FP32);
    hwfit_shard_card c0 = estimate_ok(&llama8, &in).worst;
    cr_assert_eq(c0.weights_bytes, 4 * p);
    cr_assert_eq(c0.gradient_bytes, 4 * p);
    cr_assert_eq(c0.optimizer_bytes, 8 * p);
    in.layout.zero_stage = 1;
    hwfit_shard_card c1 = estimate_ok(&llama8, &in).worst;
    cr_assert_eq(c1.weights_bytes, 2 * p);
    cr_assert_eq(c1.gradient_bytes, 2 * p);
    cr_assert_eq(c1.optimizer_bytes, 12 * p / n);
    in.layout.zero_stage = 2;
    hwfit_shard_card c2 = estimate_ok(&llama8, &in).worst;
    cr_assert_eq(c2.weights_bytes, 2 * p);
    cr_assert_eq(c2.gradient_bytes, 2 * p / n);
    /* ZeRO-3: the same 16 bytes a parameter over n as FSDP's fp32 shards (4 + 4 + 8), and
     * the gathered units are bf16: the same buffers as the bf16 run with master weights. */
    in.layout.zero_stage = 3;
    hwfit_shard_card c3 = estimate_ok(&llama8, &in).worst;
    cr_assert_eq(c3.weights_bytes + c3.gradient_bytes + c3.optimizer_bytes, 16 * p / n);
    hwfit_shard_in mixed = full_8b(8, 3);
    hwfit_shard_card m3 = estimate_ok(&llama8, &mixed).worst;
    cr_assert_eq(c3.buffer_bytes, m3.buffer_bytes);
    cr_assert_eq(c3.optimizer_bytes, m3.optimizer_bytes);
    /* The fp16 compute format is kept (DeepSpeed's .half()). */
    in.memory.activations = hwfit_dtype_make(HWFIT_DTYPE_FP16);
    in.layout.zero_stage = 1;
    cr_assert_eq(estimate_ok(&llama8, &in).worst.weights_bytes, 2 * p);
    /* fp32 activations (DeepSpeed with neither bf16 nor fp16): the module stays fp32. */
    in.memory.activations = hwfit_dtype_make(HWFIT_DTYPE_FP32);
    cr_assert_eq(estimate_ok(&llama8, &in).worst.weights_bytes, 4 * p);
    in.memory.activations = hwfit_dtype_make(HWFIT_DTYPE_BF16);
    /* The engine caches the units per (tp, ep, etp): back to ZeRO 0 they are fp32 again. */
    in.layout.zero_stage = 0;
    cr_assert_eq(estimate_ok(&llama8, &in).worst.weights_bytes, 4 * p);
}

/* fsdp_flat_upcast: FSDP holds the sharding, and the trained parameters upcast to fp32 are
 * its flat-parameter shards (torch FSDP1 _flat_param.py: the 16-bit _mp_shard exists only
 * between _use_low_precision_shard and _free_low_precision_sharded_param around a unit's
 * all-gather; the reduced gradient shard is cast to the fp32 parameter dtype). Llama 3.1 8B
 * full (P8B), 8 cards, ZeRO-3, trained_fp32 with fp32 gradients: 4 P / n of parameter
 * shard and 4 P / n of gradient shard where DeepSpeed's engine holds 2 + 4 (master) and 2;
 * the moments 8 P / n; the same 16 P / n in all, and the units still gathered in bf16.
 * Forward and backward (no gradients yet at its start) hold 2 P / n less; the step, with
 * every gradient, the same. */
Test(shard, fsdp_flat_upcast_holds_fp32_shards_without_a_16_bit_partition) {
    const uint64_t n = 8, p = P8B;
    hwfit_shard_in in = full_8b(8, 3);
    in.memory.trained_fp32 = 1;
    in.memory.gradients = hwfit_dtype_make(HWFIT_DTYPE_FP32);
    hwfit_shard_card ds = estimate_ok(&llama8, &in).worst;
    in.memory.fsdp_flat_upcast = 1;
    hwfit_shard_card fs = estimate_ok(&llama8, &in).worst;
    cr_assert_eq(ds.weights_bytes, 2 * p / n);
    cr_assert_eq(ds.gradient_bytes, 2 * p / n);
    cr_assert_eq(ds.optimizer_bytes, 12 * p / n);
    cr_assert_eq(fs.weights_bytes, 4 * p / n);
    cr_assert_eq(fs.gradient_bytes, 4 * p / n);
    cr_assert_eq(fs.optimizer_bytes, 8 * p / n);
    cr_assert_eq(fs.buffer_bytes, ds.buffer_bytes);
    cr_assert_eq(ds.forward_bytes - fs.forward_bytes, 2 * p / n);
    /* Backward is the larger of its start (the stored activations beside the states: 2 P / n
     * less) and its end (every gradient: the same), so it drops by at most 2 P / n (here
     * the end overtakes the start); with a larger micro-batch the start sets it: 2 P / n. */
    cr_assert(ds.backward_bytes > fs.backward_bytes);
    cr_assert_leq(ds.backward_bytes - fs.backward_bytes, 2 * p / n);
    cr_assert_eq(fs.step_bytes, ds.step_bytes);
    in.layout.micro_batch = 64;
    in.memory.batch = 512;
    hwfit_shard_card fs64 = estimate_ok(&llama8, &in).worst;
    in.memory.fsdp_flat_upcast = 0;
    hwfit_shard_card ds64 = estimate_ok(&llama8, &in).worst;
    cr_assert_eq(ds64.backward_bytes - fs64.backward_bytes, 2 * p / n);
    in.memory.fsdp_flat_upcast = 1;
    /* Below ZeRO-3 (every unit whole on the card through the pass), without trained_fp32
     * (nothing upcast) or in LoRA (the adapters' 16-bit partition is a few MB): no change. */
    in.layout.zero_stage = 2;
    hwfit_shard_card z2a = estimate_ok(&llama8, &in).worst;
    in.memory.fsdp_flat_upcast = 0;
    hwfit_shard_card z2b = estimate_ok(&llama8, &in).worst;
    cr_assert_eq(z2a.peak_bytes, z2b.peak_bytes);
    hwfit_shard_in bf = full_8b(8, 3);
    hwfit_shard_card b0 = estimate_ok(&llama8, &bf).worst;
    bf.memory.fsdp_flat_upcast = 1;
    hwfit_shard_card b1 = estimate_ok(&llama8, &bf).worst;
    cr_assert_eq(b1.peak_bytes, b0.peak_bytes);
    cr_assert_eq(b1.weights_bytes, b0.weights_bytes);
    /* The fsdp profile sets it; 0 or 1 only. */
    hwfit_memory_in mi;
    uint64_t sets = 0;
    hwfit_memory_init(&mi);
    mi.mode = HWFIT_MEMORY_FULL;
    cr_assert_eq(hwfit_memory_profile_apply("fsdp", 8, &mi, &sets), HWFIT_OK);
    cr_assert_eq(mi.fsdp_flat_upcast, 1);
    cr_assert(sets & HWFIT_PROFILE_FSDP_FLAT_UPCAST);
    hwfit_memory_init(&mi);
    mi.mode = HWFIT_MEMORY_FULL;
    cr_assert_eq(mi.fsdp_flat_upcast, 0);
    cr_assert_eq(hwfit_memory_profile_apply("deepspeed", 8, &mi, &sets), HWFIT_OK);
    cr_assert_eq(mi.fsdp_flat_upcast, 0);
    in.memory.fsdp_flat_upcast = 2;
    hwfit_shard_out out;
    cr_assert_eq(hwfit_shard_estimate(&llama8, &in, &out), HWFIT_EDOM);
}

/* quant_scales_replicated (bitsandbytes QLoRA under FSDP or ZeRO-3): the NF4 block scales
 * stay whole on every card, only the packed 4-bit data is partitioned, gathered and
 * offloaded. Llama 3.1 8B QLoRA (nf4-dq) on 8 cards: a layer holds 218,103,808 NF4
 * elements (q, o 4096 x 4096; k, v 1024 x 4096; gate, up, down 14336 x 4096), 13,312
 * blocks of 16,384 with 2,048 + 32 bits of scales each: 3,461,120 bytes of scales a layer,
 * 110,755,840 for the 32 layers; the tables stay bf16 (no scales). */
Test(shard, quant_scales_replicated_stay_whole_on_every_card) {
    const uint64_t layer_scales = 13312ull * 260, scales = 32 * layer_scales;
    hwfit_shard_in in = full_8b(8, 3);
    in.memory.mode = HWFIT_MEMORY_QLORA;
    in.memory.lora_rank = 8;
    in.zero3_live_layers = 2;
    hwfit_shard_card a = estimate_ok(&llama8, &in).worst;
    in.memory.quant_scales_replicated = 1;
    hwfit_shard_card b = estimate_ok(&llama8, &in).worst;
    /* Partitioned: the data over 8 cards, the scales whole. */
    cr_assert_eq(b.shard_weights_bytes, a.shard_weights_bytes);
    cr_assert_eq(b.weights_bytes,
                 (a.shard_weights_bytes - scales + 7) / 8 + scales);
    /* Gathered: a table and one layer live (the bf16 table is the larger unit); the layer
     * gathers its data only. */
    cr_assert_eq(a.buffer_bytes - b.buffer_bytes, layer_scales);
    /* Parameter offload: the data goes to the host, the scales stay. */
    in.layout.offload = HWFIT_SHARD_OFFLOAD_PARAMS;
    hwfit_shard_out bo = estimate_ok(&llama8, &in);
    in.memory.quant_scales_replicated = 0;
    hwfit_shard_out ao = estimate_ok(&llama8, &in);
    cr_assert_eq(ao.worst.weights_bytes, 0);
    cr_assert_eq(bo.worst.weights_bytes, scales);
    /* the host had the card's eighth of the scales; now none */
    cr_assert_eq(ao.worst.host_bytes - bo.worst.host_bytes,
                 (a.shard_weights_bytes + 7) / 8 - (a.shard_weights_bytes - scales + 7) / 8);
    /* Without ZeRO-3 every card holds the whole model either way. */
    in.layout.offload = 0;
    in.layout.zero_stage = 2;
    hwfit_shard_card c = estimate_ok(&llama8, &in).worst;
    in.memory.quant_scales_replicated = 1;
    hwfit_shard_card d = estimate_ok(&llama8, &in).worst;
    cr_assert_eq(d.weights_bytes, c.weights_bytes);
    cr_assert_eq(d.buffer_bytes, c.buffer_bytes);
    /* Only NF4 has them: bf16 LoRA does not change. */
    in.layout.zero_stage = 3;
    in.memory.mode = HWFIT_MEMORY_LORA;
    hwfit_shard_card e = estimate_ok(&llama8, &in).worst;
    in.memory.quant_scales_replicated = 0;
    cr_assert_eq(estimate_ok(&llama8, &in).worst.weights_bytes, e.weights_bytes);
    /* The fsdp, hf-trainer and deepspeed profiles set it for QLoRA (bitsandbytes);
     * torchtune (torchao's NF4Tensor) does not, nor any profile for LoRA. */
    const char *on[] = {"fsdp", "hf-trainer", "axolotl", "deepspeed"}, *off[] = {"torchtune"};
    for (size_t i = 0; i < 4; i++) {
        hwfit_memory_in m;
        hwfit_memory_init(&m);
        m.mode = HWFIT_MEMORY_QLORA;
        cr_assert_eq(hwfit_memory_profile_apply(on[i], 2, &m, NULL), HWFIT_OK);
        cr_assert_eq(m.quant_scales_replicated, 1, "%s", on[i]);
        m.mode = HWFIT_MEMORY_LORA;
        m.quant_scales_replicated = 0;
        cr_assert_eq(hwfit_memory_profile_apply(on[i], 2, &m, NULL), HWFIT_OK);
        cr_assert_eq(m.quant_scales_replicated, 0, "%s", on[i]);
    }
    hwfit_memory_in m;
    hwfit_memory_init(&m);
    m.mode = HWFIT_MEMORY_QLORA;
    cr_assert_eq(hwfit_memory_profile_apply(off[0], 2, &m, NULL), HWFIT_OK);
    cr_assert_eq(m.quant_scales_replicated, 0);
}

/* DeepSpeed's ZeRO-2 estimator, no offload: GPU 2P + 18P/N with fp32 gradients ("2 =
 * params_16bit, 18 = 2_grads_16bit + 4_grads_32bit + 4_params_32bit + 8_optimizer");
 * Megatron-LM with the distributed optimizer: 6 + 12/DP bytes per parameter (bf16
 * parameters, fp32 main gradients, then the sharded fp32 master copy and moments). */
Test(shard, deepspeed_and_megatron_bytes_per_parameter) {
    const uint64_t p = P8B;
    hwfit_shard_in in = full_8b(8, 1);
    in.memory.gradients = dt("fp32");
    hwfit_shard_card meg = estimate_ok(&llama8, &in).worst;
    cr_assert_eq(meg.weights_bytes + meg.gradient_bytes, 6 * p);
    cr_assert_eq(meg.optimizer_bytes, 12 * p / 8);
    in.layout.zero_stage = 2;
    hwfit_shard_card z2 = estimate_ok(&llama8, &in).worst;
    /* Our fp32 gradients are sharded (4P/N), DeepSpeed also keeps 2 B of 16-bit ones:
     * 2P + (4 + 12)P/N here versus 2P + 18P/N there. */
    cr_assert_eq(z2.weights_bytes, 2 * p);
    cr_assert_eq(z2.gradient_bytes + z2.optimizer_bytes, 16 * p / 8);
    /* ZeRO-Offload: optimizer states, master weights and fp32 gradients on the host, 16P in
     * all (DeepSpeed ZeRO-3 "offload optimizer": CPU 16P per node, before its 1.5 factor). */
    in.memory.gradients = dt("bf16");
    in.layout.zero_stage = 3;
    in.layout.offload = HWFIT_SHARD_OFFLOAD_OPTIMIZER;
    in.host_buffer_factor = 1.5;
    hwfit_shard_out off = estimate_ok(&llama8, &in);
    cr_assert_eq(off.worst.optimizer_bytes + off.worst.gradient_bytes, 0);
    cr_assert_eq(off.worst.weights_bytes, 2 * p / 8);
    cr_assert_eq(off.host_bytes, 16 * p * 3 / 2);
    /* And the parameters too: 18P (DeepSpeed "offload params+optimizer"). */
    in.layout.offload = HWFIT_SHARD_OFFLOAD_OPTIMIZER | HWFIT_SHARD_OFFLOAD_PARAMS;
    in.host_buffer_factor = 1.0;
    off = estimate_ok(&llama8, &in);
    cr_assert_eq(off.worst.weights_bytes, 0);
    cr_assert_eq(off.host_bytes, 18 * p);
}

/* 1F1B keeps pp - i micro-batches on stage i (Narayanan et al. 2021), so the first stage
 * holds L layers' worth, whatever pp (Korthikanti et al. 2022, section 4.2.3); the
 * interleaved schedule multiplies that by 1 + (p - 1)/(p v). */
Test(shard, pipeline_stages_hold_the_micro_batches_in_flight) {
    hwfit_shard_in in = seed(4);
    in.memory.mode = HWFIT_MEMORY_FULL;
    in.memory.context = 2048;
    in.capacity_bytes = 1e13;
    in.layout.recompute = HWFIT_MEMORY_RECOMPUTE_SELECTIVE;
    in.layout.pp = 4;
    /* One layer's stored activations (no tables) from memory.c. */
    hwfit_memory_in mi = in.memory;
    mi.first_layer = 5;
    mi.layer_count = 1;
    mi.embedding = mi.head = 0;
    mi.recompute = HWFIT_MEMORY_RECOMPUTE_SELECTIVE;
    hwfit_memory_out one;
    cr_assert_eq(hwfit_memory_estimate(&llama8, &mi, &one), HWFIT_OK);
    uint64_t layer = one.activation_dense_layer_bytes;
    mi.layer_count = 8;
    mi.first_layer = 8;
    for (uint32_t s = 1; s < 3; s++) { /* middle stages: no tables */
        hwfit_shard_card c = card_ok(&llama8, &in, s);
        cr_assert_eq(c.in_flight, 4 - s);
        cr_assert_eq(c.activation_bytes, (4 - s) * 8 * layer);
    }
    hwfit_shard_card c0 = card_ok(&llama8, &in, 0);
    cr_assert_eq(c0.in_flight, 4);
    cr_assert_geq(c0.activation_bytes, 32 * layer); /* L layers' worth + embedding inputs */
    /* Fewer micro-batches than stages: in flight = min(pp - i, m). */
    in.layout.global_batch = 2;
    cr_assert_eq(card_ok(&llama8, &in, 0).in_flight, 2);
    cr_assert_eq(card_ok(&llama8, &in, 3).in_flight, 1);
    /* Interleaved, v = 2, m = 8: stage 0 holds 2(p - 1) + (v - 1)p + 1 = 11
     * chunk-micro-batches of 4 layers: 44 layers = 32 (1 + 3/8). */
    in.layout.global_batch = 8;
    in.layout.virtual_stages = 2;
    hwfit_shard_card v0 = card_ok(&llama8, &in, 1);
    cr_assert_eq(v0.in_flight, 2 * 2 + 4 + 1);
    cr_assert_eq(v0.activation_bytes, 9 * 4 * layer);
    hwfit_shard_card first = card_ok(&llama8, &in, 0);
    cr_assert_eq(first.in_flight, 11);
    cr_assert_eq(first.layers, 8);
    cr_assert_eq(first.first_layer, 0);
    cr_assert_eq(card_ok(&llama8, &in, 3).first_layer, 12);
}

/* Full recomputation: the layer inputs of every micro-batch in flight, one layer's
 * recomputation peak once. */
Test(shard, full_recomputation_peak_is_counted_once) {
    hwfit_shard_in in = seed(2);
    in.memory.mode = HWFIT_MEMORY_FULL;
    in.capacity_bytes = 1e13;
    in.layout.pp = 2;
    in.layout.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    hwfit_shard_card c1 = card_ok(&llama8, &in, 1); /* 1 micro-batch in flight */
    in.layout.global_batch = 0;
    hwfit_memory_in mi = in.memory;
    mi.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    mi.first_layer = 16;
    mi.layer_count = 16;
    mi.embedding = 0;
    hwfit_memory_out o;
    cr_assert_eq(hwfit_memory_estimate(&llama8, &mi, &o), HWFIT_OK);
    cr_assert_eq(c1.activation_bytes, o.activation_bytes);
    hwfit_shard_card c0 = card_ok(&llama8, &in, 0); /* 2 in flight */
    mi.first_layer = 0;
    mi.embedding = 1;
    mi.head = 0;
    cr_assert_eq(hwfit_memory_estimate(&llama8, &mi, &o), HWFIT_OK);
    uint64_t inputs = 16 * o.activation_dense_layer_bytes + o.activation_other_bytes;
    cr_assert_eq(c0.activation_bytes, o.activation_bytes + inputs);
}

/* ---- the seed server (8 x rtx-pro-6000-server, 96 GB each) ------------------------------- */

static hwfit_shard_search_out search_ok(const hwfit_model *m, const hwfit_shard_in *in,
                                        const hwfit_shard_space *sp, hwfit_shard_result *r,
                                        size_t k) {
    hwfit_shard_search_out s;
    hwfit_status st = hwfit_shard_search(m, in, sp, r, k, &s);
    cr_assert_eq(st, HWFIT_OK, "%s", hwfit_status_name(st));
    return s;
}

Test(shard, seed_llama_70b_bf16_serves_a_128k_context) {
    hwfit_shard_in in = seed(8);
    in.layout.tp = 8;
    in.memory.context = 131072;
    hwfit_shard_out o = estimate_ok(&llama70, &in);
    cr_assert(o.fits);
    /* 131072 x 327,680 B / 8 = 5 GiB of KV cache per card. */
    cr_assert_eq(o.worst.kv_bytes, 5ull << 30);
    /* The KV cache vLLM would allocate: more than 13 sequences of 128K. */
    cr_assert_gt(o.kv_tokens, 13 * 131072ull);
    cr_assert_leq(o.kv_tokens * o.worst.kv_bytes_per_token,
                  o.usable_bytes - (o.worst.total_bytes - o.worst.kv_bytes));
    cr_assert_gt((o.kv_tokens + 1) * o.worst.kv_bytes_per_token,
                 o.usable_bytes - (o.worst.total_bytes - o.worst.kv_bytes));
    uint64_t ctx;
    cr_assert_eq(hwfit_shard_max_context(&llama70, &in, 131072, &ctx), HWFIT_OK);
    cr_assert_eq(ctx, 131072);
}

Test(shard, seed_405b_does_not_fit_in_bf16_but_does_in_int4) {
    hwfit_shard_in in = seed(8);
    hwfit_shard_space sp;
    hwfit_shard_space_init(&sp);
    hwfit_shard_result r[3];
    hwfit_shard_search_out s = search_ok(&llama405, &in, &sp, r, 3);
    cr_assert_gt(s.valid, 0);
    cr_assert_eq(s.fitting, 0); /* 811.7 GB of bf16 weights > 8 x 86.4 GiB usable */
    cr_assert_eq(s.count, 0);
    /* Asked for, the layouts that miss are ranked by how far they miss. */
    sp.include_unfit = 1;
    s = search_ok(&llama405, &in, &sp, r, 3);
    cr_assert_eq(s.fitting, 0);
    cr_assert_eq(s.count, 3);
    cr_assert_not(r[0].fits);
    cr_assert_lt(r[0].score, 0);
    cr_assert_eq(r[0].score, r[0].headroom_bytes);
    cr_assert_geq(r[0].score, r[1].score);
    sp.include_unfit = 0;
    in.layout.tp = 8;
    hwfit_shard_out bf16 = estimate_ok(&llama405, &in);
    cr_assert_not(bf16.fits);
    cr_assert_gt(bf16.worst.weights_bytes, 94ull << 30);
    in.memory.weights = dt("int4");
    hwfit_shard_out int4 = estimate_ok(&llama405, &in);
    cr_assert(int4.fits);
    s = search_ok(&llama405, &in, &sp, r, 3);
    cr_assert_gt(s.fitting, 0);
    cr_assert_eq(s.count, 3);
    cr_assert_geq(r[0].headroom_bytes, r[1].headroom_bytes);
    cr_assert_geq(r[1].headroom_bytes, r[2].headroom_bytes);
}

Test(shard, seed_70b_qlora_fits_on_one_card) {
    hwfit_shard_in in = seed(1);
    in.memory.mode = HWFIT_MEMORY_QLORA;
    hwfit_shard_space sp;
    hwfit_shard_space_init(&sp);
    hwfit_shard_result r[1];
    hwfit_shard_search_out s = search_ok(&llama70, &in, &sp, r, 1);
    cr_assert_gt(s.fitting, 0);
    /* With gradient checkpointing, as the QLoRA paper trains. */
    in.layout.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    hwfit_shard_out o = estimate_ok(&llama70, &in);
    cr_assert(o.fits);
    uint32_t n;
    cr_assert_eq(hwfit_shard_min_gpus(&llama70, &in, &sp, 8, &n, NULL), HWFIT_OK);
    cr_assert_eq(n, 1);
}

Test(shard, seed_70b_full_fine_tuning_needs_offload) {
    hwfit_shard_in in = seed(8);
    in.memory.mode = HWFIT_MEMORY_FULL;
    hwfit_shard_space sp;
    hwfit_shard_space_init(&sp);
    hwfit_shard_result r[1];
    hwfit_shard_search_out s = search_ok(&llama70, &in, &sp, r, 1);
    cr_assert_gt(s.valid, 100);
    cr_assert_eq(s.fitting, 0); /* 16 B x 70.6 G = 1.13 TB > 8 x 86.4 GiB */
    in.layout.dp = 8;
    in.layout.zero_stage = 3;
    in.layout.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    cr_assert_not(estimate_ok(&llama70, &in).fits);
    /* ZeRO-3 with optimizer and parameter offload to the 1.5 TB of host memory: 18 B per
     * parameter on the host, 1.27 TB. */
    in.layout.offload = HWFIT_SHARD_OFFLOAD_OPTIMIZER | HWFIT_SHARD_OFFLOAD_PARAMS;
    in.host_memory_bytes = 1.5e12;
    hwfit_shard_out o = estimate_ok(&llama70, &in);
    cr_assert(o.fits, "host memory not given: not checked");
    cr_assert_not(o.host_checked);
    in.host_memory_given = 1;
    o = estimate_ok(&llama70, &in);
    cr_assert(o.fits);
    cr_assert_eq(o.host_bytes, 18 * P70B);
    cr_assert(o.host_checked && o.host_fits);
    /* With DeepSpeed's 1.5 buffer factor the host memory is too small. */
    in.host_buffer_factor = 1.5;
    o = estimate_ok(&llama70, &in);
    cr_assert(o.gpu_fits);
    cr_assert_not(o.host_fits);
    cr_assert_not(o.fits);
    /* A host given as 0 bytes is a host without room, not "not checked". */
    in.host_buffer_factor = 1.0;
    in.host_memory_bytes = 0.0;
    o = estimate_ok(&llama70, &in);
    cr_assert(o.host_checked && o.gpu_fits);
    cr_assert_not(o.host_fits);
    cr_assert_not(o.fits);
}

/* ---- consistency -------------------------------------------------------------------------- */

/* Per-card memory never rises as tp grows for the same workload (pp = dp = 1). */
Test(shard, more_tensor_parallelism_never_raises_a_card) {
    const hwfit_memory_mode modes[] = {HWFIT_MEMORY_INFERENCE, HWFIT_MEMORY_FULL,
                                       HWFIT_MEMORY_LORA};
    for (size_t k = 0; k < 3; k++) {
        uint64_t last = UINT64_MAX;
        for (uint32_t tp = 1; tp <= 64; tp *= 2) {
            hwfit_shard_in in = seed(tp);
            in.capacity_bytes = 1e15;
            in.memory.mode = modes[k];
            in.memory.context = 8192;
            in.layout.tp = tp;
            uint64_t t = estimate_ok(&llama70, &in).worst.total_bytes;
            cr_assert_leq(t, last, "mode %zu tp %u", k, tp);
            last = t;
        }
    }
}

/* Search results are the layouts the iterator yields, evaluated one by one. */
Test(shard, search_agrees_with_the_iterator_and_the_estimate) {
    hwfit_shard_in in = seed(8);
    in.memory.mode = HWFIT_MEMORY_FULL;
    hwfit_shard_space sp;
    hwfit_shard_space_init(&sp);
    sp.max_micro_batch = 2;
    hwfit_shard_iter it;
    cr_assert_eq(hwfit_shard_iter_init(&it, &llama8, &in, &sp), HWFIT_OK);
    hwfit_layout l;
    uint64_t n = 0, fit = 0;
    double best = -1e300;
    while (hwfit_shard_iter_next(&it, &l)) {
        n++;
        hwfit_shard_in x = in;
        x.layout = l;
        hwfit_shard_reason why;
        cr_assert_eq(hwfit_shard_check(&llama8, &x, &why), HWFIT_OK);
        cr_assert_eq(why, HWFIT_SHARD_VALID);
        cr_assert_eq((uint64_t)l.tp * l.pp * l.dp * l.cp, 8);
        hwfit_shard_out o = estimate_ok(&llama8, &x);
        if (o.fits) {
            fit++;
            if (o.headroom_bytes > best) best = o.headroom_bytes;
        }
    }
    cr_assert_eq(hwfit_shard_iter_next(&it, &l), 0); /* stays over */
    hwfit_shard_result r[4];
    hwfit_shard_search_out s = search_ok(&llama8, &in, &sp, r, 4);
    cr_assert_eq(s.valid, n);
    cr_assert_eq(s.fitting, fit);
    cr_assert_gt(s.visited, 0);
    cr_assert_eq(s.count, 4);
    cr_assert_eq(r[0].headroom_bytes, best);
    hwfit_shard_in x = in;
    x.layout = r[0].layout;
    hwfit_shard_out o = estimate_ok(&llama8, &x);
    /* per_gpu_bytes is the card's peak (largest phase + reserve + overhead), no longer the
     * sum of its parts (total_bytes): a card fits when its peak does. */
    cr_assert_eq(o.worst.peak_bytes, r[0].per_gpu_bytes);
    /* ZeRO is only searched with more than one data-parallel rank. */
    cr_assert(r[0].layout.dp > 1 || r[0].layout.zero_stage == 0);
}

Test(shard, min_gpus_is_the_smallest_count_that_fits) {
    hwfit_shard_in in = seed(1);
    hwfit_shard_space sp;
    hwfit_shard_space_init(&sp);
    uint32_t n;
    hwfit_layout l;
    cr_assert_eq(hwfit_shard_min_gpus(&llama405, &in, &sp, 64, &n, &l), HWFIT_OK);
    cr_assert_gt(n, 8);
    hwfit_shard_result r[1];
    for (uint32_t k = 1; k < n; k++) {
        in.gpus = k;
        cr_assert_eq(search_ok(&llama405, &in, &sp, r, 1).fitting, 0, "%u cards", k);
    }
    in.gpus = n;
    in.layout = l;
    cr_assert(estimate_ok(&llama405, &in).fits);
    /* Nothing fits on too few cards: 0. */
    cr_assert_eq(hwfit_shard_min_gpus(&llama405, &in, &sp, 4, &n, NULL), HWFIT_OK);
    cr_assert_eq(n, 0);
}

Test(shard, max_context_fits_and_one_step_more_does_not) {
    hwfit_shard_in in = seed(2);
    in.layout.tp = 2;
    in.memory.batch = 4;
    uint64_t ctx;
    cr_assert_eq(hwfit_shard_max_context(&llama70, &in, 1ull << 32, &ctx), HWFIT_OK);
    cr_assert_gt(ctx, 1000);
    in.memory.context = ctx;
    cr_assert(estimate_ok(&llama70, &in).fits);
    in.memory.context = ctx + 1;
    cr_assert_not(estimate_ok(&llama70, &in).fits);
    /* Context parallelism: multiples of cp. */
    in.layout.tp = 1;
    in.layout.cp = 2;
    cr_assert_eq(hwfit_shard_max_context(&llama8, &in, 1ull << 32, &ctx), HWFIT_OK);
    cr_assert_gt(ctx, 1000);
    cr_assert_eq(ctx % 2, 0);
    in.memory.context = ctx;
    cr_assert(estimate_ok(&llama8, &in).fits);
    in.memory.context = ctx + 2;
    cr_assert_not(estimate_ok(&llama8, &in).fits);
    /* Limits: the limit itself when everything fits; 0 when nothing does. */
    cr_assert_eq(hwfit_shard_max_context(&llama8, &in, 4096, &ctx), HWFIT_OK);
    cr_assert_eq(ctx, 4096);
    in.capacity_bytes = 1 << 20;
    cr_assert_eq(hwfit_shard_max_context(&llama8, &in, 4096, &ctx), HWFIT_OK);
    cr_assert_eq(ctx, 0);
}

Test(shard, max_batch_fits_and_one_more_does_not) {
    hwfit_shard_in in = seed(8);
    in.layout.tp = 4;
    in.layout.dp = 2;
    in.memory.context = 32768;
    uint64_t b;
    cr_assert_eq(hwfit_shard_max_batch(&llama70, &in, 1ull << 20, &b), HWFIT_OK);
    cr_assert_gt(b, 10);
    in.memory.batch = b;
    hwfit_shard_out o = estimate_ok(&llama70, &in);
    cr_assert(o.fits);
    cr_assert_eq(o.batch_per_replica, (b + 1) / 2);
    in.memory.batch = b + 1;
    cr_assert_not(estimate_ok(&llama70, &in).fits);
    /* The KV tokens left at batch 1 hold about as many sequences. */
    in.memory.batch = 1;
    o = estimate_ok(&llama70, &in);
    cr_assert_geq(o.kv_tokens / 32768 * 2 + 2, b);
    /* Training: the largest micro-batch. */
    hwfit_shard_in t = seed(8);
    t.memory.mode = HWFIT_MEMORY_LORA;
    t.layout.tp = 8;
    t.layout.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    cr_assert_eq(hwfit_shard_max_batch(&llama70, &t, 1024, &b), HWFIT_OK);
    cr_assert_gt(b, 1);
    t.layout.micro_batch = b;
    cr_assert(estimate_ok(&llama70, &t).fits);
    t.layout.micro_batch = b + 1;
    cr_assert_not(estimate_ok(&llama70, &t).fits);
}

/* Mixture of experts: experts divide by ep, each of width / etp. */
Test(shard, experts_are_divided_by_expert_parallelism) {
    hwfit_shard_in in = seed(8);
    in.capacity_bytes = 1e15;
    in.layout.tp = 8;
    hwfit_shard_out a = estimate_ok(&mixtral, &in);
    cr_assert_eq(a.layout.etp, 8); /* ep 1 divides dp: Megatron's default etp = tp */
    in.layout.ep = 8;
    hwfit_shard_out b = estimate_ok(&mixtral, &in);
    cr_assert_eq(b.layout.etp, 1); /* vLLM: whole experts over the 8 ranks */
    /* Each card holds 1 whole expert instead of 8 eighths: the same expert weights. */
    int64_t diff = (int64_t)a.worst.weights_bytes - (int64_t)b.worst.weights_bytes;
    /* The router keeps E / ep rows (documented approximation): 7 x 4096 x 32 layers x 2 B. */
    cr_assert_eq(diff, 7ll * 4096 * 32 * 2);
    /* ep = 2 with dp = 4, tp = 2 (Megatron's grid: etp = tp). */
    in.layout.tp = 2;
    in.layout.dp = 4;
    in.layout.ep = 2;
    hwfit_shard_out c = estimate_ok(&mixtral, &in);
    cr_assert_eq(c.layout.etp, 2);
}

/* ZeRO with expert parallelism: dense parameters, their gradients and optimizer states are
 * partitioned over the dp x cp ranks, routed experts' only over the expert-data-parallel
 * group edp = tp dp cp / (etp ep) (Megatron-Core's expert grid and its separate optimizer
 * for expert parameters; DeepSpeed-MoE, Rajbhandari et al. 2022, whose ZeRO partitions an
 * MoE parameter group over its expert-data-parallel process group).
 *
 * DeepSeek-V3 on 16 cards, tp 1, dp 16, ep 16 (etp 1), ZeRO 3, bf16, AdamW: edp = 16 / 16 = 1,
 * so each card keeps its 16 of the 256 routed experts of each of the 58 MoE layers whole.
 * Its config: h = 7168, routed-expert width 2048, gated MLP (3 matrices):
 *   routed experts per card  58 x 16 x 3 x 7168 x 2048             = 40,869,298,176
 *   (= 653,908,770,816 routed-expert parameters / 16)
 * The rest of the card (hwfit model: 671,026,419,200 parameters without the MTP layer),
 * with the rank model's router of E / ep = 16 rows and biases per MoE layer (shard.h):
 *   671,026,419,200 - 653,908,770,816 - 106,445,312 (router) + 58 x 16 x 7169 = 17,017,855,904
 * Per card, bytes: weights 2 x 40,869,298,176 + 2 x 17,017,855,904 / 16 = 83,865,828,340
 * (about 84 GB: the same for the bf16 gradients); optimizer 12 x 40,869,298,176
 * + 12 x 17,017,855,904 / 16 = 503,194,970,040. Dividing everything by 16 (the old
 * grouping) gave 7,235,894,260 bytes of weights: the experts divided twice, by ep and by
 * the ZeRO group. */
Test(shard, zero_partitions_experts_over_the_expert_data_parallel_group) {
    const uint64_t experts = 40869298176ull, dense = 17017855904ull;
    cr_assert_eq(experts, 58ull * 16 * 3 * 7168 * 2048);
    cr_assert_eq(dense, 671026419200ull - 653908770816ull - 106445312ull + 58ull * 16 * 7169);
    hwfit_shard_in in;
    hwfit_shard_init(&in);
    in.capacity_bytes = 1e13;
    in.gpus = 16;
    in.memory.mode = HWFIT_MEMORY_FULL;
    in.layout.dp = 16;
    in.layout.ep = 16;
    in.layout.zero_stage = 3;
    in.layout.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    hwfit_shard_out o = estimate_ok(&deepseek, &in);
    cr_assert_eq(o.layout.etp, 1);
    cr_assert_eq(o.worst.params, experts + dense);
    cr_assert_eq(o.worst.weights_bytes, 2 * experts + 2 * dense / 16);
    cr_assert_eq(o.worst.weights_bytes, 83865828340ull);
    cr_assert_eq(o.worst.gradient_bytes, 2 * experts + 2 * dense / 16);
    cr_assert_eq(o.worst.optimizer_bytes, 12 * experts + 12 * dense / 16);
    cr_assert_eq(o.worst.optimizer_bytes, 503194970040ull);
    /* Across the job every parameter is stored once (the router up to its E / ep rows). */
    cr_assert_eq(16 * o.worst.weights_bytes, 2ull * (653908770816ull + dense));
    /* 16 x 80 GB cannot hold 16 bytes x 671 G parameters (10.7 TB). */
    in.capacity_bytes = 80.0 * GIB;
    cr_assert_not(estimate_ok(&deepseek, &in).fits);
    /* ZeRO-3 gathers units of what it partitions: with edp = 1 no expert is gathered, so the
     * largest gathered unit is the head (129,280 x 7168 and the final norm). The two live
     * units are the head and the largest layer (a window of the pass holds one table): a
     * dense layer's MLA attention and norms, 187,121,664, and MLP, 3 x 7168 x 18432; the
     * head's gradients once; plus the dp and ep communicators and the gradient bucket. */
    in.capacity_bytes = 1e13;
    uint64_t head = 129280ull * 7168 + 7168, dense_layer = 187121664ull + 3ull * 7168 * 18432;
    cr_assert_eq(o.worst.buffer_bytes,
                 2 * head + 2 * dense_layer + 2 * head + 2 * (64ull << 20) + (25ull << 20));
    /* ep = 4: edp = 16 / 4 = 4 partitions each card's 64 experts per layer 4 ways, which
     * again leaves 1/16 of the experts' states per card; the expert-data-parallel group is a
     * communicator of its own. */
    in.layout.ep = 4;
    hwfit_shard_out q = estimate_ok(&deepseek, &in);
    uint64_t dense4 = dense + 58ull * (64 - 16) * 7169; /* the router keeps 64 rows */
    cr_assert_eq(q.worst.weights_bytes, 2 * experts * 4 / 4 + 2 * dense4 / 16);
    cr_assert_eq(q.worst.optimizer_bytes, 12 * experts + 12 * dense4 / 16);
    /* ZeRO-1 and -2 divide what they divide by the same groups. */
    in.layout.ep = 16;
    in.layout.zero_stage = 2;
    hwfit_shard_card z2 = estimate_ok(&deepseek, &in).worst;
    cr_assert_eq(z2.weights_bytes, 2 * (experts + dense));
    cr_assert_eq(z2.gradient_bytes, 2 * experts + 2 * dense / 16);
    in.layout.zero_stage = 1;
    hwfit_shard_card z1 = estimate_ok(&deepseek, &in).worst;
    cr_assert_eq(z1.gradient_bytes, 2 * (experts + dense));
    cr_assert_eq(z1.optimizer_bytes, 12 * experts + 12 * dense / 16);
    /* Optimizer offload moves the same partitions, with 4-byte gradients, to the host. */
    in.layout.offload = HWFIT_SHARD_OFFLOAD_OPTIMIZER;
    hwfit_shard_out off = estimate_ok(&deepseek, &in);
    cr_assert_eq(off.host_bytes, 16 * (16 * experts + 16 * dense / 16));
}

/* When the expert grid coincides with the dense one (ep = 1, etp = tp) the two groups are
 * the same and nothing changes; with etp below tp the expert-data-parallel group is larger
 * than dp x cp, and ZeRO divides the experts further. */
Test(shard, expert_data_parallel_group_follows_expert_tensor_parallelism) {
    hwfit_shard_in in;
    hwfit_shard_init(&in);
    in.capacity_bytes = 1e13;
    in.gpus = 8;
    in.memory.mode = HWFIT_MEMORY_FULL;
    in.layout.tp = 2;
    in.layout.dp = 4;
    in.layout.zero_stage = 1;
    hwfit_shard_card same = estimate_ok(&mixtral, &in).worst;
    cr_assert_eq(same.optimizer_bytes, (same.trainable_params * 12 + 3) / 4);
    /* etp = 1 with tp = 2, ep = 1: edp = 8 / (1 x 1) = 8 holds each card's whole experts
     * (etp 1: full width), dividing their states 8 ways instead of 4. */
    in.layout.etp = 1;
    hwfit_shard_out o = estimate_ok(&mixtral, &in);
    cr_assert_eq(o.layout.etp, 1);
    /* Mixtral: 32 layers x 8 experts x 3 x 4096 x 14336 routed parameters. */
    uint64_t experts = 32ull * 8 * 3 * 4096 * 14336;
    uint64_t dense = o.worst.trainable_params - experts;
    cr_assert_eq(o.worst.optimizer_bytes, 12 * experts / 8 + 12 * dense / 4);
    /* ZeRO is searched when only the experts have more than one data-parallel rank: tp 8,
     * dp 1, etp 1 gives edp = 8. */
    hwfit_shard_space space;
    hwfit_shard_space_init(&space);
    space.tp = 8;
    space.pp = 1;
    space.ep = 1;
    space.etp = 1;
    space.micro_batch = 1;
    space.recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    space.sequence_parallel = 0;
    hwfit_shard_iter it;
    cr_assert_eq(hwfit_shard_iter_init(&it, &mixtral, &in, &space), HWFIT_OK);
    hwfit_layout l;
    unsigned stages = 0;
    while (hwfit_shard_iter_next(&it, &l)) stages |= 1u << l.zero_stage;
    cr_assert_eq(stages, 0xfu);
}

/* ---- every invalid-layout reason ------------------------------------------------------------- */

static void expect_reason(const hwfit_model *m, const hwfit_shard_in *in, hwfit_shard_reason r) {
    hwfit_shard_reason why = (hwfit_shard_reason)99;
    cr_assert_eq(hwfit_shard_check(m, in, &why), HWFIT_OK);
    cr_assert_eq(why, r, "got %s, wanted %s", hwfit_shard_reason_name(why),
                 hwfit_shard_reason_name(r));
    if (r != HWFIT_SHARD_VALID) {
        hwfit_shard_out o;
        memset(&o, 0x5a, sizeof o);
        hwfit_shard_out poison = o;
        cr_assert_eq(hwfit_shard_estimate(m, in, &o), HWFIT_ELAYOUT);
        cr_assert_eq(memcmp(&o, &poison, sizeof o), 0);
    }
    cr_assert_neq(strcmp(hwfit_shard_reason_name(r), "unknown"), 0);
    cr_assert_gt(strlen(hwfit_shard_reason_str(r)), 10);
}

Test(shard, every_invalid_layout_has_its_reason) {
    hwfit_shard_in in = seed(8);
    expect_reason(&llama70, &in, HWFIT_SHARD_GPUS); /* 1 x 1 x 1 x 1 != 8 */
    in.layout.dp = 8;
    expect_reason(&llama70, &in, HWFIT_SHARD_VALID);
    hwfit_shard_in t = seed(3);
    t.layout.tp = 3;
    expect_reason(&llama70, &t, HWFIT_SHARD_HEADS); /* 64 heads */
    hwfit_model m = llama70;
    m.heads = 96; /* 8 KV heads: 12 ranks divide neither way */
    m.head_dim = 128;
    t = seed(12);
    t.layout.tp = 12;
    expect_reason(&m, &t, HWFIT_SHARD_KV_HEADS);
    m = llama70;
    m.intermediate = 28671;
    t = seed(2);
    t.layout.tp = 2;
    expect_reason(&m, &t, HWFIT_SHARD_MLP_WIDTH);
    m = mixtral;
    m.expert_intermediate = 14335;
    expect_reason(&m, &t, HWFIT_SHARD_EXPERT_WIDTH);
    t.layout.tp = 1;
    t.layout.dp = 2;
    t.layout.ep = 2;
    expect_reason(&llama70, &t, HWFIT_SHARD_EXPERTS); /* dense */
    t.layout.ep = 3;
    t.layout.dp = 1;
    t.gpus = 3;
    t.layout.dp = 3;
    expect_reason(&mixtral, &t, HWFIT_SHARD_EXPERTS); /* 8 experts */
    t = seed(2);
    t.layout.dp = 2;
    t.layout.ep = 4;
    expect_reason(&mixtral, &t, HWFIT_SHARD_EXPERT_RANKS); /* 4 does not divide 2 ranks */
    t.layout.ep = 2;
    t.layout.etp = 2;
    expect_reason(&mixtral, &t, HWFIT_SHARD_EXPERT_RANKS); /* 2 x 2 > 2 ranks */
    m = llama8;
    m.layers = 4;
    t = seed(8);
    t.layout.pp = 8;
    expect_reason(&m, &t, HWFIT_SHARD_STAGES);
    t = seed(3);
    t.layout.pp = 3;
    t.layout.uneven_layers = 0;
    expect_reason(&llama8, &t, HWFIT_SHARD_UNEVEN);
    t = seed(2);
    t.layout.pp = 2;
    t.layout.virtual_stages = 2;
    expect_reason(&llama8, &t, HWFIT_SHARD_VIRTUAL_STAGES); /* inference */
    t.memory.mode = HWFIT_MEMORY_FULL;
    t.layout.pp = 1;
    t.layout.dp = 2;
    expect_reason(&llama8, &t, HWFIT_SHARD_VIRTUAL_STAGES); /* pp = 1 */
    t.layout.pp = 2;
    t.layout.dp = 1;
    t.layout.virtual_stages = 3; /* 32 layers / 6 chunks, even layers required */
    t.layout.uneven_layers = 0;
    expect_reason(&llama8, &t, HWFIT_SHARD_VIRTUAL_LAYERS);
    t.layout.uneven_layers = 1; /* Megatron-Core's split: 34 units over 6 chunks */
    expect_reason(&llama8, &t, HWFIT_SHARD_VALID);
    t.layout.virtual_stages = 2;
    t.layout.global_batch = 3;
    expect_reason(&llama8, &t, HWFIT_SHARD_VIRTUAL_MICROBATCHES);
    t.layout.global_batch = 4;
    expect_reason(&llama8, &t, HWFIT_SHARD_VALID);
    t = seed(1);
    t.memory.mode = HWFIT_MEMORY_FULL;
    t.layout.sequence_parallel = 1;
    expect_reason(&llama8, &t, HWFIT_SHARD_SEQUENCE_PARALLEL); /* tp = 1 */
    t = seed(2);
    t.layout.tp = 2;
    t.layout.sequence_parallel = 1;
    expect_reason(&llama8, &t, HWFIT_SHARD_SEQUENCE_PARALLEL); /* inference */
    t.memory.mode = HWFIT_MEMORY_FULL;
    t.memory.context = 4095;
    expect_reason(&llama8, &t, HWFIT_SHARD_CONTEXT); /* not divisible by tp */
    t.layout.sequence_parallel = 0;
    t.layout.tp = 1;
    t.layout.cp = 2;
    expect_reason(&llama8, &t, HWFIT_SHARD_CONTEXT); /* nor by cp */
    t.memory.context = 4096;
    t.layout.cp = 1;
    t.layout.dp = 2;
    t.layout.global_batch = 3;
    expect_reason(&llama8, &t, HWFIT_SHARD_BATCH);
    t.layout.global_batch = 0;
    t.layout.offload = HWFIT_SHARD_OFFLOAD_OPTIMIZER;
    expect_reason(&llama8, &t, HWFIT_SHARD_OFFLOAD_ZERO);
    t.layout.zero_stage = 2;
    expect_reason(&llama8, &t, HWFIT_SHARD_VALID);
    t.layout.offload = HWFIT_SHARD_OFFLOAD_PARAMS;
    expect_reason(&llama8, &t, HWFIT_SHARD_OFFLOAD_ZERO);
    t.memory.mode = HWFIT_MEMORY_INFERENCE;
    t.layout.zero_stage = 0;
    expect_reason(&llama8, &t, HWFIT_SHARD_OFFLOAD_INFERENCE);
    t.layout.offload = 0;
    t.layout.zero_stage = 1;
    expect_reason(&llama8, &t, HWFIT_SHARD_ZERO_INFERENCE);
    /* Every reason has a name and a message; unknown values have placeholders. */
    for (int r = 0; r < HWFIT_SHARD_REASON_COUNT_; r++) {
        cr_assert_neq(strcmp(hwfit_shard_reason_name((hwfit_shard_reason)r), "unknown"), 0);
        cr_assert_neq(strcmp(hwfit_shard_reason_str((hwfit_shard_reason)r), "unknown reason"), 0);
    }
    cr_assert_str_eq(hwfit_shard_reason_name(HWFIT_SHARD_REASON_COUNT_), "unknown");
    cr_assert_str_eq(hwfit_shard_reason_str((hwfit_shard_reason)-1), "unknown reason");
}

/* ---- bad input ------------------------------------------------------------------------------- */

Test(shard, bad_inputs_are_refused_without_touching_the_output) {
    hwfit_shard_out o, poison;
    memset(&o, 0x5a, sizeof o);
    poison = o;
    hwfit_shard_in good = seed(8);
    good.layout.tp = 8;
    cr_assert_eq(hwfit_shard_estimate(NULL, &good, &o), HWFIT_EINVAL);
    cr_assert_eq(hwfit_shard_estimate(&llama70, NULL, &o), HWFIT_EINVAL);
    cr_assert_eq(hwfit_shard_estimate(&llama70, &good, NULL), HWFIT_EINVAL);
    hwfit_shard_in in;
#define EXPECT(st, stmt)                                                                       \
    do {                                                                                       \
        in = good;                                                                             \
        stmt;                                                                                  \
        cr_assert_eq(hwfit_shard_estimate(&llama70, &in, &o), st, "%s", #stmt);                \
        cr_assert_eq(memcmp(&o, &poison, sizeof o), 0, "%s", #stmt);                           \
    } while (0)
    EXPECT(HWFIT_EDOM, in.capacity_bytes = 0);
    EXPECT(HWFIT_EDOM, in.capacity_bytes = NAN);
    EXPECT(HWFIT_EDOM, in.capacity_bytes = INFINITY);
    EXPECT(HWFIT_EDOM, in.utilization = 0);
    EXPECT(HWFIT_EDOM, in.utilization = 1.01);
    EXPECT(HWFIT_EDOM, in.reserve_bytes = -1);
    EXPECT(HWFIT_EDOM, in.comm_group_bytes = -1);
    EXPECT(HWFIT_EDOM, in.comm_group_bytes = 0.5);
    EXPECT(HWFIT_EDOM, in.bucket_bytes = NAN);
    EXPECT(HWFIT_EDOM, in.reduce_bucket_elements = 0);
    EXPECT(HWFIT_EDOM, in.reduce_bucket_elements = 2.5);
    EXPECT(HWFIT_EDOM, in.reduce_bucket_elements = NAN);
    EXPECT(HWFIT_EDOM, in.overlap_comm = 2);
    EXPECT(HWFIT_EDOM, in.memory.zero_buckets = -1);
    EXPECT(HWFIT_EDOM, in.memory.no_reshard_after_forward = 2);
    EXPECT(HWFIT_EDOM, in.memory.unsharded_grad_bytes = 9);
    EXPECT(HWFIT_EDOM, in.memory.unsharded_grad_bytes = 3);
    EXPECT(HWFIT_EDOM, in.memory.unsharded_grad_bytes = 65535);
    EXPECT(HWFIT_EDOM, in.memory.reduce_held_bytes = 9);
    EXPECT(HWFIT_EDOM, in.memory.fsdp_wrap_residue = 2);
    EXPECT(HWFIT_EDOM, in.host_memory_bytes = -1);
    EXPECT(HWFIT_EDOM, in.host_utilization = 0);
    EXPECT(HWFIT_EDOM, in.host_buffer_factor = 0.5);
    EXPECT(HWFIT_EDOM, in.zero3_live_layers = 0);
    EXPECT(HWFIT_EDOM, in.zero3_live_layers = 65);
    EXPECT(HWFIT_EDOM, in.memory.overhead_bytes = -1);
    EXPECT(HWFIT_EDOM, in.gpus = 0);
    EXPECT(HWFIT_EDOM, in.gpus = HWFIT_SHARD_MAX_GPUS + 1);
    EXPECT(HWFIT_EDOM, in.layout.tp = 0);
    EXPECT(HWFIT_EDOM, in.layout.pp = 0);
    EXPECT(HWFIT_EDOM, in.layout.dp = 0);
    EXPECT(HWFIT_EDOM, in.layout.cp = 0);
    EXPECT(HWFIT_EDOM, in.layout.ep = 0);
    EXPECT(HWFIT_EDOM, in.layout.virtual_stages = 0);
    EXPECT(HWFIT_EDOM, in.layout.micro_batch = 0);
    EXPECT(HWFIT_EDOM, in.layout.zero_stage = 4);
    EXPECT(HWFIT_EDOM, in.layout.offload = 4);
    EXPECT(HWFIT_EDOM, in.memory.context = 0);
    EXPECT(HWFIT_EDOM, in.memory.batch = 0);
    EXPECT(HWFIT_EINVAL, in.memory.mode = (hwfit_memory_mode)4);
    EXPECT(HWFIT_EINVAL, in.layout.recompute = (hwfit_memory_recompute)3);
    EXPECT(HWFIT_EINVAL, in.memory.kv.id = HWFIT_DTYPE_COUNT_);
    EXPECT(HWFIT_EUNSUPPORTED, in.memory.mtp = 1);
    EXPECT(HWFIT_EUNSUPPORTED, (in.memory.mode = HWFIT_MEMORY_FULL, in.memory.weights = dt("int4")));
    EXPECT(HWFIT_ERANGE, (in.memory.context = 1ull << 40, in.memory.batch = 1ull << 40));
    hwfit_model bad = llama70;
    bad.heads = 0;
    cr_assert_eq(hwfit_shard_estimate(&bad, &good, &o), HWFIT_EDOM);
    cr_assert_eq(memcmp(&o, &poison, sizeof o), 0);

    /* card_at: the stage must exist. */
    hwfit_shard_card c, cpoison;
    memset(&c, 0x5a, sizeof c);
    cpoison = c;
    cr_assert_eq(hwfit_shard_card_at(&llama70, &good, 1, &c), HWFIT_EDOM);
    cr_assert_eq(hwfit_shard_card_at(NULL, &good, 0, &c), HWFIT_EINVAL);
    cr_assert_eq(hwfit_shard_card_at(&llama70, NULL, 0, &c), HWFIT_EINVAL);
    cr_assert_eq(hwfit_shard_card_at(&llama70, &good, 0, NULL), HWFIT_EINVAL);
    in = good;
    in.layout.tp = 3;
    cr_assert_eq(hwfit_shard_card_at(&llama70, &in, 0, &c), HWFIT_ELAYOUT);
    cr_assert_eq(memcmp(&c, &cpoison, sizeof c), 0);

    /* check */
    hwfit_shard_reason why = (hwfit_shard_reason)77;
    cr_assert_eq(hwfit_shard_check(NULL, &good, &why), HWFIT_EINVAL);
    cr_assert_eq(hwfit_shard_check(&llama70, NULL, &why), HWFIT_EINVAL);
    cr_assert_eq(hwfit_shard_check(&llama70, &good, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit_shard_check(&bad, &good, &why), HWFIT_EDOM);
    in = good;
    in.layout.zero_stage = 9;
    cr_assert_eq(hwfit_shard_check(&llama70, &in, &why), HWFIT_EDOM);
    in = good;
    in.memory.mode = (hwfit_memory_mode)-1;
    cr_assert_eq(hwfit_shard_check(&llama70, &in, &why), HWFIT_EINVAL);
    cr_assert_eq(why, (hwfit_shard_reason)77);
}

Test(shard, bad_search_inputs_are_refused) {
    hwfit_shard_in in = seed(8);
    hwfit_shard_space sp;
    hwfit_shard_space_init(&sp);
    hwfit_shard_result r[2];
    hwfit_shard_search_out s, spoison;
    memset(&s, 0x5a, sizeof s);
    spoison = s;
    cr_assert_eq(hwfit_shard_search(NULL, &in, &sp, r, 2, &s), HWFIT_EINVAL);
    cr_assert_eq(hwfit_shard_search(&llama8, NULL, &sp, r, 2, &s), HWFIT_EINVAL);
    cr_assert_eq(hwfit_shard_search(&llama8, &in, NULL, r, 2, &s), HWFIT_EINVAL);
    cr_assert_eq(hwfit_shard_search(&llama8, &in, &sp, NULL, 2, &s), HWFIT_EINVAL);
    cr_assert_eq(hwfit_shard_search(&llama8, &in, &sp, r, 2, NULL), HWFIT_EINVAL);
    hwfit_shard_space bad = sp;
    bad.max_micro_batch = 0;
    cr_assert_eq(hwfit_shard_search(&llama8, &in, &bad, r, 2, &s), HWFIT_EDOM);
    bad = sp;
    bad.zero_stage = 4;
    cr_assert_eq(hwfit_shard_search(&llama8, &in, &bad, r, 2, &s), HWFIT_EINVAL);
    bad = sp;
    bad.recompute = 7;
    cr_assert_eq(hwfit_shard_search(&llama8, &in, &bad, r, 2, &s), HWFIT_EINVAL);
    bad = sp;
    bad.sequence_parallel = 2;
    cr_assert_eq(hwfit_shard_search(&llama8, &in, &bad, r, 2, &s), HWFIT_EINVAL);
    bad = sp;
    bad.offload = 8;
    cr_assert_eq(hwfit_shard_search(&llama8, &in, &bad, r, 2, &s), HWFIT_EINVAL);
    hwfit_shard_in x = in;
    x.capacity_bytes = -1;
    cr_assert_eq(hwfit_shard_search(&llama8, &x, &sp, r, 2, &s), HWFIT_EDOM);
    x = in;
    x.gpus = 0;
    cr_assert_eq(hwfit_shard_search(&llama8, &x, &sp, r, 2, &s), HWFIT_EDOM);
    x = in;
    x.memory.kv.id = HWFIT_DTYPE_COUNT_;
    cr_assert_eq(hwfit_shard_search(&llama8, &x, &sp, r, 2, &s), HWFIT_EINVAL);
    cr_assert_eq(memcmp(&s, &spoison, sizeof s), 0);
    /* A capacity of 0 counts without writing results. */
    cr_assert_eq(hwfit_shard_search(&llama8, &in, &sp, NULL, 0, &s), HWFIT_OK);
    cr_assert_eq(s.count, 0);
    cr_assert_gt(s.fitting, 0);

    hwfit_shard_iter it;
    memset(&it, 0x5a, sizeof it);
    hwfit_shard_iter ipoison = it;
    cr_assert_eq(hwfit_shard_iter_init(NULL, &llama8, &in, &sp), HWFIT_EINVAL);
    cr_assert_eq(hwfit_shard_iter_init(&it, NULL, &in, &sp), HWFIT_EINVAL);
    cr_assert_eq(hwfit_shard_iter_init(&it, &llama8, NULL, &sp), HWFIT_EINVAL);
    cr_assert_eq(hwfit_shard_iter_init(&it, &llama8, &in, NULL), HWFIT_EINVAL);
    bad = sp;
    bad.max_virtual_stages = 0;
    cr_assert_eq(hwfit_shard_iter_init(&it, &llama8, &in, &bad), HWFIT_EDOM);
    cr_assert_eq(memcmp(&it, &ipoison, sizeof it), 0);
    hwfit_layout l;
    cr_assert_eq(hwfit_shard_iter_next(NULL, &l), 0);
    cr_assert_eq(hwfit_shard_iter_init(&it, &llama8, &in, &sp), HWFIT_OK);
    cr_assert_eq(hwfit_shard_iter_next(&it, NULL), 0);

    uint32_t n = 77;
    cr_assert_eq(hwfit_shard_min_gpus(&llama8, &in, &sp, 0, &n, NULL), HWFIT_EDOM);
    cr_assert_eq(hwfit_shard_min_gpus(&llama8, &in, &sp, HWFIT_SHARD_MAX_GPUS + 1, &n, NULL),
                 HWFIT_EDOM);
    cr_assert_eq(hwfit_shard_min_gpus(NULL, &in, &sp, 8, &n, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit_shard_min_gpus(&llama8, NULL, &sp, 8, &n, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit_shard_min_gpus(&llama8, &in, NULL, 8, &n, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit_shard_min_gpus(&llama8, &in, &sp, 8, NULL, NULL), HWFIT_EINVAL);
    cr_assert_eq(n, 77);

    uint64_t v = 77;
    in.layout.dp = 8;
    cr_assert_eq(hwfit_shard_max_context(&llama8, &in, 0, &v), HWFIT_EDOM);
    cr_assert_eq(hwfit_shard_max_context(NULL, &in, 8, &v), HWFIT_EINVAL);
    cr_assert_eq(hwfit_shard_max_context(&llama8, NULL, 8, &v), HWFIT_EINVAL);
    cr_assert_eq(hwfit_shard_max_context(&llama8, &in, 8, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit_shard_max_batch(&llama8, &in, 0, &v), HWFIT_EDOM);
    cr_assert_eq(hwfit_shard_max_batch(NULL, &in, 8, &v), HWFIT_EINVAL);
    cr_assert_eq(hwfit_shard_max_batch(&llama8, NULL, 8, &v), HWFIT_EINVAL);
    cr_assert_eq(hwfit_shard_max_batch(&llama8, &in, 8, NULL), HWFIT_EINVAL);
    x = in;
    x.layout.tp = 3;
    cr_assert_eq(hwfit_shard_max_context(&llama8, &x, 8, &v), HWFIT_ELAYOUT);
    cr_assert_eq(hwfit_shard_max_batch(&llama8, &x, 8, &v), HWFIT_ELAYOUT);
    x = in;
    x.utilization = 2;
    cr_assert_eq(hwfit_shard_max_context(&llama8, &x, 8, &v), HWFIT_EDOM);
    cr_assert_eq(hwfit_shard_max_batch(&llama8, &x, 8, &v), HWFIT_EDOM);
    cr_assert_eq(v, 77);
}

Test(shard, offload_names_parse) {
    unsigned o = 99;
    cr_assert_eq(hwfit_shard_offload_parse("optimizer", &o), HWFIT_OK);
    cr_assert_eq(o, HWFIT_SHARD_OFFLOAD_OPTIMIZER);
    cr_assert_eq(hwfit_shard_offload_parse("params", &o), HWFIT_OK);
    cr_assert_eq(o, HWFIT_SHARD_OFFLOAD_PARAMS);
    cr_assert_eq(hwfit_shard_offload_parse("optimizer,params", &o), HWFIT_OK);
    cr_assert_eq(o, 3);
    cr_assert_eq(hwfit_shard_offload_parse("all", &o), HWFIT_OK);
    cr_assert_eq(o, 3);
    cr_assert_eq(hwfit_shard_offload_parse("none", &o), HWFIT_OK);
    cr_assert_eq(o, 0);
    o = 99;
    cr_assert_eq(hwfit_shard_offload_parse("", &o), HWFIT_EPARSE);
    cr_assert_eq(hwfit_shard_offload_parse("optimizer,", &o), HWFIT_EPARSE);
    cr_assert_eq(hwfit_shard_offload_parse("gradients", &o), HWFIT_ENOTFOUND);
    cr_assert_eq(hwfit_shard_offload_parse("Optimizer", &o), HWFIT_ENOTFOUND);
    cr_assert_eq(hwfit_shard_offload_parse(NULL, &o), HWFIT_EINVAL);
    cr_assert_eq(hwfit_shard_offload_parse("all", NULL), HWFIT_EINVAL);
    cr_assert_eq(o, 99);
}

Test(shard, defaults_are_documented_values) {
    hwfit_shard_in in;
    memset(&in, 0x5a, sizeof in);
    hwfit_shard_init(&in);
    cr_assert_eq(in.gpus, 1);
    cr_assert_eq(in.capacity_bytes, 0.0);
    cr_assert_eq(in.utilization, 0.9);
    cr_assert_eq(in.comm_group_bytes, 64.0 * 1048576);
    cr_assert_eq(in.bucket_bytes, 25.0 * 1048576);
    cr_assert_eq(in.reduce_bucket_elements, 5e8); /* DeepSpeed runtime/zero/config.py */
    cr_assert_eq(in.overlap_comm, 0);
    cr_assert_eq(in.memory.zero_buckets, 0);
    cr_assert_eq(in.zero3_live_layers, 2);
    cr_assert_eq(in.host_buffer_factor, 1.0);
    cr_assert_eq(in.layout.tp + in.layout.pp + in.layout.dp + in.layout.cp + in.layout.ep, 5);
    cr_assert_eq(in.layout.uneven_layers, 1);
    hwfit_shard_space sp;
    hwfit_shard_space_init(&sp);
    cr_assert_eq(sp.tp, 0);
    cr_assert_eq(sp.cp, 1);
    cr_assert_eq(sp.zero_stage, HWFIT_SHARD_ANY);
    cr_assert_eq(sp.offload, 0);
    hwfit_layout_init(NULL);
    hwfit_shard_init(NULL);
    hwfit_shard_space_init(NULL);
}

/* ---- the peak by phase ------------------------------------------------------------------- */

static void check_card_phases(const hwfit_shard_card *c) {
    cr_assert_geq(c->allocated_bytes, c->forward_bytes);
    cr_assert_geq(c->allocated_bytes, c->backward_bytes);
    cr_assert_geq(c->allocated_bytes, c->step_bytes);
    cr_assert_geq(c->reserved_bytes, c->allocated_bytes);
    cr_assert_eq(c->peak_bytes, c->reserved_bytes + c->overhead_bytes);
}

/* A card fits when its peak does; each stage's card is the memory layer's phases on its
 * shard; a framework profile changes the choices, never the parameters; more recomputation
 * never raises the peak. */
Test(shard, cards_fit_against_their_peak) {
    const char *profiles[] = {NULL, "torchtune", "deepspeed", "megatron", "fsdp", "hf-trainer"};
    const hwfit_memory_mode modes[] = {HWFIT_MEMORY_FULL, HWFIT_MEMORY_LORA};
    for (size_t pi = 0; pi < sizeof profiles / sizeof profiles[0]; pi++)
        for (size_t mi = 0; mi < 2; mi++)
            for (uint32_t zero = 0; zero <= 3; zero += 3) {
                hwfit_shard_in in = full_8b(8, zero);
                in.memory.mode = modes[mi];
                in.memory.context = 2048;
                if (profiles[pi])
                    cr_assert_eq(hwfit_memory_profile_apply(profiles[pi], 8, &in.memory, NULL),
                                 HWFIT_OK);
                uint64_t prev = UINT64_MAX, params = 0;
                for (int rc = HWFIT_MEMORY_RECOMPUTE_NONE; rc <= HWFIT_MEMORY_RECOMPUTE_FULL; rc++) {
                    in.layout.recompute = (hwfit_memory_recompute)rc;
                    hwfit_shard_out o = estimate_ok(&llama8, &in);
                    check_card_phases(&o.worst);
                    cr_assert_eq(o.gpu_fits, o.worst.peak_bytes <= o.usable_bytes);
                    cr_assert_eq(o.headroom_bytes,
                                 (double)o.usable_bytes - (double)o.worst.peak_bytes);
                    cr_assert_leq(o.worst.peak_bytes, prev, "%s mode %zu zero %u rc %d",
                                  profiles[pi] ? profiles[pi] : "none", mi, zero, rc);
                    prev = o.worst.peak_bytes;
                    if (params == 0) params = o.worst.params;
                    cr_assert_eq(o.worst.params, params);
                }
            }
    /* One card, no ZeRO: the card's phases are the memory estimate's. */
    hwfit_shard_in in = full_8b(1, 0);
    in.memory.context = 2048;
    in.layout.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    in.comm_group_bytes = 0;
    hwfit_shard_out o = estimate_ok(&llama8, &in);
    hwfit_memory_out mo = memory_of_one_card(&llama8, &in);
    cr_assert_eq(o.worst.forward_bytes, mo.forward_bytes);
    cr_assert_eq(o.worst.backward_bytes, mo.backward_bytes);
    cr_assert_eq(o.worst.step_bytes, mo.step_bytes);
    cr_assert_eq(o.worst.peak_bytes, mo.peak_bytes);
    /* The capacity between the peak and the sum of the parts: fits now (the sum did not). */
    cr_assert_lt(o.worst.peak_bytes, o.worst.total_bytes);
    in.capacity_bytes = (double)(o.worst.peak_bytes + o.worst.total_bytes) / 2.0;
    in.utilization = 1.0;
    cr_assert(estimate_ok(&llama8, &in).fits);
}

/* One card: an eager attention's score gradients (memory.c eager_grads) reach the card's
 * backward as memory's, in every recomputation, with the softmax in fp32 or not; flash
 * attention's backward holds none. */
Test(shard, eager_attention_backward_on_one_card_is_the_memory_estimate) {
    const hwfit_memory_recompute rcs[] = {HWFIT_MEMORY_RECOMPUTE_NONE,
                                          HWFIT_MEMORY_RECOMPUTE_SELECTIVE,
                                          HWFIT_MEMORY_RECOMPUTE_FULL};
    for (int fp32 = 0; fp32 < 2; fp32++)
        for (size_t i = 0; i < 3; i++) {
            hwfit_shard_in in = full_8b(1, 0);
            in.memory.mode = HWFIT_MEMORY_LORA;
            in.memory.context = 1024;
            in.memory.dropout = 0;
            in.memory.flash_attention = 0;
            in.memory.softmax_fp32 = fp32;
            in.layout.recompute = rcs[i];
            in.comm_group_bytes = 0;
            hwfit_shard_out o = estimate_ok(&llama8, &in);
            check_card_phases(&o.worst);
            hwfit_memory_in mi = in.memory;
            mi.recompute = rcs[i];
            hwfit_memory_out mo;
            cr_assert_eq(hwfit_memory_estimate(&llama8, &mi, &mo), HWFIT_OK);
            cr_assert_eq(o.worst.activation_bytes, mo.activation_bytes, "fp32 %d rc %zu", fp32, i);
            cr_assert_eq(o.worst.forward_bytes, mo.forward_bytes, "fp32 %d rc %zu", fp32, i);
            cr_assert_eq(o.worst.backward_bytes, mo.backward_bytes, "fp32 %d rc %zu", fp32, i);
            cr_assert_eq(o.worst.peak_bytes, mo.peak_bytes, "fp32 %d rc %zu", fp32, i);
            /* Flash attention: the eager backward's bytes go. */
            in.memory.flash_attention = 1;
            in.memory.softmax_fp32 = 0;
            mi = in.memory;
            mi.recompute = rcs[i];
            hwfit_memory_out mf;
            cr_assert_eq(hwfit_memory_estimate(&llama8, &mi, &mf), HWFIT_OK);
            cr_assert_lt(mf.backward_bytes, mo.backward_bytes);
            cr_assert_eq(estimate_ok(&llama8, &in).worst.backward_bytes, mf.backward_bytes);
        }
}

/* One card: a QLoRA card's phases with the dequantized weight and the previous graph
 * (LitGPT's profile) are the memory estimate's. */
Test(shard, dequant_and_previous_graph_reach_the_card) {
    hwfit_shard_in in = full_8b(1, 0);
    in.memory.mode = HWFIT_MEMORY_QLORA;
    in.memory.context = 512;
    cr_assert_eq(hwfit_memory_profile_apply("litgpt", 1, &in.memory, NULL), HWFIT_OK);
    in.layout.recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    in.comm_group_bytes = 0;
    hwfit_shard_out o = estimate_ok(&llama8, &in);
    check_card_phases(&o.worst);
    hwfit_memory_in mi = in.memory;
    mi.recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    hwfit_memory_out mo;
    cr_assert_eq(hwfit_memory_estimate(&llama8, &mi, &mo), HWFIT_OK);
    cr_assert_gt(mo.dequant_bytes, 0);
    cr_assert_gt(mo.carried_bytes, 0);
    cr_assert_eq(o.worst.forward_bytes, mo.forward_bytes);
    cr_assert_eq(o.worst.backward_bytes, mo.backward_bytes);
    cr_assert_eq(o.worst.step_bytes, mo.step_bytes);
    cr_assert_eq(o.worst.peak_bytes, mo.peak_bytes);
}

/* Unsloth's chunked loss sized on the card (memory.c, hwfit__fused_chunks): one card of a
 * given capacity gives the chunks the memory estimate gives on a card of that size, and a
 * smaller card never fewer chunks. */
Test(shard, fused_chunks_on_one_card_are_the_memory_estimates) {
    const double cards[] = {80.0 * 1073741824.0, 24.0 * 1073741824.0, 16.0 * 1073741824.0};
    uint64_t last = 0;
    for (size_t i = 0; i < sizeof cards / sizeof cards[0]; i++) {
        hwfit_shard_in in = seed(1);
        in.capacity_bytes = cards[i];
        in.memory.mode = HWFIT_MEMORY_QLORA;
        in.memory.context = 2048;
        in.memory.batch = 8;
        in.memory.micro_batch = 8;
        in.memory.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
        in.memory.loss = HWFIT_MEMORY_LOSS_FUSED_CHUNKED;
        in.memory.loss_target_bytes = INFINITY; /* the free memory alone sizes them */
        in.memory.loss_chunks_round_up = 0;
        in.layout.tp = in.layout.pp = in.layout.dp = 1;
        in.layout.micro_batch = 8;
        in.layout.recompute = HWFIT_MEMORY_RECOMPUTE_FULL; /* the layout's overrides */
        hwfit_shard_card c = card_ok(&llama8, &in, 0);
        hwfit_memory_in mi = in.memory;
        mi.card_bytes = cards[i];
        hwfit_memory_out w;
        cr_assert_eq(hwfit_memory_estimate(&llama8, &mi, &w), HWFIT_OK);
        cr_assert_eq(c.weights_bytes, w.weights_bytes);
        cr_assert_eq(c.loss_chunks, w.loss_chunks, "card %g: %llu vs %llu", cards[i],
                     (unsigned long long)c.loss_chunks, (unsigned long long)w.loss_chunks);
        cr_assert_eq(c.loss_chunk_bytes, w.loss_chunk_bytes, "card %g", cards[i]);
        cr_assert_geq(c.loss_chunks, last);
        last = c.loss_chunks;
    }
    cr_assert_gt(last, 1);
}

/* HWFIT_ATTENTION_SDPA on one card: a model with attention sinks runs eager (the card is
 * the eager card's), one without runs fused (the flash card's), as memory resolves it. */
Test(shard, sdpa_attention_resolves_by_the_model_on_a_card) {
    for (int sinks = 0; sinks < 2; sinks++) {
        hwfit_model m = llama8;
        m.attention_sinks = sinks;
        hwfit_shard_in in = full_8b(1, 0);
        in.memory.mode = HWFIT_MEMORY_LORA;
        in.memory.context = 2048;
        in.memory.dropout = 0;
        in.comm_group_bytes = 0;
        in.memory.flash_attention = HWFIT_ATTENTION_SDPA;
        hwfit_shard_out sdpa = estimate_ok(&m, &in);
        in.memory.flash_attention = sinks ? HWFIT_ATTENTION_EAGER : HWFIT_ATTENTION_FLASH;
        hwfit_shard_out same = estimate_ok(&m, &in);
        in.memory.flash_attention = sinks ? HWFIT_ATTENTION_FLASH : HWFIT_ATTENTION_EAGER;
        hwfit_shard_out other = estimate_ok(&m, &in);
        cr_assert_eq(sdpa.worst.backward_bytes, same.worst.backward_bytes, "sinks %d", sinks);
        cr_assert_eq(sdpa.worst.peak_bytes, same.worst.peak_bytes, "sinks %d", sinks);
        cr_assert_neq(sdpa.worst.activation_bytes, other.worst.activation_bytes, "sinks %d",
                      sinks);
    }
}

/* One card: the earlier records' segments (memory.c, hwfit__records) are the memory
 * estimate's, capped by the card's capacity. */
Test(shard, record_lengths_on_one_card_are_the_memory_estimate) {
    hwfit_shard_in in = full_8b(1, 0);
    in.memory.mode = HWFIT_MEMORY_LORA;
    in.memory.context = 4096;
    in.memory.loss = HWFIT_MEMORY_LOSS_UPCAST_FREED;
    in.memory.logits_freed = 1;
    in.memory.record_lengths[0] = 1000;
    in.memory.record_lengths[1] = 3000;
    in.layout.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    in.comm_group_bytes = 0;
    hwfit_shard_out o = estimate_ok(&llama8, &in);
    hwfit_memory_out mo = memory_of_one_card(&llama8, &in);
    cr_assert_gt(mo.records_bytes, 0);
    cr_assert_eq(o.worst.reserved_bytes, mo.reserved_bytes);
    cr_assert_eq(o.worst.peak_bytes, mo.peak_bytes);
    /* A card smaller than the reading: the records go first, down to the card. */
    in.capacity_bytes = (double)(mo.peak_bytes - mo.records_bytes / 2);
    hwfit_shard_out c = estimate_ok(&llama8, &in);
    cr_assert_eq(c.worst.peak_bytes, mo.peak_bytes - mo.records_bytes / 2);
}

/* One card: the head's kept copy (head_cast_kept on an fp32 head under autocast) and TRL's
 * chunked loss are the memory estimate's; two tensor-parallel ranks split the head's copy
 * with the vocabulary, so each card's forward holds less. */
Test(shard, head_cast_and_trl_chunks_on_one_card_are_the_memory_estimate) {
    static const hwfit_memory_loss losses[] = {HWFIT_MEMORY_LOSS_UPCAST_FREED,
                                               HWFIT_MEMORY_LOSS_TRL_CHUNKED};
    for (size_t k = 0; k < 2; k++) {
        hwfit_shard_in in = full_8b(1, 0);
        in.memory.mode = HWFIT_MEMORY_LORA;
        in.memory.weights = hwfit_dtype_make(HWFIT_DTYPE_FP32);
        in.memory.context = 2048;
        in.memory.loss = losses[k];
        in.memory.loss_chunk_tokens = 256;
        in.memory.logits_freed = 1;
        in.memory.head_cast_kept = 1;
        in.layout.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
        in.comm_group_bytes = 0;
        hwfit_shard_out o = estimate_ok(&llama8, &in);
        hwfit_memory_out mo = memory_of_one_card(&llama8, &in);
        cr_assert_eq(mo.head_cast_bytes, 128256ull * 4096 * 2, "loss %d", (int)losses[k]);
        cr_assert_eq(o.worst.forward_bytes, mo.forward_bytes, "loss %d", (int)losses[k]);
        cr_assert_eq(o.worst.peak_bytes, mo.peak_bytes, "loss %d", (int)losses[k]);
        in.memory.head_cast_kept = 0;
        hwfit_shard_out off = estimate_ok(&llama8, &in);
        if (k == 0) cr_assert_eq(o.worst.forward_bytes - off.worst.forward_bytes,
                                 mo.head_cast_bytes);
        else cr_assert_eq(o.worst.forward_bytes, off.worst.forward_bytes);
        in.memory.head_cast_kept = 1;
        in.layout.tp = 2;
        in.gpus = 2;
        hwfit_shard_out tp = estimate_ok(&llama8, &in);
        cr_assert_lt(tp.worst.forward_bytes, o.worst.forward_bytes, "loss %d", (int)losses[k]);
    }
}

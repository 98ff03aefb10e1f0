/* fuzz_calc_model.c - libFuzzer target for the model and memory calculations (lib/model.c,
 * lib/memory.c) and the format sizes of lib/dtype.c.
 *
 * A model is one of four presets (dense GQA, Mixtral-style MoE, DeepSeek-style MLA with
 * dense first layers and an extra prediction layer, Gemma-style sliding windows), with
 * fields and layer flags mutated from the bytes. Then every entry point runs on it:
 * parameters (parts sum to the total, active <= total), layer ranges (layers of every range
 * add up), KV cache (the product it promises; grows with the context), FLOPs (forward =
 * matmul + attention; grows with the context), the memory footprint (parts sum to the
 * total; grows with the context; a pipeline split into two stages holds the same weights
 * and KV cache as the whole device), LoRA parameters. Outputs are poisoned and must stay
 * untouched on error; _validate must agree with every calculation.
 */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define POISON(x) memset(&(x), 0x5a, sizeof(x))
#define UNTOUCHED(x, p) FZ_CHECK(memcmp(&(x), &(p), sizeof(x)) == 0)

static void preset(hwfit_model *m, unsigned which) {
    hwfit_model_init(m);
    m->hidden = 4096;
    m->heads = 32;
    m->kv_heads = 8;
    m->intermediate = 14336;
    m->vocab = 128256;
    m->layers = 32;
    switch (which % 4) {
    case 0: /* Llama 3.1 8B */
        break;
    case 1: /* Mixtral 8x7B: every layer MoE, 8 experts, top 2 */
        m->vocab = 32000;
        m->experts = 8;
        m->experts_per_token = 2;
        m->expert_intermediate = 14336;
        (void)hwfit_model_set_moe_layers(m, 0, 1, 0);
        break;
    case 2: /* DeepSeek-V3 shape, smaller: MLA, 3 dense layers, shared expert, MTP */
        m->attention = HWFIT_MODEL_ATTENTION_MLA;
        m->layers = 8;
        m->heads = 16;
        m->q_lora_rank = 1536;
        m->kv_lora_rank = 512;
        m->qk_nope_head_dim = 128;
        m->qk_rope_head_dim = 64;
        m->v_head_dim = 128;
        m->intermediate = 18432;
        m->experts = 16;
        m->experts_per_token = 4;
        m->expert_intermediate = 2048;
        m->shared_experts = 1;
        m->shared_expert_intermediate = 2048;
        m->router_bias = 1;
        m->mtp_layers = 1;
        (void)hwfit_model_set_moe_layers(m, 3, 1, 0);
        break;
    default: /* Gemma-2 9B style: alternating sliding layers, 4 norms, tied */
        m->hidden = 3584;
        m->heads = 16;
        m->head_dim = 256;
        m->layers = 42;
        m->vocab = 256000;
        m->norms_per_layer = 4;
        m->tie_embeddings = 1;
        m->sliding_window = 4096;
        (void)hwfit_model_set_sliding_layers(m, HWFIT_MODEL_SLIDING_PERIOD, 2);
        break;
    }
}

static void mutate(fz *f, hwfit_model *m) {
    uint32_t *u32[] = {&m->layers,           &m->heads,           &m->kv_heads,
                       &m->head_dim,         &m->v_head_dim,      &m->q_lora_rank,
                       &m->kv_lora_rank,     &m->qk_nope_head_dim, &m->qk_rope_head_dim,
                       &m->experts,          &m->experts_per_token, &m->shared_experts,
                       &m->norms_per_layer,  &m->mtp_layers};
    for (size_t i = 0; i < sizeof u32 / sizeof u32[0]; i++)
        if (!fz_keep(f)) *u32[i] = fz_u32(f);
    uint64_t *u64[] = {&m->hidden, &m->vocab, &m->intermediate, &m->expert_intermediate,
                       &m->shared_expert_intermediate, &m->sliding_window, &m->max_context};
    for (size_t i = 0; i < sizeof u64 / sizeof u64[0]; i++)
        if (!fz_keep(f)) *u64[i] = fz_u64(f);
    int *flags[] = {&m->q_bias, &m->k_bias, &m->v_bias, &m->o_bias, &m->mlp_bias, &m->qk_norm,
                    &m->shared_expert_gate, &m->router_bias, &m->tie_embeddings};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (!fz_keep(f)) *flags[i] = fz_u8(f) & 1;
    if (!fz_keep(f)) m->attention = (hwfit_model_attention)fz_enum(f, 2);
    if (!fz_keep(f)) m->mlp = (hwfit_model_mlp)fz_enum(f, 2);
    if (!fz_keep(f)) m->norm = (hwfit_model_norm)fz_enum(f, 2);
    /* Arguments are read into variables first: gcc and clang order calls differently. */
    if (!fz_keep(f)) {
        uint32_t first = fz_u32(f), step = fz_u32(f) % 8, offset = fz_u8(f) % 4;
        hwfit_status st = hwfit_model_set_moe_layers(m, first, step, offset);
        FZ_CHECK(st == HWFIT_OK || st == HWFIT_EDOM);
    }
    if (!fz_keep(f)) {
        hwfit_model_sliding rule = (hwfit_model_sliding)fz_enum(f, 4);
        uint32_t param = fz_u8(f) % 8;
        hwfit_status st = hwfit_model_set_sliding_layers(m, rule, param);
        FZ_CHECK(st == HWFIT_OK || st == HWFIT_EDOM || st == HWFIT_EINVAL);
    }
    while (!fz_keep(f)) {
        uint32_t i = fz_u16(f) % HWFIT_MODEL_MAX_LAYERS;
        m->layer_flags[i] = fz_u8(f);
    }
}

static hwfit_dtype some_dtype(fz *f, hwfit_dtype def) {
    if (fz_keep(f)) return def;
    hwfit_dtype d;
    d.id = (hwfit_dtype_id)fz_enum(f, HWFIT_DTYPE_COUNT_);
    d.group_size = fz_u8(f) & 1 ? fz_u32(f) : 0;
    return d;
}

static void check_params(const hwfit_model *m, const hwfit_model_param_counts *p) {
    uint64_t parts = p->embedding + p->head + p->attention + p->mlp + p->experts +
                     p->shared_experts + p->router + p->norms;
    FZ_CHECK(parts == p->total); /* the library checked each sum for overflow */
    FZ_CHECK(p->active <= p->total);
    FZ_CHECK(p->dense_layers + p->moe_layers == m->layers);
    FZ_CHECK(p->embedding == m->vocab * m->hidden);
    FZ_CHECK(p->head == (m->tie_embeddings ? 0 : p->embedding));
    FZ_CHECK(p->mtp == (uint64_t)p->mtp_layers * p->mtp_layer);
    FZ_CHECK(p->dense.active == p->dense.total);
    FZ_CHECK(p->moe.active <= p->moe.total);
    /* Every layer, as one range, holds what the totals say. */
    hwfit_model_range r;
    FZ_CHECK(hwfit_model_layer_range(m, 0, m->layers, &r) == HWFIT_OK);
    FZ_CHECK(r.params == p->total - p->embedding - p->head - p->final_norm);
    FZ_CHECK(r.dense_layers == p->dense_layers && r.moe_layers == p->moe_layers);
    FZ_CHECK(r.sliding_layers + r.full_layers == m->layers);
}

static void ranges(fz *f, const hwfit_model *m, hwfit_status model_st) {
    uint32_t first = fz_u32(f), count = fz_u32(f);
    hwfit_model_range r, poison;
    POISON(r);
    poison = r;
    hwfit_status st = hwfit_model_layer_range(m, first, count, &r);
    int valid = count >= 1 && first < m->layers && count <= m->layers - first;
    FZ_CHECK(st == (model_st != HWFIT_OK ? model_st : valid ? HWFIT_OK : HWFIT_EDOM));
    if (st != HWFIT_OK) {
        UNTOUCHED(r, poison);
        return;
    }
    FZ_CHECK(r.layers == count && r.active <= r.params);
    if (count >= 2) { /* two halves add up */
        hwfit_model_range a, b;
        uint32_t k = count / 2;
        FZ_CHECK(hwfit_model_layer_range(m, first, k, &a) == HWFIT_OK);
        FZ_CHECK(hwfit_model_layer_range(m, first + k, count - k, &b) == HWFIT_OK);
        FZ_CHECK(a.params + b.params == r.params && a.active + b.active == r.active);
        FZ_CHECK(a.moe_layers + b.moe_layers == r.moe_layers);
    }
}

static void kv(fz *f, const hwfit_model *m) {
    hwfit_model_kv_in in;
    hwfit_model_kv_init(&in);
    in.dtype = some_dtype(f, in.dtype);
    if (!fz_keep(f)) in.batch = fz_u64(f);
    if (!fz_keep(f)) in.context = fz_u64(f);
    if (!fz_keep(f)) in.first_layer = fz_u32(f);
    if (!fz_keep(f)) in.layer_count = fz_u32(f);
    if (!fz_keep(f)) in.include_mtp = fz_u8(f) & 1;
    hwfit_model_kv_out out, poison;
    POISON(out);
    poison = out;
    hwfit_problem p;
    hwfit_status st = hwfit_model_kv(m, &in, &out);
    fz_check_problem(st, hwfit_model_kv_validate(m, &in, &p), &p);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_EINVAL || st == HWFIT_EDOM || st == HWFIT_ERANGE);
    if (st != HWFIT_OK) {
        UNTOUCHED(out, poison);
        return;
    }
    FZ_CHECK(out.sliding_tokens <= out.full_tokens && out.full_tokens == in.context);
    FZ_CHECK(out.bytes == in.batch *
                              (out.full_layers * out.full_tokens +
                               out.sliding_layers * out.sliding_tokens) *
                              out.layer_bytes_per_token);
    FZ_CHECK(out.bytes_per_token ==
             out.layer_bytes_per_token * (out.full_layers + out.sliding_layers));
    if (in.context < UINT64_MAX / 2) { /* more context never shrinks the cache */
        hwfit_model_kv_out more;
        in.context *= 2;
        st = hwfit_model_kv(m, &in, &more);
        FZ_CHECK(st == HWFIT_OK || st == HWFIT_ERANGE);
        if (st == HWFIT_OK) FZ_CHECK(more.bytes >= out.bytes);
    }
}

static void flops(fz *f, const hwfit_model *m, hwfit_status model_st) {
    uint64_t context = fz_keep(f) ? 4096 : fz_u64(f);
    hwfit_model_flops_out out, poison;
    POISON(out);
    poison = out;
    hwfit_status st = hwfit_model_flops(m, context, &out);
    FZ_CHECK(st == (model_st != HWFIT_OK ? model_st : context ? HWFIT_OK : HWFIT_EDOM));
    if (st != HWFIT_OK) {
        UNTOUCHED(out, poison);
        return;
    }
    fz_check_doubles(&out.matmul_flop, 4, 1);
    FZ_CHECK(out.forward_flop == out.matmul_flop + out.attention_flop);
    FZ_CHECK(out.training_flop == 3.0 * out.forward_flop);
    if (context < UINT64_MAX / 2) {
        hwfit_model_flops_out more;
        FZ_CHECK(hwfit_model_flops(m, context * 2, &more) == HWFIT_OK);
        FZ_CHECK(more.forward_flop >= out.forward_flop);
    }
}

static uint64_t sum_parts(const hwfit_memory_out *o) {
    return o->weights_bytes + o->kv_bytes + o->activation_bytes + o->gradient_bytes +
           o->optimizer_bytes + o->overhead_bytes;
}

static void memory(fz *f, const hwfit_model *m) {
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    if (!fz_keep(f)) in.mode = (hwfit_memory_mode)fz_enum(f, 4);
    else in.mode = (hwfit_memory_mode)(fz_u8(f) % 4);
    in.weights = some_dtype(f, in.weights);
    in.unquantized = some_dtype(f, in.unquantized);
    in.kv = some_dtype(f, in.kv);
    in.gradients = some_dtype(f, in.gradients);
    in.activations = some_dtype(f, in.activations);
    in.lora_dtype = some_dtype(f, in.lora_dtype);
    in.qlora_base = some_dtype(f, in.qlora_base);
    uint64_t *u64[] = {&in.batch, &in.context, &in.prefill_chunk, &in.micro_batch};
    for (size_t i = 0; i < sizeof u64 / sizeof u64[0]; i++)
        if (!fz_keep(f)) *u64[i] = fz_u64(f);
    uint32_t *u32[] = {&in.tensor_parallel, &in.lora_rank, &in.first_layer, &in.layer_count};
    for (size_t i = 0; i < sizeof u32 / sizeof u32[0]; i++)
        if (!fz_keep(f)) *u32[i] = fz_u32(f);
    if (!fz_keep(f)) in.overhead_bytes = fz_double(f);
    if (!fz_keep(f)) in.lora_targets = fz_u32(f);
    if (!fz_keep(f)) in.optimizer = (hwfit_memory_optimizer)fz_enum(f, 3);
    if (!fz_keep(f)) in.recompute = (hwfit_memory_recompute)fz_enum(f, 3);
    int *flags[] = {&in.keep_embeddings, &in.master_weights, &in.flash_attention, &in.dropout,
                    &in.sequence_parallel, &in.embedding, &in.head, &in.mtp};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (!fz_keep(f)) *flags[i] = fz_u8(f) & 1;

    hwfit_memory_out out, poison;
    POISON(out);
    poison = out;
    hwfit_problem p;
    hwfit_status st = hwfit_memory_estimate(m, &in, &out);
    fz_check_problem(st, hwfit_memory_validate(m, &in, &p), &p);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_EINVAL || st == HWFIT_EDOM || st == HWFIT_ERANGE ||
             st == HWFIT_EUNSUPPORTED);
    if (st != HWFIT_OK) {
        UNTOUCHED(out, poison);
        return;
    }
    FZ_CHECK(sum_parts(&out) == out.total_bytes);
    FZ_CHECK(out.trainable_params <= out.params + out.adapter_params);
    FZ_CHECK((out.adapter_params != 0) <=
             (in.mode == HWFIT_MEMORY_LORA || in.mode == HWFIT_MEMORY_QLORA));
    FZ_CHECK(in.mode == HWFIT_MEMORY_INFERENCE ? out.gradient_bytes == 0 && out.trainable_params == 0
                                               : out.kv_bytes == 0);
    FZ_CHECK(out.layers >= 1 && out.layers <= m->layers);
    FZ_CHECK(out.activation_bytes >= out.activation_other_bytes);

    /* More context never lowers the footprint. */
    if (in.context < UINT64_MAX / 2) {
        hwfit_memory_in more = in;
        more.context *= 2;
        hwfit_memory_out o2;
        st = hwfit_memory_estimate(m, &more, &o2);
        FZ_CHECK(st == HWFIT_OK || st == HWFIT_ERANGE);
        if (st == HWFIT_OK) FZ_CHECK(o2.total_bytes >= out.total_bytes);
    }
    /* Two pipeline stages hold the weights and KV cache of the whole device: the same
     * bytes, plus one more copy of a tied head (the last stage lacks the embedding). */
    if (in.first_layer == 0 && out.layers == m->layers && m->layers >= 2 && in.embedding &&
        in.head && !in.mtp) {
        hwfit_memory_in a = in, b = in;
        a.layer_count = m->layers / 2;
        a.head = 0;
        b.first_layer = a.layer_count;
        b.layer_count = m->layers - a.layer_count;
        b.embedding = 0;
        hwfit_memory_out oa, ob;
        FZ_CHECK(hwfit_memory_estimate(m, &a, &oa) == HWFIT_OK);
        st = hwfit_memory_estimate(m, &b, &ob);
        if (st == HWFIT_ERANGE && m->tie_embeddings) return; /* the head's copy overflows */
        FZ_CHECK(st == HWFIT_OK);
        /* Sums compared without wrapping: two stages of a model near 2^64 parameters each
         * hold more than 2^63 (issue 21: oa.params + ob.params wrapped and the check
         * failed on a valid answer; tests/fuzz/corpus/calc_model/finding-stage-sum-wraps). */
        FZ_CHECK(ob.kv_bytes <= out.kv_bytes && oa.kv_bytes == out.kv_bytes - ob.kv_bytes);
        FZ_CHECK(ob.params >= out.params || oa.params >= out.params - ob.params);
        if (!m->tie_embeddings) {
            FZ_CHECK(ob.params <= out.params && oa.params == out.params - ob.params);
            if (in.mode != HWFIT_MEMORY_LORA && in.mode != HWFIT_MEMORY_QLORA)
                FZ_CHECK(ob.weights_bytes <= out.weights_bytes &&
                         oa.weights_bytes == out.weights_bytes - ob.weights_bytes);
        }
    }
}

static void lora(fz *f, const hwfit_model *m) {
    uint32_t rank = fz_keep(f) ? 16 : fz_u32(f);
    unsigned targets = fz_keep(f) ? HWFIT_LORA_ALL : fz_u32(f);
    uint64_t n = 0x5a5a5a5a;
    hwfit_status st = hwfit_memory_lora_params(m, rank, targets, &n);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_EINVAL || st == HWFIT_EDOM || st == HWFIT_ERANGE);
    if (st != HWFIT_OK) FZ_CHECK(n == 0x5a5a5a5a);
    /* Attention matrices exist in every layer; a gate-only target on a plain MLP has none. */
    else if ((targets & HWFIT_LORA_ATTENTION) != 0) FZ_CHECK(n > 0);
}

static void dtype_sizes(fz *f) {
    hwfit_dtype d = some_dtype(f, hwfit_dtype_make((hwfit_dtype_id)(fz_u8(f) % HWFIT_DTYPE_COUNT_)));
    uint64_t rows = fz_u64(f), cols = fz_u64(f), b = 77, mb = 77;
    hwfit_status st = hwfit_dtype_bytes(d, cols, &b), mst = hwfit_dtype_matrix_bytes(d, rows, cols, &mb);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_EINVAL || st == HWFIT_EDOM || st == HWFIT_ERANGE);
    FZ_CHECK(mst == HWFIT_OK || mst == HWFIT_EINVAL || mst == HWFIT_EDOM || mst == HWFIT_ERANGE);
    if (st != HWFIT_OK) FZ_CHECK(b == 77);
    if (mst != HWFIT_OK) FZ_CHECK(mb == 77);
    double bits;
    if (st == HWFIT_OK && hwfit_dtype_bits(d, &bits) == HWFIT_OK) {
        /* ceil over whole blocks: never fewer bytes than the bits need */
        FZ_CHECK((double)b * 8.0 >= (double)cols * bits * (1.0 - 1e-12));
        if (mst == HWFIT_OK && rows == 1) FZ_CHECK(mb == b);
    }
    char name[HWFIT_DTYPE_NAME_SIZE];
    st = hwfit_dtype_format(d, name, (size_t)(fz_u8(f) % (HWFIT_DTYPE_NAME_SIZE + 1)));
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_EINVAL || st == HWFIT_EDOM || st == HWFIT_EBUFSIZE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static hwfit_model m; /* 1 KiB of layer flags: keep it off the stack */
    fz f = {data, size};
    preset(&m, fz_u8(&f));
    mutate(&f, &m);
    hwfit_model_param_counts p, poison;
    POISON(p);
    poison = p;
    hwfit_problem why;
    hwfit_status st = hwfit_model_params(&m, &p);
    fz_check_problem(st, hwfit_model_validate(&m, &why), &why);
    FZ_CHECK(st == hwfit_model_check(&m));
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_EINVAL || st == HWFIT_EDOM || st == HWFIT_ERANGE);
    if (st == HWFIT_OK) {
        check_params(&m, &p);
    } else {
        UNTOUCHED(p, poison);
        if (st != HWFIT_ERANGE) FZ_CHECK(strncmp(why.field, "model.", 6) == 0);
    }
    ranges(&f, &m, st);
    kv(&f, &m);
    flops(&f, &m, st);
    memory(&f, &m);
    lora(&f, &m);
    dtype_sizes(&f);
    return 0;
}

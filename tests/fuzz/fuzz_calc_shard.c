/* fuzz_calc_shard.c - libFuzzer target for the sharding and throughput calculations
 * (lib/shard.c, lib/perf.c).
 *
 * A small model (dense GQA, MoE, MLA with dense first layers; 4-8 layers so that a search
 * stays fast) is mutated from the bytes, then a workload (inference or training) and a
 * layout of a few cards are decoded into hwfit_shard_in / hwfit_perf_in after their _init.
 * Every entry point runs on it and these hold:
 * - on HWFIT_OK every double is finite (and non-negative where it is a size or a time);
 * - every card's total is the sum of its seven parts; the worst card is at least every
 *   stage's card (and equals the worst stage's); a card is at most the job's total, which
 *   is the sum over stages of a card times the cards of a stage;
 * - a layout with dp >= 2 keeps its per-card footprint with twice the replicas (and twice
 *   the cards and the batch) under ZeRO 0, and never grows under ZeRO > 0 (when the
 *   expert-data-parallel group already has 2 ranks or more: else it gains a communicator);
 * - max_context / max_batch: the result fits, the next step (when within the limit) does
 *   not;
 * - search: counts ordered, results ranked, each result fitting when re-estimated;
 * - perf: times > 0, decode tokens/s at most the memory-bandwidth bound.
 * Outputs are poisoned and must stay untouched on error.
 */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define POISON(x) memset(&(x), 0x5a, sizeof(x))
#define UNTOUCHED(x, p) FZ_CHECK(memcmp(&(x), &(p), sizeof(x)) == 0)

static void preset(hwfit_model *m, unsigned which) {
    hwfit_model_init(m);
    m->hidden = 1024;
    m->heads = 16;
    m->kv_heads = 4;
    m->intermediate = 4096;
    m->vocab = 32000;
    m->layers = 8;
    switch (which % 3) {
    case 0: /* dense GQA */
        break;
    case 1: /* MoE: 8 experts, top 2, every layer */
        m->layers = 6;
        m->experts = 8;
        m->experts_per_token = 2;
        m->expert_intermediate = 1024;
        (void)hwfit_model_set_moe_layers(m, 0, 1, 0);
        break;
    default: /* MLA, one dense layer, shared expert */
        m->attention = HWFIT_MODEL_ATTENTION_MLA;
        m->layers = 4;
        m->q_lora_rank = 256;
        m->kv_lora_rank = 128;
        m->qk_nope_head_dim = 64;
        m->qk_rope_head_dim = 32;
        m->v_head_dim = 64;
        m->experts = 4;
        m->experts_per_token = 2;
        m->expert_intermediate = 512;
        m->shared_experts = 1;
        m->shared_expert_intermediate = 512;
        (void)hwfit_model_set_moe_layers(m, 1, 1, 0);
        break;
    }
}

static void mutate(fz *f, hwfit_model *m) {
    /* Small values mostly (fz_u8): a huge model is refused early and reaches nothing. */
    uint32_t *u32[] = {&m->layers, &m->heads, &m->kv_heads, &m->experts,
                       &m->experts_per_token, &m->shared_experts};
    for (size_t i = 0; i < sizeof u32 / sizeof u32[0]; i++)
        if (!fz_keep(f)) *u32[i] = fz_u8(f) & 1 ? fz_u8(f) % 17 : fz_u32(f);
    uint64_t *u64[] = {&m->hidden, &m->vocab, &m->intermediate, &m->expert_intermediate};
    for (size_t i = 0; i < sizeof u64 / sizeof u64[0]; i++)
        if (!fz_keep(f)) *u64[i] = fz_u8(f) & 1 ? (uint64_t)fz_u16(f) : fz_u64(f);
    if (!fz_keep(f)) m->tie_embeddings = fz_u8(f) & 1;
}

static hwfit_dtype some_dtype(fz *f, hwfit_dtype def) {
    if (fz_keep(f)) return def;
    hwfit_dtype d;
    d.id = (hwfit_dtype_id)fz_enum(f, HWFIT_DTYPE_COUNT_);
    d.group_size = fz_u8(f) & 1 ? fz_u32(f) : 0;
    return d;
}

/* A small count: 1, 2, 4 or 8 mostly; anything sometimes. */
static uint32_t small(fz *f, uint32_t def) {
    if (fz_keep(f)) return def;
    uint8_t k = fz_u8(f);
    return k < 200 ? 1u << (k % 4) : fz_u32(f);
}

static void workload(fz *f, hwfit_shard_in *in) {
    hwfit_shard_init(in);
    hwfit_memory_in *mem = &in->memory;
    mem->mode = (hwfit_memory_mode)(fz_u8(f) % 4);
    if (!fz_keep(f)) mem->mode = (hwfit_memory_mode)fz_enum(f, 4);
    mem->context = 1u << (fz_u8(f) % 16);
    if (!fz_keep(f)) mem->context = fz_u64(f);
    mem->batch = 1u + fz_u8(f) % 16;
    if (!fz_keep(f)) mem->batch = fz_u64(f);
    mem->weights = some_dtype(f, mem->weights);
    mem->kv = some_dtype(f, mem->kv);
    if (!fz_keep(f)) mem->overhead_bytes = fz_double(f);
    if (!fz_keep(f)) mem->optimizer = (hwfit_memory_optimizer)fz_enum(f, 3);
    if (!fz_keep(f)) mem->lora_rank = fz_u32(f);

    hwfit_layout *l = &in->layout;
    l->tp = small(f, 1);
    l->pp = small(f, 1);
    l->dp = small(f, 1);
    l->cp = small(f, 1);
    l->ep = small(f, 1);
    if (!fz_keep(f)) l->etp = small(f, 1);
    if (!fz_keep(f)) l->virtual_stages = small(f, 1);
    if (!fz_keep(f)) l->sequence_parallel = fz_u8(f) & 1;
    if (!fz_keep(f)) l->zero_stage = fz_u8(f) & 1 ? fz_u8(f) % 4 : fz_u32(f);
    if (!fz_keep(f)) l->offload = fz_u8(f) & 1 ? fz_u8(f) % 4 : fz_u32(f);
    if (!fz_keep(f)) l->micro_batch = small(f, 1);
    if (!fz_keep(f)) l->global_batch = fz_u8(f) & 1 ? (uint64_t)small(f, 1) * 4 : fz_u64(f);
    if (!fz_keep(f)) l->recompute = (hwfit_memory_recompute)fz_enum(f, 3);
    if (!fz_keep(f)) l->uneven_layers = fz_u8(f) & 1;
    /* Mostly the product, so that the layout is valid. */
    uint64_t cards = (uint64_t)l->tp * l->pp * l->dp * l->cp;
    in->gpus = cards <= HWFIT_SHARD_MAX_GPUS ? (uint32_t)cards : 1;
    if (!fz_keep(f)) in->gpus = fz_u32(f);
    in->capacity_bytes = (double)(1u + fz_u8(f) % 192) * 1e9;
    if (!fz_keep(f)) in->capacity_bytes = fz_double(f);
    double *d[] = {&in->utilization, &in->reserve_bytes, &in->comm_group_bytes,
                   &in->bucket_bytes, &in->host_memory_bytes, &in->host_utilization,
                   &in->host_buffer_factor};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        if (!fz_keep(f)) *d[i] = fz_double(f);
    if (!fz_keep(f)) in->zero3_live_layers = fz_u32(f);
}

static uint64_t card_parts(const hwfit_shard_card *c) {
    return c->weights_bytes + c->kv_bytes + c->activation_bytes + c->gradient_bytes +
           c->optimizer_bytes + c->buffer_bytes + c->overhead_bytes;
}

static int status_ok(hwfit_status st) {
    return st == HWFIT_OK || st == HWFIT_EINVAL || st == HWFIT_EDOM || st == HWFIT_ELAYOUT ||
           st == HWFIT_EUNSUPPORTED || st == HWFIT_ERANGE;
}

/* The estimate, checked; returns its status. */
static hwfit_status estimate(const hwfit_model *m, const hwfit_shard_in *in,
                             hwfit_shard_out *out) {
    hwfit_shard_out o, poison;
    POISON(o);
    poison = o;
    hwfit_status st = hwfit_shard_estimate(m, in, &o);
    FZ_CHECK(status_ok(st));
    hwfit_shard_reason why = HWFIT_SHARD_REASON_COUNT_;
    hwfit_status cst = hwfit_shard_check(m, in, &why);
    if (st == HWFIT_ELAYOUT) FZ_CHECK(cst == HWFIT_OK && why != HWFIT_SHARD_VALID);
    if (st == HWFIT_OK) FZ_CHECK(cst == HWFIT_OK && why == HWFIT_SHARD_VALID);
    if (st != HWFIT_OK) {
        UNTOUCHED(o, poison);
        return st;
    }
    fz_check_doubles(&o.headroom_bytes, 1, 0);
    const hwfit_shard_card *w = &o.worst;
    FZ_CHECK(card_parts(w) == w->total_bytes);
    FZ_CHECK(w->total_bytes <= o.total_bytes);
    /* The worst card is the one with the largest peak (its largest phase with the
     * allocator's reserve and the overhead), and a card fits when its peak does. */
    FZ_CHECK(w->allocated_bytes >= w->forward_bytes && w->allocated_bytes >= w->backward_bytes &&
             w->allocated_bytes >= w->step_bytes);
    FZ_CHECK(w->reserved_bytes >= w->allocated_bytes && w->peak_bytes >= w->reserved_bytes);
    FZ_CHECK(o.stages == o.layout.pp && o.worst_stage < o.stages && w->stage == o.worst_stage);
    FZ_CHECK(o.gpu_fits == (w->peak_bytes <= o.usable_bytes));
    FZ_CHECK(o.fits == (o.gpu_fits && o.host_fits));
    FZ_CHECK(o.headroom_bytes == (double)o.usable_bytes - (double)w->peak_bytes);
    FZ_CHECK(o.usable_bytes <= o.capacity_bytes);
    uint64_t per_stage = in->gpus / o.stages, sum = 0;
    for (uint32_t s = 0; s < o.stages; s++) {
        hwfit_shard_card c, cp;
        POISON(c);
        cp = c;
        st = hwfit_shard_card_at(m, in, s, &c);
        FZ_CHECK(st == HWFIT_OK || st == HWFIT_ERANGE);
        if (st != HWFIT_OK) {
            UNTOUCHED(c, cp);
            return HWFIT_OK; /* a stage that overflows alone: the estimate took the worst */
        }
        FZ_CHECK(c.stage == s);
        FZ_CHECK(card_parts(&c) == c.total_bytes);
        FZ_CHECK(c.peak_bytes <= w->peak_bytes);
        if (s == o.worst_stage)
            FZ_CHECK(c.total_bytes == w->total_bytes && c.peak_bytes == w->peak_bytes &&
                     c.weights_bytes == w->weights_bytes &&
                     c.kv_bytes == w->kv_bytes && c.layers == w->layers);
        FZ_CHECK(c.embedding == (s == 0) && c.head == (s + 1 == o.stages));
        sum += c.total_bytes * per_stage;
    }
    FZ_CHECK(sum == o.total_bytes);
    hwfit_shard_card c, cp;
    POISON(c);
    cp = c;
    FZ_CHECK(hwfit_shard_card_at(m, in, o.stages, &c) == HWFIT_EDOM);
    UNTOUCHED(c, cp);
    if (out != NULL) *out = o;
    return HWFIT_OK;
}

/* Twice the replicas: the same cards without ZeRO, never larger cards with it. */
static void more_replicas(const hwfit_model *m, const hwfit_shard_in *in,
                          const hwfit_shard_out *o) {
    const hwfit_layout *l = &o->layout;
    if (l->dp < 2 || in->gpus > HWFIT_SHARD_MAX_GPUS / 2) return;
    /* The routed experts' data-parallel group (tp x dp x cp / (etp x ep) ranks) gets a
     * communicator of its own when it grows from 1 to 2: only compare when it exists. */
    uint64_t edp = (uint64_t)l->tp * l->dp * l->cp / ((uint64_t)l->etp * l->ep);
    if (m->experts > 0 && edp < 2) return;
    hwfit_shard_in x = *in;
    x.layout = *l; /* etp and the global batch resolved: the replicas change neither */
    x.layout.dp *= 2;
    x.gpus *= 2;
    if (in->memory.mode == HWFIT_MEMORY_INFERENCE) {
        if (in->memory.batch > UINT64_MAX / 2) return;
        x.memory.batch *= 2; /* batch is over all replicas */
    } else {
        if (x.layout.global_batch > UINT64_MAX / 2) return;
        x.layout.global_batch *= 2;
    }
    hwfit_shard_out o2;
    hwfit_status st = estimate(m, &x, &o2);
    if (st == HWFIT_ERANGE && o->total_bytes > UINT64_MAX / 2) return; /* the job's total */
    FZ_CHECK(st == HWFIT_OK);
    if (l->zero_stage == 0) {
        FZ_CHECK(o2.worst.total_bytes == o->worst.total_bytes);
        FZ_CHECK(o2.worst_stage == o->worst_stage);
        FZ_CHECK(o2.total_bytes == 2 * o->total_bytes);
    } else {
        FZ_CHECK(o2.worst.total_bytes <= o->worst.total_bytes);
    }
}

static int fits(const hwfit_model *m, const hwfit_shard_in *x) {
    hwfit_shard_out o;
    hwfit_status st = estimate(m, x, &o);
    FZ_CHECK(st == HWFIT_OK || st == HWFIT_ERANGE);
    return st == HWFIT_OK && o.fits;
}

static void inverse(fz *f, const hwfit_model *m, const hwfit_shard_in *in, hwfit_status est) {
    uint64_t limit = 1 + fz_u8(f) % 64 * (fz_u8(f) & 1 ? 1024u : 1u);
    if (!fz_keep(f)) limit = fz_u64(f);
    int small_limit = limit <= (1u << 20);
    uint64_t r = 0x5a5a5a5a;
    hwfit_status st = hwfit_shard_max_context(m, in, limit, &r);
    FZ_CHECK(status_ok(st));
    /* ERANGE only for a model whose counts overflow: a footprint that does is "no fit" */
    if (st == HWFIT_ERANGE) FZ_CHECK(hwfit_model_check(m) == HWFIT_ERANGE);
    if (limit == 0) FZ_CHECK(st == HWFIT_EDOM);
    if (st != HWFIT_OK) FZ_CHECK(r == 0x5a5a5a5a);
    if (est == HWFIT_OK) FZ_CHECK(st == HWFIT_OK || limit == 0);
    if (st == HWFIT_OK && small_limit) {
        const hwfit_layout *l = &in->layout;
        uint64_t step = (uint64_t)l->cp * (l->sequence_parallel ? l->tp : 1);
        FZ_CHECK(r <= limit && r % step == 0);
        hwfit_shard_in x = *in;
        if (r > 0) {
            x.memory.context = r;
            FZ_CHECK(fits(m, &x));
        }
        if (r + step <= limit) {
            x.memory.context = r + step;
            FZ_CHECK(!fits(m, &x));
        }
    }
    r = 0x5a5a5a5a;
    st = hwfit_shard_max_batch(m, in, limit, &r);
    FZ_CHECK(status_ok(st));
    if (st == HWFIT_ERANGE) FZ_CHECK(hwfit_model_check(m) == HWFIT_ERANGE);
    if (st != HWFIT_OK) FZ_CHECK(r == 0x5a5a5a5a);
    if (st == HWFIT_OK && small_limit) {
        FZ_CHECK(r <= limit);
        hwfit_shard_in x = *in;
        int training = in->memory.mode != HWFIT_MEMORY_INFERENCE;
        if (training) x.layout.global_batch = 0;
        uint64_t *v = training ? &x.layout.micro_batch : &x.memory.batch;
        if (r > 0) {
            *v = r;
            FZ_CHECK(fits(m, &x));
        }
        if (r + 1 <= limit) {
            *v = r + 1;
            FZ_CHECK(!fits(m, &x));
        }
    }
}

static void search(fz *f, const hwfit_model *m, const hwfit_shard_in *in) {
    if (in->gpus > 16) return; /* keep an input fast */
    hwfit_shard_space sp;
    hwfit_shard_space_init(&sp);
    sp.max_micro_batch = 1 + fz_u8(f) % 3;
    sp.max_virtual_stages = 1 + fz_u8(f) % 2;
    if (!fz_keep(f)) sp.zero_stage = fz_u8(f) % 5 - 1;
    if (!fz_keep(f)) sp.include_unfit = 1;
    if (!fz_keep(f)) sp.cp = 0;
    hwfit_shard_result res[4];
    size_t cap = fz_u8(f) % 5;
    POISON(res);
    hwfit_shard_search_out sum, poison;
    POISON(sum);
    poison = sum;
    hwfit_status st = hwfit_shard_search(m, in, &sp, res, cap, &sum);
    FZ_CHECK(status_ok(st) && st != HWFIT_ELAYOUT);
    if (st != HWFIT_OK) {
        UNTOUCHED(sum, poison);
        return;
    }
    FZ_CHECK(sum.fitting <= sum.valid && sum.valid <= sum.visited);
    FZ_CHECK(sum.count <= cap);
    /* Layouts that fit come first; with include_unfit the others follow, except those
     * whose sizes overflow (counted valid, but they have no figures to rank by). */
    size_t fit_cap = sum.fitting < cap ? (size_t)sum.fitting : cap;
    if (sp.include_unfit) FZ_CHECK(sum.count >= fit_cap && sum.count <= sum.valid);
    else FZ_CHECK(sum.count == fit_cap);
    for (size_t i = 0; i < sum.count; i++) {
        fz_check_doubles(&res[i].headroom_bytes, 1, 0);
        fz_check_doubles(&res[i].score, 1, 0);
        if (i > 0) FZ_CHECK(res[i - 1].score >= res[i].score);
        if (i > 0 && res[i].fits) FZ_CHECK(res[i - 1].fits);
        FZ_CHECK(res[i].fits == (i < sum.fitting));
        hwfit_shard_in x = *in;
        x.layout = res[i].layout;
        hwfit_shard_out o;
        FZ_CHECK(estimate(m, &x, &o) == HWFIT_OK);
        FZ_CHECK(o.fits == res[i].fits && o.worst.peak_bytes == res[i].per_gpu_bytes);
        if (res[i].fits) FZ_CHECK(res[i].score == res[i].headroom_bytes);
        else FZ_CHECK(res[i].score < 0.0);
    }
}

static void perf(fz *f, const hwfit_model *m, const hwfit_shard_in *in) {
    hwfit_perf_in p;
    hwfit_perf_init(&p);
    size_t n = hwfit_gpu_count();
    FZ_CHECK(hwfit_perf_set_gpu(&p, hwfit_gpu_at(fz_u8(f) % n)) == HWFIT_OK);
    hwfit_shard_in keep = *in;
    keep.capacity_bytes = p.shard.capacity_bytes;
    if (fz_keep(f)) p.shard = keep; /* the card's own memory */
    else p.shard = *in;
    if (!fz_keep(f)) p.precision = (hwfit_perf_precision)fz_enum(f, 6);
    if (!fz_keep(f)) p.output_tokens = fz_u8(f) & 1 ? fz_u16(f) : fz_u64(f);
    double *d[] = {&p.prefill_efficiency, &p.decode_compute_efficiency, &p.memory_efficiency,
                   &p.training_efficiency, &p.step_overhead_s, &p.tp_overlap, &p.pp_overlap,
                   &p.dp_overlap, &p.ep_overlap, &p.target_tokens_per_s,
                   &p.memory_bandwidth_bytes_per_s};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        if (!fz_keep(f)) *d[i] = fz_double(f);
    if (!fz_keep(f)) p.lowp_scaling = (hwfit_perf_scaling)fz_enum(f, 2);
    if (!fz_keep(f)) p.moe_expert_cast_overhead_s = fz_double(f);
    static hwfit_perf_out o, poison; /* large: off the stack */
    POISON(o);
    poison = o;
    hwfit_status st = hwfit_perf_estimate(m, &p, &o);
    FZ_CHECK(status_ok(st));
    if (st != HWFIT_OK) {
        UNTOUCHED(o, poison);
        return;
    }
    fz_check_doubles(&o.peak_flop_per_s, 1, 1);
    fz_check_doubles(&o.prefill_flop, 6, 1);            /* prefill_flop .. prefill_tokens_per_s */
    fz_check_doubles(&o.time_per_output_token_s, 7, 1); /* .. decode_flop */
    fz_check_doubles(&o.offline_tokens_per_s, 1, 1);
    fz_check_doubles(&o.step_time_s, 13, 1);            /* step_time_s .. hfu */
    FZ_CHECK(o.peak_flop_per_s > 0.0);
    if (p.shard.memory.mode == HWFIT_MEMORY_INFERENCE) {
        FZ_CHECK(o.prefill_s > 0.0 && o.time_per_output_token_s > 0.0);
        FZ_CHECK(o.decode_tokens_per_s > 0.0 && o.prefill_tokens_per_s > 0.0);
        /* A decode step of pp micro-batches reads at least every stage's weights pp times at
         * the achieved bandwidth: tokens/s <= batch x bandwidth / (pp x weights). */
        uint32_t pp = o.shard.layout.pp;
        uint64_t weights = 0;
        for (uint32_t s = 0; s < pp; s++) {
            hwfit_shard_card c;
            if (hwfit_shard_card_at(m, &p.shard, s, &c) == HWFIT_OK && c.weights_bytes > weights)
                weights = c.weights_bytes;
        }
        double bw = p.memory_bandwidth_bytes_per_s * p.memory_efficiency;
        if (weights > 0) {
            double bound = (double)p.shard.memory.batch * bw / ((double)pp * (double)weights);
            FZ_CHECK(o.decode_tokens_per_s <= bound * (1.0 + 1e-9));
        }
        FZ_CHECK(o.time_per_output_token_s >= (double)pp * o.decode_memory_s * (1.0 - 1e-12));
    } else {
        FZ_CHECK(o.step_time_s > 0.0 && o.tokens_per_s > 0.0);
        FZ_CHECK(o.step_time_s >= o.step_compute_s);
        FZ_CHECK(o.hardware_flop_per_step >= o.model_flop_per_step * (1.0 - 1e-12));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    hwfit_model m;
    fz f = {data, size};
    preset(&m, fz_u8(&f));
    mutate(&f, &m);
    hwfit_shard_in in;
    workload(&f, &in);
    hwfit_shard_out o;
    hwfit_status st = estimate(&m, &in, &o);
    if (st == HWFIT_OK) more_replicas(&m, &in, &o);
    /* The batch form agrees with the single call, bit for bit. */
    hwfit_shard_out bo;
    hwfit_status bst = HWFIT_EINVAL;
    FZ_CHECK(hwfit_shard_estimate_batch(&m, &in, 1, &bo, &bst) == bst && bst == st);
    if (st == HWFIT_OK) FZ_CHECK(memcmp(&bo, &o, sizeof o) == 0);
    inverse(&f, &m, &in, st);
    search(&f, &m, &in);
    perf(&f, &m, &in);
    return 0;
}

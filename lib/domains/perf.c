/* perf.c - roofline throughput of inference and training (docs/formulas.md, "perf").
 *
 * FLOPs come from model.c (hwfit_model_flops, hwfit_model_params), bytes from shard.c's
 * per-card footprint, communication from collective.c; this file only splits them over the
 * pipeline stages and tensor-parallel ranks and turns them into times.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SANITIZE_THREAD__)
/* GCC's ThreadSanitizer runtime does not intercept C11 thrd_create (glibc starts the thread
 * below pthread_create's interceptor, and the runtime faults in it): under it, and only
 * there, the search's threads are POSIX threads, which it follows (tests/threads). */
#include <pthread.h>
typedef pthread_t plan_thread;
#define PLAN_THREAD_START(t, f, arg) (pthread_create(&(t), NULL, f, (arg)) == 0)
#define PLAN_THREAD_JOIN(t) pthread_join((t), NULL)
#define PLAN_THREADS 1
#elif !defined(__STDC_NO_THREADS__)
#include <threads.h>
typedef thrd_t plan_thread;
#define PLAN_THREAD_START(t, f, arg) (thrd_create(&(t), f, (arg)) == thrd_success)
#define PLAN_THREAD_JOIN(t) thrd_join((t), NULL)
#define PLAN_THREADS 1
#else
#define PLAN_THREADS 0 /* no C11 threads: the calling thread searches every share */
#endif
#if PLAN_THREADS && !defined(__STDC_NO_ATOMICS__)
#include <stdatomic.h>
#define PLAN_SHARED 1 /* the threads share the best threshold (plan_shared_*) */
#else
#define PLAN_SHARED 0
#endif

#include "hwfit/collective.h"
#include "hwfit/dtype.h"
#include "hwfit/gpu.h"
#include "hwfit/link.h"
#include "hwfit/memory.h"
#include "hwfit/model.h"
#include "hwfit/perf.h"
#include "hwfit/shard.h"
#include "hwfit/status.h"
#include "hwfit/topology.h"

#include "base/checked.h"
#include "base/internal.h"
#include "domains/collective_internal.h"
#include "domains/model_internal.h"
#include "domains/perf_internal.h"
#include "domains/shard_iface.h"

void hwfit_perf_init(hwfit_perf_in *in) {
    if (in == NULL) return;
    memset(in, 0, sizeof *in);
    hwfit_shard_init(&in->shard);
    hwfit_topology_init(&in->topology);
    in->precision = HWFIT_PERF_PRECISION_AUTO;
    in->prefill_efficiency = 0.6;
    in->decode_compute_efficiency = 0.6;
    in->memory_efficiency = 0.85;
    in->training_efficiency = 0.7;
    in->dp_overlap = 0.5;
    in->ep_overlap = 0.5;
    in->low_precision_efficiency = 0.75;
    in->moe_expert_overhead_s = 0.0004;
    in->power_limit_share = 1.0;
    in->power_exponent = 1.0 / 3.0;
    in->activation_passes = 160.0;
    in->selective_matmul_recompute = 0.0;
    in->threads = 1;
    in->lowp_scaling = HWFIT_PERF_SCALING_TENSOR;
    in->moe_expert_cast_overhead_s = 0.0006;
    in->moe_capacity_factor = 1.0;
    in->moe_imbalance = 1.0;
    in->moe_capacity_given = 0;
}

hwfit_status hwfit_perf_set_gpu(hwfit_perf_in *in, const hwfit_gpu *gpu) {
    if (in == NULL || gpu == NULL) return HWFIT_EINVAL;
    hwfit_status st = hwfit_topology_set_gpu(&in->topology, gpu);
    if (st != HWFIT_OK) return st;
    in->shard.capacity_bytes = (double)gpu->memory_bytes;
    in->memory_bandwidth_bytes_per_s = gpu->memory_bandwidth_bytes_per_s;
    in->tf32_flop_per_s = gpu->tf32_flop_per_s;
    in->bf16_flop_per_s = gpu->fp16_bf16_flop_per_s;
    in->fp8_flop_per_s = gpu->fp8_flop_per_s;
    in->fp4_flop_per_s = gpu->fp4_flop_per_s;
    in->int8_op_per_s = gpu->int8_op_per_s;
    return HWFIT_OK;
}

static const char *const precision_names[] = {"auto", "tf32", "bf16", "fp8", "fp4", "int8"};

const char *hwfit_perf_precision_name(hwfit_perf_precision p) {
    if ((unsigned)p > (unsigned)HWFIT_PERF_PRECISION_INT8) return "unknown";
    return precision_names[p];
}

hwfit_status hwfit_perf_precision_from_name(const char *name, hwfit_perf_precision *p) {
    if (name == NULL || p == NULL) return HWFIT_EINVAL;
    for (unsigned i = 0; i <= (unsigned)HWFIT_PERF_PRECISION_INT8; i++)
        if (strcmp(name, precision_names[i]) == 0) {
            *p = (hwfit_perf_precision)i;
            return HWFIT_OK;
        }
    return HWFIT_ENOTFOUND;
}

static const char *const rank_names[] = {"training_rate", "step_time", "decode_rate"};

const char *hwfit_perf_rank_name(hwfit_perf_rank rank) {
    if ((unsigned)rank > (unsigned)HWFIT_PERF_RANK_DECODE_RATE) return "unknown";
    return rank_names[rank];
}

hwfit_status hwfit_perf_plan_rank(const hwfit_perf_in *in, const hwfit_shard_space *space,
                                  hwfit_perf_rank *rank) {
    if (in == NULL || space == NULL || rank == NULL) return HWFIT_EINVAL;
    hwfit_memory_mode mode = in->shard.memory.mode;
    if ((unsigned)mode > (unsigned)HWFIT_MEMORY_QLORA) return HWFIT_EINVAL;
    /* With the global batch left to each layout (pp micro-batches per replica) a layout
     * with fewer replicas or stages takes a shorter step only because it processes fewer
     * sequences: throughput compares them; at one global batch the step time does. */
    *rank = mode == HWFIT_MEMORY_INFERENCE ? HWFIT_PERF_RANK_DECODE_RATE
            : space->global_batch == 0     ? HWFIT_PERF_RANK_TRAINING_RATE
                                           : HWFIT_PERF_RANK_STEP_TIME;
    return HWFIT_OK;
}

const char *hwfit_perf_bound_name(hwfit_perf_bound b) {
    switch (b) {
    case HWFIT_PERF_BOUND_MEMORY: return "memory";
    case HWFIT_PERF_BOUND_COMPUTE: return "compute";
    }
    return "unknown";
}

/* ---- context of one estimate -------------------------------------------------------------- */

/* The layout search's memo of the collectives it times (in its frame; NULL elsewhere):
 * layouts that differ only in offload, or in what the collectives do not read, time the
 * same collectives. A step is kept by its whole input but the cluster (the context's,
 * compared before a lookup) with the times and counts of its output, which is all
 * train_step reads (the per-collective details of hwfit_collective_step_out are left zero
 * while the memo is on, hit or miss: the search's stack has no room for them); a single
 * collective by operation, bytes and ranks. A step missed here asks its single collectives
 * through `singles` (collective_internal.h, on the same cluster and library: the search's
 * steps all take hwfit_collective_step_init's library), which the steps of layouts with
 * other pipeline shapes or ZeRO stages share (the tensor-parallel collectives, the
 * pipeline's sends). A hit gives the call's own figures, bit for bit
 * (tests/test_perf_plan.c: the search against every layout timed without it). */
#define STEP_MEMO 4 /* a step for each ZeRO stage: the layouts that differ in it alternate */
#define COLL_MEMO 1
typedef struct step_memo_entry {
    unsigned char key[sizeof(hwfit_collective_step_in) - offsetof(hwfit_collective_step_in, tp)];
    hwfit_status st;
    double tp_s, dp_s, zero_s, pp_s, ep_s, total_s;
    uint64_t tp_count, dp_count, zero_count, pp_count, ep_count;
} step_memo_entry;
typedef struct coll_memo_entry {
    hwfit_collective_op op;
    hwfit_status st;
    uint64_t ranks;
    double bytes, time_s;
} coll_memo_entry;
typedef struct plan_memo {
    unsigned steps, step_next, colls, coll_next;
    step_memo_entry step[STEP_MEMO];
    coll_memo_entry coll[COLL_MEMO];
    hwfit__coll_memo singles; /* the steps' single collectives (collective_internal.h) */
} plan_memo;

typedef struct perf_ctx {
    const hwfit_model *m;
    const hwfit_perf_in *in;
    hwfit__shard_engine *e;
    hwfit_topology topo;
    hwfit_perf_precision precision;
    double peak, bw, act_bytes;
    uint64_t active[2];  /* active parameters of one dense / MoE layer */
    double head_flop;    /* the head's matmul per token (model.c counts it even when tied) */
    plan_memo *memo;     /* the layout search's, or NULL */
} perf_ctx;

static double dmax(double a, double b) { return a > b ? a : b; }

/* Training, MoE: the routed tokens the busiest expert-parallel rank computes and receives,
 * over the even, dropless share (perf.h). Padded to a capacity factor every expert computes
 * exactly factor x tokens x top-k / experts (GShard, Lepikhin et al. 2020, section 2.2;
 * Switch Transformer, Fedus et al. 2021, section 2.2), whatever the routing; dropless, the
 * busiest rank gets moe_imbalance x the mean and the step waits for it. */
static double moe_load(const hwfit_perf_in *in) {
    return in->moe_capacity_given ? in->moe_capacity_factor : in->moe_imbalance;
}

/* The pipeline bubble of a step whose slowest stage takes t_mb per micro-batch, forward and
 * backward: 1F1B's (pp - 1) / v micro-batch times (Narayanan et al. 2021, section 2.2);
 * ZB-H1's (pp - 1)(T_F + T_B - T_W), a third of 1F1B's with T_F = T_B = T_W (Qi et al.
 * 2023, arXiv:2401.10241, section 2.1; backward = 2 x forward here, split evenly into its
 * input and weight gradients). train_step and the search's bound both use it. */
static double pipeline_bubble(const hwfit_perf_in *in, const hwfit__shard_resolved *r,
                              double t_mb) {
    double b = (double)(r->pp - 1) / (double)r->v * t_mb;
    return in->schedule == HWFIT_PERF_SCHEDULE_ZB_H1 ? b / 3.0 : b;
}

/* The sustained share of the peak tensor throughput a power limit allows: a cap lowers the
 * clock, and dynamic power C V^2 f with V rising with f makes P ~ f^3, so f ~ P^(1/3)
 * (power_exponent; Weste and Harris, CMOS VLSI Design, section 5.2). Not kept in perf_ctx:
 * serve's chain through it is at its stack ceiling (tests/stack). */
static double clock_share(const hwfit_perf_in *in) {
    return in->power_limit_share < 1.0 ? pow(in->power_limit_share, in->power_exponent) : 1.0;
}

static hwfit_status check(const hwfit_perf_in *in, hwfit_problem *why) {
    const struct { double v; const char *field; } effs[] = {
        {in->prefill_efficiency, "prefill_efficiency"},
        {in->decode_compute_efficiency, "decode_compute_efficiency"},
        {in->memory_efficiency, "memory_efficiency"},
        {in->training_efficiency, "training_efficiency"},
        {in->low_precision_efficiency, "low_precision_efficiency"}};
    for (size_t i = 0; i < sizeof effs / sizeof effs[0]; i++)
        if (!hwfit__in_range(effs[i].v, 0.0, 1.0) || effs[i].v == 0.0)
            return hwfit__why(why, HWFIT_EDOM, effs[i].field, "must be in (0, 1]");
    const struct { double v; const char *field; } overlaps[] = {
        {in->tp_overlap, "tp_overlap"}, {in->pp_overlap, "pp_overlap"},
        {in->dp_overlap, "dp_overlap"}, {in->ep_overlap, "ep_overlap"},
        {in->selective_matmul_recompute, "selective_matmul_recompute"}};
    for (size_t i = 0; i < sizeof overlaps / sizeof overlaps[0]; i++)
        if (!hwfit__in_range(overlaps[i].v, 0.0, 1.0))
            return hwfit__why(why, HWFIT_EDOM, overlaps[i].field, "must be in [0, 1]");
    const struct { double v; const char *field; } peaks[] = {
        {in->tf32_flop_per_s, "tf32_flop_per_s"}, {in->bf16_flop_per_s, "bf16_flop_per_s"},
        {in->fp8_flop_per_s, "fp8_flop_per_s"}, {in->fp4_flop_per_s, "fp4_flop_per_s"},
        {in->int8_op_per_s, "int8_op_per_s"}};
    for (size_t i = 0; i < sizeof peaks / sizeof peaks[0]; i++)
        if (!hwfit__in_range(peaks[i].v, 0.0, 1e21))
            return hwfit__why(why, HWFIT_EDOM, peaks[i].field, "must be in [0, 1e21]");
    if (!hwfit__in_range(in->memory_bandwidth_bytes_per_s, 1.0, 1e18))
        return hwfit__why(why, HWFIT_EDOM, "memory_bandwidth_bytes_per_s",
                          "must be in [1, 1e18] bytes/s");
    if (!hwfit__in_range(in->step_overhead_s, 0.0, 1e6))
        return hwfit__why(why, HWFIT_EDOM, "step_overhead_s", "must be in [0, 1e6] s");
    if (!hwfit__in_range(in->moe_expert_overhead_s, 0.0, 1e3))
        return hwfit__why(why, HWFIT_EDOM, "moe_expert_overhead_s", "must be in [0, 1000] s");
    if (!hwfit__in_range(in->power_limit_share, 0.0, 1.5) || in->power_limit_share == 0.0)
        return hwfit__why(why, HWFIT_EDOM, "power_limit_share", "must be in (0, 1.5]");
    if (!hwfit__in_range(in->power_exponent, 0.0, 1.0) || in->power_exponent == 0.0)
        return hwfit__why(why, HWFIT_EDOM, "power_exponent", "must be in (0, 1]");
    if (!hwfit__in_range(in->activation_passes, 0.0, 1e6))
        return hwfit__why(why, HWFIT_EDOM, "activation_passes", "must be in [0, 1e6]");
    if (!hwfit__in_range(in->target_tokens_per_s, 0.0, 1e15))
        return hwfit__why(why, HWFIT_EDOM, "target_tokens_per_s", "must be in [0, 1e15] tokens/s");
    if (in->output_tokens > HWFIT_MODEL_MAX_SIZE)
        return hwfit__why(why, HWFIT_EDOM, "output_tokens", "must be at most 2^40");
    if ((unsigned)in->precision > (unsigned)HWFIT_PERF_PRECISION_INT8)
        return hwfit__why(why, HWFIT_EINVAL, "precision", HWFIT__ENUM);
    if ((unsigned)in->lowp_scaling > (unsigned)HWFIT_PERF_SCALING_BLOCK)
        return hwfit__why(why, HWFIT_EINVAL, "lowp_scaling", HWFIT__ENUM);
    if (!hwfit__in_range(in->moe_expert_cast_overhead_s, 0.0, 1e3))
        return hwfit__why(why, HWFIT_EDOM, "moe_expert_cast_overhead_s",
                          "must be in [0, 1000] s");
    if (in->moe_capacity_given != 0 && in->moe_capacity_given != 1)
        return hwfit__why(why, HWFIT_EINVAL, "moe_capacity_given", "must be 0 or 1");
    if (in->moe_capacity_given &&
        (!hwfit__in_range(in->moe_capacity_factor, 0.0, 1e3) || in->moe_capacity_factor == 0.0))
        return hwfit__why(why, HWFIT_EDOM, "moe_capacity_factor", "must be in (0, 1000]");
    if ((unsigned)in->schedule > (unsigned)HWFIT_PERF_SCHEDULE_ZB_H1)
        return hwfit__why(why, HWFIT_EINVAL, "schedule", HWFIT__ENUM);
    if (!hwfit__in_range(in->moe_imbalance, 1.0, 1e3))
        return hwfit__why(why, HWFIT_EDOM, "moe_imbalance", "must be in [1, 1000]");
    return HWFIT_OK;
}

/* The math format: AUTO follows the weight format (the base of QLoRA). */
static hwfit_status pick_precision(const hwfit_perf_in *in, hwfit_perf_precision *p,
                                   double *peak, hwfit_problem *why) {
    hwfit_perf_precision x = in->precision;
    if (x == HWFIT_PERF_PRECISION_AUTO) {
        const hwfit_memory_in *mem = &in->shard.memory;
        hwfit_dtype w = mem->mode == HWFIT_MEMORY_QLORA ? mem->qlora_base : mem->weights;
        switch (w.id) {
        case HWFIT_DTYPE_FP8_E4M3:
        case HWFIT_DTYPE_FP8_E5M2:
        case HWFIT_DTYPE_MXFP8:
        case HWFIT_DTYPE_FP8_B128:
        case HWFIT_DTYPE_FP8_CH: x = HWFIT_PERF_PRECISION_FP8; break;
        case HWFIT_DTYPE_NVFP4:
        case HWFIT_DTYPE_MXFP4: x = HWFIT_PERF_PRECISION_FP4; break;
        case HWFIT_DTYPE_INT8:
        case HWFIT_DTYPE_INT8_CH: x = HWFIT_PERF_PRECISION_INT8; break;
        case HWFIT_DTYPE_FP32:
        case HWFIT_DTYPE_TF32: x = HWFIT_PERF_PRECISION_TF32; break;
        default: x = HWFIT_PERF_PRECISION_BF16; break;
        }
    }
    const double rates[] = {0.0, in->tf32_flop_per_s, in->bf16_flop_per_s, in->fp8_flop_per_s,
                            in->fp4_flop_per_s, in->int8_op_per_s};
    if (!(rates[x] > 0.0))
        return hwfit__why(why, HWFIT_EUNSUPPORTED, "precision",
                          in->precision == HWFIT_PERF_PRECISION_AUTO
                              ? "(auto, from the weights) is a format the card has no tensor "
                                "throughput in"
                              : "is a format the card has no tensor throughput in");
    *p = x;
    *peak = rates[x];
    return HWFIT_OK;
}

static hwfit_status ctx_init(perf_ctx *c, const hwfit_model *m, const hwfit_perf_in *in,
                             hwfit__shard_engine *e, hwfit_problem *why) {
    hwfit_status st;
    memset(c, 0, sizeof *c);
    c->m = m;
    c->in = in;
    c->e = e;
    if ((st = check(in, why)) != HWFIT_OK) return st;
    if ((st = pick_precision(in, &c->precision, &c->peak, why)) != HWFIT_OK) return st;
    c->bw = in->memory_bandwidth_bytes_per_s;
    hwfit_dtype_info info;
    if ((st = hwfit_dtype_describe(in->shard.memory.activations, &info)) != HWFIT_OK)
        return hwfit__why(why, st, "shard.memory.activations", "is not a known format");
    c->act_bytes = info.bits_per_element / 8.0;
    const hwfit_model_param_counts *pp = hwfit__shard_engine_params(e); /* prepared once */
    const hwfit_model_param_counts p = *pp;
    c->active[0] = p.dense.active;
    c->active[1] = p.moe.active;
    hwfit_model_flops_out f;
    if ((st = hwfit_model_flops(m, 1, &f)) != HWFIT_OK) return st;
    /* model.c: matmul = 2 (active - head), the layers' 2 x active plus the head's V x h. */
    double layers = 2.0 * ((double)p.dense_layers * (double)p.dense.active +
                           (double)p.moe_layers * (double)p.moe.active);
    c->head_flop = dmax(f.matmul_flop - layers, 0.0);
    /* The cluster: enough nodes for the cards. */
    c->topo = in->topology;
    uint64_t gpn = c->topo.gpus_per_node ? c->topo.gpus_per_node : 1;
    uint64_t nodes = hwfit__ceil_div_u64(in->shard.gpus, gpn);
    if (nodes > c->topo.nodes) c->topo.nodes = nodes;
    return HWFIT_OK;
}

/* The times and counts of a step kept in m, as co (the rest zero). */
static void step_from(const step_memo_entry *m, hwfit_collective_step_out *co) {
    memset(co, 0, sizeof *co);
    co->tp_s = m->tp_s;
    co->dp_s = m->dp_s;
    co->zero_s = m->zero_s;
    co->pp_s = m->pp_s;
    co->ep_s = m->ep_s;
    co->total_s = m->total_s;
    co->tp_count = m->tp_count;
    co->dp_count = m->dp_count;
    co->zero_count = m->zero_count;
    co->pp_count = m->pp_count;
    co->ep_count = m->ep_count;
}

/* hwfit_collective_step on the context's cluster, through the search's memo. */
static hwfit_status step_coll(const perf_ctx *c, const hwfit_collective_step_in *ci,
                              hwfit_collective_step_out *co) {
    plan_memo *pm = c->memo;
    /* without the memo: the same step, co written in place (no second copy on this chain,
     * the layout search's deepest, tests/stack; the callers read co on success only) */
    if (pm == NULL || memcmp(&ci->topology, &c->topo, sizeof c->topo) != 0)
        return hwfit__collective_step_memo(ci, co, NULL);
    const unsigned char *key = (const unsigned char *)ci + offsetof(hwfit_collective_step_in, tp);
    step_memo_entry *m = NULL;
    for (unsigned i = 0; i < pm->steps && m == NULL; i++)
        if (memcmp(pm->step[i].key, key, sizeof pm->step[i].key) == 0) m = &pm->step[i];
    if (m == NULL) {
        m = &pm->step[pm->step_next];
        pm->step_next = (pm->step_next + 1) % STEP_MEMO;
        if (pm->steps < STEP_MEMO) pm->steps++;
        memcpy(m->key, key, sizeof m->key);
        m->st = hwfit__collective_step_memo(ci, co, &pm->singles);
        if (m->st != HWFIT_OK) return m->st;
        m->tp_s = co->tp_s;
        m->dp_s = co->dp_s;
        m->zero_s = co->zero_s;
        m->pp_s = co->pp_s;
        m->ep_s = co->ep_s;
        m->total_s = co->total_s;
        m->tp_count = co->tp_count;
        m->dp_count = co->dp_count;
        m->zero_count = co->zero_count;
        m->pp_count = co->pp_count;
        m->ep_count = co->ep_count;
    }
    if (m->st == HWFIT_OK) step_from(m, co);
    return m->st;
}

/* One collective's time on the cluster (0 for fewer than 2 ranks or no bytes). */
static hwfit_status coll(const perf_ctx *c, hwfit_collective_op op, double bytes, uint64_t ranks,
                         double *t) {
    *t = 0.0;
    if (ranks < 2 || !(bytes > 0.0)) return HWFIT_OK;
    plan_memo *pm = c->memo;
    if (pm != NULL) {
        for (unsigned i = 0; i < pm->colls; i++) {
            const coll_memo_entry *m = &pm->coll[i];
            if (m->op == op && m->ranks == ranks && memcmp(&m->bytes, &bytes, sizeof bytes) == 0) {
                if (m->st == HWFIT_OK) *t = m->time_s;
                return m->st;
            }
        }
    }
    hwfit_collective_in ci;
    hwfit_collective_init(&ci);
    ci.topology = c->topo;
    ci.op = op;
    ci.bytes = bytes;
    ci.ranks = ranks;
    hwfit_collective_out co;
    hwfit_status st = hwfit_collective_estimate(&ci, &co);
    if (pm != NULL) {
        coll_memo_entry *m = &pm->coll[pm->coll_next];
        pm->coll_next = (pm->coll_next + 1) % COLL_MEMO;
        if (pm->colls < COLL_MEMO) pm->colls++;
        m->op = op;
        m->ranks = ranks;
        m->bytes = bytes;
        m->st = st;
        m->time_s = st == HWFIT_OK ? co.time_s : 0.0;
    }
    if (st != HWFIT_OK) return st;
    *t = co.time_s;
    return HWFIT_OK;
}

/* Layers of a stage by kind (all its chunks). */
static void stage_layers(const perf_ctx *c, const hwfit__shard_resolved *r, uint32_t s,
                         uint64_t n[2]) {
    n[0] = n[1] = 0;
    for (uint32_t j = 0; j < r->v; j++) {
        uint32_t first, count;
        hwfit__shard_chunk(r, c->m->layers, s, j, &first, &count);
        uint64_t moe = hwfit__shard_engine_moe_layers(c->e, first, count);
        n[1] += moe;
        n[0] += count - moe;
    }
}

/* Forward FLOPs per token of one card of stage s: 2 per active weight of its layers, the
 * head on the last stage, and the stage's share of the attention at the given context
 * (hwfit_model_flops' attention_flop spread evenly over the layers), divided by tp. */
typedef struct stage_flop {
    double fwd;       /* per token */
    double attention; /* of which attention */
    double head;      /* of which the head */
    uint64_t layers, moe_layers;
} stage_flop;

/* stage_flops of a stage with n[0] dense and n[1] MoE layers, the last one when `last`. */
static void stage_flops_of(const perf_ctx *c, const hwfit__shard_resolved *r, const uint64_t n[2],
                           int last, double attention_all, stage_flop *out) {
    double layers = (double)(n[0] + n[1]);
    double w = 2.0 * ((double)n[0] * (double)c->active[0] + (double)n[1] * (double)c->active[1]);
    out->attention = attention_all * layers / (double)c->m->layers / (double)r->tp;
    out->head = (last ? c->head_flop : 0.0) / (double)r->tp;
    out->fwd = w / (double)r->tp + out->attention + out->head;
    out->layers = n[0] + n[1];
    out->moe_layers = n[1];
}

static void stage_flops(const perf_ctx *c, const hwfit__shard_resolved *r, uint32_t s,
                        double attention_all, stage_flop *out) {
    uint64_t n[2];
    stage_layers(c, r, s, n);
    stage_flops_of(c, r, n, s + 1 == r->pp, attention_all, out);
}

/* ---- inference ---------------------------------------------------------------------------- */

/* Collectives of one pass of `tokens` tokens through a stage: two tensor-parallel all-reduces
 * per layer (after attention and after the MLP; Shoeybi et al. 2019), two expert all-to-alls
 * per MoE layer (dispatch and combine) and one send to the next stage. */
typedef struct pass_comm {
    double allreduce, alltoall, send;
} pass_comm;

static hwfit_status comm_of(const perf_ctx *c, const hwfit__shard_resolved *r, double tokens,
                            pass_comm *p) {
    double h = (double)c->m->hidden, bytes = tokens * h * c->act_bytes;
    hwfit_status st;
    if ((st = coll(c, HWFIT_COLLECTIVE_ALLREDUCE, bytes, r->tp, &p->allreduce)) != HWFIT_OK ||
        (st = coll(c, HWFIT_COLLECTIVE_ALLTOALL, bytes * (double)c->m->experts_per_token, r->ep,
                   &p->alltoall)) != HWFIT_OK ||
        (st = coll(c, HWFIT_COLLECTIVE_SENDRECV, bytes, r->pp > 1 ? 2 : 1, &p->send)) != HWFIT_OK)
        return st;
    return HWFIT_OK;
}

static double stage_comm(const pass_comm *p, const stage_flop *f, const hwfit__shard_resolved *r,
                         uint32_t s) {
    return 2.0 * (double)f->layers * p->allreduce + 2.0 * (double)f->moe_layers * p->alltoall +
           (s + 1 < r->pp ? p->send : 0.0);
}

typedef struct decode_eval {
    double step_s, compute_s, memory_s, comm_s, bytes, flop;
    int compute_bound;
} decode_eval;

/* One decode step of `batch` sequences (all replicas): each replica splits its sequences
 * into pp micro-batches that flow through the stages; a stage reads its weights and its
 * micro-batch's KV cache (KV is linear in the sequences: the card's KV for the sequences of
 * x is scaled). The step takes pp passes of the slowest stage. */
static hwfit_status decode_at(const perf_ctx *c, const hwfit_shard_in *x,
                              const hwfit__shard_resolved *r, double attention, uint64_t batch,
                              decode_eval *d) {
    uint64_t per_replica = hwfit__ceil_div_u64(batch, r->dp);
    double mb = (double)hwfit__ceil_div_u64(per_replica, r->pp);
    double eff_c = c->peak * clock_share(c->in) * c->in->decode_compute_efficiency;
    double eff_m = c->bw * c->in->memory_efficiency;
    pass_comm pc;
    hwfit_status st = comm_of(c, r, mb, &pc);
    if (st != HWFIT_OK) return st;
    memset(d, 0, sizeof *d);
    double worst = -1.0;
    for (uint32_t s = 0; s < r->pp; s++) {
        hwfit_shard_card card;
        if ((st = hwfit__shard_card(c->e, x, r, s, &card)) != HWFIT_OK) return st;
        stage_flop f;
        stage_flops(c, r, s, attention, &f);
        double kv_seq = (double)card.kv_bytes / (double)r->batch_local;
        double bytes = (double)card.weights_bytes + mb * kv_seq;
        if (c->in->moe_active_reads && f.moe_layers > 0 && c->m->experts > 0) {
            /* Only the experts the micro-batch's tokens touch are read: b tokens picking k
             * of E each touch E (1 - (1 - k/E)^b) experts on average. */
            double e = (double)c->m->experts, k = (double)c->m->experts_per_token;
            double touched = 1.0 - pow(1.0 - (k < e ? k : e) / e, mb);
            uint64_t ew1 = 0, et1 = 0;
            hwfit__shard_engine_experts(c->e, &ew1, &et1);
            double ew = (double)f.moe_layers * (double)ew1;
            bytes -= ew * (1.0 - touched);
        }
        double flop = mb * f.fwd;
        double comm = stage_comm(&pc, &f, r, s);
        double tc = flop / eff_c, tm = bytes / eff_m;
        double t = dmax(tc, tm) + comm;
        if (t > worst) {
            worst = t;
            d->compute_s = tc;
            d->memory_s = tm;
            d->comm_s = comm;
            d->bytes = bytes;
            d->flop = flop;
            d->compute_bound = tc > tm;
        }
    }
    d->step_s = (double)r->pp * worst + c->in->step_overhead_s;
    return HWFIT_OK;
}

typedef struct batch_search {
    const perf_ctx *c;
    const hwfit_shard_in *x;
    const hwfit__shard_resolved *r;
    double attention;
    int target; /* 0: first compute-bound batch; 1: first batch reaching the target rate */
} batch_search;

static int holds(const batch_search *b, const decode_eval *d, uint64_t batch) {
    if (!b->target) return d->compute_bound;
    return (double)batch / d->step_s >= b->c->in->target_tokens_per_s;
}

/* Smallest batch in [1, 2^30] for which the predicate holds (it is monotone in the batch:
 * compute and bytes both grow linearly), or 0. */
static hwfit_status first_batch(const batch_search *b, uint64_t *out) {
    uint64_t lo = 1, hi = 1ull << 30;
    decode_eval d;
    hwfit_status st;
    if ((st = decode_at(b->c, b->x, b->r, b->attention, hi, &d)) != HWFIT_OK) return st;
    if (!holds(b, &d, hi)) {
        *out = 0;
        return HWFIT_OK;
    }
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if ((st = decode_at(b->c, b->x, b->r, b->attention, mid, &d)) != HWFIT_OK) return st;
        if (holds(b, &d, mid)) hi = mid;
        else lo = mid + 1;
    }
    *out = lo;
    return HWFIT_OK;
}

/* inference()'s helpers, each with the locals of one step on its own frame: inference's
 * frame is on the deepest chains of the serving and perf calls (through first_batch and
 * decode_at to the shard engine's units, tests/stack), and these are not on them. */

/* The attention FLOPs per token at the decode context and, for a prompt of P tokens, at
 * its mean context: a prompt attends on average to (P + 1)/2 tokens, and the mean of two
 * integer contexts keeps that exact for full attention, which is linear in the context. */
static HWFIT__NOINLINE hwfit_status attention_of(const hwfit_model *m, uint64_t prompt,
                                                 uint64_t decode_ctx, double *decode,
                                                 double *prompt_mean) {
    hwfit_model_flops_out fd, fp;
    hwfit_status st;
    uint64_t lo = (prompt + 1) / 2, hi = (prompt + 2) / 2;
    if ((st = hwfit_model_flops(m, decode_ctx, &fd)) != HWFIT_OK ||
        (st = hwfit_model_flops(m, lo, &fp)) != HWFIT_OK)
        return st;
    double attention_lo = fp.attention_flop;
    if ((st = hwfit_model_flops(m, hi, &fp)) != HWFIT_OK) return st;
    *decode = fd.attention_flop;
    *prompt_mean = 0.5 * (attention_lo + fp.attention_flop);
    return HWFIT_OK;
}

/* Prefill of one prompt of p tokens on an idle replica: the stages in turn, summed into o;
 * *worst: the slowest stage's time. */
static HWFIT__NOINLINE hwfit_status prefill(const perf_ctx *c, const hwfit_shard_in *x,
                                            const hwfit__shard_resolved *r, double p,
                                            double prompt_attention, hwfit_perf_out *o,
                                            double *worst) {
    const hwfit_perf_in *in = c->in;
    double eff_c = c->peak * clock_share(c->in) * in->prefill_efficiency;
    double eff_m = c->bw * in->memory_efficiency;
    pass_comm pc;
    hwfit_status st;
    if ((st = comm_of(c, r, p, &pc)) != HWFIT_OK) return st;
    for (uint32_t s = 0; s < r->pp; s++) {
        hwfit_shard_card card;
        if ((st = hwfit__shard_card(c->e, x, r, s, &card)) != HWFIT_OK) return st;
        stage_flop f;
        stage_flops(c, r, s, prompt_attention, &f);
        double flop = p * f.fwd;
        double bytes = (double)card.weights_bytes + p * (double)card.kv_bytes_per_token;
        double comm = stage_comm(&pc, &f, r, s);
        double tc = flop / eff_c, tm = bytes / eff_m, t = dmax(tc, tm) + comm;
        o->prefill_flop += flop * (double)r->tp;
        o->prefill_compute_s += tc;
        o->prefill_memory_s += tm;
        o->prefill_comm_s += comm;
        o->prefill_s += t;
        *worst = dmax(*worst, t);
    }
    return HWFIT_OK;
}

/* Whether the target batch fits (x: the input at its batch and full context): o->target_fits,
 * 0 when the estimate overflows. */
static HWFIT__NOINLINE hwfit_status target_fits(const perf_ctx *c, const hwfit_shard_in *x,
                                                hwfit_perf_out *o) {
    hwfit_shard_out so;
    hwfit_status st = hwfit__shard_estimate_engine(c->e, x, &so); /* only batch, context differ */
    if (st == HWFIT_ERANGE) o->target_fits = 0;
    else if (st != HWFIT_OK) return st;
    else o->target_fits = so.fits;
    return HWFIT_OK;
}

/* Inference at the layout of in->shard. full = 0 skips the batch searches (ranking). */
static hwfit_status inference(const perf_ctx *c, int full, hwfit_perf_out *o) {
    const hwfit_perf_in *in = c->in;
    hwfit_shard_in x = in->shard;
    uint64_t prompt = x.memory.context;
    uint64_t decode_ctx = prompt + in->output_tokens / 2;
    x.memory.context = decode_ctx;
    hwfit__shard_resolved r;
    hwfit_shard_reason why;
    hwfit_status st =
        hwfit__shard_resolve(c->m, hwfit__shard_engine_kinds(c->e), &x, &x.layout, &r, &why, NULL);
    if (st != HWFIT_OK) return st;
    if (why != HWFIT_SHARD_VALID) return HWFIT_ELAYOUT;
    double decode_attention, prompt_attention;
    if ((st = attention_of(c->m, prompt, decode_ctx, &decode_attention, &prompt_attention)) !=
        HWFIT_OK)
        return st;
    o->decode_context = decode_ctx;

    /* Prefill of one prompt on an idle replica: the stages in turn. */
    double worst = 0.0, p = (double)prompt;
    if ((st = prefill(c, &x, &r, p, prompt_attention, o, &worst)) != HWFIT_OK) return st;
    uint64_t replicas = x.memory.batch < r.dp ? x.memory.batch : r.dp;
    o->prefill_tokens_per_s = (double)replicas * p / worst;

    /* Decode. */
    decode_eval d;
    if ((st = decode_at(c, &x, &r, decode_attention, x.memory.batch, &d)) != HWFIT_OK) return st;
    o->time_per_output_token_s = d.step_s;
    o->decode_tokens_per_s = (double)x.memory.batch / d.step_s;
    o->decode_compute_s = d.compute_s;
    o->decode_memory_s = d.memory_s;
    o->decode_comm_s = d.comm_s;
    o->decode_bytes = d.bytes;
    o->decode_flop = d.flop;
    o->bound = d.compute_bound ? HWFIT_PERF_BOUND_COMPUTE : HWFIT_PERF_BOUND_MEMORY;
    if (in->output_tokens > 0) {
        /* Offline requests: each replica prefills its prompts (pipelined over the stages)
         * and then decodes output_tokens steps at the mean KV length. */
        double prompts = (double)hwfit__ceil_div_u64(x.memory.batch, r.dp);
        double total = prompts * worst + (double)in->output_tokens * d.step_s;
        o->offline_tokens_per_s = (double)x.memory.batch * (double)in->output_tokens / total;
    }
    if (!full) return HWFIT_OK;
    batch_search b = {c, &x, &r, decode_attention, 0};
    if ((st = first_batch(&b, &o->compute_bound_batch)) != HWFIT_OK) return st;
    if (in->target_tokens_per_s > 0.0) {
        b.target = 1;
        if ((st = first_batch(&b, &o->target_batch)) != HWFIT_OK) return st;
        if (o->target_batch > 0) {
            /* x is in->shard but for its context; the last use of x, so it is the input
             * here too (a second hwfit_shard_in put serve 400 bytes over tests/stack's
             * ceilings). */
            x.memory.batch = o->target_batch;
            x.memory.context = prompt + in->output_tokens;
            if ((st = target_fits(c, &x, o)) != HWFIT_OK) return st;
        }
    }
    return HWFIT_OK;
}

/* ---- training ----------------------------------------------------------------------------- */

/* Per card, what ZeRO's data-parallel collectives move of x bytes of which e are the routed
 * experts': the rest over the dp x cp ranks, the experts over the expert-data-parallel
 * ranks (shard.c's partition, as a rate). */
static double share(double x, double e, const hwfit__shard_resolved *r) {
    if (r->z == r->ez) return x / (double)r->z;
    return (x - e) / (double)r->z + e / (double)r->ez;
}

/* The step's collectives (collective.c): the dense ones over tp, pp and dp x cp, the
 * experts' gradient reduction and ZeRO gathers, as the times train_step reads (t). Out of
 * train_step's frame: the steps' inputs and outputs are large and the stage loop above goes
 * deep (its chain through the cards is the layout search's deepest, tests/stack). */
typedef struct step_times {
    double tp_s, dp_s, zero_s, pp_s; /* the dense step's (hwfit_collective_step_out) */
    double e_dp_s, e_zero_s;         /* the experts' gradient reduction and gathers */
} step_times;

static hwfit_status step_comm(const perf_ctx *c, const hwfit__shard_resolved *r, double act,
                              uint64_t layers_max, int one_group, double grad_bytes,
                              double param_bytes, double e_grad, double e_param, step_times *t) {
    hwfit_collective_step_out so; /* here, not in the callers' frames (tests/stack) */
    hwfit_collective_step_in ci;
    hwfit_collective_step_init(&ci);
    ci.topology = c->topo;
    ci.tp = r->tp;
    ci.pp = r->pp;
    ci.dp = r->z; /* gradients reduce over dp x cp */
    ci.zero_stage = r->zero;
    ci.layers_per_stage = layers_max;
    ci.micro_batches = r->m;
    ci.tp_collectives_per_layer = r->rc == HWFIT_MEMORY_RECOMPUTE_FULL ? 6 : 4;
    ci.sequence_parallel = r->sp;
    ci.tp_bytes = act;
    ci.grad_bytes = grad_bytes;
    ci.param_bytes = param_bytes;
    ci.pp_bytes = act;
    hwfit_status st;
    if ((st = step_coll(c, &ci, &so)) != HWFIT_OK) return st;
    t->tp_s = so.tp_s;
    t->dp_s = so.dp_s;
    t->zero_s = so.zero_s;
    t->pp_s = so.pp_s;
    t->e_dp_s = t->e_zero_s = 0.0;
    /* The experts' gradient reduction and ZeRO gathers over the expert-data-parallel group:
     * ranks of stride etp x ep, edp of them (nothing when edp = 1: every rank holding the
     * same experts is alone). */
    if (!one_group && r->ez > 1 && (e_grad > 0.0 || e_param > 0.0)) {
        /* ci, the dense step's input, is done with: set afresh for the experts' step (one
         * input on this frame, tests/stack). */
        hwfit_collective_step_init(&ci);
        ci.topology = c->topo;
        ci.tp = (uint64_t)r->etp * r->ep;
        ci.pp = r->pp;
        ci.dp = r->ez;
        ci.zero_stage = r->zero;
        ci.micro_batches = r->m;
        ci.grad_bytes = e_grad;
        ci.param_bytes = e_param;
        if ((st = step_coll(c, &ci, &so)) != HWFIT_OK) return st;
        t->e_dp_s = so.dp_s;
        t->e_zero_s = so.zero_s;
    }
    return HWFIT_OK;
}

/* A stage's training FLOPs for `tokens` tokens of a micro-batch, as time at the peak
 * rate: forward + backward = 3 x forward (Kaplan et al. 2020); recomputation repeats the
 * layers' forward (full) or the attention core (selective; Korthikanti et al.), plus the
 * share of weight matmuls a selective policy recomputes. FP8 / FP4 training (lowp): the
 * weights' matmuls at low_precision_efficiency of the format's peak, the attention core
 * (and its recomputation) in BF16. train_step and the search's bound both use it. */
static double stage_train_flop(const perf_ctx *c, const hwfit__shard_resolved *r,
                               const stage_flop *sf, double tokens, int lowp) {
    const hwfit_perf_in *in = c->in;
    /* MoE load (moe_load): the routed experts' forward FLOPs, 2 x top-k x one expert's
     * weights per token and MoE layer (split over tp as the rest), scaled by it; their
     * recomputation and backward follow. Skipped at 1, so the dropless, even step is the
     * same bit for bit. */
    double load = moe_load(in), fwd = sf->fwd;
    if (load != 1.0 && sf->moe_layers > 0)
        fwd += (load - 1.0) * 2.0 * (double)sf->moe_layers *
               (double)c->m->experts_per_token *
               (double)hwfit__shard_engine_params(c->e)->moe.expert / (double)r->tp;
    double re = r->rc == HWFIT_MEMORY_RECOMPUTE_FULL ? fwd - sf->head
                : r->rc == HWFIT_MEMORY_RECOMPUTE_SELECTIVE
                    ? sf->attention + in->selective_matmul_recompute *
                                          (fwd - sf->head - sf->attention)
                    : 0.0;
    double flop = tokens * (3.0 * fwd + re);
    if (lowp) {
        double attn = tokens * (3.0 * sf->attention +
                                (r->rc == HWFIT_MEMORY_RECOMPUTE_NONE ? 0.0 : sf->attention));
        flop = (flop - attn) / in->low_precision_efficiency +
               attn * c->peak / in->bf16_flop_per_s;
    }
    return flop;
}

/* stages (NULL, or r's pp and v grouped by kind, hwfit__shard_stages_of): every term of a
 * stage below depends on the stage only through its card's fixed part (weights, trainable
 * parameters, host bytes) and its layers and tables, which stages of one kind share, and
 * enters a maximum; so each kind is taken once, at its first stage, with the same result
 * bit for bit (tests/test_perf_plan.c: the search, which passes its groups, against
 * hwfit_perf_estimate, which does not). */
static hwfit_status train_step(const perf_ctx *c, const hwfit__shard_resolved *r,
                               const hwfit__shard_stages *stages, hwfit_perf_out *o) {
    const hwfit_perf_in *in = c->in;
    const hwfit_shard_in *x = &in->shard;
    hwfit_status st;
    uint64_t seq = x->memory.context;
    double s_local = (double)r->context_local, mb = (double)r->mb;
    /* FLOPs per token at the full sequence: PaLM's MFU convention (Chowdhery et al. 2022,
     * appendix B: 6N + 12 L H Q T) counts attention over all T positions. */
    hwfit_model_flops_out f;
    if ((st = hwfit_model_flops(c->m, seq, &f)) != HWFIT_OK) return st;
    double eff_c = c->peak * clock_share(c->in) * in->training_efficiency;
    double eff_m = c->bw * in->memory_efficiency;
    int lowp = (c->precision == HWFIT_PERF_PRECISION_FP8 ||
                c->precision == HWFIT_PERF_PRECISION_FP4) &&
               in->bf16_flop_per_s > 0.0;
    double t_mb = 0.0, grad_bytes = 0.0, param_bytes = 0.0, e_grad = 0.0, e_param = 0.0;
    /* Dense and expert parameters reduce and gather over one group when the expert grid is
     * the dense one (ep = 1, etp = tp), else the experts over the expert-data-parallel
     * group (Megatron-Core: ranks in the order tp-cp-ep-dp-pp, the expert grid etp-ep-edp). */
    int one_group = r->ep == 1 && r->etp == r->tp;
    uint64_t layers_max = 0, moe_max = 0;
    hwfit_dtype_info gi;
    if ((st = hwfit_dtype_describe(x->memory.gradients, &gi)) != HWFIT_OK) return st;
    int grouped = stages != NULL && stages->kinds > 0 && stages->pp == r->pp &&
                  stages->v == r->v;
    uint32_t items = grouped ? stages->kinds : r->pp;
    for (uint32_t i = 0; i < items; i++) {
        uint32_t s = grouped ? stages->kind[i].stage : i;
        hwfit_shard_card card;
        if ((st = hwfit__shard_card(c->e, x, r, s, &card)) != HWFIT_OK) return st;
        stage_flop sf;
        if (grouped)
            stage_flops_of(c, r, stages->kind[i].n, s + 1 == r->pp, f.attention_flop, &sf);
        else
            stage_flops(c, r, s, f.attention_flop, &sf);
        double flop = stage_train_flop(c, r, &sf, mb * s_local, lowp);
        /* Weights are read in forward, backward-data and backward-weight. */
        double bytes = 3.0 * (double)card.shard_weights_bytes;
        double t = dmax(flop / eff_c, bytes / eff_m);
        /* The kernels that are not matmuls (norms, activation, residual adds, rotary, casts)
         * stream activation_passes h-wide activations per token and layer at the
         * bandwidth, after the matmuls (their own kernels); split over tp (sequence
         * parallelism or the heads); full recomputation repeats the forward third. */
        double passes = in->activation_passes *
                        (r->rc == HWFIT_MEMORY_RECOMPUTE_FULL ? 4.0 / 3.0 : 1.0);
        t += mb * s_local * (double)sf.layers * passes * (double)c->m->hidden * c->act_bytes /
             (double)r->tp / eff_m;
        /* MoE: a fixed cost per local expert per MoE layer and micro-batch (the expert's own
         * GEMMs, casts and gradient accumulation; MegaBlocks, Gale et al. 2022, section 3),
         * on top of the FLOPs: the card holds ceil(E / ep) experts of each MoE layer. */
        /* FP8/FP4 with per-tensor scaling: each local expert's operands are quantized on
         * their own (an amax and a cast each), a fixed cost more per expert (perf.h,
         * moe_expert_cast_overhead_s); block scaling quantizes all experts in one kernel. */
        if (sf.moe_layers > 0 && c->m->experts > 0)
            t += (double)sf.moe_layers *
                 (double)hwfit__ceil_div_u64(c->m->experts, r->ep ? (uint64_t)r->ep : 1) *
                 (in->moe_expert_overhead_s +
                  (lowp && in->lowp_scaling == HWFIT_PERF_SCALING_TENSOR
                       ? in->moe_expert_cast_overhead_s
                       : 0.0));
        t_mb = dmax(t_mb, t);
        /* The card's routed experts: its MoE layers' share. */
        uint64_t eu_weights, eu_trainable;
        hwfit__shard_engine_experts(c->e, &eu_weights, &eu_trainable);
        double ew = sf.moe_layers ? (double)sf.moe_layers * (double)eu_weights : 0.0;
        double et = sf.moe_layers ? (double)sf.moe_layers * (double)eu_trainable : 0.0;
        double gb = gi.bits_per_element / 8.0;
        double tr = (double)card.trainable_params, sw = (double)card.shard_weights_bytes;
        if (one_group) ew = et = 0.0;
        grad_bytes = dmax(grad_bytes, (tr - et) * gb);
        param_bytes = dmax(param_bytes, sw - ew);
        e_grad = dmax(e_grad, et * gb);
        e_param = dmax(e_param, ew);
        if (sf.layers > layers_max) layers_max = sf.layers;
        if (sf.moe_layers > moe_max) moe_max = sf.moe_layers;
        /* Offload: gradients to the host and parameters back once per step, over the card's
         * PCIe link; the CPU optimizer streams the host states twice through DRAM. */
        if (r->offload) {
            hwfit_link_in li;
            hwfit_link_init(&li);
            li.kind = HWFIT_LINK_PCIE;
            li.generation = c->topo.gpu_pcie_gen;
            li.width = c->topo.gpu_pcie_lanes;
            hwfit_link_out lo;
            if ((st = hwfit_link_rate(&li, &lo)) != HWFIT_OK) return st;
            double pcie = lo.line_bytes_per_s * c->topo.pcie_efficiency;
            double own_w = share(sw, ew, r);
            double moved = share(tr, et, r) * gb + own_w;
            if (r->offload & HWFIT_SHARD_OFFLOAD_PARAMS) moved += 2.0 * (double)r->m * own_w;
            uint64_t gpn = c->topo.gpus_per_node < x->gpus ? c->topo.gpus_per_node : x->gpus;
            double dram = c->topo.host_memory_bytes_per_s * (double)c->topo.sockets *
                          c->topo.host_memory_efficiency;
            double cpu = 2.0 * (double)card.host_bytes * (double)gpn / dram;
            o->offload_s = dmax(o->offload_s, moved / pcie + cpu);
        }
    }
    /* m micro-batches plus the schedule's bubble (pipeline_bubble: 1F1B's (pp - 1)/v
     * micro-batch times, Narayanan et al. 2021, section 2.2; ZB-H1 a third of it). */
    o->step_compute_s = (double)r->m * t_mb;
    o->bubble_s = pipeline_bubble(in, r, t_mb);
    /* Communication of the step (collective.c), exposed by what does not overlap. */
    double act = mb * s_local * (double)c->m->hidden * c->act_bytes;
    step_times co;
    if ((st = step_comm(c, r, act, layers_max, one_group, grad_bytes, param_bytes, e_grad,
                        e_param, &co)) != HWFIT_OK)
        return st;
    /* Expert all-to-alls: dispatch and combine over the ep ranks of a stage, the busiest
     * rank's bytes (moe_load: padded to capacity, or the routing imbalance). */
    double a2a = 0.0;
    if ((st = coll(c, HWFIT_COLLECTIVE_ALLTOALL,
                   act * (double)c->m->experts_per_token * moe_load(in), r->ep, &a2a)) !=
        HWFIT_OK)
        return st;
    o->tp_comm_s = co.tp_s * (1.0 - in->tp_overlap);
    o->pp_comm_s = co.pp_s * (1.0 - in->pp_overlap);
    o->dp_comm_s = (co.dp_s + co.zero_s + co.e_dp_s + co.e_zero_s) * (1.0 - in->dp_overlap);
    o->ep_comm_s = 4.0 * (double)moe_max * (double)r->m * a2a * (1.0 - in->ep_overlap);
    o->step_time_s = o->step_compute_s + o->bubble_s + o->tp_comm_s + o->pp_comm_s +
                     o->dp_comm_s + o->ep_comm_s + o->offload_s;
    double tokens = (double)r->global * (double)seq;
    o->tokens_per_s = tokens / o->step_time_s;
    o->model_flop_per_step = f.training_flop * tokens;
    double re_all = r->rc == HWFIT_MEMORY_RECOMPUTE_FULL ? f.forward_flop - c->head_flop
                    : r->rc == HWFIT_MEMORY_RECOMPUTE_SELECTIVE
                        ? f.attention_flop + in->selective_matmul_recompute *
                                                 (f.forward_flop - c->head_flop -
                                                  f.attention_flop)
                        : 0.0;
    o->hardware_flop_per_step = o->model_flop_per_step + re_all * tokens;
    double capacity = o->step_time_s * (double)x->gpus * c->peak;
    o->mfu = o->model_flop_per_step / capacity;
    o->hfu = o->hardware_flop_per_step / capacity;
    /* A communication time that overflowed a double, times a zero exposed share (overlap
     * 1), is NaN, not 0: such a step is out of range, never a result. */
    const double results[] = {o->tp_comm_s,  o->pp_comm_s,    o->dp_comm_s,
                              o->ep_comm_s,  o->step_time_s,  o->tokens_per_s,
                              o->model_flop_per_step, o->hardware_flop_per_step, o->mfu,
                              o->hfu};
    if (!hwfit__all_finite(results, sizeof results / sizeof results[0])) return HWFIT_ERANGE;
    return HWFIT_OK;
}

/* ---- entry points ------------------------------------------------------------------------- */

/* The shard fields, as fields of hwfit_perf_in. */
static const char *shard_field(const char *field) {
    static const char *const fields[][2] = {
#define F(name) {name, "shard." name},
        F("gpus") F("capacity_bytes") F("utilization") F("reserve_bytes")
        F("comm_group_bytes") F("bucket_bytes") F("zero3_live_layers")
        F("host_memory_bytes") F("host_utilization") F("host_buffer_factor")
        F("reduce_bucket_elements") F("overlap_comm") F("memory.zero_buckets") F("layout")
        F("layout.tp") F("layout.pp") F("layout.dp") F("layout.cp") F("layout.ep")
        F("layout.virtual_stages") F("layout.micro_batch") F("layout.zero_stage")
        F("layout.offload") F("layout.recompute") F("memory.mode") F("memory.optimizer")
        F("memory.batch") F("memory.context") F("memory.overhead_bytes") F("memory.mtp")
        F("memory.lora_rank") F("memory.lora_targets") F("memory.weights")
        F("memory.qlora_base") F("memory.unquantized") F("memory.activations")
        F("memory.gradients") F("memory.lora_dtype") F("memory.lora_modules") F("memory.kv")
#undef F
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (strcmp(fields[i][0], field) == 0) return fields[i][1];
    return field;
}

/* The start of every estimate: o cleared with the precision and peak, the workload's
 * shard input at the longest context it reaches (fit), resolved (r), and its memory fit
 * in o->shard. fit lives on this frame only: the timing that follows does not read it
 * (its chains are the deepest, tests/stack). */
HWFIT__NOINLINE
static hwfit_status fit_of(const perf_ctx *c, hwfit_perf_out *o, hwfit__shard_resolved *r,
                           int *training, hwfit_problem *why, hwfit_problem *shard_why) {
    const hwfit_perf_in *in = c->in;
    memset(o, 0, sizeof *o);
    o->precision = c->precision;
    o->peak_flop_per_s = c->peak;
    hwfit_shard_in fit_in = in->shard, *fit = &fit_in;
    *training = fit->memory.mode != HWFIT_MEMORY_INFERENCE;
    if (!*training) {
        if (in->output_tokens > HWFIT_MODEL_MAX_SIZE - fit->memory.context)
            return hwfit__why(why, HWFIT_EDOM, "output_tokens",
                              "plus shard.memory.context must be at most 2^40");
        fit->memory.context += in->output_tokens;
    }
    hwfit_shard_reason reason;
    hwfit_status st = hwfit__shard_resolve(c->m, hwfit__shard_engine_kinds(c->e), fit,
                                           &fit->layout, r, &reason, shard_why);
    if (st != HWFIT_OK) return st;
    if ((st = hwfit__shard_check_in(fit, shard_why)) != HWFIT_OK) return st;
    if (reason != HWFIT_SHARD_VALID)
        return hwfit__why(shard_why, HWFIT_ELAYOUT, "layout", hwfit_shard_reason_str(reason));
    if ((st = hwfit__shard_eval(c->e, fit, r, &o->shard, 0, NULL)) != HWFIT_OK)
        return hwfit__shard_explain(c->e, fit, st, shard_why);
    return HWFIT_OK;
}

/* The estimate, written to out in place (in part when it fails): every caller's out is its
 * own scratch (hwfit__perf_estimate_at copies its scratch to the caller's out on success).
 * The shard's refusals go to `shard_why` (fields of hwfit_shard_in), the others to `why`
 * (both NULL from the calculations). */
static hwfit_status estimate_in_place(const perf_ctx *c, int full, hwfit_perf_out *out,
                                      hwfit_problem *why, hwfit_problem *shard_why) {
    hwfit__shard_resolved r;
    int training;
    hwfit_status st = fit_of(c, out, &r, &training, why, shard_why);
    if (st != HWFIT_OK) return st;
    return training ? train_step(c, &r, NULL, out)
                    : inference(c, full, out); /* validate names it */
}

/* One estimate with the model's engine, which must be started (hwfit__shard_engine_start);
 * validate also keeps the cluster the timing used. */
typedef struct estimate_call {
    const hwfit_model *model;
    const hwfit_perf_in *in;
    hwfit_perf_out *out;
    hwfit_problem *problem, *shard_problem; /* NULL for hwfit_perf_estimate */
    hwfit_topology *topo; /* the cluster the timing used, kept for validate (or NULL): storage
                             of the caller's, not a copy on every estimate's chain */
} estimate_call;

static hwfit_status estimate_on(hwfit__shard_engine *e, estimate_call *a) {
    perf_ctx c;
    hwfit_status st = ctx_init(&c, a->model, a->in, e, a->problem);
    if (st == HWFIT_OK) st = estimate_in_place(&c, 1, a->out, a->problem, a->shard_problem);
    if (a->topo != NULL) *a->topo = c.topo; /* out is done with: they may share storage */
    return st;
}

hwfit_status hwfit__perf_estimate_at(hwfit__shard_engine *e, const hwfit_model *model,
                                     const hwfit_perf_in *in, hwfit_perf_out *out) {
    if (model == NULL || in == NULL || out == NULL) return HWFIT_EINVAL;
    hwfit_status st = hwfit__shard_engine_start(e, model);
    if (st != HWFIT_OK) return st;
    hwfit_perf_out o; /* out is written only on success */
    estimate_call a;
    memset(&a, 0, sizeof a);
    a.model = model;
    a.in = in;
    a.out = &o;
    st = estimate_on(e, &a);
    if (st == HWFIT_OK) *out = o;
    return st;
}

hwfit_status hwfit_perf_estimate(const hwfit_model *model, const hwfit_perf_in *in,
                                 hwfit_perf_out *out) {
    hwfit__shard_engine_storage engine; /* a few KB: the engine lives for this call */
    return hwfit__perf_estimate_at(hwfit__shard_engine_in(&engine), model, in, out);
}

hwfit_status hwfit__perf_estimate_scratch_at(hwfit__shard_engine *e, const hwfit_model *model,
                                             const hwfit_perf_in *in, hwfit_perf_out *out) {
    if (model == NULL || in == NULL || out == NULL) return HWFIT_EINVAL;
    hwfit_status st = hwfit__shard_engine_start(e, model);
    if (st != HWFIT_OK) return st;
    estimate_call a;
    memset(&a, 0, sizeof a);
    a.model = model;
    a.in = in;
    a.out = out;
    return estimate_on(e, &a);
}

hwfit_status hwfit_perf_validate(const hwfit_model *model, const hwfit_perf_in *in,
                                 hwfit_problem *problem) {
    hwfit__shard_engine_storage engine;
    return hwfit__perf_validate_at(hwfit__shard_engine_in(&engine), model, in, problem);
}

/* What validate reports after the estimate failed with st (or HWFIT_OK): a field of the
 * shard's inputs, the collectives' refusal of the cluster, or no field. Out of
 * hwfit__perf_validate_at's frame: it runs after the engine's chain. */
static hwfit_status validate_report(const estimate_call *a, hwfit_status st,
                                    const hwfit_problem *shard_problem,
                                    hwfit_problem *problem) {
    if (st != HWFIT_OK && shard_problem->status != HWFIT_OK)
        return hwfit__why_at(problem, st, shard_field(shard_problem->field),
                             shard_problem->index, shard_problem->rule);
    if (st != HWFIT_OK && problem != NULL && problem->status == HWFIT_OK) {
        /* The timing failed: the collectives refuse the cluster (a->topo is in->topology
         * with enough nodes for the cards), or a time overflows. */
        hwfit_collective_in ci;
        hwfit_collective_init(&ci);
        ci.topology = *a->topo;
        ci.ranks = a->in->shard.gpus > 1 ? a->in->shard.gpus : 2;
        hwfit_problem p;
        if (hwfit_collective_validate(&ci, &p) == st && strncmp(p.field, "topology.", 9) == 0)
            return hwfit__why_at(problem, st, p.field, p.index, p.rule);
    }
    return hwfit__why(problem, st, "",
                      st == HWFIT_OK ? ""
                      : st == HWFIT_ERANGE ? "a time or size of the estimate overflows"
                                           : "the timing refuses the inputs");
}

hwfit_status hwfit__perf_validate_at(hwfit__shard_engine *e, const hwfit_model *model,
                                     const hwfit_perf_in *in, hwfit_problem *problem) {
    hwfit_problem_clear(problem);
    if (model == NULL) return hwfit__why(problem, HWFIT_EINVAL, "model", HWFIT__NULL);
    if (in == NULL) return hwfit__why(problem, HWFIT_EINVAL, "in", HWFIT__NULL);
    /* The order of hwfit_perf_estimate: the model, the throughput inputs, the shard's. */
    hwfit_status st = hwfit_model_validate(model, problem); /* its frame is gone below */
    if (st != HWFIT_OK) return st;
    if ((st = hwfit__shard_engine_start(e, model)) != HWFIT_OK)
        return hwfit__why(problem, st, "model", "is refused"); /* validated above: unreachable */
    union { /* the estimate's scratch, then the cluster it used (estimate_on) */
        hwfit_perf_out out;
        hwfit_topology topo;
    } scratch;
    hwfit_problem shard_problem;
    hwfit_problem_clear(&shard_problem);
    estimate_call a;
    memset(&a, 0, sizeof a);
    a.model = model;
    a.in = in;
    a.out = &scratch.out;
    a.topo = &scratch.topo;
    a.problem = problem;
    a.shard_problem = &shard_problem;
    st = estimate_on(e, &a);
    return validate_report(&a, st, &shard_problem, problem);
}

/* ---- the layout search -------------------------------------------------------------------- */

/* A lower bound of train_step's step_time_s for layout r: train_step's terms without those
 * that need the card or the collectives, each of which only adds time: per stage the
 * compute of one micro-batch (the max with the weights' reads is not smaller), the
 * non-matmul kernels' activation passes and the MoE experts' fixed cost, the slowest stage through the 1F1B schedule (m micro-batches and
 * the bubble), and no communication or offload (each >= 0, overlaps in [0, 1]). Every
 * operation is train_step's own, in its order, and monotone, so bound <= step_time_s bit
 * for bit. It repeats train_step's stage compute (train_step is left as it is, for the
 * cost work on it): a cost term added there that only adds time keeps the bound valid; one
 * that can make a step shorter than this must be mirrored here, and
 * tests/test_perf_plan.c, which checks bound <= step_time_s over every valid layout of
 * several spaces, fails until it is. attention_flop: hwfit_model_flops' at the sequence
 * length, as train_step takes it. */
static double train_bound(const perf_ctx *c, const hwfit__shard_resolved *r,
                          const hwfit__shard_stages *stages, double attention_flop,
                          uint64_t most[2]) {
    const hwfit_perf_in *in = c->in;
    double s_local = (double)r->context_local, mb = (double)r->mb;
    double eff_c = c->peak * clock_share(c->in) * in->training_efficiency;
    double eff_m = c->bw * in->memory_efficiency;
    int lowp = (c->precision == HWFIT_PERF_PRECISION_FP8 ||
                c->precision == HWFIT_PERF_PRECISION_FP4) &&
               in->bf16_flop_per_s > 0.0;
    double t_mb = 0.0;
    uint64_t layers_max = 0, moe_max = 0;
    /* Stages of one kind (the same layers, the head or not) take the same time: each kind
     * once when the stages are grouped (the maximum is over the same values). */
    int grouped = stages != NULL && stages->kinds > 0 && stages->pp == r->pp &&
                  stages->v == r->v;
    uint32_t items = grouped ? stages->kinds : r->pp;
    for (uint32_t i = 0; i < items; i++) {
        stage_flop sf;
        if (grouped)
            stage_flops_of(c, r, stages->kind[i].n, stages->kind[i].stage + 1 == r->pp,
                           attention_flop, &sf);
        else
            stage_flops(c, r, i, attention_flop, &sf);
        double flop = stage_train_flop(c, r, &sf, mb * s_local, lowp);
        double t = flop / eff_c; /* train_step: the max of this and the weights' reads */
        double passes = in->activation_passes *
                        (r->rc == HWFIT_MEMORY_RECOMPUTE_FULL ? 4.0 / 3.0 : 1.0);
        t += mb * s_local * (double)sf.layers * passes * (double)c->m->hidden * c->act_bytes /
             (double)r->tp / eff_m;
        if (sf.moe_layers > 0 && c->m->experts > 0)
            t += (double)sf.moe_layers *
                 (double)hwfit__ceil_div_u64(c->m->experts, r->ep ? (uint64_t)r->ep : 1) *
                 in->moe_expert_overhead_s;
        t_mb = dmax(t_mb, t);
        if (sf.layers > layers_max) layers_max = sf.layers;
        if (sf.moe_layers > moe_max) moe_max = sf.moe_layers;
    }
    double compute = (double)r->m * t_mb;
    double bubble = pipeline_bubble(in, r, t_mb);
    most[0] = layers_max;
    most[1] = moe_max;
    return compute + bubble;
}

/* train_bound's `bound` with the communication train_step exposes that needs no card:
 * step_comm with train_step's activations and layers (most[0], the most layers of a
 * stage, from train_bound) but no gradient or parameter bytes, for its tensor- and
 * pipeline-parallel collectives (they read neither; the data-parallel and ZeRO ones need
 * the cards and are left out: they only add time), and the experts' all-to-alls (most[1]
 * MoE layers). Added in train_step's order (compute, bubble, tp, pp, [dp], ep, [offload]),
 * so the sum stays at most its step_time_s. When a collective refuses, train_step fails as
 * it does: the bound stops there, and the layout is timed. Through the search's memo: the
 * layouts that differ only in the virtual stages (or ZeRO, offload) ask the same step. */
static double train_bound_comm(const perf_ctx *c, const hwfit__shard_resolved *r,
                               const uint64_t most[2], double bound) {
    const hwfit_perf_in *in = c->in;
    double s_local = (double)r->context_local, mb = (double)r->mb;
    double act = mb * s_local * (double)c->m->hidden * c->act_bytes;
    int one_group = r->ep == 1 && r->etp == r->tp;
    step_times co;
    hwfit_status st = step_comm(c, r, act, most[0], one_group, 0.0, 0.0, 0.0, 0.0, &co);
    if (st != HWFIT_OK) return bound;
    bound = bound + co.tp_s * (1.0 - in->tp_overlap);
    bound = bound + co.pp_s * (1.0 - in->pp_overlap);
    /* The experts' all-to-alls, train_step's ep_comm_s: the same collective (through the
     * memo: train_step asks for it next) and the same product, in the same order; after
     * the data-parallel term train_step adds in between, which only adds time. */
    double a2a = 0.0;
    if (coll(c, HWFIT_COLLECTIVE_ALLTOALL, act * (double)c->m->experts_per_token * moe_load(in),
             r->ep, &a2a) != HWFIT_OK)
        return bound;
    return bound + 4.0 * (double)most[1] * (double)r->m * a2a * (1.0 - in->ep_overlap);
}

hwfit_status hwfit__perf_step_bound_at(hwfit__shard_engine *e, const hwfit_model *model,
                                       const hwfit_perf_in *in, double *bound) {
    if (model == NULL || in == NULL || bound == NULL) return HWFIT_EINVAL;
    if (in->shard.memory.mode == HWFIT_MEMORY_INFERENCE) return HWFIT_EINVAL;
    hwfit_status st = hwfit__shard_engine_start(e, model);
    if (st != HWFIT_OK) return st;
    perf_ctx c;
    if ((st = ctx_init(&c, model, in, e, NULL)) != HWFIT_OK) return st;
    hwfit__shard_resolved r;
    hwfit_shard_reason reason;
    if ((st = hwfit__shard_resolve(model, hwfit__shard_engine_kinds(e), &in->shard,
                                   &in->shard.layout, &r, &reason, NULL)) != HWFIT_OK)
        return st;
    if (reason != HWFIT_SHARD_VALID) return HWFIT_ELAYOUT;
    hwfit_model_flops_out f;
    if ((st = hwfit_model_flops(model, in->shard.memory.context, &f)) != HWFIT_OK) return st;
    hwfit__shard_stages stages; /* as the search groups them */
    hwfit__shard_stages_of(e, &r, &stages);
    uint64_t most[2];
    double lb = train_bound(&c, &r, &stages, f.attention_flop, most);
    *bound = train_bound_comm(&c, &r, most, lb);
    return HWFIT_OK;
}

/* The last bound computed, for the layout r. */
typedef struct bound_memo {
    int valid, comm; /* comm: lb holds the communication (train_bound_comm) */
    hwfit__shard_resolved r;
    uint64_t most[2]; /* the most layers and MoE layers of a stage */
    double lb;
} bound_memo;

/* Whether layouts a and b have the same train_bound: every field of the layout but the
 * ZeRO stage and the offload, which the bound does not read. */
static int bound_same(const hwfit__shard_resolved *a, const hwfit__shard_resolved *b) {
    return a->training == b->training && a->tp == b->tp && a->pp == b->pp && a->dp == b->dp &&
           a->cp == b->cp && a->ep == b->ep && a->etp == b->etp && a->v == b->v &&
           a->sp == b->sp && a->uneven == b->uneven && a->rc == b->rc && a->mb == b->mb &&
           a->m == b->m && a->global == b->global && a->z == b->z && a->ez == b->ez &&
           a->ranks == b->ranks && a->context_local == b->context_local &&
           a->batch_local == b->batch_local;
}

/* a ranks before b: layouts that fit first, then by score. */
static int better(const hwfit_perf_result *a, const hwfit_perf_result *b) {
    if (a->shard.fits != b->shard.fits) return a->shard.fits;
    return a->shard.score > b->shard.score;
}

/* Insert into results[0..*count), best first, stable; order (NULL or beside results) keeps
 * each result's place in the enumeration. */
static void keep_best(hwfit_perf_result *results, uint64_t *order, size_t capacity,
                      size_t *count, const hwfit_perf_result *r, uint64_t ordinal) {
    if (capacity == 0) return;
    size_t n = *count;
    if (n == capacity && !better(r, &results[n - 1])) return;
    size_t i = n < capacity ? n : capacity - 1;
    while (i > 0 && better(r, &results[i - 1])) {
        results[i] = results[i - 1];
        if (order != NULL) order[i] = order[i - 1];
        i--;
    }
    results[i] = *r;
    if (order != NULL) order[i] = ordinal;
    if (n < capacity) *count = n + 1;
}

/* Valid layouts are dealt to the threads in blocks of this many, in enumeration order. */
#define PLAN_BLOCK 32u

/* One search over a slice of the space: the valid layouts of the blocks b with
 * b % slices == slice (every layout for one slice). */
typedef struct plan_slice {
    hwfit__shard_engine *e; /* started on the model */
    const hwfit_model *model;
    const hwfit_perf_in *in;
    const hwfit_shard_space *space;
    uint32_t slice, slices;
    hwfit_perf_result *results;
    uint64_t *order; /* NULL for one slice */
    size_t capacity;
    hwfit_shard_search_out sum;
    uint64_t timed;   /* layouts timed in full; the other ranked ones were pruned */
    uint64_t fail_at; /* the ordinal of the layout that failed (status not HWFIT_OK) */
    hwfit_status status;
    size_t head; /* the merge's place in results */
#if PLAN_SHARED
    _Atomic double kth;     /* slice 0's: the best score any full list of fitting layouts
                               has last, -HUGE_VAL before */
    _Atomic double *shared; /* slice 0's kth, or NULL (one slice) */
#endif
#if PLAN_THREADS
    plan_thread thread;
    int started;
#endif
} plan_slice;

/* The threads' shared threshold: when a slice's list holds `capacity` fitting layouts, the
 * last one's score T is at most the last score of the merged list (which holds the best
 * of every slice), so a layout of any slice that fits and cannot reach T (strictly: a tie
 * may still enter, by enumeration order), or that does not fit, cannot be in the merged
 * list and need not be timed. It only spares work: the lists merge to the same result. */
static double plan_shared_get(const plan_slice *ps) {
#if PLAN_SHARED
    if (ps->shared != NULL) return atomic_load_explicit(ps->shared, memory_order_relaxed);
#else
    (void)ps;
#endif
    return -HUGE_VAL;
}

static void plan_shared_put(plan_slice *ps, double kth) {
#if PLAN_SHARED
    if (ps->shared == NULL) return;
    double old = atomic_load_explicit(ps->shared, memory_order_relaxed);
    while (kth > old && !atomic_compare_exchange_weak_explicit(ps->shared, &old, kth,
                                                               memory_order_relaxed,
                                                               memory_order_relaxed)) {
    }
#else
    (void)ps;
    (void)kth;
#endif
}

static hwfit_status slice_fail(plan_slice *ps, uint64_t ordinal, hwfit_status st) {
    ps->fail_at = ordinal;
    return st;
}

/* What one slice's search keeps between layouts. */
typedef struct slice_state {
    plan_slice *ps;
    hwfit_shard_in *x; /* the shard input with the layout of the current one: a copy on the
                          frame of slice_train (the shard's) or slice_infer (c.in's, the
                          whole input's), not here (the training chain is perf_plan's
                          deepest, tests/stack) */
    perf_ctx c;
    hwfit_shard_iter it;
    hwfit_shard_search_out sum;
    hwfit_perf_rank rank;
    uint64_t ordinal;
    int chain; /* hwfit__shard_iter_next_chained's: r holds the last valid layout */
} slice_state;

/* The next valid layout of the slice (its ordinal in k), counted; 0 at the end. l and r are
 * the caller's, kept between the calls (the enumeration updates them in place for the
 * layouts that differ only in ZeRO and offload). */
static int slice_next(slice_state *ss, hwfit_layout *l, hwfit__shard_resolved *r, uint64_t *k) {
    const plan_slice *ps = ss->ps;
    /* Pruned candidates: the valid layouts and their order are those of the plain
     * enumeration (test_perf_plan compares), without walking the inner degrees of tensor and
     * pipeline sizes that no layout can take (DeepSeek-V3 on 16,384 cards: 1.24M
     * combinations for 72,900 valid layouts). */
    while (hwfit__shard_iter_next_chained(&ss->it, l, r, &ss->chain)) {
        *k = ss->ordinal++;
        if (ps->slices > 1 && (*k / PLAN_BLOCK) % ps->slices != ps->slice) continue;
        ss->sum.valid++;
        ss->x->layout = *l;
        return 1;
    }
    return 0;
}

/* Rank an evaluated layout (o) into the slice's list. */
static void slice_keep(slice_state *ss, const hwfit_perf_out *o, int training, uint64_t k) {
    plan_slice *ps = ss->ps;
    hwfit_perf_result *kept = ps->results;
    size_t cap = ps->capacity;
    hwfit_perf_result res;
    memset(&res, 0, sizeof res); /* padding too: results compare byte for byte */
    hwfit__shard_result(&o->shard, &res.shard);
    res.step_time_s = training ? o->step_time_s : o->time_per_output_token_s;
    res.tokens_per_s = training ? o->tokens_per_s : o->decode_tokens_per_s;
    res.mfu = training ? o->mfu : 0.0;
    res.bubble_s = training ? o->bubble_s : 0.0;
    /* Fitting layouts by the metric (larger is better); the others (include_unfit)
     * after them by how far they miss, as the shard search ranks them. */
    if (o->shard.fits)
        res.shard.score = ss->rank == HWFIT_PERF_RANK_STEP_TIME ? -res.step_time_s
                                                                : res.tokens_per_s;
    keep_best(kept, ps->order, cap, &ss->sum.count, &res, k);
    if (training && ss->sum.count == cap && kept[cap - 1].shard.fits)
        plan_shared_put(ps, kept[cap - 1].shard.score);
}

/* The inference search: every layout estimated (decode rate, no bound). */
HWFIT__NOINLINE
static hwfit_status slice_infer(slice_state *ss) {
    plan_slice *ps = ss->ps;
    /* The estimate reads the layout through the context's input: a copy whose layout
     * slice_next sets. */
    hwfit_perf_in x = *ps->in;
    ss->c.in = &x;
    ss->x = &x.shard;
    hwfit_layout l;
    hwfit__shard_resolved r;
    uint64_t k;
    while (slice_next(ss, &l, &r, &k)) {
        hwfit_perf_out o;
        hwfit_status st = estimate_in_place(&ss->c, 0, &o, NULL, NULL);
        if (st == HWFIT_ERANGE || st == HWFIT_ELAYOUT) continue;
        if (st != HWFIT_OK) return slice_fail(ps, k, st);
        if (o.shard.fits) ss->sum.fitting++;
        else if (!ps->space->include_unfit) continue;
        slice_keep(ss, &o, 0, k);
    }
    return HWFIT_OK;
}

/* Whether a fitting layout r whose step takes at least lb cannot enter the list: its best
 * score does not beat the last one kept (full) or another thread's (other). */
static int bound_prunes(const slice_state *ss, const hwfit__shard_resolved *r, double lb,
                        double seq, int full, double other) {
    const plan_slice *ps = ss->ps;
    double best = ss->rank == HWFIT_PERF_RANK_STEP_TIME ? -lb : (double)r->global * seq / lb;
    if (full && best <= ps->results[ps->capacity - 1].shard.score) return 1; /* NaN: no */
    return best < other;
}

/* hwfit_model_flops' attention FLOPs per token at the sequence length (what train_step
 * takes) in *out: 1, or 0 when they cannot be had. Out of slice_train's frame. */
static int attention_at(const hwfit_model *m, uint64_t seq, double *out) {
    hwfit_model_flops_out f;
    if (hwfit_model_flops(m, seq, &f) != HWFIT_OK) return 0;
    *out = f.attention_flop;
    return 1;
}

/* The training search. A layout's memory fit is evaluated first (the fitting count needs
 * it), then, once the list is full of fitting layouts, the step time's lower bound
 * (train_bound): a layout whose best possible score does not beat the last one kept
 * could not enter the list, and is not timed. The list is the one the full search keeps,
 * bit for bit. Its own frame: what it keeps between layouts (the stages by kind, the
 * bound, the collectives' memo) is not on the inference search's stack. */
_Static_assert(offsetof(hwfit_perf_out, shard) == 0, "slice_train clears what follows shard");
HWFIT__NOINLINE
static hwfit_status slice_train(slice_state *ss) {
    plan_slice *ps = ss->ps;
    const hwfit_perf_in *in = ps->in;
    perf_ctx *c = &ss->c;
    hwfit_perf_result *kept = ps->results;
    size_t cap = ps->capacity;
    /* The shard input with the current layout (slice_next sets it): the fit reads it; the
     * timing reads the layout through r only, and the rest of the input through c->in. */
    hwfit_shard_in x = in->shard;
    ss->x = &x;
    /* The bound needs the attention FLOPs at the sequence length (train_step's); when they
     * cannot be had, every layout is timed and fails as train_step fails. */
    double attention_flop = 0.0;
    int bounded = attention_at(ps->model, in->shard.memory.context, &attention_flop);
    double seq = (double)in->shard.memory.context;
    /* The stages by kind of the last pp and v (consecutive layouts share them: zero and
     * offload vary fastest), and the bound of the last layout but for zero and offload,
     * which it does not depend on. */
    hwfit__shard_stages stages;
    stages.pp = 0;
    bound_memo bm;
    memset(&bm, 0, sizeof bm);
    plan_memo memo; /* the collectives of the layouts timed */
    memo.steps = memo.step_next = memo.colls = memo.coll_next = 0;
    memo.singles.count = memo.singles.next = 0;
    c->memo = &memo;
    hwfit_layout l;
    hwfit__shard_resolved r;
    uint64_t k = 0;
    hwfit_status st = HWFIT_OK;
    while (slice_next(ss, &l, &r, &k)) {
        /* estimate()'s steps for a layout the enumeration resolved and checked: the fit
         * (which writes o.shard whole when it succeeds), the rest of o cleared only for a
         * layout that is timed (most are not). */
        hwfit_perf_out o;
        if (stages.pp != r.pp || stages.v != r.v) hwfit__shard_stages_of(c->e, &r, &stages);
        /* Without include_unfit a layout that does not fit is dropped: its fit stops at the
         * first card that does not (most layouts of a large space do not fit). */
        st = ps->space->include_unfit
                 ? hwfit__shard_fit_stages(c->e, ss->x, &r, &stages, &o.shard)
                 : hwfit__shard_fit_or_miss(c->e, ss->x, &r, &stages, &o.shard);
        if (st == HWFIT_ERANGE) continue;
        if (st != HWFIT_OK) break;
        if (o.shard.fits) ss->sum.fitting++;
        else if (!ps->space->include_unfit) continue;
        if (cap == 0) continue; /* nothing is kept: the counts alone */
        int full = ss->sum.count == cap && kept[cap - 1].shard.fits;
        double other = plan_shared_get(ps); /* another thread's list, -HUGE_VAL */
        if (bounded && (full || other > -HUGE_VAL)) {
            if (!o.shard.fits) continue; /* ranks after every layout kept */
            if (!bm.valid || !bound_same(&bm.r, &r)) {
                bm.lb = train_bound(c, &r, &stages, attention_flop, bm.most);
                bm.r = r;
                bm.valid = 1;
                bm.comm = 0;
            }
            /* The compute's bound first; the communication's only when that does not
             * prune (it costs collectives). */
            if (bound_prunes(ss, &r, bm.lb, seq, full, other)) continue;
            if (!bm.comm) {
                bm.lb = train_bound_comm(c, &r, bm.most, bm.lb);
                bm.comm = 1;
                if (bound_prunes(ss, &r, bm.lb, seq, full, other)) continue;
            }
        }
        ps->timed++;
        memset((unsigned char *)&o + sizeof o.shard, 0, sizeof o - sizeof o.shard);
        o.precision = c->precision;
        o.peak_flop_per_s = c->peak;
        st = train_step(c, &r, &stages, &o);
        if (st == HWFIT_ERANGE) continue;
        if (st != HWFIT_OK) break;
        slice_keep(ss, &o, 1, k);
    }
    c->memo = NULL; /* it leaves with this frame */
    return st == HWFIT_OK || st == HWFIT_ERANGE ? HWFIT_OK : slice_fail(ps, k, st);
}

/* The search of one slice: its valid layouts, ranked into its list. */
static hwfit_status slice_run(plan_slice *ps) {
    hwfit_status st;
    slice_state ss;
    memset(&ss, 0, sizeof ss);
    ss.ps = ps;
    if ((st = ctx_init(&ss.c, ps->model, ps->in, ps->e, NULL)) != HWFIT_OK) return st;
    if ((st = hwfit_shard_iter_init(&ss.it, ps->model, &ps->in->shard, ps->space)) != HWFIT_OK)
        return st;
    if ((st = hwfit_perf_plan_rank(ps->in, ps->space, &ss.rank)) != HWFIT_OK) return st;
    st = ps->in->shard.memory.mode != HWFIT_MEMORY_INFERENCE ? slice_train(&ss) : slice_infer(&ss);
    ss.c.in = ps->in; /* the copies left with their frames */
    ss.x = NULL;
    if (st != HWFIT_OK) return st;
    ss.sum.visited = ss.it.visited;
    ps->sum = ss.sum;
    return HWFIT_OK;
}

/* a before b in the sequential list: better, or as good and enumerated first. */
static int before(const hwfit_perf_result *a, uint64_t oa, const hwfit_perf_result *b,
                  uint64_t ob) {
    if (better(a, b)) return 1;
    return !better(b, a) && oa < ob;
}

/* One slice on its thread, with its own engine. */
static int slice_main(void *arg) {
    plan_slice *ps = arg;
    ps->status = hwfit__shard_engine_start(ps->e, ps->model);
    if (ps->status == HWFIT_OK) ps->status = slice_run(ps);
    return 0;
}

#if defined(__SANITIZE_THREAD__)
static void *plan_thread_main(void *arg) {
    (void)slice_main(arg);
    return NULL;
}
#elif !defined(__STDC_NO_THREADS__)
#define plan_thread_main slice_main
#endif

/* The search on n threads: slice t takes the blocks t, t + n, ... of the valid layouts;
 * each keeps the best `capacity` of its own, in its order (best, then enumeration order).
 * plan_start starts slices 1 to n - 1 on their threads (each with its own engine) and
 * gives the slices, slice 0 to run on the calling thread with its engine e; NULL when
 * memory or sizes do not allow it (the caller then searches alone). The caller runs the
 * slices whose thread did not start; plan_finish waits for the threads, merges the lists
 * in that order, which gives the one list of one thread, and returns the status of the
 * layout that failed first in the enumeration, where one thread would stop. The slices
 * the caller runs run in its frame, not below these: the search's stack is the single
 * thread's. */
static plan_slice *plan_start(hwfit__shard_engine *e, const hwfit_model *model,
                              const hwfit_perf_in *in, const hwfit_shard_space *space,
                              size_t capacity, uint32_t n) {
    size_t per = sizeof(hwfit_perf_result) + sizeof(uint64_t), lists, bytes;
    if (capacity > SIZE_MAX / per / n) return NULL;
    lists = per * capacity * n;
    bytes = (sizeof(plan_slice) + sizeof(hwfit__shard_engine_storage)) * n;
    if (lists > SIZE_MAX - bytes) return NULL;
    bytes += lists;
    /* one block: the engines, the slices, their results, their ordinals */
    hwfit__shard_engine_storage *engines = malloc(bytes);
    if (engines == NULL) return NULL;
    memset(engines, 0, bytes);
    plan_slice *ps = (plan_slice *)(void *)(engines + n);
    hwfit_perf_result *lists_r = (hwfit_perf_result *)(void *)(ps + n);
    uint64_t *lists_o = (uint64_t *)(void *)(lists_r + capacity * n);
    for (uint32_t t = 0; t < n; t++) {
        ps[t].e = t == 0 ? e : hwfit__shard_engine_in(&engines[t]);
        ps[t].model = model;
        ps[t].in = in;
        ps[t].space = space;
        ps[t].slice = t;
        ps[t].slices = n;
        ps[t].results = lists_r + capacity * t;
        ps[t].order = lists_o + capacity * t;
        ps[t].capacity = capacity;
#if PLAN_SHARED
        ps[t].shared = &ps[0].kth;
#endif
    }
#if PLAN_SHARED
    atomic_init(&ps[0].kth, -HUGE_VAL);
#endif
#if PLAN_THREADS
    for (uint32_t t = 1; t < n; t++)
        ps[t].started = PLAN_THREAD_START(ps[t].thread, plan_thread_main, &ps[t]);
#endif
    return ps;
}

static hwfit_status plan_finish(plan_slice *ps, uint32_t n, hwfit_perf_result *results,
                                size_t capacity, hwfit_shard_search_out *summary) {
#if PLAN_THREADS
    for (uint32_t t = 1; t < n; t++)
        if (ps[t].started) PLAN_THREAD_JOIN(ps[t].thread);
#endif
    hwfit_status st = HWFIT_OK;
    uint64_t fail_at = UINT64_MAX;
    hwfit_shard_search_out sum;
    memset(&sum, 0, sizeof sum);
    for (uint32_t t = 0; t < n; t++) {
        if (ps[t].status != HWFIT_OK && (st == HWFIT_OK || ps[t].fail_at < fail_at)) {
            st = ps[t].status;
            fail_at = ps[t].fail_at;
        }
        sum.valid += ps[t].sum.valid;
        sum.fitting += ps[t].sum.fitting;
    }
    if (st == HWFIT_OK) {
        sum.visited = ps[0].sum.visited;
        while (sum.count < capacity) {
            uint32_t pick = n;
            for (uint32_t t = 0; t < n; t++) {
                const plan_slice *a = &ps[t], *b = &ps[pick < n ? pick : 0];
                if (a->head == a->sum.count) continue;
                if (pick == n || before(&a->results[a->head], a->order[a->head],
                                        &b->results[b->head], b->order[b->head]))
                    pick = t;
            }
            if (pick == n) break;
            results[sum.count++] = ps[pick].results[ps[pick].head++];
        }
        *summary = sum;
    }
    free((hwfit__shard_engine_storage *)(void *)ps - n); /* the block starts with the engines */
    return st;
}

hwfit_status hwfit__perf_plan_at(hwfit__shard_engine *e, const hwfit_model *model,
                                 const hwfit_perf_in *in, const hwfit_shard_space *space,
                                 hwfit_perf_result *results, size_t capacity,
                                 hwfit_shard_search_out *summary) {
    if (model == NULL || in == NULL || space == NULL || summary == NULL ||
        (results == NULL && capacity > 0))
        return HWFIT_EINVAL;
    hwfit_status st = hwfit__shard_engine_start(e, model);
    if (st != HWFIT_OK) return st;
    if ((st = hwfit__shard_check_in(&in->shard, NULL)) != HWFIT_OK) return st;
    if (in->threads == 0 || in->threads > HWFIT_PERF_MAX_THREADS) return HWFIT_EDOM;
    plan_slice *many = in->threads > 1 ? plan_start(e, model, in, space, capacity, in->threads)
                                       : NULL;
    if (many != NULL) {
        many[0].status = slice_run(&many[0]);
        /* The slices whose thread did not start, here (in this frame, not below
         * plan_finish's: the stack of the search stays the single thread's). */
        for (uint32_t t = 1; t < in->threads; t++) {
#if PLAN_THREADS
            if (many[t].started) continue;
#endif
            many[t].status = hwfit__shard_engine_start(many[t].e, model);
            if (many[t].status == HWFIT_OK) many[t].status = slice_run(&many[t]);
        }
        return plan_finish(many, in->threads, results, capacity, summary);
    }
    plan_slice ps;
    memset(&ps, 0, sizeof ps);
    ps.e = e;
    ps.model = model;
    ps.in = in;
    ps.space = space;
    ps.slices = 1;
    ps.results = results;
    ps.capacity = capacity;
    if ((st = slice_run(&ps)) != HWFIT_OK) return st;
    *summary = ps.sum;
    return HWFIT_OK;
}

hwfit_status hwfit_perf_plan(const hwfit_model *model, const hwfit_perf_in *in,
                             const hwfit_shard_space *space, hwfit_perf_result *results,
                             size_t capacity, hwfit_shard_search_out *summary) {
    hwfit__shard_engine_storage engine; /* a few KB: the engine lives for this call */
    return hwfit__perf_plan_at(hwfit__shard_engine_in(&engine), model, in, space, results,
                               capacity, summary);
}

/* serve.c - serving as engines allocate it (docs/formulas.md, "serve").
 *
 * The memory figures are shard.c's (weights, KV bytes per token, the activation workspace
 * of a forward pass of a chunk, communication buffers) and the times perf.c's (prefill and
 * decode rooflines with collective.c's all-reduces); this file holds the engine profiles
 * and turns those figures into what an engine logs: KV-cache tokens and blocks, the
 * concurrency that fits, and the rates of a continuously batched workload.
 */
#include <math.h>
#include <string.h>

#include "hwfit/gpu.h"
#include "hwfit/model.h"
#include "hwfit/perf.h"
#include "hwfit/serve.h"
#include "hwfit/shard.h"
#include "hwfit/status.h"

#include "base/internal.h"
#include "domains/perf_internal.h"
#include "domains/serve_internal.h"

#define GIB_ 1073741824.0

void hwfit_serve_init(hwfit_serve_in *in) {
    if (in == NULL) return;
    memset(in, 0, sizeof *in);
    hwfit_perf_init(&in->perf);
    in->engine = HWFIT_SERVE_VLLM;
    in->prompt_tokens = 1024;
    in->output_tokens = 1024;
    in->cuda_graphs = 1;
    in->cuda_graph_bytes = -1.0;
    in->non_torch_bytes = -1.0;
    in->step_overhead_s = -1.0;
}

hwfit_status hwfit_serve_set_gpu(hwfit_serve_in *in, const hwfit_gpu *gpu) {
    if (in == NULL || gpu == NULL) return HWFIT_EINVAL;
    hwfit_status st = hwfit_perf_set_gpu(&in->perf, gpu);
    if (st != HWFIT_OK) return st;
    in->fp16_acc16_flop_per_s = gpu->fp16_acc16_flop_per_s;
    in->compute_capability = gpu->compute_capability;
    return HWFIT_OK;
}

static const char *const engine_names[] = {"vllm", "sglang", "tensorrt-llm", "llama.cpp"};

const char *hwfit_serve_engine_name(hwfit_serve_engine e) {
    if ((unsigned)e > (unsigned)HWFIT_SERVE_LLAMA_CPP) return "unknown";
    return engine_names[e];
}

hwfit_status hwfit_serve_engine_from_name(const char *name, hwfit_serve_engine *e) {
    if (name == NULL || e == NULL) return HWFIT_EINVAL;
    static const struct { const char *name; hwfit_serve_engine e; } names[] = {
        {"vllm", HWFIT_SERVE_VLLM},           {"sglang", HWFIT_SERVE_SGLANG},
        {"tensorrt-llm", HWFIT_SERVE_TENSORRT_LLM}, {"trtllm", HWFIT_SERVE_TENSORRT_LLM},
        {"llama.cpp", HWFIT_SERVE_LLAMA_CPP}, {"llamacpp", HWFIT_SERVE_LLAMA_CPP}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i].name) == 0) {
            *e = names[i].e;
            return HWFIT_OK;
        }
    return HWFIT_ENOTFOUND;
}

const char *hwfit_serve_bound_name(hwfit_serve_bound b) {
    switch (b) {
    case HWFIT_SERVE_BOUND_COMPUTE: return "compute";
    case HWFIT_SERVE_BOUND_MEMORY: return "memory-bandwidth";
    case HWFIT_SERVE_BOUND_KV_CAPACITY: return "kv-capacity";
    case HWFIT_SERVE_BOUND_INTERCONNECT: return "interconnect";
    case HWFIT_SERVE_BOUND_OVERHEAD: return "overhead";
    case HWFIT_SERVE_BOUND_CONCURRENCY: return "concurrency";
    }
    return "unknown";
}

/* ---- engine profiles ---------------------------------------------------------------------- */

/* Card generations the efficiencies are fitted per (compute capability). */
enum { GEN_AMPERE = 0, GEN_ADA = 1, GEN_HOPPER = 2, GEN_BLACKWELL = 3, GEN_COUNT };

static int generation(uint32_t cc) {
    if (cc == 0) return GEN_HOPPER;
    if (cc < 89) return GEN_AMPERE;
    if (cc < 90) return GEN_ADA;
    if (cc < 100) return GEN_HOPPER;
    return GEN_BLACKWELL;
}

/* One engine's profile (docs/formulas.md, "serve": every value with its source). */
typedef struct profile {
    double utilization;
    uint64_t batched_tokens, seqs;
    uint32_t block;
    double graph_bytes, non_torch_bytes, activation_factor;
    double sampler_copies; /* [max_num_seqs, vocab] fp32 tensors of the profiled sampler */
    double prefill[GEN_COUNT], decode[GEN_COUNT], memory[GEN_COUNT];
    double step_overhead_s;
    int fp16_acc16; /* FP16 matmuls accumulate in FP16 */
} profile;

/* Efficiencies fitted to tests/data/measured (docs/accuracy.md, "serving"). Ampere, Ada,
 * Hopper, Blackwell. vLLM and SGLang: 0.4 of the dense peak in prefill and decode, one value
 * for both engines and all generations, fitted to their four offline ShareGPT cases (SGLang's
 * benchmark/benchmark_vllm_060/README.md: Llama 3.1 8B on an A100, 70B on 4 H100 with TP 4;
 * within 11 %): continuous batches of a few hundred sequences mix decode GEMMs of M = batch
 * rows, which run below the large-GEMM rate, with chunked prefill, and the 70B's TP-4
 * all-reduces are timed apart by collective.h. Their bandwidth efficiency keeps perf.h's cited
 * 0.85 (no memory-bound case of theirs in the set yet). */
static const profile profiles[] = {
    [HWFIT_SERVE_VLLM] = {.utilization = 0.92, .batched_tokens = 0, .seqs = 0, .block = 16,
                          .graph_bytes = 0.5 * GIB_, .non_torch_bytes = 0.7 * GIB_,
                          .activation_factor = 1.0, .sampler_copies = 2.0,
                          .prefill = {0.4, 0.4, 0.4, 0.4},
                          .decode = {0.4, 0.4, 0.4, 0.4},
                          .memory = {0.85, 0.85, 0.85, 0.85},
                          .step_overhead_s = 0.0},
    [HWFIT_SERVE_SGLANG] = {.utilization = 0.88, .batched_tokens = 8192, .seqs = 2048,
                            /* 2 GiB outside tensors: SGLang measures free memory after
                             * the load, so the CUDA context, NCCL and its custom all-reduce
                             * buffers count (about 1.2 GiB), plus the gap between the
                             * catalog's GiB and what CUDA reports (0.8 GiB on an H100);
                             * fitted to its two KV logs (DeepSeek-R1 TP 16 on H20,
                             * Qwen3-235B FP8 TP 4 on H100: +0.9 %, +4.6 %). */
                            .block = 1, .graph_bytes = 0.0, .non_torch_bytes = 2.0 * GIB_,
                            .activation_factor = 0.0,
                            .prefill = {0.4, 0.4, 0.4, 0.4},
                            .decode = {0.4, 0.4, 0.4, 0.4},
                            .memory = {0.85, 0.85, 0.85, 0.85},
                            .step_overhead_s = 0.0},
    [HWFIT_SERVE_TENSORRT_LLM] = {.utilization = 0.9, .batched_tokens = 8192, .seqs = 2048,
                                  .block = 32, .graph_bytes = 0.0,
                                  .non_torch_bytes = 1.0 * GIB_, .activation_factor = 1.0,
                                  .sampler_copies = 1.0,
                                  .prefill = {0.45, 0.45, 0.45, 0.45},
                                  .decode = {0.45, 0.45, 0.45, 0.45},
                                  .memory = {0.9, 0.9, 0.9, 0.9},
                                  .step_overhead_s = 0.0},
    [HWFIT_SERVE_LLAMA_CPP] = {.utilization = 1.0, .batched_tokens = 2048, .seqs = 1,
                               .block = 1, .graph_bytes = 0.0, .non_torch_bytes = 0.5 * GIB_,
                               .activation_factor = 1.0, .sampler_copies = 1.0,
                               .prefill = {0.46, 0.38, 0.46, 0.46},
                               .decode = {0.6, 0.6, 0.6, 0.6},
                               .memory = {0.95, 0.95, 0.95, 0.95},
                               .step_overhead_s = 0.003, .fp16_acc16 = 1},
};

/* The profile with the inputs' overrides: what the estimate uses. */
typedef struct used {
    double utilization, graph_bytes, non_torch_bytes, activation_factor, sampler_copies;
    double prefill, decode, memory, step_overhead_s;
    uint64_t batched_tokens, seqs, max_model_len;
    uint32_t block;
} used;

static void resolve(const hwfit_serve_in *in, used *u) {
    const profile *p = &profiles[in->engine];
    int gen = generation(in->compute_capability);
    /* vLLM's arg_utils.py (_set_default_args): 8192 batched tokens and 1024 sequences for
     * the API server on cards of 70 GiB or more, 2048 and 256 below. */
    int big = in->perf.shard.capacity_bytes >= 70.0 * GIB_;
    u->utilization = in->utilization > 0.0 ? in->utilization : p->utilization;
    u->batched_tokens = in->max_num_batched_tokens  ? in->max_num_batched_tokens
                        : p->batched_tokens        ? p->batched_tokens
                        : big                      ? 8192
                                                   : 2048;
    u->seqs = in->max_num_seqs ? in->max_num_seqs : p->seqs ? p->seqs : big ? 1024 : 256;
    u->max_model_len = in->max_model_len ? in->max_model_len
                                         : in->prompt_tokens + in->output_tokens;
    if (in->engine == HWFIT_SERVE_SGLANG) {
        /* python/sglang/srt/server_args.py, ServerArgs.__post_init__ (0.3 to 0.4 releases):
         * mem_fraction_static by tensor parallelism, leaving the larger activations and CUDA
         * graphs of wide TP outside the pool: TP >= 16 0.79, >= 8 0.81 (0.83 before 0.4),
         * >= 4 0.85, >= 2 0.87, else 0.88; chunked_prefill_size 2048 on cards under 25,000
         * MB, else 8192. */
        uint32_t tp = in->perf.shard.layout.tp ? in->perf.shard.layout.tp : 1;
        if (!(in->utilization > 0.0))
            u->utilization = tp >= 16 ? 0.79 : tp >= 8 ? 0.81 : tp >= 4 ? 0.85
                             : tp >= 2 ? 0.87 : 0.88;
        if (!in->max_num_batched_tokens)
            u->batched_tokens = in->perf.shard.capacity_bytes < 25000.0 * 1048576.0 ? 2048 : 8192;
    }
    int v0 = in->engine == HWFIT_SERVE_VLLM && in->engine_version != 0 &&
             in->engine_version < 8000; /* V1 became the default in vLLM 0.8.0 */
    /* gpu_memory_utilization: 0.92 in the current vllm/config/cache.py, 0.9 in 0.10.2's
     * and before (the release that changed it is not pinned: read as 0.11). */
    if (in->engine == HWFIT_SERVE_VLLM && in->engine_version != 0 &&
        in->engine_version < 11000 && !(in->utilization > 0.0))
        u->utilization = 0.9;
    if (v0) {
        if (!in->max_num_batched_tokens)
            u->batched_tokens = u->max_model_len > 2048 ? u->max_model_len : 2048;
        if (!in->max_num_seqs) u->seqs = 256;
    }
    u->block = in->block_size ? in->block_size : p->block;
    u->graph_bytes = !in->cuda_graphs || (v0 && in->cuda_graph_bytes < 0.0) ? 0.0
                     : in->cuda_graph_bytes >= 0.0 ? in->cuda_graph_bytes
                                                   : p->graph_bytes;
    u->non_torch_bytes = in->non_torch_bytes >= 0.0 ? in->non_torch_bytes : p->non_torch_bytes;
    u->activation_factor = in->activation_factor > 0.0 ? in->activation_factor
                                                       : p->activation_factor;
    /* V0 samples the profiling pass's logits in place; V1's dummy sampler run holds a
     * second fp32 copy (probabilities) of the [max_num_seqs, vocab] logits. */
    u->sampler_copies = v0 ? 1.0 : p->sampler_copies;
    u->prefill = in->prefill_efficiency > 0.0 ? in->prefill_efficiency : p->prefill[gen];
    u->decode = in->decode_efficiency > 0.0 ? in->decode_efficiency : p->decode[gen];
    u->memory = in->memory_efficiency > 0.0 ? in->memory_efficiency : p->memory[gen];
    u->step_overhead_s = in->step_overhead_s >= 0.0 ? in->step_overhead_s : p->step_overhead_s;
}

/* ---- checks ------------------------------------------------------------------------------- */

static hwfit_status check(const hwfit_serve_in *in, hwfit_problem *why) {
    if ((unsigned)in->engine > (unsigned)HWFIT_SERVE_LLAMA_CPP)
        return hwfit__why(why, HWFIT_EINVAL, "engine", HWFIT__ENUM);
    if (in->prompt_tokens > HWFIT_MODEL_MAX_SIZE)
        return hwfit__why(why, HWFIT_EDOM, "prompt_tokens", "must be at most 2^40");
    if (in->output_tokens > HWFIT_MODEL_MAX_SIZE)
        return hwfit__why(why, HWFIT_EDOM, "output_tokens", "must be at most 2^40");
    if (in->prompt_tokens + in->output_tokens == 0)
        return hwfit__why(why, HWFIT_EDOM, "output_tokens",
                          "plus prompt_tokens must be at least 1");
    if (in->max_model_len > HWFIT_MODEL_MAX_SIZE)
        return hwfit__why(why, HWFIT_EDOM, "max_model_len", "must be at most 2^40");
    if (in->max_model_len != 0 && in->max_model_len < in->prompt_tokens + in->output_tokens)
        return hwfit__why(why, HWFIT_EDOM, "max_model_len",
                          "must hold prompt_tokens + output_tokens");
    if (in->concurrency > (1ull << 30))
        return hwfit__why(why, HWFIT_EDOM, "concurrency", "must be at most 2^30");
    if (in->max_num_seqs > (1ull << 30))
        return hwfit__why(why, HWFIT_EDOM, "max_num_seqs", "must be at most 2^30");
    if (in->max_num_batched_tokens > HWFIT_MODEL_MAX_SIZE)
        return hwfit__why(why, HWFIT_EDOM, "max_num_batched_tokens", "must be at most 2^40");
    if (in->block_size > (1u << 20))
        return hwfit__why(why, HWFIT_EDOM, "block_size", "must be at most 2^20");
    if (!hwfit__in_range(in->request_rate, 0.0, 1e9))
        return hwfit__why(why, HWFIT_EDOM, "request_rate", "must be in [0, 1e9] per s");
    if (in->request_rate > 0.0 && in->concurrency > 0)
        return hwfit__why(why, HWFIT_EDOM, "request_rate", "and concurrency exclude each other");
    const struct { double v; const char *field; } fractions[] = {
        {in->utilization, "utilization"},
        {in->prefill_efficiency, "prefill_efficiency"},
        {in->decode_efficiency, "decode_efficiency"},
        {in->memory_efficiency, "memory_efficiency"}};
    for (size_t i = 0; i < sizeof fractions / sizeof fractions[0]; i++)
        if (!hwfit__in_range(fractions[i].v, 0.0, 1.0))
            return hwfit__why(why, HWFIT_EDOM, fractions[i].field,
                              "must be in [0, 1] (0: the engine's)");
    if (!(in->activation_factor == 0.0 || hwfit__in_range(in->activation_factor, 1.0, 16.0)))
        return hwfit__why(why, HWFIT_EDOM, "activation_factor",
                          "must be 0 (the engine's) or in [1, 16]");
    const struct { double v; const char *field; } sizes[] = {
        {in->cuda_graph_bytes, "cuda_graph_bytes"}, {in->non_torch_bytes, "non_torch_bytes"}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (!hwfit__in_range(sizes[i].v, -1.0, 9007199254740992.0))
            return hwfit__why(why, HWFIT_EDOM, sizes[i].field,
                              "must be below 0 (the engine's) or in [0, 2^53] bytes");
    if (!hwfit__in_range(in->step_overhead_s, -1.0, 1e6))
        return hwfit__why(why, HWFIT_EDOM, "step_overhead_s",
                          "must be below 0 (the engine's) or in [0, 1e6] s");
    if (!hwfit__in_range(in->fp16_acc16_flop_per_s, 0.0, 1e21))
        return hwfit__why(why, HWFIT_EDOM, "fp16_acc16_flop_per_s", "must be in [0, 1e21]");
    if (in->perf.shard.memory.mode != HWFIT_MEMORY_INFERENCE)
        return hwfit__why(why, HWFIT_EDOM, "perf.shard.memory.mode", "must be inference");
    return HWFIT_OK;
}

/* ---- memory ------------------------------------------------------------------------------- */

static uint64_t to_u64(double x) {
    if (!(x > 0.0)) return 0;
    if (x >= 18446744073709551615.0) return UINT64_MAX;
    return (uint64_t)x;
}

/* The KV capacity: the engine's budget minus what it accounts before the cache, on the
 * largest card (shard.h's figures for a forward pass of batched_tokens tokens). */
static hwfit_status kv_capacity(hwfit__shard_engine *e, const hwfit_model *m,
                                const hwfit_serve_in *in, const used *u, hwfit_serve_out *o,
                                hwfit_problem *why) {
    hwfit_shard_in x = in->perf.shard;
    /* llama.cpp's GGUF files quantize token_embd and output with the rest. */
    if (in->engine == HWFIT_SERVE_LLAMA_CPP) x.memory.keep_embeddings = 0;
    x.memory.batch = in->engine == HWFIT_SERVE_LLAMA_CPP ? 1 : u->seqs;
    x.memory.context = u->max_model_len;
    x.memory.prefill_chunk = u->batched_tokens;
    x.memory.overhead_bytes = 0.0;
    x.utilization = 1.0;
    x.reserve_bytes = 0.0;
    hwfit_shard_out so;
    /* hwfit_shard_estimate with the caller's engine (started afresh: no second engine on the
     * stack, tests/stack). */
    hwfit_status st = hwfit__shard_engine_start(e, m);
    if (st == HWFIT_OK) st = hwfit__shard_estimate_engine(e, &x, &so);
    if (st != HWFIT_OK) {
        if (why != NULL) {
            hwfit_problem p;
            /* shard.h's field names (fields of hwfit_shard_in, i.e. of perf.shard). */
            if (hwfit__shard_validate_at(e, m, &x, &p) == st)
                return hwfit__why_at(why, st, p.field, p.index, p.rule);
        }
        return st;
    }
    const hwfit_shard_card *c = &so.worst;
    double cap = in->perf.shard.capacity_bytes;
    /* memory.h's workspace of the chunk and one fp32 logits row per sequence; vLLM V1's
     * sampler pass adds further copies of the logits. */
    double sampler = (u->sampler_copies - 1.0) * (double)x.memory.batch * 4.0 *
                     (double)m->vocab;
    double act = in->engine == HWFIT_SERVE_SGLANG
                     ? 0.0
                     : ceil((double)c->activation_bytes * u->activation_factor + sampler);
    double other = (double)(c->total_bytes - c->weights_bytes - c->kv_bytes -
                            c->activation_bytes - c->overhead_bytes);
    double accounted = (double)c->weights_bytes + act + u->graph_bytes + u->non_torch_bytes +
                       other;
    double budget, avail;
    if (in->engine == HWFIT_SERVE_TENSORRT_LLM) {
        /* free_gpu_memory_fraction of what is free once the engine is loaded. */
        budget = cap;
        avail = u->utilization * (cap - accounted);
    } else {
        budget = cap * u->utilization;
        avail = budget - accounted;
    }
    uint64_t per_token = c->kv_bytes_per_token;
    uint64_t block = u->block ? u->block : 1;
    uint64_t tokens = 0;
    if (in->engine == HWFIT_SERVE_LLAMA_CPP) {
        tokens = u->max_model_len; /* n_ctx, allocated at start */
        o->fits = avail >= (double)tokens * (double)per_token;
    } else {
        if (per_token > 0 && avail > 0.0) {
            double blocks = floor(avail / ((double)per_token * (double)block));
            tokens = to_u64(blocks * (double)block);
        }
        o->fits = tokens >= u->max_model_len;
    }
    o->capacity_bytes = to_u64(cap);
    o->budget_bytes = to_u64(budget);
    o->weights_bytes = c->weights_bytes;
    o->activation_bytes = to_u64(act);
    o->cuda_graph_bytes = to_u64(u->graph_bytes);
    o->non_torch_bytes = to_u64(u->non_torch_bytes);
    o->other_bytes = to_u64(other);
    o->kv_bytes_per_token = per_token;
    o->kv_cache_tokens = tokens;
    o->kv_cache_blocks = tokens / block;
    o->kv_cache_bytes = tokens * per_token;
    uint32_t dp = so.layout.dp ? so.layout.dp : 1;
    o->request_tokens = in->prompt_tokens + in->output_tokens;
    o->max_concurrency = (double)dp * (double)tokens / (double)o->request_tokens;
    o->max_concurrency_model_len = (double)dp * (double)tokens / (double)u->max_model_len;
    return HWFIT_OK;
}

/* ---- rates -------------------------------------------------------------------------------- */

typedef struct step_eval {
    double step_s, compute_s, memory_s, comm_s, overhead_s;
} step_eval;

/* One decode step of the whole batch with the prefill of the requests that replace the
 * finished ones mixed in (continuous batching in steady state: each step finishes
 * concurrency / output requests per replica, whose prompt tokens join the step). */
static hwfit_status rates_at(hwfit__shard_engine *e, const hwfit_model *m,
                             const hwfit_serve_in *in, const used *u, uint64_t conc,
                             hwfit_perf_out *po, step_eval *se, hwfit_perf_in *failed) {
    hwfit_perf_in p = in->perf;
    if (in->engine == HWFIT_SERVE_LLAMA_CPP) p.shard.memory.keep_embeddings = 0;
    uint64_t gpn = p.topology.gpus_per_node ? p.topology.gpus_per_node : 1;
    if (p.topology.nics_per_node == 0 && p.shard.gpus > gpn) {
        /* Cards over several nodes and no network described: one 400 Gb/s port per GPU,
         * the HGX reference design (collective.h's default port). */
        p.topology.nics_per_node = gpn;
    }
    p.shard.memory.batch = conc;
    p.shard.memory.context = in->prompt_tokens ? in->prompt_tokens : 1;
    p.shard.memory.prefill_chunk = u->batched_tokens;
    p.shard.memory.overhead_bytes = u->graph_bytes + u->non_torch_bytes;
    p.shard.utilization = u->utilization;
    p.output_tokens = in->output_tokens;
    p.prefill_efficiency = u->prefill;
    p.decode_compute_efficiency = u->decode;
    p.memory_efficiency = u->memory;
    p.step_overhead_s = u->step_overhead_s;
    p.moe_active_reads = 1;
    p.target_tokens_per_s = 0.0;
    if (profiles[in->engine].fp16_acc16 && in->fp16_acc16_flop_per_s > p.bf16_flop_per_s)
        p.bf16_flop_per_s = in->fp16_acc16_flop_per_s;
    /* po is the caller's scratch: perf writes it in place (no copy on this chain). */
    hwfit_status st = hwfit__perf_estimate_scratch_at(e, m, &p, po);
    if (st != HWFIT_OK) {
        /* The validator asks perf.h why, at its own level: nested here, perf's validation
         * would sit on this frame and the estimate's (no call may need 16 KiB of stack). */
        if (failed != NULL) *failed = p;
        return st;
    }
    uint32_t pp = po->shard.layout.pp ? po->shard.layout.pp : 1;
    uint32_t dp = po->shard.layout.dp ? po->shard.layout.dp : 1;
    double per_replica = ceil((double)conc / (double)dp);
    double prompt = (double)in->prompt_tokens;
    double joining = in->output_tokens ? per_replica * prompt / (double)in->output_tokens : 0.0;
    double pc_tok = prompt > 0.0 ? po->prefill_compute_s / prompt : 0.0;
    double pcomm_tok = prompt > 0.0 ? po->prefill_comm_s / prompt : 0.0;
    se->compute_s = (double)pp * po->decode_compute_s + joining * pc_tok / (double)pp;
    se->memory_s = (double)pp * po->decode_memory_s;
    se->comm_s = (double)pp * po->decode_comm_s + joining * pcomm_tok / (double)pp;
    se->overhead_s = u->step_overhead_s;
    se->step_s = fmax(se->compute_s, se->memory_s) + se->comm_s + se->overhead_s;
    return HWFIT_OK;
}

static hwfit_serve_bound bound_of(double compute, double memory, double comm, double overhead) {
    double top = fmax(fmax(compute, memory), fmax(comm, overhead));
    if (top == comm && comm > 0.0) return HWFIT_SERVE_BOUND_INTERCONNECT;
    if (top == overhead && overhead > 0.0) return HWFIT_SERVE_BOUND_OVERHEAD;
    return compute > memory ? HWFIT_SERVE_BOUND_COMPUTE : HWFIT_SERVE_BOUND_MEMORY;
}

/* The estimate, written into *out as it goes (the callers pass their own scratch and copy
 * it on success); a perf refusal leaves perf.h's input in *failed (may be NULL). */
static hwfit_status estimate(hwfit__shard_engine *e, const hwfit_model *m,
                             const hwfit_serve_in *in, hwfit_serve_out *out, hwfit_problem *why,
                             hwfit_perf_in *failed) {
    hwfit_status st = check(in, why);
    if (st != HWFIT_OK) return st;
    used u;
    resolve(in, &u);
    hwfit_serve_out *op = out;
#define o (*op)
    memset(&o, 0, sizeof o);
    o.utilization = u.utilization;
    o.max_num_batched_tokens = u.batched_tokens;
    o.max_num_seqs = u.seqs;
    o.block_size = u.block;
    o.max_model_len = u.max_model_len;
    o.prefill_efficiency = u.prefill;
    o.decode_efficiency = u.decode;
    o.memory_efficiency = u.memory;
    o.step_overhead_s = u.step_overhead_s;
    if ((st = kv_capacity(e, m, in, &u, &o, why)) != HWFIT_OK) return st;

    /* The concurrency. */
    uint32_t dp = in->perf.shard.layout.dp ? in->perf.shard.layout.dp : 1;
    double fit = floor(o.max_concurrency);
    double cap_seqs = (double)u.seqs * (double)dp;
    uint64_t conc;
    if (in->concurrency > 0) {
        conc = in->concurrency;
        o.concurrency_bound = HWFIT_SERVE_BOUND_CONCURRENCY;
    } else if (in->engine == HWFIT_SERVE_LLAMA_CPP) {
        conc = 1;
        o.concurrency_bound = HWFIT_SERVE_BOUND_CONCURRENCY;
    } else {
        double c = fmin(fit, cap_seqs);
        o.concurrency_bound = fit < cap_seqs ? HWFIT_SERVE_BOUND_KV_CAPACITY
                                             : HWFIT_SERVE_BOUND_CONCURRENCY;
        conc = c >= 1.0 ? (uint64_t)c : 1;
    }
    hwfit_perf_out *po = &o.perf; /* the perf estimate lands in the answer (one copy) */
    step_eval se;
    if ((st = rates_at(e, m, in, &u, conc, po, &se, failed)) != HWFIT_OK) return st;
    if (in->request_rate > 0.0 && in->concurrency == 0) {
        /* Little's law: in flight = arrival rate x time in the system, to a fixed point. */
        uint64_t limit = conc;
        o.concurrency_bound = HWFIT_SERVE_BOUND_CONCURRENCY;
        for (int i = 0; i < 32; i++) {
            double t = po->prefill_s + (double)in->output_tokens * se.step_s;
            double want = ceil(in->request_rate * t);
            uint64_t next = want < 1.0 ? 1 : want >= (double)limit ? limit : (uint64_t)want;
            if (next == conc && i > 0) break;
            conc = next;
            if ((st = rates_at(e, m, in, &u, conc, po, &se, failed)) != HWFIT_OK) return st;
        }
        if (conc == limit && o.max_concurrency < cap_seqs)
            o.concurrency_bound = HWFIT_SERVE_BOUND_KV_CAPACITY;
    }
    o.concurrency = conc;
    o.ttft_s = po->prefill_s;
    o.ttft_bound = bound_of(po->prefill_compute_s, po->prefill_memory_s, po->prefill_comm_s, 0.0);
    double prompt = (double)in->prompt_tokens, output = (double)in->output_tokens;
    if (in->output_tokens > 0) {
        o.tpot_s = se.step_s;
        o.tpot_bound = bound_of(se.compute_s, se.memory_s, se.comm_s, se.overhead_s);
        o.output_tokens_per_s = (double)conc / se.step_s;
        o.output_tokens_per_s_per_user = 1.0 / se.step_s;
        o.prompt_tokens_per_s = o.output_tokens_per_s * prompt / output;
        o.request_per_s = o.output_tokens_per_s / output;
        o.throughput_bound = in->concurrency == 0 && in->request_rate == 0.0 &&
                                     o.concurrency_bound == HWFIT_SERVE_BOUND_KV_CAPACITY
                                 ? HWFIT_SERVE_BOUND_KV_CAPACITY
                                 : o.tpot_bound;
    } else {
        o.tpot_bound = o.ttft_bound;
        o.prompt_tokens_per_s = po->prefill_tokens_per_s;
        o.request_per_s = o.prompt_tokens_per_s / prompt;
        o.throughput_bound = o.ttft_bound;
    }
    o.total_tokens_per_s = o.output_tokens_per_s + o.prompt_tokens_per_s;
    const double results[] = {o.ttft_s, o.tpot_s, o.output_tokens_per_s,
                              o.output_tokens_per_s_per_user, o.prompt_tokens_per_s,
                              o.total_tokens_per_s, o.request_per_s, o.max_concurrency};
    for (size_t i = 0; i < sizeof results / sizeof results[0]; i++)
        if (!isfinite(results[i]))
            return hwfit__why(why, HWFIT_ERANGE, "", "a time or rate of the estimate overflows");
#undef o
    return HWFIT_OK;
}

hwfit_status hwfit__serve_estimate_at(hwfit__shard_engine *e, const hwfit_model *model,
                                      const hwfit_serve_in *in, hwfit_serve_out *out) {
    if (model == NULL || in == NULL || out == NULL) return HWFIT_EINVAL;
    return estimate(e, model, in, out, NULL, NULL);
}

hwfit_status hwfit_serve_estimate(const hwfit_model *model, const hwfit_serve_in *in,
                                  hwfit_serve_out *out) {
    if (model == NULL || in == NULL || out == NULL) return HWFIT_EINVAL;
    hwfit__shard_engine_storage engine; /* a few KB: the engine lives for this call */
    hwfit_serve_out o;                  /* out is written only on success */
    hwfit_status st = estimate(hwfit__shard_engine_in(&engine), model, in, &o, NULL, NULL);
    if (st == HWFIT_OK) *out = o;
    return st;
}

hwfit_status hwfit__serve_validate_at(hwfit__shard_engine *e, const hwfit_model *model,
                                      const hwfit_serve_in *in, hwfit_problem *problem) {
    hwfit_problem_clear(problem);
    if (model == NULL) return hwfit__why(problem, HWFIT_EINVAL, "model", HWFIT__NULL);
    if (in == NULL) return hwfit__why(problem, HWFIT_EINVAL, "in", HWFIT__NULL);
    /* The answer's scratch, or, after a refusal of perf.h, the perf input it refused. */
    union {
        hwfit_serve_out out;
        hwfit_perf_in perf;
    } w;
    hwfit_problem local;
    hwfit_problem_clear(&local);
    int perf_refused = 0;
    hwfit_perf_in *failed = &w.perf;
    hwfit_status st = estimate(e, model, in, &w.out, &local, failed);
    if (st == HWFIT_OK) return HWFIT_OK;
    if (local.status == HWFIT_OK) {
        /* perf.h's field names (fields of hwfit_perf_in, i.e. of perf). */
        hwfit_problem q;
        perf_refused = hwfit__perf_validate_at(e, model, &w.perf, &q) == st;
        if (perf_refused) return hwfit__why_at(problem, st, q.field, q.index, q.rule);
    }
    if (local.status != HWFIT_OK)
        return hwfit__why_at(problem, st, local.field, local.index, local.rule);
    return hwfit__why(problem, st, "", "the estimate refuses the inputs");
}

hwfit_status hwfit_serve_validate(const hwfit_model *model, const hwfit_serve_in *in,
                                  hwfit_problem *problem) {
    hwfit__shard_engine_storage engine; /* a few KB: the engine lives for this call */
    return hwfit__serve_validate_at(hwfit__shard_engine_in(&engine), model, in, problem);
}

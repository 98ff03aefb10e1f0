/* cmd_serve.c - `serve --config FILE --gpu NAME`: KV-cache capacity, concurrency and token
 * rates as a serving engine (vLLM, SGLang, TensorRT-LLM, llama.cpp) allocates and runs it. */
#include <string.h>

#include "hwfit/collective.h"
#include "hwfit/dtype.h"
#include "hwfit/gpu.h"
#include "hwfit/hf_config.h"
#include "hwfit/model.h"
#include "hwfit/serve.h"
#include "request_internal.h"
#include "workload.h"
#include "domains/serve_internal.h"

static const char *const engines[] = {"vllm", "sglang", "tensorrt-llm", "llama.cpp", NULL};
static const hwfit_serve_engine engine_values[] = {HWFIT_SERVE_VLLM, HWFIT_SERVE_SGLANG,
                                                   HWFIT_SERVE_TENSORRT_LLM,
                                                   HWFIT_SERVE_LLAMA_CPP};

#define NO_MAX 1.8446744073709552e19

enum {
    O_CONFIG, O_ENGINE, O_GPU, O_CAPACITY, O_GPUS, O_TP, O_PP, O_DP, O_EP, O_WEIGHTS,
    O_QUANTIZE_EMBEDDINGS, O_KV, O_CONTEXT, O_PROMPT, O_OUTPUT, O_CONCURRENCY, O_RATE,
    O_UTILIZATION, O_BATCHED_TOKENS, O_MAX_SEQS, O_BLOCK_SIZE, O_NO_CUDA_GRAPHS,
    O_CUDA_GRAPH_BYTES, O_NON_TORCH, O_ACTIVATION_FACTOR, O_PREFILL_EFF, O_DECODE_EFF,
    O_MEMORY_EFF, O_STEP_OVERHEAD, O_GPUS_PER_NODE, O_ENGINE_VERSION, O_NIC
};
static const hwfit_option options[] = {
    [O_CONFIG] = {.name = "model", .alias = "config", .kind = HWFIT_OPTION_FILE,
                  .metavar = "MODEL", .flags = HWFIT_OPTION_REQUIRED,
                  .example = "meta-llama/Llama-3.1-70B",
                  .help = "the model: a config.json path, a Hugging Face id, a short name "
                          "(see hwfit models) or the config.json text ('{...}')"},
    [O_ENGINE] = {.name = "engine", .kind = HWFIT_OPTION_CHOICE, .metavar = "NAME",
                  .default_text = "vllm", .choices = engines,
                  .help = "serving engine whose memory accounting and defaults are used"},
    [O_GPU] = {.name = "gpu", .kind = HWFIT_OPTION_NAME, .metavar = "NAME", .catalog = "gpu",
               .flags = HWFIT_OPTION_REQUIRED, .example = "h100-sxm",
               .help = "card from the catalog (see hwfit gpus)"},
    [O_CAPACITY] = {.name = "capacity", .kind = HWFIT_OPTION_QUANTITY,
                    .unit = HWFIT_UNIT_BYTES, .metavar = "SIZE", .default_help = "the card's",
                    .min = 1.0, .max = 1152921504606846976.0,
                    .help = "memory of one card as the engine sees it (e.g. 79.19GiB)"},
    [O_GPUS] = {.name = "gpus", .kind = HWFIT_OPTION_COUNT, .metavar = "N", .default_text = "1",
                .min = 1.0, .max = 65536.0, .help = "cards serving the model"},
    [O_TP] = {.name = "tp", .kind = HWFIT_OPTION_COUNT, .metavar = "N",
              .default_help = "all the cards", .min = 1.0, .max = 65536.0,
              .help = "tensor-parallel ranks"},
    [O_PP] = {.name = "pp", .kind = HWFIT_OPTION_COUNT, .metavar = "N", .default_text = "1",
              .min = 1.0, .max = 65536.0, .help = "pipeline stages"},
    [O_DP] = {.name = "dp", .kind = HWFIT_OPTION_COUNT, .metavar = "N", .default_text = "1",
              .min = 1.0, .max = 65536.0, .help = "data-parallel replicas"},
    [O_EP] = {.name = "ep", .kind = HWFIT_OPTION_COUNT, .metavar = "N", .default_text = "1",
              .min = 1.0, .max = 65536.0, .help = "expert-parallel ranks"},
    [O_WEIGHTS] = {.name = "weights", .kind = HWFIT_OPTION_TEXT, .metavar = "DTYPE",
                   .default_text = "bf16",
                   .help = "format of the linear weights, a dtype or a GGUF file type (f16, "
                           "q4_k_m...); norms, routers and, unless quantize-embeddings, "
                           "embedding and head stay bf16"},
    [O_QUANTIZE_EMBEDDINGS] = {.name = "quantize-embeddings", .kind = HWFIT_OPTION_FLAG,
                               .help = "store embedding and head in the weight format too"},
    [O_KV] = {.name = "kv", .kind = HWFIT_OPTION_TEXT, .metavar = "DTYPE",
              .default_text = "bf16",
              .help = "KV-cache format, a dtype (fp8, q8_0, q4_0...) or f16/f32"},
    [O_CONTEXT] = {.name = "context", .kind = HWFIT_OPTION_TOKENS, .metavar = "N",
                   .default_help = "prompt + output", .min = 1.0, .max = 1099511627776.0,
                   .help = "longest sequence admitted (vLLM max_model_len, llama.cpp n_ctx)"},
    [O_PROMPT] = {.name = "prompt", .kind = HWFIT_OPTION_TOKENS, .metavar = "N",
                  .default_text = "1024", .min = 0.0, .max = 1099511627776.0,
                  .help = "prompt tokens per request"},
    [O_OUTPUT] = {.name = "output", .kind = HWFIT_OPTION_TOKENS, .metavar = "N",
                  .default_text = "1024", .min = 0.0, .max = 1099511627776.0,
                  .help = "output tokens per request"},
    [O_CONCURRENCY] = {.name = "concurrency", .kind = HWFIT_OPTION_COUNT, .metavar = "N",
                       .default_help = "as many as fit; llama.cpp: 1", .min = 1.0,
                       .max = 1073741824.0, .help = "requests in flight"},
    [O_RATE] = {.name = "rate", .kind = HWFIT_OPTION_RATIO, .metavar = "REQ/S",
                .default_help = "not given", .min = 0.0, .max = 1e9,
                .help = "request arrival rate; the concurrency follows by Little's law"},
    [O_UTILIZATION] = {.name = "utilization", .kind = HWFIT_OPTION_RATIO, .metavar = "F",
                       .default_help = "the engine's: vLLM 0.92; SGLang 0.88 at TP 1 to 0.79 at "
                                       "TP 16; TensorRT-LLM 0.9; llama.cpp 1",
                       .min = 0.0,
                       .max = 1.0,
                       .help = "engine memory fraction (gpu_memory_utilization, "
                               "mem_fraction_static, free_gpu_memory_fraction)"},
    [O_BATCHED_TOKENS] = {.name = "max-num-batched-tokens", .kind = HWFIT_OPTION_TOKENS,
                          .metavar = "N", .default_help = "the engine's", .min = 1.0,
                          .max = 1099511627776.0,
                          .help = "tokens per forward pass (sizes the profiled activations)"},
    [O_MAX_SEQS] = {.name = "max-num-seqs", .kind = HWFIT_OPTION_COUNT, .metavar = "N",
                    .default_help = "the engine's", .min = 1.0, .max = 1073741824.0,
                    .help = "sequences per step at most"},
    [O_BLOCK_SIZE] = {.name = "block-size", .kind = HWFIT_OPTION_COUNT, .metavar = "N",
                      .default_help = "the engine's: 16, 1, 32, 1", .min = 1.0,
                      .max = 1048576.0, .help = "KV-cache block (page) in tokens"},
    [O_NO_CUDA_GRAPHS] = {.name = "no-cuda-graphs", .kind = HWFIT_OPTION_FLAG,
                          .help = "eager mode: no CUDA-graph pool (vLLM enforce_eager)"},
    [O_CUDA_GRAPH_BYTES] = {.name = "cuda-graph-bytes", .kind = HWFIT_OPTION_QUANTITY,
                            .unit = HWFIT_UNIT_BYTES, .metavar = "SIZE",
                            .default_help = "the engine's", .min = 0.0,
                            .max = 9007199254740992.0,
                            .help = "CUDA-graph pool per card accounted before the KV cache"},
    [O_NON_TORCH] = {.name = "non-torch-bytes", .kind = HWFIT_OPTION_QUANTITY,
                     .unit = HWFIT_UNIT_BYTES, .metavar = "SIZE",
                     .default_help = "the engine's", .min = 0.0, .max = 9007199254740992.0,
                     .help = "memory outside tensors per card (cuBLAS, NCCL, context)"},
    [O_ACTIVATION_FACTOR] = {.name = "activation-factor", .kind = HWFIT_OPTION_RATIO,
                             .metavar = "F", .default_help = "the engine's", .min = 1.0,
                             .max = 16.0,
                             .help = "profiled activation peak over the chunk's workspace"},
    [O_PREFILL_EFF] = {.name = "prefill-efficiency", .kind = HWFIT_OPTION_RATIO,
                       .metavar = "F", .default_help = "the engine's for the card",
                       .min = 1e-6, .max = 1.0,
                       .help = "share of peak tensor throughput in prefill"},
    [O_DECODE_EFF] = {.name = "decode-efficiency", .kind = HWFIT_OPTION_RATIO, .metavar = "F",
                      .default_help = "the engine's for the card", .min = 1e-6, .max = 1.0,
                      .help = "share of peak tensor throughput in decode"},
    [O_MEMORY_EFF] = {.name = "memory-efficiency", .kind = HWFIT_OPTION_RATIO, .metavar = "F",
                      .default_help = "the engine's for the card", .min = 1e-6, .max = 1.0,
                      .help = "share of peak memory bandwidth in decode"},
    [O_STEP_OVERHEAD] = {.name = "step-overhead", .kind = HWFIT_OPTION_QUANTITY,
                         .unit = HWFIT_UNIT_SECONDS, .metavar = "TIME",
                         .default_help = "the engine's", .min = 0.0, .max = 1e6,
                         .help = "fixed time per decode step"},
    [O_ENGINE_VERSION] = {.name = "engine-version", .kind = HWFIT_OPTION_TEXT,
                          .metavar = "X.Y[.Z]", .default_help = "a current release",
                          .help = "engine release; read for vLLM (before 0.8: the V0 "
                                  "engine's profile)"},
    [O_NIC] = {.name = "nic", .kind = HWFIT_OPTION_TEXT, .metavar = "SPEC",
               .default_help = "one 400G port per GPU when the cards span nodes",
               .example = "8x400g-ib",
               .help = "network per node for several servers, e.g. 2x400g-roce, 8x400g-ib"},
    [O_GPUS_PER_NODE] = {.name = "gpus-per-node", .kind = HWFIT_OPTION_COUNT, .metavar = "N",
                         .default_text = "8", .min = 1.0, .max = 65536.0,
                         .help = "GPUs per server"},
};

typedef struct serve_state {
    hwfit_model model;
    char weights_source[192]; /* hwfit__workload_stored */
    hwfit_serve_in in;
    hwfit_serve_out out;
    hwfit__shard_engine_storage engine; /* the estimate's shard engine: here, not on the stack */
} serve_state;

/* llama.cpp's GGUF file types, read as the format of their bulk: the _M/_S mixes keep some
 * tensors wider (Q4_K_M: attn_v, half the ffn_down and the output in Q6_K, about 4.9
 * instead of 4.5 bits per weight for Llama 3 8B), which memory.h cannot express per tensor. */
static const char *const gguf_types[][2] = {
    {"f32", "fp32"},  {"f16", "fp16"},  {"q4_k_m", "q4_k"}, {"q4_k_s", "q4_k"},
    {"q5_k_m", "q5_k"}, {"q5_k_s", "q5_k"}, {"q3_k_m", "q3_k"}, {"q3_k_s", "q3_k"},
};

static hwfit_status dtype_of(hwfit_request *r, const hwfit_option *opt, hwfit_dtype *out) {
    const char *text = hwfit__req_text(r, opt);
    for (size_t i = 0; i < HWFIT__COUNT_OF(gguf_types); i++)
        if (strcmp(text, gguf_types[i][0]) == 0) text = gguf_types[i][1];
    return hwfit__req_dtype_text(r, opt, text, out);
}

/* "X.Y" or "X.Y.Z" (numbers below 1000; anything after the last number, such as "rc1",
 * is refused) as X x 10^6 + Y x 10^3 + Z; 0 when not a release. */
static int version_of(const char *text, uint32_t *out) {
    uint32_t part[3] = {0, 0, 0};
    int n = 0;
    const char *p = text;
    while (n < 3) {
        if (*p < '0' || *p > '9') return 0;
        uint32_t v = 0;
        while (*p >= '0' && *p <= '9') {
            v = v * 10 + (uint32_t)(*p - '0');
            if (v >= 1000) return 0;
            p++;
        }
        part[n++] = v;
        if (*p == '\0') break;
        if (*p != '.') return 0;
        p++;
    }
    if (*p != '\0' || n < 2) return 0;
    *out = part[0] * 1000000u + part[1] * 1000u + part[2];
    return *out != 0;
}

static const char *const aliases[] = {
    "engine", "engine", "prompt_tokens", "prompt", "output_tokens", "output",
    "max_model_len", "context", "request_rate", "rate", "max_num_batched_tokens",
    "max-num-batched-tokens", "max_num_seqs", "max-num-seqs", "block_size", "block-size",
    "cuda_graph_bytes", "cuda-graph-bytes", "non_torch_bytes", "non-torch-bytes",
    "step_overhead_s", "step-overhead", "weights", "weights", "memory.weights", "weights",
    "kv", "kv", "memory.kv", "kv", "layout.tp", "tp", "layout.pp", "pp", "layout.dp", "dp",
    "layout.ep", "ep", "shard.layout.tp", "tp", "shard.layout.pp", "pp", "shard.layout.dp",
    "dp", "shard.layout.ep", "ep", "layout", "tp", "shard.layout", "tp", "gpus", "gpus",
    "shard.gpus", "gpus", "capacity_bytes", "capacity", "shard.capacity_bytes", "capacity",
    "precision", "weights", NULL};

/* An invalid layout names the degree the user gave that the rule is about (the card count
 * when tp follows from it), with the numbers. */
static hwfit_status bad_layout(hwfit_request *r, const hwfit_model *m, const hwfit_shard_in *x,
                               const hwfit_problem *why) {
    hwfit_shard_reason reason;
    if (hwfit_shard_check(m, x, &reason) != HWFIT_OK || reason == HWFIT_SHARD_VALID)
        return hwfit__req_fail_problem(r, aliases, why);
    const hwfit_layout *l = &x->layout;
    int tp_or_gpus = hwfit__req_given(r, &options[O_TP]) || !hwfit__req_given(r, &options[O_GPUS])
                         ? O_TP
                         : O_GPUS;
    int named;
    switch (reason) {
    case HWFIT_SHARD_GPUS: {
        const int order[] = {O_TP, O_PP, O_DP, O_GPUS};
        named = O_GPUS;
        for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
            if (hwfit__req_given(r, &options[order[i]])) {
                named = order[i];
                break;
            }
        break;
    }
    case HWFIT_SHARD_EXPERTS:
    case HWFIT_SHARD_EXPERT_RANKS: named = O_EP; break;
    case HWFIT_SHARD_STAGES:
    case HWFIT_SHARD_UNEVEN: named = O_PP; break;
    default: named = tp_or_gpus; break;
    }
    return hwfit__req_fail(r, &options[named], HWFIT_ELAYOUT,
                           "tp %u x pp %u x dp %u, ep %u on %u GPUs: %s", l->tp, l->pp, l->dp,
                           l->ep, x->gpus, hwfit_shard_reason_str(reason));
}

static hwfit_status run(hwfit_request *r, hwfit__out *o, void *state) {
    serve_state *s = state;
    hwfit_serve_in *in = &s->in;
    hwfit_serve_init(in);
    const hwfit_gpu *gpu = NULL;
    hwfit_status st = hwfit_gpu_find(hwfit__req_text(r, &options[O_GPU]), &gpu);
    if (st != HWFIT_OK)
        return hwfit__req_fail(r, &options[O_GPU], st, "is not in the catalog (see hwfit gpus)");
    (void)hwfit_serve_set_gpu(in, gpu);
    if (hwfit__req_given(r, &options[O_CAPACITY]))
        in->perf.shard.capacity_bytes = hwfit__req_double(r, &options[O_CAPACITY]);
    int engine = hwfit__req_choice(r, &options[O_ENGINE]);
    in->engine = engine_values[engine];
    uint64_t gpus = hwfit__req_u64(r, &options[O_GPUS]);
    uint64_t pp = hwfit__req_u64(r, &options[O_PP]), dp = hwfit__req_u64(r, &options[O_DP]);
    int tp_given = hwfit__req_given(r, &options[O_TP]);
    if (!hwfit__req_given(r, &options[O_GPUS])) {
        /* The default card count gives way to the degrees given: tp x pp x dp cards. */
        uint64_t product = (tp_given ? hwfit__req_u64(r, &options[O_TP]) : 1) * pp * dp;
        if ((double)product > options[O_GPUS].max) {
            int named = tp_given ? O_TP : hwfit__req_given(r, &options[O_PP]) ? O_PP : O_DP;
            return hwfit__req_fail(r, &options[named], HWFIT_EDOM,
                                   "tp x pp x dp make %llu GPUs, more than %.0f",
                                   (unsigned long long)product, options[O_GPUS].max);
        }
        gpus = product;
    }
    uint64_t tp = tp_given ? hwfit__req_u64(r, &options[O_TP])
                           : gpus / (pp * dp) ? gpus / (pp * dp) : 1;
    in->perf.shard.gpus = (uint32_t)gpus;
    in->perf.shard.layout.tp = (uint32_t)tp;
    in->perf.shard.layout.pp = (uint32_t)pp;
    in->perf.shard.layout.dp = (uint32_t)dp;
    in->perf.shard.layout.ep = (uint32_t)hwfit__req_u64(r, &options[O_EP]);
    in->perf.topology.gpus_per_node = hwfit__req_u64(r, &options[O_GPUS_PER_NODE]);
    if (hwfit__req_given(r, &options[O_NIC])) {
        const char *nic = hwfit__req_text(r, &options[O_NIC]);
        hwfit_status nst = hwfit_topology_parse_nic(nic, &in->perf.topology);
        if (nst != HWFIT_OK)
            return hwfit__req_fail(r, &options[O_NIC], nst,
                                   "'%s' is not a network such as 8x400g-ib or 2x400g-roce",
                                   nic);
    }
    if ((st = dtype_of(r, &options[O_WEIGHTS], &in->perf.shard.memory.weights)) != HWFIT_OK ||
        (st = dtype_of(r, &options[O_KV], &in->perf.shard.memory.kv)) != HWFIT_OK)
        return st;
    in->perf.shard.memory.keep_embeddings = !hwfit__req_flag(r, &options[O_QUANTIZE_EMBEDDINGS]);
    in->prompt_tokens = hwfit__req_u64(r, &options[O_PROMPT]);
    in->output_tokens = hwfit__req_u64(r, &options[O_OUTPUT]);
    if (hwfit__req_given(r, &options[O_CONTEXT]))
        in->max_model_len = hwfit__req_u64(r, &options[O_CONTEXT]);
    if (hwfit__req_given(r, &options[O_CONCURRENCY]))
        in->concurrency = hwfit__req_u64(r, &options[O_CONCURRENCY]);
    if (hwfit__req_given(r, &options[O_RATE]))
        in->request_rate = hwfit__req_double(r, &options[O_RATE]);
    if (hwfit__req_given(r, &options[O_UTILIZATION])) {
        in->utilization = hwfit__req_double(r, &options[O_UTILIZATION]);
        if (!(in->utilization > 0.0))
            return hwfit__req_fail(r, &options[O_UTILIZATION], HWFIT_EDOM,
                                   "must be above 0");
    }
    if (hwfit__req_given(r, &options[O_BATCHED_TOKENS]))
        in->max_num_batched_tokens = hwfit__req_u64(r, &options[O_BATCHED_TOKENS]);
    if (hwfit__req_given(r, &options[O_MAX_SEQS]))
        in->max_num_seqs = hwfit__req_u64(r, &options[O_MAX_SEQS]);
    if (hwfit__req_given(r, &options[O_BLOCK_SIZE]))
        in->block_size = (uint32_t)hwfit__req_u64(r, &options[O_BLOCK_SIZE]);
    in->cuda_graphs = !hwfit__req_flag(r, &options[O_NO_CUDA_GRAPHS]);
    if (hwfit__req_given(r, &options[O_CUDA_GRAPH_BYTES]))
        in->cuda_graph_bytes = hwfit__req_double(r, &options[O_CUDA_GRAPH_BYTES]);
    if (hwfit__req_given(r, &options[O_NON_TORCH]))
        in->non_torch_bytes = hwfit__req_double(r, &options[O_NON_TORCH]);
    if (hwfit__req_given(r, &options[O_ACTIVATION_FACTOR]))
        in->activation_factor = hwfit__req_double(r, &options[O_ACTIVATION_FACTOR]);
    if (hwfit__req_given(r, &options[O_PREFILL_EFF]))
        in->prefill_efficiency = hwfit__req_double(r, &options[O_PREFILL_EFF]);
    if (hwfit__req_given(r, &options[O_DECODE_EFF]))
        in->decode_efficiency = hwfit__req_double(r, &options[O_DECODE_EFF]);
    if (hwfit__req_given(r, &options[O_MEMORY_EFF]))
        in->memory_efficiency = hwfit__req_double(r, &options[O_MEMORY_EFF]);
    if (hwfit__req_given(r, &options[O_STEP_OVERHEAD]))
        in->step_overhead_s = hwfit__req_double(r, &options[O_STEP_OVERHEAD]);
    if (hwfit__req_given(r, &options[O_ENGINE_VERSION]) && in->engine == HWFIT_SERVE_VLLM &&
        !version_of(hwfit__req_text(r, &options[O_ENGINE_VERSION]), &in->engine_version))
        return hwfit__req_fail(r, &options[O_ENGINE_VERSION], HWFIT_EPARSE,
                               "'%s' is not a release such as 0.6.3 or 0.19",
                               hwfit__req_text(r, &options[O_ENGINE_VERSION]));
    if (hwfit__req_given(r, &options[O_CONTEXT]) &&
        in->max_model_len < in->prompt_tokens + in->output_tokens)
        return hwfit__req_fail(r, &options[O_CONTEXT], HWFIT_EDOM,
                               "must hold prompt + output (%llu tokens)",
                               (unsigned long long)(in->prompt_tokens + in->output_tokens));
    if (hwfit__req_given(r, &options[O_CONCURRENCY]) && hwfit__req_given(r, &options[O_RATE]))
        return hwfit__req_fail(r, &options[O_RATE], HWFIT_EDOM,
                               "and concurrency exclude each other");

    hwfit_status lst = hwfit__req_load_model(r, &options[O_CONFIG], &s->model);
    if (lst != HWFIT_OK) return lst;
    const hwfit_model *m = &s->model;
    char *source = s->weights_source;
    if ((lst = hwfit__workload_stored(r, &options[O_WEIGHTS], m, &in->perf.shard.memory, source,
                                      sizeof s->weights_source)) != HWFIT_OK)
        return lst;
    hwfit_serve_out *out = &s->out;
    hwfit__shard_engine *eng = hwfit__shard_engine_in(&s->engine);
    if (hwfit__serve_estimate_at(eng, m, in, out) != HWFIT_OK) {
        hwfit_problem why;
        (void)hwfit__serve_validate_at(eng, m, in, &why);
        /* The per-card overhead is the CUDA graphs' plus the non-torch bytes: name the one
         * given (it named the internal field, issue 21). */
        if (why.field != NULL && strcmp(why.field, "shard.memory.overhead_bytes") == 0) {
            int graphs = hwfit__req_given(r, &options[O_CUDA_GRAPH_BYTES]);
            if (graphs || hwfit__req_given(r, &options[O_NON_TORCH]))
                return hwfit__req_fail(r, &options[graphs ? O_CUDA_GRAPH_BYTES : O_NON_TORCH],
                                       why.status, "with the other per-card overhead gives "
                                       "more than 2^53 bytes");
        }
        if (why.status == HWFIT_ELAYOUT) return bad_layout(r, m, &in->perf.shard, &why);
        return hwfit__req_fail_problem(r, aliases, &why);
    }
    char wname[HWFIT_DTYPE_NAME_SIZE], kname[HWFIT_DTYPE_NAME_SIZE];
    if ((st = hwfit_dtype_format(in->perf.shard.memory.weights, wname, sizeof wname)) !=
            HWFIT_OK ||
        (st = hwfit_dtype_format(in->perf.shard.memory.kv, kname, sizeof kname)) != HWFIT_OK)
        return hwfit__req_fail_status(r, "naming the formats", st);

    hwfit__out_str(o, "model_type", "model type", m->name);
    hwfit__out_str(o, "engine", "engine", engines[engine]);
    hwfit__out_str(o, "gpu", "card", gpu->name);
    hwfit__out_u64(o, "gpus", "cards", gpus);
    hwfit__out_u64(o, "tp", "tensor parallel", out->perf.shard.layout.tp);
    hwfit__out_u64(o, "pp", "pipeline stages", out->perf.shard.layout.pp);
    hwfit__out_u64(o, "dp", "replicas", out->perf.shard.layout.dp);
    hwfit__out_u64(o, "ep", "expert parallel", out->perf.shard.layout.ep);
    hwfit__out_str(o, "weights", "weight format", wname);
    hwfit__workload_out_stored(o, m, source);
    hwfit__out_str(o, "kv", "KV-cache format", kname);
    hwfit__out_u64(o, "prompt_tokens", "prompt (tokens)", in->prompt_tokens);
    hwfit__out_u64(o, "output_tokens", "output (tokens)", in->output_tokens);

    hwfit__out_section(o, "profile", "engine profile");
    hwfit__out_pct(o, "utilization", "memory fraction", out->utilization);
    hwfit__out_u64(o, "max_model_len", "max model length (tokens)", out->max_model_len);
    hwfit__out_u64(o, "max_num_batched_tokens", "tokens per forward pass",
                   out->max_num_batched_tokens);
    hwfit__out_u64(o, "max_num_seqs", "sequences per step", out->max_num_seqs);
    hwfit__out_u64(o, "block_size", "block (tokens)", out->block_size);
    hwfit__out_pct(o, "prefill_efficiency", "prefill efficiency", out->prefill_efficiency);
    hwfit__out_pct(o, "decode_efficiency", "decode efficiency", out->decode_efficiency);
    hwfit__out_pct(o, "memory_efficiency", "memory efficiency", out->memory_efficiency);
    hwfit__out_qty(o, "step_overhead_s", "step overhead", out->step_overhead_s,
                   HWFIT_UNIT_SECONDS);
    hwfit__out_section_end(o);

    hwfit__out_section(o, "memory", "memory per card");
    hwfit__out_bytes(o, "capacity_bytes", "capacity", out->capacity_bytes);
    hwfit__out_bytes(o, "budget_bytes", "engine budget", out->budget_bytes);
    hwfit__out_bytes(o, "weights_bytes", "weights", out->weights_bytes);
    hwfit__out_bytes(o, "activation_bytes", "profiled activations", out->activation_bytes);
    hwfit__out_bytes(o, "cuda_graph_bytes", "CUDA graphs", out->cuda_graph_bytes);
    hwfit__out_bytes(o, "non_torch_bytes", "non-torch memory", out->non_torch_bytes);
    hwfit__out_bytes(o, "other_bytes", "communication buffers", out->other_bytes);
    hwfit__out_bytes(o, "kv_cache_bytes", "KV cache", out->kv_cache_bytes);
    hwfit__out_bytes(o, "kv_bytes_per_token", "KV per token", out->kv_bytes_per_token);
    hwfit__out_section_end(o);

    hwfit__out_u64(o, "kv_cache_tokens", "KV-cache tokens", out->kv_cache_tokens);
    hwfit__out_u64(o, "kv_cache_blocks", "KV-cache blocks", out->kv_cache_blocks);
    hwfit__out_u64(o, "request_tokens", "request (tokens)", out->request_tokens);
    hwfit__out_num(o, "max_concurrency", "max concurrency (request)",
                   out->max_concurrency);
    hwfit__out_num(o, "max_concurrency_model_len", "max concurrency (max length)",
                   out->max_concurrency_model_len);
    hwfit__out_bool(o, "fits", "fits", out->fits);

    hwfit__out_u64(o, "concurrency", "concurrency", out->concurrency);
    hwfit__out_str(o, "concurrency_bound", "concurrency bound by",
                   hwfit_serve_bound_name(out->concurrency_bound));
    hwfit__out_qty(o, "ttft_s", "time to first token", out->ttft_s, HWFIT_UNIT_SECONDS);
    hwfit__out_str(o, "ttft_bound", "TTFT bound by", hwfit_serve_bound_name(out->ttft_bound));
    hwfit__out_qty(o, "tpot_s", "time per output token", out->tpot_s, HWFIT_UNIT_SECONDS);
    hwfit__out_str(o, "tpot_bound", "TPOT bound by", hwfit_serve_bound_name(out->tpot_bound));
    hwfit__out_num(o, "output_tokens_per_s", "output tokens/s", out->output_tokens_per_s);
    hwfit__out_num(o, "output_tokens_per_s_per_user", "output tokens/s per user",
                   out->output_tokens_per_s_per_user);
    hwfit__out_num(o, "prompt_tokens_per_s", "prompt tokens/s", out->prompt_tokens_per_s);
    hwfit__out_num(o, "total_tokens_per_s", "total tokens/s", out->total_tokens_per_s);
    hwfit__out_num(o, "requests_per_s", "requests/s", out->request_per_s);
    hwfit__out_str(o, "throughput_bound", "throughput bound by",
                   hwfit_serve_bound_name(out->throughput_bound));
    return HWFIT_OK;
}

const hwfit__command hwfit__cmd_serve = {
    .pub = {.name = "serve",
            .summary = "Serving as an engine allocates it: KV-cache tokens and blocks, max "
                       "concurrency, TTFT, TPOT and token rates, and what bounds each.",
            .details = "Engine profiles for vLLM, SGLang, TensorRT-LLM and llama.cpp: memory "
                       "fraction, profiled activations, CUDA graphs, non-torch memory and "
                       "block size as each engine accounts them; efficiencies fitted to "
                       "published cases (docs/accuracy.md). See docs/formulas.md, \"serve\".",
            .formats = 1u << HWFIT_FORMAT_JSON | 1u << HWFIT_FORMAT_TEXT},
    .sets = {HWFIT__SET(options)},
    .state_size = sizeof(serve_state),
    .run = run,
};

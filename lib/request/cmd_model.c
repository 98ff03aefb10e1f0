/* cmd_model.c - `model --config FILE`: exact parameters, weights, KV cache and FLOPs of a
 * Hugging Face config.json. */
#include "hwfit/dtype.h"
#include "hwfit/hf_config.h"
#include "hwfit/memory.h"
#include "hwfit/model.h"
#include "request_internal.h"

enum { O_CONFIG, O_WEIGHTS, O_KV, O_BATCH, O_CONTEXT, O_MTP };
static const hwfit_option options[] = {
    [O_CONFIG] = {.name = "model", .alias = "config", .kind = HWFIT_OPTION_FILE,
                  .metavar = "MODEL", .flags = HWFIT_OPTION_REQUIRED,
                  .example = "meta-llama/Llama-3.1-70B",
                  .help = "the model: a config.json path, a Hugging Face id, a short name "
                          "(see hwfit models) or the config.json text ('{...}')"},
    [O_WEIGHTS] = {.name = "weights", .kind = HWFIT_OPTION_NAME, .metavar = "DTYPE",
                   .default_text = "bf16", .catalog = "dtype", .help = "weight format"},
    [O_KV] = {.name = "kv", .kind = HWFIT_OPTION_NAME, .metavar = "DTYPE",
              .default_text = "bf16", .catalog = "dtype", .help = "KV-cache format"},
    [O_BATCH] = {.name = "batch", .kind = HWFIT_OPTION_COUNT, .metavar = "N",
                 .default_text = "1", .min = 1.0, .max = 1.8446744073709552e19,
                 .help = "sequences held in the KV cache"},
    [O_CONTEXT] = {.name = "context", .kind = HWFIT_OPTION_TOKENS, .metavar = "N",
                   .default_text = "4096", .min = 1.0, .max = 1.8446744073709552e19,
                   .help = "tokens per sequence, K = 1024"},
    [O_MTP] = {.name = "mtp", .kind = HWFIT_OPTION_FLAG,
               .help = "load the extra (multi-token) prediction layers too"},
};

typedef struct model_state {
    hwfit_model model;
    hwfit_error error;
} model_state;

static hwfit_status run(hwfit_request *r, hwfit__out *o, void *state) {
    model_state *s = state;
    hwfit_memory_in mem;
    hwfit_memory_init(&mem);
    hwfit_status st = hwfit__req_dtype(r, &options[O_WEIGHTS], &mem.weights);
    if (st == HWFIT_OK) st = hwfit__req_dtype(r, &options[O_KV], &mem.kv);
    if (st != HWFIT_OK) return st;
    uint64_t batch = hwfit__req_u64(r, &options[O_BATCH]);
    uint64_t context = hwfit__req_u64(r, &options[O_CONTEXT]);
    int mtp = hwfit__req_flag(r, &options[O_MTP]);
    mem.batch = batch;
    mem.context = context;
    mem.mtp = mtp;

    hwfit_status lst = hwfit__req_load_model(r, &options[O_CONFIG], &s->model);
    if (lst != HWFIT_OK) return lst;
    const hwfit_model *m = &s->model;
    hwfit_model_param_counts p;
    if ((st = hwfit_model_params(m, &p)) != HWFIT_OK)
        return hwfit__req_fail_status(r, "parameters", st);
    hwfit_memory_out fp;
    if (hwfit_memory_estimate(m, &mem, &fp) != HWFIT_OK) {
        hwfit_problem why;
        (void)hwfit_memory_validate(m, &mem, &why);
        return hwfit__req_fail_problem(r, NULL, &why);
    }
    hwfit_model_kv_in kin;
    hwfit_model_kv_init(&kin);
    kin.dtype = mem.kv;
    kin.batch = batch;
    kin.context = context;
    kin.include_mtp = mtp;
    hwfit_model_kv_out kvo;
    if ((st = hwfit_model_kv(m, &kin, &kvo)) != HWFIT_OK)
        return hwfit__req_fail_status(r, "KV cache", st);
    hwfit_model_flops_out fl;
    if ((st = hwfit_model_flops(m, context, &fl)) != HWFIT_OK)
        return hwfit__req_fail_status(r, "FLOPs", st);
    char wname[HWFIT_DTYPE_NAME_SIZE], kname[HWFIT_DTYPE_NAME_SIZE];
    if ((st = hwfit_dtype_format(mem.weights, wname, sizeof wname)) != HWFIT_OK ||
        (st = hwfit_dtype_format(mem.kv, kname, sizeof kname)) != HWFIT_OK)
        return hwfit__req_fail_status(r, "naming the formats", st);

    hwfit__out_str(o, "model_type", "model type", m->name);
    hwfit__out_u64(o, "layers", "layers", m->layers);
    hwfit__out_u64(o, "dense_layers", "  dense", p.dense_layers);
    hwfit__out_u64(o, "moe_layers", "  mixture of experts", p.moe_layers);
    hwfit__out_u64(o, "sliding_layers", "  sliding window", kvo.sliding_layers);
    hwfit__out_u64(o, "window_tokens", "  window or chunk (tokens)", kvo.window_tokens);
    hwfit__out_bool(o, "chunked_attention", "  in fixed chunks (Llama 4)",
                    kvo.sliding_layers > 0 && m->chunked_attention);
    hwfit__out_u64(o, "mtp_layers", "extra prediction layers", p.mtp_layers);
    /* The checkpoint's fused projections (hwfit_model::fused_modules): the modules a PEFT
     * adapter wraps (hwfit_memory_in::lora_modules checkpoint). */
    hwfit__out_bool(o, "fused_qkv", "fused q/k/v module (checkpoint)",
                    (m->fused_modules & HWFIT_MODEL_FUSED_QKV) != 0);
    hwfit__out_bool(o, "fused_gate_up", "fused gate/up module (checkpoint)",
                    (m->fused_modules & HWFIT_MODEL_FUSED_GATE_UP) != 0);
    hwfit__out_u64(o, "params_total", "parameters", p.total);
    hwfit__out_u64(o, "params_active", "  active per token", p.active);
    hwfit__out_u64(o, "params_embedding", "  embedding", p.embedding);
    hwfit__out_u64(o, "params_head", "  head (0 when tied)", p.head);
    hwfit__out_u64(o, "params_attention", "  attention", p.attention);
    hwfit__out_u64(o, "params_mlp", "  dense MLP", p.mlp);
    hwfit__out_u64(o, "params_experts", "  routed experts", p.experts);
    hwfit__out_u64(o, "params_shared_experts", "  shared experts", p.shared_experts);
    hwfit__out_u64(o, "params_router", "  routers", p.router);
    hwfit__out_u64(o, "params_norms", "  norms", p.norms);
    hwfit__out_u64(o, "params_mtp", "  extra prediction layers (apart)", p.mtp);
    hwfit__out_str(o, "weights", "weight format", wname);
    hwfit__out_bytes(o, "weights_bytes", "weights", fp.weights_bytes);
    hwfit__out_str(o, "kv", "KV-cache format", kname);
    hwfit__out_u64(o, "batch", "batch", batch);
    hwfit__out_u64(o, "context", "context (tokens)", context);
    hwfit__out_bytes(o, "kv_bytes_per_token", "KV cache per token", kvo.bytes_per_token);
    hwfit__out_bytes(o, "kv_bytes", "KV cache", kvo.bytes);
    hwfit__out_qty(o, "forward_flop_per_token", "forward FLOPs per token", fl.forward_flop,
                   HWFIT_UNIT_FLOP);
    return HWFIT_OK;
}

const hwfit__command hwfit__cmd_model = {
    .pub = {.name = "model",
            .summary = "Exact parameter counts, weight and KV-cache bytes and FLOPs of a model.",
            .details = "Parameters come from the config's shapes (transformers defaults for "
                       "missing keys). Weights in a quantized format keep embeddings, head and "
                       "norms in bf16.",
            .formats = 1u << HWFIT_FORMAT_JSON | 1u << HWFIT_FORMAT_TEXT},
    .sets = {HWFIT__SET(options)},
    .state_size = sizeof(model_state),
    .run = run,
};

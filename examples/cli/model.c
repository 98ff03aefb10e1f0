/* model.c - `hwfit model --config FILE`: exact parameters, weights, KV cache and FLOPs. */
#include "cli.h"

static int dtype_option(const char *option, const char *text, hwfit_dtype *out) {
    hwfit_status st = hwfit_dtype_parse(text, out);
    if (st == HWFIT_ENOTFOUND)
        return cli_fail("model", "--%s: unknown number format '%s' (see hwfit dtypes)", option,
                        text);
    if (st != HWFIT_OK) {
        char opt[32];
        snprintf(opt, sizeof opt, "--%s", option);
        return cli_fail_value("model", opt, text, st, "int4-gG with a group G of 1-1048576");
    }
    return 0;
}

int cmd_model(int argc, char **argv) {
    const char *config = NULL, *weights = "bf16", *kv = "bf16";
    uint64_t batch = 1, context = 4096;
    int mtp = 0;
    const cli_opt opts[] = {
        {"config", CLI_STRING, &config, "FILE", "Hugging Face config.json (required)", 0, NULL,
         NULL},
        {"weights", CLI_STRING, &weights, "DTYPE", "weight format (default bf16)", 0, NULL, NULL},
        {"kv", CLI_STRING, &kv, "DTYPE", "KV-cache format (default bf16)", 0, NULL, NULL},
        {"batch", CLI_U64, &batch, "N", "sequences held in the KV cache (default 1)", 0, NULL,
         NULL},
        {"context", CLI_TOKENS, &context, "N",
         "tokens per sequence, K = 1024 (default 4096)", 0, NULL, NULL},
        {"mtp", CLI_FLAG, &mtp, NULL,
         "load the extra (multi-token) prediction layers too", 0, NULL, NULL},
    };
    const cli_spec spec = {
        "model", "Exact parameter counts, weight and KV-cache bytes and FLOPs of a model.",
        "--config FILE [--weights DTYPE] [--kv DTYPE] [--batch N] [--context N]",
        "Parameters come from the config's shapes (transformers defaults for missing keys).\n"
        "Weights in a quantized format keep embeddings, head and norms in bf16.",
        opts, (int)(sizeof opts / sizeof opts[0]), 0, NULL};
    cli_args args;
    int rc = cli_parse(&spec, argc, argv, &args);
    if (rc != 0) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    if (config == NULL) return cli_fail("model", "--config is required, e.g. --config config.json");

    hwfit_memory_in mem;
    hwfit_memory_init(&mem);
    if ((rc = dtype_option("weights", weights, &mem.weights)) != 0) return rc;
    if ((rc = dtype_option("kv", kv, &mem.kv)) != 0) return rc;
    mem.batch = batch;
    mem.context = context;
    mem.mtp = mtp;

    /* Compute everything first. */
    static hwfit_model m;
    hwfit_error err;
    hwfit_status st = hwfit_hf_config_load(config, &m, &err);
    if (st != HWFIT_OK) return cli_fail_error("model", &err);
    hwfit_model_param_counts p;
    if ((st = hwfit_model_params(&m, &p)) != HWFIT_OK)
        return cli_fail_status("model", "parameters", st);
    hwfit_memory_out fp;
    if (hwfit_memory_estimate(&m, &mem, &fp) != HWFIT_OK) {
        hwfit_problem why;
        (void)hwfit_memory_validate(&m, &mem, &why);
        return cli_fail_problem(&spec, NULL, &why);
    }
    hwfit_model_kv_in kin;
    hwfit_model_kv_init(&kin);
    kin.dtype = mem.kv;
    kin.batch = batch;
    kin.context = context;
    kin.include_mtp = mtp;
    hwfit_model_kv_out kvo;
    if ((st = hwfit_model_kv(&m, &kin, &kvo)) != HWFIT_OK)
        return cli_fail_status("model", "KV cache", st);
    hwfit_model_flops_out fl;
    if ((st = hwfit_model_flops(&m, context, &fl)) != HWFIT_OK)
        return cli_fail_status("model", "FLOPs", st);
    char wname[HWFIT_DTYPE_NAME_SIZE], kname[HWFIT_DTYPE_NAME_SIZE];
    if (hwfit_dtype_format(mem.weights, wname, sizeof wname) != HWFIT_OK ||
        hwfit_dtype_format(mem.kv, kname, sizeof kname) != HWFIT_OK)
        return cli_fail("model", "cannot name the formats");

    cli_out o;
    out_begin(&o, args.json, NULL);
    out_str(&o, "model_type", "model type", m.name);
    out_u64(&o, "layers", "layers", m.layers);
    out_u64(&o, "dense_layers", "  dense", p.dense_layers);
    out_u64(&o, "moe_layers", "  mixture of experts", p.moe_layers);
    out_u64(&o, "sliding_layers", "  sliding window", kvo.sliding_layers);
    out_u64(&o, "mtp_layers", "extra prediction layers", p.mtp_layers);
    out_u64(&o, "params_total", "parameters", p.total);
    out_u64(&o, "params_active", "  active per token", p.active);
    out_u64(&o, "params_embedding", "  embedding", p.embedding);
    out_u64(&o, "params_head", "  head (0 when tied)", p.head);
    out_u64(&o, "params_attention", "  attention", p.attention);
    out_u64(&o, "params_mlp", "  dense MLP", p.mlp);
    out_u64(&o, "params_experts", "  routed experts", p.experts);
    out_u64(&o, "params_shared_experts", "  shared experts", p.shared_experts);
    out_u64(&o, "params_router", "  routers", p.router);
    out_u64(&o, "params_norms", "  norms", p.norms);
    out_u64(&o, "params_mtp", "  extra prediction layers (apart)", p.mtp);
    out_str(&o, "weights", "weight format", wname);
    out_bytes(&o, "weights_bytes", "weights", fp.weights_bytes);
    out_str(&o, "kv", "KV-cache format", kname);
    out_u64(&o, "batch", "batch", batch);
    out_u64(&o, "context", "context (tokens)", context);
    out_bytes(&o, "kv_bytes_per_token", "KV cache per token", kvo.bytes_per_token);
    out_bytes(&o, "kv_bytes", "KV cache", kvo.bytes);
    out_qty(&o, "forward_flop_per_token", "forward FLOPs per token", fl.forward_flop,
            HWFIT_UNIT_FLOP);
    out_end(&o);
    return CLI_EXIT_OK;
}

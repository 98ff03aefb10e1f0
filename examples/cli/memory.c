/* memory.c - `hwfit memory --config FILE`: the footprint of inference or fine-tuning. */
#include "cli.h"

static const char *const modes[] = {"inference", "full", "lora", "qlora", NULL};
static const hwfit_memory_mode mode_values[] = {HWFIT_MEMORY_INFERENCE, HWFIT_MEMORY_FULL,
                                                HWFIT_MEMORY_LORA, HWFIT_MEMORY_QLORA};
static const char *const optimizers[] = {"adamw", "adamw-8bit", "sgd", NULL};
static const hwfit_memory_optimizer optimizer_values[] = {
    HWFIT_MEMORY_ADAMW, HWFIT_MEMORY_ADAMW_8BIT, HWFIT_MEMORY_SGD};
static const char *const recomputes[] = {"none", "selective", "full", NULL};
static const hwfit_memory_recompute recompute_values[] = {HWFIT_MEMORY_RECOMPUTE_NONE,
                                                          HWFIT_MEMORY_RECOMPUTE_SELECTIVE,
                                                          HWFIT_MEMORY_RECOMPUTE_FULL};

static int dtype_option(const char *option, const char *text, hwfit_dtype *out) {
    hwfit_status st = hwfit_dtype_parse(text, out);
    if (st == HWFIT_ENOTFOUND)
        return cli_fail("memory", "--%s: unknown number format '%s' (see hwfit dtypes)", option,
                        text);
    if (st != HWFIT_OK) {
        char opt[32];
        snprintf(opt, sizeof opt, "--%s", option);
        return cli_fail_value("memory", opt, text, st, "int4-gG with a group G of 1-1048576");
    }
    return 0;
}

int cmd_memory(int argc, char **argv) {
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    const char *config = NULL, *weights = NULL, *kv = "bf16", *gradients = "bf16";
    const char *targets = "all";
    int mode = 0, optimizer = 0, recompute = 0;
    int no_flash = 0, no_dropout = 0, quantize_embeddings = 0, no_master = 0;
    uint64_t lora_rank = in.lora_rank, tp = in.tensor_parallel;
    const cli_opt opts[] = {
        {"config", CLI_STRING, &config, "FILE", "Hugging Face config.json (required)", 0, NULL,
         NULL},
        {"mode", CLI_CHOICE, &mode, "MODE", "workload (default inference)", 0, modes, NULL},
        {"weights", CLI_STRING, &weights, "DTYPE",
         "weight format (default bf16; qlora: the base, default nf4-dq)", 0, NULL, NULL},
        {"kv", CLI_STRING, &kv, "DTYPE", "KV-cache format (default bf16)", 0, NULL, NULL},
        {"batch", CLI_U64, &in.batch, "N", "inference: sequences served at once (default 1)", 0,
         NULL, NULL},
        {"context", CLI_TOKENS, &in.context, "N",
         "tokens per sequence (training: sequence length), K = 1024 (default 4096)", 0, NULL,
         NULL},
        {"prefill-chunk", CLI_TOKENS, &in.prefill_chunk, "N",
         "inference: prompt tokens per forward pass, 0 = all (default 2048)", 0, NULL, NULL},
        {"overhead", CLI_QUANTITY, &in.overhead_bytes, "SIZE",
         "runtime overhead per GPU: CUDA context, workspaces (default 1GiB)", HWFIT_UNIT_BYTES,
         NULL, NULL},
        {"micro-batch", CLI_U64, &in.micro_batch, "N", "training: sequences per micro-batch (default 1)",
         0, NULL, NULL},
        {"optimizer", CLI_CHOICE, &optimizer, "NAME", "training optimizer (default adamw)", 0,
         optimizers, NULL},
        {"gradients", CLI_STRING, &gradients, "DTYPE", "gradient format: bf16 (default) or fp32",
         0, NULL, NULL},
        {"no-master-weights", CLI_FLAG, &no_master, NULL,
         "no fp32 master copy of 16-bit trained weights", 0, NULL, NULL},
        {"recompute", CLI_CHOICE, &recompute, "KIND", "activation recomputation (default none)",
         0, recomputes, NULL},
        {"no-flash-attention", CLI_FLAG, &no_flash, NULL, "store the s^2 attention scores", 0,
         NULL, NULL},
        {"no-dropout", CLI_FLAG, &no_dropout, NULL, "no dropout masks are stored", 0, NULL, NULL},
        {"tensor-parallel", CLI_U64, &tp, "N",
         "ranks dividing the activations (Korthikanti et al.; default 1)", 0, NULL, NULL},
        {"lora-rank", CLI_U64, &lora_rank, "R", "LoRA rank (default 16)", 0, NULL, NULL},
        {"lora-targets", CLI_STRING, &targets, "LIST",
         "LoRA modules: q,k,v,o,gate,up,down, attention, mlp or all (default all)", 0, NULL,
         NULL},
        {"quantize-embeddings", CLI_FLAG, &quantize_embeddings, NULL,
         "store embedding and head in the weight format too", 0, NULL, NULL},
        {"mtp", CLI_FLAG, &in.mtp, NULL, "load the extra (multi-token) prediction layers", 0,
         NULL, NULL},
    };
    const cli_spec spec = {
        "memory",
        "Memory footprint of serving or fine-tuning a model: weights, KV cache, activations,\n"
        "gradients, optimizer states and runtime overhead.",
        "--config FILE [--mode inference|full|lora|qlora] [--weights DTYPE] [--kv DTYPE]\n"
        "       [--batch N] [--context N] [--micro-batch N] [--optimizer NAME]\n"
        "       [--recompute none|selective|full] [--lora-rank R] [options]",
        "Full fine-tuning with AdamW in mixed precision: 16 bytes per parameter (bf16 weights\n"
        "and gradients, fp32 master weights and two moments); --gradients fp32 gives 18.\n"
        "Activations per Korthikanti et al. 2022; see docs/formulas.md.",
        opts, (int)(sizeof opts / sizeof opts[0]), 0, NULL};
    cli_args args;
    int rc = cli_parse(&spec, argc, argv, &args);
    if (rc != 0) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    if (config == NULL)
        return cli_fail("memory", "--config is required, e.g. --config config.json");

    in.mode = mode_values[mode];
    in.optimizer = optimizer_values[optimizer];
    in.recompute = recompute_values[recompute];
    in.flash_attention = !no_flash;
    in.dropout = !no_dropout;
    in.master_weights = !no_master;
    in.keep_embeddings = !quantize_embeddings;
    if (lora_rank > UINT32_MAX || tp > UINT32_MAX)
        return cli_fail("memory", "--lora-rank and --tensor-parallel must be below 2^32");
    in.lora_rank = (uint32_t)lora_rank;
    in.tensor_parallel = (uint32_t)tp;
    if (weights != NULL) {
        hwfit_dtype *dest = in.mode == HWFIT_MEMORY_QLORA ? &in.qlora_base : &in.weights;
        if ((rc = dtype_option("weights", weights, dest)) != 0) return rc;
    }
    if ((rc = dtype_option("kv", kv, &in.kv)) != 0) return rc;
    if ((rc = dtype_option("gradients", gradients, &in.gradients)) != 0) return rc;
    hwfit_status st = hwfit_memory_lora_targets_parse(targets, &in.lora_targets);
    if (st != HWFIT_OK)
        return cli_fail("memory", "--lora-targets: '%s' is not a list of q,k,v,o,gate,up,down, "
                        "attention, mlp or all", targets);

    /* Compute everything first. */
    static hwfit_model m;
    hwfit_error err;
    if ((st = hwfit_hf_config_load(config, &m, &err)) != HWFIT_OK)
        return cli_fail_error("memory", &err);
    hwfit_memory_out r;
    if (hwfit_memory_estimate(&m, &in, &r) != HWFIT_OK) {
        static const char *const aliases[] = {"overhead_bytes", "--overhead", "qlora_base",
                                              "--weights", NULL};
        hwfit_problem why;
        (void)hwfit_memory_validate(&m, &in, &why);
        return cli_fail_problem(&spec, aliases, &why);
    }
    char wname[HWFIT_DTYPE_NAME_SIZE], kname[HWFIT_DTYPE_NAME_SIZE];
    hwfit_dtype base = in.mode == HWFIT_MEMORY_QLORA ? in.qlora_base : in.weights;
    if (hwfit_dtype_format(base, wname, sizeof wname) != HWFIT_OK ||
        hwfit_dtype_format(in.kv, kname, sizeof kname) != HWFIT_OK)
        return cli_fail("memory", "cannot name the formats");
    int training = in.mode != HWFIT_MEMORY_INFERENCE;

    cli_out o;
    out_begin(&o, args.json, NULL);
    out_str(&o, "model_type", "model type", m.name);
    out_str(&o, "mode", "mode", modes[mode]);
    out_str(&o, "weights", "weight format", wname);
    if (training) {
        out_null(&o, "kv", "KV-cache format");
        out_u64(&o, "micro_batch", "micro-batch", in.micro_batch);
        out_u64(&o, "context", "sequence (tokens)", in.context);
        out_str(&o, "optimizer", "optimizer", optimizers[optimizer]);
        out_str(&o, "recompute", "recomputation", recomputes[recompute]);
    } else {
        out_str(&o, "kv", "KV-cache format", kname);
        out_u64(&o, "batch", "batch", in.batch);
        out_u64(&o, "context", "context (tokens)", in.context);
    }
    out_u64(&o, "params", "parameters", r.params);
    out_u64(&o, "trainable_params", "trained parameters", r.trainable_params);
    out_u64(&o, "adapter_params", "LoRA adapter parameters", r.adapter_params);
    out_bytes(&o, "weights_bytes", "weights", r.weights_bytes);
    out_bytes(&o, "kv_bytes", "KV cache", r.kv_bytes);
    out_bytes(&o, "activation_bytes", "activations", r.activation_bytes);
    out_bytes(&o, "gradient_bytes", "gradients", r.gradient_bytes);
    out_bytes(&o, "optimizer_bytes", "optimizer states", r.optimizer_bytes);
    out_bytes(&o, "overhead_bytes", "runtime overhead", r.overhead_bytes);
    out_bytes(&o, "total_bytes", "total", r.total_bytes);
    out_end(&o);
    return CLI_EXIT_OK;
}

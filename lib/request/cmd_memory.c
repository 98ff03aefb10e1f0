/* cmd_memory.c - `memory --config FILE`: the footprint of serving or fine-tuning a model.
 * (its three workload flags, no-master-weights, no-dropout and no-flash-attention, are the
 * framework extra table fit, plan and perf list too: workload.h.) */
#include <stdio.h>

#include "hwfit/dtype.h"
#include "hwfit/hf_config.h"
#include "hwfit/memory.h"
#include "hwfit/model.h"
#include "request_internal.h"
#include "hwfit/safetensors.h"
#include "workload.h"

static const char *const modes[] = {"inference", "full", "lora", "qlora", NULL};
static const hwfit_memory_mode mode_values[] = {HWFIT_MEMORY_INFERENCE, HWFIT_MEMORY_FULL,
                                                HWFIT_MEMORY_LORA, HWFIT_MEMORY_QLORA};
static const hwfit_memory_optimizer optimizer_values[] = {
    HWFIT_MEMORY_ADAMW, HWFIT_MEMORY_ADAMW_8BIT, HWFIT_MEMORY_SGD, HWFIT_MEMORY_SGD_PLAIN};
static const char *const recomputes[] = {"none", "selective", "full", NULL};
static const hwfit_memory_recompute recompute_values[] = {HWFIT_MEMORY_RECOMPUTE_NONE,
                                                          HWFIT_MEMORY_RECOMPUTE_SELECTIVE,
                                                          HWFIT_MEMORY_RECOMPUTE_FULL};

enum {
    O_CONFIG, O_MODE, O_WEIGHTS, O_KV, O_BATCH, O_CONTEXT, O_PREFILL_CHUNK, O_OVERHEAD,
    O_MICRO_BATCH, O_OPTIMIZER, O_GRADIENTS, O_RECOMPUTE, O_TP, O_LORA_RANK, O_LORA_TARGETS,
    O_QUANTIZE_EMBEDDINGS, O_MTP, O_CARD_MEMORY
};
static const hwfit_option options[] = {
    [O_CONFIG] = {.name = "model", .alias = "config", .kind = HWFIT_OPTION_FILE,
                  .metavar = "MODEL", .flags = HWFIT_OPTION_REQUIRED,
                  .example = "meta-llama/Llama-3.1-70B",
                  .help = "the model: a config.json path, a Hugging Face id, a short name "
                          "(see hwfit models) or the config.json text ('{...}')"},
    [O_MODE] = {.name = "mode", .kind = HWFIT_OPTION_CHOICE, .metavar = "MODE",
                .default_text = "inference", .choices = modes, .help = "workload"},
    [O_WEIGHTS] = {.name = "weights", .kind = HWFIT_OPTION_NAME, .metavar = "DTYPE",
                   .default_help = "bf16; qlora: nf4-dq", .catalog = "dtype",
                   .help = "weight format (qlora: the frozen base)"},
    [O_KV] = {.name = "kv", .kind = HWFIT_OPTION_NAME, .metavar = "DTYPE",
              .default_text = "bf16", .catalog = "dtype", .help = "KV-cache format"},
    [O_BATCH] = {.name = "batch", .kind = HWFIT_OPTION_COUNT, .metavar = "N",
                 .default_text = "1", .min = 1.0, .max = 1.8446744073709552e19,
                 .help = "inference: sequences served at once"},
    [O_CONTEXT] = {.name = "context", .kind = HWFIT_OPTION_TOKENS, .metavar = "N",
                   .default_text = "4096", .min = 1.0, .max = 1.8446744073709552e19,
                   .help = "tokens per sequence (training: sequence length), K = 1024"},
    [O_PREFILL_CHUNK] = {.name = "prefill-chunk", .kind = HWFIT_OPTION_TOKENS, .metavar = "N",
                         .default_text = "2048", .min = 0.0, .max = 1.8446744073709552e19,
                         .help = "inference: prompt tokens per forward pass, 0 = all"},
    [O_OVERHEAD] = {.name = "overhead", .kind = HWFIT_OPTION_QUANTITY, .unit = HWFIT_UNIT_BYTES,
                    .metavar = "SIZE", .default_text = "1GiB", .min = 0.0,
                    .max = 9007199254740992.0,
                    .help = "runtime overhead per GPU: CUDA context, workspaces"},
    [O_MICRO_BATCH] = {.name = "micro-batch", .kind = HWFIT_OPTION_COUNT, .metavar = "N",
                       .default_text = "1", .min = 1.0, .max = 1.8446744073709552e19,
                       .help = "training: sequences per micro-batch"},
    [O_OPTIMIZER] = {.name = "optimizer", .kind = HWFIT_OPTION_CHOICE, .metavar = "NAME",
                     .default_text = "adamw", .choices = hwfit__workload_optimizers,
                     .help = "training optimizer"},
    [O_GRADIENTS] = {.name = "gradients", .kind = HWFIT_OPTION_NAME, .metavar = "DTYPE",
                     .default_text = "bf16", .catalog = "dtype",
                     .help = "gradient format: bf16 or fp32"},
    [O_RECOMPUTE] = {.name = "recompute", .kind = HWFIT_OPTION_CHOICE, .metavar = "KIND",
                     .default_help = "lora and qlora: full (the recipes' default); "
                                     "else none",
                     .choices = recomputes, .help = "activation recomputation"},
    [O_TP] = {.name = "tensor-parallel", .kind = HWFIT_OPTION_COUNT, .metavar = "N",
              .default_text = "1", .min = 1.0, .max = 4294967295.0,
              .help = "ranks dividing the activations (Korthikanti et al.)"},
    [O_LORA_RANK] = {.name = "lora-rank", .kind = HWFIT_OPTION_COUNT, .metavar = "R",
                     .default_text = "16", .min = 1.0, .max = 4294967295.0,
                     .help = "LoRA rank"},
    [O_LORA_TARGETS] = {.name = "lora-targets", .kind = HWFIT_OPTION_TEXT, .metavar = "LIST",
                        .default_text = "all",
                        .help = "LoRA modules: q,k,v,o,gate,up,down, attention, mlp or all"},
    [O_QUANTIZE_EMBEDDINGS] = {.name = "quantize-embeddings", .kind = HWFIT_OPTION_FLAG,
                               .help = "store embedding and head in the weight format too"},
    [O_MTP] = {.name = "mtp", .kind = HWFIT_OPTION_FLAG,
               .help = "load the extra (multi-token) prediction layers"},
    [O_CARD_MEMORY] = {.name = "card-memory", .kind = HWFIT_OPTION_QUANTITY,
                       .unit = HWFIT_UNIT_BYTES, .metavar = "SIZE", .min = 1,
                       .max = 1152921504606846976.0, .default_help = "no card",
                       .help = "training, --loss fused-chunked or a --load-warmup: the card "
                               "whose free memory sizes the loss's chunks and transformers' "
                               "warm-up block (fit and plan use the card's capacity)"},
};

typedef struct memory_state {
    hwfit_model model;
    char weights_source[192]; /* hwfit__workload_stored */
    hwfit_safetensors_info checkpoint; /* hwfit__req_load_checkpoint */
    hwfit_error error;
} memory_state;

static hwfit_status run(hwfit_request *r, hwfit__out *o, void *state) {
    memory_state *s = state;
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    int mode = hwfit__req_choice(r, &options[O_MODE]);
    int optimizer = hwfit__req_choice(r, &options[O_OPTIMIZER]);
    in.mode = mode_values[mode];
    in.optimizer = optimizer_values[optimizer];
    const char *recompute_source = HWFIT__RECOMPUTE_GIVEN;
    if (hwfit__req_given(r, &options[O_RECOMPUTE])) {
        in.recompute = recompute_values[hwfit__req_choice(r, &options[O_RECOMPUTE])];
    } else {
        /* The mode's recipes' default, the rule memory_batch shares (memory.c). */
        in.recompute = hwfit_memory_recompute_default(in.mode);
        recompute_source = in.recompute != HWFIT_MEMORY_RECOMPUTE_NONE ? HWFIT__RECOMPUTE_ADAPTER
                                                                        : HWFIT__RECOMPUTE_DEFAULT;
    }
    in.batch = hwfit__req_u64(r, &options[O_BATCH]);
    in.context = hwfit__req_u64(r, &options[O_CONTEXT]);
    in.prefill_chunk = hwfit__req_u64(r, &options[O_PREFILL_CHUNK]);
    in.overhead_bytes = hwfit__req_double(r, &options[O_OVERHEAD]);
    in.micro_batch = hwfit__req_u64(r, &options[O_MICRO_BATCH]);
    in.keep_embeddings = !hwfit__req_flag(r, &options[O_QUANTIZE_EMBEDDINGS]);
    in.mtp = hwfit__req_flag(r, &options[O_MTP]);
    in.tensor_parallel = (uint32_t)hwfit__req_u64(r, &options[O_TP]);   /* bounded by the table */
    in.lora_rank = (uint32_t)hwfit__req_u64(r, &options[O_LORA_RANK]);
    hwfit_status st = HWFIT_OK;
    if (hwfit__req_given(r, &options[O_WEIGHTS]))
        st = hwfit__req_dtype(r, &options[O_WEIGHTS],
                      in.mode == HWFIT_MEMORY_QLORA ? &in.qlora_base : &in.weights);
    if (st == HWFIT_OK) st = hwfit__req_dtype(r, &options[O_KV], &in.kv);
    if (st == HWFIT_OK) st = hwfit__req_dtype(r, &options[O_GRADIENTS], &in.gradients);
    if (st != HWFIT_OK) return st;
    /* The framework profile (one device), then what was given alone. */
    const hwfit__memory_rows rows = {&options[O_OPTIMIZER], &options[O_GRADIENTS],
                                     &options[O_OVERHEAD],  &options[O_RECOMPUTE],
                                     HWFIT__XOPT(HWFIT__X_NO_MASTER),
                                     HWFIT__XOPT(HWFIT__X_NO_DROPOUT),
                                     &options[O_MICRO_BATCH], &options[O_LORA_RANK],
                                     &options[O_LORA_TARGETS], HWFIT__XOPT(HWFIT__X_NO_FLASH), 0};
    int profile_recompute = 0;
    if ((st = hwfit__workload_memory_options(r, &rows, 1, &in, &profile_recompute)) != HWFIT_OK)
        return st;
    if (profile_recompute) recompute_source = HWFIT__RECOMPUTE_PROFILE;
    /* The card sizes Unsloth's chunked loss and transformers' warm-up block at load: given
     * with neither, it is refused rather than ignored. */
    if (hwfit__req_given(r, &options[O_CARD_MEMORY])) {
        if (in.loss != HWFIT_MEMORY_LOSS_FUSED_CHUNKED &&
            in.load_warmup == HWFIT_MEMORY_WARMUP_NONE)
            return hwfit__req_fail(r, &options[O_CARD_MEMORY], HWFIT_EINVAL,
                                   "applies only to --loss fused-chunked or a --load-warmup");
        in.card_bytes = hwfit__req_double(r, &options[O_CARD_MEMORY]);
    }
    const char *framework =
        hwfit__workload_frameworks[hwfit__req_choice(r, HWFIT__FOPT(HWFIT__F_FRAMEWORK))];
    const char *targets = hwfit__req_text(r, &options[O_LORA_TARGETS]);
    if ((st = hwfit_memory_lora_targets_parse(targets, &in.lora_targets)) != HWFIT_OK)
        return hwfit__req_fail(r, &options[O_LORA_TARGETS], st,
                               "'%s' is not a list of q,k,v,o,gate,up,down, attention, mlp or "
                               "all",
                               targets);

    hwfit_status lst = hwfit__req_load_model(r, &options[O_CONFIG], &s->model);
    if (lst != HWFIT_OK) return lst;
    lst = hwfit__req_load_checkpoint(r, &options[O_CONFIG], &s->model, &s->checkpoint);
    if (lst != HWFIT_OK) return lst;
    const hwfit_model *m = &s->model;
    char *source = s->weights_source;
    if ((lst = hwfit__workload_stored(r, &options[O_WEIGHTS], m, &in, source,
                                      sizeof s->weights_source)) != HWFIT_OK)
        return lst;
    hwfit_memory_out out;
    if (hwfit_memory_estimate(m, &in, &out) != HWFIT_OK) {
        static const char *const aliases[] = {"overhead_bytes", "overhead", "qlora_base",
                                              "weights", "selective", "selective-policy",
                                              NULL};
        hwfit_problem why;
        (void)hwfit_memory_validate(m, &in, &why);
        return hwfit__req_fail_problem(r, aliases, &why);
    }
    /* A checkpoint beside the config: its main model's bytes are the weights when they
     * describe this workload (hwfit_memory_use_exact). */
    int exact_used = 0;
    if (s->checkpoint.files > 0) {
        st = hwfit_memory_use_exact(m, &in, s->checkpoint.bytes - s->checkpoint.extra_bytes, &out,
                                    &exact_used);
        if (st != HWFIT_OK) return hwfit__req_fail_status(r, "exact weights", st);
        if (exact_used) {
            size_t n = strlen(source);
            snprintf(source + n, sizeof s->weights_source - n,
                     "; weights: the safetensors files' bytes");
        }
    }
    char wname[HWFIT_DTYPE_NAME_SIZE], kname[HWFIT_DTYPE_NAME_SIZE];
    hwfit_dtype base = in.mode == HWFIT_MEMORY_QLORA ? in.qlora_base : in.weights;
    if ((st = hwfit_dtype_format(base, wname, sizeof wname)) != HWFIT_OK ||
        (st = hwfit_dtype_format(in.kv, kname, sizeof kname)) != HWFIT_OK)
        return hwfit__req_fail_status(r, "naming the formats", st);
    int training = in.mode != HWFIT_MEMORY_INFERENCE;

    hwfit__out_str(o, "model_type", "model type", m->name);
    hwfit__out_str(o, "mode", "mode", modes[mode]);
    hwfit__out_str(o, "weights", "weight format", wname);
    hwfit__workload_out_stored(o, m, source);
    hwfit__workload_out_checkpoint(o, &s->checkpoint, exact_used);
    if (training) {
        hwfit__out_null(o, "kv", "KV-cache format");
        hwfit__out_u64(o, "micro_batch", "micro-batch", in.micro_batch);
        hwfit__out_u64(o, "context", "sequence (tokens)", in.context);
        hwfit__out_str(o, "optimizer", "optimizer", hwfit__workload_optimizers[in.optimizer]);
        hwfit__out_str(o, "recompute", "recomputation", recomputes[in.recompute]);
        hwfit__out_str(o, "recompute_source", "recomputation from", recompute_source);
    } else {
        hwfit__out_str(o, "kv", "KV-cache format", kname);
        hwfit__out_u64(o, "batch", "batch", in.batch);
        hwfit__out_u64(o, "context", "context (tokens)", in.context);
    }
    hwfit__out_u64(o, "params", "parameters", out.params);
    hwfit__out_u64(o, "trainable_params", "trained parameters", out.trainable_params);
    hwfit__out_u64(o, "adapter_params", "LoRA adapter parameters", out.adapter_params);
    hwfit__out_bytes(o, "weights_bytes", "weights", out.weights_bytes);
    hwfit__out_bytes(o, "kv_bytes", "KV cache", out.kv_bytes);
    hwfit__out_bytes(o, "activation_bytes", "activations", out.activation_bytes);
    hwfit__out_bytes(o, "gradient_bytes", "gradients", out.gradient_bytes);
    hwfit__out_bytes(o, "optimizer_bytes", "optimizer states", out.optimizer_bytes);
    hwfit__out_bytes(o, "overhead_bytes", "runtime overhead", out.overhead_bytes);
    hwfit__out_bytes(o, "total_bytes", "total (sum of the parts)", out.total_bytes);
    /* The peak by phase: what the device needs (memory.h, "phases"). */
    hwfit__out_bytes(o, "loss_bytes", "of activations: logits and loss", out.loss_bytes);
    hwfit__out_u64(o, "loss_chunks", "loss chunks (fused-chunked)", out.loss_chunks);
    hwfit__out_bytes(o, "loss_chunk_bytes", "in fwd: one loss chunk's work", out.loss_chunk_bytes);
    hwfit__out_bytes(o, "head_cast_bytes", "in fwd: head weight's copy kept by the loss",
                     out.head_cast_bytes);
    hwfit__out_bytes(o, "forward_bytes", "forward (allocated)", out.forward_bytes);
    hwfit__out_bytes(o, "backward_bytes", "backward (allocated)", out.backward_bytes);
    hwfit__out_bytes(o, "step_bytes", "optimizer step (allocated)", out.step_bytes);
    hwfit__out_bytes(o, "dequant_bytes", "in fwd/bwd: dequantized weight", out.dequant_bytes);
    hwfit__out_bytes(o, "carried_bytes", "in fwd/step: previous graph", out.carried_bytes);
    hwfit__out_bytes(o, "outputs_bytes", "outputs held: K/V built, logits kept",
                     out.outputs_bytes);
    hwfit__out_bytes(o, "masks_bytes", "of activations: whole attention masks",
                     out.masks_bytes);
    hwfit__out_bytes(o, "load_bytes", "model load (allocated)", out.load_bytes);
    hwfit__out_bytes(o, "eval_bytes", "evaluation (allocated)", out.eval_bytes);
    hwfit__out_str(o, "peak_phase", "peak set by", hwfit__workload_phases[out.peak_phase]);
    hwfit__out_bytes(o, "peak_allocated_bytes", "peak allocated", out.allocated_bytes);
    hwfit__out_bytes(o, "peak_reserved_bytes", "peak reserved", out.reserved_bytes);
    hwfit__out_bytes(o, "stranded_bytes", "of reserved: loss's stranded logits blocks",
                     out.stranded_bytes);
    hwfit__out_bytes(o, "records_bytes", "of stranded: earlier record lengths' segments",
                     out.records_bytes);
    hwfit__out_bytes(o, "peak_bytes", "peak with overhead", out.peak_bytes);
    if (training) hwfit__workload_out_assumptions(o, r, framework, m, &in, recompute_source);
    return HWFIT_OK;
}

const hwfit__command hwfit__cmd_memory = {
    .pub = {.name = "memory",
            .summary = "Memory footprint of serving or fine-tuning a model: weights, KV cache, "
                       "activations, gradients, optimizer states and runtime overhead.",
            .details = "Full fine-tuning with AdamW in mixed precision: 16 bytes per parameter "
                       "(bf16 weights and gradients, fp32 master weights and two moments); fp32 "
                       "gradients give 18. Activations per Korthikanti et al. 2022; see "
                       "docs/formulas.md.",
            .formats = 1u << HWFIT_FORMAT_JSON | 1u << HWFIT_FORMAT_TEXT},
    .sets = {HWFIT__SET(options), HWFIT__FRAMEWORK_OPTIONS, HWFIT__FRAMEWORK_EXTRA},
    .state_size = sizeof(memory_state),
    .run = run,
};

/*
 * workload.h - the options `fit`, `plan` and `perf` share: a model, a card, a workload and
 * a (partial) layout, read into shard.h's inputs and search space and perf.h's inputs, the
 * best layout of the space, and the refusals that name the option at fault. Options left
 * out are searched (tp, pp, dp, ep, ZeRO stage, recomputation, micro-batch, sequence
 * parallelism) or take the library's defaults. Never installed; not API.
 */
#ifndef HWFIT_REQUEST_WORKLOAD_H
#define HWFIT_REQUEST_WORKLOAD_H

#include "hwfit/dtype.h"
#include "hwfit/gpu.h"
#include "hwfit/model.h"
#include "hwfit/perf.h"
#include "hwfit/safetensors.h"
#include "hwfit/shard.h"
#include "request_internal.h"
#include "domains/shard_internal.h"

/* The rows of hwfit__workload_option_table, in help order. */
enum {
    HWFIT__W_CONFIG, HWFIT__W_GPU, HWFIT__W_GPUS, HWFIT__W_CAPACITY, HWFIT__W_MODE,
    HWFIT__W_WEIGHTS, HWFIT__W_KV, HWFIT__W_CONTEXT, HWFIT__W_BATCH, HWFIT__W_MICRO_BATCH,
    HWFIT__W_PREFILL_CHUNK, HWFIT__W_OVERHEAD, HWFIT__W_OPTIMIZER, HWFIT__W_GRADIENTS,
    HWFIT__W_RECOMPUTE, HWFIT__W_LORA_RANK, HWFIT__W_LORA_TARGETS, HWFIT__W_TP, HWFIT__W_PP,
    HWFIT__W_DP, HWFIT__W_CP, HWFIT__W_EP, HWFIT__W_ETP, HWFIT__W_VIRTUAL_STAGES,
    HWFIT__W_SP, HWFIT__W_NO_SP, HWFIT__W_ZERO, HWFIT__W_OFFLOAD, HWFIT__W_EVEN_LAYERS,
    HWFIT__W_UTILIZATION, HWFIT__W_RESERVE, HWFIT__W_HOST_MEMORY, HWFIT__W_HOST_BUFFER_FACTOR,
    HWFIT__W_MAX_GPUS, HWFIT__W_GPUS_PER_NODE, HWFIT__W_NIC, HWFIT__W_P2P,
    HWFIT__W_OUTPUT_TOKENS, HWFIT__W_TARGET_RATE, HWFIT__W_PRECISION,
    HWFIT__W_PREFILL_EFFICIENCY, HWFIT__W_DECODE_EFFICIENCY, HWFIT__W_MEMORY_EFFICIENCY,
    HWFIT__W_TRAINING_EFFICIENCY, HWFIT__W_STEP_OVERHEAD, HWFIT__W_TP_OVERLAP,
    HWFIT__W_PP_OVERLAP, HWFIT__W_DP_OVERLAP, HWFIT__W_EP_OVERLAP, HWFIT__W_MOE_EXPERT_OVERHEAD,
    HWFIT__W_LOW_PRECISION_EFFICIENCY, HWFIT__W_ACTIVATION_PASSES, HWFIT__W_POWER_LIMIT,
    HWFIT__W_POWER_EXPONENT, HWFIT__W_MEMORY_BANDWIDTH, HWFIT__W_SELECTIVE_MATMULS,
    HWFIT__W_COMM_BUFFER, HWFIT__W_BUCKET, HWFIT__W_LONG_CONTEXT, HWFIT__W_LOWP_SCALING,
    HWFIT__W_MOE_EXPERT_CAST_OVERHEAD, HWFIT__W_MOE_CAPACITY_FACTOR, HWFIT__W_MOE_IMBALANCE,
    HWFIT__W_SCHEDULE, HWFIT__W_REDUCE_BUCKET_SIZE, HWFIT__W_OVERLAP_COMM,
    HWFIT__WORKLOAD_NOPTS
};

/* The shared option table, and the set a command lists first:
 *     .sets = {HWFIT__WORKLOAD_OPTIONS, HWFIT__SET(own)}
 * (a macro, not a copy of hwfit__workload_options, so that it is a constant expression
 * in a static initializer). */
extern const hwfit_option hwfit__workload_option_table[HWFIT__WORKLOAD_NOPTS];
extern const hwfit__option_set hwfit__workload_options;
#define HWFIT__WORKLOAD_OPTIONS {hwfit__workload_option_table, HWFIT__WORKLOAD_NOPTS}
#define HWFIT__WOPT(k) (&hwfit__workload_option_table[(k)])

/* The names of the choices, indexed like the library's enums. */
extern const char *const hwfit__workload_modes[];      /* hwfit_memory_mode */
extern const char *const hwfit__workload_recomputes[]; /* hwfit_memory_recompute */
extern const char *const hwfit__workload_losses[];     /* hwfit_memory_loss */
extern const char *const hwfit__workload_selectives[]; /* hwfit_memory_selective */
extern const char *const hwfit__workload_attentions[]; /* HWFIT_ATTENTION_* */
extern const char *const hwfit__workload_warmups[];    /* hwfit_memory_warmup */
extern const char *const hwfit__workload_lora_modules[]; /* hwfit_memory_lora_modules */
extern const char *const hwfit__workload_chunk_rounds[]; /* loss_chunks_round_up 0, 1 */
extern const char *const hwfit__workload_short_losses[]; /* loss_short: inplace, inplace-cast */
extern const char *const hwfit__workload_frameworks[]; /* "none", then profile names */
extern const char *const hwfit__workload_phases[];     /* hwfit_memory_phase */
extern const char *const hwfit__workload_optimizers[]; /* hwfit_memory_optimizer */

/* The framework options (a profile and the training choices it makes, each of which can
 * be given alone), shared by memory, fit, plan and perf: a set of their own, listed
 * after a command's others, then the three flags of the memory workload
 * (no-master-weights, no-dropout, no-flash-attention), one table for the four commands. */
enum {
    HWFIT__F_FRAMEWORK, HWFIT__F_OPTIMIZER_STATES, HWFIT__F_PAGED, HWFIT__F_IN_BACKWARD,
    HWFIT__F_FOREACH, HWFIT__F_GRADIENT_BUFFER, HWFIT__F_LOSS, HWFIT__F_ACT_OFFLOAD,
    HWFIT__F_COMPILE, HWFIT__F_FRAGMENTATION, HWFIT__F_ATTN_WEIGHTS, HWFIT__F_MLP_WEIGHTS,
    HWFIT__F_EXPERT_WEIGHTS, HWFIT__F_DORA, HWFIT__F_LORA_DROPOUT, HWFIT__F_LORA_DTYPE,
    HWFIT__F_UNQUANTIZED, HWFIT__F_PACKED, HWFIT__F_QLORA_INPUTS,
    HWFIT__F_UNTIED_HEAD, HWFIT__F_SOFTCAP_EAGER, HWFIT__F_GATED_ACT,
    HWFIT__F_KV_REPEATED, HWFIT__F_DEQUANT, HWFIT__F_PREVIOUS_GRAPH,
    HWFIT__F_LOAD_QUANTIZE, HWFIT__F_ROOT_UNSHARDED,
    HWFIT__F_QUANT_SCALES, HWFIT__F_TRAINED_FP32, HWFIT__F_LOSS_CHUNK,
    HWFIT__F_OFFLOAD_AFTER_LOAD, HWFIT__F_LORA_FULL_MODULES, HWFIT__F_USE_CACHE,
    HWFIT__F_OUTPUTS_KEPT, HWFIT__F_SOFTMAX_FP32, HWFIT__F_NORM_UPCAST, HWFIT__F_ZERO_BUCKETS,
    HWFIT__F_KEPT_MODULES, HWFIT__F_NO_RESHARD, HWFIT__F_UNSHARDED_GRADS, HWFIT__F_SELECTIVE,
    HWFIT__F_FSDP_FLAT_UPCAST, HWFIT__F_OFFLOAD_KEEPS_GRADS, HWFIT__F_REDUCE_HELD,
    HWFIT__F_EXPERTS_INDEXED, HWFIT__F_LOSS_AFTER_CALL, HWFIT__F_LOGITS_FREED,
    HWFIT__F_OUTPUTS_FP32, HWFIT__F_FLEX_ATTENTION, HWFIT__F_EXPANDABLE_SEGMENTS,
    HWFIT__F_GRAD_COVERS_FROZEN,
    HWFIT__F_RESIDUAL_FP32,
    HWFIT__F_FP8_INPUTS, HWFIT__F_GRADS_UPCAST, HWFIT__F_WRAP_RESIDUE,
    HWFIT__F_EP_A2A_RECOMPUTED, HWFIT__F_ACTIVATIONS, HWFIT__F_QKV_ONE_DROPOUT,
    HWFIT__F_LORA_MODULES, HWFIT__F_EVALUATION, HWFIT__F_EVAL_BATCH, HWFIT__F_EVAL_USE_CACHE,
    HWFIT__F_FRAMEWORK_RELEASE, HWFIT__F_TRL_RELEASE, HWFIT__F_LOSS_TARGET,
    HWFIT__F_LOSS_FREE_SHARE,
    HWFIT__F_LOSS_CHUNKS_ROUND, HWFIT__F_LOSS_SHORT_TOKENS, HWFIT__F_LOSS_SHORT,
    HWFIT__F_PROBS_KEPT, HWFIT__F_LOSS_PARALLEL, HWFIT__F_WHOLE_MASKS, HWFIT__F_EVAL_REPLAY,
    HWFIT__F_SINK_MASK_BYTES, HWFIT__F_ATTENTION, HWFIT__F_RECORD_LENGTHS,
    HWFIT__F_LENGTH_MEAN, HWFIT__F_LENGTH_SD, HWFIT__F_SAMPLES, HWFIT__F_HEAD_CAST,
    HWFIT__F_CARD_NO_FLASH, HWFIT__F_SDPA_GQA_MATH, HWFIT__F_TRANSFORMERS_RELEASE,
    HWFIT__F_LOAD_WARMUP, HWFIT__F_LOAD_COUNTED, HWFIT__F_UNSLOTH_FAST_MODEL,
    HWFIT__F_FSDP_SINGLE_UNIT, HWFIT__F_BUILT_WHOLE, HWFIT__F_NORM_WEIGHT_FP32,
    HWFIT__F_DEQUANT_WORK, HWFIT__F_ZERO3_VIEWS,
    HWFIT__FRAMEWORK_NOPTS
};
enum { HWFIT__X_NO_MASTER, HWFIT__X_NO_DROPOUT, HWFIT__X_NO_FLASH, HWFIT__FRAMEWORK_EXTRA_NOPTS };
extern const hwfit_option hwfit__framework_option_table[HWFIT__FRAMEWORK_NOPTS];
extern const hwfit_option hwfit__framework_extra_table[HWFIT__FRAMEWORK_EXTRA_NOPTS];
#define HWFIT__FRAMEWORK_OPTIONS {hwfit__framework_option_table, HWFIT__FRAMEWORK_NOPTS}
#define HWFIT__FRAMEWORK_EXTRA {hwfit__framework_extra_table, HWFIT__FRAMEWORK_EXTRA_NOPTS}
#define HWFIT__FOPT(k) (&hwfit__framework_option_table[(k)])
#define HWFIT__XOPT(k) (&hwfit__framework_extra_table[(k)])

/* The options of a memory workload that a profile may set, with the rows a command has
 * for them (NULL: the command has none; its value stays). */
typedef struct hwfit__memory_rows {
    const hwfit_option *optimizer, *gradients, *overhead, *recompute, *no_master, *no_dropout;
    const hwfit_option *micro_batch, *lora_rank, *lora_targets; /* refused outside their modes */
    const hwfit_option *no_flash; /* serving and training: the s^2 attention scores */
    int sharded; /* 1: the command shards over cards (fit, plan, perf); 0: one device (memory),
                    where the options that act only under ZeRO-3 sharding are refused */
} hwfit__memory_rows;

/* Apply the framework profile (for m->mode and gpus devices), then every option given
 * alone, and without a profile each option's default, to m. *profile_recompute gets 1
 * when the profile chose m->recompute and the recompute option was not given. */
hwfit_status hwfit__workload_memory_options(hwfit_request *r, const hwfit__memory_rows *rows,
                                            uint32_t gpus, hwfit_memory_in *m,
                                            int *profile_recompute);

/* The profile's choices as a section "assumptions" (JSON object or indented lines), with
 * the releases r gave (--framework-release, --trl-release) and whether the profile is dated;
 * recompute_source says where m->recompute came from (hwfit__RECOMPUTE_*); model resolves
 * the attention (hwfit_memory_attention_flash). */
void hwfit__workload_out_assumptions(hwfit__out *o, hwfit_request *r, const char *framework,
                                     const hwfit_model *model, const hwfit_memory_in *m,
                                     const char *recompute_source);

/* Where a recomputation came from, as the output says it ("recompute_source"). */
#define HWFIT__RECOMPUTE_GIVEN "given"
#define HWFIT__RECOMPUTE_PROFILE "framework profile"
#define HWFIT__RECOMPUTE_SEARCHED "searched"
#define HWFIT__RECOMPUTE_DEFAULT "default"
/* LoRA and QLoRA recipes checkpoint activations: PEFT's prepare_model_for_kbit_training
 * (use_gradient_checkpointing=True) and torchtune's LoRA/QLoRA configs
 * (enable_activation_checkpointing: True); see docs/formulas.md. */
#define HWFIT__RECOMPUTE_ADAPTER "LoRA/QLoRA recipes' default"


/* The weights' formats from the checkpoint: unless weights, attention-weights, mlp-weights
 * or expert-weights was given, hwfit_memory_use_stored applies the model's stored formats
 * to m (a given unquantized or kept-modules still wins; kept-modules is read here, against
 * the model's layers, and a bad list fails the request; a nonzero sink-mask-bytes given for
 * a model without attention sinks is refused). source gets what the output says
 * of them: "stored: <description> from quantization_config", "given" or "default". */
hwfit_status hwfit__workload_stored(hwfit_request *r, const hwfit_option *weights,
                                    const hwfit_model *model, hwfit_memory_in *m, char *source,
                                    size_t size);

/* weights_source and the section "stored" (what the config says the checkpoint holds). */
void hwfit__workload_out_stored(hwfit__out *o, const hwfit_model *model, const char *source);

/* The section "checkpoint": the safetensors headers beside the config (files 0: none);
 * used: their main model's bytes replaced the computed weights (hwfit_memory_use_exact). */
void hwfit__workload_out_checkpoint(hwfit__out *o, const hwfit_safetensors_info *c, int used);

/* What the options make: the model, the card, the inputs and the space. Large (the model):
 * it lives in a command's workspace. */
typedef struct hwfit__workload {
    hwfit_model model;
    const hwfit_gpu *card;   /* NULL with capacity only */
    hwfit_shard_in in;       /* the workload, gpus and card; layout from the options */
    hwfit_shard_space space; /* fixed where an option was given */
    hwfit_perf_in perf;      /* with the card (when gpu is given), topology and in */
    int mode;                /* index of hwfit__workload_modes */
    int training;            /* mode is not inference */
    int layout_given;        /* some layout option was given */
    hwfit_perf_result timed; /* hwfit__workload_best: the best layout's throughput, when
                                timed_valid (ranked by hwfit_perf_plan) */
    int timed_valid;
    char weights_name[HWFIT_DTYPE_NAME_SIZE], kv_name[HWFIT_DTYPE_NAME_SIZE];
    char weights_source[192]; /* hwfit__workload_stored */
    const char *framework;   /* the profile's name, or "none" */
    int profile_recompute;   /* the profile chose the recomputation (not searched) */
    int default_batch;       /* set by the command before hwfit__workload_read (plan):
                                training without batch gets HWFIT__BATCH_DEFAULT_TOKENS'
                                worth; else each layout its own (pp micro-batches) */
    const char *batch_source; /* training: where space.global_batch came from ("given",
                                 HWFIT__BATCH_DEFAULT_SOURCE or "each layout's own");
                                 NULL for inference */
    hwfit__shard_engine engine; /* the throughput calls' shard engine (perf_internal.h): in
                                   the workspace, not on the stack */
} hwfit__workload;

/* fit, plan, perf: "given", "framework profile" or "searched". */
const char *hwfit__workload_recompute_source(hwfit_request *r, const hwfit__workload *w);

/* Training without --batch: plan puts every layout at ONE global batch of
 * about 4M tokens, Llama 3's initial pre-training batch (Dubey et al. 2024, "The Llama 3
 * Herd of Models", arXiv:2407.21783, section 3.4.3: "an initial batch size of 4M tokens
 * and sequences of length 4,096"; Megatron-LM's Llama recipes: 1,024 sequences of 4,096
 * tokens). In sequences: the power of two nearest (by ratio) to 4,194,304 / context, so
 * that every power-of-two dp x micro-batch up to it divides it. A layout whose dp x
 * micro-batch does not divide it is not valid (not ranked): the batch is the same for
 * every layout rather than rounded per layout. */
#define HWFIT__BATCH_DEFAULT_TOKENS 4194304.0
#define HWFIT__BATCH_DEFAULT_SOURCE "default: about 4M tokens (Llama 3's initial batch)"
uint64_t hwfit__workload_default_batch(uint64_t context);

/* Read the options of r into w: load the model and the card, fill w->in, w->space and
 * w->perf. HWFIT_OK, or a refusal naming the option (hwfit__req_fail). */
hwfit_status hwfit__workload_read(hwfit_request *r, hwfit__workload *w);

/* The layout the options name, dp derived from the card count when not given (for
 * reporting why it is invalid). */
void hwfit__workload_layout(const hwfit__workload *w, hwfit_layout *layout);

/* The best layout of w->space: by hwfit_perf_plan's metric (training tokens/s at each
 * layout's own global batch, step time at a given batch, or decode rate) when the card is
 * known and has the precision's throughput, else by memory headroom; layouts that fit
 * first, then the nearest miss. Refuses (naming the option) when no layout is valid.
 * ranked_by gets hwfit_perf_rank_name's name or "headroom"; w->timed the layout's step
 * time and tokens/s when ranked by throughput. */
hwfit_status hwfit__workload_best(hwfit_request *r, hwfit__workload *w, hwfit_layout *best,
                                  hwfit_shard_search_out *summary, const char **ranked_by);

/* A library refusal (status st of a search, plan or estimate of w) as the option at fault
 * and its rule, through hwfit_perf_validate (timed != 0) or hwfit_shard_validate on the
 * layout the options name; an invalid layout as "tp: the 32 attention heads do not divide
 * by 3". Returns the status to return from run(). */
hwfit_status hwfit__workload_refused(hwfit_request *r, hwfit__workload *w,
                                     hwfit_status st, int timed);

/* "training_rate", "step_time" or "decode_rate" (hwfit_perf_plan_rank) for w's space. */
const char *hwfit__workload_rank_name(const hwfit__workload *w, const hwfit_shard_space *space);

/* "optimizer", "params", "optimizer,params" or "none". */
const char *hwfit__offload_name(unsigned offload);

/* A layout as a section "layout" (JSON object or indented lines). */
void hwfit__workload_out_layout(hwfit__out *o, const hwfit_layout *l);

#endif /* HWFIT_REQUEST_WORKLOAD_H */

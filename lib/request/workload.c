/* workload.c - the options `fit`, `plan` and `perf` share, read into the shard and perf
 * inputs, the best layout, and the refusals naming the option at fault (workload.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hwfit/collective.h"
#include "hwfit/hf_config.h"
#include "hwfit/hf_quant.h"
#include "hwfit/memory.h"
#include "hwfit/profile.h"
#include "hwfit/safetensors.h"
#include "hwfit/units.h"
#include "workload.h"
#include "base/internal.h"
#include "domains/perf_internal.h"
#include "catalogs/dtype_internal.h"

#define NO_MAX 1.8446744073709552e19 /* no upper bound for a whole number */
#define U32_MAX 4294967295.0
#define MAX_GPUS 1048576.0          /* HWFIT_SHARD_MAX_GPUS */
#define MAX_BYTES 1152921504606846976.0 /* 2^60: the shard functions' byte inputs */
#define MAX_TOKENS 1099511627776.0  /* HWFIT_MODEL_MAX_SIZE */

const char *const hwfit__workload_modes[] = {"inference", "full", "lora", "qlora", NULL};
static const hwfit_memory_mode mode_values[] = {HWFIT_MEMORY_INFERENCE, HWFIT_MEMORY_FULL,
                                                HWFIT_MEMORY_LORA, HWFIT_MEMORY_QLORA};
static const hwfit_memory_optimizer optimizer_values[] = {
    HWFIT_MEMORY_ADAMW, HWFIT_MEMORY_ADAMW_8BIT, HWFIT_MEMORY_SGD, HWFIT_MEMORY_SGD_PLAIN};
const char *const hwfit__workload_recomputes[] = {"none", "selective", "full", NULL};
static const hwfit_memory_recompute recompute_values[] = {
    HWFIT_MEMORY_RECOMPUTE_NONE, HWFIT_MEMORY_RECOMPUTE_SELECTIVE, HWFIT_MEMORY_RECOMPUTE_FULL};
static const char *const p2p_modes[] = {"auto", "on", "off", NULL};
static const hwfit_topology_mode p2p_values[] = {HWFIT_TOPOLOGY_AUTO, HWFIT_TOPOLOGY_ON,
                                                 HWFIT_TOPOLOGY_OFF};
static const char *const precisions[] = {"auto", "tf32", "bf16", "fp8", "fp4", "int8", NULL};
static const char *const scalings[] = {"tensor", "block", NULL}; /* hwfit_perf_scaling order */
static const char *const schedules[] = {"1f1b", "zb-h1", NULL}; /* hwfit_perf_schedule order */

#define DEGREE(opt, help_text, dflt_help)                                                   \
    {.name = (opt), .kind = HWFIT_OPTION_COUNT, .metavar = "N", .default_help = (dflt_help), \
     .min = 1, .max = MAX_GPUS, .help = (help_text)}
#define SHARE(opt, dflt, lo, help_text)                                                      \
    {.name = (opt), .kind = HWFIT_OPTION_RATIO, .metavar = "F", .default_text = (dflt),      \
     .min = (lo), .max = 1, .help = (help_text)}

const hwfit_option hwfit__workload_option_table[HWFIT__WORKLOAD_NOPTS] = {
    [HWFIT__W_CONFIG] = {.name = "model", .alias = "config", .kind = HWFIT_OPTION_FILE,
                  .metavar = "MODEL", .flags = HWFIT_OPTION_REQUIRED,
                  .example = "meta-llama/Llama-3.1-70B",
                  .help = "the model: a config.json path, a Hugging Face id, a short name "
                          "(see hwfit models) or the config.json text ('{...}')"},
    [HWFIT__W_GPU] = {.name = "gpu", .kind = HWFIT_OPTION_NAME, .metavar = "NAME",
                      .catalog = "gpu", .default_help = "none; give capacity instead",
                      .example = "rtx-pro-6000-server",
                      .help = "card from the catalog (see hwfit gpus)"},
    [HWFIT__W_GPUS] = {.name = "gpus", .kind = HWFIT_OPTION_COUNT, .metavar = "N",
                       .default_text = "1", .min = 1, .max = MAX_GPUS,
                       .help = "cards in the job"},
    [HWFIT__W_CAPACITY] = {.name = "capacity", .kind = HWFIT_OPTION_QUANTITY,
                           .unit = HWFIT_UNIT_BYTES, .metavar = "SIZE",
                           .default_help = "the card's", .min = 1, .max = MAX_BYTES,
                           .example = "80GiB",
                           .help = "memory of one card, instead of the catalog card's"},
    [HWFIT__W_MODE] = {.name = "mode", .kind = HWFIT_OPTION_CHOICE, .metavar = "MODE",
                       .default_text = "inference", .choices = hwfit__workload_modes,
                       .help = "serving, or full, LoRA or QLoRA fine-tuning"},
    [HWFIT__W_WEIGHTS] = {.name = "weights", .kind = HWFIT_OPTION_NAME, .metavar = "DTYPE",
                          .catalog = "dtype", .default_help = "bf16; qlora: nf4-dq",
                          .help = "weight format (qlora: the frozen base's)"},
    [HWFIT__W_KV] = {.name = "kv", .kind = HWFIT_OPTION_NAME, .metavar = "DTYPE",
                     .catalog = "dtype", .default_text = "bf16", .help = "KV-cache format"},
    [HWFIT__W_CONTEXT] = {.name = "context", .kind = HWFIT_OPTION_TOKENS, .metavar = "N",
                          .default_text = "4096", .min = 1, .max = MAX_TOKENS,
                          .help = "tokens per sequence (training: the sequence length)"},
    [HWFIT__W_BATCH] = {.name = "batch", .kind = HWFIT_OPTION_COUNT, .metavar = "N",
                        .default_help = "inference 1; training: plan about 4M tokens "
                                        "(4,194,304 / context sequences, to a power of two), "
                                        "fit and perf pp micro-batches per replica",
                        .min = 1, .max = NO_MAX,
                        .help = "inference: concurrent sequences over all replicas; "
                                "training: global batch in sequences"},
    [HWFIT__W_MICRO_BATCH] = {.name = "micro-batch", .kind = HWFIT_OPTION_COUNT,
                              .metavar = "N", .default_help = "searched, 1-8", .min = 1,
                              .max = NO_MAX, .help = "training: sequences per micro-batch"},
    [HWFIT__W_PREFILL_CHUNK] = {.name = "prefill-chunk", .kind = HWFIT_OPTION_TOKENS,
                                .metavar = "N", .default_text = "2048", .min = 0,
                                .max = MAX_TOKENS,
                                .help = "inference: prompt tokens per forward pass, 0 = all"},
    [HWFIT__W_OVERHEAD] = {.name = "overhead", .kind = HWFIT_OPTION_QUANTITY,
                           .unit = HWFIT_UNIT_BYTES, .metavar = "SIZE", .default_text = "1GiB",
                           .min = 0, .max = 9007199254740992.0,
                           .help = "runtime overhead per card: CUDA context, workspaces"},
    [HWFIT__W_OPTIMIZER] = {.name = "optimizer", .kind = HWFIT_OPTION_CHOICE, .metavar = "NAME",
                            .default_text = "adamw", .choices = hwfit__workload_optimizers,
                            .help = "training: the optimizer"},
    [HWFIT__W_GRADIENTS] = {.name = "gradients", .kind = HWFIT_OPTION_NAME, .metavar = "DTYPE",
                            .catalog = "dtype", .default_text = "bf16",
                            .help = "training: gradient format, bf16 or fp32"},
    [HWFIT__W_RECOMPUTE] = {.name = "recompute", .kind = HWFIT_OPTION_CHOICE, .metavar = "KIND",
                            .default_help = "searched", .choices = hwfit__workload_recomputes,
                            .help = "training: activation recomputation"},
    [HWFIT__W_LORA_RANK] = {.name = "lora-rank", .kind = HWFIT_OPTION_COUNT, .metavar = "R",
                            .default_text = "16", .min = 1, .max = U32_MAX,
                            .help = "LoRA rank"},
    [HWFIT__W_LORA_TARGETS] = {.name = "lora-targets", .kind = HWFIT_OPTION_TEXT,
                               .metavar = "LIST", .default_text = "all",
                               .help = "LoRA modules: q,k,v,o,gate,up,down, attention, mlp "
                                       "or all"},
    [HWFIT__W_TP] = DEGREE("tp", "tensor-parallel ranks", "searched"),
    [HWFIT__W_PP] = DEGREE("pp", "pipeline stages", "searched"),
    [HWFIT__W_DP] = DEGREE("dp", "data-parallel replicas", "what is left"),
    [HWFIT__W_CP] = {.name = "cp", .kind = HWFIT_OPTION_COUNT, .metavar = "N",
                     .default_text = "1", .min = 1, .max = MAX_GPUS,
                     .help = "context-parallel ranks"},
    [HWFIT__W_EP] = DEGREE("ep", "expert-parallel ranks", "searched"),
    [HWFIT__W_ETP] = DEGREE("etp", "tensor-parallel ranks per expert",
                            "tp, or whole experts"),
    [HWFIT__W_VIRTUAL_STAGES] = {.name = "virtual-stages", .kind = HWFIT_OPTION_COUNT,
                                 .metavar = "N",
                                 .default_help = "searched: 1 to 8 in training with pp > 1",
                                 .min = 1,
                                 .max = U32_MAX,
                                 .help = "training: model chunks per card, interleaved 1F1B"},
    [HWFIT__W_SP] = {.name = "sequence-parallel", .kind = HWFIT_OPTION_FLAG,
                     .default_help = "searched", .help = "training: sequence parallelism on"},
    [HWFIT__W_NO_SP] = {.name = "no-sequence-parallel", .kind = HWFIT_OPTION_FLAG,
                        .help = "training: sequence parallelism off"},
    [HWFIT__W_ZERO] = {.name = "zero", .kind = HWFIT_OPTION_COUNT, .metavar = "0-3",
                       .default_help = "searched", .min = 0, .max = 3,
                       .help = "training: ZeRO stage"},
    [HWFIT__W_OFFLOAD] = {.name = "offload", .kind = HWFIT_OPTION_TEXT, .metavar = "LIST",
                          .default_text = "none",
                          .help = "training: what goes to host memory: optimizer, params, "
                                  "optimizer,params, none, or any to search them"},
    [HWFIT__W_EVEN_LAYERS] = {.name = "even-layers", .kind = HWFIT_OPTION_FLAG,
                              .help = "require layers divisible by pp (else split as vLLM "
                                      "does)"},
    [HWFIT__W_UTILIZATION] = SHARE("utilization", "0.9", 0,
                                   "fraction of a card's memory usable, as vLLM's"),
    [HWFIT__W_RESERVE] = {.name = "reserve", .kind = HWFIT_OPTION_QUANTITY,
                          .unit = HWFIT_UNIT_BYTES, .metavar = "SIZE", .default_text = "0B",
                          .min = 0, .max = MAX_BYTES, .help = "bytes per card kept free"},
    [HWFIT__W_HOST_MEMORY] = {.name = "host-memory", .kind = HWFIT_OPTION_QUANTITY,
                              .unit = HWFIT_UNIT_BYTES, .metavar = "SIZE",
                              .default_help = "not checked", .min = 0, .max = MAX_BYTES,
                              .help = "host memory for offload, all nodes"},
    [HWFIT__W_HOST_BUFFER_FACTOR] = {.name = "host-buffer-factor", .kind = HWFIT_OPTION_RATIO,
                                     .metavar = "F", .default_text = "1", .min = 1, .max = 16,
                                     .help = "factor on offloaded bytes (DeepSpeed's "
                                             "estimators: 1.5)"},
    [HWFIT__W_MAX_GPUS] = {.name = "max-gpus", .kind = HWFIT_OPTION_COUNT, .metavar = "N",
                           .default_text = "256", .min = 1, .max = MAX_GPUS,
                           .help = "largest card count min_gpus tries"},
    [HWFIT__W_GPUS_PER_NODE] = {.name = "gpus-per-node", .kind = HWFIT_OPTION_COUNT,
                                .metavar = "N", .default_text = "8", .min = 1,
                                .max = HWFIT_TOPOLOGY_MAX_GPUS_PER_NODE,
                                .help = "GPUs per server"},
    [HWFIT__W_NIC] = {.name = "nic", .kind = HWFIT_OPTION_TEXT, .metavar = "SPEC",
                      .default_help = "none: one server", .example = "8x400g-ib",
                      .help = "network per node for several servers, e.g. 2x400g-roce, "
                              "8x400g-ib"},
    [HWFIT__W_P2P] = {.name = "p2p", .kind = HWFIT_OPTION_CHOICE, .metavar = "MODE",
                      .default_text = "auto", .choices = p2p_modes,
                      .help = "GPU P2P over PCIe (auto: NCCL's default)"},
    [HWFIT__W_OUTPUT_TOKENS] = {.name = "output-tokens", .kind = HWFIT_OPTION_TOKENS,
                                .metavar = "N", .default_text = "0", .min = 0,
                                .max = MAX_TOKENS,
                                .help = "inference: tokens generated per sequence"},
    [HWFIT__W_TARGET_RATE] = {.name = "target-rate", .kind = HWFIT_OPTION_RATIO,
                              .metavar = "TOK/S", .default_help = "none", .min = 0,
                              .max = 1e15,
                              .help = "inference: decode rate to reach; reports the batch it "
                                      "needs"},
    [HWFIT__W_PRECISION] = {.name = "precision", .kind = HWFIT_OPTION_CHOICE, .metavar = "NAME",
                            .default_text = "auto", .choices = precisions,
                            .help = "math format (auto: from the weights)"},
    [HWFIT__W_PREFILL_EFFICIENCY] = SHARE("prefill-efficiency", "0.6", 0,
                                          "share of peak tensor throughput in prefill"),
    [HWFIT__W_DECODE_EFFICIENCY] = SHARE("decode-efficiency", "0.6", 0,
                                         "share of peak tensor throughput in decode"),
    [HWFIT__W_MEMORY_EFFICIENCY] = SHARE("memory-efficiency", "0.85", 0,
                                         "share of peak memory bandwidth"),
    [HWFIT__W_TRAINING_EFFICIENCY] = SHARE("training-efficiency", "0.7", 0,
                                           "share of peak tensor throughput in training"),
    [HWFIT__W_LOW_PRECISION_EFFICIENCY] = SHARE("low-precision-efficiency", "0.75", 0,
                                                "training in fp8 or fp4: share of that "
                                                "format's peak its matmuls reach, relative "
                                                "to training-efficiency (attention stays "
                                                "bf16)"),
    [HWFIT__W_LOWP_SCALING] = {.name = "lowp-scaling", .kind = HWFIT_OPTION_CHOICE,
                               .metavar = "KIND", .default_text = "tensor", .choices = scalings,
                               .help = "training in fp8 or fp4: per-tensor scales (Transformer "
                                       "Engine's delayed or current scaling, torchao's "
                                       "tensorwise) or block scales (MXFP8, NVFP4, DeepSeek-V3's "
                                       "tiles)"},
    [HWFIT__W_MOE_EXPERT_CAST_OVERHEAD] = {.name = "moe-expert-cast-overhead",
                                           .kind = HWFIT_OPTION_QUANTITY,
                                           .unit = HWFIT_UNIT_SECONDS, .metavar = "TIME",
                                           .default_text = "0.6ms", .min = 0, .max = 1e3,
                                           .help = "training, MoE, fp8/fp4 with per-tensor "
                                                   "scaling: fixed time more per expert a "
                                                   "card holds, per MoE layer and micro-batch "
                                                   "(each expert's own quantizing kernels)"},
    [HWFIT__W_MOE_CAPACITY_FACTOR] = {.name = "moe-capacity-factor",
                                      .kind = HWFIT_OPTION_RATIO, .metavar = "F",
                                      .default_help = "none (dropless)", .min = 0, .max = 1e3,
                                      .example = "1.25",
                                      .help = "training, MoE: pad each expert's input to "
                                              "F x tokens x top-k / experts (Megatron's "
                                              "--moe-expert-capacity-factor with "
                                              "--moe-pad-expert-input-to-capacity): expert "
                                              "FLOPs and all-to-alls x F; > 0"},
    [HWFIT__W_MOE_IMBALANCE] = {.name = "moe-imbalance", .kind = HWFIT_OPTION_RATIO,
                                .metavar = "F", .default_text = "1", .min = 1, .max = 1e3,
                                .help = "training, MoE, dropless: the busiest expert-parallel "
                                        "rank's routed tokens over the mean (expert FLOPs and "
                                        "all-to-alls on the critical path x F)"},
    [HWFIT__W_SCHEDULE] = {.name = "schedule", .kind = HWFIT_OPTION_CHOICE, .metavar = "KIND",
                           .default_text = "1f1b", .choices = schedules,
                           .help = "training with pipeline stages: 1F1B (interleaved with "
                                   "virtual stages) or ZB-H1 (Qi et al. 2023's zero-bubble "
                                   "schedule at 1F1B's memory: a third of the bubble)"},
    [HWFIT__W_ACTIVATION_PASSES] = {.name = "activation-passes", .kind = HWFIT_OPTION_RATIO,
                                    .metavar = "N", .default_text = "160", .min = 0,
                                    .max = 1e6,
                                    .help = "training: memory traffic of the kernels that "
                                            "are not matmuls (norms, activation, residual "
                                            "adds, rotary, casts), in passes over a token's "
                                            "hidden-size activation per layer, forward and "
                                            "backward (eager PyTorch: several times more)"},
    [HWFIT__W_POWER_LIMIT] = {.name = "power-limit", .kind = HWFIT_OPTION_QUANTITY,
                              .unit = HWFIT_UNIT_WATTS, .metavar = "POWER",
                              .default_help = "the card's TDP", .min = 1, .max = 1e5,
                              .example = "500W",
                              .help = "board power limit the cards run at: below the TDP "
                                      "the tensor throughput follows the clock it allows"},
    [HWFIT__W_POWER_EXPONENT] = {.name = "power-exponent", .kind = HWFIT_OPTION_RATIO,
                                 .metavar = "F", .default_help = "1/3", .min = 0, .max = 1,
                                 .help = "how the sustained clock follows the power limit: "
                                         "throughput x (limit / TDP)^exponent"},
    [HWFIT__W_MEMORY_BANDWIDTH] = {.name = "memory-bandwidth", .kind = HWFIT_OPTION_QUANTITY,
                                   .unit = HWFIT_UNIT_BYTES_PER_S, .metavar = "RATE",
                                   .default_help = "the card's", .min = 1, .max = 1e18,
                                   .example = "2.4TB/s",
                                   .help = "peak memory bandwidth of one card, instead of "
                                           "the catalog card's (a variant of it)"},
    [HWFIT__W_SELECTIVE_MATMULS] = SHARE("selective-matmul-recompute", "0", 0,
                                         "training, selective recomputation: share of the "
                                         "layers' weight matmuls recomputed too (torchtitan's "
                                         "op-level checkpointing: 0.37 for Llama in BF16, 1 "
                                         "with Float8)"),
    [HWFIT__W_STEP_OVERHEAD] = {.name = "step-overhead", .kind = HWFIT_OPTION_QUANTITY,
                                .unit = HWFIT_UNIT_SECONDS, .metavar = "TIME",
                                .default_text = "0s", .min = 0, .max = 1e6,
                                .help = "inference: fixed time per decode step"},
    [HWFIT__W_TP_OVERLAP] = SHARE("tp-overlap", "0", 0,
                                  "share of tensor-parallel communication hidden"),
    [HWFIT__W_PP_OVERLAP] = SHARE("pp-overlap", "0", 0, "share of pipeline sends hidden"),
    [HWFIT__W_DP_OVERLAP] = SHARE("dp-overlap", "0.5", 0, "share of gradient reduction hidden"),
    [HWFIT__W_EP_OVERLAP] = SHARE("ep-overlap", "0.5", 0, "share of expert all-to-alls hidden"),
    [HWFIT__W_MOE_EXPERT_OVERHEAD] = {.name = "moe-expert-overhead",
                                      .kind = HWFIT_OPTION_QUANTITY,
                                      .unit = HWFIT_UNIT_SECONDS, .metavar = "TIME",
                                      .default_text = "0.4ms", .min = 0, .max = 1e3,
                                      .help = "training, MoE: fixed time per expert a card "
                                              "holds, per MoE layer and micro-batch"},
    [HWFIT__W_COMM_BUFFER] = {.name = "comm-buffer", .kind = HWFIT_OPTION_QUANTITY,
                              .unit = HWFIT_UNIT_BYTES, .metavar = "SIZE",
                              .default_text = "64MiB", .min = 0, .max = MAX_BYTES,
                              .help = "NCCL buffers per communicator a card belongs to "
                                      "(NCCL_BUFFSIZE 4 MiB x 2 ring neighbours x 8 channels)"},
    [HWFIT__W_LONG_CONTEXT] = {.name = "long-context", .kind = HWFIT_OPTION_FLAG,
                               .help = "allow a context beyond the model's "
                                       "max_position_embeddings (e.g. with RoPE scaling the "
                                       "config does not state)"},
    [HWFIT__W_BUCKET] = {.name = "bucket", .kind = HWFIT_OPTION_QUANTITY,
                         .unit = HWFIT_UNIT_BYTES, .metavar = "SIZE", .default_text = "25MiB",
                         .min = 0, .max = MAX_BYTES,
                         .help = "training with data parallelism under ZeRO or FSDP: the "
                                 "gradient bucket in flight (plain DDP, ZeRO 0: its buckets "
                                 "hold a copy of the whole gradient whatever their size)"},
    [HWFIT__W_REDUCE_BUCKET_SIZE] = {.name = "reduce-bucket-size", .kind = HWFIT_OPTION_RATIO,
                                     .metavar = "N", .default_text = "5e8", .min = 1,
                                     .max = 1125899906842624.0,
                                     .help = "training under ZeRO with --zero-buckets: "
                                             "elements of one DeepSpeed gradient buffer "
                                             "(reduce_bucket_size; HF \"auto\" = "
                                             "hidden_size^2)"},
    [HWFIT__W_OVERLAP_COMM] = {.name = "overlap-comm", .kind = HWFIT_OPTION_FLAG,
                               .help = "training under ZeRO-1/2 with --zero-buckets: "
                                       "DeepSpeed's overlap_comm, a second gradient buffer"},
};

const hwfit__option_set hwfit__workload_options = HWFIT__WORKLOAD_OPTIONS;

#define OPT(k) HWFIT__WOPT(k)

const char *hwfit__offload_name(unsigned offload) {
    switch (offload & 3u) {
    case HWFIT_SHARD_OFFLOAD_OPTIMIZER: return "optimizer";
    case HWFIT_SHARD_OFFLOAD_PARAMS: return "params";
    case 3u: return "optimizer,params";
    default: return "none";
    }
}

void hwfit__workload_layout(const hwfit__workload *w, hwfit_layout *l) {
    *l = w->in.layout;
    const hwfit_shard_space *s = &w->space;
    l->tp = s->tp ? s->tp : 1;
    l->pp = s->pp ? s->pp : 1;
    l->cp = s->cp ? s->cp : 1;
    l->ep = s->ep ? s->ep : 1;
    l->etp = s->etp;
    l->virtual_stages = s->virtual_stages ? s->virtual_stages : 1;
    uint64_t tpc = (uint64_t)l->tp * l->pp * l->cp;
    l->dp = s->dp ? s->dp : (tpc && w->in.gpus % tpc == 0 ? (uint32_t)(w->in.gpus / tpc) : 1);
    l->zero_stage = s->zero_stage >= 0 ? (uint32_t)s->zero_stage : 0;
    l->offload = s->offload >= 0 ? (unsigned)s->offload : 0;
    l->recompute = s->recompute >= 0 ? (hwfit_memory_recompute)s->recompute
                                     : HWFIT_MEMORY_RECOMPUTE_NONE;
    l->sequence_parallel = s->sequence_parallel > 0;
    l->micro_batch = s->micro_batch ? s->micro_batch : 1;
    l->global_batch = s->global_batch;
    l->uneven_layers = s->uneven_layers;
}

/* The workload, the card and the limits of memory into w->in. */
static hwfit_status read_shard_in(hwfit_request *r, hwfit__workload *w) {
    hwfit_status st;
    hwfit_shard_in *in = &w->in;
    hwfit_shard_init(in);
    hwfit_memory_in *m = &in->memory;
    w->mode = hwfit__req_choice(r, OPT(HWFIT__W_MODE));
    m->mode = mode_values[w->mode];
    w->training = m->mode != HWFIT_MEMORY_INFERENCE;
    m->optimizer = optimizer_values[hwfit__req_choice(r, OPT(HWFIT__W_OPTIMIZER))];
    m->context = hwfit__req_u64(r, OPT(HWFIT__W_CONTEXT));
    m->prefill_chunk = hwfit__req_u64(r, OPT(HWFIT__W_PREFILL_CHUNK));
    m->overhead_bytes = hwfit__req_double(r, OPT(HWFIT__W_OVERHEAD));
    m->lora_rank = (uint32_t)hwfit__req_u64(r, OPT(HWFIT__W_LORA_RANK)); /* bounded to 2^32-1 */
    if (!w->training && hwfit__req_given(r, OPT(HWFIT__W_BATCH)))
        m->batch = hwfit__req_u64(r, OPT(HWFIT__W_BATCH));
    if (hwfit__req_given(r, OPT(HWFIT__W_WEIGHTS))) {
        hwfit_dtype *dest = m->mode == HWFIT_MEMORY_QLORA ? &m->qlora_base : &m->weights;
        if ((st = hwfit__req_dtype(r, OPT(HWFIT__W_WEIGHTS), dest)) != HWFIT_OK) return st;
    }
    if ((st = hwfit__req_dtype(r, OPT(HWFIT__W_KV), &m->kv)) != HWFIT_OK) return st;
    if ((st = hwfit__req_dtype(r, OPT(HWFIT__W_GRADIENTS), &m->gradients)) != HWFIT_OK) return st;
    const char *targets = hwfit__req_text(r, OPT(HWFIT__W_LORA_TARGETS));
    if (hwfit_memory_lora_targets_parse(targets, &m->lora_targets) != HWFIT_OK)
        return hwfit__req_fail(r, OPT(HWFIT__W_LORA_TARGETS), HWFIT_EPARSE,
                               "'%s' is not a list of q,k,v,o,gate,up,down, attention, mlp or "
                               "all", targets);
    hwfit_dtype base = m->mode == HWFIT_MEMORY_QLORA ? m->qlora_base : m->weights;
    if (hwfit_dtype_format(base, w->weights_name, sizeof w->weights_name) != HWFIT_OK)
        return hwfit__req_fail(r, OPT(HWFIT__W_WEIGHTS), HWFIT_EINVAL, "cannot be named");
    if (hwfit_dtype_format(m->kv, w->kv_name, sizeof w->kv_name) != HWFIT_OK)
        return hwfit__req_fail(r, OPT(HWFIT__W_KV), HWFIT_EINVAL, "cannot be named");

    in->gpus = (uint32_t)hwfit__req_u64(r, OPT(HWFIT__W_GPUS)); /* bounded to 2^20 */
    const hwfit__memory_rows rows = {OPT(HWFIT__W_OPTIMIZER), OPT(HWFIT__W_GRADIENTS),
                                     OPT(HWFIT__W_OVERHEAD), OPT(HWFIT__W_RECOMPUTE),
                                     HWFIT__XOPT(HWFIT__X_NO_MASTER),
                                     HWFIT__XOPT(HWFIT__X_NO_DROPOUT),
                                     OPT(HWFIT__W_MICRO_BATCH), OPT(HWFIT__W_LORA_RANK),
                                     OPT(HWFIT__W_LORA_TARGETS),
                                     HWFIT__XOPT(HWFIT__X_NO_FLASH), 1};
    if ((st = hwfit__workload_memory_options(r, &rows, in->gpus, m, &w->profile_recompute)) !=
        HWFIT_OK)
        return st;
    w->framework =
        hwfit__workload_frameworks[hwfit__req_choice(r, HWFIT__FOPT(HWFIT__F_FRAMEWORK))];
    in->utilization = hwfit__req_double(r, OPT(HWFIT__W_UTILIZATION));
    in->reserve_bytes = hwfit__req_double(r, OPT(HWFIT__W_RESERVE));
    in->host_buffer_factor = hwfit__req_double(r, OPT(HWFIT__W_HOST_BUFFER_FACTOR));
    in->comm_group_bytes = hwfit__req_double(r, OPT(HWFIT__W_COMM_BUFFER));
    in->bucket_bytes = hwfit__req_double(r, OPT(HWFIT__W_BUCKET));
    in->reduce_bucket_elements = hwfit__req_double(r, OPT(HWFIT__W_REDUCE_BUCKET_SIZE));
    if (in->reduce_bucket_elements != (double)(uint64_t)in->reduce_bucket_elements)
        return hwfit__req_fail(r, OPT(HWFIT__W_REDUCE_BUCKET_SIZE), HWFIT_EDOM,
                               "must be a whole number of elements");
    in->overlap_comm = hwfit__req_flag(r, OPT(HWFIT__W_OVERLAP_COMM));
    /* DeepSpeed's buffers are counted only with zero_buckets (given, or the deepspeed
     * profile's): their size and overlap would otherwise be ignored, so they are refused. */
    /* (stage 3 with an update in backward has none either; the stage is the layout's,
     * which fit and plan may search: shard.c decides there, the options are not refused) */
    if (!m->zero_buckets) {
        const hwfit_option *ds[2] = {OPT(HWFIT__W_REDUCE_BUCKET_SIZE), OPT(HWFIT__W_OVERLAP_COMM)};
        for (int i = 0; i < 2; i++)
            if (hwfit__req_given(r, ds[i]))
                return hwfit__req_fail(r, ds[i], HWFIT_EINVAL,
                                       "applies only with --zero-buckets (DeepSpeed's reduce "
                                       "buffers; --framework deepspeed sets it)");
    }
    if (hwfit__req_given(r, OPT(HWFIT__W_HOST_MEMORY))) {
        /* Given (0 included: a host without room): offload is checked against it. */
        in->host_memory_bytes = hwfit__req_double(r, OPT(HWFIT__W_HOST_MEMORY));
        in->host_memory_given = 1;
    }
    if (hwfit__req_given(r, OPT(HWFIT__W_GPU))) {
        const char *name = hwfit__req_text(r, OPT(HWFIT__W_GPU));
        st = hwfit_gpu_lookup(hwfit__req_gpu_set(r), name, &w->card);
        if (st != HWFIT_OK)
            return hwfit__req_fail(r, OPT(HWFIT__W_GPU), st, "unknown GPU '%s' (see hwfit gpus)",
                                   name);
        in->capacity_bytes = (double)w->card->memory_bytes;
        /* The card's SDPA kernels: no flash kernel before sm80 (NVIDIA; AMD reports 0). */
        if (!hwfit__req_given(r, HWFIT__FOPT(HWFIT__F_CARD_NO_FLASH)))
            m->card_no_flash = w->card->compute_capability > 0 &&
                               w->card->compute_capability < 80;
    }
    if (hwfit__req_given(r, OPT(HWFIT__W_CAPACITY)))
        in->capacity_bytes = hwfit__req_double(r, OPT(HWFIT__W_CAPACITY));
    return HWFIT_OK;
}

uint64_t hwfit__workload_default_batch(uint64_t context) {
    double want = HWFIT__BATCH_DEFAULT_TOKENS / (double)(context ? context : 1);
    uint64_t g = 1;
    while (g < (1ull << 62) && (double)g * 1.4142135623730951 < want) g <<= 1;
    return g; /* g / sqrt(2) < want <= g * sqrt(2), or 1 */
}

/* The search space: fixed where an option was given. */
static hwfit_status read_space(hwfit_request *r, hwfit__workload *w) {
    hwfit_shard_space *s = &w->space;
    hwfit_shard_space_init(s);
    const struct { int opt; uint32_t *dst; int layout; } deg[] = {
        {HWFIT__W_TP, &s->tp, 1}, {HWFIT__W_PP, &s->pp, 1}, {HWFIT__W_DP, &s->dp, 1},
        {HWFIT__W_CP, &s->cp, 1}, {HWFIT__W_EP, &s->ep, 1}, {HWFIT__W_ETP, &s->etp, 0},
        {HWFIT__W_VIRTUAL_STAGES, &s->virtual_stages, 1}};
    for (size_t i = 0; i < sizeof deg / sizeof deg[0]; i++) {
        const hwfit_option *o = OPT(deg[i].opt);
        if (hwfit__req_given(r, o)) {
            if (deg[i].layout) w->layout_given = 1;
        } else if (o->default_text == NULL) {
            continue; /* searched, or the library's default */
        }
        *deg[i].dst = (uint32_t)hwfit__req_u64(r, o); /* bounded to 2^32-1 */
    }
    if (hwfit__req_given(r, OPT(HWFIT__W_ZERO))) {
        s->zero_stage = (int)hwfit__req_u64(r, OPT(HWFIT__W_ZERO)); /* 0-3 */
        w->layout_given = 1;
        /* What ZeRO-3's gathered units hold (their unsharded gradients, FSDP2's held
         * reduce-scatter input) does not exist below stage 3: given with a stage fixed
         * below it, the option would change nothing, so it is refused. */
        const int below3[2] = {HWFIT__F_UNSHARDED_GRADS, HWFIT__F_REDUCE_HELD};
        for (int k = 0; k < 2 && s->zero_stage < 3; k++)
            if (hwfit__req_given(r, HWFIT__FOPT(below3[k])) &&
                hwfit__req_double(r, HWFIT__FOPT(below3[k])) > 0.0)
                return hwfit__req_fail(r, HWFIT__FOPT(below3[k]), HWFIT_EINVAL,
                                       "applies only under ZeRO-3 (--zero 3, or searched)");
        /* FSDP1's wrap residue is that of flat parameters sharded over the cards. */
        if (s->zero_stage < 3 && hwfit__req_given(r, HWFIT__FOPT(HWFIT__F_WRAP_RESIDUE)) &&
            hwfit__req_flag(r, HWFIT__FOPT(HWFIT__F_WRAP_RESIDUE)))
            return hwfit__req_fail(r, HWFIT__FOPT(HWFIT__F_WRAP_RESIDUE), HWFIT_EINVAL,
                                   "applies only under ZeRO-3 (--zero 3, or searched)");
    }
    if (hwfit__req_given(r, OPT(HWFIT__W_RECOMPUTE)))
        s->recompute = (int)recompute_values[hwfit__req_choice(r, OPT(HWFIT__W_RECOMPUTE))];
    else if (w->profile_recompute)
        s->recompute = (int)w->in.memory.recompute;
    int sp = hwfit__req_flag(r, OPT(HWFIT__W_SP)), no_sp = hwfit__req_flag(r, OPT(HWFIT__W_NO_SP));
    if (sp && no_sp)
        return hwfit__req_fail(r, OPT(HWFIT__W_SP), HWFIT_EINVAL,
                               "excludes no-sequence-parallel: give one of them");
    if (sp) s->sequence_parallel = 1;
    if (no_sp) s->sequence_parallel = 0;
    if (hwfit__req_given(r, OPT(HWFIT__W_MICRO_BATCH))) /* training only (memory rows) */
        s->micro_batch = hwfit__req_u64(r, OPT(HWFIT__W_MICRO_BATCH));
    if (hwfit__req_flag(r, OPT(HWFIT__W_EVEN_LAYERS))) s->uneven_layers = 0;
    w->batch_source = NULL;
    if (w->training && hwfit__req_given(r, OPT(HWFIT__W_BATCH))) {
        s->global_batch = hwfit__req_u64(r, OPT(HWFIT__W_BATCH));
        w->batch_source = "given";
    } else if (w->training && w->default_batch) {
        s->global_batch = hwfit__workload_default_batch(w->in.memory.context);
        w->batch_source = HWFIT__BATCH_DEFAULT_SOURCE;
    } else if (w->training) {
        w->batch_source = "each layout's own (pp micro-batches per replica)";
    }
    const char *offload = hwfit__req_text(r, OPT(HWFIT__W_OFFLOAD));
    if (strcmp(offload, "any") == 0) {
        s->offload = HWFIT_SHARD_ANY;
    } else {
        unsigned bits;
        if (hwfit_shard_offload_parse(offload, &bits) != HWFIT_OK)
            return hwfit__req_fail(r, OPT(HWFIT__W_OFFLOAD), HWFIT_EPARSE,
                                   "'%s' is not optimizer, params, optimizer,params, none or "
                                   "any", offload);
        s->offload = (int)bits;
        /* Gradients kept on the card act only when the optimizer is offloaded: with an
         * offload that cannot hold it the flag is refused rather than ignored. */
        if (!(bits & HWFIT_SHARD_OFFLOAD_OPTIMIZER) &&
            hwfit__req_given(r, HWFIT__FOPT(HWFIT__F_OFFLOAD_KEEPS_GRADS)) &&
            hwfit__req_flag(r, HWFIT__FOPT(HWFIT__F_OFFLOAD_KEEPS_GRADS)))
            return hwfit__req_fail(r, HWFIT__FOPT(HWFIT__F_OFFLOAD_KEEPS_GRADS), HWFIT_EINVAL,
                                   "applies only with --offload optimizer (or any)");
    }
    hwfit__workload_layout(w, &w->in.layout);
    return HWFIT_OK;
}

/* The throughput inputs: the card, the cluster, the assumptions. */
/* The step time's training options in inference are refused, not ignored (issue 21), as
 * mode_only_options does for the memory options: an inference estimate reads none of them. */
static hwfit_status training_only_perf_options(hwfit_request *r, const hwfit__workload *w) {
    static const int training_only[] = {
        HWFIT__W_TRAINING_EFFICIENCY,      HWFIT__W_MOE_EXPERT_OVERHEAD,
        HWFIT__W_LOW_PRECISION_EFFICIENCY, HWFIT__W_ACTIVATION_PASSES,
        HWFIT__W_SELECTIVE_MATMULS,        HWFIT__W_LOWP_SCALING,
        HWFIT__W_MOE_EXPERT_CAST_OVERHEAD, HWFIT__W_MOE_CAPACITY_FACTOR,
        HWFIT__W_MOE_IMBALANCE,            HWFIT__W_SCHEDULE};
    if (w->in.memory.mode != HWFIT_MEMORY_INFERENCE) return HWFIT_OK;
    for (size_t i = 0; i < sizeof training_only / sizeof training_only[0]; i++)
        if (hwfit__req_given(r, OPT(training_only[i])))
            return hwfit__req_fail(r, OPT(training_only[i]), HWFIT_EINVAL,
                                   "applies only to training (mode full, lora or qlora)");
    return HWFIT_OK;
}

static hwfit_status read_perf(hwfit_request *r, hwfit__workload *w) {
    hwfit_perf_in *p = &w->perf;
    hwfit_perf_init(p);
    hwfit_status st;
    if ((st = training_only_perf_options(r, w)) != HWFIT_OK) return st;
    if (w->card != NULL && (st = hwfit_perf_set_gpu(p, w->card)) != HWFIT_OK)
        return hwfit__req_fail(r, OPT(HWFIT__W_GPU), st, "cannot be used: %s",
                               hwfit_status_str(st));
    uint32_t per_node = (uint32_t)hwfit__req_u64(r, OPT(HWFIT__W_GPUS_PER_NODE)); /* 1-128 */
    p->topology.gpus_per_node = per_node;
    if (p->topology.sockets > per_node || per_node % p->topology.sockets != 0)
        p->topology.sockets = 1;
    p->topology.p2p = p2p_values[hwfit__req_choice(r, OPT(HWFIT__W_P2P))];
    int nic_given = hwfit__req_given(r, OPT(HWFIT__W_NIC));
    if (nic_given) {
        const char *nic = hwfit__req_text(r, OPT(HWFIT__W_NIC));
        if ((st = hwfit_topology_parse_nic(nic, &p->topology)) != HWFIT_OK)
            return hwfit__req_fail(r, OPT(HWFIT__W_NIC), st,
                                   "'%s' is not a NIC such as 2x400g-roce or 8x400g-ib", nic);
    }
    uint32_t gpus = w->in.gpus;
    if (w->card != NULL && gpus > per_node && !nic_given)
        return hwfit__req_fail(r, OPT(HWFIT__W_NIC), HWFIT_EINVAL,
                               "is required: %u GPUs span %u nodes of %u; give the network "
                               "between them, e.g. 8x400g-ib or 2x400g-roce",
                               gpus, (gpus + per_node - 1) / per_node, per_node);
    /* The timing model places the cards on a topology of at most HWFIT_TOPOLOGY_MAX_NODES
     * servers: say so with the user's numbers (it used to be an unnamed HWFIT_EDOM from
     * whichever layout first spanned them, issue 21). */
    if (w->card != NULL && (gpus + per_node - 1) / per_node > HWFIT_TOPOLOGY_MAX_NODES)
        return hwfit__req_fail(r, OPT(HWFIT__W_GPUS), HWFIT_EDOM,
                               "%u GPUs span %u nodes of %u, more than the %u nodes a topology "
                               "holds (give a larger gpus-per-node, or fewer GPUs)",
                               gpus, (gpus + per_node - 1) / per_node, per_node,
                               (unsigned)HWFIT_TOPOLOGY_MAX_NODES);
    const char *precision = precisions[hwfit__req_choice(r, OPT(HWFIT__W_PRECISION))];
    if (hwfit_perf_precision_from_name(precision, &p->precision) != HWFIT_OK)
        return hwfit__req_fail(r, OPT(HWFIT__W_PRECISION), HWFIT_ENOTFOUND,
                               "'%s' is not a known math format", precision);
    p->output_tokens = hwfit__req_u64(r, OPT(HWFIT__W_OUTPUT_TOKENS));
    if (hwfit__req_given(r, OPT(HWFIT__W_TARGET_RATE)))
        p->target_tokens_per_s = hwfit__req_double(r, OPT(HWFIT__W_TARGET_RATE));
    p->prefill_efficiency = hwfit__req_double(r, OPT(HWFIT__W_PREFILL_EFFICIENCY));
    p->decode_compute_efficiency = hwfit__req_double(r, OPT(HWFIT__W_DECODE_EFFICIENCY));
    p->memory_efficiency = hwfit__req_double(r, OPT(HWFIT__W_MEMORY_EFFICIENCY));
    p->training_efficiency = hwfit__req_double(r, OPT(HWFIT__W_TRAINING_EFFICIENCY));
    p->step_overhead_s = hwfit__req_double(r, OPT(HWFIT__W_STEP_OVERHEAD));
    p->tp_overlap = hwfit__req_double(r, OPT(HWFIT__W_TP_OVERLAP));
    p->pp_overlap = hwfit__req_double(r, OPT(HWFIT__W_PP_OVERLAP));
    p->dp_overlap = hwfit__req_double(r, OPT(HWFIT__W_DP_OVERLAP));
    p->ep_overlap = hwfit__req_double(r, OPT(HWFIT__W_EP_OVERLAP));
    p->moe_expert_overhead_s = hwfit__req_double(r, OPT(HWFIT__W_MOE_EXPERT_OVERHEAD));
    p->lowp_scaling = (hwfit_perf_scaling)hwfit__req_choice(r, OPT(HWFIT__W_LOWP_SCALING));
    p->moe_expert_cast_overhead_s =
        hwfit__req_double(r, OPT(HWFIT__W_MOE_EXPERT_CAST_OVERHEAD));
    p->low_precision_efficiency =
        hwfit__req_double(r, OPT(HWFIT__W_LOW_PRECISION_EFFICIENCY));
    if (hwfit__req_given(r, OPT(HWFIT__W_MOE_CAPACITY_FACTOR))) { /* else dropless */
        p->moe_capacity_factor = hwfit__req_double(r, OPT(HWFIT__W_MOE_CAPACITY_FACTOR));
        if (!(p->moe_capacity_factor > 0.0))
            return hwfit__req_fail(r, OPT(HWFIT__W_MOE_CAPACITY_FACTOR), HWFIT_EDOM,
                                   "must be more than 0");
        p->moe_capacity_given = 1;
    }
    p->moe_imbalance = hwfit__req_double(r, OPT(HWFIT__W_MOE_IMBALANCE));
    p->schedule = (hwfit_perf_schedule)hwfit__req_choice(r, OPT(HWFIT__W_SCHEDULE));
    p->activation_passes = hwfit__req_double(r, OPT(HWFIT__W_ACTIVATION_PASSES));
    p->selective_matmul_recompute = hwfit__req_double(r, OPT(HWFIT__W_SELECTIVE_MATMULS));
    if (hwfit__req_given(r, OPT(HWFIT__W_POWER_EXPONENT))) /* else the library's 1/3 */
        p->power_exponent = hwfit__req_double(r, OPT(HWFIT__W_POWER_EXPONENT));
    if (hwfit__req_given(r, OPT(HWFIT__W_POWER_LIMIT))) {
        double watts = hwfit__req_double(r, OPT(HWFIT__W_POWER_LIMIT));
        if (w->card == NULL || !(w->card->tdp_w > 0.0))
            return hwfit__req_fail(r, OPT(HWFIT__W_POWER_LIMIT), HWFIT_EINVAL,
                                   "needs a card with a TDP in the catalog (give gpu)");
        if (watts > 1.5 * w->card->tdp_w)
            return hwfit__req_fail(r, OPT(HWFIT__W_POWER_LIMIT), HWFIT_EDOM,
                                   "must be at most 1.5 x the TDP of %s (%g W)",
                                   w->card->name, w->card->tdp_w);
        p->power_limit_share = watts / w->card->tdp_w;
    }
    if (hwfit__req_given(r, OPT(HWFIT__W_MEMORY_BANDWIDTH)))
        p->memory_bandwidth_bytes_per_s = hwfit__req_double(r, OPT(HWFIT__W_MEMORY_BANDWIDTH));
    /* Computing in FP8, the profile's FP8 choices (hwfit_memory_profile_apply_fp8), each
     * unless the user gave its option alone. */
    hwfit_memory_in *mi = &w->in.memory;
    if (w->framework != NULL && p->precision == HWFIT_PERF_PRECISION_FP8) {
        hwfit_memory_in f8 = *mi;
        uint64_t sets = 0;
        if (hwfit_memory_profile_apply_fp8(w->framework, gpus ? gpus : 1u, &f8, &sets) ==
                HWFIT_OK &&
            (sets & HWFIT_PROFILE_FP8_INPUTS) &&
            !hwfit__req_given(r, HWFIT__FOPT(HWFIT__F_FP8_INPUTS)))
            mi->fp8_inputs_saved = f8.fp8_inputs_saved;
    }
    p->shard = w->in;
    return HWFIT_OK;
}

hwfit_status hwfit__workload_read(hwfit_request *r, hwfit__workload *w) {
    hwfit_status st;
    if (!hwfit__req_given(r, OPT(HWFIT__W_GPU)) && !hwfit__req_given(r, OPT(HWFIT__W_CAPACITY)))
        return hwfit__req_fail(r, OPT(HWFIT__W_GPU), HWFIT_EINVAL,
                               "is required unless capacity is given, e.g. rtx-pro-6000-server "
                               "(see hwfit gpus)");
    if ((st = read_shard_in(r, w)) != HWFIT_OK) return st;
    if ((st = read_space(r, w)) != HWFIT_OK) return st;
    if ((st = read_perf(r, w)) != HWFIT_OK) return st;
    if ((st = hwfit__req_load_model(r, OPT(HWFIT__W_CONFIG), &w->model)) != HWFIT_OK) return st;
    /* The checkpoint's formats unless the user gave them: into the inputs of both the search
     * and the throughput (read_perf copied them). */
    hwfit_memory_in *mem = &w->in.memory;
    if ((st = hwfit__workload_stored(r, OPT(HWFIT__W_WEIGHTS), &w->model, mem,
                                     w->weights_source, sizeof w->weights_source)) != HWFIT_OK)
        return st;
    w->perf.shard.memory = *mem;
    hwfit_dtype base = mem->mode == HWFIT_MEMORY_QLORA ? mem->qlora_base : mem->weights;
    if (hwfit_dtype_format(base, w->weights_name, sizeof w->weights_name) != HWFIT_OK)
        return hwfit__req_fail(r, OPT(HWFIT__W_WEIGHTS), HWFIT_EINVAL, "cannot be named");
    /* A context the model was not configured for is a question about another model: refused
     * unless the user says the context is extended (engines refuse it too: vLLM unless
     * VLLM_ALLOW_LONG_MAX_MODEL_LEN). */
    uint64_t ctx = hwfit__req_u64(r, OPT(HWFIT__W_CONTEXT));
    if (w->model.max_context > 0 && ctx > w->model.max_context &&
        !hwfit__req_flag(r, OPT(HWFIT__W_LONG_CONTEXT)))
        return hwfit__req_fail(r, OPT(HWFIT__W_CONTEXT), HWFIT_EDOM,
                               "%llu tokens is beyond the model's %llu "
                               "(max_position_embeddings); give long-context if its RoPE is "
                               "scaled further",
                               (unsigned long long)ctx, (unsigned long long)w->model.max_context);
    return HWFIT_OK;
}

/* Fields of hwfit_shard_in and hwfit_perf_in whose option is not named like them. */
static const char *const aliases[] = {
    "capacity_bytes", "capacity",           "reserve_bytes", "reserve",
    "host_memory_bytes", "host-memory",     "memory.overhead_bytes", "overhead",
    "memory.qlora_base", "weights",         "memory.unquantized", "weights",
    "layout.virtual_stages", "virtual-stages",
    "layout.zero_stage", "zero",            "layout.recompute", "recompute",
    "decode_compute_efficiency", "decode-efficiency",
    "step_overhead_s", "step-overhead",     "target_tokens_per_s", "target-rate",
    "memory_bandwidth_bytes_per_s", "gpu",  "topology.nics_per_node", "nic",
    "topology.nic_bits_per_s", "nic",       "topology.gpus_per_node", "gpus-per-node",
    "topology.nodes", "gpus",
    NULL};

/* Of options that together make a value, the first the user gave (or the first): a
 * refusal names what was typed, not a default it met. */
static int first_given(hwfit_request *r, const int *opts, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (hwfit__req_given(r, OPT(opts[i]))) return opts[i];
    return opts[0];
}
#define FIRST_GIVEN(r, ...) \
    first_given((r), (const int[]){__VA_ARGS__}, \
                sizeof((const int[]){__VA_ARGS__}) / sizeof(int))

/* A footprint beyond 64 bits grows with the sequences, their length and the micro-batch. */
static hwfit_status too_large(hwfit_request *r, hwfit_status st, const char *rule) {
    int opt = FIRST_GIVEN(r, HWFIT__W_BATCH, HWFIT__W_MICRO_BATCH, HWFIT__W_CONTEXT);
    if (!hwfit__req_given(r, OPT(opt))) return hwfit__req_fail(r, NULL, st, "%s", rule);
    return hwfit__req_fail(r, OPT(opt), st, "%s", rule);
}

/* An invalid layout, naming the option and the numbers: "tp: the 32 attention heads do
 * not divide by 3". */
static hwfit_status bad_layout(hwfit_request *r, const hwfit__workload *w,
                               const hwfit_layout *l, hwfit_shard_reason why) {
    const hwfit_model *m = &w->model;
    const hwfit_status el = HWFIT_ELAYOUT;
    switch (why) {
    case HWFIT_SHARD_GPUS: {
        /* The first degree given is named: the product of the layout misses the count. */
        int named = HWFIT__W_GPUS;
        const int degrees[] = {HWFIT__W_TP, HWFIT__W_PP, HWFIT__W_DP, HWFIT__W_CP};
        for (size_t i = 0; i < sizeof degrees / sizeof degrees[0]; i++)
            if (hwfit__req_given(r, OPT(degrees[i]))) {
                named = degrees[i];
                break;
            }
        return hwfit__req_fail(r, OPT(named), el,
                               "tp %u x pp %u x dp %u x cp %u is not the %u GPUs of gpus",
                               l->tp, l->pp, l->dp, l->cp, w->in.gpus);
    }
    case HWFIT_SHARD_HEADS:
        return hwfit__req_fail(r, OPT(HWFIT__W_TP), el,
                               "the %u attention heads do not divide by %u", m->heads, l->tp);
    case HWFIT_SHARD_KV_HEADS:
        return hwfit__req_fail(r, OPT(HWFIT__W_TP), el,
                               "the %u key/value heads do not divide by %u, nor %u by them",
                               m->kv_heads, l->tp, l->tp);
    case HWFIT_SHARD_MLP_WIDTH:
        return hwfit__req_fail(r, OPT(HWFIT__W_TP), el, "%u: %s", l->tp,
                               hwfit_shard_reason_str(why));
    case HWFIT_SHARD_SEQUENCE_PARALLEL:
        return hwfit__req_fail(r, OPT(HWFIT__W_SP), el, "%s", hwfit_shard_reason_str(why));
    case HWFIT_SHARD_OFFLOAD_INFERENCE:
    case HWFIT_SHARD_OFFLOAD_ZERO:
        return hwfit__req_fail(r, OPT(HWFIT__W_OFFLOAD), el, "%s: %s",
                               hwfit__offload_name(l->offload), hwfit_shard_reason_str(why));
    default: break;
    }
    int opt = -1;
    uint64_t v = 0;
    switch (why) {
    case HWFIT_SHARD_EXPERT_WIDTH: opt = HWFIT__W_ETP; v = l->etp; break;
    case HWFIT_SHARD_EXPERTS:
    case HWFIT_SHARD_EXPERT_RANKS: opt = HWFIT__W_EP; v = l->ep; break;
    case HWFIT_SHARD_STAGES:
        opt = FIRST_GIVEN(r, HWFIT__W_PP, HWFIT__W_VIRTUAL_STAGES);
        return hwfit__req_fail(r, OPT(opt), el,
                               "pp %u x virtual stages %u = %llu pipeline chunks, more than "
                               "the %u layers allow",
                               l->pp, l->virtual_stages,
                               (unsigned long long)l->pp * l->virtual_stages, m->layers);
    case HWFIT_SHARD_UNEVEN: opt = HWFIT__W_PP; v = l->pp; break;
    case HWFIT_SHARD_VIRTUAL_STAGES:
    case HWFIT_SHARD_VIRTUAL_LAYERS:
    case HWFIT_SHARD_VIRTUAL_MICROBATCHES:
        opt = HWFIT__W_VIRTUAL_STAGES;
        v = l->virtual_stages;
        break;
    case HWFIT_SHARD_CONTEXT: opt = HWFIT__W_CONTEXT; v = w->in.memory.context; break;
    case HWFIT_SHARD_BATCH:
        opt = FIRST_GIVEN(r, HWFIT__W_BATCH, HWFIT__W_MICRO_BATCH, HWFIT__W_DP);
        return hwfit__req_fail(r, OPT(opt), el,
                               "the global batch %llu is not divisible by micro-batch %llu x "
                               "dp %u",
                               (unsigned long long)l->global_batch,
                               (unsigned long long)l->micro_batch, l->dp);
    case HWFIT_SHARD_ZERO_INFERENCE: opt = HWFIT__W_ZERO; v = l->zero_stage; break;
    default: break;
    }
    if (opt < 0)
        return hwfit__req_fail(r, NULL, el, "the layout: %s", hwfit_shard_reason_str(why));
    return hwfit__req_fail(r, OPT(opt), el, "%llu: %s", (unsigned long long)v,
                           hwfit_shard_reason_str(why));
}

hwfit_status hwfit__workload_refused(hwfit_request *r, hwfit__workload *w,
                                     hwfit_status st, int timed) {
    hwfit_perf_in x = w->perf;
    hwfit__workload_layout(w, &x.shard.layout);
    hwfit_problem p;
    hwfit_status vst = timed ? hwfit__perf_validate_at(&w->engine, &w->model, &x, &p)
                             : hwfit__shard_validate_at(&w->engine, &w->model, &x.shard, &p);
    if (vst == HWFIT_ELAYOUT && w->layout_given) {
        hwfit_shard_reason why;
        if (hwfit_shard_check(&w->model, &x.shard, &why) == HWFIT_OK && why != HWFIT_SHARD_VALID)
            return bad_layout(r, w, &x.shard.layout, why);
    }
    /* The options' layout may differ from the searched ones that failed: report what the
     * companion says only when it is the same refusal. */
    if (vst != st || vst == HWFIT_ELAYOUT)
        return hwfit__req_fail_status(r, timed ? "plan" : "search", st);
    if (p.field != NULL && strncmp(p.field, "shard.", 6) == 0) p.field += 6;
    if ((p.field == NULL || p.field[0] == '\0') && vst == HWFIT_ERANGE)
        return too_large(r, vst, p.rule ? p.rule : hwfit_status_str(vst));
    return hwfit__req_fail_problem(r, aliases, &p);
}

/* Why the options' layout is invalid, or that no layout of the card count is. A layout
 * whose shape is valid may still be refused by the calculation (a batch whose footprint
 * overflows): its problem names the option then, not the card count. */
static hwfit_status no_layout(hwfit_request *r, hwfit__workload *w, int timed) {
    hwfit_perf_in x = w->perf;
    hwfit__workload_layout(w, &x.shard.layout);
    hwfit_shard_reason why;
    hwfit_status st = hwfit_shard_check(&w->model, &x.shard, &why);
    if (w->layout_given) {
        if (st != HWFIT_OK) return hwfit__workload_refused(r, w, st, 0);
        if (why != HWFIT_SHARD_VALID) return bad_layout(r, w, &x.shard.layout, why);
    } else if (st == HWFIT_OK) {
        /* Searched degrees: the options' own layout explains the refusal when what makes
         * it invalid is not a degree (the batch, the virtual stages). */
        switch (why) {
        case HWFIT_SHARD_STAGES:
        case HWFIT_SHARD_VIRTUAL_STAGES:
        case HWFIT_SHARD_VIRTUAL_LAYERS:
        case HWFIT_SHARD_VIRTUAL_MICROBATCHES:
        case HWFIT_SHARD_OFFLOAD_INFERENCE:
        case HWFIT_SHARD_OFFLOAD_ZERO:
        case HWFIT_SHARD_BATCH: return bad_layout(r, w, &x.shard.layout, why);
        default: break;
        }
    }
    hwfit_problem p;
    hwfit_status vst = timed ? hwfit__perf_validate_at(&w->engine, &w->model, &x, &p)
                             : hwfit__shard_validate_at(&w->engine, &w->model, &x.shard, &p);
    if (vst != HWFIT_OK && vst != HWFIT_ELAYOUT && p.field != NULL) {
        if (strncmp(p.field, "shard.", 6) == 0) p.field += 6;
        if (p.field[0] == '\0' && vst == HWFIT_ERANGE) return too_large(r, vst, p.rule);
        return hwfit__req_fail_problem(r, aliases, &p);
    }
    return hwfit__req_fail(r, OPT(HWFIT__W_GPUS), HWFIT_ELAYOUT,
                           "no valid layout of %u GPUs for this model and workload (try "
                           "another count)", w->in.gpus);
}

/* Full training of quantized weights, or the op-level selective policy where it is not
 * modelled (HWFIT_EUNSUPPORTED of the search: memory.c op_policy_check). */
static hwfit_status unsupported(hwfit_request *r, const hwfit__workload *w) {
    const hwfit_memory_in *m = &w->in.memory;
    if (m->selective == HWFIT_MEMORY_SELECTIVE_OPS &&
        (w->model.experts > 0 || w->model.attention != HWFIT_MODEL_ATTENTION_GQA ||
         (m->flex_attention && !m->compile) || m->mode != HWFIT_MEMORY_FULL))
        return hwfit__req_fail(r, HWFIT__FOPT(HWFIT__F_SELECTIVE), HWFIT_EUNSUPPORTED,
                               "op is modelled in mode full, and for MoE layers, MLA attention "
                               "or --flex-attention without --compile and tensor parallelism "
                               "(give --selective-policy attention or --recompute none or "
                               "full)");
    return hwfit__req_fail(r, OPT(HWFIT__W_WEIGHTS), HWFIT_EUNSUPPORTED,
                           "must be a plain format such as bf16: mode full trains the weights");
}

const char *hwfit__workload_rank_name(const hwfit__workload *w, const hwfit_shard_space *space) {
    hwfit_perf_rank rank = HWFIT_PERF_RANK_DECODE_RATE;
    (void)hwfit_perf_plan_rank(&w->perf, space, &rank); /* the mode is one of the choices */
    return hwfit_perf_rank_name(rank);
}

hwfit_status hwfit__workload_best(hwfit_request *r, hwfit__workload *w, hwfit_layout *best,
                                  hwfit_shard_search_out *summary, const char **ranked_by) {
    hwfit_shard_space space = w->space;
    space.include_unfit = 1;
    hwfit_status st;
    w->timed_valid = 0;
    if (w->card != NULL) {
        hwfit_perf_result res;
        st = hwfit__perf_plan_at(&w->engine, &w->model, &w->perf, &space, &res, 1, summary);
        if (st == HWFIT_OK) {
            if (summary->count == 0) return no_layout(r, w, 1);
            *best = res.shard.layout;
            *ranked_by = hwfit__workload_rank_name(w, &space);
            w->timed = res;
            w->timed_valid = 1;
            return HWFIT_OK;
        }
        if (st != HWFIT_EUNSUPPORTED) return hwfit__workload_refused(r, w, st, 1);
    }
    /* Without a card's throughput: by memory headroom. */
    hwfit_shard_result res;
    st = hwfit_shard_search(&w->model, &w->in, &space, &res, 1, summary);
    if (st == HWFIT_EUNSUPPORTED) return unsupported(r, w);
    if (st != HWFIT_OK) return hwfit__workload_refused(r, w, st, 0);
    if (summary->count == 0) return no_layout(r, w, 0);
    *best = res.layout;
    *ranked_by = "headroom";
    return HWFIT_OK;
}

void hwfit__workload_out_layout(hwfit__out *o, const hwfit_layout *l) {
    hwfit__out_section(o, "layout", "layout");
    hwfit__out_u64(o, "tp", "tensor parallel", l->tp);
    hwfit__out_u64(o, "pp", "pipeline stages", l->pp);
    hwfit__out_u64(o, "dp", "data parallel", l->dp);
    hwfit__out_u64(o, "cp", "context parallel", l->cp);
    hwfit__out_u64(o, "ep", "expert parallel", l->ep);
    hwfit__out_u64(o, "etp", "expert tensor parallel", l->etp);
    hwfit__out_u64(o, "virtual_stages", "virtual stages", l->virtual_stages);
    hwfit__out_bool(o, "sequence_parallel", "sequence parallel", l->sequence_parallel);
    hwfit__out_u64(o, "zero", "ZeRO stage", l->zero_stage);
    hwfit__out_str(o, "offload", "offload", hwfit__offload_name(l->offload));
    hwfit__out_u64(o, "micro_batch", "micro-batch", l->micro_batch);
    hwfit__out_u64(o, "global_batch", "global batch", l->global_batch);
    hwfit__out_str(o, "recompute", "recomputation", hwfit__workload_recomputes[l->recompute]);
    hwfit__out_section_end(o);
}

/* ---- framework options (profile.h) ------------------------------------------------------ */

const char *const hwfit__workload_frameworks[] = {
    "none",   "torchtune", "hf-trainer",    "hf-trainer+peft", "deepspeed", "fsdp",
    "megatron", "unsloth", "litgpt",        "llama-factory",   "axolotl",   "ms-swift",
    "torchtitan", "trl", NULL};
const char *const hwfit__workload_losses[] = {"fp32", "upcast", "chunked", "fused", "fp32-copy",
                                              "inplace", "chunked-inplace", "inplace-cast",
                                              "upcast-freed", "compiled", "fused-chunked",
                                              "trl-chunked", "liger", NULL};
const char *const hwfit__workload_chunk_rounds[] = {"nearest", "up", NULL};
const char *const hwfit__workload_short_losses[] = {"inplace", "inplace-cast", NULL};
const char *const hwfit__workload_selectives[] = {"attention", "op", NULL};
/* Indexed by HWFIT_ATTENTION_* (hwfit_memory_in::flash_attention). */
const char *const hwfit__workload_attentions[] = {"eager", "flash", "sdpa", "math", NULL};
const char *const hwfit__workload_lora_modules[] = {"separate", "checkpoint", "fused", NULL};
/* hwfit_memory_warmup by the transformers release that brought each rule */
const char *const hwfit__workload_warmups[] = {"none", "4.50", "4.51", "4.52", "4.54", NULL};
const char *const hwfit__workload_phases[] = {"forward", "backward", "step", "load",
                                              "evaluation", NULL};
const char *const hwfit__workload_optimizers[] = {"adamw", "adamw-8bit", "sgd", "sgd-plain",
                                                  NULL};

const hwfit_option hwfit__framework_option_table[HWFIT__FRAMEWORK_NOPTS] = {
    [HWFIT__F_FRAMEWORK] = {.name = "framework", .kind = HWFIT_OPTION_CHOICE,
                            .metavar = "NAME", .default_text = "none",
                            .choices = hwfit__workload_frameworks,
                            .help = "training: the framework's memory choices (a profile; "
                                    "options given alone override it)"},
    [HWFIT__F_OPTIMIZER_STATES] = {.name = "optimizer-states", .kind = HWFIT_OPTION_NAME,
                                   .metavar = "DTYPE", .catalog = "dtype",
                                   .default_text = "fp32",
                                   .help = "training: format of the AdamW/SGD moments, fp32 "
                                           "or bf16"},
    [HWFIT__F_PAGED] = {.name = "paged-optimizer", .kind = HWFIT_OPTION_FLAG,
                        .help = "training: moments in paged unified memory (bitsandbytes "
                                "Paged*), not counted on the card"},
    [HWFIT__F_IN_BACKWARD] = {.name = "optimizer-in-backward", .kind = HWFIT_OPTION_FLAG,
                              .help = "training: step each parameter in backward and free its "
                                      "gradient (torchtune optimizer_in_bwd)"},
    [HWFIT__F_FOREACH] = {.name = "foreach-optimizer", .kind = HWFIT_OPTION_FLAG,
                          .help = "training: PyTorch's foreach AdamW, one state-sized "
                                  "temporary in the step (else fused)"},
    [HWFIT__F_GRADIENT_BUFFER] = {.name = "gradient-buffer", .kind = HWFIT_OPTION_FLAG,
                                  .help = "training: the whole gradient lives through the "
                                          "step (Megatron, DeepSpeed buffers, PyTorch DDP's "
                                          "gradient_as_bucket_view; without it plain DDP "
                                          "holds a second copy in its buckets)"},
    [HWFIT__F_LOSS] = {.name = "loss", .kind = HWFIT_OPTION_CHOICE, .metavar = "KIND",
                       .default_text = "fp32", .choices = hwfit__workload_losses,
                       .help = "training: logits and loss: fp32 (Megatron's estimate), upcast "
                               "(whole vocabulary to fp32), chunked, fused, fp32-copy "
                               "(Megatron's code: logits beside their fp32 copy), inplace "
                               "(logits kept, gradient written over them: Unsloth before "
                               "2024.11), chunked-inplace (logits kept, loss and gradient "
                               "--loss-chunk rows at a time, written over them: ms-swift's "
                               "sequence parallelism with CELOSS_PARALLEL_SIZE), "
                               "inplace-cast (inplace after casting the logits to the "
                               "config's format, both copies live: Unsloth before 2024.11 "
                               "computing in float16 on a bf16 checkpoint), upcast-freed "
                               "(upcast with the logits dropped before backward: "
                               "torchtitan's del pred), compiled (the whole vocabulary's "
                               "cross-entropy compiled on its own: the 16-bit logits and "
                               "their gradient, no fp32 copy: torchtitan's compile."
                               "components 'loss'), fused-chunked (Unsloth since 2025.8.5: "
                               "the loss and its gradient in forward, chunks sized by "
                               "--loss-target and the card's free memory), trl-chunked "
                               "(TRL's chunked_nll, its default from 1.7: --loss-chunk rows "
                               "projected at a time under checkpointing, the head's weight "
                               "copied per chunk), liger (Liger-Kernel: fused in training, "
                               "the whole logits and the model's own loss in evaluation)"},
    [HWFIT__F_ACT_OFFLOAD] = {.name = "activation-offload", .kind = HWFIT_OPTION_FLAG,
                              .help = "training: stored activations go to host memory"},
    [HWFIT__F_COMPILE] = {.name = "compile", .kind = HWFIT_OPTION_FLAG,
                          .help = "training: torch.compile fuses the gated MLP's product"},
    [HWFIT__F_FRAGMENTATION] = {.name = "fragmentation", .kind = HWFIT_OPTION_RATIO,
                                .metavar = "F", .default_text = "0", .min = 0, .max = 1,
                                .help = "caching allocator's reserve over the allocated peak"},
    [HWFIT__F_ATTN_WEIGHTS] = {.name = "attention-weights", .kind = HWFIT_OPTION_NAME,
                               .metavar = "DTYPE", .catalog = "dtype",
                               .default_help = "the weight format",
                               .help = "format of the attention projections alone"},
    [HWFIT__F_MLP_WEIGHTS] = {.name = "mlp-weights", .kind = HWFIT_OPTION_NAME,
                              .metavar = "DTYPE", .catalog = "dtype",
                              .default_help = "the weight format",
                              .help = "format of dense MLPs and shared experts alone"},
    [HWFIT__F_EXPERT_WEIGHTS] = {.name = "expert-weights", .kind = HWFIT_OPTION_NAME,
                                 .metavar = "DTYPE", .catalog = "dtype",
                                 .default_help = "the weight format",
                                 .help = "format of the routed experts alone"},
    [HWFIT__F_DORA] = {.name = "dora", .kind = HWFIT_OPTION_FLAG,
                       .help = "LoRA: DoRA's magnitude vectors and kept base outputs"},
    [HWFIT__F_LORA_DROPOUT] = {.name = "lora-dropout", .kind = HWFIT_OPTION_FLAG,
                               .help = "LoRA: dropout on each adapter's input (its output "
                                       "and mask kept)"},
    [HWFIT__F_QKV_ONE_DROPOUT] = {.name = "lora-qkv-one-dropout", .kind = HWFIT_OPTION_FLAG,
                                  .help = "LoRA with --lora-dropout: the q, k and v adapters "
                                          "take one dropout of their common input, kept once "
                                          "(LitGPT's fused LoRAQKVLinear; the litgpt profile "
                                          "sets it); off: one per adapter (PEFT)"},
    [HWFIT__F_EVALUATION] = {.name = "evaluation", .kind = HWFIT_OPTION_FLAG,
                             .help = "training: the run evaluates inside training (HF "
                                     "Trainer eval_strategy steps or epoch): a no-grad "
                                     "forward at --eval-batch sequences competes for the "
                                     "peak beside the weights and optimizer states; off "
                                     "by default: no evaluation"},
    [HWFIT__F_EVAL_BATCH] = {.name = "eval-batch", .kind = HWFIT_OPTION_COUNT, .metavar = "N",
                             .default_text = "8", .min = 1.0, .max = 4294967295.0,
                             .help = "training with --evaluation: sequences per evaluation "
                                     "forward at the training context (the Trainer's "
                                     "per_device_eval_batch_size, default 8)"},
    [HWFIT__F_EVAL_USE_CACHE] = {.name = "eval-use-cache", .kind = HWFIT_OPTION_FLAG,
                                 .help = "training with --evaluation: the evaluation forward "
                                         "builds every layer's K/V cache (transformers with "
                                         "the config's use_cache on; fp32 with "
                                         "--residual-fp32 on a quantized base); off "
                                         "by default: no cache"},
    [HWFIT__F_LORA_MODULES] = {.name = "lora-modules", .kind = HWFIT_OPTION_CHOICE,
                               .metavar = "KIND", .default_text = "separate",
                               .choices = hwfit__workload_lora_modules,
                               .help = "LoRA: the modules the adapters wrap: separate (one "
                                       "adapter per projection: Unsloth, torchtune, LitGPT), "
                                       "checkpoint (the checkpoint's modules, PEFT: Phi-3's "
                                       "qkv_proj and gate_up_proj, GLM-4-0414's gate_up_proj "
                                       "take one adapter each; the PEFT-based profiles set "
                                       "it), fused (q/k/v and gate/up always one module: "
                                       "Megatron-Core's linear_qkv and linear_fc1; the "
                                       "megatron profile sets it); a target naming part of a "
                                       "fused module adapts the whole module"},
    [HWFIT__F_LORA_DTYPE] = {.name = "lora-dtype", .kind = HWFIT_OPTION_NAME,
                             .metavar = "DTYPE", .catalog = "dtype", .default_text = "bf16",
                             .help = "LoRA: format of the adapters (PEFT upcasts them to fp32)"},
    [HWFIT__F_UNQUANTIZED] = {.name = "unquantized", .kind = HWFIT_OPTION_NAME,
                              .metavar = "DTYPE", .catalog = "dtype", .default_text = "bf16",
                              .help = "format of norms, embedding and head when the weights "
                                      "are quantized"},
    [HWFIT__F_PACKED] = {.name = "packed", .kind = HWFIT_OPTION_FLAG,
                         .help = "training: samples packed into full rows (without flash "
                                 "attention their block mask is kept)"},
    [HWFIT__F_QLORA_INPUTS] = {.name = "qlora-inputs-kept", .kind = HWFIT_OPTION_FLAG,
                               .help = "QLoRA: every 4-bit linear keeps its input for backward "
                                       "(bitsandbytes MatMul4Bit)"},
    [HWFIT__F_UNTIED_HEAD] = {.name = "untied-head", .kind = HWFIT_OPTION_FLAG,
                              .help = "the head is a linear of its own in the weights' "
                                      "format, a copy when the model ties it (LitGPT)"},
    [HWFIT__F_SOFTCAP_EAGER] = {.name = "softcap-eager", .kind = HWFIT_OPTION_FLAG,
                                .help = "training: soft-capped attention (Gemma 2) runs eager "
                                        "and keeps its scores (LitGPT)"},
    [HWFIT__F_GATED_ACT] = {.name = "gated-act-kept", .kind = HWFIT_OPTION_FLAG,
                            .help = "training: an eager gated MLP also keeps act(gate) for "
                                    "backward (unfused SwiGLU)"},
    [HWFIT__F_KV_REPEATED] = {.name = "kv-repeated", .kind = HWFIT_OPTION_FLAG,
                              .help = "training: GQA repeats K and V to every query head "
                                      "before attention and keeps the copies (LitGPT)"},
    [HWFIT__F_DEQUANT] = {.name = "dequant-transient", .kind = HWFIT_OPTION_FLAG,
                          .help = "training: a quantized linear dequantizes its whole weight "
                                  "per matmul (bitsandbytes, torchao NF4)"},
    [HWFIT__F_DEQUANT_WORK] = {.name = "dequant-work-bytes", .kind = HWFIT_OPTION_RATIO,
                               .metavar = "B", .default_text = "0", .min = 0, .max = 64,
                               .help = "training, --dequant-transient, not compiled: bytes per "
                                       "element the dequantization holds beside its output "
                                       "(torchao NF4's eager get_original_weight: 12, the "
                                       "torchtune profile's; bitsandbytes: 0)"},
    [HWFIT__F_PREVIOUS_GRAPH] = {.name = "previous-graph", .kind = HWFIT_OPTION_FLAG,
                                 .help = "training: the loop holds the previous micro-batch's "
                                         "logits and graph through the next forward (LitGPT)"},
    [HWFIT__F_LOAD_QUANTIZE] = {.name = "load-quantize-bytes", .kind = HWFIT_OPTION_RATIO,
                                .metavar = "B", .default_text = "0", .min = 0, .max = 1024,
                                .help = "training: bytes per element live while the largest "
                                        "quantized matrix is quantized on the card at load "
                                        "(torchao 0.1 to_nf4: 68; 0: loaded quantized)"},
    [HWFIT__F_ROOT_UNSHARDED] = {.name = "root-unsharded", .kind = HWFIT_OPTION_FLAG,
                                 .help = "training, ZeRO-3: embedding and head stay gathered "
                                         "from forward through backward (FSDP's root unit)"},
    [HWFIT__F_QUANT_SCALES] = {.name = "quant-scales-replicated", .kind = HWFIT_OPTION_FLAG,
                               .help = "training, ZeRO-3: NF4 block scales stay whole on every "
                                       "card, only the 4-bit data is sharded or offloaded "
                                       "(bitsandbytes QuantState)"},
    [HWFIT__F_TRAINED_FP32] = {.name = "trained-fp32", .kind = HWFIT_OPTION_FLAG,
                               .help = "training: trained parameters held in fp32, autocast "
                                       "over them (LLaMA-Factory unless pure_bf16); set "
                                       "--gradients and --optimizer-states to match; under "
                                       "ZeRO 16-bit with fp32 master partitions (DeepSpeed)"},
    [HWFIT__F_LOSS_CHUNK] = {.name = "loss-chunk", .kind = HWFIT_OPTION_TOKENS, .metavar = "N",
                             .default_text = "2048", .min = 1.0, .max = 4294967295.0,
                             .default_help = "2048 (ms-swift's CELOSS_PARALLEL_SIZE); 256 with "
                                             "trl-chunked (TRL's chunk)",
                             .help = "training, --loss chunked-inplace or trl-chunked: rows "
                                     "of logits one cross-entropy chunk works on, K = 1024"},
    [HWFIT__F_OFFLOAD_AFTER_LOAD] = {.name = "offload-after-load", .kind = HWFIT_OPTION_FLAG,
                                     .help = "training, ZeRO-3 with --offload params: the "
                                             "shards load onto the card and move to the host "
                                             "after; the allocator keeps them reserved "
                                             "(Accelerate FSDP2 cpu_ram_efficient_loading)"},
    [HWFIT__F_LORA_FULL_MODULES] = {.name = "lora-full-modules", .kind = HWFIT_OPTION_TEXT,
                                    .metavar = "LIST", .default_help = "none",
                                    .help = "LoRA: modules also trained in full, each a frozen "
                                            "original and a trained copy (PEFT modules_to_save): "
                                            "embed, head, norms or all"},
    [HWFIT__F_USE_CACHE] = {.name = "use-cache", .kind = HWFIT_OPTION_FLAG,
                            .help = "training, full recomputation: the forward also builds "
                                    "every layer's K/V cache, held until it returns "
                                    "(transformers use_cache with checkpointing applied "
                                    "outside the model)"},
    [HWFIT__F_OUTPUTS_KEPT] = {.name = "outputs-kept", .kind = HWFIT_OPTION_FLAG,
                               .help = "training: the loop keeps the model's outputs (logits, "
                                       "the --use-cache K/V) alive through backward, the step "
                                       "and the next forward"},
    [HWFIT__F_PROBS_KEPT] = {.name = "probs-kept", .kind = HWFIT_OPTION_FLAG,
                             .help = "training: the loop derives a logits-sized tensor after "
                                     "the loss (a metric's softmax probabilities) and keeps "
                                     "it through backward, the step and the next forward "
                                     "(fp32 with an upcast loss; not with --outputs-kept)"},
    [HWFIT__F_LOSS_PARALLEL] = {.name = "loss-parallel", .kind = HWFIT_OPTION_FLAG,
                                .help = "training with --tp above 1 and an fp32 whole-"
                                        "vocabulary loss (upcast, upcast-freed): the loss runs "
                                        "as PyTorch's DTensor loss_parallel, 4 bytes a logit "
                                        "more at the forward's end and the loss's backward "
                                        "(the torchtitan profile sets it)"},
    [HWFIT__F_SOFTMAX_FP32] = {.name = "softmax-fp32", .kind = HWFIT_OPTION_FLAG,
                               .help = "training, --no-flash-attention: the eager softmax runs "
                                       "in fp32 and keeps its output beside the 16-bit "
                                       "probabilities (transformers' eager attention)"},
    [HWFIT__F_NORM_UPCAST] = {.name = "norm-upcast-kept", .kind = HWFIT_OPTION_FLAG,
                              .help = "training: an eager RMSNorm keeps its input's fp32 copy "
                                      "(and its normalized output when it trains) for "
                                      "backward (torchtune, transformers; not with compile)"},
    [HWFIT__F_ZERO_BUCKETS] = {.name = "zero-buckets", .kind = HWFIT_OPTION_FLAG,
                               .help = "training under ZeRO: gradients reduced through "
                                       "DeepSpeed's contiguous buffers (--reduce-bucket-size "
                                       "elements, 16-bit; two with --overlap-comm at stages "
                                       "1-2) instead of the DDP --bucket"},
    [HWFIT__F_KEPT_MODULES] = {.name = "kept-modules", .kind = HWFIT_OPTION_TEXT,
                               .metavar = "LIST", .default_help = "the config's, else none",
                               .help = "single layers' modules left unquantized, as a "
                                       "checkpoint's skip list names them (Unsloth Dynamic "
                                       "4-bit llm_int8_skip_modules), e.g. "
                                       "model.layers.1.mlp,model.layers.37.self_attn.o_proj"},
    [HWFIT__F_NO_RESHARD] = {.name = "no-reshard-after-forward", .kind = HWFIT_OPTION_FLAG,
                             .help = "training, ZeRO-3: every unit of a card stays gathered "
                                     "from forward through backward (FSDP2 "
                                     "reshard_after_forward=False; torchtitan with pipelining)"},
    [HWFIT__F_LOGITS_FREED] = {.name = "logits-freed", .kind = HWFIT_OPTION_FLAG,
                               .help = "training with recomputation: the loop drops the "
                                       "logits before backward, so the loss's tensors are "
                                       "gone before the last layer is rebuilt (torchtune "
                                       "`del logits` since 8a98fbaa3; the torchtune profile "
                                       "sets it)"},
    [HWFIT__F_FSDP_FLAT_UPCAST] = {.name = "fsdp-flat-upcast", .kind = HWFIT_OPTION_FLAG,
                                   .help = "training, ZeRO-3 full fine-tune with "
                                           "--trained-fp32: FSDP holds the sharding, the fp32 "
                                           "parameters are its flat shards cast to 16 bits only "
                                           "for a unit's all-gather, fp32 gradient shards, no "
                                           "16-bit partition (FSDP1 _mp_shard, Accelerate "
                                           "0.30+ upcast; FSDP2 all_gather_inputs, an fp32 "
                                           "model as torchtitan's); off: DeepSpeed's 16-bit "
                                           "partition and fp32 master (the fsdp and "
                                           "torchtitan profiles set it)"},
    [HWFIT__F_OFFLOAD_KEEPS_GRADS] = {.name = "offload-keeps-grads", .kind = HWFIT_OPTION_FLAG,
                                      .help = "training with --offload optimizer: the "
                                              "gradients stay on the card and a copy goes to "
                                              "the host for the CPU step (Megatron-Core "
                                              "--optimizer-cpu-offload; the megatron profile "
                                              "sets it); off: DeepSpeed ZeRO-Offload, "
                                              "gradients on the host"},
    [HWFIT__F_EXPERTS_INDEXED] = {.name = "experts-indexed", .kind = HWFIT_OPTION_FLAG,
                                  .help = "training a MoE model: its routed experts are 3-D "
                                          "parameters run one expert at a time by tensor "
                                          "indexing (transformers GptOssExperts in training): "
                                          "a MoE layer keeps a copy of each hit expert's "
                                          "matrices, and with the experts trained each index's "
                                          "backward builds a whole-parameter zero tensor"},
    [HWFIT__F_REDUCE_HELD] = {.name = "reduce-held-bytes", .kind = HWFIT_OPTION_RATIO,
                              .metavar = "B", .default_text = "0", .min = 0, .max = 8,
                              .help = "training, ZeRO-3: bytes per trained element of the "
                                      "reduce-scatter input FSDP2 holds of the previous layer "
                                      "while the next computes its gradients "
                                      "(MixedPrecisionPolicy's reduce_dtype: 4 for fp32, 2 for "
                                      "bf16; 0: FSDP1 or DeepSpeed; the torchtitan profile "
                                      "sets 4, torchtune's 2 on several cards)"},
    [HWFIT__F_LOSS_AFTER_CALL] = {.name = "loss-after-call", .kind = HWFIT_OPTION_FLAG,
                                  .help = "training, --outputs-kept: the loop computes the loss "
                                          "after the model's call returns and rebinds the kept "
                                          "outputs first (torchtune's 2024 recipes), so the "
                                          "previous micro-batch's meet this call's logits, not "
                                          "its loss; off: the call computes the loss "
                                          "(transformers given labels)"},
    [HWFIT__F_OUTPUTS_FP32] = {.name = "outputs-fp32", .kind = HWFIT_OPTION_FLAG,
                               .help = "training, --loss inplace or inplace-cast: the loop "
                                       "converts the returned 16-bit logits to fp32 at the "
                                       "forward's end (Accelerate's convert_outputs_to_fp32 "
                                       "under the Trainer's fp16/bf16), freed before "
                                       "backward (the Trainer-based and unsloth profiles "
                                       "set it)"},
    [HWFIT__F_UNSHARDED_GRADS] = {.name = "unsharded-grad-bytes", .kind = HWFIT_OPTION_RATIO,
                                  .metavar = "B", .default_text = "0", .min = 0, .max = 8,
                                  .help = "training, ZeRO-3: bytes per trained element of the "
                                          "unsharded gradients held across micro-batches "
                                          "(FSDP2 under torch pipelining: reduce_dtype, 4 for "
                                          "fp32; 0: reduced per unit; 1, 2, 4 or 8)"},
    [HWFIT__F_SELECTIVE] = {.name = "selective-policy", .kind = HWFIT_OPTION_CHOICE,
                            .metavar = "KIND", .default_text = "attention",
                            .choices = hwfit__workload_selectives,
                            .help = "training, --recompute selective: what the layers keep: "
                                    "attention (Korthikanti et al.: all but the attention "
                                    "core's s^2 scores), op (torchtitan's op-level policy: "
                                    "the layer's input, the outputs of every second matmul "
                                    "(q, v, gate, down) and of the attention kernel; the "
                                    "rest recomputed; MoE layers: the router's logits, the "
                                    "expert all-to-alls' outputs with --ep above 1 and every "
                                    "second shared-expert matmul; mode full; MoE, MLA and "
                                    "--flex-attention without --compile and tensor "
                                    "parallelism)"},
    [HWFIT__F_FLEX_ATTENTION] = {.name = "flex-attention", .kind = HWFIT_OPTION_FLAG,
                                 .help = "training, --selective-policy op: torchtitan's "
                                         "FlexAttention uncompiled: each block's attention is "
                                         "checkpointed in full and its MLP or MoE alone takes "
                                         "the op policy; the norms keep their inputs"},
    [HWFIT__F_EXPANDABLE_SEGMENTS] = {.name = "expandable-segments", .kind = HWFIT_OPTION_FLAG,
                                      .help = "training: PyTorch's allocator runs with "
                                              "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:"
                                              "True (segments grow in place): the loss "
                                              "strands no freed logits block in the reserve; "
                                              "off (PyTorch's default): a freed 16-bit logits "
                                              "block too small for the loss's next fp32 "
                                              "tensor stays reserved (loss upcast-freed, and "
                                              "inplace-cast with --outputs-fp32), and with "
                                              "--evaluation the blocks the evaluation's K/V "
                                              "entries pin (the allocator replayed)"},
    [HWFIT__F_GRAD_COVERS_FROZEN] = {.name = "grad-covers-frozen", .kind = HWFIT_OPTION_FLAG,
                                     .help = "training, sharded: a unit with a trained "
                                             "element has gradients over all its elements, "
                                             "frozen ones too, sharded and unsharded (FSDP1 "
                                             "use_orig_params=True with frozen and trained "
                                             "parameters in one FlatParameter, e.g. LoRA "
                                             "under Lightning Fabric's FSDPStrategy; not "
                                             "with qlora)"},
    [HWFIT__F_RESIDUAL_FP32] = {.name = "residual-fp32", .kind = HWFIT_OPTION_FLAG,
                                .help = "training with full recomputation on a quantized "
                                        "base: the hidden states between layers are fp32, "
                                        "4-byte checkpoints (PEFT's "
                                        "prepare_model_for_kbit_training leaves fp32 norms "
                                        "and bitsandbytes' linears return their input's "
                                        "dtype; the hf-trainer+peft and axolotl profiles "
                                        "set it)"},
    [HWFIT__F_FP8_INPUTS] = {.name = "fp8-inputs-saved", .kind = HWFIT_OPTION_FLAG,
                             .help = "full training in FP8 through Transformer Engine's "
                                     "linears: each keeps its FP8-cast input (1 byte) for "
                                     "backward, not the 16-bit one (QKV, MLP, attention "
                                     "output and down projection inputs); the megatron "
                                     "profile sets it with --precision fp8 in mode full"},
    [HWFIT__F_GRADS_UPCAST] = {.name = "grads-upcast-in-step", .kind = HWFIT_OPTION_FLAG,
                               .help = "training with 16-bit gradients and master weights: "
                                       "the optimizer step holds fp32 copies of the card's "
                                       "gradient partition (Megatron-Core's "
                                       "_copy_model_grads_to_main_grads; the megatron "
                                       "profile sets it; off with its precision-aware "
                                       "optimizer)"},
    [HWFIT__F_WRAP_RESIDUE] = {.name = "fsdp-wrap-residue", .kind = HWFIT_OPTION_FLAG,
                               .help = "training, ZeRO-3: FSDP1 built its flat parameters on "
                                       "the card (device_id), and the reserve keeps that "
                                       "build's segments (twice the largest unit and its "
                                       "shard) beside the gathered units and an offloaded "
                                       "shard's copy (other streams); the fsdp and "
                                       "hf-trainer profiles set it; off for FSDP2"},
    [HWFIT__F_EP_A2A_RECOMPUTED] = {.name = "ep-a2a-recomputed", .kind = HWFIT_OPTION_FLAG,
                                    .help = "training, --selective-policy op on a MoE model "
                                            "with --ep above 1: the expert all-to-alls' "
                                            "outputs are recomputed with the layer, not "
                                            "saved (torchtitan before c4e229115, whose "
                                            "all-to-all was a Python autograd.Function "
                                            "outside the policy's save list); off: saved"},
    [HWFIT__F_ACTIVATIONS] = {.name = "activations", .kind = HWFIT_OPTION_NAME,
                              .metavar = "DTYPE", .catalog = "dtype", .default_text = "bf16",
                              .help = "training: format of the stored activations: the "
                                      "format the layers compute in (fp32: an fp32 model "
                                      "trained without autocast, e.g. the Trainer with fp16 "
                                      "and bf16 off)"},
    [HWFIT__F_FRAMEWORK_RELEASE] = {.name = "framework-release", .kind = HWFIT_OPTION_TEXT,
                                    .metavar = "VERSION", .default_help = "the latest",
                                    .help = "training, with --framework: the framework's "
                                            "release, YEAR.MONTH[.PATCH] (e.g. unsloth "
                                            "2025.11.6) or MAJOR.MINOR[.PATCH] for trl "
                                            "(e.g. 1.9.2): the profile's choices as that "
                                            "release made them"},
    [HWFIT__F_TRL_RELEASE] = {.name = "trl-release", .kind = HWFIT_OPTION_TEXT,
                              .metavar = "VERSION", .default_help = "the latest",
                              .help = "training, with a --framework that trains through "
                                      "TRL's SFTTrainer (unsloth): TRL's release, "
                                      "MAJOR.MINOR[.PATCH] (e.g. 0.15.2): the profile's "
                                      "choices that depend on it (unsloth 2025.11.5 to "
                                      "2026.6.x with TRL below 0.22: SFTConfig's "
                                      "gradient_checkpointing False turns checkpointing "
                                      "off); for --framework trl give --framework-release"},
    [HWFIT__F_TRANSFORMERS_RELEASE] = {.name = "transformers-release",
                                       .kind = HWFIT_OPTION_TEXT, .metavar = "VERSION",
                                       .default_help = "the latest",
                                       .help = "training, with a --framework that loads "
                                               "through transformers' from_pretrained with a "
                                               "device map (unsloth): transformers' release, "
                                               "MAJOR.MINOR[.PATCH] (e.g. 4.51.3): its "
                                               "caching allocator warm-up at load "
                                               "(--load-warmup) by release"},
    [HWFIT__F_LOAD_WARMUP] = {.name = "load-warmup", .kind = HWFIT_OPTION_CHOICE,
                              .metavar = "RULE", .choices = hwfit__workload_warmups,
                              .default_text = "none",
                              .help = "training: transformers' caching allocator warm-up as "
                                      "from_pretrained with a device map runs it from that "
                                      "release (4.50: unquantized models only, cap 0.95 x "
                                      "free; 4.51: quantized too, half the 16-bit size; "
                                      "4.52: cap free - 1.2 GiB; 4.54: a tied head once): "
                                      "one block of the model's size allocated and freed "
                                      "at load, a floor under the peak when the loading is "
                                      "counted; none: no device map, or before 4.50"},
    [HWFIT__F_LOAD_COUNTED] = {.name = "load-counted", .kind = HWFIT_OPTION_FLAG,
                               .default_help = "on",
                               .help = "training: the figure counts the model's loading "
                                       "(torch's peak statistics over the whole process); "
                                       "--no-load-counted when they are reset after loading "
                                       "(reset_peak_memory_stats before training)"},
    [HWFIT__F_UNSLOTH_FAST_MODEL] = {.name = "unsloth-fast-model", .kind = HWFIT_OPTION_FLAG,
                                     .help = "training, --framework unsloth: the model went "
                                             "through Unsloth's FastModel path (FastModel, or "
                                             "FastLanguageModel for a model type other than "
                                             "llama, mistral, gemma, gemma2, qwen2, qwen3, "
                                             "qwen3_moe): from 2025.12.8, under several "
                                             "processes, its checkpoints stay on the card"},
    [HWFIT__F_FSDP_SINGLE_UNIT] = {.name = "fsdp-single-unit", .kind = HWFIT_OPTION_FLAG,
                                   .help = "training, ZeRO-3: FSDP wraps the whole model as "
                                           "one unit (no auto-wrap policy, e.g. Lightning's "
                                           "FSDPStrategy without one): gathered through "
                                           "backward, the whole gradient twice at its end"},
    [HWFIT__F_BUILT_WHOLE] = {.name = "built-whole", .kind = HWFIT_OPTION_FLAG,
                              .help = "training, ZeRO-3: the whole model was on each card, "
                                      "one allocation per parameter, before it was sharded "
                                      "(FSDP1 wrapping a model built or moved on the card, "
                                      "DeepSpeed ZeRO-3 without zero.Init): its freed "
                                      "segments stay reserved beside the run's peak"},
    [HWFIT__F_ZERO3_VIEWS] = {.name = "zero3-linear-views-kept", .kind = HWFIT_OPTION_FLAG,
                              .help = "training, DeepSpeed ZeRO-3 without its own linear (a "
                                      "model built before zero.Init, DeepSpeed before "
                                      "0.19.4): each matmul's saved view keeps its gathered "
                                      "weight until backward, so layers not recomputed stay "
                                      "gathered from forward to backward"},
    [HWFIT__F_NORM_WEIGHT_FP32] = {.name = "norm-weight-fp32", .kind = HWFIT_OPTION_FLAG,
                                   .help = "training, --norm-upcast-kept, trained norms: the "
                                           "norm multiplies its fp32 normalized tensor by the "
                                           "weight in fp32 (LitGPT), which keeps it in fp32 "
                                           "for backward (the litgpt profile sets it)"},
    [HWFIT__F_LOSS_TARGET] = {.name = "loss-target", .kind = HWFIT_OPTION_TEXT,
                              .metavar = "SIZE", .default_text = "4GiB",
                              .help = "training, --loss fused-chunked: the most one chunk's "
                                      "fp32 logits may take (Unsloth's cap, or its "
                                      "UNSLOTH_CE_LOSS_TARGET_GB), or none (no cap: Unsloth "
                                      "2025.8.5 to 2026.6)"},
    [HWFIT__F_LOSS_FREE_SHARE] = {.name = "loss-free-share", .kind = HWFIT_OPTION_RATIO,
                                  .metavar = "F", .default_text = "0.5", .min = 0, .max = 1,
                                  .help = "training, --loss fused-chunked: the share of the "
                                          "card's free memory at the first loss a chunk may "
                                          "take (Unsloth: half), above 0"},
    [HWFIT__F_LOSS_CHUNKS_ROUND] = {.name = "loss-chunks-round", .kind = HWFIT_OPTION_CHOICE,
                                    .metavar = "HOW", .default_text = "up",
                                    .choices = hwfit__workload_chunk_rounds,
                                    .help = "training, --loss fused-chunked: the chunk count "
                                            "rounded up to a multiple of 4 (Unsloth since "
                                            "2026.7.1) or to the nearest (before: up to twice "
                                            "the target stays one chunk)"},
    [HWFIT__F_LOSS_SHORT_TOKENS] = {.name = "loss-short-tokens", .kind = HWFIT_OPTION_TOKENS,
                                    .metavar = "N", .default_text = "0", .min = 0,
                                    .max = 4294967295.0,
                                    .help = "training: micro-batches of at most N tokens take "
                                            "--loss-short, the whole logits (Unsloth "
                                            "2024.12.5 to 2025.10.10: 1024); unpacked "
                                            "micro-batches vary in length, so one of that "
                                            "many tokens competes for the peak; 0: none"},
    [HWFIT__F_LOSS_SHORT] = {.name = "loss-short", .kind = HWFIT_OPTION_CHOICE,
                             .metavar = "KIND", .default_text = "inplace",
                             .choices = hwfit__workload_short_losses,
                             .help = "training, with --loss-short-tokens: the short "
                                     "micro-batches' loss, inplace or inplace-cast (the "
                                     "logits cast to the checkpoint's format first)"},
    [HWFIT__F_WHOLE_MASKS] = {.name = "whole-masks", .kind = HWFIT_OPTION_COUNT,
                              .metavar = "N", .default_text = "0", .min = 0, .max = 16,
                              .help = "training: attention masks the forward builds once at "
                                      "the model's max_position_embeddings P and keeps for "
                                      "the run, P x P values each in the activations' "
                                      "format (Unsloth 2024.7-2024.8 on Gemma 2 without "
                                      "flash-attn softcapping: 2); 0: none"},
    [HWFIT__F_EVAL_REPLAY] = {.name = "eval-replay", .kind = HWFIT_OPTION_FLAG,
                              .help = "training with --evaluation: the evaluation's reserve "
                                      "replays PyTorch's allocator over transformers' "
                                      "decoder layers (on by default; --no-eval-replay for "
                                      "a framework with layers of its own, as the unsloth "
                                      "profile sets)"},
    [HWFIT__F_RECORD_LENGTHS] = {.name = "record-lengths", .kind = HWFIT_OPTION_TEXT,
                                 .metavar = "LIST", .default_help = "none (fixed-length rows)",
                                 .help = "training on unpacked micro-batches of varying "
                                         "length: the padded lengths (tokens per sequence) "
                                         "of the earlier micro-batches longer than all before "
                                         "them, shortest first, below --context, at most 8, "
                                         "e.g. 700,1500,3100 (--length-mean derives them "
                                         "from the data set's lengths): the caching "
                                         "allocator keeps each one's logits-sized segments "
                                         "reserved"},
    [HWFIT__F_LENGTH_MEAN] = {.name = "length-mean", .kind = HWFIT_OPTION_RATIO,
                              .metavar = "TOKENS", .min = 1e-9, .max = 1e12,
                              .default_help = "none (give --record-lengths, or nothing)",
                              .help = "training on unpacked micro-batches: the data set's "
                                      "mean sample length; with --length-sd and --samples "
                                      "hwfit derives --record-lengths (lognormal lengths "
                                      "cut at --context, each micro-batch padded to its "
                                      "longest)"},
    [HWFIT__F_LENGTH_SD] = {.name = "length-sd", .kind = HWFIT_OPTION_RATIO,
                            .metavar = "TOKENS", .min = 0, .max = 1e12,
                            .default_help = "none",
                            .help = "with --length-mean: the standard deviation of the "
                                    "sample lengths"},
    [HWFIT__F_SAMPLES] = {.name = "samples", .kind = HWFIT_OPTION_COUNT, .metavar = "N",
                          .min = 1, .max = 1e15, .default_help = "none",
                          .help = "with --length-mean: the samples the run draws (steps x "
                                  "micro-batch x gradient accumulation, per data-parallel "
                                  "rank)"},
    [HWFIT__F_CARD_NO_FLASH] = {.name = "card-no-flash", .kind = HWFIT_OPTION_FLAG,
                                .default_help = "read from --gpu (NVIDIA before sm80)",
                                .help = "training: the card has no flash SDPA kernel (T4, "
                                        "V100), so --attention sdpa on a GQA model with "
                                        "micro-batches of one unpacked row runs SDPA's math "
                                        "backend"},
    [HWFIT__F_SDPA_GQA_MATH] = {.name = "sdpa-gqa-math", .kind = HWFIT_OPTION_FLAG,
                                .help = "training, --attention sdpa on a card without flash: "
                                        "SDPA is called as transformers calls it (enable_gqa "
                                        "without a mask), so a GQA model with one-row "
                                        "micro-batches runs the math backend (on by default; "
                                        "the unsloth profile turns it off: its xFormers "
                                        "kernels serve such cards)"},
    [HWFIT__F_HEAD_CAST] = {.name = "head-cast-kept", .kind = HWFIT_OPTION_FLAG,
                            .help = "training: a frozen fp32 head under 16-bit autocast is "
                                    "cast per use and the cast kept to the head's backward "
                                    "(V x h in the activations' format; the Trainer-based "
                                    "profiles set it; acts only on an fp32 head)"},
    [HWFIT__F_ATTENTION] = {.name = "attention", .kind = HWFIT_OPTION_CHOICE, .metavar = "KIND",
                            .default_text = "flash", .choices = hwfit__workload_attentions,
                            .help = "training: how attention runs: eager (s^2 scores stored), "
                                    "flash (a fused kernel for every model), sdpa "
                                    "(transformers' default: fused, but eager for a model "
                                    "with attention sinks such as gpt-oss; the hf-trainer "
                                    "profiles set it), math (SDPA's math backend, fp32 "
                                    "scores stored: a GQA model without a mask on a card "
                                    "before sm80, T4 or V100)"},
    [HWFIT__F_SINK_MASK_BYTES] = {.name = "sink-mask-bytes", .kind = HWFIT_OPTION_COUNT,
                                  .metavar = "B", .default_text = "0", .min = 0, .max = 64,
                                  .help = "training a model with attention sinks (gpt-oss) "
                                          "through flex attention whose block mask is built "
                                          "from the dense s x (s + 1) mask (PyTorch's "
                                          "create_block_mask without _compile): bytes per "
                                          "pair live while it is built, in the forward "
                                          "(Unsloth 2025.8.10 to 2025.9.8: 10, the unsloth "
                                          "profile sets it); 0: none"},
};

const hwfit_option hwfit__framework_extra_table[HWFIT__FRAMEWORK_EXTRA_NOPTS] = {
    [HWFIT__X_NO_MASTER] = {.name = "no-master-weights", .kind = HWFIT_OPTION_FLAG,
                            .help = "training: no fp32 master copy of 16-bit trained weights"},
    [HWFIT__X_NO_DROPOUT] = {.name = "no-dropout", .kind = HWFIT_OPTION_FLAG,
                             .help = "training: no dropout masks are stored"},
    [HWFIT__X_NO_FLASH] = {.name = "no-flash-attention", .kind = HWFIT_OPTION_FLAG,
                           .help = "eager attention: the s^2 attention scores are stored "
                                   "(training: recomputed with the layer under full "
                                   "recomputation)"},
};

/* Options a mode does not use are refused, not ignored (issue 21): training's choices in
 * inference, the adapters' outside LoRA and QLoRA, QLoRA's outside QLoRA. */
static hwfit_status mode_only_options(hwfit_request *r, const hwfit__memory_rows *rows,
                                      hwfit_memory_mode mode) {
    const int training = mode != HWFIT_MEMORY_INFERENCE;
    const int adapters = mode == HWFIT_MEMORY_LORA || mode == HWFIT_MEMORY_QLORA;
    const struct { const hwfit_option *o; int used; const char *rule; } rules[] = {
        {rows->optimizer, training, "training (mode full, lora or qlora)"},
        {rows->gradients, training, "training (mode full, lora or qlora)"},
        {rows->recompute, training, "training (mode full, lora or qlora)"},
        {rows->no_master, training, "training (mode full, lora or qlora)"},
        {rows->no_dropout, training, "training (mode full, lora or qlora)"},
        {rows->micro_batch, training, "training (mode full, lora or qlora); inference "
                                      "sequences are batch"},
        {rows->lora_rank, adapters, "mode lora or qlora"},
        {rows->lora_targets, adapters, "mode lora or qlora"},
        {HWFIT__FOPT(HWFIT__F_OPTIMIZER_STATES), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_PAGED), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_IN_BACKWARD), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_FOREACH), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_GRADIENT_BUFFER), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_LOSS), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_ACT_OFFLOAD), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_COMPILE), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_PACKED), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_SOFTCAP_EAGER), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_GATED_ACT), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_KV_REPEATED), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_DEQUANT), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_PREVIOUS_GRAPH), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_LOAD_QUANTIZE), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_ROOT_UNSHARDED), training && rows->sharded,
         "training sharded over cards (fit, plan, perf: ZeRO-3 or FSDP)"},
        {HWFIT__FOPT(HWFIT__F_WRAP_RESIDUE), training && rows->sharded,
         "training sharded over cards (fit, plan, perf: ZeRO-3 or FSDP)"},
        {HWFIT__FOPT(HWFIT__F_QUANT_SCALES), training && rows->sharded,
         "training sharded over cards (fit, plan, perf: ZeRO-3 or FSDP)"},
        {HWFIT__FOPT(HWFIT__F_TRAINED_FP32), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_LOSS_CHUNK), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_OFFLOAD_AFTER_LOAD), training && rows->sharded,
         "training sharded over cards (fit, plan, perf: ZeRO-3 or FSDP)"},
        {HWFIT__FOPT(HWFIT__F_ZERO_BUCKETS), training && rows->sharded,
         "training sharded over cards (fit, plan, perf: ZeRO)"},
        {HWFIT__FOPT(HWFIT__F_NO_RESHARD), training && rows->sharded,
         "training sharded over cards (fit, plan, perf: ZeRO-3 or FSDP)"},
        {HWFIT__FOPT(HWFIT__F_UNSHARDED_GRADS), training && rows->sharded,
         "training sharded over cards (fit, plan, perf: ZeRO-3 or FSDP)"},
        {HWFIT__FOPT(HWFIT__F_GRAD_COVERS_FROZEN),
         training && rows->sharded && mode != HWFIT_MEMORY_QLORA,
         "training sharded over cards (fit, plan, perf: FSDP), mode full or lora (a QLoRA "
         "base's packed flat parameter is not modelled)"},
        {HWFIT__FOPT(HWFIT__F_FSDP_FLAT_UPCAST), training && rows->sharded,
         "training sharded over cards (fit, plan, perf: ZeRO-3 or FSDP)"},
        {HWFIT__FOPT(HWFIT__F_OFFLOAD_KEEPS_GRADS), training && rows->sharded,
         "training with the optimizer offloaded (fit, plan, perf: --offload optimizer)"},
        {HWFIT__FOPT(HWFIT__F_REDUCE_HELD), training && rows->sharded,
         "training sharded over cards (fit, plan, perf: ZeRO-3 or FSDP)"},
        {HWFIT__FOPT(HWFIT__F_EXPERTS_INDEXED), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_LORA_FULL_MODULES), adapters, "mode lora or qlora"},
        {HWFIT__FOPT(HWFIT__F_USE_CACHE), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_OUTPUTS_KEPT), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_LOSS_AFTER_CALL), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_PROBS_KEPT), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_LOSS_PARALLEL), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_LOGITS_FREED), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_OUTPUTS_FP32), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_FLEX_ATTENTION), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_EP_A2A_RECOMPUTED), training && rows->sharded,
         "training over cards (fit, plan, perf: with --ep above 1)"},
        {HWFIT__FOPT(HWFIT__F_EXPANDABLE_SEGMENTS), training,
         "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_RESIDUAL_FP32), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_FP8_INPUTS), mode == HWFIT_MEMORY_FULL, "mode full"},
        {HWFIT__FOPT(HWFIT__F_GRADS_UPCAST), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_SOFTMAX_FP32), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_NORM_UPCAST), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_SELECTIVE), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_DORA), adapters, "mode lora or qlora"},
        {HWFIT__FOPT(HWFIT__F_LORA_DROPOUT), adapters, "mode lora or qlora"},
        {HWFIT__FOPT(HWFIT__F_QKV_ONE_DROPOUT), adapters, "mode lora or qlora"},
        {HWFIT__FOPT(HWFIT__F_LORA_MODULES), adapters, "mode lora or qlora"},
        {HWFIT__FOPT(HWFIT__F_LORA_DTYPE), adapters, "mode lora or qlora"},
        {HWFIT__FOPT(HWFIT__F_QLORA_INPUTS), mode == HWFIT_MEMORY_QLORA, "mode qlora"},
        {HWFIT__FOPT(HWFIT__F_ACTIVATIONS), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_EVALUATION), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_EVAL_BATCH), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_EVAL_USE_CACHE), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_LOSS_SHORT_TOKENS), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_LOSS_SHORT), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_WHOLE_MASKS), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_EVAL_REPLAY), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_SINK_MASK_BYTES), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_ATTENTION), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_HEAD_CAST), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_CARD_NO_FLASH), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_SDPA_GQA_MATH), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_RECORD_LENGTHS), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_LENGTH_MEAN), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_LENGTH_SD), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_SAMPLES), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_LOAD_WARMUP), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_LOAD_COUNTED), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_UNSLOTH_FAST_MODEL), training && rows->sharded,
         "training over several cards (fit, plan, perf: several processes)"},
        {HWFIT__FOPT(HWFIT__F_FSDP_SINGLE_UNIT), training && rows->sharded,
         "training sharded over cards (fit, plan, perf: ZeRO-3 or FSDP)"},
        {HWFIT__FOPT(HWFIT__F_BUILT_WHOLE), training && rows->sharded,
         "training sharded over cards (fit, plan, perf: ZeRO-3 or FSDP)"},
        {HWFIT__FOPT(HWFIT__F_ZERO3_VIEWS), training && rows->sharded,
         "training sharded over cards (fit, plan, perf: ZeRO-3)"},
        {HWFIT__FOPT(HWFIT__F_NORM_WEIGHT_FP32), training, "training (mode full, lora or qlora)"},
        {HWFIT__FOPT(HWFIT__F_DEQUANT_WORK), training, "training (mode full, lora or qlora)"},
    };
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (rules[i].o != NULL && !rules[i].used && hwfit__req_given(r, rules[i].o))
            return hwfit__req_fail(r, rules[i].o, HWFIT_EINVAL, "applies only to %s",
                                   rules[i].rule);
    return HWFIT_OK;
}

/* The sizing of Unsloth's chunked loss (memory.h, loss_target_bytes): given with another
 * loss, each is refused rather than ignored; not given, the profile's (or the library's)
 * value stays. */
static hwfit_status loss_chunk_options(hwfit_request *r, hwfit_memory_in *m) {
    const hwfit_option *os[] = {HWFIT__FOPT(HWFIT__F_LOSS_TARGET),
                                HWFIT__FOPT(HWFIT__F_LOSS_FREE_SHARE),
                                HWFIT__FOPT(HWFIT__F_LOSS_CHUNKS_ROUND)};
    for (size_t i = 0; i < sizeof os / sizeof os[0]; i++)
        if (hwfit__req_given(r, os[i]) && m->loss != HWFIT_MEMORY_LOSS_FUSED_CHUNKED)
            return hwfit__req_fail(r, os[i], HWFIT_EINVAL, "applies only to --loss fused-chunked");
    if (hwfit__req_given(r, os[0])) {
        const char *text = hwfit__req_text(r, os[0]);
        double v = 0.0;
        if (strcmp(text, "none") == 0) m->loss_target_bytes = HUGE_VAL;
        else if (hwfit_units_parse(text, HWFIT_UNIT_BYTES, &v) != HWFIT_OK ||
                 !hwfit__in_range(v, 1.0, 1152921504606846976.0))
            return hwfit__req_fail(r, os[0], HWFIT_EPARSE,
                                   "'%s' is not a size in [1B, 2^60 B] or none", text);
        else m->loss_target_bytes = v;
    }
    if (hwfit__req_given(r, os[1])) {
        double share = hwfit__req_double(r, os[1]);
        if (!(share > 0.0))
            return hwfit__req_fail(r, os[1], HWFIT_EDOM, "must be above 0");
        m->loss_free_share = share;
    }
    if (hwfit__req_given(r, os[2])) m->loss_chunks_round_up = hwfit__req_choice(r, os[2]);
    const hwfit_option *st = HWFIT__FOPT(HWFIT__F_LOSS_SHORT_TOKENS),
                       *sl = HWFIT__FOPT(HWFIT__F_LOSS_SHORT);
    if (hwfit__req_given(r, st)) m->loss_short_tokens = (uint32_t)hwfit__req_u64(r, st);
    const hwfit_option *wm = HWFIT__FOPT(HWFIT__F_WHOLE_MASKS);
    if (hwfit__req_given(r, wm)) m->whole_masks = (uint32_t)hwfit__req_u64(r, wm);
    const hwfit_option *sm = HWFIT__FOPT(HWFIT__F_SINK_MASK_BYTES);
    if (hwfit__req_given(r, sm)) m->sink_mask_bytes = (uint32_t)hwfit__req_u64(r, sm);
    const hwfit_option *rl = HWFIT__FOPT(HWFIT__F_RECORD_LENGTHS);
    if (hwfit__req_given(r, rl)) {
        const char *list = hwfit__req_text(r, rl);
        hwfit_status rs = hwfit_memory_record_lengths_parse(list, m->record_lengths);
        if (rs == HWFIT_EDOM)
            return hwfit__req_fail(r, rl, rs,
                                   "'%s': at most %d lengths, each from 1 to 4294967295",
                                   list, HWFIT_MEMORY_RECORDS);
        if (rs != HWFIT_OK)
            return hwfit__req_fail(r, rl, rs, "'%s' is not a list of token counts such as "
                                   "700,1500,3100", list);
        if (hwfit__req_given(r, HWFIT__FOPT(HWFIT__F_LENGTH_MEAN)))
            return hwfit__req_fail(r, rl, HWFIT_EINVAL, "and --length-mean both give the "
                                   "records: give one");
        uint32_t top = m->record_lengths[0];
        for (unsigned k = 1; k < HWFIT_MEMORY_RECORDS && m->record_lengths[k]; k++)
            top = m->record_lengths[k];
        if (top >= m->context)
            return hwfit__req_fail(r, rl, HWFIT_EDOM, "%u is not below --context %llu (the "
                                   "longest micro-batch)", top,
                                   (unsigned long long)m->context);
    }
    /* The records from the data set's lengths (hwfit_memory_records_typical): all three of
     * mean, spread and samples, or none. */
    const hwfit_option *lm = HWFIT__FOPT(HWFIT__F_LENGTH_MEAN), *ls = HWFIT__FOPT(HWFIT__F_LENGTH_SD),
                       *ns = HWFIT__FOPT(HWFIT__F_SAMPLES);
    const int gm = hwfit__req_given(r, lm), gs = hwfit__req_given(r, ls),
              gn = hwfit__req_given(r, ns);
    if ((gs || gn) && !gm)
        return hwfit__req_fail(r, gs ? ls : ns, HWFIT_EINVAL, "applies only with --length-mean");
    if (gm && !(gs && gn))
        return hwfit__req_fail(r, lm, HWFIT_EINVAL, "needs --length-sd and --samples");
    if (gm) {
        hwfit_status ts = hwfit_memory_records_typical(
            hwfit__req_double(r, lm), hwfit__req_double(r, ls), m->context,
            hwfit__req_u64(r, ns), m->micro_batch, m->record_lengths);
        if (ts != HWFIT_OK)
            return hwfit__req_fail(r, lm, ts, "gives no records for these lengths");
    }
    if (hwfit__req_given(r, sl)) {
        /* The short micro-batches' loss acts only with a threshold: refused without. */
        if (!m->loss_short_tokens)
            return hwfit__req_fail(r, sl, HWFIT_EINVAL,
                                   "applies only with --loss-short-tokens above 0");
        m->loss_short = hwfit__req_choice(r, sl) ? HWFIT_MEMORY_LOSS_INPLACE_CAST
                                                 : HWFIT_MEMORY_LOSS_INPLACE;
    }
    return HWFIT_OK;
}

hwfit_status hwfit__workload_memory_options(hwfit_request *r, const hwfit__memory_rows *rows,
                                            uint32_t gpus, hwfit_memory_in *m,
                                            int *profile_recompute) {
    hwfit_status st;
    if ((st = mode_only_options(r, rows, m->mode)) != HWFIT_OK) return st;
    int fw = hwfit__req_choice(r, HWFIT__FOPT(HWFIT__F_FRAMEWORK));
    int profile = fw > 0;
    *profile_recompute = 0;
    if (!profile && hwfit__req_given(r, HWFIT__FOPT(HWFIT__F_FRAMEWORK_RELEASE)))
        return hwfit__req_fail(r, HWFIT__FOPT(HWFIT__F_FRAMEWORK_RELEASE), HWFIT_EINVAL,
                               "applies only with --framework");
    if (!profile && hwfit__req_given(r, HWFIT__FOPT(HWFIT__F_TRL_RELEASE)))
        return hwfit__req_fail(r, HWFIT__FOPT(HWFIT__F_TRL_RELEASE), HWFIT_EINVAL,
                               "applies only with --framework");
    if (!profile && hwfit__req_given(r, HWFIT__FOPT(HWFIT__F_TRANSFORMERS_RELEASE)))
        return hwfit__req_fail(r, HWFIT__FOPT(HWFIT__F_TRANSFORMERS_RELEASE), HWFIT_EINVAL,
                               "applies only with --framework");
    /* Unsloth's loader path: read before the profile, whose multi-device row depends on
     * it; a choice of that profile alone. */
    const hwfit_option *fo = HWFIT__FOPT(HWFIT__F_UNSLOTH_FAST_MODEL);
    if (hwfit__req_given(r, fo)) {
        if (strcmp(hwfit__workload_frameworks[fw], "unsloth") != 0)
            return hwfit__req_fail(r, fo, HWFIT_EINVAL, "applies only with --framework unsloth");
        m->unsloth_fast_model = hwfit__req_flag(r, fo);
    }
    uint64_t profile_sets = 0;
    if (profile) {
        hwfit_memory_recompute before = m->recompute;
        uint64_t sets = 0;
        const hwfit_option *ro = HWFIT__FOPT(HWFIT__F_FRAMEWORK_RELEASE);
        const char *release = hwfit__req_given(r, ro) ? hwfit__req_text(r, ro) : NULL;
        const char *name = hwfit__workload_frameworks[fw];
        /* The libraries the framework trains through, whose releases some profiles' choices
         * depend on (hwfit_memory_profile_library_dated): refused where they change
         * nothing. */
        static const struct {
            int opt;
            const char *library, *who;
        } libs[] = {{HWFIT__F_TRL_RELEASE, "trl", "TRL's"},
                    {HWFIT__F_TRANSFORMERS_RELEASE, "transformers", "transformers'"}};
        const char *lib_release[2] = {NULL, NULL};
        for (size_t i = 0; i < 2; i++) {
            const hwfit_option *lo = HWFIT__FOPT(libs[i].opt);
            if (!hwfit__req_given(r, lo)) continue;
            int dated = 0;
            if (hwfit_memory_profile_library_dated(name, libs[i].library, &dated) != HWFIT_OK ||
                !dated) {
                if (i == 0 && strcmp(name, "trl") == 0)
                    return hwfit__req_fail(r, lo, HWFIT_EINVAL,
                                           "is the trl profile's own release: give it as "
                                           "--framework-release");
                return hwfit__req_fail(r, lo, HWFIT_EINVAL,
                                       "changes nothing for --framework %s (no choice of its "
                                       "profile depends on %s release)",
                                       name, libs[i].who);
            }
            lib_release[i] = hwfit__req_text(r, lo);
        }
        hwfit_memory_releases rel = {.framework = release, .trl = lib_release[0],
                                     .transformers = lib_release[1]};
        st = hwfit_memory_profile_apply_releases(name, &rel, gpus ? gpus : 1, m, &sets);
        if (st == HWFIT_EPARSE) {
            /* Which release is malformed: each in turn (m is left as it is on a parse
             * error, and the request fails either way). */
            if (hwfit_memory_profile_apply_release(name, release, 1, m, NULL) == HWFIT_EPARSE)
                return hwfit__req_fail(r, ro, st, "'%s' is not a release %s", release,
                                       strcmp(name, "trl") == 0 ? "MAJOR.MINOR[.PATCH]"
                                                                : "YEAR.MONTH[.PATCH]");
            rel.transformers = NULL;
            size_t bad = rel.trl != NULL && hwfit_memory_profile_apply_releases(
                                                name, &rel, 1, m, NULL) == HWFIT_EPARSE
                             ? 0
                             : 1;
            return hwfit__req_fail(r, HWFIT__FOPT(libs[bad].opt), st,
                                   "'%s' is not a release MAJOR.MINOR[.PATCH]",
                                   lib_release[bad]);
        }
        if (st != HWFIT_OK)
            return hwfit__req_fail(r, HWFIT__FOPT(HWFIT__F_FRAMEWORK), st, "has no profile");
        /* What the user gave alone wins over the profile. */
        if (rows->optimizer && hwfit__req_given(r, rows->optimizer))
            m->optimizer = (hwfit_memory_optimizer)hwfit__req_choice(r, rows->optimizer);
        if (rows->gradients && hwfit__req_given(r, rows->gradients) &&
            (st = hwfit__req_dtype(r, rows->gradients, &m->gradients)) != HWFIT_OK)
            return st;
        if (rows->overhead && hwfit__req_given(r, rows->overhead))
            m->overhead_bytes = hwfit__req_double(r, rows->overhead);
        if (rows->recompute && hwfit__req_given(r, rows->recompute)) m->recompute = before;
        else if (sets & HWFIT_PROFILE_RECOMPUTE) *profile_recompute = 1;
        profile_sets = sets;
    }
    /* A flag given decides its choice either way (`--no-X` / "false" switches off what a
     * profile turns on); a flag not given leaves the profile's choice, or without a
     * profile the library default. */
    if (rows->no_master && hwfit__req_flag(r, rows->no_master)) m->master_weights = 0;
    if (rows->no_dropout && hwfit__req_flag(r, rows->no_dropout)) m->dropout = 0;
    /* --no-flash-attention false: a fused kernel for every model, over a profile's SDPA
     * (e.g. a sink-aware kernel given to transformers as attn_implementation). */
    if (rows->no_flash && hwfit__req_given(r, rows->no_flash))
        m->flash_attention = hwfit__req_flag(r, rows->no_flash) ? HWFIT_ATTENTION_EAGER
                                                                 : HWFIT_ATTENTION_FLASH;
    const hwfit_option *wo = HWFIT__FOPT(HWFIT__F_LOAD_WARMUP);
    if (hwfit__req_given(r, wo)) m->load_warmup = (hwfit_memory_warmup)hwfit__req_choice(r, wo);
    const hwfit_option *ao = HWFIT__FOPT(HWFIT__F_ATTENTION);
    if (hwfit__req_given(r, ao)) {
        if (rows->no_flash && hwfit__req_given(r, rows->no_flash))
            return hwfit__req_fail(r, ao, HWFIT_EINVAL,
                                   "and --no-flash-attention both choose the attention: give "
                                   "one");
        m->flash_attention = hwfit__req_choice(r, ao);
    }
    const struct { int k; int *field; } flags[] = {
        {HWFIT__F_PAGED, &m->paged_optimizer},     {HWFIT__F_IN_BACKWARD, &m->optimizer_in_backward},
        {HWFIT__F_GRADIENT_BUFFER, &m->gradient_buffer}, {HWFIT__F_ACT_OFFLOAD, &m->activation_offload},
        {HWFIT__F_COMPILE, &m->compile},           {HWFIT__F_DORA, &m->dora},
        {HWFIT__F_LORA_DROPOUT, &m->lora_dropout}, {HWFIT__F_PACKED, &m->packed},
        {HWFIT__F_QLORA_INPUTS, &m->qlora_inputs_kept}, {HWFIT__F_UNTIED_HEAD, &m->untied_head},
        {HWFIT__F_SOFTCAP_EAGER, &m->softcap_eager}, {HWFIT__F_GATED_ACT, &m->gated_act_kept},
        {HWFIT__F_KV_REPEATED, &m->kv_repeated}, {HWFIT__F_DEQUANT, &m->dequant_transient},
        {HWFIT__F_PREVIOUS_GRAPH, &m->previous_graph}, {HWFIT__F_ROOT_UNSHARDED, &m->root_unsharded},
        {HWFIT__F_QUANT_SCALES, &m->quant_scales_replicated},
        {HWFIT__F_TRAINED_FP32, &m->trained_fp32},
        {HWFIT__F_OFFLOAD_AFTER_LOAD, &m->offload_after_load},
        {HWFIT__F_USE_CACHE, &m->kv_built}, {HWFIT__F_OUTPUTS_KEPT, &m->outputs_kept},
        {HWFIT__F_SOFTMAX_FP32, &m->softmax_fp32},
        {HWFIT__F_NORM_UPCAST, &m->norm_upcast_kept}, {HWFIT__F_ZERO_BUCKETS, &m->zero_buckets},
        {HWFIT__F_NO_RESHARD, &m->no_reshard_after_forward},
        {HWFIT__F_FSDP_FLAT_UPCAST, &m->fsdp_flat_upcast},
        {HWFIT__F_OFFLOAD_KEEPS_GRADS, &m->offload_keeps_grads},
        {HWFIT__F_EXPERTS_INDEXED, &m->experts_indexed},
        {HWFIT__F_LOSS_AFTER_CALL, &m->loss_after_call},
        {HWFIT__F_PROBS_KEPT, &m->probs_kept},
        {HWFIT__F_LOSS_PARALLEL, &m->loss_parallel},
        {HWFIT__F_LOGITS_FREED, &m->logits_freed},
        {HWFIT__F_OUTPUTS_FP32, &m->outputs_fp32}, {HWFIT__F_HEAD_CAST, &m->head_cast_kept},
        {HWFIT__F_CARD_NO_FLASH, &m->card_no_flash}, {HWFIT__F_SDPA_GQA_MATH, &m->sdpa_gqa_math},
        {HWFIT__F_LOAD_COUNTED, &m->load_counted},
        {HWFIT__F_FSDP_SINGLE_UNIT, &m->fsdp_single_unit},
        {HWFIT__F_BUILT_WHOLE, &m->built_whole},
        {HWFIT__F_NORM_WEIGHT_FP32, &m->norm_weight_fp32},
        {HWFIT__F_ZERO3_VIEWS, &m->zero3_linear_views_kept},
        {HWFIT__F_FLEX_ATTENTION, &m->flex_attention},
        {HWFIT__F_EXPANDABLE_SEGMENTS, &m->expandable_segments},
        {HWFIT__F_GRAD_COVERS_FROZEN, &m->grad_covers_frozen},
        {HWFIT__F_RESIDUAL_FP32, &m->residual_fp32},
        {HWFIT__F_FP8_INPUTS, &m->fp8_inputs_saved},
        {HWFIT__F_GRADS_UPCAST, &m->grads_upcast_in_step},
        {HWFIT__F_WRAP_RESIDUE, &m->fsdp_wrap_residue},
        {HWFIT__F_EP_A2A_RECOMPUTED, &m->ep_a2a_recomputed},
        {HWFIT__F_QKV_ONE_DROPOUT, &m->lora_qkv_one_dropout},
        {HWFIT__F_EVALUATION, &m->evaluation}, {HWFIT__F_EVAL_REPLAY, &m->eval_replay},
        {HWFIT__F_EVAL_USE_CACHE, &m->eval_kv_cache}};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (hwfit__req_given(r, HWFIT__FOPT(flags[i].k)))
            *flags[i].field = hwfit__req_flag(r, HWFIT__FOPT(flags[i].k));
    /* The evaluation's batch and cache describe an evaluation: without --evaluation they
     * would change nothing, so they are refused when given. */
    if (hwfit__req_given(r, HWFIT__FOPT(HWFIT__F_EVAL_BATCH))) {
        if (!m->evaluation)
            return hwfit__req_fail(r, HWFIT__FOPT(HWFIT__F_EVAL_BATCH), HWFIT_EINVAL,
                                   "applies only with --evaluation");
        /* the option's bound keeps it within 2^32 - 1 */
        m->eval_batch = (uint32_t)hwfit__req_u64(r, HWFIT__FOPT(HWFIT__F_EVAL_BATCH));
    }
    if (m->eval_kv_cache && !m->evaluation &&
        hwfit__req_given(r, HWFIT__FOPT(HWFIT__F_EVAL_USE_CACHE)))
        return hwfit__req_fail(r, HWFIT__FOPT(HWFIT__F_EVAL_USE_CACHE), HWFIT_EINVAL,
                               "applies only with --evaluation");
    /* One shared dropout needs a dropout: without --lora-dropout the flag would change
     * nothing, so it is refused when given. */
    if (m->lora_qkv_one_dropout && !m->lora_dropout &&
        hwfit__req_given(r, HWFIT__FOPT(HWFIT__F_QKV_ONE_DROPOUT)))
        return hwfit__req_fail(r, HWFIT__FOPT(HWFIT__F_QKV_ONE_DROPOUT), HWFIT_EINVAL,
                               "applies only with --lora-dropout");
    /* FSDP's fp32 shards are those of an fp32 model trained whole; elsewhere
     * the flag would change nothing, so it is refused when given. */
    if (m->fsdp_flat_upcast && hwfit__req_given(r, HWFIT__FOPT(HWFIT__F_FSDP_FLAT_UPCAST)) &&
        (m->mode != HWFIT_MEMORY_FULL || !m->trained_fp32))
        return hwfit__req_fail(r, HWFIT__FOPT(HWFIT__F_FSDP_FLAT_UPCAST), HWFIT_EINVAL,
                               "applies only to mode full with --trained-fp32 (the fp32 model "
                               "FSDP shards)");
    /* The step's fp32 copies are of 16-bit gradients: with 32-bit ones (given or the
     * profile's) there is nothing to copy, and the flag is refused rather than ignored. */
    if (m->grads_upcast_in_step && hwfit__req_given(r, HWFIT__FOPT(HWFIT__F_GRADS_UPCAST)) &&
        m->gradients.id != HWFIT_DTYPE_BF16 && m->gradients.id != HWFIT_DTYPE_FP16)
        return hwfit__req_fail(r, HWFIT__FOPT(HWFIT__F_GRADS_UPCAST), HWFIT_EINVAL,
                               "applies only with 16-bit gradients (--gradients bf16 or fp16)");
    /* Where the loop computes its loss matters only for the outputs it keeps: without
     * them the flag would change nothing, so it is refused when given. */
    /* A loop keeps either the logits (--outputs-kept) or a tensor derived from them. */
    if (m->probs_kept && m->outputs_kept &&
        hwfit__req_given(r, HWFIT__FOPT(HWFIT__F_PROBS_KEPT)))
        return hwfit__req_fail(r, HWFIT__FOPT(HWFIT__F_PROBS_KEPT), HWFIT_EINVAL,
                               "not with --outputs-kept (the loop keeps the logits "
                               "themselves)");
    if (m->loss_after_call && !m->outputs_kept &&
        hwfit__req_given(r, HWFIT__FOPT(HWFIT__F_LOSS_AFTER_CALL)))
        return hwfit__req_fail(r, HWFIT__FOPT(HWFIT__F_LOSS_AFTER_CALL), HWFIT_EINVAL,
                               "applies only with --outputs-kept (the outputs the loop keeps)");
    /* The selective policy says what selective recomputation keeps: with another
     * recomputation (given, the profile's, or memory's default, which is not searched) it
     * would be ignored. */
    const int rc_fixed = rows->recompute && (hwfit__req_given(r, rows->recompute) ||
                                             *profile_recompute || !rows->sharded);
    const int rc_selective =
        rows->recompute && hwfit__req_given(r, rows->recompute)
            ? strcmp(rows->recompute->choices[hwfit__req_choice(r, rows->recompute)],
                     "selective") == 0
            : m->recompute == HWFIT_MEMORY_RECOMPUTE_SELECTIVE;
    if (rc_fixed && !rc_selective && hwfit__req_given(r, HWFIT__FOPT(HWFIT__F_SELECTIVE)))
        return hwfit__req_fail(r, HWFIT__FOPT(HWFIT__F_SELECTIVE), HWFIT_EINVAL,
                               "applies only with selective recomputation (--recompute selective, or searched by fit and plan)");
    /* The logits freed before the rebuild act only where backward rebuilds layers: with no
     * recomputation (fixed as above) the flag would change nothing, so it is refused. */
    const int rc_none =
        rows->recompute && hwfit__req_given(r, rows->recompute)
            ? strcmp(rows->recompute->choices[hwfit__req_choice(r, rows->recompute)],
                     "none") == 0
            : m->recompute == HWFIT_MEMORY_RECOMPUTE_NONE;
    /* PEFT's fp32 residual stream counts in the checkpoints of full recomputation only. */
    const int rc_full =
        rows->recompute && hwfit__req_given(r, rows->recompute)
            ? strcmp(rows->recompute->choices[hwfit__req_choice(r, rows->recompute)],
                     "full") == 0
            : m->recompute == HWFIT_MEMORY_RECOMPUTE_FULL;
    if (rc_fixed && !rc_full && hwfit__req_given(r, HWFIT__FOPT(HWFIT__F_RESIDUAL_FP32)) &&
        hwfit__req_flag(r, HWFIT__FOPT(HWFIT__F_RESIDUAL_FP32)))
        return hwfit__req_fail(r, HWFIT__FOPT(HWFIT__F_RESIDUAL_FP32), HWFIT_EINVAL,
                               "applies only with full recomputation (--recompute full, or "
                               "searched by fit and plan)");
    if (rc_fixed && rc_none && hwfit__req_given(r, HWFIT__FOPT(HWFIT__F_LOGITS_FREED)) &&
        hwfit__req_flag(r, HWFIT__FOPT(HWFIT__F_LOGITS_FREED)))
        return hwfit__req_fail(r, HWFIT__FOPT(HWFIT__F_LOGITS_FREED), HWFIT_EINVAL,
                               "applies only with recomputation (--recompute selective or full, "
                               "or searched by fit and plan)");
    if (hwfit__req_given(r, HWFIT__FOPT(HWFIT__F_FOREACH)))
        m->fused_optimizer = !hwfit__req_flag(r, HWFIT__FOPT(HWFIT__F_FOREACH));
    /* A format given wins over the profile's; without a profile the option's default. */
    const struct { int k; hwfit_dtype *field; } formats[] = {
        {HWFIT__F_OPTIMIZER_STATES, &m->optimizer_states},
        {HWFIT__F_LORA_DTYPE, &m->lora_dtype},
        {HWFIT__F_UNQUANTIZED, &m->unquantized},
        {HWFIT__F_ACTIVATIONS, &m->activations}};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        const hwfit_option *f = HWFIT__FOPT(formats[i].k);
        if ((!profile || hwfit__req_given(r, f)) &&
            (st = hwfit__req_dtype(r, f, formats[i].field)) != HWFIT_OK)
            return st;
    }
    /* --kept-modules is read with the model (hwfit__workload_stored): its layers' indices
     * are checked against the model's layer count. */
    const hwfit_option *o = HWFIT__FOPT(HWFIT__F_LORA_FULL_MODULES);
    if (hwfit__req_given(r, o)) {
        const char *list = hwfit__req_text(r, o);
        if (hwfit_memory_full_modules_parse(list, &m->full_modules) != HWFIT_OK)
            return hwfit__req_fail(r, o, HWFIT_EPARSE,
                                   "'%s' is not a list of embed, head, norms or all (or "
                                   "embed_tokens, lm_head)", list);
    }
    o = HWFIT__FOPT(HWFIT__F_LOSS);
    if (!profile || hwfit__req_given(r, o)) m->loss = (hwfit_memory_loss)hwfit__req_choice(r, o);
    o = HWFIT__FOPT(HWFIT__F_LOSS_CHUNK);
    if (!profile || hwfit__req_given(r, o)) m->loss_chunk_tokens = (uint32_t)hwfit__req_u64(r, o); /* bounded to 2^32-1 */
    /* TRL's chunk (_CHUNKED_LM_HEAD_CHUNK_SIZE, 256 rows) when the loss is TRL's and
     * neither the user nor the profile gave one (the option's default is ms-swift's). */
    if (!hwfit__req_given(r, o) && m->loss == HWFIT_MEMORY_LOSS_TRL_CHUNKED &&
        !(profile_sets & HWFIT_PROFILE_LOSS_CHUNK))
        m->loss_chunk_tokens = 256;
    /* The chunk acts only on the chunked losses: given with another, it is refused rather
     * than ignored. */
    if (hwfit__req_given(r, o) && m->loss != HWFIT_MEMORY_LOSS_CHUNKED_INPLACE &&
        m->loss != HWFIT_MEMORY_LOSS_TRL_CHUNKED)
        return hwfit__req_fail(r, o, HWFIT_EINVAL,
                               "applies only to --loss chunked-inplace or trl-chunked");
    /* The fp32 copy of the returned logits exists only where the loss leaves them 16-bit
     * (inplace, inplace-cast): given with another loss, it is refused rather than ignored. */
    o = HWFIT__FOPT(HWFIT__F_OUTPUTS_FP32);
    if (m->outputs_fp32 && hwfit__req_given(r, o) && m->loss != HWFIT_MEMORY_LOSS_INPLACE &&
        m->loss != HWFIT_MEMORY_LOSS_INPLACE_CAST)
        return hwfit__req_fail(r, o, HWFIT_EINVAL,
                               "applies only to --loss inplace or inplace-cast (the other losses "
                               "return no 16-bit logits, or count their fp32 copy already)");
    /* The head's copy is counted for the losses that run the head as one matmul (and
     * trl-chunked counts its own): given with the others, it is refused, not ignored. */
    o = HWFIT__FOPT(HWFIT__F_HEAD_CAST);
    if (m->head_cast_kept && hwfit__req_given(r, o) &&
        (m->loss == HWFIT_MEMORY_LOSS_FUSED || m->loss == HWFIT_MEMORY_LOSS_LIGER ||
         m->loss == HWFIT_MEMORY_LOSS_FUSED_CHUNKED || m->loss == HWFIT_MEMORY_LOSS_TRL_CHUNKED))
        return hwfit__req_fail(r, o, HWFIT_EINVAL,
                               "does not apply to --loss fused, liger, fused-chunked or trl-chunked "
                               "(no whole-head matmul, or the loss counts its own copy)");
    /* The card's kernels and SDPA's call shape only --attention sdpa's resolution. */
    static const int sdpa_only[] = {HWFIT__F_CARD_NO_FLASH, HWFIT__F_SDPA_GQA_MATH};
    for (size_t i = 0; i < sizeof sdpa_only / sizeof sdpa_only[0]; i++) {
        o = HWFIT__FOPT(sdpa_only[i]);
        if (hwfit__req_given(r, o) && m->flash_attention != HWFIT_ATTENTION_SDPA)
            return hwfit__req_fail(r, o, HWFIT_EINVAL,
                                   "applies only to --attention sdpa (transformers' dispatch)");
    }
    if ((st = loss_chunk_options(r, m)) != HWFIT_OK) return st;
    o = HWFIT__FOPT(HWFIT__F_FRAGMENTATION);
    if (!profile || hwfit__req_given(r, o)) m->fragmentation = hwfit__req_double(r, o);
    o = HWFIT__FOPT(HWFIT__F_SELECTIVE);
    if (!profile || hwfit__req_given(r, o))
        m->selective = (hwfit_memory_selective)hwfit__req_choice(r, o);
    o = HWFIT__FOPT(HWFIT__F_LORA_MODULES);
    if (!profile || hwfit__req_given(r, o))
        m->lora_modules = (hwfit_memory_lora_modules)hwfit__req_choice(r, o);
    /* FlexAttention's structure and the expert all-to-alls' outputs are read by the op policy
     * alone: either given with another policy, or beside a recomputation other than
     * selective (fixed as above), is refused. */
    static const int op_policy_only[] = {HWFIT__F_FLEX_ATTENTION, HWFIT__F_EP_A2A_RECOMPUTED};
    for (size_t i = 0; i < sizeof op_policy_only / sizeof op_policy_only[0]; i++) {
        o = HWFIT__FOPT(op_policy_only[i]);
        if (hwfit__req_given(r, o) && hwfit__req_flag(r, o) &&
            (m->selective != HWFIT_MEMORY_SELECTIVE_OPS || (rc_fixed && !rc_selective)))
            return hwfit__req_fail(r, o, HWFIT_EINVAL,
                                   "applies only to the op policy (--recompute selective "
                                   "--selective-policy op)");
    }
    o = HWFIT__FOPT(HWFIT__F_LOAD_QUANTIZE);
    if (!profile || hwfit__req_given(r, o)) m->load_quantize_bytes = hwfit__req_double(r, o);
    /* Whole bytes per element (bounded by the table; taken when given, or without a
     * profile, whose choice stands otherwise). */
    const struct { int k; uint16_t *field; } wholes[] = {
        {HWFIT__F_UNSHARDED_GRADS, &m->unsharded_grad_bytes},
        {HWFIT__F_REDUCE_HELD, &m->reduce_held_bytes},
        {HWFIT__F_DEQUANT_WORK, &m->dequant_work_bytes}};
    for (size_t i = 0; i < sizeof wholes / sizeof wholes[0]; i++) {
        o = HWFIT__FOPT(wholes[i].k);
        if (profile && !hwfit__req_given(r, o)) continue;
        double b = hwfit__req_double(r, o);
        if (b != (double)(uint16_t)b)
            return hwfit__req_fail(r, o, HWFIT_EDOM, "must be a whole number of bytes per element");
        *wholes[i].field = (uint16_t)b;
    }
    /* Inputs that refine another one: given without it (as the profile and the flags leave
     * it), or where it is subsumed, they are refused rather than ignored. */
    o = HWFIT__FOPT(HWFIT__F_DEQUANT_WORK);
    if (hwfit__req_given(r, o) && !m->dequant_transient)
        return hwfit__req_fail(r, o, HWFIT_EINVAL,
                               "applies only with --dequant-transient (no weight is dequantized "
                               "per matmul)");
    o = HWFIT__FOPT(HWFIT__F_NORM_WEIGHT_FP32);
    if (hwfit__req_given(r, o) && m->norm_weight_fp32 && !m->norm_upcast_kept)
        return hwfit__req_fail(r, o, HWFIT_EINVAL,
                               "applies only with --norm-upcast-kept (an eager norm that keeps "
                               "its tensors)");
    o = HWFIT__FOPT(HWFIT__F_ZERO3_VIEWS);
    if (hwfit__req_given(r, o) && m->zero3_linear_views_kept &&
        (m->no_reshard_after_forward || m->fsdp_single_unit))
        return hwfit__req_fail(r, o, HWFIT_EINVAL,
                               "does not apply with --no-reshard-after-forward or "
                               "--fsdp-single-unit (every unit is gathered through backward "
                               "already)");
    /* Per-module formats: any one given switches them on; the others keep the weights'. */
    const int mods[3] = {HWFIT__F_ATTN_WEIGHTS, HWFIT__F_MLP_WEIGHTS, HWFIT__F_EXPERT_WEIGHTS};
    hwfit_dtype *dst[3] = {&m->attention_weights, &m->mlp_weights, &m->expert_weights};
    int any = 0;
    for (int k = 0; k < 3; k++) any |= hwfit__req_given(r, HWFIT__FOPT(mods[k]));
    if (any) {
        hwfit_dtype base = m->mode == HWFIT_MEMORY_QLORA ? m->qlora_base : m->weights;
        m->module_formats = 1;
        for (int k = 0; k < 3; k++) {
            *dst[k] = base;
            if (hwfit__req_given(r, HWFIT__FOPT(mods[k])) &&
                (st = hwfit__req_dtype(r, HWFIT__FOPT(mods[k]), dst[k])) != HWFIT_OK)
                return st;
        }
    }
    return HWFIT_OK;
}

const char *hwfit__workload_recompute_source(hwfit_request *r, const hwfit__workload *w) {
    if (hwfit__req_given(r, OPT(HWFIT__W_RECOMPUTE))) return HWFIT__RECOMPUTE_GIVEN;
    return w->profile_recompute ? HWFIT__RECOMPUTE_PROFILE : HWFIT__RECOMPUTE_SEARCHED;
}

/* PEFT's fp32 residual stream (--residual-fp32) comes from a quantized base's preparation:
 * given with plain weights (the checkpoint's or the given formats, known only now) it would
 * change nothing, so it is refused. */
static hwfit_status residual_base(hwfit_request *r, const hwfit_memory_in *m) {
    const hwfit_option *o = HWFIT__FOPT(HWFIT__F_RESIDUAL_FP32);
    if (!hwfit__req_given(r, o) || !hwfit__req_flag(r, o)) return HWFIT_OK;
    const hwfit_dtype ds[4] = {m->mode == HWFIT_MEMORY_QLORA ? m->qlora_base : m->weights,
                               m->attention_weights, m->mlp_weights, m->expert_weights};
    for (int k = 0; k < (m->module_formats ? 4 : 1); k++) {
        hwfit__dtype_block b;
        if (hwfit__dtype_block_of(ds[k], &b) == HWFIT_OK && b.quantized) return HWFIT_OK;
    }
    return hwfit__req_fail(r, o, HWFIT_EINVAL,
                           "applies only to a quantized base (mode qlora, or quantized "
                           "weights): PEFT's k-bit preparation");
}

hwfit_status hwfit__workload_stored(hwfit_request *r, const hwfit_option *weights,
                                    const hwfit_model *model, hwfit_memory_in *m, char *source,
                                    size_t size) {
    /* A sink mask given for a model without attention sinks would be ignored: refused (the
     * unsloth profile's dated row sets it for any model; only sinks make it count). */
    const hwfit_option *so = HWFIT__FOPT(HWFIT__F_SINK_MASK_BYTES);
    if (hwfit__req_given(r, so) && hwfit__req_u64(r, so) > 0 && !model->attention_sinks)
        return hwfit__req_fail(r, so, HWFIT_EINVAL,
                               "applies only to models whose attention has learned sinks "
                               "(gpt-oss); this config has none");
    /* The fp32 softmax is the eager attention's: with a fused kernel there are no scores
     * to keep, and the flag is refused rather than ignored (the model decides under SDPA). */
    if (m->softmax_fp32 && hwfit_memory_attention_flash(model, m) &&
        hwfit__req_given(r, HWFIT__FOPT(HWFIT__F_SOFTMAX_FP32)))
        return hwfit__req_fail(r, HWFIT__FOPT(HWFIT__F_SOFTMAX_FP32), HWFIT_EINVAL,
                               "applies only with eager attention (--no-flash-attention, or "
                               "SDPA on a model with attention sinks)");
    /* SDPA's math backend upcasts on its own: --softmax-fp32 would say nothing more. */
    if (m->softmax_fp32 && hwfit_memory_attention(model, m) == HWFIT_ATTENTION_MATH &&
        hwfit__req_given(r, HWFIT__FOPT(HWFIT__F_SOFTMAX_FP32)))
        return hwfit__req_fail(r, HWFIT__FOPT(HWFIT__F_SOFTMAX_FP32), HWFIT_EINVAL,
                               "not with SDPA's math backend (--attention math, or sdpa on a "
                               "card without flash): its softmax is fp32 already");
    /* A skip list given (--kept-modules): counted against this model's layers, so that a
     * list naming a layer the model does not have is refused rather than counted. */
    const hwfit_option *ko = HWFIT__FOPT(HWFIT__F_KEPT_MODULES);
    const int kept_given = hwfit__req_given(r, ko);
    uint16_t kept[HWFIT_KEPT_MATRICES];
    if (kept_given) {
        const char *list = hwfit__req_text(r, ko);
        hwfit_status st = hwfit_hf_quant_kept_layers(list, model->layers, kept);
        if (st == HWFIT_EDOM)
            return hwfit__req_fail(r, ko, HWFIT_EDOM,
                                   "'%s' names a layer the model does not have (its layers are "
                                   "0 to %u)", list, (unsigned)model->layers - 1);
        if (st == HWFIT_EINVAL)
            return hwfit__req_fail(r, ko, HWFIT_EUNSUPPORTED,
                                   "lists at most 1024 layers; the model has %u",
                                   (unsigned)model->layers);
        if (st != HWFIT_OK)
            return hwfit__req_fail(r, ko, HWFIT_EPARSE,
                                   "'%s' is not a list of single layers' modules (e.g. "
                                   "model.layers.1.mlp; a module of every layer is a format: "
                                   "--attention-weights, --mlp-weights)", list);
        memcpy(m->kept_layers, kept, sizeof kept);
    }
    const int mods[3] = {HWFIT__F_ATTN_WEIGHTS, HWFIT__F_MLP_WEIGHTS, HWFIT__F_EXPERT_WEIGHTS};
    int given = weights != NULL && hwfit__req_given(r, weights);
    for (int k = 0; k < 3; k++) given |= hwfit__req_given(r, HWFIT__FOPT(mods[k]));
    if (given) {
        snprintf(source, size, "given");
        return residual_base(r, m);
    }
    hwfit_dtype unquantized = m->unquantized;
    int applied = 0;
    (void)hwfit_memory_use_stored(model, m, &applied); /* both are set */
    if (hwfit__req_given(r, HWFIT__FOPT(HWFIT__F_UNQUANTIZED))) m->unquantized = unquantized;
    if (kept_given) memcpy(m->kept_layers, kept, sizeof kept); /* a given list wins */
    char text[192];
    if (hwfit_hf_quant_describe(&model->stored, text, sizeof text) != HWFIT_OK) text[0] = '\0';
    if (applied)
        snprintf(source, size, "stored: %s, from quantization_config", text);
    else if (model->stored.flags & HWFIT_STORED_QUANTIZED)
        snprintf(source, size, "default: mode %s does not use the stored %s",
                 m->mode == HWFIT_MEMORY_FULL ? "full" : "qlora",
                 hwfit_hf_quant_method_name(model->stored.method));
    else
        snprintf(source, size, "default");
    return residual_base(r, m);
}

void hwfit__workload_out_stored(hwfit__out *o, const hwfit_model *model, const char *source) {
    const hwfit_model_stored *s = &model->stored;
    char names[4][HWFIT_DTYPE_NAME_SIZE], text[192];
    const hwfit_dtype ds[4] = {s->checkpoint, s->attention, s->mlp, s->experts};
    for (int k = 0; k < 4; k++)
        if (hwfit_dtype_format(ds[k], names[k], sizeof names[k]) != HWFIT_OK) names[k][0] = '\0';
    if (hwfit_hf_quant_describe(s, text, sizeof text) != HWFIT_OK) text[0] = '\0';
    hwfit__out_str(o, "weights_source", "weight formats from", source);
    hwfit__out_section(o, "stored", "stored in the checkpoint");
    hwfit__out_bool(o, "quantized", "quantized", (s->flags & HWFIT_STORED_QUANTIZED) != 0);
    hwfit__out_str(o, "method", "quant_method", hwfit_hf_quant_method_name(s->method));
    hwfit__out_str(o, "checkpoint", "checkpoint dtype", names[0]);
    hwfit__out_str(o, "attention", "attention weights", names[1]);
    hwfit__out_str(o, "mlp", "MLP weights", names[2]);
    hwfit__out_str(o, "experts", "expert weights", names[3]);
    hwfit__out_str(o, "description", "description", text);
    hwfit__out_section_end(o);
}

void hwfit__workload_out_checkpoint(hwfit__out *o, const hwfit_safetensors_info *c, int used) {
    static const hwfit__col cols[] = {{"dtype", "dtype", 8}, {"tensors", "tensors", 8},
                                      {"elements", "elements", 16}, {"bytes", "bytes", 16}};
    hwfit__out_section(o, "checkpoint", "safetensors files beside the config");
    hwfit__out_u64(o, "files", "files", c->files);
    hwfit__out_u64(o, "tensors", "tensors", c->tensors);
    hwfit__out_u64(o, "elements", "elements (as stored)", c->elements);
    hwfit__out_bytes(o, "bytes", "tensor bytes", c->bytes);
    hwfit__out_bytes(o, "extra_bytes", "of which extra prediction layers", c->extra_bytes);
    if (c->index_found)
        hwfit__out_bytes(o, "index_total_size", "index metadata.total_size", c->index_total_size);
    else
        hwfit__out_null(o, "index_total_size", "index metadata.total_size");
    hwfit__out_bool(o, "used_as_weights", "main model's bytes are the weights", used);
    hwfit__out_table(o, "dtypes", "per dtype", cols, 4);
    for (uint32_t i = 0; i < c->dtype_count; i++) {
        hwfit__out_row(o);
        hwfit__out_cell_str(o, c->dtypes[i].name);
        hwfit__out_cell_u64(o, c->dtypes[i].tensors);
        hwfit__out_cell_u64(o, c->dtypes[i].elements);
        hwfit__out_cell_u64(o, c->dtypes[i].bytes);
    }
    hwfit__out_table_end(o);
    hwfit__out_section_end(o);
}

void hwfit__workload_out_assumptions(hwfit__out *o, hwfit_request *r, const char *framework,
                                     const hwfit_model *model, const hwfit_memory_in *m,
                                     const char *recompute_source) {
    char states[HWFIT_DTYPE_NAME_SIZE], grads[HWFIT_DTYPE_NAME_SIZE], lora[HWFIT_DTYPE_NAME_SIZE];
    if (hwfit_dtype_format(m->optimizer_states, states, sizeof states) != HWFIT_OK)
        states[0] = '\0';
    if (hwfit_dtype_format(m->gradients, grads, sizeof grads) != HWFIT_OK) grads[0] = '\0';
    if (hwfit_dtype_format(m->lora_dtype, lora, sizeof lora) != HWFIT_OK) lora[0] = '\0';
    char acts[HWFIT_DTYPE_NAME_SIZE];
    if (hwfit_dtype_format(m->activations, acts, sizeof acts) != HWFIT_OK) acts[0] = '\0';
    hwfit__out_section(o, "assumptions", "assumptions");
    hwfit__out_str(o, "framework", "framework profile", framework);
    {
        /* The release the profile was applied for, and whether that choice mattered: a
         * profile with no dated rows is the same for every release (profile.h). */
        const hwfit_option *ro = HWFIT__FOPT(HWFIT__F_FRAMEWORK_RELEASE);
        int dated = 0;
        if (hwfit_memory_profile_dated(framework, &dated) != HWFIT_OK) dated = 0;
        hwfit__out_str(o, "framework_release", "framework release",
                       hwfit__req_given(r, ro) ? hwfit__req_text(r, ro) : "latest");
        hwfit__out_bool(o, "release_dated", "profile differs by release", dated);
        /* The libraries' releases the profile's choices depend on (the latest when not
         * given). */
        static const struct {
            int opt;
            const char *library, *key, *label;
        } libs[] = {{HWFIT__F_TRL_RELEASE, "trl", "trl_release", "TRL release"},
                    {HWFIT__F_TRANSFORMERS_RELEASE, "transformers", "transformers_release",
                     "transformers release"}};
        for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++) {
            const hwfit_option *lo = HWFIT__FOPT(libs[i].opt);
            if (hwfit_memory_profile_library_dated(framework, libs[i].library, &dated) !=
                HWFIT_OK)
                dated = 0;
            if (dated)
                hwfit__out_str(o, libs[i].key, libs[i].label,
                               hwfit__req_given(r, lo) ? hwfit__req_text(r, lo) : "latest");
        }
    }
    hwfit__out_str(o, "optimizer", "optimizer", hwfit__workload_optimizers[m->optimizer]);
    hwfit__out_str(o, "optimizer_states", "optimizer moments",
                   m->optimizer == HWFIT_MEMORY_ADAMW_8BIT ? "int8" : states);
    hwfit__out_bool(o, "master_weights", "fp32 master weights", m->master_weights);
    hwfit__out_bool(o, "paged_optimizer", "paged optimizer", m->paged_optimizer);
    hwfit__out_bool(o, "optimizer_in_backward", "optimizer in backward",
                    m->optimizer_in_backward);
    hwfit__out_bool(o, "fused_optimizer", "fused optimizer step", m->fused_optimizer);
    hwfit__out_bool(o, "gradient_buffer", "whole gradient through the step", m->gradient_buffer);
    hwfit__out_str(o, "gradients", "gradient format", grads);
    hwfit__out_str(o, "lora_dtype", "LoRA adapter format", lora);
    hwfit__out_str(o, "activations", "stored activation format", acts);
    hwfit__out_str(o, "loss", "loss", hwfit__workload_losses[m->loss]);
    /* Unsloth's chunked loss: the cap on a chunk's fp32 logits (null: none), the share of
     * the free memory and the rounding (memory.h, loss_target_bytes). */
    if (m->loss_target_bytes == HUGE_VAL)
        hwfit__out_null(o, "loss_target_bytes", "fused-chunked: cap on a chunk's fp32 logits");
    else
        hwfit__out_bytes(o, "loss_target_bytes", "fused-chunked: cap on a chunk's fp32 logits",
                         (uint64_t)m->loss_target_bytes);
    hwfit__out_num(o, "loss_free_share", "fused-chunked: share of the free memory",
                   m->loss_free_share);
    hwfit__out_str(o, "loss_chunks_round", "fused-chunked: chunk count rounded",
                   hwfit__workload_chunk_rounds[m->loss_chunks_round_up ? 1 : 0]);
    hwfit__out_u64(o, "loss_short_tokens", "micro-batches up to N tokens keep whole logits",
                   m->loss_short_tokens);
    hwfit__out_u64(o, "whole_masks", "whole attention masks kept (P x P each)",
                   m->whole_masks);
    hwfit__out_u64(o, "sink_mask_bytes", "sink attention's dense mask built: bytes per pair",
                   m->sink_mask_bytes);
    hwfit__out_str(o, "loss_short", "their loss",
                   hwfit__workload_short_losses[m->loss_short == HWFIT_MEMORY_LOSS_INPLACE_CAST]);
    {
        /* Single layers' matrices kept unquantized (kept_layers): "none" or "o 2, gate 3". */
        static const char *const mat[HWFIT_KEPT_MATRICES] = {"q", "k", "v", "o", "gate", "up",
                                                             "down"};
        char kept[128];
        size_t len = 0;
        kept[0] = '\0';
        for (int k = 0; k < HWFIT_KEPT_MATRICES; k++)
            if (m->kept_layers[k] && len < sizeof kept) {
                int n = snprintf(kept + len, sizeof kept - len, "%s%s %u", len ? ", " : "",
                                 mat[k], (unsigned)m->kept_layers[k]);
                if (n > 0) len += (size_t)n;
            }
        hwfit__out_str(o, "kept_layers", "single layers' matrices kept", len ? kept : "none");
    }
    hwfit__out_str(o, "recompute", "recomputation", hwfit__workload_recomputes[m->recompute]);
    hwfit__out_str(o, "recompute_source", "recomputation from", recompute_source);
    hwfit__out_str(o, "selective", "selective recomputation keeps",
                   hwfit__workload_selectives[m->selective]);
    hwfit__out_bool(o, "activation_offload", "activation offload", m->activation_offload);
    hwfit__out_bool(o, "compile", "torch.compile", m->compile);
    hwfit__out_bool(o, "dropout", "dropout masks", m->dropout);
    hwfit__out_bool(o, "dora", "DoRA", m->dora);
    hwfit__out_bool(o, "lora_dropout", "LoRA dropout", m->lora_dropout);
    hwfit__out_bool(o, "lora_qkv_one_dropout", "LoRA: one dropout for q, k and v",
                    m->lora_qkv_one_dropout);
    hwfit__out_str(o, "lora_modules", "LoRA adapters wrap",
                   hwfit__workload_lora_modules[m->lora_modules]);
    hwfit__out_bool(o, "evaluation", "evaluates inside training", m->evaluation);
    hwfit__out_u64(o, "eval_batch", "evaluation: sequences per forward", m->eval_batch);
    hwfit__out_bool(o, "eval_use_cache", "evaluation builds the K/V cache", m->eval_kv_cache);
    hwfit__out_bool(o, "eval_replay", "evaluation: allocator replayed (transformers' layers)",
                    m->eval_replay);
    hwfit__out_bool(o, "packed", "packed rows", m->packed);
    hwfit__out_bool(o, "qlora_inputs_kept", "4-bit linears keep their inputs",
                    m->qlora_inputs_kept);
    hwfit__out_bool(o, "untied_head", "head a linear of its own", m->untied_head);
    hwfit__out_bool(o, "softcap_eager", "soft-capped attention eager", m->softcap_eager);
    hwfit__out_bool(o, "gated_act_kept", "eager gated MLP keeps act(gate)", m->gated_act_kept);
    hwfit__out_bool(o, "kv_repeated", "GQA K and V repeated", m->kv_repeated);
    hwfit__out_bool(o, "dequant_transient", "dequantized weight per matmul",
                    m->dequant_transient);
    hwfit__out_bool(o, "previous_graph", "previous micro-batch's graph held", m->previous_graph);
    hwfit__out_num(o, "load_quantize_bytes", "bytes/element quantizing at load",
                   m->load_quantize_bytes);
    hwfit__out_bool(o, "root_unsharded", "ZeRO-3: tables gathered fwd to bwd", m->root_unsharded);
    hwfit__out_bool(o, "module_formats", "per-module formats", m->module_formats);
    hwfit__out_pct(o, "fragmentation", "allocator reserve", m->fragmentation);
    hwfit__out_bytes(o, "overhead_bytes", "overhead outside the allocator",
                     (uint64_t)m->overhead_bytes);
    hwfit__out_bool(o, "quant_scales_replicated", "ZeRO-3: NF4 scales whole on each card",
                    m->quant_scales_replicated);
    hwfit__out_bool(o, "trained_fp32", "trained parameters held in fp32", m->trained_fp32);
    hwfit__out_u64(o, "loss_chunk_tokens", "rows per loss chunk (chunked-inplace, trl-chunked)",
                   m->loss_chunk_tokens);
    hwfit__out_bool(o, "offload_after_load", "ZeRO-3 offload: shards loaded on the card",
                    m->offload_after_load);
    hwfit__out_u64(o, "lora_full_modules", "modules trained in full (HWFIT_FULL_* bits)",
                   m->full_modules);
    hwfit__out_bool(o, "use_cache", "forward builds the K/V cache", m->kv_built);
    hwfit__out_bool(o, "outputs_kept", "outputs kept through backward", m->outputs_kept);
    hwfit__out_bool(o, "probs_kept", "logits-sized tensor kept after the loss",
                    m->probs_kept);
    hwfit__out_bool(o, "loss_parallel", "loss parallel over vocabulary shards (DTensor)",
                    m->loss_parallel);
    {
        hwfit__out_str(o, "attention", "attention as chosen (sdpa: transformers' default)",
                       (unsigned)m->flash_attention <= HWFIT_ATTENTION_MATH
                           ? hwfit__workload_attentions[m->flash_attention] : "?");
        hwfit__out_bool(o, "flash_attention", "flash attention (s^2 scores not stored)",
                        hwfit_memory_attention_flash(model, m));
        hwfit__out_str(o, "attention_runs", "attention as it runs (the model, the card)",
                       hwfit__workload_attentions[hwfit_memory_attention(model, m)]);
        hwfit__out_bool(o, "card_no_flash", "card without a flash SDPA kernel",
                        m->card_no_flash);
        hwfit__out_bool(o, "sdpa_gqa_math", "SDPA called with enable_gqa (math without flash)",
                        m->sdpa_gqa_math);
    }
    {
        char list[HWFIT_MEMORY_RECORDS * 11 + 1];
        size_t at = 0;
        list[0] = '\0';
        for (unsigned k = 0; k < HWFIT_MEMORY_RECORDS && m->record_lengths[k]; k++) {
            int w = snprintf(list + at, sizeof list - at, k ? ",%u" : "%u",
                             (unsigned)m->record_lengths[k]);
            if (w < 0 || (size_t)w >= sizeof list - at) break;
            at += (size_t)w;
        }
        hwfit__out_str(o, "record_lengths", "earlier record lengths (tokens)",
                       at ? list : "none");
    }
    hwfit__out_bool(o, "softmax_fp32", "eager softmax kept in fp32", m->softmax_fp32);
    hwfit__out_bool(o, "norm_upcast_kept", "eager RMSNorm keeps its fp32 input",
                    m->norm_upcast_kept);
    hwfit__out_bool(o, "zero_buckets", "ZeRO: DeepSpeed's contiguous gradient buffers",
                    m->zero_buckets);
    hwfit__out_bool(o, "no_reshard_after_forward", "ZeRO-3: every unit gathered fwd to bwd",
                    m->no_reshard_after_forward);
    hwfit__out_num(o, "unsharded_grad_bytes", "ZeRO-3: bytes/element of unsharded gradients",
                   m->unsharded_grad_bytes);
    hwfit__out_bool(o, "grad_covers_frozen", "FSDP1: a unit's gradient covers its frozen elements",
                    m->grad_covers_frozen);
    hwfit__out_bool(o, "fsdp_flat_upcast", "ZeRO-3: fp32 flat shards (FSDP), no 16-bit copy",
                    m->fsdp_flat_upcast);
    hwfit__out_bool(o, "offload_keeps_grads", "optimizer offload: gradients kept on the card",
                    m->offload_keeps_grads);
    hwfit__out_bool(o, "experts_indexed", "MoE experts indexed one at a time (copies kept)",
                    m->experts_indexed);
    hwfit__out_num(o, "reduce_held_bytes",
                   "ZeRO-3: bytes/element of the held reduce-scatter input (FSDP2)",
                   m->reduce_held_bytes);
    hwfit__out_bool(o, "loss_after_call", "loss computed after the model's call",
                    m->loss_after_call);
    hwfit__out_bool(o, "logits_freed", "logits freed before the last layer is rebuilt",
                    m->logits_freed);
    hwfit__out_bool(o, "outputs_fp32", "returned 16-bit logits copied to fp32",
                    m->outputs_fp32);
    hwfit__out_bool(o, "head_cast_kept", "frozen fp32 head's autocast copy kept to backward",
                    m->head_cast_kept);
    hwfit__out_str(o, "load_warmup", "transformers' load warm-up as of",
                   hwfit__workload_warmups[m->load_warmup]);
    hwfit__out_bool(o, "load_counted", "the figure counts the loading", m->load_counted);
    hwfit__out_bool(o, "unsloth_fast_model", "Unsloth's FastModel path", m->unsloth_fast_model);
    hwfit__out_bool(o, "fsdp_single_unit", "ZeRO-3: the whole model one FSDP unit",
                    m->fsdp_single_unit);
    hwfit__out_bool(o, "built_whole", "ZeRO-3: the whole model on the card before sharding",
                    m->built_whole);
    hwfit__out_bool(o, "norm_weight_fp32", "eager norm: normalized tensor kept in fp32",
                    m->norm_weight_fp32);
    hwfit__out_num(o, "dequant_work_bytes", "dequantization's work, bytes/element beside it",
                   m->dequant_work_bytes);
    hwfit__out_bool(o, "zero3_linear_views_kept",
                    "ZeRO-3: matmuls' views keep gathered weights to backward",
                    m->zero3_linear_views_kept);
    hwfit__out_bool(o, "flex_attention",
                    "op policy: FlexAttention uncompiled (attention checkpointed in full)",
                    m->flex_attention);
    hwfit__out_bool(o, "expandable_segments",
                    "allocator's segments expandable (no stranded logits blocks)",
                    m->expandable_segments);
    hwfit__out_bool(o, "residual_fp32", "hidden states between layers fp32 (k-bit PEFT)",
                    m->residual_fp32);
    hwfit__out_bool(o, "fp8_inputs_saved", "linears keep FP8 inputs (Transformer Engine)",
                    m->fp8_inputs_saved);
    hwfit__out_bool(o, "grads_upcast_in_step", "step holds fp32 copies of 16-bit gradients",
                    m->grads_upcast_in_step);
    hwfit__out_bool(o, "fsdp_wrap_residue", "ZeRO-3: FSDP1's wrap segments stay reserved",
                    m->fsdp_wrap_residue);
    hwfit__out_bool(o, "ep_a2a_recomputed",
                    "op policy: expert all-to-alls' outputs recomputed, not saved",
                    m->ep_a2a_recomputed);
    hwfit__out_section_end(o);
}

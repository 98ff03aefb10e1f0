/**
 * @file shard.h
 * @brief One workload split across cards: the footprint of each card under a parallel
 * layout, whether it fits, and the inverse questions (fewest cards, longest context,
 * largest batch, KV-cache tokens left, best layouts).
 *
 * A ::hwfit_layout names the parallelism of a job: tensor (tp), pipeline (pp, with
 * virtual stages for the interleaved schedule), data (dp), context (cp) and expert (ep)
 * parallelism, sequence parallelism, the ZeRO stage (FSDP is stage 3), offload to host
 * memory, the micro-batch, the global batch and the recomputation. The cards of a job
 * number tp x pp x dp x cp; expert parallelism regroups the tp x dp x cp ranks of a
 * pipeline stage (Megatron-Core's expert grid; vLLM's expert parallelism over TP x DP).
 *
 * ::hwfit_shard_estimate gives the footprint of every card with the breakdown of
 * ::hwfit_memory_estimate plus communication buffers, and reuses its formulas: each card
 * is the memory footprint of its pipeline stage's layers on a "rank model", the model with
 * the heads, MLP widths, experts and vocabulary one rank holds (key/value heads replicated
 * when tp exceeds their count, as vLLM does; the MLA latent and norms replicated), and
 * with activations divided by tp as Korthikanti et al. 2022 do. ZeRO stages 1, 2 and 3
 * divide optimizer states, gradients and parameters by the data-parallel ranks dp x cp
 * (Rajbhandari et al. 2020, "ZeRO"); those of the routed experts by the
 * expert-data-parallel ranks tp x dp x cp / (etp x ep) that hold the same experts
 * (Megatron-Core's expert grid; DeepSpeed-MoE, Rajbhandari et al. 2022). The first pipeline
 * stage holds pp - i micro-batches
 * in flight under 1F1B (Narayanan et al. 2021). See docs/formulas.md, section "shard".
 *
 * Cards fit when their footprint is at most capacity x utilization - reserve (vLLM's
 * gpu_memory_utilization, default 0.9). Offloaded optimizer states and parameters go to
 * host memory, which is checked when its size is given.
 *
 * The search functions enumerate layouts with ::hwfit_shard_iter (no allocation) and
 * rank the layouts that fit by memory headroom; perf.h ranks them by throughput
 * (::hwfit_perf_plan, with the metric ::hwfit_perf_plan_rank names).
 *
 * Thread safety: every function is reentrant and touches only its arguments.
 *
 * Memory: nothing here allocates. The functions that evaluate footprints work in an engine
 * of about 4.8 KB (the model prepared once, a copy of it for the rank, its layer bitmaps
 * and caches) on their own stack; no call needs more than 16 KiB of stack (tests/stack).
 * The `_ws` variants (::hwfit_shard_estimate_ws, ::hwfit_shard_estimate_batch_ws) take it
 * from the caller instead, ::hwfit_shard_workspace_size bytes (zstd's
 * ZSTD_estimateCCtxSize / ZSTD_initStaticCCtx pattern).
 */
#ifndef HWFIT_SHARD_H
#define HWFIT_SHARD_H

#include "hwfit/memory.h"
#include "hwfit/model.h"
#include "hwfit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup shard Sharding across cards
 *  @brief Per-card footprint under a parallel layout, fit, inverse questions, search.
 *  Thread safety: all functions are reentrant.
 *  @{ */

/** @brief Most cards a job may have (2^20). */
#define HWFIT_SHARD_MAX_GPUS 1048576u
/** @brief hwfit_layout::offload bit: optimizer states (and fp32 gradients) in host memory,
 *  updated by the CPU (DeepSpeed ZeRO-Offload, Ren et al. 2021). */
#define HWFIT_SHARD_OFFLOAD_OPTIMIZER 0x1u
/** @brief hwfit_layout::offload bit: parameters in host memory, fetched per layer
 *  (DeepSpeed ZeRO-3 offload_param; needs ZeRO stage 3). */
#define HWFIT_SHARD_OFFLOAD_PARAMS 0x2u
/** @brief ::hwfit_shard_space value: any value of the dimension is searched. */
#define HWFIT_SHARD_ANY (-1)

/** @brief Why a layout is invalid, or ::HWFIT_SHARD_VALID. Append only. */
typedef enum hwfit_shard_reason {
    HWFIT_SHARD_VALID = 0,          /**< The layout is valid. */
    HWFIT_SHARD_GPUS = 1,           /**< tp x pp x dp x cp differs from the card count. */
    HWFIT_SHARD_HEADS = 2,          /**< Attention heads not divisible by tp. */
    HWFIT_SHARD_KV_HEADS = 3,       /**< Key/value heads not divisible by tp, nor tp by them. */
    HWFIT_SHARD_MLP_WIDTH = 4,      /**< Dense MLP or shared-expert width not divisible by tp. */
    HWFIT_SHARD_EXPERT_WIDTH = 5,   /**< Routed-expert width not divisible by the expert
                                         tensor parallelism. */
    HWFIT_SHARD_EXPERTS = 6,        /**< ep > 1 on a dense model, or experts not divisible
                                         by ep. */
    HWFIT_SHARD_EXPERT_RANKS = 7,   /**< ep x etp does not divide the tp x dp x cp ranks
                                         of a stage. */
    HWFIT_SHARD_STAGES = 8,         /**< More pipeline chunks (pp x virtual stages) than
                                         layers: a chunk would be empty. */
    HWFIT_SHARD_UNEVEN = 9,         /**< Layers not divisible by pp and uneven splits not
                                         allowed. */
    HWFIT_SHARD_VIRTUAL_STAGES = 10, /**< Virtual stages without pipeline parallelism, or
                                          for inference. */
    HWFIT_SHARD_VIRTUAL_LAYERS = 11, /**< Virtual stages with layers not divisible by
                                          pp x virtual stages. */
    HWFIT_SHARD_VIRTUAL_MICROBATCHES = 12, /**< Virtual stages with micro-batches per step
                                                not divisible by pp (Megatron-LM). */
    HWFIT_SHARD_SEQUENCE_PARALLEL = 13, /**< Sequence parallelism without tp > 1 or for
                                             inference. */
    HWFIT_SHARD_CONTEXT = 14,       /**< Context not divisible by cp (x tp with sequence
                                         parallelism). */
    HWFIT_SHARD_BATCH = 15,         /**< Training: global batch not divisible by
                                         micro-batch x dp. */
    HWFIT_SHARD_ZERO_INFERENCE = 16, /**< A ZeRO stage above 0 for inference. */
    HWFIT_SHARD_OFFLOAD_INFERENCE = 17, /**< Offload for inference (not modelled). */
    HWFIT_SHARD_OFFLOAD_ZERO = 18,  /**< Optimizer offload without ZeRO (stage >= 1), or
                                         parameter offload below ZeRO stage 3. */
    HWFIT_SHARD_REASON_COUNT_       /**< Number of reasons; not a reason. */
} hwfit_shard_reason;

/** @brief A parallel layout and its training schedule. Fill with ::hwfit_layout_init. */
typedef struct hwfit_layout {
    uint32_t tp;             /**< Tensor-parallel ranks, >= 1; default 1. */
    uint32_t pp;             /**< Pipeline stages, >= 1; default 1. */
    uint32_t dp;             /**< Data-parallel replicas, >= 1; default 1. */
    uint32_t cp;             /**< Context-parallel ranks splitting the sequence, >= 1;
                                  default 1. */
    uint32_t ep;             /**< Expert-parallel ranks sharing a layer's routed experts,
                                  >= 1; default 1. */
    uint32_t etp;            /**< Tensor-parallel ranks splitting each routed expert; 0
                                  (default) = tp when ep divides dp x cp (Megatron-Core),
                                  else tp x dp x cp / ep (vLLM: experts whole, spread over
                                  all ranks of a stage). */
    uint32_t virtual_stages; /**< Model chunks per card of the interleaved 1F1B schedule
                                  (Narayanan et al. 2021), >= 1; default 1. */
    int sequence_parallel;   /**< 1: sequence parallelism divides the norms' and dropouts'
                                  activations by tp (Korthikanti et al. 2022); default 0. */
    uint32_t zero_stage;     /**< ZeRO stage 0-3 (FSDP full sharding = 3); default 0. It
                                  partitions over the dp x cp ranks, and the routed experts'
                                  states over the expert-data-parallel ranks,
                                  tp x dp x cp / (etp x ep). */
    unsigned offload;        /**< HWFIT_SHARD_OFFLOAD_* bits; default 0. */
    uint64_t micro_batch;    /**< Training: sequences per micro-batch per replica, >= 1;
                                  default 1. Overrides hwfit_memory_in::micro_batch. */
    uint64_t global_batch;   /**< Training: sequences per optimizer step over all replicas,
                                  a multiple of micro_batch x dp; 0 (default) = pp
                                  micro-batches per replica (a full 1F1B pipeline). */
    hwfit_memory_recompute recompute; /**< Training: activation recomputation; default none.
                                  Overrides hwfit_memory_in::recompute. */
    int uneven_layers;       /**< 1 (default): layers that do not divide by pp are split as
                                  vLLM's get_pp_indices does (the remainder on the stages
                                  before the last); 0: they must divide. */
} hwfit_layout;

/** @brief Inputs of the shard functions. Fill with ::hwfit_shard_init, then set the
 *  workload in @c memory, the layout and the card. */
typedef struct hwfit_shard_in {
    hwfit_memory_in memory; /**< The workload (::hwfit_memory_init). Inference: @c batch is
                                 the number of sequences over all dp replicas, each replica
                                 holding ceil(batch / dp). @c context is divided by cp. The
                                 shard functions set, per card, @c tensor_parallel,
                                 @c sequence_parallel, @c micro_batch, @c recompute, the layer
                                 range, @c embedding and @c head; @c mtp must be 0. */
    hwfit_layout layout;    /**< The layout (::hwfit_layout_init). */
    uint32_t gpus;          /**< Cards in the job, 1-::HWFIT_SHARD_MAX_GPUS; default 1. */
    double capacity_bytes;  /**< Memory of one card, bytes, > 0 and <= 2^60; required
                                 (default 0 gives ::HWFIT_EDOM). */
    double utilization;     /**< Fraction of the capacity the job may use, (0, 1]; default
                                 0.9 (vLLM gpu_memory_utilization). */
    double reserve_bytes;   /**< Bytes per card kept free besides, >= 0; default 0. The
                                 runtime overhead is hwfit_memory_in::overhead_bytes. */
    double comm_group_bytes; /**< NCCL buffers per communicator a card belongs to (one per
                                 parallel dimension above 1), bytes, >= 0; default 64 MiB
                                 (NCCL_BUFFSIZE 4 MiB x 2 ring neighbours x 8 channels). */
    double bucket_bytes;    /**< Training with dp x cp > 1 under ZeRO or FSDP (or
                                 DeepSpeed's engine without ZeRO): the gradient bucket in
                                 flight, bytes, >= 0; default 25 MiB (PyTorch DDP
                                 bucket_cap_mb). Plain DDP (ZeRO 0, no
                                 hwfit_memory_in::zero_buckets and no
                                 hwfit_memory_in::gradient_buffer) counts instead the
                                 Reducer's buckets, a copy of the card's whole gradient
                                 (reducer.cpp initialize_buckets; "the saved memory size will
                                 be equal to the total gradients size" of
                                 gradient_as_bucket_view, which gradient_buffer states). */
    uint32_t zero3_live_layers; /**< ZeRO-3: layers (or embedding/head tables) whose whole
                                 parameters are gathered at once, 1-64; default 2 (FSDP's
                                 current and prefetched unit; DeepSpeed's estimator: 1). */
    double host_memory_bytes; /**< Host memory for the job's offload, all nodes together,
                                 bytes, in [0, 2^60]; checked only when host_memory_given
                                 (0 is then a host without room); default 0. */
    double host_utilization;  /**< Fraction of host memory offload may use, (0, 1];
                                 default 0.9. */
    double host_buffer_factor; /**< Factor on offloaded bytes for pinned buffers, [1, 16];
                                 default 1 (DeepSpeed's estimators use 1.5). */
    int host_memory_given;    /**< 1: host_memory_bytes is known and offload is checked
                                 against it; 0 (default): host memory is not checked. */
    /* ---- Appended in 0.x (docs/formulas.md, "shard": gradient reduction buffers). */
    double reduce_bucket_elements; /**< Training under ZeRO with
                                 hwfit_memory_in::zero_buckets: DeepSpeed's
                                 reduce_bucket_size, the elements of one contiguous
                                 gradient buffer, whole number in [1, 2^50]; default 5e8
                                 (DeepSpeed runtime/zero/config.py). Hugging Face's
                                 "auto" is hidden_size^2 (transformers
                                 integrations/deepspeed.py, trainer_config_finalize). */
    int overlap_comm;         /**< Training under ZeRO stage 1-2 with
                                 hwfit_memory_in::zero_buckets: 1 when DeepSpeed's
                                 overlap_comm is on (a second buffer, "double buffers to
                                 avoid data access conflict"); default 0, DeepSpeed's
                                 default at stages 1-2 (config.py overlap_comm_valid:
                                 True at stage 3 only, where one buffer is kept either
                                 way). */
} hwfit_shard_in;

/** @brief The footprint of one card, in bytes (exact integers). */
typedef struct hwfit_shard_card {
    uint32_t stage;            /**< Pipeline stage, 0 to pp - 1. */
    uint32_t first_layer;      /**< First decoder layer of its first chunk. */
    uint32_t layers;           /**< Decoder layers held (all chunks). */
    int embedding;             /**< 1: holds the input embedding (stage 0). */
    int head;                  /**< 1: holds the final norm and the head (last stage). */
    uint64_t in_flight;        /**< Training: micro-batches (chunks x micro-batches with
                                    virtual stages) whose activations are held; 1 for
                                    inference. */
    uint64_t params;           /**< Model parameters of this card's shard (before ZeRO-3). */
    uint64_t trainable_params; /**< Of which (or, for LoRA, adapters) trained: they carry
                                    gradients and optimizer states (before ZeRO). */
    uint64_t shard_weights_bytes; /**< Weights of this card's shard before ZeRO-3 and
                                    parameter offload, bytes. */
    uint64_t weights_bytes;    /**< Weights resident on the card (after ZeRO-3 and
                                    parameter offload), bytes. */
    uint64_t kv_bytes;         /**< KV cache of the replica's sequences, bytes. */
    uint64_t activation_bytes; /**< Activations (training: x in_flight), bytes. */
    uint64_t gradient_bytes;   /**< Gradients resident (after ZeRO-2 and offload), bytes. */
    uint64_t optimizer_bytes;  /**< Optimizer states and master weights resident, bytes. */
    uint64_t buffer_bytes;     /**< Communication buffers and ZeRO-3 gathered layers, bytes. */
    uint64_t overhead_bytes;   /**< Runtime overhead, bytes. */
    uint64_t total_bytes;      /**< Sum of the seven parts above, bytes. */
    uint64_t host_bytes;       /**< Offloaded to host memory by this card (before
                                    host_buffer_factor), bytes. */
    uint64_t kv_bytes_per_token; /**< Inference: KV bytes one token of one sequence adds
                                    on this card; 0 for training. */
    /* ---- Appended in 0.x: the peak by phase (memory.h, docs/formulas.md "phases"). The
     * card fits when peak_bytes does; total_bytes stays the sum of the parts. */
    uint64_t forward_bytes;    /**< Allocated at the end of the forward pass, bytes. */
    uint64_t backward_bytes;   /**< Allocated at the backward pass's peak, bytes. */
    uint64_t step_bytes;       /**< Allocated during the optimizer step, bytes. */
    hwfit_memory_phase peak_phase; /**< The phase with the most allocated. */
    uint64_t allocated_bytes;  /**< The largest phase (torch max_memory_allocated), bytes. */
    uint64_t reserved_bytes;   /**< With the allocator's reserve (max_memory_reserved). */
    uint64_t peak_bytes;       /**< reserved + overhead: what the card needs, bytes. */
    /* ---- Appended in 0.2.0, twelfth round (hwfit_memory_in::evaluation). */
    uint64_t eval_bytes;       /**< Allocated during the evaluation forward (its layers'
                                    K/V cache, one layer's workspace, the logits and loss
                                    on the card with the head); 0 without evaluation. */
    /* ---- Appended in 0.2.0, thirteenth round (hwfit_memory_in::loss_target_bytes). */
    uint64_t loss_chunks;      /**< Loss ::HWFIT_MEMORY_LOSS_FUSED_CHUNKED on the card with
                                    the head: the chunks its micro-batch's rows are split
                                    into, sized on capacity_bytes; 0 otherwise. */
    uint64_t loss_chunk_bytes; /**< One chunk's work at the forward's end, bytes; 0
                                    otherwise. */
    /* ---- Appended in 0.2.0, seventeenth round (hwfit_memory_in::load_warmup). */
    uint64_t load_bytes;       /**< Allocated while the model loads: the card's weights,
                                    a quantization transient, or transformers' warm-up
                                    block where larger, bytes; 0 for inference or when the
                                    load is not counted (hwfit_memory_in::load_counted). */
} hwfit_shard_card;

/** @brief Result of ::hwfit_shard_estimate. */
typedef struct hwfit_shard_out {
    hwfit_layout layout;       /**< The layout with etp and global_batch resolved. */
    uint64_t micro_batches;    /**< Training: micro-batches per replica per step; 1 for
                                    inference. */
    uint64_t batch_per_replica; /**< Inference: sequences per replica, ceil(batch / dp);
                                    training: micro_batch. */
    uint32_t stages;           /**< Pipeline stages (pp). */
    uint32_t worst_stage;      /**< Stage of the largest card (the first when tied). */
    hwfit_shard_card worst;    /**< The largest card. */
    uint64_t capacity_bytes;   /**< Memory of one card, bytes (rounded down). */
    uint64_t usable_bytes;     /**< floor(capacity x utilization - reserve), bytes. */
    double headroom_bytes;     /**< usable_bytes - worst.total_bytes (negative when it
                                    does not fit), bytes. */
    int gpu_fits;              /**< 1 when every card's total is at most usable_bytes. */
    uint64_t host_bytes;       /**< Host memory the job's offload needs, all cards, with
                                    host_buffer_factor, bytes. */
    uint64_t host_usable_bytes; /**< floor(host_memory_bytes x host_utilization), bytes. */
    int host_checked;          /**< 1 when hwfit_shard_in::host_memory_given. */
    int host_fits;             /**< 1 when host_bytes <= host_usable_bytes, or nothing is
                                    offloaded, or host memory is not checked. */
    int fits;                  /**< gpu_fits and host_fits. */
    uint64_t kv_tokens;        /**< Inference: KV-cache tokens (over all sequences of a
                                    replica) that fit in what the cards have left after
                                    everything but the KV cache, min over stages (what vLLM
                                    allocates); 0 for training or when nothing is left. */
    uint64_t total_bytes;      /**< Sum over all cards of the job, bytes. */
} hwfit_shard_out;

/** @brief The layouts a search considers. A field set to ::HWFIT_SHARD_ANY (or 0 for the
 *  degrees) is searched; any other value is fixed. Fill with ::hwfit_shard_space_init. */
typedef struct hwfit_shard_space {
    uint32_t tp;             /**< 0 (default): every divisor of the card count. */
    uint32_t pp;             /**< 0 (default): every divisor. */
    uint32_t dp;             /**< 0 (default): what the card count leaves. */
    uint32_t cp;             /**< 0: every divisor; default 1. */
    uint32_t ep;             /**< 0 (default): every divisor of the expert count (1 for
                                  dense models). */
    uint32_t etp;            /**< Fixed expert tensor parallelism, or 0 (default) = auto
                                  (see hwfit_layout::etp); not searched. */
    uint32_t virtual_stages; /**< 0: 1 to max_virtual_stages (pp > 1, training); default 0
                                (searched: interleaved 1F1B, Narayanan et al. 2021). */
    uint32_t max_virtual_stages; /**< Largest searched, >= 1; default 8 (the most
                                    Megatron-Bridge's recipes use). */
    int sequence_parallel;   /**< ::HWFIT_SHARD_ANY (default), 0 or 1. */
    int zero_stage;          /**< ::HWFIT_SHARD_ANY (default), or 0-3. */
    int offload;             /**< ::HWFIT_SHARD_ANY, or fixed HWFIT_SHARD_OFFLOAD_* bits;
                                  default 0 (no offload). */
    int recompute;           /**< ::HWFIT_SHARD_ANY (default), or a ::hwfit_memory_recompute. */
    uint64_t micro_batch;    /**< 0 (default): 1 to max_micro_batch. */
    uint64_t max_micro_batch; /**< Largest searched, >= 1; default 8. */
    uint64_t global_batch;   /**< Training: global batch of every layout (see
                                  hwfit_layout::global_batch); default 0 (each layout's
                                  own: ::hwfit_perf_plan then compares throughput, not step
                                  times). */
    int uneven_layers;       /**< Copied to every layout; default 1. */
    int include_unfit;       /**< 1: rank the valid layouts that do not fit too, after those
                                  that fit, by how far they miss (::hwfit_shard_result score);
                                  default 0. */
} hwfit_shard_space;

/** @brief State of a layout enumeration. Fill with ::hwfit_shard_iter_init; the fields
 *  are private. The model and inputs given to the init must outlive the iterator. */
typedef struct hwfit_shard_iter {
    const hwfit_model *model;     /**< Private. */
    const hwfit_shard_in *in;     /**< Private. */
    hwfit_shard_space space;      /**< Private. */
    uint64_t value[10];           /**< Private: current value of each dimension. */
    uint32_t kinds[2];            /**< Private: dense and MoE layers of the model. */
    int state;                    /**< Private: 0 before the first layout, 1 running, 2 done. */
    uint64_t visited;             /**< Combinations looked at so far (valid or not). */
} hwfit_shard_iter;

/** @brief One ranked layout of a search. */
typedef struct hwfit_shard_result {
    hwfit_layout layout;     /**< The layout, etp and global_batch resolved. */
    uint32_t worst_stage;    /**< Stage of the largest card. */
    uint64_t per_gpu_bytes;  /**< Peak of the largest card (its peak_bytes), bytes. */
    double headroom_bytes;   /**< Usable bytes minus per_gpu_bytes, bytes. */
    uint64_t host_bytes;     /**< Host memory for offload, bytes. */
    uint64_t kv_tokens;      /**< Inference: KV tokens left (see hwfit_shard_out). */
    int fits;                /**< 1 when the layout fits (cards and host). */
    double score;            /**< Ranking key, larger is better: headroom_bytes for layouts
                                  that fit; minus the sum of the card and host shortfalls,
                                  bytes, for those that do not (include_unfit). */
} hwfit_shard_result;

/** @brief Counts of a search (::hwfit_shard_search). */
typedef struct hwfit_shard_search_out {
    uint64_t visited;        /**< Combinations enumerated, valid or not. */
    uint64_t valid;          /**< Valid layouts evaluated. */
    uint64_t fitting;        /**< Valid layouts that fit. */
    size_t count;            /**< Results written, min(fitting, capacity). */
} hwfit_shard_search_out;

/**
 * @brief Default layout: every degree 1, no virtual stages, no sequence parallelism,
 * ZeRO 0, no offload, micro-batch 1, global batch 0 (a full pipeline), no recomputation,
 * uneven splits allowed.
 * @param[out] layout The layout; NULL is ignored.
 */
HWFIT_API void hwfit_layout_init(hwfit_layout *layout);

/**
 * @brief Default inputs: ::hwfit_memory_init, ::hwfit_layout_init, 1 card, capacity 0
 * (must be set), utilization 0.9, no reserve, 64 MiB per communicator, 25 MiB bucket,
 * 2 live ZeRO-3 layers, host memory unchecked (utilization 0.9, buffer factor 1).
 * @param[out] in The inputs; NULL is ignored.
 */
HWFIT_API void hwfit_shard_init(hwfit_shard_in *in);

/**
 * @brief Default search space: tp, pp, dp and ep searched, cp 1, no virtual stages
 * (up to 4 when searched), sequence parallelism, ZeRO stage and recomputation searched,
 * no offload, micro-batches 1-8, global batch 0, uneven splits allowed.
 * @param[out] space The space; NULL is ignored.
 */
HWFIT_API void hwfit_shard_space_init(hwfit_shard_space *space);

/**
 * @brief Whether a layout is valid for a model, a workload and a card count.
 * @param[in]  model  The model; NULL gives ::HWFIT_EINVAL.
 * @param[in]  in     Workload, layout and card count; NULL gives ::HWFIT_EINVAL.
 * @param[out] reason ::HWFIT_SHARD_VALID or why not; NULL gives ::HWFIT_EINVAL. Written
 *                    only on success.
 * @retval HWFIT_OK     checked (the layout may still be invalid: see @p reason).
 * @retval HWFIT_EINVAL a pointer is NULL, or the mode or recomputation is out of range.
 * @retval HWFIT_EDOM   the model is invalid, a degree, the card count, the micro-batch or
 *                      the context is 0, the card count is above ::HWFIT_SHARD_MAX_GPUS,
 *                      the ZeRO stage is above 3 or the offload has unknown bits.
 * @retval HWFIT_ERANGE the model's counts overflow 64 bits.
 */
HWFIT_API hwfit_status hwfit_shard_check(const hwfit_model *model, const hwfit_shard_in *in,
                                         hwfit_shard_reason *reason);

/**
 * @brief Short name of a reason, e.g. "heads" or "kv_heads".
 * @param[in] reason Any value; unknown values give "unknown".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_shard_reason_name(hwfit_shard_reason reason);

/**
 * @brief One-line explanation of a reason, e.g. "attention heads are not divisible by tp".
 * @param[in] reason Any value; unknown values give "unknown reason".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_shard_reason_str(hwfit_shard_reason reason);

/**
 * @brief Parse an offload list: "none", "optimizer", "params", "optimizer,params" or "all".
 * @param[in]  text    NUL-terminated; NULL gives ::HWFIT_EINVAL.
 * @param[out] offload HWFIT_SHARD_OFFLOAD_* bits; NULL gives ::HWFIT_EINVAL. Written only
 *                     on success.
 * @retval HWFIT_OK        parsed.
 * @retval HWFIT_EINVAL    a pointer is NULL.
 * @retval HWFIT_EPARSE    the text or an item is empty.
 * @retval HWFIT_ENOTFOUND an item is not an offload name.
 */
HWFIT_API hwfit_status hwfit_shard_offload_parse(const char *text, unsigned *offload);

/**
 * @brief Footprint of every card of a layout: the largest card, fit, host memory and the
 * KV tokens left.
 * @param[in]  model The model; NULL gives ::HWFIT_EINVAL.
 * @param[in]  in    Workload, layout, card and reserve; NULL gives ::HWFIT_EINVAL.
 * @param[out] out   The summary; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK           computed.
 * @retval HWFIT_EINVAL       a pointer is NULL, an enum is out of range or a dtype unknown.
 * @retval HWFIT_EDOM         an input is out of its documented range (see
 *                            ::hwfit_shard_check, ::hwfit_shard_in and
 *                            ::hwfit_memory_estimate).
 * @retval HWFIT_ELAYOUT      the layout is invalid (::hwfit_shard_check says why).
 * @retval HWFIT_EUNSUPPORTED full training of quantized weights, or hwfit_memory_in::mtp.
 * @retval HWFIT_ERANGE       a size overflows 64 bits.
 */
HWFIT_API hwfit_status hwfit_shard_estimate(const hwfit_model *model, const hwfit_shard_in *in,
                                            hwfit_shard_out *out);

/**
 * @brief Check the inputs of ::hwfit_shard_estimate: which field is wrong, and why.
 *
 * Runs the same code as ::hwfit_shard_estimate on the same inputs without writing results,
 * so it returns exactly the status that ::hwfit_shard_estimate returns (given a non-NULL
 * output). Fields are named as members of ::hwfit_shard_in: "utilization" with rule
 * "must be in (0, 1]", "layout.tp" or "memory.context" with "must be at least 1",
 * "memory.weights" for a format the memory module refuses, "model.heads" for the model;
 * an invalid layout gives field "layout" with the rule ::hwfit_shard_reason_str gives
 * (::hwfit_shard_check says which reason).
 * @param[in]  model   The model; NULL gives ::HWFIT_EINVAL (field "model").
 * @param[in]  in      Workload, layout, card; NULL gives ::HWFIT_EINVAL (field "in").
 * @param[out] problem The field at fault and the rule it breaks (field "" for a footprint
 *                     beyond 64 bits), or cleared when the inputs are valid; may be NULL.
 * @retval HWFIT_OK           the inputs are valid (::hwfit_shard_estimate succeeds).
 * @retval HWFIT_EINVAL       a pointer is NULL, an enum is out of range or a dtype unknown.
 * @retval HWFIT_EDOM         an input is out of its documented range.
 * @retval HWFIT_ELAYOUT      the layout is invalid (field "layout").
 * @retval HWFIT_EUNSUPPORTED full training of quantized weights, or hwfit_memory_in::mtp.
 * @retval HWFIT_ERANGE       a size overflows 64 bits.
 */
HWFIT_API hwfit_status hwfit_shard_validate(const hwfit_model *model, const hwfit_shard_in *in,
                                            hwfit_problem *problem);

/**
 * @brief Bytes of workspace the `_ws` variants need (::hwfit_shard_estimate_ws,
 *        ::hwfit_shard_estimate_batch_ws). Constant for a build of the library.
 * @return The size; never 0.
 */
HWFIT_API size_t hwfit_shard_workspace_size(void);

/**
 * @brief ::hwfit_shard_estimate with a caller's workspace: the same result, bit for bit,
 *        without allocation.
 * @param[in]  model          As ::hwfit_shard_estimate.
 * @param[in]  in             As ::hwfit_shard_estimate.
 * @param[out] out            As ::hwfit_shard_estimate.
 * @param[in]  workspace      At least ::hwfit_shard_workspace_size bytes, aligned as malloc
 *                            aligns (max_align_t); scratch, its contents do not matter.
 * @param[in]  workspace_size Bytes at @p workspace.
 * @return As ::hwfit_shard_estimate and ::HWFIT_EINVAL for a
 *         workspace that is NULL, too small or misaligned.
 */
HWFIT_API hwfit_status hwfit_shard_estimate_ws(const hwfit_model *model,
                                               const hwfit_shard_in *in, hwfit_shard_out *out,
                                               void *workspace, size_t workspace_size);

/**
 * @brief The footprints and fits of @p n workloads or layouts of one model:
 * ::hwfit_shard_estimate of each element, in one call (a scheduler checking every job
 * against every node, a sweep of contexts or layouts; ::hwfit_shard_estimate_batch_ws
 * does it without allocation). Every element is
 * evaluated, even after one fails; outs[i] equals what ::hwfit_shard_estimate gives for
 * ins[i], bit for bit, and is written only when statuses[i] is ::HWFIT_OK.
 * @param[in]  model    The model of every element; NULL gives ::HWFIT_EINVAL.
 * @param[in]  ins      @p n inputs; may be NULL only when @p n is 0.
 * @param[in]  n        Number of elements; 0 does nothing and gives ::HWFIT_OK.
 * @param[out] outs     @p n results; may be NULL only when @p n is 0.
 * @param[out] statuses @p n statuses, the one ::hwfit_shard_estimate returns for each
 *                      element; may be NULL only when @p n is 0.
 * @retval HWFIT_OK           every element succeeded (or @p n is 0).
 * @retval HWFIT_EINVAL       @p model is NULL, or an array is NULL while @p n > 0 (nothing
 *                            is written); or the first failing element's status.
 * @retval HWFIT_EDOM         the first failing element's status (see
 *                            ::hwfit_shard_estimate).
 * @retval HWFIT_ELAYOUT      the first failing element's status.
 * @retval HWFIT_EUNSUPPORTED the first failing element's status.
 * @retval HWFIT_ERANGE       the first failing element's status.
 */
HWFIT_API hwfit_status hwfit_shard_estimate_batch(const hwfit_model *model,
                                                  const hwfit_shard_in *ins, size_t n,
                                                  hwfit_shard_out *outs,
                                                  hwfit_status *statuses);

/**
 * @brief ::hwfit_shard_estimate_batch with a caller's workspace: the same results, bit for
 *        bit, without allocation (a scheduler's worker thread keeps one workspace).
 * @param[in]  model          As ::hwfit_shard_estimate_batch.
 * @param[in]  ins            As ::hwfit_shard_estimate_batch.
 * @param[in]  n              As ::hwfit_shard_estimate_batch.
 * @param[out] outs           As ::hwfit_shard_estimate_batch.
 * @param[out] statuses       As ::hwfit_shard_estimate_batch.
 * @param[in]  workspace      At least ::hwfit_shard_workspace_size bytes, aligned as malloc
 *                            aligns (max_align_t); scratch, its contents do not matter.
 *                            With ::hwfit_shard_batch_workspace_size bytes or more it also
 *                            keeps the activation footprint of up to 256 recent (context,
 *                            batch, micro-batch, recomputation, tp, sp) keys during the call,
 *                            so that a sweep coming back to a context and batch does not
 *                            work it out again (the same results, bit for bit, faster).
 * @param[in]  workspace_size Bytes at @p workspace.
 * @return As ::hwfit_shard_estimate_batch and ::HWFIT_EINVAL for a
 *         workspace that is NULL, too small or misaligned (nothing is written).
 */
HWFIT_API hwfit_status hwfit_shard_estimate_batch_ws(const hwfit_model *model,
                                                     const hwfit_shard_in *ins, size_t n,
                                                     hwfit_shard_out *outs,
                                                     hwfit_status *statuses, void *workspace,
                                                     size_t workspace_size);

/**
 * @brief Bytes of the larger workspace of ::hwfit_shard_estimate_batch_ws that also keeps
 *        the activation footprints of recent keys (about 33 KB on LP64): what a sweep over
 *        contexts and batches should pass. Constant for a build of the library.
 * @return The size; at least ::hwfit_shard_workspace_size.
 */
HWFIT_API size_t hwfit_shard_batch_workspace_size(void);

/**
 * @brief Bytes of a prepared-model cache (::hwfit_shard_estimate_cached). Constant for a
 *        build of the library (about 6.5 KB on LP64).
 * @return The size; never 0.
 */
HWFIT_API size_t hwfit_shard_cache_size(void);

/**
 * @brief Make @p cache an empty prepared-model cache (it holds no model yet).
 *
 * A cache is the caller's memory: ::hwfit_shard_cache_size bytes, aligned as malloc aligns
 * (max_align_t), on the stack, in a struct or on the heap; the library keeps no pointer to
 * it and no state of its own. It is used by one thread at a time (a thread keeps its own).
 * Call this once before the first ::hwfit_shard_estimate_cached; a cache needs no freeing.
 * @param[out] cache      The memory to initialise.
 * @param[in]  cache_size Bytes at @p cache.
 * @retval HWFIT_OK     the cache is empty and ready
 * @retval HWFIT_EINVAL cache is NULL, smaller than ::hwfit_shard_cache_size or misaligned
 */
HWFIT_API hwfit_status hwfit_shard_cache_init(void *cache, size_t cache_size);

/**
 * @brief ::hwfit_shard_estimate for a caller that asks many single questions about one
 *        model: the same result, bit for bit, without preparing the model again.
 *
 * The cache keeps the model prepared (validated, its layers' tensors sized) and, while the
 * workload inputs other than the layout, context, batch, micro-batch and recomputation are
 * unchanged, the per-layer units of the last layout; it is keyed by the model's content
 * (its bytes, copied into the cache), so the caller may change, free or reuse its model
 * struct: a model whose bytes differ is prepared again, in the same call. No allocation.
 * This is the single call of a planner's or notebook's loop that cannot batch its
 * questions (::hwfit_shard_estimate_batch when it can).
 * @param[in]     model      As ::hwfit_shard_estimate.
 * @param[in]     in         As ::hwfit_shard_estimate.
 * @param[out]    out        As ::hwfit_shard_estimate.
 * @param[in,out] cache      A cache made by ::hwfit_shard_cache_init.
 * @param[in]     cache_size Bytes at @p cache.
 * @retval HWFIT_OK     out holds the estimate, as ::hwfit_shard_estimate would write it
 * @retval HWFIT_EINVAL model, in or out is NULL, or the cache is NULL, too small,
 *                      misaligned or not initialised (nothing is written)
 * @retval other        the refusals of ::hwfit_shard_estimate (out untouched); a refused
 *                      model leaves the cache empty
 */
HWFIT_API hwfit_status hwfit_shard_estimate_cached(const hwfit_model *model,
                                                   const hwfit_shard_in *in,
                                                   hwfit_shard_out *out, void *cache,
                                                   size_t cache_size);

/**
 * @brief Footprint of the cards of one pipeline stage (every card of a stage is alike).
 * @param[in]  model The model; NULL gives ::HWFIT_EINVAL.
 * @param[in]  in    As for ::hwfit_shard_estimate; NULL gives ::HWFIT_EINVAL.
 * @param[in]  stage 0 to pp - 1.
 * @param[out] card  The card; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK           computed.
 * @retval HWFIT_EINVAL       a pointer is NULL, an enum is out of range or a dtype unknown.
 * @retval HWFIT_EDOM         an input is out of range, or @p stage >= pp.
 * @retval HWFIT_ELAYOUT      the layout is invalid.
 * @retval HWFIT_EUNSUPPORTED as for ::hwfit_shard_estimate.
 * @retval HWFIT_ERANGE       a size overflows 64 bits.
 */
HWFIT_API hwfit_status hwfit_shard_card_at(const hwfit_model *model, const hwfit_shard_in *in,
                                           uint32_t stage, hwfit_shard_card *card);

/**
 * @brief Start enumerating the valid layouts of in->gpus cards within a space.
 * @param[out] iter  The iterator; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @param[in]  model The model; NULL gives ::HWFIT_EINVAL. Must outlive @p iter.
 * @param[in]  in    Workload and card count (its layout is ignored); NULL gives
 *                   ::HWFIT_EINVAL. Must outlive @p iter.
 * @param[in]  space The space; NULL gives ::HWFIT_EINVAL. Copied.
 * @retval HWFIT_OK     ready.
 * @retval HWFIT_EINVAL a pointer is NULL or an enum is out of range.
 * @retval HWFIT_EDOM   the model is invalid, the card count is 0 or too large, a maximum
 *                      is 0, or a fixed value is out of range.
 * @retval HWFIT_ERANGE the model's counts overflow 64 bits.
 */
HWFIT_API hwfit_status hwfit_shard_iter_init(hwfit_shard_iter *iter, const hwfit_model *model,
                                             const hwfit_shard_in *in,
                                             const hwfit_shard_space *space);

/**
 * @brief The next valid layout. Order: tp, ep, cp, sequence parallelism, recomputation,
 * micro-batch, pp, virtual stages, ZeRO stage, offload (the last varies fastest); dp is
 * what the card count leaves.
 * @param[in,out] iter   An initialised iterator; NULL gives 0.
 * @param[out]    layout The layout; NULL gives 0. Written only when 1 is returned.
 * @return 1 when a layout was written, 0 when the enumeration is over.
 */
HWFIT_API int hwfit_shard_iter_next(hwfit_shard_iter *iter, hwfit_layout *layout);

/**
 * @brief Every valid layout of in->gpus cards within @p space: keep those that fit (and,
 * with space->include_unfit, the others after them), rank them by memory headroom (largest
 * first; ties keep enumeration order) and write the best @p capacity to @p results.
 * Allocates only its engine (see Memory above).
 * @param[in]  model    The model; NULL gives ::HWFIT_EINVAL.
 * @param[in]  in       Workload, card count, capacity (its layout is ignored); NULL gives
 *                      ::HWFIT_EINVAL.
 * @param[in]  space    The space; NULL gives ::HWFIT_EINVAL.
 * @param[out] results  Array of @p capacity results, best first; may be NULL when
 *                      @p capacity is 0. Only the first summary->count are written.
 * @param[in]  capacity Size of @p results.
 * @param[out] summary  Counts; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK           searched (summary->count may be 0: nothing fits).
 * @retval HWFIT_EINVAL       a pointer is NULL, an enum is out of range or a dtype unknown.
 * @retval HWFIT_EDOM         an input is out of range.
 * @retval HWFIT_EUNSUPPORTED as for ::hwfit_shard_estimate.
 * @retval HWFIT_ERANGE       a size overflows 64 bits.
 */
HWFIT_API hwfit_status hwfit_shard_search(const hwfit_model *model, const hwfit_shard_in *in,
                                          const hwfit_shard_space *space,
                                          hwfit_shard_result *results, size_t capacity,
                                          hwfit_shard_search_out *summary);

/**
 * @brief The fewest cards, from 1 to @p max_gpus, on which some layout of @p space fits.
 * @param[in]  model    The model; NULL gives ::HWFIT_EINVAL.
 * @param[in]  in       Workload and capacity (card count and layout ignored); NULL gives
 *                      ::HWFIT_EINVAL.
 * @param[in]  space    The space; NULL gives ::HWFIT_EINVAL.
 * @param[in]  max_gpus Largest count tried, 1-::HWFIT_SHARD_MAX_GPUS.
 * @param[out] gpus     The count, or 0 when nothing fits on @p max_gpus cards or fewer;
 *                      NULL gives ::HWFIT_EINVAL. Written only on success.
 * @param[out] layout   The best-headroom layout at that count (untouched when *gpus is 0);
 *                      may be NULL.
 * @retval HWFIT_OK           searched.
 * @retval HWFIT_EINVAL       a pointer is NULL, an enum is out of range or a dtype unknown.
 * @retval HWFIT_EDOM         an input is out of range, or @p max_gpus is 0 or too large.
 * @retval HWFIT_EUNSUPPORTED as for ::hwfit_shard_estimate.
 * @retval HWFIT_ERANGE       a size overflows 64 bits.
 */
HWFIT_API hwfit_status hwfit_shard_min_gpus(const hwfit_model *model, const hwfit_shard_in *in,
                                            const hwfit_shard_space *space, uint32_t max_gpus,
                                            uint32_t *gpus, hwfit_layout *layout);

/**
 * @brief The longest context (tokens per sequence, a multiple of cp, x tp with sequence
 * parallelism) up to @p limit that fits with the layout of @p in: a binary search over
 * the exact footprint, which never falls as the context grows.
 * @param[in]  model   The model; NULL gives ::HWFIT_EINVAL.
 * @param[in]  in      Workload and layout (memory.context is ignored); NULL gives
 *                     ::HWFIT_EINVAL.
 * @param[in]  limit   Largest context tried, >= 1 (e.g. the model's max_context).
 * @param[out] context The context, or 0 when even the smallest does not fit; NULL gives
 *                     ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK           searched.
 * @retval HWFIT_EINVAL       a pointer is NULL, an enum is out of range or a dtype unknown.
 * @retval HWFIT_EDOM         an input is out of range, or @p limit is 0.
 * @retval HWFIT_ELAYOUT      the layout is invalid for every context.
 * @retval HWFIT_EUNSUPPORTED as for ::hwfit_shard_estimate.
 * @retval HWFIT_ERANGE       the model's counts overflow 64 bits (a footprint that
 *                            overflows only counts as not fitting).
 */
HWFIT_API hwfit_status hwfit_shard_max_context(const hwfit_model *model,
                                               const hwfit_shard_in *in, uint64_t limit,
                                               uint64_t *context);

/**
 * @brief The largest batch up to @p limit that fits with the layout of @p in: for
 * inference the concurrent sequences over all replicas (memory.batch), for training the
 * micro-batch (with a full pipeline: the global batch is taken as 0). Binary search.
 * @param[in]  model The model; NULL gives ::HWFIT_EINVAL.
 * @param[in]  in    Workload and layout; NULL gives ::HWFIT_EINVAL.
 * @param[in]  limit Largest batch tried, >= 1.
 * @param[out] batch The batch, or 0 when even 1 does not fit; NULL gives ::HWFIT_EINVAL.
 *                   Written only on success.
 * @retval HWFIT_OK           searched.
 * @retval HWFIT_EINVAL       a pointer is NULL, an enum is out of range or a dtype unknown.
 * @retval HWFIT_EDOM         an input is out of range, or @p limit is 0.
 * @retval HWFIT_ELAYOUT      the layout is invalid.
 * @retval HWFIT_EUNSUPPORTED as for ::hwfit_shard_estimate.
 * @retval HWFIT_ERANGE       the model's counts overflow 64 bits (a footprint that
 *                            overflows only counts as not fitting).
 */
HWFIT_API hwfit_status hwfit_shard_max_batch(const hwfit_model *model, const hwfit_shard_in *in,
                                             uint64_t limit, uint64_t *batch);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_SHARD_H */

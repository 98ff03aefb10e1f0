/**
 * @file perf.h
 * @brief Roofline throughput: prefill time and time to first token, decode time per output
 * token and tokens per second for a batch of concurrent sequences, the batch at which decode
 * turns compute-bound, training step time with pipeline bubble and exposed communication,
 * tokens per second and MFU.
 *
 * Every pipeline stage's cards are a roofline (Williams et al. 2009, "Roofline: an
 * insightful visual performance model"): the time of a pass is the larger of its FLOPs over
 * the achievable tensor throughput and its bytes over the achievable memory bandwidth, plus
 * the collectives that cannot overlap (collective.h on the described topology). The FLOPs
 * are the model's (model.h: 2 per active weight, attention over the attended tokens), split
 * over the stage's layers and the tensor-parallel ranks; the bytes are the card's weights
 * and KV cache from shard.h. Every efficiency and overlap is an input with a documented,
 * cited default. See docs/formulas.md, section "perf".
 *
 * Thread safety: every function is reentrant and touches only its arguments.
 *
 * Memory: ::hwfit_perf_estimate, ::hwfit_perf_validate and ::hwfit_perf_plan evaluate
 * footprints in the engine of shard.h (about 4.9 KB) on their own stack; every call needs
 * less than 16 KiB of stack (::hwfit_perf_plan the most, about 15.7 KB; tests/stack). They
 * still allocate through the collectives they time (collective.h: its scratch), and give
 * ::HWFIT_ENOMEM when that fails.
 */
#ifndef HWFIT_PERF_H
#define HWFIT_PERF_H

#include "hwfit/collective.h"
#include "hwfit/gpu.h"
#include "hwfit/model.h"
#include "hwfit/shard.h"
#include "hwfit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup perf Throughput
 *  @brief Prefill, decode and training step time on a roofline. Thread safety: all
 *  functions are reentrant.
 *  @{ */

/** @brief Number format of the tensor-core math, which picks the peak throughput. */
typedef enum hwfit_perf_precision {
    HWFIT_PERF_PRECISION_AUTO = 0, /**< From the weights: fp8 formats use FP8, nvfp4 and mxfp4
                                        FP4, int8 INT8, fp32 TF32, everything else
                                        (bf16, fp16, and weight-only int4, nf4, GGUF that are
                                        dequantized before the matmul) BF16. */
    HWFIT_PERF_PRECISION_TF32 = 1, /**< TF32 tensor cores. */
    HWFIT_PERF_PRECISION_BF16 = 2, /**< FP16/BF16 tensor cores, FP32 accumulate. */
    HWFIT_PERF_PRECISION_FP8 = 3,  /**< FP8 tensor cores. */
    HWFIT_PERF_PRECISION_FP4 = 4,  /**< FP4 (NVFP4/MXFP4) tensor cores. */
    HWFIT_PERF_PRECISION_INT8 = 5  /**< INT8 tensor cores. */
} hwfit_perf_precision;

/** @brief How FP8/FP4 training scales its quantized tensors (::hwfit_perf_in::lowp_scaling). */
typedef enum hwfit_perf_scaling {
    HWFIT_PERF_SCALING_TENSOR = 0, /**< One scale per tensor, delayed or current (Transformer
                                        Engine's DelayedScaling and Float8CurrentScaling,
                                        torchao's tensorwise Float8): each expert GEMM operand
                                        of a grouped linear has its own scale. */
    HWFIT_PERF_SCALING_BLOCK = 1   /**< Scales per block or tile of elements (MXFP8, NVFP4,
                                        DeepSeek-V3's 1x128 / 128x128 tiles): computed inside
                                        the quantizing kernel. */
} hwfit_perf_scaling;

/** @brief The pipeline schedule of training (::hwfit_perf_in::schedule). */
typedef enum hwfit_perf_schedule {
    HWFIT_PERF_SCHEDULE_1F1B = 0,  /**< 1F1B, interleaved with virtual stages (Narayanan et al.
                                        2021): a bubble of (pp - 1) / v micro-batch times. */
    HWFIT_PERF_SCHEDULE_ZB_H1 = 1  /**< ZB-H1 (Qi et al. 2023, "Zero Bubble Pipeline
                                        Parallelism", arXiv:2401.10241, section 2.1): the
                                        backward split into its input-gradient (B) and
                                        weight-gradient (W) halves, the W passes filling the
                                        tail bubble at 1F1B's peak memory; the bubble is
                                        (pp - 1)(T_F + T_B - T_W) against 1F1B's
                                        (pp - 1)(T_F + T_B + T_W), a third of it with F, B
                                        and W of equal time (the paper's, and this library's,
                                        backward = 2 x forward). With virtual stages the
                                        third is taken of the interleaved bubble (ZB-V,
                                        Qi et al. 2024, reaches none at 2 chunks). */
} hwfit_perf_schedule;

/** @brief What bounds a decode step. */
typedef enum hwfit_perf_bound {
    HWFIT_PERF_BOUND_MEMORY = 0, /**< Bytes over bandwidth outweigh FLOPs over throughput. */
    HWFIT_PERF_BOUND_COMPUTE = 1 /**< FLOPs over throughput outweigh bytes over bandwidth. */
} hwfit_perf_bound;

/** @brief What ::hwfit_perf_plan ranks the layouts that fit by (::hwfit_perf_plan_rank).
 *  Append only. */
typedef enum hwfit_perf_rank {
    HWFIT_PERF_RANK_TRAINING_RATE = 0, /**< Training with the global batch left to each layout
                                            (hwfit_shard_space::global_batch 0: pp
                                            micro-batches per replica, so layouts process
                                            different batches per step): training tokens per
                                            second at the layout's own global batch, highest
                                            first. Step times are not compared. */
    HWFIT_PERF_RANK_STEP_TIME = 1,     /**< Training at the global batch the space gives:
                                            the shortest step first (every layout does the
                                            same work, so this is also the highest training
                                            tokens per second). */
    HWFIT_PERF_RANK_DECODE_RATE = 2    /**< Inference: decode tokens per second at the
                                            workload's batch, highest first. */
} hwfit_perf_rank;

/** @brief Most threads ::hwfit_perf_plan takes (hwfit_perf_in::threads). */
#define HWFIT_PERF_MAX_THREADS 64

/** @brief Inputs of ::hwfit_perf_estimate. Fill with ::hwfit_perf_init and
 *  ::hwfit_perf_set_gpu, then set the workload and layout in @c shard. */
typedef struct hwfit_perf_in {
    hwfit_shard_in shard;   /**< Workload, layout, card count and capacity (shard.h).
                                 Inference: memory.context is the prompt length, memory.batch
                                 the concurrent sequences over all replicas. Training:
                                 memory.context is the sequence length; the global batch is
                                 the layout's. */
    hwfit_topology topology; /**< The cluster for the collectives (collective.h); its node
                                 count is raised to hold the cards. Default:
                                 ::hwfit_topology_init. */
    double memory_bandwidth_bytes_per_s; /**< Peak memory bandwidth of one card, bytes/s,
                                 > 0; required (::hwfit_perf_set_gpu fills it). */
    double tf32_flop_per_s;  /**< Dense TF32 tensor throughput of one card, FLOP/s, >= 0. */
    double bf16_flop_per_s;  /**< Dense FP16/BF16 tensor throughput (FP32 accumulate), FLOP/s. */
    double fp8_flop_per_s;   /**< Dense FP8 tensor throughput, FLOP/s (0: none). */
    double fp4_flop_per_s;   /**< Dense FP4 tensor throughput, FLOP/s (0: none). */
    double int8_op_per_s;    /**< Dense INT8 tensor throughput, op/s (0: none). */
    hwfit_perf_precision precision; /**< Math format; default AUTO. A format the card lacks
                                 (throughput 0) gives ::HWFIT_EUNSUPPORTED. */
    uint64_t output_tokens;  /**< Inference: tokens generated per sequence (output length);
                                 decode is timed at a KV length of context + output_tokens / 2
                                 and the fit is checked at context + output_tokens; default 0
                                 (decode at the context). */
    double prefill_efficiency; /**< Achieved share of peak tensor throughput in prefill
                                 (large matmuls), (0, 1]; default 0.6 (a sustained 2,744 of
                                 5,000 FP8 TFLOP/s on GB200, Azure ND GB200 v6, 2025; 0.5-0.7
                                 is what LLM serving reaches). */
    double decode_compute_efficiency; /**< The same share in decode, (0, 1]; default 0.6. */
    double memory_efficiency; /**< Achieved share of peak memory bandwidth when streaming
                                 weights and KV cache, (0, 1]; default 0.85 (7.35 of 8 TB/s =
                                 92 % measured on GB200 by Azure; 0.8-0.9 is typical). */
    double training_efficiency; /**< Achieved share of peak tensor throughput in training
                                 matmuls, (0, 1]; default 0.7 (Megatron-LM reaches 52.8 %
                                 hardware FLOPs utilisation for GPT-3 175B on A100 with
                                 pipeline bubble and communication included, Korthikanti et
                                 al. 2022; refitted with activation_passes to the training
                                 runs of tests/data/measured, see docs/accuracy.md). */
    double step_overhead_s;  /**< Inference: fixed time per decode step (scheduling, sampling,
                                 kernel launches), s, >= 0; default 0. */
    double tp_overlap;       /**< Share of tensor-parallel communication hidden under
                                 compute, [0, 1]; default 0 (Megatron-LM 2021 does not
                                 overlap it). */
    double pp_overlap;       /**< Share of pipeline sends hidden, [0, 1]; default 0. */
    double dp_overlap;       /**< Share of data-parallel gradient reduction and ZeRO gathers
                                 hidden under the backward and forward passes, [0, 1];
                                 default 0.5 (PyTorch DDP and Megatron overlap bucketed
                                 reductions with backward; Li et al. 2020). */
    double ep_overlap;       /**< Share of expert all-to-alls hidden, [0, 1]; default 0.5
                                 (fitted to the MoE runs of tests/data/measured: DeepEP and
                                 Megatron-Core's overlap_moe_expert_parallel_comm run one
                                 micro-batch's dispatch and combine under another's expert
                                 and attention compute; DeepSeek-V3's DualPipe hides nearly
                                 all of it, a plain 1F1B none; see docs/accuracy.md). */
    double target_tokens_per_s; /**< Inference: a decode rate (all replicas) to reach, tokens/s,
                                 >= 0; 0 (default) = none. */
    int moe_active_reads;    /**< Inference, MoE models: 1 = a decode step reads only the
                                 routed experts its tokens touch: of E experts with k per token,
                                 b tokens touch E (1 - (1 - k/E)^b) on average (each token picks
                                 k of E; routing taken as uniform), so a small batch reads
                                 about b k experts per layer and a large one all of them;
                                 0 (default) = every expert's weights are read each step. */
    uint32_t threads;        /**< ::hwfit_perf_plan only: threads that search the layouts,
                                 1 to ::HWFIT_PERF_MAX_THREADS; default 1 (the calling thread
                                 alone). More deal the layouts to C11 threads in blocks and
                                 give the same results, bit for bit, as one; where the C
                                 library has no C11 threads, or a thread cannot be started,
                                 the calling thread searches their share. The other calls
                                 ignore it. */
    double low_precision_efficiency; /**< Training in FP8 or FP4: the share of the format's
                                 peak its matmuls reach, relative to training_efficiency's
                                 share of the BF16 peak, (0, 1]; default 0.75 (fitted to the
                                 FP8 runs of tests/data/measured: the casts, amax and
                                 transposes of per-tensor scaling run beside each GEMM, and
                                 FP8 GEMMs reach less of their peak than BF16 ones; see
                                 docs/accuracy.md). The attention core (softmax(QK^T)V) stays
                                 in BF16 at training_efficiency (Transformer Engine's FP8
                                 recipes keep dot-product attention in BF16 unless
                                 NVTE_FP8_DPA is set). */
    double moe_expert_overhead_s; /**< Training, MoE models: fixed time per expert a card
                                 holds, per MoE layer and micro-batch (forward and backward),
                                 s, >= 0; default 0.0004. Each local expert's GEMMs (two in
                                 forward, four in backward), activation, FP8 casts and
                                 weight-gradient accumulation are separate kernels or tiles
                                 whose cost does not shrink with its tokens; Megatron-Core's
                                 dropless dispatcher also syncs the tokens-per-expert counts
                                 to the host each layer, so the launches are exposed
                                 (MegaBlocks, Gale et al. 2022, section 3; fitted to the MoE
                                 runs of tests/data/measured, see docs/accuracy.md). 0 = none. */
    double power_limit_share; /**< The board power limit the cards run at over the power
                                 their peaks are specified at (the catalog's tdp_w), (0, 1.5];
                                 default 1. Below 1 the tensor throughput follows the clock
                                 the limit allows: it is scaled by
                                 min(1, power_limit_share^power_exponent) in training,
                                 prefill and decode (a power cap lowers the sustained clock;
                                 bandwidth is left alone). */
    double power_exponent;   /**< How the sustained tensor clock follows the power limit,
                                 (0, 1]; default 1/3: dynamic power is C V^2 f and the voltage
                                 rises with the clock over the DVFS range, so P ~ f^3
                                 (Weste and Harris, CMOS VLSI Design, 4th ed., section 5.2).
                                 NVIDIA's H100 datasheet gives 989.5 dense BF16 TFLOP/s for
                                 the SXM at up to 700 W and 835.5 for the NVL at 350-400 W:
                                 0.84 = (400/700)^0.30; torchtitan's benchmark page says its
                                 500 W H100's peak lies between the two (0.89 here). */
    double activation_passes; /**< Training: memory traffic of the kernels that are not
                                 matmuls (norms, activation function, residual adds, rotary
                                 embedding, casts, the attention's layout copies), as passes
                                 over one token's hidden-size activation in the activation
                                 format per layer, forward and backward together (full
                                 recomputation repeats a third of them), >= 0; default 160
                                 (fitted to the training runs of tests/data/measured, see
                                 docs/accuracy.md: an effective count, as these small
                                 kernels reach less of the bandwidth than memory_efficiency;
                                 a count of a fused Llama layer's passes (Transformer
                                 Engine's norms with casts, SwiGLU, rotary, residual adds)
                                 gives about 90; eager PyTorch makes several times more).
                                 The share of a layer's time this takes falls with the
                                 hidden size (matmuls grow with h^2, these with h). Timed at memory_efficiency of the bandwidth
                                 after the stage's matmuls (separate kernels, not
                                 overlapped), split over tp. 0 = none. */
    double selective_matmul_recompute; /**< Training with selective recomputation: the share
                                 of the layers' forward weight matmuls recomputed in backward
                                 beside the attention core, [0, 1]; default 0 (Korthikanti et
                                 al. 2022's selective recomputation, Megatron's: the attention
                                 core only). torchtitan's op-level selective checkpointing
                                 saves every compute op's output "except every second mm"
                                 (torchtitan/parallelisms/parallelize_llama.py, Dec 2024):
                                 wk, wo and w3 of a Llama block's seven matmuls, 0.37 of its
                                 weights; with Float8 linears every matmul, as their
                                 _scaled_mm is not in its save list: 1. */
    hwfit_perf_scaling lowp_scaling; /**< FP8/FP4 training: per-tensor (default
                                 ::HWFIT_PERF_SCALING_TENSOR) or block scaling. */
    double moe_expert_cast_overhead_s; /**< FP8/FP4 training of MoE models with per-tensor
                                 scaling: fixed time per expert a card holds, per MoE layer and
                                 micro-batch, on top of moe_expert_overhead_s, s, >= 0; default
                                 0.0006. Each expert's GEMM operands carry their own scale
                                 (Transformer Engine's GroupedLinear keeps FP8 metadata per GEMM:
                                 transformer_engine/pytorch/module/grouped_linear.py), so every
                                 local expert adds its own quantizing kernels: the forward's
                                 input and weight of two GEMMs and the backward's two output
                                 gradients, each an amax reduction and a cast (current
                                 scaling), about 12 kernels over the ~8 (six GEMMs, the
                                 activation and its gradient) moe_expert_overhead_s stands
                                 for: 12 / 8 x 0.4 ms. Block scaling computes its scales
                                 inside the quantizing kernel and quantizes all experts at
                                 once: nothing. 0 = none. */
    double moe_capacity_factor; /**< Training, MoE models: the expert capacity factor, read
                                 only when moe_capacity_given is 1, (0, 1000]; default 1.
                                 Each expert's input is padded (or cut) to its capacity,
                                 factor x tokens x top-k / experts (GShard, Lepikhin et al.
                                 2020, section 2.2; Switch Transformer, Fedus et al. 2021,
                                 section 2.2; Megatron-LM's --moe-expert-capacity-factor with
                                 --moe-pad-expert-input-to-capacity), so every expert computes
                                 on exactly its capacity: the routed experts' FLOPs and the
                                 all-to-all bytes are the factor times the dropless ones, and
                                 routing imbalance no longer matters (the tokens over the
                                 capacity are dropped; moe_imbalance is not read). Megatron
                                 takes any float; below 1 tokens are dropped even when the
                                 routing is even. */
    double moe_imbalance;    /**< Training, MoE models, dropless (moe_capacity_given 0): the
                                 routed tokens of the busiest expert-parallel rank over the
                                 mean, [1, 1000]; default 1 (even routing). The step waits
                                 for that rank, so the routed experts' FLOPs and the
                                 all-to-all bytes on the critical path are this times the
                                 even ones (see docs/formulas.md for values reported). */
    int moe_capacity_given;  /**< 1: the experts are padded to moe_capacity_factor; 0
                                 (default): dropless, no capacity (Megatron-Core's default,
                                 DeepSeek-V3, Qwen3). */
    hwfit_perf_schedule schedule; /**< Training: the pipeline schedule; default
                                 ::HWFIT_PERF_SCHEDULE_1F1B. Its peak memory is 1F1B's
                                 either way (ZB-H1 keeps it). */
} hwfit_perf_in;

/** @brief Result of ::hwfit_perf_estimate. Times are seconds, rates per second. */
typedef struct hwfit_perf_out {
    hwfit_shard_out shard;         /**< The layout's memory fit (at context + output_tokens). */
    hwfit_perf_precision precision; /**< Math format used. */
    double peak_flop_per_s;        /**< Dense peak of one card in that format, FLOP/s. */
    /* ---- inference ---- */
    double prefill_flop;           /**< FLOPs of one prompt on a replica, FLOP. */
    double prefill_s;              /**< Time to first token of one prompt on an idle replica:
                                        the stages in turn, s. */
    double prefill_compute_s;      /**< Of which the compute terms, summed over stages, s. */
    double prefill_memory_s;       /**< The memory terms, summed over stages, s. */
    double prefill_comm_s;         /**< The collectives, summed over stages, s. */
    double prefill_tokens_per_s;   /**< Prompt tokens per second with the stages pipelined,
                                        all replicas. */
    uint64_t decode_context;       /**< KV length the decode step is timed at, tokens. */
    double time_per_output_token_s; /**< One decode step for the whole batch, s. */
    double decode_tokens_per_s;    /**< Output tokens per second over the batch and replicas. */
    double decode_compute_s;       /**< Bottleneck stage, one micro-batch: FLOPs / throughput, s. */
    double decode_memory_s;        /**< Its bytes / bandwidth, s. */
    double decode_comm_s;          /**< Its collectives, s. */
    double decode_bytes;           /**< Bytes that card reads per micro-batch, bytes. */
    double decode_flop;            /**< FLOPs that card does per micro-batch, FLOP. */
    hwfit_perf_bound bound;        /**< What bounds that card. */
    uint64_t compute_bound_batch;  /**< Smallest batch (all replicas) at which decode is
                                        compute-bound; 0 when it never is. */
    double offline_tokens_per_s;   /**< Output tokens per second for requests of context
                                        prompt tokens and output_tokens output tokens, prefill
                                        included (trtllm-bench's "output throughput"); 0 when
                                        output_tokens is 0. */
    uint64_t target_batch;         /**< Smallest batch reaching target_tokens_per_s; 0 when no
                                        target or unreachable. */
    int target_fits;               /**< 1 when target_batch fits in memory. */
    /* ---- training ---- */
    double step_time_s;            /**< One optimizer step, s. */
    double step_compute_s;         /**< Micro-batches x the slowest stage's forward and
                                        backward, s. */
    double bubble_s;               /**< Pipeline bubble: (pp - 1) / v micro-batch times
                                        (Narayanan et al. 2021), a third of it with
                                        ::HWFIT_PERF_SCHEDULE_ZB_H1, s. */
    double tp_comm_s;              /**< Exposed tensor-parallel communication, s. */
    double pp_comm_s;              /**< Exposed pipeline sends, s. */
    double dp_comm_s;              /**< Exposed gradient reduction and ZeRO gathers, s. */
    double ep_comm_s;              /**< Exposed expert all-to-alls, s. */
    double offload_s;              /**< Host transfers and the CPU optimizer (offload), s. */
    double tokens_per_s;           /**< Training tokens per second. */
    double model_flop_per_step;    /**< 3 x forward FLOPs x tokens: 6 per active weight plus
                                        attention (PaLM's MFU convention), FLOP. */
    double hardware_flop_per_step; /**< Plus recomputation, FLOP. */
    double mfu;                    /**< model_flop_per_step / (step time x cards x peak). */
    double hfu;                    /**< hardware_flop_per_step / (step time x cards x peak). */
} hwfit_perf_out;

/** @brief One ranked layout of ::hwfit_perf_plan. */
typedef struct hwfit_perf_result {
    hwfit_shard_result shard;      /**< Layout (with its global batch resolved) and memory
                                        figures. For layouts that fit the score is the
                                        ranking metric (::hwfit_perf_plan_rank): training
                                        tokens/s (::HWFIT_PERF_RANK_TRAINING_RATE), minus the
                                        step time in s (::HWFIT_PERF_RANK_STEP_TIME) or
                                        decode tokens/s (::HWFIT_PERF_RANK_DECODE_RATE); they
                                        rank before those that do not (include_unfit), whose
                                        score is the shard one (minus the shortfall). */
    double step_time_s;            /**< Training step time at the layout's global batch, or
                                        time per output token, s. */
    double tokens_per_s;           /**< Training tokens/s (global batch x sequence / step
                                        time), or decode tokens/s. */
    double mfu;                    /**< Training MFU; 0 for inference. */
    double bubble_s;               /**< Training: the pipeline bubble of the step, s
                                        ((pp - 1) / v micro-batch times, interleaved 1F1B);
                                        0 for inference. */
} hwfit_perf_result;

/**
 * @brief Default inputs: ::hwfit_shard_init, ::hwfit_topology_init, no card (set one with
 * ::hwfit_perf_set_gpu), precision AUTO, no output tokens, efficiencies 0.6 (prefill and
 * decode), 0.85 (memory), 0.7 (training), 0.75 (low precision), no step overhead, overlaps
 * 0 except dp 0.5 and ep 0.5, no target rate, 0.4 ms per local expert, no power cap (share
 * 1, exponent 1/3), 160 activation passes, no matmuls in selective recomputation.
 * @param[out] in The inputs; NULL is ignored.
 */
HWFIT_API void hwfit_perf_init(hwfit_perf_in *in);

/**
 * @brief Copy a catalog card into the inputs: capacity, memory bandwidth, dense tensor
 * throughputs and its links into the topology (::hwfit_topology_set_gpu).
 * @param[in,out] in  The inputs; NULL gives ::HWFIT_EINVAL.
 * @param[in]     gpu A catalog row; NULL gives ::HWFIT_EINVAL.
 * @retval HWFIT_OK     copied.
 * @retval HWFIT_EINVAL a pointer is NULL.
 */
HWFIT_API hwfit_status hwfit_perf_set_gpu(hwfit_perf_in *in, const hwfit_gpu *gpu);

/**
 * @brief Throughput of a workload under the layout of in->shard.layout.
 * @param[in]  model The model; NULL gives ::HWFIT_EINVAL.
 * @param[in]  in    The inputs; NULL gives ::HWFIT_EINVAL.
 * @param[out] out   The estimate; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK           estimated; every field is finite.
 * @retval HWFIT_EINVAL       a pointer is NULL, or an enum or dtype is invalid.
 * @retval HWFIT_EDOM         an input is out of its range (see the fields, shard.h and
 *                            collective.h), e.g. no memory bandwidth, or several nodes
 *                            without NICs.
 * @retval HWFIT_ELAYOUT      the layout is invalid (::hwfit_shard_check).
 * @retval HWFIT_EUNSUPPORTED the card has no tensor throughput in the precision, full
 *                            training of quantized weights, or memory.mtp.
 * @retval HWFIT_ERANGE       a size overflows 64 bits.
 * @retval HWFIT_ENOMEM       the collectives' scratch could not be allocated.
 */
HWFIT_API hwfit_status hwfit_perf_estimate(const hwfit_model *model, const hwfit_perf_in *in,
                                           hwfit_perf_out *out);

/**
 * @brief Check the inputs of ::hwfit_perf_estimate: which field is wrong, and why.
 *
 * Runs the same code as ::hwfit_perf_estimate on the same inputs without writing results,
 * so it returns exactly the status that ::hwfit_perf_estimate returns (given a non-NULL
 * output). Fields are named as members of ::hwfit_perf_in: "prefill_efficiency" with
 * rule "must be in (0, 1]", "precision" for a format the card lacks, "topology.nics_per_node"
 * for a cluster the collectives refuse, and the shard's fields under "shard."
 * ("shard.utilization", "shard.layout.micro_batch"; an invalid layout gives
 * "shard.layout" with the rule ::hwfit_shard_reason_str gives).
 * @param[in]  model   The model; NULL gives ::HWFIT_EINVAL (field "model").
 * @param[in]  in      The inputs; NULL gives ::HWFIT_EINVAL (field "in").
 * @param[out] problem The field at fault and the rule it breaks (field "" for a result
 *                     that overflows), or cleared when the inputs are valid; may be NULL.
 * @retval HWFIT_OK           the inputs are valid (::hwfit_perf_estimate succeeds).
 * @retval HWFIT_EINVAL       a pointer is NULL, or an enum or dtype is invalid.
 * @retval HWFIT_EDOM         an input is out of its range.
 * @retval HWFIT_ELAYOUT      the layout is invalid (field "shard.layout").
 * @retval HWFIT_EUNSUPPORTED the card has no tensor throughput in the precision, full
 *                            training of quantized weights, or memory.mtp.
 * @retval HWFIT_ERANGE       a size overflows 64 bits.
 * @retval HWFIT_ENOMEM       the collectives' scratch could not be allocated.
 */
HWFIT_API hwfit_status hwfit_perf_validate(const hwfit_model *model, const hwfit_perf_in *in,
                                           hwfit_problem *problem);

/**
 * @brief The metric ::hwfit_perf_plan ranks the layouts that fit by: for training, with
 * space->global_batch 0 (each layout at its own global batch of pp micro-batches per
 * replica, so they do different work per step) the training tokens per second
 * (::HWFIT_PERF_RANK_TRAINING_RATE), with a global batch the step time at that batch
 * (::HWFIT_PERF_RANK_STEP_TIME); for inference the decode rate
 * (::HWFIT_PERF_RANK_DECODE_RATE).
 * @param[in]  in    The inputs (their memory.mode is read); NULL gives ::HWFIT_EINVAL.
 * @param[in]  space The space (its global_batch is read); NULL gives ::HWFIT_EINVAL.
 * @param[out] rank  The metric; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK     given.
 * @retval HWFIT_EINVAL a pointer is NULL or the mode is out of range.
 */
HWFIT_API hwfit_status hwfit_perf_plan_rank(const hwfit_perf_in *in,
                                            const hwfit_shard_space *space,
                                            hwfit_perf_rank *rank);

/**
 * @brief Name of a ranking metric: "training_rate", "step_time" or "decode_rate".
 * @param[in] rank Any value; unknown values give "unknown".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_perf_rank_name(hwfit_perf_rank rank);

/**
 * @brief The layouts of @p space that fit, ranked by the metric ::hwfit_perf_plan_rank
 * gives: training tokens per second at each layout's own global batch (global batch 0), the
 * step time at the given global batch, or the decode rate (inference); the best @p capacity
 * go to @p results, best first.
 *
 * Every valid layout is ranked: its memory fit is evaluated (summary->fitting counts the
 * layouts whose cards and host memory fit, timed or not), and a layout that fits is timed
 * in full unless a lower bound of its step time (its slowest stage's compute through the
 * pipeline schedule, without communication) shows that it cannot beat the last of the
 * @p capacity layouts kept so far. The results are those of timing every layout, bit for
 * bit (ties keep the enumeration order). With in->threads above 1 the layouts are shared
 * among that many threads (C11 threads, each with its own engine and lists, allocated
 * and freed in the call) with the same results.
 * @param[in]  model    The model; NULL gives ::HWFIT_EINVAL.
 * @param[in]  in       Inputs (their layout is ignored); NULL gives ::HWFIT_EINVAL.
 * @param[in]  space    The layouts to consider (shard.h); NULL gives ::HWFIT_EINVAL.
 * @param[out] results  Array of @p capacity, best first; may be NULL when @p capacity is 0.
 * @param[in]  capacity Size of @p results.
 * @param[out] summary  Counts (shard.h); NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK           ranked (summary->count may be 0: nothing fits).
 * @retval HWFIT_EINVAL       a pointer is NULL, or an enum or dtype is invalid.
 * @retval HWFIT_EDOM         an input is out of range (in->threads: 1 to
 *                            ::HWFIT_PERF_MAX_THREADS).
 * @retval HWFIT_EUNSUPPORTED as for ::hwfit_perf_estimate.
 * @retval HWFIT_ERANGE       a size overflows 64 bits.
 * @retval HWFIT_ENOMEM       the collectives' scratch could not be allocated.
 */
HWFIT_API hwfit_status hwfit_perf_plan(const hwfit_model *model, const hwfit_perf_in *in,
                                       const hwfit_shard_space *space,
                                       hwfit_perf_result *results, size_t capacity,
                                       hwfit_shard_search_out *summary);

/**
 * @brief Name of a precision: "auto", "tf32", "bf16", "fp8", "fp4", "int8".
 * @param[in] precision Any value; unknown values give "unknown".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_perf_precision_name(hwfit_perf_precision precision);

/**
 * @brief Read a precision from its name (as ::hwfit_perf_precision_name gives).
 * @param[in]  name      Name; NULL gives ::HWFIT_EINVAL.
 * @param[out] precision The precision; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK        found.
 * @retval HWFIT_EINVAL    a pointer is NULL.
 * @retval HWFIT_ENOTFOUND no such precision.
 */
HWFIT_API hwfit_status hwfit_perf_precision_from_name(const char *name,
                                                      hwfit_perf_precision *precision);

/**
 * @brief Name of a bound: "memory" or "compute".
 * @param[in] bound Any value; unknown values give "unknown".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_perf_bound_name(hwfit_perf_bound bound);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_PERF_H */

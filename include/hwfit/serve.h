/**
 * @file serve.h
 * @brief Serving as an engine allocates it: KV-cache capacity (bytes, tokens, blocks) the
 * way vLLM, SGLang, TensorRT-LLM or llama.cpp size it, the concurrency that fits requests of
 * a given length, and the time to first token, time per output token and token rates at a
 * concurrency, with what bounds each.
 *
 * An engine profile (::hwfit_serve_engine) is a documented set of inputs, each taken from
 * the engine's code or documentation (docs/formulas.md, section "serve"):
 * - vLLM (vllm/v1/worker/gpu_worker.py, determine_available_memory): the KV cache gets
 *   total memory x gpu_memory_utilization minus the weights, the peak of a profiling
 *   forward pass of max_num_batched_tokens tokens (and a sampler pass of max_num_seqs
 *   sequences), the memory outside PyTorch's allocator that grew meanwhile (cuBLAS, NCCL)
 *   and the CUDA-graph pool; blocks of 16 tokens.
 * - SGLang (python/sglang/srt/model_executor/model_runner.py, profile_max_num_token): the
 *   token pool gets total memory x mem_fraction_static minus what is used after the weights
 *   load; activations and CUDA graphs live in the remaining 1 - mem_fraction_static; pages
 *   of 1 token.
 * - TensorRT-LLM (KvCacheConfig.free_gpu_memory_fraction): the KV cache gets that fraction
 *   of the memory free after the engine and its activation buffers are allocated; blocks of
 *   tokens_per_block tokens.
 * - llama.cpp (llama_context): the KV cache holds n_ctx tokens, allocated at start; compute
 *   buffers for n_batch tokens; q8_0/q4_0 KV formats through hwfit_memory_in::kv.
 * The memory figures come from shard.h (weights, KV per token, activation workspace of a
 * forward pass of a chunk), the times from perf.h (prefill and decode rooflines with the
 * tensor-parallel all-reduces of collective.h).
 *
 * Thread safety: every function is reentrant and touches only its arguments.
 */
#ifndef HWFIT_SERVE_H
#define HWFIT_SERVE_H

#include "hwfit/gpu.h"
#include "hwfit/model.h"
#include "hwfit/perf.h"
#include "hwfit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup serve Serving
 *  @brief KV-cache capacity, concurrency and token rates as serving engines allocate and
 *  run them. Thread safety: all functions are reentrant.
 *  @{ */

/** @brief A serving engine whose memory accounting and defaults are modelled. Append only. */
typedef enum hwfit_serve_engine {
    HWFIT_SERVE_VLLM = 0,         /**< vLLM (V1 engine). */
    HWFIT_SERVE_SGLANG = 1,       /**< SGLang. */
    HWFIT_SERVE_TENSORRT_LLM = 2, /**< NVIDIA TensorRT-LLM. */
    HWFIT_SERVE_LLAMA_CPP = 3     /**< llama.cpp (llama-server, llama-bench). */
} hwfit_serve_engine;

/** @brief The resource that bounds a figure. Append only. */
typedef enum hwfit_serve_bound {
    HWFIT_SERVE_BOUND_COMPUTE = 0,      /**< Tensor throughput. */
    HWFIT_SERVE_BOUND_MEMORY = 1,       /**< Memory bandwidth (weights and KV reads). */
    HWFIT_SERVE_BOUND_KV_CAPACITY = 2,  /**< KV-cache capacity caps the concurrency. */
    HWFIT_SERVE_BOUND_INTERCONNECT = 3, /**< Collectives between the cards. */
    HWFIT_SERVE_BOUND_OVERHEAD = 4,     /**< The engine's fixed time per step (scheduling,
                                             sampling, launches). */
    HWFIT_SERVE_BOUND_CONCURRENCY = 5   /**< The engine's sequence limit (max_num_seqs) or the
                                             requested concurrency caps the batch. */
} hwfit_serve_bound;

/** @brief Inputs of ::hwfit_serve_estimate. Fill with ::hwfit_serve_init and
 *  ::hwfit_serve_set_gpu, then set the model's formats and layout in perf.shard. A field
 *  whose default is "the engine's" takes the engine profile's value (hwfit_serve_out says
 *  which value was used) when left at 0 (or below 0 where stated). */
typedef struct hwfit_serve_in {
    hwfit_perf_in perf;       /**< Card rates, topology, formats (perf.shard.memory.weights,
                                   unquantized, keep_embeddings, kv) and layout
                                   (perf.shard.layout, perf.shard.gpus). The estimate sets
                                   itself perf.shard.utilization, the memory batch, context,
                                   prefill_chunk and overhead_bytes, perf.output_tokens,
                                   perf.step_overhead_s, perf.moe_active_reads and the
                                   efficiencies below. With llama.cpp the embedding and head
                                   are in the weight format (GGUF quantizes them too). Cards
                                   over several nodes with perf.topology.nics_per_node 0 get
                                   one port per GPU (the HGX reference design). */
    hwfit_serve_engine engine; /**< Engine profile; default ::HWFIT_SERVE_VLLM. */
    uint64_t max_model_len;   /**< Longest sequence the engine admits (vLLM max_model_len,
                                   llama.cpp n_ctx: its KV cache), tokens; 0 (default) =
                                   prompt_tokens + output_tokens. */
    uint64_t prompt_tokens;   /**< Prompt tokens per request; default 1024. */
    uint64_t output_tokens;   /**< Output tokens per request; default 1024. */
    uint64_t concurrency;     /**< Requests in flight; 0 (default) = as many as the KV cache
                                   and max_num_seqs admit (offline throughput, as
                                   trtllm-bench and vLLM's benchmark_throughput run);
                                   llama.cpp: 1. */
    double request_rate;      /**< Requests per second, >= 0; with concurrency 0 the
                                   concurrency becomes rate x (TTFT + output x TPOT) by
                                   Little's law (found by fixed-point iteration), capped as
                                   above; 0 (default) = not given. */
    double utilization;       /**< Engine memory fraction, (0, 1] (vLLM
                                   gpu_memory_utilization of total memory, SGLang
                                   mem_fraction_static, TensorRT-LLM free_gpu_memory_fraction
                                   of free memory); 0 (default) = the engine's (vLLM 0.92,
                                   0.9 before 0.11; SGLang by perf.shard.layout.tp: 0.88 at
                                   1, 0.87 at 2, 0.85 at 4, 0.81 at 8, 0.79 at 16 or more;
                                   TensorRT-LLM 0.9; llama.cpp 1). */
    uint64_t max_num_batched_tokens; /**< Tokens of one forward pass (vLLM
                                   max_num_batched_tokens, SGLang chunked_prefill_size,
                                   TensorRT-LLM max_num_tokens, llama.cpp n_batch); sizes the
                                   activation workspace; 0 (default) = the engine's (vLLM
                                   8192 on cards of 70 GiB or more, else 2048; SGLang 8192,
                                   2048 on cards under 25,000 MiB;
                                   TensorRT-LLM 8192; llama.cpp 2048). */
    uint64_t max_num_seqs;    /**< Sequences per step at most; 0 (default) = the engine's
                                   (vLLM 1024 on cards of 70 GiB or more, else 256; SGLang
                                   and TensorRT-LLM 2048; llama.cpp 1). */
    uint32_t block_size;      /**< KV-cache block (page) in tokens; the token count is
                                   rounded down to whole blocks; 0 (default) = the engine's
                                   (vLLM 16, SGLang 1, TensorRT-LLM 64, llama.cpp 1). */
    int cuda_graphs;          /**< 1 (default): the engine captures CUDA graphs (vLLM counts
                                   their pool before the KV cache); 0: eager mode. */
    double cuda_graph_bytes;  /**< Memory of the CUDA-graph pool per card, bytes; below 0
                                   (default) = the engine's (vLLM 0.5 GiB: its log's "Graph
                                   capturing finished ... took 0.5 GiB" for 7-9B models;
                                   others 0, their graphs live outside the KV budget). */
    double non_torch_bytes;   /**< Memory outside the tensors per card that the engine
                                   accounts before the KV cache (cuBLAS and NCCL workspaces,
                                   the CUDA context where counted), bytes; below 0 (default)
                                   = the engine's (vLLM 0.7 GiB, SGLang 2 GiB, TensorRT-LLM
                                   1 GiB, llama.cpp 0.5 GiB; docs/formulas.md). */
    double activation_factor; /**< Profiled activation peak over memory.h's inference
                                   workspace of a forward pass of max_num_batched_tokens
                                   tokens (plus one fp32 logits row per sequence), >= 1; 0
                                   (default) = the engine's: 1 (vLLM's logged torch peak of
                                   Llama 3.1 8B at 20,000 tokens, 2.07 GiB, is that workspace
                                   within 1 %); vLLM V1 adds a second fp32 copy of the
                                   [max_num_seqs, vocab] logits (its sampler pass); SGLang
                                   does not count activations in its budget. */
    double prefill_efficiency; /**< Achieved share of peak tensor throughput in prefill,
                                   (0, 1]; 0 (default) = the engine's for the card's
                                   generation (fitted, docs/accuracy.md). */
    double decode_efficiency;  /**< The same in decode, (0, 1]; 0 (default) = the engine's. */
    double memory_efficiency;  /**< Achieved share of peak memory bandwidth in decode,
                                   (0, 1]; 0 (default) = the engine's for the card. */
    double step_overhead_s;   /**< Fixed time per decode step, s; below 0 (default) = the
                                   engine's. */
    double fp16_acc16_flop_per_s; /**< FP16 tensor throughput with FP16 accumulate of one
                                   card (hwfit_gpu::fp16_acc16_flop_per_s), FLOP/s, >= 0;
                                   llama.cpp's FP16 matmuls use it where it is above the
                                   FP32-accumulate rate; ::hwfit_serve_set_gpu fills it. */
    uint32_t compute_capability; /**< The card's SM version x 10 (picks the generation's
                                   efficiencies); ::hwfit_serve_set_gpu fills it; 0 = unknown
                                   (Hopper's values). */
    uint32_t engine_version;  /**< The engine's release as major x 10^6 + minor x 10^3 +
                                   patch (vLLM 0.6.3 = 6003); 0 (default) = a current release.
                                   vLLM before 0.8.0 (the V0 engine) profiles a forward pass
                                   of max(max_model_len, 2048) tokens (chunked prefill off,
                                   vllm/config.py SchedulerConfig), defaults to 256
                                   sequences and captures its CUDA graphs after the KV cache
                                   is allocated (no graph pool in the budget). Other engines
                                   read it as a current release. */
} hwfit_serve_in;

/** @brief Result of ::hwfit_serve_estimate. */
typedef struct hwfit_serve_out {
    /* ---- the profile as used ---- */
    double utilization;       /**< Engine memory fraction used. */
    uint64_t max_num_batched_tokens; /**< Tokens per forward pass used. */
    uint64_t max_num_seqs;    /**< Sequence limit used. */
    uint32_t block_size;      /**< Block size used, tokens. */
    uint64_t max_model_len;   /**< Longest sequence, tokens. */
    double prefill_efficiency; /**< Prefill efficiency used, (0, 1]. */
    double decode_efficiency;  /**< Decode efficiency used, (0, 1]. */
    double memory_efficiency;  /**< Memory-bandwidth efficiency used, (0, 1]. */
    double step_overhead_s;    /**< Fixed time per decode step used, s. */
    /* ---- memory, the card that holds the fewest KV tokens ---- */
    uint64_t capacity_bytes;  /**< Memory of one card, bytes. */
    uint64_t budget_bytes;    /**< What the engine lets itself use per card: capacity x
                                   utilization (TensorRT-LLM: the whole capacity), bytes. */
    uint64_t weights_bytes;   /**< Weights on that card, bytes. */
    uint64_t activation_bytes; /**< Profiled activation peak (workspace x factor, plus vLLM
                                   V1's sampler logits) accounted before the KV cache, bytes
                                   (SGLang: 0). */
    uint64_t cuda_graph_bytes; /**< CUDA-graph pool accounted before the KV cache, bytes. */
    uint64_t non_torch_bytes; /**< Memory outside tensors accounted, bytes. */
    uint64_t other_bytes;     /**< Communication buffers and the rest shard.h counts, bytes. */
    uint64_t kv_cache_bytes;  /**< KV cache per card, whole blocks, bytes. */
    uint64_t kv_bytes_per_token; /**< KV bytes one token adds on that card, bytes. */
    uint64_t kv_cache_tokens; /**< Tokens the KV cache holds (per replica), as the engine
                                   logs it (vLLM "GPU KV cache size", SGLang
                                   max_total_num_tokens, TensorRT-LLM "tokens in paged KV
                                   cache"); llama.cpp: max_model_len. */
    uint64_t kv_cache_blocks; /**< kv_cache_tokens / block_size. */
    uint64_t request_tokens;  /**< prompt_tokens + output_tokens. */
    double max_concurrency;   /**< Requests of request_tokens the KV cache holds at once,
                                   over all replicas (vLLM's "Maximum concurrency for N
                                   tokens per request" with N = request_tokens). */
    double max_concurrency_model_len; /**< The same at max_model_len tokens (vLLM's log). */
    int fits;                 /**< 1 when the weights and one request of max_model_len fit. */
    /* ---- rates ---- */
    uint64_t concurrency;     /**< Requests in flight used, over all replicas. */
    hwfit_serve_bound concurrency_bound; /**< What capped it (KV capacity, max_num_seqs or
                                   the request): KV_CAPACITY or CONCURRENCY. */
    double ttft_s;            /**< Time to first token of one request on an idle replica
                                   (prefill), s; queueing not included. */
    hwfit_serve_bound ttft_bound; /**< What bounds it. */
    double tpot_s;            /**< Time per output token at the concurrency, with the
                                   prefill of arriving requests mixed into the steps
                                   (continuous batching), s. */
    hwfit_serve_bound tpot_bound; /**< What bounds it. */
    double output_tokens_per_s; /**< Output tokens per second, all requests and replicas. */
    double output_tokens_per_s_per_user; /**< 1 / tpot_s. */
    double prompt_tokens_per_s; /**< Prompt tokens per second: with output 0, prefill of one
                                   prompt at a time (llama-bench pp); else the prompt tokens
                                   processed alongside output_tokens_per_s. */
    double total_tokens_per_s; /**< Prompt plus output tokens per second. */
    double request_per_s;     /**< Requests completed per second. */
    hwfit_serve_bound throughput_bound; /**< What bounds output_tokens_per_s: KV_CAPACITY
                                   when the concurrency is capped by it, else the step's. */
    hwfit_perf_out perf;      /**< The perf estimate at the concurrency (decode parts). */
} hwfit_serve_out;

/**
 * @brief Default inputs: ::hwfit_perf_init, vLLM, prompt 1024 and output 1024 tokens,
 * concurrency 0 (as many as fit), no request rate, CUDA graphs on, and every engine field
 * at "the engine's" (0, or -1 for the byte and time fields).
 * @param[out] in The inputs; NULL is ignored.
 */
HWFIT_API void hwfit_serve_init(hwfit_serve_in *in);

/**
 * @brief Copy a catalog card: ::hwfit_perf_set_gpu plus its FP16-accumulate rate and compute
 * capability.
 * @param[in,out] in  The inputs; NULL gives ::HWFIT_EINVAL.
 * @param[in]     gpu A catalog row; NULL gives ::HWFIT_EINVAL.
 * @retval HWFIT_OK     copied.
 * @retval HWFIT_EINVAL a pointer is NULL.
 */
HWFIT_API hwfit_status hwfit_serve_set_gpu(hwfit_serve_in *in, const hwfit_gpu *gpu);

/**
 * @brief KV capacity, concurrency and rates of serving @p model with an engine.
 * @param[in]  model The model; NULL gives ::HWFIT_EINVAL.
 * @param[in]  in    The inputs; NULL gives ::HWFIT_EINVAL.
 * @param[out] out   The estimate; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK           estimated (out->fits may be 0: the weights or one request of
 *                            max_model_len do not fit; the rates are then those the cards
 *                            would reach).
 * @retval HWFIT_EINVAL       a pointer is NULL, or an enum or dtype is invalid.
 * @retval HWFIT_EDOM         an input is out of range (see ::hwfit_serve_validate).
 * @retval HWFIT_ELAYOUT      the layout is invalid.
 * @retval HWFIT_EUNSUPPORTED the card lacks the math format, or as ::hwfit_perf_estimate.
 * @retval HWFIT_ERANGE       a size overflows 64 bits.
 */
HWFIT_API hwfit_status hwfit_serve_estimate(const hwfit_model *model, const hwfit_serve_in *in,
                                            hwfit_serve_out *out);

/**
 * @brief Check the inputs of ::hwfit_serve_estimate: which field is wrong, and why. Returns
 * exactly the status ::hwfit_serve_estimate returns. Fields are named as members of
 * ::hwfit_serve_in ("utilization" with "must be in [0, 1] (0: the engine's)",
 * "prompt_tokens"); a refusal of the memory fit names the field as ::hwfit_shard_validate
 * does (a field of perf.shard: "layout.tp"), one of the timing as ::hwfit_perf_validate
 * does (a field of perf: "shard.layout.tp", "precision").
 * @param[in]  model   The model; NULL gives ::HWFIT_EINVAL (field "model").
 * @param[in]  in      The inputs; NULL gives ::HWFIT_EINVAL (field "in").
 * @param[out] problem The field at fault and the rule it breaks, or cleared; may be NULL.
 * @return The status of ::hwfit_serve_estimate.
 */
HWFIT_API hwfit_status hwfit_serve_validate(const hwfit_model *model, const hwfit_serve_in *in,
                                            hwfit_problem *problem);

/**
 * @brief Name of an engine: "vllm", "sglang", "tensorrt-llm", "llama.cpp".
 * @param[in] engine Any value; unknown values give "unknown".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_serve_engine_name(hwfit_serve_engine engine);

/**
 * @brief Read an engine from its name (as ::hwfit_serve_engine_name gives; "trtllm" and
 * "llamacpp" are accepted too).
 * @param[in]  name   Name; NULL gives ::HWFIT_EINVAL.
 * @param[out] engine The engine; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK        found.
 * @retval HWFIT_EINVAL    a pointer is NULL.
 * @retval HWFIT_ENOTFOUND no such engine.
 */
HWFIT_API hwfit_status hwfit_serve_engine_from_name(const char *name,
                                                    hwfit_serve_engine *engine);

/**
 * @brief Name of a bound: "compute", "memory-bandwidth", "kv-capacity", "interconnect",
 * "overhead", "concurrency".
 * @param[in] bound Any value; unknown values give "unknown".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_serve_bound_name(hwfit_serve_bound bound);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_SERVE_H */

/**
 * @file model.h
 * @brief Architecture arithmetic of decoder-only transformers: exact parameter counts,
 * KV-cache bytes, forward FLOPs.
 *
 * A ::hwfit_model describes a dense or mixture-of-experts decoder: grouped-query or
 * multi-head latent attention (MLA), explicit head dimensions, biases, norms per layer,
 * tied or untied embeddings, attention sinks, sliding-window or chunked-attention layers and
 * extra (multi-token) prediction layers. It is a plain caller-allocated struct without pointers: fill it by hand after
 * ::hwfit_model_init, or from a Hugging Face config.json with hwfit_hf_config_load().
 *
 * Which layers are MoE and which use a sliding window is per layer, in
 * hwfit_model::layer_flags; ::hwfit_model_set_moe_layers and
 * ::hwfit_model_set_sliding_layers fill the common patterns.
 *
 * Counts are exact (uint64_t, overflow reported as ::HWFIT_ERANGE). Parameter counts are
 * decomposable: per part (embedding, head, attention, MLP, experts, shared experts,
 * router, norms) and per layer kind (dense or MoE), so that callers can sum any subset of
 * layers, as pipeline stages do (::hwfit_model_layer_range).
 *
 * Thread safety: every function is reentrant and touches only its arguments.
 */
#ifndef HWFIT_MODEL_H
#define HWFIT_MODEL_H

#include "hwfit/dtype.h"
#include "hwfit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup model Model architecture
 *  @brief Exact parameter counts, KV-cache bytes and FLOPs of decoder transformers.
 *  Thread safety: all functions are reentrant.
 *  @{ */

/** @brief Most decoder layers a ::hwfit_model describes. */
#define HWFIT_MODEL_MAX_LAYERS 1024
/** @brief Largest accepted hidden, vocab, intermediate, expert width, window or context
 *  (2^40); larger values give ::HWFIT_EDOM. */
#define HWFIT_MODEL_MAX_SIZE 1099511627776ull
/** @brief Largest accepted head count, head dimension, rank or expert count (2^24). */
#define HWFIT_MODEL_MAX_DIM 16777216u
/** @brief Size of hwfit_model::name, including the NUL. */
#define HWFIT_MODEL_NAME_SIZE 64

/** @brief hwfit_model::layer_flags bit: the layer's MLP is a mixture of experts. */
#define HWFIT_MODEL_LAYER_MOE 0x01u
/** @brief hwfit_model::layer_flags bit: the layer attends over a sliding window. */
#define HWFIT_MODEL_LAYER_SLIDING 0x02u

/** @name Fused projections of a checkpoint (hwfit_model::fused_modules)
 *  Which projections the checkpoint stores, and its modeling code runs, as one linear
 *  module. The parameters are the same as separate projections'; what changes is the
 *  module a LoRA adapter wraps (hwfit_memory_in::lora_modules).
 *  @{ */
#define HWFIT_MODEL_FUSED_QKV 0x01u     /**< q, k and v in one module of hidden inputs and
                                             q + k + v outputs (Phi-3's qkv_proj). GQA
                                             attention only; ignored for MLA. */
#define HWFIT_MODEL_FUSED_GATE_UP 0x02u /**< The gated MLP's gate and up in one module of
                                             hidden inputs and 2 x width outputs (Phi-3's and
                                             GLM-4-0414's gate_up_proj). Gated MLPs only;
                                             ignored for a plain MLP. */
#define HWFIT_MODEL_FUSED_ALL 0x03u     /**< Both. */
/** @} */

/** @brief Attention kind. */
typedef enum hwfit_model_attention {
    HWFIT_MODEL_ATTENTION_GQA = 0, /**< Multi-head, grouped-query or multi-query attention:
                                        q, k, v, o projections; the KV cache holds K and V. */
    HWFIT_MODEL_ATTENTION_MLA = 1  /**< Multi-head latent attention (DeepSeek-V2/V3): low-rank
                                        q and kv projections; the KV cache holds the latent. */
} hwfit_model_attention;

/** @brief MLP kind. */
typedef enum hwfit_model_mlp {
    HWFIT_MODEL_MLP_GATED = 0, /**< Gated (SwiGLU, GeGLU): gate, up and down matrices. */
    HWFIT_MODEL_MLP_PLAIN = 1  /**< Two matrices, up and down (GPT-2 style GeLU MLP). */
} hwfit_model_mlp;

/** @brief Normalisation kind. */
typedef enum hwfit_model_norm {
    HWFIT_MODEL_NORM_RMS = 0,  /**< RMSNorm: one weight vector (h parameters). */
    HWFIT_MODEL_NORM_LAYER = 1 /**< LayerNorm: weight and bias (2h parameters). */
} hwfit_model_norm;

/** @brief Rule that marks sliding-window layers (::hwfit_model_set_sliding_layers). */
typedef enum hwfit_model_sliding {
    HWFIT_MODEL_SLIDING_NONE = 0,   /**< No layer slides. */
    HWFIT_MODEL_SLIDING_ALL = 1,    /**< Every layer slides (Mistral-7B-v0.1, Phi-3). */
    HWFIT_MODEL_SLIDING_PERIOD = 2, /**< Layer i is full when (i + 1) % period == 0, else
                                         sliding: period 2 alternates (Gemma-2), period 6 gives
                                         five local layers per global one (Gemma-3). */
    HWFIT_MODEL_SLIDING_FROM = 3    /**< Layers i >= first slide (Qwen2 max_window_layers). */
} hwfit_model_sliding;

/** @brief How a checkpoint's weights were quantized (hwfit_model_stored::method): the
 *  `quant_method` of its config's quantization_config. Values are pinned. */
typedef enum hwfit_model_quant {
    HWFIT_MODEL_QUANT_NONE = 0,         /**< No quantization_config. */
    HWFIT_MODEL_QUANT_FP8 = 1,          /**< "fp8" (block or per-tensor scales). */
    HWFIT_MODEL_QUANT_FBGEMM_FP8 = 2,   /**< "fbgemm_fp8" (per-channel scales). */
    HWFIT_MODEL_QUANT_GPTQ = 3,         /**< "gptq". */
    HWFIT_MODEL_QUANT_AWQ = 4,          /**< "awq". */
    HWFIT_MODEL_QUANT_BITSANDBYTES = 5, /**< "bitsandbytes" (4-bit or LLM.int8). */
    HWFIT_MODEL_QUANT_MXFP4 = 6,        /**< "mxfp4" (gpt-oss experts). */
    HWFIT_MODEL_QUANT_COMPRESSED = 7    /**< "compressed-tensors" (llm-compressor). */
} hwfit_model_quant;

/** @name hwfit_model_stored::flags
 *  @{ */
#define HWFIT_STORED_QUANTIZED 0x01u    /**< Some linear weights are quantized. */
#define HWFIT_STORED_DTYPE_GIVEN 0x02u  /**< The config names the checkpoint dtype
                                             (torch_dtype or dtype); else bf16 is assumed. */
#define HWFIT_STORED_ACT_ORDER 0x04u    /**< GPTQ desc_act: a g_idx per input column (int32,
                                             not counted). */
#define HWFIT_STORED_NO_ZERO 0x08u      /**< AWQ zero_point false (zeros still counted). */
#define HWFIT_STORED_BNB_FP4 0x10u      /**< bitsandbytes fp4 codes (the same bytes as nf4). */
#define HWFIT_STORED_SINGLE_LAYER 0x20u /**< A module list names single layers: their
                                             attention and MLP matrices are counted in
                                             hwfit_model_stored::kept_layers; single layers'
                                             experts are taken for every layer. */
/** @} */

/** @name hwfit_model_stored::kept_layers and hwfit_memory_in::kept_layers indices: the
 *  linear matrices of a layer a checkpoint can leave unquantized one by one.
 *  @{ */
#define HWFIT_KEPT_Q 0     /**< q_proj. */
#define HWFIT_KEPT_K 1     /**< k_proj. */
#define HWFIT_KEPT_V 2     /**< v_proj. */
#define HWFIT_KEPT_O 3     /**< o_proj. */
#define HWFIT_KEPT_GATE 4  /**< gate_proj (gated MLPs). */
#define HWFIT_KEPT_UP 5    /**< up_proj. */
#define HWFIT_KEPT_DOWN 6  /**< down_proj. */
#define HWFIT_KEPT_MATRICES 7 /**< Entries of kept_layers. */
/** @} */

/**
 * @brief The formats a checkpoint stores its weights in, as its config.json says
 * (`quantization_config`, `torch_dtype`): read by hwfit_hf_config_load() (hf_quant.h),
 * applied to a workload by hwfit_memory_use_stored(), described in words by
 * hwfit_hf_quant_describe(). ::hwfit_model_init sets it to "not quantized, bf16".
 */
typedef struct hwfit_model_stored {
    hwfit_dtype checkpoint;   /**< What quantization leaves alone: embedding, head, norms,
                                   routers, biases and the modules left unconverted. */
    hwfit_dtype attention;    /**< Q, K, V, O projections (MLA's latent projections). */
    hwfit_dtype mlp;          /**< Dense MLPs and shared experts (gate, up, down). */
    hwfit_dtype experts;      /**< Routed experts. */
    hwfit_model_quant method; /**< The quant_method read. */
    unsigned flags;           /**< HWFIT_STORED_* bits. */
    /* ---- Appended in 0.x. */
    uint16_t kept_layers[HWFIT_KEPT_MATRICES]; /**< Per matrix (HWFIT_KEPT_*): how many
                                   layers the method's module list leaves it unquantized in
                                   by naming single layers ("model.layers.1.mlp",
                                   "model.layers.37.self_attn.o_proj": Unsloth's Dynamic
                                   4-bit llm_int8_skip_modules); those matrices keep
                                   @c checkpoint. 0: none. */
} hwfit_model_stored;

/**
 * @brief A decoder-only transformer. Caller-allocated, no pointers; start with
 * ::hwfit_model_init. Sizes are counts of elements; h = hidden.
 */
typedef struct hwfit_model {
    char name[HWFIT_MODEL_NAME_SIZE]; /**< Label, e.g. the config's model_type; may be empty. */
    uint32_t layers;          /**< Decoder layers L (without extra prediction layers). */
    uint32_t heads;           /**< Query heads a. */
    uint32_t kv_heads;        /**< Key/value heads k (GQA; a = MHA, 1 = MQA). Unused by MLA. */
    uint32_t head_dim;        /**< Query/key head dimension d; 0 = hidden / heads. Unused by MLA
                                   (d = qk_nope_head_dim + qk_rope_head_dim). */
    uint32_t v_head_dim;      /**< Value head dimension; 0 = head_dim. Required by MLA. */
    int attention_softcap;    /**< 1: attention logits are soft-capped, cap x tanh(scores /
                                   cap), before the softmax (Gemma 2 attn_logit_softcapping;
                                   null or absent: 0). */
    uint64_t hidden;          /**< Hidden size h. */
    uint64_t vocab;           /**< Vocabulary size V (rows of the embedding). */
    uint64_t intermediate;    /**< Width of the dense MLP (dense layers). */
    hwfit_model_attention attention; /**< Attention kind. */
    uint32_t q_lora_rank;     /**< MLA: rank of the query down-projection; 0 = full q_proj. */
    uint32_t kv_lora_rank;    /**< MLA: rank of the key/value latent (cached per token). */
    uint32_t qk_nope_head_dim;/**< MLA: per-head query/key dimension without RoPE. */
    uint32_t qk_rope_head_dim;/**< MLA: per-head RoPE dimension (its key part is cached). */
    int q_bias;               /**< 1: the query projection has a bias. */
    int k_bias;               /**< 1: the key projection has a bias. */
    int v_bias;               /**< 1: the value projection has a bias. */
    int o_bias;               /**< 1: the output projection has a bias (MLA: all of its
                                   projections, as DeepSeek's attention_bias). */
    int mlp_bias;             /**< 1: MLP and expert matrices have biases. */
    int qk_norm;              /**< 1: per-head RMSNorm of queries and keys (Qwen3, Gemma-3):
                                   2 * head_dim parameters per layer. */
    hwfit_model_mlp mlp;      /**< MLP kind of dense layers, experts and shared experts. */
    uint32_t experts;         /**< Routed experts E per MoE layer; 0 for dense models. */
    uint32_t experts_per_token; /**< Routed experts used per token (top-k). */
    uint64_t expert_intermediate; /**< Width of one routed expert. */
    uint32_t shared_experts;  /**< Shared experts per MoE layer (always active). */
    uint64_t shared_expert_intermediate; /**< Width of one shared expert. */
    int shared_expert_gate;   /**< 1: a sigmoid gate Linear(h, 1) scales the shared experts
                                   (Qwen2-MoE). */
    int router_bias;          /**< 1: the router has one bias per expert (DeepSeek-V3's and
                                   GLM-4.5's e_score_correction_bias, gpt-oss's router bias). */
    int attention_sinks;      /**< 1: every layer's attention has one learned sink logit per
                                   query head (gpt-oss `sinks`): @c heads parameters per layer,
                                   counted with the attention. */
    hwfit_model_norm norm;    /**< Normalisation kind. */
    uint32_t norms_per_layer; /**< Hidden-size norms per layer: 2 (pre-attention and pre-MLP),
                                   4 for Gemma-2/3 (plus post-attention and post-MLP). */
    int tie_embeddings;       /**< 1: the output head reuses the input embedding. */
    uint64_t sliding_window;  /**< Tokens a sliding-window layer attends to and caches (with
                                   @c chunked_attention: the chunk size). */
    int chunked_attention;    /**< 1: the layers marked ::HWFIT_MODEL_LAYER_SLIDING attend within
                                   fixed chunks of @c sliding_window tokens (Llama 4
                                   attention_chunk_size) instead of a window that slides with
                                   the token: the token at position p (1-based) attends to
                                   ((p - 1) mod sliding_window) + 1 tokens. The KV cache such a
                                   layer holds is bounded by the chunk, as a window's is. */
    uint32_t mtp_layers;      /**< Extra (multi-token) prediction layers (DeepSeek-V3 and
                                   GLM-4.5 num_nextn_predict_layers); reported apart, not in
                                   totals nor in the active count. */
    uint64_t max_context;     /**< Longest context the model was configured for
                                   (max_position_embeddings), tokens; 0 = unknown. */
    uint8_t layer_flags[HWFIT_MODEL_MAX_LAYERS]; /**< Per layer: ::HWFIT_MODEL_LAYER_MOE,
                                   ::HWFIT_MODEL_LAYER_SLIDING. Entries past @c layers are
                                   ignored. */
    /* ---- Appended in 0.2. */
    hwfit_model_stored stored; /**< Formats of the checkpoint's weights (quantization_config);
                                    sizes use them only through hwfit_memory_use_stored(). */
    /* ---- Appended in 0.2.0, twelfth round (LoRA on fused projections). */
    unsigned fused_modules;    /**< HWFIT_MODEL_FUSED_* bits: the projections the checkpoint
                                    fuses into one module; 0 (default): every projection a
                                    module of its own (q_proj, k_proj, v_proj, gate_proj,
                                    up_proj, as Llama). hwfit_hf_config_load() sets
                                    ::HWFIT_MODEL_FUSED_ALL for model_type phi3
                                    (transformers Phi3Attention.qkv_proj and
                                    Phi3MLP.gate_up_proj) and ::HWFIT_MODEL_FUSED_GATE_UP
                                    for glm4 (Glm4MLP.gate_up_proj; its attention has
                                    q_proj, k_proj, v_proj). Parameter counts do not
                                    depend on it; LoRA adapters do when
                                    hwfit_memory_in::lora_modules is
                                    ::HWFIT_MEMORY_LORA_MODULES_CHECKPOINT. */
} hwfit_model;

/** @brief Parameters of one decoder layer of a kind (dense or MoE). */
typedef struct hwfit_model_layer_params {
    uint64_t attention;      /**< Attention projections with their biases, q/k norms and
                                  MLA's latent norms. */
    uint64_t mlp;            /**< Dense MLP (0 in MoE layers). */
    uint64_t experts;        /**< All routed experts (0 in dense layers). */
    uint64_t expert;         /**< One routed expert (0 in dense layers). */
    uint64_t shared_experts; /**< Shared experts and their gate (0 in dense layers). */
    uint64_t router;         /**< Router weights and biases (0 in dense layers). */
    uint64_t norms;          /**< The layer's hidden-size norms. */
    uint64_t total;          /**< Sum of the parts above (expert excluded). */
    uint64_t active;         /**< Used per token: total minus the routed experts not chosen. */
} hwfit_model_layer_params;

/** @brief Parameter counts of a whole model (::hwfit_model_params). */
typedef struct hwfit_model_param_counts {
    uint64_t total;          /**< Every parameter of the main model (extra prediction layers
                                  excluded): embedding + head + attention + mlp + experts +
                                  shared_experts + router + norms. */
    uint64_t active;         /**< Parameters used per token (routed experts: top-k only). */
    uint64_t embedding;      /**< Input embedding, V x h. */
    uint64_t head;           /**< Output head, V x h; 0 when tied. */
    uint64_t attention;      /**< All layers' attention. */
    uint64_t mlp;            /**< All dense MLPs. */
    uint64_t experts;        /**< All routed experts. */
    uint64_t shared_experts; /**< All shared experts and gates. */
    uint64_t router;         /**< All routers. */
    uint64_t norms;          /**< All layer norms and the final norm. */
    uint64_t final_norm;     /**< The final norm before the head. */
    uint32_t dense_layers;   /**< Layers with a dense MLP. */
    uint32_t moe_layers;     /**< Layers with a mixture of experts. */
    hwfit_model_layer_params dense; /**< One dense layer (zeros when dense_layers is 0). */
    hwfit_model_layer_params moe;   /**< One MoE layer (zeros when moe_layers is 0). */
    uint32_t mtp_layers;     /**< Extra prediction layers. */
    uint64_t mtp_layer;      /**< One extra prediction layer: a decoder layer plus its two
                                  input norms, its 2h x h projection and its output norm
                                  (embedding and head are shared with the main model). */
    uint64_t mtp;            /**< mtp_layers * mtp_layer; not in total. */
} hwfit_model_param_counts;

/** @brief Counts over a contiguous range of decoder layers (::hwfit_model_layer_range). */
typedef struct hwfit_model_range {
    uint32_t layers;         /**< Layers in the range. */
    uint32_t dense_layers;   /**< Of which dense. */
    uint32_t moe_layers;     /**< Of which MoE. */
    uint32_t sliding_layers; /**< Of which sliding-window. */
    uint32_t full_layers;    /**< Of which full attention. */
    uint64_t params;         /**< Parameters of the range's layers. */
    uint64_t active;         /**< Active parameters of the range's layers. */
} hwfit_model_range;

/** @brief Inputs of ::hwfit_model_kv. Fill with ::hwfit_model_kv_init. */
typedef struct hwfit_model_kv_in {
    hwfit_dtype dtype;     /**< Cache format; default bf16. */
    uint64_t batch;        /**< Sequences held, >= 1; default 1. */
    uint64_t context;      /**< Tokens per sequence, >= 1; default 4096. */
    uint32_t first_layer;  /**< First decoder layer counted; default 0. */
    uint32_t layer_count;  /**< Layers counted from first_layer; 0 (default) = to the last. */
    int include_mtp;       /**< 1: add the extra prediction layers' caches; default 0. */
} hwfit_model_kv_in;

/** @brief KV-cache sizes (::hwfit_model_kv). */
typedef struct hwfit_model_kv_out {
    uint64_t layer_bytes_per_token;   /**< One layer, one token: K and V (MLA: the latent of
                                           kv_lora_rank + qk_rope_head_dim values), bytes. */
    uint64_t full_layers;             /**< Full-attention layers counted. */
    uint64_t sliding_layers;          /**< Sliding-window layers counted. */
    uint64_t window_tokens;           /**< Window of the sliding layers, tokens (0 if none). */
    uint64_t bytes_per_token;         /**< All counted layers, one token, bytes: what each
                                           token adds while the context fits every window. */
    uint64_t full_tokens;             /**< Tokens a full layer holds per sequence (context). */
    uint64_t sliding_tokens;          /**< Tokens a sliding layer holds per sequence:
                                           min(context, window). */
    uint64_t bytes;                   /**< batch * (full_layers * full_tokens + sliding_layers
                                           * sliding_tokens) * layer_bytes_per_token, bytes. */
} hwfit_model_kv_out;

/** @brief Forward FLOPs per token (::hwfit_model_flops). */
typedef struct hwfit_model_flops_out {
    double matmul_flop;     /**< 2 per active weight of the layers and the head (the head's
                                 matmul counts even when tied), FLOP per token. */
    double attention_flop;  /**< Scores and weighted values over the attended tokens:
                                 2 a (d + d_v) per attended token per layer, FLOP per token. */
    double forward_flop;    /**< matmul_flop + attention_flop, FLOP per token. */
    double training_flop;   /**< 3 x forward_flop (forward and backward), FLOP per token. */
} hwfit_model_flops_out;

/**
 * @brief Reset a model to an empty description with defaults: GQA attention, gated MLP,
 * RMSNorm, 2 norms per layer, untied, no MoE, no sliding window, every size 0.
 * @param[out] model The model; NULL is ignored.
 */
HWFIT_API void hwfit_model_init(hwfit_model *model);

/**
 * @brief Mark MoE layers: layer i (< layers) is MoE when i >= first_dense and
 * i % step == offset; every other layer is dense. Mixtral: (0, 1, 0); DeepSeek:
 * (first_k_dense_replace, moe_layer_freq, 0); Qwen-MoE decoder_sparse_step s: (0, s, s - 1).
 * @param[in,out] model       The model, with @c layers set; NULL gives ::HWFIT_EINVAL.
 * @param[in]     first_dense Leading layers that stay dense.
 * @param[in]     step        Period, >= 1.
 * @param[in]     offset      Residue within the period, < step.
 * @retval HWFIT_OK     marked.
 * @retval HWFIT_EINVAL @p model is NULL.
 * @retval HWFIT_EDOM   layers is 0 or above ::HWFIT_MODEL_MAX_LAYERS, step is 0, or
 *                      offset >= step.
 */
HWFIT_API hwfit_status hwfit_model_set_moe_layers(hwfit_model *model, uint32_t first_dense,
                                                  uint32_t step, uint32_t offset);

/**
 * @brief Mark sliding-window layers by a rule (see ::hwfit_model_sliding). Set
 * hwfit_model::sliding_window separately.
 * @param[in,out] model The model, with @c layers set; NULL gives ::HWFIT_EINVAL.
 * @param[in]     rule  The rule.
 * @param[in]     param The period (PERIOD, >= 1) or first sliding layer (FROM); else ignored.
 * @retval HWFIT_OK     marked.
 * @retval HWFIT_EINVAL @p model is NULL or @p rule unknown.
 * @retval HWFIT_EDOM   layers is 0 or above ::HWFIT_MODEL_MAX_LAYERS, or period 0.
 */
HWFIT_API hwfit_status hwfit_model_set_sliding_layers(hwfit_model *model,
                                                      hwfit_model_sliding rule, uint32_t param);

/**
 * @brief Check that a model is consistent and every count fits 64 bits.
 * @param[in] model The model; NULL gives ::HWFIT_EINVAL.
 * @retval HWFIT_OK     valid.
 * @retval HWFIT_EINVAL @p model is NULL or an enum is out of range.
 * @retval HWFIT_EDOM   a size is 0 where one is needed, heads not a multiple of kv_heads,
 *                      hidden not a multiple of heads when head_dim is 0, top-k above the
 *                      expert count, MoE layers without experts, sliding layers without a
 *                      window, layers above ::HWFIT_MODEL_MAX_LAYERS, a size above
 *                      ::HWFIT_MODEL_MAX_SIZE or a dimension above ::HWFIT_MODEL_MAX_DIM.
 * @retval HWFIT_ERANGE a parameter count overflows 64 bits.
 */
HWFIT_API hwfit_status hwfit_model_check(const hwfit_model *model);

/**
 * @brief Check a model as ::hwfit_model_check does, and say which field is wrong and why.
 * @param[in]  model   The model; NULL gives ::HWFIT_EINVAL (field "model").
 * @param[out] problem The field at fault ("model.kv_heads"; "model" for a count that
 *                     overflows) and the rule it breaks, or cleared when the model is
 *                     valid; may be NULL.
 * @return The status of ::hwfit_model_check for @p model.
 */
HWFIT_API hwfit_status hwfit_model_validate(const hwfit_model *model, hwfit_problem *problem);

/**
 * @brief Exact parameter counts, in total, active per token, per part and per layer kind.
 * @param[in]  model The model; NULL gives ::HWFIT_EINVAL.
 * @param[out] out   The counts; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK     computed.
 * @retval HWFIT_EINVAL a pointer is NULL or an enum is out of range.
 * @retval HWFIT_EDOM   the model is inconsistent (see ::hwfit_model_check).
 * @retval HWFIT_ERANGE a count overflows 64 bits.
 */
HWFIT_API hwfit_status hwfit_model_params(const hwfit_model *model,
                                          hwfit_model_param_counts *out);

/**
 * @brief Layer kinds and parameters of decoder layers [first, first + count).
 * @param[in]  model The model; NULL gives ::HWFIT_EINVAL.
 * @param[in]  first First layer, < layers.
 * @param[in]  count Layers, >= 1, first + count <= layers.
 * @param[out] out   The sums; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK     computed.
 * @retval HWFIT_EINVAL a pointer is NULL or an enum is out of range.
 * @retval HWFIT_EDOM   the range is empty or outside the model, or the model is invalid.
 * @retval HWFIT_ERANGE a count overflows 64 bits.
 */
HWFIT_API hwfit_status hwfit_model_layer_range(const hwfit_model *model, uint32_t first,
                                               uint32_t count, hwfit_model_range *out);

/**
 * @brief Default KV inputs: bf16, batch 1, context 4096, all layers, no MTP layers.
 * @param[out] in The inputs; NULL is ignored.
 */
HWFIT_API void hwfit_model_kv_init(hwfit_model_kv_in *in);

/**
 * @brief KV-cache bytes per token and for a batch and context. Sliding-window layers hold
 * at most their window; MLA layers hold their latent (kv_lora_rank + qk_rope_head_dim
 * values per token); GQA layers hold kv_heads x (head_dim + v_head_dim) values per token.
 * Block formats round each token's row of a layer up to whole blocks.
 * @param[in]  model The model; NULL gives ::HWFIT_EINVAL.
 * @param[in]  in    The inputs; NULL gives ::HWFIT_EINVAL.
 * @param[out] out   The sizes; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK     computed.
 * @retval HWFIT_EINVAL a pointer is NULL, an enum is out of range or the dtype is unknown.
 * @retval HWFIT_EDOM   batch or context is 0, the layer range is outside the model, the
 *                      dtype's group is invalid, or the model is invalid.
 * @retval HWFIT_ERANGE a size overflows 64 bits.
 */
HWFIT_API hwfit_status hwfit_model_kv(const hwfit_model *model, const hwfit_model_kv_in *in,
                                      hwfit_model_kv_out *out);

/**
 * @brief Check the inputs of ::hwfit_model_kv: which field is wrong, and why.
 *
 * Runs the same code as ::hwfit_model_kv on the same inputs without writing results, so
 * it returns exactly the status that ::hwfit_model_kv returns (given a non-NULL output).
 * @param[in]  model   The model; NULL gives ::HWFIT_EINVAL (field "model").
 * @param[in]  in      The inputs; NULL gives ::HWFIT_EINVAL (field "in").
 * @param[out] problem The field at fault ("batch", "model.heads") and the rule it breaks,
 *                     or cleared when the inputs are valid; may be NULL.
 * @return The status of ::hwfit_model_kv for @p model and @p in.
 */
HWFIT_API hwfit_status hwfit_model_kv_validate(const hwfit_model *model,
                                               const hwfit_model_kv_in *in,
                                               hwfit_problem *problem);

/**
 * @brief Forward FLOPs per token at a given attended context: 2 FLOPs per active weight
 * (Kaplan et al. 2020, "Scaling Laws", section 2.1) plus attention scores and weighted
 * values, 2 a (d + d_v) FLOPs per attended token per layer (sliding layers attend to at
 * most their window). Training is 3 x forward (backward = 2 x forward).
 * @param[in]  model   The model; NULL gives ::HWFIT_EINVAL.
 * @param[in]  context Tokens attended to (the position of the token), >= 1.
 * @param[out] out     FLOPs; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK     computed.
 * @retval HWFIT_EINVAL a pointer is NULL or an enum is out of range.
 * @retval HWFIT_EDOM   @p context is 0 or the model is invalid.
 * @retval HWFIT_ERANGE a count overflows 64 bits.
 */
HWFIT_API hwfit_status hwfit_model_flops(const hwfit_model *model, uint64_t context,
                                         hwfit_model_flops_out *out);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_MODEL_H */

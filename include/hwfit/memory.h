/**
 * @file memory.h
 * @brief Memory footprint of one workload: weights, KV cache, activations, gradients,
 * optimizer states and runtime overhead, for inference and for full, LoRA and QLoRA
 * fine-tuning.
 *
 * ::hwfit_memory_estimate sums the footprint of a ::hwfit_model on one device. By default
 * the device holds the whole model; the layer range and the embedding/head switches of
 * ::hwfit_memory_in describe a pipeline stage instead, and tensor_parallel divides the
 * activations as Korthikanti et al. (2022) do, so that a sharding layer can reuse every
 * formula here for each card. Weights, KV cache, gradients and optimizer states are not
 * divided by any parallelism here.
 *
 * Training activations follow Korthikanti et al. 2022, "Reducing Activation Recomputation
 * in Large Transformer Models" (arXiv:2205.05198), Table 2, generalised to grouped-query
 * attention, explicit head dimensions and gated MLPs (docs/formulas.md):
 * with 16-bit activations, dropout and a 4h GeLU MLP a layer stores sbh(34 + 5as/h) bytes,
 * 34sbh with selective recomputation or flash attention, and 2sbh with full recomputation.
 *
 * Thread safety: every function is reentrant and touches only its arguments.
 */
#ifndef HWFIT_MEMORY_H
#define HWFIT_MEMORY_H

#include "hwfit/dtype.h"
#include "hwfit/model.h"
#include "hwfit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup memory Memory footprint
 *  @brief Weights, KV cache, activations, gradients, optimizer states, overhead.
 *  Thread safety: all functions are reentrant.
 *  @{ */

/** @brief What the device does. */
typedef enum hwfit_memory_mode {
    HWFIT_MEMORY_INFERENCE = 0, /**< Serving: weights, KV cache, an activation workspace. */
    HWFIT_MEMORY_FULL = 1,      /**< Full fine-tuning or training: every parameter trains. */
    HWFIT_MEMORY_LORA = 2,      /**< LoRA (Hu et al. 2021): frozen base, trained adapters. */
    HWFIT_MEMORY_QLORA = 3      /**< QLoRA (Dettmers et al. 2023): LoRA on a base stored in
                                     hwfit_memory_in::qlora_base (nf4 with double quant). */
} hwfit_memory_mode;

/** @brief Optimizer of the trained parameters. */
typedef enum hwfit_memory_optimizer {
    HWFIT_MEMORY_ADAMW = 0,      /**< AdamW (Loshchilov and Hutter 2019): two fp32 moments,
                                      8 bytes per trained parameter. */
    HWFIT_MEMORY_ADAMW_8BIT = 1, /**< 8-bit AdamW (Dettmers et al. 2022, bitsandbytes): two
                                      8-bit moments, 2 bytes per parameter (block statistics
                                      not counted). */
    HWFIT_MEMORY_SGD = 2,        /**< SGD with momentum: one buffer in optimizer_states'
                                      format, 4 bytes in fp32. */
    HWFIT_MEMORY_SGD_PLAIN = 3   /**< SGD without momentum (torch.optim.SGD's default,
                                      momentum 0: its step keeps no momentum_buffer): no
                                      state; fp32 master weights still count where they
                                      exist. */
} hwfit_memory_optimizer;

/** @brief How the loss is computed from the last hidden states (the logits' memory). */
typedef enum hwfit_memory_loss {
    HWFIT_MEMORY_LOSS_FP32 = 0,    /**< Megatron-LM's accounting: fp32 logits and the output
                                        layer's input, 4sbh(1 + V/h) bytes (its
                                        theoretical_memory_usage.py); the default. */
    HWFIT_MEMORY_LOSS_UPCAST = 1,  /**< The whole vocabulary's logits in the activation
                                        format, upcast to fp32, fp32 log-softmax kept for
                                        backward and its fp32 gradient (transformers'
                                        ForCausalLMLoss, PyTorch cross_entropy): (A + 12) sbV. */
    HWFIT_MEMORY_LOSS_CHUNKED = 2, /**< Logits in the activation format, upcast and
                                        reduced in chunks (torchtune CEWithChunkedOutputLoss,
                                        8 chunks): A sbV + 12 sbV / 8. */
    HWFIT_MEMORY_LOSS_FUSED = 3,   /**< Fused linear cross-entropy: logits never held whole
                                        (Liger FusedLinearCrossEntropy, Apple Cut Cross
                                        Entropy, Unsloth): the fp32 gradient of the last
                                        hidden states, 4sbh. */
    HWFIT_MEMORY_LOSS_FP32_COPY = 4, /**< Megatron's vocab-parallel cross-entropy as its code
                                        runs: the output layer's logits in the activation
                                        format stay referenced (GPTModel.forward's
                                        `logits`) beside the fp32 copy the loss makes and
                                        keeps (cross_entropy.py calculate_logits_max:
                                        vocab_parallel_logits.float()): 4sbh + (A + 4) sbV. */
    HWFIT_MEMORY_LOSS_INPLACE = 5,  /**< The whole vocabulary's logits held in the activation
                                        format, the loss computed row by row in one kernel
                                        that upcasts inside it (a log-sum-exp and a loss per
                                        token kept in fp32) and writes the gradient over the
                                        logits (Unsloth's Fast_CrossEntropyLoss, before its
                                        Cut Cross Entropy of November 2024):
                                        4sbh + A sbV + 8sb. */
    HWFIT_MEMORY_LOSS_CHUNKED_INPLACE = 6, /**< The whole vocabulary's logits held in the
                                        activation format and saved by an autograd function
                                        that runs PyTorch's cross-entropy over
                                        @c loss_chunk_tokens rows at a time and writes each
                                        chunk's gradient over the logits (ms-swift's
                                        ChunkedCrossEntropyLoss, swift/sequence_parallel/
                                        utils.py, used under sequence parallelism with
                                        CELOSS_PARALLEL_SIZE): 4sbh + A sbV + A sb, and
                                        once per card one chunk's backward work (its
                                        log-softmax, their gradient and the logits'
                                        gradient, all in the activation format):
                                        3 A min(c, sb) V. */
    HWFIT_MEMORY_LOSS_INPLACE_CAST = 7, /**< As ::HWFIT_MEMORY_LOSS_INPLACE, with the head's
                                        logits converted to another 16-bit format before
                                        the loss: the head computes in the run's format
                                        and Unsloth's CausalLM_fast_forward (2024-03 to
                                        its Cut Cross Entropy of 2024-11) does
                                        `logits.to(config.torch_dtype)`, the checkpoint's
                                        format, which transformers keeps when a run loads
                                        it in another (float16 on a card without bf16,
                                        huggingface/transformers#29955). Both copies are
                                        live while forward casts the logits and while
                                        backward casts their gradient back, before the
                                        last layer is recomputed: the loss keeps
                                        4sbh + A sbV + 8sb and the forward phase holds
                                        A sbV more. */
    HWFIT_MEMORY_LOSS_UPCAST_FREED = 8, /**< As ::HWFIT_MEMORY_LOSS_UPCAST, with the loop
                                        dropping its reference to the logits before
                                        backward (torchtitan's train.py: `loss =
                                        loss_fn(pred, labels)`, `del pred` "need to free to
                                        before bwd to avoid peaking memory", then
                                        `loss.backward()`): nothing else holds the logits in
                                        the activation format (the upcast's backward saves
                                        no input, log-softmax saves its fp32 output), so the
                                        loss's backward holds the fp32 log-softmax, the
                                        loss's gradient and the log-softmax's, 4sbh + 12 sbV;
                                        the forward's end (logits, fp32 copy, log-softmax:
                                        A + 8 a logit) stays below it. */
    HWFIT_MEMORY_LOSS_COMPILED = 9,/**< The whole vocabulary's cross-entropy compiled on its
                                        own, the upcast inside it (torchtitan's
                                        build_cross_entropy_loss with compile.components
                                        'loss': torch.compile of cross_entropy(
                                        pred.float(), labels)). Inductor fuses the upcast and
                                        the log-softmax into reductions, and AOTAutograd's
                                        min-cut partitioner saves the graph's A-byte input
                                        and the per-row reductions (a reduction's output is
                                        not recomputed, the pointwise upcast and exp are):
                                        no fp32 logit is ever held whole. The backward
                                        recomputes them from the saved logits and writes
                                        the A-byte gradient beside them: 4sbh + 2A sbV at the
                                        loss's backward, A sbV at the forward's end. The
                                        saved tensor is the logits themselves, so a loop that
                                        keeps or drops its reference holds the same. */
    HWFIT_MEMORY_LOSS_FUSED_CHUNKED = 10, /**< Unsloth's fused loss since release 2025.8.5
                                        (unsloth_zoo fused_losses/cross_entropy_loss.py,
                                        UnslothFusedLoss): the loss and its gradient are
                                        computed inside the forward, the micro-batch's rows
                                        split into n chunks (get_chunk_size) sized by a
                                        target T (@c loss_target_bytes, @c loss_free_share,
                                        @c card_bytes, @c loss_chunks_round_up). Each chunk
                                        runs one compiled function (torch.compile of
                                        torch.func.grad_and_value): the chunk's logits and
                                        their gradient in the activation format, the upcast
                                        and log-softmax fused into row reductions, 2 A c V
                                        for c rows, at the forward's end only. Kept to
                                        backward: the gradient of the hidden states (A sbh),
                                        beside the head's input (4sbh). */
    HWFIT_MEMORY_LOSS_TRL_CHUNKED = 11, /**< TRL's chunked_nll (trl/trainer/sft_trainer.py,
                                        _chunked_cross_entropy_loss, TRL 1.4.0 on; the
                                        default loss of SFTTrainer from 1.7.0 unless Liger):
                                        the backbone's last hidden states projected c rows at
                                        a time under non-reentrant checkpointing, each
                                        chunk `h.float() @ w.float().t()`, log-softmax, loss,
                                        accuracy and entropy. Per token as
                                        ::HWFIT_MEMORY_LOSS_FUSED (8h); once, at the forward's
                                        end and the loss's backward, one chunk's work,
                                        (A + 12) c V / t, and the head's weight as the chunk's
                                        matmul uses it (saved as mat2 until the chunk's
                                        backward): a 16-bit head under autocast (16-bit
                                        activations) keeps its cast V h A beside a V h 4
                                        transient made by `w.float()`; an fp32 head under
                                        autocast keeps V h A (autocast caches no cast of a
                                        frozen weight); a 16-bit head without autocast keeps
                                        its fp32 copy V h 4; an fp32 head without autocast,
                                        nothing. c = min(@c loss_chunk_tokens, s b): TRL's
                                        chunk is 256 rows (_CHUNKED_LM_HEAD_CHUNK_SIZE, the
                                        same from 1.4.0 to 1.9.0), which the trl profile sets
                                        and the request layer takes when no chunk is given. */
    HWFIT_MEMORY_LOSS_LIGER = 12   /**< Liger-Kernel's patched forward (use_liger_kernel):
                                        in training as ::HWFIT_MEMORY_LOSS_FUSED (its fused
                                        linear cross-entropy); in evaluation (model.eval())
                                        it materializes the whole logits and calls the
                                        model's own loss (liger_kernel/transformers/model/
                                        qwen3.py and its siblings, lce_forward: "if in
                                        inference mode materialize logits", then
                                        self.loss_function, transformers' ForCausalLMLoss),
                                        so the evaluation forward holds the A-byte logits,
                                        their fp32 copy and fp32 log-softmax: as
                                        ::HWFIT_MEMORY_LOSS_UPCAST_FREED's evaluation.
                                        Apple's Cut Cross Entropy stays fused in evaluation
                                        (its patch's train_only defaults to off):
                                        ::HWFIT_MEMORY_LOSS_FUSED. */
} hwfit_memory_loss;

/** @brief The phase that sets the training peak (hwfit_memory_out::peak_phase). */
typedef enum hwfit_memory_phase {
    HWFIT_MEMORY_PHASE_FORWARD = 0,  /**< End of the forward pass: stored activations and the
                                          logits and loss (inference: the only phase). */
    HWFIT_MEMORY_PHASE_BACKWARD = 1, /**< Backward pass: activations freed as gradients
                                          appear, the recomputed layer live. */
    HWFIT_MEMORY_PHASE_STEP = 2,     /**< Optimizer step: whole gradients, states and the
                                          step's temporaries. */
    HWFIT_MEMORY_PHASE_LOAD = 3,     /**< Model load: the weights on the device and the
                                          temporaries of quantizing one of them there
                                          (hwfit_memory_in::load_quantize_bytes). */
    HWFIT_MEMORY_PHASE_EVALUATION = 4 /**< Evaluation inside training
                                          (hwfit_memory_in::evaluation): a no-grad forward at
                                          the evaluation batch beside the weights and the
                                          optimizer's states. */
} hwfit_memory_phase;

/** @brief Activation recomputation (Korthikanti et al. 2022). */
typedef enum hwfit_memory_recompute {
    HWFIT_MEMORY_RECOMPUTE_NONE = 0,      /**< Store every activation the backward pass needs. */
    HWFIT_MEMORY_RECOMPUTE_SELECTIVE = 1, /**< Recompute the attention core (the s^2 terms),
                                               or what hwfit_memory_in::selective says. */
    HWFIT_MEMORY_RECOMPUTE_FULL = 2       /**< Store each layer's input only; recompute the
                                               layer during backward (one layer at a time). */
} hwfit_memory_recompute;

/** @brief What selective recomputation (::HWFIT_MEMORY_RECOMPUTE_SELECTIVE) keeps
 * (hwfit_memory_in::selective). */
typedef enum hwfit_memory_selective {
    HWFIT_MEMORY_SELECTIVE_ATTENTION = 0, /**< Korthikanti et al. 2022: every activation but
                                               the attention core's s^2 terms (with flash
                                               attention the same as no recomputation). */
    HWFIT_MEMORY_SELECTIVE_OPS = 1        /**< torchtitan's op-level policy (selective_ac_option
                                               "op", torch.utils.checkpoint's
                                               create_selective_checkpoint_contexts): each
                                               layer keeps its input and the outputs of the
                                               saved ops only, every odd-numbered weight
                                               matmul of the layer (q, v, gate, down; k, o, up
                                               recomputed) and the attention kernel's output
                                               and log-sum-exp; backward recomputes the rest
                                               one layer at a time (docs/formulas.md). Dense
                                               layers with MHA/GQA attention, mode full. */
} hwfit_memory_selective;

/** @brief The modules LoRA adapters wrap (hwfit_memory_in::lora_modules). An adapter wraps a
 * linear module: B (out x r) and A (r x in) for the module's whole output and input. Where
 * a framework runs q, k and v (or gate and up) as one module, one adapter covers them:
 * r x (hidden + q + k + v outputs) instead of r x (3 hidden + q + k + v outputs), and one
 * LoRA dropout of the module's input. Targeting any part of a fused module adapts the whole
 * module (the framework can name only the module: PEFT's "qkv_proj", Megatron's
 * "linear_qkv"), so hwfit_memory_in::lora_targets "q" on a fused qkv adapts q, k and v. */
typedef enum hwfit_memory_lora_modules {
    HWFIT_MEMORY_LORA_MODULES_SEPARATE = 0,   /**< One adapter per projection (q, k, v, o,
                                                   gate, up, down): Unsloth (its llamafied
                                                   checkpoints), torchtune, LitGPT (its
                                                   LoRAQKVLinear stacks one A per enabled
                                                   projection: the same parameters). */
    HWFIT_MEMORY_LORA_MODULES_CHECKPOINT = 1, /**< The checkpoint's modules
                                                   (hwfit_model::fused_modules): PEFT on the
                                                   Hugging Face model, whose modeling code
                                                   defines the modules (Phi-3's qkv_proj and
                                                   gate_up_proj, GLM-4-0414's gate_up_proj). */
    HWFIT_MEMORY_LORA_MODULES_FUSED = 2       /**< q, k and v fused (GQA attention) and gate
                                                   and up fused (gated MLPs, also per routed
                                                   expert and in the shared experts), whatever
                                                   the checkpoint: Megatron-Core's linear_qkv
                                                   and linear_fc1 (Megatron-LM,
                                                   Megatron-Bridge, Megatron-SWIFT). */
} hwfit_memory_lora_modules;

/** @brief transformers' caching allocator warm-up at load (hwfit_memory_in::load_warmup):
 * `from_pretrained` with a device map (Unsloth always; a script's `device_map="auto"` or
 * `{"": 0}`) first allocates, and frees at once, one block sized from the model's
 * parameters, so that the caching allocator keeps that segment and the weights are carved
 * from it (transformers modeling_utils.py caching_allocator_warmup, from 4.50.0). The block
 * is S' = min(S, cap) bytes unquantized and S' / 2 for a quantized model (bitsandbytes,
 * GPTQ, AWQ: the quantizer's warm-up factor 4 against 2), S = the state dict's entries (a
 * tied head counted twice until 4.53) times the meta model's element size (the load
 * format: the weights' format unquantized, 2 bytes for a quantized model loaded in 16
 * bits), cap = the card's free memory at load (hwfit_memory_in::card_bytes less
 * hwfit_memory_in::overhead_bytes) x 0.95 until 4.51, less 1.2 GiB from 4.52. The rules by
 * release: */
typedef enum hwfit_memory_warmup {
    HWFIT_MEMORY_WARMUP_NONE = 0,           /**< No block: no device map, or transformers
                                                 before 4.50 (default). */
    HWFIT_MEMORY_WARMUP_UNQUANTIZED_95 = 1, /**< 4.50: unquantized models only (`hf_quantizer
                                                 is None`), cap 0.95 x free. */
    HWFIT_MEMORY_WARMUP_95 = 2,             /**< 4.51: quantized models too, cap 0.95 x free. */
    HWFIT_MEMORY_WARMUP_MARGIN = 3,         /**< 4.52 and 4.53: cap free - 1.2 GiB (#37550). */
    HWFIT_MEMORY_WARMUP_MARGIN_UNTIED = 4   /**< 4.54 to 4.57: as 4.52, a tied head counted
                                                 once (_get_tied_weight_keys, #39070). From
                                                 transformers 5 the count takes the
                                                 quantizer's packed element size without a
                                                 factor: the block is the loaded weights'
                                                 size, no floor above them (NONE). */
} hwfit_memory_warmup;

/** @name LoRA target modules (hwfit_memory_in::lora_targets)
 *  MLA maps q_a/q_b (or q) to Q and kv_a/kv_b to K and V; experts and shared experts take
 *  the MLP targets. Routers, embeddings and the head are never targets.
 *  @{ */
#define HWFIT_LORA_Q 0x01u    /**< Query projection. */
#define HWFIT_LORA_K 0x02u    /**< Key projection. */
#define HWFIT_LORA_V 0x04u    /**< Value projection. */
#define HWFIT_LORA_O 0x08u    /**< Output projection. */
#define HWFIT_LORA_GATE 0x10u /**< MLP gate projection. */
#define HWFIT_LORA_UP 0x20u   /**< MLP up projection. */
#define HWFIT_LORA_DOWN 0x40u /**< MLP down projection. */
#define HWFIT_LORA_ATTENTION 0x0fu /**< q, k, v and o. */
#define HWFIT_LORA_ALL 0x7fu  /**< Every linear layer (PEFT "all-linear", as QLoRA trains). */
/** @} */

/** @name Modules trained in full beside LoRA (hwfit_memory_in::full_modules)
 *  PEFT's modules_to_save (ModulesToSaveWrapper), ms-swift's --modules_to_save,
 *  LLaMA-Factory's additional_target: each named module keeps its frozen original and gains
 *  a trainable copy (typically the embedding and the head when tokens are added).
 *  @{ */
#define HWFIT_FULL_EMBEDDING 0x01u /**< The input embedding (embed_tokens), V x h. */
#define HWFIT_FULL_HEAD 0x02u      /**< The output head (lm_head), V x h, a copy of its own
                                        also when the model ties it to the embedding. */
#define HWFIT_FULL_NORMS 0x04u     /**< Every hidden-size norm of the decoder layers held and
                                        the final norm. */
#define HWFIT_FULL_ALL 0x07u       /**< Every bit above. */
/** @} */

/** Earlier record lengths hwfit_memory_in::record_lengths holds. */
#define HWFIT_MEMORY_RECORDS 8

/** @name How attention runs (hwfit_memory_in::flash_attention)
 *  @{ */
#define HWFIT_ATTENTION_EAGER 0 /**< Eager: the s^2 scores (and softmax) stored for backward. */
#define HWFIT_ATTENTION_FLASH 1 /**< A fused kernel for every model (FlashAttention, flex
                                     attention, a sink-aware FlashAttention-3): no scores. */
#define HWFIT_ATTENTION_SDPA 2  /**< transformers' default: PyTorch SDPA (fused) where the
                                     model's attention allows it, eager for a model with
                                     learned attention sinks (hwfit_model::attention_sinks). */
#define HWFIT_ATTENTION_MATH 3  /**< PyTorch SDPA's math backend: what SDPA runs when no fused
                                     kernel takes the call, e.g. transformers passing
                                     enable_gqa (a GQA model, no attention mask: a micro-batch
                                     of one row or rows without padding) on a card without
                                     the flash kernel (before sm80: T4, V100), since the
                                     memory-efficient kernel rejects unequal head counts.
                                     The scores are stored as eager attention stores them,
                                     with half inputs upcast to fp32 (torch >= 2.5,
                                     allow_fp16_bf16_reduction_math_sdp off): the fp32
                                     probabilities kept (4 a score, 12 at their backward) and
                                     fp32 copies of the scaled query, the expanded and scaled
                                     keys and the expanded values in place of their A-byte
                                     inputs. */
/** @} */

/** @brief Inputs of ::hwfit_memory_estimate. Fill with ::hwfit_memory_init, then adjust. */
typedef struct hwfit_memory_in {
    hwfit_memory_mode mode;        /**< What the device does; default inference. */
    hwfit_dtype weights;           /**< Format of the linear weights (inference; full and LoRA
                                        base); default bf16. Full training needs a plain
                                        float format. */
    hwfit_dtype unquantized;       /**< Format of what quantisation leaves alone when the
                                        weights are quantized: norms, biases, routers, and the
                                        embedding and head when keep_embeddings; default bf16. */
    int keep_embeddings;           /**< 1 (default): embedding and head stay in @c unquantized
                                        when the weights are quantized (GPTQ "lm_head": false,
                                        bitsandbytes, most GGUF mixes keep them wider). */
    hwfit_dtype kv;                /**< KV-cache format (inference); default bf16. */
    uint64_t batch;                /**< Inference: sequences served at once, >= 1; default 1. */
    uint64_t context;              /**< Tokens per sequence, >= 1: the KV length (inference) or
                                        the training sequence length s; default 4096. */
    uint64_t prefill_chunk;        /**< Inference: prompt tokens processed in one forward pass
                                        (chunked prefill); 0 = batch x context; default 2048. */
    double overhead_bytes;         /**< Runtime overhead per device: CUDA context, cuBLAS and
                                        NCCL workspaces, allocator slack, bytes in
                                        [0, 2^53]; default 1 GiB (gpu_poor counts 650 MB,
                                        gollama 500 MB per GPU; measure your stack). */
    uint64_t micro_batch;          /**< Training: sequences per micro-batch b, >= 1; default 1. */
    hwfit_memory_optimizer optimizer; /**< Training optimizer; default AdamW. */
    hwfit_dtype gradients;         /**< Format of gradients, a plain float: bf16 (default) or
                                        fp32 (Megatron's main_grad, DeepSpeed's fp32 grads). */
    int master_weights;            /**< 1 (default): an fp32 master copy of trained weights
                                        stored in a 16-bit format (mixed precision,
                                        Micikevicius et al. 2018). */
    hwfit_memory_recompute recompute; /**< Training recomputation; default none. */
    int flash_attention;           /**< How attention runs (::HWFIT_ATTENTION_FLASH and its
                                        siblings): 1 (default): a fused kernel, the s^2
                                        scores never stored (Dao et al. 2022); 0: eager,
                                        the scores stored; 2: PyTorch's SDPA as transformers
                                        picks it, fused for every model but one whose
                                        attention has learned sinks
                                        (hwfit_model::attention_sinks, gpt-oss), which
                                        transformers runs eager (GptOssPreTrainedModel
                                        _supports_sdpa = False; SDPA has no sink term):
                                        hwfit_memory_attention_flash resolves it; 3:
                                        PyTorch SDPA's math backend (::HWFIT_ATTENTION_MATH).
                                        0 to 3. */
    int dropout;                   /**< 1 (default): dropout masks are stored (1 byte per
                                        element), as in Korthikanti et al. Table 2. */
    hwfit_dtype activations;       /**< Format of stored activations, plain; default bf16. */
    uint32_t tensor_parallel;      /**< Tensor-parallel ranks t dividing the activations
                                        (Korthikanti Table 2), >= 1; default 1. */
    int sequence_parallel;         /**< 1: sequence parallelism also divides the norms' and
                                        dropouts' activations by t; default 0. */
    uint32_t lora_rank;            /**< LoRA rank r, >= 1; default 16. */
    unsigned lora_targets;         /**< HWFIT_LORA_* bits, non-empty; default ::HWFIT_LORA_ALL. */
    hwfit_dtype lora_dtype;        /**< Format of adapter weights, plain; default bf16. */
    hwfit_dtype qlora_base;        /**< QLoRA base weights; default nf4-dq. */
    uint32_t first_layer;          /**< First decoder layer on this device; default 0. */
    uint32_t layer_count;          /**< Decoder layers on this device; 0 (default) = to the last. */
    int embedding;                 /**< 1 (default): this device holds the input embedding. */
    int head;                      /**< 1 (default): this device holds the final norm and the
                                        head (a tied head without the embedding on this device
                                        costs a copy of it), and the logits. */
    int mtp;                       /**< 1: the extra prediction layers are loaded and trained
                                        too; default 0 (transformers and vLLM skip them unless
                                        speculative decoding uses them). */
    /* ---- Appended in 0.x: framework choices (docs/formulas.md, "phases and profiles").
     * hwfit_memory_init sets each to the value that keeps the earlier accounting, except
     * that the answer is now the largest phase (peak_bytes) rather than the sum. */
    hwfit_dtype optimizer_states;  /**< Format of the optimizer's moments (AdamW, SGD), plain:
                                        fp32 (default) or bf16 (torchtune, pure-bf16 training
                                        keeps them in the parameter dtype). 8-bit AdamW ignores
                                        it (1 byte per moment). */
    int paged_optimizer;           /**< 1: the moments live in CUDA unified (paged) memory
                                        that the driver evicts to host under pressure
                                        (bitsandbytes Paged*): not counted on the device;
                                        default 0. */
    int optimizer_in_backward;     /**< 1: each parameter is stepped and its gradient freed
                                        during backward (torchtune optimizer_in_bwd): only the
                                        largest layer's gradient is live; default 0. */
    int fused_optimizer;           /**< 1 (default): the step needs no temporaries (fused
                                        AdamW); 0: PyTorch's foreach AdamW allocates one
                                        state-sized list (sqrt of the second moment). */
    int gradient_buffer;           /**< 1: the whole gradient is allocated for the whole step
                                        (Megatron's contiguous grad buffer, DeepSpeed's
                                        partitions, PyTorch DDP's gradient_as_bucket_view, or
                                        accumulation over micro-batches); 0 (default):
                                        gradients appear during backward
                                        (zero_grad(set_to_none=True)). Under plain DDP
                                        (shard, ZeRO 0, no zero_buckets) 0 also means the
                                        Reducer's buckets hold a second copy of the
                                        gradient (::hwfit_shard_in). */
    hwfit_memory_loss loss;        /**< How the loss is computed; default
                                        ::HWFIT_MEMORY_LOSS_FP32. */
    int activation_offload;        /**< 1: stored activations (the checkpoints under full
                                        recomputation) are copied to host memory as they are
                                        made and two layers' worth stay on the device
                                        (Unsloth's offloaded checkpointing, torchtune
                                        enable_activation_offloading); default 0. */
    int compile;                   /**< 1: torch.compile fuses the gated MLP's activation
                                        and product: in training the MLP stores its gate and
                                        up outputs, and the product only when the down
                                        projection's weight or adapter takes a gradient
                                        (the partitioner never recomputes a tensor a
                                        backward matmul reads): 3F, or 2F with a frozen
                                        down projection (instead of eager 3F or 4F with
                                        gated_act_kept); a chunked loss keeps no fp32 work;
                                        an eager norm's upcast is fused (norm_upcast_kept
                                        has no effect); default 0. */
    int softcap_eager;             /**< 1: a model whose attention logits are soft-capped
                                        (hwfit_model::attention_softcap) runs eager attention
                                        even with @c flash_attention, as LitGPT does (its
                                        scaled_dot_product_attention computes q k^T, the
                                        soft-cap and an fp32 softmax itself): every stored
                                        layer keeps, per head and score, the tanh output and
                                        the softmax's copy in the activation format and the
                                        fp32 softmax output, 2A + 4 bytes; default 0. */
    double fragmentation;          /**< The caching allocator's reserve over the peak it
                                        allocated, a fraction in [0, 1]: reserved =
                                        allocated x (1 + fragmentation) (the residual of
                                        rounding and split blocks), plus the logits-sized
                                        blocks the loss strands (expandable_segments);
                                        default 0. */
    int module_formats;            /**< 1: attention_weights, mlp_weights and expert_weights
                                        give the formats of those linear weights, replacing
                                        @c weights (or @c qlora_base) for them; 0 (default):
                                        all linear weights are in one format. */
    hwfit_dtype attention_weights; /**< With module_formats: Q, K, V, O projections (and the
                                        MLA latent projections). */
    hwfit_dtype mlp_weights;       /**< With module_formats: dense MLPs and shared experts
                                        (gate, up, down). */
    hwfit_dtype expert_weights;    /**< With module_formats: routed experts. */
    int dora;                      /**< 1: DoRA (Liu et al. 2024) on the LoRA targets: a
                                        trained magnitude vector per targeted matrix (its
                                        output width) and the base output kept for backward
                                        (peft's DoRA layer); as PEFT's DoraLinearLayer
                                        computes the weight norm, each adapted linear's
                                        temporaries (an I x I identity and three O x I
                                        matrices) join the dequantized-weight slot
                                        (hwfit_memory_out::dequant_bytes), and a base weight
                                        stored in another format than the linear's input
                                        (a quantized base, or 16-bit weights under fp32
                                        hidden states) is saved as a copy with its layer's
                                        tensors (docs/formulas.md, "dora"); default 0. */
    int lora_dropout;              /**< 1: LoRA dropout with p > 0: each targeted matrix's
                                        input passes its own dropout, whose output (activation
                                        format) and mask (1 byte) are kept for backward (PEFT
                                        applies lora_dropout to x per module; LitGPT per
                                        module but once for q, k and v together: see
                                        @c lora_qkv_one_dropout); default 0 (PEFT's
                                        lora_dropout 0.0). */
    int packed;                    /**< 1: several samples packed into each row of
                                        @c context tokens. Memory is counted at the full
                                        context either way; without flash attention (whose
                                        varlen kernels take sequence offsets) the packed
                                        row's block-diagonal mask, A s^2 b bytes in the
                                        activation format, is kept for the whole step
                                        (transformers' 4D attention mask); default 0. */
    int qlora_inputs_kept;         /**< QLoRA: 1: every quantized (frozen) linear layer keeps
                                        its input for backward, as a trained one does
                                        (bitsandbytes' 4-bit matmul, MatMul4Bit, keeps its
                                        input whenever that input needs a gradient); 0
                                        (default): a frozen linear keeps no input (PyTorch
                                        linear, torchao's NF4 linear). */
    int untied_head;               /**< 1: the head is a linear layer of its own even when
                                        the model ties it to the embedding (LitGPT's
                                        checkpoint conversion copies the embedding into
                                        lm_head), in the linear weights' format (quantized
                                        with them); default 0. On an untied model too, the
                                        head is then in the linear weights' format (Lightning's
                                        bitsandbytes plugin replaces every nn.Linear, lm_head
                                        included), the embedding as keep_embeddings says. */
    /* ---- Appended in 0.x: eager kernels and what a training loop keeps (docs/formulas.md,
     * "phases and profiles"). hwfit_memory_init sets each to 0 (the earlier accounting). */
    int gated_act_kept;            /**< 1: a gated MLP run eagerly, down(act(gate) * up),
                                        keeps the activation's output too: the product's
                                        backward needs both its operands (PyTorch saves
                                        act(gate) and up), so a token stores gate, act(gate)
                                        and up, F more than a fused SwiGLU (Megatron's
                                        bias_swiglu, Liger, torch.compile: @c compile wins);
                                        default 0. */
    int kv_repeated;               /**< 1: grouped-query attention repeats K and V to every
                                        query head before the attention kernel, which keeps
                                        the repeated copies for backward (LitGPT's
                                        CausalSelfAttention expands k and v in training:
                                        "flash attention requires it"); default 0. */
    int dequant_transient;         /**< 1: each quantized linear dequantizes its whole weight
                                        to the activation format for the forward matmul and
                                        again for the input gradient (bitsandbytes
                                        MatMul4Bit, torchao's NF4 linear): the largest
                                        quantized matrix held, A x rows x cols / t bytes,
                                        is live at the forward and backward peaks
                                        (hwfit_memory_out::dequant_bytes); default 0. */
    int previous_graph;            /**< 1: the training loop still holds the previous
                                        micro-batch's output while the next forward runs and
                                        through the step (LitGPT finetune/lora.py: `logits =
                                        model(...)` is rebound only when the forward
                                        returns), so that graph's logits, and what its nodes
                                        hold outside autograd's saved tensors (bitsandbytes
                                        MatMul4Bit keeps its input as ctx.tensors: with
                                        qlora_inputs_kept, every 4-bit linear's input), stay
                                        live (hwfit_memory_out::carried_bytes); default 0. */
    /* ---- Appended in 0.x: the load phase (docs/formulas.md, "phases and profiles"). */
    double load_quantize_bytes;    /**< Training: bytes per element live while the largest
                                        quantized matrix is quantized on the device as the
                                        model loads, beyond the quantized weights already
                                        there (torchao 0.1's to_nf4: the bf16 weight, its
                                        scaled copy and the nearest-code search's 16
                                        differences per element and their absolute values,
                                        2 + 2 + 32 + 32 = 68; torchao >= 0.2 searches in
                                        chunks of 2^20 elements: 4). The load phase is the
                                        weights plus that transient; it is the peak when
                                        it exceeds the training phases. 0: weights arrive
                                        quantized or are quantized off the device (the
                                        default); in [0, 1024]. */
    int root_unsharded;            /**< 1: under ZeRO-3 sharding (hwfit_shard_in), the
                                        embedding and head stay gathered from their forward
                                        through backward, beside the live layers: FSDP's
                                        root unit, which an auto-wrap policy over decoder
                                        layers leaves them in (torch FSDP1
                                        _post_forward_reshard does not free the root's
                                        parameters; FSDP2 sets the root's
                                        post_forward_mesh_info to None); default 0
                                        (DeepSpeed gathers them as other units). */
    /* ---- Appended in 0.x: ZeRO-3 and quantized weights (docs/formulas.md, "shard"). */
    int quant_scales_replicated;   /**< 1: under ZeRO-3 sharding (hwfit_shard_in), the block
                                        scales of NF4 weights (nf4, nf4-dq: the absmax per
                                        block of 64 and, double-quantized, their second-level
                                        constants) are neither partitioned nor offloaded:
                                        every card holds the scales of all its layers whole,
                                        and only the packed 4-bit data is sharded, gathered
                                        and offloaded. bitsandbytes keeps them in a
                                        QuantState, a plain attribute of the Params4bit
                                        weight and of its Linear4bit module (which FSDP's
                                        flattening and DeepSpeed's partitioning do not
                                        touch), on the device that quantized the weight:
                                        transformers quantizes on the GPU and then moves only
                                        the weight's .data to the CPU or meta device under
                                        FSDP or ZeRO-3. Default 0 (scales are sharded with
                                        the data). */
    /* ---- Appended in 0.x (docs/formulas.md, "phases and profiles"). */
    int trained_fp32;              /**< 1: the trained parameters themselves are held in
                                        fp32, whatever format the checkpoint loads in, and
                                        autocast makes their 16-bit copies as it runs
                                        (LLaMA-Factory casts them unless pure_bf16:
                                        model/adapter.py, init_adapter,
                                        cast_trainable_params_to_fp32). Training: with mode
                                        full every weight (weights, unquantized and the
                                        per-module formats) counts 4 bytes and no master copy
                                        exists; with LoRA and QLoRA the adapters are fp32
                                        (lora_dtype read as fp32). The gradients and
                                        optimizer moments stay as @c gradients and
                                        @c optimizer_states say (PyTorch makes them in the
                                        parameter's dtype: set both to fp32). A single device
                                        or plain data parallelism. Sharded under ZeRO
                                        (layout zero_stage >= 1) the shard engine holds them
                                        as DeepSpeed's engine does: it casts the module back
                                        to the 16-bit compute format (the activations',
                                        bf16 otherwise; fp32 activations keep the fp32
                                        module) and keeps fp32 master partitions, so
                                        weights, gradients and adapters count 16 bits and
                                        master_weights is on (runtime/engine.py,
                                        _configure_distributed_model). Default 0. */
    /* ---- Appended in 0.x (docs/formulas.md, "loss"). */
    uint32_t loss_chunk_tokens;    /**< Training, loss
                                        ::HWFIT_MEMORY_LOSS_CHUNKED_INPLACE: the rows (tokens)
                                        of logits one cross-entropy chunk works on (ms-swift:
                                        the CELOSS_PARALLEL_SIZE environment variable; its
                                        example scripts set 2048). In [1, 2^32 - 1];
                                        default 2048. Other losses ignore it. */
    /* ---- Appended in 0.x: the load phase under parameter offload (docs/formulas.md,
     * "shard"). */
    int offload_after_load;        /**< 1: under ZeRO-3 sharding with parameter offload
                                        (hwfit_shard_in, HWFIT_SHARD_OFFLOAD_PARAMS), every
                                        card first holds its parameter shards on the device
                                        as the model loads, and one whole tensor at a time
                                        while it is broadcast and split; the offload moves
                                        the shards to host memory only afterwards, and the
                                        caching allocator keeps the freed bytes reserved
                                        (Accelerate's fsdp2_load_full_state_dict with
                                        cpu_ram_efficient_loading: rank 0 broadcasts each
                                        full tensor from the GPU and the shards are loaded
                                        with assign=True on the GPU; torch FSDP2's
                                        reset_sharded_param copies them to pinned host
                                        memory at lazy init). The load phase is then the
                                        shards of the card's parameters plus the largest
                                        unit gathered whole. Default 0 (the offload holds
                                        parameters on the host from the start: FSDP1
                                        offloads each unit as it wraps it, torchtune each
                                        shard as it loads it). */
    /* ---- Appended in 0.x (docs/formulas.md, "Modules trained in full beside LoRA"). */
    unsigned full_modules;         /**< LoRA and QLoRA: HWFIT_FULL_* bits of the modules
                                        trained in full beside the adapters (PEFT
                                        modules_to_save: peft/utils/other.py,
                                        ModulesToSaveWrapper.update deep-copies the module,
                                        freezes the original and trains the copy). Each
                                        named module held on this device counts twice in
                                        the weights (original and copy, in the module's own
                                        format, fp32 with trained_fp32), and its copy has
                                        gradients, optimizer states and, when narrower than
                                        32 bits, an fp32 master copy, as the adapters do; a
                                        sharding layer partitions them as it does every
                                        trained parameter. The module must be in a plain
                                        format. 0 (default): none. Other modes refuse it. */
    /* ---- Appended in 0.x (docs/formulas.md, "phases and profiles": outputs held). */
    int kv_built;                  /**< Training with full recomputation: the forward also
                                        builds the K/V cache of every layer on the device
                                        (transformers' use_cache=True, kept on when the
                                        checkpointing is applied outside the model, e.g.
                                        FSDP's apply_activation_checkpointing, while
                                        gradient_checkpointing_enable turns it off), and
                                        past_key_values holds it until the forward returns:
                                        the values cached per token and layer x tokens x the
                                        activations' bytes / t, in the forward phase
                                        (hwfit_memory_out::outputs_bytes). Without full
                                        recomputation the saved K and V are those very
                                        tensors: nothing more. Default 0. */
    int outputs_kept;              /**< Training: the loop keeps the model's outputs alive
                                        through backward (`outputs = model(**batch)`, then
                                        `outputs.loss.backward()`): the logits (fp32 with
                                        loss upcast, else the activations' format, V / t a
                                        token, on the device with the head) and the K/V
                                        cache of kv_built stay in the backward phase, the
                                        optimizer's step and the next micro-batch's forward
                                        (the loop rebinds its variable only when the next
                                        call returns). Default 0. */
    /* ---- Appended in 0.x (docs/formulas.md, "activations": eager scores). */
    int softmax_fp32;              /**< Training without flash attention (flash_attention
                                        0): the eager softmax runs in fp32 and autograd
                                        keeps its fp32 output (softmax's backward) beside
                                        the 16-bit probabilities the value matmul keeps,
                                        as transformers' eager attention does
                                        (`softmax(scores, dtype=torch.float32).to(dtype)`):
                                        4 + A bytes a score (+ 1 with dropout: the mask;
                                        the dropout output is then the kept A) instead of
                                        Korthikanti et al.'s 16-bit softmax output, A
                                        (+ 1 + A with dropout). No effect with flash
                                        attention or in inference. Default 0. */
    /* ---- Appended in 0.x (docs/formulas.md, "activations": eager RMSNorm). */
    int norm_upcast_kept;          /**< Training, RMSNorm models, not with compile: each
                                        hidden-size norm runs eagerly in fp32 and keeps the
                                        fp32 copy of its input for backward (4 bytes an
                                        element instead of the activations' A) and, when
                                        its weight trains (mode full, or the norms in
                                        full_modules), the normalized tensor in the
                                        activations' format too: torchtune's
                                        RMSNorm.forward, transformers' LlamaRMSNorm (and
                                        its copies), LitGPT's RMSNorm. Per norm and token
                                        (4 - A + [A when trained]) x hidden more, in every
                                        layer and for the final norm. Default 0 (a fused
                                        norm: Megatron/Transformer Engine, Liger, Unsloth,
                                        torch.compile). */
    /* ---- Appended in 0.x (docs/formulas.md, "shard": gradient reduction buffers). */
    int zero_buckets;              /**< 1: under ZeRO (hwfit_shard_in, layout zero_stage
                                        >= 1) the gradients are reduced as DeepSpeed's ZeRO
                                        optimizer reduces them: through contiguous buffers
                                        of hwfit_shard_in::reduce_bucket_elements elements in
                                        the 16-bit compute format (two with
                                        hwfit_shard_in::overlap_comm at stages 1-2), on
                                        every card whatever dp, instead of PyTorch DDP's
                                        hwfit_shard_in::bucket_bytes (DeepSpeed 0.15
                                        runtime/zero/stage_1_and_2.py backward, ipg_buffer;
                                        stage3.py __ipg_bucket_flat_buffer). The deepspeed
                                        profile sets it. Default 0 (DDP's bucket). */
    /* ---- Appended in 0.x (docs/formulas.md, "stored weights": single layers kept). */
    uint16_t kept_layers[HWFIT_KEPT_MATRICES]; /**< Per matrix of a layer (HWFIT_KEPT_Q ...
                                        HWFIT_KEPT_DOWN, model.h): in how many of the
                                        model's layers it stays in @c unquantized while its
                                        kind's format (attention_weights, mlp_weights, or
                                        weights / qlora_base) is quantized: a checkpoint's
                                        skip list naming single layers (Unsloth's Dynamic
                                        4-bit llm_int8_skip_modules). A device holding
                                        @c n of the model's L layers counts kept x n / L of
                                        them (rounded up); MLP entries count in dense layers
                                        only. Default 0 (none). */
    /* ---- Appended in 0.x (docs/formulas.md, "shard": units kept gathered). */
    uint16_t unsharded_grad_bytes; /**< Under ZeRO-3 sharding (hwfit_shard_in), training:
                                        bytes per trained element of the gradients each
                                        gathered unit keeps unsharded (unreduced) across the
                                        micro-batches of a step, from the first backward to
                                        the reduction after the last one, freed before the
                                        optimizer step: torch.distributed.pipelining's stage
                                        backward on an FSDP2 module sets
                                        set_requires_gradient_sync(False) until the last
                                        micro-batch, and FSDP2 then accumulates each
                                        unsharded gradient in MixedPrecisionPolicy's
                                        reduce_dtype when it differs from param_dtype
                                        (FSDPParam.to_accumulated_grad_if_needed: 4 for
                                        fp32), else in param_dtype (2 for bf16). 0 (the
                                        default): gradients are reduced as each unit's
                                        backward ends; else 1, 2, 4 or 8 (a format's
                                        size; others give ::HWFIT_EDOM). FSDP1's no_sync()
                                        (Lightning Fabric's no_backward_sync over the
                                        accumulated micro-batches) keeps them too, in the
                                        unit's compute format (param_dtype): its
                                        _post_backward_hook reshards the parameters and
                                        returns before the reduce-scatter while
                                        _sync_gradients is off, leaving flat_param.grad
                                        unsharded (torch/distributed/fsdp/
                                        _runtime_utils.py). With grad_covers_frozen the
                                        gradients cover the units' frozen elements too.
                                        (A uint16_t beside
                                        kept_layers: the struct keeps its size.) */
    int no_reshard_after_forward;  /**< 1: under ZeRO-3 sharding (hwfit_shard_in), every
                                        unit of the card (its layers and tables, all its
                                        pipeline chunks) stays gathered from its forward
                                        through backward, instead of the live units only:
                                        FSDP2's fully_shard(reshard_after_forward=False)
                                        (torchtitan's apply_fsdp sets it for every unit when
                                        pipelining; torch.distributed.pipelining's stage
                                        backward also sets set_reshard_after_backward(False)
                                        on an FSDP stage until its last micro-batch). The
                                        gathered units are freed before the optimizer step.
                                        Default 0 (units resharded after use). */
    /* ---- Appended in 0.x (docs/formulas.md, "activations": op-level selective
     * recomputation). */
    hwfit_memory_selective selective; /**< Training with ::HWFIT_MEMORY_RECOMPUTE_SELECTIVE:
                                        what the layers keep. ::HWFIT_MEMORY_SELECTIVE_OPS
                                        (torchtitan's "op" policy, torchtitan
                                        parallelize_llama.py _save_list and _custom_policy)
                                        keeps per token and layer, in the activations'
                                        format A: the layer's input h (/ t with sequence
                                        parallelism), the outputs of q (a d), v (k d_v),
                                        the attention (a d_v) and gate (F; up for a plain
                                        MLP) / t, the attention's fp32 log-sum-exp 4a / t,
                                        and the down projection's output h (row-parallel:
                                        whole on every rank) and, with sequence parallelism
                                        and t > 1, the two reduce-scatter outputs 2h / t;
                                        with @c compile the down projection's output and
                                        the reduce-scatters are dropped (the partitioner
                                        saves a MUST_SAVE op only where backward reads
                                        it). The layer being recomputed holds what it
                                        stores without recomputation beyond that.
                                        Refused (::HWFIT_EUNSUPPORTED) for MoE or MLA models
                                        and in LoRA/QLoRA (adapters change the matmul
                                        count). Default ::HWFIT_MEMORY_SELECTIVE_ATTENTION. */
    /* ---- Appended in 0.2.0 (docs/formulas.md, "FSDP's flat fp32 shards"). */
    int fsdp_flat_upcast;          /**< 1: with trained_fp32 in a full fine-tune under ZeRO-3
                                        sharding (hwfit_shard_in), FSDP holds the sharding:
                                        the upcast fp32 parameters are its flat-parameter
                                        shards, cast to the 16-bit compute format only for
                                        the unit being all-gathered (torch FSDP1
                                        _flat_param.py: _use_low_precision_shard allocates
                                        _mp_shard, _free_low_precision_sharded_param frees it
                                        after the all-gather; Accelerate 0.30+ upcasts
                                        bf16-loaded flat parameters under mixed precision;
                                        FSDP2 likewise: FSDPParam.all_gather_inputs casts
                                        the fp32 sharded data to MixedPrecisionPolicy's
                                        param_dtype for the all-gather only, as torchtitan's
                                        fp32 model runs), and the reduced gradient shard is
                                        cast to the parameter's fp32 dtype. A
                                        card holds 4 bytes of parameter and 4 of gradient a
                                        trained element / shard group, no 16-bit partition.
                                        0: DeepSpeed's engine holds it (trained_fp32's
                                        16-bit partition plus fp32 master partitions).
                                        Default 0; the fsdp and torchtitan profiles set
                                        1. */
    /* ---- Appended in 0.2.0, ninth round (docs/formulas.md, "Optimizer offload"). */
    int offload_keeps_grads;       /**< 1: with the optimizer offloaded to the host
                                        (hwfit_layout::offload HWFIT_SHARD_OFFLOAD_OPTIMIZER),
                                        the gradients stay on the card in their format and
                                        a copy goes to the host for the CPU step:
                                        Megatron-Core's --optimizer-cpu-offload
                                        (megatron/core/optimizer/cpu_offloading/
                                        hybrid_optimizer.py: HybridDeviceOptimizer copies
                                        each parameter's GPU gradient, a view of the DDP
                                        gradient buffer, into a pinned host tensor; the
                                        buffer stays allocated on the GPU). 0: DeepSpeed
                                        ZeRO-Offload, no gradient on the card beyond the
                                        reduction bucket. Default 0; the megatron profile
                                        sets 1. */
    /* ---- Appended in 0.2.0 (docs/formulas.md, "FSDP2's held reduce-scatter input"). */
    uint16_t reduce_held_bytes; /**< Under ZeRO-3 sharding (hwfit_shard_in), training:
                                        bytes per trained element of the reduce-scatter
                                        input FSDP2 keeps of the previous unit while the
                                        next computes its gradients (FSDPParamGroup.
                                        post_backward stores foreach_reduce's
                                        reduce_scatter_input in comm_ctx.reduce_scatter_state
                                        and frees it only at the next unit's post_backward;
                                        its dtype is MixedPrecisionPolicy's reduce_dtype,
                                        else the gradients'): the largest unit's trained
                                        elements at this many bytes, beside its unreduced
                                        gradients. 0, 1, 2, 4 or 8 (a format's size; others
                                        give ::HWFIT_EDOM); default 0 (FSDP1, DeepSpeed: not
                                        held); the torchtitan profile sets 4 (reduce_dtype
                                        float32), the torchtune profile 2 on several
                                        devices (bf16, no mp_policy). */
    /* ---- Appended in 0.2.0 (docs/formulas.md, "experts indexed one at a time"). */
    int experts_indexed;        /**< Training a MoE model whose routed experts are 3-D
                                        parameters run one expert at a time by indexing
                                        them with an index tensor (transformers 4.55+
                                        GptOssExperts.forward in training: for expert_idx
                                        in expert_hit, current_state @
                                        self.gate_up_proj[expert_idx], ... @
                                        self.down_proj[expert_idx]). Advanced indexing
                                        copies each hit expert's matrices, and the matmul
                                        keeps the copy for its input's gradient: a MoE
                                        layer stores its hit experts' matrices (min(E, s b
                                        K) experts, 3 h F values each when gated, in the
                                        activations' format, / t). When the experts train
                                        (mode full), the backward of each index builds a
                                        zero tensor of the whole parameter
                                        (index_backward: grad.new_zeros(self.sizes())),
                                        added into the gradient: the largest expert
                                        parameter (E x h x 2F gated) once more in the
                                        gradients' format, / t, beside the layer being
                                        rebuilt. The model's E experts (the loop runs
                                        without expert parallelism). Refused for models
                                        without routed experts. Default 0. */
    /* ---- Appended in 0.2.0, ninth round (docs/formulas.md, outputs_kept). */
    int loss_after_call;           /**< With outputs_kept: 1 when the loop computes the loss
                                        after the model's call returns, rebinding the
                                        variable that keeps the outputs first (torchtune's
                                        recipes before 8a98fbaa3: `logits =
                                        self._model(input_ids)`, then `self._loss_fn(...)`):
                                        the previous micro-batch's outputs are alive at the
                                        call's return beside this call's logits, not beside
                                        this forward's loss. 0 when the call computes the
                                        loss (transformers' *ForCausalLM given labels,
                                        `outputs = model(**batch)`): they are alive beside
                                        it. Default 0. */
    /* ---- Appended in 0.2.0 (docs/formulas.md, "Phases": the loss freed before the rebuild). */
    int logits_freed;              /**< 1: training with recomputation, the loop drops its
                                        reference to the logits before backward (torchtune's
                                        recipes since 8a98fbaa3, PR #1235: `del logits`, "free
                                        logits otherwise it peaks backward memory"), so the
                                        loss's saved tensors are freed by the loss's own
                                        backward, before backward rebuilds the last layer:
                                        backward's start is S + max(L + H, T + K) instead of
                                        S + L + T + K, H the head's weight gradient made in
                                        the loss's backward (with the chunked loss the eight
                                        chunk matmuls each make a whole V x h gradient, which
                                        autograd's InputBuffer sums beside the next one:
                                        two at once less a chunk of logits). Default 0; the
                                        torchtune profile sets 1. */
    /* ---- Appended in 0.2.0 (docs/formulas.md, "outputs_fp32"). */
    int outputs_fp32;              /**< Training: the loop converts the model's 16-bit
                                        outputs to fp32 as its forward returns
                                        (Accelerate's ConvertOutputsToFp32,
                                        accelerate/utils/operations.py convert_to_fp32:
                                        `tensor.float()` on every fp16/bf16 output, which
                                        Accelerator.prepare_model wraps around the forward
                                        under native mixed precision: transformers'
                                        Trainer with fp16 or bf16). With a loss that keeps
                                        the head's logits in the activations' format
                                        (::HWFIT_MEMORY_LOSS_INPLACE,
                                        ::HWFIT_MEMORY_LOSS_INPLACE_CAST) the returned
                                        logits are 16-bit, so their fp32 copy (4 sbV / t,
                                        on the device with the head) is live at the
                                        forward's end beside the logits the loss saved;
                                        the loop drops the outputs before backward
                                        (Trainer.compute_loss returns the loss), so
                                        backward does not hold it. The cast copy of
                                        inplace-cast is freed before the forward returns:
                                        the forward's end holds the larger of the two.
                                        Other losses: no effect (fused returns no logits;
                                        upcast's model returns them in fp32 already;
                                        upcast-freed's forward end counts the copy's 4
                                        bytes with the saved log-softmax). With
                                        outputs_kept the logits kept are the fp32 copy.
                                        0 or 1; default 0; the unsloth and hf-trainer
                                        profiles (and the Trainer's front ends) set 1. */
    /* ---- Appended in 0.2.0, ninth round (docs/formulas.md, "op-level selective
     * recomputation of MoE and MLA layers"). */
    int flex_attention;            /**< Training with ::HWFIT_MEMORY_SELECTIVE_OPS: the model
                                        runs torchtitan's FlexAttention (use_flex_attn) and
                                        is not compiled, so torchtitan (distributed/
                                        activation_checkpoint.py at 99fee81,
                                        _apply_op_sac_to_transformer_block_with_flex)
                                        wraps each block's attention module in full
                                        checkpointing (it keeps its input) and its MLP or
                                        MoE module alone in the op policy (its own matmul
                                        count from 1); the block's norms, outside both,
                                        keep what they save. Only the op policy reads it
                                        (FlexAttention stores what flash attention does).
                                        Default 0 (the whole block in the op policy). */
    uint32_t expert_parallel;      /**< Expert-parallel ranks of a MoE model's routed experts
                                        (the layout's ep; hwfit_shard sets it). The op policy
                                        saves the outputs of the two token all-to-alls
                                        (_c10d_functional.all_to_all_single in torchtitan's
                                        save list) only when it is above 1. At least 1;
                                        default 1. */
    /* ---- Appended in 0.2.0, ninth round (docs/formulas.md, "The caching allocator's
     * stranded blocks"). */
    int expandable_segments;       /**< 1: PyTorch's caching allocator runs with
                                        PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True,
                                        whose segments grow in place at their end, so a
                                        freed block at that end grows into a larger
                                        request (upcast-freed's strand and the records'
                                        segments go) while one below a live block still
                                        strands (inplace-cast's); the torchtitan and
                                        unsloth profiles set it; 0 (default, PyTorch's
                                        default): a
                                        freed logits-sized block that the loss's next,
                                        larger request cannot use stays reserved beside
                                        the segment that request takes
                                        (c10/cuda/CUDACachingAllocator.cpp: best fit in
                                        the stream's pool, blocks split and merged within
                                        their segment only, cached segments released only
                                        when a cudaMalloc fails). Counted in reserved_bytes
                                        (and peak_bytes), not allocated_bytes: a 16-bit
                                        loss's logits freed before an fp32 copy
                                        (::HWFIT_MEMORY_LOSS_INPLACE_CAST with
                                        outputs_fp32, at the forward's end) or before the
                                        fp32 gradients of the loss's backward
                                        (::HWFIT_MEMORY_LOSS_UPCAST_FREED), A sbV / t each;
                                        @c fragmentation covers the rest of the reserve.
                                        0 or 1. */
    /* ---- Appended in 0.2.0, ninth round (docs/formulas.md, "shard": gradients over
     * frozen elements). */
    int grad_covers_frozen;        /**< 1: under sharding (hwfit_shard_in), training, a unit
                                        with a trained element has a gradient over all its
                                        elements, the frozen ones too: FSDP1's
                                        FlatParameter with use_orig_params=True, which
                                        admits frozen and trained parameters in one flat
                                        parameter and requires grad when any of them does
                                        (torch/distributed/fsdp/_flat_param.py,
                                        FlatParamHandle._validate_tensors_to_flatten:
                                        flat_param_requires_grad is the OR over the
                                        parameters), so autograd makes the whole unsharded
                                        flat gradient and FSDP reduce-scatters it into a
                                        sharded one of the whole shard (the
                                        fully_sharded_data_parallel.py docstring: "the
                                        gradient memory usage will be higher than expected
                                        (namely, equivalent to not freezing those
                                        parameters)"). The unit's gradients, sharded and
                                        unsharded (and unsharded_grad_bytes'), count its
                                        parameters and adapters in the gradients' format;
                                        a unit with no trained element (a frozen root unit
                                        of the tables) has none; the optimizer states stay
                                        the trained parameters' (the frozen ones' .grad
                                        views are None: _use_sharded_grad_views). LoRA
                                        wrapped by a policy over decoder layers (Lightning
                                        Fabric's FSDPStrategy sets use_orig_params=True on
                                        torch 2.x). Not with QLoRA (a packed base's
                                        storage elements are not modelled:
                                        ::HWFIT_EUNSUPPORTED). 0 or 1; default 0 (a unit's
                                        gradient covers its trained elements: DeepSpeed,
                                        FSDP2, FSDP1 with use_orig_params=False, which
                                        refuses mixed units). */
    /* ---- Appended in 0.2.0, ninth round (docs/formulas.md, "PEFT's k-bit preparation:
     * fp32 hidden states"). */
    int residual_fp32;             /**< 1: the hidden states between layers are fp32, so
                                        full recomputation's checkpoints (each layer's
                                        input) hold 4 bytes an element where the
                                        activations' format holds A: PEFT's
                                        prepare_model_for_kbit_training (peft/utils/
                                        other.py: "cast all non INT8 parameters to fp32")
                                        leaves the RMSNorm weights fp32, a norm returns
                                        weight * x.to(input_dtype) (fp32 by type
                                        promotion), and bitsandbytes' quantized linears
                                        return their input's dtype (Linear4bit.forward
                                        out.to(inp_dtype), MatMul8bitLt output.to(A.dtype)),
                                        so the MLP's down projection returns fp32 and the
                                        residual add promotes the stream. Acts only with
                                        a quantized base (QLoRA, or int8/4-bit weights)
                                        under ::HWFIT_MEMORY_RECOMPUTE_FULL and 16-bit
                                        activations. Default 0; the hf-trainer+peft (and
                                        axolotl) profile sets 1. 0 or 1. */
    /* ---- Appended in 0.2.0, ninth round (docs/formulas.md, "FP8 inputs saved"). */
    int fp8_inputs_saved;          /**< 1: full training in FP8 through Transformer
                                        Engine's linears (Megatron-Core's TE layers under
                                        fp8_autocast): each linear quantizes its input to
                                        FP8 and keeps that 1-byte copy for its weight
                                        gradient instead of the A-byte input
                                        (transformer_engine/pytorch/module/linear.py and
                                        layernorm_linear.py: saved_inputmat / ln_out are
                                        the quantized tensors; with sequence parallelism
                                        the local shard, gathered again in backward). Per
                                        token and layer: the QKV and MLP inputs, the
                                        attention output and the down projection's input
                                        (MoE: the experts' dispatched inputs too) at 1
                                        byte; the attention kernel's own 16-bit output is
                                        still kept when the attention core is not
                                        recomputed (A + 1 for it then), and the SwiGLU
                                        input, norm inputs and Q, K, V stay A bytes.
                                        Refused outside mode full and with op-level
                                        selective recomputation. fit, plan and perf set it
                                        with the megatron profile and --precision fp8 in
                                        full training (hwfit_memory_profile_apply_fp8).
                                        0 (default) or 1. */
    int grads_upcast_in_step;      /**< 1: the optimizer step makes fp32 copies of the
                                        16-bit gradients it updates from and holds them
                                        through the step (Megatron-Core's
                                        DistributedOptimizer and
                                        Float16OptimizerWithFloat16Params,
                                        _copy_model_grads_to_main_grads:
                                        shard_main_param.grad = shard_model_grad.float()):
                                        4 bytes per trained parameter of the card's
                                        optimizer partition in the step phase, when the
                                        gradients are 16-bit and master weights are kept
                                        (fp32 gradients: .float() returns the tensor
                                        itself; use_precision_aware_optimizer hands the
                                        16-bit shard over as decoupled_grad: pass 0). The
                                        megatron profile sets 1. 0 (default) or 1. */
    /* ---- Appended in 0.2.0, tenth round (docs/formulas.md, "shard": FSDP1's wrap
     * residue). */
    int fsdp_wrap_residue;         /**< 1: under ZeRO-3 sharding (hwfit_shard_in), training:
                                        FSDP1 built its flat parameters on the device on the
                                        compute stream, and the segments of that build stay
                                        reserved for it. torch FSDP1
                                        (torch/distributed/fsdp/_init_utils.py,
                                        _init_param_handle_from_module, with device_id)
                                        moves (or materializes) a unit's parameters to the
                                        device, FlatParamHandle copies them into one flat
                                        parameter (_flat_param.py flatten_tensors,
                                        torch.cat) and shard() clones its chunk while
                                        managed_params still holds the originals: the
                                        largest unit U (the root's tables with
                                        root_unsharded; it is wrapped last) is on the device
                                        twice plus its shard U / z at once (the shard goes
                                        to the host with parameter offload). PyTorch's
                                        caching allocator keeps those segments (released
                                        only when a cudaMalloc fails) for the stream that
                                        allocated them, and FSDP1 gathers units on its
                                        unshard stream and copies offloaded shards to the
                                        device on its pre-unshard stream
                                        (_runtime_utils.py _unshard), which cannot reuse
                                        them. A layer L built before the root leaves
                                        2 L (+ L / z) cached beside it when each table is
                                        larger than L. So reserved is at least the larger
                                        of that residue (the card's weights + 2 U (+ U /
                                        z with offload) [+ 2 L (+ L / z)]) and the compute
                                        stream's own peak with @c fragmentation, plus the
                                        gathered units' parameters and, with offload, one
                                        shard copy U / z: a floor under the reserved
                                        answer (allocated does not move). Acts only under
                                        ZeRO-3 with units gathered. Not FSDP2 (fully_shard
                                        shards each parameter without a flat copy) nor
                                        DeepSpeed. The fsdp and hf-trainer profiles (and
                                        the Trainer's front ends) set 1: Accelerate's
                                        FSDP1 passes device_id. 0 (default) or 1. */
    /* ---- Appended in 0.2.0, eleventh round (docs/formulas.md, "memory": the op policy's
     * expert all-to-alls). */
    int ep_a2a_recomputed;         /**< 1: training with ::HWFIT_MEMORY_SELECTIVE_OPS on a MoE
                                        model with @c expert_parallel above 1: the outputs of
                                        the two expert all-to-alls (dispatch and combine,
                                        experts_per_token x hidden values a token each) are
                                        not saved by the policy but recomputed with the
                                        layer in backward (the collectives run again), so
                                        they leave the layer's stored bytes and join its
                                        recomputed transient. torchtitan before c4e229115
                                        (PR #1672, 2025-09-06): at f738a03bf
                                        torchtitan/distributed/expert_parallel.py runs the
                                        all-to-all through a Python autograd.Function
                                        (_A2A: new_empty and dist.all_to_all_single), and
                                        the op policy's _save_list
                                        (models/llama3/infra/parallelize.py, whose apply_ac
                                        deepseek_v3 imports there) saves
                                        aten.mm, the attention kernels, reduce_scatter_tensor,
                                        max and flex_attention only; c4e229115 adds
                                        _c10d_functional.all_to_all_single to the list
                                        (0: saved, as torchtitan since). Ignored without
                                        expert parallelism. 0 (default) or 1. */
    /* ---- Appended in 0.2.0, twelfth round (docs/formulas.md, "memory": LoRA dropout). */
    int lora_qkv_one_dropout;      /**< 1: with @c lora_dropout, the q, k and v adapters of a
                                        layer take one dropout of their common input (the
                                        normed hidden state), so its output and mask are
                                        kept once, not once per adapter. LitGPT's fused
                                        attention projection: LoRAQKVLinear.forward
                                        (litgpt/lora.py at 00af8b0d9; lit_gpt/lora.py in
                                        2023) computes
                                        F.linear(self.lora_dropout(x), self.lora_A) once for
                                        the enabled q, k and v, with lora_A stacking their A
                                        matrices (the adapter parameters are the same as
                                        separate adapters'). 0 (default): one dropout per
                                        adapter, as PEFT's LoraLayer (lora_dropout[adapter]
                                        per module). The litgpt profile sets 1. 0 or 1. */
    /* ---- Appended in 0.2.0, twelfth round (docs/formulas.md, "memory": LoRA on fused
     * projections). */
    hwfit_memory_lora_modules lora_modules; /**< The modules LoRA adapters wrap: separate
                                        projections (default, 0), the checkpoint's modules
                                        (hwfit_model::fused_modules; PEFT) or always fused
                                        q/k/v and gate/up (Megatron-Core). Shapes the
                                        adapters' parameters, their DoRA magnitudes (the
                                        same output widths) and the LoRA dropout inputs
                                        (one per module). The profiles of PEFT-based
                                        trainers set checkpoint, megatron sets fused. */
    /* ---- Appended in 0.2.0, twelfth round (docs/formulas.md, "The evaluation phase"). */
    int evaluation;                /**< 1: the run evaluates inside training (HF Trainer
                                        eval_strategy steps or epoch; a recipe's validation
                                        loop), so a fourth phase, evaluation, competes for
                                        the peak: a forward under torch.no_grad at
                                        @c eval_batch sequences of @c context tokens, after
                                        an optimizer step, beside the weights, the master
                                        weights and the optimizer's states (the gradients
                                        are None: the step's zero_grad(set_to_none=True),
                                        torch.optim's default since 2.0). 0 (default): no
                                        evaluation, the answer unchanged. No profile sets it
                                        (a run's choice). Training only. 0 or 1. */
    uint32_t eval_batch;           /**< With @c evaluation: sequences per evaluation forward,
                                        at the training context (the Trainer's
                                        per_device_eval_batch_size). Default 8 (the
                                        Trainer's default); >= 1. */
    int eval_kv_cache;             /**< With @c evaluation: 1: the evaluation forward builds
                                        every layer's K/V cache and holds it until the
                                        forward returns (transformers' LlamaModel.forward
                                        with the config's use_cache: a DynamicCache filled
                                        by each layer; it turns use_cache off only when
                                        gradient checkpointing is on and the model is in
                                        training mode, which an evaluation is not). The
                                        cache is in the activations' format, fp32 when
                                        @c residual_fp32 on a quantized base. 0 (default) or
                                        1. */
    /* ---- Appended in 0.2.0, thirteenth round (docs/formulas.md, "loss": Unsloth's chunks
     * sized by free memory). Used by ::HWFIT_MEMORY_LOSS_FUSED_CHUNKED only. */
    double loss_target_bytes;      /**< The most bytes one chunk's fp32 logits may take
                                        (4 c V), the cap on the target T: unsloth_zoo's
                                        min(free_gb, 4.0) since its commit d9fe1f43
                                        (Unsloth 2026.7.1), or the UNSLOTH_CE_LOSS_TARGET_GB
                                        a run sets. +INFINITY: no cap (Unsloth 2025.8.5 to
                                        2026.6.x). In [1, 2^60] or +INFINITY; default
                                        4 GiB. */
    double loss_free_share;        /**< The share of the card's free memory at the first
                                        loss the target may take: T = min(@c
                                        loss_target_bytes, share x free), free = @c
                                        card_bytes - @c overhead_bytes - the weights, the
                                        stored activations and the loss's kept tensors
                                        (torch.cuda.mem_get_info at the first call, cached
                                        by functools.cache for the run; no gradient and no
                                        optimizer state exist yet). Unsloth takes half: 0.5
                                        (default). In (0, 1]. */
    int loss_chunks_round_up;      /**< How the chunk count n rounds x = 4 N V / T (N rows):
                                        1 (default; unsloth_zoo since d9fe1f43): n = 1 when
                                        x <= 1, else x rounded up to a multiple of 4, so a
                                        chunk's fp32 logits never exceed T; 0 (2025.8.5 to
                                        2026.6.x): n = 4 round(x / 4), at least 1, Python's
                                        round (half to even), so a micro-batch with up to
                                        2 T of fp32 logits stays one chunk. 0 or 1. */
    double card_bytes;             /**< Memory of the card, bytes (torch's total_memory),
                                        for the free memory above. +INFINITY (default): a
                                        card large enough that only @c loss_target_bytes
                                        bounds T. hwfit_shard (fit, plan) uses its
                                        hwfit_shard_in::capacity_bytes instead. In
                                        [1, 2^60] or +INFINITY. */
    uint32_t loss_short_tokens;    /**< Training, not @c packed: micro-batches of at most this
                                        many tokens take @c loss_short instead of @c loss
                                        (Unsloth 2024.12.5 to 2025.10.10,
                                        CausalLM_fast_forward: `if bsz*q_len <= 1024:
                                        RETURN_LOGITS = True`, the whole logits returned and
                                        its Fast_CrossEntropyLoss run). Unpacked micro-batches
                                        are padded to their longest sample and vary in length
                                        up to s b tokens, so a run meets one of
                                        min(s b, this) tokens (packed, only when s b is
                                        within it): its forward's end (the stored
                                        activations scaled to its tokens, its whole logits,
                                        their cast and fp32 copies) competes with the
                                        forward phase. 0 (default): no such path. */
    hwfit_memory_loss loss_short;  /**< With @c loss_short_tokens: the short micro-batches'
                                        loss, ::HWFIT_MEMORY_LOSS_INPLACE (default) or
                                        ::HWFIT_MEMORY_LOSS_INPLACE_CAST (the logits cast to
                                        the checkpoint's format first). */
    /* ---- Appended in 0.2.0, thirteenth round (docs/formulas.md, probs_kept). */
    int probs_kept;                /**< Training: 1 when the loop derives a logits-sized
                                        tensor from the logits after the loss (a metric's
                                        probabilities, `probs = softmax(logits, dim=-1)` for
                                        an accuracy) and keeps it in a local name through
                                        backward, the optimizer's step and the next
                                        micro-batch's forward, until the next micro-batch
                                        rebinds the name: s b V / t bytes in fp32 (4 a
                                        logit) when the loss upcasts (loss upcast or
                                        upcast-freed: the softmax of the fp32 logits), else
                                        in the activations' format, on the device with the
                                        head, in the forward, backward and step phases
                                        (hwfit_memory_out::outputs_bytes). prime-rl's SFT
                                        trainer before 385dbca25
                                        (src/prime_rl/trainer/sft/train.py at f037882c8:
                                        softmax, argmax and the accuracy after
                                        cross_entropy, `del logits` but not `probs` before
                                        loss.backward()). Not with @c outputs_kept (which
                                        keeps the logits themselves). No profile sets it (a
                                        loop's choice). 0 (default) or 1. */
    /* ---- Appended in 0.2.0, thirteenth round (docs/formulas.md, loss_parallel). */
    int loss_parallel;             /**< 1: with tensor parallelism (t > 1) and the whole
                                        vocabulary's fp32 loss (loss upcast or upcast-freed),
                                        the cross-entropy runs as PyTorch's DTensor loss
                                        parallelism on the vocabulary-sharded logits
                                        (torch/distributed/tensor/parallel/loss.py,
                                        loss_parallel): its log-softmax is the decomposition
                                        _log_softmax (x - max, exp of that, then the
                                        result: the shifted copy and the exponentials live
                                        beside the fp32 input), and its backward fuses
                                        nll_loss's and log_softmax's in
                                        _nll_loss_and_log_softmax_backward,
                                        `(grad_input + torch.exp(x)) * grad_output` with
                                        grad_input = zeros_like(x), beside the saved
                                        log-softmax: 4 bytes a logit more than the aten
                                        kernels at the forward's end and at the loss's
                                        backward (per token 4h + (A + 16)V upcast,
                                        4h + max(A + 12, 16)V upcast-freed, / t). torchtitan
                                        wraps its loss in loss_parallel whenever TP is on
                                        (train.py at 9dec370: loss_parallel_enabled =
                                        tp_enabled and not disable_loss_parallel): the
                                        torchtitan profile sets 1. Ignored at t = 1 and for
                                        other losses. 0 (default) or 1. */
    /* ---- Appended in 0.2.0, thirteenth round (docs/formulas.md, whole_masks). */
    uint32_t whole_masks;          /**< Training: attention masks the model's forward builds
                                        once at the model's whole configured context
                                        (hwfit_model::max_context, the config's
                                        max_position_embeddings P) and keeps on the card for
                                        the rest of the run, each P x P values in the
                                        activations' format: whole_masks x P^2 x A bytes in
                                        the forward, backward and step phases, counted with
                                        the activations (hwfit_memory_out::masks_bytes).
                                        Unsloth 2024.7 and 2024.8 on Gemma 2 without
                                        flash-attn's softcapping (unsloth/models/llama.py
                                        LlamaModel_fast_forward at 2217e8d86c and 064ff70bc5:
                                        `if IS_GEMMA2 and not hasattr(self, "SWA_mask")`,
                                        the sliding-window and the global causal mask made
                                        by AttentionMaskConverter.to_causal_4d(1, n, n,
                                        dtype = inputs_embeds.dtype) with n =
                                        max_position_embeddings and stored on the model):
                                        2. No profile sets it (the model's type and the
                                        installed flash-attn decide). Refused when the model
                                        states no max_context. 0 (default) to 16. */
    /* ---- Appended in 0.2.0, thirteenth round (docs/formulas.md, "The evaluation phase"). */
    int eval_replay;               /**< With @c evaluation and PyTorch's default allocator:
                                        1 (default): the evaluation's reserve includes the
                                        caching allocator replayed over the requests of
                                        transformers' decoder layers run op by op
                                        (hwfit__memory_eval_segments: norms, linears with
                                        PEFT's LoRA, rotary embeddings, the K/V entries
                                        kept); 0: the framework replaces those layers with
                                        its own kernels, whose requests the replay does not
                                        know (Unsloth's LlamaDecoderLayer_fast_forward:
                                        fast_rms_layernorm, in-place fast_rope_embedding,
                                        fused LoRA and SwiGLU), and the reserve is the
                                        fragmentation fraction alone. The unsloth profile
                                        sets 0. 0 or 1. */
    /* ---- Appended in 0.2.0, fourteenth round (docs/formulas.md, sink_mask_bytes). */
    uint32_t sink_mask_bytes;      /**< Training a model whose attention has learned sinks
                                        (hwfit_model::attention_sinks, gpt-oss) through flex
                                        attention with the sink whose block mask is built
                                        from the dense mask (PyTorch's create_block_mask
                                        without _compile: create_mask evaluates the mask
                                        function over every (query, key) pair, then
                                        _convert_mask_to_block_mask pads it and sums it per
                                        128 x 128 block): bytes live per pair while a mask is
                                        built, s x (s + 1) pairs (the sink's key padded in
                                        front; batch and heads None, so one mask for any
                                        micro-batch), once per sequence length in the
                                        forward's first attention, beside the fixed part.
                                        10 = the bool mask, its padded copy and the int64
                                        copy the block sum reduces (the sliding-window mask
                                        function's own peak is 10 too: two bools and the
                                        int64 difference of the indices). Unsloth 2025.8.10
                                        to 2025.9.8 (unsloth-zoo 2025.8.9 to 2025.9.10,
                                        flex_attention/utils.py create_block_mask_cached;
                                        dc8308b6 passes _compile = True): the unsloth profile
                                        sets 10 for those releases. Ignored for models
                                        without sinks and in inference. 0 (default, no dense
                                        mask) to 64. */
    /* ---- Appended in 0.2.0, fifteenth round (docs/formulas.md, record_lengths). */
    uint32_t record_lengths[HWFIT_MEMORY_RECORDS]; /**< Training on unpacked micro-batches
                                        of varying length (each padded to its longest
                                        sample): the padded lengths, in tokens per
                                        sequence, of the earlier micro-batches that were
                                        each longer than every one before them (records),
                                        shortest first, then zeros; a length at or above
                                        @c context (the longest) counts as none (a search
                                        over contexts). PyTorch's caching allocator keeps the
                                        logits-sized segments each record took (a later,
                                        longer request fits no cached block; segments are
                                        released only when a cudaMalloc fails), so the
                                        reserve grows record by record: the loss's requests
                                        (hwfit_memory_out::records_bytes) are replayed
                                        over the records and the longest. What records a
                                        data set gives: hwfit_memory_records_typical() from
                                        its lengths' mean and spread, or
                                        tests/data/tools/length_records.py from a lengths
                                        file.
                                        No effect with @c expandable_segments, in
                                        inference, or for a loss whose requests the replay
                                        does not know (docs/formulas.md). Default: all 0
                                        (every micro-batch as long as the longest: packed
                                        or fixed-length rows). */
    /* ---- Appended in 0.2.0, sixteenth round (docs/formulas.md, "flash_attention"). */
    int card_no_flash;             /**< Training: 1 when the card has no flash kernel for
                                        PyTorch's SDPA (NVIDIA before sm80: T4, V100, whose
                                        compute capability fit, plan and perf read from the
                                        card), so that ::HWFIT_ATTENTION_SDPA on a GQA model
                                        with micro-batches of one unpacked row runs the math
                                        backend (::hwfit_memory_attention). 0 or 1; default
                                        0. */
    int sdpa_gqa_math;             /**< Training with ::HWFIT_ATTENTION_SDPA: 1 (default) when
                                        SDPA is called as transformers calls it
                                        (integrations/sdpa_attention.py: enable_gqa whenever
                                        the mask is None), so that @c card_no_flash can make
                                        it the math backend; 0 when the framework's own
                                        attention serves the models it rewrites and needs no
                                        math fallback (Unsloth's xFormers kernels where flash
                                        is missing; the unsloth profile sets 0). */
    /* ---- Appended in 0.2.0, sixteenth round (docs/formulas.md, "head_cast_kept"). */
    int head_cast_kept;            /**< Training with 16-bit activations (autocast) and a
                                        frozen head stored in fp32 (@c unquantized fp32 for
                                        the tied embedding of a quantized model, or the
                                        weights' format; not trained: not mode full, not in
                                        @c full_modules): autocast casts the head's weight to
                                        the activations' format at each use without caching
                                        it (aten/src/ATen/autocast_mode.cpp cached_cast
                                        caches only leaves that require a gradient), and the
                                        head's matmul saves that cast for its input's
                                        gradient, so V h A / t is held from the forward's end
                                        through the head's backward, before any layer is
                                        rebuilt (hwfit_memory_out::head_cast_bytes).
                                        transformers' nn.Linear head under Accelerate's
                                        autocast (Trainer fp16/bf16) after PEFT's
                                        prepare_model_for_kbit_training cast it to fp32; the
                                        hf-trainer profile and those built on it set 1. Loss
                                        ::HWFIT_MEMORY_LOSS_TRL_CHUNKED counts its own copy
                                        and ignores it, as do the losses that never run the
                                        head as one matmul (fused, fused-chunked). 0 or 1;
                                        default 0. */
    /* ---- Appended in 0.2.0, seventeenth round (docs/formulas.md, "load_warmup"). */
    hwfit_memory_warmup load_warmup; /**< Training: transformers' caching allocator warm-up
                                        at load (::hwfit_memory_warmup): its block, allocated
                                        and freed before the weights are carved from it, is
                                        a floor under the allocated and the reserved peak
                                        when the figure counts the loading (@c
                                        load_counted); the whole model on the card only
                                        (not split by tensor or pipeline parallelism or
                                        ZeRO-3: those load without a device map), on a
                                        card given (@c card_bytes finite; fit and plan
                                        always have one): the block depends on the card's
                                        free memory. The unsloth profile sets it by
                                        transformers' release; default
                                        ::HWFIT_MEMORY_WARMUP_NONE. */
    int load_counted;              /**< Training: 1 (default) when the figure asked for counts
                                        the model's loading (torch's peak statistics over the
                                        whole process: the load phase, with @c load_warmup's
                                        block and @c load_quantize_bytes' transient, is a
                                        candidate for the peak); 0 when the peak statistics
                                        are reset after loading (torch.cuda.
                                        reset_peak_memory_stats before training), so the
                                        load phase is not (@c load_warmup's segment, which
                                        holds the weights, still floors the reserve unless
                                        @c expandable_segments let empty_cache unmap its
                                        free tail). 0 or 1. */
    /* ---- Appended in 0.2.0, eighteenth round (docs/formulas.md, "unsloth_fast_model"). */
    int unsloth_fast_model;        /**< Training with the unsloth profile: 1 when the model
                                        went through Unsloth's FastModel path (FastModel,
                                        FastVisionModel, or FastLanguageModel handing a
                                        model type it has no code of its own for to
                                        FastModel: not llama, mistral, gemma, gemma2, qwen2,
                                        qwen3 or qwen3_moe), which from Unsloth 2025.12.8
                                        (PR #3751) checkpoints through torch's non-reentrant
                                        checkpoint and offloads nothing when several
                                        processes run (torchrun, accelerate: models/vision.py
                                        `use_reentrant = not is_distributed()`): the
                                        profile's multi-device row then keeps every layer's
                                        input on the card. 0 (default): FastLanguageModel's
                                        own path, whose offloaded checkpointer runs under
                                        DDP too. 0 or 1. */
    int fsdp_single_unit;          /**< Training under ZeRO-3 (shard): 1 when FSDP wraps the
                                        whole model as one unit, its root (no auto-wrap
                                        policy: Lightning's FSDPStrategy or Accelerate
                                        without one): the card's whole model stays gathered
                                        from forward through backward, the unit's
                                        unreduced gradient is the card's whole gradient,
                                        and at the backward's end the gradients of the
                                        FlatParameter's views are held until they are
                                        concatenated into its gradient (two copies), then
                                        reduce-scattered before the step
                                        (torch/distributed/fsdp/_flat_param.py: the
                                        unsharded views are split() of the flat
                                        parameter); with @c fsdp_wrap_residue the residue
                                        is the whole model's. 0 (default): units are
                                        decoder layers (and the tables). 0 or 1. */
    /* ---- Appended in 0.2.0, nineteenth round (docs/formulas.md, "built_whole"). */
    int built_whole;               /**< Training under ZeRO-3 (shard): 1 when the whole
                                        model was on each card, one allocation per
                                        parameter, before it was sharded: FSDP1 wrapping a
                                        model built or moved on the device
                                        (`with torch.device("cuda")`, model.cuda(), then
                                        FSDP(model, ...); torchtune's full_finetune recipe
                                        before PR #524, models.get_model under the device
                                        context), or DeepSpeed ZeRO-3 without zero.Init
                                        (deepspeed.initialize moves the module to the
                                        device, then partitions each parameter). The
                                        originals are freed as their units are flattened
                                        (or their partitions made), and each parameter's
                                        segment stays reserved on the compute stream
                                        (released only when a cudaMalloc fails). A cached
                                        block serves a request no larger than itself and
                                        segments never merge
                                        (c10/cuda/CUDACachingAllocator.cpp get_free_block),
                                        so the run's unit-sized requests (flat shards and
                                        gradients, larger than one parameter) cannot reuse
                                        them: the card's whole unsharded weights, in the
                                        weights' format, are reserved beside the compute
                                        stream's own peak, never allocated again. Counted
                                        whole: the small tensors that could be carved from
                                        those blocks (checkpointed layer inputs) are not
                                        taken out. 0 (default): the model is on the host
                                        or the meta device when it is sharded
                                        (fsdp_wrap_residue counts FSDP1's per-unit build).
                                        0 or 1. */
    int norm_weight_fp32;          /**< Training with norm_upcast_kept, a trained norm
                                        weight: the eager RMSNorm multiplies its fp32
                                        normalized tensor by the weight cast to fp32 and
                                        only then casts back (LitGPT's RMSNorm.forward,
                                        litgpt/model.py: `(x_normed * weight.float())
                                        .to(dtype=dtype)`), so the normalized tensor the
                                        weight's gradient needs is kept in fp32: 4 bytes an
                                        element, not the activations' A (transformers'
                                        and torchtune's norms cast it back first). The
                                        litgpt profile sets it. 0 (default) or 1. */
    uint16_t dequant_work_bytes;   /**< Training with @c dequant_transient, not compiled:
                                        bytes per element the dequantization holds at its
                                        peak beside its A-byte output. torchao's NF4Tensor
                                        (torchao/dtypes/nf4tensor.py get_original_weight,
                                        the same from 2024-03 to 2026): each half of the
                                        packed codes as int64 indices (4 + 4 an element),
                                        their looked-up and scaled halves in the tensor's
                                        16-bit dtype (1 + 1, 1 + 1), all still referenced
                                        when torch.stack makes the output: 12 (the torchtune
                                        profile sets it for QLoRA). Compiled
                                        (@c compile), inductor fuses the chain into the
                                        output: 0 counted. bitsandbytes' dequantize_4bit is
                                        one kernel: 0 (default). At most 64. */
    int zero3_linear_views_kept;   /**< Training under DeepSpeed ZeRO-3 (shard): 1 when
                                        F.linear is PyTorch's own, so the mm it runs saves
                                        a transposed view of the gathered weight for the
                                        input's gradient, and DeepSpeed's release
                                        (param.data replaced by an empty tensor,
                                        runtime/zero/partition_parameters.py) does not free
                                        the storage that view holds: every linear weight
                                        used in forward and not recomputed stays gathered
                                        until its backward. DeepSpeed swaps in its own
                                        LinearFunctionForZeroStage3 (zero3_linear_wrap,
                                        which saves the parameter, not a view) only inside
                                        zero.Init (partition_parameters.py at v0.14.2, lines
                                        548-553: "This will persist unless manually
                                        reset"), so a model built before DeepSpeed sees it
                                        (@c built_whole: from_pretrained before the
                                        TrainingArguments) runs without it until v0.19.4
                                        (#8189, 617061d6b, 2026-07-31: the standard Linear
                                        "can retain the gathered weight storage until
                                        backward completes"). Then the card's layers'
                                        weights and the head (not the embedding, whose
                                        lookup saves no weight), plus one layer re-gathered
                                        for its backward, replace the gathered window when
                                        larger, in forward and backward; with full
                                        recomputation nothing more (the checkpointed
                                        forward saves nothing), nor with
                                        @c no_reshard_after_forward or @c fsdp_single_unit
                                        (every unit is gathered through backward already;
                                        the request layer refuses the pair). FSDP frees its
                                        flat parameter's storage in place: 0. 0 (default)
                                        or 1. */
} hwfit_memory_in;

/** @brief The footprint, in bytes (exact integers; overhead rounded up to a whole byte). */
typedef struct hwfit_memory_out {
    uint64_t weights_bytes;    /**< Model weights (and LoRA adapters), bytes. */
    uint64_t kv_bytes;         /**< KV cache (inference only), bytes. */
    uint64_t activation_bytes; /**< Activations: stored for backward (training) or the
                                    largest transient workspace (inference), bytes. */
    uint64_t gradient_bytes;   /**< Gradients of the trained parameters, bytes. */
    uint64_t optimizer_bytes;  /**< Optimizer states and fp32 master weights, bytes. */
    uint64_t overhead_bytes;   /**< Runtime overhead, bytes. */
    uint64_t total_bytes;      /**< Sum of the above, bytes. */
    uint64_t params;           /**< Model parameters held (adapters excluded). */
    uint64_t trainable_params; /**< Parameters with gradients and optimizer states. */
    uint64_t adapter_params;   /**< LoRA adapter parameters (0 unless LoRA or QLoRA). */
    uint32_t layers;           /**< Decoder layers held. */
    uint64_t activation_dense_layer_bytes; /**< Training: one dense layer's stored activations
                                                (inference: its workspace), bytes. */
    uint64_t activation_moe_layer_bytes;   /**< The same for one MoE layer, bytes. */
    uint64_t activation_other_bytes;       /**< Training: input ids, embedding dropout and the
                                                logits/loss terms; inference: the logits. */
    uint64_t expert_params;          /**< Of params, the routed experts' (0 for dense
                                          models; shared experts and routers are not
                                          routed experts). */
    uint64_t expert_weights_bytes;   /**< Of weights_bytes, the routed experts' (with their
                                          LoRA adapters), bytes. */
    uint64_t expert_trainable_params; /**< Of trainable_params, the routed experts' (for
                                          LoRA their adapters). */
    uint64_t expert_gradient_bytes;  /**< Of gradient_bytes, the routed experts', bytes. */
    uint64_t expert_optimizer_bytes; /**< Of optimizer_bytes, the routed experts', bytes.
                                          Expert parallelism shards and ZeRO partitions
                                          these apart from the rest (shard.h). */
    /* ---- Appended in 0.x: the peak by phase (docs/formulas.md, "phases"). Each phase
     * holds the weights, the resident optimizer states and what it adds; forward, backward
     * and step are allocated bytes (without overhead); peak_bytes adds the allocator's
     * reserve and the overhead. total_bytes stays the sum of the parts (an upper bound). */
    uint64_t loss_bytes;           /**< Of activation_other_bytes, the logits and loss. */
    uint64_t forward_bytes;        /**< Allocated at the end of the forward pass, bytes. */
    uint64_t backward_bytes;       /**< Allocated at the backward pass's peak, bytes. */
    uint64_t step_bytes;           /**< Allocated during the optimizer step, bytes. */
    hwfit_memory_phase peak_phase; /**< The phase with the most allocated (first when tied). */
    uint64_t allocated_bytes;      /**< The largest phase: torch.cuda.max_memory_allocated. */
    uint64_t reserved_bytes;       /**< The largest phase's allocated x (1 +
                                        fragmentation), rounded up, plus the logits-sized
                                        blocks the loss strands at that moment
                                        (hwfit_memory_in::expandable_segments 0); with
                                        evaluation (expandable_segments 0) at least the
                                        fixed tensors' reserve plus the segments the
                                        caching allocator takes for the evaluation forward,
                                        replayed (docs/formulas.md, "The evaluation
                                        phase"): torch.cuda.max_memory_reserved. */
    uint64_t peak_bytes;           /**< reserved + overhead: what the device needs. */
    /* ---- Appended in 0.x (hwfit_memory_in::dequant_transient, previous_graph). */
    uint64_t dequant_bytes;        /**< The dequantized copy of the largest quantized matrix,
                                        or DoRA's weight-norm temporaries where larger, in
                                        the forward and backward phases, bytes. */
    uint64_t carried_bytes;        /**< The previous micro-batch's logits and 4-bit inputs,
                                        in the forward and step phases, bytes. */
    /* ---- Appended in 0.x (hwfit_memory_in::load_quantize_bytes). */
    uint64_t load_bytes;           /**< Allocated while the model loads: the weights and
                                        the quantization transient, or transformers' warm-up
                                        block where larger (training), bytes; 0 when the
                                        load is not counted (hwfit_memory_in::load_counted). */
    /* ---- Appended in 0.x (hwfit_memory_in::kv_built, outputs_kept). */
    uint64_t outputs_bytes;        /**< The model's outputs held beyond its activations: the
                                        K/V cache built in the forward (kv_built) and the
                                        logits the loop keeps through backward, the step
                                        and the next forward (outputs_kept), or the
                                        logits-sized tensor it derives and keeps
                                        (probs_kept), bytes. */
    /* ---- Appended in 0.2.0, ninth round (hwfit_memory_in::expandable_segments). */
    uint64_t stranded_bytes;       /**< Of reserved_bytes, the logits-sized blocks the loss
                                        leaves cached and free, and the blocks the
                                        evaluation forward's K/V entries strand beyond the
                                        plain reserve (expandable_segments 0):
                                        the caching allocator releases them when a
                                        cudaMalloc fails (release_cached_blocks), so they
                                        count in what max_memory_reserved and nvidia-smi
                                        read but not in what a card must hold:
                                        peak_bytes - stranded_bytes is the least a card
                                        needs (hwfit_shard's fit still compares
                                        peak_bytes, the reading), bytes. */
    /* ---- Appended in 0.2.0, twelfth round (hwfit_memory_in::evaluation). */
    uint64_t eval_bytes;           /**< Allocated during the evaluation forward
                                        (hwfit_memory_in::evaluation): the weights, the
                                        optimizer's states, the K/V cache at the evaluation
                                        batch (eval_kv_cache), one layer's forward workspace
                                        and the logits and loss at that batch; 0 without
                                        evaluation, bytes. */
    /* ---- Appended in 0.2.0, thirteenth round (hwfit_memory_in::loss_target_bytes). */
    uint64_t loss_chunks;          /**< Loss ::HWFIT_MEMORY_LOSS_FUSED_CHUNKED in training:
                                        the chunks n the micro-batch's rows are split into;
                                        0 for every other loss. */
    uint64_t loss_chunk_bytes;     /**< With @c loss_chunks: one chunk's work at the
                                        forward's end (its logits and their gradient, and
                                        the chunk's gradient of the hidden states), bytes. */
    /* ---- Appended in 0.2.0, thirteenth round (hwfit_memory_in::whole_masks). */
    uint64_t masks_bytes;          /**< Training: the whole attention masks the model keeps
                                        (hwfit_memory_in::whole_masks x P^2 x A), part of
                                        activation_bytes (and activation_other_bytes) and
                                        held in every training phase, bytes; 0 without
                                        them. */
    /* ---- Appended in 0.2.0, fifteenth round (hwfit_memory_in::record_lengths). */
    uint64_t records_bytes;        /**< Of reserved_bytes (and stranded_bytes): the segments
                                        the loss's requests at the earlier record lengths
                                        leave reserved beyond what the longest micro-batch
                                        alone reserves (hwfit_memory_in::record_lengths),
                                        bytes; released when a cudaMalloc fails, so read by
                                        max_memory_reserved and nvidia-smi, not needed by
                                        a card. */
    /* ---- Appended in 0.2.0, sixteenth round (hwfit_memory_in::head_cast_kept, loss
     * ::HWFIT_MEMORY_LOSS_TRL_CHUNKED). */
    uint64_t head_cast_bytes;      /**< Training: the head weight's copy the loss's matmul
                                        keeps for backward (head_cast_kept's autocast cast,
                                        or trl-chunked's per-chunk copy), part of the
                                        forward's end and the loss's backward, bytes; 0
                                        without one. */
} hwfit_memory_out;

/**
 * @brief Default inputs: inference of the whole model in bf16 with a bf16 KV cache, batch 1,
 * context 4096, prefill chunk 2048, overhead 1 GiB; for training AdamW, bf16 gradients, fp32
 * master weights, no recomputation, flash attention, dropout masks, bf16 activations, t = 1;
 * LoRA rank 16 on every linear layer in bf16; QLoRA base nf4-dq.
 * @param[out] in The inputs; NULL is ignored.
 */
HWFIT_API void hwfit_memory_init(hwfit_memory_in *in);

/**
 * @brief Whether attention runs fused (no s^2 scores stored) for @p model under @p in:
 * hwfit_memory_in::flash_attention resolved, ::HWFIT_ATTENTION_SDPA eager exactly when the
 * model's attention has learned sinks. Every estimate resolves it this way.
 * @param[in] model The model; NULL reads as a model without sinks.
 * @param[in] in    The workload; NULL gives 0.
 * @return 1 fused, 0 eager or SDPA's math backend (also for a flash_attention outside 0
 *         to 3, which the estimates refuse); ::hwfit_memory_attention says which.
 */
HWFIT_API int hwfit_memory_attention_flash(const hwfit_model *model, const hwfit_memory_in *in);

/**
 * @brief How attention runs for @p model under @p in, hwfit_memory_in::flash_attention
 * resolved to ::HWFIT_ATTENTION_EAGER, ::HWFIT_ATTENTION_FLASH or ::HWFIT_ATTENTION_MATH:
 * ::HWFIT_ATTENTION_SDPA is eager for a model with learned attention sinks, SDPA's math
 * backend in training when hwfit_memory_in::card_no_flash is set and the model is GQA (fewer
 * key/value heads than query heads) with micro-batches of one unpacked row (transformers
 * then passes enable_gqa, no attention mask), and fused otherwise. Every estimate resolves
 * it this way.
 * @param[in] model The model; NULL reads as an MHA model without sinks.
 * @param[in] in    The workload; NULL gives ::HWFIT_ATTENTION_EAGER.
 * @return The kind as it runs (a flash_attention outside 0 to 3, which the estimates
 *         refuse, gives ::HWFIT_ATTENTION_EAGER).
 */
HWFIT_API int hwfit_memory_attention(const hwfit_model *model, const hwfit_memory_in *in);

/**
 * @brief Take the weight formats of a workload from the checkpoint: the formats the model's
 * config stores (hwfit_model::stored, read from quantization_config by
 * hwfit_hf_config_load()) replace weights, unquantized and the per-module formats.
 *
 * For a quantized checkpoint: module_formats 1 with attention_weights, mlp_weights and
 * expert_weights as stored, weights the attention format (what the extra prediction layers'
 * projection and the math precision follow), unquantized the checkpoint dtype (embedding,
 * head, norms, routers), keep_embeddings 1. Full training keeps its plain formats (it
 * trains a dequantized copy) and QLoRA its qlora_base; for them, and for a checkpoint that
 * is not quantized, nothing changes and @p applied is 0.
 * @param[in]     model   The model; NULL gives ::HWFIT_EINVAL.
 * @param[in,out] in      The workload, with its mode set; NULL gives ::HWFIT_EINVAL.
 * @param[out]    applied 1 when the stored formats were applied; may be NULL.
 * @retval HWFIT_OK     done.
 * @retval HWFIT_EINVAL a pointer is NULL.
 */
HWFIT_API hwfit_status hwfit_memory_use_stored(const hwfit_model *model, hwfit_memory_in *in,
                                               int *applied);

/**
 * @brief Replace the computed weights of an estimate by a checkpoint's exact bytes (its
 * safetensors files' tensors, safetensors.h), when they describe the same thing: inference
 * of the whole main model (every layer, the embedding and the head, no extra prediction
 * layers) on this device, in the formats the checkpoint stores (hwfit_model::stored: a
 * plain checkpoint in its dtype, or the stored per-module formats as
 * hwfit_memory_use_stored() sets them). weights_bytes, total_bytes and every phase move by
 * the difference; reserved and peak bytes are recomputed. Otherwise nothing changes.
 * @param[in]     model       The model; NULL gives ::HWFIT_EINVAL.
 * @param[in]     in          The workload @p out was estimated for; NULL gives ::HWFIT_EINVAL.
 * @param[in]     exact_bytes The main model's bytes in the checkpoint's files.
 * @param[in,out] out         The estimate of ::hwfit_memory_estimate for @p model and @p in;
 *                            NULL gives ::HWFIT_EINVAL. Changed only when applied.
 * @param[out]    applied     1 when the exact bytes were used; may be NULL.
 * @retval HWFIT_OK     done (applied or not).
 * @retval HWFIT_EINVAL a pointer is NULL.
 * @retval HWFIT_EDOM   @p out is not an estimate (a part smaller than the weights' change).
 * @retval HWFIT_ERANGE a size overflows 64 bits.
 */
HWFIT_API hwfit_status hwfit_memory_use_exact(const hwfit_model *model, const hwfit_memory_in *in,
                                              uint64_t exact_bytes, hwfit_memory_out *out,
                                              int *applied);

/**
 * @brief The memory footprint of one workload on one device.
 * @param[in]  model The model; NULL gives ::HWFIT_EINVAL.
 * @param[in]  in    The workload; NULL gives ::HWFIT_EINVAL.
 * @param[out] out   The footprint; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK           computed.
 * @retval HWFIT_EINVAL       a pointer is NULL, an enum is out of range or a dtype unknown.
 * @retval HWFIT_EDOM         batch, context, micro_batch, tensor_parallel or lora_rank is 0,
 *                            lora_targets is empty or has unknown bits, overhead is not a
 *                            finite number in [0, 2^53], gradients, activations or
 *                            lora_dtype is not a plain format, the layer range is outside the
 *                            model, a dtype group is invalid, or the model is invalid.
 * @retval HWFIT_EUNSUPPORTED full training of quantized weights.
 * @retval HWFIT_ERANGE       a size overflows 64 bits.
 */
HWFIT_API hwfit_status hwfit_memory_estimate(const hwfit_model *model,
                                             const hwfit_memory_in *in, hwfit_memory_out *out);

/**
 * @brief Check the inputs of ::hwfit_memory_estimate: which field is wrong, and why.
 *
 * Runs the same code as ::hwfit_memory_estimate on the same inputs without writing results,
 * so it returns exactly the status that ::hwfit_memory_estimate returns (given a non-NULL
 * output), e.g. field "micro_batch" with rule "must be at least 1", or "model.kv_heads".
 * @param[in]  model   The model; NULL gives ::HWFIT_EINVAL (field "model").
 * @param[in]  in      The workload; NULL gives ::HWFIT_EINVAL (field "in").
 * @param[out] problem The field at fault and the rule it breaks (field "" for a footprint
 *                     beyond 64 bits), or cleared when the inputs are valid; may be NULL.
 * @return The status of ::hwfit_memory_estimate for @p model and @p in.
 */
HWFIT_API hwfit_status hwfit_memory_validate(const hwfit_model *model,
                                             const hwfit_memory_in *in,
                                             hwfit_problem *problem);

/**
 * @brief The footprints of @p n workloads of one model: ::hwfit_memory_estimate of each
 * element, in one call and without allocation (arrays in, arrays out). Every element is
 * evaluated, even after one fails; outs[i] equals what ::hwfit_memory_estimate gives for
 * ins[i], bit for bit, and is written only when statuses[i] is ::HWFIT_OK.
 * @param[in]  model    The model of every element; NULL gives ::HWFIT_EINVAL.
 * @param[in]  ins      @p n workloads; may be NULL only when @p n is 0.
 * @param[in]  n        Number of elements; 0 does nothing and gives ::HWFIT_OK.
 * @param[out] outs     @p n footprints; may be NULL only when @p n is 0.
 * @param[out] statuses @p n statuses, the one ::hwfit_memory_estimate returns for each
 *                      element; may be NULL only when @p n is 0.
 * @retval HWFIT_OK     every element succeeded (or @p n is 0).
 * @retval HWFIT_EINVAL @p model is NULL, or an array is NULL while @p n > 0 (nothing is
 *                      written); or the first failing element's status was ::HWFIT_EINVAL.
 * @retval HWFIT_EDOM   the first failing element's status (see ::hwfit_memory_estimate).
 * @retval HWFIT_EUNSUPPORTED the first failing element's status.
 * @retval HWFIT_ERANGE the first failing element's status.
 */
HWFIT_API hwfit_status hwfit_memory_estimate_batch(const hwfit_model *model,
                                                   const hwfit_memory_in *ins, size_t n,
                                                   hwfit_memory_out *outs,
                                                   hwfit_status *statuses);

/**
 * @brief LoRA adapter parameters of a whole model: r (in + out) per targeted matrix, each
 * projection a module of its own (::HWFIT_MEMORY_LORA_MODULES_SEPARATE; for fused modules
 * see ::hwfit_memory_estimate's adapter_params).
 * @param[in]  model   The model; NULL gives ::HWFIT_EINVAL.
 * @param[in]  rank    LoRA rank, >= 1.
 * @param[in]  targets HWFIT_LORA_* bits, non-empty.
 * @param[out] params  Adapter parameters; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK     computed.
 * @retval HWFIT_EINVAL a pointer is NULL or an enum of the model is out of range.
 * @retval HWFIT_EDOM   @p rank is 0, @p targets empty or unknown, or the model invalid.
 * @retval HWFIT_ERANGE the count overflows 64 bits.
 */
HWFIT_API hwfit_status hwfit_memory_lora_params(const hwfit_model *model, uint32_t rank,
                                                unsigned targets, uint64_t *params);

/**
 * @brief The recomputation a training mode's usual recipes use, the default of the `memory`
 * command and of the Python `memory`/`memory_batch` calls when none is given: LoRA and QLoRA
 * checkpoint every layer (PEFT's prepare_model_for_kbit_training with
 * use_gradient_checkpointing=True, torchtune's LoRA/QLoRA configs with
 * enable_activation_checkpointing: True; docs/formulas.md); full fine-tuning and inference
 * store every activation. ::hwfit_memory_init keeps ::HWFIT_MEMORY_RECOMPUTE_NONE for every
 * mode (a C caller sets recompute itself); this is the rule the faces share.
 * @param mode A training or inference mode; a value outside ::hwfit_memory_mode gives
 *             ::HWFIT_MEMORY_RECOMPUTE_NONE.
 * @return ::HWFIT_MEMORY_RECOMPUTE_FULL for ::HWFIT_MEMORY_LORA and ::HWFIT_MEMORY_QLORA,
 *         ::HWFIT_MEMORY_RECOMPUTE_NONE otherwise.
 */
HWFIT_API hwfit_memory_recompute hwfit_memory_recompute_default(hwfit_memory_mode mode);

/**
 * @brief Parse LoRA target modules written as PEFT names, comma-separated:
 * "q", "k", "v", "o", "gate", "up", "down" (the `_proj` suffix is optional, as in
 * "q_proj,v_proj"), "attention" (q, k, v, o), "mlp" (gate, up, down) or "all" / "all-linear".
 * @param[in]  text    NUL-terminated list without spaces; NULL gives ::HWFIT_EINVAL.
 * @param[out] targets HWFIT_LORA_* bits; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK        parsed.
 * @retval HWFIT_EINVAL    a pointer is NULL.
 * @retval HWFIT_EPARSE    the text or one of its items is empty.
 * @retval HWFIT_ENOTFOUND an item is not a target name.
 */
HWFIT_API hwfit_status hwfit_memory_lora_targets_parse(const char *text, unsigned *targets);

/**
 * @brief Parse earlier record lengths (hwfit_memory_in::record_lengths) written as
 * comma-separated token counts, shortest first, e.g. "700,1500,3100": at most
 * ::HWFIT_MEMORY_RECORDS, each from 1 to 2^32 - 1; the rest of @p lengths is set to 0.
 * Whether they grow is hwfit_memory_validate()'s check.
 * @param[in]  text    NUL-terminated list without spaces; NULL gives ::HWFIT_EINVAL.
 * @param[out] lengths ::HWFIT_MEMORY_RECORDS values; NULL gives ::HWFIT_EINVAL. Written
 *                     only on success.
 * @retval HWFIT_OK     parsed.
 * @retval HWFIT_EINVAL a pointer is NULL.
 * @retval HWFIT_EPARSE the text or an item is empty, or an item is not a whole number.
 * @retval HWFIT_EDOM   an item is 0 or above 2^32 - 1, or there are more than
 *                      ::HWFIT_MEMORY_RECORDS items.
 */
HWFIT_API hwfit_status hwfit_memory_record_lengths_parse(const char *text,
                                                         uint32_t lengths[HWFIT_MEMORY_RECORDS]);

/**
 * @brief Typical earlier record lengths (hwfit_memory_in::record_lengths) of a data set's
 * unpacked micro-batches, from its sample lengths' mean and spread.
 *
 * Sample lengths are read as lognormal with @p mean and @p sd (tokens), truncated at
 * @p bound (the longest micro-batch, hwfit_memory_in::context); a micro-batch is padded to
 * the longest of its @p micro_batch samples, so its length has the distribution
 * G(x) = F(x)^b; the run draws n = @p samples / @p micro_batch of them in a shuffled order.
 * For i.i.d. draws, -ln(1 - G) of the successive records is a unit-rate Poisson process
 * (Renyi's record theorem), so the k-th record lies typically at the quantile
 * 1 - e^-k: the records are G's quantiles at k = 1, 2, ... up to the longest micro-batch
 * the run meets (quantile 1 - 1/n) or the bound, the last ::HWFIT_MEMORY_RECORDS of them
 * kept. Against 300 shuffles of lognormal data the sum of these records is within about
 * 25 % of the median run's (docs/formulas.md, record_lengths); a lengths file's own records
 * come from tests/data/tools/length_records.py.
 * @param[in]  mean        Mean sample length in tokens, > 0 and finite.
 * @param[in]  sd          Its standard deviation, >= 0 and finite (0: one length, no record).
 * @param[in]  bound       The longest micro-batch (the truncation bound), >= 1.
 * @param[in]  samples     Samples the run draws, >= 1.
 * @param[in]  micro_batch Samples per micro-batch, >= 1.
 * @param[out] lengths     ::HWFIT_MEMORY_RECORDS values, shortest first, then zeros; NULL
 *                         gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK     done (possibly no record: all zeros).
 * @retval HWFIT_EINVAL @p lengths is NULL.
 * @retval HWFIT_EDOM   a value is outside its range.
 */
HWFIT_API hwfit_status hwfit_memory_records_typical(double mean, double sd, uint64_t bound,
                                                    uint64_t samples, uint64_t micro_batch,
                                                    uint32_t lengths[HWFIT_MEMORY_RECORDS]);

/**
 * @brief Parse the modules trained in full beside LoRA (hwfit_memory_in::full_modules),
 * comma-separated: "embed" (or the module names "embed_tokens", "word_embeddings"),
 * "head" (or "lm_head", "output_layer"), "norms", or "all".
 * @param[in]  text    NUL-terminated list without spaces; NULL gives ::HWFIT_EINVAL.
 * @param[out] modules HWFIT_FULL_* bits; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK        parsed.
 * @retval HWFIT_EINVAL    a pointer is NULL.
 * @retval HWFIT_EPARSE    the text or one of its items is empty.
 * @retval HWFIT_ENOTFOUND an item is not a module name.
 */
HWFIT_API hwfit_status hwfit_memory_full_modules_parse(const char *text, unsigned *modules);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_MEMORY_H */

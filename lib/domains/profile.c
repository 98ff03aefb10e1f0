/* profile.c - framework profiles (include/hwfit/profile.h): named presets of the training
 * memory inputs, each default with its source. docs/formulas.md, "phases and profiles",
 * explains each choice; docs/accuracy.md shows how the presets compare with published
 * peaks.
 *
 * Two constants are not read from a framework but fitted to the 80 published cases of
 * tests/data/measured (never to one case):
 *   OVERHEAD  memory a process holds outside PyTorch's caching allocator: the CUDA context
 *             and its kernel images (300-500 MiB on recent drivers, more with cuDNN and
 *             NCCL loaded), cuBLAS handles, NCCL's own buffers. nvidia-smi shows it;
 *             torch.cuda.max_memory_reserved does not.
 *   FRAG      the caching allocator's reserve over what it allocated at the peak: blocks
 *             split and cached for reuse (PyTorch "CUDA semantics: memory management";
 *             max_memory_reserved >= max_memory_allocated).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit/profile.h"
#include "base/internal.h"

#define MIB_ 1048576.0
#define OVERHEAD_SINGLE (1024 * MIB_) /* CUDA context, cuBLAS, one process, no NCCL */
#define OVERHEAD_DIST (2048 * MIB_)  /* with NCCL communicators and their buffers */
#define FRAG 0.10                    /* fitted: reserved is ~10 % above allocated */

/* One row: the inputs it sets (HWFIT_PROFILE_* bits) and their values, for the modes in
 * `modes` (bit 1 << hwfit_memory_mode, 0 = every training mode) and for single-device (1),
 * multi-device (2) or any (0) runs. Rows of a profile apply in order. */
typedef struct row {
    const char *profile;
    unsigned modes;
    int devices;
    uint64_t sets;
    int master_weights;
    hwfit_dtype_id states;
    hwfit_memory_optimizer optimizer;
    int paged, in_backward, fused, gradient_buffer;
    hwfit_dtype_id gradients, lora_dtype, unquantized;
    hwfit_memory_loss loss;
    hwfit_memory_recompute recompute;
    int offload, compile, dropout, lora_dropout, qlora_inputs, untied_head, softcap_eager;
    int gated_act, kv_repeated, dequant, previous_graph;
    double overhead, fragmentation;
    double load_quantize;
    int root_unsharded;
    int quant_scales;
    int trained_fp32;
    int norm_upcast;
    int norm_weight_fp32;
    uint16_t dequant_work; /* dequant_work_bytes (with dequant, the same bit) */
    int zero_buckets;
    hwfit_memory_selective selective;
    int fsdp_flat_upcast;
    int offload_keeps_grads;
    unsigned reduce_held;
    int logits_freed;
    int outputs_fp32;
    int expandable;
    int residual_fp32;
    int grads_upcast;
    int fp8_inputs;
    int fp8; /* 1: the row is a choice of linears computing in FP8, applied only by
              * hwfit_memory_profile_apply_fp8 (the memory inputs cannot see the precision) */
    int wrap_residue;
    int qkv_one_dropout;
    int loss_parallel;
    hwfit_memory_lora_modules lora_modules;
    double loss_target;  /* loss_target_bytes (HUGE_VAL: no cap) */
    double free_share;   /* loss_free_share */
    int round_up;        /* loss_chunks_round_up */
    uint32_t short_tokens; /* loss_short_tokens (loss_short inplace) */
    int eval_replay;
    uint32_t sink_mask;  /* sink_mask_bytes */
    int attention;       /* flash_attention (HWFIT_ATTENTION_*) */
    int head_cast;       /* head_cast_kept */
    uint32_t loss_chunk; /* loss_chunk_tokens */
    int sdpa_gqa_math;   /* sdpa_gqa_math */
    hwfit_memory_warmup load_warmup; /* load_warmup */
    int fast_model; /* 1: the row applies only with hwfit_memory_in::unsloth_fast_model */
    /* Releases the row applies to (release_key: YEAR x 10^6 + MONTH x 10^3 + PATCH): since
     * (0: from the first) up to but not including until (0: to the latest). */
    uint32_t since, until;
    /* The releases of the libraries the framework runs on that the row applies to, as
     * SEMVER_ keys (hwfit_memory_profile_apply_releases): TRL's SFTTrainer (trl_) and
     * transformers (tf_), each from *_since (0: the first) up to but not including *_until
     * (0: the latest). */
    uint32_t trl_since, trl_until, tf_since, tf_until;
} row;

#define M_(m) (1u << (m))
/* A semantic version's release_key (release_key with semver): shifted by one so that 0.0.0
 * is not the malformed key 0. */
#define SEMVER_(major, minor, patch) ((major) * 1000000u + (minor) * 1000u + (patch) + 1u)
#define FULL_ M_(HWFIT_MEMORY_FULL)
#define ADAPT_ (M_(HWFIT_MEMORY_LORA) | M_(HWFIT_MEMORY_QLORA))

/* What every profile sets: the activation choices of modern decoder configs (no dropout:
 * Llama, Qwen, Mistral config.json attention_dropout 0.0 and no hidden dropout; flash or
 * SDPA attention is left as given) and the two fitted constants. */
#define COMMON_ (HWFIT_PROFILE_DROPOUT | HWFIT_PROFILE_OVERHEAD | HWFIT_PROFILE_FRAGMENTATION)

static const row rows[] = {
    /* ---- torchtune (pytorch/torchtune recipes/configs, 0.4-0.6) -------------------------- */
    /* dtype: bf16 (every config): parameters, gradients and AdamW states in bf16, no fp32
     * master copy (torchtune docs "Memory optimization overview": "training in pure bf16").
     * optimizer: torch.optim.AdamW with fused: True (llama3_1/8B_lora_single_device.yaml,
     * 8B_full.yaml). loss: torchtune.modules.loss.CEWithChunkedOutputLoss (llama3_1 configs:
     * num_output_chunks 8). enable_activation_checkpointing: True. compile: False.
     * Gradients are freed by zero_grad(set_to_none=True) (the recipes in recipes/). The caching
     * allocator's reserve: log_memory_stats reports peak_memory_reserved. */
    /* QLoRA: torchao's linear_nf4 (torchao/dtypes/nf4tensor.py) computes
     * F.linear(input, weight.to(input.dtype)): the whole NF4 weight dequantized per matmul,
     * forward and backward (dequant_transient). Its FeedForward.forward
     * (torchtune/modules/feed_forward.py) is w2(activation(w1(x)) * w3(x)) in eager
     * kernels: the product keeps activation(w1(x)) (gated_act_kept; compile fuses it). */
    /* Its RMSNorm.forward (torchtune/modules/rms_norm.py, unchanged from 2024-03 to
     * 2024-11): x_fp32 = x.float(); (x_fp32 * torch.rsqrt(x_fp32.pow(2).mean(-1,
     * keepdim=True) + eps)).type_as(x) * self.scale: autograd keeps the fp32 copy
     * (pow's and the product's backward) and, when scale trains, the normalized bf16
     * tensor (norm_upcast_kept; compile fuses it). */
    /* torchao's eager dequantization (NF4Tensor.get_original_weight, unchanged from 2024-03
     * to 2026): the two halves of the packed codes as int64 indices, their looked-up and
     * scaled halves, all referenced when torch.stack makes the bf16 weight: 12 bytes an
     * element beside it (dequant_work_bytes; compile fuses them). */
    {.profile = "torchtune", .modes = M_(HWFIT_MEMORY_QLORA), .sets = HWFIT_PROFILE_DEQUANT,
     .dequant = 1, .dequant_work = 12},
    {.profile = "torchtune", .sets = HWFIT_PROFILE_GATED_ACT | HWFIT_PROFILE_NORM_UPCAST,
     .gated_act = 1, .norm_upcast = 1},
    {.profile = "torchtune", .sets = COMMON_ | HWFIT_PROFILE_MASTER_WEIGHTS |
         HWFIT_PROFILE_OPTIMIZER_STATES | HWFIT_PROFILE_FUSED | HWFIT_PROFILE_GRADIENT_BUFFER |
         HWFIT_PROFILE_GRADIENTS | HWFIT_PROFILE_LORA_DTYPE | HWFIT_PROFILE_LOSS |
         HWFIT_PROFILE_RECOMPUTE | HWFIT_PROFILE_PAGED | HWFIT_PROFILE_IN_BACKWARD |
         HWFIT_PROFILE_OPTIMIZER,
     .master_weights = 0, .states = HWFIT_DTYPE_BF16, .optimizer = HWFIT_MEMORY_ADAMW,
     .fused = 1, .gradients = HWFIT_DTYPE_BF16, .lora_dtype = HWFIT_DTYPE_BF16,
     .loss = HWFIT_MEMORY_LOSS_CHUNKED, .recompute = HWFIT_MEMORY_RECOMPUTE_FULL,
     .overhead = OVERHEAD_SINGLE, .fragmentation = FRAG},
    /* QLoRA: torchao's NF4Tensor through linear_nf4 (torchao/dtypes/nf4tensor.py,
     * LinearNF4.forward saves only the weight): a frozen 4-bit linear keeps no input. */
    {.profile = "torchtune", .modes = M_(HWFIT_MEMORY_QLORA), .sets = HWFIT_PROFILE_QLORA_INPUTS,
     .qlora_inputs = 0},
    /* QLoRA load: LoRALinear (torchtune/modules/peft/lora.py) builds each base linear in bf16
     * on the device and calls torchao's to_nf4 on it at once, and load_state_dict quantizes
     * the checkpoint's bf16 weight again through NF4Tensor's copy_. torchao >= 0.2
     * (torchao/dtypes/nf4tensor.py, convert_to_norm_float_weight: "perform in chunks",
     * CHUNK_SIZE 1024**2) holds the bf16 weight and its scaled copy whole (2 + 2 bytes an
     * element) while it searches the nearest code 2^20 elements at a time (64 MiB, not
     * counted). torchao 0.1 (pinned by torchtune until May 2024) searched the whole matrix
     * at once: quantize_tensor_nearest's (value - nf4).abs() holds 16 bf16 differences per
     * element and their absolute values, 68 bytes an element (a case states it). */
    {.profile = "torchtune", .modes = M_(HWFIT_MEMORY_QLORA), .sets = HWFIT_PROFILE_LOAD_QUANTIZE,
     .load_quantize = 4.0},
    /* Single-device full fine-tuning (llama3_1/8B_full_single_device.yaml, llama2/
     * 7B_full_low_memory.yaml): optimizer bitsandbytes.optim.PagedAdamW8bit and
     * optimizer_in_bwd: True. */
    {.profile = "torchtune", .modes = FULL_, .devices = 1,
     .sets = HWFIT_PROFILE_OPTIMIZER | HWFIT_PROFILE_PAGED | HWFIT_PROFILE_IN_BACKWARD,
     .optimizer = HWFIT_MEMORY_ADAMW_8BIT, .paged = 1, .in_backward = 1},
    /* Distributed recipes shard with FSDP2 (torchtune/training/_distributed.py shard_model:
     * fully_shard(m, reshard_after_forward=..., offload_policy=...), no mp_policy, so
     * MixedPrecisionPolicy() reduces in the bf16 gradients' dtype): each layer's bf16
     * reduce-scatter input is held until the next layer's post_backward (reduce_held_bytes
     * 2, shard.c). Recipes before 0.3 (2024, FullyShardedDataParallel) ran FSDP1: 0. */
    {.profile = "torchtune", .devices = 2, .sets = HWFIT_PROFILE_OVERHEAD | HWFIT_PROFILE_REDUCE_HELD,
     .overhead = OVERHEAD_DIST, .reduce_held = 2},
    /* The recipes drop the logits before backward (since 8a98fbaa3, PR #1235, 2024-07-28;
     * recipes/lora_finetune_single_device.py _loss_step at 1814feb17, the other recipes
     * alike: `del logits`, "free logits otherwise it peaks backward memory"; before it the
     * loop's `logits` lived through loss.backward()): the compiled chunked loss's saved
     * chunks go in the loss's own backward, before the last layer is rebuilt
     * (logits_freed). */
    {.profile = "torchtune", .sets = HWFIT_PROFILE_LOGITS_FREED, .logits_freed = 1},

    /* ---- Hugging Face Trainer (transformers 4.x training_args.py) ------------------------ */
    /* optim "adamw_torch": torch.optim.AdamW with foreach (fused became the default only in
     * transformers 5). bf16=True autocasts a model loaded in torch_dtype=bfloat16: no fp32
     * master copy of bf16 weights; torch.optim.AdamW keeps its moments in the parameter dtype.
     * Loss: modeling_llama.py LlamaForCausalLM -> loss_utils.ForCausalLMLoss upcasts the
     * whole vocabulary's logits (logits.float()) before cross_entropy, and the Trainer drops
     * the model's outputs before backward (compute_loss returns `loss`, not `(loss,
     * outputs)`, unless return_outputs; training_step then calls accelerator.backward(loss)):
     * upcast-freed, 12 bytes a logit at the loss's backward peak (log_softmax's saved fp32
     * output, nll_loss's gradient and log_softmax's), the forward's end below it. As the code
     * ran: transformers before 4.46 (4.43.3 read) LlamaForCausalLM.forward rebinds `logits =
     * logits.float()` (the 16-bit logits freed at once) and copies `shift_logits =
     * logits[..., :-1, :].contiguous()`: fp32 logits, shifted copy, log-softmax, 12 a logit
     * in forward too; 4.49 on (#35646, merged 2025-01-13: ForCausalLMLoss no longer makes the
     * .contiguous() copy of the shifted logits): the 16-bit logits (the caller's output), their
     * fp32 copy and the log-softmax, A + 8. Only 4.46-4.48 (loss_function with the
     * .contiguous() copy beside the caller's 16-bit logits) peak at A + 12 in forward:
     * --loss upcast. Gradients:
     * optimizer.zero_grad() with set_to_none (torch >= 2.0 default). gradient_checkpointing
     * False by default. */
    /* QLoRA through bitsandbytes: MatMul4Bit.forward (bitsandbytes/autograd/_functions.py)
     * runs F.dequantize_4bit(B, quant_state).to(A.dtype) before the matmul, and backward
     * again for grad_A (dequant_transient). transformers' gated MLPs (LlamaMLP, Qwen2MLP,
     * MistralMLP .forward: down_proj(act_fn(gate_proj(x)) * up_proj(x))) run eager: the
     * product keeps act_fn's output (gated_act_kept). Their RMSNorms (LlamaRMSNorm and its
     * copies: hidden_states.to(torch.float32) ... self.weight * hidden_states.to(
     * input_dtype)) keep the fp32 copy of the input and, when the weight trains, the
     * normalized 16-bit tensor (norm_upcast_kept; Liger's fused RMSNorm keeps neither). */
    {.profile = "hf-trainer", .modes = M_(HWFIT_MEMORY_QLORA), .sets = HWFIT_PROFILE_DEQUANT,
     .dequant = 1},
    {.profile = "hf-trainer", .sets = HWFIT_PROFILE_GATED_ACT | HWFIT_PROFILE_NORM_UPCAST,
     .gated_act = 1, .norm_upcast = 1},
    {.profile = "hf-trainer", .sets = COMMON_ | HWFIT_PROFILE_MASTER_WEIGHTS |
         HWFIT_PROFILE_OPTIMIZER_STATES | HWFIT_PROFILE_FUSED | HWFIT_PROFILE_GRADIENT_BUFFER |
         HWFIT_PROFILE_GRADIENTS | HWFIT_PROFILE_LOSS | HWFIT_PROFILE_RECOMPUTE,
     .master_weights = 0, .states = HWFIT_DTYPE_BF16, .fused = 0,
     .gradients = HWFIT_DTYPE_BF16, .loss = HWFIT_MEMORY_LOSS_UPCAST_FREED,
     .recompute = HWFIT_MEMORY_RECOMPUTE_NONE, .overhead = OVERHEAD_SINGLE,
     .fragmentation = FRAG},
    /* PEFT (tuners_utils.cast_adapter_dtype, autocast_adapter_dtype=True): adapter weights
     * are upcast to fp32, so their gradients and AdamW states are fp32 too. */
    {.profile = "hf-trainer", .modes = ADAPT_,
     .sets = HWFIT_PROFILE_LORA_DTYPE | HWFIT_PROFILE_GRADIENTS | HWFIT_PROFILE_OPTIMIZER_STATES,
     .lora_dtype = HWFIT_DTYPE_FP32, .gradients = HWFIT_DTYPE_FP32, .states = HWFIT_DTYPE_FP32},
    /* PEFT wraps the modules of the transformers model it is given (LoraModel's
     * _create_and_replace on each module whose name matches target_modules), so an adapter
     * follows the checkpoint's modules (lora_modules checkpoint): Phi-3's qkv_proj and
     * gate_up_proj (transformers models/phi3/modeling_phi3.py at 00d4b3d2: Phi3Attention
     * qkv_proj, Phi3MLP gate_up_proj) and GLM-4-0414's gate_up_proj (Glm4MLP) each take one
     * adapter. Published check: "trainable params: 25,165,824" for
     * microsoft/phi-3-mini-4k-instruct with r 16 on qkv_proj, o_proj, gate_up_proj and
     * down_proj (nehru/ai-docstring-generator README.md at e6d4edd2). The Trainer's front
     * ends inherit it: LLaMA-Factory (src/llamafactory/model/adapter.py at 01d87b82,
     * _setup_lora_tuning: peft LoraConfig and get_peft_model, lora_target all through
     * find_all_linear_modules over model.named_modules()), Axolotl
     * (src/axolotl/loaders/adapter.py at 01883e35: find_all_linear_names over
     * named_modules, LoraConfig, get_peft_model) and ms-swift (the Trainer's profile; its
     * LoRA wrapping the transformers model's modules was not re-read at a pinned commit
     * in this round; Megatron-SWIFT is the megatron profile). Unsloth keeps separate
     * projections: it loads its own llamafied checkpoints (q_proj, k_proj, v_proj). */
    {.profile = "hf-trainer", .modes = ADAPT_, .sets = HWFIT_PROFILE_LORA_MODULES,
     .lora_modules = HWFIT_MEMORY_LORA_MODULES_CHECKPOINT},
    /* QLoRA through transformers' bitsandbytes integration: bnb.nn.Linear4bit calls
     * bnb.matmul_4bit, whose autograd function MatMul4Bit keeps its input
     * ("ctx.tensors = (A, B)" when any(ctx.needs_input_grad[:2]),
     * bitsandbytes/autograd/_functions.py): every 4-bit linear keeps its input for
     * backward, adapter or not. */
    {.profile = "hf-trainer", .modes = M_(HWFIT_MEMORY_QLORA), .sets = HWFIT_PROFILE_QLORA_INPUTS,
     .qlora_inputs = 1},
    {.profile = "hf-trainer", .devices = 2, .sets = HWFIT_PROFILE_OVERHEAD,
     .overhead = OVERHEAD_DIST},
    /* FSDP through Accelerate (the Trainer's fsdp_config, fsdp_auto_wrap_policy
     * TRANSFORMER_BASED_WRAP on the decoder layer class): the embedding, final norm and
     * head are left in the root unit, which FSDP does not reshard after forward
     * (torch/distributed/fsdp/_runtime_utils.py _post_forward_reshard: "Do not free the
     * root's parameters in the post-forward for FULL_SHARD"; FSDP2
     * _fsdp_state.py _lazy_init: "For the root, do not reshard after forward"). It acts
     * only under ZeRO-3 sharding. */
    {.profile = "hf-trainer", .sets = HWFIT_PROFILE_ROOT_UNSHARDED, .root_unsharded = 1},
    /* Accelerate's FSDP1 (fsdp_version 1, its default through 1.x) wraps with device_id
     * (accelerator.py prepare_model: "device_id": self.device): each unit is built on the
     * card on the compute stream, whose segments stay reserved beside the gathered units'
     * (shard.c, fsdp_wrap_residue; torch/distributed/fsdp/_init_utils.py
     * _init_param_handle_from_module). It acts only under ZeRO-3 sharding; an FSDP2 run
     * (fully_shard: no flat parameter) gives --no-fsdp-wrap-residue. */
    {.profile = "hf-trainer", .sets = HWFIT_PROFILE_WRAP_RESIDUE, .wrap_residue = 1},
    /* fp16/bf16 training: Accelerator.prepare_model wraps the forward in
     * ConvertOutputsToFp32 under native mixed precision (accelerate 0.28-0.34
     * accelerator.py; utils/operations.py convert_to_fp32, tensor.float() on each
     * fp16/bf16 output): a model that returns 16-bit logits to a loss keeping them 16-bit
     * (--loss inplace, inplace-cast: Unsloth's before Cut Cross Entropy) holds their fp32
     * copy at the forward's end (outputs_fp32). With this profile's own loss it counts
     * nothing (transformers <= 4.45 returns fp32 logits; from 4.46 upcast-freed's forward
     * end already holds the 4 bytes). Inherited by the Trainer's front ends. */
    {.profile = "hf-trainer", .sets = HWFIT_PROFILE_OUTPUTS_FP32, .outputs_fp32 = 1},
    /* The loss's tensors are gone before the last layer is rebuilt (logits_freed), in
     * every transformers 4.x: Trainer.training_step binds only `loss = self.compute_loss(
     * model, inputs, ...)` (compute_loss returns `(loss, outputs) if return_outputs else
     * loss`, so the model's outputs, the logits with them, are dropped when it returns;
     * `del inputs` follows) and then calls accelerator.backward(loss). What autograd holds
     * of the loss is its own: log_softmax's saved fp32 output (.float()'s ToCopyBackward,
     * the slice and .contiguous() save no input), released when its node runs
     * (retain_graph False), before the head's MmBackward and so before the backward
     * reaches the last checkpointed layer, whose rebuild (use_reentrant True, the
     * transformers default since 4.35, or False) starts from the hidden states' gradient
     * alone. The loss per era as this profile's Trainer comment above reads it (<= 4.45:
     * logits.float() returned in the outputs; 4.46 on: ForCausalLMLoss on the returned
     * 16-bit logits, which at the stored later commit 0114da07 still saves nothing but
     * cross_entropy's own tensors); the version tags were not re-read in this round (the
     * transformers snapshot is beyond the fetch limit).
     * ms-swift's Seq2SeqTrainer.compute_loss (swift/trainers/trainers.py at 01488c42)
     * computes its token accuracy from outputs.logits inside the call and returns `(loss,
     * outputs) if return_outputs else loss` the same way; LLaMA-Factory's and Axolotl's
     * Trainers, which call the Trainer's compute_loss, were not re-read. */
    {.profile = "hf-trainer", .sets = HWFIT_PROFILE_LOGITS_FREED, .logits_freed = 1},
    {.profile = "hf-trainer", .sets = HWFIT_PROFILE_LOGITS_FREED, .logits_freed = 1},
    /* bitsandbytes QLoRA under FSDP or ZeRO-3: transformers' _load_state_dict_into_meta_model
     * quantizes each weight on the GPU (create_quantized_param) and then, "For quantized
     * modules with FSDP/DeepSpeed Stage 3", replaces it with type(value)(value.data.to("cpu"
     * or "meta"), **value.__dict__): the packed data moves, the QuantState (absmax, nested
     * constants) stays on the GPU, an attribute FSDP and DeepSpeed neither shard nor offload
     * (bitsandbytes' fix_4bit_weight_quant_state_from_module restores it from the module
     * "when the parameter got converted ... for example for fsdp"). */
    {.profile = "hf-trainer", .modes = M_(HWFIT_MEMORY_QLORA), .sets = HWFIT_PROFILE_QUANT_SCALES,
     .quant_scales = 1},
    /* PEFT with bitsandbytes (QLoRA): peft.utils.other.prepare_model_for_kbit_training
     * casts every 16-bit parameter that is not Params4bit to fp32 ("cast all non INT8
     * parameters to fp32": norms, embedding, head) and, use_gradient_checkpointing=True by
     * default, enables gradient checkpointing. */
    /* Attention: the Trainer runs the model as loaded, and from_pretrained without
     * attn_implementation picks SDPA where the model class supports it and eager otherwise
     * (transformers modeling_utils _check_and_adjust_attn_implementation). SDPA is fused
     * (no s^2 scores stored); gpt-oss declares _supports_sdpa = False
     * (models/gpt_oss/modular_gpt_oss.py GptOssPreTrainedModel; SDPA has no learned sink),
     * so it runs eager_attention_forward: HWFIT_ATTENTION_SDPA resolves that by the model. */
    {.profile = "hf-trainer", .sets = HWFIT_PROFILE_ATTENTION, .attention = HWFIT_ATTENTION_SDPA},
    /* A frozen fp32 head under the Trainer's autocast (fp16/bf16: Accelerate's
     * prepare_model wraps the forward in torch.autocast under native AMP): aten's
     * cached_cast (aten/src/ATen/autocast_mode.cpp) caches a lower-precision cast only for a
     * leaf that requires a gradient, so the head's nn.Linear casts its weight afresh, and
     * the matmul saves that cast for the hidden states' gradient until the head's backward
     * (head_cast_kept). It counts only where the head is stored in fp32 and frozen: a
     * QLoRA model after PEFT's prepare_model_for_kbit_training (the embedding and the tied
     * head cast to fp32), or a run that loads the model in fp32 under bf16 autocast. */
    {.profile = "hf-trainer", .sets = HWFIT_PROFILE_HEAD_CAST, .head_cast = 1},
    {.profile = "hf-trainer+peft", .modes = M_(HWFIT_MEMORY_QLORA),
     .sets = HWFIT_PROFILE_UNQUANTIZED | HWFIT_PROFILE_RECOMPUTE,
     .unquantized = HWFIT_DTYPE_FP32, .recompute = HWFIT_MEMORY_RECOMPUTE_FULL},
    /* The same preparation leaves the norms fp32 even where the embedding and head are
     * cast back to 16 bits (TRL's peft_module_casting_to_bf16 casts only embed_tokens and
     * lm_head): LlamaRMSNorm (and its copies) returns self.weight * hidden_states.to(
     * input_dtype), fp32 by type promotion; bitsandbytes' Linear4bit.forward computes in
     * its compute_dtype and returns out.to(inp_dtype) (MatMul8bitLt likewise
     * output.to(A.dtype)), so gate and up, and the down projection after them, return
     * fp32, and the residual add makes the stream between layers fp32 from the first
     * layer's MLP on (residual_fp32: 4-byte checkpoints). It acts only on a quantized
     * base (PEFT prepares only k-bit models). */
    {.profile = "hf-trainer+peft", .sets = HWFIT_PROFILE_RESIDUAL_FP32, .residual_fp32 = 1},

    /* ---- TRL (huggingface/trl SFTTrainer over the Trainer and PEFT) ---------------------- */
    /* The loss by release (semantic versions): SFTConfig.__post_init__ sets loss_type
     * "chunked_nll" when it is left unset from 1.7.0 (PR #5846, b58947c7e; "nll" with
     * use_liger_kernel: give --loss fused), and SFTTrainer.__init__ patches the causal
     * LM's forward to _chunked_cross_entropy_loss over _CHUNKED_LM_HEAD_CHUNK_SIZE = 256
     * rows (trl/trainer/sft_trainer.py at v1.9.0, 35def3ee; the loss added in 1.4.0, PR
     * #5575). Before 1.7.0 the default "nll" is the model's own loss: the Trainer's. */
    {.profile = "trl", .sets = HWFIT_PROFILE_LOSS | HWFIT_PROFILE_LOSS_CHUNK,
     .loss = HWFIT_MEMORY_LOSS_TRL_CHUNKED, .loss_chunk = 256, .since = SEMVER_(1, 7, 0)},

    /* ---- DeepSpeed ZeRO (deepspeed/runtime/zero/stage_1_and_2.py, stage3.py) ------------- */
    /* bf16/fp16 training keeps fp32 master partitions (single_partition_of_fp32_groups,
     * fp32_partitioned_groups_flat) and fp32 Adam states (FusedAdam/DeepSpeedCPUAdam:
     * no temporaries); gradients land in contiguous partitioned buffers allocated for the
     * whole run (contiguous_gradients: true, the default). Models come from transformers
     * (the upcast loss). */
    /* transformers models under DeepSpeed: eager gated MLP; bitsandbytes QLoRA dequantizes
     * per matmul (as hf-trainer). */
    {.profile = "deepspeed", .modes = M_(HWFIT_MEMORY_QLORA), .sets = HWFIT_PROFILE_DEQUANT,
     .dequant = 1},
    {.profile = "deepspeed", .sets = HWFIT_PROFILE_GATED_ACT | HWFIT_PROFILE_NORM_UPCAST,
     .gated_act = 1, .norm_upcast = 1},
    {.profile = "deepspeed", .sets = COMMON_ | HWFIT_PROFILE_MASTER_WEIGHTS |
         HWFIT_PROFILE_OPTIMIZER_STATES | HWFIT_PROFILE_FUSED | HWFIT_PROFILE_GRADIENT_BUFFER |
         HWFIT_PROFILE_GRADIENTS | HWFIT_PROFILE_LOSS,
     .master_weights = 1, .states = HWFIT_DTYPE_FP32, .fused = 1, .gradient_buffer = 1,
     .gradients = HWFIT_DTYPE_BF16, .loss = HWFIT_MEMORY_LOSS_UPCAST,
     .overhead = OVERHEAD_DIST, .fragmentation = FRAG},
    /* LoRA through PEFT on the transformers model (the checkpoint's modules, as
     * hf-trainer). */
    {.profile = "deepspeed", .modes = ADAPT_, .sets = HWFIT_PROFILE_LORA_MODULES,
     .lora_modules = HWFIT_MEMORY_LORA_MODULES_CHECKPOINT},
    {.profile = "deepspeed", .modes = ADAPT_,
     .sets = HWFIT_PROFILE_LORA_DTYPE | HWFIT_PROFILE_GRADIENTS,
     .lora_dtype = HWFIT_DTYPE_FP32, .gradients = HWFIT_DTYPE_FP32},
    /* QLoRA through PEFT and bitsandbytes (MatMul4Bit keeps its input, as hf-trainer). */
    {.profile = "deepspeed", .modes = M_(HWFIT_MEMORY_QLORA), .sets = HWFIT_PROFILE_QLORA_INPUTS,
     .qlora_inputs = 1},
    /* bitsandbytes QLoRA under ZeRO-3: the scales stay whole on every card (as hf-trainer). */
    {.profile = "deepspeed", .modes = M_(HWFIT_MEMORY_QLORA), .sets = HWFIT_PROFILE_QUANT_SCALES,
     .quant_scales = 1},
    /* Gradients reduce through the ZeRO optimizer's contiguous buffers of reduce_bucket_size
     * elements (stage_1_and_2.py backward ipg_buffer, stage3.py __ipg_bucket_flat_buffer),
     * not a DDP bucket; their size and count are hwfit_shard_in's reduce_bucket_elements
     * (DeepSpeed's default 5e8, runtime/zero/config.py) and overlap_comm. */
    {.profile = "deepspeed", .sets = HWFIT_PROFILE_ZERO_BUCKETS, .zero_buckets = 1},

    /* ---- PyTorch FSDP2 (torch.distributed.fsdp.fully_shard, MixedPrecisionPolicy) -------- */
    /* Sharded parameters are the model's own (bf16 when loaded in bf16: no master copy);
     * MixedPrecisionPolicy reduce_dtype defaults to the parameter dtype; AdamW states in
     * the parameter dtype; gradients freed each step (set_to_none). HF models (upcast
     * loss), PEFT's fp32 adapters. */
    /* transformers models under FSDP: eager gated MLP; bitsandbytes QLoRA dequantizes per
     * matmul (as hf-trainer). */
    {.profile = "fsdp", .modes = M_(HWFIT_MEMORY_QLORA), .sets = HWFIT_PROFILE_DEQUANT,
     .dequant = 1},
    {.profile = "fsdp", .sets = HWFIT_PROFILE_GATED_ACT | HWFIT_PROFILE_NORM_UPCAST,
     .gated_act = 1, .norm_upcast = 1},
    {.profile = "fsdp", .sets = COMMON_ | HWFIT_PROFILE_MASTER_WEIGHTS |
         HWFIT_PROFILE_OPTIMIZER_STATES | HWFIT_PROFILE_FUSED | HWFIT_PROFILE_GRADIENT_BUFFER |
         HWFIT_PROFILE_GRADIENTS | HWFIT_PROFILE_LOSS,
     .master_weights = 0, .states = HWFIT_DTYPE_BF16, .fused = 0,
     .gradients = HWFIT_DTYPE_BF16, .loss = HWFIT_MEMORY_LOSS_UPCAST,
     .overhead = OVERHEAD_DIST, .fragmentation = FRAG},
    /* LoRA through PEFT on the transformers model (the checkpoint's modules, as
     * hf-trainer). */
    {.profile = "fsdp", .modes = ADAPT_, .sets = HWFIT_PROFILE_LORA_MODULES,
     .lora_modules = HWFIT_MEMORY_LORA_MODULES_CHECKPOINT},
    {.profile = "fsdp", .modes = ADAPT_,
     .sets = HWFIT_PROFILE_LORA_DTYPE | HWFIT_PROFILE_GRADIENTS | HWFIT_PROFILE_OPTIMIZER_STATES,
     .lora_dtype = HWFIT_DTYPE_FP32, .gradients = HWFIT_DTYPE_FP32, .states = HWFIT_DTYPE_FP32},
    /* QLoRA through PEFT and bitsandbytes Linear4bit (MatMul4Bit keeps its input). */
    {.profile = "fsdp", .modes = M_(HWFIT_MEMORY_QLORA), .sets = HWFIT_PROFILE_QLORA_INPUTS,
     .qlora_inputs = 1},
    /* The root unit (embedding, final norm, head under a decoder-layer auto-wrap policy:
     * Accelerate's TRANSFORMER_BASED_WRAP, Answer.AI's fsdp_qlora) stays gathered from
     * forward through backward (as hf-trainer above). */
    {.profile = "fsdp", .sets = HWFIT_PROFILE_ROOT_UNSHARDED, .root_unsharded = 1},
    /* FSDP1 built on the card (device_id: Accelerate's prepare_model, llama-recipes'
     * FSDP(..., device_id=torch.cuda.current_device()), Answer.AI's train.py): the wrap's
     * residue on the compute stream (as hf-trainer above); FSDP2 runs give
     * --no-fsdp-wrap-residue. */
    {.profile = "fsdp", .sets = HWFIT_PROFILE_WRAP_RESIDUE, .wrap_residue = 1},
    /* FSDP holds the sharding: trained parameters upcast to fp32 (trained_fp32, e.g.
     * Accelerate 0.30+'s upcast of bf16-loaded flat parameters under mixed precision) are
     * the flat-parameter shards themselves, gathered in param_dtype (shard.c,
     * fsdp_flat_upcast); no effect without trained_fp32. */
    {.profile = "fsdp", .sets = HWFIT_PROFILE_FSDP_FLAT_UPCAST, .fsdp_flat_upcast = 1},
    /* bitsandbytes QLoRA: FSDP flattens and shards the packed data only; the QuantState
     * stays whole on every card (as hf-trainer). */
    {.profile = "fsdp", .modes = M_(HWFIT_MEMORY_QLORA), .sets = HWFIT_PROFILE_QUANT_SCALES,
     .quant_scales = 1},

    /* ---- Megatron-LM / NeMo (megatron/core/optimizer, distributed/param_and_grad_buffer.py) */
    /* bf16 with fp32 master weights and fp32 Adam states (Float16OptimizerWithFloat16Params,
     * DistributedOptimizer); gradients accumulate into a contiguous fp32 main_grad buffer
     * (--accumulate-allreduce-grads-in-fp32, required with bf16) that lives through the
     * step; fused Adam (apex/TE FusedAdam). Loss: vocab-parallel cross-entropy on fp32
     * logits, which theoretical_memory_usage.py counts as 4sbh(1 + V/h); as the code runs,
     * GPTModel.forward keeps the output layer's bf16 `logits` while
     * VocabParallelCrossEntropy.calculate_logits_max (core/tensor_parallel/cross_entropy.py)
     * makes and keeps their fp32 copy (MindSpeed patches it to free the bf16 storage):
     * loss fp32-copy, 4sbh + 6sbV. Llama-style
     * examples pass --attention-dropout 0 --hidden-dropout 0. */
    {.profile = "megatron", .sets = COMMON_ | HWFIT_PROFILE_MASTER_WEIGHTS |
         HWFIT_PROFILE_OPTIMIZER_STATES | HWFIT_PROFILE_FUSED | HWFIT_PROFILE_GRADIENT_BUFFER |
         HWFIT_PROFILE_GRADIENTS | HWFIT_PROFILE_LOSS | HWFIT_PROFILE_LORA_DTYPE,
     .master_weights = 1, .states = HWFIT_DTYPE_FP32, .fused = 1, .gradient_buffer = 1,
     .gradients = HWFIT_DTYPE_FP32, .lora_dtype = HWFIT_DTYPE_BF16,
     .loss = HWFIT_MEMORY_LOSS_FP32_COPY, .overhead = OVERHEAD_DIST, .fragmentation = FRAG},
    /* --optimizer-cpu-offload (Megatron-Core's HybridDeviceOptimizer,
     * core/optimizer/cpu_offloading/hybrid_optimizer.py): the fp32 master parameters and
     * Adam moments live on the host and step there; each step copies the gradients, views
     * of the DDP main_grad buffer, to pinned host tensors (_set_sub_optimizer_grads), and
     * the buffer stays on the GPU. Only acts with an optimizer offload layout. */
    {.profile = "megatron", .sets = HWFIT_PROFILE_OFFLOAD_KEEPS_GRADS, .offload_keeps_grads = 1},
    /* Megatron-Core's layers hold q, k and v in one linear_qkv and the gated MLP's gate and
     * up in one linear_fc1 (per routed expert too, TEGroupedLinear), whatever the
     * checkpoint; LoRA wraps those modules (lora_modules fused): Megatron-Bridge's LoRA
     * (src/megatron/bridge/peft/lora.py at 0191fc5e: target_modules default linear_qkv,
     * linear_proj, linear_fc1, linear_fc2, one ParallelLinearAdapter of the module's
     * in_features and out_features each) and Megatron-SWIFT's (ms-swift
     * swift/megatron/tuners/lora.py at 4c798c6a: LoraParallelLinear on the base layer, a
     * grouped lora_A and lora_B of num_gemms for the experts' linear_fc1). */
    {.profile = "megatron", .modes = ADAPT_, .sets = HWFIT_PROFILE_LORA_MODULES,
     .lora_modules = HWFIT_MEMORY_LORA_MODULES_FUSED},
    /* The step copies 16-bit gradients to fp32 (DistributedOptimizer and
     * Float16OptimizerWithFloat16Params _copy_model_grads_to_main_grads, at Megatron-LM
     * 23265d2db: shard_main_param.grad = shard_model_grad.float()); acts only with
     * --gradients bf16/fp16 (grad_reduce_in_fp32 False), not with the fp32 buffer above. */
    {.profile = "megatron", .sets = HWFIT_PROFILE_GRADS_UPCAST, .grads_upcast = 1},
    /* Computing in FP8 (--fp8-format, fp8_autocast), Megatron-Core's layer specs use
     * Transformer Engine's linears (core/models/gpt/gpt_layer_specs.py,
     * get_gpt_layer_with_transformer_engine_spec: TELayerNormColumnParallelLinear,
     * TERowParallelLinear), which quantize their input and keep that FP8 copy for the
     * weight gradient (transformer_engine/pytorch/module/linear.py _Linear.forward at
     * f031cf87: saved_inputmat = inputmat after input_quantizer). Full training only: the
     * LoRA adapters of Megatron-Bridge/ms-swift are not TE modules. */
    {.profile = "megatron", .fp8 = 1, .modes = FULL_, .sets = HWFIT_PROFILE_FP8_INPUTS,
     .fp8_inputs = 1},

    /* ---- Unsloth (unsloth/models/_utils.py, unsloth_zoo) -------------------------------- */
    /* use_gradient_checkpointing="unsloth": checkpoints offloaded to host memory
     * (Unsloth_Offloaded_Gradient_Checkpointer); fused cross-entropy (Apple Cut Cross
     * Entropy since 2024-11-17, commit fa8e59eb1b; releases before kept the whole
     * vocabulary's logits for their Fast_CrossEntropyLoss: --loss inplace, and cast them to
 * config.torch_dtype first: --loss inplace-cast when the run's format differs); LoRA
     * through PEFT (fp32 adapters); notebooks use optim "adamw_8bit".
     * The offloaded checkpointer (2024.8 _utils.py) copies each layer's input to the host
     * (hidden_states.to("cpu", non_blocking = True)), runs the layer under no_grad and
     * saves the host copy; ctx.args holds only the mask and positions. The device keeps
     * the input being copied out and the output being made: two layers' inputs, as
     * activation_offload counts. */
    /* QLoRA: Unsloth's fast_dequantize (unsloth/kernels/utils.py) dequantizes each 4-bit
     * weight whole before its matmul in training (dequant_transient); its MLP kernels are
     * fused (swiglu_fg_kernel), so no gated_act_kept. */
    {.profile = "unsloth", .modes = M_(HWFIT_MEMORY_QLORA), .sets = HWFIT_PROFILE_DEQUANT,
     .dequant = 1},
    {.profile = "unsloth", .sets = COMMON_ | HWFIT_PROFILE_MASTER_WEIGHTS |
         HWFIT_PROFILE_OPTIMIZER_STATES | HWFIT_PROFILE_FUSED | HWFIT_PROFILE_GRADIENT_BUFFER |
         HWFIT_PROFILE_GRADIENTS | HWFIT_PROFILE_LOSS | HWFIT_PROFILE_RECOMPUTE |
         HWFIT_PROFILE_OFFLOAD | HWFIT_PROFILE_LORA_DTYPE,
     .master_weights = 0, .states = HWFIT_DTYPE_FP32, .fused = 1,
     .gradients = HWFIT_DTYPE_FP32, .lora_dtype = HWFIT_DTYPE_FP32,
     .loss = HWFIT_MEMORY_LOSS_FUSED_CHUNKED, .recompute = HWFIT_MEMORY_RECOMPUTE_FULL,
     .offload = 1, .overhead = OVERHEAD_SINGLE, .fragmentation = FRAG},
    /* Several processes (torchrun, accelerate) on the FastModel path (FastModel,
     * FastVisionModel, and FastLanguageModel for the model types it hands over:
     * hwfit_memory_in::unsloth_fast_model): from 2025.12.8 (PR #3751, 1a507b4a82,
     * 2025-12-19, "Fix VLM + DDP checkpointing") models/vision.py sets
     * use_reentrant = not is_distributed() (loader_utils.py: WORLD_SIZE or RANK from the
     * launcher counts) and removes the offloaded checkpointer's patches, so torch's
     * non-reentrant checkpoint keeps every layer's input on the card; read at 3030691e09
     * (2026.8.3), where #4240's offload for DDP had not merged. FastLanguageModel's own
     * path (models/llama.py) re-patches the offloaded checkpointer with no such test. */
    {.profile = "unsloth", .devices = 2, .fast_model = 1, .sets = HWFIT_PROFILE_OFFLOAD,
     .offload = 0, .since = 2025012008},
    /* The loss by release (hwfit_memory_profile_apply_release; unslothai/unsloth
     * models/llama.py CausalLM_fast_forward and unslothai/unsloth-zoo
     * fused_losses/cross_entropy_loss.py). Before 2024.11.7 the whole logits were kept for
     * Fast_CrossEntropyLoss (inplace; inplace-cast when the run computes in another 16-bit
     * format than the checkpoint's: a choice of the run, given alone). From 2024.11.7
     * (fa8e59eb1b, "Cut Cross Entropy") the fused loss keeps no logits (fused). From
     * 2025.8.5 (806bee2433 with unsloth-zoo fc29e051) unsloth_fused_ce_loss: the loss and
     * its gradient in forward, in chunks sized by a target (1 GiB to 2025.9.1, then half
     * the free memory), the count rounded to the nearest multiple of 4 (fused-chunked, no
     * cap, round nearest). From 2026.7.1 (unsloth-zoo d9fe1f43, required as unsloth_zoo>=2026.7.1)
     * the target is capped at 4 GiB and the count rounded up (the library's defaults). */
    {.profile = "unsloth", .sets = HWFIT_PROFILE_LOSS, .loss = HWFIT_MEMORY_LOSS_INPLACE,
     .until = 2024011007},
    {.profile = "unsloth", .sets = HWFIT_PROFILE_LOSS, .loss = HWFIT_MEMORY_LOSS_FUSED,
     .since = 2024011007, .until = 2025008005},
    /* 2025.8.5 to 2025.9.1 passed target_gb = 1 (806bee2433; None from 5c1b0ae9dd): the
     * target is 1 GiB, free memory not read (share 1: T = min(1 GiB, free)). */
    {.profile = "unsloth", .sets = HWFIT_PROFILE_LOSS_CHUNKS, .loss_target = 1073741824.0,
     .free_share = 1.0, .round_up = 0, .since = 2025008005, .until = 2025009002},
    {.profile = "unsloth", .sets = HWFIT_PROFILE_LOSS_CHUNKS, .loss_target = HUGE_VAL,
     .free_share = 0.5, .round_up = 0, .since = 2025009002, .until = 2026007001},
    /* From 2024.12.5 (b9fe2588e5, "< 1024 Normal Unsloth uses less VRAM!": `if
     * bsz*q_len <= 1024: RETURN_LOGITS = True`) a micro-batch of at most 1024 tokens skips
     * the fused loss: its whole logits are made, cast to the config's dtype and passed to
     * Fast_CrossEntropyLoss. 0528b4ce71 (2025.10.11) sends them to the fused loss too. */
    {.profile = "unsloth", .sets = HWFIT_PROFILE_LOSS_SHORT, .short_tokens = 1024,
     .since = 2024012005, .until = 2025010011},
    {.profile = "unsloth", .sets = HWFIT_PROFILE_LOSS_CHUNKS, .loss_target = 4294967296.0,
     .free_share = 0.5, .round_up = 1, .since = 2026007001},
    /* Unsloth trains through transformers' Trainer (TRL's SFTTrainer in its notebooks,
     * LLaMA-Factory's Seq2SeqTrainer) with fp16 or bf16 set, so Accelerate's
     * prepare_model wraps the forward in ConvertOutputsToFp32 (accelerate 0.34.2
     * accelerator.py: `model.forward = MethodType(convert_outputs_to_fp32(...), model)`
     * under native_amp; utils/operations.py convert_to_fp32: `tensor.float()` on each
     * fp16/bf16 output). Unsloth's CausalLM_fast_forward returns its 16-bit logits
     * (it strips transformers' `logits.float()`): before Cut Cross Entropy (--loss inplace,
     * inplace-cast) their fp32 copy is live at the forward's end (outputs_fp32); with the
     * fused loss no logits are returned and it counts nothing.
     * Re-read per release (unslothai/unsloth tags; unsloth3): 2024.5 (3329eb6a2c),
     * 2024.7 (July-2024), 2024.8 (August-2024), 2024.9.post2 (September-2024) and
     * 2024.10.0 (October-2024), models/llama.py CausalLM_fast_forward (gemma2.py and
     * qwen2.py install the same): with labels the full logits are made, cast to
     * config.torch_dtype (16-bit) and returned in CausalLMOutputWithPast beside the loss.
     * Unsloth leaves the wrapper in place: its Accelerator.prepare patch (_utils.py) only
     * forces DistributedType.NO, its _fast_inner_training_loop is transformers' own source
     * with text substitutions that keep accelerator.prepare(model), and no release up to
     * 2024.10.0 patches compute_loss or training_step (2024.11's gradient-accumulation fix,
     * patch_gradient_accumulation_fix, only passes num_items_in_batch through them; the
     * outputs are still dropped with compute_loss's return). 2024.11 (November-2024) returns logits=None
     * when cut_cross_entropy is installed; from 2024.12 (December-2024) EMPTY_LOGITS unless
     * UNSLOTH_RETURN_LOGITS=1 (then --loss inplace and the copy counts again). */
    {.profile = "unsloth", .sets = HWFIT_PROFILE_OUTPUTS_FP32, .outputs_fp32 = 1},
    /* Unsloth patches the decoder layers with its own (models/llama.py
     * LlamaDecoderLayer_fast_forward, at 3a0fb38744 for 2025.2: fast_rms_layernorm, the
     * attention's in-place fast_rope_embedding, LoRA and SwiGLU through fused kernels), so
     * an evaluation forward does not make the requests of transformers' layers that the
     * allocator replay follows: the evaluation's reserve is the fraction alone. */
    {.profile = "unsloth", .sets = HWFIT_PROFILE_EVAL_REPLAY, .eval_replay = 0},
    /* gpt-oss (attention sinks) trains through Unsloth's flex attention with the sink from
     * 2025.8.10 (unslothai/unsloth 01500fdcbb, 2025-08-28, unsloth_zoo>=2025.8.9; unsloth-zoo
     * ac3e3119 "Fix Flex Attention", 2025-08-27: temporary_patches/gpt_oss.py
     * patch_GptOssAttention runs flex_attention_with_sink in training). Its block mask
     * came from flex_attention/utils.py create_block_mask_cached, PyTorch's
     * create_block_mask without _compile, which materializes the dense (1, 1, s, s + 1)
     * mask and reduces it per block: 10 bytes a pair (sink_mask_bytes). unsloth-zoo
     * dc8308b6 (2025-09-25, "Compiled mask creation": "_compile MUST be on to reduce VRAM
     * otherwise O(N^2) usage"), first required by Unsloth 2025.9.9 (2fd5cc70d8,
     * unsloth_zoo>=2025.9.11), builds it compiled, block by block. Models without sinks
     * ignore it. */
    {.profile = "unsloth", .sets = HWFIT_PROFILE_SINK_MASK, .sink_mask = 10,
     .since = 2025008010, .until = 2025009009},
    /* The allocator: `import unsloth` sets PYTORCH_CUDA_ALLOC_CONF to
     * "expandable_segments:True" (unslothai/unsloth c599ae0f27, 2024-03-17, unsloth/
     * __init__.py; with torch >= 2.2; in unsloth_zoo/__init__.py since 1c1f7033cd,
     * 2025-10-26), so segments grow in place (expandable_segments: no record reserve, no
     * upcast-freed strand). From the first release certainly after it, 2024.4. A script
     * that starts CUDA before importing Unsloth runs the plain allocator: a choice of the
     * run, given alone (--no-expandable-segments). */
    {.profile = "unsloth", .sets = HWFIT_PROFILE_EXPANDABLE, .expandable = 1,
     .since = 2024004000},
    /* Attention: Unsloth's own fast attention for the models it rewrites (fused either
     * way), transformers' dispatch for the rest: gpt-oss ran transformers' eager attention
     * (its _supports_sdpa = False) until Unsloth 2025.8.10 brought flex attention with the
     * sink (temporary_patches/gpt_oss.py, above), fused from then on. */
    /* Its own attention for the models it rewrites (models/llama.py
     * LlamaAttention_fast_forward: xFormers when HAS_XFORMERS, flash_attn when installed, SDPA
     * only without either): on a card without the flash kernel xFormers serves, so SDPA's
     * math fallback is not assumed (a run without xFormers gives --attention math). */
    {.profile = "unsloth", .sets = HWFIT_PROFILE_SDPA_GQA_MATH, .sdpa_gqa_math = 0},
    {.profile = "unsloth", .sets = HWFIT_PROFILE_ATTENTION, .attention = HWFIT_ATTENTION_SDPA,
     .until = 2025008010},
    {.profile = "unsloth", .sets = HWFIT_PROFILE_ATTENTION, .attention = HWFIT_ATTENTION_FLASH,
     .since = 2025008010},
    /* Checkpointing switched off by the trainer's arguments: from 2025.11.5 (f7be4b1140,
     * 2025-12-01, #3659: the trainers Unsloth generates, unsloth/models/rl.py, call
     * model.for_training(use_gradient_checkpointing=getattr(args, 'gradient_checkpointing',
     * True)), and for_training (models/llama.py) writes that value over every module's
     * gradient_checkpointing) until 2026.7.1 (2b06616a7e, 2026-07-03, #6829: the mode
     * recorded at get_peft_model wins over the arguments), an SFTConfig whose
     * gradient_checkpointing is False turns the offloaded checkpoints off: every layer's
     * activations stay on the card. TRL's SFTConfig declares gradient_checkpointing True only
     * from 0.22.0 (a222aeb46, 2025-08-08); before, it inherits TrainingArguments' False. So
     * the row needs TRL's release (hwfit_memory_profile_apply_releases); a run that passes
     * plain TrainingArguments without gradient_checkpointing=True is the same on any TRL
     * (give --recompute none). */
    {.profile = "unsloth", .sets = HWFIT_PROFILE_RECOMPUTE | HWFIT_PROFILE_OFFLOAD,
     .recompute = HWFIT_MEMORY_RECOMPUTE_NONE, .offload = 0, .since = 2025011005,
     .until = 2026007001, .trl_until = SEMVER_(0, 22, 0)},
    /* Loading: FastLanguageModel / FastModel.from_pretrained pass a device map
     * (device_map="sequential" by default: unsloth/models/loader.py at 16af0ceb8e, 2025.6.1)
     * to transformers' from_pretrained, so its caching allocator warm-up runs
     * (hwfit_memory_warmup): from transformers 4.50 (unquantized models), 4.51 (quantized
     * too), the cap free - 1.2 GiB from 4.52, a tied head counted once from 4.54
     * (modeling_utils.py _load_pretrained_model and caching_allocator_warmup at those
     * releases). Unsloth from 2025.4, the first releases after transformers 4.51; an older
     * transformers given (--transformers-release) takes its own row; the latest
     * transformers (5.x, when none is given) has none. */
    {.profile = "unsloth", .sets = HWFIT_PROFILE_LOAD_WARMUP,
     .load_warmup = HWFIT_MEMORY_WARMUP_UNQUANTIZED_95, .since = 2025004000,
     .tf_since = SEMVER_(4, 50, 0), .tf_until = SEMVER_(4, 51, 0)},
    {.profile = "unsloth", .sets = HWFIT_PROFILE_LOAD_WARMUP,
     .load_warmup = HWFIT_MEMORY_WARMUP_95, .since = 2025004000,
     .tf_since = SEMVER_(4, 51, 0), .tf_until = SEMVER_(4, 52, 0)},
    {.profile = "unsloth", .sets = HWFIT_PROFILE_LOAD_WARMUP,
     .load_warmup = HWFIT_MEMORY_WARMUP_MARGIN, .since = 2025004000,
     .tf_since = SEMVER_(4, 52, 0), .tf_until = SEMVER_(4, 54, 0)},
    {.profile = "unsloth", .sets = HWFIT_PROFILE_LOAD_WARMUP,
     .load_warmup = HWFIT_MEMORY_WARMUP_MARGIN_UNTIED, .since = 2025004000,
     .tf_since = SEMVER_(4, 54, 0), .tf_until = SEMVER_(5, 0, 0)},
    /* From transformers 5 (after the 4.57 cut, 3553f0bc2301, which still had the factor)
     * get_total_byte_count sizes each parameter with the quantizer's packed element size
     * (hf_quantizer.param_element_size: 0.5 bytes for bitsandbytes 4-bit) and allocates that
     * count without a factor, capped at the card's total less 1.2 GiB: the block is the
     * loaded weights' size and sets no floor above them (no row: NONE). */

    /* ---- LitGPT (Lightning-AI/litgpt finetune/lora.py, config_hub) ----------------------- */
    /* precision "bf16-true": weights, adapters, gradients and AdamW states all bf16, no
     * master copy; loss litgpt.utils.chunked_cross_entropy (chunk_size 128 tokens, logits
     * kept in bf16 and upcast per chunk); config_hub/finetune/MODEL/lora.yaml lora_dropout 0.05
     * (litgpt/lora.py applies it to each LoRA layer's input, and once for the fused
     * attention projection: LoRAQKVLinear.forward, at 00af8b0d9 and in lit_gpt/lora.py of
     * 2023, computes F.linear(self.lora_dropout(x), self.lora_A) for the enabled q, k and v
     * together: lora_qkv_one_dropout). */
    /* Soft-capped attention runs eager: CausalSelfAttention.scaled_dot_product_attention
     * (litgpt/model.py) computes q @ k.mT, do_softcapping and an fp32 F.softmax itself when
     * config.attention_logit_softcapping is set ("with softcapping we cannot use SDPA"),
     * so Gemma 2 keeps its s^2 scores (softcap_eager). */
    /* Tied heads are untied: scripts/convert_hf_checkpoint.py copies
     * transformer.wte.weight into lm_head.weight when the checkpoint has no head, and GPT
     * (litgpt/model.py) holds lm_head as an nn.Linear of its own. */
    {.profile = "litgpt", .sets = COMMON_ | HWFIT_PROFILE_MASTER_WEIGHTS | HWFIT_PROFILE_LORA_DROPOUT |
         HWFIT_PROFILE_UNTIED_HEAD | HWFIT_PROFILE_SOFTCAP_EAGER |
         HWFIT_PROFILE_OPTIMIZER_STATES | HWFIT_PROFILE_FUSED | HWFIT_PROFILE_GRADIENT_BUFFER |
         HWFIT_PROFILE_GRADIENTS | HWFIT_PROFILE_LOSS | HWFIT_PROFILE_LORA_DTYPE |
         HWFIT_PROFILE_QKV_ONE_DROPOUT,
     .master_weights = 0, .states = HWFIT_DTYPE_BF16, .fused = 0,
     .gradients = HWFIT_DTYPE_BF16, .lora_dtype = HWFIT_DTYPE_BF16,
     .loss = HWFIT_MEMORY_LOSS_CHUNKED, .lora_dropout = 1, .qkv_one_dropout = 1,
     .untied_head = 1,
     .softcap_eager = 1,
     .overhead = OVERHEAD_SINGLE, .fragmentation = FRAG},
    /* --quantize bnb.*: Lightning's BitsandbytesPrecision swaps every nn.Linear for a
     * bitsandbytes Linear4bit (lightning/fabric/plugins/precision/bitsandbytes.py), whose
     * MatMul4Bit keeps its input for backward. */
    {.profile = "litgpt", .modes = M_(HWFIT_MEMORY_QLORA),
     .sets = HWFIT_PROFILE_QLORA_INPUTS | HWFIT_PROFILE_DEQUANT, .qlora_inputs = 1, .dequant = 1},
    /* Eager kernels and the loop (litgpt/model.py, litgpt/finetune/lora.py): LLaMAMLP.forward
     * is silu(fc_1(x)) * fc_2(x) unfused (gated_act_kept); CausalSelfAttention.forward
     * expands k and v to every query head in training ("flash attention requires it",
     * kv_repeated); fit() binds `logits = model(input_ids, lm_head_chunk_size=128)` and
     * keeps it until the next forward returns (previous_graph). RMSNorm.forward upcasts
     * (x = x.float(); x_normed = x * torch.rsqrt(norm_x + eps); (x_normed *
     * weight.float()).to(dtype)): the fp32 input is kept, and with a trained weight the
     * fp32 x_normed, 4 bytes where norm_upcast_kept counts A (norm_upcast_kept, and
     * norm_weight_fp32 for the 4 bytes). */
    {.profile = "litgpt", .sets = HWFIT_PROFILE_GATED_ACT | HWFIT_PROFILE_KV_REPEATED |
         HWFIT_PROFILE_PREVIOUS_GRAPH | HWFIT_PROFILE_NORM_UPCAST | HWFIT_PROFILE_NORM_WEIGHT_FP32,
     .gated_act = 1, .kv_repeated = 1, .previous_graph = 1, .norm_upcast = 1,
     .norm_weight_fp32 = 1},

    /* ---- LLaMA-Factory (hiyouga/LLaMA-Factory) ------------------------------------------- */
    /* Gradient checkpointing is on unless disabled: hparams/model_args.py
     * disable_gradient_checkpointing default False, and
     * model/model_utils/checkpointing.py prepare_model_for_training calls
     * model.gradient_checkpointing_enable() when it is not set (every layer). */
    {.profile = "llama-factory", .sets = HWFIT_PROFILE_RECOMPUTE,
     .recompute = HWFIT_MEMORY_RECOMPUTE_FULL},
    /* Attention: flash_attn "auto" leaves transformers' choice (the hf-trainer row), but
     * gpt_oss is sent to the sink-aware FlashAttention-3 kernel whatever flash_attn says
     * (src/llamafactory/model/model_utils/attention.py at f2751d81,
     * configure_attn_implementation: "kernels-community/vllm-flash-attn3"): fused. */
    {.profile = "llama-factory", .sets = HWFIT_PROFILE_ATTENTION,
     .attention = HWFIT_ATTENTION_FLASH},
    /* ---- axolotl (axolotl-ai-cloud/axolotl; otherwise the hf-trainer+peft profile) ------ */
    /* Its example configs set flash_attention: true, and for gpt-oss also
     * attn_implementation: kernels-community/vllm-flash-attn3, the sink-aware kernel
     * (examples/gpt-oss/gpt-oss-20b-sft-lora-singlegpu.yaml at 107c67ae): fused. */
    {.profile = "axolotl", .sets = HWFIT_PROFILE_ATTENTION, .attention = HWFIT_ATTENTION_FLASH},
    /* LoRA and QLoRA: after PEFT's prepare_model_for_kbit_training (which casts the norms,
     * embedding and head to fp32) axolotl casts every module with "norm" in its name and
     * the embedding modules (embed_tokens, lm_head) back to torch_dtype whenever an adapter
     * is trained ("LlamaRMSNorm layers are in fp32 after kbit_training ... convert them back
     * to fp16/bf16 for flash-attn compatibility": needs_fa2_dtype = cfg.adapter or
     * cfg.fsdp, from 1991946c5, 2023-09-01, first released in v0.3.0; at 002a637c86
     * src/axolotl/loaders/model.py _configure_embedding_dtypes, also for cut_cross_entropy;
     * FSDP QLoRA skips the fp32 preparation and stays in torch_dtype). So the unquantized
     * tensors are 16-bit (bf16 here: give --unquantized fp16 for an fp16 run) and the
     * norms return their input's 16-bit format: no fp32 residual stream. Runs of August 2023
     * and before kept them fp32 (the hf-trainer+peft profile's reading). */
    {.profile = "axolotl", .modes = ADAPT_,
     .sets = HWFIT_PROFILE_UNQUANTIZED | HWFIT_PROFILE_RESIDUAL_FP32,
     .unquantized = HWFIT_DTYPE_BF16, .residual_fp32 = 0, .since = 2023009000},
    /* Trained parameters upcast to fp32 unless pure_bf16 (model/adapter.py init_adapter,
     * 2023-2026: "cast trainable params to float32"; _setup_full_tuning
     * param.data = param.data.to(torch.float32); the LoRA path casts every parameter with
     * requires_grad): the Trainer's bf16/fp16 flag then only autocasts. A full fine-tune
     * holds fp32 weights, fp32 gradients (a parameter's .grad has its dtype) and fp32
     * AdamW moments (torch.optim.AdamW: zeros_like(param)), 16 bytes a parameter; the
     * adapters of LoRA and QLoRA are fp32 as PEFT already makes them. pure_bf16 is
     * --no-trained-fp32 with bf16 gradients and moments. Sharded under ZeRO, DeepSpeed casts
     * the module back to 16 bits with fp32 master partitions: shard.c, zero_master_rule. */
    {.profile = "llama-factory",
     .sets = HWFIT_PROFILE_TRAINED_FP32 | HWFIT_PROFILE_GRADIENTS | HWFIT_PROFILE_OPTIMIZER_STATES,
     .trained_fp32 = 1, .gradients = HWFIT_DTYPE_FP32, .states = HWFIT_DTYPE_FP32},

    /* ---- torchtitan (pytorch/torchtitan at 9dec370, Dec 2024: the runs of its
     * docs/performance.md) --------------------------------------------------------------- */
    /* Pre-training from scratch with FSDP2: the model is built in fp32 and sharded
     * (parallelize_llama.py apply_fsdp, MixedPrecisionPolicy(param_dtype bfloat16,
     * reduce_dtype float32): config_manager.py training.mixed_precision_param "bfloat16",
     * mixed_precision_reduce "float32"), so a card holds fp32 parameter and gradient shards
     * and gathers bf16 units; torch.optim.AdamW keeps fp32 moments (optimizer.py: "fused":
     * optimizer.fused (default off), "foreach": not fused). The fp32 parameter shard is the
     * only persistent copy, and it is what the optimizer steps: FSDP2's
     * FSDPParam.all_gather_inputs (torch/distributed/fsdp/_fully_shard/_fsdp_param.py)
     * returns sharded_param_data.to(param_dtype), a transient bf16 copy for the unit's
     * all-gather, and foreach_reduce (_fsdp_collectives.py) casts the reduced gradient to
     * the parameter's dtype (_to_dtype_if_needed(reduce_output, orig_dtype)): fp32 shards
     * of parameter and gradient. So trained_fp32 with fsdp_flat_upcast (as the fsdp
     * profile): 4 + 4 + 8 bytes a parameter over the shard group, with 4 + 8 before the
     * gradients exist (forward and the start of backward), not a bf16 partition beside an
     * fp32 master copy (2 + 4 + 8 there). Gradients fp32 (the parameters' dtype; on one
     * device without FSDP the fp32 model trains whole in fp32). Each block's reduce-scatter input, in
     * reduce_dtype float32, is held until the next block's post_backward
     * (reduce_held_bytes 4: shard.c).
     * Loss: cross_entropy(pred.flatten(0, 1).float(), labels) on the whole vocabulary
     * (train.py loss_fn), and the loop deletes pred before loss.backward() ("need to free to
     * before bwd to avoid peaking memory"): upcast-freed. training.compile at 9dec370
     * compiles the transformer blocks only (parallelize_llama.py apply_compile); the loss's
     * compile is commented out in train.py ("TODO: compiling loss function causes CUDA
     * errors"). From bbb1b616e (2025-04-02, #1033) training.compile compiles the loss
     * too, and from 08b8b244f (2025-08-20, #1608: "compile loss separately to get memory
     * reduction, even when the model is not ready to be compiled") it is compiled when
     * compile.components has "loss" (torchtitan/components/loss.py
     * build_cross_entropy_loss): a run of those gives --loss compiled. (Under pipeline parallelism the
     * schedule runs the loss instead; a PP run gives its loss.) Llama (models/llama/model.py) has no dropout (COMMON_);
     * its FeedForward is w2(F.silu(w1(x)) * w3(x)) in eager kernels (gated_act_kept;
     * training.compile is off by default, compile fuses it); Attention repeats K and V to
     * every query head (repeat_kv) before F.scaled_dot_product_attention, which keeps the
     * copies (kv_repeated); RMSNorm (models/norms.py, norm_type "rmsnorm" in the train
     * configs) is self._norm(x.float()).type_as(x) * self.weight: the fp32 copy kept
     * (norm_upcast_kept). From 3b39d7ab0 (2025-03-19, #985) the models use torch.nn.RMSNorm,
     * whose CUDA path from PyTorch 2.9 (pytorch#153666: rms_norm dispatches to
     * at::_fused_rms_norm, saving the input and an fp32 rstd) keeps no copy: a run on such a
     * nightly gives --no-norm-upcast-kept (the Qwen3 and DeepSeek-V3 cases do). Activation checkpointing: mode "selective" (config_manager.py
     * default), selective_ac_option "op" in train_configs/llama3_8b.toml (the op-level
     * policy, hwfit_memory_in::selective; the 70B and 405B configs set mode 'full', which
     * a run gives as --recompute full). The root unit (tok_embeddings, norm, output:
     * fully_shard(model)) stays gathered from forward through backward (FSDP2's lazy init
     * sets the root's post_forward_mesh_info to None), as the fsdp profile. Its launcher
     * runs the allocator with expandable segments (run_llama_train.sh since a5e57e4a9,
     * 2024-10-22, PR #643, and at 9dec370: PYTORCH_CUDA_ALLOC_CONF="expandable_segments:
     * True"; run_train.sh later, PYTORCH_ALLOC_CONF): the loss strands no block
     * (expandable_segments). */
    {.profile = "torchtitan", .sets = COMMON_ | HWFIT_PROFILE_MASTER_WEIGHTS |
         HWFIT_PROFILE_OPTIMIZER_STATES | HWFIT_PROFILE_FUSED | HWFIT_PROFILE_GRADIENT_BUFFER |
         HWFIT_PROFILE_GRADIENTS | HWFIT_PROFILE_LOSS | HWFIT_PROFILE_GATED_ACT |
         HWFIT_PROFILE_KV_REPEATED | HWFIT_PROFILE_NORM_UPCAST | HWFIT_PROFILE_ROOT_UNSHARDED |
         HWFIT_PROFILE_TRAINED_FP32 | HWFIT_PROFILE_FSDP_FLAT_UPCAST | HWFIT_PROFILE_REDUCE_HELD |
         HWFIT_PROFILE_EXPANDABLE | HWFIT_PROFILE_LOSS_PARALLEL,
     .expandable = 1, .loss_parallel = 1,
     .master_weights = 0, .states = HWFIT_DTYPE_FP32, .fused = 0, .gradient_buffer = 0,
     .gradients = HWFIT_DTYPE_FP32, .loss = HWFIT_MEMORY_LOSS_UPCAST_FREED,
     .gated_act = 1, .kv_repeated = 1, .norm_upcast = 1, .root_unsharded = 1,
     .trained_fp32 = 1, .fsdp_flat_upcast = 1, .reduce_held = 4,
     .overhead = OVERHEAD_DIST, .fragmentation = FRAG},
    /* torchtitan trains every parameter (no LoRA at 9dec370): the checkpointing choice is
     * full training's (the op policy counts a dense layer's seven matmuls). */
    {.profile = "torchtitan", .modes = FULL_,
     .sets = HWFIT_PROFILE_RECOMPUTE | HWFIT_PROFILE_SELECTIVE,
     .recompute = HWFIT_MEMORY_RECOMPUTE_SELECTIVE, .selective = HWFIT_MEMORY_SELECTIVE_OPS},
};

/* Trainer-based front ends: the Trainer's profile under their own name, then their own
 * rows. LLaMA-Factory (src/llamafactory/train/sft/workflow.py) and ms-swift (swift/trainers)
 * subclass transformers.Trainer and prepare quantized models themselves (no fp32 cast of
 * embeddings); Axolotl (src/axolotl/utils/models.py) calls PEFT's
 * prepare_model_for_kbit_training, as "hf-trainer+peft" does. */
static const struct {
    const char *alias, *profile;
} aliases[] = {
    {"hf-trainer+peft", "hf-trainer"},
    {"llama-factory", "hf-trainer"},
    {"axolotl", "hf-trainer+peft"},
    {"ms-swift", "hf-trainer"},
    {"trl", "hf-trainer+peft"},
};

/* Profiles whose framework numbers its releases MAJOR.MINOR[.PATCH] (semantic versions);
 * the others number them YEAR.MONTH[.PATCH] (Unsloth). */
static const char *const semver_profiles[] = {"trl"};

static const struct {
    const char *name, *summary;
} names[] = {
    {"torchtune", "pure bf16 (no master copy, bf16 AdamW states), fused AdamW, chunked "
                  "cross-entropy, full checkpointing, logits freed before backward; single-device "
                  "full: paged 8-bit AdamW stepped in backward (recipes/configs)"},
    {"hf-trainer", "transformers Trainer: bf16 model, foreach AdamW, whole-vocabulary fp32 "
                   "logits (the model's outputs dropped before backward, the loss's tensors "
                   "freed before the last layer is rebuilt); PEFT adapters in fp32"},
    {"hf-trainer+peft", "the hf-trainer profile with PEFT: QLoRA through "
                        "prepare_model_for_kbit_training (fp32 norms, embedding and head, so "
                        "fp32 hidden states between layers; gradient checkpointing)"},
    {"deepspeed", "ZeRO: fp32 master and Adam states, persistent gradient partitions, "
                  "contiguous reduce buckets, HF upcast loss"},
    {"fsdp", "PyTorch FSDP2 on a bf16 model: no master copy, states in the parameter dtype, "
             "HF upcast loss; an fp32-upcast model keeps only its fp32 shards (FSDP1)"},
    {"megatron", "Megatron-LM/NeMo: fp32 master and Adam, fp32 main_grad buffer (kept on the "
                 "card by its CPU optimizer offload), vocab-parallel loss with bf16 logits "
                 "beside their fp32 copy"},
    {"unsloth", "offloaded checkpoints, fused cross-entropy in chunks sized by the card's free "
                "memory (the loss by release: --framework-release), fp32 LoRA adapters"},
    {"litgpt", "bf16-true: everything bf16, chunked cross-entropy, head a linear of its own "
               "(quantized with QLoRA), eager MLP, K/V repeated, the last step's logits held"},
    {"llama-factory", "transformers Trainer with PEFT (the hf-trainer profile), gradient "
                      "checkpointing on (its default), trained parameters upcast to fp32 "
                      "with fp32 gradients and moments (not pure_bf16)"},
    {"axolotl", "transformers Trainer with PEFT (the hf-trainer+peft profile); adapters: "
                "norms, embedding and head cast back to 16 bits after the k-bit preparation "
                "(from v0.3.0, --framework-release 2023.9)"},
    {"ms-swift", "transformers Trainer with PEFT (the hf-trainer profile)"},
    {"torchtitan", "FSDP2 pre-training of an fp32 model gathered in bf16 (fp32 parameter "
                   "and gradient shards, 16 bytes a parameter with the moments), foreach "
                   "AdamW, whole-vocabulary fp32 loss (logits freed "
                   "before backward; DTensor loss parallel under TP), eager "
                   "Llama kernels, op-level selective checkpointing"},
    {"trl", "TRL's SFTTrainer (the hf-trainer+peft profile): from 1.7 its chunked_nll loss, "
            "256 rows a chunk with the head's copy (the loss by release: "
            "--framework-release)"},
};

const char *hwfit_memory_profile_name(size_t i) {
    return i < sizeof names / sizeof names[0] ? names[i].name : NULL;
}

const char *hwfit_memory_profile_summary(const char *name) {
    if (name == NULL) return NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i].name, name) == 0) return names[i].summary;
    return NULL;
}

static void apply_row(const row *r, hwfit_memory_in *in) {
    uint64_t s = r->sets;
    if (s & HWFIT_PROFILE_MASTER_WEIGHTS) in->master_weights = r->master_weights;
    if (s & HWFIT_PROFILE_OPTIMIZER_STATES) in->optimizer_states = hwfit_dtype_make(r->states);
    if (s & HWFIT_PROFILE_OPTIMIZER) in->optimizer = r->optimizer;
    if (s & HWFIT_PROFILE_PAGED) in->paged_optimizer = r->paged;
    if (s & HWFIT_PROFILE_IN_BACKWARD) in->optimizer_in_backward = r->in_backward;
    if (s & HWFIT_PROFILE_FUSED) in->fused_optimizer = r->fused;
    if (s & HWFIT_PROFILE_GRADIENT_BUFFER) in->gradient_buffer = r->gradient_buffer;
    if (s & HWFIT_PROFILE_GRADIENTS) in->gradients = hwfit_dtype_make(r->gradients);
    if (s & HWFIT_PROFILE_LORA_DTYPE) in->lora_dtype = hwfit_dtype_make(r->lora_dtype);
    if (s & HWFIT_PROFILE_LOSS) in->loss = r->loss;
    if (s & HWFIT_PROFILE_RECOMPUTE) in->recompute = r->recompute;
    if (s & HWFIT_PROFILE_OFFLOAD) in->activation_offload = r->offload;
    if (s & HWFIT_PROFILE_COMPILE) in->compile = r->compile;
    if (s & HWFIT_PROFILE_DROPOUT) in->dropout = r->dropout;
    if (s & HWFIT_PROFILE_OVERHEAD) in->overhead_bytes = r->overhead;
    if (s & HWFIT_PROFILE_FRAGMENTATION) in->fragmentation = r->fragmentation;
    if (s & HWFIT_PROFILE_LORA_DROPOUT) in->lora_dropout = r->lora_dropout;
    if (s & HWFIT_PROFILE_UNQUANTIZED) in->unquantized = hwfit_dtype_make(r->unquantized);
    if (s & HWFIT_PROFILE_QLORA_INPUTS) in->qlora_inputs_kept = r->qlora_inputs;
    if (s & HWFIT_PROFILE_UNTIED_HEAD) in->untied_head = r->untied_head;
    if (s & HWFIT_PROFILE_SOFTCAP_EAGER) in->softcap_eager = r->softcap_eager;
    if (s & HWFIT_PROFILE_GATED_ACT) in->gated_act_kept = r->gated_act;
    if (s & HWFIT_PROFILE_KV_REPEATED) in->kv_repeated = r->kv_repeated;
    if (s & HWFIT_PROFILE_DEQUANT) {
        in->dequant_transient = r->dequant;
        in->dequant_work_bytes = r->dequant_work;
    }
    if (s & HWFIT_PROFILE_PREVIOUS_GRAPH) in->previous_graph = r->previous_graph;
    if (s & HWFIT_PROFILE_LOAD_QUANTIZE) in->load_quantize_bytes = r->load_quantize;
    if (s & HWFIT_PROFILE_ROOT_UNSHARDED) in->root_unsharded = r->root_unsharded;
    if (s & HWFIT_PROFILE_QUANT_SCALES) in->quant_scales_replicated = r->quant_scales;
    if (s & HWFIT_PROFILE_TRAINED_FP32) in->trained_fp32 = r->trained_fp32;
    if (s & HWFIT_PROFILE_NORM_UPCAST) in->norm_upcast_kept = r->norm_upcast;
    if (s & HWFIT_PROFILE_ZERO_BUCKETS) in->zero_buckets = r->zero_buckets;
    if (s & HWFIT_PROFILE_SELECTIVE) in->selective = r->selective;
    if (s & HWFIT_PROFILE_FSDP_FLAT_UPCAST) in->fsdp_flat_upcast = r->fsdp_flat_upcast;
    if (s & HWFIT_PROFILE_OFFLOAD_KEEPS_GRADS) in->offload_keeps_grads = r->offload_keeps_grads;
    if (s & HWFIT_PROFILE_REDUCE_HELD) in->reduce_held_bytes = (uint16_t)r->reduce_held;
    if (s & HWFIT_PROFILE_LOGITS_FREED) in->logits_freed = r->logits_freed;
    if (s & HWFIT_PROFILE_OUTPUTS_FP32) in->outputs_fp32 = r->outputs_fp32;
    if (s & HWFIT_PROFILE_RESIDUAL_FP32) in->residual_fp32 = r->residual_fp32;
    if (s & HWFIT_PROFILE_EXPANDABLE) in->expandable_segments = r->expandable;
    if (s & HWFIT_PROFILE_GRADS_UPCAST) in->grads_upcast_in_step = r->grads_upcast;
    if (s & HWFIT_PROFILE_FP8_INPUTS) in->fp8_inputs_saved = r->fp8_inputs;
    if (s & HWFIT_PROFILE_WRAP_RESIDUE) in->fsdp_wrap_residue = r->wrap_residue;
    if (s & HWFIT_PROFILE_QKV_ONE_DROPOUT) in->lora_qkv_one_dropout = r->qkv_one_dropout;
    if (s & HWFIT_PROFILE_LOSS_PARALLEL) in->loss_parallel = r->loss_parallel;
    if (s & HWFIT_PROFILE_LORA_MODULES) in->lora_modules = r->lora_modules;
    if (s & HWFIT_PROFILE_EVAL_REPLAY) in->eval_replay = r->eval_replay;
    if (s & HWFIT_PROFILE_SINK_MASK) in->sink_mask_bytes = r->sink_mask;
    if (s & HWFIT_PROFILE_ATTENTION) in->flash_attention = r->attention;
    if (s & HWFIT_PROFILE_HEAD_CAST) in->head_cast_kept = r->head_cast;
    if (s & HWFIT_PROFILE_LOSS_CHUNK) in->loss_chunk_tokens = r->loss_chunk;
    if (s & HWFIT_PROFILE_SDPA_GQA_MATH) in->sdpa_gqa_math = r->sdpa_gqa_math;
    if (s & HWFIT_PROFILE_LOAD_WARMUP) in->load_warmup = r->load_warmup;
    if (s & HWFIT_PROFILE_NORM_WEIGHT_FP32) in->norm_weight_fp32 = r->norm_weight_fp32;
    if (s & HWFIT_PROFILE_LOSS_SHORT) {
        in->loss_short_tokens = r->short_tokens;
        in->loss_short = HWFIT_MEMORY_LOSS_INPLACE;
    }
    if (s & HWFIT_PROFILE_LOSS_CHUNKS) {
        in->loss_target_bytes = r->loss_target;
        in->loss_free_share = r->free_share;
        in->loss_chunks_round_up = r->round_up;
    }
}

/* "YEAR.MONTH" or "YEAR.MONTH.PATCH" as YEAR x 10^6 + MONTH x 10^3 + PATCH (years 1000 to
 * 4293, months 1 to 12, patches below 1000); with semver, "MAJOR.MINOR[.PATCH]" as
 * SEMVER_ (each part below 1000); 0 when malformed. */
static uint32_t release_key(const char *text, int semver) {
    unsigned long part[3] = {0, 0, 0};
    int n = 0;
    const char *p = text;
    while (n < 3) {
        if (*p < '0' || *p > '9') return 0;
        char *end = NULL;
        part[n++] = strtoul(p, &end, 10);
        if (end - p > 4) return 0;
        p = end;
        if (*p == '\0') break;
        if (*p != '.') return 0;
        p++;
    }
    if (*p != '\0' || n < 2) return 0;
    if (semver)
        return part[0] > 999 || part[1] > 999 || part[2] > 999
                   ? 0
                   : (uint32_t)SEMVER_(part[0], part[1], part[2]);
    if (part[0] < 1000 || part[0] > 4293 || part[1] < 1 || part[1] > 12 || part[2] > 999)
        return 0;
    return (uint32_t)(part[0] * 1000000u + part[1] * 1000u + part[2]);
}

/* The chain of names of profile `name`: itself, its base if it is an alias, that base's
 * base; returns how many (1 to 4). Rows apply from the chain's last to its first. */
static int chain_of(const char *name, const char *chain[4]) {
    chain[0] = name;
    int depth = 1;
    while (depth < 4) {
        const char *base = NULL;
        for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
            if (strcmp(aliases[i].alias, chain[depth - 1]) == 0) base = aliases[i].profile;
        if (base == NULL) break;
        chain[depth++] = base;
    }
    return depth;
}

/* The libraries a profile's rows may be dated by (hwfit_memory_profile_library_dated). */
enum { LIB_FRAMEWORK, LIB_TRL, LIB_TRANSFORMERS };

/* Whether profile `name`'s chain (itself and its bases) has a row dated by library lib's
 * release. */
static int chain_dated(const char *name, int lib) {
    const char *chain[4];
    int depth = chain_of(name, chain);
    for (int d = 0; d < depth; d++)
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
            const row *r = &rows[i];
            if (strcmp(r->profile, chain[d]) != 0) continue;
            if (lib == LIB_TRL ? (r->trl_since || r->trl_until)
                : lib == LIB_TRANSFORMERS ? (r->tf_since || r->tf_until)
                                          : (r->since || r->until))
                return 1;
        }
    return 0;
}

static int is_semver(const char *name) {
    for (size_t i = 0; i < sizeof semver_profiles / sizeof semver_profiles[0]; i++)
        if (strcmp(semver_profiles[i], name) == 0) return 1;
    return 0;
}

/* Whether a library's release can matter to profile `name`: TRL's for a profile with rows
 * dated by it (the trl profile's own release is TRL's: --framework-release), transformers'
 * likewise. */
static int library_dated(const char *name, int lib) {
    return !(lib == LIB_TRL && is_semver(name)) && chain_dated(name, lib);
}

static int in_range(uint32_t key, uint32_t since, uint32_t until) {
    return !((since && key < since) || (until && key >= until));
}

/* The rows of profile `name` (its alias chain's first) that are FP8 choices (fp8 1) or not
 * (fp8 0), applied in order to *in for its mode on `gpus` devices, for the releases rel
 * (NULL or a NULL member: the latest; the trl profile's own release is TRL's). */
static hwfit_status apply_rows(const char *name, const hwfit_memory_releases *rel,
                               uint32_t gpus, int fp8, hwfit_memory_in *in, uint64_t *sets) {
    if (name == NULL || in == NULL) return HWFIT_EINVAL;
    if (gpus == 0) return HWFIT_EDOM;
    const char *release = rel ? rel->framework : NULL, *trl = rel ? rel->trl : NULL,
               *tf = rel ? rel->transformers : NULL;
    uint32_t key = UINT32_MAX, trl_key = UINT32_MAX, tf_key = UINT32_MAX; /* the latest */
    int semver = is_semver(name);
    if (release != NULL && (key = release_key(release, semver)) == 0) return HWFIT_EPARSE;
    if (trl != NULL && (trl_key = release_key(trl, 1)) == 0) return HWFIT_EPARSE;
    if (tf != NULL && (tf_key = release_key(tf, 1)) == 0) return HWFIT_EPARSE;
    if (hwfit_memory_profile_summary(name) == NULL) return HWFIT_ENOTFOUND;
    /* A library's release given to a profile none of whose choices depends on it would
     * change nothing. */
    if ((trl != NULL && !library_dated(name, LIB_TRL)) ||
        (tf != NULL && !library_dated(name, LIB_TRANSFORMERS)))
        return HWFIT_EUNSUPPORTED;
    if (semver && release != NULL) trl_key = key;
    const char *chain[4];
    int depth = chain_of(name, chain);
    hwfit_memory_in out = *in;
    uint64_t all = 0;
    for (int d = depth - 1; d >= 0; d--)
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
            const row *r = &rows[i];
            if (strcmp(r->profile, chain[d]) != 0 || r->fp8 != fp8) continue;
            if (r->modes && !(r->modes & (1u << (unsigned)in->mode))) continue;
            if (r->devices == 1 && gpus != 1) continue;
            if (r->devices == 2 && gpus == 1) continue;
            if (r->fast_model && !in->unsloth_fast_model) continue;
            if (!in_range(key, r->since, r->until) ||
                !in_range(trl_key, r->trl_since, r->trl_until) ||
                !in_range(tf_key, r->tf_since, r->tf_until))
                continue;
            apply_row(r, &out);
            all |= r->sets;
        }
    *in = out;
    if (sets) *sets = all;
    return HWFIT_OK;
}

hwfit_status hwfit_memory_profile_apply(const char *name, uint32_t gpus, hwfit_memory_in *in,
                                        uint64_t *sets) {
    return apply_rows(name, NULL, gpus, 0, in, sets);
}

hwfit_status hwfit_memory_profile_apply_release(const char *name, const char *release,
                                                uint32_t gpus, hwfit_memory_in *in,
                                                uint64_t *sets) {
    const hwfit_memory_releases rel = {.framework = release};
    return apply_rows(name, &rel, gpus, 0, in, sets);
}

hwfit_status hwfit_memory_profile_apply_releases(const char *name,
                                                 const hwfit_memory_releases *releases,
                                                 uint32_t gpus, hwfit_memory_in *in,
                                                 uint64_t *sets) {
    if (releases == NULL) return HWFIT_EINVAL;
    return apply_rows(name, releases, gpus, 0, in, sets);
}

hwfit_status hwfit_memory_profile_dated(const char *name, int *dated) {
    if (name == NULL || dated == NULL) return HWFIT_EINVAL;
    if (hwfit_memory_profile_summary(name) == NULL) return HWFIT_ENOTFOUND;
    *dated = chain_dated(name, LIB_FRAMEWORK);
    return HWFIT_OK;
}

hwfit_status hwfit_memory_profile_library_dated(const char *name, const char *library,
                                                int *dated) {
    if (name == NULL || library == NULL || dated == NULL) return HWFIT_EINVAL;
    int lib = strcmp(library, "trl") == 0            ? LIB_TRL
              : strcmp(library, "transformers") == 0 ? LIB_TRANSFORMERS
                                                     : -1;
    if (lib < 0 || hwfit_memory_profile_summary(name) == NULL) return HWFIT_ENOTFOUND;
    *dated = library_dated(name, lib);
    return HWFIT_OK;
}

hwfit_status hwfit_memory_profile_apply_fp8(const char *name, uint32_t gpus,
                                            hwfit_memory_in *in, uint64_t *sets) {
    return apply_rows(name, NULL, gpus, 1, in, sets);
}

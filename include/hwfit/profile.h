/**
 * @file profile.h
 * @brief Framework profiles: named presets of ::hwfit_memory_in's training choices, as
 * torchtune, the Hugging Face Trainer (with PEFT and bitsandbytes), DeepSpeed, PyTorch
 * FSDP2, Megatron-LM, Unsloth and LitGPT make them by default.
 *
 * A profile is only a set of inputs: each one it sets can also be set alone in
 * ::hwfit_memory_in (optimizer_states, master_weights, paged_optimizer,
 * optimizer_in_backward, fused_optimizer, gradient_buffer, gradients, lora_dtype, loss,
 * recompute, activation_offload, compile, dropout, lora_dropout, overhead_bytes,
 * fragmentation, qlora_inputs_kept, untied_head, softcap_eager, gated_act_kept,
 * kv_repeated, dequant_transient, previous_graph, load_quantize_bytes, root_unsharded,
 * quant_scales_replicated, trained_fp32, norm_upcast_kept, zero_buckets). Some
 * choices depend on the mode and on whether one device trains (torchtune's single-device
 * full recipe steps a paged 8-bit AdamW in backward); ::hwfit_memory_profile_apply takes
 * both. Every default cites its source next to it in lib/domains/profile.c; the free
 * constants (overhead, fragmentation) are fitted to tests/data/measured (docs/accuracy.md).
 *
 * Thread safety: every function is reentrant; the table is constant.
 */
#ifndef HWFIT_PROFILE_H
#define HWFIT_PROFILE_H

#include <stddef.h>

#include "hwfit/memory.h"
#include "hwfit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup profile Framework profiles
 *  @brief Named presets of the training memory inputs.
 *  @{ */

/** @name Inputs a profile sets (hwfit_memory_profile_sets)
 *  @{ */
#define HWFIT_PROFILE_MASTER_WEIGHTS 0x0001u   /**< master_weights */
#define HWFIT_PROFILE_OPTIMIZER_STATES 0x0002u /**< optimizer_states */
#define HWFIT_PROFILE_OPTIMIZER 0x0004u        /**< optimizer */
#define HWFIT_PROFILE_PAGED 0x0008u            /**< paged_optimizer */
#define HWFIT_PROFILE_IN_BACKWARD 0x0010u      /**< optimizer_in_backward */
#define HWFIT_PROFILE_FUSED 0x0020u            /**< fused_optimizer */
#define HWFIT_PROFILE_GRADIENT_BUFFER 0x0040u  /**< gradient_buffer */
#define HWFIT_PROFILE_GRADIENTS 0x0080u        /**< gradients */
#define HWFIT_PROFILE_LORA_DTYPE 0x0100u       /**< lora_dtype */
#define HWFIT_PROFILE_LOSS 0x0200u             /**< loss */
#define HWFIT_PROFILE_RECOMPUTE 0x0400u        /**< recompute */
#define HWFIT_PROFILE_OFFLOAD 0x0800u          /**< activation_offload */
#define HWFIT_PROFILE_COMPILE 0x1000u          /**< compile */
#define HWFIT_PROFILE_DROPOUT 0x2000u          /**< dropout */
#define HWFIT_PROFILE_OVERHEAD 0x4000u         /**< overhead_bytes */
#define HWFIT_PROFILE_FRAGMENTATION 0x8000u    /**< fragmentation */
#define HWFIT_PROFILE_LORA_DROPOUT 0x10000u    /**< lora_dropout */
#define HWFIT_PROFILE_UNQUANTIZED 0x20000u     /**< unquantized */
#define HWFIT_PROFILE_QLORA_INPUTS 0x40000u    /**< qlora_inputs_kept */
#define HWFIT_PROFILE_UNTIED_HEAD 0x80000u     /**< untied_head */
#define HWFIT_PROFILE_SOFTCAP_EAGER 0x100000u  /**< softcap_eager */
#define HWFIT_PROFILE_GATED_ACT 0x200000u      /**< gated_act_kept */
#define HWFIT_PROFILE_KV_REPEATED 0x400000u    /**< kv_repeated */
#define HWFIT_PROFILE_DEQUANT 0x800000u        /**< dequant_transient, dequant_work_bytes */
#define HWFIT_PROFILE_PREVIOUS_GRAPH 0x1000000u /**< previous_graph */
#define HWFIT_PROFILE_LOAD_QUANTIZE 0x2000000u /**< load_quantize_bytes */
#define HWFIT_PROFILE_ROOT_UNSHARDED 0x4000000u /**< root_unsharded */
#define HWFIT_PROFILE_QUANT_SCALES 0x8000000u  /**< quant_scales_replicated */
#define HWFIT_PROFILE_TRAINED_FP32 0x10000000u /**< trained_fp32 */
#define HWFIT_PROFILE_NORM_UPCAST 0x20000000u  /**< norm_upcast_kept */
#define HWFIT_PROFILE_ZERO_BUCKETS 0x40000000u /**< zero_buckets */
#define HWFIT_PROFILE_SELECTIVE 0x80000000u    /**< selective */
#define HWFIT_PROFILE_FSDP_FLAT_UPCAST UINT64_C(0x100000000) /**< fsdp_flat_upcast */
#define HWFIT_PROFILE_REDUCE_HELD UINT64_C(0x200000000)      /**< reduce_held_bytes */
#define HWFIT_PROFILE_OFFLOAD_KEEPS_GRADS UINT64_C(0x400000000) /**< offload_keeps_grads */
#define HWFIT_PROFILE_LOGITS_FREED UINT64_C(0x800000000)     /**< logits_freed */
#define HWFIT_PROFILE_OUTPUTS_FP32 UINT64_C(0x1000000000)    /**< outputs_fp32 */
#define HWFIT_PROFILE_EXPANDABLE UINT64_C(0x2000000000)      /**< expandable_segments */
#define HWFIT_PROFILE_RESIDUAL_FP32 UINT64_C(0x4000000000)   /**< residual_fp32 */
#define HWFIT_PROFILE_GRADS_UPCAST UINT64_C(0x8000000000)    /**< grads_upcast_in_step */
#define HWFIT_PROFILE_WRAP_RESIDUE UINT64_C(0x10000000000)   /**< fsdp_wrap_residue */
#define HWFIT_PROFILE_FP8_INPUTS UINT64_C(0x20000000000)     /**< fp8_inputs_saved (set only
                                                                  by
                                                                  hwfit_memory_profile_apply_fp8) */
#define HWFIT_PROFILE_QKV_ONE_DROPOUT UINT64_C(0x40000000000) /**< lora_qkv_one_dropout */
#define HWFIT_PROFILE_LORA_MODULES UINT64_C(0x80000000000)    /**< lora_modules */
#define HWFIT_PROFILE_LOSS_CHUNKS UINT64_C(0x100000000000)   /**< loss_target_bytes,
                                                                  loss_free_share and
                                                                  loss_chunks_round_up */
#define HWFIT_PROFILE_LOSS_SHORT UINT64_C(0x800000000000)    /**< loss_short_tokens and
                                                                  loss_short */
#define HWFIT_PROFILE_LOSS_PARALLEL UINT64_C(0x200000000000)  /**< loss_parallel */
#define HWFIT_PROFILE_EVAL_REPLAY UINT64_C(0x400000000000)    /**< eval_replay */
#define HWFIT_PROFILE_SINK_MASK UINT64_C(0x4000000000000)    /**< sink_mask_bytes */
#define HWFIT_PROFILE_ATTENTION UINT64_C(0x8000000000000)    /**< flash_attention */
#define HWFIT_PROFILE_HEAD_CAST UINT64_C(0x10000000000000)   /**< head_cast_kept */
#define HWFIT_PROFILE_LOSS_CHUNK UINT64_C(0x20000000000000)  /**< loss_chunk_tokens */
#define HWFIT_PROFILE_SDPA_GQA_MATH UINT64_C(0x40000000000000) /**< sdpa_gqa_math */
#define HWFIT_PROFILE_LOAD_WARMUP UINT64_C(0x80000000000000)   /**< load_warmup */
#define HWFIT_PROFILE_NORM_WEIGHT_FP32 UINT64_C(0x100000000000000) /**< norm_weight_fp32 */
/* The bits are a uint64_t (hwfit_memory_profile_apply): bits past 31 are written
 * UINT64_C(0x100000000) and up. */
/** @} */

/**
 * @brief The name of profile @p i, for i from 0 until it returns NULL: "torchtune",
 * "hf-trainer", "hf-trainer+peft", "deepspeed", "fsdp", "megatron", "unsloth", "litgpt", and
 * the Trainer-based front ends "llama-factory", "axolotl" and "ms-swift", then "torchtitan"
 * and "trl" (TRL's SFTTrainer).
 * @param i Index, from 0.
 * @return The name (static storage), or NULL past the last profile.
 */
HWFIT_API const char *hwfit_memory_profile_name(size_t i);

/**
 * @brief One line on what profile @p name assumes and where it comes from.
 * @param name Profile name; NULL gives NULL.
 * @return The line (static storage), or NULL when no profile has that name.
 */
HWFIT_API const char *hwfit_memory_profile_summary(const char *name);

/**
 * @brief Set the inputs profile @p name chooses for @p in->mode on @p gpus devices; the
 * others are left as they are. Apply it before setting inputs the user gives alone.
 * @param[in]     name Profile name; NULL gives ::HWFIT_EINVAL.
 * @param[in]     gpus Devices training together (1: single-device recipes), >= 1.
 * @param[in,out] in   The inputs; NULL gives ::HWFIT_EINVAL.
 * @param[out]    sets HWFIT_PROFILE_* bits of the inputs set; may be NULL.
 * @retval HWFIT_OK        applied.
 * @retval HWFIT_EINVAL    a pointer is NULL.
 * @retval HWFIT_EDOM      @p gpus is 0.
 * @retval HWFIT_ENOTFOUND no profile has that name (@p in untouched).
 */
HWFIT_API hwfit_status hwfit_memory_profile_apply(const char *name, uint32_t gpus,
                                                  hwfit_memory_in *in, uint64_t *sets);

/**
 * @brief As ::hwfit_memory_profile_apply, with the choices of one release of the framework:
 * a profile's rows that changed between releases apply only to the releases that made them
 * (Unsloth's loss: its whole logits kept before 2024.11.7, Cut Cross Entropy until
 * 2025.8.5, chunks sized by half the free memory until 2026.7.1, capped at 4 GiB since).
 * (TRL's default loss: the Trainer's before 1.7.0, its chunked_nll since; axolotl's adapters
 * with 16-bit norms, embedding and head from 2023.9, its v0.3.0). A release is
 * "YEAR.MONTH" or "YEAR.MONTH.PATCH", as Unsloth numbers them, or "MAJOR.MINOR[.PATCH]"
 * for the trl profile (semantic versions); NULL is the latest
 * (::hwfit_memory_profile_apply). A profile with no dated rows applies alike for
 * every release.
 * @param[in]     name    Profile name; NULL gives ::HWFIT_EINVAL.
 * @param[in]     release The release, or NULL for the latest.
 * @param[in]     gpus    Devices training together, >= 1.
 * @param[in,out] in      The inputs; NULL gives ::HWFIT_EINVAL.
 * @param[out]    sets    HWFIT_PROFILE_* bits of the inputs set; may be NULL.
 * @retval HWFIT_OK        applied.
 * @retval HWFIT_EINVAL    a pointer is NULL.
 * @retval HWFIT_EDOM      @p gpus is 0.
 * @retval HWFIT_EPARSE    @p release is not YEAR.MONTH[.PATCH] (MAJOR.MINOR[.PATCH] for
 *                         trl) (@p in untouched).
 * @retval HWFIT_ENOTFOUND no profile has that name (@p in untouched).
 */
HWFIT_API hwfit_status hwfit_memory_profile_apply_release(const char *name,
                                                          const char *release, uint32_t gpus,
                                                          hwfit_memory_in *in, uint64_t *sets);

/** @brief The releases a run used, for ::hwfit_memory_profile_apply_releases: the
 * framework's own and those of the libraries it trains through. NULL members are the
 * latest; zero-initialise it ({0}) and set what is known. */
typedef struct hwfit_memory_releases {
    const char *framework;    /**< The framework's release, as
                                   ::hwfit_memory_profile_apply_release takes it. */
    const char *trl;          /**< TRL's, MAJOR.MINOR[.PATCH] (a framework that trains through
                                   TRL's SFTTrainer; the trl profile's own is @c framework). */
    const char *transformers; /**< transformers', MAJOR.MINOR[.PATCH]. */
} hwfit_memory_releases;

/**
 * @brief As ::hwfit_memory_profile_apply_release, with the releases of the libraries the
 * framework trains through: some of its choices depend on them. Unsloth 2025.11.5 to 2026.6.x
 * let the SFTConfig's gradient_checkpointing override its offloaded checkpoints, and TRL's
 * SFTConfig defaults it to True only from 0.22.0 (below, every layer's activations stay on
 * the card); Unsloth loads through transformers' from_pretrained with a device map, whose
 * caching allocator warm-up (::hwfit_memory_warmup) came in 4.50 and changed in 4.51, 4.52
 * and 4.54.
 * @param[in]     name     Profile name; NULL gives ::HWFIT_EINVAL.
 * @param[in]     releases The releases; NULL gives ::HWFIT_EINVAL.
 * @param[in]     gpus     Devices training together, >= 1.
 * @param[in,out] in       The inputs; NULL gives ::HWFIT_EINVAL.
 * @param[out]    sets     HWFIT_PROFILE_* bits of the inputs set; may be NULL.
 * @retval HWFIT_OK           applied.
 * @retval HWFIT_EINVAL       a pointer is NULL.
 * @retval HWFIT_EDOM         @p gpus is 0.
 * @retval HWFIT_EPARSE       a release is malformed (@p in untouched).
 * @retval HWFIT_ENOTFOUND    no profile has that name (@p in untouched).
 * @retval HWFIT_EUNSUPPORTED a library's release given to a profile none of whose choices
 *                            depends on it (::hwfit_memory_profile_library_dated), TRL's to
 *                            the trl profile among them (its own release is TRL's)
 *                            (@p in untouched).
 */
HWFIT_API hwfit_status hwfit_memory_profile_apply_releases(const char *name,
                                                           const hwfit_memory_releases *releases,
                                                           uint32_t gpus, hwfit_memory_in *in,
                                                           uint64_t *sets);

/**
 * @brief Whether some choice of profile @p name depends on the release of @p library, a
 * library the framework trains through ("trl": Unsloth's; "transformers": Unsloth's), so
 * that ::hwfit_memory_profile_apply_releases accepts that release for it.
 * @param[in]  name    Profile name; NULL gives ::HWFIT_EINVAL.
 * @param[in]  library "trl" or "transformers"; NULL gives ::HWFIT_EINVAL.
 * @param[out] dated   1 when some choice depends on that release, else 0; NULL gives
 *                     ::HWFIT_EINVAL.
 * @retval HWFIT_OK        @p *dated written.
 * @retval HWFIT_EINVAL    a pointer is NULL.
 * @retval HWFIT_ENOTFOUND no profile has that name, or no library that one (@p *dated
 *                         untouched).
 */
HWFIT_API hwfit_status hwfit_memory_profile_library_dated(const char *name, const char *library,
                                                          int *dated);

/**
 * @brief Whether profile @p name makes choices that differ between releases of its
 * framework, so that ::hwfit_memory_profile_apply_release gives different inputs for
 * different releases (Unsloth's loss); a profile without such rows applies alike for every
 * release, and a release given to it changes nothing.
 * @param[in]  name  Profile name (an alias is dated when its base is); NULL gives
 *                   ::HWFIT_EINVAL.
 * @param[out] dated 1 when some choice depends on the release, else 0; NULL gives
 *                   ::HWFIT_EINVAL.
 * @retval HWFIT_OK        @p *dated written.
 * @retval HWFIT_EINVAL    a pointer is NULL.
 * @retval HWFIT_ENOTFOUND no profile has that name (@p *dated untouched).
 */
HWFIT_API hwfit_status hwfit_memory_profile_dated(const char *name, int *dated);

/**
 * @brief Set the inputs profile @p name chooses when the linears compute in FP8, on top of
 * ::hwfit_memory_profile_apply (call that first, then this, then set the inputs the user
 * gives alone). The memory inputs do not carry the compute precision, so these choices are
 * kept apart: Megatron's Transformer Engine linears keep their FP8 inputs for backward in
 * full training (::HWFIT_PROFILE_FP8_INPUTS, hwfit_memory_in::fp8_inputs_saved). A profile
 * with no FP8 choice for @p in->mode leaves @p in as it is and sets @p *sets to 0.
 * @param[in]     name Profile name; NULL gives ::HWFIT_EINVAL.
 * @param[in]     gpus Devices training together, >= 1.
 * @param[in,out] in   The inputs; NULL gives ::HWFIT_EINVAL.
 * @param[out]    sets HWFIT_PROFILE_* bits of the inputs set; may be NULL.
 * @retval HWFIT_OK        applied (possibly nothing).
 * @retval HWFIT_EINVAL    a pointer is NULL.
 * @retval HWFIT_EDOM      @p gpus is 0.
 * @retval HWFIT_ENOTFOUND no profile has that name (@p in untouched).
 */
HWFIT_API hwfit_status hwfit_memory_profile_apply_fp8(const char *name, uint32_t gpus,
                                                      hwfit_memory_in *in, uint64_t *sets);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_PROFILE_H */

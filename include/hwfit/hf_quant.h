/**
 * @file hf_quant.h
 * @brief The formats a checkpoint stores its weights in, from the `quantization_config` and
 * `torch_dtype` of a Hugging Face `config.json`.
 *
 * hwfit_hf_config_load() fills hwfit_model::stored through this reader; it is also callable
 * alone, on a whole config.json or on a bare `quantization_config` object (a model type
 * hwfit does not support yet can still be read for its formats).
 *
 * Methods read (`quant_method`), with the format each linear weight gets (dtype.h):
 * | method | keys read | attention, MLP, experts |
 * |---|---|---|
 * | fp8 (DeepSeek-V3/R1, Qwen3-FP8) | fmt, weight_block_size [128, 128], modules_to_not_convert | fp8-b128 |
 * | fbgemm_fp8 | modules_to_not_convert | fp8-ch |
 * | gptq | bits 4, group_size, desc_act, sym, lm_head | int4-gG |
 * | awq | bits 4, group_size, zero_point, modules_to_not_convert | int4-gG |
 * | bitsandbytes | load_in_4bit / load_in_8bit, bnb_4bit_quant_type nf4/fp4, bnb_4bit_use_double_quant, llm_int8_skip_modules | nf4, nf4-dq, int8-ch |
 * | mxfp4 (gpt-oss) | modules_to_not_convert | experts mxfp4, the rest as converted |
 * | compressed-tensors | config_groups (weights: type, num_bits, strategy, group_size, block_structure), ignore | fp8-e4m3, fp8-ch, fp8-b128, int8, int8-ch, int4-gG, nvfp4 |
 *
 * What a method leaves alone (embedding, head, norms, routers, and the modules
 * `modules_to_not_convert`, `llm_int8_skip_modules` or `ignore` name) keeps the checkpoint
 * dtype, `torch_dtype` (or `dtype`). Names of single layers' attention or MLP
 * ("model.layers.1.mlp") are counted per matrix in hwfit_model_stored::kept_layers, the rest
 * of those kinds quantized. An unknown method, or a setting no format describes
 * (GPTQ with 3 bits, an fp8 block of 64 x 64), is refused with ::HWFIT_EUNSUPPORTED naming
 * the key and the value: never counted silently as bf16.
 *
 * Thread safety: reentrant. The functions allocate while parsing and free before returning.
 */
#ifndef HWFIT_HF_QUANT_H
#define HWFIT_HF_QUANT_H

#include <stddef.h>

#include "hwfit/model.h"
#include "hwfit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup hf_quant Stored weight formats
 *  @brief quantization_config of a config.json. Thread safety: all functions are reentrant.
 *  @{ */

/** @brief Largest text ::hwfit_hf_quant_parse reads, in bytes (as config.json's limit). */
#define HWFIT_HF_QUANT_MAX_BYTES (16u * 1024u * 1024u)

/**
 * @brief Read the stored formats from the bytes of a config.json, or of its
 * `quantization_config` object alone (an object with a `quant_method` key).
 * @param[in]  text   The bytes; need not be NUL-terminated; NULL gives ::HWFIT_EINVAL.
 * @param[in]  length Bytes in @p text, at most ::HWFIT_HF_QUANT_MAX_BYTES.
 * @param[in]  name   Name for messages; NULL means "config.json".
 * @param[out] out    The formats; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @param[out] err    Where and why it failed, or cleared on success; may be NULL.
 * @retval HWFIT_OK           read (a config without quantization_config gives method
 *                            ::HWFIT_MODEL_QUANT_NONE and every format the checkpoint's).
 * @retval HWFIT_EINVAL       @p text or @p out is NULL.
 * @retval HWFIT_ENOMEM       out of memory while parsing.
 * @retval HWFIT_ERANGE       the text is too long or nested too deep.
 * @retval HWFIT_EPARSE       malformed JSON or a key of the wrong type (the message names it).
 * @retval HWFIT_EUNSUPPORTED an unknown quant_method or torch_dtype, or a setting no format
 *                            describes (the message names the key and the value).
 */
HWFIT_API hwfit_status hwfit_hf_quant_parse(const char *text, size_t length, const char *name,
                                            hwfit_model_stored *out, hwfit_error *err);

/**
 * @brief The name of a method as configs write it: "fp8", "gptq", "compressed-tensors"...;
 * "none" for ::HWFIT_MODEL_QUANT_NONE, "unknown" for a value out of range.
 * @param[in] method The method.
 * @return A static string, never NULL.
 */
HWFIT_API const char *hwfit_hf_quant_method_name(hwfit_model_quant method);

/**
 * @brief The stored formats in words, e.g. "fp8 fp8 block 128x128 (fp8-b128: attention mlp
 * experts); the rest bf16" or "bf16, not quantized".
 * @param[in]  stored The formats; NULL gives ::HWFIT_EINVAL.
 * @param[out] buf    Destination; NULL gives ::HWFIT_EINVAL.
 * @param[in]  size   Size of @p buf; 192 bytes always suffice.
 * @retval HWFIT_OK       written.
 * @retval HWFIT_EINVAL   a pointer is NULL or a format is invalid.
 * @retval HWFIT_EBUFSIZE @p size is too small (@p buf holds a truncated text).
 */
HWFIT_API hwfit_status hwfit_hf_quant_describe(const hwfit_model_stored *stored, char *buf,
                                               size_t size);

/**
 * @brief Count, per matrix of a layer (HWFIT_KEPT_Q ... HWFIT_KEPT_DOWN), the layers a list
 * of module names keeps unquantized, as a checkpoint's skip list names single layers
 * (Unsloth's Dynamic 4-bit `llm_int8_skip_modules`: "model.layers.1.mlp",
 * "model.layers.37.self_attn.o_proj"); the result is what hwfit_memory_in::kept_layers
 * takes. A layer named twice counts once; names of no layer's attention or MLP
 * ("lm_head", "multi_modal_projector") are ignored.
 * @param[in]  names  The names, separated by commas or spaces; NULL gives ::HWFIT_EINVAL.
 * @param[in]  layers The model's layer count (hwfit_model::layers), 1 to 1024: a name of a
 *                    layer at or above it names no layer of the model.
 * @param[out] kept   The counts; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK     counted.
 * @retval HWFIT_EINVAL a pointer is NULL, or @p layers is 0 or above 1024.
 * @retval HWFIT_EDOM   a name's layer index is @p layers or more ("model.layers.40.mlp" of
 *                      a 32-layer model).
 * @retval HWFIT_EPARSE a name covers a module of every layer ("model.layers.*.mlp", "mlp":
 *                      a kind's format, give it as such), an expert, or is longer than 255
 *                      bytes.
 */
HWFIT_API hwfit_status hwfit_hf_quant_kept_layers(const char *names, uint32_t layers,
                                                  uint16_t kept[HWFIT_KEPT_MATRICES]);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_HF_QUANT_H */

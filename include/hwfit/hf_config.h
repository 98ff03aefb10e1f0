/**
 * @file hf_config.h
 * @brief Read a ::hwfit_model from a Hugging Face `config.json`.
 *
 * Supported `model_type`s: llama, mistral, mixtral, qwen2, qwen2_moe, qwen3, qwen3_moe,
 * gemma, gemma2, gemma3 (its `text_config`), gemma3_text, phi3, deepseek_v2, deepseek_v3,
 * kimi_k2 (Kimi-K2, read as deepseek_v3: its config names DeepseekV3ForCausalLM),
 * gpt_oss, llama4 (its `text_config`; the vision tower is not counted), llama4_text and
 * glm4_moe. A nested `text_config` object is followed whatever the outer type (its own
 * `model_type`, or gemma3_text under gemma3, llama4_text under llama4). Keys a file leaves out, or sets to null where transformers
 * treats None as "use the default", take the defaults of that architecture's configuration
 * class in transformers (LlamaConfig, MistralConfig, ..., DeepseekV3Config): for instance
 * `tie_word_embeddings` is false for Llama and true for Gemma, and `head_dim` is 128 for
 * Qwen3 and hidden / heads for Llama. docs/formulas.md lists the defaults and the layer
 * rules (MoE placement, sliding-window layers) per type.
 *
 * The reader is strict: malformed JSON, wrong types, out-of-range numbers and inconsistent
 * sizes are refused with the file name, the line and column, and the key in the message.
 * Keys hwfit does not need are ignored.
 *
 * Thread safety: reentrant. The functions allocate while parsing and free before returning;
 * the model they fill is a plain struct owned by the caller.
 */
#ifndef HWFIT_HF_CONFIG_H
#define HWFIT_HF_CONFIG_H

#include "hwfit/model.h"
#include "hwfit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup hf_config Hugging Face configs
 *  @brief A model from a config.json. Thread safety: all functions are reentrant.
 *  @{ */

/** @brief Largest config file read, in bytes (configs are a few kB; this bounds hostile input). */
#define HWFIT_HF_CONFIG_MAX_BYTES (16u * 1024u * 1024u)

/**
 * @brief Load a model from a config.json file.
 * @param[in]  path Path of the file; NULL gives ::HWFIT_EINVAL. Messages start with it.
 * @param[out] out  The model; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @param[out] err  Where and why it failed, or cleared on success; may be NULL.
 * @retval HWFIT_OK           loaded.
 * @retval HWFIT_EINVAL       @p path or @p out is NULL.
 * @retval HWFIT_EIO          the file cannot be opened or read.
 * @retval HWFIT_ENOMEM       out of memory while parsing.
 * @retval HWFIT_ERANGE       the file exceeds ::HWFIT_HF_CONFIG_MAX_BYTES, a number overflows
 *                            a double, nesting is too deep, or a count overflows 64 bits.
 * @retval HWFIT_EPARSE       malformed JSON, a missing or mistyped key, a value out of range,
 *                            or sizes that contradict each other (the message says which).
 * @retval HWFIT_EUNSUPPORTED an unknown model_type or layer type.
 */
HWFIT_API hwfit_status hwfit_hf_config_load(const char *path, hwfit_model *out,
                                            hwfit_error *err);

/**
 * @brief Read a model from the bytes of a config.json.
 * @param[in]  text   The bytes; need not be NUL-terminated; NULL gives ::HWFIT_EINVAL.
 * @param[in]  length Bytes in @p text.
 * @param[in]  name   Name for messages (e.g. the file name); NULL means "config.json".
 * @param[out] out    The model; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @param[out] err    Where and why it failed, or cleared on success; may be NULL.
 * @retval HWFIT_OK           read.
 * @retval HWFIT_EINVAL       @p text or @p out is NULL.
 * @retval HWFIT_ENOMEM       out of memory while parsing.
 * @retval HWFIT_ERANGE       @p length exceeds ::HWFIT_HF_CONFIG_MAX_BYTES, a number
 *                            overflows a double, nesting is too deep, or a count overflows.
 * @retval HWFIT_EPARSE       malformed JSON, a missing or mistyped key, a value out of range,
 *                            or sizes that contradict each other.
 * @retval HWFIT_EUNSUPPORTED an unknown model_type or layer type.
 */
HWFIT_API hwfit_status hwfit_hf_config_parse(const char *text, size_t length, const char *name,
                                             hwfit_model *out, hwfit_error *err);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_HF_CONFIG_H */

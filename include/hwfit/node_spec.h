/**
 * @file node_spec.h
 * @brief Read a ::hwfit_node from a JSON node file (format: docs/node-spec.md).
 *
 * A node file is one JSON object with sections "gpu", "cpu", "memory", "power" (required)
 * and "topology", "storage", "nas", "network", "chassis", "costs", "rules" (optional).
 * Sizes, rates and powers take unit strings where people write them ("96GB", "64GiB",
 * "15.36TB", "400Gb/s", "3200W", "0.18/kWh"); every key, unit and default is listed in
 * docs/node-spec.md. Every section may hold a "notes" string for people, which the reader
 * ignores (JSON has no comments).
 *
 * The reader is strict: malformed JSON, unknown keys (with a suggestion), wrong types,
 * values out of range and inconsistent parts (::hwfit_node_check) are refused with the
 * file name, the line and column, and the key in the message, e.g.
 * `seed.json:12:14: power: key 'psus' must be an integer in [1, 64], got 0`.
 *
 * The same layer reads the target workloads of an assessment from short strings
 * ("serve:llama-3.1-70b:bf16:128K"), loading the model's config.json from a models
 * directory (::hwfit_assess_workload_parse).
 *
 * Thread safety: reentrant. The functions allocate while parsing and free everything
 * before they return; the node they fill is a plain struct owned by the caller.
 */
#ifndef HWFIT_NODE_SPEC_H
#define HWFIT_NODE_SPEC_H

#include "hwfit/assess.h"
#include "hwfit/model.h"
#include "hwfit/gpu_set.h"
#include "hwfit/node.h"
#include "hwfit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup node_spec Node files
 *  @brief A node from a JSON file. Thread safety: all functions are reentrant.
 *  @{ */

/** @brief Largest node file read, in bytes. */
#define HWFIT_NODE_SPEC_MAX_BYTES (1024u * 1024u)

/**
 * @brief Read a node from the bytes of a node file.
 * @param[in]  text   The bytes; need not be NUL-terminated; NULL gives ::HWFIT_EINVAL.
 * @param[in]  length Bytes in @p text.
 * @param[in]  name   Name for messages (e.g. the file name); NULL means "node.json".
 * @param[out] out    The node; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @param[out] err    Where and why it failed, or cleared on success; may be NULL.
 * @retval HWFIT_OK        read and checked.
 * @retval HWFIT_EINVAL    @p text or @p out is NULL.
 * @retval HWFIT_ENOMEM    out of memory while parsing.
 * @retval HWFIT_ERANGE    @p length exceeds ::HWFIT_NODE_SPEC_MAX_BYTES, a number overflows
 *                         a double, or nesting is too deep.
 * @retval HWFIT_EPARSE    malformed JSON, an unknown, missing or mistyped key, a value out
 *                         of range, an unknown name (GPU model, RAID level, PSU class...),
 *                         or parts that contradict each other (the message says which).
 */
HWFIT_API hwfit_status hwfit_node_parse(const char *text, size_t length, const char *name,
                                        hwfit_node *out, hwfit_error *err);

/**
 * @brief Read a node from a node file.
 * @param[in]  path Path of the file; NULL gives ::HWFIT_EINVAL. Messages start with it.
 * @param[out] out  The node; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @param[out] err  Where and why it failed, or cleared on success; may be NULL.
 * @retval HWFIT_OK        read and checked.
 * @retval HWFIT_EINVAL    @p path or @p out is NULL.
 * @retval HWFIT_EIO       the file cannot be opened or read.
 * @retval HWFIT_ENOMEM    out of memory.
 * @retval HWFIT_ERANGE    the file exceeds ::HWFIT_NODE_SPEC_MAX_BYTES, a number overflows
 *                         a double, or nesting is too deep.
 * @retval HWFIT_EPARSE    as for ::hwfit_node_parse.
 */
HWFIT_API hwfit_status hwfit_node_load(const char *path, hwfit_node *out, hwfit_error *err);

/**
 * @brief Read a node whose GPU may be a card of one's own.
 *
 * As ::hwfit_node_parse, and besides: gpu.model may name a card of @p cards, or be an
 * object with a card's fields (the keys of a GPU file, gpu_file.h) instead of a name; that
 * card is checked as a GPU file's are and added to @p cards, and gpu.model takes its name.
 * The node's hwfit_node::gpu_set is @p cards. On failure @p cards is left as it was.
 * @param[in]     text   The bytes; need not be NUL-terminated; NULL gives ::HWFIT_EINVAL.
 * @param[in]     length Bytes in @p text.
 * @param[in]     name   Name for messages; NULL means "node.json".
 * @param[in,out] cards  The caller's cards; NULL gives ::HWFIT_EINVAL.
 * @param[out]    out    The node; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @param[out]    err    Where and why it failed, or cleared on success; may be NULL.
 * @retval HWFIT_OK        read and checked.
 * @retval other           as for ::hwfit_node_parse; HWFIT_ERANGE also when @p cards is full.
 */
HWFIT_API hwfit_status hwfit_node_parse_cards(const char *text, size_t length, const char *name,
                                              hwfit_gpu_set *cards, hwfit_node *out,
                                              hwfit_error *err);

/**
 * @brief Read a node file whose GPU may be a card of one's own (::hwfit_node_parse_cards).
 * @param[in]     path  Path of the file; NULL gives ::HWFIT_EINVAL. Messages start with it.
 * @param[in,out] cards The caller's cards; NULL gives ::HWFIT_EINVAL.
 * @param[out]    out   The node; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @param[out]    err   Where and why it failed, or cleared on success; may be NULL.
 * @retval HWFIT_OK     read and checked.
 * @retval HWFIT_EIO    the file cannot be opened or read.
 * @retval other        as for ::hwfit_node_parse_cards.
 */
HWFIT_API hwfit_status hwfit_node_load_cards(const char *path, hwfit_gpu_set *cards,
                                             hwfit_node *out, hwfit_error *err);

/** @brief Size of the model path ::hwfit_assess_workload_parse builds, including the NUL. */
#define HWFIT_WORKLOAD_PATH_SIZE 1024

/**
 * @brief Read a workload from "MODE:MODEL[:DTYPE[:CONTEXT[:BATCH]]]" and load its model.
 *
 * - MODE: `serve` (also `inference`), `full`, `lora` or `qlora` (::hwfit_memory_mode).
 * - MODEL: a name, read from `<models_dir>/<MODEL>.config.json`, or a path to a
 *   config.json when it contains '/' or ends in ".json" (then without a models directory).
 * - DTYPE (::hwfit_dtype_parse; empty = default): serving and LoRA, the weight format
 *   (default bf16); full training, the weight format, which must be plain (default bf16);
 *   QLoRA, the base format (default nf4-dq).
 * - CONTEXT: tokens per sequence, digits with an optional K (x 1024) or M (x 1048576),
 *   e.g. "128K"; default 4096 (the training sequence length for training modes).
 * - BATCH: sequences served at once, or the training micro-batch; default 1.
 *
 * Every other setting is ::hwfit_memory_init's (bf16 KV cache, AdamW, LoRA rank 16 on
 * every linear layer...). The label is the text itself.
 *
 * @param[in]  text       The workload; NULL gives ::HWFIT_EINVAL.
 * @param[in]  models_dir Directory of `<name>.config.json` files; NULL means
 *                        "tests/data/models" relative to the working directory.
 * @param[out] workload   The workload; its @c model points to @p model. NULL gives
 *                        ::HWFIT_EINVAL. Written only on success.
 * @param[out] model      Storage for the model; NULL gives ::HWFIT_EINVAL. Written only
 *                        on success.
 * @param[out] err        Where and why it failed, or cleared on success; may be NULL.
 * @retval HWFIT_OK           read.
 * @retval HWFIT_EINVAL       a required pointer is NULL.
 * @retval HWFIT_EPARSE       not of the form above, an unknown mode or dtype, a bad
 *                            context or batch, or a malformed config.json.
 * @retval HWFIT_EIO          the model's config.json cannot be read.
 * @retval HWFIT_ERANGE       the path is longer than ::HWFIT_WORKLOAD_PATH_SIZE, or the
 *                            config overflows.
 * @retval HWFIT_ENOMEM       out of memory while reading the config.
 * @retval HWFIT_EUNSUPPORTED the config's model type is not supported.
 */
HWFIT_API hwfit_status hwfit_assess_workload_parse(const char *text, const char *models_dir,
                                                   hwfit_assess_workload *workload,
                                                   hwfit_model *model, hwfit_error *err);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_NODE_SPEC_H */

/**
 * @file gpu_file.h
 * @brief Read cards of one's own from a GPU file (JSON) into a ::hwfit_gpu_set.
 *
 * A GPU file describes one card as a JSON object, a list of cards as an array, or an
 * object `{"gpus": [...]}` (what `hwfit gpus --json` writes, so a built-in row copied,
 * renamed and edited reads back). A card's keys are the catalog's own field names
 * (gpu.h), each value a number in base units or a string with a unit where people write
 * one:
 * @code
 * {"name": "my-l20", "vendor": "nvidia", "memory_bytes": "48GB",
 *  "memory_bandwidth_bytes_per_s": "864GB/s", "tdp_w": "275W",
 *  "fp32_flop_per_s": "59.8TFLOPS", "fp16_bf16_flop_per_s": "119.5TFLOPS",
 *  "fp8_flop_per_s": "239TFLOPS", "int8_op_per_s": "239TOPS", "sparsity": true,
 *  "source": "NVIDIA L20 datasheet"}
 * @endcode
 * - Required: name, memory_bytes, memory_bandwidth_bytes_per_s, tdp_w, fp32_flop_per_s,
 *   fp16_bf16_flop_per_s.
 * - memory_bytes follows the catalog: a marketed "48GB" (or MB, TB) is read as GiB (MiB,
 *   TiB); "48GiB" and plain numbers (bytes) are exact.
 * - Rates take FLOPS or FLOP/s with SI prefixes; int8_op_per_s also OPS ("239TOPS").
 * - Names: vendor nvidia|amd (default nvidia), form_factor pcie|sxm|oam|superchip
 *   (default pcie), peer_link none|nvlink|xgmi, peer_topology none|switch|bridge|mesh.
 * - Defaults: edition = the name, architecture "", source "GPU file <file>", notes "",
 *   other rates 0 (no such path), sparsity false (sparse_speedup 2 when true, else 1),
 *   pcie_gen 4 with 16 lanes, no peer link, p2p_pcie and nvls false. With a peer link,
 *   peer_bytes_per_s and peer_bytes_per_s_bidir may be given alone (the other is twice or
 *   half of it).
 * Every card then passes ::hwfit_gpu_validate, as every built-in row does, and its name
 * must be neither a built-in card's nor one already in the set.
 *
 * Errors carry the file name, line, column and key, e.g.
 * `cards.json: gpus[1] "my-l20": key 'tdp_w' must be above 0` at line 7, column 14.
 * Reading is all or nothing: on failure the set is left as it was.
 *
 * Thread safety: reentrant; the set is written by one thread at a time.
 */
#ifndef HWFIT_GPU_FILE_H
#define HWFIT_GPU_FILE_H

#include "hwfit/gpu_set.h"
#include "hwfit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup gpu_file GPU files
 *  @brief Cards from JSON. Thread safety: all functions are reentrant.
 *  @{ */

/** @brief Largest GPU file read, in bytes. */
#define HWFIT_GPU_FILE_MAX_BYTES (4u * 1024u * 1024u)

/**
 * @brief Read the cards of a GPU file's bytes into a set.
 * @param[in]     text   The bytes; need not be NUL-terminated; NULL gives ::HWFIT_EINVAL.
 * @param[in]     length Bytes in @p text.
 * @param[in]     name   Name for messages (e.g. the file name); NULL means "gpus.json".
 * @param[in,out] set    Receives the cards; NULL gives ::HWFIT_EINVAL. Unchanged on failure.
 * @param[out]    err    Where and why it failed, or cleared on success; may be NULL.
 * @retval HWFIT_OK     read and added.
 * @retval HWFIT_EINVAL @p text or @p set is NULL.
 * @retval HWFIT_ENOMEM out of memory.
 * @retval HWFIT_ERANGE @p length exceeds ::HWFIT_GPU_FILE_MAX_BYTES, a number overflows,
 *                      nesting is too deep, or the set would hold more than
 *                      ::HWFIT_GPU_SET_MAX cards.
 * @retval HWFIT_EPARSE malformed JSON, an unknown, missing or mistyped key, a value out of
 *                      range, a card that breaks a catalog rule, or a name already taken.
 */
HWFIT_API hwfit_status hwfit_gpu_file_parse(const char *text, size_t length, const char *name,
                                            hwfit_gpu_set *set, hwfit_error *err);

/**
 * @brief Read the cards of a GPU file into a set.
 * @param[in]     path Path of the file; NULL gives ::HWFIT_EINVAL. Messages start with it.
 * @param[in,out] set  Receives the cards; NULL gives ::HWFIT_EINVAL. Unchanged on failure.
 * @param[out]    err  Where and why it failed, or cleared on success; may be NULL.
 * @retval HWFIT_OK     read and added.
 * @retval HWFIT_EIO    the file cannot be opened or read.
 * @retval other        as for ::hwfit_gpu_file_parse.
 */
HWFIT_API hwfit_status hwfit_gpu_file_load(const char *path, hwfit_gpu_set *set,
                                           hwfit_error *err);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_GPU_FILE_H */

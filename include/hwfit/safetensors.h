/**
 * @file safetensors.h
 * @brief Exact sizes of a local checkpoint from its safetensors headers, without reading
 * the weights.
 *
 * A safetensors file starts with an 8-byte little-endian length N and N bytes of JSON: per
 * tensor its dtype, shape and data_offsets [begin, end) in the data that follows
 * (huggingface/safetensors, "Format"). A sharded checkpoint adds
 * `model.safetensors.index.json`, whose `metadata.total_size` is the bytes of all tensors.
 * These functions read the headers only (bounded: at most ::HWFIT_SAFETENSORS_MAX_HEADER
 * bytes each) and check every length, offset and shape: a malformed header is an error
 * naming the file and the tensor, never a crash.
 *
 * Elements are those the files store: a packed tensor (GPTQ qweight, I32 holding eight
 * 4-bit values; gpt-oss U8 blocks holding two) counts its stored elements.
 *
 * Thread safety: reentrant; the functions read files and allocate while parsing.
 */
#ifndef HWFIT_SAFETENSORS_H
#define HWFIT_SAFETENSORS_H

#include <stddef.h>
#include <stdint.h>

#include "hwfit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup safetensors Safetensors headers
 *  @brief Exact bytes of a checkpoint. Thread safety: all functions are reentrant.
 *  @{ */

/** @brief Largest header read, in bytes (the format allows 100 MB; checkpoints' are < 1 MB). */
#define HWFIT_SAFETENSORS_MAX_HEADER (64u * 1024u * 1024u)
/** @brief Most distinct dtypes a ::hwfit_safetensors_info counts. */
#define HWFIT_SAFETENSORS_MAX_DTYPES 16
/** @brief Size of hwfit_safetensors_dtype::name, including the NUL. */
#define HWFIT_SAFETENSORS_DTYPE_NAME 12

/** @brief The tensors of one dtype. */
typedef struct hwfit_safetensors_dtype {
    char name[HWFIT_SAFETENSORS_DTYPE_NAME]; /**< As the header writes it: "BF16", "F8_E4M3". */
    uint64_t tensors;  /**< Tensors. */
    uint64_t elements; /**< Elements (product of the shapes). */
    uint64_t bytes;    /**< Bytes (data_offsets end - begin). */
} hwfit_safetensors_dtype;

/** @brief What the headers of a checkpoint hold. Start with ::hwfit_safetensors_init. */
typedef struct hwfit_safetensors_info {
    uint32_t files;          /**< Safetensors files read. */
    uint64_t tensors;        /**< Tensors in them. */
    uint64_t elements;       /**< Elements in them. */
    uint64_t bytes;          /**< Bytes of tensor data in them (headers excluded). */
    uint64_t extra_bytes;    /**< Of bytes, the tensors of layers numbered main_layers or
                                  more ("model.layers.61." with 61 layers: DeepSeek-V3's
                                  multi-token prediction layer), which engines skip. */
    int index_found;         /**< 1: model.safetensors.index.json was read. */
    uint64_t index_total_size; /**< Its metadata.total_size, bytes (0 when not found). */
    uint32_t dtype_count;    /**< Entries of dtypes used. */
    hwfit_safetensors_dtype dtypes[HWFIT_SAFETENSORS_MAX_DTYPES]; /**< Per dtype, in order of
                                  first appearance. */
} hwfit_safetensors_info;

/**
 * @brief Clear an info to no files.
 * @param[out] info The info; NULL is ignored.
 */
HWFIT_API void hwfit_safetensors_init(hwfit_safetensors_info *info);

/**
 * @brief Add the tensors of one header (the JSON after the 8-byte length) to @p info.
 * @param[in]     header      The JSON bytes; NULL gives ::HWFIT_EINVAL.
 * @param[in]     length      Bytes of @p header, at most ::HWFIT_SAFETENSORS_MAX_HEADER.
 * @param[in]     data_bytes  Bytes of data after the header (the file's size - 8 - length):
 *                            every tensor must end within it; UINT64_MAX: not checked.
 * @param[in]     main_layers Layers of the main model (tensors of layers >= it count to
 *                            extra_bytes); 0: none counted apart.
 * @param[in]     name        Name for messages; NULL means "safetensors".
 * @param[in,out] info        Where the tensors are added; NULL gives ::HWFIT_EINVAL.
 *                            Changed only on success.
 * @param[out]    err         Where and why it failed, or cleared on success; may be NULL.
 * @retval HWFIT_OK     added.
 * @retval HWFIT_EINVAL a pointer is NULL.
 * @retval HWFIT_ENOMEM out of memory while parsing.
 * @retval HWFIT_ERANGE the header is too long, or a count overflows 64 bits.
 * @retval HWFIT_EPARSE malformed JSON, a tensor without dtype, shape or data_offsets, offsets
 *                      out of order or beyond the data, a size that disagrees with the
 *                      shape, or more than ::HWFIT_SAFETENSORS_MAX_DTYPES dtypes.
 */
HWFIT_API hwfit_status hwfit_safetensors_header_add(const char *header, size_t length,
                                                    uint64_t data_bytes, uint32_t main_layers,
                                                    const char *name,
                                                    hwfit_safetensors_info *info,
                                                    hwfit_error *err);

/**
 * @brief Add one safetensors file: read its 8-byte length and its header, no tensor data.
 * @param[in]     path        The file; NULL gives ::HWFIT_EINVAL.
 * @param[in]     main_layers As for ::hwfit_safetensors_header_add.
 * @param[in,out] info        Where the tensors are added; NULL gives ::HWFIT_EINVAL.
 * @param[out]    err         Where and why it failed; may be NULL.
 * @retval HWFIT_OK     added.
 * @retval HWFIT_EIO    the file cannot be read, or is shorter than its header says.
 * @retval HWFIT_EINVAL, HWFIT_ENOMEM, HWFIT_ERANGE, HWFIT_EPARSE as
 *                      ::hwfit_safetensors_header_add.
 */
HWFIT_API hwfit_status hwfit_safetensors_file_add(const char *path, uint32_t main_layers,
                                                  hwfit_safetensors_info *info,
                                                  hwfit_error *err);

/**
 * @brief Read a checkpoint directory: `model.safetensors.index.json` (metadata.total_size)
 * when present, and every `*.safetensors` file's header.
 * @param[in]  dir         The directory; NULL gives ::HWFIT_EINVAL.
 * @param[in]  main_layers As for ::hwfit_safetensors_header_add.
 * @param[out] info        The checkpoint; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @param[out] err         Where and why it failed; may be NULL.
 * @retval HWFIT_OK        read.
 * @retval HWFIT_ENOTFOUND the directory holds no safetensors file (or cannot be listed).
 * @retval HWFIT_EIO, HWFIT_EINVAL, HWFIT_ENOMEM, HWFIT_ERANGE, HWFIT_EPARSE as
 *                         ::hwfit_safetensors_file_add, or a malformed index. The index's
 *                         total_size is reported beside the files' bytes, not compared (a
 *                         partly downloaded checkpoint has fewer files).
 */
HWFIT_API hwfit_status hwfit_safetensors_dir_read(const char *dir, uint32_t main_layers,
                                                  hwfit_safetensors_info *info,
                                                  hwfit_error *err);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_SAFETENSORS_H */

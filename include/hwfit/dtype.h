/**
 * @file dtype.h
 * @brief Number formats: bits per stored element, including block-scale overhead.
 *
 * A ::hwfit_dtype is a small value: a format and, for grouped integer formats, a group
 * size. hwfit knows the storage layout of every format users meet for weights and KV
 * caches, from plain floats to block-quantised formats whose scales add to the bits of
 * each element. Sizes are exact: a tensor occupies whole blocks.
 *
 * | name | layout of one block | bits/element | source |
 * |---|---|---|---|
 * | fp32, tf32 | 32-bit float (TF32 is a tensor-core compute mode; tensors are stored as fp32) | 32 | IEEE 754; NVIDIA A100 whitepaper |
 * | fp16, bf16 | 16-bit float | 16 | IEEE 754; bfloat16 |
 * | fp8-e4m3, fp8-e5m2 | 8-bit float (per-tensor scale not counted) | 8 | OCP 8-bit Floating Point Specification (OFP8) |
 * | int8 | 8-bit integer (per-channel scales not counted) | 8 | - |
 * | int4, int4-gG | G 4-bit values + fp16 scale + 4-bit zero point (GPTQ/AWQ); G = 128 by default | 4 + 20/G | GPTQ/AutoGPTQ and AWQ packing (qweight, qzeros, scales) |
 * | nf4 | 64 4-bit NormalFloat values + fp32 absmax | 4.5 | Dettmers et al. 2023, QLoRA (bitsandbytes blocksize 64) |
 * | nf4-dq | as nf4, absmax quantised to 8 bits, one fp32 scale per 256 blocks (16384 values) | 4.127 | QLoRA double quantisation |
 * | nvfp4 | 16 E2M1 values + one E4M3 scale (per-tensor fp32 scale not counted) | 4.5 | NVIDIA Blackwell NVFP4 |
 * | mxfp4, mxfp6, mxfp8 | 32 E2M1 / E2M3 / E4M3 values + one E8M0 scale | 4.25, 6.25, 8.25 | OCP Microscaling Formats (MX) v1.0 |
 * | q8_0, q4_0 | 32 values + fp16 scale | 8.5, 4.5 | ggml block_q8_0 (34 B), block_q4_0 (18 B) |
 * | q6_k, q5_k, q4_k, q3_k, q2_k | super-block of 256 values | 6.5625, 5.5, 4.5, 3.4375, 2.625 | ggml block_q6_K (210 B), q5_K (176), q4_K (144), q3_K (110), q2_K (84) |
 * | iq4_xs | super-block of 256 values | 4.25 | ggml block_iq4_xs (136 B) |
 * | fp8-b128 | 8-bit E4M3 values, one fp32 scale per 128 x 128 tile of a matrix | 8 + 32/16384 | DeepSeek-V3 weight_scale_inv (inference/kernel.py weight_dequant) |
 * | fp8-ch | 8-bit E4M3 values, one fp32 scale per row (output channel) | 8 + 32/cols | transformers FbgemmFp8Linear (weight_scale [out, 1]) |
 * | int8-ch | 8-bit integers, one fp32 scale per row (output channel) | 8 + 32/cols | bitsandbytes LLM.int8 (weight, SCB) |
 *
 * Tile and row formats size matrices exactly (::hwfit_dtype_matrix_bytes); a run of values
 * without rows (::hwfit_dtype_bytes) counts the tile formats' scales per 16384 values and
 * the row formats' values only.
 *
 * Thread safety: every function is reentrant; the catalog is constant.
 */
#ifndef HWFIT_DTYPE_H
#define HWFIT_DTYPE_H

#include "hwfit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup dtype Number formats
 *  @brief Bits per stored element of each number format, with block-scale overhead.
 *  Thread safety: all functions are reentrant.
 *  @{ */

/** @brief A number format. Values are pinned; new formats are appended. */
typedef enum hwfit_dtype_id {
    HWFIT_DTYPE_FP32 = 0,      /**< IEEE 754 binary32: 32 bits. */
    HWFIT_DTYPE_TF32 = 1,      /**< TensorFloat-32: a compute mode, stored as 32 bits. */
    HWFIT_DTYPE_FP16 = 2,      /**< IEEE 754 binary16: 16 bits. */
    HWFIT_DTYPE_BF16 = 3,      /**< bfloat16: 16 bits. */
    HWFIT_DTYPE_FP8_E4M3 = 4,  /**< OCP FP8 E4M3: 8 bits. */
    HWFIT_DTYPE_FP8_E5M2 = 5,  /**< OCP FP8 E5M2: 8 bits. */
    HWFIT_DTYPE_INT8 = 6,      /**< 8-bit integer: 8 bits. */
    HWFIT_DTYPE_INT4 = 7,      /**< 4-bit integer with an fp16 scale and a 4-bit zero per group. */
    HWFIT_DTYPE_NF4 = 8,       /**< bitsandbytes NF4, fp32 absmax per 64 values: 4.5 bits. */
    HWFIT_DTYPE_NF4_DQ = 9,    /**< NF4 with double quantisation: 4.127 bits. */
    HWFIT_DTYPE_NVFP4 = 10,    /**< NVFP4: E2M1 with an E4M3 scale per 16 values: 4.5 bits. */
    HWFIT_DTYPE_MXFP4 = 11,    /**< OCP MXFP4: E2M1 with an E8M0 scale per 32 values: 4.25 bits. */
    HWFIT_DTYPE_MXFP6 = 12,    /**< OCP MXFP6: 6-bit floats with an E8M0 scale per 32: 6.25 bits. */
    HWFIT_DTYPE_MXFP8 = 13,    /**< OCP MXFP8: E4M3 with an E8M0 scale per 32: 8.25 bits. */
    HWFIT_DTYPE_Q8_0 = 14,     /**< GGUF Q8_0: 34 bytes per 32 values: 8.5 bits. */
    HWFIT_DTYPE_Q6_K = 15,     /**< GGUF Q6_K: 210 bytes per 256 values: 6.5625 bits. */
    HWFIT_DTYPE_Q5_K = 16,     /**< GGUF Q5_K: 176 bytes per 256 values: 5.5 bits. */
    HWFIT_DTYPE_Q4_K = 17,     /**< GGUF Q4_K: 144 bytes per 256 values: 4.5 bits. */
    HWFIT_DTYPE_Q4_0 = 18,     /**< GGUF Q4_0: 18 bytes per 32 values: 4.5 bits. */
    HWFIT_DTYPE_Q3_K = 19,     /**< GGUF Q3_K: 110 bytes per 256 values: 3.4375 bits. */
    HWFIT_DTYPE_Q2_K = 20,     /**< GGUF Q2_K: 84 bytes per 256 values: 2.625 bits. */
    HWFIT_DTYPE_IQ4_XS = 21,   /**< GGUF IQ4_XS: 136 bytes per 256 values: 4.25 bits. */
    HWFIT_DTYPE_FP8_B128 = 22, /**< FP8 E4M3 with one fp32 scale per 128 x 128 tile of a
                                    matrix (DeepSeek-V3 fp8, weight_block_size [128, 128]). */
    HWFIT_DTYPE_FP8_CH = 23,   /**< FP8 E4M3 with one fp32 scale per output channel (row):
                                    fbgemm_fp8, compressed-tensors channel strategy. */
    HWFIT_DTYPE_INT8_CH = 24,  /**< int8 with one fp32 scale per output channel (row):
                                    bitsandbytes LLM.int8 (weight and SCB). */
    HWFIT_DTYPE_COUNT_         /**< Number of formats; not a format. */
} hwfit_dtype_id;

/** @brief Default group size of ::HWFIT_DTYPE_INT4 ("int4" means "int4-g128"). */
#define HWFIT_DTYPE_INT4_DEFAULT_GROUP 128u
/** @brief Largest accepted group size of ::HWFIT_DTYPE_INT4, in elements. */
#define HWFIT_DTYPE_MAX_GROUP 1048576u
/** @brief Size of a buffer that holds any format name with its NUL, e.g. "int4-g1048576". */
#define HWFIT_DTYPE_NAME_SIZE 24

/**
 * @brief A number format as a value: the format and, for ::HWFIT_DTYPE_INT4, its group.
 *
 * Build one with ::hwfit_dtype_parse or ::hwfit_dtype_make, or as a literal
 * `{HWFIT_DTYPE_BF16, 0}`.
 */
typedef struct hwfit_dtype {
    hwfit_dtype_id id;   /**< The format. */
    uint32_t group_size; /**< Elements per scale group for ::HWFIT_DTYPE_INT4 (0 = 128);
                              must be 0 for every other format. */
} hwfit_dtype;

/** @brief The storage layout of a format, as ::hwfit_dtype_describe reports it. */
typedef struct hwfit_dtype_info {
    const char *name;          /**< Base name, e.g. "int4" or "q4_k"; static, never NULL. */
    const char *description;   /**< One line on the layout; static, never NULL. */
    const char *source;        /**< Where the layout is specified; static, never NULL. */
    uint64_t block_elements;   /**< Elements that share one set of scales (1 for plain formats). */
    uint64_t block_bits;       /**< Bits one block occupies, scales included. */
    double bits_per_element;   /**< block_bits / block_elements, bits. */
    int quantized;             /**< 1 for formats with scales or reduced range that checkpoints
                                    apply to linear weights only (fp8, int8, int4, nf4, MX, GGUF);
                                    0 for fp32, tf32, fp16 and bf16. */
    int flattened;             /**< 1 when blocks run over the flattened tensor (bitsandbytes
                                    nf4); 0 when blocks run along each row (GGUF, MX, NVFP4,
                                    GPTQ groups along the input dimension). */
    uint32_t tile;             /**< Rows and columns of the square tile that shares one
                                    scale (fp8-b128: 128; block_elements = tile^2); 0 for
                                    the other formats. */
    uint32_t row_scale_bits;   /**< Bits of scale per matrix row (fp8-ch, int8-ch: 32),
                                    added to block_bits per value by
                                    ::hwfit_dtype_matrix_bytes; 0 for the other formats. */
} hwfit_dtype_info;

/**
 * @brief A format with its default group: `{id, 0}`.
 * @param[in] id Any value; an invalid one is reported by the functions that use the result.
 * @return The format value.
 */
HWFIT_API hwfit_dtype hwfit_dtype_make(hwfit_dtype_id id);

/**
 * @brief Parse a lowercase format name.
 *
 * Canonical names are those of the table in dtype.h. Also accepted: "int4-gG" for a group
 * of G elements (1 <= G <= ::HWFIT_DTYPE_MAX_GROUP, no leading zero), "fp8" for fp8-e4m3,
 * and the Hugging Face `torch_dtype` names "float32", "float16" and "bfloat16".
 *
 * @param[in]  name NUL-terminated name; NULL gives ::HWFIT_EINVAL.
 * @param[out] out  The format; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK        parsed.
 * @retval HWFIT_EINVAL    @p name or @p out is NULL.
 * @retval HWFIT_ENOTFOUND not a format name (names are case-sensitive, lowercase).
 * @retval HWFIT_EDOM      "int4-gG" with G out of range.
 */
HWFIT_API hwfit_status hwfit_dtype_parse(const char *name, hwfit_dtype *out);

/**
 * @brief The canonical name of a format, e.g. "bf16", "int4", "int4-g64", "q4_k".
 * @param[in]  dtype The format.
 * @param[out] buf   Destination; NULL gives ::HWFIT_EINVAL.
 * @param[in]  size  Size of @p buf; ::HWFIT_DTYPE_NAME_SIZE always suffices.
 * @retval HWFIT_OK       written.
 * @retval HWFIT_EINVAL   @p buf is NULL or the format id is unknown.
 * @retval HWFIT_EDOM     invalid group size (see ::hwfit_dtype).
 * @retval HWFIT_EBUFSIZE @p size too small; @p buf holds a truncated name if @p size > 0.
 */
HWFIT_API hwfit_status hwfit_dtype_format(hwfit_dtype dtype, char *buf, size_t size);

/**
 * @brief The storage layout of a format.
 * @param[in]  dtype The format.
 * @param[out] out   The layout; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK     described.
 * @retval HWFIT_EINVAL @p out is NULL or the format id is unknown.
 * @retval HWFIT_EDOM   invalid group size.
 */
HWFIT_API hwfit_status hwfit_dtype_describe(hwfit_dtype dtype, hwfit_dtype_info *out);

/**
 * @brief Bits per stored element, block-scale overhead included (e.g. 4.5 for q4_k).
 * @param[in]  dtype The format.
 * @param[out] bits  Bits per element; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK     computed.
 * @retval HWFIT_EINVAL @p bits is NULL or the format id is unknown.
 * @retval HWFIT_EDOM   invalid group size.
 */
HWFIT_API hwfit_status hwfit_dtype_bits(hwfit_dtype dtype, double *bits);

/**
 * @brief Exact bytes of @p elements values stored in one run: whole blocks, rounded up to
 * a whole byte (`ceil(ceil(elements / block) * block_bits / 8)`).
 * @param[in]  dtype    The format.
 * @param[in]  elements Number of values; 0 gives 0 bytes.
 * @param[out] bytes    Bytes; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK     computed.
 * @retval HWFIT_EINVAL @p bytes is NULL or the format id is unknown.
 * @retval HWFIT_EDOM   invalid group size.
 * @retval HWFIT_ERANGE the result does not fit 64 bits.
 */
HWFIT_API hwfit_status hwfit_dtype_bytes(hwfit_dtype dtype, uint64_t elements, uint64_t *bytes);

/**
 * @brief Exact bytes of a weight matrix of @p rows x @p cols values (rows = output
 * features, cols = input features), as checkpoints store it.
 *
 * Row-blocked formats (GGUF, MX, NVFP4, int4 groups) quantise each row separately, a
 * partial last block padded: `ceil(rows * ceil(cols / block) * block_bits / 8)`.
 * Flattened formats (nf4, nf4-dq) quantise the whole tensor: `bytes(rows * cols)`.
 * Plain formats give `rows * cols * bits / 8`.
 *
 * @param[in]  dtype The format.
 * @param[in]  rows  Rows (output features).
 * @param[in]  cols  Columns (input features, the dimension blocks run along).
 * @param[out] bytes Bytes; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK     computed.
 * @retval HWFIT_EINVAL @p bytes is NULL or the format id is unknown.
 * @retval HWFIT_EDOM   invalid group size.
 * @retval HWFIT_ERANGE the result does not fit 64 bits.
 */
HWFIT_API hwfit_status hwfit_dtype_matrix_bytes(hwfit_dtype dtype, uint64_t rows, uint64_t cols,
                                                uint64_t *bytes);

/**
 * @brief Number of rows in the format listing (`hwfit dtypes`).
 * @return The count; the listing has every format once, and int4 also with groups 64 and 32.
 */
HWFIT_API size_t hwfit_dtype_count(void);

/**
 * @brief Row @p index of the format listing, in the order of ::hwfit_dtype_id.
 * @param[in]  index 0 <= index < ::hwfit_dtype_count().
 * @param[out] out   The format; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK     written.
 * @retval HWFIT_EINVAL @p out is NULL.
 * @retval HWFIT_EDOM   @p index out of range.
 */
HWFIT_API hwfit_status hwfit_dtype_at(size_t index, hwfit_dtype *out);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_DTYPE_H */

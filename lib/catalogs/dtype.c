/* dtype.c - number formats: storage layout, bits per element, exact bytes (docs/formulas.md). */
#include <stdio.h>
#include <string.h>

#include "hwfit/dtype.h"
#include "hwfit/status.h"

#include "base/checked.h"
#include "catalogs/dtype_internal.h"

typedef struct format_row {
    const char *name;
    const char *description;
    const char *source;
    uint64_t block_elements; /* 0 for int4: the group size decides */
    uint64_t block_bits;
    int quantized;
    int flattened;
    /* Two-dimensional and per-row scales (0 for the formats above). tile: rows of a square
     * tile sharing one scale (block_elements = tile x tile); row_bits: bits of scale per row
     * (output channel); value_bits: bits of one value when tile or row_bits is set. */
    uint32_t tile;
    uint32_t row_bits;
    uint32_t value_bits;
} format_row;

/* One row per hwfit_dtype_id, in enum order. Block layouts:
 * - GGUF: ggml/src/ggml-common.h, the block_* structs and their static_asserts
 *   (block_q8_0 = 2 + 32 B per 32; block_q4_0 = 2 + 16 B per 32; block_q6_K = 128 + 64 + 16 + 2
 *   = 210 B per 256; block_q5_K = 4 + 12 + 32 + 128 = 176 B; block_q4_K = 4 + 12 + 128 = 144 B;
 *   block_q3_K = 32 + 64 + 12 + 2 = 110 B; block_q2_K = 16 + 64 + 4 = 84 B;
 *   block_iq4_xs = 2 + 2 + 4 + 128 = 136 B).
 * - MX: OCP Microscaling Formats (MX) Specification v1.0 (2023), block of 32 elements sharing
 *   one 8-bit E8M0 scale: MXFP8 (E4M3), MXFP6 (E2M3 or E3M2, both 6 bits), MXFP4 (E2M1).
 * - NVFP4: NVIDIA (Blackwell) 16 E2M1 values share one FP8 E4M3 scale; the second-level
 *   per-tensor FP32 scale is one value per tensor and is not counted.
 * - NF4: Dettmers et al. 2023, "QLoRA" section 3: blocksize 64 with an FP32 absmax constant
 *   (32/64 = 0.5 bit per value); double quantisation stores the constants as FP8 (8-bit) with
 *   one FP32 second-level constant per 256 blocks: 8/64 + 32/(64*256) = 0.127 bit per value.
 * - int4 (GPTQ, Frantar et al. 2022; AWQ, Lin et al. 2023, as packed by AutoGPTQ/AutoAWQ):
 *   per group of G input values one fp16 scale and one 4-bit zero point (qzeros packs eight
 *   4-bit zeros per int32): 4 + (16 + 4)/G bits per value. act-order g_idx is not counted. */
static const format_row formats[HWFIT_DTYPE_COUNT_] = {
    {"fp32", "IEEE 754 binary32", "IEEE 754-2008", 1, 32, 0, 0, 0, 0, 0},
    {"tf32", "TensorFloat-32 compute mode; tensors are stored as fp32",
     "NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020)", 1, 32, 0, 0, 0, 0, 0},
    {"fp16", "IEEE 754 binary16", "IEEE 754-2008", 1, 16, 0, 0, 0, 0, 0},
    {"bf16", "bfloat16: 8-bit exponent, 7-bit mantissa", "Google bfloat16; Intel BF16 spec (2018)",
     1, 16, 0, 0, 0, 0, 0},
    {"fp8-e4m3", "8-bit float E4M3; per-tensor scale not counted",
     "OCP 8-bit Floating Point Specification (OFP8) rev 1.0 (2023)", 1, 8, 1, 0, 0, 0, 0},
    {"fp8-e5m2", "8-bit float E5M2; per-tensor scale not counted",
     "OCP 8-bit Floating Point Specification (OFP8) rev 1.0 (2023)", 1, 8, 1, 0, 0, 0, 0},
    {"int8", "8-bit integer; per-channel scales not counted", "LLM.int8 / W8A8 practice", 1, 8, 1,
     0, 0, 0, 0},
    {"int4", "4-bit integers; per group an fp16 scale and a 4-bit zero point (GPTQ/AWQ)",
     "Frantar et al. 2022 (GPTQ); Lin et al. 2023 (AWQ); AutoGPTQ/AutoAWQ packing", 0, 0, 1, 0, 0, 0, 0},
    {"nf4", "4-bit NormalFloat, fp32 absmax per block of 64",
     "Dettmers et al. 2023, QLoRA; bitsandbytes", 64, 64 * 4 + 32, 1, 1, 0, 0, 0},
    {"nf4-dq", "4-bit NormalFloat, 8-bit absmax per 64, fp32 scale per 256 blocks",
     "Dettmers et al. 2023, QLoRA double quantization; bitsandbytes", 16384,
     16384 * 4 + 256 * 8 + 32, 1, 1, 0, 0, 0},
    {"nvfp4", "E2M1 values, one E4M3 scale per 16; per-tensor fp32 scale not counted",
     "NVIDIA Blackwell NVFP4 (Transformer Engine documentation)", 16, 16 * 4 + 8, 1, 0, 0, 0, 0},
    {"mxfp4", "E2M1 values, one E8M0 scale per 32", "OCP Microscaling Formats (MX) v1.0 (2023)",
     32, 32 * 4 + 8, 1, 0, 0, 0, 0},
    {"mxfp6", "E2M3 or E3M2 values, one E8M0 scale per 32",
     "OCP Microscaling Formats (MX) v1.0 (2023)", 32, 32 * 6 + 8, 1, 0, 0, 0, 0},
    {"mxfp8", "E4M3 or E5M2 values, one E8M0 scale per 32",
     "OCP Microscaling Formats (MX) v1.0 (2023)", 32, 32 * 8 + 8, 1, 0, 0, 0, 0},
    {"q8_0", "32 8-bit values + fp16 scale (34 B)", "ggml ggml-common.h block_q8_0", 32, 34 * 8, 1,
     0, 0, 0, 0},
    {"q6_k", "256 6-bit values, 8-bit sub-block scales, fp16 scale (210 B)",
     "ggml ggml-common.h block_q6_K", 256, 210 * 8, 1, 0, 0, 0, 0},
    {"q5_k", "256 5-bit values, 6-bit sub-block scales and mins, fp16 d and dmin (176 B)",
     "ggml ggml-common.h block_q5_K", 256, 176 * 8, 1, 0, 0, 0, 0},
    {"q4_k", "256 4-bit values, 6-bit sub-block scales and mins, fp16 d and dmin (144 B)",
     "ggml ggml-common.h block_q4_K", 256, 144 * 8, 1, 0, 0, 0, 0},
    {"q4_0", "32 4-bit values + fp16 scale (18 B)", "ggml ggml-common.h block_q4_0", 32, 18 * 8, 1,
     0, 0, 0, 0},
    {"q3_k", "256 3-bit values, 6-bit sub-block scales, fp16 scale (110 B)",
     "ggml ggml-common.h block_q3_K", 256, 110 * 8, 1, 0, 0, 0, 0},
    {"q2_k", "256 2-bit values, 4-bit sub-block scales and mins, fp16 d and dmin (84 B)",
     "ggml ggml-common.h block_q2_K", 256, 84 * 8, 1, 0, 0, 0, 0},
    {"iq4_xs", "256 4-bit non-linear values, 6-bit sub-block scales, fp16 scale (136 B)",
     "ggml ggml-common.h block_iq4_xs", 256, 136 * 8, 1, 0, 0, 0, 0},
    /* FP8 with one fp32 scale per 128 x 128 tile of the weight: DeepSeek-V3's
     * weight_scale_inv, a float32 tensor of ceil(out/128) x ceil(in/128) beside each
     * float8_e4m3fn weight (DeepSeek-V3 inference/fp8_cast_bf16.py and kernel.py
     * weight_dequant, block_size 128; transformers FP8Linear weight_scale_inv). */
    {"fp8-b128", "8-bit float E4M3, one fp32 scale per 128x128 tile (DeepSeek-V3 fp8)",
     "DeepSeek-V3 inference/kernel.py weight_dequant; transformers finegrained_fp8",
     128 * 128, 128 * 128 * 8 + 32, 1, 0, 128, 0, 8},
    /* FP8 with one fp32 scale per output channel: fbgemm_fp8's weight_scale [out, 1] float32
     * (transformers FbgemmFp8Linear), compressed-tensors float-quantized channel strategy
     * (its scale is [out, 1] in the checkpoint dtype: 16 bits, 2 bytes a row fewer). */
    {"fp8-ch", "8-bit float E4M3, one fp32 scale per output channel (row)",
     "transformers FbgemmFp8Linear; compressed-tensors channel strategy", 1, 8, 1, 0, 0, 32, 8},
    /* int8 with one fp32 scale per output channel: bitsandbytes LLM.int8 stores the int8
     * weight and SCB, a float32 vector of one absmax per row (bitsandbytes Int8Params,
     * transformers Linear8bitLt state dict "weight" and "SCB"). */
    {"int8-ch", "8-bit integer, one fp32 scale per output channel (row)",
     "Dettmers et al. 2022, LLM.int8(); bitsandbytes Linear8bitLt (weight, SCB)", 1, 8, 1, 0, 0,
     32, 8},
};

/* Resolve a dtype to its block: elements and bits. */
static hwfit_status block_of(hwfit_dtype d, const format_row **row, uint64_t *elements,
                             uint64_t *bits) {
    if ((unsigned)d.id >= (unsigned)HWFIT_DTYPE_COUNT_) return HWFIT_EINVAL;
    const format_row *r = &formats[d.id];
    if (d.id == HWFIT_DTYPE_INT4) {
        uint64_t g = d.group_size ? d.group_size : HWFIT_DTYPE_INT4_DEFAULT_GROUP;
        if (g > HWFIT_DTYPE_MAX_GROUP) return HWFIT_EDOM;
        *elements = g;
        *bits = 4 * g + 16 + 4; /* values + fp16 scale + 4-bit zero (GPTQ/AWQ) */
    } else {
        if (d.group_size != 0) return HWFIT_EDOM;
        *elements = r->block_elements;
        *bits = r->block_bits;
    }
    *row = r;
    return HWFIT_OK;
}

hwfit_dtype hwfit_dtype_make(hwfit_dtype_id id) {
    hwfit_dtype d;
    d.id = id;
    d.group_size = 0;
    return d;
}

hwfit_status hwfit_dtype_parse(const char *name, hwfit_dtype *out) {
    if (name == NULL || out == NULL) return HWFIT_EINVAL;
    static const struct {
        const char *alias;
        hwfit_dtype_id id;
    } aliases[] = {
        {"fp8", HWFIT_DTYPE_FP8_E4M3},
        {"float32", HWFIT_DTYPE_FP32},
        {"float16", HWFIT_DTYPE_FP16},
        {"bfloat16", HWFIT_DTYPE_BF16},
    };
    hwfit_dtype d;
    d.group_size = 0;
    for (int i = 0; i < (int)HWFIT_DTYPE_COUNT_; i++) {
        if (strcmp(name, formats[i].name) == 0) {
            d.id = (hwfit_dtype_id)i;
            if (d.id == HWFIT_DTYPE_INT4) d.group_size = HWFIT_DTYPE_INT4_DEFAULT_GROUP;
            *out = d;
            return HWFIT_OK;
        }
    }
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
        if (strcmp(name, aliases[i].alias) == 0) {
            d.id = aliases[i].id;
            *out = d;
            return HWFIT_OK;
        }
    }
    if (strncmp(name, "int4-g", 6) == 0) {
        const char *p = name + 6;
        if (*p < '1' || *p > '9') return HWFIT_ENOTFOUND; /* digits, no leading zero */
        uint64_t g = 0;
        for (; *p; p++) {
            if (*p < '0' || *p > '9') return HWFIT_ENOTFOUND;
            g = g * 10 + (uint64_t)(*p - '0');
            if (g > HWFIT_DTYPE_MAX_GROUP) {
                /* keep scanning so that "int4-g99999999x" is still "not a name" */
                for (; *p; p++)
                    if (*p < '0' || *p > '9') return HWFIT_ENOTFOUND;
                return HWFIT_EDOM;
            }
        }
        d.id = HWFIT_DTYPE_INT4;
        d.group_size = (uint32_t)g;
        *out = d;
        return HWFIT_OK;
    }
    return HWFIT_ENOTFOUND;
}

hwfit_status hwfit_dtype_format(hwfit_dtype dtype, char *buf, size_t size) {
    if (buf == NULL) return HWFIT_EINVAL;
    const format_row *r;
    uint64_t el, bits;
    hwfit_status st = block_of(dtype, &r, &el, &bits);
    if (st != HWFIT_OK) return st;
    /* The name assembled here rather than by snprintf: a memory request names about ten
     * formats, and snprintf's set-up was a sixth of its instructions (issue 19). The
     * same bytes as snprintf(buf, size, "int4-g%llu" or "%s"), truncated the same way. */
    char name[HWFIT_DTYPE_NAME_SIZE];
    const char *text = r->name;
    size_t n = strlen(r->name);
    if (dtype.id == HWFIT_DTYPE_INT4 && el != HWFIT_DTYPE_INT4_DEFAULT_GROUP) {
        char digits[20]; /* el <= HWFIT_DTYPE_MAX_GROUP: 7 digits */
        size_t nd = 0;
        do {
            digits[nd++] = (char)('0' + el % 10);
            el /= 10;
        } while (el != 0 && nd < sizeof digits);
        memcpy(name, "int4-g", 6);
        n = 6;
        while (nd > 0 && n + 1 < sizeof name) name[n++] = digits[--nd];
        text = name;
    }
    if (size == 0) return HWFIT_EBUFSIZE;
    size_t kept = n < size ? n : size - 1;
    memcpy(buf, text, kept);
    buf[kept] = '\0';
    return n < size ? HWFIT_OK : HWFIT_EBUFSIZE;
}

hwfit_status hwfit_dtype_describe(hwfit_dtype dtype, hwfit_dtype_info *out) {
    if (out == NULL) return HWFIT_EINVAL;
    const format_row *r;
    uint64_t el, bits;
    hwfit_status st = block_of(dtype, &r, &el, &bits);
    if (st != HWFIT_OK) return st;
    hwfit_dtype_info info;
    info.name = r->name;
    info.description = r->description;
    info.source = r->source;
    info.block_elements = el;
    info.block_bits = bits;
    info.bits_per_element = (double)bits / (double)el;
    info.quantized = r->quantized;
    info.flattened = r->flattened;
    info.tile = r->tile;
    info.row_scale_bits = r->row_bits;
    *out = info;
    return HWFIT_OK;
}

hwfit_status hwfit_dtype_bits(hwfit_dtype dtype, double *bits) {
    if (bits == NULL) return HWFIT_EINVAL;
    const format_row *r;
    uint64_t el, b;
    hwfit_status st = block_of(dtype, &r, &el, &b);
    if (st != HWFIT_OK) return st;
    *bits = (double)b / (double)el;
    return HWFIT_OK;
}

/* ceil(blocks * bits / 8) without overflow in the intermediate steps. */
static hwfit_status blocks_to_bytes(uint64_t blocks, uint64_t bits, uint64_t *out) {
    /* bits = 8q + r: blocks * q whole bytes, and ceil(blocks * r / 8) more, computed as
     * (blocks / 8) * r + ceil((blocks % 8) * r / 8). */
    /* Overflow checked here rather than through checked.h's helpers: this is the end of the
     * library's deepest call chains (tests/stack), and a call less is a frame less. */
    uint64_t q = bits / 8, r = bits % 8;
    if (q != 0 && blocks > UINT64_MAX / q) return HWFIT_ERANGE;
    uint64_t whole = blocks * q;
    uint64_t part = (blocks / 8) * r + ((blocks % 8) * r + 7) / 8;
    if (part > UINT64_MAX - whole) return HWFIT_ERANGE;
    *out = whole + part;
    return HWFIT_OK;
}

hwfit_status hwfit_dtype_bytes(hwfit_dtype dtype, uint64_t elements, uint64_t *bytes) {
    if (bytes == NULL) return HWFIT_EINVAL;
    const format_row *r;
    uint64_t el, bits, b;
    hwfit_status st = block_of(dtype, &r, &el, &bits);
    if (st != HWFIT_OK) return st;
    st = blocks_to_bytes(hwfit__ceil_div_u64(elements, el), bits, &b);
    if (st != HWFIT_OK) return st;
    *bytes = b;
    return HWFIT_OK;
}

hwfit_status hwfit__dtype_block_of(hwfit_dtype dtype, hwfit__dtype_block *block) {
    const format_row *r;
    uint64_t el, bits;
    hwfit_status st = block_of(dtype, &r, &el, &bits);
    if (st != HWFIT_OK) return st;
    block->elements = el;
    block->bits = bits;
    block->flattened = (uint8_t)r->flattened;
    block->quantized = (uint8_t)r->quantized;
    block->tile = (uint16_t)r->tile;         /* 128 */
    block->row_bits = (uint8_t)r->row_bits;  /* 32 */
    block->value_bits = (uint8_t)r->value_bits;
    return HWFIT_OK;
}

hwfit_status hwfit__dtype_block_matrix_bytes(const hwfit__dtype_block *block, uint64_t rows,
                                             uint64_t cols, uint64_t *bytes) {
    uint64_t el = block->elements, blocks;
    if (block->tile || block->row_bits) {
        /* Scales per tile or per row (docs/formulas.md, "stored weights"): the values, then
         * ceil(rows/t) ceil(cols/t) tile scales or one scale per row. In this frame, not a
         * helper's: the deepest chains of the library end here (tests/stack). */
        uint64_t n, values, scales, sum;
        if (hwfit__mul_u64(rows, cols, &n) != HWFIT_OK ||
            blocks_to_bytes(n, block->value_bits, &values) != HWFIT_OK)
            return HWFIT_ERANGE;
        if (block->tile) {
            uint64_t t = block->tile;
            if (hwfit__mul_u64(hwfit__ceil_div_u64(rows, t), hwfit__ceil_div_u64(cols, t), &n) !=
                    HWFIT_OK ||
                blocks_to_bytes(n, block->bits - block->elements * block->value_bits, &scales) !=
                    HWFIT_OK)
                return HWFIT_ERANGE;
        } else if (blocks_to_bytes(rows, block->row_bits, &scales) != HWFIT_OK) {
            return HWFIT_ERANGE;
        }
        if (hwfit__add_u64(values, scales, &sum) != HWFIT_OK) return HWFIT_ERANGE;
        *bytes = sum;
        return HWFIT_OK;
    }
    if (block->flattened) {
        /* bitsandbytes quantises the flattened tensor in blocks. */
        uint64_t n;
        if (hwfit__mul_u64(rows, cols, &n) != HWFIT_OK) return HWFIT_ERANGE;
        blocks = hwfit__ceil_div_u64(n, el);
    } else {
        /* GGUF, MX, NVFP4 and GPTQ/AWQ groups run along each row (the input dimension); a
         * row that is not a whole number of blocks pads its last block. GPTQ packs 4-bit
         * zeros of neighbouring rows into one int32, so bytes round once per tensor. */
        if (hwfit__mul_u64(rows, hwfit__ceil_div_u64(cols, el), &blocks) != HWFIT_OK)
            return HWFIT_ERANGE;
    }
    return blocks_to_bytes(blocks, block->bits, bytes);
}

hwfit_status hwfit_dtype_matrix_bytes(hwfit_dtype dtype, uint64_t rows, uint64_t cols,
                                      uint64_t *bytes) {
    if (bytes == NULL) return HWFIT_EINVAL;
    hwfit__dtype_block block;
    uint64_t b;
    hwfit_status st = hwfit__dtype_block_of(dtype, &block);
    if (st == HWFIT_OK) st = hwfit__dtype_block_matrix_bytes(&block, rows, cols, &b);
    if (st != HWFIT_OK) return st;
    *bytes = b;
    return HWFIT_OK;
}

/* The listing: every format once, int4 also with groups 64 and 32 (common GPTQ/AWQ choices). */
static const hwfit_dtype listing[] = {
    {HWFIT_DTYPE_FP32, 0},     {HWFIT_DTYPE_TF32, 0},     {HWFIT_DTYPE_FP16, 0},
    {HWFIT_DTYPE_BF16, 0},     {HWFIT_DTYPE_FP8_E4M3, 0}, {HWFIT_DTYPE_FP8_E5M2, 0},
    {HWFIT_DTYPE_INT8, 0},     {HWFIT_DTYPE_INT4, 128},   {HWFIT_DTYPE_INT4, 64},
    {HWFIT_DTYPE_INT4, 32},    {HWFIT_DTYPE_NF4, 0},      {HWFIT_DTYPE_NF4_DQ, 0},
    {HWFIT_DTYPE_NVFP4, 0},    {HWFIT_DTYPE_MXFP4, 0},    {HWFIT_DTYPE_MXFP6, 0},
    {HWFIT_DTYPE_MXFP8, 0},    {HWFIT_DTYPE_Q8_0, 0},     {HWFIT_DTYPE_Q6_K, 0},
    {HWFIT_DTYPE_Q5_K, 0},     {HWFIT_DTYPE_Q4_K, 0},     {HWFIT_DTYPE_Q4_0, 0},
    {HWFIT_DTYPE_Q3_K, 0},     {HWFIT_DTYPE_Q2_K, 0},     {HWFIT_DTYPE_IQ4_XS, 0},
    {HWFIT_DTYPE_FP8_B128, 0}, {HWFIT_DTYPE_FP8_CH, 0},   {HWFIT_DTYPE_INT8_CH, 0},
};

size_t hwfit_dtype_count(void) { return sizeof listing / sizeof listing[0]; }

hwfit_status hwfit_dtype_at(size_t index, hwfit_dtype *out) {
    if (out == NULL) return HWFIT_EINVAL;
    if (index >= hwfit_dtype_count()) return HWFIT_EDOM;
    *out = listing[index];
    return HWFIT_OK;
}

/*
 * catalogs/dtype_internal.h - number formats resolved once (dtype.c), for the modules that
 * size many tensors of one format (memory.c). Never installed; not API.
 */
#ifndef HWFIT_DTYPE_INTERNAL_H
#define HWFIT_DTYPE_INTERNAL_H

#include <stdint.h>

#include "hwfit/dtype.h"
#include "hwfit/status.h"

/* The block layout of a format: hwfit_dtype_matrix_bytes in two steps, so that a loop over
 * tensors resolves the format once. */
typedef struct hwfit__dtype_block {
    uint64_t elements, bits; /* elements per block, bits per block */
    uint8_t flattened, quantized; /* as hwfit_dtype_info */
    uint8_t row_bits;   /* bits of scale per row (output channel); 0: none */
    uint8_t value_bits; /* bits of one value when tile or row_bits is set */
    uint16_t tile;      /* rows (and columns) of a tile sharing one scale; 0: none */
} hwfit__dtype_block;

hwfit_status hwfit__dtype_block_of(hwfit_dtype dtype, hwfit__dtype_block *block);
/* Bytes of a rows x cols matrix; ERANGE on overflow. Equals hwfit_dtype_matrix_bytes. */
hwfit_status hwfit__dtype_block_matrix_bytes(const hwfit__dtype_block *block, uint64_t rows,
                                             uint64_t cols, uint64_t *bytes);

#endif /* HWFIT_DTYPE_INTERNAL_H */

/* fuzz_safetensors.c - libFuzzer target for the safetensors header reader and the stored
 * formats reader (lib/readers/safetensors.c, lib/readers/hf_quant.c).
 *
 * The input is both a safetensors header (the JSON after the 8-byte length) and a
 * config.json: every input either adds consistent sums (bytes per dtype add up to the
 * total, the info is untouched on failure) or fails with an error report naming the input.
 * Always built as `replay_safetensors`, which CTest runs over tests/fuzz/corpus/safetensors/.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit.h"

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "fuzz_safetensors.c:%d: check failed: %s\n", __LINE__, #cond); \
            abort();                                                                       \
        }                                                                                  \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    hwfit_safetensors_info info, before;
    hwfit_error err;
    hwfit_safetensors_init(&info);
    info.files = 1; /* a file already added: a failure must leave it */
    before = info;
    uint64_t data_bytes = size > 0 ? (uint64_t)data[0] << 20 : UINT64_MAX;
    hwfit_status st = hwfit_safetensors_header_add((const char *)data, size, data_bytes, 3,
                                                   "fuzz.st", &info, &err);
    CHECK(err.status == st);
    if (st != HWFIT_OK) {
        CHECK(memcmp(&info, &before, sizeof info) == 0);
        CHECK(strncmp(err.message, "fuzz.st", 7) == 0);
    } else {
        CHECK(info.files == 2);
        uint64_t t = 0, e = 0, b = 0;
        for (uint32_t i = 0; i < info.dtype_count; i++) {
            CHECK(memchr(info.dtypes[i].name, '\0', sizeof info.dtypes[i].name) != NULL);
            t += info.dtypes[i].tensors;
            e += info.dtypes[i].elements;
            b += info.dtypes[i].bytes;
        }
        CHECK(t == info.tensors && e == info.elements && b == info.bytes);
        CHECK(info.extra_bytes <= info.bytes);
    }
    hwfit_model_stored s, poison;
    memset(&s, 0x5a, sizeof s);
    memset(&poison, 0x5a, sizeof poison);
    st = hwfit_hf_quant_parse((const char *)data, size, "fuzz.json", &s, &err);
    CHECK(err.status == st);
    if (st != HWFIT_OK) {
        CHECK(memcmp(&s, &poison, sizeof s) == 0);
        CHECK(strncmp(err.message, "fuzz.json", 9) == 0);
    } else {
        char text[192];
        CHECK(hwfit_hf_quant_describe(&s, text, sizeof text) == HWFIT_OK);
        const hwfit_dtype ds[4] = {s.checkpoint, s.attention, s.mlp, s.experts};
        for (int k = 0; k < 4; k++) {
            uint64_t bytes;
            CHECK(hwfit_dtype_matrix_bytes(ds[k], 4096, 4096, &bytes) == HWFIT_OK);
        }
    }
    return 0;
}

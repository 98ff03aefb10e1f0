/* fuzz_gpu_file.c - libFuzzer target for the GPU-file reader (lib/readers/gpu_file.c).
 *
 * Every input either adds cards that each pass hwfit_gpu_validate and are found by name
 * after the catalog, or fails with a consistent error report (status, file name,
 * NUL-terminated message) and leaves the set as it was. Always built as
 * `replay_gpu_file`, which CTest runs over tests/fuzz/corpus/gpu_file/.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit.h"

#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "fuzz_gpu_file.c:%d: check failed: %s\n", __LINE__, #cond);   \
            abort();                                                                      \
        }                                                                                 \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    hwfit_gpu_set *set = NULL;
    CHECK(hwfit_gpu_set_new(&set) == HWFIT_OK);
    /* A card already in the set: a file naming it again must be refused whole. */
    hwfit_gpu mine = *hwfit_gpu_at(0);
    mine.name = "fuzz-first";
    CHECK(hwfit_gpu_set_add(set, &mine, NULL) == HWFIT_OK);
    hwfit_error err;
    hwfit_status st = hwfit_gpu_file_parse((const char *)data, size, "fuzz.json", set, &err);
    CHECK(err.status == st);
    if (st != HWFIT_OK) {
        CHECK(hwfit_gpu_set_count(set) == 1);
        CHECK(strncmp(err.message, "fuzz.json", 9) == 0);
        CHECK(memchr(err.message, '\0', sizeof err.message) != NULL);
    } else {
        CHECK(err.message[0] == '\0');
        CHECK(hwfit_gpu_set_count(set) > 1);
        for (size_t i = 0; i < hwfit_gpu_set_count(set); i++) {
            const hwfit_gpu *g = hwfit_gpu_set_at(set, i), *found = NULL;
            CHECK(hwfit_gpu_validate(g, NULL) == HWFIT_OK);
            CHECK(hwfit_gpu_lookup(set, g->name, &found) == HWFIT_OK && found == g);
            CHECK(hwfit_gpu_find(g->name, &found) == HWFIT_ENOTFOUND);
        }
    }
    hwfit_gpu_set_free(set);
    return 0;
}

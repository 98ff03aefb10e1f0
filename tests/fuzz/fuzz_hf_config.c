/* fuzz_hf_config.c - libFuzzer target for the Hugging Face config reader (lib/hf_config.c).
 *
 * Every input either reads into a model that every calculation accepts (parameters, KV,
 * FLOPs, a memory estimate per mode), or fails with a consistent error report and an
 * untouched model. Always built as `replay_hf_config`, which CTest runs over
 * tests/fuzz/corpus/hf_config/ (real configs and refused variants).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit.h"

#define CHECK(cond)                                                                      \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "fuzz_hf_config.c:%d: check failed: %s\n", __LINE__, #cond); \
            abort();                                                                     \
        }                                                                                \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static hwfit_model m, poison;
    hwfit_error err;
    memset(&m, 0x5a, sizeof m);
    memset(&poison, 0x5a, sizeof poison);
    hwfit_status st = hwfit_hf_config_parse((const char *)data, size, "fuzz.json", &m, &err);
    CHECK(err.status == st);
    if (st != HWFIT_OK) {
        CHECK(memcmp(&m, &poison, sizeof m) == 0);
        CHECK(strncmp(err.message, "fuzz.json", 9) == 0);
        CHECK(memchr(err.message, '\0', sizeof err.message) != NULL);
        return 0;
    }
    CHECK(err.message[0] == '\0');
    CHECK(hwfit_model_check(&m) == HWFIT_OK);
    hwfit_model_param_counts p;
    CHECK(hwfit_model_params(&m, &p) == HWFIT_OK);
    CHECK(p.active <= p.total);
    hwfit_model_kv_in kin;
    hwfit_model_kv_init(&kin);
    hwfit_model_kv_out kv;
    st = hwfit_model_kv(&m, &kin, &kv);
    CHECK(st == HWFIT_OK || st == HWFIT_ERANGE);
    hwfit_model_flops_out f;
    CHECK(hwfit_model_flops(&m, 4096, &f) == HWFIT_OK);
    for (int mode = 0; mode <= HWFIT_MEMORY_QLORA; mode++) {
        hwfit_memory_in in;
        hwfit_memory_init(&in);
        in.mode = (hwfit_memory_mode)mode;
        hwfit_memory_out out;
        st = hwfit_memory_estimate(&m, &in, &out);
        CHECK(st == HWFIT_OK || st == HWFIT_ERANGE);
        if (st == HWFIT_OK) CHECK(out.total_bytes >= out.weights_bytes);
    }
    return 0;
}

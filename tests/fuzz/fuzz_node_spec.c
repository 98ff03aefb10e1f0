/* fuzz_node_spec.c - libFuzzer target for the node-file reader (lib/node_spec.c).
 *
 * Every input either reads into a node that hwfit_node_check accepts and
 * hwfit_node_evaluate evaluates with finite results, or fails with a consistent error
 * report (status, file name, NUL-terminated message) and an untouched node. Always built
 * as `replay_node_spec`, which CTest runs over tests/fuzz/corpus/node_spec/ (the example
 * node files and refused variants).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit.h"

#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "fuzz_node_spec.c:%d: check failed: %s\n", __LINE__, #cond);  \
            abort();                                                                      \
        }                                                                                 \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static hwfit_node n, poison;
    static hwfit_node_eval r;
    hwfit_error err;
    memset(&n, 0x5a, sizeof n);
    memset(&poison, 0x5a, sizeof poison);
    hwfit_status st = hwfit_node_parse((const char *)data, size, "fuzz.json", &n, &err);
    CHECK(err.status == st);
    if (st != HWFIT_OK) {
        CHECK(memcmp(&n, &poison, sizeof n) == 0);
        CHECK(strncmp(err.message, "fuzz.json", 9) == 0);
        CHECK(memchr(err.message, '\0', sizeof err.message) != NULL);
        return 0;
    }
    CHECK(err.message[0] == '\0');
    CHECK(hwfit_node_check(&n, &err) == HWFIT_OK);
    CHECK(hwfit_node_evaluate(&n, &r) == HWFIT_OK);
    CHECK(r.budget.dc_w > 0.0 && r.budget.dc_w - r.budget.dc_w == 0.0);
    CHECK(r.psu.wall_w >= r.budget.dc_w);
    CHECK(r.energy.annual_cost - r.energy.annual_cost == 0.0);
    return 0;
}

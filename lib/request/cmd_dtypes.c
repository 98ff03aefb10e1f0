/* cmd_dtypes.c - `dtypes`: the number formats with their bits per element. */
#include "hwfit/dtype.h"
#include "request_internal.h"

static const hwfit__col cols[] = {
    {"name", "name", 9},           {"bits_per_element", "bits", 8},
    {"block_elements", "block", 6}, {"block_bits", "block bits", 10},
    {"quantized", "quantized", 9}, {"description", "layout", 40},
};

static hwfit_status run(hwfit_request *r, hwfit__out *o, void *state) {
    (void)state;
    size_t n = hwfit_dtype_count();
    hwfit__out_table(o, "dtypes", NULL, cols, (int)HWFIT__COUNT_OF(cols));
    for (size_t i = 0; i < n; i++) {
        hwfit_dtype d;
        char name[HWFIT_DTYPE_NAME_SIZE];
        hwfit_dtype_info info;
        hwfit_status st = hwfit_dtype_at(i, &d);
        if (st == HWFIT_OK) st = hwfit_dtype_format(d, name, sizeof name);
        if (st == HWFIT_OK) st = hwfit_dtype_describe(d, &info);
        if (st != HWFIT_OK) return hwfit__req_fail_status(r, "listing", st);
        hwfit__out_row(o);
        hwfit__out_cell_str(o, name);
        hwfit__out_cell_num(o, info.bits_per_element);
        hwfit__out_cell_u64(o, info.block_elements);
        hwfit__out_cell_u64(o, info.block_bits);
        hwfit__out_cell_bool(o, info.quantized);
        hwfit__out_cell_str(o, info.description);
    }
    hwfit__out_table_end(o);
    return HWFIT_OK;
}

const hwfit__command hwfit__cmd_dtypes = {
    .pub = {.name = "dtypes",
            .summary = "Number formats for weights and KV caches, with bits per element "
                       "(block scales included).",
            .details = "Use the names for the weights and kv options of model and memory.",
            .formats = 1u << HWFIT_FORMAT_JSON | 1u << HWFIT_FORMAT_TEXT |
                       1u << HWFIT_FORMAT_CSV},
    .run = run,
};

/* dtypes.c - `hwfit dtypes`: the number formats with their bits per element. */
#include "cli.h"

int cmd_dtypes(int argc, char **argv) {
    const cli_spec spec = {"dtypes",
                           "Number formats for weights and KV caches, with bits per element "
                           "(block scales included).",
                           "", "Use the names with --weights and --kv (hwfit model, hwfit memory).",
                           NULL, 0, 0, NULL};
    cli_args args;
    int rc = cli_parse(&spec, argc, argv, &args);
    if (rc != 0) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;

    /* Compute everything first. */
    enum { MAX_ROWS = 64 };
    size_t n = hwfit_dtype_count();
    if (n > MAX_ROWS) return cli_fail("dtypes", "too many formats");
    char names[MAX_ROWS][HWFIT_DTYPE_NAME_SIZE];
    hwfit_dtype_info info[MAX_ROWS];
    for (size_t i = 0; i < n; i++) {
        hwfit_dtype d;
        hwfit_status st = hwfit_dtype_at(i, &d);
        if (st == HWFIT_OK) st = hwfit_dtype_format(d, names[i], sizeof names[i]);
        if (st == HWFIT_OK) st = hwfit_dtype_describe(d, &info[i]);
        if (st != HWFIT_OK) return cli_fail_status("dtypes", "listing", st);
    }

    static const cli_col cols[] = {
        {"name", "name", 9},           {"bits_per_element", "bits", 8},
        {"block_elements", "block", 6}, {"block_bits", "block bits", 10},
        {"quantized", "quantized", 9}, {"description", "layout", 40},
    };
    cli_out o;
    out_begin(&o, args.json, NULL);
    out_table(&o, "dtypes", NULL, cols, (int)(sizeof cols / sizeof cols[0]));
    for (size_t i = 0; i < n; i++) {
        out_row(&o);
        out_cell_str(&o, names[i]);
        out_cell_num(&o, info[i].bits_per_element);
        out_cell_u64(&o, info[i].block_elements);
        out_cell_u64(&o, info[i].block_bits);
        out_cell_bool(&o, info[i].quantized);
        out_cell_str(&o, info[i].description);
    }
    out_table_end(&o);
    out_end(&o);
    return CLI_EXIT_OK;
}

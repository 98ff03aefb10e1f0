/* units.c - `hwfit units VALUE --unit KIND`: a quantity in base units, SI and IEC. */
#include "cli.h"

static const char *const unit_names[] = {"none", "bytes", "bytes/s", "bits/s", "watts",
                                         "seconds", "flop/s", "flop", NULL};
static const hwfit_unit unit_values[] = {HWFIT_UNIT_NONE, HWFIT_UNIT_BYTES,
                                         HWFIT_UNIT_BYTES_PER_S, HWFIT_UNIT_BITS_PER_S,
                                         HWFIT_UNIT_WATTS, HWFIT_UNIT_SECONDS,
                                         HWFIT_UNIT_FLOP_PER_S, HWFIT_UNIT_FLOP};

int cmd_units(int argc, char **argv) {
    int unit = 1;
    const cli_opt opts[] = {
        {"unit", CLI_CHOICE, &unit, "KIND", "the kind of quantity (default bytes)", 0,
         unit_names, NULL},
    };
    const cli_spec spec = {"units", "Parse a quantity such as 15.36TB, 400Gb/s or 3.2kW.",
                           "VALUE [--unit KIND]",
                           "A plain number is in the base unit: bytes, bytes/s, bits/s, W, s.",
                           opts, 1, 1, "VALUE"};
    cli_args args;
    int rc = cli_parse(&spec, argc, argv, &args);
    if (rc != 0) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    if (args.npositional != 1) return cli_fail("units", "expected one VALUE, e.g. 15.36TB");

    double value;
    hwfit_status st = hwfit_units_parse(args.positional[0], unit_values[unit], &value);
    if (st != HWFIT_OK)
        return cli_fail_value("units", "VALUE", args.positional[0], st,
                              "a non-negative quantity of the --unit kind, e.g. 15.36TB, "
                              "400Gb/s or 3.2kW");
    char text[64];
    st = hwfit_units_format(value, unit_values[unit], text, sizeof text);
    if (st != HWFIT_OK) return cli_fail_status("units", args.positional[0], st);

    cli_out o;
    out_begin(&o, args.json, NULL);
    out_str(&o, "input", "input", args.positional[0]);
    out_str(&o, "unit", "unit", unit_names[unit]);
    out_num(&o, "value", "value in base units", value);
    out_str(&o, "text", "for people", text);
    out_end(&o);
    return CLI_EXIT_OK;
}

/* cmd_units.c - `units VALUE --unit KIND`: a quantity in base units, SI and IEC. */
#include "request_internal.h"

static const char *const unit_names[] = {"none", "bytes", "bytes/s", "bits/s", "watts",
                                         "seconds", "flop/s", "flop", NULL};
static const hwfit_unit unit_values[] = {HWFIT_UNIT_NONE, HWFIT_UNIT_BYTES,
                                         HWFIT_UNIT_BYTES_PER_S, HWFIT_UNIT_BITS_PER_S,
                                         HWFIT_UNIT_WATTS, HWFIT_UNIT_SECONDS,
                                         HWFIT_UNIT_FLOP_PER_S, HWFIT_UNIT_FLOP};

enum { O_VALUE, O_UNIT };
static const hwfit_option options[] = {
    [O_VALUE] = {.name = "value", .kind = HWFIT_OPTION_TEXT, .metavar = "VALUE",
                 .flags = HWFIT_OPTION_REQUIRED | HWFIT_OPTION_POSITIONAL, .example = "15.36TB",
                 .help = "the quantity: a number with an optional unit"},
    [O_UNIT] = {.name = "unit", .kind = HWFIT_OPTION_CHOICE, .metavar = "KIND",
                .default_text = "bytes", .choices = unit_names,
                .help = "the kind of quantity"},
};

static hwfit_status run(hwfit_request *r, hwfit__out *o, void *state) {
    (void)state;
    const char *text = hwfit__req_text(r, &options[O_VALUE]);
    int unit = hwfit__req_choice(r, &options[O_UNIT]);
    double value;
    hwfit_status st = hwfit_units_parse(text, unit_values[unit], &value);
    static const char *const expected =
        "(expected a non-negative quantity of the unit kind, e.g. 15.36TB, 400Gb/s or 3.2kW)";
    if (st == HWFIT_EDOM)
        return hwfit__req_fail(r, &options[O_VALUE], st, "'%s' is out of range %s", text, expected);
    if (st == HWFIT_ERANGE)
        return hwfit__req_fail(r, &options[O_VALUE], st, "'%s' is beyond a double's range %s",
                               text, expected);
    if (st != HWFIT_OK)
        return hwfit__req_fail(r, &options[O_VALUE], st, "cannot read '%s' %s", text, expected);
    char formatted[64];
    st = hwfit_units_format(value, unit_values[unit], formatted, sizeof formatted);
    if (st != HWFIT_OK) return hwfit__req_fail_status(r, text, st);
    hwfit__out_str(o, "input", "input", text);
    hwfit__out_str(o, "unit", "unit", unit_names[unit]);
    hwfit__out_num(o, "value", "value in base units", value);
    hwfit__out_str(o, "text", "for people", formatted);
    return HWFIT_OK;
}

const hwfit__command hwfit__cmd_units = {
    .pub = {.name = "units",
            .summary = "Parse a quantity such as 15.36TB, 400Gb/s or 3.2kW.",
            .details = "A plain number is in the base unit: bytes, bytes/s, bits/s, W, s.",
            .formats = 1u << HWFIT_FORMAT_JSON | 1u << HWFIT_FORMAT_TEXT},
    .sets = {HWFIT__SET(options)},
    .run = run,
};

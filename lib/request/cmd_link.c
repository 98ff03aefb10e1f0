/* cmd_link.c - `link NAME [--payload SIZE]`: rates of a link, per direction and both. */
#include "hwfit/link.h"
#include "request_internal.h"

enum { O_NAME, O_PAYLOAD };
static const hwfit_option options[] = {
    [O_NAME] = {.name = "name", .kind = HWFIT_OPTION_TEXT, .metavar = "NAME",
                .flags = HWFIT_OPTION_REQUIRED | HWFIT_OPTION_POSITIONAL, .example = "pcie5x16",
                .help = "the link: pcie<gen>x<lanes>, nvlink<gen>[x<links>], ib-edr|hdr|ndr|xdr, "
                        "[<n>x]<speed>g-roce|tcp|ib, xgmi3[x<links>] or upi<gen>[x<links>]"},
    [O_PAYLOAD] = {.name = "payload", .kind = HWFIT_OPTION_QUANTITY, .unit = HWFIT_UNIT_BYTES,
                   .metavar = "SIZE", .default_help = "the kind's", .min = 0.0, .max = 1e308,
                   .help = "payload per packet: PCIe MPS, NVLink write, IB/RoCE MTU, TCP MTU"},
};

static const char expected[] = "pcie<1-6>x<1|2|4|8|16>, nvlink<1-5>[x<1-18>], ib-edr|hdr|ndr|xdr, "
                               "[<n>x]<speed>g-roce|tcp|ib, xgmi3[x<1-8>] or upi<1-3>[x<1-8>]";

static hwfit_status bad_name(hwfit_request *r, const char *text, hwfit_status st) {
    const hwfit_option *o = &options[O_NAME];
    switch (st) {
    case HWFIT_ENOTFOUND:
        return hwfit__req_fail(r, o, st, "unknown value '%s' (expected %s)", text, expected);
    case HWFIT_EPARSE:
        return hwfit__req_fail(r, o, st, "cannot read '%s' (expected %s)", text, expected);
    case HWFIT_EDOM:
        return hwfit__req_fail(r, o, st, "'%s' is out of range (expected %s)", text, expected);
    case HWFIT_ERANGE:
        return hwfit__req_fail(r, o, st, "'%s' is beyond a double's range (expected %s)", text,
                               expected);
    default:
        return hwfit__req_fail(r, o, st, "'%s': %s", text, hwfit_status_str(st));
    }
}

static hwfit_status run(hwfit_request *r, hwfit__out *o, void *state) {
    (void)state;
    const char *name = hwfit__req_text(r, &options[O_NAME]);
    hwfit_link_in in;
    hwfit_status st = hwfit_link_parse(name, &in);
    if (st != HWFIT_OK) return bad_name(r, name, st);
    if (hwfit__req_given(r, &options[O_PAYLOAD]))
        in.payload_bytes = hwfit__req_double(r, &options[O_PAYLOAD]);
    hwfit_link_out out;
    if (hwfit_link_rate(&in, &out) != HWFIT_OK) {
        static const char *const aliases[] = {"payload_bytes", "payload", "kind", "name",
                                              "generation", "name", "width", "name",
                                              "port_bits_per_s", "name", "transport", "name",
                                              NULL};
        hwfit_problem why;
        (void)hwfit_link_validate(&in, &why);
        return hwfit__req_fail_problem(r, aliases, &why);
    }
    if (hwfit__req_format(r) == HWFIT_FORMAT_TEXT) hwfit__text_printf(o->t, "%s\n", out.name);
    hwfit__out_str(o, "input", "input", name);
    hwfit__out_str(o, "name", "link", out.name);
    hwfit__out_str(o, "kind", "kind", hwfit_link_kind_name(in.kind));
    hwfit__out_u64(o, "generation", "generation", in.generation);
    hwfit__out_u64(o, "width", "width (lanes, links or ports)", in.width);
    hwfit__out_u64(o, "lanes", "serial lanes per link or port", out.lanes);
    hwfit__out_qty(o, "lane_raw_bits_per_s", "signalling per lane", out.lane_raw_bits_per_s,
                   HWFIT_UNIT_BITS_PER_S);
    hwfit__out_pct(o, "encoding_efficiency", "encoding share", out.encoding_efficiency);
    hwfit__out_qty(o, "line_bytes_per_s", "line rate, per direction", out.line_bytes_per_s,
                   HWFIT_UNIT_BYTES_PER_S);
    hwfit__out_qty(o, "line_bytes_per_s_bidir", "line rate, both directions",
                   out.line_bytes_per_s_bidir, HWFIT_UNIT_BYTES_PER_S);
    hwfit__out_num(o, "payload_bytes", "payload per packet (B)", out.payload_bytes);
    hwfit__out_num(o, "overhead_bytes", "overhead per packet (B)", out.overhead_bytes);
    hwfit__out_pct(o, "protocol_efficiency", "protocol share", out.protocol_efficiency);
    hwfit__out_qty(o, "payload_bytes_per_s", "payload rate, per direction",
                   out.payload_bytes_per_s, HWFIT_UNIT_BYTES_PER_S);
    hwfit__out_qty(o, "payload_bytes_per_s_bidir", "payload rate, both directions",
                   out.payload_bytes_per_s_bidir, HWFIT_UNIT_BYTES_PER_S);
    return HWFIT_OK;
}

const hwfit__command hwfit__cmd_link = {
    .pub = {.name = "link",
            .summary = "Show a link's signalling, line and payload rates.",
            .details = "Names: pcie<gen>x<lanes> (pcie5x16), nvlink<gen>[x<links>] (nvlink4x18), "
                       "ib-edr|hdr|ndr|xdr, [<n>x]<speed>g-roce|tcp|ib (400g-roce, 2x400g-roce, "
                       "8x400g-ib), xgmi3[x<links>], upi<gen>[x<links>]. Rates are per direction "
                       "unless marked both.",
            .formats = 1u << HWFIT_FORMAT_JSON | 1u << HWFIT_FORMAT_TEXT},
    .sets = {HWFIT__SET(options)},
    .run = run,
};

/* link.c - `hwfit link NAME [--payload SIZE]`: rates of a link, per direction and both. */
#include "cli.h"

int cmd_link(int argc, char **argv) {
    double payload = 0.0;
    const cli_opt opts[] = {
        {"payload", CLI_QUANTITY, &payload, "SIZE",
         "payload per packet: PCIe MPS, NVLink write, IB/RoCE MTU, TCP MTU (default: the kind's)",
         HWFIT_UNIT_BYTES, NULL, NULL},
    };
    const cli_spec spec = {
        "link", "Show a link's signalling, line and payload rates.", "NAME [--payload SIZE]",
        "NAME: pcie<gen>x<lanes> (pcie5x16), nvlink<gen>[x<links>] (nvlink4x18),\n"
        "ib-edr|hdr|ndr|xdr, [<n>x]<speed>g-roce|tcp|ib (400g-roce, 2x400g-roce, 8x400g-ib),\n"
        "xgmi3[x<links>], upi<gen>[x<links>]. Rates are per direction unless marked both.",
        opts, (int)(sizeof opts / sizeof opts[0]), 1, "NAME"};
    cli_args args;
    int rc = cli_parse(&spec, argc, argv, &args);
    if (rc != 0) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    if (args.npositional != 1) return cli_fail("link", "expected one NAME, e.g. pcie5x16");

    hwfit_link_in in;
    hwfit_status st = hwfit_link_parse(args.positional[0], &in);
    if (st != HWFIT_OK)
        return cli_fail_value("link", "NAME", args.positional[0], st,
                              "pcie<1-6>x<1|2|4|8|16>, nvlink<1-5>[x<1-18>], ib-edr|hdr|ndr|xdr, "
                              "[<n>x]<speed>g-roce|tcp|ib, xgmi3[x<1-8>] or upi<1-3>[x<1-8>]");
    in.payload_bytes = payload;
    hwfit_link_out r;
    if (hwfit_link_rate(&in, &r) != HWFIT_OK) {
        static const char *const aliases[] = {"payload_bytes", "--payload", NULL};
        hwfit_problem why;
        (void)hwfit_link_validate(&in, &why);
        return cli_fail_problem(&spec, aliases, &why);
    }

    cli_out o;
    out_begin(&o, args.json, r.name);
    out_str(&o, "input", "input", args.positional[0]);
    out_str(&o, "name", "link", r.name);
    out_str(&o, "kind", "kind", hwfit_link_kind_name(in.kind));
    out_u64(&o, "generation", "generation", in.generation);
    out_u64(&o, "width", "width (lanes, links or ports)", in.width);
    out_u64(&o, "lanes", "serial lanes per link or port", r.lanes);
    out_qty(&o, "lane_raw_bits_per_s", "signalling per lane", r.lane_raw_bits_per_s,
            HWFIT_UNIT_BITS_PER_S);
    out_num(&o, "encoding_efficiency", "encoding share", r.encoding_efficiency);
    out_qty(&o, "line_bytes_per_s", "line rate, per direction", r.line_bytes_per_s,
            HWFIT_UNIT_BYTES_PER_S);
    out_qty(&o, "line_bytes_per_s_bidir", "line rate, both directions", r.line_bytes_per_s_bidir,
            HWFIT_UNIT_BYTES_PER_S);
    out_num(&o, "payload_bytes", "payload per packet (B)", r.payload_bytes);
    out_num(&o, "overhead_bytes", "overhead per packet (B)", r.overhead_bytes);
    out_num(&o, "protocol_efficiency", "protocol share", r.protocol_efficiency);
    out_qty(&o, "payload_bytes_per_s", "payload rate, per direction", r.payload_bytes_per_s,
            HWFIT_UNIT_BYTES_PER_S);
    out_qty(&o, "payload_bytes_per_s_bidir", "payload rate, both directions",
            r.payload_bytes_per_s_bidir, HWFIT_UNIT_BYTES_PER_S);
    out_end(&o);
    return CLI_EXIT_OK;
}

/* transfer.c - `hwfit transfer`: time to stream a data set or save/load a checkpoint. */
#include "cli.h"

int cmd_transfer(int argc, char **argv) {
    hwfit_transfer_in in;
    hwfit_transfer_init(&in);
    const char *transport = "local";
    double efficiency = 0.0;
    int seen_size = 0, seen_rate = 0, seen_efficiency = 0;
    const cli_opt opts[] = {
        {"size", CLI_QUANTITY, &in.bytes, "SIZE", "bytes to move, e.g. 140GB (required)",
         HWFIT_UNIT_BYTES, NULL, &seen_size},
        {"rate", CLI_QUANTITY, &in.rate_bytes_per_s, "RATE",
         "rate of the path: array rate (local) or line rate of all ports (required)",
         HWFIT_UNIT_BYTES_PER_S, NULL, &seen_rate},
        {"transport", CLI_STRING, &transport, "NAME",
         "local, nvmeof-roce or nvmeof-tcp (default local)", 0, NULL, NULL},
        {"efficiency", CLI_DOUBLE, &efficiency, "X",
         "share of the rate achieved (defaults: local 1, RoCE 0.95, TCP 0.85)", 0, NULL,
         &seen_efficiency},
        {"backend-rate", CLI_QUANTITY, &in.backend_bytes_per_s, "RATE",
         "rate limit of the remote storage itself", HWFIT_UNIT_BYTES_PER_S, NULL, NULL},
        {"capacity", CLI_QUANTITY, &in.capacity_bytes, "SIZE",
         "capacity of the destination, to check that the data fits", HWFIT_UNIT_BYTES, NULL,
         NULL},
    };
    const cli_spec spec = {
        "transfer", "Time to stream a data set or to save or load a checkpoint, and whether it fits.",
        "--size SIZE --rate RATE [--transport local|nvmeof-roce|nvmeof-tcp] [options]",
        "Local: --rate is the array's read or write rate (see hwfit raid). NVMe-oF: --rate is\n"
        "the line rate of all ports, e.g. 800Gb/s for 2 x 400GbE.",
        opts, (int)(sizeof opts / sizeof opts[0]), 0, NULL};
    cli_args args;
    int rc = cli_parse(&spec, argc, argv, &args);
    if (rc != 0) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    if (!seen_size) return cli_fail("transfer", "--size is required, e.g. --size 140GB");
    if (!seen_rate)
        return cli_fail("transfer", "--rate is required, e.g. --rate 14GB/s");
    hwfit_status st = hwfit_storage_transport_parse(transport, &in.transport);
    if (st != HWFIT_OK)
        return cli_fail_value("transfer", "--transport", transport, st,
                              "local, nvmeof-roce or nvmeof-tcp");
    if (seen_efficiency) {
        if (in.transport == HWFIT_STORAGE_TRANSPORT_NVMEOF_ROCE) in.roce_efficiency = efficiency;
        else if (in.transport == HWFIT_STORAGE_TRANSPORT_NVMEOF_TCP) in.tcp_efficiency = efficiency;
        else in.local_efficiency = efficiency;
    }
    hwfit_transfer_out r;
    if (hwfit_transfer_estimate(&in, &r) != HWFIT_OK) {
        static const char *const aliases[] = {
            "bytes", "--size", "rate_bytes_per_s", "--rate", "local_efficiency", "--efficiency",
            "roce_efficiency", "--efficiency", "tcp_efficiency", "--efficiency",
            "backend_bytes_per_s", "--backend-rate", "capacity_bytes", "--capacity", NULL};
        hwfit_problem why;
        (void)hwfit_transfer_validate(&in, &why);
        return cli_fail_problem(&spec, aliases, &why);
    }

    cli_out o;
    out_begin(&o, args.json, NULL);
    out_qty(&o, "bytes", "size", in.bytes, HWFIT_UNIT_BYTES);
    out_str(&o, "transport", "transport", hwfit_storage_transport_name(in.transport));
    out_qty(&o, "rate_bytes_per_s", "rate", in.rate_bytes_per_s, HWFIT_UNIT_BYTES_PER_S);
    out_num(&o, "efficiency", "efficiency", r.efficiency);
    out_qty(&o, "effective_bytes_per_s", "effective rate", r.effective_bytes_per_s,
            HWFIT_UNIT_BYTES_PER_S);
    out_bool(&o, "backend_limited", "limited by the backend", r.backend_limited);
    out_qty(&o, "time_s", "time", r.time_s, HWFIT_UNIT_SECONDS);
    if (r.capacity_checked) {
        out_qty(&o, "capacity_bytes", "capacity", in.capacity_bytes, HWFIT_UNIT_BYTES);
        out_bool(&o, "fits", "fits", r.fits);
        out_num(&o, "fill_fraction", "size / capacity", r.fill_fraction);
    } else {
        out_null(&o, "capacity_bytes", "capacity");
        out_null(&o, "fits", "fits");
        out_null(&o, "fill_fraction", "size / capacity");
    }
    out_end(&o);
    return CLI_EXIT_OK;
}

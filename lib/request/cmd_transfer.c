/* cmd_transfer.c - `transfer`: time to stream a data set or save or load a checkpoint, and
 * whether it fits its destination. */
#include "hwfit/storage.h"
#include "request_internal.h"

enum { O_SIZE, O_RATE, O_TRANSPORT, O_EFFICIENCY, O_BACKEND_RATE, O_CAPACITY };
static const hwfit_option options[] = {
    [O_SIZE] = {.name = "size", .kind = HWFIT_OPTION_QUANTITY, .unit = HWFIT_UNIT_BYTES,
                .metavar = "SIZE", .min = 0, .max = 1e24, .flags = HWFIT_OPTION_REQUIRED,
                .example = "140GB", .help = "bytes to move: a data set, a checkpoint"},
    [O_RATE] = {.name = "rate", .kind = HWFIT_OPTION_QUANTITY, .unit = HWFIT_UNIT_BYTES_PER_S,
                .metavar = "RATE", .min = 0, .max = 1e15, .flags = HWFIT_OPTION_REQUIRED,
                .example = "14GB/s",
                .help = "rate of the path: the array's rate (local) or the line rate of all "
                        "ports (NVMe-oF)"},
    [O_TRANSPORT] = {.name = "transport", .kind = HWFIT_OPTION_TEXT, .metavar = "NAME",
                     .default_text = "local",
                     .help = "local, nvmeof-roce or nvmeof-tcp"},
    [O_EFFICIENCY] = {.name = "efficiency", .kind = HWFIT_OPTION_RATIO, .metavar = "X",
                      .min = 0, .max = 1,
                      .default_help = "local 1, nvmeof-roce 0.95, nvmeof-tcp 0.85",
                      .help = "share of the rate the transport achieves"},
    [O_BACKEND_RATE] = {.name = "backend-rate", .kind = HWFIT_OPTION_QUANTITY,
                        .unit = HWFIT_UNIT_BYTES_PER_S, .metavar = "RATE", .min = 1, .max = 1e15,
                        .default_help = "no limit",
                        .help = "rate limit of the remote storage itself"},
    [O_CAPACITY] = {.name = "capacity", .kind = HWFIT_OPTION_QUANTITY, .unit = HWFIT_UNIT_BYTES,
                    .metavar = "SIZE", .min = 1, .max = 1e24, .default_help = "not checked",
                    .help = "capacity of the destination, to check that the data fits"},
};

static hwfit_status run(hwfit_request *r, hwfit__out *o, void *state) {
    (void)state;
    hwfit_transfer_in in;
    hwfit_transfer_init(&in);
    in.bytes = hwfit__req_double(r, &options[O_SIZE]);
    in.rate_bytes_per_s = hwfit__req_double(r, &options[O_RATE]);
    const char *transport = hwfit__req_text(r, &options[O_TRANSPORT]);
    hwfit_status st = hwfit_storage_transport_parse(transport, &in.transport);
    if (st != HWFIT_OK)
        return hwfit__req_fail(r, &options[O_TRANSPORT], st,
                               "unknown value '%s' (expected local, nvmeof-roce or nvmeof-tcp)",
                               transport);
    if (hwfit__req_given(r, &options[O_EFFICIENCY])) {
        double e = hwfit__req_double(r, &options[O_EFFICIENCY]);
        if (in.transport == HWFIT_STORAGE_TRANSPORT_NVMEOF_ROCE) in.roce_efficiency = e;
        else if (in.transport == HWFIT_STORAGE_TRANSPORT_NVMEOF_TCP) in.tcp_efficiency = e;
        else in.local_efficiency = e;
    }
    if (hwfit__req_given(r, &options[O_BACKEND_RATE]))
        in.backend_bytes_per_s = hwfit__req_double(r, &options[O_BACKEND_RATE]);
    if (hwfit__req_given(r, &options[O_CAPACITY]))
        in.capacity_bytes = hwfit__req_double(r, &options[O_CAPACITY]);
    hwfit_transfer_out t;
    if (hwfit_transfer_estimate(&in, &t) != HWFIT_OK) {
        static const char *const aliases[] = {
            "bytes", "size", "rate_bytes_per_s", "rate", "local_efficiency", "efficiency",
            "roce_efficiency", "efficiency", "tcp_efficiency", "efficiency",
            "backend_bytes_per_s", "backend-rate", "capacity_bytes", "capacity", NULL};
        hwfit_problem why;
        (void)hwfit_transfer_validate(&in, &why);
        return hwfit__req_fail_problem(r, aliases, &why);
    }
    hwfit__out_qty(o, "bytes", "size", in.bytes, HWFIT_UNIT_BYTES);
    hwfit__out_str(o, "transport", "transport", hwfit_storage_transport_name(in.transport));
    hwfit__out_qty(o, "rate_bytes_per_s", "rate", in.rate_bytes_per_s, HWFIT_UNIT_BYTES_PER_S);
    hwfit__out_pct(o, "efficiency", "efficiency", t.efficiency);
    hwfit__out_qty(o, "effective_bytes_per_s", "effective rate", t.effective_bytes_per_s,
                   HWFIT_UNIT_BYTES_PER_S);
    hwfit__out_bool(o, "backend_limited", "limited by the backend", t.backend_limited);
    hwfit__out_qty(o, "time_s", "time", t.time_s, HWFIT_UNIT_SECONDS);
    if (t.capacity_checked) {
        hwfit__out_qty(o, "capacity_bytes", "capacity", in.capacity_bytes, HWFIT_UNIT_BYTES);
        hwfit__out_bool(o, "fits", "fits", t.fits);
        hwfit__out_pct(o, "fill_fraction", "size / capacity", t.fill_fraction);
    } else {
        hwfit__out_null(o, "capacity_bytes", "capacity");
        hwfit__out_null(o, "fits", "fits");
        hwfit__out_null(o, "fill_fraction", "size / capacity");
    }
    return HWFIT_OK;
}

const hwfit__command hwfit__cmd_transfer = {
    .pub = {.name = "transfer",
            .summary = "Time to stream a data set or to save or load a checkpoint, and whether "
                       "it fits.",
            .details = "Local: the rate is the array's read or write rate (see hwfit raid). "
                       "NVMe-oF: the rate is the line rate of all ports, e.g. 800Gb/s for "
                       "2 x 400GbE.",
            .formats = 1u << HWFIT_FORMAT_JSON | 1u << HWFIT_FORMAT_TEXT},
    .sets = {HWFIT__SET(options)},
    .run = run,
};

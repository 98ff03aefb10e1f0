/* cmd_host.c - `host`: cores per GPU, RAM/VRAM, memory bandwidth, DIMMs per channel and the
 * PCIe lane budget of a server. Each part is computed when its inputs are given. */
#include <string.h>

#include "hwfit/host.h"
#include "request_internal.h"

enum {
    O_SOCKETS, O_CORES, O_GPUS, O_CORES_PER_GPU, O_RAM, O_VRAM, O_RAM_RATIO, O_CHANNELS,
    O_DIMMS, O_MTS, O_MTS_2DPC, O_MAX_DPC, O_LANES, O_SOCKET_LINKS, O_GPU_LANES,
    O_GPU_LANES_BIFURCATED, O_NVME, O_NVME_LANES, O_NICS, O_NIC_LANES, O_OTHER_LANES,
    O_SWITCHES, O_SWITCH_UPSTREAM, O_SWITCH_DOWNSTREAM, O_SWITCH_NICS, O_SWITCH_NVME
};
#define COUNT_MAX 1.8446744073709552e19
#define COUNT(n, mv, lo, dflt, dhelp, text)                                                    \
    {.name = (n), .kind = HWFIT_OPTION_COUNT, .metavar = (mv), .min = (lo), .max = COUNT_MAX, \
     .default_text = (dflt), .default_help = (dhelp), .help = (text)}
#define LANES(n, dflt, text)                                                                   \
    {.name = (n), .kind = HWFIT_OPTION_COUNT, .metavar = "N", .min = 1, .max = 64,             \
     .default_text = (dflt), .help = (text)}
static const hwfit_option options[] = {
    [O_SOCKETS] = {.name = "sockets", .kind = HWFIT_OPTION_COUNT, .metavar = "N", .min = 1,
                   .max = 8, .default_text = "1", .help = "CPU sockets"},
    [O_CORES] = COUNT("cores", "N", 1, NULL, "not given", "physical cores of all sockets"),
    [O_GPUS] = COUNT("gpus", "N", 1, NULL, "not given", "GPUs"),
    [O_CORES_PER_GPU] = {.name = "cores-per-gpu", .kind = HWFIT_OPTION_RATIO, .metavar = "X",
                         .default_text = "4", .min = 0, .max = 1e4,
                         .help = "rule: at least X cores per GPU"},
    [O_RAM] = {.name = "ram", .kind = HWFIT_OPTION_QUANTITY, .unit = HWFIT_UNIT_BYTES,
               .metavar = "SIZE", .min = 1, .max = 1e18, .default_help = "not given",
               .help = "host RAM, e.g. 1.5TB"},
    [O_VRAM] = {.name = "vram", .kind = HWFIT_OPTION_QUANTITY, .unit = HWFIT_UNIT_BYTES,
                .metavar = "SIZE", .min = 1, .max = 1e18, .default_help = "not given",
                .help = "GPU memory of all GPUs, e.g. 768GB"},
    [O_RAM_RATIO] = {.name = "ram-ratio", .kind = HWFIT_OPTION_RATIO, .metavar = "X",
                     .default_text = "2", .min = 0, .max = 100,
                     .help = "rule: RAM >= X x VRAM"},
    [O_CHANNELS] = COUNT("channels", "N", 1, NULL, "not given", "memory channels per socket"),
    [O_DIMMS] = COUNT("dimms", "N", 1, NULL, "not given", "DIMMs in all sockets"),
    [O_MTS] = {.name = "mts", .kind = HWFIT_OPTION_RATIO, .metavar = "MT/s", .min = 1,
               .max = 1e5, .default_help = "not given",
               .help = "DIMM data rate at 1 DIMM per channel, e.g. 6400"},
    [O_MTS_2DPC] = {.name = "mts-2dpc", .kind = HWFIT_OPTION_RATIO, .metavar = "MT/s", .min = 1,
                    .max = 1e5, .default_help = "unknown",
                    .help = "data rate at 2 DIMMs per channel (the platform's rule)"},
    [O_MAX_DPC] = {.name = "max-dpc", .kind = HWFIT_OPTION_COUNT, .metavar = "N", .min = 1,
                   .max = 4, .default_text = "2", .help = "DIMM slots per channel"},
    [O_LANES] = COUNT("lanes", "N", 1, NULL, "not given", "PCIe lanes per socket, e.g. 128"),
    [O_SOCKET_LINKS] = COUNT("socket-links", "N", 0, "4", NULL,
                             "x16 inter-socket (xGMI) links per socket; 0 for Intel"),
    [O_GPU_LANES] = LANES("gpu-lanes", "16", "lanes per GPU"),
    [O_GPU_LANES_BIFURCATED] = LANES("gpu-lanes-bifurcated", "8",
                                     "lanes per GPU with bifurcation"),
    [O_NVME] = COUNT("nvme", "N", 0, "0", NULL, "NVMe drives"),
    [O_NVME_LANES] = LANES("nvme-lanes", "4", "lanes per NVMe drive"),
    [O_NICS] = COUNT("nics", "N", 0, "0", NULL, "network adapters"),
    [O_NIC_LANES] = LANES("nic-lanes", "16", "lanes per NIC"),
    [O_OTHER_LANES] = COUNT("other-lanes", "N", 0, "0", NULL, "other lanes the host gives"),
    [O_SWITCHES] = COUNT("switches", "N", 0, "0", NULL, "PCIe switches (GPUs behind them)"),
    [O_SWITCH_UPSTREAM] = LANES("switch-upstream", "16", "host lanes per switch"),
    [O_SWITCH_DOWNSTREAM] = COUNT("switch-downstream", "N", 1, NULL, "not checked",
                                  "device lanes per switch"),
    [O_SWITCH_NICS] = {.name = "switch-nics", .kind = HWFIT_OPTION_FLAG,
                       .help = "the NICs sit behind the switches too"},
    [O_SWITCH_NVME] = {.name = "switch-nvme", .kind = HWFIT_OPTION_FLAG,
                       .help = "the NVMe drives sit behind the switches"},
};

/* A value of an evaluated part, or null (JSON) / nothing (table) when not evaluated. */
static void num(hwfit__out *o, int evaluated, const char *key, const char *label, double v) {
    if (evaluated) hwfit__out_num(o, key, label, v);
    else if (hwfit__out_json(o)) hwfit__out_null(o, key, label);
}

static void qty(hwfit__out *o, int evaluated, const char *key, const char *label, double v,
                hwfit_unit unit) {
    if (evaluated) hwfit__out_qty(o, key, label, v, unit);
    else if (hwfit__out_json(o)) hwfit__out_null(o, key, label);
}

static void u64(hwfit__out *o, int evaluated, const char *key, const char *label, uint64_t v) {
    if (evaluated) hwfit__out_u64(o, key, label, v);
    else if (hwfit__out_json(o)) hwfit__out_null(o, key, label);
}

static void flag(hwfit__out *o, int evaluated, const char *key, const char *label, int v) {
    if (evaluated) hwfit__out_bool(o, key, label, v);
    else if (hwfit__out_json(o)) hwfit__out_null(o, key, label);
}

/* The first of opts[] that was given, or -1. */
static int first_given(const hwfit_request *r, const int *opts, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (hwfit__req_given(r, &options[opts[i]])) return opts[i];
    return -1;
}

/* Options given for a part that is not computed: refused with the reason. */
static hwfit_status not_applicable(hwfit_request *r, const hwfit_host_in *in,
                                   const hwfit_host_out *h) {
    static const int cores_rule[] = {O_CORES_PER_GPU, O_CORES};
    static const int ram_rule[] = {O_RAM_RATIO, O_VRAM};
    static const int memory[] = {O_MAX_DPC, O_MTS_2DPC};
    static const int lanes[] = {O_SOCKET_LINKS, O_GPU_LANES, O_GPU_LANES_BIFURCATED, O_NVME,
                                O_NVME_LANES, O_NICS, O_NIC_LANES, O_OTHER_LANES, O_SWITCHES};
    static const int switched[] = {O_SWITCH_UPSTREAM, O_SWITCH_DOWNSTREAM, O_SWITCH_NICS,
                                   O_SWITCH_NVME};
    int k;
    if (!h->cores_evaluated && (k = first_given(r, cores_rule, 2)) >= 0)
        return hwfit__req_fail(r, &options[k], HWFIT_EINVAL,
                               "applies only to the cores per GPU, which need cores and gpus");
    if (!h->cores_evaluated && !h->lanes_evaluated && hwfit__req_given(r, &options[O_GPUS]))
        return hwfit__req_fail(r, &options[O_GPUS], HWFIT_EINVAL,
                               "applies only with cores (cores per GPU) or lanes (lane budget)");
    if (!h->ram_evaluated && (k = first_given(r, ram_rule, 2)) >= 0)
        return hwfit__req_fail(r, &options[k], HWFIT_EINVAL,
                               "applies only to RAM / VRAM, which needs ram and vram");
    if (!h->ram_evaluated && !h->memory_evaluated && hwfit__req_given(r, &options[O_RAM]))
        return hwfit__req_fail(r, &options[O_RAM], HWFIT_EINVAL,
                               "applies only with vram (RAM / VRAM) or channels, dimms and mts "
                               "(size per DIMM)");
    if (!h->memory_evaluated && (k = first_given(r, memory, 2)) >= 0)
        return hwfit__req_fail(r, &options[k], HWFIT_EINVAL,
                               "applies only to the memory population, which needs channels, "
                               "dimms and mts");
    if (!h->lanes_evaluated && (k = first_given(r, lanes, HWFIT__COUNT_OF(lanes))) >= 0)
        return hwfit__req_fail(r, &options[k], HWFIT_EINVAL,
                               "applies only to the PCIe lane budget, which needs lanes");
    if (in->sockets < 2 && hwfit__req_given(r, &options[O_SOCKET_LINKS]))
        return hwfit__req_fail(r, &options[O_SOCKET_LINKS], HWFIT_EINVAL,
                               "applies only with 2 or more sockets");
    if (in->switches == 0 && (k = first_given(r, switched, HWFIT__COUNT_OF(switched))) >= 0)
        return hwfit__req_fail(r, &options[k], HWFIT_EINVAL,
                               "applies only with switches (at least 1)");
    return HWFIT_OK;
}

static hwfit_status run(hwfit_request *r, hwfit__out *o, void *state) {
    (void)state;
    hwfit_host_in in;
    hwfit_host_init(&in);
    in.sockets = hwfit__req_u64(r, &options[O_SOCKETS]);
    in.cores = hwfit__req_u64(r, &options[O_CORES]);
    in.gpus = hwfit__req_u64(r, &options[O_GPUS]);
    in.cores_per_gpu_rule = hwfit__req_double(r, &options[O_CORES_PER_GPU]);
    in.ram_bytes = hwfit__req_double(r, &options[O_RAM]);
    in.vram_bytes = hwfit__req_double(r, &options[O_VRAM]);
    in.ram_to_vram_rule = hwfit__req_double(r, &options[O_RAM_RATIO]);
    in.channels_per_socket = hwfit__req_u64(r, &options[O_CHANNELS]);
    in.dimms = hwfit__req_u64(r, &options[O_DIMMS]);
    in.speed_mts = hwfit__req_double(r, &options[O_MTS]);
    in.speed_2dpc_mts = hwfit__req_double(r, &options[O_MTS_2DPC]);
    in.max_dimms_per_channel = hwfit__req_u64(r, &options[O_MAX_DPC]);
    in.lanes_per_socket = hwfit__req_u64(r, &options[O_LANES]);
    in.socket_links = hwfit__req_u64(r, &options[O_SOCKET_LINKS]);
    in.gpu_lanes = hwfit__req_u64(r, &options[O_GPU_LANES]);
    in.gpu_bifurcated_lanes = hwfit__req_u64(r, &options[O_GPU_LANES_BIFURCATED]);
    in.nvme = hwfit__req_u64(r, &options[O_NVME]);
    in.nvme_lanes = hwfit__req_u64(r, &options[O_NVME_LANES]);
    in.nics = hwfit__req_u64(r, &options[O_NICS]);
    in.nic_lanes = hwfit__req_u64(r, &options[O_NIC_LANES]);
    in.other_lanes = hwfit__req_u64(r, &options[O_OTHER_LANES]);
    in.switches = hwfit__req_u64(r, &options[O_SWITCHES]);
    in.switch_upstream_lanes = hwfit__req_u64(r, &options[O_SWITCH_UPSTREAM]);
    in.switch_downstream_lanes = hwfit__req_u64(r, &options[O_SWITCH_DOWNSTREAM]);
    in.switch_nics = hwfit__req_flag(r, &options[O_SWITCH_NICS]);
    in.switch_nvme = hwfit__req_flag(r, &options[O_SWITCH_NVME]);

    hwfit_host_out h;
    if (hwfit_host_evaluate(&in, &h) != HWFIT_OK) {
        hwfit_problem why;
        (void)hwfit_host_validate(&in, &why);
        static const char *const aliases[] = {
            "cores_per_gpu_rule", "cores-per-gpu", "ram_bytes", "ram", "vram_bytes", "vram",
            "ram_to_vram_rule", "ram-ratio", "channels_per_socket", "channels", "speed_mts",
            "mts", "speed_2dpc_mts", "mts-2dpc", "max_dimms_per_channel", "max-dpc",
            "lanes_per_socket", "lanes", "gpu_bifurcated_lanes", "gpu-lanes-bifurcated",
            "switch_upstream_lanes", "switch-upstream", NULL};
        if (why.status == HWFIT_EDOM && strstr(why.rule, "given with the other two") != NULL) {
            int missing = strcmp(why.field, "channels_per_socket") == 0 ? O_CHANNELS
                          : strcmp(why.field, "dimms") == 0            ? O_DIMMS
                                                                       : O_MTS;
            return hwfit__req_fail(r, &options[missing], why.status,
                                   "is missing: channels, dimms and mts go together");
        }
        return hwfit__req_fail_problem(r, aliases, &why);
    }
    hwfit_status st = not_applicable(r, &in, &h);
    if (st != HWFIT_OK) return st;

    hwfit__out_u64(o, "sockets", "sockets", in.sockets);
    int c = h.cores_evaluated, m = h.ram_evaluated, mem = h.memory_evaluated,
        l = h.lanes_evaluated;
    num(o, c, "cores_per_gpu", "cores per GPU", h.cores_per_gpu);
    num(o, c, "cores_per_gpu_rule", "rule (cores per GPU)", in.cores_per_gpu_rule);
    num(o, c, "cores_needed", "cores the rule needs", h.cores_needed);
    flag(o, c, "meets_cores_rule", "meets the cores rule", h.meets_cores_rule);
    num(o, m, "ram_to_vram", "RAM / VRAM", h.ram_to_vram);
    num(o, m, "ram_to_vram_rule", "rule (RAM / VRAM)", in.ram_to_vram_rule);
    qty(o, m, "ram_needed_bytes", "RAM the rule needs", h.ram_needed_bytes, HWFIT_UNIT_BYTES);
    flag(o, m, "meets_ram_rule", "meets the RAM rule", h.meets_ram_rule);
    u64(o, mem, "channels", "memory channels", h.channels);
    u64(o, mem, "populated_channels", "populated channels", h.populated_channels);
    num(o, mem, "dimms_per_channel", "DIMMs per channel", h.dimms_per_channel);
    u64(o, mem, "max_dimms_in_a_channel", "fullest channel", h.max_dimms_in_a_channel);
    flag(o, mem, "balanced", "balanced population", h.balanced);
    flag(o, mem, "within_slot_limit", "within the slots per channel", h.within_slot_limit);
    num(o, mem, "effective_speed_mts", "data rate (MT/s)", h.effective_speed_mts);
    flag(o, mem, "downclocked", "downclocked by 2 DPC", h.downclocked);
    flag(o, mem, "speed_rule_known", "2-DPC speed known", h.speed_rule_known);
    qty(o, mem, "channel_bandwidth_bytes_per_s", "per channel", h.channel_bandwidth_bytes_per_s,
        HWFIT_UNIT_BYTES_PER_S);
    qty(o, mem, "memory_bandwidth_per_socket_bytes_per_s", "memory bandwidth per socket",
        h.memory_bandwidth_per_socket_bytes_per_s, HWFIT_UNIT_BYTES_PER_S);
    qty(o, mem, "memory_bandwidth_bytes_per_s", "memory bandwidth",
        h.memory_bandwidth_bytes_per_s, HWFIT_UNIT_BYTES_PER_S);
    qty(o, mem && in.ram_bytes > 0.0, "dimm_bytes", "per DIMM", h.dimm_bytes, HWFIT_UNIT_BYTES);
    u64(o, l, "pcie_lanes_total", "PCIe lanes of the sockets", h.pcie_lanes_total);
    u64(o, l, "socket_link_lanes_used", "taken by socket links", h.socket_link_lanes_used);
    u64(o, l, "pcie_lanes_available", "PCIe lanes available", h.pcie_lanes_available);
    u64(o, l, "gpu_lanes_needed", "lanes for GPUs", h.gpu_lanes_needed);
    u64(o, l, "nvme_lanes_needed", "lanes for NVMe", h.nvme_lanes_needed);
    u64(o, l, "nic_lanes_needed", "lanes for NICs", h.nic_lanes_needed);
    u64(o, l, "pcie_lanes_needed", "PCIe lanes needed", h.pcie_lanes_needed);
    flag(o, l, "lanes_fit", "fits without switches", h.lanes_fit);
    u64(o, l, "pcie_lanes_needed_bifurcated", "needed with bifurcated GPUs",
        h.pcie_lanes_needed_bifurcated);
    flag(o, l, "lanes_fit_bifurcated", "fits bifurcated", h.lanes_fit_bifurcated);
    u64(o, l, "pcie_lanes_needed_switched", "needed with switches", h.pcie_lanes_needed_switched);
    u64(o, l, "switch_device_lanes", "device lanes behind switches", h.switch_device_lanes);
    num(o, l, "switch_oversubscription", "switch oversubscription", h.switch_oversubscription);
    flag(o, l, "lanes_fit_switched", "fits with switches", h.lanes_fit_switched);
    return HWFIT_OK;
}

const hwfit__command hwfit__cmd_host = {
    .pub = {.name = "host",
            .summary = "Cores per GPU, RAM/VRAM, memory bandwidth, DIMMs per channel and PCIe "
                       "lanes.",
            .details = "Each part is computed when its inputs are given (cores and gpus; ram "
                       "and vram; channels, dimms and mts; lanes); JSON shows null otherwise. "
                       "Bandwidth = channels x MT/s x 8 bytes (peak). Lanes available = "
                       "sockets x lanes minus the inter-socket links (2P EPYC: 4 links leave "
                       "128 of 256, 3 leave 160).",
            .formats = 1u << HWFIT_FORMAT_JSON | 1u << HWFIT_FORMAT_TEXT},
    .sets = {HWFIT__SET(options)},
    .run = run,
};

/* host.c - `hwfit host`: cores per GPU, RAM/VRAM, memory bandwidth, DIMMs per channel and
 * the PCIe lane budget. */
#include <string.h>

#include "cli.h"

/* A number of an evaluated part, or null (JSON) / nothing (table) when not evaluated. */
static void num(cli_out *o, int evaluated, const char *key, const char *label, double v) {
    if (evaluated) out_num(o, key, label, v);
    else if (o->json) out_null(o, key, label);
}

static void qty(cli_out *o, int evaluated, const char *key, const char *label, double v,
                hwfit_unit unit) {
    if (evaluated) out_qty(o, key, label, v, unit);
    else if (o->json) out_null(o, key, label);
}

static void u64(cli_out *o, int evaluated, const char *key, const char *label, uint64_t v) {
    if (evaluated) out_u64(o, key, label, v);
    else if (o->json) out_null(o, key, label);
}

static void flag(cli_out *o, int evaluated, const char *key, const char *label, int v) {
    if (evaluated) out_bool(o, key, label, v);
    else if (o->json) out_null(o, key, label);
}

int cmd_host(int argc, char **argv) {
    hwfit_host_in in;
    hwfit_host_init(&in);
    const cli_opt opts[] = {
        {"sockets", CLI_U64, &in.sockets, "N", "CPU sockets (default 1)", 0, NULL, NULL},
        {"cores", CLI_U64, &in.cores, "N", "physical cores of all sockets", 0, NULL, NULL},
        {"gpus", CLI_U64, &in.gpus, "N", "GPUs", 0, NULL, NULL},
        {"cores-per-gpu", CLI_DOUBLE, &in.cores_per_gpu_rule, "X",
         "rule: at least X cores per GPU (default 4)", 0, NULL, NULL},
        {"ram", CLI_QUANTITY, &in.ram_bytes, "SIZE", "host RAM, e.g. 1.5TB", HWFIT_UNIT_BYTES,
         NULL, NULL},
        {"vram", CLI_QUANTITY, &in.vram_bytes, "SIZE", "GPU memory of all GPUs, e.g. 768GB",
         HWFIT_UNIT_BYTES, NULL, NULL},
        {"ram-ratio", CLI_DOUBLE, &in.ram_to_vram_rule, "X",
         "rule: RAM >= X x VRAM (default 2)", 0, NULL, NULL},
        {"channels", CLI_U64, &in.channels_per_socket, "N", "memory channels per socket", 0, NULL,
         NULL},
        {"dimms", CLI_U64, &in.dimms, "N", "DIMMs in all sockets", 0, NULL, NULL},
        {"mts", CLI_DOUBLE, &in.speed_mts, "MT/s", "DIMM data rate at 1 DPC, e.g. 6400", 0, NULL,
         NULL},
        {"mts-2dpc", CLI_DOUBLE, &in.speed_2dpc_mts, "MT/s",
         "data rate at 2 DIMMs per channel (the platform's rule)", 0, NULL, NULL},
        {"max-dpc", CLI_U64, &in.max_dimms_per_channel, "N", "DIMM slots per channel (default 2)",
         0, NULL, NULL},
        {"lanes", CLI_U64, &in.lanes_per_socket, "N", "PCIe lanes per socket, e.g. 128", 0, NULL,
         NULL},
        {"socket-links", CLI_U64, &in.socket_links, "N",
         "x16 inter-socket (xGMI) links per socket (default 4; 0 for Intel)", 0, NULL, NULL},
        {"gpu-lanes", CLI_U64, &in.gpu_lanes, "N", "lanes per GPU (default 16)", 0, NULL, NULL},
        {"gpu-lanes-bifurcated", CLI_U64, &in.gpu_bifurcated_lanes, "N",
         "lanes per GPU with bifurcation (default 8)", 0, NULL, NULL},
        {"nvme", CLI_U64, &in.nvme, "N", "NVMe drives", 0, NULL, NULL},
        {"nvme-lanes", CLI_U64, &in.nvme_lanes, "N", "lanes per NVMe drive (default 4)", 0, NULL,
         NULL},
        {"nics", CLI_U64, &in.nics, "N", "network adapters", 0, NULL, NULL},
        {"nic-lanes", CLI_U64, &in.nic_lanes, "N", "lanes per NIC (default 16)", 0, NULL, NULL},
        {"other-lanes", CLI_U64, &in.other_lanes, "N", "other lanes the host gives (default 0)", 0,
         NULL, NULL},
        {"switches", CLI_U64, &in.switches, "N", "PCIe switches (GPUs behind them)", 0, NULL,
         NULL},
        {"switch-upstream", CLI_U64, &in.switch_upstream_lanes, "N",
         "host lanes per switch (default 16)", 0, NULL, NULL},
        {"switch-downstream", CLI_U64, &in.switch_downstream_lanes, "N",
         "device lanes per switch (default: unchecked)", 0, NULL, NULL},
        {"switch-nics", CLI_FLAG, &in.switch_nics, NULL, "the NICs sit behind the switches too", 0,
         NULL, NULL},
        {"switch-nvme", CLI_FLAG, &in.switch_nvme, NULL, "the NVMe drives sit behind the switches",
         0, NULL, NULL},
    };
    const cli_spec spec = {
        "host", "Cores per GPU, RAM/VRAM, memory bandwidth, DIMMs per channel and PCIe lanes.",
        "--sockets N --channels N --dimms N --mts MT/s [--cores N --gpus N --ram SIZE "
        "--vram SIZE] [--lanes N ...]",
        "Each part is computed when its inputs are given; JSON shows null otherwise.\n"
        "Bandwidth = channels x MT/s x 8 bytes (peak). Lanes available = sockets x lanes\n"
        "minus the inter-socket links (2P EPYC: 4 links leave 128 of 256, 3 leave 160).",
        opts, (int)(sizeof opts / sizeof opts[0]), 0, NULL};
    cli_args args;
    int rc = cli_parse(&spec, argc, argv, &args);
    if (rc != 0) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    hwfit_host_out r;
    if (hwfit_host_evaluate(&in, &r) != HWFIT_OK) {
        static const char *const aliases[] = {
            "cores_per_gpu_rule", "--cores-per-gpu", "ram_bytes", "--ram", "vram_bytes", "--vram",
            "ram_to_vram_rule", "--ram-ratio", "channels_per_socket",
            "--channels: --channels, --dimms and --mts go together; it", "dimms",
            "--dimms: --channels, --dimms and --mts go together; it", "speed_mts",
            "--mts: --channels, --dimms and --mts go together; it", "speed_2dpc_mts",
            "--mts-2dpc", "max_dimms_per_channel", "--max-dpc", "lanes_per_socket", "--lanes",
            "gpu_bifurcated_lanes", "--gpu-lanes-bifurcated", "switch_upstream_lanes",
            "--switch-upstream", NULL};
        hwfit_problem why;
        (void)hwfit_host_validate(&in, &why);
        if (why.status == HWFIT_EDOM && strstr(why.rule, "given with the other two") != NULL)
            return cli_fail("host", "--channels, --dimms and --mts go together: --%s is missing",
                            strcmp(why.field, "channels_per_socket") == 0 ? "channels"
                            : strcmp(why.field, "dimms") == 0             ? "dimms"
                                                                          : "mts");
        return cli_fail_problem(&spec, aliases, &why);
    }

    cli_out o;
    out_begin(&o, args.json, NULL);
    out_u64(&o, "sockets", "sockets", in.sockets);
    int c = r.cores_evaluated, m = r.ram_evaluated, mem = r.memory_evaluated, l = r.lanes_evaluated;
    num(&o, c, "cores_per_gpu", "cores per GPU", r.cores_per_gpu);
    num(&o, c, "cores_per_gpu_rule", "rule (cores per GPU)", in.cores_per_gpu_rule);
    num(&o, c, "cores_needed", "cores the rule needs", r.cores_needed);
    flag(&o, c, "meets_cores_rule", "meets the cores rule", r.meets_cores_rule);
    num(&o, m, "ram_to_vram", "RAM / VRAM", r.ram_to_vram);
    num(&o, m, "ram_to_vram_rule", "rule (RAM / VRAM)", in.ram_to_vram_rule);
    qty(&o, m, "ram_needed_bytes", "RAM the rule needs", r.ram_needed_bytes, HWFIT_UNIT_BYTES);
    flag(&o, m, "meets_ram_rule", "meets the RAM rule", r.meets_ram_rule);
    u64(&o, mem, "channels", "memory channels", r.channels);
    u64(&o, mem, "populated_channels", "populated channels", r.populated_channels);
    num(&o, mem, "dimms_per_channel", "DIMMs per channel", r.dimms_per_channel);
    u64(&o, mem, "max_dimms_in_a_channel", "fullest channel", r.max_dimms_in_a_channel);
    flag(&o, mem, "balanced", "balanced population", r.balanced);
    flag(&o, mem, "within_slot_limit", "within the slots per channel", r.within_slot_limit);
    num(&o, mem, "effective_speed_mts", "data rate (MT/s)", r.effective_speed_mts);
    flag(&o, mem, "downclocked", "downclocked by 2 DPC", r.downclocked);
    flag(&o, mem, "speed_rule_known", "2-DPC speed known", r.speed_rule_known);
    qty(&o, mem, "channel_bandwidth_bytes_per_s", "per channel", r.channel_bandwidth_bytes_per_s,
        HWFIT_UNIT_BYTES_PER_S);
    qty(&o, mem, "memory_bandwidth_per_socket_bytes_per_s", "memory bandwidth per socket",
        r.memory_bandwidth_per_socket_bytes_per_s, HWFIT_UNIT_BYTES_PER_S);
    qty(&o, mem, "memory_bandwidth_bytes_per_s", "memory bandwidth", r.memory_bandwidth_bytes_per_s,
        HWFIT_UNIT_BYTES_PER_S);
    qty(&o, mem && in.ram_bytes > 0.0, "dimm_bytes", "per DIMM", r.dimm_bytes, HWFIT_UNIT_BYTES);
    u64(&o, l, "pcie_lanes_total", "PCIe lanes of the sockets", r.pcie_lanes_total);
    u64(&o, l, "socket_link_lanes_used", "taken by socket links", r.socket_link_lanes_used);
    u64(&o, l, "pcie_lanes_available", "PCIe lanes available", r.pcie_lanes_available);
    u64(&o, l, "gpu_lanes_needed", "lanes for GPUs", r.gpu_lanes_needed);
    u64(&o, l, "nvme_lanes_needed", "lanes for NVMe", r.nvme_lanes_needed);
    u64(&o, l, "nic_lanes_needed", "lanes for NICs", r.nic_lanes_needed);
    u64(&o, l, "pcie_lanes_needed", "PCIe lanes needed", r.pcie_lanes_needed);
    flag(&o, l, "lanes_fit", "fits without switches", r.lanes_fit);
    u64(&o, l, "pcie_lanes_needed_bifurcated", "needed with bifurcated GPUs",
        r.pcie_lanes_needed_bifurcated);
    flag(&o, l, "lanes_fit_bifurcated", "fits bifurcated", r.lanes_fit_bifurcated);
    u64(&o, l, "pcie_lanes_needed_switched", "needed with switches", r.pcie_lanes_needed_switched);
    u64(&o, l, "switch_device_lanes", "device lanes behind switches", r.switch_device_lanes);
    num(&o, l, "switch_oversubscription", "switch oversubscription", r.switch_oversubscription);
    flag(&o, l, "lanes_fit_switched", "fits with switches", r.lanes_fit_switched);
    out_end(&o);
    return CLI_EXIT_OK;
}

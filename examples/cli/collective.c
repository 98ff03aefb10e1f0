/* collective.c - `hwfit collective`: time, algbw and busbw of one collective on a topology,
 * or a sweep over message sizes printed like nccl-tests (and drawn with --svg). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *const modes[] = {"auto", "on", "off", NULL};
static const hwfit_topology_mode mode_values[] = {HWFIT_TOPOLOGY_AUTO, HWFIT_TOPOLOGY_ON,
                                                  HWFIT_TOPOLOGY_OFF};
static const char *const cpus[] = {"amd", "intel", "arm", NULL};
static const hwfit_cpu_vendor cpu_values[] = {HWFIT_CPU_AMD, HWFIT_CPU_INTEL, HWFIT_CPU_ARM};
static const char *const libraries[] = {"nccl", "any", NULL};

static const cli_col sweep_cols[] = {
    {"bytes", "size", 22},
    {"time_s", "time", 10},
    {"algbw_bytes_per_s", "algbw", 11},
    {"busbw_bytes_per_s", "busbw", 11},
    {"algorithm", "algorithm", 12},
    {"protocol", "protocol", 8},
    {"bottleneck", "bound by", 13},
};

#define MAX_SWEEP 80

int cmd_collective(int argc, char **argv) {
    const char *op_name = "allreduce", *gpu_name = "rtx-pro-6000-server", *nic = NULL;
    const char *algo_name = "auto", *proto_name = "auto";
    double size = HWFIT_GIBI, min_size = 8.0;
    uint64_t gpus = 8, nodes = 1, sockets = 2, switches = 0, lanes = 0, ranks = 0;
    int p2p = 0, gdr = 0, cpu = 0, library = 0, sweep = 0, lanes_seen = 0, metric_seen = 0;
    const char *svg_path = NULL, *metric_name = "busbw";
    cli_list compare = {{0}, 0};
    const cli_opt opts[] = {
        {"op", CLI_STRING, &op_name, "OP",
         "allreduce, allgather, reducescatter, broadcast, reduce, alltoall, sendrecv (default allreduce)",
         0, NULL, NULL},
        {"size", CLI_QUANTITY, &size, "SIZE", "message size S as nccl-tests counts it (default 1GiB)",
         HWFIT_UNIT_BYTES, NULL, NULL},
        {"gpu", CLI_STRING, &gpu_name, "NAME", "GPU from 'hwfit gpus' (default rtx-pro-6000-server)",
         0, NULL, NULL},
        {"gpus", CLI_U64, &gpus, "N", "GPUs per node (default 8)", 0, NULL, NULL},
        {"nodes", CLI_U64, &nodes, "M", "nodes (default 1)", 0, NULL, NULL},
        {"ranks", CLI_U64, &ranks, "N", "ranks in the communicator (default: every GPU)", 0, NULL,
         NULL},
        {"sockets", CLI_U64, &sockets, "S", "CPU sockets per node (default 2)", 0, NULL, NULL},
        {"pcie-switches", CLI_U64, &switches, "K", "PCIe switches holding the GPUs (default 0)", 0,
         NULL, NULL},
        {"pcie-lanes", CLI_U64, &lanes, "L", "GPU link width: 16, or 8 when bifurcated (default: the GPU's)",
         0, NULL, &lanes_seen},
        {"p2p", CLI_CHOICE, &p2p, "MODE", "GPU P2P over PCIe; auto = NCCL's default", 0, modes, NULL},
        {"nic", CLI_STRING, &nic, "SPEC", "NICs per node, e.g. 2x400g-roce, 8x400g-ib, 100g-tcp", 0,
         NULL, NULL},
        {"gdr", CLI_CHOICE, &gdr, "MODE", "GPUDirect RDMA; auto = NCCL's default", 0, modes, NULL},
        {"cpu", CLI_CHOICE, &cpu, "VENDOR", "CPU vendor (socket link xGMI for amd, UPI for intel)", 0,
         cpus, NULL},
        {"algorithm", CLI_STRING, &algo_name, "A",
         "auto, ring, tree, recursive, direct, nvls, hierarchical (default auto)", 0, NULL, NULL},
        {"protocol", CLI_STRING, &proto_name, "P", "auto, ll, ll128, simple (default auto)", 0, NULL,
         NULL},
        {"library", CLI_CHOICE, &library, "LIB", "what auto chooses from", 0, libraries, NULL},
        {"sweep", CLI_FLAG, &sweep, NULL, "a table over sizes from --min-size to --size, x2 each", 0,
         NULL, NULL},
        {"min-size", CLI_QUANTITY, &min_size, "SIZE", "smallest size of --sweep (default 8B)",
         HWFIT_UNIT_BYTES, NULL, NULL},
        {"svg", CLI_STRING, &svg_path, "FILE", "with --sweep: also draw the sweep as an SVG chart",
         0, NULL, NULL},
        {"svg-metric", CLI_STRING, &metric_name, "M", "what --svg draws: busbw, algbw or time (default busbw)",
         0, NULL, &metric_seen},
        {"compare", CLI_LIST, &compare, "NAME",
         "with --svg: another GPU on the same topology, one line each (repeatable)", 0, NULL, NULL},
    };
    const cli_spec spec = {
        "collective", "Time, algbw and busbw of a collective on a GPU topology.",
        "[--op OP] [--size SIZE] [--gpu NAME] [--gpus N] [--nodes M] [--sockets S] "
        "[--pcie-switches K] [--p2p on|off|auto] [--nic SPEC] [--algorithm A] [--sweep]",
        "busbw = algbw x 2(n-1)/n (all-reduce), (n-1)/n (all-gather, reduce-scatter, all-to-all)\n"
        "or 1 (broadcast, reduce, send/receive), as nccl-tests prints it. Latency constants are\n"
        "NCCL 2.28's; efficiencies and formulas are in docs/formulas.md. --sweep --svg FILE\n"
        "draws the sweep on log axes; --compare h100-sxm adds a line for that GPU with the\n"
        "same options (--json prints the first GPU's sweep only).",
        opts, (int)(sizeof opts / sizeof opts[0]), 0, NULL};
    cli_args args;
    int rc = cli_parse(&spec, argc, argv, &args);
    if (rc != 0) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;

    hwfit_collective_in in;
    hwfit_collective_init(&in);
    hwfit_status st = hwfit_collective_op_from_name(op_name, &in.op);
    if (st != HWFIT_OK) return cli_fail("collective", "--op: unknown operation '%s'", op_name);
    st = hwfit_collective_algorithm_from_name(algo_name, &in.algorithm);
    if (st != HWFIT_OK)
        return cli_fail("collective", "--algorithm: unknown algorithm '%s'", algo_name);
    st = hwfit_collective_protocol_from_name(proto_name, &in.protocol);
    if (st != HWFIT_OK) return cli_fail("collective", "--protocol: unknown protocol '%s'", proto_name);
    const hwfit_gpu *gpu = NULL;
    if (hwfit_gpu_find(gpu_name, &gpu) != HWFIT_OK)
        return cli_fail("collective", "--gpu: unknown GPU '%s' (run 'hwfit gpus')", gpu_name);
    hwfit_topology *t = &in.topology;
    hwfit_topology_set_gpu(t, gpu);
    t->gpus_per_node = gpus;
    t->nodes = nodes;
    t->sockets = sockets;
    t->pcie_switches = switches;
    if (lanes_seen) {
        if (lanes > 64) return cli_fail("collective", "--pcie-lanes: expected 1-16, got %llu",
                                        (unsigned long long)lanes);
        t->gpu_pcie_lanes = (uint32_t)lanes;
    }
    t->p2p = mode_values[p2p];
    t->gpudirect_rdma = mode_values[gdr];
    hwfit_topology_set_cpu(t, cpu_values[cpu]);
    if (nic != NULL) {
        st = hwfit_topology_parse_nic(nic, t);
        if (st != HWFIT_OK)
            return cli_fail_value("collective", "--nic", nic, st,
                                  "[<count>x]<speed>g-roce|ib|tcp such as 2x400g-roce or "
                                  "8x400g-ib; InfiniBand runs at 100, 200, 400 or 800 Gb/s");
    }
    in.ranks = ranks;
    in.library = library == 0 ? HWFIT_COLLECTIVE_LIBRARY_NCCL : HWFIT_COLLECTIVE_LIBRARY_ANY;
    hwfit_chart_metric metric = HWFIT_CHART_BUSBW;
    if (hwfit_chart_metric_from_name(metric_name, &metric) != HWFIT_OK)
        return cli_fail("collective", "--svg-metric: unknown metric '%s' (busbw, algbw, time)",
                        metric_name);
    if (svg_path != NULL && !sweep) return cli_fail("collective", "--svg needs --sweep");
    if (metric_seen && svg_path == NULL) return cli_fail("collective", "--svg-metric needs --svg FILE");
    if (compare.count > 0 && svg_path == NULL)
        return cli_fail("collective", "--compare needs --sweep --svg FILE");
    if (compare.count + 1 > HWFIT_CHART_MAX_SERIES)
        return cli_fail("collective", "--compare: at most %d GPUs", HWFIT_CHART_MAX_SERIES - 1);
    /* One line per GPU: the first one's topology with the other card's links. */
    hwfit_collective_in lines[HWFIT_CHART_MAX_SERIES];
    const char *names[HWFIT_CHART_MAX_SERIES];
    lines[0] = in;
    names[0] = gpu->name;
    for (int i = 0; i < compare.count; i++) {
        const hwfit_gpu *other = NULL;
        if (hwfit_gpu_find(compare.items[i], &other) != HWFIT_OK)
            return cli_fail("collective", "--compare: unknown GPU '%s' (run 'hwfit gpus')",
                            compare.items[i]);
        lines[i + 1] = in;
        hwfit_topology_set_gpu(&lines[i + 1].topology, other);
        if (lanes_seen) lines[i + 1].topology.gpu_pcie_lanes = (uint32_t)lanes;
        names[i + 1] = other->name;
    }

    /* Compute everything first; print only when all succeeded. */
    hwfit_collective_out results[MAX_SWEEP];
    double sizes[MAX_SWEEP];
    int count = 0;
    if (sweep) {
        if (!(min_size > 0.0) || min_size > size)
            return cli_fail("collective", "--min-size must be above 0 and at most --size");
        for (double b = min_size; b <= size && count < MAX_SWEEP; b *= 2.0) sizes[count++] = b;
    } else {
        sizes[count++] = size;
    }
    for (int i = 0; i < count; i++) {
        in.bytes = sizes[i];
        if (hwfit_collective_estimate(&in, &results[i]) != HWFIT_OK) {
            static const char *const aliases[] = {
                "topology.gpus_per_node", "--gpus", "topology.pcie_switches", "--pcie-switches",
                "topology.gpu_pcie_gen", "the PCIe generation of --gpu",
                "topology.gpu_pcie_lanes", "--pcie-lanes", "topology.nics_per_node",
                "the NICs per node (--nic)",
                "topology.nic_bits_per_s", "--nic's speed", "topology.nic_mtu_bytes", "--nic's MTU",
                "bytes", "--size", "ranks_per_node", "--ranks per node", NULL};
            hwfit_problem why;
            (void)hwfit_collective_validate(&in, &why);
            return cli_fail_problem(&spec, aliases, &why);
        }
    }

    if (svg_path != NULL) {
        hwfit_chart_collective_in chart;
        hwfit_chart_collective_init(&chart);
        chart.series_count = (size_t)compare.count + 1u;
        chart.series = lines;
        chart.names = names;
        chart.min_bytes = min_size;
        chart.max_bytes = size;
        chart.metric = metric;
        size_t need = 0;
        st = hwfit_chart_collective(&chart, NULL, 0, &need);
        char *svg = st == HWFIT_EBUFSIZE ? malloc(need) : NULL;
        if (svg != NULL) st = hwfit_chart_collective(&chart, svg, need, NULL);
        if (st != HWFIT_OK) {
            free(svg);
            return cli_fail_status("collective", "--svg", st == HWFIT_EBUFSIZE ? HWFIT_ENOMEM : st);
        }
        rc = cli_write_file("collective", "svg", svg_path, svg);
        free(svg);
        if (rc != 0) return rc;
    }

    cli_out o;
    out_begin(&o, args.json, NULL);
    out_str(&o, "op", "operation", hwfit_collective_op_name(in.op));
    out_str(&o, "gpu", "GPU", gpu->name);
    out_u64(&o, "ranks", "ranks", results[0].ranks);
    out_u64(&o, "ranks_per_node", "ranks per node", results[0].ranks_per_node);
    out_u64(&o, "nodes", "nodes", results[0].nodes);
    out_bool(&o, "p2p", "GPU P2P over PCIe", results[0].p2p);
    out_bool(&o, "gpudirect_rdma", "GPUDirect RDMA", results[0].gpudirect_rdma);
    out_num(&o, "busbw_factor", "busbw factor", results[0].busbw_factor);
    if (sweep) {
        out_table(&o, "sweep", NULL, sweep_cols, (int)(sizeof sweep_cols / sizeof sweep_cols[0]));
        for (int i = 0; i < count; i++) {
            const hwfit_collective_out *r = &results[i];
            out_row(&o);
            out_cell_qty(&o, sizes[i], HWFIT_UNIT_BYTES);
            out_cell_qty(&o, r->time_s, HWFIT_UNIT_SECONDS);
            out_cell_qty(&o, r->algbw_bytes_per_s, HWFIT_UNIT_BYTES_PER_S);
            out_cell_qty(&o, r->busbw_bytes_per_s, HWFIT_UNIT_BYTES_PER_S);
            out_cell_str(&o, hwfit_collective_algorithm_name(r->algorithm));
            out_cell_str(&o, hwfit_collective_protocol_name(r->protocol));
            out_cell_str(&o, hwfit_collective_bottleneck_name(r->bottleneck));
        }
        out_table_end(&o);
    } else {
        const hwfit_collective_out *r = &results[0];
        out_qty(&o, "bytes", "size", sizes[0], HWFIT_UNIT_BYTES);
        out_qty(&o, "time_s", "time", r->time_s, HWFIT_UNIT_SECONDS);
        out_qty(&o, "latency_s", "  latency part", r->latency_s, HWFIT_UNIT_SECONDS);
        out_qty(&o, "bandwidth_time_s", "  bandwidth part", r->bandwidth_time_s, HWFIT_UNIT_SECONDS);
        out_qty(&o, "algbw_bytes_per_s", "algbw", r->algbw_bytes_per_s, HWFIT_UNIT_BYTES_PER_S);
        out_qty(&o, "busbw_bytes_per_s", "busbw", r->busbw_bytes_per_s, HWFIT_UNIT_BYTES_PER_S);
        out_str(&o, "algorithm", "algorithm", hwfit_collective_algorithm_name(r->algorithm));
        out_str(&o, "protocol", "protocol", hwfit_collective_protocol_name(r->protocol));
        out_str(&o, "bottleneck", "bound by", hwfit_collective_bottleneck_name(r->bottleneck));
        out_qty(&o, "bottleneck_bytes_per_s", "rate of the bound", r->bottleneck_bytes_per_s,
                HWFIT_UNIT_BYTES_PER_S);
    }
    out_end(&o);
    return CLI_EXIT_OK;
}

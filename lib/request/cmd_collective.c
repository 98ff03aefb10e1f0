/* cmd_collective.c - `collective`: time, algbw and busbw of one collective on a GPU topology,
 * or a sweep over message sizes as nccl-tests prints it (a table, CSV, or an SVG chart with
 * other GPUs on the same topology for comparison). */
#include <stdio.h>
#include <stdlib.h>

#include "hwfit/chart.h"
#include "hwfit/collective.h"
#include "hwfit/gpu.h"
#include "request_internal.h"

static const char *const modes[] = {"auto", "on", "off", NULL};
/* NCCL_P2P_LEVEL's names (NVIDIA/nccl src/graph/paths.cc, topoPathTypeStr); NVL and LOC
 * both mean no P2P over PCIe, PIX and PXB both mean one switch (hwfit has one level). */
static const char *const p2p_levels[] = {"default", "loc", "nvl", "pix", "pxb", "phb", "sys",
                                         NULL};
static const hwfit_p2p_level p2p_level_values[] = {
    HWFIT_P2P_LEVEL_DEFAULT, HWFIT_P2P_LEVEL_LOC, HWFIT_P2P_LEVEL_LOC, HWFIT_P2P_LEVEL_PXB,
    HWFIT_P2P_LEVEL_PXB,     HWFIT_P2P_LEVEL_PHB, HWFIT_P2P_LEVEL_SYS};
static const hwfit_topology_mode mode_values[] = {HWFIT_TOPOLOGY_AUTO, HWFIT_TOPOLOGY_ON,
                                                  HWFIT_TOPOLOGY_OFF};
static const char *const cpus[] = {"amd", "intel", "arm", NULL};
static const hwfit_cpu_vendor cpu_values[] = {HWFIT_CPU_AMD, HWFIT_CPU_INTEL, HWFIT_CPU_ARM};
static const char *const libraries[] = {"nccl", "any", NULL};
static const hwfit_collective_library library_values[] = {HWFIT_COLLECTIVE_LIBRARY_NCCL,
                                                          HWFIT_COLLECTIVE_LIBRARY_ANY};
static const char *const metrics[] = {"busbw", "algbw", "time", NULL};
static const char *const column_sets[] = {"hwfit", "nccl", NULL};
/* nccl-tests' -d types and their sizes (NVIDIA/nccl-tests src/common.cu, test_typenames
 * and wordSize); its default is float. */
static const char *const nccl_types[] = {"int8",  "uint8", "int32",  "uint32", "int64",
                                         "uint64", "half", "float",  "double", "bfloat16",
                                         "f8e4m3", "f8e5m2", NULL};
static const unsigned nccl_type_bytes[] = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2, 1, 1};

enum {
    O_OP, O_SIZE, O_GPU, O_GPUS, O_NODES, O_RANKS, O_SOCKETS, O_PCIE_SWITCHES, O_PCIE_LANES,
    O_P2P, O_NIC, O_GDR, O_CPU, O_ALGORITHM, O_PROTOCOL, O_LIBRARY, O_SWEEP, O_MIN_SIZE,
    O_SVG_METRIC, O_COMPARE, O_PEER_LINKS, O_COLUMNS, O_DTYPE, O_P2P_LEVEL, O_MIN_CHANNELS,
    O_NVLINK_BRIDGES, O_EFA_EFFICIENCY
};
static const hwfit_option options[] = {
    [O_OP] = {.name = "op", .kind = HWFIT_OPTION_TEXT, .metavar = "OP",
              .default_text = "allreduce",
              .help = "allreduce, allgather, reducescatter, broadcast, reduce, alltoall or "
                      "sendrecv"},
    [O_SIZE] = {.name = "size", .kind = HWFIT_OPTION_QUANTITY, .unit = HWFIT_UNIT_BYTES,
                .metavar = "SIZE", .default_text = "1GiB", .min = 0, .max = 1e18,
                .help = "message size S as nccl-tests counts it (the largest of a sweep)"},
    [O_GPU] = {.name = "gpu", .kind = HWFIT_OPTION_NAME, .metavar = "NAME", .catalog = "gpu",
               .default_text = "rtx-pro-6000-server", .help = "GPU from hwfit gpus"},
    [O_GPUS] = {.name = "gpus", .kind = HWFIT_OPTION_COUNT, .metavar = "N", .default_text = "8",
                .min = 1, .max = 128, .help = "GPUs per node"},
    [O_NODES] = {.name = "nodes", .kind = HWFIT_OPTION_COUNT, .metavar = "M",
                 .default_text = "1", .min = 1, .max = 65536, .help = "nodes"},
    [O_RANKS] = {.name = "ranks", .kind = HWFIT_OPTION_COUNT, .metavar = "N", .min = 2,
                 .max = 1.8446744073709552e19, .default_help = "every GPU",
                 .help = "ranks in the communicator"},
    [O_SOCKETS] = {.name = "sockets", .kind = HWFIT_OPTION_COUNT, .metavar = "S",
                   .default_text = "2", .min = 1, .max = 8, .help = "CPU sockets per node"},
    [O_PCIE_SWITCHES] = {.name = "pcie-switches", .kind = HWFIT_OPTION_TEXT, .metavar = "K",
                         .default_text = "0",
                         .help = "PCIe switches holding the GPUs: a count (0-128) that splits "
                                 "them evenly, or the GPUs of each switch in order, e.g. 3,3,2 "
                                 "(at most 8 switches)"},
    [O_PCIE_LANES] = {.name = "pcie-lanes", .kind = HWFIT_OPTION_COUNT, .metavar = "L",
                      .min = 1, .max = 16, .default_help = "the GPU's",
                      .help = "GPU link width: 16, or 8 when bifurcated"},
    [O_P2P] = {.name = "p2p", .kind = HWFIT_OPTION_CHOICE, .metavar = "MODE",
               .default_text = "auto", .choices = modes,
               .help = "GPU P2P over PCIe; auto is NCCL's default"},
    [O_NIC] = {.name = "nic", .kind = HWFIT_OPTION_TEXT, .metavar = "SPEC",
               .default_help = "none", .help = "NICs per node, e.g. 2x400g-roce, 8x400g-ib, 100g-tcp, "
                                               "4x100g-efa (AWS EFA)"},
    [O_GDR] = {.name = "gdr", .kind = HWFIT_OPTION_CHOICE, .metavar = "MODE",
               .default_text = "auto", .choices = modes,
               .help = "GPUDirect RDMA; auto is NCCL's default"},
    [O_CPU] = {.name = "cpu", .kind = HWFIT_OPTION_CHOICE, .metavar = "VENDOR",
               .default_text = "amd", .choices = cpus,
               .help = "CPU vendor (socket link xGMI for amd, UPI for intel)"},
    [O_ALGORITHM] = {.name = "algorithm", .kind = HWFIT_OPTION_TEXT, .metavar = "A",
                     .default_text = "auto",
                     .help = "auto, ring, tree, recursive, direct, nvls or hierarchical"},
    [O_PROTOCOL] = {.name = "protocol", .kind = HWFIT_OPTION_TEXT, .metavar = "P",
                    .default_text = "auto", .help = "auto, ll, ll128 or simple"},
    [O_LIBRARY] = {.name = "library", .kind = HWFIT_OPTION_CHOICE, .metavar = "LIB",
                   .default_text = "nccl", .choices = libraries,
                   .help = "what auto chooses from"},
    [O_SWEEP] = {.name = "sweep", .kind = HWFIT_OPTION_FLAG,
                 .help = "a table over sizes from min-size to size, x2 each"},
    [O_MIN_SIZE] = {.name = "min-size", .kind = HWFIT_OPTION_QUANTITY, .unit = HWFIT_UNIT_BYTES,
                    .metavar = "SIZE", .default_text = "8B", .min = 1, .max = 1e18,
                    .help = "smallest size of the sweep"},
    [O_SVG_METRIC] = {.name = "svg-metric", .kind = HWFIT_OPTION_CHOICE, .metavar = "M",
                      .default_text = "busbw", .choices = metrics, .flags = HWFIT_OPTION_CHART,
                      .help = "what the sweep's chart draws"},
    [O_COMPARE] = {.name = "compare", .kind = HWFIT_OPTION_LIST, .metavar = "NAME",
                   .flags = HWFIT_OPTION_CHART,
                   .help = "the sweep's chart: another GPU on the same topology, one line "
                           "each (repeatable)"},
    [O_PEER_LINKS] = {.name = "peer-links", .kind = HWFIT_OPTION_COUNT, .metavar = "N",
                      .min = 0, .max = 64, .default_help = "the GPU's (every bridge fitted)",
                      .help = "NVLink/xGMI links in use per GPU: bridges fitted x links per "
                              "bridge (A100/H100 PCIe: 4 links a bridge, 3 bridges a pair); "
                              "0: no bridge fitted, PCIe only"},
    [O_NVLINK_BRIDGES] = {.name = "nvlink-bridges", .kind = HWFIT_OPTION_COUNT,
                          .metavar = "N", .min = 0, .max = 8,
                          .default_help = "the card's full set (3 for A100/H100 PCIe, 1 for "
                                          "A40/RTX A6000/3090/2080 Ti)",
                          .help = "NVLink bridges fitted between a bridged pair: each carries "
                                  "its share of the card's links (A100/H100 PCIe: 4 links a "
                                  "bridge); 0: none, PCIe only; or give --peer-links"},
    [O_COLUMNS] = {.name = "columns", .kind = HWFIT_OPTION_CHOICE, .metavar = "SET",
                   .default_text = "hwfit", .choices = column_sets,
                   .help = "the sweep's table and CSV: hwfit's, or nccl-tests' out-of-place "
                           "columns (size (B), count, type, redop, root, time (us), algbw and "
                           "busbw (GB/s)); JSON holds both"},
    [O_P2P_LEVEL] = {.name = "p2p-level", .kind = HWFIT_OPTION_CHOICE, .metavar = "LEVEL",
                     .default_text = "default", .choices = p2p_levels,
                     .help = "with --p2p auto, the farthest GPU pair that uses P2P, as "
                             "NCCL_P2P_LEVEL: loc/nvl never, pix/pxb under one PCIe switch, "
                             "phb on one CPU socket, sys everywhere; default is NCCL's (pxb, "
                             "sys on AMD with 2 GPUs)"},
    [O_MIN_CHANNELS] = {.name = "min-channels", .kind = HWFIT_OPTION_COUNT, .metavar = "N",
                        .min = 1, .max = 64, .default_help = "NCCL's own count",
                        .help = "channels NCCL runs at least, as NCCL_MIN_NCHANNELS (1-64); "
                                "NCCL's own count is twice its ring graph's, set by its "
                                "topology search (e.g. 2 on a dual-socket PCIe box, whose "
                                "inter-socket link NCCL counts 16 GB/s on AMD, 22 on Intel)"},
    [O_DTYPE] = {.name = "dtype", .kind = HWFIT_OPTION_CHOICE, .metavar = "TYPE",
                 .default_text = "float", .choices = nccl_types,
                 .help = "the sweep's element type, for its count (nccl-tests' -d)"},
    [O_EFA_EFFICIENCY] = {.name = "efa-efficiency", .kind = HWFIT_OPTION_RATIO, .metavar = "F",
                          .default_text = "0.65", .min = 1e-6, .max = 1,
                          .help = "with an EFA NIC (--nic ...-efa), the share of the RoCE-"
                                  "equivalent rate NCCL reaches through aws-ofi-nccl (0.65: "
                                  "~30 of 50 GB/s a node on 2-4 p4dn, NVIDIA/nccl#527)"},
};

static const hwfit__col sweep_cols[] = {
    {"bytes", "size", 22},
    {"time_s", "time", 10},
    {"algbw_bytes_per_s", "algbw", 11},
    {"busbw_bytes_per_s", "busbw", 11},
    {"algorithm", "algorithm", 12},
    {"protocol", "protocol", 8},
    {"bottleneck", "bound by", 13},
    /* JSON only (the table and CSV end above): nccl-tests' other columns */
    {"count", "count", 12},
    {"type", "type", 8},
    {"redop", "redop", 6},
    {"root", "root", 6},
};
#define SWEEP_HWFIT_COLS 7

/* nccl-tests' out-of-place columns as all_reduce_perf prints them (NVIDIA/nccl-tests
 * src/common.cu, print_header: size (B), count (elements), type, redop, root, time (us),
 * algbw (GB/s), busbw (GB/s)); the CSV header is the first line's names. */
static const hwfit__col nccl_cols[] = {
    {"size", "size (B)", 13},   {"count", "count (elements)", 16}, {"type", "type", 8},
    {"redop", "redop", 6},      {"root", "root", 6},               {"time", "time (us)", 10},
    {"algbw", "algbw (GB/s)", 12}, {"busbw", "busbw (GB/s)", 12},
};

/* nccl-tests' count column: the op's parameter count (paramcount of its
 * *GetCollByteCount): the buffer's elements, divided among the ranks for all-gather (the
 * send count), reduce-scatter (the receive count) and all-to-all. Its redop column: sum
 * for the reductions, none otherwise; root: 0 for broadcast and reduce, -1 otherwise. */
static uint64_t nccl_count(hwfit_collective_op op, double bytes, unsigned elt, uint64_t ranks) {
    uint64_t n = (uint64_t)(bytes / (double)elt);
    if ((op == HWFIT_COLLECTIVE_ALLGATHER || op == HWFIT_COLLECTIVE_REDUCESCATTER ||
         op == HWFIT_COLLECTIVE_ALLTOALL) && ranks > 0)
        n /= ranks;
    return n;
}
static const char *nccl_redop(hwfit_collective_op op) {
    return op == HWFIT_COLLECTIVE_ALLREDUCE || op == HWFIT_COLLECTIVE_REDUCE ||
                   op == HWFIT_COLLECTIVE_REDUCESCATTER
               ? "sum"
               : "none";
}
static int nccl_root(hwfit_collective_op op) {
    return op == HWFIT_COLLECTIVE_BROADCAST || op == HWFIT_COLLECTIVE_REDUCE ? 0 : -1;
}

#define MAX_SWEEP 80

typedef struct collective_state {
    hwfit_collective_in lines[HWFIT_CHART_MAX_SERIES]; /* the GPU, then those compared */
    const char *names[HWFIT_CHART_MAX_SERIES];
    hwfit_collective_out results[MAX_SWEEP];
    double sizes[MAX_SWEEP];
} collective_state;

static hwfit_status unknown(hwfit_request *r, int opt, const char *text, const char *expected) {
    return hwfit__req_fail(r, &options[opt], HWFIT_ENOTFOUND, "unknown value '%s' (expected %s)",
                           text, expected);
}

/* --pcie-switches: a count K, or a list "a,b,c" of each switch's GPUs (K = its length). */
static hwfit_status read_switches(hwfit_request *r, hwfit_topology *t) {
    const hwfit_option *opt = &options[O_PCIE_SWITCHES];
    const char *p = hwfit__req_text(r, opt);
    uint64_t vals[HWFIT_TOPOLOGY_MAX_SWITCH_LIST + 1];
    size_t n = 0;
    for (;;) {
        if (*p < '0' || *p > '9')
            return hwfit__req_fail(r, opt, HWFIT_EPARSE,
                                   "expected a count or a list of GPUs per switch such as "
                                   "3,3,2");
        uint64_t v = 0;
        while (*p >= '0' && *p <= '9') {
            v = v * 10 + (uint64_t)(*p - '0');
            if (v > 128)
                return hwfit__req_fail(r, opt, HWFIT_EDOM, "each number must be at most 128");
            p++;
        }
        if (n > HWFIT_TOPOLOGY_MAX_SWITCH_LIST)
            return hwfit__req_fail(r, opt, HWFIT_EDOM, "lists at most 8 switches");
        vals[n++] = v;
        if (*p == '\0') break;
        if (*p != ',')
            return hwfit__req_fail(r, opt, HWFIT_EPARSE,
                                   "expected a count or a list of GPUs per switch such as "
                                   "3,3,2");
        p++;
    }
    if (n > HWFIT_TOPOLOGY_MAX_SWITCH_LIST)
        return hwfit__req_fail(r, opt, HWFIT_EDOM, "lists at most 8 switches");
    if (n == 1) {
        t->pcie_switches = vals[0];
        return HWFIT_OK;
    }
    uint64_t sum = 0;
    for (size_t k = 0; k < n; k++) {
        if (vals[k] == 0)
            return hwfit__req_fail(r, opt, HWFIT_EDOM, "every switch in the list must hold "
                                                       "at least 1 GPU");
        t->pcie_switch_gpus[k] = (uint8_t)vals[k];
        sum += vals[k];
    }
    if (sum != t->gpus_per_node)
        return hwfit__req_fail(r, opt, HWFIT_EDOM,
                               "the list's GPUs (%llu) must add up to --gpus (%llu)",
                               (unsigned long long)sum, (unsigned long long)t->gpus_per_node);
    t->pcie_switches = n;
    return HWFIT_OK;
}

/* Options given that do not apply to the output asked: refused with the reason. */
static hwfit_status not_applicable(hwfit_request *r, int sweep) {
    hwfit_format format = hwfit__req_format(r);
    for (int k = O_SVG_METRIC; k <= O_COMPARE && !sweep; k++)
        if (hwfit__req_given(r, &options[k]))
            return hwfit__req_fail(r, &options[k], HWFIT_EINVAL,
                                   "applies only to the SVG chart of the sweep (sweep)");
    if (!sweep && format == HWFIT_FORMAT_SVG)
        return hwfit__req_fail(r, &options[O_SWEEP], HWFIT_EINVAL,
                               "must be given for the SVG chart: it draws the sweep");
    if (!sweep && format == HWFIT_FORMAT_CSV)
        return hwfit__req_fail(r, &options[O_SWEEP], HWFIT_EINVAL,
                               "must be given for CSV: the sweep is the only table");
    static const int sweep_only[] = {O_MIN_SIZE, O_COLUMNS, O_DTYPE};
    for (size_t k = 0; k < sizeof sweep_only / sizeof sweep_only[0]; k++)
        if (!sweep && hwfit__req_given(r, &options[sweep_only[k]]))
            return hwfit__req_fail(r, &options[sweep_only[k]], HWFIT_EINVAL,
                                   "applies only to the sweep (sweep)");
    return HWFIT_OK;
}

/* The sweep of every line into the result (SVG). */
static hwfit_status chart(hwfit_request *r, const collective_state *s, size_t series,
                          double min_bytes, double max_bytes) {
    hwfit_chart_collective_in c;
    hwfit_chart_collective_init(&c);
    c.series_count = series;
    c.series = s->lines;
    c.names = s->names;
    c.min_bytes = min_bytes;
    c.max_bytes = max_bytes;
    hwfit_status st = hwfit_chart_metric_from_name(
        metrics[hwfit__req_choice(r, &options[O_SVG_METRIC])], &c.metric);
    size_t need = 0;
    if (st == HWFIT_OK) st = hwfit_chart_collective(&c, NULL, 0, &need);
    if (st == HWFIT_EBUFSIZE) {
        char *svg = malloc(need);
        st = svg == NULL ? HWFIT_ENOMEM : hwfit_chart_collective(&c, svg, need, NULL);
        if (st == HWFIT_OK) hwfit__text_put(hwfit__req_text_out(r), svg, need - 1);
        free(svg);
    }
    return st == HWFIT_OK ? HWFIT_OK : hwfit__req_fail_status(r, "chart", st);
}

static hwfit_status run(hwfit_request *r, hwfit__out *o, void *state) {
    collective_state *s = state;
    int sweep = hwfit__req_flag(r, &options[O_SWEEP]);
    hwfit_status st = not_applicable(r, sweep);
    if (st != HWFIT_OK) return st;

    hwfit_collective_in in;
    hwfit_collective_init(&in);
    const char *text = hwfit__req_text(r, &options[O_OP]);
    if (hwfit_collective_op_from_name(text, &in.op) != HWFIT_OK)
        return unknown(r, O_OP, text,
                       "allreduce, allgather, reducescatter, broadcast, reduce, alltoall or "
                       "sendrecv");
    text = hwfit__req_text(r, &options[O_ALGORITHM]);
    if (hwfit_collective_algorithm_from_name(text, &in.algorithm) != HWFIT_OK)
        return unknown(r, O_ALGORITHM, text,
                       "auto, ring, tree, recursive, direct, nvls or hierarchical");
    text = hwfit__req_text(r, &options[O_PROTOCOL]);
    if (hwfit_collective_protocol_from_name(text, &in.protocol) != HWFIT_OK)
        return unknown(r, O_PROTOCOL, text, "auto, ll, ll128 or simple");
    const hwfit_gpu *gpu = NULL;
    st = hwfit_gpu_lookup(hwfit__req_gpu_set(r), hwfit__req_text(r, &options[O_GPU]), &gpu);
    if (st != HWFIT_OK) return hwfit__req_fail_status(r, "gpu", st); /* checked when set */
    hwfit_topology *t = &in.topology;
    hwfit_topology_set_gpu(t, gpu);
    t->gpus_per_node = hwfit__req_u64(r, &options[O_GPUS]);
    t->nodes = hwfit__req_u64(r, &options[O_NODES]);
    t->sockets = hwfit__req_u64(r, &options[O_SOCKETS]);
    /* The default (2 sockets) is a typical server, not something the user said: on a node
     * whose GPU count it does not divide (1, 3, 5 GPUs) it becomes 1, so that a refusal
     * never blames an option that was not given (issue 21). */
    if (!hwfit__req_given(r, &options[O_SOCKETS]) && t->gpus_per_node % t->sockets != 0)
        t->sockets = 1;
    st = read_switches(r, t);
    if (st != HWFIT_OK) return st;
    int lanes_given = hwfit__req_given(r, &options[O_PCIE_LANES]);
    uint32_t lanes = (uint32_t)hwfit__req_u64(r, &options[O_PCIE_LANES]);
    if (lanes_given) t->gpu_pcie_lanes = lanes;
    int bridges_given = hwfit__req_given(r, &options[O_NVLINK_BRIDGES]);
    if (bridges_given && hwfit__req_given(r, &options[O_PEER_LINKS]))
        return hwfit__req_fail(r, &options[O_NVLINK_BRIDGES], HWFIT_EINVAL,
                               "give it or --peer-links, not both (bridges x links per "
                               "bridge = links)");
    if (bridges_given) {
        uint64_t bridges = hwfit__req_u64(r, &options[O_NVLINK_BRIDGES]);
        if (gpu->peer_bridges == 0)
            return hwfit__req_fail(r, &options[O_NVLINK_BRIDGES], HWFIT_EDOM,
                                   "%s takes no NVLink bridges", gpu->name);
        if (bridges > gpu->peer_bridges)
            return hwfit__req_fail(r, &options[O_NVLINK_BRIDGES], HWFIT_EDOM,
                                   "%llu is more than the %u bridges that join a pair of %s",
                                   (unsigned long long)bridges, gpu->peer_bridges, gpu->name);
    }
    if (bridges_given || hwfit__req_given(r, &options[O_PEER_LINKS])) {
        /* Fewer links than the card has (bridges left out): the fabric's bandwidth scales
         * with the links, each at the card's per-link rate. */
        uint64_t links = bridges_given
                             ? hwfit__req_u64(r, &options[O_NVLINK_BRIDGES]) * gpu->peer_links /
                                   gpu->peer_bridges
                             : hwfit__req_u64(r, &options[O_PEER_LINKS]);
        if (gpu->peer_links == 0)
            return hwfit__req_fail(r, &options[O_PEER_LINKS], HWFIT_EDOM,
                                   "%s has no NVLink or xGMI links", gpu->name);
        if (links > gpu->peer_links)
            return hwfit__req_fail(r, &options[O_PEER_LINKS], HWFIT_EDOM,
                                   "%llu is more than the %u links of %s",
                                   (unsigned long long)links, gpu->peer_links, gpu->name);
        t->peer_bytes_per_s = gpu->peer_bytes_per_s * (double)links / (double)gpu->peer_links;
        t->peer_links = (uint32_t)links;
        if (links == 0) { /* no bridge: the cards meet over PCIe only */
            t->peer_link = HWFIT_GPU_PEER_NONE;
            t->peer_topology = HWFIT_GPU_PEER_TOPOLOGY_NONE;
            t->peer_bytes_per_s = 0.0;
            t->nvls = 0;
        }
    }
    t->p2p = mode_values[hwfit__req_choice(r, &options[O_P2P])];
    t->p2p_level = p2p_level_values[hwfit__req_choice(r, &options[O_P2P_LEVEL])];
    t->gpudirect_rdma = mode_values[hwfit__req_choice(r, &options[O_GDR])];
    hwfit_topology_set_cpu(t, cpu_values[hwfit__req_choice(r, &options[O_CPU])]);
    if (hwfit__req_given(r, &options[O_NIC])) {
        text = hwfit__req_text(r, &options[O_NIC]);
        st = hwfit_topology_parse_nic(text, t);
#define NICS "[<count>x]<speed>g-roce|ib|tcp|efa such as 2x400g-roce or 8x400g-ib; InfiniBand " \
             "runs at 100, 200, 400 or 800 Gb/s"
        const hwfit_option *opt = &options[O_NIC];
        if (st == HWFIT_EDOM)
            return hwfit__req_fail(r, opt, st, "'%s' is out of range (expected " NICS ")", text);
        if (st == HWFIT_EPARSE)
            return hwfit__req_fail(r, opt, st, "cannot read '%s' (expected " NICS ")", text);
        if (st != HWFIT_OK)
            return hwfit__req_fail(r, opt, st, "'%s': %s (expected " NICS ")", text,
                                   hwfit_status_str(st));
#undef NICS
    }
    if (t->nodes > 1 && !hwfit__req_given(r, &options[O_NIC]))
        return hwfit__req_fail(r, &options[O_NIC], HWFIT_EDOM,
                               "is required: a communicator across %u nodes needs NICs, e.g. "
                               "8x400g-ib or 2x400g-roce", (unsigned)t->nodes);
    if (hwfit__req_given(r, &options[O_RANKS])) {
        in.ranks = hwfit__req_u64(r, &options[O_RANKS]);
    } else if (t->gpus_per_node * t->nodes < 2) {
        /* Every GPU is one rank: a single GPU has nobody to talk to. */
        return hwfit__req_fail(r, &options[O_GPUS], HWFIT_EDOM,
                               "a collective needs at least 2 ranks, got 1 GPU on 1 node "
                               "(give 2 or more gpus, or 2 or more nodes)");
    }
    in.library = library_values[hwfit__req_choice(r, &options[O_LIBRARY])];
    in.topology.efa_efficiency = hwfit__req_double(r, &options[O_EFA_EFFICIENCY]);
    if (hwfit__req_given(r, &options[O_MIN_CHANNELS]))
        in.min_channels = (uint32_t)hwfit__req_u64(r, &options[O_MIN_CHANNELS]);

    /* One line per GPU: the first one's topology with the other card's links. */
    const char *const *compare = NULL;
    size_t ncompare = hwfit__req_list(r, &options[O_COMPARE], &compare);
    if (ncompare + 1 > HWFIT_CHART_MAX_SERIES)
        return hwfit__req_fail(r, &options[O_COMPARE], HWFIT_EDOM,
                               "at most %d GPUs: a chart draws %d lines",
                               HWFIT_CHART_MAX_SERIES - 1, HWFIT_CHART_MAX_SERIES);
    s->lines[0] = in;
    s->names[0] = gpu->name;
    for (size_t i = 0; i < ncompare; i++) {
        const hwfit_gpu *other = NULL;
        if (hwfit_gpu_lookup(hwfit__req_gpu_set(r), compare[i], &other) != HWFIT_OK)
            return hwfit__req_fail(r, &options[O_COMPARE], HWFIT_ENOTFOUND,
                                   "unknown GPU '%s' (see hwfit gpus)", compare[i]);
        s->lines[i + 1] = in;
        hwfit_topology_set_gpu(&s->lines[i + 1].topology, other);
        if (lanes_given) s->lines[i + 1].topology.gpu_pcie_lanes = lanes;
        s->names[i + 1] = other->name;
    }

    /* Compute everything first; write only when all succeeded. */
    double size = hwfit__req_double(r, &options[O_SIZE]);
    double min_size = hwfit__req_double(r, &options[O_MIN_SIZE]);
    int count = 0;
    if (sweep) {
        if (min_size > size) {
            char lo[64], hi[64];
            if (hwfit_units_format(min_size, HWFIT_UNIT_BYTES, lo, sizeof lo) != HWFIT_OK ||
                hwfit_units_format(size, HWFIT_UNIT_BYTES, hi, sizeof hi) != HWFIT_OK)
                lo[0] = hi[0] = '\0';
            return hwfit__req_fail(r, &options[O_MIN_SIZE], HWFIT_EDOM,
                                   "must be at most size, got %s above %s", lo, hi);
        }
        for (double b = min_size; b <= size && count < MAX_SWEEP; b *= 2.0) s->sizes[count++] = b;
    } else {
        s->sizes[count++] = size;
    }
    for (int i = 0; i < count; i++) {
        in.bytes = s->sizes[i];
        if (hwfit_collective_estimate(&in, &s->results[i]) != HWFIT_OK) {
            static const char *const aliases[] = {
                "topology.gpus_per_node", "gpus", "topology.pcie_switches", "pcie-switches",
                "topology.gpu_pcie_gen", "the PCIe generation of the GPU",
                "topology.gpu_pcie_lanes", "pcie-lanes", "topology.nics_per_node", "nic",
                "topology.nic_bits_per_s", "nic", "topology.nic_mtu_bytes", "nic",
                "bytes", "size", "ranks_per_node", "ranks", "min_channels", "min-channels",
                NULL};
            hwfit_problem why;
            (void)hwfit_collective_validate(&in, &why);
            return hwfit__req_fail_problem(r, aliases, &why);
        }
    }
    if (hwfit__req_format(r) == HWFIT_FORMAT_SVG)
        return chart(r, s, ncompare + 1, min_size, size);

    const hwfit_collective_out *first = &s->results[0];
    hwfit__out_str(o, "op", "operation", hwfit_collective_op_name(in.op));
    hwfit__out_str(o, "gpu", "GPU", gpu->name);
    hwfit__out_u64(o, "ranks", "ranks", first->ranks);
    hwfit__out_u64(o, "ranks_per_node", "ranks per node", first->ranks_per_node);
    hwfit__out_u64(o, "nodes", "nodes", first->nodes);
    hwfit__out_bool(o, "p2p", "GPU P2P over PCIe", first->p2p);
    hwfit__out_bool(o, "gpudirect_rdma", "GPUDirect RDMA", first->gpudirect_rdma);
    hwfit__out_num(o, "busbw_factor", "busbw factor", first->busbw_factor);
    hwfit__out_u64(o, "channels", "NCCL channels", first->channels);
    if (sweep) {
        int json = hwfit__out_json(o);
        int nccl = !json && hwfit__req_choice(r, &options[O_COLUMNS]) == 1;
        int type = hwfit__req_choice(r, &options[O_DTYPE]);
        unsigned elt = nccl_type_bytes[type];
        if (nccl)
            hwfit__out_table(o, "sweep", NULL, nccl_cols, (int)HWFIT__COUNT_OF(nccl_cols));
        else
            hwfit__out_table(o, "sweep", NULL, sweep_cols,
                             json ? (int)HWFIT__COUNT_OF(sweep_cols) : SWEEP_HWFIT_COLS);
        for (int i = 0; i < count; i++) {
            const hwfit_collective_out *c = &s->results[i];
            uint64_t n = nccl_count(in.op, s->sizes[i], elt, c->ranks);
            hwfit__out_row(o);
            if (nccl) {
                /* as nccl-tests prints them: plain integers, two decimals */
                char cell[48];
                snprintf(cell, sizeof cell, "%.0f", s->sizes[i]);
                hwfit__out_cell_str(o, cell);
                snprintf(cell, sizeof cell, "%llu", (unsigned long long)n);
                hwfit__out_cell_str(o, cell);
                hwfit__out_cell_str(o, nccl_types[type]);
                hwfit__out_cell_str(o, nccl_redop(in.op));
                snprintf(cell, sizeof cell, "%d", nccl_root(in.op));
                hwfit__out_cell_str(o, cell);
                const double v[3] = {c->time_s * 1e6, c->algbw_bytes_per_s / 1e9,
                                     c->busbw_bytes_per_s / 1e9};
                for (int k = 0; k < 3; k++) {
                    snprintf(cell, sizeof cell, "%.2f", v[k]);
                    hwfit__c_decimal_point(cell);
                    hwfit__out_cell_str(o, cell);
                }
                continue;
            }
            hwfit__out_cell_qty(o, s->sizes[i], HWFIT_UNIT_BYTES);
            hwfit__out_cell_qty(o, c->time_s, HWFIT_UNIT_SECONDS);
            hwfit__out_cell_qty(o, c->algbw_bytes_per_s, HWFIT_UNIT_BYTES_PER_S);
            hwfit__out_cell_qty(o, c->busbw_bytes_per_s, HWFIT_UNIT_BYTES_PER_S);
            hwfit__out_cell_str(o, hwfit_collective_algorithm_name(c->algorithm));
            hwfit__out_cell_str(o, hwfit_collective_protocol_name(c->protocol));
            hwfit__out_cell_str(o, hwfit_collective_bottleneck_name(c->bottleneck));
            if (json) {
                hwfit__out_cell_u64(o, n);
                hwfit__out_cell_str(o, nccl_types[type]);
                hwfit__out_cell_str(o, nccl_redop(in.op));
                hwfit__out_cell_num(o, (double)nccl_root(in.op));
            }
        }
        hwfit__out_table_end(o);
    } else {
        hwfit__out_qty(o, "bytes", "size", s->sizes[0], HWFIT_UNIT_BYTES);
        hwfit__out_qty(o, "time_s", "time", first->time_s, HWFIT_UNIT_SECONDS);
        hwfit__out_qty(o, "latency_s", "  latency part", first->latency_s, HWFIT_UNIT_SECONDS);
        hwfit__out_qty(o, "bandwidth_time_s", "  bandwidth part", first->bandwidth_time_s,
                       HWFIT_UNIT_SECONDS);
        hwfit__out_qty(o, "algbw_bytes_per_s", "algbw", first->algbw_bytes_per_s,
                       HWFIT_UNIT_BYTES_PER_S);
        hwfit__out_qty(o, "busbw_bytes_per_s", "busbw", first->busbw_bytes_per_s,
                       HWFIT_UNIT_BYTES_PER_S);
        hwfit__out_str(o, "algorithm", "algorithm",
                       hwfit_collective_algorithm_name(first->algorithm));
        hwfit__out_str(o, "protocol", "protocol", hwfit_collective_protocol_name(first->protocol));
        hwfit__out_str(o, "bottleneck", "bound by",
                       hwfit_collective_bottleneck_name(first->bottleneck));
        hwfit__out_qty(o, "bottleneck_bytes_per_s", "rate of the bound",
                       first->bottleneck_bytes_per_s, HWFIT_UNIT_BYTES_PER_S);
    }
    return HWFIT_OK;
}

const hwfit__command hwfit__cmd_collective = {
    .pub = {.name = "collective",
            .summary = "Time, algbw and busbw of a collective on a GPU topology.",
            .details = "busbw = algbw x 2(n-1)/n (all-reduce), (n-1)/n (all-gather, "
                       "reduce-scatter, all-to-all) or 1 (broadcast, reduce, send/receive), as "
                       "nccl-tests prints it. Latency constants are NCCL 2.28's; efficiencies "
                       "and formulas are in docs/formulas.md. The sweep is a table (and CSV); "
                       "its SVG chart draws it on log axes, with a line for each GPU compared "
                       "on the same topology (the table and JSON hold the first GPU only).",
            .formats = 1u << HWFIT_FORMAT_JSON | 1u << HWFIT_FORMAT_TEXT |
                       1u << HWFIT_FORMAT_CSV | 1u << HWFIT_FORMAT_SVG},
    .sets = {HWFIT__SET(options), HWFIT__GPU_FILE_OPTIONS},
    .state_size = sizeof(collective_state),
    .run = run,
};

/* Collective cost: calibration against measured nccl-tests figures, the busbw convention,
 * consistency (monotone in bytes, forced never beats best, topology changes in the right
 * direction), training-step communication, and every error path. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "hwfit.h"
#include "base/internal.h"

/* ---- helpers ----------------------------------------------------------------------------- */

static void use_gpu(hwfit_collective_in *in, const char *name) {
    const hwfit_gpu *g = NULL;
    cr_assert_eq(hwfit_gpu_find(name, &g), HWFIT_OK, "%s", name);
    cr_assert_eq(hwfit_topology_set_gpu(&in->topology, g), HWFIT_OK);
}

static hwfit_collective_out estimate(const hwfit_collective_in *in) {
    hwfit_collective_out o;
    hwfit_status st = hwfit_collective_estimate(in, &o);
    cr_assert_eq(st, HWFIT_OK, "estimate: %s", hwfit_status_name(st));
    return o;
}

/* ---- calibration ---------------------------------------------------------------------------
 * Large all-reduces measured with nccl-tests all_reduce_perf (busbw, GB/s), on machines the
 * model was not fitted to, except where marked "anchor" (a default efficiency was taken
 * from that figure). The issue asks for about 30 %; CAL_TOL is that bound. */
#define CAL_TOL 0.30

typedef struct cal_case {
    const char *machine;
    double measured_gbps;
    double predicted_gbps; /* filled by the test */
} cal_case;

/* 8x RTX PRO 6000 Max-Q behind PCIe switches on one CPU, P2P on (NCCL_P2P_LEVEL=SYS),
 * NCCL_MIN_NCHANNELS=8, 8M-2G sweep: 41.1 GB/s with 3 switches, 39.4 with 4
 * (voipmonitor/rtx6kpro hardware/pcie-bandwidth.md, "NCCL AllReduce Bus Bandwidth"). The
 * 3-switch box has a root switch hwfit models as the CPU. */
static hwfit_collective_in box_pro6000_switches(void) {
    hwfit_collective_in in;
    hwfit_collective_init(&in);
    use_gpu(&in, "rtx-pro-6000-maxq");
    in.topology.sockets = 1;
    in.topology.pcie_switches = 4;
    in.topology.p2p = HWFIT_TOPOLOGY_ON;
    in.bytes = 2.0 * HWFIT_GIBI;
    return in;
}

/* 8x RTX PRO 6000 Server Edition on dual AMD EPYC Turin, direct-attach (no switches), P2P
 * on, NCCL_MIN_NCHANNELS=8: 37.6 GB/s (same source) - the seed server's topology. */
static hwfit_collective_in box_pro6000_dual_turin(void) {
    hwfit_collective_in in;
    hwfit_collective_init(&in);
    use_gpu(&in, "rtx-pro-6000-server");
    in.topology.p2p = HWFIT_TOPOLOGY_ON;
    in.bytes = 2.0 * HWFIT_GIBI;
    return in;
}

/* 8x RTX 5090 (no P2P: staged through host memory), dual Xeon 8480+ with 8 DDR5-4800
 * channels per socket, 1-8 GB: 28 GB/s with 8 GPUs, 35 with 4 (NVIDIA/nccl#1639). The
 * 4-GPU figure is the anchor of shm_efficiency; the 8-GPU one is predicted. */
static hwfit_collective_in box_5090_xeon(uint64_t ranks) {
    hwfit_collective_in in;
    hwfit_collective_init(&in);
    use_gpu(&in, "rtx-5090");
    cr_assert_eq(hwfit_topology_set_cpu(&in.topology, HWFIT_CPU_INTEL), HWFIT_OK);
    in.topology.host_memory_bytes_per_s = 8 * 4800e6 * 8;
    in.ranks = ranks;
    in.bytes = 4e9;
    return in;
}

/* RTX 4090s with tinygrad's P2P driver on one AMD EPYC socket: 4 GPUs 256M-2G 25.7-25.95
 * GB/s (tinygrad/open-gpu-kernel-modules#36); 6 GPUs (tinybox) 24.58 GB/s at 32 MB
 * (tinygrad/open-gpu-kernel-modules README). */
static hwfit_collective_in box_4090_p2p(uint64_t gpus, double bytes) {
    hwfit_collective_in in;
    hwfit_collective_init(&in);
    use_gpu(&in, "rtx-4090");
    in.topology.gpus_per_node = gpus;
    in.topology.sockets = 1;
    in.topology.p2p = HWFIT_TOPOLOGY_ON;
    in.bytes = bytes;
    return in;
}

static hwfit_collective_in box_hgx(const char *gpu, double bytes) {
    hwfit_collective_in in;
    hwfit_collective_init(&in);
    use_gpu(&in, gpu);
    cr_assert_eq(hwfit_topology_set_cpu(&in.topology, HWFIT_CPU_INTEL), HWFIT_OK);
    in.bytes = bytes;
    return in;
}

/* 8x A100 80GB SXM in an HPE Apollo 6500, NCCL 2.18, up to 1 GB: ~200 GB/s
 * (NVIDIA/nccl-tests#149; S. Jeaugey there: ~230 at 8 GB). */

/* H800: H100 with 8 NVLink 4 links (200 GB/s per direction) on NVSwitch, NVLS all-reduce
 * 215 GB/s busbw (NVIDIA/nccl#1374). Not in the catalog: built by hand. */
static hwfit_collective_in box_h800(void) {
    hwfit_collective_in in = box_hgx("h100-sxm", 8e9);
    in.topology.peer_links = 8;
    in.topology.peer_bytes_per_s = 8 * 25e9;
    return in;
}

/* DGX A100 nodes with 8 HDR InfiniBand NICs each, many nodes: 192 GB/s (AddyLaddy, quoted
 * in NVIDIA/nccl#1576). Two A100 nodes with 4 HDR NICs: 86 GB/s (NVIDIA/nccl-tests#175). */
static hwfit_collective_in box_dgx_a100(uint64_t nodes, const char *nics) {
    hwfit_collective_in in = box_hgx("a100-sxm-80gb", 8e9);
    in.topology.nodes = nodes;
    cr_assert_eq(hwfit_topology_parse_nic(nics, &in.topology), HWFIT_OK);
    return in;
}

static double busbw_gbps(hwfit_collective_in in) { return estimate(&in).busbw_bytes_per_s / 1e9; }

Test(collective, calibration_large_allreduce_within_30_percent_and_in_order) {
    hwfit_collective_in h100_ring = box_hgx("h100-sxm", 8e9);
    h100_ring.algorithm = HWFIT_COLLECTIVE_ALGO_RING;
    /* In increasing order of measured busbw. */
    cal_case cases[] = {
        {"6x RTX 4090 P2P, 1 socket, 32 MB", 24.58, busbw_gbps(box_4090_p2p(6, 32e6))},
        {"4x RTX 4090 P2P, 1 socket", 25.9, busbw_gbps(box_4090_p2p(4, 2.0 * HWFIT_GIBI))},
        {"8x RTX 5090 no P2P, dual Xeon", 28.0, busbw_gbps(box_5090_xeon(0))},
        {"4x RTX 5090 no P2P, dual Xeon (anchor)", 35.0, busbw_gbps(box_5090_xeon(4))},
        {"8x RTX PRO 6000 Server, dual Turin, P2P", 37.6, busbw_gbps(box_pro6000_dual_turin())},
        {"8x RTX PRO 6000 Max-Q, 4 switches, P2P", 39.4, busbw_gbps(box_pro6000_switches())},
        {"8x RTX PRO 6000 Max-Q, 3 switches, P2P", 41.1, busbw_gbps(box_pro6000_switches())},
        {"2x A100 nodes, 4x HDR IB", 86.0, busbw_gbps(box_dgx_a100(2, "4x200g-ib"))},
        {"DGX A100 nodes, 8x HDR IB", 192.0, busbw_gbps(box_dgx_a100(4, "8x200g-ib"))},
        {"8x A100 80GB SXM (HPE Apollo 6500), 1 GB", 200.0,
         busbw_gbps(box_hgx("a100-sxm-80gb", 1.0 * HWFIT_GIBI))},
        {"8x H800 NVLS", 215.0, busbw_gbps(box_h800())},
        {"8x A100 SXM HGX", 232.54, busbw_gbps(box_hgx("a100-sxm-80gb", 4e9))},
        {"8x H100 SXM ring", 370.0, busbw_gbps(h100_ring)},
        {"8x H200 SXM NVLS", 475.0, busbw_gbps(box_hgx("h200-sxm", 4e9))},
        {"8x H100 SXM NVLS", 480.0, busbw_gbps(box_hgx("h100-sxm", 8e9))},
    };
    size_t n = sizeof cases / sizeof cases[0];
    for (size_t i = 0; i < n; i++) {
        double err = cases[i].predicted_gbps / cases[i].measured_gbps - 1.0;
        cr_log_info("%-42s measured %7.2f predicted %7.2f GB/s (%+.0f %%)", cases[i].machine,
                    cases[i].measured_gbps, cases[i].predicted_gbps, 100.0 * err);
        cr_expect(fabs(err) <= CAL_TOL, "%s: measured %.2f, predicted %.2f GB/s (%+.0f %%)",
                  cases[i].machine, cases[i].measured_gbps, cases[i].predicted_gbps, 100 * err);
    }
    /* Ordering: wherever two machines' measurements differ by more than 15 %, the
     * predictions order them the same way. */
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            if (cases[j].measured_gbps > 1.15 * cases[i].measured_gbps)
                cr_expect(cases[j].predicted_gbps > cases[i].predicted_gbps,
                          "%s (%.1f) should beat %s (%.1f)", cases[j].machine,
                          cases[j].predicted_gbps, cases[i].machine, cases[i].predicted_gbps);
}

Test(collective, calibration_multi_node_aws_p5_small_message) {
    /* p5.48xlarge: 8x H100 SXM, 32x 100 Gb/s EFA per node; 2 nodes (16 ranks), 8-byte
     * all-reduce 12.9 us (aws/aws-k8s-tester#503). EFA modelled as 100G RoCE. Small
     * messages are latency-bound; within a factor of 2 (NCCL's constants, not fitted). */
    hwfit_collective_in in = box_hgx("h100-sxm", 8);
    in.topology.nodes = 2;
    cr_assert_eq(hwfit_topology_parse_nic("32x100g-roce", &in.topology), HWFIT_OK);
    hwfit_collective_out o = estimate(&in);
    cr_log_info("p5 2 nodes 8 B: predicted %.1f us, measured 12.9 us", o.time_s * 1e6);
    cr_expect(o.time_s > 12.9e-6 / 2 && o.time_s < 12.9e-6 * 2, "%.1f us", o.time_s * 1e6);
    cr_expect_eq(o.bottleneck, HWFIT_COLLECTIVE_BOUND_LATENCY);
}

Test(collective, calibration_small_messages_are_latency_bound_as_measured) {
    /* 8x RTX 4090 without P2P, 8 bytes: 42.14 us (NVIDIA/nccl#1530; the anchor of
     * shm_step_latency_s). */
    hwfit_collective_in in;
    hwfit_collective_init(&in);
    use_gpu(&in, "rtx-4090");
    in.bytes = 8;
    hwfit_collective_out o = estimate(&in);
    cr_expect(fabs(o.time_s / 42.14e-6 - 1.0) < 0.30, "%.1f us", o.time_s * 1e6);
    cr_expect_eq(o.bottleneck, HWFIT_COLLECTIVE_BOUND_LATENCY);
    cr_expect_eq(o.protocol, HWFIT_COLLECTIVE_PROTO_LL);
    /* 8x RTX PRO 6000 on switches with P2P: NCCL takes 24-25 us from 256 B to 64 KB
     * (rtx6kpro pcie-bandwidth.md, "Custom Allreduce vs NCCL"). Not fitted. */
    hwfit_collective_in sw = box_pro6000_switches();
    const double sizes[] = {256, 1024, 8192, 32768, 65536};
    const double meas_us[] = {24.6, 24.1, 24.2, 24.5, 24.1};
    for (size_t i = 0; i < 5; i++) {
        sw.bytes = sizes[i];
        o = estimate(&sw);
        cr_log_info("switches %6.0f B: predicted %.1f us, measured %.1f us", sizes[i],
                    o.time_s * 1e6, meas_us[i]);
        cr_expect(fabs(o.time_s * 1e6 / meas_us[i] - 1.0) < 0.30, "%.0f B: %.1f us", sizes[i],
                  o.time_s * 1e6);
    }
    /* Dual EPYC 9124, direct attach, P2P (the seed topology), NCCL inside SGLang: 1 KB
     * 18.0 us, 256 KB 55.4 us, 1 MB 129.7 us (rtx6kpro epyc9124-direct-attach.md). */
    hwfit_collective_in seed = box_pro6000_dual_turin();
    const double s2[] = {1024, 262144, 1048576};
    const double m2[] = {18.0, 55.4, 129.7};
    for (size_t i = 0; i < 3; i++) {
        seed.bytes = s2[i];
        o = estimate(&seed);
        cr_log_info("dual EPYC %8.0f B: predicted %.1f us, measured %.1f us", s2[i],
                    o.time_s * 1e6, m2[i]);
        cr_expect(fabs(o.time_s * 1e6 / m2[i] - 1.0) < 0.30, "%.0f B: %.1f us", s2[i],
                  o.time_s * 1e6);
    }
    /* Latency-bound means flat: 8 B and 1 KB cost the same to 2 %, and busbw is tiny. */
    seed.bytes = 8;
    double t8 = estimate(&seed).time_s;
    seed.bytes = 1024;
    hwfit_collective_out o1k = estimate(&seed);
    cr_expect(o1k.time_s < 1.02 * t8);
    cr_expect_eq(o1k.bottleneck, HWFIT_COLLECTIVE_BOUND_LATENCY);
    hwfit_collective_in big = box_pro6000_dual_turin();
    cr_expect(o1k.busbw_bytes_per_s < 0.01 * estimate(&big).busbw_bytes_per_s);
}

Test(collective, seed_server_p2p_and_switches_change_what_bounds_it) {
    /* Default topology = the seed server: NCCL stages through host memory (no switches). */
    hwfit_collective_in in;
    hwfit_collective_init(&in);
    use_gpu(&in, "rtx-pro-6000-server");
    hwfit_collective_out shm = estimate(&in);
    cr_assert_eq(shm.p2p, 0);
    cr_assert_eq(shm.bottleneck, HWFIT_COLLECTIVE_BOUND_GPU_PCIE);
    /* With P2P the ring is bound by the socket link (one xGMI link per flow). */
    in.topology.p2p = HWFIT_TOPOLOGY_ON;
    hwfit_collective_out p2p = estimate(&in);
    cr_assert_eq(p2p.p2p, 1);
    cr_assert_eq(p2p.bottleneck, HWFIT_COLLECTIVE_BOUND_SOCKET_LINK);
    cr_assert(p2p.busbw_bytes_per_s > shm.busbw_bytes_per_s);
    /* One socket: the GPU link bounds it, at NCCL's 48 GB/s for Gen5 x16. */
    in.topology.sockets = 1;
    hwfit_collective_out one = estimate(&in);
    cr_assert_eq(one.bottleneck, HWFIT_COLLECTIVE_BOUND_GPU_PCIE);
    cr_assert(fabs(one.bottleneck_bytes_per_s - 48e9) < 1e6);
    /* x8 bifurcation halves the GPU link. */
    in.topology.gpu_pcie_lanes = 8;
    hwfit_collective_out x8 = estimate(&in);
    cr_assert(fabs(x8.bottleneck_bytes_per_s - 24e9) < 1e6);
    cr_assert(x8.busbw_bytes_per_s < 0.52 * one.busbw_bytes_per_s);
    /* Two switches of 4 GPUs without P2P: all traffic climbs the x16 uplinks. */
    hwfit_collective_init(&in);
    use_gpu(&in, "rtx-pro-6000-server");
    in.topology.pcie_switches = 2;
    in.topology.p2p = HWFIT_TOPOLOGY_OFF;
    hwfit_collective_out up = estimate(&in);
    cr_assert_eq(up.bottleneck, HWFIT_COLLECTIVE_BOUND_SWITCH_UPLINK);
    cr_assert(up.busbw_bytes_per_s < shm.busbw_bytes_per_s);
    /* ...with NCCL's default, P2P inside each switch, host memory only between them. */
    in.topology.p2p = HWFIT_TOPOLOGY_AUTO;
    hwfit_collective_out mixed = estimate(&in);
    cr_assert(mixed.busbw_bytes_per_s > up.busbw_bytes_per_s);
    /* A second node over 2x 400GbE RoCEv2: the ring crosses the NICs once per node. */
    hwfit_collective_init(&in);
    use_gpu(&in, "rtx-pro-6000-server");
    in.topology.nodes = 2;
    cr_assert_eq(hwfit_topology_parse_nic("2x400g-roce", &in.topology), HWFIT_OK);
    hwfit_collective_out two = estimate(&in);
    cr_assert_eq(two.nodes, 2);
    cr_assert_eq(two.gpudirect_rdma, 0);
    cr_assert(two.busbw_bytes_per_s <= shm.busbw_bytes_per_s * 1.0001);
    /* One 100G NIC makes the network the bottleneck. */
    cr_assert_eq(hwfit_topology_parse_nic("100g-roce", &in.topology), HWFIT_OK);
    hwfit_collective_out slow = estimate(&in);
    cr_assert_eq(slow.bottleneck, HWFIT_COLLECTIVE_BOUND_NIC);
    cr_assert(slow.busbw_bytes_per_s < two.busbw_bytes_per_s);
}

/* ---- the nccl-tests convention ------------------------------------------------------------ */

Test(collective, busbw_factors_are_nccl_tests) {
    /* nccl-tests src/all_reduce.cu 2(n-1)/n, all_gather.cu / reduce_scatter.cu / alltoall.cu
     * (n-1)/n, broadcast.cu / reduce.cu / sendrecv.cu 1. */
    double f = -1;
    cr_assert_eq(hwfit_collective_busbw_factor(HWFIT_COLLECTIVE_ALLREDUCE, 8, &f), HWFIT_OK);
    cr_assert_eq(f, 1.75);
    cr_assert_eq(hwfit_collective_busbw_factor(HWFIT_COLLECTIVE_ALLGATHER, 8, &f), HWFIT_OK);
    cr_assert_eq(f, 0.875);
    cr_assert_eq(hwfit_collective_busbw_factor(HWFIT_COLLECTIVE_REDUCESCATTER, 4, &f), HWFIT_OK);
    cr_assert_eq(f, 0.75);
    cr_assert_eq(hwfit_collective_busbw_factor(HWFIT_COLLECTIVE_ALLTOALL, 2, &f), HWFIT_OK);
    cr_assert_eq(f, 0.5);
    cr_assert_eq(hwfit_collective_busbw_factor(HWFIT_COLLECTIVE_BROADCAST, 8, &f), HWFIT_OK);
    cr_assert_eq(f, 1.0);
    cr_assert_eq(hwfit_collective_busbw_factor(HWFIT_COLLECTIVE_REDUCE, 3, &f), HWFIT_OK);
    cr_assert_eq(f, 1.0);
    cr_assert_eq(hwfit_collective_busbw_factor(HWFIT_COLLECTIVE_SENDRECV, 16, &f), HWFIT_OK);
    cr_assert_eq(f, 1.0);
    f = -1;
    cr_assert_eq(hwfit_collective_busbw_factor(HWFIT_COLLECTIVE_ALLREDUCE, 0, &f), HWFIT_EDOM);
    cr_assert_eq(hwfit_collective_busbw_factor((hwfit_collective_op)9, 8, &f), HWFIT_EINVAL);
    cr_assert_eq(hwfit_collective_busbw_factor(HWFIT_COLLECTIVE_ALLREDUCE, 8, NULL), HWFIT_EINVAL);
    cr_assert_eq(f, -1);
}

Test(collective, results_follow_the_convention_for_every_op) {
    for (hwfit_collective_op op = HWFIT_COLLECTIVE_ALLREDUCE; op <= HWFIT_COLLECTIVE_SENDRECV;
         op++) {
        hwfit_collective_in in = box_pro6000_dual_turin();
        in.op = op;
        hwfit_collective_out o = estimate(&in);
        double f;
        cr_assert_eq(hwfit_collective_busbw_factor(op, 8, &f), HWFIT_OK);
        cr_assert_eq(o.busbw_factor, f);
        /* algbw = S / t and busbw = algbw x factor, exactly as nccl-tests prints them. */
        cr_assert(fabs(o.algbw_bytes_per_s - in.bytes / o.time_s) <= 1e-9 * o.algbw_bytes_per_s);
        cr_assert(fabs(o.busbw_bytes_per_s - o.algbw_bytes_per_s * f) <= 1e-9 * o.busbw_bytes_per_s);
        cr_assert(fabs(o.time_s - o.latency_s - o.bandwidth_time_s) <= 1e-12 * o.time_s);
        /* A large ring-type collective on this box reaches the bottleneck rate as busbw
         * (within protocol overhead and latency); never more. */
        if (op != HWFIT_COLLECTIVE_ALLTOALL)
            cr_assert(o.busbw_bytes_per_s <= o.bottleneck_bytes_per_s * 1.0001, "%s",
                      hwfit_collective_op_name(op));
        cr_assert_eq(o.ranks, 8);
    }
}

/* ---- consistency ------------------------------------------------------------------------ */

static void check_monotone(hwfit_collective_in in) {
    double last = 0.0;
    for (double b = 0; b < 2e10; b = b < 1 ? 1 : b * 1.37) {
        in.bytes = b;
        hwfit_collective_out o = estimate(&in);
        cr_assert(o.time_s >= last, "%s/%s: %.0f bytes took %.9g s < %.9g s",
                  hwfit_collective_op_name(in.op), hwfit_collective_algorithm_name(in.algorithm),
                  b, o.time_s, last);
        cr_assert(hwfit__finite(o.time_s) && o.time_s > 0.0);
        last = o.time_s;
    }
}

Test(collective, more_bytes_never_take_less_time) {
    hwfit_collective_in boxes[] = {box_pro6000_dual_turin(), box_5090_xeon(0),
                                   box_hgx("h100-sxm", 1), box_dgx_a100(4, "8x200g-ib"),
                                   box_pro6000_switches()};
    for (size_t b = 0; b < sizeof boxes / sizeof boxes[0]; b++) {
        for (hwfit_collective_op op = HWFIT_COLLECTIVE_ALLREDUCE; op <= HWFIT_COLLECTIVE_SENDRECV;
             op++) {
            hwfit_collective_in in = boxes[b];
            in.op = op;
            check_monotone(in);
            in.library = HWFIT_COLLECTIVE_LIBRARY_ANY;
            check_monotone(in);
        }
        /* Each forced algorithm on its own too (tree uses NCCL's size correction). */
        hwfit_collective_in in = boxes[b];
        in.algorithm = HWFIT_COLLECTIVE_ALGO_TREE;
        check_monotone(in);
    }
}

Test(collective, a_forced_algorithm_never_beats_the_chosen_best) {
    hwfit_collective_in boxes[] = {box_pro6000_dual_turin(), box_hgx("h100-sxm", 1),
                                   box_dgx_a100(2, "8x200g-ib"), box_5090_xeon(0)};
    const double sizes[] = {8, 4096, 1 << 20, 64e6, 4e9};
    for (size_t b = 0; b < sizeof boxes / sizeof boxes[0]; b++) {
        for (hwfit_collective_op op = HWFIT_COLLECTIVE_ALLREDUCE; op <= HWFIT_COLLECTIVE_SENDRECV;
             op++) {
            for (size_t s = 0; s < 5; s++) {
                for (int lib = 0; lib < 2; lib++) {
                    hwfit_collective_in in = boxes[b];
                    in.op = op;
                    in.bytes = sizes[s];
                    in.library = (hwfit_collective_library)lib;
                    hwfit_collective_out best = estimate(&in);
                    int tried = 0;
                    for (hwfit_collective_algorithm a = HWFIT_COLLECTIVE_ALGO_RING;
                         a <= HWFIT_COLLECTIVE_ALGO_HIERARCHICAL; a++) {
                        for (hwfit_collective_protocol p = HWFIT_COLLECTIVE_PROTO_AUTO;
                             p <= HWFIT_COLLECTIVE_PROTO_SIMPLE; p++) {
                            hwfit_collective_in f = in;
                            f.algorithm = a;
                            f.protocol = p;
                            hwfit_collective_out o;
                            hwfit_status st = hwfit_collective_estimate(&f, &o);
                            if (st == HWFIT_EUNSUPPORTED) continue;
                            cr_assert_eq(st, HWFIT_OK);
                            tried++;
                            /* NCCL's choice is best among NCCL's algorithms; ANY's among all. */
                            int candidate = lib == 1 || o.algorithm == best.algorithm ||
                                            (op == HWFIT_COLLECTIVE_ALLREDUCE &&
                                             (a == HWFIT_COLLECTIVE_ALGO_RING ||
                                              a == HWFIT_COLLECTIVE_ALGO_TREE ||
                                              a == HWFIT_COLLECTIVE_ALGO_NVLS));
                            if (candidate)
                                cr_assert(o.time_s >= best.time_s, "%s %s/%s %.0f B beats auto",
                                          hwfit_collective_op_name(op),
                                          hwfit_collective_algorithm_name(a),
                                          hwfit_collective_protocol_name(p), sizes[s]);
                            cr_assert_eq(o.algorithm, a);
                        }
                    }
                    cr_assert(tried > 0);
                }
            }
        }
    }
}

Test(collective, topology_changes_move_the_estimate_the_right_way) {
    /* Faster PCIe generations are never slower; more NICs never slower. */
    hwfit_collective_in in = box_4090_p2p(4, 1e9);
    double last = 0;
    for (uint32_t gen = 1; gen <= 6; gen++) {
        in.topology.gpu_pcie_gen = gen;
        double bw = estimate(&in).busbw_bytes_per_s;
        cr_assert(bw > last, "gen %u", gen);
        last = bw;
    }
    hwfit_collective_in net = box_dgx_a100(4, "1x200g-ib");
    last = 0;
    for (uint64_t nics = 1; nics <= 8; nics++) {
        net.topology.nics_per_node = nics;
        double bw = estimate(&net).busbw_bytes_per_s;
        cr_assert(bw >= last, "%llu NICs", (unsigned long long)nics);
        last = bw;
    }
    /* Without GPUDirect RDMA the network path is staged through host memory: never faster. */
    net.topology.nics_per_node = 8;
    net.topology.gpudirect_rdma = HWFIT_TOPOLOGY_OFF;
    double staged = estimate(&net).busbw_bytes_per_s;
    net.topology.gpudirect_rdma = HWFIT_TOPOLOGY_ON;
    cr_assert(estimate(&net).busbw_bytes_per_s >= staged);
    /* A communicator inside one socket beats one across both on the P2P seed box. */
    hwfit_collective_in seed = box_pro6000_dual_turin();
    double all8 = estimate(&seed).busbw_bytes_per_s;
    seed.ranks = 4;
    cr_assert(estimate(&seed).busbw_bytes_per_s > all8);
    /* NVLS only on an NVSwitch node of Hopper or later; forcing it elsewhere fails. */
    hwfit_collective_in a100 = box_hgx("a100-sxm-80gb", 1e9);
    a100.algorithm = HWFIT_COLLECTIVE_ALGO_NVLS;
    hwfit_collective_out o;
    cr_assert_eq(hwfit_collective_estimate(&a100, &o), HWFIT_EUNSUPPORTED);
    hwfit_collective_in h = box_hgx("h100-sxm", 1e9);
    h.algorithm = HWFIT_COLLECTIVE_ALGO_NVLS;
    cr_assert_eq(estimate(&h).bottleneck, HWFIT_COLLECTIVE_BOUND_NVLS);
    /* LL128 runs only over NVLink. */
    hwfit_collective_in pcie = box_pro6000_dual_turin();
    pcie.protocol = HWFIT_COLLECTIVE_PROTO_LL128;
    cr_assert_eq(hwfit_collective_estimate(&pcie, &o), HWFIT_EUNSUPPORTED);
    h.algorithm = HWFIT_COLLECTIVE_ALGO_RING;
    h.protocol = HWFIT_COLLECTIVE_PROTO_LL128;
    cr_assert_eq(estimate(&h).protocol, HWFIT_COLLECTIVE_PROTO_LL128);
}

Test(collective, every_algorithm_runs_where_it_exists) {
    hwfit_collective_in in = box_dgx_a100(2, "8x200g-ib");
    in.bytes = 1e8;
    static const struct {
        hwfit_collective_op op;
        hwfit_collective_algorithm a;
    } ok[] = {
        {HWFIT_COLLECTIVE_ALLREDUCE, HWFIT_COLLECTIVE_ALGO_RING},
        {HWFIT_COLLECTIVE_ALLREDUCE, HWFIT_COLLECTIVE_ALGO_TREE},
        {HWFIT_COLLECTIVE_ALLREDUCE, HWFIT_COLLECTIVE_ALGO_RECURSIVE},
        {HWFIT_COLLECTIVE_ALLREDUCE, HWFIT_COLLECTIVE_ALGO_DIRECT},
        {HWFIT_COLLECTIVE_ALLREDUCE, HWFIT_COLLECTIVE_ALGO_HIERARCHICAL},
        {HWFIT_COLLECTIVE_ALLGATHER, HWFIT_COLLECTIVE_ALGO_RING},
        {HWFIT_COLLECTIVE_ALLGATHER, HWFIT_COLLECTIVE_ALGO_RECURSIVE},
        {HWFIT_COLLECTIVE_REDUCESCATTER, HWFIT_COLLECTIVE_ALGO_DIRECT},
        {HWFIT_COLLECTIVE_BROADCAST, HWFIT_COLLECTIVE_ALGO_TREE},
        {HWFIT_COLLECTIVE_REDUCE, HWFIT_COLLECTIVE_ALGO_RECURSIVE},
        {HWFIT_COLLECTIVE_ALLTOALL, HWFIT_COLLECTIVE_ALGO_DIRECT},
        {HWFIT_COLLECTIVE_ALLTOALL, HWFIT_COLLECTIVE_ALGO_RECURSIVE},
        {HWFIT_COLLECTIVE_SENDRECV, HWFIT_COLLECTIVE_ALGO_DIRECT},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        hwfit_collective_in f = in;
        f.op = ok[i].op;
        f.algorithm = ok[i].a;
        hwfit_collective_out o = estimate(&f);
        cr_assert_eq(o.algorithm, ok[i].a);
        cr_assert(o.time_s > 0 && o.busbw_bytes_per_s > 0);
    }
    static const struct {
        hwfit_collective_op op;
        hwfit_collective_algorithm a;
    } bad[] = {
        {HWFIT_COLLECTIVE_ALLGATHER, HWFIT_COLLECTIVE_ALGO_TREE},
        {HWFIT_COLLECTIVE_ALLTOALL, HWFIT_COLLECTIVE_ALGO_RING},
        {HWFIT_COLLECTIVE_SENDRECV, HWFIT_COLLECTIVE_ALGO_RECURSIVE},
        {HWFIT_COLLECTIVE_BROADCAST, HWFIT_COLLECTIVE_ALGO_DIRECT},
        {HWFIT_COLLECTIVE_BROADCAST, HWFIT_COLLECTIVE_ALGO_HIERARCHICAL},
        {HWFIT_COLLECTIVE_ALLREDUCE, HWFIT_COLLECTIVE_ALGO_NVLS}, /* A100: no NVLS */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        hwfit_collective_in f = in;
        f.op = bad[i].op;
        f.algorithm = bad[i].a;
        hwfit_collective_out o;
        memset(&o, 0x5a, sizeof o);
        hwfit_collective_out poison = o;
        cr_assert_eq(hwfit_collective_estimate(&f, &o), HWFIT_EUNSUPPORTED, "%s/%s",
                     hwfit_collective_op_name(bad[i].op), hwfit_collective_algorithm_name(bad[i].a));
        cr_assert(memcmp(&o, &poison, sizeof o) == 0);
    }
    /* Hierarchical needs several nodes with several GPUs each. */
    hwfit_collective_in one = box_pro6000_dual_turin();
    one.algorithm = HWFIT_COLLECTIVE_ALGO_HIERARCHICAL;
    hwfit_collective_out o;
    cr_assert_eq(hwfit_collective_estimate(&one, &o), HWFIT_EUNSUPPORTED);
}

/* Fewer switches than sockets: one switch holding both GPUs of a two-socket box hangs off
 * socket 0, so the pair never crosses the socket link: with P2P (same switch) and with it
 * off (staged through socket 0's memory) the box times as the one-socket box does. */
Test(collective, one_switch_on_two_sockets_stays_on_its_socket) {
    const hwfit_topology_mode modes[] = {HWFIT_TOPOLOGY_ON, HWFIT_TOPOLOGY_OFF};
    for (size_t i = 0; i < 2; i++) {
        hwfit_collective_in in;
        hwfit_collective_init(&in);
        use_gpu(&in, "rtx-2080-ti");
        in.topology.gpus_per_node = 2;
        in.topology.peer_link = HWFIT_GPU_PEER_NONE; /* no bridge fitted */
        in.topology.peer_topology = HWFIT_GPU_PEER_TOPOLOGY_NONE;
        in.topology.peer_links = 0;
        in.topology.peer_bytes_per_s = 0.0;
        in.topology.pcie_switches = 1;
        in.topology.p2p = modes[i];
        in.bytes = 1e9;
        in.topology.sockets = 2;
        hwfit_collective_out two = estimate(&in);
        in.topology.sockets = 1;
        hwfit_collective_out one = estimate(&in);
        cr_assert_eq(two.time_s, one.time_s, "p2p %d: %g vs %g s", (int)modes[i], two.time_s,
                     one.time_s);
        cr_assert_neq(two.bottleneck, HWFIT_COLLECTIVE_BOUND_SOCKET_LINK);
    }
}

/* Two RTX 2080 Ti under one PCIe Gen3 x16 switch, P2P off: both ranks stage through host
 * memory at once, so the switch uplink carries both copies each way, each at the staged
 * copy's share of the PCIe rate (shm_efficiency), as on the GPU's own link. busbw =
 * uplink x shm_efficiency / 2: 4.0 GB/s measured (AutoDL 2080 Ti x2, the accuracy case
 * coll-autodl-allreduce-2xrtx2080ti-pcie-switch-p2p-off-1g). */
Test(collective, staged_copies_cross_the_switch_uplink_at_the_staged_rate) {
    hwfit_collective_in in;
    hwfit_collective_init(&in);
    use_gpu(&in, "rtx-2080-ti");
    in.topology.gpus_per_node = 2;
    in.topology.peer_link = HWFIT_GPU_PEER_NONE;
    in.topology.peer_topology = HWFIT_GPU_PEER_TOPOLOGY_NONE;
    in.topology.peer_links = 0;
    in.topology.peer_bytes_per_s = 0.0;
    in.topology.pcie_switches = 1;
    in.topology.sockets = 1;
    in.topology.p2p = HWFIT_TOPOLOGY_OFF;
    in.bytes = 1e9;
    hwfit_collective_out o = estimate(&in);
    double uplink = 16e9 * 128.0 / 130.0 * in.topology.pcie_efficiency; /* Gen3 x16 */
    double expect = uplink * in.topology.shm_efficiency / 2.0;
    cr_assert_eq(o.bottleneck, HWFIT_COLLECTIVE_BOUND_SWITCH_UPLINK);
    cr_assert(fabs(o.busbw_bytes_per_s / expect - 1.0) < 0.02, "%g vs %g",
              o.busbw_bytes_per_s, expect);
    cr_assert(fabs(o.busbw_bytes_per_s / 4.0e9 - 1.0) < 0.20, "%g vs 4.0 GB/s measured",
              o.busbw_bytes_per_s);
}

/* The CPU presets carry their generation's memory: EPYC 9005 12 x DDR5-6400 (614.4 GB/s a
 * socket), Xeon 4th gen 8 x DDR5-4800 (307.2 GB/s). Eight RTX 5090s staging through host
 * memory on two Xeon 8480+ are bound by it: 28 GB/s measured (NVIDIA/nccl#1639), where
 * the AMD memory would leave them at the GPU links' 35. */
Test(collective, cpu_preset_sets_the_socket_memory) {
    hwfit_collective_in in;
    hwfit_collective_init(&in);
    use_gpu(&in, "rtx-5090");
    in.bytes = 4e9;
    cr_assert_eq(hwfit_topology_set_cpu(&in.topology, HWFIT_CPU_INTEL), HWFIT_OK);
    cr_assert_eq(in.topology.host_memory_bytes_per_s, 307.2e9);
    hwfit_collective_out intel = estimate(&in);
    cr_assert_eq(intel.bottleneck, HWFIT_COLLECTIVE_BOUND_HOST_MEMORY);
    cr_assert(fabs(intel.busbw_bytes_per_s / 28e9 - 1.0) < 0.10, "%g",
              intel.busbw_bytes_per_s);
    cr_assert_eq(hwfit_topology_set_cpu(&in.topology, HWFIT_CPU_AMD), HWFIT_OK);
    cr_assert_eq(in.topology.host_memory_bytes_per_s, 614.4e9);
    in.topology.socket_link_kind = HWFIT_LINK_UPI; /* only the memory differs */
    in.topology.socket_link_generation = 2;
    hwfit_collective_out amd = estimate(&in);
    cr_assert_gt(amd.busbw_bytes_per_s, intel.busbw_bytes_per_s * 1.15);
}

/* NCCL's channel count from its topology search (search.cc, connect.cc): 8 H100 SXM on
 * NVSwitch: 18 links x 20.6 GB/s, 6 rings at 60 GB/s, doubled (ncclTopoDupChannels) and
 * doubled (two tree directions): 24. 8 A100 PCIe on two AMD sockets: the ring crosses the
 * inter-socket link NCCL counts 16 GB/s, one ring at 15 GB/s, run as 2 channels; NCCL's
 * tree then stops at 24 GB/s a graph channel (tuning.cc), and NCCL_MIN_NCHANNELS=16 lifts
 * it until PCIe binds. Above 64 is refused, naming min_channels. */
Test(collective, channels_follow_nccl_topology_search_and_min_channels) {
    hwfit_collective_in in = box_hgx("h100-sxm", 8e9);
    in.algorithm = HWFIT_COLLECTIVE_ALGO_RING;
    cr_assert_eq(estimate(&in).channels, 24);
    hwfit_collective_init(&in);
    use_gpu(&in, "a100-pcie-80gb");
    in.bytes = 1e9;
    in.algorithm = HWFIT_COLLECTIVE_ALGO_TREE;
    hwfit_collective_out dflt = estimate(&in);
    cr_assert_eq(dflt.channels, 2);
    cr_assert_eq(dflt.bottleneck, HWFIT_COLLECTIVE_BOUND_PROTOCOL);
    cr_assert(fabs(dflt.algbw_bytes_per_s / 12e9 - 1.0) < 0.01, "%g", dflt.algbw_bytes_per_s);
    in.min_channels = 16;
    hwfit_collective_out tuned = estimate(&in);
    cr_assert_eq(tuned.channels, 16);
    cr_assert_gt(tuned.busbw_bytes_per_s, 1.2 * dflt.busbw_bytes_per_s);
    cr_assert_neq(tuned.bottleneck, HWFIT_COLLECTIVE_BOUND_PROTOCOL);
    in.min_channels = 1; /* below NCCL's own count: no change */
    cr_assert_eq(estimate(&in).time_s, dflt.time_s);
    in.min_channels = 65;
    hwfit_problem why;
    hwfit_collective_out o;
    cr_assert_eq(hwfit_collective_estimate(&in, &o), HWFIT_EDOM);
    cr_assert_eq(hwfit_collective_validate(&in, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "min_channels");
}

/* Bridged cards carry the bridges that join a pair with all their links (A100/H100 PCIe
 * and H100 NVL: 3 of 4 links; GA102 and TU102 cards and the H200 NVL's board: 1); the
 * bridges divide the links; cards without bridges carry 0. */
Test(collective, bridged_cards_carry_their_bridges) {
    for (size_t i = 0;; i++) {
        const hwfit_gpu *g = hwfit_gpu_at(i);
        if (g == NULL) break;
        if (g->peer_topology == HWFIT_GPU_PEER_TOPOLOGY_BRIDGE) {
            cr_assert_geq(g->peer_bridges, 1, "%s", g->name);
            cr_assert_eq(g->peer_links % g->peer_bridges, 0, "%s", g->name);
        } else {
            cr_assert_eq(g->peer_bridges, 0, "%s", g->name);
        }
    }
    const hwfit_gpu *g;
    cr_assert_eq(hwfit_gpu_find("h100-pcie", &g), HWFIT_OK);
    cr_assert_eq(g->peer_links / g->peer_bridges, 4);
    cr_assert_eq(hwfit_gpu_find("rtx-2080-ti", &g), HWFIT_OK);
    cr_assert_eq(g->peer_bridges, 1);
    cr_assert_eq(g->peer_links, 2);
}

/* NCCL_P2P_LEVEL (src/graph/paths.cc): with p2p AUTO, the level decides which pairs use
 * P2P. On 4 GPUs of one socket's root ports (default: staged) PHB and SYS time as p2p ON,
 * LOC and PXB as the default; a level out of the enum is refused, naming the field. */
Test(collective, p2p_level_follows_nccl_p2p_level) {
    hwfit_collective_in in;
    hwfit_collective_init(&in);
    in.topology.gpus_per_node = 4;
    in.topology.sockets = 1;
    in.bytes = 1e9;
    hwfit_collective_out dflt = estimate(&in);
    in.topology.p2p = HWFIT_TOPOLOGY_ON;
    hwfit_collective_out on = estimate(&in);
    in.topology.p2p = HWFIT_TOPOLOGY_AUTO;
    cr_assert_lt(on.time_s, dflt.time_s);
    const struct {
        hwfit_p2p_level lv;
        int as_on;
    } cases[] = {{HWFIT_P2P_LEVEL_LOC, 0}, {HWFIT_P2P_LEVEL_PXB, 0},
                 {HWFIT_P2P_LEVEL_PHB, 1}, {HWFIT_P2P_LEVEL_SYS, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        in.topology.p2p_level = cases[i].lv;
        hwfit_collective_out o = estimate(&in);
        cr_assert_eq(o.time_s, cases[i].as_on ? on.time_s : dflt.time_s, "level %d",
                     (int)cases[i].lv);
        cr_assert_eq(o.p2p, cases[i].as_on, "level %d", (int)cases[i].lv);
    }
    /* p2p OFF wins over the level (NCCL_P2P_DISABLE). */
    in.topology.p2p = HWFIT_TOPOLOGY_OFF;
    cr_assert_eq(estimate(&in).time_s, dflt.time_s);
    in.topology.p2p = HWFIT_TOPOLOGY_AUTO;
    in.topology.p2p_level = (hwfit_p2p_level)9;
    hwfit_collective_out o;
    cr_assert_eq(hwfit_collective_estimate(&in, &o), HWFIT_EINVAL);
}

/* Uneven switches (3, 3, 2 GPUs): the ring's hops are still one GPU link each, so the
 * all-reduce times as the even split does; the all-to-all is bound by the uplink of a
 * 3-GPU switch (3 x 5/8 of each GPU's data leaves it), between the even 2 x 4 (4 x 4/8)
 * and 4 x 2 (2 x 6/8) splits; 6, 1, 1 loads the big switch's uplink as 4 x 2 does
 * (6 x 2/8 = 2 x 6/8). Lists that do not add up are refused. */
Test(collective, uneven_switches_follow_the_split) {
    hwfit_collective_in in = box_pro6000_switches();
    in.op = HWFIT_COLLECTIVE_ALLTOALL;
    in.topology.pcie_switches = 2;
    double two = estimate(&in).busbw_bytes_per_s;
    in.topology.pcie_switches = 4;
    double four = estimate(&in).busbw_bytes_per_s;
    in.topology.pcie_switches = 3;
    in.topology.pcie_switch_gpus[0] = 3;
    in.topology.pcie_switch_gpus[1] = 3;
    in.topology.pcie_switch_gpus[2] = 2;
    hwfit_collective_out o = estimate(&in);
    cr_assert_eq(o.bottleneck, HWFIT_COLLECTIVE_BOUND_SWITCH_UPLINK);
    cr_assert(o.busbw_bytes_per_s > two * 1.03 && o.busbw_bytes_per_s < four * 0.97,
              "%g not between %g and %g", o.busbw_bytes_per_s, two, four);
    in.topology.pcie_switch_gpus[0] = 6;
    in.topology.pcie_switch_gpus[1] = 1;
    in.topology.pcie_switch_gpus[2] = 1;
    cr_assert_float_eq(estimate(&in).busbw_bytes_per_s, four, 1e-9 * four);
    in.op = HWFIT_COLLECTIVE_ALLREDUCE;
    in.topology.pcie_switch_gpus[0] = 3;
    in.topology.pcie_switch_gpus[1] = 3;
    in.topology.pcie_switch_gpus[2] = 2;
    hwfit_collective_in even = box_pro6000_switches();
    cr_assert_float_eq(estimate(&in).time_s, estimate(&even).time_s, 1e-12);
    hwfit_collective_out x;
    in.topology.pcie_switch_gpus[2] = 1; /* 7 of 8 */
    cr_assert_eq(hwfit_collective_estimate(&in, &x), HWFIT_EDOM);
    in.topology.pcie_switch_gpus[2] = 0; /* a listed switch with no GPU */
    in.topology.pcie_switch_gpus[0] = 5;
    cr_assert_eq(hwfit_collective_estimate(&in, &x), HWFIT_EDOM);
    in.topology.pcie_switch_gpus[2] = 0;
    in.topology.pcie_switches = 2; /* 5 + 3: fine */
    in.topology.pcie_switch_gpus[1] = 3;
    cr_assert_eq(hwfit_collective_estimate(&in, &x), HWFIT_OK);
    in.topology.pcie_switch_gpus[3] = 1; /* beyond pcie_switches */
    cr_assert_eq(hwfit_collective_estimate(&in, &x), HWFIT_EDOM);
}

/* Rails: an all-to-all rank sends through one NIC (NVIDIA/nccl-tests#267), so one H100
 * per node with 4 HDR NICs is bound by one NIC, not by the four; 4 GPUs per node use all
 * four. The ring still spreads over every NIC (one channel per NIC): bound by the GPU's
 * own PCIe link (48 GB/s), twice one HDR port. */
Test(collective, alltoall_uses_one_nic_per_rank) {
    hwfit_collective_in in;
    hwfit_collective_init(&in);
    use_gpu(&in, "h100-sxm");
    in.op = HWFIT_COLLECTIVE_ALLTOALL;
    in.topology.sockets = 1;
    in.topology.nodes = 4;
    in.topology.gpudirect_rdma = HWFIT_TOPOLOGY_ON;
    cr_assert_eq(hwfit_topology_parse_nic("4x200g-ib", &in.topology), HWFIT_OK);
    in.bytes = 1e9;
    in.topology.gpus_per_node = 1;
    hwfit_collective_out one = estimate(&in);
    in.topology.gpus_per_node = 4;
    hwfit_collective_out four = estimate(&in);
    cr_assert_eq(one.bottleneck, HWFIT_COLLECTIVE_BOUND_NIC);
    /* one HDR port's payload after nic_efficiency: about 24 GB/s, under 26 */
    cr_assert(one.busbw_bytes_per_s < 26e9, "%g", one.busbw_bytes_per_s);
    cr_assert(four.busbw_bytes_per_s > 1.15 * one.busbw_bytes_per_s, "%g vs %g",
              four.busbw_bytes_per_s, one.busbw_bytes_per_s);
    in.op = HWFIT_COLLECTIVE_ALLREDUCE;
    in.topology.gpus_per_node = 1;
    cr_assert(estimate(&in).busbw_bytes_per_s > 1.5 * one.busbw_bytes_per_s);
}

Test(collective, ring_allreduce_matches_the_alpha_beta_formula) {
    /* On one PCIe switch with P2P and a large Simple ring, time = NCCL latency +
     * 2(p-1)/p S / B with B = 48 GB/s (Thakur et al. 2005 ring cost; NCCL constants). */
    hwfit_collective_in in;
    hwfit_collective_init(&in);
    in.topology.sockets = 1;
    in.topology.pcie_switches = 1;
    in.algorithm = HWFIT_COLLECTIVE_ALGO_RING;
    in.protocol = HWFIT_COLLECTIVE_PROTO_SIMPLE;
    in.bytes = 1e9;
    hwfit_collective_out o = estimate(&in);
    double lat = (8.4 + 14 * 5.7) * 1e-6; /* baseLat Ring/Simple + 2(p-1) x PCI Ring/Simple */
    double want = lat + 2.0 * 7.0 / 8.0 * 1e9 / 48e9;
    cr_assert(fabs(o.time_s - want) < 1e-12 + 1e-9 * want, "%.12g vs %.12g", o.time_s, want);
    cr_assert(fabs(o.latency_s - lat) < 1e-15);
    cr_assert(fabs(o.busbw_bytes_per_s - 1e9 / want * 1.75) < 1e-3);
}

/* ---- training step ------------------------------------------------------------------------ */

static hwfit_collective_step_in seed_step(void) {
    hwfit_collective_step_in in;
    hwfit_collective_step_init(&in);
    const hwfit_gpu *g;
    cr_assert_eq(hwfit_gpu_find("rtx-pro-6000-server", &g), HWFIT_OK);
    hwfit_topology_set_gpu(&in.topology, g);
    return in;
}

static double one_collective(const hwfit_topology *t, hwfit_collective_op op, double bytes,
                             uint64_t ranks, uint64_t rpn) {
    hwfit_collective_in c;
    hwfit_collective_init(&c);
    c.topology = *t;
    c.op = op;
    c.bytes = bytes;
    c.ranks = ranks;
    c.ranks_per_node = rpn;
    return estimate(&c).time_s;
}

Test(collective, step_sums_the_collectives_of_each_class) {
    hwfit_collective_step_in in = seed_step();
    in.tp = 4;
    in.dp = 2;
    in.layers_per_stage = 32;
    in.micro_batches = 8;
    in.tp_bytes = 1 * 4096 * 8192 * 2.0; /* micro-batch 1, 4K tokens, hidden 8192, bf16 */
    in.grad_bytes = 8e9 / 4 * 2;        /* 8 B params / TP 4, bf16 grads */
    hwfit_collective_step_out o;
    cr_assert_eq(hwfit_collective_step(&in, &o), HWFIT_OK);
    /* Megatron: 4 TP all-reduces per layer per micro-batch. */
    cr_assert_eq(o.tp_count, 32 * 8 * 4);
    double t_ar = one_collective(&in.topology, HWFIT_COLLECTIVE_ALLREDUCE, in.tp_bytes, 4, 4);
    cr_assert(fabs(o.tp_s - 1024 * t_ar) <= 1e-12 * o.tp_s);
    /* DP (stride 4): the 2 ranks are GPU 0 and GPU 4, modelled as 2 ranks of one node. */
    cr_assert_eq(o.dp_count, 1);
    cr_assert(fabs(o.dp_s - one_collective(&in.topology, HWFIT_COLLECTIVE_ALLREDUCE,
                                           in.grad_bytes, 2, 2)) <= 1e-12 * o.dp_s);
    cr_assert_eq(o.zero_s, 0.0);
    cr_assert_eq(o.pp_s, 0.0);
    cr_assert_eq(o.ep_s, 0.0);
    cr_assert(fabs(o.total_s - (o.tp_s + o.dp_s)) <= 1e-12 * o.total_s);
    /* Sequence parallelism: reduce-scatter + all-gather instead of each all-reduce. */
    in.sequence_parallel = 1;
    hwfit_collective_step_out sp;
    cr_assert_eq(hwfit_collective_step(&in, &sp), HWFIT_OK);
    cr_assert_eq(sp.tp_count, 2 * o.tp_count);
    cr_assert_eq(sp.tp.algorithm, HWFIT_COLLECTIVE_ALGO_RING);
}

Test(collective, step_zero_stages_follow_the_zero_paper) {
    hwfit_collective_step_in in = seed_step();
    in.dp = 8;
    in.micro_batches = 4;
    in.grad_bytes = in.param_bytes = 16e9; /* 8 B params in bf16 */
    hwfit_collective_step_out z[4];
    for (uint64_t s = 0; s <= 3; s++) {
        in.zero_stage = s;
        cr_assert_eq(hwfit_collective_step(&in, &z[s]), HWFIT_OK);
    }
    cr_assert_eq(z[0].dp_count, 1);
    cr_assert_eq(z[0].zero_count, 0);
    cr_assert_eq(z[1].dp_count, 1);
    cr_assert_eq(z[1].zero_count, 1);
    cr_assert_eq(z[2].dp_count, 4);
    cr_assert_eq(z[2].zero_count, 1);
    cr_assert_eq(z[3].dp_count, 4);
    cr_assert_eq(z[3].zero_count, 8);
    /* Rajbhandari et al. 2020: reduce-scatter + all-gather moves what one all-reduce does,
     * so ZeRO-1 costs about ZeRO-0 (ring: RS + AG = AR exactly in bandwidth). */
    cr_assert(fabs(z[1].total_s / z[0].total_s - 1.0) < 0.01, "%g vs %g", z[1].total_s,
              z[0].total_s);
    /* ZeRO-3 with one micro-batch: 1.5x the data-parallel baseline (3 vs 2 passes). */
    in.micro_batches = 1;
    hwfit_collective_step_out a, b;
    in.zero_stage = 0;
    cr_assert_eq(hwfit_collective_step(&in, &a), HWFIT_OK);
    in.zero_stage = 3;
    cr_assert_eq(hwfit_collective_step(&in, &b), HWFIT_OK);
    cr_assert(fabs(b.total_s / a.total_s - 1.5) < 0.01, "%g", b.total_s / a.total_s);
}

Test(collective, step_pipeline_and_experts_cross_nodes_over_the_nics) {
    hwfit_collective_step_in in = seed_step();
    in.topology.nodes = 2;
    cr_assert_eq(hwfit_topology_parse_nic("2x400g-roce", &in.topology), HWFIT_OK);
    in.tp = 8;
    in.pp = 2;
    in.micro_batches = 16;
    in.pp_bytes = 4096 * 8192 * 2.0;
    hwfit_collective_step_out o;
    cr_assert_eq(hwfit_collective_step(&in, &o), HWFIT_OK);
    cr_assert_eq(o.pp_count, 32);
    cr_assert_eq(o.pp.nodes, 2); /* stages are 8 GPUs apart: a NIC hop */
    /* Experts: 4 all-to-alls per MoE layer per micro-batch over the EP group. */
    hwfit_collective_step_in e = seed_step();
    e.dp = 8;
    e.ep = 8;
    e.moe_layers_per_stage = 48;
    e.micro_batches = 2;
    e.ep_bytes = 64e6;
    cr_assert_eq(hwfit_collective_step(&e, &o), HWFIT_OK);
    cr_assert_eq(o.ep_count, 4 * 48 * 2);
    cr_assert_eq(o.ep.algorithm, HWFIT_COLLECTIVE_ALGO_DIRECT);
    cr_assert(o.ep_s > 0 && o.total_s == o.ep_s);
}

Test(collective, step_errors_leave_the_output_alone) {
    hwfit_collective_step_out o, poison;
    memset(&o, 0x5a, sizeof o);
    memcpy(&poison, &o, sizeof o);
    hwfit_collective_step_in in;
#define STEP_EXPECT(mutation, status)                                              \
    do {                                                                           \
        in = seed_step();                                                          \
        in.grad_bytes = 1e9;                                                       \
        mutation;                                                                  \
        cr_assert_eq(hwfit_collective_step(&in, &o), status, "%s", #mutation);     \
        cr_assert(memcmp(&o, &poison, sizeof o) == 0, "%s wrote", #mutation);      \
    } while (0)
    STEP_EXPECT(in.tp = 0, HWFIT_EDOM);
    STEP_EXPECT(in.micro_batches = 0, HWFIT_EDOM);
    STEP_EXPECT(in.zero_stage = 4, HWFIT_EDOM);
    STEP_EXPECT(in.grad_bytes = NAN, HWFIT_EDOM);
    STEP_EXPECT(in.tp_bytes = -1, HWFIT_EDOM);
    STEP_EXPECT(in.pp_bytes = INFINITY, HWFIT_EDOM);
    STEP_EXPECT(in.library = (hwfit_collective_library)5, HWFIT_EINVAL);
    STEP_EXPECT(in.topology.sockets = 3, HWFIT_EDOM);
    STEP_EXPECT((in.tp = 8, in.dp = 2), HWFIT_ELAYOUT);    /* 16 GPUs on an 8-GPU node */
    STEP_EXPECT((in.dp = 4, in.ep = 3), HWFIT_ELAYOUT);    /* ep must divide dp */
    STEP_EXPECT((in.tp = 3, in.dp = 2), HWFIT_ELAYOUT);    /* TP 3 straddles GPUs unevenly */
    STEP_EXPECT((in.topology.nodes = 2, in.tp = 8, in.dp = 2), HWFIT_EDOM); /* no NICs */
    STEP_EXPECT((in.tp = 2, in.tp_bytes = 1, in.layers_per_stage = UINT64_MAX,
                 in.micro_batches = 2), HWFIT_ERANGE);
#undef STEP_EXPECT
    in = seed_step();
    cr_assert_eq(hwfit_collective_step(NULL, &o), HWFIT_EINVAL);
    cr_assert_eq(hwfit_collective_step(&in, NULL), HWFIT_EINVAL);
    hwfit_collective_step_init(NULL);
}

/* ---- errors and helpers ------------------------------------------------------------------- */

Test(collective, estimate_errors_leave_the_output_alone) {
    hwfit_collective_out o, poison;
    memset(&o, 0x5a, sizeof o);
    memcpy(&poison, &o, sizeof o);
    hwfit_collective_in in;
#define EXPECT(mutation, status)                                                    \
    do {                                                                            \
        hwfit_collective_init(&in);                                                 \
        mutation;                                                                   \
        cr_assert_eq(hwfit_collective_estimate(&in, &o), status, "%s", #mutation);  \
        cr_assert(memcmp(&o, &poison, sizeof o) == 0, "%s wrote", #mutation);       \
    } while (0)
    EXPECT(in.op = (hwfit_collective_op)7, HWFIT_EINVAL);
    EXPECT(in.algorithm = (hwfit_collective_algorithm)7, HWFIT_EINVAL);
    EXPECT(in.protocol = (hwfit_collective_protocol)4, HWFIT_EINVAL);
    EXPECT(in.library = (hwfit_collective_library)2, HWFIT_EINVAL);
    EXPECT(in.topology.p2p = (hwfit_topology_mode)3, HWFIT_EINVAL);
    EXPECT(in.topology.gpudirect_rdma = (hwfit_topology_mode)-1, HWFIT_EINVAL);
    EXPECT(in.topology.cpu_vendor = (hwfit_cpu_vendor)3, HWFIT_EINVAL);
    EXPECT(in.topology.nic_kind = (hwfit_nic_kind)4, HWFIT_EINVAL);
    EXPECT(in.topology.peer_link = (hwfit_gpu_peer_link)3, HWFIT_EINVAL);
    EXPECT(in.bytes = NAN, HWFIT_EDOM);
    EXPECT(in.bytes = -1, HWFIT_EDOM);
    EXPECT(in.bytes = INFINITY, HWFIT_EDOM);
    EXPECT(in.bytes = 2e18, HWFIT_EDOM);
    EXPECT(in.ranks = 1, HWFIT_EDOM);
    EXPECT(in.ranks = 9, HWFIT_EDOM);                         /* more than 8 GPUs */
    EXPECT((in.ranks = 6, in.ranks_per_node = 4), HWFIT_EDOM); /* 4 does not divide 6 */
    EXPECT(in.ranks_per_node = 9, HWFIT_EDOM);
    EXPECT(in.topology.gpus_per_node = 0, HWFIT_EDOM);
    EXPECT(in.topology.gpus_per_node = 129, HWFIT_EDOM);
    EXPECT(in.topology.nodes = 0, HWFIT_EDOM);
    EXPECT(in.topology.sockets = 3, HWFIT_EDOM);              /* 8 GPUs over 3 sockets */
    EXPECT(in.topology.sockets = 0, HWFIT_EDOM);
    EXPECT(in.topology.pcie_switches = 3, HWFIT_EDOM);
    EXPECT((in.topology.gpus_per_node = 12, in.topology.sockets = 4,
            in.topology.pcie_switches = 6),
           HWFIT_EDOM); /* more switches than sockets, not a multiple of them */
    EXPECT(in.topology.gpu_pcie_gen = 7, HWFIT_EDOM);
    EXPECT(in.topology.gpu_pcie_lanes = 12, HWFIT_EDOM);
    EXPECT((in.topology.pcie_switches = 2, in.topology.switch_uplink_lanes = 0), HWFIT_EDOM);
    EXPECT(in.topology.socket_link_kind = HWFIT_LINK_PCIE, HWFIT_EDOM);
    EXPECT(in.topology.socket_links = 0, HWFIT_EDOM);
    EXPECT(in.topology.host_memory_bytes_per_s = NAN, HWFIT_EDOM);
    EXPECT(in.topology.pcie_efficiency = 0, HWFIT_EDOM);
    EXPECT(in.topology.shm_efficiency = 1.5, HWFIT_EDOM);
    EXPECT(in.topology.nic_efficiency = NAN, HWFIT_EDOM);
    EXPECT(in.topology.shm_step_latency_s = -1e-6, HWFIT_EDOM);
    EXPECT(in.topology.net_overhead_s = INFINITY, HWFIT_EDOM);
    EXPECT(in.topology.compute_capability = 5000, HWFIT_EDOM);
    EXPECT(in.topology.peer_link = HWFIT_GPU_PEER_NVLINK, HWFIT_EDOM); /* no rate, no topology */
    EXPECT(in.topology.nodes = 2, HWFIT_EDOM);                          /* no NICs */
    EXPECT((in.topology.nodes = 2, in.topology.nics_per_node = 1,
            in.topology.nic_bits_per_s = 300e9), HWFIT_EDOM);
    EXPECT((in.topology.nodes = 2, in.topology.nics_per_node = 1,
            in.topology.nic_kind = HWFIT_NIC_INFINIBAND, in.topology.nic_bits_per_s = 25e9),
           HWFIT_EDOM);
    EXPECT((in.topology.nodes = 2, in.topology.nics_per_node = 1, in.topology.nic_mtu_bytes = 64),
           HWFIT_EDOM);
    EXPECT(in.algorithm = HWFIT_COLLECTIVE_ALGO_NVLS, HWFIT_EUNSUPPORTED);
    EXPECT(in.protocol = HWFIT_COLLECTIVE_PROTO_LL128, HWFIT_EUNSUPPORTED);
#undef EXPECT
    hwfit_collective_init(&in);
    cr_assert_eq(hwfit_collective_estimate(NULL, &o), HWFIT_EINVAL);
    cr_assert_eq(hwfit_collective_estimate(&in, NULL), HWFIT_EINVAL);
    hwfit_collective_init(NULL);
    hwfit_topology_init(NULL);
}

Test(collective, nic_strings_and_gpu_copy) {
    hwfit_topology t;
    hwfit_topology_init(&t);
    cr_assert_eq(hwfit_topology_parse_nic("8x400g-ib", &t), HWFIT_OK);
    cr_assert_eq(t.nics_per_node, 8);
    cr_assert_eq(t.nic_kind, HWFIT_NIC_INFINIBAND);
    cr_assert_eq(t.nic_bits_per_s, 400e9);
    cr_assert_eq(hwfit_topology_parse_nic("2x400g-roce", &t), HWFIT_OK);
    cr_assert_eq(t.nic_kind, HWFIT_NIC_ROCE);
    cr_assert_eq(t.nics_per_node, 2);
    cr_assert_eq(hwfit_topology_parse_nic("100g-tcp", &t), HWFIT_OK);
    cr_assert_eq(t.nic_kind, HWFIT_NIC_TCP);
    cr_assert_eq(t.nics_per_node, 1);
    /* AWS EFA: Ethernet speeds, its own kind. */
    cr_assert_eq(hwfit_topology_parse_nic("4x100g-efa", &t), HWFIT_OK);
    cr_assert_eq(t.nic_kind, HWFIT_NIC_EFA);
    cr_assert_eq(t.nics_per_node, 4);
    cr_assert_eq(t.nic_bits_per_s, 100e9);
    cr_assert_eq(hwfit_topology_parse_nic("100g-tcp", &t), HWFIT_OK);
    hwfit_topology before = t;
    cr_assert_eq(hwfit_topology_parse_nic("400g-ib-efa", &t), HWFIT_EPARSE);
    cr_assert_eq(hwfit_topology_parse_nic("-efa", &t), HWFIT_EPARSE);
    cr_assert_eq(hwfit_topology_parse_nic("4x300g-efa", &t), HWFIT_EDOM);
    cr_assert_eq(hwfit_topology_parse_nic("pcie5x16", &t), HWFIT_EPARSE);
    cr_assert_eq(hwfit_topology_parse_nic("400g", &t), HWFIT_EPARSE);
    cr_assert_eq(hwfit_topology_parse_nic("300g-ib", &t), HWFIT_EDOM);
    cr_assert_eq(hwfit_topology_parse_nic(NULL, &t), HWFIT_EINVAL);
    cr_assert(memcmp(&t, &before, sizeof t) == 0);
    cr_assert_eq(hwfit_topology_parse_nic("400g-ib", NULL), HWFIT_EINVAL);
    /* set_gpu copies the catalog's links; GB200 has no PCIe host link so PCIe is kept. */
    const hwfit_gpu *g;
    cr_assert_eq(hwfit_gpu_find("gb200", &g), HWFIT_OK);
    cr_assert_eq(hwfit_topology_set_gpu(&t, g), HWFIT_OK);
    cr_assert_eq(t.gpu_pcie_gen, 5);
    cr_assert_eq(t.peer_domain_gpus, 72);
    cr_assert_eq(t.peer_bytes_per_s, 900e9);
    cr_assert_eq(hwfit_topology_set_gpu(NULL, g), HWFIT_EINVAL);
    cr_assert_eq(hwfit_topology_set_gpu(&t, NULL), HWFIT_EINVAL);
    /* set_cpu: NCCL's network overhead is 1 us on Intel, 2 us on AMD; UPI on Intel. */
    cr_assert_eq(hwfit_topology_set_cpu(&t, HWFIT_CPU_INTEL), HWFIT_OK);
    cr_assert_eq(t.socket_link_kind, HWFIT_LINK_UPI);
    cr_assert_eq(t.net_overhead_s, 1e-6);
    cr_assert_eq(hwfit_topology_set_cpu(&t, HWFIT_CPU_AMD), HWFIT_OK);
    cr_assert_eq(t.socket_link_kind, HWFIT_LINK_XGMI);
    cr_assert_eq(t.net_overhead_s, 2e-6);
    before = t;
    cr_assert_eq(hwfit_topology_set_cpu(&t, (hwfit_cpu_vendor)7), HWFIT_EINVAL);
    cr_assert(memcmp(&t, &before, sizeof t) == 0);
    cr_assert_eq(hwfit_topology_set_cpu(NULL, HWFIT_CPU_AMD), HWFIT_EINVAL);
}

Test(collective, names_round_trip) {
    for (int i = 0; i <= HWFIT_COLLECTIVE_SENDRECV; i++) {
        hwfit_collective_op op = (hwfit_collective_op)-1;
        cr_assert_eq(hwfit_collective_op_from_name(hwfit_collective_op_name((hwfit_collective_op)i), &op),
                     HWFIT_OK);
        cr_assert_eq((int)op, i);
    }
    for (int i = 0; i <= HWFIT_COLLECTIVE_ALGO_HIERARCHICAL; i++) {
        hwfit_collective_algorithm a;
        cr_assert_eq(hwfit_collective_algorithm_from_name(
                         hwfit_collective_algorithm_name((hwfit_collective_algorithm)i), &a),
                     HWFIT_OK);
        cr_assert_eq((int)a, i);
    }
    for (int i = 0; i <= HWFIT_COLLECTIVE_PROTO_SIMPLE; i++) {
        hwfit_collective_protocol p;
        cr_assert_eq(hwfit_collective_protocol_from_name(
                         hwfit_collective_protocol_name((hwfit_collective_protocol)i), &p),
                     HWFIT_OK);
        cr_assert_eq((int)p, i);
    }
    hwfit_collective_op op = HWFIT_COLLECTIVE_ALLGATHER;
    cr_assert_eq(hwfit_collective_op_from_name("All_Reduce", &op), HWFIT_OK);
    cr_assert_eq(op, HWFIT_COLLECTIVE_ALLREDUCE);
    cr_assert_eq(hwfit_collective_op_from_name("all-to-all", &op), HWFIT_OK);
    cr_assert_eq(op, HWFIT_COLLECTIVE_ALLTOALL);
    cr_assert_eq(hwfit_collective_op_from_name("gather", &op), HWFIT_ENOTFOUND);
    cr_assert_eq(op, HWFIT_COLLECTIVE_ALLTOALL);
    cr_assert_eq(hwfit_collective_op_from_name(NULL, &op), HWFIT_EINVAL);
    cr_assert_eq(hwfit_collective_op_from_name("allreduce", NULL), HWFIT_EINVAL);
    hwfit_collective_algorithm a;
    cr_assert_eq(hwfit_collective_algorithm_from_name("butterfly", &a), HWFIT_ENOTFOUND);
    cr_assert_eq(hwfit_collective_algorithm_from_name(NULL, &a), HWFIT_EINVAL);
    hwfit_collective_protocol p;
    cr_assert_eq(hwfit_collective_protocol_from_name("ll64", &p), HWFIT_ENOTFOUND);
    cr_assert_eq(hwfit_collective_protocol_from_name("ll", NULL), HWFIT_EINVAL);
    cr_assert_str_eq(hwfit_collective_bottleneck_name(HWFIT_COLLECTIVE_BOUND_SOCKET_LINK),
                     "socket-link");
    cr_assert_str_eq(hwfit_collective_bottleneck_name((hwfit_collective_bottleneck)99), "unknown");
    cr_assert_str_eq(hwfit_collective_op_name((hwfit_collective_op)99), "unknown");
    cr_assert_str_eq(hwfit_collective_algorithm_name((hwfit_collective_algorithm)99), "unknown");
    cr_assert_str_eq(hwfit_collective_protocol_name((hwfit_collective_protocol)99), "unknown");
}

/* AWS p4dn.24xlarge: 8 A100 SXM4 40GB on NVSwitch, 4 x 100 Gb/s EFA; nccl-tests all-reduce
 * at 1 GiB on 2, 3 and 4 nodes: busbw 57.17, 31.77, 29.61 GB/s (NVIDIA/nccl#527, comment by
 * taruntandon88, 2022-07-25). The 2-node figure is above the 50 GB/s line rate: NCCL's tree
 * moves half the ring's volume between 2 nodes (NVIDIA/nccl-tests#22, AddyLaddy). */
static hwfit_collective_in box_p4dn(uint64_t nodes, const char *nic) {
    hwfit_collective_in in = box_hgx("a100-sxm-40gb", (double)HWFIT_GIBI);
    in.topology.nodes = nodes;
    cr_assert_eq(hwfit_topology_parse_nic(nic, &in.topology), HWFIT_OK);
    return in;
}

Test(collective, efa_and_the_two_node_tree) {
    const double measured[] = {57.17, 31.77, 29.61};
    for (uint64_t n = 2; n <= 4; n++) {
        double b = busbw_gbps(box_p4dn(n, "4x100g-efa"));
        cr_log_info("p4dn %lu nodes: measured %.2f predicted %.2f GB/s", (unsigned long)n,
                    measured[n - 2], b);
        cr_expect(fabs(b / measured[n - 2] - 1.0) < 0.10, "%lu nodes: %.2f GB/s",
                  (unsigned long)n, b);
    }
    /* EFA is RoCE of the same speed times efa_efficiency wherever the NICs bound it. */
    hwfit_collective_in efa = box_p4dn(3, "4x100g-efa"), roce = box_p4dn(3, "4x100g-roce");
    hwfit_collective_out oe = estimate(&efa), orc = estimate(&roce);
    cr_assert_eq(oe.bottleneck, HWFIT_COLLECTIVE_BOUND_NIC);
    cr_assert_eq(orc.bottleneck, HWFIT_COLLECTIVE_BOUND_NIC);
    cr_expect(fabs(oe.busbw_bytes_per_s / orc.busbw_bytes_per_s - 0.65) < 0.01, "%.3f",
              oe.busbw_bytes_per_s / orc.busbw_bytes_per_s);
    efa.topology.efa_efficiency = 0.5;
    cr_expect(estimate(&efa).busbw_bytes_per_s < oe.busbw_bytes_per_s);
    /* The efficiency applies to EFA only. */
    roce.topology.efa_efficiency = 0.5;
    cr_expect_eq(estimate(&roce).busbw_bytes_per_s, orc.busbw_bytes_per_s);
    /* The tree on 2 nodes: S per node and direction, so busbw (2(p-1)/p S / t) reaches
     * 2(p-1)/p x the NIC rate x NCCL's 0.92; on 3 nodes about the ring's volume. */
    hwfit_collective_in two = box_p4dn(2, "4x100g-efa"), three = box_p4dn(3, "4x100g-efa");
    two.algorithm = three.algorithm = HWFIT_COLLECTIVE_ALGO_TREE;
    double t2 = busbw_gbps(two), t3 = busbw_gbps(three);
    cr_expect(t2 > 1.6 * t3, "tree: 2 nodes %.1f, 3 nodes %.1f GB/s", t2, t3);
    /* Refused: an efficiency outside (0, 1]. */
    hwfit_problem why;
    efa.topology.efa_efficiency = 0.0;
    cr_assert_eq(hwfit_collective_validate(&efa, &why), HWFIT_EDOM);
    cr_assert_str_eq(why.field, "topology.efa_efficiency");
}

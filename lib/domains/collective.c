/* collective.c - cost of collectives on a topology (collective.h).
 *
 * Bandwidth: every algorithm is a sequence of phases; a phase is a pattern of concurrent
 * flows (ring neighbours, recursive-halving partners, all pairs, NIC hops). Flows are
 * routed over the resources of one node (by symmetry every node loads its resources the
 * same way): GPU PCIe links, switch uplinks, socket links, host memory, GPU peer ports,
 * NICs. A phase takes max over resources of bytes / effective rate, and over flows of
 * bytes / the flow's own cap (one socket link per P2P flow, one peer link per partner).
 *
 * Latency: NCCL's model (src/graph/tuning.cc, v2.28.7-1, ncclTunerConstantsDefaults and
 * ncclTopoTuneModel): base latency per algorithm and protocol plus per-step hardware
 * latency for NVLink, PCI or the network.
 *
 * Sources for every constant and formula: docs/formulas.md, section collective.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit/collective.h"
#include "hwfit/gpu.h"
#include "hwfit/link.h"
#include "hwfit/status.h"
#include "hwfit/topology.h"
#include "hwfit/units.h"

#include "base/checked.h"
#include "base/internal.h"
#include "catalogs/link_internal.h"
#include "domains/collective_internal.h"

#define MAXG HWFIT_TOPOLOGY_MAX_GPUS_PER_NODE
#define MAXS 8
#define GB 1e9
#define US 1e-6

/* ---- NCCL constants (v2.28.7-1, src/graph/tuning.cc) --------------------------------- */

enum { P_LL = 0, P_LL128 = 1, P_SIMPLE = 2 };
enum { A_TREE = 0, A_RING = 1, A_NVLS = 2 };
enum { HW_NVLINK = 0, HW_PCI = 1, HW_NET = 2 };

/* baseLatencies[algo][proto], us: Tree, Ring, NVLS. */
static const double base_lat[3][3] = {{6.8, 14.0, 8.4}, {6.6, 14.0, 8.4}, {0, 0, 0}};
/* hwLatencies[hw][algo][proto], us. */
static const double hw_lat[3][3][3] = {
    /* NVLINK */ {{0.6, 1.25, 4.0}, {0.6, 1.9, 3.4}, {0, 0, 25}},
    /* PCI    */ {{1.0, 1.9, 4.0}, {1.0, 2.5, 5.7}, {0, 0, 0}},
    /* NET    */ {{5.0, 8.5, 14}, {2.7, 4.0, 14.0}, {0, 0, 18}},
};
/* llMaxBws[index1][index2], GB/s: index1 = GPU generation on one node (Volta, Ampere,
 * Hopper, Blackwell) or CPU vendor row across nodes (0 Intel, 1 AMD); index2 = nodes 1,
 * 2, 4+. */
static const double ll_max_bw[4][3] = {
    {39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {141.0, 45.0, 35.0}, {282.0, 90.0, 70.0}};
/* treeCorrectionFactor[proto][log2(bytes / 64)], 64 B to 256 MiB. */
static const double tree_corr[3][24] = {
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0,
     1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9,
     1.0, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9,
     .9},
};
#define RING_LL_BW_FACTOR 0.5        /* Ring LL: busBw * 0.5 */
#define LL128_BW_FACTOR 0.92         /* Ring LL128: busBw * 0.92 */
#define TREE_SIMPLE_BW_FACTOR 0.92   /* Tree AllReduce: busBw * 0.92 */
#define TREE_LL_BW_DIVISOR 3.8       /* Tree LL: busBw / 3.8 */
#define TREE_LL128_1NODE (7.0 / 9.0) /* Tree LL128 on one node */
#define TREE_LL128_NODES (120.0 / 128.0)
#define INTEL_P2P_FACTOR 1.2         /* topo: Intel CPUs turn P2P into 64-B TLPs, bw * 6/5 */
#define RING_PLATEAU_BYTES_PER_RANK 4096.0 /* nBytes >= nRanks/16 * 64 KiB */

/* ---- derived topology ----------------------------------------------------------------- */

typedef struct net {
    const hwfit_topology *t;
    uint64_t G, gps, K, gpk, D; /* GPUs/node, per socket, switches, per switch, peer domain */
    int uneven;                 /* switches hold pcie_switch_gpus[k] GPUs each */
    double bgpu, bup, bpeer, sock_single, sock_total, mem, nic; /* effective rates, bytes/s */
    int gdr;
} net;

typedef struct comm {
    uint64_t p, q, n; /* ranks, ranks per node, nodes */
} comm;

typedef struct loads {
    double gpu_up[MAXG], gpu_dn[MAXG], peer_up[MAXG], peer_dn[MAXG];
    double sw_up[MAXG], sw_dn[MAXG], sock[MAXS][MAXS], mem[MAXS];
    double nic_up, nic_dn;
    double flow_s; /* slowest single flow, s */
    hwfit_collective_bottleneck flow_bound;
    double flow_rate;
} loads;

typedef struct phase {
    double time_s;
    hwfit_collective_bottleneck bound;
    double rate; /* effective rate of the bounding resource */
} phase;

static double line_rate(hwfit_link_kind kind, uint32_t gen, uint32_t width, int *ok) {
    hwfit_link_in l;
    hwfit_link_out o;
    hwfit_link_init(&l);
    l.kind = kind;
    l.generation = gen;
    l.width = width;
    if (hwfit__link_rate(&l, &o) != HWFIT_OK) {
        *ok = 0;
        return 0.0;
    }
    return o.line_bytes_per_s;
}

static int eff_ok(double e) { return hwfit__in_range(e, 1e-6, 1.0); }
static int mode_ok(hwfit_topology_mode m) { return (unsigned)m <= (unsigned)HWFIT_TOPOLOGY_OFF; }

#define BAD(field, rule) return hwfit__why(why, HWFIT_EDOM, "topology." field, (rule))
#define ENUM(field) return hwfit__why(why, HWFIT_EINVAL, "topology." field, HWFIT__ENUM)
#define EFF_RULE "must be a share in [1e-6, 1]"

/* Validate the topology and derive rates. */
static hwfit_status net_setup(const hwfit_topology *t, net *nt, hwfit_problem *why) {
    memset(nt, 0, sizeof *nt);
    nt->t = t;
    if ((unsigned)t->peer_link > (unsigned)HWFIT_GPU_PEER_XGMI) ENUM("peer_link");
    if ((unsigned)t->peer_topology > (unsigned)HWFIT_GPU_PEER_TOPOLOGY_MESH) ENUM("peer_topology");
    if ((unsigned)t->cpu_vendor > (unsigned)HWFIT_CPU_ARM) ENUM("cpu_vendor");
    if ((unsigned)t->nic_kind > (unsigned)HWFIT_NIC_EFA) ENUM("nic_kind");
    if (!mode_ok(t->p2p)) ENUM("p2p");
    if ((unsigned)t->p2p_level > (unsigned)HWFIT_P2P_LEVEL_SYS) ENUM("p2p_level");
    if (!mode_ok(t->gpudirect_rdma)) ENUM("gpudirect_rdma");
    if ((unsigned)t->socket_link_kind > (unsigned)HWFIT_LINK_UPI) ENUM("socket_link_kind");
    if (t->gpus_per_node < 1 || t->gpus_per_node > MAXG) BAD("gpus_per_node", "must be in [1, 128]");
    if (t->nodes < 1 || t->nodes > HWFIT_TOPOLOGY_MAX_NODES) BAD("nodes", "must be in [1, 65536]");
    if (t->sockets < 1 || t->sockets > MAXS) BAD("sockets", "must be in [1, 8]");
    if (t->gpus_per_node % t->sockets != 0)
        BAD("sockets", "must divide the GPUs per node (gpus_per_node)");
    int uneven = 0;
    for (size_t k = 0; k < HWFIT_TOPOLOGY_MAX_SWITCH_LIST; k++)
        if (t->pcie_switch_gpus[k] != 0) uneven = 1;
    if (uneven) {
        if (t->pcie_switches < 1 || t->pcie_switches > HWFIT_TOPOLOGY_MAX_SWITCH_LIST)
            BAD("pcie_switches", "must be 1-8 when pcie_switch_gpus lists each switch's GPUs");
        uint64_t sum = 0;
        for (size_t k = 0; k < HWFIT_TOPOLOGY_MAX_SWITCH_LIST; k++) {
            if (k < t->pcie_switches && t->pcie_switch_gpus[k] == 0)
                BAD("pcie_switch_gpus", "every listed switch must hold at least 1 GPU");
            if (k >= t->pcie_switches && t->pcie_switch_gpus[k] != 0)
                BAD("pcie_switch_gpus", "must list exactly pcie_switches switches (the rest 0)");
            sum += t->pcie_switch_gpus[k];
        }
        if (sum != t->gpus_per_node)
            BAD("pcie_switch_gpus", "must sum to the GPUs per node (gpus_per_node)");
    } else if (t->pcie_switches > 0 &&
        (t->gpus_per_node % t->pcie_switches != 0 ||
         (t->pcie_switches % t->sockets != 0 && t->pcie_switches > t->sockets)))
        BAD("pcie_switches", "must divide the GPUs per node and be a multiple of the sockets "
                             "or fewer than them");
    if (t->compute_capability > 1000) BAD("compute_capability", "must be at most 1000");
    if (!eff_ok(t->pcie_efficiency)) BAD("pcie_efficiency", EFF_RULE);
    if (!eff_ok(t->shm_efficiency)) BAD("shm_efficiency", EFF_RULE);
    if (!eff_ok(t->host_memory_efficiency)) BAD("host_memory_efficiency", EFF_RULE);
    if (!eff_ok(t->socket_link_efficiency)) BAD("socket_link_efficiency", EFF_RULE);
    if (!eff_ok(t->peer_efficiency)) BAD("peer_efficiency", EFF_RULE);
    if (!eff_ok(t->nvls_efficiency)) BAD("nvls_efficiency", EFF_RULE);
    if (!eff_ok(t->nic_efficiency)) BAD("nic_efficiency", EFF_RULE);
    if (!eff_ok(t->efa_efficiency)) BAD("efa_efficiency", EFF_RULE);
    if (!hwfit__in_range(t->shm_step_latency_s, 0.0, 1.0))
        BAD("shm_step_latency_s", "must be a number of seconds in [0, 1]");
    if (!hwfit__in_range(t->net_overhead_s, 0.0, 1.0))
        BAD("net_overhead_s", "must be a number of seconds in [0, 1]");
    if (!hwfit__in_range(t->host_memory_bytes_per_s, 1e6, 1e15))
        BAD("host_memory_bytes_per_s", "must be a number of bytes/s in [1e6, 1e15]");
    /* Numbers used only with a peer link or across nodes are still checked always. */
    if (!hwfit__in_range(t->peer_bytes_per_s, 0.0, 1e15))
        BAD("peer_bytes_per_s", "must be a number of bytes/s in [0, 1e15]");
    if (!hwfit__in_range(t->nic_bits_per_s, 0.0, 1e16))
        BAD("nic_bits_per_s", "must be a number of bits/s in [0, 1e16]");
    if (!hwfit__in_range(t->nic_mtu_bytes, 0.0, 1e6))
        BAD("nic_mtu_bytes", "must be 0 (the transport's default) or a number of bytes");
    nt->G = t->gpus_per_node;
    nt->gps = t->gpus_per_node / t->sockets;
    nt->K = t->pcie_switches;
    nt->gpk = nt->K ? nt->G / nt->K : 0;
    nt->uneven = uneven;
    int ok = 1;
    if (t->gpu_pcie_gen < 1 || t->gpu_pcie_gen > 6) BAD("gpu_pcie_gen", "must be 1-6");
    nt->bgpu = line_rate(HWFIT_LINK_PCIE, t->gpu_pcie_gen, t->gpu_pcie_lanes, &ok) *
               t->pcie_efficiency;
    if (!ok) BAD("gpu_pcie_lanes", "must be 1, 2, 4, 8 or 16 lanes");
    nt->bup = nt->K ? line_rate(HWFIT_LINK_PCIE, t->gpu_pcie_gen, t->switch_uplink_lanes, &ok) *
                          t->pcie_efficiency
                    : 0.0;
    if (!ok) BAD("switch_uplink_lanes", "must be 1, 2, 4, 8 or 16 lanes");
    if (t->sockets > 1) {
        if (t->socket_link_kind != HWFIT_LINK_XGMI && t->socket_link_kind != HWFIT_LINK_UPI)
            BAD("socket_link_kind", "must be HWFIT_LINK_XGMI or HWFIT_LINK_UPI");
        if (t->socket_links < 1 || t->socket_links > 8) BAD("socket_links", "must be in [1, 8]");
        nt->sock_single = line_rate(t->socket_link_kind, t->socket_link_generation, 1, &ok) *
                          t->socket_link_efficiency;
        if (!ok) BAD("socket_link_generation", "must be 3 for xGMI or 1-3 for UPI");
        nt->sock_total = nt->sock_single * t->socket_links;
    }
    nt->mem = t->host_memory_bytes_per_s * t->host_memory_efficiency;
    if (t->peer_link != HWFIT_GPU_PEER_NONE) {
        if (t->peer_topology == HWFIT_GPU_PEER_TOPOLOGY_NONE)
            BAD("peer_topology", "must be set when there is a peer link");
        if (t->peer_links < 1) BAD("peer_links", "must be at least 1 with a peer link");
        if (t->peer_domain_gpus < 2) BAD("peer_domain_gpus", "must be at least 2 with a peer link");
        if (!hwfit__in_range(t->peer_bytes_per_s, 1e6, 1e15))
            BAD("peer_bytes_per_s", "must be a number of bytes/s in [1e6, 1e15] with a peer link");
        nt->D = t->peer_domain_gpus < nt->G ? t->peer_domain_gpus : nt->G;
        nt->bpeer = t->peer_bytes_per_s * t->peer_efficiency;
    }
    /* NICs are checked when a communicator spans nodes (collective_setup). */
    nt->gdr = t->gpudirect_rdma == HWFIT_TOPOLOGY_ON ||
              (t->gpudirect_rdma == HWFIT_TOPOLOGY_AUTO &&
               (t->pcie_switches > 0 || t->peer_topology == HWFIT_GPU_PEER_TOPOLOGY_SWITCH));
    if (t->nic_kind == HWFIT_NIC_TCP) nt->gdr = 0;
    return HWFIT_OK;
}

static hwfit_status nic_setup(net *nt, hwfit_problem *why) {
    const hwfit_topology *t = nt->t;
    if (t->nics_per_node < 1 || t->nics_per_node > 64)
        BAD("nics_per_node", "must be in [1, 64]: a communicator across nodes needs NICs");
    hwfit_link_in l;
    hwfit_link_out o;
    hwfit_link_init(&l);
    l.width = 1;
    l.payload_bytes = t->nic_mtu_bytes;
    if (t->nic_kind == HWFIT_NIC_INFINIBAND) {
        l.kind = HWFIT_LINK_INFINIBAND;
        if (t->nic_bits_per_s == 100e9) l.generation = HWFIT_LINK_IB_EDR;
        else if (t->nic_bits_per_s == 200e9) l.generation = HWFIT_LINK_IB_HDR;
        else if (t->nic_bits_per_s == 400e9) l.generation = HWFIT_LINK_IB_NDR;
        else if (t->nic_bits_per_s == 800e9) l.generation = HWFIT_LINK_IB_XDR;
        else BAD("nic_bits_per_s", "must be 100, 200, 400 or 800 Gb/s for InfiniBand");
    } else {
        l.kind = HWFIT_LINK_ETHERNET;
        l.port_bits_per_s = t->nic_bits_per_s;
        l.transport = t->nic_kind == HWFIT_NIC_TCP ? HWFIT_LINK_TRANSPORT_TCP
                                                   : HWFIT_LINK_TRANSPORT_ROCEV2;
    }
    if (hwfit__link_rate(&l, &o) != HWFIT_OK) {
        hwfit_problem lp;
        (void)hwfit_link_validate(&l, &lp);
        if (strcmp(lp.field, "port_bits_per_s") == 0)
            BAD("nic_bits_per_s", "must be an Ethernet speed: 10-800 Gb/s (10, 25, 40, 50, "
                                  "100, 200, 400, 800)");
        BAD("nic_mtu_bytes", "must be 0 (default) or an MTU the transport allows (IB/RoCE "
                             "256-4096, TCP 576-9216)");
    }
    nt->nic = o.payload_bytes_per_s * (double)t->nics_per_node * t->nic_efficiency;
    /* EFA: SRD through libfabric and aws-ofi-nccl reaches a share of the RoCE-equivalent
     * rate (topology.h, efa_efficiency; NVIDIA/nccl#527, NVIDIA/nccl-tests#22). */
    if (t->nic_kind == HWFIT_NIC_EFA) nt->nic *= t->efa_efficiency;
    return HWFIT_OK;
}

/* ---- routing one flow ------------------------------------------------------------------ */

/* The socket of local GPU i: i / (GPUs per socket); with fewer switches than sockets (e.g.
 * one switch holding every GPU of a two-socket box) switch k hangs off socket k and the
 * other sockets hold no GPUs. */
static uint64_t sw_of(const net *nt, uint64_t i) {
    if (!nt->K) return 0;
    if (!nt->uneven) return i / nt->gpk;
    /* Uneven switches: GPUs fill switch 0, then switch 1, ... in order. */
    uint64_t k = 0, end = nt->t->pcie_switch_gpus[0];
    while (i >= end && k + 1 < nt->K) end += nt->t->pcie_switch_gpus[++k];
    return k;
}
static uint64_t sock_of(const net *nt, uint64_t i) {
    if (nt->K > 0 && nt->K < nt->t->sockets) return sw_of(nt, i);
    /* Uneven switches: switch k on socket k S / K (the even split's rule, K a multiple of
     * S, written for any K >= S). */
    if (nt->uneven) return sw_of(nt, i) * nt->t->sockets / nt->K;
    return i / nt->gps;
}

static int peer_pair(const net *nt, uint64_t i, uint64_t j) {
    return nt->D >= 2 && i / nt->D == j / nt->D;
}

/* NCCL's P2P policy (src/graph/paths.cc, ncclTopoCheckP2p): P2P when the pair's path is
 * no farther than p2pLevel; by default PATH_PXB (same PCIe switch), and PATH_SYS on AMD
 * x86 with at most 2 GPUs; NCCL_P2P_LEVEL overrides the level (PHB: same CPU socket,
 * SYS: everywhere, LOC: never); never when the driver has no P2P. */
static int p2p_pair(const net *nt, uint64_t i, uint64_t j) {
    const hwfit_topology *t = nt->t;
    if (t->p2p == HWFIT_TOPOLOGY_ON) return 1;
    if (t->p2p == HWFIT_TOPOLOGY_OFF || !t->gpu_p2p_capable) return 0;
    hwfit_p2p_level lv = t->p2p_level;
    if (lv == HWFIT_P2P_LEVEL_DEFAULT)
        lv = t->cpu_vendor == HWFIT_CPU_AMD && nt->G <= 2 ? HWFIT_P2P_LEVEL_SYS
                                                          : HWFIT_P2P_LEVEL_PXB;
    if (lv == HWFIT_P2P_LEVEL_LOC) return 0;
    if (lv == HWFIT_P2P_LEVEL_SYS) return 1;
    if (nt->K > 0 && sw_of(nt, i) == sw_of(nt, j)) return 1;
    return lv == HWFIT_P2P_LEVEL_PHB && sock_of(nt, i) == sock_of(nt, j);
}

static void flow_cap(loads *ld, double bytes, double rate, hwfit_collective_bottleneck b) {
    if (rate <= 0.0) return;
    double s = bytes / rate;
    if (s > ld->flow_s) {
        ld->flow_s = s;
        ld->flow_bound = b;
        ld->flow_rate = rate;
    }
}

/* A flow of b bytes from local GPU i to local GPU j (same node). `spread`: the flow stands
 * for many rings over different peer links (ring and chain patterns). */
static void flow_local(const net *nt, const comm *c, loads *ld, uint64_t i, uint64_t j,
                       double b, int spread) {
    const hwfit_topology *t = nt->t;
    if (peer_pair(nt, i, j)) {
        ld->peer_up[i] += b;
        ld->peer_dn[j] += b;
        if (t->peer_topology != HWFIT_GPU_PEER_TOPOLOGY_SWITCH) {
            /* One link bundle per partner; rings can use every partner in the domain. */
            double partners = (double)(nt->D - 1);
            uint64_t in_dom = c->q < nt->D ? c->q : nt->D;
            double usable = spread ? (double)(in_dom - 1) : 1.0;
            flow_cap(ld, b, nt->bpeer * usable / partners, HWFIT_COLLECTIVE_BOUND_PEER_LINK);
        }
        return;
    }
    uint64_t si = sock_of(nt, i), sj = sock_of(nt, j);
    if (p2p_pair(nt, i, j)) {
        int via_cpu = nt->K == 0 || sw_of(nt, i) != sw_of(nt, j);
        double w = via_cpu && t->cpu_vendor == HWFIT_CPU_INTEL ? INTEL_P2P_FACTOR : 1.0;
        ld->gpu_up[i] += b * w;
        ld->gpu_dn[j] += b * w;
        if (nt->K > 0 && sw_of(nt, i) != sw_of(nt, j)) {
            ld->sw_up[sw_of(nt, i)] += b * w;
            ld->sw_dn[sw_of(nt, j)] += b * w;
        }
        if (si != sj) {
            ld->sock[si][sj] += b;
            flow_cap(ld, b, nt->sock_single, HWFIT_COLLECTIVE_BOUND_SOCKET_LINK);
        }
    } else {
        /* Staged through host memory (NCCL SHM): written by i, read by j; the buffer is
         * in j's socket; cache-coherent traffic spreads over all socket links. The staged
         * copy runs at shm_efficiency of the PCIe rate on every PCIe link it crosses: the
         * GPU's own link and, behind a switch, the switch's uplink to the CPU (the same
         * transactions pass both). */
        ld->gpu_up[i] += b / t->shm_efficiency;
        ld->gpu_dn[j] += b / t->shm_efficiency;
        if (nt->K > 0) {
            ld->sw_up[sw_of(nt, i)] += b / t->shm_efficiency;
            ld->sw_dn[sw_of(nt, j)] += b / t->shm_efficiency;
        }
        ld->mem[sj] += 2.0 * b;
        if (si != sj) ld->sock[si][sj] += b;
    }
}

/* b bytes leaving local GPU i for another node, or arriving at it (dir 1 out, 0 in). */
static void flow_net(const net *nt, loads *ld, uint64_t i, double b, int out) {
    if (out) ld->nic_up += b;
    else ld->nic_dn += b;
    double *gpu = out ? ld->gpu_up : ld->gpu_dn;
    double *sw = out ? ld->sw_up : ld->sw_dn;
    if (nt->gdr) {
        gpu[i] += b; /* the NIC shares the GPU's PCIe switch */
    } else {
        gpu[i] += b / nt->t->shm_efficiency;
        if (nt->K > 0) sw[sw_of(nt, i)] += b / nt->t->shm_efficiency; /* as flow_local */
        ld->mem[sock_of(nt, i)] += 2.0 * b; /* GPU and NIC both touch host memory */
    }
}

/* Zero the loads of the node's G GPUs, K switches and S sockets: the only entries flows
 * write and loads_time reads (clearing the whole table, sized for 128 GPUs, would cost
 * more than routing the flows). */
static void loads_clear(const net *nt, loads *ld) {
    size_t g = (size_t)nt->G * sizeof(double), k = (size_t)nt->K * sizeof(double);
    size_t s = (size_t)nt->t->sockets;
    memset(ld->gpu_up, 0, g);
    memset(ld->gpu_dn, 0, g);
    memset(ld->peer_up, 0, g);
    memset(ld->peer_dn, 0, g);
    memset(ld->sw_up, 0, k);
    memset(ld->sw_dn, 0, k);
    for (size_t a = 0; a < s; a++) memset(ld->sock[a], 0, s * sizeof(double));
    memset(ld->mem, 0, s * sizeof(double));
    ld->nic_up = ld->nic_dn = 0.0;
    ld->flow_s = 0.0;
    ld->flow_bound = HWFIT_COLLECTIVE_BOUND_LATENCY;
    ld->flow_rate = 0.0;
}

static void consider(phase *ph, double bytes, double rate, hwfit_collective_bottleneck b) {
    if (bytes <= 0.0 || rate <= 0.0) return;
    double s = bytes / rate;
    if (s > ph->time_s) {
        ph->time_s = s;
        ph->bound = b;
        ph->rate = rate;
    }
}

static phase loads_time(const net *nt, const loads *ld) {
    phase ph = {0.0, HWFIT_COLLECTIVE_BOUND_LATENCY, 0.0};
    for (uint64_t i = 0; i < nt->G; i++) {
        consider(&ph, ld->gpu_up[i], nt->bgpu, HWFIT_COLLECTIVE_BOUND_GPU_PCIE);
        consider(&ph, ld->gpu_dn[i], nt->bgpu, HWFIT_COLLECTIVE_BOUND_GPU_PCIE);
        consider(&ph, ld->peer_up[i], nt->bpeer, HWFIT_COLLECTIVE_BOUND_PEER_LINK);
        consider(&ph, ld->peer_dn[i], nt->bpeer, HWFIT_COLLECTIVE_BOUND_PEER_LINK);
    }
    for (uint64_t k = 0; k < nt->K; k++) {
        consider(&ph, ld->sw_up[k], nt->bup, HWFIT_COLLECTIVE_BOUND_SWITCH_UPLINK);
        consider(&ph, ld->sw_dn[k], nt->bup, HWFIT_COLLECTIVE_BOUND_SWITCH_UPLINK);
    }
    for (uint64_t a = 0; a < nt->t->sockets; a++) {
        consider(&ph, ld->mem[a], nt->mem, HWFIT_COLLECTIVE_BOUND_HOST_MEMORY);
        for (uint64_t b = 0; b < nt->t->sockets; b++)
            if (a != b)
                consider(&ph, ld->sock[a][b], nt->sock_total, HWFIT_COLLECTIVE_BOUND_SOCKET_LINK);
    }
    consider(&ph, ld->nic_up, nt->nic, HWFIT_COLLECTIVE_BOUND_NIC);
    consider(&ph, ld->nic_dn, nt->nic, HWFIT_COLLECTIVE_BOUND_NIC);
    if (ld->flow_s > ph.time_s) {
        ph.time_s = ld->flow_s;
        ph.bound = ld->flow_bound;
        ph.rate = ld->flow_rate;
    }
    return ph;
}

/* ---- patterns --------------------------------------------------------------------------- */

/* Channels that leave a node: one per NIC (NCCL builds rings per NIC rail), at most q. */
static uint64_t net_channels(const net *nt, const comm *c) {
    uint64_t m = nt->t->nics_per_node < c->q ? nt->t->nics_per_node : c->q;
    return m < 1 ? 1 : m;
}

/* Ring: every rank sends x bytes to the next. Across nodes there is one ring per NIC
 * rail: ring e enters each node at GPU e*q/m, visits the node's GPUs in order and leaves
 * from the GPU before its entry, so every GPU still sends and receives x in total. */
static phase pat_ring(const net *nt, const comm *c, loads *ld, double x) {
    loads_clear(nt, ld);
    if (c->n == 1) {
        for (uint64_t i = 0; i < c->q; i++) flow_local(nt, c, ld, i, (i + 1) % c->q, x, 1);
        return loads_time(nt, ld);
    }
    uint64_t m = net_channels(nt, c);
    double xc = x / (double)m;
    for (uint64_t e = 0; e < m; e++) {
        uint64_t a = e * (c->q / m);
        for (uint64_t j = 0; j + 1 < c->q; j++)
            flow_local(nt, c, ld, (a + j) % c->q, (a + j + 1) % c->q, xc, 1);
        flow_net(nt, ld, (a + c->q - 1) % c->q, xc, 1);
        flow_net(nt, ld, a, xc, 0);
    }
    return loads_time(nt, ld);
}

/* Tree all-reduce (NCCL): in each node a chain carrying x both ways (reduce up, broadcast
 * down), and y bytes per direction between nodes from the chain's head; one chain per
 * NIC rail as for rings. */
static phase pat_tree(const net *nt, const comm *c, loads *ld, double x, double y) {
    loads_clear(nt, ld);
    uint64_t m = c->n > 1 ? net_channels(nt, c) : 1;
    double xc = x / (double)m, yc = y / (double)m;
    for (uint64_t e = 0; e < m; e++) {
        uint64_t a = e * (c->q / m);
        for (uint64_t j = 0; j + 1 < c->q; j++) {
            uint64_t u = (a + j) % c->q, v = (a + j + 1) % c->q;
            flow_local(nt, c, ld, u, v, xc, 1);
            flow_local(nt, c, ld, v, u, xc, 1);
        }
        if (c->n > 1) {
            flow_net(nt, ld, a, yc, 1);
            flow_net(nt, ld, a, yc, 0);
        }
    }
    return loads_time(nt, ld);
}

/* Every rank exchanges x bytes with rank ^ d (ranks >= p have no partner). */
static phase pat_xor(const net *nt, const comm *c, loads *ld, uint64_t d, double x) {
    loads_clear(nt, ld);
    for (uint64_t i = 0; i < c->q; i++) {
        uint64_t partner = i ^ d;
        if (partner >= c->p) continue;
        if (partner < c->q) {
            flow_local(nt, c, ld, i, partner, x, 0);
        } else {
            flow_net(nt, ld, i, x, 1);
            flow_net(nt, ld, i, x, 0);
        }
    }
    return loads_time(nt, ld);
}

/* Every rank sends x bytes to rank + d (mod p). */
static phase pat_shift(const net *nt, const comm *c, loads *ld, uint64_t d, double x) {
    loads_clear(nt, ld);
    if (c->n == 1) {
        for (uint64_t i = 0; i < c->q; i++) flow_local(nt, c, ld, i, (i + d) % c->q, x, 0);
        return loads_time(nt, ld);
    }
    for (uint64_t i = 0; i < c->q; i++) {
        if (i + d < c->q) flow_local(nt, c, ld, i, i + d, x, 0);
        else flow_net(nt, ld, i, x, 1);
        if (i < d) flow_net(nt, ld, i, x, 0);
    }
    return loads_time(nt, ld);
}

/* Every rank sends b bytes to every other rank at once. Across nodes each rank sends
 * through one NIC, its rail (rank i on NIC i mod m): an all-to-all cannot spread one
 * rank's traffic over several NICs (sjeaugey, NVIDIA/nccl-tests#267), so with fewer
 * ranks per node than NICs the NICs left over carry nothing, and with more the busiest
 * NIC carries ceil(q/m) ranks' traffic. */
static phase pat_all_pairs(const net *nt, const comm *c, loads *ld, double b) {
    loads_clear(nt, ld);
    double remote = b * (double)(c->p - c->q);
    for (uint64_t i = 0; i < c->q; i++) {
        for (uint64_t j = 0; j < c->q; j++)
            if (i != j) flow_local(nt, c, ld, i, j, b, 0);
        if (c->n > 1) {
            flow_net(nt, ld, i, remote, 1);
            flow_net(nt, ld, i, remote, 0);
        }
    }
    if (c->n > 1 && nt->t->nics_per_node > 0) {
        uint64_t m = nt->t->nics_per_node;
        uint64_t per_nic = (c->q + m - 1) / m;
        flow_cap(ld, remote * (double)per_nic, nt->nic / (double)m,
                 HWFIT_COLLECTIVE_BOUND_NIC);
    }
    return loads_time(nt, ld);
}

/* Every GPU of the node exchanges x bytes with its peer of the same index on other nodes
 * (the inter-node step of the hierarchical all-reduce: one ring per GPU rail). */
static phase pat_rails(const net *nt, const comm *c, loads *ld, double x) {
    loads_clear(nt, ld);
    for (uint64_t i = 0; i < c->q; i++) {
        flow_net(nt, ld, i, x, 1);
        flow_net(nt, ld, i, x, 0);
    }
    return loads_time(nt, ld);
}

/* ---- helpers ------------------------------------------------------------------------ */

static int is_pow2(uint64_t x) { return x && !(x & (x - 1)); }

static uint64_t log2_floor(uint64_t x) {
    uint64_t l = 0;
    while (x > 1) x >>= 1, l++;
    return l;
}

static uint64_t log2_ceil(uint64_t x) {
    uint64_t l = log2_floor(x);
    return is_pow2(x) ? l : l + 1;
}

/* ---- algorithms ------------------------------------------------------------------------ */

/* Sum of phases; the bound is that of the longest phase. */
typedef struct bw_sum {
    double time_s, longest_s, rate;
    hwfit_collective_bottleneck bound;
} bw_sum;

typedef struct ctx {
    const hwfit_collective_in *in;
    net nt;
    comm c;
    loads ld;
    int intra_nvlink;   /* every intra-node ring hop is a peer (NVLink/xGMI) hop */
    double staged_frac; /* share of intra-node ring hops staged through host memory */
    int p2p_used;
    uint32_t graph_channels; /* NCCL's ring graph channels (search.cc), before its x2 */
    uint32_t channels;       /* channels the kernels run: 2 x graph, at least min_channels */
    /* The bandwidth terms of an algorithm do not depend on the protocol: algo_eval keeps
     * those of the last algorithm evaluated, and algo_simple skips the patterns (only
     * adding up latencies) while bw_known is set. */
    int memo_algo; /* algorithm of memo_bw, or -1 */
    bw_sum memo_bw;
    int bw_known;
} ctx;

static void sum_add(bw_sum *s, phase ph, double times) {
    s->time_s += ph.time_s * times;
    if (ph.time_s > s->longest_s) {
        s->longest_s = ph.time_s;
        s->bound = ph.bound;
        s->rate = ph.rate;
    }
}

/* Add a pattern's phase to bw unless the bandwidth terms are already known (ctx): the
 * pattern is then not even routed. */
#define ADD_BW(x, bw, pattern, times)                                                        \
    do {                                                                                     \
        if (!(x)->bw_known) sum_add((bw), (pattern), (times));                               \
    } while (0)

typedef struct result {
    double time_s, latency_s, bw_s, rate;
    hwfit_collective_bottleneck bound;
} result;

/* ---- NCCL's channel count (src/graph/search.cc, connect.cc, topo.h) -------------------
 * NCCL's topology search puts rings ("channels") over the node at a per-channel speed
 * from a fixed array, as many as the narrowest hop of the ring has room for, using its own
 * bandwidth figures per link (GB/s): NVLink links x a per-SM-generation rate, PCIe lanes x
 * GT/s / 80 (x 6/5 consumed on Intel for P2P through the CPU), and a fixed figure for the
 * inter-socket link. It then doubles channels of fast rings (ncclTopoDupChannels), doubles
 * them again for the two directions of its trees (ncclTopoPostset), and raises them to
 * NCCL_MIN_NCHANNELS. NCCL's per-channel bandwidth ceilings (tuning.cc) apply per graph
 * channel. */

/* ncclTopoNVLinkBw (topo.h): SM60 18, SM70/SM80 20, SM86 12, SM90 20.6, SM100+ 40.1. */
static double nccl_nvlink_gbps(uint32_t cc) {
    return cc >= 100 ? 40.1 : cc >= 90 ? 20.6 : cc == 86 ? 12.0 : cc >= 70 ? 20.0
         : cc >= 60 ? 18.0 : 20.0;
}
/* PCIe: lanes x speed / 80 with speed 15, 30, 60, 120, 240, 480 for Gen1-6 (topo.cc,
 * kvDictPciGen): 12 GB/s for Gen3 x16, 24 Gen4, 48 Gen5. */
static double nccl_pci_gbps(uint32_t gen, uint32_t lanes) {
    return (double)lanes * 15.0 * (double)((uint32_t)1 << (gen - 1)) / 80.0;
}
/* ncclTopoGetInterCpuBw (topo.cc, topo.h): AMD_BW 16; Intel SKL_QPI_BW 10 (UPI 1.0,
 * Skylake/Cascade Lake), SRP_QPI_BW 22 (Sapphire Rapids on, UPI 2.0 and 3.0: NCCL keeps
 * 40 for Emerald Rapids' model numbers only); ARM_BW 6. */
static double nccl_sys_gbps(const hwfit_topology *t) {
    if (t->cpu_vendor == HWFIT_CPU_AMD) return 16.0;
    if (t->cpu_vendor == HWFIT_CPU_ARM) return 6.0;
    return t->socket_link_generation <= 1 ? 10.0 : 22.0;
}

/* speedArrayIntra/Inter, sm90 and sm100 variants (search.cc), GB/s, fastest first. */
static const double speed_intra[] = {40.0, 30.0, 20.0, 18.0, 15.0, 12.0, 10.0, 9.0, 7.0, 6.0,
                                     5.0, 4.0, 3.0, 0.0};
static const double speed_inter[] = {48.0, 30.0, 28.0, 24.0, 20.0, 18.0, 15.0, 12.0, 10.0, 9.0,
                                     7.0, 6.0, 5.0, 4.0, 3.0, 2.4, 1.2, 0.24, 0.12, 0.0};
static const double speed_intra_90[] = {60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 11.0,
                                        6.0, 3.0, 0.0};
static const double speed_inter_90[] = {48.0, 45.0, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0, 17.5,
                                        15.0, 12.0, 6.0, 3.0, 2.4, 1.2, 0.24, 0.12, 0.0};
static const double speed_intra_100[] = {90.0, 80.0, 70.0, 60.0, 50.0, 45.0, 40.0, 30.0, 24.0,
                                         20.0, 19.0, 18.0, 0.0};
static const double speed_inter_100[] = {96.0, 86.0, 80.0, 48.0, 45.1, 42.0, 40.0, 30.0, 24.0,
                                         22.0, 20.0, 17.5, 15.0, 12.0, 6.0, 3.0, 2.4, 1.2, 0.24,
                                         0.12, 0.0};
#define NCCL_MAX_GRAPH_CHANNELS 32u /* MAXCHANNELS / 2 (init.cc) */
#define NCCL_MAXCHANNELS 64u        /* MAXCHANNELS (device.h) */

/* NCCL's bandwidth of the ring hop from local GPU i to j, GB/s. */
static double nccl_hop_gbps(const net *nt, uint64_t i, uint64_t j) {
    const hwfit_topology *t = nt->t;
    uint32_t cc = t->compute_capability;
    if (peer_pair(nt, i, j)) {
        double links = (double)t->peer_links;
        if (t->peer_topology != HWFIT_GPU_PEER_TOPOLOGY_SWITCH && nt->D > 2)
            links /= (double)(nt->D - 1); /* a mesh: one bundle per partner */
        return links * nccl_nvlink_gbps(cc);
    }
    double bw = nccl_pci_gbps(t->gpu_pcie_gen, t->gpu_pcie_lanes);
    int via_cpu = nt->K == 0 || sw_of(nt, i) != sw_of(nt, j);
    if (nt->K > 0 && via_cpu) {
        double up = nccl_pci_gbps(t->gpu_pcie_gen, t->switch_uplink_lanes);
        if (up < bw) bw = up;
    }
    if (via_cpu && t->cpu_vendor == HWFIT_CPU_INTEL && p2p_pair(nt, i, j))
        bw /= INTEL_P2P_FACTOR;
    if (sock_of(nt, i) != sock_of(nt, j)) {
        double sys = nccl_sys_gbps(t);
        if (sys < bw) bw = sys;
    }
    return bw;
}

static uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

/* The ring graph's channels and the channels run (ctx). */
static void nccl_channels(ctx *x) {
    const net *nt = &x->nt;
    const hwfit_topology *t = nt->t;
    uint32_t cc = t->compute_capability;
    uint64_t q = x->c.q;
    double intra = 1e30;
    for (uint64_t i = 0; q > 1 && i < q; i++) {
        double h = nccl_hop_gbps(nt, i, (i + 1) % q);
        if (h < intra) intra = h;
    }
    double nic = 1e30, nics = 1.0;
    int inter = x->c.n > 1;
    if (inter) {
        nic = t->nic_bits_per_s / 8e9; /* NCCL reads the port speed */
        nics = (double)t->nics_per_node; /* a channel may leave by any NIC of the node */
    }
    double max_bw = intra < nic ? intra : nic;
    const double *sp = inter ? (cc >= 100 ? speed_inter_100 : cc >= 90 || cc == 0 ? speed_inter_90
                                                                                  : speed_inter)
                             : (cc >= 100 ? speed_intra_100 : cc >= 90 || cc == 0 ? speed_intra_90
                                                                                  : speed_intra);
    size_t k0 = 0;
    while (sp[k0 + 1] > 0.0 && sp[k0] > max_bw) k0++;
    double best = 0.0, best_s = 0.0;
    uint32_t best_k = 0;
    /* Pass 1 lowers the speed while the next is more than 0.49 of the first tried; the
     * best graph is the one with the most channels x speed (ncclTopoCompareGraphs). */
    for (size_t k = k0; sp[k] > 0.0 && sp[k] / sp[k0] > 0.49; k++) {
        double c = floor(intra / sp[k]);
        if (inter) {
            double cn = nics * floor(nic / sp[k]);
            if (cn < c) c = cn;
        }
        uint32_t n = c >= (double)NCCL_MAX_GRAPH_CHANNELS ? NCCL_MAX_GRAPH_CHANNELS
                                                           : (uint32_t)c;
        if ((double)n * sp[k] > best) {
            best = (double)n * sp[k];
            best_k = n;
            best_s = sp[k];
        }
    }
    if (best_k == 0) { /* no ring at any speed: NCCL falls back to one, in rank order */
        best_k = 1;
        best_s = max_bw;
    }
    /* ncclTopoDupChannels: fast rings get twice the channels at half the speed, except
     * on sm > 80 below 50 GB/s with more than 4 channels. */
    if (best_s >= 25.0 && !(cc > 80 && best_s < 50.0 && best_k > 4))
        best_k = min_u32(2u * best_k, NCCL_MAX_GRAPH_CHANNELS);
    x->graph_channels = best_k;
    uint32_t run = min_u32(2u * best_k, NCCL_MAXCHANNELS);
    if (x->in->min_channels > run) run = min_u32(x->in->min_channels, NCCL_MAXCHANNELS);
    x->channels = run;
}

/* NCCL's per-channel ceilings, GB/s (tuning.cc, ncclTunerConstantsDefaults): rows Volta,
 * Ampere, Hopper, Blackwell; columns 1 node, 2 nodes, more. */
static const double per_ch_tree[4][3] = {
    {26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {70.0, 42.8, 24.0}};
static const double per_ch_ring_ll128[4][3] = {
    {20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 36.7}, {40.0, 40.0, 40.0}};
static const double per_ch_tree_ll128[4][3] = {
    {20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 29.0}, {55.6, 31.67, 20.0}};

/* The ceiling of algorithm a with protocol proto, bytes/s of busBw, or 0 when NCCL has
 * none. NCCL multiplies by its graph's channels; a channel run beyond them (more asked
 * with NCCL_MIN_NCHANNELS than the graph has, counted two per graph channel as NCCL runs
 * them) adds its half of a graph channel's ceiling. */
static double channel_cap(const ctx *x, int tree, int proto) {
    uint32_t cc = x->nt.t->compute_capability;
    size_t row = cc == 0 ? 2 : cc >= 100 ? 3 : cc >= 90 ? 2 : cc >= 80 ? 1 : 0;
    size_t col = x->c.n == 1 ? 0 : x->c.n == 2 ? 1 : 2;
    double per = tree ? (proto == P_SIMPLE ? per_ch_tree[row][col]
                         : proto == P_LL128 ? per_ch_tree_ll128[row][col] : 0.0)
                      : (proto == P_LL128 ? per_ch_ring_ll128[row][col] : 0.0);
    double ch = (double)x->graph_channels;
    if ((double)x->channels / 2.0 > ch) ch = (double)x->channels / 2.0;
    return per * ch * GB;
}

static int intra_hw(const ctx *x) { return x->intra_nvlink ? HW_NVLINK : HW_PCI; }

/* Latency of one intra-node step, s (NCCL hwLatencies plus host staging). */
static double step_intra(const ctx *x, int row, int proto, int ring_net_floor) {
    double l = hw_lat[intra_hw(x)][row][proto] * US;
    if (!x->intra_nvlink) l += x->staged_frac * x->nt.t->shm_step_latency_s;
    if (ring_net_floor && x->c.n > 1) {
        /* NCCL: intraLat = max(intraLat, netOverhead (x3 for Simple)) across nodes. */
        double ov = x->nt.t->net_overhead_s * (proto == P_SIMPLE ? 3.0 : 1.0);
        if (ov > l) l = ov;
    }
    return l;
}

/* Latency of one inter-node step, s. NCCL uses the Tree row when there is 1 GPU per node. */
static double step_inter(const ctx *x, int row, int proto) {
    if (row == A_RING && x->c.q == 1) row = A_TREE;
    return hw_lat[HW_NET][row][proto] * US;
}

/* Latency of a step between ranks d apart. */
static double step_dist(const ctx *x, uint64_t d, int proto) {
    return (x->c.n == 1 || d < x->c.q) ? step_intra(x, A_RING, proto, 0)
                                       : step_inter(x, A_RING, proto);
}

static double ll_max(const ctx *x) {
    uint32_t cc = x->nt.t->compute_capability;
    size_t row, col;
    if (x->c.n == 1) {
        row = cc == 0 ? 2 : cc >= 100 ? 3 : cc >= 90 ? 2 : cc >= 80 ? 1 : 0;
        col = 0;
    } else {
        row = x->nt.t->cpu_vendor == HWFIT_CPU_AMD ? 1 : 0;
        col = x->c.n == 2 ? 1 : 2;
    }
    return ll_max_bw[row][col] * GB;
}

/* NCCL's tree correction, interpolated in log2(bytes) so time never drops as bytes grow;
 * 1.0 beyond the table's last column (256 MiB). */
static double tree_correction(int proto, double bytes) {
    double lx = bytes > 64.0 ? log2(bytes / 64.0) : 0.0;
    if (lx >= 24.0) return 1.0;
    size_t k = (size_t)lx;
    double f = lx - (double)k;
    double a = tree_corr[proto][k], b = k + 1 < 24 ? tree_corr[proto][k + 1] : 1.0;
    return a + (b - a) * f;
}

static double busbw_factor(hwfit_collective_op op, uint64_t n) {
    double dn = (double)n;
    switch (op) {
    case HWFIT_COLLECTIVE_ALLREDUCE: return 2.0 * (dn - 1.0) / dn;
    case HWFIT_COLLECTIVE_ALLGATHER:
    case HWFIT_COLLECTIVE_REDUCESCATTER:
    case HWFIT_COLLECTIVE_ALLTOALL: return (dn - 1.0) / dn;
    default: return 1.0; /* broadcast, reduce, send/receive (op is checked by the callers) */
    }
}

/* Recursive doubling all-gather volumes (Bruck-style shifts when p is not a power of 2):
 * step k moves min(2^(k-1), p - 2^(k-1)) shards of s/p to the rank 2^(k-1) away. Also the
 * reduce-scatter (recursive halving) cost: the same volumes in reverse. */
static void rec_gather(ctx *x, double s, bw_sum *bw, double *lat, int proto) {
    uint64_t p = x->c.p, steps = log2_ceil(p);
    for (uint64_t k = 0; k < steps; k++) {
        uint64_t d = (uint64_t)1 << k;
        uint64_t blocks = d < p - d ? d : p - d;
        double b = s / (double)p * (double)blocks;
        ADD_BW(x, bw, is_pow2(p) ? pat_xor(&x->nt, &x->c, &x->ld, d, b)
                                 : pat_shift(&x->nt, &x->c, &x->ld, d, b), 1.0);
        *lat += step_dist(x, d, proto);
    }
}

/* Simple-protocol bandwidth time and latency of one algorithm; EUNSUPPORTED when the
 * algorithm does not exist for the operation or topology. */
static hwfit_status algo_simple(ctx *x, hwfit_collective_algorithm a, int proto, bw_sum *bw,
                                double *lat) {
    const net *nt = &x->nt;
    const comm *c = &x->c;
    const hwfit_topology *t = nt->t;
    double s = x->in->bytes, p = (double)c->p, n = (double)c->n, q = (double)c->q;
    memset(bw, 0, sizeof *bw);
    bw->bound = HWFIT_COLLECTIVE_BOUND_LATENCY;
    *lat = 0.0;
    hwfit_collective_op op = x->in->op;
    switch (a) {
    case HWFIT_COLLECTIVE_ALGO_RING: {
        if (op == HWFIT_COLLECTIVE_ALLTOALL || op == HWFIT_COLLECTIVE_SENDRECV)
            return HWFIT_EUNSUPPORTED;
        if (op == HWFIT_COLLECTIVE_BROADCAST || op == HWFIT_COLLECTIVE_REDUCE) {
            /* Pipelined chain: S over every hop. NCCL: nsteps = p hops of latency, the
             * Simple protocol using the Tree row ("chunk latency"). */
            ADD_BW(x, bw, pat_ring(nt, c, &x->ld, s), 1.0);
            int row = proto == P_SIMPLE ? A_TREE : A_RING;
            double hop = c->n == 1 ? step_intra(x, row, proto, 0) : step_inter(x, row, proto);
            *lat = base_lat[A_RING][proto] * US + p * hop;
            return HWFIT_OK;
        }
        int ar = op == HWFIT_COLLECTIVE_ALLREDUCE;
        double steps = ar ? 2.0 * (p - 1.0) : p - 1.0;
        double inter = ar ? 2.0 * (n - 1.0) : n - 1.0;
        ADD_BW(x, bw, pat_ring(nt, c, &x->ld, s * (ar ? 2.0 : 1.0) * (p - 1.0) / p), 1.0);
        *lat = base_lat[A_RING][proto] * US + (steps - inter) * step_intra(x, A_RING, proto, 1) +
               inter * step_inter(x, A_RING, proto);
        /* NCCL's ring plateau effect across nodes for large Simple all-reduces. */
        if (ar && proto == P_SIMPLE && c->n > 1 && s >= RING_PLATEAU_BYTES_PER_RANK * p)
            *lat *= (t->compute_capability == 0 || t->compute_capability >= 80) ? 1.4 : 1.9;
        return HWFIT_OK;
    }
    case HWFIT_COLLECTIVE_ALGO_TREE: {
        if (op == HWFIT_COLLECTIVE_ALLREDUCE) {
            /* Between nodes, NCCL's double binary tree: each tree carries S/2, and a
             * node is inner in one tree and a leaf in the other. With 2 nodes each node
             * is the root of one tree and the only child in the other, so it sends and
             * receives S/2 per tree, S in all per direction, half the ring's 2(p-1)/p S
             * (why busbw exceeds the NIC rate on 2 nodes: AddyLaddy, NVIDIA/nccl-tests#22;
             * sjeaugey, NVIDIA/nccl#837). With more nodes an inner node takes S/2 from
             * each of two children and S/2 from its parent: about the ring's volume. */
            double y = c->n == 2 ? s : 2.0 * (p - 1.0) / p * s;
            ADD_BW(x, bw, pat_tree(nt, c, &x->ld, s, y), 1.0);
            *lat = base_lat[A_TREE][proto] * US +
                   2.0 * ((q - 1.0) * step_intra(x, A_TREE, proto, 0) +
                          (double)log2_floor(c->n) * step_inter(x, A_TREE, proto));
            return HWFIT_OK;
        }
        if (op == HWFIT_COLLECTIVE_BROADCAST || op == HWFIT_COLLECTIVE_REDUCE) {
            /* Binomial tree: ceil(log2 p) rounds, each moving the whole buffer one hop. */
            uint64_t steps = log2_ceil(c->p);
            *lat = base_lat[A_TREE][proto] * US;
            for (uint64_t k = 0; k < steps; k++) {
                uint64_t d = (uint64_t)1 << k;
                ADD_BW(x, bw, pat_xor(nt, c, &x->ld, d, s), 1.0);
                *lat += step_dist(x, d, proto);
            }
            return HWFIT_OK;
        }
        return HWFIT_EUNSUPPORTED;
    }
    case HWFIT_COLLECTIVE_ALGO_RECURSIVE: {
        *lat = base_lat[A_RING][proto] * US;
        if (op == HWFIT_COLLECTIVE_SENDRECV) return HWFIT_EUNSUPPORTED;
        if (op == HWFIT_COLLECTIVE_ALLTOALL) {
            /* Bruck: ceil(log2 p) rounds, each sending about half the data 2^k ranks on. */
            uint64_t steps = log2_ceil(c->p);
            for (uint64_t k = 0; k < steps; k++) {
                uint64_t d = (uint64_t)1 << k;
                ADD_BW(x, bw, pat_shift(nt, c, &x->ld, d, s / 2.0), 1.0);
                *lat += step_dist(x, d, proto);
            }
            return HWFIT_OK;
        }
        if (op == HWFIT_COLLECTIVE_ALLGATHER || op == HWFIT_COLLECTIVE_REDUCESCATTER) {
            rec_gather(x, s, bw, lat, proto);
            return HWFIT_OK;
        }
        /* All-reduce (Rabenseifner: reduce-scatter by halving, all-gather by doubling);
         * broadcast (scatter + all-gather) and reduce (reduce-scatter + gather) move the
         * same volumes. Not a power of 2: fold the extra ranks in and out first (MPICH). */
        uint64_t l = log2_floor(c->p), p2 = (uint64_t)1 << l;
        for (uint64_t k = 1; k <= l; k++) {
            uint64_t d = p2 >> k;
            ADD_BW(x, bw, pat_xor(nt, c, &x->ld, d, s / (double)((uint64_t)1 << k)), 2.0);
            *lat += 2.0 * step_dist(x, d, proto);
        }
        if (p2 != c->p) {
            ADD_BW(x, bw, pat_xor(nt, c, &x->ld, p2, s), 2.0);
            *lat += 2.0 * step_dist(x, p2, proto);
        }
        return HWFIT_OK;
    }
    case HWFIT_COLLECTIVE_ALGO_DIRECT: {
        double peers_lat = (q - 1.0) * step_intra(x, A_RING, proto, 0) +
                           (p - q) * step_inter(x, A_RING, proto);
        *lat = base_lat[A_RING][proto] * US;
        switch (op) {
        case HWFIT_COLLECTIVE_SENDRECV:
            ADD_BW(x, bw, pat_shift(nt, c, &x->ld, 1, s), 1.0);
            *lat += c->n > 1 ? step_inter(x, A_RING, proto) : step_intra(x, A_RING, proto, 0);
            return HWFIT_OK;
        case HWFIT_COLLECTIVE_ALLTOALL:
        case HWFIT_COLLECTIVE_ALLGATHER:
        case HWFIT_COLLECTIVE_REDUCESCATTER:
            ADD_BW(x, bw, pat_all_pairs(nt, c, &x->ld, s / p), 1.0);
            *lat += peers_lat;
            return HWFIT_OK;
        case HWFIT_COLLECTIVE_ALLREDUCE: /* reduce-scatter then all-gather, both direct */
            ADD_BW(x, bw, pat_all_pairs(nt, c, &x->ld, s / p), 2.0);
            *lat += 2.0 * peers_lat;
            return HWFIT_OK;
        default: return HWFIT_EUNSUPPORTED;
        }
    }
    case HWFIT_COLLECTIVE_ALGO_NVLS: {
        if (op != HWFIT_COLLECTIVE_ALLREDUCE || !t->nvls || c->n != 1 ||
            t->peer_topology != HWFIT_GPU_PEER_TOPOLOGY_SWITCH ||
            t->peer_link != HWFIT_GPU_PEER_NVLINK || !x->intra_nvlink ||
            (t->compute_capability != 0 && t->compute_capability < 90) || c->q > nt->D ||
            proto != P_SIMPLE)
            return HWFIT_EUNSUPPORTED;
        /* Each GPU pushes S into the switch and pulls the reduced S back. */
        phase ph = {0.0, HWFIT_COLLECTIVE_BOUND_NVLS, nt->bpeer * t->nvls_efficiency};
        ph.time_s = s / ph.rate;
        ADD_BW(x, bw, ph, 1.0);
        *lat = (base_lat[A_NVLS][proto] + hw_lat[HW_NVLINK][A_NVLS][proto]) * US;
        return HWFIT_OK;
    }
    default: { /* hierarchical; AUTO never gets here: the caller picks real algorithms */
        if (a != HWFIT_COLLECTIVE_ALGO_HIERARCHICAL || op != HWFIT_COLLECTIVE_ALLREDUCE ||
            c->n < 2 || c->q < 2)
            return HWFIT_EUNSUPPORTED;
        comm local = {c->q, c->q, 1};
        /* reduce-scatter, then all-gather, inside the node */
        ADD_BW(x, bw, pat_ring(nt, &local, &x->ld, (q - 1.0) / q * s), 2.0);
        ADD_BW(x, bw, pat_rails(nt, c, &x->ld, 2.0 * (n - 1.0) / n * s / q), 1.0);
        *lat = base_lat[A_RING][proto] * US + 2.0 * (q - 1.0) * step_intra(x, A_RING, proto, 0) +
               2.0 * (n - 1.0) * step_inter(x, A_RING, proto);
        return HWFIT_OK;
    }
    }
}

/* Time of one algorithm with one protocol. */
static hwfit_status algo_eval(ctx *x, hwfit_collective_algorithm a, hwfit_collective_protocol pr,
                              result *r) {
    int proto = pr == HWFIT_COLLECTIVE_PROTO_LL ? P_LL
                : pr == HWFIT_COLLECTIVE_PROTO_LL128 ? P_LL128 : P_SIMPLE;
    int nvlink_only = x->intra_nvlink && x->nt.t->peer_link == HWFIT_GPU_PEER_NVLINK &&
                      (x->c.n == 1 || x->nt.gdr);
    if (proto == P_LL128 && !nvlink_only) return HWFIT_EUNSUPPORTED;
    bw_sum bw;
    double lat;
    x->bw_known = x->memo_algo == (int)a;
    hwfit_status st = algo_simple(x, a, proto, &bw, &lat);
    x->bw_known = 0;
    if (st != HWFIT_OK) return st;
    if (x->memo_algo == (int)a) {
        bw = x->memo_bw;
    } else {
        x->memo_bw = bw;
        x->memo_algo = (int)a;
    }
    double s = x->in->bytes;
    double bw_s = bw.time_s;
    double rate = bw.rate;
    hwfit_collective_bottleneck bound = bw.bound;
    double bus_bytes = s * busbw_factor(x->in->op, x->c.p);
    if (a == HWFIT_COLLECTIVE_ALGO_TREE && x->in->op == HWFIT_COLLECTIVE_ALLREDUCE) {
        /* NCCL: tree busBw x 0.92, then /3.8 (LL) or x 7/9 | 120/128 (LL128), then the
         * size correction; algBw = busBw / 2. */
        double f = TREE_SIMPLE_BW_FACTOR;
        if (proto == P_LL) f /= TREE_LL_BW_DIVISOR;
        if (proto == P_LL128) f *= x->c.n == 1 ? TREE_LL128_1NODE : TREE_LL128_NODES;
        f *= tree_correction(proto, s);
        bw_s /= f;
        bus_bytes = 2.0 * s;
    } else if (proto == P_LL) {
        bw_s /= RING_LL_BW_FACTOR;
    } else if (proto == P_LL128) {
        bw_s /= LL128_BW_FACTOR;
    }
    {
        int tree = a == HWFIT_COLLECTIVE_ALGO_TREE && x->in->op == HWFIT_COLLECTIVE_ALLREDUCE;
        int ring = a == HWFIT_COLLECTIVE_ALGO_RING;
        double cap = (tree || ring) && x->in->library == HWFIT_COLLECTIVE_LIBRARY_NCCL
                         ? channel_cap(x, tree, proto)
                         : 0.0;
        if (cap > 0.0 && bus_bytes / cap > bw_s) {
            bw_s = bus_bytes / cap;
            bound = HWFIT_COLLECTIVE_BOUND_PROTOCOL;
            rate = cap;
        }
    }
    if (proto == P_LL) {
        double cap = ll_max(x), cap_s = bus_bytes / cap;
        if (cap_s > bw_s) {
            bw_s = cap_s;
            bound = HWFIT_COLLECTIVE_BOUND_PROTOCOL;
            rate = cap;
        }
    }
    r->latency_s = lat;
    r->bw_s = bw_s;
    r->time_s = lat + bw_s;
    r->rate = rate;
    r->bound = bw_s > lat ? bound : HWFIT_COLLECTIVE_BOUND_LATENCY;
    return HWFIT_OK;
}

static int in_library(hwfit_collective_library lib, hwfit_collective_op op,
                      hwfit_collective_algorithm a) {
    if (lib == HWFIT_COLLECTIVE_LIBRARY_ANY) return 1;
    switch (op) {
    case HWFIT_COLLECTIVE_ALLREDUCE:
        return a == HWFIT_COLLECTIVE_ALGO_RING || a == HWFIT_COLLECTIVE_ALGO_TREE ||
               a == HWFIT_COLLECTIVE_ALGO_NVLS;
    case HWFIT_COLLECTIVE_ALLGATHER:
    case HWFIT_COLLECTIVE_REDUCESCATTER:
    case HWFIT_COLLECTIVE_BROADCAST:
    case HWFIT_COLLECTIVE_REDUCE: return a == HWFIT_COLLECTIVE_ALGO_RING;
    default: return a == HWFIT_COLLECTIVE_ALGO_DIRECT; /* all-to-all, send/receive */
    }
}

/* Validate the input, resolve the communicator and describe its intra-node hops. */
static hwfit_status ctx_setup(const hwfit_collective_in *in, ctx *x, hwfit_problem *why) {
    /* x->ld is not cleared here: every pattern clears what it uses (loads_clear). */
    memset(&x->c, 0, sizeof x->c);
    x->in = in;
    x->intra_nvlink = 0;
    x->staged_frac = 0.0;
    x->p2p_used = 0;
    x->memo_algo = -1;
    x->bw_known = 0;
    if ((unsigned)in->op > (unsigned)HWFIT_COLLECTIVE_SENDRECV)
        return hwfit__why(why, HWFIT_EINVAL, "op", HWFIT__ENUM);
    if ((unsigned)in->algorithm > (unsigned)HWFIT_COLLECTIVE_ALGO_HIERARCHICAL)
        return hwfit__why(why, HWFIT_EINVAL, "algorithm", HWFIT__ENUM);
    if ((unsigned)in->protocol > (unsigned)HWFIT_COLLECTIVE_PROTO_SIMPLE)
        return hwfit__why(why, HWFIT_EINVAL, "protocol", HWFIT__ENUM);
    if ((unsigned)in->library > (unsigned)HWFIT_COLLECTIVE_LIBRARY_ANY)
        return hwfit__why(why, HWFIT_EINVAL, "library", HWFIT__ENUM);
    hwfit_status st = net_setup(&in->topology, &x->nt, why);
    if (st != HWFIT_OK) return st;
    if (!hwfit__in_range(in->bytes, 0.0, 1e18))
        return hwfit__why(why, HWFIT_EDOM, "bytes", "must be a number of bytes in [0, 1e18]");
    const hwfit_topology *t = &in->topology;
    uint64_t total = t->gpus_per_node * t->nodes; /* <= 128 x 65536 */
    uint64_t p = in->ranks ? in->ranks : total;
    uint64_t q = in->ranks_per_node ? in->ranks_per_node : (p < t->gpus_per_node ? p : t->gpus_per_node);
    if (p < 2 || p > total)
        return hwfit__why(why, HWFIT_EDOM, "ranks",
                          "must be at least 2 and at most the GPUs of the topology");
    if (q > t->gpus_per_node || p % q != 0 || p / q > t->nodes)
        return hwfit__why(why, HWFIT_EDOM, "ranks_per_node",
                          "must divide ranks, be at most the GPUs per node, and leave at "
                          "most the topology's nodes");
    x->c.p = p;
    x->c.q = q;
    x->c.n = p / q;
    if (x->c.n > 1) {
        st = nic_setup(&x->nt, why);
        if (st != HWFIT_OK) return st;
    }
    /* Intra-node ring hops: all NVLink? how many staged? */
    uint64_t hops = 0, staged = 0, peer = 0;
    for (uint64_t i = 0; q > 1 && i < q; i++) {
        uint64_t j = (i + 1) % q;
        hops++;
        if (peer_pair(&x->nt, i, j)) peer++;
        else if (!p2p_pair(&x->nt, i, j)) staged++;
    }
    x->intra_nvlink = hops > 0 && peer == hops;
    x->staged_frac = hops > peer ? (double)staged / (double)(hops - peer) : 0.0;
    x->p2p_used = hops > peer ? staged == 0 : 1;
    if (q == 1) x->p2p_used = 1;
    if (in->min_channels > NCCL_MAXCHANNELS)
        return hwfit__why(why, HWFIT_EDOM, "min_channels",
                          "must be 0 (NCCL's own count) or 1-64 (NCCL_MIN_NCHANNELS)");
    nccl_channels(x);
    return HWFIT_OK;
}

/* The estimate in x, the caller's scratch (its loads are about 7 KB). */
static hwfit_status estimate_in(ctx *x, const hwfit_collective_in *in, hwfit_collective_out *out,
                                hwfit_problem *why) {
    hwfit_status st = ctx_setup(in, x, why);
    if (st != HWFIT_OK) return st;
    static const hwfit_collective_algorithm algos[] = {
        HWFIT_COLLECTIVE_ALGO_RING, HWFIT_COLLECTIVE_ALGO_TREE, HWFIT_COLLECTIVE_ALGO_NVLS,
        HWFIT_COLLECTIVE_ALGO_RECURSIVE, HWFIT_COLLECTIVE_ALGO_DIRECT,
        HWFIT_COLLECTIVE_ALGO_HIERARCHICAL};
    static const hwfit_collective_protocol protos[] = {
        HWFIT_COLLECTIVE_PROTO_LL, HWFIT_COLLECTIVE_PROTO_LL128, HWFIT_COLLECTIVE_PROTO_SIMPLE};
    result best;
    memset(&best, 0, sizeof best);
    int found = 0;
    hwfit_collective_algorithm best_a = HWFIT_COLLECTIVE_ALGO_RING;
    hwfit_collective_protocol best_p = HWFIT_COLLECTIVE_PROTO_SIMPLE;
    for (size_t ai = 0; ai < sizeof algos / sizeof algos[0]; ai++) {
        hwfit_collective_algorithm a = algos[ai];
        if (in->algorithm != HWFIT_COLLECTIVE_ALGO_AUTO ? a != in->algorithm
                                                        : !in_library(in->library, in->op, a))
            continue;
        for (size_t pi = 0; pi < sizeof protos / sizeof protos[0]; pi++) {
            hwfit_collective_protocol pr = protos[pi];
            if (in->protocol != HWFIT_COLLECTIVE_PROTO_AUTO && pr != in->protocol) continue;
            result r;
            if (algo_eval(x, a, pr, &r) != HWFIT_OK) continue;
            if (!found || r.time_s < best.time_s) {
                best = r;
                best_a = a;
                best_p = pr;
                found = 1;
            }
        }
    }
    if (!found)
        return hwfit__why(why, HWFIT_EUNSUPPORTED,
                          in->algorithm != HWFIT_COLLECTIVE_ALGO_AUTO ? "algorithm" : "protocol",
                          "does not exist for this operation and topology (NVLS needs one "
                          "NVSwitch node, LL128 NVLink, hierarchical several nodes...)");
    hwfit_collective_out o;
    memset(&o, 0, sizeof o);
    o.time_s = best.time_s;
    o.latency_s = best.latency_s;
    o.bandwidth_time_s = best.bw_s;
    o.busbw_factor = busbw_factor(in->op, x->c.p);
    o.algbw_bytes_per_s = best.time_s > 0.0 ? in->bytes / best.time_s : 0.0;
    o.busbw_bytes_per_s = o.algbw_bytes_per_s * o.busbw_factor;
    o.bottleneck_bytes_per_s = best.rate;
    o.algorithm = best_a;
    o.protocol = best_p;
    o.bottleneck = best.bound;
    o.ranks = x->c.p;
    o.ranks_per_node = x->c.q;
    o.nodes = x->c.n;
    o.p2p = x->p2p_used;
    o.gpudirect_rdma = x->c.n > 1 ? x->nt.gdr : 0;
    o.channels = x->channels;
    if (!hwfit__finite(o.time_s) || !hwfit__finite(o.algbw_bytes_per_s) ||
        !hwfit__finite(o.busbw_bytes_per_s))
        return hwfit__why(why, HWFIT_ERANGE, "bytes", "give a time too large for a double");
    *out = o;
    return HWFIT_OK;
}

/* The scratch of an estimate (about 7 KB of link loads) is too large for a caller's stack
 * (no public call may need more than 16 KiB): it comes from the heap. */
static hwfit_status estimate(const hwfit_collective_in *in, hwfit_collective_out *out,
                             hwfit_problem *why) {
    ctx *x = malloc(sizeof *x);
    if (x == NULL) return hwfit__why(why, HWFIT_ENOMEM, "", "out of memory");
    hwfit_status st = estimate_in(x, in, out, why);
    free(x);
    return st;
}

hwfit_status hwfit_collective_estimate(const hwfit_collective_in *in, hwfit_collective_out *out) {
    if (in == NULL || out == NULL) return HWFIT_EINVAL;
    return estimate(in, out, NULL);
}

hwfit_status hwfit_collective_validate(const hwfit_collective_in *in, hwfit_problem *problem) {
    hwfit_problem_clear(problem);
    if (in == NULL) return hwfit__why(problem, HWFIT_EINVAL, "in", HWFIT__NULL);
    hwfit_collective_out scratch;
    return estimate(in, &scratch, problem);
}

hwfit_status hwfit_collective_estimate_batch(const hwfit_collective_in *ins, size_t n,
                                             hwfit_collective_out *outs,
                                             hwfit_status *statuses) {
    if (n > 0 && (ins == NULL || outs == NULL || statuses == NULL)) return HWFIT_EINVAL;
    if (n == 0) return HWFIT_OK;
    ctx *x = malloc(sizeof *x); /* one scratch for the batch (see estimate) */
    if (x == NULL) {
        for (size_t i = 0; i < n; i++) statuses[i] = HWFIT_ENOMEM;
        return HWFIT_ENOMEM;
    }
    hwfit_status first = HWFIT_OK;
    for (size_t i = 0; i < n; i++) {
        statuses[i] = estimate_in(x, &ins[i], &outs[i], NULL);
        if (first == HWFIT_OK) first = statuses[i];
    }
    free(x);
    return first;
}

hwfit_status hwfit_collective_busbw_factor(hwfit_collective_op op, uint64_t ranks,
                                           double *factor) {
    if (factor == NULL || (unsigned)op > (unsigned)HWFIT_COLLECTIVE_SENDRECV) return HWFIT_EINVAL;
    if (ranks == 0) return HWFIT_EDOM;
    *factor = busbw_factor(op, ranks);
    return HWFIT_OK;
}

/* ---- initialisers ---------------------------------------------------------------------- */

void hwfit_collective_init(hwfit_collective_in *in) {
    if (in == NULL) return;
    memset(in, 0, sizeof *in);
    hwfit_topology_init(&in->topology);
    in->op = HWFIT_COLLECTIVE_ALLREDUCE;
    in->bytes = HWFIT_GIBI;
    in->ranks = 0;
    in->ranks_per_node = 0;
    in->algorithm = HWFIT_COLLECTIVE_ALGO_AUTO;
    in->protocol = HWFIT_COLLECTIVE_PROTO_AUTO;
    in->library = HWFIT_COLLECTIVE_LIBRARY_NCCL;
}

/* ---- names ------------------------------------------------------------------------------ */

static const char *const op_names[] = {"allreduce", "allgather", "reducescatter", "broadcast",
                                       "reduce",    "alltoall",  "sendrecv"};
static const char *const algo_names[] = {"auto",   "ring", "tree",        "recursive",
                                         "direct", "nvls", "hierarchical"};
static const char *const proto_names[] = {"auto", "ll", "ll128", "simple"};
static const char *const bound_names[] = {"latency",     "gpu-pcie",  "switch-uplink",
                                          "socket-link", "host-memory", "peer-link",
                                          "nvls",        "nic",       "protocol"};

#define NAME_OF(table, v) \
    ((unsigned)(v) < sizeof table / sizeof table[0] ? table[(unsigned)(v)] : "unknown")

const char *hwfit_collective_op_name(hwfit_collective_op op) { return NAME_OF(op_names, op); }
const char *hwfit_collective_algorithm_name(hwfit_collective_algorithm a) {
    return NAME_OF(algo_names, a);
}
const char *hwfit_collective_protocol_name(hwfit_collective_protocol p) {
    return NAME_OF(proto_names, p);
}
const char *hwfit_collective_bottleneck_name(hwfit_collective_bottleneck b) {
    return NAME_OF(bound_names, b);
}

/* Compare ignoring case, '-' and '_' ("all_reduce" == "AllReduce" == "allreduce"). */
static int name_eq(const char *a, const char *b) {
    for (;;) {
        while (*a == '-' || *a == '_') a++;
        while (*b == '-' || *b == '_') b++;
        char ca = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
        char cb = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;
        if (ca != cb) return 0;
        if (ca == '\0') return 1;
        a++;
        b++;
    }
}

static int lookup(const char *const *table, size_t count, const char *name) {
    for (size_t i = 0; i < count; i++)
        if (name_eq(table[i], name)) return (int)i;
    return -1;
}

hwfit_status hwfit_collective_op_from_name(const char *name, hwfit_collective_op *op) {
    if (name == NULL || op == NULL) return HWFIT_EINVAL;
    int k = lookup(op_names, sizeof op_names / sizeof op_names[0], name);
    if (k < 0) return HWFIT_ENOTFOUND;
    *op = (hwfit_collective_op)k;
    return HWFIT_OK;
}

hwfit_status hwfit_collective_algorithm_from_name(const char *name,
                                                  hwfit_collective_algorithm *a) {
    if (name == NULL || a == NULL) return HWFIT_EINVAL;
    int k = lookup(algo_names, sizeof algo_names / sizeof algo_names[0], name);
    if (k < 0) return HWFIT_ENOTFOUND;
    *a = (hwfit_collective_algorithm)k;
    return HWFIT_OK;
}

hwfit_status hwfit_collective_protocol_from_name(const char *name, hwfit_collective_protocol *p) {
    if (name == NULL || p == NULL) return HWFIT_EINVAL;
    int k = lookup(proto_names, sizeof proto_names / sizeof proto_names[0], name);
    if (k < 0) return HWFIT_ENOTFOUND;
    *p = (hwfit_collective_protocol)k;
    return HWFIT_OK;
}

/* ---- training step ---------------------------------------------------------------------- */

void hwfit_collective_step_init(hwfit_collective_step_in *in) {
    if (in == NULL) return;
    memset(in, 0, sizeof *in);
    hwfit_topology_init(&in->topology);
    in->tp = in->pp = in->dp = in->ep = 1;
    in->zero_stage = 0;
    in->layers_per_stage = 1;
    in->micro_batches = 1;
    in->tp_collectives_per_layer = 4;
    in->library = HWFIT_COLLECTIVE_LIBRARY_NCCL;
}

/* Ranks per node of a group of `size` ranks `stride` apart in the rank order (TP innermost). */
static hwfit_status group_per_node(uint64_t g, uint64_t stride, uint64_t size, uint64_t *rpn) {
    if (size == 1) {
        *rpn = 1;
        return HWFIT_OK;
    }
    uint64_t span;
    if (hwfit__mul_u64(stride, size, &span) != HWFIT_OK) return HWFIT_ELAYOUT;
    if (span <= g) {
        if (g % span != 0) return HWFIT_ELAYOUT;
        *rpn = size;
    } else if (stride >= g) {
        *rpn = 1; /* every member on its own node */
    } else {
        if (g % stride != 0 || size % (g / stride) != 0) return HWFIT_ELAYOUT;
        *rpn = g / stride;
    }
    return HWFIT_OK;
}

/* One collective of a step on a group; zero bytes cost nothing. */
static hwfit_status step_one(const hwfit_collective_step_in *in, hwfit_collective_op op,
                             double bytes, uint64_t ranks, uint64_t rpn, hwfit_collective_out *o,
                             hwfit_problem *why) {
    memset(o, 0, sizeof *o);
    if (bytes == 0.0 || ranks < 2) return HWFIT_OK;
    hwfit_collective_in c;
    hwfit_collective_init(&c);
    c.topology = in->topology;
    c.op = op;
    c.bytes = bytes;
    c.ranks = ranks;
    c.ranks_per_node = rpn;
    c.library = in->library;
    return estimate(&c, o, why);
}

/* step_one through a memo (NULL: step_one): a collective asked before gives its status
 * and time_s again without the estimate; o holds time_s only either way. */
static hwfit_status step_one_memo(const hwfit_collective_step_in *in, hwfit_collective_op op,
                                  double bytes, uint64_t ranks, uint64_t rpn,
                                  hwfit_collective_out *o, hwfit_problem *why,
                                  hwfit__coll_memo *memo) {
    if (memo == NULL) return step_one(in, op, bytes, ranks, rpn, o, why);
    memset(o, 0, sizeof *o);
    if (bytes == 0.0 || ranks < 2) return HWFIT_OK;
    for (unsigned i = 0; i < memo->count; i++) {
        const hwfit__coll_memo_entry *m = &memo->e[i];
        if (m->op == op && m->ranks == ranks && m->rpn == rpn &&
            memcmp(&m->bytes, &bytes, sizeof bytes) == 0) {
            o->time_s = m->time_s;
            return m->st;
        }
    }
    hwfit_status st = step_one(in, op, bytes, ranks, rpn, o, why);
    double t = st == HWFIT_OK ? o->time_s : 0.0;
    memset(o, 0, sizeof *o);
    o->time_s = t;
    hwfit__coll_memo_entry *m = &memo->e[memo->next];
    memo->next = (memo->next + 1) % HWFIT__COLL_MEMO;
    if (memo->count < HWFIT__COLL_MEMO) memo->count++;
    m->op = op;
    m->st = st;
    m->ranks = ranks;
    m->rpn = rpn;
    m->bytes = bytes;
    m->time_s = t;
    return st;
}

#define STEP_BAD(field, rule) return hwfit__why(why, HWFIT_EDOM, (field), (rule))
#define BYTES_RULE "must be a number of bytes in [0, 1e18]"
#define STRADDLE "makes a group that straddles nodes unevenly"
#define COUNT_OVERFLOW "and the layers and micro-batches make more collectives than 64 bits count"

/* The step written into *o as it is formed (o is left part-written on failure): no copy of
 * the 536-byte answer on this frame, which is on the layout search's deepest chain
 * (perf.c step_comm, tests/stack); step() keeps the public calls' written-on-success rule. */
static hwfit_status step_into(const hwfit_collective_step_in *in, hwfit_collective_step_out *o,
                              hwfit_problem *why, hwfit__coll_memo *memo) {
    if ((unsigned)in->library > (unsigned)HWFIT_COLLECTIVE_LIBRARY_ANY)
        return hwfit__why(why, HWFIT_EINVAL, "library", HWFIT__ENUM);
    if (in->tp < 1) STEP_BAD("tp", "must be at least 1");
    if (in->pp < 1) STEP_BAD("pp", "must be at least 1");
    if (in->dp < 1) STEP_BAD("dp", "must be at least 1");
    if (in->ep < 1) STEP_BAD("ep", "must be at least 1");
    if (in->zero_stage > 3) STEP_BAD("zero_stage", "must be 0, 1, 2 or 3");
    if (in->micro_batches < 1) STEP_BAD("micro_batches", "must be at least 1");
    const double lim = 1e18;
    if (!hwfit__in_range(in->tp_bytes, 0.0, lim)) STEP_BAD("tp_bytes", BYTES_RULE);
    if (!hwfit__in_range(in->grad_bytes, 0.0, lim)) STEP_BAD("grad_bytes", BYTES_RULE);
    if (!hwfit__in_range(in->param_bytes, 0.0, lim)) STEP_BAD("param_bytes", BYTES_RULE);
    if (!hwfit__in_range(in->pp_bytes, 0.0, lim)) STEP_BAD("pp_bytes", BYTES_RULE);
    if (!hwfit__in_range(in->ep_bytes, 0.0, lim)) STEP_BAD("ep_bytes", BYTES_RULE);
    net nt;
    hwfit_status st = net_setup(&in->topology, &nt, why);
    if (st != HWFIT_OK) return st;
    uint64_t g = in->topology.gpus_per_node, gpus, tpdp;
    if (hwfit__mul_u64(in->tp, in->dp, &tpdp) != HWFIT_OK ||
        hwfit__mul_u64(tpdp, in->pp, &gpus) != HWFIT_OK || gpus > g * in->topology.nodes)
        return hwfit__why(why, HWFIT_ELAYOUT, "tp",
                          "x dp x pp is more GPUs than the topology has");
    if (in->dp % in->ep != 0) return hwfit__why(why, HWFIT_ELAYOUT, "ep", "must divide dp");
    uint64_t tp_rpn, dp_rpn, ep_rpn;
    if (group_per_node(g, 1, in->tp, &tp_rpn) != HWFIT_OK)
        return hwfit__why(why, HWFIT_ELAYOUT, "tp", STRADDLE);
    if (group_per_node(g, in->tp, in->dp, &dp_rpn) != HWFIT_OK)
        return hwfit__why(why, HWFIT_ELAYOUT, "dp", STRADDLE);
    if (group_per_node(g, in->tp, in->ep, &ep_rpn) != HWFIT_OK)
        return hwfit__why(why, HWFIT_ELAYOUT, "ep", STRADDLE);
    uint64_t pp_rpn = tpdp >= g ? 1 : 2;

    memset(o, 0, sizeof *o);
    uint64_t m = in->micro_batches, per_mb, n;
    /* Tensor parallel: tp_collectives_per_layer all-reduces per layer per micro-batch
     * (Megatron-LM); with sequence parallelism each becomes reduce-scatter + all-gather. */
    if (in->tp > 1 && in->tp_bytes > 0.0) {
        if (hwfit__mul_u64(in->layers_per_stage, in->tp_collectives_per_layer, &per_mb) !=
                HWFIT_OK ||
            hwfit__mul_u64(per_mb, m, &n) != HWFIT_OK)
            return hwfit__why(why, HWFIT_ERANGE, "tp_collectives_per_layer", COUNT_OVERFLOW);
        if (in->sequence_parallel) {
            hwfit_collective_out ag;
            if ((st = step_one_memo(in, HWFIT_COLLECTIVE_REDUCESCATTER, in->tp_bytes, in->tp,
                                    tp_rpn, &o->tp, why, memo)) != HWFIT_OK ||
                (st = step_one_memo(in, HWFIT_COLLECTIVE_ALLGATHER, in->tp_bytes, in->tp, tp_rpn,
                                    &ag, why, memo)) != HWFIT_OK)
                return st;
            o->tp_s = (double)n * (o->tp.time_s + ag.time_s);
            if (hwfit__mul_u64(n, 2, &o->tp_count) != HWFIT_OK)
                return hwfit__why(why, HWFIT_ERANGE, "tp_collectives_per_layer", COUNT_OVERFLOW);
        } else {
            if ((st = step_one_memo(in, HWFIT_COLLECTIVE_ALLREDUCE, in->tp_bytes, in->tp, tp_rpn,
                                    &o->tp, why, memo)) != HWFIT_OK)
                return st;
            o->tp_s = (double)n * o->tp.time_s;
            o->tp_count = n;
        }
    }
    /* Data parallel and ZeRO (Rajbhandari et al. 2020): stage 0 all-reduces gradients once;
     * 1 reduce-scatters them once and all-gathers parameters once; 2 reduce-scatters every
     * micro-batch, all-gathers once; 3 reduce-scatters every micro-batch and all-gathers
     * twice per micro-batch (forward and backward). */
    if (in->dp > 1) {
        if (in->grad_bytes > 0.0) {
            hwfit_collective_op op = in->zero_stage == 0 ? HWFIT_COLLECTIVE_ALLREDUCE
                                                         : HWFIT_COLLECTIVE_REDUCESCATTER;
            if ((st = step_one_memo(in, op, in->grad_bytes, in->dp, dp_rpn, &o->dp, why,
                                    memo)) != HWFIT_OK)
                return st;
            o->dp_count = in->zero_stage >= 2 ? m : 1;
            o->dp_s = (double)o->dp_count * o->dp.time_s;
        }
        if (in->zero_stage >= 1 && in->param_bytes > 0.0) {
            hwfit_collective_out ag;
            if ((st = step_one_memo(in, HWFIT_COLLECTIVE_ALLGATHER, in->param_bytes, in->dp,
                                    dp_rpn, &ag, why, memo)) != HWFIT_OK)
                return st;
            if (in->zero_stage == 3) {
                if (hwfit__mul_u64(m, 2, &o->zero_count) != HWFIT_OK)
                    return hwfit__why(why, HWFIT_ERANGE, "micro_batches", COUNT_OVERFLOW);
            } else {
                o->zero_count = 1;
            }
            o->zero_s = (double)o->zero_count * ag.time_s;
        }
    }
    /* Pipeline: forward activations and backward gradients cross each stage boundary once
     * per micro-batch. */
    if (in->pp > 1 && in->pp_bytes > 0.0) {
        if ((st = step_one_memo(in, HWFIT_COLLECTIVE_SENDRECV, in->pp_bytes, 2, pp_rpn, &o->pp,
                                why, memo)) != HWFIT_OK)
            return st;
        if (hwfit__mul_u64(m, 2, &o->pp_count) != HWFIT_OK)
            return hwfit__why(why, HWFIT_ERANGE, "micro_batches", COUNT_OVERFLOW);
        o->pp_s = (double)o->pp_count * o->pp.time_s;
    }
    /* Experts: dispatch and combine all-to-alls, forward and backward, per MoE layer. */
    if (in->ep > 1 && in->ep_bytes > 0.0 && in->moe_layers_per_stage > 0) {
        if ((st = step_one_memo(in, HWFIT_COLLECTIVE_ALLTOALL, in->ep_bytes, in->ep, ep_rpn,
                                &o->ep, why, memo)) != HWFIT_OK)
            return st;
        if (hwfit__mul_u64(in->moe_layers_per_stage, 4, &per_mb) != HWFIT_OK ||
            hwfit__mul_u64(per_mb, m, &o->ep_count) != HWFIT_OK)
            return hwfit__why(why, HWFIT_ERANGE, "moe_layers_per_stage", COUNT_OVERFLOW);
        o->ep_s = (double)o->ep_count * o->ep.time_s;
    }
    o->total_s = o->tp_s + o->dp_s + o->zero_s + o->pp_s + o->ep_s;
    if (!hwfit__finite(o->total_s))
        return hwfit__why(why, HWFIT_ERANGE, "micro_batches", "give a time too large for a double");
    return HWFIT_OK;
}

/* step with the answer written only on success (the public calls' rule). */
static HWFIT__NOINLINE hwfit_status step(const hwfit_collective_step_in *in,
                                         hwfit_collective_step_out *out, hwfit_problem *why,
                                         hwfit__coll_memo *memo) {
    hwfit_collective_step_out o;
    hwfit_status st = step_into(in, &o, why, memo);
    if (st == HWFIT_OK) *out = o;
    return st;
}

hwfit_status hwfit_collective_step(const hwfit_collective_step_in *in,
                                   hwfit_collective_step_out *out) {
    if (in == NULL || out == NULL) return HWFIT_EINVAL;
    return step(in, out, NULL, NULL);
}

hwfit_status hwfit__collective_step_memo(const hwfit_collective_step_in *in,
                                         hwfit_collective_step_out *out, hwfit__coll_memo *memo) {
    if (in == NULL || out == NULL) return HWFIT_EINVAL;
    return step_into(in, out, NULL, memo);
}

hwfit_status hwfit_collective_step_validate(const hwfit_collective_step_in *in,
                                            hwfit_problem *problem) {
    hwfit_problem_clear(problem);
    if (in == NULL) return hwfit__why(problem, HWFIT_EINVAL, "in", HWFIT__NULL);
    hwfit_collective_step_out scratch;
    return step(in, &scratch, problem, NULL);
}

/*
 * topology.c - the cluster description (topology.h): its defaults, and the settings that
 * follow from a catalog card (gpu.h), a CPU vendor or a NIC string (link.h). The model
 * that runs on it is collective.c.
 */
#include <string.h>

#include "hwfit/gpu.h"
#include "hwfit/link.h"
#include "hwfit/status.h"
#include "hwfit/topology.h"

void hwfit_topology_init(hwfit_topology *t) {
    if (t == NULL) return;
    memset(t, 0, sizeof *t);
    t->gpus_per_node = 8;
    t->nodes = 1;
    t->gpu_pcie_gen = 5;
    t->gpu_pcie_lanes = 16;
    t->compute_capability = 120;
    t->gpu_p2p_capable = 1;
    t->peer_link = HWFIT_GPU_PEER_NONE;
    t->peer_topology = HWFIT_GPU_PEER_TOPOLOGY_NONE;
    t->sockets = 2;
    t->cpu_vendor = HWFIT_CPU_AMD;
    t->pcie_switches = 0;
    t->switch_uplink_lanes = 16;
    t->p2p = HWFIT_TOPOLOGY_AUTO;
    t->p2p_level = HWFIT_P2P_LEVEL_DEFAULT;
    t->socket_link_kind = HWFIT_LINK_XGMI;
    t->socket_link_generation = 3;
    t->socket_links = 4;
    t->host_memory_bytes_per_s = 12.0 * 6400e6 * 8.0; /* 12 channels x 6400 MT/s x 8 B */
    t->nics_per_node = 0;
    t->nic_kind = HWFIT_NIC_ROCE;
    t->nic_bits_per_s = 400e9;
    t->nic_mtu_bytes = 0.0;
    t->gpudirect_rdma = HWFIT_TOPOLOGY_AUTO;
    t->pcie_efficiency = 48.0 / (32.0 * 16.0 * 128.0 / 130.0 / 8.0); /* NCCL 48 GB/s / 63.0 */
    t->shm_efficiency = 0.73;
    t->host_memory_efficiency = 0.75;
    t->socket_link_efficiency = 0.70;
    t->peer_efficiency = 0.80;
    t->nvls_efficiency = 0.85 * 15.0 / 16.0;
    t->nic_efficiency = 0.97;
    t->shm_step_latency_s = 1.5e-6;
    t->net_overhead_s = 2.0e-6;
    t->efa_efficiency = 0.65;
}

hwfit_status hwfit_topology_set_gpu(hwfit_topology *t, const hwfit_gpu *g) {
    if (t == NULL || g == NULL) return HWFIT_EINVAL;
    if (g->pcie_gen != 0) {
        t->gpu_pcie_gen = g->pcie_gen;
        t->gpu_pcie_lanes = g->pcie_lanes;
    }
    t->compute_capability = g->compute_capability;
    t->gpu_p2p_capable = g->p2p_pcie ? 1 : 0;
    t->peer_link = g->peer_link;
    t->peer_topology = g->peer_topology;
    t->peer_links = g->peer_links;
    t->peer_domain_gpus = g->peer_domain_gpus;
    t->peer_bytes_per_s = g->peer_bytes_per_s;
    t->nvls = g->nvls ? 1 : 0;
    return HWFIT_OK;
}

hwfit_status hwfit_topology_set_cpu(hwfit_topology *t, hwfit_cpu_vendor vendor) {
    if (t == NULL || (unsigned)vendor > (unsigned)HWFIT_CPU_ARM) return HWFIT_EINVAL;
    t->cpu_vendor = vendor;
    switch (vendor) {
    case HWFIT_CPU_AMD:
        t->socket_link_kind = HWFIT_LINK_XGMI;
        t->socket_link_generation = 3;
        t->socket_links = 4;
        t->host_memory_bytes_per_s = 12.0 * 6400e6 * 8.0; /* EPYC 9005: 12 x DDR5-6400 */
        t->net_overhead_s = 2.0e-6;
        break;
    case HWFIT_CPU_INTEL:
        t->socket_link_kind = HWFIT_LINK_UPI;
        t->socket_link_generation = 2;
        t->socket_links = 4;
        /* Xeon 4th gen (Sapphire Rapids, the first with UPI 2.0): 8 channels of DDR5-4800
         * per socket (Intel ARK, Xeon Platinum 8480+), 307.2 GB/s. */
        t->host_memory_bytes_per_s = 8.0 * 4800e6 * 8.0;
        t->net_overhead_s = 1.0e-6;
        break;
    case HWFIT_CPU_ARM:
        t->net_overhead_s = 1.0e-6;
        break;
    }
    return HWFIT_OK;
}

hwfit_status hwfit_topology_parse_nic(const char *text, hwfit_topology *t) {
    if (text == NULL || t == NULL) return HWFIT_EINVAL;
    /* "<...>-efa": AWS EFA, an Ethernet port at the same speeds; parsed as "<...>-roce". */
    char buf[64];
    size_t n = strlen(text);
    int efa = n > 4 && n < sizeof buf && strcmp(text + n - 4, "-efa") == 0;
    if (efa) {
        memcpy(buf, text, n - 4);
        memcpy(buf + n - 4, "-roce", 6);
        text = buf;
    }
    hwfit_link_in l;
    hwfit_status st = hwfit_link_parse(text, &l);
    if (st != HWFIT_OK) return st;
    if (efa && (l.kind != HWFIT_LINK_ETHERNET || l.transport == HWFIT_LINK_TRANSPORT_TCP))
        return HWFIT_EPARSE;
    if (l.kind == HWFIT_LINK_INFINIBAND) {
        static const double ib_bits[] = {0, 100e9, 200e9, 400e9, 800e9};
        t->nic_kind = HWFIT_NIC_INFINIBAND;
        t->nic_bits_per_s = ib_bits[l.generation];
    } else if (l.kind == HWFIT_LINK_ETHERNET) {
        t->nic_kind = efa ? HWFIT_NIC_EFA
                    : l.transport == HWFIT_LINK_TRANSPORT_TCP ? HWFIT_NIC_TCP : HWFIT_NIC_ROCE;
        t->nic_bits_per_s = l.port_bits_per_s;
    } else {
        return HWFIT_EPARSE;
    }
    t->nics_per_node = l.width;
    return HWFIT_OK;
}

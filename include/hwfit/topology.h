/**
 * @file topology.h
 * @brief The description of a cluster of identical GPU nodes: GPUs per node and their
 *        links, CPU sockets and vendor, PCIe switches, host memory, network interfaces,
 *        and the efficiencies and latencies the communication model assumes.
 *
 * A ::hwfit_topology is what the collective model (collective.h), the throughput model
 * (perf.h) and the node description (node.h) run on. It is filled from the catalogs
 * (gpu.h for the cards, link.h for the network strings) and needs no calculation module.
 *
 * @code
 * hwfit_topology t;
 * const hwfit_gpu *gpu;
 * hwfit_topology_init(&t);                       // 8 GPUs, PCIe Gen5, 2 AMD sockets
 * hwfit_gpu_find("rtx-pro-6000-server", &gpu);
 * hwfit_topology_set_gpu(&t, gpu);
 * t.nodes = 2;
 * hwfit_topology_parse_nic("2x400g-roce", &t);
 * @endcode
 */
#ifndef HWFIT_TOPOLOGY_H
#define HWFIT_TOPOLOGY_H

#include "hwfit/gpu.h"
#include "hwfit/link.h"
#include "hwfit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup topology Topology
 *  @brief The cluster a collective runs on: nodes, GPUs, host and network. Thread safety:
 *  all functions are reentrant; nothing allocates.
 *  @{ */

/** @brief Most GPUs per node the model accepts (an NVL72 rack is one node of 72). */
#define HWFIT_TOPOLOGY_MAX_GPUS_PER_NODE 128
/** @brief Most nodes the model accepts. */
#define HWFIT_TOPOLOGY_MAX_NODES 65536

/** @brief A setting that can follow NCCL's default policy or be forced. */
typedef enum hwfit_topology_mode {
    HWFIT_TOPOLOGY_AUTO = 0, /**< Decide as NCCL does by default (see the field using it). */
    HWFIT_TOPOLOGY_ON = 1,   /**< Forced on. */
    HWFIT_TOPOLOGY_OFF = 2   /**< Forced off. */
} hwfit_topology_mode;

/**
 * @brief How far apart two GPUs may be for P2P over PCIe, as NCCL_P2P_LEVEL says
 *        (NVIDIA/nccl src/graph/paths.cc, ncclTopoCheckP2p, and the PATH_* distances in
 *        src/graph/topo.h: LOC, NVL, PIX, PXB, PHB, SYS). Used when
 *        ::hwfit_topology::p2p is ::HWFIT_TOPOLOGY_AUTO.
 */
typedef enum hwfit_p2p_level {
    HWFIT_P2P_LEVEL_DEFAULT = 0, /**< NCCL's default: PXB, and SYS on AMD with at most 2 GPUs. */
    HWFIT_P2P_LEVEL_LOC = 1,     /**< Never over PCIe (NCCL_P2P_LEVEL=LOC; NVL is the same here). */
    HWFIT_P2P_LEVEL_PXB = 2,     /**< GPUs under one PCIe switch (PIX and PXB: hwfit has one switch level). */
    HWFIT_P2P_LEVEL_PHB = 3,     /**< Also GPUs on one CPU socket (its host bridge). */
    HWFIT_P2P_LEVEL_SYS = 4      /**< Also across the inter-socket link: every pair. */
} hwfit_p2p_level;

/** @brief Most switches ::hwfit_topology::pcie_switch_gpus can list. */
#define HWFIT_TOPOLOGY_MAX_SWITCH_LIST 8

/** @brief CPU vendor, which changes NCCL's treatment of P2P and network overhead. */
typedef enum hwfit_cpu_vendor {
    HWFIT_CPU_AMD = 0,   /**< AMD EPYC. */
    HWFIT_CPU_INTEL = 1, /**< Intel Xeon: P2P through the CPU costs 6/5 (64-byte TLPs, NCCL). */
    HWFIT_CPU_ARM = 2    /**< Arm (Grace and others). */
} hwfit_cpu_vendor;

/** @brief Transport of the node's network interfaces. */
typedef enum hwfit_nic_kind {
    HWFIT_NIC_ROCE = 0,       /**< Ethernet with RoCEv2 (RDMA). */
    HWFIT_NIC_INFINIBAND = 1, /**< InfiniBand (RDMA). */
    HWFIT_NIC_TCP = 2,        /**< Ethernet with TCP sockets (never GPUDirect RDMA). */
    HWFIT_NIC_EFA = 3 /**< AWS Elastic Fabric Adapter: Ethernet with the SRD transport,
                           reached by NCCL through the aws-ofi-nccl plugin; its payload
                           rate is RoCEv2's times ::hwfit_topology::efa_efficiency. */
} hwfit_nic_kind;

/**
 * @brief A cluster of identical nodes. Fill with ::hwfit_topology_init, then
 *        ::hwfit_topology_set_gpu, then change what differs.
 *
 * GPUs of a node are split evenly over its sockets, and over its PCIe switches when there
 * are any (switches are split evenly over sockets). A communicator of q ranks per node
 * uses the first q GPUs of each node.
 */
typedef struct hwfit_topology {
    uint64_t gpus_per_node; /**< GPUs in each node, 1-128. Default 8. */
    uint64_t nodes;         /**< Nodes, 1-65536. Default 1. */
    /* ---- the GPU (hwfit_topology_set_gpu fills these from the catalog) ---- */
    uint32_t gpu_pcie_gen;   /**< GPU host link PCIe generation, 1-6. Default 5. */
    uint32_t gpu_pcie_lanes; /**< GPU host link width: 16, or 8 when slots are bifurcated. Default 16. */
    uint32_t compute_capability; /**< NVIDIA SM version x 10 (120); 0 for AMD/unknown. Default 120. */
    int gpu_p2p_capable; /**< 1 when the driver allows P2P over PCIe. Default 1. */
    hwfit_gpu_peer_link peer_link;         /**< NVLink/xGMI, or none. Default none. */
    hwfit_gpu_peer_topology peer_topology; /**< Switch, bridge or mesh. Default none. */
    uint32_t peer_links;       /**< Peer links per GPU. Default 0. */
    uint32_t peer_domain_gpus; /**< GPUs one peer fabric joins (bridge 2 or 4, HGX 8, NVL72 72). Default 0. */
    double peer_bytes_per_s;   /**< Sum of a GPU's peer links, one direction, line rate, bytes/s. Default 0. */
    int nvls;                  /**< 1 when NVLink SHARP is available (NVSwitch, sm_90+). Default 0. */
    /** With ::hwfit_topology::p2p AUTO (the PCIe P2P policy below; here to fill padding): the farthest pair that still uses P2P, NCCL_P2P_LEVEL
     *  (::hwfit_p2p_level). Default ::HWFIT_P2P_LEVEL_DEFAULT (NCCL's own default). */
    hwfit_p2p_level p2p_level;
    /* ---- the host ---- */
    uint64_t sockets;             /**< CPU sockets per node, 1-8; must divide gpus_per_node. Default 2. */
    hwfit_cpu_vendor cpu_vendor;  /**< CPU vendor. Default ::HWFIT_CPU_AMD. */
    uint64_t pcie_switches;       /**< PCIe switches per node holding the GPUs; 0 = each GPU on its own CPU root port. Must divide gpus_per_node and be a multiple of sockets or fewer than them (then switch k hangs off socket k), unless @c pcie_switch_gpus lists the GPUs of each. Default 0. */
    uint32_t switch_uplink_lanes; /**< Width of each switch's uplink to the CPU (same generation as the GPU link). Default 16. */
    /** GPU P2P over PCIe. AUTO follows NCCL's default (src/graph/paths.cc, p2pLevel
     *  PATH_PXB): P2P only between GPUs under one PCIe switch (or anywhere on AMD hosts
     *  with at most 2 GPUs), and only if @c gpu_p2p_capable; otherwise traffic is staged
     *  through host memory as NCCL's SHM transport does. ON forces P2P everywhere
     *  (NCCL_P2P_LEVEL=SYS); OFF forces staging (NCCL_P2P_DISABLE=1). Default AUTO. */
    hwfit_topology_mode p2p;
    hwfit_link_kind socket_link_kind;  /**< Inter-socket link: ::HWFIT_LINK_XGMI or ::HWFIT_LINK_UPI. Default xGMI. */
    uint32_t socket_link_generation;   /**< Its generation (link.h): xGMI 3, UPI 1-3. Default 3. */
    uint32_t socket_links;             /**< Number of inter-socket links. Default 4. */
    double host_memory_bytes_per_s;    /**< Peak DRAM bandwidth per socket, bytes/s. Default 614.4e9 (12 channels DDR5-6400, EPYC 9005); ::hwfit_topology_set_cpu sets its vendor's (Intel: 307.2e9, 8 channels DDR5-4800, Xeon 4th gen). */
    /* ---- the network ---- */
    uint64_t nics_per_node;  /**< Network ports per node used by the GPUs. Default 0 (set when nodes > 1). */
    hwfit_nic_kind nic_kind; /**< Transport. Default ::HWFIT_NIC_ROCE. */
    /** GPUDirect RDMA between NIC and GPU memory. AUTO follows NCCL's default
     *  (netGdrLevel PATH_PXB): on when the NIC can share a PCIe switch with the GPU, i.e.
     *  when @c pcie_switches > 0 or the GPUs sit on an NVSwitch baseboard; never with TCP.
     *  Without it, network traffic is staged through host memory. Default AUTO. */
    hwfit_topology_mode gpudirect_rdma;
    double nic_bits_per_s;   /**< Speed of one port, bits/s (100-800 Gb/s; IB 100/200/400/800). Default 400e9. */
    double nic_mtu_bytes;    /**< MTU (IB/RoCE path MTU 256-4096; TCP 576-9216), or 0 for the transport's default. Default 0. */
    /** GPUs on each PCIe switch, in GPU order, for a box whose GPUs hang unevenly on its
     *  switches (e.g. 3, 3, 2). All zero (the default) splits the GPUs evenly over
     *  @c pcie_switches. (Placed here, in the struct's padding, to keep its size.) Otherwise the first @c pcie_switches entries (at most
     *  ::HWFIT_TOPOLOGY_MAX_SWITCH_LIST) are each at least 1 and sum to @c gpus_per_node,
     *  the rest are 0; switch k then hangs off socket k x sockets / pcie_switches
     *  (or socket k when there are fewer switches than sockets). */
    uint8_t pcie_switch_gpus[8];
    /* ---- efficiencies and latencies (assumptions, with their sources) ---- */
    /** Share of a PCIe link's line rate a collective achieves. Default 0.7617: NCCL models
     *  a PCIe lane as width x speed / 80 (src/graph/topo.h), 48 GB/s for Gen5 x16 = 0.7617
     *  of 63.0 GB/s. */
    double pcie_efficiency;
    /** Share of the P2P rate left when staging through host memory (SHM). Default 0.73,
     *  calibrated: 35 GB/s busbw for 4 RTX 5090s on PCIe Gen5 without P2P (NVIDIA/nccl#1639)
     *  against 48 GB/s with P2P. */
    double shm_efficiency;
    /** Share of peak DRAM bandwidth available to staged traffic. Default 0.75 (STREAM-like
     *  sustained share). */
    double host_memory_efficiency;
    /** Share of one inter-socket link's line rate a GPU P2P flow achieves; socket links are
     *  used one per flow. Default 0.70: 42-51 GB/s measured cross-socket P2P on EPYC
     *  9004/9005 over 64 GB/s xGMI links (voipmonitor/rtx6kpro hardware/pcie-bandwidth.md). */
    double socket_link_efficiency;
    /** Share of NVLink/xGMI line rate. Default 0.80: 128-byte writes carry 32 bytes of
     *  header (link.h; "~20GB/s effective" of 25, NVIDIA/nccl-tests#149). */
    double peer_efficiency;
    /** NVLS all-reduce algorithm bandwidth as a share of the effective peer bandwidth.
     *  Default 0.797 = NCCL's Hopper nvlsEfficiency 0.85 x (16-1)/16 channels (tuning.cc). */
    double nvls_efficiency;
    /** Share of the NIC payload rate (after protocol overhead) achieved. Default 0.97:
     *  48.5 of 49.7 GB/s per NDR port (NVIDIA/nccl-tests#267). */
    double nic_efficiency;
    /** Extra latency per ring step staged through host memory, s. Default 1.5e-6,
     *  calibrated: 8-byte all-reduce of 8 RTX 4090s without P2P takes 42 us
     *  (NVIDIA/nccl#1530) against NCCL's 20.6 us PCI model. */
    double shm_step_latency_s;
    /** CPU cost of posting a network operation, s; NCCL uses 1 us on Intel, 2 us on AMD
     *  (tuning.cc getNetOverhead). Default 2e-6. */
    double net_overhead_s;
    /** Share of the RoCEv2-equivalent NIC rate that NCCL reaches over AWS EFA (SRD through
     *  libfabric and the aws-ofi-nccl plugin), on top of nic_efficiency. Default 0.65,
     *  fitted to nccl-tests all-reduces on 2-4 p4dn.24xlarge (4 x 100 Gb/s EFA): ~30 GB/s
     *  a node of the 50 GB/s line rate on rings (3 and 4 nodes: 31.8 and 29.6 GB/s busbw)
     *  and on the 2-node tree (57.2 GB/s busbw = 30.5 GB/s algbw), NVIDIA/nccl#527; the
     *  same ~60 % of line rate as the ring's 60 of 100 Gb/s on p3dn (NVIDIA/nccl-tests#22). */
    double efa_efficiency;
} hwfit_topology;

/**
 * @brief Fill a topology with the defaults documented on each field: one node of 8 GPUs
 *        on PCIe Gen5 x16 root ports of 2 AMD sockets, no switches, no NVLink, P2P as
 *        NCCL decides (so staged through host memory here), no network.
 * @param[out] topology The topology; NULL is ignored.
 */
HWFIT_API void hwfit_topology_init(hwfit_topology *topology);

/**
 * @brief Copy a catalog card's links into a topology: PCIe generation and width (kept
 *        when the card has no PCIe host link), compute capability, P2P capability, peer
 *        link kind, topology, links, rate and domain, NVLS.
 * @param[in,out] topology The topology; NULL gives ::HWFIT_EINVAL.
 * @param[in]     gpu      A catalog row; NULL gives ::HWFIT_EINVAL.
 * @retval HWFIT_OK     copied.
 * @retval HWFIT_EINVAL a pointer is NULL.
 */
HWFIT_API hwfit_status hwfit_topology_set_gpu(hwfit_topology *topology, const hwfit_gpu *gpu);

/**
 * @brief Set the CPU vendor and what follows from it: AMD: 4 xGMI 3 socket links, 12
 *        channels of DDR5-6400 a socket (EPYC 9005, 614.4 GB/s), 2 us network overhead;
 *        Intel: 4 UPI 2.0 links and 8 channels of DDR5-4800 a socket (Xeon 4th gen,
 *        Sapphire Rapids, 307.2 GB/s), 1 us; Arm: socket links and memory unchanged, 1 us
 *        (NCCL's getNetOverhead in tuning.cc).
 * @param[in,out] topology The topology; NULL gives ::HWFIT_EINVAL.
 * @param[in]     vendor   The vendor.
 * @retval HWFIT_OK     set.
 * @retval HWFIT_EINVAL @p topology is NULL or @p vendor is not a ::hwfit_cpu_vendor.
 */
HWFIT_API hwfit_status hwfit_topology_set_cpu(hwfit_topology *topology, hwfit_cpu_vendor vendor);

/**
 * @brief Set the network from a NIC string "[<count>x]<speed>g-<roce|ib|tcp|efa>", e.g.
 *        "2x400g-roce", "8x400g-ib", "100g-tcp", "4x100g-efa" (see ::hwfit_link_parse;
 *        EFA takes the Ethernet speeds).
 * @param[in]     text     The NIC string; NULL gives ::HWFIT_EINVAL.
 * @param[in,out] topology Gets @c nics_per_node, @c nic_kind and @c nic_bits_per_s;
 *                         NULL gives ::HWFIT_EINVAL. Untouched on error.
 * @retval HWFIT_OK     set.
 * @retval HWFIT_EINVAL a pointer is NULL.
 * @retval HWFIT_EPARSE not a NIC string (e.g. "pcie5x16", "400g").
 * @retval HWFIT_EDOM   a speed that does not exist for the kind (e.g. "300g-ib").
 */
HWFIT_API hwfit_status hwfit_topology_parse_nic(const char *text, hwfit_topology *topology);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_TOPOLOGY_H */

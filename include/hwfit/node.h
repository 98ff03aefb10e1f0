/**
 * @file node.h
 * @brief A whole server: GPUs, host, memory, storage, network, power, chassis and costs.
 *
 * A ::hwfit_node describes one server (or a cluster of identical servers) as procurement
 * writes it down. It is a plain caller-allocated struct without pointers, built from the
 * domain modules' own input structs wherever one exists, so that no default or formula is
 * written twice:
 *
 * | part | held as | filled from other parts by ::hwfit_node_evaluate |
 * |---|---|---|
 * | host sizing (sockets, channels, DIMMs, speed, lanes, rules) | ::hwfit_host_in | cores, GPUs, RAM, VRAM, NVMe drives, NICs, lane-taking socket links |
 * | GPU interconnect (CPU vendor, socket links, P2P, GPUDirect, efficiencies) | ::hwfit_topology | GPUs and nodes, the card's links, sockets, switches, lanes per GPU, memory bandwidth, NICs |
 * | local drives and RAID | ::hwfit_raid_in | - |
 * | NAS transport and efficiencies | ::hwfit_transfer_in | rate (from the network) and capacity |
 * | network ports | ::hwfit_link_in | - |
 * | power supplies and the headroom rule | ::hwfit_psu_in | load and peak load (from the budget) |
 * | heat, airflow and cooling thresholds | ::hwfit_thermal_in | heat (the wall power) |
 * | electricity price, PUE, duty | ::hwfit_energy_in | power (the wall power) |
 * | capital cost and service life | ::hwfit_tco_in | annual energy cost, GPU count |
 *
 * The parts that no domain module describes (the GPU model and count, the CPU model,
 * clock and TDP, the DIMM size, the power of components) are node fields. Fields of an
 * embedded struct listed in the right-hand column are ignored in the node: evaluation
 * overwrites them from the other parts.
 *
 * Start with ::hwfit_node_init, set what you know (or read a JSON file with
 * hwfit_node_load() from node_spec.h), check it with ::hwfit_node_check (which says
 * which field is wrong and why) and evaluate it with ::hwfit_node_evaluate, which runs
 * every domain module once and returns their inputs and outputs, ready for what-if calls.
 *
 * Thread safety: every function is reentrant and touches only its arguments. Only the
 * collective estimates allocate (their scratch, freed before they return: collective.h);
 * ::HWFIT_ENOMEM when that fails.
 */
#ifndef HWFIT_NODE_H
#define HWFIT_NODE_H

#include "hwfit/collective.h"
#include "hwfit/gpu.h"
#include "hwfit/gpu_set.h"
#include "hwfit/host.h"
#include "hwfit/link.h"
#include "hwfit/power.h"
#include "hwfit/status.h"
#include "hwfit/storage.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup node Node
 *  @brief A whole server description, its validation and its evaluation by every domain
 *  module. Thread safety: all functions are reentrant.
 *  @{ */

/** @brief Size of the text fields (names and models), including the NUL. */
#define HWFIT_NODE_TEXT_SIZE 64
/** @brief Size of hwfit_node_costs::currency, including the NUL. */
#define HWFIT_NODE_CURRENCY_SIZE 8
/** @brief Most extra power-budget lines (fans, board, other) a node holds. */
#define HWFIT_NODE_MAX_COMPONENTS 16
/** @brief Most GPUs in one node. */
#define HWFIT_NODE_MAX_GPUS 128
/** @brief Most identical nodes in a cluster. */
#define HWFIT_NODE_MAX_NODES 65536

/** @brief How the chassis is cooled. */
typedef enum hwfit_node_cooling {
    HWFIT_NODE_COOLING_AIR = 0,   /**< Fans move room air through the chassis. */
    HWFIT_NODE_COOLING_LIQUID = 1 /**< Direct liquid cooling of the GPUs (and CPUs). */
} hwfit_node_cooling;

/** @brief The GPUs of one node. */
typedef struct hwfit_node_gpus {
    char model[HWFIT_NODE_TEXT_SIZE]; /**< GPU name, e.g. "rtx-pro-6000-server": the built-in
                                           catalog (::hwfit_gpu_find), then the node's
                                           hwfit_node::gpu_set. Required. */
    uint64_t count;       /**< GPUs per node, 1 to ::HWFIT_NODE_MAX_GPUS. Required; default 0. */
    double power_limit_w; /**< Board power limit of each GPU, W, or 0 for the catalog TDP.
                               When set, in (0, 1.5 x TDP]. Default 0. */
    double price;         /**< Price of one card in hwfit_node_costs::currency, >= 0, or 0
                               when unknown. Default 0. */
} hwfit_node_gpus;

/** @brief The CPUs of one node (the sockets, channels and lanes are in ::hwfit_host_in). */
typedef struct hwfit_node_cpu {
    char model[HWFIT_NODE_TEXT_SIZE]; /**< Free text, e.g. "AMD EPYC 9575F"; may be empty. */
    uint64_t cores_per_socket;   /**< Physical cores of one socket, 1 to 1024. Required; default 0. */
    uint64_t threads_per_socket; /**< Hardware threads of one socket (cores x SMT), or 0 for
                                      the same as the cores. Default 0. */
    double boost_clock_hz;       /**< Highest boost clock, Hz, or 0 when unknown; reported,
                                      not used in calculations. Default 0. */
    double tdp_w;                /**< Thermal design power of one socket, W, in (0, 2000]:
                                      what the power budget counts. Required; default 0. */
} hwfit_node_cpu;

/** @brief Host memory beyond what ::hwfit_host_in holds (the DIMM count and speed). */
typedef struct hwfit_node_memory {
    double dimm_bytes; /**< Capacity of one DIMM, bytes (> 0). DIMMs are sold in binary
                            sizes: a "64 GB" RDIMM holds 64 GiB. Required; default 0. */
    double dimm_w;     /**< Power of one DIMM in the budget, W, in [0, 100]. Default 10
                            (an assumption for a loaded DDR5 RDIMM; no vendor figure). */
    int ecc;           /**< 1 when the DIMMs have ECC. Default 1. */
    int registered;    /**< 1 for registered (RDIMM) modules. Default 1. */
} hwfit_node_memory;

/** @brief Local drives of one node. */
typedef struct hwfit_node_storage {
    hwfit_raid_in raid; /**< Drives, sizes, rates, RAID level, BER, MTTF (see storage.h).
                             drives = 0: no local data drives. Default: ::hwfit_raid_init. */
    int raid_stated;    /**< 1 when the level was stated; 0 when the description names no
                             level and hwfit_raid_in::layout is an assumption. Default 1. */
    double drive_w;     /**< Power of one drive in the budget, W, in [0, 100]. Default 18
                             (Micron 9550 Gen5 NVMe: at most 18 W average in sequential
                             read or write, per its specification table). */
} hwfit_node_storage;

/** @brief Network storage reached over the node's network. */
typedef struct hwfit_node_nas {
    double capacity_bytes;      /**< Usable capacity, bytes, or 0 for no NAS. Default 0. */
    hwfit_transfer_in transfer; /**< Transport (local, NVMe-oF RoCE or TCP), its efficiencies
                                     and the NAS's own rate limit. @c bytes, @c rate and
                                     @c capacity are filled by evaluation. Default:
                                     ::hwfit_transfer_init with the NVMe-oF RoCE transport. */
} hwfit_node_nas;

/** @brief Network ports of one node (the fabric between nodes and to storage). */
typedef struct hwfit_node_network {
    hwfit_link_in link; /**< Kind, speed, transport and number of ports (hwfit_link_in::width);
                             width 0 means no network. Default: one 400GbE RoCEv2 port
                             removed (width 0). */
    uint64_t adapters;  /**< Network adapters (PCIe devices), or 0 for one per port. Default 0. */
    double adapter_w;   /**< Power of one adapter with its optics, W, in [0, 500]. Default 25
                             (an assumption for a 400 Gb/s adapter with one optical module). */
} hwfit_node_network;

/** @brief Power supplies and the lines of the power budget not derived from other parts. */
typedef struct hwfit_node_power {
    hwfit_psu_in psu;            /**< PSU count, rating, redundancy, class, voltage and the
                                      headroom rule; load and peak load are filled by
                                      evaluation. Default: ::hwfit_psu_init. */
    double gpu_transient_factor; /**< Peak GPU draw over the board power, in [1, 10], for
                                      the peak load. Default 1. */
    double switch_w;             /**< Power of one PCIe switch, W, in [0, 500]. Default 25
                                      (an assumption; no vendor figure). */
    hwfit_power_component extra[HWFIT_NODE_MAX_COMPONENTS]; /**< Further budget lines: fans,
                                      board, other. GPUs, CPUs, DIMMs, drives, NICs and
                                      switches come from their parts and must not be
                                      repeated here. */
    uint64_t extra_count;        /**< Lines of @c extra in use. Default 0. */
} hwfit_node_power;

/** @brief The chassis. */
typedef struct hwfit_node_chassis {
    uint64_t rack_units;        /**< Height in rack units (U), 0 when unknown, at most 64.
                                     Default 0. */
    hwfit_node_cooling cooling; /**< Air or liquid. Default air. */
    hwfit_thermal_in thermal;   /**< Temperature rise, air properties, chassis per rack and
                                     the cooling thresholds; the heat is filled by
                                     evaluation. Default: ::hwfit_thermal_init. */
} hwfit_node_chassis;

/** @brief Prices and running costs. */
typedef struct hwfit_node_costs {
    char currency[HWFIT_NODE_CURRENCY_SIZE]; /**< Currency of every price, e.g. "EUR".
                                                  Default "EUR". */
    hwfit_energy_in energy; /**< Electricity price, PUE, duty cycle, idle power; the power is
                                 filled by evaluation. Default: ::hwfit_energy_init. */
    hwfit_tco_in tco;       /**< Capital cost of the node (capex), other running costs,
                                 years, discount rate, utilisation; the energy cost and GPU
                                 count are filled by evaluation. Default: ::hwfit_tco_init. */
} hwfit_node_costs;

/** @brief A whole server, or a cluster of identical servers. Start with ::hwfit_node_init. */
typedef struct hwfit_node {
    char name[HWFIT_NODE_TEXT_SIZE]; /**< Label; may be empty. */
    uint64_t nodes;              /**< Identical nodes, 1 to ::HWFIT_NODE_MAX_NODES, joined by
                                      hwfit_node::network. Default 1. */
    hwfit_node_gpus gpu;         /**< GPUs of each node. */
    hwfit_node_cpu cpu;          /**< CPUs of each node. */
    hwfit_node_memory memory;    /**< DIMM size, power, ECC. */
    hwfit_host_in host;          /**< Sockets, memory channels, DIMMs and speed, PCIe lanes,
                                      lanes per inter-socket link, per GPU/NVMe/NIC, switches
                                      and the rules (cores per GPU, RAM to VRAM). @c cores,
                                      @c gpus, @c ram_bytes, @c vram_bytes, @c nvme, @c nics and
                                      @c socket_links (the topology's links when they are xGMI,
                                      which take PCIe lanes; 0 for UPI) are filled by
                                      evaluation. Default: ::hwfit_host_init with 1 socket. */
    hwfit_topology topology;     /**< The GPU interconnect as the collective module sees it:
                                      CPU vendor, inter-socket link kind, generation and count,
                                      P2P and GPUDirect RDMA policies, efficiencies and
                                      latencies. @c gpus_per_node, @c nodes, the card's fields
                                      (::hwfit_topology_set_gpu), @c sockets, @c pcie_switches,
                                      @c switch_uplink_lanes, @c gpu_pcie_lanes,
                                      @c host_memory_bytes_per_s and the NIC fields are filled
                                      by evaluation from the other parts. Default:
                                      ::hwfit_topology_init (AMD, 4 xGMI links). */
    hwfit_node_storage storage;  /**< Local drives. */
    hwfit_node_nas nas;          /**< Network storage. */
    hwfit_node_network network;  /**< Network ports. */
    hwfit_node_power power;      /**< Power supplies and budget lines. */
    hwfit_node_chassis chassis;  /**< Chassis and cooling. */
    hwfit_node_costs costs;      /**< Prices. */
    const hwfit_gpu_set *gpu_set; /**< Cards of one's own (gpu_set.h) where gpu.model is looked
                                      up after the built-in catalog; NULL for the catalog only.
                                      Not owned: it must outlive every use of the node.
                                      ::hwfit_node_parse_cards sets it. Default NULL. */
} hwfit_node;

/** @brief Everything ::hwfit_node_evaluate computes for one node: the domain modules'
 *  inputs as evaluation filled them, and their outputs. */
typedef struct hwfit_node_eval {
    const hwfit_gpu *gpu;        /**< The catalog row of the GPUs. */
    uint64_t gpus;               /**< GPUs per node. */
    uint64_t total_gpus;         /**< GPUs of all nodes. */
    double gpu_power_w;          /**< Board power of one GPU used in the budget, W. */
    double vram_bytes;           /**< Memory of all GPUs of one node, bytes. */
    double total_vram_bytes;     /**< Memory of all GPUs of all nodes, bytes. */
    double ram_bytes;            /**< Host RAM of one node: DIMMs x DIMM size, bytes. */
    uint64_t cores;              /**< Physical cores of one node. */
    uint64_t threads;            /**< Hardware threads of one node. */
    hwfit_link_out gpu_link;     /**< The GPU's host link at full width (catalog PCIe
                                      generation and hwfit_host_in::gpu_lanes). */
    hwfit_link_out gpu_link_bifurcated; /**< The same at hwfit_host_in::gpu_bifurcated_lanes. */
    hwfit_topology topology;     /**< The interconnect with every derived field filled, ready
                                      for ::hwfit_collective_estimate and what-if changes. */
    int allreduce_evaluated;     /**< 1 when the cluster has 2 or more GPUs. */
    hwfit_collective_in allreduce_in; /**< All-reduce of 1 GiB over every GPU (the defaults of
                                           ::hwfit_collective_init on @c topology). */
    hwfit_collective_out allreduce;   /**< Its time, algbw, busbw and bottleneck. */
    hwfit_host_in host_in;       /**< Host inputs with the derived fields filled. */
    hwfit_host_out host;         /**< Host results. */
    int storage_evaluated;       /**< 1 when the node has local drives. */
    hwfit_raid_out raid;         /**< Array results (zeros without drives). */
    int network_evaluated;       /**< 1 when the node has network ports. */
    hwfit_link_out network;      /**< Rates of all ports together (zeros without). */
    int nas_evaluated;           /**< 1 when the node has a NAS and a network to reach it. */
    hwfit_transfer_in nas_in;    /**< NAS transfer inputs: capacity as @c bytes (time to
                                      read it all), the network line rate as the rate. */
    hwfit_transfer_out nas;      /**< Effective NAS rate and time to read all of it. */
    hwfit_power_budget_in budget_in; /**< The power budget's lines. */
    hwfit_power_budget_out budget;   /**< DC load and peak. */
    hwfit_psu_in psu_in;         /**< PSU inputs with the load filled. */
    hwfit_psu_out psu;           /**< Usable capacity, headroom, efficiency, wall power. */
    hwfit_thermal_in thermal_in; /**< Thermal inputs with the heat (wall power) filled. */
    hwfit_thermal_out thermal;   /**< Heat, airflow and the cooling recommendation. */
    hwfit_energy_in energy_in;   /**< Energy inputs with the wall power filled. */
    hwfit_energy_out energy;     /**< Annual energy and cost of one node. */
    hwfit_tco_in tco_in;         /**< TCO inputs with the energy cost and GPUs filled. */
    hwfit_tco_out tco;           /**< Cost of ownership of one node. */
} hwfit_node_eval;

/**
 * @brief Reset a node to the documented defaults: one node, no GPUs, one socket, no drives,
 *        no NAS, no network, no PSUs, air cooling, EUR, and each embedded input struct
 *        at its own module's defaults (see the field documentation).
 * @param[out] node The node; NULL is ignored.
 */
HWFIT_API void hwfit_node_init(hwfit_node *node);

/**
 * @brief Check a node and say which field is wrong and why.
 *
 * The message starts with the field's path as a node file writes it (e.g.
 * "gpu.count: must be 1 to 128, got 0", "power.redundancy: leaves no PSU to carry the
 * load"); docs/node-spec.md maps paths to fields.
 *
 * @param[in]  node The node; NULL gives ::HWFIT_EINVAL.
 * @param[out] err  The reason on failure (line and column 0), cleared on success; may be NULL.
 * @retval HWFIT_OK        valid: ::hwfit_node_evaluate will succeed.
 * @retval HWFIT_EINVAL    @p node is NULL, or an enum field is out of range.
 * @retval HWFIT_ENOTFOUND the GPU model is not in the catalog.
 * @retval HWFIT_EDOM      a count or quantity is missing, out of range, or inconsistent.
 * @retval HWFIT_EUNSUPPORTED no efficiency curve for the PSU class, or low-line input
 *                            without a low-line rating.
 * @retval HWFIT_ERANGE    a count overflows.
 */
HWFIT_API hwfit_status hwfit_node_check(const hwfit_node *node, hwfit_error *err);

/**
 * @brief Evaluate a node with every domain module: host, RAID, network, NAS, power budget,
 *        PSUs, thermal, energy and TCO, each once, with the derived inputs filled.
 * @param[in]  node The node; NULL gives ::HWFIT_EINVAL.
 * @param[out] out  The results; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK           evaluated; every result is finite.
 * @retval HWFIT_EINVAL       a pointer is NULL or an enum field is out of range.
 * @retval HWFIT_ENOTFOUND    the GPU model is not in the catalog.
 * @retval HWFIT_EDOM         the node is invalid (::hwfit_node_check says why).
 * @retval HWFIT_EUNSUPPORTED no efficiency curve for the PSU class, or low-line input
 *                            without a low-line rating.
 * @retval HWFIT_ERANGE       a count overflows.
 */
HWFIT_API hwfit_status hwfit_node_evaluate(const hwfit_node *node, hwfit_node_eval *out);

/**
 * @brief Append a line to hwfit_node_power::extra.
 * @param[in,out] node  The node; NULL gives ::HWFIT_EINVAL. Unchanged on error.
 * @param[in]     kind  ::HWFIT_POWER_COMPONENT_FAN, ::HWFIT_POWER_COMPONENT_BOARD or
 *                      ::HWFIT_POWER_COMPONENT_OTHER (the other kinds come from their parts).
 * @param[in]     count Parts, at most 1e6.
 * @param[in]     watts Power of one part, W, in [0, 1e7].
 * @retval HWFIT_OK       appended.
 * @retval HWFIT_EINVAL   @p node is NULL or @p kind is not fan, board or other.
 * @retval HWFIT_EDOM     @p count or @p watts out of range.
 * @retval HWFIT_EBUFSIZE ::HWFIT_NODE_MAX_COMPONENTS lines are already in use.
 */
HWFIT_API hwfit_status hwfit_node_add_power(hwfit_node *node, hwfit_power_component_kind kind,
                                            uint64_t count, double watts);

/**
 * @brief Name of a cooling kind: "air", "liquid".
 * @param[in] cooling Any value; others give "unknown".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_node_cooling_name(hwfit_node_cooling cooling);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_NODE_H */

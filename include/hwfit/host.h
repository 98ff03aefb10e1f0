/**
 * @file host.h
 * @brief Host sizing: cores per GPU, host RAM per VRAM, memory bandwidth, DIMMs per
 *        channel, and the PCIe lane budget.
 *
 * ::hwfit_host_evaluate checks a host against rules of thumb that are inputs (cores per
 * GPU, RAM to VRAM ratio, the DIMM speed at two DIMMs per channel), computes the peak
 * memory bandwidth per socket and in total, and counts PCIe lanes: available on one or
 * more sockets after the inter-socket links (AMD xGMI), needed by GPUs, NVMe drives and
 * NICs, with GPUs bifurcated to fewer lanes, and with PCIe switches.
 *
 * Each part is evaluated only when its inputs are given (see the @c _evaluated flags):
 * cores and GPUs for the cores rule, RAM and VRAM for the RAM rule, channels, DIMMs and
 * speed for memory, lanes per socket for the lane budget.
 *
 * Formulas and their sources: docs/formulas.md, section "host".
 */
#ifndef HWFIT_HOST_H
#define HWFIT_HOST_H

#include "hwfit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup host Host
 *  @brief CPU cores, RAM, memory bandwidth and PCIe lanes of a GPU server's host.
 *
 *  Thread safety: every function is pure and reentrant; nothing allocates.
 *  @{ */

/** @brief A count or quantity that was not given: the part that needs it is skipped. */
#define HWFIT_HOST_UNSET 0

/** @brief Inputs of ::hwfit_host_evaluate. Initialise with ::hwfit_host_init. */
typedef struct hwfit_host_in {
    uint64_t sockets;            /**< CPU sockets, in [1, 8]. Default 1. */
    uint64_t cores;              /**< Physical cores of all sockets, or unset. Default unset. */
    uint64_t gpus;               /**< GPUs in the host, or unset. Default unset. */
    double cores_per_gpu_rule;   /**< Rule: at least this many cores per GPU, in [0, 1e4].
                                      Default 4 (Puget Systems' "at least 4 cores per
                                      GPU"; the seed documents use 8, NVIDIA DGX B200
                                      ships 14). */
    double ram_bytes;            /**< Host RAM in bytes, or unset. Default unset. */
    double vram_bytes;           /**< GPU memory of all GPUs in bytes, or unset. Default
                                      unset. */
    double ram_to_vram_rule;     /**< Rule: host RAM >= this x VRAM, in [0, 100]. Default 2
                                      (a rule of thumb attributed to Puget Systems; not
                                      verified from a primary source). */
    uint64_t channels_per_socket; /**< Memory channels per socket (EPYC 9005: 12), or unset.
                                       Default unset. */
    uint64_t dimms;              /**< DIMMs in all sockets, or unset. Default unset. */
    double speed_mts;            /**< DIMM data rate at one DIMM per channel, MT/s (10^6
                                      transfers/s; DDR5-6400 = 6400), in (0, 1e5], or
                                      unset. Default unset. */
    double speed_2dpc_mts;       /**< Data rate with two DIMMs per channel, MT/s, or unset
                                      when the platform's rule is unknown (the 1-DPC rate
                                      is then kept and flagged). Default unset. */
    uint64_t max_dimms_per_channel; /**< Slots per channel of the platform, in [1, 4].
                                         Default 2. */
    uint64_t channel_width_bytes; /**< Data bytes per transfer of one channel, in [1, 64].
                                       Default 8 (DDR5: two 32-bit subchannels, JEDEC
                                       JESD79-5). */
    uint64_t lanes_per_socket;   /**< PCIe lanes of one socket (EPYC 9005: 128), or unset.
                                      Default unset. */
    uint64_t socket_links;       /**< Inter-socket links (xGMI) of each socket that take
                                      PCIe lanes, used with 2 or more sockets. Default 4
                                      (the usual 2P EPYC layout: 128 lanes left; boards
                                      with 3 links leave 160). Set 0 for Intel UPI. */
    uint64_t socket_link_lanes;  /**< Lanes per inter-socket link. Default 16. */
    uint64_t gpu_lanes;          /**< Lanes per GPU, in [1, 32]. Default 16. */
    uint64_t gpu_bifurcated_lanes; /**< Lanes per GPU with bifurcation, in [1, 32].
                                        Default 8 (x16 split into x8/x8). */
    uint64_t nvme;               /**< NVMe drives. Default 0. */
    uint64_t nvme_lanes;         /**< Lanes per NVMe drive. Default 4. */
    uint64_t nics;               /**< Network adapters. Default 0. */
    uint64_t nic_lanes;          /**< Lanes per NIC. Default 16. */
    uint64_t other_lanes;        /**< Other lanes the host must give (BMC, boot drive,
                                      risers). Default 0. */
    uint64_t switches;           /**< PCIe switches. Default 0. */
    uint64_t switch_upstream_lanes; /**< Host lanes per switch (upstream port). Default 16. */
    uint64_t switch_downstream_lanes; /**< Device lanes per switch, or unset for no check.
                                           Default unset. */
    int switch_gpus;             /**< 1: the GPUs sit behind the switches. Default 1. */
    int switch_nvme;             /**< 1: the NVMe drives sit behind the switches. Default 0. */
    int switch_nics;             /**< 1: the NICs sit behind the switches. Default 0. */
} hwfit_host_in;

/** @brief Results of ::hwfit_host_evaluate. Parts not evaluated are 0. */
typedef struct hwfit_host_out {
    int cores_evaluated;         /**< 1 when cores and GPUs were given. */
    double cores_per_gpu;        /**< cores / gpus. */
    double cores_needed;         /**< rule x gpus. */
    int meets_cores_rule;        /**< 1 when cores_per_gpu >= rule. */

    int ram_evaluated;           /**< 1 when RAM and VRAM were given. */
    double ram_to_vram;          /**< ram / vram. */
    double ram_needed_bytes;     /**< rule x vram, bytes. */
    int meets_ram_rule;          /**< 1 when ram_to_vram >= rule. */

    int memory_evaluated;        /**< 1 when channels, DIMMs and speed were given. */
    uint64_t channels;           /**< Channels of all sockets. */
    uint64_t populated_channels; /**< Channels with at least one DIMM: min(dimms, channels). */
    double dimms_per_channel;    /**< dimms / channels (1 = one DIMM per channel). */
    uint64_t max_dimms_in_a_channel; /**< The fullest channel: ceil(dimms / channels). */
    int balanced;                /**< 1 when every channel holds the same number of DIMMs. */
    int within_slot_limit;       /**< 1 when no channel needs more than the slots it has. */
    double effective_speed_mts;  /**< Data rate used: speed_mts at 1 DPC, speed_2dpc_mts
                                      when a channel holds 2 or more. */
    int downclocked;             /**< 1 when the 2-DPC rate is below the 1-DPC rate. */
    int speed_rule_known;        /**< 0 when 2 DPC is used but no 2-DPC rate was given. */
    double channel_bandwidth_bytes_per_s; /**< One channel: rate x width, bytes/s. */
    double memory_bandwidth_per_socket_bytes_per_s; /**< Peak per socket, bytes/s. */
    double memory_bandwidth_bytes_per_s; /**< Peak of all sockets, bytes/s. */
    double dimm_bytes;           /**< ram / dimms when RAM was given, else 0. */

    int lanes_evaluated;         /**< 1 when lanes per socket were given. */
    uint64_t pcie_lanes_total;   /**< sockets x lanes per socket. */
    uint64_t socket_link_lanes_used; /**< Lanes the inter-socket links take, all sockets. */
    uint64_t pcie_lanes_available; /**< Total minus the inter-socket links. */
    uint64_t gpu_lanes_needed;   /**< gpus x gpu_lanes. */
    uint64_t nvme_lanes_needed;  /**< nvme x nvme_lanes. */
    uint64_t nic_lanes_needed;   /**< nics x nic_lanes. */
    uint64_t pcie_lanes_needed;  /**< Everything attached directly at full width (GPUs,
                                      NVMe, NICs, other). */
    int lanes_fit;               /**< 1 when needed <= available. */
    uint64_t pcie_lanes_needed_bifurcated; /**< The same with GPUs at the bifurcated width. */
    int lanes_fit_bifurcated;    /**< 1 when that fits. */
    uint64_t pcie_lanes_needed_switched; /**< With switches: upstream lanes of the switches
                                              plus the devices not behind them; equals
                                              pcie_lanes_needed without switches. */
    uint64_t switch_device_lanes; /**< Device lanes behind the switches. */
    int lanes_fit_switched;      /**< 1 when the switched layout fits the host lanes and the
                                      switches' downstream lanes (when given). */
    double switch_oversubscription; /**< Device lanes behind switches / their upstream lanes
                                         (0 without switches). */
} hwfit_host_out;

/**
 * @brief Fill @p in with the documented defaults (1 socket, rules 4 cores/GPU and 2x VRAM,
 *        2 slots per channel, 8-byte channels, 4 xGMI links of 16 lanes, x16 GPUs, x4 NVMe,
 *        x16 NICs).
 * @param[out] in The inputs to initialise; NULL is ignored.
 */
HWFIT_API void hwfit_host_init(hwfit_host_in *in);

/**
 * @brief Cores per GPU, RAM/VRAM, memory bandwidth and DIMM population, PCIe lane budget.
 * @param[in]  in  Inputs; NULL gives ::HWFIT_EINVAL.
 * @param[out] out Results, written only on success; NULL gives ::HWFIT_EINVAL.
 * @retval HWFIT_OK     computed; every result is finite.
 * @retval HWFIT_EINVAL a pointer is NULL.
 * @retval HWFIT_EDOM   sockets outside [1, 8]; a memory part given only in part (channels,
 *                      DIMMs and speed go together); a number NaN, infinite, negative or out
 *                      of range; inter-socket links taking more lanes than a socket has.
 * @retval HWFIT_ERANGE a lane or channel count overflows, or RAM / VRAM overflows a double
 *                      (VRAM near 1e-300 bytes).
 */
HWFIT_API hwfit_status hwfit_host_evaluate(const hwfit_host_in *in, hwfit_host_out *out);

/**
 * @brief Check the inputs of ::hwfit_host_evaluate: which field is wrong, and why.
 *
 * Runs the same code as ::hwfit_host_evaluate on the same inputs without writing results, so it
 * returns exactly the status that ::hwfit_host_evaluate returns (given a non-NULL output).
 * @param[in]  in      Inputs; NULL gives ::HWFIT_EINVAL (field "in").
 * @param[out] problem The field at fault and the rule it breaks, or cleared when the inputs
 *                     are valid; may be NULL.
 * @return The status of ::hwfit_host_evaluate for @p in.
 */
HWFIT_API hwfit_status hwfit_host_validate(const hwfit_host_in *in, hwfit_problem *problem);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_HOST_H */

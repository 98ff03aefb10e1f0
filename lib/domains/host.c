/* host.c - cores per GPU, RAM per VRAM, memory bandwidth, DIMMs per channel, PCIe lanes.
 *
 * Sources (also in docs/formulas.md, section "host"):
 * - Peak DRAM bandwidth = channels x data rate (MT/s) x bytes per transfer; a DDR5 channel
 *   carries 64 data bits as two 32-bit subchannels (JEDEC JESD79-5).
 * - PCIe lanes left in 2P AMD EPYC after the socket-to-socket xGMI links, each of which
 *   takes a x16 link from each socket (ServeTheHome, "AMD EPYC 7002 Rome ... PCIe lanes";
 *   the same mechanism in EPYC 9004/9005 SP5).
 * - Rules of thumb (cores per GPU, RAM per VRAM) are inputs; see hwfit_host_in.
 */
#include <math.h>
#include <string.h>

#include "hwfit/host.h"
#include "hwfit/status.h"
#include "hwfit/units.h"

#include "base/checked.h"
#include "base/internal.h"

void hwfit_host_init(hwfit_host_in *in) {
    if (in == NULL) return;
    memset(in, 0, sizeof *in);
    in->sockets = 1;
    in->cores = HWFIT_HOST_UNSET;
    in->gpus = HWFIT_HOST_UNSET;
    in->cores_per_gpu_rule = 4.0;
    in->ram_bytes = HWFIT_HOST_UNSET;
    in->vram_bytes = HWFIT_HOST_UNSET;
    in->ram_to_vram_rule = 2.0;
    in->max_dimms_per_channel = 2;
    in->channel_width_bytes = 8;
    in->socket_links = 4;
    in->socket_link_lanes = 16;
    in->gpu_lanes = 16;
    in->gpu_bifurcated_lanes = 8;
    in->nvme_lanes = 4;
    in->nic_lanes = 16;
    in->switch_upstream_lanes = 16;
    in->switch_downstream_lanes = HWFIT_HOST_UNSET;
    in->switch_gpus = 1;
    in->switch_nvme = 0;
    in->switch_nics = 0;
}

static int lane_width_ok(uint64_t w) { return w >= 1u && w <= 64u; }

#define MAX_BYTES 1e18

#define TOGETHER "must be given with the other two of channels_per_socket, dimms and speed_mts"

static hwfit_status memory_part(const hwfit_host_in *in, hwfit_host_out *r, hwfit_problem *why) {
    int given = (in->channels_per_socket > 0u) + (in->dimms > 0u) + (in->speed_mts > 0.0);
    if (given == 0) return HWFIT_OK;
    if (given != 3) { /* channels, DIMMs and speed go together */
        const char *missing = in->channels_per_socket == 0u ? "channels_per_socket"
                              : in->dimms == 0u            ? "dimms"
                                                           : "speed_mts";
        return hwfit__why(why, HWFIT_EDOM, missing, TOGETHER);
    }
    if (!hwfit__in_range(in->speed_2dpc_mts, 0.0, in->speed_mts))
        return hwfit__why(why, HWFIT_EDOM, "speed_2dpc_mts",
                          "must be a number in [0, speed_mts] (0 = unknown)");
    /* sockets <= 8 and channels_per_socket < 2^61 cannot overflow a uint64; larger counts
     * can, and give ERANGE. */
    uint64_t channels;
    if (hwfit__mul_u64(in->sockets, in->channels_per_socket, &channels) != HWFIT_OK)
        return hwfit__why(why, HWFIT_ERANGE, "channels_per_socket", "overflows a 64-bit count");
    r->memory_evaluated = 1;
    r->channels = channels;
    r->populated_channels = in->dimms < channels ? in->dimms : channels;
    r->dimms_per_channel = (double)in->dimms / (double)channels;
    r->max_dimms_in_a_channel = in->dimms / channels + (in->dimms % channels != 0u);
    r->balanced = in->dimms % channels == 0u;
    r->within_slot_limit = r->max_dimms_in_a_channel <= in->max_dimms_per_channel;
    /* One channel at 2 DPC sets the speed of all (a simplification: platforms set one
     * memory speed for the population). */
    r->effective_speed_mts = in->speed_mts;
    r->speed_rule_known = 1;
    if (r->max_dimms_in_a_channel >= 2u) {
        if (in->speed_2dpc_mts > 0.0) {
            r->effective_speed_mts = in->speed_2dpc_mts;
            r->downclocked = in->speed_2dpc_mts < in->speed_mts;
        } else {
            r->speed_rule_known = 0;
        }
    }
    /* Peak bandwidth = channels x MT/s x 10^6 x bytes per transfer (DDR5: 8 B). */
    r->channel_bandwidth_bytes_per_s =
        r->effective_speed_mts * HWFIT_MEGA * (double)in->channel_width_bytes;
    r->memory_bandwidth_bytes_per_s =
        (double)r->populated_channels * r->channel_bandwidth_bytes_per_s;
    r->memory_bandwidth_per_socket_bytes_per_s =
        r->memory_bandwidth_bytes_per_s / (double)in->sockets;
    if (in->ram_bytes > 0.0) r->dimm_bytes = in->ram_bytes / (double)in->dimms;
    return HWFIT_OK;
}

#define LANES_OVERFLOW "make a lane count that overflows 64 bits"

static hwfit_status lanes_part(const hwfit_host_in *in, hwfit_host_out *r, hwfit_problem *why) {
    if (in->lanes_per_socket == 0u) return HWFIT_OK;
    uint64_t total, links = 0, gpu, gpu_bif, nvme, nic, direct, bif;
    if (hwfit__mul_u64(in->sockets, in->lanes_per_socket, &total) != HWFIT_OK)
        return hwfit__why(why, HWFIT_ERANGE, "lanes_per_socket", LANES_OVERFLOW);
    if (in->sockets >= 2u) {
        uint64_t per_socket;
        if (hwfit__mul_u64(in->socket_links, in->socket_link_lanes, &per_socket) != HWFIT_OK ||
            per_socket > in->lanes_per_socket)
            return hwfit__why(why, HWFIT_EDOM, "socket_links",
                              "take more lanes than a socket has (lanes_per_socket)");
        links = per_socket * in->sockets; /* <= total: cannot overflow */
    }
    if (hwfit__mul_u64(in->gpus, in->gpu_lanes, &gpu) != HWFIT_OK ||
        hwfit__mul_u64(in->gpus, in->gpu_bifurcated_lanes, &gpu_bif) != HWFIT_OK)
        return hwfit__why(why, HWFIT_ERANGE, "gpus", LANES_OVERFLOW);
    if (hwfit__mul_u64(in->nvme, in->nvme_lanes, &nvme) != HWFIT_OK)
        return hwfit__why(why, HWFIT_ERANGE, "nvme", LANES_OVERFLOW);
    if (hwfit__mul_u64(in->nics, in->nic_lanes, &nic) != HWFIT_OK)
        return hwfit__why(why, HWFIT_ERANGE, "nics", LANES_OVERFLOW);
    if (hwfit__add_u64(nvme, nic, &direct) != HWFIT_OK ||
        hwfit__add_u64(direct, in->other_lanes, &direct) != HWFIT_OK ||
        hwfit__add_u64(direct, gpu_bif, &bif) != HWFIT_OK ||
        hwfit__add_u64(direct, gpu, &direct) != HWFIT_OK)
        return hwfit__why(why, HWFIT_ERANGE, "other_lanes",
                          "and the devices' lanes add up to more than 64 bits hold");
    r->lanes_evaluated = 1;
    r->pcie_lanes_total = total;
    r->socket_link_lanes_used = links;
    r->pcie_lanes_available = total - links;
    r->gpu_lanes_needed = gpu;
    r->nvme_lanes_needed = nvme;
    r->nic_lanes_needed = nic;
    r->pcie_lanes_needed = direct;
    r->lanes_fit = direct <= r->pcie_lanes_available;
    r->pcie_lanes_needed_bifurcated = bif;
    r->lanes_fit_bifurcated = bif <= r->pcie_lanes_available;
    r->pcie_lanes_needed_switched = direct;
    r->lanes_fit_switched = r->lanes_fit;
    if (in->switches > 0u) {
        /* Devices behind a switch share its upstream port: the host gives switches x
         * upstream lanes plus the lanes of the devices attached directly. */
        uint64_t behind = (in->switch_gpus ? gpu : 0u) + (in->switch_nvme ? nvme : 0u) +
                          (in->switch_nics ? nic : 0u); /* <= direct: no overflow */
        uint64_t upstream, switched, downstream = 0;
        if (hwfit__mul_u64(in->switches, in->switch_upstream_lanes, &upstream) != HWFIT_OK ||
            hwfit__add_u64(upstream, direct - behind, &switched) != HWFIT_OK ||
            hwfit__mul_u64(in->switches, in->switch_downstream_lanes, &downstream) != HWFIT_OK)
            return hwfit__why(why, HWFIT_ERANGE, "switches", LANES_OVERFLOW);
        r->pcie_lanes_needed_switched = switched;
        r->switch_device_lanes = behind;
        r->switch_oversubscription = (double)behind / (double)upstream;
        r->lanes_fit_switched = switched <= r->pcie_lanes_available &&
                                (in->switch_downstream_lanes == 0u || behind <= downstream);
    }
    return HWFIT_OK;
}

#define NEED(ok, field, rule) \
    do { \
        if (!(ok)) return hwfit__why(why, HWFIT_EDOM, (field), (rule)); \
    } while (0)
#define LANE_RULE "must be a lane count in [1, 64]"

static hwfit_status host(const hwfit_host_in *in, hwfit_host_out *out, hwfit_problem *why) {
    NEED(in->sockets >= 1u && in->sockets <= 8u, "sockets", "must be a count in [1, 8]");
    NEED(hwfit__in_range(in->cores_per_gpu_rule, 0.0, 1e4), "cores_per_gpu_rule",
         "must be a number in [0, 1e4]");
    NEED(hwfit__in_range(in->ram_bytes, 0.0, MAX_BYTES), "ram_bytes",
         "must be a number of bytes in [0, 1e18] (0 = unset)");
    NEED(hwfit__in_range(in->vram_bytes, 0.0, MAX_BYTES), "vram_bytes",
         "must be a number of bytes in [0, 1e18] (0 = unset)");
    NEED(hwfit__in_range(in->ram_to_vram_rule, 0.0, 100.0), "ram_to_vram_rule",
         "must be a number in [0, 100]");
    NEED(hwfit__in_range(in->speed_mts, 0.0, 1e5), "speed_mts",
         "must be a number of MT/s in [0, 1e5] (0 = unset)");
    NEED(in->max_dimms_per_channel >= 1u && in->max_dimms_per_channel <= 4u,
         "max_dimms_per_channel", "must be a count in [1, 4]");
    NEED(in->channel_width_bytes >= 1u && in->channel_width_bytes <= 64u, "channel_width_bytes",
         "must be a number of bytes in [1, 64]");
    NEED(lane_width_ok(in->socket_link_lanes), "socket_link_lanes", LANE_RULE);
    NEED(lane_width_ok(in->gpu_lanes), "gpu_lanes", LANE_RULE);
    NEED(lane_width_ok(in->gpu_bifurcated_lanes), "gpu_bifurcated_lanes", LANE_RULE);
    NEED(lane_width_ok(in->nvme_lanes), "nvme_lanes", LANE_RULE);
    NEED(lane_width_ok(in->nic_lanes), "nic_lanes", LANE_RULE);
    NEED(lane_width_ok(in->switch_upstream_lanes), "switch_upstream_lanes", LANE_RULE);
    hwfit_host_out r;
    memset(&r, 0, sizeof r);

    if (in->cores > 0u && in->gpus > 0u) {
        r.cores_evaluated = 1;
        r.cores_per_gpu = (double)in->cores / (double)in->gpus;
        r.cores_needed = in->cores_per_gpu_rule * (double)in->gpus;
        r.meets_cores_rule = r.cores_per_gpu >= in->cores_per_gpu_rule;
    }
    if (in->ram_bytes > 0.0 && in->vram_bytes > 0.0) {
        r.ram_evaluated = 1;
        r.ram_to_vram = in->ram_bytes / in->vram_bytes;
        if (!hwfit__finite(r.ram_to_vram))
            return hwfit__why(why, HWFIT_ERANGE, "vram_bytes", HWFIT__OVERFLOW);
        r.ram_needed_bytes = in->ram_to_vram_rule * in->vram_bytes;
        r.meets_ram_rule = in->ram_bytes >= r.ram_needed_bytes;
    }
    hwfit_status st = memory_part(in, &r, why);
    if (st != HWFIT_OK) return st;
    st = lanes_part(in, &r, why);
    if (st != HWFIT_OK) return st;
    *out = r;
    return HWFIT_OK;
}

hwfit_status hwfit_host_evaluate(const hwfit_host_in *in, hwfit_host_out *out) {
    if (in == NULL || out == NULL) return HWFIT_EINVAL;
    return host(in, out, NULL);
}

hwfit_status hwfit_host_validate(const hwfit_host_in *in, hwfit_problem *problem) {
    hwfit_problem_clear(problem);
    if (in == NULL) return hwfit__why(problem, HWFIT_EINVAL, "in", HWFIT__NULL);
    hwfit_host_out scratch;
    return host(in, &scratch, problem);
}

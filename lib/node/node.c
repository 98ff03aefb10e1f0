/* node.c - a whole server: validation and evaluation by every domain module.
 *
 * The node adds no formula of its own: it fills the domain modules' inputs from the parts
 * of the server (GPU count x catalog memory = VRAM, DIMMs x size = RAM, the power budget
 * lines from the parts' counts and powers) and calls host, storage, link, power in order.
 * Checks give messages that start with the field's path in a node file (docs/node-spec.md).
 */
#include <stdio.h>
#include <string.h>

#include "hwfit/collective.h"
#include "hwfit/gpu.h"
#include "hwfit/host.h"
#include "hwfit/link.h"
#include "hwfit/node.h"
#include "hwfit/power.h"
#include "hwfit/status.h"
#include "hwfit/storage.h"
#include "hwfit/topology.h"
#include "hwfit/units.h"

#include "base/checked.h"
#include "base/internal.h"

void hwfit_node_init(hwfit_node *node) {
    if (node == NULL) return;
    memset(node, 0, sizeof *node);
    node->nodes = 1;
    node->memory.dimm_w = 10.0;
    node->memory.ecc = 1;
    node->memory.registered = 1;
    hwfit_host_init(&node->host);
    hwfit_topology_init(&node->topology);
    hwfit_topology_set_cpu(&node->topology, HWFIT_CPU_AMD);
    hwfit_raid_init(&node->storage.raid);
    node->storage.raid_stated = 1;
    node->storage.drive_w = 18.0; /* Micron 9550: <= 18 W average, sequential read/write */
    hwfit_transfer_init(&node->nas.transfer);
    node->nas.transfer.transport = HWFIT_STORAGE_TRANSPORT_NVMEOF_ROCE;
    hwfit_link_init(&node->network.link);
    node->network.link.kind = HWFIT_LINK_ETHERNET;
    node->network.link.width = 0; /* no network until ports are given */
    node->network.link.port_bits_per_s = 400e9;
    node->network.link.transport = HWFIT_LINK_TRANSPORT_ROCEV2;
    node->network.adapter_w = 25.0;
    hwfit_psu_init(&node->power.psu);
    node->power.gpu_transient_factor = 1.0;
    node->power.switch_w = 25.0;
    node->chassis.cooling = HWFIT_NODE_COOLING_AIR;
    hwfit_thermal_init(&node->chassis.thermal);
    snprintf(node->costs.currency, sizeof node->costs.currency, "EUR");
    hwfit_energy_init(&node->costs.energy);
    hwfit_tco_init(&node->costs.tco);
}

const char *hwfit_node_cooling_name(hwfit_node_cooling cooling) {
    switch (cooling) {
    case HWFIT_NODE_COOLING_AIR: return "air";
    case HWFIT_NODE_COOLING_LIQUID: return "liquid";
    }
    return "unknown";
}

hwfit_status hwfit_node_add_power(hwfit_node *node, hwfit_power_component_kind kind,
                                  uint64_t count, double watts) {
    if (node == NULL) return HWFIT_EINVAL;
    if (kind != HWFIT_POWER_COMPONENT_FAN && kind != HWFIT_POWER_COMPONENT_BOARD &&
        kind != HWFIT_POWER_COMPONENT_OTHER)
        return HWFIT_EINVAL;
    if (count > 1000000u || !hwfit__in_range(watts, 0.0, 1e7)) return HWFIT_EDOM;
    if (node->power.extra_count >= HWFIT_NODE_MAX_COMPONENTS) return HWFIT_EBUFSIZE;
    hwfit_power_component *c = &node->power.extra[node->power.extra_count++];
    c->kind = kind;
    c->count = count;
    c->watts = watts;
    return HWFIT_OK;
}

/* ---- checks with messages ------------------------------------------------------------ */

static hwfit_status fail(hwfit_error *err, hwfit_status st, const char *fmt, ...)
    HWFIT__PRINTF(3, 4);
static hwfit_status fail(hwfit_error *err, hwfit_status st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    st = hwfit__error_vset(err, st, 0, 0, 0, NULL, fmt, ap);
    va_end(ap);
    return st;
}

static hwfit_status count_in(hwfit_error *err, const char *path, uint64_t v, uint64_t lo,
                             uint64_t hi) {
    if (v >= lo && v <= hi) return HWFIT_OK;
    return fail(err, HWFIT_EDOM, "%s: must be %llu to %llu, got %llu", path,
                (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)v);
}

static hwfit_status quantity_in(hwfit_error *err, const char *path, double v, double lo,
                                double hi, int open_low) {
    if (hwfit__in_range(v, lo, hi) && !(open_low && v <= lo)) return HWFIT_OK;
    if (!hwfit__finite(v)) return fail(err, HWFIT_EDOM, "%s: must be a finite number", path);
    return fail(err, HWFIT_EDOM, "%s: must be in %s%g, %g], got %g", path, open_low ? "(" : "[",
                lo, hi, v);
}

static int has_text(const char *s, size_t size) { return memchr(s, '\0', size) != NULL; }

static hwfit_status check_gpu(const hwfit_node *n, const hwfit_gpu **gpu, hwfit_error *err) {
    if (!has_text(n->gpu.model, sizeof n->gpu.model))
        return fail(err, HWFIT_EINVAL, "gpu.model: not NUL-terminated");
    if (n->gpu.model[0] == '\0') return fail(err, HWFIT_EDOM, "gpu.model: missing");
    if (hwfit_gpu_lookup(n->gpu_set, n->gpu.model, gpu) != HWFIT_OK)
        return fail(err, HWFIT_ENOTFOUND,
                    "gpu.model: \"%.60s\" is not in the GPU catalog (`hwfit gpus` lists it)",
                    n->gpu.model);
    HWFIT__TRY(count_in(err, "gpu.count", n->gpu.count, 1, HWFIT_NODE_MAX_GPUS));
    if (n->gpu.power_limit_w != 0.0)
        HWFIT__TRY(
            quantity_in(err, "gpu.power_limit", n->gpu.power_limit_w, 0.0, 1.5 * (*gpu)->tdp_w, 1));
    HWFIT__TRY(quantity_in(err, "gpu.price", n->gpu.price, 0.0, 1e12, 0));
    return HWFIT_OK;
}

/* xGMI links are PCIe lanes of the socket (AMD); UPI links have their own pins. */
static uint64_t socket_links_taking_lanes(const hwfit_node *n) {
    return n->topology.socket_link_kind == HWFIT_LINK_XGMI ? n->topology.socket_links : 0;
}

static hwfit_status check_cpu(const hwfit_node *n, hwfit_error *err) {
    if (!has_text(n->cpu.model, sizeof n->cpu.model))
        return fail(err, HWFIT_EINVAL, "cpu.model: not NUL-terminated");
    HWFIT__TRY(count_in(err, "cpu.sockets", n->host.sockets, 1, 8));
    HWFIT__TRY(count_in(err, "cpu.cores_per_socket", n->cpu.cores_per_socket, 1, 1024));
    if (n->cpu.threads_per_socket != 0 &&
        (n->cpu.threads_per_socket < n->cpu.cores_per_socket ||
         n->cpu.threads_per_socket > 8u * n->cpu.cores_per_socket))
        return fail(err, HWFIT_EDOM,
                    "cpu.threads_per_socket: must be 1 to 8 times the %llu cores, got %llu",
                    (unsigned long long)n->cpu.cores_per_socket,
                    (unsigned long long)n->cpu.threads_per_socket);
    HWFIT__TRY(quantity_in(err, "cpu.boost_ghz", n->cpu.boost_clock_hz, 0.0, 1e10, 0));
    HWFIT__TRY(quantity_in(err, "cpu.tdp", n->cpu.tdp_w, 0.0, 2000.0, 1));
    HWFIT__TRY(count_in(err, "cpu.memory_channels", n->host.channels_per_socket, 1, 64));
    HWFIT__TRY(count_in(err, "cpu.pcie_lanes", n->host.lanes_per_socket, 1, 1024));
    if ((unsigned)n->topology.cpu_vendor > (unsigned)HWFIT_CPU_ARM)
        return fail(err, HWFIT_EINVAL, "cpu.vendor: unknown vendor %d", (int)n->topology.cpu_vendor);
    if (n->topology.socket_link_kind != HWFIT_LINK_XGMI &&
        n->topology.socket_link_kind != HWFIT_LINK_UPI)
        return fail(err, HWFIT_EDOM, "cpu.socket_link: must be xgmi or upi, got %s",
                    hwfit_link_kind_name(n->topology.socket_link_kind));
    HWFIT__TRY(count_in(err, "cpu.socket_links", n->topology.socket_links, 0, 64));
    HWFIT__TRY(count_in(err, "cpu.socket_link_lanes", n->host.socket_link_lanes, 1, 64));
    uint64_t taking = socket_links_taking_lanes(n);
    if (n->host.sockets >= 2 && taking * n->host.socket_link_lanes > n->host.lanes_per_socket)
        return fail(err, HWFIT_EDOM,
                    "cpu.socket_links: %llu links of %llu lanes exceed the %llu lanes of a socket",
                    (unsigned long long)taking, (unsigned long long)n->host.socket_link_lanes,
                    (unsigned long long)n->host.lanes_per_socket);
    return HWFIT_OK;
}

static hwfit_status check_memory(const hwfit_node *n, hwfit_error *err) {
    HWFIT__TRY(count_in(err, "memory.dimms", n->host.dimms, 1, 4096));
    HWFIT__TRY(quantity_in(err, "memory.dimm_size", n->memory.dimm_bytes, 0.0, 1e14, 1));
    HWFIT__TRY(quantity_in(err, "memory.speed_mts", n->host.speed_mts, 0.0, 1e5, 1));
    if (n->host.speed_2dpc_mts != 0.0)
        HWFIT__TRY(quantity_in(err, "memory.speed_2dpc_mts", n->host.speed_2dpc_mts, 0.0, 1e5, 1));
    HWFIT__TRY(count_in(err, "memory.slots_per_channel", n->host.max_dimms_per_channel, 1, 4));
    HWFIT__TRY(quantity_in(err, "memory.dimm_power", n->memory.dimm_w, 0.0, 100.0, 0));
    HWFIT__TRY(quantity_in(err, "rules.cores_per_gpu", n->host.cores_per_gpu_rule, 0.0, 1e4, 0));
    HWFIT__TRY(quantity_in(err, "rules.ram_to_vram", n->host.ram_to_vram_rule, 0.0, 100.0, 0));
    return HWFIT_OK;
}

static hwfit_status check_lanes(const hwfit_node *n, hwfit_error *err) {
    HWFIT__TRY(count_in(err, "topology.lanes_per_gpu", n->host.gpu_lanes, 1, 32));
    HWFIT__TRY(count_in(err, "topology.bifurcated_lanes", n->host.gpu_bifurcated_lanes, 1, 32));
    HWFIT__TRY(count_in(err, "topology.pcie_switches", n->host.switches, 0, 64));
    HWFIT__TRY(count_in(err, "topology.switch_uplink_lanes", n->host.switch_upstream_lanes, 1, 64));
    HWFIT__TRY(count_in(err, "storage.lanes_per_drive", n->host.nvme_lanes, 1, 16));
    HWFIT__TRY(count_in(err, "network.lanes_per_adapter", n->host.nic_lanes, 1, 32));
    HWFIT__TRY(count_in(err, "topology.other_lanes", n->host.other_lanes, 0, 1024));
    HWFIT__TRY(quantity_in(err, "power.switch_power", n->power.switch_w, 0.0, 500.0, 0));
    return HWFIT_OK;
}

static hwfit_status check_storage(const hwfit_node *n, hwfit_error *err) {
    HWFIT__TRY(quantity_in(err, "storage.drive_power", n->storage.drive_w, 0.0, 100.0, 0));
    if (n->storage.raid.drives == 0) return HWFIT_OK;
    HWFIT__TRY(count_in(err, "storage.drives", n->storage.raid.drives, 1, 4096));
    HWFIT__TRY(quantity_in(err, "storage.drive_size", n->storage.raid.drive_bytes, 0.0, 1e15, 1));
    if ((unsigned)n->storage.raid.layout.level > (unsigned)HWFIT_STORAGE_DRAID3)
        return fail(err, HWFIT_EINVAL, "storage.raid: unknown level %d",
                    (int)n->storage.raid.layout.level);
    uint64_t min = 0;
    if (n->storage.raid.spares >= n->storage.raid.drives)
        return fail(err, HWFIT_EDOM, "storage.spares: %llu spares leave no drive of %llu for data",
                    (unsigned long long)n->storage.raid.spares,
                    (unsigned long long)n->storage.raid.drives);
    if (hwfit_raid_min_drives(&n->storage.raid.layout, &min) == HWFIT_OK &&
        n->storage.raid.drives - n->storage.raid.spares < min)
        return fail(err, HWFIT_EDOM, "storage.drives: %s needs at least %llu drives, got %llu",
                    hwfit_raid_level_name(n->storage.raid.layout.level), (unsigned long long)min,
                    (unsigned long long)(n->storage.raid.drives - n->storage.raid.spares));
    return HWFIT_OK;
}

static hwfit_status check_network(const hwfit_node *n, hwfit_error *err) {
    HWFIT__TRY(quantity_in(err, "network.adapter_power", n->network.adapter_w, 0.0, 500.0, 0));
    if (n->network.link.width == 0) {
        if (n->nas.capacity_bytes > 0.0)
            return fail(err, HWFIT_EDOM, "nas: a NAS needs network ports (network.ports)");
        if (n->nodes > 1)
            return fail(err, HWFIT_EDOM, "network: %llu nodes need network ports to join them",
                        (unsigned long long)n->nodes);
        return HWFIT_OK;
    }
    if (n->network.link.kind != HWFIT_LINK_ETHERNET && n->network.link.kind != HWFIT_LINK_INFINIBAND)
        return fail(err, HWFIT_EDOM, "network.kind: must be ethernet or infiniband, got %s",
                    hwfit_link_kind_name(n->network.link.kind));
    if (n->network.adapters > n->network.link.width)
        return fail(err, HWFIT_EDOM, "network.adapters: %llu adapters for %u ports",
                    (unsigned long long)n->network.adapters, (unsigned)n->network.link.width);
    hwfit_link_out lo;
    hwfit_status st = hwfit_link_rate(&n->network.link, &lo);
    if (st != HWFIT_OK)
        return fail(err, st, "network: %u x %g Gb/s %s is not a link hwfit rates (%s)",
                    (unsigned)n->network.link.width, n->network.link.port_bits_per_s / 1e9,
                    hwfit_link_kind_name(n->network.link.kind), hwfit_status_str(st));
    return HWFIT_OK;
}

static hwfit_status check_power(const hwfit_node *n, hwfit_error *err) {
    const hwfit_psu_in *p = &n->power.psu;
    HWFIT__TRY(count_in(err, "power.psus", p->psus, 1, 64));
    HWFIT__TRY(quantity_in(err, "power.psu_rating", p->psu_rating_w, 0.0, 1e6, 1));
    if (p->redundant >= p->psus)
        return fail(err, HWFIT_EDOM,
                    "power.redundancy: %llu redundant of %llu PSUs leaves no PSU to carry the load",
                    (unsigned long long)p->redundant, (unsigned long long)p->psus);
    HWFIT__TRY(quantity_in(err, "power.input_voltage", p->input_voltage_v, 90.0, 300.0, 0));
    HWFIT__TRY(quantity_in(err, "power.headroom_ratio", p->headroom_ratio, 1.0, 10.0, 0));
    HWFIT__TRY(quantity_in(err, "power.peak_ratio", p->peak_ratio, 1.0, 10.0, 0));
    HWFIT__TRY(quantity_in(err, "power.gpu_transient_factor", n->power.gpu_transient_factor, 1.0,
                           10.0, 0));
    if (p->psu_low_line_rating_w != 0.0)
        HWFIT__TRY(
            quantity_in(err, "power.psu_low_line_rating", p->psu_low_line_rating_w, 0.0, 1e6, 1));
    if ((unsigned)p->psu_class > (unsigned)HWFIT_POWER_CLASS_TITANIUM)
        return fail(err, HWFIT_EINVAL, "power.class: unknown class %d", (int)p->psu_class);
    if ((unsigned)p->table > (unsigned)HWFIT_POWER_TABLE_230V_EU_INTERNAL)
        return fail(err, HWFIT_EINVAL, "power.table: unknown table %d", (int)p->table);
    if (p->psu_class == HWFIT_POWER_CLASS_NONE)
        HWFIT__TRY(quantity_in(err, "power.efficiency", p->fixed_efficiency, 0.0, 1.0, 1));
    if (n->power.extra_count > HWFIT_NODE_MAX_COMPONENTS)
        return fail(err, HWFIT_EDOM, "power.components: at most %d lines, got %llu",
                    HWFIT_NODE_MAX_COMPONENTS, (unsigned long long)n->power.extra_count);
    for (uint64_t i = 0; i < n->power.extra_count; i++) {
        const hwfit_power_component *c = &n->power.extra[i];
        if (c->kind != HWFIT_POWER_COMPONENT_FAN && c->kind != HWFIT_POWER_COMPONENT_BOARD &&
            c->kind != HWFIT_POWER_COMPONENT_OTHER)
            return fail(err, HWFIT_EDOM,
                        "power.components[%llu]: %s is counted from its own part; only fan, "
                        "board and other lines belong here",
                        (unsigned long long)i, hwfit_power_component_kind_name(c->kind));
        if (c->count > 1000000u || !hwfit__in_range(c->watts, 0.0, 1e7))
            return fail(err, HWFIT_EDOM, "power.components[%llu]: count or power out of range",
                        (unsigned long long)i);
    }
    return HWFIT_OK;
}

static hwfit_status check_rest(const hwfit_node *n, hwfit_error *err) {
    HWFIT__TRY(count_in(err, "nodes", n->nodes, 1, HWFIT_NODE_MAX_NODES));
    if (!has_text(n->name, sizeof n->name)) return fail(err, HWFIT_EINVAL, "name: not NUL-terminated");
    if (!has_text(n->costs.currency, sizeof n->costs.currency))
        return fail(err, HWFIT_EINVAL, "costs.currency: not NUL-terminated");
    HWFIT__TRY(count_in(err, "chassis.rack_units", n->chassis.rack_units, 0, 64));
    if ((unsigned)n->chassis.cooling > (unsigned)HWFIT_NODE_COOLING_LIQUID)
        return fail(err, HWFIT_EINVAL, "chassis.cooling: unknown kind %d", (int)n->chassis.cooling);
    HWFIT__TRY(quantity_in(err, "nas.capacity", n->nas.capacity_bytes, 0.0, 1e21, 0));
    return HWFIT_OK;
}

/* Name the domain module's complaint with the node section it came from. */
static hwfit_status domain(hwfit_error *err, hwfit_status st, const char *section) {
    if (st == HWFIT_OK) return HWFIT_OK;
    return fail(err, st, "%s: %s (%s)", section, hwfit_status_str(st), hwfit_status_name(st));
}

static hwfit_status evaluate(const hwfit_node *n, hwfit_node_eval *out, hwfit_error *err) {
    hwfit_node_eval r;
    memset(&r, 0, sizeof r);
    HWFIT__TRY(check_rest(n, err));
    HWFIT__TRY(check_gpu(n, &r.gpu, err));
    HWFIT__TRY(check_cpu(n, err));
    HWFIT__TRY(check_memory(n, err));
    HWFIT__TRY(check_lanes(n, err));
    HWFIT__TRY(check_storage(n, err));
    HWFIT__TRY(check_network(n, err));
    HWFIT__TRY(check_power(n, err));

    /* Totals from the parts: counts times sizes (no formula beyond the product). */
    r.gpus = n->gpu.count;
    r.total_gpus = n->gpu.count * n->nodes; /* <= 128 x 65536: no overflow */
    r.gpu_power_w = n->gpu.power_limit_w > 0.0 ? n->gpu.power_limit_w : r.gpu->tdp_w;
    r.vram_bytes = (double)r.gpu->memory_bytes * (double)n->gpu.count;
    r.total_vram_bytes = r.vram_bytes * (double)n->nodes;
    r.ram_bytes = (double)n->host.dimms * n->memory.dimm_bytes;
    r.cores = n->host.sockets * n->cpu.cores_per_socket;
    r.threads = n->host.sockets * (n->cpu.threads_per_socket ? n->cpu.threads_per_socket
                                                             : n->cpu.cores_per_socket);

    /* The GPU's host link, full and bifurcated. */
    if (r.gpu->pcie_gen > 0) {
        hwfit_link_in li;
        hwfit_link_init(&li);
        li.kind = HWFIT_LINK_PCIE;
        li.generation = r.gpu->pcie_gen;
        li.width = (uint32_t)n->host.gpu_lanes;
        hwfit_status st = hwfit_link_rate(&li, &r.gpu_link);
        if (st != HWFIT_OK)
            return fail(err, st, "topology.lanes_per_gpu: PCIe x%llu is not a link width",
                        (unsigned long long)n->host.gpu_lanes);
        li.width = (uint32_t)n->host.gpu_bifurcated_lanes;
        st = hwfit_link_rate(&li, &r.gpu_link_bifurcated);
        if (st != HWFIT_OK)
            return fail(err, st, "topology.bifurcated_lanes: PCIe x%llu is not a link width",
                        (unsigned long long)n->host.gpu_bifurcated_lanes);
    }

    /* Network and NAS. */
    uint64_t adapters = 0;
    if (n->network.link.width > 0) {
        HWFIT__TRY(domain(err, hwfit_link_rate(&n->network.link, &r.network), "network"));
        r.network_evaluated = 1;
        adapters = n->network.adapters ? n->network.adapters : n->network.link.width;
    }
    if (n->nas.capacity_bytes > 0.0) {
        r.nas_in = n->nas.transfer;
        r.nas_in.bytes = n->nas.capacity_bytes;
        r.nas_in.rate_bytes_per_s = r.network.line_bytes_per_s;
        r.nas_in.capacity_bytes = n->nas.capacity_bytes;
        HWFIT__TRY(domain(err, hwfit_transfer_estimate(&r.nas_in, &r.nas), "nas"));
        r.nas_evaluated = 1;
    }

    /* Host sizing with the derived counts. */
    r.host_in = n->host;
    r.host_in.cores = r.cores;
    r.host_in.gpus = n->gpu.count;
    r.host_in.ram_bytes = r.ram_bytes;
    r.host_in.vram_bytes = r.vram_bytes;
    r.host_in.nvme = n->storage.raid.drives;
    r.host_in.nics = adapters;
    r.host_in.socket_links = socket_links_taking_lanes(n);
    HWFIT__TRY(domain(err, hwfit_host_evaluate(&r.host_in, &r.host), "cpu/memory/topology"));

    /* The interconnect: the node's own policies, the rest from the other parts. */
    r.topology = n->topology;
    HWFIT__TRY(hwfit_topology_set_gpu(&r.topology, r.gpu));
    r.topology.gpus_per_node = n->gpu.count;
    r.topology.nodes = n->nodes;
    r.topology.sockets = n->host.sockets;
    r.topology.pcie_switches = n->host.switches;
    r.topology.switch_uplink_lanes = (uint32_t)n->host.switch_upstream_lanes;
    if (r.gpu->pcie_gen > 0) r.topology.gpu_pcie_lanes = (uint32_t)n->host.gpu_lanes;
    r.topology.host_memory_bytes_per_s = r.host.memory_bandwidth_per_socket_bytes_per_s;
    r.topology.nics_per_node = 0;
    if (r.network_evaluated) {
        const hwfit_link_in *l = &n->network.link;
        r.topology.nics_per_node = l->width;
        r.topology.nic_kind = l->kind == HWFIT_LINK_INFINIBAND ? HWFIT_NIC_INFINIBAND
                              : l->transport == HWFIT_LINK_TRANSPORT_TCP ? HWFIT_NIC_TCP
                                                                          : HWFIT_NIC_ROCE;
        /* Port speed from the link module's line rate, to the whole Gb/s (IB's FEC and
         * transcoding give 400.0000000001 Gb/s and the like). */
        double gbps = r.network.line_bytes_per_s * HWFIT_BITS_PER_BYTE / (double)l->width / 1e9;
        r.topology.nic_bits_per_s = (double)(uint64_t)(gbps + 0.5) * 1e9;
        r.topology.nic_mtu_bytes = l->payload_bytes;
    }
    r.allreduce_in.topology = r.topology; /* validated by the estimate below */
    if (r.total_gpus >= 2) {
        hwfit_collective_init(&r.allreduce_in);
        r.allreduce_in.topology = r.topology;
        hwfit_status st = hwfit_collective_estimate(&r.allreduce_in, &r.allreduce);
        if (st != HWFIT_OK)
            return fail(err, st, "topology: the GPU interconnect is not one hwfit models (%s): "
                                 "GPUs must split evenly over sockets and switches, switches "
                                 "over sockets", hwfit_status_str(st));
        r.allreduce_evaluated = 1;
    }

    /* Local array. */
    if (n->storage.raid.drives > 0) {
        HWFIT__TRY(domain(err, hwfit_raid_evaluate(&n->storage.raid, &r.raid), "storage"));
        r.storage_evaluated = 1;
    }

    /* Power budget: one line per part, then the extra lines. */
    hwfit_power_budget_init(&r.budget_in);
    r.budget_in.gpu_transient_factor = n->power.gpu_transient_factor;
    HWFIT__TRY(hwfit_power_budget_add(&r.budget_in, HWFIT_POWER_COMPONENT_GPU, n->gpu.count,
                                      r.gpu_power_w));
    HWFIT__TRY(hwfit_power_budget_add(&r.budget_in, HWFIT_POWER_COMPONENT_CPU, n->host.sockets,
                                      n->cpu.tdp_w));
    HWFIT__TRY(hwfit_power_budget_add(&r.budget_in, HWFIT_POWER_COMPONENT_DIMM, n->host.dimms,
                                      n->memory.dimm_w));
    if (n->storage.raid.drives > 0)
        HWFIT__TRY(hwfit_power_budget_add(&r.budget_in, HWFIT_POWER_COMPONENT_DRIVE,
                                          n->storage.raid.drives, n->storage.drive_w));
    if (adapters > 0)
        HWFIT__TRY(hwfit_power_budget_add(&r.budget_in, HWFIT_POWER_COMPONENT_NIC, adapters,
                                          n->network.adapter_w));
    if (n->host.switches > 0)
        HWFIT__TRY(hwfit_power_budget_add(&r.budget_in, HWFIT_POWER_COMPONENT_SWITCH,
                                          n->host.switches, n->power.switch_w));
    for (uint64_t i = 0; i < n->power.extra_count; i++)
        HWFIT__TRY(domain(err,
                          hwfit_power_budget_add(&r.budget_in, n->power.extra[i].kind,
                                                 n->power.extra[i].count, n->power.extra[i].watts),
                          "power.components"));
    HWFIT__TRY(domain(err, hwfit_power_budget_evaluate(&r.budget_in, &r.budget), "power"));

    r.psu_in = n->power.psu;
    r.psu_in.load_w = r.budget.dc_w;
    r.psu_in.peak_load_w = r.budget.peak_dc_w;
    HWFIT__TRY(domain(err, hwfit_psu_evaluate(&r.psu_in, &r.psu), "power"));

    r.thermal_in = n->chassis.thermal;
    r.thermal_in.heat_w = r.psu.wall_w;
    HWFIT__TRY(domain(err, hwfit_thermal_evaluate(&r.thermal_in, &r.thermal), "chassis"));

    r.energy_in = n->costs.energy;
    r.energy_in.power_w = r.psu.wall_w;
    HWFIT__TRY(domain(err, hwfit_energy_evaluate(&r.energy_in, &r.energy), "costs"));

    r.tco_in = n->costs.tco;
    r.tco_in.annual_energy_cost = r.energy.annual_cost;
    r.tco_in.gpus = n->gpu.count;
    HWFIT__TRY(domain(err, hwfit_tco_evaluate(&r.tco_in, &r.tco), "costs"));

    *out = r;
    return HWFIT_OK;
}

hwfit_status hwfit_node_check(const hwfit_node *node, hwfit_error *err) {
    if (node == NULL) return hwfit__error_set(err, HWFIT_EINVAL, 0, 0, 0, "node is NULL");
    hwfit_node_eval r;
    hwfit_status st = evaluate(node, &r, err);
    if (st == HWFIT_OK) hwfit_error_clear(err);
    return st;
}

hwfit_status hwfit_node_evaluate(const hwfit_node *node, hwfit_node_eval *out) {
    if (node == NULL || out == NULL) return HWFIT_EINVAL;
    return evaluate(node, out, NULL);
}

/* Node: a whole server assembled from the domain modules' inputs, checked and evaluated.
 *
 * Reference values: the seed server of /work/shared/docs/seed-claims.md (8x RTX PRO 6000
 * Server Edition at 600 W, 2x EPYC 9575F at 400 W, 24 x 64 GiB DDR5-6400, 4x 15.36 TB,
 * 2x 400GbE, 4x 3200 W Titanium), derived by hand: the node adds no formula, so each
 * figure is a product of counts and catalog values, or a domain module's result, which
 * is checked here against a direct call of that module. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "hwfit.h"

/* Relative tolerance 1e-12: a product of two or three doubles, computed the same way. */
#define REL 1e-12
#define ASSERT_NEAR(got, want, rel)                                                       \
    cr_assert(fabs((got) - (want)) <= (rel) * fabs(want) + 1e-300, "got %.17g want %.17g", \
              (double)(got), (double)(want))

static hwfit_node seed(void) {
    hwfit_node n;
    hwfit_node_init(&n);
    strcpy(n.name, "seed");
    strcpy(n.gpu.model, "rtx-pro-6000-server");
    n.gpu.count = 8;
    n.host.sockets = 2;
    n.cpu.cores_per_socket = 64;
    n.cpu.threads_per_socket = 128;
    n.cpu.tdp_w = 400;
    n.host.channels_per_socket = 12;
    n.host.lanes_per_socket = 128;
    n.host.dimms = 24;
    n.memory.dimm_bytes = 64 * HWFIT_GIBI;
    n.host.speed_mts = 6400;
    n.host.cores_per_gpu_rule = 8;
    n.storage.raid.drives = 4;
    n.storage.raid.drive_bytes = 15.36e12;
    n.storage.raid.drive_read_bytes_per_s = 14e9;
    n.network.link.width = 2; /* 2 x 400GbE RoCEv2 (the init's port speed and transport) */
    n.nas.capacity_bytes = 200e12;
    n.power.psu.psus = 4;
    n.power.psu.psu_rating_w = 3200;
    n.power.psu.redundant = 2;
    cr_assert_eq(hwfit_node_add_power(&n, HWFIT_POWER_COMPONENT_FAN, 10, 40), HWFIT_OK);
    cr_assert_eq(hwfit_node_add_power(&n, HWFIT_POWER_COMPONENT_BOARD, 1, 100), HWFIT_OK);
    return n;
}

static hwfit_node_eval eval(const hwfit_node *n) {
    hwfit_node_eval r;
    memset(&r, 0x5a, sizeof r);
    hwfit_status st = hwfit_node_evaluate(n, &r);
    cr_assert_eq(st, HWFIT_OK, "%s", hwfit_status_name(st));
    return r;
}

Test(node, init_gives_the_documented_defaults) {
    hwfit_node n;
    memset(&n, 0x5a, sizeof n);
    hwfit_node_init(&n);
    cr_assert_eq(n.nodes, 1);
    cr_assert_eq(n.gpu.count, 0);
    cr_assert_eq(n.host.sockets, 1);
    cr_assert_eq(n.storage.raid.drives, 0);
    cr_assert_eq(n.network.link.width, 0);
    cr_assert_eq(n.power.psu.redundant, 1);
    cr_assert_eq(n.chassis.cooling, HWFIT_NODE_COOLING_AIR);
    cr_assert_str_eq(n.costs.currency, "EUR");
    ASSERT_NEAR(n.memory.dimm_w, 10.0, REL);
    ASSERT_NEAR(n.storage.drive_w, 18.0, REL);
    ASSERT_NEAR(n.network.adapter_w, 25.0, REL);
    ASSERT_NEAR(n.power.psu.headroom_ratio, 1.3, REL);
    cr_assert_eq(n.nas.transfer.transport, HWFIT_STORAGE_TRANSPORT_NVMEOF_ROCE);
    hwfit_node_init(NULL); /* ignored */
}

Test(node, seed_totals_are_counts_times_catalog_values) {
    hwfit_node n = seed();
    hwfit_node_eval r = eval(&n);
    /* 8 x 96 GiB = 768 GiB = 824,633,720,832 B (catalog reads "96 GB" as GiB). */
    ASSERT_NEAR(r.vram_bytes, 768.0 * HWFIT_GIBI, REL);
    ASSERT_NEAR(r.vram_bytes, 824633720832.0, REL);
    /* 24 x 64 GiB = 1,536 GiB = exactly twice the VRAM. */
    ASSERT_NEAR(r.ram_bytes, 1536.0 * HWFIT_GIBI, REL);
    ASSERT_NEAR(r.host.ram_to_vram, 2.0, REL);
    cr_assert_eq(r.cores, 128);
    cr_assert_eq(r.threads, 256);
    cr_assert_eq(r.gpus, 8);
    cr_assert_eq(r.total_gpus, 8);
    ASSERT_NEAR(r.gpu_power_w, 600.0, REL);
    cr_assert_str_eq(r.gpu->name, "rtx-pro-6000-server");
    /* Host: 16 cores per GPU against the rule of 8; 614.4 GB/s per socket. */
    ASSERT_NEAR(r.host.cores_per_gpu, 16.0, REL);
    cr_assert_eq(r.host.meets_cores_rule, 1);
    ASSERT_NEAR(r.host.memory_bandwidth_per_socket_bytes_per_s, 614.4e9, REL);
    /* Lanes: 256 - 4 x 16 x 2 (xGMI) = 128 available; 8 x 16 + 4 x 4 + 2 x 16 = 176 needed. */
    cr_assert_eq(r.host.pcie_lanes_available, 128);
    cr_assert_eq(r.host.pcie_lanes_needed, 176);
    cr_assert_eq(r.host.lanes_fit, 0);
}

Test(node, seed_power_budget_and_psus) {
    hwfit_node n = seed();
    hwfit_node_eval r = eval(&n);
    /* 8 x 600 + 2 x 400 + 24 x 10 + 4 x 18 + 2 x 25 + 10 x 40 + 100 = 6,462 W. */
    ASSERT_NEAR(r.budget.kind_w[HWFIT_POWER_COMPONENT_GPU], 4800.0, REL);
    ASSERT_NEAR(r.budget.kind_w[HWFIT_POWER_COMPONENT_CPU], 800.0, REL);
    ASSERT_NEAR(r.budget.dc_w, 6462.0, REL);
    /* N+2 of 4 x 3,200 W: 6,400 W usable, short of the load by 62 W. */
    ASSERT_NEAR(r.psu.installed_w, 12800.0, REL);
    ASSERT_NEAR(r.psu.usable_w, 6400.0, REL);
    ASSERT_NEAR(r.psu.headroom_w, -62.0, 1e-9);
    cr_assert_eq(r.psu.meets_load, 0);
    cr_assert_eq(r.psu.meets_headroom, 0);
    /* The node's PSU result equals a direct call with the same inputs. */
    hwfit_psu_in p = n.power.psu;
    p.load_w = 6462.0;
    p.peak_load_w = 6462.0;
    hwfit_psu_out direct;
    cr_assert_eq(hwfit_psu_evaluate(&p, &direct), HWFIT_OK);
    ASSERT_NEAR(r.psu.wall_w, direct.wall_w, REL);
    /* Heat is the wall power; energy uses it too. */
    ASSERT_NEAR(r.thermal.heat_w, r.psu.wall_w, REL);
    ASSERT_NEAR(r.energy_in.power_w, r.psu.wall_w, REL);
    ASSERT_NEAR(r.tco_in.annual_energy_cost, r.energy.annual_cost, REL);
    cr_assert_eq(r.thermal.cooling, HWFIT_POWER_COOLING_AIR_MARGINAL); /* > 5 kW */
}

Test(node, n_plus_1_meets_the_130_percent_rule) {
    hwfit_node n = seed();
    n.power.psu.redundant = 1;
    hwfit_node_eval r = eval(&n);
    ASSERT_NEAR(r.psu.usable_w, 9600.0, REL);
    cr_assert_eq(r.psu.meets_headroom, 1); /* 9,600 >= 1.3 x 6,462 = 8,400.6 */
}

Test(node, storage_network_and_nas_come_from_their_modules) {
    hwfit_node n = seed();
    n.storage.raid.layout.level = HWFIT_STORAGE_RAID6;
    hwfit_node_eval r = eval(&n);
    cr_assert_eq(r.storage_evaluated, 1);
    ASSERT_NEAR(r.raid.usable_bytes, 30.72e12, REL); /* (4 - 2) x 15.36 TB */
    ASSERT_NEAR(r.raid.raw_bytes, 61.44e12, REL);
    cr_assert_eq(r.network_evaluated, 1);
    ASSERT_NEAR(r.network.line_bytes_per_s, 100e9, REL); /* 2 x 400 Gb/s */
    cr_assert_eq(r.nas_evaluated, 1);
    ASSERT_NEAR(r.nas.effective_bytes_per_s, 95e9, REL); /* RoCE default 0.95 */
    /* The GPU link: PCIe 5.0 x16 = 32 GT/s x 16 x 128/130 / 8 per direction. */
    ASSERT_NEAR(r.gpu_link.line_bytes_per_s, 32e9 * 16 * 128.0 / 130.0 / 8, REL);
    ASSERT_NEAR(r.gpu_link_bifurcated.line_bytes_per_s, r.gpu_link.line_bytes_per_s / 2, REL);
}

Test(node, the_interconnect_is_filled_from_the_parts) {
    hwfit_node n = seed();
    hwfit_node_eval r = eval(&n);
    cr_assert_eq(r.topology.gpus_per_node, 8);
    cr_assert_eq(r.topology.sockets, 2);
    cr_assert_eq(r.topology.gpu_pcie_gen, 5);
    cr_assert_eq(r.topology.gpu_pcie_lanes, 16);
    cr_assert_eq(r.topology.nics_per_node, 2);
    cr_assert_eq(r.topology.nic_kind, HWFIT_NIC_ROCE);
    ASSERT_NEAR(r.topology.nic_bits_per_s, 400e9, REL);
    ASSERT_NEAR(r.topology.host_memory_bytes_per_s, 614.4e9, REL);
    /* The all-reduce equals a direct call on a topology built by hand. */
    cr_assert_eq(r.allreduce_evaluated, 1);
    hwfit_collective_in in;
    hwfit_collective_out direct;
    const hwfit_gpu *gpu;
    hwfit_collective_init(&in);
    cr_assert_eq(hwfit_gpu_find("rtx-pro-6000-server", &gpu), HWFIT_OK);
    cr_assert_eq(hwfit_topology_set_gpu(&in.topology, gpu), HWFIT_OK);
    cr_assert_eq(hwfit_topology_parse_nic("2x400g-roce", &in.topology), HWFIT_OK);
    cr_assert_eq(hwfit_collective_estimate(&in, &direct), HWFIT_OK);
    ASSERT_NEAR(r.allreduce.time_s, direct.time_s, REL);
    ASSERT_NEAR(r.allreduce.busbw_bytes_per_s, direct.busbw_bytes_per_s, REL);
    /* Intel: UPI links take no PCIe lanes, so all 256 are available. */
    n.topology.socket_link_kind = HWFIT_LINK_UPI;
    n.topology.socket_link_generation = 2;
    r = eval(&n);
    cr_assert_eq(r.host_in.socket_links, 0);
    cr_assert_eq(r.host.pcie_lanes_available, 256);
    /* InfiniBand NDR ports: 400 Gb/s each, to the whole Gb/s. */
    n = seed();
    cr_assert_eq(hwfit_link_parse("8x400g-ib", &n.network.link), HWFIT_OK);
    r = eval(&n);
    cr_assert_eq(r.topology.nic_kind, HWFIT_NIC_INFINIBAND);
    cr_assert_eq(r.topology.nic_bits_per_s, 400e9);
    cr_assert_eq(r.topology.nics_per_node, 8);
    /* A single GPU has no all-reduce. */
    n = seed();
    n.gpu.count = 1;
    n.host.sockets = 1;
    r = eval(&n);
    cr_assert_eq(r.allreduce_evaluated, 0);
}

Test(node, power_limit_and_nodes_scale_the_budget_and_totals) {
    hwfit_node n = seed();
    hwfit_node_eval full = eval(&n);
    n.gpu.power_limit_w = 450;
    n.nodes = 3;
    hwfit_node_eval r = eval(&n);
    ASSERT_NEAR(r.budget.dc_w, full.budget.dc_w - 8 * 150.0, REL);
    cr_assert_eq(r.total_gpus, 24);
    ASSERT_NEAR(r.total_vram_bytes, 3 * r.vram_bytes, REL);
    cr_assert(r.energy.annual_cost < full.energy.annual_cost);
}

Test(node, a_node_without_optional_parts_evaluates) {
    hwfit_node n = seed();
    n.storage.raid.drives = 0;
    n.nas.capacity_bytes = 0;
    n.network.link.width = 0;
    n.power.extra_count = 0;
    hwfit_node_eval r = eval(&n);
    cr_assert_eq(r.storage_evaluated, 0);
    cr_assert_eq(r.network_evaluated, 0);
    cr_assert_eq(r.nas_evaluated, 0);
    ASSERT_NEAR(r.budget.dc_w, 4800 + 800 + 240.0, REL);
}

/* A check that fails: poisoned eval untouched, status and message as expected. */
static void refused(const hwfit_node *n, hwfit_status want, const char *prefix) {
    hwfit_error err;
    memset(&err, 0, sizeof err);
    hwfit_status st = hwfit_node_check(n, &err);
    cr_assert_eq(st, want, "got %s (%s), want %s", hwfit_status_name(st), err.message,
                 hwfit_status_name(want));
    cr_assert_eq(err.status, want);
    cr_assert(strncmp(err.message, prefix, strlen(prefix)) == 0, "message \"%s\" lacks \"%s\"",
              err.message, prefix);
    hwfit_node_eval r, poison;
    memset(&r, 0x5a, sizeof r);
    memset(&poison, 0x5a, sizeof poison);
    cr_assert_eq(hwfit_node_evaluate(n, &r), want);
    cr_assert(memcmp(&r, &poison, sizeof r) == 0, "output written on error");
}

Test(node, check_names_the_field_that_is_wrong) {
    hwfit_node n;
    n = seed(); n.gpu.count = 0; refused(&n, HWFIT_EDOM, "gpu.count:");
    n = seed(); n.gpu.count = 129; refused(&n, HWFIT_EDOM, "gpu.count:");
    n = seed(); strcpy(n.gpu.model, "h900"); refused(&n, HWFIT_ENOTFOUND, "gpu.model:");
    n = seed(); n.gpu.model[0] = '\0'; refused(&n, HWFIT_EDOM, "gpu.model:");
    n = seed(); n.gpu.power_limit_w = 1000; refused(&n, HWFIT_EDOM, "gpu.power_limit:");
    n = seed(); n.gpu.power_limit_w = NAN; refused(&n, HWFIT_EDOM, "gpu.power_limit:");
    n = seed(); n.gpu.price = -1; refused(&n, HWFIT_EDOM, "gpu.price:");
    n = seed(); n.nodes = 0; refused(&n, HWFIT_EDOM, "nodes:");
    n = seed(); n.host.sockets = 9; refused(&n, HWFIT_EDOM, "cpu.sockets:");
    n = seed(); n.cpu.cores_per_socket = 0; refused(&n, HWFIT_EDOM, "cpu.cores_per_socket:");
    n = seed(); n.cpu.threads_per_socket = 32; refused(&n, HWFIT_EDOM, "cpu.threads_per_socket:");
    n = seed(); n.cpu.tdp_w = 0; refused(&n, HWFIT_EDOM, "cpu.tdp:");
    n = seed(); n.cpu.boost_clock_hz = INFINITY; refused(&n, HWFIT_EDOM, "cpu.boost_ghz:");
    n = seed(); n.host.channels_per_socket = 0; refused(&n, HWFIT_EDOM, "cpu.memory_channels:");
    n = seed(); n.host.lanes_per_socket = 0; refused(&n, HWFIT_EDOM, "cpu.pcie_lanes:");
    n = seed(); n.topology.socket_links = 9; refused(&n, HWFIT_EDOM, "cpu.socket_links:");
    n = seed(); n.host.socket_link_lanes = 0; refused(&n, HWFIT_EDOM, "cpu.socket_link_lanes:");
    n = seed(); n.topology.cpu_vendor = (hwfit_cpu_vendor)5; refused(&n, HWFIT_EINVAL, "cpu.vendor:");
    n = seed(); n.topology.socket_link_kind = HWFIT_LINK_PCIE; refused(&n, HWFIT_EDOM, "cpu.socket_link:");
    n = seed(); n.host.switches = 3; refused(&n, HWFIT_EDOM, "topology:");
    n = seed(); n.topology.pcie_efficiency = 0; refused(&n, HWFIT_EDOM, "topology:");
    n = seed(); n.host.dimms = 0; refused(&n, HWFIT_EDOM, "memory.dimms:");
    n = seed(); n.memory.dimm_bytes = 0; refused(&n, HWFIT_EDOM, "memory.dimm_size:");
    n = seed(); n.host.speed_mts = 0; refused(&n, HWFIT_EDOM, "memory.speed_mts:");
    n = seed(); n.memory.dimm_w = 500; refused(&n, HWFIT_EDOM, "memory.dimm_power:");
    n = seed(); n.host.cores_per_gpu_rule = -1; refused(&n, HWFIT_EDOM, "rules.cores_per_gpu:");
    n = seed(); n.host.gpu_lanes = 0; refused(&n, HWFIT_EDOM, "topology.lanes_per_gpu:");
    n = seed(); n.host.gpu_lanes = 12; refused(&n, HWFIT_EDOM, "topology.lanes_per_gpu:");
    n = seed(); n.host.gpu_bifurcated_lanes = 3; refused(&n, HWFIT_EDOM, "topology.bifurcated_lanes:");
    n = seed(); n.storage.raid.layout.level = HWFIT_STORAGE_RAID6; n.storage.raid.drives = 3;
    refused(&n, HWFIT_EDOM, "storage.drives: raid6 needs at least 4 drives, got 3");
    n = seed(); n.storage.raid.spares = 4; refused(&n, HWFIT_EDOM, "storage.spares:");
    n = seed(); n.storage.raid.drive_bytes = 0; refused(&n, HWFIT_EDOM, "storage.drive_size:");
    n = seed(); n.storage.raid.layout.level = (hwfit_raid_level)99; refused(&n, HWFIT_EINVAL, "storage.raid:");
    n = seed(); n.storage.raid.bit_error_rate = 2; refused(&n, HWFIT_EDOM, "storage:");
    n = seed(); n.network.link.width = 0; refused(&n, HWFIT_EDOM, "nas:");
    n = seed(); n.nas.capacity_bytes = 0; n.network.link.width = 0; n.nodes = 2;
    refused(&n, HWFIT_EDOM, "network:");
    n = seed(); n.network.adapters = 3; refused(&n, HWFIT_EDOM, "network.adapters:");
    n = seed(); n.network.link.port_bits_per_s = 300e9; refused(&n, HWFIT_EDOM, "network:");
    n = seed(); n.network.link.kind = HWFIT_LINK_PCIE; refused(&n, HWFIT_EDOM, "network.kind:");
    n = seed(); n.power.psu.psus = 0; refused(&n, HWFIT_EDOM, "power.psus:");
    n = seed(); n.power.psu.redundant = 4; refused(&n, HWFIT_EDOM, "power.redundancy:");
    n = seed(); n.power.psu.psu_rating_w = 0; refused(&n, HWFIT_EDOM, "power.psu_rating:");
    n = seed(); n.power.psu.headroom_ratio = 0.5; refused(&n, HWFIT_EDOM, "power.headroom_ratio:");
    n = seed(); n.power.psu.psu_class = (hwfit_psu_class)42; refused(&n, HWFIT_EINVAL, "power.class:");
    n = seed(); n.power.psu.input_voltage_v = 120; refused(&n, HWFIT_EUNSUPPORTED, "power:");
    n = seed(); n.power.extra[0].kind = HWFIT_POWER_COMPONENT_GPU;
    refused(&n, HWFIT_EDOM, "power.components[0]:");
    n = seed(); n.power.extra_count = 17; refused(&n, HWFIT_EDOM, "power.components:");
    n = seed(); n.chassis.rack_units = 65; refused(&n, HWFIT_EDOM, "chassis.rack_units:");
    n = seed(); n.chassis.cooling = (hwfit_node_cooling)7; refused(&n, HWFIT_EINVAL, "chassis.cooling:");
    n = seed(); n.chassis.thermal.delta_t_c = 0; refused(&n, HWFIT_EDOM, "chassis:");
    n = seed(); n.costs.energy.pue = 0.5; refused(&n, HWFIT_EDOM, "costs:");
    n = seed(); n.costs.tco.years = 0; refused(&n, HWFIT_EDOM, "costs:");
    n = seed(); memset(n.name, 'x', sizeof n.name); refused(&n, HWFIT_EINVAL, "name:");
}

Test(node, check_accepts_the_seed_and_clears_the_error) {
    hwfit_node n = seed();
    hwfit_error err;
    memset(&err, 0x5a, sizeof err);
    cr_assert_eq(hwfit_node_check(&n, &err), HWFIT_OK);
    cr_assert_eq(err.status, HWFIT_OK);
    cr_assert_str_eq(err.message, "");
    cr_assert_eq(hwfit_node_check(&n, NULL), HWFIT_OK);
}

Test(node, null_arguments) {
    hwfit_node n = seed();
    hwfit_node_eval r;
    hwfit_error err;
    cr_assert_eq(hwfit_node_check(NULL, &err), HWFIT_EINVAL);
    cr_assert_eq(err.status, HWFIT_EINVAL);
    cr_assert_eq(hwfit_node_check(NULL, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit_node_evaluate(NULL, &r), HWFIT_EINVAL);
    cr_assert_eq(hwfit_node_evaluate(&n, NULL), HWFIT_EINVAL);
}

Test(node, add_power_accepts_only_lines_without_a_part) {
    hwfit_node n;
    hwfit_node_init(&n);
    cr_assert_eq(hwfit_node_add_power(NULL, HWFIT_POWER_COMPONENT_FAN, 1, 1), HWFIT_EINVAL);
    cr_assert_eq(hwfit_node_add_power(&n, HWFIT_POWER_COMPONENT_GPU, 1, 1), HWFIT_EINVAL);
    cr_assert_eq(hwfit_node_add_power(&n, HWFIT_POWER_COMPONENT_FAN, 2000000, 1), HWFIT_EDOM);
    cr_assert_eq(hwfit_node_add_power(&n, HWFIT_POWER_COMPONENT_FAN, 1, NAN), HWFIT_EDOM);
    cr_assert_eq(n.power.extra_count, 0);
    for (int i = 0; i < HWFIT_NODE_MAX_COMPONENTS; i++)
        cr_assert_eq(hwfit_node_add_power(&n, HWFIT_POWER_COMPONENT_OTHER, 1, 5), HWFIT_OK);
    cr_assert_eq(hwfit_node_add_power(&n, HWFIT_POWER_COMPONENT_BOARD, 1, 5), HWFIT_EBUFSIZE);
    cr_assert_eq(n.power.extra_count, HWFIT_NODE_MAX_COMPONENTS);
}

Test(node, cooling_names) {
    cr_assert_str_eq(hwfit_node_cooling_name(HWFIT_NODE_COOLING_AIR), "air");
    cr_assert_str_eq(hwfit_node_cooling_name(HWFIT_NODE_COOLING_LIQUID), "liquid");
    cr_assert_str_eq(hwfit_node_cooling_name((hwfit_node_cooling)9), "unknown");
}

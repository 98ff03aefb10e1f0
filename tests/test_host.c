/* Host: cores per GPU, RAM per VRAM, memory bandwidth, DIMMs per channel, PCIe lanes.
 *
 * Reference values are derived by hand from the formulas cited in lib/host.c and
 * docs/formulas.md; the seed server's figures come from /work/shared/docs/seed-claims.md. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "hwfit.h"

/* Relative tolerance 1e-12: one or two multiplications separate code and hand formula. */
#define REL 1e-12
#define ASSERT_NEAR(got, want, rel)                                                       \
    cr_assert(fabs((got) - (want)) <= (rel) * fabs(want) + 1e-300, "got %.17g want %.17g", \
              (double)(got), (double)(want))

/* The seed server: 2 x EPYC 9005 (64 cores, 12 DDR5-6400 channels, 128 PCIe 5.0 lanes per
 * socket), 24 DIMMs, 8 GPUs x16, 4 NVMe x4, 2 NICs x16. */
static hwfit_host_in seed(void) {
    hwfit_host_in in;
    hwfit_host_init(&in);
    in.sockets = 2;
    in.cores = 128;
    in.gpus = 8;
    in.channels_per_socket = 12;
    in.dimms = 24;
    in.speed_mts = 6400;
    in.lanes_per_socket = 128;
    in.nvme = 4;
    in.nics = 2;
    return in;
}

static hwfit_host_out eval(const hwfit_host_in *in) {
    hwfit_host_out out;
    memset(&out, 0x5a, sizeof out);
    hwfit_status st = hwfit_host_evaluate(in, &out);
    cr_assert_eq(st, HWFIT_OK, "%s", hwfit_status_name(st));
    return out;
}

Test(host, ddr5_6400_gives_614_gb_per_second_per_socket) {
    /* Seed claim DE-22: 12 channels x 6400 MT/s x 8 B = 614.4 GB/s per socket;
     * 1,228.8 GB/s for two (infrastructure.md 5.1). */
    hwfit_host_in in = seed();
    hwfit_host_out o = eval(&in);
    cr_assert_eq(o.memory_evaluated, 1);
    ASSERT_NEAR(o.channel_bandwidth_bytes_per_s, 51.2e9, REL);
    ASSERT_NEAR(o.memory_bandwidth_per_socket_bytes_per_s, 614.4e9, REL);
    ASSERT_NEAR(o.memory_bandwidth_bytes_per_s, 1228.8e9, REL);
    cr_assert_eq(o.channels, 24);
    cr_assert_eq(o.populated_channels, 24);
    /* DE-23: 24 DIMMs in 2 x 12 channels = one DIMM per channel. */
    ASSERT_NEAR(o.dimms_per_channel, 1.0, REL);
    cr_assert_eq(o.max_dimms_in_a_channel, 1);
    cr_assert_eq(o.balanced, 1);
    cr_assert_eq(o.within_slot_limit, 1);
    cr_assert_eq(o.downclocked, 0);
    cr_assert_eq(o.speed_rule_known, 1);
    ASSERT_NEAR(o.effective_speed_mts, 6400.0, REL);
}

Test(host, other_ddr5_speeds_scale_linearly) {
    /* infrastructure.md 5.1: 4800 -> 460.8, 5600 -> 537.6, 6000 -> 576.0 GB/s per socket. */
    const double mts[] = {4800, 5200, 5600, 6000};
    const double gbs[] = {460.8, 499.2, 537.6, 576.0};
    for (int i = 0; i < 4; i++) {
        hwfit_host_in in = seed();
        in.speed_mts = mts[i];
        ASSERT_NEAR(eval(&in).memory_bandwidth_per_socket_bytes_per_s, gbs[i] * 1e9, REL);
    }
}

Test(host, two_dimms_per_channel_use_the_2dpc_speed_rule) {
    hwfit_host_in in = seed();
    in.dimms = 48;
    hwfit_host_out o = eval(&in);
    ASSERT_NEAR(o.dimms_per_channel, 2.0, REL);
    cr_assert_eq(o.speed_rule_known, 0); /* no 2-DPC rate given: kept 6400 and flagged */
    ASSERT_NEAR(o.effective_speed_mts, 6400.0, REL);
    in.speed_2dpc_mts = 4400; /* an input: the platform's 2-DPC rate */
    o = eval(&in);
    cr_assert_eq(o.speed_rule_known, 1);
    cr_assert_eq(o.downclocked, 1);
    ASSERT_NEAR(o.memory_bandwidth_bytes_per_s, 24 * 4400e6 * 8, REL);
    /* More DIMMs never raise bandwidth once a channel is full. */
    hwfit_host_in one_dpc = seed();
    cr_assert(o.memory_bandwidth_bytes_per_s < eval(&one_dpc).memory_bandwidth_bytes_per_s);
}

Test(host, uneven_population_is_flagged) {
    hwfit_host_in in = seed();
    in.dimms = 36; /* 12 channels with 2, 12 with 1 */
    hwfit_host_out o = eval(&in);
    ASSERT_NEAR(o.dimms_per_channel, 1.5, REL);
    cr_assert_eq(o.max_dimms_in_a_channel, 2);
    cr_assert_eq(o.balanced, 0);
    in.dimms = 12; /* half the channels empty: half the bandwidth */
    o = eval(&in);
    cr_assert_eq(o.populated_channels, 12);
    ASSERT_NEAR(o.memory_bandwidth_bytes_per_s, 614.4e9, REL);
    cr_assert_eq(o.balanced, 0);
    in.dimms = 72; /* 3 per channel on a 2-slot platform */
    o = eval(&in);
    cr_assert_eq(o.within_slot_limit, 0);
}

Test(host, bandwidth_per_socket_times_sockets_is_the_total) {
    for (uint64_t s = 1; s <= 8; s++) {
        for (uint64_t ch = 1; ch <= 12; ch++) {
            hwfit_host_in in = seed();
            in.sockets = s;
            in.channels_per_socket = ch;
            in.dimms = s * ch;
            in.lanes_per_socket = 0;
            hwfit_host_out o = eval(&in);
            ASSERT_NEAR(o.memory_bandwidth_per_socket_bytes_per_s * (double)s,
                        o.memory_bandwidth_bytes_per_s, REL);
            ASSERT_NEAR(o.memory_bandwidth_bytes_per_s, (double)(s * ch) * 6400e6 * 8, REL);
        }
    }
}

Test(host, cores_per_gpu_against_a_rule) {
    /* DE-16 / EN-10: 128 cores / 8 GPUs = 16 per GPU; the seed's rule is ~8 (64 needed). */
    hwfit_host_in in = seed();
    in.cores_per_gpu_rule = 8;
    hwfit_host_out o = eval(&in);
    cr_assert_eq(o.cores_evaluated, 1);
    ASSERT_NEAR(o.cores_per_gpu, 16.0, REL);
    ASSERT_NEAR(o.cores_needed, 64.0, REL);
    cr_assert_eq(o.meets_cores_rule, 1);
    in.cores_per_gpu_rule = 20;
    cr_assert_eq(eval(&in).meets_cores_rule, 0);
    in.cores_per_gpu_rule = 16; /* exactly at the rule meets it */
    cr_assert_eq(eval(&in).meets_cores_rule, 1);
}

Test(host, ram_to_vram_against_the_2x_rule) {
    /* DE-21 / EN-14: 1.5 TB host RAM vs 8 x 96 GB = 768 GB of VRAM. In decimal bytes the
     * ratio is 1.5e12 / 768e9 = 1.953 < 2; as the DIMMs really are 24 x 64 GiB = 1536 GiB
     * against 8 x 96 GiB = 768 GiB the ratio is exactly 2. The units decide the verdict. */
    hwfit_host_in in = seed();
    in.ram_bytes = 1.5e12;
    in.vram_bytes = 768e9;
    hwfit_host_out o = eval(&in);
    cr_assert_eq(o.ram_evaluated, 1);
    ASSERT_NEAR(o.ram_to_vram, 1.953125, REL);
    ASSERT_NEAR(o.ram_needed_bytes, 1536e9, REL);
    cr_assert_eq(o.meets_ram_rule, 0);
    in.ram_bytes = 1536 * HWFIT_GIBI;
    in.vram_bytes = 768 * HWFIT_GIBI;
    o = eval(&in);
    ASSERT_NEAR(o.ram_to_vram, 2.0, REL);
    cr_assert_eq(o.meets_ram_rule, 1);
    ASSERT_NEAR(o.dimm_bytes, 64 * HWFIT_GIBI, REL);
}

Test(host, two_sockets_lose_lanes_to_xgmi) {
    /* 2 x 128 lanes; 4 xGMI x16 links per socket take 2 x 64: 128 left; 3 links: 160
     * (infrastructure.md 5.2, ServeTheHome). */
    hwfit_host_in in = seed();
    hwfit_host_out o = eval(&in);
    cr_assert_eq(o.lanes_evaluated, 1);
    cr_assert_eq(o.pcie_lanes_total, 256);
    cr_assert_eq(o.socket_link_lanes_used, 128);
    cr_assert_eq(o.pcie_lanes_available, 128);
    in.socket_links = 3;
    cr_assert_eq(eval(&in).pcie_lanes_available, 160);
    in.sockets = 1; /* one socket has no inter-socket links */
    cr_assert_eq(eval(&in).pcie_lanes_available, 128);
}

Test(host, seed_devices_need_176_lanes) {
    /* EN-12 / EN-13: GPUs 8 x 16 = 128, NVMe 4 x 4 = 16, NICs 2 x 16 = 32: 176 > 160 > 128
     * (infrastructure.md 5.2). */
    hwfit_host_in in = seed();
    hwfit_host_out o = eval(&in);
    cr_assert_eq(o.gpu_lanes_needed, 128);
    cr_assert_eq(o.nvme_lanes_needed, 16);
    cr_assert_eq(o.nic_lanes_needed, 32);
    cr_assert_eq(o.pcie_lanes_needed, 176);
    cr_assert_eq(o.lanes_fit, 0);
    /* Bifurcated to x8 (EN-09): 64 + 16 + 32 = 112 <= 128. */
    cr_assert_eq(o.pcie_lanes_needed_bifurcated, 112);
    cr_assert_eq(o.lanes_fit_bifurcated, 1);
    in.socket_links = 3;
    cr_assert_eq(eval(&in).lanes_fit, 0); /* still 176 > 160 */
}

Test(host, pcie_switches_share_upstream_lanes) {
    /* 4 switches with x16 upstream, 2 GPUs behind each: host gives 64 + 16 + 32 = 112 lanes;
     * 128 GPU lanes behind 64 upstream lanes: 2:1 oversubscribed. */
    hwfit_host_in in = seed();
    in.switches = 4;
    hwfit_host_out o = eval(&in);
    cr_assert_eq(o.pcie_lanes_needed_switched, 112);
    cr_assert_eq(o.switch_device_lanes, 128);
    ASSERT_NEAR(o.switch_oversubscription, 2.0, REL);
    cr_assert_eq(o.lanes_fit_switched, 1);
    /* NICs behind the switches too: 64 + 16 = 80; 160 lanes behind. */
    in.switch_nics = 1;
    o = eval(&in);
    cr_assert_eq(o.pcie_lanes_needed_switched, 80);
    cr_assert_eq(o.switch_device_lanes, 160);
    /* Downstream capacity of 32 lanes per switch cannot hold 40 device lanes each. */
    in.switch_downstream_lanes = 32;
    cr_assert_eq(eval(&in).lanes_fit_switched, 0);
    in.switch_downstream_lanes = 48;
    cr_assert_eq(eval(&in).lanes_fit_switched, 1);
    /* Without switches the switched figure equals the direct one. */
    in = seed();
    o = eval(&in);
    cr_assert_eq(o.pcie_lanes_needed_switched, o.pcie_lanes_needed);
    cr_assert_eq(o.switch_oversubscription, 0.0);
}

Test(host, fewer_socket_links_never_lose_lanes) {
    uint64_t previous = 0;
    for (int links = 4; links >= 0; links--) {
        hwfit_host_in in = seed();
        in.socket_links = (uint64_t)links;
        uint64_t avail = eval(&in).pcie_lanes_available;
        cr_assert(avail >= previous);
        cr_assert(avail <= 256);
        previous = avail;
    }
}

Test(host, parts_without_inputs_are_skipped) {
    hwfit_host_in in;
    hwfit_host_init(&in);
    hwfit_host_out o = eval(&in);
    cr_assert_eq(o.cores_evaluated, 0);
    cr_assert_eq(o.ram_evaluated, 0);
    cr_assert_eq(o.memory_evaluated, 0);
    cr_assert_eq(o.lanes_evaluated, 0);
    cr_assert_eq(o.memory_bandwidth_bytes_per_s, 0.0);
    cr_assert_eq(o.pcie_lanes_needed, 0);
    hwfit_host_init(NULL);
}

static void expect_error(const hwfit_host_in *in, hwfit_status want, const char *what) {
    hwfit_host_out out, before;
    memset(&out, 0x5a, sizeof out);
    before = out;
    hwfit_status st = hwfit_host_evaluate(in, &out);
    cr_assert_eq(st, want, "%s: %s", what, hwfit_status_name(st));
    cr_assert(memcmp(&out, &before, sizeof out) == 0, "%s: output written", what);
}

Test(host, refuses_bad_input) {
    hwfit_host_in in;
#define CASE(stmt, status, what) \
    in = seed();                 \
    stmt;                        \
    expect_error(&in, status, what);
    CASE(in.sockets = 0, HWFIT_EDOM, "no socket")
    CASE(in.sockets = 9, HWFIT_EDOM, "nine sockets")
    CASE(in.dimms = 0, HWFIT_EDOM, "channels and speed without DIMMs")
    CASE(in.speed_mts = 0, HWFIT_EDOM, "DIMMs without speed")
    CASE(in.speed_mts = NAN, HWFIT_EDOM, "NaN speed")
    CASE(in.speed_mts = INFINITY, HWFIT_EDOM, "infinite speed")
    CASE(in.speed_2dpc_mts = 7000, HWFIT_EDOM, "2 DPC faster than 1 DPC")
    CASE(in.ram_bytes = -1, HWFIT_EDOM, "negative RAM")
    CASE(in.vram_bytes = INFINITY, HWFIT_EDOM, "infinite VRAM")
    CASE(in.cores_per_gpu_rule = NAN, HWFIT_EDOM, "NaN rule")
    CASE(in.ram_to_vram_rule = -2, HWFIT_EDOM, "negative rule")
    CASE(in.gpu_lanes = 0, HWFIT_EDOM, "x0 GPU")
    CASE(in.channel_width_bytes = 0, HWFIT_EDOM, "zero-width channel")
    CASE(in.max_dimms_per_channel = 0, HWFIT_EDOM, "no slot")
    CASE(in.socket_links = 9, HWFIT_EDOM, "links take more lanes than a socket has")
    CASE(in.gpus = UINT64_MAX, HWFIT_ERANGE, "lane count overflows")
    CASE(in.lanes_per_socket = UINT64_MAX, HWFIT_ERANGE, "total lanes overflow")
    CASE((in.switches = UINT64_MAX / 2), HWFIT_ERANGE, "switch lanes overflow")
    CASE(in.channels_per_socket = UINT64_MAX, HWFIT_ERANGE, "channel count overflows")
#undef CASE
    hwfit_host_out out;
    in = seed();
    cr_assert_eq(hwfit_host_evaluate(NULL, &out), HWFIT_EINVAL);
    cr_assert_eq(hwfit_host_evaluate(&in, NULL), HWFIT_EINVAL);
}

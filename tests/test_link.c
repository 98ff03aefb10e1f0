/* Link rates against their specifications, consistency, parsing and every error path. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "hwfit.h"

/* Rates are products of exact spec constants; 1e-12 leaves room for rounding only. */
#define ASSERT_REL(got, want, tol) \
    cr_assert(fabs((got) - (want)) <= (tol) * fabs(want), "got %.17g want %.17g", (double)(got), (double)(want))

static hwfit_link_out rate(hwfit_link_kind kind, uint32_t gen, uint32_t width) {
    hwfit_link_in in;
    hwfit_link_out out;
    hwfit_link_init(&in);
    in.kind = kind;
    in.generation = gen;
    in.width = width;
    hwfit_status st = hwfit_link_rate(&in, &out);
    cr_assert_eq(st, HWFIT_OK, "kind %d gen %u x%u: %s", kind, gen, width, hwfit_status_name(st));
    return out;
}

static hwfit_link_out parsed(const char *text) {
    hwfit_link_in in;
    hwfit_link_out out;
    cr_assert_eq(hwfit_link_parse(text, &in), HWFIT_OK, "%s", text);
    cr_assert_eq(hwfit_link_rate(&in, &out), HWFIT_OK, "%s", text);
    return out;
}

Test(link, defaults_are_pcie5_x16) {
    hwfit_link_in in;
    memset(&in, 0x5a, sizeof in);
    hwfit_link_init(&in);
    cr_assert_eq(in.kind, HWFIT_LINK_PCIE);
    cr_assert_eq(in.generation, 5);
    cr_assert_eq(in.width, 16);
    cr_assert_eq(in.payload_bytes, 0.0);
    hwfit_link_init(NULL); /* ignored */
}

Test(link, pcie_every_generation_and_width_matches_the_spec) {
    /* PCI-SIG: GT/s per lane and line code per generation; bytes/s per lane per direction
     * = GT/s x code / 8: 0.25, 0.5, 0.9846, 1.969, 3.938, 8 GB/s. */
    const double gts[] = {2.5e9, 5e9, 8e9, 16e9, 32e9, 64e9};
    const double code[] = {0.8, 0.8, 128.0 / 130, 128.0 / 130, 128.0 / 130, 1.0};
    const uint32_t widths[] = {1, 2, 4, 8, 16};
    for (uint32_t g = 1; g <= 6; g++) {
        for (size_t w = 0; w < 5; w++) {
            hwfit_link_out o = rate(HWFIT_LINK_PCIE, g, widths[w]);
            double want = gts[g - 1] * code[g - 1] / 8.0 * widths[w];
            ASSERT_REL(o.line_bytes_per_s, want, 1e-12);
            ASSERT_REL(o.line_bytes_per_s_bidir, 2 * want, 1e-12);
            cr_assert_eq(o.lanes, widths[w]);
            cr_assert_eq(o.lane_raw_bits_per_s, gts[g - 1]);
        }
    }
    /* Headline figures: Gen5 x16 = 63.0 GB/s, Gen4 x16 = 31.5, Gen6 x16 = 128 per direction. */
    ASSERT_REL(rate(HWFIT_LINK_PCIE, 5, 16).line_bytes_per_s, 63.015e9, 1e-4);
    ASSERT_REL(rate(HWFIT_LINK_PCIE, 4, 16).line_bytes_per_s, 31.508e9, 1e-4);
    ASSERT_REL(rate(HWFIT_LINK_PCIE, 6, 16).line_bytes_per_s, 128e9, 1e-12);
    cr_assert_str_eq(rate(HWFIT_LINK_PCIE, 5, 16).name, "PCIe 5.0 x16");
    cr_assert_str_eq(rate(HWFIT_LINK_PCIE, 3, 8).name, "PCIe 3.0 x8");
}

Test(link, pcie_protocol_efficiency_by_payload_size) {
    /* MPS / (MPS + 24): 128 B -> 84 %, 256 B -> 91 %, 512 B -> 96 % (Intel protocol
     * overhead note, as summarised in the reference). */
    const double mps[] = {128, 256, 512, 4096};
    const double want[] = {128.0 / 152, 256.0 / 280, 512.0 / 536, 4096.0 / 4120};
    for (size_t i = 0; i < 4; i++) {
        hwfit_link_in in;
        hwfit_link_out o;
        hwfit_link_init(&in);
        in.payload_bytes = mps[i];
        cr_assert_eq(hwfit_link_rate(&in, &o), HWFIT_OK);
        ASSERT_REL(o.protocol_efficiency, want[i], 1e-12);
        ASSERT_REL(o.payload_bytes_per_s, o.line_bytes_per_s * want[i], 1e-12);
    }
    /* Gen5 x16 at MPS 256 carries 57.6 GB/s of payload; p2pBandwidthLatencyTest measures
     * 57.2-57.3 GB/s between RTX PRO 6000 cards on Gen5 x16 root ports
     * (voipmonitor/rtx6kpro hardware/epyc9124-direct-attach.md): within 2 %. */
    hwfit_link_out g5 = rate(HWFIT_LINK_PCIE, 5, 16);
    cr_assert(g5.payload_bytes_per_s >= 57.2e9);
    ASSERT_REL(g5.payload_bytes_per_s, 57.25e9, 0.02);
    /* Gen6 flit mode: 236 of 256 flit bytes carry TLPs; a TLP adds a 16-byte header. */
    hwfit_link_out g6 = rate(HWFIT_LINK_PCIE, 6, 16);
    ASSERT_REL(g6.protocol_efficiency, 236.0 / 256 * 256.0 / 272, 1e-12);
}

Test(link, nvlink_generations_match_nvidia_datasheets) {
    /* Per GPU per direction: V100 6 x 25 = 150, A100 12 x 25 = 300, H100 18 x 25 = 450,
     * B200 18 x 50 = 900 GB/s; the datasheets print these doubled (600, 900, 1,800). */
    ASSERT_REL(rate(HWFIT_LINK_NVLINK, 1, 4).line_bytes_per_s, 80e9, 1e-12);
    ASSERT_REL(rate(HWFIT_LINK_NVLINK, 2, 6).line_bytes_per_s, 150e9, 1e-12);
    ASSERT_REL(rate(HWFIT_LINK_NVLINK, 3, 12).line_bytes_per_s_bidir, 600e9, 1e-12);
    ASSERT_REL(rate(HWFIT_LINK_NVLINK, 4, 18).line_bytes_per_s_bidir, 900e9, 1e-12);
    ASSERT_REL(rate(HWFIT_LINK_NVLINK, 5, 18).line_bytes_per_s_bidir, 1800e9, 1e-12);
    /* "25GB/s ... converts to ~20GB/s effective bandwidth with a 128B payload size",
     * i.e. 240 GB/s for 12 A100 links (S. Jeaugey, NVIDIA/nccl-tests#149). */
    hwfit_link_out a100 = rate(HWFIT_LINK_NVLINK, 3, 12);
    ASSERT_REL(a100.protocol_efficiency, 0.8, 1e-12);
    ASSERT_REL(a100.payload_bytes_per_s, 240e9, 1e-12);
}

Test(link, infiniband_port_rates) {
    /* IBTA: EDR 100, HDR 200, NDR 400, XDR 800 Gb/s per 4x port. */
    const double want[] = {12.5e9, 25e9, 50e9, 100e9};
    for (uint32_t s = HWFIT_LINK_IB_EDR; s <= HWFIT_LINK_IB_XDR; s++)
        ASSERT_REL(rate(HWFIT_LINK_INFINIBAND, s, 1).line_bytes_per_s, want[s - 1], 1e-9);
    /* NDR at 4096-byte MTU: 50 x 4096 / 4122 = 49.7 GB/s; "CX-7 NICs at NDR rate should
     * achieve up to 48-49GB/s per NIC" (NVIDIA/nccl-tests#267): the ceiling is above and
     * within 3 % of the measured figure. */
    hwfit_link_out ndr = parsed("ib-ndr");
    cr_assert(ndr.payload_bytes_per_s >= 49e9);
    ASSERT_REL(ndr.payload_bytes_per_s, 48.5e9, 0.03);
    cr_assert_str_eq(ndr.name, "InfiniBand NDR 4x");
    ASSERT_REL(parsed("8x400g-ib").line_bytes_per_s, 400e9, 1e-9);
}

Test(link, ethernet_and_rocev2_overhead_by_mtu) {
    /* IEEE 802.3 MAC rates: 10, 25, 40, 50, 100, 200, 400 (802.3bs/ck), 800 (802.3df)
     * Gb/s; their lanes carry 64b/66b (10G/25G-lane families: 10.3125, 25.78125 GBd x
     * 64/66) or RS(544,514) + 256b/257b (53.125 and 106.25 Gb/s PAM4 lanes). */
    const double speeds[] = {10e9, 25e9, 40e9, 50e9, 100e9, 200e9, 400e9, 800e9};
    const double code[] = {64.0 / 66, 64.0 / 66, 64.0 / 66, 514.0 / 544 * 256 / 257,
                           64.0 / 66, 514.0 / 544 * 256 / 257, 514.0 / 544 * 256 / 257,
                           514.0 / 544 * 256 / 257};
    for (size_t i = 0; i < 8; i++) {
        hwfit_link_in in;
        hwfit_link_out o;
        hwfit_link_init(&in);
        in.kind = HWFIT_LINK_ETHERNET;
        in.port_bits_per_s = speeds[i];
        in.width = 1;
        cr_assert_eq(hwfit_link_rate(&in, &o), HWFIT_OK);
        ASSERT_REL(o.line_bytes_per_s, speeds[i] / 8, 1e-12);
        ASSERT_REL(o.encoding_efficiency, code[i], 1e-12);
        ASSERT_REL(o.lanes * o.lane_raw_bits_per_s * o.encoding_efficiency, speeds[i], 1e-12);
    }
    /* RoCEv2 on 400GbE: 82 bytes per packet -> MTU 4096: 98.0 % (49.0 GB/s), 2048: 96.1 %,
     * 1024: 92.6 % (pingdo.net "RoCE v2 header overhead", reference section 5.4). */
    const double mtu[] = {4096, 2048, 1024};
    const double pct[] = {0.980, 0.961, 0.926};
    for (size_t i = 0; i < 3; i++) {
        hwfit_link_in in;
        hwfit_link_out o;
        cr_assert_eq(hwfit_link_parse("400g-roce", &in), HWFIT_OK);
        in.payload_bytes = mtu[i];
        cr_assert_eq(hwfit_link_rate(&in, &o), HWFIT_OK);
        ASSERT_REL(o.protocol_efficiency, pct[i], 6e-4);
        cr_assert_eq(o.overhead_bytes, 82.0);
    }
    ASSERT_REL(parsed("400g-roce").payload_bytes_per_s, 49.0e9, 1e-3);
    /* TCP at MTU 1500: 1448 payload bytes per 1538 on the wire (RFC 7323 timestamps). */
    hwfit_link_out tcp = parsed("100g-tcp");
    ASSERT_REL(tcp.protocol_efficiency, 1448.0 / 1538, 1e-12);
    cr_assert_str_eq(tcp.name, "100GbE TCP");
    hwfit_link_out two = parsed("2x400g-roce");
    ASSERT_REL(two.line_bytes_per_s, 100e9, 1e-12);
    cr_assert_str_eq(two.name, "2x 400GbE RoCEv2");
}

Test(link, socket_links) {
    /* Lenovo Press LP1852: four xGMI links at 32 Gb/s -> 512 GB/s between EPYC 9004 sockets
     * (both directions). */
    hwfit_link_out x = parsed("xgmi3x4");
    ASSERT_REL(x.line_bytes_per_s_bidir, 512e9, 1e-12);
    ASSERT_REL(x.line_bytes_per_s, 256e9, 1e-12);
    /* UPI at 10.4 GT/s = 20.8 GB/s per direction per link (Intel Xeon Scalable brief). */
    ASSERT_REL(rate(HWFIT_LINK_UPI, 1, 1).line_bytes_per_s, 20.8e9, 1e-12);
    ASSERT_REL(rate(HWFIT_LINK_UPI, 2, 3).line_bytes_per_s, 96e9, 1e-12);
    ASSERT_REL(rate(HWFIT_LINK_UPI, 3, 1).line_bytes_per_s, 48e9, 1e-12);
    /* MI300X Infinity Fabric: 128 GB/s both directions per link (AMD data sheet). */
    ASSERT_REL(rate(HWFIT_LINK_XGMI, 3, 1).line_bytes_per_s_bidir, 128e9, 1e-12);
}

Test(link, consistency_width_payload_and_directions) {
    for (hwfit_link_kind k = HWFIT_LINK_PCIE; k <= HWFIT_LINK_UPI; k++) {
        uint32_t gen = k == HWFIT_LINK_PCIE ? 4 : k == HWFIT_LINK_NVLINK ? 4 :
                       k == HWFIT_LINK_INFINIBAND ? HWFIT_LINK_IB_HDR : k == HWFIT_LINK_XGMI ? 3 : 2;
        hwfit_link_out one = rate(k, gen, 1), two = rate(k, gen, 2);
        ASSERT_REL(two.line_bytes_per_s, 2 * one.line_bytes_per_s, 1e-12);
        cr_assert(one.payload_bytes_per_s <= one.line_bytes_per_s);
        cr_assert(one.protocol_efficiency > 0.5 && one.protocol_efficiency <= 1.0);
        ASSERT_REL(one.payload_bytes_per_s_bidir, 2 * one.payload_bytes_per_s, 1e-12);
    }
    /* Bigger packets never carry less payload. */
    double last = 0;
    for (double p = 128; p <= 4096; p *= 2) {
        hwfit_link_in in;
        hwfit_link_out o;
        hwfit_link_init(&in);
        in.payload_bytes = p;
        cr_assert_eq(hwfit_link_rate(&in, &o), HWFIT_OK);
        cr_assert(o.payload_bytes_per_s > last);
        last = o.payload_bytes_per_s;
    }
}

Test(link, parse_forms) {
    hwfit_link_in in;
    cr_assert_eq(hwfit_link_parse("PCIe4x8", &in), HWFIT_OK);
    cr_assert_eq(in.kind, HWFIT_LINK_PCIE);
    cr_assert_eq(in.generation, 4);
    cr_assert_eq(in.width, 8);
    cr_assert_eq(hwfit_link_parse("nvlink5", &in), HWFIT_OK);
    cr_assert_eq(in.kind, HWFIT_LINK_NVLINK);
    cr_assert_eq(in.width, 1);
    cr_assert_eq(hwfit_link_parse("2x400g-roce", &in), HWFIT_OK);
    cr_assert_eq(in.kind, HWFIT_LINK_ETHERNET);
    cr_assert_eq(in.transport, HWFIT_LINK_TRANSPORT_ROCEV2);
    cr_assert_eq(in.width, 2);
    cr_assert_eq(in.port_bits_per_s, 400e9);
    cr_assert_eq(hwfit_link_parse("8x400g-ib", &in), HWFIT_OK);
    cr_assert_eq(in.kind, HWFIT_LINK_INFINIBAND);
    cr_assert_eq(in.generation, HWFIT_LINK_IB_NDR);
    cr_assert_eq(in.width, 8);
    cr_assert_eq(hwfit_link_parse("upi2x3", &in), HWFIT_OK);
    cr_assert_eq(in.kind, HWFIT_LINK_UPI);
}

Test(link, parse_errors_leave_the_output_alone) {
    static const struct {
        const char *text;
        hwfit_status want;
    } cases[] = {
        {"", HWFIT_EPARSE},          {"pcie", HWFIT_EPARSE},       {"pcie5", HWFIT_EPARSE},
        {"pcie5x", HWFIT_EPARSE},    {"pcie5x16x", HWFIT_EPARSE},  {"ethernet", HWFIT_EPARSE},
        {"400g", HWFIT_EPARSE},      {"400g-foo", HWFIT_EPARSE},   {"x400g-roce", HWFIT_EPARSE},
        {"ib-sdr", HWFIT_EPARSE},    {"nvlink-4", HWFIT_EPARSE},   {"9999999999x1g-roce", HWFIT_EPARSE},
        {"pcie7x16", HWFIT_EDOM},    {"pcie5x3", HWFIT_EDOM},      {"pcie0x16", HWFIT_EDOM},
        {"300g-ib", HWFIT_EDOM},     {"300g-roce", HWFIT_EDOM},    {"nvlink6", HWFIT_EDOM},
        {"nvlink4x19", HWFIT_EDOM},  {"xgmi2", HWFIT_EDOM},        {"0x400g-roce", HWFIT_EDOM},
        {"upi4", HWFIT_EDOM},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hwfit_link_in in, poison;
        memset(&in, 0x5a, sizeof in);
        memcpy(&poison, &in, sizeof in);
        hwfit_status st = hwfit_link_parse(cases[i].text, &in);
        cr_assert_eq(st, cases[i].want, "'%s': got %s", cases[i].text, hwfit_status_name(st));
        cr_assert(memcmp(&in, &poison, sizeof in) == 0, "'%s' wrote on error", cases[i].text);
    }
    hwfit_link_in in;
    cr_assert_eq(hwfit_link_parse(NULL, &in), HWFIT_EINVAL);
    cr_assert_eq(hwfit_link_parse("pcie5x16", NULL), HWFIT_EINVAL);
}

Test(link, rate_errors_leave_the_output_alone) {
    hwfit_link_out out, poison;
    memset(&out, 0x5a, sizeof out);
    memcpy(&poison, &out, sizeof out);
    hwfit_link_in in;
#define EXPECT(mutation, status)                                                 \
    do {                                                                         \
        hwfit_link_init(&in);                                                    \
        mutation;                                                                \
        cr_assert_eq(hwfit_link_rate(&in, &out), status, "%s", #mutation);       \
        cr_assert(memcmp(&out, &poison, sizeof out) == 0, "%s wrote", #mutation); \
    } while (0)
    EXPECT(in.kind = (hwfit_link_kind)42, HWFIT_EINVAL);
    EXPECT((in.kind = HWFIT_LINK_ETHERNET, in.transport = (hwfit_link_transport)7), HWFIT_EINVAL);
    EXPECT(in.payload_bytes = NAN, HWFIT_EDOM);
    EXPECT(in.payload_bytes = INFINITY, HWFIT_EDOM);
    EXPECT(in.payload_bytes = -256, HWFIT_EDOM);
    EXPECT(in.payload_bytes = 64, HWFIT_EDOM);
    EXPECT(in.payload_bytes = 8192, HWFIT_EDOM);
    EXPECT(in.width = 0, HWFIT_EDOM);
    EXPECT(in.width = 32, HWFIT_EDOM);
    EXPECT(in.generation = 0, HWFIT_EDOM);
    EXPECT((in.kind = HWFIT_LINK_ETHERNET, in.port_bits_per_s = 300e9), HWFIT_EDOM);
    EXPECT((in.kind = HWFIT_LINK_ETHERNET, in.port_bits_per_s = NAN), HWFIT_EDOM);
    EXPECT((in.kind = HWFIT_LINK_ETHERNET, in.transport = HWFIT_LINK_TRANSPORT_TCP,
            in.payload_bytes = 100), HWFIT_EDOM);
    EXPECT((in.kind = HWFIT_LINK_INFINIBAND, in.generation = 5), HWFIT_EDOM);
    EXPECT((in.kind = HWFIT_LINK_NVLINK, in.payload_bytes = 512), HWFIT_EDOM);
    EXPECT((in.kind = HWFIT_LINK_XGMI, in.generation = 3, in.width = 9), HWFIT_EDOM);
#undef EXPECT
    cr_assert_eq(hwfit_link_rate(NULL, &out), HWFIT_EINVAL);
    hwfit_link_init(&in);
    cr_assert_eq(hwfit_link_rate(&in, NULL), HWFIT_EINVAL);
}

Test(link, kind_names) {
    cr_assert_str_eq(hwfit_link_kind_name(HWFIT_LINK_PCIE), "pcie");
    cr_assert_str_eq(hwfit_link_kind_name(HWFIT_LINK_INFINIBAND), "infiniband");
    cr_assert_str_eq(hwfit_link_kind_name(HWFIT_LINK_UPI), "upi");
    cr_assert_str_eq(hwfit_link_kind_name((hwfit_link_kind)99), "unknown");
}

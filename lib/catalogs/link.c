/* link.c - link rates from signalling rate, encoding and packet overhead (link.h).
 *
 * line rate per direction = width x lanes x lane signalling rate x encoding share / 8
 * payload rate            = line rate x payload / (payload + per-packet overhead)
 * Sources are cited at each table and in docs/formulas.md (## link).
 */
#include <ctype.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit/link.h"
#include "hwfit/status.h"
#include "hwfit/units.h"

#include "base/internal.h"
#include "catalogs/link_internal.h"

/* ---- PCIe --------------------------------------------------------------------------
 * PCI-SIG base specifications 1.0a-6.0: 2.5/5 GT/s with 8b/10b (gen 1-2), 8/16/32 GT/s
 * with 128b/130b (gen 3-5), 64 GT/s PAM4 in 256-byte FLITs (gen 6, no line code; FEC and
 * CRC live in the flit). Per-TLP overhead in non-flit mode: 4-DW header 16 B + LCRC 4 B
 * + sequence number and framing 4 B (gen 1-2: STP 1 + seq 2 + END 1; gen 3-5: the 4-byte
 * STP token carries the sequence number) = 24 B (Intel, "PCI Express protocol overhead",
 * AN 829; the reference there gives 20-28 B). Flit mode (gen 6): 236 of 256 flit bytes
 * carry TLPs (6 B DLP, 8 B CRC, 6 B FEC) and a TLP adds only its 16-B header; this flit
 * split is from PCIe 6.0 summaries (the specification itself is member-only). DLLPs and
 * SKP ordered sets (a few %) are not counted. */
typedef struct pcie_gen {
    double gt_per_s;   /* transfers per second per lane */
    double encoding;   /* share of transfers carrying data */
    double tlp_bytes;  /* per-TLP overhead bytes */
    double flit_share; /* share of the flit carrying TLP bytes (1 before gen 6) */
    const char *version;
} pcie_gen;

static const pcie_gen pcie_gens[] = {
    {2.5e9, 8.0 / 10.0, 24, 1.0, "1.0"},
    {5e9, 8.0 / 10.0, 24, 1.0, "2.0"},
    {8e9, 128.0 / 130.0, 24, 1.0, "3.0"},
    {16e9, 128.0 / 130.0, 24, 1.0, "4.0"},
    {32e9, 128.0 / 130.0, 24, 1.0, "5.0"},
    {64e9, 1.0, 16, 236.0 / 256.0, "6.0"},
};

/* ---- NVLink --------------------------------------------------------------------------
 * Per link and direction: NVLink 1 (P100) 8 lanes x 20 Gb/s = 20 GB/s; NVLink 2 (V100)
 * 8 x 25 Gb/s = 25 GB/s; NVLink 3 (A100) 4 x 50 Gb/s = 25 GB/s; NVLink 4 (H100) 2 x
 * 100 Gb/s = 25 GB/s; NVLink 5 (B200) 2 x 200 Gb/s = 50 GB/s (NVIDIA P100/V100/A100/H100/
 * B200 whitepapers and datasheets; the lane count of NVLink 3 from S. Jeaugey in
 * NVIDIA/nccl-tests#149). Rates are data rates (encoding share 1).
 * Packet overhead: "Each NVLink has a line rate of 25GB/s ... which converts to ~20GB/s
 * effective bandwidth with a 128B payload size" (S. Jeaugey, NVIDIA/nccl-tests#149), so
 * 128 / (128 + h) = 0.8 gives h = 32 bytes of header per write (derived). */
typedef struct nvlink_gen {
    uint32_t lanes;
    double lane_bits_per_s;
} nvlink_gen;

static const nvlink_gen nvlink_gens[] = {
    {8, 20e9}, {8, 25e9}, {4, 50e9}, {2, 100e9}, {2, 200e9},
};
#define NVLINK_OVERHEAD_BYTES 32.0

/* ---- InfiniBand (4x ports) --------------------------------------------------------------
 * IBTA specification: EDR lanes 25.78125 Gb/s with 64b/66b; HDR, NDR and XDR lanes at
 * 53.125, 106.25 and 212.5 Gb/s carry 50, 100 and 200 Gb/s after RS(544,514) FEC and
 * 256b/257b transcoding (the same coding as IEEE 802.3 clauses 91/134 for 50G lanes).
 * Per-packet transport overhead: LRH 8 + BTH 12 + ICRC 4 + VCRC 2 = 26 bytes (RDMA write
 * middle packets; the first adds a 16-byte RETH, not counted). */
typedef struct ib_speed {
    double lane_bits_per_s;
    double encoding;
    const char *name;
} ib_speed;

#define RS544_257 ((514.0 / 544.0) * (256.0 / 257.0))
static const ib_speed ib_speeds[] = {
    {25.78125e9, 64.0 / 66.0, "EDR"},
    {53.125e9, RS544_257, "HDR"},
    {106.25e9, RS544_257, "NDR"},
    {212.5e9, RS544_257, "XDR"},
};
#define IB_OVERHEAD_BYTES 26.0

/* ---- Ethernet --------------------------------------------------------------------------
 * IEEE 802.3 MAC data rates with the usual lane layouts: 10GBASE-R 1 x 10.3125 Gb/s and
 * 25GBASE-R 1 x 25.78125 (64b/66b); 40G 4 x 10.3125; 50G 1 x 53.125, 200G 4 x 53.125
 * (PAM4, RS(544,514) + 256b/257b); 100G 4 x 25.78125; 400G 4 x 106.25 (802.3ck);
 * 800G 8 x 106.25 (802.3df). The encoding share is data rate / signalling rate.
 * RoCEv2 per-packet wire overhead: inter-frame gap 12 + preamble/SFD 8 + Ethernet header
 * 14 + FCS 4 + IPv4 20 + UDP 8 + IB BTH 12 + ICRC 4 = 82 bytes (IEEE 802.3; RFC 791;
 * RFC 768; IBTA Annex A17), payload = the RoCE path MTU.
 * TCP: per frame the same 38 bytes of Ethernet framing on the wire plus IPv4 20 + TCP 20
 * + timestamps option 12 (RFC 791, 9293, 7323) inside the MTU: payload = MTU - 52. */
typedef struct eth_speed {
    double bits_per_s;
    uint32_t lanes;
    double lane_bits_per_s;
} eth_speed;

static const eth_speed eth_speeds[] = {
    {10e9, 1, 10.3125e9},  {25e9, 1, 25.78125e9},  {40e9, 4, 10.3125e9},
    {50e9, 1, 53.125e9},   {100e9, 4, 25.78125e9}, {200e9, 4, 53.125e9},
    {400e9, 4, 106.25e9},  {800e9, 8, 106.25e9},
};
#define ROCE_OVERHEAD_BYTES 82.0
#define ETH_FRAMING_BYTES 38.0 /* IFG 12 + preamble 8 + header 14 + FCS 4 */
#define TCP_IP_HEADER_BYTES 52.0

/* ---- socket links ------------------------------------------------------------------------
 * xGMI 3 (AMD EPYC 9004/9005, Instinct MI300): x16 links at 32 Gb/s per lane, 64 GB/s
 * per direction per link ("Four xGMI links ... 512 GB/s between sockets", Lenovo Press
 * LP1852). UPI: 20-lane links moving 2 bytes per transfer in each direction, 10.4, 16 and
 * 24 GT/s for UPI 1.0, 2.0 (Sapphire/Emerald Rapids) and Xeon 6 (Intel Xeon Scalable
 * platform briefs; 10.4 GT/s = 20.8 GB/s per direction). Protocol overhead of socket
 * links is not published; their payload rate equals the line rate here. */
static const double upi_gt_per_s[] = {10.4e9, 16e9, 24e9};

static int eq_nocase(const char *a, const char *b) {
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
    return *a == *b;
}

void hwfit_link_init(hwfit_link_in *in) {
    if (in == NULL) return;
    memset(in, 0, sizeof *in);
    in->kind = HWFIT_LINK_PCIE;
    in->generation = 5;
    in->width = 16;
    in->port_bits_per_s = 400e9;
    in->transport = HWFIT_LINK_TRANSPORT_ROCEV2;
    in->payload_bytes = 0.0;
}

const char *hwfit_link_kind_name(hwfit_link_kind kind) {
    switch (kind) {
    case HWFIT_LINK_PCIE: return "pcie";
    case HWFIT_LINK_NVLINK: return "nvlink";
    case HWFIT_LINK_INFINIBAND: return "infiniband";
    case HWFIT_LINK_ETHERNET: return "ethernet";
    case HWFIT_LINK_XGMI: return "xgmi";
    case HWFIT_LINK_UPI: return "upi";
    }
    return "unknown";
}

/* Payload size from the input (0 = default), checked against [lo, hi]. */
static hwfit_status payload_of(const hwfit_link_in *in, double def, double lo, double hi,
                               const char *rule, double *payload, hwfit_problem *why) {
    double p = in->payload_bytes;
    if (p == 0.0) p = def;
    if (!hwfit__in_range(p, lo, hi)) return hwfit__why(why, HWFIT_EDOM, "payload_bytes", rule);
    *payload = p;
    return HWFIT_OK;
}

static const eth_speed *eth_lookup(double bits_per_s) {
    for (size_t i = 0; i < sizeof eth_speeds / sizeof eth_speeds[0]; i++)
        if (bits_per_s == eth_speeds[i].bits_per_s) return &eth_speeds[i];
    return NULL;
}

static void port_prefix(char *buf, size_t size, uint32_t width) {
    if (width > 1) snprintf(buf, size, "%ux ", (unsigned)width);
    else buf[0] = '\0';
}

#define BAD(field, rule) return hwfit__why(why, HWFIT_EDOM, (field), (rule))

/* The rates, the name left empty (name_of formats it: collective.c needs rates only, many
 * times a call, and formatting the name would cost more than the arithmetic; and the
 * printf family's stack is not on the calculations' chains, tests/stack). Every refusal is
 * reported through `why` (NULL from the calculations). */
static hwfit_status rate(const hwfit_link_in *in, hwfit_link_out *out, hwfit_problem *why) {
    hwfit_link_out r;
    memset(&r, 0, sizeof r);
    double payload = 0.0, overhead = 0.0, flit = 1.0;
    double lanes_total = 0.0; /* lanes across the whole width */
    /* Every number is checked, also those the kind ignores: garbage in an unused field is
     * a caller's bug all the same. */
    if ((unsigned)in->kind > (unsigned)HWFIT_LINK_UPI)
        return hwfit__why(why, HWFIT_EINVAL, "kind", HWFIT__ENUM);
    if (!hwfit__in_range(in->port_bits_per_s, 0.0, DBL_MAX))
        BAD("port_bits_per_s", "must be a finite number of bits/s, >= 0");
    if (!hwfit__in_range(in->payload_bytes, 0.0, DBL_MAX))
        BAD("payload_bytes", "must be 0 (the kind's default) or a finite number of bytes");
    switch (in->kind) {
    case HWFIT_LINK_PCIE: {
        uint32_t w = in->width;
        if (in->generation < 1 || in->generation > 6) BAD("generation", "must be 1-6 for PCIe");
        if (w != 1 && w != 2 && w != 4 && w != 8 && w != 16)
            BAD("width", "must be 1, 2, 4, 8 or 16 lanes for PCIe");
        const pcie_gen *g = &pcie_gens[in->generation - 1];
        hwfit_status st = payload_of(in, 256.0, 128.0, 4096.0,
                                     "must be 0 (default) or a PCIe max payload of 128-4096 B",
                                     &payload, why);
        if (st != HWFIT_OK) return st;
        r.lanes = w;
        r.lane_raw_bits_per_s = g->gt_per_s;
        r.encoding_efficiency = g->encoding;
        overhead = g->tlp_bytes;
        flit = g->flit_share;
        lanes_total = (double)w;
        break;
    }
    case HWFIT_LINK_NVLINK: {
        if (in->generation < 1 || in->generation > 5) BAD("generation", "must be 1-5 for NVLink");
        if (in->width < 1 || in->width > 18) BAD("width", "must be 1-18 links for NVLink");
        const nvlink_gen *g = &nvlink_gens[in->generation - 1];
        hwfit_status st = payload_of(in, 128.0, 32.0, 256.0,
                                     "must be 0 (default) or an NVLink write of 32-256 B",
                                     &payload, why);
        if (st != HWFIT_OK) return st;
        r.lanes = g->lanes;
        r.lane_raw_bits_per_s = g->lane_bits_per_s;
        r.encoding_efficiency = 1.0;
        overhead = NVLINK_OVERHEAD_BYTES;
        lanes_total = (double)g->lanes * in->width;
        break;
    }
    case HWFIT_LINK_INFINIBAND: {
        if (in->generation < HWFIT_LINK_IB_EDR || in->generation > HWFIT_LINK_IB_XDR)
            BAD("generation", "must be an InfiniBand speed: 1 (EDR) to 4 (XDR)");
        if (in->width < 1 || in->width > 64) BAD("width", "must be 1-64 ports");
        const ib_speed *s = &ib_speeds[in->generation - HWFIT_LINK_IB_EDR];
        hwfit_status st = payload_of(in, 4096.0, 256.0, 4096.0,
                                     "must be 0 (default) or a path MTU of 256-4096 B",
                                     &payload, why);
        if (st != HWFIT_OK) return st;
        r.lanes = 4;
        r.lane_raw_bits_per_s = s->lane_bits_per_s;
        r.encoding_efficiency = s->encoding;
        overhead = IB_OVERHEAD_BYTES;
        lanes_total = 4.0 * in->width;
        break;
    }
    case HWFIT_LINK_ETHERNET: {
        if ((unsigned)in->transport > (unsigned)HWFIT_LINK_TRANSPORT_TCP)
            return hwfit__why(why, HWFIT_EINVAL, "transport", HWFIT__ENUM);
        const eth_speed *s = eth_lookup(in->port_bits_per_s);
        if (s == NULL)
            BAD("port_bits_per_s", "must be an Ethernet speed: 10, 25, 40, 50, 100, 200, 400 "
                                   "or 800 Gb/s");
        if (in->width < 1 || in->width > 64) BAD("width", "must be 1-64 ports");
        hwfit_status st;
        if (in->transport == HWFIT_LINK_TRANSPORT_ROCEV2) {
            st = payload_of(in, 4096.0, 256.0, 4096.0,
                            "must be 0 (default) or a RoCE path MTU of 256-4096 B", &payload,
                            why);
            overhead = ROCE_OVERHEAD_BYTES;
        } else {
            double mtu = 0.0;
            st = payload_of(in, 1500.0, 576.0, 9216.0,
                            "must be 0 (default) or an Ethernet MTU of 576-9216 B", &mtu, why);
            payload = mtu - TCP_IP_HEADER_BYTES;
            overhead = TCP_IP_HEADER_BYTES + ETH_FRAMING_BYTES;
        }
        if (st != HWFIT_OK) return st;
        r.lanes = s->lanes;
        r.lane_raw_bits_per_s = s->lane_bits_per_s;
        r.encoding_efficiency = s->bits_per_s / (s->lanes * s->lane_bits_per_s);
        lanes_total = (double)s->lanes * in->width;
        break;
    }
    case HWFIT_LINK_XGMI: {
        if (in->generation != 3) BAD("generation", "must be 3 for xGMI");
        if (in->width < 1 || in->width > 8) BAD("width", "must be 1-8 links");
        r.lanes = 16;
        r.lane_raw_bits_per_s = 32e9;
        r.encoding_efficiency = 1.0;
        lanes_total = 16.0 * in->width;
        break;
    }
    case HWFIT_LINK_UPI: {
        if (in->generation < 1 || in->generation > 3) BAD("generation", "must be 1-3 for UPI");
        if (in->width < 1 || in->width > 8) BAD("width", "must be 1-8 links");
        r.lanes = 20;
        r.lane_raw_bits_per_s = upi_gt_per_s[in->generation - 1];
        r.encoding_efficiency = 16.0 / 20.0; /* 2 bytes per transfer on 20 lanes */
        lanes_total = 20.0 * in->width;
        break;
    }
    }
    r.line_bytes_per_s =
        lanes_total * r.lane_raw_bits_per_s * r.encoding_efficiency / HWFIT_BITS_PER_BYTE;
    r.line_bytes_per_s_bidir = 2.0 * r.line_bytes_per_s;
    if (in->kind == HWFIT_LINK_XGMI || in->kind == HWFIT_LINK_UPI) {
        r.payload_bytes = 0.0;
        r.overhead_bytes = 0.0;
        r.protocol_efficiency = 1.0;
    } else {
        r.payload_bytes = payload;
        r.overhead_bytes = overhead;
        r.protocol_efficiency = flit * payload / (payload + overhead);
    }
    r.payload_bytes_per_s = r.line_bytes_per_s * r.protocol_efficiency;
    r.payload_bytes_per_s_bidir = 2.0 * r.payload_bytes_per_s;
    *out = r;
    return HWFIT_OK;
}

/* The name of a link that rate accepted, in out->name (as rate formatted it before: the
 * same text). Its own frame, out of the calculations' (hwfit__link_rate's) call graph. */
HWFIT__NOINLINE
static void name_of(const hwfit_link_in *in, hwfit_link_out *out) {
    char prefix[16];
    switch (in->kind) {
    case HWFIT_LINK_PCIE:
        snprintf(out->name, sizeof out->name, "PCIe %s x%u",
                 pcie_gens[in->generation - 1].version, (unsigned)in->width);
        break;
    case HWFIT_LINK_NVLINK:
        snprintf(out->name, sizeof out->name, "NVLink %u x%u", (unsigned)in->generation,
                 (unsigned)in->width);
        break;
    case HWFIT_LINK_INFINIBAND:
        port_prefix(prefix, sizeof prefix, in->width);
        snprintf(out->name, sizeof out->name, "%sInfiniBand %s 4x", prefix,
                 ib_speeds[in->generation - HWFIT_LINK_IB_EDR].name);
        break;
    case HWFIT_LINK_ETHERNET: {
        const eth_speed *s = eth_lookup(in->port_bits_per_s);
        port_prefix(prefix, sizeof prefix, in->width);
        snprintf(out->name, sizeof out->name, "%s%.0fGbE %s", prefix, s->bits_per_s / 1e9,
                 in->transport == HWFIT_LINK_TRANSPORT_ROCEV2 ? "RoCEv2" : "TCP");
        break;
    }
    case HWFIT_LINK_XGMI:
        snprintf(out->name, sizeof out->name, "xGMI %u x%u", (unsigned)in->generation,
                 (unsigned)in->width);
        break;
    case HWFIT_LINK_UPI:
        snprintf(out->name, sizeof out->name, "UPI %u x%u", (unsigned)in->generation,
                 (unsigned)in->width);
        break;
    }
}

hwfit_status hwfit_link_rate(const hwfit_link_in *in, hwfit_link_out *out) {
    if (in == NULL || out == NULL) return HWFIT_EINVAL;
    hwfit_status st = rate(in, out, NULL);
    if (st == HWFIT_OK) name_of(in, out);
    return st;
}

hwfit_status hwfit__link_rate(const hwfit_link_in *in, hwfit_link_out *out) {
    return rate(in, out, NULL);
}

hwfit_status hwfit_link_validate(const hwfit_link_in *in, hwfit_problem *problem) {
    hwfit_problem_clear(problem);
    if (in == NULL) return hwfit__why(problem, HWFIT_EINVAL, "in", HWFIT__NULL);
    hwfit_link_out scratch; /* the checks only: no name (name_of) */
    return rate(in, &scratch, problem);
}

/* ---- parsing ------------------------------------------------------------------------- */

/* Read decimal digits at *s into *v (at most 9 digits); advance *s. 0 if none. */
static int read_uint(const char **s, uint32_t *v) {
    const char *p = *s;
    uint32_t n = 0;
    int digits = 0;
    while (*p >= '0' && *p <= '9') {
        if (digits == 9) return 0;
        n = n * 10u + (uint32_t)(*p - '0');
        p++;
        digits++;
    }
    if (digits == 0) return 0;
    *s = p;
    *v = n;
    return 1;
}

static int starts_nocase(const char *s, const char *prefix) {
    for (; *prefix; s++, prefix++)
        if (tolower((unsigned char)*s) != *prefix) return 0;
    return 1;
}

/* "<gen>[x<width>]" after a prefix; width optional when def_width > 0. */
static int gen_width(const char *s, uint32_t def_width, uint32_t *gen, uint32_t *width) {
    if (!read_uint(&s, gen)) return 0;
    *width = def_width;
    if (*s == 'x' || *s == 'X') {
        s++;
        if (!read_uint(&s, width)) return 0;
    } else if (def_width == 0) {
        return 0;
    }
    return *s == '\0';
}

hwfit_status hwfit_link_parse(const char *text, hwfit_link_in *in) {
    if (text == NULL || in == NULL) return HWFIT_EINVAL;
    hwfit_link_in l;
    hwfit_link_init(&l);
    uint32_t gen = 0, width = 0;
    const char *s = text;
    if (starts_nocase(s, "pcie")) {
        if (!gen_width(s + 4, 0, &gen, &width)) return HWFIT_EPARSE;
        l.kind = HWFIT_LINK_PCIE;
    } else if (starts_nocase(s, "nvlink")) {
        if (!gen_width(s + 6, 1, &gen, &width)) return HWFIT_EPARSE;
        l.kind = HWFIT_LINK_NVLINK;
    } else if (starts_nocase(s, "xgmi")) {
        if (!gen_width(s + 4, 1, &gen, &width)) return HWFIT_EPARSE;
        l.kind = HWFIT_LINK_XGMI;
    } else if (starts_nocase(s, "upi")) {
        if (!gen_width(s + 3, 1, &gen, &width)) return HWFIT_EPARSE;
        l.kind = HWFIT_LINK_UPI;
    } else if (starts_nocase(s, "ib-")) {
        static const char *const names[] = {"edr", "hdr", "ndr", "xdr"};
        gen = 0;
        for (uint32_t i = 0; i < 4; i++)
            if (eq_nocase(s + 3, names[i])) gen = HWFIT_LINK_IB_EDR + i;
        if (gen == 0) return HWFIT_EPARSE;
        l.kind = HWFIT_LINK_INFINIBAND;
        width = 1;
    } else {
        /* [<n>x]<speed>g-<roce|tcp|ib> */
        uint32_t first = 0, speed = 0;
        width = 1;
        if (!read_uint(&s, &first)) return HWFIT_EPARSE;
        if (*s == 'x' || *s == 'X') {
            width = first;
            s++;
            if (!read_uint(&s, &speed)) return HWFIT_EPARSE;
        } else {
            speed = first;
        }
        if (!starts_nocase(s, "g-")) return HWFIT_EPARSE;
        s += 2;
        double bits = (double)speed * 1e9;
        if (eq_nocase(s, "roce") || eq_nocase(s, "tcp")) {
            l.kind = HWFIT_LINK_ETHERNET;
            l.transport = eq_nocase(s, "tcp") ? HWFIT_LINK_TRANSPORT_TCP
                                              : HWFIT_LINK_TRANSPORT_ROCEV2;
            l.port_bits_per_s = bits;
            gen = 0;
        } else if (eq_nocase(s, "ib")) {
            l.kind = HWFIT_LINK_INFINIBAND;
            switch (speed) {
            case 100: gen = HWFIT_LINK_IB_EDR; break;
            case 200: gen = HWFIT_LINK_IB_HDR; break;
            case 400: gen = HWFIT_LINK_IB_NDR; break;
            case 800: gen = HWFIT_LINK_IB_XDR; break;
            default: return HWFIT_EDOM;
            }
        } else {
            return HWFIT_EPARSE;
        }
    }
    l.generation = gen;
    l.width = width;
    hwfit_link_out check;
    hwfit_status st = hwfit_link_rate(&l, &check);
    if (st != HWFIT_OK) return st;
    *in = l;
    return HWFIT_OK;
}

/* GPU catalog: reference values from datasheets, internal consistency, lookups. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "hwfit.h"

/* Datasheet figures are typed in as printed, so they must match to rounding only. */
#define ASSERT_REL(got, want, tol) \
    cr_assert(fabs((got) - (want)) <= (tol) * fabs(want), "got %.17g want %.17g", (double)(got), (double)(want))

static const hwfit_gpu *get(const char *name) {
    const hwfit_gpu *g = NULL;
    hwfit_status st = hwfit_gpu_find(name, &g);
    cr_assert_eq(st, HWFIT_OK, "%s: %s", name, hwfit_status_name(st));
    cr_assert_not_null(g);
    return g;
}

Test(gpu, has_every_card_the_issue_lists) {
    static const char *const names[] = {
        "rtx-pro-6000-server", "rtx-pro-6000-workstation", "rtx-pro-6000-maxq",
        "rtx-6000-ada", "l40s", "a100-sxm-80gb", "a100-pcie-80gb", "h100-sxm", "h100-pcie",
        "h100-nvl", "h200-sxm", "h200-nvl", "b200", "gb200", "b300", "mi300x", "mi325x",
        "rtx-4090", "rtx-5090"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        cr_assert_str_eq(get(names[i])->name, names[i]);
    cr_assert_geq(hwfit_gpu_count(), sizeof names / sizeof names[0]);
}

/* NVIDIA T4 datasheet: 16 GB GDDR6, 320 GB/s, 70 W, FP32 8.1 TFLOPS, FP16 65 TFLOPS mixed
 * precision, INT8 130 TOPS, PCIe Gen3 x16; Turing has no BF16, TF32 or FP8 tensor path. */
Test(gpu, t4_follows_the_nvidia_datasheet) {
    const hwfit_gpu *g = get("t4");
    cr_assert_eq(g->memory_bytes, 16ull << 30);
    cr_assert_float_eq(g->memory_bandwidth_bytes_per_s, 320e9, 1.0);
    cr_assert_float_eq(g->tdp_w, 70.0, 1e-9);
    cr_assert_float_eq(g->fp32_flop_per_s, 8.1e12, 1e3);
    cr_assert_float_eq(g->fp16_bf16_flop_per_s, 65e12, 1e3);
    cr_assert_float_eq(g->int8_op_per_s, 130e12, 1e3);
    cr_assert_eq(g->tf32_flop_per_s, 0.0);
    cr_assert_eq(g->fp8_flop_per_s, 0.0);
    cr_assert_eq(g->pcie_gen, 3);
    cr_assert_eq(g->compute_capability, 75);
}

Test(gpu, rtx_pro_6000_editions_follow_nvidia_datasheets) {
    const hwfit_gpu *server = get("rtx-pro-6000-server");
    const hwfit_gpu *ws = get("rtx-pro-6000-workstation");
    const hwfit_gpu *maxq = get("rtx-pro-6000-maxq");
    /* NVIDIA Server Edition page: 1,597 GB/s, up to 600 W; Workstation datasheet:
     * 1,792 GB/s, 600 W; Max-Q: 1,792 GB/s, 300 W. All 96 GB GDDR7, PCIe Gen5 x16. */
    cr_assert_eq(server->memory_bandwidth_bytes_per_s, 1597e9);
    cr_assert_eq(ws->memory_bandwidth_bytes_per_s, 1792e9);
    cr_assert_eq(maxq->memory_bandwidth_bytes_per_s, 1792e9);
    cr_assert_eq(server->tdp_w, 600.0);
    cr_assert_eq(ws->tdp_w, 600.0);
    cr_assert_eq(maxq->tdp_w, 300.0);
    cr_assert_eq(server->memory_bytes, 96ull << 30);
    cr_assert_eq(ws->memory_bytes, server->memory_bytes);
    cr_assert_eq(maxq->memory_bytes, server->memory_bytes);
    /* Server page: TF32 Tensor 234 TFLOPS (dense), FP4 "4 PFLOPS" sparse ~ 8 x 234 x 2. */
    cr_assert_eq(server->tf32_flop_per_s, 234e12);
    ASSERT_REL(server->fp4_flop_per_s * server->sparse_speedup, 4e15, 0.07);
    /* Workstation: 4,000 AI TOPS (FP4 sparse), 125 TFLOPS FP32. Max-Q: 3,511, 110. */
    ASSERT_REL(ws->fp4_flop_per_s * ws->sparse_speedup, 4000e12, 1e-12);
    ASSERT_REL(maxq->fp4_flop_per_s * maxq->sparse_speedup, 3511e12, 1e-12);
    cr_assert_eq(ws->fp32_flop_per_s, 125e12);
    cr_assert_eq(maxq->fp32_flop_per_s, 110e12);
    for (int i = 0; i < 3; i++) {
        const hwfit_gpu *g = i == 0 ? server : i == 1 ? ws : maxq;
        cr_assert_eq(g->pcie_gen, 5);
        cr_assert_eq(g->pcie_lanes, 16);
        cr_assert_eq(g->peer_link, HWFIT_GPU_PEER_NONE);
        cr_assert(g->p2p_pcie);
        cr_assert(strstr(g->edition, "RTX PRO 6000 Blackwell") != NULL);
    }
    /* The Server row must say which bandwidth it chose and why. */
    cr_assert(strstr(server->notes, "1,597") && strstr(server->notes, "1,792"));
}

Test(gpu, data_center_reference_values) {
    /* NVIDIA H100 datasheet: BF16 1,979 and FP8 3,958 TFLOPS with sparsity, 3.35 TB/s. */
    const hwfit_gpu *h = get("h100-sxm");
    ASSERT_REL(h->fp16_bf16_flop_per_s * h->sparse_speedup, 1979e12, 1e-3);
    ASSERT_REL(h->fp8_flop_per_s * h->sparse_speedup, 3958e12, 1e-3);
    cr_assert_eq(h->memory_bandwidth_bytes_per_s, 3.35e12);
    cr_assert_eq(h->peer_bytes_per_s_bidir, 900e9);
    cr_assert_eq(h->memory_bytes, 80ull << 30);
    /* A100 datasheet: BF16 312 dense, no FP8 tensor cores, NVLink 600 GB/s. */
    const hwfit_gpu *a = get("a100-sxm-80gb");
    cr_assert_eq(a->fp16_bf16_flop_per_s, 312e12);
    cr_assert_eq(a->fp8_flop_per_s, 0.0);
    cr_assert_eq(a->fp4_flop_per_s, 0.0);
    cr_assert_eq(a->peer_bytes_per_s_bidir, 600e9);
    /* HGX B200: FP4 18 PFLOPS sparse; GB200 NVL72: 20 PFLOPS sparse, 186 GB. */
    ASSERT_REL(get("b200")->fp4_flop_per_s * 2, 18e15, 1e-12);
    ASSERT_REL(get("gb200")->fp4_flop_per_s * 2, 20e15, 1e-12);
    cr_assert_eq(get("gb200")->memory_bytes, 186ull << 30);
    /* AMD MI300X data sheet: 192 GB, 5.3 TB/s, 1,307.4 TFLOPS FP16 dense, 750 W. */
    const hwfit_gpu *m = get("mi300x");
    cr_assert_eq(m->memory_bytes, 192ull << 30);
    cr_assert_eq(m->fp16_bf16_flop_per_s, 1307.4e12);
    cr_assert_eq(m->tdp_w, 750.0);
    cr_assert_eq(m->vendor, HWFIT_GPU_VENDOR_AMD);
    /* GeForce cards have no P2P with the stock driver (tinygrad/open-gpu-kernel-modules). */
    cr_assert_not(get("rtx-4090")->p2p_pcie);
    cr_assert_not(get("rtx-5090")->p2p_pcie);
}

Test(gpu, every_row_is_complete_and_consistent) {
    for (size_t i = 0; i < hwfit_gpu_count(); i++) {
        const hwfit_gpu *g = hwfit_gpu_at(i);
        cr_assert_not_null(g);
        for (const char *p = g->name; *p; p++)
            cr_assert(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '-',
                      "%s: name not lowercase-with-dashes", g->name);
        cr_assert(g->edition && *g->edition, "%s", g->name);
        cr_assert(g->architecture && *g->architecture, "%s", g->name);
        cr_assert(g->source && strlen(g->source) > 20, "%s: no source", g->name);
        cr_assert(g->notes && *g->notes, "%s", g->name);
        /* From the RTX 3080 (10 GB, 760 GB/s), the L4 (300 GB/s) and the T4 (70 W) up. */
        cr_assert_geq(g->memory_bytes, 10ull << 30, "%s", g->name);
        cr_assert(g->memory_bandwidth_bytes_per_s >= 300e9, "%s", g->name);
        cr_assert(g->tdp_w >= 70 && g->tdp_w <= 1500, "%s", g->name);
        cr_assert_eq(hwfit_gpu_validate(g, NULL), HWFIT_OK, "%s", g->name);
        /* Tensor cores beat the vector units, and narrower formats are never slower. */
        /* (Volta and CDNA 2 have no TF32 path: 0.) */
        cr_assert(g->tf32_flop_per_s == 0 || g->tf32_flop_per_s >= g->fp32_flop_per_s, "%s",
                  g->name);
        cr_assert(g->fp16_bf16_flop_per_s >= g->tf32_flop_per_s, "%s", g->name);
        cr_assert(g->fp8_flop_per_s == 0 || g->fp8_flop_per_s >= g->fp16_bf16_flop_per_s,
                  "%s", g->name);
        cr_assert(g->fp4_flop_per_s == 0 || g->fp4_flop_per_s >= g->fp8_flop_per_s, "%s",
                  g->name);
        cr_assert(g->fp64_flop_per_s > 0 && g->fp64_flop_per_s <= g->fp32_flop_per_s,
                  "%s", g->name);
        cr_assert(g->sparse_speedup == (g->sparsity ? 2.0 : 1.0), "%s", g->name);
        /* Peer links: none means no rate; otherwise bidir is twice the per-direction sum. */
        if (g->peer_link == HWFIT_GPU_PEER_NONE) {
            cr_assert_eq(g->peer_topology, HWFIT_GPU_PEER_TOPOLOGY_NONE, "%s", g->name);
            cr_assert_eq(g->peer_bytes_per_s, 0.0, "%s", g->name);
            cr_assert_eq(g->peer_links, 0, "%s", g->name);
        } else {
            cr_assert_eq(g->peer_bytes_per_s_bidir, 2.0 * g->peer_bytes_per_s, "%s", g->name);
            cr_assert_geq(g->peer_domain_gpus, 2, "%s", g->name);
            /* The catalog's peer rate is the link module's line rate for that many links. */
            hwfit_link_in l;
            hwfit_link_out o;
            hwfit_link_init(&l);
            l.kind = g->peer_link == HWFIT_GPU_PEER_NVLINK ? HWFIT_LINK_NVLINK : HWFIT_LINK_XGMI;
            l.generation = g->peer_link == HWFIT_GPU_PEER_NVLINK ? g->peer_generation : 3;
            l.width = g->peer_links;
            cr_assert_eq(hwfit_link_rate(&l, &o), HWFIT_OK, "%s", g->name);
            /* Two kinds of link run below their generation's rate: GA102's NVLink 3 bridge
             * (14.0625 GB/s per link and direction, 112.5 GB/s for 4 links both ways) and
             * CDNA 2's Infinity Fabric (16 lanes at 25 Gb/s: 50 GB/s). */
            if (g->compute_capability == 86)
                ASSERT_REL(g->peer_bytes_per_s, g->peer_links * 14.0625e9, 1e-12);
            else if (strcmp(g->name, "mi250x") == 0)
                ASSERT_REL(g->peer_bytes_per_s, g->peer_links * 50e9, 1e-12);
            else
                ASSERT_REL(o.line_bytes_per_s, g->peer_bytes_per_s, 1e-12);
        }
        cr_assert(!g->nvls || g->peer_topology == HWFIT_GPU_PEER_TOPOLOGY_SWITCH, "%s",
                  g->name);
        /* The host link is a real PCIe link, or none at all (GB200 uses NVLink-C2C). */
        if (g->pcie_gen == 0) {
            cr_assert_eq(g->pcie_lanes, 0, "%s", g->name);
            cr_assert_eq(g->form_factor, HWFIT_GPU_FORM_SUPERCHIP, "%s", g->name);
        } else {
            hwfit_link_in l;
            hwfit_link_out o;
            hwfit_link_init(&l);
            l.generation = g->pcie_gen;
            l.width = g->pcie_lanes;
            cr_assert_eq(hwfit_link_rate(&l, &o), HWFIT_OK, "%s", g->name);
        }
        /* Names are unique: find() returns this very row. */
        const hwfit_gpu *again = NULL;
        cr_assert_eq(hwfit_gpu_find(g->name, &again), HWFIT_OK);
        cr_assert_eq(again, g, "%s is not unique", g->name);
    }
}

Test(gpu, lookup_errors_leave_the_output_alone) {
    const hwfit_gpu *sentinel = (const hwfit_gpu *)&sentinel;
    const hwfit_gpu *g = sentinel;
    cr_assert_eq(hwfit_gpu_find("h100", &g), HWFIT_ENOTFOUND);
    cr_assert_eq(hwfit_gpu_find("H100-SXM", &g), HWFIT_ENOTFOUND); /* names are lowercase */
    cr_assert_eq(hwfit_gpu_find("", &g), HWFIT_ENOTFOUND);
    cr_assert_eq(hwfit_gpu_find(NULL, &g), HWFIT_EINVAL);
    cr_assert_eq(g, sentinel);
    cr_assert_eq(hwfit_gpu_find("h100-sxm", NULL), HWFIT_EINVAL);
    cr_assert_null(hwfit_gpu_at(hwfit_gpu_count()));
    cr_assert_null(hwfit_gpu_at((size_t)-1));
}

Test(gpu, enum_names) {
    cr_assert_str_eq(hwfit_gpu_vendor_name(HWFIT_GPU_VENDOR_AMD), "amd");
    cr_assert_str_eq(hwfit_gpu_vendor_name((hwfit_gpu_vendor)9), "unknown");
    cr_assert_str_eq(hwfit_gpu_form_factor_name(HWFIT_GPU_FORM_SXM), "sxm");
    cr_assert_str_eq(hwfit_gpu_form_factor_name((hwfit_gpu_form_factor)9), "unknown");
    cr_assert_str_eq(hwfit_gpu_peer_link_name(HWFIT_GPU_PEER_XGMI), "xgmi");
    cr_assert_str_eq(hwfit_gpu_peer_link_name((hwfit_gpu_peer_link)9), "unknown");
    cr_assert_str_eq(hwfit_gpu_peer_topology_name(HWFIT_GPU_PEER_TOPOLOGY_BRIDGE), "bridge");
    cr_assert_str_eq(hwfit_gpu_peer_topology_name((hwfit_gpu_peer_topology)9), "unknown");
}

/* ---- the cards added for "the users' front door" -------------------------------------- */

typedef struct sheet {
    const char *name;
    double gib;       /* memory, marketed GB read as GiB */
    double gbps;      /* memory bandwidth, GB/s */
    double watts;     /* board power */
    double bf16;      /* dense FP16/BF16 with FP32 accumulate, TFLOPS */
    double fp8;       /* dense FP8, TFLOPS (0: none) */
    double printed;   /* one figure as the datasheet prints it (sparse where it is) */
    double printed_rate; /* the row's rate that figure checks, times sparsity if printed so */
} sheet;

Test(gpu, added_cards_follow_their_datasheets) {
    /* Memory, bandwidth, power and FP16/BF16 as printed (dense, or sparse / 2). */
    static const sheet rows[] = {
        {"l4", 24, 300, 72, 121, 242.5, 485, 0},             /* FP8 485 sparse */
        {"l40", 48, 864, 300, 181, 362, 724, 0},             /* FP8 724 sparse */
        {"a10", 24, 600, 150, 125, 0, 250, 0},               /* BF16 250 sparse */
        {"a10g", 24, 600, 300, 70, 0, 0, 0},
        {"a40", 48, 696, 300, 149.7, 0, 299.4, 0},           /* BF16 299.4 sparse */
        {"rtx-a6000", 48, 768, 300, 154.8, 0, 309.7, 0},     /* Tensor 309.7 sparse */
        {"rtx-3090", 24, 936, 350, 71, 0, 142, 0},           /* FP32 acc 142 sparse */
        {"rtx-3080", 10, 760, 320, 59.5, 0, 119, 0},         /* FP32 acc 119 sparse */
        {"rtx-2080-ti", 11, 616, 250, 53.8, 0, 53.8, 0},     /* FP32 acc 53.8, no sparsity */
        {"v100-sxm-32gb", 32, 900, 300, 125, 0, 125, 0},     /* Tensor 125, no sparsity */
        {"v100-pcie-32gb", 32, 900, 250, 112, 0, 112, 0},    /* Tensor 112 */
        {"a100-sxm-40gb", 40, 1555, 400, 312, 0, 624, 0},    /* BF16 624 sparse */
        {"a100-pcie-40gb", 40, 1555, 250, 312, 0, 624, 0},
        {"a800-sxm-80gb", 80, 2039, 400, 312, 0, 624, 0},
        {"h800-sxm", 80, 3350, 700, 989.5, 1979, 3958, 0},   /* FP8 3,958 sparse */
        {"h20", 96, 4000, 400, 148, 296, 296, 0},            /* FP8 296 dense */
        {"mi250x", 128, 3276.8, 560, 383, 0, 383, 0},        /* FP16 383, no sparsity */
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const sheet *w = &rows[i];
        const hwfit_gpu *g = get(w->name);
        cr_assert_eq(g->memory_bytes, (uint64_t)w->gib << 30, "%s", w->name);
        ASSERT_REL(g->memory_bandwidth_bytes_per_s, w->gbps * 1e9, 1e-12);
        cr_assert_eq(g->tdp_w, w->watts, "%s", w->name);
        ASSERT_REL(g->fp16_bf16_flop_per_s, w->bf16 * 1e12, 1e-12);
        ASSERT_REL(g->fp8_flop_per_s, w->fp8 * 1e12, 1e-12);
        cr_assert_eq(hwfit_gpu_validate(g, NULL), HWFIT_OK, "%s", w->name);
    }
    /* One printed figure per card, through the sparsity factor where it is sparse. */
    ASSERT_REL(get("l4")->fp8_flop_per_s * get("l4")->sparse_speedup, 485e12, 1e-12);
    ASSERT_REL(get("l40")->int8_op_per_s * 2, 724e12, 1e-12);
    ASSERT_REL(get("a10")->tf32_flop_per_s, 62.5e12, 1e-12);
    ASSERT_REL(get("a10g")->fp32_flop_per_s, 35e12, 1e-12);
    ASSERT_REL(get("a40")->int8_op_per_s, 299.3e12, 1e-12);
    ASSERT_REL(get("rtx-a6000")->fp16_bf16_flop_per_s * 2, 309.6e12, 1e-3);
    ASSERT_REL(get("rtx-3090")->int8_op_per_s, 284e12, 1e-12);
    ASSERT_REL(get("rtx-3080")->fp32_flop_per_s, 29.8e12, 1e-12);
    ASSERT_REL(get("v100-sxm-32gb")->fp64_flop_per_s, 7.8e12, 1e-12);
    ASSERT_REL(get("v100-pcie-32gb")->fp32_flop_per_s, 14e12, 1e-12);
    ASSERT_REL(get("a100-sxm-40gb")->tf32_flop_per_s * 2, 312e12, 1e-12);
    ASSERT_REL(get("a800-sxm-80gb")->peer_bytes_per_s_bidir, 400e9, 1e-12);
    ASSERT_REL(get("h800-sxm")->peer_bytes_per_s_bidir, 400e9, 1e-12);
    ASSERT_REL(get("h800-sxm")->fp64_flop_per_s, 1e12, 1e-12);
    ASSERT_REL(get("h20")->int8_op_per_s, 296e12, 1e-12);
    ASSERT_REL(get("mi250x")->fp64_tensor_flop_per_s, 95.7e12, 1e-12);
    ASSERT_REL(get("mi250x")->peer_bytes_per_s_bidir, 800e9, 1e-12);
    /* The export editions keep their parents' compute and memory. */
    cr_assert_eq(get("a800-sxm-80gb")->fp16_bf16_flop_per_s, get("a100-sxm-80gb")->fp16_bf16_flop_per_s);
    cr_assert_eq(get("a800-sxm-80gb")->memory_bandwidth_bytes_per_s,
                 get("a100-sxm-80gb")->memory_bandwidth_bytes_per_s);
    cr_assert_eq(get("h800-sxm")->fp8_flop_per_s, get("h100-sxm")->fp8_flop_per_s);
    cr_assert_eq(get("h800-sxm")->memory_bytes, get("h100-sxm")->memory_bytes);
    cr_assert_lt(get("h800-sxm")->peer_bytes_per_s, get("h100-sxm")->peer_bytes_per_s);
    /* Cards without sparsity or without some formats say so with 1 and 0. */
    cr_assert_eq(get("v100-sxm-32gb")->sparsity, 0);
    cr_assert_eq(get("v100-sxm-32gb")->sparse_speedup, 1.0);
    cr_assert_eq(get("mi250x")->sparsity, 0);
    cr_assert_eq(get("mi250x")->tf32_flop_per_s, 0.0);
    cr_assert_eq(get("a10")->fp8_flop_per_s, 0.0);
    /* GeForce: no P2P over PCIe with the stock driver. */
    cr_assert_eq(get("rtx-3090")->p2p_pcie, 0);
    cr_assert_eq(get("rtx-3080")->p2p_pcie, 0);
    cr_assert_eq(get("rtx-2080-ti")->p2p_pcie, 0);
    ASSERT_REL(get("rtx-2080-ti")->fp16_acc16_flop_per_s, 107.6e12, 1e-12);
    ASSERT_REL(get("rtx-2080-ti")->peer_bytes_per_s_bidir, 100e9, 1e-12);
    cr_assert_eq(get("rtx-2080-ti")->tf32_flop_per_s, 0.0);
}

Test(gpu, sparse_and_narrow_formats_are_consistent) {
    for (size_t i = 0; i < hwfit_gpu_count(); i++) {
        const hwfit_gpu *g = hwfit_gpu_at(i);
        /* Sparse = 2 x dense where sparsity is set; 1 x otherwise. */
        if (g->sparsity) cr_assert_eq(g->sparse_speedup, 2.0, "%s", g->name);
        else cr_assert_eq(g->sparse_speedup, 1.0, "%s", g->name);
        if (g->fp8_flop_per_s > 0)
            cr_assert_geq(g->fp8_flop_per_s, g->fp16_bf16_flop_per_s, "%s", g->name);
    }
}

Test(gpu, validate_refuses_broken_rows) {
    hwfit_gpu g = *get("h100-sxm");
    hwfit_problem p;
    cr_assert_eq(hwfit_gpu_validate(&g, &p), HWFIT_OK);
    cr_assert_eq(hwfit_gpu_validate(NULL, &p), HWFIT_EINVAL);
    g.tdp_w = 0;
    cr_assert_eq(hwfit_gpu_validate(&g, &p), HWFIT_EDOM);
    cr_assert_str_eq(p.field, "tdp_w");
    g = *get("h100-sxm");
    g.peer_bytes_per_s_bidir = g.peer_bytes_per_s;
    cr_assert_eq(hwfit_gpu_validate(&g, &p), HWFIT_EDOM);
    cr_assert_str_eq(p.field, "peer_bytes_per_s_bidir");
    g = *get("h100-sxm");
    g.name = "H100";
    cr_assert_eq(hwfit_gpu_validate(&g, &p), HWFIT_EDOM);
    cr_assert_str_eq(p.field, "name");
    g = *get("l4");
    g.nvls = 1;
    cr_assert_eq(hwfit_gpu_validate(&g, &p), HWFIT_EDOM);
    cr_assert_str_eq(p.field, "nvls");
    g = *get("l4");
    g.sparsity = 0;
    cr_assert_eq(hwfit_gpu_validate(&g, &p), HWFIT_EDOM);
    cr_assert_str_eq(p.field, "sparse_speedup");
    g = *get("l4");
    g.vendor = (hwfit_gpu_vendor)7;
    cr_assert_eq(hwfit_gpu_validate(&g, &p), HWFIT_EINVAL);
    g = *get("l4");
    g.fp32_flop_per_s = 1.0 / 0.0;
    cr_assert_eq(hwfit_gpu_validate(&g, &p), HWFIT_EDOM);
    cr_assert_str_eq(p.field, "fp32_flop_per_s");
}

Test(gpu, a_set_is_looked_up_after_the_catalog) {
    hwfit_gpu_set *set = NULL;
    cr_assert_eq(hwfit_gpu_set_new(&set), HWFIT_OK);
    hwfit_gpu mine = *get("l4");
    char name[16] = "my-l4";
    mine.name = name;
    hwfit_problem p;
    cr_assert_eq(hwfit_gpu_set_add(set, &mine, &p), HWFIT_OK, "%s %s", p.field, p.rule);
    name[0] = 'X'; /* the set keeps its own copy */
    const hwfit_gpu *g = NULL;
    cr_assert_eq(hwfit_gpu_lookup(set, "my-l4", &g), HWFIT_OK);
    cr_assert_str_eq(g->name, "my-l4");
    cr_assert_eq(g, hwfit_gpu_set_at(set, 0));
    cr_assert_eq(hwfit_gpu_lookup(set, "h100-sxm", &g), HWFIT_OK);
    cr_assert_eq(g, get("h100-sxm"));
    cr_assert_eq(hwfit_gpu_lookup(NULL, "my-l4", &g), HWFIT_ENOTFOUND);
    /* A built-in name or a name taken twice is refused. */
    mine = *get("l4");
    cr_assert_eq(hwfit_gpu_set_add(set, &mine, &p), HWFIT_EDOM);
    cr_assert_str_eq(p.field, "name");
    mine.name = "my-l4";
    cr_assert_eq(hwfit_gpu_set_add(set, &mine, &p), HWFIT_EDOM);
    cr_assert_eq(hwfit_gpu_set_count(set), 1);
    cr_assert_null(hwfit_gpu_set_at(set, 1));
    hwfit_gpu_set_free(set);
}

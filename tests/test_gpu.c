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
        /* The smallest rows: the 10 GB RTX 3080 and the 150 W A10 (serving cases). */
        cr_assert_geq(g->memory_bytes, 10ull << 30, "%s", g->name);
        cr_assert(g->memory_bandwidth_bytes_per_s > 500e9, "%s", g->name);
        cr_assert(g->tdp_w >= 150 && g->tdp_w <= 1500, "%s", g->name);
        /* Tensor cores beat the vector units, and narrower formats are never slower. */
        cr_assert(g->tf32_flop_per_s >= g->fp32_flop_per_s, "%s", g->name);
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

/* seed_server.c - check the two seed assessments of a fine-tuning server, claim by claim.
 *
 * Two hardware assessments (one German, one English) describe the same server: 8x RTX PRO
 * 6000 Blackwell 96 GB, 2x EPYC 9005 (64 cores, 5.0 GHz, 400 W), 1.5 TB DDR5-6400 in 24
 * DIMMs, 4x 15.36 TB Gen5 NVMe, a 200 TB NAS over NVMe-oF, 2x 400GbE RoCEv2, 4x 3200 W
 * Titanium PSUs, 4U and air-cooled. Both list strengths and weaknesses full of numbers.
 * This program restates every claim (DE-01..DE-36, EN-01..EN-28) in its own words, with
 * the number the document gives, and recomputes it through hwfit's public API from the
 * node file examples/specs/seed-server.json and the Llama-3.1 configs in tests/data/models.
 *
 * Verdicts:
 *   agrees   - the computed value matches within the tolerance stated below;
 *   differs  - it does not; the explanation gives the correct figure and why;
 *   depends  - true under one stated assumption and false under another (both shown), as
 *              where the documents disagree on an input (card edition, decimal or binary
 *              units); a claim that names its own assumption (N+2, N+1) is judged under it;
 *   external - a fact hwfit takes as an input and cannot derive (a benchmark score, a
 *              price, a data set's size, a clock); the explanation says where it enters.
 * Tolerances: a figure printed without "~" agrees within 1 % (rounding of the printed
 * value); a "~" figure within 5 %; a range ("6-7 kW") when the value lies inside it; a
 * "> x" claim when the value exceeds x.
 * Every agrees/differs/depends verdict is computed from the library's figures (within(),
 * holds(), verdict_of2()), never written down: if a figure changes, the verdict follows.
 *
 * Usage: seed_server [--json] [--node FILE] [--models-dir DIR]
 * Output: a table per document, or with --json one object
 *   {"claims": [{"id", "claim", "claimed", "computed", "unit", "verdict", "explanation"}]}
 * with claimed and computed in SI base units (bytes, W, bytes/s, s, FLOP/s; "1" for counts
 * and ratios; EUR/yr for money) or null where there is no number.
 */
#include <hwfit.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef HWFIT_SOURCE_DIR
#define HWFIT_SOURCE_DIR "."
#endif

#define NONE NAN /* no number in the claim, or none computed */
#define TOL_EXACT 0.01
#define TOL_APPROX 0.05

typedef enum verdict { AGREES, DIFFERS, DEPENDS, EXTERNAL } verdict;
static const char *const verdict_names[] = {"agrees", "differs", "depends", "external"};

typedef struct result {
    double computed;
    verdict v;
    char why[1200];
} result;

/* Everything computed once, up front, from the node file and the model configs. */
typedef struct ctx {
    hwfit_node node;            /* as the file gives it (N+2, no RAID level stated) */
    hwfit_node_eval e;
    hwfit_node_eval e_n1;       /* the same with N+1 (the English document's reading) */
    const hwfit_gpu *srv, *ws, *g4090, *h100, *h200;
    hwfit_link_out pcie5x16, pcie4x16, pcie5x8, nvlink4, ib_ndr, roce400, net;
    hwfit_model m8, m70, m405;
    hwfit_memory_out w70_fp16, w405_int4, full405, full70;
    hwfit_shard_search_out fit405, fit70;
    hwfit_shard_result best405, best70;
    hwfit_raid_out raid6, raid0;
    hwfit_collective_out ar_h100, ar_p2p;
    double eff_at_50, eff_at_20;
    hwfit_transfer_out laion, crawl;
    hwfit_host_in decimal_in;
    hwfit_host_out decimal;     /* RAM and VRAM read as decimal 1.5 TB and 768 GB */
    hwfit_host_in host3_in;     /* the node's host with three xGMI links per socket */
    hwfit_host_out host3;
    hwfit_node_eval e_n2;       /* the same with N+2 (the German document's reading) */
    hwfit_perf_in fp4_in;       /* Llama-3.1-70B in NVFP4 on the node, fastest layout */
    hwfit_perf_out fp4_one, fp4_max, fp4_target; /* batch 1, the largest batch, the claim */
    uint64_t fp4_max_batch;
    hwfit_serve_out serve_trt;  /* the same served by TensorRT-LLM (hwfit_serve_estimate) */
    double pipeline;            /* the data-pipeline threshold (hwfit_assess_options) */
} ctx;

/* ---- formatting ------------------------------------------------------------------------- */

static void fmt(char *buf, size_t size, double v, const char *unit) {
    static const struct {
        const char *name;
        hwfit_unit unit;
    } units[] = {{"B", HWFIT_UNIT_BYTES},
                 {"B/s", HWFIT_UNIT_BYTES_PER_S},
                 {"W", HWFIT_UNIT_WATTS},
                 {"s", HWFIT_UNIT_SECONDS},
                 {"FLOP/s", HWFIT_UNIT_FLOP_PER_S}};
    if (isnan(v)) {
        snprintf(buf, size, "-");
        return;
    }
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(unit, units[i].name) == 0 &&
            hwfit_units_format(v, units[i].unit, buf, size) == HWFIT_OK)
            return;
    if (strcmp(unit, "Hz") == 0) snprintf(buf, size, "%.3g GHz", v / 1e9);
    else if (strcmp(unit, "1") == 0) snprintf(buf, size, "%.6g", v);
    else snprintf(buf, size, "%.5g %s", v, unit);
}

/* Rotating buffers so one sentence can hold several quantities. */
static const char *Q(double v, const char *unit) {
    static char bufs[16][64];
    static int i;
    char *b = bufs[i];
    i = (i + 1) % 16;
    fmt(b, 64, v, unit);
    return b;
}

/* An exact count with separators: "70,553,706,496". */
static const char *N(uint64_t v) {
    static char bufs[4][32];
    static int i;
    char *b = bufs[i];
    i = (i + 1) % 4;
    hwfit_units_format_count(v, b, 32);
    return b;
}

static const char *PCT(double fraction) {
    static char bufs[8][32];
    static int i;
    char *b = bufs[i];
    i = (i + 1) % 8;
    snprintf(b, 32, "%.1f %%", fraction * 100.0);
    return b;
}

static void say(result *r, verdict v, double computed, const char *fmt_, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static void say(result *r, verdict v, double computed, const char *fmt_, ...) {
    va_list ap;
    va_start(ap, fmt_);
    vsnprintf(r->why, sizeof r->why, fmt_, ap);
    va_end(ap);
    r->v = v;
    r->computed = computed;
}

static int near(double got, double want, double tol) { return fabs(got - want) <= tol * fabs(want); }
static verdict within(double got, double want, double tol) { return near(got, want, tol) ? AGREES : DIFFERS; }
static verdict holds(int ok) { return ok ? AGREES : DIFFERS; }
/* A claim checked under two readings (two card editions, two unit conventions, two
 * batches): both hold -> agrees; neither -> differs; one only -> depends. */
static verdict verdict_of2(int holds_a, int holds_b) {
    return holds_a && holds_b ? AGREES : !holds_a && !holds_b ? DIFFERS : DEPENDS;
}
static const char *HOLDS(int ok) { return ok ? "holds" : "fails"; }

/* ---- the claims ------------------------------------------------------------------------- */

typedef struct claim claim;
typedef void (*judge_fn)(const ctx *, const claim *, result *);
struct claim {
    const char *id;
    const char *text;  /* the claim in our words */
    double claimed;    /* SI base units, or NONE */
    const char *unit;
    judge_fn judge;
};

/* -- GPUs -- */

static void vram_total(const ctx *c, const claim *k, result *r) {
    say(r, within(c->e.vram_bytes, k->claimed, TOL_EXACT), c->e.vram_bytes,
        "8 cards x 96 GiB: GPU memory is built and sold in binary units, so the document's "
        "768 GB is 768 GiB: %s. Tolerance 1 %%.",
        Q(c->e.vram_bytes, "B"));
}

static void llama70_fp16(const ctx *c, const claim *k, result *r) {
    double w = (double)c->w70_fp16.weights_bytes;
    char extra[400] = "";
    if (strncmp(k->id, "EN", 2) == 0 && c->fit70.count > 0)
        snprintf(extra, sizeof extra,
                 " Served as TP %u on the 8 cards it takes %s per card of %s usable, leaving "
                 "room for %llu KV-cache tokens (bf16, 320 KiB each): large headroom indeed.",
                 (unsigned)c->best70.layout.tp, Q((double)c->best70.per_gpu_bytes, "B"),
                 Q((double)c->best70.per_gpu_bytes + c->best70.headroom_bytes, "B"),
                 (unsigned long long)c->best70.kv_tokens);
    say(r, within(w, k->claimed, TOL_APPROX), w,
        "Llama-3.1-70B has %s parameters (exact, from its config); at 2 bytes each that is "
        "%s, within 5 %% of ~140 GB; it needs at least two cards.%s",
        N(c->w70_fp16.params), Q(w, "B"), extra);
}

static void llama405_int4(const ctx *c, const claim *k, result *r) {
    /* Two figures decide: the size (~205 GB) and that it fits the 8 cards. The size depends
     * on the number format: group-128 int4 with its scales and zeros, or a bare 4 bits. */
    double w = (double)c->w405_int4.weights_bytes;
    double bare = (double)c->w405_int4.params / 2.0;
    int fit = c->fit405.count > 0;
    int as_g128 = fit && near(w, k->claimed, TOL_APPROX);
    int as_bare = fit && near(bare, k->claimed, TOL_APPROX);
    char fits[300];
    if (fit)
        snprintf(fits, sizeof fits, "It fits the 8 cards either way: as TP %u it takes %s per "
                 "card.", (unsigned)c->best405.layout.tp, Q((double)c->best405.per_gpu_bytes, "B"));
    else
        snprintf(fits, sizeof fits, "It does not fit the 8 cards, so the claim fails.");
    say(r, verdict_of2(as_g128, as_bare), w,
        "%s parameters. In int4 with an fp16 scale and 4-bit zero per group of 128 (4.16 "
        "bits; the embedding and head in bf16) they take %s, %s against ~205 GB (%s); as a "
        "bare 4 bits per parameter %s, %s (%s): the number format decides the figure. %s "
        "Tolerance 5 %%.",
        N(c->w405_int4.params), Q(w, "B"), PCT(w / k->claimed - 1.0), HOLDS(as_g128),
        Q(bare, "B"), PCT(bare / k->claimed - 1.0), HOLDS(as_bare), fits);
}

static void bandwidth_de(const ctx *c, const claim *k, result *r) {
    double s = c->srv->memory_bandwidth_bytes_per_s, w = c->ws->memory_bandwidth_bytes_per_s;
    int hs = near(s, k->claimed, TOL_EXACT), hw = near(w, k->claimed, TOL_EXACT);
    say(r, verdict_of2(hs, hw), s,
        "The Server Edition (this node file's card: passive, for 4U servers) has %s (the claim "
        "%s); the Workstation and Max-Q editions have %s (the claim %s), the English "
        "document's figure.%s Tolerance 1 %%.",
        Q(s, "B/s"), HOLDS(hs), Q(w, "B/s"), HOLDS(hw),
        hs != hw ? " The card edition decides." : "");
}

static void over_gddr6x(const ctx *c, const claim *k, result *r) {
    double s = c->srv->memory_bandwidth_bytes_per_s / c->g4090->memory_bandwidth_bytes_per_s - 1;
    double w = c->ws->memory_bandwidth_bytes_per_s / c->g4090->memory_bandwidth_bytes_per_s - 1;
    int hs = near(s, k->claimed, TOL_APPROX), hw = near(w, k->claimed, TOL_APPROX);
    say(r, verdict_of2(hs, hw), s,
        "Against the RTX 4090 (GDDR6X, %s, the fastest GDDR6X card in the catalog): the "
        "Server Edition's %s is %s more (the claim %s), the Workstation Edition's %s is %s "
        "more (the claim %s). Tolerance 5 %% of the claimed %s.",
        Q(c->g4090->memory_bandwidth_bytes_per_s, "B/s"), Q(c->srv->memory_bandwidth_bytes_per_s, "B/s"),
        PCT(s), HOLDS(hs), Q(c->ws->memory_bandwidth_bytes_per_s, "B/s"), PCT(w), HOLDS(hw),
        PCT(k->claimed));
}

static void fp4(const ctx *c, const claim *k, result *r) {
    double sparse = c->srv->fp4_flop_per_s * c->srv->sparse_speedup;
    double ws_sparse = c->ws->fp4_flop_per_s * c->ws->sparse_speedup;
    /* "Up to" is the peak: the sparse rate of each edition. */
    int hs = near(sparse, k->claimed, TOL_APPROX), hw = near(ws_sparse, k->claimed, TOL_APPROX);
    say(r, verdict_of2(hs, hw), sparse,
        "With 2:4 structured sparsity the Server Edition reaches %s of FP4 (%s from ~4: the "
        "claim %s; NVIDIA's page rounds it to 4 PFLOPS), the Workstation Edition %s (the claim "
        "%s). Dense FP4, what most models run, is %gx less: %s on the Server Edition, %s on "
        "the Workstation Edition; 'up to' holds only with sparsity. Tolerance 5 %%.",
        Q(sparse, "FLOP/s"), PCT(fabs(sparse / k->claimed - 1.0)), HOLDS(hs),
        Q(ws_sparse, "FLOP/s"), HOLDS(hw), c->srv->sparse_speedup,
        Q(c->srv->fp4_flop_per_s, "FLOP/s"), Q(c->ws->fp4_flop_per_s, "FLOP/s"));
}

static void tokens_fp4(const ctx *c, const claim *k, result *r) {
    const hwfit_layout *l = &c->fp4_in.shard.layout;
    char reach[200];
    if (c->fp4_target.target_batch > 0)
        snprintf(reach, sizeof reach, "~%s tokens/s needs a batch of %llu or more%s",
                 N((uint64_t)k->claimed), (unsigned long long)c->fp4_target.target_batch,
                 c->fp4_target.target_fits ? ", which fits" : ", which does not fit");
    else
        snprintf(reach, sizeof reach, "~%s tokens/s is out of reach at any batch that fits",
                 N((uint64_t)k->claimed));
    /* The claim is a rate the system reaches (5 % short counts): at the largest batch that
     * fits, and at batch 1. Reached at both -> agrees, at neither -> differs. */
    double floor_ = k->claimed * (1.0 - TOL_APPROX);
    int at_max = c->fp4_max.decode_tokens_per_s >= floor_;
    int at_one = c->fp4_one.decode_tokens_per_s >= floor_;
    say(r, verdict_of2(at_max, at_one), c->fp4_max.decode_tokens_per_s,
        "Roofline of Llama-3.1-70B (Llama-3 70B has the same shapes) in NVFP4 with an FP8 KV "
        "cache, 1,000-token prompts and 1,000 output tokens (assumed), on the fastest layout "
        "(TP %u x PP %u x DP %u): %.0f tokens/s at batch 1, %.0f at the largest batch that fits (%llu; "
        "%.0f tokens/s with prefill counted): %s. The claim %s at the largest batch and %s at "
        "batch 1 (reached within 5 %%: %.0f tokens/s); it also depends on counting prefill, and "
        "served as TensorRT-LLM runs it (hwfit serve, its rates calibrated on NVIDIA's published "
        "tables) it is %.0f output tokens/s at %llu requests in flight (%s-bound). "
        "Computed: the largest-batch decode rate.",
        (unsigned)l->tp, (unsigned)l->pp, (unsigned)l->dp, c->fp4_one.decode_tokens_per_s,
        c->fp4_max.decode_tokens_per_s, (unsigned long long)c->fp4_max_batch,
        c->fp4_max.offline_tokens_per_s, reach, HOLDS(at_max), HOLDS(at_one), floor_,
        c->serve_trt.output_tokens_per_s, (unsigned long long)c->serve_trt.concurrency,
        hwfit_serve_bound_name(c->serve_trt.throughput_bound));
}

static void tdp(const ctx *c, const claim *k, result *r) {
    say(r, within(c->srv->tdp_w, k->claimed, TOL_EXACT), c->srv->tdp_w,
        "The catalog's board power of the %s is %s (NVIDIA: up to 600 W). Tolerance 1 %%.",
        c->srv->edition, Q(c->srv->tdp_w, "W"));
}

static void pcie_bidir(const ctx *c, const claim *k, result *r) {
    say(r, within(c->pcie5x16.line_bytes_per_s_bidir, k->claimed, TOL_APPROX),
        c->pcie5x16.line_bytes_per_s_bidir,
        "PCIe 5.0 x16 carries 32 GT/s x 16 lanes x 128/130 = %s per direction, %s in both "
        "directions: ~64 GB/s is the per-direction rate, so 'bidirectional' is off by a "
        "factor of two.",
        Q(c->pcie5x16.line_bytes_per_s, "B/s"), Q(c->pcie5x16.line_bytes_per_s_bidir, "B/s"));
}

static void pcie_share(const ctx *c, const claim *k, result *r) {
    double share = c->pcie5x16.line_bytes_per_s_bidir / c->nvlink4.line_bytes_per_s_bidir;
    say(r, within(share, k->claimed, TOL_APPROX), share,
        "NVLink 4 (18 links) is %s per direction, %s both ways. Like with like, PCIe 5.0 x16 "
        "is %s of it (%s vs %s, or %s vs %s); ~7 %% compares one direction of PCIe with both "
        "directions of NVLink.",
        Q(c->nvlink4.line_bytes_per_s, "B/s"), Q(c->nvlink4.line_bytes_per_s_bidir, "B/s"),
        PCT(share), Q(c->pcie5x16.line_bytes_per_s, "B/s"), Q(c->nvlink4.line_bytes_per_s, "B/s"),
        Q(c->pcie5x16.line_bytes_per_s_bidir, "B/s"), Q(c->nvlink4.line_bytes_per_s_bidir, "B/s"));
}

static void vs_hbm(const ctx *c, const claim *k, result *r) {
    double h100 = c->h100->memory_bandwidth_bytes_per_s, h200 = c->h200->memory_bandwidth_bytes_per_s;
    verdict v = near(h100, k->claimed, TOL_APPROX) && near(h200, 4.8e12, TOL_APPROX) ? AGREES : DIFFERS;
    say(r, v, h100,
        "Catalog: H100 SXM %s, H200 SXM %s; the RTX PRO 6000 Server Edition's %s is %s and %s "
        "of them, so memory-bound decode runs correspondingly slower per card. Tolerance 5 %%.",
        Q(h100, "B/s"), Q(h200, "B/s"), Q(c->srv->memory_bandwidth_bytes_per_s, "B/s"),
        PCT(c->srv->memory_bandwidth_bytes_per_s / h100), PCT(c->srv->memory_bandwidth_bytes_per_s / h200));
}

static void gpu_load(const ctx *c, const claim *k, result *r) {
    double g = c->e.budget.kind_w[HWFIT_POWER_COMPONENT_GPU];
    say(r, within(g, k->claimed, TOL_EXACT), g,
        "The power budget's GPU line: 8 x %s = %s, %s of the node's %s DC budget. Tolerance 1 %%.",
        Q(c->e.gpu_power_w, "W"), Q(g, "W"), PCT(g / c->e.budget.dc_w), Q(c->e.budget.dc_w, "W"));
}

static void pcie_double(const ctx *c, const claim *k, result *r) {
    /* Three figures: Gen5 doubles Gen4, 64 GB/s "bidirectional", 128 GB/s aggregate. The
     * claim holds only if all of them do. */
    double one = c->pcie5x16.line_bytes_per_s, both = c->pcie5x16.line_bytes_per_s_bidir;
    int doubles = near(one, 2.0 * c->pcie4x16.line_bytes_per_s, TOL_EXACT);
    int aggregate = near(both, k->claimed, TOL_APPROX);
    int bidir64 = near(both, 64e9, TOL_APPROX);
    say(r, holds(doubles && aggregate && bidir64), both,
        "Gen5 doubles Gen4 (x16: %s -> %s per direction: %s) and 128 GB/s aggregate is both "
        "directions (%s: %s). But 64 GB/s is the rate per direction, not bidirectional as the "
        "same sentence says (both directions carry %s: %s; see DE-09). Tolerance 5 %%.",
        Q(c->pcie4x16.line_bytes_per_s, "B/s"), Q(one, "B/s"), HOLDS(doubles), Q(both, "B/s"),
        HOLDS(aggregate), Q(both, "B/s"), HOLDS(bidir64));
}

static void allreduce_share(const ctx *c, const claim *k, result *r) {
    const hwfit_collective_out *a = &c->e.allreduce;
    double share = a->busbw_bytes_per_s / c->ar_h100.busbw_bytes_per_s;
    double eff_pcie = a->busbw_bytes_per_s / c->pcie5x16.line_bytes_per_s;
    double eff_p2p = c->ar_p2p.busbw_bytes_per_s / c->pcie5x16.line_bytes_per_s;
    double lo = k->claimed - 0.10, hi = k->claimed + 0.10; /* the claimed 40-60 % */
    int as_bw = share >= lo && share <= hi, as_eff = eff_pcie >= lo && eff_pcie <= hi;
    say(r, verdict_of2(as_bw, as_eff), share,
        "All-reduce of 1 GiB over 8 GPUs (nccl-tests bus bandwidth): this node %s (staged "
        "through host memory, NCCL's default here; %s with P2P forced), an 8x H100 SXM "
        "NVSwitch node %s: %s of it in absolute terms (the claim %s as bandwidth). Measured "
        "as a share of each GPU's own link, the PCIe all-reduce reaches %s (%s with P2P) of "
        "%s, %s the claimed %.0f-%.0f %% (the claim %s as a relative efficiency).",
        Q(a->busbw_bytes_per_s, "B/s"), Q(c->ar_p2p.busbw_bytes_per_s, "B/s"),
        Q(c->ar_h100.busbw_bytes_per_s, "B/s"), PCT(share), HOLDS(as_bw), PCT(eff_pcie),
        PCT(eff_p2p), Q(c->pcie5x16.line_bytes_per_s, "B/s"), as_eff ? "inside" : "outside",
        lo * 100.0, hi * 100.0, HOLDS(as_eff));
}

static void x8(const ctx *c, const claim *k, result *r) {
    say(r, within(c->pcie5x8.line_bytes_per_s, k->claimed, TOL_APPROX), c->pcie5x8.line_bytes_per_s,
        "PCIe 5.0 x8 carries %s per direction (%s both ways): half of x16, as claimed, and the "
        "figure is per direction. The node's lane budget makes it likely: see DE-18. "
        "Tolerance 5 %%.",
        Q(c->pcie5x8.line_bytes_per_s, "B/s"), Q(c->pcie5x8.line_bytes_per_s_bidir, "B/s"));
}

/* -- CPU and memory -- */

static void cores(const ctx *c, const claim *k, result *r) {
    say(r, within((double)c->e.cores, k->claimed, TOL_EXACT), (double)c->e.cores,
        "2 sockets x %llu cores = %llu cores, %llu threads: %.3g cores per GPU against the "
        "documents' rule of %g (%.0f needed). Tolerance 1 %%.",
        (unsigned long long)c->node.cpu.cores_per_socket, (unsigned long long)c->e.cores,
        (unsigned long long)c->e.threads, c->e.host.cores_per_gpu, c->node.host.cores_per_gpu_rule,
        c->e.host.cores_needed);
}

static void cores_needed(const ctx *c, const claim *k, result *r) {
    say(r, within(c->e.host.cores_needed, k->claimed, TOL_EXACT), c->e.host.cores_needed,
        "8 GPUs x %g cores = %.0f cores needed; the node has %llu (%.3g per GPU). Tolerance 1 %%.",
        c->node.host.cores_per_gpu_rule, c->e.host.cores_needed, (unsigned long long)c->e.cores,
        c->e.host.cores_per_gpu);
}

static void boost(const ctx *c, const claim *k, result *r) {
    (void)k;
    say(r, EXTERNAL, NONE,
        "A specification of the CPU (AMD EPYC 9575F: up to 5.0 GHz), given in the node file as "
        "cpu.boost_ghz = %.3g; hwfit reports it but no calculation uses it.",
        c->node.cpu.boost_clock_hz / 1e9);
}

static void lanes(const ctx *c, const claim *k, result *r) {
    const hwfit_host_out *h = &c->e.host, *h3 = &c->host3;
    /* "Suffice without a switch": everything at full width within the lanes left after the
     * socket links, with the node's links and with one fewer (boards with three). */
    int fit = h->pcie_lanes_needed <= h->pcie_lanes_available;
    int fit3 = h3->pcie_lanes_needed <= h3->pcie_lanes_available;
    int total = near((double)h->pcie_lanes_total, k->claimed, TOL_EXACT);
    say(r, verdict_of2(total && fit, total && fit3), (double)h->pcie_lanes_available,
        "2 x %llu = %llu lanes (the claim's total %s), but in a 2-socket EPYC the %llu xGMI "
        "links of each socket take %llu of them, leaving %llu (boards with %llu links leave "
        "%llu). 8 GPUs x16 (%llu), 4 NVMe x4 and 2 NICs x16 need %llu (%llu with the GPUs "
        "at x8): %s.",
        (unsigned long long)c->node.host.lanes_per_socket, (unsigned long long)h->pcie_lanes_total,
        total ? "is right" : "is wrong", (unsigned long long)c->e.host_in.socket_links,
        (unsigned long long)h->socket_link_lanes_used, (unsigned long long)h->pcie_lanes_available,
        (unsigned long long)c->host3_in.socket_links, (unsigned long long)h3->pcie_lanes_available,
        (unsigned long long)h->gpu_lanes_needed, (unsigned long long)h->pcie_lanes_needed,
        (unsigned long long)h->pcie_lanes_needed_bifurcated,
        fit && fit3 ? "they fit either way"
        : !fit && !fit3 ? (h->pcie_lanes_needed_bifurcated <= h->pcie_lanes_available
                               ? "they fit only with the GPUs at x8 or behind PCIe switches"
                               : "they fit only behind PCIe switches")
                        : "they fit with one of the two link counts only");
}

static void gpu_lanes(const ctx *c, const claim *k, result *r) {
    const hwfit_host_out *h = &c->e.host;
    say(r, within((double)h->gpu_lanes_needed, k->claimed, TOL_EXACT), (double)h->gpu_lanes_needed,
        "8 x 16 = %llu lanes for the GPUs, which is every lane left after the xGMI links (%llu): "
        "the NVMe drives and NICs (%llu more) do force bifurcation or a switch, not just 'may'. "
        "Tolerance 1 %%.",
        (unsigned long long)h->gpu_lanes_needed, (unsigned long long)h->pcie_lanes_available,
        (unsigned long long)(h->pcie_lanes_needed - h->gpu_lanes_needed));
}

static void external_note(const ctx *c, const claim *k, result *r, const char *where) {
    (void)c;
    (void)k;
    say(r, EXTERNAL, NONE, "%s", where);
}

static void passmark(const ctx *c, const claim *k, result *r) {
    external_note(c, k, r, "A benchmark score of the CPUs; hwfit has no CPU benchmark model and "
                           "no calculation uses it.");
}

static void cpu_tdp(const ctx *c, const claim *k, result *r) {
    (void)k;
    say(r, EXTERNAL, NONE,
        "AMD's specification of the EPYC 9575F, given in the node file as cpu.tdp; it enters "
        "the power budget as 2 x %s = %s, %s of the node's %s.",
        Q(c->node.cpu.tdp_w, "W"), Q(c->e.budget.kind_w[HWFIT_POWER_COMPONENT_CPU], "W"),
        PCT(c->e.budget.kind_w[HWFIT_POWER_COMPONENT_CPU] / c->e.budget.dc_w),
        Q(c->e.budget.dc_w, "W"));
}

/* The RAM meets the RAM-to-VRAM rule (within 1 %, the rounding of "1.5 TB"). */
static int meets_ram_rule(const hwfit_host_out *h, double rule) {
    return h->ram_to_vram >= rule * (1.0 - TOL_EXACT);
}

static void ram_rule(const ctx *c, const claim *k, result *r) {
    double rule = c->e.host_in.ram_to_vram_rule;
    int dec = meets_ram_rule(&c->decimal, rule), bin = meets_ram_rule(&c->e.host, rule);
    (void)k;
    say(r, verdict_of2(dec, bin), c->e.ram_bytes,
        "Read as decimal, %s of RAM against %g x %s = %s is %.4gx VRAM: the rule %s. Built "
        "from %llu DIMMs of %s, which are binary, the RAM is %s against %g x %s = %s: %.4gx, "
        "the rule %s (met, not exceeded, when the ratio is exactly %g). Tolerance 1 %%.",
        Q(c->decimal_in.ram_bytes, "B"), rule, Q(c->decimal_in.vram_bytes, "B"),
        Q(c->decimal.ram_needed_bytes, "B"),
        c->decimal.ram_to_vram, HOLDS(dec), (unsigned long long)c->node.host.dimms,
        Q(c->node.memory.dimm_bytes, "B"), Q(c->e.ram_bytes, "B"), rule, Q(c->e.vram_bytes, "B"),
        Q(c->e.host.ram_needed_bytes, "B"), c->e.host.ram_to_vram, HOLDS(bin), rule);
}

static void mem_bw(const ctx *c, const claim *k, result *r) {
    double bw = c->e.host.memory_bandwidth_per_socket_bytes_per_s;
    say(r, bw > k->claimed ? AGREES : DIFFERS, bw,
        "12 channels x 6,400 MT/s x 8 bytes = %s per socket (%s for both), above 600 GB/s.",
        Q(bw, "B/s"), Q(c->e.host.memory_bandwidth_bytes_per_s, "B/s"));
}

static void dpc(const ctx *c, const claim *k, result *r) {
    say(r, within(c->e.host.dimms_per_channel, k->claimed, TOL_EXACT), c->e.host.dimms_per_channel,
        "%llu DIMMs over 2 sockets x %llu channels = %.3g DIMM per channel in every channel "
        "(balanced, full speed, no 2-DPC derating). Tolerance 1 %%.",
        (unsigned long long)c->node.host.dimms, (unsigned long long)c->node.host.channels_per_socket,
        c->e.host.dimms_per_channel);
}

/* "Only just above the rule" (knapp ueber): meets it within 1 % with at most 5 % to spare. */
static int just_meets_ram_rule(const hwfit_host_out *h, double rule) {
    return meets_ram_rule(h, rule) && h->ram_to_vram <= rule * (1.0 + TOL_APPROX);
}

static void ram_slightly(const ctx *c, const claim *k, result *r) {
    double rule = c->e.host_in.ram_to_vram_rule;
    int bin = just_meets_ram_rule(&c->e.host, rule), dec = just_meets_ram_rule(&c->decimal, rule);
    (void)k;
    say(r, verdict_of2(bin, dec), c->e.host.ram_to_vram,
        "Read as 'meets the %gx rule with at most 5 %% to spare': RAM / VRAM is %.4g with "
        "%s DIMMs (the claim %s) and %.4g if 1.5 TB and 768 GB are read as decimal (%s the "
        "rule: the claim %s). Data sets such as LAION-5B or Common Crawl stream from storage; "
        "they do not need to fit in host RAM.",
        rule, c->e.host.ram_to_vram, Q(c->node.memory.dimm_bytes, "B"), HOLDS(bin),
        c->decimal.ram_to_vram, meets_ram_rule(&c->decimal, rule) ? "meeting" : "below",
        HOLDS(dec));
}

static void ram_2x_en(const ctx *c, const claim *k, result *r) {
    say(r, within(c->e.host.ram_to_vram, k->claimed, TOL_APPROX), c->e.host.ram_to_vram,
        "%s of RAM for %s of VRAM: %.4gx (%.4gx if 1.5 TB and 768 GB were decimal); "
        "'approximately 2x' holds either way. Tolerance 5 %%.",
        Q(c->e.ram_bytes, "B"), Q(c->e.vram_bytes, "B"), c->e.host.ram_to_vram,
        c->decimal.ram_to_vram);
}

static void feeds_gpus(const ctx *c, const claim *k, result *r) {
    double links = c->e.gpu_link.line_bytes_per_s * 8;
    (void)k;
    say(r, c->e.host.memory_bandwidth_bytes_per_s > links ? AGREES : DIFFERS,
        c->e.host.memory_bandwidth_bytes_per_s,
        "%s of peak DRAM bandwidth against %s that all eight GPU links move in one direction "
        "(8 x %s): the host side is not the bottleneck for feeding data.",
        Q(c->e.host.memory_bandwidth_bytes_per_s, "B/s"), Q(links, "B/s"),
        Q(c->e.gpu_link.line_bytes_per_s, "B/s"));
}

static void downclock(const ctx *c, const claim *k, result *r) {
    const hwfit_host_out *h = &c->e.host;
    int two_dpc = near(h->dimms_per_channel, k->claimed, TOL_EXACT);
    say(r, holds(two_dpc && h->downclocked), h->dimms_per_channel,
        "%llu DIMMs on %llu channels is %.3g DIMM per channel; the %g-DPC downclock the claim "
        "fears %s this population (%s, %.0f MT/s); it would need %.0f DIMMs.",
        (unsigned long long)c->node.host.dimms, (unsigned long long)h->channels,
        h->dimms_per_channel, k->claimed, h->downclocked ? "applies to" : "does not apply to",
        h->downclocked ? "downclocked" : "full speed", h->effective_speed_mts,
        k->claimed * (double)h->channels);
}

static void pretrain405(const ctx *c, const claim *k, result *r) {
    double state = (double)c->full405.weights_bytes + (double)c->full405.gradient_bytes +
                   (double)c->full405.optimizer_bytes;
    (void)k;
    say(r, holds(state > c->e.ram_bytes), state,
        "Full training of Llama-3.1-405B in bf16 with AdamW keeps %s of weights, gradients and "
        "optimizer states (%.0f bytes per parameter) before activations, %.2gx the %s of host "
        "RAM and %.2gx the %s of VRAM%s.",
        Q(state, "B"), state / (double)c->full405.params, state / c->e.ram_bytes,
        Q(c->e.ram_bytes, "B"), state / c->e.vram_bytes, Q(c->e.vram_bytes, "B"),
        state > c->e.ram_bytes + c->e.vram_bytes ? ": it needs many nodes" : "");
}

/* -- storage -- */

static void nvme_rate(const ctx *c, const claim *k, result *r) {
    (void)k;
    say(r, EXTERNAL, NONE,
        "The drive's rate is a specification (Micron 9550: 14 GB/s), given in the node file as "
        "storage.read_rate. It enters the array's read rate: 4 drives read %s together, %.0fx "
        "the %s threshold (itself a rule of thumb, an option of hwfit assess).",
        Q(c->e.raid.read_bytes_per_s, "B/s"), c->e.raid.read_bytes_per_s / c->pipeline,
        Q(c->pipeline, "B/s"));
}

static void checkpoints(const ctx *c, const claim *k, result *r) {
    double ckpt = (double)c->w70_fp16.weights_bytes;
    double full = (double)c->full70.weights_bytes + (double)c->full70.optimizer_bytes;
    say(r, within(ckpt, k->claimed, TOL_APPROX), ckpt,
        "A 70B checkpoint of fp16 weights is %s (within 5 %%); %s raw holds %.0f of them, "
        "the %s of RAID 6 %.0f. A training checkpoint with AdamW states (14 bytes per "
        "parameter) is %s: %.0f fit in RAID 6. 'Several' holds.",
        Q(ckpt, "B"), Q(c->raid6.raw_bytes, "B"), c->raid6.raw_bytes / ckpt,
        Q(c->raid6.usable_bytes, "B"), c->raid6.usable_bytes / ckpt, Q(full, "B"),
        c->raid6.usable_bytes / full);
}

static void dataset(const ctx *c, const claim *k, result *r, const hwfit_transfer_out *t,
                    const char *name, const char *what) {
    (void)k;
    say(r, EXTERNAL, NONE,
        "%s's size is a fact about the data set (%s), not something hwfit derives. Taken as "
        "given it enters a capacity check against the NAS: %s of %s (%s), so the NAS %s.",
        name, what, PCT(t->fill_fraction), Q(c->node.nas.capacity_bytes, "B"),
        t->fits ? "fits" : "does not fit", t->fits ? "holds it" : "holds it only in part");
}

static void laion(const ctx *c, const claim *k, result *r) {
    dataset(c, k, r, &c->laion, "LAION-5B",
            "about 240 TB as the documents count it; the images at 384 px are ~220 TB");
}

static void crawl(const ctx *c, const claim *k, result *r) {
    dataset(c, k, r, &c->crawl, "Common Crawl",
            "multi-petabyte in all; one monthly crawl is ~75 TB of compressed WARC files");
}

static void raid6(const ctx *c, const claim *k, result *r) {
    say(r, within(c->raid6.usable_bytes, k->claimed, TOL_APPROX), c->raid6.usable_bytes,
        "RAID 6 over 4 x %s keeps (4 - 2) x %s = %s (%s) of %s raw. Tolerance 5 %%.",
        Q(c->node.storage.raid.drive_bytes, "B"), Q(c->node.storage.raid.drive_bytes, "B"),
        Q(c->raid6.usable_bytes, "B"), PCT(c->raid6.space_efficiency), Q(c->raid6.raw_bytes, "B"));
}

static void no_raid(const ctx *c, const claim *k, result *r) {
    (void)k;
    say(r, holds(c->raid0.loss_probability > c->raid6.loss_probability), c->raid0.loss_probability,
        "Without redundancy one failed drive loses data: with %llu drives of %.3g M h MTTF the "
        "probability of a loss within a year is %s; RAID 6 survives two failures (loss "
        "probability %.2g) at %s usable.",
        (unsigned long long)c->node.storage.raid.drives, c->node.storage.raid.drive_mttf_s / 3600e6,
        PCT(c->raid0.loss_probability),
        c->raid6.loss_probability, Q(c->raid6.usable_bytes, "B"));
}

static void arrays_fast(const ctx *c, const claim *k, result *r) {
    (void)k;
    say(r, c->e.raid.read_bytes_per_s > c->pipeline ? AGREES : DIFFERS, c->e.raid.read_bytes_per_s,
        "4 x 14 GB/s = %s of sequential reads (RAID 6 also reads all four drives: %s), %.0fx "
        "the %s pipeline threshold.",
        Q(c->e.raid.read_bytes_per_s, "B/s"), Q(c->raid6.read_bytes_per_s, "B/s"),
        c->e.raid.read_bytes_per_s / c->pipeline, Q(c->pipeline, "B/s"));
}

static void nas_link(const ctx *c, const claim *k, result *r) {
    (void)k;
    /* The claim's point (shared, scalable data-set storage) holds when the NAS over this
     * link can feed the data pipeline: its effective rate against the threshold. */
    double eff = c->e.nas.effective_bytes_per_s;
    say(r, holds(eff >= c->pipeline), eff,
        "2 x 400GbE = %s of line rate; NVMe-oF over RoCEv2 at the node file's assumed "
        "efficiency gives %s (%.1fx the %s data-pipeline threshold), enough to read the whole "
        "%s in %s.",
        Q(c->e.network.line_bytes_per_s, "B/s"), Q(eff, "B/s"), eff / c->pipeline,
        Q(c->pipeline, "B/s"), Q(c->node.nas.capacity_bytes, "B"), Q(c->e.nas.time_s, "s"));
}

/* -- network -- */

static void aggregate(const ctx *c, const claim *k, result *r) {
    say(r, within(c->net.line_bytes_per_s, k->claimed, TOL_EXACT), c->net.line_bytes_per_s,
        "2 ports x 400 Gb/s = 800 Gb/s = %s of line rate (%s of RoCEv2 payload at a 4 KiB MTU). "
        "Tolerance 1 %%.",
        Q(c->net.line_bytes_per_s, "B/s"), Q(c->net.payload_bytes_per_s, "B/s"));
}

static void roce_slower(const ctx *c, const claim *k, result *r) {
    double slower = 1.0 - c->roce400.payload_bytes_per_s / c->ib_ndr.payload_bytes_per_s;
    double lo = k->claimed - 0.05, hi = k->claimed + 0.05; /* the claimed 20-30 % */
    int in = slower >= lo && slower <= hi;
    say(r, holds(in), slower,
        "Per 400 Gb/s port RoCEv2 carries %s of payload and InfiniBand NDR %s: %s less, %s "
        "%.0f-%.0f %%.%s",
        Q(c->roce400.payload_bytes_per_s, "B/s"), Q(c->ib_ndr.payload_bytes_per_s, "B/s"),
        PCT(slower), in ? "inside" : "not", lo * 100.0, hi * 100.0,
        in ? "" : " A gap of the claimed size can only be latency or congestion behaviour, "
                  "which depends on the fabric's tuning and which hwfit does not model.");
}

static void roce_latency(const ctx *c, const claim *k, result *r) {
    (void)k;
    say(r, EXTERNAL, NONE,
        "A latency comparison from field reports; hwfit models link bandwidth (RoCEv2 %s vs "
        "NDR %s of payload per port) and NCCL's fixed per-hop latencies, not fabric-specific "
        "latency.",
        Q(c->roce400.payload_bytes_per_s, "B/s"), Q(c->ib_ndr.payload_bytes_per_s, "B/s"));
}

/* -- power and cooling -- */

/* The PSU headroom rule: usable capacity with M PSUs failed >= ratio x load. */
static int covers(const hwfit_psu_out *p) { return p->usable_w >= p->required_w; }

static void psu_n2(const ctx *c, const claim *k, result *r) {
    /* The claim names N+2, so it is judged under N+2; N+1 is shown for comparison. */
    const hwfit_psu_out *p = &c->e_n2.psu, *p1 = &c->e_n1.psu;
    int installed = near(p->installed_w, k->claimed, TOL_EXACT);
    say(r, holds(installed && covers(p)), p->usable_w,
        "%llu x %s = %s installed (%s), but N+2 leaves %llu x %s = %s usable: %s the node's %s "
        "load, and %s %.0f %% of it (%s), so the rule %s under N+2. With N+1 (the English "
        "document's reading) it would %s: %s usable against %s.",
        (unsigned long long)p->psus, Q(p->rating_w, "W"), Q(p->installed_w, "W"),
        installed ? "as claimed" : "not as claimed", (unsigned long long)p->active_psus,
        Q(p->rating_w, "W"), Q(p->usable_w, "W"), p->usable_w >= p->load_w ? "above" : "below",
        Q(p->load_w, "W"), covers(p) ? "covers" : "short of", p->required_w / p->load_w * 100.0,
        Q(p->required_w, "W"), HOLDS(covers(p)), covers(p1) ? "hold" : "fail too",
        Q(p1->usable_w, "W"), Q(p1->required_w, "W"));
}

static void titanium(const ctx *c, const claim *k, result *r) {
    /* "Above 96 %" read as the standard's "at least": at the curve's best point (50 % load)
     * and at this node's operating point. */
    const hwfit_psu_out *p = &c->e.psu;
    int best = c->eff_at_50 >= k->claimed, here = p->efficiency >= k->claimed;
    say(r, verdict_of2(best, here), p->efficiency,
        "80 PLUS Titanium (230 V, redundant) gives %.2f %% at 50 %% load (the claim %s there) "
        "and %s at 20 %%. Each of the %llu sharing PSUs here runs at %s load: %.2f %% (the "
        "claim %s at "
        "this node's load); with %llu failed (N+%llu) the %llu left would run at %s of their "
        "rating%s.",
        c->eff_at_50 * 100.0, HOLDS(best), PCT(c->eff_at_20), (unsigned long long)p->sharing_psus,
        PCT(p->psu_load_fraction), p->efficiency * 100.0, HOLDS(here),
        (unsigned long long)(p->psus - p->active_psus), (unsigned long long)(p->psus - p->active_psus),
        (unsigned long long)p->active_psus, PCT(p->failover_load_fraction),
        p->failover_load_fraction > 1.0 ? ", overloaded" : "");
}

static void system_draw(const ctx *c, const claim *k, result *r) {
    say(r, within(c->e.budget.dc_w, k->claimed, TOL_APPROX), c->e.budget.dc_w,
        "The budget: GPUs %s + CPUs %s + 24 DIMMs, 4 drives, 2 NICs, fans and board (their "
        "powers are assumptions in the node file) = %s DC, %s from the wall; above the 5 kW "
        "threshold, so air cooling is marginal (a rule of thumb; no primary source sets it). "
        "Tolerance 5 %%.",
        Q(c->e.budget.kind_w[HWFIT_POWER_COMPONENT_GPU], "W"),
        Q(c->e.budget.kind_w[HWFIT_POWER_COMPONENT_CPU], "W"), Q(c->e.budget.dc_w, "W"),
        Q(c->e.psu.wall_w, "W"));
}

static void gpu_heat(const ctx *c, const claim *k, result *r) {
    double g = c->e.budget.kind_w[HWFIT_POWER_COMPONENT_GPU];
    say(r, within(g, k->claimed, TOL_EXACT), g,
        "8 x %s = %s of GPU heat in %lluU; the whole node gives off %s (%.0f BTU/h), %s per "
        "rack unit. Tolerance 1 %%.",
        Q(c->e.gpu_power_w, "W"), Q(g, "W"), (unsigned long long)c->node.chassis.rack_units,
        Q(c->e.thermal.heat_w, "W"), c->e.thermal.heat_btu_per_h,
        Q(c->e.thermal.heat_w / (double)c->node.chassis.rack_units, "W"));
}

/* "Considerable" has no source threshold; this reproduction reads it as more than
 * 10,000 (EUR) a year, and says so. */
#define CONSIDERABLE_PER_YEAR 10000.0

static void energy_cost(const ctx *c, const claim *k, result *r) {
    const hwfit_energy_in *in = &c->e.energy_in;
    (void)k;
    say(r, holds(c->e.energy.annual_cost > CONSIDERABLE_PER_YEAR), c->e.energy.annual_cost,
        "At %s from the wall, duty cycle %g, PUE %g and %g EUR/kWh (the node file's "
        "assumptions): %.0f kWh and %.0f EUR a year, %.2f EUR an hour; %s the %.0f EUR a year "
        "this reproduction takes as 'considerable' (no source sets a threshold).",
        Q(in->power_w, "W"), in->duty_cycle, in->pue, in->price_per_kwh,
        c->e.energy.annual_energy_kwh, c->e.energy.annual_cost, c->e.energy.cost_per_hour,
        c->e.energy.annual_cost > CONSIDERABLE_PER_YEAR ? "above" : "below", CONSIDERABLE_PER_YEAR);
}

static void bandwidth_en(const ctx *c, const claim *k, result *r) {
    double best = 0.0;
    const char *best_name = "";
    for (size_t i = 0; i < hwfit_gpu_count(); i++) {
        const hwfit_gpu *g = hwfit_gpu_at(i);
        if (strstr(g->edition, "RTX") && !strstr(g->edition, "GeForce") &&
            g->memory_bandwidth_bytes_per_s > best) {
            best = g->memory_bandwidth_bytes_per_s;
            best_name = g->name;
        }
    }
    double s = c->srv->memory_bandwidth_bytes_per_s, w = c->ws->memory_bandwidth_bytes_per_s;
    /* Per edition: the figure within 1 % and the highest professional RTX card's figure. */
    int top = near(best, k->claimed, TOL_EXACT);
    int hs = near(s, k->claimed, TOL_EXACT) && top, hw = near(w, k->claimed, TOL_EXACT) && top;
    say(r, verdict_of2(hs, hw), s,
        "The Workstation and Max-Q editions have %s (the claim %s); the highest of the "
        "professional RTX cards in the catalog is %s with %s. The Server Edition, the one a 4U "
        "air-cooled server takes and this node file uses, has %s (the claim %s). Tolerance 1 %%.",
        Q(w, "B/s"), HOLDS(hw), best_name, Q(best, "B/s"), Q(s, "B/s"), HOLDS(hs));
}

static void fp32_tops(const ctx *c, const claim *k, result *r) {
    const double tops = 4000e12; /* the claim's second figure, ~4,000 AI TOPS (sparse FP4) */
    double s_fp4 = c->srv->fp4_flop_per_s * c->srv->sparse_speedup;
    double w_fp4 = c->ws->fp4_flop_per_s * c->ws->sparse_speedup;
    int s32 = near(c->srv->fp32_flop_per_s, k->claimed, TOL_APPROX), s4 = near(s_fp4, tops, TOL_APPROX);
    int w32 = near(c->ws->fp32_flop_per_s, k->claimed, TOL_APPROX), w4 = near(w_fp4, tops, TOL_APPROX);
    /* The sentence is about one card: it holds for an edition only if both figures do. */
    say(r, verdict_of2(s32 && s4, w32 && w4), c->srv->fp32_flop_per_s,
        "Server Edition: FP32 %s (~117 TFLOPS %s), sparse FP4 %s (~4,000 TOPS %s). "
        "Workstation Edition: FP32 %s (%s), sparse FP4 %s (%s).%s Tolerance 5 %%.",
        Q(c->srv->fp32_flop_per_s, "FLOP/s"), HOLDS(s32), Q(s_fp4, "FLOP/s"), HOLDS(s4),
        Q(c->ws->fp32_flop_per_s, "FLOP/s"), HOLDS(w32), Q(w_fp4, "FLOP/s"), HOLDS(w4),
        (s32 || w32) && (s4 || w4) && !(s32 && s4) && !(w32 && w4)
            ? " The sentence mixes two editions: no single card has both figures." : "");
}

static void nvlink_dir(const ctx *c, const claim *k, result *r) {
    say(r, within(c->nvlink4.line_bytes_per_s, k->claimed, TOL_APPROX), c->nvlink4.line_bytes_per_s,
        "PCIe 5.0 x16 is %s per direction, as claimed; NVLink 4 is %s per direction and %s "
        "in both, so the ~900 GB/s it is set against is the bidirectional figure: like with "
        "like, PCIe has %s of NVLink's bandwidth, not 7 %%.",
        Q(c->pcie5x16.line_bytes_per_s, "B/s"), Q(c->nvlink4.line_bytes_per_s, "B/s"),
        Q(c->nvlink4.line_bytes_per_s_bidir, "B/s"),
        PCT(c->pcie5x16.line_bytes_per_s / c->nvlink4.line_bytes_per_s));
}

static void price(const ctx *c, const claim *k, result *r) {
    (void)c;
    (void)k;
    say(r, EXTERNAL, NONE,
        "A market price; hwfit takes prices as inputs (gpu.price and costs.server_price in a "
        "node file), where they enter the capital cost, the TCO and the cost per GPU-hour. The "
        "node file states none.");
}

static void psu_n1(const ctx *c, const claim *k, result *r) {
    /* The claim names N+1 (3+1), so it is judged under N+1: ~9,600 W usable, and
     * "comfortably above peak" read as meeting the headroom rule. */
    const hwfit_psu_out *p = &c->e_n1.psu, *p2 = &c->e_n2.psu;
    int usable = near(p->usable_w, k->claimed, TOL_APPROX);
    say(r, holds(usable && covers(p)), p->usable_w,
        "With N+1 (%llu+%llu): %llu x %s = %s usable (the claim's figure %s), %s the %s load "
        "and %s the %.0f %% rule (%s). The German document and this node file read N+2, which "
        "leaves only %s: %s the load.",
        (unsigned long long)p->active_psus, (unsigned long long)(p->psus - p->active_psus),
        (unsigned long long)p->active_psus, Q(p->rating_w, "W"), Q(p->usable_w, "W"),
        usable ? "within 5 %" : "off by more than 5 %", p->usable_w >= p->load_w ? "above" : "below",
        Q(p->load_w, "W"), covers(p) ? "meeting" : "short of", p->required_w / p->load_w * 100.0,
        Q(p->required_w, "W"), Q(p2->usable_w, "W"), p2->usable_w >= p2->load_w ? "above" : "below");
}

static void air_limit(const ctx *c, const claim *k, result *r) {
    (void)k;
    say(r, c->e.thermal.cooling != HWFIT_POWER_COOLING_AIR_OK ? AGREES : DIFFERS, c->e.thermal.heat_w,
        "%s of heat (%.0f BTU/h) needs %.0f CFM at a %g K air temperature rise: above the 5 kW "
        "per chassis where air becomes marginal (the documents' rule of thumb; racks are "
        "quoted at 20-30 kW with containment).",
        Q(c->e.thermal.heat_w, "W"), c->e.thermal.heat_btu_per_h, c->e.thermal.airflow_cfm,
        c->node.chassis.thermal.delta_t_c);
}

static void two_plus_two(const ctx *c, const claim *k, result *r) {
    /* The sentence: 2+2 reduces redundancy and leaves tighter (less, still positive)
     * headroom than 3+1. */
    const hwfit_psu_out *p2 = &c->e_n2.psu, *p1 = &c->e_n1.psu;
    uint64_t m2 = p2->psus - p2->active_psus, m1 = p1->psus - p1->active_psus;
    int reduced = m2 < m1, tighter = p2->headroom_w < p1->headroom_w && p2->headroom_w >= 0.0;
    (void)k;
    say(r, holds(reduced && tighter), p2->headroom_w,
        "2+2 survives %llu failed PSUs, 3+1 %llu: redundancy is %s. Usable capacity falls from "
        "%s to %s, the headroom over the %s load from %s to %s: %s.",
        (unsigned long long)m2, (unsigned long long)m1, reduced ? "reduced" : "not reduced but raised",
        Q(p1->usable_w, "W"), Q(p2->usable_w, "W"), Q(p2->load_w, "W"), Q(p1->headroom_w, "W"),
        Q(p2->headroom_w, "W"),
        p2->headroom_w < 0.0 ? "not 'tighter' but negative (the load exceeds what is left)"
        : tighter ? "tighter, as claimed" : "not tighter");
}

static void peak_range(const ctx *c, const claim *k, result *r) {
    (void)k;
    double v = c->e.budget.dc_w;
    say(r, v >= 6e3 && v <= 7e3 ? AGREES : DIFFERS, v,
        "%s DC and %s from the wall, inside 6-7 kW (with the node file's assumed fans, board, "
        "DIMM, drive and NIC power).",
        Q(v, "W"), Q(c->e.psu.wall_w, "W"));
}

static const claim claims[] = {
    /* German document */
    {"DE-01", "Total VRAM of the 8 cards", 768.0 * HWFIT_GIBI, "B", vram_total},
    {"DE-02", "Llama-3.1-70B fits in FP16 without quantization", 140e9, "B", llama70_fp16},
    {"DE-03", "A 405B model fits in INT4", 205e9, "B", llama405_int4},
    {"DE-04", "Memory bandwidth per GPU", 1597e9, "B/s", bandwidth_de},
    {"DE-05", "Bandwidth about 80 % above GDDR6X", 0.80, "1", over_gddr6x},
    {"DE-06", "Up to ~4 PFLOPS of FP4 tensor throughput per GPU", 4e15, "FLOP/s", fp4},
    {"DE-07", "System throughput ~17,500 tokens/s for Llama-3 70B in FP4", 17500, "token/s", tokens_fp4},
    {"DE-08", "TDP per card", 600, "W", tdp},
    {"DE-09", "PCIe 5.0 x16 gives 64 GB/s bidirectional per slot", 64e9, "B/s", pcie_bidir},
    {"DE-10", "PCIe is ~7 % of H100 NVLink 4.0's 900 GB/s", 0.07, "1", pcie_share},
    {"DE-11", "Bandwidth 1,597 GB/s vs ~3.35 / 4.8 TB/s of H100 / H200", 3.35e12, "B/s", vs_hbm},
    {"DE-12", "GPU load 8 x 600 W", 4800, "W", gpu_load},
    {"DE-13", "PCIe 5.0 doubles Gen4: 64 GB/s bidirectional, 128 GB/s aggregate per slot", 128e9, "B/s", pcie_double},
    {"DE-14", "All-reduce over PCIe reaches ~40-60 % of NVLink efficiency", 0.50, "1", allreduce_share},
    {"DE-15", "x8 bifurcation halves the slot to 32 GB/s", 32e9, "B/s", x8},
    {"DE-16", "128 cores / 256 threads, far above ~8 cores per GPU", 128, "1", cores},
    {"DE-17", "5.0 GHz boost, the highest of the EPYC series", 5.0e9, "Hz", boost},
    {"DE-18", "12 channels and 128 PCIe 5.0 lanes per socket suffice for 8 GPUs, NVMe and network", 256, "1", lanes},
    {"DE-19", "PassMark multi-core about 147,894 (two sockets)", 147894, "1", passmark},
    {"DE-20", "CPU TDP 400 W per socket", 400, "W", cpu_tdp},
    {"DE-21", "1.5 TB exceeds the 2x VRAM rule (2 x 768 GB = 1,536 GB) exactly", 1.5e12, "B", ram_rule},
    {"DE-22", "DDR5-6400 gives more than 600 GB/s per socket", 600e9, "B/s", mem_bw},
    {"DE-23", "24 DIMMs are one DIMM per channel, 12 channels per socket", 1, "1", dpc},
    {"DE-24", "Host RAM is only slightly above the 2x rule", NONE, "1", ram_slightly},
    {"DE-25", "Gen5 NVMe up to ~14 GB/s per drive, far above the 7 GB/s pipeline threshold", 14e9, "B/s", nvme_rate},
    {"DE-26", "61.44 TB local storage holds several 70B checkpoints (~140 GB FP16) plus data", 140e9, "B", checkpoints},
    {"DE-27", "The 200 TB NAS holds LAION-5B (~240 TB) at least in part", 240e12, "B", laion},
    {"DE-28", "The 200 TB NAS is too small for Common Crawl (~300 TB)", 300e12, "B", crawl},
    {"DE-29", "61.44 TB raw leave only ~30 TB usable in RAID 6", 30e12, "B", raid6},
    {"DE-30", "800 Gbit/s network in aggregate", 100e9, "B/s", aggregate},
    {"DE-31", "RoCEv2 is ~20-30 % slower than InfiniBand NDR", 0.25, "1", roce_slower},
    {"DE-32", "4 x 3,200 W = 12,800 W with N+2 cover the 130 % rule for ~6.5 kW peak", 12800, "W", psu_n2},
    {"DE-33", "Titanium efficiency above 96 %", 0.96, "1", titanium},
    {"DE-34", "~6.5 kW system draw is above the 5 kW liquid-cooling threshold", 6500, "W", system_draw},
    {"DE-35", "8 x 600 W GPUs put 4,800 W of heat in one 4U chassis", 4800, "W", gpu_heat},
    {"DE-36", "Electricity cost at 24/7 load is considerable", NONE, "EUR/yr", energy_cost},
    /* English document */
    {"EN-01", "768 GB pool; Llama 3.1 70B FP16 (~140 GB) with large KV-cache headroom", 140e9, "B", llama70_fp16},
    {"EN-02", "405B-class models in INT4 (~205 GB) across the pool", 205e9, "B", llama405_int4},
    {"EN-03", "1,792 GB/s per GPU, the highest of any professional RTX card", 1792e9, "B/s", bandwidth_en},
    {"EN-04", "~117 TFLOPS FP32 and up to ~4,000 AI TOPS per card", 117e12, "FLOP/s", fp32_tops},
    {"EN-05", "PCIe 5.0 ~64 GB/s per direction vs ~900 GB/s on NVLink 4.0", 900e9, "B/s", nvlink_dir},
    {"EN-06", "Price above $13,000 per card", 13000, "USD", price},
    {"EN-07", "~600 W TDP class per card", 600, "W", tdp},
    {"EN-08", "PCIe 5.0 x16 provides ~64 GB/s bidirectional per GPU", 64e9, "B/s", pcie_bidir},
    {"EN-09", "x8 bifurcation halves per-GPU bandwidth to ~32 GB/s", 32e9, "B/s", x8},
    {"EN-10", "128 cores exceed ~8 cores per GPU (64 needed)", 64, "1", cores_needed},
    {"EN-11", "5.0 GHz boost", 5.0e9, "Hz", boost},
    {"EN-12", "256 PCIe 5.0 lanes suffice for 8 GPUs, 4 NVMe and 2 NICs without a switch", 256, "1", lanes},
    {"EN-13", "GPUs at x16 take 128 lanes; the rest may force bifurcation or a switch", 128, "1", gpu_lanes},
    {"EN-14", "1.5 TB host RAM is about 2x the 768 GB VRAM", 2.0, "1", ram_2x_en},
    {"EN-15", "DDR5-6400 feeds 8 GPUs without a host-side bottleneck", NONE, "B/s", feeds_gpus},
    {"EN-16", "Full 24-DIMM population may downclock (2 DIMMs per channel)", 2, "1", downclock},
    {"EN-17", "1.5 TB is not enough for full pre-training of 405B+ models", NONE, "B", pretrain405},
    {"EN-18", "4 Gen5 NVMe drives read well above ~7 GB/s together", NONE, "B/s", arrays_fast},
    {"EN-19", "61.44 TB holds several 70B checkpoints (~140 GB each)", 140e9, "B", checkpoints},
    {"EN-20", "200 TB NAS over NVMe-oF via 400GbE", NONE, "B/s", nas_link},
    {"EN-21", "NVMe without RAID risks data loss", NONE, "1", no_raid},
    {"EN-22", "The 200 TB NAS is modest for LAION-5B (~240 TB)", 240e12, "B", laion},
    {"EN-23", "800 Gb/s aggregate network", 100e9, "B/s", aggregate},
    {"EN-24", "RoCEv2 has ~20-30 % higher latency than InfiniBand NDR", 0.25, "1", roce_latency},
    {"EN-25", "4 x 3,200 W with N+1 (3+1) leave ~9,600 W, comfortably above peak", 9600, "W", psu_n1},
    {"EN-26", "Air cooling at ~5 kW+ approaches its practical limit", 5000, "W", air_limit},
    {"EN-27", "With 2+2 instead of 3+1 the headroom for spikes is tighter", NONE, "W", two_plus_two},
    {"EN-28", "Total system peak ~6-7 kW", 6500, "W", peak_range},
};
#define NCLAIMS (sizeof claims / sizeof claims[0])

/* ---- computing the context -------------------------------------------------------------- */

static int fail(const char *what, hwfit_status st, const hwfit_error *err) {
    fprintf(stderr, "seed_server: %s: %s%s%s\n", what, hwfit_status_name(st),
            err && err->message[0] ? ": " : "", err && err->message[0] ? err->message : "");
    return 2;
}

#define CALL(what, expr)                                                                    \
    do {                                                                                    \
        hwfit_status st_ = (expr);                                                          \
        if (st_ != HWFIT_OK) return fail(what, st_, NULL);                                  \
    } while (0)

static int link_rate(const char *name, hwfit_link_out *out) {
    hwfit_link_in in;
    CALL(name, hwfit_link_parse(name, &in));
    CALL(name, hwfit_link_rate(&in, out));
    return 0;
}

static int load_model(const char *dir, const char *name, hwfit_model *m) {
    char path[1024];
    hwfit_error err;
    snprintf(path, sizeof path, "%s/%s.config.json", dir, name);
    hwfit_status st = hwfit_hf_config_load(path, m, &err);
    return st == HWFIT_OK ? 0 : fail(path, st, &err);
}

static int weights(const hwfit_model *m, const char *dtype, hwfit_memory_mode mode,
                   hwfit_memory_out *out) {
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = mode;
    CALL(dtype, hwfit_dtype_parse(dtype, &in.weights));
    CALL("memory estimate", hwfit_memory_estimate(m, &in, out));
    return 0;
}

/* The layout with most headroom for serving a model in a format on the node's cards. */
static int fit(const ctx *c, const hwfit_model *m, const char *dtype, hwfit_shard_result *best,
               hwfit_shard_search_out *summary) {
    hwfit_shard_in in;
    hwfit_shard_space space;
    hwfit_shard_init(&in);
    hwfit_shard_space_init(&space);
    CALL(dtype, hwfit_dtype_parse(dtype, &in.memory.weights));
    in.gpus = (uint32_t)c->e.gpus;
    in.capacity_bytes = (double)c->e.gpu->memory_bytes;
    memset(best, 0, sizeof *best);
    CALL("layout search", hwfit_shard_search(m, &in, &space, best, 1, summary));
    return 0;
}

static int nas_fit(const ctx *c, double bytes, hwfit_transfer_out *out) {
    hwfit_transfer_in t = c->node.nas.transfer;
    t.bytes = bytes;
    t.rate_bytes_per_s = c->e.network.line_bytes_per_s;
    t.capacity_bytes = c->node.nas.capacity_bytes;
    CALL("NAS capacity check", hwfit_transfer_estimate(&t, out));
    return 0;
}

static int compute(ctx *c, const char *node_path, const char *models) {
    hwfit_error err;
    hwfit_status st = hwfit_node_load(node_path, &c->node, &err);
    if (st != HWFIT_OK) return fail(node_path, st, &err);
    CALL("node", hwfit_node_evaluate(&c->node, &c->e));
    hwfit_node n1 = c->node;
    n1.power.psu.redundant = 1;
    CALL("node with N+1", hwfit_node_evaluate(&n1, &c->e_n1));
    hwfit_node n2 = c->node;
    n2.power.psu.redundant = 2;
    CALL("node with N+2", hwfit_node_evaluate(&n2, &c->e_n2));
    CALL("gpu", hwfit_gpu_find("rtx-pro-6000-server", &c->srv));
    CALL("gpu", hwfit_gpu_find("rtx-pro-6000-workstation", &c->ws));
    CALL("gpu", hwfit_gpu_find("rtx-4090", &c->g4090));
    CALL("gpu", hwfit_gpu_find("h100-sxm", &c->h100));
    CALL("gpu", hwfit_gpu_find("h200-sxm", &c->h200));
    if (link_rate("pcie5x16", &c->pcie5x16) || link_rate("pcie4x16", &c->pcie4x16) ||
        link_rate("pcie5x8", &c->pcie5x8) || link_rate("nvlink4x18", &c->nvlink4) ||
        link_rate("ib-ndr", &c->ib_ndr) || link_rate("400g-roce", &c->roce400) ||
        link_rate("2x400g-roce", &c->net))
        return 2;
    if (load_model(models, "llama-3.1-8b", &c->m8) || load_model(models, "llama-3.1-70b", &c->m70) ||
        load_model(models, "llama-3.1-405b", &c->m405))
        return 2;
    if (weights(&c->m70, "fp16", HWFIT_MEMORY_INFERENCE, &c->w70_fp16) ||
        weights(&c->m405, "int4", HWFIT_MEMORY_INFERENCE, &c->w405_int4) ||
        weights(&c->m405, "bf16", HWFIT_MEMORY_FULL, &c->full405) ||
        weights(&c->m70, "bf16", HWFIT_MEMORY_FULL, &c->full70))
        return 2;
    if (fit(c, &c->m405, "int4", &c->best405, &c->fit405) || fit(c, &c->m70, "fp16", &c->best70, &c->fit70))
        return 2;
    /* Llama-3.1-70B in NVFP4 (DE-07): the fastest layout at a moderate batch, then batch 1,
     * the largest batch that fits, and the smallest batch reaching the claimed rate. */
    hwfit_perf_in *p = &c->fp4_in;
    hwfit_perf_init(p);
    p->topology = c->e.topology;
    CALL("throughput", hwfit_perf_set_gpu(p, c->e.gpu));
    CALL("nvfp4", hwfit_dtype_parse("nvfp4", &p->shard.memory.weights));
    CALL("fp8", hwfit_dtype_parse("fp8", &p->shard.memory.kv));
    p->shard.memory.context = 1000;
    p->output_tokens = 1000;
    p->shard.memory.batch = 64;
    p->shard.gpus = (uint32_t)c->e.gpus;
    hwfit_shard_space space;
    hwfit_shard_space_init(&space);
    static hwfit_perf_result layouts[64];
    hwfit_shard_search_out found;
    CALL("throughput layouts", hwfit_perf_plan(&c->m70, p, &space, layouts, 64, &found));
    if (found.count == 0) return fail("throughput layouts", HWFIT_EDOM, NULL);
    /* Of the layouts that fit, the one with the highest decode rate at its largest batch
     * (the KV cache sized for the end of each request). */
    c->fp4_max.decode_tokens_per_s = -1.0;
    hwfit_layout chosen = layouts[0].shard.layout;
    for (size_t i = 0; i < found.count; i++) {
        hwfit_perf_in q = *p;
        hwfit_perf_out o;
        uint64_t batch = 0;
        q.shard.layout = layouts[i].shard.layout;
        hwfit_shard_in at_end = q.shard;
        at_end.memory.context = q.shard.memory.context + q.output_tokens;
        CALL("largest batch", hwfit_shard_max_batch(&c->m70, &at_end, 1u << 20, &batch));
        if (batch == 0) continue;
        q.shard.memory.batch = batch;
        CALL("decode at the largest batch", hwfit_perf_estimate(&c->m70, &q, &o));
        if (o.decode_tokens_per_s > c->fp4_max.decode_tokens_per_s) {
            c->fp4_max = o;
            c->fp4_max_batch = batch;
            chosen = q.shard.layout;
        }
    }
    if (c->fp4_max_batch == 0) return fail("largest batch", HWFIT_EDOM, NULL);
    p->shard.layout = chosen;
    p->shard.memory.batch = 1;
    CALL("decode at batch 1", hwfit_perf_estimate(&c->m70, p, &c->fp4_one));
    hwfit_perf_in t = *p;
    t.shard.memory.batch = 1;
    t.target_tokens_per_s = 17500;
    CALL("decode target", hwfit_perf_estimate(&c->m70, &t, &c->fp4_target));
    /* As an engine serves it: TensorRT-LLM (its rates are calibrated on NVIDIA's published
     * tables, docs/accuracy.md), 1,000-token prompts and outputs, as many requests as its
     * KV cache holds, on the same layout. */
    hwfit_serve_in sv;
    hwfit_serve_init(&sv);
    sv.perf = *p;
    sv.engine = HWFIT_SERVE_TENSORRT_LLM;
    sv.prompt_tokens = 1000;
    sv.output_tokens = 1000;
    CALL("serve (TensorRT-LLM)", hwfit_serve_estimate(&c->m70, &sv, &c->serve_trt));
    /* RAID 6 and the file's separate drives (RAID 0 for capacity and risk). */
    hwfit_raid_in r = c->node.storage.raid;
    r.layout.level = HWFIT_STORAGE_RAID6;
    CALL("RAID 6", hwfit_raid_evaluate(&r, &c->raid6));
    r.layout.level = HWFIT_STORAGE_RAID0;
    CALL("RAID 0", hwfit_raid_evaluate(&r, &c->raid0));
    /* All-reduce: an 8x H100 SXM NVSwitch node for reference, and this node with P2P on. */
    hwfit_collective_in ci;
    hwfit_collective_init(&ci);
    CALL("H100 topology", hwfit_topology_set_gpu(&ci.topology, c->h100));
    CALL("H100 all-reduce", hwfit_collective_estimate(&ci, &c->ar_h100));
    ci = c->e.allreduce_in;
    ci.topology.p2p = HWFIT_TOPOLOGY_ON;
    CALL("all-reduce with P2P", hwfit_collective_estimate(&ci, &c->ar_p2p));
    CALL("PSU efficiency", hwfit_psu_efficiency(HWFIT_POWER_CLASS_TITANIUM,
                                                HWFIT_POWER_TABLE_230V_REDUNDANT, 0.5, &c->eff_at_50));
    CALL("PSU efficiency", hwfit_psu_efficiency(HWFIT_POWER_CLASS_TITANIUM,
                                                HWFIT_POWER_TABLE_230V_REDUNDANT, 0.2, &c->eff_at_20));
    /* The decimal reading of "1.5 TB" against "768 GB", through the host rules. */
    hwfit_host_in h = c->e.host_in;
    h.ram_bytes = 1.5e12;
    h.vram_bytes = 768e9;
    c->decimal_in = h;
    CALL("host, decimal reading", hwfit_host_evaluate(&h, &c->decimal));
    /* 2-socket EPYC boards wire three or four xGMI links per socket. */
    c->host3_in = c->e.host_in;
    c->host3_in.socket_links = 3;
    CALL("host, three socket links", hwfit_host_evaluate(&c->host3_in, &c->host3));
    hwfit_assess_options o;
    hwfit_assess_options_init(&o);
    c->pipeline = o.pipeline_bytes_per_s;
    /* Data-set sizes as the documents state them (external facts). */
    if (nas_fit(c, 240e12, &c->laion) || nas_fit(c, 300e12, &c->crawl)) return 2;
    return 0;
}

/* ---- output ----------------------------------------------------------------------------- */

static void json_string(const char *s) {
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') printf("\\%c", *p);
        else if (*p < 0x20) printf("\\u%04x", *p);
        else putchar(*p);
    }
    putchar('"');
}

static void json_number(double v) {
    if (isnan(v) || isinf(v)) {
        printf("null");
        return;
    }
    char buf[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) break;
    }
    printf("%s", buf);
}

/* Print text wrapped at width, every line after the first indented. */
static void wrapped(const char *text, int indent, int width) {
    int col = indent;
    const char *p = text;
    while (*p) {
        const char *w = p;
        while (*w && *w != ' ') w++;
        int len = (int)(w - p);
        if (col > indent && col + 1 + len > width) {
            printf("\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            putchar(' ');
            col++;
        }
        printf("%.*s", len, p);
        col += len;
        p = *w ? w + 1 : w;
    }
    putchar('\n');
}

int main(int argc, char **argv) {
    int json = 0;
    const char *node_path = HWFIT_SOURCE_DIR "/examples/specs/seed-server.json";
    const char *models = HWFIT_SOURCE_DIR "/tests/data/models";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) json = 1;
        else if (strcmp(argv[i], "--node") == 0 && i + 1 < argc) node_path = argv[++i];
        else if (strcmp(argv[i], "--models-dir") == 0 && i + 1 < argc) models = argv[++i];
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: seed_server [--json] [--node FILE] [--models-dir DIR]\n"
                   "Checks every claim of the two seed assessments against hwfit's figures.\n");
            return 0;
        } else {
            fprintf(stderr, "seed_server: unknown argument '%s' (try --help)\n", argv[i]);
            return 2;
        }
    }
    static ctx c;
    static result results[NCLAIMS];
    int rc = compute(&c, node_path, models);
    if (rc != 0) return rc;
    for (size_t i = 0; i < NCLAIMS; i++) {
        results[i].computed = NONE;
        claims[i].judge(&c, &claims[i], &results[i]);
    }

    if (json) {
        printf("{\"claims\": [");
        for (size_t i = 0; i < NCLAIMS; i++) {
            printf("%s\n  {\"id\": ", i ? "," : "");
            json_string(claims[i].id);
            printf(", \"claim\": ");
            json_string(claims[i].text);
            printf(", \"claimed\": ");
            json_number(claims[i].claimed);
            printf(", \"computed\": ");
            json_number(results[i].computed);
            printf(", \"unit\": ");
            json_string(claims[i].unit);
            printf(", \"verdict\": ");
            json_string(verdict_names[results[i].v]);
            printf(", \"explanation\": ");
            json_string(results[i].why);
            printf("}");
        }
        printf("\n]}\n");
        return 0;
    }

    size_t counts[2][4] = {{0}};
    for (size_t i = 0; i < NCLAIMS; i++) counts[claims[i].id[0] == 'E'][results[i].v]++;
    printf("The seed assessments, claim by claim (node: %s; models: %s)\n\n", node_path, models);
    printf("Verdicts: agrees (within 1 %% for exact figures, 5 %% for \"~\" figures, inside a\n"
           "range, above a \"> x\"), differs, depends (the assumption that decides is named and\n"
           "both readings shown), external (an input hwfit cannot derive).\n");
    for (int doc = 0; doc < 2; doc++) {
        printf("\n%s\n", doc == 0 ? "German document (000_62b8922e2b578993.txt)"
                                  : "English document (001_cf2a9385872968ca.txt)");
        printf("%zu agree, %zu differ, %zu depend, %zu external\n\n", counts[doc][AGREES],
               counts[doc][DIFFERS], counts[doc][DEPENDS], counts[doc][EXTERNAL]);
        printf("%-6s  %-8s  %-22s  %-22s  %s\n", "ID", "verdict", "claimed", "computed", "claim");
        printf("------  --------  ----------------------  ----------------------  -----\n");
        for (size_t i = 0; i < NCLAIMS; i++) {
            if ((claims[i].id[0] == 'E') != doc) continue;
            char a[64], b[64];
            fmt(a, sizeof a, claims[i].claimed, claims[i].unit);
            fmt(b, sizeof b, results[i].computed, claims[i].unit);
            printf("%-6s  %-8s  %-22s  %-22s  %s\n", claims[i].id, verdict_names[results[i].v], a,
                   b, claims[i].text);
            printf("%*s", 8, "");
            wrapped(results[i].why, 8, 100);
        }
    }
    return 0;
}

/* chart: every bar, line and reference line equals the domain module's own result; the
 * sweep behaves as nccl-tests sweeps do (time grows, bandwidth climbs); stages alike share
 * a bar; the buffer protocol; every error path with poisoned outputs; golden files.
 *
 * Golden files (tests/data/chart/, one .svg per chart) are compared byte for byte. After an intended
 * change of a chart or of the numbers behind it, regenerate them from the build tree:
 *
 *     HWFIT_CHART_REGENERATE=1 build/dev/tests/test_chart --filter 'chart/golden_*'
 *
 * and look at them (tests/data/chart/README.md) before committing. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit.h"
#include "pictures/chart_internal.h"
#include "hwfit/hf_config.h"

#define GIB 1073741824.0
#define CARD_96GB (96.0 * GIB) /* rtx-pro-6000-server: "96 GB" read as GiB (gpu.h) */

static hwfit_model llama8, llama70, llama405;

static void load(const char *file, hwfit_model *m) {
    char path[512];
    snprintf(path, sizeof path, "%s/models/%s", HWFIT_TEST_DATA, file);
    hwfit_error err;
    cr_assert_eq(hwfit_hf_config_load(path, m, &err), HWFIT_OK, "%s: %s", file, err.message);
}

static void setup(void) {
    load("llama-3.1-8b.config.json", &llama8);
    load("llama-3.1-70b.config.json", &llama70);
    load("llama-3.1-405b.config.json", &llama405);
}

TestSuite(chart, .init = setup);

/* ---- shared inputs ---------------------------------------------------------------------- */

/* Llama-3.1-70B on the seed server's 8 cards: QLoRA, TP 2 x PP 4. */
static hwfit_shard_in qlora_tp2_pp4(void) {
    hwfit_shard_in in;
    hwfit_shard_init(&in);
    in.memory.mode = HWFIT_MEMORY_QLORA;
    in.memory.context = 4096;
    in.capacity_bytes = CARD_96GB;
    in.gpus = 8;
    in.layout.tp = 2;
    in.layout.pp = 4;
    return in;
}

/* Serving Llama-3.1-70B bf16 on 8 cards with TP 8, 8 sequences of 32K. */
static hwfit_shard_in serve_tp8(void) {
    hwfit_shard_in in;
    hwfit_shard_init(&in);
    in.memory.context = 32768;
    in.memory.batch = 8;
    in.capacity_bytes = CARD_96GB;
    in.gpus = 8;
    in.layout.tp = 8;
    return in;
}

/* An 8-GPU PCIe Gen5 node (the defaults) with the rtx-pro-6000-server's links, or an
 * HGX H100 (NVLink 4 through NVSwitch). */
static hwfit_collective_in node_of(const char *gpu_name) {
    hwfit_collective_in c;
    hwfit_collective_init(&c);
    const hwfit_gpu *gpu = NULL;
    cr_assert_eq(hwfit_gpu_find(gpu_name, &gpu), HWFIT_OK);
    hwfit_topology_set_gpu(&c.topology, gpu);
    return c;
}

/* The seed server's power budget and PSUs: 4 x 3200 W Titanium, N+2. */
static void seed_power(hwfit_power_budget_in *b, hwfit_psu_in *p) {
    hwfit_power_budget_init(b);
    cr_assert_eq(hwfit_power_budget_add(b, HWFIT_POWER_COMPONENT_GPU, 8, 600.0), HWFIT_OK);
    cr_assert_eq(hwfit_power_budget_add(b, HWFIT_POWER_COMPONENT_CPU, 2, 400.0), HWFIT_OK);
    cr_assert_eq(hwfit_power_budget_add(b, HWFIT_POWER_COMPONENT_DIMM, 24, 10.0), HWFIT_OK);
    cr_assert_eq(hwfit_power_budget_add(b, HWFIT_POWER_COMPONENT_DRIVE, 4, 18.0), HWFIT_OK);
    cr_assert_eq(hwfit_power_budget_add(b, HWFIT_POWER_COMPONENT_NIC, 2, 25.0), HWFIT_OK);
    cr_assert_eq(hwfit_power_budget_add(b, HWFIT_POWER_COMPONENT_FAN, 10, 40.0), HWFIT_OK);
    cr_assert_eq(hwfit_power_budget_add(b, HWFIT_POWER_COMPONENT_BOARD, 1, 100.0), HWFIT_OK);
    hwfit_psu_init(p);
    p->psus = 4;
    p->redundant = 2;
    p->psu_rating_w = 3200.0;
}

static hwfit_raid_in raidz2_with_spare(void) {
    hwfit_raid_in r;
    hwfit_raid_init(&r);
    cr_assert_eq(hwfit_raid_level_parse("raidz2", &r.layout), HWFIT_OK);
    r.drives = 8;
    r.spares = 1;
    r.drive_bytes = 15.36e12;
    return r;
}

/* ---- memory ----------------------------------------------------------------------------- */

/* Every segment of every bar is the card's own part (exact integers below 2^53, so equal
 * as doubles), free is usable - in use, and the bars add up to the card's total. */
static void expect_bar_is_card(const hwfit__chart_memory *d, size_t b, const hwfit_shard_card *c) {
    const double want[HWFIT__CHART_MEMORY_PARTS] = {
        (double)c->weights_bytes,   (double)c->kv_bytes,       (double)c->activation_bytes,
        (double)c->gradient_bytes,  (double)c->optimizer_bytes, (double)c->buffer_bytes,
        (double)c->overhead_bytes,
        d->usable_bytes > (double)c->total_bytes ? d->usable_bytes - (double)c->total_bytes : 0.0};
    double used = 0.0;
    for (size_t s = 0; s < d->segment_count; s++) {
        double v = d->values[b * d->segment_count + s];
        cr_assert_eq(v, want[d->part[s]], "bar %zu part %zu: %.0f, want %.0f", b, d->part[s], v,
                     want[d->part[s]]);
        if (d->part[s] != HWFIT__CHART_FREE_PART) used += v;
    }
    cr_assert_eq(used, (double)c->total_bytes);
    cr_assert_eq(d->used_bytes[b], c->total_bytes);
}

Test(chart, memory_bars_are_the_shard_cards_stage_by_stage) {
    hwfit_shard_in in = qlora_tp2_pp4();
    hwfit__chart_memory d;
    cr_assert_eq(hwfit__chart_memory_data(&llama70, &in, NULL, &d), HWFIT_OK);
    hwfit_shard_out o;
    cr_assert_eq(hwfit_shard_estimate(&llama70, &in, &o), HWFIT_OK);
    cr_assert_eq(d.usable_bytes, (double)o.usable_bytes);
    /* Under 1F1B the first stage holds 4 micro-batches, the last 1: all four differ. */
    cr_assert_eq(d.bar_count, 4);
    uint64_t largest = 0;
    for (uint32_t s = 0; s < 4; s++) {
        hwfit_shard_card c;
        cr_assert_eq(hwfit_shard_card_at(&llama70, &in, s, &c), HWFIT_OK);
        cr_assert_eq(d.first_stage[s], s);
        cr_assert_eq(d.last_stage[s], s);
        expect_bar_is_card(&d, s, &c);
        if (c.total_bytes > largest) largest = c.total_bytes;
    }
    cr_assert_eq(largest, o.worst.total_bytes, "the tallest bar is the worst card");
    /* Cards of stage s are ranks 2s and 2s + 1 (TP innermost). */
    cr_assert(strncmp(d.bar_labels[1], "GPU 2-3: ", 9) == 0, "%s", d.bar_labels[1]);
    cr_assert(strstr(d.title, "TP 2 x PP 4 x DP 1") != NULL, "%s", d.title);
}

Test(chart, memory_serving_leaves_out_training_parts) {
    hwfit_shard_in in = serve_tp8();
    hwfit__chart_memory d;
    cr_assert_eq(hwfit__chart_memory_data(&llama70, &in, NULL, &d), HWFIT_OK);
    hwfit_shard_card c;
    cr_assert_eq(hwfit_shard_card_at(&llama70, &in, 0, &c), HWFIT_OK);
    cr_assert_eq(d.bar_count, 1);
    expect_bar_is_card(&d, 0, &c);
    /* No gradients and no optimizer states when serving; they are not in the legend. */
    for (size_t s = 0; s < d.segment_count; s++) cr_assert(d.part[s] != 3 && d.part[s] != 4);
    cr_assert_eq(d.part[d.segment_count - 1], HWFIT__CHART_FREE_PART);
    cr_assert(strncmp(d.bar_labels[0], "GPU 0-7: ", 9) == 0, "%s", d.bar_labels[0]);
}

Test(chart, memory_stages_alike_share_a_bar) {
    /* Serving Llama-3.1-8B (32 layers) with PP 4: stage 0 has the embedding, stage 3 the
     * head, stages 1 and 2 hold 8 plain layers each and are alike. */
    hwfit_shard_in in;
    hwfit_shard_init(&in);
    in.capacity_bytes = CARD_96GB;
    in.gpus = 8;
    in.layout.tp = 2;
    in.layout.pp = 4;
    hwfit__chart_memory d;
    cr_assert_eq(hwfit__chart_memory_data(&llama8, &in, NULL, &d), HWFIT_OK);
    cr_assert_eq(d.bar_count, 3);
    cr_assert_eq(d.first_stage[1], 1);
    cr_assert_eq(d.last_stage[1], 2);
    cr_assert(strncmp(d.bar_labels[1], "GPU 2-5: ", 9) == 0, "%s", d.bar_labels[1]);
    hwfit_shard_card c1, c2;
    cr_assert_eq(hwfit_shard_card_at(&llama8, &in, 1, &c1), HWFIT_OK);
    cr_assert_eq(hwfit_shard_card_at(&llama8, &in, 2, &c2), HWFIT_OK);
    cr_assert_eq(c1.total_bytes, c2.total_bytes);
    expect_bar_is_card(&d, 1, &c2);
}

Test(chart, memory_card_that_does_not_fit_has_no_free_part) {
    hwfit_shard_in in = serve_tp8();
    in.gpus = 1;
    in.layout.tp = 1; /* 141 GB of weights on one 103 GB card */
    hwfit__chart_memory d;
    cr_assert_eq(hwfit__chart_memory_data(&llama70, &in, NULL, &d), HWFIT_OK);
    cr_assert_eq(d.shard.fits, 0);
    for (size_t s = 0; s < d.segment_count; s++) cr_assert(d.part[s] != HWFIT__CHART_FREE_PART);
    cr_assert(strstr(d.title, "(does not fit)") != NULL, "%s", d.title);
}

Test(chart, memory_more_distinct_cards_than_bars_is_a_range_error) {
    /* Full training of Llama-3.1-405B (126 layers) with PP 126: under 1F1B stage i holds
     * 126 - i micro-batches, so every stage differs: 126 > HWFIT_CHART_MAX_BARS. */
    hwfit_shard_in in;
    hwfit_shard_init(&in);
    in.memory.mode = HWFIT_MEMORY_FULL;
    in.capacity_bytes = CARD_96GB;
    in.gpus = 126;
    in.layout.pp = 126;
    char buf[16];
    memset(buf, 0x5a, sizeof buf);
    size_t needed = 12345;
    cr_assert_eq(hwfit_chart_memory(&llama405, &in, NULL, buf, sizeof buf, &needed), HWFIT_ERANGE);
    cr_assert_eq(needed, 12345);
    cr_assert_eq((unsigned char)buf[0], 0x5a);
}

/* ---- collective ------------------------------------------------------------------------- */

Test(chart, collective_points_are_the_estimates_at_each_size) {
    hwfit_collective_in lines[2] = {node_of("rtx-pro-6000-server"), node_of("h100-sxm")};
    hwfit_chart_collective_in in;
    hwfit_chart_collective_init(&in);
    in.series_count = 2;
    in.series = lines;
    hwfit__chart_collective d;
    cr_assert_eq(hwfit__chart_collective_data(&in, &d), HWFIT_OK);
    /* 8 B to 1 GiB by factors of 2: 2^3 .. 2^30, 28 sizes, as nccl-tests -b 8 -e 1G -f 2. */
    cr_assert_eq(d.point_count, 28);
    cr_assert_eq(d.bytes[0], 8.0);
    cr_assert_eq(d.bytes[27], GIB);
    for (size_t s = 0; s < 2; s++)
        for (size_t i = 0; i < d.point_count; i++) {
            hwfit_collective_in c = lines[s];
            c.bytes = d.bytes[i];
            hwfit_collective_out o;
            cr_assert_eq(hwfit_collective_estimate(&c, &o), HWFIT_OK);
            cr_assert_eq(d.time_s[s][i], o.time_s);
            cr_assert_eq(d.algbw_bytes_per_s[s][i], o.algbw_bytes_per_s);
            cr_assert_eq(d.busbw_bytes_per_s[s][i], o.busbw_bytes_per_s);
        }
    cr_assert_str_eq(d.labels[0], "8 ranks, PCIe Gen5 x16, via host memory");
    cr_assert_str_eq(d.labels[1], "8 ranks, NVLink");
    cr_assert_str_eq(d.title, "Bus bandwidth of all-reduce by message size");
}

Test(chart, collective_sweep_is_monotonic_and_nvlink_beats_pcie) {
    hwfit_collective_in lines[2] = {node_of("rtx-pro-6000-server"), node_of("h100-sxm")};
    hwfit_chart_collective_in in;
    hwfit_chart_collective_init(&in);
    in.series_count = 2;
    in.series = lines;
    hwfit__chart_collective d;
    cr_assert_eq(hwfit__chart_collective_data(&in, &d), HWFIT_OK);
    for (size_t s = 0; s < 2; s++)
        for (size_t i = 1; i < d.point_count; i++) {
            /* Doubling the message never makes it faster; the latency term is shared, so
             * the bandwidth per byte never falls (nccl-tests' curves climb to a plateau).
             * 1e-12 relative slack: the algorithm and protocol chosen may change. */
            cr_assert_gt(d.time_s[s][i], d.time_s[s][i - 1], "series %zu size %zu", s, i);
            cr_assert_geq(d.busbw_bytes_per_s[s][i] * (1.0 + 1e-12),
                          d.busbw_bytes_per_s[s][i - 1], "series %zu size %zu", s, i);
        }
    size_t last = d.point_count - 1;
    cr_assert_gt(d.busbw_bytes_per_s[1][last], d.busbw_bytes_per_s[0][last]);
}

Test(chart, collective_names_lead_the_labels) {
    hwfit_collective_in lines[2] = {node_of("rtx-pro-6000-server"), node_of("h100-sxm")};
    lines[0].topology.p2p = HWFIT_TOPOLOGY_ON;
    lines[0].op = lines[1].op = HWFIT_COLLECTIVE_ALLGATHER;
    const char *names[2] = {"seed", "hgx"};
    hwfit_chart_collective_in in;
    hwfit_chart_collective_init(&in);
    in.series_count = 2;
    in.series = lines;
    in.names = names;
    in.min_bytes = 1024.0;
    in.max_bytes = 1024.0;
    in.metric = HWFIT_CHART_TIME;
    hwfit__chart_collective d;
    cr_assert_eq(hwfit__chart_collective_data(&in, &d), HWFIT_OK);
    cr_assert_eq(d.point_count, 1);
    cr_assert_str_eq(d.labels[0], "seed: 8 ranks, PCIe Gen5 x16, P2P");
    cr_assert_str_eq(d.labels[1], "hgx: 8 ranks, NVLink");
    cr_assert_str_eq(d.title, "Time of all-gather by message size");
    /* Two nodes joined by RoCE: the label says the links are those within the nodes. */
    lines[1].topology.nodes = 2;
    cr_assert_eq(hwfit_topology_parse_nic("2x400g-roce", &lines[1].topology), HWFIT_OK);
    cr_assert_eq(hwfit__chart_collective_data(&in, &d), HWFIT_OK);
    cr_assert_str_eq(d.labels[1], "hgx: 16 ranks on 2 nodes, NVLink within nodes");
    /* A size that is not a power of two: 3 KiB, 6 KiB, 12 KiB up to 20 KiB. */
    in.min_bytes = 3072.0;
    in.max_bytes = 20480.0;
    cr_assert_eq(hwfit__chart_collective_data(&in, &d), HWFIT_OK);
    cr_assert_eq(d.point_count, 3);
    cr_assert_eq(d.bytes[2], 12288.0);
}

Test(chart, collective_metric_names_round_trip) {
    for (int m = 0; m < 3; m++) {
        hwfit_chart_metric back = (hwfit_chart_metric)7;
        cr_assert_eq(hwfit_chart_metric_from_name(hwfit_chart_metric_name((hwfit_chart_metric)m),
                                                  &back),
                     HWFIT_OK);
        cr_assert_eq((int)back, m);
    }
    cr_assert_str_eq(hwfit_chart_metric_name(HWFIT_CHART_TIME), "time");
    cr_assert_str_eq(hwfit_chart_metric_name((hwfit_chart_metric)9), "unknown");
    hwfit_chart_metric m = (hwfit_chart_metric)7;
    cr_assert_eq(hwfit_chart_metric_from_name("bandwidth", &m), HWFIT_ENOTFOUND);
    cr_assert_eq(hwfit_chart_metric_from_name(NULL, &m), HWFIT_EINVAL);
    cr_assert_eq(hwfit_chart_metric_from_name("time", NULL), HWFIT_EINVAL);
    cr_assert_eq((int)m, 7);
}

/* ---- power ------------------------------------------------------------------------------ */

Test(chart, power_bars_and_lines_are_the_budget_and_psu_results) {
    hwfit_power_budget_in b;
    hwfit_psu_in p;
    seed_power(&b, &p);
    hwfit__chart_power d;
    cr_assert_eq(hwfit__chart_power_data(&b, &p, NULL, &d), HWFIT_OK);
    /* 8 x 600 + 2 x 400 + 24 x 10 + 4 x 18 + 2 x 25 + 10 x 40 + 100 = 6462 W. */
    cr_assert_eq(d.bar_count, 7);
    double sum = 0.0;
    for (size_t i = 0; i < d.bar_count; i++) sum += d.values[i];
    cr_assert_eq(sum, 6462.0);
    cr_assert_eq(d.values[0], 4800.0);
    cr_assert_str_eq(d.bar_labels[0], "8 x GPU");
    cr_assert_str_eq(d.bar_labels[6], "1 x Board");
    /* The same PSU evaluation as `hwfit power` runs: load = the budget's total. */
    hwfit_psu_in q = p;
    q.load_w = 6462.0;
    q.peak_load_w = 6462.0;
    hwfit_psu_out o;
    cr_assert_eq(hwfit_psu_evaluate(&q, &o), HWFIT_OK);
    cr_assert_eq(d.reference_count, 3, "no peak line: the transient factor is 1");
    cr_assert_eq(d.reference_values[0], 6400.0, "usable: 2 of 4 x 3200 W (N+2)");
    cr_assert_eq(d.reference_values[0], o.usable_w);
    /* The headroom limit: usable / 1.3 = 4923.1 W, the largest load the rule allows. */
    cr_assert_float_eq(d.reference_values[1], 6400.0 / 1.3, 1e-9);
    cr_assert_float_eq(d.reference_values[1] * p.headroom_ratio, o.usable_w, 1e-9);
    cr_assert_eq(d.reference_values[2], o.wall_w);
    cr_assert_gt(o.wall_w, 6462.0, "wall power exceeds the DC load by the PSU losses");
    cr_assert_str_eq(d.reference_labels[0], "Usable PSU capacity (2 of 4 x 3.2 kW)");
    cr_assert_str_eq(d.reference_labels[1], "Headroom limit (usable / 1.3)");
}

Test(chart, power_peak_line_and_load_alone) {
    hwfit_power_budget_in b;
    hwfit_psu_in p;
    seed_power(&b, &p);
    b.gpu_transient_factor = 1.28; /* 10 ms excursions of an RTX 5090 (power.h) */
    hwfit__chart_power d;
    cr_assert_eq(hwfit__chart_power_data(&b, &p, NULL, &d), HWFIT_OK);
    cr_assert_eq(d.reference_count, 4);
    cr_assert_float_eq(d.reference_values[3], 6462.0 + 4800.0 * 0.28, 1e-9);
    /* Without a budget: the PSU load alone, no total bar. */
    p.load_w = 5000.0;
    cr_assert_eq(hwfit__chart_power_data(NULL, &p, NULL, &d), HWFIT_OK);
    cr_assert_eq(d.has_budget, 0);
    cr_assert_eq(d.bar_count, 1);
    cr_assert_eq(d.values[0], 5000.0);
    cr_assert_str_eq(d.bar_labels[0], "DC load");
}

/* ---- RAID ------------------------------------------------------------------------------- */

Test(chart, raid_parts_add_up_to_raw) {
    hwfit_raid_in r = raidz2_with_spare();
    hwfit__chart_raid d;
    cr_assert_eq(hwfit__chart_raid_data(&r, NULL, &d), HWFIT_OK);
    hwfit_raid_out o;
    cr_assert_eq(hwfit_raid_evaluate(&r, &o), HWFIT_OK);
    cr_assert_eq(d.bar_count, 4);
    cr_assert_eq(d.values[0], o.usable_bytes);
    cr_assert_eq(d.values[2], o.slop_bytes);
    cr_assert_eq(d.values[3], 15.36e12);
    double sum = d.values[0] + d.values[1] + d.values[2] + d.values[3];
    /* Raw = 8 x 15.36 TB; the parts are differences of it, exact to rounding. */
    cr_assert_float_eq(sum, 8 * 15.36e12, 1e-3);
    cr_assert_str_eq(d.bar_labels[1], "Parity and padding");
    cr_assert_str_eq(d.title, "raidz2 of 8 x 15.36 TB: usable against raw capacity");
}

Test(chart, raid_levels_name_their_redundancy) {
    hwfit_raid_in r;
    hwfit_raid_init(&r);
    r.drives = 4;
    r.drive_bytes = 15.36e12;
    hwfit__chart_raid d;
    cr_assert_eq(hwfit_raid_level_parse("0", &r.layout), HWFIT_OK);
    cr_assert_eq(hwfit__chart_raid_data(&r, NULL, &d), HWFIT_OK);
    cr_assert_eq(d.bar_count, 1, "RAID 0 spends nothing: usable only");
    cr_assert_eq(d.values[0], 4 * 15.36e12);
    cr_assert_eq(hwfit_raid_level_parse("10", &r.layout), HWFIT_OK);
    cr_assert_eq(hwfit__chart_raid_data(&r, NULL, &d), HWFIT_OK);
    cr_assert_str_eq(d.bar_labels[1], "Mirror copies");
    cr_assert_eq(d.values[0], d.values[1], "two copies: half usable, half mirror");
    cr_assert_eq(hwfit_raid_level_parse("6", &r.layout), HWFIT_OK);
    cr_assert_eq(hwfit__chart_raid_data(&r, NULL, &d), HWFIT_OK);
    cr_assert_str_eq(d.bar_labels[1], "Parity");
    cr_assert_eq(d.values[1], 2 * 15.36e12);
}

/* ---- the SVG documents and the buffer protocol ----------------------------------------- */

typedef hwfit_status (*chart_fn)(const void *ctx, char *buf, size_t size, size_t *needed);

typedef struct memory_ctx {
    const hwfit_model *model;
    hwfit_shard_in in;
} memory_ctx;

static hwfit_status call_memory(const void *ctx, char *buf, size_t size, size_t *needed) {
    const memory_ctx *m = ctx;
    return hwfit_chart_memory(m->model, &m->in, NULL, buf, size, needed);
}

static hwfit_status call_collective(const void *ctx, char *buf, size_t size, size_t *needed) {
    return hwfit_chart_collective(ctx, buf, size, needed);
}

typedef struct power_ctx {
    hwfit_power_budget_in budget;
    hwfit_psu_in psu;
} power_ctx;

static hwfit_status call_power(const void *ctx, char *buf, size_t size, size_t *needed) {
    const power_ctx *p = ctx;
    return hwfit_chart_power(&p->budget, &p->psu, NULL, buf, size, needed);
}

static hwfit_status call_raid(const void *ctx, char *buf, size_t size, size_t *needed) {
    return hwfit_chart_raid(ctx, NULL, buf, size, needed);
}

/* The document, through the two-call protocol, checked for the protocol's promises. */
static char *render(chart_fn fn, const void *ctx) {
    size_t need = 0;
    cr_assert_eq(fn(ctx, NULL, 0, &need), HWFIT_EBUFSIZE);
    cr_assert_gt(need, 100);
    char *doc = malloc(need);
    cr_assert_not_null(doc);
    /* One byte short: untouched. */
    memset(doc, 0x5a, need);
    size_t again = 0;
    cr_assert_eq(fn(ctx, doc, need - 1, &again), HWFIT_EBUFSIZE);
    cr_assert_eq(again, need);
    cr_assert_eq((unsigned char)doc[0], 0x5a);
    cr_assert_eq(fn(ctx, doc, need, &again), HWFIT_OK);
    cr_assert_eq(strlen(doc) + 1, need);
    cr_assert(strncmp(doc, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 44) == 0);
    cr_assert(strcmp(doc + need - 8, "</svg>\n") == 0);
    /* Deterministic: the same bytes again. */
    char *twice = malloc(need);
    cr_assert_eq(fn(ctx, twice, need, NULL), HWFIT_OK);
    cr_assert(memcmp(doc, twice, need) == 0);
    free(twice);
    return doc;
}

static size_t count_of(const char *doc, const char *what) {
    size_t n = 0;
    for (const char *p = strstr(doc, what); p != NULL; p = strstr(p + 1, what)) n++;
    return n;
}

Test(chart, memory_document_draws_one_rect_per_nonzero_segment) {
    memory_ctx m = {&llama70, qlora_tp2_pp4()};
    char *doc = render(call_memory, &m);
    hwfit__chart_memory d;
    cr_assert_eq(hwfit__chart_memory_data(&llama70, &m.in, NULL, &d), HWFIT_OK);
    size_t nonzero = 0;
    for (size_t k = 0; k < d.bar_count * d.segment_count; k++) nonzero += d.values[k] > 0.0;
    cr_assert_eq(count_of(doc, "class=\"segment\""), nonzero);
    cr_assert_eq(count_of(doc, "class=\"capacity\""), 1);
    cr_assert(strstr(doc, "Usable per card: 92.77 GB") != NULL, "usable = 0.9 x 96 GiB");
    free(doc);
}

Test(chart, power_and_raid_documents_have_their_lines) {
    power_ctx p;
    seed_power(&p.budget, &p.psu);
    char *doc = render(call_power, &p);
    cr_assert_eq(count_of(doc, "data-reference="), 3);
    cr_assert(strstr(doc, "Usable PSU capacity (2 of 4 x 3.2 kW): 6.4 kW") != NULL);
    cr_assert(strstr(doc, "DC total") != NULL);
    free(doc);
    hwfit_raid_in r = raidz2_with_spare();
    doc = render(call_raid, &r);
    cr_assert(strstr(doc, ">Raw</text>") != NULL);
    cr_assert_eq(count_of(doc, "class=\"bar\""), 4);
    free(doc);
}

/* ---- error paths ------------------------------------------------------------------------ */

/* Expect `call` to fail with `want` and leave buf and needed as they were. */
#define EXPECT_UNTOUCHED(call_expr, want)                                                   \
    do {                                                                                    \
        memset(buf, 0x5a, sizeof buf);                                                      \
        needed = 777;                                                                       \
        hwfit_status st_ = (call_expr);                                                     \
        cr_assert_eq(st_, (want), "%s: got %s", #call_expr, hwfit_status_name(st_));         \
        cr_assert_eq(needed, 777, "%s touched needed", #call_expr);                         \
        cr_assert_eq((unsigned char)buf[0], 0x5a, "%s touched buf", #call_expr);             \
    } while (0)

Test(chart, memory_errors_leave_outputs_untouched) {
    char buf[64];
    size_t needed;
    hwfit_shard_in in = serve_tp8();
    hwfit_chart_options opt;
    hwfit_chart_options_init(&opt);
    EXPECT_UNTOUCHED(hwfit_chart_memory(NULL, &in, NULL, buf, sizeof buf, &needed), HWFIT_EINVAL);
    EXPECT_UNTOUCHED(hwfit_chart_memory(&llama70, NULL, NULL, buf, sizeof buf, &needed),
                     HWFIT_EINVAL);
    EXPECT_UNTOUCHED(hwfit_chart_memory(&llama70, &in, NULL, NULL, 10, &needed), HWFIT_EINVAL);
    hwfit_shard_in bad = in;
    bad.layout.tp = 3; /* 64 heads are not divisible by 3 */
    bad.gpus = 3;
    EXPECT_UNTOUCHED(hwfit_chart_memory(&llama70, &bad, NULL, buf, sizeof buf, &needed),
                     HWFIT_ELAYOUT);
    bad = in;
    bad.capacity_bytes = -1.0;
    EXPECT_UNTOUCHED(hwfit_chart_memory(&llama70, &bad, NULL, buf, sizeof buf, &needed),
                     HWFIT_EDOM);
    bad = in;
    bad.memory.mode = (hwfit_memory_mode)42;
    EXPECT_UNTOUCHED(hwfit_chart_memory(&llama70, &bad, NULL, buf, sizeof buf, &needed),
                     HWFIT_EINVAL);
    bad = in;
    bad.memory.mode = HWFIT_MEMORY_FULL;
    cr_assert_eq(hwfit_dtype_parse("int4", &bad.memory.weights), HWFIT_OK);
    EXPECT_UNTOUCHED(hwfit_chart_memory(&llama70, &bad, NULL, buf, sizeof buf, &needed),
                     HWFIT_EUNSUPPORTED);
    opt.width_px = 100.0; /* below HWFIT_SVG_SIZE_MIN_PX */
    EXPECT_UNTOUCHED(hwfit_chart_memory(&llama70, &in, &opt, buf, sizeof buf, &needed),
                     HWFIT_EDOM);
    opt.width_px = NAN;
    EXPECT_UNTOUCHED(hwfit_chart_memory(&llama70, &in, &opt, buf, sizeof buf, &needed),
                     HWFIT_EDOM);
    /* A buffer too small: EBUFSIZE, needed set, buf untouched. */
    memset(buf, 0x5a, sizeof buf);
    cr_assert_eq(hwfit_chart_memory(&llama70, &in, NULL, buf, sizeof buf, &needed),
                 HWFIT_EBUFSIZE);
    cr_assert_gt(needed, sizeof buf);
    cr_assert_eq((unsigned char)buf[0], 0x5a);
    hwfit__chart_memory d;
    cr_assert_eq(hwfit__chart_memory_data(NULL, &in, NULL, &d), HWFIT_EINVAL);
    cr_assert_eq(hwfit__chart_memory_data(&llama70, &in, NULL, NULL), HWFIT_EINVAL);
}

Test(chart, collective_errors_leave_outputs_untouched) {
    char buf[64];
    size_t needed;
    hwfit_collective_in lines[HWFIT_CHART_MAX_SERIES + 1];
    for (size_t i = 0; i <= HWFIT_CHART_MAX_SERIES; i++) lines[i] = node_of("rtx-pro-6000-server");
    const char *names[2] = {"a", NULL};
    hwfit_chart_collective_in ok;
    hwfit_chart_collective_init(&ok);
    ok.series_count = 1;
    ok.series = lines;
    hwfit_chart_collective_in in = ok;
    EXPECT_UNTOUCHED(hwfit_chart_collective(NULL, buf, sizeof buf, &needed), HWFIT_EINVAL);
    EXPECT_UNTOUCHED(hwfit_chart_collective(&in, NULL, 5, &needed), HWFIT_EINVAL);
#define CASE(change, want)                                                                   \
    do {                                                                                     \
        in = ok;                                                                             \
        change;                                                                              \
        EXPECT_UNTOUCHED(hwfit_chart_collective(&in, buf, sizeof buf, &needed), want);      \
    } while (0)
    CASE(in.series = NULL, HWFIT_EINVAL);
    CASE((in.series_count = 2, in.names = names), HWFIT_EINVAL);
    CASE(in.metric = (hwfit_chart_metric)3, HWFIT_EINVAL);
    CASE(in.series_count = 0, HWFIT_EDOM);
    CASE(in.series_count = HWFIT_CHART_MAX_SERIES + 1, HWFIT_EDOM);
    CASE(in.min_bytes = 0.5, HWFIT_EDOM);
    CASE(in.min_bytes = NAN, HWFIT_EDOM);
    CASE(in.max_bytes = 4.0, HWFIT_EDOM); /* below min_bytes */
    CASE(in.max_bytes = 2e18, HWFIT_EDOM);
    CASE(in.options.height_px = 20000.0, HWFIT_EDOM);
    CASE(lines[0].topology.gpus_per_node = 0, HWFIT_EDOM);
    lines[0] = node_of("rtx-pro-6000-server");
    CASE(lines[0].algorithm = HWFIT_COLLECTIVE_ALGO_NVLS, HWFIT_EUNSUPPORTED);
    lines[0] = node_of("rtx-pro-6000-server");
    CASE(lines[0].op = (hwfit_collective_op)99, HWFIT_EINVAL);
    lines[0] = node_of("rtx-pro-6000-server");
#undef CASE
    /* The largest sweep, 1 B to 1e18 B: 60 sizes, within HWFIT_CHART_MAX_POINTS. */
    in = ok;
    in.min_bytes = 1.0;
    in.max_bytes = 1e18;
    hwfit__chart_collective d;
    cr_assert_eq(hwfit__chart_collective_data(&in, &d), HWFIT_OK);
    cr_assert_eq(d.point_count, 60);
    cr_assert_eq(hwfit__chart_collective_data(&in, NULL), HWFIT_EINVAL);
}

Test(chart, power_and_raid_errors_leave_outputs_untouched) {
    char buf[64];
    size_t needed;
    hwfit_power_budget_in b;
    hwfit_psu_in p;
    seed_power(&b, &p);
    EXPECT_UNTOUCHED(hwfit_chart_power(&b, NULL, NULL, buf, sizeof buf, &needed), HWFIT_EINVAL);
    EXPECT_UNTOUCHED(hwfit_chart_power(&b, &p, NULL, NULL, 1, &needed), HWFIT_EINVAL);
    hwfit_psu_in q = p;
    q.psus = 0;
    EXPECT_UNTOUCHED(hwfit_chart_power(&b, &q, NULL, buf, sizeof buf, &needed), HWFIT_EDOM);
    q = p;
    q.psu_class = (hwfit_psu_class)40;
    EXPECT_UNTOUCHED(hwfit_chart_power(&b, &q, NULL, buf, sizeof buf, &needed), HWFIT_EINVAL);
    q = p;
    q.input_voltage_v = 120.0; /* low line without a low-line rating */
    EXPECT_UNTOUCHED(hwfit_chart_power(&b, &q, NULL, buf, sizeof buf, &needed),
                     HWFIT_EUNSUPPORTED);
    hwfit_power_budget_in c = b;
    c.gpu_transient_factor = 0.5;
    EXPECT_UNTOUCHED(hwfit_chart_power(&c, &p, NULL, buf, sizeof buf, &needed), HWFIT_EDOM);
    c = b;
    c.components[0].kind = (hwfit_power_component_kind)77;
    EXPECT_UNTOUCHED(hwfit_chart_power(&c, &p, NULL, buf, sizeof buf, &needed), HWFIT_EINVAL);
    q = p;
    q.load_w = 0.0; /* no budget and no load */
    EXPECT_UNTOUCHED(hwfit_chart_power(NULL, &q, NULL, buf, sizeof buf, &needed), HWFIT_EDOM);

    hwfit_raid_in r = raidz2_with_spare();
    EXPECT_UNTOUCHED(hwfit_chart_raid(NULL, NULL, buf, sizeof buf, &needed), HWFIT_EINVAL);
    EXPECT_UNTOUCHED(hwfit_chart_raid(&r, NULL, NULL, 3, &needed), HWFIT_EINVAL);
    hwfit_raid_in s = r;
    s.drives = 0;
    EXPECT_UNTOUCHED(hwfit_chart_raid(&s, NULL, buf, sizeof buf, &needed), HWFIT_EDOM);
    s = r;
    s.layout.level = (hwfit_raid_level)50;
    EXPECT_UNTOUCHED(hwfit_chart_raid(&s, NULL, buf, sizeof buf, &needed), HWFIT_EINVAL);
    hwfit_chart_options opt;
    hwfit_chart_options_init(&opt);
    opt.height_px = 150.0;
    EXPECT_UNTOUCHED(hwfit_chart_raid(&r, &opt, buf, sizeof buf, &needed), HWFIT_EDOM);
    EXPECT_UNTOUCHED(hwfit_chart_power(&b, &p, &opt, buf, sizeof buf, &needed), HWFIT_EDOM);
    hwfit__chart_raid d;
    cr_assert_eq(hwfit__chart_raid_data(&r, NULL, NULL), HWFIT_EINVAL);
    hwfit__chart_power e;
    cr_assert_eq(hwfit__chart_power_data(&b, &p, NULL, NULL), HWFIT_EINVAL);
    (void)d;
    (void)e;
}

Test(chart, options_init_and_own_titles) {
    hwfit_chart_options opt;
    memset(&opt, 0x5a, sizeof opt);
    hwfit_chart_options_init(&opt);
    cr_assert_null(opt.title);
    cr_assert_eq(opt.width_px, 800.0);
    cr_assert_eq(opt.height_px, 480.0);
    hwfit_chart_options_init(NULL);
    hwfit_chart_collective_init(NULL);
    /* A title given replaces the chart's own; "" means none. */
    hwfit_raid_in r = raidz2_with_spare();
    hwfit__chart_raid d;
    opt.title = "Scratch <array> & \"co\"";
    cr_assert_eq(hwfit__chart_raid_data(&r, &opt, &d), HWFIT_OK);
    cr_assert_str_eq(d.title, "Scratch <array> & \"co\"");
    char doc[8192];
    cr_assert_eq(hwfit_chart_raid(&r, &opt, doc, sizeof doc, NULL), HWFIT_OK);
    cr_assert(strstr(doc, "Scratch &lt;array&gt; &amp; &quot;co&quot;") != NULL);
    opt.title = "";
    cr_assert_eq(hwfit_chart_raid(&r, &opt, doc, sizeof doc, NULL), HWFIT_OK);
    cr_assert(strstr(doc, "class=\"title\"") == NULL);
}

/* ---- golden files ----------------------------------------------------------------------- */

static void golden(const char *name, chart_fn fn, const void *ctx) {
    char path[1024];
    snprintf(path, sizeof path, "%s/chart/%s", HWFIT_TEST_DATA, name);
    char *doc = render(fn, ctx);
    const char *regen = getenv("HWFIT_CHART_REGENERATE");
    if (regen != NULL && regen[0] == '1') {
        FILE *f = fopen(path, "wb");
        cr_assert_not_null(f, "cannot write %s", path);
        fputs(doc, f);
        fclose(f);
    }
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot read %s (regenerate: see the top of this file)", path);
    static char want[1 << 17];
    size_t n = fread(want, 1, sizeof want - 1, f);
    fclose(f);
    want[n] = '\0';
    cr_assert_eq(n, strlen(doc), "%s: %zu bytes, now %zu (see the top of this file)", name, n,
                 strlen(doc));
    cr_assert(memcmp(want, doc, n) == 0, "%s differs from the golden file", name);
    free(doc);
}

Test(chart, golden_memory) {
    memory_ctx m = {&llama70, qlora_tp2_pp4()};
    golden("memory.svg", call_memory, &m);
}

Test(chart, golden_collective) {
    hwfit_collective_in lines[2] = {node_of("rtx-pro-6000-server"), node_of("h100-sxm")};
    const char *names[2] = {"rtx-pro-6000-server", "h100-sxm"};
    hwfit_chart_collective_in in;
    hwfit_chart_collective_init(&in);
    in.series_count = 2;
    in.series = lines;
    in.names = names;
    golden("collective.svg", call_collective, &in);
}

Test(chart, golden_power) {
    power_ctx p;
    seed_power(&p.budget, &p.psu);
    golden("power.svg", call_power, &p);
}

Test(chart, golden_raid) {
    hwfit_raid_in r = raidz2_with_spare();
    golden("raid.svg", call_raid, &r);
}

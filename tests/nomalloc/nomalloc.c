/* Calculations do not allocate: every calculation entry point, called on valid inputs,
 * must not call malloc, calloc, realloc or free. The program is linked with the library's
 * objects and -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free, so every call
 * the library makes to them lands in the counters below; CALL() runs one entry point and
 * names it when it allocated. The readers (node files, config.json) may allocate: they run
 * before, outside the counted calls. The request layer (hwfit_request_*) allocates as
 * documented and is not checked here.
 *
 * KNOWN lists the entry points that still allocate (the collective model's link-load
 * scratch, about 7 KB, and what calls it; the chart and report state): each must still
 * allocate (so the list only shrinks: remove a name when its call stops allocating) and
 * nothing else may. Every allocating call is printed either way.
 *
 * A plain program (Criterion allocates around each test). Exit status 0 passes. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit.h"
#include "../fixtures.h"

#ifndef HWFIT_SOURCE_DIR
#  define HWFIT_SOURCE_DIR "."
#endif

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);

static unsigned long allocations;

void *__wrap_malloc(size_t n) {
    allocations++;
    return __real_malloc(n);
}
void *__wrap_calloc(size_t n, size_t size) {
    allocations++;
    return __real_calloc(n, size);
}
void *__wrap_realloc(void *p, size_t n) {
    allocations++;
    return __real_realloc(p, n);
}
void __wrap_free(void *p) {
    if (p != NULL) allocations++;
    __real_free(p);
}

static int failures, calls;

/* Entry points that still allocate, to be fixed (see the top). */
static const char *const KNOWN[] = {
    "hwfit_collective_estimate", "hwfit_collective_validate", "hwfit_collective_estimate_batch",
    "hwfit_collective_step",     "hwfit_collective_step_validate",
    "hwfit_perf_estimate",       "hwfit_perf_validate",      "hwfit_perf_plan",
    "hwfit_node_check",          "hwfit_node_evaluate",      "hwfit_assess_ws",
    "hwfit_chart_memory",        "hwfit_chart_collective",   "hwfit_report_html",
};
#define KNOWN_COUNT (sizeof KNOWN / sizeof KNOWN[0])
static int known_seen[KNOWN_COUNT];

/* The index in KNOWN of the function a call text starts with, or -1. */
static int known(const char *call) {
    size_t n = strcspn(call, "(");
    for (size_t i = 0; i < KNOWN_COUNT; i++)
        if (strlen(KNOWN[i]) == n && strncmp(KNOWN[i], call, n) == 0) return (int)i;
    return -1;
}

static void allocated(const char *call, unsigned long made, int line) {
    int k = known(call);
    if (k >= 0) {
        known_seen[k] = 1;
        printf("known, to fix: %s allocates (%lu calls)\n", call, made);
        return;
    }
    fprintf(stderr, "nomalloc.c:%d: ALLOCATES: %s (%lu calls to malloc/calloc/realloc/free)\n",
            line, call, made);
    failures++;
}

/* Run one call; it must return HWFIT_OK (or `ok2`) and not allocate. */
#define CALL_OR(ok2, call)                                                                \
    do {                                                                                  \
        unsigned long before_ = allocations;                                              \
        hwfit_status st_ = (call);                                                        \
        unsigned long made_ = allocations - before_;                                      \
        calls++;                                                                          \
        if (st_ != HWFIT_OK && st_ != (ok2)) {                                            \
            fprintf(stderr, "nomalloc.c:%d: %s returned %s\n", __LINE__, #call,           \
                    hwfit_status_str(st_));                                               \
            failures++;                                                                   \
        }                                                                                 \
        if (made_ != 0) allocated(#call, made_, __LINE__);                                \
    } while (0)
#define CALL(call) CALL_OR(HWFIT_OK, call)

#define NEED(cond)                                                                        \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "nomalloc.c:%d: setup failed: %s\n", __LINE__, #cond);        \
            exit(2);                                                                      \
        }                                                                                 \
    } while (0)

static hwfit_model llama, deepseek;

static void models(void) {
    fixture_llama_3_1_8b(&llama);
    NEED(fixture_deepseek_v3(&deepseek) == HWFIT_OK);
}

static char svg[1 << 20];
static char html[1 << 22];
static hwfit_finding findings[256];
static hwfit_model wmodels[2];
static hwfit_assess_workload workloads[2];
static unsigned char workspace[1 << 20] __attribute__((aligned(64)));

static void model_memory(void) {
    const hwfit_model *ms[2] = {&llama, &deepseek};
    for (int i = 0; i < 2; i++) {
        hwfit_model_param_counts p;
        CALL(hwfit_model_params(ms[i], &p));
        CALL(hwfit_model_check(ms[i]));
        hwfit_model_kv_in kin;
        hwfit_model_kv_init(&kin);
        hwfit_model_kv_out kv;
        CALL(hwfit_model_kv(ms[i], &kin, &kv));
        hwfit_model_flops_out f;
        CALL(hwfit_model_flops(ms[i], 4096, &f));
        hwfit_model_range r;
        CALL(hwfit_model_layer_range(ms[i], 1, 2, &r));
        hwfit_problem pr;
        CALL(hwfit_model_validate(ms[i], &pr));
        hwfit_memory_in in;
        hwfit_memory_init(&in);
        hwfit_memory_out o;
        CALL(hwfit_memory_estimate(ms[i], &in, &o));
        CALL(hwfit_memory_validate(ms[i], &in, &pr));
        in.mode = HWFIT_MEMORY_FULL;
        CALL(hwfit_memory_estimate(ms[i], &in, &o));
    }
}

static hwfit_shard_in shard_in(int training) {
    hwfit_shard_in in;
    hwfit_shard_init(&in);
    in.gpus = 8;
    in.capacity_bytes = 80e9;
    in.layout.tp = 8;
    in.memory.mode = training ? HWFIT_MEMORY_FULL : HWFIT_MEMORY_INFERENCE;
    return in;
}

static void shard(void) {
    const hwfit_model *ms[2] = {&llama, &deepseek};
    for (int i = 0; i < 2; i++) {
        for (int training = 0; training < 2; training++) {
            hwfit_shard_in in = shard_in(training);
            hwfit_shard_out o;
            hwfit_shard_reason why;
            hwfit_problem pr;
            CALL(hwfit_shard_check(ms[i], &in, &why));
            CALL(hwfit_shard_estimate(ms[i], &in, &o));
            CALL(hwfit_shard_validate(ms[i], &in, &pr));
            NEED(hwfit_shard_workspace_size() <= sizeof workspace);
            CALL(hwfit_shard_estimate_ws(ms[i], &in, &o, workspace, sizeof workspace));
            NEED(hwfit_shard_cache_size() <= sizeof workspace);
            CALL(hwfit_shard_cache_init(workspace, sizeof workspace));
            CALL(hwfit_shard_estimate_cached(ms[i], &in, &o, workspace, sizeof workspace));
            CALL(hwfit_shard_estimate_cached(ms[i], &in, &o, workspace, sizeof workspace));
            hwfit_shard_in ins[3] = {in, in, in};
            ins[1].memory.context = 8192;
            ins[2].memory.batch = 4;
            hwfit_shard_out outs[3];
            hwfit_status sts[3];
            CALL(hwfit_shard_estimate_batch(ms[i], ins, 3, outs, sts));
            CALL(hwfit_shard_estimate_batch_ws(ms[i], ins, 3, outs, sts, workspace,
                                               sizeof workspace));
            hwfit_shard_card card;
            CALL(hwfit_shard_card_at(ms[i], &in, 0, &card));
            uint64_t most;
            CALL(hwfit_shard_max_context(ms[i], &in, 1u << 20, &most));
            CALL(hwfit_shard_max_batch(ms[i], &in, 1024, &most));
            hwfit_shard_space sp;
            hwfit_shard_space_init(&sp);
            hwfit_shard_result res[4];
            hwfit_shard_search_out sum;
            CALL(hwfit_shard_search(ms[i], &in, &sp, res, 4, &sum));
            uint32_t gpus;
            hwfit_layout l;
            CALL_OR(HWFIT_ENOTFOUND, hwfit_shard_min_gpus(ms[i], &in, &sp, 16, &gpus, &l));
        }
    }
}

static void perf(void) {
    const hwfit_gpu *gpu = NULL;
    NEED(hwfit_gpu_find("h100-sxm", &gpu) == HWFIT_OK);
    for (int training = 0; training < 2; training++) {
        hwfit_perf_in in;
        hwfit_perf_init(&in);
        NEED(hwfit_perf_set_gpu(&in, gpu) == HWFIT_OK);
        in.shard = shard_in(training);
        in.shard.memory.batch = 16;
        in.target_tokens_per_s = 1000.0;
        hwfit_perf_out o;
        hwfit_problem pr;
        CALL(hwfit_perf_estimate(&llama, &in, &o));
        CALL(hwfit_perf_validate(&llama, &in, &pr));
        hwfit_shard_space sp;
        hwfit_shard_space_init(&sp);
        hwfit_perf_result res[4];
        hwfit_shard_search_out sum;
        CALL(hwfit_perf_plan(&llama, &in, &sp, res, 4, &sum));
    }
}

static void collective(void) {
    const hwfit_gpu *gpu = NULL;
    NEED(hwfit_gpu_find("h100-sxm", &gpu) == HWFIT_OK);
    hwfit_collective_in ins[HWFIT_COLLECTIVE_SENDRECV + 1];
    for (int op = 0; op <= (int)HWFIT_COLLECTIVE_SENDRECV; op++) {
        hwfit_collective_in in;
        hwfit_collective_init(&in);
        hwfit_topology_set_gpu(&in.topology, gpu);
        in.topology.nodes = 2;
        NEED(hwfit_topology_parse_nic("8x400g-ib", &in.topology) == HWFIT_OK);
        in.op = (hwfit_collective_op)op;
        in.library = HWFIT_COLLECTIVE_LIBRARY_ANY;
        hwfit_collective_out o;
        hwfit_problem pr;
        CALL(hwfit_collective_estimate(&in, &o));
        CALL(hwfit_collective_validate(&in, &pr));
        ins[op] = in;
    }
    size_t n = sizeof ins / sizeof ins[0];
    hwfit_collective_out outs[sizeof ins / sizeof ins[0]];
    hwfit_status sts[sizeof ins / sizeof ins[0]];
    CALL(hwfit_collective_estimate_batch(ins, n, outs, sts));
    hwfit_collective_step_in s;
    hwfit_collective_step_init(&s);
    hwfit_topology_set_gpu(&s.topology, gpu);
    s.topology.nodes = 2;
    NEED(hwfit_topology_parse_nic("8x400g-ib", &s.topology) == HWFIT_OK);
    s.tp = 8;
    s.dp = 2;
    s.zero_stage = 1;
    s.layers_per_stage = 80;
    s.micro_batches = 8;
    s.tp_bytes = 64e6;
    s.grad_bytes = 2e9;
    s.param_bytes = 2e9;
    hwfit_collective_step_out so;
    hwfit_problem pr;
    CALL(hwfit_collective_step(&s, &so));
    CALL(hwfit_collective_step_validate(&s, &pr));
}

static void node_assess_pictures(void) {
    hwfit_node node;
    hwfit_error err;
    /* Readers: allowed to allocate (not counted). */
    NEED(hwfit_node_load(HWFIT_SOURCE_DIR "/examples/specs/hgx-h100.json", &node, &err) ==
         HWFIT_OK);
    static const char *const texts[] = {"serve:llama-3.1-70b:bf16:128K", "qlora:llama-3.1-70b"};
    for (size_t i = 0; i < 2; i++)
        NEED(hwfit_assess_workload_parse(texts[i], HWFIT_SOURCE_DIR "/tests/data/models",
                                         &workloads[i], &wmodels[i], &err) == HWFIT_OK);

    hwfit_node_eval ev;
    CALL(hwfit_node_check(&node, &err));
    CALL(hwfit_node_evaluate(&node, &ev));
    /* The other domain calls, on what the node derived. */
    hwfit_host_out ho;
    CALL(hwfit_host_evaluate(&ev.host_in, &ho));
    hwfit_raid_out ro;
    CALL(hwfit_raid_evaluate(&node.storage.raid, &ro));
    hwfit_transfer_out to;
    CALL(hwfit_transfer_estimate(&ev.nas_in, &to));
    hwfit_power_budget_out bo;
    CALL(hwfit_power_budget_evaluate(&ev.budget_in, &bo));
    hwfit_psu_out po;
    CALL(hwfit_psu_evaluate(&ev.psu_in, &po));
    hwfit_thermal_out tho;
    CALL(hwfit_thermal_evaluate(&ev.thermal_in, &tho));
    hwfit_energy_out eo;
    CALL(hwfit_energy_evaluate(&ev.energy_in, &eo));
    hwfit_tco_out tco;
    CALL(hwfit_tco_evaluate(&ev.tco_in, &tco));

    size_t count = 0, needed = 0;
    NEED(hwfit_assess_workspace_size() <= sizeof workspace);
    CALL(hwfit_assess_ws(&node, workloads, 2, NULL, findings, 256, &count, workspace,
                         sizeof workspace));
    CALL(hwfit_report_html(&node, workloads, 2, findings, count, NULL, html, sizeof html,
                           &needed));

    hwfit_shard_in in = shard_in(0);
    CALL(hwfit_chart_memory(&llama, &in, NULL, svg, sizeof svg, &needed));
    hwfit_collective_in line;
    hwfit_collective_init(&line);
    hwfit_chart_collective_in cc;
    hwfit_chart_collective_init(&cc);
    cc.series_count = 1;
    cc.series = &line;
    CALL(hwfit_chart_collective(&cc, svg, sizeof svg, &needed));
    CALL(hwfit_chart_power(&ev.budget_in, &ev.psu_in, NULL, svg, sizeof svg, &needed));
    CALL(hwfit_chart_raid(&node.storage.raid, NULL, svg, sizeof svg, &needed));

    static const char *const bars[] = {"a", "b"}, *const segs[] = {"x", "y"};
    static const double values[] = {1, 2, 3, 4}, xs[] = {1, 2, 4}, ys[] = {3, 1, 2};
    hwfit_svg_stacked_bars_in sb;
    hwfit_svg_stacked_bars_init(&sb);
    sb.bar_count = 2;
    sb.bar_labels = bars;
    sb.segment_count = 2;
    sb.segment_labels = segs;
    sb.values = values;
    CALL(hwfit_svg_stacked_bars(&sb, svg, sizeof svg, &needed));
    hwfit_svg_series se = {"s", xs, ys, 3};
    hwfit_svg_lines_in li;
    hwfit_svg_lines_init(&li);
    li.series_count = 1;
    li.series = &se;
    CALL(hwfit_svg_lines(&li, svg, sizeof svg, &needed));
    hwfit_svg_budget_in bu;
    hwfit_svg_budget_init(&bu);
    bu.bar_count = 2;
    bu.bar_labels = bars;
    bu.values = values;
    CALL(hwfit_svg_budget(&bu, svg, sizeof svg, &needed));
    CALL(hwfit_svg_escape("a < b & c", svg, sizeof svg, &needed));
}

int main(void) {
    models();
    model_memory();
    shard();
    perf();
    collective();
    node_assess_pictures();
    for (size_t i = 0; i < KNOWN_COUNT; i++)
        if (!known_seen[i]) {
            fprintf(stderr, "%s no longer allocates: remove it from KNOWN\n", KNOWN[i]);
            failures++;
        }
    printf("%d calculation calls checked, %d failed\n", calls, failures);
    return failures ? 1 : 0;
}

/* perf_plan: the layout search ranked by step time (issue 19 part B, issue 21 "Time") gives
 * exactly what the plain search gives, however fast it gets there.
 *
 * - reference: for several models, card counts and rankings, hwfit_perf_plan's top layouts,
 *   figures and counts equal, bit for bit, those of the search as it was before the speed
 *   work, written here in full: every valid layout of the enumeration timed by
 *   hwfit_perf_estimate and kept with the same rule (fitting first, then by score, ties in
 *   enumeration order). It follows the cost functions wherever they go.
 * - golden: the same cases' results as tests/data/golden/perf_plan.txt, written by the
 *   search before the speed work (pruning, memo tables, threads), then again after main's
 *   cost changes of train3 and finetune3 were merged (the reference test passing on both
 *   sides: the new file is the plain search's). A change of the step-time
 *   cost functions (perf.c train_step, step_comm, collective.c) changes the figures on
 *   purpose: then check that the reference test still passes and write the file again:
 *     HWFIT_GOLDEN_WRITE=tests/data/golden/perf_plan.txt build/dev/tests/test_perf_plan
 * - bound: the lower bound of the step time that the search prunes with never exceeds the
 *   step time of the full estimate, over every valid layout of several spaces.
 * - threads: 2, 3 and 8 threads give what one thread gives.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit.h"

#include "domains/perf_internal.h"
#include "domains/shard_iface.h"

static void load(const char *file, hwfit_model *m) {
    char path[512];
    snprintf(path, sizeof path, "%s/models/%s", HWFIT_TEST_DATA, file);
    hwfit_error err;
    cr_assert_eq(hwfit_hf_config_load(path, m, &err), HWFIT_OK, "%s: %s", file, err.message);
}

/* One search: a model, a workload on N H100 SXM with 8 x 400G InfiniBand, a space. */
typedef struct plan_case {
    const char *name, *model;
    hwfit_memory_mode mode;
    uint32_t gpus;
    uint64_t context, batch, global_batch, output_tokens;
    double capacity; /* 0: the H100's */
    int include_unfit;
    size_t top;
    uint64_t max_micro_batch;
} plan_case;

static const plan_case cases[] = {
    /* the benchmark's search: 48,768 valid layouts, ranked by training tokens/s */
    {"405b_training_1024", "llama-3.1-405b.config.json", HWFIT_MEMORY_FULL, 1024, 4096, 1, 0, 0,
     0, 0, 10, 8},
    /* one global batch for every layout: ranked by step time */
    {"70b_training_256_gbs512", "llama-3.1-70b.config.json", HWFIT_MEMORY_FULL, 256, 4096, 1,
     512, 0, 0, 0, 10, 8},
    /* MoE: expert parallelism, the layouts that do not fit ranked after those that do */
    {"mixtral_training_64_unfit", "mixtral-8x7b-instruct-v0.1.config.json", HWFIT_MEMORY_FULL,
     64, 4096, 1, 0, 0, 0, 1, 40, 8},
    {"qwen3_30b_a3b_training_128_gbs256", "qwen3-30b-a3b.config.json", HWFIT_MEMORY_FULL, 128,
     4096, 1, 256, 0, 0, 0, 10, 4},
    /* a small card: few layouts fit, all of them kept */
    {"8b_training_8_24gb", "llama-3.1-8b.config.json", HWFIT_MEMORY_FULL, 8, 8192, 1, 0, 0,
     24e9, 1, 60, 8},
    /* inference: ranked by decode tokens/s */
    {"70b_inference_16", "llama-3.1-70b.config.json", HWFIT_MEMORY_INFERENCE, 16, 8192, 64, 0,
     1024, 0, 0, 10, 8},
    /* LoRA on a sliding-window model */
    {"gemma2_27b_lora_32", "gemma-2-27b.config.json", HWFIT_MEMORY_LORA, 32, 8192, 1, 64, 0, 0,
     0, 10, 8},
};
#define CASES (sizeof cases / sizeof cases[0])
#define MAX_TOP 64

static void setup_case(const plan_case *pc, hwfit_model *m, hwfit_perf_in *in,
                       hwfit_shard_space *space) {
    load(pc->model, m);
    const hwfit_gpu *h100;
    cr_assert_eq(hwfit_gpu_find("h100-sxm", &h100), HWFIT_OK);
    hwfit_perf_init(in);
    cr_assert_eq(hwfit_perf_set_gpu(in, h100), HWFIT_OK);
    cr_assert_eq(hwfit_topology_parse_nic("8x400g-ib", &in->topology), HWFIT_OK);
    in->shard.memory.mode = pc->mode;
    in->shard.memory.context = pc->context;
    in->shard.memory.batch = pc->batch;
    in->shard.gpus = pc->gpus;
    if (pc->capacity > 0.0) in->shard.capacity_bytes = pc->capacity;
    in->output_tokens = pc->output_tokens;
    hwfit_shard_space_init(space);
    space->global_batch = pc->global_batch;
    space->include_unfit = pc->include_unfit;
    space->max_micro_batch = pc->max_micro_batch;
}

/* The search before the speed work, in full. */
static int better(const hwfit_perf_result *a, const hwfit_perf_result *b) {
    if (a->shard.fits != b->shard.fits) return a->shard.fits;
    return a->shard.score > b->shard.score;
}

static void keep_best(hwfit_perf_result *results, size_t capacity, size_t *count,
                      const hwfit_perf_result *r) {
    size_t n = *count;
    if (n == capacity && !better(r, &results[n - 1])) return;
    size_t i = n < capacity ? n : capacity - 1;
    while (i > 0 && better(r, &results[i - 1])) {
        results[i] = results[i - 1];
        i--;
    }
    results[i] = *r;
    if (n < capacity) *count = n + 1;
}

static void reference_plan(const hwfit_model *m, const hwfit_perf_in *in,
                           const hwfit_shard_space *space, hwfit_perf_result *results,
                           size_t capacity, hwfit_shard_search_out *sum) {
    hwfit_perf_rank rank;
    cr_assert_eq(hwfit_perf_plan_rank(in, space, &rank), HWFIT_OK);
    int training = in->shard.memory.mode != HWFIT_MEMORY_INFERENCE;
    hwfit_shard_iter it;
    cr_assert_eq(hwfit_shard_iter_init(&it, m, &in->shard, space), HWFIT_OK);
    memset(sum, 0, sizeof *sum);
    hwfit_perf_in x = *in;
    hwfit_layout l;
    hwfit__shard_resolved r;
    while (hwfit__shard_iter_next(&it, &l, &r)) {
        sum->valid++;
        x.shard.layout = l;
        hwfit_perf_out o;
        hwfit_status st = hwfit_perf_estimate(m, &x, &o);
        if (st == HWFIT_ERANGE || st == HWFIT_ELAYOUT) continue;
        cr_assert_eq(st, HWFIT_OK, "%s", hwfit_status_str(st));
        if (o.shard.fits) sum->fitting++;
        else if (!space->include_unfit) continue;
        hwfit_perf_result res;
        memset(&res, 0, sizeof res);
        hwfit__shard_result(&o.shard, &res.shard);
        res.step_time_s = training ? o.step_time_s : o.time_per_output_token_s;
        res.tokens_per_s = training ? o.tokens_per_s : o.decode_tokens_per_s;
        res.mfu = training ? o.mfu : 0.0;
        res.bubble_s = training ? o.bubble_s : 0.0;
        if (o.shard.fits)
            res.shard.score = rank == HWFIT_PERF_RANK_STEP_TIME ? -res.step_time_s
                                                                : res.tokens_per_s;
        keep_best(results, capacity, &sum->count, &res);
    }
    sum->visited = it.visited;
}

/* A result as one line of text, doubles in hexadecimal (exact). */
static void line_of(const hwfit_perf_result *p, char *buf, size_t size) {
    const hwfit_shard_result *s = &p->shard;
    const hwfit_layout *l = &s->layout;
    snprintf(buf, size,
             "tp %u pp %u dp %u cp %u ep %u etp %u v %u sp %d zero %u offload %u mb %llu "
             "gbs %llu rc %d | stage %u peak %llu headroom %a host %llu kv %llu fits %d "
             "score %a | step %a tok/s %a mfu %a bubble %a",
             l->tp, l->pp, l->dp, l->cp, l->ep, l->etp, l->virtual_stages, l->sequence_parallel,
             l->zero_stage, l->offload, (unsigned long long)l->micro_batch,
             (unsigned long long)l->global_batch, (int)l->recompute, s->worst_stage,
             (unsigned long long)s->per_gpu_bytes, s->headroom_bytes,
             (unsigned long long)s->host_bytes, (unsigned long long)s->kv_tokens, s->fits,
             s->score, p->step_time_s, p->tokens_per_s, p->mfu, p->bubble_s);
}

static void sum_line(const hwfit_shard_search_out *s, char *buf, size_t size) {
    snprintf(buf, size, "visited %llu valid %llu fitting %llu count %zu",
             (unsigned long long)s->visited, (unsigned long long)s->valid,
             (unsigned long long)s->fitting, s->count);
}

static void expect_same(const char *what, const char *name, const hwfit_perf_result *a,
                        const hwfit_shard_search_out *sa, const hwfit_perf_result *b,
                        const hwfit_shard_search_out *sb) {
    char la[512], lb[512];
    sum_line(sa, la, sizeof la);
    sum_line(sb, lb, sizeof lb);
    cr_expect_str_eq(la, lb, "%s %s: counts %s, expected %s", what, name, la, lb);
    size_t n = sa->count < sb->count ? sa->count : sb->count;
    for (size_t i = 0; i < n; i++) {
        line_of(&a[i], la, sizeof la);
        line_of(&b[i], lb, sizeof lb);
        cr_expect_str_eq(la, lb, "%s %s, rank %zu:\n got      %s\n expected %s", what, name,
                         i + 1, la, lb);
    }
}

Test(perf_plan, ranked_layouts_equal_the_plain_search, .timeout = 900) {
    static hwfit_perf_result got[MAX_TOP], want[MAX_TOP];
    for (size_t k = 0; k < CASES; k++) {
        const plan_case *pc = &cases[k];
        hwfit_model m;
        hwfit_perf_in in;
        hwfit_shard_space space;
        setup_case(pc, &m, &in, &space);
        hwfit_shard_search_out sg, sw;
        memset(got, 0, sizeof got);
        memset(want, 0, sizeof want);
        cr_assert_eq(hwfit_perf_plan(&m, &in, &space, got, pc->top, &sg), HWFIT_OK, "%s",
                     pc->name);
        reference_plan(&m, &in, &space, want, pc->top, &sw);
        cr_assert_gt(sw.count, 0, "%s: the case ranks nothing", pc->name);
        /* The search skips tensor and pipeline sizes no layout can take: fewer combinations
         * visited, the same valid layouts (compared below with every other count). */
        cr_expect(sg.visited <= sw.visited, "%s: visited %llu, the plain enumeration %llu",
                  pc->name, (unsigned long long)sg.visited, (unsigned long long)sw.visited);
        sw.visited = sg.visited;
        expect_same("plain search", pc->name, got, &sg, want, &sw);
    }
}

Test(perf_plan, ranked_layouts_equal_the_golden_file, .timeout = 600) {
    static char text[CASES * (MAX_TOP + 2)][512];
    size_t n = 0;
    static hwfit_perf_result got[MAX_TOP];
    for (size_t k = 0; k < CASES; k++) {
        const plan_case *pc = &cases[k];
        hwfit_model m;
        hwfit_perf_in in;
        hwfit_shard_space space;
        setup_case(pc, &m, &in, &space);
        hwfit_shard_search_out s;
        memset(got, 0, sizeof got);
        cr_assert_eq(hwfit_perf_plan(&m, &in, &space, got, pc->top, &s), HWFIT_OK, "%s",
                     pc->name);
        char sl[256];
        sum_line(&s, sl, sizeof sl);
        snprintf(text[n++], sizeof text[0], "case %s | %s", pc->name, sl);
        for (size_t i = 0; i < s.count; i++) line_of(&got[i], text[n++], sizeof text[0]);
    }
    const char *write = getenv("HWFIT_GOLDEN_WRITE");
    if (write != NULL && *write != '\0') {
        FILE *f = fopen(write, "w");
        cr_assert_not_null(f, "cannot write %s", write);
        for (size_t i = 0; i < n; i++) fprintf(f, "%s\n", text[i]);
        fclose(f);
        return;
    }
    char path[512];
    snprintf(path, sizeof path, "%s/golden/perf_plan.txt", HWFIT_TEST_DATA);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot read %s", path);
    char line[512];
    size_t i = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        cr_assert_lt(i, n, "%s has more lines than the search", path);
        cr_expect_str_eq(text[i], line, "results changed:\n got      %s\n expected %s", text[i],
                         line);
        i++;
    }
    fclose(f);
    cr_assert_eq(i, n, "%s has %zu lines, the search %zu", path, i, n);
}

Test(perf_plan, threads_give_what_one_thread_gives, .timeout = 900) {
    static hwfit_perf_result one[MAX_TOP], many[MAX_TOP];
    const uint32_t counts[] = {2, 3, 8};
    for (size_t k = 0; k < CASES; k++) {
        const plan_case *pc = &cases[k];
        hwfit_model m;
        hwfit_perf_in in;
        hwfit_shard_space space;
        setup_case(pc, &m, &in, &space);
        /* the case's list, and a short one (the merge decides more often) */
        const size_t tops[] = {pc->top, 3};
        for (size_t ti = 0; ti < 2; ti++) {
            hwfit_shard_search_out s1, sn;
            memset(one, 0, sizeof one);
            in.threads = 1;
            cr_assert_eq(hwfit_perf_plan(&m, &in, &space, one, tops[ti], &s1), HWFIT_OK);
            for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
                memset(many, 0, sizeof many);
                in.threads = counts[c];
                cr_assert_eq(hwfit_perf_plan(&m, &in, &space, many, tops[ti], &sn), HWFIT_OK);
                char what[64];
                snprintf(what, sizeof what, "%u threads, top %zu", counts[c], tops[ti]);
                expect_same(what, pc->name, many, &sn, one, &s1);
            }
        }
    }
}

Test(perf_plan, threads_out_of_range_are_refused) {
    hwfit_model m;
    hwfit_perf_in in;
    hwfit_shard_space space;
    setup_case(&cases[4], &m, &in, &space);
    hwfit_perf_result res[4];
    hwfit_shard_search_out s;
    const uint32_t bad[] = {0, HWFIT_PERF_MAX_THREADS + 1, UINT32_MAX};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        in.threads = bad[i];
        cr_expect_eq(hwfit_perf_plan(&m, &in, &space, res, 4, &s), HWFIT_EDOM, "threads %u",
                     bad[i]);
    }
    in.threads = HWFIT_PERF_MAX_THREADS;
    cr_expect_eq(hwfit_perf_plan(&m, &in, &space, res, 4, &s), HWFIT_OK);
}

/* The bound the search prunes with never exceeds the step time of the full estimate: over
 * every valid layout of each training case (one in five of the largest space). The bound
 * must also mean something: above half the step time for some layout of each case, and
 * never below the tensor-, pipeline- and expert-parallel communication the estimate
 * exposes (which is half the step or more for some layouts). */
Test(perf_plan, step_bound_never_exceeds_the_step_time, .timeout = 900) {
    uint64_t comm_heavy_all = 0, moe_checked = 0, zb_checked = 0;
    for (size_t k = 0; k < CASES; k++) {
        const plan_case *pc = &cases[k];
        if (pc->mode == HWFIT_MEMORY_INFERENCE) continue;
        hwfit_model m;
        hwfit_perf_in in;
        hwfit_shard_space space;
        setup_case(pc, &m, &in, &space);
        hwfit_shard_iter it;
        cr_assert_eq(hwfit_shard_iter_init(&it, &m, &in.shard, &space), HWFIT_OK);
        hwfit__shard_engine_storage engine;
        hwfit_perf_in x = in;
        hwfit_layout l;
        hwfit__shard_resolved r;
        uint64_t n = 0, checked = 0, tight = 0, comm_heavy = 0;
        uint64_t stride = pc->gpus >= 1024 ? 5 : 1;
        while (hwfit__shard_iter_next(&it, &l, &r)) {
            if (n++ % stride != 0) continue;
            x.shard.layout = l;
            hwfit_perf_out o;
            if (hwfit_perf_estimate(&m, &x, &o) != HWFIT_OK) continue;
            double lb = -1.0;
            cr_assert_eq(hwfit__perf_step_bound_at(hwfit__shard_engine_in(&engine), &m, &x, &lb),
                         HWFIT_OK);
            checked++;
            cr_expect(lb <= o.step_time_s, "%s: layout %llu (tp %u pp %u v %u mb %llu): bound %a > step %a",
                      pc->name, (unsigned long long)n, l.tp, l.pp, l.virtual_stages,
                      (unsigned long long)l.micro_batch, lb, o.step_time_s);
            if (lb > 0.5 * o.step_time_s) tight++;
            /* It holds the tensor-, pipeline- and expert-parallel communication the
             * estimate exposes (the compute alone is below it where the collectives
             * dominate, e.g. tensor parallelism across nodes). */
            double comm = o.tp_comm_s + o.pp_comm_s + o.ep_comm_s;
            cr_expect(lb >= comm * (1.0 - 1e-12),
                      "%s: layout %llu (tp %u pp %u ep %u): bound %a < tp + pp + ep "
                      "communication %a",
                      pc->name, (unsigned long long)n, l.tp, l.pp, l.ep, lb, comm);
            if (comm > 0.5 * o.step_time_s) comm_heavy++;
            /* ZB-H1: the bound takes the same bubble. */
            if (l.pp > 1) {
                hwfit_perf_in y = x;
                y.schedule = HWFIT_PERF_SCHEDULE_ZB_H1;
                if (hwfit_perf_estimate(&m, &y, &o) == HWFIT_OK) {
                    cr_assert_eq(hwfit__perf_step_bound_at(hwfit__shard_engine_in(&engine),
                                                           &m, &y, &lb),
                                 HWFIT_OK);
                    cr_expect(lb <= o.step_time_s, "%s: layout %llu, zb-h1: bound %a > step %a",
                              pc->name, (unsigned long long)n, lb, o.step_time_s);
                    zb_checked++;
                }
            }
            /* MoE: the bound holds with a routing imbalance and with a capacity factor below
             * 1 (the one input that makes the routed experts' time shorter). */
            if (m.experts > 0) {
                hwfit_perf_in y = x;
                for (int j = 0; j < 2; j++) {
                    y.moe_capacity_given = j;
                    y.moe_imbalance = 1.75;
                    y.moe_capacity_factor = 0.5;
                    if (hwfit_perf_estimate(&m, &y, &o) != HWFIT_OK) continue;
                    cr_assert_eq(hwfit__perf_step_bound_at(hwfit__shard_engine_in(&engine),
                                                           &m, &y, &lb),
                                 HWFIT_OK);
                    cr_expect(lb <= o.step_time_s, "%s: layout %llu, moe load %d: bound %a > "
                              "step %a", pc->name, (unsigned long long)n, j, lb, o.step_time_s);
                    moe_checked++;
                }
            }
        }
        comm_heavy_all += comm_heavy;
        cr_expect_gt(checked, 100, "%s: %llu layouts checked", pc->name,
                     (unsigned long long)checked);
        cr_expect_gt(tight, 0, "%s: the bound is never above half the step time", pc->name);
    }
    cr_expect_gt(comm_heavy_all, 0, "no layout where communication is half the step");
    cr_expect_gt(moe_checked, 100, "%llu MoE layouts checked with a load",
                 (unsigned long long)moe_checked);
    cr_expect_gt(zb_checked, 100, "%llu layouts checked with zb-h1",
                 (unsigned long long)zb_checked);
}

/* The search's memory fit (first stage of each kind) equals the full evaluation's on every
 * field the search reads, over every valid layout of each case; and its stage-by-stage
 * path (stages not grouped) gives the grouped one's out. */
Test(perf_plan, search_fit_equals_the_full_evaluation, .timeout = 900) {
    for (size_t k = 0; k < CASES; k++) {
        const plan_case *pc = &cases[k];
        hwfit_model m;
        hwfit_perf_in in;
        hwfit_shard_space space;
        setup_case(pc, &m, &in, &space);
        hwfit_shard_iter it;
        cr_assert_eq(hwfit_shard_iter_init(&it, &m, &in.shard, &space), HWFIT_OK);
        hwfit__shard_engine_storage engine;
        hwfit__shard_engine *e = hwfit__shard_engine_in(&engine);
        cr_assert_eq(hwfit__shard_engine_start(e, &m), HWFIT_OK);
        hwfit_shard_in x = in.shard;
        hwfit__shard_resolved r;
        uint64_t n = 0;
        while (hwfit__shard_iter_next(&it, &x.layout, &r)) {
            hwfit_shard_out a, b;
            hwfit_status sa = hwfit__shard_fit(e, &x, &r, &a);
            hwfit_status sb = hwfit__shard_eval(e, &x, &r, &b, 0, NULL);
            n++;
            cr_assert_eq(sa, sb, "%s, layout %llu", pc->name, (unsigned long long)n);
            if (sa != HWFIT_OK) continue;
            hwfit_shard_result ra, rb;
            hwfit__shard_result(&a, &ra);
            hwfit__shard_result(&b, &rb);
            int same = a.fits == b.fits && a.gpu_fits == b.gpu_fits &&
                       a.host_fits == b.host_fits && a.worst_stage == b.worst_stage &&
                       memcmp(&a.worst, &b.worst, sizeof a.worst) == 0 &&
                       memcmp(&ra, &rb, sizeof ra) == 0 && a.usable_bytes == b.usable_bytes &&
                       a.host_bytes == b.host_bytes && a.stages == b.stages &&
                       a.micro_batches == b.micro_batches;
            cr_assert(same, "%s, layout %llu (tp %u pp %u v %u): fit differs", pc->name,
                      (unsigned long long)n, x.layout.tp, x.layout.pp, x.layout.virtual_stages);
            /* Without the stages grouped (more kinds than a hwfit__shard_stages keeps):
             * every stage evaluated, the same out bit for bit. */
            hwfit_shard_out c;
            cr_assert_eq(hwfit__shard_fit_stages(e, &x, &r, NULL, &c), HWFIT_OK);
            hwfit_shard_result rc;
            hwfit__shard_result(&c, &rc);
            cr_assert(memcmp(&ra, &rc, sizeof ra) == 0 &&
                          memcmp(&a.worst, &c.worst, sizeof a.worst) == 0 &&
                          a.worst_stage == c.worst_stage && a.host_bytes == c.host_bytes &&
                          a.fits == c.fits && a.gpu_fits == c.gpu_fits &&
                          a.host_fits == c.host_fits && a.total_bytes == c.total_bytes,
                      "%s, layout %llu: stage by stage differs", pc->name, (unsigned long long)n);
        }
    }
}

/* The search's fit without include_unfit (hwfit__shard_fit_or_miss: it stops at the first
 * card whose peak, or a lower bound of it, is above the usable bytes; its sums of units are
 * unchecked where the engine's largest unit field bounds them) says what
 * hwfit__shard_fit_stages says over every valid layout of each case: a fitting layout's out
 * bit for bit, and "does not fit" (or ERANGE) for the others. */
Test(perf_plan, fit_or_miss_equals_the_fit, .timeout = 900) {
    uint64_t fitting = 0, missed = 0;
    for (size_t k = 0; k < CASES; k++) {
        const plan_case *pc = &cases[k];
        hwfit_model m;
        hwfit_perf_in in;
        hwfit_shard_space space;
        setup_case(pc, &m, &in, &space);
        hwfit_shard_iter it;
        cr_assert_eq(hwfit_shard_iter_init(&it, &m, &in.shard, &space), HWFIT_OK);
        hwfit__shard_engine_storage engine;
        hwfit__shard_engine *e = hwfit__shard_engine_in(&engine);
        cr_assert_eq(hwfit__shard_engine_start(e, &m), HWFIT_OK);
        hwfit_shard_in x = in.shard;
        hwfit__shard_resolved r;
        hwfit__shard_stages stages;
        uint64_t n = 0;
        while (hwfit__shard_iter_next(&it, &x.layout, &r)) {
            n++;
            hwfit__shard_stages_of(e, &r, &stages);
            hwfit_shard_out a, b;
            hwfit_status sa = hwfit__shard_fit_stages(e, &x, &r, &stages, &a);
            hwfit_status sb = hwfit__shard_fit_or_miss(e, &x, &r, &stages, &b);
            if (sa != HWFIT_OK || !a.fits) {
                cr_assert(sb == sa || (sb == HWFIT_OK && !b.fits),
                          "%s, layout %llu: %d, fits %d vs %d", pc->name,
                          (unsigned long long)n, (int)sa, sb == HWFIT_OK ? b.fits : -1, (int)sb);
                missed++;
                continue;
            }
            cr_assert_eq(sb, HWFIT_OK, "%s, layout %llu", pc->name, (unsigned long long)n);
            hwfit_shard_result ra, rb;
            hwfit__shard_result(&a, &ra);
            hwfit__shard_result(&b, &rb);
            cr_assert(memcmp(&ra, &rb, sizeof ra) == 0 &&
                          memcmp(&a.worst, &b.worst, sizeof a.worst) == 0 &&
                          a.worst_stage == b.worst_stage && a.host_bytes == b.host_bytes &&
                          a.fits == b.fits && a.gpu_fits == b.gpu_fits &&
                          a.host_fits == b.host_fits && a.usable_bytes == b.usable_bytes,
                      "%s, layout %llu (tp %u pp %u): fit_or_miss differs", pc->name,
                      (unsigned long long)n, x.layout.tp, x.layout.pp);
            fitting++;
        }
    }
    cr_expect_gt(fitting, 100, "%llu fitting layouts compared", (unsigned long long)fitting);
    cr_expect_gt(missed, 100, "%llu missing layouts compared", (unsigned long long)missed);
}

/* The stages the search groups by kind (hwfit__shard_stages_of, whose per-stage layer count
 * is in closed form for models whose layers are alike) hold, stage by stage, the layers
 * hwfit__shard_chunk gives summed over the stage's chunks: for every pp and v that fit the
 * layers (uneven, interleaved and not), on models of 126 (405B), 61 with dense and MoE
 * layers (DeepSeek-V3), 46 with sliding layers (Gemma 2 27B) and 1,024 layers. */
Test(perf_plan, stage_kinds_equal_the_chunks, .timeout = 300) {
    const char *files[] = {"models/llama-3.1-405b.config.json", "models/deepseek-v3.config.json",
                           "models/gemma-2-27b.config.json",
                           "extremes/dense-1024-layers.config.json"};
    uint64_t compared = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", HWFIT_TEST_DATA, files[f]);
        hwfit_model m;
        hwfit_error err;
        cr_assert_eq(hwfit_hf_config_load(path, &m, &err), HWFIT_OK, "%s: %s", path, err.message);
        hwfit__shard_engine_storage engine;
        hwfit__shard_engine *e = hwfit__shard_engine_in(&engine);
        cr_assert_eq(hwfit__shard_engine_start(e, &m), HWFIT_OK);
        uint32_t layers = m.layers;
        for (uint32_t pp = 1; pp <= 64 && pp <= layers; pp++) {
            for (uint32_t v = 1; v <= 8 && (uint64_t)pp * v <= layers + 2u; v++) {
                if (v > 1 && pp == 1) continue;
                hwfit__shard_resolved r;
                memset(&r, 0, sizeof r);
                r.training = 1;
                r.pp = pp;
                r.v = v;
                hwfit__shard_stages st;
                hwfit__shard_stages_of(e, &r, &st);
                if (st.kinds == 0) continue; /* more kinds than kept: stage by stage */
                uint32_t stages = 0;
                uint64_t total = 0;
                for (uint32_t k = 0; k < st.kinds; k++) {
                    stages += st.kind[k].count;
                    total += (uint64_t)st.kind[k].layers * st.kind[k].count;
                }
                cr_expect_eq(stages, pp, "%s pp %u v %u: %u stages", files[f], pp, v, stages);
                cr_expect_eq(total, layers, "%s pp %u v %u: %llu layers", files[f], pp, v,
                             (unsigned long long)total);
                for (uint32_t s = 0; s < pp; s++) {
                    uint32_t sum = 0, first0 = 0;
                    for (uint32_t j = 0; j < v; j++) {
                        uint32_t first, count;
                        hwfit__shard_chunk(&r, layers, s, j, &first, &count);
                        if (j == 0) first0 = first;
                        sum += count;
                    }
                    uint32_t k = 0;
                    while (k < st.kinds &&
                           !(st.kind[k].layers == sum && (st.kind[k].stage == 0) == (s == 0) &&
                             (st.kind[k].stage + 1 == pp) == (s + 1 == pp)))
                        k++;
                    cr_expect_lt(k, st.kinds, "%s pp %u v %u: stage %u (%u layers) has no kind",
                                 files[f], pp, v, s, sum);
                    if (k < st.kinds && st.kind[k].stage == s)
                        cr_expect_eq(st.kind[k].first_layer, first0,
                                     "%s pp %u v %u: stage %u first layer", files[f], pp, v, s);
                    compared++;
                }
            }
        }
    }
    cr_expect_gt(compared, 10000, "%llu stages compared", (unsigned long long)compared);
}

/* hwfit__shard_stages_of takes, for a model whose layers are all alike, one stage per run of
 * stages of one kind (shard.c stage_runs: where the split's layer count can change); it must
 * equal the grouping stage by stage (hwfit__shard_stages_scan) field for field, kinds in the
 * same order: every pp and v that fit the layers, on dense (405B) and all-MoE (Mixtral) models
 * given 1 to 130 and 1,024 layers. */
Test(perf_plan, stage_runs_equal_the_scan, .timeout = 300) {
    const char *files[] = {"llama-3.1-405b.config.json", "mixtral-8x7b-instruct-v0.1.config.json"};
    uint64_t compared = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        hwfit_model m;
        load(files[f], &m);
        for (uint32_t layers = 1; layers <= 1024; layers = layers < 130 ? layers + 1 : 1024) {
            m.layers = layers;
            hwfit__shard_engine_storage engine;
            hwfit__shard_engine *e = hwfit__shard_engine_in(&engine);
            cr_assert_eq(hwfit__shard_engine_start(e, &m), HWFIT_OK, "%s %u layers", files[f],
                         layers);
            for (uint32_t pp = 1; pp <= 130 && pp <= layers + 2; pp++) {
                for (uint32_t v = 1; v <= 8 && (uint64_t)pp * v <= layers + 2u; v++) {
                    if (v > 1 && pp == 1) continue;
                    hwfit__shard_resolved r;
                    memset(&r, 0, sizeof r);
                    r.training = 1;
                    r.pp = pp;
                    r.v = v;
                    hwfit__shard_stages a, b;
                    memset(&a, 0, sizeof a);
                    memset(&b, 0, sizeof b);
                    hwfit__shard_stages_of(e, &r, &a);
                    hwfit__shard_stages_scan(e, &r, &b);
                    cr_assert_eq(a.kinds, b.kinds, "%s %u layers pp %u v %u: %u kinds, not %u",
                                 files[f], layers, pp, v, a.kinds, b.kinds);
                    cr_assert_eq(a.pp, b.pp);
                    cr_assert_eq(a.v, b.v);
                    for (uint32_t k = 0; k < a.kinds; k++)
                        cr_assert(memcmp(&a.kind[k], &b.kind[k], sizeof a.kind[k]) == 0,
                                  "%s %u layers pp %u v %u: kind %u differs (stage %u/%u, "
                                  "layers %u/%u, count %u/%u)",
                                  files[f], layers, pp, v, k, a.kind[k].stage, b.kind[k].stage,
                                  a.kind[k].layers, b.kind[k].layers, a.kind[k].count,
                                  b.kind[k].count);
                    compared++;
                }
            }
            if (layers == 1024) break;
        }
    }
    cr_expect_gt(compared, 40000, "%llu splits compared", (unsigned long long)compared);
}

/* The search's enumeration (hwfit__shard_iter_next_chained: a layout that differs from the
 * last valid one only in ZeRO and offload is checked on those two alone) gives the layouts,
 * resolutions and visited count of hwfit__shard_iter_next_pruned (every combination
 * resolved in full), over every case's space, and over the first case's with every offload
 * (ZeRO-0 with offload and ZeRO-1/2 with the parameters' refused: the chain crosses refused
 * combinations), with the optimizer's offload only, and with ZeRO fixed to 3. */
Test(perf_plan, chained_enumeration_equals_the_pruned_one, .timeout = 300) {
    uint64_t compared = 0, cases_run = 0;
    for (size_t i = 0; i < CASES + 3; i++) {
        const plan_case *pc = &cases[i < CASES ? i : 0];
        hwfit_model m;
        hwfit_perf_in in;
        hwfit_shard_space space;
        setup_case(pc, &m, &in, &space);
        if (i == CASES) space.offload = HWFIT_SHARD_ANY;
        if (i == CASES + 1) space.offload = (int)HWFIT_SHARD_OFFLOAD_OPTIMIZER;
        if (i == CASES + 2) space.zero_stage = 3;
        hwfit_shard_iter a, b;
        cr_assert_eq(hwfit_shard_iter_init(&a, &m, &in.shard, &space), HWFIT_OK);
        b = a;
        hwfit__shard_resolved ra, rb;
        memset(&ra, 0, sizeof ra);
        memset(&rb, 0, sizeof rb);
        int chain = 0;
        uint64_t n = 0, variants = 0;
        hwfit_layout la, lb; /* kept between the calls, as the chained enumeration asks */
        memset(&la, 0, sizeof la);
        memset(&lb, 0, sizeof lb);
        for (;;) {
            int ga = hwfit__shard_iter_next_pruned(&a, &la, &ra);
            int gb = hwfit__shard_iter_next_chained(&b, &lb, &rb, &chain);
            cr_assert_eq(ga, gb, "%s (%zu), layout %llu: one enumeration ended first", pc->name,
                         i, (unsigned long long)n);
            if (!ga) break;
            cr_assert(memcmp(&la, &lb, sizeof la) == 0, "%s (%zu), layout %llu: layouts differ",
                      pc->name, i, (unsigned long long)n);
            cr_assert(memcmp(&ra, &rb, sizeof ra) == 0,
                      "%s (%zu), layout %llu: resolutions differ", pc->name, i,
                      (unsigned long long)n);
            cr_assert_eq(a.visited, b.visited);
            if (rb.zero != 0 || rb.offload != 0) variants++;
            n++;
        }
        cr_assert_eq(a.visited, b.visited, "%s (%zu): visited", pc->name, i);
        if (pc->mode != HWFIT_MEMORY_INFERENCE)
            cr_expect_gt(variants, 0, "%s (%zu): no ZeRO or offload variant", pc->name, i);
        compared += n;
        cases_run++;
    }
    cr_expect_eq(cases_run, CASES + 3);
    cr_expect_gt(compared, 48768, "%llu layouts compared", (unsigned long long)compared);
}

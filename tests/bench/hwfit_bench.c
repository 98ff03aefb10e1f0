/* hwfit_bench - how long the main calls take (issue 10). Not a test: it prints figures.
 *
 *   hwfit_bench [--json] [--quick] [--only NAME] [--calls N] [--no-python] [--data DIR]
 *               [--peers FILE]...
 *   hwfit_bench --extremes [--json] [--data DIR]
 *
 * --extremes runs each row of tests/extremes.h once (the slowest documented inputs of each
 * command, issue 21) and prints its time, status and the option a refusal names.
 *
 * Each benchmark runs its call in a loop whose iteration count is calibrated so that one
 * repetition lasts about 20 ms (2 ms with --quick), once to warm up and then R times
 * (R = 15, 3 with --quick); the table shows the median and the minimum over the R
 * repetitions of the time per call, from clock_gettime(CLOCK_MONOTONIC). Every result is
 * folded into a volatile sink so that the optimizer cannot drop the work. Only the public
 * API (hwfit.h) is used, as a user's program would.
 *
 * --only NAME runs one benchmark; with --calls N it makes exactly N calls, untimed, for a
 * profiler (valgrind --tool=callgrind hwfit_bench --only memory_eval --calls 1000). The
 * Python figures come from bench_python.py, run with
 * python3 when it is on the PATH (see tests/bench/README.md).
 */
#define _POSIX_C_SOURCE 200809L

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hwfit.h>

#ifndef HWFIT_BENCH_DATA
#define HWFIT_BENCH_DATA "tests/data"
#endif
#ifndef HWFIT_BENCH_BUILD_TYPE
#define HWFIT_BENCH_BUILD_TYPE "unknown"
#endif

/* ---- what is measured ------------------------------------------------------------------- */

#define BATCH_N 1024 /* elements of one batch call */

typedef struct ctx {
    hwfit_model m70, m405, mixtral;
    const hwfit_gpu *h100;
    hwfit_memory_in infer;       /* 70B inference on one device */
    hwfit_shard_in train;        /* 70B training, TP 8, ZeRO-1, mb 1, 4096 tokens, full rc */
    hwfit_shard_in fit;          /* 70B inference on 8 H100, TP 8 */
    hwfit_collective_in coll;    /* all-reduce 1 GiB, 16 H100 on 2 nodes */
    hwfit_shard_in plan;         /* 405B training on 1,024 H100 */
    hwfit_shard_in eval_plan;    /* Mixtral 8x7B LoRA with evaluation on 8 H100 */
    hwfit_shard_space space;
    hwfit_shard_result best[10];
    hwfit_perf_in step;          /* the training layout above, timed (perf.h) */
    hwfit_perf_in perf_plan;     /* the layout search above, ranked by step time */
    hwfit_perf_in perf_plan2;    /* the same on 2 threads (perf_plan.threads) */
    hwfit_perf_result perf_best[10];
    uint64_t perf_valid, perf_visited;
    char config70[1024];
    /* batches */
    hwfit_memory_in mem_ins[BATCH_N];
    hwfit_memory_out mem_outs[BATCH_N];
    hwfit_shard_in fit_ins[BATCH_N];
    hwfit_shard_out fit_outs[BATCH_N];
    hwfit_shard_in train_ins[BATCH_N];
    hwfit_collective_in coll_ins[BATCH_N];
    hwfit_collective_out coll_outs[BATCH_N];
    hwfit_status statuses[BATCH_N];
    uint64_t plan_valid, plan_visited; /* counts of one search */
    /* the prepared-model cache of the single training-footprint calls (shard.h) */
    _Alignas(max_align_t) unsigned char shard_cache[16384];
} ctx;

static volatile uint64_t sink;

static void die(const char *what, hwfit_status st) {
    fprintf(stderr, "hwfit_bench: %s: %s\n", what, hwfit_status_str(st));
    exit(2);
}

static void run_inference(ctx *c, uint64_t n) {
    hwfit_memory_out o;
    uint64_t acc = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (hwfit_memory_estimate(&c->m70, &c->infer, &o) != HWFIT_OK) die("inference", HWFIT_EINVAL);
        acc += o.total_bytes;
    }
    sink += acc;
}

/* The training footprint as a caller that asks single questions about one model asks it:
 * hwfit_shard_estimate_cached, the model prepared once in the caller's cache. */
static void run_training(ctx *c, uint64_t n) {
    hwfit_shard_out o;
    uint64_t acc = 0;
    for (uint64_t i = 0; i < n; i++) {
        hwfit_status st = hwfit_shard_estimate_cached(&c->m70, &c->train, &o, c->shard_cache,
                                                      sizeof c->shard_cache);
        if (st != HWFIT_OK) die("training footprint", st);
        acc += o.worst.total_bytes;
    }
    sink += acc;
}

/* The same question with no cache (hwfit_shard_estimate): the model prepared in every call. */
static void run_training_uncached(ctx *c, uint64_t n) {
    hwfit_shard_out o;
    uint64_t acc = 0;
    for (uint64_t i = 0; i < n; i++) {
        hwfit_status st = hwfit_shard_estimate(&c->m70, &c->train, &o);
        if (st != HWFIT_OK) die("training footprint", st);
        acc += o.worst.total_bytes;
    }
    sink += acc;
}

/* Cached, but every call another question (sequence 1K-16K x micro-batch 1-4, as the
 * train_batch sweep): the activations and KV units are computed again in each call. */
static void run_training_varied(ctx *c, uint64_t n) {
    hwfit_shard_out o;
    uint64_t acc = 0;
    for (uint64_t i = 0; i < n; i++) {
        hwfit_status st = hwfit_shard_estimate_cached(&c->m70, &c->train_ins[i % BATCH_N], &o,
                                                      c->shard_cache, sizeof c->shard_cache);
        if (st != HWFIT_OK) die("training footprint", st);
        acc += o.worst.total_bytes;
    }
    sink += acc;
}

static void run_fit(ctx *c, uint64_t n) {
    hwfit_shard_out o;
    uint64_t acc = 0;
    for (uint64_t i = 0; i < n; i++) {
        hwfit_status st = hwfit_shard_estimate(&c->m70, &c->fit, &o);
        if (st != HWFIT_OK) die("fit check", st);
        acc += (uint64_t)o.fits + o.kv_tokens;
    }
    sink += acc;
}

static void run_collective(ctx *c, uint64_t n) {
    hwfit_collective_out o;
    double acc = 0.0;
    for (uint64_t i = 0; i < n; i++) {
        hwfit_status st = hwfit_collective_estimate(&c->coll, &o);
        if (st != HWFIT_OK) die("collective", st);
        acc += o.time_s;
    }
    sink += (uint64_t)(acc * 1e9);
}

static void run_plan(ctx *c, uint64_t n) {
    hwfit_shard_search_out s;
    uint64_t acc = 0;
    for (uint64_t i = 0; i < n; i++) {
        hwfit_status st = hwfit_shard_search(&c->m405, &c->plan, &c->space, c->best, 10, &s);
        if (st != HWFIT_OK) die("layout search", st);
        acc += s.valid + s.count;
        c->plan_valid = s.valid;
        c->plan_visited = s.visited;
    }
    sink += acc;
}

/* A layout search whose cards each replay the evaluation's allocator (memory.c,
 * hwfit__memory_eval_segments): the replay is the costliest part of such a card, kept in
 * the engine per card key (shard.c card_eval). */
static void run_eval_plan(ctx *c, uint64_t n) {
    hwfit_shard_search_out s;
    uint64_t acc = 0;
    for (uint64_t i = 0; i < n; i++) {
        hwfit_status st =
            hwfit_shard_search(&c->mixtral, &c->eval_plan, &c->space, c->best, 10, &s);
        if (st != HWFIT_OK) die("evaluation layout search", st);
        acc += s.valid + s.count;
    }
    sink += acc;
}

static void run_step(ctx *c, uint64_t n) {
    hwfit_perf_out o;
    double acc = 0.0;
    for (uint64_t i = 0; i < n; i++) {
        hwfit_status st = hwfit_perf_estimate(&c->m70, &c->step, &o);
        if (st != HWFIT_OK) die("step time", st);
        acc += o.step_time_s;
    }
    sink += (uint64_t)(acc * 1e9);
}

static void run_perf_plan(ctx *c, uint64_t n) {
    hwfit_shard_search_out s;
    uint64_t acc = 0;
    for (uint64_t i = 0; i < n; i++) {
        hwfit_status st = hwfit_perf_plan(&c->m405, &c->perf_plan, &c->space, c->perf_best, 10, &s);
        if (st != HWFIT_OK) die("perf plan", st);
        acc += s.valid + s.count;
        c->perf_valid = s.valid;
        c->perf_visited = s.visited;
    }
    sink += acc;
}

static void run_perf_plan2(ctx *c, uint64_t n) {
    hwfit_shard_search_out s;
    uint64_t acc = 0;
    for (uint64_t i = 0; i < n; i++) {
        hwfit_status st =
            hwfit_perf_plan(&c->m405, &c->perf_plan2, &c->space, c->perf_best, 10, &s);
        if (st != HWFIT_OK) die("perf plan, 2 threads", st);
        acc += s.valid + s.count;
        c->perf_valid = s.valid;
    }
    sink += acc;
}

static void run_hf_config(ctx *c, uint64_t n) {
    hwfit_model m;
    hwfit_error err;
    uint64_t acc = 0;
    for (uint64_t i = 0; i < n; i++) {
        hwfit_status st = hwfit_hf_config_load(c->config70, &m, &err);
        if (st != HWFIT_OK) die(err.message, st);
        acc += m.layers;
    }
    sink += acc;
}

static void run_memory_batch(ctx *c, uint64_t n) {
    uint64_t acc = 0;
    for (uint64_t i = 0; i < n; i++) {
        hwfit_status st = hwfit_memory_estimate_batch(&c->m70, c->mem_ins, BATCH_N, c->mem_outs,
                                                      c->statuses);
        if (st != HWFIT_OK) die("memory batch", st);
        acc += c->mem_outs[i % BATCH_N].total_bytes;
    }
    sink += acc;
}

static void run_fit_batch(ctx *c, uint64_t n) {
    uint64_t acc = 0;
    for (uint64_t i = 0; i < n; i++) {
        hwfit_status st = hwfit_shard_estimate_batch(&c->m70, c->fit_ins, BATCH_N, c->fit_outs,
                                                     c->statuses);
        if (st != HWFIT_OK) die("fit batch", st);
        acc += c->fit_outs[i % BATCH_N].worst.total_bytes;
    }
    sink += acc;
}

/* The training footprint above over a sweep (sequence length x micro-batch), the model
 * prepared once per batch call: what a planner's or notebook's loop pays per evaluation. */
static void run_train_batch(ctx *c, uint64_t n) {
    uint64_t acc = 0;
    for (uint64_t i = 0; i < n; i++) {
        hwfit_status st = hwfit_shard_estimate_batch(&c->m70, c->train_ins, BATCH_N,
                                                     c->fit_outs, c->statuses);
        if (st != HWFIT_OK) die("training batch", st);
        acc += c->fit_outs[i % BATCH_N].worst.total_bytes;
    }
    sink += acc;
}

static void run_collective_batch(ctx *c, uint64_t n) {
    double acc = 0.0;
    for (uint64_t i = 0; i < n; i++) {
        hwfit_status st = hwfit_collective_estimate_batch(c->coll_ins, BATCH_N, c->coll_outs,
                                                          c->statuses);
        if (st != HWFIT_OK) die("collective batch", st);
        acc += c->coll_outs[i % BATCH_N].time_s;
    }
    sink += (uint64_t)(acc * 1e9);
}

typedef struct bench {
    const char *name;  /* --only name and JSON key stem */
    const char *label; /* table row */
    void (*run)(ctx *, uint64_t);
    uint64_t items;    /* results per call (batch size), for the per-item figure */
} bench;

static const bench benches[] = {
    {"inference_eval", "inference footprint, 70B, 1 device (memory_estimate)", run_inference, 1},
    {"memory_eval", "training footprint, 70B, TP8 ZeRO-1 mb1 4096 full rc (shard_estimate_cached)",
     run_training, 1},
    {"memory_eval_uncached", "the same, model prepared in every call (shard_estimate)",
     run_training_uncached, 1},
    {"memory_eval_varied", "the same cached, another sequence/micro-batch every call",
     run_training_varied, 1},
    {"collective_eval", "collective: all-reduce 1 GiB, 16 H100, 2 nodes", run_collective, 1},
    {"fit_check", "fit check: 70B inference on 8 H100, TP8 (shard_estimate)", run_fit, 1},
    {"plan_search", "layout search: 405B training on 1,024 H100 (shard_search)", run_plan, 1},
    {"eval_plan_search", "layout search with evaluation, Mixtral 8x7B LoRA, 8 H100 (shard_search)",
     run_eval_plan, 1},
    {"step_time_eval", "training step time, the 70B layout above on 8 nodes (perf_estimate)",
     run_step, 1},
    {"perf_plan_search", "layout search ranked by step time, 405B, 1,024 H100 (perf_plan)",
     run_perf_plan, 1},
    {"perf_plan_search_2_threads", "the same search on 2 threads (perf_plan, threads 2)",
     run_perf_plan2, 1},
    {"hf_config_load", "hf_config load: Llama-3.1-70B config.json", run_hf_config, 1},
    {"memory_batch", "memory_estimate_batch, per configuration (1,024 per call)",
     run_memory_batch, BATCH_N},
    {"fit_batch", "shard_estimate_batch, per configuration (1,024 per call)", run_fit_batch,
     BATCH_N},
    {"train_batch", "training footprint over a sweep, per evaluation (1,024 per call)",
     run_train_batch, BATCH_N},
    {"collective_batch", "collective_estimate_batch, per configuration (1,024 per call)",
     run_collective_batch, BATCH_N},
};
#define BENCH_COUNT (sizeof benches / sizeof benches[0])

static size_t bench_index(const char *name) {
    size_t i = 0;
    while (i + 1 < BENCH_COUNT && strcmp(benches[i].name, name) != 0) i++;
    return i;
}

/* ---- setup -------------------------------------------------------------------------------- */

static void load(const char *dir, const char *file, hwfit_model *m, char *path, size_t size) {
    char buf[1024];
    if (path == NULL) {
        path = buf;
        size = sizeof buf;
    }
    snprintf(path, size, "%s/models/%s", dir, file);
    hwfit_error err;
    hwfit_status st = hwfit_hf_config_load(path, m, &err);
    if (st != HWFIT_OK) die(err.message, st);
}

static void setup(ctx *c, const char *data) {
    memset(c, 0, sizeof *c);
    load(data, "llama-3.1-70b.config.json", &c->m70, c->config70, sizeof c->config70);
    load(data, "llama-3.1-405b.config.json", &c->m405, NULL, 0);
    load(data, "mixtral-8x7b-instruct-v0.1.config.json", &c->mixtral, NULL, 0);
    hwfit_status st = hwfit_shard_cache_init(c->shard_cache, sizeof c->shard_cache);
    if (st != HWFIT_OK || hwfit_shard_cache_size() > sizeof c->shard_cache)
        die("shard cache", HWFIT_EINVAL);
    st = hwfit_gpu_find("h100-sxm", &c->h100);
    if (st != HWFIT_OK) die("h100-sxm", st);
    double cap = (double)c->h100->memory_bytes;

    /* Inference: 8 sequences of 8,192 tokens, bf16 weights and KV cache, one device. */
    hwfit_memory_init(&c->infer);
    c->infer.batch = 8;
    c->infer.context = 8192;

    /* Training footprint for a given layout: 64 H100 as TP 8 x DP 8, ZeRO-1, micro-batch 1,
     * 4096 tokens, full recomputation, AdamW, bf16 with fp32 master weights. */
    hwfit_shard_init(&c->train);
    c->train.memory.mode = HWFIT_MEMORY_FULL;
    c->train.memory.context = 4096;
    c->train.gpus = 64;
    c->train.capacity_bytes = cap;
    c->train.layout.tp = 8;
    c->train.layout.dp = 8;
    c->train.layout.zero_stage = 1;
    c->train.layout.micro_batch = 1;
    c->train.layout.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    c->train.layout.sequence_parallel = 1;

    /* Fit check: 70B serving 32 sequences of 8,192 tokens on 8 H100 with TP 8. */
    hwfit_shard_init(&c->fit);
    c->fit.memory.batch = 32;
    c->fit.memory.context = 8192;
    c->fit.gpus = 8;
    c->fit.capacity_bytes = cap;
    c->fit.layout.tp = 8;

    /* Collective: all-reduce of 1 GiB over 16 H100 SXM in 2 nodes with 8 x 400G InfiniBand. */
    hwfit_collective_init(&c->coll);
    if ((st = hwfit_topology_set_gpu(&c->coll.topology, c->h100)) != HWFIT_OK ||
        (st = hwfit_topology_parse_nic("8x400g-ib", &c->coll.topology)) != HWFIT_OK)
        die("topology", st);
    c->coll.topology.nodes = 2;

    /* Layout search: 405B full training on 1,024 H100, the default space (tp, pp, dp, ep,
     * virtual stages, sequence parallelism, ZeRO stage, recomputation, micro-batch 1-8). */
    hwfit_shard_init(&c->plan);
    c->plan.memory.mode = HWFIT_MEMORY_FULL;
    c->plan.memory.context = 4096;
    c->plan.gpus = 1024;
    c->plan.capacity_bytes = cap;
    hwfit_shard_space_init(&c->space);

    /* The same search space for Mixtral 8x7B LoRA on 8 H100, 4096 tokens, global batch 64,
     * evaluating inside training (8 sequences a forward, PyTorch's default allocator). */
    hwfit_shard_init(&c->eval_plan);
    c->eval_plan.memory.mode = HWFIT_MEMORY_LORA;
    c->eval_plan.memory.context = 4096;
    c->eval_plan.memory.batch = 64;
    c->eval_plan.memory.evaluation = 1;
    c->eval_plan.gpus = 8;
    c->eval_plan.capacity_bytes = cap;

    /* Step time: the training layout on H100 SXM nodes of 8 with 8 x 400G InfiniBand. */
    hwfit_perf_init(&c->step);
    if ((st = hwfit_perf_set_gpu(&c->step, c->h100)) != HWFIT_OK ||
        (st = hwfit_topology_parse_nic("8x400g-ib", &c->step.topology)) != HWFIT_OK)
        die("perf inputs", st);
    c->perf_plan = c->step;
    c->step.shard = c->train;
    c->perf_plan.shard = c->plan;
    c->perf_plan2 = c->perf_plan;
    c->perf_plan2.threads = 2;

    /* Batches: sweeps a notebook would run. Memory: inference with context 1K..1M and
     * batch 1..64; fit: the same on 8 H100 with TP 8; collective: sizes 1 KiB..1 GiB. */
    for (size_t i = 0; i < BATCH_N; i++) {
        c->mem_ins[i] = c->infer;
        c->mem_ins[i].context = 1024u << (i % 11);
        c->mem_ins[i].batch = 1 + i / 16 % 64;
        c->fit_ins[i] = c->fit;
        c->fit_ins[i].memory.context = c->mem_ins[i].context;
        c->fit_ins[i].memory.batch = c->mem_ins[i].batch;
        c->train_ins[i] = c->train;
        c->train_ins[i].memory.context = 1024u << (i % 5);
        c->train_ins[i].layout.micro_batch = 1 + (uint32_t)(i / 5 % 4);
        c->coll_ins[i] = c->coll;
        c->coll_ins[i].bytes = (double)(1024u << (i % 21));
    }
}

/* ---- timing -------------------------------------------------------------------------------- */

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct result {
    double median_ns, min_ns; /* per call */
    uint64_t iterations;      /* calls per repetition */
    int repetitions;
} result;

static result measure(const bench *b, ctx *c, double target_ns, int reps) {
    /* Calibrate: double the count until one run takes a tenth of the target. */
    uint64_t iters = 1;
    for (;;) {
        double t0 = now_ns();
        b->run(c, iters);
        double dt = now_ns() - t0;
        if (dt >= target_ns / 10.0 || iters >= (1ull << 40)) {
            double scaled = (double)iters * target_ns / (dt > 1.0 ? dt : 1.0);
            iters = scaled < 1.0 ? 1 : (uint64_t)scaled;
            break;
        }
        iters *= 2;
    }
    b->run(c, iters); /* warm-up */
    double t[64];
    if (reps > 64) reps = 64;
    for (int r = 0; r < reps; r++) {
        double t0 = now_ns();
        b->run(c, iters);
        t[r] = (now_ns() - t0) / (double)iters;
    }
    qsort(t, (size_t)reps, sizeof t[0], cmp_double);
    result res;
    res.median_ns = reps % 2 ? t[reps / 2] : (t[reps / 2 - 1] + t[reps / 2]) / 2.0;
    res.min_ns = t[0];
    res.iterations = iters;
    res.repetitions = reps;
    return res;
}

/* ---- the machine ------------------------------------------------------------------------------ */

static void cpu_model(char *buf, size_t size) {
    snprintf(buf, size, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0) continue;
        const char *p = strchr(line, ':');
        if (p == NULL) continue;
        p++;
        while (*p == ' ' || *p == '\t') p++;
        snprintf(buf, size, "%s", p);
        buf[strcspn(buf, "\n")] = '\0';
        break;
    }
    fclose(f);
}

static void json_string(const char *s) {
    putchar('"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') printf("\\%c", ch);
        else if (ch < 0x20) printf("\\u%04x", ch);
        else putchar(ch);
    }
    putchar('"');
}

/* ---- Python ------------------------------------------------------------------------------------ */

#define PY_KEYS 14
static const char *const py_keys[PY_KEYS] = {
    "python_memory_call_ns",        "python_memory_batch_ns_per_config",
    "python_memory_batch_configs",  "python_fit_call_ns",
    "python_fit_batch_ns_per_config", "python_fit_batch_configs",
    "python_raw_call_ns",           "python_raw_fit_call_ns",
    "python_fits_only_batch_ns_per_config", "python_memory_call_varied_ns",
    "python_fit_request_call_ns",   "python_memory_columns_ns_per_config",
    "python_fit_columns_ns_per_config", "python_memory_call_window_ns"};

/* Run bench_python.py --machine and read its "key value" lines; 0 when unavailable. */
static int run_python(int quick, double values[PY_KEYS], int present[PY_KEYS]) {
#if defined(HWFIT_BENCH_PYTHON_SCRIPT) && defined(HWFIT_BENCH_LIBRARY) && \
    defined(HWFIT_BENCH_PYTHONPATH)
    memset(present, 0, sizeof(int) * PY_KEYS);
    if (system("command -v python3 >/dev/null 2>&1") != 0) return 0;
    if (getenv("HWFIT_LIBRARY") == NULL) setenv("HWFIT_LIBRARY", HWFIT_BENCH_LIBRARY, 1);
    const char *pp = getenv("PYTHONPATH");
    char path[4096];
    snprintf(path, sizeof path, "%s%s%s", HWFIT_BENCH_PYTHONPATH, pp ? ":" : "", pp ? pp : "");
    setenv("PYTHONPATH", path, 1);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "python3 '%s' --machine%s", HWFIT_BENCH_PYTHON_SCRIPT,
             quick ? " --quick" : "");
    FILE *p = popen(cmd, "r");
    if (p == NULL) return 0;
    char line[256];
    int any = 0;
    while (fgets(line, sizeof line, p)) {
        char key[128];
        double v;
        if (sscanf(line, "%127s %lf", key, &v) != 2) continue;
        for (int i = 0; i < PY_KEYS; i++)
            if (strcmp(key, py_keys[i]) == 0) {
                values[i] = v;
                present[i] = 1;
                any = 1;
            }
    }
    return pclose(p) == 0 && any;
#else
    (void)quick;
    (void)values;
    memset(present, 0, sizeof(int) * PY_KEYS);
    return 0;
#endif
}

/* ---- peers ------------------------------------------------------------------------------------- */

/* Timing files of other tools, measured on the same machine in the same run (issue 19):
 * lines "key value" (# starts a comment), e.g. "llm_analysis_train_ns 378000" from timing
 * llm-analysis's train() of the memory_eval workload, or "calculon_layouts_per_s 318"
 * from Calculon's evaluation of one layout. A known key is printed next to our figure of
 * the same question with the ratio; any other key is printed as given. */
#define PEERS_MAX 16
typedef struct peer {
    char key[64];
    double value;
} peer;

typedef struct peer_pair {
    const char *key, *label, *ours; /* peer key, what the peer timed, our key */
    int higher_is_better;           /* a rate (layouts/s) rather than a time */
} peer_pair;

static const peer_pair peer_pairs[] = {
    {"llm_analysis_train_ns", "llm-analysis train(), one training footprint", "memory_eval_ns",
     0},
    {"calculon_layouts_per_s", "Calculon, layouts evaluated per second on one core",
     "perf_plan_layouts_per_s", 1},
};

/* Read a timing file into peers (appending); 0 when it cannot be read. */
static int read_peers(const char *path, peer *peers, size_t *count) {
    FILE *f = fopen(path, "r");
    if (f == NULL) return 0;
    char line[256];
    while (fgets(line, sizeof line, f) && *count < PEERS_MAX) {
        char key[64];
        double v;
        if (line[0] == '#' || sscanf(line, "%63s %lf", key, &v) != 2) continue;
        snprintf(peers[*count].key, sizeof peers[*count].key, "%s", key);
        peers[(*count)++].value = v;
    }
    fclose(f);
    return 1;
}

/* ---- extremes (tests/extremes.h) -------------------------------------------------------------- */

#include "../extremes.h"

/* Each extreme of tests/extremes.h through the request layer, run once (they are meant to
 * take up to 100 ms; a repetition would hide nothing): the time of the run, its status and
 * the option a refusal names. Returns 0, or 2 when a row cannot be set up. */
static int run_extremes(const char *data, int json) {
    if (json) printf("{\"build_type\": \"%s\", \"extremes\": [", HWFIT_BENCH_BUILD_TYPE);
    else
        printf("hwfit_bench --extremes (%s build): each row run once, target 100 ms\n"
               "(ms: wall time; cpu ms: processor time of the process, what a loaded machine "
               "does not inflate; with threads it adds theirs)\n"
               "%-44s %12s %9s  %s\n",
               HWFIT_BENCH_BUILD_TYPE, "extreme", "ms", "cpu ms", "answer");
    double worst = 0.0;
    const char *worst_name = "";
    for (size_t k = 0; k < EXTREMES_COUNT; k++) {
        const extreme *x = &extremes[k];
        hwfit_request *r = NULL;
        if (hwfit_request_new(x->command, &r) != HWFIT_OK) return 2;
        for (size_t i = 0; x->options[i] != NULL; i += 2) {
            char path[1024];
            const char *v = x->options[i + 1];
            if (v != NULL && (strncmp(v, "M:", 2) == 0 || strncmp(v, "X:", 2) == 0)) {
                snprintf(path, sizeof path, "%s/%s/%s", data, v[0] == 'M' ? "models" : "extremes",
                         v + 2);
                v = path;
            }
            if (hwfit_request_set(r, x->options[i], v) != HWFIT_OK) {
                fprintf(stderr, "hwfit_bench: %s: %s\n", x->name, hwfit_request_message(r));
                hwfit_request_free(r);
                return 2;
            }
        }
        struct timespec c0, c1;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
        double t0 = now_ns();
        hwfit_status st = hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL);
        double ms = (now_ns() - t0) / 1e6;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
        double cpu_ms = (double)(c1.tv_sec - c0.tv_sec) * 1e3 + (double)(c1.tv_nsec - c0.tv_nsec) / 1e6;
        const hwfit_option *o = hwfit_request_option(r);
        char what[96];
        if (st == HWFIT_OK) snprintf(what, sizeof what, "answers");
        else
            snprintf(what, sizeof what, "refuses (%s%s%s)", hwfit_status_name(st),
                     o ? ", names " : "", o ? o->name : "");
        if (json)
            printf("%s\n  {\"name\": \"%s\", \"command\": \"%s\", \"ms\": %.3f, "
                   "\"cpu_ms\": %.3f, \"status\": \"%s\"}",
                   k ? "," : "", x->name, x->command, ms, cpu_ms, hwfit_status_name(st));
        else
            printf("%-44s %12.1f %9.1f  %s%s\n", x->name, ms, cpu_ms, what,
                   x->bench_only ? " [bench only]" : "");
        if (ms > worst) {
            worst = ms;
            worst_name = x->name;
        }
        hwfit_request_free(r);
    }
    if (json) printf("\n]}\n");
    else printf("slowest: %s, %.1f ms\n", worst_name, worst);
    return 0;
}

/* Our figure of the question a peer key times: a median time per call, or the layouts/s
 * of the search ranked by step time; 0 when that benchmark did not run. */
static double peer_ours(const peer_pair *pp, const result *res, const int *ran,
                        double perf_rate) {
    if (strcmp(pp->ours, "perf_plan_layouts_per_s") == 0) return perf_rate;
    for (size_t i = 0; i < BENCH_COUNT; i++) {
        char key[96];
        snprintf(key, sizeof key, "%s_ns", benches[i].name);
        if (strcmp(key, pp->ours) == 0 && ran[i])
            return res[i].median_ns / (double)benches[i].items;
    }
    return 0.0;
}

/* ---- main ------------------------------------------------------------------------------------- */

static void usage(FILE *f) {
    fprintf(f, "usage: hwfit_bench [--json] [--quick] [--only NAME [--calls N]] [--no-python] "
               "[--data DIR] [--peers FILE]...\n"
               "       hwfit_bench --extremes [--json] [--data DIR]\n"
               "benchmarks:");
    for (size_t i = 0; i < BENCH_COUNT; i++) fprintf(f, " %s", benches[i].name);
    fprintf(f, " python\n");
}

int main(int argc, char **argv) {
    int json = 0, quick = 0, python = 1, extremes_mode = 0;
    unsigned long long calls = 0;
    const char *only = NULL, *data = getenv("HWFIT_TEST_DATA");
    static peer peers[PEERS_MAX];
    size_t npeers = 0;
    if (data == NULL) data = HWFIT_BENCH_DATA;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) json = 1;
        else if (strcmp(argv[i], "--quick") == 0) quick = 1;
        else if (strcmp(argv[i], "--extremes") == 0) extremes_mode = 1;
        else if (strcmp(argv[i], "--no-python") == 0) python = 0;
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = argv[++i];
        else if (strcmp(argv[i], "--data") == 0 && i + 1 < argc) data = argv[++i];
        else if (strcmp(argv[i], "--peers") == 0 && i + 1 < argc) {
            if (!read_peers(argv[++i], peers, &npeers)) {
                fprintf(stderr, "hwfit_bench: cannot read the timing file %s\n", argv[i]);
                return 2;
            }
        }
        else if (strcmp(argv[i], "--calls") == 0 && i + 1 < argc) calls = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (extremes_mode) return run_extremes(data, json);
    int known = only == NULL || strcmp(only, "python") == 0;
    for (size_t i = 0; i < BENCH_COUNT && !known; i++) known = strcmp(only, benches[i].name) == 0;
    if (!known) {
        usage(stderr);
        return 2;
    }
    static ctx c; /* large: keep it off the stack */
    setup(&c, data);
    if (calls > 0) { /* untimed, for a profiler */
        for (size_t i = 0; i < BENCH_COUNT; i++)
            if (only != NULL && strcmp(only, benches[i].name) == 0) benches[i].run(&c, calls);
        return 0;
    }
    double target = quick ? 2e6 : 2e7;
    int reps = quick ? 3 : 15;

    result res[BENCH_COUNT];
    int ran[BENCH_COUNT] = {0};
    for (size_t i = 0; i < BENCH_COUNT; i++) {
        if (only != NULL && strcmp(only, benches[i].name) != 0) continue;
        res[i] = measure(&benches[i], &c, target, reps);
        ran[i] = 1;
    }
    double py[PY_KEYS];
    int py_have[PY_KEYS];
    int py_ok = 0;
    if (python && (only == NULL || strcmp(only, "python") == 0))
        py_ok = run_python(quick, py, py_have);
    else
        memset(py_have, 0, sizeof py_have);

    char cpu[256];
    cpu_model(cpu, sizeof cpu);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
#if defined(__OPTIMIZE__)
    const int optimized = 1;
#else
    const int optimized = 0;
#endif
    /* Layouts per second: valid layouts evaluated by one search over its time. */
    size_t plan_i = bench_index("plan_search"), perf_i = bench_index("perf_plan_search");
    double plan_rate = ran[plan_i] ? (double)c.plan_valid / (res[plan_i].median_ns * 1e-9) : 0.0;
    double perf_rate = ran[perf_i] ? (double)c.perf_valid / (res[perf_i].median_ns * 1e-9) : 0.0;
    size_t perf2_i = bench_index("perf_plan_search_2_threads");
    double perf2_rate =
        ran[perf2_i] ? (double)c.perf_valid / (res[perf2_i].median_ns * 1e-9) : 0.0;
    /* The one-thread search's processor time (not wall time): what a loaded machine does
     * not inflate by running others in between. */
    double perf_cpu_ns = 0.0;
    if (ran[perf_i]) {
        struct timespec a, b;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
        run_perf_plan(&c, 5);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
        perf_cpu_ns = ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / 5.0;
    }

    if (json) {
        printf("{\"hwfit_version\": ");
        json_string(hwfit_version_string());
        printf(", \"machine\": {\"cpu\": ");
        json_string(cpu);
        printf(", \"cores\": %ld}, \"build_type\": ", cores);
        json_string(HWFIT_BENCH_BUILD_TYPE);
        printf(", \"optimized\": %s, \"repetitions\": %d, \"quick\": %s",
               optimized ? "true" : "false", reps, quick ? "true" : "false");
        for (size_t i = 0; i < BENCH_COUNT; i++) {
            if (!ran[i]) {
                printf(", \"%s_ns\": null", benches[i].name);
                continue;
            }
            double per = (double)benches[i].items;
            printf(", \"%s_ns\": %.2f, \"%s_min_ns\": %.2f", benches[i].name,
                   res[i].median_ns / per, benches[i].name, res[i].min_ns / per);
        }
        if (ran[plan_i])
            printf(", \"plan_layouts_per_s\": %.0f, \"plan_valid_layouts\": %llu, "
                   "\"plan_visited\": %llu",
                   plan_rate, (unsigned long long)c.plan_valid,
                   (unsigned long long)c.plan_visited);
        else
            printf(", \"plan_layouts_per_s\": null");
        if (ran[perf_i])
            printf(", \"perf_plan_layouts_per_s\": %.0f, \"perf_plan_valid_layouts\": %llu",
                   perf_rate, (unsigned long long)c.perf_valid);
        else
            printf(", \"perf_plan_layouts_per_s\": null");
        if (ran[perf_i])
            printf(", \"perf_plan_search_cpu_ns\": %.0f, \"perf_plan_cpu_layouts_per_s\": %.0f",
                   perf_cpu_ns, (double)c.perf_valid / (perf_cpu_ns * 1e-9));
        else
            printf(", \"perf_plan_search_cpu_ns\": null, \"perf_plan_cpu_layouts_per_s\": null");
        if (ran[perf2_i])
            printf(", \"perf_plan_2_threads_layouts_per_s\": %.0f", perf2_rate);
        else
            printf(", \"perf_plan_2_threads_layouts_per_s\": null");
        printf(", \"python\": %s", py_ok ? "true" : "false");
        for (int i = 0; i < PY_KEYS; i++) {
            if (py_have[i]) printf(", \"%s\": %.2f", py_keys[i], py[i]);
            else printf(", \"%s\": null", py_keys[i]);
        }
        printf(", \"peers\": {");
        for (size_t k = 0; k < npeers; k++)
            printf("%s\"%s\": %.6g", k ? ", " : "", peers[k].key, peers[k].value);
        printf("}, \"vs_peers\": {");
        int first = 1;
        for (size_t k = 0; k < npeers; k++)
            for (size_t j = 0; j < sizeof peer_pairs / sizeof peer_pairs[0]; j++) {
                const peer_pair *pp = &peer_pairs[j];
                double ours = peer_ours(pp, res, ran, perf_rate);
                if (strcmp(peers[k].key, pp->key) != 0 || !(ours > 0.0)) continue;
                double times = pp->higher_is_better ? ours / peers[k].value
                                                    : peers[k].value / ours;
                printf("%s\"%s\": {\"peer\": \"%s\", \"peer_value\": %.6g, \"ours\": %.6g, "
                       "\"times_faster\": %.4g}",
                       first ? "" : ", ", pp->ours, pp->key, peers[k].value, ours, times);
                first = 0;
            }
        printf("}, \"batch_size\": %d}\n", BATCH_N);
        return 0;
    }

    printf("hwfit %s benchmark\nmachine: %s, %ld cores; build: %s (%s)\n"
           "repetitions: %d after a warm-up; times per call (per configuration for batches)\n\n",
           hwfit_version_string(), cpu, cores, HWFIT_BENCH_BUILD_TYPE,
           optimized ? "optimized" : "NOT optimized: use the release preset for real figures",
           reps);
    printf("%-76s %14s %14s\n", "benchmark", "median", "min");
    for (size_t i = 0; i < BENCH_COUNT; i++) {
        if (!ran[i]) continue;
        double per = (double)benches[i].items;
        printf("%-76s %11.1f ns %11.1f ns\n", benches[i].label, res[i].median_ns / per,
               res[i].min_ns / per);
    }
    if (ran[plan_i])
        printf("\nlayout search: %llu valid layouts of %llu combinations per search: "
               "%.3g layouts/s on one core\n",
               (unsigned long long)c.plan_valid, (unsigned long long)c.plan_visited, plan_rate);
    if (ran[perf_i])
        printf("layout search ranked by step time: %llu valid layouts per search: %.3g layouts/s "
               "(%.3g per second of processor time)\n",
               (unsigned long long)c.perf_valid, perf_rate,
               (double)c.perf_valid / (perf_cpu_ns * 1e-9));
    if (ran[perf2_i])
        printf("the same on 2 threads: %.3g layouts/s\n", perf2_rate);
    for (size_t k = 0; k < npeers; k++) {
        const peer_pair *pp = NULL;
        for (size_t j = 0; j < sizeof peer_pairs / sizeof peer_pairs[0]; j++)
            if (strcmp(peers[k].key, peer_pairs[j].key) == 0) pp = &peer_pairs[j];
        double ours = pp ? peer_ours(pp, res, ran, perf_rate) : 0.0;
        if (k == 0) printf("\npeers (timing files, same machine):\n");
        if (pp == NULL || !(ours > 0.0)) {
            printf("  %-40s %14.6g\n", peers[k].key, peers[k].value);
            continue;
        }
        double times = pp->higher_is_better ? ours / peers[k].value : peers[k].value / ours;
        printf("  %s: %.6g; ours (%s): %.6g: %.0fx %s\n", pp->label, peers[k].value, pp->ours,
               ours, times, pp->higher_is_better ? "the rate" : "faster");
    }
    if (py_ok) {
        printf("\nPython (bench_python.py; medians):\n");
        for (int i = 0; i < PY_KEYS; i++)
            if (py_have[i]) printf("  %-40s %12.1f\n", py_keys[i], py[i]);
    } else if (python && (only == NULL || strcmp(only, "python") == 0)) {
        printf("\nPython: not measured (python3 or the bindings unavailable)\n");
    }
    return 0;
}

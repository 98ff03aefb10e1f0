/* Thread safety: every calculation, run from several threads at once, gives byte for byte
 * what it gives alone. The threads run on 64 KiB stacks, as a scheduler's workers may: no
 * public call may need more than 16 KiB of stack (tests/stack measures it); the request
 * layer runs here too (assess, and fit once it is a command of the request layer). The `tsan` workflow runs this test under ThreadSanitizer, which
 * also reports any data race (shared mutable state) even when results happen to agree.
 *
 * Each job fills a zeroed buffer from fixed inputs; a reference is computed first on one
 * thread, then THREADS threads run all jobs ROUNDS times in different orders and compare.
 *
 * A plain program, not a Criterion test: Criterion cannot start under ThreadSanitizer
 * ("Could not initialize inheritable arena", Snaipe/Criterion#274). Exit status 0 passes. */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit.h"
#include "../fixtures.h"

#define THREADS 4
#define ROUNDS 200
#define RESULT_MAX 8192
/* 64 KiB; sanitizers' instrumentation (redzones, shadow bookkeeping) grows every frame,
 * so their builds give the threads four times as much. */
#if defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#    define HWFIT_THREADS_SANITIZED 1
#  endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#  define HWFIT_THREADS_SANITIZED 1
#endif
#ifdef HWFIT_THREADS_SANITIZED
#  define STACK_BYTES (256u * 1024u)
#else
#  define STACK_BYTES (64u * 1024u)
#endif
#ifndef HWFIT_SOURCE_DIR
#  define HWFIT_SOURCE_DIR "."
#endif

typedef struct job {
    const char *name;
    size_t (*run)(unsigned char *out); /* bytes written into out (zeroed before) */
} job;

#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "threads.c:%d: %s: ", __LINE__, #cond);                       \
            fprintf(stderr, " " __VA_ARGS__);                                             \
            fputc('\n', stderr);                                                          \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

static hwfit_model llama, deepseek;

static void models(void) {
    fixture_llama_3_1_8b(&llama);
    CHECK(fixture_deepseek_v3(&deepseek) == HWFIT_OK);
}

/* Append a status and a struct to the result. */
#define PUT(st, x)                                                                         \
    do {                                                                                   \
        hwfit_status s_ = (st);                                                            \
        memcpy(out + n, &s_, sizeof s_);                                                   \
        n += sizeof s_;                                                                    \
        memcpy(out + n, &(x), sizeof(x));                                                  \
        n += sizeof(x);                                                                    \
    } while (0)

static size_t job_units(unsigned char *out) {
    size_t n = 0;
    static const char *const texts[] = {"15.36TB", "96GiB", "400Gb/s", "3.2kW", "2e6h",
                                        "1.00000000000000000000000000000000000001e-3"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        double v = 0;
        hwfit_status st = hwfit_units_parse(texts[i], (hwfit_unit)(i % 6), &v);
        PUT(st, v);
        char buf[48] = {0};
        PUT(hwfit_units_format(v, (hwfit_unit)(i % 8), buf, sizeof buf), buf);
    }
    char count[27] = {0};
    PUT(hwfit_units_format_count(70553706496u, count, sizeof count), count);
    return n;
}

static size_t job_dtype(unsigned char *out) {
    size_t n = 0;
    for (size_t i = 0; i < hwfit_dtype_count(); i++) {
        hwfit_dtype d;
        hwfit_dtype_info info;
        uint64_t bytes = 0;
        PUT(hwfit_dtype_at(i, &d), d);
        PUT(hwfit_dtype_describe(d, &info), info);
        PUT(hwfit_dtype_matrix_bytes(d, 4096, 14336, &bytes), bytes);
    }
    hwfit_dtype d;
    PUT(hwfit_dtype_parse("int4-g64", &d), d);
    return n;
}

static size_t job_model(unsigned char *out) {
    size_t n = 0;
    const hwfit_model *ms[] = {&llama, &deepseek};
    for (size_t i = 0; i < 2; i++) {
        hwfit_model_param_counts p;
        memset(&p, 0, sizeof p);
        PUT(hwfit_model_params(ms[i], &p), p);
        hwfit_model_kv_in kin;
        hwfit_model_kv_init(&kin);
        kin.batch = 8;
        kin.context = 131072;
        kin.include_mtp = 1;
        hwfit_model_kv_out kv;
        memset(&kv, 0, sizeof kv);
        PUT(hwfit_model_kv(ms[i], &kin, &kv), kv);
        hwfit_model_flops_out f;
        memset(&f, 0, sizeof f);
        PUT(hwfit_model_flops(ms[i], 8192, &f), f);
        hwfit_model_range r;
        memset(&r, 0, sizeof r);
        PUT(hwfit_model_layer_range(ms[i], 1, 7, &r), r);
        uint64_t lora = 0;
        PUT(hwfit_memory_lora_params(ms[i], 64, HWFIT_LORA_ALL, &lora), lora);
    }
    return n;
}

static size_t job_memory(unsigned char *out) {
    size_t n = 0;
    for (int mode = 0; mode <= (int)HWFIT_MEMORY_QLORA; mode++) {
        hwfit_memory_in in;
        hwfit_memory_init(&in);
        in.mode = (hwfit_memory_mode)mode;
        in.batch = 16;
        in.context = 32768;
        in.recompute = (hwfit_memory_recompute)(mode % 3);
        in.tensor_parallel = 4;
        hwfit_memory_out o;
        memset(&o, 0, sizeof o);
        PUT(hwfit_memory_estimate(mode % 2 ? &deepseek : &llama, &in, &o), o);
        in.micro_batch = 0; /* and one refusal, with its problem */
        hwfit_problem p;
        memset(&p, 0, sizeof p);
        PUT(hwfit_memory_validate(&llama, &in, &p), p);
    }
    return n;
}

static size_t job_hf_config(unsigned char *out) {
    static const char config[] =
        "{\"model_type\": \"qwen3\", \"num_hidden_layers\": 36, \"hidden_size\": 4096, "
        "\"intermediate_size\": 12288, \"num_attention_heads\": 32, "
        "\"num_key_value_heads\": 8, \"vocab_size\": 151936, \"head_dim\": 128, "
        "\"max_position_embeddings\": 40960, \"tie_word_embeddings\": false}";
    hwfit_model local;
    hwfit_error err;
    size_t n = 0;
    memset(&local, 0, sizeof local);
    memset(&err, 0, sizeof err);
    hwfit_status st = hwfit_hf_config_parse(config, sizeof config - 1, "qwen3.json", &local, &err);
    PUT(st, local);
    PUT(hwfit_hf_config_parse("{\"model_type\": 1}", 17, "bad.json", &local, &err), err);
    return n;
}

static size_t job_storage(unsigned char *out) {
    size_t n = 0;
    static const char *const levels[] = {"6", "10", "60", "raidz2", "draid2:8d:1s"};
    for (size_t i = 0; i < 5; i++) {
        hwfit_raid_in in;
        hwfit_raid_init(&in);
        PUT(hwfit_raid_level_parse(levels[i], &in.layout), in.layout);
        in.drives = 24;
        in.drive_bytes = 15.36e12;
        in.drive_read_bytes_per_s = 14e9;
        in.drive_read_iops = 3e6;
        in.drive_write_iops = 5e5;
        hwfit_raid_out o;
        memset(&o, 0, sizeof o);
        PUT(hwfit_raid_evaluate(&in, &o), o);
    }
    hwfit_transfer_in t;
    hwfit_transfer_init(&t);
    t.bytes = 1.4e12;
    t.rate_bytes_per_s = 100e9;
    t.transport = HWFIT_STORAGE_TRANSPORT_NVMEOF_ROCE;
    hwfit_transfer_out to;
    memset(&to, 0, sizeof to);
    PUT(hwfit_transfer_estimate(&t, &to), to);
    return n;
}

static size_t job_power(unsigned char *out) {
    size_t n = 0;
    hwfit_power_budget_in b;
    hwfit_power_budget_init(&b);
    hwfit_power_component c;
    PUT(hwfit_power_component_parse("gpu:8:600W", &c), c);
    PUT(hwfit_power_budget_add(&b, c.kind, c.count, c.watts), c);
    b.gpu_transient_factor = 1.28;
    hwfit_power_budget_out bo;
    memset(&bo, 0, sizeof bo);
    PUT(hwfit_power_budget_evaluate(&b, &bo), bo);
    hwfit_psu_in p;
    hwfit_psu_init(&p);
    p.psus = 4;
    p.psu_rating_w = 3200;
    p.load_w = bo.dc_w;
    p.peak_load_w = bo.peak_dc_w;
    PUT(hwfit_psu_redundancy_parse("3+1", 4, &p.redundant), p.redundant);
    hwfit_psu_out po;
    memset(&po, 0, sizeof po);
    PUT(hwfit_psu_evaluate(&p, &po), po);
    hwfit_thermal_in t;
    hwfit_thermal_init(&t);
    t.heat_w = po.wall_w;
    hwfit_thermal_out th;
    memset(&th, 0, sizeof th);
    PUT(hwfit_thermal_evaluate(&t, &th), th);
    hwfit_energy_in e;
    hwfit_energy_init(&e);
    e.power_w = po.wall_w;
    PUT(hwfit_price_per_kwh_parse("180/MWh", &e.price_per_kwh), e.price_per_kwh);
    hwfit_energy_out eo;
    memset(&eo, 0, sizeof eo);
    PUT(hwfit_energy_evaluate(&e, &eo), eo);
    hwfit_tco_in tc;
    hwfit_tco_init(&tc);
    tc.capex = 350000;
    tc.annual_energy_cost = eo.annual_cost;
    tc.discount_rate = 0.05;
    tc.gpus = 8;
    hwfit_tco_out tco;
    memset(&tco, 0, sizeof tco);
    PUT(hwfit_tco_evaluate(&tc, &tco), tco);
    double eff = 0;
    PUT(hwfit_psu_efficiency(HWFIT_POWER_CLASS_TITANIUM, HWFIT_POWER_TABLE_AUTO, 0.37, &eff), eff);
    return n;
}

static size_t job_host(unsigned char *out) {
    size_t n = 0;
    hwfit_host_in in;
    hwfit_host_init(&in);
    in.sockets = 2;
    in.cores = 128;
    in.gpus = 8;
    in.ram_bytes = 1.5e12;
    in.vram_bytes = 768e9;
    in.channels_per_socket = 12;
    in.dimms = 24;
    in.speed_mts = 6400;
    in.lanes_per_socket = 128;
    in.nvme = 4;
    in.nics = 2;
    in.switches = 2;
    hwfit_host_out o;
    memset(&o, 0, sizeof o);
    PUT(hwfit_host_evaluate(&in, &o), o);
    return n;
}

static size_t job_net(unsigned char *out) {
    size_t n = 0;
    static const char *const links[] = {"pcie5x16", "nvlink4x18", "2x400g-roce", "8x400g-ib",
                                        "xgmi3x4", "upi2x3", "100g-tcp"};
    for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
        hwfit_link_in in;
        memset(&in, 0, sizeof in);
        PUT(hwfit_link_parse(links[i], &in), in);
        hwfit_link_out o;
        memset(&o, 0, sizeof o);
        PUT(hwfit_link_rate(&in, &o), o);
    }
    static const char *const gpus[] = {"rtx-pro-6000-server", "h100-sxm"};
    for (size_t g = 0; g < 2; g++) {
        const hwfit_gpu *gpu = NULL;
        hwfit_status st = hwfit_gpu_find(gpus[g], &gpu);
        PUT(st, gpu);
        for (int op = 0; op <= (int)HWFIT_COLLECTIVE_SENDRECV; op++) {
            hwfit_collective_in in;
            hwfit_collective_init(&in);
            hwfit_topology_set_gpu(&in.topology, gpu);
            in.topology.nodes = 2;
            hwfit_topology_parse_nic("8x400g-ib", &in.topology);
            in.op = (hwfit_collective_op)op;
            in.library = HWFIT_COLLECTIVE_LIBRARY_ANY;
            hwfit_collective_out o;
            memset(&o, 0, sizeof o);
            PUT(hwfit_collective_estimate(&in, &o), o);
        }
        hwfit_collective_step_in s;
        hwfit_collective_step_init(&s);
        hwfit_topology_set_gpu(&s.topology, gpu);
        s.topology.nodes = 2;
        hwfit_topology_parse_nic("8x400g-ib", &s.topology);
        s.tp = 8;
        s.dp = 2;
        s.zero_stage = 1;
        s.layers_per_stage = 80;
        s.micro_batches = 8;
        s.tp_bytes = 64e6;
        s.grad_bytes = 2e9;
        s.param_bytes = 2e9;
        hwfit_collective_step_out so;
        memset(&so, 0, sizeof so);
        PUT(hwfit_collective_step(&s, &so), so);
    }
    return n;
}

/* Sharding: estimates of both models over several layouts, and a search summary. */
static size_t job_shard(unsigned char *out) {
    size_t n = 0;
    const hwfit_model *ms[2] = {&llama, &deepseek};
    /* Each thread's own prepared-model cache, asked about both models in turn. */
    _Alignas(max_align_t) unsigned char cache[8192];
    if (hwfit_shard_cache_size() > sizeof cache ||
        hwfit_shard_cache_init(cache, sizeof cache) != HWFIT_OK)
        return 0;
    const uint32_t tps[3] = {1, 2, 8};
    for (size_t m = 0; m < 2; m++) {
        for (size_t t = 0; t < 3; t++) {
            hwfit_shard_in in;
            hwfit_shard_init(&in);
            in.gpus = 8;
            in.capacity_bytes = 80e9;
            in.layout.tp = tps[t];
            in.layout.dp = 8 / tps[t];
            in.memory.mode = t == 2 ? HWFIT_MEMORY_FULL : HWFIT_MEMORY_INFERENCE;
            in.layout.zero_stage = t == 2 ? 3 : 0;
            hwfit_shard_out o;
            memset(&o, 0, sizeof o);
            PUT(hwfit_shard_estimate(ms[m], &in, &o), o);
            memset(&o, 0, sizeof o);
            PUT(hwfit_shard_estimate_cached(ms[m], &in, &o, cache, sizeof cache), o);
        }
        hwfit_shard_in in;
        hwfit_shard_init(&in);
        in.gpus = 8;
        in.capacity_bytes = 80e9;
        hwfit_shard_space sp;
        hwfit_shard_space_init(&sp);
        hwfit_shard_result r[4];
        hwfit_shard_search_out sum;
        memset(r, 0, sizeof r);
        memset(&sum, 0, sizeof sum);
        PUT(hwfit_shard_search(ms[m], &in, &sp, r, 4, &sum), r);
        PUT(HWFIT_OK, sum);
    }
    return n;
}

/* Throughput: decode and training step times on two cards. */
static size_t job_perf(unsigned char *out) {
    size_t n = 0;
    static const char *const gpus[] = {"rtx-pro-6000-server", "h100-sxm"};
    for (size_t g = 0; g < 2; g++) {
        const hwfit_gpu *gpu = NULL;
        hwfit_status st = hwfit_gpu_find(gpus[g], &gpu);
        PUT(st, gpu);
        for (int mode = 0; mode < 2; mode++) {
            hwfit_perf_in in;
            hwfit_perf_init(&in);
            hwfit_perf_set_gpu(&in, gpu);
            in.shard.gpus = 8;
            in.shard.layout.tp = 8;
            in.shard.memory.mode = mode ? HWFIT_MEMORY_FULL : HWFIT_MEMORY_INFERENCE;
            in.shard.memory.batch = 16;
            hwfit_perf_out o;
            memset(&o, 0, sizeof o);
            PUT(hwfit_perf_estimate(&llama, &in, &o), o);
        }
    }
    return n;
}

/* The layout search ranked by time on 2 and 3 threads of its own (perf_plan threads):
 * the same list as one thread, from every caller thread at once. */
static size_t job_perf_plan(unsigned char *out) {
    size_t n = 0;
    const hwfit_gpu *gpu = NULL;
    hwfit_status st = hwfit_gpu_find("h100-sxm", &gpu);
    PUT(st, gpu);
    hwfit_perf_in in;
    hwfit_perf_init(&in);
    hwfit_perf_set_gpu(&in, gpu);
    in.shard.gpus = 8;
    in.shard.memory.mode = HWFIT_MEMORY_FULL;
    hwfit_shard_space space;
    hwfit_shard_space_init(&space);
    space.tp = 2;
    space.max_micro_batch = 1;
    space.offload = 0;
    for (uint32_t t = 2; t <= 3; t++) {
        in.threads = t;
        hwfit_perf_result res[4];
        hwfit_shard_search_out sum;
        memset(res, 0, sizeof res);
        memset(&sum, 0, sizeof sum);
        PUT(hwfit_perf_plan(&llama, &in, &space, res, 4, &sum), res);
        PUT(HWFIT_OK, sum);
    }
    return n;
}

/* Serving: KV capacity and rates of each engine on two cards. */
static size_t job_serve(unsigned char *out) {
    size_t n = 0;
    static const char *const gpus[] = {"rtx-4090", "h100-sxm"};
    for (size_t g = 0; g < 2; g++) {
        const hwfit_gpu *gpu = NULL;
        hwfit_status st = hwfit_gpu_find(gpus[g], &gpu);
        PUT(st, gpu);
        for (int e = 0; e < 4; e++) {
            hwfit_serve_in in;
            hwfit_serve_init(&in);
            hwfit_serve_set_gpu(&in, gpu);
            in.engine = (hwfit_serve_engine)e;
            hwfit_serve_out o;
            memset(&o, 0, sizeof o);
            PUT(hwfit_serve_estimate(&llama, &in, &o), o.kv_cache_tokens);
            PUT(HWFIT_OK, o.output_tokens_per_s);
        }
    }
    return n;
}

/* Charts: the bytes of an SVG are the result (memory per card and a collective sweep). */
static size_t job_chart(unsigned char *out) {
    size_t n = 0, needed = 0;
    char svg[RESULT_MAX / 2 - 64];
    hwfit_shard_in in;
    hwfit_shard_init(&in);
    in.gpus = 2;
    in.capacity_bytes = 80e9;
    in.layout.tp = 2;
    memset(svg, 0, sizeof svg);
    hwfit_status st = hwfit_chart_memory(&llama, &in, NULL, svg, sizeof svg, &needed);
    PUT(st, needed);
    /* A hash of the document: FNV-1a, 64 bits. */
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < sizeof svg; i++) h = (h ^ (unsigned char)svg[i]) * 1099511628211ull;
    PUT(HWFIT_OK, h);
    hwfit_collective_in line;
    hwfit_collective_init(&line);
    hwfit_chart_collective_in cc;
    hwfit_chart_collective_init(&cc);
    cc.series_count = 1;
    cc.series = &line;
    memset(svg, 0, sizeof svg);
    st = hwfit_chart_collective(&cc, svg, sizeof svg, &needed);
    PUT(st, needed);
    h = 1469598103934665603ull;
    for (size_t i = 0; i < sizeof svg; i++) h = (h ^ (unsigned char)svg[i]) * 1099511628211ull;
    PUT(HWFIT_OK, h);
    return n;
}

/* FNV-1a, 64 bits, of n bytes. */
static uint64_t fnv(const void *p, size_t n) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ ((const unsigned char *)p)[i]) * 1099511628211ull;
    return h;
}

/* One question through the request layer: its status, the result's length and hash. kv:
 * option, value pairs, NULL-terminated. */
static size_t run_request(unsigned char *out, const char *command, hwfit_format format,
                          const char *const *kv) {
    size_t n = 0;
    hwfit_request *r = NULL;
    CHECK(hwfit_request_new(command, &r) == HWFIT_OK, "%s", command);
    for (size_t i = 0; kv[i] != NULL; i += 2)
        CHECK(hwfit_request_set(r, kv[i], kv[i + 1]) == HWFIT_OK, "%s %s %s: %s", command,
              kv[i], kv[i + 1], hwfit_request_message(r));
    hwfit_status st = hwfit_request_run(r, format, NULL, 0, NULL);
    size_t len = 0;
    const char *text = hwfit_request_output(r, &len);
    PUT(st, len);
    uint64_t h = fnv(text, len);
    PUT(HWFIT_OK, h);
    hwfit_request_free(r);
    return n;
}

#define SPECS HWFIT_SOURCE_DIR "/examples/specs/"
#define MODELS HWFIT_SOURCE_DIR "/tests/data/models"

/* assess: the node's findings for two workloads (shard search, perf plan, collectives), as
 * JSON, and its HTML report (the charts). */
static size_t job_request_assess(unsigned char *out) {
    static const char *const kv[] = {"node", SPECS "seed-server.json", "models-dir", MODELS,
                                     "workload", "serve:llama-3.1-8b:bf16:8K",
                                     "workload", "qlora:llama-3.1-8b", NULL};
    size_t n = run_request(out, "assess", HWFIT_FORMAT_JSON, kv);
    return n + run_request(out + n, "assess", HWFIT_FORMAT_HTML, kv);
}

/* fit, when it is a command of the request layer (the CLI's options). */
static size_t job_request_fit(unsigned char *out) {
    if (hwfit_command_by_name("fit") == NULL) {
        out[0] = 1; /* not ported yet: a constant result */
        return 1;
    }
    static const char *const kv[] = {"config", MODELS "/llama-3.1-70b.config.json", "gpu",
                                     "rtx-pro-6000-server", "gpus", "8", "context", "128K",
                                     NULL};
    return run_request(out, "fit", HWFIT_FORMAT_JSON, kv);
}

static const job jobs[] = {
    {"units", job_units},     {"dtype", job_dtype},     {"model", job_model},
    {"memory", job_memory},   {"hf_config", job_hf_config}, {"storage", job_storage},
    {"power", job_power},     {"host", job_host},       {"net", job_net},
    {"shard", job_shard},     {"perf", job_perf},       {"chart", job_chart},
    {"request_assess", job_request_assess}, {"request_fit", job_request_fit},
    {"serve", job_serve},     {"perf_plan", job_perf_plan},
};
#define JOBS (sizeof jobs / sizeof jobs[0])

static unsigned char reference[JOBS][RESULT_MAX];
static size_t reference_size[JOBS];

typedef struct worker {
    unsigned id;
    size_t mismatches;
    char first[128];
} worker;

static void *run_all(void *arg) {
    worker *w = arg;
    static _Thread_local unsigned char buf[RESULT_MAX];
    for (unsigned round = 0; round < ROUNDS; round++) {
        for (size_t k = 0; k < JOBS; k++) {
            size_t j = (k + w->id + round) % JOBS; /* threads run different jobs at once */
            memset(buf, 0, sizeof buf);
            size_t n = jobs[j].run(buf);
            if (n != reference_size[j] || memcmp(buf, reference[j], n) != 0) {
                if (w->mismatches++ == 0)
                    snprintf(w->first, sizeof w->first, "%s differs in round %u", jobs[j].name,
                             round);
            }
        }
    }
    return NULL;
}

int main(void) {
    models();
    for (size_t j = 0; j < JOBS; j++) {
        reference_size[j] = jobs[j].run(reference[j]);
        CHECK(reference_size[j] > 0 && reference_size[j] <= RESULT_MAX, "%s: %zu bytes",
              jobs[j].name, reference_size[j]);
        /* The reference itself is reproducible on this thread. */
        static unsigned char again[RESULT_MAX];
        memset(again, 0, sizeof again);
        CHECK(jobs[j].run(again) == reference_size[j], "%s", jobs[j].name);
        CHECK(memcmp(again, reference[j], reference_size[j]) == 0, "%s", jobs[j].name);
    }
    pthread_t t[THREADS];
    worker w[THREADS];
    pthread_attr_t attr;
    CHECK(pthread_attr_init(&attr) == 0);
    CHECK(pthread_attr_setstacksize(&attr, STACK_BYTES) == 0);
    for (unsigned i = 0; i < THREADS; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].id = i;
        CHECK(pthread_create(&t[i], &attr, run_all, &w[i]) == 0);
    }
    CHECK(pthread_attr_destroy(&attr) == 0);
    for (unsigned i = 0; i < THREADS; i++) CHECK(pthread_join(t[i], NULL) == 0);
    size_t bad = 0;
    for (unsigned i = 0; i < THREADS; i++) {
        if (w[i].mismatches) fprintf(stderr, "thread %u: %zu mismatches, first: %s\n", i,
                                     w[i].mismatches, w[i].first);
        bad += w[i].mismatches;
    }
    printf("threads: %d threads (%u KiB stacks) x %d rounds x %zu jobs, %zu mismatches\n",
           THREADS, STACK_BYTES / 1024u, ROUNDS, (size_t)JOBS, bad);
    return bad ? 1 : 0;
}

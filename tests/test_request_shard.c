/* request_shard: `fit`, `plan` and `perf` through the request layer (hwfit/request.h):
 * their figures against the typed calls of shard.h, perf.h and chart.h (the same number
 * two ways), fit's verdict, every refusal with its status and the option it names, the
 * defaults of the shared option table against the library's init values, and a result
 * in a small buffer. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit/chart.h"
#include "hwfit/collective.h"
#include "hwfit/gpu.h"
#include "hwfit/hf_config.h"
#include "hwfit/memory.h"
#include "hwfit/perf.h"
#include "request/workload.h"
#include "hwfit/request.h"
#include "hwfit/shard.h"

#define MODELS HWFIT_TEST_DATA "/models/"
#define L8 MODELS "llama-3.1-8b.config.json"
#define L70 MODELS "llama-3.1-70b.config.json"
#define L405 MODELS "llama-3.1-405b.config.json"

static void load(const char *path, hwfit_model *m) {
    hwfit_error err;
    cr_assert_eq(hwfit_hf_config_load(path, m, &err), HWFIT_OK, "%s: %s", path, err.message);
}

/* A request of command with pairs of option name and value (NULL value for a flag),
 * ended by NULL. */
static hwfit_request *make(const char *command, const char *const *opts) {
    hwfit_request *r = NULL;
    cr_assert_eq(hwfit_request_new(command, &r), HWFIT_OK);
    for (size_t i = 0; opts[i] != NULL; i += 2)
        cr_assert_eq(hwfit_request_set(r, opts[i], opts[i + 1]), HWFIT_OK, "%s: %s", opts[i],
                     hwfit_request_message(r));
    return r;
}

/* Run as JSON; the result stays in the request. */
static const char *run_json(hwfit_request *r) {
    hwfit_status st = hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL);
    cr_assert_eq(st, HWFIT_OK, "%s: %s", hwfit_status_name(st), hwfit_request_message(r));
    return hwfit_request_output(r, NULL);
}

/* The text after the first "key": at or after from (NULL when absent). */
static const char *value_at(const char *json, const char *key) {
    char pattern[96];
    snprintf(pattern, sizeof pattern, "\"%s\": ", key);
    const char *p = strstr(json, pattern);
    cr_assert_not_null(p, "no key %s in %s", key, json);
    return p + strlen(pattern);
}

static uint64_t json_u64(const char *json, const char *key) {
    return strtoull(value_at(json, key), NULL, 10);
}

static double json_num(const char *json, const char *key) {
    return strtod(value_at(json, key), NULL);
}

static int json_is(const char *json, const char *key, const char *literal) {
    return strncmp(value_at(json, key), literal, strlen(literal)) == 0;
}

/* The layout section of a result, read back into a layout. */
static void json_layout(const char *json, hwfit_layout *l) {
    const char *s = value_at(json, "layout");
    hwfit_layout_init(l);
    l->tp = (uint32_t)json_u64(s, "tp");
    l->pp = (uint32_t)json_u64(s, "pp");
    l->dp = (uint32_t)json_u64(s, "dp");
    l->cp = (uint32_t)json_u64(s, "cp");
    l->ep = (uint32_t)json_u64(s, "ep");
    l->etp = (uint32_t)json_u64(s, "etp");
    l->virtual_stages = (uint32_t)json_u64(s, "virtual_stages");
    l->sequence_parallel = json_is(s, "sequence_parallel", "true");
    l->zero_stage = (uint32_t)json_u64(s, "zero");
    l->micro_batch = json_u64(s, "micro_batch");
    l->global_batch = json_u64(s, "global_batch");
    cr_assert(json_is(s, "offload", "\"none\""));
    cr_assert(json_is(s, "recompute", "\"none\""));
}

/* The seed server: 8 x rtx-pro-6000-server, as the typed calls take it. */
static void seed_in(hwfit_shard_in *in, uint32_t gpus) {
    const hwfit_gpu *g;
    cr_assert_eq(hwfit_gpu_find("rtx-pro-6000-server", &g), HWFIT_OK);
    hwfit_shard_init(in);
    in->gpus = gpus;
    in->capacity_bytes = (double)g->memory_bytes;
}

/* ---- the same number two ways ----------------------------------------------------------- */

Test(request_shard, fit_per_gpu_bytes_is_the_estimate_of_the_layout_shown) {
    const char *const opts[] = {"config", L70, "gpu", "rtx-pro-6000-server", "gpus", "8",
                                "context", "128K", NULL};
    hwfit_request *r = make("fit", opts);
    const char *json = run_json(r);
    hwfit_model m;
    load(L70, &m);
    hwfit_shard_in in;
    seed_in(&in, 8);
    in.memory.context = 131072;
    json_layout(json, &in.layout);
    hwfit_shard_out o;
    cr_assert_eq(hwfit_shard_estimate(&m, &in, &o), HWFIT_OK);
    cr_assert_eq(json_u64(json, "per_gpu_bytes"), o.worst.total_bytes);
    cr_assert_eq(json_u64(json, "usable_bytes"), o.usable_bytes);
    cr_assert_eq(json_u64(json, "kv_tokens"), o.kv_tokens);
    cr_assert(json_is(json, "fits", "true"));
    uint32_t min_gpus;
    hwfit_shard_space space;
    hwfit_shard_space_init(&space);
    cr_assert_eq(hwfit_shard_min_gpus(&m, &in, &space, 256, &min_gpus, NULL), HWFIT_OK);
    cr_assert_eq(json_u64(json, "min_gpus"), min_gpus);
    cr_assert_eq(min_gpus, 3);
    hwfit_request_free(r);
}

/* no-flash-attention means in fit what it means in memory (one option row, one rule):
 * hwfit_memory_in.flash_attention = 0 under the layout shown. Serving Llama 3.1 8B at
 * 8,192 tokens: the 2,048-token prefill chunk's bf16 scores against the whole context,
 * 2,048 x 8,192 x 32 heads x 2 bytes = 1,073,741,824 more on the card; training says it
 * among the assumptions. */
Test(request_shard, fit_no_flash_attention_is_the_memory_input) {
    const char *const eager[] = {"config", L8, "capacity", "80GiB", "context", "8192", "tp",
                                 "1", "pp", "1", "no-flash-attention", NULL, NULL};
    const char *const flash[] = {"config", L8, "capacity", "80GiB", "context", "8192", "tp",
                                 "1", "pp", "1", NULL};
    hwfit_request *a = make("fit", eager), *b = make("fit", flash);
    const char *ja = run_json(a);
    hwfit_model m;
    load(L8, &m);
    hwfit_shard_in in;
    hwfit_shard_init(&in);
    in.capacity_bytes = 85899345920.0;
    in.memory.context = 8192;
    in.memory.flash_attention = 0;
    json_layout(ja, &in.layout);
    hwfit_shard_out o;
    cr_assert_eq(hwfit_shard_estimate(&m, &in, &o), HWFIT_OK);
    cr_assert_eq(json_u64(ja, "per_gpu_bytes"), o.worst.peak_bytes);
    uint64_t with = json_u64(value_at(ja, "breakdown"), "activation_bytes");
    uint64_t without = json_u64(value_at(run_json(b), "breakdown"), "activation_bytes");
    cr_assert_eq(with - without, 1073741824u, "the chunk's scores");
    hwfit_request_free(a);
    hwfit_request_free(b);
    /* Training: fit says it among the assumptions, and plan's best layout moves by what
     * fit's does (the same layout: one card, LoRA's full recomputation). */
    uint64_t fit_need[2], plan_need[2];
    for (int k = 0; k < 2; k++) {
        const char *const train[] = {"config", L8, "capacity", "80GiB", "gpus", "1", "mode",
                                     "lora", "context", "2048",
                                     k ? "no-flash-attention" : NULL, NULL, NULL};
        hwfit_request *f = make("fit", train), *p = make("plan", train);
        const char *jf = run_json(f);
        cr_assert(json_is(value_at(jf, "assumptions"), "flash_attention", k ? "false" : "true"));
        fit_need[k] = json_u64(jf, "per_gpu_bytes");
        plan_need[k] = json_u64(value_at(run_json(p), "layouts"), "per_gpu_bytes");
        hwfit_request_free(f);
        hwfit_request_free(p);
    }
    cr_assert_gt(fit_need[1], fit_need[0]);
    cr_assert_eq(plan_need[1] - plan_need[0], fit_need[1] - fit_need[0]);
}

/* Each communicator's NCCL buffers and the DDP bucket are on every card: the option moves
 * the card's total by exactly the difference, per communicator. */
Test(request_shard, comm_buffer_and_bucket_move_the_card_by_their_bytes) {
    const char *const base[] = {"config", L70, "gpu", "rtx-pro-6000-server", "gpus", "8",
                                "tp", "8", NULL};
    const char *const small[] = {"config", L70, "gpu", "rtx-pro-6000-server", "gpus", "8",
                                 "tp", "8", "comm-buffer", "0B", NULL};
    hwfit_request *a = make("fit", base), *b = make("fit", small);
    uint64_t with = json_u64(run_json(a), "buffer_bytes");
    uint64_t without = json_u64(run_json(b), "buffer_bytes");
    cr_assert_eq(with - without, 67108864u, "one tensor-parallel communicator of 64 MiB");
    cr_assert_eq(without, 0);
    hwfit_request_free(a);
    hwfit_request_free(b);
    /* Under ZeRO the bucket in flight; plain DDP (ZeRO 0) holds its Reducer's buckets, a
     * copy of the card's gradient whatever the bucket size. */
    const char *const train[] = {"config", L70, "gpu", "rtx-pro-6000-server", "gpus", "8",
                                 "mode", "qlora", "tp", "1", "pp", "1", "dp", "8", "zero", "1",
                                 "comm-buffer", "0B", "bucket", "100MiB", NULL};
    hwfit_request *c = make("fit", train);
    cr_assert_eq(json_u64(run_json(c), "buffer_bytes"), 104857600u, "the bucket alone");
    hwfit_request_free(c);
    const char *const ddp[] = {"config", L70, "gpu", "rtx-pro-6000-server", "gpus", "8",
                               "mode", "qlora", "tp", "1", "pp", "1", "dp", "8", "zero", "0",
                               "comm-buffer", "0B", "bucket", "100MiB", NULL};
    hwfit_request *d = make("fit", ddp);
    const char *json = run_json(d);
    cr_assert_eq(json_u64(json, "buffer_bytes"), json_u64(json, "gradient_bytes"),
                 "the Reducer's buckets: the adapters' gradient again");
    cr_assert(json_u64(json, "gradient_bytes") > 104857600u);
    hwfit_request_free(d);
}

/* DeepSpeed's ZeRO optimizer reduces through contiguous buffers of reduce_bucket_size
 * elements in the 16-bit format (stage_1_and_2.py backward: two with overlap_comm; stage3.py:
 * one), on every card, instead of the DDP bucket; the deepspeed profile turns them on. */
Test(request_shard, zero_buckets_replace_the_ddp_bucket) {
    uint64_t got[5];
    const char *const extra[5][10] = {
        {"bucket", "100MiB", NULL},
        {"framework", "deepspeed", NULL},
        {"framework", "deepspeed", "reduce-bucket-size", "2e8", NULL},
        {"framework", "deepspeed", "reduce-bucket-size", "2e8", "overlap-comm", "1", NULL},
        {"zero-buckets", "1", "reduce-bucket-size", "2e8", "overlap-comm", "1", "zero", "3",
         NULL}};
    for (int k = 0; k < 5; k++) {
        const char *argv[32] = {"config", L8, "gpu", "h100-sxm", "gpus", "4", "mode", "full",
                                "dp", "4", "comm-buffer", "0B", NULL};
        int n = 12;
        if (k < 4) { argv[n++] = "zero"; argv[n++] = "2"; }
        for (int j = 0; extra[k][j]; j++) argv[n++] = extra[k][j];
        argv[n] = NULL;
        hwfit_request *r = make("fit", argv);
        got[k] = json_u64(run_json(r), "buffer_bytes");
        hwfit_request_free(r);
    }
    cr_assert_eq(got[0], 104857600u, "no profile: the DDP bucket");
    cr_assert_eq(got[1], 1000000000u, "DeepSpeed's default: 5e8 bf16 elements");
    cr_assert_eq(got[2], 400000000u, "ms-swift's zero2.json: 2e8");
    cr_assert_eq(got[3], 800000000u, "overlap_comm: a second buffer at stage 2");
    /* Stage 3 keeps one buffer with overlap_comm (its ZeRO-3 gathered units beside it). */
    const char *const z3[] = {"config", L8, "gpu", "h100-sxm", "gpus", "4", "mode", "full",
                              "dp", "4", "comm-buffer", "0B", "zero", "3", NULL};
    hwfit_request *r = make("fit", z3);
    uint64_t ddp = json_u64(run_json(r), "buffer_bytes");
    hwfit_request_free(r);
    cr_assert_eq(got[4] - (ddp - 26214400u), 400000000u, "stage 3: one buffer");
    const char *const bad[] = {"config", L8, "gpu", "h100-sxm", "gpus", "4", "mode", "full",
                               "dp", "4", "reduce-bucket-size", "1.5", NULL};
    r = make("fit", bad);
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL), HWFIT_EDOM);
    hwfit_request_free(r);
}

/* FSDP2 units kept gathered (no-reshard-after-forward) and unsharded gradients held across
 * micro-batches (unsharded-grad-bytes): Llama 3.1 8B full on 4 cards, ZeRO-3, bf16. Kept
 * gathered, the card holds the whole model in bf16 (2 x 8,030,261,248) and the head's
 * gradient unit instead of a window of one layer and the head; unsharded fp32 gradients add
 * 4 bytes a parameter. ZeRO-2 refuses neither (no change) and a bad byte count is refused. */
Test(request_shard, units_kept_gathered_and_unsharded_gradients) {
    const uint64_t p = 8030261248u, head = 525336576u + 4096u, bucket = 26214400u;
    const char *const extra[3][6] = {{NULL},
                                     {"no-reshard-after-forward", "1", NULL},
                                     {"no-reshard-after-forward", "1", "unsharded-grad-bytes",
                                      "4", NULL}};
    uint64_t buf[3], grad[3];
    for (int k = 0; k < 3; k++) {
        const char *argv[32] = {"config", L8, "gpus", "4", "mode", "full", "dp", "4",
                                "zero", "3", "capacity", "1024GiB", "comm-buffer", "0B", NULL};
        int n = 14;
        for (int j = 0; extra[k][j]; j++) argv[n++] = extra[k][j];
        argv[n] = NULL;
        hwfit_request *r = make("fit", argv);
        const char *out = run_json(r);
        buf[k] = json_u64(out, "buffer_bytes");
        grad[k] = json_u64(out, "gradient_bytes");
        hwfit_request_free(r);
    }
    cr_assert_eq(buf[1], 2 * p + 2 * head + bucket);
    cr_assert_eq(grad[1], grad[0]);
    cr_assert_eq(buf[2], buf[1]);
    cr_assert_eq(grad[2] - grad[1], 4 * p);
    const char *const bad[] = {"config", L8, "gpus", "4", "mode", "full", "dp", "4", "zero",
                               "3", "capacity", "1024GiB", "unsharded-grad-bytes", "1.5", NULL};
    hwfit_request *r = make("fit", bad);
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL), HWFIT_EDOM);
    hwfit_request_free(r);
    /* Whole, but no format's size (0, 1, 2, 4 or 8): refused by the library's rule. */
    const char *const three[] = {"config", L8, "gpus", "4", "mode", "full", "dp", "4", "zero",
                                 "3", "capacity", "1024GiB", "unsharded-grad-bytes", "3", NULL};
    r = make("fit", three);
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL), HWFIT_EDOM);
    hwfit_request_free(r);
}

/* A context beyond max_position_embeddings is another model's question: refused, naming
 * context, unless long-context says the RoPE is extended (it used to "fit" without a word). */
Test(request_shard, a_context_beyond_the_model_is_refused_unless_extended) {
    const char *const beyond[] = {"config", L8, "gpu", "h100-sxm", "context", "200K", NULL};
    hwfit_request *r = make("fit", beyond);
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL), HWFIT_EDOM);
    cr_assert_str_eq(hwfit_request_option(r)->name, "context");
    cr_assert(strstr(hwfit_request_message(r), "131072") != NULL, "%s", hwfit_request_message(r));
    cr_assert_eq(hwfit_request_set(r, "long-context", NULL), HWFIT_OK);
    const char *json = run_json(r);
    cr_assert_gt(json_u64(json, "max_context"), 131072u, "the limit moves with the flag");
    hwfit_request_free(r);
    const char *const within[] = {"config", L8, "gpu", "h100-sxm", "context", "128K", NULL};
    r = make("fit", within);
    cr_assert_leq(json_u64(run_json(r), "max_context"), 131072u);
    hwfit_request_free(r);
}

Test(request_shard, fit_verdict_is_1_when_it_does_not_fit) {
    const char *const no[] = {"config", L405, "gpu", "rtx-pro-6000-server", "gpus", "8", NULL};
    hwfit_request *r = make("fit", no);
    const char *json = run_json(r);
    cr_assert(json_is(json, "fits", "false"));
    cr_assert_eq(hwfit_request_verdict(r), 1);
    hwfit_request_free(r);
    const char *const yes[] = {"config", L70, "gpu", "rtx-pro-6000-server", "gpus", "8", NULL};
    r = make("fit", yes);
    json = run_json(r);
    cr_assert(json_is(json, "fits", "true"));
    cr_assert_eq(hwfit_request_verdict(r), 0);
    hwfit_request_free(r);
}

Test(request_shard, host_memory_0B_is_a_host_without_room_absent_is_not_checked) {
    const char *const base[] = {"config", L70, "gpu", "rtx-pro-6000-server", "gpus", "8",
                                "mode", "full", "zero", "3", "offload", "optimizer,params",
                                NULL};
    hwfit_request *r = make("fit", base);
    const char *json = run_json(r);
    cr_assert(json_is(json, "host_fits", "true"));
    cr_assert_gt(json_u64(json, "host_bytes"), 0);
    cr_assert_eq(hwfit_request_set(r, "host-memory", "0B"), HWFIT_OK);
    json = run_json(r);
    cr_assert(json_is(json, "gpu_fits", "true"));
    cr_assert(json_is(json, "host_fits", "false"));
    cr_assert(json_is(json, "fits", "false"));
    cr_assert_eq(hwfit_request_verdict(r), 1);
    hwfit_request_free(r);
}

Test(request_shard, fit_svg_is_the_memory_chart_of_the_layout_shown) {
    const char *const opts[] = {"config", L70, "capacity", "96GiB", "gpus", "8", "mode", "qlora",
                                "tp", "2", "pp", "4", "micro-batch", "1", "recompute", "none",
                                "zero", "0", "no-sequence-parallel", NULL, NULL};
    hwfit_request *r = make("fit", opts);
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_SVG, NULL, 0, NULL), HWFIT_OK, "%s",
                 hwfit_request_message(r));
    size_t len;
    const char *svg = hwfit_request_output(r, &len);
    hwfit_model m;
    load(L70, &m);
    hwfit_shard_in in;
    hwfit_shard_init(&in);
    in.gpus = 8;
    in.capacity_bytes = 96.0 * 1073741824.0;
    in.memory.mode = HWFIT_MEMORY_QLORA;
    in.layout.tp = 2;
    in.layout.pp = 4;
    size_t need = 0;
    cr_assert_eq(hwfit_chart_memory(&m, &in, NULL, NULL, 0, &need), HWFIT_EBUFSIZE);
    char *want = malloc(need);
    cr_assert_not_null(want);
    cr_assert_eq(hwfit_chart_memory(&m, &in, NULL, want, need, NULL), HWFIT_OK);
    cr_assert_eq(len + 1, need);
    cr_assert_str_eq(svg, want);
    free(want);
    /* perf and plan draw no chart. */
    hwfit_request_free(r);
    const char *const p[] = {"config", L8, "gpu", "h100-sxm", NULL};
    r = make("perf", p);
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_SVG, NULL, 0, NULL), HWFIT_EUNSUPPORTED);
    hwfit_request_free(r);
}

Test(request_shard, plan_ranks_as_hwfit_perf_plan) {
    const char *const opts[] = {"config", L8, "gpu", "rtx-pro-6000-server", "gpus", "8",
                                "mode", "full", "batch", "64", "top", "3", NULL};
    hwfit_request *r = make("plan", opts);
    const char *json = run_json(r);
    hwfit_model m;
    load(L8, &m);
    const hwfit_gpu *g;
    cr_assert_eq(hwfit_gpu_find("rtx-pro-6000-server", &g), HWFIT_OK);
    hwfit_perf_in in;
    hwfit_perf_init(&in);
    cr_assert_eq(hwfit_perf_set_gpu(&in, g), HWFIT_OK);
    in.shard.gpus = 8;
    in.shard.memory.mode = HWFIT_MEMORY_FULL;
    hwfit_shard_space space;
    hwfit_shard_space_init(&space);
    space.global_batch = 64;
    hwfit_perf_result res[3];
    hwfit_shard_search_out sum;
    cr_assert_eq(hwfit_perf_plan(&m, &in, &space, res, 3, &sum), HWFIT_OK);
    cr_assert_eq(json_u64(json, "visited"), sum.visited);
    cr_assert_eq(json_u64(json, "valid_layouts"), sum.valid);
    cr_assert_eq(json_u64(json, "fitting_layouts"), sum.fitting);
    cr_assert(json_is(json, "ranked_by", "\"step_time\""));
    const char *row = value_at(json, "layouts");
    for (size_t i = 0; i < 3; i++) {
        row = strstr(row, "{ \"rank\"");
        cr_assert_not_null(row);
        cr_assert_eq(json_u64(row, "rank"), i + 1);
        cr_assert_eq(json_u64(row, "per_gpu_bytes"), res[i].shard.per_gpu_bytes);
        cr_assert_eq(json_num(row, "step_time_s"), res[i].step_time_s);
        cr_assert_eq(json_num(row, "tokens_per_s"), res[i].tokens_per_s);
        cr_assert_eq(json_num(row, "mfu"), res[i].mfu);
        cr_assert_eq(json_num(row, "bubble_s"), res[i].bubble_s);
        row++;
    }
    /* The table as CSV: a header and one line per layout. */
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_CSV, NULL, 0, NULL), HWFIT_OK);
    const char *csv = hwfit_request_output(r, NULL);
    cr_assert(strncmp(csv, "rank,tp,pp,dp,cp,ep,etp,", 24) == 0, "%s", csv);
    size_t lines = 0;
    for (const char *c = csv; *c; c++) lines += *c == '\n';
    cr_assert_eq(lines, 4);
    hwfit_request_free(r);
}

Test(request_shard, perf_is_hwfit_perf_estimate_of_the_layout_given) {
    const char *const opts[] = {"config", L8, "gpu", "h100-sxm", "gpus", "8", "tp", "8",
                                "batch", "16", "context", "1000", "output-tokens", "1000",
                                NULL};
    hwfit_request *r = make("perf", opts);
    const char *json = run_json(r);
    hwfit_model m;
    load(L8, &m);
    const hwfit_gpu *g;
    cr_assert_eq(hwfit_gpu_find("h100-sxm", &g), HWFIT_OK);
    hwfit_perf_in in;
    hwfit_perf_init(&in);
    cr_assert_eq(hwfit_perf_set_gpu(&in, g), HWFIT_OK);
    in.shard.gpus = 8;
    json_layout(json, &in.shard.layout);
    cr_assert_eq(in.shard.layout.tp, 8);
    in.shard.memory.batch = 16;
    in.shard.memory.context = 1000;
    in.output_tokens = 1000;
    hwfit_perf_out o;
    cr_assert_eq(hwfit_perf_estimate(&m, &in, &o), HWFIT_OK);
    cr_assert_eq(json_num(json, "decode_tokens_per_s"), o.decode_tokens_per_s);
    cr_assert_eq(json_num(json, "time_per_output_token_s"), o.time_per_output_token_s);
    cr_assert_eq(json_num(json, "prefill_s"), o.prefill_s);
    cr_assert_eq(json_u64(json, "per_gpu_bytes"), o.shard.worst.total_bytes);
    cr_assert_eq(json_u64(json, "decode_context"), 1500);
    cr_assert(json_is(json, "step_time_s", "null"));
    hwfit_request_free(r);
}

/* Training: tokens/s per GPU is tokens/s over the job's cards, the bubble as the library's
 * at the interleaved layout given (32 layers on 2 x 3 chunks: Megatron-Core's uneven
 * split). */
Test(request_shard, perf_training_rate_per_gpu_and_interleaved_bubble) {
    const char *const opts[] = {"config", L8, "gpu", "h100-sxm", "gpus", "8", "mode", "full",
                                "tp", "4", "pp", "2", "dp", "1", "virtual-stages", "3",
                                "micro-batch", "1", "batch", "8", "recompute", "none",
                                "zero", "0", "context", "2048", NULL};
    hwfit_request *r = make("perf", opts);
    const char *json = run_json(r);
    hwfit_model m;
    load(L8, &m);
    const hwfit_gpu *g;
    cr_assert_eq(hwfit_gpu_find("h100-sxm", &g), HWFIT_OK);
    hwfit_perf_in in;
    hwfit_perf_init(&in);
    cr_assert_eq(hwfit_perf_set_gpu(&in, g), HWFIT_OK);
    in.shard.gpus = 8;
    in.shard.memory.mode = HWFIT_MEMORY_FULL;
    in.shard.memory.context = 2048;
    json_layout(json, &in.shard.layout);
    cr_assert_eq(in.shard.layout.virtual_stages, 3); /* 32 layers do not divide by 6 */
    hwfit_perf_out o;
    cr_assert_eq(hwfit_perf_estimate(&m, &in, &o), HWFIT_OK);
    cr_assert_eq(json_num(json, "tokens_per_s"), o.tokens_per_s);
    cr_assert_eq(json_num(json, "tokens_per_s_per_gpu"), o.tokens_per_s / 8.0);
    cr_assert_eq(json_num(json, "bubble_s"), o.bubble_s);
    cr_assert_gt(o.bubble_s, 0.0);
    hwfit_request_free(r);
}

/* ---- refusals ------------------------------------------------------------------------------ */

/* Run command with opts; it must fail with status, naming option (NULL: none), with a
 * message containing words. */
static void refused(const char *command, const char *const *opts, hwfit_status status,
                    const char *option, const char *words) {
    hwfit_request *r = make(command, opts);
    char buf[64];
    hwfit_status st = hwfit_request_run(r, HWFIT_FORMAT_JSON, buf, sizeof buf, NULL);
    const char *msg = hwfit_request_message(r);
    cr_assert_eq(st, status, "%s: %s, want %s (%s)", command, hwfit_status_name(st),
                 hwfit_status_name(status), msg);
    const hwfit_option *o = hwfit_request_option(r);
    const char *spelled = hwfit_request_option_name(r); /* the name or alias as set */
    if (option == NULL) cr_assert_null(o, "%s names %s", msg, o ? o->name : "");
    else cr_assert(o != NULL && strcmp(spelled, option) == 0, "%s: names %s, want %s", msg,
                   o ? spelled : "nothing", option);
    cr_assert_not_null(strstr(msg, words), "%s: '%s' lacks '%s'", command, msg, words);
    cr_assert_null(strstr(msg, "--"), "CLI spelling in '%s'", msg);
    hwfit_request_free(r);
}

#define SEED "gpu", "rtx-pro-6000-server", "gpus", "8"

Test(request_shard, a_tp_that_does_not_divide_names_tp) {
    const char *const heads[] = {"config", L70, "gpu", "h100-sxm", "gpus", "3", "tp", "3", NULL};
    refused("fit", heads, HWFIT_ELAYOUT, "tp", "the 64 attention heads do not divide by 3");
    refused("perf", heads, HWFIT_ELAYOUT, "tp", "the 64 attention heads do not divide by 3");
    const char *const count[] = {"config", L70, SEED, "tp", "3", NULL};
    refused("fit", count, HWFIT_ELAYOUT, "tp", "tp 3 x pp 1 x dp 1 x cp 1 is not the 8 GPUs");
    /* plan lists the valid layouts of the options: none. */
    hwfit_request *r = make("plan", count);
    const char *json = run_json(r);
    cr_assert_eq(json_u64(json, "valid_layouts"), 0);
    cr_assert(json_is(json, "layouts", "[]") || json_is(json, "layouts", "[\n"));
    hwfit_request_free(r);
}

Test(request_shard, layout_refusals_name_their_option) {
    const char *const zero[] = {"config", L70, SEED, "zero", "1", NULL};
    refused("fit", zero, HWFIT_ELAYOUT, "zero", "1: ZeRO stages above 0 apply to training");
    const char *const vs[] = {"config", L70, SEED, "virtual-stages", "2", NULL};
    refused("perf", vs, HWFIT_ELAYOUT, "virtual-stages", "2: virtual stages need");
    const char *const off[] = {"config", L70, SEED, "mode", "full", "zero", "0", "offload",
                               "optimizer", NULL};
    refused("fit", off, HWFIT_ELAYOUT, "offload", "optimizer: optimizer offload needs ZeRO");
}

Test(request_shard, input_refusals_name_their_option) {
    const char *const no_config[] = {SEED, NULL};
    refused("fit", no_config, HWFIT_EINVAL, "model", "is required");
    const char *const no_card[] = {"config", L70, "gpus", "8", NULL};
    refused("fit", no_card, HWFIT_EINVAL, "gpu", "unless capacity is given");
    const char *const missing[] = {"config", "/nonexistent/config.json", SEED, NULL};
    refused("plan", missing, HWFIT_EIO, "config", "nonexistent");
    const char *const util[] = {"config", L70, SEED, "utilization", "0", NULL};
    refused("fit", util, HWFIT_EDOM, "utilization", "must be in (0, 1]");
    refused("plan", util, HWFIT_EDOM, "utilization", "must be in (0, 1]");
    const char *const eff[] = {"config", L70, SEED, "prefill-efficiency", "0", NULL};
    refused("perf", eff, HWFIT_EDOM, "prefill-efficiency", "must be in (0, 1]");
    const char *const grads[] = {"config", L70, SEED, "mode", "full", "gradients", "nf4", NULL};
    refused("fit", grads, HWFIT_EDOM, "gradients", "must be a plain format");
    const char *const int4[] = {"config", L70, SEED, "mode", "full", "weights", "int4", NULL};
    refused("fit", int4, HWFIT_EUNSUPPORTED, "weights", "must be a plain format");
    refused("plan", int4, HWFIT_EUNSUPPORTED, "weights", "must be a plain format");
    const char *const sp[] = {"config", L70, SEED, "sequence-parallel", NULL,
                              "no-sequence-parallel", NULL, NULL};
    refused("fit", sp, HWFIT_EINVAL, "sequence-parallel", "excludes no-sequence-parallel");
    const char *const offload[] = {"config", L70, SEED, "offload", "gradients", NULL};
    refused("fit", offload, HWFIT_EPARSE, "offload", "'gradients' is not optimizer");
    const char *const targets[] = {"config", L70, SEED, "lora-targets", "wq", NULL};
    refused("fit", targets, HWFIT_EPARSE, "lora-targets", "'wq' is not a list");
    const char *const nic[] = {"config", L8, "gpu", "h100-sxm", "gpus", "16", NULL};
    refused("plan", nic, HWFIT_EINVAL, "nic", "16 GPUs span 2 nodes of 8");
    const char *const bad_nic[] = {"config", L8, SEED, "nic", "fast", NULL};
    refused("perf", bad_nic, HWFIT_EPARSE, "nic", "'fast' is not a NIC");
}

Test(request_shard, perf_refusals_name_their_option) {
    const char *const capacity[] = {"config", L8, "capacity", "80GiB", NULL};
    refused("perf", capacity, HWFIT_EINVAL, "gpu", "throughput needs the card's FLOPS");
    const char *const fp4[] = {"config", L8, "gpu", "a100-sxm-80gb", "precision", "fp4", NULL};
    refused("perf", fp4, HWFIT_EUNSUPPORTED, "precision",
            "a100-sxm-80gb has no tensor throughput in fp4");
}

Test(request_shard, bounds_refuse_at_set) {
    hwfit_request *r;
    cr_assert_eq(hwfit_request_new("plan", &r), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "top", "0"), HWFIT_EDOM);
    cr_assert_str_eq(hwfit_request_option(r)->name, "top");
    cr_assert_eq(hwfit_request_set(r, "top", "1001"), HWFIT_EDOM);
    cr_assert_eq(hwfit_request_set(r, "tp", "0"), HWFIT_EDOM);
    cr_assert_eq(hwfit_request_set(r, "zero", "4"), HWFIT_EDOM);
    cr_assert_eq(hwfit_request_set(r, "gpus", "0"), HWFIT_EDOM);
    cr_assert_eq(hwfit_request_set(r, "batch", "0"), HWFIT_EDOM);
    cr_assert_eq(hwfit_request_set(r, "utilization", "1.5"), HWFIT_EDOM);
    cr_assert_eq(hwfit_request_set(r, "gpu", "h900"), HWFIT_ENOTFOUND);
    cr_assert_eq(hwfit_request_set(r, "weights", "int3"), HWFIT_ENOTFOUND);
    cr_assert_eq(hwfit_request_set(r, "precision", "fp16"), HWFIT_ENOTFOUND);
    hwfit_request_free(r);
}

/* ---- defaults ------------------------------------------------------------------------------ */

static const char *default_of(const char *command, const char *option) {
    const hwfit_option *o = hwfit_option_by_name(hwfit_command_by_name(command), option);
    cr_assert_not_null(o, "%s has no option %s", command, option);
    return o->default_text;
}

static double default_num(const char *command, const char *option) {
    const hwfit_option *o = hwfit_option_by_name(hwfit_command_by_name(command), option);
    cr_assert_not_null(o);
    cr_assert_not_null(o->default_text, "%s has no default", option);
    double v;
    hwfit_unit unit = o->kind == HWFIT_OPTION_QUANTITY ? o->unit : HWFIT_UNIT_NONE;
    cr_assert_eq(hwfit_units_parse(o->default_text, unit, &v), HWFIT_OK, "%s", o->default_text);
    return v;
}

static void same_dtype(const char *text, hwfit_dtype want) {
    char name[HWFIT_DTYPE_NAME_SIZE], want_name[HWFIT_DTYPE_NAME_SIZE];
    hwfit_dtype d;
    cr_assert_eq(hwfit_dtype_parse(text, &d), HWFIT_OK);
    cr_assert_eq(hwfit_dtype_format(d, name, sizeof name), HWFIT_OK);
    cr_assert_eq(hwfit_dtype_format(want, want_name, sizeof want_name), HWFIT_OK);
    cr_assert_str_eq(name, want_name);
}

Test(request_shard, defaults_are_the_library_init_values) {
    hwfit_perf_in p;
    hwfit_perf_init(&p);
    const hwfit_shard_in *s = &p.shard;
    const hwfit_memory_in *m = &s->memory;
    hwfit_shard_space sp;
    hwfit_shard_space_init(&sp);
    hwfit_topology topo;
    hwfit_topology_init(&topo);
    const char *const commands[] = {"fit", "plan", "perf"};
    for (size_t c = 0; c < 3; c++) {
        const char *cmd = commands[c];
        cr_assert_eq(default_num(cmd, "gpus"), s->gpus);
        cr_assert_str_eq(default_of(cmd, "mode"), "inference");
        cr_assert_eq(m->mode, HWFIT_MEMORY_INFERENCE);
        same_dtype(default_of(cmd, "kv"), m->kv);
        same_dtype(default_of(cmd, "gradients"), m->gradients);
        cr_assert_eq(default_num(cmd, "context"), (double)m->context);
        cr_assert_eq(default_num(cmd, "prefill-chunk"), (double)m->prefill_chunk);
        cr_assert_eq(default_num(cmd, "overhead"), m->overhead_bytes);
        cr_assert_str_eq(default_of(cmd, "optimizer"), "adamw");
        cr_assert_eq(m->optimizer, HWFIT_MEMORY_ADAMW);
        cr_assert_eq(default_num(cmd, "lora-rank"), m->lora_rank);
        unsigned targets;
        cr_assert_eq(hwfit_memory_lora_targets_parse(default_of(cmd, "lora-targets"), &targets),
                     HWFIT_OK);
        cr_assert_eq(targets, m->lora_targets);
        cr_assert_eq(default_num(cmd, "cp"), sp.cp);
        cr_assert_null(default_of(cmd, "virtual-stages")); /* searched */
        cr_assert_eq(sp.virtual_stages, 0);
        unsigned offload;
        cr_assert_eq(hwfit_shard_offload_parse(default_of(cmd, "offload"), &offload), HWFIT_OK);
        cr_assert_eq((int)offload, sp.offload);
        cr_assert_eq(default_num(cmd, "utilization"), s->utilization);
        cr_assert_eq(default_num(cmd, "reserve"), s->reserve_bytes);
        cr_assert_eq(default_num(cmd, "host-buffer-factor"), s->host_buffer_factor);
        cr_assert_eq(default_num(cmd, "gpus-per-node"), p.topology.gpus_per_node);
        cr_assert_eq(default_num(cmd, "gpus-per-node"), topo.gpus_per_node);
        cr_assert_str_eq(default_of(cmd, "p2p"), "auto");
        cr_assert_eq(p.topology.p2p, HWFIT_TOPOLOGY_AUTO);
        cr_assert_eq(default_num(cmd, "output-tokens"), (double)p.output_tokens);
        hwfit_perf_precision prec;
        cr_assert_eq(hwfit_perf_precision_from_name(default_of(cmd, "precision"), &prec),
                     HWFIT_OK);
        cr_assert_eq(prec, p.precision);
        cr_assert_eq(default_num(cmd, "prefill-efficiency"), p.prefill_efficiency);
        cr_assert_eq(default_num(cmd, "decode-efficiency"), p.decode_compute_efficiency);
        cr_assert_eq(default_num(cmd, "memory-efficiency"), p.memory_efficiency);
        cr_assert_eq(default_num(cmd, "training-efficiency"), p.training_efficiency);
        cr_assert_eq(default_num(cmd, "low-precision-efficiency"), p.low_precision_efficiency);
        cr_assert_eq(default_num(cmd, "moe-expert-overhead"), p.moe_expert_overhead_s);
        cr_assert_eq(default_num(cmd, "activation-passes"), p.activation_passes);
        cr_assert_eq(default_num(cmd, "selective-matmul-recompute"),
                     p.selective_matmul_recompute);
        cr_assert_eq(default_num(cmd, "step-overhead"), p.step_overhead_s);
        cr_assert_eq(default_num(cmd, "tp-overlap"), p.tp_overlap);
        cr_assert_eq(default_num(cmd, "pp-overlap"), p.pp_overlap);
        cr_assert_eq(default_num(cmd, "dp-overlap"), p.dp_overlap);
        cr_assert_eq(default_num(cmd, "ep-overlap"), p.ep_overlap);
        cr_assert_eq(default_num(cmd, "comm-buffer"), s->comm_group_bytes);
        cr_assert_eq(default_num(cmd, "bucket"), s->bucket_bytes);
        cr_assert_eq(default_num(cmd, "reduce-bucket-size"), s->reduce_bucket_elements);
        /* Those without a value say why: searched, derived or not checked. */
        const char *const words[] = {"gpu", "capacity", "weights", "batch", "micro-batch",
                                     "recompute", "tp", "pp", "dp", "ep", "etp", "zero",
                                     "host-memory", "nic", "target-rate", "power-limit",
                                     "power-exponent", "memory-bandwidth"};
        for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
            const hwfit_option *o = hwfit_option_by_name(hwfit_command_by_name(cmd), words[i]);
            cr_assert(o != NULL && o->default_text == NULL && o->default_help != NULL,
                      "%s %s", cmd, words[i]);
        }
    }
    cr_assert_eq(default_num("plan", "top"), 10);
    cr_assert_null(hwfit_option_by_name(hwfit_command_by_name("fit"), "top"));
    cr_assert_null(hwfit_option_by_name(hwfit_command_by_name("fit"), "svg"));
}

Test(request_shard, commands_have_their_formats) {
    const hwfit_command *fit = hwfit_command_by_name("fit");
    const hwfit_command *plan = hwfit_command_by_name("plan");
    const hwfit_command *perf = hwfit_command_by_name("perf");
    cr_assert(fit && plan && perf);
    unsigned jt = 1u << HWFIT_FORMAT_JSON | 1u << HWFIT_FORMAT_TEXT;
    cr_assert_eq(fit->formats, jt | 1u << HWFIT_FORMAT_SVG);
    cr_assert_eq(plan->formats, jt | 1u << HWFIT_FORMAT_CSV);
    cr_assert_eq(perf->formats, jt);
    size_t n = 0;
    for (const hwfit_option *o = hwfit_option_next(plan, NULL); o; o = hwfit_option_next(plan, o))
        n++;
    /* the shared options, top, threads, gpu-file, the framework options and the three
     * flags memory has in its own table (no-master-weights, no-dropout,
     * no-flash-attention) */
    cr_assert_eq(n, HWFIT__WORKLOAD_NOPTS + 3 + HWFIT__FRAMEWORK_NOPTS + HWFIT__FRAMEWORK_EXTRA_NOPTS);
}

/* ---- buffers ------------------------------------------------------------------------------- */

Test(request_shard, a_small_buffer_gets_ebufsize_and_the_size) {
    const char *const opts[] = {"config", L8, "capacity", "24GiB", NULL};
    hwfit_request *r = make("fit", opts);
    char small[32];
    size_t need = 0;
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, small, sizeof small, &need),
                 HWFIT_EBUFSIZE);
    size_t len;
    const char *kept = hwfit_request_output(r, &len);
    cr_assert_eq(need, len + 1);
    cr_assert_gt(need, sizeof small);
    char *buf = malloc(need);
    cr_assert_not_null(buf);
    size_t again = 0;
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, buf, need, &again), HWFIT_OK);
    cr_assert_eq(again, need);
    cr_assert_str_eq(buf, kept);
    cr_assert_eq(buf[0], '{');
    free(buf);
    hwfit_request_free(r);
}

/* plan ranks every layout at one global batch: about 4M tokens by default (4,194,304 /
 * context sequences, to a power of two: Llama 3's initial batch, workload.h), or --batch;
 * fit keeps each layout's own. The top layout is what perf gives at that batch. */
Test(request_shard, plan_ranks_at_one_global_batch) {
    cr_assert_eq(hwfit__workload_default_batch(4096), 1024);
    cr_assert_eq(hwfit__workload_default_batch(8192), 512);
    cr_assert_eq(hwfit__workload_default_batch(3000), 1024); /* 1,398: nearer 1,024 by ratio */
    cr_assert_eq(hwfit__workload_default_batch(2000), 2048); /* 2,097 */
    cr_assert_eq(hwfit__workload_default_batch(1u << 23), 1);
    const char *const opts[] = {"model", L8, "gpu", "h100-sxm", "gpus", "8", "mode", "full",
                                "top", "1", NULL};
    hwfit_request *r = make("plan", opts);
    const char *json = run_json(r);
    cr_assert_eq(json_u64(json, "global_batch"), 1024);
    cr_assert_eq(json_u64(json, "global_batch_tokens"), 4194304);
    cr_assert(json_is(json, "global_batch_source", "\"default: about 4M tokens"));
    cr_assert(json_is(json, "ranked_by", "\"step_time\""));
    const char *row = strstr(json, "\"layouts\"");
    cr_assert_not_null(row);
    double step = json_num(row, "step_time_s");
    cr_assert_eq(json_u64(row, "global_batch"), 1024);
    /* the row's layout, as perf options */
    static const char *const keys[] = {"tp", "pp", "dp", "cp", "ep", "etp", "micro_batch",
                                       "virtual_stages", "zero"};
    static const char *const names[] = {"tp", "pp", "dp", "cp", "ep", "etp", "micro-batch",
                                        "virtual-stages", "zero"};
    char values[9][24];
    const char *perf[64] = {"model", L8, "gpu", "h100-sxm", "gpus", "8", "mode", "full",
                            "batch", "1024"};
    size_t n = 10;
    for (size_t k = 0; k < 9; k++) {
        snprintf(values[k], sizeof values[k], "%llu", (unsigned long long)json_u64(row, keys[k]));
        perf[n++] = names[k];
        perf[n++] = values[k];
    }
    char recompute[16] = "";
    sscanf(value_at(row, "recompute"), "\"%15[a-z]\"", recompute);
    perf[n++] = "recompute";
    perf[n++] = recompute;
    perf[n++] = json_is(row, "sequence_parallel", "true") ? "sequence-parallel"
                                                          : "no-sequence-parallel";
    perf[n++] = NULL;
    perf[n] = NULL;
    cr_assert(json_is(row, "offload", "\"none\""));
    hwfit_request *plan = r;
    r = make("perf", perf);
    const char *pj = run_json(r);
    cr_assert_float_eq(json_num(pj, "step_time_s"), step, 1e-9 * step);
    hwfit_request_free(r);
    hwfit_request_free(plan);
    const char *const fit[] = {"model", L8, "gpu", "h100-sxm", "gpus", "8", "mode", "full", NULL};
    r = make("fit", fit);
    json = run_json(r);
    cr_assert(json_is(json, "global_batch_source", "\"each layout's own"));
    hwfit_request_free(r);
}

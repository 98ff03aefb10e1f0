/* serve: engine KV capacity against what the engines log (reference values), the engines'
 * formulas recomputed from the breakdown, consistency (a larger memory fraction never gives
 * fewer KV tokens, a longer request never more concurrency), rates that follow physics,
 * every refusal; and the `serve` command of the request layer: JSON equal to the C API,
 * refusals naming their option, defaults equal to init(), a small buffer refused. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readers/json.h"
#include "hwfit/request.h"
#include "internal.h"
#include "hwfit.h"

#define CONFIG(name) HWFIT_TEST_DATA "/models/" name ".config.json"

static hwfit_model llama8, qwen_moe, deepseek;

static void load(const char *path, hwfit_model *m) {
    hwfit_error err;
    cr_assert_eq(hwfit_hf_config_load(path, m, &err), HWFIT_OK, "%s: %s", path, err.message);
}

static void setup(void) {
    load(CONFIG("llama-3.1-8b"), &llama8);
    load(CONFIG("qwen1.5-moe-a2.7b"), &qwen_moe);
    load(CONFIG("deepseek-v3"), &deepseek);
}

TestSuite(serve, .init = setup);

static hwfit_dtype dt(const char *name) {
    hwfit_dtype d;
    cr_assert_eq(hwfit_dtype_parse(name, &d), HWFIT_OK, "%s", name);
    return d;
}

static hwfit_serve_in card(const char *gpu, hwfit_serve_engine engine) {
    hwfit_serve_in in;
    hwfit_serve_init(&in);
    const hwfit_gpu *g;
    cr_assert_eq(hwfit_gpu_find(gpu, &g), HWFIT_OK, "%s", gpu);
    cr_assert_eq(hwfit_serve_set_gpu(&in, g), HWFIT_OK);
    in.engine = engine;
    return in;
}

static hwfit_serve_out run(const hwfit_model *m, const hwfit_serve_in *in) {
    hwfit_serve_out o;
    hwfit_status st = hwfit_serve_estimate(m, in, &o);
    hwfit_problem p;
    hwfit_status vst = hwfit_serve_validate(m, in, &p);
    cr_assert_eq(st, HWFIT_OK, "%s: %s %s", hwfit_status_name(st), p.field, p.rule);
    cr_assert_eq(vst, HWFIT_OK);
    return o;
}

static void near(double got, double want, double rel, const char *what) {
    cr_assert(fabs(got - want) <= rel * fabs(want), "%s: %.6g, want %.6g (within %.0f %%)",
              what, got, want, 100 * rel);
}

/* ---- reference values: what the engines logged ---------------------------------------- */

Test(serve, vllm_llama8_h100_matches_the_log) {
    /* vLLM 0.19, H100 80GB, gpu_memory_utilization 0.95, max_model_len 16384: "GPU KV cache
     * size: 476,016 tokens" (tests/data/measured/serve-kv-vllm0.19-llama3.1-8b-1xh100-
     * len16384.json). */
    hwfit_serve_in in = card("h100-sxm", HWFIT_SERVE_VLLM);
    in.utilization = 0.95;
    in.max_model_len = 16384;
    hwfit_serve_out o = run(&llama8, &in);
    near((double)o.kv_cache_tokens, 476016.0, 0.02, "kv_cache_tokens");
    cr_assert_eq(o.kv_cache_tokens % 16, 0, "whole blocks of 16");
    cr_assert_eq(o.kv_cache_blocks * 16, o.kv_cache_tokens);
    cr_assert_eq(o.kv_bytes_per_token, 131072u); /* 2 x 32 layers x 8 heads x 128 x 2 bytes */
    cr_assert_eq(o.max_num_batched_tokens, 8192u); /* vLLM's default on an 80 GB card */
    cr_assert_eq(o.max_num_seqs, 1024u);
    /* fp8 KV halves the bytes per token: twice the tokens (952,032 logged). */
    in.perf.shard.memory.kv = dt("fp8");
    hwfit_serve_out f = run(&llama8, &in);
    near((double)f.kv_cache_tokens, 952032.0, 0.02, "fp8 kv_cache_tokens");
}

Test(serve, vllm_formula_from_the_breakdown) {
    /* Available = total x utilization - weights - activations - graphs - non-torch - rest,
     * rounded down to whole blocks. */
    hwfit_serve_in in = card("rtx-4090", HWFIT_SERVE_VLLM);
    in.max_model_len = 32768;
    in.utilization = 0.9;
    hwfit_serve_out o = run(&llama8, &in);
    cr_assert_eq(o.max_num_batched_tokens, 2048u); /* below 70 GiB */
    cr_assert_eq(o.max_num_seqs, 256u);
    double avail = (double)o.capacity_bytes * o.utilization - (double)o.weights_bytes -
                   (double)o.activation_bytes - (double)o.cuda_graph_bytes -
                   (double)o.non_torch_bytes - (double)o.other_bytes;
    uint64_t blocks = (uint64_t)floor(avail / (16.0 * (double)o.kv_bytes_per_token));
    cr_assert_eq(o.kv_cache_tokens, blocks * 16);
    near((double)o.kv_cache_tokens, 41408.0, 0.05, "RTX 4090 vLLM 0.19 log");
    cr_assert_eq(o.budget_bytes, (uint64_t)(24.0 * 1073741824.0 * 0.9));
}

Test(serve, vllm_v0_profiles_the_whole_sequence) {
    /* vLLM 0.6 (V0) on an RTX 3090, max_model_len 20,000, 0.9: "GPU blocks: 1952" (31,232
     * tokens); its profile pass is max(max_model_len, 2048) tokens and its logged torch
     * peak over the weights, 2.07 GiB, is memory.h's workspace plus the logits. */
    hwfit_serve_in in = card("rtx-3090", HWFIT_SERVE_VLLM);
    in.max_model_len = 20000;
    in.engine_version = 6003;
    hwfit_serve_out d = run(&llama8, &in);
    cr_assert_eq(d.utilization, 0.9); /* the default before 0.11 */
    in.utilization = 0.9;
    hwfit_serve_out o = run(&llama8, &in);
    cr_assert_eq(o.max_num_batched_tokens, 20000u);
    cr_assert_eq(o.max_num_seqs, 256u);
    cr_assert_eq(o.cuda_graph_bytes, 0u);
    near((double)o.activation_bytes, 2.07 * 1073741824.0, 0.02, "V0 torch peak");
    near((double)o.kv_cache_tokens, 31232.0, 0.05, "V0 log");
    in.engine_version = 0; /* V1 profiles 2048 tokens: more room for the cache */
    hwfit_serve_out v1 = run(&llama8, &in);
    cr_assert_gt(v1.kv_cache_tokens, o.kv_cache_tokens);
}

Test(serve, sglang_token_pool) {
    /* SGLang: total x mem_fraction_static - weights - non-torch; 1-token pages; activations
     * live outside. DeepSeek-R1 on 16 H20 at TP 16, 0.93: max_total_num_tokens=712400. */
    hwfit_serve_in in = card("h20", HWFIT_SERVE_SGLANG);
    in.perf.shard.gpus = 16;
    in.perf.shard.layout.tp = 16;
    in.perf.shard.memory.weights = dt("fp8");
    in.utilization = 0.93;
    in.max_model_len = 163840;
    hwfit_serve_out o = run(&deepseek, &in);
    cr_assert_eq(o.activation_bytes, 0u);
    cr_assert_eq(o.block_size, 1u);
    double avail = (double)o.capacity_bytes * 0.93 - (double)o.weights_bytes -
                   (double)o.non_torch_bytes - (double)o.other_bytes;
    cr_assert_eq(o.kv_cache_tokens, (uint64_t)floor(avail / (double)o.kv_bytes_per_token));
    near((double)o.kv_cache_tokens, 712400.0, 0.10, "SGLang log");
    /* MLA: the latent cache is replicated over the TP ranks: 576 values x 61 layers x 2 B. */
    cr_assert_eq(o.kv_bytes_per_token, 576u * 61u * 2u);
}

Test(serve, sglang_large_moe_fp8_tensor_parallel) {
    /* Qwen3-235B-A22B-FP8 on 4 H100 at TP 4, mem_fraction_static 0.93: "KV Cache is
     * allocated. #tokens: 367404, K size: 8.23 GB" (vllm-project/vllm#21348; tests/data/
     * measured/serve-kv-sglang-qwen3-235b-a22b-fp8-4xh100-tp4.json). One of the 4 KV heads
     * per card; FP8 linear layers with bf16 embeddings, head and routers; SGLang's 2 GiB
     * outside tensors. */
    hwfit_model q;
    load(CONFIG("qwen3-235b-a22b"), &q);
    hwfit_serve_in in = card("h100-sxm", HWFIT_SERVE_SGLANG);
    in.perf.shard.gpus = 4;
    in.perf.shard.layout.tp = 4;
    in.perf.shard.memory.weights = dt("fp8");
    in.utilization = 0.93;
    hwfit_serve_out o = run(&q, &in);
    cr_assert_eq(o.kv_bytes_per_token, 94u * 2u * 128u * 2u);
    cr_assert_eq(o.non_torch_bytes, 2ull << 30);
    near((double)o.kv_cache_tokens, 367404.0, 0.10, "SGLang log");
}

Test(serve, sglang_fraction_by_tensor_parallelism) {
    /* server_args.py: mem_fraction_static 0.88 / 0.87 / 0.85 / 0.81 / 0.79 at TP 1 / 2 / 4 /
     * 8 / 16 (SGLang's benchmark_vllm_060 README: "0.88 at TP 1 and 0.85 at TP 4");
     * chunked_prefill_size 2048 on a 24 GB card, 8192 on an 80 GB one. A stated fraction
     * wins. */
    static const struct { uint32_t tp; double u; } rows[] = {
        {1, 0.88}, {2, 0.87}, {4, 0.85}, {8, 0.81}, {16, 0.79}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        hwfit_serve_in in = card("h100-sxm", HWFIT_SERVE_SGLANG);
        in.perf.shard.gpus = rows[i].tp;
        in.perf.shard.layout.tp = rows[i].tp;
        in.perf.topology.gpus_per_node = 16;
        hwfit_serve_out o = run(&llama8, &in);
        cr_assert_eq(o.utilization, rows[i].u, "TP %u: %g", rows[i].tp, o.utilization);
        cr_assert_eq(o.max_num_batched_tokens, 8192u);
    }
    hwfit_serve_in small = card("rtx-4090", HWFIT_SERVE_SGLANG);
    cr_assert_eq(run(&llama8, &small).max_num_batched_tokens, 2048u);
    small.utilization = 0.7;
    cr_assert_eq(run(&llama8, &small).utilization, 0.7);
}

Test(serve, tensorrt_llm_fraction_of_free_memory) {
    hwfit_serve_in in = card("h100-sxm", HWFIT_SERVE_TENSORRT_LLM);
    in.perf.shard.memory.weights = dt("fp8");
    hwfit_serve_out o = run(&llama8, &in);
    double free_bytes = (double)o.capacity_bytes - (double)o.weights_bytes -
                        (double)o.activation_bytes - (double)o.non_torch_bytes -
                        (double)o.other_bytes - (double)o.cuda_graph_bytes;
    double blocks = floor(0.9 * free_bytes / (32.0 * (double)o.kv_bytes_per_token));
    cr_assert_eq(o.kv_cache_tokens, (uint64_t)blocks * 32);
    cr_assert_eq(o.budget_bytes, o.capacity_bytes);
}

Test(serve, llama_cpp_allocates_n_ctx) {
    hwfit_serve_in in = card("rtx-4090", HWFIT_SERVE_LLAMA_CPP);
    in.perf.shard.memory.weights = dt("q4_k");
    in.prompt_tokens = 0;
    in.output_tokens = 512;
    in.max_model_len = 8192;
    hwfit_serve_out o = run(&llama8, &in);
    cr_assert_eq(o.kv_cache_tokens, 8192u);
    cr_assert_eq(o.concurrency, 1u);
    cr_assert(o.fits);
    /* Batch-1 decode on a consumer card: llama-bench tg512 of Llama 3 8B Q4_K_M on an RTX
     * 4090 is 130.58 tokens/s (XiongjieDai/GPU-Benchmarks-on-LLM-Inference). */
    near(o.output_tokens_per_s, 130.58, 0.10, "tg512");
    cr_assert_eq(o.tpot_bound, HWFIT_SERVE_BOUND_MEMORY);
}

Test(serve, llama_cpp_prefill_uses_fp16_accumulate) {
    hwfit_serve_in in = card("rtx-4090", HWFIT_SERVE_LLAMA_CPP);
    in.perf.shard.memory.weights = dt("fp16");
    in.prompt_tokens = 512;
    in.output_tokens = 0;
    hwfit_serve_out a = run(&llama8, &in);
    /* 330.3 TFLOP/s with FP16 accumulate, not the 165.2 of FP32 accumulate: the prompt
     * rate is above what the FP32-accumulate peak allows at all. */
    double flop_per_token = a.perf.prefill_flop / 512.0;
    cr_assert_gt(a.prompt_tokens_per_s * flop_per_token, 165.2e12 * a.prefill_efficiency);
    near(a.prompt_tokens_per_s, 9382.0, 0.15, "pp512 (9,382 measured)");
    cr_assert_eq(a.ttft_bound, HWFIT_SERVE_BOUND_COMPUTE);
}

Test(serve, vllm_sglang_offline_rates_match_their_tables) {
    /* SGLang's benchmark/benchmark_vllm_060/README.md, "Offline benchmark results", Llama 3.1
     * 8B Instruct on one A100 80G, ShareGPT at an infinite rate: SGLang 0.3.0 4,281.51 and
     * vLLM 0.6.0 4,132.37 output tokens/s, 194 output tokens per request (output over request
     * throughput), prompts of 227 tokens on average (tests/data/measured/serve-rate-*-sharegpt-
     * offline.json). Both engines' default efficiency, 0.4 of peak, is fitted to these and the
     * 70B rows; compute-bound. */
    hwfit_serve_in s = card("a100-sxm-80gb", HWFIT_SERVE_SGLANG);
    s.prompt_tokens = 227;
    s.output_tokens = 194;
    hwfit_serve_out so = run(&llama8, &s);
    cr_assert_eq(so.prefill_efficiency, 0.4);
    cr_assert_eq(so.decode_efficiency, 0.4);
    near(so.output_tokens_per_s, 4281.51, 0.15, "SGLang 0.3.0 offline");
    cr_assert_eq(so.tpot_bound, HWFIT_SERVE_BOUND_COMPUTE);
    hwfit_serve_in v = card("a100-sxm-80gb", HWFIT_SERVE_VLLM);
    v.prompt_tokens = 227;
    v.output_tokens = 194;
    v.max_model_len = 4096;
    v.engine_version = 6000;
    hwfit_serve_out vo = run(&llama8, &v);
    cr_assert_eq(vo.max_num_seqs, 256u); /* V0's default: the concurrency cap */
    cr_assert_eq(vo.concurrency, 256u);
    near(vo.output_tokens_per_s, 4132.37, 0.15, "vLLM 0.6.0 offline");
    /* The engine's value is a default only: a stated efficiency wins. */
    v.decode_efficiency = 0.8;
    v.prefill_efficiency = 0.8;
    cr_assert_gt(run(&llama8, &v).output_tokens_per_s, 1.5 * vo.output_tokens_per_s);
}

/* ---- consistency -------------------------------------------------------------------------- */

Test(serve, more_memory_fraction_never_fewer_tokens) {
    const hwfit_serve_engine engines[] = {HWFIT_SERVE_VLLM, HWFIT_SERVE_SGLANG,
                                          HWFIT_SERVE_TENSORRT_LLM};
    for (size_t e = 0; e < sizeof engines / sizeof engines[0]; e++) {
        uint64_t last = 0;
        for (double u = 0.5; u <= 1.0001; u += 0.05) {
            hwfit_serve_in in = card("h100-sxm", engines[e]);
            in.utilization = u > 1.0 ? 1.0 : u;
            hwfit_serve_out o = run(&llama8, &in);
            cr_assert_geq(o.kv_cache_tokens, last, "engine %zu at %.2f", e, u);
            last = o.kv_cache_tokens;
        }
        cr_assert_gt(last, 0u);
    }
}

Test(serve, longer_request_never_more_concurrency) {
    double last = INFINITY;
    uint64_t last_conc = UINT64_MAX;
    for (uint64_t len = 256; len <= 65536; len *= 2) {
        hwfit_serve_in in = card("h100-sxm", HWFIT_SERVE_VLLM);
        in.prompt_tokens = len / 2;
        in.output_tokens = len / 2;
        in.max_model_len = 131072;
        hwfit_serve_out o = run(&llama8, &in);
        cr_assert_leq(o.max_concurrency, last, "at %llu", (unsigned long long)len);
        cr_assert_leq(o.concurrency, last_conc, "at %llu", (unsigned long long)len);
        near(o.max_concurrency, (double)o.kv_cache_tokens / (double)len, 1e-12, "tokens/len");
        last = o.max_concurrency;
        last_conc = o.concurrency;
    }
}

Test(serve, rates_follow_the_roofline) {
    hwfit_serve_in in = card("h100-sxm", HWFIT_SERVE_VLLM);
    in.concurrency = 1;
    hwfit_serve_out one = run(&llama8, &in);
    /* Batch 1 decode is memory-bound: the weights over the achieved bandwidth at least. */
    cr_assert_eq(one.tpot_bound, HWFIT_SERVE_BOUND_MEMORY);
    cr_assert_geq(one.tpot_s, (double)one.weights_bytes / (3350e9 * one.memory_efficiency));
    near(one.output_tokens_per_s_per_user, 1.0 / one.tpot_s, 1e-12, "per user");
    in.concurrency = 64;
    hwfit_serve_out many = run(&llama8, &in);
    cr_assert_gt(many.output_tokens_per_s, one.output_tokens_per_s);
    cr_assert_geq(many.tpot_s, one.tpot_s);
    near(many.output_tokens_per_s, 64.0 / many.tpot_s, 1e-12, "total");
    near(many.prompt_tokens_per_s, many.output_tokens_per_s, 1e-12, "1024/1024 tokens");
    near(many.total_tokens_per_s, many.output_tokens_per_s + many.prompt_tokens_per_s, 1e-12,
         "sum");
    /* Offline: as many requests as the KV cache holds, up to max_num_seqs. */
    in.concurrency = 0;
    hwfit_serve_out off = run(&llama8, &in);
    cr_assert_eq(off.concurrency,
                 (uint64_t)fmin(floor(off.max_concurrency), (double)off.max_num_seqs));
}

Test(serve, request_rate_by_littles_law) {
    hwfit_serve_in in = card("h100-sxm", HWFIT_SERVE_VLLM);
    in.request_rate = 2.0;
    hwfit_serve_out o = run(&llama8, &in);
    double in_system = o.ttft_s + 1024.0 * o.tpot_s;
    cr_assert(fabs((double)o.concurrency - ceil(2.0 * in_system)) <= 1.0, "%llu vs %.3f",
              (unsigned long long)o.concurrency, 2.0 * in_system);
}

Test(serve, moe_decode_reads_the_touched_experts) {
    hwfit_serve_in in = card("h100-sxm", HWFIT_SERVE_VLLM);
    in.concurrency = 1;
    hwfit_serve_out o = run(&qwen_moe, &in);
    /* 4 of 60 experts per token: batch 1 reads far fewer bytes than all the weights. */
    cr_assert_lt(o.perf.decode_bytes, 0.6 * (double)o.weights_bytes);
    in.concurrency = 512; /* every expert touched */
    hwfit_serve_out b = run(&qwen_moe, &in);
    cr_assert_gt(b.perf.decode_bytes, (double)b.weights_bytes);
    /* perf keeps reading every expert unless asked. */
    hwfit_perf_in p = in.perf;
    p.shard.memory.batch = 1;
    hwfit_perf_out all, some;
    cr_assert_eq(hwfit_perf_estimate(&qwen_moe, &p, &all), HWFIT_OK);
    p.moe_active_reads = 1;
    cr_assert_eq(hwfit_perf_estimate(&qwen_moe, &p, &some), HWFIT_OK);
    cr_assert_lt(some.decode_bytes, all.decode_bytes);
}

Test(serve, tensor_parallel_decode_pays_the_all_reduces) {
    hwfit_serve_in in = card("h100-sxm", HWFIT_SERVE_VLLM);
    in.concurrency = 1;
    in.perf.shard.gpus = 2;
    in.perf.shard.layout.tp = 2;
    hwfit_serve_out o = run(&llama8, &in);
    cr_assert_gt(o.perf.decode_comm_s, 0.0);
    /* 64 small all-reduces per token: latency-bound, microseconds each. */
    cr_assert_gt(o.perf.decode_comm_s / 64.0, 1e-6);
}

/* ---- refusals ----------------------------------------------------------------------------- */

static void refused_field(hwfit_serve_in in, hwfit_status st, const char *field) {
    hwfit_serve_out o;
    memset(&o, 0x5a, sizeof o);
    cr_assert_eq(hwfit_serve_estimate(&llama8, &in, &o), st);
    hwfit_problem p;
    cr_assert_eq(hwfit_serve_validate(&llama8, &in, &p), st);
    cr_assert_str_eq(p.field, field);
}

Test(serve, refusals_name_the_field) {
    hwfit_serve_in in = card("h100-sxm", HWFIT_SERVE_VLLM);
    hwfit_serve_in x = in;
    x.utilization = 1.5;
    refused_field(x, HWFIT_EDOM, "utilization");
    x = in;
    x.prompt_tokens = 0;
    x.output_tokens = 0;
    refused_field(x, HWFIT_EDOM, "output_tokens");
    x = in;
    x.max_model_len = 100;
    refused_field(x, HWFIT_EDOM, "max_model_len");
    x = in;
    x.concurrency = 4;
    x.request_rate = 1.0;
    refused_field(x, HWFIT_EDOM, "request_rate");
    x = in;
    x.activation_factor = 0.5;
    refused_field(x, HWFIT_EDOM, "activation_factor");
    x = in;
    x.engine = (hwfit_serve_engine)9;
    refused_field(x, HWFIT_EINVAL, "engine");
    x = in;
    x.perf.shard.gpus = 3;
    x.perf.shard.layout.tp = 3; /* 32 heads do not divide by 3 */
    hwfit_serve_out o;
    cr_assert_eq(hwfit_serve_estimate(&llama8, &x, &o), HWFIT_ELAYOUT);
    cr_assert_str_eq(hwfit_serve_engine_name(HWFIT_SERVE_TENSORRT_LLM), "tensorrt-llm");
    cr_assert_str_eq(hwfit_serve_bound_name(HWFIT_SERVE_BOUND_KV_CAPACITY), "kv-capacity");
}

/* ---- the request layer -------------------------------------------------------------------- */

static hwfit_request *request(const char *const *opts) {
    hwfit_request *r = NULL;
    cr_assert_eq(hwfit_request_new("serve", &r), HWFIT_OK);
    for (size_t i = 0; opts[i]; i += 2) {
        hwfit_status st = hwfit_request_set(r, opts[i], opts[i + 1]);
        cr_assert_eq(st, HWFIT_OK, "--%s: %s", opts[i], hwfit_request_message(r));
    }
    return r;
}

static hwfit__json_doc *run_json(const char *const *opts) {
    hwfit_request *r = request(opts);
    hwfit_status st = hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL);
    cr_assert_eq(st, HWFIT_OK, "%s", hwfit_request_message(r));
    size_t n;
    const char *text = hwfit_request_output(r, &n);
    hwfit__json_doc *doc = NULL;
    hwfit_error err;
    cr_assert_eq(hwfit__json_parse(text, n, &doc, &err), HWFIT_OK, "%s", err.message);
    hwfit_request_free(r);
    return doc;
}

static double num(const hwfit__json_value *obj, const char *key) {
    const hwfit__json_value *v = hwfit__json_get(obj, key);
    cr_assert(v != NULL && v->type == HWFIT__JSON_NUMBER, "%s", key);
    return v->u.number.value;
}

Test(serve, command_equals_the_c_api) {
    const char *const opts[] = {"config", CONFIG("llama-3.1-8b"), "gpu", "h100-sxm",
                                "engine", "vllm", "utilization", "0.95", "context", "16384",
                                "concurrency", "32", NULL};
    hwfit__json_doc *doc = run_json(opts);
    const hwfit__json_value *root = hwfit__json_root(doc);
    hwfit_serve_in in = card("h100-sxm", HWFIT_SERVE_VLLM);
    in.utilization = 0.95;
    in.max_model_len = 16384;
    in.concurrency = 32;
    hwfit_serve_out o = run(&llama8, &in);
    cr_assert_eq((uint64_t)num(root, "kv_cache_tokens"), o.kv_cache_tokens);
    cr_assert_eq((uint64_t)num(root, "kv_cache_blocks"), o.kv_cache_blocks);
    cr_assert_eq(num(root, "max_concurrency"), o.max_concurrency);
    cr_assert_eq(num(root, "ttft_s"), o.ttft_s);
    cr_assert_eq(num(root, "tpot_s"), o.tpot_s);
    cr_assert_eq(num(root, "output_tokens_per_s"), o.output_tokens_per_s);
    hwfit__json_free(doc);
}

static void cmd_refused(const char *const *opts, hwfit_status status, const char *option,
                        const char *words) {
    hwfit_request *r = NULL;
    cr_assert_eq(hwfit_request_new("serve", &r), HWFIT_OK);
    hwfit_status st = HWFIT_OK;
    for (size_t i = 0; opts[i] && st == HWFIT_OK; i += 2) st = hwfit_request_set(r, opts[i], opts[i + 1]);
    if (st == HWFIT_OK) st = hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL);
    const char *msg = hwfit_request_message(r);
    cr_assert_eq(st, status, "%s: %s", hwfit_status_name(st), msg);
    const hwfit_option *o = hwfit_request_option(r);
    cr_assert(o != NULL && strcmp(o->name, option) == 0, "names %s: %s", o ? o->name : "-", msg);
    cr_assert_not_null(strstr(msg, words), "'%s' lacks '%s'", msg, words);
    cr_assert_null(strstr(msg, "--"), "'%s' spells a CLI option", msg);
    hwfit_request_free(r);
}

Test(serve, command_refusals) {
    const char *const ctx[] = {"config", CONFIG("llama-3.1-8b"), "gpu", "h100-sxm",
                               "context", "1000", NULL};
    cmd_refused(ctx, HWFIT_EDOM, "context", "must hold prompt + output");
    const char *const both[] = {"config", CONFIG("llama-3.1-8b"), "gpu", "h100-sxm",
                                "concurrency", "4", "rate", "2", NULL};
    cmd_refused(both, HWFIT_EDOM, "rate", "exclude each other");
    const char *const tp[] = {"config", CONFIG("llama-3.1-8b"), "gpu", "h100-sxm", "gpus", "3",
                              "tp", "3", NULL};
    cmd_refused(tp, HWFIT_ELAYOUT, "tp", "");
    const char *const ver[] = {"config", CONFIG("llama-3.1-8b"), "gpu", "h100-sxm",
                               "engine-version", "0.6rc1", NULL};
    cmd_refused(ver, HWFIT_EPARSE, "engine-version", "is not a release such as 0.6.3");
}

Test(serve, command_defaults_are_init) {
    hwfit_serve_in in;
    hwfit_serve_init(&in);
    cr_assert_eq(in.utilization, 0.0); /* "the engine's" */
    hwfit_serve_in h = card("h100-sxm", HWFIT_SERVE_VLLM);
    cr_assert_eq(run(&llama8, &h).utilization, 0.92);
    const hwfit_command *c = hwfit_command_by_name("serve");
    cr_assert_not_null(c);
    cr_assert_str_eq(hwfit_option_by_name(c, "engine")->default_text,
                     hwfit_serve_engine_name(in.engine));
    cr_assert_eq(strtoull(hwfit_option_by_name(c, "prompt")->default_text, NULL, 10),
                 in.prompt_tokens);
    cr_assert_eq(strtoull(hwfit_option_by_name(c, "output")->default_text, NULL, 10),
                 in.output_tokens);
    hwfit_dtype w;
    cr_assert_eq(hwfit_dtype_parse(hwfit_option_by_name(c, "weights")->default_text, &w), HWFIT_OK);
    cr_assert_eq(w.id, in.perf.shard.memory.weights.id);
    cr_assert_eq(hwfit_dtype_parse(hwfit_option_by_name(c, "kv")->default_text, &w), HWFIT_OK);
    cr_assert_eq(w.id, in.perf.shard.memory.kv.id);
    cr_assert_eq(strtoull(hwfit_option_by_name(c, "gpus")->default_text, NULL, 10),
                 in.perf.shard.gpus);
    cr_assert_eq(strtoull(hwfit_option_by_name(c, "gpus-per-node")->default_text, NULL, 10),
                 in.perf.topology.gpus_per_node);
}

Test(serve, command_takes_a_model_name) {
    /* A Hugging Face id or a catalog name, as the other commands take --config (the issue's
     * "hwfit serve ... meta-llama/Llama-3.1-70B"); the answer equals the path's. */
    const char *const by_path[] = {"config", CONFIG("llama-3.1-70b"), "gpu",
                                   "rtx-pro-6000-server", "gpus", "8", "prompt", "1000",
                                   "output", "1000", NULL};
    const char *const by_id[] = {"config", "meta-llama/Llama-3.1-70B", "gpu",
                                 "rtx-pro-6000-server", "gpus", "8", "prompt", "1000",
                                 "output", "1000", NULL};
    hwfit__json_doc *a = run_json(by_path);
    hwfit__json_doc *b = run_json(by_id);
    const hwfit__json_value *ra = hwfit__json_root(a), *rb = hwfit__json_root(b);
    cr_assert_gt(num(rb, "kv_cache_tokens"), 0.0);
    cr_assert_gt(num(rb, "max_concurrency"), 1.0);
    cr_assert_gt(num(rb, "output_tokens_per_s"), 0.0);
    cr_assert_eq(num(ra, "kv_cache_tokens"), num(rb, "kv_cache_tokens"));
    cr_assert_eq(num(ra, "output_tokens_per_s"), num(rb, "output_tokens_per_s"));
    hwfit__json_free(a);
    hwfit__json_free(b);
    const char *const none[] = {"config", "no-such-org/No-Such-Model", "gpu", "h100-sxm", NULL};
    cmd_refused(none, HWFIT_EIO, "config", "no model 'no-such-org/No-Such-Model'");
}

Test(serve, command_small_buffer) {
    const char *const opts[] = {"config", CONFIG("llama-3.1-8b"), "gpu", "rtx-4090", NULL};
    hwfit_request *r = request(opts);
    size_t need = 0;
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL), HWFIT_OK);
    size_t n;
    (void)hwfit_request_output(r, &n);
    char small[16];
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, small, sizeof small, &need),
                 HWFIT_EBUFSIZE);
    cr_assert_eq(need, n + 1);
    char *buf = malloc(need);
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, buf, need, NULL), HWFIT_OK);
    free(buf);
    hwfit_request_free(r);
}

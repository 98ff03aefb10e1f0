/* request_finetune: the framework options of memory, fit, plan and perf (profile.h,
 * memory.h phases) through the request layer: the phases and peak against the typed calls
 * (the same number two ways), a profile's choices named in the answer, options given alone
 * over the profile, refusals naming their option, defaults against hwfit_memory_init. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit/hf_config.h"
#include "hwfit/memory.h"
#include "hwfit/profile.h"
#include "hwfit/request.h"
#include "hwfit/shard.h"

#define L8 HWFIT_TEST_DATA "/models/llama-3.1-8b.config.json"

static hwfit_request *make(const char *command, const char *const *opts) {
    hwfit_request *r = NULL;
    cr_assert_eq(hwfit_request_new(command, &r), HWFIT_OK);
    for (size_t i = 0; opts[i] != NULL; i += 2)
        cr_assert_eq(hwfit_request_set(r, opts[i], opts[i + 1]), HWFIT_OK, "%s: %s", opts[i],
                     hwfit_request_message(r));
    return r;
}

static const char *run_json(hwfit_request *r) {
    hwfit_status st = hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL);
    cr_assert(st == HWFIT_OK, "%s: %s", hwfit_status_name(st), hwfit_request_message(r));
    return hwfit_request_output(r, NULL);
}

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

static int json_is(const char *json, const char *key, const char *text) {
    return strncmp(value_at(json, key), text, strlen(text)) == 0;
}

static void load(hwfit_model *m) {
    hwfit_error err;
    cr_assert_eq(hwfit_hf_config_load(L8, m, &err), HWFIT_OK, "%s", err.message);
}

/* `memory --framework torchtune`: the phases and the peak of the typed call with the
 * profile applied, and the profile's choices named. */
Test(request_finetune, memory_with_a_profile_is_the_typed_estimate) {
    const char *opts[] = {"config", L8, "mode", "lora", "context", "2048", "micro-batch", "2",
                          "lora-targets", "q,v", "lora-rank", "8", "framework", "torchtune",
                          NULL};
    hwfit_request *r = make("memory", opts);
    const char *j = run_json(r);
    hwfit_model m;
    load(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 2048;
    in.micro_batch = 2;
    in.lora_targets = HWFIT_LORA_Q | HWFIT_LORA_V;
    in.lora_rank = 8;
    cr_assert_eq(hwfit_memory_profile_apply("torchtune", 1, &in, NULL), HWFIT_OK);
    hwfit_memory_out o;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &o), HWFIT_OK);
    cr_assert_eq(json_u64(j, "forward_bytes"), o.forward_bytes);
    cr_assert_eq(json_u64(j, "backward_bytes"), o.backward_bytes);
    cr_assert_eq(json_u64(j, "step_bytes"), o.step_bytes);
    cr_assert_eq(json_u64(j, "peak_allocated_bytes"), o.allocated_bytes);
    cr_assert_eq(json_u64(j, "peak_reserved_bytes"), o.reserved_bytes);
    cr_assert_eq(json_u64(j, "peak_bytes"), o.peak_bytes);
    cr_assert_eq(json_u64(j, "total_bytes"), o.total_bytes);
    /* The profile drops the logits before backward (logits_freed): the loss's backward
     * holds no more than the forward's end, which is first when tied. */
    cr_assert_eq(o.peak_phase, HWFIT_MEMORY_PHASE_FORWARD);
    cr_assert(json_is(j, "peak_phase", "\"forward\""));
    cr_assert(json_is(j, "logits_freed", "true"));
    cr_assert(json_is(j, "framework", "\"torchtune\""));
    cr_assert(json_is(j, "optimizer_states", "\"bf16\""));
    cr_assert(json_is(j, "master_weights", "false"));
    cr_assert(json_is(j, "loss", "\"chunked\""));
    cr_assert(json_is(j, "recompute", "\"full\"")); /* the profile's, not the option's default */
    hwfit_request_free(r);
}

/* Options given alone win over the profile. */
Test(request_finetune, options_given_alone_override_the_profile) {
    const char *opts[] = {"config", L8, "mode", "full", "framework", "torchtune",
                          "optimizer", "adamw", "recompute", "selective", "loss", "upcast",
                          "optimizer-states", "fp32", "overhead", "3GiB", NULL};
    hwfit_request *r = make("memory", opts);
    const char *j = run_json(r);
    cr_assert(json_is(j, "optimizer", "\"adamw\""));
    cr_assert(json_is(j, "recompute", "\"selective\""));
    cr_assert(json_is(j, "loss", "\"upcast\""));
    cr_assert(json_is(j, "optimizer_states", "\"fp32\""));
    cr_assert_eq(json_u64(j, "overhead_bytes"), 3ull << 30);
    /* Paged and in-backward stay the profile's (one device, full). */
    cr_assert(json_is(j, "paged_optimizer", "true"));
    cr_assert(json_is(j, "optimizer_in_backward", "true"));
    hwfit_request_free(r);
}

/* `fit` answers the largest card's peak and fits against it; the same two ways. */
Test(request_finetune, fit_answers_the_peak) {
    const char *opts[] = {"config", L8, "capacity", "80GiB", "gpus", "2", "mode", "full",
                          "context", "2048", "tp", "1", "pp", "1", "dp", "2", "zero", "3",
                          "micro-batch", "1", "recompute", "full", "framework", "deepspeed",
                          NULL};
    hwfit_request *r = make("fit", opts);
    const char *j = run_json(r);
    hwfit_model m;
    load(&m);
    hwfit_shard_in in;
    hwfit_shard_init(&in);
    in.memory.mode = HWFIT_MEMORY_FULL;
    in.memory.context = 2048;
    cr_assert_eq(hwfit_memory_profile_apply("deepspeed", 2, &in.memory, NULL), HWFIT_OK);
    in.gpus = 2;
    in.capacity_bytes = 80.0 * 1073741824.0;
    in.layout.dp = 2;
    in.layout.zero_stage = 3;
    in.layout.micro_batch = 1;
    in.layout.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    hwfit_shard_out o;
    cr_assert_eq(hwfit_shard_estimate(&m, &in, &o), HWFIT_OK);
    cr_assert_eq(json_u64(j, "per_gpu_bytes"), o.worst.peak_bytes);
    cr_assert_eq(json_u64(j, "peak_allocated_bytes"), o.worst.allocated_bytes);
    cr_assert_eq(json_u64(j, "sum_bytes"), o.worst.total_bytes);
    cr_assert(json_is(j, "framework", "\"deepspeed\""));
    cr_assert(json_is(j, "gradient_buffer", "true"));
    hwfit_request_free(r);
}

/* --activations: the stored activations' format reaches hwfit_memory_in.activations (an
 * fp32 model trained without autocast stores fp32 activations); the same number two ways,
 * and the answer names the format. */
Test(request_finetune, activations_format_is_the_typed_field) {
    const char *opts[] = {"config", L8, "mode", "lora", "weights", "fp32", "lora-dtype", "fp32",
                          "context", "1024", "micro-batch", "4", "recompute", "none",
                          "activations", "fp32", NULL};
    hwfit_request *r = make("memory", opts);
    const char *j = run_json(r);
    hwfit_model m;
    load(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.weights = hwfit_dtype_make(HWFIT_DTYPE_FP32);
    in.lora_dtype = hwfit_dtype_make(HWFIT_DTYPE_FP32);
    in.context = 1024;
    in.micro_batch = 4;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    hwfit_memory_out bf;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &bf), HWFIT_OK);
    in.activations = hwfit_dtype_make(HWFIT_DTYPE_FP32);
    hwfit_memory_out o;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &o), HWFIT_OK);
    cr_assert_eq(json_u64(j, "activation_bytes"), o.activation_bytes);
    cr_assert_eq(json_u64(j, "peak_bytes"), o.peak_bytes);
    cr_assert(json_is(j, "activations", "\"fp32\""));
    /* Four bytes an element against two: more than bf16's, at most twice. */
    cr_assert_gt(o.activation_bytes, bf.activation_bytes);
    cr_assert_leq(o.activation_bytes, 2 * bf.activation_bytes);
    hwfit_request_free(r);
}

static void refused(const char *command, const char *const *opts, hwfit_status status,
                    const char *option, const char *words) {
    hwfit_request *r = make(command, opts);
    hwfit_status st = hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL);
    const char *msg = hwfit_request_message(r);
    cr_assert_eq(st, status, "%s: %s (%s)", command, hwfit_status_name(st), msg);
    const hwfit_option *o = hwfit_request_option(r);
    cr_assert(o != NULL && strcmp(o->name, option) == 0, "%s: names %s, want %s", msg,
              o ? o->name : "nothing", option);
    cr_assert_not_null(strstr(msg, words), "'%s' lacks '%s'", msg, words);
    cr_assert_null(strstr(msg, "--"), "CLI spelling in '%s'", msg);
    hwfit_request_free(r);
}

Test(request_finetune, refusals_name_their_option) {
    const char *states[] = {"config", L8, "mode", "full", "optimizer-states", "nf4", NULL};
    refused("memory", states, HWFIT_EDOM, "optimizer-states", "plain format");
    const char *full[] = {"config", L8, "mode", "full", "mlp-weights", "nf4", NULL};
    refused("memory", full, HWFIT_EUNSUPPORTED, "mlp-weights", "plain formats");
    const char *acts[] = {"config", L8, "mode", "full", "activations", "nf4", NULL};
    refused("memory", acts, HWFIT_EDOM, "activations", "plain format");
    const char *serving[] = {"config", L8, "activations", "fp32", NULL};
    refused("memory", serving, HWFIT_EINVAL, "activations", "applies only to training");
    hwfit_request *r = NULL;
    cr_assert_eq(hwfit_request_new("fit", &r), HWFIT_OK);
    cr_assert_neq(hwfit_request_set(r, "framework", "no-such-framework"), HWFIT_OK);
    cr_assert_neq(hwfit_request_set(r, "fragmentation", "2"), HWFIT_OK);
    /* A format the catalog lacks is refused when set, naming the format. */
    cr_assert_neq(hwfit_request_set(r, "mlp-weights", "no-such-format"), HWFIT_OK);
    cr_assert_not_null(strstr(hwfit_request_message(r), "no-such-format"));
    hwfit_request_free(r);
}

/* The framework options' defaults are hwfit_memory_init's. */
Test(request_finetune, defaults_are_the_library_defaults) {
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    const char *commands[] = {"memory", "fit", "plan", "perf"};
    for (size_t i = 0; i < 4; i++) {
        const hwfit_command *c = hwfit_command_by_name(commands[i]);
        const hwfit_option *o = hwfit_option_by_name(c, "optimizer-states");
        cr_assert_not_null(o, "%s", commands[i]);
        char name[HWFIT_DTYPE_NAME_SIZE];
        cr_assert_eq(hwfit_dtype_format(in.optimizer_states, name, sizeof name), HWFIT_OK);
        cr_assert_str_eq(o->default_text, name);
        o = hwfit_option_by_name(c, "activations");
        cr_assert_not_null(o, "%s", commands[i]);
        cr_assert_eq(hwfit_dtype_format(in.activations, name, sizeof name), HWFIT_OK);
        cr_assert_str_eq(o->default_text, name);
        o = hwfit_option_by_name(c, "loss");
        cr_assert_str_eq(o->choices[in.loss], o->default_text);
        o = hwfit_option_by_name(c, "fragmentation");
        cr_assert_eq(strtod(o->default_text, NULL), in.fragmentation);
        o = hwfit_option_by_name(c, "framework");
        cr_assert_str_eq(o->default_text, "none");
        /* Every profile name is a choice, and every choice but none a profile. */
        for (size_t k = 0; hwfit_memory_profile_name(k) != NULL; k++) {
            int found = 0;
            for (size_t n = 0; o->choices[n] != NULL; n++)
                found |= strcmp(o->choices[n], hwfit_memory_profile_name(k)) == 0;
            cr_assert(found, "%s", hwfit_memory_profile_name(k));
        }
        for (size_t n = 1; o->choices[n] != NULL; n++)
            cr_assert_not_null(hwfit_memory_profile_summary(o->choices[n]), "%s", o->choices[n]);
        cr_assert_eq(in.fused_optimizer, 1); /* foreach-optimizer: a flag, off by default */
        cr_assert(!in.paged_optimizer && !in.optimizer_in_backward && !in.gradient_buffer &&
                  !in.activation_offload && !in.compile && !in.dora && !in.lora_dropout &&
                  !in.module_formats);
    }
}

/* A result in a small buffer gives HWFIT_EBUFSIZE and the size. */
Test(request_finetune, small_buffer) {
    const char *opts[] = {"config", L8, "mode", "qlora", "framework", "unsloth", NULL};
    hwfit_request *r = make("memory", opts);
    char buf[16];
    size_t need = 0;
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, buf, sizeof buf, &need), HWFIT_EBUFSIZE);
    size_t len = 0;
    (void)run_json(r);
    (void)hwfit_request_output(r, &len);
    cr_assert_eq(need, len + 1);
    hwfit_request_free(r);
}

/* A flag given "false" switches off what the profile turns on (the CLI's --no-X); not
 * given, the profile's choice stands. LitGPT unties the head and steps with PyTorch's
 * foreach AdamW: both turned back, against the typed call with the same two fields. */
Test(request_finetune, a_flag_given_false_overrides_the_profile) {
    const char *L1 = HWFIT_TEST_DATA "/models/llama-3.2-1b.config.json";
    const char *base[] = {"config", L1, "mode", "lora", "framework", "litgpt", NULL};
    hwfit_request *r = make("memory", base);
    const char *j = run_json(r);
    cr_assert(json_is(j, "untied_head", "true"));
    cr_assert(json_is(j, "fused_optimizer", "false"));
    uint64_t untied = json_u64(j, "weights_bytes");
    hwfit_request_free(r);

    const char *off[] = {"config", L1, "mode", "lora", "framework", "litgpt",
                         "context", "2048", "micro-batch", "1", "recompute", "full",
                         "untied-head", "false", "foreach-optimizer", "0", NULL};
    r = make("memory", off);
    j = run_json(r);
    cr_assert(json_is(j, "untied_head", "false"));
    cr_assert(json_is(j, "fused_optimizer", "true"));
    hwfit_model m;
    hwfit_error err;
    cr_assert_eq(hwfit_hf_config_load(L1, &m, &err), HWFIT_OK, "%s", err.message);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    in.mode = HWFIT_MEMORY_LORA;
    in.context = 2048;
    in.micro_batch = 1;
    in.recompute = HWFIT_MEMORY_RECOMPUTE_FULL;
    cr_assert_eq(hwfit_memory_profile_apply("litgpt", 1, &in, NULL), HWFIT_OK);
    in.untied_head = 0;
    in.fused_optimizer = 1;
    hwfit_memory_out o;
    cr_assert_eq(hwfit_memory_estimate(&m, &in, &o), HWFIT_OK);
    cr_assert_eq(json_u64(j, "weights_bytes"), o.weights_bytes);
    cr_assert_eq(json_u64(j, "peak_bytes"), o.peak_bytes);
    /* Llama 3.2 1B's head, bf16: 128256 x 2048 x 2 bytes fewer. */
    cr_assert_eq(untied - json_u64(j, "weights_bytes"), 128256ull * 2048 * 2);
    hwfit_request_free(r);

    /* Given true on a profile that sets it anyway, and "false" without a profile: the
     * library default (off) either way. */
    const char *plain[] = {"config", L1, "mode", "lora", "untied-head", "false", NULL};
    r = make("memory", plain);
    j = run_json(r);
    cr_assert(json_is(j, "untied_head", "false"));
    hwfit_request_free(r);
}

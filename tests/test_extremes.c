/* extremes: the slowest documented extremes of each calculation (tests/extremes.h) answer
 * or refuse naming an option they were given; no time is asserted (hwfit_bench --extremes
 * prints the times, docs/reliability.md lists them). Before issue 21, a qwen3_moe model with
 * 2^24 experts made a training fit take 68 s, and a model that fits nowhere made the
 * fewest-cards search try every count up to max-gpus (minutes at 1,048,576).
 *
 * Also the refusals of issue 21 that used to name nothing or the wrong option. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "extremes.h"
#include "hwfit/request.h"

static const char *resolve(const char *value, char *buf, size_t size) {
    if (value != NULL && strncmp(value, "M:", 2) == 0)
        snprintf(buf, size, "%s/models/%s", HWFIT_TEST_DATA, value + 2);
    else if (value != NULL && strncmp(value, "X:", 2) == 0)
        snprintf(buf, size, "%s/extremes/%s", HWFIT_TEST_DATA, value + 2);
    else
        return value;
    return buf;
}

/* Run one row; returns the status, the message or output in the request. */
static hwfit_status run_row(const extreme *x, hwfit_request **out) {
    hwfit_request *r = NULL;
    cr_assert_eq(hwfit_request_new(x->command, &r), HWFIT_OK, "%s", x->name);
    for (size_t i = 0; x->options[i] != NULL; i += 2) {
        char path[1024];
        const char *v = resolve(x->options[i + 1], path, sizeof path);
        cr_assert_eq(hwfit_request_set(r, x->options[i], v), HWFIT_OK, "%s: %s=%s: %s",
                     x->name, x->options[i], v ? v : "", hwfit_request_message(r));
    }
    *out = r;
    return hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL);
}

static int was_given(const extreme *x, const char *name) {
    for (size_t i = 0; x->options[i] != NULL; i += 2)
        if (strcmp(x->options[i], name) == 0) return 1;
    return 0;
}

Test(extremes, each_answers_or_refuses_naming_an_option_given) {
    size_t ran = 0, answered = 0;
    for (size_t k = 0; k < EXTREMES_COUNT; k++) {
        const extreme *x = &extremes[k];
        if (x->bench_only) continue;
        hwfit_request *r;
        hwfit_status st = run_row(x, &r);
        ran++;
        if (st == HWFIT_OK) {
            size_t len = 0;
            const char *json = hwfit_request_output(r, &len);
            cr_assert(len > 2 && json[0] == '{', "%s: %s", x->name, json);
            answered++;
        } else {
            const char *m = hwfit_request_message(r);
            const hwfit_option *o = hwfit_request_option(r);
            cr_assert(m[0] != '\0' && strchr(m, '\n') == NULL, "%s", x->name);
            /* A refusal of a value names an option; a result too large for a 64-bit count
             * (HWFIT_ERANGE) may name none, but never one the user left out. */
            if (o != NULL)
                cr_assert(was_given(x, o->name), "%s: names %s, not given: %s", x->name,
                          o->name, m);
            else
                cr_assert_eq(st, HWFIT_ERANGE, "%s: %s names no option: %s", x->name,
                             hwfit_status_name(st), m);
        }
        hwfit_request_free(r);
    }
    printf("extremes: %zu run, %zu answered, %zu refused\n", ran, answered, ran - answered);
    cr_assert_gt(answered, ran / 2, "most extremes are inside the limits and answer");
}

/* The fewest-cards search of a model that fits nowhere answers "none" at once (it used to
 * search every count up to max-gpus). */
Test(extremes, fewest_cards_of_a_model_that_fits_nowhere) {
    const extreme *x = NULL;
    for (size_t k = 0; k < EXTREMES_COUNT; k++)
        if (strcmp(extremes[k].name, "fit_2^24_experts_fits_nowhere_in_65536") == 0)
            x = &extremes[k];
    cr_assert_not_null(x);
    hwfit_request *r;
    cr_assert_eq(run_row(x, &r), HWFIT_OK, "%s", hwfit_request_message(r));
    const char *json = hwfit_request_output(r, NULL);
    cr_assert_not_null(strstr(json, "\"min_gpus\": null"), "%s", json);
    hwfit_request_free(r);
}

/* 2^24 experts fit first on 114,688 H100s (2^14 x 7: ep 16,384 over 7 pipeline stages),
 * what the search one count at a time found in 1.3 s (Release, before the bounds of
 * hwfit_shard_min_gpus); now the counts below are skipped by the weights' bound. */
Test(extremes, fewest_cards_of_2_24_experts) {
    const extreme *x = NULL;
    for (size_t k = 0; k < EXTREMES_COUNT; k++)
        if (strcmp(extremes[k].name, "fit_2^24_experts_max_gpus") == 0) x = &extremes[k];
    cr_assert_not_null(x);
    hwfit_request *r;
    cr_assert_eq(run_row(x, &r), HWFIT_OK, "%s", hwfit_request_message(r));
    const char *json = hwfit_request_output(r, NULL);
    cr_assert_not_null(strstr(json, "\"min_gpus\": 114688,"), "%s", json);
    hwfit_request_free(r);
}

/* Refusals that named nothing or an option not given (issue 21). */
static void refused(const char *command, const char *const *opts, hwfit_status status,
                    const char *option, const char *words) {
    hwfit_request *r = NULL;
    cr_assert_eq(hwfit_request_new(command, &r), HWFIT_OK);
    for (size_t i = 0; opts[i] != NULL; i += 2) {
        char path[1024];
        cr_assert_eq(hwfit_request_set(r, opts[i], resolve(opts[i + 1], path, sizeof path)),
                     HWFIT_OK, "%s: %s", opts[i], hwfit_request_message(r));
    }
    hwfit_status st = hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL);
    const char *m = hwfit_request_message(r);
    cr_assert_eq(st, status, "%s: %s (%s)", command, hwfit_status_name(st), m);
    const hwfit_option *o = hwfit_request_option(r);
    cr_assert_not_null(o, "%s names no option: %s", command, m);
    cr_assert_str_eq(o->name, option, "%s: %s", command, m);
    cr_assert_not_null(strstr(m, words), "%s: '%s' lacks '%s'", command, m, words);
    hwfit_request_free(r);
}

#define OPTS(...) ((const char *const[]){__VA_ARGS__, NULL})

Test(extremes, refusals_name_what_was_given) {
    /* 720,720 GPUs of 8 per node: 90,090 nodes, beyond the topology (was an unnamed EDOM
     * from whichever layout first spanned them). */
    refused("plan",
            OPTS("config", "M:llama-3.1-8b.config.json", "gpu", "h100-sxm", "gpus", "720720",
                 "nic", "8x400g-ib"),
            HWFIT_EDOM, "gpus", "90090 nodes of 8");
    refused("perf",
            OPTS("config", "M:llama-3.1-8b.config.json", "gpu", "h100-sxm", "gpus", "720720",
                 "nic", "8x400g-ib"),
            HWFIT_EDOM, "gpus", "more than the 65536 nodes");
    /* One GPU: was "--sockets must divide", then "--ranks", neither given. */
    refused("collective", OPTS("gpus", "1"), HWFIT_EDOM, "gpus", "at least 2 ranks");
    refused("collective", OPTS("gpus", "3", "sockets", "2"), HWFIT_EDOM, "sockets",
            "must divide");
}

/* Each of these named a default the user never typed (--gpus, --pp, --tp, --redundant) or
 * answered while ignoring the option (the sweep below keeps every other case honest). */
Test(extremes, refusals_name_the_option_behind_the_rule) {
#define L8 "config", "M:llama-3.1-8b.config.json", "gpu", "h100-sxm"
    refused("fit", OPTS(L8, "batch", "18446744073709551615"), HWFIT_ERANGE, "batch",
            "does not fit a 64-bit byte count");
    refused("perf", OPTS(L8, "mode", "full", "micro-batch", "18446744073709551615"),
            HWFIT_ERANGE, "micro-batch", "does not fit a 64-bit byte count");
    refused("fit", OPTS(L8, "mode", "full", "gpus", "8", "batch", "7", "micro-batch", "2"),
            HWFIT_ELAYOUT, "batch", "the global batch 7 is not divisible by micro-batch 2");
    refused("fit", OPTS(L8, "mode", "full", "virtual-stages", "65536"), HWFIT_ELAYOUT,
            "virtual-stages", "65536 pipeline chunks, more than the 32 layers");
    refused("fit", OPTS(L8, "offload", "optimizer"), HWFIT_ELAYOUT, "offload",
            "training only");
    refused("serve", OPTS(L8, "gpus", "3"), HWFIT_ELAYOUT, "gpus",
            "attention heads are not divisible by tp");
    refused("serve", OPTS(L8, "ep", "2"), HWFIT_ELAYOUT, "ep", "mixture-of-experts");
    refused("serve", OPTS(L8, "pp", "65536"), HWFIT_ELAYOUT, "pp", "more pipeline chunks");
    refused("serve", OPTS(L8, "pp", "65536", "dp", "2"), HWFIT_EDOM, "pp",
            "tp x pp x dp make 131072 GPUs");
    /* Options a mode does not use are refused, not ignored. */
    refused("fit", OPTS(L8, "recompute", "full"), HWFIT_EINVAL, "recompute",
            "applies only to training");
    refused("plan", OPTS(L8, "micro-batch", "4"), HWFIT_EINVAL, "micro-batch",
            "applies only to training");
    refused("perf", OPTS(L8, "optimizer", "sgd"), HWFIT_EINVAL, "optimizer",
            "applies only to training");
    refused("fit", OPTS(L8, "mode", "full", "lora-rank", "8"), HWFIT_EINVAL, "lora-rank",
            "applies only to mode lora or qlora");
    refused("fit", OPTS(L8, "mode", "lora", "qlora-inputs-kept", "true"), HWFIT_EINVAL,
            "qlora-inputs-kept", "applies only to mode qlora");
    refused("plan", OPTS(L8, "weights", "nf4", "dequant-transient", "true"), HWFIT_EINVAL,
            "dequant-transient", "applies only to training");
#undef L8
}

Test(extremes, a_default_gives_way_to_what_was_given) {
    /* serve --pp 2 on the default card count runs on 2 cards; power --psus 1 stands by none. */
    const char *const *cases[] = {
        OPTS("config", "M:llama-3.1-8b.config.json", "gpu", "h100-sxm", "pp", "2"),
        OPTS("psus", "1", "psu-watts", "3200W", "load", "2kW")};
    const char *commands[] = {"serve", "power"};
    const char *keys[] = {"\"gpus\": 2", "\"redundant\": 0"};
    for (size_t k = 0; k < 2; k++) {
        hwfit_request *r = NULL;
        cr_assert_eq(hwfit_request_new(commands[k], &r), HWFIT_OK);
        for (size_t i = 0; cases[k][i] != NULL; i += 2) {
            char path[1024];
            cr_assert_eq(hwfit_request_set(r, cases[k][i], resolve(cases[k][i + 1], path,
                                                                   sizeof path)),
                         HWFIT_OK);
        }
        static char out[1 << 16];
        size_t n = 0;
        hwfit_status st = hwfit_request_run(r, HWFIT_FORMAT_JSON, out, sizeof out, &n);
        cr_assert_eq(st, HWFIT_OK, "%s: %s", commands[k], hwfit_request_message(r));
        cr_assert_not_null(strstr(out, keys[k]), "%s: no %s", commands[k], keys[k]);
        hwfit_request_free(r);
    }
}

Test(extremes, a_default_never_refuses_for_the_user) {
    /* 3 GPUs per node with the default 2 sockets: the default gives way. */
    hwfit_request *r = NULL;
    cr_assert_eq(hwfit_request_new("collective", &r), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "gpus", "3"), HWFIT_OK);
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL), HWFIT_OK, "%s",
                 hwfit_request_message(r));
    hwfit_request_free(r);
}

/* Every numeric option of every command at its documented min and max (the other options
 * at their defaults, with the few a command requires): each answers, or refuses naming the
 * option it was given, or names one that is missing ("is required", "is missing"). The
 * options and bounds come from the tables, so a new option joins by itself. */
static const char *const base_opts[][7] = {
    {"fit", "config", "M:llama-3.1-8b.config.json", "gpu", "h100-sxm", NULL, NULL},
    {"plan", "config", "M:llama-3.1-8b.config.json", "gpu", "h100-sxm", NULL, NULL},
    {"perf", "config", "M:llama-3.1-8b.config.json", "gpu", "h100-sxm", NULL, NULL},
    {"memory", "config", "M:llama-3.1-8b.config.json", NULL, NULL, NULL, NULL},
    {"model", "config", "M:llama-3.1-8b.config.json", NULL, NULL, NULL, NULL},
    {"serve", "config", "M:llama-3.1-8b.config.json", "gpu", "h100-sxm", NULL, NULL},
    {"raid", "level", "6", "drives", "8", "drive-size", "15.36TB"},
    {"power", "psus", "2", "psu-watts", "3200W", "load", "2kW"},
    {"link", "name", "pcie5-x16", NULL, NULL, NULL, NULL},
};


static int is_numeric(const hwfit_option *o) {
    return o->kind == HWFIT_OPTION_COUNT || o->kind == HWFIT_OPTION_TOKENS ||
           o->kind == HWFIT_OPTION_QUANTITY || o->kind == HWFIT_OPTION_RATIO;
}

static void number_text(const hwfit_option *o, double v, char *buf, size_t size) {
    const char *unit = "";
    if (o->kind == HWFIT_OPTION_QUANTITY) {
        switch (o->unit) {
        case HWFIT_UNIT_BYTES: unit = "B"; break;
        case HWFIT_UNIT_WATTS: unit = "W"; break;
        case HWFIT_UNIT_SECONDS: unit = "s"; break;
        case HWFIT_UNIT_BYTES_PER_S: unit = "B/s"; break;
        case HWFIT_UNIT_BITS_PER_S: unit = "b/s"; break;
        case HWFIT_UNIT_FLOP_PER_S: unit = "FLOP/s"; break;
        default: unit = ""; break;
        }
    }
    if (o->kind == HWFIT_OPTION_COUNT || o->kind == HWFIT_OPTION_TOKENS)
        snprintf(buf, size, "%.0f", v >= 18446744073709551615.0 ? 18446744073709551615.0 : v);
    else snprintf(buf, size, "%.17g%s", v, unit);
    if ((o->kind == HWFIT_OPTION_COUNT || o->kind == HWFIT_OPTION_TOKENS) &&
        v >= 18446744073709551615.0)
        snprintf(buf, size, "18446744073709551615");
}

Test(extremes, every_numeric_option_at_its_limits_names_what_was_given) {
    size_t runs = 0, refusals = 0;
    for (const hwfit_command *c = hwfit_command_next(NULL); c; c = hwfit_command_next(c)) {
        const char *const *base = NULL;
        for (size_t b = 0; b < sizeof base_opts / sizeof base_opts[0]; b++)
            if (strcmp(base_opts[b][0], c->name) == 0) base = &base_opts[b][1];
        for (const hwfit_option *o = hwfit_option_next(c, NULL); o; o = hwfit_option_next(c, o)) {
            if (!is_numeric(o) || (o->flags & HWFIT_OPTION_CHART)) continue;
            /* fewest-cards up to 1,048,576 is a bench row (tests/extremes.h) */
            if (strcmp(o->name, "max-gpus") == 0) continue;
            for (int side = 0; side < 2; side++) {
                hwfit_request *r = NULL;
                cr_assert_eq(hwfit_request_new(c->name, &r), HWFIT_OK);
                int base_has = 0;
                for (size_t i = 0; base && i < 6 && base[i] != NULL; i += 2) {
                    if (strcmp(base[i], o->name) == 0) base_has = 1;
                    char path[1024];
                    cr_assert_eq(hwfit_request_set(r, base[i], resolve(base[i + 1], path,
                                                                      sizeof path)),
                                 HWFIT_OK, "%s %s", c->name, base[i]);
                }
                (void)base_has;
                char value[64];
                number_text(o, side ? o->max : o->min, value, sizeof value);
                hwfit_status st = hwfit_request_set(r, o->name, value);
                cr_assert_eq(st, HWFIT_OK, "%s --%s %s: the documented %s is refused: %s",
                             c->name, o->name, value, side ? "max" : "min",
                             hwfit_request_message(r));
                st = hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL);
                runs++;
                if (st != HWFIT_OK) {
                    refusals++;
                    const char *m = hwfit_request_message(r);
                    const hwfit_option *named = hwfit_request_option(r);
                    int given = named != NULL && strcmp(named->name, o->name) == 0;
                    for (size_t i = 0; !given && named && base && i < 6 && base[i]; i += 2)
                        given = strcmp(named->name, base[i]) == 0;
                    int missing = named != NULL && (strstr(m, "is required") != NULL ||
                                                    strstr(m, "is missing") != NULL ||
                                                    strstr(m, "must be given") != NULL ||
                                                    strstr(m, "applies only") != NULL);
                    int ok = given || missing || (named == NULL && st == HWFIT_ERANGE);
                    cr_expect(ok, "%s --%s %s: %s names %s: %s", c->name, o->name, value,
                                  hwfit_status_name(st), named ? named->name : "nothing", m);
                }
                hwfit_request_free(r);
            }
        }
    }
    printf("options at their limits: %zu runs, %zu refused\n", runs, refusals);
    cr_assert_gt(runs, 100);
}

/* ---- the fewest-cards search against the scan ------------------------------------------ */

/* hwfit_shard_min_gpus skips counts by bounds (the weights a card must hold, by the shape
 * of the layout), prunes tensor and pipeline degrees that resolve refuses, evaluates only
 * the largest card and stops at the first layout that fits; hwfit__shard_min_gpus_scan is
 * the search at every count as it was. Both must give the same status, count and layout on
 * every input: here a few hundred drawn from a fixed seed (dense, MoE, sliding-window and
 * 2^24-expert models; the four modes; spaces with degrees, ZeRO or offload fixed; a card's
 * capacity drawn around what the weights need, so that the answers spread over the
 * counts). */
#include "hwfit.h"
#include "domains/shard_iface.h"
#include "domains/shard_internal.h"

static uint64_t lcg(uint64_t *s) {
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return *s >> 33;
}

static void load_model(const char *file, hwfit_model *m) {
    char path[1024];
    if (strncmp(file, "X:", 2) == 0)
        snprintf(path, sizeof path, "%s/extremes/%s", HWFIT_TEST_DATA, file + 2);
    else
        snprintf(path, sizeof path, "%s/models/%s", HWFIT_TEST_DATA, file);
    hwfit_error err;
    cr_assert_eq(hwfit_hf_config_load(path, m, &err), HWFIT_OK, "%s: %s", file, err.message);
}

static int same_layout(const hwfit_layout *a, const hwfit_layout *b) {
    return a->tp == b->tp && a->pp == b->pp && a->dp == b->dp && a->cp == b->cp &&
           a->ep == b->ep && a->etp == b->etp && a->virtual_stages == b->virtual_stages &&
           a->sequence_parallel == b->sequence_parallel && a->zero_stage == b->zero_stage &&
           a->offload == b->offload && a->micro_batch == b->micro_batch &&
           a->global_batch == b->global_batch && a->recompute == b->recompute &&
           a->uneven_layers == b->uneven_layers;
}

Test(extremes, fewest_cards_equals_the_scan, .timeout = 600) {
    static const char *const files[] = {
        "llama-3.1-8b.config.json",        "llama-3.1-70b.config.json",
        "mixtral-8x7b-instruct-v0.1.config.json", "qwen1.5-moe-a2.7b.config.json",
        "gemma-2-9b-it.config.json",       "deepseek-coder-v2-lite-base.config.json",
        "X:moe-16m-experts.config.json",   "phi-3-mini-4k-instruct.config.json"};
    enum { FILES = sizeof files / sizeof files[0] };
    uint64_t seed = 20261202;
    size_t runs = 0, found = 0, skipped_counts = 0, statuses = 0, unknown_format = 0;
    for (size_t f = 0; f < FILES; f++) {
        hwfit_model m;
        load_model(files[f], &m);
        for (int k = 0; k < 40; k++) {
            hwfit_shard_in in;
            hwfit_shard_init(&in);
            hwfit_shard_space sp;
            hwfit_shard_space_init(&sp);
            int mode = (int)(lcg(&seed) % 4);
            int training = mode != 0 && k % 3 != 0; /* inference most often: it is the bound's */
            in.memory.mode = training ? (hwfit_memory_mode)mode : HWFIT_MEMORY_INFERENCE;
            in.memory.context = (uint64_t)1 << (8 + lcg(&seed) % 8);
            in.memory.batch = training ? 1 : 1 + lcg(&seed) % 4;
            /* the whole model's footprint (hwfit_memory_estimate) over 1 to 32 cards, +- 30 % */
            hwfit_memory_out need;
            cr_assert_eq(hwfit_memory_estimate(&m, &in.memory, &need), HWFIT_OK);
            double cards = (double)(1 + lcg(&seed) % 32);
            in.capacity_bytes = (double)need.total_bytes / cards *
                                (0.7 + 0.6 * (double)(lcg(&seed) % 1000) / 1000.0);
            if (in.capacity_bytes < 1e9) in.capacity_bytes = 1e9;
            sp.max_micro_batch = 2;
            sp.max_virtual_stages = 2;
            switch (lcg(&seed) % 6) {
            case 0: break; /* the default space */
            case 1: sp.zero_stage = (int)(lcg(&seed) % 3); sp.offload = 0; break;
            case 2: sp.tp = 2; break;
            case 3: sp.pp = 1 + (uint32_t)(lcg(&seed) % 4); break;
            case 4: sp.ep = m.experts > 0 ? 2 : 1; sp.etp = 1; break;
            default: sp.cp = 2; sp.zero_stage = 0; sp.offload = 0; break;
            }
            /* now and then an input the search refuses, or sizes beyond 64 bits */
            if (k % 8 == 7) {
                switch (lcg(&seed) % 6) {
                case 5: /* refused by the memory calls, not by the search's own checks */
                    in.memory.activations = (hwfit_dtype){(hwfit_dtype_id)9999, 0};
                    break;
                case 0: in.memory.context = 0; break;
                case 1: sp.max_micro_batch = 0; break;
                case 2: in.memory.mtp = 1; break;
                case 3: in.memory.batch = UINT64_MAX / 3; break;
                default: in.zero3_live_layers = 0; break;
                }
            }
            uint32_t max_gpus = training ? 24 : 64;
            hwfit_layout la, lb;
            memset(&la, 0, sizeof la);
            memset(&lb, 0, sizeof lb);
            uint32_t ga = 0, gb = 0;
            hwfit_status sa = hwfit_shard_min_gpus(&m, &in, &sp, max_gpus, &ga, &la);
            hwfit_status sb = hwfit__shard_min_gpus_scan(&m, &in, &sp, max_gpus, &gb, &lb);
            cr_assert_eq(sa, sb, "%s #%d: status %s, scan %s", files[f], k, hwfit_status_name(sa),
                         hwfit_status_name(sb));
            /* without a layout asked for (the CLI's call): no search for it at the end */
            uint32_t gn = 0;
            cr_assert_eq(hwfit_shard_min_gpus(&m, &in, &sp, max_gpus, &gn, NULL), sb);
            cr_assert_eq(gn, gb, "%s #%d: %u cards without the layout, scan %u", files[f], k, gn,
                         gb);
            runs++;
            if (sa != HWFIT_OK) {
                statuses++;
                unknown_format += sa == HWFIT_EINVAL;
                continue;
            }
            cr_assert_eq(ga, gb, "%s #%d (mode %d, capacity %.4g): %u cards, scan %u", files[f], k,
                         (int)in.memory.mode, in.capacity_bytes, ga, gb);
            if (ga == 0) continue;
            found++;
            cr_assert(same_layout(&la, &lb), "%s #%d: the layouts differ at %u cards", files[f],
                      k, ga);
            skipped_counts += ga > 1;
        }
    }
    printf("fewest cards vs scan: %zu inputs, %zu found a count, %zu refused\n", runs, found,
           statuses);
    /* the draw reaches both answers and counts above 1 */
    cr_assert_gt(found, runs / 3);
    cr_assert_gt(statuses, 10);
    cr_assert_gt(unknown_format, 0); /* refused by the memory calls of an evaluation */
    cr_assert_gt(skipped_counts, runs / 4);
}

/* hwfit__shard_stage_count (a stage's layers in a few steps, what the searches evaluate)
 * equals the sum of hwfit__shard_chunk over the stage's chunks, for every split of 1 to 130
 * layers and of 1,024 layers over pp 1-130 and 1-8 virtual stages (even and Megatron-Core's
 * uneven interleaved split). */
Test(extremes, stage_count_equals_the_chunks) {
    size_t checked = 0;
    for (uint32_t layers = 1; layers <= 1024; layers = layers < 130 ? layers + 1 : 1024) {
        for (uint32_t pp = 1; pp <= 130 && pp <= layers + 2; pp++) {
            for (uint32_t v = 1; v <= 8 && (uint64_t)pp * v <= layers + 2; v++) {
                hwfit__shard_resolved r;
                memset(&r, 0, sizeof r);
                r.pp = pp;
                r.v = v;
                for (uint32_t s = 0; s < pp; s++) {
                    uint32_t sum = 0;
                    for (uint32_t j = 0; j < v; j++) {
                        uint32_t first, count;
                        hwfit__shard_chunk(&r, layers, s, j, &first, &count);
                        sum += count;
                    }
                    cr_assert_eq(hwfit__shard_stage_count(&r, layers, s), sum,
                                 "layers %u pp %u v %u stage %u", layers, pp, v, s);
                    checked++;
                }
            }
        }
        if (layers == 1024) break;
    }
    cr_assert_gt(checked, 100000);
}

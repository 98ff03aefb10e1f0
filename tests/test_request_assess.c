/* test_request_assess.c - the `assess` command of the request layer: the same figures as
 * hwfit_assess called directly, its formats (JSON, text, Markdown, the HTML of
 * hwfit_report_html), its refusals, its defaults and the buffer protocol. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit.h"

#define SEED HWFIT_TEST_DATA "/../../examples/specs/seed-server.json"
#define HGX HWFIT_TEST_DATA "/../../examples/specs/hgx-h100.json"
#define MODELS HWFIT_TEST_DATA "/models"
#define W1 "serve:llama-3.1-70b:bf16:128K"
#define W2 "qlora:llama-3.1-70b"

static hwfit_request *seed_request(void) {
    hwfit_request *r = NULL;
    cr_assert_eq(hwfit_request_new("assess", &r), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "node", SEED), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "models-dir", MODELS), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "workload", W1), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "workload", W2), HWFIT_OK);
    return r;
}

/* The direct computation, for the same node and workloads. Heap state: large. */
typedef struct direct {
    hwfit_node node;
    hwfit_model models[2];
    hwfit_assess_workload w[2];
    hwfit_finding f[64];
    size_t count;
} direct;

static direct *compute_direct(const hwfit_assess_options *opt) {
    direct *d = calloc(1, sizeof *d);
    cr_assert_not_null(d);
    hwfit_error err;
    cr_assert_eq(hwfit_node_load(SEED, &d->node, &err), HWFIT_OK);
    cr_assert_eq(hwfit_assess_workload_parse(W1, MODELS, &d->w[0], &d->models[0], &err), HWFIT_OK);
    cr_assert_eq(hwfit_assess_workload_parse(W2, MODELS, &d->w[1], &d->models[1], &err), HWFIT_OK);
    cr_assert_geq(64, hwfit_assess_max_findings(2));
    cr_assert_eq(hwfit_assess(&d->node, d->w, 2, opt, d->f, 64, &d->count), HWFIT_OK);
    return d;
}

/* Count of occurrences of needle in s. */
static size_t occurrences(const char *s, const char *needle) {
    size_t n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

Test(request_assess, json_has_the_findings_of_hwfit_assess) {
    hwfit_request *r = seed_request();
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL), HWFIT_OK,
                 "%s", hwfit_request_message(r));
    const char *json = hwfit_request_output(r, NULL);
    direct *d = compute_direct(NULL);
    cr_assert_eq(occurrences(json, "\"rule\": "), d->count);
    for (size_t i = 0; i < d->count; i++) {
        char rule[128];
        snprintf(rule, sizeof rule, "\"rule\": \"%s\"", d->f[i].rule);
        cr_assert_not_null(strstr(json, rule), "missing %s", rule);
    }
    cr_assert_not_null(strstr(json, "\"node\": \"seed-server\""));
    cr_assert_not_null(strstr(json, "\"gpus\": 8"));
    cr_assert_not_null(strstr(json, "\"label\": \"" W1 "\""));
    cr_assert_not_null(strstr(json, "\"workload\": \"" W2 "\""));
    /* power.redundancy: 6,400 W usable, the same figure both ways. */
    double usable = 0;
    for (size_t i = 0; i < d->count; i++)
        if (strcmp(d->f[i].rule, "power.redundancy") == 0)
            cr_assert_eq(hwfit_finding_figure(&d->f[i], "usable_w", &usable), HWFIT_OK);
    cr_assert_float_eq(usable, 6400.0, 1e-9);
    const char *p = strstr(json, "\"rule\": \"power.redundancy\"");
    cr_assert_not_null(p);
    cr_assert_not_null(strstr(p, "\"key\": \"usable_w\",\n          \"value\": 6400,"));
    const char *counts = strstr(json, "\"counts\"");
    cr_assert_not_null(counts);
    size_t kinds[3] = {0, 0, 0};
    for (size_t i = 0; i < d->count; i++) kinds[d->f[i].kind]++;
    char want[64];
    snprintf(want, sizeof want, "\"strength\": %zu", kinds[0]);
    cr_assert_not_null(strstr(counts, want));
    snprintf(want, sizeof want, "\"weakness\": %zu", kinds[1]);
    cr_assert_not_null(strstr(counts, want));
    free(d);
    hwfit_request_free(r);
}

Test(request_assess, options_reach_the_library) {
    hwfit_request *r = seed_request();
    cr_assert_eq(hwfit_request_set(r, "allreduce-size", "64MiB"), HWFIT_OK);
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL), HWFIT_OK);
    const char *p = strstr(hwfit_request_output(r, NULL), "\"rule\": \"interconnect.allreduce\"");
    cr_assert_not_null(p);
    cr_assert_not_null(strstr(p, "\"key\": \"bytes\",\n          \"value\": 67108864,"));
    hwfit_request_free(r);
}

Test(request_assess, text_markdown_and_html) {
    hwfit_request *r = seed_request();
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_TEXT, NULL, 0, NULL), HWFIT_OK);
    const char *text = hwfit_request_output(r, NULL);
    cr_assert_eq(strncmp(text, "Assessment of seed-server: 1 node x 8 ", 38), 0, "%s", text);
    cr_assert_not_null(strstr(text, "[power.redundancy]"));
    cr_assert_not_null(strstr(text, "workload 2: " W2 "\n"));
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_MARKDOWN, NULL, 0, NULL), HWFIT_OK);
    const char *md = hwfit_request_output(r, NULL);
    cr_assert_eq(strncmp(md, "# Assessment of seed-server\n", 28), 0);
    cr_assert_not_null(strstr(md, "\n## Power supplies\n"));
    cr_assert_not_null(strstr(md, "1. `" W1 "`\n"));

    /* HTML: the bytes of hwfit_report_html for the same findings. */
    size_t n = 0;
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_HTML, NULL, 0, &n), HWFIT_OK);
    size_t len = 0;
    const char *html = hwfit_request_output(r, &len);
    cr_assert_eq(len + 1, n);
    cr_assert_eq(strlen(html), len);
    direct *d = compute_direct(NULL);
    size_t need = 0;
    cr_assert_eq(hwfit_report_html(&d->node, d->w, 2, d->f, d->count, NULL, NULL, 0, &need),
                 HWFIT_EBUFSIZE);
    cr_assert_eq(need, n);
    char *want = malloc(need);
    cr_assert_not_null(want);
    cr_assert_eq(hwfit_report_html(&d->node, d->w, 2, d->f, d->count, NULL, want, need, NULL),
                 HWFIT_OK);
    cr_assert_str_eq(html, want);
    free(want);
    free(d);
    /* No CSV or SVG. */
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_CSV, NULL, 0, NULL), HWFIT_EUNSUPPORTED);
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_SVG, NULL, 0, NULL), HWFIT_EUNSUPPORTED);
    hwfit_request_free(r);
}

Test(request_assess, a_small_buffer_gets_ebufsize_and_the_size) {
    hwfit_request *r = seed_request();
    char small[64];
    size_t need = 0;
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, small, sizeof small, &need),
                 HWFIT_EBUFSIZE);
    size_t len = 0;
    (void)hwfit_request_output(r, &len);
    cr_assert_eq(need, len + 1);
    char *buf = malloc(need);
    cr_assert_not_null(buf);
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, buf, need, NULL), HWFIT_OK);
    cr_assert_eq(strlen(buf) + 1, need);
    cr_assert_eq(buf[0], '{');
    free(buf);
    hwfit_request_free(r);
}

static const hwfit_option *opt(const char *name) {
    return hwfit_option_by_name(hwfit_command_by_name("assess"), name);
}

static void refused_at_run(hwfit_request *r, hwfit_status st, const char *option,
                           const char *message) {
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL), st, "%s",
                 hwfit_request_message(r));
    cr_assert_eq(hwfit_request_option(r), option ? opt(option) : NULL);
    cr_assert_not_null(strstr(hwfit_request_message(r), message), "%s",
                       hwfit_request_message(r));
}

Test(request_assess, refusals) {
    hwfit_request *r = NULL;
    cr_assert_eq(hwfit_request_new("assess", &r), HWFIT_OK);
    refused_at_run(r, HWFIT_EINVAL, "node", "is required");
    cr_assert_eq(hwfit_request_set(r, "node", "/nonexistent.json"), HWFIT_OK);
    refused_at_run(r, HWFIT_EIO, "node", "/nonexistent.json");
    cr_assert_eq(hwfit_request_set(r, "node", SEED), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "max-tpot", "0"), HWFIT_OK);
    refused_at_run(r, HWFIT_EDOM, "max-tpot", "must be above 0");
    hwfit_request_free(r);

    /* Bounds at hwfit_request_set. */
    cr_assert_eq(hwfit_request_new("assess", &r), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "checkpoints", "0"), HWFIT_EDOM);
    cr_assert_eq(hwfit_request_option(r), opt("checkpoints"));
    cr_assert_not_null(strstr(hwfit_request_message(r), "between 1 and 1000000"));
    cr_assert_eq(hwfit_request_set(r, "pipeline-rate", "0"), HWFIT_EDOM);
    cr_assert_eq(hwfit_request_option(r), opt("pipeline-rate"));
    cr_assert_eq(hwfit_request_set(r, "max-comm-share", "2"), HWFIT_EDOM);
    cr_assert_eq(hwfit_request_option(r), opt("max-comm-share"));
    cr_assert_not_null(strstr(hwfit_request_message(r), "between 0 and 1"));
    hwfit_request_free(r);

    /* Workloads: unknown mode, missing model, a combination the memory module refuses. */
    cr_assert_eq(hwfit_request_new("assess", &r), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "node", SEED), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "models-dir", MODELS), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "workload", "train:llama-3.1-8b"), HWFIT_OK);
    refused_at_run(r, HWFIT_EPARSE, "workload", "unknown mode");
    hwfit_request_free(r);
    cr_assert_eq(hwfit_request_new("assess", &r), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "node", SEED), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "models-dir", MODELS), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "workload", "serve:nope"), HWFIT_OK);
    refused_at_run(r, HWFIT_EIO, "workload", "nope.config.json");
    hwfit_request_free(r);
    cr_assert_eq(hwfit_request_new("assess", &r), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "node", SEED), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "models-dir", MODELS), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "workload", "full:llama-3.1-8b:int4"), HWFIT_OK);
    refused_at_run(r, HWFIT_EUNSUPPORTED, "workload",
                   "full:llama-3.1-8b:int4: weights must be a plain format");
    hwfit_request_free(r);
}

/* Parse an option's default_text as the request does. */
static double default_value(const char *name) {
    const hwfit_option *o = opt(name);
    cr_assert_not_null(o);
    cr_assert_not_null(o->default_text, "%s has no default_text", name);
    double v = 0;
    hwfit_unit unit = o->kind == HWFIT_OPTION_QUANTITY ? o->unit : HWFIT_UNIT_NONE;
    cr_assert_eq(hwfit_units_parse(o->default_text, unit, &v), HWFIT_OK);
    cr_assert(v >= o->min && v <= o->max, "%s default out of its bounds", name);
    return v;
}

Test(request_assess, defaults_are_the_init_values) {
    hwfit_assess_options init;
    hwfit_assess_options_init(&init);
    cr_assert_eq(default_value("pipeline-rate"), init.pipeline_bytes_per_s);
    cr_assert_eq(default_value("allreduce-size"), init.allreduce_bytes);
    cr_assert_eq(default_value("checkpoints"), (double)init.checkpoints_to_keep);
    cr_assert_eq(default_value("max-tpot"), init.max_time_per_output_token_s);
    cr_assert_eq(default_value("max-comm-share"), init.max_comm_share);
    cr_assert_str_eq(opt("models-dir")->default_text, "tests/data/models");
    /* A request with no option but the node gives the findings of the init options. */
    hwfit_request *r = NULL;
    cr_assert_eq(hwfit_request_new("assess", &r), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "node", HGX), HWFIT_OK);
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL), HWFIT_OK,
                 "%s", hwfit_request_message(r));
    cr_assert_not_null(strstr(hwfit_request_output(r, NULL), "\"workloads\": [\n  ],"));
    hwfit_request_free(r);
}

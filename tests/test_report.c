/* report: the HTML report of the example nodes holds every finding and the charts, draws
 * the memory of the layout its VRAM finding names, is self-contained (no script, no
 * external resource) and deterministic, escapes the caller's text; every error path
 * leaves the outputs untouched. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit/report.h"
#include "hwfit.h"
#include "pictures/svg_internal.h"

#define SPECS HWFIT_TEST_DATA "/../../examples/specs/"
#define MODELS HWFIT_TEST_DATA "/models"

#define MAXF 256
static hwfit_finding findings[MAXF];
static hwfit_model models[4];
static hwfit_assess_workload workloads[4];

static hwfit_node load(const char *file) {
    char path[512];
    snprintf(path, sizeof path, SPECS "%s", file);
    hwfit_node n;
    hwfit_error err;
    cr_assert_eq(hwfit_node_load(path, &n, &err), HWFIT_OK, "%s", err.message);
    return n;
}

static size_t workloads_of(const char *const *texts, size_t count) {
    for (size_t i = 0; i < count; i++) {
        hwfit_error err;
        cr_assert_eq(hwfit_assess_workload_parse(texts[i], MODELS, &workloads[i], &models[i], &err),
                     HWFIT_OK, "%s: %s", texts[i], err.message);
    }
    return count;
}

static size_t assess(const hwfit_node *n, size_t nw) {
    size_t count = 0;
    cr_assert_eq(hwfit_assess(n, workloads, nw, NULL, findings, MAXF, &count), HWFIT_OK);
    return count;
}

/* The report through the two-call protocol, with the protocol's promises checked. */
static char *report(const hwfit_node *n, size_t nw, size_t nf, const hwfit_report_options *opt) {
    size_t need = 0;
    cr_assert_eq(hwfit_report_html(n, workloads, nw, findings, nf, opt, NULL, 0, &need),
                 HWFIT_EBUFSIZE);
    char *doc = malloc(need);
    cr_assert_not_null(doc);
    memset(doc, 0x5a, need);
    size_t again = 0;
    cr_assert_eq(hwfit_report_html(n, workloads, nw, findings, nf, opt, doc, need - 1, &again),
                 HWFIT_EBUFSIZE);
    cr_assert_eq(again, need);
    cr_assert_eq((unsigned char)doc[0], 0x5a, "a short buffer is untouched");
    cr_assert_eq(hwfit_report_html(n, workloads, nw, findings, nf, opt, doc, need, &again),
                 HWFIT_OK);
    cr_assert_eq(strlen(doc) + 1, need);
    char *twice = malloc(need);
    cr_assert_eq(hwfit_report_html(n, workloads, nw, findings, nf, opt, twice, need, NULL),
                 HWFIT_OK);
    cr_assert(memcmp(doc, twice, need) == 0, "deterministic");
    free(twice);
    cr_assert(strncmp(doc, "<!DOCTYPE html>\n<html lang=\"en\">", 32) == 0);
    cr_assert(strcmp(doc + need - 9, "</html>\n") == 0);
    return doc;
}

static size_t count_of(const char *doc, const char *what) {
    size_t n = 0;
    for (const char *p = strstr(doc, what); p != NULL; p = strstr(p + 1, what)) n++;
    return n;
}

static const hwfit_finding *rule(size_t count, const char *id) {
    for (size_t i = 0; i < count; i++)
        if (strcmp(findings[i].rule, id) == 0) return &findings[i];
    cr_assert_fail("no finding %s", id);
    return NULL;
}

static const char *const seed_workloads[] = {"serve:llama-3.1-70b:bf16:128K",
                                             "qlora:llama-3.1-70b"};

Test(report, seed_server_holds_every_finding_and_four_charts) {
    hwfit_node n = load("seed-server.json");
    size_t nw = workloads_of(seed_workloads, 2), nf = assess(&n, nw);
    char *doc = report(&n, nw, nf, NULL);
    cr_assert_eq(count_of(doc, "<li class=\"finding "), nf);
    for (size_t i = 0; i < nf; i++)
        cr_assert(strstr(doc, findings[i].rule) != NULL, "%s missing", findings[i].rule);
    /* Memory of the first workload, the all-reduce sweep, the RAID and the power budget. */
    cr_assert_eq(count_of(doc, "<svg xmlns="), 4);
    cr_assert_eq(count_of(doc, "<figure>"), 4);
    cr_assert_null(strstr(doc, "<?xml"), "charts are inline elements, not documents");
    cr_assert(strstr(doc, "<title>Assessment of seed-server</title>") != NULL);
    cr_assert(strstr(doc, "<h2 id=\"workloads\">") != NULL);
    cr_assert(strstr(doc, "no RAID level stated: usable against raw capacity") != NULL);
    /* The seed server stages PCIe traffic through host memory: a second line shows P2P. */
    cr_assert_eq(count_of(doc, "<g class=\"series\""), 2);
    cr_assert(strstr(doc, "seed-server with P2P forced on: 8 ranks, PCIe Gen5 x16, P2P") != NULL);
    free(doc);
}

Test(report, memory_chart_draws_the_layout_of_the_vram_finding) {
    hwfit_node n = load("seed-server.json");
    size_t nw = workloads_of(seed_workloads, 2), nf = assess(&n, nw);
    const hwfit_finding *f = rule(nf, "vram.serve_llama_3_1_70b_bf16_128k");
    double per_gpu = 0.0;
    cr_assert_eq(hwfit_finding_figure(f, "per_gpu_bytes", &per_gpu), HWFIT_OK);
    /* The bar's label is the card's bytes as the chart writes them ("24.26 GB"). */
    hwfit_svg_axis axis = {"", HWFIT_UNIT_BYTES, HWFIT_SVG_SCALE_LINEAR, HWFIT_SVG_PREFIX_DECIMAL,
                           1};
    char value[HWFIT__SVG_LABEL_SIZE], label[96];
    hwfit__svg_format_value(&axis, per_gpu, value);
    snprintf(label, sizeof label, ">GPU 0-7: %s</text>", value);
    char *doc = report(&n, nw, nf, NULL);
    cr_assert(strstr(doc, label) != NULL, "no bar labelled %s", label);
    cr_assert(strstr(doc, "Memory per card: serve:llama-3.1-70b:bf16:128K, TP 8 x PP 1 x DP 1 "
                          "(fits)") != NULL);
    free(doc);
}

Test(report, nvlink_node_has_one_sweep_and_no_workload_no_memory_chart) {
    hwfit_node n = load("hgx-h100.json");
    size_t nf = assess(&n, 0);
    char *doc = report(&n, 0, nf, NULL);
    cr_assert_eq(count_of(doc, "<g class=\"series\""), 1, "NVLink: nothing to compare");
    cr_assert_null(strstr(doc, "Memory per card"));
    cr_assert_null(strstr(doc, "<h2 id=\"workloads\">"));
    cr_assert_eq(count_of(doc, "<li class=\"finding "), nf);
    free(doc);
}

Test(report, self_contained_without_scripts_or_external_resources) {
    hwfit_node n = load("seed-server.json");
    size_t nw = workloads_of(seed_workloads, 1), nf = assess(&n, nw);
    char *doc = report(&n, nw, nf, NULL);
    const char *forbidden[] = {"<script", "<link", "<img", "<iframe", "src=", "href=", "url(",
                               "@import", "https:"};
    for (size_t i = 0; i < sizeof forbidden / sizeof forbidden[0]; i++)
        cr_assert_null(strstr(doc, forbidden[i]), "%s found", forbidden[i]);
    /* The only address is the SVG namespace, which names and loads nothing. */
    cr_assert_eq(count_of(doc, "http:"), count_of(doc, "xmlns=\"http://www.w3.org/2000/svg\""));
    free(doc);
}

Test(report, charts_off_and_a_title_given) {
    hwfit_node n = load("rtx4090-workstation.json");
    size_t nf = assess(&n, 0);
    hwfit_report_options opt;
    hwfit_report_options_init(&opt);
    opt.charts = 0;
    opt.title = "Quote 42 <draft> & \"final\"";
    char *doc = report(&n, 0, nf, &opt);
    cr_assert_null(strstr(doc, "<svg"));
    cr_assert(strstr(doc, "<h1>Quote 42 &lt;draft&gt; &amp; &quot;final&quot;</h1>") != NULL);
    free(doc);
    opt.chart_width_px = 1.0; /* ignored without charts */
    doc = report(&n, 0, nf, &opt);
    free(doc);
}

Test(report, caller_text_is_escaped_and_bounded) {
    hwfit_node n = load("seed-server.json");
    size_t nw = workloads_of(seed_workloads, 1), nf = assess(&n, nw);
    strcpy(n.name, "<script>alert(1)</script>");
    strcpy(workloads[0].label, "serve & <b>bold</b>");
    /* A finding whose text and rule fill their arrays without a terminating NUL. */
    memset(findings[0].text, 'A', sizeof findings[0].text);
    memset(findings[0].rule, 'R', sizeof findings[0].rule);
    findings[0].figures[0].key[HWFIT_FIGURE_KEY_SIZE - 1] = 'K';
    char *doc = report(&n, nw, nf, NULL);
    cr_assert_null(strstr(doc, "<script>"));
    cr_assert(strstr(doc, "&lt;script&gt;alert(1)&lt;/script&gt;") != NULL);
    cr_assert(strstr(doc, "serve &amp; &lt;b&gt;bold&lt;/b&gt;") != NULL);
    /* ">RRR...R</span>": the whole rule field (64 bytes), and no more. */
    char rules[HWFIT_FINDING_RULE_SIZE + 16] = ">";
    memset(rules + 1, 'R', HWFIT_FINDING_RULE_SIZE);
    strcpy(rules + 1 + HWFIT_FINDING_RULE_SIZE, "</span>");
    cr_assert(strstr(doc, rules) != NULL, "the rule field, bounded");
    free(doc);
}

/* A node without a name, storage or network: placeholders, not blanks; two nodes: the
 * VRAM of the whole job too. */
Test(report, unnamed_node_without_storage_or_network_and_a_pair_of_nodes) {
    hwfit_node n = load("rtx4090-workstation.json");
    n.name[0] = '\0';
    n.storage.raid.drives = 0;
    n.network.link.width = 0;
    n.network.adapters = 0;
    size_t nf = assess(&n, 0);
    char *doc = report(&n, 0, nf, NULL);
    cr_assert(strstr(doc, "this node") != NULL, "an unnamed node is called \"this node\"");
    cr_assert(count_of(doc, "none") >= 2, "no storage and no network are said, not left blank");
    free(doc);
    n = load("seed-server.json");
    nf = assess(&n, 0);
    doc = report(&n, 0, nf, NULL);
    cr_assert(strstr(doc, "(768 GiB) per node</td>") != NULL, "one node: no job total");
    free(doc);
    n.nodes = 2;
    nf = assess(&n, 0);
    doc = report(&n, 0, nf, NULL);
    cr_assert(strstr(doc, "(768 GiB) per node, 1.649 TB (1.5 TiB) in all</td>") != NULL,
              "two nodes: the VRAM of the whole job too");
    free(doc);
}

Test(report, topic_titles) {
    cr_assert_str_eq(hwfit_report_topic_title(HWFIT_ASSESS_POWER), "Power supplies");
    cr_assert_str_eq(hwfit_report_topic_title(HWFIT_ASSESS_VRAM), "VRAM and what fits");
    cr_assert_str_eq(hwfit_report_topic_title(HWFIT_ASSESS_TOPIC_COUNT_), "Other");
    cr_assert_str_eq(hwfit_report_topic_title((hwfit_assess_topic)-1), "Other");
    for (int t = 0; t < HWFIT_ASSESS_TOPIC_COUNT_; t++)
        cr_assert_str_neq(hwfit_report_topic_title((hwfit_assess_topic)t), "Other");
    hwfit_report_options opt;
    memset(&opt, 0x5a, sizeof opt);
    hwfit_report_options_init(&opt);
    cr_assert_null(opt.title);
    cr_assert_eq(opt.charts, 1);
    cr_assert_eq(opt.chart_width_px, 800.0);
    cr_assert_eq(opt.assess.allreduce_bytes, 1073741824.0);
    hwfit_report_options_init(NULL);
}

#define EXPECT_UNTOUCHED(call_expr, want)                                                   \
    do {                                                                                    \
        memset(buf, 0x5a, sizeof buf);                                                      \
        needed = 777;                                                                       \
        hwfit_status st_ = (call_expr);                                                     \
        cr_assert_eq(st_, (want), "%s: got %s", #call_expr, hwfit_status_name(st_));         \
        cr_assert_eq(needed, 777, "%s touched needed", #call_expr);                         \
        cr_assert_eq((unsigned char)buf[0], 0x5a, "%s touched buf", #call_expr);             \
    } while (0)

Test(report, errors_leave_outputs_untouched) {
    static char buf[256];
    size_t needed;
    hwfit_node n = load("seed-server.json");
    size_t nw = workloads_of(seed_workloads, 2), nf = assess(&n, nw);
    hwfit_report_options opt;
    hwfit_report_options_init(&opt);
#define CALL(node_, nw_, nf_, opt_, buf_, size_)                                             \
    hwfit_report_html(node_, workloads, nw_, findings, nf_, opt_, buf_, size_, &needed)
    EXPECT_UNTOUCHED(CALL(NULL, nw, nf, NULL, buf, sizeof buf), HWFIT_EINVAL);
    EXPECT_UNTOUCHED(CALL(&n, nw, nf, NULL, NULL, 8), HWFIT_EINVAL);
    EXPECT_UNTOUCHED(hwfit_report_html(&n, NULL, 1, findings, nf, NULL, buf, sizeof buf, &needed),
                     HWFIT_EINVAL);
    EXPECT_UNTOUCHED(hwfit_report_html(&n, workloads, nw, NULL, 1, NULL, buf, sizeof buf, &needed),
                     HWFIT_EINVAL);
    EXPECT_UNTOUCHED(CALL(&n, HWFIT_ASSESS_MAX_WORKLOADS + 1, 0, NULL, buf, sizeof buf),
                     HWFIT_EDOM);
    hwfit_finding keep = findings[0];
    findings[0].topic = HWFIT_ASSESS_TOPIC_COUNT_;
    EXPECT_UNTOUCHED(CALL(&n, nw, nf, NULL, buf, sizeof buf), HWFIT_EINVAL);
    findings[0] = keep;
    findings[0].kind = (hwfit_finding_kind)3;
    EXPECT_UNTOUCHED(CALL(&n, nw, nf, NULL, buf, sizeof buf), HWFIT_EINVAL);
    findings[0] = keep;
    findings[0].workload = 3; /* only 2 workloads */
    EXPECT_UNTOUCHED(CALL(&n, nw, nf, NULL, buf, sizeof buf), HWFIT_EDOM);
    findings[0] = keep;
    findings[0].figure_count = HWFIT_FINDING_MAX_FIGURES + 1;
    EXPECT_UNTOUCHED(CALL(&n, nw, nf, NULL, buf, sizeof buf), HWFIT_EDOM);
    findings[0] = keep;
    const hwfit_model *model = workloads[0].model;
    workloads[0].model = NULL;
    EXPECT_UNTOUCHED(CALL(&n, nw, nf, NULL, buf, sizeof buf), HWFIT_EINVAL);
    workloads[0].model = model;
    opt.assess.gpu_utilization = 0.0;
    EXPECT_UNTOUCHED(CALL(&n, nw, nf, &opt, buf, sizeof buf), HWFIT_EDOM);
    hwfit_report_options_init(&opt);
    opt.assess.allreduce_bytes = 0.5;
    EXPECT_UNTOUCHED(CALL(&n, nw, nf, &opt, buf, sizeof buf), HWFIT_EDOM);
    hwfit_report_options_init(&opt);
    opt.chart_height_px = 100.0;
    EXPECT_UNTOUCHED(CALL(&n, nw, nf, &opt, buf, sizeof buf), HWFIT_EDOM);
    hwfit_node bad = n;
    bad.gpu.count = 0;
    EXPECT_UNTOUCHED(CALL(&bad, nw, nf, NULL, buf, sizeof buf), HWFIT_EDOM);
    bad = n;
    strcpy(bad.gpu.model, "no-such-gpu");
    EXPECT_UNTOUCHED(CALL(&bad, nw, nf, NULL, buf, sizeof buf), HWFIT_ENOTFOUND);
    hwfit_assess_workload w0 = workloads[0];
    workloads[0].memory.mode = HWFIT_MEMORY_FULL;
    cr_assert_eq(hwfit_dtype_parse("int4", &workloads[0].memory.weights), HWFIT_OK);
    EXPECT_UNTOUCHED(CALL(&n, nw, 0, NULL, buf, sizeof buf), HWFIT_EUNSUPPORTED);
    workloads[0] = w0;
    /* Too small: EBUFSIZE with needed set and buf untouched. */
    memset(buf, 0x5a, sizeof buf);
    cr_assert_eq(CALL(&n, nw, nf, NULL, buf, sizeof buf), HWFIT_EBUFSIZE);
    cr_assert_gt(needed, sizeof buf);
    cr_assert_eq((unsigned char)buf[0], 0x5a);
#undef CALL
}

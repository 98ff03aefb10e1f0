/* assess.c - `hwfit assess --node FILE [--workload W ...]`: a server's strengths and
 * weaknesses with the figures behind them, as text, Markdown or JSON. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define CMD "assess"

static const char *mark(hwfit_finding_kind kind, int markdown) {
    switch (kind) {
    case HWFIT_FINDING_STRENGTH: return markdown ? "**+**" : "+";
    case HWFIT_FINDING_WEAKNESS: return markdown ? "**-**" : "-";
    case HWFIT_FINDING_INFO: break;
    }
    return markdown ? "*i*" : "i";
}

static const char *const topic_titles[HWFIT_ASSESS_TOPIC_COUNT_] = {
    "VRAM and what fits",          "GPU memory bandwidth and decode",
    "Tensor throughput",           "GPU interconnect, P2P and collectives",
    "PCIe bifurcation",            "CPU",
    "Host RAM",                    "Host memory bandwidth and DIMMs",
    "PCIe lane budget",            "Local storage throughput and checkpoints",
    "RAID capacity and risk",      "Network storage",
    "Network",                     "Power supplies",
    "Cooling",                     "Energy and cost"};

static void report(const hwfit_node *node, const hwfit_node_eval *e,
                   const hwfit_assess_workload *w, size_t nw, const hwfit_finding *f,
                   size_t count, int markdown) {
    size_t kinds[3] = {0, 0, 0};
    for (size_t i = 0; i < count; i++) kinds[f[i].kind]++;
    char vram[64];
    hwfit_units_format(e->total_vram_bytes, HWFIT_UNIT_BYTES, vram, sizeof vram);
    if (markdown) {
        printf("# Assessment of %s\n\n", node->name[0] ? node->name : "the node");
        printf("%llu node%s x %llu %s, %s of GPU memory. %zu strengths, %zu weaknesses, "
               "%zu notes.\n",
               (unsigned long long)node->nodes, node->nodes == 1 ? "" : "s",
               (unsigned long long)e->gpus, e->gpu->edition, vram, kinds[0], kinds[1], kinds[2]);
        if (nw > 0) {
            printf("\nWorkloads:\n\n");
            for (size_t i = 0; i < nw; i++) printf("%zu. `%s`\n", i + 1, w[i].label);
        }
    } else {
        printf("Assessment of %s: %llu node%s x %llu %s, %s of GPU memory\n",
               node->name[0] ? node->name : "the node", (unsigned long long)node->nodes,
               node->nodes == 1 ? "" : "s", (unsigned long long)e->gpus, e->gpu->name, vram);
        printf("%zu strengths (+), %zu weaknesses (-), %zu notes (i)\n", kinds[0], kinds[1],
               kinds[2]);
        for (size_t i = 0; i < nw; i++) printf("workload %zu: %s\n", i + 1, w[i].label);
    }
    int topic = -1;
    for (size_t i = 0; i < count; i++) {
        if ((int)f[i].topic != topic) {
            topic = (int)f[i].topic;
            if (markdown) printf("\n## %s\n\n", topic_titles[topic]);
            else printf("\n%s\n", topic_titles[topic]);
        }
        if (markdown) printf("- %s %s (`%s`)\n", mark(f[i].kind, 1), f[i].text, f[i].rule);
        else printf("  %s %s [%s]\n", mark(f[i].kind, 0), f[i].text, f[i].rule);
    }
}

static void json(const hwfit_node *node, const hwfit_node_eval *e,
                 const hwfit_assess_workload *w, size_t nw, const hwfit_finding *f,
                 size_t count) {
    cli_out o;
    out_begin(&o, 1, NULL);
    out_str(&o, "node", "node", node->name);
    out_u64(&o, "nodes", "nodes", node->nodes);
    out_str(&o, "gpu", "GPU", e->gpu->name);
    out_u64(&o, "gpus", "GPUs", e->total_gpus);
    out_list(&o, "workloads");
    for (size_t i = 0; i < nw; i++) {
        out_item(&o);
        out_str(&o, "label", "label", w[i].label);
        out_u64(&o, "index", "index", i + 1);
        out_item_end(&o);
    }
    out_list_end(&o);
    size_t kinds[3] = {0, 0, 0};
    for (size_t i = 0; i < count; i++) kinds[f[i].kind]++;
    out_section(&o, "counts", "counts");
    out_u64(&o, "strength", "strengths", kinds[0]);
    out_u64(&o, "weakness", "weaknesses", kinds[1]);
    out_u64(&o, "info", "notes", kinds[2]);
    out_section_end(&o);
    out_list(&o, "findings");
    for (size_t i = 0; i < count; i++) {
        out_item(&o);
        out_str(&o, "rule", "rule", f[i].rule);
        out_str(&o, "topic", "topic", hwfit_assess_topic_name(f[i].topic));
        out_str(&o, "kind", "kind", hwfit_finding_kind_name(f[i].kind));
        if (f[i].workload > 0) out_str(&o, "workload", "workload", w[f[i].workload - 1].label);
        else out_null(&o, "workload", "workload");
        out_str(&o, "text", "text", f[i].text);
        out_list(&o, "figures");
        for (uint32_t g = 0; g < f[i].figure_count; g++) {
            out_item(&o);
            out_str(&o, "key", "key", f[i].figures[g].key);
            out_num(&o, "value", "value", f[i].figures[g].value);
            out_str(&o, "unit", "unit", f[i].figures[g].unit);
            out_item_end(&o);
        }
        out_list_end(&o);
        out_item_end(&o);
    }
    out_list_end(&o);
    out_end(&o);
}

/* The HTML report (report.h): the library writes the document, the CLI the file. */
static int write_html(const char *path, const hwfit_node *node, const hwfit_assess_workload *w,
                      size_t nw, const hwfit_assess_options *opt, const hwfit_finding *f,
                      size_t count) {
    hwfit_report_options ro;
    hwfit_report_options_init(&ro);
    ro.assess = *opt;
    size_t need = 0;
    hwfit_status st = hwfit_report_html(node, w, nw, f, count, &ro, NULL, 0, &need);
    char *html = st == HWFIT_EBUFSIZE ? malloc(need) : NULL;
    if (html != NULL) st = hwfit_report_html(node, w, nw, f, count, &ro, html, need, NULL);
    if (st != HWFIT_OK) {
        free(html);
        return cli_fail_status(CMD, "--html", st == HWFIT_EBUFSIZE ? HWFIT_ENOMEM : st);
    }
    int rc = cli_write_file(CMD, "html", path, html);
    free(html);
    return rc;
}

int cmd_assess(int argc, char **argv) {
    const char *node_path = NULL, *models_dir = "tests/data/models";
    cli_list workloads = {{0}, 0};
    int markdown = 0, pipeline_seen = 0, allreduce_seen = 0, keep_seen = 0;
    const char *html_path = NULL;
    hwfit_assess_options opt;
    hwfit_assess_options_init(&opt);
    double pipeline = opt.pipeline_bytes_per_s, allreduce = opt.allreduce_bytes;
    uint64_t keep = opt.checkpoints_to_keep;
    double tpot = opt.max_time_per_output_token_s, comm = opt.max_comm_share;
    const cli_opt opts[] = {
        {"node", CLI_STRING, &node_path, "FILE", "node file (docs/node-spec.md; required)", 0,
         NULL, NULL},
        {"workload", CLI_LIST, &workloads, "W",
         "target workload MODE:MODEL[:DTYPE[:CONTEXT[:BATCH]]], repeatable", 0, NULL, NULL},
        {"models-dir", CLI_STRING, &models_dir, "DIR",
         "directory of <MODEL>.config.json files (default tests/data/models)", 0, NULL, NULL},
        {"pipeline-rate", CLI_QUANTITY, &pipeline, "RATE",
         "read rate a training data pipeline needs (default 7GB/s)", HWFIT_UNIT_BYTES_PER_S, NULL,
         &pipeline_seen},
        {"allreduce-size", CLI_QUANTITY, &allreduce, "SIZE",
         "message size of the all-reduce figures (default 1GiB)", HWFIT_UNIT_BYTES, NULL,
         &allreduce_seen},
        {"checkpoints", CLI_U64, &keep, "N",
         "checkpoints the local drives must hold at once (default 2)", 0, NULL, &keep_seen},
        {"max-tpot", CLI_QUANTITY, &tpot, "TIME",
         "serving: slowest acceptable time per output token (default 50ms)", HWFIT_UNIT_SECONDS,
         NULL, NULL},
        {"max-comm-share", CLI_DOUBLE, &comm, "X",
         "training: largest share of a step for exposed communication (default 0.25)", 0, NULL,
         NULL},
        {"markdown", CLI_FLAG, &markdown, NULL, "print a Markdown report", 0, NULL, NULL},
        {"html", CLI_STRING, &html_path, "FILE",
         "also write a self-contained HTML report with charts", 0, NULL, NULL},
    };
    const cli_spec spec = {
        CMD, "Strengths and weaknesses of a server, with the figures behind them.",
        "--node FILE [--workload W ...] [--models-dir DIR] [--json | --markdown] [--html FILE]",
        "Workloads: serve:llama-3.1-70b:bf16:128K, qlora:llama-3.1-70b, full:llama-3.1-8b.\n"
        "MODE is serve, full, lora or qlora; MODEL a name in --models-dir or a config.json\n"
        "path; CONTEXT takes K = 1024 tokens.",
        opts, (int)(sizeof opts / sizeof opts[0]), 0, NULL};
    cli_args args;
    int rc = cli_parse(&spec, argc, argv, &args);
    if (rc != 0) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    if (node_path == NULL) return cli_fail(CMD, "--node is required, e.g. --node examples/specs/seed-server.json");
    if (markdown && args.json) return cli_fail(CMD, "--json and --markdown exclude each other");
    opt.pipeline_bytes_per_s = pipeline;
    opt.allreduce_bytes = allreduce;
    opt.checkpoints_to_keep = keep;
    opt.max_time_per_output_token_s = tpot;
    opt.max_comm_share = comm;
    if (!(tpot > 0.0)) return cli_fail(CMD, "--max-tpot must be above 0");
    if (!(comm >= 0.0 && comm <= 1.0)) return cli_fail(CMD, "--max-comm-share must be in [0, 1]");
    if (pipeline <= 0.0) return cli_fail(CMD, "--pipeline-rate must be above 0");
    if (allreduce < 1.0) return cli_fail(CMD, "--allreduce-size must be at least 1 B");
    if (keep < 1 || keep > 1000000u) return cli_fail(CMD, "--checkpoints must be 1 to 1000000");

    /* Compute everything first. */
    static hwfit_node node;
    static hwfit_node_eval e;
    static hwfit_model models[CLI_LIST_MAX];
    static hwfit_assess_workload w[CLI_LIST_MAX];
    hwfit_error err;
    hwfit_status st = hwfit_node_load(node_path, &node, &err);
    if (st != HWFIT_OK) return cli_fail_error(CMD, &err);
    size_t nw = (size_t)workloads.count;
    for (size_t i = 0; i < nw; i++) {
        st = hwfit_assess_workload_parse(workloads.items[i], models_dir, &w[i], &models[i], &err);
        if (st != HWFIT_OK) return cli_fail_error(CMD, &err);
    }
    for (size_t i = 0; i < nw; i++) {
        hwfit_memory_out m;
        if ((st = hwfit_memory_estimate(w[i].model, &w[i].memory, &m)) != HWFIT_OK) {
            hwfit_problem p;
            (void)hwfit_memory_validate(w[i].model, &w[i].memory, &p);
            return cli_fail(CMD, "--workload %s: %s %s (%s)", w[i].label, p.field,
                            p.rule[0] ? p.rule : hwfit_status_str(st), hwfit_status_name(st));
        }
    }
    if ((st = hwfit_node_evaluate(&node, &e)) != HWFIT_OK)
        return cli_fail_status(CMD, node_path, st);
    size_t cap = hwfit_assess_max_findings(nw), count = 0;
    hwfit_finding *f = calloc(cap, sizeof *f);
    if (f == NULL) return cli_fail(CMD, "out of memory");
    st = hwfit_assess(&node, w, nw, &opt, f, cap, &count);
    if (st != HWFIT_OK) {
        free(f);
        return cli_fail_status(CMD, "assessment", st);
    }
    if (html_path != NULL && (rc = write_html(html_path, &node, w, nw, &opt, f, count)) != 0) {
        free(f);
        return rc;
    }
    if (args.json) json(&node, &e, w, nw, f, count);
    else report(&node, &e, w, nw, f, count, markdown);
    free(f);
    return CLI_EXIT_OK;
}

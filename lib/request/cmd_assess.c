/* cmd_assess.c - `assess --node FILE [--workload W ...]`: a server's strengths and weaknesses
 * with the figures behind them, as JSON, text, Markdown or a self-contained HTML report. */
#include <stddef.h>
#include <string.h>

#include "hwfit/assess.h"
#include "hwfit/memory.h"
#include "hwfit/node.h"
#include "hwfit/node_spec.h"
#include "hwfit/report.h"
#include "node/assess_internal.h"
#include "request_internal.h"

enum { O_NODE, O_WORKLOAD, O_MODELS_DIR, O_PIPELINE, O_ALLREDUCE, O_CHECKPOINTS, O_TPOT, O_COMM };
static const hwfit_option options[] = {
    [O_NODE] = {.name = "node", .kind = HWFIT_OPTION_FILE, .metavar = "FILE",
                .flags = HWFIT_OPTION_REQUIRED, .example = "examples/specs/seed-server.json",
                .help = "node file (docs/node-spec.md)"},
    [O_WORKLOAD] = {.name = "workload", .kind = HWFIT_OPTION_LIST, .metavar = "W",
                    .example = "serve:llama-3.1-70b:bf16:128K",
                    .help = "target workload MODE:MODEL[:DTYPE[:CONTEXT[:BATCH]]], repeatable"},
    [O_MODELS_DIR] = {.name = "models-dir", .kind = HWFIT_OPTION_FILE, .metavar = "DIR",
                      .default_text = "tests/data/models",
                      .help = "directory of <MODEL>.config.json files"},
    [O_PIPELINE] = {.name = "pipeline-rate", .kind = HWFIT_OPTION_QUANTITY,
                    .unit = HWFIT_UNIT_BYTES_PER_S, .metavar = "RATE", .default_text = "7GB/s",
                    .min = 1.0, .max = 1e308,
                    .help = "read rate a training data pipeline needs"},
    [O_ALLREDUCE] = {.name = "allreduce-size", .kind = HWFIT_OPTION_QUANTITY,
                     .unit = HWFIT_UNIT_BYTES, .metavar = "SIZE", .default_text = "1GiB",
                     .min = 1.0, .max = 1e308,
                     .help = "message size of the all-reduce figures"},
    [O_CHECKPOINTS] = {.name = "checkpoints", .kind = HWFIT_OPTION_COUNT, .metavar = "N",
                       .default_text = "2", .min = 1.0, .max = 1000000.0,
                       .help = "checkpoints the local drives must hold at once"},
    [O_TPOT] = {.name = "max-tpot", .kind = HWFIT_OPTION_QUANTITY, .unit = HWFIT_UNIT_SECONDS,
                .metavar = "TIME", .default_text = "50ms", .min = 0.0, .max = 1e308,
                .help = "serving: slowest acceptable time per output token, above 0"},
    [O_COMM] = {.name = "max-comm-share", .kind = HWFIT_OPTION_RATIO, .metavar = "X",
                .default_text = "0.25", .min = 0.0, .max = 1.0,
                .help = "training: largest share of a step for exposed communication"},
};

/* hwfit_assess_max_findings(HWFIT_OPTION_LIST_MAX) for the library's rule counts; run()
 * checks the library's bound against it. */
#define MAX_FINDINGS (32u + 4u * HWFIT_OPTION_LIST_MAX)

/* The workspace: everything large lives here, never on the stack. */
struct assess_state {
    hwfit_node node;
    hwfit_node_eval eval;
    hwfit_model models[HWFIT_OPTION_LIST_MAX];
    hwfit_assess_workload w[HWFIT_OPTION_LIST_MAX];
    hwfit_memory_out memory;
    hwfit_problem problem;
    hwfit_error err;
    hwfit_report_options report;
    hwfit_finding f[MAX_FINDINGS];
    _Alignas(max_align_t) unsigned char assess_ws[HWFIT__ASSESS_WORKSPACE_BYTES];
};

static const char *mark(hwfit_finding_kind kind, int markdown) {
    switch (kind) {
    case HWFIT_FINDING_STRENGTH: return markdown ? "**+**" : "+";
    case HWFIT_FINDING_WEAKNESS: return markdown ? "**-**" : "-";
    case HWFIT_FINDING_INFO: break;
    }
    return markdown ? "*i*" : "i";
}

/* The text and Markdown reports, written as they read (not a table). */
static void report(hwfit__text *t, const struct assess_state *s, size_t nw, size_t count,
                   int markdown) {
    const hwfit_node *node = &s->node;
    const hwfit_node_eval *e = &s->eval;
    const hwfit_finding *f = s->f;
    size_t kinds[3] = {0, 0, 0};
    for (size_t i = 0; i < count; i++) kinds[f[i].kind]++;
    char vram[64];
    if (hwfit_units_format(e->total_vram_bytes, HWFIT_UNIT_BYTES, vram, sizeof vram) != HWFIT_OK)
        vram[0] = '\0';
    const char *name = node->name[0] ? node->name : "the node";
    if (markdown) {
        hwfit__text_printf(t, "# Assessment of %s\n\n", name);
        hwfit__text_printf(t,
                           "%llu node%s x %llu %s, %s of GPU memory. %zu strengths, "
                           "%zu weaknesses, %zu notes.\n",
                           (unsigned long long)node->nodes, node->nodes == 1 ? "" : "s",
                           (unsigned long long)e->gpus, e->gpu->edition, vram, kinds[0],
                           kinds[1], kinds[2]);
        if (nw > 0) {
            hwfit__text_puts(t, "\nWorkloads:\n\n");
            for (size_t i = 0; i < nw; i++) hwfit__text_printf(t, "%zu. `%s`\n", i + 1, s->w[i].label);
        }
    } else {
        hwfit__text_printf(t, "Assessment of %s: %llu node%s x %llu %s, %s of GPU memory\n", name,
                           (unsigned long long)node->nodes, node->nodes == 1 ? "" : "s",
                           (unsigned long long)e->gpus, e->gpu->name, vram);
        hwfit__text_printf(t, "%zu strengths (+), %zu weaknesses (-), %zu notes (i)\n", kinds[0],
                           kinds[1], kinds[2]);
        for (size_t i = 0; i < nw; i++)
            hwfit__text_printf(t, "workload %zu: %s\n", i + 1, s->w[i].label);
    }
    int topic = -1;
    for (size_t i = 0; i < count; i++) {
        if ((int)f[i].topic != topic) {
            topic = (int)f[i].topic;
            const char *title = hwfit_report_topic_title(f[i].topic);
            if (markdown) hwfit__text_printf(t, "\n## %s\n\n", title);
            else hwfit__text_printf(t, "\n%s\n", title);
        }
        if (markdown)
            hwfit__text_printf(t, "- %s %s (`%s`)\n", mark(f[i].kind, 1), f[i].text, f[i].rule);
        else hwfit__text_printf(t, "  %s %s [%s]\n", mark(f[i].kind, 0), f[i].text, f[i].rule);
    }
}

static void json(hwfit__out *o, const struct assess_state *s, size_t nw, size_t count) {
    const hwfit_finding *f = s->f;
    hwfit__out_str(o, "node", "node", s->node.name);
    hwfit__out_u64(o, "nodes", "nodes", s->node.nodes);
    hwfit__out_str(o, "gpu", "GPU", s->eval.gpu->name);
    hwfit__out_u64(o, "gpus", "GPUs", s->eval.total_gpus);
    hwfit__out_list(o, "workloads");
    for (size_t i = 0; i < nw; i++) {
        hwfit__out_item(o);
        hwfit__out_str(o, "label", "label", s->w[i].label);
        hwfit__out_u64(o, "index", "index", i + 1);
        hwfit__out_item_end(o);
    }
    hwfit__out_list_end(o);
    size_t kinds[3] = {0, 0, 0};
    for (size_t i = 0; i < count; i++) kinds[f[i].kind]++;
    hwfit__out_section(o, "counts", "counts");
    hwfit__out_u64(o, "strength", "strengths", kinds[0]);
    hwfit__out_u64(o, "weakness", "weaknesses", kinds[1]);
    hwfit__out_u64(o, "info", "notes", kinds[2]);
    hwfit__out_section_end(o);
    hwfit__out_list(o, "findings");
    for (size_t i = 0; i < count; i++) {
        hwfit__out_item(o);
        hwfit__out_str(o, "rule", "rule", f[i].rule);
        hwfit__out_str(o, "topic", "topic", hwfit_assess_topic_name(f[i].topic));
        hwfit__out_str(o, "kind", "kind", hwfit_finding_kind_name(f[i].kind));
        if (f[i].workload > 0 && f[i].workload <= nw)
            hwfit__out_str(o, "workload", "workload", s->w[f[i].workload - 1].label);
        else hwfit__out_null(o, "workload", "workload");
        hwfit__out_str(o, "text", "text", f[i].text);
        hwfit__out_list(o, "figures");
        for (uint32_t g = 0; g < f[i].figure_count && g < HWFIT_FINDING_MAX_FIGURES; g++) {
            hwfit__out_item(o);
            hwfit__out_str(o, "key", "key", f[i].figures[g].key);
            hwfit__out_num(o, "value", "value", f[i].figures[g].value);
            hwfit__out_str(o, "unit", "unit", f[i].figures[g].unit);
            hwfit__out_item_end(o);
        }
        hwfit__out_list_end(o);
        hwfit__out_item_end(o);
    }
    hwfit__out_list_end(o);
}

/* The HTML report (report.h), written straight into the result text. */
static hwfit_status html(hwfit_request *r, struct assess_state *s, size_t nw, size_t count,
                         const hwfit_assess_options *opt) {
    hwfit_report_options_init(&s->report);
    s->report.assess = *opt;
    size_t need = 0;
    hwfit_status st = hwfit_report_html(&s->node, s->w, nw, s->f, count, &s->report, NULL, 0,
                                        &need);
    if (st != HWFIT_EBUFSIZE && st != HWFIT_OK) return hwfit__req_fail_status(r, "report", st);
    if (need == 0) return hwfit__req_fail_status(r, "report", HWFIT_ERANGE);
    /* Make room for the document in the result (need - 1 bytes and the text's NUL), then
     * let the library write it there. */
    hwfit__text *t = hwfit__req_text_out(r);
    size_t start = t->len;
    static const char zeros[256] = {0};
    for (size_t left = need - 1; left > 0;) {
        size_t n = left < sizeof zeros ? left : sizeof zeros;
        hwfit__text_put(t, zeros, n);
        left -= n;
    }
    if (t->nomem || !hwfit__text_complete(t))
        return hwfit__req_fail(r, NULL, HWFIT_ENOMEM, "out of memory for the report");
    st = hwfit_report_html(&s->node, s->w, nw, s->f, count, &s->report, t->buf + start, need,
                           NULL);
    if (st != HWFIT_OK) return hwfit__req_fail_status(r, "report", st);
    t->len = start + need - 1;
    return HWFIT_OK;
}

static hwfit_status run(hwfit_request *r, hwfit__out *o, void *state) {
    struct assess_state *s = state;
    hwfit_assess_options opt;
    hwfit_assess_options_init(&opt);
    opt.pipeline_bytes_per_s = hwfit__req_double(r, &options[O_PIPELINE]);
    opt.allreduce_bytes = hwfit__req_double(r, &options[O_ALLREDUCE]);
    opt.checkpoints_to_keep = hwfit__req_u64(r, &options[O_CHECKPOINTS]);
    opt.max_time_per_output_token_s = hwfit__req_double(r, &options[O_TPOT]);
    opt.max_comm_share = hwfit__req_double(r, &options[O_COMM]);
    if (!(opt.max_time_per_output_token_s > 0.0))
        return hwfit__req_fail(r, &options[O_TPOT], HWFIT_EDOM, "must be above 0");

    const char *node_path = hwfit__req_text(r, &options[O_NODE]);
    const char *models_dir = hwfit__req_text(r, &options[O_MODELS_DIR]);
    /* Its GPU may be a card of a GPU file or one described in the node file. */
    hwfit_status st = hwfit_node_load_cards(node_path, hwfit__req_gpu_set(r), &s->node, &s->err);
    if (st != HWFIT_OK) return hwfit__req_fail_error(r, &options[O_NODE], &s->err);

    const char *const *items = NULL;
    size_t nw = hwfit__req_list(r, &options[O_WORKLOAD], &items);
    for (size_t i = 0; i < nw; i++) {
        st = hwfit_assess_workload_parse(items[i], models_dir, &s->w[i], &s->models[i], &s->err);
        if (st != HWFIT_OK) return hwfit__req_fail_error(r, &options[O_WORKLOAD], &s->err);
    }
    for (size_t i = 0; i < nw; i++) {
        st = hwfit_memory_estimate(s->w[i].model, &s->w[i].memory, &s->memory);
        if (st != HWFIT_OK) {
            (void)hwfit_memory_validate(s->w[i].model, &s->w[i].memory, &s->problem);
            const char *field = s->problem.field ? s->problem.field : "";
            const char *rule = s->problem.rule && s->problem.rule[0] ? s->problem.rule
                                                                     : hwfit_status_str(st);
            return hwfit__req_fail(r, &options[O_WORKLOAD], st, "%s: %s%s%s", s->w[i].label,
                                   field, field[0] ? " " : "", rule);
        }
    }
    st = hwfit_node_evaluate(&s->node, &s->eval);
    if (st != HWFIT_OK) return hwfit__req_fail_status(r, node_path, st);
    size_t cap = hwfit_assess_max_findings(nw), count = 0;
    if (cap > MAX_FINDINGS) return hwfit__req_fail_status(r, "assessment", HWFIT_ERANGE);
    st = hwfit_assess_ws(&s->node, s->w, nw, &opt, s->f, cap, &count, s->assess_ws,
                         sizeof s->assess_ws);
    if (st != HWFIT_OK) return hwfit__req_fail_status(r, "assessment", st);

    switch (hwfit__req_format(r)) {
    case HWFIT_FORMAT_HTML: return html(r, s, nw, count, &opt);
    case HWFIT_FORMAT_MARKDOWN: report(hwfit__req_text_out(r), s, nw, count, 1); break;
    case HWFIT_FORMAT_TEXT: report(hwfit__req_text_out(r), s, nw, count, 0); break;
    default: json(o, s, nw, count); break;
    }
    return HWFIT_OK;
}

const hwfit__command hwfit__cmd_assess = {
    .pub = {.name = "assess",
            .summary = "Strengths and weaknesses of a server, with the figures behind them.",
            .details = "Workloads: serve:llama-3.1-70b:bf16:128K, qlora:llama-3.1-70b, "
                       "full:llama-3.1-8b. MODE is serve, full, lora or qlora; MODEL a name "
                       "in models-dir or a config.json path; CONTEXT takes K = 1024 tokens.",
            .formats = 1u << HWFIT_FORMAT_JSON | 1u << HWFIT_FORMAT_TEXT |
                       1u << HWFIT_FORMAT_MARKDOWN | 1u << HWFIT_FORMAT_HTML},
    .sets = {HWFIT__SET(options), HWFIT__GPU_FILE_OPTIONS},
    .state_size = sizeof(struct assess_state),
    .run = run,
};

/* report.c - a node's assessment as one self-contained HTML document (include/hwfit/report.h).
 *
 * The document is written twice by the same code, as the charts are (lib/svg.c): once into
 * nothing to count its bytes, once into the caller's buffer when it is large enough. Charts
 * are written straight into the buffer by chart.c, their XML prolog removed (an HTML
 * document takes inline <svg> elements, not XML documents). Text from the node, the
 * workloads and the findings is escaped by hwfit_svg_escape, which also keeps the document
 * valid UTF-8. The result is also well-formed XML, which the tests check.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit/assess.h"
#include "hwfit/chart.h"
#include "hwfit/collective.h"
#include "hwfit/gpu.h"
#include "hwfit/memory.h"
#include "hwfit/model.h"
#include "hwfit/node.h"
#include "hwfit/power.h"
#include "hwfit/report.h"
#include "hwfit/shard.h"
#include "hwfit/status.h"
#include "hwfit/storage.h"
#include "hwfit/svg.h"
#include "hwfit/topology.h"
#include "hwfit/units.h"
#include "hwfit/version.h"

#include "base/internal.h"
#include "base/text.h"
#include "pictures/draw.h"

static const char xml_prolog[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";

/* ---- topics -------------------------------------------------------------------------- */

static const char *const topic_titles[HWFIT_ASSESS_TOPIC_COUNT_] = {
    "VRAM and what fits",
    "GPU memory bandwidth and decode",
    "Tensor throughput",
    "GPU interconnect, P2P and collectives",
    "PCIe bifurcation",
    "CPU",
    "Host RAM",
    "Host memory bandwidth and DIMMs",
    "PCIe lane budget",
    "Local storage throughput and checkpoints",
    "RAID capacity and risk",
    "Network storage",
    "Network",
    "Power supplies",
    "Cooling",
    "Energy and cost"};

const char *hwfit_report_topic_title(hwfit_assess_topic topic) {
    return (unsigned)topic < (unsigned)HWFIT_ASSESS_TOPIC_COUNT_ ? topic_titles[topic] : "Other";
}

void hwfit_report_options_init(hwfit_report_options *opt) {
    if (opt == NULL) return;
    memset(opt, 0, sizeof *opt);
    opt->title = NULL;
    hwfit_assess_options_init(&opt->assess);
    opt->charts = 1;
    opt->chart_width_px = 800.0;
    opt->chart_height_px = 440.0;
}

/* ---- the writer ------------------------------------------------------------------------
 * base/text.h: a first pass counts (no buffer), the second writes into the caller's buffer,
 * which the count said is large enough. */

static void put(hwfit__text *w, const char *s, size_t n) { hwfit__text_put(w, s, n); }

static void put_str(hwfit__text *w, const char *s) { hwfit__text_puts(w, s); }

/* printf for numbers and trusted strings (never for text from the caller: see put_text);
 * at most 511 bytes. */
static void putf(hwfit__text *w, const char *fmt, ...) HWFIT__PRINTF(2, 3);
static void putf(hwfit__text *w, const char *fmt, ...) {
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    put(w, text, (size_t)n < sizeof text ? (size_t)n : sizeof text - 1);
}

/* Text escaped for HTML and XML (& < > " ' as entities, control characters dropped,
 * invalid UTF-8 replaced), as svg.h escapes chart labels (draw.h). */
static void put_text(hwfit__text *w, const char *s) {
    if (s == NULL) {
        hwfit__text_give_up(w); /* the report fails with HWFIT_ERANGE */
        return;
    }
    hwfit__draw_text(w, s);
}

/* A fixed-size text field of a caller's struct, which need not be NUL-terminated. */
static void put_field(hwfit__text *w, const char *field, size_t size) {
    char copy[HWFIT_FINDING_TEXT_SIZE + 1];
    size_t n = 0, max = size < sizeof copy - 1 ? size : sizeof copy - 1;
    while (n < max && field[n] != '\0') n++;
    memcpy(copy, field, n);
    copy[n] = '\0';
    put_text(w, copy);
}

/* A number with up to `decimals` decimals, trailing zeros removed, whatever the locale. */
static void put_number(hwfit__text *w, double v, int decimals) {
    char text[HWFIT__SVG_LABEL_SIZE];
    put(w, text, hwfit__svg_format_fixed(v, decimals, 1, text));
}

static void put_quantity(hwfit__text *w, double v, hwfit_unit unit) {
    char text[64];
    if (hwfit_units_format(v, unit, text, sizeof text) == HWFIT_OK) put_str(w, text);
}

/* A chart, by a function of the chart.h kind, inline without its XML prolog. */
typedef hwfit_status (*chart_fn)(const void *ctx, char *buf, size_t size, size_t *needed);

static hwfit_status put_chart(hwfit__text *w, chart_fn fn, const void *ctx) {
    size_t need = 0;
    hwfit_status st = fn(ctx, NULL, 0, &need);
    if (st != HWFIT_EBUFSIZE) return st == HWFIT_OK ? HWFIT_ERANGE : st;
    const size_t prolog = sizeof xml_prolog - 1;
    if (w->buf == NULL) {
        hwfit__text_advance(w, need - 1 - prolog); /* every chart starts with the prolog */
        return HWFIT_OK;
    }
    char *at = hwfit__text_room(w, need - 1);
    if (at == NULL) {
        hwfit__text_give_up(w); /* never: the count pass made room */
        return HWFIT_OK;
    }
    if ((st = fn(ctx, at, need, NULL)) != HWFIT_OK) return st;
    if (strncmp(at, xml_prolog, prolog) == 0) memmove(at, at + prolog, need - prolog);
    hwfit__text_advance(w, strlen(at));
    return HWFIT_OK;
}

/* ---- the charts' inputs ------------------------------------------------------------------ */

typedef struct memory_chart {
    const hwfit_model *model;
    hwfit_shard_in in;
    hwfit_chart_options opt;
} memory_chart;

static hwfit_status memory_fn(const void *ctx, char *buf, size_t size, size_t *needed) {
    const memory_chart *m = ctx;
    return hwfit_chart_memory(m->model, &m->in, &m->opt, buf, size, needed);
}

static hwfit_status collective_fn(const void *ctx, char *buf, size_t size, size_t *needed) {
    return hwfit_chart_collective(ctx, buf, size, needed);
}

typedef struct power_chart {
    const hwfit_power_budget_in *budget;
    const hwfit_psu_in *psu;
    hwfit_chart_options opt;
} power_chart;

static hwfit_status power_fn(const void *ctx, char *buf, size_t size, size_t *needed) {
    const power_chart *p = ctx;
    return hwfit_chart_power(p->budget, p->psu, &p->opt, buf, size, needed);
}

typedef struct raid_chart {
    const hwfit_raid_in *raid;
    hwfit_chart_options opt;
} raid_chart;

static hwfit_status raid_fn(const void *ctx, char *buf, size_t size, size_t *needed) {
    const raid_chart *r = ctx;
    return hwfit_chart_raid(r->raid, &r->opt, buf, size, needed);
}

/* Everything the two passes share, computed once. */
typedef struct report {
    const hwfit_node *node;
    hwfit_model model; /* the first workload's model, named after the workload */
    const hwfit_assess_workload *w;
    size_t nw;
    const hwfit_finding *f;
    size_t nf;
    hwfit_report_options opt;
    hwfit_node_eval e;
    int has_memory, has_collective, has_raid;
    int memory_fits; /* the memory chart's layout fits (else: the one that misses least) */
    memory_chart memory;
    hwfit_collective_in lines[2];
    const char *line_names[2];
    char name[HWFIT_NODE_TEXT_SIZE];
    char name_p2p[HWFIT_NODE_TEXT_SIZE + 32];
    hwfit_chart_collective_in collective;
    power_chart power;
    raid_chart raid;
    char raid_title[160];
} report;

/* The layout of the first workload's VRAM finding: hwfit_assess's search (lib/assess.c,
 * gather) with the same inputs, the layout with the most headroom first; with
 * include_unfit, the one that misses least when none fits. */
static hwfit_status plan_memory_chart(report *r) {
    const hwfit_assess_workload *w = &r->w[0];
    const hwfit_node_eval *e = &r->e;
    int serve = w->memory.mode == HWFIT_MEMORY_INFERENCE;
    uint64_t job = serve ? e->gpus : e->total_gpus;
    hwfit_shard_in in;
    hwfit_shard_init(&in);
    in.memory = w->memory;
    in.gpus = (uint32_t)(job < HWFIT_SHARD_MAX_GPUS ? job : HWFIT_SHARD_MAX_GPUS);
    in.capacity_bytes = (double)e->gpu->memory_bytes;
    in.utilization = r->opt.assess.gpu_utilization;
    in.host_memory_bytes = e->ram_bytes * (double)r->node->nodes;
    hwfit_shard_space space;
    hwfit_shard_space_init(&space);
    space.micro_batch = serve ? 1u : w->memory.micro_batch;
    if (!serve) space.global_batch = (uint64_t)in.gpus * w->memory.micro_batch;
    space.include_unfit = 1;
    hwfit_shard_result best;
    hwfit_shard_search_out sum;
    hwfit_status st = hwfit_shard_search(w->model, &in, &space, &best, 1, &sum);
    if (st != HWFIT_OK) return st;
    if (sum.count == 0) return HWFIT_OK; /* no valid layout: no chart */
    in.layout = best.layout;
    /* The chart's title names the model: name it after the workload, as the findings do. */
    r->model = *w->model;
    if (w->label[0] != '\0')
        snprintf(r->model.name, sizeof r->model.name, "%.*s", HWFIT_WORKLOAD_LABEL_SIZE - 1,
                 w->label);
    r->memory.model = &r->model;
    r->memory.in = in;
    r->memory_fits = best.fits;
    r->has_memory = 1;
    return HWFIT_OK;
}

static void plan_collective_chart(report *r) {
    const hwfit_node_eval *e = &r->e;
    hwfit_chart_collective_in *c = &r->collective;
    hwfit_chart_collective_init(c);
    r->lines[0] = e->allreduce_in;
    snprintf(r->name, sizeof r->name, "%.*s", HWFIT_NODE_TEXT_SIZE - 1,
             r->node->name[0] != '\0' ? r->node->name : "this node");
    r->line_names[0] = r->name;
    c->series_count = 1;
    /* NCCL's default stages PCIe traffic through host memory here, and the card allows
     * P2P: draw also what forcing P2P (NCCL_P2P_LEVEL=SYS) gives, as assess reports it. */
    if (!e->allreduce.p2p && e->topology.gpu_p2p_capable &&
        e->topology.peer_link == HWFIT_GPU_PEER_NONE && e->topology.p2p == HWFIT_TOPOLOGY_AUTO) {
        r->lines[1] = e->allreduce_in;
        r->lines[1].topology.p2p = HWFIT_TOPOLOGY_ON;
        snprintf(r->name_p2p, sizeof r->name_p2p, "%s with P2P forced on", r->line_names[0]);
        r->line_names[1] = r->name_p2p;
        c->series_count = 2;
    }
    c->series = r->lines;
    c->names = r->line_names;
    double top = r->opt.assess.allreduce_bytes;
    c->min_bytes = top < 8.0 ? top : 8.0;
    c->max_bytes = top;
    c->options.width_px = r->opt.chart_width_px;
    c->options.height_px = r->opt.chart_height_px;
    r->has_collective = 1;
}

/* ---- the document ------------------------------------------------------------------------- */

static const char style[] =
    "body{margin:0;background:#eef0f3;color:#1f2328;font:15px/1.55 -apple-system,'Segoe UI',"
    "Helvetica,Arial,'Liberation Sans',sans-serif}"
    "main{max-width:1000px;margin:24px auto;padding:28px 40px 36px;background:#fff;"
    "border-radius:8px;box-shadow:0 1px 4px rgba(0,0,0,.08)}"
    "h1{font-size:28px;margin:0 0 6px}"
    "h2{font-size:20px;margin:34px 0 10px;padding-bottom:4px;border-bottom:2px solid #e4e7eb}"
    ".lead{color:#444;margin:0 0 14px}"
    ".counts{display:flex;gap:10px;flex-wrap:wrap;margin:12px 0 4px}"
    ".count{padding:6px 14px;border-radius:6px;font-weight:600}"
    ".count b{font-size:20px;margin-right:6px}"
    ".count.strength{background:#e2f3ec;color:#005c41}"
    ".count.weakness{background:#fbe8df;color:#8c2f00}"
    ".count.info{background:#e3eef7;color:#004a75}"
    "table.spec{border-collapse:collapse;width:100%;font-size:14px}"
    "table.spec th,table.spec td{padding:5px 10px;border-bottom:1px solid #eceff2;"
    "text-align:left;vertical-align:top}"
    "table.spec th{width:190px;color:#555;font-weight:600}"
    "ol.workloads code,.rule,.workload{font-family:ui-monospace,'DejaVu Sans Mono',Menlo,"
    "Consolas,monospace}"
    "ul.findings{list-style:none;margin:0;padding:0}"
    "li.finding{margin:10px 0;padding:8px 12px;border-left:4px solid #999;background:#f8f9fa;"
    "border-radius:0 6px 6px 0}"
    "li.strength{border-color:#009E73}li.weakness{border-color:#D55E00}"
    "li.info{border-color:#0072B2}"
    ".badge{display:inline-block;min-width:72px;text-align:center;font-size:12px;"
    "font-weight:700;padding:1px 8px;margin-right:8px;border-radius:10px;color:#fff}"
    ".badge.strength{background:#007a56}.badge.weakness{background:#b83d00}"
    ".badge.info{background:#0067a3}"
    ".meta{margin-top:4px;font-size:12.5px;color:#555}"
    ".rule{color:#6a737d;margin-right:10px}"
    ".workload{background:#eef1f4;border-radius:4px;padding:0 5px;margin-right:10px}"
    ".figures{margin-top:3px;font-size:12.5px;color:#444}"
    ".figures span{display:inline-block;margin-right:16px}"
    ".figures code{color:#6a737d;margin-right:4px}"
    "figure{margin:18px 0 8px;text-align:center}"
    "figure svg{max-width:100%;height:auto;border:1px solid #e4e7eb;border-radius:4px}"
    "figcaption{font-size:13px;color:#555;margin-top:4px}"
    "footer{margin-top:36px;padding-top:10px;border-top:1px solid #e4e7eb;font-size:12.5px;"
    "color:#666}"
    "@media print{body{background:#fff}main{box-shadow:none;margin:0}}";

static const char *kind_class(hwfit_finding_kind k) {
    return k == HWFIT_FINDING_STRENGTH ? "strength" : k == HWFIT_FINDING_WEAKNESS ? "weakness"
                                                                                : "info";
}

static const char *kind_word(hwfit_finding_kind k) {
    return k == HWFIT_FINDING_STRENGTH ? "strength" : k == HWFIT_FINDING_WEAKNESS ? "weakness"
                                                                                : "note";
}

static void spec_row_begin(hwfit__text *w, const char *label) {
    putf(w, "<tr><th>%s</th><td>", label);
}

static void spec_row_end(hwfit__text *w) { put_str(w, "</td></tr>\n"); }

static void specification(hwfit__text *w, const report *r) {
    const hwfit_node *n = r->node;
    const hwfit_node_eval *e = &r->e;
    put_str(w, "<h2 id=\"specification\">Specification</h2>\n<table class=\"spec\">\n");
    spec_row_begin(w, "Nodes");
    putf(w, "%llu", (unsigned long long)n->nodes);
    if (n->nodes > 1) put_str(w, " identical nodes, joined by their network");
    spec_row_end(w);
    spec_row_begin(w, "GPUs");
    putf(w, "%llu x ", (unsigned long long)e->gpus);
    put_text(w, e->gpu->edition);
    put_str(w, " (<code>");
    put_text(w, e->gpu->name);
    put_str(w, "</code>), ");
    put_quantity(w, (double)e->gpu->memory_bytes, HWFIT_UNIT_BYTES);
    put_str(w, " and ");
    put_quantity(w, e->gpu_power_w, HWFIT_UNIT_WATTS);
    put_str(w, " each; host link ");
    put_text(w, e->gpu_link.name);
    spec_row_end(w);
    spec_row_begin(w, "GPU memory");
    put_quantity(w, e->vram_bytes, HWFIT_UNIT_BYTES);
    put_str(w, " per node");
    if (n->nodes > 1) {
        put_str(w, ", ");
        put_quantity(w, e->total_vram_bytes, HWFIT_UNIT_BYTES);
        put_str(w, " in all");
    }
    spec_row_end(w);
    spec_row_begin(w, "CPUs");
    putf(w, "%llu x ", (unsigned long long)n->host.sockets);
    put_field(w, n->cpu.model[0] ? n->cpu.model : "CPU", sizeof n->cpu.model);
    putf(w, ", %llu cores / %llu threads in all, ", (unsigned long long)e->cores,
         (unsigned long long)e->threads);
    put_quantity(w, n->cpu.tdp_w, HWFIT_UNIT_WATTS);
    put_str(w, " TDP each");
    if (n->cpu.boost_clock_hz > 0.0) {
        put_str(w, ", boost ");
        put_number(w, n->cpu.boost_clock_hz / 1e9, 2);
        put_str(w, " GHz");
    }
    spec_row_end(w);
    spec_row_begin(w, "Host memory");
    putf(w, "%llu x ", (unsigned long long)n->host.dimms);
    put_quantity(w, n->memory.dimm_bytes, HWFIT_UNIT_BYTES);
    put_str(w, " at ");
    put_number(w, n->host.speed_mts, 0);
    putf(w, " MT/s%s%s = ", n->memory.ecc ? ", ECC" : "", n->memory.registered ? ", registered" : "");
    put_quantity(w, e->ram_bytes, HWFIT_UNIT_BYTES);
    putf(w, "; %llu channels per socket", (unsigned long long)n->host.channels_per_socket);
    spec_row_end(w);
    spec_row_begin(w, "Local drives");
    if (e->storage_evaluated) {
        putf(w, "%llu x ", (unsigned long long)n->storage.raid.drives);
        put_quantity(w, n->storage.raid.drive_bytes, HWFIT_UNIT_BYTES);
        if (n->storage.raid_stated) {
            put_str(w, ", ");
            put_str(w, hwfit_raid_level_name(n->storage.raid.layout.level));
        } else {
            put_str(w, ", no RAID level stated (taken as separate drives)");
        }
        put_str(w, ": ");
        put_quantity(w, e->raid.usable_bytes, HWFIT_UNIT_BYTES);
        put_str(w, " usable");
    } else {
        put_str(w, "none");
    }
    spec_row_end(w);
    spec_row_begin(w, "Network");
    if (e->network_evaluated) {
        put_text(w, e->network.name);
        put_str(w, ", ");
        put_quantity(w, e->network.line_bytes_per_s * 8.0, HWFIT_UNIT_BITS_PER_S);
        put_str(w, " in all");
    } else {
        put_str(w, "none");
    }
    spec_row_end(w);
    spec_row_begin(w, "Network storage");
    if (n->nas.capacity_bytes > 0.0) {
        put_quantity(w, n->nas.capacity_bytes, HWFIT_UNIT_BYTES);
        put_str(w, " over ");
        put_str(w, hwfit_storage_transport_name(n->nas.transfer.transport));
    } else {
        put_str(w, "none");
    }
    spec_row_end(w);
    spec_row_begin(w, "Power supplies");
    putf(w, "%llu x ", (unsigned long long)e->psu.psus);
    put_quantity(w, e->psu.rating_w, HWFIT_UNIT_WATTS);
    putf(w, ", %llu redundant (N+%llu), 80 PLUS %s, ", (unsigned long long)e->psu_in.redundant,
         (unsigned long long)e->psu_in.redundant, hwfit_psu_class_name(e->psu_in.psu_class));
    put_number(w, e->psu_in.input_voltage_v, 0);
    put_str(w, " V; budget ");
    put_quantity(w, e->budget.dc_w, HWFIT_UNIT_WATTS);
    put_str(w, " DC, ");
    put_quantity(w, e->psu.wall_w, HWFIT_UNIT_WATTS);
    put_str(w, " from the wall");
    spec_row_end(w);
    spec_row_begin(w, "Chassis");
    if (n->chassis.rack_units > 0) putf(w, "%lluU, ", (unsigned long long)n->chassis.rack_units);
    put_str(w, hwfit_node_cooling_name(n->chassis.cooling));
    put_str(w, "-cooled");
    spec_row_end(w);
    spec_row_begin(w, "Energy");
    put_number(w, e->energy_in.price_per_kwh, 4);
    put_str(w, " ");
    put_field(w, n->costs.currency, sizeof n->costs.currency);
    put_str(w, " per kWh, PUE ");
    put_number(w, e->energy_in.pue, 3);
    put_str(w, ", duty cycle ");
    put_number(w, e->energy_in.duty_cycle, 3);
    spec_row_end(w);
    put_str(w, "</table>\n");
}

static void finding_item(hwfit__text *w, const report *r, const hwfit_finding *f) {
    putf(w, "<li class=\"finding %s\"><span class=\"badge %s\">%s</span>", kind_class(f->kind),
         kind_class(f->kind), kind_word(f->kind));
    put_field(w, f->text, sizeof f->text);
    put_str(w, "\n<div class=\"meta\"><span class=\"rule\">");
    put_field(w, f->rule, sizeof f->rule);
    put_str(w, "</span>");
    if (f->workload > 0) {
        put_str(w, "<span class=\"workload\">");
        put_field(w, r->w[f->workload - 1].label, sizeof r->w[f->workload - 1].label);
        put_str(w, "</span>");
    }
    put_str(w, "</div>");
    if (f->figure_count > 0) {
        put_str(w, "<div class=\"figures\">");
        for (uint32_t g = 0; g < f->figure_count; g++) {
            hwfit_figure fig = f->figures[g];
            fig.key[HWFIT_FIGURE_KEY_SIZE - 1] = '\0';
            fig.unit[HWFIT_FIGURE_UNIT_SIZE - 1] = '\0';
            char value[96];
            if (hwfit_figure_format(&fig, value, sizeof value) != HWFIT_OK)
                hwfit__svg_format_fixed(fig.value, 6, 1, value);
            put_str(w, "<span><code>");
            put_text(w, fig.key);
            put_str(w, "</code>");
            put_text(w, value);
            put_str(w, "</span>");
        }
        put_str(w, "</div>");
    }
    put_str(w, "</li>\n");
}

static hwfit_status figure_block(hwfit__text *w, chart_fn fn, const void *ctx,
                                 const char *caption) {
    put_str(w, "<figure>\n");
    hwfit_status st = put_chart(w, fn, ctx);
    if (st != HWFIT_OK) return st;
    put_str(w, "<figcaption>");
    put_text(w, caption);
    put_str(w, "</figcaption>\n</figure>\n");
    return HWFIT_OK;
}

static hwfit_status topic_charts(hwfit__text *w, const report *r, int topic) {
    char caption[400];
    if (!r->opt.charts) return HWFIT_OK;
    if (topic == HWFIT_ASSESS_VRAM && r->has_memory) {
        snprintf(caption, sizeof caption,
                 "Memory of each card for %.*s %s: weights, KV cache, activations and the "
                 "rest, against the usable memory per card.",
                 HWFIT_WORKLOAD_LABEL_SIZE - 1,
                 r->w[0].label[0] ? r->w[0].label : "the first workload",
                 r->memory_fits ? "on the layout of its VRAM finding"
                                : "on the layout that misses least (none fits)");
        return figure_block(w, memory_fn, &r->memory, caption);
    }
    if (topic == HWFIT_ASSESS_INTERCONNECT && r->has_collective) {
        snprintf(caption, sizeof caption,
                 "All-reduce over all %llu GPUs by message size on %s interconnect, as "
                 "nccl-tests would sweep it (bus bandwidth, log axes)%s.",
                 (unsigned long long)r->e.total_gpus,
                 r->node->nodes > 1 ? "the cluster's" : "this node's",
                 r->collective.series_count > 1
                     ? ", with what forcing P2P (NCCL_P2P_LEVEL=SYS) would give"
                     : "");
        return figure_block(w, collective_fn, &r->collective, caption);
    }
    if (topic == HWFIT_ASSESS_RAID && r->has_raid)
        return figure_block(w, raid_fn, &r->raid,
                            "Raw capacity of the local drives split into usable space, "
                            "redundancy and spares.");
    if (topic == HWFIT_ASSESS_POWER)
        return figure_block(w, power_fn, &r->power,
                            "DC draw of each kind of component and their total against the "
                            "usable PSU capacity (the supplies left after the redundant ones "
                            "fail), the headroom limit of the rule and the wall power.");
    return HWFIT_OK;
}

static int topic_has_chart(const report *r, int topic) {
    if (!r->opt.charts) return 0;
    return (topic == HWFIT_ASSESS_VRAM && r->has_memory) ||
           (topic == HWFIT_ASSESS_INTERCONNECT && r->has_collective) ||
           (topic == HWFIT_ASSESS_RAID && r->has_raid) || topic == HWFIT_ASSESS_POWER;
}

static hwfit_status render(const report *r, hwfit__text *w) {
    const hwfit_node *n = r->node;
    const hwfit_node_eval *e = &r->e;
    char title[HWFIT_NODE_TEXT_SIZE + 32];
    snprintf(title, sizeof title, "Assessment of %.*s", HWFIT_NODE_TEXT_SIZE - 1,
             n->name[0] ? n->name : "the node");
    const char *shown = r->opt.title != NULL ? r->opt.title : title;
    size_t kinds[3] = {0, 0, 0};
    for (size_t i = 0; i < r->nf; i++) kinds[r->f[i].kind]++;

    put_str(w, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
               "<meta name=\"generator\" content=\"hwfit ");
    put_str(w, hwfit_version_string());
    put_str(w, "\"/>\n<title>");
    put_text(w, shown);
    put_str(w, "</title>\n<style>");
    put_str(w, style);
    put_str(w, "</style>\n</head>\n<body>\n<main>\n<h1>");
    put_text(w, shown);
    put_str(w, "</h1>\n<p class=\"lead\">");
    putf(w, "%llu node%s x %llu ", (unsigned long long)n->nodes, n->nodes == 1 ? "" : "s",
         (unsigned long long)e->gpus);
    put_text(w, e->gpu->edition);
    put_str(w, ", ");
    put_quantity(w, e->total_vram_bytes, HWFIT_UNIT_BYTES);
    put_str(w, " of GPU memory.</p>\n<div class=\"counts\">");
    putf(w, "<span class=\"count strength\"><b>%zu</b>strength%s</span>", kinds[0],
         kinds[0] == 1 ? "" : "s");
    putf(w, "<span class=\"count weakness\"><b>%zu</b>weakness%s</span>", kinds[1],
         kinds[1] == 1 ? "" : "es");
    putf(w, "<span class=\"count info\"><b>%zu</b>note%s</span>", kinds[2],
         kinds[2] == 1 ? "" : "s");
    put_str(w, "</div>\n");
    specification(w, r);
    if (r->nw > 0) {
        put_str(w, "<h2 id=\"workloads\">Workloads</h2>\n<ol class=\"workloads\">\n");
        for (size_t i = 0; i < r->nw; i++) {
            put_str(w, "<li><code>");
            put_field(w, r->w[i].label, sizeof r->w[i].label);
            put_str(w, "</code></li>\n");
        }
        put_str(w, "</ol>\n");
    }
    for (int t = 0; t < HWFIT_ASSESS_TOPIC_COUNT_; t++) {
        size_t here = 0;
        for (size_t i = 0; i < r->nf; i++) here += (int)r->f[i].topic == t;
        if (here == 0 && !topic_has_chart(r, t)) continue;
        putf(w, "<section>\n<h2 id=\"%s\">%s</h2>\n", hwfit_assess_topic_name((hwfit_assess_topic)t),
             topic_titles[t]);
        if (here > 0) {
            put_str(w, "<ul class=\"findings\">\n");
            for (size_t i = 0; i < r->nf; i++)
                if ((int)r->f[i].topic == t) finding_item(w, r, &r->f[i]);
            put_str(w, "</ul>\n");
        }
        hwfit_status st = topic_charts(w, r, t);
        if (st != HWFIT_OK) return st;
        put_str(w, "</section>\n");
    }
    put_str(w, "<footer>Written by hwfit ");
    put_str(w, hwfit_version_string());
    put_str(w, ". Every figure and chart is computed by the hwfit library from the node "
               "description and the workloads; the formulas and their sources are in "
               "docs/formulas.md. Rules of thumb (headroom ratio, cores per GPU, RAM to VRAM, "
               "cooling thresholds) are inputs of the node file.</footer>\n</main>\n</body>\n"
               "</html>\n");
    return hwfit__text_overflow(w) ? HWFIT_ERANGE : HWFIT_OK;
}

/* ---- entry point -------------------------------------------------------------------------- */

static hwfit_status check_inputs(const hwfit_node *node, const hwfit_assess_workload *workloads,
                                 size_t nw, const hwfit_finding *findings, size_t nf,
                                 const hwfit_report_options *opt) {
    if (node == NULL || (workloads == NULL && nw > 0) || (findings == NULL && nf > 0))
        return HWFIT_EINVAL;
    if (nw > HWFIT_ASSESS_MAX_WORKLOADS) return HWFIT_EDOM;
    for (size_t i = 0; i < nw; i++)
        if (workloads[i].model == NULL) return HWFIT_EINVAL;
    for (size_t i = 0; i < nf; i++) {
        const hwfit_finding *f = &findings[i];
        if ((unsigned)f->topic >= (unsigned)HWFIT_ASSESS_TOPIC_COUNT_ ||
            (unsigned)f->kind > (unsigned)HWFIT_FINDING_INFO)
            return HWFIT_EINVAL;
        if (f->workload > nw || f->figure_count > HWFIT_FINDING_MAX_FIGURES) return HWFIT_EDOM;
    }
    const hwfit_assess_options *a = &opt->assess;
    if (!hwfit__in_range(a->gpu_utilization, 1e-9, 1.0) ||
        !hwfit__in_range(a->allreduce_bytes, 1.0, 1e18))
        return HWFIT_EDOM;
    if (opt->charts &&
        (!hwfit__in_range(opt->chart_width_px, HWFIT_SVG_SIZE_MIN_PX, HWFIT_SVG_SIZE_MAX_PX) ||
         !hwfit__in_range(opt->chart_height_px, HWFIT_SVG_SIZE_MIN_PX, HWFIT_SVG_SIZE_MAX_PX)))
        return HWFIT_EDOM;
    return HWFIT_OK;
}

/* hwfit_report_html after the checks, in r (zeroed). */
static hwfit_status write_report(report *r, const hwfit_node *node,
                                 const hwfit_assess_workload *workloads, size_t workload_count,
                                 const hwfit_finding *findings, size_t finding_count,
                                 const hwfit_report_options *opt, char *buf, size_t size,
                                 size_t *needed) {
    const hwfit_report_options o = *opt;
    hwfit_status st;
    r->node = node;
    r->w = workloads;
    r->nw = workload_count;
    r->f = findings;
    r->nf = finding_count;
    r->opt = o;
    if ((st = hwfit_node_evaluate(node, &r->e)) != HWFIT_OK) return st;
    hwfit_chart_options chart;
    hwfit_chart_options_init(&chart);
    chart.width_px = o.chart_width_px;
    chart.height_px = o.chart_height_px;
    if (o.charts) {
        if (workload_count > 0) {
            hwfit_memory_out m; /* the workload must be one memory.h can estimate */
            if ((st = hwfit_memory_estimate(workloads[0].model, &workloads[0].memory, &m)) !=
                HWFIT_OK)
                return st;
            if ((st = plan_memory_chart(r)) != HWFIT_OK) return st;
            r->memory.opt = chart;
        }
        if (r->e.allreduce_evaluated) plan_collective_chart(r);
        r->power.budget = &r->e.budget_in;
        r->power.psu = &r->e.psu_in;
        r->power.opt = chart;
        if (r->e.storage_evaluated) {
            r->raid.raid = &node->storage.raid;
            r->raid.opt = chart;
            if (!node->storage.raid_stated) {
                char size_text[64];
                (void)hwfit_units_format(node->storage.raid.drive_bytes, HWFIT_UNIT_BYTES,
                                         size_text, sizeof size_text);
                snprintf(r->raid_title, sizeof r->raid_title,
                         "%llu x %s, no RAID level stated: usable against raw capacity",
                         (unsigned long long)node->storage.raid.drives, size_text);
                r->raid.opt.title = r->raid_title;
            }
            r->has_raid = 1;
        }
    }
    hwfit__text count;
    hwfit__text_fixed(&count, NULL, 0);
    if ((st = render(r, &count)) != HWFIT_OK) return st;
    size_t need = count.len + 1;
    if (buf == NULL || size < need) {
        if (needed != NULL) *needed = need;
        return HWFIT_EBUFSIZE;
    }
    hwfit__text out;
    hwfit__text_fixed(&out, buf, size);
    if ((st = render(r, &out)) != HWFIT_OK) return st;
    /* never: both passes write the same, and the writer ends the text with a NUL */
    if (out.len != count.len || !hwfit__text_complete(&out)) return HWFIT_ERANGE;
    if (needed != NULL) *needed = need;
    return HWFIT_OK;
}

hwfit_status hwfit_report_html(const hwfit_node *node, const hwfit_assess_workload *workloads,
                               size_t workload_count, const hwfit_finding *findings,
                               size_t finding_count, const hwfit_report_options *opt,
                               char *buf, size_t size, size_t *needed) {
    if (buf == NULL && size > 0) return HWFIT_EINVAL;
    hwfit_report_options o;
    if (opt != NULL)
        o = *opt;
    else
        hwfit_report_options_init(&o);
    hwfit_status st =
        check_inputs(node, workloads, workload_count, findings, finding_count, &o);
    if (st != HWFIT_OK) return st;
    /* The report's state (about 7 KB: the node's evaluation, the charts' inputs) is too large
     * for a caller's stack: from the heap. */
    report *r = malloc(sizeof *r);
    if (r == NULL) return HWFIT_ENOMEM;
    memset(r, 0, sizeof *r);
    st = write_report(r, node, workloads, workload_count, findings, finding_count, &o, buf, size,
                      needed);
    free(r);
    return st;
}

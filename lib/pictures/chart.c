/* chart.c - pictures of hwfit results (include/hwfit/chart.h): each chart runs a domain
 * module, arranges its results as the data of an svg.h chart, and draws it.
 *
 * The data are built by hwfit__chart_*_data (lib/chart_internal.h), which the tests call
 * to compare the bars and lines with the domain modules' numbers. Values in labels are
 * written by the svg module's formatter, so no locale reaches the picture.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit/chart.h"
#include "hwfit/collective.h"
#include "hwfit/gpu.h"
#include "hwfit/model.h"
#include "hwfit/power.h"
#include "hwfit/shard.h"
#include "hwfit/status.h"
#include "hwfit/storage.h"
#include "hwfit/svg.h"
#include "hwfit/topology.h"
#include "hwfit/units.h"

#include "base/checked.h"
#include "base/internal.h"
#include "pictures/chart_internal.h"
#include "pictures/draw.h"

/* ---- small text helpers -------------------------------------------------------------- */

/* Append s to dst (size bytes, NUL-terminated), cutting it when full. */
static void cat(char *dst, size_t size, const char *s) {
    size_t n = strlen(dst), k = strlen(s);
    if (n + 1 >= size) return;
    if (k > size - 1 - n) k = size - 1 - n;
    memcpy(dst + n, s, k);
    dst[n + k] = '\0';
}

static void cat_u64(char *dst, size_t size, uint64_t v) {
    char digits[24];
    snprintf(digits, sizeof digits, "%llu", (unsigned long long)v);
    cat(dst, size, digits);
}

/* A value as the chart's axis writes it ("71.3 GB", "6.4 kW"): decimal prefixes, or
 * binary ones with binary set (bytes only). */
static void cat_value(char *dst, size_t size, double v, hwfit_unit unit, int binary) {
    hwfit_svg_axis axis;
    memset(&axis, 0, sizeof axis);
    axis.label = "";
    axis.unit = unit;
    axis.scale = HWFIT_SVG_SCALE_LINEAR;
    axis.prefix = binary ? HWFIT_SVG_PREFIX_BINARY : HWFIT_SVG_PREFIX_DECIMAL;
    char text[HWFIT__SVG_LABEL_SIZE];
    hwfit__svg_format_value(&axis, v, text);
    cat(dst, size, text);
}

/* A plain number with up to `decimals` decimals, trailing zeros removed ("1.3"). */
static void cat_number(char *dst, size_t size, double v, int decimals) {
    char text[HWFIT__SVG_LABEL_SIZE];
    hwfit__svg_format_fixed(v, decimals, 1, text);
    cat(dst, size, text);
}

static void set_title(char *dst, size_t size, const hwfit_chart_options *opt,
                      const char *own) {
    dst[0] = '\0';
    cat(dst, size, opt != NULL && opt->title != NULL ? opt->title : own);
}

static hwfit_chart_options options_or_default(const hwfit_chart_options *opt) {
    hwfit_chart_options o;
    if (opt != NULL) return *opt;
    hwfit_chart_options_init(&o);
    return o;
}

void hwfit_chart_options_init(hwfit_chart_options *opt) {
    if (opt == NULL) return;
    opt->title = NULL;
    opt->width_px = 800.0;
    opt->height_px = 480.0;
}

/* ---- memory ---------------------------------------------------------------------------- */

static const char *const memory_part_labels[HWFIT__CHART_MEMORY_PARTS] = {
    "Weights",          "KV cache",         "Activations",           "Gradients",
    "Optimizer states", "Communication buffers", "Runtime overhead", "Free"};

/* Okabe-Ito colours (svg.h) in the palette's order, one per part; free memory is a light
 * grey, so that it reads as empty room. */
static const uint32_t memory_part_colors[HWFIT__CHART_MEMORY_PARTS] = {
    0x0072B2, 0xE69F00, 0x009E73, 0xD55E00, 0xCC79A7, 0x56B4E9, 0xF0E442, 0xD9D9D9};

static void card_parts(const hwfit_shard_card *c, double usable, double parts[]) {
    parts[0] = (double)c->weights_bytes;
    parts[1] = (double)c->kv_bytes;
    parts[2] = (double)c->activation_bytes;
    parts[3] = (double)c->gradient_bytes;
    parts[4] = (double)c->optimizer_bytes;
    parts[5] = (double)c->buffer_bytes;
    parts[6] = (double)c->overhead_bytes;
    /* Free = usable - in use, when positive (shard.h: a card fits in usable_bytes). */
    parts[7] = usable > (double)c->total_bytes ? usable - (double)c->total_bytes : 0.0;
}

static int cards_alike(const hwfit_shard_card *a, const hwfit_shard_card *b) {
    return a->weights_bytes == b->weights_bytes && a->kv_bytes == b->kv_bytes &&
           a->activation_bytes == b->activation_bytes &&
           a->gradient_bytes == b->gradient_bytes && a->optimizer_bytes == b->optimizer_bytes &&
           a->buffer_bytes == b->buffer_bytes && a->overhead_bytes == b->overhead_bytes;
}

/* "GPU 0-7: 71.3 GB", "GPU 2-13: 40.1 GB": the cards a bar stands for and the bytes each
 * uses. Cards of a stage are consecutive ranks: Megatron-LM orders ranks TP innermost and
 * PP outermost (megatron/core/parallel_state.py, initialize_model_parallel, default order
 * "tp-cp-ep-dp-pp"; collective.h assumes the same), so stage s holds ranks s g to
 * (s + 1) g - 1, g = gpus / pp. */
static void memory_bar_label(char *dst, size_t size, uint32_t per_stage, uint32_t first,
                             uint32_t last, uint64_t used) {
    dst[0] = '\0';
    uint64_t lo = (uint64_t)first * per_stage, hi = ((uint64_t)last + 1u) * per_stage - 1u;
    cat(dst, size, "GPU ");
    cat_u64(dst, size, lo);
    if (hi != lo) {
        cat(dst, size, "-");
        cat_u64(dst, size, hi);
    }
    cat(dst, size, ": ");
    cat_value(dst, size, (double)used, HWFIT_UNIT_BYTES, 0);
}

static void layout_text(char *dst, size_t size, const hwfit_layout *l) {
    cat(dst, size, "TP ");
    cat_u64(dst, size, l->tp);
    cat(dst, size, " x PP ");
    cat_u64(dst, size, l->pp);
    cat(dst, size, " x DP ");
    cat_u64(dst, size, l->dp);
    if (l->cp > 1) {
        cat(dst, size, " x CP ");
        cat_u64(dst, size, l->cp);
    }
    if (l->ep > 1) {
        cat(dst, size, ", EP ");
        cat_u64(dst, size, l->ep);
    }
    if (l->zero_stage > 0) {
        cat(dst, size, ", ZeRO-");
        cat_u64(dst, size, l->zero_stage);
    }
}

hwfit_status hwfit__chart_memory_data(const hwfit_model *model, const hwfit_shard_in *in,
                                      const hwfit_chart_options *opt, hwfit__chart_memory *out) {
    if (model == NULL || in == NULL || out == NULL) return HWFIT_EINVAL;
    /* Built in place (the data are about 15 KB; no copy on the stack): out is scratch
     * when this fails. */
    hwfit__chart_memory *d = out;
    memset(d, 0, sizeof *d);
    hwfit_status st = hwfit_shard_estimate(model, in, &d->shard);
    if (st != HWFIT_OK) return st;
    const uint32_t pp = d->shard.stages;
    const uint32_t per_stage = in->gpus / (pp > 0 ? pp : 1u);
    const double usable = (double)d->shard.usable_bytes;
    double (*parts)[HWFIT__CHART_MEMORY_PARTS] = d->parts;
    hwfit_shard_card prev, card;
    memset(&prev, 0, sizeof prev);
    for (uint32_t s = 0; s < pp; s++) {
        st = hwfit_shard_card_at(model, in, s, &card);
        if (st != HWFIT_OK) return st;
        if (s > 0 && cards_alike(&prev, &card)) {
            d->last_stage[d->bar_count - 1] = s;
            continue;
        }
        if (d->bar_count == HWFIT_CHART_MAX_BARS) return HWFIT_ERANGE;
        d->first_stage[d->bar_count] = s;
        d->last_stage[d->bar_count] = s;
        d->used_bytes[d->bar_count] = card.total_bytes;
        card_parts(&card, usable, parts[d->bar_count]);
        d->bar_count++;
        prev = card;
    }
    for (size_t b = 0; b < d->bar_count; b++)
        memory_bar_label(d->bar_labels[b], sizeof d->bar_labels[b], per_stage, d->first_stage[b],
                         d->last_stage[b], d->used_bytes[b]);
    /* Keep the parts that are not zero on some card. */
    for (size_t p = 0; p < HWFIT__CHART_MEMORY_PARTS; p++) {
        int any = 0;
        for (size_t b = 0; b < d->bar_count; b++) any |= parts[b][p] > 0.0;
        if (any) d->part[d->segment_count++] = p;
    }
    if (d->segment_count == 0) d->part[d->segment_count++] = 0; /* an empty model: weights 0 */
    for (size_t b = 0; b < d->bar_count; b++)
        for (size_t s = 0; s < d->segment_count; s++)
            d->values[b * d->segment_count + s] = parts[b][d->part[s]];
    d->usable_bytes = usable;
    char own[HWFIT__CHART_TITLE_SIZE] = "Memory per card: ";
    cat(own, sizeof own, model->name[0] != '\0' ? model->name : "the model");
    cat(own, sizeof own, ", ");
    layout_text(own, sizeof own, &d->shard.layout);
    cat(own, sizeof own, d->shard.fits ? " (fits)" : " (does not fit)");
    set_title(d->title, sizeof d->title, opt, own);
    cat(d->x_label, sizeof d->x_label,
        pp > 1 ? "Cards by pipeline stage, first to last, and the memory each uses; capacity "
               : "Cards and the memory each uses; capacity ");
    cat_value(d->x_label, sizeof d->x_label, (double)d->shard.capacity_bytes, HWFIT_UNIT_BYTES, 0);
    cat(d->x_label, sizeof d->x_label, " (");
    cat_value(d->x_label, sizeof d->x_label, (double)d->shard.capacity_bytes, HWFIT_UNIT_BYTES, 1);
    cat(d->x_label, sizeof d->x_label, ")");
    return HWFIT_OK;
}

hwfit_status hwfit_chart_memory(const hwfit_model *model, const hwfit_shard_in *in,
                                const hwfit_chart_options *opt, char *buf, size_t size,
                                size_t *needed) {
    if (model == NULL || in == NULL || (buf == NULL && size > 0)) return HWFIT_EINVAL;
    /* The chart data (about 15 KB) are too large for a caller's stack: from the heap. */
    hwfit__chart_memory *d = malloc(sizeof *d);
    if (d == NULL) return HWFIT_ENOMEM;
    hwfit_status st = hwfit__chart_memory_data(model, in, opt, d);
    if (st != HWFIT_OK) {
        free(d);
        return st;
    }
    hwfit_chart_options o = options_or_default(opt);
    const char *bar_labels[HWFIT_CHART_MAX_BARS];
    const char *segment_labels[HWFIT__CHART_MEMORY_PARTS];
    uint32_t colors[HWFIT__CHART_MEMORY_PARTS];
    for (size_t b = 0; b < d->bar_count; b++) bar_labels[b] = d->bar_labels[b];
    for (size_t s = 0; s < d->segment_count; s++) {
        segment_labels[s] = memory_part_labels[d->part[s]];
        colors[s] = memory_part_colors[d->part[s]];
    }
    hwfit_svg_stacked_bars_in c;
    hwfit_svg_stacked_bars_init(&c);
    c.title = d->title;
    c.x_label = d->x_label;
    c.y.label = "Memory per card";
    c.y.unit = HWFIT_UNIT_BYTES;
    c.y.prefix = HWFIT_SVG_PREFIX_DECIMAL;
    c.bar_count = d->bar_count;
    c.bar_labels = bar_labels;
    c.segment_count = d->segment_count;
    c.segment_labels = segment_labels;
    c.segment_colors = colors;
    c.values = d->values;
    c.capacity_set = 1;
    c.capacity = d->usable_bytes;
    c.capacity_label = "Usable per card";
    c.show_totals = 0; /* the totals would count free memory; the labels say what is used */
    c.width_px = o.width_px;
    c.height_px = o.height_px;
    st = hwfit_svg_stacked_bars(&c, buf, size, needed);
    free(d);
    return st;
}

/* ---- collective ------------------------------------------------------------------------ */

void hwfit_chart_collective_init(hwfit_chart_collective_in *in) {
    if (in == NULL) return;
    memset(in, 0, sizeof *in);
    in->series_count = 0;
    in->series = NULL;
    in->names = NULL;
    in->min_bytes = 8.0;
    in->max_bytes = HWFIT_GIBI;
    in->metric = HWFIT_CHART_BUSBW;
    hwfit_chart_options_init(&in->options);
}

static const char *const metric_names[] = {"busbw", "algbw", "time"};

const char *hwfit_chart_metric_name(hwfit_chart_metric metric) {
    return (unsigned)metric < HWFIT__COUNT_OF(metric_names) ? metric_names[metric] : "unknown";
}

hwfit_status hwfit_chart_metric_from_name(const char *name, hwfit_chart_metric *metric) {
    if (name == NULL || metric == NULL) return HWFIT_EINVAL;
    for (size_t i = 0; i < HWFIT__COUNT_OF(metric_names); i++)
        if (strcmp(name, metric_names[i]) == 0) {
            *metric = (hwfit_chart_metric)i;
            return HWFIT_OK;
        }
    return HWFIT_ENOTFOUND;
}

/* Operation names for people, as nccl-tests' binaries are named. */
static const char *op_words(hwfit_collective_op op) {
    switch (op) {
    case HWFIT_COLLECTIVE_ALLREDUCE: return "all-reduce";
    case HWFIT_COLLECTIVE_ALLGATHER: return "all-gather";
    case HWFIT_COLLECTIVE_REDUCESCATTER: return "reduce-scatter";
    case HWFIT_COLLECTIVE_BROADCAST: return "broadcast";
    case HWFIT_COLLECTIVE_REDUCE: return "reduce";
    case HWFIT_COLLECTIVE_ALLTOALL: return "all-to-all";
    case HWFIT_COLLECTIVE_SENDRECV: return "send/receive";
    }
    return "collective";
}

/* "8 ranks, PCIe Gen5 x16, P2P", "h100-sxm: 16 ranks on 2 nodes, NVLink within nodes":
 * what a line stands for. */
static void series_label(char *dst, size_t size, const char *name, const hwfit_collective_in *c,
                         const hwfit_collective_out *o) {
    const hwfit_topology *t = &c->topology;
    dst[0] = '\0';
    if (name != NULL && name[0] != '\0') {
        cat(dst, size, name);
        cat(dst, size, ": ");
    }
    cat_u64(dst, size, o->ranks);
    cat(dst, size, " ranks");
    if (o->nodes > 1) {
        cat(dst, size, " on ");
        cat_u64(dst, size, o->nodes);
        cat(dst, size, " nodes");
    }
    if (t->peer_link != HWFIT_GPU_PEER_NONE) {
        cat(dst, size, ", ");
        cat(dst, size, t->peer_link == HWFIT_GPU_PEER_NVLINK ? "NVLink" : "xGMI");
    } else {
        cat(dst, size, ", PCIe Gen");
        cat_u64(dst, size, t->gpu_pcie_gen);
        cat(dst, size, " x");
        cat_u64(dst, size, t->gpu_pcie_lanes);
        cat(dst, size, o->p2p ? ", P2P" : ", via host memory");
    }
    if (o->nodes > 1) cat(dst, size, " within nodes");
}

hwfit_status hwfit__chart_collective_data(const hwfit_chart_collective_in *in,
                                          hwfit__chart_collective *out) {
    if (in == NULL || out == NULL) return HWFIT_EINVAL;
    if ((unsigned)in->metric >= HWFIT__COUNT_OF(metric_names)) return HWFIT_EINVAL;
    if (in->series_count == 0 || in->series_count > HWFIT_CHART_MAX_SERIES) return HWFIT_EDOM;
    if (in->series == NULL) return HWFIT_EINVAL;
    if (in->names != NULL)
        for (size_t s = 0; s < in->series_count; s++)
            if (in->names[s] == NULL) return HWFIT_EINVAL;
    if (!hwfit__in_range(in->min_bytes, 1.0, 1e18) ||
        !hwfit__in_range(in->max_bytes, in->min_bytes, 1e18))
        return HWFIT_EDOM;
    /* Built in place (the data are about 15 KB; no copy on the stack): out is scratch
     * when this fails. */
    hwfit__chart_collective *d = out;
    memset(d, 0, sizeof *d);
    /* min x 2^k, exact in binary floating point, while it does not exceed max: at most
     * 61 sizes between 1 and 1e18 < 2^60, within HWFIT_CHART_MAX_POINTS. */
    for (double b = in->min_bytes; b <= in->max_bytes && d->point_count < HWFIT_CHART_MAX_POINTS;
         b *= 2.0)
        d->bytes[d->point_count++] = b;
    d->series_count = in->series_count;
    int same_op = 1;
    for (size_t s = 0; s < in->series_count; s++) {
        hwfit_collective_in c = in->series[s];
        hwfit_collective_out o;
        same_op &= c.op == in->series[0].op;
        for (size_t i = 0; i < d->point_count; i++) {
            c.bytes = d->bytes[i];
            hwfit_status st = hwfit_collective_estimate(&c, &o);
            if (st != HWFIT_OK) return st;
            d->time_s[s][i] = o.time_s;
            d->algbw_bytes_per_s[s][i] = o.algbw_bytes_per_s;
            d->busbw_bytes_per_s[s][i] = o.busbw_bytes_per_s;
        }
        series_label(d->labels[s], sizeof d->labels[s], in->names ? in->names[s] : NULL, &c,
                     &o); /* as at the largest size */
    }
    static const char *const what[] = {"Bus bandwidth", "Algorithm bandwidth", "Time"};
    char own[HWFIT__CHART_TITLE_SIZE] = "";
    cat(own, sizeof own, what[in->metric]);
    if (same_op) {
        cat(own, sizeof own, " of ");
        cat(own, sizeof own, op_words(in->series[0].op));
    }
    cat(own, sizeof own, " by message size");
    set_title(d->title, sizeof d->title, &in->options, own);
    return HWFIT_OK;
}

hwfit_status hwfit_chart_collective(const hwfit_chart_collective_in *in, char *buf, size_t size,
                                    size_t *needed) {
    if (in == NULL || (buf == NULL && size > 0)) return HWFIT_EINVAL;
    /* The chart data (about 15 KB) are too large for a caller's stack: from the heap. */
    hwfit__chart_collective *d = malloc(sizeof *d);
    if (d == NULL) return HWFIT_ENOMEM;
    hwfit_status st = hwfit__chart_collective_data(in, d);
    if (st != HWFIT_OK) {
        free(d);
        return st;
    }
    hwfit_svg_series series[HWFIT_CHART_MAX_SERIES];
    for (size_t s = 0; s < d->series_count; s++) {
        series[s].label = d->labels[s];
        series[s].x = d->bytes;
        series[s].y = in->metric == HWFIT_CHART_TIME    ? d->time_s[s]
                      : in->metric == HWFIT_CHART_ALGBW ? d->algbw_bytes_per_s[s]
                                                         : d->busbw_bytes_per_s[s];
        series[s].count = d->point_count;
    }
    hwfit_svg_lines_in c;
    hwfit_svg_lines_init(&c);
    c.title = d->title;
    c.x.label = "Message size (nccl-tests convention)";
    c.x.unit = HWFIT_UNIT_BYTES;
    c.x.scale = HWFIT_SVG_SCALE_LOG2;
    c.y.label = in->metric == HWFIT_CHART_TIME    ? "Time per operation"
                : in->metric == HWFIT_CHART_ALGBW ? "Algorithm bandwidth (algbw)"
                                                   : "Bus bandwidth (busbw)";
    c.y.unit = in->metric == HWFIT_CHART_TIME ? HWFIT_UNIT_SECONDS : HWFIT_UNIT_BYTES_PER_S;
    c.y.scale = HWFIT_SVG_SCALE_LOG10;
    c.y.prefix = HWFIT_SVG_PREFIX_DECIMAL;
    c.series_count = d->series_count;
    c.series = series;
    c.width_px = in->options.width_px;
    c.height_px = in->options.height_px;
    st = hwfit_svg_lines(&c, buf, size, needed);
    free(d);
    return st;
}

/* ---- power ----------------------------------------------------------------------------- */

static const char *const kind_words[HWFIT_POWER_COMPONENT_KINDS] = {
    "GPU", "CPU", "DIMM", "Drive", "NIC", "Fan", "Switch", "Board", "Other"};

/* Okabe-Ito colours for the first seven kinds (svg.h); board and other in greys. */
static const uint32_t kind_colors[HWFIT_POWER_COMPONENT_KINDS] = {
    0x0072B2, 0xE69F00, 0x009E73, 0xD55E00, 0xCC79A7, 0x56B4E9, 0xF0E442, 0x999999, 0x666666};

hwfit_status hwfit__chart_power_data(const hwfit_power_budget_in *budget,
                                     const hwfit_psu_in *psu, const hwfit_chart_options *opt,
                                     hwfit__chart_power *out) {
    if (psu == NULL || out == NULL) return HWFIT_EINVAL;
    hwfit__chart_power d;
    memset(&d, 0, sizeof d);
    hwfit_status st;
    d.psu_in = *psu;
    d.has_budget = budget != NULL && budget->component_count > 0;
    if (d.has_budget) {
        if ((st = hwfit_power_budget_evaluate(budget, &d.budget)) != HWFIT_OK) return st;
        /* As `hwfit power --component`: the PSUs carry the budget's sustained total, and
         * its peak unless a peak load was given. */
        d.psu_in.load_w = d.budget.dc_w;
        if (d.psu_in.peak_load_w == HWFIT_POWER_UNSET) d.psu_in.peak_load_w = d.budget.peak_dc_w;
    }
    if ((st = hwfit_psu_evaluate(&d.psu_in, &d.psu)) != HWFIT_OK) return st;
    if (d.has_budget) {
        for (int k = 0; k < HWFIT_POWER_COMPONENT_KINDS; k++) {
            if (d.budget.kind_count[k] == 0) continue;
            size_t b = d.bar_count++;
            d.kind[b] = k;
            cat_u64(d.bar_labels[b], sizeof d.bar_labels[b], d.budget.kind_count[k]);
            cat(d.bar_labels[b], sizeof d.bar_labels[b], " x ");
            cat(d.bar_labels[b], sizeof d.bar_labels[b], kind_words[k]);
            d.values[b] = d.budget.kind_w[k];
            d.colors[b] = kind_colors[k];
        }
    }
    if (d.bar_count == 0) {
        d.kind[0] = -1;
        cat(d.bar_labels[0], sizeof d.bar_labels[0], "DC load");
        d.values[0] = d.psu.load_w;
        d.colors[0] = kind_colors[0];
        d.bar_count = 1;
    }
    /* Reference lines. The headroom limit is the largest load the rule allows:
     * usable >= ratio x load (power.h) gives load <= usable / ratio. */
    size_t r = 0;
    char *t = d.reference_labels[r];
    cat(t, HWFIT__CHART_LABEL_SIZE, "Usable PSU capacity (");
    cat_u64(t, HWFIT__CHART_LABEL_SIZE, d.psu.active_psus);
    cat(t, HWFIT__CHART_LABEL_SIZE, " of ");
    cat_u64(t, HWFIT__CHART_LABEL_SIZE, d.psu.psus);
    cat(t, HWFIT__CHART_LABEL_SIZE, " x ");
    cat_value(t, HWFIT__CHART_LABEL_SIZE, d.psu.rating_w, HWFIT_UNIT_WATTS, 0);
    cat(t, HWFIT__CHART_LABEL_SIZE, ")");
    d.reference_values[r++] = d.psu.usable_w;
    t = d.reference_labels[r];
    cat(t, HWFIT__CHART_LABEL_SIZE, "Headroom limit (usable / ");
    cat_number(t, HWFIT__CHART_LABEL_SIZE, d.psu_in.headroom_ratio, 3);
    cat(t, HWFIT__CHART_LABEL_SIZE, ")");
    d.reference_values[r++] = d.psu.usable_w / d.psu_in.headroom_ratio;
    cat(d.reference_labels[r], HWFIT__CHART_LABEL_SIZE, "Wall (AC) power");
    d.reference_values[r++] = d.psu.wall_w;
    if (d.psu.peak_load_w > d.psu.load_w) {
        cat(d.reference_labels[r], HWFIT__CHART_LABEL_SIZE, "Peak DC load");
        d.reference_values[r++] = d.psu.peak_load_w;
    }
    d.reference_count = r;
    set_title(d.title, sizeof d.title, opt, "Power budget (DC) against the power supplies");
    *out = d;
    return HWFIT_OK;
}

hwfit_status hwfit_chart_power(const hwfit_power_budget_in *budget, const hwfit_psu_in *psu,
                               const hwfit_chart_options *opt, char *buf, size_t size,
                               size_t *needed) {
    if (psu == NULL || (buf == NULL && size > 0)) return HWFIT_EINVAL;
    hwfit__chart_power d;
    hwfit_status st = hwfit__chart_power_data(budget, psu, opt, &d);
    if (st != HWFIT_OK) return st;
    hwfit_chart_options o = options_or_default(opt);
    const char *labels[HWFIT_POWER_COMPONENT_KINDS];
    hwfit_svg_reference refs[HWFIT__CHART_POWER_REFS];
    for (size_t b = 0; b < d.bar_count; b++) labels[b] = d.bar_labels[b];
    for (size_t r = 0; r < d.reference_count; r++) {
        refs[r].label = d.reference_labels[r];
        refs[r].value = d.reference_values[r];
    }
    hwfit_svg_budget_in c;
    hwfit_svg_budget_init(&c);
    c.title = d.title;
    c.x.label = "Power";
    c.x.unit = HWFIT_UNIT_WATTS;
    c.bar_count = d.bar_count;
    c.bar_labels = labels;
    c.values = d.values;
    c.bar_colors = d.colors;
    c.show_total = d.has_budget;
    c.total_label = "DC total";
    c.reference_count = d.reference_count;
    c.references = refs;
    c.width_px = o.width_px;
    c.height_px = o.height_px;
    return hwfit_svg_budget(&c, buf, size, needed);
}

/* ---- RAID ------------------------------------------------------------------------------ */

static const uint32_t raid_colors[HWFIT__CHART_RAID_PARTS] = {0x009E73, 0xD55E00, 0xE69F00,
                                                              0x999999};

static int mirrored(hwfit_raid_level level) {
    return level == HWFIT_STORAGE_RAID1 || level == HWFIT_STORAGE_RAID10;
}

hwfit_status hwfit__chart_raid_data(const hwfit_raid_in *in, const hwfit_chart_options *opt,
                                    hwfit__chart_raid *out) {
    if (in == NULL || out == NULL) return HWFIT_EINVAL;
    hwfit__chart_raid d;
    memset(&d, 0, sizeof d);
    hwfit_status st = hwfit_raid_evaluate(in, &d.raid);
    if (st != HWFIT_OK) return st;
    const hwfit_raid_out *r = &d.raid;
    double spares = (double)in->spares * in->drive_bytes;
    /* What the array spends besides usable space, slop and hot spares: parity, mirror
     * copies, ZFS padding, dRAID distributed spares (never below 0 through rounding). */
    double redundancy = r->raw_bytes - r->usable_bytes - r->slop_bytes - spares;
    if (redundancy < 0.0) redundancy = 0.0;
    const double parts[HWFIT__CHART_RAID_PARTS] = {r->usable_bytes, redundancy, r->slop_bytes,
                                                   spares};
    const char *redundancy_words =
        mirrored(r->level)          ? "Mirror copies"
        : in->layout.draid_spares && r->level >= HWFIT_STORAGE_DRAID1
                                    ? "Parity, padding and distributed spares"
        : r->level >= HWFIT_STORAGE_RAIDZ1 ? "Parity and padding"
                                           : "Parity";
    for (int p = 0; p < HWFIT__CHART_RAID_PARTS; p++) {
        if (p > 0 && !(parts[p] > 0.0)) continue;
        size_t b = d.bar_count++;
        d.part[b] = p;
        d.values[b] = parts[p];
        char *t = d.bar_labels[b];
        switch (p) {
        case 0: cat(t, HWFIT__CHART_LABEL_SIZE, "Usable"); break;
        case 1: cat(t, HWFIT__CHART_LABEL_SIZE, redundancy_words); break;
        case 2: cat(t, HWFIT__CHART_LABEL_SIZE, "ZFS slop space"); break;
        default:
            cat(t, HWFIT__CHART_LABEL_SIZE, "Hot spares (");
            cat_u64(t, HWFIT__CHART_LABEL_SIZE, in->spares);
            cat(t, HWFIT__CHART_LABEL_SIZE, ")");
            break;
        }
    }
    cat(d.total_label, sizeof d.total_label, "Raw");
    char own[HWFIT__CHART_TITLE_SIZE] = "";
    cat(own, sizeof own, hwfit_raid_level_name(r->level));
    cat(own, sizeof own, " of ");
    cat_u64(own, sizeof own, r->drives);
    cat(own, sizeof own, " x ");
    cat_value(own, sizeof own, in->drive_bytes, HWFIT_UNIT_BYTES, 0);
    cat(own, sizeof own, ": usable against raw capacity");
    set_title(d.title, sizeof d.title, opt, own);
    *out = d;
    return HWFIT_OK;
}

hwfit_status hwfit_chart_raid(const hwfit_raid_in *in, const hwfit_chart_options *opt, char *buf,
                              size_t size, size_t *needed) {
    if (in == NULL || (buf == NULL && size > 0)) return HWFIT_EINVAL;
    hwfit__chart_raid d;
    hwfit_status st = hwfit__chart_raid_data(in, opt, &d);
    if (st != HWFIT_OK) return st;
    hwfit_chart_options o = options_or_default(opt);
    const char *labels[HWFIT__CHART_RAID_PARTS];
    uint32_t colors[HWFIT__CHART_RAID_PARTS];
    for (size_t b = 0; b < d.bar_count; b++) {
        labels[b] = d.bar_labels[b];
        colors[b] = raid_colors[d.part[b]];
    }
    hwfit_svg_budget_in c;
    hwfit_svg_budget_init(&c);
    c.title = d.title;
    c.x.label = "Capacity";
    c.x.unit = HWFIT_UNIT_BYTES;
    c.x.prefix = HWFIT_SVG_PREFIX_DECIMAL;
    c.bar_count = d.bar_count;
    c.bar_labels = labels;
    c.values = d.values;
    c.bar_colors = colors;
    c.show_total = 1;
    c.total_label = d.total_label;
    c.width_px = o.width_px;
    c.height_px = o.height_px;
    return hwfit_svg_budget(&c, buf, size, needed);
}

/* fuzz_svg.c - libFuzzer target for the SVG writers (lib/svg.c) and the charts built on
 * them (lib/chart.c).
 *
 * Labels (any bytes: bad UTF-8, XML specials, control characters), values (hostile
 * doubles: NaN, infinities, subnormals, 1e300), counts, scales, prefixes, units and sizes
 * are decoded from the bytes into the stacked-bar, line and budget charts, the escaper, and
 * the memory, collective, RAID and power charts. Whatever the status:
 * - HWFIT_OK: the document is NUL-terminated, `needed` is strlen + 1, the size query
 *   gave the same `needed`, and the document is well-formed XML (tests/xml_check.h);
 * - HWFIT_EBUFSIZE with one byte too few: the buffer and nothing else is untouched;
 * - any other status: the buffer and `needed` are untouched, and the size query agrees.
 */
#include "fuzz_input.h"
#include "../xml_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef hwfit_status (*writer)(const void *in, char *buf, size_t size, size_t *needed);

/* A label of up to 24 bytes from the input (a NUL byte ends it early), or a fixed one. */
static const char *label(fz *f, char *buf, size_t cap) {
    static const char *const fixed[] = {"", "GPU 0-3", "<&>\"'", "\xc3\xa9t\xc3\xa9",
                                        "\xff\xfe bad", "\x01\x1f ctl", "\xef\xbf\xbf"};
    uint8_t k = fz_u8(f);
    if (k < 128) return fixed[k % (sizeof fixed / sizeof fixed[0])];
    size_t n = fz_u8(f) % 25;
    if (n >= cap) n = cap - 1;
    for (size_t i = 0; i < n; i++) buf[i] = (char)fz_u8(f);
    buf[n] = '\0';
    return buf;
}

/* A value: mostly a plain number, sometimes anything fz_double gives. */
static double value(fz *f) {
    if (fz_keep(f)) return (double)fz_u16(f) * pow(10.0, (double)(fz_u8(f) % 16));
    return fz_double(f);
}

static void axis(fz *f, hwfit_svg_axis *a, char *buf) {
    if (!fz_keep(f)) a->label = label(f, buf, 32);
    if (!fz_keep(f)) a->unit = (hwfit_unit)fz_enum(f, 8);
    if (!fz_keep(f)) a->scale = (hwfit_svg_scale)fz_enum(f, 3);
    if (!fz_keep(f)) a->prefix = (hwfit_svg_prefix)fz_enum(f, 3);
    if (!fz_keep(f)) a->include_zero = fz_u8(f) & 1;
}

static double px(fz *f, double def) {
    if (fz_keep(f)) return def;
    uint8_t k = fz_u8(f);
    return k < 192 ? 200.0 + (double)k * 20.0 : fz_double(f);
}

/* The two-call protocol, checked. */
static void render(writer w, const void *in) {
    size_t needed = 0x5a5a;
    hwfit_status q = w(in, NULL, 0, &needed);
    FZ_CHECK(q == HWFIT_EBUFSIZE || q == HWFIT_EINVAL || q == HWFIT_EDOM || q == HWFIT_ERANGE ||
             q == HWFIT_EUNSUPPORTED || q == HWFIT_ELAYOUT);
    if (q != HWFIT_EBUFSIZE) {
        FZ_CHECK(needed == 0x5a5a);
        char small[16];
        memset(small, 0x5a, sizeof small);
        size_t n2 = 0x5a5a;
        FZ_CHECK(w(in, small, sizeof small, &n2) == q);
        FZ_CHECK(n2 == 0x5a5a);
        for (size_t i = 0; i < sizeof small; i++) FZ_CHECK(small[i] == 0x5a);
        return;
    }
    FZ_CHECK(needed >= 1 && needed < ((size_t)64 << 20));
    char *buf = malloc(needed + 1);
    FZ_CHECK(buf != NULL);
    /* One byte too few: untouched. */
    memset(buf, 0x5a, needed + 1);
    size_t again = 0;
    FZ_CHECK(w(in, buf, needed - 1, &again) == HWFIT_EBUFSIZE && again == needed);
    for (size_t i = 0; i < needed + 1; i++) FZ_CHECK(buf[i] == 0x5a);
    again = 0;
    FZ_CHECK(w(in, buf, needed, &again) == HWFIT_OK);
    FZ_CHECK(again == needed);
    FZ_CHECK(buf[needed - 1] == '\0' && strlen(buf) + 1 == needed);
    FZ_CHECK(buf[needed] == 0x5a); /* nothing past the end */
    const char *why = xml_check(buf);
    if (why != NULL) {
        fprintf(stderr, "not well-formed: %s\n%s\n", why, buf);
        abort();
    }
    free(buf);
}

static hwfit_status w_bars(const void *in, char *b, size_t s, size_t *n) {
    return hwfit_svg_stacked_bars(in, b, s, n);
}
static hwfit_status w_lines(const void *in, char *b, size_t s, size_t *n) {
    return hwfit_svg_lines(in, b, s, n);
}
static hwfit_status w_budget(const void *in, char *b, size_t s, size_t *n) {
    return hwfit_svg_budget(in, b, s, n);
}
static hwfit_status w_collective(const void *in, char *b, size_t s, size_t *n) {
    return hwfit_chart_collective(in, b, s, n);
}

typedef struct memory_args {
    const hwfit_model *model;
    const hwfit_shard_in *in;
    const hwfit_chart_options *opt;
} memory_args;
static hwfit_status w_memory(const void *a, char *b, size_t s, size_t *n) {
    const memory_args *m = a;
    return hwfit_chart_memory(m->model, m->in, m->opt, b, s, n);
}
typedef struct raid_args {
    const hwfit_raid_in *in;
    const hwfit_chart_options *opt;
} raid_args;
static hwfit_status w_raid(const void *a, char *b, size_t s, size_t *n) {
    const raid_args *r = a;
    return hwfit_chart_raid(r->in, r->opt, b, s, n);
}
typedef struct power_args {
    const hwfit_psu_in *psu;
    const hwfit_chart_options *opt;
} power_args;
static hwfit_status w_power(const void *a, char *b, size_t s, size_t *n) {
    const power_args *p = a;
    return hwfit_chart_power(NULL, p->psu, p->opt, b, s, n);
}

#define MAX_BARS 8
#define MAX_SEGS 6
#define MAX_SERIES 4
#define MAX_POINTS 12

static char labels[32][32];

static void bars(fz *f) {
    hwfit_svg_stacked_bars_in in;
    hwfit_svg_stacked_bars_init(&in);
    size_t nb = 1 + fz_u8(f) % MAX_BARS, ns = 1 + fz_u8(f) % MAX_SEGS;
    const char *bl[MAX_BARS], *sl[MAX_SEGS];
    double v[MAX_BARS * MAX_SEGS];
    uint32_t colors[MAX_SEGS];
    for (size_t i = 0; i < nb; i++) bl[i] = label(f, labels[i], 32);
    for (size_t i = 0; i < ns; i++) sl[i] = label(f, labels[8 + i], 32);
    for (size_t i = 0; i < nb * ns; i++) v[i] = value(f);
    for (size_t i = 0; i < ns; i++) colors[i] = fz_keep(f) ? (uint32_t)i * 0x10101u : fz_u32(f);
    in.title = label(f, labels[16], 32);
    in.x_label = label(f, labels[17], 32);
    axis(f, &in.y, labels[18]);
    in.bar_count = nb;
    in.bar_labels = bl;
    in.segment_count = ns;
    in.segment_labels = sl;
    in.values = v;
    if (!fz_keep(f)) in.segment_colors = colors;
    if (!fz_keep(f)) {
        in.capacity_set = 1;
        in.capacity = value(f);
        in.capacity_label = label(f, labels[19], 32);
    }
    if (!fz_keep(f)) in.show_totals = fz_u8(f) & 1;
    in.width_px = px(f, in.width_px);
    in.height_px = px(f, in.height_px);
    render(w_bars, &in);
}

static void lines(fz *f) {
    hwfit_svg_lines_in in;
    hwfit_svg_lines_init(&in);
    size_t k = 1 + fz_u8(f) % MAX_SERIES;
    hwfit_svg_series s[MAX_SERIES];
    double x[MAX_SERIES][MAX_POINTS], y[MAX_SERIES][MAX_POINTS];
    for (size_t i = 0; i < k; i++) {
        s[i].label = label(f, labels[i], 32);
        s[i].count = 1 + fz_u8(f) % MAX_POINTS;
        for (size_t j = 0; j < s[i].count; j++) {
            x[i][j] = value(f);
            y[i][j] = value(f);
        }
        s[i].x = x[i];
        s[i].y = y[i];
    }
    in.title = label(f, labels[16], 32);
    axis(f, &in.x, labels[17]);
    axis(f, &in.y, labels[18]);
    in.series_count = k;
    in.series = s;
    if (!fz_keep(f)) in.markers = fz_u8(f) & 1;
    in.width_px = px(f, in.width_px);
    in.height_px = px(f, in.height_px);
    render(w_lines, &in);
}

static void budget(fz *f) {
    hwfit_svg_budget_in in;
    hwfit_svg_budget_init(&in);
    size_t nb = 1 + fz_u8(f) % MAX_BARS, nr = fz_u8(f) % 4;
    const char *bl[MAX_BARS];
    double v[MAX_BARS];
    hwfit_svg_reference r[4];
    for (size_t i = 0; i < nb; i++) {
        bl[i] = label(f, labels[i], 32);
        v[i] = value(f);
    }
    for (size_t i = 0; i < nr; i++) {
        r[i].label = label(f, labels[8 + i], 32);
        r[i].value = value(f);
    }
    in.title = label(f, labels[16], 32);
    axis(f, &in.x, labels[17]);
    in.bar_count = nb;
    in.bar_labels = bl;
    in.values = v;
    if (!fz_keep(f)) in.show_total = fz_u8(f) & 1;
    if (!fz_keep(f)) in.total_label = label(f, labels[18], 32);
    in.reference_count = nr;
    in.references = nr ? r : NULL;
    in.width_px = px(f, in.width_px);
    in.height_px = px(f, in.height_px);
    render(w_budget, &in);
}

static void escape(fz *f) {
    char text[64];
    size_t n = fz_u8(f) % sizeof text;
    for (size_t i = 0; i < n; i++) text[i] = (char)fz_u8(f);
    text[n] = '\0';
    char out[64 * 8 + 1];
    size_t needed = 0;
    hwfit_status st = hwfit_svg_escape(text, out, sizeof out, &needed);
    FZ_CHECK(st == HWFIT_OK);
    FZ_CHECK(strlen(out) + 1 == needed);
    /* Inside an element, the escaped text is well-formed. */
    char doc[sizeof out + 8];
    snprintf(doc, sizeof doc, "<a>%s</a>", out);
    FZ_CHECK(xml_check(doc) == NULL);
}

static void options(fz *f, hwfit_chart_options *o) {
    hwfit_chart_options_init(o);
    if (!fz_keep(f)) o->title = fz_u8(f) & 1 ? NULL : label(f, labels[20], 32);
    o->width_px = px(f, o->width_px);
    o->height_px = px(f, o->height_px);
}

static void chart_memory(fz *f) {
    hwfit_model m;
    hwfit_model_init(&m);
    m.hidden = 2048;
    m.heads = 16;
    m.kv_heads = 4;
    m.intermediate = 8192;
    m.vocab = 32000;
    m.layers = 1 + fz_u8(f) % 16;
    hwfit_shard_in in;
    hwfit_shard_init(&in);
    in.memory.mode = (hwfit_memory_mode)(fz_u8(f) % 4);
    in.memory.context = 1u << (fz_u8(f) % 14);
    in.layout.tp = 1u << (fz_u8(f) % 3);
    in.layout.pp = 1u + fz_u8(f) % 4;
    if (!fz_keep(f)) in.layout.zero_stage = fz_u8(f) % 4;
    in.gpus = in.layout.tp * in.layout.pp;
    in.capacity_bytes = (double)(1u + fz_u8(f) % 96) * 1e9;
    if (!fz_keep(f)) in.capacity_bytes = fz_double(f);
    if (!fz_keep(f)) in.utilization = fz_double(f);
    hwfit_chart_options o;
    options(f, &o);
    memory_args a = {&m, &in, &o};
    render(w_memory, &a);
}

static void chart_collective(fz *f) {
    hwfit_chart_collective_in in;
    hwfit_chart_collective_init(&in);
    hwfit_collective_in s[3];
    const char *names[3];
    size_t k = 1 + fz_u8(f) % 3;
    size_t ngpu = hwfit_gpu_count();
    for (size_t i = 0; i < k; i++) {
        hwfit_collective_init(&s[i]);
        (void)hwfit_topology_set_gpu(&s[i].topology, hwfit_gpu_at(fz_u8(f) % ngpu));
        s[i].op = (hwfit_collective_op)(fz_u8(f) % 7);
        s[i].ranks = 2u << (fz_u8(f) % 5);
        names[i] = label(f, labels[i], 32);
    }
    in.series_count = k;
    in.series = s;
    if (!fz_keep(f)) in.names = names;
    if (!fz_keep(f)) in.min_bytes = fz_double(f);
    if (!fz_keep(f)) in.max_bytes = fz_double(f);
    if (!fz_keep(f)) in.metric = (hwfit_chart_metric)fz_enum(f, 3);
    options(f, &in.options);
    render(w_collective, &in);
}

static void chart_raid(fz *f) {
    hwfit_raid_in in;
    hwfit_raid_init(&in);
    in.drives = 3 + fz_u8(f) % 24;
    if (!fz_keep(f)) in.spares = fz_u8(f) % 4;
    if (!fz_keep(f)) in.drive_bytes = fz_double(f);
    hwfit_chart_options o;
    options(f, &o);
    raid_args a = {&in, &o};
    render(w_raid, &a);
}

static void chart_power(fz *f) {
    hwfit_psu_in in;
    hwfit_psu_init(&in);
    in.load_w = (double)fz_u16(f);
    if (!fz_keep(f)) in.load_w = fz_double(f);
    if (!fz_keep(f)) in.psus = fz_u8(f) % 8;
    if (!fz_keep(f)) in.peak_load_w = fz_double(f);
    hwfit_chart_options o;
    options(f, &o);
    power_args a = {&in, &o};
    render(w_power, &a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f = {data, size};
    switch (fz_u8(&f) % 8) {
    case 0: bars(&f); break;
    case 1: lines(&f); break;
    case 2: budget(&f); break;
    case 3: escape(&f); break;
    case 4: chart_memory(&f); break;
    case 5: chart_collective(&f); break;
    case 6: chart_raid(&f); break;
    default: chart_power(&f); break;
    }
    return 0;
}

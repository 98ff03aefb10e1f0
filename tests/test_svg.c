/* SVG charts: escaping, the buffer protocol, determinism, well-formed XML, tick
 * algorithms against hand-worked examples, geometry read back from the output, error
 * paths, and golden files compared byte for byte.
 *
 * Golden files live in tests/data/svg/. After an intended change of the output, rewrite
 * them with
 *     HWFIT_SVG_REGENERATE=1 build/dev/tests/test_svg --filter 'svg/golden_*'
 * look at them (tests/data/svg/README.md), and commit them with the change. */
#include <criterion/criterion.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit.h"
#include "pictures/svg_internal.h"
#include "xml_check.h"

/* ---- helpers ------------------------------------------------------------------------- */

typedef hwfit_status (*chart_fn)(const void *in, char *buf, size_t size, size_t *needed);

static hwfit_status call_stacked(const void *in, char *b, size_t s, size_t *n) {
    return hwfit_svg_stacked_bars(in, b, s, n);
}
static hwfit_status call_lines(const void *in, char *b, size_t s, size_t *n) {
    return hwfit_svg_lines(in, b, s, n);
}
static hwfit_status call_budget(const void *in, char *b, size_t s, size_t *n) {
    return hwfit_svg_budget(in, b, s, n);
}
static hwfit_status call_escape(const void *in, char *b, size_t s, size_t *n) {
    return hwfit_svg_escape(in, b, s, n);
}

/* The whole document, through the two-call protocol; the caller frees. */
static char *render(chart_fn fn, const void *in) {
    size_t needed = 0;
    hwfit_status st = fn(in, NULL, 0, &needed);
    cr_assert_eq(st, HWFIT_EBUFSIZE, "size query: %s", hwfit_status_name(st));
    char *buf = malloc(needed);
    cr_assert_not_null(buf);
    size_t again = 0;
    st = fn(in, buf, needed, &again);
    cr_assert_eq(st, HWFIT_OK, "%s", hwfit_status_name(st));
    cr_assert_eq(again, needed);
    cr_assert_eq(strlen(buf) + 1, needed, "needed counts the text and its NUL exactly");
    return buf;
}

/* The status of a call whose outputs are poisoned first; checks they stay untouched. */
static hwfit_status fails_untouched(chart_fn fn, const void *in) {
    char buf[64];
    size_t needed = 12345;
    memset(buf, 0x5a, sizeof buf);
    hwfit_status st = fn(in, buf, sizeof buf, &needed);
    cr_assert_neq(st, HWFIT_OK);
    cr_assert_neq(st, HWFIT_EBUFSIZE);
    for (size_t i = 0; i < sizeof buf; i++) cr_assert_eq(buf[i], 0x5a, "byte %zu written", i);
    cr_assert_eq(needed, 12345u, "needed written on failure");
    return st;
}

/* Attribute `name` of the tag that starts at tag (up to its '>'), as a double. */
static int attr_double(const char *tag, const char *name, double *out) {
    const char *end = strchr(tag, '>');
    char key[64];
    snprintf(key, sizeof key, " %s=\"", name);
    const char *p = strstr(tag, key);
    if (p == NULL || p > end) return 0;
    *out = strtod(p + strlen(key), NULL);
    return 1;
}

/* ---- XML well-formedness: xml_check() of tests/xml_check.h --------------------------- */

#define ASSERT_WELL_FORMED(doc)                                   \
    do {                                                          \
        const char *why_ = xml_check(doc);                        \
        cr_assert_null(why_, "not well-formed: %s", why_);        \
    } while (0)

Test(svg, the_xml_checker_rejects_what_it_should) {
    cr_assert_null(xml_check("<?xml version=\"1.0\"?>\n<a x=\"1\"><b/>t &amp; &#233;</a>\n"));
    cr_assert_not_null(xml_check("<a><b></a></b>"));
    cr_assert_not_null(xml_check("<a>x & y</a>"));
    cr_assert_not_null(xml_check("<a x=\"<\"/>"));
    cr_assert_not_null(xml_check("<a x=\"1\" x=\"2\"/>"));
    cr_assert_not_null(xml_check("<a/><b/>"));
    cr_assert_not_null(xml_check("<a>\x01</a>"));
    cr_assert_not_null(xml_check("<a>\xff</a>"));
    cr_assert_not_null(xml_check("<a>"));
}

/* ---- the charts used by several tests ------------------------------------------------ */

static const char *const gpu_labels[] = {"GPU 0", "GPU 1", "GPU 2", "GPU 3"};
static const char *const part_labels[] = {"Weights", "KV cache", "Activations", "Free"};
/* GB; each GPU's parts sum to 80 GB. */
static const double part_values[] = {
    35e9, 20e9, 5e9, 20e9,   /* GPU 0 */
    35e9, 30e9, 5e9, 10e9,   /* GPU 1 */
    35e9, 10e9, 2.5e9, 32.5e9, /* GPU 2 */
    35e9, 40e9, 5e9, 0.0,    /* GPU 3: full */
};

static hwfit_svg_stacked_bars_in stacked_example(void) {
    hwfit_svg_stacked_bars_in in;
    hwfit_svg_stacked_bars_init(&in);
    in.title = "Memory per GPU & <capacity>";
    in.x_label = "GPU";
    in.y.label = "Memory";
    in.y.unit = HWFIT_UNIT_BYTES;
    in.bar_count = 4;
    in.bar_labels = gpu_labels;
    in.segment_count = 4;
    in.segment_labels = part_labels;
    in.values = part_values;
    in.capacity_set = 1;
    in.capacity = 80e9;
    in.capacity_label = "H100 80GB";
    return in;
}

/* Message sizes 1 KiB .. 1 GiB, every 4x; bus bandwidths in bytes/s. */
static const double sizes[] = {1024.0, 4096.0, 16384.0, 65536.0, 262144.0, 1048576.0,
                               4194304.0, 16777216.0, 67108864.0, 268435456.0, 1073741824.0};
static const double bw_pcie[] = {0.4e9, 1.5e9, 4.8e9, 10.5e9, 15.9e9, 19.6e9,
                                 21.1e9, 21.7e9, 21.9e9, 22.0e9, 22.0e9};
static const double bw_nvlink[] = {0.5e9, 2.0e9, 7.5e9, 25e9, 70e9, 150e9,
                                   250e9, 320e9, 350e9, 358e9, 360e9};

static hwfit_svg_series line_series[2];

static hwfit_svg_lines_in lines_example(void) {
    hwfit_svg_lines_in in;
    hwfit_svg_lines_init(&in);
    line_series[0] = (hwfit_svg_series){"PCIe Gen5 x16", sizes, bw_pcie, 11};
    line_series[1] = (hwfit_svg_series){"NVLink 4", sizes, bw_nvlink, 11};
    in.title = "all_reduce bus bandwidth";
    in.x.label = "Message size";
    in.x.unit = HWFIT_UNIT_BYTES;
    in.x.scale = HWFIT_SVG_SCALE_LOG2;
    in.y.label = "Bus bandwidth";
    in.y.unit = HWFIT_UNIT_BYTES_PER_S;
    in.series = line_series;
    in.series_count = 2;
    return in;
}

static const char *const power_labels[] = {"GPUs", "CPUs", "DIMMs", "Fans"};
static const double power_values[] = {5600.0, 700.0, 320.0, 400.0};
static const hwfit_svg_reference power_refs[] = {
    {"DC total", 7020.0}, {"Usable PSU capacity", 9000.0}, {"Headroom", 9000.0 / 1.3}};

static hwfit_svg_budget_in budget_example(void) {
    hwfit_svg_budget_in in;
    hwfit_svg_budget_init(&in);
    in.title = "Power budget";
    in.x.label = "Power";
    in.x.unit = HWFIT_UNIT_WATTS;
    in.bar_count = 4;
    in.bar_labels = power_labels;
    in.values = power_values;
    in.reference_count = 3;
    in.references = power_refs;
    return in;
}

/* ---- escaping -------------------------------------------------------------------------- */

static char *escaped(const char *text) { return render(call_escape, text); }

Test(svg, escapes_the_five_xml_specials) {
    char *s = escaped("a&b<c>\"d\"'e'");
    cr_assert_str_eq(s, "a&amp;b&lt;c&gt;&quot;d&quot;&apos;e&apos;");
    free(s);
}

Test(svg, drops_control_characters) {
    char *s = escaped("a\tb\nc\rd\x01\x1f\x7f" "e");
    cr_assert_str_eq(s, "abcde");
    free(s);
}

Test(svg, passes_valid_utf8_through) {
    const char *text = "\xC3\xA9t\xC3\xA9 \xE4\xB8\xAD \xF0\x9F\x98\x80 \xC2\xB5s"; /* été 中 😀 µs */
    char *s = escaped(text);
    cr_assert_str_eq(s, text);
    free(s);
}

Test(svg, replaces_invalid_utf8_byte_by_byte) {
    /* A stray continuation byte, an overlong '/', an encoded surrogate (U+D800), a
     * truncated sequence, and U+FFFF, which XML forbids. Each bad byte gives U+FFFD. */
    char *s = escaped("a\x80" "b\xC0\xAF" "c\xED\xA0\x80" "d\xE4\xB8" "e\xEF\xBF\xBF" "f");
    cr_assert_str_eq(s, "a\xEF\xBF\xBD" "b\xEF\xBF\xBD\xEF\xBF\xBD"
                        "c\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"
                        "d\xEF\xBF\xBD\xEF\xBF\xBD" "e\xEF\xBF\xBD" "f");
    free(s);
}

Test(svg, escaped_labels_keep_every_chart_well_formed) {
    static const char *const bad[] = {"<&>\"'", "\x01\xff\xfe", "]]>", "\xED\xA0\x80"};
    static const double v[] = {1.0, 2.0, 3.0, 4.0};
    hwfit_svg_stacked_bars_in in;
    hwfit_svg_stacked_bars_init(&in);
    in.title = "<script>alert('x')</script>";
    in.x_label = "&amp";
    in.y.label = "\"quoted\"";
    in.bar_count = 2;
    in.bar_labels = bad;
    in.segment_count = 2;
    in.segment_labels = bad + 2;
    in.values = v;
    char *doc = render(call_stacked, &in);
    ASSERT_WELL_FORMED(doc);
    cr_assert_null(strstr(doc, "<script"));
    free(doc);
}

Test(svg, random_bytes_in_labels_never_break_the_xml) {
    /* 300 charts whose labels are random bytes 1..255 (a fixed xorshift seed keeps the
     * cases reproducible): every one must stay well-formed UTF-8 XML. */
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    char labels[6][24];
    const char *ptrs[6];
    static const double v[] = {1.0, 2.0, 3.0, 4.0};
    for (int it = 0; it < 300; it++) {
        for (size_t k = 0; k < 6; k++) {
            size_t n = 0;
            for (; n < 23; n++) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                labels[k][n] = (char)(1 + seed % 255u);
            }
            labels[k][n] = '\0';
            ptrs[k] = labels[k];
        }
        hwfit_svg_stacked_bars_in in;
        hwfit_svg_stacked_bars_init(&in);
        in.title = ptrs[0];
        in.x_label = ptrs[1];
        in.y.label = ptrs[2];
        in.bar_count = 2;
        in.bar_labels = ptrs + 2;
        in.segment_count = 2;
        in.segment_labels = ptrs + 4;
        in.values = v;
        char *doc = render(call_stacked, &in);
        ASSERT_WELL_FORMED(doc);
        free(doc);
    }
}

/* ---- the buffer protocol ----------------------------------------------------------------- */

Test(svg, reports_the_exact_size_and_fills_an_exact_buffer) {
    hwfit_svg_budget_in in = budget_example();
    size_t needed = 0;
    cr_assert_eq(hwfit_svg_budget(&in, NULL, 0, &needed), HWFIT_EBUFSIZE);
    char *buf = malloc(needed);
    size_t again = 0;
    cr_assert_eq(hwfit_svg_budget(&in, buf, needed, &again), HWFIT_OK);
    cr_assert_eq(again, needed);
    cr_assert_eq(strlen(buf), needed - 1);
    cr_assert_eq(hwfit_svg_budget(&in, buf, needed, NULL), HWFIT_OK, "needed may be NULL");
    free(buf);
}

Test(svg, a_buffer_one_byte_short_is_left_untouched) {
    hwfit_svg_lines_in in = lines_example();
    size_t needed = 0;
    cr_assert_eq(hwfit_svg_lines(&in, NULL, 0, &needed), HWFIT_EBUFSIZE);
    char *buf = malloc(needed);
    memset(buf, 0x5a, needed);
    size_t reported = 0;
    cr_assert_eq(hwfit_svg_lines(&in, buf, needed - 1, &reported), HWFIT_EBUFSIZE);
    cr_assert_eq(reported, needed, "EBUFSIZE still reports the size");
    for (size_t i = 0; i < needed; i++) cr_assert_eq(buf[i], 0x5a, "byte %zu written", i);
    /* A NULL buffer with a size is a mistake, not a size query. */
    cr_assert_eq(hwfit_svg_lines(&in, NULL, 10, &reported), HWFIT_EINVAL);
    free(buf);
}

Test(svg, escape_follows_the_same_protocol) {
    char buf[8];
    size_t needed = 0;
    memset(buf, 0x5a, sizeof buf);
    cr_assert_eq(hwfit_svg_escape("a<b", buf, 6, &needed), HWFIT_EBUFSIZE);
    cr_assert_eq(needed, 7u); /* "a&lt;b" + NUL */
    cr_assert_eq(buf[0], 0x5a);
    cr_assert_eq(hwfit_svg_escape("a<b", buf, 7, &needed), HWFIT_OK);
    cr_assert_str_eq(buf, "a&lt;b");
    cr_assert_eq(hwfit_svg_escape(NULL, buf, 7, &needed), HWFIT_EINVAL);
    cr_assert_eq(hwfit_svg_escape("", buf, 1, &needed), HWFIT_OK);
    cr_assert_eq(needed, 1u);
}

/* ---- determinism and well-formedness ------------------------------------------------------ */

Test(svg, the_same_input_gives_the_same_bytes) {
    hwfit_svg_stacked_bars_in s = stacked_example();
    hwfit_svg_lines_in l = lines_example();
    hwfit_svg_budget_in b = budget_example();
    const struct {
        chart_fn fn;
        const void *in;
    } charts[] = {{call_stacked, &s}, {call_lines, &l}, {call_budget, &b}};
    for (size_t i = 0; i < 3; i++) {
        char *first = render(charts[i].fn, charts[i].in);
        char *second = render(charts[i].fn, charts[i].in);
        cr_assert_str_eq(first, second);
        free(second);
        /* A host program with a decimal comma must not change a byte. */
        if (setlocale(LC_ALL, "de_DE.UTF-8") != NULL || setlocale(LC_ALL, "fr_FR.UTF-8") != NULL) {
            char *localized = render(charts[i].fn, charts[i].in);
            cr_assert_str_eq(first, localized);
            free(localized);
        }
        setlocale(LC_ALL, "C");
        free(first);
    }
}

Test(svg, every_chart_is_well_formed_xml) {
    hwfit_svg_stacked_bars_in s = stacked_example();
    hwfit_svg_lines_in l = lines_example();
    hwfit_svg_budget_in b = budget_example();
    char *doc = render(call_stacked, &s);
    ASSERT_WELL_FORMED(doc);
    cr_assert(strncmp(doc, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 44) == 0);
    cr_assert_not_null(strstr(doc, "<title>Memory per GPU &amp; &lt;capacity&gt;</title>"));
    free(doc);
    doc = render(call_lines, &l);
    ASSERT_WELL_FORMED(doc);
    free(doc);
    doc = render(call_budget, &b);
    ASSERT_WELL_FORMED(doc);
    free(doc);
    /* Variants: log10 both ways, no markers, no title, a small picture, no references. */
    l.x.scale = HWFIT_SVG_SCALE_LOG10;
    l.y.scale = HWFIT_SVG_SCALE_LOG10;
    l.markers = 0;
    l.title = "";
    l.width_px = 400;
    l.height_px = 300;
    doc = render(call_lines, &l);
    ASSERT_WELL_FORMED(doc);
    cr_assert_null(strstr(doc, "<circle"), "markers off");
    free(doc);
    b.reference_count = 0;
    b.show_total = 0;
    doc = render(call_budget, &b);
    ASSERT_WELL_FORMED(doc);
    cr_assert_null(strstr(doc, "class=\"total\""));
    free(doc);
}

/* ---- numbers --------------------------------------------------------------------------- */

static const char *fixed(double v, int decimals, int trim) {
    static char out[HWFIT__SVG_LABEL_SIZE];
    hwfit__svg_format_fixed(v, decimals, trim, out);
    return out;
}

Test(svg, formats_fixed_point_numbers_by_hand) {
    cr_assert_str_eq(fixed(12.5, 2, 1), "12.5");
    cr_assert_str_eq(fixed(12.5, 2, 0), "12.50");
    cr_assert_str_eq(fixed(123.456, 1, 1), "123.5");
    cr_assert_str_eq(fixed(2.5, 0, 1), "3"); /* half away from zero */
    cr_assert_str_eq(fixed(0.0, 2, 0), "0.00");
    cr_assert_str_eq(fixed(-0.001, 2, 1), "0"); /* no "-0" */
    cr_assert_str_eq(fixed(-1.25, 2, 1), "-1.25");
    cr_assert_str_eq(fixed(480.0, 2, 1), "480");
    cr_assert_str_eq(fixed(0.05, 2, 0), "0.05");
    cr_assert_str_eq(fixed(1e20, 0, 1), "100000000000000000000");
    cr_assert_str_eq(fixed(1e-21, 24, 1), "0.000000000000000000001");
}

Test(svg, numbers_ignore_the_process_locale) {
    if (setlocale(LC_NUMERIC, "de_DE.UTF-8") == NULL) setlocale(LC_NUMERIC, "C");
    cr_assert_str_eq(fixed(1.5, 1, 1), "1.5");
    setlocale(LC_NUMERIC, "C");
}

Test(svg, log2_is_exact_at_powers_of_two_and_close_elsewhere) {
    for (int e = -60; e <= 100; e++) cr_assert_eq(hwfit__svg_log2(ldexp(1.0, e)), (double)e);
    /* Within 4 ulp of the C library's log2 (a relative error of about 1e-15), which is
     * far below the 1/100 px that coordinates carry. */
    for (double x = 1e-30; x < 1e30; x *= 1.37) {
        double want = log2(x), got = hwfit__svg_log2(x);
        cr_assert(fabs(got - want) <= 4.0 * 2.220446049250313e-16 * fmax(1.0, fabs(want)),
                  "log2(%g): got %.17g want %.17g", x, got, want);
    }
}

Test(svg, floor_log10_is_exact_at_powers_of_ten) {
    cr_assert_eq(hwfit__svg_floor_log10(1000.0), 3);
    cr_assert_eq(hwfit__svg_floor_log10(999.999), 2);
    cr_assert_eq(hwfit__svg_floor_log10(1.0), 0);
    cr_assert_eq(hwfit__svg_floor_log10(0.001), -3);
    cr_assert_eq(hwfit__svg_floor_log10(0.00099), -4);
    cr_assert_eq(hwfit__svg_floor_log10(1e22), 22);
    cr_assert_eq(hwfit__svg_floor_log10(1e30), 30);
    cr_assert_eq(hwfit__svg_pow10(22), 1e22);
    cr_assert_eq(hwfit__svg_pow10(-3), 0.001);
}

/* ---- ticks ----------------------------------------------------------------------------- */

static hwfit_svg_axis axis_of(hwfit_unit unit, hwfit_svg_scale scale, int include_zero) {
    hwfit_svg_axis a = {"", unit, scale, HWFIT_SVG_PREFIX_AUTO, include_zero};
    return a;
}

static hwfit__svg_ticks ticks(hwfit_svg_axis a, double lo, double hi, size_t target) {
    hwfit__svg_ticks t;
    cr_assert_eq(hwfit__svg_ticks_make(&a, lo, hi, target, &t), HWFIT_OK);
    return t;
}

static void assert_labels(const hwfit__svg_ticks *t, const char *const *want, size_t n) {
    cr_assert_eq(t->count, n, "got %zu ticks, want %zu", t->count, n);
    for (size_t i = 0; i < n; i++) cr_assert_str_eq(t->label[i], want[i], "tick %zu", i);
}

Test(svg, nice_numbers_match_heckberts_rules) {
    /* Heckbert (Graphics Gems, 1990): rounded, f < 1.5 -> 1, < 3 -> 2, < 7 -> 5, else 10;
     * not rounded (ceiling), f <= 1 -> 1, <= 2 -> 2, <= 5 -> 5, else 10. */
    cr_assert_eq(hwfit__svg_nice_number(438.0, 0), 500.0);
    cr_assert_eq(hwfit__svg_nice_number(125.0, 1), 100.0);
    cr_assert_eq(hwfit__svg_nice_number(0.12, 0), 0.2);
    cr_assert_eq(hwfit__svg_nice_number(0.05, 1), 0.05);
    cr_assert_eq(hwfit__svg_nice_number(2.5, 1), 2.0);
    cr_assert_eq(hwfit__svg_nice_number(3.0, 1), 5.0);
    cr_assert_eq(hwfit__svg_nice_number(7.0, 1), 10.0);
    cr_assert_eq(hwfit__svg_nice_number(5.0, 0), 5.0);
    cr_assert_eq(hwfit__svg_nice_number(5.01, 0), 10.0);
}

Test(svg, linear_ticks_reproduce_heckberts_examples) {
    /* Heckbert's first example: data 105..543 with 5 ticks -> 100..600 every 100
     * (range nice(438) = 500, spacing nice(500/4 = 125, rounded) = 100). */
    hwfit__svg_ticks t = ticks(axis_of(HWFIT_UNIT_NONE, HWFIT_SVG_SCALE_LINEAR, 0), 105, 543, 5);
    static const char *const a[] = {"100", "200", "300", "400", "500", "600"};
    assert_labels(&t, a, 6);
    cr_assert_eq(t.lo, 100.0);
    cr_assert_eq(t.hi, 600.0);
    /* Second: 2.04..2.16 -> 2.00..2.20 every 0.05, two decimals on every label
     * (range nice(0.12) = 0.2, spacing nice(0.05, rounded) = 0.05). */
    t = ticks(axis_of(HWFIT_UNIT_NONE, HWFIT_SVG_SCALE_LINEAR, 0), 2.04, 2.16, 5);
    static const char *const b[] = {"2.00", "2.05", "2.10", "2.15", "2.20"};
    assert_labels(&t, b, 5);
    cr_assert_eq(t.decimals, 2);
}

Test(svg, linear_ticks_carry_the_unit_with_one_prefix_per_axis) {
    /* 0..78 GB, 5 ticks: range nice(78) = 100, spacing nice(25, rounded) = 20. */
    hwfit__svg_ticks t = ticks(axis_of(HWFIT_UNIT_BYTES, HWFIT_SVG_SCALE_LINEAR, 1), 0, 78e9, 5);
    static const char *const a[] = {"0", "20 GB", "40 GB", "60 GB", "80 GB"};
    assert_labels(&t, a, 5);
    cr_assert_eq(t.value[2], 40e9);
    /* Binary prefixes make nice numbers of GiB, not of bytes. */
    hwfit_svg_axis gib = axis_of(HWFIT_UNIT_BYTES, HWFIT_SVG_SCALE_LINEAR, 1);
    gib.prefix = HWFIT_SVG_PREFIX_BINARY;
    t = ticks(gib, 0, 70.0 * HWFIT_GIBI, 5);
    static const char *const b[] = {"0", "20 GiB", "40 GiB", "60 GiB", "80 GiB"};
    assert_labels(&t, b, 5);
    cr_assert_eq(t.value[1], 20.0 * HWFIT_GIBI);
    /* 0..1.5 kW every 0.5 kW: the prefix follows the largest value, decimals the step. */
    t = ticks(axis_of(HWFIT_UNIT_WATTS, HWFIT_SVG_SCALE_LINEAR, 1), 0, 1400, 4);
    static const char *const c[] = {"0", "0.5 kW", "1.0 kW", "1.5 kW"};
    assert_labels(&t, c, 4);
    /* Plain numbers: no prefix below 10,000, a letter and no space above. */
    t = ticks(axis_of(HWFIT_UNIT_NONE, HWFIT_SVG_SCALE_LINEAR, 1), 0, 19000, 5);
    static const char *const d[] = {"0", "5k", "10k", "15k", "20k"};
    assert_labels(&t, d, 5);
}

Test(svg, a_constant_series_still_gets_an_axis) {
    hwfit__svg_ticks t = ticks(axis_of(HWFIT_UNIT_NONE, HWFIT_SVG_SCALE_LINEAR, 0), 7, 7, 5);
    cr_assert(t.lo <= 7.0 && t.hi >= 7.0 && t.hi > t.lo);
    t = ticks(axis_of(HWFIT_UNIT_NONE, HWFIT_SVG_SCALE_LINEAR, 1), 0, 0, 5);
    cr_assert_eq(t.lo, 0.0);
    cr_assert_eq(t.hi, 1.0);
}

Test(svg, log2_ticks_are_powers_of_two_with_binary_labels) {
    /* 8 B .. 8 GiB = 2^3 .. 2^33 with at most 8 ticks: steps of 1 (31 ticks) and 2 (15)
     * are too many; 5 octaves give 2^5, 2^10, ..., 2^30. */
    hwfit__svg_ticks t =
        ticks(axis_of(HWFIT_UNIT_BYTES, HWFIT_SVG_SCALE_LOG2, 0), 8.0, 8.0 * HWFIT_GIBI, 8);
    static const char *const a[] = {"32 B", "1 KiB", "32 KiB", "1 MiB", "32 MiB", "1 GiB"};
    assert_labels(&t, a, 6);
    cr_assert_eq(t.lo, 8.0);
    cr_assert_eq(t.hi, 8.0 * HWFIT_GIBI);
    cr_assert_eq(t.step, 5.0);
    /* Every inner octave that is not labelled is a minor grid line: 2^4..2^32 are 29,
     * six of them labelled. */
    cr_assert_eq(t.minor_count, 23u);
    /* 1 B .. 1 TiB with room for 11: steps of 1 (41 ticks) and 2 (21) are too many, 5
     * octaves give 9. */
    t = ticks(axis_of(HWFIT_UNIT_BYTES, HWFIT_SVG_SCALE_LOG2, 0), 1.0, HWFIT_TEBI, 11);
    static const char *const b[] = {"1 B", "32 B", "1 KiB", "32 KiB", "1 MiB", "32 MiB",
                                    "1 GiB", "32 GiB", "1 TiB"};
    assert_labels(&t, b, 9);
    /* Data inside one octave still spans a whole one: 3..3.5 -> 2..4. */
    t = ticks(axis_of(HWFIT_UNIT_NONE, HWFIT_SVG_SCALE_LOG2, 0), 3.0, 3.5, 5);
    cr_assert_eq(t.lo, 2.0);
    cr_assert_eq(t.hi, 4.0);
}

Test(svg, log10_ticks_are_powers_of_ten_with_si_labels) {
    hwfit__svg_ticks t = ticks(axis_of(HWFIT_UNIT_NONE, HWFIT_SVG_SCALE_LOG10, 0), 1e3, 1e7, 10);
    static const char *const a[] = {"1k", "10k", "100k", "1M", "10M"};
    assert_labels(&t, a, 5);
    cr_assert_eq(t.minor_count, 4u * 8u, "2..9 in each of 4 decades");
    cr_assert_eq(t.minor[0], 2e3);
    /* 1 ns .. 1000 s in at most 5 ticks: every 3 decades, durations in s, ms, us, ns. */
    t = ticks(axis_of(HWFIT_UNIT_SECONDS, HWFIT_SVG_SCALE_LOG10, 0), 1e-9, 1e3, 5);
    static const char *const b[] = {"1 ns", "1 us", "1 ms", "1 s", "1000 s"};
    assert_labels(&t, b, 5);
    /* Bytes on a log10 axis use decimal prefixes. */
    t = ticks(axis_of(HWFIT_UNIT_BYTES_PER_S, HWFIT_SVG_SCALE_LOG10, 0), 1e6, 1e12, 3);
    static const char *const c[] = {"1 MB/s", "1 GB/s", "1 TB/s"};
    assert_labels(&t, c, 3);
}

Test(svg, log_positions_are_proportional_to_the_exponent) {
    hwfit__svg_ticks t =
        ticks(axis_of(HWFIT_UNIT_BYTES, HWFIT_SVG_SCALE_LOG2, 0), 8.0, 8.0 * HWFIT_GIBI, 8);
    cr_assert_eq(hwfit__svg_ticks_fraction(&t, 8.0), 0.0);
    cr_assert_eq(hwfit__svg_ticks_fraction(&t, 8.0 * HWFIT_GIBI), 1.0);
    cr_assert_eq(hwfit__svg_ticks_fraction(&t, ldexp(1.0, 18)), 0.5); /* (18-3)/(33-3) */
    /* 3 * 2^10 lies log2(3) = 1.585 octaves above 2^10: (7 + 1.585) / 30. */
    cr_assert(fabs(hwfit__svg_ticks_fraction(&t, 3072.0) - (7.0 + log2(3.0)) / 30.0) < 1e-14);
    t = ticks(axis_of(HWFIT_UNIT_NONE, HWFIT_SVG_SCALE_LOG10, 0), 1e3, 1e7, 10);
    /* 10^5 halfway; 2e3 at log10(2)/4 = 0.0753 (tolerance: a few ulp of the logarithm). */
    cr_assert(fabs(hwfit__svg_ticks_fraction(&t, 1e5) - 0.5) < 1e-14);
    cr_assert(fabs(hwfit__svg_ticks_fraction(&t, 2e3) - log10(2.0) / 4.0) < 1e-14);
}

Test(svg, values_are_written_with_four_significant_digits) {
    hwfit_svg_axis a = axis_of(HWFIT_UNIT_WATTS, HWFIT_SVG_SCALE_LINEAR, 1);
    char out[HWFIT__SVG_LABEL_SIZE];
    hwfit__svg_format_value(&a, 9000.0 / 1.3, out);
    cr_assert_str_eq(out, "6.923 kW");
    hwfit__svg_format_value(&a, 999.97, out);
    cr_assert_str_eq(out, "1 kW"); /* not "1000 W" */
    a.unit = HWFIT_UNIT_BYTES;
    hwfit__svg_format_value(&a, 141.1e9, out);
    cr_assert_str_eq(out, "141.1 GB");
    a.unit = HWFIT_UNIT_SECONDS;
    hwfit__svg_format_value(&a, 5400.0, out);
    cr_assert_str_eq(out, "1.5 h");
    a.unit = HWFIT_UNIT_NONE;
    hwfit__svg_format_value(&a, 0.25, out);
    cr_assert_str_eq(out, "0.25");
}

/* ---- geometry read back from the output -------------------------------------------------- */

Test(svg, stacked_segment_heights_are_proportional_to_their_values) {
    hwfit_svg_stacked_bars_in in = stacked_example();
    char *doc = render(call_stacked, &in);
    double px_per_byte = 0.0;
    size_t rects = 0;
    double bottom[4] = {0}, top_of_stack[4] = {0};
    for (const char *p = strstr(doc, "<rect class=\"segment\""); p != NULL;
         p = strstr(p + 1, "<rect class=\"segment\"")) {
        double bar, seg, y, h;
        cr_assert(attr_double(p, "data-bar", &bar) && attr_double(p, "data-segment", &seg));
        cr_assert(attr_double(p, "y", &y) && attr_double(p, "height", &h));
        size_t i = (size_t)bar, j = (size_t)seg;
        double v = part_values[i * 4 + j];
        cr_assert(v > 0.0, "zero segments draw nothing");
        /* Coordinates carry 1/100 px, so each is within 0.005 px of the exact value. */
        if (px_per_byte == 0.0) px_per_byte = h / v;
        cr_assert(fabs(h - v * px_per_byte) <= 0.011, "bar %zu segment %zu: %g vs %g", i, j, h,
                  v * px_per_byte);
        /* Segments stack: each starts where the previous one ended. */
        if (j == 0) {
            bottom[i] = y + h;
            top_of_stack[i] = y;
        } else {
            cr_assert(fabs(y + h - top_of_stack[i]) <= 0.011);
            top_of_stack[i] = y;
        }
        rects++;
    }
    cr_assert_eq(rects, 15u, "16 segments, one of them zero");
    for (size_t i = 1; i < 4; i++) cr_assert(fabs(bottom[i] - bottom[0]) < 1e-9);
    /* Every stack sums to 80 GB, the capacity line's height. */
    const char *cap = strstr(doc, "<line class=\"capacity\"");
    double cy;
    cr_assert(cap != NULL && attr_double(cap, "y1", &cy));
    for (size_t i = 0; i < 4; i++) cr_assert(fabs(top_of_stack[i] - cy) <= 0.05);
    cr_assert(fabs(bottom[0] - cy - 80e9 * px_per_byte) <= 0.02);
    free(doc);
}

Test(svg, points_at_powers_of_two_are_evenly_spaced_on_a_log2_axis) {
    hwfit_svg_lines_in in = lines_example();
    char *doc = render(call_lines, &in);
    const char *p = strstr(doc, "points=\"");
    cr_assert_not_null(p);
    p += 8;
    double xs[11];
    for (size_t i = 0; i < 11; i++) {
        char *end;
        xs[i] = strtod(p, &end);
        cr_assert_eq(*end, ',');
        strtod(end + 1, &end);
        p = end + 1;
    }
    /* Sizes go up by 4x: two octaves, the same distance each time (within 1/100 px). */
    for (size_t i = 2; i < 11; i++)
        cr_assert(fabs((xs[i] - xs[i - 1]) - (xs[1] - xs[0])) <= 0.011, "gap %zu", i);
    free(doc);
}

Test(svg, budget_bars_and_total_agree) {
    hwfit_svg_budget_in in = budget_example();
    char *doc = render(call_budget, &in);
    double widths[4], x0 = 0.0, total_w = 0.0;
    size_t n = 0;
    for (const char *p = strstr(doc, "<rect class=\"bar\""); p; p = strstr(p + 1, "<rect class=\"bar\"")) {
        cr_assert(n < 4);
        cr_assert(attr_double(p, "width", &widths[n]) && attr_double(p, "x", &x0));
        n++;
    }
    cr_assert_eq(n, 4u);
    for (const char *p = strstr(doc, "<rect class=\"total\""); p;
         p = strstr(p + 1, "<rect class=\"total\"")) {
        double w;
        cr_assert(attr_double(p, "width", &w));
        total_w += w;
    }
    /* The total bar is the sum of the component bars (4 roundings of 0.005 px each). */
    cr_assert(fabs(total_w - (widths[0] + widths[1] + widths[2] + widths[3])) <= 0.02);
    cr_assert(fabs(widths[0] / widths[1] - 5600.0 / 700.0) < 1e-3);
    /* The DC total line stands at the end of the total bar. */
    const char *ref = strstr(doc, "data-reference=\"0\"");
    double rx;
    cr_assert(ref && attr_double(ref, "x1", &rx));
    cr_assert(fabs(rx - (x0 + total_w)) <= 0.03);
    free(doc);
}

/* ---- defaults and palette ----------------------------------------------------------------- */

Test(svg, init_fills_the_documented_defaults) {
    hwfit_svg_stacked_bars_in s;
    memset(&s, 0x5a, sizeof s);
    hwfit_svg_stacked_bars_init(&s);
    cr_assert_eq(s.width_px, 800.0);
    cr_assert_eq(s.height_px, 480.0);
    cr_assert_str_eq(s.capacity_label, "Capacity");
    cr_assert_eq(s.capacity_set, 0);
    cr_assert_eq(s.show_totals, 1);
    cr_assert_null(s.values);
    cr_assert_eq(s.y.scale, HWFIT_SVG_SCALE_LINEAR);
    hwfit_svg_lines_in l;
    memset(&l, 0x5a, sizeof l);
    hwfit_svg_lines_init(&l);
    cr_assert_eq(l.x.include_zero, 0);
    cr_assert_eq(l.y.include_zero, 1);
    cr_assert_eq(l.markers, 1);
    cr_assert_str_eq(l.x.label, "");
    hwfit_svg_budget_in b;
    memset(&b, 0x5a, sizeof b);
    hwfit_svg_budget_init(&b);
    cr_assert_eq(b.show_total, 1);
    cr_assert_str_eq(b.total_label, "Total");
    cr_assert_eq(b.reference_count, 0u);
    hwfit_svg_stacked_bars_init(NULL);
    hwfit_svg_lines_init(NULL);
    hwfit_svg_budget_init(NULL);
}

Test(svg, the_palette_is_okabe_ito_without_black) {
    /* Okabe and Ito (2008): blue (0,114,178), orange (230,159,0), bluish green (0,158,115),
     * vermillion (213,94,0), reddish purple (204,121,167), sky blue (86,180,233),
     * yellow (240,228,66). */
    static const uint32_t want[] = {0x0072B2, 0xE69F00, 0x009E73, 0xD55E00,
                                    0xCC79A7, 0x56B4E9, 0xF0E442};
    for (size_t i = 0; i < 7; i++) {
        cr_assert_eq(hwfit_svg_color(i), want[i]);
        cr_assert_eq(hwfit_svg_color(i + HWFIT_SVG_PALETTE_SIZE), want[i]);
    }
    hwfit_svg_stacked_bars_in in = stacked_example();
    char *doc = render(call_stacked, &in);
    cr_assert_not_null(strstr(doc, "fill=\"#0072B2\""));
    free(doc);
    static const uint32_t colors[] = {0x112233, 0x445566, 0x778899, 0xDDDDDD};
    in.segment_colors = colors;
    doc = render(call_stacked, &in);
    cr_assert_not_null(strstr(doc, "fill=\"#DDDDDD\""));
    cr_assert_null(strstr(doc, "fill=\"#0072B2\""));
    free(doc);
}

/* ---- error paths ---------------------------------------------------------------------------- */

Test(svg, stacked_bars_refuse_bad_input_without_writing) {
    hwfit_svg_stacked_bars_in in = stacked_example();
    cr_assert_eq(fails_untouched(call_stacked, NULL), HWFIT_EINVAL);
    const char *const with_null[] = {"GPU 0", NULL, "GPU 2", "GPU 3"};
    double bad_values[16];
    hwfit_svg_stacked_bars_in c;
#define CASE(field_change, want)                                  \
    do {                                                          \
        c = in;                                                   \
        field_change;                                             \
        cr_assert_eq(fails_untouched(call_stacked, &c), want);    \
    } while (0)
    CASE(c.title = NULL, HWFIT_EINVAL);
    CASE(c.x_label = NULL, HWFIT_EINVAL);
    CASE(c.y.label = NULL, HWFIT_EINVAL);
    CASE(c.capacity_label = NULL, HWFIT_EINVAL);
    CASE(c.bar_labels = NULL, HWFIT_EINVAL);
    CASE(c.bar_labels = with_null, HWFIT_EINVAL);
    CASE(c.segment_labels = with_null, HWFIT_EINVAL);
    CASE(c.values = NULL, HWFIT_EINVAL);
    CASE(c.y.unit = (hwfit_unit)99, HWFIT_EINVAL);
    CASE(c.y.prefix = (hwfit_svg_prefix)3, HWFIT_EINVAL);
    CASE(c.y.scale = HWFIT_SVG_SCALE_LOG10, HWFIT_EINVAL);
    CASE(c.bar_count = 0, HWFIT_EDOM);
    CASE(c.segment_count = 0, HWFIT_EDOM);
    CASE(c.capacity = NAN, HWFIT_EDOM);
    CASE(c.capacity = -1.0, HWFIT_EDOM);
    CASE(c.width_px = 100.0, HWFIT_EDOM);
    CASE(c.height_px = INFINITY, HWFIT_EDOM);
    CASE(c.width_px = 20000.0, HWFIT_EDOM);
    static const uint32_t too_big[] = {0x1000000, 0, 0, 0};
    CASE(c.segment_colors = too_big, HWFIT_EINVAL);
    const double specials[] = {NAN, INFINITY, -INFINITY, -1.0, 2e30};
    for (size_t k = 0; k < 5; k++) {
        memcpy(bad_values, part_values, sizeof bad_values);
        bad_values[5] = specials[k];
        CASE(c.values = bad_values, HWFIT_EDOM);
    }
    /* Two values within range whose sum is not. */
    memcpy(bad_values, part_values, sizeof bad_values);
    bad_values[0] = 0.6e30;
    bad_values[1] = 0.6e30;
    CASE(c.values = bad_values, HWFIT_ERANGE);
    /* N x M overflowing size_t is refused before any array is read. */
    CASE((c.bar_count = SIZE_MAX / 2 + 1, c.segment_count = 2), HWFIT_ERANGE);
    /* Labels so long that no plot remains. */
    static const char *const long_labels[] = {
        "an extremely long segment label that takes the whole width of a small chart and more",
        "b", "c", "d"};
    CASE((c.segment_labels = long_labels, c.width_px = 200.0, c.height_px = 200.0), HWFIT_EDOM);
#undef CASE
}

Test(svg, lines_refuse_bad_input_without_writing) {
    hwfit_svg_lines_in in = lines_example();
    hwfit_svg_lines_in c;
    hwfit_svg_series s[2];
    static const double zero_x[] = {0.0, 1.0};
    static const double nan_y[] = {1.0, NAN};
    static const double tiny[] = {1e-31, 1.0};
    cr_assert_eq(fails_untouched(call_lines, NULL), HWFIT_EINVAL);
#define CASE(field_change, want)                                                     \
    do {                                                                             \
        c = in;                                                                      \
        memcpy(s, line_series, sizeof s);                                            \
        c.series = s;                                                                \
        field_change;                                                                \
        cr_assert_eq(fails_untouched(call_lines, &c), want, "%s", #field_change);   \
    } while (0)
    CASE(c.title = NULL, HWFIT_EINVAL);
    CASE(c.x.label = NULL, HWFIT_EINVAL);
    CASE(c.series = NULL, HWFIT_EINVAL);
    CASE(s[1].label = NULL, HWFIT_EINVAL);
    CASE(s[0].x = NULL, HWFIT_EINVAL);
    CASE(s[0].y = NULL, HWFIT_EINVAL);
    CASE(c.x.scale = (hwfit_svg_scale)3, HWFIT_EINVAL);
    CASE(c.series_count = 0, HWFIT_EDOM);
    CASE(s[1].count = 0, HWFIT_EDOM);
    CASE((s[0].x = zero_x, s[0].count = 2), HWFIT_EDOM); /* zero on a log axis */
    CASE((s[0].x = tiny, s[0].count = 2), HWFIT_EDOM);   /* below HWFIT_SVG_LOG_MIN */
    CASE((s[0].y = nan_y, s[0].count = 2), HWFIT_EDOM);
    CASE(c.height_px = NAN, HWFIT_EDOM);
#undef CASE
    /* Zero is fine on a linear axis. */
    c = in;
    memcpy(s, line_series, sizeof s);
    s[0].x = zero_x;
    s[0].y = zero_x;
    s[0].count = 2;
    c.series = s;
    c.x.scale = HWFIT_SVG_SCALE_LINEAR;
    free(render(call_lines, &c));
}

Test(svg, budget_refuses_bad_input_without_writing) {
    hwfit_svg_budget_in in = budget_example();
    hwfit_svg_budget_in c;
    const char *const with_null[] = {"GPUs", NULL, "DIMMs", "Fans"};
    static const double neg[] = {1.0, -2.0, 3.0, 4.0};
    static const double huge[] = {0.6e30, 0.6e30, 1.0, 1.0};
    const hwfit_svg_reference bad_ref[] = {{"x", NAN}};
    const hwfit_svg_reference null_ref[] = {{NULL, 1.0}};
    cr_assert_eq(fails_untouched(call_budget, NULL), HWFIT_EINVAL);
#define CASE(field_change, want)                                  \
    do {                                                          \
        c = in;                                                   \
        field_change;                                             \
        cr_assert_eq(fails_untouched(call_budget, &c), want);     \
    } while (0)
    CASE(c.title = NULL, HWFIT_EINVAL);
    CASE(c.total_label = NULL, HWFIT_EINVAL);
    CASE(c.x.label = NULL, HWFIT_EINVAL);
    CASE(c.bar_labels = with_null, HWFIT_EINVAL);
    CASE(c.values = NULL, HWFIT_EINVAL);
    CASE(c.references = NULL, HWFIT_EINVAL);
    CASE((c.references = null_ref, c.reference_count = 1), HWFIT_EINVAL);
    CASE(c.x.scale = HWFIT_SVG_SCALE_LOG2, HWFIT_EINVAL);
    CASE(c.bar_count = 0, HWFIT_EDOM);
    CASE(c.values = neg, HWFIT_EDOM);
    CASE((c.references = bad_ref, c.reference_count = 1), HWFIT_EDOM);
    CASE(c.values = huge, HWFIT_ERANGE);
#undef CASE
    /* No references at all is fine, with a NULL array. */
    c = in;
    c.references = NULL;
    c.reference_count = 0;
    free(render(call_budget, &c));
}

/* ---- golden files ---------------------------------------------------------------------------- */

static void golden(const char *name, chart_fn fn, const void *in) {
    char path[1024];
    snprintf(path, sizeof path, "%s/svg/%s", HWFIT_TEST_DATA, name);
    char *doc = render(fn, in);
    const char *regen = getenv("HWFIT_SVG_REGENERATE");
    if (regen != NULL && regen[0] == '1') {
        FILE *f = fopen(path, "wb");
        cr_assert_not_null(f, "cannot write %s", path);
        fputs(doc, f);
        fclose(f);
    }
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot read %s (regenerate: see the top of this file)", path);
    static char want[1 << 17];
    size_t n = fread(want, 1, sizeof want - 1, f);
    fclose(f);
    want[n] = '\0';
    cr_assert_eq(n, strlen(doc), "%s: %zu bytes, now %zu", name, n, strlen(doc));
    cr_assert(memcmp(want, doc, n) == 0, "%s differs from the golden file", name);
    free(doc);
}

Test(svg, golden_stacked_bars) {
    hwfit_svg_stacked_bars_in in = stacked_example();
    golden("stacked_bars.svg", call_stacked, &in);
}

Test(svg, golden_lines) {
    hwfit_svg_lines_in in = lines_example();
    golden("lines.svg", call_lines, &in);
}

Test(svg, golden_budget) {
    hwfit_svg_budget_in in = budget_example();
    golden("budget.svg", call_budget, &in);
}

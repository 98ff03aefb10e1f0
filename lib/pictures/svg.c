/* svg.c - deterministic SVG charts written into caller buffers (include/hwfit/svg.h).
 *
 * Every chart is rendered twice by the same code: once into nothing, to count the bytes,
 * and once into the caller's buffer when it is large enough. Layout depends only on the
 * input, so both passes produce the same bytes. Numbers are formatted here (integer
 * digits from llround), never by printf, so the locale cannot change them.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "hwfit/status.h"
#include "hwfit/svg.h"
#include "hwfit/units.h"

#include "base/checked.h"
#include "base/internal.h"
#include "base/text.h"
#include "pictures/draw.h"
#include "pictures/svg_internal.h"

/* Clang may fuse a*b+c into one FMA on targets that have it, which changes the last bit
 * of some results; forbid it so coordinates are the same on every machine. GCC does not
 * contract in ISO C mode (-std=c11), and warns about this pragma, hence the guard. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

/* ---- palette ----------------------------------------------------------------------------
 * M. Okabe and K. Ito, "Color Universal Design (CUD): how to make figures and
 * presentations that are friendly to colorblind people", 2002 (rev. 2008),
 * https://jfly.uni-koeln.de/color/ : black, orange (230,159,0), sky blue (86,180,233),
 * bluish green (0,158,115), yellow (240,228,66), blue (0,114,178), vermillion (213,94,0),
 * reddish purple (204,121,167). Black is kept for axes and reference lines; yellow, the
 * faintest on white, comes last. */
static const uint32_t palette[HWFIT_SVG_PALETTE_SIZE] = {
    0x0072B2, 0xE69F00, 0x009E73, 0xD55E00, 0xCC79A7, 0x56B4E9, 0xF0E442,
};

uint32_t hwfit_svg_color(size_t index) { return palette[index % HWFIT_SVG_PALETTE_SIZE]; }

/* ---- numbers ------------------------------------------------------------------------- */

static const double exact_pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

double hwfit__svg_pow10(int e) {
    double r = 1.0;
    if (e >= 0) {
        for (; e > 22; e -= 22) r *= 1e22;
        return r * exact_pow10[e];
    }
    int n = -e;
    for (; n > 22; n -= 22) r /= 1e22;
    return r / exact_pow10[n];
}

/* log2(x) = e + log2(m) with x = m 2^e and m in [sqrt(1/2), sqrt(2)); ln(m) from the
 * series ln(m) = 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + ...), s = (m-1)/(m+1), |s| <= 0.1716
 * (Abramowitz and Stegun, Handbook of Mathematical Functions, 1964, eq. 4.1.27). 20 terms
 * take the remainder below 1e-30. Only +, -, *, / and frexp: bit-identical everywhere. */
double hwfit__svg_log2(double x) {
    int e = 0;
    double m = frexp(x, &e);
    if (m < 0.70710678118654752440) {
        m *= 2.0;
        e--;
    }
    double s = (m - 1.0) / (m + 1.0), s2 = s * s, term = s, sum = 0.0;
    for (int k = 1; k <= 39; k += 2) {
        sum += term / (double)k;
        term *= s2;
    }
    return (double)e + sum * 2.8853900817779268147; /* 2 / ln 2 */
}

int hwfit__svg_floor_log10(double x) {
    /* log10(2) = 0.30103; the estimate is off by at most one, which the loops correct
     * against exactly representable powers of ten. */
    int e = (int)floor(hwfit__svg_log2(x) * 0.30102999566398119521);
    while (e > -400 && hwfit__svg_pow10(e) > x) e--;
    while (e < 400 && hwfit__svg_pow10(e + 1) <= x) e++;
    return e;
}

size_t hwfit__svg_format_fixed(double v, int decimals, int trim, char *out) {
    char digits[40];
    size_t nd = 0, o = 0;
    int negative = v < 0.0, zeros = 0;
    if (negative) v = -v;
    if (!(v == v) || v - v != 0.0) v = 0.0; /* never reached with checked inputs */
    if (decimals < 0) decimals = 0;
    if (decimals > 24) decimals = 24;
    double scaled = v * hwfit__svg_pow10(decimals);
    /* llround is exact below 2^53; drop decimals, then integer digits, to stay there. */
    while (decimals > 0 && scaled >= 4e15) scaled = v * hwfit__svg_pow10(--decimals);
    while (scaled >= 4e15) {
        scaled /= 10.0;
        zeros++;
    }
    uint64_t r = (uint64_t)llround(scaled);
    do {
        digits[nd++] = (char)('0' + (int)(r % 10u));
        r /= 10u;
    } while (r > 0u);
    while (nd < (size_t)decimals + 1u) digits[nd++] = '0';
    size_t start = 0, frac = (size_t)decimals;
    while (trim && frac > 0 && digits[start] == '0') start++, frac--; /* trailing zeros */
    int all_zero = 1;
    for (size_t i = start; i < nd; i++) all_zero &= digits[i] == '0';
    if (negative && !all_zero) out[o++] = '-';
    for (size_t i = nd; i > start + frac; i--) out[o++] = digits[i - 1];
    for (; zeros > 0; zeros--) out[o++] = '0';
    if (frac > 0) {
        out[o++] = '.';
        for (size_t i = start + frac; i > start; i--) out[o++] = digits[i - 1];
    }
    out[o] = '\0';
    return o;
}

/* ---- prefixes and short quantities ----------------------------------------------------- */

typedef struct prefix {
    const char *name;
    double factor;
} prefix;

/* SI Brochure, 9th ed. (2019), Table 7; IEC 80000-13:2008 for the binary ones. */
static const prefix si_prefixes[] = {{"E", 1e18}, {"P", 1e15}, {"T", 1e12}, {"G", 1e9},
                                     {"M", 1e6},  {"k", 1e3},  {"", 1.0},   {"m", 1e-3},
                                     {"u", 1e-6}, {"n", 1e-9}};
static const prefix iec_prefixes[] = {{"Ei", HWFIT_EXBI}, {"Pi", HWFIT_PEBI}, {"Ti", HWFIT_TEBI},
                                      {"Gi", HWFIT_GIBI}, {"Mi", HWFIT_MEBI}, {"Ki", HWFIT_KIBI},
                                      {"", 1.0}};
/* Durations as hwfit_units_format writes them; a year is 365 days. */
static const prefix time_units[] = {{"y", HWFIT_SECONDS_PER_YEAR}, {"d", HWFIT_SECONDS_PER_DAY},
                                    {"h", HWFIT_SECONDS_PER_HOUR},  {"min", HWFIT_SECONDS_PER_MINUTE},
                                    {"s", 1.0},                     {"ms", 1e-3},
                                    {"us", 1e-6},                   {"ns", 1e-9}};

/* How one value is written: number, separator, prefix, unit. */
typedef struct quantity_style {
    const char *sep, *prefix, *unit;
    double factor;
} quantity_style;

static int binary_prefixes(const hwfit_svg_axis *axis) {
    int can = axis->unit == HWFIT_UNIT_NONE || axis->unit == HWFIT_UNIT_BYTES ||
              axis->unit == HWFIT_UNIT_BYTES_PER_S;
    if (!can) return 0;
    if (axis->prefix == HWFIT_SVG_PREFIX_BINARY) return 1;
    return axis->prefix == HWFIT_SVG_PREFIX_AUTO && axis->scale == HWFIT_SVG_SCALE_LOG2 &&
           axis->unit != HWFIT_UNIT_NONE;
}

/* The style for values near v. With powers_of_1000 set (log axis ticks), durations use
 * only s, ms, us and ns, and plain numbers take a prefix from 1,000; otherwise durations
 * also use min, h, d and y, and plain numbers take a prefix from 10,000. */
static quantity_style style_for(const hwfit_svg_axis *axis, double v, int powers_of_1000) {
    static const char *const units[] = {"", "B", "B/s", "b/s", "W", "s", "FLOP/s", "FLOP"};
    quantity_style st = {" ", "", units[axis->unit], 1.0};
    const prefix *table = si_prefixes;
    size_t count = HWFIT__COUNT_OF(si_prefixes), first = 0, last;
    v = fabs(v);
    if (axis->unit == HWFIT_UNIT_SECONDS) {
        table = time_units;
        count = HWFIT__COUNT_OF(time_units);
        first = powers_of_1000 ? 4 : 0;
        last = count - 1;
        st.unit = "";
    } else {
        if (binary_prefixes(axis)) {
            table = iec_prefixes;
            count = HWFIT__COUNT_OF(iec_prefixes);
        }
        last = count - 1;
        if (table == si_prefixes && axis->unit != HWFIT_UNIT_WATTS) last = 6; /* no m, u, n */
        if (axis->unit == HWFIT_UNIT_NONE) {
            st.sep = "";
            /* Plain numbers below 10,000 ("2048"); log axes, whose ticks go up by powers,
             * switch at 1,000 so that "1k" follows "100". */
            if (v < (powers_of_1000 ? 1e3 : 1e4)) return st;
        }
    }
    if (v == 0.0) {
        if (axis->unit == HWFIT_UNIT_SECONDS) st.prefix = "s";
        return st;
    }
    size_t i = first;
    /* The largest factor not above v; 5e-5 below so that 999.97 reads "1 k", not "1000". */
    while (i < last && v < table[i].factor * (1.0 - 5e-5)) i++;
    st.prefix = table[i].name;
    st.factor = table[i].factor;
    return st;
}

static void compose(const quantity_style *st, const char *number, char *out) {
    size_t o = strlen(number);
    memcpy(out, number, o);
    const char *parts[3] = {st->sep, st->prefix, st->unit};
    if (st->prefix[0] == '\0' && st->unit[0] == '\0') parts[0] = "";
    for (size_t k = 0; k < 3; k++) {
        size_t n = strlen(parts[k]);
        if (o + n >= HWFIT__SVG_LABEL_SIZE) break;
        memcpy(out + o, parts[k], n);
        o += n;
    }
    out[o] = '\0';
}

/* Up to 4 significant digits, as hwfit_units_format. */
static void format_significant(const quantity_style *st, double v, char *out) {
    char number[HWFIT__SVG_LABEL_SIZE];
    double scaled = v / st->factor;
    int decimals = scaled > 0.0 ? 3 - hwfit__svg_floor_log10(scaled) : 0;
    hwfit__svg_format_fixed(scaled, decimals, 1, number);
    compose(st, number, out);
}

void hwfit__svg_format_value(const hwfit_svg_axis *axis, double v, char *out) {
    quantity_style st = style_for(axis, v, 0);
    format_significant(&st, v, out);
}

/* ---- ticks ----------------------------------------------------------------------------
 * Linear axes: P. S. Heckbert, "Nice Numbers for Graph Labels", in Graphics Gems
 * (A. S. Glassner, ed.), Academic Press, 1990, pp. 61-63, "loose labelling": the range is
 * rounded up to a nice number, the spacing d is the nice number nearest to
 * range / (ticks - 1), and the axis runs from floor(min/d) d to ceil(max/d) d, labels with
 * max(-floor(log10 d), 0) decimals. A nice number is 1, 2, 5 or 10 times a power of ten.
 * Values are first divided by the prefix of the largest one (GB, GiB, kW...), so a binary
 * axis gets nice numbers of GiB, not of bytes. */

static void nice_parts(double x, int round, int *nf, int *e) {
    int ex = hwfit__svg_floor_log10(x);
    double f = x / hwfit__svg_pow10(ex); /* in [1, 10) */
    int n;
    if (round)
        n = f < 1.5 ? 1 : f < 3.0 ? 2 : f < 7.0 ? 5 : 10;
    else
        n = f <= 1.0 ? 1 : f <= 2.0 ? 2 : f <= 5.0 ? 5 : 10;
    if (n == 10) {
        n = 1;
        ex++;
    }
    *nf = n;
    *e = ex;
}

/* m 10^e for integers m and e, as the nearest double to that decimal. */
static double scaled_decimal(double m, int e) {
    return e >= 0 ? m * hwfit__svg_pow10(e) : m / hwfit__svg_pow10(-e);
}

double hwfit__svg_nice_number(double x, int round) {
    int nf = 1, e = 0;
    nice_parts(x, round, &nf, &e);
    return scaled_decimal((double)nf, e);
}

static void ticks_linear(const hwfit_svg_axis *axis, double lo, double hi, size_t target,
                         hwfit__svg_ticks *t) {
    if (axis->include_zero) lo = 0.0;
    quantity_style st = style_for(axis, hi, 0);
    double a = lo / st.factor, b = hi / st.factor;
    if (b - a <= 1e-6 * b) a = 0.0; /* one value (or nearly): show it from zero */
    /* An axis up to 0, or up to a value so small (subnormals) that the tick step
     * 10^e would underflow to 0 and give no ticks at all: draw it from 0 to 1. */
    if (!(b >= 1e-280)) b = 1.0;
    int nf_range = 1, e_range = 0, nf = 1, e = 0;
    nice_parts(b - a, 0, &nf_range, &e_range);
    double range = scaled_decimal((double)nf_range, e_range);
    nice_parts(range / (double)(target - 1), 1, &nf, &e);
    double d = scaled_decimal((double)nf, e);
    /* 1e-9 absorbs the rounding of a/d when a is a multiple of d (0.3 / 0.1). */
    double kmin = floor(a / d + 1e-9), kmax = ceil(b / d - 1e-9);
    if (kmax <= kmin) kmax = kmin + 1.0;
    if (kmax - kmin > (double)(HWFIT__SVG_MAX_TICKS - 1)) kmax = kmin + HWFIT__SVG_MAX_TICKS - 1;
    t->decimals = e < 0 ? -e : 0;
    t->count = 0;
    for (double k = kmin; k <= kmax; k += 1.0) {
        double s = scaled_decimal(k * (double)nf, e);
        char number[HWFIT__SVG_LABEL_SIZE];
        t->value[t->count] = s * st.factor;
        if (k == 0.0) {
            strcpy(t->label[t->count], "0");
        } else {
            hwfit__svg_format_fixed(s, t->decimals, 0, number);
            compose(&st, number, t->label[t->count]);
        }
        t->count++;
    }
    t->lo = t->value[0];
    t->hi = t->value[t->count - 1];
    t->step = d * st.factor;
}

/* Log axes span whole powers of the base around the data. Labelled ticks sit at the
 * multiples of an exponent step: for base 2 the steps 1, 2, 5, 10, 20, 30... octaves (so
 * that binary prefixes, 2^10 apart, line up), for base 10 the steps 1, 3, 6, 9... decades
 * (SI prefixes are 10^3 apart); the smallest step giving at most `target` ticks wins. */
static long floor_div(long a, long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

static long next_step(int base2, long step) {
    if (base2) return step == 1 ? 2 : step == 2 ? 5 : step == 5 ? 10 : step + 10;
    return step == 1 ? 3 : step + 3;
}

static double base_power(int base2, long k) {
    return base2 ? ldexp(1.0, (int)k) : hwfit__svg_pow10((int)k);
}

static void ticks_log(const hwfit_svg_axis *axis, double lo, double hi, size_t target,
                      hwfit__svg_ticks *t) {
    int base2 = axis->scale == HWFIT_SVG_SCALE_LOG2;
    long ea, eb;
    if (base2) {
        int e = 0;
        double m = frexp(lo, &e); /* lo = m 2^e, m in [0.5, 1) */
        ea = e - 1;
        m = frexp(hi, &e);
        eb = m == 0.5 ? e - 1 : e;
    } else {
        ea = hwfit__svg_floor_log10(lo);
        eb = hwfit__svg_floor_log10(hi);
        if (hwfit__svg_pow10((int)eb) < hi) eb++;
    }
    if (eb <= ea) eb = ea + 1;
    long step = 1, prev = 0, count = 0;
    for (;;) {
        count = floor_div(eb, step) - (-floor_div(-ea, step)) + 1;
        if (count <= (long)target) break;
        prev = step;
        step = next_step(base2, step);
    }
    if (count < 2 && prev > 0) step = prev;
    t->count = 0;
    for (long k = -floor_div(-ea, step) * step; k <= eb && t->count < HWFIT__SVG_MAX_TICKS;
         k += step) {
        double v = base_power(base2, k);
        quantity_style st = style_for(axis, v, 1);
        t->value[t->count] = v;
        format_significant(&st, v, t->label[t->count]);
        t->count++;
    }
    t->minor_count = 0;
    if (!base2 && step == 1) {
        for (long k = ea; k < eb; k++)
            for (int m = 2; m <= 9 && t->minor_count < HWFIT__SVG_MAX_MINOR; m++)
                t->minor[t->minor_count++] = scaled_decimal((double)m, (int)k);
    } else if (eb - ea <= 64) {
        for (long k = ea + 1; k < eb && t->minor_count < HWFIT__SVG_MAX_MINOR; k++)
            if (k % step != 0) t->minor[t->minor_count++] = base_power(base2, k);
    }
    t->lo = base_power(base2, ea);
    t->hi = base_power(base2, eb);
    t->step = (double)step;
    t->decimals = 0;
}

hwfit_status hwfit__svg_ticks_make(const hwfit_svg_axis *axis, double lo, double hi,
                                   size_t target, hwfit__svg_ticks *out) {
    if (axis == NULL || out == NULL) return HWFIT_EINVAL;
    if ((unsigned)axis->unit > (unsigned)HWFIT_UNIT_FLOP ||
        (unsigned)axis->scale > (unsigned)HWFIT_SVG_SCALE_LOG10 ||
        (unsigned)axis->prefix > (unsigned)HWFIT_SVG_PREFIX_BINARY)
        return HWFIT_EINVAL;
    if (target < 2) target = 2;
    if (target > HWFIT__SVG_MAX_TICKS - 2) target = HWFIT__SVG_MAX_TICKS - 2;
    hwfit__svg_ticks t;
    memset(&t, 0, sizeof t);
    t.scale = axis->scale;
    if (axis->scale == HWFIT_SVG_SCALE_LINEAR)
        ticks_linear(axis, lo, hi, target, &t);
    else
        ticks_log(axis, lo, hi, target, &t);
    *out = t;
    return HWFIT_OK;
}

double hwfit__svg_ticks_fraction(const hwfit__svg_ticks *t, double v) {
    if (t->scale == HWFIT_SVG_SCALE_LINEAR) return (v - t->lo) / (t->hi - t->lo);
    double l = hwfit__svg_log2(t->lo);
    return (hwfit__svg_log2(v) - l) / (hwfit__svg_log2(t->hi) - l);
}

/* ---- the writer ------------------------------------------------------------------------
 * base/text.h: a first pass into a counting writer, then one into the caller's buffer. */
/* Length of the valid UTF-8 sequence at p (RFC 3629, section 4), or 0. */
static size_t utf8_length(const unsigned char *p) {
    unsigned c = p[0];
    if (c >= 0xC2 && c <= 0xDF) return (p[1] & 0xC0) == 0x80 ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        return p[1] >= lo && p[1] <= hi && (p[2] & 0xC0) == 0x80 ? 3 : 0;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
        return p[1] >= lo && p[1] <= hi && (p[2] & 0xC0) == 0x80 && (p[3] & 0xC0) == 0x80
                   ? 4
                   : 0;
    }
    return 0;
}

/* Text content or attribute value, escaped as described in svg.h (draw.h). */
void hwfit__draw_text(hwfit__text *w, const char *s) {
    static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */
    const unsigned char *p = (const unsigned char *)s;
    while (*p != 0) {
        unsigned c = *p;
        if (c < 0x80) {
            switch (c) {
            case '&': hwfit__text_puts(w, "&amp;"); break;
            case '<': hwfit__text_puts(w, "&lt;"); break;
            case '>': hwfit__text_puts(w, "&gt;"); break;
            case '"': hwfit__text_puts(w, "&quot;"); break;
            case '\'': hwfit__text_puts(w, "&apos;"); break;
            default:
                if (c >= 0x20 && c != 0x7F) hwfit__text_put(w, (const char *)p, 1);
                break;
            }
            p++;
            continue;
        }
        size_t n = utf8_length(p);
        if (n == 0) {
            hwfit__text_put(w, replacement, 3);
            p++;
        } else if (n == 3 && c == 0xEF && p[1] == 0xBF && p[2] >= 0xBE) {
            hwfit__text_put(w, replacement, 3); /* U+FFFE and U+FFFF are not XML characters */
            p += 3;
        } else {
            hwfit__text_put(w, (const char *)p, n);
            p += n;
        }
    }
}

/* A coordinate or length: two decimals, 1/100 px. */
static void put_number(hwfit__text *w, double v) {
    char text[HWFIT__SVG_LABEL_SIZE];
    hwfit__text_put(w, text, hwfit__svg_format_fixed(v, 2, 1, text));
}

static void put_color(hwfit__text *w, uint32_t rgb) {
    static const char hex[] = "0123456789ABCDEF";
    char text[7] = {'#'};
    for (int i = 0; i < 6; i++) text[1 + i] = hex[(rgb >> (20 - 4 * i)) & 0xFu];
    hwfit__text_put(w, text, 7);
}

static void put_size(hwfit__text *w, size_t v) {
    char digits[24];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v > 0u);
    while (n > 0) hwfit__text_put(w, &digits[--n], 1);
}

/* A small printf: %n number (double, 2 decimals), %s raw string, %t escaped text,
 * %c colour (uint32_t), %z size_t. No locale, no surprises. */
static void putf(hwfit__text *w, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    const char *p = fmt;
    while (*p != '\0') {
        const char *q = strchr(p, '%');
        if (q == NULL) {
            hwfit__text_puts(w, p);
            break;
        }
        hwfit__text_put(w, p, (size_t)(q - p));
        switch (q[1]) {
        case 'n': put_number(w, va_arg(ap, double)); break;
        case 's': hwfit__text_puts(w, va_arg(ap, const char *)); break;
        case 't': hwfit__draw_text(w, va_arg(ap, const char *)); break;
        case 'c': put_color(w, (uint32_t)va_arg(ap, unsigned)); break;
        case 'z': put_size(w, va_arg(ap, size_t)); break;
        default: hwfit__text_put(w, q + 1, 1); break;
        }
        p = q + 2;
    }
    va_end(ap);
}

/* ---- text metrics ----------------------------------------------------------------------
 * Advance widths of ASCII 32..126 in 1/1000 em: the Helvetica metrics of Adobe's Core 14
 * AFM files, which Arial and Liberation Sans share. */
static const unsigned short helvetica_widths[95] = {
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, /* ' '../ */
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556,                               /* 0..9 */
    278, 278, 584, 584, 584, 556, 1015,                                             /* :..@ */
    667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833,                /* A..M */
    722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611,                /* N..Z */
    278, 278, 278, 469, 556, 333,                                                   /* [..` */
    556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833,                /* a..m */
    556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500,                /* n..z */
    334, 260, 334, 584,                                                             /* {..~ */
};

/* Estimated width in px of text at font_px, 10 % wide so that fallback fonts such as
 * DejaVu Sans still fit. Other characters count 0.6 em (two-byte UTF-8) or 1 em. */
static double text_width(const char *s, double font_px) {
    const unsigned char *p = (const unsigned char *)s;
    unsigned long units = 0;
    while (*p != 0) {
        if (*p < 0x80) {
            if (*p >= 0x20 && *p != 0x7F) units += helvetica_widths[*p - 0x20];
            p++;
            continue;
        }
        size_t n = utf8_length(p);
        units += n == 2 ? 600u : 1000u;
        p += n == 0 ? 1 : n;
    }
    return (double)units * font_px * 1.1 / 1000.0;
}

/* ---- shared chart pieces ----------------------------------------------------------------- */

#define PAD 10.0          /* outer margin, px */
#define FONT 12.0         /* labels, legend, axis titles */
#define FONT_TICK 11.0    /* tick labels and values */
#define FONT_TITLE 16.0   /* chart title */
#define LEGEND_ROW 18.0   /* legend line height */
#define LEGEND_SAMPLE 28.0 /* swatch or line sample plus gap */
#define LEGEND_GAP 20.0   /* between legend columns */
#define X_LABELS 20.0     /* height of horizontal tick labels under the plot */
#define X_TITLE 26.0      /* height of the x axis title */
#define MIN_PLOT 60.0     /* smallest plot width or height, px */
#define COLOR_AXIS 0x333333u
#define COLOR_GRID 0xDDDDDDu
#define COLOR_MINOR 0xF0F0F0u
#define COLOR_TEXT 0x222222u
#define FONT_FAMILY "Helvetica, Arial, &apos;Liberation Sans&apos;, sans-serif"

/* Dash patterns of reference lines, by index. */
static const char *const dashes[] = {"", "6 3", "2 3", "9 3 2 3", "12 4"};

/* Text with a white halo, readable over bars and grid lines. */
#define HALO "stroke=\"#FFFFFF\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\""

typedef struct frame {
    double width, height;   /* the picture */
    double left, top, w, h; /* the plot area */
    double x_title_y;       /* baseline of the x axis title */
    /* The legend: one column at the right, or columns under the plot (legend_bottom). */
    int legend_bottom;
    size_t legend_cols;
    double legend_x, legend_y, legend_col_w;
} frame;

static int axis_ok(const hwfit_svg_axis *a) {
    return a->label != NULL && (unsigned)a->unit <= (unsigned)HWFIT_UNIT_FLOP &&
           (unsigned)a->scale <= (unsigned)HWFIT_SVG_SCALE_LOG10 &&
           (unsigned)a->prefix <= (unsigned)HWFIT_SVG_PREFIX_BINARY;
}

static int size_ok(double w, double h) {
    return hwfit__in_range(w, HWFIT_SVG_SIZE_MIN_PX, HWFIT_SVG_SIZE_MAX_PX) &&
           hwfit__in_range(h, HWFIT_SVG_SIZE_MIN_PX, HWFIT_SVG_SIZE_MAX_PX);
}

static int value_ok(double v) { return hwfit__in_range(v, 0.0, HWFIT_SVG_VALUE_MAX); }

static void begin(hwfit__text *w, const frame *f, const char *title) {
    putf(w,
         "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%n\" height=\"%n\" "
         "viewBox=\"0 0 %n %n\" font-family=\"%s\" font-size=\"%n\" role=\"img\">\n"
         "<title>%t</title>\n"
         "<rect x=\"0\" y=\"0\" width=\"%n\" height=\"%n\" fill=\"#FFFFFF\"/>\n",
         f->width, f->height, f->width, f->height, FONT_FAMILY, FONT, title, f->width,
         f->height);
    if (title[0] != '\0')
        putf(w,
             "<text class=\"title\" x=\"%n\" y=\"%n\" text-anchor=\"middle\" font-size=\"%n\" "
             "font-weight=\"bold\" fill=\"%c\">%t</text>\n",
             f->width / 2.0, PAD + FONT_TITLE, FONT_TITLE, COLOR_TEXT, title);
}

static void end(hwfit__text *w) { hwfit__text_puts(w, "</svg>\n"); }

static double top_margin(const char *title) { return title[0] != '\0' ? 50.0 : 22.0; }

/* Largest label width of a set of ticks. */
static double ticks_width(const hwfit__svg_ticks *t) {
    double m = 0.0;
    for (size_t i = 0; i < t->count; i++) {
        double x = text_width(t->label[i], FONT_TICK);
        if (x > m) m = x;
    }
    return m;
}

/* Smallest distance in px between neighbouring ticks on an axis of `length` px. */
static double ticks_gap(const hwfit__svg_ticks *t, double length) {
    double gap = length;
    for (size_t i = 1; i < t->count; i++) {
        double d = (hwfit__svg_ticks_fraction(t, t->value[i]) -
                    hwfit__svg_ticks_fraction(t, t->value[i - 1])) *
                   length;
        if (d < gap) gap = d;
    }
    return gap;
}

/* Vertical ticks: about one per 45 px, fewer if labels would touch. */
static void vertical_ticks(const hwfit_svg_axis *axis, double lo, double hi, double length,
                           hwfit__svg_ticks *t) {
    size_t target = length / 45.0 > 10.0 ? 10 : (size_t)(length / 45.0);
    for (;; target--) {
        (void)hwfit__svg_ticks_make(axis, lo, hi, target, t);
        if (target <= 2 || ticks_gap(t, length) >= FONT_TICK * 1.5) break;
    }
}

/* Horizontal ticks: about one per 60 px on linear axes and per 40 px on log axes (whose
 * labels are short), fewer until labels are 12 px apart. */
static void horizontal_ticks(const hwfit_svg_axis *axis, double lo, double hi, double length,
                             hwfit__svg_ticks *t) {
    double per = axis->scale == HWFIT_SVG_SCALE_LINEAR ? 60.0 : 40.0;
    size_t target = length / per > 10.0 ? 10 : (size_t)(length / per);
    for (;; target--) {
        (void)hwfit__svg_ticks_make(axis, lo, hi, target, t);
        if (target <= 2 || ticks_gap(t, length) >= ticks_width(t) + 12.0) break;
    }
}

/* A last x label centred on the plot's right edge must not reach the legend (which
 * starts 20 px right of the plot) nor leave the picture: narrow the plot if it would.
 * Returns 1 when the plot changed (the caller then recomputes its ticks). */
static int fit_last_x_label(frame *f, double right, const hwfit__svg_ticks *t) {
    double p = hwfit__svg_ticks_fraction(t, t->value[t->count - 1]);
    double reach = f->left + p * f->w + text_width(t->label[t->count - 1], FONT_TICK) / 2.0;
    double limit = right > 0.0 ? f->left + f->w + 16.0 : f->width - 4.0;
    if (reach <= limit) return 0;
    f->w -= reach - limit;
    return 1;
}

/* Grid lines across the plot (vertical = 1: lines at x positions). */
static void grid(hwfit__text *w, const frame *f, const hwfit__svg_ticks *t, int vertical) {
    putf(w, "<g class=\"grid\" stroke-width=\"1\" fill=\"none\">\n");
    for (int pass = 0; pass < 2; pass++) {
        size_t n = pass == 0 ? t->minor_count : t->count;
        for (size_t i = 0; i < n; i++) {
            double v = pass == 0 ? t->minor[i] : t->value[i];
            uint32_t color = pass == 0 ? COLOR_MINOR : COLOR_GRID;
            double p = hwfit__svg_ticks_fraction(t, v);
            if (vertical) {
                double x = f->left + p * f->w;
                putf(w, "<line x1=\"%n\" y1=\"%n\" x2=\"%n\" y2=\"%n\" stroke=\"%c\"/>\n", x,
                     f->top, x, f->top + f->h, color);
            } else {
                double y = f->top + f->h - p * f->h;
                putf(w, "<line x1=\"%n\" y1=\"%n\" x2=\"%n\" y2=\"%n\" stroke=\"%c\"/>\n",
                     f->left, y, f->left + f->w, y, color);
            }
        }
    }
    putf(w, "</g>\n");
}

/* The left and bottom axis lines. */
static void axis_lines(hwfit__text *w, const frame *f) {
    putf(w,
         "<path class=\"axes\" d=\"M%n %nV%nH%n\" fill=\"none\" stroke=\"%c\" "
         "stroke-width=\"1\"/>\n",
         f->left, f->top, f->top + f->h, f->left + f->w, COLOR_AXIS);
}

/* Tick marks and labels of a value axis at the left (vertical) or bottom. */
static void tick_labels(hwfit__text *w, const frame *f, const hwfit__svg_ticks *t, int vertical) {
    putf(w, "<g class=\"%s\" font-size=\"%n\" fill=\"%c\">\n",
         vertical ? "y-ticks" : "x-ticks", FONT_TICK, COLOR_TEXT);
    for (size_t i = 0; i < t->count; i++) {
        double p = hwfit__svg_ticks_fraction(t, t->value[i]);
        if (vertical) {
            double y = f->top + f->h - p * f->h;
            putf(w, "<line x1=\"%n\" y1=\"%n\" x2=\"%n\" y2=\"%n\" stroke=\"%c\"/>", f->left - 4.0,
                 y, f->left, y, COLOR_AXIS);
            putf(w, "<text x=\"%n\" y=\"%n\" text-anchor=\"end\">%t</text>\n", f->left - 7.0,
                 y + 4.0, t->label[i]);
        } else {
            double x = f->left + p * f->w, y = f->top + f->h;
            putf(w, "<line x1=\"%n\" y1=\"%n\" x2=\"%n\" y2=\"%n\" stroke=\"%c\"/>", x, y, x,
                 y + 4.0, COLOR_AXIS);
            putf(w, "<text x=\"%n\" y=\"%n\" text-anchor=\"middle\">%t</text>\n", x, y + 16.0,
                 t->label[i]);
        }
    }
    putf(w, "</g>\n");
}

static void y_title(hwfit__text *w, const frame *f, const char *label) {
    if (label[0] == '\0') return;
    double x = PAD + FONT, y = f->top + f->h / 2.0;
    putf(w,
         "<text class=\"y-title\" transform=\"translate(%n %n) rotate(-90)\" "
         "text-anchor=\"middle\" fill=\"%c\">%t</text>\n",
         x, y, COLOR_TEXT, label);
}

static void x_title(hwfit__text *w, const frame *f, const char *label) {
    if (label[0] == '\0') return;
    putf(w,
         "<text class=\"x-title\" x=\"%n\" y=\"%n\" text-anchor=\"middle\" fill=\"%c\">%t</text>\n",
         f->left + f->w / 2.0, f->x_title_y, COLOR_TEXT, label);
}

/* Legend rows: a filled square, a coloured line (with the series' marker, or without),
 * or a black line with the dash pattern of reference line `index`. */
enum { LEGEND_SWATCH, LEGEND_SERIES, LEGEND_LINE, LEGEND_REFERENCE };

static void marker(hwfit__text *w, size_t shape, double x, double y) {
    switch (shape % 4u) {
    case 0: putf(w, "<circle cx=\"%n\" cy=\"%n\" r=\"3.5\"/>", x, y); break;
    case 1: putf(w, "<rect x=\"%n\" y=\"%n\" width=\"7\" height=\"7\"/>", x - 3.5, y - 3.5); break;
    case 2:
        putf(w, "<path d=\"M%n %nL%n %nL%n %nZ\"/>", x, y - 4.5, x + 4.5, y + 3.5, x - 4.5,
             y + 3.5);
        break;
    default:
        putf(w, "<path d=\"M%n %nL%n %nL%n %nL%n %nZ\"/>", x, y - 4.5, x + 4.5, y, x, y + 4.5,
             x - 4.5, y);
        break;
    }
}

static void legend_row(hwfit__text *w, const frame *f, size_t entry, int kind, size_t index,
                       uint32_t color, const char *label, const char *value) {
    double x = f->legend_x, y = f->top + (double)entry * LEGEND_ROW + 6.0;
    if (f->legend_bottom) {
        x += (double)(entry % f->legend_cols) * (f->legend_col_w + LEGEND_GAP);
        y = f->legend_y + (double)(entry / f->legend_cols) * LEGEND_ROW;
    }
    if (kind == LEGEND_SWATCH) {
        putf(w, "<rect x=\"%n\" y=\"%n\" width=\"14\" height=\"12\" fill=\"%c\"/>", x + 4.0,
             y - 6.0, color);
    } else if (kind == LEGEND_SERIES || kind == LEGEND_LINE) {
        putf(w, "<line x1=\"%n\" y1=\"%n\" x2=\"%n\" y2=\"%n\" stroke=\"%c\" stroke-width=\"2\"/>",
             x, y, x + 22.0, y, color);
        if (kind == LEGEND_SERIES) {
            putf(w, "<g fill=\"%c\" stroke=\"#FFFFFF\" stroke-width=\"1\">", color);
            marker(w, index, x + 11.0, y);
            putf(w, "</g>");
        }
    } else {
        const char *dash = dashes[index % HWFIT__COUNT_OF(dashes)];
        putf(w, "<line x1=\"%n\" y1=\"%n\" x2=\"%n\" y2=\"%n\" stroke=\"#000000\" "
                "stroke-width=\"1.5\"%s%s%s/>",
             x, y, x + 22.0, y, dash[0] ? " stroke-dasharray=\"" : "", dash, dash[0] ? "\"" : "");
    }
    putf(w, "<text x=\"%n\" y=\"%n\" fill=\"%c\">%t%s%s</text>\n", x + LEGEND_SAMPLE, y + 4.0,
         COLOR_TEXT, label, value ? ": " : "", value ? value : "");
}

static double legend_entry_width(const char *label, const char *value) {
    double wd = LEGEND_SAMPLE + text_width(label, FONT);
    if (value != NULL) wd += text_width(": ", FONT) + text_width(value, FONT);
    return wd;
}

/* Plan a legend of n entries at most entry_w wide: one column at the right when that
 * takes at most a quarter of the width, else centred columns at the bottom. Sets the room
 * it takes at the right and at the bottom. */
static void plan_legend(frame *f, size_t n, double entry_w, double *right, double *bottom) {
    *right = 0.0;
    *bottom = 0.0;
    f->legend_cols = 1;
    f->legend_col_w = entry_w;
    f->legend_bottom = 0;
    if (n == 0) return;
    if (entry_w <= f->width * 0.25) {
        f->legend_x = f->width - PAD - entry_w;
        *right = entry_w + 20.0;
        return;
    }
    double cols = floor((f->width - 2.0 * PAD + LEGEND_GAP) / (entry_w + LEGEND_GAP));
    if (cols < 1.0) cols = 1.0;
    if (cols > (double)n) cols = (double)n;
    f->legend_cols = (size_t)cols;
    size_t rows = (n + f->legend_cols - 1) / f->legend_cols;
    double block = cols * (entry_w + LEGEND_GAP) - LEGEND_GAP;
    f->legend_bottom = 1;
    f->legend_x = block < f->width - 2.0 * PAD ? (f->width - block) / 2.0 : PAD;
    f->legend_y = f->height - PAD - (double)rows * LEGEND_ROW + LEGEND_ROW / 2.0;
    *bottom = (double)rows * LEGEND_ROW + 8.0;
}

/* ---- stacked bars ------------------------------------------------------------------------ */

void hwfit_svg_stacked_bars_init(hwfit_svg_stacked_bars_in *in) {
    if (in == NULL) return;
    memset(in, 0, sizeof *in);
    in->title = "";
    in->x_label = "";
    in->y.label = "";
    in->y.unit = HWFIT_UNIT_NONE;
    in->y.scale = HWFIT_SVG_SCALE_LINEAR;
    in->y.prefix = HWFIT_SVG_PREFIX_AUTO;
    in->y.include_zero = 1;
    in->capacity_set = 0;
    in->capacity = 0.0;
    in->capacity_label = "Capacity";
    in->show_totals = 1;
    in->width_px = 800.0;
    in->height_px = 480.0;
}

static uint32_t segment_color(const uint32_t *colors, size_t i) {
    return colors != NULL ? colors[i] : hwfit_svg_color(i);
}

typedef struct stacked_layout {
    frame f;
    hwfit_svg_axis y;
    hwfit__svg_ticks ticks;
    double slot, bar_w;
    int rotate;
} stacked_layout;

static double bar_total(const hwfit_svg_stacked_bars_in *in, size_t bar) {
    double s = 0.0;
    for (size_t j = 0; j < in->segment_count; j++) s += in->values[bar * in->segment_count + j];
    return s;
}

static hwfit_status stacked_layout_make(const hwfit_svg_stacked_bars_in *in, stacked_layout *L) {
    frame *f = &L->f;
    memset(L, 0, sizeof *L);
    f->width = in->width_px;
    f->height = in->height_px;
    L->y = in->y;
    L->y.include_zero = 1;
    double legend_w = 0.0, label_w = 0.0, ymax = 0.0;
    char value[HWFIT__SVG_LABEL_SIZE];
    for (size_t j = 0; j < in->segment_count; j++) {
        double x = legend_entry_width(in->segment_labels[j], NULL);
        if (x > legend_w) legend_w = x;
    }
    if (in->capacity_set) {
        hwfit__svg_format_value(&L->y, in->capacity, value);
        double x = legend_entry_width(in->capacity_label, value);
        if (x > legend_w) legend_w = x;
        ymax = in->capacity;
    }
    for (size_t i = 0; i < in->bar_count; i++) {
        double x = text_width(in->bar_labels[i], FONT_TICK);
        if (x > label_w) label_w = x;
        double t = bar_total(in, i);
        if (t > ymax) ymax = t;
    }
    double right = 0.0, legend_h = 0.0;
    plan_legend(f, in->segment_count + (in->capacity_set ? 1u : 0u), legend_w, &right, &legend_h);
    double title_w = in->y.label[0] != '\0' ? FONT + 10.0 : 0.0;
    f->top = top_margin(in->title);
    for (int pass = 0; pass < 2; pass++) {
        /* Bottom: labels (rotated by 45 degrees when they do not fit their slot), title,
         * legend. */
        double labels_h = L->rotate ? 12.0 + label_w * 0.7072 : X_LABELS;
        double bottom = labels_h + (in->x_label[0] != '\0' ? X_TITLE : 0.0) + legend_h + PAD;
        f->h = f->height - f->top - bottom;
        f->x_title_y = f->top + f->h + labels_h + 22.0;
        if (f->h < MIN_PLOT) return HWFIT_EDOM;
        vertical_ticks(&L->y, 0.0, ymax, f->h, &L->ticks);
        f->left = PAD + title_w + ticks_width(&L->ticks) + 10.0;
        f->w = f->width - f->left - PAD - (right > 0.0 ? right : 8.0);
        if (f->w < MIN_PLOT) return HWFIT_EDOM;
        L->slot = f->w / (double)in->bar_count;
        if (L->rotate || label_w + 6.0 <= L->slot) break;
        L->rotate = 1;
    }
    if (L->rotate) {
        /* A rotated first label reaches left of its bar by 0.71 of its width. */
        double reach = label_w * 0.7072 - L->slot / 2.0 + PAD;
        if (reach > f->left) {
            f->w -= reach - f->left;
            f->left = reach;
            if (f->w < MIN_PLOT) return HWFIT_EDOM;
            L->slot = f->w / (double)in->bar_count;
        }
    }
    L->bar_w = L->slot * 0.7 > 120.0 ? 120.0 : L->slot * 0.7;
    return HWFIT_OK;
}

static hwfit_status stacked_render(const hwfit_svg_stacked_bars_in *in, hwfit__text *w) {
    stacked_layout L;
    hwfit_status st = stacked_layout_make(in, &L);
    if (st != HWFIT_OK) return st;
    const frame *f = &L.f;
    const size_t M = in->segment_count;
    const double range = L.ticks.hi - L.ticks.lo, base = f->top + f->h;
    char value[HWFIT__SVG_LABEL_SIZE];
    begin(w, f, in->title);
    grid(w, f, &L.ticks, 0);
    putf(w, "<g class=\"bars\" stroke=\"#FFFFFF\" stroke-width=\"0.5\">\n");
    for (size_t i = 0; i < in->bar_count; i++) {
        double x = f->left + L.slot * ((double)i + 0.5) - L.bar_w / 2.0, cum = 0.0;
        for (size_t j = 0; j < M; j++) {
            double v = in->values[i * M + j];
            if (v <= 0.0) continue;
            /* Height proportional to the value; y from the running total. */
            double h = f->h * v / range, y = base - f->h * (cum + v) / range;
            cum += v;
            hwfit__svg_format_value(&L.y, v, value);
            putf(w,
                 "<rect class=\"segment\" data-bar=\"%z\" data-segment=\"%z\" x=\"%n\" y=\"%n\" "
                 "width=\"%n\" height=\"%n\" fill=\"%c\"><title>%t, %t: %s</title></rect>\n",
                 i, j, x, y, L.bar_w, h, segment_color(in->segment_colors, j), in->bar_labels[i],
                 in->segment_labels[j], value);
        }
    }
    putf(w, "</g>\n");
    if (in->capacity_set) {
        double y = base - f->h * in->capacity / range;
        putf(w,
             "<line class=\"capacity\" x1=\"%n\" y1=\"%n\" x2=\"%n\" y2=\"%n\" stroke=\"#000000\" "
             "stroke-width=\"1.5\" stroke-dasharray=\"6 3\"/>\n",
             f->left, y, f->left + f->w, y);
    }
    axis_lines(w, f);
    tick_labels(w, f, &L.ticks, 1);
    /* Bar labels under the bars, totals above them where they fit. */
    putf(w, "<g class=\"x-ticks\" font-size=\"%n\" fill=\"%c\">\n", FONT_TICK, COLOR_TEXT);
    for (size_t i = 0; i < in->bar_count; i++) {
        double x = f->left + L.slot * ((double)i + 0.5);
        if (L.rotate)
            putf(w,
                 "<text x=\"%n\" y=\"%n\" text-anchor=\"end\" transform=\"rotate(-45 %n %n)\">%t"
                 "</text>\n",
                 x, base + 12.0, x, base + 12.0, in->bar_labels[i]);
        else
            putf(w, "<text x=\"%n\" y=\"%n\" text-anchor=\"middle\">%t</text>\n", x, base + 16.0,
                 in->bar_labels[i]);
    }
    putf(w, "</g>\n<g class=\"totals\" font-size=\"%n\" fill=\"%c\" text-anchor=\"middle\" %s>\n",
         FONT_TICK, COLOR_TEXT, HALO);
    for (size_t i = 0; i < in->bar_count && in->show_totals; i++) {
        double t = bar_total(in, i), x = f->left + L.slot * ((double)i + 0.5);
        hwfit__svg_format_value(&L.y, t, value);
        if (text_width(value, FONT_TICK) + 4.0 > L.slot) continue;
        putf(w, "<text x=\"%n\" y=\"%n\">%s</text>\n", x, base - f->h * t / range - 4.0, value);
    }
    putf(w, "</g>\n");
    y_title(w, f, in->y.label);
    x_title(w, f, in->x_label);
    putf(w, "<g class=\"legend\" font-size=\"%n\">\n", FONT);
    size_t row = 0;
    for (size_t j = M; j > 0; j--)
        legend_row(w, f, row++, LEGEND_SWATCH, j - 1, segment_color(in->segment_colors, j - 1),
                   in->segment_labels[j - 1], NULL);
    if (in->capacity_set) {
        hwfit__svg_format_value(&L.y, in->capacity, value);
        legend_row(w, f, row, LEGEND_REFERENCE, 1, 0, in->capacity_label, value);
    }
    putf(w, "</g>\n");
    end(w);
    return hwfit__text_overflow(w) ? HWFIT_ERANGE : HWFIT_OK;
}

/* Render into nothing to count, then into buf if it is large enough. */
typedef hwfit_status (*render_fn)(const void *in, hwfit__text *w);

static hwfit_status deliver(render_fn render, const void *in, char *buf, size_t size,
                            size_t *needed) {
    hwfit__text count;
    hwfit__text_fixed(&count, NULL, 0);
    hwfit_status st = render(in, &count);
    if (st != HWFIT_OK) return st;
    size_t need = count.len + 1;
    if (buf == NULL || size < need) {
        if (needed != NULL) *needed = need;
        return HWFIT_EBUFSIZE;
    }
    hwfit__text out;
    hwfit__text_fixed(&out, buf, size);
    (void)render(in, &out); /* fits: the count said so; the writer ends it with a NUL */
    if (needed != NULL) *needed = need;
    return HWFIT_OK;
}

static hwfit_status stacked_render_any(const void *in, hwfit__text *w) {
    return stacked_render((const hwfit_svg_stacked_bars_in *)in, w);
}

hwfit_status hwfit_svg_stacked_bars(const hwfit_svg_stacked_bars_in *in, char *buf, size_t size,
                                    size_t *needed) {
    if (in == NULL || in->title == NULL || in->x_label == NULL || !axis_ok(&in->y) ||
        in->capacity_label == NULL || (buf == NULL && size > 0))
        return HWFIT_EINVAL;
    if (in->y.scale != HWFIT_SVG_SCALE_LINEAR) return HWFIT_EINVAL;
    if (in->bar_count == 0 || in->segment_count == 0) return HWFIT_EDOM;
    if (in->bar_labels == NULL || in->segment_labels == NULL || in->values == NULL)
        return HWFIT_EINVAL;
    if (in->bar_count > SIZE_MAX / in->segment_count) return HWFIT_ERANGE;
    for (size_t i = 0; i < in->bar_count; i++)
        if (in->bar_labels[i] == NULL) return HWFIT_EINVAL;
    for (size_t j = 0; j < in->segment_count; j++) {
        if (in->segment_labels[j] == NULL) return HWFIT_EINVAL;
        if (in->segment_colors != NULL && in->segment_colors[j] > 0xFFFFFFu) return HWFIT_EINVAL;
    }
    for (size_t k = 0; k < in->bar_count * in->segment_count; k++)
        if (!value_ok(in->values[k])) return HWFIT_EDOM;
    if (in->capacity_set && !value_ok(in->capacity)) return HWFIT_EDOM;
    if (!size_ok(in->width_px, in->height_px)) return HWFIT_EDOM;
    for (size_t i = 0; i < in->bar_count; i++)
        if (!(bar_total(in, i) <= HWFIT_SVG_VALUE_MAX)) return HWFIT_ERANGE;
    return deliver(stacked_render_any, in, buf, size, needed);
}

/* ---- line chart ------------------------------------------------------------------------- */

void hwfit_svg_lines_init(hwfit_svg_lines_in *in) {
    if (in == NULL) return;
    memset(in, 0, sizeof *in);
    in->title = "";
    in->x.label = "";
    in->x.unit = HWFIT_UNIT_NONE;
    in->x.scale = HWFIT_SVG_SCALE_LINEAR;
    in->x.prefix = HWFIT_SVG_PREFIX_AUTO;
    in->x.include_zero = 0;
    in->y = in->x;
    in->y.include_zero = 1;
    in->markers = 1;
    in->width_px = 800.0;
    in->height_px = 480.0;
}

static hwfit_status lines_render(const hwfit_svg_lines_in *in, hwfit__text *w) {
    frame f;
    memset(&f, 0, sizeof f);
    f.width = in->width_px;
    f.height = in->height_px;
    double xlo = HUGE_VAL, xhi = 0.0, ylo = HUGE_VAL, yhi = 0.0, legend_w = 0.0;
    for (size_t s = 0; s < in->series_count; s++) {
        const hwfit_svg_series *se = &in->series[s];
        for (size_t i = 0; i < se->count; i++) {
            if (se->x[i] < xlo) xlo = se->x[i];
            if (se->x[i] > xhi) xhi = se->x[i];
            if (se->y[i] < ylo) ylo = se->y[i];
            if (se->y[i] > yhi) yhi = se->y[i];
        }
        double lw = legend_entry_width(se->label, NULL);
        if (lw > legend_w) legend_w = lw;
    }
    double right = 0.0, legend_h = 0.0;
    plan_legend(&f, in->series_count, legend_w, &right, &legend_h);
    hwfit__svg_ticks xt, yt;
    f.top = top_margin(in->title);
    f.h = f.height - f.top - (X_LABELS + (in->x.label[0] != '\0' ? X_TITLE : 0.0) + legend_h + PAD);
    f.x_title_y = f.top + f.h + X_LABELS + 22.0;
    if (f.h < MIN_PLOT) return HWFIT_EDOM;
    vertical_ticks(&in->y, ylo, yhi, f.h, &yt);
    f.left = PAD + (in->y.label[0] != '\0' ? FONT + 10.0 : 0.0) + ticks_width(&yt) + 10.0;
    f.w = f.width - f.left - PAD - (right > 0.0 ? right : 8.0);
    if (f.w < MIN_PLOT) return HWFIT_EDOM;
    horizontal_ticks(&in->x, xlo, xhi, f.w, &xt);
    if (fit_last_x_label(&f, right, &xt)) horizontal_ticks(&in->x, xlo, xhi, f.w, &xt);
    if (f.w < MIN_PLOT) return HWFIT_EDOM;
    begin(w, &f, in->title);
    grid(w, &f, &xt, 1);
    grid(w, &f, &yt, 0);
    axis_lines(w, &f);
    tick_labels(w, &f, &yt, 1);
    tick_labels(w, &f, &xt, 0);
    for (size_t s = 0; s < in->series_count; s++) {
        const hwfit_svg_series *se = &in->series[s];
        uint32_t color = hwfit_svg_color(s);
        putf(w, "<g class=\"series\" data-series=\"%z\">\n", s);
        if (se->count > 1) {
            putf(w, "<polyline fill=\"none\" stroke=\"%c\" stroke-width=\"2\" "
                    "stroke-linejoin=\"round\" points=\"", color);
            for (size_t i = 0; i < se->count; i++)
                putf(w, "%s%n,%n", i ? " " : "",
                     f.left + hwfit__svg_ticks_fraction(&xt, se->x[i]) * f.w,
                     f.top + f.h - hwfit__svg_ticks_fraction(&yt, se->y[i]) * f.h);
            putf(w, "\"/>\n");
        }
        if (in->markers || se->count == 1) {
            putf(w, "<g fill=\"%c\" stroke=\"#FFFFFF\" stroke-width=\"1\">", color);
            for (size_t i = 0; i < se->count; i++)
                marker(w, s, f.left + hwfit__svg_ticks_fraction(&xt, se->x[i]) * f.w,
                       f.top + f.h - hwfit__svg_ticks_fraction(&yt, se->y[i]) * f.h);
            putf(w, "</g>\n");
        }
        putf(w, "</g>\n");
    }
    y_title(w, &f, in->y.label);
    x_title(w, &f, in->x.label);
    putf(w, "<g class=\"legend\" font-size=\"%n\">\n", FONT);
    for (size_t s = 0; s < in->series_count; s++)
        legend_row(w, &f, s, in->markers ? LEGEND_SERIES : LEGEND_LINE, s, hwfit_svg_color(s),
                   in->series[s].label, NULL);
    putf(w, "</g>\n");
    end(w);
    return hwfit__text_overflow(w) ? HWFIT_ERANGE : HWFIT_OK;
}

static hwfit_status lines_render_any(const void *in, hwfit__text *w) {
    return lines_render((const hwfit_svg_lines_in *)in, w);
}

static int axis_value_ok(const hwfit_svg_axis *a, double v) {
    double lo = a->scale == HWFIT_SVG_SCALE_LINEAR ? 0.0 : HWFIT_SVG_LOG_MIN;
    return hwfit__in_range(v, lo, HWFIT_SVG_VALUE_MAX);
}

hwfit_status hwfit_svg_lines(const hwfit_svg_lines_in *in, char *buf, size_t size,
                             size_t *needed) {
    if (in == NULL || in->title == NULL || !axis_ok(&in->x) || !axis_ok(&in->y) ||
        (buf == NULL && size > 0))
        return HWFIT_EINVAL;
    if (in->series_count == 0) return HWFIT_EDOM;
    if (in->series == NULL) return HWFIT_EINVAL;
    for (size_t s = 0; s < in->series_count; s++) {
        const hwfit_svg_series *se = &in->series[s];
        if (se->label == NULL) return HWFIT_EINVAL;
        if (se->count == 0) return HWFIT_EDOM;
        if (se->x == NULL || se->y == NULL) return HWFIT_EINVAL;
        for (size_t i = 0; i < se->count; i++)
            if (!axis_value_ok(&in->x, se->x[i]) || !axis_value_ok(&in->y, se->y[i]))
                return HWFIT_EDOM;
    }
    if (!size_ok(in->width_px, in->height_px)) return HWFIT_EDOM;
    return deliver(lines_render_any, in, buf, size, needed);
}

/* ---- budget ----------------------------------------------------------------------------- */

void hwfit_svg_budget_init(hwfit_svg_budget_in *in) {
    if (in == NULL) return;
    memset(in, 0, sizeof *in);
    in->title = "";
    in->x.label = "";
    in->x.unit = HWFIT_UNIT_NONE;
    in->x.scale = HWFIT_SVG_SCALE_LINEAR;
    in->x.prefix = HWFIT_SVG_PREFIX_AUTO;
    in->x.include_zero = 1;
    in->show_total = 1;
    in->total_label = "Total";
    in->width_px = 800.0;
    in->height_px = 480.0;
}

static double budget_total(const hwfit_svg_budget_in *in) {
    double s = 0.0;
    for (size_t i = 0; i < in->bar_count; i++) s += in->values[i];
    return s;
}

/* The value label of a bar ending at x_end: right of the bar when it fits in the plot,
 * else inside its end. */
static void value_label(hwfit__text *w, const frame *f, double x_end, double y, const char *text) {
    double tw = text_width(text, FONT_TICK);
    if (x_end + 4.0 + tw <= f->left + f->w)
        putf(w, "<text x=\"%n\" y=\"%n\">%s</text>\n", x_end + 4.0, y + 4.0, text);
    else
        putf(w, "<text x=\"%n\" y=\"%n\" text-anchor=\"end\">%s</text>\n", x_end - 4.0, y + 4.0,
             text);
}

static hwfit_status budget_render(const hwfit_svg_budget_in *in, hwfit__text *w) {
    frame f;
    memset(&f, 0, sizeof f);
    f.width = in->width_px;
    f.height = in->height_px;
    hwfit_svg_axis axis = in->x;
    axis.include_zero = 1;
    char value[HWFIT__SVG_LABEL_SIZE];
    double total = budget_total(in), xmax = in->show_total ? total : 0.0;
    double legend_w = 0.0, label_w = in->show_total ? text_width(in->total_label, FONT) : 0.0;
    for (size_t i = 0; i < in->bar_count; i++) {
        if (in->values[i] > xmax) xmax = in->values[i];
        double x = text_width(in->bar_labels[i], FONT);
        if (x > label_w) label_w = x;
    }
    for (size_t r = 0; r < in->reference_count; r++) {
        if (in->references[r].value > xmax) xmax = in->references[r].value;
        hwfit__svg_format_value(&axis, in->references[r].value, value);
        double x = legend_entry_width(in->references[r].label, value);
        if (x > legend_w) legend_w = x;
    }
    double right = 0.0, legend_h = 0.0;
    plan_legend(&f, in->reference_count, legend_w, &right, &legend_h);
    f.top = top_margin(in->title);
    f.h = f.height - f.top - (X_LABELS + (axis.label[0] != '\0' ? X_TITLE : 0.0) + legend_h + PAD);
    f.x_title_y = f.top + f.h + X_LABELS + 22.0;
    f.left = PAD + label_w + 10.0;
    f.w = f.width - f.left - PAD - (right > 0.0 ? right : 8.0);
    if (f.h < MIN_PLOT || f.w < MIN_PLOT) return HWFIT_EDOM;
    /* Room for each bar's value label right of its end: the axis must reach
     * v / (1 - (label + 8 px) / plot width) for every bar (where that is possible). */
    double reach = xmax;
    for (size_t i = 0; i <= in->bar_count; i++) {
        double v = i < in->bar_count ? in->values[i] : in->show_total ? total : 0.0;
        hwfit__svg_format_value(&axis, v, value);
        double keep = 1.0 - (text_width(value, FONT_TICK) + 8.0) / f.w;
        if (keep > 0.5 && v / keep > reach) reach = v / keep;
    }
    hwfit__svg_ticks xt;
    horizontal_ticks(&axis, 0.0, reach, f.w, &xt);
    if (fit_last_x_label(&f, right, &xt)) horizontal_ticks(&axis, 0.0, reach, f.w, &xt);
    if (f.w < MIN_PLOT) return HWFIT_EDOM;
    size_t rows = in->bar_count + (in->show_total ? 1u : 0u);
    double row_h = f.h / (double)rows, bar_h = row_h * 0.65 > 36.0 ? 36.0 : row_h * 0.65;
    const double range = xt.hi - xt.lo;
    begin(w, &f, in->title);
    grid(w, &f, &xt, 1);
    putf(w, "<g class=\"bars\" stroke=\"#FFFFFF\" stroke-width=\"0.5\">\n");
    for (size_t i = 0; i < in->bar_count; i++) {
        double y = f.top + row_h * ((double)i + 0.5) - bar_h / 2.0;
        hwfit__svg_format_value(&axis, in->values[i], value);
        if (in->values[i] > 0.0)
            putf(w,
                 "<rect class=\"bar\" data-bar=\"%z\" x=\"%n\" y=\"%n\" width=\"%n\" "
                 "height=\"%n\" fill=\"%c\"><title>%t: %s</title></rect>\n",
                 i, f.left, y, f.w * in->values[i] / range, bar_h,
                 segment_color(in->bar_colors, i), in->bar_labels[i], value);
    }
    if (in->show_total) {
        double y = f.top + row_h * ((double)in->bar_count + 0.5) - bar_h / 2.0, cum = 0.0;
        for (size_t i = 0; i < in->bar_count; i++) {
            if (in->values[i] <= 0.0) continue;
            hwfit__svg_format_value(&axis, in->values[i], value);
            putf(w,
                 "<rect class=\"total\" data-bar=\"%z\" x=\"%n\" y=\"%n\" width=\"%n\" "
                 "height=\"%n\" fill=\"%c\"><title>%t, %t: %s</title></rect>\n",
                 i, f.left + f.w * cum / range, y, f.w * in->values[i] / range, bar_h,
                 segment_color(in->bar_colors, i), in->total_label, in->bar_labels[i], value);
            cum += in->values[i];
        }
    }
    putf(w, "</g>\n");
    if (in->show_total) {
        double y = f.top + row_h * (double)in->bar_count;
        putf(w, "<line class=\"separator\" x1=\"%n\" y1=\"%n\" x2=\"%n\" y2=\"%n\" stroke=\"%c\"/>\n",
             f.left, y, f.left + f.w, y, COLOR_GRID);
    }
    putf(w, "<g class=\"references\" fill=\"none\" stroke=\"#000000\" stroke-width=\"1.5\">\n");
    for (size_t r = 0; r < in->reference_count; r++) {
        double x = f.left + f.w * in->references[r].value / range;
        const char *dash = dashes[r % HWFIT__COUNT_OF(dashes)];
        putf(w, "<line data-reference=\"%z\" x1=\"%n\" y1=\"%n\" x2=\"%n\" y2=\"%n\"%s%s%s/>\n", r,
             x, f.top - 4.0, x, f.top + f.h, dash[0] ? " stroke-dasharray=\"" : "", dash,
             dash[0] ? "\"" : "");
    }
    putf(w, "</g>\n");
    axis_lines(w, &f);
    tick_labels(w, &f, &xt, 0);
    putf(w, "<g class=\"categories\" fill=\"%c\" text-anchor=\"end\">\n", COLOR_TEXT);
    for (size_t i = 0; i < rows; i++) {
        const char *label = i < in->bar_count ? in->bar_labels[i] : in->total_label;
        putf(w, "<text x=\"%n\" y=\"%n\"%s>%t</text>\n", f.left - 8.0,
             f.top + row_h * ((double)i + 0.5) + 4.0,
             i < in->bar_count ? "" : " font-weight=\"bold\"", label);
    }
    putf(w, "</g>\n<g class=\"values\" font-size=\"%n\" fill=\"%c\" %s>\n", FONT_TICK, COLOR_TEXT,
         HALO);
    for (size_t i = 0; i < rows; i++) {
        double v = i < in->bar_count ? in->values[i] : total;
        hwfit__svg_format_value(&axis, v, value);
        value_label(w, &f, f.left + f.w * v / range, f.top + row_h * ((double)i + 0.5), value);
    }
    putf(w, "</g>\n");
    x_title(w, &f, axis.label);
    putf(w, "<g class=\"legend\" font-size=\"%n\">\n", FONT);
    for (size_t r = 0; r < in->reference_count; r++) {
        hwfit__svg_format_value(&axis, in->references[r].value, value);
        legend_row(w, &f, r, LEGEND_REFERENCE, r, 0, in->references[r].label, value);
    }
    putf(w, "</g>\n");
    end(w);
    return hwfit__text_overflow(w) ? HWFIT_ERANGE : HWFIT_OK;
}

static hwfit_status budget_render_any(const void *in, hwfit__text *w) {
    return budget_render((const hwfit_svg_budget_in *)in, w);
}

hwfit_status hwfit_svg_budget(const hwfit_svg_budget_in *in, char *buf, size_t size,
                              size_t *needed) {
    if (in == NULL || in->title == NULL || !axis_ok(&in->x) || in->total_label == NULL ||
        (buf == NULL && size > 0))
        return HWFIT_EINVAL;
    if (in->x.scale != HWFIT_SVG_SCALE_LINEAR) return HWFIT_EINVAL;
    if (in->bar_count == 0) return HWFIT_EDOM;
    if (in->bar_labels == NULL || in->values == NULL ||
        (in->references == NULL && in->reference_count > 0))
        return HWFIT_EINVAL;
    for (size_t i = 0; i < in->bar_count; i++) {
        if (in->bar_labels[i] == NULL) return HWFIT_EINVAL;
        if (in->bar_colors != NULL && in->bar_colors[i] > 0xFFFFFFu) return HWFIT_EINVAL;
    }
    for (size_t r = 0; r < in->reference_count; r++)
        if (in->references[r].label == NULL) return HWFIT_EINVAL;
    for (size_t i = 0; i < in->bar_count; i++)
        if (!value_ok(in->values[i])) return HWFIT_EDOM;
    for (size_t r = 0; r < in->reference_count; r++)
        if (!value_ok(in->references[r].value)) return HWFIT_EDOM;
    if (!size_ok(in->width_px, in->height_px)) return HWFIT_EDOM;
    if (!(budget_total(in) <= HWFIT_SVG_VALUE_MAX)) return HWFIT_ERANGE;
    return deliver(budget_render_any, in, buf, size, needed);
}

/* ---- escaping --------------------------------------------------------------------------- */

static hwfit_status escape_render(const void *in, hwfit__text *w) {
    hwfit__draw_text(w, (const char *)in);
    return hwfit__text_overflow(w) ? HWFIT_ERANGE : HWFIT_OK;
}

hwfit_status hwfit_svg_escape(const char *text, char *buf, size_t size, size_t *needed) {
    if (text == NULL || (buf == NULL && size > 0)) return HWFIT_EINVAL;
    return deliver(escape_render, text, buf, size, needed);
}

/* units.c - parsing and formatting of quantities (docs/units.md). */
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit/status.h"
#include "hwfit/units.h"

#include "base/checked.h"
#include "base/internal.h"

/* ---- parsing ------------------------------------------------------------------------- */

/* Length of a JSON-style decimal number at s (optional sign, digits, optional fraction,
 * optional exponent), or 0 when there is none. Stricter than strtod: no hex, inf, nan. */
static size_t number_span(const char *s) {
    size_t i = 0, digits = 0;
    if (s[i] == '+' || s[i] == '-') i++;
    while (s[i] >= '0' && s[i] <= '9') i++, digits++;
    if (s[i] == '.') {
        i++;
        while (s[i] >= '0' && s[i] <= '9') i++, digits++;
    }
    if (digits == 0) return 0;
    if (s[i] == 'e' || s[i] == 'E') {
        size_t j = i + 1, exp_digits = 0;
        if (s[j] == '+' || s[j] == '-') j++;
        while (s[j] >= '0' && s[j] <= '9') j++, exp_digits++;
        if (exp_digits > 0) i = j;
    }
    return i;
}

/* Decimal text to the nearest double without depending on the process locale or on the
 * length of the text. The digits are rewritten as an integer significand and a decimal
 * exponent ("+1234e-3"), which has no decimal point for a locale to misread, and passed
 * to strtod. Only the first 768 significant digits are kept: 767 digits suffice to write
 * any point halfway between two doubles exactly, so later digits can only break a tie,
 * and a single sticky '1' standing for "some later digit was non-zero" does that
 * (the truncation rule of Clinger's algorithm as implemented in fast_float,
 * D. Lemire, "Number Parsing at a Gigabyte per Second", Softw. Pract. Exp. 51(8), 2021). */
int hwfit__written_nonzero(const char *s, size_t n) {
    for (size_t i = 0; i < n && s[i] != 'e' && s[i] != 'E'; i++)
        if (s[i] >= '1' && s[i] <= '9') return 1;
    return 0;
}

double hwfit__strtod(const char *s, size_t n) {
    enum { KEEP = 768 };
    char buf[KEEP + 32];
    size_t i = 0, o = 0, kept = 0;
    int negative = 0, in_fraction = 0, nonzero = 0, sticky = 0;
    long long exp10 = 0; /* value = significand * 10^exp10 */
    if (i < n && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
    buf[o++] = negative ? '-' : '+';
    for (; i < n; i++) {
        char c = s[i];
        if (c == '.' && !in_fraction) {
            in_fraction = 1;
            continue;
        }
        if (c < '0' || c > '9') break;
        if (!nonzero && c == '0') { /* leading zero: only its place value counts */
            if (in_fraction) exp10--;
            continue;
        }
        nonzero = 1;
        if (kept < KEEP) {
            buf[o++] = c;
            kept++;
            if (in_fraction) exp10--;
        } else {
            if (c != '0') sticky = 1;
            if (!in_fraction) exp10++;
        }
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        long long e = 0;
        int e_negative = 0;
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) e_negative = s[i++] == '-';
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
            if (e < 1000000000LL) e = e * 10 + (s[i] - '0'); /* saturate: already inf or 0 */
        }
        exp10 += e_negative ? -e : e;
    }
    if (!nonzero) return negative ? -0.0 : 0.0;
#if FLT_EVAL_METHOD == 0
    /* Clinger's fast path (W. D. Clinger, "How to Read Floating Point Numbers Accurately",
     * PLDI 1990): a significand below 2^53 and a power of ten up to 10^22 are both exact
     * doubles, so one IEEE multiplication or division rounds correctly. */
    if (kept <= 15 && exp10 >= -22 && exp10 <= 22) {
        static const double powers_of_ten[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                         1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                         1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
        uint64_t m = 0;
        for (size_t k = 1; k < o; k++) m = m * 10 + (uint64_t)(buf[k] - '0');
        double v = (double)m;
        v = exp10 < 0 ? v / powers_of_ten[-exp10] : v * powers_of_ten[exp10];
        return negative ? -v : v;
    }
#endif
    if (sticky) {
        buf[o++] = '1';
        exp10--;
    }
    if (exp10 > 999999999LL) exp10 = 999999999LL;
    if (exp10 < -999999999LL) exp10 = -999999999LL;
    /* "e<exp10>" by hand: snprintf would cost as much as the conversion. */
    char digits[12];
    size_t nd = 0;
    unsigned long long e = (unsigned long long)(exp10 < 0 ? -exp10 : exp10);
    do {
        digits[nd++] = (char)('0' + (int)(e % 10));
        e /= 10;
    } while (e > 0);
    buf[o++] = 'e';
    if (exp10 < 0) buf[o++] = '-';
    while (nd > 0) buf[o++] = digits[--nd];
    buf[o] = '\0';
    return strtod(buf, NULL);
}

typedef struct prefix {
    const char *text;
    double factor;
} prefix;

static const prefix decimal_prefixes[] = {
    {"k", HWFIT_KILO}, {"K", HWFIT_KILO}, {"M", HWFIT_MEGA}, {"G", HWFIT_GIGA},
    {"T", HWFIT_TERA}, {"P", HWFIT_PETA}, {"E", HWFIT_EXA},
};
static const prefix binary_prefixes[] = {
    {"Ki", HWFIT_KIBI}, {"Mi", HWFIT_MEBI}, {"Gi", HWFIT_GIBI},
    {"Ti", HWFIT_TEBI}, {"Pi", HWFIT_PEBI}, {"Ei", HWFIT_EXBI},
};
static const prefix small_prefixes[] = {{"m", 1e-3}, {"u", 1e-6}, {"\xC2\xB5", 1e-6}, {"n", 1e-9}};

/* Match suffix == prefix + base for one prefix table; on match set *factor. */
static int match_prefixed(const char *suffix, const char *base, const prefix *table, size_t count,
                          double *factor) {
    size_t base_len = strlen(base), len = strlen(suffix);
    if (len < base_len || strcmp(suffix + len - base_len, base) != 0) return 0;
    size_t plen = len - base_len;
    if (plen == 0) {
        *factor = 1.0;
        return 1;
    }
    for (size_t i = 0; i < count; i++) {
        if (strlen(table[i].text) == plen && strncmp(suffix, table[i].text, plen) == 0) {
            *factor = table[i].factor;
            return 1;
        }
    }
    return 0;
}

/* Bytes or bits with decimal or binary prefixes: "GB", "GiB", "Gb", "B", "b". */
static int match_bytes(const char *suffix, double *factor) {
    if (match_prefixed(suffix, "B", decimal_prefixes, HWFIT__COUNT_OF(decimal_prefixes), factor) ||
        match_prefixed(suffix, "B", binary_prefixes, HWFIT__COUNT_OF(binary_prefixes), factor))
        return 1;
    if (match_prefixed(suffix, "b", decimal_prefixes, HWFIT__COUNT_OF(decimal_prefixes), factor) ||
        match_prefixed(suffix, "b", binary_prefixes, HWFIT__COUNT_OF(binary_prefixes), factor)) {
        *factor /= HWFIT_BITS_PER_BYTE;
        return 1;
    }
    return 0;
}

/* Rates: "<bytes>/s" or "<bits>ps" ("Gbps"), in bytes per second. */
static int match_rate(const char *suffix, double *factor) {
    char head[32];
    size_t len = strlen(suffix);
    if (len >= sizeof head) return 0;
    if (len > 2 && strcmp(suffix + len - 2, "/s") == 0) {
        memcpy(head, suffix, len - 2);
        head[len - 2] = '\0';
        return head[0] != '\0' && match_bytes(head, factor);
    }
    if (len > 3 && strcmp(suffix + len - 3, "bps") == 0) {
        memcpy(head, suffix, len - 2); /* keep the "b" */
        head[len - 2] = '\0';
        return match_bytes(head, factor);
    }
    return 0;
}

static int match_seconds(const char *suffix, double *factor) {
    static const prefix names[] = {
        {"s", 1.0},
        {"sec", 1.0},
        {"min", HWFIT_SECONDS_PER_MINUTE},
        {"h", HWFIT_SECONDS_PER_HOUR},
        {"d", HWFIT_SECONDS_PER_DAY},
        {"y", HWFIT_SECONDS_PER_YEAR},
    };
    for (size_t i = 0; i < HWFIT__COUNT_OF(names); i++) {
        if (strcmp(suffix, names[i].text) == 0) {
            *factor = names[i].factor;
            return 1;
        }
    }
    return strlen(suffix) > 1 &&
           match_prefixed(suffix, "s", small_prefixes, HWFIT__COUNT_OF(small_prefixes), factor);
}

static int match_watts(const char *suffix, double *factor) {
    return match_prefixed(suffix, "W", decimal_prefixes, HWFIT__COUNT_OF(decimal_prefixes),
                          factor) ||
           (strlen(suffix) > 1 &&
            match_prefixed(suffix, "W", small_prefixes, HWFIT__COUNT_OF(small_prefixes), factor));
}

static int match_flop(const char *suffix, int per_second, double *factor) {
    if (per_second)
        return match_prefixed(suffix, "FLOPS", decimal_prefixes, HWFIT__COUNT_OF(decimal_prefixes),
                              factor) ||
               match_prefixed(suffix, "FLOP/s", decimal_prefixes, HWFIT__COUNT_OF(decimal_prefixes),
                              factor);
    return match_prefixed(suffix, "FLOP", decimal_prefixes, HWFIT__COUNT_OF(decimal_prefixes),
                          factor);
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

hwfit_status hwfit_units_parse(const char *text, hwfit_unit unit, double *value) {
    if (text == NULL || value == NULL) return HWFIT_EINVAL;
    if ((unsigned)unit > (unsigned)HWFIT_UNIT_FLOP) return HWFIT_EINVAL;
    const char *s = text;
    while (is_space(*s)) s++;
    size_t n = number_span(s);
    if (n == 0) return HWFIT_EPARSE;
    double number = hwfit__strtod(s, n);
    int nonzero = hwfit__written_nonzero(s, n);
    s += n;
    while (is_space(*s)) s++;
    char suffix[32];
    size_t len = strlen(s);
    while (len > 0 && is_space(s[len - 1])) len--;
    if (len >= sizeof suffix) return HWFIT_EPARSE;
    memcpy(suffix, s, len);
    suffix[len] = '\0';

    double factor = 1.0;
    int ok = 0;
    if (len == 0) {
        ok = 1;
    } else {
        switch (unit) {
        case HWFIT_UNIT_NONE:
            ok = strcmp(suffix, "%") == 0;
            factor = 0.01;
            break;
        case HWFIT_UNIT_BYTES:
            ok = match_bytes(suffix, &factor);
            break;
        case HWFIT_UNIT_BYTES_PER_S:
            ok = match_rate(suffix, &factor);
            break;
        case HWFIT_UNIT_BITS_PER_S:
            ok = match_rate(suffix, &factor);
            factor *= HWFIT_BITS_PER_BYTE;
            break;
        case HWFIT_UNIT_WATTS:
            ok = match_watts(suffix, &factor);
            break;
        case HWFIT_UNIT_SECONDS:
            ok = match_seconds(suffix, &factor);
            break;
        case HWFIT_UNIT_FLOP_PER_S:
            ok = match_flop(suffix, 1, &factor);
            break;
        case HWFIT_UNIT_FLOP:
            ok = match_flop(suffix, 0, &factor);
            break;
        }
    }
    if (!ok) return HWFIT_EPARSE;
    if (number != number) return HWFIT_EDOM;
    if (number == HUGE_VAL || number == -HUGE_VAL) return HWFIT_ERANGE;
    double result = number * factor;
    if (!hwfit__finite(result)) return HWFIT_ERANGE;
    if (nonzero && result == 0.0) return HWFIT_ERANGE; /* 1e-400GB: too small, not 0 */
    if (result < 0.0) return HWFIT_EDOM;
    *value = result == 0.0 ? 0.0 : result; /* no negative zero */
    return HWFIT_OK;
}

/* ---- formatting ---------------------------------------------------------------------- */

/* Pick the largest factor <= |v| from a descending table; return its index. */
static size_t pick(double v, const double *factors, size_t count) {
    for (size_t i = 0; i < count; i++) {
        /* %.4g rounds: 999.96 would print as "1000", so bump early. */
        if (v >= factors[i] * (1.0 - 5e-5)) return i;
    }
    return count - 1;
}

void hwfit__c_decimal_point(char *text) {
    const struct lconv *lc = localeconv();
    char point = (lc && lc->decimal_point && lc->decimal_point[0]) ? lc->decimal_point[0] : '.';
    if (point == '.' || text == NULL) return;
    for (char *p = text; *p; p++)
        if (*p == point) *p = '.';
}

/* emit for texts whose only punctuation is numbers' decimal points: printf writes the
 * process locale's decimal point ("141,1" under de_DE); hwfit always writes '.'. */
static hwfit_status emit_num(char *buf, size_t size, const char *fmt, ...) HWFIT__PRINTF(3, 4);
static hwfit_status emit_num(char *buf, size_t size, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    if (n < 0) {
        if (size > 0) buf[0] = '\0';
        return HWFIT_EBUFSIZE;
    }
    if (size > 0) hwfit__c_decimal_point(buf);
    return (size_t)n < size ? HWFIT_OK : HWFIT_EBUFSIZE;
}

hwfit_status hwfit_units_format(double value, hwfit_unit unit, char *buf, size_t size) {
    static const double si[] = {1e18, 1e15, 1e12, 1e9, 1e6, 1e3, 1.0};
    static const char *const si_names[] = {"E", "P", "T", "G", "M", "k", ""};
    static const double iec[] = {HWFIT_EXBI, HWFIT_PEBI, HWFIT_TEBI, HWFIT_GIBI,
                                 HWFIT_MEBI, HWFIT_KIBI, 1.0};
    static const char *const iec_names[] = {"Ei", "Pi", "Ti", "Gi", "Mi", "Ki", ""};
    if (buf == NULL || (unsigned)unit > (unsigned)HWFIT_UNIT_FLOP) return HWFIT_EINVAL;
    if (!hwfit__finite(value)) return HWFIT_EDOM;
    const char *sign = value < 0 ? "-" : "";
    double v = fabs(value);
    size_t i;
    switch (unit) {
    case HWFIT_UNIT_NONE:
        return emit_num(buf, size, "%s%.4g", sign, v);
    case HWFIT_UNIT_BYTES: {
        i = pick(v, si, HWFIT__COUNT_OF(si));
        if (si[i] == 1.0) return emit_num(buf, size, "%s%.4g B", sign, v);
        size_t j = pick(v, iec, HWFIT__COUNT_OF(iec));
        return emit_num(buf, size, "%s%.4g %sB (%s%.4g %sB)", sign, v / si[i], si_names[i], sign,
                    v / iec[j], iec_names[j]);
    }
    case HWFIT_UNIT_BYTES_PER_S:
        i = pick(v, si, HWFIT__COUNT_OF(si));
        return emit_num(buf, size, "%s%.4g %sB/s", sign, v / si[i], si_names[i]);
    case HWFIT_UNIT_BITS_PER_S:
        i = pick(v, si, HWFIT__COUNT_OF(si));
        return emit_num(buf, size, "%s%.4g %sb/s", sign, v / si[i], si_names[i]);
    case HWFIT_UNIT_WATTS:
        i = pick(v, si, HWFIT__COUNT_OF(si));
        return emit_num(buf, size, "%s%.4g %sW", sign, v / si[i], si_names[i]);
    case HWFIT_UNIT_FLOP_PER_S:
        i = pick(v, si, HWFIT__COUNT_OF(si));
        return emit_num(buf, size, "%s%.4g %sFLOP/s", sign, v / si[i], si_names[i]);
    case HWFIT_UNIT_FLOP:
        i = pick(v, si, HWFIT__COUNT_OF(si));
        return emit_num(buf, size, "%s%.4g %sFLOP", sign, v / si[i], si_names[i]);
    default: { /* seconds (the unit is checked above) */
        static const double t[] = {HWFIT_SECONDS_PER_YEAR, HWFIT_SECONDS_PER_DAY,
                                   HWFIT_SECONDS_PER_HOUR, HWFIT_SECONDS_PER_MINUTE,
                                   1.0, 1e-3, 1e-6, 1e-9};
        static const char *const names[] = {"y", "d", "h", "min", "s", "ms", "us", "ns"};
        if (v == 0.0) return emit_num(buf, size, "0 s");
        i = pick(v, t, HWFIT__COUNT_OF(t));
        return emit_num(buf, size, "%s%.4g %s", sign, v / t[i], names[i]);
    }
    }
}

hwfit_status hwfit_units_format_count(uint64_t count, char *buf, size_t size) {
    if (buf == NULL) return HWFIT_EINVAL;
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)count);
    char out[32];
    size_t o = 0;
    for (int k = 0; k < n; k++) {
        if (k > 0 && (n - k) % 3 == 0) out[o++] = ',';
        out[o++] = digits[k];
    }
    out[o] = '\0';
    /* copied as it is: a grouped count's commas are not decimal points */
    if (o >= size) {
        if (size > 0) memcpy(buf, out, size - 1), buf[size - 1] = '\0';
        return HWFIT_EBUFSIZE;
    }
    memcpy(buf, out, o + 1);
    return HWFIT_OK;
}

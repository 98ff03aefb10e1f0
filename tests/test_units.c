/* Units: parsing and formatting against hand-derived values and round trips. */
#include <criterion/criterion.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit.h"
#include "base/internal.h"

static double parse_ok(const char *text, hwfit_unit unit) {
    double v = -1.0;
    hwfit_status st = hwfit_units_parse(text, unit, &v);
    cr_assert_eq(st, HWFIT_OK, "'%s': %s", text, hwfit_status_name(st));
    return v;
}

/* Relative tolerance 1e-12: the parser multiplies once, so only rounding separates it. */
#define ASSERT_NEAR_REL(got, want) \
    cr_assert(fabs((got) - (want)) <= 1e-12 * fabs(want), "got %.17g want %.17g", (got), (want))

Test(units, constants_are_the_si_and_iec_definitions) {
    cr_assert_eq(HWFIT_GIBI, 1073741824.0);
    cr_assert_eq(HWFIT_TEBI, 1099511627776.0);
    cr_assert_eq(HWFIT_GIGA, 1e9);
    cr_assert_eq(HWFIT_KIBI * HWFIT_KIBI * HWFIT_KIBI, HWFIT_GIBI);
    /* BTU/h per W: 3600 s/h / 1055.05585262 J/BTU (NIST SP 811). */
    ASSERT_NEAR_REL(HWFIT_BTU_PER_H_PER_W, 3600.0 / 1055.05585262);
    /* CFM: 0.3048^3 m^3 per minute. */
    cr_assert(fabs(HWFIT_M3_PER_S_PER_CFM - 0.3048 * 0.3048 * 0.3048 / 60.0) < 1e-13);
}

Test(units, parses_sizes_from_the_issue) {
    ASSERT_NEAR_REL(parse_ok("15.36TB", HWFIT_UNIT_BYTES), 15.36e12);
    ASSERT_NEAR_REL(parse_ok("96GiB", HWFIT_UNIT_BYTES), 96.0 * 1073741824.0);
    ASSERT_NEAR_REL(parse_ok("96GB", HWFIT_UNIT_BYTES), 96e9);
    ASSERT_NEAR_REL(parse_ok("1.5 TB", HWFIT_UNIT_BYTES), 1.5e12);
    ASSERT_NEAR_REL(parse_ok("  128KiB ", HWFIT_UNIT_BYTES), 131072.0);
    ASSERT_NEAR_REL(parse_ok("4096", HWFIT_UNIT_BYTES), 4096.0);
    ASSERT_NEAR_REL(parse_ok("8Gb", HWFIT_UNIT_BYTES), 1e9); /* bits */
    ASSERT_NEAR_REL(parse_ok("512B", HWFIT_UNIT_BYTES), 512.0);
}

Test(units, parses_rates_power_time_flops) {
    ASSERT_NEAR_REL(parse_ok("1GB/s", HWFIT_UNIT_BYTES_PER_S), 1e9);
    ASSERT_NEAR_REL(parse_ok("400Gb/s", HWFIT_UNIT_BYTES_PER_S), 50e9);
    ASSERT_NEAR_REL(parse_ok("400Gbps", HWFIT_UNIT_BYTES_PER_S), 50e9);
    ASSERT_NEAR_REL(parse_ok("400Gb/s", HWFIT_UNIT_BITS_PER_S), 400e9);
    ASSERT_NEAR_REL(parse_ok("1GiB/s", HWFIT_UNIT_BYTES_PER_S), 1073741824.0);
    ASSERT_NEAR_REL(parse_ok("3200W", HWFIT_UNIT_WATTS), 3200.0);
    ASSERT_NEAR_REL(parse_ok("3.2kW", HWFIT_UNIT_WATTS), 3200.0);
    ASSERT_NEAR_REL(parse_ok("2e6h", HWFIT_UNIT_SECONDS), 2e6 * 3600.0);
    ASSERT_NEAR_REL(parse_ok("250ms", HWFIT_UNIT_SECONDS), 0.25);
    ASSERT_NEAR_REL(parse_ok("5min", HWFIT_UNIT_SECONDS), 300.0);
    ASSERT_NEAR_REL(parse_ok("1y", HWFIT_UNIT_SECONDS), 365.0 * 86400.0);
    ASSERT_NEAR_REL(parse_ok("4PFLOPS", HWFIT_UNIT_FLOP_PER_S), 4e15);
    ASSERT_NEAR_REL(parse_ok("989.4 TFLOP/s", HWFIT_UNIT_FLOP_PER_S), 989.4e12);
    ASSERT_NEAR_REL(parse_ok("50%", HWFIT_UNIT_NONE), 0.5);
    ASSERT_NEAR_REL(parse_ok("1e-15", HWFIT_UNIT_NONE), 1e-15);
}

Test(units, refuses_malformed_text_without_touching_the_output) {
    static const struct {
        const char *text;
        hwfit_unit unit;
        hwfit_status want;
    } cases[] = {
        {"", HWFIT_UNIT_BYTES, HWFIT_EPARSE},
        {"GB", HWFIT_UNIT_BYTES, HWFIT_EPARSE},
        {"12 parsecs", HWFIT_UNIT_BYTES, HWFIT_EPARSE},
        {"15.36XB", HWFIT_UNIT_BYTES, HWFIT_EPARSE},
        {"3200W", HWFIT_UNIT_BYTES, HWFIT_EPARSE},
        {"1GB", HWFIT_UNIT_BYTES_PER_S, HWFIT_EPARSE},
        {"1GB/s", HWFIT_UNIT_BYTES, HWFIT_EPARSE},
        {"1ms", HWFIT_UNIT_BYTES, HWFIT_EPARSE},
        {"nan", HWFIT_UNIT_NONE, HWFIT_EPARSE},
        {"inf", HWFIT_UNIT_NONE, HWFIT_EPARSE},
        {"0x10", HWFIT_UNIT_NONE, HWFIT_EPARSE},
        {"1.2.3", HWFIT_UNIT_NONE, HWFIT_EPARSE},
        {"-5GB", HWFIT_UNIT_BYTES, HWFIT_EDOM},
        {"1e400", HWFIT_UNIT_NONE, HWFIT_ERANGE},
        {"1e300EB", HWFIT_UNIT_BYTES, HWFIT_ERANGE},
        {"1 G B", HWFIT_UNIT_BYTES, HWFIT_EPARSE},
        /* 1 followed by 309 zeros: just past DBL_MAX (1.797e308), however it is written. */
        {"1000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
         "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
         "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
         "0000000000000000000000000000000000000000000000000000000",
         HWFIT_UNIT_NONE, HWFIT_ERANGE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double v = 42.0;
        hwfit_status st = hwfit_units_parse(cases[i].text, cases[i].unit, &v);
        cr_assert_eq(st, cases[i].want, "'%s': got %s", cases[i].text, hwfit_status_name(st));
        cr_assert_eq(v, 42.0, "'%s' wrote the output on error", cases[i].text);
    }
    double v = 42.0;
    cr_assert_eq(hwfit_units_parse(NULL, HWFIT_UNIT_BYTES, &v), HWFIT_EINVAL);
    cr_assert_eq(hwfit_units_parse("1", HWFIT_UNIT_BYTES, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit_units_parse("1", (hwfit_unit)99, &v), HWFIT_EINVAL);
    cr_assert_eq(v, 42.0);
}

Test(units, long_numbers_convert_exactly_instead_of_overflowing) {
    /* 135 nines is 1e135 less one unit in the last place: far from overflow. */
    char nines[136];
    memset(nines, '9', 135);
    nines[135] = '\0';
    ASSERT_NEAR_REL(parse_ok(nines, HWFIT_UNIT_NONE), 1e135);
    /* 0.000...0015 with 1000 zeros after the point is 1.5e-1001: beyond a double, refused
     * (not silently 0); the same zeros without the 15 are 0. */
    char tiny[1010] = "0.";
    memset(tiny + 2, '0', 1000);
    strcpy(tiny + 1002, "15");
    double v = -1.0;
    cr_assert_eq(hwfit_units_parse(tiny, HWFIT_UNIT_NONE, &v), HWFIT_ERANGE);
    cr_assert_eq(v, -1.0);
    cr_assert_eq(hwfit_units_parse("1e-400GB", HWFIT_UNIT_BYTES, &v), HWFIT_ERANGE);
    tiny[1002] = '\0';
    cr_assert_eq(parse_ok(tiny, HWFIT_UNIT_NONE), 0.0);
    /* 400 significant digits then an exponent that brings it back: 1.234...e2 = 123.4... */
    char many[420] = "1.234";
    memset(many + 5, '0', 395);
    strcpy(many + 400, "1e2");
    ASSERT_NEAR_REL(parse_ok(many, HWFIT_UNIT_NONE), 123.4);
}

/* hwfit__strtod (shared by the units parser and the JSON reader) computed two ways: it
 * must give bit for bit what the C library's strtod gives on the same text in the "C"
 * locale, for short decimals (its fast path), long ones (its strtod path) and ones longer
 * than the 768 digits it keeps. A fixed xorshift generator keeps the cases reproducible. */
static uint64_t xorshift(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

Test(units, strtod_helper_agrees_with_the_c_library_bit_for_bit) {
    uint64_t seed = 88172645463325252ull;
    char buf[1200];
    for (int it = 0; it < 200000; it++) {
        size_t n = 0;
        if (xorshift(&seed) & 1) buf[n++] = '-';
        int int_digits = (int)(xorshift(&seed) % 20), frac_digits = (int)(xorshift(&seed) % 20);
        if (xorshift(&seed) % 100 == 0) int_digits = 700 + (int)(xorshift(&seed) % 400);
        for (int i = 0; i < int_digits; i++) buf[n++] = (char)('0' + xorshift(&seed) % 10);
        if (int_digits == 0) buf[n++] = '0';
        if (frac_digits > 0) {
            buf[n++] = '.';
            for (int i = 0; i < frac_digits; i++) buf[n++] = (char)('0' + xorshift(&seed) % 10);
        }
        if (xorshift(&seed) & 1)
            n += (size_t)sprintf(buf + n, "e%d", (int)(xorshift(&seed) % 700) - 350);
        buf[n] = '\0';
        double got = hwfit__strtod(buf, n), want = strtod(buf, NULL);
        cr_assert(memcmp(&got, &want, sizeof got) == 0, "%s: got %.17g, strtod %.17g", buf, got,
                  want);
    }
}

Test(units, strtod_helper_reads_only_n_bytes_and_the_loose_forms_units_accept) {
    cr_assert_eq(hwfit__strtod("12345", 3), 123.0);
    cr_assert_eq(hwfit__strtod("1.5e3xyz", 5), 1500.0);
    cr_assert_eq(hwfit__strtod("+.5", 3), 0.5);
    cr_assert_eq(hwfit__strtod("5.", 2), 5.0);
    cr_assert_eq(hwfit__strtod("1e", 2), 1.0, "a bare 'e' adds nothing");
    cr_assert_eq(hwfit__strtod("1e308", 5), 1e308);
    cr_assert_eq(hwfit__strtod("1e309", 5), HUGE_VAL);
    cr_assert_eq(hwfit__strtod("-1e309", 6), -HUGE_VAL);
    cr_assert_eq(hwfit__strtod("1e-99999999999999", 17), 0.0);
    cr_assert(signbit(hwfit__strtod("-0.000", 6)));
}

Test(units, formatting_writes_a_decimal_point_in_any_locale) {
    /* Checked only where a decimal-comma locale is installed (not on a bare CI machine). */
    if (setlocale(LC_NUMERIC, "de_DE.UTF-8") == NULL && setlocale(LC_NUMERIC, "de_DE") == NULL)
        return;
    char buf[64];
    cr_assert_eq(hwfit_units_format(141.1e9, HWFIT_UNIT_BYTES, buf, sizeof buf), HWFIT_OK);
    setlocale(LC_NUMERIC, "C");
    cr_assert_str_eq(buf, "141.1 GB (131.4 GiB)");
}

Test(units, parsing_ignores_the_process_locale) {
    /* A host program may set a locale with a decimal comma; "1.5TB" must not change. */
    if (setlocale(LC_NUMERIC, "de_DE.UTF-8") == NULL) setlocale(LC_NUMERIC, "C");
    ASSERT_NEAR_REL(parse_ok("1.5TB", HWFIT_UNIT_BYTES), 1.5e12);
    setlocale(LC_NUMERIC, "C");
}

static const char *fmt(double v, hwfit_unit unit) {
    static char buf[64];
    hwfit_status st = hwfit_units_format(v, unit, buf, sizeof buf);
    cr_assert_eq(st, HWFIT_OK);
    return buf;
}

Test(units, formats_for_people) {
    cr_assert_str_eq(fmt(141.1e9, HWFIT_UNIT_BYTES), "141.1 GB (131.4 GiB)");
    cr_assert_str_eq(fmt(768e9, HWFIT_UNIT_BYTES), "768 GB (715.3 GiB)");
    cr_assert_str_eq(fmt(61.44e12, HWFIT_UNIT_BYTES), "61.44 TB (55.88 TiB)");
    cr_assert_str_eq(fmt(512, HWFIT_UNIT_BYTES), "512 B");
    cr_assert_str_eq(fmt(0, HWFIT_UNIT_BYTES), "0 B");
    cr_assert_str_eq(fmt(64e9, HWFIT_UNIT_BYTES_PER_S), "64 GB/s");
    cr_assert_str_eq(fmt(1597e9, HWFIT_UNIT_BYTES_PER_S), "1.597 TB/s");
    cr_assert_str_eq(fmt(400e9, HWFIT_UNIT_BITS_PER_S), "400 Gb/s");
    cr_assert_str_eq(fmt(6500, HWFIT_UNIT_WATTS), "6.5 kW");
    cr_assert_str_eq(fmt(600, HWFIT_UNIT_WATTS), "600 W");
    cr_assert_str_eq(fmt(4.5 * 3600, HWFIT_UNIT_SECONDS), "4.5 h");
    cr_assert_str_eq(fmt(0.0123, HWFIT_UNIT_SECONDS), "12.3 ms");
    cr_assert_str_eq(fmt(42e-6, HWFIT_UNIT_SECONDS), "42 us");
    cr_assert_str_eq(fmt(4e15, HWFIT_UNIT_FLOP_PER_S), "4 PFLOP/s");
    cr_assert_str_eq(fmt(-600, HWFIT_UNIT_WATTS), "-600 W");
    /* Rounding at a prefix boundary moves up, never prints "1000 GB". */
    cr_assert_str_eq(fmt(999.99e9, HWFIT_UNIT_BYTES_PER_S), "1 TB/s");
}

Test(units, format_then_parse_round_trips_to_four_digits) {
    const double values[] = {1.0, 999.0, 1234.5, 96e9, 15.36e12, 3.3e15, 7.1e-4};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        char buf[64];
        cr_assert_eq(hwfit_units_format(values[i], HWFIT_UNIT_BYTES_PER_S, buf, sizeof buf),
                     HWFIT_OK);
        double back = parse_ok(buf, HWFIT_UNIT_BYTES_PER_S);
        cr_assert(fabs(back - values[i]) <= 5e-4 * values[i], "%g -> %s -> %g", values[i], buf,
                  back);
    }
}

Test(units, format_errors) {
    char buf[8];
    cr_assert_eq(hwfit_units_format(NAN, HWFIT_UNIT_BYTES, buf, sizeof buf), HWFIT_EDOM);
    cr_assert_eq(hwfit_units_format(INFINITY, HWFIT_UNIT_BYTES, buf, sizeof buf), HWFIT_EDOM);
    cr_assert_eq(hwfit_units_format(1, HWFIT_UNIT_BYTES, NULL, 8), HWFIT_EINVAL);
    cr_assert_eq(hwfit_units_format(1, (hwfit_unit)42, buf, sizeof buf), HWFIT_EINVAL);
    cr_assert_eq(hwfit_units_format(141.1e9, HWFIT_UNIT_BYTES, buf, sizeof buf), HWFIT_EBUFSIZE);
    cr_assert_eq(buf[sizeof buf - 1], '\0', "truncated text is terminated");
}

Test(units, counts_have_thousands_separators) {
    char buf[32];
    cr_assert_eq(hwfit_units_format_count(70553706496ull, buf, sizeof buf), HWFIT_OK);
    cr_assert_str_eq(buf, "70,553,706,496");
    hwfit_units_format_count(0, buf, sizeof buf);
    cr_assert_str_eq(buf, "0");
    hwfit_units_format_count(999, buf, sizeof buf);
    cr_assert_str_eq(buf, "999");
    hwfit_units_format_count(1000, buf, sizeof buf);
    cr_assert_str_eq(buf, "1,000");
    hwfit_units_format_count(UINT64_MAX, buf, sizeof buf);
    cr_assert_str_eq(buf, "18,446,744,073,709,551,615");
    cr_assert_eq(hwfit_units_format_count(1000000, buf, 4), HWFIT_EBUFSIZE);
    cr_assert_eq(hwfit_units_format_count(1, NULL, 4), HWFIT_EINVAL);
}

/* fuzz_units.c - libFuzzer target for the quantity parser and formatters (lib/units.c).
 *
 * The input is text. For every hwfit_unit it must parse to a finite, non-negative value
 * (never -0) or fail with EPARSE, EDOM or ERANGE leaving the value untouched; a parsed value
 * must format for people within 48 bytes, and a buffer too small must give EBUFSIZE with a
 * NUL-terminated prefix. A text that is a plain decimal number must read exactly as the C
 * library's strtod reads it (differential check of hwfit__strtod, which claims correct
 * rounding for any length). The first 8 bytes also go through hwfit_units_format_count and
 * hwfit_units_format as raw values.
 */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* 1 when s is exactly [+-]digits[.digits][(e|E)[+-]digits] with at least one digit. */
static int plain_decimal(const char *s) {
    size_t i = 0, digits = 0;
    if (s[i] == '+' || s[i] == '-') i++;
    while (s[i] >= '0' && s[i] <= '9') i++, digits++;
    if (s[i] == '.') {
        i++;
        while (s[i] >= '0' && s[i] <= '9') i++, digits++;
    }
    if (digits == 0) return 0;
    if (s[i] == 'e' || s[i] == 'E') {
        size_t j = i + 1, e = 0;
        if (s[j] == '+' || s[j] == '-') j++;
        while (s[j] >= '0' && s[j] <= '9') j++, e++;
        if (e == 0) return 0;
        i = j;
    }
    return s[i] == '\0';
}

static void check_format(double value, hwfit_unit unit) {
    char buf[48];
    hwfit_status st = hwfit_units_format(value, unit, buf, sizeof buf);
    if (!hwfit__finite(value)) {
        FZ_CHECK(st == HWFIT_EDOM);
        return;
    }
    FZ_CHECK(st == HWFIT_OK);
    size_t len = strlen(buf);
    FZ_CHECK(len > 0 && len < sizeof buf);
    /* Every shorter buffer truncates, stays NUL-terminated and says so. */
    for (size_t n = 1; n <= len; n++) {
        char small[48];
        memset(small, 0x5a, sizeof small);
        FZ_CHECK(hwfit_units_format(value, unit, small, n) == HWFIT_EBUFSIZE);
        FZ_CHECK(memchr(small, '\0', n) != NULL);
        FZ_CHECK(strncmp(small, buf, n - 1) == 0);
    }
    FZ_CHECK(hwfit_units_format(value, unit, buf, 0) == HWFIT_EBUFSIZE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 4096) return 0; /* the parser's inputs are short; keep the fuzzer fast */
    char *text = malloc(size + 1);
    if (text == NULL) return 0;
    if (size) memcpy(text, data, size);
    text[size] = '\0';

    for (int u = 0; u <= (int)HWFIT_UNIT_FLOP; u++) {
        double v = -12345.0;
        hwfit_status st = hwfit_units_parse(text, (hwfit_unit)u, &v);
        FZ_CHECK(st == HWFIT_OK || st == HWFIT_EPARSE || st == HWFIT_EDOM || st == HWFIT_ERANGE);
        if (st != HWFIT_OK) {
            FZ_CHECK(v == -12345.0);
            continue;
        }
        FZ_CHECK(hwfit__finite(v) && v >= 0.0 && !signbit(v));
        check_format(v, (hwfit_unit)u);
    }
    double v = 1.0;
    FZ_CHECK(hwfit_units_parse(text, (hwfit_unit)8, &v) == HWFIT_EINVAL);
    FZ_CHECK(hwfit_units_parse(text, HWFIT_UNIT_BYTES, NULL) == HWFIT_EINVAL);

    if (plain_decimal(text)) {
        double mine = hwfit__strtod(text, strlen(text)), libc = strtod(text, NULL);
        /* Both round to nearest, ties to even; overflow gives +-HUGE_VAL in both. */
        FZ_CHECK(memcmp(&mine, &libc, sizeof mine) == 0);
    }

    fz f = {data, size};
    uint64_t count = fz_raw64(&f);
    char buf[27], digits[24];
    FZ_CHECK(hwfit_units_format_count(count, buf, sizeof buf) == HWFIT_OK);
    size_t o = 0;
    for (const char *p = buf; *p; p++) {
        FZ_CHECK((*p >= '0' && *p <= '9') || *p == ',');
        if (*p != ',') digits[o++] = *p;
    }
    digits[o] = '\0';
    char want[24];
    snprintf(want, sizeof want, "%llu", (unsigned long long)count);
    FZ_CHECK(strcmp(digits, want) == 0);
    f.p = data;
    f.n = size;
    double raw;
    uint64_t bits = fz_raw64(&f);
    memcpy(&raw, &bits, sizeof raw);
    check_format(raw, (hwfit_unit)(size % 8));
    free(text);
    return 0;
}

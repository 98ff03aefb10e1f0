/*
 * base/internal.h - the checks, refusal reports, number reading and error reports every
 * layer of lib/ shares. Never installed.
 *
 * Non-static internals carry the hwfit__ prefix (double underscore); everything else in
 * lib/ is static. Nothing here is API: the exported-symbol test keeps it that way.
 * Include it as "base/internal.h" (lib/README.md: the layers and their headers); it needs
 * only hwfit/status.h. Checked integer arithmetic is in base/checked.h, the text writer in
 * base/text.h, the JSON reader in readers/json.h.
 */
#ifndef HWFIT_INTERNAL_H
#define HWFIT_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "hwfit/status.h"

#if defined(__GNUC__)
#  define HWFIT__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#  define HWFIT__PRINTF(f, a)
#endif

/* ---- checks shared by every module (rule: every double input is checked) ---------- */

/* 1 when x is finite and lo <= x <= hi. */
static inline int hwfit__in_range(double x, double lo, double hi) {
    return x == x && x >= lo && x <= hi && x - x == 0.0;
}

/* 1 when x is finite. Written without isfinite() so it works the same everywhere. */
static inline int hwfit__finite(double x) { return x == x && x - x == 0.0; }

/* 1 when all n doubles are finite. Calculations check their results with it before they
 * return them: an input that need only be positive can be so small (1e-300) that a
 * quotient overflows, and HWFIT_OK promises finite results. */
static inline int hwfit__all_finite(const double *x, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!hwfit__finite(x[i])) return 0;
    return 1;
}

/* Rule of the HWFIT_ERANGE those checks return. */
#define HWFIT__OVERFLOW "makes a result overflow a double (a value too close to 0)"

/* ---- why an input was refused (hwfit_problem) ----------------------------------------
 *
 * Calculations are written once, as a static function taking a `hwfit_problem *why` that
 * may be NULL; every refusal goes through hwfit__why, which records the first problem and
 * returns the status. The public calculation passes NULL, its _validate companion a
 * report, so both return the same status for the same inputs. Strings must be static. */
hwfit_status hwfit__why(hwfit_problem *problem, hwfit_status status, const char *field,
                        const char *rule);
/* The same for element `index` of an array field. */
hwfit_status hwfit__why_at(hwfit_problem *problem, hwfit_status status, const char *field,
                           size_t index, const char *rule);

/* A function kept out of its callers' frames when the optimiser would inline it: its large
 * locals then stay off the stack of the callers' other chains (tests/stack, at -O2 as at
 * -O0). For the few frames split for that reason; GCC and Clang, else nothing. */
#if defined(__GNUC__)
#define HWFIT__NOINLINE __attribute__((noinline))
#else
#define HWFIT__NOINLINE
#endif

/* Rules shared by many fields (one wording everywhere). */
#define HWFIT__NULL "is NULL"
#define HWFIT__NOT_FINITE "is NaN or infinite"
#define HWFIT__ENUM "is not a value of its enum"

/* ---- numbers ------------------------------------------------------------------------ */

/* s[0..n) as the nearest double: an optional sign, digits with an optional '.', and an
 * optional exponent (the caller has checked that grammar; s need not be NUL-terminated).
 * Independent of the process locale and exact for any length. Returns +-HUGE_VAL when
 * the value overflows a double and a (signed) zero or subnormal when it underflows. */
double hwfit__strtod(const char *s, size_t n);

/* 1 when the number s[0..n) (the grammar above) has a non-zero digit before its exponent:
 * a value written as non-zero, which must not silently read as 0 (underflow). */
int hwfit__written_nonzero(const char *s, size_t n);

/* Replace the process locale's decimal point (when it is not '.') by '.' in a text printf
 * wrote, so numbers read the same whatever locale the host program set. */
void hwfit__c_decimal_point(char *text);

/* ---- error reports ------------------------------------------------------------------ */

/* Fill err (if not NULL) with status, position and a printf-style message; return status. */
hwfit_status hwfit__error_set(hwfit_error *err, hwfit_status status, uint32_t line,
                              uint32_t column, size_t offset, const char *fmt, ...)
    HWFIT__PRINTF(6, 7);

/* The same with a va_list, for the readers' own failure helpers: the message is formatted
 * through a copy first (so its arguments may point into err->message), and with a prefix
 * (a file name or section; NULL for none) it reads "prefix: message". */
hwfit_status hwfit__error_vset(hwfit_error *err, hwfit_status status, uint32_t line,
                               uint32_t column, size_t offset, const char *prefix,
                               const char *fmt, va_list ap) HWFIT__PRINTF(7, 0);

/* Read a whole file into a NUL-terminated heap buffer (caller frees with free()).
 * Files over max_bytes are refused with HWFIT_ERANGE. Errors name the path. */
hwfit_status hwfit__read_file(const char *path, size_t max_bytes, char **data, size_t *length,
                              hwfit_error *err);

#endif /* HWFIT_INTERNAL_H */

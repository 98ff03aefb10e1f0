/*
 * internal.h - declarations shared inside lib/ and never installed.
 *
 * Non-static internals carry the hwfit__ prefix (double underscore); everything else in
 * lib/ is static. Nothing here is API: the exported-symbol test keeps it that way.
 */
#ifndef HWFIT_INTERNAL_H
#define HWFIT_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "hwfit.h"

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

/* Replace the process locale's decimal point (when it is not '.') by '.' in a text printf
 * wrote, so numbers read the same whatever locale the host program set. */
void hwfit__c_decimal_point(char *text);

/* ---- error reports ------------------------------------------------------------------ */

/* Fill err (if not NULL) with status, position and a printf-style message; return status. */
hwfit_status hwfit__error_set(hwfit_error *err, hwfit_status status, uint32_t line,
                              uint32_t column, size_t offset, const char *fmt, ...)
    HWFIT__PRINTF(6, 7);

/* Read a whole file into a NUL-terminated heap buffer (caller frees with free()).
 * Files over max_bytes are refused with HWFIT_ERANGE. Errors name the path. */
hwfit_status hwfit__read_file(const char *path, size_t max_bytes, char **data, size_t *length,
                              hwfit_error *err);

/* ---- strict JSON reader (lib/json.c) -------------------------------------------------
 *
 * RFC 8259 exactly: no comments, no trailing commas, no NaN/Infinity, no leading zeros,
 * UTF-8 validated, \u escapes (with surrogate pairs) decoded, \u0000 refused, duplicate
 * object keys refused, nesting limited to HWFIT__JSON_MAX_DEPTH, numbers that overflow a
 * double refused. Every value records its line, column and offset for error messages.
 * The whole document lives in one allocation list freed by hwfit__json_free.
 */
#define HWFIT__JSON_MAX_DEPTH 64
#define HWFIT__JSON_MAX_BYTES (64u * 1024u * 1024u)

typedef enum hwfit__json_type {
    HWFIT__JSON_NULL,
    HWFIT__JSON_BOOL,
    HWFIT__JSON_NUMBER,
    HWFIT__JSON_STRING,
    HWFIT__JSON_ARRAY,
    HWFIT__JSON_OBJECT
} hwfit__json_type;

typedef struct hwfit__json_value hwfit__json_value;
typedef struct hwfit__json_member hwfit__json_member;

struct hwfit__json_value {
    hwfit__json_type type;
    uint32_t line, column; /* 1-based position of the value's first byte */
    size_t offset;         /* 0-based byte offset of the same */
    union {
        int boolean;
        struct {
            double value;    /* always set */
            int is_integer;  /* written without fraction or exponent and fits int64 */
            int64_t integer; /* exact value when is_integer */
        } number;
        struct {
            const char *text; /* decoded UTF-8, NUL-terminated, no embedded NUL */
            size_t length;
        } string;
        struct {
            hwfit__json_value *items;
            size_t count;
        } array;
        struct {
            hwfit__json_member *members; /* in document order */
            size_t count;
        } object;
    } u;
};

struct hwfit__json_member {
    const char *key; /* decoded UTF-8, NUL-terminated */
    size_t key_length;
    hwfit__json_value value;
    uint32_t key_line, key_column;
    size_t key_offset; /* 0-based byte offset of the key's opening quote */
};

typedef struct hwfit__json_doc hwfit__json_doc;

/* Parse text[0..length) (need not be NUL-terminated). On success *doc owns everything;
 * free with hwfit__json_free. On error *doc is untouched and err says where and why:
 * HWFIT_EPARSE for malformed text; HWFIT_ERANGE for a number beyond a double, nesting
 * beyond HWFIT__JSON_MAX_DEPTH, or more than HWFIT__JSON_MAX_BYTES (line 0: no position);
 * HWFIT_ENOMEM; HWFIT_EINVAL for a NULL text or doc. err may be NULL. Reentrant. */
hwfit_status hwfit__json_parse(const char *text, size_t length, hwfit__json_doc **doc,
                               hwfit_error *err);
/* The readers' front door: refuse input over max_bytes (HWFIT_ERANGE), parse, and put the
 * file's name in front of any error message ("config.json: 3:14: ..." style, with the
 * position in err). */
hwfit_status hwfit__json_parse_file_text(const char *text, size_t length, size_t max_bytes,
                                         const char *name, hwfit__json_doc **doc,
                                         hwfit_error *err);
const hwfit__json_value *hwfit__json_root(const hwfit__json_doc *doc);
void hwfit__json_free(hwfit__json_doc *doc);

/* Member of an object by key (linear search), or NULL when absent or obj is not an object. */
const hwfit__json_value *hwfit__json_get(const hwfit__json_value *obj, const char *key);

/* The member itself (key position included), or NULL as for hwfit__json_get. */
const hwfit__json_member *hwfit__json_get_member(const hwfit__json_value *obj, const char *key);

/* Name of a type for messages: "null", "boolean", "number", "string", "array", "object". */
const char *hwfit__json_type_name(hwfit__json_type type);

/* Typed member readers for the config and node readers. Each looks up key in obj:
 * - absent (or JSON null when null_is_absent): leaves *out untouched, sets *present = 0
 *   (present may be NULL), and returns HWFIT_OK unless required, then HWFIT_EPARSE
 *   "missing required key 'k'";
 * - present with the wrong type or out of [lo, hi]: HWFIT_EPARSE with the key's position
 *   and a message that names the key, what it got and what it wanted.
 * `where` prefixes messages (a file name or object path, e.g. "config.json"); may be NULL.
 * NULL ctx, obj, key or out (or an unknown unit) give HWFIT_EINVAL; an obj that is not an
 * object gives HWFIT_EPARSE. On success err is left alone. Integer readers also accept
 * numbers written as 32.0 or 1e3 when a double holds them exactly (up to 2^53). */
typedef struct hwfit__json_ctx {
    const char *where;
    int null_is_absent;
    hwfit_error *err;
} hwfit__json_ctx;

hwfit_status hwfit__json_read_u64(const hwfit__json_ctx *ctx, const hwfit__json_value *obj,
                                  const char *key, int required, uint64_t lo, uint64_t hi,
                                  uint64_t *out, int *present);
hwfit_status hwfit__json_read_double(const hwfit__json_ctx *ctx, const hwfit__json_value *obj,
                                     const char *key, int required, double lo, double hi,
                                     double *out, int *present);
hwfit_status hwfit__json_read_bool(const hwfit__json_ctx *ctx, const hwfit__json_value *obj,
                                   const char *key, int required, int *out, int *present);
/* *out points into the document (valid until hwfit__json_free). */
hwfit_status hwfit__json_read_string(const hwfit__json_ctx *ctx, const hwfit__json_value *obj,
                                     const char *key, int required, const char **out,
                                     int *present);
/* A number in base units, or a string with a unit parsed by hwfit_units_parse
 * ("96GB", "3200W", "400Gb/s"); the result must lie in [lo, hi]. */
hwfit_status hwfit__json_read_quantity(const hwfit__json_ctx *ctx,
                                       const hwfit__json_value *obj, const char *key,
                                       int required, hwfit_unit unit, double lo, double hi,
                                       double *out, int *present);
/* Fail with a position when obj has a key not in the NULL-terminated list `known`
 * (strict readers refuse typos such as "num_hiden_layers"). */
hwfit_status hwfit__json_check_keys(const hwfit__json_ctx *ctx, const hwfit__json_value *obj,
                                    const char *const *known);

#endif /* HWFIT_INTERNAL_H */

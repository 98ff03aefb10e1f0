/*
 * readers/json.h - the strict JSON reader of lib/readers/json.c, shared by the readers
 * (hf_config.c, node_spec.c). Never installed; not API.
 *
 * RFC 8259 exactly: no comments, no trailing commas, no NaN/Infinity, no leading zeros,
 * UTF-8 validated, \u escapes (with surrogate pairs) decoded, \u0000 refused, duplicate
 * object keys refused, nesting limited to HWFIT__JSON_MAX_DEPTH, numbers that overflow a
 * double refused. Every value records its line, column and offset for error messages.
 * The whole document lives in one allocation list freed by hwfit__json_free.
 */
#ifndef HWFIT_READERS_JSON_H
#define HWFIT_READERS_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "hwfit/status.h"
#include "hwfit/units.h"
#include "base/internal.h" /* HWFIT__PRINTF */

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

/* A reader's refusal at a value's position (line, column, offset; none when v is NULL),
 * prefixed with where (the file name): the one failure helper of the JSON-based readers. */
hwfit_status hwfit__json_fail_at(hwfit_error *err, const char *where, hwfit_status status,
                                 const hwfit__json_value *v, const char *fmt, ...)
    HWFIT__PRINTF(5, 6);

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

#endif /* HWFIT_READERS_JSON_H */

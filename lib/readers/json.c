/* json.c - the strict JSON reader behind the config and node readers (lib/internal.h).
 *
 * The grammar is RFC 8259 (T. Bray, "The JavaScript Object Notation (JSON) Data
 * Interchange Format", IETF, 2017) with nothing added: no comments, no trailing commas,
 * no NaN or Infinity, no single quotes, no byte order mark. UTF-8 is validated against the
 * table of RFC 3629 section 4 (no overlong forms, no surrogates, nothing above U+10FFFF).
 * Limits that RFC 8259 section 9 lets a parser set: HWFIT__JSON_MAX_BYTES of input,
 * HWFIT__JSON_MAX_DEPTH levels of nesting, numbers within a double, no duplicate keys
 * (section 4 leaves their meaning open, so a strict reader refuses them), no U+0000.
 *
 * Design: descent with an explicit stack of the open containers (allocated,
 * HWFIT__JSON_MAX_DEPTH deep), so the C stack a parse needs does not grow with the nesting
 * (no public call may need more than 16 KiB). Children of an array or an object are
 * collected on a scratch stack (amortised doubling) and copied into the document's
 * arena, in one block, when the container closes; strings are decoded into a scratch
 * buffer and copied likewise. The arena is a list of chunks, freed together. Positions
 * come from the current line's start, which only moves in white space (strings hold no
 * raw newline), so every error and value is located without rescanning.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit/status.h"
#include "hwfit/units.h"

#include "base/internal.h"
#include "base/text.h"
#include "readers/json.h"

/* ---- the document: an arena of chunks ------------------------------------------------ */

typedef struct chunk {
    struct chunk *next;
    size_t used, cap;
    max_align_t data[]; /* cap bytes */
} chunk;

struct hwfit__json_doc {
    chunk *chunks;
    size_t next_cap; /* size of the next ordinary chunk */
    hwfit__json_value root;
};

#define ARENA_ALIGN ((size_t)_Alignof(max_align_t))
#define ARENA_FIRST_CHUNK ((size_t)4096)
#define ARENA_MAX_CHUNK ((size_t)1 << 20)

static void *arena_alloc(hwfit__json_doc *doc, size_t size) {
    if (size > SIZE_MAX - ARENA_ALIGN) return NULL;
    size = (size + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN;
    chunk *head = doc->chunks;
    if (head != NULL && head->cap - head->used >= size) {
        void *p = (unsigned char *)head->data + head->used;
        head->used += size;
        return p;
    }
    /* A request larger than an ordinary chunk gets a chunk of its own, linked behind the
     * head so the head's free space stays in use. */
    int own = size > doc->next_cap / 2;
    size_t cap = own ? size : doc->next_cap;
    if (cap > SIZE_MAX - sizeof(chunk)) return NULL;
    chunk *c = malloc(sizeof(chunk) + cap);
    if (c == NULL) return NULL;
    c->cap = cap;
    c->used = size;
    if (own && head != NULL) {
        c->next = head->next;
        head->next = c;
    } else {
        c->next = head;
        doc->chunks = c;
        if (doc->next_cap < ARENA_MAX_CHUNK) doc->next_cap *= 2;
    }
    return c->data;
}

void hwfit__json_free(hwfit__json_doc *doc) {
    if (doc == NULL) return;
    chunk *c = doc->chunks;
    while (c != NULL) {
        chunk *next = c->next;
        free(c);
        c = next;
    }
    free(doc);
}

const hwfit__json_value *hwfit__json_root(const hwfit__json_doc *doc) {
    return doc == NULL ? NULL : &doc->root;
}

const char *hwfit__json_type_name(hwfit__json_type type) {
    switch (type) {
    case HWFIT__JSON_NULL:
        return "null";
    case HWFIT__JSON_BOOL:
        return "boolean";
    case HWFIT__JSON_NUMBER:
        return "number";
    case HWFIT__JSON_STRING:
        return "string";
    case HWFIT__JSON_ARRAY:
        return "array";
    case HWFIT__JSON_OBJECT:
        return "object";
    }
    return "unknown";
}

/* ---- the parser ----------------------------------------------------------------------- */

typedef struct parser {
    const unsigned char *text;
    size_t length, pos;
    uint32_t line;     /* 1-based line of pos */
    size_t line_start; /* offset of that line's first byte */
    hwfit__json_doc *doc;
    hwfit_error *err;
    /* scratch, freed after the parse */
    hwfit__json_value *values;
    size_t n_values, cap_values;
    hwfit__json_member *members;
    size_t n_members, cap_members;
    char *bytes;
    size_t n_bytes, cap_bytes;
} parser;

/* Line and column of an offset on the current line (all errors and values are there). */
static void position(const parser *p, size_t offset, uint32_t *line, uint32_t *column) {
    if (offset >= p->line_start) {
        *line = p->line;
        *column = (uint32_t)(offset - p->line_start + 1);
        return;
    }
    /* Not reached by the parser; kept so a position is never wrong. */
    uint32_t l = 1;
    size_t start = 0;
    for (size_t i = 0; i < offset; i++) {
        if (p->text[i] == '\n') {
            l++;
            start = i + 1;
        }
    }
    *line = l;
    *column = (uint32_t)(offset - start + 1);
}

static hwfit_status fail(parser *p, hwfit_status status, size_t offset, const char *fmt, ...)
    HWFIT__PRINTF(4, 5);
static hwfit_status fail(parser *p, hwfit_status status, size_t offset, const char *fmt, ...) {
    uint32_t line, column;
    position(p, offset, &line, &column);
    va_list ap;
    va_start(ap, fmt);
    status = hwfit__error_vset(p->err, status, line, column, offset, NULL, fmt, ap);
    va_end(ap);
    return status;
}

static hwfit_status out_of_memory(parser *p) {
    return fail(p, HWFIT_ENOMEM, p->pos, "out of memory");
}

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static int is_word(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_';
}

#define DESCRIBE_SIZE 96

/* What the parser found at `at`, for "expected X, found Y" messages. */
static const char *describe(const parser *p, size_t at, char *buf, size_t size) {
    if (at >= p->length) return "end of input";
    const unsigned char *t = p->text + at;
    size_t left = p->length - at;
    unsigned char c = t[0];
    if (is_word(c)) {
        size_t n = 0;
        while (n < left && is_word(t[n])) n++;
        const char *hint = "";
        static const char *const not_json[] = {"NaN", "nan", "Infinity", "inf", "Inf"};
        static const char *const capitals[] = {"True", "False", "None", "Null",
                                               "TRUE", "FALSE", "NULL"};
        for (size_t i = 0; i < sizeof not_json / sizeof not_json[0]; i++)
            if (strlen(not_json[i]) == n && memcmp(t, not_json[i], n) == 0)
                hint = " (NaN and Infinity are not JSON numbers)";
        for (size_t i = 0; i < sizeof capitals / sizeof capitals[0]; i++)
            if (strlen(capitals[i]) == n && memcmp(t, capitals[i], n) == 0)
                hint = " (JSON literals are lower-case: true, false, null)";
        if (n > 24) snprintf(buf, size, "'%.24s...'", (const char *)t);
        else snprintf(buf, size, "'%.*s'%s", (int)n, (const char *)t, hint);
        return buf;
    }
    if (c == '\n') return "a newline";
    if (c < 0x20 || c == 0x7f) {
        snprintf(buf, size, "control character 0x%02X", c);
        return buf;
    }
    if (c >= 0x80) {
        if (left >= 3 && c == 0xEF && t[1] == 0xBB && t[2] == 0xBF)
            return "a byte order mark (U+FEFF), which JSON text must not start with";
        snprintf(buf, size, "byte 0x%02X", c);
        return buf;
    }
    switch (c) {
    case '/':
        return "'/' (JSON has no comments)";
    case '\'':
        return "''' (JSON strings use double quotes)";
    case '+':
        return "'+' (JSON numbers have no leading '+')";
    case '.':
        return "'.' (JSON numbers need a digit before '.')";
    default:
        break;
    }
    snprintf(buf, size, "'%c'", c);
    return buf;
}

static void skip_ws(parser *p) {
    const unsigned char *t = p->text;
    size_t i = p->pos, n = p->length;
    while (i < n) {
        unsigned char c = t[i];
        if (c == ' ' || c == '\t' || c == '\r') {
            i++;
        } else if (c == '\n') {
            i++;
            p->line++;
            p->line_start = i;
        } else {
            break;
        }
    }
    p->pos = i;
}

/* A scratch array reallocated to twice its capacity (*cap updated), or NULL on failure
 * with the old array left alone. */
static void *grow(void *array, size_t *cap, size_t elem) {
    size_t ncap = *cap ? *cap * 2 : 16;
    if (ncap > SIZE_MAX / elem) return NULL;
    void *a = realloc(array, ncap * elem);
    if (a != NULL) *cap = ncap;
    return a;
}

static int bytes_append(parser *p, const void *src, size_t n) {
    if (p->cap_bytes - p->n_bytes < n) {
        size_t ncap = p->cap_bytes ? p->cap_bytes : 256;
        while (ncap - p->n_bytes < n) {
            if (ncap > SIZE_MAX / 2) return 0;
            ncap *= 2;
        }
        char *b = realloc(p->bytes, ncap);
        if (b == NULL) return 0;
        p->bytes = b;
        p->cap_bytes = ncap;
    }
    memcpy(p->bytes + p->n_bytes, src, n);
    p->n_bytes += n;
    return 1;
}

/* ---- strings -------------------------------------------------------------------------- */

static int hex_value(unsigned char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Four hex digits at `at` (after "\u") into *cp. */
static hwfit_status read_hex4(parser *p, size_t at, unsigned *cp) {
    unsigned v = 0;
    char buf[DESCRIBE_SIZE];
    for (size_t k = 0; k < 4; k++) {
        int h = at + k < p->length ? hex_value(p->text[at + k]) : -1;
        if (h < 0)
            return fail(p, HWFIT_EPARSE, at + k, "expected 4 hex digits after '\\u', found %s",
                        describe(p, at + k, buf, sizeof buf));
        v = v * 16 + (unsigned)h;
    }
    *cp = v;
    return HWFIT_OK;
}

/* Length of the valid UTF-8 sequence at `at` (a byte >= 0x80), per RFC 3629 section 4. */
static hwfit_status utf8_sequence(parser *p, size_t at, size_t *len) {
    const unsigned char *t = p->text + at;
    size_t left = p->length - at;
    unsigned char c = t[0];
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else if (c >= 0x80 && c <= 0xBF) {
        return fail(p, HWFIT_EPARSE, at,
                    "invalid UTF-8: continuation byte 0x%02X without a lead byte", c);
    } else if (c == 0xC0 || c == 0xC1) {
        return fail(p, HWFIT_EPARSE, at,
                    "invalid UTF-8: overlong encoding (lead byte 0x%02X)", c);
    } else {
        return fail(p, HWFIT_EPARSE, at,
                    "invalid UTF-8: byte 0x%02X never appears in UTF-8 (code points end at "
                    "U+10FFFF)", c);
    }
    for (size_t k = 1; k < n; k++) {
        char buf[DESCRIBE_SIZE];
        if (k >= left)
            return fail(p, HWFIT_EPARSE, at + k,
                        "invalid UTF-8: truncated sequence, expected a continuation byte, "
                        "found end of input");
        unsigned char d = t[k];
        unsigned char want_lo = k == 1 ? lo : 0x80, want_hi = k == 1 ? hi : 0xBF;
        if (d < want_lo || d > want_hi) {
            if (k == 1 && d >= 0x80 && d <= 0xBF) {
                /* A continuation byte, but one the lead byte rules out. */
                if (c == 0xE0 || c == 0xF0)
                    return fail(p, HWFIT_EPARSE, at,
                                "invalid UTF-8: overlong encoding (0x%02X 0x%02X)", c, d);
                if (c == 0xED)
                    return fail(p, HWFIT_EPARSE, at,
                                "invalid UTF-8: encoded surrogate (0x%02X 0x%02X); "
                                "surrogates are not characters", c, d);
                return fail(p, HWFIT_EPARSE, at,
                            "invalid UTF-8: code point above U+10FFFF (0x%02X 0x%02X)", c, d);
            }
            if (d < 0x80 || d > 0xBF)
                return fail(p, HWFIT_EPARSE, at + k,
                            "invalid UTF-8: truncated sequence, expected a continuation "
                            "byte, found %s", describe(p, at + k, buf, sizeof buf));
        }
    }
    *len = n;
    return HWFIT_OK;
}

static int append_utf8(parser *p, unsigned cp) {
    unsigned char b[4];
    size_t n;
    if (cp < 0x80) {
        b[0] = (unsigned char)cp;
        n = 1;
    } else if (cp < 0x800) {
        b[0] = (unsigned char)(0xC0 | (cp >> 6));
        b[1] = (unsigned char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        b[0] = (unsigned char)(0xE0 | (cp >> 12));
        b[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (unsigned char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        b[0] = (unsigned char)(0xF0 | (cp >> 18));
        b[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        b[3] = (unsigned char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    return bytes_append(p, b, n);
}

/* The escape at p->pos (a backslash): append its character, advance past it. */
static hwfit_status parse_escape(parser *p) {
    size_t at = p->pos;
    char buf[DESCRIBE_SIZE];
    if (at + 1 >= p->length)
        return fail(p, HWFIT_EPARSE, at + 1,
                    "expected an escaped character after '\\', found end of input");
    unsigned char e = p->text[at + 1];
    char c;
    switch (e) {
    case '"':
        c = '"';
        break;
    case '\\':
        c = '\\';
        break;
    case '/':
        c = '/';
        break;
    case 'b':
        c = '\b';
        break;
    case 'f':
        c = '\f';
        break;
    case 'n':
        c = '\n';
        break;
    case 'r':
        c = '\r';
        break;
    case 't':
        c = '\t';
        break;
    case 'u': {
        unsigned cp, low;
        hwfit_status st = read_hex4(p, at + 2, &cp);
        if (st != HWFIT_OK) return st;
        size_t next = at + 6;
        if (cp == 0)
            return fail(p, HWFIT_EPARSE, at,
                        "'\\u0000' is not allowed: strings may not contain U+0000");
        if (cp >= 0xDC00 && cp <= 0xDFFF)
            return fail(p, HWFIT_EPARSE, at,
                        "lone low surrogate '\\u%04X': a low surrogate must follow a high "
                        "surrogate \\uD800-\\uDBFF", cp);
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (next + 1 >= p->length || p->text[next] != '\\' || p->text[next + 1] != 'u')
                return fail(p, HWFIT_EPARSE, at,
                            "lone high surrogate '\\u%04X': expected a low surrogate "
                            "\\uDC00-\\uDFFF right after it", cp);
            st = read_hex4(p, next + 2, &low);
            if (st != HWFIT_OK) return st;
            if (low < 0xDC00 || low > 0xDFFF)
                return fail(p, HWFIT_EPARSE, next,
                            "high surrogate '\\u%04X' followed by '\\u%04X': expected a low "
                            "surrogate \\uDC00-\\uDFFF", cp, low);
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            next += 6;
        }
        if (!append_utf8(p, cp)) return out_of_memory(p);
        p->pos = next;
        return HWFIT_OK;
    }
    default:
        if (e >= 0x20 && e < 0x7f)
            return fail(p, HWFIT_EPARSE, at,
                        "invalid escape '\\%c': expected one of \\\" \\\\ \\/ \\b \\f \\n \\r "
                        "\\t \\uXXXX", (char)e);
        return fail(p, HWFIT_EPARSE, at + 1,
                    "invalid escape: expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX "
                    "after '\\', found %s", describe(p, at + 1, buf, sizeof buf));
    }
    if (!bytes_append(p, &c, 1)) return out_of_memory(p);
    p->pos = at + 2;
    return HWFIT_OK;
}

/* The string at p->pos (an opening quote), decoded into the arena. */
static hwfit_status parse_string(parser *p, const char **text, size_t *length) {
    const unsigned char *t = p->text;
    size_t start = p->pos, n = p->length, i = start + 1;
    hwfit_status st;
    p->n_bytes = 0;
    for (;;) {
        size_t run = i;
        while (run < n && t[run] >= 0x20 && t[run] < 0x80 && t[run] != '"' && t[run] != '\\')
            run++;
        if (run > i && !bytes_append(p, t + i, run - i)) return out_of_memory(p);
        i = run;
        if (i >= n) {
            uint32_t line, column;
            position(p, start, &line, &column);
            return fail(p, HWFIT_EPARSE, n,
                        "unterminated string (opened at line %u, column %u): expected '\"', "
                        "found end of input", line, column);
        }
        unsigned char c = t[i];
        if (c == '"') {
            i++;
            break;
        }
        if (c == '\\') {
            p->pos = i;
            st = parse_escape(p);
            if (st != HWFIT_OK) return st;
            i = p->pos;
        } else if (c < 0x20) {
            return fail(p, HWFIT_EPARSE, i,
                        "control character 0x%02X in string: write it as an escape such as "
                        "\\n, \\t or \\u%04X", c, c);
        } else {
            size_t len = 0; /* set by utf8_sequence; GCC -O2 cannot see it */
            st = utf8_sequence(p, i, &len);
            if (st != HWFIT_OK) return st;
            if (!bytes_append(p, t + i, len)) return out_of_memory(p);
            i += len;
        }
    }
    if (p->n_bytes == 0) {
        *text = ""; /* static, so a document of empty strings costs no arena space */
    } else {
        char *s = arena_alloc(p->doc, p->n_bytes + 1);
        if (s == NULL) return out_of_memory(p);
        memcpy(s, p->bytes, p->n_bytes);
        s[p->n_bytes] = '\0';
        *text = s;
    }
    *length = p->n_bytes;
    p->pos = i;
    return HWFIT_OK;
}

/* Text for messages: about 60 bytes of s at most, cut on a character boundary, with
 * control characters, backslashes and (when quote_char) that quote escaped. */
static void quote_text(char *buf, size_t size, const char *s, size_t len, char quote_char) {
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((o >= 60 && (c & 0xC0) != 0x80) || o + 11 > size) {
            memcpy(buf + o, "...", 3);
            o += 3;
            break;
        }
        if (c < 0x20 || c == 0x7f) {
            snprintf(buf + o, size - o, "\\u%04X", c);
            o += 6;
        } else if (c == '\\' || (quote_char && c == (unsigned char)quote_char)) {
            buf[o++] = '\\';
            buf[o++] = (char)c;
        } else {
            buf[o++] = (char)c;
        }
    }
    buf[o] = '\0';
}

/* ---- numbers -------------------------------------------------------------------------- */

static hwfit_status parse_number(parser *p, hwfit__json_value *v) {
    const unsigned char *t = p->text;
    size_t start = p->pos, i = start, n = p->length;
    char buf[DESCRIBE_SIZE];
    int negative = 0, plain = 1;
    if (t[i] == '-') {
        negative = 1;
        i++;
        if (i >= n || !is_digit(t[i]))
            return fail(p, HWFIT_EPARSE, i, "expected a digit after '-', found %s",
                        describe(p, i, buf, sizeof buf));
    }
    if (t[i] == '0') {
        i++;
        if (i < n && is_digit(t[i]))
            return fail(p, HWFIT_EPARSE, start,
                        "leading zeros are not allowed in numbers (found '%.*s')",
                        (int)(i + 1 - start), (const char *)t + start);
    } else {
        while (i < n && is_digit(t[i])) i++;
    }
    size_t int_end = i;
    if (i < n && t[i] == '.') {
        plain = 0;
        i++;
        if (i >= n || !is_digit(t[i]))
            return fail(p, HWFIT_EPARSE, i, "expected a digit after '.' in a number, found %s",
                        describe(p, i, buf, sizeof buf));
        while (i < n && is_digit(t[i])) i++;
    }
    if (i < n && (t[i] == 'e' || t[i] == 'E')) {
        plain = 0;
        i++;
        if (i < n && (t[i] == '+' || t[i] == '-')) i++;
        if (i >= n || !is_digit(t[i]))
            return fail(p, HWFIT_EPARSE, i,
                        "expected a digit in the exponent of a number, found %s",
                        describe(p, i, buf, sizeof buf));
        while (i < n && is_digit(t[i])) i++;
    }
    double d = hwfit__strtod((const char *)t + start, i - start);
    if (!hwfit__finite(d) ||
        (d == 0.0 && hwfit__written_nonzero((const char *)t + start, i - start))) {
        size_t len = i - start;
        return fail(p, HWFIT_ERANGE, start, "number %.*s%s is too %s for a double",
                    (int)(len > 40 ? 40 : len), (const char *)t + start, len > 40 ? "..." : "",
                    d == 0.0 ? "small" : "large");
    }
    v->type = HWFIT__JSON_NUMBER;
    v->u.number.value = d;
    v->u.number.is_integer = 0;
    v->u.number.integer = 0;
    if (plain) {
        /* Exact int64 when it fits: magnitude up to 2^63 for negatives, 2^63-1 otherwise. */
        uint64_t limit = negative ? (uint64_t)1 << 63 : ((uint64_t)1 << 63) - 1, m = 0;
        int fits = 1;
        for (size_t k = start + (size_t)negative; k < int_end; k++) {
            uint64_t digit = (uint64_t)(t[k] - '0');
            if (m > (limit - digit) / 10) {
                fits = 0;
                break;
            }
            m = m * 10 + digit;
        }
        if (fits) {
            v->u.number.is_integer = 1;
            v->u.number.integer = negative ? (m == (uint64_t)1 << 63 ? INT64_MIN : -(int64_t)m)
                                           : (int64_t)m;
        }
    }
    p->pos = i;
    return HWFIT_OK;
}

/* ---- values, arrays, objects ---------------------------------------------------------- */

static hwfit_status too_deep(parser *p) {
    return fail(p, HWFIT_ERANGE, p->pos, "nesting deeper than %d levels",
                HWFIT__JSON_MAX_DEPTH);
}

/* Duplicate-key detection: a linear scan while an object is small, then an open-addressing
 * table of member indices (relative to the object's base on the scratch stack). */
#define SMALL_OBJECT 16

typedef struct key_table {
    size_t *slots; /* index + 1, or 0 when empty */
    size_t cap;    /* power of two */
} key_table;

static uint64_t hash_key(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ull; /* FNV-1a, 64-bit */
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ull;
    }
    return h ^ (h >> 29);
}

static int same_key(const hwfit__json_member *m, const char *key, size_t len) {
    return m->key_length == len && memcmp(m->key, key, len) == 0;
}

/* Find key among members[0..count); insert it as index `count` when absent (table mode).
 * Returns the duplicate, or NULL; *oom set on allocation failure. */
static const hwfit__json_member *find_duplicate(key_table *tab, const hwfit__json_member *members,
                                                size_t count, const char *key, size_t len,
                                                int *oom) {
    if (count < SMALL_OBJECT && tab->slots == NULL) {
        for (size_t k = 0; k < count; k++)
            if (same_key(&members[k], key, len)) return &members[k];
        return NULL;
    }
    if (tab->slots == NULL || (count + 1) * 2 > tab->cap) {
        size_t cap = tab->cap ? tab->cap : 64;
        while ((count + 1) * 2 > cap) cap *= 2;
        size_t *slots = calloc(cap, sizeof *slots);
        if (slots == NULL) {
            *oom = 1;
            return NULL;
        }
        free(tab->slots);
        tab->slots = slots;
        tab->cap = cap;
        for (size_t k = 0; k < count; k++) { /* keys are distinct: insert blindly */
            size_t h = (size_t)hash_key(members[k].key, members[k].key_length) & (cap - 1);
            while (slots[h] != 0) h = (h + 1) & (cap - 1);
            slots[h] = k + 1;
        }
    }
    size_t h = (size_t)hash_key(key, len) & (tab->cap - 1);
    while (tab->slots[h] != 0) {
        const hwfit__json_member *m = &members[tab->slots[h] - 1];
        if (same_key(m, key, len)) return m;
        h = (h + 1) & (tab->cap - 1);
    }
    tab->slots[h] = count + 1;
    return NULL;
}

/* Containers are read without recursion, so that the stack a parse needs does not grow
 * with the nesting (no public call may need more than 16 KiB of stack): each open array
 * or object is a frame of a stack the parser allocates, HWFIT__JSON_MAX_DEPTH deep. */
typedef struct frame {
    hwfit__json_value *slot; /* where the container's value goes when it closes */
    int depth;               /* its nesting level (the document's value is at 1) */
    int is_object;
    int first;               /* no element or member read yet */
    size_t base;             /* its first child on the scratch stack */
    key_table tab;           /* objects: duplicate-key detection */
    hwfit__json_member m;    /* objects: the member being read */
    hwfit__json_value item;  /* arrays: the element being read */
} frame;

/* A value that is not a container, at p->pos (v's position already set); c its first byte. */
static hwfit_status parse_scalar(parser *p, hwfit__json_value *v, unsigned char c,
                                 const char *after, char *buf) {
    switch (c) {
    case '"':
        v->type = HWFIT__JSON_STRING;
        return parse_string(p, &v->u.string.text, &v->u.string.length);
    case '-':
        return parse_number(p, v);
    default:
        break;
    }
    if (is_digit(c)) return parse_number(p, v);
    if (is_word(c)) {
        size_t n = 0, left = p->length - p->pos;
        const unsigned char *t = p->text + p->pos;
        while (n < left && is_word(t[n])) n++;
        if (n == 4 && memcmp(t, "true", 4) == 0) {
            v->type = HWFIT__JSON_BOOL;
            v->u.boolean = 1;
        } else if (n == 5 && memcmp(t, "false", 5) == 0) {
            v->type = HWFIT__JSON_BOOL;
            v->u.boolean = 0;
        } else if (n == 4 && memcmp(t, "null", 4) == 0) {
            v->type = HWFIT__JSON_NULL;
        } else {
            return fail(p, HWFIT_EPARSE, p->pos, "expected a value%s, found %s", after,
                        describe(p, p->pos, buf, DESCRIBE_SIZE));
        }
        p->pos += n;
        return HWFIT_OK;
    }
    return fail(p, HWFIT_EPARSE, p->pos, "expected a value%s, found %s%s", after,
                describe(p, p->pos, buf, DESCRIBE_SIZE),
                (c == ']' || c == '}') && strcmp(after, " after ','") == 0
                    ? " (trailing commas are not allowed)"
                    : "");
}


/* Close the innermost container: its children move from the scratch stack into the
 * arena, in one block. */
static hwfit_status close_container(parser *p, frame *f) {
    hwfit__json_value *v = f->slot;
    if (f->is_object) {
        free(f->tab.slots);
        f->tab.slots = NULL;
        size_t count = p->n_members - f->base;
        v->type = HWFIT__JSON_OBJECT;
        v->u.object.members = NULL;
        v->u.object.count = count;
        if (count > 0) {
            hwfit__json_member *members = arena_alloc(p->doc, count * sizeof *members);
            if (members == NULL) return out_of_memory(p);
            memcpy(members, p->members + f->base, count * sizeof *members);
            v->u.object.members = members;
        }
        p->n_members = f->base;
        return HWFIT_OK;
    }
    size_t count = p->n_values - f->base;
    v->type = HWFIT__JSON_ARRAY;
    v->u.array.items = NULL;
    v->u.array.count = count;
    if (count > 0) {
        hwfit__json_value *items = arena_alloc(p->doc, count * sizeof *items);
        if (items == NULL) return out_of_memory(p);
        memcpy(items, p->values + f->base, count * sizeof *items);
        v->u.array.items = items;
    }
    p->n_values = f->base;
    return HWFIT_OK;
}

/* An object's key and its ':' (at p->pos, white space skipped), into f->m. */
static hwfit_status parse_key(parser *p, frame *f, char *buf) {
    char keybuf[80];
    if (p->pos >= p->length || p->text[p->pos] != '"') {
        unsigned char c = p->pos < p->length ? p->text[p->pos] : 0;
        return fail(p, HWFIT_EPARSE, p->pos, "expected %s, found %s%s",
                    f->first ? "a string key or '}'" : "a string key after ','",
                    describe(p, p->pos, buf, DESCRIBE_SIZE),
                    !f->first && c == '}' ? " (trailing commas are not allowed)" : "");
    }
    hwfit__json_member *m = &f->m;
    m->key_offset = p->pos;
    position(p, p->pos, &m->key_line, &m->key_column);
    hwfit_status st = parse_string(p, &m->key, &m->key_length);
    if (st != HWFIT_OK) return st;
    int oom = 0;
    const hwfit__json_member *mine = p->members != NULL ? p->members + f->base : NULL;
    const hwfit__json_member *dup =
        find_duplicate(&f->tab, mine, p->n_members - f->base, m->key, m->key_length, &oom);
    if (oom) return out_of_memory(p);
    if (dup != NULL) {
        quote_text(keybuf, sizeof keybuf, m->key, m->key_length, '\'');
        return fail(p, HWFIT_EPARSE, m->key_offset,
                    "duplicate key '%s' (first at line %u, column %u)", keybuf, dup->key_line,
                    dup->key_column);
    }
    skip_ws(p);
    if (p->pos >= p->length || p->text[p->pos] != ':') {
        quote_text(keybuf, sizeof keybuf, m->key, m->key_length, '\'');
        return fail(p, HWFIT_EPARSE, p->pos, "expected ':' after key '%s', found %s", keybuf,
                    describe(p, p->pos, buf, DESCRIBE_SIZE));
    }
    p->pos++;
    skip_ws(p);
    return HWFIT_OK;
}

/* The document's value at p->pos (white space already skipped) into root. */
static hwfit_status parse_document(parser *p, frame *stack, hwfit__json_value *root) {
    char buf[DESCRIBE_SIZE];
    int top = -1;                    /* the innermost open container, or -1 */
    hwfit__json_value *v = root;     /* the value to read next */
    int depth = 1;                   /* its nesting level */
    const char *after = "";          /* completes "expected a value" */
    hwfit_status st;
    for (;;) {
        /* Read one value into v: a scalar whole, a container opened. */
        memset(v, 0, sizeof *v);
        v->offset = p->pos;
        position(p, p->pos, &v->line, &v->column);
        if (p->pos >= p->length)
            return fail(p, HWFIT_EPARSE, p->pos, "expected a value%s, found end of input", after);
        unsigned char c = p->text[p->pos];
        int closed = 1; /* v is complete */
        if (c == '{' || c == '[') {
            if (depth > HWFIT__JSON_MAX_DEPTH) return too_deep(p);
            frame *f = &stack[++top];
            f->slot = v;
            f->depth = depth;
            f->is_object = c == '{';
            f->first = 1;
            f->base = f->is_object ? p->n_members : p->n_values;
            f->tab.slots = NULL;
            f->tab.cap = 0;
            p->pos++;
            skip_ws(p);
            if (p->pos < p->length && p->text[p->pos] == (f->is_object ? '}' : ']')) {
                p->pos++;
                if ((st = close_container(p, f)) != HWFIT_OK) return st;
                top--;
            } else if (f->is_object) {
                if ((st = parse_key(p, f, buf)) != HWFIT_OK) return st;
                v = &f->m.value;
                depth = f->depth + 1;
                after = " after ':'";
                closed = 0;
            } else {
                v = &f->item;
                depth = f->depth + 1;
                after = "";
                closed = 0;
            }
        } else if ((st = parse_scalar(p, v, c, after, buf)) != HWFIT_OK) {
            return st;
        }
        /* Hand complete values to their containers until one needs another value. */
        while (closed) {
            if (top < 0) return HWFIT_OK; /* the document's value */
            frame *f = &stack[top];
            f->first = 0;
            if (f->is_object) {
                if (p->n_members == p->cap_members) {
                    hwfit__json_member *grown = grow(p->members, &p->cap_members, sizeof *grown);
                    if (grown == NULL) return out_of_memory(p);
                    p->members = grown;
                }
                p->members[p->n_members++] = f->m;
            } else {
                if (p->n_values == p->cap_values) {
                    hwfit__json_value *grown = grow(p->values, &p->cap_values, sizeof *grown);
                    if (grown == NULL) return out_of_memory(p);
                    p->values = grown;
                }
                p->values[p->n_values++] = f->item;
            }
            skip_ws(p);
            if (p->pos < p->length && p->text[p->pos] == ',') {
                p->pos++;
                skip_ws(p);
                if (f->is_object) {
                    if ((st = parse_key(p, f, buf)) != HWFIT_OK) return st;
                    v = &f->m.value;
                    after = " after ':'";
                } else {
                    v = &f->item;
                    after = " after ','";
                }
                depth = f->depth + 1;
                closed = 0;
            } else if (p->pos < p->length && p->text[p->pos] == (f->is_object ? '}' : ']')) {
                p->pos++;
                if ((st = close_container(p, f)) != HWFIT_OK) return st;
                top--;
            } else if (f->is_object) {
                return fail(p, HWFIT_EPARSE, p->pos,
                            "expected ',' or '}' after an object member, found %s",
                            describe(p, p->pos, buf, sizeof buf));
            } else {
                return fail(p, HWFIT_EPARSE, p->pos,
                            "expected ',' or ']' after an array element, found %s",
                            describe(p, p->pos, buf, sizeof buf));
            }
        }
    }
}

hwfit_status hwfit__json_parse(const char *text, size_t length, hwfit__json_doc **doc,
                               hwfit_error *err) {
    if (text == NULL || doc == NULL)
        return hwfit__error_set(err, HWFIT_EINVAL, 0, 0, 0,
                                "JSON text or document pointer is NULL");
    if (length > HWFIT__JSON_MAX_BYTES)
        return hwfit__error_set(err, HWFIT_ERANGE, 0, 0, 0,
                                "JSON text of %zu bytes is larger than the limit of %u bytes",
                                length, (unsigned)HWFIT__JSON_MAX_BYTES);
    hwfit__json_doc *d = calloc(1, sizeof *d);
    if (d == NULL) return hwfit__error_set(err, HWFIT_ENOMEM, 0, 0, 0, "out of memory");
    d->next_cap = ARENA_FIRST_CHUNK;
    parser p;
    memset(&p, 0, sizeof p);
    p.text = (const unsigned char *)text;
    p.length = length;
    p.line = 1;
    p.doc = d;
    p.err = err;
    skip_ws(&p);
    hwfit_status st;
    char buf[DESCRIBE_SIZE];
    if (p.pos >= p.length) {
        st = fail(&p, HWFIT_EPARSE, p.pos, "empty input: expected a JSON value, found end of "
                                           "input");
    } else {
        frame *stack = calloc((size_t)HWFIT__JSON_MAX_DEPTH, sizeof *stack);
        if (stack == NULL) {
            st = out_of_memory(&p);
        } else {
            st = parse_document(&p, stack, &d->root);
            /* The key tables of the objects left open by an error. */
            for (int i = 0; i < HWFIT__JSON_MAX_DEPTH; i++)
                if (stack[i].is_object) free(stack[i].tab.slots);
            free(stack);
        }
        if (st == HWFIT_OK) {
            skip_ws(&p);
            if (p.pos < p.length)
                st = fail(&p, HWFIT_EPARSE, p.pos,
                          "expected end of input after the JSON value, found %s",
                          describe(&p, p.pos, buf, sizeof buf));
        }
    }
    free(p.values);
    free(p.members);
    free(p.bytes);
    if (st != HWFIT_OK) {
        hwfit__json_free(d);
        return st;
    }
    *doc = d;
    hwfit_error_clear(err);
    return HWFIT_OK;
}

/* ---- lookups and typed readers -------------------------------------------------------- */

const hwfit__json_member *hwfit__json_get_member(const hwfit__json_value *obj, const char *key) {
    if (obj == NULL || key == NULL || obj->type != HWFIT__JSON_OBJECT) return NULL;
    size_t len = strlen(key);
    for (size_t i = 0; i < obj->u.object.count; i++) {
        const hwfit__json_member *m = &obj->u.object.members[i];
        if (same_key(m, key, len)) return m;
    }
    return NULL;
}

const hwfit__json_value *hwfit__json_get(const hwfit__json_value *obj, const char *key) {
    const hwfit__json_member *m = hwfit__json_get_member(obj, key);
    return m == NULL ? NULL : &m->value;
}

/* Report a problem with a value (or key) at its position, prefixed by ctx->where. */
static hwfit_status reader_fail(const hwfit__json_ctx *ctx, uint32_t line, uint32_t column,
                                size_t offset, const char *fmt, ...) HWFIT__PRINTF(5, 6);
static hwfit_status reader_fail(const hwfit__json_ctx *ctx, uint32_t line, uint32_t column,
                                size_t offset, const char *fmt, ...) {
    char message[HWFIT_ERROR_MESSAGE_SIZE];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    if (n < 0) message[0] = '\0';
    const char *where = ctx->where;
    int has_where = where != NULL && where[0] != '\0';
    return hwfit__error_set(ctx->err, HWFIT_EPARSE, line, column, offset, "%s%s%s",
                            has_where ? where : "", has_where ? ": " : "", message);
}

/* Shortest "%.*g" text that reads back as d. */
static void format_double(char *buf, size_t size, double d) {
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, size, "%.*g", prec, d);
        if (hwfit__strtod(buf, strlen(buf)) == d) return;
    }
}

/* A value as a message shows it after "got": 3.5, "abc", true, null, an array. */
static void describe_value(char *buf, size_t size, const hwfit__json_value *v) {
    char text[200];
    switch (v->type) {
    case HWFIT__JSON_NULL:
        snprintf(buf, size, "null");
        return;
    case HWFIT__JSON_BOOL:
        snprintf(buf, size, "%s", v->u.boolean ? "true" : "false");
        return;
    case HWFIT__JSON_NUMBER:
        if (v->u.number.is_integer) snprintf(buf, size, "%lld", (long long)v->u.number.integer);
        else format_double(buf, size, v->u.number.value);
        return;
    case HWFIT__JSON_STRING:
        quote_text(text, sizeof text, v->u.string.text, v->u.string.length, '"');
        snprintf(buf, size, "\"%s\"", text);
        return;
    case HWFIT__JSON_ARRAY:
        snprintf(buf, size, "an array");
        return;
    default: /* HWFIT__JSON_OBJECT */
        snprintf(buf, size, "an object");
        return;
    }
}

static hwfit_status bad_call(const hwfit__json_ctx *ctx) {
    if (ctx != NULL)
        hwfit__error_set(ctx->err, HWFIT_EINVAL, 0, 0, 0,
                         "JSON reader called with a NULL argument or an unknown unit");
    return HWFIT_EINVAL;
}

static hwfit_status not_an_object(const hwfit__json_ctx *ctx, const hwfit__json_value *obj) {
    return reader_fail(ctx, obj->line, obj->column, obj->offset, "expected an object, got %s %s",
                       obj->type == HWFIT__JSON_ARRAY || obj->type == HWFIT__JSON_OBJECT ? "an"
                                                                                         : "a",
                       hwfit__json_type_name(obj->type));
}

/* Shared start of every reader (arguments already checked): find the key. *found is NULL
 * (and *present, when given, 0) when the key is absent (or null with null_is_absent) and
 * not required; the reader then returns HWFIT_OK without touching its output. */
static hwfit_status lookup(const hwfit__json_ctx *ctx, const hwfit__json_value *obj,
                           const char *key, int required, const hwfit__json_value **found,
                           int *present, char *qkey, size_t qkey_size) {
    quote_text(qkey, qkey_size, key, strlen(key), '\'');
    if (obj->type != HWFIT__JSON_OBJECT) return not_an_object(ctx, obj);
    const hwfit__json_value *v = hwfit__json_get(obj, key);
    if (v == NULL || (ctx->null_is_absent && v->type == HWFIT__JSON_NULL)) {
        if (required)
            return reader_fail(ctx, obj->line, obj->column, obj->offset,
                               "missing required key '%s'", qkey);
        v = NULL;
        if (present) *present = 0;
    }
    *found = v;
    return HWFIT_OK;
}

/* The readers' refusal of a present value: "key 'k' must be WANT, got VALUE". */
static hwfit_status must_be(const hwfit__json_ctx *ctx, const hwfit__json_value *v,
                            const char *qkey, const char *want) {
    char got[240];
    describe_value(got, sizeof got, v);
    return reader_fail(ctx, v->line, v->column, v->offset, "key '%s' must be %s, got %s", qkey,
                       want, got);
}

#define TWO_POW_53 9007199254740992.0 /* every integer up to here is exact in a double */

static void u64_range(char *buf, size_t size, uint64_t lo, uint64_t hi) {
    if (hi == UINT64_MAX && lo == 0) snprintf(buf, size, "a non-negative integer");
    else if (hi == UINT64_MAX) snprintf(buf, size, "an integer >= %llu", (unsigned long long)lo);
    else
        snprintf(buf, size, "an integer in [%llu, %llu]", (unsigned long long)lo,
                 (unsigned long long)hi);
}

hwfit_status hwfit__json_read_u64(const hwfit__json_ctx *ctx, const hwfit__json_value *obj,
                                  const char *key, int required, uint64_t lo, uint64_t hi,
                                  uint64_t *out, int *present) {
    char qkey[200], want[80];
    const hwfit__json_value *v = NULL;
    if (ctx == NULL || obj == NULL || key == NULL || out == NULL) return bad_call(ctx);
    hwfit_status st = lookup(ctx, obj, key, required, &v, present, qkey, sizeof qkey);
    if (st != HWFIT_OK || v == NULL) return st;
    uint64_t u = 0;
    int ok = 0;
    if (v->type == HWFIT__JSON_NUMBER) {
        if (v->u.number.is_integer) {
            ok = v->u.number.integer >= 0;
            u = ok ? (uint64_t)v->u.number.integer : 0;
        } else {
            /* 32.0 and 1e3 are integers too, when a double holds them exactly. */
            double d = v->u.number.value;
            if (d >= 0.0 && d <= TWO_POW_53 && (double)(uint64_t)d == d) {
                u = (uint64_t)d;
                ok = 1;
            }
        }
    }
    if (!ok || u < lo || u > hi) {
        u64_range(want, sizeof want, lo, hi);
        return must_be(ctx, v, qkey, want);
    }
    *out = u;
    if (present) *present = 1;
    return HWFIT_OK;
}

/* "a number in [0, 1]", "a number >= 0", "a number": for messages. */
static void double_range(char *buf, size_t size, const char *what, double lo, double hi,
                         const char *unit) {
    char a[32], b[32];
    int lo_open = !hwfit__finite(lo), hi_open = !hwfit__finite(hi);
    format_double(a, sizeof a, lo);
    format_double(b, sizeof b, hi);
    const char *sp = unit[0] ? " " : "";
    if (lo_open && hi_open) snprintf(buf, size, "%s", what);
    else if (hi_open) snprintf(buf, size, "%s >= %s%s%s", what, a, sp, unit);
    else if (lo_open) snprintf(buf, size, "%s <= %s%s%s", what, b, sp, unit);
    else snprintf(buf, size, "%s in [%s, %s]%s%s", what, a, b, sp, unit);
}

hwfit_status hwfit__json_read_double(const hwfit__json_ctx *ctx, const hwfit__json_value *obj,
                                     const char *key, int required, double lo, double hi,
                                     double *out, int *present) {
    char qkey[200], want[100];
    const hwfit__json_value *v = NULL;
    if (ctx == NULL || obj == NULL || key == NULL || out == NULL) return bad_call(ctx);
    hwfit_status st = lookup(ctx, obj, key, required, &v, present, qkey, sizeof qkey);
    if (st != HWFIT_OK || v == NULL) return st;
    if (v->type != HWFIT__JSON_NUMBER || !(v->u.number.value >= lo && v->u.number.value <= hi)) {
        double_range(want, sizeof want, "a number", lo, hi, "");
        return must_be(ctx, v, qkey, want);
    }
    *out = v->u.number.value;
    if (present) *present = 1;
    return HWFIT_OK;
}

hwfit_status hwfit__json_fail_at(hwfit_error *err, const char *where, hwfit_status status,
                                 const hwfit__json_value *v, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    status = hwfit__error_vset(err, status, v ? v->line : 0, v ? v->column : 0,
                               v ? v->offset : 0, where, fmt, ap);
    va_end(ap);
    return status;
}

hwfit_status hwfit__json_read_bool(const hwfit__json_ctx *ctx, const hwfit__json_value *obj,
                                   const char *key, int required, int *out, int *present) {
    char qkey[200];
    const hwfit__json_value *v = NULL;
    if (ctx == NULL || obj == NULL || key == NULL || out == NULL) return bad_call(ctx);
    hwfit_status st = lookup(ctx, obj, key, required, &v, present, qkey, sizeof qkey);
    if (st != HWFIT_OK || v == NULL) return st;
    if (v->type != HWFIT__JSON_BOOL) return must_be(ctx, v, qkey, "true or false");
    *out = v->u.boolean;
    if (present) *present = 1;
    return HWFIT_OK;
}

hwfit_status hwfit__json_read_string(const hwfit__json_ctx *ctx, const hwfit__json_value *obj,
                                     const char *key, int required, const char **out,
                                     int *present) {
    char qkey[200];
    const hwfit__json_value *v = NULL;
    if (ctx == NULL || obj == NULL || key == NULL || out == NULL) return bad_call(ctx);
    hwfit_status st = lookup(ctx, obj, key, required, &v, present, qkey, sizeof qkey);
    if (st != HWFIT_OK || v == NULL) return st;
    if (v->type != HWFIT__JSON_STRING) return must_be(ctx, v, qkey, "a string");
    *out = v->u.string.text;
    if (present) *present = 1;
    return HWFIT_OK;
}

/* What a quantity of each unit looks like, for messages; and its base unit. */
static const char *quantity_example(hwfit_unit unit) {
    switch (unit) {
    case HWFIT_UNIT_NONE:
        return "a number or a percentage such as \"90%\"";
    case HWFIT_UNIT_BYTES:
        return "a number of bytes or a size such as \"96GB\" or \"80GiB\"";
    case HWFIT_UNIT_BYTES_PER_S:
        return "a number of bytes/s or a rate such as \"64GB/s\" or \"400Gb/s\"";
    case HWFIT_UNIT_BITS_PER_S:
        return "a number of bits/s or a rate such as \"400Gb/s\"";
    case HWFIT_UNIT_WATTS:
        return "a number of watts or a power such as \"700W\" or \"3.2kW\"";
    case HWFIT_UNIT_SECONDS:
        return "a number of seconds or a time such as \"250ms\" or \"2h\"";
    case HWFIT_UNIT_FLOP_PER_S:
        return "a number of FLOP/s or a rate such as \"989TFLOPS\"";
    default: /* HWFIT_UNIT_FLOP (units are checked by the callers) */
        return "a number of FLOP or a count such as \"6PFLOP\"";
    }
}

static const char *base_unit(hwfit_unit unit) {
    switch (unit) {
    case HWFIT_UNIT_NONE:
        return "";
    case HWFIT_UNIT_BYTES:
        return "bytes";
    case HWFIT_UNIT_BYTES_PER_S:
        return "bytes/s";
    case HWFIT_UNIT_BITS_PER_S:
        return "bits/s";
    case HWFIT_UNIT_WATTS:
        return "W";
    case HWFIT_UNIT_SECONDS:
        return "s";
    case HWFIT_UNIT_FLOP_PER_S:
        return "FLOP/s";
    default: /* HWFIT_UNIT_FLOP */
        return "FLOP";
    }
}

hwfit_status hwfit__json_read_quantity(const hwfit__json_ctx *ctx,
                                       const hwfit__json_value *obj, const char *key,
                                       int required, hwfit_unit unit, double lo, double hi,
                                       double *out, int *present) {
    char qkey[200], got[240], want[120], value_text[40];
    const hwfit__json_value *v = NULL;
    if (ctx == NULL || obj == NULL || key == NULL || out == NULL ||
        (unsigned)unit > (unsigned)HWFIT_UNIT_FLOP)
        return bad_call(ctx);
    hwfit_status st = lookup(ctx, obj, key, required, &v, present, qkey, sizeof qkey);
    if (st != HWFIT_OK || v == NULL) return st;
    double q = 0.0;
    describe_value(got, sizeof got, v);
    if (v->type == HWFIT__JSON_NUMBER) {
        q = v->u.number.value;
    } else if (v->type == HWFIT__JSON_STRING) {
        st = hwfit_units_parse(v->u.string.text, unit, &q);
        if (st == HWFIT_ERANGE)
            return reader_fail(ctx, v->line, v->column, v->offset,
                               "key '%s' is too large for a double, got %s", qkey, got);
        if (st == HWFIT_EDOM) { /* negative */
            double_range(want, sizeof want, "a quantity", lo, hi, base_unit(unit));
            return must_be(ctx, v, qkey, want);
        }
        if (st != HWFIT_OK) return must_be(ctx, v, qkey, quantity_example(unit));
    } else {
        return must_be(ctx, v, qkey, quantity_example(unit));
    }
    if (!(q >= lo && q <= hi)) {
        double_range(want, sizeof want, "a quantity", lo, hi, base_unit(unit));
        if (v->type == HWFIT__JSON_STRING && st == HWFIT_OK) {
            format_double(value_text, sizeof value_text, q);
            return reader_fail(ctx, v->line, v->column, v->offset,
                               "key '%s' must be %s, got %s (%s%s%s)", qkey, want, got,
                               value_text, base_unit(unit)[0] ? " " : "", base_unit(unit));
        }
        return must_be(ctx, v, qkey, want);
    }
    *out = q == 0.0 ? 0.0 : q;
    if (present) *present = 1;
    return HWFIT_OK;
}


hwfit_status hwfit__json_check_keys(const hwfit__json_ctx *ctx, const hwfit__json_value *obj,
                                    const char *const *known) {
    char qkey[200], suggestion[240];
    if (ctx == NULL || obj == NULL || known == NULL) return bad_call(ctx);
    if (obj->type != HWFIT__JSON_OBJECT) return not_an_object(ctx, obj);
    for (size_t i = 0; i < obj->u.object.count; i++) {
        const hwfit__json_member *m = &obj->u.object.members[i];
        const char *best = NULL;
        size_t best_distance = 3; /* suggest only within two edits */
        int found = 0;
        for (size_t k = 0; known[k] != NULL; k++) {
            size_t len = strlen(known[k]);
            if (same_key(m, known[k], len)) {
                found = 1;
                break;
            }
            size_t d = hwfit__edit_distance(m->key, m->key_length, known[k], len);
            if (d < best_distance && d < len) {
                best_distance = d;
                best = known[k];
            }
        }
        if (found) continue;
        quote_text(qkey, sizeof qkey, m->key, m->key_length, '\'');
        suggestion[0] = '\0';
        if (best != NULL) {
            char qbest[200];
            quote_text(qbest, sizeof qbest, best, strlen(best), '\'');
            snprintf(suggestion, sizeof suggestion, " (did you mean '%s'?)", qbest);
        }
        return reader_fail(ctx, m->key_line, m->key_column, m->key_offset, "unknown key '%s'%s",
                           qkey, suggestion);
    }
    return HWFIT_OK;
}

hwfit_status hwfit__json_parse_file_text(const char *text, size_t length, size_t max_bytes,
                                         const char *name, hwfit__json_doc **doc,
                                         hwfit_error *err) {
    if (length > max_bytes)
        return hwfit__error_set(err, HWFIT_ERANGE, 0, 0, 0, "%s: larger than %zu bytes", name,
                                max_bytes);
    hwfit_status st = hwfit__json_parse(text, length, doc, err);
    if (st != HWFIT_OK && err != NULL) {
        char message[HWFIT_ERROR_MESSAGE_SIZE];
        snprintf(message, sizeof message, "%s", err->message);
        hwfit__error_set(err, st, err->line, err->column, err->offset, "%s: %s", name, message);
    }
    return st;
}

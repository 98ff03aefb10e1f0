/* fuzz_json.c - libFuzzer target for the strict JSON reader (lib/json.c).
 *
 * Every input either parses into a tree whose invariants hold, or fails with a consistent
 * error report; the typed readers run over the first members of an object root. Built as
 * `fuzz_json` with clang -fsanitize=fuzzer (option HWFIT_FUZZ), and always as `replay_json`
 * (with replay.c), which CTest runs over tests/fuzz/corpus/json/.
 *
 * The pattern for every later target: include "internal.h", define LLVMFuzzerTestOneInput,
 * check with CHECK (never assert: release builds define NDEBUG), free everything.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit.h"
#include "base/internal.h"
#include "readers/json.h"

#define CHECK(cond)                                                                     \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "fuzz_json.c:%d: check failed: %s\n", __LINE__, #cond);     \
            abort();                                                                    \
        }                                                                               \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Walks the input in document order, so positions are checked in one pass. */
typedef struct cursor {
    const uint8_t *data;
    size_t size, offset;
    uint32_t line, column;
} cursor;

static void check_position(cursor *c, size_t offset, uint32_t line, uint32_t column) {
    CHECK(offset >= c->offset); /* values and keys come in document order */
    CHECK(offset < c->size);
    for (; c->offset < offset; c->offset++) {
        if (c->data[c->offset] == '\n') {
            c->line++;
            c->column = 1;
        } else {
            c->column++;
        }
    }
    CHECK(line == c->line);
    CHECK(column == c->column);
}

/* Strict UTF-8 (RFC 3629 section 4), written independently of lib/json.c. */
static int valid_utf8(const unsigned char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        uint32_t cp;
        size_t len;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            cp = c & 0x1F;
            len = 2;
        } else if ((c & 0xF0) == 0xE0) {
            cp = c & 0x0F;
            len = 3;
        } else if ((c & 0xF8) == 0xF0) {
            cp = c & 0x07;
            len = 4;
        } else {
            return 0;
        }
        if (i + len > n) return 0;
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return 0;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        static const uint32_t min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < min_cp[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
        i += len;
    }
    return 1;
}

static void check_text(const char *s, size_t n) {
    CHECK(s != NULL);
    CHECK(s[n] == '\0');
    CHECK(strlen(s) == n); /* no embedded NUL */
    CHECK(valid_utf8((const unsigned char *)s, n));
}

static void walk(cursor *c, const hwfit__json_value *v, int depth) {
    CHECK(depth >= 1 && depth <= HWFIT__JSON_MAX_DEPTH + 1);
    check_position(c, v->offset, v->line, v->column);
    uint8_t first = c->data[v->offset];
    switch (v->type) {
    case HWFIT__JSON_NULL:
        CHECK(first == 'n');
        break;
    case HWFIT__JSON_BOOL:
        CHECK(v->u.boolean == 0 || v->u.boolean == 1);
        CHECK(first == (v->u.boolean ? 't' : 'f'));
        break;
    case HWFIT__JSON_NUMBER:
        CHECK(first == '-' || (first >= '0' && first <= '9'));
        CHECK(hwfit__finite(v->u.number.value));
        if (v->u.number.is_integer) CHECK((double)v->u.number.integer == v->u.number.value);
        break;
    case HWFIT__JSON_STRING:
        CHECK(first == '"');
        check_text(v->u.string.text, v->u.string.length);
        break;
    case HWFIT__JSON_ARRAY:
        CHECK(first == '[');
        CHECK(depth <= HWFIT__JSON_MAX_DEPTH);
        CHECK(v->u.array.count == 0 || v->u.array.items != NULL);
        for (size_t i = 0; i < v->u.array.count; i++) walk(c, &v->u.array.items[i], depth + 1);
        break;
    case HWFIT__JSON_OBJECT:
        CHECK(first == '{');
        CHECK(depth <= HWFIT__JSON_MAX_DEPTH);
        CHECK(v->u.object.count == 0 || v->u.object.members != NULL);
        for (size_t i = 0; i < v->u.object.count; i++) {
            const hwfit__json_member *m = &v->u.object.members[i];
            check_position(c, m->key_offset, m->key_line, m->key_column);
            CHECK(c->data[m->key_offset] == '"');
            check_text(m->key, m->key_length);
            /* Keys are unique, so a lookup finds this very member (linear: small objects). */
            if (v->u.object.count <= 256) CHECK(hwfit__json_get_member(v, m->key) == m);
            CHECK(m->value.offset > m->key_offset);
            walk(c, &m->value, depth + 1);
        }
        break;
    default:
        CHECK(0);
    }
}

static void check_reader_error(hwfit_status st, const hwfit_error *err, size_t size) {
    CHECK(st == HWFIT_OK || st == HWFIT_EPARSE);
    if (st == HWFIT_OK) return;
    CHECK(err->status == st);
    CHECK(memchr(err->message, '\0', sizeof err->message) != NULL);
    CHECK(err->message[0] != '\0');
    CHECK(err->line >= 1 && err->column >= 1 && err->offset < size);
}

/* Every typed reader on the first members of an object; they must not crash, and their
 * errors must be well formed. */
static void exercise_readers(const hwfit__json_value *root, size_t size) {
    hwfit_error err;
    hwfit__json_ctx ctx = {"fuzz.json", 0, &err};
    size_t n = root->u.object.count < 8 ? root->u.object.count : 8;
    for (size_t i = 0; i < n; i++) {
        const char *key = root->u.object.members[i].key;
        uint64_t u;
        double d;
        int b, present;
        const char *s;
        ctx.null_is_absent = (int)(i & 1);
        check_reader_error(hwfit__json_read_u64(&ctx, root, key, 1, 1, 100000, &u, &present),
                           &err, size);
        check_reader_error(hwfit__json_read_double(&ctx, root, key, 1, 0.0, 1.0, &d, &present),
                           &err, size);
        check_reader_error(hwfit__json_read_bool(&ctx, root, key, 1, &b, &present), &err, size);
        check_reader_error(hwfit__json_read_string(&ctx, root, key, 1, &s, &present), &err,
                           size);
        check_reader_error(hwfit__json_read_quantity(&ctx, root, key, 1,
                                                     (hwfit_unit)(i % 8), 0.0, 1e15, &d,
                                                     &present),
                           &err, size);
    }
    const char *const known[] = {n > 0 ? root->u.object.members[0].key : "", NULL};
    hwfit_status st = hwfit__json_check_keys(&ctx, root, known);
    CHECK(st == (root->u.object.count <= 1 ? HWFIT_OK : HWFIT_EPARSE));
    check_reader_error(st, &err, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const uint8_t empty[1] = {0};
    const char *text = size > 0 ? (const char *)data : (const char *)empty;
    hwfit__json_doc *sentinel = (hwfit__json_doc *)(uintptr_t)0x5a5a5a5a;
    hwfit__json_doc *doc = sentinel;
    hwfit_error err;
    memset(&err, 0x5a, sizeof err);
    hwfit_status st = hwfit__json_parse(text, size, &doc, &err);
    CHECK(err.status == st);
    CHECK(memchr(err.message, '\0', sizeof err.message) != NULL);
    if (st != HWFIT_OK) {
        CHECK(st == HWFIT_EPARSE || st == HWFIT_ERANGE);
        CHECK(doc == sentinel);
        CHECK(err.message[0] != '\0');
        CHECK(err.offset <= size);
        /* The reported line and column agree with the offset. */
        uint32_t line = 1, column = 1;
        for (size_t i = 0; i < err.offset; i++) {
            if (data[i] == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
        }
        CHECK(err.line == line);
        CHECK(err.column == column);
        return 0;
    }
    CHECK(doc != sentinel && doc != NULL);
    CHECK(err.message[0] == '\0');
    const hwfit__json_value *root = hwfit__json_root(doc);
    cursor c = {data, size, 0, 1, 1};
    walk(&c, root, 1);
    if (root->type == HWFIT__JSON_OBJECT) exercise_readers(root, size);
    hwfit__json_free(doc);
    return 0;
}

/* JSON reader: RFC 8259 documents parse to exact values with positions; everything else is
 * refused with a status, a position and a message; the typed readers explain themselves. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit.h"
#include "readers/json.h"

#define POISON_DOC ((hwfit__json_doc *)(uintptr_t)0x5a5a5a5a)

static hwfit__json_doc *parse_len(const char *text, size_t len) {
    hwfit__json_doc *doc = NULL;
    hwfit_error err;
    memset(&err, 0x5a, sizeof err);
    hwfit_status st = hwfit__json_parse(text, len, &doc, &err);
    cr_assert_eq(st, HWFIT_OK, "'%.60s': %s at %u:%u: %s", text, hwfit_status_name(st), err.line,
                 err.column, err.message);
    cr_assert_eq(err.status, HWFIT_OK, "success clears the error report");
    cr_assert_str_eq(err.message, "");
    cr_assert_not_null(doc);
    return doc;
}

static hwfit__json_doc *parse(const char *text) { return parse_len(text, strlen(text)); }

/* Parse text that must fail; the document pointer must stay untouched. */
static hwfit_error parse_fail_len(const char *text, size_t len, hwfit_status want) {
    hwfit__json_doc *doc = POISON_DOC;
    hwfit_error err;
    memset(&err, 0x5a, sizeof err);
    hwfit_status st = hwfit__json_parse(text, len, &doc, &err);
    cr_assert_eq(st, want, "'%.60s': got %s (%s)", text, hwfit_status_name(st), err.message);
    cr_assert_eq(err.status, want);
    cr_assert_eq(doc, POISON_DOC, "'%.60s': *doc written on error", text);
    cr_assert(strlen(err.message) > 0, "'%.60s': empty message", text);
    return err;
}

static hwfit_error parse_fail(const char *text, hwfit_status want) {
    return parse_fail_len(text, strlen(text), want);
}

/* ---- valid documents -------------------------------------------------------------------- */

Test(json, parses_every_type_with_exact_values) {
    hwfit__json_doc *doc = parse("{\"n\":null,\"t\":true,\"f\":false,\"i\":-42,\"d\":3.25,"
                                 "\"s\":\"hi\",\"a\":[1,[2,3],{}],\"o\":{\"x\":[]}}");
    const hwfit__json_value *root = hwfit__json_root(doc);
    cr_assert_eq(root->type, HWFIT__JSON_OBJECT);
    cr_assert_eq(root->u.object.count, 8);
    const char *keys[] = {"n", "t", "f", "i", "d", "s", "a", "o"};
    for (size_t i = 0; i < 8; i++) /* members keep document order */
        cr_assert_str_eq(root->u.object.members[i].key, keys[i]);
    cr_assert_eq(hwfit__json_get(root, "n")->type, HWFIT__JSON_NULL);
    cr_assert_eq(hwfit__json_get(root, "t")->u.boolean, 1);
    cr_assert_eq(hwfit__json_get(root, "f")->u.boolean, 0);
    const hwfit__json_value *i = hwfit__json_get(root, "i");
    cr_assert_eq(i->type, HWFIT__JSON_NUMBER);
    cr_assert(i->u.number.is_integer);
    cr_assert_eq(i->u.number.integer, -42);
    cr_assert_eq(i->u.number.value, -42.0);
    const hwfit__json_value *d = hwfit__json_get(root, "d");
    cr_assert_not(d->u.number.is_integer);
    cr_assert_eq(d->u.number.value, 3.25); /* exact in binary */
    const hwfit__json_value *s = hwfit__json_get(root, "s");
    cr_assert_str_eq(s->u.string.text, "hi");
    cr_assert_eq(s->u.string.length, 2);
    const hwfit__json_value *a = hwfit__json_get(root, "a");
    cr_assert_eq(a->u.array.count, 3);
    cr_assert_eq(a->u.array.items[1].u.array.count, 2);
    cr_assert_eq(a->u.array.items[1].u.array.items[1].u.number.integer, 3);
    cr_assert_eq(a->u.array.items[2].type, HWFIT__JSON_OBJECT);
    cr_assert_eq(a->u.array.items[2].u.object.count, 0);
    const hwfit__json_value *x = hwfit__json_get(hwfit__json_get(root, "o"), "x");
    cr_assert_eq(x->type, HWFIT__JSON_ARRAY);
    cr_assert_eq(x->u.array.count, 0);
    cr_assert_null(hwfit__json_get(root, "missing"));
    cr_assert_null(hwfit__json_get(a, "n"), "get on an array is NULL");
    cr_assert_null(hwfit__json_get(NULL, "n"));
    cr_assert_eq(hwfit__json_get_member(root, "d")->value.u.number.value, 3.25);
    hwfit__json_free(doc);
}

Test(json, scalars_are_valid_roots_with_white_space_around) {
    static const struct {
        const char *text;
        hwfit__json_type type;
    } cases[] = {
        {"null", HWFIT__JSON_NULL},  {" true ", HWFIT__JSON_BOOL},
        {"\t\r\n 0 \n", HWFIT__JSON_NUMBER}, {"\"\"", HWFIT__JSON_STRING},
        {"[]", HWFIT__JSON_ARRAY},   {" { } ", HWFIT__JSON_OBJECT},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        hwfit__json_doc *doc = parse(cases[k].text);
        cr_assert_eq(hwfit__json_root(doc)->type, cases[k].type, "%s", cases[k].text);
        hwfit__json_free(doc);
    }
    cr_assert_null(hwfit__json_root(NULL));
    hwfit__json_free(NULL); /* a no-op, like free(NULL) */
}

Test(json, type_names_are_the_rfc_words) {
    cr_assert_str_eq(hwfit__json_type_name(HWFIT__JSON_NULL), "null");
    cr_assert_str_eq(hwfit__json_type_name(HWFIT__JSON_BOOL), "boolean");
    cr_assert_str_eq(hwfit__json_type_name(HWFIT__JSON_NUMBER), "number");
    cr_assert_str_eq(hwfit__json_type_name(HWFIT__JSON_STRING), "string");
    cr_assert_str_eq(hwfit__json_type_name(HWFIT__JSON_ARRAY), "array");
    cr_assert_str_eq(hwfit__json_type_name(HWFIT__JSON_OBJECT), "object");
    cr_assert_str_eq(hwfit__json_type_name((hwfit__json_type)99), "unknown");
}

static const hwfit__json_value *number_of(hwfit__json_doc **doc, const char *text) {
    *doc = parse(text);
    const hwfit__json_value *v = hwfit__json_root(*doc);
    cr_assert_eq(v->type, HWFIT__JSON_NUMBER, "%s", text);
    return v;
}

Test(json, integers_are_exact_within_int64_and_only_without_fraction_or_exponent) {
    static const struct {
        const char *text;
        int is_integer;
        int64_t integer;
    } cases[] = {
        {"0", 1, 0},
        {"-0", 1, 0},
        {"7", 1, 7},
        {"9223372036854775807", 1, INT64_MAX},
        {"-9223372036854775808", 1, INT64_MIN},
        {"9223372036854775808", 0, 0}, /* 2^63: past int64 */
        {"-9223372036854775809", 0, 0},
        {"1.0", 0, 0},
        {"1e2", 0, 0},
        {"10E0", 0, 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        hwfit__json_doc *doc;
        const hwfit__json_value *v = number_of(&doc, cases[k].text);
        cr_assert_eq(v->u.number.is_integer, cases[k].is_integer, "%s", cases[k].text);
        if (cases[k].is_integer) {
            cr_assert_eq(v->u.number.integer, cases[k].integer, "%s", cases[k].text);
            cr_assert_eq(v->u.number.value, (double)cases[k].integer, "%s", cases[k].text);
        }
        hwfit__json_free(doc);
    }
    hwfit__json_doc *doc;
    cr_assert_eq(number_of(&doc, "9223372036854775808")->u.number.value, 9223372036854775808.0);
    hwfit__json_free(doc);
    cr_assert_eq(number_of(&doc, "1e2")->u.number.value, 100.0);
    hwfit__json_free(doc);
    cr_assert(signbit(number_of(&doc, "-0.0")->u.number.value), "-0.0 keeps its sign");
    hwfit__json_free(doc);
}

Test(json, numbers_round_to_the_nearest_double) {
    /* Expected values are C's own correctly rounded literals (C11 6.4.4.2 with glibc/gcc
     * rounding to nearest), written the same way, so equality is exact. */
    static const struct {
        const char *text;
        double want;
    } cases[] = {
        {"0.1", 0.1},
        {"-2.5e-3", -2.5e-3},
        {"1.7976931348623157e308", DBL_MAX},
        {"2.2250738585072014E-308", DBL_MIN},
        {"4.9406564584124654e-324", 4.9406564584124654e-324}, /* smallest subnormal */
        {"123456789012345678901234567890", 123456789012345678901234567890.0},
        {"9007199254740993", 9007199254740992.0}, /* 2^53 + 1: a tie, rounds to even */
        {"0.000000000000000000000000000001e30", 1.0},
        {"100000000000000000000000000000e-29", 1.0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        hwfit__json_doc *doc;
        double got = number_of(&doc, cases[k].text)->u.number.value;
        cr_assert_eq(got, cases[k].want, "%s: got %.17g", cases[k].text, got);
        hwfit__json_free(doc);
    }
}

/* A number written as non-zero that rounds to 0 is refused like one beyond DBL_MAX: it must
 * not silently read as 0. Zero itself, in any spelling, is zero. */
Test(json, a_number_too_small_for_a_double_is_refused_not_zero) {
    hwfit__json_doc *doc;
    hwfit_error err;
    static const char *const tiny[] = {"1e-400", "-2.5e-330", "0.00000e-1000000001"};
    cr_assert_eq(hwfit__json_parse(tiny[0], strlen(tiny[0]), &doc, &err), HWFIT_ERANGE);
    cr_assert(strstr(err.message, "too small") != NULL, "%s", err.message);
    cr_assert_eq(hwfit__json_parse(tiny[1], strlen(tiny[1]), &doc, &err), HWFIT_ERANGE);
    cr_assert_eq(hwfit__json_parse(tiny[2], strlen(tiny[2]), &doc, &err), HWFIT_OK, "0 is 0");
    hwfit__json_free(doc);
    cr_assert_eq(hwfit__json_parse("1e400", 5, &doc, &err), HWFIT_ERANGE);
    cr_assert(strstr(err.message, "too large") != NULL, "%s", err.message);
}

Test(json, digits_far_beyond_the_768th_still_break_ties) {
    /* 2^53 + 1 is halfway between 2^53 and 2^53 + 2: with only zeros after it the tie
     * rounds to even (2^53); any non-zero digit, however far out, rounds up. The text is
     * longer than the 768 digits hwfit__strtod keeps, so this tests its sticky digit. */
    size_t zeros = 2000;
    char *text = malloc(zeros + 32);
    cr_assert_not_null(text);
    strcpy(text, "9007199254740993.");
    size_t n = strlen(text);
    memset(text + n, '0', zeros);
    text[n + zeros] = '\0';
    hwfit__json_doc *doc;
    cr_assert_eq(number_of(&doc, text)->u.number.value, 9007199254740992.0);
    hwfit__json_free(doc);
    text[n + zeros] = '1';
    text[n + zeros + 1] = '\0';
    cr_assert_eq(number_of(&doc, text)->u.number.value, 9007199254740994.0);
    hwfit__json_free(doc);
    free(text);
}

Test(json, huge_numbers_are_refused_with_erange) {
    const char *cases[] = {"1e309", "-1e309", "[1.8e308]", "{\"a\": 1e999999999999999999}"};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        hwfit_error err = parse_fail(cases[k], HWFIT_ERANGE);
        cr_assert(strstr(err.message, "too large for a double"), "%s", err.message);
    }
    hwfit_error err = parse_fail("[0, 1e400]", HWFIT_ERANGE);
    cr_assert_eq(err.line, 1);
    cr_assert_eq(err.column, 5);
    cr_assert_eq(err.offset, 4);
    /* 400 digits: the message shows a prefix of the number, not all of it. */
    char big[420];
    memset(big, '9', 400);
    big[400] = '\0';
    err = parse_fail(big, HWFIT_ERANGE);
    cr_assert(strstr(err.message, "...") != NULL, "%s", err.message);
}

Test(json, escapes_and_surrogate_pairs_decode_to_utf8) {
    hwfit__json_doc *doc = parse("[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\", \"\\u00e9\\u20AC\", "
                                 "\"\\uD83D\\uDE00\", \"\\uffff\\u0001\", "
                                 "\"caf\xC3\xA9 \xF0\x9F\x98\x80\", \"a\\u0062c\"]");
    const hwfit__json_value *a = hwfit__json_root(doc);
    cr_assert_eq(a->u.array.count, 6);
    const hwfit__json_value *it = a->u.array.items;
    cr_assert_eq(it[0].u.string.length, 8);
    cr_assert_eq(memcmp(it[0].u.string.text, "\"\\/\b\f\n\r\t", 9), 0);
    /* U+00E9 is C3 A9 and U+20AC is E2 82 AC (Unicode 15, table 3-6). */
    cr_assert_str_eq(it[1].u.string.text, "\xC3\xA9\xE2\x82\xAC");
    cr_assert_eq(it[1].u.string.length, 5);
    /* U+1F600 = D83D DE00 in UTF-16 = F0 9F 98 80 in UTF-8. */
    cr_assert_str_eq(it[2].u.string.text, "\xF0\x9F\x98\x80");
    cr_assert_str_eq(it[3].u.string.text, "\xEF\xBF\xBF\x01");
    cr_assert_str_eq(it[4].u.string.text, "caf\xC3\xA9 \xF0\x9F\x98\x80", "raw UTF-8 kept as is");
    cr_assert_str_eq(it[5].u.string.text, "abc");
    hwfit__json_free(doc);
}

Test(json, keys_are_decoded_before_lookup_and_duplicate_checks) {
    hwfit__json_doc *doc = parse("{\"a\\u0062\": 1, \"\\u00e9\": 2}");
    const hwfit__json_value *root = hwfit__json_root(doc);
    cr_assert_eq(hwfit__json_get(root, "ab")->u.number.integer, 1);
    cr_assert_eq(hwfit__json_get(root, "\xC3\xA9")->u.number.integer, 2);
    cr_assert_eq(root->u.object.members[0].key_length, 2);
    hwfit__json_free(doc);
    hwfit_error err = parse_fail("{\"ab\": 1, \"a\\u0062\": 2}", HWFIT_EPARSE);
    cr_assert(strstr(err.message, "duplicate key 'ab'"), "%s", err.message);
    cr_assert_eq(err.column, 11);
}

Test(json, values_and_keys_record_line_column_and_offset) {
    const char *text = "{\n"
                       "  \"name\": \"x\",\n"
                       "\t\"list\": [1,\n"
                       "    true]\n"
                       "}";
    hwfit__json_doc *doc = parse(text);
    const hwfit__json_value *root = hwfit__json_root(doc);
    cr_assert_eq(root->line, 1);
    cr_assert_eq(root->column, 1);
    cr_assert_eq(root->offset, 0);
    const hwfit__json_member *name = &root->u.object.members[0];
    cr_assert_eq(name->key_line, 2);
    cr_assert_eq(name->key_column, 3);
    cr_assert_eq(name->key_offset, 4);
    cr_assert_eq(text[name->key_offset], '"');
    cr_assert_eq(name->value.line, 2);
    cr_assert_eq(name->value.column, 11);
    cr_assert_eq(text[name->value.offset], '"');
    const hwfit__json_member *list = &root->u.object.members[1];
    cr_assert_eq(list->key_line, 3);
    cr_assert_eq(list->key_column, 2, "a tab is one byte, so one column");
    cr_assert_eq(list->value.column, 10);
    const hwfit__json_value *t = &list->value.u.array.items[1];
    cr_assert_eq(t->line, 4);
    cr_assert_eq(t->column, 5);
    cr_assert_eq(text[t->offset], 't');
    hwfit__json_free(doc);
}

Test(json, errors_on_multi_line_input_point_at_the_problem) {
    hwfit_error err = parse_fail("{\n  \"a\": 1,\n  \"b\": tru\n}", HWFIT_EPARSE);
    cr_assert_eq(err.line, 3);
    cr_assert_eq(err.column, 8);
    cr_assert_eq(err.offset, 19);
    cr_assert_str_eq(err.message, "expected a value after ':', found 'tru'");

    err = parse_fail("{\r\n  \"a\": [1, 2\r\n  \"b\": 2\r\n}", HWFIT_EPARSE);
    cr_assert_eq(err.line, 3, "CRLF line ends count once");
    cr_assert_eq(err.column, 3);
    cr_assert_str_eq(err.message, "expected ',' or ']' after an array element, found '\"'");

    err = parse_fail("{\"a\": 1,\n \"b\": 2,\n \"a\": 3}", HWFIT_EPARSE);
    cr_assert_eq(err.line, 3);
    cr_assert_eq(err.column, 2);
    cr_assert_str_eq(err.message, "duplicate key 'a' (first at line 1, column 2)");

    err = parse_fail("[\n\"open", HWFIT_EPARSE);
    cr_assert_eq(err.line, 2);
    cr_assert_eq(err.column, 6, "at the end of input");
    cr_assert(strstr(err.message, "opened at line 2, column 1"), "%s", err.message);
}

/* ---- invalid documents ------------------------------------------------------------------ */

typedef struct bad_case {
    const char *text;
    size_t length; /* 0: strlen(text) */
    hwfit_status status;
    uint32_t line, column;
    const char *says; /* a part of the message */
} bad_case;

static const bad_case bad_cases[] = {
    /* structure */
    {"", 0, HWFIT_EPARSE, 1, 1, "empty input"},
    {"  \n ", 0, HWFIT_EPARSE, 2, 2, "found end of input"},
    {"[", 0, HWFIT_EPARSE, 1, 2, "expected a value, found end of input"},
    {"{", 0, HWFIT_EPARSE, 1, 2, "expected a string key or '}', found end of input"},
    {"{\"a\"", 0, HWFIT_EPARSE, 1, 5, "expected ':' after key 'a', found end of input"},
    {"{\"a\":", 0, HWFIT_EPARSE, 1, 6, "expected a value after ':', found end of input"},
    {"[1,]", 0, HWFIT_EPARSE, 1, 4, "trailing commas are not allowed"},
    {"{\"a\":1,}", 0, HWFIT_EPARSE, 1, 8, "trailing commas are not allowed"},
    {"[1,\n 2,\n ]", 0, HWFIT_EPARSE, 3, 2, "trailing commas"},
    {"[,1]", 0, HWFIT_EPARSE, 1, 2, "expected a value, found ','"},
    {"[1 2]", 0, HWFIT_EPARSE, 1, 4, "expected ',' or ']' after an array element, found '2'"},
    {"{\"a\" 1}", 0, HWFIT_EPARSE, 1, 6, "expected ':' after key 'a', found '1'"},
    {"{\"a\":1]", 0, HWFIT_EPARSE, 1, 7, "expected ',' or '}' after an object member, found ']'"},
    {"{1:2}", 0, HWFIT_EPARSE, 1, 2, "expected a string key or '}', found '1'"},
    {"{'a':1}", 0, HWFIT_EPARSE, 1, 2, "double quotes"},
    {"{\"a\":1,,}", 0, HWFIT_EPARSE, 1, 8, "expected a string key after ','"},
    {"[1] x", 0, HWFIT_EPARSE, 1, 5, "expected end of input after the JSON value, found 'x'"},
    {"1 2", 0, HWFIT_EPARSE, 1, 3, "expected end of input"},
    {"{}}", 0, HWFIT_EPARSE, 1, 3, "found '}'"},
    {"// note\n1", 0, HWFIT_EPARSE, 1, 1, "JSON has no comments"},
    {"[1 /* c */]", 0, HWFIT_EPARSE, 1, 4, "JSON has no comments"},
    {"\xEF\xBB\xBF{}", 0, HWFIT_EPARSE, 1, 1, "byte order mark"},
    {"\x01", 0, HWFIT_EPARSE, 1, 1, "control character 0x01"},
    {"[1,\0 2]", 7, HWFIT_EPARSE, 1, 4, "control character 0x00"},
    {"\f1", 0, HWFIT_EPARSE, 1, 1, "control character 0x0C"}, /* form feed is not white space */
    {"\xC3\xA9", 0, HWFIT_EPARSE, 1, 1, "byte 0xC3"},
    /* literals */
    {"tru", 0, HWFIT_EPARSE, 1, 1, "expected a value, found 'tru'"},
    {"truex", 0, HWFIT_EPARSE, 1, 1, "found 'truex'"},
    {"True", 0, HWFIT_EPARSE, 1, 1, "lower-case"},
    {"[None]", 0, HWFIT_EPARSE, 1, 2, "lower-case"},
    {"[NaN]", 0, HWFIT_EPARSE, 1, 2, "NaN and Infinity are not JSON numbers"},
    {"Infinity", 0, HWFIT_EPARSE, 1, 1, "NaN and Infinity"},
    {"undefined", 0, HWFIT_EPARSE, 1, 1, "found 'undefined'"},
    /* numbers */
    {"-Infinity", 0, HWFIT_EPARSE, 1, 2, "expected a digit after '-', found 'Infinity'"},
    {"-", 0, HWFIT_EPARSE, 1, 2, "expected a digit after '-', found end of input"},
    {"+1", 0, HWFIT_EPARSE, 1, 1, "no leading '+'"},
    {"01", 0, HWFIT_EPARSE, 1, 1, "leading zeros are not allowed in numbers (found '01')"},
    {"[-012]", 0, HWFIT_EPARSE, 1, 2, "leading zeros"},
    {"1.", 0, HWFIT_EPARSE, 1, 3, "expected a digit after '.' in a number, found end of input"},
    {"1.e5", 0, HWFIT_EPARSE, 1, 3, "expected a digit after '.'"},
    {".5", 0, HWFIT_EPARSE, 1, 1, "need a digit before '.'"},
    {"1e", 0, HWFIT_EPARSE, 1, 3, "expected a digit in the exponent"},
    {"1e+", 0, HWFIT_EPARSE, 1, 4, "expected a digit in the exponent"},
    {"0x10", 0, HWFIT_EPARSE, 1, 2, "expected end of input after the JSON value, found 'x10'"},
    {"1.5.2", 0, HWFIT_EPARSE, 1, 4, "found '.'"},
    {"[1e400]", 0, HWFIT_ERANGE, 1, 2, "too large for a double"},
    /* strings */
    {"\"abc", 0, HWFIT_EPARSE, 1, 5, "unterminated string"},
    {"\"a\tb\"", 0, HWFIT_EPARSE, 1, 3, "control character 0x09 in string"},
    {"\"a\nb\"", 0, HWFIT_EPARSE, 1, 3, "control character 0x0A in string"},
    {"[\"a\0\"]", 6, HWFIT_EPARSE, 1, 4, "control character 0x00 in string"},
    {"\"\\x\"", 0, HWFIT_EPARSE, 1, 2, "invalid escape '\\x'"},
    {"\"\\'\"", 0, HWFIT_EPARSE, 1, 2, "invalid escape"},
    {"\"\\", 0, HWFIT_EPARSE, 1, 3, "found end of input"},
    {"\"\\u12G4\"", 0, HWFIT_EPARSE, 1, 6, "expected 4 hex digits after '\\u', found 'G4'"},
    {"\"\\u12\"", 0, HWFIT_EPARSE, 1, 6, "expected 4 hex digits"},
    {"\"\\u0000\"", 0, HWFIT_EPARSE, 1, 2, "U+0000"},
    {"\"\\uD83D\"", 0, HWFIT_EPARSE, 1, 2, "lone high surrogate '\\uD83D'"},
    {"\"\\uD83Dx\"", 0, HWFIT_EPARSE, 1, 2, "lone high surrogate"},
    {"\"\\uDE00\"", 0, HWFIT_EPARSE, 1, 2, "lone low surrogate '\\uDE00'"},
    {"\"\\uD83D\\u0041\"", 0, HWFIT_EPARSE, 1, 8, "followed by '\\u0041'"},
    {"\"\\uD83D\\uD83D\"", 0, HWFIT_EPARSE, 1, 8, "expected a low surrogate"},
    {"\"\\uD83D\\u00\"", 0, HWFIT_EPARSE, 1, 12, "4 hex digits"},
    /* UTF-8 (RFC 3629 section 4) */
    {"\"\xC0\xAF\"", 0, HWFIT_EPARSE, 1, 2, "overlong"},
    {"\"\xC1\xBF\"", 0, HWFIT_EPARSE, 1, 2, "overlong"},
    {"\"\xE0\x80\xAF\"", 0, HWFIT_EPARSE, 1, 2, "overlong"},
    {"\"\xF0\x80\x80\xAF\"", 0, HWFIT_EPARSE, 1, 2, "overlong"},
    {"\"\xED\xA0\x80\"", 0, HWFIT_EPARSE, 1, 2, "encoded surrogate"},
    {"\"\xED\xBF\xBF\"", 0, HWFIT_EPARSE, 1, 2, "encoded surrogate"},
    {"\"\xF4\x90\x80\x80\"", 0, HWFIT_EPARSE, 1, 2, "above U+10FFFF"},
    {"\"\xF5\x80\x80\x80\"", 0, HWFIT_EPARSE, 1, 2, "byte 0xF5"},
    {"\"\xFF\"", 0, HWFIT_EPARSE, 1, 2, "byte 0xFF"},
    {"\"\x80\"", 0, HWFIT_EPARSE, 1, 2, "continuation byte 0x80 without a lead byte"},
    {"\"\xC3\"", 0, HWFIT_EPARSE, 1, 3, "truncated sequence"},
    {"\"\xE2\x82\"", 0, HWFIT_EPARSE, 1, 4, "truncated sequence"},
    {"\"\xE2\x82", 0, HWFIT_EPARSE, 1, 4, "found end of input"},
    {"\"\xF0\x9F\x98 \"", 0, HWFIT_EPARSE, 1, 5, "expected a continuation byte, found ' '"},
    /* duplicates and nesting */
    {"{\"a\":1,\"a\":2}", 0, HWFIT_EPARSE, 1, 8, "duplicate key 'a' (first at line 1, column 2)"},
    {"{\"a\":{\"b\":1,\"b\":1}}", 0, HWFIT_EPARSE, 1, 13, "duplicate key 'b'"},
};

Test(json, refuses_invalid_documents_with_status_position_and_message) {
    for (size_t k = 0; k < sizeof bad_cases / sizeof bad_cases[0]; k++) {
        const bad_case *c = &bad_cases[k];
        size_t len = c->length ? c->length : strlen(c->text);
        hwfit_error err = parse_fail_len(c->text, len, c->status);
        cr_expect_eq(err.line, c->line, "case %zu '%s': line %u, want %u (%s)", k, c->text,
                     err.line, c->line, err.message);
        cr_expect_eq(err.column, c->column, "case %zu '%s': column %u, want %u (%s)", k, c->text,
                     err.column, c->column, err.message);
        cr_expect(err.offset <= len, "case %zu: offset %zu beyond the input", k, err.offset);
        cr_expect(strstr(err.message, c->says) != NULL, "case %zu '%s': message '%s' lacks '%s'",
                  k, c->text, err.message, c->says);
    }
}

Test(json, a_null_error_report_is_allowed) {
    hwfit__json_doc *doc = POISON_DOC;
    cr_assert_eq(hwfit__json_parse("[1,]", 4, &doc, NULL), HWFIT_EPARSE);
    cr_assert_eq(doc, POISON_DOC);
    cr_assert_eq(hwfit__json_parse("[1]", 3, &doc, NULL), HWFIT_OK);
    hwfit__json_free(doc);
}

Test(json, null_arguments_are_einval) {
    hwfit__json_doc *doc = POISON_DOC;
    hwfit_error err;
    cr_assert_eq(hwfit__json_parse(NULL, 0, &doc, &err), HWFIT_EINVAL);
    cr_assert_eq(err.status, HWFIT_EINVAL);
    cr_assert_eq(doc, POISON_DOC);
    cr_assert_eq(hwfit__json_parse("1", 1, NULL, &err), HWFIT_EINVAL);
}

Test(json, input_over_the_size_limit_is_refused_before_reading) {
    /* The length is checked first, so a short buffer with a huge claimed length is safe. */
    hwfit_error err = parse_fail_len("1", (size_t)HWFIT__JSON_MAX_BYTES + 1, HWFIT_ERANGE);
    cr_assert(strstr(err.message, "larger than the limit"), "%s", err.message);
    cr_assert_eq(err.line, 0, "no position applies");
}

Test(json, the_text_need_not_be_nul_terminated) {
    /* "[12]" followed by garbage that must never be read: only 4 bytes are given. */
    const char text[] = "[12]xyz";
    hwfit__json_doc *doc = parse_len(text, 4);
    cr_assert_eq(hwfit__json_root(doc)->u.array.items[0].u.number.integer, 12);
    hwfit__json_free(doc);
    doc = parse_len("123", 2); /* "12" */
    cr_assert_eq(hwfit__json_root(doc)->u.number.integer, 12);
    hwfit__json_free(doc);
}

/* ---- nesting and size --------------------------------------------------------------------- */

static char *nested(size_t depth, char open, char close) {
    char *s = malloc(2 * depth + 1);
    cr_assert_not_null(s);
    memset(s, open, depth);
    memset(s + depth, close, depth);
    s[2 * depth] = '\0';
    return s;
}

Test(json, nesting_up_to_the_limit_parses) {
    char *s = nested(HWFIT__JSON_MAX_DEPTH, '[', ']');
    hwfit__json_doc *doc = parse(s);
    const hwfit__json_value *v = hwfit__json_root(doc);
    int depth = 1;
    while (v->u.array.count == 1) {
        v = &v->u.array.items[0];
        depth++;
    }
    cr_assert_eq(depth, HWFIT__JSON_MAX_DEPTH);
    hwfit__json_free(doc);
    free(s);

    /* Objects count the same: {"a":{"a":...{}}} with 64 braces. */
    size_t n = HWFIT__JSON_MAX_DEPTH;
    char *o = malloc(n * 6 + 1);
    size_t k = 0;
    for (size_t i = 0; i + 1 < n; i++) k += (size_t)sprintf(o + k, "{\"a\":");
    k += (size_t)sprintf(o + k, "{}");
    for (size_t i = 0; i + 1 < n; i++) o[k++] = '}';
    o[k] = '\0';
    doc = parse(o);
    hwfit__json_free(doc);
    free(o);
}

Test(json, nesting_beyond_the_limit_is_refused_at_the_bracket) {
    char *s = nested(HWFIT__JSON_MAX_DEPTH + 1, '[', ']');
    hwfit_error err = parse_fail(s, HWFIT_ERANGE);
    cr_assert_eq(err.column, HWFIT__JSON_MAX_DEPTH + 1);
    cr_assert(strstr(err.message, "nesting deeper than 64 levels"), "%s", err.message);
    free(s);
    /* Hostile depth: a million brackets, unbalanced, fail fast without exhausting the stack. */
    size_t big = 1000000;
    s = malloc(big);
    memset(s, '{', big);
    s[0] = '[';
    err = parse_fail_len(s, big, HWFIT_EPARSE); /* '{' then '{' is not a key */
    cr_assert_eq(err.column, 3);
    memset(s, '[', big);
    err = parse_fail_len(s, big, HWFIT_ERANGE);
    cr_assert_eq(err.column, HWFIT__JSON_MAX_DEPTH + 1);
    free(s);
}

Test(json, large_arrays_and_objects_keep_every_element) {
    /* 100000 numbers and an object of 5000 keys: exercises scratch growth, own arena chunks
     * and the hashed duplicate check. */
    size_t n = 100000;
    char *s = malloc(n * 8 + 16);
    size_t k = 0;
    s[k++] = '[';
    for (size_t i = 0; i < n; i++) k += (size_t)sprintf(s + k, i ? ",%zu" : "%zu", i);
    s[k++] = ']';
    s[k] = '\0';
    hwfit__json_doc *doc = parse(s);
    const hwfit__json_value *a = hwfit__json_root(doc);
    cr_assert_eq(a->u.array.count, n);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(a->u.array.items[i].u.number.integer, (int64_t)i);
    hwfit__json_free(doc);
    free(s);

    size_t keys = 5000;
    s = malloc(keys * 24 + 64);
    k = 0;
    s[k++] = '{';
    for (size_t i = 0; i < keys; i++)
        k += (size_t)sprintf(s + k, "%s\"k%zu\":%zu", i ? "," : "", i, i);
    size_t before_close = k;
    s[k++] = '}';
    s[k] = '\0';
    doc = parse(s);
    const hwfit__json_value *o = hwfit__json_root(doc);
    cr_assert_eq(o->u.object.count, keys);
    char key[16];
    for (size_t i = 0; i < keys; i += 7) {
        sprintf(key, "k%zu", i);
        cr_assert_eq(hwfit__json_get(o, key)->u.number.integer, (int64_t)i);
    }
    hwfit__json_free(doc);

    /* The same object with k2500 repeated at the end. */
    k = before_close;
    k += (size_t)sprintf(s + k, ",\"k2500\":0}");
    hwfit_error err = parse_fail(s, HWFIT_EPARSE);
    cr_assert(strstr(err.message, "duplicate key 'k2500'"), "%s", err.message);
    cr_assert_eq(err.offset, before_close + 1);
    free(s);
}

Test(json, long_strings_and_keys_are_kept_whole_and_quoted_short_in_messages) {
    size_t n = 100000;
    char *s = malloc(n + 16);
    s[0] = '"';
    memset(s + 1, 'x', n);
    strcpy(s + 1 + n, "\"");
    hwfit__json_doc *doc = parse(s);
    cr_assert_eq(hwfit__json_root(doc)->u.string.length, n);
    cr_assert_eq(strlen(hwfit__json_root(doc)->u.string.text), n);
    hwfit__json_free(doc);
    free(s);
    hwfit_error err =
        parse_fail("{\"a_very_long_key_that_goes_on_and_on_and_on_for_quite_a_while_indeed\" 1}",
                   HWFIT_EPARSE);
    cr_assert(strstr(err.message, "...'"), "%s", err.message);
}

/* ---- typed readers ------------------------------------------------------------------------ */

static const char *const reader_doc = "{\n"
                                      "  \"layers\": 32,\n"
                                      "  \"frac\": 3.5,\n"
                                      "  \"float_int\": 32.0,\n"
                                      "  \"exp_int\": 1e3,\n"
                                      "  \"neg\": -1,\n"
                                      "  \"big\": 1e20,\n"
                                      "  \"ratio\": 0.5,\n"
                                      "  \"flag\": true,\n"
                                      "  \"name\": \"llama\",\n"
                                      "  \"mem\": \"80GB\",\n"
                                      "  \"mem_gib\": \"96 GiB\",\n"
                                      "  \"mem_n\": 80000000000,\n"
                                      "  \"neg_mem\": \"-5GB\",\n"
                                      "  \"bad_mem\": \"80 parsecs\",\n"
                                      "  \"huge_mem\": \"1e400GB\",\n"
                                      "  \"power\": \"3.2kW\",\n"
                                      "  \"nothing\": null,\n"
                                      "  \"list\": [1, 2]\n"
                                      "}";

static hwfit__json_doc *reader_setup(const hwfit__json_value **root) {
    hwfit__json_doc *doc = parse(reader_doc);
    *root = hwfit__json_root(doc);
    return doc;
}

#define EXPECT_MESSAGE(err, text) \
    cr_assert_str_eq((err).message, (text), "message: %s", (err).message)

Test(json_readers, u64_reads_integers_and_reports_absent_keys) {
    const hwfit__json_value *root;
    hwfit__json_doc *doc = reader_setup(&root);
    hwfit_error err;
    hwfit__json_ctx ctx = {"config.json", 0, &err};
    uint64_t u = 7;
    int present = -1;
    cr_assert_eq(hwfit__json_read_u64(&ctx, root, "layers", 1, 1, 100000, &u, &present), HWFIT_OK);
    cr_assert_eq(u, 32);
    cr_assert_eq(present, 1);
    /* 32.0 and 1e3 hold integers exactly; they are accepted. */
    cr_assert_eq(hwfit__json_read_u64(&ctx, root, "float_int", 1, 0, 100, &u, NULL), HWFIT_OK);
    cr_assert_eq(u, 32);
    cr_assert_eq(hwfit__json_read_u64(&ctx, root, "exp_int", 1, 0, 10000, &u, NULL), HWFIT_OK);
    cr_assert_eq(u, 1000);
    /* Absent, optional: OK, output untouched, present = 0. */
    u = 7;
    present = -1;
    cr_assert_eq(hwfit__json_read_u64(&ctx, root, "absent", 0, 1, 10, &u, &present), HWFIT_OK);
    cr_assert_eq(u, 7);
    cr_assert_eq(present, 0);
    /* Absent, required: EPARSE at the object, outputs untouched. */
    present = -1;
    cr_assert_eq(hwfit__json_read_u64(&ctx, root, "absent", 1, 1, 10, &u, &present),
                 HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "config.json: missing required key 'absent'");
    cr_assert_eq(err.line, 1);
    cr_assert_eq(err.column, 1);
    cr_assert_eq(u, 7);
    cr_assert_eq(present, -1);
    hwfit__json_free(doc);
}

Test(json_readers, u64_refuses_fractions_negatives_wrong_types_and_out_of_range) {
    const hwfit__json_value *root;
    hwfit__json_doc *doc = reader_setup(&root);
    hwfit_error err;
    hwfit__json_ctx ctx = {"config.json", 0, &err};
    uint64_t u = 7;
    int present = -1;
    cr_assert_eq(hwfit__json_read_u64(&ctx, root, "frac", 1, 1, 100000, &u, &present),
                 HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "config.json: key 'frac' must be an integer in [1, 100000], got 3.5");
    cr_assert_eq(err.line, 3);
    cr_assert_eq(err.column, 11);
    cr_assert_eq(reader_doc[err.offset], '3');
    cr_assert_eq(hwfit__json_read_u64(&ctx, root, "layers", 1, 1, 16, &u, &present),
                 HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "config.json: key 'layers' must be an integer in [1, 16], got 32");
    cr_assert_eq(err.line, 2);
    cr_assert_eq(hwfit__json_read_u64(&ctx, root, "neg", 0, 0, UINT64_MAX, &u, &present),
                 HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "config.json: key 'neg' must be a non-negative integer, got -1");
    cr_assert_eq(hwfit__json_read_u64(&ctx, root, "big", 0, 1, UINT64_MAX, &u, &present),
                 HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "config.json: key 'big' must be an integer >= 1, got 1e+20");
    cr_assert_eq(hwfit__json_read_u64(&ctx, root, "name", 0, 0, 10, &u, &present),
                 HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "config.json: key 'name' must be an integer in [0, 10], got \"llama\"");
    cr_assert_eq(hwfit__json_read_u64(&ctx, root, "list", 0, 0, 10, &u, &present),
                 HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "config.json: key 'list' must be an integer in [0, 10], got an array");
    cr_assert_eq(hwfit__json_read_u64(&ctx, root, "nothing", 0, 0, 10, &u, &present),
                 HWFIT_EPARSE, "null is a value unless null_is_absent");
    EXPECT_MESSAGE(err, "config.json: key 'nothing' must be an integer in [0, 10], got null");
    cr_assert_eq(u, 7);
    cr_assert_eq(present, -1);
    hwfit__json_free(doc);
}

Test(json_readers, null_is_absent_turns_null_into_a_missing_key) {
    const hwfit__json_value *root;
    hwfit__json_doc *doc = reader_setup(&root);
    hwfit_error err;
    hwfit__json_ctx ctx = {"config.json", 1, &err};
    uint64_t u = 7;
    double d = 7.0;
    int b = 7, present = -1;
    const char *s = "untouched";
    cr_assert_eq(hwfit__json_read_u64(&ctx, root, "nothing", 0, 0, 10, &u, &present), HWFIT_OK);
    cr_assert_eq(present, 0);
    cr_assert_eq(u, 7);
    cr_assert_eq(hwfit__json_read_double(&ctx, root, "nothing", 0, 0, 1, &d, NULL), HWFIT_OK);
    cr_assert_eq(hwfit__json_read_bool(&ctx, root, "nothing", 0, &b, NULL), HWFIT_OK);
    cr_assert_eq(hwfit__json_read_string(&ctx, root, "nothing", 0, &s, NULL), HWFIT_OK);
    cr_assert_eq(hwfit__json_read_quantity(&ctx, root, "nothing", 0, HWFIT_UNIT_BYTES, 0, 1e15,
                                           &d, NULL),
                 HWFIT_OK);
    cr_assert_eq(d, 7.0);
    cr_assert_eq(b, 7);
    cr_assert_str_eq(s, "untouched");
    cr_assert_eq(hwfit__json_read_u64(&ctx, root, "nothing", 1, 0, 10, &u, &present),
                 HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "config.json: missing required key 'nothing'");
    hwfit__json_free(doc);
}

Test(json_readers, double_reads_numbers_in_range) {
    const hwfit__json_value *root;
    hwfit__json_doc *doc = reader_setup(&root);
    hwfit_error err;
    hwfit__json_ctx ctx = {NULL, 0, &err}; /* no prefix */
    double d = 7.0;
    int present = -1;
    cr_assert_eq(hwfit__json_read_double(&ctx, root, "ratio", 1, 0.0, 1.0, &d, &present),
                 HWFIT_OK);
    cr_assert_eq(d, 0.5);
    cr_assert_eq(present, 1);
    cr_assert_eq(hwfit__json_read_double(&ctx, root, "layers", 1, -INFINITY, INFINITY, &d, NULL),
                 HWFIT_OK);
    cr_assert_eq(d, 32.0);
    d = 7.0;
    present = -1;
    cr_assert_eq(hwfit__json_read_double(&ctx, root, "absent", 0, 0, 1, &d, &present), HWFIT_OK);
    cr_assert_eq(present, 0);
    cr_assert_eq(hwfit__json_read_double(&ctx, root, "absent", 1, 0, 1, &d, &present),
                 HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "missing required key 'absent'");
    cr_assert_eq(hwfit__json_read_double(&ctx, root, "frac", 1, 0.0, 1.0, &d, &present),
                 HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "key 'frac' must be a number in [0, 1], got 3.5");
    cr_assert_eq(hwfit__json_read_double(&ctx, root, "neg", 1, 0.0, INFINITY, &d, &present),
                 HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "key 'neg' must be a number >= 0, got -1");
    cr_assert_eq(hwfit__json_read_double(&ctx, root, "flag", 1, -INFINITY, INFINITY, &d,
                                         &present),
                 HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "key 'flag' must be a number, got true");
    cr_assert_eq(err.line, 9);
    cr_assert_eq(err.column, 11);
    cr_assert_eq(d, 7.0);
    cr_assert_eq(present, 0);
    hwfit__json_free(doc);
}

Test(json_readers, bool_and_string_read_their_types_only) {
    const hwfit__json_value *root;
    hwfit__json_doc *doc = reader_setup(&root);
    hwfit_error err;
    hwfit__json_ctx ctx = {"node.json", 0, &err};
    int b = 7, present = -1;
    cr_assert_eq(hwfit__json_read_bool(&ctx, root, "flag", 1, &b, &present), HWFIT_OK);
    cr_assert_eq(b, 1);
    cr_assert_eq(present, 1);
    b = 7;
    cr_assert_eq(hwfit__json_read_bool(&ctx, root, "absent", 0, &b, &present), HWFIT_OK);
    cr_assert_eq(present, 0);
    cr_assert_eq(hwfit__json_read_bool(&ctx, root, "absent", 1, &b, &present), HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "node.json: missing required key 'absent'");
    cr_assert_eq(hwfit__json_read_bool(&ctx, root, "name", 1, &b, &present), HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "node.json: key 'name' must be true or false, got \"llama\"");
    cr_assert_eq(b, 7);

    const char *s = "untouched";
    present = -1;
    cr_assert_eq(hwfit__json_read_string(&ctx, root, "name", 1, &s, &present), HWFIT_OK);
    cr_assert_str_eq(s, "llama");
    cr_assert_eq(s, hwfit__json_get(root, "name")->u.string.text, "points into the document");
    cr_assert_eq(present, 1);
    s = "untouched";
    cr_assert_eq(hwfit__json_read_string(&ctx, root, "absent", 0, &s, &present), HWFIT_OK);
    cr_assert_eq(present, 0);
    cr_assert_eq(hwfit__json_read_string(&ctx, root, "absent", 1, &s, &present), HWFIT_EPARSE);
    cr_assert_eq(hwfit__json_read_string(&ctx, root, "layers", 1, &s, &present), HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "node.json: key 'layers' must be a string, got 32");
    cr_assert_eq(hwfit__json_read_string(&ctx, root, "flag", 1, &s, &present), HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "node.json: key 'flag' must be a string, got true");
    cr_assert_str_eq(s, "untouched");
    hwfit__json_free(doc);
}

Test(json_readers, quantity_takes_base_unit_numbers_or_unit_strings) {
    const hwfit__json_value *root;
    hwfit__json_doc *doc = reader_setup(&root);
    hwfit_error err;
    hwfit__json_ctx ctx = {"node.json", 0, &err};
    double q = 7.0;
    int present = -1;
    cr_assert_eq(hwfit__json_read_quantity(&ctx, root, "mem", 1, HWFIT_UNIT_BYTES, 0, 1e15, &q,
                                           &present),
                 HWFIT_OK);
    cr_assert_eq(q, 80e9); /* one multiplication of exact values: exact */
    cr_assert_eq(present, 1);
    cr_assert_eq(hwfit__json_read_quantity(&ctx, root, "mem_gib", 1, HWFIT_UNIT_BYTES, 0, 1e15,
                                           &q, NULL),
                 HWFIT_OK);
    cr_assert_eq(q, 96.0 * 1073741824.0);
    cr_assert_eq(hwfit__json_read_quantity(&ctx, root, "mem_n", 1, HWFIT_UNIT_BYTES, 0, 1e15, &q,
                                           NULL),
                 HWFIT_OK);
    cr_assert_eq(q, 80e9, "a plain number is in base units");
    cr_assert_eq(hwfit__json_read_quantity(&ctx, root, "power", 1, HWFIT_UNIT_WATTS, 0, 1e6, &q,
                                           NULL),
                 HWFIT_OK);
    cr_assert_eq(q, 3200.0);
    q = 7.0;
    present = -1;
    cr_assert_eq(hwfit__json_read_quantity(&ctx, root, "absent", 0, HWFIT_UNIT_BYTES, 0, 1, &q,
                                           &present),
                 HWFIT_OK);
    cr_assert_eq(q, 7.0);
    cr_assert_eq(present, 0);
    hwfit__json_free(doc);
}

Test(json_readers, quantity_explains_bad_units_negatives_overflow_and_range) {
    const hwfit__json_value *root;
    hwfit__json_doc *doc = reader_setup(&root);
    hwfit_error err;
    hwfit__json_ctx ctx = {"node.json", 0, &err};
    double q = 7.0;
    int present = -1;
    cr_assert_eq(hwfit__json_read_quantity(&ctx, root, "absent", 1, HWFIT_UNIT_BYTES, 0, 1, &q,
                                           &present),
                 HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "node.json: missing required key 'absent'");
    cr_assert_eq(hwfit__json_read_quantity(&ctx, root, "bad_mem", 1, HWFIT_UNIT_BYTES, 0, 1e15,
                                           &q, &present),
                 HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "node.json: key 'bad_mem' must be a number of bytes or a size such as "
                        "\"96GB\" or \"80GiB\", got \"80 parsecs\"");
    cr_assert_eq(err.line, 15);
    cr_assert_eq(err.column, 14);
    cr_assert_eq(hwfit__json_read_quantity(&ctx, root, "mem", 1, HWFIT_UNIT_WATTS, 0, 1e15, &q,
                                           &present),
                 HWFIT_EPARSE, "a size is not a power");
    cr_assert(strstr(err.message, "\"700W\""), "%s", err.message);
    cr_assert_eq(hwfit__json_read_quantity(&ctx, root, "neg_mem", 1, HWFIT_UNIT_BYTES, 0, 1e15,
                                           &q, &present),
                 HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "node.json: key 'neg_mem' must be a quantity in [0, 1e+15] bytes, got "
                        "\"-5GB\"");
    cr_assert_eq(hwfit__json_read_quantity(&ctx, root, "huge_mem", 1, HWFIT_UNIT_BYTES, 0, 1e15,
                                           &q, &present),
                 HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "node.json: key 'huge_mem' is too large for a double, got \"1e400GB\"");
    cr_assert_eq(hwfit__json_read_quantity(&ctx, root, "mem", 1, HWFIT_UNIT_BYTES, 1e9, 64e9, &q,
                                           &present),
                 HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "node.json: key 'mem' must be a quantity in [1e+09, 6.4e+10] bytes, got "
                        "\"80GB\" (8e+10 bytes)");
    cr_assert_eq(hwfit__json_read_quantity(&ctx, root, "mem_n", 1, HWFIT_UNIT_BYTES, 0, 64e9, &q,
                                           &present),
                 HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "node.json: key 'mem_n' must be a quantity in [0, 6.4e+10] bytes, got "
                        "80000000000");
    cr_assert_eq(hwfit__json_read_quantity(&ctx, root, "flag", 1, HWFIT_UNIT_SECONDS, 0, 1, &q,
                                           &present),
                 HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "node.json: key 'flag' must be a number of seconds or a time such as "
                        "\"250ms\" or \"2h\", got true");
    cr_assert_eq(q, 7.0);
    cr_assert_eq(present, -1);
    hwfit__json_free(doc);
}

Test(json_readers, check_keys_names_the_first_unknown_key_and_suggests) {
    hwfit__json_doc *doc = parse("{\n  \"hidden_size\": 4096,\n  \"num_hiden_layers\": 32,\n"
                                 "  \"zzz\": 1\n}");
    const hwfit__json_value *root = hwfit__json_root(doc);
    hwfit_error err;
    hwfit__json_ctx ctx = {"config.json", 0, &err};
    const char *const known[] = {"hidden_size", "num_hidden_layers", "vocab_size", NULL};
    cr_assert_eq(hwfit__json_check_keys(&ctx, root, known), HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "config.json: unknown key 'num_hiden_layers' (did you mean "
                        "'num_hidden_layers'?)");
    cr_assert_eq(err.line, 3);
    cr_assert_eq(err.column, 3);
    const char *const known2[] = {"hidden_size", "num_hiden_layers", NULL};
    cr_assert_eq(hwfit__json_check_keys(&ctx, root, known2), HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "config.json: unknown key 'zzz'"); /* nothing close: no suggestion */
    cr_assert_eq(err.line, 4);
    const char *const all[] = {"zzz", "hidden_size", "num_hiden_layers", NULL};
    cr_assert_eq(hwfit__json_check_keys(&ctx, root, all), HWFIT_OK);
    const char *const none[] = {NULL};
    cr_assert_eq(hwfit__json_check_keys(&ctx, root, none), HWFIT_EPARSE);
    cr_assert_eq(err.line, 2, "the first key in document order");
    hwfit__json_free(doc);
}

Test(json_readers, refuse_a_non_object_and_null_arguments) {
    hwfit__json_doc *doc = parse("[1, 2]");
    const hwfit__json_value *arr = hwfit__json_root(doc);
    hwfit_error err;
    hwfit__json_ctx ctx = {"x.json", 0, &err};
    uint64_t u = 7;
    double d = 7.0;
    int b = 7;
    const char *s = "untouched";
    const char *const known[] = {NULL};
    cr_assert_eq(hwfit__json_read_u64(&ctx, arr, "a", 0, 0, 1, &u, NULL), HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "x.json: expected an object, got an array");
    cr_assert_eq(hwfit__json_read_double(&ctx, &arr->u.array.items[0], "a", 0, 0, 1, &d, NULL),
                 HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "x.json: expected an object, got a number");
    cr_assert_eq(err.column, 2);
    cr_assert_eq(hwfit__json_check_keys(&ctx, arr, known), HWFIT_EPARSE);

    cr_assert_eq(hwfit__json_read_u64(NULL, arr, "a", 0, 0, 1, &u, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit__json_read_u64(&ctx, NULL, "a", 0, 0, 1, &u, NULL), HWFIT_EINVAL);
    cr_assert_eq(err.status, HWFIT_EINVAL);
    cr_assert_eq(hwfit__json_read_u64(&ctx, arr, NULL, 0, 0, 1, &u, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit__json_read_u64(&ctx, arr, "a", 0, 0, 1, NULL, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit__json_read_double(&ctx, arr, "a", 0, 0, 1, NULL, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit__json_read_bool(&ctx, arr, "a", 0, NULL, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit__json_read_string(&ctx, arr, "a", 0, NULL, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit__json_read_quantity(&ctx, arr, "a", 0, HWFIT_UNIT_BYTES, 0, 1, NULL, NULL),
                 HWFIT_EINVAL);
    cr_assert_eq(hwfit__json_read_quantity(&ctx, arr, "a", 0, (hwfit_unit)99, 0, 1, &d, NULL),
                 HWFIT_EINVAL);
    cr_assert_eq(hwfit__json_check_keys(&ctx, arr, NULL), HWFIT_EINVAL);
    cr_assert_eq(hwfit__json_check_keys(NULL, arr, known), HWFIT_EINVAL);
    cr_assert_eq(u, 7);
    cr_assert_eq(d, 7.0);
    cr_assert_eq(b, 7);
    cr_assert_str_eq(s, "untouched");
    hwfit__json_free(doc);
}

Test(json_readers, a_null_error_report_is_allowed) {
    hwfit__json_doc *doc = parse("{\"a\": \"x\"}");
    hwfit__json_ctx ctx = {"x.json", 0, NULL};
    uint64_t u = 7;
    cr_assert_eq(hwfit__json_read_u64(&ctx, hwfit__json_root(doc), "a", 1, 0, 1, &u, NULL),
                 HWFIT_EPARSE);
    cr_assert_eq(u, 7);
    hwfit__json_free(doc);
}

Test(json_readers, messages_quote_odd_keys_and_values_safely) {
    hwfit__json_doc *doc = parse("{\"a\\nb\": \"tab\\there\", \"q\": \"say \\\"hi\\\"\"}");
    const hwfit__json_value *root = hwfit__json_root(doc);
    hwfit_error err;
    hwfit__json_ctx ctx = {NULL, 0, &err};
    uint64_t u;
    cr_assert_eq(hwfit__json_read_u64(&ctx, root, "a\nb", 1, 0, 1, &u, NULL), HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "key 'a\\u000Ab' must be an integer in [0, 1], got \"tab\\u0009here\"");
    cr_assert_eq(hwfit__json_read_u64(&ctx, root, "q", 1, 0, 1, &u, NULL), HWFIT_EPARSE);
    EXPECT_MESSAGE(err, "key 'q' must be an integer in [0, 1], got \"say \\\"hi\\\"\"");
    hwfit__json_free(doc);
}

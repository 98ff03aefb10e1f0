/* out.c - one result written as JSON, a readable table or CSV (out.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "out.h"

/* A character JSON writes as itself (not a quote, a backslash or a control character). */
static int json_plain(unsigned char c) { return c >= 0x20 && c != '"' && c != '\\' && c != 0x7f; }

void hwfit__out_json_string(hwfit__text *t, const char *s) {
    hwfit__text_putc(t, '"');
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        /* Runs of plain characters in one write (most strings are one run). */
        const unsigned char *run = p;
        while (json_plain(*p)) p++;
        if (p > run) hwfit__text_put(t, (const char *)run, (size_t)(p - run));
        if (*p == '\0') break;
        switch (*p) {
        case '"': hwfit__text_puts(t, "\\\""); break;
        case '\\': hwfit__text_puts(t, "\\\\"); break;
        case '\n': hwfit__text_puts(t, "\\n"); break;
        case '\r': hwfit__text_puts(t, "\\r"); break;
        case '\t': hwfit__text_puts(t, "\\t"); break;
        default:
            if (*p < 0x20 || *p == 0x7f) hwfit__text_printf(t, "\\u%04x", *p);
            else hwfit__text_putc(t, (char)*p);
        }
    }
    hwfit__text_putc(t, '"');
}

void hwfit__out_json_number(hwfit__text *t, double v) {
    if (!hwfit__finite(v)) {
        hwfit__text_puts(t, "null");
        return;
    }
    char buf[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        hwfit__c_decimal_point(buf);
        if (hwfit__strtod(buf, strlen(buf)) == v) break;
    }
    hwfit__text_puts(t, buf);
}

/* Digits of a whole number with a comma every three. */
static void grouped(double whole, char *out, size_t size) {
    char digits[40];
    snprintf(digits, sizeof digits, "%.0f", fabs(whole));
    size_t n = strlen(digits), k = 0;
    if (whole < 0 && k + 1 < size) out[k++] = '-';
    for (size_t i = 0; i < n && k + 2 < size; i++) {
        if (i > 0 && (n - i) % 3 == 0) out[k++] = ',';
        out[k++] = digits[i];
    }
    out[k] = '\0';
}

void hwfit__out_plain_number(double v, char out[48]) {
    double a = fabs(v);
    if (!hwfit__finite(v)) {
        snprintf(out, 48, "-");
    } else if (a >= 1e21) {
        snprintf(out, 48, "%.4g", v); /* beyond any count a person reads digit by digit */
    } else if (a >= 1000.0) {
        /* 12,345 above 100,000; 1,234.5 below, the tenth only when it is not 0 */
        double r = a >= 1e5 ? round(v) : round(v * 10.0) / 10.0;
        double whole = trunc(r);
        int tenth = (int)round(fabs(r - whole) * 10.0);
        grouped(whole, out, 40);
        if (tenth > 0 && tenth < 10) snprintf(out + strlen(out), 8, ".%d", tenth);
    } else if (a == 0.0 || a >= 1e-4) {
        snprintf(out, 48, "%.6g", v);
        if (strchr(out, 'e') != NULL) snprintf(out, 48, "%.6f", v);
    } else {
        snprintf(out, 48, "%.3g", v);
    }
    hwfit__c_decimal_point(out);
}

/* ---- layout -------------------------------------------------------------------------- */

static void newline_indent(hwfit__out *o) {
    hwfit__text_putc(o->t, '\n');
    for (int i = 0; i <= o->depth; i++) hwfit__text_puts(o->t, "  ");
}

/* ",\n    \"key\": " in one write (the separator, the indent and a key of plain
 * characters: every key the commands write); other keys through the string writer. */
static void json_key(hwfit__out *o, const char *key) {
    char buf[128];
    size_t n = 0, indent = 2 * ((size_t)o->depth + 1);
    if (!o->first[o->depth]) buf[n++] = ',';
    o->first[o->depth] = 0;
    buf[n++] = '\n';
    memset(buf + n, ' ', indent); /* depth <= HWFIT__OUT_MAX_DEPTH: at most 34 */
    n += indent;
    size_t len = 0;
    if (key) {
        while (key[len] != '\0' && len < 64 && json_plain((unsigned char)key[len])) len++;
        if (key[len] == '\0') {
            buf[n++] = '"';
            memcpy(buf + n, key, len);
            n += len;
            memcpy(buf + n, "\": ", 3);
            hwfit__text_put(o->t, buf, n + 3);
            return;
        }
    }
    hwfit__text_put(o->t, buf, n);
    if (key) {
        hwfit__out_json_string(o->t, key);
        hwfit__text_puts(o->t, ": ");
    }
}

static void text_label(hwfit__out *o, const char *label) {
    hwfit__text_printf(o->t, "%*s%-34s ", 2 * o->depth, "", label);
}

/* Open one level of nesting (bounded: a deeper write stays at the last level). */
static void push(hwfit__out *o) {
    if (o->depth < HWFIT__OUT_MAX_DEPTH) o->depth++;
    o->first[o->depth] = 1;
}

static void pop(hwfit__out *o) {
    if (o->depth > 0) o->depth--;
}

int hwfit__out_json(const hwfit__out *o) { return o->format == HWFIT_FORMAT_JSON; }

static int is_text(const hwfit__out *o) { return o->format == HWFIT_FORMAT_TEXT; }

/* ---- the record (hwfit_request_run_record) -------------------------------------------- */

/* One line of the shape: the value's code and its key ("Qparams\n"). A key with a newline
 * (no command writes one) marks the record bad: the request refuses it. The shape's reader
 * takes any other character as the key's own (the JSON writer escapes them; json.loads reads
 * the escapes back to them). */
static void rec_key(hwfit__out *o, char code, const char *key) {
    char line[80]; /* the line in one write when the key is short (every key is) */
    size_t len = key ? strlen(key) : 0;
    if (len > 0 && memchr(key, '\n', len) != NULL) o->rec->bad = 1;
    char *at = hwfit__text_room(o->t, len + 2); /* written in place: no line buffer */
    if (at != NULL) {
        at[0] = code;
        if (len > 0) memcpy(at + 1, key, len);
        at[len + 1] = '\n';
        hwfit__text_advance(o->t, len + 2);
        return;
    }
    if (len + 2 > sizeof line) {
        hwfit__text_putc(o->t, code);
        hwfit__text_put(o->t, key, len);
        hwfit__text_putc(o->t, '\n');
        return;
    }
    line[0] = code;
    if (len > 0) memcpy(line + 1, key, len);
    line[len + 1] = '\n';
    hwfit__text_put(o->t, line, len + 2);
}

static void rec_u64(hwfit__out *o, const char *key, uint64_t v) {
    rec_key(o, 'Q', key);
    hwfit__text_put(&o->rec->nums, (const char *)&v, sizeof v);
}

/* A double as json.loads reads its JSON text: null when not finite, a whole number (an
 * int) when the text has no '.' nor exponent, else a float (the text reads back as v). */
static void rec_num(hwfit__out *o, const char *key, double v) {
    if (!hwfit__finite(v)) {
        rec_key(o, 'n', key);
        return;
    }
    int whole = v == trunc(v);
    if (whole && fabs(v) >= 1e15) { /* %.15g-%.17g may or may not write an exponent */
        char buf[40];
        hwfit__text t;
        hwfit__text_fixed(&t, buf, sizeof buf);
        hwfit__out_json_number(&t, v);
        whole = strpbrk(buf, ".eE") == NULL;
    }
    if (whole) { /* below 1e17 (17 digits at most without an exponent): an int64 */
        int64_t i = (int64_t)v;
        rec_key(o, 'q', key);
        hwfit__text_put(&o->rec->nums, (const char *)&i, sizeof i);
    } else {
        rec_key(o, 'd', key);
        hwfit__text_put(&o->rec->nums, (const char *)&v, sizeof v);
    }
}

static void rec_str(hwfit__out *o, const char *key, const char *s) {
    rec_key(o, 's', key);
    const char *v = s ? s : ""; /* the JSON writer writes NULL as "" */
    hwfit__text_put(&o->rec->strs, v, strlen(v) + 1);
}

static void rec_bool(hwfit__out *o, const char *key, int b) {
    char c = b ? 1 : 0;
    rec_key(o, '?', key);
    hwfit__text_put(&o->rec->nums, &c, 1);
}

/* The key of the table's current cell, or NULL (and nothing written) on misuse, as cell(). */
static const char *rec_cell(hwfit__out *o) {
    if (o->cols == NULL || o->col < 0 || o->col >= o->ncols) return NULL;
    return o->cols[o->col++].key;
}

void hwfit__out_begin_record(hwfit__out *o, hwfit__text *shape, hwfit__record *rec) {
    hwfit__out_begin(o, shape, HWFIT_FORMAT_JSON, NULL);
    hwfit__text_reset(shape); /* out_begin wrote JSON's "{" */
    hwfit__text_reset(&rec->nums);
    hwfit__text_reset(&rec->strs);
    rec->bad = 0;
    o->rec = rec;
}

void hwfit__out_begin(hwfit__out *o, hwfit__text *t, hwfit_format format, const char *title) {
    memset(o, 0, sizeof *o);
    o->t = t;
    o->format = format;
    o->first[0] = 1;
    o->col = -1;
    if (format == HWFIT_FORMAT_JSON) hwfit__text_putc(t, '{');
    else if (is_text(o) && title) hwfit__text_printf(t, "%s\n", title);
}

void hwfit__out_end(hwfit__out *o) {
    if (o->rec) return;
    if (hwfit__out_json(o)) hwfit__text_puts(o->t, "\n}\n");
}

void hwfit__out_section(hwfit__out *o, const char *key, const char *title) {
    if (o->rec) {
        rec_key(o, '{', key);
    } else if (hwfit__out_json(o)) {
        json_key(o, key);
        hwfit__text_putc(o->t, '{');
    } else if (is_text(o)) {
        hwfit__text_printf(o->t, "%*s%s\n", 2 * o->depth, "", title);
    }
    push(o);
}

void hwfit__out_section_end(hwfit__out *o) {
    pop(o);
    if (o->rec) {
        rec_key(o, '}', NULL);
    } else if (hwfit__out_json(o)) {
        newline_indent(o);
        hwfit__text_putc(o->t, '}');
    }
}

/* A scalar: JSON writes json (already formatted), a table writes text. */
static void scalar(hwfit__out *o, const char *key, const char *label, const char *json,
                   const char *text) {
    if (hwfit__out_json(o)) {
        json_key(o, key);
        hwfit__text_puts(o->t, json);
    } else if (is_text(o)) {
        text_label(o, label);
        hwfit__text_printf(o->t, "%s\n", text);
    }
}

/* The decimal digits of v (what "%llu" writes, without the printf machinery). */
static void u64_digits(uint64_t v, char out[24]) {
    char rev[24];
    int n = 0;
    do {
        rev[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0);
    for (int i = 0; i < n; i++) out[i] = rev[n - 1 - i];
    out[n] = '\0';
}

/* The table's text is made only for a table: JSON and CSV never read it. */
void hwfit__out_u64(hwfit__out *o, const char *key, const char *label, uint64_t v) {
    if (o->rec) {
        rec_u64(o, key, v);
        return;
    }
    char json[24], text[40] = "";
    u64_digits(v, json);
    if (is_text(o)) hwfit_units_format_count(v, text, sizeof text);
    scalar(o, key, label, json, text);
}

void hwfit__out_bytes(hwfit__out *o, const char *key, const char *label, uint64_t bytes) {
    if (o->rec) {
        rec_u64(o, key, bytes);
        return;
    }
    char json[24], text[64] = "";
    u64_digits(bytes, json);
    if (is_text(o) &&
        hwfit_units_format((double)bytes, HWFIT_UNIT_BYTES, text, sizeof text) != HWFIT_OK)
        snprintf(text, sizeof text, "-");
    scalar(o, key, label, json, text);
}

void hwfit__out_qty(hwfit__out *o, const char *key, const char *label, double v,
                    hwfit_unit unit) {
    if (o->rec) {
        rec_num(o, key, v);
    } else if (hwfit__out_json(o)) {
        json_key(o, key);
        hwfit__out_json_number(o->t, v);
    } else if (is_text(o)) {
        char text[64];
        if (hwfit_units_format(v, unit, text, sizeof text) != HWFIT_OK)
            snprintf(text, sizeof text, "-");
        text_label(o, label);
        hwfit__text_printf(o->t, "%s\n", text);
    }
}

void hwfit__out_num(hwfit__out *o, const char *key, const char *label, double v) {
    if (o->rec) {
        rec_num(o, key, v);
    } else if (hwfit__out_json(o)) {
        json_key(o, key);
        hwfit__out_json_number(o->t, v);
    } else if (is_text(o)) {
        char text[48];
        hwfit__out_plain_number(v, text);
        text_label(o, label);
        hwfit__text_printf(o->t, "%s\n", text);
    }
}

static void pct_text(double fraction, char out[48]) {
    if (!hwfit__finite(fraction)) {
        snprintf(out, 48, "-");
        return;
    }
    double p = fraction * 100.0, a = fabs(p);
    if (a != 0.0 && a < 0.01) snprintf(out, 48, "%.2g %%", p);
    else if (a < 10.0) snprintf(out, 48, "%.2f %%", p);
    else if (a < 1e6) snprintf(out, 48, "%.1f %%", p);
    else snprintf(out, 48, "%.3g %%", p);
    hwfit__c_decimal_point(out);
}

void hwfit__out_pct(hwfit__out *o, const char *key, const char *label, double fraction) {
    if (o->rec) {
        rec_num(o, key, fraction);
    } else if (hwfit__out_json(o)) {
        json_key(o, key);
        hwfit__out_json_number(o->t, fraction);
    } else if (is_text(o)) {
        char text[48];
        pct_text(fraction, text);
        text_label(o, label);
        hwfit__text_printf(o->t, "%s\n", text);
    }
}

void hwfit__out_str(hwfit__out *o, const char *key, const char *label, const char *s) {
    if (o->rec) {
        rec_str(o, key, s);
    } else if (hwfit__out_json(o)) {
        json_key(o, key);
        hwfit__out_json_string(o->t, s);
    } else if (is_text(o)) {
        text_label(o, label);
        hwfit__text_printf(o->t, "%s\n", s ? s : "-");
    }
}

void hwfit__out_bool(hwfit__out *o, const char *key, const char *label, int b) {
    if (o->rec) {
        rec_bool(o, key, b);
        return;
    }
    scalar(o, key, label, b ? "true" : "false", b ? "yes" : "no");
}

void hwfit__out_null(hwfit__out *o, const char *key, const char *label) {
    if (o->rec) {
        rec_key(o, 'n', key);
        return;
    }
    scalar(o, key, label, "null", "-");
}

/* ---- tables -------------------------------------------------------------------------- */

static void csv_field(hwfit__text *t, const char *s) {
    if (strpbrk(s, ",\"\n\r") == NULL) {
        hwfit__text_puts(t, s);
        return;
    }
    hwfit__text_putc(t, '"');
    for (const char *p = s; *p; p++) {
        if (*p == '"') hwfit__text_putc(t, '"');
        hwfit__text_putc(t, *p);
    }
    hwfit__text_putc(t, '"');
}

void hwfit__out_table(hwfit__out *o, const char *key, const char *title, const hwfit__col *cols,
                      int ncols) {
    o->cols = cols;
    o->ncols = ncols;
    o->col = -1;
    if (o->rec) {
        rec_key(o, '[', key);
        push(o);
        return;
    }
    if (hwfit__out_json(o)) {
        json_key(o, key);
        hwfit__text_putc(o->t, '[');
        push(o);
        return;
    }
    if (o->format == HWFIT_FORMAT_CSV) {
        if (o->tables++ > 0) hwfit__text_putc(o->t, '\n');
        for (int i = 0; i < ncols; i++) {
            if (i) hwfit__text_putc(o->t, ',');
            csv_field(o->t, cols[i].key);
        }
        hwfit__text_putc(o->t, '\n');
        return;
    }
    if (!is_text(o)) return;
    if (title) hwfit__text_printf(o->t, "%s\n", title);
    for (int i = 0; i < ncols; i++)
        hwfit__text_printf(o->t, "%s%-*s", i ? "  " : "", cols[i].width, cols[i].header);
    hwfit__text_putc(o->t, '\n');
    for (int i = 0; i < ncols; i++) {
        if (i) hwfit__text_puts(o->t, "  ");
        for (int k = 0; k < cols[i].width; k++) hwfit__text_putc(o->t, '-');
    }
    hwfit__text_putc(o->t, '\n');
}

static void close_row(hwfit__out *o) {
    if (o->col < 0) return;
    if (o->rec) {
        pop(o);
        rec_key(o, '}', NULL);
    } else if (hwfit__out_json(o)) {
        pop(o);
        hwfit__text_puts(o->t, " }");
    } else if (o->format == HWFIT_FORMAT_CSV || is_text(o)) {
        hwfit__text_putc(o->t, '\n');
    }
    o->col = -1;
}

void hwfit__out_row(hwfit__out *o) {
    close_row(o);
    o->col = 0;
    if (o->rec) {
        rec_key(o, '{', NULL);
        push(o);
    } else if (hwfit__out_json(o)) {
        json_key(o, NULL);
        hwfit__text_putc(o->t, '{');
        push(o);
    }
}

/* One cell: JSON json, table text (padded to the column), CSV csv. */
static void cell(hwfit__out *o, const char *json, const char *text, const char *csv) {
    if (o->cols == NULL || o->col < 0 || o->col >= o->ncols) return; /* misuse: no column */
    if (hwfit__out_json(o)) {
        if (!o->first[o->depth]) hwfit__text_putc(o->t, ',');
        o->first[o->depth] = 0;
        hwfit__text_putc(o->t, ' ');
        hwfit__out_json_string(o->t, o->cols[o->col].key);
        hwfit__text_puts(o->t, ": ");
        hwfit__text_puts(o->t, json);
    } else if (o->format == HWFIT_FORMAT_CSV) {
        if (o->col > 0) hwfit__text_putc(o->t, ',');
        csv_field(o->t, csv);
    } else if (is_text(o)) {
        if (o->col > 0) hwfit__text_puts(o->t, "  ");
        if (o->col == o->ncols - 1) hwfit__text_puts(o->t, text);
        else hwfit__text_printf(o->t, "%-*s", o->cols[o->col].width, text);
    }
    o->col++;
}

void hwfit__out_cell_u64(hwfit__out *o, uint64_t v) {
    if (o->rec) {
        const char *key = rec_cell(o);
        if (key) rec_u64(o, key, v);
        return;
    }
    char json[32], text[40];
    snprintf(json, sizeof json, "%llu", (unsigned long long)v);
    hwfit_units_format_count(v, text, sizeof text);
    cell(o, json, text, json);
}

static void number_json(double v, char *out, size_t size) {
    hwfit__text t;
    hwfit__text_fixed(&t, out, size);
    hwfit__out_json_number(&t, v);
}

void hwfit__out_cell_num(hwfit__out *o, double v) {
    if (o->rec) {
        const char *key = rec_cell(o);
        if (key) rec_num(o, key, v);
        return;
    }
    char json[40], text[48];
    number_json(v, json, sizeof json);
    hwfit__out_plain_number(v, text);
    cell(o, json, text, hwfit__finite(v) ? json : "");
}

void hwfit__out_cell_pct(hwfit__out *o, double fraction) {
    if (o->rec) {
        const char *key = rec_cell(o);
        if (key) rec_num(o, key, fraction);
        return;
    }
    char json[40], text[48];
    number_json(fraction, json, sizeof json);
    pct_text(fraction, text);
    cell(o, json, text, hwfit__finite(fraction) ? json : "");
}

void hwfit__out_cell_qty(hwfit__out *o, double v, hwfit_unit unit) {
    if (o->rec) {
        const char *key = rec_cell(o);
        if (key) rec_num(o, key, v);
        return;
    }
    char json[40], text[64];
    number_json(v, json, sizeof json);
    if (hwfit_units_format(v, unit, text, sizeof text) != HWFIT_OK) snprintf(text, sizeof text, "-");
    cell(o, json, text, hwfit__finite(v) ? json : "");
}

void hwfit__out_cell_str(hwfit__out *o, const char *s) {
    if (o->rec) {
        const char *key = rec_cell(o);
        if (key) rec_str(o, key, s);
        return;
    }
    if (hwfit__out_json(o)) {
        hwfit__text tmp;
        char small[256];
        hwfit__text_fixed(&tmp, small, sizeof small);
        hwfit__out_json_string(&tmp, s);
        if (hwfit__text_complete(&tmp)) {
            cell(o, small, s, s);
            return;
        }
        /* A long string: write it straight through. */
        if (!o->first[o->depth]) hwfit__text_putc(o->t, ',');
        o->first[o->depth] = 0;
        hwfit__text_putc(o->t, ' ');
        hwfit__out_json_string(o->t, o->cols[o->col].key);
        hwfit__text_puts(o->t, ": ");
        hwfit__out_json_string(o->t, s);
        o->col++;
        return;
    }
    cell(o, "", s ? s : "-", s ? s : "");
}

void hwfit__out_cell_bool(hwfit__out *o, int b) {
    if (o->rec) {
        const char *key = rec_cell(o);
        if (key) rec_bool(o, key, b);
        return;
    }
    cell(o, b ? "true" : "false", b ? "yes" : "no", b ? "true" : "false");
}

void hwfit__out_cell_null(hwfit__out *o) {
    if (o->rec) {
        const char *key = rec_cell(o);
        if (key) rec_key(o, 'n', key);
        return;
    }
    cell(o, "null", "-", "");
}

void hwfit__out_table_end(hwfit__out *o) {
    close_row(o);
    if (o->rec) {
        pop(o);
        rec_key(o, ']', NULL);
    } else if (hwfit__out_json(o)) {
        pop(o);
        newline_indent(o);
        hwfit__text_putc(o->t, ']');
    }
    o->cols = NULL;
}

/* ---- nested lists (JSON only) --------------------------------------------------------- */

void hwfit__out_list(hwfit__out *o, const char *key) {
    if (!hwfit__out_json(o)) return;
    if (o->rec) {
        rec_key(o, '[', key);
        push(o);
        return;
    }
    json_key(o, key);
    hwfit__text_putc(o->t, '[');
    push(o);
}

void hwfit__out_item(hwfit__out *o) {
    if (!hwfit__out_json(o)) return;
    if (o->rec) {
        rec_key(o, '{', NULL);
        push(o);
        return;
    }
    json_key(o, NULL);
    hwfit__text_putc(o->t, '{');
    push(o);
}

static void close_nested(hwfit__out *o, char c) {
    pop(o);
    if (o->rec) {
        rec_key(o, c, NULL);
        return;
    }
    newline_indent(o);
    hwfit__text_putc(o->t, c);
}

void hwfit__out_item_end(hwfit__out *o) {
    if (hwfit__out_json(o)) close_nested(o, '}');
}

void hwfit__out_list_end(hwfit__out *o) {
    if (hwfit__out_json(o)) close_nested(o, ']');
}

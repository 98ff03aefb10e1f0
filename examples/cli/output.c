/* output.c - one JSON object or a readable table, from the same calls. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void out_json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20) fprintf(f, "\\u%04x", *p);
            else fputc(*p, f);
        }
    }
    fputc('"', f);
}

/* Shortest of %.15g/%.16g/%.17g that reads back as the same double; null if not finite. */
static void json_number(FILE *f, double v) {
    if (!(v == v) || v - v != 0.0) {
        fputs("null", f);
        return;
    }
    char buf[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) break;
    }
    fputs(buf, f);
}

static void json_key(cli_out *o, const char *key) {
    if (!o->first[o->depth]) fputc(',', o->f);
    o->first[o->depth] = 0;
    fputc('\n', o->f);
    for (int i = 0; i <= o->depth; i++) fputs("  ", o->f);
    if (key) {
        out_json_string(o->f, key);
        fputs(": ", o->f);
    }
}

static void text_label(cli_out *o, const char *label) {
    fprintf(o->f, "%*s%-34s ", 2 * o->depth, "", label);
}

void out_begin(cli_out *o, int json, const char *title) {
    memset(o, 0, sizeof *o);
    o->f = stdout;
    o->json = json;
    o->first[0] = 1;
    if (json) fputc('{', o->f);
    else if (title) fprintf(o->f, "%s\n", title);
}

void out_end(cli_out *o) {
    if (o->json) fputs("\n}\n", o->f);
    fflush(o->f);
}

void out_section(cli_out *o, const char *key, const char *title) {
    if (o->json) {
        json_key(o, key);
        fputc('{', o->f);
    } else {
        fprintf(o->f, "%*s%s\n", 2 * o->depth, "", title);
    }
    o->depth++;
    o->first[o->depth] = 1;
}

void out_section_end(cli_out *o) {
    o->depth--;
    if (o->json) {
        fputc('\n', o->f);
        for (int i = 0; i <= o->depth; i++) fputs("  ", o->f);
        fputc('}', o->f);
    }
}

void out_u64(cli_out *o, const char *key, const char *label, uint64_t v) {
    if (o->json) {
        json_key(o, key);
        fprintf(o->f, "%llu", (unsigned long long)v);
    } else {
        char buf[32];
        hwfit_units_format_count(v, buf, sizeof buf);
        text_label(o, label);
        fprintf(o->f, "%s\n", buf);
    }
}

void out_bytes(cli_out *o, const char *key, const char *label, uint64_t bytes) {
    if (o->json) {
        json_key(o, key);
        fprintf(o->f, "%llu", (unsigned long long)bytes);
    } else {
        char buf[64];
        if (hwfit_units_format((double)bytes, HWFIT_UNIT_BYTES, buf, sizeof buf) != HWFIT_OK)
            snprintf(buf, sizeof buf, "-");
        text_label(o, label);
        fprintf(o->f, "%s\n", buf);
    }
}

void out_qty(cli_out *o, const char *key, const char *label, double v, hwfit_unit unit) {
    if (o->json) {
        json_key(o, key);
        json_number(o->f, v);
    } else {
        char buf[64];
        if (hwfit_units_format(v, unit, buf, sizeof buf) != HWFIT_OK) snprintf(buf, sizeof buf, "-");
        text_label(o, label);
        fprintf(o->f, "%s\n", buf);
    }
}

void out_num(cli_out *o, const char *key, const char *label, double v) {
    if (o->json) {
        json_key(o, key);
        json_number(o->f, v);
    } else {
        text_label(o, label);
        fprintf(o->f, "%.6g\n", v);
    }
}

void out_str(cli_out *o, const char *key, const char *label, const char *s) {
    if (o->json) {
        json_key(o, key);
        out_json_string(o->f, s);
    } else {
        text_label(o, label);
        fprintf(o->f, "%s\n", s);
    }
}

void out_bool(cli_out *o, const char *key, const char *label, int b) {
    if (o->json) {
        json_key(o, key);
        fputs(b ? "true" : "false", o->f);
    } else {
        text_label(o, label);
        fprintf(o->f, "%s\n", b ? "yes" : "no");
    }
}

void out_null(cli_out *o, const char *key, const char *label) {
    if (o->json) {
        json_key(o, key);
        fputs("null", o->f);
    } else {
        text_label(o, label);
        fprintf(o->f, "-\n");
    }
}

void out_table(cli_out *o, const char *key, const char *title, const cli_col *cols, int ncols) {
    o->cols = cols;
    o->ncols = ncols;
    o->col = -1;
    if (o->json) {
        json_key(o, key);
        fputc('[', o->f);
        o->depth++;
        o->first[o->depth] = 1;
        return;
    }
    if (title) fprintf(o->f, "%s\n", title);
    for (int i = 0; i < ncols; i++) fprintf(o->f, "%s%-*s", i ? "  " : "", cols[i].width, cols[i].header);
    fputc('\n', o->f);
    for (int i = 0; i < ncols; i++) {
        fprintf(o->f, "%s", i ? "  " : "");
        for (int k = 0; k < cols[i].width; k++) fputc('-', o->f);
    }
    fputc('\n', o->f);
}

static void close_row(cli_out *o) {
    if (o->col < 0) return;
    if (o->json) {
        o->depth--;
        fputs(" }", o->f);
    } else {
        fputc('\n', o->f);
    }
    o->col = -1;
}

void out_row(cli_out *o) {
    close_row(o);
    o->col = 0;
    if (o->json) {
        json_key(o, NULL);
        fputs("{", o->f);
        o->depth++;
        o->first[o->depth] = 1;
    }
}

static void cell_prefix(cli_out *o) {
    if (o->json) {
        if (!o->first[o->depth]) fputc(',', o->f);
        o->first[o->depth] = 0;
        fputc(' ', o->f);
        out_json_string(o->f, o->cols[o->col].key);
        fputs(": ", o->f);
    } else if (o->col > 0) {
        fputs("  ", o->f);
    }
}

static void cell_text(cli_out *o, const char *s) {
    int w = o->cols[o->col].width;
    if (o->col == o->ncols - 1) fprintf(o->f, "%s", s);
    else fprintf(o->f, "%-*s", w, s);
}

void out_cell_u64(cli_out *o, uint64_t v) {
    cell_prefix(o);
    if (o->json) fprintf(o->f, "%llu", (unsigned long long)v);
    else {
        char buf[32];
        hwfit_units_format_count(v, buf, sizeof buf);
        cell_text(o, buf);
    }
    o->col++;
}

void out_cell_num(cli_out *o, double v) {
    cell_prefix(o);
    if (o->json) json_number(o->f, v);
    else {
        char buf[32];
        snprintf(buf, sizeof buf, "%.4g", v);
        cell_text(o, buf);
    }
    o->col++;
}

void out_cell_qty(cli_out *o, double v, hwfit_unit unit) {
    cell_prefix(o);
    if (o->json) json_number(o->f, v);
    else {
        char buf[64];
        if (hwfit_units_format(v, unit, buf, sizeof buf) != HWFIT_OK) snprintf(buf, sizeof buf, "-");
        cell_text(o, buf);
    }
    o->col++;
}

void out_cell_str(cli_out *o, const char *s) {
    cell_prefix(o);
    if (o->json) out_json_string(o->f, s);
    else cell_text(o, s);
    o->col++;
}

void out_cell_null(cli_out *o) {
    cell_prefix(o);
    if (o->json) fputs("null", o->f);
    else cell_text(o, "-");
    o->col++;
}

void out_cell_bool(cli_out *o, int b) {
    cell_prefix(o);
    if (o->json) fputs(b ? "true" : "false", o->f);
    else cell_text(o, b ? "yes" : "no");
    o->col++;
}

void out_table_end(cli_out *o) {
    close_row(o);
    if (o->json) {
        o->depth--;
        fputc('\n', o->f);
        for (int i = 0; i <= o->depth; i++) fputs("  ", o->f);
        fputc(']', o->f);
    }
    o->cols = NULL;
}

void out_list(cli_out *o, const char *key) {
    if (!o->json) return;
    json_key(o, key);
    fputc('[', o->f);
    o->depth++;
    o->first[o->depth] = 1;
}

void out_item(cli_out *o) {
    if (!o->json) return;
    json_key(o, NULL);
    fputc('{', o->f);
    o->depth++;
    o->first[o->depth] = 1;
}

static void close_nested(cli_out *o, char c) {
    o->depth--;
    fputc('\n', o->f);
    for (int i = 0; i <= o->depth; i++) fputs("  ", o->f);
    fputc(c, o->f);
}

void out_item_end(cli_out *o) {
    if (o->json) close_nested(o, '}');
}

void out_list_end(cli_out *o) {
    if (o->json) close_nested(o, ']');
}

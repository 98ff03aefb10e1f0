/*
 * out.h - how the commands of the request layer write a result: one sequence of calls
 * makes the JSON object, the readable table and the CSV alike, so the faces never
 * re-assemble a result. JSON keys are the contract (stable); table labels are for people.
 * Never installed; not API.
 */
#ifndef HWFIT_REQUEST_OUT_H
#define HWFIT_REQUEST_OUT_H

#include <stdint.h>

#include "hwfit/request.h"
#include "hwfit/units.h"
#include "text.h"

#define HWFIT__OUT_MAX_DEPTH 16

typedef struct hwfit__col {
    const char *key;    /* JSON key and CSV header */
    const char *header; /* table header */
    int width;          /* table column width */
} hwfit__col;

/* The parts of a record besides its shape: the numbers (packed native), the strings (each
 * NUL-terminated) and whether a key could not be carried (a newline). */
typedef struct hwfit__record {
    hwfit__text nums, strs;
    int bad;
} hwfit__record;

typedef struct hwfit__out {
    hwfit__text *t;
    hwfit_format format;            /* JSON, TEXT or CSV */
    int depth;
    int first[HWFIT__OUT_MAX_DEPTH + 1]; /* per depth: nothing written at this level yet */
    const hwfit__col *cols;
    int ncols, col;                 /* table in progress; col -1 between rows */
    int tables;                     /* CSV: tables written so far */
    int list_depth;                 /* > 0 inside out_list (JSON only) */
    /* The record (hwfit_request_run_record), or NULL when writing text: the shape goes to
     * t (one line a value, "<code><key>\n"), the numbers and strings to its texts. */
    struct hwfit__record *rec;
} hwfit__out;

void hwfit__out_begin(hwfit__out *o, hwfit__text *t, hwfit_format format, const char *title);
void hwfit__out_end(hwfit__out *o);
/* Begin the record of a JSON result (see hwfit_request_run_record in request.h): the same
 * calls write the shape into shape, the numbers into nums and the strings into strs. The
 * commands see JSON (hwfit__out_json is 1). */
void hwfit__out_begin_record(hwfit__out *o, hwfit__text *shape, hwfit__record *rec);
/* 1 when writing JSON (a command may keep keys there that a table leaves out). */
int hwfit__out_json(const hwfit__out *o);

/* A nested object (JSON) or a heading (table). */
void hwfit__out_section(hwfit__out *o, const char *key, const char *title);
void hwfit__out_section_end(hwfit__out *o);
void hwfit__out_u64(hwfit__out *o, const char *key, const char *label, uint64_t v);
/* An exact byte count: a JSON integer, or "16.06 GB (14.96 GiB)" in a table. */
void hwfit__out_bytes(hwfit__out *o, const char *key, const char *label, uint64_t bytes);
void hwfit__out_qty(hwfit__out *o, const char *key, const char *label, double v, hwfit_unit unit);
/* A plain number: shortest round-trip in JSON; without e-notation in a table (grouped
 * digits above 1,000; scientific only below 1e-4). */
void hwfit__out_num(hwfit__out *o, const char *key, const char *label, double v);
/* A share in [0, 1] (or beyond): the fraction in JSON, "95.9 %" in a table. */
void hwfit__out_pct(hwfit__out *o, const char *key, const char *label, double fraction);
void hwfit__out_str(hwfit__out *o, const char *key, const char *label, const char *s);
void hwfit__out_bool(hwfit__out *o, const char *key, const char *label, int b);
void hwfit__out_null(hwfit__out *o, const char *key, const char *label);

/* A list of rows: JSON array of objects; a table with a header line; CSV rows. */
void hwfit__out_table(hwfit__out *o, const char *key, const char *title, const hwfit__col *cols,
                      int ncols);
void hwfit__out_row(hwfit__out *o);
void hwfit__out_cell_u64(hwfit__out *o, uint64_t v);
void hwfit__out_cell_num(hwfit__out *o, double v);
void hwfit__out_cell_pct(hwfit__out *o, double fraction);
void hwfit__out_cell_qty(hwfit__out *o, double v, hwfit_unit unit);
void hwfit__out_cell_str(hwfit__out *o, const char *s);
void hwfit__out_cell_bool(hwfit__out *o, int b);
void hwfit__out_cell_null(hwfit__out *o); /* JSON null, "-" in a table, empty in CSV */
void hwfit__out_table_end(hwfit__out *o);

/* A list of objects that may nest (JSON only; a table prints nothing for these). */
void hwfit__out_list(hwfit__out *o, const char *key);
void hwfit__out_item(hwfit__out *o);
void hwfit__out_item_end(hwfit__out *o);
void hwfit__out_list_end(hwfit__out *o);

/* s as a JSON string literal (quotes and escapes). */
void hwfit__out_json_string(hwfit__text *t, const char *s);
/* v as the shortest JSON number that reads back as the same double; null if not finite. */
void hwfit__out_json_number(hwfit__text *t, double v);
/* v for people, without e-notation (see hwfit__out_num); out holds 48 bytes. */
void hwfit__out_plain_number(double v, char out[48]);

#endif /* HWFIT_REQUEST_OUT_H */

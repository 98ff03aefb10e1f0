/*
 * cli.h - what the subcommands of the hwfit command share: option parsing with units,
 * and output as a readable table or as one JSON object. No formula lives in the CLI:
 * every number it prints comes from a library call.
 */
#ifndef HWFIT_CLI_H
#define HWFIT_CLI_H

#include <stdint.h>
#include <stdio.h>

#include <hwfit.h>

/* Exit statuses: 0 success, 2 bad input (one line on stderr, nothing on stdout). */
#define CLI_EXIT_OK 0
#define CLI_EXIT_USAGE 2
/* cli_parse returns this when it printed --help; the subcommand exits 0. */
#define CLI_HELP_SHOWN (-1)

/* ---- options ------------------------------------------------------------------------ */

typedef enum cli_type {
    CLI_FLAG,     /* int*: set to 1; takes no value */
    CLI_U64,      /* uint64_t*: a whole number, digits only */
    CLI_TOKENS,   /* uint64_t*: a count with optional K/M (x1024, x1048576): "128K" */
    CLI_DOUBLE,   /* double*: a plain finite number */
    CLI_QUANTITY, /* double*: a number with a unit (see hwfit_units_parse) */
    CLI_STRING,   /* const char **: the text as given */
    CLI_CHOICE,   /* int*: index into choices (NULL-terminated) */
    CLI_LIST      /* cli_list*: repeated option, each value appended */
} cli_type;

#define CLI_LIST_MAX 32
typedef struct cli_list {
    const char *items[CLI_LIST_MAX];
    int count;
} cli_list;

typedef struct cli_opt {
    const char *name;            /* without the leading "--" */
    cli_type type;
    void *dest;
    const char *metavar;         /* shown in help, e.g. "FILE" */
    const char *help;            /* one line */
    hwfit_unit unit;             /* CLI_QUANTITY only */
    const char *const *choices;  /* CLI_CHOICE only, NULL-terminated */
    int *seen;                   /* optional: set to 1 when the option is given */
} cli_opt;

typedef struct cli_spec {
    const char *name;        /* subcommand, e.g. "model" */
    const char *summary;     /* one line */
    const char *usage;       /* e.g. "--config FILE [--weights DTYPE]" */
    const char *details;     /* optional paragraph after the options, or NULL */
    const cli_opt *opts;
    int nopts;
    int max_positional;      /* positional arguments accepted */
    const char *positional_name;
} cli_spec;

typedef struct cli_args {
    int json;
    int npositional;
    const char *positional[8];
} cli_args;

/* Parse argv[1..argc) of a subcommand (argv[0] is its name). --json and --help are always
 * accepted. Returns 0, CLI_HELP_SHOWN, or CLI_EXIT_USAGE after printing one line to stderr. */
int cli_parse(const cli_spec *spec, int argc, char **argv, cli_args *args);

/* Print "hwfit NAME: message" ("hwfit: message" when command is NULL) to stderr as one
 * line, control characters escaped, and return CLI_EXIT_USAGE. */
int cli_fail(const char *command, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Report a value a library parser refused, naming the option and what it expects:
 * "hwfit power: --class: unknown value 'ruby' (expected none, 80plus, ... titanium)".
 * The wording follows the status: ENOTFOUND unknown, EPARSE malformed, EDOM out of range. */
int cli_fail_value(const char *command, const char *option, const char *text,
                   hwfit_status status, const char *expected);

/* Report a failed library call: "hwfit NAME: what: HWFIT_EDOM: value out of domain ...". */
int cli_fail_status(const char *command, const char *what, hwfit_status status);

/* Report an input a library _validate function refused (one line, exit 2), naming the
 * option that sets it: "hwfit memory: --micro-batch must be at least 1". The field is
 * looked up in `aliases` (NULL-terminated pairs: field, then the words to print, e.g.
 * "psu_rating_w", "--psu-watts"; may be NULL), then as an option of `spec` whose name is
 * the field (or its last part after '.') with '_' turned into '-', else printed as is.
 * A problem without a field prints its rule alone. */
int cli_fail_problem(const cli_spec *spec, const char *const *aliases, const hwfit_problem *p);

/* Report a reader error with its position: "hwfit NAME: file:3:14: message". */
int cli_fail_error(const char *command, const hwfit_error *error);

/* Index of text in a NULL-terminated list, or -1. */
int cli_choice_index(const char *const *choices, const char *text);

/* ---- output ------------------------------------------------------------------------- */

typedef struct cli_col {
    const char *key;    /* JSON key */
    const char *header; /* table header */
    int width;          /* table column width */
} cli_col;

typedef struct cli_out {
    FILE *f;
    int json;
    int depth;
    int first[16];      /* per depth: nothing written at this level yet */
    const cli_col *cols;
    int ncols, col;     /* table in progress */
} cli_out;

void out_begin(cli_out *o, int json, const char *title);
void out_end(cli_out *o);
/* A nested object (JSON) or a heading (table). */
void out_section(cli_out *o, const char *key, const char *title);
void out_section_end(cli_out *o);
/* key: JSON key; label: the table's words for it. */
void out_u64(cli_out *o, const char *key, const char *label, uint64_t v);
/* An exact byte count: a JSON integer, or "16.06 GB (14.96 GiB)" in a table. */
void out_bytes(cli_out *o, const char *key, const char *label, uint64_t bytes);
void out_qty(cli_out *o, const char *key, const char *label, double v, hwfit_unit unit);
void out_num(cli_out *o, const char *key, const char *label, double v);
void out_str(cli_out *o, const char *key, const char *label, const char *s);
void out_bool(cli_out *o, const char *key, const char *label, int b);
void out_null(cli_out *o, const char *key, const char *label);
/* A list of rows: JSON array of objects; table with a header line. */
void out_table(cli_out *o, const char *key, const char *title, const cli_col *cols, int ncols);
void out_row(cli_out *o);
void out_cell_u64(cli_out *o, uint64_t v);
void out_cell_num(cli_out *o, double v);
void out_cell_qty(cli_out *o, double v, hwfit_unit unit);
void out_cell_str(cli_out *o, const char *s);
void out_cell_bool(cli_out *o, int b);
/* A missing value: JSON null, "-" in a table. */
void out_cell_null(cli_out *o);
void out_table_end(cli_out *o);

/* A list of objects that may nest (JSON only; a table prints nothing for these): out_list
 * opens an array under key, out_item opens one object in it (then out_str, out_num...,
 * further lists), out_item_end and out_list_end close them. */
void out_list(cli_out *o, const char *key);
void out_item(cli_out *o);
void out_item_end(cli_out *o);
void out_list_end(cli_out *o);

/* Write s as a JSON string literal (quotes and escapes) to f. */
void out_json_string(FILE *f, const char *s);

/* Write text to the file at path (created or truncated). Returns 0, or reports
 * "hwfit COMMAND: --OPTION: cannot write 'path': reason" and returns CLI_EXIT_USAGE. */
int cli_write_file(const char *command, const char *option, const char *path, const char *text);

/* ---- the request layer's subcommands (request.c, help.c) ------------------------------- */

/* Run subcommand c with argv[1..argc) (argv[0] is its name); returns the exit status. */
int cli_run_request(const hwfit_command *c, int argc, char **argv);
void cli_print_help(FILE *f, const hwfit_command *c);
/* docs/cli.md, generated from the option tables. */
void cli_print_markdown(FILE *f);
/* The JSON description of one subcommand (name) or of all (NULL). */
int cli_print_describe(const char *name);

/* ---- subcommands (one file each) ------------------------------------------------------ */

int cmd_assess(int argc, char **argv);
int cmd_host(int argc, char **argv);
int cmd_power(int argc, char **argv);
int cmd_raid(int argc, char **argv);
int cmd_transfer(int argc, char **argv);
int cmd_collective(int argc, char **argv);

#endif /* HWFIT_CLI_H */

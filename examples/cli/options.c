/* options.c - option parsing for the subcommands: units, choices, lists, --help, --json. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_fail(const char *command, const char *fmt, ...) {
    /* One line, whatever the user typed: control characters in arguments (a newline in
     * "--size $'1\n2'") are written as escapes, and very long messages are cut. */
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (n < 0) msg[0] = '\0';
    if (command != NULL) fprintf(stderr, "hwfit %s: ", command);
    else fputs("hwfit: ", stderr);
    for (const unsigned char *p = (const unsigned char *)msg; *p; p++) {
        if (*p < 0x20 || *p == 0x7f) fprintf(stderr, "\\x%02x", *p);
        else fputc(*p, stderr);
    }
    if (n >= (int)sizeof msg) fputs("...", stderr);
    fputc('\n', stderr);
    return CLI_EXIT_USAGE;
}

int cli_fail_status(const char *command, const char *what, hwfit_status status) {
    return cli_fail(command, "%s: %s: %s", what, hwfit_status_name(status),
                    hwfit_status_str(status));
}

/* The option of spec named like `name` with '_' read as '-' (n bytes of it), or NULL. */
static const cli_opt *option_like(const cli_spec *spec, const char *name, size_t n) {
    for (int k = 0; spec != NULL && k < spec->nopts; k++) {
        const char *o = spec->opts[k].name;
        size_t i = 0;
        while (i < n && o[i] != '\0' && (o[i] == name[i] || (o[i] == '-' && name[i] == '_'))) i++;
        if (i == n && o[i] == '\0') return &spec->opts[k];
    }
    return NULL;
}

int cli_fail_problem(const cli_spec *spec, const char *const *aliases, const hwfit_problem *p) {
    const char *field = p->field ? p->field : "";
    const char *rule = p->rule && p->rule[0] ? p->rule : hwfit_status_str(p->status);
    const char *status = hwfit_status_name(p->status);
    if (field[0] == '\0') return cli_fail(spec->name, "%s (%s)", rule, status);
    for (int i = 0; aliases != NULL && aliases[i] != NULL && aliases[i + 1] != NULL; i += 2)
        if (strcmp(aliases[i], field) == 0)
            return cli_fail(spec->name, "%s %s (%s)", aliases[i + 1], rule, status);
    const cli_opt *o = option_like(spec, field, strlen(field));
    const char *dot = strrchr(field, '.');
    if (o == NULL && dot != NULL) o = option_like(spec, dot + 1, strlen(dot + 1));
    if (o != NULL) return cli_fail(spec->name, "--%s %s (%s)", o->name, rule, status);
    return cli_fail(spec->name, "%s %s (%s)", field, rule, status);
}

int cli_fail_value(const char *command, const char *option, const char *text,
                   hwfit_status status, const char *expected) {
    const char *name = hwfit_status_name(status);
    switch (status) {
    case HWFIT_ENOTFOUND:
        return cli_fail(command, "%s: unknown value '%s' (expected %s) (%s)", option, text,
                        expected, name);
    case HWFIT_EPARSE:
        return cli_fail(command, "%s: cannot read '%s' (expected %s) (%s)", option, text,
                        expected, name);
    case HWFIT_EDOM:
        return cli_fail(command, "%s: '%s' is out of range (expected %s) (%s)", option, text,
                        expected, name);
    case HWFIT_ERANGE:
        return cli_fail(command, "%s: '%s' is too large to represent (expected %s) (%s)",
                        option, text, expected, name);
    default:
        return cli_fail(command, "%s: '%s': %s (%s)", option, text, hwfit_status_str(status),
                        name);
    }
}

int cli_fail_error(const char *command, const hwfit_error *error) {
    if (error->line > 0)
        return cli_fail(command, "%u:%u: %s", (unsigned)error->line, (unsigned)error->column,
                        error->message);
    return cli_fail(command, "%s", error->message[0] ? error->message
                                                     : hwfit_status_str(error->status));
}

int cli_choice_index(const char *const *choices, const char *text) {
    for (int i = 0; choices && choices[i]; i++)
        if (strcmp(choices[i], text) == 0) return i;
    return -1;
}

static const char *unit_words(hwfit_unit unit) {
    switch (unit) {
    case HWFIT_UNIT_BYTES: return "a size such as 96GB, 15.36TB or 128GiB";
    case HWFIT_UNIT_BYTES_PER_S: return "a rate such as 14GB/s or 400Gb/s";
    case HWFIT_UNIT_BITS_PER_S: return "a rate such as 400Gb/s or 50GB/s";
    case HWFIT_UNIT_WATTS: return "a power such as 600W or 3.2kW";
    case HWFIT_UNIT_SECONDS: return "a time such as 30s, 5min or 2e6h";
    case HWFIT_UNIT_FLOP_PER_S: return "a rate such as 989TFLOPS";
    case HWFIT_UNIT_FLOP: return "a count such as 6e21 or 5EFLOP";
    case HWFIT_UNIT_NONE: break;
    }
    return "a number";
}

static int parse_u64(const char *s, uint64_t *out, int tokens) {
    if (*s < '0' || *s > '9') return 0;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno == ERANGE) return 0;
    uint64_t mult = 1;
    if (tokens && (*end == 'K' || *end == 'k')) mult = 1024, end++;
    else if (tokens && (*end == 'M' || *end == 'm')) mult = 1048576, end++;
    if (*end != '\0') return 0;
    if (mult > 1 && v > UINT64_MAX / mult) return 0;
    *out = (uint64_t)v * mult;
    return 1;
}

static void print_help(const cli_spec *spec) {
    printf("usage: hwfit %s %s [--json]\n\n%s\n\noptions:\n", spec->name, spec->usage,
           spec->summary);
    for (int i = 0; i < spec->nopts; i++) {
        const cli_opt *o = &spec->opts[i];
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", o->name, o->metavar ? " " : "",
                 o->metavar ? o->metavar : "");
        printf("  %-26s %s", left, o->help);
        if (o->type == CLI_CHOICE) {
            printf(" (");
            for (int k = 0; o->choices[k]; k++) printf("%s%s", k ? ", " : "", o->choices[k]);
            printf(")");
        }
        printf("\n");
    }
    printf("  %-26s %s\n  %-26s %s\n", "--json", "print one JSON object instead of a table",
           "--help", "show this help");
    if (spec->details) printf("\n%s\n", spec->details);
}

static int set_value(const cli_spec *spec, const cli_opt *o, const char *value) {
    switch (o->type) {
    case CLI_FLAG:
        *(int *)o->dest = 1;
        return 0;
    case CLI_U64:
    case CLI_TOKENS:
        if (!parse_u64(value, (uint64_t *)o->dest, o->type == CLI_TOKENS))
            return cli_fail(spec->name, "--%s: expected a whole number%s, got '%s'", o->name,
                            o->type == CLI_TOKENS ? " (K = 1024 allowed)" : "", value);
        return 0;
    case CLI_DOUBLE: {
        double v;
        hwfit_status st = hwfit_units_parse(value, HWFIT_UNIT_NONE, &v);
        if (st != HWFIT_OK)
            return cli_fail(spec->name, "--%s: expected a non-negative number, got '%s'",
                            o->name, value);
        *(double *)o->dest = v;
        return 0;
    }
    case CLI_QUANTITY: {
        double v;
        hwfit_status st = hwfit_units_parse(value, o->unit, &v);
        if (st != HWFIT_OK)
            return cli_fail(spec->name, "--%s: expected %s, got '%s' (%s)", o->name,
                            unit_words(o->unit), value, hwfit_status_str(st));
        *(double *)o->dest = v;
        return 0;
    }
    case CLI_STRING:
        *(const char **)o->dest = value;
        return 0;
    case CLI_CHOICE: {
        int k = cli_choice_index(o->choices, value);
        if (k < 0) {
            char list[256];
            size_t used = 0;
            list[0] = '\0';
            for (int j = 0; o->choices[j] && used < sizeof list; j++) {
                int w = snprintf(list + used, sizeof list - used, "%s%s", j ? ", " : "",
                                 o->choices[j]);
                if (w < 0) break;
                used += (size_t)w;
            }
            return cli_fail(spec->name, "--%s: unknown value '%s' (expected one of: %s)",
                            o->name, value, list);
        }
        *(int *)o->dest = k;
        return 0;
    }
    case CLI_LIST: {
        cli_list *l = (cli_list *)o->dest;
        if (l->count >= CLI_LIST_MAX)
            return cli_fail(spec->name, "--%s: given more than %d times", o->name,
                            CLI_LIST_MAX);
        l->items[l->count++] = value;
        return 0;
    }
    }
    return CLI_EXIT_USAGE;
}

int cli_parse(const cli_spec *spec, int argc, char **argv, cli_args *args) {
    memset(args, 0, sizeof *args);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            print_help(spec);
            return CLI_HELP_SHOWN;
        }
        if (strcmp(a, "--json") == 0) {
            args->json = 1;
            continue;
        }
        if (strncmp(a, "--", 2) != 0 || a[2] == '\0') {
            if (args->npositional >= spec->max_positional)
                return cli_fail(spec->name, "unexpected argument '%s' (see hwfit %s --help)", a,
                                spec->name);
            args->positional[args->npositional++] = a;
            continue;
        }
        const char *name = a + 2;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const cli_opt *o = NULL;
        for (int k = 0; k < spec->nopts; k++)
            if (strlen(spec->opts[k].name) == len && strncmp(spec->opts[k].name, name, len) == 0)
                o = &spec->opts[k];
        if (o == NULL)
            return cli_fail(spec->name, "unknown option '--%.*s' (see hwfit %s --help)",
                            (int)len, name, spec->name);
        const char *value = NULL;
        if (o->type == CLI_FLAG) {
            if (eq) return cli_fail(spec->name, "--%s takes no value", o->name);
        } else if (eq) {
            value = eq + 1;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            return cli_fail(spec->name, "--%s needs a value%s%s", o->name,
                            o->metavar ? ": " : "", o->metavar ? o->metavar : "");
        }
        int rc = set_value(spec, o, value);
        if (rc != 0) return rc;
        if (o->seen) *o->seen = 1;
    }
    return 0;
}

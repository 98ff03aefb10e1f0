/* request.c - every subcommand through the library's request layer (hwfit/request.h):
 * argv becomes options, the library runs the question, the CLI prints what it returns.
 * Face-only switches: --json, --csv, --markdown, --svg FILE, --html FILE, --help. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* "hwfit NAME: --option: message" (or without the option) on stderr; returns 2. */
static int request_failed(const char *command, const hwfit_request *r, hwfit_status st) {
    const char *o = hwfit_request_option_name(r); /* as the user spelled it (--config) */
    const char *msg = hwfit_request_message(r);
    if (msg[0] == '\0') msg = hwfit_status_str(st);
    if (o != NULL) return cli_fail(command, "--%s: %s (%s)", o, msg, hwfit_status_name(st));
    return cli_fail(command, "%s (%s)", msg, hwfit_status_name(st));
}

static int write_file(const char *command, const char *option, const char *path,
                      const char *text, size_t n) {
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return cli_fail(command, "--%s: cannot write '%s': %s", option, path, strerror(errno));
    int ok = fwrite(text, 1, n, f) == n;
    int err = errno;
    if (fclose(f) != 0 && ok) ok = 0, err = errno;
    if (!ok) return cli_fail(command, "--%s: cannot write '%s': %s", option, path, strerror(err));
    return 0;
}

/* Run r in format and write the result to path (a face switch such as --svg FILE). */
static int run_to_file(const char *command, hwfit_request *r, hwfit_format format,
                       const char *option, const char *path) {
    hwfit_status st = hwfit_request_run(r, format, NULL, 0, NULL);
    if (st != HWFIT_OK) return request_failed(command, r, st);
    size_t n;
    const char *text = hwfit_request_output(r, &n);
    return write_file(command, option, path, text, n);
}

static int has_format(const hwfit_command *c, hwfit_format f) {
    return (c->formats >> (unsigned)f) & 1u;
}

int cli_run_request(const hwfit_command *c, int argc, char **argv) {
    const char *name = c->name;
    hwfit_request *r = NULL;
    hwfit_status st = hwfit_request_new(name, &r);
    if (st != HWFIT_OK) return cli_fail(name, "%s", hwfit_status_str(st));
    const hwfit_option *chart_only = NULL; /* an option only the SVG chart uses */
    hwfit_format format = HWFIT_FORMAT_TEXT;
    const char *svg_path = NULL, *html_path = NULL;
    int rc = 0;
    const hwfit_option *positional = NULL;
    /* GPU files first: a --gpu may name a card of a --gpu-file given after it. */
    const hwfit_option *gpu_file = hwfit_option_by_name(c, "gpu-file");
    for (int i = 1; gpu_file != NULL && i < argc && rc == 0; i++) {
        if (strcmp(argv[i], "--gpu-file") == 0 && i + 1 < argc)
            st = hwfit_request_set(r, "gpu-file", argv[++i]);
        else if (strncmp(argv[i], "--gpu-file=", 11) == 0)
            st = hwfit_request_set(r, "gpu-file", argv[i] + 11);
        else
            continue;
        if (st != HWFIT_OK) rc = request_failed(name, r, st);
    }
    for (int i = 1; i < argc && rc == 0; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            cli_print_help(stdout, c);
            hwfit_request_free(r);
            return CLI_EXIT_OK;
        }
        hwfit_format face = HWFIT_FORMAT_TEXT;
        if (strcmp(a, "--json") == 0) face = HWFIT_FORMAT_JSON;
        else if (strcmp(a, "--csv") == 0 && has_format(c, HWFIT_FORMAT_CSV)) face = HWFIT_FORMAT_CSV;
        else if (strcmp(a, "--markdown") == 0 && has_format(c, HWFIT_FORMAT_MARKDOWN))
            face = HWFIT_FORMAT_MARKDOWN;
        if (face != HWFIT_FORMAT_TEXT) {
            /* One printed format: --json, --csv and --markdown exclude each other. */
            if (format != HWFIT_FORMAT_TEXT && format != face) {
                rc = cli_fail(name, "--%s and --%s exclude each other", hwfit_format_name(format),
                              hwfit_format_name(face));
                break;
            }
            format = face;
            continue;
        }
        int is_svg = strncmp(a, "--svg", 5) == 0 && (a[5] == '\0' || a[5] == '=') &&
                     has_format(c, HWFIT_FORMAT_SVG);
        int is_html = strncmp(a, "--html", 6) == 0 && (a[6] == '\0' || a[6] == '=') &&
                      has_format(c, HWFIT_FORMAT_HTML);
        if (is_svg || is_html) {
            const char *eq = strchr(a, '=');
            const char *path = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
            if (path == NULL) {
                rc = cli_fail(name, "--%s needs a value: FILE", is_svg ? "svg" : "html");
                break;
            }
            if (is_svg) svg_path = path;
            else html_path = path;
            continue;
        }
        if (strncmp(a, "--", 2) != 0 || a[2] == '\0') {
            /* A bare argument: the next positional option. */
            positional = hwfit_option_next(c, positional);
            while (positional != NULL && !(positional->flags & HWFIT_OPTION_POSITIONAL))
                positional = hwfit_option_next(c, positional);
            if (positional == NULL) {
                rc = cli_fail(name, "unexpected argument '%s' (see hwfit %s --help)", a, name);
                break;
            }
            st = hwfit_request_set(r, positional->name, a);
            if (st != HWFIT_OK) rc = request_failed(name, r, st);
            continue;
        }
        const char *opt = a + 2;
        const char *eq = strchr(opt, '=');
        char key[128];
        size_t len = eq ? (size_t)(eq - opt) : strlen(opt);
        if (len >= sizeof key) len = sizeof key - 1;
        memcpy(key, opt, len);
        key[len] = '\0';
        const hwfit_option *o = hwfit_option_by_name(c, key);
        /* --no-X for a flag X without a no-X row of its own: X given false, which switches
         * off what a framework profile turns on (not given leaves the profile's choice). */
        int negated = 0;
        if (o == NULL && strncmp(key, "no-", 3) == 0 && strncmp(key + 3, "no-", 3) != 0) {
            const hwfit_option *x = hwfit_option_by_name(c, key + 3);
            if (x != NULL && x->kind == HWFIT_OPTION_FLAG) o = x, negated = 1;
        }
        if (o == NULL || strchr(key, '_') != NULL) {
            st = hwfit_request_set(r, key, "");  /* the library's message and suggestion */
            rc = cli_fail(name, "unknown option '--%s'%s (see hwfit %s --help)", key,
                          strstr(hwfit_request_message(r), "; did you mean") != NULL
                              ? strstr(hwfit_request_message(r), "; did you mean")
                              : "",
                          name);
            break;
        }
        const char *value = NULL;
        if (o->kind == HWFIT_OPTION_FLAG) {
            if (eq) {
                rc = cli_fail(name, "--%s takes no value", key);
                break;
            }
        } else if (eq) {
            value = eq + 1;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            rc = cli_fail(name, "--%s needs a value%s%s", key, o->metavar ? ": " : "",
                          o->metavar ? o->metavar : "");
            break;
        }
        if (o == gpu_file) continue; /* set above */
        /* key: the name or the alias, as typed */
        st = negated ? hwfit_request_set(r, key + 3, "false") : hwfit_request_set(r, key, value);
        if (st != HWFIT_OK) rc = request_failed(name, r, st);
        if (o->flags & HWFIT_OPTION_CHART) chart_only = o;
    }
    if (rc == 0 && chart_only != NULL && svg_path == NULL)
        rc = cli_fail(name, "--%s: applies only to the SVG chart (give --svg FILE)",
                      chart_only->name);
    hwfit_request *out = r;
    if (rc == 0 && svg_path != NULL) rc = run_to_file(name, r, HWFIT_FORMAT_SVG, "svg", svg_path);
    if (rc == 0 && html_path != NULL)
        rc = run_to_file(name, r, HWFIT_FORMAT_HTML, "html", html_path);
    if (rc == 0) {
        st = hwfit_request_run(out, format, NULL, 0, NULL);
        if (st != HWFIT_OK) {
            rc = request_failed(name, out, st);
        } else {
            size_t n;
            const char *text = hwfit_request_output(out, &n);
            fwrite(text, 1, n, stdout);
            fflush(stdout);
            rc = hwfit_request_verdict(out);
        }
    }
    hwfit_request_free(r);
    return rc;
}

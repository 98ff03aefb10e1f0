/* fail.c - the CLI's one way to refuse: "hwfit NAME: message" as one line on stderr. */
#include <stdarg.h>
#include <stdio.h>

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

/*
 * cli.h - the hwfit command: every subcommand is a question of the library's request
 * layer (hwfit/request.h). The CLI turns argv into options, runs the request and prints
 * what it returns; it holds no option table, no default and no formula.
 */
#ifndef HWFIT_CLI_H
#define HWFIT_CLI_H

#include <stdio.h>

#include <hwfit.h>

/* Exit statuses: 0 success; 1 a verdict of the answer (fit: does not fit); 2 bad input
 * (one line on stderr, nothing on stdout). */
#define CLI_EXIT_OK 0
#define CLI_EXIT_USAGE 2

/* Print "hwfit NAME: message" ("hwfit: message" when command is NULL) to stderr as one
 * line, control characters escaped, and return CLI_EXIT_USAGE. */
int cli_fail(const char *command, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Run subcommand c with argv[1..argc) (argv[0] is its name); returns the exit status. */
int cli_run_request(const hwfit_command *c, int argc, char **argv);
/* `hwfit NAME --help`, generated from the option table. */
void cli_print_help(FILE *f, const hwfit_command *c);
/* docs/cli.md, generated from the option tables. */
void cli_print_markdown(FILE *f);
/* The man page hwfit(1) as roff, generated from the option tables (docs.c). */
void cli_print_man(FILE *f);
/* A completion script for shell ("bash"), generated from the option tables; returns the
 * exit status. */
int cli_print_completion(const char *shell);
/* The JSON description of one subcommand (name) or of all (NULL). */
int cli_print_describe(const char *name);

#endif /* HWFIT_CLI_H */

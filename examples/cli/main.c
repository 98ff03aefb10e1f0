/* main.c - the hwfit command: every subcommand is a question of the library's request layer
 * (hwfit/request.h); this file only dispatches. */
#include <string.h>

#include "cli.h"

static void usage(FILE *f) {
    fprintf(f,
            "usage: hwfit <subcommand> [options] [--json]\n"
            "       hwfit --version | --help | --describe [SUBCOMMAND] | --markdown-docs\n"
            "       hwfit --man | --completion bash\n\n"
            "Hardware-fit calculations for GPU servers. Tables by default; --json prints one\n"
            "JSON object. Sizes and rates take units: 96GB, 15.36TB, 128GiB, 400Gb/s, 3200W.\n\n"
            "subcommands:\n");
    for (const hwfit_command *c = hwfit_command_next(NULL); c; c = hwfit_command_next(c))
        fprintf(f, "  %-12s %s\n", c->name, c->summary);
    fprintf(f, "\nRun 'hwfit <subcommand> --help' for its options.\n");
}

int main(int argc, char **argv) {
    if (argc < 2) return cli_fail(NULL, "missing subcommand (run 'hwfit --help')");
    const char *a = argv[1];
    if (strcmp(a, "--version") == 0 || strcmp(a, "-V") == 0 || strcmp(a, "version") == 0) {
        printf("hwfit %s\n", hwfit_version_string());
        return CLI_EXIT_OK;
    }
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 || strcmp(a, "help") == 0) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(a, "--describe") == 0) return cli_print_describe(argc > 2 ? argv[2] : NULL);
    if (strcmp(a, "--markdown-docs") == 0) {
        cli_print_markdown(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(a, "--man") == 0) {
        cli_print_man(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(a, "--completion") == 0) return cli_print_completion(argc > 2 ? argv[2] : NULL);
    const hwfit_command *c = hwfit_command_by_name(a);
    if (c != NULL) return cli_run_request(c, argc - 1, argv + 1);
    return cli_fail(NULL, "unknown subcommand '%s' (run 'hwfit --help')", a);
}

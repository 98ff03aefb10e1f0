/* fuzz_cli.c - libFuzzer target for the CLI option parser (examples/cli/options.c).
 *
 * The bytes, split on NUL, are the arguments after the subcommand's name; they are parsed
 * against a fixed spec with one option of every cli_type (tests/fuzz/CMakeLists.txt links
 * options.c into this target). cli_parse must return 0, CLI_HELP_SHOWN or CLI_EXIT_USAGE;
 * on CLI_EXIT_USAGE exactly one line starting "hwfit fuzz: " is on stderr and nothing on
 * stdout; on 0 nothing is printed; every destination holds what its type promises (a
 * finite non-negative quantity, a choice index in range, at most CLI_LIST_MAX list items,
 * positional arguments within the limit). stdout and stderr go to temporary files that are
 * read back after each call.
 */
#define _POSIX_C_SOURCE 200809L
#include <unistd.h>

#include "../../examples/cli/cli.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 64

static const char *const colours[] = {"red", "green", "blue", NULL};

/* Everything written to f since the last rewind, as a NUL-terminated string. */
static size_t drain(FILE *f, char *buf, size_t cap) {
    fflush(f);
    long end = ftell(f);
    FZ_CHECK(end >= 0);
    rewind(f);
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    rewind(f);
    FZ_CHECK(ftruncate(fileno(f), 0) == 0);
    return (size_t)end;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static FILE *out, *err;
    if (out == NULL) {
        out = tmpfile();
        err = tmpfile();
        if (out == NULL || err == NULL) abort();
    }
    if (size > 4096) return 0;

    /* argv: "fuzz", then the NUL-separated pieces of the input. */
    char *copy = malloc(size + 1);
    if (copy == NULL) return 0;
    if (size) memcpy(copy, data, size);
    copy[size] = '\0';
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = "fuzz";
    for (size_t i = 0; i <= size && argc < MAX_ARGS + 1;) {
        argv[argc++] = copy + i;
        i += strlen(copy + i) + 1;
    }
    if (size == 0) argc = 1;
    argv[argc] = NULL;

    int flag = 0, choice = 1, seen_count = 0;
    uint64_t count = 7, tokens = 9;
    double number = 0.5, bytes = 1.0, watts = 2.0;
    const char *name = "default";
    cli_list list = {{0}, 0};
    const cli_opt opts[] = {
        {"flag", CLI_FLAG, &flag, NULL, "a flag", 0, NULL, NULL},
        {"count", CLI_U64, &count, "N", "a count", 0, NULL, &seen_count},
        {"context", CLI_TOKENS, &tokens, "N", "tokens, K = 1024", 0, NULL, NULL},
        {"ratio", CLI_DOUBLE, &number, "X", "a number", 0, NULL, NULL},
        {"size", CLI_QUANTITY, &bytes, "SIZE", "bytes", HWFIT_UNIT_BYTES, NULL, NULL},
        {"power", CLI_QUANTITY, &watts, "W", "watts", HWFIT_UNIT_WATTS, NULL, NULL},
        {"name", CLI_STRING, &name, "NAME", "a string", 0, NULL, NULL},
        {"colour", CLI_CHOICE, &choice, "C", "a choice", 0, colours, NULL},
        {"item", CLI_LIST, &list, "ITEM", "repeatable", 0, NULL, NULL},
    };
    const cli_spec spec = {"fuzz", "Fuzzing cli_parse.", "[options] [A [B]]", NULL, opts,
                           (int)(sizeof opts / sizeof opts[0]), 2, "A"};
    cli_args args;
    memset(&args, 0x5a, sizeof args);
    /* glibc: stdout and stderr are assignable variables; restored before any check. */
    FILE *saved_out = stdout, *saved_err = stderr;
    stdout = out;
    stderr = err;
    int rc = cli_parse(&spec, argc, argv, &args);
    stdout = saved_out;
    stderr = saved_err;

    static char outbuf[1 << 16], errbuf[1 << 16];
    size_t nout = drain(out, outbuf, sizeof outbuf);
    size_t nerr = drain(err, errbuf, sizeof errbuf);
    FZ_CHECK(rc == 0 || rc == CLI_HELP_SHOWN || rc == CLI_EXIT_USAGE);
    if (rc == CLI_EXIT_USAGE) {
        FZ_CHECK(nout == 0);
        FZ_CHECK(nerr > 0 && nerr < sizeof errbuf);
        FZ_CHECK(strncmp(errbuf, "hwfit fuzz: ", 12) == 0);
        char *nl = strchr(errbuf, '\n');
        FZ_CHECK(nl != NULL && nl[1] == '\0'); /* one line, newline-terminated */
    } else {
        FZ_CHECK(nerr == 0);
        if (rc == CLI_HELP_SHOWN) FZ_CHECK(nout > 0 && strncmp(outbuf, "usage: ", 7) == 0);
        else FZ_CHECK(nout == 0);
    }
    if (rc == 0) {
        FZ_CHECK(flag == 0 || flag == 1);
        FZ_CHECK(args.json == 0 || args.json == 1);
        FZ_CHECK(args.npositional >= 0 && args.npositional <= 2);
        for (int i = 0; i < args.npositional; i++) FZ_CHECK(args.positional[i] != NULL);
        FZ_CHECK(choice >= 0 && choice <= 2);
        FZ_CHECK(hwfit__finite(number) && number >= 0.0);
        FZ_CHECK(hwfit__finite(bytes) && bytes >= 0.0);
        FZ_CHECK(hwfit__finite(watts) && watts >= 0.0);
        FZ_CHECK(name != NULL);
        FZ_CHECK(list.count >= 0 && list.count <= CLI_LIST_MAX);
        FZ_CHECK(seen_count == 0 || seen_count == 1);
        if (!seen_count) FZ_CHECK(count == 7);
    }
    free(copy);
    return 0;
}

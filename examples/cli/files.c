/* files.c - writing what a subcommand produced (an SVG chart, an HTML report) to a file
 * the user named. The library fills the buffer; the CLI only writes it. */
#include <errno.h>
#include <string.h>

#include "cli.h"

int cli_write_file(const char *command, const char *option, const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return cli_fail(command, "--%s: cannot write '%s': %s", option, path, strerror(errno));
    size_t n = strlen(text);
    int ok = fwrite(text, 1, n, f) == n;
    int err = errno;
    if (fclose(f) != 0 && ok) {
        ok = 0;
        err = errno;
    }
    if (!ok) return cli_fail(command, "--%s: cannot write '%s': %s", option, path, strerror(err));
    return 0;
}

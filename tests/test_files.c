/* Files the readers are given: only regular files are read, and a refusal says why
 * (a FIFO used to block the reader forever in fopen; errors said "cannot open file"
 * without a reason). */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hwfit/hf_config.h"
#include "hwfit/node_spec.h"

static void refused(const char *path, const char *words) {
    hwfit_model m;
    hwfit_error err;
    cr_assert_eq(hwfit_hf_config_load(path, &m, &err), HWFIT_EIO, "%s", path);
    cr_assert(strstr(err.message, path) != NULL, "%s", err.message);
    cr_assert(strstr(err.message, words) != NULL, "%s: want '%s'", err.message, words);
    hwfit_node node;
    cr_assert_eq(hwfit_node_load(path, &node, &err), HWFIT_EIO, "%s", path);
    cr_assert(strstr(err.message, words) != NULL, "%s: want '%s'", err.message, words);
}

Test(files, a_fifo_is_refused_without_blocking) {
    char path[] = "/tmp/hwfit-test-fifo-XXXXXX";
    cr_assert_not_null(mkdtemp(path));
    char fifo[64];
    snprintf(fifo, sizeof fifo, "%s/config.json", path);
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    refused(fifo, "is a FIFO");
    unlink(fifo);
    rmdir(path);
}

Test(files, a_directory_and_a_missing_file_say_so) {
    refused("/tmp", "is a directory");
    refused("/nonexistent-hwfit/config.json", "no such file");
}

Test(files, a_device_is_refused) {
    refused("/dev/null", "is a device");
}

/* Status codes: names, messages, pinned values, and the error report. */
#include <criterion/criterion.h>
#include <string.h>

#include "hwfit.h"
#include "base/internal.h"

Test(status, every_code_has_a_distinct_name_and_a_message) {
    for (int s = 0; s < HWFIT_STATUS_COUNT_; s++) {
        const char *name = hwfit_status_name((hwfit_status)s);
        cr_assert(strncmp(name, "HWFIT_", 6) == 0, "status %d has name %s", s, name);
        cr_assert_neq(strcmp(name, "HWFIT_UNKNOWN"), 0, "status %d has no name", s);
        cr_assert_gt(strlen(hwfit_status_str((hwfit_status)s)), 5);
        for (int t = 0; t < s; t++)
            cr_assert_neq(strcmp(name, hwfit_status_name((hwfit_status)t)), 0);
    }
}

Test(status, values_are_pinned) {
    /* Append-only: programs store these numbers, so they must never change. */
    cr_assert_eq(HWFIT_OK, 0);
    cr_assert_eq(HWFIT_EINVAL, 1);
    cr_assert_eq(HWFIT_EDOM, 2);
    cr_assert_eq(HWFIT_ERANGE, 3);
    cr_assert_eq(HWFIT_ENOTFOUND, 4);
    cr_assert_eq(HWFIT_EPARSE, 5);
    cr_assert_eq(HWFIT_ENOMEM, 6);
    cr_assert_eq(HWFIT_EIO, 7);
    cr_assert_eq(HWFIT_EUNSUPPORTED, 8);
    cr_assert_eq(HWFIT_EBUFSIZE, 9);
    cr_assert_eq(HWFIT_ELAYOUT, 10);
}

Test(status, unknown_values_get_a_safe_name) {
    cr_assert_str_eq(hwfit_status_name((hwfit_status)999), "HWFIT_UNKNOWN");
    cr_assert_str_eq(hwfit_status_str((hwfit_status)-1), "unknown status");
    cr_assert_str_eq(hwfit_status_name(HWFIT_EDOM), "HWFIT_EDOM");
}

Test(status, error_set_formats_and_clear_resets) {
    hwfit_error e;
    memset(&e, 0x5a, sizeof e);
    cr_assert_eq(hwfit__error_set(&e, HWFIT_EPARSE, 3, 14, 40, "expected %s", "','"),
                 HWFIT_EPARSE);
    cr_assert_eq(e.status, HWFIT_EPARSE);
    cr_assert_eq(e.line, 3);
    cr_assert_eq(e.column, 14);
    cr_assert_eq(e.offset, 40);
    cr_assert_str_eq(e.message, "expected ','");
    hwfit_error_clear(&e);
    cr_assert_eq(e.status, HWFIT_OK);
    cr_assert_str_eq(e.message, "");
    hwfit_error_clear(NULL); /* ignored, no crash */
    cr_assert_eq(hwfit__error_set(NULL, HWFIT_EIO, 0, 0, 0, "x"), HWFIT_EIO);
}

Test(status, long_messages_are_truncated_not_overflowed) {
    hwfit_error e;
    char big[1000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    hwfit__error_set(&e, HWFIT_EPARSE, 1, 1, 0, "%s", big);
    cr_assert_eq(strlen(e.message), HWFIT_ERROR_MESSAGE_SIZE - 1);
}

Test(status, read_file_reads_and_reports_missing_files) {
    char *data = (char *)0x1;
    size_t len = 7;
    hwfit_error e;
    cr_assert_eq(hwfit__read_file("/nonexistent/hwfit.json", 1024, &data, &len, &e), HWFIT_EIO);
    cr_assert(strstr(e.message, "/nonexistent/hwfit.json") != NULL);
    cr_assert_eq(data, (char *)0x1, "output untouched on error");
    cr_assert_eq(len, 7);
    cr_assert_eq(hwfit__read_file(NULL, 1024, &data, &len, &e), HWFIT_EINVAL);

    const char *path = HWFIT_TEST_DATA "/models/llama-3.1-8b.config.json";
    cr_assert_eq(hwfit__read_file(path, 1 << 20, &data, &len, &e), HWFIT_OK, "%s", e.message);
    cr_assert_gt(len, 100);
    cr_assert_eq(data[len], '\0');
    free(data);
    cr_assert_eq(hwfit__read_file(path, 64, &data, &len, &e), HWFIT_ERANGE);
}

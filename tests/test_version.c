/* Version: the macros and the run-time functions agree. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "hwfit.h"

Test(version, runtime_matches_headers) {
    cr_assert_eq(hwfit_version_number(), (unsigned)HWFIT_VERSION_NUMBER);
    cr_assert_str_eq(hwfit_version_string(), HWFIT_VERSION_STRING);
}

Test(version, string_and_number_say_the_same) {
    char expect[32];
    unsigned n = hwfit_version_number();
    snprintf(expect, sizeof expect, "%u.%u.%u", n / 10000, n / 100 % 100, n % 100);
    cr_assert_str_eq(hwfit_version_string(), expect);
}

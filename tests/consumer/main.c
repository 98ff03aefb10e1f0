/* Prints the version of the installed hwfit it was built and linked against. */
#include <hwfit.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    if (strcmp(hwfit_version_string(), HWFIT_VERSION_STRING) != 0) {
        fprintf(stderr, "header %s but library %s\n", HWFIT_VERSION_STRING,
                hwfit_version_string());
        return 1;
    }
    printf("%s\n", hwfit_version_string());
    return 0;
}

/* version.c - the run-time version, from the macros of include/hwfit/version.h. */
#include "hwfit/version.h"

unsigned hwfit_version_number(void) { return (unsigned)HWFIT_VERSION_NUMBER; }

const char *hwfit_version_string(void) { return HWFIT_VERSION_STRING; }

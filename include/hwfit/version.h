/**
 * @file version.h
 * @brief Version of the hwfit library: compile-time macros and run-time functions.
 *
 * The macros describe the headers a program was compiled against; the functions
 * describe the library it runs with. Compare them to detect a mismatch:
 *
 * @code
 * if (hwfit_version_number() / 100 != HWFIT_VERSION_NUMBER / 100) { ... }
 * @endcode
 *
 * This header is the single source of the version: CMake, pkg-config and the
 * Python package all read it.
 */
#ifndef HWFIT_VERSION_H
#define HWFIT_VERSION_H

#include "hwfit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup version Version
 *  @brief Which hwfit this is. Thread safety: all functions are reentrant.
 *  @{ */

#define HWFIT_VERSION_MAJOR 0 /**< Incompatible API or ABI changes (from 1.0 on: the SONAME). */
#define HWFIT_VERSION_MINOR 2 /**< While 0.x: any change of a public struct's layout; the SONAME is 0.MINOR. */
#define HWFIT_VERSION_PATCH 0 /**< Fixes only: no layout change. */

/** The version as one number: major * 10000 + minor * 100 + patch. */
#define HWFIT_VERSION_NUMBER \
    (HWFIT_VERSION_MAJOR * 10000 + HWFIT_VERSION_MINOR * 100 + HWFIT_VERSION_PATCH)

/** @cond HWFIT_INTERNAL */
#define HWFIT__STR_(x) #x
#define HWFIT__STR(x) HWFIT__STR_(x)
/** @endcond */

/** The version as a string, "major.minor.patch". */
#define HWFIT_VERSION_STRING \
    HWFIT__STR(HWFIT_VERSION_MAJOR) "." HWFIT__STR(HWFIT_VERSION_MINOR) "." HWFIT__STR(HWFIT_VERSION_PATCH)

/**
 * @brief The version of the library at run time, as HWFIT_VERSION_NUMBER.
 * @return major * 10000 + minor * 100 + patch.
 */
HWFIT_API unsigned hwfit_version_number(void);

/**
 * @brief The version of the library at run time, as HWFIT_VERSION_STRING.
 * @return A static string such as "0.1.0"; never NULL, never to be freed.
 */
HWFIT_API const char *hwfit_version_string(void);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_VERSION_H */

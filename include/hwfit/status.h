/**
 * @file status.h
 * @brief Status codes, their names and messages, and the error report of the readers.
 *
 * Every fallible hwfit function returns a ::hwfit_status. ::HWFIT_OK is zero; every other
 * value is an error, and the function has then left its output untouched. The values are
 * pinned and append-only: a code never changes its number, so programs may store them.
 *
 * Readers (JSON, Hugging Face configs, node specs) also fill a caller-provided
 * ::hwfit_error with the line, the column and a message naming what was wrong.
 */
#ifndef HWFIT_STATUS_H
#define HWFIT_STATUS_H

#include <stddef.h>
#include <stdint.h>

/** @cond HWFIT_INTERNAL */
#ifndef HWFIT_API
#  if defined(_WIN32) && defined(HWFIT_SHARED_BUILD)
#    define HWFIT_API __declspec(dllexport)
#  elif defined(_WIN32) && defined(HWFIT_SHARED)
#    define HWFIT_API __declspec(dllimport)
#  elif defined(__GNUC__) && __GNUC__ >= 4
#    define HWFIT_API __attribute__((visibility("default")))
#  else
#    define HWFIT_API
#  endif
#endif
/** @endcond */

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup status Status codes
 *  @brief One table of status codes. Thread safety: all functions are reentrant.
 *  @{ */

/**
 * @brief The status table: X(name, value, message). Append only; never renumber.
 *
 * Define X and expand this macro to generate code over every status, as
 * lib/status.c does for ::hwfit_status_name and ::hwfit_status_str.
 */
#define HWFIT_STATUS_MAP(X)                                                                 \
    X(OK, 0, "success")                                                                     \
    X(EINVAL, 1, "invalid argument: a required pointer is NULL or an option is unknown")    \
    X(EDOM, 2, "value out of domain: NaN, infinite, negative, zero or out of range")        \
    X(ERANGE, 3, "result out of range: too large to represent")                             \
    X(ENOTFOUND, 4, "name not found")                                                       \
    X(EPARSE, 5, "malformed input")                                                         \
    X(ENOMEM, 6, "out of memory")                                                           \
    X(EIO, 7, "cannot read or write the file")                                              \
    X(EUNSUPPORTED, 8, "unsupported: a feature or combination hwfit does not model")        \
    X(EBUFSIZE, 9, "output buffer too small")                                               \
    X(ELAYOUT, 10, "invalid parallel layout")

/**
 * @brief Status of a call. ::HWFIT_OK (0) is success; every other value is an error.
 *
 * The values equal those of ::HWFIT_STATUS_MAP; lib/status.c checks that at compile time.
 */
typedef enum hwfit_status {
    HWFIT_OK = 0,           /**< Success. */
    HWFIT_EINVAL = 1,       /**< A required pointer is NULL, or an option or enum is unknown. */
    HWFIT_EDOM = 2,         /**< A number is NaN, infinite, negative, zero or out of range. */
    HWFIT_ERANGE = 3,       /**< A result is too large to represent. */
    HWFIT_ENOTFOUND = 4,    /**< A name is not in a catalog. */
    HWFIT_EPARSE = 5,       /**< Malformed input text or file. */
    HWFIT_ENOMEM = 6,       /**< A reader could not allocate memory. */
    HWFIT_EIO = 7,          /**< A file could not be read or written. */
    HWFIT_EUNSUPPORTED = 8, /**< A feature or combination hwfit does not model. */
    HWFIT_EBUFSIZE = 9,     /**< An output buffer is too small. */
    HWFIT_ELAYOUT = 10,     /**< A parallel layout is invalid for the model or card count. */
    HWFIT_STATUS_COUNT_     /**< Number of codes; not a status. */
} hwfit_status;

/**
 * @brief The symbolic name of a status, e.g. "HWFIT_EDOM".
 * @param[in] status Any value; unknown values give "HWFIT_UNKNOWN".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_status_name(hwfit_status status);

/**
 * @brief A one-line English description of a status.
 * @param[in] status Any value; unknown values give "unknown status".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_status_str(hwfit_status status);

/** @brief Size of ::hwfit_error::message, including the terminating NUL. */
#define HWFIT_ERROR_MESSAGE_SIZE 256

/**
 * @brief Where and why a reader failed. Caller-allocated; readers fill it.
 *
 * On success a reader sets @c status to ::HWFIT_OK and @c message to "".
 */
typedef struct hwfit_error {
    hwfit_status status; /**< The status the reader returned. */
    uint32_t line;       /**< 1-based line of the problem, or 0 where none applies. */
    uint32_t column;     /**< 1-based column (in bytes) of the problem, or 0. */
    size_t offset;       /**< 0-based byte offset of the problem in the input. */
    char message[HWFIT_ERROR_MESSAGE_SIZE]; /**< NUL-terminated, e.g. "expected ',' or '}'". */
} hwfit_error;

/**
 * @brief Reset an error report to ::HWFIT_OK with an empty message.
 * @param[out] error The report to reset; NULL is ignored.
 */
HWFIT_API void hwfit_error_clear(hwfit_error *error);

/**
 * @brief Which input a calculation refused, and the rule it broke.
 *
 * Every calculation that takes an input struct has a `_validate` companion, e.g.
 * hwfit_psu_validate() for hwfit_psu_evaluate(), which runs the same code on the same
 * inputs, returns exactly the status the calculation returns, and fills this report.
 * Callers that only need the status ignore it; faces (the CLI, Python, the node reader)
 * turn it into a message such as "--micro-batch must be at least 1".
 *
 * The strings are static (never freed, never NULL), so the report can be copied freely.
 */
typedef struct hwfit_problem {
    hwfit_status status; /**< What the calculation returns; ::HWFIT_OK when nothing is wrong. */
    const char *field;   /**< The input at fault, as its C name: a field of the input struct
                              ("micro_batch"), a nested field ("topology.sockets"), a field
                              of another argument ("model.heads"), an element of an array
                              ("components.watts", see @c index), a plain parameter
                              ("context"), or "" when no single input is at fault. */
    const char *rule;    /**< The rule, phrased to follow the field's name:
                              "must be at least 1", "is NaN or infinite",
                              "leaves no PSU to carry the load". "" with ::HWFIT_OK. */
    size_t index;        /**< Element of an array field (0-based); 0 otherwise. */
} hwfit_problem;

/**
 * @brief Reset a problem report to ::HWFIT_OK with empty field and rule.
 * @param[out] problem The report; NULL is ignored.
 */
HWFIT_API void hwfit_problem_clear(hwfit_problem *problem);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_STATUS_H */

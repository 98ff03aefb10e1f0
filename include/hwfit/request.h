/**
 * @file request.h
 * @brief The request layer: every question hwfit answers, asked by name with text options,
 *        answered as JSON (or a table, CSV, SVG, Markdown or HTML).
 *
 * The faces (the `hwfit` command, the Python package, the web page) are thin: they turn
 * their arguments into options, run the request and print or parse what it returns. Each
 * command (`fit`, `memory`, `raid`...) has one table of options here, with the option's
 * kind, unit, default, bounds, choices and one line of help; the faces generate their help,
 * signatures and documentation from it (hwfit_command_describe()). The pattern is libcurl's
 * option introspection (`curl_easy_option_by_name`, `curl_easy_option_next`) and zstd's
 * `ZSTD_CCtx_setParameter` with `ZSTD_cParam_getBounds`.
 *
 * @code
 * hwfit_request *r;
 * if (hwfit_request_new("raid", &r) != HWFIT_OK) return;          // HWFIT_ENOMEM or unknown
 * hwfit_request_set(r, "level", "6");
 * hwfit_request_set(r, "drives", "4");
 * hwfit_request_set(r, "drive-size", "15.36TB");
 * char json[8192];
 * size_t need;
 * if (hwfit_request_run(r, HWFIT_FORMAT_JSON, json, sizeof json, &need) != HWFIT_OK)
 *     fprintf(stderr, "%s\n", hwfit_request_message(r));
 * hwfit_request_free(r);
 * @endcode
 *
 * Memory: hwfit_request_new() allocates the request (its option values, its workspace and
 * its result text); hwfit_request_free() frees all of it. Nothing else allocates. A
 * request is used by one thread at a time; different requests run in parallel. The
 * command and option tables are constant and may be read from any thread.
 *
 * @defgroup request Request layer
 * @{
 */
#ifndef HWFIT_REQUEST_H
#define HWFIT_REQUEST_H

#include <stddef.h>
#include <stdint.h>

#include "hwfit/status.h"
#include "hwfit/units.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief What an option's value is. */
typedef enum hwfit_option_kind {
    HWFIT_OPTION_FLAG = 0,  /**< no value: given or not (a value "1"/"true" or "0"/"false" is also taken) */
    HWFIT_OPTION_COUNT,     /**< a whole number, digits only */
    HWFIT_OPTION_TOKENS,    /**< a whole number with an optional K (x1024) or M (x1048576) */
    HWFIT_OPTION_QUANTITY,  /**< a number with a unit of hwfit_option::unit ("96GB", "3.2kW") */
    HWFIT_OPTION_RATIO,     /**< a plain number: a share, a factor, a probability */
    HWFIT_OPTION_CHOICE,    /**< one of hwfit_option::choices */
    HWFIT_OPTION_NAME,      /**< a name from the catalog hwfit_option::catalog ("gpu", "dtype") */
    HWFIT_OPTION_FILE,      /**< a path to a file the command reads */
    HWFIT_OPTION_TEXT,      /**< free text the command reads (a link spec, a list of names) */
    HWFIT_OPTION_LIST       /**< repeatable: each value is appended (up to HWFIT_OPTION_LIST_MAX) */
} hwfit_option_kind;

/** @brief Most values a HWFIT_OPTION_LIST option takes. */
#define HWFIT_OPTION_LIST_MAX 32

/** @brief hwfit_option::flags: the command refuses to run without this option. */
#define HWFIT_OPTION_REQUIRED 1u
/** @brief hwfit_option::flags: the CLI also takes this option as a bare (positional) argument. */
#define HWFIT_OPTION_POSITIONAL 2u
/** @brief hwfit_option::flags: the option only shapes the chart (::HWFIT_FORMAT_SVG, e.g.
 *  what it draws); the other formats of the same request do not use it. A face that writes
 *  no chart refuses it (the CLI without `--svg FILE`). */
#define HWFIT_OPTION_CHART 4u

/** @brief One option of a command. All strings are static. */
typedef struct hwfit_option {
    const char *name;          /**< "micro-batch": the CLI's --micro-batch, Python's micro_batch */
    hwfit_option_kind kind;    /**< what the value is */
    hwfit_unit unit;           /**< HWFIT_OPTION_QUANTITY: the unit kind; else HWFIT_UNIT_NONE */
    const char *metavar;       /**< the value's placeholder in help ("N", "SIZE"); NULL for flags */
    const char *default_text;  /**< the default as a user would type it, or NULL when there is
                                    none (required, searched, derived: see default_help) */
    const char *default_help;  /**< words for a default that is not a value ("searched"), or NULL */
    double min;                /**< COUNT, TOKENS, QUANTITY, RATIO: smallest value taken */
    double max;                /**< the same: largest value taken */
    const char *const *choices;/**< HWFIT_OPTION_CHOICE: the choices, NULL-terminated; else NULL */
    const char *catalog;       /**< HWFIT_OPTION_NAME: the catalog ("gpu", "dtype"...); else NULL */
    unsigned flags;            /**< HWFIT_OPTION_REQUIRED, HWFIT_OPTION_POSITIONAL,
                                    HWFIT_OPTION_CHART */
    const char *example;       /**< a value that works, for messages and help ("15.36TB"), or NULL */
    const char *help;          /**< one line, without the default */
    const char *alias;         /**< another name the option answers to ("config" for "model"),
                                    or NULL; looked up like the name, listed in help */
} hwfit_option;

/** @brief One command (question) of the request layer. All strings are static. */
typedef struct hwfit_command {
    const char *name;     /**< "fit" */
    const char *summary;  /**< one line: what it answers */
    const char *details;  /**< a paragraph: what it assumes and where to read more; may be "" */
    unsigned formats;     /**< the hwfit_format values it writes, as bits (1u << format) */
} hwfit_command;

/** @brief What hwfit_request_run() writes. */
typedef enum hwfit_format {
    HWFIT_FORMAT_JSON = 0,  /**< one JSON object (every command) */
    HWFIT_FORMAT_TEXT,      /**< the same result as a readable table (every command) */
    HWFIT_FORMAT_CSV,       /**< the result's tables as CSV (commands with tables) */
    HWFIT_FORMAT_SVG,       /**< a chart of the result (commands with a chart) */
    HWFIT_FORMAT_MARKDOWN,  /**< a Markdown document (assess) */
    HWFIT_FORMAT_HTML       /**< a self-contained HTML document (assess) */
} hwfit_format;

/**
 * @brief Name of a format.
 * @param[in] format  a format
 * @return "json", "text", "csv", "svg", "markdown" or "html"; NULL for a value out of the enum.
 */
HWFIT_API const char *hwfit_format_name(hwfit_format format);

/**
 * @brief The commands, in name order: NULL gives the first, a command the next one.
 * @param[in] prev  NULL, or the command before the one wanted
 * @return The next command, or NULL after the last (or for a pointer not from this table).
 */
HWFIT_API const hwfit_command *hwfit_command_next(const hwfit_command *prev);

/**
 * @brief Look a command up by name.
 * @param[in] name  the command's name ("fit"); may be NULL
 * @return The command, or NULL when there is none of that name (or name is NULL).
 */
HWFIT_API const hwfit_command *hwfit_command_by_name(const char *name);

/**
 * @brief The options of a command, in help order: prev NULL gives the first.
 * @param[in] command  the command; may be NULL
 * @param[in] prev     NULL, or the option before the one wanted
 * @return The next option, or NULL after the last, for a NULL command, or for a prev
 *         that is not one of the command's options.
 */
HWFIT_API const hwfit_option *hwfit_option_next(const hwfit_command *command,
                                                const hwfit_option *prev);

/**
 * @brief Look an option of a command up by name.
 * @param[in] command  the command (from hwfit_command_by_name()); may be NULL
 * @param[in] name     the option's name or its hwfit_option::alias, '_' read as '-'
 *                     ("micro_batch"); may be NULL
 * @return The option, or NULL when the command has none of that name (or either is NULL).
 */
HWFIT_API const hwfit_option *hwfit_option_by_name(const hwfit_command *command,
                                                   const char *name);

/**
 * @brief Describe a command's options (or every command's, when command is NULL) as JSON,
 *        for faces that generate help, signatures and documentation.
 *
 * One object `{"name", "summary", "details", "formats": [...], "options": [{"name",
 * "kind", "unit", "metavar", "default", "default_help", "min", "max", "choices",
 * "catalog", "required", "positional", "example", "help", "alias"}]}` ("alias" null when
 * the option has none); for NULL an object
 * `{"version", "commands": [...]}`.
 *
 * @param[in]  command  the command, or NULL for all
 * @param[out] buf      where the NUL-terminated text goes; may be NULL when size is 0
 * @param[in]  size     bytes at buf
 * @param[out] needed   the bytes the text needs with its NUL; may be NULL
 * @retval HWFIT_OK        written
 * @retval HWFIT_EBUFSIZE  size too small (needed says how much; buf holds a cut prefix)
 * @retval HWFIT_EINVAL    buf NULL with a non-zero size
 */
HWFIT_API hwfit_status hwfit_command_describe(const hwfit_command *command, char *buf,
                                              size_t size, size_t *needed);

/** @brief A question being asked: a command and its option values. Opaque. */
typedef struct hwfit_request hwfit_request;

/**
 * @brief Start a request for a command, every option at its default.
 * @param[in]  command  a command's name ("fit")
 * @param[out] out      the request; free it with hwfit_request_free()
 * @retval HWFIT_OK         made
 * @retval HWFIT_ENOTFOUND  no command of that name (*out untouched)
 * @retval HWFIT_ENOMEM     out of memory
 * @retval HWFIT_EINVAL     command or out is NULL
 */
HWFIT_API hwfit_status hwfit_request_new(const char *command, hwfit_request **out);

/**
 * @brief Free a request and everything it holds.
 * @param[in] request  the request; NULL does nothing
 */
HWFIT_API void hwfit_request_free(hwfit_request *request);

/**
 * @brief Put every option of a request back to its default, as hwfit_request_new() made it
 *        (nothing given), to ask another question with the same request: cheaper than
 *        freeing it and making a new one (the Python package keeps one request per command
 *        and thread). The last result and message are cleared; a cache given with
 *        hwfit_request_use_cache() stays.
 * @param[in] request  the request
 * @retval HWFIT_OK      reset
 * @retval HWFIT_ENOMEM  out of memory copying a default (the option is left unset)
 * @retval HWFIT_EINVAL  request is NULL
 */
HWFIT_API hwfit_status hwfit_request_reset(hwfit_request *request);

/**
 * @brief The command a request asks.
 * @param[in] request  the request; may be NULL
 * @return The command, or NULL for a NULL request.
 */
HWFIT_API const hwfit_command *hwfit_request_command(const hwfit_request *request);

/**
 * @brief Set an option from text, as a user typed it.
 *
 * The library parses units and names and checks the bounds: a refusal names the option
 * and its rule in hwfit_request_message(). A list option appends. A flag takes NULL (or
 * "1"/"true"; "0"/"false" clears it).
 *
 * @param[in,out] request  the request
 * @param[in]     name     the option's name or alias ('_' read as '-'); refusals about
 *                         the option name it as spelled here (hwfit_request_option_name())
 * @param[in]     value    its text; NULL only for a flag
 * @retval HWFIT_OK         set
 * @retval HWFIT_ENOTFOUND  no such option (or a value not among the choices)
 * @retval HWFIT_EPARSE     the text is not of the option's kind
 * @retval HWFIT_EDOM       the value is out of the option's bounds
 * @retval HWFIT_ERANGE     the value is too large to represent, or a list is full
 * @retval HWFIT_ENOMEM     out of memory
 * @retval HWFIT_EINVAL     request or name NULL, or value NULL for an option that takes one
 */
HWFIT_API hwfit_status hwfit_request_set(hwfit_request *request, const char *name,
                                         const char *value);

/**
 * @brief Ask a new question with the same request in one call: hwfit_request_reset(), then
 *        hwfit_request_set() for each (name, value) pair in order, stopping at the first
 *        refusal (which hwfit_request_message() and hwfit_request_option_name() describe, as
 *        after hwfit_request_set()). For a face whose calls cost more than the work (Python's
 *        ctypes: one call instead of one per option).
 * @param[in,out] request  the request
 * @param[in]     pairs    2 x count strings: pairs[2k] an option's name or alias, pairs[2k+1]
 *                         its text (NULL only for a flag); may be NULL when count is 0
 * @param[in]     count    how many options
 * @retval HWFIT_OK      reset and every option set
 * @retval HWFIT_EINVAL  request NULL, or pairs NULL with a non-zero count
 * @retval other         the first refusal of hwfit_request_set() (or hwfit_request_reset())
 */
HWFIT_API hwfit_status hwfit_request_set_all(hwfit_request *request, const char *const *pairs,
                                             size_t count);

/**
 * @brief Run the request and write its result.
 *
 * With buf NULL and size 0 the result stays in the request: read it with
 * hwfit_request_output(). Otherwise it is copied to buf when it fits (with its NUL), as
 * snprintf would; when it does not, HWFIT_EBUFSIZE says how much is needed, and a second
 * call with the same options and format copies the kept result without computing again.
 *
 * @param[in,out] request  the request
 * @param[in]     format   what to write (the command's hwfit_command::formats)
 * @param[out]    buf      where the text goes, or NULL with size 0
 * @param[in]     size     bytes at buf
 * @param[out]    needed   the bytes the result needs with its NUL; may be NULL
 * @retval HWFIT_OK            answered
 * @retval HWFIT_EBUFSIZE      buf too small (the result is kept; see above)
 * @retval HWFIT_EUNSUPPORTED  the command does not write this format, or does not model
 *                             the combination asked (message says which)
 * @retval other               the command's refusal (HWFIT_EDOM, HWFIT_ELAYOUT, HWFIT_EIO,
 *                             HWFIT_EPARSE...), with hwfit_request_message() naming the
 *                             option and its rule
 * @retval HWFIT_EINVAL        request NULL, or buf NULL with a non-zero size
 */
HWFIT_API hwfit_status hwfit_request_run(hwfit_request *request, hwfit_format format,
                                         char *buf, size_t size, size_t *needed);

/**
 * @brief Run the request and write its JSON result as a typed record, for a face that
 *        builds the object itself (the Python package) instead of parsing JSON text.
 *
 * The record holds the same values as the JSON object of hwfit_request_run() with
 * ::HWFIT_FORMAT_JSON, in the same order; reading it gives what parsing that JSON gives
 * (Python's json.loads). It is, in native byte order:
 * - a header of three uint64_t: the bytes of the shape, of the numbers and of the strings;
 * - the shape: one line a value, "<code><key>\n" (the key empty for a row or list item):
 *   `{` an object begins, `}` it ends, `[` a list begins, `]` it ends, `Q` a uint64_t,
 *   `q` an int64_t (a number JSON writes without a fraction or exponent), `d` a double,
 *   `?` a bool (one byte, 0 or 1), `s` a string, `n` null; the outer object is implied;
 * - the numbers of the `Q`, `q`, `d` and `?` lines, in order, packed (8, 8, 8 and 1 bytes,
 *   not aligned);
 * - the strings of the `s` lines, in order, each UTF-8 as the JSON holds it (unescaped)
 *   and ended by a NUL.
 * A command that has a value the shape cannot carry refuses with HWFIT_EUNSUPPORTED (none
 * does today; the face then asks for JSON). Buffer rules as hwfit_request_run(); the kept
 * result is a record until the next run in another format.
 *
 * @param[in,out] request  the request
 * @param[out]    buf      where the record goes, or NULL with size 0
 * @param[in]     size     bytes at buf
 * @param[out]    needed   the bytes the record needs (its length plus one); may be NULL
 * @retval HWFIT_OK            answered
 * @retval HWFIT_EBUFSIZE      buf too small (the record is kept; a second call copies it)
 * @retval HWFIT_EUNSUPPORTED  the command writes no JSON, or no record (see above)
 * @retval other               the command's refusal, as hwfit_request_run()
 * @retval HWFIT_EINVAL        request NULL, or buf NULL with a non-zero size
 */
HWFIT_API hwfit_status hwfit_request_run_record(hwfit_request *request, char *buf,
                                                size_t size, size_t *needed);

/**
 * @brief Ask a question and write its record in one call: hwfit_request_set_all(), then,
 *        when every option was set, hwfit_request_run_record(). For a face whose calls cost
 *        more than the work (Python's ctypes: one call a question instead of two).
 * @param[in,out] request  the request
 * @param[in]     pairs    as hwfit_request_set_all()
 * @param[in]     count    as hwfit_request_set_all()
 * @param[out]    buf      as hwfit_request_run_record()
 * @param[in]     size     bytes at buf
 * @param[out]    needed   as hwfit_request_run_record() (untouched when an option is
 *                         refused); may be NULL
 * @retval HWFIT_OK      answered
 * @retval HWFIT_EINVAL  request NULL, pairs NULL with a non-zero count, or buf NULL with a
 *                       non-zero size (nothing set)
 * @retval other         the first refusal of hwfit_request_set_all() (the request is not
 *                       run), else every status of hwfit_request_run_record(); a refusal
 *                       of either is described by hwfit_request_message() and
 *                       hwfit_request_option_name()
 */
HWFIT_API hwfit_status hwfit_request_ask_record(hwfit_request *request,
                                                const char *const *pairs, size_t count,
                                                char *buf, size_t size, size_t *needed);

/**
 * @brief The last result of hwfit_request_run() (or hwfit_request_run_record(): binary,
 *        read its length), valid until the next call that changes the request, or its free.
 * @param[in]  request  the request; may be NULL
 * @param[out] length   its length without the NUL; may be NULL
 * @return The NUL-terminated result, or "" when there is none (or request is NULL).
 */
HWFIT_API const char *hwfit_request_output(const hwfit_request *request, size_t *length);

/**
 * @brief Why the last call on the request failed.
 * @param[in] request  the request; may be NULL
 * @return One line without the option's name (see hwfit_request_option()), or "" after a
 *         success (or for a NULL request). Valid until the next call on the request.
 */
HWFIT_API const char *hwfit_request_message(const hwfit_request *request);

/**
 * @brief The option the last failure names. Faces write it their way (`--micro-batch`,
 *        `micro_batch`) before hwfit_request_message().
 * @param[in] request  the request; may be NULL
 * @return The option, or NULL when the failure names none (or request is NULL).
 */
HWFIT_API const hwfit_option *hwfit_request_option(const hwfit_request *request);

/**
 * @brief The name of the option the last failure names, as the user spelled it: the
 *        option's name, or its hwfit_option::alias when the value was set through the
 *        alias (`--config` stays `--config` in the message).
 * @param[in] request  the request; may be NULL
 * @return The name ('-' between words), or NULL when the failure names no option (or
 *         request is NULL). Static; valid for the life of the program.
 */
HWFIT_API const char *hwfit_request_option_name(const hwfit_request *request);

/**
 * @brief The exit status the CLI gives the last result.
 * @param[in] request  the request; may be NULL
 * @return 0 by default; 1 from `fit` when the workload does not fit; 0 when there is no
 *         result (or request is NULL).
 */
HWFIT_API int hwfit_request_verdict(const hwfit_request *request);

/**
 * @brief A cache of the models requests read from files, for a program that asks many
 *        questions (the Python package keeps one per thread).
 *
 * A request given a cache (hwfit_request_use_cache()) reads a model's config.json only when
 * the cache does not hold that file unchanged: the entry is keyed by the path found
 * (hwfit_model_locate()) and the file's device, inode, size and modification and change
 * times, taken before the read; a file that changed is read again. It also remembers that
 * the directory held no safetensors checkpoint while the directory's times are unchanged
 * (a checkpoint beside the config is read every time). The answers are the same as without
 * a cache (with the default window, 0). It keeps the 8 models used last (about 12 KB). A
 * cache is used by one request at a time (a thread keeps its own, and sets its window
 * itself); it outlives the requests that use it.
 *
 * By default every use checks the file and its directory with a `stat` call each; a
 * revalidation window (hwfit_model_cache_set_window()) trades that check for staleness,
 * as a DNS TTL or nginx's `open_file_cache_valid` do.
 */
typedef struct hwfit_model_cache hwfit_model_cache;

/**
 * @brief Make an empty model cache.
 * @param[out] out  the cache; free it with hwfit_model_cache_free()
 * @retval HWFIT_OK      made
 * @retval HWFIT_ENOMEM  out of memory
 * @retval HWFIT_EINVAL  out is NULL
 */
HWFIT_API hwfit_status hwfit_model_cache_new(hwfit_model_cache **out);

/**
 * @brief Free a model cache (after the requests that use it are freed or given another).
 * @param[in] cache  the cache; NULL does nothing
 */
HWFIT_API void hwfit_model_cache_free(hwfit_model_cache *cache);

/**
 * @brief Check a cached model's file at most once per window of time.
 *
 * With a window of W seconds, a model asked for by the same name (the text given, e.g. a
 * path) whose config.json was found unchanged less than W seconds ago is taken from the
 * cache without looking at the file, and a directory found without a checkpoint less than
 * W seconds ago is not looked at again. After W seconds the next use checks the file and
 * the directory as without a window, and a check that finds them unchanged starts a new
 * window.
 *
 * What it gives up: within the window an edit of the config.json, a file put in its place,
 * a checkpoint added beside it, a change of HWFIT_MODEL_PATH or of the Hugging Face cache
 * that would find the name elsewhere, and (for a relative path) a change of the working
 * directory are not seen: the answer is the one of the model as it was at the last check.
 * What it gains: the two `stat` system calls of each use (about 2.4 us each on a virtual
 * machine, docs/performance.md). A checkpoint that is there is still read at every use.
 *
 * The default, 0, checks at every use (a cache always answers as reading the files would).
 * The time is the system's monotonic clock (CLOCK_MONOTONIC; on Windows, where the cache
 * keeps no model, C11 timespec_get); a clock that went backwards, or that cannot be read,
 * makes the next use check. Setting a window (any value, the same one too) makes the next
 * use of every entry check. The CLI answers one question per process and sets none.
 * @param[in] cache    the cache; NULL gives ::HWFIT_EINVAL
 * @param[in] seconds  the window in seconds, 0 to 86,400 (a day); resolution 1 ns
 * @retval HWFIT_OK      set
 * @retval HWFIT_EINVAL  cache is NULL
 * @retval HWFIT_EDOM    seconds is NaN, infinite, negative or above 86,400 (the window is
 *                       unchanged)
 */
HWFIT_API hwfit_status hwfit_model_cache_set_window(hwfit_model_cache *cache, double seconds);

/**
 * @brief The revalidation window of a cache (hwfit_model_cache_set_window()).
 * @param[in] cache  the cache; may be NULL
 * @return The window in seconds as set, 0 by default (and for NULL).
 */
HWFIT_API double hwfit_model_cache_window(const hwfit_model_cache *cache);

/**
 * @brief Let a request read its model through a cache (see ::hwfit_model_cache).
 * @param[in] request  the request
 * @param[in] cache    the cache, or NULL to read files directly again
 * @retval HWFIT_OK      set
 * @retval HWFIT_EINVAL  request is NULL
 */
HWFIT_API hwfit_status hwfit_request_use_cache(hwfit_request *request, hwfit_model_cache *cache);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_REQUEST_H */

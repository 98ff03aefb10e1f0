/*
 * request_internal.h - how a command of the request layer is written. Never installed.
 *
 * A command is one file lib/request/cmd_<name>.c that defines
 *     const hwfit__command hwfit__cmd_<name>;
 * (CMake finds the files and generates the registry, so adding a command needs no other
 * edit). Its options are one or more static tables of hwfit_option; the command reads the
 * values through the getters below, by the address of the table row, so an option is named
 * once. The request parses every value (units, names, bounds) before run() sees it, and a
 * default_text is parsed at hwfit_request_new as if the user had typed it.
 *
 * run() writes the result through `o` (out.h) in the request's format and returns
 * HWFIT_OK, or fails through hwfit__req_fail* (message naming the option and its rule).
 * Large state goes into the request's workspace (hwfit__command::state_size bytes, zeroed
 * before each run), never on the stack: no public call may need more than 16 KiB of stack.
 */
#ifndef HWFIT_REQUEST_INTERNAL_H
#define HWFIT_REQUEST_INTERNAL_H

#include <stdint.h>

#include "base/checked.h" /* HWFIT__COUNT_OF, HWFIT__TRY, checked arithmetic */
#include "hwfit.h"         /* the request layer is the top of lib/: it may call any module */
#include "hwfit/request.h"
#include "hwfit/status.h"
#include "internal.h"
#include "out.h"

typedef struct hwfit__option_set {
    const hwfit_option *options;
    size_t count;
} hwfit__option_set;

#define HWFIT__MAX_OPTION_SETS 6
#define HWFIT__SET(table) {(table), HWFIT__COUNT_OF(table)}

typedef struct hwfit__command {
    hwfit_command pub;  /* must stay first: the public pointer is to it */
    hwfit__option_set sets[HWFIT__MAX_OPTION_SETS]; /* in help order; unused ones {NULL, 0} */
    size_t state_size;  /* bytes of workspace run() gets, zeroed */
    hwfit_status (*run)(hwfit_request *r, hwfit__out *o, void *state);
} hwfit__command;

/* ---- reading the options (run() only) ------------------------------------------------ */

/* 1 when the user set the option (a default does not count). */
int hwfit__req_given(const hwfit_request *r, const hwfit_option *opt);
/* The value (given, else the parsed default, else 0 / NULL / -1 for a choice). */
uint64_t hwfit__req_u64(const hwfit_request *r, const hwfit_option *opt);
double hwfit__req_double(const hwfit_request *r, const hwfit_option *opt);
int hwfit__req_flag(const hwfit_request *r, const hwfit_option *opt);
int hwfit__req_choice(const hwfit_request *r, const hwfit_option *opt);
const char *hwfit__req_text(const hwfit_request *r, const hwfit_option *opt);
/* A list option's values; returns the count. */
size_t hwfit__req_list(const hwfit_request *r, const hwfit_option *opt,
                       const char *const **items);
/* The request's format (a command with a chart writes SVG through hwfit__req_raw). */
hwfit_format hwfit__req_format(const hwfit_request *r);
/* The result text being written (for SVG, Markdown and HTML bytes a library call makes). */
hwfit__text *hwfit__req_text_out(hwfit_request *r);
/* The exit status a face gives this result (0 by default; fit: 1 when it does not fit). */
void hwfit__req_set_verdict(hwfit_request *r, int verdict);

/* The cards of gpu-file and HWFIT_GPU_PATH, read afresh before each run() (NULL for a
 * command without a GPU or gpu-file option); look names up with
 * hwfit_gpu_lookup(hwfit__req_gpu_set(r), ...). A command may add cards (a node file's
 * inline card, hwfit_node_load_cards): they last until the next run. */
hwfit_gpu_set *hwfit__req_gpu_set(hwfit_request *r);
/* The gpu-file option every command with a GPU option lists (lib/request/gpu_files.c):
 *     .sets = {..., HWFIT__GPU_FILE_OPTIONS} */
extern const hwfit_option hwfit__gpu_file_option_table[1];
#define HWFIT__GPU_FILE_OPTIONS {hwfit__gpu_file_option_table, 1}

/* Load the model the option names (a path, a Hugging Face id or a short name, through
 * hwfit_model_locate, or the config.json text itself when it starts with '{'), failing
 * with the option named. */
hwfit_status hwfit__req_load_model(hwfit_request *r, const hwfit_option *opt, hwfit_model *model);

/* The safetensors files beside the config the option names (a checkpoint directory or a
 * Hugging Face snapshot): their headers into *info (info->files 0 when there are none;
 * layers from model->layers on are extra prediction layers). A malformed file is refused
 * naming the option and the file. */
struct hwfit_safetensors_info;
hwfit_status hwfit__req_load_checkpoint(hwfit_request *r, const hwfit_option *opt,
                                        const hwfit_model *model,
                                        struct hwfit_safetensors_info *info);

/* ---- failing ---------------------------------------------------------------------------- */

/* Record a refusal (opt may be NULL) with a printf-style rule and return status. The
 * message is cut to one line of at most 512 bytes; control characters are escaped. */
hwfit_status hwfit__req_fail(hwfit_request *r, const hwfit_option *opt, hwfit_status status,
                             const char *fmt, ...) HWFIT__PRINTF(4, 5);
/* A library status with what was being done ("estimate: HWFIT_EDOM: value out of ..."). */
hwfit_status hwfit__req_fail_status(hwfit_request *r, const char *what, hwfit_status status);
/* A _validate companion's problem: the field is looked up in aliases (NULL-terminated
 * pairs: field, option name), then as an option named like the field (or its last part
 * after '.') with '_' read as '-'. */
hwfit_status hwfit__req_fail_problem(hwfit_request *r, const char *const *aliases,
                                     const hwfit_problem *problem);
/* A reader's error with its position ("config.json:3:14: message"), naming opt. */
hwfit_status hwfit__req_fail_error(hwfit_request *r, const hwfit_option *opt,
                                   const hwfit_error *error);
/* The number format the option's value names, or a refusal naming it: "unknown number
 * format 'x' (see hwfit dtypes)". _text parses `text` instead (a name the command mapped the
 * value to, such as a GGUF type). */
hwfit_status hwfit__req_dtype(hwfit_request *r, const hwfit_option *opt, hwfit_dtype *out);
hwfit_status hwfit__req_dtype_text(hwfit_request *r, const hwfit_option *opt, const char *text,
                                   hwfit_dtype *out);

#endif /* HWFIT_REQUEST_INTERNAL_H */

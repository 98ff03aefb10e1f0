/* gpu_files.c - the gpu-file option of every command that takes a GPU: cards of one's own
 * from JSON GPU files (include/hwfit/gpu_file.h), looked up after the built-in catalog.
 * request.c reads them, with those of HWFIT_GPU_PATH, before the command runs. */
#include "request_internal.h"

const hwfit_option hwfit__gpu_file_option_table[1] = {
    {.name = "gpu-file", .kind = HWFIT_OPTION_LIST, .metavar = "FILE",
     .default_help = "none; also the files of HWFIT_GPU_PATH", .example = "my-gpus.json",
     .help = "GPU file (JSON, docs/gpu-file.md) of cards to look up after the catalog; "
             "repeatable"},
};

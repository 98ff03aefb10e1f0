/* readers/gpu_file_internal.h - one card from a JSON object, shared by the GPU-file reader and the
 * node reader (a card inline in a node file). Never installed. */
#ifndef HWFIT_READERS_GPU_FILE_INTERNAL_H
#define HWFIT_READERS_GPU_FILE_INTERNAL_H

#include <stddef.h>

#include "hwfit/gpu.h"
#include "hwfit/gpu_set.h"
#include "hwfit/status.h"

#include "readers/json.h"

/* Read the card object obj into *out (strings point into the JSON document) and check it
 * with hwfit_gpu_validate; `where` prefixes messages ("cards.json: gpus[2]"), `file` is the
 * default source text's file name. HWFIT_EPARSE with the key's position on failure. */
hwfit_status hwfit__gpu_card_read(const hwfit__json_value *obj, const char *where,
                                  const char *file, hwfit_gpu *out, char *source_buf,
                                  size_t source_size, hwfit_error *err);

#endif /* HWFIT_READERS_GPU_FILE_INTERNAL_H */

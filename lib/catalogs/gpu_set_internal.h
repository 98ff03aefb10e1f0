/* catalogs/gpu_set_internal.h - what the readers of cards need of a set beyond gpu_set.h:
 * dropping the cards a failed read added, so a read is all or nothing. Serves
 * readers/gpu_file and readers/node_spec. Never installed. */
#ifndef HWFIT_CATALOGS_GPU_SET_INTERNAL_H
#define HWFIT_CATALOGS_GPU_SET_INTERNAL_H

#include <stddef.h>

#include "hwfit/gpu_set.h"

/* Drop the cards of set added after its first `count` (NULL set: nothing). */
void hwfit__gpu_set_truncate(hwfit_gpu_set *set, size_t count);

#endif /* HWFIT_CATALOGS_GPU_SET_INTERNAL_H */

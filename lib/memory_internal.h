/*
 * memory_internal.h - what memory.c shares with shard.c inside lib/. Never installed.
 */
#ifndef HWFIT_MEMORY_INTERNAL_H
#define HWFIT_MEMORY_INTERNAL_H

#include "model_internal.h"

/* hwfit_memory_estimate of a prepared model (hwfit__model_prepare returned prep_status
 * for it): the same checks in the same order, the same results bit for bit, without
 * validating and summing the model again. model and in must not be NULL. */
hwfit_status hwfit__memory_estimate_prepared(const hwfit_model *model,
                                             const hwfit__model_prep *prep,
                                             hwfit_status prep_status, const hwfit_memory_in *in,
                                             hwfit_memory_out *out);

#endif /* HWFIT_MEMORY_INTERNAL_H */

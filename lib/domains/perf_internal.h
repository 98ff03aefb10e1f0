/*
 * domains/perf_internal.h - the throughput entry points with the shard engine in storage
 * the caller keeps (the request layer's command workspace, the assessment's workspace):
 * what a caller with a short stack and a workspace uses. Never installed; not API.
 */
#ifndef HWFIT_PERF_INTERNAL_H
#define HWFIT_PERF_INTERNAL_H

#include "hwfit/perf.h"
#include "hwfit/shard.h"
#include "hwfit/status.h"

#include "domains/shard_iface.h"

/* hwfit_perf_estimate, hwfit_perf_validate and hwfit_perf_plan with the engine in e
 * (shard_internal.h's struct, kept by the caller), or on the call's stack when e is NULL:
 * the same results bit for bit. */
hwfit_status hwfit__perf_estimate_at(hwfit__shard_engine *e, const hwfit_model *model,
                                     const hwfit_perf_in *in, hwfit_perf_out *out);
hwfit_status hwfit__perf_validate_at(hwfit__shard_engine *e, const hwfit_model *model,
                                     const hwfit_perf_in *in, hwfit_problem *problem);
hwfit_status hwfit__perf_plan_at(hwfit__shard_engine *e, const hwfit_model *model,
                                 const hwfit_perf_in *in, const hwfit_shard_space *space,
                                 hwfit_perf_result *results, size_t capacity,
                                 hwfit_shard_search_out *summary);

/* hwfit__perf_estimate_at with out as the caller's scratch: written in place, in part when
 * the estimate fails (no copy of it on the chain: serve's, tests/stack). */
hwfit_status hwfit__perf_estimate_scratch_at(hwfit__shard_engine *e, const hwfit_model *model,
                                             const hwfit_perf_in *in, hwfit_perf_out *out);

/* The lower bound of the training step time that hwfit_perf_plan prunes layouts with, for
 * the layout of in->shard (a training mode; HWFIT_ELAYOUT when the layout is not valid):
 * never above the step_time_s hwfit_perf_estimate gives for it (tests/test_perf_plan.c). */
hwfit_status hwfit__perf_step_bound_at(hwfit__shard_engine *e, const hwfit_model *model,
                                       const hwfit_perf_in *in, double *bound);

#endif /* HWFIT_PERF_INTERNAL_H */

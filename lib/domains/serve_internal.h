/*
 * domains/serve_internal.h - the serving estimate with the shard engine in storage the
 * caller keeps (the request layer's command workspace): what a caller with a short stack
 * and a workspace uses. Never installed; not API.
 */
#ifndef HWFIT_SERVE_INTERNAL_H
#define HWFIT_SERVE_INTERNAL_H

#include "hwfit/model.h"
#include "hwfit/serve.h"
#include "hwfit/status.h"

#include "domains/shard_iface.h"

/* hwfit_serve_estimate with the engine in e (storage of HWFIT__SHARD_ENGINE_BYTES, as
 * hwfit__shard_engine_in gives) and out as the caller's scratch: written in place, in part
 * when the estimate fails. The same results bit for bit. */
hwfit_status hwfit__serve_estimate_at(hwfit__shard_engine *e, const hwfit_model *model,
                                      const hwfit_serve_in *in, hwfit_serve_out *out);
/* hwfit_serve_validate with the engine in e. */
hwfit_status hwfit__serve_validate_at(hwfit__shard_engine *e, const hwfit_model *model,
                                      const hwfit_serve_in *in, hwfit_problem *problem);

#endif /* HWFIT_SERVE_INTERNAL_H */

/*
 * domains/collective_internal.h - the step's collectives through a memo the caller keeps
 * (the layout search's frame: no allocation): layouts that differ in what a collective does
 * not read ask the same tensor-parallel all-reduce or pipeline send again. Never installed;
 * not API.
 */
#ifndef HWFIT_COLLECTIVE_INTERNAL_H
#define HWFIT_COLLECTIVE_INTERNAL_H

#include <stdint.h>

#include "hwfit/collective.h"
#include "hwfit/status.h"

/* Single collectives of hwfit_collective_step by what they read besides the topology and
 * the library: operation, bytes, ranks and ranks per node, with the status and time_s of
 * the estimate. One memo serves one topology and one library (the caller's to keep). */
#define HWFIT__COLL_MEMO 8
typedef struct hwfit__coll_memo_entry {
    hwfit_collective_op op;
    hwfit_status st;
    uint64_t ranks, rpn;
    double bytes, time_s;
} hwfit__coll_memo_entry;
typedef struct hwfit__coll_memo {
    unsigned count, next; /* entries held; the one replaced next (round robin) */
    hwfit__coll_memo_entry e[HWFIT__COLL_MEMO];
} hwfit__coll_memo;

/* hwfit_collective_step with its single collectives through memo (count 0 at the start;
 * every call with the same topology and library): the same status and times, counts and
 * total_s bit for bit (an estimate is a function of its input); the per-collective outs
 * (out->tp, dp, pp, ep) hold time_s only; memo NULL: hwfit_collective_step's answer whole.
 * Unlike the public call, out is written as the step is formed: on failure it holds a part
 * (no second copy on the layout search's deep chain, tests/stack). */
hwfit_status hwfit__collective_step_memo(const hwfit_collective_step_in *in,
                                         hwfit_collective_step_out *out, hwfit__coll_memo *memo);

#endif /* HWFIT_COLLECTIVE_INTERNAL_H */

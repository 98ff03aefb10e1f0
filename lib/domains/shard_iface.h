/*
 * domains/shard_iface.h - the shard engine as the throughput module (perf.c) drives it:
 * resolve a layout, evaluate it or one stage's card, walk a search space, and the few
 * figures of the model the engine keeps. The engine itself is opaque here; its caches are
 * shard.c's business (shard_internal.h). Never installed; not API.
 */
#ifndef HWFIT_SHARD_IFACE_H
#define HWFIT_SHARD_IFACE_H

#include <stddef.h>
#include <stdint.h>

#include "hwfit/memory.h"
#include "hwfit/model.h"
#include "hwfit/shard.h"
#include "hwfit/status.h"

/* The engine of one model: its validation and the caches of the per-card memory calls. */
typedef struct hwfit__shard_engine hwfit__shard_engine;

/* A layout with everything derived from it. */
typedef struct hwfit__shard_resolved {
    int training;
    uint32_t tp, pp, dp, cp, ep, etp, v, zero;
    unsigned offload;
    int sp, uneven;
    hwfit_memory_recompute rc;
    uint64_t mb, m, global; /* micro-batch, micro-batches per replica, global batch */
    uint64_t z;             /* ZeRO group of dense parameters: dp x cp */
    uint64_t ez;            /* ZeRO group of routed experts, the expert-data-parallel group:
                               tp dp cp / (etp ep) (z for dense models) */
    uint64_t ranks;         /* cards per pipeline stage: tp x dp x cp */
    uint64_t context_local; /* context / cp */
    uint64_t batch_local;   /* inference: ceil(batch / dp); training: mb */
} hwfit__shard_resolved;

/* Storage for an engine where its struct is not visible (perf.c): on a caller's stack
 * (a few KB) or in a workspace. shard.c checks that the engine fits. */
#define HWFIT__SHARD_ENGINE_BYTES 5192 /* sizeof(struct hwfit__shard_engine): 5192 on LP64 (the
                                        model with its stored formats) */
typedef union hwfit__shard_engine_storage {
    max_align_t align;
    unsigned char bytes[HWFIT__SHARD_ENGINE_BYTES];
} hwfit__shard_engine_storage;

/* The engine in storage s (no initialisation). */
static inline hwfit__shard_engine *hwfit__shard_engine_in(hwfit__shard_engine_storage *s) {
    return (hwfit__shard_engine *)(void *)s->bytes;
}

/* Validate the model and prepare an engine for it in e (storage of at least
 * HWFIT__SHARD_ENGINE_BYTES, aligned as max_align_t): the engine's refusal of the model
 * (EINVAL, EDOM, ERANGE) or HWFIT_OK. It allocates nothing. */
hwfit_status hwfit__shard_engine_start(hwfit__shard_engine *e, const hwfit_model *model);

/* The parameter counts of the engine's model (hwfit_model_params, prepared once). */
const hwfit_model_param_counts *hwfit__shard_engine_params(const hwfit__shard_engine *e);

/* Dense and MoE layer counts of the engine's model (the kinds of hwfit__shard_resolve). */
const uint32_t *hwfit__shard_engine_kinds(const hwfit__shard_engine *e);
/* MoE layers among decoder layers [first, first + count) of the engine's model. */
uint32_t hwfit__shard_engine_moe_layers(const hwfit__shard_engine *e, uint32_t first,
                                        uint32_t count);
/* What one MoE layer's routed experts store on one card of the layout last evaluated
 * (hwfit__shard_card or hwfit__shard_eval): weight bytes and trainable parameters. */
void hwfit__shard_engine_experts(const hwfit__shard_engine *e, uint64_t *weights,
                                 uint64_t *trainable);

/* Check the layout's inputs (EINVAL/EDOM, reported through why, which may be NULL) and its
 * validity (reason); fill r (may be NULL) when valid. kinds: dense and MoE layer counts of the model. */
hwfit_status hwfit__shard_resolve(const hwfit_model *model, const uint32_t kinds[2],
                                  const hwfit_shard_in *in, const hwfit_layout *layout,
                                  hwfit__shard_resolved *r, hwfit_shard_reason *reason,
                                  hwfit_problem *why);

/* Evaluate a valid resolved layout: fill out (every field) and, when stage_out is not
 * NULL, the card of stage `stage`. */
hwfit_status hwfit__shard_eval(hwfit__shard_engine *e, const hwfit_shard_in *in,
                               const hwfit__shard_resolved *r, hwfit_shard_out *out,
                               uint32_t stage, hwfit_shard_card *stage_out);

/* A layout's pipeline stages grouped by kind: stages with the same decoder layers (dense,
 * MoE, sliding) and tables (embedding on the first, head on the last) hold the same card
 * but for the micro-batches in flight. They depend on pp and v only (and the model), so a
 * search groups them once for the layouts that share pp and v. */
#define HWFIT__SHARD_STAGE_KINDS 8
typedef struct hwfit__shard_stage_kind {
    uint32_t stage;       /* the first stage of the kind */
    uint32_t first_layer; /* that stage's first decoder layer */
    uint32_t layers;      /* decoder layers of each stage of the kind */
    uint32_t count;       /* stages of the kind */
    uint64_t n[2];        /* of which dense and MoE */
    uint64_t sliding;     /* of which sliding-window */
} hwfit__shard_stage_kind;
typedef struct hwfit__shard_stages {
    uint32_t pp, v; /* of the layouts they describe */
    uint32_t kinds; /* in order of their first stage; 0: more than HWFIT__SHARD_STAGE_KINDS */
    hwfit__shard_stage_kind kind[HWFIT__SHARD_STAGE_KINDS];
} hwfit__shard_stages;

/* The stages of a valid resolved layout of the engine's model, grouped by kind. */
void hwfit__shard_stages_of(const hwfit__shard_engine *e, const hwfit__shard_resolved *r,
                            hwfit__shard_stages *stages);
/* hwfit__shard_stages_of stage by stage (every stage's kind computed), which it equals
 * field for field; stages_of takes a few stages only when the layers are all alike. For
 * the tests. */
void hwfit__shard_stages_scan(const hwfit__shard_engine *e, const hwfit__shard_resolved *r,
                              hwfit__shard_stages *stages);

/* What the layout searches need of hwfit__shard_eval's out, for fewer stages (the first of
 * each kind: shard.c says why the others cannot hold the largest card): fits, gpu_fits,
 * host_fits, worst, worst_stage, headroom, usable, host and KV figures, layout, stages and
 * micro-batches equal hwfit__shard_eval's bit for bit; total_bytes is left 0. On an error
 * out is left partly written (the fit writes it in place; every caller drops it). */
hwfit_status hwfit__shard_fit(hwfit__shard_engine *e, const hwfit_shard_in *in,
                              const hwfit__shard_resolved *r, hwfit_shard_out *out);
/* hwfit__shard_fit with the stages of r grouped (hwfit__shard_stages_of for r's pp and v;
 * NULL, or another pp or v, or no kinds: every stage evaluated): the same out bit for bit. */
hwfit_status hwfit__shard_fit_stages(hwfit__shard_engine *e, const hwfit_shard_in *in,
                                     const hwfit__shard_resolved *r,
                                     const hwfit__shard_stages *stages, hwfit_shard_out *out);

/* hwfit__shard_fit_stages for a caller that drops the layouts that do not fit: it returns
 * at the first stage kind whose card's peak, or a lower bound of it (the card's fixed part,
 * stored activations, loss and overhead: its phases are then not evaluated), is above the
 * usable bytes (then the largest card's is too) with out->fits and out->gpu_fits 0, the
 * rest of out partial; otherwise
 * what hwfit__shard_fit_stages gives. fits is hwfit__shard_fit_stages' whenever that gives
 * HWFIT_OK; where it would refuse a layout later on (HWFIT_ERANGE, the only status the
 * cards return), this may say "does not fit" instead: both drop it. */
hwfit_status hwfit__shard_fit_or_miss(hwfit__shard_engine *e, const hwfit_shard_in *in,
                                      const hwfit__shard_resolved *r,
                                      const hwfit__shard_stages *stages, hwfit_shard_out *out);

/* The card of one stage of a valid resolved layout (what hwfit__shard_eval reports for
 * it), without evaluating the other stages. */
hwfit_status hwfit__shard_card(hwfit__shard_engine *e, const hwfit_shard_in *in,
                               const hwfit__shard_resolved *r, uint32_t stage,
                               hwfit_shard_card *c);

/* hwfit_shard_estimate with the engine of its model (no second engine on the stack): the
 * engine's caches must hold for in's workload, i.e. in differs from what the engine last
 * evaluated at most in the fields its caches are keyed by (layout, context, batch). */
hwfit_status hwfit__shard_estimate_engine(hwfit__shard_engine *e, const hwfit_shard_in *in,
                                          hwfit_shard_out *out);

/* hwfit_shard_validate with the engine in e (started here: any earlier state is dropped). */
hwfit_status hwfit__shard_validate_at(hwfit__shard_engine *e, const hwfit_model *model,
                                      const hwfit_shard_in *in, hwfit_problem *problem);

/* hwfit_shard_search and hwfit_shard_min_gpus with the engine in e (started by the call):
 * the same results bit for bit, the engine off the caller's stack (assess's workspace). */
hwfit_status hwfit__shard_search_at(hwfit__shard_engine *e, const hwfit_model *model,
                                    const hwfit_shard_in *in, const hwfit_shard_space *space,
                                    hwfit_shard_result *results, size_t capacity,
                                    hwfit_shard_search_out *summary);
hwfit_status hwfit__shard_min_gpus_at(hwfit__shard_engine *e, const hwfit_model *model,
                                      const hwfit_shard_in *in, const hwfit_shard_space *space,
                                      uint32_t max_gpus, uint32_t *gpus, hwfit_layout *layout);

/* Check the shard inputs that the layout does not cover (capacity, reserve, buffers, host,
 * overhead): HWFIT_EDOM, HWFIT_EINVAL or HWFIT_EUNSUPPORTED (mtp), reported through why
 * (may be NULL). */
hwfit_status hwfit__shard_check_in(const hwfit_shard_in *in, hwfit_problem *why);

/* What hwfit_shard_validate adds after a calculation of engine e failed with `status`
 * without naming the input (a refusal of the per-card memory calls, or a size beyond 64
 * bits): the workload's field as hwfit_memory_validate names it ("memory.weights"), with
 * the engine's prepared model, or field "". */
hwfit_status hwfit__shard_explain(const hwfit__shard_engine *e, const hwfit_shard_in *in,
                                  hwfit_status status, hwfit_problem *problem);

/* The next valid layout of an iterator, with its resolution; 0 at the end. */
int hwfit__shard_iter_next(hwfit_shard_iter *it, hwfit_layout *layout, hwfit__shard_resolved *r);

/* The same valid layouts in the same order, enumerated with the pruned candidates (tp among
 * the divisors of gcd(gpus, heads), pp at most layers + 2: values resolve refuses whatever
 * the other degrees are), so `visited` counts fewer combinations. */
int hwfit__shard_iter_next_pruned(hwfit_shard_iter *it, hwfit_layout *layout,
                                  hwfit__shard_resolved *r);
/* hwfit__shard_iter_next_pruned for a caller that keeps layout and r between the calls (and
 * does not change them) with *chain, 0 before the first: a combination that differs from the
 * last valid one only in the ZeRO stage and the offload (the innermost dimensions) is
 * checked on those alone, layout and r updated in place (hwfit__shard_resolve's other checks
 * read neither). The same layouts, resolutions and `visited` as
 * hwfit__shard_iter_next_pruned. */
int hwfit__shard_iter_next_chained(hwfit_shard_iter *it, hwfit_layout *layout,
                                   hwfit__shard_resolved *r, int *chain);

/* The search result of an evaluated layout, with its score. */
void hwfit__shard_result(const hwfit_shard_out *o, hwfit_shard_result *res);

/* Decoder layers [first, first + count) of pipeline stage `stage`, chunk j. */
void hwfit__shard_chunk(const hwfit__shard_resolved *r, uint32_t layers, uint32_t stage,
                        uint32_t j, uint32_t *first, uint32_t *count);

/* Decoder layers of pipeline stage `stage`, all its chunks: the sum of hwfit__shard_chunk's
 * counts over j < v, in a few steps (tests/test_extremes.c compares them). */
uint32_t hwfit__shard_stage_count(const hwfit__shard_resolved *r, uint32_t layers,
                                  uint32_t stage);

#endif /* HWFIT_SHARD_IFACE_H */

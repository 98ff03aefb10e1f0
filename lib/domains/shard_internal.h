/*
 * shard_internal.h - the evaluation engine of shard.c, shared with perf.c. Never installed.
 *
 * The engine caches, for one model and one set of shard inputs, what memory.c gives for
 * one layer of each kind and for the embedding and head tables (on the rank model of a
 * tensor/expert split) and for one micro-batch's activations, so that a search evaluates
 * a layout with a few additions per pipeline stage instead of calling hwfit_memory_estimate
 * for every card. The caches are keyed by what they depend on; hwfit__shard_engine_reset
 * must be called when anything else in the inputs changes.
 */
#ifndef HWFIT_SHARD_INTERNAL_H
#define HWFIT_SHARD_INTERNAL_H

#include "memory_internal.h"

/* What one unit (one decoder layer of a kind, or the extra of the tables) stores on one
 * card before ZeRO and offload; e_*: of which the routed experts' (memory.h expert_*),
 * which ZeRO partitions over the expert-data-parallel group. */
typedef struct hwfit__shard_unit {
    uint64_t weights, params, trainable, gradients, optimizer;
    uint64_t e_weights, e_trainable, e_gradients, e_optimizer;
} hwfit__shard_unit;

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

typedef struct hwfit__shard_engine {
    const hwfit_model *model;
    hwfit__model_prep prep;   /* the model, validated and prepared once */
    hwfit__memory_memo memo;  /* its layers' weights (memory_internal.h) */
    hwfit__dims dims;
    uint32_t kind_first[2];   /* first dense / MoE layer, or UINT32_MAX */
    uint32_t full_first, sliding_first;
    uint32_t kinds[2];        /* dense and MoE layers */
    uint16_t moe_prefix[HWFIT_MODEL_MAX_LAYERS + 1];
    uint16_t sliding_prefix[HWFIT_MODEL_MAX_LAYERS + 1];
    /* weights of the rank model, keyed by (tp, ep, etp) */
    int w_valid;
    uint32_t w_tp, w_ep, w_etp;
    hwfit_model rank;
    hwfit__model_prep rank_prep; /* the rank model prepared (rank_prep_status) */
    hwfit_status rank_prep_status;
    hwfit__memory_memo rank_memo;
    hwfit__shard_unit layer[2], emb, head, both;
    /* KV cache of the rank model, keyed by (tp, ep, etp, context_local, batch_local) */
    int kv_valid;
    uint32_t kv_tp, kv_ep, kv_etp;
    uint64_t kv_context, kv_batch;
    uint64_t kv_layer[2];     /* one full / sliding layer, all the replica's sequences */
    uint64_t kv_token;        /* one layer, one token of one sequence */
    /* activations of one micro-batch on the full model, keyed as below */
    int a_valid;
    uint32_t a_tp;
    int a_sp;
    hwfit_memory_recompute a_rc;
    uint64_t a_mb, a_context, a_batch;
    uint64_t a_stored[2], a_peak[2], a_emb, a_head, a_loss;
    uint64_t a_full[2]; /* one layer without recomputation (training; memory.c phases) */
} hwfit__shard_engine;

/* Validate the model and prepare an engine for it. */
hwfit_status hwfit__shard_engine_init(hwfit__shard_engine *e, const hwfit_model *model);
/* Forget the cached units (the shard inputs other than the layout changed). */
void hwfit__shard_engine_reset(hwfit__shard_engine *e);

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

/* The card of one stage of a valid resolved layout (what hwfit__shard_eval reports for
 * it), without evaluating the other stages. */
hwfit_status hwfit__shard_card(hwfit__shard_engine *e, const hwfit_shard_in *in,
                               const hwfit__shard_resolved *r, uint32_t stage,
                               hwfit_shard_card *c);

/* Check the shard inputs that the layout does not cover (capacity, reserve, buffers, host,
 * overhead): HWFIT_EDOM, HWFIT_EINVAL or HWFIT_EUNSUPPORTED (mtp), reported through why
 * (may be NULL). */
hwfit_status hwfit__shard_check_in(const hwfit_shard_in *in, hwfit_problem *why);

/* What hwfit_shard_validate adds after a calculation failed with `status` without naming
 * the input (a refusal of the per-card memory calls, or a size beyond 64 bits): the
 * workload's field through hwfit_memory_validate ("memory.weights"), or field "". */
hwfit_status hwfit__shard_explain(const hwfit_model *model, const hwfit_shard_in *in,
                                  hwfit_status status, hwfit_problem *problem);

/* The next valid layout of an iterator, with its resolution; 0 at the end. */
int hwfit__shard_iter_next(hwfit_shard_iter *it, hwfit_layout *layout, hwfit__shard_resolved *r);

/* The search result of an evaluated layout, with its score. */
void hwfit__shard_result(const hwfit_shard_out *o, hwfit_shard_result *res);

/* Decoder layers [first, first + count) of pipeline stage `stage`, chunk j. */
void hwfit__shard_chunk(const hwfit__shard_resolved *r, uint32_t layers, uint32_t stage,
                        uint32_t j, uint32_t *first, uint32_t *count);

#endif /* HWFIT_SHARD_INTERNAL_H */

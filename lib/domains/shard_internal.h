/*
 * domains/shard_internal.h - the evaluation engine's inside, for shard.c (and tests): what
 * it caches. perf.c drives the engine through domains/shard_iface.h only. Never installed.
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

#include "hwfit/memory.h"
#include "hwfit/model.h"
#include "hwfit/status.h"

#include "domains/memory_internal.h"
#include "domains/model_internal.h"
#include "domains/shard_iface.h"

/* What one unit (one decoder layer of a kind, or the extra of the tables) stores on one
 * card before ZeRO and offload; e_*: of which the routed experts' (memory.h expert_*),
 * which ZeRO partitions over the expert-data-parallel group. */
typedef struct hwfit__shard_unit {
    uint64_t weights, params, trainable, gradients, optimizer;
    uint64_t e_weights, e_trainable, e_gradients, e_optimizer;
    /* Of weights and e_weights, the NF4 block scales, counted only with
     * quant_scales_replicated (shard.c, nf4_scales). */
    uint64_t scales, e_scales;
    /* The elements with a gradient (of them, the routed experts'): the trained ones, or with
     * grad_covers_frozen all of a unit's when one is trained (shard.c, unit_of). */
    uint64_t graded, e_graded;
} hwfit__shard_unit;

/* The activation units of one micro-batch on the full model (act_units), with the key they
 * were computed for (tp, ep, sp, recomputation, micro-batch, local context and batch): the
 * engine's entry, and those a batch's workspace keeps (shard.c, act_entry), each copied to
 * the other whole. */
typedef struct hwfit__shard_act {
    uint32_t tp, ep;
    int sp;
    hwfit_memory_recompute rc;
    int valid; /* the values hold for the key */
    uint64_t mb, context, batch;
    uint64_t stored[2], peak[2], emb, head, loss;
    uint64_t full[2]; /* one layer without recomputation (training; memory.c phases) */
} hwfit__shard_act;

/* The evaluation forward of a card (card_eval: hwfit__memory_eval and the allocator's
 * replay), kept for its key: the layout's tp, ep and sequence parallelism, the local
 * context, the card's dense and MoE layers and the capacity (the loss's chunks are sized on
 * it); one per value of the card's head. The other inputs are the engine's (reset). */
typedef struct hwfit__shard_eval_memo {
    int valid, sp;
    uint32_t tp, ep, n[2];
    uint64_t context;
    double capacity;
    uint64_t eval, reserve;
} hwfit__shard_eval_memo;

#define HWFIT__SHARD_LAYER_WORDS ((HWFIT_MODEL_MAX_LAYERS + 63) / 64)

/* The engine is about 4.8 KB (a prepared model, a copy of the model for the rank): it
 * lives on the stack of the call that uses it (the shard and perf entry points), or in a
 * caller's workspace (hwfit_shard_workspace_size, perf_internal.h's _at calls). */
struct hwfit__shard_engine {
    const hwfit_model *model;
    hwfit__model_prep prep;   /* the model, validated and prepared once */
    hwfit__memory_memo memo;  /* its layers' weights (memory_internal.h) */
    hwfit__dims dims;
    uint32_t kind_first[2];   /* first dense / MoE layer, or UINT32_MAX */
    uint32_t full_first, sliding_first;
    uint32_t kinds[2];        /* dense and MoE layers */
    /* Which layers are MoE / sliding, one bit per layer (counted with popcount over
     * 64-bit words: a range of layers costs layers / 64 words). */
    uint64_t moe_bits[HWFIT__SHARD_LAYER_WORDS];
    uint64_t sliding_bits[HWFIT__SHARD_LAYER_WORDS];
    /* weights of the rank model, keyed by (tp, ep, etp) */
    int w_valid;
    uint32_t w_tp, w_ep, w_etp;
    hwfit_model rank;
    hwfit__dims rank_dims;       /* of the rank model prepared (rank_prep_status) in */
    uint32_t rank_sliding;       /* weights_units_fill (in prep, borrowed for that call) */
    hwfit_status rank_prep_status;
    hwfit__memory_memo rank_memo;
    hwfit__shard_unit layer[2], emb, head, both;
    /* the largest field of layer[0], layer[1], emb, head and both: a bound that lets a
     * card's sum of units skip the overflow check of each field (shard.c, unit_sum) */
    uint64_t unit_top;
    /* KV cache of the rank model, keyed by (tp, ep, etp, context_local, batch_local) */
    int kv_valid;
    uint32_t kv_tp, kv_ep, kv_etp;
    uint64_t kv_context, kv_batch;
    uint64_t kv_layer[2];     /* one full / sliding layer, all the replica's sequences */
    uint64_t kv_token;        /* one layer, one token of one sequence */
    /* activations of one micro-batch on the full model, with their key */
    hwfit__shard_act a;
    /* the evaluation forward of a card without and with the head */
    hwfit__shard_eval_memo ev[2];
};

/* Set bits among bits [first, first + count) of a bitmap. */
uint32_t hwfit__shard_bits_count(const uint64_t *bits, uint32_t first, uint32_t count);

/* Validate the model and prepare an engine for it. */
hwfit_status hwfit__shard_engine_init(hwfit__shard_engine *e, const hwfit_model *model);
/* Forget the cached units (the shard inputs other than the layout changed). */
void hwfit__shard_engine_reset(hwfit__shard_engine *e);

/* hwfit_shard_min_gpus without its bounds and pruning: the whole search at every count
 * from the weights' bound up (what it was before issue 21's time work; tests compare the
 * two on many inputs). */
hwfit_status hwfit__shard_min_gpus_scan(const hwfit_model *model, const hwfit_shard_in *in,
                                        const hwfit_shard_space *space, uint32_t max_gpus,
                                        uint32_t *gpus, hwfit_layout *layout);

#endif /* HWFIT_SHARD_INTERNAL_H */

/*
 * domains/model_internal.h - what model.c shares with memory.c, shard.c, perf.c and
 * hf_config.c inside lib/: the tensors of one decoder layer and a prepared model. Never
 * installed. (Checked arithmetic is in base/checked.h, number formats resolved once in
 * catalogs/dtype_internal.h.)
 */
#ifndef HWFIT_MODEL_INTERNAL_H
#define HWFIT_MODEL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "hwfit/model.h"
#include "hwfit/status.h"

/* ---- tensors of a layer ------------------------------------------------------------------ */

/* Which part of the parameter breakdown a tensor belongs to. */
enum {
    HWFIT__PART_ATTENTION = 0,
    HWFIT__PART_MLP = 1,
    HWFIT__PART_EXPERTS = 2,
    HWFIT__PART_SHARED = 3,
    HWFIT__PART_ROUTER = 4,
    HWFIT__PART_NORMS = 5,
    HWFIT__PART_MTP = 6, /* extra prediction layer's own projection and norms */
    HWFIT__PART_COUNT = 7
};

/* What kind of tensor: quantisation formats apply to linear weights only. */
enum {
    HWFIT__TENSOR_LINEAR = 0, /* a weight matrix of a linear layer: quantised, LoRA target */
    HWFIT__TENSOR_VECTOR = 1, /* a bias or a norm weight: kept in the unquantised format */
    HWFIT__TENSOR_SMALL = 2   /* routers and gates: small matrices kept unquantised */
};

/* LoRA target bits; memory.h publishes the same values as HWFIT_LORA_*. */
#define HWFIT__LORA_Q 0x01u
#define HWFIT__LORA_K 0x02u
#define HWFIT__LORA_V 0x04u
#define HWFIT__LORA_O 0x08u
#define HWFIT__LORA_GATE 0x10u
#define HWFIT__LORA_UP 0x20u
#define HWFIT__LORA_DOWN 0x40u

typedef struct hwfit__tensor {
    uint64_t rows;   /* output features (1 for vectors); up to products of two model sizes */
    uint64_t cols;   /* input features (the length of a vector) */
    uint32_t count;  /* identical tensors in the layer: routed experts E (below 2^24,
                        HWFIT_MODEL_MAX_DIM), norms (at most 3 x 2 x 16) or 1-2 */
    uint8_t part;    /* HWFIT__PART_* */
    uint8_t kind;    /* HWFIT__TENSOR_* */
    uint8_t routed;  /* 1: a routed expert's tensor; top-k of count are active per token */
    uint8_t lora;    /* HWFIT__LORA_* bits that select this matrix as a LoRA target */
} hwfit__tensor;

/* Tensors of one layer at most: attention 10 (MLA with q_lora_rank and biases; GQA with
 * biases, q/k norms and attention sinks: 10),
 * MoE MLP 15 (router and its bias, gated experts with biases, gated shared experts with
 * biases and their gate; dense: 6), norms 1, MTP 2: 28. No margin (every prepared model
 * is on the stack, twice in a shard evaluation): a layer kind that adds tensors must raise
 * it; until then layer_tensors refuses (HWFIT_ERANGE) rather than writing past it, and
 * tests/test_model.c's largest layer shows it. */
#define HWFIT__LAYER_TENSORS_MAX 28

/* Resolved head dimensions of a valid model. */
typedef struct hwfit__dims {
    uint64_t qk_head_dim; /* d: per-head query/key width */
    uint64_t v_head_dim;  /* d_v */
    uint64_t kv_values;   /* values cached per token per layer (K + V, or MLA latent) */
} hwfit__dims;

/* Validate a model and resolve its head dimensions. */
hwfit_status hwfit__model_dims(const hwfit_model *m, hwfit__dims *dims);

/* The tensors of one decoder layer of the MoE kind (moe = 1) or dense kind (moe = 0); with
 * mtp = 1 also the extra prediction layer's own norms and projection. The model must be
 * valid (hwfit__model_dims). */
hwfit_status hwfit__model_layer_tensors(const hwfit_model *m, int moe, int mtp,
                                        hwfit__tensor *t, size_t *n);

/* 1 when layer i is a MoE layer of a valid model. */
static inline int hwfit__model_layer_is_moe(const hwfit_model *m, uint32_t i) {
    return (m->layer_flags[i] & HWFIT_MODEL_LAYER_MOE) != 0;
}
/* 1 when layer i is a sliding-window layer of a valid model. */
static inline int hwfit__model_layer_is_sliding(const hwfit_model *m, uint32_t i) {
    return (m->layer_flags[i] & HWFIT_MODEL_LAYER_SLIDING) != 0;
}

/* ---- a prepared model -----------------------------------------------------------------
 *
 * What every footprint of a model needs and only the model decides, computed once:
 * validation, head dimensions, exact parameter counts, layer counts by kind and the tensor
 * lists of one layer of each kind. hwfit_model_params, hwfit_model_kv and
 * hwfit_memory_estimate prepare the model on every call; a batch or a search prepares it
 * once and calls the *_prepared functions, which give the same results bit for bit. */
enum { HWFIT__KIND_DENSE = 0, HWFIT__KIND_MOE = 1, HWFIT__KIND_MTP = 2 };

typedef struct hwfit__model_prep {
    hwfit__dims dims;
    hwfit_model_param_counts params;
    uint32_t sliding_layers; /* moe layers: params.moe_layers */
    hwfit__tensor tensors[3][HWFIT__LAYER_TENSORS_MAX]; /* HWFIT__KIND_*: a layer of the kind
                                                           (MTP: with experts when the model
                                                           has them); only kinds present */
    size_t tensor_count[3];
} hwfit__model_prep;

/* Validate and prepare (EINVAL, EDOM or ERANGE as hwfit_model_params). */
hwfit_status hwfit__model_prepare(const hwfit_model *m, hwfit__model_prep *p);
/* The same, naming the refused field and its rule in *why (may be NULL): the
 * hwfit_model_validate report of the model. */
hwfit_status hwfit__model_prepare_why(const hwfit_model *m, hwfit__model_prep *p,
                                      hwfit_problem *why);
/* The same for a model whose layers (count and flags) are those of a model prepared in
 * `like` (a tensor-parallel rank of it): the layer counts are taken from there. `like` may
 * be p itself (its counts are read before p is written: the shard engine prepares the rank
 * model in its own prep, shard.c weights_units_fill). */
hwfit_status hwfit__model_prepare_like(const hwfit_model *m, const hwfit__model_prep *like,
                                       hwfit__model_prep *p);

/* hwfit_model_kv of a prepared model: prep_status is what hwfit__model_prepare returned
 * (its error is returned first, as hwfit_model_kv validates the model first). */
hwfit_status hwfit__model_kv_prepared(const hwfit_model *model, const hwfit__model_prep *prep,
                                      hwfit_status prep_status, const hwfit_model_kv_in *in,
                                      hwfit_model_kv_out *out);

/* The same from the only parts of a prepared model that the KV cache reads: its head
 * dimensions and sliding-layer count (a caller that keeps these need not keep the prep). */
hwfit_status hwfit__model_kv_dims(const hwfit_model *model, const hwfit__dims *dims,
                                  uint32_t sliding_layers, hwfit_status prep_status,
                                  const hwfit_model_kv_in *in, hwfit_model_kv_out *out);

/* Layers of kind moe (1) or dense (0) among [first, first + count) of a valid model. */
uint32_t hwfit__model_count_moe(const hwfit_model *m, const hwfit__model_prep *p, uint32_t first,
                                uint32_t count);

#endif /* HWFIT_MODEL_INTERNAL_H */

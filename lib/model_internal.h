/*
 * model_internal.h - what dtype.c, model.c, memory.c and hf_config.c share inside lib/:
 * checked 64-bit arithmetic and the list of tensors of one decoder layer. Never installed.
 */
#ifndef HWFIT_MODEL_INTERNAL_H
#define HWFIT_MODEL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* ---- checked arithmetic: HWFIT_ERANGE on overflow, *out untouched then ------------------ */

static inline hwfit_status hwfit__add_u64(uint64_t a, uint64_t b, uint64_t *out) {
    if (a > UINT64_MAX - b) return HWFIT_ERANGE;
    *out = a + b;
    return HWFIT_OK;
}

static inline hwfit_status hwfit__mul_u64(uint64_t a, uint64_t b, uint64_t *out) {
    if (a != 0 && b > UINT64_MAX / a) return HWFIT_ERANGE;
    *out = a * b;
    return HWFIT_OK;
}

/* *acc += a * b */
static inline hwfit_status hwfit__mac_u64(uint64_t *acc, uint64_t a, uint64_t b) {
    uint64_t p;
    if (hwfit__mul_u64(a, b, &p) != HWFIT_OK) return HWFIT_ERANGE;
    return hwfit__add_u64(*acc, p, acc);
}

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
    uint64_t rows;   /* output features (1 for vectors) */
    uint64_t cols;   /* input features (the length of a vector) */
    uint64_t count;  /* identical tensors in the layer (routed experts: E) */
    uint8_t part;    /* HWFIT__PART_* */
    uint8_t kind;    /* HWFIT__TENSOR_* */
    uint8_t routed;  /* 1: a routed expert's tensor; top-k of count are active per token */
    uint8_t lora;    /* HWFIT__LORA_* bits that select this matrix as a LoRA target */
} hwfit__tensor;

#define HWFIT__LAYER_TENSORS_MAX 48

/* Resolved head dimensions of a valid model. */
typedef struct hwfit__dims {
    uint64_t qk_head_dim; /* d: per-head query/key width */
    uint64_t v_head_dim;  /* d_v */
    uint64_t kv_values;   /* values cached per token per layer (K + V, or MLA latent) */
} hwfit__dims;

/* Validate a model and resolve its head dimensions. */
hwfit_status hwfit__model_dims(const hwfit_model *m, hwfit__dims *dims);
/* The same, saying which field is wrong (model non-NULL; why may be NULL). */
hwfit_status hwfit__model_dims_why(const hwfit_model *m, hwfit__dims *dims, hwfit_problem *why);
/* hwfit_model_params saying why (model and out non-NULL; why may be NULL). */
hwfit_status hwfit__model_params_why(const hwfit_model *model, hwfit_model_param_counts *out,
                                     hwfit_problem *why);

/* The tensors of one decoder layer of the MoE kind (moe = 1) or dense kind (moe = 0); with
 * mtp = 1 also the extra prediction layer's own norms and projection. The model must be
 * valid (hwfit__model_dims). */
hwfit_status hwfit__model_layer_tensors(const hwfit_model *m, int moe, int mtp,
                                        hwfit__tensor *t, size_t *n);

/* 1 when layer i is a MoE layer of a valid model. */
int hwfit__model_layer_is_moe(const hwfit_model *m, uint32_t i);
/* 1 when layer i is a sliding-window layer of a valid model. */
int hwfit__model_layer_is_sliding(const hwfit_model *m, uint32_t i);

#endif /* HWFIT_MODEL_INTERNAL_H */

/* model.c - exact parameter counts, KV-cache bytes and FLOPs of decoder transformers.
 *
 * Every count comes from one list of tensors per layer kind (hwfit__model_layer_tensors),
 * whose shapes follow the Hugging Face transformers modeling code of each architecture
 * (modeling_llama.py, modeling_qwen2.py, modeling_qwen2_moe.py, modeling_qwen3.py,
 * modeling_gemma2.py, modeling_gemma3.py, modeling_mixtral.py, modeling_phi3.py,
 * modeling_gpt_oss.py, modeling_llama4.py, modeling_glm4_moe.py) and DeepSeek's
 * modeling_deepseek.py (V2 and V3, MLA and DeepSeekMoE). See docs/formulas.md.
 */
#include <string.h>

#include "hwfit/dtype.h"
#include "hwfit/model.h"
#include "hwfit/status.h"

#include "base/checked.h"
#include "base/internal.h"
#include "domains/model_internal.h"

void hwfit_model_init(hwfit_model *model) {
    if (model == NULL) return;
    memset(model, 0, sizeof *model);
    model->attention = HWFIT_MODEL_ATTENTION_GQA;
    model->mlp = HWFIT_MODEL_MLP_GATED;
    model->norm = HWFIT_MODEL_NORM_RMS;
    model->norms_per_layer = 2;
    /* Not quantized, every weight in bf16 (the default a config without torch_dtype gets). */
    model->stored.checkpoint = hwfit_dtype_make(HWFIT_DTYPE_BF16);
    model->stored.attention = model->stored.checkpoint;
    model->stored.mlp = model->stored.checkpoint;
    model->stored.experts = model->stored.checkpoint;
    model->stored.method = HWFIT_MODEL_QUANT_NONE;
}

hwfit_status hwfit_model_set_moe_layers(hwfit_model *model, uint32_t first_dense, uint32_t step,
                                        uint32_t offset) {
    if (model == NULL) return HWFIT_EINVAL;
    if (model->layers == 0 || model->layers > HWFIT_MODEL_MAX_LAYERS || step == 0 ||
        offset >= step)
        return HWFIT_EDOM;
    for (uint32_t i = 0; i < model->layers; i++) {
        uint8_t f = (uint8_t)(model->layer_flags[i] & ~HWFIT_MODEL_LAYER_MOE);
        if (i >= first_dense && i % step == offset) f = (uint8_t)(f | HWFIT_MODEL_LAYER_MOE);
        model->layer_flags[i] = f;
    }
    return HWFIT_OK;
}

hwfit_status hwfit_model_set_sliding_layers(hwfit_model *model, hwfit_model_sliding rule,
                                            uint32_t param) {
    if (model == NULL || (unsigned)rule > (unsigned)HWFIT_MODEL_SLIDING_FROM) return HWFIT_EINVAL;
    if (model->layers == 0 || model->layers > HWFIT_MODEL_MAX_LAYERS) return HWFIT_EDOM;
    if (rule == HWFIT_MODEL_SLIDING_PERIOD && param == 0) return HWFIT_EDOM;
    for (uint32_t i = 0; i < model->layers; i++) {
        int sliding = 0;
        switch (rule) {
        case HWFIT_MODEL_SLIDING_NONE: sliding = 0; break;
        case HWFIT_MODEL_SLIDING_ALL: sliding = 1; break;
        /* Gemma-2 (modeling_gemma2.py): is_sliding = not bool(layer_idx % 2);
         * Gemma-3 (modeling_gemma3.py): is_sliding = bool((layer_idx + 1) % pattern). */
        case HWFIT_MODEL_SLIDING_PERIOD: sliding = (i + 1) % param != 0; break;
        /* Qwen2 (configuration_qwen2.py): sliding when layer_idx >= max_window_layers. */
        case HWFIT_MODEL_SLIDING_FROM: sliding = i >= param; break;
        }
        uint8_t f = (uint8_t)(model->layer_flags[i] & ~HWFIT_MODEL_LAYER_SLIDING);
        if (sliding) f = (uint8_t)(f | HWFIT_MODEL_LAYER_SLIDING);
        model->layer_flags[i] = f;
    }
    return HWFIT_OK;
}

#define BAD(field, rule) return hwfit__why(why, HWFIT_EDOM, "model." field, (rule))

/* Validate, resolve the head dimensions and count the MoE and sliding layers (or, when
 * `counted`, take *moe_out and *sliding_out as the counts). Every refusal names its field
 * through `why` (NULL from the calculations). */
static hwfit_status dims_and_counts(const hwfit_model *m, hwfit__dims *dims, uint32_t *moe_out,
                                    uint32_t *sliding_out, int counted, hwfit_problem *why) {
    if ((unsigned)m->attention > (unsigned)HWFIT_MODEL_ATTENTION_MLA)
        return hwfit__why(why, HWFIT_EINVAL, "model.attention", HWFIT__ENUM);
    if ((unsigned)m->mlp > (unsigned)HWFIT_MODEL_MLP_PLAIN)
        return hwfit__why(why, HWFIT_EINVAL, "model.mlp", HWFIT__ENUM);
    if ((unsigned)m->norm > (unsigned)HWFIT_MODEL_NORM_LAYER)
        return hwfit__why(why, HWFIT_EINVAL, "model.norm", HWFIT__ENUM);
    if (m->layers == 0 || m->layers > HWFIT_MODEL_MAX_LAYERS)
        BAD("layers", "must be in [1, 1024] (HWFIT_MODEL_MAX_LAYERS)");
    if (m->hidden == 0) BAD("hidden", "must be at least 1");
    if (m->vocab == 0) BAD("vocab", "must be at least 1");
    if (m->heads == 0) BAD("heads", "must be at least 1");
    if (m->norms_per_layer > 16) BAD("norms_per_layer", "must be at most 16");
    if (m->mtp_layers > 64) BAD("mtp_layers", "must be at most 64");
    if (m->fused_modules & ~HWFIT_MODEL_FUSED_ALL)
        BAD("fused_modules", "must be a set of HWFIT_MODEL_FUSED_* bits");
    /* Bounds that keep every single product of two sizes inside 64 bits; products of more
     * are checked where they are formed. */
    const uint64_t sizes[] = {m->hidden, m->vocab, m->intermediate, m->expert_intermediate,
                              m->shared_expert_intermediate, m->sliding_window, m->max_context};
    static const char *const size_names[] = {
        "model.hidden", "model.vocab", "model.intermediate", "model.expert_intermediate",
        "model.shared_expert_intermediate", "model.sliding_window", "model.max_context"};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (sizes[i] > HWFIT_MODEL_MAX_SIZE)
            return hwfit__why(why, HWFIT_EDOM, size_names[i],
                              "must be at most 2^40 (HWFIT_MODEL_MAX_SIZE)");
    const uint32_t dims32[] = {m->heads, m->kv_heads, m->head_dim, m->v_head_dim,
                               m->q_lora_rank, m->kv_lora_rank, m->qk_nope_head_dim,
                               m->qk_rope_head_dim, m->experts, m->experts_per_token,
                               m->shared_experts};
    static const char *const dim_names[] = {
        "model.heads",         "model.kv_heads",         "model.head_dim",
        "model.v_head_dim",    "model.q_lora_rank",      "model.kv_lora_rank",
        "model.qk_nope_head_dim", "model.qk_rope_head_dim", "model.experts",
        "model.experts_per_token", "model.shared_experts"};
    for (size_t i = 0; i < sizeof dims32 / sizeof dims32[0]; i++)
        if (dims32[i] > HWFIT_MODEL_MAX_DIM)
            return hwfit__why(why, HWFIT_EDOM, dim_names[i],
                              "must be at most 2^24 (HWFIT_MODEL_MAX_DIM)");
    hwfit__dims d;
    if (m->attention == HWFIT_MODEL_ATTENTION_GQA) {
        if (m->kv_heads == 0 || m->kv_heads > m->heads || m->heads % m->kv_heads != 0)
            BAD("kv_heads", "must divide heads (1 <= kv_heads <= heads)");
        if (m->head_dim != 0) {
            d.qk_head_dim = m->head_dim;
        } else {
            if (m->hidden % m->heads != 0)
                BAD("head_dim", "must be given when hidden is not a multiple of heads");
            d.qk_head_dim = m->hidden / m->heads;
        }
        d.v_head_dim = m->v_head_dim ? m->v_head_dim : d.qk_head_dim;
        /* K and V of kv_heads heads per token (GQA: Ainslie et al. 2023). */
        d.kv_values = (uint64_t)m->kv_heads * (d.qk_head_dim + d.v_head_dim);
    } else {
        if (m->kv_lora_rank == 0) BAD("kv_lora_rank", "must be at least 1 for MLA");
        if (m->v_head_dim == 0) BAD("v_head_dim", "must be at least 1 for MLA");
        if ((uint64_t)m->qk_nope_head_dim + m->qk_rope_head_dim == 0)
            BAD("qk_nope_head_dim", "and qk_rope_head_dim must not both be 0 for MLA");
        d.qk_head_dim = (uint64_t)m->qk_nope_head_dim + m->qk_rope_head_dim;
        d.v_head_dim = m->v_head_dim;
        /* MLA caches the compressed latent and the decoupled RoPE key: d_c + d_h^R values
         * per token (DeepSeek-V2 paper, section 2.1.4, Table 1). */
        d.kv_values = (uint64_t)m->kv_lora_rank + m->qk_rope_head_dim;
    }
    uint32_t moe = 0, sliding = 0;
    if (counted) {
        moe = *moe_out;
        sliding = *sliding_out;
    } else {
        for (uint32_t i = 0; i < m->layers; i++) {
            moe += (uint32_t)hwfit__model_layer_is_moe(m, i);
            sliding += (uint32_t)hwfit__model_layer_is_sliding(m, i);
        }
    }
    int need_dense = moe < m->layers || (m->mtp_layers > 0 && m->experts == 0);
    if (need_dense && m->intermediate == 0)
        BAD("intermediate", "must be at least 1 when a layer is dense");
    if (moe > 0 && m->experts == 0) BAD("experts", "must be at least 1 when a layer is MoE");
    if (m->experts > 0) {
        if (m->experts_per_token == 0 || m->experts_per_token > m->experts)
            BAD("experts_per_token", "must be in [1, experts]");
        if (m->expert_intermediate == 0)
            BAD("expert_intermediate", "must be at least 1 with experts");
        if (m->shared_experts > 0 && m->shared_expert_intermediate == 0)
            BAD("shared_expert_intermediate", "must be at least 1 with shared experts");
    }
    if (sliding > 0 && m->sliding_window == 0)
        BAD("sliding_window", "must be at least 1 when a layer slides");
    *dims = d;
    *moe_out = moe;
    *sliding_out = sliding;
    return HWFIT_OK;
}

hwfit_status hwfit__model_dims(const hwfit_model *m, hwfit__dims *dims) {
    if (m == NULL || dims == NULL) return HWFIT_EINVAL;
    uint32_t moe, sliding;
    return dims_and_counts(m, dims, &moe, &sliding, 0, NULL);
}

/* ---- the tensors of one layer -------------------------------------------------------------- */

typedef struct tensor_list {
    hwfit__tensor *t;
    size_t n;
    int over; /* a tensor did not fit in HWFIT__LAYER_TENSORS_MAX, or its count in 32 bits */
} tensor_list;

static void push(tensor_list *l, uint64_t rows, uint64_t cols, uint64_t count, int part, int kind,
                 int routed, unsigned lora) {
    if (l->n >= HWFIT__LAYER_TENSORS_MAX || count > UINT32_MAX) {
        l->over = 1;
        return;
    }
    hwfit__tensor *t = &l->t[l->n++];
    t->rows = rows;
    t->cols = cols;
    t->count = (uint32_t)count;
    t->part = (uint8_t)part;
    t->kind = (uint8_t)kind;
    t->routed = (uint8_t)routed;
    t->lora = (uint8_t)lora;
}

/* A linear layer out x in, with an optional bias of `out` values. */
static void linear(tensor_list *l, uint64_t out, uint64_t in, uint64_t count, int part, int routed,
                   unsigned lora, int bias) {
    push(l, out, in, count, part, HWFIT__TENSOR_LINEAR, routed, lora);
    if (bias) push(l, 1, out, count, part, HWFIT__TENSOR_VECTOR, routed, 0);
}

/* A norm of n features: RMSNorm has a weight, LayerNorm a weight and a bias. */
static void norm(tensor_list *l, const hwfit_model *m, uint64_t n, uint64_t count, int part) {
    uint64_t per = m->norm == HWFIT_MODEL_NORM_LAYER ? 2 : 1;
    push(l, 1, n, count * per, part, HWFIT__TENSOR_VECTOR, 0, 0);
}

/* A gated MLP (gate, up, down: LlamaMLP) or a plain one (up, down). */
static void mlp(tensor_list *l, const hwfit_model *m, uint64_t width, uint64_t count, int part,
                int routed) {
    uint64_t h = m->hidden;
    if (m->mlp == HWFIT_MODEL_MLP_GATED)
        linear(l, width, h, count, part, routed, HWFIT__LORA_GATE, m->mlp_bias);
    linear(l, width, h, count, part, routed, HWFIT__LORA_UP, m->mlp_bias);
    linear(l, h, width, count, part, routed, HWFIT__LORA_DOWN, m->mlp_bias);
}

static hwfit_status layer_tensors(const hwfit_model *m, const hwfit__dims *dims, int moe, int mtp,
                                  hwfit__tensor *t, size_t *n);

hwfit_status hwfit__model_layer_tensors(const hwfit_model *m, int moe, int mtp,
                                        hwfit__tensor *t, size_t *n) {
    hwfit__dims d;
    hwfit_status st = hwfit__model_dims(m, &d);
    if (st != HWFIT_OK) return st;
    return layer_tensors(m, &d, moe, mtp, t, n);
}

/* The tensors of one layer of a validated model with head dimensions d. */
static hwfit_status layer_tensors(const hwfit_model *m, const hwfit__dims *dims, int moe, int mtp,
                                  hwfit__tensor *t, size_t *n) {
    const hwfit__dims d = *dims;
    tensor_list l = {t, 0, 0};
    uint64_t h = m->hidden, a = m->heads;
    const int att = HWFIT__PART_ATTENTION;
    if (m->attention == HWFIT_MODEL_ATTENTION_GQA) {
        /* LlamaAttention and kin: q (a*d x h), k and v (k*d x h), o (h x a*d_v). */
        uint64_t k = m->kv_heads;
        linear(&l, a * d.qk_head_dim, h, 1, att, 0, HWFIT__LORA_Q, m->q_bias);
        linear(&l, k * d.qk_head_dim, h, 1, att, 0, HWFIT__LORA_K, m->k_bias);
        linear(&l, k * d.v_head_dim, h, 1, att, 0, HWFIT__LORA_V, m->v_bias);
        linear(&l, h, a * d.v_head_dim, 1, att, 0, HWFIT__LORA_O, m->o_bias);
        /* Qwen3/Gemma-3/GLM-4.5 q_norm and k_norm: RMSNorm(head_dim) each. */
        if (m->qk_norm) push(&l, 1, d.qk_head_dim, 2, att, HWFIT__TENSOR_VECTOR, 0, 0);
        /* gpt-oss GptOssAttention.sinks: nn.Parameter(num_attention_heads). */
        if (m->attention_sinks) push(&l, 1, a, 1, att, HWFIT__TENSOR_VECTOR, 0, 0);
    } else {
        /* DeepseekV2Attention (modeling_deepseek.py): q_a_proj (r_q x h, bias=attention_bias),
         * q_a_layernorm (r_q), q_b_proj (a*(d_nope+d_rope) x r_q, no bias) or q_proj
         * (a*(d_nope+d_rope) x h, no bias); kv_a_proj_with_mqa (r_kv+d_rope x h,
         * bias=attention_bias), kv_a_layernorm (r_kv), kv_b_proj (a*(d_nope+d_v) x r_kv, no
         * bias); o_proj (h x a*d_v, bias=attention_bias). */
        uint64_t rq = m->q_lora_rank, rkv = m->kv_lora_rank;
        uint64_t nope = m->qk_nope_head_dim, rope = m->qk_rope_head_dim, v = m->v_head_dim;
        if (rq > 0) {
            linear(&l, rq, h, 1, att, 0, HWFIT__LORA_Q, m->o_bias);
            push(&l, 1, rq, 1, att, HWFIT__TENSOR_VECTOR, 0, 0); /* RMSNorm: weight only */
            linear(&l, a * (nope + rope), rq, 1, att, 0, HWFIT__LORA_Q, 0);
        } else {
            linear(&l, a * (nope + rope), h, 1, att, 0, HWFIT__LORA_Q, 0);
        }
        linear(&l, rkv + rope, h, 1, att, 0, HWFIT__LORA_K | HWFIT__LORA_V, m->o_bias);
        push(&l, 1, rkv, 1, att, HWFIT__TENSOR_VECTOR, 0, 0);
        linear(&l, a * (nope + v), rkv, 1, att, 0, HWFIT__LORA_K | HWFIT__LORA_V, 0);
        linear(&l, h, a * v, 1, att, 0, HWFIT__LORA_O, m->o_bias);
    }
    if (moe) {
        /* Router: Linear(h, E) (MixtralSparseMoeBlock.gate, Qwen2MoeSparseMoeBlock.gate,
         * DeepSeek MoEGate.weight, Llama4Router, Glm4MoeTopkRouter.weight, GptOssTopKRouter
         * .weight), plus one bias per expert: DeepSeek-V3's and GLM-4.5's
         * e_score_correction_bias (E), gpt-oss's GptOssTopKRouter.bias (E). */
        push(&l, m->experts, h, 1, HWFIT__PART_ROUTER, HWFIT__TENSOR_SMALL, 0, 0);
        if (m->router_bias)
            push(&l, 1, m->experts, 1, HWFIT__PART_ROUTER, HWFIT__TENSOR_VECTOR, 0, 0);
        mlp(&l, m, m->expert_intermediate, m->experts, HWFIT__PART_EXPERTS, 1);
        if (m->shared_experts > 0) {
            /* DeepSeek: one MLP of n_shared * moe_intermediate_size; Qwen2-MoE: one MLP of
             * shared_expert_intermediate_size. Either way one MLP of n * width. */
            uint64_t width;
            if (hwfit__mul_u64(m->shared_experts, m->shared_expert_intermediate, &width) !=
                HWFIT_OK)
                return HWFIT_ERANGE;
            mlp(&l, m, width, 1, HWFIT__PART_SHARED, 0);
            if (m->shared_expert_gate)
                push(&l, 1, h, 1, HWFIT__PART_SHARED, HWFIT__TENSOR_SMALL, 0, 0);
        }
    } else {
        mlp(&l, m, m->intermediate, 1, HWFIT__PART_MLP, 0);
    }
    norm(&l, m, h, m->norms_per_layer, HWFIT__PART_NORMS);
    if (mtp) {
        /* DeepSeek-V3 MTP module (paper section 2.2; inference/model.py layer 61): enorm and
         * hnorm (RMSNorm h), eh_proj (h x 2h), shared_head.norm (RMSNorm h); its embedding
         * and head are the main model's. */
        norm(&l, m, h, 3, HWFIT__PART_MTP);
        linear(&l, h, 2 * h, 1, HWFIT__PART_MTP, 0, 0, 0);
    }
    if (l.over) return HWFIT_ERANGE; /* cannot happen with the kinds above (see the max) */
    *n = l.n;
    return HWFIT_OK;
}

/* ---- parameter sums ------------------------------------------------------------------------- */

/* The parameters of one layer from its tensors. */
static hwfit_status layer_params(const hwfit_model *m, int moe, const hwfit__tensor *t, size_t n,
                                 hwfit_model_layer_params *out) {
    uint64_t part[HWFIT__PART_COUNT] = {0};
    uint64_t expert = 0, total = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t one;
        if (hwfit__mul_u64(t[i].rows, t[i].cols, &one) != HWFIT_OK ||
            hwfit__mac_u64(&part[t[i].part], one, t[i].count) != HWFIT_OK ||
            (t[i].routed && hwfit__add_u64(expert, one, &expert) != HWFIT_OK))
            return HWFIT_ERANGE;
    }
    for (int p = 0; p < HWFIT__PART_COUNT; p++)
        if (hwfit__add_u64(total, part[p], &total) != HWFIT_OK) return HWFIT_ERANGE;
    hwfit_model_layer_params r;
    r.attention = part[HWFIT__PART_ATTENTION];
    r.mlp = part[HWFIT__PART_MLP];
    r.experts = part[HWFIT__PART_EXPERTS];
    r.expert = moe ? expert : 0;
    r.shared_experts = part[HWFIT__PART_SHARED];
    r.router = part[HWFIT__PART_ROUTER];
    r.norms = part[HWFIT__PART_NORMS]; /* an MTP layer's own norms and projection: total only */
    r.total = total;
    /* Active: only top-k of the E routed experts run for a token. */
    r.active = moe ? total - (uint64_t)(m->experts - m->experts_per_token) * expert : total;
    *out = r;
    return HWFIT_OK;
}

#define TOO_MANY_PARAMS "has more parameters than a 64-bit count holds"

static hwfit_status prepare(const hwfit_model *model, const hwfit__model_prep *like,
                            hwfit__model_prep *prep, hwfit_problem *why) {
    if (model == NULL || prep == NULL) return HWFIT_EINVAL;
    hwfit__dims d;
    uint32_t moe_layers = like ? like->params.moe_layers : 0;
    uint32_t sliding_layers = like ? like->sliding_layers : 0;
    hwfit_status st =
        dims_and_counts(model, &d, &moe_layers, &sliding_layers, like != NULL, why);
    if (st != HWFIT_OK) return st;
    prep->dims = d;
    prep->sliding_layers = sliding_layers;
    prep->tensor_count[0] = prep->tensor_count[1] = prep->tensor_count[2] = 0;
    hwfit_model_param_counts p;
    memset(&p, 0, sizeof p);
    p.moe_layers = moe_layers;
    p.dense_layers = model->layers - p.moe_layers;
    /* With valid dimensions (above) only a count can fail: ERANGE. */
    for (int k = HWFIT__KIND_DENSE; k <= HWFIT__KIND_MOE; k++) {
        if ((k == HWFIT__KIND_MOE ? p.moe_layers : p.dense_layers) == 0) continue;
        hwfit__tensor *t = prep->tensors[k];
        if ((st = layer_tensors(model, &d, k, 0, t, &prep->tensor_count[k])) != HWFIT_OK ||
            (st = layer_params(model, k, t, prep->tensor_count[k], k ? &p.moe : &p.dense)) !=
                HWFIT_OK)
            return hwfit__why(why, st, "model", TOO_MANY_PARAMS);
    }
    if (hwfit__mul_u64(model->vocab, model->hidden, &p.embedding) != HWFIT_OK)
        return hwfit__why(why, HWFIT_ERANGE, "model", TOO_MANY_PARAMS);
    p.head = model->tie_embeddings ? 0 : p.embedding;
    p.final_norm = model->hidden * (model->norm == HWFIT_MODEL_NORM_LAYER ? 2u : 1u);
    const hwfit_model_layer_params *k[2] = {&p.dense, &p.moe};
    const uint64_t c[2] = {p.dense_layers, p.moe_layers};
    p.norms = p.final_norm;
    uint64_t active_layers = 0;
    for (int i = 0; i < 2; i++) {
        if (hwfit__mac_u64(&p.attention, k[i]->attention, c[i]) != HWFIT_OK ||
            hwfit__mac_u64(&p.mlp, k[i]->mlp, c[i]) != HWFIT_OK ||
            hwfit__mac_u64(&p.experts, k[i]->experts, c[i]) != HWFIT_OK ||
            hwfit__mac_u64(&p.shared_experts, k[i]->shared_experts, c[i]) != HWFIT_OK ||
            hwfit__mac_u64(&p.router, k[i]->router, c[i]) != HWFIT_OK ||
            hwfit__mac_u64(&p.norms, k[i]->norms, c[i]) != HWFIT_OK ||
            hwfit__mac_u64(&active_layers, k[i]->active, c[i]) != HWFIT_OK)
            return hwfit__why(why, HWFIT_ERANGE, "model", TOO_MANY_PARAMS);
    }
    uint64_t parts[] = {p.embedding, p.head,           p.attention, p.mlp,
                        p.experts,   p.shared_experts, p.router,    p.norms};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (hwfit__add_u64(p.total, parts[i], &p.total) != HWFIT_OK)
            return hwfit__why(why, HWFIT_ERANGE, "model", TOO_MANY_PARAMS);
    uint64_t fixed = p.embedding + p.head + p.final_norm; /* all <= total: no overflow */
    p.active = fixed + active_layers;
    p.mtp_layers = model->mtp_layers;
    if (model->mtp_layers > 0) {
        hwfit_model_layer_params mtp;
        hwfit__tensor *t = prep->tensors[HWFIT__KIND_MTP];
        int moe = model->experts > 0;
        if ((st = layer_tensors(model, &d, moe, 1, t, &prep->tensor_count[HWFIT__KIND_MTP])) !=
                HWFIT_OK ||
            (st = layer_params(model, moe, t, prep->tensor_count[HWFIT__KIND_MTP], &mtp)) !=
                HWFIT_OK)
            return hwfit__why(why, st, "model", TOO_MANY_PARAMS);
        p.mtp_layer = mtp.total;
        if (hwfit__mul_u64(p.mtp_layer, model->mtp_layers, &p.mtp) != HWFIT_OK)
            return hwfit__why(why, HWFIT_ERANGE, "model", TOO_MANY_PARAMS);
    }
    prep->params = p;
    return HWFIT_OK;
}

hwfit_status hwfit__model_prepare(const hwfit_model *model, hwfit__model_prep *prep) {
    return prepare(model, NULL, prep, NULL);
}

hwfit_status hwfit__model_prepare_why(const hwfit_model *model, hwfit__model_prep *prep,
                                      hwfit_problem *why) {
    return prepare(model, NULL, prep, why);
}

hwfit_status hwfit__model_prepare_like(const hwfit_model *model, const hwfit__model_prep *like,
                                       hwfit__model_prep *prep) {
    return prepare(model, like, prep, NULL);
}

hwfit_status hwfit_model_params(const hwfit_model *model, hwfit_model_param_counts *out) {
    if (model == NULL || out == NULL) return HWFIT_EINVAL;
    hwfit__model_prep prep;
    hwfit_status st = hwfit__model_prepare(model, &prep);
    if (st != HWFIT_OK) return st;
    *out = prep.params;
    return HWFIT_OK;
}

uint32_t hwfit__model_count_moe(const hwfit_model *m, const hwfit__model_prep *p, uint32_t first,
                                uint32_t count) {
    if (first == 0 && count == m->layers) return p->params.moe_layers;
    uint32_t c = 0;
    for (uint32_t i = first; i < first + count; i++) c += (uint32_t)hwfit__model_layer_is_moe(m, i);
    return c;
}

hwfit_status hwfit_model_check(const hwfit_model *model) {
    hwfit_model_param_counts p;
    return hwfit_model_params(model, &p);
}

hwfit_status hwfit_model_validate(const hwfit_model *model, hwfit_problem *problem) {
    hwfit_problem_clear(problem);
    if (model == NULL) return hwfit__why(problem, HWFIT_EINVAL, "model", HWFIT__NULL);
    hwfit__model_prep prep;
    return hwfit__model_prepare_why(model, &prep, problem);
}

hwfit_status hwfit_model_layer_range(const hwfit_model *model, uint32_t first, uint32_t count,
                                     hwfit_model_range *out) {
    if (model == NULL || out == NULL) return HWFIT_EINVAL;
    hwfit_model_param_counts p;
    hwfit_status st = hwfit_model_params(model, &p);
    if (st != HWFIT_OK) return st;
    if (count == 0 || first >= model->layers || count > model->layers - first) return HWFIT_EDOM;
    hwfit_model_range r;
    memset(&r, 0, sizeof r);
    r.layers = count;
    for (uint32_t i = first; i < first + count; i++) {
        int moe = hwfit__model_layer_is_moe(model, i);
        r.moe_layers += (uint32_t)moe;
        r.sliding_layers += (uint32_t)hwfit__model_layer_is_sliding(model, i);
        const hwfit_model_layer_params *k = moe ? &p.moe : &p.dense;
        /* Sums of at most `layers` layers, each <= total: cannot overflow. */
        r.params += k->total;
        r.active += k->active;
    }
    r.dense_layers = count - r.moe_layers;
    r.full_layers = count - r.sliding_layers;
    *out = r;
    return HWFIT_OK;
}

/* ---- KV cache -------------------------------------------------------------------------------- */

void hwfit_model_kv_init(hwfit_model_kv_in *in) {
    if (in == NULL) return;
    memset(in, 0, sizeof *in);
    in->dtype = hwfit_dtype_make(HWFIT_DTYPE_BF16);
    in->batch = 1;
    in->context = 4096;
}

/* hwfit_model_kv of a prepared model, reporting through `why` (NULL from the calculations). */
static hwfit_status kv_of(const hwfit_model *model, const hwfit__dims *dims,
                          uint32_t sliding_layers, hwfit_status prep_status,
                          const hwfit_model_kv_in *in, hwfit_model_kv_out *out,
                          hwfit_problem *why) {
    hwfit_status st = prep_status;
    if (st != HWFIT_OK) return st;
    const hwfit__dims d = *dims;
    if (in->batch == 0) return hwfit__why(why, HWFIT_EDOM, "batch", "must be at least 1");
    if (in->context == 0) return hwfit__why(why, HWFIT_EDOM, "context", "must be at least 1");
    if (in->first_layer >= model->layers)
        return hwfit__why(why, HWFIT_EDOM, "first_layer", "must be below model.layers");
    if (in->layer_count > model->layers - in->first_layer)
        return hwfit__why(why, HWFIT_EDOM, "layer_count",
                          "must be at most model.layers - first_layer (0 = to the last)");
    uint32_t count = in->layer_count ? in->layer_count : model->layers - in->first_layer;
    hwfit_model_kv_out r;
    memset(&r, 0, sizeof r);
    /* Per layer and token: GQA stores K (k * d values) and V (k * d_v values) as two rows;
     * MLA stores one latent row of d_c + d_h^R values. Block formats round each row. */
    if (model->attention == HWFIT_MODEL_ATTENTION_GQA) {
        uint64_t kb, vb;
        st = hwfit_dtype_bytes(in->dtype, (uint64_t)model->kv_heads * d.qk_head_dim, &kb);
        if (st == HWFIT_OK)
            st = hwfit_dtype_bytes(in->dtype, (uint64_t)model->kv_heads * d.v_head_dim, &vb);
        if (st == HWFIT_OK) st = hwfit__add_u64(kb, vb, &r.layer_bytes_per_token);
    } else {
        st = hwfit_dtype_bytes(in->dtype, d.kv_values, &r.layer_bytes_per_token);
    }
    if (st != HWFIT_OK)
        return hwfit__why(why, st, "dtype",
                          st == HWFIT_EINVAL ? "is not a known format"
                          : st == HWFIT_EDOM ? "has an invalid group size"
                                             : "makes a per-token size that overflows");
    if (in->first_layer == 0 && count == model->layers) {
        r.sliding_layers = sliding_layers;
    } else {
        for (uint32_t i = in->first_layer; i < in->first_layer + count; i++)
            r.sliding_layers += (uint32_t)hwfit__model_layer_is_sliding(model, i);
    }
    r.full_layers = count - r.sliding_layers;
    if (in->include_mtp) r.full_layers += model->mtp_layers; /* MTP layers attend fully */
    r.window_tokens = r.sliding_layers ? model->sliding_window : 0;
    r.full_tokens = in->context;
    r.sliding_tokens = r.sliding_layers
                           ? (in->context < model->sliding_window ? in->context
                                                                  : model->sliding_window)
                           : 0;
    uint64_t tokens = 0;
    if (hwfit__mul_u64(r.layer_bytes_per_token, r.full_layers + r.sliding_layers,
                       &r.bytes_per_token) != HWFIT_OK ||
        hwfit__mac_u64(&tokens, r.full_layers, r.full_tokens) != HWFIT_OK ||
        hwfit__mac_u64(&tokens, r.sliding_layers, r.sliding_tokens) != HWFIT_OK ||
        hwfit__mul_u64(tokens, in->batch, &tokens) != HWFIT_OK ||
        hwfit__mul_u64(tokens, r.layer_bytes_per_token, &r.bytes) != HWFIT_OK)
        return hwfit__why(why, HWFIT_ERANGE, "batch",
                          "and context make a cache larger than 64 bits count");
    *out = r;
    return HWFIT_OK;
}

static hwfit_status kv_prepared(const hwfit_model *model, const hwfit__model_prep *prep,
                                hwfit_status prep_status, const hwfit_model_kv_in *in,
                                hwfit_model_kv_out *out, hwfit_problem *why) {
    if (prep_status != HWFIT_OK) return prep_status;
    return kv_of(model, &prep->dims, prep->sliding_layers, prep_status, in, out, why);
}

hwfit_status hwfit__model_kv_dims(const hwfit_model *model, const hwfit__dims *dims,
                                  uint32_t sliding_layers, hwfit_status prep_status,
                                  const hwfit_model_kv_in *in, hwfit_model_kv_out *out) {
    return kv_of(model, dims, sliding_layers, prep_status, in, out, NULL);
}

hwfit_status hwfit_model_kv(const hwfit_model *model, const hwfit_model_kv_in *in,
                            hwfit_model_kv_out *out) {
    if (model == NULL || in == NULL || out == NULL) return HWFIT_EINVAL;
    hwfit__model_prep prep;
    hwfit_status st = hwfit__model_prepare(model, &prep);
    return kv_prepared(model, &prep, st, in, out, NULL);
}

hwfit_status hwfit__model_kv_prepared(const hwfit_model *model, const hwfit__model_prep *prep,
                                      hwfit_status prep_status, const hwfit_model_kv_in *in,
                                      hwfit_model_kv_out *out) {
    return kv_prepared(model, prep, prep_status, in, out, NULL);
}

hwfit_status hwfit_model_kv_validate(const hwfit_model *model, const hwfit_model_kv_in *in,
                                     hwfit_problem *problem) {
    hwfit_problem_clear(problem);
    if (model == NULL) return hwfit__why(problem, HWFIT_EINVAL, "model", HWFIT__NULL);
    if (in == NULL) return hwfit__why(problem, HWFIT_EINVAL, "in", HWFIT__NULL);
    hwfit_model_kv_out scratch;
    hwfit__model_prep prep;
    hwfit_status st = hwfit__model_prepare_why(model, &prep, problem);
    return kv_prepared(model, &prep, st, in, &scratch, problem);
}

/* ---- FLOPs ----------------------------------------------------------------------------------- */

hwfit_status hwfit_model_flops(const hwfit_model *model, uint64_t context,
                               hwfit_model_flops_out *out) {
    if (model == NULL || out == NULL) return HWFIT_EINVAL;
    hwfit__model_prep prep;
    hwfit_status st = hwfit__model_prepare(model, &prep);
    if (st != HWFIT_OK) return st;
    if (context == 0) return HWFIT_EDOM;
    const hwfit_model_param_counts p = prep.params;
    const hwfit__dims d = prep.dims;
    /* Weights a token multiplies: active layers and norms, and the head's V x h matmul
     * whether or not it is tied; the embedding is a lookup. 2 FLOPs per weight (one
     * multiply-add): Kaplan et al. 2020, section 2.1. */
    double weights = (double)(p.active - p.head); /* = active - embedding - head + V h */
    hwfit_model_flops_out r;
    r.matmul_flop = 2.0 * weights;
    /* Attention: QK^T costs 2 a d and softmax(QK^T) V costs 2 a d_v FLOPs per attended token
     * per layer (the "Attention: Mask" term of Kaplan et al. Table 1, with the value product
     * counted as in Hoffmann et al. 2022, Appendix F). */
    double per_token = 2.0 * (double)model->heads * (double)(d.qk_head_dim + d.v_head_dim);
    double attended = 0.0;
    uint64_t window = model->sliding_window < context ? model->sliding_window : context;
    /* Chunked attention (Llama 4): the token at position `context` attends to the tokens of
     * its own chunk only, ((context - 1) mod chunk) + 1 of them. */
    if (model->chunked_attention && model->sliding_window > 0)
        window = (context - 1) % model->sliding_window + 1;
    if (context <= ((uint64_t)1 << 43)) {
        /* Every partial sum of the loop below is a whole number below 2^53 (at most 1024
         * layers of at most 2^43 tokens), so the double additions are exact and equal the
         * integer sum: the same value without reading the layers one by one. */
        uint64_t sliding = prep.sliding_layers, full = model->layers - sliding;
        attended = (double)(full * context + sliding * window);
    } else {
        for (uint32_t i = 0; i < model->layers; i++)
            attended += (double)(hwfit__model_layer_is_sliding(model, i) ? window : context);
    }
    r.attention_flop = per_token * attended;
    r.forward_flop = r.matmul_flop + r.attention_flop;
    /* Backward costs twice the forward pass (Kaplan et al. 2020, section 2.1). */
    r.training_flop = 3.0 * r.forward_flop;
    *out = r;
    return HWFIT_OK;
}

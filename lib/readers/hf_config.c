/* hf_config.c - a hwfit_model from a Hugging Face config.json.
 *
 * Defaults are those of the transformers configuration classes (src/transformers/models/
 * <type>/configuration_<type>.py); the shapes and layer rules are those of the matching
 * modeling_<type>.py. docs/formulas.md ("hf_config") lists them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit/hf_config.h"
#include "hwfit/model.h"
#include "hwfit/status.h"

#include "base/checked.h"
#include "base/internal.h"
#include "readers/hf_quant_internal.h"
#include "readers/json.h"

typedef enum family {
    F_LLAMA,
    F_MISTRAL,
    F_MIXTRAL,
    F_QWEN2,
    F_QWEN2_MOE,
    F_QWEN3,
    F_QWEN3_MOE,
    F_GEMMA,
    F_GEMMA2,
    F_GEMMA3,
    F_PHI3,
    F_DEEPSEEK_V2,
    F_DEEPSEEK_V3,
    F_GPT_OSS,
    F_LLAMA4,
    F_GLM4_MOE,
    F_GLM4
} family;

/* Defaults of the configuration class of each type; head_dim 0 = hidden / heads,
 * kv_heads 0 = heads, window 0 = None. */
typedef struct arch {
    const char *type;
    family fam;
    uint64_t vocab, hidden, intermediate, layers, heads, kv_heads, head_dim;
    int tie;
    uint64_t window;
} arch;

static const arch archs[] = {
    /* LlamaConfig: 32000, 4096, 11008, 32 layers, 32 heads, kv None, head_dim None, untied */
    {"llama", F_LLAMA, 32000, 4096, 11008, 32, 32, 0, 0, 0, 0},
    /* MistralConfig: kv 8, sliding_window 4096 */
    {"mistral", F_MISTRAL, 32000, 4096, 14336, 32, 32, 8, 0, 0, 4096},
    /* MixtralConfig: kv 8, sliding_window None, 8 experts, top-2 */
    {"mixtral", F_MIXTRAL, 32000, 4096, 14336, 32, 32, 8, 0, 0, 0},
    /* Qwen2Config: 151936, 4096, 22016, 32, 32, kv 32, sliding_window 4096 if used */
    {"qwen2", F_QWEN2, 151936, 4096, 22016, 32, 32, 32, 0, 0, 4096},
    /* Qwen2MoeConfig: 151936, 2048, 5632, 24, 16, kv 16 */
    {"qwen2_moe", F_QWEN2_MOE, 151936, 2048, 5632, 24, 16, 16, 0, 0, 4096},
    /* Qwen3Config: head_dim 128 */
    {"qwen3", F_QWEN3, 151936, 4096, 22016, 32, 32, 32, 128, 0, 4096},
    /* Qwen3MoeConfig: 151936, 2048, 6144, 24, 32, kv 4, no head_dim default */
    {"qwen3_moe", F_QWEN3_MOE, 151936, 2048, 6144, 24, 32, 4, 0, 0, 4096},
    /* GemmaConfig: 256000, 3072, 24576, 28, 16, kv 16, head_dim 256, tied */
    {"gemma", F_GEMMA, 256000, 3072, 24576, 28, 16, 16, 256, 1, 0},
    /* Gemma2Config: 256000, 2304, 9216, 26, 8, kv 4, head_dim 256, tied, window 4096 */
    {"gemma2", F_GEMMA2, 256000, 2304, 9216, 26, 8, 4, 256, 1, 4096},
    /* Gemma3TextConfig: 262208, 2304, 9216, 26, 8, kv 4, head_dim 256, tied, window 4096 */
    {"gemma3_text", F_GEMMA3, 262208, 2304, 9216, 26, 8, 4, 256, 1, 4096},
    /* Phi3Config: 32064, 3072, 8192, 32, 32, kv None, sliding_window None */
    {"phi3", F_PHI3, 32064, 3072, 8192, 32, 32, 0, 0, 0, 0},
    /* DeepseekV2Config (inherits LlamaConfig's sizes): 32000, 4096, 11008, 32, 32 */
    {"deepseek_v2", F_DEEPSEEK_V2, 32000, 4096, 11008, 32, 32, 0, 0, 0, 0},
    /* DeepseekV3Config: 129280, 7168, 18432, 61, 128 */
    {"deepseek_v3", F_DEEPSEEK_V3, 129280, 7168, 18432, 61, 128, 0, 0, 0, 0},
    /* GptOssConfig: 201088, 2880, 2880 (expert width), 36, 64, kv 8, head_dim 64, untied,
     * sliding_window 128 */
    {"gpt_oss", F_GPT_OSS, 201088, 2880, 2880, 36, 64, 8, 64, 0, 128},
    /* Llama4TextConfig: 202048, 5120, 8192 (expert width), 48, 40, kv 8, head_dim 128, untied,
     * attention_chunk_size 8192 */
    {"llama4_text", F_LLAMA4, 202048, 5120, 8192, 48, 40, 8, 128, 0, 8192},
    /* Glm4MoeConfig: 151552, 4096, 10944, 46, 96, kv 8, head_dim hidden / heads, untied */
    {"glm4_moe", F_GLM4_MOE, 151552, 4096, 10944, 46, 96, 8, 0, 0, 0},
    /* Glm4Config (GLM-4-0414): 151552, 4096, 13696, 40, 32, kv 2, head_dim 128, untied */
    {"glm4", F_GLM4, 151552, 4096, 13696, 40, 32, 2, 128, 0, 0},
    /* kimi_k2 (moonshotai/Kimi-K2-Instruct config.json): architectures DeepseekV3ForCausalLM,
       auto_map AutoConfig configuration_deepseek.DeepseekV3Config, so DeepSeek-V3's reading
       and defaults apply; the published config gives every shape key itself. */
    {"kimi_k2", F_DEEPSEEK_V3, 129280, 7168, 18432, 61, 128, 0, 0, 0, 0},
};

#define SUPPORTED                                                                           \
    "llama, mistral, mixtral, qwen2, qwen2_moe, qwen3, qwen3_moe, gemma, gemma2, gemma3, " \
    "gemma3_text, phi3, deepseek_v2, deepseek_v3, kimi_k2, gpt_oss, llama4, llama4_text, glm4, " \
    "glm4_moe"

typedef struct reader {
    hwfit__json_ctx ctx;
    const hwfit__json_value *obj; /* the (text) config object */
    const char *where;
} reader;

/* A failure at a value's position, prefixed with the file name. */
#define fail_at(r, st, v, ...) hwfit__json_fail_at((r)->ctx.err, (r)->where, st, v, __VA_ARGS__)

/* An unsigned integer key: absent or null -> def; else a number in [lo, hi]. */
static hwfit_status get_u64(const reader *r, const char *key, uint64_t lo, uint64_t hi,
                            uint64_t def, uint64_t *out) {
    const hwfit__json_value *v = hwfit__json_get(r->obj, key);
    if (v == NULL || v->type == HWFIT__JSON_NULL) {
        *out = def;
        return HWFIT_OK;
    }
    return hwfit__json_read_u64(&r->ctx, r->obj, key, 0, lo, hi, out, NULL);
}

/* As get_u64, but JSON null means "none" (e.g. sliding_window, q_lora_rank): null_value. */
static hwfit_status get_nullable_u64(const reader *r, const char *key, uint64_t lo, uint64_t hi,
                                     uint64_t def, uint64_t null_value, uint64_t *out) {
    const hwfit__json_value *v = hwfit__json_get(r->obj, key);
    if (v != NULL && v->type == HWFIT__JSON_NULL) {
        *out = null_value;
        return HWFIT_OK;
    }
    return get_u64(r, key, lo, hi, def, out);
}

static hwfit_status get_bool(const reader *r, const char *key, int def, int *out) {
    const hwfit__json_value *v = hwfit__json_get(r->obj, key);
    if (v == NULL || v->type == HWFIT__JSON_NULL) {
        *out = def;
        return HWFIT_OK;
    }
    return hwfit__json_read_bool(&r->ctx, r->obj, key, 0, out, NULL);
}

/* Qwen-MoE mlp_only_layers: a list of layer indices with dense MLPs. */
static hwfit_status apply_mlp_only_layers(const reader *r, hwfit_model *m) {
    const hwfit__json_value *v = hwfit__json_get(r->obj, "mlp_only_layers");
    if (v == NULL || v->type == HWFIT__JSON_NULL) return HWFIT_OK;
    if (v->type != HWFIT__JSON_ARRAY)
        return fail_at(r, HWFIT_EPARSE, v, "key 'mlp_only_layers' must be an array, got %s",
                       hwfit__json_type_name(v->type));
    for (size_t i = 0; i < v->u.array.count; i++) {
        const hwfit__json_value *e = &v->u.array.items[i];
        if (e->type != HWFIT__JSON_NUMBER || !e->u.number.is_integer ||
            e->u.number.integer < 0 || (uint64_t)e->u.number.integer >= m->layers)
            return fail_at(r, HWFIT_EPARSE, e,
                           "key 'mlp_only_layers' item %zu must be a layer index in [0, %u]", i,
                           (unsigned)(m->layers - 1));
        uint32_t li = (uint32_t)e->u.number.integer;
        m->layer_flags[li] = (uint8_t)(m->layer_flags[li] & ~HWFIT_MODEL_LAYER_MOE);
    }
    return HWFIT_OK;
}

/* Llama 4 moe_layers: when given, exactly the listed layers are MoE (it overrides
 * interleave_moe_layer_step, Llama4TextConfig). */
static hwfit_status apply_moe_layers(const reader *r, hwfit_model *m) {
    const hwfit__json_value *v = hwfit__json_get(r->obj, "moe_layers");
    if (v == NULL || v->type == HWFIT__JSON_NULL) return HWFIT_OK;
    if (v->type != HWFIT__JSON_ARRAY)
        return fail_at(r, HWFIT_EPARSE, v, "key 'moe_layers' must be an array, got %s",
                       hwfit__json_type_name(v->type));
    for (uint32_t i = 0; i < m->layers; i++)
        m->layer_flags[i] = (uint8_t)(m->layer_flags[i] & ~HWFIT_MODEL_LAYER_MOE);
    for (size_t i = 0; i < v->u.array.count; i++) {
        const hwfit__json_value *e = &v->u.array.items[i];
        if (e->type != HWFIT__JSON_NUMBER || !e->u.number.is_integer ||
            e->u.number.integer < 0 || (uint64_t)e->u.number.integer >= m->layers)
            return fail_at(r, HWFIT_EPARSE, e,
                           "key 'moe_layers' item %zu must be a layer index in [0, %u]", i,
                           (unsigned)(m->layers - 1));
        uint32_t li = (uint32_t)e->u.number.integer;
        m->layer_flags[li] = (uint8_t)(m->layer_flags[li] | HWFIT_MODEL_LAYER_MOE);
    }
    return HWFIT_OK;
}

/* Llama 4 no_rope_layers: per layer 1 = the layer uses RoPE and chunked attention, 0 = a NoPE
 * layer with full attention (Llama4TextConfig: layer_types "chunked_attention" if no_rope
 * else "full_attention"). Absent or empty: a NoPE layer every no_rope_layer_interval layers,
 * (i + 1) % interval == 0. Marks the chunked layers with HWFIT_MODEL_LAYER_SLIDING. */
static hwfit_status apply_no_rope_layers(const reader *r, hwfit_model *m) {
    const hwfit__json_value *v = hwfit__json_get(r->obj, "no_rope_layers");
    if (v != NULL && v->type != HWFIT__JSON_NULL && v->type != HWFIT__JSON_ARRAY)
        return fail_at(r, HWFIT_EPARSE, v, "key 'no_rope_layers' must be an array, got %s",
                       hwfit__json_type_name(v->type));
    if (v == NULL || v->type == HWFIT__JSON_NULL || v->u.array.count == 0) {
        uint64_t interval;
        HWFIT__TRY(get_u64(r, "no_rope_layer_interval", 1, HWFIT_MODEL_MAX_LAYERS, 4, &interval));
        for (uint32_t i = 0; i < m->layers; i++)
            if ((i + 1) % interval != 0) m->layer_flags[i] |= HWFIT_MODEL_LAYER_SLIDING;
        return HWFIT_OK;
    }
    if (v->u.array.count < m->layers)
        return fail_at(r, HWFIT_EPARSE, v,
                       "key 'no_rope_layers' has %zu entries but num_hidden_layers is %u",
                       v->u.array.count, (unsigned)m->layers);
    for (uint32_t i = 0; i < m->layers; i++) {
        const hwfit__json_value *e = &v->u.array.items[i];
        if (e->type != HWFIT__JSON_NUMBER || !e->u.number.is_integer ||
            (e->u.number.integer != 0 && e->u.number.integer != 1))
            return fail_at(r, HWFIT_EPARSE, e,
                           "key 'no_rope_layers' item %u must be 0 (NoPE) or 1 (RoPE)",
                           (unsigned)i);
        if (e->u.number.integer == 1) m->layer_flags[i] |= HWFIT_MODEL_LAYER_SLIDING;
    }
    return HWFIT_OK;
}

/* An explicit layer_types list ("full_attention" / "sliding_attention") overrides the
 * type's rule, as in the transformers configuration classes that define it. */
static hwfit_status apply_layer_types(const reader *r, hwfit_model *m) {
    const hwfit__json_value *v = hwfit__json_get(r->obj, "layer_types");
    if (v == NULL || v->type == HWFIT__JSON_NULL) return HWFIT_OK;
    if (v->type != HWFIT__JSON_ARRAY)
        return fail_at(r, HWFIT_EPARSE, v, "key 'layer_types' must be an array, got %s",
                       hwfit__json_type_name(v->type));
    if (v->u.array.count != m->layers)
        return fail_at(r, HWFIT_EPARSE, v,
                       "key 'layer_types' has %zu entries but num_hidden_layers is %u",
                       v->u.array.count, (unsigned)m->layers);
    for (size_t i = 0; i < v->u.array.count; i++) {
        const hwfit__json_value *e = &v->u.array.items[i];
        if (e->type != HWFIT__JSON_STRING)
            return fail_at(r, HWFIT_EPARSE, e, "key 'layer_types' item %zu must be a string, got %s",
                           i, hwfit__json_type_name(e->type));
        int sliding;
        if (strcmp(e->u.string.text, "full_attention") == 0) sliding = 0;
        else if (strcmp(e->u.string.text, "sliding_attention") == 0 && !m->chunked_attention)
            sliding = 1;
        else if (strcmp(e->u.string.text, "chunked_attention") == 0 && m->chunked_attention)
            sliding = 1; /* Llama 4: the chunk bounds the layer as a window does */
        else
            return fail_at(r, HWFIT_EUNSUPPORTED, e,
                           "key 'layer_types' item %zu: layer type \"%.60s\" is not supported "
                           "for this model type (%s)",
                           i, e->u.string.text,
                           m->chunked_attention ? "full_attention, chunked_attention"
                                                : "full_attention, sliding_attention");
        uint8_t f = (uint8_t)(m->layer_flags[i] & ~HWFIT_MODEL_LAYER_SLIDING);
        if (sliding) f = (uint8_t)(f | HWFIT_MODEL_LAYER_SLIDING);
        m->layer_flags[i] = f;
    }
    return HWFIT_OK;
}

/* Sizes and dimensions the model accepts. */
#define SZ HWFIT_MODEL_MAX_SIZE
#define DIM HWFIT_MODEL_MAX_DIM

static hwfit_status read_model(const reader *r, const arch *a, hwfit_model *m) {
    uint64_t v;
    hwfit_model_init(m);
    snprintf(m->name, sizeof m->name, "%s", a->type);
    HWFIT__TRY(get_u64(r, "vocab_size", 1, SZ, a->vocab, &m->vocab));
    HWFIT__TRY(get_u64(r, "hidden_size", 1, SZ, a->hidden, &m->hidden));
    HWFIT__TRY(get_u64(r, "intermediate_size", 1, SZ, a->intermediate, &m->intermediate));
    HWFIT__TRY(get_u64(r, "num_hidden_layers", 1, HWFIT_MODEL_MAX_LAYERS, a->layers, &v));
    m->layers = (uint32_t)v;
    HWFIT__TRY(get_u64(r, "num_attention_heads", 1, DIM, a->heads, &v));
    m->heads = (uint32_t)v;
    HWFIT__TRY(get_u64(r, "num_key_value_heads", 1, DIM, a->kv_heads ? a->kv_heads : m->heads, &v));
    m->kv_heads = (uint32_t)v;
    HWFIT__TRY(get_u64(r, "max_position_embeddings", 0, SZ, 0, &m->max_context));
    HWFIT__TRY(get_bool(r, "tie_word_embeddings", a->tie, &m->tie_embeddings));
    {   /* Gemma 2: attn_logit_softcapping 50.0; Gemma 3 writes null (no soft-capping). */
        const hwfit__json_value *cap = hwfit__json_get(r->obj, "attn_logit_softcapping");
        if (cap != NULL && cap->type != HWFIT__JSON_NULL) {
            if (cap->type != HWFIT__JSON_NUMBER || !(cap->u.number.value > 0))
                return fail_at(r, HWFIT_EPARSE, cap,
                               "attn_logit_softcapping must be a positive number or null");
            m->attention_softcap = 1;
        }
    }
    int mla = a->fam == F_DEEPSEEK_V2 || a->fam == F_DEEPSEEK_V3;
    if (!mla) {
        HWFIT__TRY(get_u64(r, "head_dim", 1, DIM, a->head_dim, &v));
        m->head_dim = (uint32_t)v;
        if (m->head_dim == 0 && m->hidden % m->heads != 0)
            return fail_at(r, HWFIT_EPARSE, hwfit__json_get(r->obj, "num_attention_heads"),
                           "hidden_size %llu is not a multiple of num_attention_heads %u and no "
                           "head_dim is given",
                           (unsigned long long)m->hidden, (unsigned)m->heads);
        if (m->kv_heads > m->heads || m->heads % m->kv_heads != 0)
            return fail_at(r, HWFIT_EPARSE, hwfit__json_get(r->obj, "num_key_value_heads"),
                           "num_attention_heads %u is not a multiple of num_key_value_heads %u",
                           (unsigned)m->heads, (unsigned)m->kv_heads);
    }

    int attention_bias = 0, use_window = 1, flag;
    uint64_t window = a->window, max_window_layers = 28, step = 1;
    switch (a->fam) {
    case F_LLAMA:
        /* LlamaAttention: bias=config.attention_bias on q, k, v, o; LlamaMLP: mlp_bias. */
        HWFIT__TRY(get_bool(r, "attention_bias", 0, &attention_bias));
        HWFIT__TRY(get_bool(r, "mlp_bias", 0, &m->mlp_bias));
        break;
    case F_MISTRAL:
    case F_PHI3:
        /* transformers models/phi3/modeling_phi3.py (huggingface/transformers at 00d4b3d2):
         * Phi3Attention holds one qkv_proj Linear(hidden, (heads + 2 kv_heads) head_dim)
         * and Phi3MLP one gate_up_proj Linear(hidden, 2 intermediate): a LoRA adapter of
         * PEFT wraps each as one module (fused_modules). MistralAttention and MistralMLP
         * keep q_proj, k_proj, v_proj, gate_proj and up_proj apart. */
        if (a->fam == F_PHI3) m->fused_modules = HWFIT_MODEL_FUSED_QKV | HWFIT_MODEL_FUSED_GATE_UP;
        /* Every layer uses config.sliding_window (MistralAttention, Phi3Attention). */
        HWFIT__TRY(get_nullable_u64(r, "sliding_window", 1, SZ, a->window, 0, &window));
        if (window) HWFIT__TRY(hwfit_model_set_sliding_layers(m, HWFIT_MODEL_SLIDING_ALL, 0));
        break;
    case F_MIXTRAL:
        HWFIT__TRY(get_nullable_u64(r, "sliding_window", 1, SZ, a->window, 0, &window));
        if (window) HWFIT__TRY(hwfit_model_set_sliding_layers(m, HWFIT_MODEL_SLIDING_ALL, 0));
        /* MixtralSparseMoeBlock in every layer: num_local_experts experts of intermediate_size. */
        HWFIT__TRY(get_u64(r, "num_local_experts", 1, DIM, 8, &v));
        m->experts = (uint32_t)v;
        HWFIT__TRY(get_u64(r, "num_experts_per_tok", 1, DIM, 2, &v));
        m->experts_per_token = (uint32_t)v;
        m->expert_intermediate = m->intermediate;
        HWFIT__TRY(hwfit_model_set_moe_layers(m, 0, 1, 0));
        break;
    case F_QWEN2:
    case F_QWEN2_MOE:
    case F_QWEN3:
    case F_QWEN3_MOE:
        HWFIT__TRY(get_bool(r, "use_sliding_window", 0, &use_window));
        HWFIT__TRY(get_nullable_u64(r, "sliding_window", 1, SZ, a->window, 0, &window));
        HWFIT__TRY(get_u64(r, "max_window_layers", 0, SZ, 28, &max_window_layers));
        if (!use_window) window = 0; /* sliding_window = ... if use_sliding_window else None */
        if (a->fam == F_QWEN2) {
            /* Qwen2Attention: q, k, v with bias=True, o without. */
            m->q_bias = m->k_bias = m->v_bias = 1;
        } else if (a->fam == F_QWEN2_MOE) {
            HWFIT__TRY(get_bool(r, "qkv_bias", 1, &flag));
            m->q_bias = m->k_bias = m->v_bias = flag;
        } else {
            /* Qwen3Attention: bias=config.attention_bias; q_norm and k_norm RMSNorm(head_dim). */
            HWFIT__TRY(get_bool(r, "attention_bias", 0, &attention_bias));
            m->qk_norm = 1;
        }
        if (window) {
            if (a->fam == F_QWEN3_MOE) {
                /* Qwen3MoeAttention: config.sliding_window in every layer. */
                HWFIT__TRY(hwfit_model_set_sliding_layers(m, HWFIT_MODEL_SLIDING_ALL, 0));
            } else if (a->fam == F_QWEN2_MOE) {
                /* Qwen2MoeConfig: sliding when (i + 1) % 2 and i < max_window_layers. */
                for (uint32_t i = 0; i < m->layers; i++)
                    if ((i + 1) % 2 && i < max_window_layers)
                        m->layer_flags[i] |= HWFIT_MODEL_LAYER_SLIDING;
            } else {
                /* Qwen2Config/Qwen3Config: sliding when i >= max_window_layers. */
                uint32_t first = max_window_layers > m->layers ? m->layers : (uint32_t)max_window_layers;
                HWFIT__TRY(hwfit_model_set_sliding_layers(m, HWFIT_MODEL_SLIDING_FROM, first));
            }
        }
        if (a->fam == F_QWEN2_MOE || a->fam == F_QWEN3_MOE) {
            int q2 = a->fam == F_QWEN2_MOE;
            HWFIT__TRY(get_u64(r, "num_experts", 0, DIM, q2 ? 60 : 128, &v));
            m->experts = (uint32_t)v;
            HWFIT__TRY(get_u64(r, "num_experts_per_tok", 1, DIM, q2 ? 4 : 8, &v));
            m->experts_per_token = (uint32_t)v;
            HWFIT__TRY(get_u64(r, "moe_intermediate_size", 1, SZ, q2 ? 1408 : 768,
                        &m->expert_intermediate));
            if (q2) {
                /* Qwen2MoeSparseMoeBlock: one shared expert of shared_expert_intermediate_size
                 * and a sigmoid gate Linear(h, 1). */
                HWFIT__TRY(get_u64(r, "shared_expert_intermediate_size", 0, SZ, 5632,
                            &m->shared_expert_intermediate));
                if (m->shared_expert_intermediate > 0) {
                    m->shared_experts = 1;
                    m->shared_expert_gate = 1;
                }
            }
            HWFIT__TRY(get_u64(r, "decoder_sparse_step", 1, HWFIT_MODEL_MAX_LAYERS, 1, &step));
            if (m->experts > 0) {
                /* MoE when layer not in mlp_only_layers and (i + 1) % decoder_sparse_step == 0. */
                HWFIT__TRY(hwfit_model_set_moe_layers(m, 0, (uint32_t)step, (uint32_t)step - 1));
                HWFIT__TRY(apply_mlp_only_layers(r, m));
            }
        }
        break;
    case F_GEMMA:
    case F_GEMMA2:
    case F_GEMMA3:
        /* GemmaAttention & co: bias=config.attention_bias. Gemma-2/3 decoder layers have
         * input, post-attention, pre-feedforward and post-feedforward RMSNorms. */
        HWFIT__TRY(get_bool(r, "attention_bias", 0, &attention_bias));
        if (a->fam != F_GEMMA) {
            m->norms_per_layer = 4;
            HWFIT__TRY(get_nullable_u64(r, "sliding_window", 1, SZ, a->window, 0, &window));
            uint64_t period = 2; /* Gemma2Config: sliding when (i + 1) % 2 */
            if (a->fam == F_GEMMA3) {
                /* Gemma3TextConfig: q_norm and k_norm; sliding_window_pattern (6), written
                 * _sliding_window_pattern by newer transformers. */
                m->qk_norm = 1;
                HWFIT__TRY(
                    get_u64(r, "sliding_window_pattern", 1, HWFIT_MODEL_MAX_LAYERS, 6, &period));
                if (hwfit__json_get(r->obj, "sliding_window_pattern") == NULL)
                    HWFIT__TRY(get_u64(r, "_sliding_window_pattern", 1, HWFIT_MODEL_MAX_LAYERS, 6,
                                       &period));
            }
            if (window)
                HWFIT__TRY(hwfit_model_set_sliding_layers(m, HWFIT_MODEL_SLIDING_PERIOD,
                                                          (uint32_t)period));
        }
        break;
    case F_DEEPSEEK_V2:
    case F_DEEPSEEK_V3: {
        int v3 = a->fam == F_DEEPSEEK_V3;
        m->attention = HWFIT_MODEL_ATTENTION_MLA;
        m->kv_heads = m->heads; /* unused by MLA */
        HWFIT__TRY(get_nullable_u64(r, "q_lora_rank", 1, DIM, 1536, 0, &v));
        m->q_lora_rank = (uint32_t)v;
        HWFIT__TRY(get_u64(r, "kv_lora_rank", 1, DIM, 512, &v));
        m->kv_lora_rank = (uint32_t)v;
        HWFIT__TRY(get_u64(r, "qk_nope_head_dim", 0, DIM, 128, &v));
        m->qk_nope_head_dim = (uint32_t)v;
        HWFIT__TRY(get_u64(r, "qk_rope_head_dim", 0, DIM, 64, &v));
        m->qk_rope_head_dim = (uint32_t)v;
        HWFIT__TRY(get_u64(r, "v_head_dim", 1, DIM, 128, &v));
        m->v_head_dim = (uint32_t)v;
        if ((uint64_t)m->qk_nope_head_dim + m->qk_rope_head_dim == 0)
            return fail_at(r, HWFIT_EPARSE, hwfit__json_get(r->obj, "qk_nope_head_dim"),
                           "qk_nope_head_dim + qk_rope_head_dim must be at least 1");
        /* DeepseekV2Attention: attention_bias on q_a_proj, kv_a_proj_with_mqa, o_proj. */
        HWFIT__TRY(get_bool(r, "attention_bias", 0, &m->o_bias));
        HWFIT__TRY(get_bool(r, "mlp_bias", 0, &m->mlp_bias));
        HWFIT__TRY(get_nullable_u64(r, "n_routed_experts", 1, DIM, v3 ? 256 : 64, 0, &v));
        m->experts = (uint32_t)v;
        HWFIT__TRY(get_nullable_u64(r, "n_shared_experts", 0, DIM, v3 ? 1 : 2, 0, &v));
        m->shared_experts = (uint32_t)v;
        HWFIT__TRY(
            get_u64(r, "moe_intermediate_size", 1, SZ, v3 ? 2048 : 1407, &m->expert_intermediate));
        m->shared_expert_intermediate = m->expert_intermediate;
        if (m->experts > 0) {
            const hwfit__json_value *k = hwfit__json_get(r->obj, "num_experts_per_tok");
            if (!v3 && (k == NULL || k->type == HWFIT__JSON_NULL))
                return fail_at(r, HWFIT_EPARSE, r->obj,
                               "missing required key 'num_experts_per_tok' (DeepseekV2Config "
                               "has no default and n_routed_experts is %u)",
                               (unsigned)m->experts);
            HWFIT__TRY(get_u64(r, "num_experts_per_tok", 1, DIM, 8, &v));
            m->experts_per_token = (uint32_t)v;
            uint64_t first, freq;
            HWFIT__TRY(
                get_u64(r, "first_k_dense_replace", 0, HWFIT_MODEL_MAX_LAYERS, v3 ? 3 : 0, &first));
            /* moe_layer_freq: DeepSeek's own modeling_deepseek.py (transformers assumes 1). */
            HWFIT__TRY(get_u64(r, "moe_layer_freq", 1, HWFIT_MODEL_MAX_LAYERS, 1, &freq));
            HWFIT__TRY(hwfit_model_set_moe_layers(m, (uint32_t)first, (uint32_t)freq, 0));
            /* DeepseekV3TopkRouter: e_score_correction_bias, one per routed expert. */
            m->router_bias = v3;
        }
        /* num_nextn_predict_layers: DeepSeek-V3's config.json; transformers has no default. */
        HWFIT__TRY(get_u64(r, "num_nextn_predict_layers", 0, 64, 0, &v));
        m->mtp_layers = (uint32_t)v;
        break;
    }
    case F_GPT_OSS:
        /* GptOssAttention: q, k, v and o with bias=config.attention_bias (default True) and
         * sinks, one learned logit per query head. */
        HWFIT__TRY(get_bool(r, "attention_bias", 1, &attention_bias));
        m->attention_sinks = 1;
        /* GptOssConfig: layer_types, by default sliding when (i + 1) % 2, window 128. */
        HWFIT__TRY(get_nullable_u64(r, "sliding_window", 1, SZ, a->window, 0, &window));
        if (window) HWFIT__TRY(hwfit_model_set_sliding_layers(m, HWFIT_MODEL_SLIDING_PERIOD, 2));
        /* GptOssMLP in every layer: GptOssTopKRouter weight (E x h) and bias (E); GptOssExperts
         * gate_up_proj (E, h, 2 * intermediate_size) with bias (E, 2 * intermediate_size),
         * down_proj (E, intermediate_size, h) with bias (E, h): a gated MLP with biases. */
        HWFIT__TRY(get_u64(r, "num_local_experts", 1, DIM, 128, &v));
        m->experts = (uint32_t)v;
        HWFIT__TRY(get_u64(r, "num_experts_per_tok", 1, DIM, 4, &v));
        m->experts_per_token = (uint32_t)v;
        m->expert_intermediate = m->intermediate;
        m->mlp_bias = 1;
        m->router_bias = 1;
        HWFIT__TRY(hwfit_model_set_moe_layers(m, 0, 1, 0));
        break;
    case F_LLAMA4: {
        /* Llama4TextAttention: q, k, v, o with bias=config.attention_bias; use_qk_norm is an
         * L2 norm without weights (Llama4TextL2Norm): no parameters. */
        HWFIT__TRY(get_bool(r, "attention_bias", 0, &attention_bias));
        /* Llama4TextMoe: Llama4TextExperts of intermediate_size (gate_up_proj (E, h, 2I),
         * down_proj (E, I, h), no bias), Llama4Router Linear(h, E) without bias, and one
         * shared_expert Llama4TextMLP of intermediate_size. Dense layers: Llama4TextMLP of
         * intermediate_size_mlp. */
        m->expert_intermediate = m->intermediate;
        m->shared_experts = 1;
        m->shared_expert_intermediate = m->intermediate;
        HWFIT__TRY(get_u64(r, "intermediate_size_mlp", 1, SZ, 16384, &m->intermediate));
        HWFIT__TRY(get_u64(r, "num_local_experts", 1, DIM, 16, &v));
        m->experts = (uint32_t)v;
        HWFIT__TRY(get_u64(r, "num_experts_per_tok", 1, DIM, 1, &v));
        m->experts_per_token = (uint32_t)v;
        /* moe_layers, else range(step - 1, layers, step) for interleave_moe_layer_step. */
        HWFIT__TRY(
            get_u64(r, "interleave_moe_layer_step", 1, HWFIT_MODEL_MAX_LAYERS, 1, &step));
        HWFIT__TRY(hwfit_model_set_moe_layers(m, 0, (uint32_t)step, (uint32_t)step - 1));
        HWFIT__TRY(apply_moe_layers(r, m));
        /* Chunked attention of attention_chunk_size tokens on the RoPE layers (null: none). */
        HWFIT__TRY(get_nullable_u64(r, "attention_chunk_size", 1, SZ, a->window, 0, &window));
        if (window) {
            m->chunked_attention = 1;
            HWFIT__TRY(apply_no_rope_layers(r, m));
        }
        break;
    }
    case F_GLM4:
        /* transformers models/glm4/modular_glm4.py: Glm4Attention is GlmAttention (q, k, v
         * with bias=config.attention_bias, default True; o_proj without bias); Glm4MLP is
         * Phi3MLP (gate_up_proj 2F x h fused, down_proj h x F: the gated MLP's parameters);
         * Glm4DecoderLayer has input_layernorm, post_self_attn_layernorm,
         * post_attention_layernorm and post_mlp_layernorm. Partial RoPE
         * (partial_rotary_factor): no parameters. */
        HWFIT__TRY(get_bool(r, "attention_bias", 1, &flag));
        m->q_bias = m->k_bias = m->v_bias = flag;
        m->norms_per_layer = 4;
        /* Glm4MLP's one gate_up_proj (fused_modules); q, k, v stay separate modules. */
        m->fused_modules = HWFIT_MODEL_FUSED_GATE_UP;
        break;
    case F_GLM4_MOE:
        /* Glm4MoeAttention: q, k, v with bias=config.attention_bias, o_proj without bias;
         * q_norm and k_norm RMSNorm(head_dim) when use_qk_norm. Partial RoPE: no parameters. */
        HWFIT__TRY(get_bool(r, "attention_bias", 0, &flag));
        m->q_bias = m->k_bias = m->v_bias = flag;
        HWFIT__TRY(get_bool(r, "use_qk_norm", 0, &m->qk_norm));
        /* Glm4MoeMoE: n_routed_experts Glm4MoeMLP of moe_intermediate_size, shared_experts one
         * Glm4MoeMLP of moe_intermediate_size * n_shared_experts, Glm4MoeTopkRouter weight
         * (E x h) and e_score_correction_bias (E); layers below first_k_dense_replace have a
         * dense Glm4MoeMLP of intermediate_size. */
        HWFIT__TRY(get_u64(r, "n_routed_experts", 1, DIM, 128, &v));
        m->experts = (uint32_t)v;
        HWFIT__TRY(get_u64(r, "num_experts_per_tok", 1, DIM, 8, &v));
        m->experts_per_token = (uint32_t)v;
        HWFIT__TRY(get_u64(r, "n_shared_experts", 0, DIM, 1, &v));
        m->shared_experts = (uint32_t)v;
        HWFIT__TRY(get_u64(r, "moe_intermediate_size", 1, SZ, 1408, &m->expert_intermediate));
        m->shared_expert_intermediate = m->expert_intermediate;
        m->router_bias = 1;
        {
            uint64_t first;
            HWFIT__TRY(get_u64(r, "first_k_dense_replace", 0, HWFIT_MODEL_MAX_LAYERS, 1, &first));
            HWFIT__TRY(hwfit_model_set_moe_layers(m, (uint32_t)first, 1, 0));
        }
        /* num_nextn_predict_layers: the MTP layer(s) stored after the decoder layers
         * (model.layers.<num_hidden_layers>); not run in plain decoding. */
        HWFIT__TRY(get_u64(r, "num_nextn_predict_layers", 0, 64, 0, &v));
        m->mtp_layers = (uint32_t)v;
        break;
    }
    if (attention_bias) m->q_bias = m->k_bias = m->v_bias = m->o_bias = 1;
    m->sliding_window = window;
    HWFIT__TRY(apply_layer_types(r, m));
    if (window == 0) /* a layer typed sliding without a window attends fully (transformers) */
        for (uint32_t i = 0; i < m->layers; i++)
            m->layer_flags[i] = (uint8_t)(m->layer_flags[i] & ~HWFIT_MODEL_LAYER_SLIDING);
    if (m->experts > 0 && m->experts_per_token > m->experts)
        return fail_at(r, HWFIT_EPARSE, hwfit__json_get(r->obj, "num_experts_per_tok"),
                       "num_experts_per_tok %u exceeds the %u experts",
                       (unsigned)m->experts_per_token, (unsigned)m->experts);
    hwfit_problem why;
    hwfit_status st = hwfit_model_validate(m, &why);
    if (st != HWFIT_OK)
        return fail_at(r, st == HWFIT_ERANGE ? HWFIT_ERANGE : HWFIT_EPARSE, NULL,
                       "the sizes describe no valid model: %s %s", why.field, why.rule);
    return HWFIT_OK;
}

static hwfit_status read_root(const hwfit__json_value *root, const char *where, hwfit_model *m,
                              hwfit_error *err) {
    reader r;
    r.ctx.where = where;
    r.ctx.null_is_absent = 0;
    r.ctx.err = err;
    r.where = where;
    r.obj = root;
    if (root->type != HWFIT__JSON_OBJECT)
        return fail_at(&r, HWFIT_EPARSE, root, "a config must be a JSON object, got %s",
                       hwfit__json_type_name(root->type));
    const char *type = NULL;
    HWFIT__TRY(hwfit__json_read_string(&r.ctx, root, "model_type", 1, &type, NULL));
    const hwfit__json_value *type_v = hwfit__json_get(root, "model_type");
    const hwfit__json_value *text = hwfit__json_get(root, "text_config");
    if (text != NULL && text->type != HWFIT__JSON_NULL) {
        if (text->type != HWFIT__JSON_OBJECT)
            return fail_at(&r, HWFIT_EPARSE, text, "key 'text_config' must be an object, got %s",
                           hwfit__json_type_name(text->type));
        /* Follow the text model: its own model_type, or gemma3_text inside gemma3. */
        r.obj = text;
        const char *inner = NULL;
        int present = 0;
        HWFIT__TRY(hwfit__json_read_string(&r.ctx, text, "model_type", 0, &inner, &present));
        if (present) {
            type = inner;
            type_v = hwfit__json_get(text, "model_type");
        } else if (strcmp(type, "gemma3") == 0) {
            type = "gemma3_text";
        } else if (strcmp(type, "llama4") == 0) {
            type = "llama4_text";
        }
    } else if (strcmp(type, "gemma3") == 0 || strcmp(type, "llama4") == 0) {
        /* Gemma3Config / Llama4Config without text_config: the default text config */
        type = strcmp(type, "gemma3") == 0 ? "gemma3_text" : "llama4_text";
        static const hwfit__json_value empty = {.type = HWFIT__JSON_OBJECT, .u.object = {NULL, 0}};
        r.obj = &empty;
    }
    for (size_t i = 0; i < sizeof archs / sizeof archs[0]; i++)
        if (strcmp(type, archs[i].type) == 0) return read_model(&r, &archs[i], m);
    return fail_at(&r, HWFIT_EUNSUPPORTED, type_v,
                   "model_type \"%.60s\" is not supported (supported: " SUPPORTED ")", type);
}

hwfit_status hwfit_hf_config_parse(const char *text, size_t length, const char *name,
                                   hwfit_model *out, hwfit_error *err) {
    const char *where = name ? name : "config.json";
    if (text == NULL || out == NULL)
        return hwfit__error_set(err, HWFIT_EINVAL, 0, 0, 0, "%s: NULL text or model", where);
    hwfit__json_doc *doc = NULL;
    hwfit_status st =
        hwfit__json_parse_file_text(text, length, HWFIT_HF_CONFIG_MAX_BYTES, where, &doc, err);
    if (st != HWFIT_OK) return st;
    hwfit_model m;
    st = read_root(hwfit__json_root(doc), where, &m, err);
    /* The formats the checkpoint stores (hf_quant.c): quantization_config, torch_dtype. */
    if (st == HWFIT_OK) st = hwfit__hf_quant_read(hwfit__json_root(doc), where, &m.stored, err);
    hwfit__json_free(doc);
    if (st != HWFIT_OK) return st;
    memcpy(out, &m, sizeof m);
    hwfit_error_clear(err);
    return HWFIT_OK;
}

hwfit_status hwfit_hf_config_load(const char *path, hwfit_model *out, hwfit_error *err) {
    if (path == NULL || out == NULL)
        return hwfit__error_set(err, HWFIT_EINVAL, 0, 0, 0, "NULL path or model");
    char *data = NULL;
    size_t length = 0;
    hwfit_status st = hwfit__read_file(path, HWFIT_HF_CONFIG_MAX_BYTES, &data, &length, err);
    if (st != HWFIT_OK) return st;
    st = hwfit_hf_config_parse(data, length, path, out, err);
    free(data);
    return st;
}

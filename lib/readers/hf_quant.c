/* hf_quant.c - the formats a checkpoint stores its weights in: quantization_config and
 * torch_dtype of a config.json (hf_quant.h; byte layouts in dtype.c and docs/formulas.md,
 * "stored weights"). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hwfit/dtype.h"
#include "hwfit/hf_quant.h"
#include "hwfit/model.h"
#include "hwfit/status.h"

#include "base/checked.h"
#include "base/internal.h"
#include "readers/hf_quant_internal.h"
#include "readers/json.h"

/* Per matrix (HWFIT_KEPT_*), the layers a module list names one by one: a bit per layer
 * below KEPT_MAX_LAYERS (a layer named twice, "model.layers.1.mlp" and
 * "model.layers.1.mlp.down_proj", counts once). */
#define KEPT_MAX_LAYERS 1024
typedef struct kept_bits {
    uint64_t b[HWFIT_KEPT_MATRICES][KEPT_MAX_LAYERS / 64];
} kept_bits;

typedef struct qreader {
    hwfit__json_ctx ctx;
    const char *where;
    kept_bits *kb; /* where module lists record single layers' matrices */
} qreader;

#define fail_at(q, st, v, ...) hwfit__json_fail_at((q)->ctx.err, (q)->where, st, v, __VA_ARGS__)

/* Module kinds a name or pattern covers: which linear weights a method leaves in (or, for
 * compressed-tensors targets, takes to) another format. */
enum { MOD_ATTN = 1u, MOD_MLP = 2u, MOD_EXPERTS = 4u };

static int ends_with(const char *s, const char *tail) {
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

/* The matrices of one layer a name of that layer's attention or MLP covers (bits of
 * HWFIT_KEPT_*): "model.layers.37.self_attn.o_proj" the output projection,
 * "model.layers.1.mlp" gate, up and down, "model.layers.3" all of them. */
static unsigned layer_matrices(const char *rest) {
    enum { Q = 1u << HWFIT_KEPT_Q, K = 1u << HWFIT_KEPT_K, V = 1u << HWFIT_KEPT_V,
           O = 1u << HWFIT_KEPT_O, G = 1u << HWFIT_KEPT_GATE, U = 1u << HWFIT_KEPT_UP,
           D = 1u << HWFIT_KEPT_DOWN };
    if (strstr(rest, "attn") || strstr(rest, "attention")) {
        unsigned m = (strstr(rest, "qkv_proj") ? Q | K | V : 0u) |
                     (strstr(rest, "q_proj") ? Q : 0u) | (strstr(rest, "k_proj") ? K : 0u) |
                     (strstr(rest, "v_proj") ? V : 0u) | (strstr(rest, "o_proj") ? O : 0u);
        return m ? m : Q | K | V | O;
    }
    if (strstr(rest, "mlp") || strstr(rest, "proj")) {
        unsigned m = (strstr(rest, "gate_up_proj") ? G | U : 0u) |
                     (strstr(rest, "gate_proj") ? G : 0u) | (strstr(rest, "up_proj") ? U : 0u) |
                     (strstr(rest, "down_proj") ? D : 0u);
        return m ? m : G | U | D;
    }
    return Q | K | V | O | G | U | D;
}

/* The kinds a module name or pattern ("lm_head", "model.layers.*.self_attn",
 * "re:.*mlp.gate$", "gate") covers. Embeddings, heads, norms and routers are not linear
 * weights any method here quantizes: 0. A name of one layer ("model.layers.3.mlp") sets
 * *single; with kb its attention and MLP matrices are recorded for that layer alone (kb, 0
 * returned: Unsloth's Dynamic 4-bit checkpoints name a few layers' modules), and its experts,
 * or any of it without kb, count for every layer (an upper bound on what is kept). */
static unsigned classify(const char *name, int *single, kept_bits *kb) {
    const char *l = strstr(name, "layers.");
    if (l != NULL && l[7] >= '0' && l[7] <= '9') {
        *single = 1;
        unsigned long layer = 0;
        const char *p = l + 7;
        while (*p >= '0' && *p <= '9' && layer < KEPT_MAX_LAYERS)
            layer = layer * 10 + (unsigned long)(*p++ - '0');
        if (kb != NULL && layer < KEPT_MAX_LAYERS && !strstr(name, "expert")) {
            unsigned m = layer_matrices(p);
            for (int k = 0; k < HWFIT_KEPT_MATRICES; k++)
                if (m & (1u << k)) kb->b[k][layer / 64] |= 1ull << (layer % 64);
            return 0;
        }
    }
    if (strstr(name, "shared_expert")) return MOD_MLP;
    if (strstr(name, "expert")) return MOD_EXPERTS;
    if (strstr(name, "attn") || strstr(name, "attention")) return MOD_ATTN;
    if (strstr(name, "gate_proj") || strstr(name, "up_proj") || strstr(name, "down_proj") ||
        strstr(name, "gate_up_proj") || strstr(name, ".w1") || strstr(name, ".w2") ||
        strstr(name, ".w3"))
        return MOD_MLP;
    if (ends_with(name, "mlp") || ends_with(name, "mlp$") || ends_with(name, "mlp.*") ||
        ends_with(name, "mlp.*$"))
        return MOD_MLP | MOD_EXPERTS;
    return 0;
}

/* A list of module names (absent or null: none): the kinds they cover. */
static hwfit_status read_modules(const qreader *q, const hwfit__json_value *obj, const char *key,
                                 unsigned *kinds, int *single) {
    const hwfit__json_value *v = hwfit__json_get(obj, key);
    if (v == NULL || v->type == HWFIT__JSON_NULL) return HWFIT_OK;
    if (v->type != HWFIT__JSON_ARRAY)
        return fail_at(q, HWFIT_EPARSE, v, "key '%s' must be a list of module names, got %s", key,
                       hwfit__json_type_name(v->type));
    for (size_t i = 0; i < v->u.array.count; i++) {
        const hwfit__json_value *it = &v->u.array.items[i];
        if (it->type != HWFIT__JSON_STRING)
            return fail_at(q, HWFIT_EPARSE, it, "key '%s' must hold module names, got %s", key,
                           hwfit__json_type_name(it->type));
        *kinds |= classify(it->u.string.text, single, q->kb);
    }
    return HWFIT_OK;
}

/* A whole-number key in [lo, hi] (absent or null: def). */
static hwfit_status get_u64(const qreader *q, const hwfit__json_value *obj, const char *key,
                            uint64_t lo, uint64_t hi, uint64_t def, uint64_t *out) {
    const hwfit__json_value *v = hwfit__json_get(obj, key);
    *out = def;
    if (v == NULL || v->type == HWFIT__JSON_NULL) return HWFIT_OK;
    return hwfit__json_read_u64(&q->ctx, obj, key, 0, lo, hi, out, NULL);
}

static hwfit_status get_bool(const qreader *q, const hwfit__json_value *obj, const char *key,
                             int def, int *out) {
    const hwfit__json_value *v = hwfit__json_get(obj, key);
    *out = def;
    if (v == NULL || v->type == HWFIT__JSON_NULL) return HWFIT_OK;
    return hwfit__json_read_bool(&q->ctx, obj, key, 0, out, NULL);
}

/* A string key (absent or null: def). */
static hwfit_status get_str(const qreader *q, const hwfit__json_value *obj, const char *key,
                            const char *def, const char **out) {
    const hwfit__json_value *v = hwfit__json_get(obj, key);
    *out = def;
    if (v == NULL || v->type == HWFIT__JSON_NULL) return HWFIT_OK;
    return hwfit__json_read_string(&q->ctx, obj, key, 0, out, NULL);
}

/* GPTQ/AWQ group_size: a positive group, or -1 (one group per row), which no format here
 * describes. */
static hwfit_status read_group(const qreader *q, const hwfit__json_value *obj, const char *key,
                               const char *method, uint32_t *group) {
    const hwfit__json_value *v = hwfit__json_get(obj, key);
    if (v != NULL && v->type == HWFIT__JSON_NUMBER && v->u.number.value < 0)
        return fail_at(q, HWFIT_EUNSUPPORTED, v,
                       "quantization_config.%s %g (%s, one group per row) is not supported: "
                       "give --weights", key, v->u.number.value, method);
    uint64_t g;
    HWFIT__TRY(get_u64(q, obj, key, 1, HWFIT_DTYPE_MAX_GROUP, HWFIT_DTYPE_INT4_DEFAULT_GROUP, &g));
    *group = (uint32_t)g;
    return HWFIT_OK;
}

/* bits: 4 only (int4-gG); anything else is named. */
static hwfit_status read_bits4(const qreader *q, const hwfit__json_value *obj, const char *key,
                               const char *method) {
    uint64_t bits;
    HWFIT__TRY(get_u64(q, obj, key, 1, 64, 4, &bits));
    if (bits != 4)
        return fail_at(q, HWFIT_EUNSUPPORTED, hwfit__json_get(obj, key),
                       "quantization_config.%s %llu (%s) is not supported: only 4-bit weights "
                       "have a format (int4-gG); give --weights",
                       key, (unsigned long long)bits, method);
    return HWFIT_OK;
}

/* Two equal positive sizes [t, t] with t = 128 (the one tile format), else refused. */
static hwfit_status read_block(const qreader *q, const hwfit__json_value *v, const char *key) {
    int ok = v->type == HWFIT__JSON_ARRAY && v->u.array.count == 2;
    for (size_t i = 0; ok && i < 2; i++) {
        const hwfit__json_value *it = &v->u.array.items[i];
        ok = it->type == HWFIT__JSON_NUMBER && it->u.number.is_integer &&
             it->u.number.integer == 128;
    }
    if (!ok)
        return fail_at(q, HWFIT_EUNSUPPORTED, v,
                       "quantization_config.%s is not supported: only [128, 128] blocks have a "
                       "format (fp8-b128); give --weights", key);
    return HWFIT_OK;
}

/* compressed-tensors: the weights scheme of one config group as a format. */
static hwfit_status ct_scheme(const qreader *q, const hwfit__json_value *w, const char *group,
                              hwfit_dtype *d, char *text, size_t size) {
    const char *type = NULL, *strategy = NULL;
    uint64_t bits = 0;
    HWFIT__TRY(get_str(q, w, "type", "int", &type));
    HWFIT__TRY(get_str(q, w, "strategy", "tensor", &strategy));
    HWFIT__TRY(get_u64(q, w, "num_bits", 1, 64, 8, &bits));
    int is_float = strcmp(type, "float") == 0, is_int = strcmp(type, "int") == 0;
    if (is_float && bits == 8 && strcmp(strategy, "tensor") == 0) {
        *d = hwfit_dtype_make(HWFIT_DTYPE_FP8_E4M3);
        snprintf(text, size, "fp8 per tensor");
    } else if (is_float && bits == 8 && strcmp(strategy, "channel") == 0) {
        *d = hwfit_dtype_make(HWFIT_DTYPE_FP8_CH);
        snprintf(text, size, "fp8 per channel");
    } else if (is_float && bits == 8 && strcmp(strategy, "block") == 0) {
        const hwfit__json_value *b = hwfit__json_get(w, "block_structure");
        if (b == NULL) return fail_at(q, HWFIT_EPARSE, w, "config group '%s': strategy block "
                                      "without block_structure", group);
        HWFIT__TRY(read_block(q, b, "config_groups.weights.block_structure"));
        *d = hwfit_dtype_make(HWFIT_DTYPE_FP8_B128);
        snprintf(text, size, "fp8 block 128x128");
    } else if (is_float && bits == 4 &&
               (strcmp(strategy, "tensor_group") == 0 || strcmp(strategy, "group") == 0)) {
        uint64_t g;
        HWFIT__TRY(get_u64(q, w, "group_size", 1, HWFIT_DTYPE_MAX_GROUP, 16, &g));
        if (g != 16)
            return fail_at(q, HWFIT_EUNSUPPORTED, hwfit__json_get(w, "group_size"),
                           "config group '%s': fp4 with group_size %llu is not supported "
                           "(nvfp4 has 16); give --weights", group, (unsigned long long)g);
        *d = hwfit_dtype_make(HWFIT_DTYPE_NVFP4);
        snprintf(text, size, "nvfp4");
    } else if (is_int && bits == 8 && strcmp(strategy, "tensor") == 0) {
        *d = hwfit_dtype_make(HWFIT_DTYPE_INT8);
        snprintf(text, size, "int8 per tensor");
    } else if (is_int && bits == 8 && strcmp(strategy, "channel") == 0) {
        *d = hwfit_dtype_make(HWFIT_DTYPE_INT8_CH);
        snprintf(text, size, "int8 per channel");
    } else if (is_int && bits == 4 && strcmp(strategy, "group") == 0) {
        uint64_t g;
        HWFIT__TRY(get_u64(q, w, "group_size", 1, HWFIT_DTYPE_MAX_GROUP, 128, &g));
        d->id = HWFIT_DTYPE_INT4;
        d->group_size = (uint32_t)g;
        snprintf(text, size, "int4 group %llu", (unsigned long long)g);
    } else {
        return fail_at(q, HWFIT_EUNSUPPORTED, w,
                       "config group '%s': weights of type %.16s, num_bits %llu, strategy %.16s "
                       "are not supported; give --weights",
                       group, type, (unsigned long long)bits, strategy);
    }
    return HWFIT_OK;
}

static int same(hwfit_dtype a, hwfit_dtype b) {
    return a.id == b.id && a.group_size == b.group_size;
}

/* compressed-tensors: config_groups (one weights scheme; targets "Linear" or module
 * patterns) and ignore. */
static hwfit_status read_ct(const qreader *q, const hwfit__json_value *qc, hwfit_dtype *d,
                            unsigned *targeted, unsigned *kept, int *single) {
    const hwfit__json_value *groups = hwfit__json_get(qc, "config_groups");
    if (groups == NULL || groups->type != HWFIT__JSON_OBJECT)
        return fail_at(q, HWFIT_EPARSE, groups ? groups : qc,
                       "quantization_config.config_groups must be an object (compressed-tensors)");
    int any = 0;
    for (size_t i = 0; i < groups->u.object.count; i++) {
        const hwfit__json_member *g = &groups->u.object.members[i];
        if (g->value.type != HWFIT__JSON_OBJECT)
            return fail_at(q, HWFIT_EPARSE, &g->value, "config group '%s' must be an object",
                           g->key);
        const hwfit__json_value *w = hwfit__json_get(&g->value, "weights");
        if (w == NULL || w->type == HWFIT__JSON_NULL) continue; /* activations only */
        if (w->type != HWFIT__JSON_OBJECT)
            return fail_at(q, HWFIT_EPARSE, w, "config group '%s': 'weights' must be an object",
                           g->key);
        hwfit_dtype gd = *d; /* set by ct_scheme (gcc -O2 cannot tell) */
        char gt[48];
        HWFIT__TRY(ct_scheme(q, w, g->key, &gd, gt, sizeof gt));
        if (any && !same(gd, *d))
            return fail_at(q, HWFIT_EUNSUPPORTED, w,
                           "config group '%s' stores weights as %s, another group otherwise: "
                           "several weight formats are not supported; give --weights",
                           g->key, gt);
        *d = gd;
        any = 1;
        const hwfit__json_value *t = hwfit__json_get(&g->value, "targets");
        if (t != NULL && t->type == HWFIT__JSON_ARRAY) {
            for (size_t k = 0; k < t->u.array.count; k++) {
                const hwfit__json_value *it = &t->u.array.items[k];
                if (it->type != HWFIT__JSON_STRING) continue;
                if (strcmp(it->u.string.text, "Linear") == 0)
                    *targeted |= MOD_ATTN | MOD_MLP | MOD_EXPERTS;
                else
                    *targeted |= classify(it->u.string.text, single, NULL);
            }
        } else {
            *targeted |= MOD_ATTN | MOD_MLP | MOD_EXPERTS;
        }
    }
    if (!any)
        return fail_at(q, HWFIT_EUNSUPPORTED, groups,
                       "quantization_config.config_groups quantize no weights (activations "
                       "only): give --weights");
    return read_modules(q, qc, "ignore", kept, single);
}

/* The checkpoint dtype: torch_dtype, else dtype (transformers 4.56+), at the top or in
 * text_config. */
static hwfit_status read_checkpoint(const qreader *q, const hwfit__json_value *root,
                                    hwfit_model_stored *s) {
    static const char *const keys[] = {"torch_dtype", "dtype"};
    const hwfit__json_value *objs[2] = {root, hwfit__json_get(root, "text_config")};
    for (int o = 0; o < 2; o++) {
        if (objs[o] == NULL || objs[o]->type != HWFIT__JSON_OBJECT) continue;
        for (int k = 0; k < 2; k++) {
            const hwfit__json_value *v = hwfit__json_get(objs[o], keys[k]);
            if (v == NULL || v->type == HWFIT__JSON_NULL) continue;
            if (v->type != HWFIT__JSON_STRING)
                return fail_at(q, HWFIT_EPARSE, v, "key '%s' must be a string, got %s", keys[k],
                               hwfit__json_type_name(v->type));
            const char *t = v->u.string.text;
            if (strcmp(t, "auto") == 0) return HWFIT_OK;
            hwfit_dtype d;
            if ((strcmp(t, "float32") != 0 && strcmp(t, "float16") != 0 &&
                 strcmp(t, "bfloat16") != 0) ||
                hwfit_dtype_parse(t, &d) != HWFIT_OK)
                return fail_at(q, HWFIT_EUNSUPPORTED, v,
                               "%s \"%.40s\" is not supported (float32, float16 or bfloat16)",
                               keys[k], t);
            s->checkpoint = d;
            s->flags |= HWFIT_STORED_DTYPE_GIVEN;
            return HWFIT_OK;
        }
    }
    return HWFIT_OK;
}

hwfit_status hwfit__hf_quant_read(const hwfit__json_value *root, const char *where,
                                  hwfit_model_stored *out, hwfit_error *err) {
    qreader q;
    kept_bits kb;
    memset(&kb, 0, sizeof kb);
    q.kb = &kb;
    q.ctx.where = where;
    q.ctx.null_is_absent = 1;
    q.ctx.err = err;
    q.where = where;
    if (root == NULL || root->type != HWFIT__JSON_OBJECT)
        return fail_at(&q, HWFIT_EPARSE, root, "a config must be a JSON object");
    hwfit_model_stored s;
    memset(&s, 0, sizeof s);
    s.method = HWFIT_MODEL_QUANT_NONE;
    s.checkpoint = hwfit_dtype_make(HWFIT_DTYPE_BF16);
    HWFIT__TRY(read_checkpoint(&q, root, &s));
    s.attention = s.mlp = s.experts = s.checkpoint;
    const hwfit__json_value *qc = hwfit__json_get(root, "quant_method") != NULL
                                      ? root
                                      : hwfit__json_get(root, "quantization_config");
    if (qc == NULL || qc->type == HWFIT__JSON_NULL) {
        *out = s;
        return HWFIT_OK;
    }
    if (qc->type != HWFIT__JSON_OBJECT)
        return fail_at(&q, HWFIT_EPARSE, qc, "key 'quantization_config' must be an object, got %s",
                       hwfit__json_type_name(qc->type));
    const char *method = NULL;
    HWFIT__TRY(hwfit__json_read_string(&q.ctx, qc, "quant_method", 1, &method, NULL));
    const hwfit__json_value *mv = hwfit__json_get(qc, "quant_method");

    hwfit_dtype d = s.checkpoint;
    unsigned targeted = MOD_ATTN | MOD_MLP | MOD_EXPERTS, kept = 0;
    int single = 0;
    if (strcmp(method, "fp8") == 0) {
        s.method = HWFIT_MODEL_QUANT_FP8;
        const char *fmt;
        HWFIT__TRY(get_str(&q, qc, "fmt", "e4m3", &fmt));
        if (strcmp(fmt, "e4m3") != 0)
            return fail_at(&q, HWFIT_EUNSUPPORTED, hwfit__json_get(qc, "fmt"),
                           "quantization_config.fmt \"%.16s\" (fp8) is not supported: only "
                           "e4m3; give --weights", fmt);
        const hwfit__json_value *b = hwfit__json_get(qc, "weight_block_size");
        if (b != NULL && b->type != HWFIT__JSON_NULL) {
            HWFIT__TRY(read_block(&q, b, "weight_block_size"));
            d = hwfit_dtype_make(HWFIT_DTYPE_FP8_B128);
        } else {
            /* vLLM's Fp8Config: no weight_block_size is one scale per tensor. */
            d = hwfit_dtype_make(HWFIT_DTYPE_FP8_E4M3);
        }
        HWFIT__TRY(read_modules(&q, qc, "modules_to_not_convert", &kept, &single));
    } else if (strcmp(method, "fbgemm_fp8") == 0) {
        s.method = HWFIT_MODEL_QUANT_FBGEMM_FP8;
        d = hwfit_dtype_make(HWFIT_DTYPE_FP8_CH);
        HWFIT__TRY(read_modules(&q, qc, "modules_to_not_convert", &kept, &single));
    } else if (strcmp(method, "gptq") == 0 || strcmp(method, "awq") == 0) {
        int gptq = method[0] == 'g';
        s.method = gptq ? HWFIT_MODEL_QUANT_GPTQ : HWFIT_MODEL_QUANT_AWQ;
        HWFIT__TRY(read_bits4(&q, qc, "bits", method));
        uint32_t group = 0; /* set by read_group (gcc -O2 cannot tell) */
        HWFIT__TRY(read_group(&q, qc, "group_size", method, &group));
        d.id = HWFIT_DTYPE_INT4;
        d.group_size = group;
        int flag = 0;
        if (gptq) {
            HWFIT__TRY(get_bool(&q, qc, "desc_act", 0, &flag));
            if (flag) s.flags |= HWFIT_STORED_ACT_ORDER;
        } else {
            HWFIT__TRY(get_bool(&q, qc, "zero_point", 1, &flag));
            if (!flag) s.flags |= HWFIT_STORED_NO_ZERO;
        }
        HWFIT__TRY(read_modules(&q, qc, "modules_to_not_convert", &kept, &single));
    } else if (strcmp(method, "bitsandbytes") == 0) {
        s.method = HWFIT_MODEL_QUANT_BITSANDBYTES;
        int four = 0, eight = 0, dq = 0;
        HWFIT__TRY(get_bool(&q, qc, "load_in_4bit", 0, &four));
        if (!four) HWFIT__TRY(get_bool(&q, qc, "_load_in_4bit", 0, &four));
        HWFIT__TRY(get_bool(&q, qc, "load_in_8bit", 0, &eight));
        if (!eight) HWFIT__TRY(get_bool(&q, qc, "_load_in_8bit", 0, &eight));
        if (four) {
            const char *type;
            /* transformers BitsAndBytesConfig: bnb_4bit_quant_type defaults to "fp4". Both
             * types store 4-bit codes and one absmax per 64 values: the same bytes. */
            HWFIT__TRY(get_str(&q, qc, "bnb_4bit_quant_type", "fp4", &type));
            if (strcmp(type, "nf4") != 0 && strcmp(type, "fp4") != 0)
                return fail_at(&q, HWFIT_EUNSUPPORTED, hwfit__json_get(qc, "bnb_4bit_quant_type"),
                               "quantization_config.bnb_4bit_quant_type \"%.16s\" is not "
                               "supported (nf4 or fp4)", type);
            HWFIT__TRY(get_bool(&q, qc, "bnb_4bit_use_double_quant", 0, &dq));
            d = hwfit_dtype_make(dq ? HWFIT_DTYPE_NF4_DQ : HWFIT_DTYPE_NF4);
            if (strcmp(type, "fp4") == 0) s.flags |= HWFIT_STORED_BNB_FP4;
        } else if (eight) {
            d = hwfit_dtype_make(HWFIT_DTYPE_INT8_CH);
        } else {
            return fail_at(&q, HWFIT_EUNSUPPORTED, qc,
                           "quantization_config (bitsandbytes): neither load_in_4bit nor "
                           "load_in_8bit is true; give --weights");
        }
        HWFIT__TRY(read_modules(&q, qc, "llm_int8_skip_modules", &kept, &single));
    } else if (strcmp(method, "mxfp4") == 0) {
        /* transformers' Mxfp4 replaces the experts only (gpt-oss: *_blocks and *_scales). */
        s.method = HWFIT_MODEL_QUANT_MXFP4;
        d = hwfit_dtype_make(HWFIT_DTYPE_MXFP4);
        targeted = MOD_EXPERTS;
        HWFIT__TRY(read_modules(&q, qc, "modules_to_not_convert", &kept, &single));
    } else if (strcmp(method, "compressed-tensors") == 0) {
        s.method = HWFIT_MODEL_QUANT_COMPRESSED;
        targeted = 0;
        HWFIT__TRY(read_ct(&q, qc, &d, &targeted, &kept, &single));
    } else {
        return fail_at(&q, HWFIT_EUNSUPPORTED, mv,
                       "quantization_config.quant_method \"%.40s\" is not supported (fp8, "
                       "fbgemm_fp8, gptq, awq, bitsandbytes, mxfp4, compressed-tensors); give "
                       "--weights", method);
    }
    unsigned q_mods = targeted & ~kept;
    if (q_mods & MOD_ATTN) s.attention = d;
    if (q_mods & MOD_MLP) s.mlp = d;
    if (q_mods & MOD_EXPERTS) s.experts = d;
    if (q_mods) s.flags |= HWFIT_STORED_QUANTIZED;
    if (single) s.flags |= HWFIT_STORED_SINGLE_LAYER;
    /* Single layers' matrices kept: counted where their kind is quantized. */
    for (int k = 0; k < HWFIT_KEPT_MATRICES; k++) {
        uint32_t n = 0;
        for (int w = 0; w < KEPT_MAX_LAYERS / 64; w++)
            for (uint64_t x = kb.b[k][w]; x; x &= x - 1) n++;
        s.kept_layers[k] = (uint16_t)((q_mods & (k <= HWFIT_KEPT_O ? MOD_ATTN : MOD_MLP)) ? n : 0);
    }
    *out = s;
    return HWFIT_OK;
}

const char *hwfit_hf_quant_method_name(hwfit_model_quant method) {
    static const char *const names[] = {"none", "fp8", "fbgemm_fp8", "gptq", "awq",
                                        "bitsandbytes", "mxfp4", "compressed-tensors"};
    return (unsigned)method < sizeof names / sizeof names[0] ? names[method] : "unknown";
}

hwfit_status hwfit_hf_quant_describe(const hwfit_model_stored *stored, char *buf, size_t size) {
    if (stored == NULL || buf == NULL) return HWFIT_EINVAL;
    char ck[HWFIT_DTYPE_NAME_SIZE], w[HWFIT_DTYPE_NAME_SIZE];
    const hwfit_model_stored *s = stored;
    /* The format the method gave: the first module kind that has it. */
    hwfit_dtype q = !same(s->attention, s->checkpoint) ? s->attention
                    : !same(s->mlp, s->checkpoint)     ? s->mlp
                                                       : s->experts;
    if (hwfit_dtype_format(s->checkpoint, ck, sizeof ck) != HWFIT_OK ||
        hwfit_dtype_format(q, w, sizeof w) != HWFIT_OK)
        return HWFIT_EINVAL;
    unsigned f = s->flags;
    const char *what = "";
    switch (q.id) {
    case HWFIT_DTYPE_FP8_B128: what = "fp8 block 128x128"; break;
    case HWFIT_DTYPE_FP8_CH: what = "fp8 per channel"; break;
    case HWFIT_DTYPE_FP8_E4M3: what = "fp8 per tensor"; break;
    case HWFIT_DTYPE_INT8_CH: what = "int8 per channel"; break;
    case HWFIT_DTYPE_INT8: what = "int8 per tensor"; break;
    case HWFIT_DTYPE_INT4: what = q.group_size == 32 ? "int4 group 32" : q.group_size == 64 ? "int4 group 64" : q.group_size == 128 || q.group_size == 0 ? "int4 group 128" : "int4 grouped"; break;
    case HWFIT_DTYPE_NF4: what = (f & HWFIT_STORED_BNB_FP4) ? "4-bit fp4" : "4-bit nf4"; break;
    case HWFIT_DTYPE_NF4_DQ:
        what = (f & HWFIT_STORED_BNB_FP4) ? "4-bit fp4, double quant" : "4-bit nf4, double quant";
        break;
    case HWFIT_DTYPE_MXFP4: what = "mxfp4"; break;
    case HWFIT_DTYPE_NVFP4: what = "nvfp4"; break;
    default: what = "quantized"; break;
    }
    int n;
    if (s->method == HWFIT_MODEL_QUANT_NONE || !(f & HWFIT_STORED_QUANTIZED)) {
        /* snprintf(buf, size, "%s%s, not quantized", ...) joined by hand: every memory
         * request of an unquantized model describes it twice (issue 19). */
        const char *parts[3] = {ck, (f & HWFIT_STORED_DTYPE_GIVEN) ? "" : " (default)",
                                ", not quantized"};
        size_t len = 0;
        for (int k = 0; k < 3; k++) {
            size_t pl = strlen(parts[k]);
            if (len < size) {
                size_t room = size - 1 - len;
                memcpy(buf + len, parts[k], pl < room ? pl : room);
            }
            len += pl;
        }
        if (size > 0) buf[len < size ? len : size - 1] = '\0';
        n = (int)len;
    } else {
        char kinds[64];
        snprintf(kinds, sizeof kinds, "%s%s%s",
                 same(s->attention, q) ? " attention" : "", same(s->mlp, q) ? " mlp" : "",
                 same(s->experts, q) ? " experts" : "");
        n = snprintf(buf, size, "%s %s (%s:%s)%s%s%s; the rest %s%s",
                     hwfit_hf_quant_method_name(s->method), what, w, kinds,
                     (f & HWFIT_STORED_ACT_ORDER) ? ", act-order" : "",
                     (f & HWFIT_STORED_NO_ZERO) ? ", no zero points" : "",
                     (f & HWFIT_STORED_SINGLE_LAYER) ? ", some single layers kept" : "",
                     ck, (f & HWFIT_STORED_DTYPE_GIVEN) ? "" : " (default)");
    }
    if (n < 0 || (size_t)n >= size) return HWFIT_EBUFSIZE;
    return HWFIT_OK;
}

hwfit_status hwfit_hf_quant_parse(const char *text, size_t length, const char *name,
                                  hwfit_model_stored *out, hwfit_error *err) {
    const char *where = name ? name : "config.json";
    if (text == NULL || out == NULL)
        return hwfit__error_set(err, HWFIT_EINVAL, 0, 0, 0, "%s: NULL text or output", where);
    hwfit__json_doc *doc = NULL;
    hwfit_status st =
        hwfit__json_parse_file_text(text, length, HWFIT_HF_QUANT_MAX_BYTES, where, &doc, err);
    if (st != HWFIT_OK) return st;
    hwfit_model_stored s;
    st = hwfit__hf_quant_read(hwfit__json_root(doc), where, &s, err);
    hwfit__json_free(doc);
    if (st != HWFIT_OK) return st;
    *out = s;
    hwfit_error_clear(err);
    return HWFIT_OK;
}

hwfit_status hwfit_hf_quant_kept_layers(const char *names, uint32_t layers,
                                        uint16_t kept[HWFIT_KEPT_MATRICES]) {
    if (names == NULL || kept == NULL || layers == 0 || layers > KEPT_MAX_LAYERS)
        return HWFIT_EINVAL;
    kept_bits kb;
    memset(&kb, 0, sizeof kb);
    char name[256];
    const char *p = names;
    while (*p) {
        while (*p == ',' || *p == ' ' || *p == '\t') p++;
        size_t n = 0;
        while (p[n] && p[n] != ',' && p[n] != ' ' && p[n] != '\t') n++;
        if (n == 0) break;
        if (n >= sizeof name) return HWFIT_EPARSE;
        memcpy(name, p, n);
        name[n] = '\0';
        p += n;
        int single = 0;
        /* A name of every layer's attention or MLP is a kind's format (--attention-weights,
         * --mlp-weights), not single layers: refused. Heads, embeddings, projectors: 0. */
        if (classify(name, &single, &kb) != 0) return HWFIT_EPARSE;
    }
    /* A layer the model does not have: the list is of another model (refused, not counted
     * as one of this model's layers). */
    for (int k = 0; k < HWFIT_KEPT_MATRICES; k++)
        for (uint32_t w = layers / 64; w < KEPT_MAX_LAYERS / 64; w++) {
            uint64_t above = w == layers / 64 ? ~0ull << (layers % 64) : ~0ull;
            if (kb.b[k][w] & above) return HWFIT_EDOM;
        }
    for (int k = 0; k < HWFIT_KEPT_MATRICES; k++) {
        uint32_t c = 0;
        for (int w = 0; w < KEPT_MAX_LAYERS / 64; w++)
            for (uint64_t x = kb.b[k][w]; x; x &= x - 1) c++;
        kept[k] = (uint16_t)c;
    }
    return HWFIT_OK;
}

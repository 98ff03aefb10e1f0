/* memory.c - the footprint of one workload on one device (docs/formulas.md, "memory"). */
#include <math.h> /* HUGE_VAL */
#include <string.h>

#include "hwfit/dtype.h"
#include "hwfit/memory.h"
#include "hwfit/model.h"
#include "hwfit/status.h"

#include "base/checked.h"
#include "base/internal.h"
#include "catalogs/dtype_internal.h"
#include "domains/memory_internal.h"
#include "domains/model_internal.h"

_Static_assert(HWFIT_LORA_Q == HWFIT__LORA_Q && HWFIT_LORA_K == HWFIT__LORA_K &&
                   HWFIT_LORA_V == HWFIT__LORA_V && HWFIT_LORA_O == HWFIT__LORA_O &&
                   HWFIT_LORA_GATE == HWFIT__LORA_GATE && HWFIT_LORA_UP == HWFIT__LORA_UP &&
                   HWFIT_LORA_DOWN == HWFIT__LORA_DOWN,
               "LoRA target bits of memory.h and model_internal.h differ");

/* LoRA/QLoRA recipes checkpoint every layer: PEFT prepare_model_for_kbit_training
 * (use_gradient_checkpointing=True), torchtune's LoRA/QLoRA configs
 * (enable_activation_checkpointing: True); docs/formulas.md. */
hwfit_memory_recompute hwfit_memory_recompute_default(hwfit_memory_mode mode) {
    return mode == HWFIT_MEMORY_LORA || mode == HWFIT_MEMORY_QLORA ? HWFIT_MEMORY_RECOMPUTE_FULL
                                                                    : HWFIT_MEMORY_RECOMPUTE_NONE;
}

int hwfit_memory_attention_flash(const hwfit_model *model, const hwfit_memory_in *in) {
    return in != NULL && hwfit__flash(model, in);
}

int hwfit_memory_attention(const hwfit_model *model, const hwfit_memory_in *in) {
    return in != NULL ? hwfit__attention(model, in) : HWFIT_ATTENTION_EAGER;
}

void hwfit_memory_init(hwfit_memory_in *in) {
    if (in == NULL) return;
    memset(in, 0, sizeof *in);
    in->mode = HWFIT_MEMORY_INFERENCE;
    in->weights = hwfit_dtype_make(HWFIT_DTYPE_BF16);
    in->unquantized = hwfit_dtype_make(HWFIT_DTYPE_BF16);
    in->keep_embeddings = 1;
    in->kv = hwfit_dtype_make(HWFIT_DTYPE_BF16);
    in->batch = 1;
    in->context = 4096;
    in->prefill_chunk = 2048;
    in->overhead_bytes = 1073741824.0; /* 1 GiB: see memory.h */
    in->micro_batch = 1;
    in->optimizer = HWFIT_MEMORY_ADAMW;
    in->gradients = hwfit_dtype_make(HWFIT_DTYPE_BF16);
    in->master_weights = 1;
    in->recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    in->flash_attention = 1;
    in->sdpa_gqa_math = 1;
    in->load_counted = 1;
    in->dropout = 1;
    in->activations = hwfit_dtype_make(HWFIT_DTYPE_BF16);
    in->tensor_parallel = 1;
    in->lora_rank = 16;
    in->lora_targets = HWFIT_LORA_ALL;
    in->lora_dtype = hwfit_dtype_make(HWFIT_DTYPE_BF16);
    in->qlora_base = hwfit_dtype_make(HWFIT_DTYPE_NF4_DQ);
    in->embedding = 1;
    in->head = 1;
    in->optimizer_states = hwfit_dtype_make(HWFIT_DTYPE_FP32);
    in->fused_optimizer = 1;
    in->loss = HWFIT_MEMORY_LOSS_FP32;
    in->loss_chunk_tokens = 2048; /* ms-swift's examples' CELOSS_PARALLEL_SIZE: see memory.h */
    in->attention_weights = hwfit_dtype_make(HWFIT_DTYPE_BF16);
    in->mlp_weights = hwfit_dtype_make(HWFIT_DTYPE_BF16);
    in->expert_weights = hwfit_dtype_make(HWFIT_DTYPE_BF16);
    in->selective = HWFIT_MEMORY_SELECTIVE_ATTENTION;
    in->expert_parallel = 1;
    in->eval_batch = 8; /* the HF Trainer's per_device_eval_batch_size: see memory.h */
    /* Unsloth's fused loss chunks as its current release sizes them (memory.h). */
    in->loss_target_bytes = 4294967296.0; /* unsloth_zoo since d9fe1f43: min(free/2, 4 GiB) */
    in->loss_free_share = 0.5;
    in->loss_chunks_round_up = 1;
    in->card_bytes = HUGE_VAL;
    in->loss_short = HWFIT_MEMORY_LOSS_INPLACE;
    in->eval_replay = 1; /* transformers' decoder layers: see memory.h */
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

#define HWFIT__LORA_ATTENTION_BITS (HWFIT__LORA_Q | HWFIT__LORA_K | HWFIT__LORA_V | HWFIT__LORA_O)
#define HWFIT__LORA_MLP_BITS (HWFIT__LORA_GATE | HWFIT__LORA_UP | HWFIT__LORA_DOWN)

/* ---- weights and adapters of one layer kind --------------------------------------------------- */

typedef struct formats {
    hwfit_dtype base;      /* linear weights */
    hwfit_dtype other;     /* vectors and small matrices when base is quantized */
    int base_quantized;
    int modules;           /* 1: attn, mlp and expert replace base for those matrices */
    hwfit_dtype attn, mlp, expert;
} formats;

static int same_dtype(hwfit_dtype a, hwfit_dtype b) {
    return a.id == b.id && a.group_size == b.group_size;
}

/* bytes[0]: all tensors; bytes[1]: of which the routed experts'. The formats are valid
 * (hwfit_memory_estimate checked them): each is resolved once. */
static hwfit_status tensors_bytes(const hwfit__tensor *t, size_t n, const formats *f,
                                  uint64_t bytes[2]) {
    hwfit__dtype_block base, other, attn, mlp, expert;
    hwfit_status st = hwfit__dtype_block_of(f->base, &base);
    if (st == HWFIT_OK) st = hwfit__dtype_block_of(f->base_quantized ? f->other : f->base, &other);
    if (st == HWFIT_OK && f->modules) {
        st = hwfit__dtype_block_of(f->attn, &attn);
        if (st == HWFIT_OK) st = hwfit__dtype_block_of(f->mlp, &mlp);
        if (st == HWFIT_OK) st = hwfit__dtype_block_of(f->expert, &expert);
    }
    if (st != HWFIT_OK) return st;
    uint64_t acc[2] = {0, 0};
    for (size_t i = 0; i < n; i++) {
        const hwfit__dtype_block *d = t[i].kind == HWFIT__TENSOR_LINEAR ? &base : &other;
        /* Per-module formats: the routed experts, the attention projections (LoRA bits
         * q, k, v, o) and the MLP matrices (gate, up, down: dense MLPs, shared experts). */
        if (f->modules && t[i].kind == HWFIT__TENSOR_LINEAR) {
            if (t[i].routed) d = &expert;
            else if (t[i].lora & HWFIT__LORA_ATTENTION_BITS) d = &attn;
            else if (t[i].lora & HWFIT__LORA_MLP_BITS) d = &mlp;
        }
        uint64_t b;
        st = hwfit__dtype_block_matrix_bytes(d, t[i].rows, t[i].cols, &b);
        if (st != HWFIT_OK) return st;
        if (hwfit__mac_u64(&acc[0], b, t[i].count) != HWFIT_OK ||
            (t[i].routed && hwfit__mac_u64(&acc[1], b, t[i].count) != HWFIT_OK))
            return HWFIT_ERANGE;
    }
    bytes[0] = acc[0];
    bytes[1] = acc[1];
    return HWFIT_OK;
}

/* LoRA (Hu et al. 2021): a targeted W (out x in) gains B (out x r) and A (r x in).
 * params[0]: all adapters; params[1]: of which on routed experts. qkv_one
 * (lora_qkv_one_dropout): the q, k and v adapters reading the same input width share one
 * dropout of it (LitGPT's LoRAQKVLinear), so outs[3] counts that input once.
 * fuse (HWFIT_MODEL_FUSED_* bits, lora_fuse): the projections one module holds, so one
 * adapter wraps them (lora_modules): B spans the module's outputs (the sum of its parts')
 * and one A its input, r x (in + out_1 + out_2 [+ out_3]); its dropout takes that input
 * once. The first part of a fused module counts r (in + out), each later part r out and no
 * dropout input: q then k and v (GQA, one each per layer), gate then up of the same part
 * (the dense MLP, the shared experts, and each routed expert: count E of each). The
 * targets are the effective ones (lora_targets_of): a fused module is targeted whole. */
static hwfit_status tensors_lora(const hwfit__tensor *t, size_t n, uint64_t rank,
                                 unsigned targets, unsigned fuse, int qkv_one,
                                 uint64_t params[2], uint64_t outs[4]) {
    uint64_t acc[2] = {0, 0}, o[4] = {0, 0, 0, 0}, qkv_cols = 0;
    const unsigned qkv = HWFIT__LORA_Q | HWFIT__LORA_K | HWFIT__LORA_V;
    int qkv_lead = 0; /* fused qkv: the first of q, k, v seen */
    for (size_t i = 0; i < n; i++) {
        if (t[i].kind != HWFIT__TENSOR_LINEAR || (t[i].lora & targets) == 0) continue;
        /* A later part of a fused module: it shares the first part's A and dropout. */
        int later = 0;
        if ((fuse & HWFIT_MODEL_FUSED_QKV) && (t[i].lora == HWFIT__LORA_Q ||
                                               t[i].lora == HWFIT__LORA_K ||
                                               t[i].lora == HWFIT__LORA_V)) {
            later = qkv_lead;
            qkv_lead = 1;
        } else if ((fuse & HWFIT_MODEL_FUSED_GATE_UP) && t[i].lora == HWFIT__LORA_UP) {
            for (size_t j = 0; j < i; j++)
                if (t[j].kind == HWFIT__TENSOR_LINEAR && t[j].lora == HWFIT__LORA_GATE &&
                    t[j].part == t[i].part && t[j].count == t[i].count &&
                    t[j].cols == t[i].cols && (t[j].lora & targets))
                    later = 1;
        }
        uint64_t per;
        if (hwfit__mul_u64(rank, t[i].rows + (later ? 0 : t[i].cols), &per) != HWFIT_OK ||
            hwfit__mac_u64(&acc[0], per, t[i].count) != HWFIT_OK ||
            (t[i].routed && hwfit__mac_u64(&acc[1], per, t[i].count) != HWFIT_OK) ||
            hwfit__mac_u64(&o[0], t[i].rows, t[i].count) != HWFIT_OK ||
            (t[i].routed && hwfit__mac_u64(&o[1], t[i].rows, t[i].count) != HWFIT_OK))
            return HWFIT_ERANGE;
        /* Output widths a token passes through: a routed expert's top-k of count. */
        if (!t[i].routed) {
            o[2] += t[i].rows * t[i].count;
            if (later) continue; /* the module's one dropout, counted with its first part */
            if (qkv_one && (t[i].lora & targets & qkv) && t[i].count == 1) {
                if (qkv_cols == t[i].cols) continue; /* the shared dropout, counted */
                if (qkv_cols == 0) qkv_cols = t[i].cols;
            }
            o[3] += t[i].cols * t[i].count;
        }
    }
    params[0] = acc[0];
    params[1] = acc[1];
    for (int j = 0; j < 4; j++) outs[j] = o[j];
    return HWFIT_OK;
}

/* The projections one LoRA adapter wraps together (HWFIT_MODEL_FUSED_* bits) for
 * lora_modules: none (separate), the checkpoint's (hwfit_model::fused_modules) or q/k/v
 * and gate/up (Megatron-Core). Fused q/k/v needs GQA attention (MLA's projections are
 * separate modules in every framework) and fused gate/up a gated MLP. */
static unsigned lora_fuse(const hwfit_model *m, hwfit_memory_lora_modules modules) {
    unsigned f = modules == HWFIT_MEMORY_LORA_MODULES_CHECKPOINT ? m->fused_modules
                 : modules == HWFIT_MEMORY_LORA_MODULES_FUSED    ? HWFIT_MODEL_FUSED_ALL
                                                                 : 0u;
    if (m->attention != HWFIT_MODEL_ATTENTION_GQA) f &= ~HWFIT_MODEL_FUSED_QKV;
    if (m->mlp != HWFIT_MODEL_MLP_GATED) f &= ~HWFIT_MODEL_FUSED_GATE_UP;
    return f & HWFIT_MODEL_FUSED_ALL;
}

/* The targets with every fused module a targeted part belongs to: the framework names the
 * module, so targeting q on a fused qkv adapts q, k and v. */
static unsigned lora_targets_of(unsigned targets, unsigned fuse) {
    const unsigned qkv = HWFIT__LORA_Q | HWFIT__LORA_K | HWFIT__LORA_V;
    const unsigned gate_up = HWFIT__LORA_GATE | HWFIT__LORA_UP;
    if ((fuse & HWFIT_MODEL_FUSED_QKV) && (targets & qkv)) targets |= qkv;
    if ((fuse & HWFIT_MODEL_FUSED_GATE_UP) && (targets & gate_up)) targets |= gate_up;
    return targets;
}

/* [0]: the layer; [1]: of which its routed experts. */
typedef struct kind_sums {
    uint64_t weights_bytes[2];
    uint64_t adapter_params[2];
    uint64_t lora_outs[4]; /* targeted output features: all, of which routed experts', and
                              per token through the non-routed ones (DoRA); [3]: input
                              features per token of the non-routed ones (LoRA dropout) */
} kind_sums;

/* Weights and adapters of one layer of a kind (HWFIT__KIND_*) of a prepared model. */
static hwfit_status kind(const hwfit__model_prep *prep, int k, const formats *f, uint64_t rank,
                         unsigned targets, unsigned fuse, int qkv_one, kind_sums *out) {
    const hwfit__tensor *t = prep->tensors[k];
    size_t n = prep->tensor_count[k];
    hwfit_status st = tensors_bytes(t, n, f, out->weights_bytes);
    if (st == HWFIT_OK && rank > 0) {
        st = tensors_lora(t, n, rank, targets, fuse, qkv_one, out->adapter_params,
                          out->lora_outs);
    } else {
        out->adapter_params[0] = out->adapter_params[1] = 0;
        out->lora_outs[0] = out->lora_outs[1] = out->lora_outs[2] = out->lora_outs[3] = 0;
    }
    return st;
}

/* kind() through a memo (NULL: no memo). */
/* outs: the caller needs lora_outs (DoRA, LoRA dropout): computed without the memo, which
 * keeps only what every estimate needs (the shard engine holds two memos on the stack);
 * qkv_one (lora_qkv_one_dropout) shapes only lora_outs. */
static hwfit_status kind_memo(const hwfit__model_prep *prep, int k, const formats *f,
                              uint64_t rank, unsigned targets, unsigned fuse,
                              hwfit__memory_memo *memo, int outs, int qkv_one, kind_sums *out) {
    if (memo == NULL || outs) return kind(prep, k, f, rank, targets, fuse, qkv_one, out);
    if (memo->base.id != f->base.id || memo->base.group_size != f->base.group_size ||
        memo->other.id != f->other.id || memo->other.group_size != f->other.group_size ||
        memo->base_quantized != f->base_quantized || memo->rank != rank ||
        memo->targets != targets || memo->fuse != fuse || memo->modules != f->modules ||
        (f->modules && (!same_dtype(memo->attn, f->attn) || !same_dtype(memo->mlp, f->mlp) ||
                        !same_dtype(memo->expert, f->expert)))) {
        hwfit__memory_memo_reset(memo);
        memo->base = f->base;
        memo->other = f->other;
        memo->base_quantized = f->base_quantized;
        memo->modules = f->modules;
        memo->attn = f->attn;
        memo->mlp = f->mlp;
        memo->expert = f->expert;
        memo->rank = rank;
        memo->targets = targets;
        memo->fuse = fuse;
    }
    if (!memo->valid[k]) {
        hwfit_status st = kind(prep, k, f, rank, targets, fuse, 0, out);
        if (st != HWFIT_OK) return st;
        for (int j = 0; j < 2; j++) {
            memo->weights_bytes[k][j] = out->weights_bytes[j];
            memo->adapter_params[k][j] = out->adapter_params[j];
        }
        memo->valid[k] = 1;
    }
    for (int j = 0; j < 2; j++) {
        out->weights_bytes[j] = memo->weights_bytes[k][j];
        out->adapter_params[j] = memo->adapter_params[k][j];
    }
    for (int j = 0; j < 4; j++) out->lora_outs[j] = 0;
    return HWFIT_OK;
}

hwfit_status hwfit_memory_lora_params(const hwfit_model *model, uint32_t rank, unsigned targets,
                                      uint64_t *params) {
    if (model == NULL || params == NULL) return HWFIT_EINVAL;
    hwfit__model_prep prep;
    hwfit_status st = hwfit__model_prepare(model, &prep);
    if (st != HWFIT_OK) return st;
    const hwfit_model_param_counts p = prep.params;
    if (rank == 0 || targets == 0 || (targets & ~HWFIT_LORA_ALL) != 0) return HWFIT_EDOM;
    formats f;
    memset(&f, 0, sizeof f);
    f.base = f.other = hwfit_dtype_make(HWFIT_DTYPE_BF16);
    kind_sums d, e;
    memset(&d, 0, sizeof d);
    memset(&e, 0, sizeof e);
    if (p.dense_layers &&
        (st = kind(&prep, HWFIT__KIND_DENSE, &f, rank, targets, 0, 0, &d)) != HWFIT_OK)
        return st;
    if (p.moe_layers &&
        (st = kind(&prep, HWFIT__KIND_MOE, &f, rank, targets, 0, 0, &e)) != HWFIT_OK)
        return st;
    uint64_t acc = 0;
    if (hwfit__mac_u64(&acc, d.adapter_params[0], p.dense_layers) != HWFIT_OK ||
        hwfit__mac_u64(&acc, e.adapter_params[0], p.moe_layers) != HWFIT_OK)
        return HWFIT_ERANGE;
    *params = acc;
    return HWFIT_OK;
}

/* ---- activations -------------------------------------------------------------------------------- */

typedef struct act_ctx {
    const hwfit_model *m;
    const hwfit_memory_in *in;
    hwfit__dims dims;
    uint64_t a_bytes; /* bytes per stored activation element (2 for bf16) */
    uint64_t t;       /* tensor-parallel ranks */
    uint64_t dora[2]; /* DoRA: base-output features kept per token, dense and MoE layers */
    uint64_t dora_w[2]; /* DoRA: the base weights' copies a layer keeps, bytes (dora_weights) */
    uint64_t drop[2]; /* LoRA dropout: input features copied per token, dense and MoE */
} act_ctx;

/* Products and sums that remember an overflow: each activation figure is a chain of them,
 * checked once at its end (HWFIT_ERANGE). A wrapped value is never used: on overflow the
 * chain's result is discarded. */
static uint64_t mul_c(uint64_t a, uint64_t b, int *overflow) {
    uint64_t r = 0;
    if (hwfit__mul_u64(a, b, &r) != HWFIT_OK) *overflow = 1;
    return r;
}

static uint64_t add_c(uint64_t a, uint64_t b, int *overflow) {
    uint64_t r = 0;
    if (hwfit__add_u64(a, b, &r) != HWFIT_OK) *overflow = 1;
    return r;
}

/* Widths (values per token) of the attention tensors the backward pass keeps: Korthikanti
 * et al. 2022 section 4.1 count Q and K (inputs of QK^T), V and the attention output (input of
 * the output projection); with GQA K and V are k heads wide. For MLA the same accounting
 * applies to its tensors: the q and kv latents (inputs of q_b and kv_b, and of their norms),
 * the up-projected per-head Q, K, V, and the attention output. Bounded by the model's
 * limits (heads and head dimensions below 2^25, or a x d <= hidden): below 2^53. */
static int frozen_base(const act_ctx *c) {
    return c->in->mode == HWFIT_MEMORY_LORA || c->in->mode == HWFIT_MEMORY_QLORA;
}

/* A frozen linear's input is dropped after the forward pass (autograd saves a linear's
 * input only for its weight's gradient), except in QLoRA when the 4-bit matmul keeps it
 * (qlora_inputs_kept: bitsandbytes' MatMul4Bit stores its input A in ctx.tensors whenever A
 * needs a gradient, bitsandbytes/autograd/_functions.py). */
static int frozen_inputs_dropped(const act_ctx *c) {
    return frozen_base(c) && !(c->in->mode == HWFIT_MEMORY_QLORA && c->in->qlora_inputs_kept);
}

/* SDPA's math backend (HWFIT_ATTENTION_MATH) in training: its saved inputs per token, in
 * bytes, beyond the A-byte query, keys and values attention_width counts for a kernel:
 * the math path upcasts half inputs to fp32 (torch >= 2.5) and saves the scaled query, the
 * keys expanded to the query heads and scaled, and the expanded values (repeat_interleave
 * for GQA; the fp32 value itself for MHA at 4 bytes), all fp32: 4 a (2 d + dv), in place
 * of the A-byte q, k and v (which autograd then keeps nowhere: the casts and the scalar
 * products save nothing). 0 for other attention and in inference. */
static uint64_t math_extra(const act_ctx *c) {
    const hwfit_model *m = c->m;
    const hwfit_memory_in *in = c->in;
    if (hwfit__attention(m, in) != HWFIT_ATTENTION_MATH || in->mode == HWFIT_MEMORY_INFERENCE ||
        (in->softcap_eager && m->attention_softcap))
        return 0;
    uint64_t a = m->heads, d = c->dims.qk_head_dim, dv = c->dims.v_head_dim;
    uint64_t k = m->attention == HWFIT_MODEL_ATTENTION_GQA
                     ? (c->in->kv_repeated ? a : m->kv_heads)
                     : a;
    uint64_t f32 = 4 * a * (2 * d + dv), given = c->a_bytes * (a * d + k * d + k * dv);
    return f32 > given ? f32 - given : 0;
}

static uint64_t attention_width(const act_ctx *c) {
    const hwfit_model *m = c->m;
    uint64_t a = m->heads, d = c->dims.qk_head_dim, dv = c->dims.v_head_dim;
    if (m->attention == HWFIT_MODEL_ATTENTION_GQA) {
        /* kv_repeated: K and V repeated to the a query heads before the kernel (LitGPT
         * litgpt/model.py CausalSelfAttention.forward: k.expand(...) then reshape, "training:
         * flash attention requires it"); the kernel keeps the repeated copies. */
        uint64_t k = c->in->kv_repeated && c->in->mode != HWFIT_MEMORY_INFERENCE ? a : m->kv_heads;
        return a * d + k * d + k * dv + a * dv;
    }
    return 2 * (uint64_t)m->q_lora_rank + 2 * (uint64_t)m->kv_lora_rank + m->qk_rope_head_dim +
           2 * a * d + 2 * a * dv;
}

/* MLP tensors kept per token: a plain GeLU MLP keeps the GeLU input and the second linear's
 * input (2F, Korthikanti's 8sbh + 8sbh for F = 4h, 2-byte values); a gated MLP keeps gate and
 * up outputs (a fused SwiGLU saves its input) and the down projection's input (3F). A MoE
 * layer counts as an MLP of the widths a token passes through: K routed experts and the
 * shared ones; in training also the dispatched copies (below); router logits are not
 * counted. Cannot overflow: the layer's 2 or 3 matrices of h x F values per expert are part
 * of a parameter count that fits 64 bits (hwfit_model_params succeeded), and h >= 1,
 * E >= K. */
static uint64_t mlp_width(const act_ctx *c, int moe) {
    const hwfit_model *m = c->m;
    uint64_t f = m->intermediate;
    if (moe)
        f = (uint64_t)m->experts_per_token * m->expert_intermediate +
            (uint64_t)m->shared_experts * m->shared_expert_intermediate;
    unsigned per = m->mlp == HWFIT_MODEL_MLP_GATED && !c->in->compile ? 3u : 2u;
    /* Eager gated MLP (gated_act_kept): down(act(gate) * up) as separate kernels. act's
     * backward keeps its input (gate), the product's backward keeps both its operands,
     * act(gate) and up: one more F than a fused SwiGLU, which saves only gate and up
     * (transformers LlamaMLP.forward, torchtune FeedForward.forward, LitGPT LLaMAMLP.forward
     * are written so; Megatron's bias_swiglu and torch.compile fuse it). */
    if (m->mlp == HWFIT_MODEL_MLP_GATED && !c->in->compile && c->in->gated_act_kept &&
        c->in->mode != HWFIT_MEMORY_INFERENCE)
        per++;
    /* Compiled, the product is saved too when the down projection's weight (or its
     * adapter) takes a gradient. torch.compile's min-cut partitioner
     * (torch/_functorch/partitioners.py, min_cut_rematerialization_partition) may
     * recompute fusible ops such as silu and mul in backward, but never a node "that must
     * be materialized in the backwards pass" (should_ban_recomputation, with
     * torch/_functorch/config.py ban_recompute_materialized_backward = True, the
     * default): the product is the input of the down projection's weight-gradient matmul
     * (and of its adapter's), a non-fusible use in backward, so it is saved beside gate and
     * up, the outputs of matmuls, which are never recomputed: 3F. With the down projection
     * frozen and without an adapter nothing in backward reads the product: 2F. */
    if (m->mlp == HWFIT_MODEL_MLP_GATED && c->in->compile &&
        c->in->mode != HWFIT_MEMORY_INFERENCE &&
        !(frozen_inputs_dropped(c) && !(c->in->lora_targets & HWFIT__LORA_DOWN)))
        per++;
    /* LoRA: a frozen linear layer keeps no input for a weight gradient (autograd saves a
     * linear's input only when its weight requires grad); the down projection's input is
     * kept only when it carries an adapter. Compiled, that input is counted above only
     * when needed: the remaining 2F are gate and up, which the product's and the
     * activation's backward need whether or not any weight trains (d/d up = act(gate),
     * d/d gate = up * act'(gate)). */
    if (frozen_inputs_dropped(c) && !(c->in->lora_targets & HWFIT__LORA_DOWN) &&
        !(m->mlp == HWFIT_MODEL_MLP_GATED && c->in->compile))
        per--;
    /* MoE dispatch: each token's K copies sent to its experts (the experts' first input,
     * kept for their weight gradients when they train) and the K expert outputs the
     * router-weighted combine keeps for the routing probabilities' gradient. */
    uint64_t dispatch = 0;
    if (moe && c->in->mode != HWFIT_MEMORY_INFERENCE) {
        uint64_t k = m->experts_per_token;
        dispatch = k * m->hidden * (frozen_inputs_dropped(c) && !(c->in->lora_targets &
                                                          (HWFIT__LORA_GATE | HWFIT__LORA_UP))
                                        ? 1u
                                        : 2u);
    }
    return f * per + dispatch;
}

/* Eager RMSNorm (norm_upcast_kept): bytes per element of a hidden-size norm's input kept
 * beyond the A that every norm's input counts. torchtune's RMSNorm.forward
 * (torchtune/modules/rms_norm.py: x_fp32 = x.float(); (x_fp32 * torch.rsqrt(
 * x_fp32.pow(2).mean(-1, keepdim=True) + eps)).type_as(x) * self.scale) and transformers'
 * LlamaRMSNorm.forward (hidden_states.to(torch.float32) ... self.weight *
 * hidden_states.to(input_dtype)) keep the fp32 copy of the input (pow's and the product's
 * backward: 4 bytes an element, not the A-byte input) and, when the norm's weight trains,
 * the normalized A-byte tensor (the weight product's backward). So 4 + [A when trained] - A
 * more than counted: +4 (bf16, full), +2 (bf16, frozen norms). LitGPT's RMSNorm.forward
 * multiplies the fp32 normalized tensor by weight.float() before casting back
 * (norm_weight_fp32), so its weight's backward keeps that tensor in fp32: 4, not A.
 * Compiled, the norm fuses into one kernel that keeps its input and a reciprocal per token:
 * nothing more. */
static uint64_t norm_extra(const act_ctx *c) {
    const hwfit_memory_in *in = c->in;
    if (!in->norm_upcast_kept || in->compile || in->mode == HWFIT_MEMORY_INFERENCE ||
        c->m->norm != HWFIT_MODEL_NORM_RMS)
        return 0;
    int trained = in->mode == HWFIT_MEMORY_FULL || (in->full_modules & HWFIT_FULL_NORMS);
    uint64_t kept = 4u + (trained ? (in->norm_weight_fp32 ? 4u : c->a_bytes) : 0u);
    return kept > c->a_bytes ? kept - c->a_bytes : 0u;
}

/* experts_indexed (transformers GptOssExperts.forward in training, e.g. at commit
 * 00d4b3d2: `for expert_idx in expert_hit[:]`, each a one-element index tensor;
 * `current_state @ self.gate_up_proj[expert_idx] + ...`, then `gated_output @
 * self.down_proj[expert_idx] + ...`): indexing a parameter with a tensor is advanced
 * indexing, which copies the expert's matrices, and each matmul saves its copy for its
 * input's gradient. So a MoE layer's graph keeps the matrices of every expert hit: at most
 * E, at most s b K (each routed token-slot hits one), each h x F per matrix (3 gated, 2
 * plain), in the activations' format, / t. */
static uint64_t experts_indexed_copies(const act_ctx *c, uint64_t sb, int *overflow) {
    const hwfit_model *m = c->m;
    if (!c->in->experts_indexed || m->experts == 0 || c->in->mode == HWFIT_MEMORY_INFERENCE)
        return 0;
    uint64_t hit = mul_c(sb, m->experts_per_token, overflow);
    if (hit > m->experts) hit = m->experts;
    uint64_t per = (m->mlp == HWFIT_MODEL_MLP_GATED ? 3u : 2u);
    uint64_t vals = mul_c(mul_c(mul_c(hit, per, overflow), m->hidden, overflow),
                          m->expert_intermediate, overflow);
    return hwfit__ceil_div_u64(mul_c(vals, c->a_bytes, overflow), c->t);
}

/* Per attention score of an eager attention (flash_attention 0, or soft-capped logits run
 * eager: softcap_eager): *kept, what autograd keeps of it for backward (train_layer), and
 * *bwd, the most the attention's backward holds of it at once (eager_grads). PyTorch's
 * engine releases a node's saved tensors once the node has run and frees an incoming
 * gradient once consumed, so the attention's backward is a chain of peaks over the s^2
 * tensors, each read here from torch's derivatives (pytorch/pytorch
 * tools/autograd/derivatives.yaml, d327a787: _softmax's self: _softmax_backward_data(grad,
 * result, dim, self.scalar_type()),
 * a new tensor in the input's type; _to_copy's: grad converted back; native_dropout's:
 * grad * mask * scale; slice's: a zero-filled full-size tensor with grad copied in):
 *  - own-dtype softmax (A bytes: transformers' eager attention at fp32, gpt-oss's
 *    eager_attention_forward with softmax(dtype=combined_logits.dtype), then the sink
 *    column sliced off): kept A (the probabilities, saved by softmax and, as the same
 *    tensor, by the value matmul); at the softmax's backward the saved output, the incoming
 *    gradient and the input gradient: 3A (gpt-oss's slice backward too: the zero-filled
 *    gradient beside the matmul's and the probabilities). With dropout: kept 2A + 1; its
 *    backward, the mask, the softmax output, the incoming gradient and its product: 3A + 1.
 *  - fp32 softmax of A < 4 bytes (softmax_fp32: softmax(x, dtype=torch.float32).to(dtype);
 *    LitGPT's soft-capped eager path likewise, after its tanh, whose A-byte output stays
 *    to the end): kept 4 + A [+ 1 dropout]. ATen's softmax(input, dim, dtype)
 *    (aten/src/ATen/native/SoftMax.cpp) takes the fused half_to_float path only for fp16
 *    on CUDA, else input.toType(float) then _softmax: the input gradient is A bytes for
 *    fp16, 4 for bf16. The value matmul's backward frees the A-byte copy; the cast's
 *    backward holds the fp32 output, the A-byte gradient and its fp32 copy (8 + A); the
 *    softmax's the fp32 output, the fp32 gradient and the input gradient (8 + 4 or 8 + A);
 *    with dropout, before them, 4 + 1 + 2A (its mask, gradient and product).
 *  - A = 4: .to(float32) and softmax(dtype=float32) of an fp32 tensor return it, so the
 *    value matmul saves the softmax's own output: the own-dtype counts. */
static void eager_scores(const act_ctx *c, uint64_t *kept, uint64_t *bwd) {
    const hwfit_memory_in *in = c->in;
    const uint64_t a = c->a_bytes;
    const int softcap = in->softcap_eager && c->m->attention_softcap;
    const uint64_t tanh = softcap ? a : 0u;
    /* LitGPT's attention has no dropout */
    const uint64_t drop = in->dropout && !softcap ? 1u : 0u;
    uint64_t peak;
    if (hwfit__attention(c->m, in) == HWFIT_ATTENTION_MATH && !softcap) {
        /* SDPA's math backend (aten/src/ATen/native/transformers/attention.cpp,
         * _scaled_dot_product_attention_math): the scores of the fp32 inputs, _safe_softmax
         * in fp32, its output saved by the softmax and the value matmul alike (4), with
         * dropout its mask and output (1 + 4); in backward the value matmul's fp32 gradient
         * of the probabilities and the softmax's input gradient beside them (12; dropout's
         * gradient and product first, 4 + 1 + 4 + 4). */
        *kept = 4u + (drop ? 5u : 0u);
        peak = 12u + (drop ? 1u : 0u);
        *bwd = peak > *kept ? peak : *kept;
        return;
    }
    if ((softcap || in->softmax_fp32) && a < 4u) {
        const uint64_t gin = in->activations.id == HWFIT_DTYPE_FP16 ? a : 4u;
        *kept = tanh + 4u + a + drop;
        peak = 8u + (gin > a ? gin : a);
        if (drop && 5u + 2u * a > peak) peak = 5u + 2u * a;
    } else {
        *kept = tanh + a + (drop ? 1u + a : 0u);
        peak = 3u * a + drop;
    }
    peak += tanh;
    *bwd = peak > *kept ? peak : *kept;
}

/* eager_grads: what the backward of one layer's eager attention holds beyond the scores it
 * stored (eager_scores: bwd - kept a score), a s^2 b of them / t; beside the stored
 * activations, or the layer being recomputed, at the backward's start. 0 with flash
 * attention (its backward tiles the scores) and in inference. */
static uint64_t eager_grads(const act_ctx *c, int *overflow) {
    const hwfit_memory_in *in = c->in;
    if (in->mode == HWFIT_MEMORY_INFERENCE) return 0;
    if (hwfit__flash(c->m, in) && !(in->softcap_eager && c->m->attention_softcap)) return 0;
    uint64_t kept = 0, bwd = 0;
    eager_scores(c, &kept, &bwd);
    uint64_t sb = mul_c(in->context, in->micro_batch, overflow);
    uint64_t n = mul_c(mul_c(in->context, sb, overflow), c->m->heads, overflow);
    return hwfit__ceil_div_u64(mul_c(n, bwd - kept, overflow), c->t);
}

/* Bytes one training layer stores, before any recomputation choice except `selective`:
 * Korthikanti et al. 2022 Table 2 generalised:
 *   replicated  A sbh (n_norms + 2) + [dropout] 2 sbh       (norm inputs, QKV and MLP inputs,
 *                                                             two dropout masks)
 *   sharded     A sb (attention widths + MLP widths)         (divided by t)
 *   scores      a s^2 b (A + [dropout](1 + A))               (divided by t; 0 with flash
 *                                                             attention or selective recompute)
 *               a s^2 b (4 + A + [dropout] 1)                (the eager softmax in fp32,
 *                                                             softmax_fp32: see below)
 *               a s^2 b (2A + 4)                             (soft-capped logits run eager,
 *                                                             softcap_eager: see below)
 *               (A = 4: the fp32 casts are no-ops, the A-byte counts apply: eager_scores)
 * With A = 2, dropout, MHA, 2 norms and a 4h GeLU MLP: sbh(10 + 24/t + 5as/(ht)), and with
 * sequence parallelism the replicated part is divided by t too: sbh(34/t + 5as/(ht)). */
static hwfit_status train_layer(const act_ctx *c, int moe, int with_scores, uint64_t *bytes) {
    const hwfit_memory_in *in = c->in;
    const hwfit_model *m = c->m;
    int overflow = 0;
    uint64_t sb = mul_c(in->context, in->micro_batch, &overflow);
    uint64_t sbh = mul_c(sb, m->hidden, &overflow);
    /* norms_per_layer <= 16 and a_bytes <= 4: the factor is small. */
    /* The QKV and MLP inputs (the norms' outputs) are kept for the weight gradients; with
     * a frozen base only where an adapter needs them. */
    uint64_t inputs = 2u;
    if (frozen_inputs_dropped(c))
        inputs = ((in->lora_targets & (HWFIT__LORA_Q | HWFIT__LORA_K | HWFIT__LORA_V)) ? 1u : 0u) +
                 ((in->lora_targets & (HWFIT__LORA_GATE | HWFIT__LORA_UP)) ? 1u : 0u);
    uint64_t rep = mul_c(sbh,
                         c->a_bytes * (m->norms_per_layer + inputs) +
                             norm_extra(c) * m->norms_per_layer + (in->dropout ? 2u : 0u),
                         &overflow);
    uint64_t widths =
        add_c(add_c(mul_c(attention_width(c) + mlp_width(c, moe) + c->dora[moe ? 1 : 0],
                          c->a_bytes, &overflow),
                    mul_c(c->drop[moe ? 1 : 0], c->a_bytes + 1, &overflow), &overflow),
              math_extra(c), &overflow);
    /* fp8_inputs_saved: Transformer Engine's linears under FP8 keep the FP8-cast copy of
     * their input (1 byte an element) for the weight gradient, not the A-byte input
     * (transformer_engine/pytorch/module/linear.py _Linear.forward, at f031cf87, the TE of
     * Megatron-Bridge e43a7468f: inputmat = input_quantizer(inputmat), saved_inputmat =
     * inputmat, ctx.save_for_backward(*prepare_for_saving(saved_inputmat, ...)); with
     * sequence parallelism the local shard, all-gathered again in backward, and
     * layernorm_linear.py keeps the quantized ln_out beside the A-byte norm input). So the
     * QKV and MLP inputs, the attention output (o_proj's input) and the down projection's
     * input (dense and routed experts; the experts' dispatched first input too) cost 1 byte,
     * not A. The fused SwiGLU's input (gate and up, Megatron's bias_swiglu_impl) and Q, K,
     * V (the attention kernel's, or core_attn recomputation's checkpoint inputs, with
     * fp8_dpa off) stay A. When the attention core is not recomputed (with_scores) its
     * kernel keeps its own A-byte output beside o_proj's FP8 copy: A + 1 for it. */
    if (in->fp8_inputs_saved && c->a_bytes > 1) {
        uint64_t less = c->a_bytes - 1u;
        uint64_t out = (uint64_t)m->heads * c->dims.v_head_dim;
        uint64_t down = m->intermediate;
        if (moe)
            down = (uint64_t)m->experts_per_token * m->expert_intermediate +
                   (uint64_t)m->shared_experts * m->shared_expert_intermediate +
                   (uint64_t)m->experts_per_token * m->hidden;
        uint64_t fewer = mul_c(inputs, mul_c(sbh, less, &overflow), &overflow);
        rep = rep > fewer ? rep - fewer : 0;
        uint64_t cut = mul_c(down + (with_scores && hwfit__flash(m, in) ? 0u : out), less,
                             &overflow);
        uint64_t more = with_scores && hwfit__flash(m, in) ? out : 0u;
        widths = add_c(widths > cut ? widths - cut : 0, more, &overflow);
    }
    uint64_t shard = add_c(mul_c(sb, widths, &overflow), c->dora_w[moe ? 1 : 0], &overflow),
             scores = 0;
    /* Soft-capped logits run eager where the framework's attention cannot soft-cap
     * (LitGPT litgpt/model.py CausalSelfAttention.scaled_dot_product_attention: "with
     * softcapping we cannot use SDPA"; scores = q @ k.mT * scale, do_softcapping (tanh),
     * F.softmax(..., dtype=torch.float).to(q.dtype), then scores @ v). Autograd keeps the
     * tanh output (tanh's backward), the fp32 softmax output (softmax's backward) and its
     * 16-bit copy (the input of scores @ v): 2A + 4 bytes per score; LitGPT's attention has
     * no dropout. */
    int eager = in->softcap_eager && m->attention_softcap;
    /* softmax_fp32: the eager softmax in fp32 (transformers' eager attention, e.g.
     * LlamaAttention.forward of 4.31 and eager_attention_forward since: "upcast attention
     * to fp32", nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32)
     * .to(query.dtype), then torch.matmul(attn_weights, value)): softmax's backward keeps
     * its fp32 output (4 bytes) and the value matmul its 16-bit input (A), or with dropout
     * the mask (1) and the dropout output (A); the fp32 copy of the input and the scalar
     * scaling and mask add keep nothing. */
    if (with_scores && (!hwfit__flash(m, in) || eager)) {
        uint64_t per = 0, bwd = 0;
        eager_scores(c, &per, &bwd);
        scores = mul_c(mul_c(mul_c(in->context, sb, &overflow), m->heads, &overflow), per,
                       &overflow);
    }
    uint64_t r = in->sequence_parallel ? hwfit__ceil_div_u64(rep, c->t) : rep;
    uint64_t total = add_c(
        r, add_c(hwfit__ceil_div_u64(shard, c->t), hwfit__ceil_div_u64(scores, c->t), &overflow),
        &overflow);
    /* experts_indexed: the copies of the hit experts' matrices the per-expert loop keeps
     * (experts_indexed_copies). */
    if (moe) total = add_c(total, experts_indexed_copies(c, sb, &overflow), &overflow);
    if (overflow) return HWFIT_ERANGE;
    *bytes = total;
    return HWFIT_OK;
}

/* torchtitan's op-level selective checkpointing (hwfit_memory_in::selective OPS): what one
 * dense layer keeps, and how much of it the layer stores without recomputation too
 * (*overlap, which the layer rebuilt in backward does not hold twice).
 * torchtitan/parallelisms/parallelize_llama.py at 9dec370 (the runs of docs/performance.md
 * at d4c86e3), _apply_ac_to_transformer_block: ptd_checkpoint_wrapper(module,
 * context_fn=create_selective_checkpoint_contexts(_custom_policy)), whose policy returns
 * MUST_SAVE for the ops of _save_list (aten.mm, _scaled_dot_product_flash_attention and
 * _efficient_attention, _c10d_functional.reduce_scatter_tensor, abs, max) "except every
 * second mm" (a counter of aten.mm calls per layer and forward) and PREFER_RECOMPUTE for
 * every other op. A Llama layer (torchtitan/models/llama/model.py) calls its matmuls in the
 * order wq, wk, wv, wo, w1 (gate), w3 (up), w2 (down): the 1st, 3rd, 5th and 7th are saved
 * (q, v, gate, down), k, o and up are recomputed; a plain MLP's fc1 is the 5th (saved), fc2
 * the 6th. Eager, torch.utils.checkpoint's _CachingTorchDispatchMode stores the output of
 * every MUST_SAVE op whether or not backward reads it; the flash kernel's outputs include
 * its fp32 log-sum-exp (b, a, s); non-reentrant checkpointing keeps the layer's input (the
 * recompute closure's args) and packs every other saved tensor away. Under tensor
 * parallelism the column-parallel outputs are / t, the row-parallel down projection's
 * local output is a whole-width partial sum, and with sequence parallelism its
 * reduce-scatter and the output projection's (in _save_list) are h / t. Compiled
 * (torch._functorch.partitioners, must_recompute treats PREFER_RECOMPUTE as MUST_RECOMPUTE
 * and should_ban_recomputation bans MUST_SAVE nodes), a saved op is kept only where the
 * backward graph reads it: the down projection's output and the reduce-scatters (read only
 * by residual adds, whose backward reads nothing) are dropped. torchao's Float8Linear calls
 * torch.mm on Float8Tensors (float8_linear.py, manual_float8_matmul_with_args_in_float8):
 * the policy's dispatch mode sees aten.mm before the subclass turns it into _scaled_mm, so
 * float8 layers keep the same bf16 outputs. */
static hwfit_status op_layer(const act_ctx *c, uint64_t *stored, uint64_t *overlap) {
    const hwfit_memory_in *in = c->in;
    const hwfit_model *m = c->m;
    int overflow = 0;
    const uint64_t t = c->t, a = m->heads, h = m->hidden;
    const uint64_t sb = mul_c(in->context, in->micro_batch, &overflow);
    const int sp = in->sequence_parallel && t > 1;
    /* q, v, attention output, gate (or fc1) / t; all four are among what the layer keeps
     * without recomputation (attention_width, mlp_width). */
    const uint64_t cols = a * c->dims.qk_head_dim + (uint64_t)m->kv_heads * c->dims.v_head_dim +
                          a * c->dims.v_head_dim + m->intermediate;
    const uint64_t shard = mul_c(sb, cols, &overflow);
    const uint64_t lse = mul_c(sb, 4 * a, &overflow);
    const uint64_t input = mul_c(sb, h, &overflow);
    uint64_t rep = input; /* the layer's input, replicated unless sequence-parallel */
    if (!in->compile && sp) rep = add_c(rep, mul_c(2, input, &overflow), &overflow);
    uint64_t total = add_c(hwfit__ceil_div_u64(mul_c(rep, c->a_bytes, &overflow), sp ? t : 1),
                           hwfit__ceil_div_u64(add_c(mul_c(shard, c->a_bytes, &overflow), lse,
                                                     &overflow), t),
                           &overflow);
    /* The down projection's output (7th matmul, gated MLPs), whole on every rank. */
    if (!in->compile && m->mlp == HWFIT_MODEL_MLP_GATED)
        total = add_c(total, mul_c(input, c->a_bytes, &overflow), &overflow);
    uint64_t both = add_c(hwfit__ceil_div_u64(mul_c(input, c->a_bytes, &overflow), sp ? t : 1),
                          hwfit__ceil_div_u64(mul_c(shard, c->a_bytes, &overflow), t), &overflow);
    if (overflow) return HWFIT_ERANGE;
    *stored = total;
    *overlap = both;
    return HWFIT_OK;
}

/* The op policy's saved matmul outputs of one region: w[] the output widths (values per
 * token) of its aten.mm calls in call order; the policy's counter (_custom_policy:
 * meta["forward_mm_count"] += 1, saved unless the count is even) saves the odd-numbered.
 * *count carries the counter across the regions that share it (one checkpointed module). */
static uint64_t op_mms(const uint64_t *w, size_t n, unsigned *count) {
    uint64_t saved = 0;
    for (size_t i = 0; i < n; i++)
        if (++*count % 2 == 1) saved += w[i];
    return saved;
}

/* torchtitan's op policy on a MoE layer, an MLA attention block, or a block run with
 * FlexAttention uncompiled (flex_attention), at 99fee81 (2025-10, the DeepSeek-V3 16B case):
 * torchtitan/models/deepseek_v3/infra/parallelize.py lines 33-44 _op_sac_save_list = {aten.mm,
 * _scaled_dot_product_efficient_attention, _scaled_dot_product_flash_attention,
 * _c10d_functional.reduce_scatter_tensor, _c10d_functional.all_to_all_single, aten.max,
 * flex_attention} and distributed/activation_checkpoint.py _apply_op_sac's _custom_policy
 * (line 110: every odd-numbered aten.mm of a checkpointed module's forward saved; a _to_copy to the
 * CPU saved, which holds no device memory). Per token, in the activations' format A:
 *   attention (whole block only): MHA/GQA wq, wk, wv, wo: a d, k d, k d_v, h; MLA
 *     (deepseek_v3/model/model.py Attention.forward) [wq_a r_q, wq_b a d | wq a d],
 *     wkv_a r_kv + d_rope, wkv_b a (d_nope + d_v), wo h; its kernel's output a d_v and
 *     fp32 log-sum-exp 4a bytes (flash, efficient and flex_attention all return one).
 *   MLP (models/moe.py FeedForward: w2(silu(w1(x)) * w3(x))): w1 F, w3 F, w2 h; plain fc1
 *     F, fc2 h.
 *   MoE (models/moe.py MoE.forward): router.gate E (line 233, an mm; its fp32 softmax, topk, histc,
 *     argsort, gather are recomputed); the routed experts run torch._grouped_mm
 *     (_run_experts_grouped_mm, line 120), not in the list: recomputed with silu and the product;
 *     with expert parallelism (distributed/expert_parallel.py ExpertParallel) the
 *     dispatch all_to_all_single_autograd's output (line 123) (the tokens this rank's experts
 *     receive) and the combine's (line 151; this rank's K copies back), each K h on average: each
 *     rank sends s b K token copies and receives as many when the router balances the
 *     ranks (dropless: output_splits are the routed counts, no capacity padding; the
 *     padded permuted copy, generate_permute_indices, is an index op's output,
 *     line 279, recomputed). With ep_a2a_recomputed (torchtitan before c4e229115: at
 *     f738a03bf the all-to-all is a Python autograd.Function, _A2A, over new_empty and
 *     dist.all_to_all_single, neither in that _save_list) the two outputs are recomputed
 *     with the layer instead: out of the stored bytes, into the recomputed transient;
 *     shared experts, one FeedForward of width shared x F_s, after the
 *     routed ones (moe.py line 454): w1, w3, w2 continuing the count.
 * Structure (activation_checkpoint.py _apply_ac_to_transformer_block): without
 * FlexAttention the whole block is one checkpointed module: its input plus the attention's
 * and the MLP's saved outputs under one count. With FlexAttention and the model not
 * compiled (_apply_op_sac_to_transformer_block_with_flex, lines 147-219: moe at 203,
 * attention full at 207 and 218), attention is wrapped in full
 * checkpointing (it keeps its input) and feed_forward or moe alone in the op policy (its
 * input, a count from 1); the block's norms (nn.RMSNorm) sit outside both and keep their
 * input, A h + the eager upcast's extra (norm_extra), and an fp32 rstd per token. Under
 * tensor parallelism and compiled it is not modelled (op_policy_check). *overlap: what
 * it keeps that the layer stores without recomputation too (all but the log-sum-exp, the
 * router's logits and the rstd). */
static hwfit_status op_block(const act_ctx *c, int moe, uint64_t *stored, uint64_t *overlap) {
    const hwfit_memory_in *in = c->in;
    const hwfit_model *m = c->m;
    int overflow = 0;
    const uint64_t a = m->heads, h = m->hidden, d = c->dims.qk_head_dim,
                   dv = c->dims.v_head_dim;
    const int split = in->flex_attention && !in->compile;
    const int gated = m->mlp == HWFIT_MODEL_MLP_GATED;
    unsigned count = 0;
    uint64_t vals = 0, extra = 0; /* values per token at A bytes; bytes per token not */
    if (!split) {
        uint64_t w[5];
        size_t n = 0;
        if (m->attention == HWFIT_MODEL_ATTENTION_GQA) {
            w[n++] = a * d;
            w[n++] = (uint64_t)m->kv_heads * d;
            w[n++] = (uint64_t)m->kv_heads * dv;
        } else {
            if (m->q_lora_rank) w[n++] = m->q_lora_rank;
            w[n++] = a * d;
            w[n++] = (uint64_t)m->kv_lora_rank + m->qk_rope_head_dim;
            w[n++] = a * ((uint64_t)m->qk_nope_head_dim + dv);
        }
        w[n++] = h;
        vals = h + op_mms(w, n, &count) + a * dv; /* block input, matmuls, kernel output */
        extra = 4 * a;                             /* the kernel's fp32 log-sum-exp */
    } else {
        /* norms (input + upcast extra at A bytes' worth, rstd), attention's and the
         * MLP/MoE region's inputs */
        vals = add_c(mul_c(m->norms_per_layer, h, &overflow), 2 * h, &overflow);
        extra = add_c(mul_c(mul_c(m->norms_per_layer, h, &overflow), norm_extra(c), &overflow),
                      4u * m->norms_per_layer, &overflow);
    }
    uint64_t lse_router = split ? 4u * m->norms_per_layer : 4 * a; /* bytes per token */
    if (!moe) {
        uint64_t w[3] = {m->intermediate, gated ? m->intermediate : h, h};
        vals = add_c(vals, op_mms(w, gated ? 3 : 2, &count), &overflow);
    } else {
        uint64_t router = m->experts;
        vals = add_c(vals, op_mms(&router, 1, &count), &overflow);
        uint64_t routed_router = count % 2 == 1 ? router : 0; /* saved when odd */
        lse_router = add_c(lse_router, mul_c(routed_router, c->a_bytes, &overflow), &overflow);
        if (in->expert_parallel > 1 && !in->ep_a2a_recomputed)
            vals = add_c(vals, mul_c(2 * (uint64_t)m->experts_per_token, h, &overflow),
                         &overflow);
        if (m->shared_experts) {
            uint64_t fs = (uint64_t)m->shared_experts * m->shared_expert_intermediate;
            uint64_t w[3] = {fs, gated ? fs : h, h};
            vals = add_c(vals, op_mms(w, gated ? 3 : 2, &count), &overflow);
        }
    }
    const uint64_t sb = mul_c(in->context, in->micro_batch, &overflow);
    uint64_t per = add_c(mul_c(vals, c->a_bytes, &overflow), extra, &overflow);
    uint64_t total = mul_c(sb, per, &overflow);
    uint64_t kept = mul_c(sb, per > lse_router ? per - lse_router : 0, &overflow);
    if (overflow) return HWFIT_ERANGE;
    *stored = total;
    *overlap = kept;
    return HWFIT_OK;
}

/* The dense MHA/GQA path as first built (op_layer), or op_block: MoE layers, MLA attention,
 * FlexAttention uncompiled. */
static int op_general(const hwfit_model *m, const hwfit_memory_in *in) {
    return m->experts > 0 || m->attention != HWFIT_MODEL_ATTENTION_GQA ||
           (in->flex_attention && !in->compile);
}

static hwfit_status op_kind(const act_ctx *c, int moe, uint64_t *stored, uint64_t *overlap) {
    return op_general(c->m, c->in) ? op_block(c, moe, stored, overlap)
                                   : op_layer(c, stored, overlap);
}

/* The op policy is counted for full training without adapters (LoRA adds matmuls to the
 * count), and its MoE, MLA and FlexAttention structures (op_block) eager and without tensor
 * parallelism: refused elsewhere rather than guessed. Apart from estimate_prepared
 * (tests/stack). */
static hwfit_status op_policy_check(const hwfit_model *m, const hwfit_memory_in *in,
                                    hwfit_problem *why) {
    if (in->mode != HWFIT_MEMORY_FULL)
        return hwfit__why(why, HWFIT_EUNSUPPORTED, "selective",
                          "is the op-level policy, modelled for mode full only (LoRA adapters "
                          "add matmuls to the policy's count)");
    if (op_general(m, in) && (in->compile || in->tensor_parallel > 1))
        return hwfit__why(why, HWFIT_EUNSUPPORTED, "selective",
                          "is the op-level policy, modelled for MoE layers, MLA attention and "
                          "FlexAttention without compile and tensor parallelism only");
    return HWFIT_OK;
}

/* The op policy's stored bytes of one layer of a kind, after op_policy_check. */
static hwfit_status op_stored(const act_ctx *c, int moe, hwfit_problem *why, uint64_t *bytes) {
    uint64_t overlap = 0;
    hwfit_status st = op_policy_check(c->m, c->in, why);
    return st != HWFIT_OK ? st : op_kind(c, moe, bytes, &overlap);
}

/* The layer recomputed in backward under the op policy: what it stores without
 * recomputation (layer_full[k]), less what it kept (the overlap; op_stored succeeded, so it
 * does again); the larger of the kinds present. */
static uint64_t op_transient(const act_ctx *c, const uint64_t layer_full[2],
                             const int present[2]) {
    uint64_t top = 0;
    for (int k = 0; k < 2; k++) {
        uint64_t stored = 0, overlap = 0, t;
        if (!present[k]) continue;
        if (op_kind(c, k, &stored, &overlap) != HWFIT_OK) t = layer_full[k];
        else t = layer_full[k] > overlap ? layer_full[k] - overlap : 0;
        if (t > top) top = t;
    }
    return top;
}

#define OPS_(in)                                                                            \
    ((in)->recompute == HWFIT_MEMORY_RECOMPUTE_SELECTIVE &&                                 \
     (in)->selective == HWFIT_MEMORY_SELECTIVE_OPS)

/* Inference workspace of one layer for c tokens in flight: the residual stream and the norm
 * output (2h, replicated), the larger of the attention and MLP intermediates (divided by t)
 * and, without flash attention, the chunk's scores against the whole context. Buffers are
 * reused from layer to layer, so the model needs the largest layer's workspace once. */
static hwfit_status infer_layer(const act_ctx *c, int moe, uint64_t tokens, uint64_t *bytes) {
    const hwfit_memory_in *in = c->in;
    const hwfit_model *m = c->m;
    int overflow = 0;
    uint64_t attn_w = attention_width(c), mlp_w = mlp_width(c, moe);
    uint64_t w = attn_w > mlp_w ? attn_w : mlp_w;
    /* hidden <= 2^40 and a_bytes <= 4: 2 x hidden x a_bytes fits. */
    uint64_t rep = mul_c(tokens, 2 * m->hidden * c->a_bytes, &overflow);
    uint64_t shard = mul_c(mul_c(tokens, w, &overflow), c->a_bytes, &overflow), scores = 0;
    if (!hwfit__flash(m, in))
        scores = mul_c(mul_c(tokens, in->context, &overflow), (uint64_t)m->heads * c->a_bytes,
                       &overflow);
    uint64_t total = add_c(
        rep, add_c(hwfit__ceil_div_u64(shard, c->t), hwfit__ceil_div_u64(scores, c->t), &overflow),
        &overflow);
    if (overflow) return HWFIT_ERANGE;
    *bytes = total;
    return HWFIT_OK;
}

/* ---- the estimate ------------------------------------------------------------------------------- */

/* KV cache bytes of the layers held (inference). Apart from estimate_prepared to keep its
 * frame small (tests/stack). */
static hwfit_status kv_cache_bytes(const hwfit_model *model, const hwfit__model_prep *prep,
                                   const hwfit_memory_in *in, uint32_t count, uint64_t *bytes) {
    hwfit_model_kv_in kin;
    hwfit_model_kv_init(&kin);
    kin.dtype = in->kv;
    kin.batch = in->batch;
    kin.context = in->context;
    kin.first_layer = in->first_layer;
    kin.layer_count = count;
    kin.include_mtp = in->mtp;
    hwfit_model_kv_out kv;
    hwfit_status st = hwfit__model_kv_prepared(model, prep, HWFIT_OK, &kin, &kv);
    if (st == HWFIT_OK) *bytes = kv.bytes;
    return st;
}

/* The head's weight gradient at the backward's start (head_grad): the head is the first
 * layer backward reaches, so the gradient of its V x h weight (vocabulary-parallel, / t) is
 * made before the last layer is rebuilt and held to the step (torch's AccumulateGrad keeps
 * it in .grad). Under the optimizer in backward (torchtune
 * training.register_optim_in_bwd_hooks: step, then zero_grad in the parameter's
 * post-accumulate-grad hook) it is freed at once, unless the head is tied to an embedding
 * on the device: the one parameter then has two gradient edges, and the autograd engine
 * (torch/csrc/autograd/engine.cpp, dependencies and InputBuffer) holds the head's
 * contribution until the embedding's arrives at the backward's end. 0 when the head does
 * not train (LoRA without head in full_modules). Apart from estimate_prepared to keep its
 * frame small (tests/stack). */
static hwfit_status head_grad(const hwfit_model *model, const hwfit__model_prep *prep,
                              const hwfit_memory_in *in, int lora, uint64_t grad_b, uint64_t t,
                              uint64_t *out) {
    *out = 0;
    if (!in->head || (lora && !(in->full_modules & HWFIT_FULL_HEAD))) return HWFIT_OK;
    if (in->optimizer_in_backward &&
        !(in->embedding && model->tie_embeddings && !in->untied_head))
        return HWFIT_OK;
    uint64_t b;
    if (hwfit__mul_u64(prep->params.embedding, grad_b, &b) != HWFIT_OK) return HWFIT_ERANGE;
    *out = hwfit__ceil_div_u64(b, t ? t : 1);
    return HWFIT_OK;
}

/* What the loss's backward holds beyond L as the head's matmuls make its weight gradient
 * (logits_freed; hwfit__loss_head): the head's whole V x h gradient, / t, when the head
 * trains (whatever the optimizer in backward does after the sum), the logits A s b V / t
 * (none for the fused and chunk-by-chunk losses: hwfit__loss_head).
 * Apart from estimate_prepared to keep its frame small (tests/stack). */
static hwfit_status loss_head(const hwfit_model *model, const hwfit__model_prep *prep,
                              const hwfit_memory_in *in, int lora, uint64_t grad_b, uint64_t t,
                              uint64_t a_bytes, uint64_t loss, uint64_t *out) {
    int of = 0;
    uint64_t k = 0, tt = t ? t : 1;
    if (!lora || (in->full_modules & HWFIT_FULL_HEAD))
        k = hwfit__ceil_div_u64(mul_c(prep->params.embedding, grad_b, &of), tt);
    uint64_t logits = hwfit__ceil_div_u64(
        mul_c(mul_c(mul_c(in->context, in->micro_batch, &of), model->vocab, &of), a_bytes, &of),
        tt);
    if (of) return HWFIT_ERANGE;
    *out = hwfit__loss_head(in->loss, loss, logits, k, k);
    return HWFIT_OK;
}

/* The phases of r from its parts (hwfit__memory_phases, whose hwfit__phase_parts names
 * them), with r's dequant_bytes and carried_bytes. Apart from estimate_prepared to keep its
 * frame small (tests/stack). */
/* The blocks the loss strands (hwfit__strands) and the earlier records' segments
 * (hwfit__records) into ph, on s b V / t logits of the activations' format; apart from
 * phases_of to keep its frame small (tests/stack). */
static HWFIT__NOINLINE hwfit_status strands_of(const hwfit_model *model,
                                               const hwfit_memory_in *in,
                                               hwfit__phase_parts *ph) {
    uint64_t sbv = 0;
    if (hwfit__mul_u64(in->context, in->micro_batch, &sbv) != HWFIT_OK ||
        hwfit__mul_u64(sbv, model->vocab, &sbv) != HWFIT_OK)
        return HWFIT_ERANGE;
    hwfit__strands(in, hwfit__ceil_div_u64(sbv, in->tensor_parallel), hwfit__act_bytes(in),
                   &ph->strand_fwd, &ph->strand_bwd);
    /* and the segments earlier record lengths leave (record_lengths), b V / t a token */
    uint64_t bv = 0;
    if (hwfit__mul_u64(in->micro_batch, model->vocab, &bv) != HWFIT_OK) return HWFIT_ERANGE;
    return hwfit__records(in, hwfit__ceil_div_u64(bv, in->tensor_parallel), in->context,
                          hwfit__act_bytes(in), &ph->records);
}

/* Unsloth's chunks (unsloth_zoo fused_losses/cross_entropy_loss.py; memory.h,
 * HWFIT_MEMORY_LOSS_FUSED_CHUNKED). _get_chunk_multiplier reads torch.cuda.mem_get_info
 * once (functools.cache) at the first loss: free = the card less what the process holds,
 * the CUDA context outside the allocator (overhead_bytes) and what the allocator has, here
 * what is allocated before the loss (the caching allocator's reserve lowers free further:
 * the chunks this gives are the fewest the card allows). The target T = min(cap, share x
 * free); get_chunk_size turns x = 4 N V / T, the micro-batch's fp32 logits over the target,
 * into n chunks: since d9fe1f43 1 when x <= 1, else ceil(x / 4) x 4; before it 4 round(x / 4),
 * at least 1 (Python's round, half to even). torch.chunk gives ceil(N / n) rows a
 * chunk. Each chunk runs accumulate_chunk, compiled (torch_compile=True): the chunk's logits
 * (F.linear, A bytes), the upcast and log-softmax fused into row reductions, the logits'
 * gradient (A bytes) for the matmul that makes the chunk's gradient of the hidden states
 * (A h a row), copied into grad_inputs. */
hwfit_status hwfit__fused_chunks(const hwfit_memory_in *in, double card, uint64_t used,
                                 uint64_t rows, uint64_t vocab, uint64_t hidden,
                                 uint64_t a_bytes, uint64_t *chunks, uint64_t *bytes) {
    *chunks = *bytes = 0;
    if (in->loss != HWFIT_MEMORY_LOSS_FUSED_CHUNKED || in->mode == HWFIT_MEMORY_INFERENCE ||
        !in->head || rows == 0)
        return HWFIT_OK;
    double free = card - in->overhead_bytes - (double)used;
    double target = in->loss_free_share * (free > 0.0 ? free : 0.0);
    if (in->loss_target_bytes < target) target = in->loss_target_bytes;
    /* q = x / 4 (+inf when target is 0); rounded here without libm (its frames count
     * against the 16 KiB stack of every public call that reaches this). */
    double q = (double)rows * (double)vocab / target;
    uint64_t k = rows;
    if (q < (double)rows) {
        uint64_t f = (uint64_t)q; /* floor: q >= 0 */
        double frac = q - (double)f;
        if (in->loss_chunks_round_up) f += frac > 1e-9 ? 1 : 0;  /* ceil(q - 1e-9) */
        else f += frac > 0.5 || (frac == 0.5 && (f & 1)) ? 1 : 0; /* half to even */
        k = 4 * f;
        if (in->loss_chunks_round_up && q <= 0.25 + 2.5e-10) k = 1; /* x <= 1 (+ 1e-9) */
        if (k < 1) k = 1;
        if (k > rows) k = rows;
    }
    uint64_t c = hwfit__ceil_div_u64(rows, k);
    int of = 0;
    uint64_t per = add_c(mul_c(2 * a_bytes, vocab, &of), mul_c(a_bytes, hidden, &of), &of);
    *bytes = mul_c(c, per, &of);
    *chunks = k;
    return of ? HWFIT_ERANGE : HWFIT_OK;
}

/* Unsloth's short micro-batches (hwfit_memory_in::loss_short_tokens): the forward's end of
 * one of n = min(rows, threshold) tokens. Its stored activations are the micro-batch's
 * scaled to n tokens (they are linear in the tokens with flash attention); the loss holds
 * what loss inplace keeps, the head's input, the A-byte logits and an fp32 log-sum-exp and
 * loss a token (4h + A V + 8); the forward's end adds the logits' cast copy (inplace-cast:
 * A V) or, under outputs_fp32, their fp32 copy (4 V), in one slot as outputs_held counts
 * them. A micro-batch within the threshold takes the path itself (n = rows): its forward's
 * end with the whole logits is above the one the run's loss gives, which it bounds (its
 * backward, the logits' gradient written over them, is not recounted). */
hwfit_status hwfit__short_forward(const hwfit_memory_in *in, uint64_t stored, uint64_t rows,
                                  uint64_t vocab, uint64_t hidden, uint64_t a_bytes,
                                  uint64_t *bytes) {
    *bytes = 0;
    if (!in->loss_short_tokens || !in->head || in->mode == HWFIT_MEMORY_INFERENCE || rows == 0)
        return HWFIT_OK;
    /* Within the threshold the micro-batch itself takes the path, packed or not. */
    if (in->packed && rows > in->loss_short_tokens) return HWFIT_OK;
    uint64_t n = rows < in->loss_short_tokens ? rows : in->loss_short_tokens;
    uint64_t slot = in->loss_short == HWFIT_MEMORY_LOSS_INPLACE_CAST ? a_bytes : 0;
    if (in->outputs_fp32 && slot < 4) slot = 4;
    int of = 0;
    /* stored x n / rows, rounded up: n <= rows, so the quotient and remainder stay small */
    uint64_t part = add_c(mul_c(stored / rows, n, &of),
                          hwfit__ceil_div_u64(mul_c(stored % rows, n, &of), rows), &of);
    uint64_t per = add_c(add_c(4 * hidden, mul_c(a_bytes + slot, vocab, &of), &of), 8, &of);
    *bytes = add_c(part, mul_c(n, per, &of), &of);
    return of ? HWFIT_ERANGE : HWFIT_OK;
}

/* hwfit__fused_chunks of an estimate: allocated before the loss, the weights, the stored
 * activations and the loss's kept tensors; the chunk's work joins the forward's end (cast).
 * Apart from phases_of to keep its frame small (tests/stack). */
static HWFIT__NOINLINE hwfit_status chunks_of(const hwfit_model *model,
                                              const hwfit_memory_in *in, uint64_t stored,
                                              uint64_t loss, hwfit__phase_parts *ph,
                                              hwfit_memory_out *r) {
    const uint64_t ab = hwfit__act_bytes(in),
                   v = hwfit__ceil_div_u64(model->vocab, in->tensor_parallel);
    uint64_t rows = 0, used = 0;
    if (hwfit__mul_u64(in->context, in->micro_batch, &rows) != HWFIT_OK ||
        hwfit__add_u64(r->weights_bytes, stored, &used) != HWFIT_OK ||
        hwfit__add_u64(used, loss, &used) != HWFIT_OK)
        return HWFIT_ERANGE;
    hwfit_status st = hwfit__fused_chunks(in, in->card_bytes, used, rows, v, model->hidden, ab,
                                          &r->loss_chunks, &r->loss_chunk_bytes);
    if (st == HWFIT_OK)
        st = hwfit__short_forward(in, stored, rows, v, model->hidden, ab, &ph->short_fwd);
    if (st != HWFIT_OK) return st;
    return hwfit__add_u64(ph->cast, r->loss_chunk_bytes, &ph->cast);
}

static hwfit_status phases_of(const hwfit_model *model, const hwfit_memory_in *in,
                              uint64_t stored,
                              uint64_t loss, uint64_t transient, uint64_t layer,
                              uint64_t grad_unit, uint64_t state_b, const uint64_t held[8],
                              hwfit_memory_out *r) {
    const int training = in->mode != HWFIT_MEMORY_INFERENCE;
    hwfit__phase_parts ph;
    memset(&ph, 0, sizeof ph);
    ph.training = training;
    if (hwfit__add_u64(r->weights_bytes, r->optimizer_bytes, &ph.fixed) != HWFIT_OK ||
        hwfit__add_u64(ph.fixed, r->kv_bytes, &ph.fixed) != HWFIT_OK)
        return HWFIT_ERANGE;
    if (training) {
        /* The whole masks (whole_masks) live from the first forward to the end of the run. */
        if (hwfit__add_u64(ph.fixed, r->masks_bytes, &ph.fixed) != HWFIT_OK) return HWFIT_ERANGE;
        ph.stored = stored;
        ph.loss = loss;
        ph.transient = transient;
        ph.layer = layer;
        ph.dequant = r->dequant_bytes;
        ph.carried = r->carried_bytes;
        ph.built = held[0];
        ph.kept = held[1];
        ph.cast = held[2];
        ph.head_grad = held[3];
        ph.loss_head = held[4];
        ph.eval = held[5];
        ph.eval_res = held[6];
        /* The head's copy and a loss chunk's work (hwfit__memory_head_copy). */
        if (hwfit__memory_head_copy(model, in, &r->head_cast_bytes, &ph.head_copy) != HWFIT_OK)
            return HWFIT_ERANGE;
        /* The dense mask of a flex attention with sinks, built in the forward
         * (sink_mask_bytes). */
        if (hwfit__sink_mask(model, in, &ph.mask_build) != HWFIT_OK) return HWFIT_ERANGE;
        if (strands_of(model, in, &ph) != HWFIT_OK) return HWFIT_ERANGE;
        if (chunks_of(model, in, stored, loss, &ph, r) != HWFIT_OK) return HWFIT_ERANGE;
        ph.weights = r->weights_bytes;
        ph.load = r->load_bytes; /* the transient, until hwfit__memory_phases */
        ph.warmup = held[7];
        ph.grads = r->gradient_bytes;
        ph.grad_unit = grad_unit;
        if (!in->fused_optimizer && in->optimizer == HWFIT_MEMORY_ADAMW && !in->paged_optimizer &&
            hwfit__mul_u64(r->trainable_params, state_b, &ph.step_temp) != HWFIT_OK)
            return HWFIT_ERANGE;
        /* grads_upcast_in_step: Megatron-Core's optimizers copy the 16-bit gradients to
         * fp32 for the step (_copy_model_grads_to_main_grads, shard_main_param.grad =
         * shard_model_grad.float()), held until the next iteration's zero_grad. */
        uint64_t up = 0;
        if (hwfit__grads_upcast(in) &&
            (hwfit__mul_u64(r->trainable_params, 4u, &up) != HWFIT_OK ||
             hwfit__add_u64(ph.step_temp, up, &ph.step_temp) != HWFIT_OK))
            return HWFIT_ERANGE;
    } else {
        ph.stored = r->activation_bytes;
    }
    hwfit__phase_choices ch = hwfit__phase_choices_of(in);
    hwfit_status st = hwfit__memory_phases(&ch, &ph, r->overhead_bytes, r);
    if (st == HWFIT_OK) hwfit__records_cap(r, in->card_bytes);
    return st;
}

/* The previous micro-batch's graph that the loop still holds (previous_graph): its logits
 * (A sbV / t) and, for bitsandbytes 4-bit layers (qlora_inputs_kept), the inputs MatMul4Bit
 * keeps as ctx.tensors (a plain attribute, which backward does not release): per token and
 * layer the attention's input h and the output projection's a dv, the MLP's input h and the
 * down projection's F (replicated parts / t only under sequence parallelism); the head's
 * input h when the head is quantized. */
static hwfit_status carried_bytes(const hwfit_model *model, const hwfit_memory_in *in,
                                  uint64_t v_head_dim, int head_quantized, uint64_t a_bytes,
                                  uint64_t t, uint64_t sb, uint32_t dense_n, uint32_t moe_n,
                                  uint64_t *out) {
    int overflow = 0;
    uint64_t carried = 0;
    if (in->head)
        carried = hwfit__ceil_div_u64(
            mul_c(mul_c(sb, model->vocab, &overflow), a_bytes, &overflow), t);
    if (in->mode == HWFIT_MEMORY_QLORA && in->qlora_inputs_kept) {
        uint64_t rep = 2 * model->hidden, av = (uint64_t)model->heads * v_head_dim;
        for (int k = 0; k < 2; k++) {
            uint32_t n = k ? moe_n : dense_n;
            if (!n) continue;
            uint64_t fk = k ? (uint64_t)model->experts_per_token * model->expert_intermediate +
                                  (uint64_t)model->shared_experts * model->shared_expert_intermediate
                            : model->intermediate;
            uint64_t r1 = mul_c(mul_c(sb, rep, &overflow), a_bytes, &overflow);
            if (in->sequence_parallel) r1 = hwfit__ceil_div_u64(r1, t);
            uint64_t s1 = hwfit__ceil_div_u64(
                mul_c(mul_c(sb, av + fk, &overflow), a_bytes, &overflow), t);
            carried = add_c(carried, mul_c(add_c(r1, s1, &overflow), n, &overflow), &overflow);
        }
        if (in->head && head_quantized)
            carried = add_c(carried, mul_c(mul_c(sb, model->hidden, &overflow), a_bytes,
                                           &overflow),
                            &overflow);
    }
    if (overflow) return HWFIT_ERANGE;
    *out = carried;
    return HWFIT_OK;
}


/* The head weight's copy the loss's matmul keeps, and the loss's one-chunk work, per card
 * (memory.h head_cast_kept, HWFIT_MEMORY_LOSS_TRL_CHUNKED; docs/formulas.md,
 * "head_cast_kept"). head_b: the head's stored bytes per element (0: quantized, no plain
 * copy). a: the activations' bytes (below 4: autocast). t: tensor-parallel ranks (the head
 * split over the vocabulary). rows: the micro-batch's tokens.
 * - head_cast_kept (transformers' nn.Linear head, frozen, stored in fp32, under autocast):
 *   aten's cached_cast caches a cast only for a leaf that requires a gradient, so each use
 *   casts afresh and the matmul saves the cast for its input's gradient: V h A / t from the
 *   forward's end through the head's backward. A trained head (mode full, full_modules)
 *   is cast once per autocast region and counted with the weights' copies elsewhere: none
 *   here; losses that never run the head as one matmul (fused, fused-chunked, trl-chunked,
 *   which counts its own): none.
 * - trl-chunked (TRL's _chunk: `h.float() @ w.float().t()` under checkpoint, one chunk of
 *   c = min(loss_chunk_tokens, rows) rows at a time): the matmul saves its right operand
 *   through the chunk's backward, the A-byte cast of an fp32 head under autocast (w.float()
 *   returns the head itself), the A-byte cast of a 16-bit head beside the 4-byte copy
 *   w.float() made (a transient while the chunk's logits are made), the 4-byte copy of a
 *   16-bit head without autocast, nothing for an fp32 head without autocast; the chunk's
 *   logits, their fp32 cast, log-softmax, exp and product ((A + 12) c V / t, the backward's
 *   log-softmax, its gradient and nll_loss's the same or less). *kept is the saved copy,
 *   *work the rest at the chunk's peak: max(transient copy + A c V, (A + 12) c V). */
static hwfit_status head_cast(const hwfit_model *model, const hwfit_memory_in *in,
                              uint64_t head_b, uint64_t a, uint64_t t, uint64_t rows,
                              uint64_t *kept, uint64_t *work) {
    *kept = *work = 0;
    if (in->mode == HWFIT_MEMORY_INFERENCE || !in->head || head_b == 0) return HWFIT_OK;
    int of = 0;
    const uint64_t vh = hwfit__ceil_div_u64(mul_c(model->vocab, model->hidden, &of), t),
                   v = hwfit__ceil_div_u64(model->vocab, t);
    const int autocast = a < 4;
    if (in->loss == HWFIT_MEMORY_LOSS_TRL_CHUNKED) {
        uint64_t c = min_u64(in->loss_chunk_tokens, rows), trans = 0;
        if (autocast) *kept = mul_c(vh, a, &of);
        else if (head_b < 4) *kept = mul_c(vh, 4, &of);
        if (autocast && head_b < 4) trans = mul_c(vh, 4, &of);
        uint64_t logits = mul_c(mul_c(c, v, &of), a, &of),
                 chunk = mul_c(mul_c(c, v, &of), a + 12, &of);
        uint64_t w1 = add_c(trans, logits, &of);
        *work = w1 > chunk ? w1 : chunk;
    } else if (in->head_cast_kept && autocast && head_b == 4 &&
               in->mode != HWFIT_MEMORY_FULL && !(in->full_modules & HWFIT_FULL_HEAD) &&
               !((in->full_modules & HWFIT_FULL_EMBEDDING) && !in->untied_head &&
                 model->tie_embeddings) &&
               !hwfit__loss_fused(in->loss) &&
               in->loss != HWFIT_MEMORY_LOSS_FUSED_CHUNKED) {
        *kept = mul_c(vh, a, &of);
    }
    return of ? HWFIT_ERANGE : HWFIT_OK;
}

/* The model's outputs held beyond its activations. kv_built (transformers' use_cache=True in
 * training: LlamaModel.forward appends each layer's key and value states to
 * past_key_values, which the output holds until the forward returns; llama-recipes PR #165
 * drops it as "saves ~4 GB in activation memory"): with full recomputation the checkpointed
 * layers keep no K and V, so the cache is extra, the values cached per token and layer
 * (dims.kv_values, K + V) x s b x the activations' bytes / t for each layer held; without
 * it those are the saved tensors themselves. outputs_kept (the loop's `outputs` alive through
 * backward): the logits, s b V / t in fp32 when the loss upcasts (transformers'
 * logits.float()), else in the activations' format, on the device with the head. cast
 * (loss inplace-cast): their copy in the config's format, s b V A / t, live at the
 * forward's end and in the loss's backward only (hwfit__memory_phases). outputs_fp32
 * (Accelerate's ConvertOutputsToFp32 around the forward under mixed precision,
 * accelerate/utils/operations.py convert_to_fp32: `tensor.float()` on each fp16/bf16
 * output) with a loss that leaves the logits 16-bit (inplace, inplace-cast): their fp32
 * copy, 4 s b V / t, made as the forward returns, after inplace-cast's cast copy is freed
 * (CausalLM_fast_forward rebinds `logits`), and dropped with the outputs before backward
 * (Trainer.compute_loss returns the loss): the forward's end holds the larger, in the
 * same slot; outputs_kept then keeps the fp32 copy. */
static hwfit_status outputs_held(const hwfit_model *model, const hwfit__model_prep *prep,
                                 const hwfit_memory_in *in, uint64_t a_bytes, uint64_t t,
                                 uint64_t sb, uint64_t layers, uint64_t *built,
                                 uint64_t *kept, uint64_t *cast) {
    int overflow = 0;
    if (in->kv_built && in->recompute == HWFIT_MEMORY_RECOMPUTE_FULL)
        *built = hwfit__ceil_div_u64(
            mul_c(mul_c(mul_c(prep->dims.kv_values, sb, &overflow), a_bytes, &overflow),
                  layers, &overflow),
            t);
    int f32 = in->outputs_fp32 && (in->loss == HWFIT_MEMORY_LOSS_INPLACE ||
                                   in->loss == HWFIT_MEMORY_LOSS_INPLACE_CAST);
    /* probs_kept: the tensor the loop derives from the logits (softmax for a metric) and
     * keeps, the size of the kept logits: the softmax of the fp32 logits when the loss
     * upcasts, else in the activations' format. */
    if ((in->outputs_kept || in->probs_kept) && in->head) {
        uint64_t lb = in->loss == HWFIT_MEMORY_LOSS_UPCAST ||
                              in->loss == HWFIT_MEMORY_LOSS_UPCAST_FREED || f32
                          ? 4
                          : a_bytes;
        *kept = hwfit__ceil_div_u64(mul_c(mul_c(sb, model->vocab, &overflow), lb, &overflow), t);
    }
    /* Loss inplace-cast: the logits' copy in the config's format beside them (loss above);
     * outputs_fp32: their fp32 copy at the forward's return, the cast copy freed by then. */
    uint64_t cb = in->loss == HWFIT_MEMORY_LOSS_INPLACE_CAST ? a_bytes : 0;
    if (f32 && cb < 4) cb = 4;
    if (cb && in->head)
        *cast = hwfit__ceil_div_u64(mul_c(mul_c(sb, model->vocab, &overflow), cb, &overflow), t);
    return overflow ? HWFIT_ERANGE : HWFIT_OK;
}

/* DoRA as PEFT computes it (peft tuners/lora/dora.py DoraLinearLayer.forward, at 0a6cd5a):
 * each adapted linear (not a routed expert) makes, besides its LoRA path, the identity
 * x_eye (I x I in the input's format, xb), lora_weight = lora_B(lora_A(x_eye)).T (O x I in
 * the autocast format A), the base weight as dequantize_module_weight(...).to(x.dtype)
 * (a copy when the base is quantized or stored in another format than xb), and in
 * get_weight_norm the scaled lora_weight (A) and their sum (xb) before the column norm;
 * the norm is detached, so those are freed as the forward returns, but F.linear(x, weight)
 * saves the weight for the input's gradient: a copy stays with the layer's saved tensors
 * to its backward. *saved: the copies one layer of kind k keeps (O I xb each, / t);
 * *peak: the largest adapted linear's weight-norm temporaries, I^2 xb + O I (2A + xb), / t.
 * xb: the input's bytes (fp32 on a k-bit PEFT base whose hidden states are fp32,
 * residual_fp32; else A). */
static hwfit_status dora_weights(const hwfit__model_prep *prep, const hwfit_memory_in *in,
                                 const formats *f, int k, uint64_t a, uint64_t t,
                                 uint64_t *saved, uint64_t *peak) {
    *saved = *peak = 0;
    const uint64_t xb = in->residual_fp32 && f->base_quantized ? 4 : a;
    const unsigned targets = lora_targets_of(in->lora_targets, 0);
    hwfit__dtype_block bb, ib, mb;
    if (hwfit__dtype_block_of(f->base, &bb) != HWFIT_OK) return HWFIT_EINVAL;
    ib = mb = bb;
    if (f->modules) {
        (void)hwfit__dtype_block_of(f->attn, &ib);
        (void)hwfit__dtype_block_of(f->mlp, &mb);
    }
    int of = 0;
    const hwfit__tensor *tn = prep->tensors[k];
    for (size_t i = 0; i < prep->tensor_count[k]; i++) {
        if (tn[i].kind != HWFIT__TENSOR_LINEAR || tn[i].routed || !(tn[i].lora & targets))
            continue;
        const hwfit__dtype_block *d = &bb;
        if (f->modules && (tn[i].lora & HWFIT__LORA_ATTENTION_BITS)) d = &ib;
        else if (f->modules && (tn[i].lora & HWFIT__LORA_MLP_BITS)) d = &mb;
        const uint64_t oi = mul_c(tn[i].rows, tn[i].cols, &of);
        const int copy = d->quantized || d->elements != 1 || d->bits / 8 != xb;
        if (copy) *saved = add_c(*saved, mul_c(mul_c(oi, xb, &of), tn[i].count, &of), &of);
        uint64_t tmp = add_c(mul_c(mul_c(tn[i].cols, tn[i].cols, &of), xb, &of),
                             mul_c(oi, 2 * a + xb, &of), &of);
        if (tmp > *peak) *peak = tmp;
    }
    *saved = hwfit__ceil_div_u64(*saved, t);
    *peak = hwfit__ceil_div_u64(*peak, t);
    return of ? HWFIT_ERANGE : HWFIT_OK;
}

/* dora_weights over the kinds of layers present: the copies one layer of each keeps
 * (saved) and the largest temporaries of any (*peak). Apart from estimate_prepared to keep
 * its frame small (tests/stack). */
static HWFIT__NOINLINE hwfit_status dora_kinds(const hwfit__model_prep *prep,
                                               const hwfit_memory_in *in, const formats *f,
                                               uint32_t dense_n, uint32_t moe_n, uint64_t a,
                                               uint64_t t, uint64_t saved[2], uint64_t *peak) {
    *peak = 0;
    for (int k = 0; k < 2; k++) {
        hwfit_status st;
        uint64_t pk = 0;
        saved[k] = 0;
        if (!(k ? moe_n : dense_n)) continue;
        if ((st = dora_weights(prep, in, f, k, a, t ? t : 1, &saved[k], &pk)) != HWFIT_OK)
            return st;
        if (pk > *peak) *peak = pk;
    }
    return HWFIT_OK;
}

/* The largest quantized matrix held, dequantized to the activation format (a_bytes per
 * value), divided by t (dequant_transient; estimate_prepared's formats). Apart from
 * estimate_prepared to keep its frame small (tests/stack). */
static hwfit_status dequant_bytes(const hwfit_model *model, const hwfit__model_prep *prep,
                                  const hwfit_memory_in *in, const formats *f,
                                  const hwfit__dtype_block *base_info, int head_quantized,
                                  uint32_t dense_n, uint32_t moe_n, uint64_t a_bytes, uint64_t t,
                                  uint64_t *out) {
    hwfit__dtype_block ib, mb, eb;
    ib = mb = eb = *base_info;
    if (f->modules) {
        (void)hwfit__dtype_block_of(f->attn, &ib);
        (void)hwfit__dtype_block_of(f->mlp, &mb);
        (void)hwfit__dtype_block_of(f->expert, &eb);
    }
    uint64_t largest = 0;
    for (int k = 0; k < 2; k++) {
        if (!(k ? moe_n : dense_n)) continue;
        const hwfit__tensor *tn = prep->tensors[k];
        for (size_t i = 0; i < prep->tensor_count[k]; i++) {
            if (tn[i].kind != HWFIT__TENSOR_LINEAR) continue;
            const hwfit__dtype_block *d = base_info;
            if (f->modules) {
                if (tn[i].routed) d = &eb;
                else if (tn[i].lora & HWFIT__LORA_ATTENTION_BITS) d = &ib;
                else if (tn[i].lora & HWFIT__LORA_MLP_BITS) d = &mb;
            }
            /* rows x cols: one matrix of a model whose parameter count fits 64 bits */
            if (d->quantized && tn[i].rows * tn[i].cols > largest) largest = tn[i].rows * tn[i].cols;
        }
    }
    if (in->head && head_quantized && model->vocab * model->hidden > largest)
        largest = model->vocab * model->hidden;
    uint64_t b;
    if (hwfit__mul_u64(largest, a_bytes, &b) != HWFIT_OK) return HWFIT_ERANGE;
    *out = hwfit__ceil_div_u64(b, t);
    return HWFIT_OK;
}

/* The formats as estimate_prepared resolves them (formats_of without its checks, for inputs
 * estimate_prepared has validated): base, unquantized and per-module formats, whether any
 * linear is quantized, the base format's block and the activations' element bytes. */
static hwfit_status resolved_formats(const hwfit_memory_in *in, formats *f,
                                     hwfit__dtype_block *base_info, uint64_t *a_bytes) {
    memset(f, 0, sizeof *f);
    f->base = in->mode == HWFIT_MEMORY_QLORA ? in->qlora_base : in->weights;
    f->other = in->unquantized;
    f->modules = in->module_formats != 0;
    f->attn = in->attention_weights;
    f->mlp = in->mlp_weights;
    f->expert = in->expert_weights;
    hwfit__dtype_block act, mod;
    if (hwfit__dtype_block_of(f->base, base_info) != HWFIT_OK ||
        hwfit__dtype_block_of(in->activations, &act) != HWFIT_OK)
        return HWFIT_EINVAL;
    f->base_quantized = base_info->quantized;
    const hwfit_dtype mods[3] = {f->attn, f->mlp, f->expert};
    for (int k = 0; f->modules && k < 3; k++)
        if (hwfit__dtype_block_of(mods[k], &mod) == HWFIT_OK && mod.quantized)
            f->base_quantized = 1;
    *a_bytes = act.bits / 8;
    return HWFIT_OK;
}

/* The head's stored bytes per element as resolved_formats gives the formats: the linear
 * weights' format for a head of its own (untied_head), else the embedding's (unquantized
 * when a quantized model keeps its tables wider); 0 when quantized (no plain copy). */
static uint64_t head_plain_bytes(const hwfit_memory_in *in, const formats *f) {
    hwfit_dtype emb_d = (f->base_quantized && in->keep_embeddings) ? f->other : f->base;
    hwfit__dtype_block b;
    if (hwfit__dtype_block_of(in->untied_head && in->head ? f->base : emb_d, &b) != HWFIT_OK ||
        b.quantized || b.elements != 1)
        return 0;
    return b.bits / 8;
}

HWFIT__NOINLINE hwfit_status hwfit__memory_head_copy(const hwfit_model *model,
                                                     const hwfit_memory_in *in, uint64_t *kept,
                                                     uint64_t *total) {
    *kept = *total = 0;
    formats f;
    uint64_t a = 0, rows = 0, work = 0;
    hwfit__dtype_block base_info;
    if (!hwfit__head_copy_on(in)) return HWFIT_OK;
    if (resolved_formats(in, &f, &base_info, &a) != HWFIT_OK) return HWFIT_EINVAL;
    if (hwfit__mul_u64(in->context, in->micro_batch, &rows) != HWFIT_OK) return HWFIT_ERANGE;
    hwfit_status st = head_cast(model, in, head_plain_bytes(in, &f), a,
                                in->tensor_parallel ? in->tensor_parallel : 1, rows, kept, &work);
    if (st == HWFIT_OK && hwfit__add_u64(*kept, work, total) != HWFIT_OK) st = HWFIT_ERANGE;
    return st;
}

hwfit_status hwfit__memory_extras(const hwfit_model *model, const hwfit__model_prep *prep,
                                  const hwfit_memory_in *in, uint32_t dense_n, uint32_t moe_n,
                                  uint64_t *dequant, uint64_t *carried, uint64_t *load,
                                  uint64_t *built, uint64_t *kept, uint64_t *cast) {
    *dequant = *carried = *load = *built = *kept = *cast = 0;
    if (hwfit__memory_extras_off(in)) return HWFIT_OK;
    formats f;
    uint64_t a_bytes;
    hwfit__dtype_block base_info, mod;
    if (resolved_formats(in, &f, &base_info, &a_bytes) != HWFIT_OK) return HWFIT_EINVAL;
    hwfit_dtype emb_d = (f.base_quantized && in->keep_embeddings) ? f.other : f.base;
    uint64_t t = in->tensor_parallel ? in->tensor_parallel : 1, sb;
    if (hwfit__mul_u64(in->context, in->micro_batch, &sb) != HWFIT_OK) return HWFIT_ERANGE;
    /* The head: in the linear weights' format (untied_head) or the embedding's. */
    int head_q = hwfit__dtype_block_of(in->untied_head && in->head ? f.base : emb_d, &mod) ==
                     HWFIT_OK &&
                 mod.quantized;
    hwfit_status st = HWFIT_OK;
    /* dequant_work_bytes: the dequantization's own work beside its output, unless compiled
     * (inductor fuses the pointwise chain into the output's kernel). */
    if (in->dequant_transient)
        st = dequant_bytes(model, prep, in, &f, &base_info, head_q, dense_n, moe_n,
                           a_bytes + (in->compile ? 0u : in->dequant_work_bytes), t, dequant);
    /* DoRA's weight-norm temporaries (dora_weights) in each adapted linear's forward and
     * recomputation, after its base matmul has freed its own dequantized copy: the larger
     * of the two at a time. */
    if (st == HWFIT_OK && in->dora && in->mode != HWFIT_MEMORY_FULL) {
        uint64_t sv[2], pk = 0;
        st = dora_kinds(prep, in, &f, dense_n, moe_n, a_bytes, t, sv, &pk);
        if (pk > *dequant) *dequant = pk;
    }
    if (st == HWFIT_OK && in->previous_graph)
        st = carried_bytes(model, in, prep->dims.v_head_dim, head_q, a_bytes, t, sb, dense_n,
                           moe_n, carried);
    if (st == HWFIT_OK) st = outputs_held(model, prep, in, a_bytes, t, sb, dense_n + moe_n,
                                          built, kept, cast);
    /* Quantizing on the device at load (load_quantize_bytes): the largest quantized matrix
     * (its elements / t) times the bytes per element its quantization holds at once. */
    if (st == HWFIT_OK && in->load_quantize_bytes > 0.0) {
        uint64_t elements = 0;
        st = dequant_bytes(model, prep, in, &f, &base_info, head_q, dense_n, moe_n, 1, t,
                           &elements);
        double b = (double)elements * in->load_quantize_bytes;
        if (st == HWFIT_OK && b >= 9007199254740992.0) st = HWFIT_ERANGE;
        if (st == HWFIT_OK) {
            *load = (uint64_t)b;
            if ((double)*load < b) ++*load;
        }
    }
    return st;
}


/* ---- The evaluation forward's segments: PyTorch's caching allocator replayed -------------
 *
 * The evaluation forward keeps each layer's K and V (eval_kv_cache) while the layer's
 * transients come and go, all from one pool of one stream. PyTorch's CUDACachingAllocator
 * (c10/cuda/CUDACachingAllocator.cpp, torch 2.1: get_free_block, alloc_block,
 * free_block/try_merge_blocks; see hwfit__strands) serves a request above 1 MiB from the
 * smallest cached free block at least as large (best fit), splits off the rest when more
 * than 1 MiB remains (shouldSplit), takes a new segment of the request rounded up to 2 MiB
 * (20 MiB below 10 MiB) when none fits, merges a freed block with its free neighbours in
 * the same segment only, and releases nothing while cudaMalloc succeeds. A K/V entry carved
 * out of a freed transient block pins that segment to the forward's end: the next layer's
 * transient of that size finds no block and takes a new segment, layer after layer. The
 * replay runs the evaluation forward's requests through those rules and returns the bytes
 * of the segments it took (reserved only grows). Requests of 1 MiB or less go to the
 * small pool and are left out. The requests, per layer at e tokens (sizes / t), follow
 * transformers' LlamaDecoderLayer/MistralDecoderLayer/MixtralDecoderLayer.forward
 * (huggingface/transformers at 5dd4a63548857797727ae73eeb6a6e886ea02a3e) under fp16/bf16
 * autocast with R-byte hidden states (R = 4 with residual_fp32 on a quantized base, else
 * A): the RMSNorm's pow, normalized and weighted copies (R); every linear's A-byte output
 * (autocast) with the A-byte cast of an R-byte input, a bitsandbytes 4-bit linear's cast
 * back to its input's dtype (bitsandbytes 0.42 nn/modules.py Linear4bit.forward
 * `out.to(inp_dtype)`), PEFT's LoRA on it (peft at ce925d844a, tuners/lora/bnb.py
 * Linear4bit.forward: `result.clone()` on a 4-bit base, lora_A's rank-wide output, lora_B's
 * output and its scaled copy in A bytes, the sum); rotary embeddings of q and k
 * (apply_rotary_pos_emb: q*cos, the negated half, rotate_half's cat, *sin, the sum; the
 * gathered cos and sin); the K/V entries kept; the A-byte copies of q, k and v for flash
 * attention and its A-byte output; the residual sums; the gated MLP (act(gate) * up, down)
 * or each routed expert at its balanced share e x top-k / E of tokens (MixtralSparseMoeBlock:
 * the gathered rows, the expert's MLP, the routing-weighted output) beside the R-byte sum
 * it adds into. Then the head: the final norm, the A-byte logits, and for upcast-freed the
 * model's fp32 copy that frees them (`logits = logits.float()`), the shifted contiguous
 * copy and the log-softmax (transformers up to 4.45); for the other losses the logits and
 * one block of the rest of the loss's bytes. Each bitsandbytes matmul's dequantized weight
 * is left out (its dtype is the compute dtype, not an input; one matrix at a time, at most
 * a few hundred MiB: 0.1 GiB on the Llama 2 7B run's replay). The table
 * holds the free and live blocks, HWFIT__REPLAY_BLOCKS at most (a pinned K/V entry leaves
 * it: freed only at the end, it only cuts its segment in two); a replay that needs more
 * reports 0 (the fraction alone). */
#define HWFIT__REPLAY_BLOCKS 64
#define HWFIT__MIB ((uint64_t)1 << 20)
typedef struct {
    uint32_t units; /* bytes / 512 (round_size's granule) */
    uint16_t id;    /* a live block's request; 0: free */
    uint16_t seg;   /* its run of mergeable blocks (a segment, cut at each pinned entry) */
} replay_block;
typedef struct {
    replay_block b[HWFIT__REPLAY_BLOCKS];
    uint32_t n;
    uint16_t ids, segs;
    int full, of, wrapped;
    uint64_t reserved;
} replay_pool;

/* Block i leaves the table (a loop, not memmove: the replay sits on the deepest stack
 * chains, tests/stack). */
static void replay_remove(replay_pool *p, uint32_t i) {
    for (p->n--; i < p->n; i++) p->b[i] = p->b[i + 1];
}

/* The next request id (what = 0) or run id (what = 1) that no block in the table uses
 * (16 bits wrap; the table holds far fewer; searched only once the counter has wrapped). */
static uint16_t replay_next(replay_pool *p, int what) {
    uint16_t *c = what ? &p->segs : &p->ids;
    for (;;) {
        if (++*c == 0) {
            p->wrapped |= 1 << what;
            continue;
        }
        if (!(p->wrapped & (1 << what))) return *c;
        uint32_t i = 0;
        while (i < p->n && (what ? p->b[i].seg : p->b[i].id) != *c) i++;
        if (i == p->n) return *c;
    }
}

/* A request of `size` bytes: its id (0 when left out: small pool, a full table). */
static uint16_t replay_malloc(replay_pool *p, uint64_t size) {
    if (p->full || p->of || size <= HWFIT__MIB) return 0;
    uint64_t units = (size + 511) / 512; /* round_size */
    if (units > UINT32_MAX / 2) { p->of = 1; return 0; }
    uint32_t u = (uint32_t)units, best = UINT32_MAX;
    for (uint32_t i = 0; i < p->n; i++)
        if (p->b[i].id == 0 && p->b[i].units >= u &&
            (best == UINT32_MAX || p->b[i].units < p->b[best].units))
            best = i;
    if (best == UINT32_MAX) { /* alloc_block: a new segment, 2 MiB granules (20 MiB below 10) */
        uint32_t g = (uint32_t)(2 * HWFIT__MIB / 512),
                 seg = units >= 10 * HWFIT__MIB / 512 ? (u + g - 1) / g * g
                                                      : (uint32_t)(20 * HWFIT__MIB / 512);
        if (p->n == HWFIT__REPLAY_BLOCKS) { p->full = 1; return 0; }
        p->b[p->n] = (replay_block){seg, 0, replay_next(p, 1)};
        best = p->n++;
        p->reserved = add_c(p->reserved, (uint64_t)seg * 512, &p->of);
    }
    if ((uint64_t)(p->b[best].units - u) * 512 > HWFIT__MIB) { /* shouldSplit: the rest stays free */
        if (p->n == HWFIT__REPLAY_BLOCKS) { p->full = 1; return 0; }
        for (uint32_t j = p->n; j > best + 1; j--) p->b[j] = p->b[j - 1];
        p->b[best + 1] = (replay_block){p->b[best].units - u, 0, p->b[best].seg};
        p->n++;
        p->b[best].units = u;
    }
    uint16_t id = replay_next(p, 0);
    p->b[best].id = id;
    return id;
}

static uint32_t replay_find(const replay_pool *p, uint16_t id) {
    for (uint32_t i = 0; i < p->n; i++)
        if (p->b[i].id == id) return i;
    return UINT32_MAX;
}

/* Free a request's block, merged with its free neighbours of the same segment. */
static void replay_free(replay_pool *p, uint16_t id) {
    uint32_t i = id ? replay_find(p, id) : UINT32_MAX;
    if (i == UINT32_MAX) return;
    p->b[i].id = 0;
    if (i + 1 < p->n && p->b[i + 1].seg == p->b[i].seg && p->b[i + 1].id == 0) {
        p->b[i].units += p->b[i + 1].units;
        replay_remove(p, i + 1);
    }
    if (i > 0 && p->b[i - 1].seg == p->b[i].seg && p->b[i - 1].id == 0) {
        p->b[i - 1].units += p->b[i].units;
        replay_remove(p, i);
    }
}

/* Keep a request's block to the forward's end (a K/V entry): it leaves the table, and the
 * blocks after it in its segment become a run of their own (they never merge across it). */
static void replay_pin(replay_pool *p, uint16_t id) {
    uint32_t i = id ? replay_find(p, id) : UINT32_MAX;
    if (i == UINT32_MAX) return;
    uint16_t seg = p->b[i].seg;
    replay_remove(p, i);
    uint16_t cut = replay_next(p, 1);
    for (uint32_t j = i; j < p->n && p->b[j].seg == seg; j++) p->b[j].seg = cut;
}

/* The table's state as the replay's next requests see it: each block's size, whether it is
 * free and whether it continues its neighbour's segment run (FNV-1a over them; ids and run
 * numbers are names, not state). */
static uint64_t replay_state(const replay_pool *p) {
    uint64_t x = 1469598103934665603ull;
    for (uint32_t i = 0; i < p->n; i++) {
        uint64_t w = (uint64_t)p->b[i].units << 2 | (uint64_t)(p->b[i].id == 0) << 1 |
                     (uint64_t)(i > 0 && p->b[i - 1].seg == p->b[i].seg);
        for (int k = 0; k < 8; k++) x = (x ^ ((w >> (8 * k)) & 0xffu)) * 1099511628211ull;
    }
    return x ^ p->n;
}

/* ---- Record lengths: the loss's requests replayed over longer and longer micro-batches --
 *
 * Unpacked micro-batches of varying length (hwfit_memory_in::record_lengths): each
 * micro-batch longer than all before it asks for logits-sized blocks no cached block holds
 * (the caching allocator above: best fit, split, merged within a segment, nothing released
 * while cudaMalloc succeeds), so it takes new segments and the earlier ones stay reserved;
 * later, shorter requests reuse them (best fit), so the reserve grows only at records. The
 * loss's requests per step, per logit (A: the 16-bit format, 4: fp32), as hwfit__strands
 * reads them:
 * - upcast-freed (transformers >= 4.49 ForCausalLMLoss under the Trainer): the A-byte
 *   logits; their fp32 copy; the fp32 log-softmax (saved); the copy freed as cross_entropy
 *   returns; the logits freed with the outputs before backward; then nll_loss's fp32
 *   gradient, log_softmax's fp32 gradient, the first freed, the saved log-softmax freed, the
 *   A-byte cast back, the fp32 gradient freed, the cast consumed by the head's matmul.
 * - upcast (the same loss with the model's outputs, and so the A-byte logits, held to
 *   the step's end: DeepSpeed's engine, loops that keep `outputs`): the logits, the fp32
 *   copy, the saved log-softmax, the copy freed; in backward nll_loss's and log_softmax's
 *   fp32 gradients, the first and the log-softmax freed, the cast back, the rest freed,
 *   the logits last ((A + 12) sbV at the peak, as the loss counts).
 * - inplace-cast with outputs_fp32 (Unsloth under Accelerate): the head's A-byte logits,
 *   their cast copy (saved), the head's freed, Accelerate's fp32 copy, then both freed.
 * With fp32 logits (A = 4: no autocast) the fp32 copy and the cast back do not exist
 * (`.float()` returns an fp32 tensor itself; its backward casts nothing).
 * Other losses keep no logits-class sequence the replay knows (fused and chunked losses
 * work in chunks): none. Each step runs whole (its
 * blocks freed at its end); the replay runs the records, then the longest, and subtracts
 * the longest alone: what hwfit__memory_phases' plain reserve does not already hold. */
#define REC_A 0u
#define REC_F32 1u
#define REC_CAST_F32 2u /* an fp32 copy of A-byte logits: none when A is 4 (.float() is a no-op) */
#define REC_CAST_A 3u   /* an A-byte cast of an fp32 gradient: none when A is 4 */
#define REC_FREE 0x80u
static const uint8_t rec_upcast_freed[] = {
    0 | REC_A << 4, 1 | REC_CAST_F32 << 4, 2 | REC_F32 << 4, REC_FREE | 1, REC_FREE | 0,
    3 | REC_F32 << 4, 4 | REC_F32 << 4, REC_FREE | 3, REC_FREE | 2, 5 | REC_CAST_A << 4,
    REC_FREE | 4, REC_FREE | 5};
static const uint8_t rec_upcast[] = {
    0 | REC_A << 4, 1 | REC_CAST_F32 << 4, 2 | REC_F32 << 4, REC_FREE | 1, 3 | REC_F32 << 4,
    4 | REC_F32 << 4, REC_FREE | 3, REC_FREE | 2, 5 | REC_CAST_A << 4, REC_FREE | 4,
    REC_FREE | 5, REC_FREE | 0};
static const uint8_t rec_inplace_cast[] = {
    0 | REC_A << 4, 1 | REC_A << 4, REC_FREE | 0, 2 | REC_F32 << 4, REC_FREE | 2,
    REC_FREE | 1};

/* One step's program at n logits: every block it takes is freed by its end. */
static void rec_step(replay_pool *p, const uint8_t *prog, size_t len, uint64_t n,
                     uint64_t a_bytes) {
    uint16_t live[8] = {0};
    for (size_t i = 0; i < len; i++) {
        unsigned slot = prog[i] & 0x0fu;
        if (prog[i] & REC_FREE) {
            replay_free(p, live[slot]);
            live[slot] = 0;
        } else {
            unsigned kind = prog[i] >> 4;
            /* fp32 logits: .float() returns them and its backward casts nothing */
            if ((kind == REC_CAST_F32 || kind == REC_CAST_A) && a_bytes >= 4) continue;
            uint64_t per = kind == REC_F32 || kind == REC_CAST_F32 ? 4u : a_bytes, bytes = 0;
            if (hwfit__mul_u64(n, per, &bytes) != HWFIT_OK) { p->of = 1; return; }
            live[slot] = replay_malloc(p, bytes);
        }
    }
}

HWFIT__NOINLINE hwfit_status hwfit__records(const hwfit_memory_in *in, uint64_t per_token,
                                            uint64_t longest, uint64_t a_bytes,
                                            uint64_t *bytes) {
    *bytes = 0;
    /* (fp32 logits grow with the length too: unlike the loss's own strand, any format) */
    if (in->mode == HWFIT_MEMORY_INFERENCE || in->expandable_segments || !in->head ||
        in->record_lengths[0] == 0 || in->context == 0)
        return HWFIT_OK;
    const uint8_t *prog = NULL;
    size_t len = 0;
    if (in->loss == HWFIT_MEMORY_LOSS_UPCAST_FREED && !in->outputs_kept)
        prog = rec_upcast_freed, len = sizeof rec_upcast_freed;
    else if (in->loss == HWFIT_MEMORY_LOSS_UPCAST ||
             (in->loss == HWFIT_MEMORY_LOSS_UPCAST_FREED && in->outputs_kept))
        prog = rec_upcast, len = sizeof rec_upcast;
    else if (in->loss == HWFIT_MEMORY_LOSS_INPLACE_CAST && in->outputs_fp32)
        prog = rec_inplace_cast, len = sizeof rec_inplace_cast;
    if (prog == NULL) return HWFIT_OK;
    uint64_t n = 0, alone = 0;
    if (hwfit__mul_u64(longest, per_token, &n) != HWFIT_OK) return HWFIT_ERANGE;
    replay_pool p;
    memset(&p, 0, sizeof p);
    rec_step(&p, prog, len, n, a_bytes);
    alone = p.reserved;
    if (p.of) return HWFIT_ERANGE;
    memset(&p, 0, sizeof p);
    for (unsigned k = 0; k < HWFIT_MEMORY_RECORDS && in->record_lengths[k] &&
                         in->record_lengths[k] < in->context; k++) {
        /* this rank's share of the record: longest / context of it (context parallel); a
         * record at or above the context (a search trying shorter ones) is no record */
        uint64_t tok = 0, nk = 0;
        if (hwfit__mul_u64(in->record_lengths[k], longest, &tok) != HWFIT_OK ||
            hwfit__mul_u64(tok / in->context, per_token, &nk) != HWFIT_OK)
            return HWFIT_ERANGE;
        rec_step(&p, prog, len, nk, a_bytes);
    }
    rec_step(&p, prog, len, n, a_bytes);
    if (p.of) return HWFIT_ERANGE;
    /* unreachable: a step takes at most 6 blocks and leaves one per segment, so 9 steps
     * stay within 60 of the table's 64; kept so that a longer program cannot overrun */
    if (p.full) return HWFIT_OK;
    *bytes = p.reserved > alone ? p.reserved - alone : 0;
    return HWFIT_OK;
}

typedef struct {
    uint64_t e, h, qd, kd, vd, hd, v, rank;
    uint64_t a, r; /* bytes: the activations' (autocast) format, the hidden states' */
    int quant, kv, gated;
    unsigned lora;
} replay_shape;

/* x * y * z bytes, overflow noted in the pool. */
static uint64_t rp_bytes(replay_pool *p, uint64_t x, uint64_t y, uint64_t z) {
    return mul_c(mul_c(x, y, &p->of), z, &p->of);
}

/* A linear of n tokens, nin -> nout, on an xb-byte input; LoRA when lora. Its output's
 * id; *ob its bytes (a 4-bit linear returns its input's dtype, a plain one under autocast
 * A; a LoRA sum promotes to the wider). */
static uint16_t rp_linear(replay_pool *p, const replay_shape *s, uint64_t n, uint64_t xb,
                          uint64_t nin, uint64_t nout, int lora, uint64_t *ob) {
    uint16_t xa = xb != s->a ? replay_malloc(p, rp_bytes(p, n, nin, s->a)) : 0;
    uint16_t o = replay_malloc(p, rp_bytes(p, n, nout, s->a));
    replay_free(p, xa);
    uint64_t b = s->quant ? xb : s->a;
    if (b != s->a) {
        uint16_t c = replay_malloc(p, rp_bytes(p, n, nout, b));
        replay_free(p, o);
        o = c;
    }
    if (lora) {
        if (s->quant) { /* PEFT's defensive clone of a 4-bit linear's result */
            uint16_t c = replay_malloc(p, rp_bytes(p, n, nout, b));
            replay_free(p, o);
            o = c;
        }
        uint16_t xl = xb != s->a ? replay_malloc(p, rp_bytes(p, n, nin, s->a)) : 0;
        uint16_t la = replay_malloc(p, rp_bytes(p, n, s->rank, s->a));
        replay_free(p, xl);
        uint16_t lb = replay_malloc(p, rp_bytes(p, n, nout, s->a));
        replay_free(p, la);
        uint16_t sc = replay_malloc(p, rp_bytes(p, n, nout, s->a));
        replay_free(p, lb);
        if (b < s->a) b = s->a;
        uint16_t sum = replay_malloc(p, rp_bytes(p, n, nout, b));
        replay_free(p, o);
        replay_free(p, sc);
        o = sum;
    }
    *ob = b;
    return o;
}

/* RMSNorm of n tokens (the pow, the normalized and the weighted copies). */
static uint16_t rp_norm(replay_pool *p, const replay_shape *s, uint64_t n) {
    uint64_t x = rp_bytes(p, n, s->h, s->r);
    uint16_t t = replay_malloc(p, x);
    replay_free(p, t);
    t = replay_malloc(p, x);
    uint16_t o = replay_malloc(p, x);
    replay_free(p, t);
    return o;
}

/* apply_rotary_pos_emb on a w-wide projection: its embedded copy's id. */
static uint16_t rp_rope(replay_pool *p, const replay_shape *s, uint64_t w) {
    uint64_t x = rp_bytes(p, s->e, w, s->r);
    uint16_t t1 = replay_malloc(p, x), nx = replay_malloc(p, x / 2), cat = replay_malloc(p, x);
    replay_free(p, nx);
    uint16_t t2 = replay_malloc(p, x);
    replay_free(p, cat);
    uint16_t out = replay_malloc(p, x);
    replay_free(p, t1);
    replay_free(p, t2);
    return out;
}

/* A (gated) MLP of n tokens and width w on the normed input (R bytes): its output's id. */
static uint16_t rp_mlp(replay_pool *p, const replay_shape *s, uint64_t n, uint64_t w) {
    uint64_t b = 0, b2 = 0;
    uint16_t g = rp_linear(p, s, n, s->r, s->h, w, (s->lora & HWFIT_LORA_GATE) != 0, &b);
    uint16_t act = replay_malloc(p, rp_bytes(p, n, w, b));
    replay_free(p, g);
    uint16_t in = act;
    if (s->gated) {
        uint16_t u = rp_linear(p, s, n, s->r, s->h, w, (s->lora & HWFIT_LORA_UP) != 0, &b2);
        if (b2 > b) b = b2;
        in = replay_malloc(p, rp_bytes(p, n, w, b));
        replay_free(p, act);
        replay_free(p, u);
    }
    uint16_t d = rp_linear(p, s, n, b, w, s->h, (s->lora & HWFIT_LORA_DOWN) != 0, &b2);
    replay_free(p, in);
    return d;
}

/* One decoder layer on the hidden states x (freed at its end): the new hidden states. */
static uint16_t rp_layer(replay_pool *p, const replay_shape *s, int moe, uint64_t w,
                         uint64_t experts, uint64_t ne, uint64_t shared_w, uint16_t x) {
    uint64_t e = s->e, ob = 0;
    uint16_t n1 = rp_norm(p, s, e);
    uint16_t q = rp_linear(p, s, e, s->r, s->h, s->qd, (s->lora & HWFIT_LORA_Q) != 0, &ob);
    uint16_t k = rp_linear(p, s, e, s->r, s->h, s->kd, (s->lora & HWFIT_LORA_K) != 0, &ob);
    uint16_t v = rp_linear(p, s, e, s->r, s->h, s->vd, (s->lora & HWFIT_LORA_V) != 0, &ob);
    uint16_t cs = replay_malloc(p, rp_bytes(p, e, s->hd, s->r)),
             sn = replay_malloc(p, rp_bytes(p, e, s->hd, s->r));
    uint16_t qe = rp_rope(p, s, s->qd), ke = rp_rope(p, s, s->kd);
    replay_free(p, cs);
    replay_free(p, sn);
    replay_free(p, q);
    replay_free(p, k);
    if (s->kv) { /* DynamicCache.update keeps them to the forward's end */
        replay_pin(p, ke);
        replay_pin(p, v);
    }
    uint16_t q16 = qe, k16 = 0, v16 = 0;
    if (s->r != s->a) { /* flash attention's casts back to the 16-bit format */
        q16 = replay_malloc(p, rp_bytes(p, e, s->qd, s->a));
        replay_free(p, qe);
        k16 = replay_malloc(p, rp_bytes(p, e, s->kd, s->a));
        v16 = replay_malloc(p, rp_bytes(p, e, s->vd, s->a));
    }
    uint16_t ao = replay_malloc(p, rp_bytes(p, e, s->qd, s->a));
    uint16_t o = rp_linear(p, s, e, s->a, s->qd, s->h, (s->lora & HWFIT_LORA_O) != 0, &ob);
    replay_free(p, ao);
    replay_free(p, q16);
    replay_free(p, k16);
    replay_free(p, v16);
    if (!s->kv) {
        replay_free(p, ke);
        replay_free(p, v);
    }
    replay_free(p, n1);
    uint16_t s1 = replay_malloc(p, rp_bytes(p, e, s->h, s->r));
    replay_free(p, o);
    uint16_t n2 = rp_norm(p, s, e), d;
    if (moe) { /* MixtralSparseMoeBlock: the experts one at a time into a zeroed sum */
        d = replay_malloc(p, rp_bytes(p, e, s->h, s->r));
        /* Every expert makes the same requests: once one leaves the table as it found it
         * (the same blocks, sizes, states and segment runs, and no new segment), the rest
         * repeat it exactly and are skipped. */
        uint64_t before = replay_state(p);
        for (uint64_t i = 0; i < experts && !p->full; i++) {
            uint64_t res = p->reserved;
            uint16_t cur = replay_malloc(p, rp_bytes(p, ne, s->h, s->r));
            uint16_t y = rp_mlp(p, s, ne, w);
            uint16_t rw = replay_malloc(p, rp_bytes(p, ne, s->h, s->r));
            replay_free(p, y);
            replay_free(p, cur);
            replay_free(p, rw);
            uint64_t after = replay_state(p);
            if (after == before && p->reserved == res) break;
            before = after;
        }
        if (shared_w) replay_free(p, rp_mlp(p, s, e, shared_w));
    } else {
        d = rp_mlp(p, s, e, w);
    }
    replay_free(p, n2);
    uint16_t s2 = replay_malloc(p, rp_bytes(p, e, s->h, s->r));
    replay_free(p, d);
    replay_free(p, s1);
    replay_free(p, x);
    return s2;
}

/* The replay of the evaluation forward of dense_n dense and moe_n MoE layers (dense first)
 * and, with the head, the final norm, logits and loss (ri->head: the loss's bytes as
 * hwfit__memory_eval counts them); ri->a the activations' bytes, ri->r the hidden states'.
 * Called after hwfit__memory_eval, not from it, to keep the deepest stack chains short
 * (tests/stack). */
HWFIT__NOINLINE
hwfit_status hwfit__memory_eval_segments(const hwfit_model *m, const hwfit__model_prep *prep,
                                         const hwfit_memory_in *in, uint32_t dense_n,
                                         uint32_t moe_n, const hwfit__eval_replay_in *ri,
                                         uint64_t *out) {
    *out = 0;
    if (!ri->on) return HWFIT_OK;
    const uint64_t a = ri->a, r = ri->r, t = ri->t, head_bytes = ri->head;
    const int quant = ri->quant;
    replay_pool p;
    p.n = 0;
    p.ids = p.segs = 0;
    p.full = p.of = p.wrapped = 0;
    p.reserved = 0;
    replay_shape s;
    s.e = mul_c(in->eval_batch, in->context, &p.of);
    s.h = m->hidden;
    s.qd = hwfit__ceil_div_u64(mul_c(m->heads, prep->dims.qk_head_dim, &p.of), t);
    s.kd = hwfit__ceil_div_u64(prep->dims.kv_values / 2, t);
    s.vd = hwfit__ceil_div_u64(prep->dims.kv_values - prep->dims.kv_values / 2, t);
    s.hd = prep->dims.qk_head_dim;
    s.v = hwfit__ceil_div_u64(m->vocab, t);
    s.rank = in->lora_rank;
    s.a = a;
    s.r = r;
    s.quant = quant;
    s.kv = in->eval_kv_cache != 0;
    s.gated = m->mlp == HWFIT_MODEL_MLP_GATED;
    s.lora = in->mode == HWFIT_MEMORY_FULL ? 0u : in->lora_targets;
    uint64_t experts = 0, ne = 0, shared_w = 0;
    if (moe_n && m->experts) {
        uint32_t ep = in->expert_parallel ? in->expert_parallel : 1;
        /* A card holds E / ep experts; each gets its share of the k e routed tokens of
         * every one of the ep ranks that dispatch to it: k e ep / E. */
        experts = hwfit__ceil_div_u64(m->experts, ep);
        ne = hwfit__ceil_div_u64(mul_c(mul_c(s.e, m->experts_per_token, &p.of), ep, &p.of),
                                 m->experts);
        shared_w = hwfit__ceil_div_u64(
            mul_c(m->shared_expert_intermediate, m->shared_experts, &p.of), t);
    }
    uint16_t x = replay_malloc(&p, rp_bytes(&p, s.e, s.h, s.r)); /* the layers' input */
    /* Layers of one kind make the same requests on the table they find. Between layers the
     * table's one live block is the layer's output (each layer frees its input; its K/V
     * entries are pinned, out of the table), so a table in the state (replay_state) it had
     * one or two layers before repeats from there with that period, each period reserving
     * what the last did. Whole periods of the rest of the kind are then counted, not
     * replayed: exact, and a 61-layer model costs a few layers (the period is 2 when the
     * output alternates between two blocks). */
    uint64_t st[2] = {0, 0}, res[2] = {0, 0}; /* one and two layers before */
    uint32_t seen = 0;                        /* layers of the kind replayed */
    for (uint32_t i = 0; i < dense_n + moe_n && !p.full && !p.of; i++) {
        int moe = i >= dense_n;
        if (i == dense_n) seen = 0; /* the first MoE layer: another kind of requests */
        uint64_t w = hwfit__ceil_div_u64(moe ? m->expert_intermediate : m->intermediate, t);
        x = rp_layer(&p, &s, moe, w, experts, ne, shared_w, x);
        uint64_t state = replay_state(&p), left = (moe ? dense_n + moe_n : dense_n) - i - 1;
        int period = seen >= 1 && state == st[0] ? 1 : seen >= 2 && state == st[1] ? 2 : 0;
        if (period && !p.full && left >= (uint64_t)period) {
            uint64_t skip = left - left % (uint64_t)period,
                     grew = p.reserved - (period == 1 ? res[0] : res[1]);
            p.reserved = add_c(p.reserved, mul_c(grew, skip / (uint64_t)period, &p.of), &p.of);
            i += (uint32_t)skip;
        }
        st[1] = st[0];
        res[1] = res[0];
        st[0] = state;
        res[0] = p.reserved;
        seen++;
    }
    if (in->head && !p.full && !p.of) {
        uint16_t fn = rp_norm(&p, &s, s.e);
        replay_free(&p, x);
        uint16_t x16 = s.r != s.a ? replay_malloc(&p, rp_bytes(&p, s.e, s.h, s.a)) : 0;
        uint64_t lg_b = rp_bytes(&p, s.e, s.v, s.a), in_b = rp_bytes(&p, s.e, s.h, s.a);
        uint16_t lg = replay_malloc(&p, lg_b);
        replay_free(&p, x16);
        if (in->loss == HWFIT_MEMORY_LOSS_UPCAST_FREED) {
            /* transformers up to 4.45 (LlamaForCausalLM.forward): `logits = logits.float()`
             * frees the 16-bit logits, then the shifted contiguous copy and the log-softmax */
            uint64_t f32 = rp_bytes(&p, s.e, s.v, 4);
            uint16_t c32 = replay_malloc(&p, f32);
            replay_free(&p, lg);
            (void)replay_malloc(&p, f32);
            (void)replay_malloc(&p, f32);
            (void)c32;
        } else if (head_bytes > lg_b + in_b) {
            (void)replay_malloc(&p, head_bytes - lg_b - in_b);
        }
        (void)fn;
    }
    if (p.of) return HWFIT_ERANGE;
    *out = p.full ? 0 : p.reserved;
    return HWFIT_OK;
}

/* The evaluation phase beyond the weights and the optimizer's states (evaluation;
 * docs/formulas.md, "The evaluation phase"): a forward under torch.no_grad at eval_batch
 * sequences of context tokens (tokens e = eval_batch x context) stores no activation for
 * backward, so what it holds is
 *  - the K/V cache (eval_kv_cache: transformers' LlamaModel.forward fills a DynamicCache when
 *    use_cache is on, each layer's update keeping its K and V, returned with the outputs):
 *    the values cached per token and layer (dims.kv_values, K + V) x e x bytes x the layers
 *    held, / t; bytes the activations' format, 4 when residual_fp32 on a quantized base
 *    (PEFT's k-bit preparation keeps the hidden states fp32, and the projections of a
 *    bitsandbytes linear return their input's dtype);
 *  - one layer's forward workspace at e tokens (infer_layer: buffers freed layer by layer);
 *  - the logits and loss at e tokens with the head, as the forward holds them at the
 *    loss (no backward): the head's A-byte input, then per logit by the loss kind: upcast
 *    A + 12 (transformers' ForCausalLMLoss: the A-byte logits the model holds, their fp32
 *    copy, the shifted contiguous copy and the fp32 log-softmax of cross_entropy),
 *    upcast-freed the larger of A + 8 (transformers 4.49 on: the logits, one fp32 copy,
 *    the log-softmax) and 12 (up to 4.45: the model's `logits.float()` frees the A-byte
 *    logits, then the shifted contiguous copy and the log-softmax; as the training
 *    forward counts it), fp32-copy A + 8, fp32
 *    4 + 4 (the fp32 logits and the log-softmax), compiled A, chunked A + 12/8 (one chunk of
 *    8 upcast; compiled: A), inplace A (and an fp32 log-sum-exp and loss per token; the
 *    cast copy A more with inplace-cast), chunked-inplace A with one chunk's 3 A c V work,
 *    fused: one chunk's fp32 logits and the hidden states' copy, 8h a token; fused-chunked:
 *    the head's input, the hidden states' gradient (A h) and one chunk's work, the chunks
 *    sized with nothing but the overhead allocated on the card (the target Unsloth cached
 *    at the training's first loss is not modelled); / t.
 * Called with a card's layers and head by shard.c. Apart from estimate_prepared to keep
 * its frame small (tests/stack). */
HWFIT__NOINLINE
hwfit_status hwfit__memory_eval(const hwfit_model *model, const hwfit__model_prep *prep,
                                const hwfit_memory_in *in, uint32_t dense_n, uint32_t moe_n,
                                uint64_t *out, hwfit__eval_replay_in *replay) {
    *out = 0;
    if (replay) memset(replay, 0, sizeof *replay);
    if (!in->evaluation || in->mode == HWFIT_MEMORY_INFERENCE) return HWFIT_OK;
    formats f;
    uint64_t a_bytes;
    hwfit__dtype_block base_info;
    if (resolved_formats(in, &f, &base_info, &a_bytes) != HWFIT_OK) return HWFIT_EINVAL;
    const int quantized = f.base_quantized;
    int of = 0;
    act_ctx c;
    memset(&c, 0, sizeof c);
    c.m = model;
    c.in = in;
    c.dims = prep->dims;
    c.a_bytes = a_bytes;
    c.t = in->tensor_parallel ? in->tensor_parallel : 1;
    uint64_t e = mul_c(in->eval_batch, in->context, &of), total = 0;
    if (of) return HWFIT_ERANGE;
    if (in->eval_kv_cache) {
        uint64_t kb = in->residual_fp32 && quantized && c.a_bytes < 4 ? 4 : c.a_bytes;
        total = hwfit__ceil_div_u64(
            mul_c(mul_c(mul_c(prep->dims.kv_values, e, &of), kb, &of), (uint64_t)dense_n + moe_n,
                  &of),
            c.t);
    }
    uint64_t layer = 0, k_b = 0, head = 0;
    if (dense_n && infer_layer(&c, 0, e, &layer) != HWFIT_OK) return HWFIT_ERANGE;
    if (moe_n && infer_layer(&c, 1, e, &k_b) != HWFIT_OK) return HWFIT_ERANGE;
    total = add_c(total, layer > k_b ? layer : k_b, &of);
    if (in->head) {
        uint64_t a = c.a_bytes, v = model->vocab, h = model->hidden, per = a * h, extra = 0;
        switch (in->loss) {
        case HWFIT_MEMORY_LOSS_UPCAST: per += (a + 12) * v; break;
        case HWFIT_MEMORY_LOSS_UPCAST_FREED:
        /* Liger materializes the logits in evaluation and runs transformers' loss on them */
        case HWFIT_MEMORY_LOSS_LIGER: per += (a + 8 > 12 ? a + 8 : 12) * v; break;
        case HWFIT_MEMORY_LOSS_FP32_COPY: per += (a + 8) * v; break;
        case HWFIT_MEMORY_LOSS_COMPILED: per += a * v; break;
        case HWFIT_MEMORY_LOSS_CHUNKED:
            per += a * v + (in->compile ? 0 : hwfit__ceil_div_u64(12 * v, 8));
            break;
        case HWFIT_MEMORY_LOSS_FUSED: per = 8 * h; break;
        case HWFIT_MEMORY_LOSS_TRL_CHUNKED: {
            /* one chunk's work beside the head's copy (head_cast), under no_grad alike */
            uint64_t hk = 0, hw = 0;
            per = 8 * h;
            if (head_cast(model, in, head_plain_bytes(in, &f), a, c.t, e, &hk,
                          &hw) != HWFIT_OK)
                return HWFIT_ERANGE;
            extra = mul_c(add_c(hk, hw, &of), c.t, &of); /* divided by t with the rest below */
            break;
        }
        case HWFIT_MEMORY_LOSS_FUSED_CHUNKED: {
            /* the hidden states' gradient and one chunk's work (hwfit__fused_chunks), the
             * chunks sized on the card with nothing else counted as allocated */
            uint64_t k = 0;
            per += a * h;
            if (hwfit__fused_chunks(in, in->card_bytes, 0, e, hwfit__ceil_div_u64(v, c.t), h, a,
                                    &k, &extra) != HWFIT_OK)
                return HWFIT_ERANGE;
            extra = mul_c(extra, c.t, &of); /* divided by t with the rest below */
            break;
        }
        case HWFIT_MEMORY_LOSS_INPLACE: per += a * v + 8; break;
        case HWFIT_MEMORY_LOSS_INPLACE_CAST: per += 2 * a * v + 8; break;
        case HWFIT_MEMORY_LOSS_CHUNKED_INPLACE:
            per += a * (v + 1);
            extra = mul_c(mul_c(3 * a, min_u64(in->loss_chunk_tokens, e), &of), v, &of);
            break;
        default: per += 8 * v; break; /* fp32: the fp32 logits and their log-softmax */
        }
        head = hwfit__ceil_div_u64(add_c(mul_c(e, per, &of), extra, &of), c.t);
        total = add_c(total, head, &of);
    }
    if (of) return HWFIT_ERANGE;
    *out = total;
    /* What the allocator's replay needs (hwfit__memory_eval_segments), unless its segments
     * expand in place (expandable_segments: nothing strands) or the framework runs layers
     * of its own whose requests the replay does not know (eval_replay 0). */
    if (replay && !in->expandable_segments && in->eval_replay) {
        replay->on = 1;
        replay->quant = quantized;
        replay->a = c.a_bytes;
        replay->r = in->residual_fp32 && quantized && c.a_bytes < 4 ? 4 : c.a_bytes;
        replay->t = c.t;
        replay->head = head;
    }
    return HWFIT_OK;
}


/* A format input: known and a valid group (hwfit_dtype_describe's statuses). */
static hwfit_status check_block(hwfit_dtype d, const char *field, hwfit__dtype_block *block,
                                hwfit_problem *why) {
    hwfit_status st = hwfit__dtype_block_of(d, block);
    if (st == HWFIT_EINVAL) return hwfit__why(why, st, field, "is not a known format");
    if (st != HWFIT_OK) return hwfit__why(why, st, field, "has an invalid group size");
    return HWFIT_OK;
}

/* Bytes per element of a plain (unblocked, unquantized) format, or EDOM. */
static hwfit_status plain_bytes(hwfit_dtype d, const char *field, uint64_t *bytes,
                                hwfit_problem *why) {
    hwfit__dtype_block info;
    hwfit_status st = check_block(d, field, &info, why);
    if (st != HWFIT_OK) return st;
    if (info.quantized || info.elements != 1 || info.bits % 8 != 0)
        return hwfit__why(why, HWFIT_EDOM, field, "must be a plain format: fp32, fp16 or bf16");
    *bytes = info.bits / 8;
    return HWFIT_OK;
}

#define AT_LEAST_1 "must be at least 1"

/* The optimizer's state bytes per trained parameter (state_b: a moment's bytes in
 * optimizer_states' format): AdamW two moments, 8-bit AdamW two bytes (Dettmers et al.
 * 2022), SGD with momentum one buffer, SGD without momentum none (torch.optim.SGD makes
 * momentum_buffer only when momentum is not 0: torch/optim/sgd.py, _init_group). Paged
 * moments live in unified memory the driver evicts: not counted on the device. */
static uint64_t moments_per_param(const hwfit_memory_in *in, uint64_t state_b) {
    if (in->paged_optimizer) return 0;
    switch (in->optimizer) {
    case HWFIT_MEMORY_ADAMW: return 2 * state_b;
    case HWFIT_MEMORY_ADAMW_8BIT: return 2;
    case HWFIT_MEMORY_SGD: return state_b;
    case HWFIT_MEMORY_SGD_PLAIN: return 0;
    }
    return 0;
}

static hwfit_status check_inputs(const hwfit_memory_in *in, hwfit_problem *why) {
    if ((unsigned)in->mode > (unsigned)HWFIT_MEMORY_QLORA)
        return hwfit__why(why, HWFIT_EINVAL, "mode", HWFIT__ENUM);
    if ((unsigned)in->optimizer > (unsigned)HWFIT_MEMORY_SGD_PLAIN)
        return hwfit__why(why, HWFIT_EINVAL, "optimizer", HWFIT__ENUM);
    if ((unsigned)in->recompute > (unsigned)HWFIT_MEMORY_RECOMPUTE_FULL)
        return hwfit__why(why, HWFIT_EINVAL, "recompute", HWFIT__ENUM);
    if ((unsigned)in->selective > (unsigned)HWFIT_MEMORY_SELECTIVE_OPS)
        return hwfit__why(why, HWFIT_EINVAL, "selective", HWFIT__ENUM);
    if ((unsigned)in->loss > (unsigned)HWFIT_MEMORY_LOSS_LIGER)
        return hwfit__why(why, HWFIT_EINVAL, "loss", HWFIT__ENUM);
    if (in->head_cast_kept != 0 && in->head_cast_kept != 1)
        return hwfit__why(why, HWFIT_EDOM, "head_cast_kept", "must be 0 or 1");
    if (in->card_no_flash != 0 && in->card_no_flash != 1)
        return hwfit__why(why, HWFIT_EDOM, "card_no_flash", "must be 0 or 1");
    if (in->sdpa_gqa_math != 0 && in->sdpa_gqa_math != 1)
        return hwfit__why(why, HWFIT_EDOM, "sdpa_gqa_math", "must be 0 or 1");
    if ((unsigned)in->load_warmup > (unsigned)HWFIT_MEMORY_WARMUP_MARGIN_UNTIED)
        return hwfit__why(why, HWFIT_EINVAL, "load_warmup", HWFIT__ENUM);
    if (in->load_counted != 0 && in->load_counted != 1)
        return hwfit__why(why, HWFIT_EDOM, "load_counted", "must be 0 or 1");
    if (in->unsloth_fast_model != 0 && in->unsloth_fast_model != 1)
        return hwfit__why(why, HWFIT_EDOM, "unsloth_fast_model", "must be 0 or 1");
    if (in->fsdp_single_unit != 0 && in->fsdp_single_unit != 1)
        return hwfit__why(why, HWFIT_EDOM, "fsdp_single_unit", "must be 0 or 1");
    if (in->built_whole != 0 && in->built_whole != 1)
        return hwfit__why(why, HWFIT_EDOM, "built_whole", "must be 0 or 1");
    if (in->norm_weight_fp32 != 0 && in->norm_weight_fp32 != 1)
        return hwfit__why(why, HWFIT_EDOM, "norm_weight_fp32", "must be 0 or 1");
    if (in->dequant_work_bytes > 64)
        return hwfit__why(why, HWFIT_EDOM, "dequant_work_bytes", "must be at most 64");
    if (in->zero3_linear_views_kept != 0 && in->zero3_linear_views_kept != 1)
        return hwfit__why(why, HWFIT_EDOM, "zero3_linear_views_kept", "must be 0 or 1");
    if (in->loss_chunk_tokens == 0)
        return hwfit__why(why, HWFIT_EDOM, "loss_chunk_tokens", AT_LEAST_1);
    if (!hwfit__in_range(in->fragmentation, 0.0, 1.0))
        return hwfit__why(why, HWFIT_EDOM, "fragmentation", "must be a fraction in [0, 1]");
    if (!hwfit__in_range(in->load_quantize_bytes, 0.0, 1024.0))
        return hwfit__why(why, HWFIT_EDOM, "load_quantize_bytes",
                          "must be in [0, 1024] bytes per element");
    for (unsigned k = 0; k < HWFIT_MEMORY_RECORDS; k++) {
        uint32_t v = in->record_lengths[k], prev = k ? in->record_lengths[k - 1] : 0;
        if (v == 0) continue;
        if (k && prev == 0)
            return hwfit__why(why, HWFIT_EDOM, "record_lengths",
                              "must be given shortest first, zeros only after the last");
        if (k && v <= prev)
            return hwfit__why(why, HWFIT_EDOM, "record_lengths",
                              "must grow: each record is longer than the one before");
    }
    if ((unsigned)in->flash_attention > (unsigned)HWFIT_ATTENTION_MATH)
        return hwfit__why(why, HWFIT_EINVAL, "flash_attention",
                          "must be 0 (eager), 1 (flash), 2 (SDPA) or 3 (SDPA's math backend)");
    if (in->no_reshard_after_forward != 0 && in->no_reshard_after_forward != 1)
        return hwfit__why(why, HWFIT_EDOM, "no_reshard_after_forward", "must be 0 or 1");
    if (in->fsdp_flat_upcast != 0 && in->fsdp_flat_upcast != 1)
        return hwfit__why(why, HWFIT_EDOM, "fsdp_flat_upcast", "must be 0 or 1");
    if (in->offload_keeps_grads != 0 && in->offload_keeps_grads != 1)
        return hwfit__why(why, HWFIT_EDOM, "offload_keeps_grads", "must be 0 or 1");
    if (in->logits_freed != 0 && in->logits_freed != 1)
        return hwfit__why(why, HWFIT_EDOM, "logits_freed", "must be 0 or 1");
    if (in->outputs_fp32 != 0 && in->outputs_fp32 != 1)
        return hwfit__why(why, HWFIT_EDOM, "outputs_fp32", "must be 0 or 1");
    if (!hwfit__grad_bytes_ok(in->unsharded_grad_bytes))
        return hwfit__why(why, HWFIT_EDOM, "unsharded_grad_bytes", HWFIT__GRAD_BYTES_RULE);
    if (!hwfit__grad_bytes_ok(in->reduce_held_bytes))
        return hwfit__why(why, HWFIT_EDOM, "reduce_held_bytes", HWFIT__GRAD_BYTES_RULE);
    if (in->experts_indexed != 0 && in->experts_indexed != 1)
        return hwfit__why(why, HWFIT_EDOM, "experts_indexed", "must be 0 or 1");
    if (in->loss_after_call != 0 && in->loss_after_call != 1)
        return hwfit__why(why, HWFIT_EDOM, "loss_after_call", "must be 0 or 1");
    if (in->flex_attention != 0 && in->flex_attention != 1)
        return hwfit__why(why, HWFIT_EDOM, "flex_attention", "must be 0 or 1");
    if (in->expandable_segments != 0 && in->expandable_segments != 1)
        return hwfit__why(why, HWFIT_EDOM, "expandable_segments", "must be 0 or 1");
    if (in->residual_fp32 != 0 && in->residual_fp32 != 1)
        return hwfit__why(why, HWFIT_EDOM, "residual_fp32", "must be 0 or 1");
    if (in->fp8_inputs_saved != 0 && in->fp8_inputs_saved != 1)
        return hwfit__why(why, HWFIT_EDOM, "fp8_inputs_saved", "must be 0 or 1");
    if (in->grads_upcast_in_step != 0 && in->grads_upcast_in_step != 1)
        return hwfit__why(why, HWFIT_EDOM, "grads_upcast_in_step", "must be 0 or 1");
    if (in->fsdp_wrap_residue != 0 && in->fsdp_wrap_residue != 1)
        return hwfit__why(why, HWFIT_EDOM, "fsdp_wrap_residue", "must be 0 or 1");
    if (in->ep_a2a_recomputed != 0 && in->ep_a2a_recomputed != 1)
        return hwfit__why(why, HWFIT_EDOM, "ep_a2a_recomputed", "must be 0 or 1");
    if (in->loss_parallel != 0 && in->loss_parallel != 1)
        return hwfit__why(why, HWFIT_EDOM, "loss_parallel", "must be 0 or 1");
    if (in->probs_kept != 0 && in->probs_kept != 1)
        return hwfit__why(why, HWFIT_EDOM, "probs_kept", "must be 0 or 1");
    if (in->whole_masks > 16)
        return hwfit__why(why, HWFIT_EDOM, "whole_masks", "must be 0 to 16");
    if (in->sink_mask_bytes > 64)
        return hwfit__why(why, HWFIT_EDOM, "sink_mask_bytes", "must be 0 to 64");
    if (in->probs_kept && in->outputs_kept)
        return hwfit__why(why, HWFIT_EINVAL, "probs_kept",
                          "not with outputs_kept (the loop keeps the logits themselves)");
    if (in->lora_qkv_one_dropout != 0 && in->lora_qkv_one_dropout != 1)
        return hwfit__why(why, HWFIT_EDOM, "lora_qkv_one_dropout", "must be 0 or 1");
    if ((unsigned)in->lora_modules > (unsigned)HWFIT_MEMORY_LORA_MODULES_FUSED)
        return hwfit__why(why, HWFIT_EINVAL, "lora_modules", HWFIT__ENUM);
    if (in->evaluation != 0 && in->evaluation != 1)
        return hwfit__why(why, HWFIT_EDOM, "evaluation", "must be 0 or 1");
    if (in->eval_kv_cache != 0 && in->eval_kv_cache != 1)
        return hwfit__why(why, HWFIT_EDOM, "eval_kv_cache", "must be 0 or 1");
    if (in->eval_batch == 0)
        return hwfit__why(why, HWFIT_EDOM, "eval_batch", "must be at least 1");
    if (!(in->loss_target_bytes == HUGE_VAL ||
          hwfit__in_range(in->loss_target_bytes, 1.0, 1152921504606846976.0)))
        return hwfit__why(why, HWFIT_EDOM, "loss_target_bytes",
                          "must be in [1, 2^60] bytes or +infinity (no cap)");
    if (!hwfit__in_range(in->loss_free_share, 0.0, 1.0) || in->loss_free_share == 0.0)
        return hwfit__why(why, HWFIT_EDOM, "loss_free_share", "must be a fraction in (0, 1]");
    if (in->loss_short != HWFIT_MEMORY_LOSS_INPLACE &&
        in->loss_short != HWFIT_MEMORY_LOSS_INPLACE_CAST)
        return hwfit__why(why, HWFIT_EINVAL, "loss_short",
                          "must be inplace or inplace-cast (a whole-logits path)");
    if (in->eval_replay != 0 && in->eval_replay != 1)
        return hwfit__why(why, HWFIT_EDOM, "eval_replay", "must be 0 or 1");
    if (in->loss_chunks_round_up != 0 && in->loss_chunks_round_up != 1)
        return hwfit__why(why, HWFIT_EDOM, "loss_chunks_round_up", "must be 0 or 1");
    if (!(in->card_bytes == HUGE_VAL ||
          hwfit__in_range(in->card_bytes, 1.0, 1152921504606846976.0)))
        return hwfit__why(why, HWFIT_EDOM, "card_bytes",
                          "must be in [1, 2^60] bytes or +infinity (no card)");
    if (in->evaluation && in->mode == HWFIT_MEMORY_INFERENCE)
        return hwfit__why(why, HWFIT_EINVAL, "evaluation",
                          "applies to training only (inference is one forward already)");
    if (in->fp8_inputs_saved && in->mode != HWFIT_MEMORY_FULL)
        return hwfit__why(why, HWFIT_EUNSUPPORTED, "fp8_inputs_saved",
                          "is modelled for mode full only (a frozen base linear keeps no "
                          "input, and its adapters run outside Transformer Engine's FP8)");
    if (in->fp8_inputs_saved && OPS_(in))
        return hwfit__why(why, HWFIT_EUNSUPPORTED, "fp8_inputs_saved",
                          "is Transformer Engine's, not modelled with the op-level selective "
                          "policy (torchtitan's, whose float8 linears keep 16-bit outputs)");
    if (in->expert_parallel == 0)
        return hwfit__why(why, HWFIT_EDOM, "expert_parallel", AT_LEAST_1);
    if (in->grad_covers_frozen != 0 && in->grad_covers_frozen != 1)
        return hwfit__why(why, HWFIT_EDOM, "grad_covers_frozen", "must be 0 or 1");
    if (in->unsharded_grad_bytes > 8)
        return hwfit__why(why, HWFIT_EDOM, "unsharded_grad_bytes",
                          "must be at most 8 bytes per element");
    if (in->batch == 0) return hwfit__why(why, HWFIT_EDOM, "batch", AT_LEAST_1);
    if (in->context == 0) return hwfit__why(why, HWFIT_EDOM, "context", AT_LEAST_1);
    if (in->micro_batch == 0) return hwfit__why(why, HWFIT_EDOM, "micro_batch", AT_LEAST_1);
    if (in->tensor_parallel == 0)
        return hwfit__why(why, HWFIT_EDOM, "tensor_parallel", AT_LEAST_1);
    if (!hwfit__in_range(in->overhead_bytes, 0.0, 9007199254740992.0))
        return hwfit__why(why, HWFIT_EDOM, "overhead_bytes",
                          "must be a number of bytes in [0, 2^53]");
    if (in->mode == HWFIT_MEMORY_LORA || in->mode == HWFIT_MEMORY_QLORA) {
        if (in->lora_rank == 0) return hwfit__why(why, HWFIT_EDOM, "lora_rank", AT_LEAST_1);
        if (in->lora_targets == 0 || (in->lora_targets & ~HWFIT_LORA_ALL) != 0)
            return hwfit__why(why, HWFIT_EDOM, "lora_targets",
                              "must be a non-empty set of HWFIT_LORA_* bits");
        if ((in->full_modules & ~HWFIT_FULL_ALL) != 0)
            return hwfit__why(why, HWFIT_EDOM, "full_modules",
                              "must be a set of HWFIT_FULL_* bits");
    } else if (in->full_modules != 0) {
        return hwfit__why(why, HWFIT_EDOM, "full_modules",
                          "applies only to mode lora or qlora (full training trains every "
                          "module; inference trains none)");
    }
    return HWFIT_OK;
}

/* Modules trained in full beside LoRA (full_modules). PEFT's ModulesToSaveWrapper
 * (huggingface/peft src/peft/utils/other.py, ModulesToSaveWrapper.update at a3197b1,
 * 2025-08-29): `self.modules_to_save[adapter_name] = copy.deepcopy(self.original_module)`,
 * then `self.original_module.requires_grad_(False)` and the copy `requires_grad_(True)`;
 * forward runs the copy. So each named module held here is weighed twice (the original is
 * already in *w: the copy is added in the module's own format, or fp32 with trained_fp32),
 * and the copy's parameters are trained: a gradient each (grad_b bytes) and the optimizer's
 * moments (moments bytes), plus an fp32 master copy when the copy is narrower than 32 bits
 * and master_weights is set, as for the adapters. The head's copy is a matrix of its own
 * also when the model ties it (deepcopy of the module that shares the embedding's weight).
 * Norms: every hidden-size norm of the layers held, and the final norm with the head. */
static hwfit_status full_modules_add(const hwfit__model_prep *prep, const hwfit_memory_in *in,
                                     hwfit_dtype emb_d, hwfit_dtype head_d, hwfit_dtype vec_d,
                                     uint32_t dense_n, uint32_t moe_n, uint64_t *w,
                                     hwfit_memory_out *r, hwfit_problem *why) {
    const hwfit_model_param_counts *p = &prep->params;
    /* the copies' formats: the embedding's, the head's, the norms' (fp32 when trained_fp32
     * casts what trains); paged moments are not on the device */
    const hwfit_dtype fp32 = hwfit_dtype_make(HWFIT_DTYPE_FP32);
    const int upcast = in->trained_fp32;
    const hwfit_dtype d[3] = {upcast ? fp32 : emb_d, upcast ? fp32 : head_d,
                              upcast ? fp32 : vec_d};
    /* gradients and moments as estimate_prepared counts them for the adapters (their
     * formats were checked there) */
    hwfit__dtype_block g, m;
    if (hwfit__dtype_block_of(in->gradients, &g) != HWFIT_OK ||
        hwfit__dtype_block_of(in->optimizer_states, &m) != HWFIT_OK)
        return HWFIT_EINVAL;
    const uint64_t grad_b = g.bits / 8, state_b = m.bits / 8;
    const uint64_t moments = moments_per_param(in, state_b);
    /* [0] the embedding, [1] the head, [2] the norms: parameters of each copy held */
    uint64_t n[3] = {0, 0, 0};
    if ((in->full_modules & HWFIT_FULL_EMBEDDING) && in->embedding) n[0] = p->embedding;
    if ((in->full_modules & HWFIT_FULL_HEAD) && in->head) n[1] = p->embedding; /* V x h */
    if (in->full_modules & HWFIT_FULL_NORMS) {
        if (hwfit__mac_u64(&n[2], p->dense.norms, dense_n) != HWFIT_OK ||
            hwfit__mac_u64(&n[2], p->moe.norms, moe_n) != HWFIT_OK ||
            (in->head && hwfit__add_u64(n[2], p->final_norm, &n[2]) != HWFIT_OK))
            return HWFIT_ERANGE;
    }
    for (int k = 0; k < 3; k++) {
        if (n[k] == 0) continue;
        hwfit__dtype_block info;
        hwfit_status st = hwfit__dtype_block_of(d[k], &info);
        if (st != HWFIT_OK) return st;
        if (info.quantized || info.elements != 1 || info.bits % 8 != 0)
            return hwfit__why(why, HWFIT_EDOM, "full_modules",
                              "needs the module in a plain format to train it (quantized "
                              "embedding or head: keep_embeddings keeps them wider)");
        uint64_t bytes = info.bits / 8, per = moments, b;
        if (in->master_weights && info.bits < 32) per += 4;
        if (hwfit__mul_u64(n[k], bytes, &b) != HWFIT_OK || hwfit__add_u64(*w, b, w) != HWFIT_OK ||
            hwfit__add_u64(r->trainable_params, n[k], &r->trainable_params) != HWFIT_OK ||
            hwfit__mul_u64(n[k], grad_b, &b) != HWFIT_OK ||
            hwfit__add_u64(r->gradient_bytes, b, &r->gradient_bytes) != HWFIT_OK ||
            hwfit__mul_u64(n[k], per, &b) != HWFIT_OK ||
            hwfit__add_u64(r->optimizer_bytes, b, &r->optimizer_bytes) != HWFIT_OK)
            return HWFIT_ERANGE;
    }
    return HWFIT_OK;
}

/* The workload's weight formats are the ones the checkpoint stores: a plain checkpoint in
 * its dtype, or a quantized one in its per-module formats with the rest in its dtype. */
static int stored_formats(const hwfit_model *model, const hwfit_memory_in *in) {
    const hwfit_model_stored *s = &model->stored;
    if (!(s->flags & HWFIT_STORED_QUANTIZED))
        return !in->module_formats && same_dtype(in->weights, s->checkpoint);
    return in->module_formats && same_dtype(in->unquantized, s->checkpoint) &&
           same_dtype(in->attention_weights, s->attention) && same_dtype(in->mlp_weights, s->mlp) &&
           same_dtype(in->expert_weights, s->experts) && in->keep_embeddings;
}

static hwfit_status estimate_prepared(const hwfit_model *model, const hwfit__model_prep *prep,
                                      hwfit_status prep_status, const hwfit_memory_in *in,
                                      hwfit__memory_memo *memo, hwfit_memory_out *out,
                                      hwfit_problem *why);

hwfit_status hwfit_memory_estimate(const hwfit_model *model, const hwfit_memory_in *in,
                                   hwfit_memory_out *out) {
    if (model == NULL || in == NULL || out == NULL) return HWFIT_EINVAL;
    hwfit_status st = check_inputs(in, NULL);
    if (st != HWFIT_OK) return st;
    hwfit__model_prep prep;
    st = hwfit__model_prepare(model, &prep);
    return estimate_prepared(model, &prep, st, in, NULL, out, NULL);
}

hwfit_status hwfit__memory_estimate_prepared(const hwfit_model *model,
                                             const hwfit__model_prep *prep,
                                             hwfit_status prep_status, const hwfit_memory_in *in,
                                             hwfit__memory_memo *memo, hwfit_memory_out *out) {
    return estimate_prepared(model, prep, prep_status, in, memo, out, NULL);
}

/* hwfit__memory_estimate_prepared, reporting every refusal through `why` (NULL from the
 * calculations). */
/* Single layers' matrices kept unquantized (in->kept_layers: a checkpoint's skip list naming
 * single layers, Unsloth's Dynamic 4-bit llm_int8_skip_modules): per matrix whose kind is
 * quantized, the bytes it takes in the unquantized format over those it takes in its kind's,
 * times the kept layers on this device, kept x n / L for n of the model's L layers (rounded
 * up; attention in every layer, MLP matrices in dense layers only, none of MLA's attention),
 * added to *w. Apart from estimate_prepared to keep its frame small (tests/stack). */
static HWFIT__NOINLINE hwfit_status kept_add(const hwfit_model *model, const hwfit_memory_in *in,
                                             const formats *f, uint32_t dense_n, uint32_t all_n,
                                             uint64_t *w) {
    uint64_t h = model->hidden, d = model->head_dim ? model->head_dim : h / model->heads;
    uint64_t vd = model->v_head_dim ? model->v_head_dim : d, im = model->intermediate;
    const uint64_t rows[HWFIT_KEPT_MATRICES] = {model->heads * d, model->kv_heads * d,
                                                model->kv_heads * vd, h, im, im, h};
    const uint64_t cols[HWFIT_KEPT_MATRICES] = {h, h, h, model->heads * vd, h, h, im};
    for (int k = 0; k < HWFIT_KEPT_MATRICES; k++) {
        uint64_t kept = in->kept_layers[k];
        int attn = k <= HWFIT_KEPT_O;
        if (kept == 0 || (attn && model->attention == HWFIT_MODEL_ATTENTION_MLA) ||
            (k == HWFIT_KEPT_GATE && model->mlp != HWFIT_MODEL_MLP_GATED))
            continue;
        hwfit_dtype q = f->modules ? (attn ? f->attn : f->mlp) : f->base;
        hwfit__dtype_block qi;
        if (hwfit__dtype_block_of(q, &qi) != HWFIT_OK) return HWFIT_EINVAL;
        if (!qi.quantized) continue;
        uint64_t qb, ob, n = attn ? all_n : dense_n, on;
        if (n == 0) continue;
        hwfit_status st = hwfit_dtype_matrix_bytes(q, rows[k], cols[k], &qb);
        if (st == HWFIT_OK) st = hwfit_dtype_matrix_bytes(f->other, rows[k], cols[k], &ob);
        if (st != HWFIT_OK) return st;
        if (ob <= qb) continue;
        if (hwfit__mul_u64(kept, n, &on) != HWFIT_OK || hwfit__mul_u64(on, ob - qb, &on) != HWFIT_OK)
            return HWFIT_ERANGE;
        if (hwfit__add_u64(*w, hwfit__ceil_div_u64(on, model->layers), w) != HWFIT_OK)
            return HWFIT_ERANGE;
    }
    return HWFIT_OK;
}

/* estimate_prepared's formats (f) and their checks, in its order of refusals: the element
 * bytes of the activations, gradients and optimizer states (0 when not training). Apart
 * from estimate_prepared so that the checks' locals are not on its frame, which is on the
 * shard engine's deepest chains (tests/stack). */
static HWFIT__NOINLINE hwfit_status formats_of(const hwfit_memory_in *in, int training, int lora,
                                               formats *f, uint64_t *a_bytes, uint64_t *grad_b,
                                               uint64_t *state_b, hwfit_problem *why) {
    f->base = in->mode == HWFIT_MEMORY_QLORA ? in->qlora_base : in->weights;
    f->other = in->unquantized;
    hwfit__dtype_block base_info, other_info, kv_info; /* the formats are valid */
    hwfit_status st;
    if ((st = check_block(f->base, in->mode == HWFIT_MEMORY_QLORA ? "qlora_base" : "weights",
                          &base_info, why)) != HWFIT_OK ||
        (st = check_block(f->other, "unquantized", &other_info, why)) != HWFIT_OK ||
        (st = plain_bytes(in->activations, "activations", a_bytes, why)) != HWFIT_OK)
        return st;
    f->base_quantized = base_info.quantized;
    f->modules = in->module_formats != 0;
    f->attn = in->attention_weights;
    f->mlp = in->mlp_weights;
    f->expert = in->expert_weights;
    int module_quantized = 0;
    if (f->modules) {
        const hwfit_dtype ds[3] = {f->attn, f->mlp, f->expert};
        const char *const names[3] = {"attention_weights", "mlp_weights", "expert_weights"};
        for (int k = 0; k < 3; k++) {
            hwfit__dtype_block info;
            if ((st = check_block(ds[k], names[k], &info, why)) != HWFIT_OK) return st;
            if (info.quantized) module_quantized = 1;
        }
        /* Vectors and small matrices follow the unquantized format once any module is. */
        if (module_quantized) f->base_quantized = 1;
    }
    /* Single layers kept unquantized (kept_layers) say what a quantized checkpoint skips:
     * with no quantized format they would change nothing, so they are refused rather than
     * ignored. */
    for (int k = 0; k < HWFIT_KEPT_MATRICES && !f->base_quantized; k++)
        if (in->kept_layers[k])
            return hwfit__why(why, HWFIT_EINVAL, "kept_layers",
                              "apply only where the weights are quantized (a checkpoint's "
                              "skip list); every format here is plain");
    /* trained_fp32 (LLaMA-Factory's model/adapter.py init_adapter: "cast trainable params to
     * float32" unless pure_bf16; _setup_full_tuning: param.data.to(torch.float32)): the
     * trained parameters are fp32 tensors, and autocast makes their 16-bit copies as it
     * runs. Full training trains every weight, so each format reads fp32 (and, being 32-bit,
     * needs no master copy below); LoRA: the adapters. After the checks of the given
     * formats, which still refuse a quantized one in full training. */
    const hwfit_dtype fp32 = hwfit_dtype_make(HWFIT_DTYPE_FP32);
    const int upcast = training && in->trained_fp32;
    if (upcast && in->mode == HWFIT_MEMORY_FULL)
        f->base = f->other = f->attn = f->mlp = f->expert = fp32;
    const hwfit_dtype lora_d = upcast ? fp32 : in->lora_dtype;
    uint64_t lora_b = 0;
    *grad_b = *state_b = 0;
    if (training && (st = plain_bytes(in->gradients, "gradients", grad_b, why)) != HWFIT_OK)
        return st;
    if (lora && (st = plain_bytes(lora_d, "lora_dtype", &lora_b, why)) != HWFIT_OK)
        return st;
    if (training &&
        (st = plain_bytes(in->optimizer_states, "optimizer_states", state_b, why)) != HWFIT_OK)
        return st;
    if (in->mode == HWFIT_MEMORY_FULL && module_quantized)
        return hwfit__why(why, HWFIT_EUNSUPPORTED, "mlp_weights",
                          "must be plain formats when every weight trains (mode full)");
    if (in->mode == HWFIT_MEMORY_FULL && base_info.quantized)
        return hwfit__why(why, HWFIT_EUNSUPPORTED, "weights",
                          "must be a plain format (bf16, fp16 or fp32) when every weight trains "
                          "(mode full)");
    if ((st = check_block(in->kv, "kv", &kv_info, why)) != HWFIT_OK) return st;
    return HWFIT_OK;
}

static hwfit_status estimate_prepared(const hwfit_model *model, const hwfit__model_prep *prep,
                                      hwfit_status prep_status, const hwfit_memory_in *in,
                                      hwfit__memory_memo *memo, hwfit_memory_out *out,
                                      hwfit_problem *why) {
    hwfit_status st = check_inputs(in, why);
    if (st != HWFIT_OK) return st;
    if (prep_status != HWFIT_OK) return prep_status;
    const hwfit_model_param_counts *p = &prep->params;
    act_ctx c;
    c.m = model;
    c.in = in;
    c.t = in->tensor_parallel;
    c.dims = prep->dims;
    c.dora[0] = c.dora[1] = 0;
    c.dora_w[0] = c.dora_w[1] = 0;
    c.drop[0] = c.drop[1] = 0;
    if (in->first_layer >= model->layers)
        return hwfit__why(why, HWFIT_EDOM, "first_layer", "must be below model.layers");
    for (int k = 0; k < HWFIT_KEPT_MATRICES; k++)
        if (in->kept_layers[k] > model->layers)
            return hwfit__why(why, HWFIT_EDOM, "kept_layers",
                              "must each be at most model.layers");
    if (in->layer_count > model->layers - in->first_layer)
        return hwfit__why(why, HWFIT_EDOM, "layer_count",
                          "must be at most model.layers - first_layer (0 = to the last)");
    if (in->whole_masks && in->mode != HWFIT_MEMORY_INFERENCE && model->max_context == 0)
        return hwfit__why(why, HWFIT_EINVAL, "whole_masks",
                          "needs the model's max_context (max_position_embeddings)");
    uint32_t count = in->layer_count ? in->layer_count : model->layers - in->first_layer;

    int training = in->mode != HWFIT_MEMORY_INFERENCE;
    int lora = in->mode == HWFIT_MEMORY_LORA || in->mode == HWFIT_MEMORY_QLORA;
    formats f;
    uint64_t grad_b, state_b;
    if ((st = formats_of(in, training, lora, &f, &c.a_bytes, &grad_b, &state_b, why)) != HWFIT_OK)
        return st;
    /* the trained format (formats_of): trained_fp32 makes the trained parameters fp32 */
    const hwfit_dtype fp32 = hwfit_dtype_make(HWFIT_DTYPE_FP32);
    const int upcast = training && in->trained_fp32;
    const hwfit_dtype lora_d = upcast ? fp32 : in->lora_dtype;

    hwfit_memory_out r;
    memset(&r, 0, sizeof r);
    r.layers = count;

    /* Layers on this device, by kind. */
    uint32_t moe_n = hwfit__model_count_moe(model, prep, in->first_layer, count);
    uint32_t dense_n = count - moe_n;
    uint64_t rank = lora ? in->lora_rank : 0;
    kind_sums ks[2], mtp;
    memset(ks, 0, sizeof ks);
    memset(&mtp, 0, sizeof mtp);
    /* LoRA on fused projections (lora_modules): the modules the adapters wrap. */
    unsigned fuse = lora ? lora_fuse(model, in->lora_modules) : 0u;
    unsigned targets = lora_targets_of(in->lora_targets, fuse);
    int outs = lora && (in->dora || in->lora_dropout);
    int qkv_one = lora && in->lora_dropout && in->lora_qkv_one_dropout;
    if (dense_n &&
        (st = kind_memo(prep, HWFIT__KIND_DENSE, &f, rank, targets, fuse, memo, outs, qkv_one,
                        &ks[0])) != HWFIT_OK)
        return st;
    if (moe_n &&
        (st = kind_memo(prep, HWFIT__KIND_MOE, &f, rank, targets, fuse, memo, outs, qkv_one,
                        &ks[1])) != HWFIT_OK)
        return st;
    uint32_t mtp_n = in->mtp ? model->mtp_layers : 0;
    if (mtp_n &&
        (st = kind_memo(prep, HWFIT__KIND_MTP, &f, rank, targets, fuse, memo, outs, qkv_one,
                        &mtp)) != HWFIT_OK)
        return st;

    /* Weights: layers, embedding, final norm and head; and of them the routed experts'
     * (in MoE layers and, for MoE models, the MTP layers). [1]: the routed experts. */
    uint64_t w = 0, params = 0, adapters = 0, ew = 0, eparams = 0, eadapters = 0;
    uint64_t moe_like = moe_n + (model->experts > 0 ? mtp_n : 0);
    if (hwfit__mac_u64(&w, ks[0].weights_bytes[0], dense_n) != HWFIT_OK ||
        hwfit__mac_u64(&w, ks[1].weights_bytes[0], moe_n) != HWFIT_OK ||
        hwfit__mac_u64(&w, mtp.weights_bytes[0], mtp_n) != HWFIT_OK ||
        hwfit__mac_u64(&params, p->dense.total, dense_n) != HWFIT_OK ||
        hwfit__mac_u64(&params, p->moe.total, moe_n) != HWFIT_OK ||
        hwfit__mac_u64(&params, p->mtp_layer, mtp_n) != HWFIT_OK ||
        hwfit__mac_u64(&adapters, ks[0].adapter_params[0], dense_n) != HWFIT_OK ||
        hwfit__mac_u64(&adapters, ks[1].adapter_params[0], moe_n) != HWFIT_OK ||
        hwfit__mac_u64(&adapters, mtp.adapter_params[0], mtp_n) != HWFIT_OK ||
        hwfit__mac_u64(&ew, ks[1].weights_bytes[1], moe_n) != HWFIT_OK ||
        hwfit__mac_u64(&ew, mtp.weights_bytes[1], mtp_n) != HWFIT_OK ||
        hwfit__mac_u64(&eparams, p->moe.experts, moe_like) != HWFIT_OK ||
        hwfit__mac_u64(&eadapters, ks[1].adapter_params[1], moe_n) != HWFIT_OK ||
        hwfit__mac_u64(&eadapters, mtp.adapter_params[1], mtp_n) != HWFIT_OK)
        return HWFIT_ERANGE;
    hwfit_dtype emb_d = (f.base_quantized && in->keep_embeddings) ? f.other : f.base;
    hwfit_dtype vec_d = f.base_quantized ? f.other : f.base;
    uint64_t b;
    /* untied_head: the head is a linear layer of its own, in the linear weights' format,
     * whether the model ties it (a copy of the embedding) or not. */
    int head_linear = in->untied_head && in->head;
    int tables = (in->embedding ? 1 : 0) +
                 (in->head && !head_linear && (!model->tie_embeddings || !in->embedding) ? 1 : 0);
    if (head_linear) {
        if ((st = hwfit_dtype_matrix_bytes(f.base, model->vocab, model->hidden, &b)) != HWFIT_OK)
            return st;
        if (hwfit__add_u64(w, b, &w) != HWFIT_OK ||
            hwfit__add_u64(params, p->embedding, &params) != HWFIT_OK)
            return HWFIT_ERANGE;
    }
    if (tables) {
        if ((st = hwfit_dtype_matrix_bytes(emb_d, model->vocab, model->hidden, &b)) != HWFIT_OK)
            return st;
        if (hwfit__mac_u64(&w, b, (uint64_t)tables) != HWFIT_OK ||
            hwfit__mac_u64(&params, p->embedding, (uint64_t)tables) != HWFIT_OK)
            return HWFIT_ERANGE;
    }
    if (in->head) {
        if ((st = hwfit_dtype_bytes(vec_d, p->final_norm, &b)) != HWFIT_OK) return st;
        if (hwfit__add_u64(w, b, &w) != HWFIT_OK ||
            hwfit__add_u64(params, p->final_norm, &params) != HWFIT_OK)
            return HWFIT_ERANGE;
    }
    r.params = params;
    r.expert_params = eparams;
    /* DoRA (Liu et al. 2024; peft tuners/lora/dora.py): a trained magnitude per output
     * feature of each targeted matrix. DoraLinearLayer.forward returns
     * (mag_norm_scale - 1) * base_result + mag_norm_scale * lora_result * scaling with
     * mag_norm_scale = magnitude / weight_norm trained, so autograd keeps both operands it
     * multiplies by it for the magnitude's gradient: the base layer's output and the LoRA
     * branch's, lora_B(lora_A(x)), each the layer's output features per token (in the
     * activations' format, as hwfit counts the LoRA path; the scaling is a number and keeps
     * nothing). */
    uint64_t dora_outs[2] = {0, 0}, dora_token[2] = {0, 0};
    if (lora && in->dora) {
        if (hwfit__mac_u64(&dora_outs[0], ks[0].lora_outs[0], dense_n) != HWFIT_OK ||
            hwfit__mac_u64(&dora_outs[0], ks[1].lora_outs[0], moe_n) != HWFIT_OK ||
            hwfit__mac_u64(&dora_outs[0], mtp.lora_outs[0], mtp_n) != HWFIT_OK ||
            hwfit__mac_u64(&dora_outs[1], ks[1].lora_outs[1], moe_n) != HWFIT_OK ||
            hwfit__mac_u64(&dora_outs[1], mtp.lora_outs[1], mtp_n) != HWFIT_OK ||
            hwfit__add_u64(adapters, dora_outs[0], &adapters) != HWFIT_OK ||
            hwfit__add_u64(eadapters, dora_outs[1], &eadapters) != HWFIT_OK)
            return HWFIT_ERANGE;
        if (hwfit__mul_u64(ks[0].lora_outs[2], 2, &dora_token[0]) != HWFIT_OK ||
            hwfit__mul_u64(ks[1].lora_outs[2], 2, &dora_token[1]) != HWFIT_OK)
            return HWFIT_ERANGE;
    }

    /* Trained parameters: their gradients, optimizer states and fp32 master copies. */
    uint64_t trained_b = 0;
    if (training) {
        hwfit_dtype trained = lora ? lora_d : upcast ? fp32 : in->weights;
        double bits;
        (void)hwfit_dtype_bits(trained, &bits);
        r.trainable_params = lora ? adapters : params;
        r.adapter_params = lora ? adapters : 0;
        r.expert_trainable_params = lora ? eadapters : eparams;
        if (lora) {
            uint64_t expert_b;
            if ((st = hwfit_dtype_bytes(lora_d, adapters, &trained_b)) != HWFIT_OK ||
                (st = hwfit_dtype_bytes(lora_d, eadapters, &expert_b)) != HWFIT_OK)
                return st;
            if (hwfit__add_u64(w, trained_b, &w) != HWFIT_OK ||
                hwfit__add_u64(ew, expert_b, &ew) != HWFIT_OK)
                return HWFIT_ERANGE;
        }
        /* Mixed precision (Micikevicius et al. 2018; ZeRO, Rajbhandari et al. 2020 section 3.1:
         * 2 + 2 + K bytes per parameter with K = 12 for Adam): fp32 master weights (4) when
         * the trained weights are narrower, then the optimizer states. */
        uint64_t per = (in->master_weights && bits < 32.0) ? 4 : 0;
        per += moments_per_param(in, state_b);
        if (hwfit__mul_u64(r.trainable_params, grad_b, &r.gradient_bytes) != HWFIT_OK ||
            hwfit__mul_u64(r.trainable_params, per, &r.optimizer_bytes) != HWFIT_OK ||
            hwfit__mul_u64(r.expert_trainable_params, grad_b, &r.expert_gradient_bytes) !=
                HWFIT_OK ||
            hwfit__mul_u64(r.expert_trainable_params, per, &r.expert_optimizer_bytes) != HWFIT_OK)
            return HWFIT_ERANGE;
        /* (the helper keeps this frame as it was: tests/stack) */
        if (lora && in->full_modules &&
            (st = full_modules_add(prep, in, emb_d, head_linear ? f.base : emb_d, vec_d,
                                   dense_n, moe_n, &w, &r, why)) != HWFIT_OK)
            return st;
    }
    if ((st = kept_add(model, in, &f, dense_n, count, &w)) != HWFIT_OK) return st;
    r.weights_bytes = w;
    r.expert_weights_bytes = ew;

    /* Dequantized weights (dequant_transient): a quantized linear's matmul dequantizes its
     * whole weight to the activation format first (bitsandbytes MatMul4Bit.forward:
     * F.dequantize_4bit(B, quant_state).to(A.dtype), and again in backward for the input
     * gradient; torchao's linear_nf4: weight.to(input.dtype)): the largest quantized matrix
     * held is live at the forward and backward peaks, divided by t. */

    c.dora[0] = dora_token[0];
    c.dora[1] = dora_token[1];
    /* DoRA's base-weight copies saved per layer (dora_weights). */
    uint64_t dora_peak = 0; /* in the dequantized slot: hwfit__memory_extras */
    if (lora && in->dora &&
        (st = dora_kinds(prep, in, &f, dense_n, moe_n, c.a_bytes, c.t, c.dora_w, &dora_peak)) !=
            HWFIT_OK)
        return st;
    if (lora && in->lora_dropout) {
        c.drop[0] = ks[0].lora_outs[3];
        c.drop[1] = ks[1].lora_outs[3];
    }

    /* KV cache (inference). */
    if (!training && (st = kv_cache_bytes(model, prep, in, count, &r.kv_bytes)) != HWFIT_OK)
        return st;

    /* Activations. Products are checked as they are formed (mul_c, add_c) and the chain
     * once at its end. */
    uint64_t act = 0, other = 0, stored = 0, transient = 0, loss = 0, layer_full = 0;
    int overflow = 0;
    if (training) {
        int selective = in->recompute != HWFIT_MEMORY_RECOMPUTE_NONE;
        uint64_t kinds[2] = {0, 0};
        if (in->experts_indexed && model->experts == 0)
            return hwfit__why(why, HWFIT_EINVAL, "experts_indexed",
                              "applies to models with routed experts only");
        /* torchtitan's op-level policy (op_stored; what it models is checked there) */
        if (OPS_(in) && dense_n && (st = op_stored(&c, 0, why, &kinds[0])) != HWFIT_OK)
            return st;
        if (OPS_(in) && moe_n && (st = op_stored(&c, 1, why, &kinds[1])) != HWFIT_OK)
            return st;
        if (!OPS_(in) && dense_n && (st = train_layer(&c, 0, !selective, &kinds[0])) != HWFIT_OK)
            return st;
        if (!OPS_(in) && moe_n && (st = train_layer(&c, 1, !selective, &kinds[1])) != HWFIT_OK)
            return st;
        uint64_t sb = mul_c(in->context, in->micro_batch, &overflow);
        /* One layer's activations without recomputation (the largest kind): what backward
         * holds of a layer as it makes that layer's gradients, whatever the recomputation
         * (rebuilt, or stored; selective rebuilds the attention core's share of it). */
        uint64_t full_k[2] = {0, 0};
        const int kinds_present[2] = {dense_n > 0, moe_n > 0};
        for (int k = 0; k < 2; k++) {
            if (!kinds_present[k]) continue;
            if ((st = train_layer(&c, k, 1, &full_k[k])) != HWFIT_OK) return st;
            if (full_k[k] > layer_full) layer_full = full_k[k];
        }
        /* The op policy: the layer being recomputed rebuilds what it stores without
         * recomputation, less what it kept (op_layer, op_block). */
        if (OPS_(in)) transient = op_transient(&c, full_k, kinds_present);
        else if (in->recompute == HWFIT_MEMORY_RECOMPUTE_SELECTIVE)
            transient = layer_full - (kinds[0] > kinds[1] ? kinds[0] : kinds[1]);
        if (in->recompute == HWFIT_MEMORY_RECOMPUTE_FULL) {
            /* Full recomputation keeps each layer's input, A sbh (Korthikanti Table 2: 2sbh),
             * and rebuilds one layer at a time during backward: that layer's activations
             * (without recomputation) are live at the peak. */
            /* residual_fp32 (PEFT's k-bit preparation: fp32 norms, quantized linears that
             * return their input's dtype): the stream between layers, and so each
             * checkpoint, is fp32 on a quantized base. */
            uint64_t ib = in->residual_fp32 && f.base_quantized && c.a_bytes < 4 ? 4 : c.a_bytes;
            uint64_t input = mul_c(sb, model->hidden * ib, &overflow), peak = 0, none;
            if (in->sequence_parallel) input = hwfit__ceil_div_u64(input, c.t);
            const int present[2] = {dense_n > 0 || (mtp_n > 0 && model->experts == 0),
                                    moe_n > 0 || (mtp_n > 0 && model->experts > 0)};
            for (int k = 0; k < 2; k++) {
                if (!present[k]) continue;
                if ((st = train_layer(&c, k, 1, &none)) != HWFIT_OK) return st;
                if (none > peak) peak = none;
            }
            r.activation_dense_layer_bytes = dense_n ? input : 0;
            r.activation_moe_layer_bytes = moe_n ? input : 0;
            stored = mul_c(input, (uint64_t)count + mtp_n, &overflow);
            if (in->activation_offload) stored = min_u64(stored, 2 * input);
            transient = peak;
            act = add_c(stored, peak, &overflow);
        } else {
            r.activation_dense_layer_bytes = kinds[0];
            r.activation_moe_layer_bytes = kinds[1];
            uint64_t mtp_b = 0;
            if (mtp_n && (st = OPS_(in) ? op_stored(&c, model->experts > 0, why, &mtp_b)
                                        : train_layer(&c, model->experts > 0, !selective,
                                                      &mtp_b)) != HWFIT_OK)
                return st;
            act = add_c(add_c(mul_c(kinds[0], dense_n, &overflow),
                              mul_c(kinds[1], moe_n, &overflow), &overflow),
                        mul_c(mtp_b, mtp_n, &overflow), &overflow);
            /* Offloaded: two layers' worth stay on the device (one copied out, one made). */
            if (in->activation_offload)
                act = min_u64(act, 2 * (kinds[0] > kinds[1] ? kinds[0] : kinds[1]));
            stored = act;
        }
        /* experts_indexed with trained experts (mode full): the backward of each index
         * (torch derivatives.yaml, index.Tensor: index_backward(grad.new_zeros(
         * self.sizes()), indices, grad)) builds a zero tensor of the whole 3-D parameter and
         * puts the expert's gradient in it; the engine adds it into the parameter's
         * gradient (counted with the layer's unit) and frees it: the largest expert
         * parameter once more, E x h x 2F (gated, the gate and up projections together)
         * or E x h x F, in the gradients' format, / t, beside the layer being rebuilt. */
        if (in->experts_indexed && moe_n && in->mode == HWFIT_MEMORY_FULL) {
            uint64_t mats = (model->mlp == HWFIT_MODEL_MLP_GATED ? 2u : 1u);
            uint64_t g = hwfit__ceil_div_u64(
                mul_c(mul_c(mul_c(mul_c(model->experts, mats, &overflow), model->hidden, &overflow),
                            model->expert_intermediate, &overflow),
                      grad_b, &overflow),
                c.t);
            transient = add_c(transient, g, &overflow);
            act = add_c(act, g, &overflow);
        }
        /* The score gradients of an eager attention's backward (eager_grads): one layer's,
         * beside the stored activations and the layer being recomputed. */
        uint64_t eg = eager_grads(&c, &overflow);
        transient = add_c(transient, eg, &overflow);
        act = add_c(act, eg, &overflow);
        /* Megatron-LM theoretical_memory_usage.py: input ids 8sb and embedding dropout sbh on
         * the first stage; output layer and cross-entropy 4sbh(1 + V/h) on the last, all /t.
         * hidden and vocab are below 2^40: the small factors fit. */
        if (in->embedding)
            other = hwfit__ceil_div_u64(mul_c(sb, 8u + (in->dropout ? model->hidden : 0u), &overflow), c.t);
        /* Packed rows without flash attention: one block-diagonal mask of s^2 b. */
        if (in->embedding && in->packed && !hwfit__flash(model, in))
            other = add_c(other, mul_c(mul_c(sb, in->context, &overflow), c.a_bytes, &overflow),
                          &overflow);
        if (in->head) {
            /* Per token: Megatron's fp32 logits and output-layer input 4(h + V); the
             * whole vocabulary upcast (A logits, fp32 copy, fp32 log-softmax kept, fp32
             * gradient: A + 12 per logit); chunked (the A-byte logits whole, the fp32 work
             * one chunk of 8 at a time); fused (the fp32 gradient of the hidden states and
             * one chunk's fp32 logits, about 8h). The head's input (4h) in every case. */
            uint64_t h = model->hidden, v = model->vocab, per = 4 * (h + v);
            /* DTensor loss parallelism over vocabulary-sharded logits (loss_parallel, t > 1;
             * torch/distributed/tensor/parallel/loss.py): _log_softmax decomposed, the
             * shifted copy and its exp beside the fp32 input, A + 12 at the forward's end;
             * _nll_loss_and_log_softmax_backward's zeros_like(x), exp(x) and their sum (then
             * the product) beside the saved log-softmax, 16 at the loss's backward: 4 a
             * logit above the aten kernels' either way. */
            uint64_t lp = in->loss_parallel && c.t > 1 ? 4 : 0;
            if (in->loss == HWFIT_MEMORY_LOSS_UPCAST) per = 4 * h + (c.a_bytes + 12 + lp) * v;
            /* Upcast with the loop's logits dropped before backward (torchtitan train.py
             * at 9dec370: `del pred` before `loss.backward()`; `.float()`'s backward saves
             * no input and log_softmax saves its output): at the loss's backward peak the
             * fp32 log-softmax, the gradient nll_loss makes and log_softmax's, 12 a logit;
             * the forward's end, A + 8 (the logits, their fp32 copy inside cross_entropy,
             * the log-softmax), is below it for 16-bit logits. */
            else if (in->loss == HWFIT_MEMORY_LOSS_UPCAST_FREED)
                per = 4 * h + (c.a_bytes + 8 > 12 ? c.a_bytes + 8 + lp : 12 + lp) * v;
            /* Compiled on its own (torchtitan's build_cross_entropy_loss,
             * torchtitan/components/loss.py: torch.compile(cross_entropy_loss) when
             * compile.components has 'loss'): inductor fuses pred.float() and the
             * log-softmax into row reductions, and the min-cut partitioner
             * (torch/_functorch/partitioners.py, min_cut_rematerialization_partition:
             * should_ban_recomputation bans a reduction whose output is 4x smaller than its
             * input, the pointwise upcast and exp stay recomputable, and a graph input
             * costs its own size where its fp32 copy costs twice as much) saves the A-byte
             * logits and a few fp32 values per row. Its backward reads them and writes the
             * A-byte gradient of the logits (the one-hot of nll_loss's backward is a
             * pointwise select in inductor, pytorch/pytorch#129043 "don't materialize the
             * large sparse matrix in CE bwd"): 2A a logit at the loss's backward, A at the
             * forward's end. The same mechanism as the compiled chunked loss below, on the
             * whole vocabulary at once. */
            else if (in->loss == HWFIT_MEMORY_LOSS_COMPILED) per = 4 * h + 2 * c.a_bytes * v;
            else if (in->loss == HWFIT_MEMORY_LOSS_CHUNKED)
                /* Compiled, each chunk's upcast and log-softmax fuse into one kernel that
                 * keeps only a log-sum-exp per token (torchtune compiles its loss): the
                 * partitioner saves the chunk's A-byte input, as the compiled loss above;
                 * the chunks' A-byte gradients are the loss's backward (loss_head). */
                per = 4 * h + c.a_bytes * v + (in->compile ? 0 : hwfit__ceil_div_u64(12 * v, 8));
            else if (hwfit__loss_fused(in->loss)) per = 8 * h;
            /* TRL's chunked_nll (sft_trainer.py _chunked_cross_entropy_loss): per token the
             * hidden states, their gathered copy and gradient, as fused; the chunk's work and
             * the head's copy once, in the cast slot (head_cast). */
            else if (in->loss == HWFIT_MEMORY_LOSS_TRL_CHUNKED) per = 8 * h;
            /* Unsloth's chunked fused loss (unsloth_zoo UnslothFusedLoss.forward: grad_inputs
             * = torch.empty_like(hidden_states), ctx.save_for_backward(grad_inputs, ...)):
             * the hidden states' gradient, made in forward and kept to backward; the
             * chunks' work is the forward's end only (hwfit__fused_chunks). */
            else if (in->loss == HWFIT_MEMORY_LOSS_FUSED_CHUNKED) per = 4 * h + c.a_bytes * h;
            /* Megatron as it runs: its A-byte logits beside their fp32 copy. */
            else if (in->loss == HWFIT_MEMORY_LOSS_FP32_COPY) per = 4 * h + (c.a_bytes + 4) * v;
            /* In place (Unsloth's Fast_CrossEntropyLoss, unsloth/kernels/cross_entropy_loss.py
             * before Cut Cross Entropy: ctx.save_for_backward(logits, logsumexp, labels), the
             * backward kernel writes d logits over them): the A-byte logits whole, an fp32
             * log-sum-exp and loss per token. */
            else if (in->loss == HWFIT_MEMORY_LOSS_INPLACE) per = 4 * h + c.a_bytes * v + 8;
            /* In place after a cast (Unsloth's CausalLM_fast_forward, unsloth/models/llama.py
             * from 2024-03-18, 36473e2d6e, to Cut Cross Entropy: logits =
             * logits.to(config.torch_dtype) before fast_cross_entropy_loss): when the run
             * computes in another 16-bit format than the config names (float16 on a T4,
             * the checkpoint's bfloat16 kept in the config, huggingface/transformers#29955)
             * the head's logits and their copy are both live during the cast, and in
             * backward the gradient written over the saved logits and its cast back
             * (ToCopyBackward) before lm_head's backward frees them: the loss keeps one
             * A-byte copy; the second (cast) is live at the forward's end and in the loss's
             * backward, never beside the recomputed layer. */
            else if (in->loss == HWFIT_MEMORY_LOSS_INPLACE_CAST)
                per = 4 * h + c.a_bytes * v + 8; /* the cast copy: outputs_held */
            /* Chunked in place (ms-swift's ChunkedCrossEntropyLoss, swift/sequence_parallel/
             * utils.py at 3602360a5: forward ctx.save_for_backward(logits, labels) and a
             * CrossEntropyLoss per chunk of CELOSS_PARALLEL_SIZE rows, the per-token losses
             * concatenated; backward recomputes each chunk's loss, takes its gradient with
             * torch.autograd.grad and writes it over the logits, logits[l_start:l_end] =
             * grad_chunk): the A-byte logits whole and an A-byte loss per token, and one
             * chunk's work at a time, its log-softmax, the gradient of that and the
             * logits' chunk gradient, 3 A c V (PyTorch's cross-entropy keeps the logits'
             * format). */
            else if (in->loss == HWFIT_MEMORY_LOSS_CHUNKED_INPLACE) per = 4 * h + c.a_bytes * (v + 1);
            /* The final norm, eager (norm_upcast_kept): its fp32 input copy as a layer's. */
            per += norm_extra(&c) * h;
            loss = hwfit__ceil_div_u64(mul_c(sb, per, &overflow), c.t);
            if (in->loss == HWFIT_MEMORY_LOSS_CHUNKED_INPLACE) {
                uint64_t rows = min_u64(in->loss_chunk_tokens, sb);
                loss = add_c(loss, hwfit__ceil_div_u64(mul_c(mul_c(3 * c.a_bytes, rows, &overflow),
                                                            v, &overflow), c.t),
                             &overflow);
            }
            other = add_c(other, loss, &overflow);
        }
        stored = add_c(stored, other - loss, &overflow);
        /* Whole attention masks the forward builds once and keeps (whole_masks): with the
         * activations in the parts, held apart from the stored ones in every training
         * phase (phases_of adds them to the fixed part). */
        if (in->whole_masks) {
            r.masks_bytes = mul_c(mul_c(mul_c(model->max_context, model->max_context, &overflow),
                                        c.a_bytes, &overflow),
                                  in->whole_masks, &overflow);
            other = add_c(other, r.masks_bytes, &overflow);
        }
    } else {
        uint64_t all = mul_c(in->batch, in->context, &overflow);
        uint64_t tokens = in->prefill_chunk && in->prefill_chunk < all ? in->prefill_chunk : all;
        uint64_t kinds[2] = {0, 0};
        if (overflow) return HWFIT_ERANGE; /* before tokens is used */
        if ((dense_n || (mtp_n && model->experts == 0)) &&
            (st = infer_layer(&c, 0, tokens, &kinds[0])) != HWFIT_OK)
            return st;
        if ((moe_n || (mtp_n && model->experts > 0)) &&
            (st = infer_layer(&c, 1, tokens, &kinds[1])) != HWFIT_OK)
            return st;
        r.activation_dense_layer_bytes = kinds[0];
        r.activation_moe_layer_bytes = kinds[1];
        act = kinds[0] > kinds[1] ? kinds[0] : kinds[1];
        /* Logits of the sampled position of each sequence, fp32 (vLLM computes the logits of
         * the last token of each sequence only). */
        if (in->head) other = mul_c(in->batch, 4 * model->vocab, &overflow);
    }
    r.activation_other_bytes = other;
    r.loss_bytes = loss;
    r.activation_bytes = add_c(act, other, &overflow);
    if (overflow) return HWFIT_ERANGE;

    /* Overhead, rounded up to a whole byte. */
    uint64_t ov = (uint64_t)in->overhead_bytes;
    if ((double)ov < in->overhead_bytes) ov++;
    r.overhead_bytes = ov;
    uint64_t total = 0;
    const uint64_t parts[] = {r.weights_bytes,  r.kv_bytes,        r.activation_bytes,
                              r.gradient_bytes, r.optimizer_bytes, r.overhead_bytes};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (hwfit__add_u64(total, parts[i], &total) != HWFIT_OK) return HWFIT_ERANGE;
    r.total_bytes = total;

    /* Phases. The largest unit's gradient: a layer's trained parameters, or a table's. */
    uint64_t unit = 0;
    for (int k = 0; k < 2 && training; k++) {
        uint64_t t = lora ? ks[k].adapter_params[0] : k ? p->moe.total : p->dense.total;
        if ((k ? moe_n : dense_n) && t > unit) unit = t;
    }
    if (training && !lora && tables && p->embedding > unit) unit = p->embedding;
    /* A table trained in full beside LoRA (full_modules): its copy's gradient is V x h. */
    if (lora && (((in->full_modules & HWFIT_FULL_EMBEDDING) && in->embedding) ||
                 ((in->full_modules & HWFIT_FULL_HEAD) && in->head)) &&
        p->embedding > unit)
        unit = p->embedding;
    if (hwfit__mul_u64(unit, grad_b, &unit) != HWFIT_OK) return HWFIT_ERANGE;
    /* The dequantized weight and the previous micro-batch's graph (hwfit__memory_extras),
     * then the phases. */
    uint64_t held[8] = {0, 0, 0, 0, 0, 0, 0, 0}; /* the K/V built, the logits kept, the logits'
                                         cast copy (outputs_held); the head's gradient
                                         (head_grad); the loss's backward beyond L
                                         (loss_head); the evaluation forward and its
                                         segments (hwfit__memory_eval); the warm-up
                                         block (hwfit__memory_warmup) */
    if (training && (st = hwfit__memory_extras(model, prep, in, dense_n, moe_n, &r.dequant_bytes,
                                               &r.carried_bytes, &r.load_bytes, &held[0],
                                               &held[1], &held[2])) != HWFIT_OK)
        return st;
    if (training && (st = head_grad(model, prep, in, lora, grad_b, c.t, &held[3])) != HWFIT_OK)
        return st;
    if (training && in->logits_freed && in->head &&
        (st = loss_head(model, prep, in, lora, grad_b, c.t, c.a_bytes, loss, &held[4])) !=
            HWFIT_OK)
        return st;
    hwfit__eval_replay_in rin;
    if (training &&
        ((st = hwfit__memory_eval(model, prep, in, dense_n, moe_n, &held[5], &rin)) != HWFIT_OK ||
         (st = hwfit__memory_eval_segments(model, prep, in, dense_n, moe_n, &rin, &held[6])) !=
             HWFIT_OK))
        return st;
    /* transformers' warm-up block at load (load_warmup): only where a device map puts the
     * whole model on this device (no tensor split, every layer, the embedding and the head;
     * shard.c asks the same of a layout). */
    if (training && in->tensor_parallel == 1 && in->embedding && in->head &&
        (uint64_t)dense_n + moe_n ==
            (uint64_t)prep->params.dense_layers + prep->params.moe_layers &&
        (st = hwfit__memory_warmup(in, &prep->params, model->tie_embeddings, in->card_bytes,
                                   &held[7])) != HWFIT_OK)
        return st;
    if ((st = phases_of(model, in, stored, loss, transient, layer_full, unit, state_b, held,
                        &r)) != HWFIT_OK)
        return st;
    *out = r;
    return HWFIT_OK;
}

/* transformers' caching allocator warm-up (memory.h hwfit_memory_warmup; transformers
 * modeling_utils.py caching_allocator_warmup, from 4.50.0, called by from_pretrained when a
 * device map is given): S = the state dict's entries (a tied head counted twice until
 * 4.53: state_dict() lists the shared tensor under both names) times the meta model's
 * element size (the requested dtype: the weights' format, or 2 bytes for a quantized model
 * loaded in 16 bits), capped at the free memory (0.95 x free until 4.51; free - 1.2 GiB
 * from 4.52, #37550), then torch.empty(S' // factor, dtype=float16): 2 floor(S' / 2) bytes
 * unquantized (factor 2), 2 floor(S' / 4) for a quantized model (the quantizer's factor 4;
 * 4.50 skipped quantized models). Rounded up to the caching allocator's 2 MiB. Free memory
 * at load: the card less the context the process holds outside the allocator
 * (overhead_bytes); no card given, no block (its size depends on the card). */
hwfit_status hwfit__memory_warmup(const hwfit_memory_in *in, const hwfit_model_param_counts *pc,
                                  int tied, double card_bytes, uint64_t *bytes) {
    *bytes = 0;
    /* No card given (+INFINITY): the block adapts to the card's free memory, which is not
     * known, so it sets no floor. */
    if (in->mode == HWFIT_MEMORY_INFERENCE || in->load_warmup == HWFIT_MEMORY_WARMUP_NONE ||
        !(card_bytes < HUGE_VAL))
        return HWFIT_OK;
    hwfit_dtype base = in->mode == HWFIT_MEMORY_QLORA ? in->qlora_base : in->weights;
    hwfit_dtype_info info;
    double bits = 16.0;
    if (hwfit_dtype_describe(base, &info) != HWFIT_OK ||
        hwfit_dtype_bits(in->weights, &bits) != HWFIT_OK)
        return HWFIT_EINVAL;
    int quantized = info.quantized != 0;
    if (quantized && in->load_warmup == HWFIT_MEMORY_WARMUP_UNQUANTIZED_95) return HWFIT_OK;
    double n = (double)pc->total;
    if (tied && in->load_warmup != HWFIT_MEMORY_WARMUP_MARGIN_UNTIED)
        n += (double)pc->embedding;
    double s = n * (quantized ? 2.0 : bits / 8.0);
    double room = card_bytes - in->overhead_bytes;
    double cap = in->load_warmup == HWFIT_MEMORY_WARMUP_MARGIN ||
                         in->load_warmup == HWFIT_MEMORY_WARMUP_MARGIN_UNTIED
                     ? room - 1.2 * 1073741824.0
                     : 0.95 * room;
    if (!(cap > 0.0)) cap = 0.0;
    if (s > cap) s = cap;
    double factor = quantized ? 4.0 : 2.0;
    s = 2.0 * floor(s / factor);
    const double seg = 2097152.0; /* the large pool's 2 MiB rounding */
    s = ceil(s / seg) * seg;
    if (!(s < 9007199254740992.0)) return HWFIT_ERANGE;
    *bytes = (uint64_t)s;
    return HWFIT_OK;
}

/* x (1 + f), rounded up; *of set past 2^53 (f in [0, 1]). */
static uint64_t with_fragmentation(uint64_t x, double f, int *of) {
    double extra = (double)x * f;
    if (extra >= 9007199254740992.0) {
        *of = 1;
        return x;
    }
    uint64_t ex = (uint64_t)extra;
    if ((double)ex < extra) ex++;
    return add_c(x, ex, of);
}

hwfit_status hwfit__memory_phases(const hwfit__phase_choices *in, const hwfit__phase_parts *p,
                                  uint64_t overhead, hwfit_memory_out *out) {
    int of = 0;
    uint64_t fwd, bwd, step, load = 0, loss_bwd = 0, fwd_r, bwd_blocks = 0, eval = 0;
    if (!p->training) {
        fwd = bwd = step = add_c(p->fixed, p->stored, &of);
    } else {
        uint64_t act = add_c(p->stored, p->loss, &of);
        uint64_t held = in->optimizer_in_backward ? p->grad_unit : p->grads;
        int buffer = in->gradient_buffer && !in->optimizer_in_backward;
        /* Forward: the stored activations, the logits and loss at its end; the gradient
         * when its buffer lives through the step. */
        fwd = add_c(add_c(p->fixed, act, &of), buffer && !p->pass_grads ? p->grads : 0, &of);
        /* The dequantized weight of the matmul running and the previous graph's tensors. */
        fwd = add_c(fwd, add_c(p->dequant, p->carried, &of), &of);
        /* The K/V cache the forward builds, until it returns (kv_built). */
        fwd = add_c(fwd, p->built, &of);
        /* The logits' cast copy beside them (loss inplace-cast): at the forward's end, and
         * again in the loss's backward (the gradient cast back), which the forward's end
         * bounds: the recomputed layer does not exist yet. */
        fwd = add_c(fwd, p->cast, &of);
        /* The head's copy and a loss chunk's work (head_copy): at the forward's end, and
         * through the loss's backward (added there below). */
        fwd = add_c(fwd, p->head_copy, &of);
        /* What the pass holds until the step (ZeRO-3 units kept gathered, unsharded
         * gradients; ZeRO-3's gathered window, gathered): in forward and backward alike. */
        fwd = add_c(add_c(fwd, p->pass, &of), p->gathered, &of);
        /* The outputs the loop keeps (outputs_kept) are the previous micro-batch's in this
         * forward: the loop's variable is rebound only when the model's call returns
         * (`outputs = model(**batch)`, llama-recipes utils/train_utils.py before PR #41;
         * `logits = self._model(input_ids)`, torchtune's recipes before 8a98fbaa3), so the
         * previous K/V cache and logits are alive through the whole call, the loss the
         * model computes inside it included (transformers' LlamaForCausalLM with labels).
         * A loop that computes its loss after the call (loss_after_call: torchtune) has
         * freed them before that loss: they meet this call's outputs at its return
         * instead, the loss's bytes replaced by this call's logits and K/V. */
        if (in->outputs_kept && !in->loss_after_call)
            fwd = add_c(fwd, add_c(p->built, p->kept, &of), &of);
        else if (in->outputs_kept) {
            uint64_t at_return = add_c(add_c(fwd, add_c(p->built, p->kept, &of), &of),
                                       p->kept, &of);
            at_return = at_return > p->loss ? at_return - p->loss : 0;
            if (at_return > fwd) fwd = at_return;
        }
        /* A short micro-batch's forward end (loss_short_tokens, hwfit__short_forward): its
         * own stored activations and whole logits beside the fixed part, the dequantized
         * weight and what the pass holds. */
        if (p->short_fwd) {
            uint64_t sf = add_c(add_c(add_c(p->fixed, p->short_fwd, &of), p->dequant, &of),
                                add_c(p->pass, p->gathered, &of), &of);
            if (sf > fwd) fwd = sf;
        }
        /* The derived tensor the loop keeps (probs_kept) is the previous micro-batch's
         * through this forward, until the loop rebinds its name after this loss: at that
         * moment the new one is made beside the old, the fp32 logits and the loss's saved
         * log-softmax (4 + 4 + 4 + 4 bytes a logit with an upcast loss), which the loss's
         * count (12 bytes a logit upcast-freed, A + 12 upcast) plus the old one bounds. */
        if (in->probs_kept) fwd = add_c(fwd, p->kept, &of);
        /* A flex attention with sinks building its block mask from the dense mask
         * (sink_mask_bytes): in the forward's first attention of a new length, before any
         * layer's activations are stored, the fixed part, the gradient buffer, the
         * dequantized weight, what the pass holds and the mask's transient. */
        if (p->mask_build) {
            uint64_t mb = add_c(add_c(p->fixed, p->mask_build, &of),
                                add_c(p->dequant, add_c(p->pass, p->gathered, &of), &of), &of);
            if (buffer && !p->pass_grads) mb = add_c(mb, p->grads, &of);
            if (mb > fwd) fwd = mb;
        }
        /* Backward frees a layer's activations as it makes the layer's gradients: the
         * larger of its start (the stored activations, the loss and the layer being
         * recomputed) and its end (the gradients held and the first layer's
         * activations); a gradient buffer holds the gradients from the start. */
        uint64_t start = add_c(add_c(act, p->transient, &of), p->dequant, &of),
                 end = add_c(add_c(held, p->layer, &of), p->end_extra, &of);
        /* The head's weight gradient beside the layer being rebuilt: the head is the first
         * layer backward reaches, so its gradient exists before any layer is rebuilt and
         * stays to the step (a gradient buffer counts it whole already). Without a
         * rebuilt layer the start is the loss's own backward, which runs before the
         * head's matmul makes the gradient: not added there. */
        if (!buffer && p->transient) start = add_c(start, p->head_grad, &of);
        /* The logits dropped by the loop (logits_freed): the loss's saved tensors go in the
         * loss's own backward, which runs before the head's and the last layer's, so the
         * start is the larger of the loss's backward (L and the head's weight gradient as
         * its matmuls make it, loss_head) and the rebuilt layer (T, the head's gradient
         * held, and the logits a loop keeps, outputs_kept). */
        /* The loss's backward (where the loss strands a block, strand_bwd): the start,
         * or with logits_freed its loss side. */
        uint64_t loss_at = start;
        /* The head's copy (head_copy) lives through the loss's backward and the head's,
         * which come before the last layer is rebuilt: the start holds the larger of it and
         * the rebuilt layer (T, and the head's gradient made by then) beside the stored
         * activations and L, and the loss's own backward holds it beside them. */
        if (p->head_copy) {
            uint64_t rebuilt = start - act - p->dequant; /* T (+ the head's gradient) */
            uint64_t at_loss = add_c(add_c(act, p->head_copy, &of), p->dequant, &of);
            if (p->head_copy > rebuilt) start = at_loss;
            if (at_loss > loss_at) loss_at = at_loss;
        }
        if (in->logits_freed && p->transient) {
            uint64_t loss_side = add_c(add_c(p->loss, p->loss_head, &of), p->head_copy, &of);
            uint64_t rebuild = add_c(p->transient, buffer ? 0 : p->head_grad, &of);
            if (in->outputs_kept) rebuild = add_c(rebuild, p->kept, &of);
            start = add_c(add_c(p->stored, loss_side > rebuild ? loss_side : rebuild, &of),
                          p->dequant, &of);
            loss_at = add_c(add_c(p->stored, loss_side, &of), p->dequant, &of);
        }
        /* The outputs the loop keeps (outputs_kept): the K/V built through the whole
         * backward, the logits (already in the loss at its start) to its end. */
        if (in->outputs_kept) {
            start = add_c(start, p->built, &of);
            end = add_c(end, add_c(p->built, p->kept, &of), &of);
        }
        /* The logits-sized tensor the loop derives after the loss and keeps (probs_kept:
         * prime-rl's `probs = softmax(logits, dim=-1)`, not deleted before backward) is
         * alive through the whole backward, the loss's included. */
        if (in->probs_kept) {
            start = add_c(start, p->kept, &of);
            end = add_c(end, p->kept, &of);
            loss_at = add_c(loss_at, p->kept, &of);
        }
        uint64_t mid = buffer ? add_c(add_c(start, p->grads, &of), 0, &of)
                              : (start > end ? start : end);
        bwd = add_c(add_c(add_c(p->fixed, mid, &of), p->pass, &of), p->gathered, &of);
        if (in->outputs_kept) loss_at = add_c(loss_at, p->built, &of);
        if (buffer) loss_at = add_c(loss_at, p->grads, &of);
        loss_bwd = add_c(add_c(add_c(p->fixed, loss_at, &of), p->pass, &of), p->gathered, &of);
        /* Reduction deferred to the last micro-batch (pass_grads: FSDP1 no_sync, FSDP2
         * set_requires_gradient_sync(False)): no sharded gradient exists before that
         * backward (the step's zero_grad(set_to_none) freed the last), whose reductions
         * turn each unit's unsharded gradient into its shard and free it (FSDP1
         * _reduce_grad: `flat_param.grad = None` before the reduce-scatter; FSDP2
         * foreach_reduce): its start holds the unsharded gradients, its end the sharded
         * ones, never both whole. */
        if (p->pass_grads && p->pass_grads <= p->pass) {
            /* the blocks stay reserved as before (the reserve below) */
            bwd_blocks = add_c(bwd, buffer ? 0 : p->grads, &of);
            uint64_t s2 = add_c(start, p->pass, &of),
                     e2 = add_c(end, p->pass - p->pass_grads, &of);
            bwd = add_c(add_c(p->fixed, s2 > e2 ? s2 : e2, &of), p->gathered, &of);
        }
        /* Step: whole gradients and the step's temporaries (none when stepped in
         * backward). */
        step = in->optimizer_in_backward ? add_c(p->fixed, p->grad_unit, &of)
                                         : add_c(add_c(p->fixed, p->grads, &of), p->step_temp, &of);
        step = add_c(step, p->carried, &of);
        /* The outputs the loop keeps stay through the optimizer's step, which runs before
         * the next call rebinds them (outputs_kept). */
        if (in->outputs_kept) step = add_c(step, add_c(p->built, p->kept, &of), &of);
        /* probs_kept: the derived tensor stays through the step as well. */
        if (in->probs_kept) step = add_c(step, p->kept, &of);
        /* Load: the weights on the device and the transient of quantizing one of them there
         * (before the optimizer's states exist). */
        load = add_c(p->weights, p->load, &of);
        /* Evaluation inside training (hwfit__memory_eval): after a step, under no_grad,
         * the weights and the optimizer's states (fixed) with the evaluation forward's
         * K/V cache, layer workspace and logits and loss; no gradient (the step's
         * zero_grad set them to None) and no stored activation. ZeRO-3's gathered window
         * is the forward's. */
        if (p->eval) eval = add_c(add_c(p->fixed, p->eval, &of), p->gathered, &of);
    }
    uint64_t alloc = fwd;
    hwfit_memory_phase phase = HWFIT_MEMORY_PHASE_FORWARD;
    if (bwd > alloc) alloc = bwd, phase = HWFIT_MEMORY_PHASE_BACKWARD;
    if (step > alloc) alloc = step, phase = HWFIT_MEMORY_PHASE_STEP;
    if (in->load_counted && load > alloc) alloc = load, phase = HWFIT_MEMORY_PHASE_LOAD;
    if (eval > alloc) alloc = eval, phase = HWFIT_MEMORY_PHASE_EVALUATION;
    /* The reserve: the residual fragmentation over what a moment allocates, and the
     * logits-sized blocks the loss strands at that moment (hwfit__strands), at the
     * largest phase, the forward's end and the loss's backward: the allocator keeps a
     * stranded segment to the end, but later requests reuse it (best fit, split), so the
     * reserved peak is the largest moment's, not a sum. fwd and loss_bwd are at most
     * alloc: plain is alloc's. */
    uint64_t reserved = with_fragmentation(alloc, in->fragmentation, &of), plain = reserved;
    /* The evaluation forward's segments (eval_res, hwfit__memory_eval_segments) beside the
     * fixed tensors' reserve: the caching allocator's blocks the K/V entries strand, cached
     * and free, so not in plain (stranded_bytes, as the loss's strands). */
    if (p->training && p->eval && p->eval_res) {
        uint64_t er = add_c(with_fragmentation(add_c(p->fixed, p->gathered, &of), in->fragmentation,
                                               &of),
                            p->eval_res, &of);
        if (er > reserved) reserved = er;
    }
    if (p->training) {
        fwd_r = add_c(with_fragmentation(fwd, in->fragmentation, &of), p->strand_fwd, &of);
        if (fwd_r > reserved) reserved = fwd_r;
        fwd_r = add_c(with_fragmentation(loss_bwd, in->fragmentation, &of), p->strand_bwd, &of);
        if (fwd_r > reserved) reserved = fwd_r;
    }
    /* The earlier records' segments (record_lengths, hwfit__records): cached and free
     * beside whatever the run's largest moment reserves, so on top of it; stranded (not in
     * plain: released when a cudaMalloc fails). */
    if (p->training && p->records) reserved = add_c(reserved, p->records, &of);
    /* ZeRO-3's gathered units are freed before the step but their blocks stay reserved:
     * the caching allocator keeps a freed block for the stream it was allocated on (torch
     * c10/cuda/CUDACachingAllocator.cpp: a block is reused only by an allocation on its
     * stream), and FSDP1 allocates the all-gather outputs on its unshard stream
     * (torch/distributed/fsdp/_runtime_utils.py _init_streams: "Stream for unshard logic,
     * including allocating the all-gather destination tensors"), which the step does not
     * use: the step's reserve is its own plus those blocks. (A unit's unsharded gradient
     * comes from autograd on the compute stream, which the step reuses.) */
    if (p->training && p->cached) {
        uint64_t sr = add_c(with_fragmentation(step, in->fragmentation, &of), p->cached, &of);
        if (sr > reserved) reserved = sr;
        if (sr > plain) plain = sr;
    }
    /* Reduction deferred to the last micro-batch (pass_grads): the sharded gradients are
     * allocated on the reduction's stream (FSDP1 _reduce_grad runs under
     * state._post_backward_stream, where _get_reduce_scatter_tensors makes
     * new_sharded_grad; FSDP2's foreach_reduce allocates its output on the reduce-scatter
     * stream and the sharded gradient views or casts it on the post-reduce stream), so
     * the blocks of the unsharded gradients they replace, freed on the compute stream,
     * cannot serve them (the caching allocator's per-stream reuse, above): reserved, the
     * backward holds both, as the sum without the deferral (bwd_blocks). Like the step's
     * cached blocks above, these are not the loss's strands: plain moves with them, so
     * stranded_bytes stays the strands alone. */
    if (bwd_blocks) {
        uint64_t br = with_fragmentation(bwd_blocks, in->fragmentation, &of);
        if (br > reserved) reserved = br;
        if (br > plain) plain = br;
    }
    /* FSDP1's wrap residue (fsdp_wrap_residue, shard.c): each stream keeps its own
     * segments, so reserved is at least the sum of each stream's: the compute stream's
     * (the larger of the wrap's residue and its own peak: forward or backward without the
     * gathered parameters, or the step), the unshard stream's gathered parameters
     * (cached) and the pre-unshard stream's shard copy. A floor under the reserve, not
     * the loss's strands (plain moves with it). */
    /* built_whole (shard.c): the whole model's parameter segments, stranded on the compute
     * stream beside its own peak (and beside FSDP1's wrap residue, which its unit-sized
     * flat copies leave in segments of their own). */
    if (p->training && (p->wrap_residue || p->stranded)) {
        uint64_t fb = fwd > bwd ? fwd : bwd, own = fb > p->cached ? fb - p->cached : 0;
        if (step > own) own = step;
        own = with_fragmentation(own, in->fragmentation, &of);
        if (p->wrap_residue > own) own = p->wrap_residue;
        own = add_c(own, p->stranded, &of);
        uint64_t fl = add_c(add_c(own, p->cached, &of), p->wrap_copy, &of);
        if (fl > reserved) reserved = fl;
        if (fl > plain) plain = fl;
    }
    /* transformers' warm-up block (hwfit__memory_warmup): allocated once and freed before
     * the weights are carved from its segment, so a floor under the allocated peak (torch's
     * peak statistics saw it) and under the reserve (the segment stays cached); one exact
     * segment, no fragmentation on it. With the statistics reset after loading the
     * allocated peak no longer sees it, but the segment, holding the weights, stays
     * reserved unless expandable segments let empty_cache unmap its free tail. */
    if (p->training && p->warmup) {
        if (in->load_counted) {
            if (p->warmup > alloc) alloc = p->warmup, phase = HWFIT_MEMORY_PHASE_LOAD;
            if (p->warmup > load) load = p->warmup;
        }
        if (in->load_counted || !in->expandable_segments) {
            if (p->warmup > reserved) reserved = p->warmup;
            if (p->warmup > plain) plain = p->warmup;
        }
    }
    uint64_t peak = add_c(reserved, overhead, &of);
    if (of) return HWFIT_ERANGE;
    out->forward_bytes = fwd;
    out->backward_bytes = bwd;
    out->step_bytes = step;
    out->peak_phase = phase;
    out->allocated_bytes = alloc;
    out->reserved_bytes = reserved;
    out->peak_bytes = peak;
    out->dequant_bytes = p->training ? p->dequant : 0;
    out->carried_bytes = p->training ? p->carried : 0;
    /* built + kept: both are in the backward phase's sum (kept only with outputs_kept or
     * probs_kept) or
     * built in the forward's, so it cannot overflow where they did not */
    out->outputs_bytes = p->training ? p->built + p->kept : 0;
    out->load_bytes = in->load_counted ? load : 0; /* not counted: no load phase */
    out->eval_bytes = eval;
    out->stranded_bytes = reserved - plain; /* plain <= reserved: the same moments */
    out->records_bytes = p->training ? p->records : 0;
    return HWFIT_OK;
}

hwfit_status hwfit_memory_estimate_batch(const hwfit_model *model, const hwfit_memory_in *ins,
                                         size_t n, hwfit_memory_out *outs,
                                         hwfit_status *statuses) {
    if (model == NULL || (n > 0 && (ins == NULL || outs == NULL || statuses == NULL)))
        return HWFIT_EINVAL;
    if (n == 0) return HWFIT_OK;
    /* The model is prepared once; each element then costs what its workload costs. */
    hwfit__model_prep prep;
    hwfit_status prep_status = hwfit__model_prepare(model, &prep), first = HWFIT_OK;
    hwfit__memory_memo memo;
    hwfit__memory_memo_reset(&memo);
    for (size_t i = 0; i < n; i++) {
        statuses[i] =
            hwfit__memory_estimate_prepared(model, &prep, prep_status, &ins[i], &memo, &outs[i]);
        if (first == HWFIT_OK) first = statuses[i];
    }
    return first;
}

hwfit_status hwfit_memory_validate(const hwfit_model *model, const hwfit_memory_in *in,
                                   hwfit_problem *problem) {
    hwfit_problem_clear(problem);
    if (model == NULL) return hwfit__why(problem, HWFIT_EINVAL, "model", HWFIT__NULL);
    if (in == NULL) return hwfit__why(problem, HWFIT_EINVAL, "in", HWFIT__NULL);
    /* The order of hwfit_memory_estimate: the workload, the model, then the rest. */
    hwfit_status st = check_inputs(in, problem);
    if (st != HWFIT_OK) return st;
    hwfit__model_prep prep;
    hwfit_status prep_status = hwfit__model_prepare_why(model, &prep, problem);
    if (prep_status != HWFIT_OK) return prep_status;
    return hwfit__memory_validate_prepared(model, &prep, in, problem);
}

HWFIT__NOINLINE
hwfit_status hwfit__memory_validate_prepared(const hwfit_model *model,
                                             const hwfit__model_prep *prep,
                                             const hwfit_memory_in *in, hwfit_problem *problem) {
    hwfit_memory_out scratch;
    hwfit_status st = estimate_prepared(model, prep, HWFIT_OK, in, NULL, &scratch, problem);
    /* estimate_prepared names any refused input in *problem first (hwfit__why keeps the
     * first); what is left unnamed is a size beyond 64 bits. */
    return hwfit__why(problem, st, "",
                      st == HWFIT_OK ? "" : "the footprint does not fit a 64-bit byte count");
}

hwfit_status hwfit_memory_use_exact(const hwfit_model *model, const hwfit_memory_in *in,
                                    uint64_t exact_bytes, hwfit_memory_out *out, int *applied) {
    if (applied) *applied = 0;
    if (model == NULL || in == NULL || out == NULL) return HWFIT_EINVAL;
    uint32_t count = in->layer_count ? in->layer_count : model->layers - in->first_layer;
    if (in->mode != HWFIT_MEMORY_INFERENCE || in->first_layer != 0 || count != model->layers ||
        !in->embedding || !in->head || in->mtp || !stored_formats(model, in))
        return HWFIT_OK;
    /* Every phase holds the weights once: each moves by the difference, the largest stays
     * the largest; the allocator's reserve is recomputed as in hwfit_memory_estimate. */
    hwfit_memory_out r = *out;
    int of = 0;
    uint64_t less = r.weights_bytes > exact_bytes ? r.weights_bytes - exact_bytes : 0;
    uint64_t more = exact_bytes > r.weights_bytes ? exact_bytes - r.weights_bytes : 0;
    uint64_t *parts[] = {&r.weights_bytes, &r.total_bytes, &r.forward_bytes, &r.backward_bytes,
                         &r.step_bytes, &r.allocated_bytes};
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++) {
        if (*parts[k] < less) return HWFIT_EDOM; /* not this estimate's output */
        *parts[k] = add_c(*parts[k] - less, more, &of);
    }
    double extra = (double)r.allocated_bytes * in->fragmentation;
    if (of || extra >= 9007199254740992.0) return HWFIT_ERANGE;
    uint64_t ex = (uint64_t)extra;
    if ((double)ex < extra) ex++;
    r.reserved_bytes = add_c(r.allocated_bytes, ex, &of);
    r.peak_bytes = add_c(r.reserved_bytes, r.overhead_bytes, &of);
    if (of) return HWFIT_ERANGE;
    *out = r;
    if (applied) *applied = 1;
    return HWFIT_OK;
}

hwfit_status hwfit_memory_use_stored(const hwfit_model *model, hwfit_memory_in *in,
                                     int *applied) {
    if (applied) *applied = 0;
    if (model == NULL || in == NULL) return HWFIT_EINVAL;
    const hwfit_model_stored *s = &model->stored;
    /* A skip list's single layers (kept_layers) hold whatever the linear format is: bitsandbytes
     * honours llm_int8_skip_modules when a QLoRA run loads the checkpoint. */
    if ((s->flags & HWFIT_STORED_QUANTIZED) && in->mode != HWFIT_MEMORY_FULL)
        memcpy(in->kept_layers, s->kept_layers, sizeof in->kept_layers);
    if (!(s->flags & HWFIT_STORED_QUANTIZED) || in->mode == HWFIT_MEMORY_FULL || in->mode == HWFIT_MEMORY_QLORA)
        return HWFIT_OK;
    in->module_formats = 1;
    in->attention_weights = s->attention;
    in->mlp_weights = s->mlp;
    in->expert_weights = s->experts;
    in->weights = s->attention;
    in->unquantized = s->checkpoint;
    in->keep_embeddings = 1;
    if (applied) *applied = 1;
    return HWFIT_OK;
}

/* A comma-separated list of names (no empty item) as the union of their bits: a name
 * ending in suffix (when given) is read without it. Unknown names: HWFIT_ENOTFOUND, *bits
 * untouched on failure. The LoRA targets and the modules trained in full share it. */
typedef struct name_bits {
    const char *name;
    unsigned bits;
} name_bits;

static hwfit_status names_to_bits(const char *text, const name_bits *names, size_t n,
                                  const char *suffix, unsigned *out) {
    const size_t sl = suffix ? strlen(suffix) : 0;
    unsigned bits = 0;
    const char *p = text;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == 0) return HWFIT_EPARSE;
        if (sl && len > sl && strncmp(p + len - sl, suffix, sl) == 0) len -= sl;
        unsigned found = 0;
        for (size_t i = 0; i < n; i++)
            if (strlen(names[i].name) == len && strncmp(p, names[i].name, len) == 0)
                found = names[i].bits;
        if (found == 0) return HWFIT_ENOTFOUND;
        bits |= found;
        if (end == NULL) break;
        p = end + 1;
    }
    *out = bits;
    return HWFIT_OK;
}

hwfit_status hwfit_memory_lora_targets_parse(const char *text, unsigned *targets) {
    if (text == NULL || targets == NULL) return HWFIT_EINVAL;
    static const name_bits names[] = {
        {"q", HWFIT_LORA_Q},          {"k", HWFIT_LORA_K},        {"v", HWFIT_LORA_V},
        {"o", HWFIT_LORA_O},          {"gate", HWFIT_LORA_GATE},  {"up", HWFIT_LORA_UP},
        {"down", HWFIT_LORA_DOWN},    {"attention", HWFIT_LORA_ATTENTION},
        {"mlp", HWFIT_LORA_GATE | HWFIT_LORA_UP | HWFIT_LORA_DOWN},
        {"all", HWFIT_LORA_ALL},      {"all-linear", HWFIT_LORA_ALL},
    };
    /* PEFT module names carry a _proj suffix: q_proj, gate_proj. */
    return names_to_bits(text, names, sizeof names / sizeof names[0], "_proj", targets);
}

hwfit_status hwfit_memory_record_lengths_parse(const char *text,
                                               uint32_t lengths[HWFIT_MEMORY_RECORDS]) {
    if (text == NULL || lengths == NULL) return HWFIT_EINVAL;
    uint32_t out[HWFIT_MEMORY_RECORDS] = {0};
    unsigned n = 0;
    const char *p = text;
    for (;;) {
        if (*p < '0' || *p > '9') return HWFIT_EPARSE; /* empty item, sign, space */
        uint64_t v = 0;
        while (*p >= '0' && *p <= '9') {
            if (v <= UINT32_MAX) v = v * 10u + (uint64_t)(*p - '0'); /* saturates past 2^32 */
            p++;
        }
        if (*p != ',' && *p != '\0') return HWFIT_EPARSE;
        if (v == 0 || v > UINT32_MAX || n == HWFIT_MEMORY_RECORDS) return HWFIT_EDOM;
        out[n++] = (uint32_t)v;
        if (*p++ == '\0') break;
    }
    memcpy(lengths, out, sizeof out);
    return HWFIT_OK;
}

/* The standard normal quantile by bisection on the cumulative (0.5 erfc(-z / sqrt 2)):
 * 200 halvings of [-40, 40] reach the double's resolution. */
static double normal_quantile(double p) {
    double lo = -40.0, hi = 40.0;
    for (int i = 0; i < 200 && hi - lo > 1e-12; i++) {
        double mid = 0.5 * (lo + hi);
        if (0.5 * erfc(-mid / sqrt(2.0)) < p) lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}

hwfit_status hwfit_memory_records_typical(double mean, double sd, uint64_t bound,
                                          uint64_t samples, uint64_t micro_batch,
                                          uint32_t lengths[HWFIT_MEMORY_RECORDS]) {
    if (lengths == NULL) return HWFIT_EINVAL;
    if (!(mean > 0.0) || !isfinite(mean) || !(sd >= 0.0) || !isfinite(sd) || bound == 0 ||
        samples == 0 || micro_batch == 0)
        return HWFIT_EDOM;
    uint32_t out[HWFIT_MEMORY_RECORDS] = {0}, n_out = 0;
    if (sd > 0.0) {
        /* lognormal with this mean and spread: ln X ~ N(mu, s^2) */
        double s2 = log1p((sd / mean) * (sd / mean)), s = sqrt(s2), mu = log(mean) - s2 / 2;
        const double b = (double)micro_batch; /* a count: exact below 2^53, near enough above */
        double n = floor((double)samples / b);
        if (n < 1.0) n = 1.0;
        /* G(bound-) = P(one sample below the bound)^b: above it every record is the bound */
        double below = 0.5 * erfc(-((log((double)bound) - mu) / s) / sqrt(2.0));
        double g_bound = pow(below, b);
        uint32_t last = 0;
        for (int k = 1; k < 64; k++) {
            double p = 1.0 - exp(-(double)k);
            if (p >= 1.0 - 1.0 / n || p >= g_bound) break;
            double x = exp(mu + s * normal_quantile(pow(p, 1.0 / b)));
            if (!(x < (double)bound) || x >= 4294967295.0) break;
            uint32_t v = (uint32_t)llround(x < 1.0 ? 1.0 : x);
            if (v <= last || v >= bound) continue;
            if (n_out == HWFIT_MEMORY_RECORDS) { /* keep the longest ones */
                memmove(out, out + 1, sizeof out - sizeof out[0]);
                n_out--;
            }
            out[n_out++] = last = v;
        }
    }
    memcpy(lengths, out, sizeof out);
    return HWFIT_OK;
}

hwfit_status hwfit_memory_full_modules_parse(const char *text, unsigned *modules) {
    if (text == NULL || modules == NULL) return HWFIT_EINVAL;
    /* The short names and the module names of transformers (embed_tokens, lm_head) and of
     * Megatron-Core (word_embeddings, output_layer), as ms-swift's --modules_to_save takes
     * them. */
    static const name_bits names[] = {
        {"embed", HWFIT_FULL_EMBEDDING},  {"embed_tokens", HWFIT_FULL_EMBEDDING},
        {"word_embeddings", HWFIT_FULL_EMBEDDING}, {"head", HWFIT_FULL_HEAD},
        {"lm_head", HWFIT_FULL_HEAD},     {"output_layer", HWFIT_FULL_HEAD},
        {"norms", HWFIT_FULL_NORMS},      {"all", HWFIT_FULL_ALL},
    };
    return names_to_bits(text, names, sizeof names / sizeof names[0], NULL, modules);
}

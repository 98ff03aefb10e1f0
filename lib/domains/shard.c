/* shard.c - one workload split across cards (docs/formulas.md, "shard").
 *
 * Every byte of a card comes from hwfit_memory_estimate and hwfit_model_kv, called on
 * single layers of a "rank model" (the model one tensor/expert-parallel rank holds) and
 * summed over the layers of the card's pipeline stage: memory.c is additive over layers
 * (weights, KV cache, gradients, optimizer states and stored activations are per-layer
 * sums; the inference workspace and the full-recomputation peak are maxima over layer
 * kinds), so the sums equal hwfit_memory_estimate on the stage's layer range exactly. On
 * top of that this file adds what only a layout decides: the layer split, ZeRO, offload,
 * micro-batches in flight, communication buffers and the fit.
 */
#include <stdlib.h>
#include <string.h>

#include "hwfit/dtype.h"
#include "hwfit/memory.h"
#include "hwfit/model.h"
#include "hwfit/shard.h"
#include "hwfit/status.h"

#include "base/checked.h"
#include "base/internal.h"
#include "domains/memory_internal.h"
#include "domains/model_internal.h"
#include "domains/shard_iface.h"
#include "domains/shard_internal.h"

void hwfit_layout_init(hwfit_layout *layout) {
    if (layout == NULL) return;
    memset(layout, 0, sizeof *layout);
    layout->tp = layout->pp = layout->dp = layout->cp = layout->ep = 1;
    layout->virtual_stages = 1;
    layout->micro_batch = 1;
    layout->recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    layout->uneven_layers = 1;
}

void hwfit_shard_init(hwfit_shard_in *in) {
    if (in == NULL) return;
    memset(in, 0, sizeof *in);
    hwfit_memory_init(&in->memory);
    hwfit_layout_init(&in->layout);
    in->gpus = 1;
    in->utilization = 0.9;           /* vLLM --gpu-memory-utilization default */
    in->comm_group_bytes = 67108864.0; /* NCCL_BUFFSIZE 4 MiB x 2 neighbours x 8 channels */
    in->bucket_bytes = 26214400.0;   /* PyTorch DDP bucket_cap_mb = 25 */
    /* DeepSpeed 0.15 runtime/zero/config.py: reduce_bucket_size pp_int(5e8); overlap_comm
     * None, resolved by overlap_comm_valid to stage == 3 (so False at stages 1-2). */
    in->reduce_bucket_elements = 5e8;
    in->overlap_comm = 0;
    in->zero3_live_layers = 2;       /* FSDP: the current unit and the prefetched one */
    in->host_utilization = 0.9;
    in->host_buffer_factor = 1.0;
}

void hwfit_shard_space_init(hwfit_shard_space *space) {
    if (space == NULL) return;
    memset(space, 0, sizeof *space);
    space->cp = 1;
    space->virtual_stages = 0; /* searched: interleaved 1F1B is how large models train */
    /* Megatron-Bridge's recipes for Llama 3.1 405B and DeepSeek-V3 run 4 to 8 chunks per
     * card (virtual_pipeline_model_parallel_size); 8 is the most they use. */
    space->max_virtual_stages = 8;
    space->sequence_parallel = HWFIT_SHARD_ANY;
    space->zero_stage = HWFIT_SHARD_ANY;
    space->offload = 0;
    space->recompute = HWFIT_SHARD_ANY;
    space->max_micro_batch = 8;
    space->uneven_layers = 1;
}

/* ---- reasons ------------------------------------------------------------------------------ */

static const char *const reason_names[HWFIT_SHARD_REASON_COUNT_] = {
    "valid",           "gpus",           "heads",           "kv_heads",
    "mlp_width",       "expert_width",   "experts",         "expert_ranks",
    "stages",          "uneven",         "virtual_stages",  "virtual_layers",
    "virtual_microbatches", "sequence_parallel", "context", "batch",
    "zero_inference",  "offload_inference", "offload_zero"};

static const char *const reason_messages[HWFIT_SHARD_REASON_COUNT_] = {
    "the layout is valid",
    "tp x pp x dp x cp differs from the number of GPUs",
    "attention heads are not divisible by tp",
    "key/value heads are not divisible by tp, nor tp by them",
    "the dense MLP or shared-expert width is not divisible by tp",
    "the routed-expert width is not divisible by the expert tensor parallelism",
    "ep > 1 needs a mixture-of-experts model whose expert count ep divides",
    "ep x expert tp does not divide the tp x dp x cp ranks of a pipeline stage",
    "more pipeline chunks (pp x virtual stages) than layers",
    "layers are not divisible by pp and uneven splits are not allowed",
    "virtual stages need pipeline parallelism and training",
    "virtual stages need layers divisible by pp x virtual stages",
    "virtual stages need micro-batches per step divisible by pp",
    "sequence parallelism needs tp > 1 and training",
    "the context is not divisible by cp (x tp with sequence parallelism)",
    "the global batch is not divisible by micro-batch x dp",
    "ZeRO stages above 0 apply to training only",
    "offload is modelled for training only",
    "optimizer offload needs ZeRO stage >= 1 and parameter offload ZeRO stage 3"};

const char *hwfit_shard_reason_name(hwfit_shard_reason reason) {
    if ((unsigned)reason >= (unsigned)HWFIT_SHARD_REASON_COUNT_) return "unknown";
    return reason_names[reason];
}

const char *hwfit_shard_reason_str(hwfit_shard_reason reason) {
    if ((unsigned)reason >= (unsigned)HWFIT_SHARD_REASON_COUNT_) return "unknown reason";
    return reason_messages[reason];
}

hwfit_status hwfit_shard_offload_parse(const char *text, unsigned *offload) {
    if (text == NULL || offload == NULL) return HWFIT_EINVAL;
    if (*text == '\0') return HWFIT_EPARSE;
    unsigned bits = 0;
    const char *p = text;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == 0) return HWFIT_EPARSE;
        if (n == 4 && strncmp(p, "none", 4) == 0) bits |= 0u;
        else if (n == 9 && strncmp(p, "optimizer", 9) == 0) bits |= HWFIT_SHARD_OFFLOAD_OPTIMIZER;
        else if (n == 6 && strncmp(p, "params", 6) == 0) bits |= HWFIT_SHARD_OFFLOAD_PARAMS;
        else if (n == 3 && strncmp(p, "all", 3) == 0)
            bits |= HWFIT_SHARD_OFFLOAD_OPTIMIZER | HWFIT_SHARD_OFFLOAD_PARAMS;
        else return HWFIT_ENOTFOUND;
        if (end == NULL) break;
        p = end + 1;
    }
    *offload = bits;
    return HWFIT_OK;
}

/* ---- the engine ------------------------------------------------------------------------ */

/* Set bits of a word (SWAR: inline everywhere, no libgcc call without -mpopcnt). */
static uint32_t popcount64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555u);
    x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
    return (uint32_t)((x * 0x0101010101010101u) >> 56);
}

uint32_t hwfit__shard_bits_count(const uint64_t *bits, uint32_t first, uint32_t count) {
    if (count == 0) return 0;
    uint32_t last = first + count - 1;
    uint32_t a = first / 64, b = last / 64;
    uint64_t lo = ~(uint64_t)0 << (first % 64);
    uint64_t hi = ~(uint64_t)0 >> (63 - last % 64);
    if (a == b) return popcount64(bits[a] & lo & hi);
    uint32_t c = popcount64(bits[a] & lo);
    for (uint32_t w = a + 1; w < b; w++) c += popcount64(bits[w]);
    return c + popcount64(bits[b] & hi);
}

/* MoE / sliding layers among [first, first + count): no bit is read when every layer is
 * alike (most models). */
static uint32_t moe_in(const hwfit__shard_engine *e, uint32_t first, uint32_t count) {
    if (e->kinds[1] == 0) return 0;
    if (e->kinds[0] == 0) return count;
    return hwfit__shard_bits_count(e->moe_bits, first, count);
}


hwfit_status hwfit__shard_engine_init(hwfit__shard_engine *e, const hwfit_model *model) {
    if (e == NULL || model == NULL) return HWFIT_EINVAL;
    hwfit_status st = hwfit__model_prepare(model, &e->prep); /* EINVAL, EDOM or ERANGE */
    if (st != HWFIT_OK) return st;
    memset(&e->kind_first, 0, offsetof(hwfit__shard_engine, rank) -
                                  offsetof(hwfit__shard_engine, kind_first));
    e->model = model;
    e->dims = e->prep.dims;
    hwfit__memory_memo_reset(&e->memo);
    e->kind_first[0] = e->kind_first[1] = UINT32_MAX;
    e->full_first = e->sliding_first = UINT32_MAX;
    uint32_t layers = model->layers, moe_n = e->prep.params.moe_layers;
    uint32_t sliding_n = e->prep.sliding_layers;
    if ((moe_n == 0 || moe_n == layers) && (sliding_n == 0 || sliding_n == layers)) {
        /* Every layer alike (most models): the same as the loop below, without reading
         * the flags layer by layer. */
        int moe = moe_n == layers, sliding = sliding_n == layers;
        e->kind_first[moe] = 0;
        e->kinds[moe] = layers;
        if (sliding) e->sliding_first = 0;
        else e->full_first = 0;
        for (uint32_t w = 0; w < (layers + 63) / 64; w++) {
            uint32_t rest = layers - 64 * w;
            uint64_t word = rest >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << rest) - 1;
            e->moe_bits[w] = moe ? word : 0;
            e->sliding_bits[w] = sliding ? word : 0;
        }
    } else {
        for (uint32_t i = 0; i < layers; i++) {
            int moe = hwfit__model_layer_is_moe(model, i);
            int sliding = hwfit__model_layer_is_sliding(model, i);
            if (e->kind_first[moe] == UINT32_MAX) e->kind_first[moe] = i;
            if (sliding && e->sliding_first == UINT32_MAX) e->sliding_first = i;
            if (!sliding && e->full_first == UINT32_MAX) e->full_first = i;
            e->kinds[moe]++;
            e->moe_bits[i / 64] |= (uint64_t)moe << (i % 64);
            e->sliding_bits[i / 64] |= (uint64_t)sliding << (i % 64);
        }
    }
    hwfit__shard_engine_reset(e);
    return HWFIT_OK;
}

void hwfit__shard_engine_reset(hwfit__shard_engine *e) {
    e->w_valid = e->kv_valid = e->a.valid = e->ev[0].valid = e->ev[1].valid = 0;
}

/* ---- the engine as perf.c drives it (shard_iface.h) --------------------------------------- */

_Static_assert(sizeof(hwfit__shard_engine) <= HWFIT__SHARD_ENGINE_BYTES,
               "HWFIT__SHARD_ENGINE_BYTES (shard_iface.h) is too small for the engine");

hwfit_status hwfit__shard_engine_start(hwfit__shard_engine *e, const hwfit_model *model) {
    return hwfit__shard_engine_init(e, model);
}

const hwfit_model_param_counts *hwfit__shard_engine_params(const hwfit__shard_engine *e) {
    return &e->prep.params;
}

const uint32_t *hwfit__shard_engine_kinds(const hwfit__shard_engine *e) { return e->kinds; }

uint32_t hwfit__shard_engine_moe_layers(const hwfit__shard_engine *e, uint32_t first,
                                        uint32_t count) {
    return moe_in(e, first, count);
}

void hwfit__shard_engine_experts(const hwfit__shard_engine *e, uint64_t *weights,
                                 uint64_t *trainable) {
    *weights = e->layer[1].e_weights;
    *trainable = e->layer[1].e_trainable;
}

/* The model one rank holds under tensor parallelism tp and expert parallelism ep with
 * expert tensor parallelism etp: heads / tp; key/value heads / tp, or one replicated head
 * when tp exceeds them (vLLM: num_kv_heads = max(1, total_kv_heads // tp)); MLP and
 * shared-expert widths / tp and the vocabulary ceil(V / tp) (Megatron's column- and
 * row-parallel linears and vocab-parallel embedding, Shoeybi et al. 2019); experts / ep,
 * each of width / etp. Norms, MLA's down-projections and latent stay whole (replicated).
 * Approximation: the router keeps E / ep outputs instead of E (it is replicated). */
static void rank_model(const hwfit__shard_engine *e, uint32_t tp, uint32_t ep, uint32_t etp,
                       hwfit_model *s) {
    const hwfit_model *m = e->model;
    *s = *m;
    s->heads = m->heads / tp;
    if (m->attention == HWFIT_MODEL_ATTENTION_GQA) {
        s->kv_heads = m->kv_heads >= tp ? m->kv_heads / tp : 1;
        s->head_dim = (uint32_t)e->dims.qk_head_dim;
        s->v_head_dim = (uint32_t)e->dims.v_head_dim;
    }
    s->vocab = hwfit__ceil_div_u64(m->vocab, tp);
    s->intermediate = m->intermediate / tp;
    if (m->shared_experts > 0) {
        s->shared_expert_intermediate =
            (uint64_t)m->shared_experts * m->shared_expert_intermediate / tp;
        s->shared_experts = 1;
    }
    if (m->experts > 0) {
        s->experts = m->experts / ep;
        if (s->experts_per_token > s->experts) s->experts_per_token = s->experts;
        s->expert_intermediate = m->expert_intermediate / etp;
    }
}

/* A unit from one memory call. covers (grad_covers_frozen, training): when the unit has a
 * trained element, its gradient covers all its elements, the frozen ones too. FSDP1 with
 * use_orig_params=True flattens frozen and trained parameters into one FlatParameter that
 * requires grad when any of them does (torch/distributed/fsdp/_flat_param.py,
 * FlatParamHandle._validate_tensors_to_flatten: "For `use_orig_params=True`, permit
 * non-uniform `requires_grad`", flat_param_requires_grad |= tensor.requires_grad;
 * _reset_flat_param_grad_info_if_needed: "As long as one parameter requires gradient, then
 * the flat parameter must require gradient"), so autograd's gradient is the whole unsharded
 * flat parameter's and the reduce-scatter's output the whole shard's (the FSDP1 docstring of
 * use_orig_params: "the gradient memory usage will be higher than expected (namely,
 * equivalent to not freezing those parameters)"). Its elements: the parameters and the
 * LoRA adapters, in the gradients' format (one per flat parameter: gradient_bytes /
 * trainable_params, exact). The optimizer states stay the trained parameters' (the frozen
 * parameters' .grad views are None, _use_sharded_grad_views, so the optimizer skips them). */
static hwfit_status unit_of(const hwfit_memory_out *o, int covers, hwfit__shard_unit *u) {
    u->weights = o->weights_bytes;
    u->params = o->params;
    u->trainable = o->trainable_params;
    u->gradients = o->gradient_bytes;
    u->optimizer = o->optimizer_bytes;
    u->e_weights = o->expert_weights_bytes;
    u->e_trainable = o->expert_trainable_params;
    u->e_gradients = o->expert_gradient_bytes;
    u->e_optimizer = o->expert_optimizer_bytes;
    u->scales = u->e_scales = 0;
    u->graded = o->trainable_params;
    u->e_graded = o->expert_trainable_params;
    if (covers && o->trainable_params > 0) {
        const uint64_t per = o->gradient_bytes / o->trainable_params;
        /* LoRA: the experts' adapters are expert_trainable_params (memory.c) */
        const uint64_t e_adapters = o->adapter_params ? o->expert_trainable_params : 0;
        if (hwfit__add_u64(o->params, o->adapter_params, &u->graded) != HWFIT_OK ||
            hwfit__add_u64(o->expert_params, e_adapters, &u->e_graded) != HWFIT_OK ||
            hwfit__mul_u64(u->graded, per, &u->gradients) != HWFIT_OK ||
            hwfit__mul_u64(u->e_graded, per, &u->e_gradients) != HWFIT_OK)
            return HWFIT_ERANGE;
    }
    return HWFIT_OK;
}

/* a - b, field by field (a is b plus the tables: never negative). */
static void unit_sub(const hwfit__shard_unit *a, const hwfit__shard_unit *b,
                     hwfit__shard_unit *out) {
    out->weights = a->weights - b->weights;
    out->params = a->params - b->params;
    out->trainable = a->trainable - b->trainable;
    out->gradients = a->gradients - b->gradients;
    out->optimizer = a->optimizer - b->optimizer;
    out->e_weights = a->e_weights - b->e_weights;
    out->e_trainable = a->e_trainable - b->e_trainable;
    out->e_gradients = a->e_gradients - b->e_gradients;
    out->e_optimizer = a->e_optimizer - b->e_optimizer;
    out->scales = a->scales - b->scales;
    out->e_scales = a->e_scales - b->e_scales;
    out->graded = a->graded - b->graded;
    out->e_graded = a->e_graded - b->e_graded;
    /* A table with no trained element (grad_covers_frozen counted the layer's flat
     * parameter's frozen elements, and the table's with them): a unit of its own (the
     * root's), which has no gradient. */
    if (out->trainable == 0 && out->e_trainable == 0) {
        out->gradients = out->e_gradients = 0;
        out->graded = out->e_graded = 0;
    }
}

/* One memory call on one layer with the tables switched as asked (hwfit_memory_estimate on
 * the prepared model). */
/* One layer (and the tables asked for) of the caller's workload copy mi, whose layer range
 * and tables it sets: no copy of its own, so that the shard chains stay within the stack
 * budget (tests/stack). */
static hwfit_status one_layer(const hwfit_model *m, const hwfit__model_prep *prep,
                              hwfit_status prep_status, hwfit__memory_memo *memo,
                              hwfit_memory_in *mi, uint32_t layer, int emb, int head,
                              hwfit_memory_out *out) {
    mi->first_layer = layer;
    mi->layer_count = 1;
    mi->embedding = emb;
    mi->head = head;
    return hwfit__memory_estimate_prepared(m, prep, prep_status, mi, memo, out);
}

static uint64_t max_top(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* The largest field of u. */
static uint64_t unit_top(const hwfit__shard_unit *u) {
    const uint64_t f[] = {u->weights,     u->params,      u->trainable,   u->gradients,
                          u->optimizer,   u->e_weights,   u->e_trainable, u->e_gradients,
                          u->e_optimizer, u->scales,      u->e_scales,    u->graded,
                          u->e_graded};
    uint64_t top = 0;
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (f[i] > top) top = f[i];
    return top;
}

/* e->unit_top from the units weights_units_fill made (a kind the model lacks is never
 * summed: its unit is left out). Apart from that fill's frame (tests/stack). */
HWFIT__NOINLINE
static void units_top(hwfit__shard_engine *e) {
    uint64_t top = max_top(unit_top(&e->emb), unit_top(&e->head));
    top = max_top(top, unit_top(&e->both));
    for (int k = 0; k < 2; k++)
        if (e->kind_first[k] != UINT32_MAX) top = max_top(top, unit_top(&e->layer[k]));
    e->unit_top = top;
}

/* quant_scales_replicated: the NF4 block scales of one unit (layer, tables asked for). The
 * unit is weighed again with its NF4 format replaced by int8 (one byte an element, no
 * scales; the vectors and tables keep the unquantized format either way): with Q the
 * NF4 elements, O the rest, and an NF4 block of E elements in B bits, int8 weighs Q + O and
 * NF4 Q B / 8E + O (blocks rounded up per matrix: a block's bytes at most), so
 * Q = (w_int8 - w_nf4) / (1 - B / 8E) and the scales are Q (B - 4E) / 8E, the bits beyond
 * the 4-bit values (Dettmers et al. 2023: 32 per 64 values; double-quantized 8 per 64 and
 * 32 per 256 blocks). Only when the base format is NF4 and the modules share it. */
/* The NF4 scales of unit j of e (0, 1: the dense and MoE layer; 2, 3, 4: the embedding, the
 * head, both, each with layer k0) from o8, the same weighed with int8 (weights_units). A
 * table's scales: those of layer + table less the layer's. */
static void nf4_scales_of(hwfit__shard_engine *e, int j, int k0, hwfit_dtype_id id,
                          const hwfit_memory_out *o8) {
    hwfit__shard_unit *dst[5] = {&e->layer[0], &e->layer[1], &e->emb, &e->head, &e->both};
    hwfit__shard_unit *d = dst[j];
    const hwfit__shard_unit *l = &e->layer[k0];
    uint64_t w = d->weights, ew = d->e_weights;
    if (j >= 2) {
        w += l->weights;
        ew += l->e_weights;
    }
    /* bits and elements of an NF4 block (lib/catalogs/dtype.c) */
    const double bits = id == HWFIT_DTYPE_NF4 ? 64.0 * 4 + 32 : 16384.0 * 4 + 256 * 8 + 32;
    const double elements = id == HWFIT_DTYPE_NF4 ? 64.0 : 16384.0;
    const double per = bits / (8.0 * elements), scale = (bits - 4.0 * elements) / (8.0 * elements);
    double b = o8->weights_bytes > w ? (double)(o8->weights_bytes - w) / (1.0 - per) * scale : 0.0;
    double eb = o8->expert_weights_bytes > ew
                    ? (double)(o8->expert_weights_bytes - ew) / (1.0 - per) * scale
                    : 0.0;
    uint64_t sc = b < (double)w ? (uint64_t)b : w, esc = eb < (double)ew ? (uint64_t)eb : ew;
    if (esc > sc) esc = sc;
    if (j >= 2) {
        sc = sc > l->scales ? sc - l->scales : 0;
        esc = esc > l->e_scales ? esc - l->e_scales : 0;
    }
    d->scales = sc;
    d->e_scales = esc;
}

/* trained_fp32 under ZeRO: the trained parameters as DeepSpeed's engine holds them. LLaMA-
 * Factory casts them to fp32 (model/adapter.py, init_adapter), then DeepSpeed's engine
 * casts the whole module back to its 16-bit format (deepspeed/runtime/engine.py,
 * DeepSpeedEngine._configure_distributed_model: self.module.bfloat16() or .half() when bf16
 * or fp16 is enabled, at every ZeRO stage) and its ZeRO optimizer keeps fp32 master
 * partitions of them (runtime/zero/stage_1_and_2.py single_partition_of_fp32_groups,
 * stage3.py fp32_partitioned_groups_flat), with the fp32 Adam states beside them; .grad has
 * the 16-bit parameter's dtype and is reduced into 16-bit partitions (ipg buckets and
 * averaged_gradients in the parameter dtype). So the trained weights, their gradients and
 * (LoRA) the adapters are in the 16-bit compute format (the activations' format, bf16 when
 * that is not 16-bit) and the master weights are counted (partitioned with the optimizer
 * states). Under FSDP's full sharding (LLaMA-Factory loads the model in fp32 there,
 * model/patcher.py) the gathered units are 16-bit too (MixedPrecision param_dtype) and
 * the sharded bytes a parameter are the same 16 (fp32 shard 4 + fp32 gradient 4 + moments
 * 8 against 2 + 4 master + 2 + 8). Returns 1 when it changed mi. */
static int zero_master_applies(const hwfit_memory_in *mi) {
    /* fp32 activations: DeepSpeed without bf16 or fp16 keeps the fp32 module (no cast). */
    return mi->trained_fp32 && mi->mode != HWFIT_MEMORY_INFERENCE &&
           mi->activations.id != HWFIT_DTYPE_FP32;
}

static int zero_master_rule(hwfit_memory_in *mi) {
    if (!zero_master_applies(mi)) return 0;
    hwfit_dtype h = mi->activations;
    if (h.id != HWFIT_DTYPE_BF16 && h.id != HWFIT_DTYPE_FP16) h = hwfit_dtype_make(HWFIT_DTYPE_BF16);
    mi->trained_fp32 = 0;
    mi->master_weights = 1;
    mi->gradients = h;
    if (mi->mode == HWFIT_MEMORY_FULL) {
        mi->weights = mi->unquantized = h;
        mi->attention_weights = mi->mlp_weights = mi->expert_weights = h;
    } else {
        mi->lora_dtype = h;
    }
    return 1;
}

/* Whether the weights' units hold for r (w_valid: 1 + whether zero_master_rule applies,
 * the units differ with it). */
static int weights_units_hold(const hwfit__shard_engine *e, const hwfit_shard_in *in,
                              const hwfit__shard_resolved *r) {
    const int rule = r->zero >= 1 && zero_master_applies(&in->memory);
    return e->w_valid == 1 + rule && e->w_tp == r->tp && e->w_ep == r->ep && e->w_etp == r->etp;
}

/* The weights' units on the rank model prepared in rp (weights_units_fill): a frame
 * of its own (a memory input copied, a memory output), so that the check every evaluation
 * makes (units) sets none up. */
HWFIT__NOINLINE
static hwfit_status weights_units_rank(hwfit__shard_engine *e, const hwfit_shard_in *in,
                                       int rule, const hwfit__model_prep *rp) {
    hwfit__memory_memo_reset(&e->rank_memo);
    hwfit__memory_memo *rm = &e->rank_memo;
    hwfit_status rs = e->rank_prep_status;
    /* Weights, gradients and optimizer states do not depend on the context, the batch or
     * the activation choices: the cheapest values are used. */
    hwfit_memory_in mi = in->memory;
    mi.tensor_parallel = 1;
    mi.sequence_parallel = 0;
    mi.overhead_bytes = 0.0;
    mi.batch = 1;
    mi.context = 1;
    mi.micro_batch = 1;
    mi.recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    mi.mtp = 0;
    if (rule) (void)zero_master_rule(&mi);
    hwfit_memory_out o;
    hwfit_status st;
    for (int k = 0; k < 2; k++) {
        if (e->kind_first[k] == UINT32_MAX) continue;
        if ((st = one_layer(&e->rank, rp, rs, rm, &mi, e->kind_first[k], 0, 0, &o)) != HWFIT_OK)
            return st;
        if ((st = unit_of(&o, mi.grad_covers_frozen, &e->layer[k])) != HWFIT_OK) return st;
    }
    /* A table's unit: its layer + table, less the layer's, in place (no unit on this
     * frame: it is on the deepest chains, tests/stack). */
    int k0 = hwfit__model_layer_is_moe(e->model, 0);
    if ((st = one_layer(&e->rank, rp, rs, rm, &mi, 0, 1, 0, &o)) != HWFIT_OK) return st;
    if ((st = unit_of(&o, mi.grad_covers_frozen, &e->emb)) != HWFIT_OK) return st;
    unit_sub(&e->emb, &e->layer[k0], &e->emb);
    if ((st = one_layer(&e->rank, rp, rs, rm, &mi, 0, 0, 1, &o)) != HWFIT_OK) return st;
    if ((st = unit_of(&o, mi.grad_covers_frozen, &e->head)) != HWFIT_OK) return st;
    unit_sub(&e->head, &e->layer[k0], &e->head);
    if ((st = one_layer(&e->rank, rp, rs, rm, &mi, 0, 1, 1, &o)) != HWFIT_OK) return st;
    if ((st = unit_of(&o, mi.grad_covers_frozen, &e->both)) != HWFIT_OK) return st;
    unit_sub(&e->both, &e->layer[k0], &e->both);
    /* quant_scales_replicated: each unit weighed again with int8 for its NF4 scales
     * (nf4_scales_of); here rather than in a helper, as the deepest chains pass through this
     * frame (tests/stack). The tables' scales: those of layer + table less the layer's. */
    hwfit_dtype *base = mi.mode == HWFIT_MEMORY_QLORA ? &mi.qlora_base : &mi.weights;
    const hwfit_dtype_id nf4 = base->id;
    if (mi.quant_scales_replicated && !mi.module_formats &&
        (nf4 == HWFIT_DTYPE_NF4 || nf4 == HWFIT_DTYPE_NF4_DQ)) {
        *base = hwfit_dtype_make(HWFIT_DTYPE_INT8);
        for (int j = 0; j < 5 && st == HWFIT_OK; j++) {
            const int k = j < 2 ? j : k0; /* tables (j - 1): 1 embedding, 2 head, 3 both */
            if (e->kind_first[k] == UINT32_MAX) continue;
            st = one_layer(&e->rank, rp, rs, NULL, &mi, j < 2 ? e->kind_first[k] : 0,
                           j >= 2 && ((j - 1) & 1), j >= 2 && ((j - 1) & 2), &o);
            if (st == HWFIT_OK) nf4_scales_of(e, j, k0, nf4, &o);
        }
        *base = hwfit_dtype_make(nf4);
        if (st != HWFIT_OK) return st;
    }
    units_top(e);
    return HWFIT_OK;
}

/* The weights' units of r, when weights_units_hold says they do not hold. The rank model's
 * prep is needed for its weights only (weights_units_rank; the KV cache keeps its
 * dimensions, kv_units), and a prep is a few KB (model_internal.h): neither on this chain's
 * stack (it is on the deepest chains, tests/stack) nor a second one in the engine (which
 * is on the public calls' frames). It borrows the engine's own prep, which the full model
 * is prepared into again after (hwfit__model_prepare is a function of the model only: the
 * same prep, bit for bit, as hwfit__shard_engine_init's; the full model's memo, e->memo,
 * stays valid). Nothing reads the full model's prep meanwhile: the rank's units read the
 * rank model only. */
HWFIT__NOINLINE
static hwfit_status weights_units_fill(hwfit__shard_engine *e, const hwfit_shard_in *in,
                                       const hwfit__shard_resolved *r) {
    const int rule = r->zero >= 1 && zero_master_applies(&in->memory);
    e->w_valid = 0;
    rank_model(e, r->tp, r->ep, r->etp, &e->rank);
    /* like may be the prep it writes: prepare reads like's layer counts first. */
    e->rank_prep_status = hwfit__model_prepare_like(&e->rank, &e->prep, &e->prep);
    if (e->rank_prep_status == HWFIT_OK) {
        e->rank_dims = e->prep.dims;
        e->rank_sliding = e->prep.sliding_layers;
    }
    hwfit_status st = weights_units_rank(e, in, rule, &e->prep);
    /* The full model's prep back, whatever the units' status (the engine prepared it
     * before: it cannot fail now). */
    hwfit_status ps = hwfit__model_prepare(e->model, &e->prep);
    if (st != HWFIT_OK) return st;
    if (ps != HWFIT_OK) return ps;
    e->w_tp = r->tp;
    e->w_ep = r->ep;
    e->w_etp = r->etp;
    e->w_valid = 1 + rule;
    e->kv_valid = 0; /* the rank model changed */
    return HWFIT_OK;
}

static hwfit_status kv_units(hwfit__shard_engine *e, const hwfit_shard_in *in,
                             const hwfit__shard_resolved *r) {
    if (e->kv_valid && e->kv_tp == r->tp && e->kv_ep == r->ep && e->kv_etp == r->etp &&
        e->kv_context == r->context_local && e->kv_batch == r->batch_local)
        return HWFIT_OK;
    e->kv_valid = 0;
    hwfit_model_kv_in kin;
    hwfit_model_kv_init(&kin);
    kin.dtype = in->memory.kv;
    kin.batch = r->batch_local;
    kin.context = r->context_local;
    kin.layer_count = 1;
    const uint32_t first[2] = {e->full_first, e->sliding_first};
    hwfit_model_kv_out kv;
    e->kv_layer[0] = e->kv_layer[1] = 0;
    for (int k = 0; k < 2; k++) {
        if (first[k] == UINT32_MAX) continue;
        kin.first_layer = first[k];
        hwfit_status st =
            hwfit__model_kv_dims(&e->rank, &e->rank_dims, e->rank_sliding,
                                 e->rank_prep_status, &kin, &kv);
        if (st != HWFIT_OK) return st;
        e->kv_layer[k] = kv.bytes;
        e->kv_token = kv.layer_bytes_per_token;
    }
    e->kv_tp = r->tp;
    e->kv_ep = r->ep;
    e->kv_etp = r->etp;
    e->kv_context = r->context_local;
    e->kv_batch = r->batch_local;
    e->kv_valid = 1;
    return HWFIT_OK;
}

/* Activations of one micro-batch (training) or the workspace (inference), per layer kind,
 * on the full model with tensor_parallel = tp: memory.c divides them as Korthikanti et al.
 * 2022 Table 2 does. stored[k]: what one layer keeps for the backward pass; peak[k]: the
 * full-recomputation peak (training) or the workspace (inference), taken once per card;
 * emb and head: the extra of the first and last stage. */
static int act_units_hold(const hwfit__shard_engine *e, const hwfit__shard_resolved *r) {
    uint64_t batch = r->training ? 0 : r->batch_local;
    return e->a.valid && e->a.tp == r->tp && e->a.ep == r->ep && e->a.sp == r->sp &&
           e->a.rc == r->rc &&
           e->a.mb == r->mb && e->a.context == r->context_local && e->a.batch == batch;
}

/* act_units, when act_units_hold says they do not hold: a frame of its own (a memory
 * input copied), as weights_units_fill. */
HWFIT__NOINLINE
static hwfit_status act_units_fill(hwfit__shard_engine *e, const hwfit_shard_in *in,
                                   const hwfit__shard_resolved *r) {
    uint64_t batch = r->training ? 0 : r->batch_local;
    e->a.valid = 0;
    hwfit_memory_in mi = in->memory;
    mi.tensor_parallel = r->tp;
    /* the op policy saves the expert all-to-alls' outputs when ep > 1 (memory.c op_block) */
    mi.expert_parallel = r->ep ? r->ep : 1;
    mi.sequence_parallel = r->sp;
    mi.overhead_bytes = 0.0;
    mi.batch = r->batch_local;
    mi.context = r->context_local;
    mi.micro_batch = r->mb;
    mi.recompute = r->rc;
    mi.mtp = 0;
    mi.whole_masks = 0; /* once per card, not per layer or micro-batch: card_of */
    mi.evaluation = 0;  /* its own phase, once per card: card_eval */
    hwfit_memory_out o;
    hwfit_status st;
    const hwfit_model *m = e->model;
    e->a.stored[0] = e->a.stored[1] = e->a.peak[0] = e->a.peak[1] = 0;
    e->a.full[0] = e->a.full[1] = 0;
    for (int k = 0; k < 2; k++) {
        if (e->kind_first[k] == UINT32_MAX) continue;
        uint32_t layer = e->kind_first[k];
        int first = layer == 0;
        /* Layer 0's call also gives the embedding's extra. */
        if ((st = one_layer(m, &e->prep, HWFIT_OK, &e->memo, &mi, layer, first, 0, &o)) != HWFIT_OK)
            return st;
        uint64_t stored = r->training ? (k ? o.activation_moe_layer_bytes
                                           : o.activation_dense_layer_bytes)
                                      : 0;
        e->a.stored[k] = stored;
        e->a.full[k] = stored;
        e->a.peak[k] = o.activation_bytes - o.activation_other_bytes - stored;
        if (first) e->a.emb = o.activation_other_bytes;
        /* The layer without recomputation: the same input and answer reused (no second copy
         * of either on this frame, which the deepest call chains pass through). */
        if (r->training && r->rc != HWFIT_MEMORY_RECOMPUTE_NONE) {
            mi.recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
            st = one_layer(m, &e->prep, HWFIT_OK, &e->memo, &mi, layer, first, 0, &o);
            mi.recompute = r->rc;
            if (st != HWFIT_OK) return st;
            e->a.full[k] = k ? o.activation_moe_layer_bytes : o.activation_dense_layer_bytes;
        }
    }
    if ((st = one_layer(m, &e->prep, HWFIT_OK, &e->memo, &mi, 0, 0, 1, &o)) != HWFIT_OK) return st;
    e->a.head = o.activation_other_bytes;
    e->a.loss = o.loss_bytes;
    e->a.tp = r->tp;
    e->a.ep = r->ep;
    e->a.sp = r->sp;
    e->a.rc = r->rc;
    e->a.mb = r->mb;
    e->a.context = r->context_local;
    e->a.batch = batch;
    e->a.valid = 1;
    return HWFIT_OK;
}

/* ---- layouts ---------------------------------------------------------------------------- */

void hwfit__shard_chunk(const hwfit__shard_resolved *r, uint32_t layers, uint32_t stage,
                        uint32_t j, uint32_t *first, uint32_t *count) {
    if (r->v > 1) {
        /* Interleaved schedule: chunk c = stage + j pp holds layers [c n, (c + 1) n) when
         * the pp v chunks divide the layers. Else as Megatron-Core splits them with
         * account_for_embedding_in_pipeline_split and account_for_loss_in_pipeline_split
         * (transformer_config.py): the embedding and the loss count as one layer each,
         * the layers + 2 units go over the chunks evenly (the remainder one each on the
         * chunks just before the last, as below), and the first and last chunks hold one
         * layer fewer (126 layers on 16 x 8 chunks: 1 each, none on the first and last;
         * decoder_first/last_pipeline_num_layers in effect). */
        uint32_t chunks = r->pp * r->v, c = stage + j * r->pp;
        if (layers % chunks == 0) {
            uint32_t n = layers / chunks;
            *first = c * n;
            *count = n;
            return;
        }
        uint32_t units = layers + 2, base = units / chunks, rem = units % chunks;
        uint32_t lo = chunks - 1 - rem;
        uint32_t before = (rem > 0 && c > lo) ? (c < chunks - 1 ? c : chunks - 1) - lo : 0;
        uint32_t u_first = c * base + before;
        uint32_t u_count = base + ((rem > 0 && c >= lo && c + 1 < chunks) ? 1u : 0u);
        /* units [u_first, u_first + u_count): unit 0 is the embedding, unit layers + 1
         * the loss, unit k the layer k - 1 */
        uint32_t a = u_first == 0 ? 1u : u_first, b = u_first + u_count;
        if (b > layers + 1) b = layers + 1;
        *first = a - 1;
        *count = b > a ? b - a : 0u;
        return;
    }
    /* vLLM distributed/utils.py get_pp_indices: layers // pp each, and the remainder one
     * each on the stages just before the last (partitions[-i] += 1 for i in 2..rem+1). */
    uint32_t pp = r->pp, base = layers / pp, rem = layers % pp;
    uint32_t lo = pp - 1 - rem; /* first stage with an extra layer, when rem > 0 */
    uint32_t extra_before = (rem > 0 && stage > lo) ? (stage < pp - 1 ? stage : pp - 1) - lo : 0;
    *first = stage * base + extra_before;
    *count = base + ((rem > 0 && stage >= lo && stage + 1 < pp) ? 1u : 0u);
}

uint32_t hwfit__shard_stage_count(const hwfit__shard_resolved *r, uint32_t layers,
                                  uint32_t stage) {
    uint32_t first, count;
    if (r->v <= 1) { /* one chunk */
        hwfit__shard_chunk(r, layers, stage, 0, &first, &count);
        return count;
    }
    uint64_t chunks = (uint64_t)r->pp * r->v;
    if (layers % chunks == 0) return (uint32_t)(layers / chunks * r->v);
    /* hwfit__shard_chunk's Megatron-Core split, summed over the stage's chunks c = stage +
     * j pp, j < v: chunk c holds base units, one more when lo <= c <= chunks - 2 (rem > 0);
     * the first chunk's first unit is the embedding and the last chunk's last the loss
     * (both on this stage when it is the first or the last), every other unit a layer. */
    uint64_t units = (uint64_t)layers + 2, base = units / chunks, rem = units % chunks;
    if (base == 0) { /* more chunks than units: not a valid layout; chunk by chunk */
        uint32_t sum = 0;
        for (uint32_t j = 0; j < r->v; j++) {
            hwfit__shard_chunk(r, layers, stage, j, &first, &count);
            sum += count;
        }
        return sum;
    }
    uint64_t n = base * r->v;
    if (rem > 0 && stage + 2 <= chunks) {
        uint64_t lo = chunks - 1 - rem, pp = r->pp;
        uint64_t j_lo = stage >= lo ? 0 : (lo - stage + pp - 1) / pp;
        uint64_t j_hi = (chunks - 2 - stage) / pp;
        if (j_hi > (uint64_t)r->v - 1) j_hi = (uint64_t)r->v - 1;
        if (j_hi >= j_lo) n += j_hi - j_lo + 1;
    }
    n -= (uint64_t)(stage == 0) + (uint64_t)(stage + 1 == r->pp);
    return (uint32_t)n;
}

static int valid_recompute(hwfit_memory_recompute rc) {
    return (unsigned)rc <= (unsigned)HWFIT_MEMORY_RECOMPUTE_FULL;
}

#define AT_LEAST_1 "must be at least 1"

hwfit_status hwfit__shard_resolve(const hwfit_model *m, const uint32_t kinds[2],
                                  const hwfit_shard_in *in, const hwfit_layout *l,
                                  hwfit__shard_resolved *r, hwfit_shard_reason *reason,
                                  hwfit_problem *why_in) {
    const hwfit_memory_in *mem = &in->memory;
    if ((unsigned)mem->mode > (unsigned)HWFIT_MEMORY_QLORA)
        return hwfit__why(why_in, HWFIT_EINVAL, "memory.mode", HWFIT__ENUM);
    if (!valid_recompute(l->recompute))
        return hwfit__why(why_in, HWFIT_EINVAL, "layout.recompute", HWFIT__ENUM);
    /* Every refusal below is HWFIT_EDOM: the order only chooses the field named. */
    if (in->gpus == 0 || in->gpus > HWFIT_SHARD_MAX_GPUS)
        return hwfit__why(why_in, HWFIT_EDOM, "gpus", "must be 1 to 1048576");
    const struct { uint64_t v; const char *field; } degrees[] = {
        {l->tp, "layout.tp"}, {l->pp, "layout.pp"}, {l->dp, "layout.dp"},
        {l->cp, "layout.cp"}, {l->ep, "layout.ep"}, {l->virtual_stages, "layout.virtual_stages"},
        {l->micro_batch, "layout.micro_batch"}, {mem->context, "memory.context"},
        {mem->batch, "memory.batch"}};
    for (size_t i = 0; i < sizeof degrees / sizeof degrees[0]; i++)
        if (degrees[i].v == 0) return hwfit__why(why_in, HWFIT_EDOM, degrees[i].field, AT_LEAST_1);
    if (l->zero_stage > 3)
        return hwfit__why(why_in, HWFIT_EDOM, "layout.zero_stage", "must be 0, 1, 2 or 3");
    if ((l->offload & ~(HWFIT_SHARD_OFFLOAD_OPTIMIZER | HWFIT_SHARD_OFFLOAD_PARAMS)) != 0)
        return hwfit__why(why_in, HWFIT_EDOM, "layout.offload",
                          "has bits other than HWFIT_SHARD_OFFLOAD_OPTIMIZER and _PARAMS");
    hwfit__shard_resolved x;
    memset(&x, 0, sizeof x);
    x.training = mem->mode != HWFIT_MEMORY_INFERENCE;
    x.tp = l->tp;
    x.pp = l->pp;
    x.dp = l->dp;
    x.cp = l->cp;
    x.ep = l->ep;
    x.v = l->virtual_stages;
    x.zero = l->zero_stage;
    x.offload = l->offload;
    x.sp = l->sequence_parallel != 0;
    x.uneven = l->uneven_layers != 0;
    x.rc = x.training ? l->recompute : HWFIT_MEMORY_RECOMPUTE_NONE;
    x.mb = x.training ? l->micro_batch : 1;
    uint64_t ranks, cards;
    hwfit_shard_reason why = HWFIT_SHARD_VALID;
    if (hwfit__mul_u64((uint64_t)l->tp * l->dp, l->cp, &ranks) != HWFIT_OK ||
        hwfit__mul_u64(ranks, l->pp, &cards) != HWFIT_OK || cards != in->gpus) {
        why = HWFIT_SHARD_GPUS;
        goto done;
    }
    x.ranks = ranks;
    x.z = (uint64_t)l->dp * l->cp;
    /* Tensor parallelism: Megatron-LM splits heads and MLP columns (Shoeybi et al. 2019);
     * vLLM allows tp above the key/value heads when it is a multiple of them. */
    if (m->heads % l->tp != 0) { why = HWFIT_SHARD_HEADS; goto done; }
    if (m->attention == HWFIT_MODEL_ATTENTION_GQA && m->kv_heads % l->tp != 0 &&
        l->tp % m->kv_heads != 0) {
        why = HWFIT_SHARD_KV_HEADS;
        goto done;
    }
    if ((kinds[0] > 0 && m->intermediate % l->tp != 0) ||
        (kinds[1] > 0 && m->shared_experts > 0 &&
         ((uint64_t)m->shared_experts * m->shared_expert_intermediate) % l->tp != 0)) {
        why = HWFIT_SHARD_MLP_WIDTH;
        goto done;
    }
    /* Experts: Megatron-Core's expert grid regroups the tp x dp x cp ranks of a stage as
     * etp x ep x edp; expert tensor parallelism defaults to tp there, while vLLM's expert
     * parallelism keeps experts whole across all ranks. */
    if (l->ep > 1 && (m->experts == 0 || kinds[1] == 0 || m->experts % l->ep != 0)) {
        why = HWFIT_SHARD_EXPERTS;
        goto done;
    }
    if (kinds[1] > 0) {
        if (ranks % l->ep != 0) { why = HWFIT_SHARD_EXPERT_RANKS; goto done; }
        uint64_t etp = l->etp ? l->etp : (x.z % l->ep == 0 ? l->tp : ranks / l->ep);
        if (ranks % (etp * l->ep) != 0) { why = HWFIT_SHARD_EXPERT_RANKS; goto done; }
        if (m->expert_intermediate % etp != 0) { why = HWFIT_SHARD_EXPERT_WIDTH; goto done; }
        x.etp = (uint32_t)etp;
        /* The expert-data-parallel group: Megatron-Core's expert_data_parallel_size =
         * world / (etp x ep x pp) (parallel_state.py). */
        x.ez = ranks / (etp * l->ep);
    } else {
        x.etp = l->tp;
        x.ez = x.z;
    }
    /* Pipeline. */
    uint64_t chunks = (uint64_t)l->pp * l->virtual_stages;
    /* Interleaved chunks may be one more than the layers on each end: the first and last
     * then hold only the embedding or the loss (Megatron-Core's split, see
     * hwfit__shard_chunk). */
    uint64_t room = l->virtual_stages > 1 && x.uneven ? (uint64_t)m->layers + 2 : m->layers;
    if (chunks > room) { why = HWFIT_SHARD_STAGES; goto done; }
    if (l->virtual_stages > 1 && (l->pp == 1 || !x.training)) {
        why = HWFIT_SHARD_VIRTUAL_STAGES;
        goto done;
    }
    if (l->virtual_stages > 1 && m->layers % chunks != 0 && !x.uneven) {
        why = HWFIT_SHARD_VIRTUAL_LAYERS;
        goto done;
    }
    if (m->layers % l->pp != 0 && !x.uneven) { why = HWFIT_SHARD_UNEVEN; goto done; }
    /* Sequence and context parallelism split the sequence (Megatron-LM asserts
     * seq_length % tp == 0 with sequence parallelism). */
    if (x.sp && (l->tp == 1 || !x.training)) { why = HWFIT_SHARD_SEQUENCE_PARALLEL; goto done; }
    uint64_t split = (uint64_t)l->cp * (x.sp ? l->tp : 1);
    if (mem->context % split != 0) { why = HWFIT_SHARD_CONTEXT; goto done; }
    x.context_local = mem->context / l->cp;
    /* ZeRO and offload (DeepSpeed: offload_optimizer for stages 1-3, offload_param for 3). */
    if (!x.training && l->zero_stage > 0) { why = HWFIT_SHARD_ZERO_INFERENCE; goto done; }
    if (!x.training && l->offload != 0) { why = HWFIT_SHARD_OFFLOAD_INFERENCE; goto done; }
    if (((l->offload & HWFIT_SHARD_OFFLOAD_OPTIMIZER) && l->zero_stage < 1) ||
        ((l->offload & HWFIT_SHARD_OFFLOAD_PARAMS) && l->zero_stage < 3)) {
        why = HWFIT_SHARD_OFFLOAD_ZERO;
        goto done;
    }
    /* Batches. */
    if (x.training) {
        uint64_t per_step; /* micro_batch x dp */
        if (hwfit__mul_u64(l->micro_batch, l->dp, &per_step) != HWFIT_OK)
            return hwfit__why(why_in, HWFIT_ERANGE, "layout.micro_batch",
                              "times layout.dp overflows 64 bits");
        if (l->global_batch == 0) {
            x.m = l->pp;
            if (hwfit__mul_u64(per_step, l->pp, &x.global) != HWFIT_OK)
                return hwfit__why(why_in, HWFIT_ERANGE, "layout.micro_batch",
                                  "times layout.dp and layout.pp overflows 64 bits");
        } else {
            if (l->global_batch % per_step != 0) { why = HWFIT_SHARD_BATCH; goto done; }
            x.m = l->global_batch / per_step;
            x.global = l->global_batch;
        }
        if (l->virtual_stages > 1 && x.m % l->pp != 0) {
            why = HWFIT_SHARD_VIRTUAL_MICROBATCHES;
            goto done;
        }
        x.batch_local = x.mb;
    } else {
        x.m = 1;
        x.global = 0;
        x.batch_local = hwfit__ceil_div_u64(mem->batch, l->dp);
    }
done:
    if (why == HWFIT_SHARD_VALID && r != NULL) *r = x;
    *reason = why;
    return HWFIT_OK;
}

/* ---- evaluation -------------------------------------------------------------------------- */

static hwfit_status add(uint64_t *acc, uint64_t v) { return hwfit__add_u64(*acc, v, acc); }

/* acc += n * u, field by field (n = 1: an addition). Every field is computed and the
 * overflows gathered, without a branch per field: on HWFIT_ERANGE acc is garbage (its
 * callers drop it). */
static inline hwfit_status unit_mac(hwfit__shard_unit *acc, const hwfit__shard_unit *u,
                                    uint64_t n) {
    int of = 0;
#define UNIT_MAC(f)                                                                          \
    do {                                                                                     \
        uint64_t p = u->f;                                                                   \
        if (n != 1) of |= hwfit__mul_u64(u->f, n, &p) != HWFIT_OK;                           \
        of |= hwfit__add_u64(acc->f, p, &acc->f) != HWFIT_OK;                                \
    } while (0)
    UNIT_MAC(weights);
    UNIT_MAC(params);
    UNIT_MAC(trainable);
    UNIT_MAC(gradients);
    UNIT_MAC(optimizer);
    UNIT_MAC(e_weights);
    UNIT_MAC(e_trainable);
    UNIT_MAC(e_gradients);
    UNIT_MAC(e_optimizer);
    UNIT_MAC(scales);
    UNIT_MAC(e_scales);
    UNIT_MAC(graded);
    UNIT_MAC(e_graded);
#undef UNIT_MAC
    return of ? HWFIT_ERANGE : HWFIT_OK;
}

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* s = n[0] x the dense layer's units + n[1] x the MoE layer's + the tables' (NULL: none),
 * field by field; ERANGE when a field overflows. When (n[0] + n[1] + 1) x the engine's
 * largest unit field fits, no field of the sum can overflow and none is checked; else each
 * is (unit_mac). The same sum either way. */
static hwfit_status unit_sum(const hwfit__shard_engine *e, const uint64_t n[2],
                             const hwfit__shard_unit *tables, hwfit__shard_unit *s) {
    uint64_t count, bound;
    if (hwfit__add_u64(n[0], n[1], &count) == HWFIT_OK &&
        hwfit__add_u64(count, 1, &count) == HWFIT_OK &&
        hwfit__mul_u64(count, e->unit_top, &bound) == HWFIT_OK) {
        if (tables) *s = *tables;
        else memset(s, 0, sizeof *s);
        for (int k = 0; k < 2; k++) {
            if (!n[k]) continue;
            const hwfit__shard_unit *u = &e->layer[k];
            const uint64_t m = n[k];
            s->weights += m * u->weights;
            s->params += m * u->params;
            s->trainable += m * u->trainable;
            s->gradients += m * u->gradients;
            s->optimizer += m * u->optimizer;
            s->e_weights += m * u->e_weights;
            s->e_trainable += m * u->e_trainable;
            s->e_gradients += m * u->e_gradients;
            s->e_optimizer += m * u->e_optimizer;
            s->scales += m * u->scales;
            s->e_scales += m * u->e_scales;
            s->graded += m * u->graded;
            s->e_graded += m * u->e_graded;
        }
        return HWFIT_OK;
    }
    hwfit_status st;
    memset(s, 0, sizeof *s);
    for (int k = 0; k < 2; k++)
        if (n[k] && (st = unit_mac(s, &e->layer[k], n[k])) != HWFIT_OK) return st;
    if (tables && (st = unit_mac(s, tables, 1)) != HWFIT_OK) return st;
    return HWFIT_OK;
}

/* ZeRO's partition of x bytes (or parameters) of which e are the routed experts': the rest
 * over the z data-parallel ranks, the experts over the ez expert-data-parallel ranks (one
 * division when the groups are alike in size). */
static uint64_t partition(uint64_t x, uint64_t e, const hwfit__shard_resolved *r) {
    if (r->z == r->ez) return hwfit__ceil_div_u64(x, r->z);
    return hwfit__ceil_div_u64(x - e, r->z) + hwfit__ceil_div_u64(e, r->ez);
}

/* What ZeRO-3 gathers of a unit of x bytes of which e are the routed experts': the parts
 * partitioned (dense: dp x cp > 1; experts: edp > 1) or offloaded. */
static uint64_t gathered(uint64_t x, uint64_t e, int dense, int experts) {
    return (dense ? x - e : 0) + (experts ? e : 0);
}

/* The weights of unit u an all-gather brings: the packed data, without the quantization
 * scales when they stay replicated on every card (replicated: quant_scales_replicated). */
static uint64_t gathered_weights(const hwfit__shard_unit *u, int replicated, int dense,
                                 int experts) {
    return gathered(u->weights - (replicated ? u->scales : 0),
                    u->e_weights - (replicated ? u->e_scales : 0),
                    dense, experts);
}

/* 1F1B micro-batches in flight on a stage (Narayanan et al. 2021; Megatron-LM
 * schedules.py): pp - stage without interleaving, capped by the micro-batches; with v model
 * chunks, 2 (pp - stage - 1) + (v - 1) pp + 1 chunk-micro-batches, capped by m v. */
static uint64_t in_flight(const hwfit__shard_resolved *r, uint32_t stage) {
    if (!r->training) return 1;
    if (r->v == 1) {
        uint64_t f = (uint64_t)r->pp - stage;
        return f < r->m ? f : r->m;
    }
    uint64_t f = 2 * ((uint64_t)r->pp - stage - 1) + ((uint64_t)r->v - 1) * r->pp + 1;
    uint64_t cap = r->m * r->v; /* m <= 2^64 / mb: fits */
    return f < cap ? f : cap;
}

/* What a card holds apart from its activations in flight: the same for every stage with
 * the same layers and tables, so hwfit__shard_eval computes it once per kind of stage (the
 * first, the middle ones with base or base + 1 layers, the last) instead of once per
 * stage. The key is what it depends on besides the layout and units of one evaluation. */
typedef struct card_fixed {
    uint64_t n[2], sliding; /* key: dense and MoE layers, sliding layers */
    uint32_t layers;        /* key */
    int embedding, head;    /* key */
    int valid;              /* beside the keys: no padding (the stack frames hold this) */
    hwfit_shard_card c;     /* every field but stage, first_layer, in_flight, activation_bytes
                               and total_bytes */
    uint64_t stored, peak, other; /* activations: one micro-batch's layers, the
                                     recomputation peak, the tables' extra */
    uint64_t load_weights;        /* offload_after_load: the weights on the card while the
                                     model loads (0: those of c) */
    uint64_t pass_buffers, pass_grads; /* of c's buffer_bytes and gradient_bytes: what the
                                     pass holds until the step (no_reshard_after_forward's
                                     gathered units, unsharded_grad_bytes' gradients) */
    uint64_t gathered, cached;    /* of c's buffer_bytes: ZeRO-3's gathered window (live
                                     units, the root unit, a unit's unsharded gradient),
                                     freed before the step, and its parameters, whose
                                     blocks the step keeps reserved (memory_internal.h) */
    uint64_t wrap_residue, wrap_copy; /* fsdp_wrap_residue (memory_internal.h; 0: none) */
    uint64_t stranded;            /* built_whole: the whole model's parameter segments, reserved
                                     on the compute stream, never allocated (0: none) */
    uint64_t unit_end;            /* of c's buffer_bytes: fsdp_single_unit's gradients at the
                                     backward's end (0: none) */
} card_fixed;

static hwfit_status card_fixed_of(const hwfit__shard_engine *e, const hwfit_shard_in *in,
                                  const hwfit__shard_resolved *r, card_fixed *f) {
    hwfit_shard_card *c = &f->c;
    const uint64_t *n = f->n;
    memset(c, 0, sizeof *c);
    f->load_weights = 0;
    f->pass_buffers = 0;
    f->pass_grads = 0;
    f->gathered = f->cached = 0;
    f->wrap_residue = f->wrap_copy = 0;
    f->unit_end = 0;
    f->stranded = 0;
    c->layers = f->layers;
    c->embedding = f->embedding;
    c->head = f->head;
    /* Weights, gradients, optimizer states: layers plus the tables. */
    hwfit__shard_unit s;
    hwfit_status st;
    const hwfit__shard_unit *tables = c->embedding && c->head ? &e->both
                                      : c->embedding          ? &e->emb
                                      : c->head               ? &e->head
                                                              : NULL;
    if ((st = unit_sum(e, n, tables, &s)) != HWFIT_OK) return st;
    c->params = s.params;
    c->trainable_params = s.trainable;
    c->shard_weights_bytes = s.weights;
    /* KV cache (inference). */
    if (!r->training) {
        uint64_t kv = 0;
        if (hwfit__mac_u64(&kv, e->kv_layer[0], c->layers - f->sliding) != HWFIT_OK ||
            hwfit__mac_u64(&kv, e->kv_layer[1], f->sliding) != HWFIT_OK ||
            hwfit__mul_u64(e->kv_token, c->layers, &c->kv_bytes_per_token) != HWFIT_OK)
            return HWFIT_ERANGE;
        c->kv_bytes = kv;
    }
    /* Activations of one micro-batch (card() multiplies them by the micro-batches in
     * flight): the layers' stored activations, the recomputation peak, the tables' extra. */
    uint64_t stored = 0, peak = 0, other = 0;
    for (int k = 0; k < 2; k++) {
        if (!n[k]) continue;
        if (hwfit__mac_u64(&stored, e->a.stored[k], n[k]) != HWFIT_OK) return HWFIT_ERANGE;
        peak = max_u64(peak, e->a.peak[k]);
    }
    if (c->embedding) other += e->a.emb;
    if (c->head) other += e->a.head;
    f->stored = stored;
    f->peak = peak;
    f->other = other;
    /* ZeRO (Rajbhandari et al. 2020, section 5): stage 1 partitions optimizer states,
     * stage 2 also gradients, stage 3 also parameters, over the dp x cp ranks; the routed
     * experts' over the expert-data-parallel ranks, edp = tp dp cp / (etp ep), which hold
     * the same experts (Megatron-Core builds a separate optimizer for expert parameters on
     * the expert-data-parallel group; DeepSpeed-MoE, Rajbhandari et al. 2022, and its
     * stage_1_and_2.py partition an MoE parameter group over its expert-data-parallel
     * process group). */
    uint64_t w = s.weights, g = s.gradients, o = s.optimizer, host = 0, buffers = 0;
    if (r->training) {
        if (r->zero >= 1) o = partition(o, s.e_optimizer, r);
        if (r->zero >= 2) g = partition(g, s.e_gradients, r);
        /* quant_scales_replicated: the NF4 scales stay whole on the card, the packed data is
         * partitioned (and offloaded below). */
        const uint64_t sc = in->memory.quant_scales_replicated ? s.scales : 0;
        const uint64_t esc = in->memory.quant_scales_replicated ? s.e_scales : 0;
        if (r->zero >= 3) w = partition(w - sc, s.e_weights - esc, r) + sc;
        /* fsdp_flat_upcast: under ZeRO-3 sharding, FSDP1 holds the upcast fp32 parameters
         * as its flat-parameter shards (_local_shard, fp32 after Accelerate's upcast) and
         * casts a unit's shard to MixedPrecision's param_dtype only for its all-gather:
         * torch/distributed/fsdp/_flat_param.py, FlatParamHandle.pre_unshard ->
         * _use_low_precision_shard allocates _mp_shard, post_unshard ->
         * _free_low_precision_sharded_param frees it. There is no persistent 16-bit
         * partition (zero_master_rule counts DeepSpeed's: 16-bit partition + fp32 master
         * partition), and the reduced gradient shard is cast to the parameter's dtype,
         * fp32 (_runtime_utils.py _post_reduce_grad -> _cast_grad_to_param_dtype). So the
         * card holds 4 bytes of parameter and 4 of gradient per trained element / shard
         * group, the master partition becomes the parameter shard (moved from the
         * optimizer states to the weights), and the units stay gathered in 16 bits. Full
         * fine-tuning (every parameter trained, no scales). FSDP2 holds an fp32 model the
         * same way (torch/distributed/fsdp/_fully_shard/_fsdp_param.py,
         * FSDPParam.all_gather_inputs: sharded_param_data.to(self.param_dtype) only for
         * the all-gather; _fsdp_collectives.py foreach_reduce casts the reduce-scatter
         * output to orig_dtype): torchtitan's fp32 model with MixedPrecisionPolicy
         * (param_dtype bfloat16). */
        if (r->zero >= 3 && in->memory.fsdp_flat_upcast && in->memory.mode == HWFIT_MEMORY_FULL &&
            zero_master_applies(&in->memory)) {
            uint64_t shard32;
            if ((st = hwfit_dtype_bytes(hwfit_dtype_make(HWFIT_DTYPE_FP32),
                                        partition(s.trainable, s.e_trainable, r), &shard32)) !=
                HWFIT_OK)
                return st;
            if (o < shard32) return HWFIT_ERANGE; /* the master partition is in o */
            o -= shard32;
            w = shard32;
            g = shard32;
        }
        /* ZeRO-Offload (Ren et al. 2021; DeepSpeed estimate_zero2/3_model_states_mem_needs):
         * optimizer states, fp32 master weights and fp32 gradients live on the host; the
         * GPU keeps no gradient beyond the reduction bucket. offload_keeps_grads (Megatron-
         * Core's HybridDeviceOptimizer): the host holds a pinned copy of the gradients for
         * its step, and the card keeps its gradient buffer (g as counted above). */
        if (r->offload & HWFIT_SHARD_OFFLOAD_OPTIMIZER) {
            uint64_t grads32;
            /* (the elements with a gradient: grad_covers_frozen's flat gradients) */
            uint64_t trained = r->zero >= 1 ? partition(s.graded, s.e_graded, r) : s.graded;
            if ((st = hwfit_dtype_bytes(hwfit_dtype_make(HWFIT_DTYPE_FP32), trained,
                                        &grads32)) != HWFIT_OK)
                return st;
            if (add(&host, o) != HWFIT_OK || add(&host, grads32) != HWFIT_OK)
                return HWFIT_ERANGE;
            o = 0;
            if (!in->memory.offload_keeps_grads) g = 0;
        }
        if (r->offload & HWFIT_SHARD_OFFLOAD_PARAMS) {
            if (add(&host, w - sc) != HWFIT_OK) return HWFIT_ERANGE;
            /* offload_after_load: the shards reach the host only after loading put them on
             * the card (the gathered unit is added below). */
            if (in->memory.offload_after_load) f->load_weights = w;
            w = sc;
        }
        /* ZeRO-3 gathers whole layers (or tables) before use, from the other ranks or from
         * the host: live units of parameters and one unit of unreduced gradients (DeepSpeed's estimator: 4 bytes x largest
         * layer = fp16 parameters and gradients of one unit). */
        int off_p = (r->offload & HWFIT_SHARD_OFFLOAD_PARAMS) != 0;
        int gd = r->z > 1 || off_p, ge = r->ez > 1 || off_p;
        if (r->zero == 3 && (gd || ge)) {
            uint64_t uw = 0, ug = 0;
            const hwfit__shard_unit *u[4] = {n[0] ? &e->layer[0] : NULL,
                                              n[1] ? &e->layer[1] : NULL,
                                              c->embedding ? &e->emb : NULL,
                                              c->head ? &e->head : NULL};
            /* FSDP's root unit (root_unsharded): the embedding and head, which an auto-wrap
             * policy over decoder layers leaves to the root, stay gathered from their forward
             * through backward (torch FSDP1 _post_forward_reshard frees no root parameters;
             * FSDP2's lazy_init sets the root's post_forward_mesh_info to None): counted
             * whole, beside the live layers. */
            /* The live units are consecutive in the pass: the embedding opens it and the
             * head closes it (and opens backward), so a window of live units holds at most
             * one table and otherwise layers: the largest table and live - 1 layers, or
             * live layers, whichever is larger. */
            const int root = in->memory.root_unsharded && tables != NULL;
            uint64_t ut = 0, ul = 0;
            for (int k = 0; k < 4; k++)
                if (u[k]) {
                    /* what is gathered: the packed data (the replicated scales are there) */
                    uint64_t w_k = gathered_weights(u[k], sc != 0, gd, ge);
                    ul = max_u64(ul, w_k);
                    if (root && k >= 2) continue;
                    if (k < 2) uw = max_u64(uw, w_k);
                    else ut = max_u64(ut, w_k);
                    ug = max_u64(ug, gathered(u[k]->gradients, u[k]->e_gradients, gd, ge));
                }
            if (root) {
                ug = max_u64(ug, gathered(tables->gradients, tables->e_gradients, gd, ge));
                if (add(&buffers, gathered_weights(tables, sc != 0, gd, ge)) != HWFIT_OK)
                    return HWFIT_ERANGE;
            }
            /* offload_after_load: one unit whole beside the shards while the model loads
             * (the tensor broadcast from rank 0 and split; the largest unit bounds it). */
            if (f->load_weights && add(&f->load_weights, ul) != HWFIT_OK)
                return HWFIT_ERANGE;
            uint64_t live = in->zero3_live_layers, with_table = 0;
            if (ut > uw && hwfit__mac_u64(&with_table, uw, live - 1) == HWFIT_OK &&
                add(&with_table, ut) == HWFIT_OK && with_table > 0)
                uw = 0; /* the window with a table is the larger */
            const int single = in->memory.fsdp_single_unit;
            if (in->memory.no_reshard_after_forward || single) {
                /* FSDP2 fully_shard(reshard_after_forward=False): a unit gathered for its
                 * forward is not resharded after it (FSDPParamGroup.reshard returns at
                 * once in the forward state), so from the end of forward every unit of the
                 * card is gathered at once, the tables too (the root unit counted above
                 * is among them: taken back out). torch.distributed.pipelining's stage
                 * backward (backward_maybe_with_nosync) sets set_reshard_after_backward(
                 * False) on an FSDP stage until the last micro-batch, so under pipelining
                 * they stay gathered through every micro-batch; they are resharded by the
                 * last backward's post_backward, before the optimizer step. */
                uint64_t all = gathered(s.weights - sc, s.e_weights - esc, gd, ge);
                if (root) buffers -= gathered_weights(tables, sc != 0, gd, ge);
                uw = 0;
                with_table = all;
                live = 0;
                f->pass_buffers = all;
            }
            if (single) {
                /* fsdp_single_unit: one FlatParameter for the card's whole model, the root,
                 * so gathered from forward through backward (above: FSDP1 frees no root
                 * parameters after forward). Its original parameters are split() views of
                 * the unsharded flat parameter (torch/distributed/fsdp/_flat_param.py,
                 * _use_unsharded_views), so autograd holds each view's gradient until the
                 * last one arrives and SplitBackward concatenates them into the flat
                 * parameter's gradient: the card's whole gradient twice at the backward's
                 * end, then reduce-scattered and freed before the step. Not a layer's
                 * gradient in the window (ug): the backward's end only. */
                uint64_t whole = gathered(s.gradients, s.e_gradients, gd, ge);
                if (hwfit__mul_u64(whole, 2, &f->unit_end) != HWFIT_OK ||
                    add(&buffers, f->unit_end) != HWFIT_OK)
                    return HWFIT_ERANGE;
                ug = 0;
            }
            /* zero3_linear_views_kept: without DeepSpeed's own linear, each mm saves a view of
             * its gathered weight until its backward (hwfit_memory_in::zero3_linear_views_kept),
             * so when the layers are not recomputed the card's layers and head (not the
             * embedding: a lookup saves no weight; tied, the head's matmul keeps it) stay
             * gathered from their forward to their backward, beside the layer re-gathered
             * for its backward: the window when larger. */
            if (in->memory.zero3_linear_views_kept && r->training &&
                r->rc != HWFIT_MEMORY_RECOMPUTE_FULL && !single &&
                !in->memory.no_reshard_after_forward) {
                uint64_t views = gathered(s.weights - sc, s.e_weights - esc, gd, ge), win = 0,
                         out = 0, lay = 0;
                if (c->embedding && !e->model->tie_embeddings)
                    out = gathered_weights(&e->emb, sc != 0, gd, ge);
                if (root) out = gathered_weights(tables, sc != 0, gd, ge); /* counted above */
                views = views > out ? views - out : 0;
                for (int k = 0; k < 2; k++)
                    if (u[k]) lay = max_u64(lay, gathered_weights(u[k], sc != 0, gd, ge));
                if (add(&views, lay) != HWFIT_OK || hwfit__mac_u64(&win, uw, live) != HWFIT_OK ||
                    add(&win, with_table) != HWFIT_OK)
                    return HWFIT_ERANGE;
                if (views > win) {
                    uw = 0;
                    live = 0;
                    with_table = views;
                }
            }
            if (hwfit__mac_u64(&buffers, uw, live) != HWFIT_OK || add(&buffers, with_table) != HWFIT_OK ||
                add(&buffers, ug) != HWFIT_OK)
                return HWFIT_ERANGE;
            if (in->memory.reduce_held_bytes > 0) {
                /* FSDP2's held reduce-scatter input (reduce_held_bytes): FSDPParamGroup.
                 * post_backward (torch/distributed/fsdp/_fully_shard/_fsdp_param_group.py)
                 * keeps foreach_reduce's reduce_scatter_input, allocated in reduce_dtype
                 * (_fsdp_collectives.py: reduce_scatter_comm.allocate((numel,),
                 * dtype=reduce_dtype)) and filled from the unit's unsharded gradients, in
                 * comm_ctx.reduce_scatter_state until the next unit's post_backward waits on
                 * it and drops it: one layer's trained elements (the largest layer's) beside
                 * the next unit's unreduced gradients (ug). The layers only: a unit of
                 * tables reduces at one end of backward (the root's at its end). */
                uint64_t ut_max = 0, held = 0;
                for (int k = 0; k < 2; k++)
                    if (u[k])
                        ut_max = max_u64(ut_max, gathered(u[k]->trainable, u[k]->e_trainable,
                                                          gd, ge));
                if (hwfit__mul_u64(ut_max, in->memory.reduce_held_bytes, &held) != HWFIT_OK ||
                    add(&buffers, held) != HWFIT_OK)
                    return HWFIT_ERANGE;
            }
            /* None of it is allocated in the optimizer's step: every unit is resharded and
             * its unsharded gradient freed by then (torch FSDP1 _post_backward_hook:
             * _post_backward_reshard, then the reduce-scatter; _post_backward_final_callback's
             * _catch_all_reshard for any unit left, the root's included). The step's reserve
             * keeps the blocks (memory.c, hwfit__memory_phases). What the pass holds to the
             * step (pass_buffers) is counted there. */
            f->gathered = buffers - f->pass_buffers - f->unit_end;
            f->cached = f->gathered - ug;
            /* built_whole: the whole model was on the card, one allocation per parameter,
             * before it was sharded (FSDP1 wrapping an on-device model; DeepSpeed ZeRO-3
             * without zero.Init, whose engine moves the module to the device and then
             * partitions each parameter). Each original is freed as its unit is flattened
             * or its partition made, and its segment stays cached on the compute stream;
             * the run's requests larger than one parameter (the units' flat shards and
             * gradients) cannot take those blocks (c10/cuda/CUDACachingAllocator.cpp:
             * get_free_block serves a request from a block at least its size, and segments
             * never merge). So the card's whole unsharded weights stay reserved beside the
             * compute stream's own peak (memory.c, hwfit__memory_phases). */
            if (in->memory.built_whole && r->training)
                f->stranded = gathered(s.weights - sc, s.e_weights - esc, gd, ge);
            /* fsdp_wrap_residue: FSDP1's flat-parameter build on the compute stream
             * (torch/distributed/fsdp/_init_utils.py _init_param_handle_from_module with
             * device_id: the unit's parameters moved or materialized on the device,
             * FlatParamHandle's flatten_tensors copies them into the flat parameter
             * (_flat_param.py, torch.cat), and shard() clones the rank's chunk while
             * managed_params still holds the originals; with parameter offload
             * flat_param_to(cpu) then moves the shard away). The largest unit U (the root's
             * tables when they are one unit: _auto_wrap wraps the children first, so the
             * root is built last, beside the shards already kept) is on the device twice
             * with its shard. The caching allocator keeps those segments cached for the
             * compute stream (released only when a cudaMalloc fails), where FSDP1's
             * all-gather outputs are allocated on its unshard stream and an offloaded
             * shard's host-to-device copy on its pre-unshard stream (_runtime_utils.py
             * _unshard: FlatParamHandle.pre_unshard under pre_unshard_stream,
             * unshard() under unshard_stream), and a block serves only its own stream
             * (c10/cuda/CUDACachingAllocator.cpp get_free_block). The compute stream's residue
             * is the card's weights + 2 U (+ U / z offloaded). A layer unit L built before
             * the root leaves its own 2 L (+ L / z) cached, which the root's requests cannot
             * reuse when each of its tables is larger than L (best fit finds no cached block
             * that large: new segments); otherwise the larger unit's alone counts. With
             * offload the pre-unshard stream keeps one shard copy U / z (memory.c,
             * hwfit__memory_phases, sums the streams). */
            if (in->memory.fsdp_wrap_residue && r->training) {
                /* (fsdp_single_unit: the one unit is the card's whole model) */
                uint64_t big = single ? gathered(s.weights - sc, s.e_weights - esc, gd, ge) : ul,
                         sh, res = w, lay = 0, tmin = 0;
                for (int k = 0; k < 2; k++)
                    if (u[k])
                        lay = max_u64(lay, gathered_weights(u[k], sc != 0, gd, ge));
                if (root) {
                    big = max_u64(big, gathered_weights(tables, sc != 0, gd, ge));
                    for (int k = 2; k < 4; k++)
                        if (u[k]) {
                            uint64_t t = gathered_weights(u[k], sc != 0, gd, ge);
                            tmin = tmin == 0 || t < tmin ? t : tmin;
                        }
                }
                sh = hwfit__ceil_div_u64(big, r->z);
                if (hwfit__mac_u64(&res, big, 2) != HWFIT_OK || (off_p && add(&res, sh) != HWFIT_OK))
                    return HWFIT_ERANGE;
                if (!single && root && lay > 0 && tmin > lay &&
                    (hwfit__mac_u64(&res, lay, 2) != HWFIT_OK ||
                     (off_p && add(&res, hwfit__ceil_div_u64(lay, r->z)) != HWFIT_OK)))
                    return HWFIT_ERANGE;
                f->wrap_residue = res;
                f->wrap_copy = off_p ? sh : 0;
            }
            if (in->memory.unsharded_grad_bytes > 0) {
                /* Gradients kept unsharded across the micro-batches of a step: with
                 * set_requires_gradient_sync(False) (torch.distributed.pipelining's
                 * backward_maybe_with_nosync on an FSDP stage, until the last micro-batch)
                 * FSDPParamGroup.post_backward does not reduce-scatter; each FSDPParam keeps
                 * its unsharded gradient, upcast to MixedPrecisionPolicy's reduce_dtype when
                 * it differs from param_dtype (to_accumulated_grad_if_needed, then
                 * accumulate_unsharded_grad_if_needed adds each micro-batch's), until the
                 * last micro-batch's post_backward reduce-scatters and frees them. FSDP1's
                 * no_sync() the same way: _post_backward_hook (torch/distributed/fsdp/
                 * _runtime_utils.py) reshards the unit's parameters, then returns before
                 * the reduce-scatter while not state._sync_gradients, so flat_param.grad
                 * stays the unsharded gradient, which the next micro-batch's backward adds
                 * to (Lightning Fabric's no_backward_sync is module.no_sync() under its
                 * FSDPStrategy). Every element with a gradient of the card's gathered units
                 * (the trained ones; with grad_covers_frozen the whole flat parameters of
                 * units with one), at unsharded_grad_bytes. */
                uint64_t ug_all = 0;
                if (hwfit__mul_u64(gathered(s.graded, s.e_graded, gd, ge),
                                   in->memory.unsharded_grad_bytes,
                                   &ug_all) != HWFIT_OK ||
                    add(&g, ug_all) != HWFIT_OK)
                    return HWFIT_ERANGE;
                f->pass_grads = ug_all;
            }
        }
    }
    c->weights_bytes = w;
    c->gradient_bytes = g;
    c->optimizer_bytes = o;
    c->host_bytes = host;
    /* Communication buffers: one set of NCCL buffers per communicator (the
     * expert-data-parallel group is one of its own where the expert grid differs from the
     * dense one), the gradient bucket when gradients are reduced across replicas. */
    int edp_group = r->training && r->ez > 1 && (r->ep > 1 || r->etp != r->tp);
    uint64_t groups = (uint64_t)(r->tp > 1) + (uint64_t)(r->pp > 1) + (uint64_t)(r->ep > 1) +
                      (uint64_t)(r->cp > 1) + (uint64_t)(r->training && r->dp > 1) +
                      (uint64_t)edp_group;
    uint64_t group_b = (uint64_t)in->comm_group_bytes; /* checked: integral below 2^60 */
    if (hwfit__mac_u64(&buffers, group_b, groups) != HWFIT_OK) return HWFIT_ERANGE;
    if (r->training && r->zero >= 3 && in->memory.zero_buckets &&
        in->memory.optimizer_in_backward) {
        /* The update runs in backward hooks (LOMO, AdaLomo): deepspeed.initialize gets no
         * optimizer, and at stage 3 the engine wraps a DummyOptim in DeepSpeedZeRoOffload
         * instead of the ZeRO-3 optimizer (runtime/engine.py _configure_zero_optimizer,
         * DeepSpeed 0.9.5 to 0.14), which partitions and gathers the parameters and
         * allocates nothing else: no __ipg_bucket_flat_buffer (built by
         * DeepSpeedZeroOptimizer_Stage3 only), no gradient partitions; the hook reduces
         * each whole .grad in place. (Stages 1-2 build DeepSpeedZeroOptimizer around the
         * DummyOptim: counted as usual.) */
    } else if (r->training && r->zero >= 1 && in->memory.zero_buckets) {
        /* DeepSpeed's ZeRO optimizer copies each gradient into a contiguous buffer of
         * reduce_bucket_size elements as backward produces it (contiguous_gradients, the
         * default), on every rank whatever the data-parallel degree. Stages 1-2
         * (runtime/zero/stage_1_and_2.py, backward): torch.empty(reduce_bucket_size,
         * dtype=self.dtype) at each backward, a second one when overlap_comm is on,
         * released after the reduction epilogue. Stage 3 (stage3.py, __init__): one
         * __ipg_bucket_flat_buffer of reduce_bucket_size elements, held for the run.
         * self.dtype is the trained parameters' dtype, the engine's 16-bit format once
         * _configure_distributed_model casts the module (module.bfloat16() or .half());
         * fp32 without either: the activations' format when 16-bit, fp32 when fp32,
         * bf16 otherwise (as zero_master_rule). */
        hwfit_dtype_id id = in->memory.activations.id;
        if (id != HWFIT_DTYPE_FP32 && id != HWFIT_DTYPE_FP16) id = HWFIT_DTYPE_BF16;
        uint64_t one;
        st = hwfit_dtype_bytes(hwfit_dtype_make(id), (uint64_t)in->reduce_bucket_elements,
                               &one);
        if (st != HWFIT_OK) return st;
        uint64_t count = r->zero <= 2 && in->overlap_comm ? 2 : 1;
        if (hwfit__mac_u64(&buffers, one, count) != HWFIT_OK) return HWFIT_ERANGE;
    } else if (r->training && (r->z > 1 || r->ez > 1)) {
        /* PyTorch DDP (no ZeRO, no DeepSpeed engine, no whole-gradient buffer of the
         * framework's own): the Reducer allocates every bucket's flat gradients tensor when
         * it is built and holds it for the run (torch/csrc/distributed/c10d/reducer.cpp,
         * initialize_buckets: bucket.gradients = at::empty(offset, options), the
         * parameters' dtype), then copies each gradient into it and back after the
         * all-reduce. The buckets cover every parameter that requires a gradient, so they
         * are a second copy of the card's gradient, whatever bucket_cap_mb cuts it into
         * ("the saved memory size will be equal to the total gradients size",
         * DistributedDataParallel's gradient_as_bucket_view, default False; with it the
         * gradients are the buckets: state it as gradient_buffer). Otherwise (ZeRO and
         * FSDP reductions, DeepSpeed's engine) one bucket in flight. */
        int ddp_copy = r->zero == 0 && !in->memory.zero_buckets && !in->memory.gradient_buffer;
        if (add(&buffers, ddp_copy ? g : (uint64_t)in->bucket_bytes) != HWFIT_OK)
            return HWFIT_ERANGE;
    }
    c->buffer_bytes = buffers;
    uint64_t ov = (uint64_t)in->memory.overhead_bytes;
    if ((double)ov < in->memory.overhead_bytes) ov++;
    c->overhead_bytes = ov;
    return HWFIT_OK;
}

/* What differs from stage to stage among cards of the same kind. */
typedef struct card_stage {
    uint32_t first_layer;
    int missed; /* card_of's miss_above: ph holds peak_bytes only, a bound above it */
    uint64_t in_flight, activation_bytes, total_bytes;
    hwfit_memory_out ph; /* the phase fields only */
} card_stage;

/* The decoder layers of pipeline stage `stage` (all its chunks): the first, how many, of
 * which dense and MoE (n) and sliding. Kinds are counted (bitmaps) only where they mix;
 * alike, they follow from the total. */
static void stage_layers(const hwfit__shard_engine *e, const hwfit__shard_resolved *r,
                         uint32_t stage, uint32_t *first_layer, uint32_t *layers_out,
                         uint64_t n[2], uint64_t *sliding_out) {
    uint32_t layers = 0, moe = 0, sliding = 0, total = e->model->layers;
    const int mixed_moe = e->kinds[0] != 0 && e->kinds[1] != 0;
    const int mixed_sliding = e->sliding_first != UINT32_MAX && e->full_first != UINT32_MAX;
    if (!mixed_moe && !mixed_sliding) {
        /* Every layer alike (the hot case): the first chunk's first layer, and the count
         * summed by hwfit__shard_stage_count in a few steps instead of chunk by chunk. */
        uint32_t count;
        hwfit__shard_chunk(r, total, stage, 0, first_layer, &count);
        layers = r->v <= 1 ? count : hwfit__shard_stage_count(r, total, stage);
        moe = e->kinds[1] != 0 ? layers : 0;
        sliding = e->full_first == UINT32_MAX ? layers : 0;
    } else {
        for (uint32_t j = 0; j < r->v; j++) {
            uint32_t first, count;
            hwfit__shard_chunk(r, total, stage, j, &first, &count);
            if (j == 0) *first_layer = first;
            layers += count;
            moe += hwfit__shard_bits_count(e->moe_bits, first, count);
            sliding += hwfit__shard_bits_count(e->sliding_bits, first, count);
        }
    }
    n[1] = moe;
    n[0] = layers - moe;
    *sliding_out = sliding;
    *layers_out = layers;
}

/* A card's memory input: the layout's tensor and sequence parallelism, local context and
 * the card's head (card_extras and card_eval add what each needs). */
static void card_input(const hwfit_shard_in *in, const hwfit__shard_resolved *r, int head,
                       hwfit_memory_in *mi) {
    *mi = in->memory;
    mi->tensor_parallel = r->tp;
    mi->sequence_parallel = r->sp;
    mi->context = r->context_local;
    mi->head = head;
    mi->card_bytes = in->capacity_bytes; /* the card the loss's chunks are sized on */
}

/* hwfit__memory_extras of a card (card_of): the memory input with the layout's tensor and
 * sequence parallelism, local context, micro-batch and recomputation and the card's head.
 * Its own frame: the copy of the input lives here only while an extra is on. */
HWFIT__NOINLINE
static hwfit_status card_extras(const hwfit__shard_engine *e, const hwfit_shard_in *in,
                                const hwfit__shard_resolved *r, int head, const uint64_t n[2],
                                hwfit__phase_parts *ph) {
    hwfit_memory_in mi;
    card_input(in, r, head, &mi);
    mi.micro_batch = r->mb;
    mi.recompute = r->rc; /* the layout's: kv_built counts under full recomputation */
    uint64_t kept = 0;
    hwfit_status st = hwfit__memory_extras(e->model, &e->prep, &mi, (uint32_t)n[0],
                                           (uint32_t)n[1], &ph->dequant, &ph->carried,
                                           &ph->load, &ph->built, &ph->kept, &ph->cast);
    /* The head's copy lives on the card that computes the loss. */
    if (st == HWFIT_OK && head) st = hwfit__memory_head_copy(e->model, &mi, &kept, &ph->head_copy);
    return st;
}

/* hwfit__memory_eval of a card (card_of): the evaluation forward of the card's layers and,
 * on the last stage, the head, with the layout's tensor and expert parallelism and local
 * context. A search meets the same few cards thousands of times, and the allocator's
 * replay is the costliest part of a card: the engine keeps the last card of each head
 * (e->ev). Apart from card_of to keep its frame small (tests/stack). */
HWFIT__NOINLINE
static hwfit_status card_eval(hwfit__shard_engine *e, const hwfit_shard_in *in,
                              const hwfit__shard_resolved *r, int head, const uint64_t n[2],
                              uint64_t *eval, uint64_t *reserve) {
    hwfit__shard_eval_memo *k = &e->ev[head ? 1 : 0];
    uint32_t ep = r->ep ? r->ep : 1;
    if (k->valid && k->tp == r->tp && k->ep == ep && k->sp == r->sp &&
        k->context == r->context_local && k->n[0] == n[0] && k->n[1] == n[1] &&
        k->capacity == in->capacity_bytes) {
        *eval = k->eval;
        *reserve = k->reserve;
        return HWFIT_OK;
    }
    k->valid = 0;
    hwfit_memory_in mi;
    card_input(in, r, head, &mi);
    mi.expert_parallel = ep; /* the card's routed experts and the tokens they receive */
    hwfit__eval_replay_in ri;
    hwfit_status st =
        hwfit__memory_eval(e->model, &e->prep, &mi, (uint32_t)n[0], (uint32_t)n[1], eval, &ri);
    if (st == HWFIT_OK)
        st = hwfit__memory_eval_segments(e->model, &e->prep, &mi, (uint32_t)n[0],
                                         (uint32_t)n[1], &ri, reserve);
    if (st != HWFIT_OK) return st;
    *k = (hwfit__shard_eval_memo){.valid = 1, .sp = r->sp, .tp = r->tp, .ep = ep,
                                  .n = {(uint32_t)n[0], (uint32_t)n[1]},
                                  .context = r->context_local,
                                  .capacity = in->capacity_bytes, .eval = *eval,
                                  .reserve = *reserve};
    return HWFIT_OK;
}

/* The card of a stage: its fixed part in f (recomputed when the stage's layers or tables
 * differ from those of f), the rest in cs. miss_above (UINT64_MAX: never; training only):
 * when a lower bound of the card's peak is above it, cs->missed is set and cs->ph holds
 * that bound as peak_bytes, nothing else (hwfit__shard_fit_or_miss drops the layout: its
 * peak is above too). */
static hwfit_status card_of(hwfit__shard_engine *e, const hwfit_shard_in *in,
                            const hwfit__shard_resolved *r, uint32_t stage,
                            const hwfit__shard_stage_kind *kind, card_fixed *f,
                            card_stage *cs, uint64_t miss_above) {
    const uint64_t *n = kind->n;
    uint64_t sliding = kind->sliding;
    uint32_t first_layer = kind->first_layer, layers = kind->layers;
    int embedding = stage == 0, head = stage + 1 == r->pp;
    if (!f->valid || f->n[0] != n[0] || f->n[1] != n[1] || f->sliding != sliding ||
        f->layers != layers || f->embedding != embedding || f->head != head) {
        f->valid = 0;
        f->n[0] = n[0];
        f->n[1] = n[1];
        f->sliding = sliding;
        f->layers = layers;
        f->embedding = embedding;
        f->head = head;
        hwfit_status st = card_fixed_of(e, in, r, f);
        if (st != HWFIT_OK) return st;
        f->valid = 1;
    }
    cs->first_layer = first_layer;
    /* Activations: what a micro-batch stores, times the micro-batches in flight; the
     * embedding's and head's extra likewise; the recomputation peak once. */
    cs->in_flight = in_flight(r, stage);
    uint64_t act = 0, f_other = r->training ? (r->pp - stage < r->m ? r->pp - stage : r->m) : 1;
    if (r->v == 1) {
        if (hwfit__mul_u64(f->stored, cs->in_flight, &act) != HWFIT_OK) return HWFIT_ERANGE;
    } else {
        /* Chunks hold layers / v each: in-flight chunk-micro-batches x one chunk's share. */
        uint64_t per_chunk = hwfit__ceil_div_u64(f->stored, r->v);
        if (hwfit__mul_u64(per_chunk, cs->in_flight, &act) != HWFIT_OK) return HWFIT_ERANGE;
    }
    uint64_t layers_act = act;
    if (hwfit__mac_u64(&act, f->other, f_other) != HWFIT_OK || add(&act, f->peak) != HWFIT_OK)
        return HWFIT_ERANGE;
    /* The whole attention masks the forward builds once (memory.c, whole_masks): with the
     * activations, held in every training phase (the fixed part below). */
    uint64_t masks = 0;
    if (r->training && in->memory.whole_masks) {
        if (e->model->max_context == 0) return HWFIT_EINVAL; /* memory.c refuses it too */
        const uint64_t pmax = e->model->max_context;
        if (hwfit__mul_u64(pmax, pmax, &masks) != HWFIT_OK ||
            hwfit__mul_u64(masks, hwfit__act_bytes(&in->memory), &masks) != HWFIT_OK ||
            hwfit__mul_u64(masks, in->memory.whole_masks, &masks) != HWFIT_OK ||
            add(&act, masks) != HWFIT_OK)
            return HWFIT_ERANGE;
    }
    cs->activation_bytes = act;
    const hwfit_shard_card *c = &f->c;
    uint64_t total = 0;
    const uint64_t parts[] = {c->weights_bytes,   c->kv_bytes,        act,
                              c->gradient_bytes,  c->optimizer_bytes, c->buffer_bytes,
                              c->overhead_bytes};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (add(&total, parts[i]) != HWFIT_OK) return HWFIT_ERANGE;
    cs->total_bytes = total;

    /* Phases (memory.c, hwfit__memory_phases): the card's fixed part, its stored
     * activations without the loss and the recomputed layer, the loss of the micro-batch
     * at the head, its gradients. */
    /* Every part set here, no memset (a layout evaluates a card per kind of stage); the
     * memory input's choices as a few words, not a copy of the whole input. */
    _Static_assert(sizeof(hwfit__phase_parts) ==
                       offsetof(hwfit__phase_parts, fixed) + 34 * sizeof(uint64_t),
                   "hwfit__phase_parts changed: card_of sets each part below, set the new one");
    hwfit__phase_parts ph;
    ph.training = r->training;
    ph.fixed = c->weights_bytes + c->kv_bytes + c->optimizer_bytes + c->buffer_bytes;
    if (ph.fixed < c->weights_bytes) return HWFIT_ERANGE;
    ph.loss = ph.transient = ph.grads = ph.grad_unit = ph.step_temp = ph.layer = 0;
    ph.dequant = ph.carried = ph.weights = ph.load = ph.built = ph.kept = ph.cast = 0;
    ph.head_grad = ph.loss_head = ph.strand_fwd = ph.strand_bwd = ph.eval = ph.eval_res = 0;
    ph.short_fwd = ph.records = ph.head_copy = ph.warmup = 0;
    /* fsdp_single_unit's gradients (training only): at the backward's end, counted in
     * buffer_bytes */
    ph.fixed -= f->unit_end;
    ph.end_extra = f->unit_end;
    /* transformers' warm-up block (memory.c, load_warmup): a device map puts the whole model
     * on each card only when nothing splits it (no tensor, pipeline or expert split, no
     * ZeRO-3 or parameter offload, which load without a device map). */
    if (r->training && r->tp == 1 && r->pp == 1 && r->ep == 1 && r->zero < 3 &&
        !(r->offload & HWFIT_SHARD_OFFLOAD_PARAMS) &&
        hwfit__memory_warmup(&in->memory, &e->prep.params, e->model->tie_embeddings,
                             in->capacity_bytes, &ph.warmup) != HWFIT_OK)
        return HWFIT_ERANGE;
    /* The dense mask of a flex attention with sinks (memory.c, sink_mask_bytes): once per
     * card, in the forward. */
    if (hwfit__sink_mask(e->model, &in->memory, &ph.mask_build) != HWFIT_OK) return HWFIT_ERANGE;
    ph.pass_grads = r->training ? f->pass_grads : 0;
    /* what the pass holds until the step (counted in buffer_bytes and gradient_bytes) */
    ph.fixed -= f->pass_buffers;
    /* ZeRO-3's gathered window: in forward and backward, not allocated in the step */
    ph.fixed -= f->gathered;
    ph.gathered = r->training ? f->gathered : 0;
    ph.cached = r->training ? f->cached : 0;
    ph.wrap_residue = r->training ? f->wrap_residue : 0;
    ph.wrap_copy = r->training ? f->wrap_copy : 0;
    ph.stranded = r->training ? f->stranded : 0;
    if (!r->training) ph.fixed += f->gathered;
    if (hwfit__add_u64(f->pass_buffers, f->pass_grads, &ph.pass) != HWFIT_OK) return HWFIT_ERANGE;
    if (add(&ph.fixed, masks) != HWFIT_OK) return HWFIT_ERANGE; /* whole_masks: the whole run */
    hwfit__phase_choices ch = hwfit__phase_choices_of(&in->memory);
    uint64_t chunks = 0, chunk_bytes = 0;
    if (r->training) {
        uint64_t loss = c->head ? e->a.loss : 0;
        uint64_t stored = act - f->peak - loss - masks; /* masks: in the fixed part */
        if (in->memory.activation_offload) {
            /* Offloaded: two layers' worth stay on the device (memory.c); the tables'. */
            uint64_t keep = 2 * max_u64(e->a.stored[0], e->a.stored[1]);
            if (layers_act > keep) stored -= layers_act - keep;
        }
        ph.stored = stored;
        ph.loss = loss;
        /* hwfit__memory_phases: peak = reserved + overhead >= the forward phase + overhead
         * >= fixed + stored + loss + pass + gathered + overhead (the forward phase adds the
         * rest, none negative). Above miss_above, the rest is not needed. */
        uint64_t low = ph.fixed;
        cs->missed = 0;
        if (miss_above != UINT64_MAX && add(&low, stored) == HWFIT_OK &&
            add(&low, loss) == HWFIT_OK && add(&low, ph.pass) == HWFIT_OK &&
            add(&low, ph.gathered) == HWFIT_OK &&
            add(&low, c->overhead_bytes) == HWFIT_OK && low > miss_above) {
            cs->missed = 1;
            cs->ph.peak_bytes = low;
            return HWFIT_OK;
        }
        ph.grads = c->gradient_bytes - f->pass_grads;
        uint64_t kept = 0;
        for (int k = 0; k < 2; k++)
            if (f->n[k]) {
                ph.grad_unit = max_u64(ph.grad_unit, e->layer[k].gradients);
                ph.layer = max_u64(ph.layer, e->a.full[k]);
                kept = max_u64(kept, e->a.stored[k]);
            }
        /* The layer being rebuilt in backward: whole (full), its attention core (selective). */
        /* The dequantized weight and the previous micro-batch's graph (memory.c) of the
         * card's layers and tables, on the model as act_units sees it: the memory input
         * with the layout's fields, built only when one of those extras is on. */
        ph.weights = f->load_weights ? f->load_weights : c->weights_bytes;
        if ((!hwfit__memory_extras_off(&in->memory) ||
             (c->head && hwfit__head_copy_on(&in->memory))) &&
            card_extras(e, in, r, c->head, f->n, &ph) != HWFIT_OK)
            return HWFIT_ERANGE;
        /* Without full recomputation f->peak is what backward holds beyond the stored
         * layers (memory.c adds it to the transient and the activations alike: the score
         * gradients of an eager attention, eager_grads; the experts' index gradient). */
        ph.transient = r->rc == HWFIT_MEMORY_RECOMPUTE_FULL ? f->peak
                       : r->rc == HWFIT_MEMORY_RECOMPUTE_SELECTIVE ? ph.layer - kept + f->peak
                                                                   : f->peak;
        if (c->embedding) ph.grad_unit = max_u64(ph.grad_unit, e->emb.gradients);
        if (c->head) ph.grad_unit = max_u64(ph.grad_unit, e->head.gradients);
        /* The head's weight gradient from the backward's start (memory.c, head_grad): with
         * the gradients unsharded (ZeRO below 2; ZeRO-2 and -3 reduce it in a bucket or
         * unit, whose unsharded gradient buffer_bytes counts). */
        if (c->head && r->zero < 2 &&
            (!in->memory.optimizer_in_backward ||
             (c->embedding && e->model->tie_embeddings && !in->memory.untied_head)))
            ph.head_grad = e->head.gradients;
        /* logits_freed: the loss's backward with the head's gradient made (memory.c,
         * loss_head): under ZeRO-3 the unit's unsharded gradient in buffer_bytes holds the
         * running sum, so only the new chunk's is beyond it. */
        if (c->head && in->memory.logits_freed) {
            uint64_t lg = 0;
            if (hwfit__mul_u64((uint64_t)r->context_local * r->mb, e->model->vocab, &lg) !=
                    HWFIT_OK ||
                hwfit__mul_u64(lg, hwfit__act_bytes(&in->memory), &lg) != HWFIT_OK)
                return HWFIT_ERANGE;
            lg = hwfit__ceil_div_u64(lg, r->tp);
            uint64_t k = e->head.gradients;
            ph.loss_head = hwfit__loss_head(in->memory.loss, loss, lg, k, r->zero >= 3 ? 0 : k);
        }
        /* On the card with the head: the logits-sized blocks the loss strands (memory.c,
         * hwfit__strands); Unsloth's chunked fused loss (hwfit__fused_chunks), sized on the
         * card's capacity, allocated before the loss being the card's weights, its stored
         * activations, the loss's kept tensors and what the pass holds; its short
         * micro-batches' whole logits (hwfit__short_forward). */
        if (c->head) {
            const uint64_t ab = hwfit__act_bytes(&in->memory),
                           v = hwfit__ceil_div_u64(e->model->vocab, r->tp);
            uint64_t used = c->weights_bytes, rows = 0, lg = 0;
            if (hwfit__mul_u64((uint64_t)r->context_local, r->mb, &rows) != HWFIT_OK ||
                hwfit__mul_u64(rows, e->model->vocab, &lg) != HWFIT_OK)
                return HWFIT_ERANGE;
            hwfit__strands(&in->memory, hwfit__ceil_div_u64(lg, r->tp), ab, &ph.strand_fwd,
                           &ph.strand_bwd);
            /* the earlier records' segments (memory.c, hwfit__records), this rank's share
             * of each sequence */
            uint64_t bv = 0;
            if (hwfit__mul_u64(r->mb, e->model->vocab, &bv) != HWFIT_OK ||
                hwfit__records(&in->memory, hwfit__ceil_div_u64(bv, r->tp), r->context_local,
                               ab, &ph.records) != HWFIT_OK)
                return HWFIT_ERANGE;
            if (add(&used, ph.stored) != HWFIT_OK || add(&used, ph.loss) != HWFIT_OK ||
                add(&used, ph.pass) != HWFIT_OK || add(&used, ph.gathered) != HWFIT_OK ||
                hwfit__fused_chunks(&in->memory, in->capacity_bytes, used, rows, v,
                                    e->model->hidden, ab, &chunks, &chunk_bytes) != HWFIT_OK ||
                add(&ph.cast, chunk_bytes) != HWFIT_OK ||
                hwfit__short_forward(&in->memory, ph.stored, rows, v, e->model->hidden, ab,
                                     &ph.short_fwd) != HWFIT_OK)
                return HWFIT_ERANGE;
        }
        /* The evaluation forward (memory.c, hwfit__memory_eval) of the card's layers and,
         * on the last stage, the head. */
        if (in->memory.evaluation &&
            card_eval(e, in, r, c->head, f->n, &ph.eval, &ph.eval_res) != HWFIT_OK)
            return HWFIT_ERANGE;
        /* Accumulating over micro-batches keeps the whole gradient through the step. */
        if (r->m > 1) ch.gradient_buffer = 1;
        if (!in->memory.fused_optimizer && in->memory.optimizer == HWFIT_MEMORY_ADAMW &&
            !in->memory.paged_optimizer && !(r->offload & HWFIT_SHARD_OFFLOAD_OPTIMIZER)) {
            double bits = 32.0;
            (void)hwfit_dtype_bits(in->memory.optimizer_states, &bits);
            uint64_t trained = r->zero >= 1 ? hwfit__ceil_div_u64(c->trainable_params, r->z)
                                            : c->trainable_params;
            if (hwfit__mul_u64(trained, (uint64_t)(bits / 8.0), &ph.step_temp) != HWFIT_OK)
                return HWFIT_ERANGE;
        }
        /* grads_upcast_in_step: fp32 copies of the card's 16-bit gradient partition for the
         * step (Megatron-Core's _copy_model_grads_to_main_grads; the distributed optimizer
         * copies its shard, 4 bytes a trained parameter / z). */
        if (hwfit__grads_upcast(&in->memory) && !(r->offload & HWFIT_SHARD_OFFLOAD_OPTIMIZER)) {
            uint64_t trained = r->zero >= 1 ? hwfit__ceil_div_u64(c->trainable_params, r->z)
                                            : c->trainable_params, up = 0;
            if (hwfit__mul_u64(trained, 4u, &up) != HWFIT_OK ||
                hwfit__add_u64(ph.step_temp, up, &ph.step_temp) != HWFIT_OK)
                return HWFIT_ERANGE;
        }
    } else {
        ph.stored = act;
        cs->missed = 0;
    }
    hwfit_status st = hwfit__memory_phases(&ch, &ph, c->overhead_bytes, &cs->ph);
    if (st == HWFIT_OK) hwfit__records_cap(&cs->ph, in->capacity_bytes);
    cs->ph.loss_chunks = chunks;
    cs->ph.loss_chunk_bytes = chunk_bytes;
    return st;
}

/* The decoder layers of stage `stage` as a kind of one stage (count 1). */
static void stage_kind(const hwfit__shard_engine *e, const hwfit__shard_resolved *r,
                       uint32_t stage, hwfit__shard_stage_kind *k) {
    k->stage = stage;
    k->count = 1;
    k->first_layer = 0;
    stage_layers(e, r, stage, &k->first_layer, &k->layers, k->n, &k->sliding);
}

/* card_of() for stage `stage`, its layers counted here. */
static hwfit_status card(hwfit__shard_engine *e, const hwfit_shard_in *in,
                         const hwfit__shard_resolved *r, uint32_t stage, card_fixed *f,
                         card_stage *cs) {
    hwfit__shard_stage_kind k;
    stage_kind(e, r, stage, &k);
    return card_of(e, in, r, stage, &k, f, cs, UINT64_MAX);
}

/* The whole card of a stage from its two parts. */
static void card_fill(const card_fixed *f, uint32_t stage, const card_stage *cs,
                      hwfit_shard_card *c) {
    *c = f->c;
    c->stage = stage;
    c->first_layer = cs->first_layer;
    c->in_flight = cs->in_flight;
    c->activation_bytes = cs->activation_bytes;
    c->total_bytes = cs->total_bytes;
    c->forward_bytes = cs->ph.forward_bytes;
    c->backward_bytes = cs->ph.backward_bytes;
    c->step_bytes = cs->ph.step_bytes;
    c->peak_phase = cs->ph.peak_phase;
    c->allocated_bytes = cs->ph.allocated_bytes;
    c->reserved_bytes = cs->ph.reserved_bytes;
    c->peak_bytes = cs->ph.peak_bytes;
    c->eval_bytes = cs->ph.eval_bytes;
    c->load_bytes = cs->ph.load_bytes;
    c->loss_chunks = cs->ph.loss_chunks;
    c->loss_chunk_bytes = cs->ph.loss_chunk_bytes;
}

static int bad_bytes(double x) { return !hwfit__in_range(x, 0.0, 1152921504606846976.0); }

hwfit_status hwfit__shard_check_in(const hwfit_shard_in *in, hwfit_problem *why) {
    if ((unsigned)in->memory.mode > (unsigned)HWFIT_MEMORY_QLORA)
        return hwfit__why(why, HWFIT_EINVAL, "memory.mode", HWFIT__ENUM);
    if (in->memory.context == 0) return hwfit__why(why, HWFIT_EDOM, "memory.context", AT_LEAST_1);
    if (in->memory.batch == 0) return hwfit__why(why, HWFIT_EDOM, "memory.batch", AT_LEAST_1);
    if (!hwfit__in_range(in->capacity_bytes, 1.0, 1152921504606846976.0))
        return hwfit__why(why, HWFIT_EDOM, "capacity_bytes", "must be in [1, 2^60] bytes");
    if (!hwfit__in_range(in->utilization, 0.0, 1.0) || in->utilization == 0.0)
        return hwfit__why(why, HWFIT_EDOM, "utilization", "must be in (0, 1]");
    const struct { double v; const char *field; } bytes[] = {
        {in->reserve_bytes, "reserve_bytes"}, {in->comm_group_bytes, "comm_group_bytes"},
        {in->bucket_bytes, "bucket_bytes"}, {in->host_memory_bytes, "host_memory_bytes"}};
    for (size_t i = 0; i < sizeof bytes / sizeof bytes[0]; i++)
        if (bad_bytes(bytes[i].v))
            return hwfit__why(why, HWFIT_EDOM, bytes[i].field, "must be in [0, 2^60] bytes");
    if (!hwfit__in_range(in->host_utilization, 0.0, 1.0) || in->host_utilization == 0.0)
        return hwfit__why(why, HWFIT_EDOM, "host_utilization", "must be in (0, 1]");
    if (!hwfit__in_range(in->host_buffer_factor, 1.0, 16.0))
        return hwfit__why(why, HWFIT_EDOM, "host_buffer_factor", "must be in [1, 16]");
    if (in->zero3_live_layers == 0 || in->zero3_live_layers > 64)
        return hwfit__why(why, HWFIT_EDOM, "zero3_live_layers", "must be 1 to 64");
    if (!hwfit__in_range(in->memory.overhead_bytes, 0.0, 9007199254740992.0))
        return hwfit__why(why, HWFIT_EDOM, "memory.overhead_bytes", "must be in [0, 2^53] bytes");
    if (in->comm_group_bytes != (double)(uint64_t)in->comm_group_bytes)
        return hwfit__why(why, HWFIT_EDOM, "comm_group_bytes", "must be a whole number of bytes");
    if (in->bucket_bytes != (double)(uint64_t)in->bucket_bytes)
        return hwfit__why(why, HWFIT_EDOM, "bucket_bytes", "must be a whole number of bytes");
    if (!hwfit__in_range(in->reduce_bucket_elements, 1.0, 1125899906842624.0) ||
        in->reduce_bucket_elements != (double)(uint64_t)in->reduce_bucket_elements)
        return hwfit__why(why, HWFIT_EDOM, "reduce_bucket_elements",
                          "must be a whole number of elements in [1, 2^50]");
    if (in->overlap_comm != 0 && in->overlap_comm != 1)
        return hwfit__why(why, HWFIT_EDOM, "overlap_comm", "must be 0 or 1");
    if (in->memory.zero_buckets != 0 && in->memory.zero_buckets != 1)
        return hwfit__why(why, HWFIT_EDOM, "memory.zero_buckets", "must be 0 or 1");
    if (in->memory.no_reshard_after_forward != 0 && in->memory.no_reshard_after_forward != 1)
        return hwfit__why(why, HWFIT_EDOM, "memory.no_reshard_after_forward", "must be 0 or 1");
    if (in->memory.fsdp_flat_upcast != 0 && in->memory.fsdp_flat_upcast != 1)
        return hwfit__why(why, HWFIT_EDOM, "memory.fsdp_flat_upcast", "must be 0 or 1");
    if (in->memory.offload_keeps_grads != 0 && in->memory.offload_keeps_grads != 1)
        return hwfit__why(why, HWFIT_EDOM, "memory.offload_keeps_grads", "must be 0 or 1");
    if (in->memory.logits_freed != 0 && in->memory.logits_freed != 1)
        return hwfit__why(why, HWFIT_EDOM, "memory.logits_freed", "must be 0 or 1");
    if (!hwfit__grad_bytes_ok(in->memory.unsharded_grad_bytes))
        return hwfit__why(why, HWFIT_EDOM, "memory.unsharded_grad_bytes",
                          HWFIT__GRAD_BYTES_RULE);
    if (!hwfit__grad_bytes_ok(in->memory.reduce_held_bytes))
        return hwfit__why(why, HWFIT_EDOM, "memory.reduce_held_bytes", HWFIT__GRAD_BYTES_RULE);
    if (in->memory.grad_covers_frozen != 0 && in->memory.grad_covers_frozen != 1)
        return hwfit__why(why, HWFIT_EDOM, "memory.grad_covers_frozen", "must be 0 or 1");
    if (in->memory.grad_covers_frozen && in->memory.mode == HWFIT_MEMORY_QLORA)
        return hwfit__why(why, HWFIT_EUNSUPPORTED, "memory.grad_covers_frozen",
                          "not with QLoRA: the elements of a packed quantized base's flat "
                          "parameter are not modelled");
    if (in->memory.mtp)
        return hwfit__why(why, HWFIT_EUNSUPPORTED, "memory.mtp",
                          "must be 0: the shard functions place no multi-token prediction layers");
    return HWFIT_OK;
}

static hwfit_status units(hwfit__shard_engine *e, const hwfit_shard_in *in,
                          const hwfit__shard_resolved *r) {
    hwfit_status st;
    /* the checks here, the fills' frames only when they do not hold (tests/stack) */
    if ((!weights_units_hold(e, in, r) && (st = weights_units_fill(e, in, r)) != HWFIT_OK) ||
        (!r->training && (st = kv_units(e, in, r)) != HWFIT_OK) ||
        (!act_units_hold(e, r) && (st = act_units_fill(e, in, r)) != HWFIT_OK))
        return st;
    return HWFIT_OK;
}

/* hwfit__shard_card once the units are filled. Its card's parts live here, not on the
 * frame that fills the units (weights_units' chain is the deepest, tests/stack). */
HWFIT__NOINLINE
static hwfit_status card_of_stage(hwfit__shard_engine *e, const hwfit_shard_in *in,
                                  const hwfit__shard_resolved *r, uint32_t stage,
                                  hwfit_shard_card *c) {
    card_fixed f;
    card_stage cs;
    f.valid = 0;
    hwfit_status st = card(e, in, r, stage, &f, &cs);
    if (st != HWFIT_OK) return st;
    card_fill(&f, stage, &cs, c);
    return HWFIT_OK;
}

hwfit_status hwfit__shard_card(hwfit__shard_engine *e, const hwfit_shard_in *in,
                               const hwfit__shard_resolved *r, uint32_t stage,
                               hwfit_shard_card *c) {
    hwfit_status st = units(e, in, r);
    if (st != HWFIT_OK) return st;
    return card_of_stage(e, in, r, stage, c);
}

/* What every evaluation starts from: o cleared, the schedule's counts and the card's
 * usable bytes (capacity x utilization - reserve, none when that is negative). */
static void begin(const hwfit_shard_in *in, const hwfit__shard_resolved *r,
                  hwfit_shard_out *o) {
    memset(o, 0, sizeof *o);
    o->micro_batches = r->m;
    o->batch_per_replica = r->batch_local;
    o->stages = r->pp;
    o->capacity_bytes = (uint64_t)in->capacity_bytes;
    double usable = in->capacity_bytes * in->utilization - in->reserve_bytes;
    o->usable_bytes = usable > 0.0 ? (uint64_t)usable : 0;
}

/* What every evaluation ends with, from the largest card and the host bytes: the headroom,
 * the host's offload with its buffer factor, the verdicts and the layout as resolved. A
 * card fits when its peak does (the largest phase with the allocator's reserve and the
 * overhead; for inference the sum of the parts). */
static hwfit_status finish(const hwfit_shard_in *in, const hwfit__shard_resolved *r,
                           uint64_t host, hwfit_shard_out *o) {
    o->headroom_bytes = (double)o->usable_bytes - (double)o->worst.peak_bytes;
    o->gpu_fits = o->worst.peak_bytes <= o->usable_bytes;
    double host_b = (double)host * in->host_buffer_factor;
    if (host_b >= 18446744073709551616.0) return HWFIT_ERANGE;
    o->host_bytes = (uint64_t)host_b;
    if ((double)o->host_bytes < host_b) o->host_bytes++;
    o->host_checked = in->host_memory_given != 0;
    o->host_usable_bytes = (uint64_t)(in->host_memory_bytes * in->host_utilization);
    o->host_fits =
        o->host_bytes == 0 || !o->host_checked || o->host_bytes <= o->host_usable_bytes;
    o->fits = o->gpu_fits && o->host_fits;
    o->layout = in->layout;
    o->layout.etp = r->etp;
    o->layout.global_batch = r->global;
    if (!r->training) o->layout.recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    return HWFIT_OK;
}

/* hwfit__shard_eval once the units are filled: the out and the cards are assembled on this
 * frame, not on the one that fills the units (weights_units' chain is the deepest,
 * tests/stack). out is written only on success. */
HWFIT__NOINLINE
static hwfit_status eval_cards(hwfit__shard_engine *e, const hwfit_shard_in *in,
                               const hwfit__shard_resolved *r, hwfit_shard_out *out,
                               uint32_t stage, hwfit_shard_card *stage_out) {
    hwfit_status st;
    hwfit_shard_out o;
    begin(in, r, &o);
    o.kv_tokens = UINT64_MAX;
    uint64_t host = 0;
    int have_worst = 0;
    card_fixed f; /* reused while consecutive stages hold the same layers and tables */
    f.valid = 0;
    for (uint32_t s = 0; s < r->pp; s++) {
        card_stage c; /* the whole card is assembled only when it is kept */
        if ((st = card(e, in, r, s, &f, &c)) != HWFIT_OK) return st;
        if (stage_out != NULL && s == stage) card_fill(&f, s, &c, stage_out);
        if (!have_worst || c.ph.peak_bytes > o.worst.peak_bytes) {
            card_fill(&f, s, &c, &o.worst);
            o.worst_stage = s;
            have_worst = 1;
        }
        if (hwfit__mac_u64(&o.total_bytes, c.total_bytes, r->ranks) != HWFIT_OK ||
            hwfit__mac_u64(&host, f.c.host_bytes, r->ranks) != HWFIT_OK)
            return HWFIT_ERANGE;
        /* KV tokens: what is left for the cache after everything else (vLLM: available
         * KV memory = total x gpu_memory_utilization - non-KV memory), per token. */
        if (!r->training) {
            uint64_t other = c.total_bytes - f.c.kv_bytes, tokens = 0;
            if (o.usable_bytes > other && f.c.kv_bytes_per_token > 0)
                tokens = (o.usable_bytes - other) / f.c.kv_bytes_per_token;
            if (tokens < o.kv_tokens) o.kv_tokens = tokens;
        }
    }
    if (r->training) o.kv_tokens = 0;
    hwfit_status fst = finish(in, r, host, &o);
    if (fst != HWFIT_OK) return fst;
    *out = o;
    return HWFIT_OK;
}

hwfit_status hwfit__shard_eval(hwfit__shard_engine *e, const hwfit_shard_in *in,
                               const hwfit__shard_resolved *r, hwfit_shard_out *out,
                               uint32_t stage, hwfit_shard_card *stage_out) {
    hwfit_status st = units(e, in, r);
    if (st != HWFIT_OK) return st;
    return eval_cards(e, in, r, out, stage, stage_out);
}

/* The layout search's evaluation (shard_iface.h): hwfit__shard_eval's fit without the
 * stages that cannot hold the largest card. Stages with the same layers and tables share
 * everything but the micro-batches in flight, which never grow from one stage to the next
 * (in_flight, and the tables' share min(pp - stage, m)), and a card's peak does not fall
 * when its activations grow: among such stages the first has the largest peak, and the
 * largest card is the first stage with the largest peak. So only the first stage of each
 * kind is evaluated; the host memory is summed over every stage from its kind.
 * tests/test_perf_plan.c checks it against hwfit__shard_eval over whole spaces. */

static int same_kind(const hwfit__shard_stage_kind *a, const hwfit__shard_stage_kind *b,
                     uint32_t pp) {
    return a->n[0] == b->n[0] && a->n[1] == b->n[1] && a->sliding == b->sliding &&
           a->layers == b->layers && (a->stage == 0) == (b->stage == 0) &&
           (a->stage + 1 == pp) == (b->stage + 1 == pp);
}

/* Add `count` stages from `s` on, all of one kind (that of stage s), to the groups: 0 when
 * there are more kinds than st keeps (st->kinds is then 0). */
static int stages_add(const hwfit__shard_engine *e, const hwfit__shard_resolved *r, uint32_t s,
                      uint32_t count, hwfit__shard_stages *st) {
    hwfit__shard_stage_kind k;
    stage_kind(e, r, s, &k);
    uint32_t i = 0;
    while (i < st->kinds && !same_kind(&st->kind[i], &k, r->pp)) i++;
    if (i < st->kinds) {
        st->kind[i].count += count;
        return 1;
    }
    if (st->kinds == HWFIT__SHARD_STAGE_KINDS) { /* too many kinds to keep */
        st->kinds = 0;
        return 0;
    }
    k.count = count;
    st->kind[st->kinds++] = k;
    return 1;
}

/* Where a stage's kind can change, for a model whose layers are all alike (stage_layers'
 * closed form): the layer count of hwfit__shard_chunk's splits is piecewise constant in the
 * stage. Fills the starts of the runs of stages of one kind, in order (0 first), and returns
 * how many; 0 when the split is not one of those below (every stage is then taken).
 * - One chunk (vLLM's split): base layers, one more on [lo, pp - 2] with lo = pp - 1 - rem.
 * - v chunks dividing the layers: the same count everywhere.
 * - Megatron-Core's uneven interleaved split (hwfit__shard_stage_count): base v units plus
 *   the chunks j in [j_lo, j_hi] with one more; for a stage s <= pp - 2, j_hi = v - 1
 *   (chunks - 2 - s >= (v - 1) pp), and j_lo = ceil((lo - s) / pp) for s < lo, else 0,
 *   which falls by one exactly where lo - s = 1 (mod pp), so the run after it starts at
 *   s = lo mod pp: the only change inside [1, pp - 2].
 * The first and last stages hold the tables: runs of their own. */
static uint32_t stage_runs(const hwfit__shard_resolved *r, uint32_t layers, uint32_t start[4]) {
    uint32_t pp = r->pp, n = 0, cut = 0; /* cut: a change inside [1, pp - 2], 0 for none */
    if (r->v <= 1) {
        uint32_t rem = layers % pp;
        if (rem > 0) cut = pp - 1 - rem;
    } else {
        uint64_t chunks = (uint64_t)pp * r->v, units = (uint64_t)layers + 2;
        if (layers % chunks != 0) {
            if (units / chunks == 0) return 0; /* hwfit__shard_stage_count's chunk loop */
            uint64_t rem = units % chunks;
            if (rem > 0) cut = (uint32_t)((chunks - 1 - rem) % pp);
        }
    }
    start[n++] = 0;
    if (pp > 1) start[n++] = 1;
    if (cut > 1 && cut + 1 < pp) start[n++] = cut;
    if (pp > 2) start[n++] = pp - 1;
    return n;
}

void hwfit__shard_stages_of(const hwfit__shard_engine *e, const hwfit__shard_resolved *r,
                            hwfit__shard_stages *st) {
    st->pp = r->pp;
    st->v = r->v;
    st->kinds = 0;
    /* Layers all alike: a kind per run of stages (stage_runs), a few stage_kind calls
     * instead of pp (tests/test_perf_plan.c compares with the stage by stage grouping). */
    uint32_t start[4], runs = 0;
    if (!(e->kinds[0] != 0 && e->kinds[1] != 0) &&
        !(e->sliding_first != UINT32_MAX && e->full_first != UINT32_MAX))
        runs = stage_runs(r, e->model->layers, start);
    if (runs > 0) {
        for (uint32_t i = 0; i < runs; i++) {
            uint32_t end = i + 1 < runs ? start[i + 1] : r->pp;
            if (!stages_add(e, r, start[i], end - start[i], st)) return;
        }
        return;
    }
    for (uint32_t s = 0; s < r->pp; s++)
        if (!stages_add(e, r, s, 1, st)) return;
}

void hwfit__shard_stages_scan(const hwfit__shard_engine *e, const hwfit__shard_resolved *r,
                              hwfit__shard_stages *st) {
    st->pp = r->pp;
    st->v = r->v;
    st->kinds = 0;
    for (uint32_t s = 0; s < r->pp; s++)
        if (!stages_add(e, r, s, 1, st)) return;
}

/* What the fit of a layout keeps over the kinds of its stages. */
typedef struct fit_acc {
    uint64_t host, best_peak, most; /* most: the largest card total evaluated */
    int have_worst;
} fit_acc;

/* One kind of stage: its first stage's card, the host bytes of its `count` stages.
 * miss_above: card_of's (fit_kinds' stop: the usable bytes). */
static hwfit_status fit_kind(hwfit__shard_engine *e, const hwfit_shard_in *in,
                             const hwfit__shard_resolved *r, const hwfit__shard_stage_kind *k,
                             card_fixed *f, fit_acc *a, hwfit_shard_out *o,
                             uint64_t miss_above) {
    card_stage c;
    hwfit_status st = card_of(e, in, r, k->stage, k, f, &c, miss_above);
    if (st != HWFIT_OK) return st;
    if (c.missed) { /* its peak is above miss_above too: the fit stops (fit_kinds) */
        a->best_peak = c.ph.peak_bytes;
        return HWFIT_OK;
    }
    if (!a->have_worst || c.ph.peak_bytes > a->best_peak) {
        a->best_peak = c.ph.peak_bytes;
        o->worst_stage = k->stage;
        card_fill(f, k->stage, &c, &o->worst);
        a->have_worst = 1;
    }
    /* count x ranks x host, checked: with every term non-negative, a product or partial
     * sum overflows exactly when the sum stage by stage does */
    uint64_t per;
    if (hwfit__mul_u64(f->c.host_bytes, r->ranks, &per) != HWFIT_OK ||
        hwfit__mac_u64(&a->host, per, k->count) != HWFIT_OK)
        return HWFIT_ERANGE;
    a->most = max_u64(a->most, c.total_bytes);
    return HWFIT_OK;
}

/* hwfit__shard_fit_stages in training; *use_eval set when hwfit__shard_eval must decide
 * instead (the caller calls it: this frame is then off the stack, for
 * hwfit_shard_min_gpus). stop (hwfit__shard_fit_or_miss): return at the first card whose
 * peak is above the usable bytes, with out's fits and gpu_fits 0. */
static hwfit_status fit_kinds(hwfit__shard_engine *e, const hwfit_shard_in *in,
                              const hwfit__shard_resolved *r, const hwfit__shard_stages *stages,
                              hwfit_shard_out *out, int *use_eval, int stop) {
    hwfit_status st;
    if ((st = units(e, in, r)) != HWFIT_OK) return st;
    /* Written in place, not through a copy (a layout is evaluated in a few hundred
     * instructions; out is a few hundred bytes): on an error it is left partly written. */
    hwfit_shard_out *o = out;
    begin(in, r, o);
    const uint64_t miss = stop ? o->usable_bytes : UINT64_MAX; /* card_of's miss_above */
    fit_acc a;
    memset(&a, 0, sizeof a);
    card_fixed f;
    f.valid = 0;
    if (stages != NULL && stages->kinds > 0 && stages->pp == r->pp && stages->v == r->v) {
        for (uint32_t i = 0; i < stages->kinds; i++) {
            if ((st = fit_kind(e, in, r, &stages->kind[i], &f, &a, o, miss)) != HWFIT_OK) return st;
            if (stop && a.best_peak > o->usable_bytes) goto missed;
        }
    } else {
        /* More kinds than a hwfit__shard_stages keeps: every stage, as hwfit__shard_eval. */
        for (uint32_t s = 0; s < r->pp; s++) {
            hwfit__shard_stage_kind k;
            stage_kind(e, r, s, &k);
            if ((st = fit_kind(e, in, r, &k, &f, &a, o, miss)) != HWFIT_OK) return st;
            if (stop && a.best_peak > o->usable_bytes) goto missed;
        }
    }
    if (!a.have_worst) return HWFIT_ERANGE; /* no stage: not a valid layout */
    /* hwfit__shard_eval refuses a layout whose cards' total overflows 64 bits: when the
     * largest card times every card might, it decides. */
    uint64_t all;
    if (hwfit__mul_u64(a.most, r->ranks, &all) != HWFIT_OK ||
        hwfit__mul_u64(all, r->pp, &all) != HWFIT_OK) {
        *use_eval = 1;
        return HWFIT_OK;
    }
    o->kv_tokens = 0;
    return finish(in, r, a.host, o);
missed:
    o->gpu_fits = 0;
    o->fits = 0;
    return HWFIT_OK;
}

hwfit_status hwfit__shard_fit_stages(hwfit__shard_engine *e, const hwfit_shard_in *in,
                                     const hwfit__shard_resolved *r,
                                     const hwfit__shard_stages *stages, hwfit_shard_out *out) {
    if (!r->training) return hwfit__shard_eval(e, in, r, out, 0, NULL); /* KV: every stage */
    int use_eval = 0;
    hwfit_status st = fit_kinds(e, in, r, stages, out, &use_eval, 0);
    return use_eval ? hwfit__shard_eval(e, in, r, out, 0, NULL) : st;
}

hwfit_status hwfit__shard_fit_or_miss(hwfit__shard_engine *e, const hwfit_shard_in *in,
                                      const hwfit__shard_resolved *r,
                                      const hwfit__shard_stages *stages, hwfit_shard_out *out) {
    if (!r->training) return hwfit__shard_eval(e, in, r, out, 0, NULL);
    int use_eval = 0;
    hwfit_status st = fit_kinds(e, in, r, stages, out, &use_eval, 1);
    return use_eval ? hwfit__shard_eval(e, in, r, out, 0, NULL) : st;
}

hwfit_status hwfit__shard_fit(hwfit__shard_engine *e, const hwfit_shard_in *in,
                              const hwfit__shard_resolved *r, hwfit_shard_out *out) {
    hwfit__shard_stages stages;
    hwfit__shard_stages_of(e, r, &stages);
    return hwfit__shard_fit_stages(e, in, r, &stages, out);
}

/* ---- public entry points ----------------------------------------------------------------- */

hwfit_status hwfit_shard_check(const hwfit_model *model, const hwfit_shard_in *in,
                               hwfit_shard_reason *reason) {
    if (model == NULL || in == NULL || reason == NULL) return HWFIT_EINVAL;
    hwfit__shard_engine engine, *e = &engine;
    hwfit_status st = hwfit__shard_engine_init(e, model);
    if (st == HWFIT_OK)
        st = hwfit__shard_resolve(model, e->kinds, in, &in->layout, NULL, reason, NULL);
    return st;
}

/* The estimate with an initialised engine (its caches valid for in's workload); every
 * refusal of the inputs is reported through `why` (NULL from the calculations). */
static hwfit_status estimate_with(hwfit__shard_engine *e, const hwfit_shard_in *in,
                                  hwfit_shard_out *out, uint32_t stage,
                                  hwfit_shard_card *card_out, hwfit_problem *why) {
    hwfit__shard_resolved r;
    hwfit_shard_reason reason;
    hwfit_status st =
        hwfit__shard_resolve(e->model, e->kinds, in, &in->layout, &r, &reason, why);
    if (st != HWFIT_OK) return st;
    if ((st = hwfit__shard_check_in(in, why)) != HWFIT_OK) return st;
    if (reason != HWFIT_SHARD_VALID)
        return hwfit__why(why, HWFIT_ELAYOUT, "layout", hwfit_shard_reason_str(reason));
    if (card_out != NULL && stage >= r.pp)
        return hwfit__why(why, HWFIT_EDOM, "stage", "must be below layout.pp");
    return hwfit__shard_eval(e, in, &r, out, stage, card_out);
}

/* estimate_with writes out only on success (hwfit__shard_eval): no copy of it here (this
 * frame is on perf's inference chain, tests/stack). */
hwfit_status hwfit__shard_estimate_engine(hwfit__shard_engine *e, const hwfit_shard_in *in,
                                          hwfit_shard_out *out) {
    return estimate_with(e, in, out, 0, NULL, NULL);
}

static hwfit_status estimate(const hwfit_model *model, const hwfit_shard_in *in,
                             hwfit_shard_out *out, uint32_t stage, hwfit_shard_card *card_out) {
    hwfit__shard_engine engine, *e = &engine; /* a few KB (shard_internal.h) */
    hwfit_status st = hwfit__shard_engine_init(e, model);
    if (st == HWFIT_OK) st = estimate_with(e, in, out, stage, card_out, NULL);
    return st;
}

/* The caller's workspace as an engine, or NULL when it is too small or misaligned. */
static hwfit__shard_engine *workspace_engine(void *workspace, size_t workspace_size) {
    if (workspace == NULL || workspace_size < sizeof(hwfit__shard_engine) ||
        (uintptr_t)workspace % _Alignof(max_align_t) != 0)
        return NULL;
    return workspace;
}

size_t hwfit_shard_workspace_size(void) { return sizeof(hwfit__shard_engine); }

/* The workload inputs the engine's caches depend on beyond their keys: the memory inputs
 * with the fields that the engine sets per card or keys its caches by (context, batch,
 * micro-batch, recomputation, tensor and sequence parallelism, layer range, tables,
 * overhead) blanked. Byte copies, so that padding compares too: a difference there only
 * costs a cache refill. */
static void cache_inputs(const hwfit_shard_in *in, hwfit_memory_in *m) {
    memcpy(m, &in->memory, sizeof *m);
    m->batch = m->context = m->micro_batch = 0;
    m->overhead_bytes = 0.0;
    m->recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    m->tensor_parallel = 0;
    m->sequence_parallel = 0;
    m->first_layer = m->layer_count = 0;
    m->embedding = m->head = m->mtp = 0;
}

hwfit_status hwfit_shard_estimate(const hwfit_model *model, const hwfit_shard_in *in,
                                  hwfit_shard_out *out) {
    if (model == NULL || in == NULL || out == NULL) return HWFIT_EINVAL;
    return estimate(model, in, out, 0, NULL); /* out written only on success */
}

hwfit_status hwfit_shard_estimate_ws(const hwfit_model *model, const hwfit_shard_in *in,
                                     hwfit_shard_out *out, void *workspace,
                                     size_t workspace_size) {
    if (model == NULL || in == NULL || out == NULL) return HWFIT_EINVAL;
    hwfit__shard_engine *e = workspace_engine(workspace, workspace_size);
    if (e == NULL) return HWFIT_EINVAL;
    hwfit_status st = hwfit__shard_engine_init(e, model);
    if (st == HWFIT_OK) st = estimate_with(e, in, out, 0, NULL, NULL); /* out: on success */
    return st;
}

/* ---- a prepared-model cache (hwfit_shard_estimate_cached) -------------------------------- */

#define SHARD_CACHE_MAGIC 0x68776669745f7363ull /* "hwfit_sc" */

/* What a caller's cache holds: the model's content the engine was prepared for (a copy,
 * so that the key is the content, never the caller's pointer), the workload inputs the
 * engine's unit caches were filled for (cache_inputs) and the engine itself. */
typedef struct shard_cache {
    uint64_t magic;          /* SHARD_CACHE_MAGIC once hwfit_shard_cache_init ran */
    int have_model;          /* engine prepared for model */
    int have_inputs;         /* the engine's units hold for inputs */
    hwfit_model model;
    hwfit_memory_in inputs;
    hwfit__shard_engine engine;
} shard_cache;

size_t hwfit_shard_cache_size(void) { return sizeof(shard_cache); }

/* The caller's cache, or NULL when it is too small or misaligned. */
static shard_cache *cache_of(void *cache, size_t cache_size) {
    if (cache == NULL || cache_size < sizeof(shard_cache) ||
        (uintptr_t)cache % _Alignof(max_align_t) != 0)
        return NULL;
    return cache;
}

hwfit_status hwfit_shard_cache_init(void *cache, size_t cache_size) {
    shard_cache *c = cache_of(cache, cache_size);
    if (c == NULL) return HWFIT_EINVAL;
    c->magic = SHARD_CACHE_MAGIC;
    c->have_model = c->have_inputs = 0;
    return HWFIT_OK;
}

hwfit_status hwfit_shard_estimate_cached(const hwfit_model *model, const hwfit_shard_in *in,
                                         hwfit_shard_out *out, void *cache,
                                         size_t cache_size) {
    shard_cache *c = cache_of(cache, cache_size);
    if (model == NULL || in == NULL || out == NULL || c == NULL || c->magic != SHARD_CACHE_MAGIC)
        return HWFIT_EINVAL;
    /* Keyed by the model's bytes: equal bytes are the same model, so a hit is always right;
     * a difference anywhere (even in padding or past `layers`) only prepares it again. */
    if (!c->have_model || memcmp(&c->model, model, sizeof *model) != 0) {
        c->have_model = c->have_inputs = 0;
        memcpy(&c->model, model, sizeof *model);
        hwfit_status st = hwfit__shard_engine_init(&c->engine, &c->model);
        if (st != HWFIT_OK) return st; /* the model is refused: nothing kept */
        c->have_model = 1;
    }
    c->engine.model = &c->model; /* the cache may have been copied to another address */
    hwfit_memory_in next;
    cache_inputs(in, &next);
    if (!c->have_inputs || memcmp(&next, &c->inputs, sizeof next) != 0) {
        hwfit__shard_engine_reset(&c->engine);
        memcpy(&c->inputs, &next, sizeof next);
        c->have_inputs = 1;
    }
    return estimate_with(&c->engine, in, out, 0, NULL, NULL); /* out written on success */
}

/* The activation units of one key (act_units' own key: tp, sp, recomputation,
 * micro-batch, local context and batch), kept in a batch's workspace beside the engine's
 * single entry (hwfit_shard_batch_workspace_size): a sweep that comes back to a context and
 * batch finds them. The values are the engine's, copied as act_units left them, so a hit
 * gives the bits act_units would compute. */
typedef hwfit__shard_act act_entry; /* the engine's hwfit__shard_engine::a, copied whole */

#define ACT_ENTRIES 256 /* direct-mapped by the key's hash: about 28 KB */

/* The workspace of hwfit_shard_estimate_batch_ws that also keeps activation units. */
typedef struct batch_workspace {
    hwfit__shard_engine engine;
    act_entry act[ACT_ENTRIES];
} batch_workspace;

size_t hwfit_shard_batch_workspace_size(void) { return sizeof(batch_workspace); }

static size_t act_slot(uint32_t tp, int sp, hwfit_memory_recompute rc, uint64_t mb,
                       uint64_t context, uint64_t batch) {
    uint64_t h = 1469598103934665603ull; /* FNV-1a over the key's words */
    const uint64_t words[6] = {tp, (uint64_t)sp, (uint64_t)rc, mb, context, batch};
    for (int i = 0; i < 6; i++) h = (h ^ words[i]) * 1099511628211ull;
    return (size_t)((h ^ (h >> 29)) % ACT_ENTRIES);
}

/* Before an estimate: the engine's activation units for in's key from the entries when
 * they hold them (act_units then finds its own entry valid and returns). */
static void act_prime(hwfit__shard_engine *e, const act_entry *act, const hwfit_shard_in *in) {
    hwfit__shard_resolved r;
    hwfit_shard_reason reason;
    if (hwfit__shard_resolve(e->model, e->kinds, in, &in->layout, &r, &reason, NULL) !=
            HWFIT_OK ||
        reason != HWFIT_SHARD_VALID)
        return; /* the estimate refuses it */
    uint64_t batch = r.training ? 0 : r.batch_local;
    if (e->a.valid && e->a.tp == r.tp && e->a.ep == r.ep && e->a.sp == r.sp &&
        e->a.rc == r.rc && e->a.mb == r.mb && e->a.context == r.context_local &&
        e->a.batch == batch)
        return;
    const act_entry *a = &act[act_slot(r.tp, r.sp, r.rc, r.mb, r.context_local, batch)];
    if (!a->valid || a->tp != r.tp || a->ep != r.ep || a->sp != r.sp || a->rc != r.rc ||
        a->mb != r.mb ||
        a->context != r.context_local || a->batch != batch)
        return;
    e->a = *a; /* valid */
}

/* After an estimate: keep the engine's activation units (when valid) in their entry. */
static void act_keep(const hwfit__shard_engine *e, act_entry *act) {
    if (!e->a.valid) return;
    act_entry *a = &act[act_slot(e->a.tp, e->a.sp, e->a.rc, e->a.mb, e->a.context,
                                 e->a.batch)];
    *a = e->a; /* valid */
}

/* hwfit_shard_estimate_batch with an engine (and, when act is not NULL, ACT_ENTRIES
 * activation entries). */
static hwfit_status estimate_batch_with(hwfit__shard_engine *e, act_entry *act,
                                        const hwfit_model *model,
                                        const hwfit_shard_in *ins, size_t n,
                                        hwfit_shard_out *outs, hwfit_status *statuses) {
    /* One engine for the batch: the model is prepared once, and the per-layer units stay
     * cached from one element to the next while the workload they depend on is the same
     * (cache_inputs); they are keyed by the layout, context and batch themselves. */
    hwfit_status model_status = hwfit__shard_engine_init(e, model), first = HWFIT_OK;
    hwfit_memory_in cached, next;
    int have_cached = 0;
    for (size_t i = 0; i < n; i++) {
        hwfit_status st = model_status;
        if (st == HWFIT_OK) {
            cache_inputs(&ins[i], &next);
            if (!have_cached || memcmp(&next, &cached, sizeof next) != 0) {
                hwfit__shard_engine_reset(e);
                for (size_t k = 0; act != NULL && k < ACT_ENTRIES; k++) act[k].valid = 0;
                memcpy(&cached, &next, sizeof cached);
                have_cached = 1;
            }
            if (act != NULL) act_prime(e, act, &ins[i]);
            st = estimate_with(e, &ins[i], &outs[i], 0, NULL, NULL); /* written on success */
            if (act != NULL) act_keep(e, act);
        }
        statuses[i] = st;
        if (first == HWFIT_OK) first = st;
    }
    return first;
}

hwfit_status hwfit_shard_estimate_batch(const hwfit_model *model, const hwfit_shard_in *ins,
                                        size_t n, hwfit_shard_out *outs,
                                        hwfit_status *statuses) {
    if (model == NULL || (n > 0 && (ins == NULL || outs == NULL || statuses == NULL)))
        return HWFIT_EINVAL;
    if (n == 0) return HWFIT_OK;
    hwfit__shard_engine engine, *e = &engine; /* a few KB (shard_internal.h) */
    hwfit_status st = estimate_batch_with(e, NULL, model, ins, n, outs, statuses);
    return st;
}

hwfit_status hwfit_shard_estimate_batch_ws(const hwfit_model *model, const hwfit_shard_in *ins,
                                           size_t n, hwfit_shard_out *outs,
                                           hwfit_status *statuses, void *workspace,
                                           size_t workspace_size) {
    if (model == NULL || (n > 0 && (ins == NULL || outs == NULL || statuses == NULL)))
        return HWFIT_EINVAL;
    hwfit__shard_engine *e = workspace_engine(workspace, workspace_size);
    if (e == NULL) return HWFIT_EINVAL;
    if (n == 0) return HWFIT_OK;
    /* A workspace of hwfit_shard_batch_workspace_size() bytes also keeps activation units. */
    act_entry *act = workspace_size >= sizeof(batch_workspace)
                         ? ((batch_workspace *)workspace)->act : NULL;
    return estimate_batch_with(e, act, model, ins, n, outs, statuses);
}

hwfit_status hwfit_shard_card_at(const hwfit_model *model, const hwfit_shard_in *in,
                                 uint32_t stage, hwfit_shard_card *card_out) {
    if (model == NULL || in == NULL || card_out == NULL) return HWFIT_EINVAL;
    hwfit_shard_out o;
    hwfit_shard_card c;
    hwfit_status st = estimate(model, in, &o, stage, &c);
    if (st == HWFIT_OK) *card_out = c;
    return st;
}

/* ---- enumeration --------------------------------------------------------------------------- */

enum { D_TP, D_EP, D_CP, D_SP, D_RC, D_MB, D_PP, D_V, D_ZERO, D_OFFLOAD, D_COUNT };

/* Smallest divisor of n that is >= from, or 0. */
/* The smallest divisor of n that is >= from, or 0: in O(sqrt(n)) steps, not O(n) (a model
 * with 2^24 experts made the fewest-cards search take a minute). Divisors come in pairs
 * (d, n/d) with d <= sqrt(n): first the small ones from `from` up, then the large ones
 * n/q, smallest first, through their cofactors q <= n/from, largest first. */
static uint64_t divisor_from(uint64_t n, uint64_t from) {
    if (from == 0) from = 1;
    if (n == 0 || from > n) return 0;
    uint64_t d = from;
    for (; d <= n / d; d++)
        if (n % d == 0) return d;
    uint64_t q = n / from;
    if (q > d - 1) q = d - 1; /* q < d: d * d > n, so every cofactor left is below d */
    for (; q >= 1; q--)
        if (n % q == 0) return n / q;
    return 0;
}

/* The smallest divisor of n in [from, cap], or 0: divisor_from's two passes with both
 * stopping at cap (the pipeline's candidates, at most the layers + 2, of a card count up
 * to 2^20 cost at most cap steps instead of the square root of the count). */
static uint64_t divisor_from_upto(uint64_t n, uint64_t from, uint64_t cap) {
    if (from == 0) from = 1;
    if (n == 0 || from > n || from > cap) return 0;
    uint64_t d = from;
    for (; d <= n / d; d++) {
        if (d > cap) return 0;
        if (n % d == 0) return d;
    }
    /* d * d > n: the divisors left are n / q for the cofactors q < d, smallest first; n / q
     * <= cap needs q >= n / cap (rounded up). */
    uint64_t q = n / from, q_min = n / cap + (n % cap != 0);
    if (q > d - 1) q = d - 1;
    for (; q >= q_min && q >= 1; q--)
        if (n % q == 0) return n / q;
    return 0;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b) {
    while (b != 0) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Smallest candidate of dimension d that is >= from, given the outer dimensions; 0 when
 * none is left, else the candidate + 1 (so that 0 can be a candidate value).
 *
 * pruned (hwfit_shard_min_gpus's question "does any layout fit on n cards"): the tensor
 * and pipeline candidates leave out at once the values hwfit__shard_resolve refuses
 * whatever the other dimensions are: tp must divide the attention heads (HWFIT_SHARD_HEADS),
 * so only the divisors of gcd(gpus, heads) are tried, and pp x v chunks may not exceed the
 * layers (+ 2 with interleaving, HWFIT_SHARD_STAGES), so pp stops at layers + 2. The valid
 * layouts come in the same order as without pruning; only `visited` counts fewer (the
 * public iterator, whose `visited` the searches report, never prunes). */
static uint64_t candidate_of(const hwfit_shard_iter *it, int d, uint64_t from, int pruned) {
    const hwfit_shard_space *sp = &it->space;
    const hwfit_model *m = it->model;
    int training = it->in->memory.mode != HWFIT_MEMORY_INFERENCE;
    uint64_t gpus = it->in->gpus;
    const uint64_t *v = it->value;
    uint64_t fixed = 0, lo = 0, hi = 0; /* fixed + 1 when fixed, else the range [lo, hi] */
    switch (d) {
    case D_TP:
        if (sp->tp) fixed = (uint64_t)sp->tp + 1;
        else if (pruned) return (from = divisor_from(gcd_u64(gpus, m->heads), from)) ? from + 1 : 0;
        else return (from = divisor_from(gpus, from)) ? from + 1 : 0;
        break;
    case D_EP:
        if (sp->ep) fixed = (uint64_t)sp->ep + 1;
        else if (m->experts == 0) fixed = 2;
        else {
            /* ep divides the experts and the ranks of a stage (resolve: ranks % ep), which
             * divide the GPUs: only the divisors of gcd(experts, gpus) can be valid. Taking
             * them alone keeps a model with 2^24 experts from enumerating every inner
             * combination for each of its 25 expert counts above the GPUs (a training fit
             * took 68 s, issue 21). */
            return (from = divisor_from(gcd_u64(m->experts, gpus), from)) ? from + 1 : 0;
        }
        break;
    case D_CP:
        if (sp->cp) fixed = (uint64_t)sp->cp + 1;
        else if (gpus % v[D_TP] != 0) return 0;
        else return (from = divisor_from(gpus / v[D_TP], from)) ? from + 1 : 0;
        break;
    case D_SP:
        if (sp->sequence_parallel != HWFIT_SHARD_ANY) fixed = (uint64_t)sp->sequence_parallel + 1;
        else { lo = 0; hi = training && v[D_TP] > 1 ? 1 : 0; }
        break;
    case D_RC:
        if (sp->recompute != HWFIT_SHARD_ANY) fixed = (uint64_t)sp->recompute + 1;
        else { lo = 0; hi = training ? HWFIT_MEMORY_RECOMPUTE_FULL : 0; }
        break;
    case D_MB:
        if (sp->micro_batch) fixed = sp->micro_batch + 1;
        else { lo = 1; hi = training ? sp->max_micro_batch : 1; }
        break;
    case D_PP: {
        if (sp->pp) { fixed = (uint64_t)sp->pp + 1; break; }
        uint64_t tc = v[D_TP] * v[D_CP];
        if (gpus % tc != 0) return 0;
        if (pruned)
            return (from = divisor_from_upto(gpus / tc, from, (uint64_t)m->layers + 2)) ? from + 1
                                                                                    : 0;
        return (from = divisor_from(gpus / tc, from)) ? from + 1 : 0;
    }
    case D_V:
        if (sp->virtual_stages) fixed = (uint64_t)sp->virtual_stages + 1;
        else { lo = 1; hi = training && v[D_PP] > 1 ? sp->max_virtual_stages : 1; }
        break;
    case D_ZERO:
        if (sp->zero_stage != HWFIT_SHARD_ANY) {
            fixed = (uint64_t)sp->zero_stage + 1;
        } else {
            /* ZeRO only matters with more than one data-parallel rank (dp x cp), or more
             * than one expert-data-parallel rank, tp dp cp / (etp ep) (see resolve). */
            uint64_t tcp = v[D_TP] * v[D_CP] * v[D_PP]; /* divides gpus: no overflow */
            uint64_t z = gpus / tcp * v[D_CP], ranks = gpus / v[D_PP], ez = z;
            if (it->kinds[1] > 0) {
                uint64_t etp = sp->etp ? sp->etp : (z % v[D_EP] == 0 ? v[D_TP] : ranks / v[D_EP]);
                uint64_t eg = etp * v[D_EP]; /* both below 2^32 */
                ez = eg > 0 && ranks % eg == 0 ? ranks / eg : 1;
            }
            lo = 0;
            hi = training && (z > 1 || ez > 1) ? 3 : 0;
        }
        break;
    default: /* D_OFFLOAD */
        if (sp->offload != HWFIT_SHARD_ANY) fixed = (uint64_t)sp->offload + 1;
        else { lo = 0; hi = training ? 3 : 0; }
        break;
    }
    if (fixed) return from <= fixed - 1 ? fixed : 0;
    if (from < lo) from = lo;
    return from <= hi ? from + 1 : 0;
}

static void iter_layout(const hwfit_shard_iter *it, hwfit_layout *l) {
    const uint64_t *v = it->value;
    hwfit_layout_init(l);
    l->tp = (uint32_t)v[D_TP];
    l->ep = (uint32_t)v[D_EP];
    l->cp = (uint32_t)v[D_CP];
    l->sequence_parallel = (int)v[D_SP];
    l->recompute = (hwfit_memory_recompute)v[D_RC];
    l->micro_batch = v[D_MB];
    l->pp = (uint32_t)v[D_PP];
    l->virtual_stages = (uint32_t)v[D_V];
    l->zero_stage = (uint32_t)v[D_ZERO];
    l->offload = (unsigned)v[D_OFFLOAD];
    uint64_t tc = 0, tcp = 0; /* 0 when the product overflows: no dp then */
    if (hwfit__mul_u64(v[D_TP], v[D_CP], &tc) != HWFIT_OK ||
        hwfit__mul_u64(tc, v[D_PP], &tcp) != HWFIT_OK)
        tcp = 0;
    l->dp = it->space.dp ? it->space.dp
                         : (tcp > 0 && it->in->gpus % tcp == 0 ? (uint32_t)(it->in->gpus / tcp)
                                                               : 0);
    l->etp = it->space.etp;
    l->global_batch = it->space.global_batch;
    l->uneven_layers = it->space.uneven_layers;
}

hwfit_status hwfit_shard_iter_init(hwfit_shard_iter *iter, const hwfit_model *model,
                                   const hwfit_shard_in *in, const hwfit_shard_space *space) {
    if (iter == NULL || model == NULL || in == NULL || space == NULL) return HWFIT_EINVAL;
    hwfit_status st = hwfit_model_check(model);
    if (st != HWFIT_OK) return st;
    if ((unsigned)in->memory.mode > (unsigned)HWFIT_MEMORY_QLORA) return HWFIT_EINVAL;
    if ((space->sequence_parallel != HWFIT_SHARD_ANY &&
         (space->sequence_parallel < 0 || space->sequence_parallel > 1)) ||
        (space->recompute != HWFIT_SHARD_ANY &&
         (space->recompute < 0 || space->recompute > (int)HWFIT_MEMORY_RECOMPUTE_FULL)) ||
        (space->zero_stage != HWFIT_SHARD_ANY && (space->zero_stage < 0 || space->zero_stage > 3)) ||
        (space->offload != HWFIT_SHARD_ANY && (space->offload < 0 || space->offload > 3)))
        return HWFIT_EINVAL;
    if (in->gpus == 0 || in->gpus > HWFIT_SHARD_MAX_GPUS || space->max_micro_batch == 0 ||
        space->max_virtual_stages == 0 || space->max_virtual_stages > HWFIT_MODEL_MAX_LAYERS)
        return HWFIT_EDOM;
    hwfit_shard_iter it;
    memset(&it, 0, sizeof it);
    it.model = model;
    it.in = in;
    it.space = *space;
    for (uint32_t i = 0; i < model->layers; i++) it.kinds[hwfit__model_layer_is_moe(model, i)]++;
    *iter = it;
    return HWFIT_OK;
}

/* Advance the odometer to the next combination; 0 when exhausted. pruned: see
 * candidate_of. *outer (may be NULL): the outermost dimension whose value changed. */
static inline int iter_step(hwfit_shard_iter *it, int pruned, int *outer) {
    int d, changed = 0;
    if (it->state == 0) {
        d = 0;
    } else {
        for (d = D_COUNT - 1; d >= 0; d--) {
            uint64_t c = candidate_of(it, d, it->value[d] + 1, pruned);
            if (c) { it->value[d] = c - 1; break; }
        }
        if (d < 0) return 0;
        changed = d;
        d++;
    }
    /* Reset the inner dimensions to their first candidates; backtrack when one has none. */
    while (d < D_COUNT) {
        uint64_t c = candidate_of(it, d, 0, pruned);
        if (c) { it->value[d] = c - 1; d++; continue; }
        /* No candidate: advance an outer dimension. */
        for (d = d - 1; d >= 0; d--) {
            uint64_t n = candidate_of(it, d, it->value[d] + 1, pruned);
            if (n) { it->value[d] = n - 1; break; }
        }
        if (d < 0) return 0;
        if (outer != NULL && d < changed) changed = d;
        d++;
    }
    it->visited++;
    if (outer != NULL) *outer = changed;
    return 1;
}

/* Whether a combination that differs from a valid resolved layout r only in the ZeRO stage
 * and the offload is valid: hwfit__shard_resolve's checks of those two (the others read
 * neither, and held for r), r updated to them when it is. */
static int zero_offload_valid(uint32_t zero_stage, unsigned offload,
                              hwfit__shard_resolved *r) {
    if (zero_stage > 3 ||
        (offload & ~(HWFIT_SHARD_OFFLOAD_OPTIMIZER | HWFIT_SHARD_OFFLOAD_PARAMS)) != 0)
        return 0;
    if (!r->training && (zero_stage > 0 || offload != 0)) return 0;
    if (((offload & HWFIT_SHARD_OFFLOAD_OPTIMIZER) && zero_stage < 1) ||
        ((offload & HWFIT_SHARD_OFFLOAD_PARAMS) && zero_stage < 3))
        return 0;
    r->zero = zero_stage;
    r->offload = offload;
    return 1;
}

/* The next valid combination, resolved; 0 at the end. pruned: see candidate_of. chain (may
 * be NULL): the caller's mark that layout and r hold the last valid combination and its
 * resolution and that no combination since changed a dimension outside ZeRO and offload; a
 * combination that changes only those two is then checked on them alone. */
static int iter_next(hwfit_shard_iter *it, hwfit_layout *layout, hwfit__shard_resolved *r,
                     int pruned, int *chain) {
    if (it->state == 2) return 0;
    for (;;) {
        int outer = 0;
        if (!iter_step(it, pruned, chain != NULL ? &outer : NULL)) {
            it->state = 2;
            return 0;
        }
        it->state = 1;
        if (chain != NULL && *chain && outer >= D_ZERO) {
            /* *layout is the last valid one's: only these two differ (set in place) */
            const uint32_t zero = (uint32_t)it->value[D_ZERO];
            const unsigned offload = (unsigned)it->value[D_OFFLOAD];
            if (!zero_offload_valid(zero, offload, r)) continue;
            layout->zero_stage = zero;
            layout->offload = offload;
            return 1;
        }
        hwfit_layout l;
        iter_layout(it, &l);
        if (chain != NULL) *chain = 0;
        if (l.dp == 0) continue;
        hwfit_shard_reason why;
        if (hwfit__shard_resolve(it->model, it->kinds, it->in, &l, r, &why, NULL) != HWFIT_OK)
            continue;
        if (why != HWFIT_SHARD_VALID) continue;
        if (chain != NULL) *chain = 1;
        *layout = l;
        return 1;
    }
}

int hwfit__shard_iter_next(hwfit_shard_iter *it, hwfit_layout *layout,
                           hwfit__shard_resolved *r) {
    return iter_next(it, layout, r, 0, NULL);
}

int hwfit__shard_iter_next_pruned(hwfit_shard_iter *it, hwfit_layout *layout,
                                  hwfit__shard_resolved *r) {
    return iter_next(it, layout, r, 1, NULL);
}

int hwfit__shard_iter_next_chained(hwfit_shard_iter *it, hwfit_layout *layout,
                                   hwfit__shard_resolved *r, int *chain) {
    return iter_next(it, layout, r, 1, chain);
}

int hwfit_shard_iter_next(hwfit_shard_iter *iter, hwfit_layout *layout) {
    if (iter == NULL || layout == NULL || iter->model == NULL || iter->in == NULL) return 0;
    hwfit__shard_resolved r;
    hwfit_layout l;
    if (!hwfit__shard_iter_next(iter, &l, &r)) return 0;
    l.etp = r.etp;
    l.global_batch = r.global;
    *layout = l;
    return 1;
}

/* ---- search -------------------------------------------------------------------------------- */

/* Insert r into results[0..*count) kept sorted by score, best first (stable). */
static void keep_best(hwfit_shard_result *results, size_t capacity, size_t *count,
                      const hwfit_shard_result *r) {
    if (capacity == 0) return;
    size_t n = *count;
    if (n == capacity && !(r->score > results[n - 1].score)) return;
    size_t i = n < capacity ? n : capacity - 1;
    while (i > 0 && r->score > results[i - 1].score) {
        results[i] = results[i - 1];
        i--;
    }
    results[i] = *r;
    if (n < capacity) *count = n + 1;
}

void hwfit__shard_result(const hwfit_shard_out *o, hwfit_shard_result *res) {
    /* Zeroed first: its padding is then the same bytes on every thread and every call
     * (tests/threads compares results byte for byte; under ASan the stack's leftovers
     * differed between threads). */
    memset(res, 0, sizeof *res);
    res->layout = o->layout;
    res->worst_stage = o->worst_stage;
    res->per_gpu_bytes = o->worst.peak_bytes;
    res->headroom_bytes = o->headroom_bytes;
    res->host_bytes = o->host_bytes;
    res->kv_tokens = o->kv_tokens;
    res->fits = o->fits;
    if (o->fits) {
        res->score = o->headroom_bytes;
    } else {
        double host_short = o->host_fits ? 0.0
                                         : (double)o->host_bytes - (double)o->host_usable_bytes;
        double gpu_short = o->gpu_fits ? 0.0 : -o->headroom_bytes;
        res->score = -(host_short + gpu_short);
    }
}

/* e: the engine to use (initialised here). */
static hwfit_status search(hwfit__shard_engine *e, const hwfit_model *model,
                           const hwfit_shard_in *in, const hwfit_shard_space *space,
                           hwfit_shard_result *results, size_t capacity,
                           hwfit_shard_search_out *summary) {
    hwfit_status st = hwfit__shard_check_in(in, NULL);
    if (st != HWFIT_OK) return st;
    if ((st = hwfit__shard_engine_init(e, model)) != HWFIT_OK) return st;
    hwfit_shard_iter it;
    if ((st = hwfit_shard_iter_init(&it, model, in, space)) != HWFIT_OK) return st;
    hwfit_shard_in x = *in;
    hwfit_shard_search_out sum;
    memset(&sum, 0, sizeof sum);
    hwfit__shard_resolved r;
    while (hwfit__shard_iter_next(&it, &x.layout, &r)) {
        sum.valid++;
        hwfit_shard_out o;
        if ((st = hwfit__shard_eval(e, &x, &r, &o, 0, NULL)) != HWFIT_OK) {
            if (st == HWFIT_ERANGE) continue; /* too large to count: does not fit */
            return st;
        }
        if (o.fits) sum.fitting++;
        else if (!space->include_unfit) continue;
        hwfit_shard_result res;
        hwfit__shard_result(&o, &res);
        keep_best(results, capacity, &sum.count, &res);
    }
    sum.visited = it.visited;
    *summary = sum;
    return HWFIT_OK;
}

hwfit_status hwfit_shard_search(const hwfit_model *model, const hwfit_shard_in *in,
                                const hwfit_shard_space *space, hwfit_shard_result *results,
                                size_t capacity, hwfit_shard_search_out *summary) {
    if (model == NULL || in == NULL || space == NULL || summary == NULL ||
        (results == NULL && capacity > 0))
        return HWFIT_EINVAL;
    hwfit__shard_engine engine; /* a few KB (shard_internal.h) */
    return search(&engine, model, in, space, results, capacity, summary);
}

hwfit_status hwfit__shard_search_at(hwfit__shard_engine *e, const hwfit_model *model,
                                    const hwfit_shard_in *in, const hwfit_shard_space *space,
                                    hwfit_shard_result *results, size_t capacity,
                                    hwfit_shard_search_out *summary) {
    if (model == NULL || in == NULL || space == NULL || summary == NULL ||
        (results == NULL && capacity > 0))
        return HWFIT_EINVAL;
    return search(e, model, in, space, results, capacity, summary);
}

/* The fewest cards that could hold the model at all: under any layout every byte of the
 * weights sits on some card (tensor, pipeline and expert parallelism split them, data
 * parallelism copies them, ZeRO shards them), and so do the gradients and optimizer states
 * unless they may go to host memory. n cards hold at most n x usable bytes, so fewer than
 * (those bytes) / usable cards never fit, whatever the layout: the fewest-cards search
 * starts there instead of trying each count from 1 (a model that fits nowhere made it
 * search every count up to max_gpus, issue 21). A 10 % margin covers the rounding of a
 * split (a layer's parts rounded per card); 1 when nothing is known. */
static uint32_t fewest_possible(const hwfit_model *model, const hwfit_shard_in *in,
                                const hwfit_shard_space *space) {
    hwfit_memory_out whole;
    int training = in->memory.mode != HWFIT_MEMORY_INFERENCE;
    unsigned may = space->offload == HWFIT_SHARD_ANY ? 3u : (unsigned)space->offload;
    double must = 0.0;
    /* The bound of the workload as given and, when ZeRO may turn trained_fp32 into master
     * weights (zero_master_rule), of that one: the smaller, so that it stays a bound. */
    hwfit_memory_in ruled = in->memory;
    const int rules = space->zero_stage != 0 && zero_master_rule(&ruled);
    for (int k = 0; k <= rules; k++) {
        if (hwfit_memory_estimate(model, k ? &ruled : &in->memory, &whole) != HWFIT_OK) return 1;
        double m = 0.0;
        if (!training || (may & HWFIT_SHARD_OFFLOAD_PARAMS) == 0) m += (double)whole.weights_bytes;
        if (training && (may & HWFIT_SHARD_OFFLOAD_OPTIMIZER) == 0)
            m += (double)whole.gradient_bytes + (double)whole.optimizer_bytes;
        if (k == 0 || m < must) must = m;
    }
    double usable = in->capacity_bytes * in->utilization - in->reserve_bytes;
    if (!(usable > 0.0) || !(must > 0.0)) return 1;
    double n = 0.9 * must / usable;
    if (!(n >= 1.0)) return 1;
    return n >= (double)HWFIT_SHARD_MAX_GPUS ? HWFIT_SHARD_MAX_GPUS : (uint32_t)n;
}

/* The fewest cards on which the weights the cards must hold leave room, by the shape of
 * the layout (issue 21: a model with 2^24 experts fits first on 114,688 cards, and the
 * counts below it were searched one by one, 26,000 of them). It applies when a card keeps
 * its stage's weights whole: inference, or training with the ZeRO stage fixed below 3 and
 * no parameter offload (card_fixed_of: weights_bytes is then the stage's sum of units). A
 * layout (tp, ep, etp, pp, cp, dp) on n = tp pp cp dp cards:
 * - has a stage with at least ceil(layers / pp) layers (the stages hold every layer), each
 *   of at least the smallest per-layer weights of the rank model (tp, ep, etp), so its
 *   card's peak is at least that many layers' weights plus the overhead
 *   (hwfit__memory_phases: peak = reserved + overhead >= the forward phase >= fixed >=
 *   weights);
 * - needs tp | heads, ep | experts, etp | the expert width and ep etp | tp dp cp, the ranks
 *   of a stage (hwfit__shard_resolve), so n >= pp lcm(tp, ep etp).
 * So no layout fits on fewer than the smallest pp lcm(tp, ep etp) over the shapes whose
 * floor fits, and the search starts there. Per (tp, ep, etp) the smallest pp that fits
 * gives the smallest count (larger pp: more cards). A shape whose weights cannot be
 * computed counts as fitting (the bound only moves down). Returns max_gpus + 1 when no
 * shape fits on max_gpus cards or fewer, 1 when the bound does not apply. */
#define SHAPE_BUDGET 4096

static uint64_t fewest_by_shape(hwfit__shard_engine *e, const hwfit_shard_in *in,
                                const hwfit_shard_space *space, uint32_t max_gpus) {
    const hwfit_model *m = e->model;
    int training = in->memory.mode != HWFIT_MEMORY_INFERENCE;
    if (training && (space->zero_stage == HWFIT_SHARD_ANY || space->zero_stage >= 3 ||
                     space->offload == HWFIT_SHARD_ANY ||
                     ((unsigned)space->offload & HWFIT_SHARD_OFFLOAD_PARAMS) != 0))
        return 1;
    double usable_d = in->capacity_bytes * in->utilization - in->reserve_bytes;
    uint64_t usable = usable_d > 0.0 ? (uint64_t)usable_d : 0; /* as begin() */
    uint64_t overhead = (uint64_t)in->memory.overhead_bytes;
    if ((double)overhead < in->memory.overhead_bytes) overhead++;
    if (overhead > usable) return (uint64_t)max_gpus + 1;
    uint64_t room = usable - overhead;
    const int moe = e->kinds[1] > 0; /* resolve's expert rules apply */
    const uint64_t layers = m->layers, cp = space->cp ? space->cp : 1;
    uint64_t best = (uint64_t)max_gpus + 1;
    /* Shapes looked at, at most SHAPE_BUDGET (each a divisor step and perhaps a weights
     * call): a model whose heads, experts and expert width all have hundreds of divisors
     * would make millions; then the bound gives up (1: the scan starts where
     * fewest_possible says, as it did before this bound). */
    uint32_t budget = SHAPE_BUDGET;
    /* tp: the divisors of the heads (or the fixed value); ep: of the experts; etp: of the
     * expert width (dense models: ep 1, etp unused). lcm(tp cp, ep etp) is a multiple of
     * tp cp, of lcm(tp cp, ep) and of ep etp: a shape is left out as soon as one of them
     * reaches the best count so far. */
    for (uint64_t tp = space->tp ? space->tp : 1; tp != 0 && tp * cp < best;
         tp = space->tp ? 0 : divisor_from_upto(m->heads, tp + 1, max_gpus)) {
        if (m->heads % tp != 0) continue;
        uint64_t ep0 = space->ep ? space->ep : 1;
        for (uint64_t ep = ep0; ep != 0 && ep < best;
             ep = space->ep || !moe ? 0 : divisor_from_upto(m->experts, ep + 1, max_gpus)) {
            if (ep > 1 && (!moe || m->experts % ep != 0)) break; /* invalid: nothing fits */
            uint64_t a = tp * cp;
            if (a / gcd_u64(a, ep) * ep >= best) continue;
            uint64_t etp0 = !moe ? tp : space->etp ? space->etp : 1;
            for (uint64_t etp = etp0; etp != 0 && ep * etp < best;
                 etp = !moe || space->etp ? 0
                                          : divisor_from_upto(m->expert_intermediate, etp + 1,
                                                              max_gpus)) {
                if (budget-- == 0) return 1;
                /* n >= pp lcm(tp cp, ep etp) >= lcm(tp cp, ep etp); lcm <= 2^40 */
                uint64_t b = ep * etp, l = a / gcd_u64(a, b) * b;
                if (l >= best) continue;
                hwfit__shard_resolved r;
                memset(&r, 0, sizeof r);
                r.zero = training ? (uint32_t)space->zero_stage : 0; /* fixed below 3 here */
                r.tp = (uint32_t)tp;
                r.ep = (uint32_t)ep;
                r.etp = (uint32_t)etp;
                uint64_t lw = 0; /* the smallest layer's weights; 0 when unknown */
                if (weights_units_hold(e, in, &r) || weights_units_fill(e, in, &r) == HWFIT_OK) {
                    lw = UINT64_MAX;
                    for (int k = 0; k < 2; k++)
                        if (e->kinds[k] > 0 && e->layer[k].weights < lw) lw = e->layer[k].weights;
                }
                /* The smallest pp whose fullest stage leaves room: ceil(layers / pp) lw <=
                 * room. */
                uint64_t per = lw == 0 ? layers : room / lw; /* layers a card can hold */
                if (per == 0) continue;
                uint64_t pp = (layers + per - 1) / per;
                if (space->pp) {
                    if (space->pp < pp) continue;
                    pp = space->pp;
                }
                if (pp > layers + 2) continue;
                if (pp * l < best) best = pp * l;
            }
        }
    }
    return best;
}

/* Whether some layout of space fits on x->gpus cards (x->layout is overwritten): the same
 * valid layouts as the search (pruned: see candidate_of), evaluated by hwfit__shard_fit
 * (the largest card as hwfit__shard_eval finds it) until one fits. Errors are those of the
 * search at that count: every evaluation error but HWFIT_ERANGE ("does not fit") comes
 * from units(), which runs first, so after the first layout that fits (or on every layout
 * when units_only: the caller's bounds say none fits) units() alone runs on the rest. */
static hwfit_status fits_on(hwfit__shard_engine *e, hwfit_shard_in *x,
                            const hwfit_shard_space *space, int units_only, int *found) {
    *found = 0;
    hwfit_shard_iter it;
    hwfit_status st = hwfit_shard_iter_init(&it, e->model, x, space);
    if (st != HWFIT_OK) return st;
    hwfit__shard_resolved r;
    hwfit__shard_stages stages; /* of the last pp and v (hwfit__shard_stages_of) */
    stages.pp = 0;
    while (iter_next(&it, &x->layout, &r, 1, NULL)) {
        if (units_only || *found) {
            st = units(e, x, &r);
            if (st != HWFIT_OK && st != HWFIT_ERANGE) return st;
            /* units() reads no degree below pp (virtual stages, ZeRO, offload: the
             * odometer's last three): the rest of this block gives the same answer, so the
             * odometer moves on to the next pp. */
            it.value[D_V] = it.value[D_ZERO] = it.value[D_OFFLOAD] = UINT64_MAX - 1;
            continue;
        }
        hwfit_shard_out o;
        /* hwfit__shard_fit, with hwfit__shard_eval called from here (inference: every
         * stage; or when fit_kinds leaves it the decision): one frame less on the stack
         * (hwfit_assess calls this, tests/stack). Only whether it fits is asked: the fit
         * stops at the first card that does not (hwfit__shard_fit_or_miss). */
        int use_eval = !r.training;
        if (!use_eval && (stages.pp != r.pp || stages.v != r.v))
            hwfit__shard_stages_of(e, &r, &stages);
        st = use_eval ? HWFIT_OK : fit_kinds(e, x, &r, &stages, &o, &use_eval, 1);
        if (use_eval) st = hwfit__shard_eval(e, x, &r, &o, 0, NULL);
        if (st == HWFIT_ERANGE) continue; /* too large to count: does not fit */
        if (st != HWFIT_OK) return st;
        if (o.fits) *found = 1;
    }
    return HWFIT_OK;
}

hwfit_status hwfit_shard_min_gpus(const hwfit_model *model, const hwfit_shard_in *in,
                                  const hwfit_shard_space *space, uint32_t max_gpus,
                                  uint32_t *gpus, hwfit_layout *layout) {
    hwfit__shard_engine engine; /* a few KB (shard_internal.h) */
    return hwfit__shard_min_gpus_at(&engine, model, in, space, max_gpus, gpus, layout);
}

hwfit_status hwfit__shard_min_gpus_at(hwfit__shard_engine *e, const hwfit_model *model,
                                      const hwfit_shard_in *in, const hwfit_shard_space *space,
                                      uint32_t max_gpus, uint32_t *gpus, hwfit_layout *layout) {
    if (model == NULL || in == NULL || space == NULL || gpus == NULL) return HWFIT_EINVAL;
    if (max_gpus == 0 || max_gpus > HWFIT_SHARD_MAX_GPUS) return HWFIT_EDOM;
    hwfit_shard_in x = *in;
    /* The search's checks, in its order (every count gives the same answer to them). */
    hwfit_status st = hwfit__shard_check_in(in, NULL);
    if (st != HWFIT_OK) return st;
    if ((st = hwfit__shard_engine_init(e, model)) != HWFIT_OK) return st;
    /* No count below both bounds can fit (fewest_possible, fewest_by_shape). */
    uint64_t first = fewest_possible(model, in, space), by_shape = fewest_by_shape(e, in, space,
                                                                                  max_gpus);
    if (by_shape > first) first = by_shape;
    uint32_t found = 0;
    int fits = 0;
    if (first > max_gpus) {
        /* None fits: max_gpus is still looked at once, so that a bad input is refused as
         * the search there refuses it. */
        x.gpus = max_gpus;
        if ((st = fits_on(e, &x, space, 1, &fits)) != HWFIT_OK) return st;
    }
    for (uint64_t n = first; n <= max_gpus && !fits; n++) {
        x.gpus = (uint32_t)n;
        if ((st = fits_on(e, &x, space, 0, &fits)) != HWFIT_OK) return st;
        if (fits) found = (uint32_t)n;
    }
    if (found != 0 && layout != NULL) {
        /* The whole search at that count for its best layout. */
        hwfit_shard_result best;
        hwfit_shard_search_out sum;
        x.gpus = found;
        if ((st = search(e, model, &x, space, &best, 1, &sum)) != HWFIT_OK) return st;
        *layout = best.layout;
    }
    *gpus = found;
    return HWFIT_OK;
}

/* hwfit_shard_min_gpus as it was before its bounds (tests: the same answers): the search
 * at every count from fewest_possible up. */
hwfit_status hwfit__shard_min_gpus_scan(const hwfit_model *model, const hwfit_shard_in *in,
                                        const hwfit_shard_space *space, uint32_t max_gpus,
                                        uint32_t *gpus, hwfit_layout *layout) {
    if (model == NULL || in == NULL || space == NULL || gpus == NULL) return HWFIT_EINVAL;
    if (max_gpus == 0 || max_gpus > HWFIT_SHARD_MAX_GPUS) return HWFIT_EDOM;
    hwfit__shard_engine engine, *e = &engine;
    hwfit_shard_in x = *in;
    hwfit_status st = HWFIT_OK;
    uint32_t found = 0;
    uint32_t first = fewest_possible(model, in, space);
    if (first > max_gpus) first = max_gpus;
    for (uint32_t n = first; n <= max_gpus && found == 0; n++) {
        x.gpus = n;
        hwfit_shard_result best;
        hwfit_shard_search_out sum;
        st = search(e, model, &x, space, &best, 1, &sum);
        if (st != HWFIT_OK) break;
        if (sum.fitting > 0) {
            found = n;
            if (layout != NULL) *layout = best.layout;
        }
    }
    if (st != HWFIT_OK) return st;
    *gpus = found;
    return HWFIT_OK;
}

/* Whether the layout of x fits; ELAYOUT when invalid, ERANGE counts as "does not fit". */
static hwfit_status fits_at(hwfit__shard_engine *e, const hwfit_shard_in *x, int *fits) {
    hwfit__shard_resolved r;
    hwfit_shard_reason why;
    hwfit_status st = hwfit__shard_resolve(e->model, e->kinds, x, &x->layout, &r, &why, NULL);
    if (st == HWFIT_ERANGE) { *fits = 0; return HWFIT_OK; } /* a batch too large to count */
    if (st != HWFIT_OK) return st;
    if (why != HWFIT_SHARD_VALID) return HWFIT_ELAYOUT;
    hwfit_shard_out o;
    st = hwfit__shard_eval(e, x, &r, &o, 0, NULL);
    if (st == HWFIT_ERANGE) { *fits = 0; return HWFIT_OK; }
    if (st != HWFIT_OK) return st;
    *fits = o.fits;
    return HWFIT_OK;
}

/* Largest k in [1, limit] with fits(k x step), or 0; fits is monotone (never fits again
 * once it stops fitting). set(x, value) writes the searched input. */
static hwfit_status bisect(hwfit__shard_engine *e, hwfit_shard_in *x, uint64_t step,
                           uint64_t limit, void (*set)(hwfit_shard_in *, uint64_t),
                           uint64_t *result) {
    uint64_t lo = 0, hi = limit / step; /* fits(lo * step) holds (or lo = 0) */
    int f;
    hwfit_status st;
    set(x, step);
    /* Evaluated even when step exceeds the limit: an invalid input is refused, not 0. */
    if ((st = fits_at(e, x, &f)) != HWFIT_OK) return st;
    if (hi == 0 || !f) { *result = 0; return HWFIT_OK; }
    lo = 1;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo + 1) / 2;
        set(x, mid * step);
        if ((st = fits_at(e, x, &f)) != HWFIT_OK) return st;
        if (f) lo = mid;
        else hi = mid - 1;
    }
    *result = lo * step;
    return HWFIT_OK;
}

static void set_context(hwfit_shard_in *x, uint64_t v) { x->memory.context = v; }
static void set_batch(hwfit_shard_in *x, uint64_t v) { x->memory.batch = v; }
static void set_micro_batch(hwfit_shard_in *x, uint64_t v) { x->layout.micro_batch = v; }

hwfit_status hwfit_shard_max_context(const hwfit_model *model, const hwfit_shard_in *in,
                                     uint64_t limit, uint64_t *context) {
    if (model == NULL || in == NULL || context == NULL) return HWFIT_EINVAL;
    if (limit == 0) return HWFIT_EDOM;
    hwfit_status st = hwfit__shard_check_in(in, NULL);
    if (st != HWFIT_OK) return st;
    hwfit__shard_engine engine, *e = &engine; /* a few KB (shard_internal.h) */
    hwfit_shard_in x = *in;
    const hwfit_layout *l = &in->layout;
    uint64_t step = (uint64_t)(l->cp ? l->cp : 1) * (l->sequence_parallel && l->tp ? l->tp : 1);
    uint64_t r = 0;
    if ((st = hwfit__shard_engine_init(e, model)) == HWFIT_OK)
        st = bisect(e, &x, step, limit, set_context, &r);
    if (st != HWFIT_OK) return st;
    *context = r;
    return HWFIT_OK;
}

hwfit_status hwfit_shard_max_batch(const hwfit_model *model, const hwfit_shard_in *in,
                                   uint64_t limit, uint64_t *batch) {
    if (model == NULL || in == NULL || batch == NULL) return HWFIT_EINVAL;
    if (limit == 0) return HWFIT_EDOM;
    hwfit_status st = hwfit__shard_check_in(in, NULL);
    if (st != HWFIT_OK) return st;
    hwfit__shard_engine engine, *e = &engine; /* a few KB (shard_internal.h) */
    hwfit_shard_in x = *in;
    int training = in->memory.mode != HWFIT_MEMORY_INFERENCE;
    if (training) x.layout.global_batch = 0;
    uint64_t r = 0;
    if ((st = hwfit__shard_engine_init(e, model)) == HWFIT_OK)
        st = bisect(e, &x, 1, limit, training ? set_micro_batch : set_batch, &r);
    if (st != HWFIT_OK) return st;
    *batch = r;
    return HWFIT_OK;
}

/* ---- why an input is refused (hwfit_shard_validate) -------------------------------------- */

/* The memory fields hwfit_memory_validate names, as fields of hwfit_shard_in. */
static const char *memory_field(const char *field) {
    static const char *const fields[][2] = {
        {"mode", "memory.mode"},
        {"optimizer", "memory.optimizer"},
        {"batch", "memory.batch"},
        {"context", "memory.context"},
        {"overhead_bytes", "memory.overhead_bytes"},
        {"lora_rank", "memory.lora_rank"},
        {"lora_targets", "memory.lora_targets"},
        {"weights", "memory.weights"},
        {"qlora_base", "memory.qlora_base"},
        {"unquantized", "memory.unquantized"},
        {"activations", "memory.activations"},
        {"gradients", "memory.gradients"},
        {"lora_dtype", "memory.lora_dtype"},
        {"lora_modules", "memory.lora_modules"},
        {"kv", "memory.kv"}};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (strcmp(fields[i][0], field) == 0) return fields[i][1];
    return NULL;
}

hwfit_status hwfit__shard_explain(const hwfit__shard_engine *e, const hwfit_shard_in *in,
                                  hwfit_status status, hwfit_problem *problem) {
    if (status == HWFIT_OK || problem == NULL || problem->status != HWFIT_OK)
        return hwfit__why(problem, status, "", "");
    /* The per-card memory calls see the workload with the fields the layout sets (one
     * layer, no tensor parallelism, one sequence per micro-batch): what they refuse
     * besides those is a field of the workload. */
    hwfit_memory_in mi = in->memory;
    mi.micro_batch = 1;
    mi.tensor_parallel = 1;
    mi.sequence_parallel = 0;
    mi.recompute = HWFIT_MEMORY_RECOMPUTE_NONE;
    mi.first_layer = 0;
    mi.layer_count = 1;
    mi.mtp = 0;
    hwfit_problem p;
    hwfit_problem_clear(&p);
    /* hwfit_memory_validate with the engine's model, prepared without error (its estimate
     * checks the workload first). */
    if (hwfit__memory_validate_prepared(e->model, &e->prep, &mi, &p) == status &&
        p.field != NULL) {
        const char *field = memory_field(p.field);
        if (field != NULL) return hwfit__why(problem, status, field, p.rule);
        if (strncmp(p.field, "model.", 6) == 0) return hwfit__why(problem, status, p.field, p.rule);
    }
    return hwfit__why(problem, status, "",
                      status == HWFIT_ERANGE ? "a card's footprint does not fit a 64-bit byte count"
                                             : "the per-card memory calculation refuses the workload");
}

hwfit_status hwfit_shard_validate(const hwfit_model *model, const hwfit_shard_in *in,
                                  hwfit_problem *problem) {
    hwfit__shard_engine engine; /* a few KB (shard_internal.h) */
    return hwfit__shard_validate_at(&engine, model, in, problem);
}

hwfit_status hwfit__shard_validate_at(hwfit__shard_engine *e, const hwfit_model *model,
                                      const hwfit_shard_in *in, hwfit_problem *problem) {
    hwfit_problem_clear(problem);
    if (model == NULL) return hwfit__why(problem, HWFIT_EINVAL, "model", HWFIT__NULL);
    if (in == NULL) return hwfit__why(problem, HWFIT_EINVAL, "in", HWFIT__NULL);
    /* The order of hwfit_shard_estimate: the model, the layout and inputs, then the cards. */
    /* The model's check prepares it into the engine's own prep (the init redoes it). */
    hwfit_status st = hwfit__model_prepare_why(model, &e->prep, problem);
    if (st != HWFIT_OK) return st;
    if ((st = hwfit__shard_engine_init(e, model)) != HWFIT_OK)
        return hwfit__why(problem, st, "model", "is refused"); /* prepared above: unreachable */
    hwfit_shard_out scratch;
    st = estimate_with(e, in, &scratch, 0, NULL, problem);
    return hwfit__shard_explain(e, in, st, problem);
}

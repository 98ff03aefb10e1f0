/*
 * memory_internal.h - what memory.c shares with shard.c inside lib/. Never installed.
 */
#ifndef HWFIT_MEMORY_INTERNAL_H
#define HWFIT_MEMORY_INTERNAL_H

#include <string.h>

#include "hwfit/dtype.h"
#include "hwfit/memory.h"
#include "hwfit/model.h"
#include "hwfit/status.h"

#include "base/checked.h"
#include "domains/model_internal.h"

/* The weights and LoRA adapters of one layer of each kind (HWFIT__KIND_*) of a prepared
 * model, remembered with the formats, rank and targets they were computed for: a caller
 * that estimates many workloads of one prepared model (the shard engine) sums each layer's
 * tensors once. Zero it (hwfit__memory_memo_reset) whenever the prepared model changes. */
typedef struct hwfit__memory_memo {
    int valid[3];
    hwfit_dtype base, other;
    int base_quantized;
    int modules;
    hwfit_dtype attn, mlp, expert;
    uint64_t rank;
    unsigned targets;
    unsigned fuse; /* HWFIT_MODEL_FUSED_* bits the adapters follow (lora_modules) */
    uint64_t weights_bytes[3][2], adapter_params[3][2]; /* [kind][0: the layer, 1: of which
                                                           its routed experts] */
} hwfit__memory_memo;

static inline void hwfit__memory_memo_reset(hwfit__memory_memo *memo) {
    memset(memo, 0, sizeof *memo);
}

/* hwfit_memory_estimate of a prepared model (hwfit__model_prepare returned prep_status
 * for it): the same checks in the same order, the same results bit for bit, without
 * validating and summing the model again. model and in must not be NULL; memo may be. */
hwfit_status hwfit__memory_estimate_prepared(const hwfit_model *model,
                                             const hwfit__model_prep *prep,
                                             hwfit_status prep_status, const hwfit_memory_in *in,
                                             hwfit__memory_memo *memo, hwfit_memory_out *out);

/* hwfit_memory_validate of a model prepared without error (prep from hwfit__model_prepare
 * of model, which returned HWFIT_OK): the workload's checks and the estimate's refusals,
 * each naming its field in *problem, without a prep of its own on the stack (the shard
 * engine's explains a card's failure with its prep, shard.c). */
hwfit_status hwfit__memory_validate_prepared(const hwfit_model *model,
                                             const hwfit__model_prep *prep,
                                             const hwfit_memory_in *in, hwfit_problem *problem);

/* What the phases of a training step hold on one device (docs/formulas.md, "phases"),
 * with `layer` the largest layer's activations without recomputation:
 * fixed = weights + resident optimizer states (+ KV cache and, on a shard card,
 * communication buffers); stored = activations kept for backward, without the loss;
 * loss = logits and loss; transient = the layer recomputed during backward; grads = the
 * whole resident gradient; grad_unit = the largest layer's or table's gradient (optimizer
 * in backward); step_temp = the optimizer step's temporaries. Inference: stored holds the
 * activation workspace and the phases are one. */
typedef struct hwfit__phase_parts {
    int training;
    uint64_t fixed, stored, loss, transient, grads, grad_unit, step_temp;
    uint64_t layer; /* one layer's activations without recomputation (end of backward) */
    uint64_t dequant; /* the largest quantized matrix dequantized (forward and backward) */
    uint64_t carried; /* the previous micro-batch's graph (forward and step) */
    uint64_t weights; /* the weights on the device (the load phase) */
    uint64_t load;    /* quantizing the largest quantized matrix on the device at load */
    uint64_t built;   /* the K/V cache the forward builds (kv_built): to the forward's end,
                         through backward with outputs_kept */
    uint64_t kept;    /* the logits the loop keeps through backward (outputs_kept) */
    uint64_t cast;    /* the logits' cast copy (loss inplace-cast) or their fp32 copy
                         (outputs_fp32): forward's end only */
    uint64_t pass;    /* held through forward and backward, freed before the step: ZeRO-3
                         units kept gathered, unsharded gradients (shard.c) */
    uint64_t head_grad; /* the head's weight gradient, made by the backward's first matmul and
                           held beside the layer rebuilt after it (unsharded gradients; not
                           when stepped and freed in backward, unless tied) */
    uint64_t gathered; /* ZeRO-3's gathered units (the live window, the root unit, a unit's
                          unsharded gradient; shard.c): allocated in forward and backward,
                          all freed before the step */
    uint64_t cached;   /* of gathered, the gathered parameters: their blocks stay reserved
                          in the step (cached for the stream that gathered them) */
    uint64_t loss_head; /* logits_freed: what the loss's backward adds to L as the head's
                           matmuls make its weight gradient (hwfit__loss_head) */
    uint64_t strand_fwd; /* the logits-sized blocks the caching allocator keeps free but
                            reserved at the forward's end, and at the loss's backward peak
                            (hwfit__strands): reserved, never allocated */
    uint64_t strand_bwd;
    uint64_t pass_grads; /* of pass, unsharded gradients whose reduction waits for the last
                            micro-batch (shard.c, unsharded_grad_bytes): the sharded
                            gradients (grads) exist only from that backward's reductions,
                            which free them unit by unit, so neither forward nor the
                            backward's start holds grads, and its end holds grads instead
                            of them */
    uint64_t wrap_residue; /* FSDP1's wrap residue (shard.c, fsdp_wrap_residue): the segments
                              its flat-parameter build left cached on the compute stream
                              (0: not counted) */
    uint64_t wrap_copy;    /* with it, an offloaded shard's host-to-device copy, cached on
                              FSDP1's pre-unshard stream */
    uint64_t eval;         /* the evaluation forward beyond fixed (hwfit__memory_eval): its
                              own phase (0: the run does not evaluate) */
    uint64_t short_fwd;    /* a short micro-batch's forward end beyond fixed
                              (hwfit__short_forward; 0: none) */
    uint64_t eval_res;     /* the segments the caching allocator takes for that forward
                              (hwfit__memory_eval's replay; 0: not replayed): its reserve is
                              fixed's with the fraction plus these */
    uint64_t records;      /* the segments earlier record lengths leave reserved
                              (hwfit__records): reserved beside the largest moment's, never
                              allocated */
    uint64_t mask_build;   /* the dense mask of a flex attention with sinks being built in
                              the forward's first attention (hwfit__sink_mask; 0: none) */
    uint64_t head_copy;    /* the head weight's copy the loss's matmul keeps and a loss
                              chunk's work (hwfit__memory_head_copy): at the forward's end
                              and the loss's backward, gone before a layer is rebuilt
                              (0: none) */
    uint64_t warmup;       /* transformers' warm-up block at load (hwfit__memory_warmup): a
                              floor under the allocated and reserved peaks (0: none) */
    uint64_t end_extra;    /* held at the backward's end only, beside the gradients held
                              (shard.c, fsdp_single_unit: the whole unit's unreduced
                              gradient and its views' gradients; 0: none) */
    uint64_t stranded;     /* built_whole (shard.c): the whole model's parameter segments,
                              reserved on the compute stream beside its own peak, never
                              allocated after the sharding (0: none) */
} hwfit__phase_parts;

/* hwfit_memory_in::sink_mask_bytes: the bytes a flex attention with sinks holds while its
 * block mask is built from the dense mask (PyTorch's create_block_mask without _compile:
 * create_mask over the (1, 1, s, s + 1) grid, then _convert_mask_to_block_mask), per
 * pair, for s x (s + 1) pairs (the sink's key padded in front; batch and heads None):
 * training a model with attention sinks only. ERANGE on overflow. */
static inline hwfit_status hwfit__sink_mask(const hwfit_model *m, const hwfit_memory_in *in,
                                           uint64_t *bytes) {
    *bytes = 0;
    if (in->mode == HWFIT_MEMORY_INFERENCE || in->sink_mask_bytes == 0 || !m->attention_sinks)
        return HWFIT_OK;
    uint64_t s = in->context, pairs = 0;
    if (s == UINT64_MAX || hwfit__mul_u64(s, s + 1, &pairs) != HWFIT_OK ||
        hwfit__mul_u64(pairs, in->sink_mask_bytes, bytes) != HWFIT_OK)
        return HWFIT_ERANGE;
    return HWFIT_OK;
}

/* hwfit_memory_in::flash_attention resolved for the model (hwfit_memory_attention_flash):
 * SDPA is transformers' default dispatch, which falls back to eager for a model whose
 * attention adds learned sinks (transformers models/gpt_oss/modular_gpt_oss.py,
 * GptOssPreTrainedModel: _supports_sdpa = False; torch's scaled_dot_product_attention has
 * no sink term). */
static inline int hwfit__attention(const hwfit_model *m, const hwfit_memory_in *in) {
    if (in->flash_attention == HWFIT_ATTENTION_SDPA) {
        if (m != NULL && m->attention_sinks) return HWFIT_ATTENTION_EAGER;
        /* transformers' sdpa_attention_forward passes enable_gqa when the mask is None
         * (integrations/sdpa_attention.py use_gqa_in_sdpa, torch >= 2.5): a micro-batch of
         * one unpacked row has no padding and its causal mask is skipped for is_causal;
         * without a flash kernel (before sm80) and with the memory-efficient kernel
         * refusing unequal head counts, SDPA runs its math backend. */
        if (in->card_no_flash && in->sdpa_gqa_math && in->mode != HWFIT_MEMORY_INFERENCE &&
            m != NULL &&
            m->attention == HWFIT_MODEL_ATTENTION_GQA && m->kv_heads < m->heads &&
            in->micro_batch == 1 && !in->packed)
            return HWFIT_ATTENTION_MATH;
        return HWFIT_ATTENTION_FLASH;
    }
    if (in->flash_attention == HWFIT_ATTENTION_FLASH || in->flash_attention == HWFIT_ATTENTION_MATH)
        return in->flash_attention;
    return HWFIT_ATTENTION_EAGER;
}

static inline int hwfit__flash(const hwfit_model *m, const hwfit_memory_in *in) {
    return hwfit__attention(m, in) == HWFIT_ATTENTION_FLASH;
}

/* The caching allocator's stranded logits blocks (hwfit_memory_in::expandable_segments 0):
 * PyTorch's CUDACachingAllocator (c10/cuda/CUDACachingAllocator.cpp) serves a request from
 * the smallest cached free block of its pool at least as large (get_free_block: best fit,
 * `pool.blocks.lower_bound(&p.search_key)`); it splits a larger block and merges a freed
 * block with its free neighbours in the same segment (try_merge_blocks), never across
 * segments; a request no cached block fits takes a new segment (alloc_block, cudaMalloc of
 * the request rounded to 2 MiB above 10 MiB), and cached segments are released only when
 * a cudaMalloc fails (release_cached_blocks) or with expandable segments, which map more
 * memory into the same segment instead. So a freed logits-sized block followed by a larger
 * logits-sized request stays reserved beside the new segment; the next iterations find
 * both cached (best fit again) and take nothing new. Per logit, with 16-bit logits (A < 4
 * bytes), counting the sequences of each loss as the frameworks run them:
 * - inplace-cast with outputs_fp32 (Unsloth under Accelerate): the head's A-byte logits,
 *   their cast copy (A, which the loss saves), the head's freed as `logits` is rebound
 *   (unsloth/models/llama.py CausalLM_fast_forward), then Accelerate's fp32 copy (4,
 *   accelerate/utils/operations.py convert_to_fp32) which the freed A-byte block cannot
 *   hold: A stranded at the forward's end (reserved 2A + 4, allocated A + 4).
 * - upcast-freed (transformers' ForCausalLMLoss under the Trainer, torchtitan's
 *   cross_entropy_loss): the A-byte logits, their fp32 copy (4) and the fp32 log-softmax
 *   (4, saved) in forward, the copy freed as cross_entropy returns; the logits are freed
 *   before backward (the Trainer drops the outputs, torchtitan `del pred`). In the loss's
 *   backward nll_loss's fp32 gradient (4) takes the copy's block and log_softmax's (4)
 *   finds only the A-byte block free: a new segment, A stranded beside the 12 bytes live
 *   (the cast back to A bytes then fits the stranded block). Accelerate's fp32 copy of the
 *   returned logits (transformers 4.49 on) takes the freed copy's block and is dropped
 *   with the outputs: the same. transformers up to 4.45 (`logits = logits.float()` in the
 *   model, then `.contiguous()` shifted fp32 copy and log-softmax) frees the 16-bit logits
 *   before its fp32 requests: A stranded too. 4.46-4.48 (loss upcast) frees two fp32
 *   blocks before the backward's two gradients: nothing stranded, as for upcast.
 * Other losses free no logits-sized block before a larger request (inplace, fused,
 * chunked: equal or smaller chunks; upcast and fp32-copy: the logits stay live). `logits`
 * = s b V / t values; *fwd, *bwd: bytes. */
static inline void hwfit__strands(const hwfit_memory_in *in, uint64_t logits, uint64_t a_bytes,
                                  uint64_t *fwd, uint64_t *bwd) {
    *fwd = *bwd = 0;
    if (in->mode == HWFIT_MEMORY_INFERENCE || !in->head || a_bytes >= 4 ||
        logits > UINT64_MAX / 4)
        return;
    /* inplace-cast frees the head's logits below their live cast copy: a block no
     * segment's growth can reach, so stranded with expandable segments too (they map new
     * pages only at a segment's end). */
    if (in->loss == HWFIT_MEMORY_LOSS_INPLACE_CAST && in->outputs_fp32) *fwd = a_bytes * logits;
    /* upcast-freed frees the logits and their fp32 copy, the newest blocks, before the
     * backward's requests: expandable segments grow that free end into the larger block,
     * so only the plain allocator strands it. (a loop that keeps the outputs keeps the
     * logits: nothing freed) */
    if (in->loss == HWFIT_MEMORY_LOSS_UPCAST_FREED && !in->outputs_kept &&
        !in->expandable_segments)
        *bwd = a_bytes * logits;
}

/* The losses that never hold the whole logits in training: the fused linear cross-entropy
 * (HWFIT_MEMORY_LOSS_FUSED) and Liger's, which differs only in evaluation. */
static inline int hwfit__loss_fused(hwfit_memory_loss kind) {
    return kind == HWFIT_MEMORY_LOSS_FUSED || kind == HWFIT_MEMORY_LOSS_LIGER;
}

/* logits_freed: what the loss's backward holds beyond L (loss) while the head's matmul makes
 * its weight gradient, k = the head's whole V x h gradient (0 when the head does not train),
 * k_sum = the part of the running sum no buffer counts (k, or 0 when a ZeRO-3 unit's
 * unsharded gradient is in the buffers), logits = the A-byte logits. Chunked (8 chunks,
 * torchtune's CEWithChunkedOutputLoss): autograd runs every chunk's loss backward first
 * (a node's sequence number orders the ready queue), then the chunk matmuls, each making a
 * whole V x h gradient that the weight's InputBuffer adds into the running sum
 * (torch/csrc/autograd/input_buffer.cpp, accumulate): the first beside all the logits'
 * gradients (k), the second beside the sum and 7/8 of them. One matmul: its gradient of
 * the logits (A bytes) and k, beyond L only when L is smaller. kind: the loss
 * (hwfit_memory_in::loss). */
static inline uint64_t hwfit__loss_head(hwfit_memory_loss kind, uint64_t loss, uint64_t logits,
                                        uint64_t k, uint64_t k_sum) {
    /* The fused and chunk-by-chunk losses never hold the whole logits' gradient (their
     * chunks' work is the loss's own: L, the forward's chunk, head_copy): the head's
     * gradient alone, summed chunk by chunk into one V x h. */
    if (hwfit__loss_fused(kind) || kind == HWFIT_MEMORY_LOSS_FUSED_CHUNKED ||
        kind == HWFIT_MEMORY_LOSS_TRL_CHUNKED)
        return k;
    if (kind == HWFIT_MEMORY_LOSS_CHUNKED) {
        uint64_t chunk = logits / 8;
        return k_sum > chunk ? k + k_sum - chunk : k;
    }
    return logits + k > loss ? logits + k - loss : 0;
}

/* hwfit_memory_in::unsharded_grad_bytes and reduce_held_bytes: 0 (none held) or a format's
 * bytes per element (1 fp8, 2 bf16/fp16, 4 fp32, 8 fp64); memory's and shard's checks share
 * it. */
#define HWFIT__GRAD_BYTES_RULE "must be 0, 1, 2, 4 or 8 bytes per element (a format's size)"
static inline int hwfit__grad_bytes_ok(unsigned b) {
    return b == 0 || b == 1 || b == 2 || b == 4 || b == 8;
}

/* Whether hwfit__memory_extras has nothing to count for in (inference, or none of its
 * inputs on): every extra is then 0. The shard search asks first, so that it builds the
 * memory input of a card only when an extra needs it. */
static inline int hwfit__memory_extras_off(const hwfit_memory_in *in) {
    return in->mode == HWFIT_MEMORY_INFERENCE ||
           (!in->dequant_transient && !in->previous_graph && !(in->load_quantize_bytes > 0.0) &&
            !in->kv_built && !in->outputs_kept && !in->probs_kept &&
            in->loss != HWFIT_MEMORY_LOSS_INPLACE_CAST &&
            !(in->dora && in->mode != HWFIT_MEMORY_FULL) &&
            !(in->outputs_fp32 && in->loss == HWFIT_MEMORY_LOSS_INPLACE));
}

/* The dequantized copy of the largest quantized matrix (in->dequant_transient), the
 * previous micro-batch's graph (in->previous_graph) and the transient of quantizing the
 * largest quantized matrix at load (in->load_quantize_bytes), the K/V cache the forward builds
 * (in->kv_built), the logits the loop keeps (in->outputs_kept) or derives and keeps
 * (in->probs_kept) and the logits' cast or
 * fp32 copy (loss inplace-cast, in->outputs_fp32) of a device holding dense_n dense and
 * moe_n MoE layers (and the head when in->head), training, with in's formats, t, s and b;
 * 0 when the input is off. The formats must be valid (hwfit_memory_estimate checked them);
 * ERANGE on overflow. */
hwfit_status hwfit__memory_extras(const hwfit_model *model, const hwfit__model_prep *prep,
                                  const hwfit_memory_in *in, uint32_t dense_n, uint32_t moe_n,
                                  uint64_t *dequant, uint64_t *carried, uint64_t *load,
                                  uint64_t *built, uint64_t *kept, uint64_t *cast);

/* The head weight's copy the loss's matmul keeps for backward (*kept: head_cast_kept's
 * autocast cast of a frozen fp32 head, or trl-chunked's per-chunk copy) and, with it, a
 * trl-chunked chunk's work (*total: the two together), on a device holding the head with
 * in's tensor parallelism (memory.h head_cast_kept, HWFIT_MEMORY_LOSS_TRL_CHUNKED). 0 and 0
 * in inference or without either. HWFIT_EINVAL on an unknown format, ERANGE on overflow. */
hwfit_status hwfit__memory_head_copy(const hwfit_model *model, const hwfit_memory_in *in,
                                     uint64_t *kept, uint64_t *total);

/* Whether hwfit__memory_head_copy can count anything for in (training, and head_cast_kept
 * or the trl-chunked loss): the memory and shard engines ask it before computing it. */
static inline int hwfit__head_copy_on(const hwfit_memory_in *in) {
    return in->mode != HWFIT_MEMORY_INFERENCE &&
           (in->head_cast_kept || in->loss == HWFIT_MEMORY_LOSS_TRL_CHUNKED);
}

/* What the evaluation's allocator replay needs from hwfit__memory_eval (on 0: no replay). */
typedef struct hwfit__eval_replay_in {
    uint64_t a, r, t, head; /* activation and hidden-state bytes, tensor ranks, loss bytes */
    int quant, on;
} hwfit__eval_replay_in;

/* The evaluation forward's bytes beyond the weights and optimizer states of the dense_n and
 * moe_n layers (and the head when in->head) held on the device, into *out (0 when
 * in->evaluation is off), and, when replay is not NULL, what its allocator replay needs
 * (off with expandable_segments); docs/formulas.md, "The evaluation phase". ERANGE on
 * overflow. */
hwfit_status hwfit__memory_eval(const hwfit_model *model, const hwfit__model_prep *prep,
                                const hwfit_memory_in *in, uint32_t dense_n, uint32_t moe_n,
                                uint64_t *out, hwfit__eval_replay_in *replay);

/* The bytes of the segments PyTorch's caching allocator takes for that forward, replaying
 * its rules (memory.c, the replay's comment), into *out: 0 when ri->on is 0 or the
 * replay's table fills. ERANGE on overflow. */
hwfit_status hwfit__memory_eval_segments(const hwfit_model *model, const hwfit__model_prep *prep,
                                         const hwfit_memory_in *in, uint32_t dense_n,
                                         uint32_t moe_n, const hwfit__eval_replay_in *ri,
                                         uint64_t *out);

/* The memory input's choices hwfit__memory_phases reads (hwfit_memory_in's fields of the
 * same names): a few words, so that the shard search passes a card's (gradient_buffer is
 * the layout's) without a copy of the whole input. */
typedef struct hwfit__phase_choices {
    double fragmentation;
    int gradient_buffer, optimizer_in_backward, outputs_kept, loss_after_call, logits_freed;
    int probs_kept;
    int load_counted; /* hwfit_memory_in::load_counted: the load phase competes */
    int expandable_segments; /* hwfit_memory_in::expandable_segments */
} hwfit__phase_choices;

static inline hwfit__phase_choices hwfit__phase_choices_of(const hwfit_memory_in *in) {
    hwfit__phase_choices c;
    c.fragmentation = in->fragmentation;
    c.gradient_buffer = in->gradient_buffer;
    c.optimizer_in_backward = in->optimizer_in_backward;
    c.outputs_kept = in->outputs_kept;
    c.loss_after_call = in->loss_after_call;
    c.logits_freed = in->logits_freed;
    c.probs_kept = in->probs_kept;
    c.load_counted = in->load_counted;
    c.expandable_segments = in->expandable_segments;
    return c;
}

/* transformers' caching allocator warm-up (hwfit_memory_in::load_warmup, memory.h
 * hwfit_memory_warmup) of the whole model (its counts pc, tied: its head is the embedding)
 * on a card of card_bytes (+INFINITY: no card, no block), in bytes: 0 in inference or
 * without the warm-up. EINVAL on a bad format, ERANGE on overflow. */
hwfit_status hwfit__memory_warmup(const hwfit_memory_in *in, const hwfit_model_param_counts *pc,
                                  int tied, double card_bytes, uint64_t *bytes);

/* forward_bytes, backward_bytes, step_bytes, peak_phase, allocated_bytes, reserved_bytes
 * and peak_bytes of out from the parts, the memory input's choices and the overhead;
 * ERANGE on overflow (out untouched). */
hwfit_status hwfit__memory_phases(const hwfit__phase_choices *in, const hwfit__phase_parts *p,
                                  uint64_t overhead, hwfit_memory_out *out);

/* hwfit_memory_in::grads_upcast_in_step: the step holds fp32 copies of 16-bit gradients
 * (Megatron-Core's _copy_model_grads_to_main_grads, `.float()` of each main_grad shard),
 * only where there is something to copy: training with master weights and gradients below
 * 32 bits, the optimizer not in backward. */
static inline int hwfit__grads_upcast(const hwfit_memory_in *in) {
    double bits = 32.0;
    if (hwfit_dtype_bits(in->gradients, &bits) != HWFIT_OK) return 0;
    return in->grads_upcast_in_step && in->mode != HWFIT_MEMORY_INFERENCE &&
           in->master_weights && !in->optimizer_in_backward && bits < 32.0;
}

/* Bytes a value of the activations' format (hwfit_memory_in::activations): 2 when it has no
 * size (the checks refuse an unknown format before any count). */
static inline uint64_t hwfit__act_bytes(const hwfit_memory_in *in) {
    double bits = 16.0;
    (void)hwfit_dtype_bits(in->activations, &bits);
    return (uint64_t)(bits / 8.0);
}

/* hwfit_memory_in::loss_short_tokens: the forward's end of a micro-batch of
 * min(rows, loss_short_tokens) tokens beyond the fixed part, with loss_short, on a device
 * storing `stored` bytes of activations at `rows` tokens: the stored activations scaled to
 * its tokens, its whole logits (vocab a row: V / t) and their cast and fp32 copies; 0
 * without the threshold or the head, outside training, or packed above the threshold
 * (every micro-batch full). ERANGE on overflow. */
/* hwfit_memory_in::record_lengths: the bytes the loss's logits-sized requests at the
 * earlier record lengths leave reserved beyond what the longest micro-batch alone reserves,
 * the caching allocator replayed over the records then the longest (memory.c). per_token:
 * logits a sequence token makes (b V / t; the records are tokens per sequence);
 * longest: the micro-batch's tokens per sequence on this rank (context, or its local
 * share), the records scaled by longest / context; a_bytes: the 16-bit format's bytes.
 * 0 without records, with expandable segments, in inference, for a loss the replay does
 * not know, or when the replay's table overflows. ERANGE on overflow. */
hwfit_status hwfit__records(const hwfit_memory_in *in, uint64_t per_token, uint64_t longest,
                            uint64_t a_bytes, uint64_t *bytes);

/* The records' segments are the first the caching allocator gives back when a cudaMalloc
 * fails (release_cached_blocks frees every cached whole segment), so what a card reads
 * never passes its memory: records_bytes (and reserved, stranded, peak with it) shrink
 * until peak_bytes is at most `card` bytes (0: no card known). */
static inline void hwfit__records_cap(hwfit_memory_out *o, double card) {
    if (!(card > 0.0) || o->records_bytes == 0 || (double)o->peak_bytes <= card) return;
    uint64_t over = o->peak_bytes - (uint64_t)card; /* card < peak_bytes < 2^64 */
    if (over > o->records_bytes) over = o->records_bytes;
    o->records_bytes -= over;
    o->reserved_bytes -= over;
    o->peak_bytes -= over;
    o->stranded_bytes -= over;
}

hwfit_status hwfit__short_forward(const hwfit_memory_in *in, uint64_t stored, uint64_t rows,
                                  uint64_t vocab, uint64_t hidden, uint64_t a_bytes,
                                  uint64_t *bytes);

/* Loss HWFIT_MEMORY_LOSS_FUSED_CHUNKED (Unsloth's UnslothFusedLoss): the chunks the loss
 * splits `rows` tokens into and one chunk's work at the forward's end, on a device of
 * `card` bytes (+infinity: no card) holding `used` bytes allocated before the loss, with
 * `vocab` logits a row (V / t) and `hidden` the head's input width, a_bytes the
 * activations' format. 0 chunks and bytes for any other loss. memory.c and shard.c share
 * it; ERANGE on overflow. */
hwfit_status hwfit__fused_chunks(const hwfit_memory_in *in, double card, uint64_t used,
                                 uint64_t rows, uint64_t vocab, uint64_t hidden,
                                 uint64_t a_bytes, uint64_t *chunks, uint64_t *bytes);

#endif /* HWFIT_MEMORY_INTERNAL_H */

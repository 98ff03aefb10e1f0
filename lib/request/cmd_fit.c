/* cmd_fit.c - `fit`: does a workload fit on N cards, card by card, and the inverse
 * questions (fewest cards, longest context, largest batch); SVG draws the cards. */
#include "hwfit/chart.h"
#include "workload.h"

static const hwfit__col card_cols[] = {
    {"stage", "stage", 5},
    {"first_layer", "first", 5},
    {"layers", "layers", 6},
    {"embedding", "emb", 4},
    {"head", "head", 4},
    {"in_flight", "in flight", 9},
    {"weights_bytes", "weights", 21},
    {"kv_bytes", "KV cache", 21},
    {"activation_bytes", "activations", 21},
    {"gradient_bytes", "gradients", 21},
    {"optimizer_bytes", "optimizer", 21},
    {"buffer_bytes", "buffers", 21},
    {"overhead_bytes", "overhead", 21},
    {"total_bytes", "total", 21},
    {"peak_bytes", "peak", 21},
    {"peak_phase", "peak in", 8},
};

typedef struct fit_state {
    hwfit__workload w;
    hwfit_shard_card cards[HWFIT_MODEL_MAX_LAYERS];
} fit_state;

/* The memory chart of the layout shown, written into the result (chart.h). */
static hwfit_status write_chart(hwfit_request *r, const hwfit_model *m, const hwfit_shard_in *in) {
    size_t need = 0;
    hwfit_status st = hwfit_chart_memory(m, in, NULL, NULL, 0, &need);
    if (st != HWFIT_EBUFSIZE || need == 0)
        return hwfit__req_fail_status(r, "chart", st == HWFIT_OK ? HWFIT_ERANGE : st);
    /* Room for the chart in the result: need - 1 bytes, then the chart over them. */
    hwfit__text *t = hwfit__req_text_out(r);
    size_t start = t->len;
    static const char blanks[64] = {0};
    for (size_t left = need - 1; left > 0;) {
        size_t n = left < sizeof blanks ? left : sizeof blanks;
        hwfit__text_put(t, blanks, n);
        left -= n;
    }
    if (!hwfit__text_complete(t) || t->buf == NULL)
        return hwfit__req_fail_status(r, "chart", HWFIT_ENOMEM);
    st = hwfit_chart_memory(m, in, NULL, t->buf + start, need, NULL);
    if (st != HWFIT_OK) return hwfit__req_fail_status(r, "chart", st);
    return HWFIT_OK;
}

static hwfit_status run(hwfit_request *r, hwfit__out *out, void *state) {
    fit_state *fs = state;
    hwfit__workload *w = &fs->w;
    hwfit_status st = hwfit__workload_read(r, w);
    if (st != HWFIT_OK) return st;
    const hwfit_model *m = &w->model;
    int training = w->training;

    /* Compute everything first. */
    hwfit_layout best;
    hwfit_shard_search_out sum;
    const char *ranked_by;
    if ((st = hwfit__workload_best(r, w, &best, &sum, &ranked_by)) != HWFIT_OK) return st;
    hwfit_shard_in in = w->in;
    in.layout = best;
    hwfit_shard_out o;
    if ((st = hwfit_shard_estimate(m, &in, &o)) != HWFIT_OK)
        return hwfit__req_fail_status(r, "estimate", st);
    for (uint32_t s = 0; s < o.stages; s++)
        if ((st = hwfit_shard_card_at(m, &in, s, &fs->cards[s])) != HWFIT_OK)
            return hwfit__req_fail_status(r, "card", st);
    uint32_t min_gpus;
    uint32_t max_gpus = (uint32_t)hwfit__req_u64(r, HWFIT__WOPT(HWFIT__W_MAX_GPUS));
    if ((st = hwfit_shard_min_gpus(m, &w->in, &w->space, max_gpus, &min_gpus, NULL)) != HWFIT_OK)
        return hwfit__req_fail_status(r, "min_gpus", st);
    /* the longest context the model takes, unless the user extended it (long-context) */
    int extended = hwfit__req_flag(r, &hwfit__workload_option_table[HWFIT__W_LONG_CONTEXT]);
    uint64_t ctx_limit = m->max_context && !extended ? m->max_context : HWFIT_MODEL_MAX_SIZE;
    uint64_t max_context, max_batch;
    if ((st = hwfit_shard_max_context(m, &in, ctx_limit, &max_context)) != HWFIT_OK)
        return hwfit__req_fail_status(r, "max_context", st);
    if ((st = hwfit_shard_max_batch(m, &in, training ? 65536 : 1048576, &max_batch)) != HWFIT_OK)
        return hwfit__req_fail_status(r, "max_batch", st);
    hwfit__req_set_verdict(r, o.fits ? 0 : 1);
    if (hwfit__req_format(r) == HWFIT_FORMAT_SVG) return write_chart(r, m, &in);

    hwfit__out_str(out, "model_type", "model type", m->name);
    if (w->card) hwfit__out_str(out, "gpu", "GPU", w->card->name);
    else hwfit__out_null(out, "gpu", "GPU");
    hwfit__out_u64(out, "gpus", "GPUs", in.gpus);
    hwfit__out_str(out, "mode", "mode", hwfit__workload_modes[w->mode]);
    hwfit__out_str(out, "weights", "weight format", w->weights_name);
    hwfit__workload_out_stored(out, &w->model, w->weights_source);
    if (training) hwfit__out_null(out, "kv", "KV-cache format");
    else hwfit__out_str(out, "kv", "KV-cache format", w->kv_name);
    hwfit__out_u64(out, "context", training ? "sequence (tokens)" : "context (tokens)",
                   in.memory.context);
    hwfit__out_u64(out, "batch", training ? "global batch" : "batch (sequences)",
                   training ? o.layout.global_batch : in.memory.batch);
    if (training) hwfit__out_str(out, "global_batch_source", "global batch from", w->batch_source);
    else hwfit__out_null(out, "global_batch_source", "global batch from");
    hwfit__out_bool(out, "fits", "fits", o.fits);
    hwfit__out_bool(out, "gpu_fits", "fits in GPU memory", o.gpu_fits);
    hwfit__out_bool(out, "host_fits", "fits in host memory", o.host_fits);
    /* The card's need: its largest phase with the allocator's reserve and the overhead
     * (before phases: the sum of the parts, still breakdown.total_bytes). */
    hwfit__out_bytes(out, "per_gpu_bytes", "largest card (peak)", o.worst.peak_bytes);
    hwfit__out_bytes(out, "gpu_capacity_bytes", "card capacity", o.capacity_bytes);
    hwfit__out_bytes(out, "usable_bytes", "usable per card", o.usable_bytes);
    hwfit__out_qty(out, "headroom_bytes", "headroom", o.headroom_bytes, HWFIT_UNIT_BYTES);
    hwfit__workload_out_layout(out, &o.layout);
    hwfit__out_section(out, "breakdown", "largest card");
    hwfit__out_u64(out, "stage", "pipeline stage", o.worst_stage);
    hwfit__out_bytes(out, "weights_bytes", "weights", o.worst.weights_bytes);
    hwfit__out_bytes(out, "kv_bytes", "KV cache", o.worst.kv_bytes);
    hwfit__out_bytes(out, "activation_bytes", "activations", o.worst.activation_bytes);
    hwfit__out_bytes(out, "gradient_bytes", "gradients", o.worst.gradient_bytes);
    hwfit__out_bytes(out, "optimizer_bytes", "optimizer states", o.worst.optimizer_bytes);
    hwfit__out_bytes(out, "buffer_bytes", "communication buffers", o.worst.buffer_bytes);
    hwfit__out_bytes(out, "overhead_bytes", "runtime overhead", o.worst.overhead_bytes);
    hwfit__out_bytes(out, "total_bytes", "total", o.worst.total_bytes);
    hwfit__out_section_end(out);
    hwfit__out_table(out, "cards", "cards by pipeline stage (every card of a stage is alike)",
                     card_cols, (int)HWFIT__COUNT_OF(card_cols));
    for (uint32_t s = 0; s < o.stages; s++) {
        const hwfit_shard_card *c = &fs->cards[s];
        hwfit__out_row(out);
        hwfit__out_cell_u64(out, c->stage);
        hwfit__out_cell_u64(out, c->first_layer);
        hwfit__out_cell_u64(out, c->layers);
        hwfit__out_cell_bool(out, c->embedding);
        hwfit__out_cell_bool(out, c->head);
        hwfit__out_cell_u64(out, c->in_flight);
        const uint64_t parts[] = {c->weights_bytes,  c->kv_bytes,        c->activation_bytes,
                                  c->gradient_bytes, c->optimizer_bytes, c->buffer_bytes,
                                  c->overhead_bytes, c->total_bytes, c->peak_bytes};
        for (size_t k = 0; k < HWFIT__COUNT_OF(parts); k++)
            hwfit__out_cell_qty(out, (double)parts[k], HWFIT_UNIT_BYTES);
        hwfit__out_cell_str(out, hwfit__workload_phases[c->peak_phase]);
    }
    hwfit__out_table_end(out);
    hwfit__out_bytes(out, "host_bytes", "host memory for offload", o.host_bytes);
    if (training) hwfit__out_null(out, "kv_tokens", "KV-cache tokens left");
    else hwfit__out_u64(out, "kv_tokens", "KV-cache tokens left", o.kv_tokens);
    if (min_gpus) hwfit__out_u64(out, "min_gpus", "fewest GPUs that fit", min_gpus);
    else hwfit__out_null(out, "min_gpus", "fewest GPUs that fit");
    hwfit__out_u64(out, "max_context", training ? "longest sequence" : "longest context",
                   max_context);
    hwfit__out_u64(out, "max_batch", training ? "largest micro-batch" : "largest batch",
                   max_batch);
    hwfit__out_u64(out, "valid_layouts", "valid layouts", sum.valid);
    hwfit__out_u64(out, "fitting_layouts", "layouts that fit", sum.fitting);
    hwfit__out_str(out, "ranked_by", "best layout by", ranked_by);
    /* The figures it was ranked by (perf), at the global batch shown. */
    const char *time_label = training ? "training step" : "time per output token";
    const char *rate_label = training ? "training tokens/s" : "decode tokens/s";
    if (w->timed_valid) {
        hwfit__out_qty(out, "step_time_s", time_label, w->timed.step_time_s, HWFIT_UNIT_SECONDS);
        hwfit__out_num(out, "tokens_per_s", rate_label, w->timed.tokens_per_s);
    } else {
        hwfit__out_null(out, "step_time_s", time_label);
        hwfit__out_null(out, "tokens_per_s", rate_label);
    }
    /* The largest card by phase (memory.h, "phases"). */
    hwfit__out_str(out, "peak_phase", "peak set by", hwfit__workload_phases[o.worst.peak_phase]);
    hwfit__out_bytes(out, "peak_allocated_bytes", "peak allocated", o.worst.allocated_bytes);
    hwfit__out_bytes(out, "peak_reserved_bytes", "peak reserved", o.worst.reserved_bytes);
    hwfit__out_bytes(out, "peak_bytes", "peak with overhead", o.worst.peak_bytes);
    hwfit__out_bytes(out, "sum_bytes", "sum of the parts", o.worst.total_bytes);
    hwfit__out_section(out, "phases", "phases of the largest card (allocated)");
    hwfit__out_bytes(out, "forward_bytes", "forward", o.worst.forward_bytes);
    hwfit__out_bytes(out, "backward_bytes", "backward", o.worst.backward_bytes);
    hwfit__out_bytes(out, "step_bytes", "optimizer step", o.worst.step_bytes);
    hwfit__out_bytes(out, "eval_bytes", "evaluation", o.worst.eval_bytes);
    hwfit__out_bytes(out, "load_bytes", "loading", o.worst.load_bytes);
    hwfit__out_u64(out, "loss_chunks", "loss chunks (fused-chunked)", o.worst.loss_chunks);
    hwfit__out_bytes(out, "loss_chunk_bytes", "in forward: one loss chunk's work",
                     o.worst.loss_chunk_bytes);
    hwfit__out_section_end(out);
    if (training) {
        hwfit_memory_in am = in.memory;
        am.recompute = o.layout.recompute; /* the layout's, searched or given */
        am.micro_batch = o.layout.micro_batch; /* and its micro-batch (the attention's kind) */
        hwfit__workload_out_assumptions(out, r, w->framework, &w->model, &am,
                                        hwfit__workload_recompute_source(r, w));
    }
    return HWFIT_OK;
}

const hwfit__command hwfit__cmd_fit = {
    .pub = {.name = "fit",
            .summary = "Does a model fit on N GPUs: per-card memory, fewest GPUs, longest "
                       "context, largest batch.",
            .details = "Serving or fine-tuning: per-card memory under the best layout (or the "
                       "one given). Options left out are searched; the fastest layout that fits is shown "
                       "(with gpu: training tokens/s at each layout's own global batch, the "
                       "shortest step at a given batch, or the decode rate; by memory headroom "
                       "with capacity only), or, when none fits, the one that misses least. A "
                       "card fits in capacity x utilization - reserve. min_gpus searches 1 to "
                       "max-gpus cards; max_context and max_batch hold the layout shown. The "
                       "CLI exits 1 when the workload does not fit. See docs/formulas.md, "
                       "\"shard\".",
            .formats = 1u << HWFIT_FORMAT_JSON | 1u << HWFIT_FORMAT_TEXT |
                       1u << HWFIT_FORMAT_SVG},
    .sets = {HWFIT__WORKLOAD_OPTIONS, HWFIT__GPU_FILE_OPTIONS, HWFIT__FRAMEWORK_OPTIONS,
             HWFIT__FRAMEWORK_EXTRA},
    .state_size = sizeof(fit_state),
    .run = run,
};

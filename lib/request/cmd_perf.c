/* cmd_perf.c - `perf`: prefill, decode and training throughput on a roofline. */
#include <string.h>

#include "workload.h"
#include "domains/perf_internal.h"

typedef struct perf_state {
    hwfit__workload w;
} perf_state;

/* A figure of the mode asked, or null for the other mode. */
static void num_or_null(hwfit__out *o, const char *key, const char *label, int ok, double v,
                        hwfit_unit unit) {
    if (!ok) hwfit__out_null(o, key, label);
    else if (unit == HWFIT_UNIT_NONE) hwfit__out_num(o, key, label, v);
    else hwfit__out_qty(o, key, label, v, unit);
}

static void pct_or_null(hwfit__out *o, const char *key, const char *label, int ok, double v) {
    if (ok) hwfit__out_pct(o, key, label, v);
    else hwfit__out_null(o, key, label);
}

static hwfit_status run(hwfit_request *r, hwfit__out *out, void *state) {
    perf_state *ps = state;
    hwfit__workload *w = &ps->w;
    hwfit_status st = hwfit__workload_read(r, w);
    if (st != HWFIT_OK) return st;
    if (w->card == NULL)
        return hwfit__req_fail(r, HWFIT__WOPT(HWFIT__W_GPU), HWFIT_EINVAL,
                               "is required: throughput needs the card's FLOPS and bandwidth "
                               "(see hwfit gpus)");
    const hwfit_model *m = &w->model;
    int training = w->training;

    /* Compute everything first. */
    hwfit_layout best;
    hwfit_shard_search_out sum;
    const char *ranked_by;
    if ((st = hwfit__workload_best(r, w, &best, &sum, &ranked_by)) != HWFIT_OK) return st;
    hwfit_perf_in in = w->perf;
    in.shard.layout = best;
    hwfit_perf_out o;
    st = hwfit__perf_estimate_scratch_at(&w->engine, m, &in, &o); /* o: this frame's */
    if (st == HWFIT_EUNSUPPORTED && in.precision != HWFIT_PERF_PRECISION_AUTO) {
        hwfit_problem p;
        if (hwfit__perf_validate_at(&w->engine, m, &in, &p) == st &&
            strcmp(p.field, "precision") == 0)
            return hwfit__req_fail(r, HWFIT__WOPT(HWFIT__W_PRECISION), st,
                                   "%s has no tensor throughput in %s", w->card->name,
                                   hwfit_perf_precision_name(in.precision));
    }
    if (st != HWFIT_OK) return hwfit__workload_refused(r, w, st, 1);

    hwfit__out_str(out, "model_type", "model type", m->name);
    hwfit__out_str(out, "gpu", "GPU", w->card->name);
    hwfit__out_u64(out, "gpus", "GPUs", in.shard.gpus);
    hwfit__out_str(out, "mode", "mode", hwfit__workload_modes[w->mode]);
    hwfit__out_str(out, "weights", "weight format", w->weights_name);
    hwfit__workload_out_stored(out, &w->model, w->weights_source);
    if (training) hwfit__out_null(out, "kv", "KV-cache format");
    else hwfit__out_str(out, "kv", "KV-cache format", w->kv_name);
    hwfit__out_u64(out, "context", training ? "sequence (tokens)" : "prompt (tokens)",
                   in.shard.memory.context);
    hwfit__out_u64(out, "batch", training ? "global batch" : "batch (sequences)",
                   training ? o.shard.layout.global_batch : in.shard.memory.batch);
    if (training) hwfit__out_str(out, "global_batch_source", "global batch from", w->batch_source);
    else hwfit__out_null(out, "global_batch_source", "global batch from");
    hwfit__out_str(out, "precision", "math format", hwfit_perf_precision_name(o.precision));
    hwfit__out_qty(out, "peak_flop_per_s", "peak per GPU", o.peak_flop_per_s,
                   HWFIT_UNIT_FLOP_PER_S);
    hwfit__out_qty(out, "memory_bandwidth_bytes_per_s", "memory bandwidth per GPU",
                   in.memory_bandwidth_bytes_per_s, HWFIT_UNIT_BYTES_PER_S);
    hwfit__workload_out_layout(out, &o.shard.layout);
    if (training)
        hwfit__out_str(out, "recompute_source", "recomputation from",
                       hwfit__workload_recompute_source(r, w));
    hwfit__out_str(out, "ranked_by", "layout chosen by", ranked_by);
    hwfit__out_bool(out, "fits", "fits in memory", o.shard.fits);
    hwfit__out_bytes(out, "per_gpu_bytes", "largest card (peak)", o.shard.worst.peak_bytes);
    int inf = !training;
    const hwfit_unit s = HWFIT_UNIT_SECONDS, none = HWFIT_UNIT_NONE;
    num_or_null(out, "prefill_s", "time to first token", inf, o.prefill_s, s);
    num_or_null(out, "prefill_compute_s", "  compute", inf, o.prefill_compute_s, s);
    num_or_null(out, "prefill_memory_s", "  memory", inf, o.prefill_memory_s, s);
    num_or_null(out, "prefill_comm_s", "  communication", inf, o.prefill_comm_s, s);
    num_or_null(out, "prefill_tokens_per_s", "prompt tokens/s", inf, o.prefill_tokens_per_s,
                none);
    if (inf) hwfit__out_u64(out, "decode_context", "decode KV length", o.decode_context);
    else hwfit__out_null(out, "decode_context", "decode KV length");
    num_or_null(out, "time_per_output_token_s", "time per output token", inf,
                o.time_per_output_token_s, s);
    num_or_null(out, "decode_tokens_per_s", "decode tokens/s (all sequences)", inf,
                o.decode_tokens_per_s, none);
    num_or_null(out, "decode_compute_s", "  compute (slowest stage)", inf, o.decode_compute_s, s);
    num_or_null(out, "decode_memory_s", "  memory", inf, o.decode_memory_s, s);
    num_or_null(out, "decode_comm_s", "  communication", inf, o.decode_comm_s, s);
    if (inf) hwfit__out_str(out, "bound", "decode bound by", hwfit_perf_bound_name(o.bound));
    else hwfit__out_null(out, "bound", "decode bound by");
    if (inf && o.compute_bound_batch)
        hwfit__out_u64(out, "compute_bound_batch", "compute-bound from batch",
                       o.compute_bound_batch);
    else hwfit__out_null(out, "compute_bound_batch", "compute-bound from batch");
    num_or_null(out, "offline_tokens_per_s", "output tokens/s with prefill",
                inf && in.output_tokens > 0, o.offline_tokens_per_s, none);
    num_or_null(out, "target_tokens_per_s", "target decode rate",
                inf && in.target_tokens_per_s > 0, in.target_tokens_per_s, none);
    if (inf && in.target_tokens_per_s > 0 && o.target_batch) {
        hwfit__out_u64(out, "target_batch", "batch for the target", o.target_batch);
        hwfit__out_bool(out, "target_fits", "that batch fits", o.target_fits);
    } else {
        hwfit__out_null(out, "target_batch", "batch for the target");
        hwfit__out_null(out, "target_fits", "that batch fits");
    }
    num_or_null(out, "step_time_s", "training step", training, o.step_time_s, s);
    num_or_null(out, "step_compute_s", "  compute", training, o.step_compute_s, s);
    num_or_null(out, "bubble_s", "  pipeline bubble", training, o.bubble_s, s);
    num_or_null(out, "tp_comm_s", "  tensor-parallel comm", training, o.tp_comm_s, s);
    num_or_null(out, "pp_comm_s", "  pipeline comm", training, o.pp_comm_s, s);
    num_or_null(out, "dp_comm_s", "  data-parallel comm", training, o.dp_comm_s, s);
    num_or_null(out, "ep_comm_s", "  expert comm", training, o.ep_comm_s, s);
    num_or_null(out, "offload_s", "  offload", training, o.offload_s, s);
    num_or_null(out, "tokens_per_s", "training tokens/s", training, o.tokens_per_s, none);
    num_or_null(out, "tokens_per_s_per_gpu", "  per GPU", training,
                in.shard.gpus ? o.tokens_per_s / (double)in.shard.gpus : 0.0, none);
    num_or_null(out, "model_flop_per_step", "model FLOPs per step", training,
                o.model_flop_per_step, HWFIT_UNIT_FLOP);
    pct_or_null(out, "mfu", "MFU", training, o.mfu);
    pct_or_null(out, "hfu", "HFU", training, o.hfu);
    /* The MoE load assumptions of the training step (null: dropless, or inference). */
    int moe = training && m->experts > 0;
    num_or_null(out, "moe_capacity_factor", "MoE capacity factor", moe && in.moe_capacity_given,
                in.moe_capacity_factor, none);
    num_or_null(out, "moe_imbalance", "MoE load imbalance", moe && !in.moe_capacity_given,
                in.moe_imbalance, none);
    if (training) hwfit__out_str(out, "schedule", "pipeline schedule", in.schedule ==
                                 HWFIT_PERF_SCHEDULE_ZB_H1 ? "zb-h1" : "1f1b");
    else hwfit__out_null(out, "schedule", "pipeline schedule");
    return HWFIT_OK;
}

const hwfit__command hwfit__cmd_perf = {
    .pub = {.name = "perf",
            .summary = "Prefill and decode tokens/s, training step time and MFU on a roofline.",
            .details = "Prefill time, time per output token and tokens per second of a batch, "
                       "the batch at which decode turns compute-bound; training step time, "
                       "tokens per second and MFU. Inference: context is the prompt length, batch the concurrent "
                       "sequences over all replicas; decode is timed at a KV length of context "
                       "+ output-tokens / 2. Training: context is the sequence length, batch "
                       "the global batch. Without a layout the fastest layout that fits is "
                       "used. Efficiencies and overlaps are assumptions with cited defaults; "
                       "see docs/formulas.md, \"perf\".",
            .formats = 1u << HWFIT_FORMAT_JSON | 1u << HWFIT_FORMAT_TEXT},
    .sets = {HWFIT__WORKLOAD_OPTIONS, HWFIT__GPU_FILE_OPTIONS, HWFIT__FRAMEWORK_OPTIONS,
             HWFIT__FRAMEWORK_EXTRA},
    .state_size = sizeof(perf_state),
    .run = run,
};

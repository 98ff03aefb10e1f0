/* cmd_plan.c - `plan`: the layouts of N cards that fit, best first. */
#include "workload.h"
#include "domains/perf_internal.h"

#define PLAN_MAX_TOP 1000

enum { O_TOP, O_THREADS };
static const hwfit_option options[] = {
    [O_TOP] = {.name = "top", .kind = HWFIT_OPTION_COUNT, .metavar = "K", .default_text = "10",
               .min = 1, .max = PLAN_MAX_TOP, .help = "layouts shown"},
    [O_THREADS] = {.name = "threads", .kind = HWFIT_OPTION_COUNT, .metavar = "N",
                   .default_text = "1", .min = 1, .max = HWFIT_PERF_MAX_THREADS,
                   .help = "threads that search the layouts ranked by time (with gpu); "
                           "the same results as one"},
};

static const hwfit__col cols[] = {
    {"rank", "#", 3},
    {"tp", "tp", 3},
    {"pp", "pp", 3},
    {"dp", "dp", 4},
    {"cp", "cp", 3},
    {"ep", "ep", 3},
    {"etp", "etp", 3},
    {"virtual_stages", "v", 2},
    {"sequence_parallel", "sp", 3},
    {"zero", "zero", 4},
    {"offload", "offload", 16},
    {"micro_batch", "mb", 4},
    {"global_batch", "gbs", 6},
    {"recompute", "recompute", 9},
    {"per_gpu_bytes", "largest card", 21},
    {"headroom_bytes", "headroom", 21},
    {"host_bytes", "host (offload)", 21},
    {"kv_tokens", "KV tokens", 12},
    {"worst_stage", "stage", 5},
    {"step_time_s", "step/token time", 15},
    {"tokens_per_s", "tokens/s", 12},
    {"mfu", "MFU", 6},
    {"bubble_s", "bubble", 9},
    {"peak_phase", "peak in", 8},
};

typedef struct plan_state {
    hwfit__workload w;
    hwfit_shard_result results[PLAN_MAX_TOP];
    hwfit_perf_result timed[PLAN_MAX_TOP];
} plan_state;

static hwfit_status run(hwfit_request *r, hwfit__out *out, void *state) {
    plan_state *ps = state;
    hwfit__workload *w = &ps->w;
    size_t top = (size_t)hwfit__req_u64(r, &options[O_TOP]); /* 1-1000 */
    uint32_t threads = (uint32_t)hwfit__req_u64(r, &options[O_THREADS]); /* 1-64 */
    w->default_batch = 1; /* every layout at one global batch (workload.h) */
    hwfit_status st = hwfit__workload_read(r, w);
    if (st != HWFIT_OK) return st;

    /* With the card's throughput, rank by training or decode tokens/s (perf); else by
     * memory headroom. */
    int training = w->training;
    hwfit_shard_search_out sum;
    const char *ranked_by = hwfit__workload_rank_name(w, &w->space);
    int by_time = w->card != NULL;
    if (!by_time && hwfit__req_given(r, &options[O_THREADS]))
        return hwfit__req_fail(r, &options[O_THREADS], HWFIT_EINVAL,
                               "needs gpu: it shares the search ranked by time; the search by "
                               "memory headroom runs on one thread");
    if (by_time) {
        w->perf.threads = threads;
        st = hwfit__perf_plan_at(&w->engine, &w->model, &w->perf, &w->space, ps->timed, top,
                                 &sum);
        if (st == HWFIT_EUNSUPPORTED) by_time = 0;
        else if (st != HWFIT_OK) return hwfit__workload_refused(r, w, st, 1);
    }
    if (!by_time) {
        ranked_by = "headroom";
        st = hwfit_shard_search(&w->model, &w->in, &w->space, ps->results, top, &sum);
        if (st == HWFIT_EUNSUPPORTED)
            return hwfit__req_fail(r, HWFIT__WOPT(HWFIT__W_WEIGHTS), st,
                                   "must be a plain format such as bf16: mode full trains the "
                                   "weights");
        if (st != HWFIT_OK) return hwfit__workload_refused(r, w, st, 0);
    }

    hwfit__out_str(out, "model_type", "model type", w->model.name);
    if (w->card) hwfit__out_str(out, "gpu", "GPU", w->card->name);
    else hwfit__out_null(out, "gpu", "GPU");
    hwfit__out_u64(out, "gpus", "GPUs", w->in.gpus);
    hwfit__out_str(out, "mode", "mode", hwfit__workload_modes[w->mode]);
    hwfit__out_str(out, "weights", "weight format", w->weights_name);
    hwfit__workload_out_stored(out, &w->model, w->weights_source);
    hwfit__out_u64(out, "visited", "combinations enumerated", sum.visited);
    hwfit__out_u64(out, "valid_layouts", "valid layouts", sum.valid);
    hwfit__out_u64(out, "fitting_layouts", "layouts that fit", sum.fitting);
    hwfit__out_str(out, "ranked_by", "ranked by", ranked_by);
    if (training) {
        uint64_t g = w->space.global_batch, tokens = 0;
        if (hwfit__mul_u64(g, w->in.memory.context, &tokens) != HWFIT_OK) tokens = UINT64_MAX;
        hwfit__out_u64(out, "global_batch", "global batch (all layouts)", g);
        hwfit__out_u64(out, "global_batch_tokens", "global batch (tokens)", tokens);
        hwfit__out_str(out, "global_batch_source", "global batch from", w->batch_source);
    } else {
        hwfit__out_null(out, "global_batch", "global batch (all layouts)");
        hwfit__out_null(out, "global_batch_tokens", "global batch (tokens)");
        hwfit__out_null(out, "global_batch_source", "global batch from");
    }
    hwfit__out_table(out, "layouts", NULL, cols, (int)HWFIT__COUNT_OF(cols));
    for (size_t i = 0; i < sum.count; i++) {
        const hwfit_shard_result *res = by_time ? &ps->timed[i].shard : &ps->results[i];
        const hwfit_layout *l = &res->layout;
        hwfit__out_row(out);
        hwfit__out_cell_u64(out, i + 1);
        hwfit__out_cell_u64(out, l->tp);
        hwfit__out_cell_u64(out, l->pp);
        hwfit__out_cell_u64(out, l->dp);
        hwfit__out_cell_u64(out, l->cp);
        hwfit__out_cell_u64(out, l->ep);
        hwfit__out_cell_u64(out, l->etp);
        hwfit__out_cell_u64(out, l->virtual_stages);
        hwfit__out_cell_bool(out, l->sequence_parallel);
        hwfit__out_cell_u64(out, l->zero_stage);
        hwfit__out_cell_str(out, hwfit__offload_name(l->offload));
        hwfit__out_cell_u64(out, l->micro_batch);
        hwfit__out_cell_u64(out, l->global_batch);
        hwfit__out_cell_str(out, hwfit__workload_recomputes[l->recompute]);
        hwfit__out_cell_qty(out, (double)res->per_gpu_bytes, HWFIT_UNIT_BYTES);
        hwfit__out_cell_qty(out, res->headroom_bytes, HWFIT_UNIT_BYTES);
        hwfit__out_cell_qty(out, (double)res->host_bytes, HWFIT_UNIT_BYTES);
        hwfit__out_cell_u64(out, res->kv_tokens);
        hwfit__out_cell_u64(out, res->worst_stage);
        if (by_time) {
            hwfit__out_cell_qty(out, ps->timed[i].step_time_s, HWFIT_UNIT_SECONDS);
            hwfit__out_cell_num(out, ps->timed[i].tokens_per_s);
            if (training) hwfit__out_cell_pct(out, ps->timed[i].mfu);
            else hwfit__out_cell_null(out);
            if (training) hwfit__out_cell_qty(out, ps->timed[i].bubble_s, HWFIT_UNIT_SECONDS);
            else hwfit__out_cell_null(out);
        } else {
            hwfit__out_cell_null(out);
            hwfit__out_cell_null(out);
            hwfit__out_cell_null(out);
            hwfit__out_cell_null(out);
        }
        /* The phase that sets the largest card's peak (memory.h, "phases"). */
        hwfit_shard_in x = w->in;
        x.layout = *l;
        hwfit_shard_out so;
        if (hwfit_shard_estimate(&w->model, &x, &so) == HWFIT_OK)
            hwfit__out_cell_str(out, hwfit__workload_phases[so.worst.peak_phase]);
        else
            hwfit__out_cell_null(out);
    }
    hwfit__out_table_end(out);
    return HWFIT_OK;
}

const hwfit__command hwfit__cmd_plan = {
    .pub = {.name = "plan",
            .summary = "The layouts (TP/PP/DP/EP, ZeRO, recompute) of N GPUs that fit, ranked.",
            .details = "Every valid layout of N cards for a workload, the ones that fit ranked "
                       "best first. Layout options given are held; the others are searched: tp, pp, dp, "
                       "ep, the ZeRO stage, recomputation, micro-batch (1-8) and sequence "
                       "parallelism. With gpu the layouts are ranked by perf's figures: "
                       "training, the shortest step at ONE global batch for every layout "
                       "(batch, else about 4M tokens: 4,194,304 / context sequences rounded "
                       "to a power of two, Llama 3's initial batch; a layout whose dp x "
                       "micro-batch does not divide it is not valid); the decode rate for "
                       "inference. With capacity only, by memory headroom on the largest card.",
            .formats = 1u << HWFIT_FORMAT_JSON | 1u << HWFIT_FORMAT_TEXT |
                       1u << HWFIT_FORMAT_CSV},
    .sets = {HWFIT__WORKLOAD_OPTIONS, HWFIT__SET(options), HWFIT__GPU_FILE_OPTIONS,
             HWFIT__FRAMEWORK_OPTIONS, HWFIT__FRAMEWORK_EXTRA},
    .state_size = sizeof(plan_state),
    .run = run,
};

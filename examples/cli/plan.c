/* plan.c - `hwfit plan`: the layouts of N cards that fit, best first. */
#include "workload.h"

#define PLAN_MAX_TOP 1000

static const cli_col cols[] = {
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
};

static hwfit_shard_result results[PLAN_MAX_TOP];
static hwfit_perf_result timed[PLAN_MAX_TOP];

int cmd_plan(int argc, char **argv) {
    static cli_workload w;
    cli_opt opts[CLI_WORKLOAD_NOPTS + 1];
    cli_workload_opts(&w, opts);
    uint64_t top = 10;
    opts[CLI_WORKLOAD_NOPTS] = (cli_opt){"top", CLI_U64, &top, "K",
                                         "layouts shown, 1-1000 (default 10)", 0, NULL, NULL};
    const cli_spec spec = {
        "plan",
        "Every valid layout of N cards for a workload, the ones that fit ranked best first.",
        "--config FILE --gpu NAME --gpus N [--mode inference|full|lora|qlora]\n"
        "       [--weights DTYPE] [--kv DTYPE] [--context T] [--batch B] [--tp N] [--pp N]\n"
        "       [--dp N] [--ep N] [--zero 0-3] [--offload optimizer|params] [--top K]",
        "Layout options given are held; the others are searched: tp, pp, dp, ep, the ZeRO\n"
        "stage, recomputation, micro-batch (1-8) and sequence parallelism. With --gpu the\n"
        "layouts are ranked by hwfit perf's figures: training tokens/s, each layout at its\n"
        "own global batch (gbs); the shortest step when --batch fixes the global batch;\n"
        "the decode rate for inference. With --capacity only, by memory headroom on the\n"
        "largest card.",
        opts, CLI_WORKLOAD_NOPTS + 1, 0, NULL};
    cli_args args;
    int rc = cli_parse(&spec, argc, argv, &args);
    if (rc != 0) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    if (top == 0 || top > PLAN_MAX_TOP) return cli_fail("plan", "--top must be 1 to 1000");
    w.spec = &spec;
    if ((rc = cli_workload_finish("plan", &w)) != 0) return rc;

    /* With the card's throughput, rank by training or decode tokens/s (hwfit perf);
     * else by memory headroom. */
    int training = w.in.memory.mode != HWFIT_MEMORY_INFERENCE;
    hwfit_shard_search_out sum;
    const char *ranked_by = cli_workload_rank_name(&w, &w.space);
    int by_time = w.card != NULL;
    hwfit_status st = HWFIT_EUNSUPPORTED;
    if (by_time) {
        st = hwfit_perf_plan(&w.model, &w.perf, &w.space, timed, (size_t)top, &sum);
        if (st == HWFIT_EUNSUPPORTED) by_time = 0;
        else if (st != HWFIT_OK) return cli_workload_refused("plan", &w, st, 1);
    }
    if (!by_time) {
        ranked_by = "headroom";
        st = hwfit_shard_search(&w.model, &w.in, &w.space, results, (size_t)top, &sum);
        if (st == HWFIT_EUNSUPPORTED)
            return cli_fail("plan", "--mode full trains the weights: --weights must be a plain "
                            "format such as bf16 (HWFIT_EUNSUPPORTED)");
        if (st != HWFIT_OK) return cli_workload_refused("plan", &w, st, 0);
    }

    cli_out out;
    out_begin(&out, args.json, NULL);
    out_str(&out, "model_type", "model type", w.model.name);
    if (w.card) out_str(&out, "gpu", "GPU", w.card->name);
    else out_null(&out, "gpu", "GPU");
    out_u64(&out, "gpus", "GPUs", w.in.gpus);
    out_str(&out, "mode", "mode", cli_workload_modes[w.mode]);
    out_u64(&out, "visited", "combinations enumerated", sum.visited);
    out_u64(&out, "valid_layouts", "valid layouts", sum.valid);
    out_u64(&out, "fitting_layouts", "layouts that fit", sum.fitting);
    out_str(&out, "ranked_by", "ranked by", ranked_by);
    out_table(&out, "layouts", NULL, cols, (int)(sizeof cols / sizeof cols[0]));
    for (size_t i = 0; i < sum.count; i++) {
        const hwfit_shard_result *r = by_time ? &timed[i].shard : &results[i];
        const hwfit_layout *l = &r->layout;
        out_row(&out);
        out_cell_u64(&out, i + 1);
        out_cell_u64(&out, l->tp);
        out_cell_u64(&out, l->pp);
        out_cell_u64(&out, l->dp);
        out_cell_u64(&out, l->cp);
        out_cell_u64(&out, l->ep);
        out_cell_u64(&out, l->etp);
        out_cell_u64(&out, l->virtual_stages);
        out_cell_bool(&out, l->sequence_parallel);
        out_cell_u64(&out, l->zero_stage);
        out_cell_str(&out, cli_offload_name(l->offload));
        out_cell_u64(&out, l->micro_batch);
        out_cell_u64(&out, l->global_batch);
        out_cell_str(&out, cli_workload_recomputes[l->recompute]);
        out_cell_qty(&out, (double)r->per_gpu_bytes, HWFIT_UNIT_BYTES);
        out_cell_qty(&out, r->headroom_bytes, HWFIT_UNIT_BYTES);
        out_cell_qty(&out, (double)r->host_bytes, HWFIT_UNIT_BYTES);
        out_cell_u64(&out, r->kv_tokens);
        out_cell_u64(&out, r->worst_stage);
        if (by_time) {
            out_cell_qty(&out, timed[i].step_time_s, HWFIT_UNIT_SECONDS);
            out_cell_num(&out, timed[i].tokens_per_s);
            if (training) out_cell_num(&out, timed[i].mfu);
            else out_cell_null(&out);
        } else {
            out_cell_null(&out);
            out_cell_null(&out);
            out_cell_null(&out);
        }
    }
    out_table_end(&out);
    out_end(&out);
    return CLI_EXIT_OK;
}

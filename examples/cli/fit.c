/* fit.c - `hwfit fit`: does a workload fit on N cards, card by card, and the inverse
 * questions (fewest cards, longest context, largest batch); --svg draws the cards. */
#include <stdlib.h>

#include "workload.h"

static const cli_col card_cols[] = {
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
};

static hwfit_shard_card cards[HWFIT_MODEL_MAX_LAYERS];

int cmd_fit(int argc, char **argv) {
    static cli_workload w;
    cli_opt opts[CLI_WORKLOAD_NOPTS + 1];
    cli_workload_opts(&w, opts);
    const char *svg_path = NULL;
    opts[CLI_WORKLOAD_NOPTS] = (cli_opt){"svg", CLI_STRING, &svg_path, "FILE",
                                         "also draw the memory of each card as an SVG chart",
                                         0, NULL, NULL};
    const cli_spec spec = {
        "fit",
        "Does a model fit on N cards for serving or fine-tuning? Per-card memory under the\n"
        "best layout (or the one given), the fewest cards, the longest context, the largest\n"
        "batch.",
        "--config FILE --gpu NAME --gpus N [--mode inference|full|lora|qlora]\n"
        "       [--weights DTYPE] [--kv DTYPE] [--context T] [--batch B] [--tp N] [--pp N]\n"
        "       [--dp N] [--ep N] [--zero 0-3] [--offload optimizer|params] [options]",
        "Options left out are searched; the fastest layout that fits is shown (with --gpu:\n"
        "training tokens/s at each layout's own global batch, the shortest step at a given\n"
        "--batch, or the decode rate; by memory headroom with --capacity only), or, when\n"
        "none fits, the one that misses least. A card fits in\n"
        "capacity x utilization - reserve. min_gpus searches 1 to --max-gpus cards;\n"
        "max_context and max_batch hold the layout shown. See docs/formulas.md, \"shard\".",
        opts, CLI_WORKLOAD_NOPTS + 1, 0, NULL};
    cli_args args;
    int rc = cli_parse(&spec, argc, argv, &args);
    if (rc != 0) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    w.spec = &spec;
    if ((rc = cli_workload_finish("fit", &w)) != 0) return rc;
    const hwfit_model *m = &w.model;
    int training = w.in.memory.mode != HWFIT_MEMORY_INFERENCE;

    /* Compute everything first. */
    hwfit_layout best;
    hwfit_shard_search_out sum;
    const char *ranked_by;
    if ((rc = cli_workload_best("fit", &w, &best, &sum, &ranked_by)) != 0) return rc;
    hwfit_shard_in in = w.in;
    in.layout = best;
    hwfit_shard_out o;
    hwfit_status st;
    if ((st = hwfit_shard_estimate(m, &in, &o)) != HWFIT_OK)
        return cli_fail_status("fit", "estimate", st);
    for (uint32_t s = 0; s < o.stages; s++)
        if ((st = hwfit_shard_card_at(m, &in, s, &cards[s])) != HWFIT_OK)
            return cli_fail_status("fit", "card", st);
    uint32_t min_gpus;
    if ((st = hwfit_shard_min_gpus(m, &w.in, &w.space, (uint32_t)w.max_gpus, &min_gpus, NULL)) !=
        HWFIT_OK)
        return cli_fail_status("fit", "min_gpus", st);
    uint64_t ctx_limit = m->max_context ? m->max_context : HWFIT_MODEL_MAX_SIZE;
    uint64_t max_context, max_batch;
    if ((st = hwfit_shard_max_context(m, &in, ctx_limit, &max_context)) != HWFIT_OK)
        return cli_fail_status("fit", "max_context", st);
    if ((st = hwfit_shard_max_batch(m, &in, training ? 65536 : 1048576, &max_batch)) !=
        HWFIT_OK)
        return cli_fail_status("fit", "max_batch", st);
    if (svg_path != NULL) {
        /* The chart of the layout shown, one bar per distinct card (chart.h). */
        size_t need = 0;
        st = hwfit_chart_memory(m, &in, NULL, NULL, 0, &need);
        char *svg = st == HWFIT_EBUFSIZE ? malloc(need) : NULL;
        if (svg != NULL) st = hwfit_chart_memory(m, &in, NULL, svg, need, NULL);
        if (st != HWFIT_OK) {
            free(svg);
            return cli_fail_status("fit", "--svg", st == HWFIT_EBUFSIZE ? HWFIT_ENOMEM : st);
        }
        rc = cli_write_file("fit", "svg", svg_path, svg);
        free(svg);
        if (rc != 0) return rc;
    }

    cli_out out;
    out_begin(&out, args.json, NULL);
    out_str(&out, "model_type", "model type", m->name);
    if (w.card) out_str(&out, "gpu", "GPU", w.card->name);
    else out_null(&out, "gpu", "GPU");
    out_u64(&out, "gpus", "GPUs", in.gpus);
    out_str(&out, "mode", "mode", cli_workload_modes[w.mode]);
    out_str(&out, "weights", "weight format", w.weights_name);
    if (training) out_null(&out, "kv", "KV-cache format");
    else out_str(&out, "kv", "KV-cache format", w.kv_name);
    out_u64(&out, "context", training ? "sequence (tokens)" : "context (tokens)",
            in.memory.context);
    out_u64(&out, "batch", training ? "global batch" : "batch (sequences)",
            training ? o.layout.global_batch : in.memory.batch);
    out_bool(&out, "fits", "fits", o.fits);
    out_bool(&out, "gpu_fits", "fits in GPU memory", o.gpu_fits);
    out_bool(&out, "host_fits", "fits in host memory", o.host_fits);
    out_bytes(&out, "per_gpu_bytes", "largest card", o.worst.total_bytes);
    out_bytes(&out, "gpu_capacity_bytes", "card capacity", o.capacity_bytes);
    out_bytes(&out, "usable_bytes", "usable per card", o.usable_bytes);
    out_qty(&out, "headroom_bytes", "headroom", o.headroom_bytes, HWFIT_UNIT_BYTES);
    cli_out_layout(&out, &o.layout);
    out_section(&out, "breakdown", "largest card");
    out_u64(&out, "stage", "pipeline stage", o.worst_stage);
    out_bytes(&out, "weights_bytes", "weights", o.worst.weights_bytes);
    out_bytes(&out, "kv_bytes", "KV cache", o.worst.kv_bytes);
    out_bytes(&out, "activation_bytes", "activations", o.worst.activation_bytes);
    out_bytes(&out, "gradient_bytes", "gradients", o.worst.gradient_bytes);
    out_bytes(&out, "optimizer_bytes", "optimizer states", o.worst.optimizer_bytes);
    out_bytes(&out, "buffer_bytes", "communication buffers", o.worst.buffer_bytes);
    out_bytes(&out, "overhead_bytes", "runtime overhead", o.worst.overhead_bytes);
    out_bytes(&out, "total_bytes", "total", o.worst.total_bytes);
    out_section_end(&out);
    out_table(&out, "cards", "cards by pipeline stage (every card of a stage is alike)",
              card_cols, (int)(sizeof card_cols / sizeof card_cols[0]));
    for (uint32_t s = 0; s < o.stages; s++) {
        const hwfit_shard_card *c = &cards[s];
        out_row(&out);
        out_cell_u64(&out, c->stage);
        out_cell_u64(&out, c->first_layer);
        out_cell_u64(&out, c->layers);
        out_cell_bool(&out, c->embedding);
        out_cell_bool(&out, c->head);
        out_cell_u64(&out, c->in_flight);
        const uint64_t parts[] = {c->weights_bytes,   c->kv_bytes,        c->activation_bytes,
                                  c->gradient_bytes,  c->optimizer_bytes, c->buffer_bytes,
                                  c->overhead_bytes,  c->total_bytes};
        for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++)
            out_cell_qty(&out, (double)parts[k], HWFIT_UNIT_BYTES);
    }
    out_table_end(&out);
    out_bytes(&out, "host_bytes", "host memory for offload", o.host_bytes);
    if (training) out_null(&out, "kv_tokens", "KV-cache tokens left");
    else out_u64(&out, "kv_tokens", "KV-cache tokens left", o.kv_tokens);
    if (min_gpus) out_u64(&out, "min_gpus", "fewest GPUs that fit", min_gpus);
    else out_null(&out, "min_gpus", "fewest GPUs that fit");
    out_u64(&out, "max_context", training ? "longest sequence" : "longest context",
            max_context);
    out_u64(&out, "max_batch", training ? "largest micro-batch" : "largest batch", max_batch);
    out_u64(&out, "valid_layouts", "valid layouts", sum.valid);
    out_u64(&out, "fitting_layouts", "layouts that fit", sum.fitting);
    out_str(&out, "ranked_by", "best layout by", ranked_by);
    /* The figures it was ranked by (hwfit perf), at the global batch shown. */
    const char *time_label = training ? "training step" : "time per output token";
    const char *rate_label = training ? "training tokens/s" : "decode tokens/s";
    if (w.timed_valid) {
        out_qty(&out, "step_time_s", time_label, w.timed.step_time_s, HWFIT_UNIT_SECONDS);
        out_num(&out, "tokens_per_s", rate_label, w.timed.tokens_per_s);
    } else {
        out_null(&out, "step_time_s", time_label);
        out_null(&out, "tokens_per_s", rate_label);
    }
    out_end(&out);
    return CLI_EXIT_OK;
}

/* perf.c - `hwfit perf`: prefill, decode and training throughput on a roofline. */
#include <string.h>

#include "workload.h"

static void num_or_null(cli_out *o, const char *key, const char *label, int ok, double v,
                        hwfit_unit unit) {
    if (!ok) out_null(o, key, label);
    else if (unit == HWFIT_UNIT_NONE) out_num(o, key, label, v);
    else out_qty(o, key, label, v, unit);
}

int cmd_perf(int argc, char **argv) {
    static cli_workload w;
    cli_opt opts[CLI_WORKLOAD_NOPTS];
    cli_workload_opts(&w, opts);
    const cli_spec spec = {
        "perf",
        "Throughput on a roofline: prefill time, time per output token and tokens per second\n"
        "of a batch, the batch at which decode turns compute-bound; training step time,\n"
        "tokens per second and MFU.",
        "--config FILE --gpu NAME --gpus N [--weights DTYPE] [--kv DTYPE] [--context T]\n"
        "       [--batch B] [--mode inference|full|lora|qlora] [--output-tokens N]\n"
        "       [--target-rate TOK/S] [layout options] [efficiency options]",
        "Inference: --context is the prompt length, --batch the concurrent sequences over all\n"
        "replicas; decode is timed at a KV length of context + output-tokens / 2. Training:\n"
        "--context is the sequence length, --batch the global batch. Without a layout the\n"
        "fastest layout that fits is used. Efficiencies and overlaps are assumptions with\n"
        "cited defaults; see docs/formulas.md, \"perf\".",
        opts, CLI_WORKLOAD_NOPTS, 0, NULL};
    cli_args args;
    int rc = cli_parse(&spec, argc, argv, &args);
    if (rc != 0) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    w.spec = &spec;
    if ((rc = cli_workload_finish("perf", &w)) != 0) return rc;
    if (w.card == NULL)
        return cli_fail("perf", "--gpu NAME is required: throughput needs the card's FLOPS and "
                        "bandwidth (see hwfit gpus)");
    const hwfit_model *m = &w.model;
    int training = w.in.memory.mode != HWFIT_MEMORY_INFERENCE;

    /* Compute everything first. */
    hwfit_layout best;
    hwfit_shard_search_out sum;
    const char *ranked_by;
    if ((rc = cli_workload_best("perf", &w, &best, &sum, &ranked_by)) != 0) return rc;
    hwfit_perf_in in = w.perf;
    in.shard.layout = best;
    hwfit_perf_out o;
    hwfit_status st = hwfit_perf_estimate(m, &in, &o);
    if (st == HWFIT_EUNSUPPORTED && hwfit_perf_validate(m, &in, NULL) == st &&
        in.precision != HWFIT_PERF_PRECISION_AUTO) {
        hwfit_problem p;
        (void)hwfit_perf_validate(m, &in, &p);
        if (strcmp(p.field, "precision") == 0)
            return cli_fail("perf", "--precision %s: %s has no tensor throughput in it "
                            "(HWFIT_EUNSUPPORTED)", hwfit_perf_precision_name(in.precision),
                            w.card->name);
    }
    if (st != HWFIT_OK) return cli_workload_refused("perf", &w, st, 1);

    cli_out out;
    out_begin(&out, args.json, NULL);
    out_str(&out, "model_type", "model type", m->name);
    out_str(&out, "gpu", "GPU", w.card->name);
    out_u64(&out, "gpus", "GPUs", in.shard.gpus);
    out_str(&out, "mode", "mode", cli_workload_modes[w.mode]);
    out_str(&out, "weights", "weight format", w.weights_name);
    if (training) out_null(&out, "kv", "KV-cache format");
    else out_str(&out, "kv", "KV-cache format", w.kv_name);
    out_u64(&out, "context", training ? "sequence (tokens)" : "prompt (tokens)",
            in.shard.memory.context);
    out_u64(&out, "batch", training ? "global batch" : "batch (sequences)",
            training ? o.shard.layout.global_batch : in.shard.memory.batch);
    out_str(&out, "precision", "math format", hwfit_perf_precision_name(o.precision));
    out_qty(&out, "peak_flop_per_s", "peak per GPU", o.peak_flop_per_s, HWFIT_UNIT_FLOP_PER_S);
    out_qty(&out, "memory_bandwidth_bytes_per_s", "memory bandwidth per GPU",
            in.memory_bandwidth_bytes_per_s, HWFIT_UNIT_BYTES_PER_S);
    cli_out_layout(&out, &o.shard.layout);
    out_str(&out, "ranked_by", "layout chosen by", ranked_by);
    out_bool(&out, "fits", "fits in memory", o.shard.fits);
    out_bytes(&out, "per_gpu_bytes", "largest card", o.shard.worst.total_bytes);
    int inf = !training;
    num_or_null(&out, "prefill_s", "time to first token", inf, o.prefill_s, HWFIT_UNIT_SECONDS);
    num_or_null(&out, "prefill_compute_s", "  compute", inf, o.prefill_compute_s,
                HWFIT_UNIT_SECONDS);
    num_or_null(&out, "prefill_memory_s", "  memory", inf, o.prefill_memory_s,
                HWFIT_UNIT_SECONDS);
    num_or_null(&out, "prefill_comm_s", "  communication", inf, o.prefill_comm_s,
                HWFIT_UNIT_SECONDS);
    num_or_null(&out, "prefill_tokens_per_s", "prompt tokens/s", inf, o.prefill_tokens_per_s,
                HWFIT_UNIT_NONE);
    if (inf) out_u64(&out, "decode_context", "decode KV length", o.decode_context);
    else out_null(&out, "decode_context", "decode KV length");
    num_or_null(&out, "time_per_output_token_s", "time per output token", inf,
                o.time_per_output_token_s, HWFIT_UNIT_SECONDS);
    num_or_null(&out, "decode_tokens_per_s", "decode tokens/s (all sequences)", inf,
                o.decode_tokens_per_s, HWFIT_UNIT_NONE);
    num_or_null(&out, "decode_compute_s", "  compute (slowest stage)", inf, o.decode_compute_s,
                HWFIT_UNIT_SECONDS);
    num_or_null(&out, "decode_memory_s", "  memory", inf, o.decode_memory_s, HWFIT_UNIT_SECONDS);
    num_or_null(&out, "decode_comm_s", "  communication", inf, o.decode_comm_s,
                HWFIT_UNIT_SECONDS);
    if (inf) out_str(&out, "bound", "decode bound by", hwfit_perf_bound_name(o.bound));
    else out_null(&out, "bound", "decode bound by");
    if (inf && o.compute_bound_batch)
        out_u64(&out, "compute_bound_batch", "compute-bound from batch", o.compute_bound_batch);
    else out_null(&out, "compute_bound_batch", "compute-bound from batch");
    num_or_null(&out, "offline_tokens_per_s", "output tokens/s with prefill",
                inf && in.output_tokens > 0, o.offline_tokens_per_s, HWFIT_UNIT_NONE);
    num_or_null(&out, "target_tokens_per_s", "target decode rate",
                inf && in.target_tokens_per_s > 0, in.target_tokens_per_s, HWFIT_UNIT_NONE);
    if (inf && in.target_tokens_per_s > 0 && o.target_batch) {
        out_u64(&out, "target_batch", "batch for the target", o.target_batch);
        out_bool(&out, "target_fits", "that batch fits", o.target_fits);
    } else {
        out_null(&out, "target_batch", "batch for the target");
        out_null(&out, "target_fits", "that batch fits");
    }
    num_or_null(&out, "step_time_s", "training step", training, o.step_time_s,
                HWFIT_UNIT_SECONDS);
    num_or_null(&out, "step_compute_s", "  compute", training, o.step_compute_s,
                HWFIT_UNIT_SECONDS);
    num_or_null(&out, "bubble_s", "  pipeline bubble", training, o.bubble_s, HWFIT_UNIT_SECONDS);
    num_or_null(&out, "tp_comm_s", "  tensor-parallel comm", training, o.tp_comm_s,
                HWFIT_UNIT_SECONDS);
    num_or_null(&out, "pp_comm_s", "  pipeline comm", training, o.pp_comm_s, HWFIT_UNIT_SECONDS);
    num_or_null(&out, "dp_comm_s", "  data-parallel comm", training, o.dp_comm_s,
                HWFIT_UNIT_SECONDS);
    num_or_null(&out, "ep_comm_s", "  expert comm", training, o.ep_comm_s, HWFIT_UNIT_SECONDS);
    num_or_null(&out, "offload_s", "  offload", training, o.offload_s, HWFIT_UNIT_SECONDS);
    num_or_null(&out, "tokens_per_s", "training tokens/s", training, o.tokens_per_s,
                HWFIT_UNIT_NONE);
    num_or_null(&out, "model_flop_per_step", "model FLOPs per step", training,
                o.model_flop_per_step, HWFIT_UNIT_FLOP);
    num_or_null(&out, "mfu", "MFU", training, o.mfu, HWFIT_UNIT_NONE);
    num_or_null(&out, "hfu", "HFU", training, o.hfu, HWFIT_UNIT_NONE);
    out_end(&out);
    return CLI_EXIT_OK;
}

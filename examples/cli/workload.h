/*
 * workload.h - the options `hwfit fit`, `hwfit plan` and `hwfit perf` share: a model, a
 * card, a workload and a (partial) layout, read into shard.h's inputs and search space.
 * Options left out are searched (tp, pp, dp, ep, ZeRO stage, recomputation, micro-batch,
 * sequence parallelism) or take the library defaults.
 */
#ifndef HWFIT_CLI_WORKLOAD_H
#define HWFIT_CLI_WORKLOAD_H

#include "cli.h"

typedef struct cli_workload {
    /* as given */
    const char *config, *gpu, *weights, *kv, *gradients, *offload, *lora_targets;
    int mode, optimizer, recompute, seen_recompute;
    uint64_t gpus, context, batch, micro_batch, tp, pp, dp, cp, ep, etp, vstages, zero;
    uint64_t lora_rank, prefill_chunk, max_gpus;
    int seen_zero, seen_context, seen_batch, sp, no_sp, uneven_off;
    double capacity, utilization, reserve, overhead, host_memory, host_factor;
    int seen_capacity, seen_overhead;
    /* the cluster and the throughput assumptions (perf.h) */
    const char *nic, *precision_name;
    int p2p;
    uint64_t gpus_per_node, output_tokens;
    double target_rate, prefill_eff, decode_eff, memory_eff, training_eff, step_overhead;
    double tp_overlap, pp_overlap, dp_overlap, ep_overlap;
    /* what the library makes of it */
    hwfit_model model;
    const hwfit_gpu *card;   /* NULL with --capacity only */
    hwfit_shard_in in;       /* the workload, gpus and card; layout from the options */
    hwfit_shard_space space; /* fixed where an option was given */
    hwfit_perf_in perf;      /* with the card (when --gpu is given), topology and in */
    int layout_given;        /* some layout option was given */
    hwfit_perf_result timed; /* cli_workload_best: the best layout's throughput, when
                                timed_valid (ranked by hwfit_perf_plan) */
    int timed_valid;
    const cli_spec *spec;    /* the subcommand's, for naming options in failures; set by
                                the subcommand after cli_parse */
    char weights_name[HWFIT_DTYPE_NAME_SIZE], kv_name[HWFIT_DTYPE_NAME_SIZE];
} cli_workload;

/* Number of cli_opt entries cli_workload_opts writes. */
#define CLI_WORKLOAD_NOPTS 49

extern const char *const cli_workload_modes[];
extern const char *const cli_workload_recomputes[];

/* Defaults into w; the option table into opts[0..CLI_WORKLOAD_NOPTS). */
void cli_workload_opts(cli_workload *w, cli_opt *opts);

/* After cli_parse: load the model and the card, fill w->in and w->space. Returns 0 or
 * the exit status of a failure (already reported). */
int cli_workload_finish(const char *command, cli_workload *w);

/* The layout the options name, dp derived from the card count when not given (for
 * reporting why it is invalid). */
void cli_workload_layout(const cli_workload *w, hwfit_layout *layout);

/* "optimizer", "params", "optimizer,params" or "none". */
const char *cli_offload_name(unsigned offload);

extern const char *const cli_workload_p2p_modes[];

/* The best layout of w->space: by hwfit_perf_plan's metric (training tokens/s at each
 * layout's own global batch, step time at a given --batch, or decode rate) when the card is
 * known and has the precision's throughput, else by memory headroom; layouts that fit
 * first, then the nearest miss. Fails (reported) when no layout is valid. ranked_by gets
 * hwfit_perf_rank_name's "training_rate", "step_time" or "decode_rate", or "headroom";
 * w->timed the layout's step time and tokens/s when ranked by throughput. */
int cli_workload_best(const char *command, cli_workload *w, hwfit_layout *best,
                      hwfit_shard_search_out *summary, const char **ranked_by);

/* Report a library refusal (status st of a search, plan or estimate of w) naming the
 * option at fault and its rule, through hwfit_perf_validate (timed != 0) or
 * hwfit_shard_validate on the layout the options name; an invalid layout as
 * "--tp 3: the 32 attention heads do not divide by 3". Returns the exit status. */
int cli_workload_refused(const char *command, const cli_workload *w, hwfit_status st,
                         int timed);

/* "training_rate", "step_time" or "decode_rate" (hwfit_perf_plan_rank) for w's space. */
const char *cli_workload_rank_name(const cli_workload *w, const hwfit_shard_space *space);

/* Print a layout as a section "layout" (JSON object or indented lines). */
void cli_out_layout(cli_out *o, const hwfit_layout *l);

#endif /* HWFIT_CLI_WORKLOAD_H */

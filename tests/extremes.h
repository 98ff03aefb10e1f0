/* extremes.h - the slowest documented extremes of each calculation, as requests (issue 21).
 *
 * One table, two users: tests/test_extremes.c runs every row that is not `bench_only` and
 * checks that it answers or refuses naming an option it was given (never a time), and
 * `hwfit_bench --extremes` (tests/bench/hwfit_bench.c) times every row (target: 100 ms).
 * docs/reliability.md lists the figures.
 *
 * A row is a command and its options as name/value pairs (NULL value: a flag). A value
 * "M:<file>" is a shipped model config (EXTREMES_DATA/models/<file>), "X:<file>" one of
 * the configs made for these limits (EXTREMES_DATA/extremes/<file>: a qwen3_moe model
 * with 2^24 experts, the limit of HWFIT_MODEL_MAX_DIM, and a llama-3.1-8b with 1,024
 * layers, HWFIT_MODEL_MAX_LAYERS). `bench_only` rows take seconds in a Debug build (the
 * training layout searches of large models on thousands of cards); in a Release build they
 * are within the 100 ms target too (docs/reliability.md, "Bounded time").
 */
#ifndef HWFIT_TESTS_EXTREMES_H
#define HWFIT_TESTS_EXTREMES_H

#include <stddef.h>

#define EXTREMES_MAX_OPTIONS 16

typedef struct extreme {
    const char *name;
    const char *command;
    int bench_only;
    const char *options[2 * EXTREMES_MAX_OPTIONS + 1]; /* name, value, ..., NULL */
} extreme;

#define H100 "gpu", "h100-sxm"
#define IB "nic", "8x400g-ib"
#define MOE16M "config", "X:moe-16m-experts.config.json"
#define DEEP "config", "X:dense-1024-layers.config.json"

static const extreme extremes[] = {
    /* model and memory: the largest counts and contexts */
    {"model_2^24_experts", "model", 0, {MOE16M, "context", "1099511627776", NULL}},
    {"model_1024_layers_max_context", "model", 0,
     {DEEP, "context", "18446744073709551615", "batch", "18446744073709551615", NULL}},
    {"memory_2^24_experts_training", "memory", 0,
     {MOE16M, "mode", "full", "context", "1M", "batch", "1024", NULL}},
    {"memory_1024_layers_qlora", "memory", 0,
     {DEEP, "mode", "qlora", "context", "1099511627776", NULL}},
    /* fit: the layout search, the fewest-cards search, longest context and largest batch */
    {"fit_2^24_experts", "fit", 0, {MOE16M, H100, NULL}},
    {"fit_2^24_experts_training_8_gpus", "fit", 0, {MOE16M, H100, "mode", "full", "gpus", "8",
                                                     NULL}},
    {"fit_2^24_experts_fits_nowhere_in_65536", "fit", 0,
     {MOE16M, H100, "max-gpus", "65536", NULL}},
    {"fit_2^24_experts_max_gpus", "fit", 0, /* fits on 114,688 (the counts below skipped by
                                               the weights' bound; 26,000 were searched) */
     {MOE16M, H100, "max-gpus", "1048576", NULL}},
    {"fit_405b_training_max_gpus", "fit", 0,
     {"config", "M:llama-3.1-405b.config.json", H100, "mode", "full", "max-gpus", "1048576",
      NULL}},
    {"fit_longest_context", "fit", 0,
     {"config", "M:llama-3.1-8b.config.json", H100, "context", "1099511627776", "long-context",
      NULL, NULL}},
    {"fit_1024_layers_16384_gpus", "fit", 0, {DEEP, H100, "gpus", "16384", IB, NULL}},
    {"fit_1024_layers_training_1024_gpus", "fit", 0, /* 0.3 s in the dev build */
     {DEEP, H100, "gpus", "1024", IB, "mode", "full", NULL}},
    {"fit_gpus_beyond_the_topology", "fit", 0,
     {"config", "M:llama-3.1-8b.config.json", H100, "gpus", "1048576", IB, NULL}},
    /* plan: the ranked search on 1,024 to 16,384 cards */
    {"plan_1024_layers_16384_gpus", "plan", 0, {DEEP, H100, "gpus", "16384", IB, NULL}},
    {"plan_2^24_experts_16384_gpus", "plan", 0, {MOE16M, H100, "gpus", "16384", IB, NULL}},
    {"plan_70b_training_1024_gpus_memory_only", "plan", 0,
     {"config", "M:llama-3.1-70b.config.json", "capacity", "80GB", "gpus", "1024", "mode",
      "full", NULL}},
    {"plan_405b_training_1024_gpus", "plan", 1,
     {"config", "M:llama-3.1-405b.config.json", H100, "gpus", "1024", IB, "mode", "full",
      NULL}},
    {"plan_405b_training_16384_gpus", "plan", 1,
     {"config", "M:llama-3.1-405b.config.json", H100, "gpus", "16384", IB, "mode", "full",
      NULL}},
    {"plan_deepseek_v3_training_16384_gpus", "plan", 1,
     {"config", "M:deepseek-v3.config.json", H100, "gpus", "16384", IB, "mode", "full", NULL}},
    /* perf: one layout, the deepest pipelines and interleaving */
    {"perf_1024_stages", "perf", 0,
     {DEEP, H100, "gpus", "16384", IB, "mode", "full", "tp", "8", "pp", "1024", "batch",
      "1048576", NULL}},
    {"perf_interleaved_8_chunks", "perf", 0,
     {DEEP, H100, "gpus", "1024", IB, "mode", "full", "tp", "8", "pp", "128",
      "virtual-stages", "8", "batch", "1048576", NULL}},
    {"perf_2^24_experts_ep_64", "perf", 0,
     {MOE16M, H100, "gpus", "64", IB, "ep", "64", "tp", "1", NULL}},
    /* serve */
    {"serve_longest_context", "serve", 0,
     {"config", "M:llama-3.1-8b.config.json", H100, "context", "1099511627776",
      "max-num-batched-tokens", "1099511627776", "max-num-seqs", "1073741824", NULL}},
    {"serve_1024_stages_8192_gpus", "serve", 0,
     {DEEP, H100, "gpus", "8192", "tp", "8", "pp", "1024", "gpus-per-node", "8", IB, NULL}},
    /* collective: the largest topology, a sweep over the whole size range */
    {"collective_sweep_65536_nodes", "collective", 0,
     {"gpus", "128", "nodes", "65536", IB, "sweep", NULL, "min-size", "1B", "size", "1e18B",
      NULL}},
    {"collective_alltoall_65536_nodes", "collective", 0,
     {"op", "alltoall", "gpus", "128", "nodes", "65536", IB, "size", "1e18B", NULL}},
    /* raid, power, host, transfer: the largest counts */
    {"raid_6_million_drives", "raid", 0,
     {"level", "6", "drives", "1000000", "drive-size", "30TB", "groups", "1000", NULL}},
    {"raid_draid_million_drives", "raid", 0,
     {"level", "draid3:8d:1000000c:4s", "drives", "1000000", "drive-size", "30TB", NULL}},
    {"raid_10_million_copies", "raid", 0,
     {"level", "10", "drives", "1000000", "drive-size", "1e18B", "copies", "1000000", NULL}},
    {"power_10000_psus", "power", 0,
     {"psus", "10000", "psu-watts", "1e9W", "component", "gpu:1000000:1000W", NULL}},
    {"host_largest_counts", "host", 0,
     {"cores", "18446744073709551615", "gpus", "18446744073709551615", "channels",
      "18446744073709551615", "dimms", "18446744073709551615", "mts", "100000", "lanes",
      "18446744073709551615", NULL}},
    {"transfer_1e24_bytes", "transfer", 0, {"size", "1e24B", "rate", "1B/s", NULL}},
};

#undef H100
#undef IB
#undef MOE16M
#undef DEEP

#define EXTREMES_COUNT (sizeof extremes / sizeof extremes[0])

#endif

/*
 * fit_check.c - the question a scheduler asks: does this model fit on these cards, and how
 * long a context could it serve?
 *
 *   fit_check CONFIG.json GPU-NAME GPUS [TP]
 *   fit_check tests/data/models/llama-3.1-70b.config.json rtx-pro-6000-server 8 8
 *
 * Uses only the public API: load a Hugging Face config, look up the card, describe the
 * workload (inference in bf16 at a 128K context), estimate the per-card footprint of a
 * tensor-parallel layout, then ask for the longest context that fits.
 */
#include <hwfit.h>
#include <stdio.h>
#include <stdlib.h>

static int fail(const char *what, hwfit_status st) {
    fprintf(stderr, "fit_check: %s: %s: %s\n", what, hwfit_status_name(st), hwfit_status_str(st));
    return 2;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: fit_check CONFIG.json GPU-NAME GPUS [TP]\n");
        return 2;
    }
    hwfit_model model;
    hwfit_error err;
    hwfit_status st = hwfit_hf_config_load(argv[1], &model, &err);
    if (st != HWFIT_OK) {
        fprintf(stderr, "fit_check: %s\n", err.message);
        return 2;
    }
    const hwfit_gpu *gpu;
    if ((st = hwfit_gpu_find(argv[2], &gpu)) != HWFIT_OK) return fail(argv[2], st);
    unsigned long gpus = strtoul(argv[3], NULL, 10);
    unsigned long tp = argc > 4 ? strtoul(argv[4], NULL, 10) : gpus;

    hwfit_shard_in in;
    hwfit_shard_init(&in);                 /* defaults: inference, bf16 weights and KV */
    in.memory.context = 131072;            /* a 128K context */
    in.gpus = (uint32_t)gpus;
    in.capacity_bytes = gpu->memory_bytes; /* the card's memory */
    in.layout.tp = (uint32_t)tp;           /* tensor parallel over tp cards ... */
    in.layout.dp = (uint32_t)(gpus / tp);  /* ... and replicas over the rest */

    hwfit_shard_out out;
    if ((st = hwfit_shard_estimate(&model, &in, &out)) != HWFIT_OK) return fail("estimate", st);
    /* Up to the context the model was configured for (2^24 tokens when the config says
     * nothing). */
    uint64_t longest = 0, limit = model.max_context ? model.max_context : 1u << 24;
    if ((st = hwfit_shard_max_context(&model, &in, limit, &longest)) != HWFIT_OK)
        return fail("max context", st);

    char used[64], usable[64];
    hwfit_units_format((double)out.worst.total_bytes, HWFIT_UNIT_BYTES, used, sizeof used);
    hwfit_units_format((double)out.usable_bytes, HWFIT_UNIT_BYTES, usable, sizeof usable);
    printf("%s on %lu x %s (TP %lu), 128K context: %s per card of %s usable: %s\n", argv[1],
           gpus, gpu->name, tp, used, usable, out.fits ? "fits" : "does not fit");
    printf("longest context that fits: %llu tokens (the model allows %llu)\n",
           (unsigned long long)longest, (unsigned long long)limit);
    return out.fits ? 0 : 1;
}

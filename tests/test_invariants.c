/* invariants: random valid inputs (a fixed seed, a few thousand cases) through memory, fit
 * (shard), perf, collective and power, checking what must hold whatever the input (issue 21):
 * - memory: the total is the sum of the parts;
 * - fit: a card's total is the sum of its seven parts; it fits on the GPU iff its peak is at
 *   most the usable bytes, and fits iff it fits on the GPU and in host memory; the headroom
 *   is usable - peak;
 * - more cards (twice the replicas and twice the batch, a dense model) never raise the
 *   per-card peak under the same layout;
 * - perf: MFU <= HFU <= 1; a decode step is no shorter than its compute or memory time
 *   (the rate is below the compute and bandwidth bounds);
 * - collective: on one node busbw is at most twice the bounding resource's one-way rate
 *   (rings in both directions), the time at least its bandwidth part, algbw x factor =
 *   busbw;
 * - power: the wall draw is at least the DC load.
 * The number of cases checked is printed. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hwfit.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t next(void) { /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}
static uint64_t pick(uint64_t n) { return next() % n; }
static double uniform(double lo, double hi) {
    return lo + (hi - lo) * (double)(next() >> 11) / 9007199254740992.0;
}

static const char *const model_files[] = {
    "llama-3.1-8b", "llama-3.1-70b", "qwen2.5-7b-instruct", "gemma-2-9b-it",
    "mixtral-8x7b-instruct-v0.1", "qwen3-coder-30b-a3b-instruct", "deepseek-coder-v2-lite-base",
};
#define MODELS (sizeof model_files / sizeof model_files[0])
static hwfit_model models[MODELS];

static void load_models(void) {
    for (size_t i = 0; i < MODELS; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/models/%s.config.json", HWFIT_TEST_DATA, model_files[i]);
        hwfit_error err;
        cr_assert_eq(hwfit_hf_config_load(path, &models[i], &err), HWFIT_OK, "%s", err.message);
    }
}

static const char *const cards[] = {"h100-sxm", "a100-sxm-80gb", "rtx-4090", "mi300x",
                                    "l40s"};

static uint64_t sum_card(const hwfit_shard_card *c) {
    return c->weights_bytes + c->kv_bytes + c->activation_bytes + c->gradient_bytes +
           c->optimizer_bytes + c->buffer_bytes + c->overhead_bytes;
}

/* A random workload on a random layout of the iterator; 0 when the model has none. */
static int random_shard(const hwfit_model *m, hwfit_shard_in *in) {
    hwfit_shard_init(in);
    static const uint32_t gpus[] = {1, 2, 4, 8, 16};
    in->gpus = gpus[pick(5)];
    static const hwfit_memory_mode modes[] = {HWFIT_MEMORY_INFERENCE, HWFIT_MEMORY_INFERENCE,
                                              HWFIT_MEMORY_FULL, HWFIT_MEMORY_LORA};
    in->memory.mode = modes[pick(4)];
    in->memory.context = 256u << pick(8);
    in->memory.batch = 1 + pick(16);
    in->capacity_bytes = uniform(16e9, 192e9);
    in->utilization = uniform(0.5, 0.95);
    hwfit_shard_space space;
    hwfit_shard_space_init(&space);
    space.max_micro_batch = 2;
    space.max_virtual_stages = 2;
    hwfit_shard_iter it;
    if (hwfit_shard_iter_init(&it, m, in, &space) != HWFIT_OK) return 0;
    hwfit_layout l, chosen;
    uint64_t n = 0, want = pick(64);
    while (hwfit_shard_iter_next(&it, &l)) {
        chosen = l;
        if (n++ == want) break;
    }
    if (n == 0) return 0;
    in->layout = chosen;
    return 1;
}

Test(invariants, random_valid_inputs) {
    load_models();
    size_t memory_cases = 0, fit_cases = 0, replica_cases = 0, perf_cases = 0,
           collective_cases = 0, power_cases = 0;

    for (int k = 0; k < 3000; k++) {
        const hwfit_model *m = &models[pick(MODELS)];
        /* memory on one device */
        hwfit_memory_in mi;
        hwfit_memory_init(&mi);
        mi.mode = (hwfit_memory_mode)pick(3); /* inference, full, lora */
        mi.context = 128u << pick(10);
        mi.batch = 1 + pick(8);
        hwfit_memory_out mo;
        if (hwfit_memory_estimate(m, &mi, &mo) == HWFIT_OK) {
            cr_assert_eq(mo.total_bytes, mo.weights_bytes + mo.kv_bytes + mo.activation_bytes +
                                             mo.gradient_bytes + mo.optimizer_bytes +
                                             mo.overhead_bytes, "memory case %d", k);
            memory_cases++;
        }

        /* fit */
        hwfit_shard_in in;
        if (!random_shard(m, &in)) continue;
        hwfit_shard_out o;
        if (hwfit_shard_estimate(m, &in, &o) != HWFIT_OK) continue;
        cr_assert_eq(o.worst.total_bytes, sum_card(&o.worst), "case %d", k);
        cr_assert_eq(o.gpu_fits, o.worst.peak_bytes <= o.usable_bytes, "case %d", k);
        cr_assert_eq(o.fits, o.gpu_fits && o.host_fits, "case %d", k);
        cr_assert(fabs(o.headroom_bytes - ((double)o.usable_bytes - (double)o.worst.peak_bytes)) <=
                      1.0, "case %d", k);
        for (uint32_t s = 0; s < o.stages && s < 4; s++) {
            hwfit_shard_card c;
            cr_assert_eq(hwfit_shard_card_at(m, &in, s, &c), HWFIT_OK);
            cr_assert_eq(c.total_bytes, sum_card(&c));
            cr_assert_leq(c.peak_bytes, o.worst.peak_bytes, "case %d stage %u", k, s);
        }
        fit_cases++;

        /* twice the replicas and the batch: never more per card (dense models; an MoE's
         * expert-data-parallel group may appear and add a communicator) */
        if (m->experts == 0 && in.gpus <= 8 && in.layout.global_batch == 0) {
            hwfit_shard_in two = in;
            two.gpus *= 2;
            two.layout.dp *= 2;
            two.memory.batch *= 2;
            hwfit_shard_out o2;
            if (hwfit_shard_estimate(m, &two, &o2) == HWFIT_OK) {
                cr_assert_leq(o2.worst.peak_bytes, o.worst.peak_bytes,
                              "case %d: %u GPUs %llu B, twice %llu B", k, in.gpus,
                              (unsigned long long)o.worst.peak_bytes,
                              (unsigned long long)o2.worst.peak_bytes);
                replica_cases++;
            }
        }

        /* perf on a card */
        hwfit_perf_in p;
        hwfit_perf_init(&p);
        const hwfit_gpu *g = NULL;
        cr_assert_eq(hwfit_gpu_find(cards[pick(sizeof cards / sizeof cards[0])], &g), HWFIT_OK);
        cr_assert_eq(hwfit_perf_set_gpu(&p, g), HWFIT_OK);
        p.shard.memory = in.memory;
        p.shard.gpus = in.gpus;
        p.shard.layout = in.layout;
        p.shard.utilization = in.utilization;
        p.topology.gpus_per_node = 8;
        if (in.gpus > 8 && hwfit_topology_parse_nic("8x400g-ib", &p.topology) != HWFIT_OK)
            continue;
        hwfit_perf_out po;
        if (hwfit_perf_estimate(m, &p, &po) != HWFIT_OK) continue;
        if (in.memory.mode == HWFIT_MEMORY_INFERENCE) {
            double step = po.time_per_output_token_s;
            cr_assert(step >= po.decode_compute_s * (1 - 1e-9) &&
                          step >= po.decode_memory_s * (1 - 1e-9),
                      "case %d: step %g s, compute %g s, memory %g s", k, step,
                      po.decode_compute_s, po.decode_memory_s);
            cr_assert(po.decode_tokens_per_s * step <= (double)in.memory.batch * (1 + 1e-9));
        } else {
            cr_assert(po.mfu > 0.0 && po.mfu <= po.hfu * (1 + 1e-12) && po.hfu <= 1.0,
                      "case %d: mfu %g hfu %g", k, po.mfu, po.hfu);
        }
        perf_cases++;
    }

    /* collectives */
    for (int k = 0; k < 1500; k++) {
        hwfit_collective_in c;
        hwfit_collective_init(&c);
        const hwfit_gpu *g = NULL;
        cr_assert_eq(hwfit_gpu_find(cards[pick(sizeof cards / sizeof cards[0])], &g), HWFIT_OK);
        hwfit_topology_set_gpu(&c.topology, g);
        static const uint32_t per_node[] = {2, 4, 8};
        c.topology.gpus_per_node = per_node[pick(3)];
        c.topology.nodes = 1u << pick(6);
        if (c.topology.nodes > 1 &&
            hwfit_topology_parse_nic(pick(2) ? "8x400g-ib" : "2x200g-roce", &c.topology) != HWFIT_OK)
            continue;
        c.op = (hwfit_collective_op)pick(7);
        c.bytes = ldexp(1.0, (int)pick(36));
        hwfit_collective_out o;
        if (hwfit_collective_estimate(&c, &o) != HWFIT_OK) continue;
        /* The bounding resource's rate is one direction of a link: rings run both ways
         * (each card's inter-node traffic splits over its send and receive sides), so
         * busbw may reach twice it, never more. */
        /* (Across nodes, trees and hierarchical all-reduces move less than S per card over
         * the slowest hop, and their busbw, a ring's measure, may exceed it: checked on one
         * node only.) */
        cr_assert(c.topology.nodes > 1 ||
                      o.busbw_bytes_per_s <= 2.0 * o.bottleneck_bytes_per_s * (1 + 1e-9),
                  "collective %d: op %d %s %u x %u, %g B: busbw %g above the bound %g", k, (int)c.op, g->name, (unsigned)c.topology.nodes, (unsigned)c.topology.gpus_per_node, c.bytes, o.busbw_bytes_per_s,
                  o.bottleneck_bytes_per_s);
        cr_assert(o.time_s >= o.bandwidth_time_s * (1 - 1e-12));
        cr_assert(fabs(o.algbw_bytes_per_s * o.busbw_factor - o.busbw_bytes_per_s) <=
                  1e-9 * o.busbw_bytes_per_s);
        collective_cases++;
    }

    /* power */
    for (int k = 0; k < 1000; k++) {
        hwfit_psu_in psu;
        hwfit_psu_init(&psu);
        psu.psus = 1 + pick(8);
        psu.redundant = pick(psu.psus);
        psu.psu_rating_w = uniform(800, 3500);
        psu.load_w = uniform(100, 20000);
        hwfit_psu_out po;
        if (hwfit_psu_evaluate(&psu, &po) != HWFIT_OK) continue;
        cr_assert(po.wall_w >= psu.load_w, "power %d: wall %g W below the load %g W", k,
                  po.wall_w, psu.load_w);
        power_cases++;
    }

    printf("invariants: %zu memory, %zu fit, %zu replica, %zu perf, %zu collective, %zu "
           "power cases\n",
           memory_cases, fit_cases, replica_cases, perf_cases, collective_cases, power_cases);
    cr_assert_gt(fit_cases, 1000);
    cr_assert_gt(perf_cases, 600);
    cr_assert_gt(collective_cases, 500);
    cr_assert_gt(power_cases, 300);
}

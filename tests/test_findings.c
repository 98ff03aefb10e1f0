/* Regression tests for what the fuzz targets (tests/fuzz/) and the hostile-input test
 * (tests/test_hostile.c) found, one test per finding, each with the input reduced by hand.
 * The crashing inputs themselves are kept in tests/fuzz/corpus/<target>/ under a name that
 * starts with "finding-", so the replay tests run them too.
 *
 * Most findings share a cause: an input that need only be positive ("> 0") can be 1e-308,
 * and a quotient by it overflows to infinity while the call reported HWFIT_OK. The fix is
 * to check results before returning them and report HWFIT_ERANGE with the field. */
#include <criterion/criterion.h>
#include <float.h>
#include <string.h>

#include "hwfit.h"
#include "base/internal.h"

#define TINY DBL_MIN /* positive, finite (2.2e-308), and small enough to overflow a quotient */

/* status st with field `field`, output untouched (out poisoned with 0x5a before). */
static void refused(hwfit_status got, hwfit_status st, const hwfit_problem *p,
                    const char *field, const void *out, size_t size) {
    cr_assert_eq(got, st, "got %s", hwfit_status_name(got));
    cr_assert_eq(p->status, st);
    cr_assert_str_eq(p->field, field);
    const unsigned char *b = out;
    for (size_t i = 0; i < size; i++) cr_assert_eq(b[i], 0x5a, "output byte %zu written", i);
}

/* fuzz_calc_infra: a transfer at 1e-300 B/s took "inf" seconds with HWFIT_OK. */
Test(findings, transfer_at_a_tiny_rate_is_erange_not_infinite) {
    hwfit_transfer_in in;
    hwfit_transfer_init(&in);
    in.bytes = 1e12;
    in.rate_bytes_per_s = TINY;
    hwfit_transfer_out out;
    hwfit_problem p;
    memset(&out, 0x5a, sizeof out);
    refused(hwfit_transfer_estimate(&in, &out), HWFIT_ERANGE, (hwfit_transfer_validate(&in, &p), &p),
            "rate_bytes_per_s", &out, sizeof out);
    in.rate_bytes_per_s = 1e9;
    in.capacity_bytes = TINY; /* the fill fraction overflowed the same way */
    refused(hwfit_transfer_estimate(&in, &out), HWFIT_ERANGE, (hwfit_transfer_validate(&in, &p), &p),
            "capacity_bytes", &out, sizeof out);
}

/* fuzz_calc_infra: air of density 1e-300 kg/m^3 gave an infinite airflow with HWFIT_OK. */
Test(findings, airflow_through_near_vacuum_is_erange) {
    hwfit_thermal_in in;
    hwfit_thermal_init(&in);
    in.heat_w = 6000;
    in.air_density_kg_per_m3 = TINY;
    hwfit_thermal_out out;
    hwfit_problem p;
    memset(&out, 0x5a, sizeof out);
    refused(hwfit_thermal_evaluate(&in, &out), HWFIT_ERANGE, (hwfit_thermal_validate(&in, &p), &p),
            "air_density_kg_per_m3", &out, sizeof out);
}

/* fuzz_calc_infra: dRAID with draid_data near 2^64 wrapped d + p to a small number, passed
 * the shape check and divided by zero (UBSan: division by zero in resolve_shape). */
Test(findings, draid_data_near_2_64_is_too_few_drives_not_a_division_by_zero) {
    hwfit_raid_in in;
    hwfit_raid_init(&in);
    in.layout.level = HWFIT_STORAGE_DRAID2;
    in.layout.draid_data = UINT64_MAX - 1; /* + parity 2 wraps to 0 */
    in.drives = 11;
    in.drive_bytes = 1e12;
    hwfit_raid_out out;
    hwfit_problem p;
    memset(&out, 0x5a, sizeof out);
    refused(hwfit_raid_evaluate(&in, &out), HWFIT_EDOM, (hwfit_raid_validate(&in, &p), &p),
            "drives", &out, sizeof out);
}

/* The same overflow, found by review of every quotient by a "> 0" input after the first
 * two findings: PSU load and rating, energy hours, TCO utilisation, RAID rebuild rate and
 * MTTF, host VRAM. */
Test(findings, psu_with_a_tiny_load_is_erange) {
    hwfit_psu_in in;
    hwfit_psu_init(&in);
    in.psus = 4;
    in.psu_rating_w = 3200;
    in.load_w = TINY; /* usable / load overflows */
    hwfit_psu_out out;
    hwfit_problem p;
    memset(&out, 0x5a, sizeof out);
    refused(hwfit_psu_evaluate(&in, &out), HWFIT_ERANGE, (hwfit_psu_validate(&in, &p), &p),
            "load_w", &out, sizeof out);
}

/* Reviewed and bounded rather than refused: the cost per hour is average power x PUE x
 * price / 1000 whatever the hours, so a tiny year cannot overflow it. */
Test(findings, energy_over_a_tiny_year_stays_finite) {
    hwfit_energy_in in;
    hwfit_energy_init(&in);
    in.power_w = 1e9;
    in.pue = 10;
    in.price_per_kwh = 1e6;
    const double hours[] = {DBL_MIN, 4.9e-324, 1e-300, 1e-10};
    for (size_t i = 0; i < sizeof hours / sizeof hours[0]; i++) {
        in.hours_per_year = hours[i];
        hwfit_energy_out out;
        cr_assert_eq(hwfit_energy_evaluate(&in, &out), HWFIT_OK);
        cr_assert(hwfit__finite(out.cost_per_hour) && out.cost_per_hour <= 1e13);
    }
}

Test(findings, tco_at_a_tiny_utilisation_is_erange) {
    hwfit_tco_in in;
    hwfit_tco_init(&in);
    in.capex = 300000;
    in.utilization = TINY;
    hwfit_tco_out out;
    hwfit_problem p;
    memset(&out, 0x5a, sizeof out);
    refused(hwfit_tco_evaluate(&in, &out), HWFIT_ERANGE, (hwfit_tco_validate(&in, &p), &p),
            "utilization", &out, sizeof out);
}

Test(findings, raid_rebuild_at_a_tiny_rate_is_erange) {
    hwfit_raid_in in;
    hwfit_raid_init(&in);
    in.layout.level = HWFIT_STORAGE_RAID1;
    in.drives = 2;
    in.drive_bytes = 1e12;
    in.rebuild_bytes_per_s = TINY; /* rebuild time overflows, the MTTDL underflows to 0 */
    hwfit_raid_out out;
    hwfit_problem p;
    memset(&out, 0x5a, sizeof out);
    hwfit_status st = hwfit_raid_evaluate(&in, &out);
    (void)hwfit_raid_validate(&in, &p);
    cr_assert_eq(st, HWFIT_ERANGE);
    cr_assert_eq(p.status, HWFIT_ERANGE);
    unsigned char poison[sizeof out];
    memset(poison, 0x5a, sizeof poison);
    cr_assert(memcmp(&out, poison, sizeof out) == 0);
    in.rebuild_bytes_per_s = 1e9;
    in.drive_mttf_s = TINY; /* the MTTDL underflows to 0: loss probability was NaN */
    st = hwfit_raid_evaluate(&in, &out);
    cr_assert_eq(st, HWFIT_ERANGE);
}

Test(findings, host_with_a_tiny_vram_is_erange) {
    hwfit_host_in in;
    hwfit_host_init(&in);
    in.ram_bytes = 1e12;
    in.vram_bytes = TINY;
    hwfit_host_out out;
    hwfit_problem p;
    memset(&out, 0x5a, sizeof out);
    refused(hwfit_host_evaluate(&in, &out), HWFIT_ERANGE, (hwfit_host_validate(&in, &p), &p),
            "vram_bytes", &out, sizeof out);
}

/* fuzz_calc_shard: hwfit_shard_max_context with a limit below the context step (cp x tp
 * with sequence parallelism) returned HWFIT_OK and 0 without looking at the input, so a
 * layout with tp = 0 (HWFIT_EDOM for every other shard function) or an invalid layout
 * (HWFIT_ELAYOUT) was answered "nothing fits" instead of being refused. */
Test(findings, max_context_below_the_step_still_refuses_a_bad_layout) {
    hwfit_model m;
    hwfit_model_init(&m);
    m.hidden = 1024;
    m.heads = 16;
    m.kv_heads = 4;
    m.intermediate = 4096;
    m.vocab = 32000;
    m.layers = 8;
    hwfit_shard_in in;
    hwfit_shard_init(&in);
    in.capacity_bytes = 80e9;
    in.layout.cp = 4;
    in.layout.tp = 0; /* out of range */
    in.gpus = 4;
    uint64_t r = 0x5a5a5a5a;
    cr_assert_eq(hwfit_shard_max_context(&m, &in, 1, &r), HWFIT_EDOM);
    cr_assert_eq(r, 0x5a5a5a5a, "output written on error");
    in.layout.tp = 3; /* 16 heads do not divide by 3 */
    in.gpus = 12;
    cr_assert_eq(hwfit_shard_max_context(&m, &in, 3, &r), HWFIT_ELAYOUT);
    cr_assert_eq(r, 0x5a5a5a5a, "output written on error");
    in.layout.tp = 1; /* valid: a limit below the step of 4 fits no context */
    in.gpus = 4;
    cr_assert_eq(hwfit_shard_max_context(&m, &in, 3, &r), HWFIT_OK);
    cr_assert_eq(r, 0);
    cr_assert_eq(hwfit_shard_max_context(&m, &in, 4096, &r), HWFIT_OK);
    cr_assert_eq(r, 4096, "a small model fits 4096 tokens on 80 GB cards");
}

/* fuzz_svg: a stacked-bar chart whose largest value was subnormal (5.6e-309) got a tick
 * step 10^-309 that underflowed to 0, no ticks at all, and read ticks[-1] (UBSan: index
 * out of bounds in ticks_linear). Such an axis is now drawn from 0 to 1. */
Test(findings, a_subnormal_largest_value_still_gets_a_value_axis) {
    const char *bars[] = {"a"}, *segs[] = {"s"};
    double v[] = {5.56268e-309};
    hwfit_svg_stacked_bars_in in;
    hwfit_svg_stacked_bars_init(&in);
    in.bar_count = 1;
    in.bar_labels = bars;
    in.segment_count = 1;
    in.segment_labels = segs;
    in.values = v;
    char buf[32768];
    size_t needed = 0;
    cr_assert_eq(hwfit_svg_stacked_bars(&in, buf, sizeof buf, &needed), HWFIT_OK);
    cr_assert_eq(strlen(buf) + 1, needed);
    cr_assert_not_null(strstr(buf, ">1.0</text>"), "the axis goes up to 1");
    hwfit_svg_budget_in b;
    hwfit_svg_budget_init(&b);
    b.bar_count = 1;
    b.bar_labels = bars;
    b.values = v;
    cr_assert_eq(hwfit_svg_budget(&b, buf, sizeof buf, &needed), HWFIT_OK);
    cr_assert_not_null(strstr(buf, ">1.0</text>"), "the axis goes up to 1");
}

/* fuzz_calc_shard: hwfit_shard_max_context and _max_batch returned HWFIT_ERANGE, which
 * their documentation did not list, for a model whose parameter count overflows 64 bits
 * (as hwfit_model_check and every other shard function say). Now documented; a footprint
 * that overflows still only counts as "does not fit". */
Test(findings, max_context_and_batch_of_an_overflowing_model_are_erange) {
    hwfit_model m;
    hwfit_model_init(&m);
    m.hidden = 1ull << 30; /* hidden x (4 hidden) x 3 x 64 layers = 3 x 2^68: overflows */
    m.heads = 16;
    m.kv_heads = 4;
    m.intermediate = 4ull << 30;
    m.vocab = 1ull << 30;
    m.layers = 64;
    cr_assert_eq(hwfit_model_check(&m), HWFIT_ERANGE);
    hwfit_shard_in in;
    hwfit_shard_init(&in);
    in.capacity_bytes = 80e9;
    uint64_t r = 0x5a5a5a5a;
    cr_assert_eq(hwfit_shard_max_context(&m, &in, 1, &r), HWFIT_ERANGE);
    cr_assert_eq(hwfit_shard_max_batch(&m, &in, 1, &r), HWFIT_ERANGE);
    cr_assert_eq(r, 0x5a5a5a5a, "output written on error");
    m.hidden = 1024; /* a model that is fine, with a context whose KV overflows */
    m.intermediate = 4096;
    m.vocab = 32000;
    cr_assert_eq(hwfit_shard_max_context(&m, &in, UINT64_MAX, &r), HWFIT_OK);
    cr_assert(r > 0 && r < UINT64_MAX, "the longest context that fits, not ERANGE");
}

/* fuzz_calc_shard: hwfit_shard_max_batch for training with limit 2^64 - 1 on 4 pipeline
 * stages tried a micro-batch so large that the global batch (pp micro-batches) overflowed
 * while the layout was resolved, and
 * returned HWFIT_ERANGE instead of treating it as "does not fit" (as an overflowing
 * footprint already was). */
Test(findings, max_batch_with_a_huge_limit_is_the_largest_fitting_batch) {
    hwfit_model m;
    hwfit_model_init(&m);
    m.hidden = 1024;
    m.heads = 16;
    m.kv_heads = 4;
    m.intermediate = 4096;
    m.vocab = 32000;
    m.layers = 8;
    hwfit_shard_in in;
    hwfit_shard_init(&in);
    in.capacity_bytes = 80e9;
    in.memory.context = 512;
    in.layout.pp = 4; /* the global batch, pp micro-batches, overflowed first */
    in.gpus = 4;
    for (int mode = HWFIT_MEMORY_FULL; mode <= HWFIT_MEMORY_QLORA; mode++) {
        in.memory.mode = (hwfit_memory_mode)mode;
        uint64_t r = 0;
        cr_assert_eq(hwfit_shard_max_batch(&m, &in, UINT64_MAX, &r), HWFIT_OK, "mode %d", mode);
        cr_assert(r >= 1 && r < UINT64_MAX / 2, "mode %d: %llu", mode, (unsigned long long)r);
        uint64_t small = 0;
        cr_assert_eq(hwfit_shard_max_batch(&m, &in, r, &small), HWFIT_OK);
        cr_assert_eq(small, r, "the same answer with the limit at the answer");
    }
}

/* Reliability review: a qwen3_moe config with num_experts at its documented limit (2^24)
 * made `fit` take 73 s: the layout enumeration scanned every integer up to the expert
 * count for each candidate, and the fewest-cards search repeated it for 256 card counts.
 * Divisors are now found in O(sqrt(n)); the same search must run, and give the same
 * answers as for a divisor-rich count it can still enumerate by hand. */
/* A hang guard, not a speed assertion: the old scan took over a minute. */
Test(findings, a_model_with_2_to_the_24_experts_is_searched_by_factorisation, .timeout = 30) {
    hwfit_model m;
    hwfit_error err;
    cr_assert_eq(hwfit_hf_config_load(HWFIT_TEST_DATA "/models/qwen3-coder-30b-a3b-instruct.config.json",
                                      &m, &err), HWFIT_OK);
    m.experts = 16777216u; /* the experts' count hwfit accepts at most */
    if (m.experts_per_token > m.experts) m.experts_per_token = m.experts;
    hwfit_shard_in in;
    hwfit_shard_init(&in);
    in.gpus = 8;
    in.capacity_bytes = 80.0 * 1073741824.0;
    hwfit_shard_space space;
    hwfit_shard_space_init(&space);
    uint32_t min_gpus = 0;
    hwfit_status st = hwfit_shard_min_gpus(&m, &in, &space, 256, &min_gpus, NULL);
    cr_assert(st == HWFIT_OK || st == HWFIT_ERANGE, "%s", hwfit_status_name(st));
    hwfit_shard_search_out sum;
    hwfit_shard_result best;
    space.include_unfit = 1;
    st = hwfit_shard_search(&m, &in, &space, &best, 1, &sum);
    cr_assert(st == HWFIT_OK || st == HWFIT_ERANGE, "%s", hwfit_status_name(st));
    if (st == HWFIT_OK) cr_assert_gt(sum.valid, 0);
}

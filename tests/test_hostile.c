/* Hostile input for every public function: NULL pointers, NaN, +-Inf, zero, negative and
 * absurdly large numbers, enum values out of range, counts that overflow 64 bits. Outputs
 * are poisoned (0x5a) before each call and must be untouched unless the call returns
 * HWFIT_OK; with HWFIT_OK every double result must be finite; the status must be one the
 * header documents; and each _validate companion must return the same status and name the
 * field that was made hostile.
 *
 * The table at the end (TABLE) lists every public function with the probe that exercises
 * it. tests/hostile/check_table.py, a CTest test, fails when a function declared with
 * HWFIT_API in include/ is missing from it: a new module adds its functions there (a
 * calculation with an input struct needs one `calc` descriptor, see psu_calc).
 */
#include <criterion/criterion.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwfit.h"
#include "base/internal.h"
#include "fixtures.h"

static const char *current = ""; /* the function under test, for messages */

/* CHECK(cond) or CHECK(cond, "printf format", args...): the message names the function. */
static void fail_at(int line, const char *cond, const char *fmt, ...) HWFIT__PRINTF(3, 4);
static void fail_at(int line, const char *cond, const char *fmt, ...) {
    char detail[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    cr_assert_fail("test_hostile.c:%d: %s: %s %s", line, current, cond, detail);
}
#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        if (!(cond)) fail_at(__LINE__, #cond, " " __VA_ARGS__);                           \
    } while (0)

/* Status sets: the statuses a function documents. */
#define S(x) (1u << (unsigned)HWFIT_##x)
#define ANY_OF(st, set) ((((1u << (unsigned)(st)) & (set)) != 0))

static void poison(void *p, size_t n) { memset(p, 0x5a, n); }
static int untouched(const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != 0x5a) return 0;
    return 1;
}

/* ---- calculations with an input struct: one descriptor each -------------------------- */

typedef struct field {
    const char *name; /* as _validate names it */
    size_t offset;    /* in the descriptor's input block */
} field;

typedef struct calc {
    const char *name;
    size_t in_size, out_size;
    void (*base)(void *in); /* a valid input */
    hwfit_status (*run)(const void *in, void *out);
    hwfit_status (*validate)(const void *in, hwfit_problem *p); /* NULL in allowed */
    unsigned statuses;       /* documented statuses */
    const field *doubles;    /* double inputs: NaN, Inf, negative give EDOM naming them */
    size_t ndoubles;
    const field *u64s;       /* uint64_t inputs: 0, 1, 2^32, 2^63, max */
    size_t nu64s;
    const field *u32s;       /* uint32_t inputs */
    size_t nu32s;
    const field *enums;      /* enum inputs (int-sized): -1, huge give EINVAL naming them */
    size_t nenums;
    const size_t *results;   /* offsets of double results that must be finite with OK */
    size_t nresults;
} calc;

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define F(type, member, name) {name, offsetof(type, member)}

static double get_double(const void *in, size_t off) {
    double v;
    memcpy(&v, (const char *)in + off, sizeof v);
    return v;
}

static void check_results(const calc *c, const void *out) {
    for (size_t i = 0; i < c->nresults; i++)
        CHECK(hwfit__finite(get_double(out, c->results[i])), "(result at offset %zu)",
              c->results[i]);
}

/* Run one input: status documented, same as _validate's, output untouched on error, finite
 * results on success. Returns the status; *p is the problem. */
static hwfit_status run_one(const calc *c, const void *in, hwfit_problem *p) {
    void *out = malloc(c->out_size);
    cr_assert_not_null(out);
    poison(out, c->out_size);
    hwfit_status st = c->run(in, out);
    memset(p, 0, sizeof *p);
    hwfit_status vst = c->validate(in, p);
    CHECK(ANY_OF(st, c->statuses), "(status %s)", hwfit_status_name(st));
    CHECK(vst == st, "(_validate %s, call %s)", hwfit_status_name(vst), hwfit_status_name(st));
    CHECK(p->status == st && p->field != NULL && p->rule != NULL);
    if (st == HWFIT_OK) {
        check_results(c, out);
        CHECK(p->field[0] == '\0' && p->rule[0] == '\0');
    } else {
        CHECK(untouched(out, c->out_size));
        CHECK(p->rule[0] != '\0');
    }
    free(out);
    return st;
}

static void probe_calc(const calc *c) {
    void *in = calloc(1, c->in_size), *work = calloc(1, c->in_size);
    cr_assert(in && work);
    hwfit_problem p;
    c->base(in);
    CHECK(run_one(c, in, &p) == HWFIT_OK, "(the base input must be valid: %s %s)", p.field,
          p.rule);

    /* NULL pointers: EINVAL, output untouched. */
    void *out = malloc(c->out_size);
    cr_assert_not_null(out);
    poison(out, c->out_size);
    CHECK(c->run(NULL, out) == HWFIT_EINVAL && untouched(out, c->out_size));
    CHECK(c->run(in, NULL) == HWFIT_EINVAL);
    CHECK(c->validate(NULL, &p) == HWFIT_EINVAL && p.status == HWFIT_EINVAL);
    CHECK(strstr(p.rule, "NULL") != NULL);
    CHECK(c->validate(in, NULL) == HWFIT_OK); /* the report is optional */
    free(out);

    /* Every double: NaN and infinities and negatives are EDOM naming the field; zero,
     * tiny and huge values are accepted with finite results or refused. */
    static const double bad[] = {NAN, -NAN, INFINITY, -INFINITY, -1.0, -DBL_MIN, -DBL_MAX};
    static const double odd[] = {0.0, -0.0, DBL_MIN, 4.9e-324, 1e-300, 1.0, 1e18, 1e300,
                                 DBL_MAX};
    for (size_t i = 0; i < c->ndoubles; i++) {
        const field *f = &c->doubles[i];
        for (size_t k = 0; k < N(bad); k++) {
            memcpy(work, in, c->in_size);
            memcpy((char *)work + f->offset, &bad[k], sizeof(double));
            hwfit_status st = run_one(c, work, &p);
            CHECK(st == HWFIT_EDOM, "(%s = %g gave %s)", f->name, bad[k], hwfit_status_name(st));
            CHECK(strcmp(p.field, f->name) == 0, "(%s = %g named '%s')", f->name, bad[k],
                  p.field);
        }
        for (size_t k = 0; k < N(odd); k++) {
            memcpy(work, in, c->in_size);
            memcpy((char *)work + f->offset, &odd[k], sizeof(double));
            /* Refused or not, a field is named; it may be a partner of this one when a
             * rule relates two (speed_2dpc_mts <= speed_mts). */
            hwfit_status st = run_one(c, work, &p);
            if (st == HWFIT_EDOM) CHECK(p.field[0] != '\0', "(%s = %g)", f->name, odd[k]);
        }
    }
    /* Every count: the extremes are accepted or refused, never crash or overflow. */
    static const uint64_t counts[] = {0, 1, 2, 3, 1000, UINT32_MAX, (uint64_t)1 << 32,
                                      (uint64_t)1 << 53, (uint64_t)1 << 62,
                                      (uint64_t)1 << 63, UINT64_MAX - 1, UINT64_MAX};
    for (size_t i = 0; i < c->nu64s; i++) {
        for (size_t k = 0; k < N(counts); k++) {
            memcpy(work, in, c->in_size);
            memcpy((char *)work + c->u64s[i].offset, &counts[k], sizeof(uint64_t));
            (void)run_one(c, work, &p);
        }
    }
    for (size_t i = 0; i < c->nu32s; i++) {
        for (size_t k = 0; k < N(counts); k++) {
            memcpy(work, in, c->in_size);
            uint32_t v = (uint32_t)counts[k];
            memcpy((char *)work + c->u32s[i].offset, &v, sizeof v);
            (void)run_one(c, work, &p);
        }
    }
    /* Every enum: values outside it are EINVAL naming the field. */
    static const int wild[] = {-1, 77, INT_MAX, INT_MIN};
    for (size_t i = 0; i < c->nenums; i++) {
        for (size_t k = 0; k < N(wild); k++) {
            memcpy(work, in, c->in_size);
            memcpy((char *)work + c->enums[i].offset, &wild[k], sizeof(int));
            hwfit_status st = run_one(c, work, &p);
            CHECK(st == HWFIT_EINVAL, "(%s = %d gave %s)", c->enums[i].name, wild[k],
                  hwfit_status_name(st));
            CHECK(strcmp(p.field, c->enums[i].name) == 0, "(%s named '%s')", c->enums[i].name,
                  p.field);
        }
    }
    free(in);
    free(work);
}

/* ---- storage ------------------------------------------------------------------------- */

static void raid_base(void *v) {
    hwfit_raid_in *in = v;
    hwfit_raid_init(in);
    in->drives = 6;
    in->drive_bytes = 15.36e12;
    in->drive_read_bytes_per_s = 14e9;
    in->drive_write_bytes_per_s = 10e9;
    in->drive_read_iops = 3e6;
    in->drive_write_iops = 5e5;
}
static hwfit_status raid_run(const void *in, void *out) { return hwfit_raid_evaluate(in, out); }
static hwfit_status raid_val(const void *in, hwfit_problem *p) { return hwfit_raid_validate(in, p); }
static const field raid_doubles[] = {
    F(hwfit_raid_in, drive_bytes, "drive_bytes"),
    F(hwfit_raid_in, record_bytes, "record_bytes"),
    F(hwfit_raid_in, sector_bytes, "sector_bytes"),
    F(hwfit_raid_in, fill_fraction, "fill_fraction"),
    F(hwfit_raid_in, drive_read_bytes_per_s, "drive_read_bytes_per_s"),
    F(hwfit_raid_in, drive_write_bytes_per_s, "drive_write_bytes_per_s"),
    F(hwfit_raid_in, drive_read_iops, "drive_read_iops"),
    F(hwfit_raid_in, drive_write_iops, "drive_write_iops"),
    F(hwfit_raid_in, read_fraction, "read_fraction"),
    F(hwfit_raid_in, rebuild_bytes_per_s, "rebuild_bytes_per_s"),
    F(hwfit_raid_in, replace_delay_s, "replace_delay_s"),
    F(hwfit_raid_in, bit_error_rate, "bit_error_rate"),
    F(hwfit_raid_in, drive_mttf_s, "drive_mttf_s"),
    F(hwfit_raid_in, mission_s, "mission_s"),
};
static const field raid_u64s[] = {
    F(hwfit_raid_in, layout.copies, "layout.copies"), F(hwfit_raid_in, layout.groups, "layout.groups"),
    F(hwfit_raid_in, layout.draid_data, "layout.draid_data"),
    F(hwfit_raid_in, layout.draid_children, "layout.draid_children"),
    F(hwfit_raid_in, layout.draid_spares, "layout.draid_spares"),
    F(hwfit_raid_in, drives, "drives"), F(hwfit_raid_in, spares, "spares"),
};
static const field raid_enums[] = {F(hwfit_raid_in, layout.level, "layout.level")};
static const size_t raid_results[] = {
    offsetof(hwfit_raid_out, raw_bytes),        offsetof(hwfit_raid_out, usable_bytes),
    offsetof(hwfit_raid_out, space_efficiency), offsetof(hwfit_raid_out, allocation_efficiency),
    offsetof(hwfit_raid_out, slop_bytes),       offsetof(hwfit_raid_out, read_bytes_per_s),
    offsetof(hwfit_raid_out, write_bytes_per_s), offsetof(hwfit_raid_out, read_iops),
    offsetof(hwfit_raid_out, write_iops),       offsetof(hwfit_raid_out, mixed_iops),
    offsetof(hwfit_raid_out, rebuild_bytes),    offsetof(hwfit_raid_out, rebuild_s),
    offsetof(hwfit_raid_out, rebuild_read_bytes), offsetof(hwfit_raid_out, ure_probability),
    offsetof(hwfit_raid_out, ure_loss_probability), offsetof(hwfit_raid_out, mttr_s),
    offsetof(hwfit_raid_out, mttdl_s),          offsetof(hwfit_raid_out, mttdl_h),
    offsetof(hwfit_raid_out, loss_probability), offsetof(hwfit_raid_out, drive_afr)};
static const calc raid_calc = {"raid", sizeof(hwfit_raid_in), sizeof(hwfit_raid_out), raid_base,
    raid_run, raid_val, S(OK) | S(EINVAL) | S(EDOM) | S(ERANGE), raid_doubles, N(raid_doubles),
    raid_u64s, N(raid_u64s), NULL, 0, raid_enums, N(raid_enums), raid_results, N(raid_results)};

static void transfer_base(void *v) {
    hwfit_transfer_in *in = v;
    hwfit_transfer_init(in);
    in->bytes = 140e9;
    in->rate_bytes_per_s = 14e9;
    in->backend_bytes_per_s = 10e9;
    in->capacity_bytes = 1e12;
}
static hwfit_status transfer_run(const void *in, void *out) {
    return hwfit_transfer_estimate(in, out);
}
static hwfit_status transfer_val(const void *in, hwfit_problem *p) {
    return hwfit_transfer_validate(in, p);
}
static const field transfer_doubles[] = {
    F(hwfit_transfer_in, bytes, "bytes"),
    F(hwfit_transfer_in, rate_bytes_per_s, "rate_bytes_per_s"),
    F(hwfit_transfer_in, local_efficiency, "local_efficiency"),
    F(hwfit_transfer_in, roce_efficiency, "roce_efficiency"),
    F(hwfit_transfer_in, tcp_efficiency, "tcp_efficiency"),
    F(hwfit_transfer_in, backend_bytes_per_s, "backend_bytes_per_s"),
    F(hwfit_transfer_in, capacity_bytes, "capacity_bytes"),
};
static const field transfer_enums[] = {F(hwfit_transfer_in, transport, "transport")};
static const size_t transfer_results[] = {
    offsetof(hwfit_transfer_out, efficiency), offsetof(hwfit_transfer_out, effective_bytes_per_s),
    offsetof(hwfit_transfer_out, time_s), offsetof(hwfit_transfer_out, fill_fraction)};
static const calc transfer_calc = {"transfer", sizeof(hwfit_transfer_in),
    sizeof(hwfit_transfer_out), transfer_base, transfer_run, transfer_val,
    S(OK) | S(EINVAL) | S(EDOM) | S(ERANGE), transfer_doubles, N(transfer_doubles), NULL, 0,
    NULL, 0, transfer_enums, N(transfer_enums), transfer_results, N(transfer_results)};

/* ---- power ----------------------------------------------------------------------------- */

static void budget_base(void *v) {
    hwfit_power_budget_in *in = v;
    hwfit_power_budget_init(in);
    cr_assert_eq(hwfit_power_budget_add(in, HWFIT_POWER_COMPONENT_GPU, 8, 600), HWFIT_OK);
    cr_assert_eq(hwfit_power_budget_add(in, HWFIT_POWER_COMPONENT_CPU, 2, 400), HWFIT_OK);
}
static hwfit_status budget_run(const void *in, void *out) {
    return hwfit_power_budget_evaluate(in, out);
}
static hwfit_status budget_val(const void *in, hwfit_problem *p) {
    return hwfit_power_budget_validate(in, p);
}
static const field budget_doubles[] = {
    F(hwfit_power_budget_in, components[0].watts, "components.watts"),
    F(hwfit_power_budget_in, components[1].watts, "components.watts"),
    F(hwfit_power_budget_in, gpu_transient_factor, "gpu_transient_factor"),
};
static const field budget_u64s[] = {
    F(hwfit_power_budget_in, components[0].count, "components.count"),
    F(hwfit_power_budget_in, component_count, "component_count"),
};
static const field budget_enums[] = {
    F(hwfit_power_budget_in, components[1].kind, "components.kind")};
static const size_t budget_results[] = {offsetof(hwfit_power_budget_out, kind_w),
                                        offsetof(hwfit_power_budget_out, dc_w),
                                        offsetof(hwfit_power_budget_out, peak_dc_w)};
static const calc budget_calc = {"power_budget", sizeof(hwfit_power_budget_in),
    sizeof(hwfit_power_budget_out), budget_base, budget_run, budget_val,
    S(OK) | S(EINVAL) | S(EDOM), budget_doubles, N(budget_doubles), budget_u64s, N(budget_u64s),
    NULL, 0, budget_enums, N(budget_enums), budget_results, N(budget_results)};

static void psu_base(void *v) {
    hwfit_psu_in *in = v;
    hwfit_psu_init(in);
    in->psus = 4;
    in->psu_rating_w = 3200;
    in->load_w = 6500;
}
static hwfit_status psu_run(const void *in, void *out) { return hwfit_psu_evaluate(in, out); }
static hwfit_status psu_val(const void *in, hwfit_problem *p) { return hwfit_psu_validate(in, p); }
static const field psu_doubles[] = {
    F(hwfit_psu_in, psu_rating_w, "psu_rating_w"),
    F(hwfit_psu_in, psu_low_line_rating_w, "psu_low_line_rating_w"),
    F(hwfit_psu_in, input_voltage_v, "input_voltage_v"), F(hwfit_psu_in, load_w, "load_w"),
    F(hwfit_psu_in, peak_load_w, "peak_load_w"), F(hwfit_psu_in, headroom_ratio, "headroom_ratio"),
    F(hwfit_psu_in, peak_ratio, "peak_ratio"), F(hwfit_psu_in, fixed_efficiency, "fixed_efficiency"),
};
static const field psu_u64s[] = {F(hwfit_psu_in, psus, "psus"),
                                 F(hwfit_psu_in, redundant, "redundant")};
static const field psu_enums[] = {F(hwfit_psu_in, psu_class, "psu_class"),
                                  F(hwfit_psu_in, table, "table")};
static const size_t psu_results[] = {
    offsetof(hwfit_psu_out, rating_w),     offsetof(hwfit_psu_out, installed_w),
    offsetof(hwfit_psu_out, usable_w),     offsetof(hwfit_psu_out, required_w),
    offsetof(hwfit_psu_out, headroom_w),   offsetof(hwfit_psu_out, usable_to_load),
    offsetof(hwfit_psu_out, psu_load_w),   offsetof(hwfit_psu_out, psu_load_fraction),
    offsetof(hwfit_psu_out, failover_load_fraction), offsetof(hwfit_psu_out, efficiency),
    offsetof(hwfit_psu_out, wall_w),       offsetof(hwfit_psu_out, loss_w),
    offsetof(hwfit_psu_out, failover_efficiency), offsetof(hwfit_psu_out, failover_wall_w)};
static const calc psu_calc = {"psu", sizeof(hwfit_psu_in), sizeof(hwfit_psu_out), psu_base,
    psu_run, psu_val, S(OK) | S(EINVAL) | S(EDOM) | S(EUNSUPPORTED) | S(ERANGE), psu_doubles,
    N(psu_doubles), psu_u64s, N(psu_u64s), NULL, 0, psu_enums, N(psu_enums), psu_results,
    N(psu_results)};

static void thermal_base(void *v) {
    hwfit_thermal_in *in = v;
    hwfit_thermal_init(in);
    in->heat_w = 6776;
}
static hwfit_status thermal_run(const void *in, void *out) { return hwfit_thermal_evaluate(in, out); }
static hwfit_status thermal_val(const void *in, hwfit_problem *p) {
    return hwfit_thermal_validate(in, p);
}
static const field thermal_doubles[] = {
    F(hwfit_thermal_in, heat_w, "heat_w"), F(hwfit_thermal_in, delta_t_c, "delta_t_c"),
    F(hwfit_thermal_in, air_density_kg_per_m3, "air_density_kg_per_m3"),
    F(hwfit_thermal_in, air_heat_capacity_j_per_kg_k, "air_heat_capacity_j_per_kg_k"),
    F(hwfit_thermal_in, air_marginal_above_w, "air_marginal_above_w"),
    F(hwfit_thermal_in, liquid_above_w, "liquid_above_w"),
};
static const field thermal_u64s[] = {F(hwfit_thermal_in, chassis_per_rack, "chassis_per_rack")};
static const size_t thermal_results[] = {
    offsetof(hwfit_thermal_out, heat_w),          offsetof(hwfit_thermal_out, heat_btu_per_h),
    offsetof(hwfit_thermal_out, cooling_tons),    offsetof(hwfit_thermal_out, airflow_m3_per_s),
    offsetof(hwfit_thermal_out, airflow_m3_per_h), offsetof(hwfit_thermal_out, airflow_cfm),
    offsetof(hwfit_thermal_out, rack_heat_w)};
static const calc thermal_calc = {"thermal", sizeof(hwfit_thermal_in),
    sizeof(hwfit_thermal_out), thermal_base, thermal_run, thermal_val,
    S(OK) | S(EINVAL) | S(EDOM) | S(ERANGE), thermal_doubles, N(thermal_doubles), thermal_u64s,
    N(thermal_u64s), NULL, 0, NULL, 0, thermal_results, N(thermal_results)};

static void energy_base(void *v) {
    hwfit_energy_in *in = v;
    hwfit_energy_init(in);
    in->power_w = 6776;
    in->idle_power_w = 800;
    in->duty_cycle = 0.7;
}
static hwfit_status energy_run(const void *in, void *out) { return hwfit_energy_evaluate(in, out); }
static hwfit_status energy_val(const void *in, hwfit_problem *p) {
    return hwfit_energy_validate(in, p);
}
static const field energy_doubles[] = {
    F(hwfit_energy_in, power_w, "power_w"), F(hwfit_energy_in, idle_power_w, "idle_power_w"),
    F(hwfit_energy_in, duty_cycle, "duty_cycle"), F(hwfit_energy_in, pue, "pue"),
    F(hwfit_energy_in, price_per_kwh, "price_per_kwh"),
    F(hwfit_energy_in, hours_per_year, "hours_per_year"),
};
static const size_t energy_results[] = {
    offsetof(hwfit_energy_out, average_power_w), offsetof(hwfit_energy_out, facility_power_w),
    offsetof(hwfit_energy_out, it_energy_kwh),   offsetof(hwfit_energy_out, annual_energy_kwh),
    offsetof(hwfit_energy_out, annual_cost),     offsetof(hwfit_energy_out, cost_per_hour)};
static const calc energy_calc = {"energy", sizeof(hwfit_energy_in), sizeof(hwfit_energy_out),
    energy_base, energy_run, energy_val, S(OK) | S(EINVAL) | S(EDOM) | S(ERANGE), energy_doubles,
    N(energy_doubles), NULL, 0, NULL, 0, NULL, 0, energy_results, N(energy_results)};

static void tco_base(void *v) {
    hwfit_tco_in *in = v;
    hwfit_tco_init(in);
    in->capex = 350000;
    in->annual_energy_cost = 10685;
    in->annual_other_cost = 5000;
    in->discount_rate = 0.05;
    in->gpus = 8;
    in->utilization = 0.6;
}
static hwfit_status tco_run(const void *in, void *out) { return hwfit_tco_evaluate(in, out); }
static hwfit_status tco_val(const void *in, hwfit_problem *p) { return hwfit_tco_validate(in, p); }
static const field tco_doubles[] = {
    F(hwfit_tco_in, capex, "capex"), F(hwfit_tco_in, annual_energy_cost, "annual_energy_cost"),
    F(hwfit_tco_in, annual_other_cost, "annual_other_cost"),
    F(hwfit_tco_in, discount_rate, "discount_rate"), F(hwfit_tco_in, utilization, "utilization"),
};
static const field tco_u64s[] = {F(hwfit_tco_in, years, "years"), F(hwfit_tco_in, gpus, "gpus")};
static const size_t tco_results[] = {
    offsetof(hwfit_tco_out, opex), offsetof(hwfit_tco_out, tco),
    offsetof(hwfit_tco_out, cost_per_year), offsetof(hwfit_tco_out, cost_per_hour),
    offsetof(hwfit_tco_out, cost_per_gpu_hour)};
static const calc tco_calc = {"tco", sizeof(hwfit_tco_in), sizeof(hwfit_tco_out), tco_base,
    tco_run, tco_val, S(OK) | S(EINVAL) | S(EDOM) | S(ERANGE), tco_doubles, N(tco_doubles),
    tco_u64s, N(tco_u64s), NULL, 0, NULL, 0, tco_results, N(tco_results)};

/* ---- host ------------------------------------------------------------------------------ */

static void host_base(void *v) {
    hwfit_host_in *in = v;
    hwfit_host_init(in);
    in->sockets = 2;
    in->cores = 128;
    in->gpus = 8;
    in->ram_bytes = 1.5e12;
    in->vram_bytes = 768e9;
    in->channels_per_socket = 12;
    in->dimms = 24;
    in->speed_mts = 6400;
    in->speed_2dpc_mts = 4800;
    in->lanes_per_socket = 128;
    in->nvme = 4;
    in->nics = 2;
    in->switches = 2;
    in->switch_downstream_lanes = 96;
}
static hwfit_status host_run(const void *in, void *out) { return hwfit_host_evaluate(in, out); }
static hwfit_status host_val(const void *in, hwfit_problem *p) { return hwfit_host_validate(in, p); }
static const field host_doubles[] = {
    F(hwfit_host_in, cores_per_gpu_rule, "cores_per_gpu_rule"),
    F(hwfit_host_in, ram_bytes, "ram_bytes"), F(hwfit_host_in, vram_bytes, "vram_bytes"),
    F(hwfit_host_in, ram_to_vram_rule, "ram_to_vram_rule"), F(hwfit_host_in, speed_mts, "speed_mts"),
    F(hwfit_host_in, speed_2dpc_mts, "speed_2dpc_mts"),
};
static const field host_u64s[] = {
    F(hwfit_host_in, sockets, "sockets"), F(hwfit_host_in, cores, "cores"),
    F(hwfit_host_in, gpus, "gpus"), F(hwfit_host_in, channels_per_socket, "channels_per_socket"),
    F(hwfit_host_in, dimms, "dimms"), F(hwfit_host_in, max_dimms_per_channel, "max_dimms_per_channel"),
    F(hwfit_host_in, channel_width_bytes, "channel_width_bytes"),
    F(hwfit_host_in, lanes_per_socket, "lanes_per_socket"),
    F(hwfit_host_in, socket_links, "socket_links"),
    F(hwfit_host_in, socket_link_lanes, "socket_link_lanes"), F(hwfit_host_in, gpu_lanes, "gpu_lanes"),
    F(hwfit_host_in, gpu_bifurcated_lanes, "gpu_bifurcated_lanes"), F(hwfit_host_in, nvme, "nvme"),
    F(hwfit_host_in, nvme_lanes, "nvme_lanes"), F(hwfit_host_in, nics, "nics"),
    F(hwfit_host_in, nic_lanes, "nic_lanes"), F(hwfit_host_in, other_lanes, "other_lanes"),
    F(hwfit_host_in, switches, "switches"),
    F(hwfit_host_in, switch_upstream_lanes, "switch_upstream_lanes"),
    F(hwfit_host_in, switch_downstream_lanes, "switch_downstream_lanes"),
};
static const size_t host_results[] = {
    offsetof(hwfit_host_out, cores_per_gpu), offsetof(hwfit_host_out, cores_needed),
    offsetof(hwfit_host_out, ram_to_vram), offsetof(hwfit_host_out, ram_needed_bytes),
    offsetof(hwfit_host_out, dimms_per_channel), offsetof(hwfit_host_out, effective_speed_mts),
    offsetof(hwfit_host_out, channel_bandwidth_bytes_per_s),
    offsetof(hwfit_host_out, memory_bandwidth_per_socket_bytes_per_s),
    offsetof(hwfit_host_out, memory_bandwidth_bytes_per_s), offsetof(hwfit_host_out, dimm_bytes),
    offsetof(hwfit_host_out, switch_oversubscription)};
static const calc host_calc = {"host", sizeof(hwfit_host_in), sizeof(hwfit_host_out), host_base,
    host_run, host_val, S(OK) | S(EINVAL) | S(EDOM) | S(ERANGE), host_doubles, N(host_doubles),
    host_u64s, N(host_u64s), NULL, 0, NULL, 0, host_results, N(host_results)};

/* ---- link and collective ----------------------------------------------------------------- */

static void link_base(void *v) {
    hwfit_link_in *in = v;
    cr_assert_eq(hwfit_link_parse("2x400g-roce", in), HWFIT_OK);
}
static hwfit_status link_run(const void *in, void *out) { return hwfit_link_rate(in, out); }
static hwfit_status link_val(const void *in, hwfit_problem *p) { return hwfit_link_validate(in, p); }
static const field link_doubles[] = {F(hwfit_link_in, port_bits_per_s, "port_bits_per_s"),
                                     F(hwfit_link_in, payload_bytes, "payload_bytes")};
static const field link_u32s[] = {F(hwfit_link_in, generation, "generation"),
                                  F(hwfit_link_in, width, "width")};
static const field link_enums[] = {F(hwfit_link_in, kind, "kind"),
                                   F(hwfit_link_in, transport, "transport")};
static const size_t link_results[] = {
    offsetof(hwfit_link_out, lane_raw_bits_per_s), offsetof(hwfit_link_out, encoding_efficiency),
    offsetof(hwfit_link_out, line_bytes_per_s),    offsetof(hwfit_link_out, line_bytes_per_s_bidir),
    offsetof(hwfit_link_out, payload_bytes),       offsetof(hwfit_link_out, overhead_bytes),
    offsetof(hwfit_link_out, protocol_efficiency), offsetof(hwfit_link_out, payload_bytes_per_s),
    offsetof(hwfit_link_out, payload_bytes_per_s_bidir)};
static const calc link_calc = {"link", sizeof(hwfit_link_in), sizeof(hwfit_link_out), link_base,
    link_run, link_val, S(OK) | S(EINVAL) | S(EDOM), link_doubles, N(link_doubles), NULL, 0,
    link_u32s, N(link_u32s), link_enums, N(link_enums), link_results, N(link_results)};

/* A two-node NVSwitch cluster: every part of the topology is in use. */
static void cluster(hwfit_topology *t) {
    const hwfit_gpu *g;
    hwfit_topology_init(t);
    cr_assert_eq(hwfit_gpu_find("h100-sxm", &g), HWFIT_OK);
    cr_assert_eq(hwfit_topology_set_gpu(t, g), HWFIT_OK);
    t->nodes = 2;
    t->pcie_switches = 4;
    cr_assert_eq(hwfit_topology_parse_nic("8x400g-ib", t), HWFIT_OK);
}
#define TOPOLOGY_DOUBLES(T)                                                                 \
    F(T, topology.peer_bytes_per_s, "topology.peer_bytes_per_s"),                          \
        F(T, topology.host_memory_bytes_per_s, "topology.host_memory_bytes_per_s"),        \
        F(T, topology.nic_bits_per_s, "topology.nic_bits_per_s"),                          \
        F(T, topology.nic_mtu_bytes, "topology.nic_mtu_bytes"),                            \
        F(T, topology.pcie_efficiency, "topology.pcie_efficiency"),                        \
        F(T, topology.shm_efficiency, "topology.shm_efficiency"),                          \
        F(T, topology.host_memory_efficiency, "topology.host_memory_efficiency"),          \
        F(T, topology.socket_link_efficiency, "topology.socket_link_efficiency"),          \
        F(T, topology.peer_efficiency, "topology.peer_efficiency"),                        \
        F(T, topology.nvls_efficiency, "topology.nvls_efficiency"),                        \
        F(T, topology.nic_efficiency, "topology.nic_efficiency"),                          \
        F(T, topology.shm_step_latency_s, "topology.shm_step_latency_s"),                  \
        F(T, topology.net_overhead_s, "topology.net_overhead_s")
#define TOPOLOGY_U64S(T)                                                                    \
    F(T, topology.gpus_per_node, "topology.gpus_per_node"),                                \
        F(T, topology.nodes, "topology.nodes"), F(T, topology.sockets, "topology.sockets"), \
        F(T, topology.pcie_switches, "topology.pcie_switches"),                            \
        F(T, topology.nics_per_node, "topology.nics_per_node")
#define TOPOLOGY_U32S(T)                                                                    \
    F(T, topology.gpu_pcie_gen, "topology.gpu_pcie_gen"),                                  \
        F(T, topology.gpu_pcie_lanes, "topology.gpu_pcie_lanes"),                          \
        F(T, topology.compute_capability, "topology.compute_capability"),                  \
        F(T, topology.peer_links, "topology.peer_links"),                                  \
        F(T, topology.peer_domain_gpus, "topology.peer_domain_gpus"),                      \
        F(T, topology.switch_uplink_lanes, "topology.switch_uplink_lanes"),                \
        F(T, topology.socket_link_generation, "topology.socket_link_generation"),          \
        F(T, topology.socket_links, "topology.socket_links")
#define TOPOLOGY_ENUMS(T)                                                                   \
    F(T, topology.peer_link, "topology.peer_link"),                                        \
        F(T, topology.peer_topology, "topology.peer_topology"),                            \
        F(T, topology.cpu_vendor, "topology.cpu_vendor"), F(T, topology.p2p, "topology.p2p"), \
        F(T, topology.socket_link_kind, "topology.socket_link_kind"),                      \
        F(T, topology.nic_kind, "topology.nic_kind"),                                      \
        F(T, topology.gpudirect_rdma, "topology.gpudirect_rdma")

static void collective_base(void *v) {
    hwfit_collective_in *in = v;
    hwfit_collective_init(in);
    cluster(&in->topology);
}
static hwfit_status collective_run(const void *in, void *out) {
    return hwfit_collective_estimate(in, out);
}
static hwfit_status collective_val(const void *in, hwfit_problem *p) {
    return hwfit_collective_validate(in, p);
}
static const field collective_doubles[] = {TOPOLOGY_DOUBLES(hwfit_collective_in),
                                           F(hwfit_collective_in, bytes, "bytes")};
static const field collective_u64s[] = {TOPOLOGY_U64S(hwfit_collective_in),
                                        F(hwfit_collective_in, ranks, "ranks"),
                                        F(hwfit_collective_in, ranks_per_node, "ranks_per_node")};
static const field collective_u32s[] = {TOPOLOGY_U32S(hwfit_collective_in)};
static const field collective_enums[] = {
    TOPOLOGY_ENUMS(hwfit_collective_in), F(hwfit_collective_in, op, "op"),
    F(hwfit_collective_in, algorithm, "algorithm"), F(hwfit_collective_in, protocol, "protocol"),
    F(hwfit_collective_in, library, "library")};
#define COLLECTIVE_RESULTS(T, m)                                                            \
    offsetof(T, m time_s), offsetof(T, m algbw_bytes_per_s),                               \
        offsetof(T, m busbw_bytes_per_s), offsetof(T, m busbw_factor),                     \
        offsetof(T, m latency_s), offsetof(T, m bandwidth_time_s),                         \
        offsetof(T, m bottleneck_bytes_per_s)
static const size_t collective_results[] = {COLLECTIVE_RESULTS(hwfit_collective_out, )};
static const calc collective_calc = {"collective", sizeof(hwfit_collective_in),
    sizeof(hwfit_collective_out), collective_base, collective_run, collective_val,
    S(OK) | S(EINVAL) | S(EDOM) | S(EUNSUPPORTED) | S(ERANGE), collective_doubles,
    N(collective_doubles), collective_u64s, N(collective_u64s), collective_u32s,
    N(collective_u32s), collective_enums, N(collective_enums), collective_results,
    N(collective_results)};

static void step_base(void *v) {
    hwfit_collective_step_in *in = v;
    hwfit_collective_step_init(in);
    cluster(&in->topology);
    in->tp = 8;
    in->dp = 2;
    in->ep = 2;
    in->zero_stage = 3;
    in->layers_per_stage = 80;
    in->micro_batches = 4;
    in->sequence_parallel = 1;
    in->tp_bytes = 64e6;
    in->grad_bytes = 2e9;
    in->param_bytes = 2e9;
    in->moe_layers_per_stage = 4;
    in->ep_bytes = 32e6;
}
static hwfit_status step_run(const void *in, void *out) { return hwfit_collective_step(in, out); }
static hwfit_status step_val(const void *in, hwfit_problem *p) {
    return hwfit_collective_step_validate(in, p);
}
static const field step_doubles[] = {
    TOPOLOGY_DOUBLES(hwfit_collective_step_in),
    F(hwfit_collective_step_in, tp_bytes, "tp_bytes"),
    F(hwfit_collective_step_in, grad_bytes, "grad_bytes"),
    F(hwfit_collective_step_in, param_bytes, "param_bytes"),
    F(hwfit_collective_step_in, pp_bytes, "pp_bytes"),
    F(hwfit_collective_step_in, ep_bytes, "ep_bytes")};
static const field step_u64s[] = {
    TOPOLOGY_U64S(hwfit_collective_step_in), F(hwfit_collective_step_in, tp, "tp"),
    F(hwfit_collective_step_in, pp, "pp"), F(hwfit_collective_step_in, dp, "dp"),
    F(hwfit_collective_step_in, ep, "ep"), F(hwfit_collective_step_in, zero_stage, "zero_stage"),
    F(hwfit_collective_step_in, layers_per_stage, "layers_per_stage"),
    F(hwfit_collective_step_in, micro_batches, "micro_batches"),
    F(hwfit_collective_step_in, tp_collectives_per_layer, "tp_collectives_per_layer"),
    F(hwfit_collective_step_in, moe_layers_per_stage, "moe_layers_per_stage")};
static const field step_u32s[] = {TOPOLOGY_U32S(hwfit_collective_step_in)};
static const field step_enums[] = {TOPOLOGY_ENUMS(hwfit_collective_step_in),
                                   F(hwfit_collective_step_in, library, "library")};
static const size_t step_results[] = {
    offsetof(hwfit_collective_step_out, tp_s),   offsetof(hwfit_collective_step_out, dp_s),
    offsetof(hwfit_collective_step_out, zero_s), offsetof(hwfit_collective_step_out, pp_s),
    offsetof(hwfit_collective_step_out, ep_s),   offsetof(hwfit_collective_step_out, total_s),
    COLLECTIVE_RESULTS(hwfit_collective_step_out, tp.), COLLECTIVE_RESULTS(hwfit_collective_step_out, dp.)};
static const calc step_calc = {"collective_step", sizeof(hwfit_collective_step_in),
    sizeof(hwfit_collective_step_out), step_base, step_run, step_val,
    S(OK) | S(EINVAL) | S(EDOM) | S(ELAYOUT) | S(ERANGE) | S(EUNSUPPORTED), step_doubles,
    N(step_doubles), step_u64s, N(step_u64s), step_u32s, N(step_u32s), step_enums, N(step_enums),
    step_results, N(step_results)};

/* ---- model and memory: the model is part of the input block ---------------------------- */

static void llama_8b(hwfit_model *m) {
    fixture_llama_3_1_8b(m);
    m->max_context = 131072;
}

/* A MoE model with MLA, a shared expert, sliding layers and an extra prediction layer:
 * every field of hwfit_model is in use. */
static void moe_mla(hwfit_model *m) {
    hwfit_model_init(m);
    m->attention = HWFIT_MODEL_ATTENTION_MLA;
    m->layers = 8;
    m->hidden = 2048;
    m->heads = 16;
    m->q_lora_rank = 768;
    m->kv_lora_rank = 512;
    m->qk_nope_head_dim = 128;
    m->qk_rope_head_dim = 64;
    m->v_head_dim = 128;
    m->intermediate = 8192;
    m->vocab = 102400;
    m->experts = 64;
    m->experts_per_token = 6;
    m->expert_intermediate = 1408;
    m->shared_experts = 2;
    m->shared_expert_intermediate = 1408;
    m->mtp_layers = 1;
    m->sliding_window = 4096;
    m->max_context = 163840;
    cr_assert_eq(hwfit_model_set_moe_layers(m, 1, 1, 0), HWFIT_OK);
    cr_assert_eq(hwfit_model_set_sliding_layers(m, HWFIT_MODEL_SLIDING_PERIOD, 2), HWFIT_OK);
}

#define MODEL_U64S(T, m)                                                                     \
    F(T, m hidden, "model.hidden"), F(T, m vocab, "model.vocab"),                           \
        F(T, m intermediate, "model.intermediate"),                                         \
        F(T, m expert_intermediate, "model.expert_intermediate"),                           \
        F(T, m shared_expert_intermediate, "model.shared_expert_intermediate"),             \
        F(T, m sliding_window, "model.sliding_window"), F(T, m max_context, "model.max_context")
#define MODEL_U32S(T, m)                                                                     \
    F(T, m layers, "model.layers"), F(T, m heads, "model.heads"),                           \
        F(T, m kv_heads, "model.kv_heads"), F(T, m head_dim, "model.head_dim"),             \
        F(T, m v_head_dim, "model.v_head_dim"), F(T, m q_lora_rank, "model.q_lora_rank"),   \
        F(T, m kv_lora_rank, "model.kv_lora_rank"),                                         \
        F(T, m qk_nope_head_dim, "model.qk_nope_head_dim"),                                 \
        F(T, m qk_rope_head_dim, "model.qk_rope_head_dim"), F(T, m experts, "model.experts"), \
        F(T, m experts_per_token, "model.experts_per_token"),                               \
        F(T, m shared_experts, "model.shared_experts"),                                     \
        F(T, m norms_per_layer, "model.norms_per_layer"), F(T, m mtp_layers, "model.mtp_layers")
#define MODEL_ENUMS(T, m)                                                                    \
    F(T, m attention, "model.attention"), F(T, m mlp, "model.mlp"), F(T, m norm, "model.norm")

typedef struct params_block {
    hwfit_model model;
} params_block;
static void params_base(void *v) { moe_mla(&((params_block *)v)->model); }
static hwfit_status params_run(const void *in, void *out) {
    return hwfit_model_params(in ? &((const params_block *)in)->model : NULL, out);
}
static hwfit_status params_val(const void *in, hwfit_problem *p) {
    return hwfit_model_validate(in ? &((const params_block *)in)->model : NULL, p);
}
static const field params_u64s[] = {MODEL_U64S(params_block, model.)};
static const field params_u32s[] = {MODEL_U32S(params_block, model.)};
static const field params_enums[] = {MODEL_ENUMS(params_block, model.)};
static const calc params_calc = {"model_params", sizeof(params_block),
    sizeof(hwfit_model_param_counts), params_base, params_run, params_val,
    S(OK) | S(EINVAL) | S(EDOM) | S(ERANGE), NULL, 0, params_u64s, N(params_u64s), params_u32s,
    N(params_u32s), params_enums, N(params_enums), NULL, 0};

typedef struct kv_block {
    hwfit_model model;
    hwfit_model_kv_in in;
} kv_block;
static void kv_base(void *v) {
    kv_block *b = v;
    moe_mla(&b->model);
    hwfit_model_kv_init(&b->in);
    b->in.batch = 8;
    b->in.context = 32768;
    b->in.include_mtp = 1;
}
static hwfit_status kv_run(const void *in, void *out) {
    const kv_block *b = in;
    return hwfit_model_kv(b ? &b->model : NULL, b ? &b->in : NULL, out);
}
static hwfit_status kv_val(const void *in, hwfit_problem *p) {
    const kv_block *b = in;
    return hwfit_model_kv_validate(b ? &b->model : NULL, b ? &b->in : NULL, p);
}
static const field kv_u64s[] = {F(kv_block, in.batch, "batch"), F(kv_block, in.context, "context"),
                                MODEL_U64S(kv_block, model.)};
static const field kv_u32s[] = {F(kv_block, in.first_layer, "first_layer"),
                                F(kv_block, in.layer_count, "layer_count"),
                                F(kv_block, in.dtype.group_size, "dtype.group_size"),
                                MODEL_U32S(kv_block, model.)};
static const field kv_enums[] = {F(kv_block, in.dtype.id, "dtype"), MODEL_ENUMS(kv_block, model.)};
static const calc kv_calc = {"model_kv", sizeof(kv_block), sizeof(hwfit_model_kv_out), kv_base,
    kv_run, kv_val, S(OK) | S(EINVAL) | S(EDOM) | S(ERANGE), NULL, 0, kv_u64s, N(kv_u64s),
    kv_u32s, N(kv_u32s), kv_enums, N(kv_enums), NULL, 0};

typedef struct memory_block {
    hwfit_model model;
    hwfit_memory_in in;
} memory_block;
static void memory_base_mode(memory_block *b, hwfit_memory_mode mode) {
    moe_mla(&b->model);
    hwfit_memory_init(&b->in);
    b->in.mode = mode;
    b->in.weights = hwfit_dtype_make(HWFIT_DTYPE_Q4_K);
    if (mode == HWFIT_MEMORY_FULL) b->in.weights = hwfit_dtype_make(HWFIT_DTYPE_BF16);
    b->in.batch = 4;
    b->in.context = 8192;
    b->in.micro_batch = 2;
    b->in.tensor_parallel = 2;
    b->in.sequence_parallel = 1;
    b->in.flash_attention = 0;
    b->in.mtp = 1;
    b->in.lora_targets = HWFIT_LORA_ATTENTION;
}
static void memory_infer_base(void *v) { memory_base_mode(v, HWFIT_MEMORY_INFERENCE); }
static void memory_lora_base(void *v) { memory_base_mode(v, HWFIT_MEMORY_QLORA); }
static void memory_full_base(void *v) { memory_base_mode(v, HWFIT_MEMORY_FULL); }
static hwfit_status memory_run(const void *in, void *out) {
    const memory_block *b = in;
    return hwfit_memory_estimate(b ? &b->model : NULL, b ? &b->in : NULL, out);
}
static hwfit_status memory_val(const void *in, hwfit_problem *p) {
    const memory_block *b = in;
    return hwfit_memory_validate(b ? &b->model : NULL, b ? &b->in : NULL, p);
}
static const field memory_doubles[] = {F(memory_block, in.overhead_bytes, "overhead_bytes")};
static const field memory_u64s[] = {
    F(memory_block, in.batch, "batch"), F(memory_block, in.context, "context"),
    F(memory_block, in.prefill_chunk, "prefill_chunk"),
    F(memory_block, in.micro_batch, "micro_batch"), MODEL_U64S(memory_block, model.)};
static const field memory_u32s[] = {
    F(memory_block, in.tensor_parallel, "tensor_parallel"),
    F(memory_block, in.lora_rank, "lora_rank"), F(memory_block, in.lora_targets, "lora_targets"),
    F(memory_block, in.first_layer, "first_layer"), F(memory_block, in.layer_count, "layer_count"),
    F(memory_block, in.weights.group_size, "weights.group_size"),
    F(memory_block, in.kv.group_size, "kv.group_size"), MODEL_U32S(memory_block, model.)};
static const field memory_enums[] = {
    F(memory_block, in.mode, "mode"), F(memory_block, in.optimizer, "optimizer"),
    F(memory_block, in.recompute, "recompute"), F(memory_block, in.unquantized.id, "unquantized"),
    F(memory_block, in.kv.id, "kv"), F(memory_block, in.activations.id, "activations"),
    MODEL_ENUMS(memory_block, model.)};
static const field memory_train_enums[] = {
    F(memory_block, in.mode, "mode"), F(memory_block, in.optimizer, "optimizer"),
    F(memory_block, in.recompute, "recompute"), F(memory_block, in.gradients.id, "gradients"),
    F(memory_block, in.lora_dtype.id, "lora_dtype"), F(memory_block, in.qlora_base.id, "qlora_base"),
    MODEL_ENUMS(memory_block, model.)};
static const field memory_full_enums[] = {F(memory_block, in.weights.id, "weights"),
                                          F(memory_block, in.gradients.id, "gradients")};
#define MEMORY_STATUSES S(OK) | S(EINVAL) | S(EDOM) | S(ERANGE) | S(EUNSUPPORTED)
static const calc memory_infer_calc = {"memory (inference)", sizeof(memory_block),
    sizeof(hwfit_memory_out), memory_infer_base, memory_run, memory_val, MEMORY_STATUSES,
    memory_doubles, N(memory_doubles), memory_u64s, N(memory_u64s), memory_u32s,
    N(memory_u32s), memory_enums, N(memory_enums), NULL, 0};
static const calc memory_lora_calc = {"memory (qlora)", sizeof(memory_block),
    sizeof(hwfit_memory_out), memory_lora_base, memory_run, memory_val, MEMORY_STATUSES,
    memory_doubles, N(memory_doubles), memory_u64s, N(memory_u64s), memory_u32s,
    N(memory_u32s), memory_train_enums, N(memory_train_enums), NULL, 0};
static const calc memory_full_calc = {"memory (full)", sizeof(memory_block),
    sizeof(hwfit_memory_out), memory_full_base, memory_run, memory_val, MEMORY_STATUSES,
    memory_doubles, N(memory_doubles), NULL, 0, NULL, 0, memory_full_enums,
    N(memory_full_enums), NULL, 0};

/* ---- probes of the calculations ------------------------------------------------------------ */

static void probe_raid(void) { probe_calc(&raid_calc); }
static void probe_transfer(void) { probe_calc(&transfer_calc); }
static void probe_budget(void) { probe_calc(&budget_calc); }
static void probe_psu(void) { probe_calc(&psu_calc); }
static void probe_thermal(void) { probe_calc(&thermal_calc); }
static void probe_energy(void) { probe_calc(&energy_calc); }
static void probe_tco(void) { probe_calc(&tco_calc); }
static void probe_host(void) { probe_calc(&host_calc); }
static void probe_link(void) { probe_calc(&link_calc); }
static void probe_collective(void) { probe_calc(&collective_calc); }
static void probe_step(void) { probe_calc(&step_calc); }
static void probe_params(void) {
    probe_calc(&params_calc);
    /* hwfit_model_check agrees with hwfit_model_params on NULL and on a valid model. */
    hwfit_model m;
    llama_8b(&m);
    CHECK(hwfit_model_check(&m) == HWFIT_OK);
    CHECK(hwfit_model_check(NULL) == HWFIT_EINVAL);
    /* 10^24 parameters cannot be counted in 64 bits: hidden and vocab at their maximum. */
    m.hidden = HWFIT_MODEL_MAX_SIZE;
    m.vocab = HWFIT_MODEL_MAX_SIZE;
    m.intermediate = HWFIT_MODEL_MAX_SIZE;
    hwfit_model_param_counts p;
    poison(&p, sizeof p);
    CHECK(hwfit_model_params(&m, &p) == HWFIT_ERANGE && untouched(&p, sizeof p));
    CHECK(hwfit_model_check(&m) == HWFIT_ERANGE);
}
static void probe_kv(void) {
    probe_calc(&kv_calc);
    /* A cache beyond 2^64 bytes: batch x context x layers x bytes per token. */
    kv_block b;
    kv_base(&b);
    b.in.batch = (uint64_t)1 << 40;
    b.in.context = (uint64_t)1 << 30;
    hwfit_model_kv_out o;
    poison(&o, sizeof o);
    CHECK(hwfit_model_kv(&b.model, &b.in, &o) == HWFIT_ERANGE && untouched(&o, sizeof o));
}
static void probe_memory(void) {
    probe_calc(&memory_infer_calc);
    probe_calc(&memory_lora_calc);
    probe_calc(&memory_full_calc);
    /* A batch whose KV cache and activations overflow a byte count. */
    memory_block b;
    memory_infer_base(&b);
    b.in.batch = UINT64_MAX / 2;
    hwfit_memory_out o;
    poison(&o, sizeof o);
    CHECK(hwfit_memory_estimate(&b.model, &b.in, &o) == HWFIT_ERANGE && untouched(&o, sizeof o));
    memory_full_base(&b);
    b.in.context = (uint64_t)1 << 40;
    b.in.micro_batch = (uint64_t)1 << 40;
    CHECK(hwfit_memory_estimate(&b.model, &b.in, &o) == HWFIT_ERANGE && untouched(&o, sizeof o));
}

/* ---- model helpers ---------------------------------------------------------------------------- */

static void probe_model_init(void) {
    hwfit_model_init(NULL); /* ignored */
    hwfit_model m;
    poison(&m, sizeof m);
    hwfit_model_init(&m);
    CHECK(m.layers == 0 && m.norms_per_layer == 2);
    CHECK(hwfit_model_check(&m) == HWFIT_EDOM); /* an empty model is not a model */
}

static void probe_set_layers(void) {
    hwfit_model m;
    llama_8b(&m);
    CHECK(hwfit_model_set_moe_layers(NULL, 0, 1, 0) == HWFIT_EINVAL);
    CHECK(hwfit_model_set_sliding_layers(NULL, HWFIT_MODEL_SLIDING_ALL, 0) == HWFIT_EINVAL);
    hwfit_model before = m;
    /* Refused calls leave the model as it was. */
    CHECK(hwfit_model_set_moe_layers(&m, 0, 0, 0) == HWFIT_EDOM);
    CHECK(hwfit_model_set_moe_layers(&m, 0, 2, 2) == HWFIT_EDOM);
    CHECK(hwfit_model_set_moe_layers(&m, UINT32_MAX, UINT32_MAX, UINT32_MAX) == HWFIT_EDOM);
    CHECK(hwfit_model_set_sliding_layers(&m, (hwfit_model_sliding)-1, 0) == HWFIT_EINVAL);
    CHECK(hwfit_model_set_sliding_layers(&m, (hwfit_model_sliding)77, 0) == HWFIT_EINVAL);
    CHECK(hwfit_model_set_sliding_layers(&m, HWFIT_MODEL_SLIDING_PERIOD, 0) == HWFIT_EDOM);
    CHECK(memcmp(&m, &before, sizeof m) == 0);
    m.layers = 0;
    CHECK(hwfit_model_set_moe_layers(&m, 0, 1, 0) == HWFIT_EDOM);
    m.layers = UINT32_MAX; /* beyond the flag array: refused, not written past it */
    CHECK(hwfit_model_set_moe_layers(&m, 0, 1, 0) == HWFIT_EDOM);
    CHECK(hwfit_model_set_sliding_layers(&m, HWFIT_MODEL_SLIDING_ALL, 0) == HWFIT_EDOM);
    m.layers = HWFIT_MODEL_MAX_LAYERS;
    CHECK(hwfit_model_set_moe_layers(&m, UINT32_MAX, UINT32_MAX, 0) == HWFIT_OK);
    CHECK(hwfit_model_set_sliding_layers(&m, HWFIT_MODEL_SLIDING_FROM, UINT32_MAX) == HWFIT_OK);
}

static void probe_layer_range(void) {
    hwfit_model m;
    moe_mla(&m);
    hwfit_model_range r;
    poison(&r, sizeof r);
    CHECK(hwfit_model_layer_range(NULL, 0, 1, &r) == HWFIT_EINVAL && untouched(&r, sizeof r));
    CHECK(hwfit_model_layer_range(&m, 0, 1, NULL) == HWFIT_EINVAL);
    const uint32_t firsts[] = {0, 7, 8, UINT32_MAX}, counts[] = {0, 1, 8, UINT32_MAX};
    for (size_t i = 0; i < N(firsts); i++) {
        for (size_t k = 0; k < N(counts); k++) {
            int ok = counts[k] >= 1 && firsts[i] < 8 && counts[k] <= 8 - firsts[i];
            poison(&r, sizeof r);
            hwfit_status st = hwfit_model_layer_range(&m, firsts[i], counts[k], &r);
            CHECK(st == (ok ? HWFIT_OK : HWFIT_EDOM));
            if (!ok) CHECK(untouched(&r, sizeof r));
        }
    }
    m.heads = 0; /* an invalid model */
    poison(&r, sizeof r);
    CHECK(hwfit_model_layer_range(&m, 0, 1, &r) == HWFIT_EDOM && untouched(&r, sizeof r));
    m.heads = 16;
    m.attention = (hwfit_model_attention)77;
    CHECK(hwfit_model_layer_range(&m, 0, 1, &r) == HWFIT_EINVAL && untouched(&r, sizeof r));
}

static void probe_flops(void) {
    hwfit_model m;
    moe_mla(&m);
    hwfit_model_flops_out o;
    poison(&o, sizeof o);
    CHECK(hwfit_model_flops(NULL, 1, &o) == HWFIT_EINVAL && untouched(&o, sizeof o));
    CHECK(hwfit_model_flops(&m, 1, NULL) == HWFIT_EINVAL);
    CHECK(hwfit_model_flops(&m, 0, &o) == HWFIT_EDOM && untouched(&o, sizeof o));
    const uint64_t contexts[] = {1, 4096, (uint64_t)1 << 40, UINT64_MAX};
    for (size_t i = 0; i < N(contexts); i++) {
        CHECK(hwfit_model_flops(&m, contexts[i], &o) == HWFIT_OK);
        CHECK(hwfit__finite(o.forward_flop) && hwfit__finite(o.training_flop));
        CHECK(hwfit__finite(o.matmul_flop) && hwfit__finite(o.attention_flop));
    }
    m.vocab = 0;
    poison(&o, sizeof o);
    CHECK(hwfit_model_flops(&m, 1, &o) == HWFIT_EDOM && untouched(&o, sizeof o));
}

static void probe_recompute_default(void) {
    /* Any int as a mode, in range or not: a defined answer, never a crash. */
    const int modes[] = {INT32_MIN, -1, 0, 1, 2, 3, 4, 99, INT32_MAX};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        hwfit_memory_recompute rc = hwfit_memory_recompute_default((hwfit_memory_mode)modes[i]);
        CHECK(rc == (modes[i] == 2 || modes[i] == 3 ? HWFIT_MEMORY_RECOMPUTE_FULL
                                                     : HWFIT_MEMORY_RECOMPUTE_NONE));
    }
}

static void probe_lora_params(void) {
    hwfit_model m;
    moe_mla(&m);
    uint64_t n = 0x5a5a5a5a5a5a5a5aull;
    CHECK(hwfit_memory_lora_params(NULL, 16, HWFIT_LORA_ALL, &n) == HWFIT_EINVAL);
    CHECK(hwfit_memory_lora_params(&m, 16, HWFIT_LORA_ALL, NULL) == HWFIT_EINVAL);
    CHECK(hwfit_memory_lora_params(&m, 0, HWFIT_LORA_ALL, &n) == HWFIT_EDOM);
    CHECK(hwfit_memory_lora_params(&m, 16, 0, &n) == HWFIT_EDOM);
    CHECK(hwfit_memory_lora_params(&m, 16, 0x80, &n) == HWFIT_EDOM);
    CHECK(hwfit_memory_lora_params(&m, 16, UINT32_MAX, &n) == HWFIT_EDOM);
    CHECK(n == 0x5a5a5a5a5a5a5a5aull);
    CHECK(hwfit_memory_lora_params(&m, UINT32_MAX, HWFIT_LORA_ALL, &n) == HWFIT_OK);
    llama_8b(&m);
    m.hidden = HWFIT_MODEL_MAX_SIZE;
    m.intermediate = HWFIT_MODEL_MAX_SIZE;
    n = 7;
    hwfit_status st = hwfit_memory_lora_params(&m, UINT32_MAX, HWFIT_LORA_ALL, &n);
    CHECK(st == HWFIT_ERANGE && n == 7);
}

static void probe_inits(void) {
    /* Every _init ignores NULL and fills documented defaults that its calculation takes. */
    hwfit_memory_init(NULL);
    hwfit_model_kv_init(NULL);
    hwfit_raid_init(NULL);
    hwfit_transfer_init(NULL);
    hwfit_power_budget_init(NULL);
    hwfit_psu_init(NULL);
    hwfit_thermal_init(NULL);
    hwfit_energy_init(NULL);
    hwfit_tco_init(NULL);
    hwfit_host_init(NULL);
    hwfit_link_init(NULL);
    hwfit_topology_init(NULL);
    hwfit_collective_init(NULL);
    hwfit_collective_step_init(NULL);
    hwfit_energy_in e;
    poison(&e, sizeof e);
    hwfit_energy_init(&e);
    hwfit_energy_out eo;
    CHECK(hwfit_energy_evaluate(&e, &eo) == HWFIT_OK);
    hwfit_link_in l;
    poison(&l, sizeof l);
    hwfit_link_init(&l);
    hwfit_link_out lo;
    CHECK(hwfit_link_rate(&l, &lo) == HWFIT_OK);
    hwfit_collective_in c;
    poison(&c, sizeof c);
    hwfit_collective_init(&c);
    hwfit_collective_out co;
    CHECK(hwfit_collective_estimate(&c, &co) == HWFIT_OK);
    hwfit_collective_step_in s;
    poison(&s, sizeof s);
    hwfit_collective_step_init(&s);
    hwfit_collective_step_out so;
    CHECK(hwfit_collective_step(&s, &so) == HWFIT_OK);
    hwfit_host_in h;
    poison(&h, sizeof h);
    hwfit_host_init(&h);
    hwfit_host_out ho;
    CHECK(hwfit_host_evaluate(&h, &ho) == HWFIT_OK);
    hwfit_thermal_in t;
    poison(&t, sizeof t);
    hwfit_thermal_init(&t);
    hwfit_thermal_out to;
    CHECK(hwfit_thermal_evaluate(&t, &to) == HWFIT_OK);
    hwfit_tco_in tc;
    poison(&tc, sizeof tc);
    hwfit_tco_init(&tc);
    hwfit_tco_out tco;
    CHECK(hwfit_tco_evaluate(&tc, &tco) == HWFIT_OK);
    hwfit_power_budget_in b;
    poison(&b, sizeof b);
    hwfit_power_budget_init(&b);
    hwfit_power_budget_out bo;
    CHECK(hwfit_power_budget_evaluate(&b, &bo) == HWFIT_OK);
    /* Inputs with required fields: defaults alone are refused with the field named. */
    hwfit_problem p;
    hwfit_raid_in r;
    hwfit_raid_init(&r);
    CHECK(hwfit_raid_validate(&r, &p) == HWFIT_EDOM && strcmp(p.field, "drive_bytes") == 0);
    hwfit_transfer_in tr;
    hwfit_transfer_init(&tr);
    CHECK(hwfit_transfer_validate(&tr, &p) == HWFIT_EDOM &&
          strcmp(p.field, "rate_bytes_per_s") == 0);
    hwfit_psu_in ps;
    hwfit_psu_init(&ps);
    CHECK(hwfit_psu_validate(&ps, &p) == HWFIT_EDOM && strcmp(p.field, "psus") == 0);
    hwfit_model m;
    hwfit_model_kv_in k;
    hwfit_model_kv_init(&k);
    llama_8b(&m);
    hwfit_model_kv_out ko;
    CHECK(hwfit_model_kv(&m, &k, &ko) == HWFIT_OK);
    hwfit_memory_in mi;
    hwfit_memory_init(&mi);
    hwfit_memory_out mo;
    CHECK(hwfit_memory_estimate(&m, &mi, &mo) == HWFIT_OK);
}

/* ---- parsers: NULL, empty, long, binary and format-string text ------------------------------ */

typedef hwfit_status (*text_parser)(const char *text, void *out);

static char long_text[70000];

static const char *const hostile_texts[] = {
    "", " ", "\t\n", "%s%n%x%p", "\xff\xfe\xc0\x80", "-", "+", "0", "-0", "1e999999999",
    "99999999999999999999999999999999", "18446744073709551616", "NaN", "inf", "0x10",
    "gpu:::", ":", "x:1:1W", "gpu:1:nanW", "N+", "2N+1", "draid9", "draid:0d", "draid1:1d:1d",
    "pcie99999999999x16", "int4-g0", "int4-g01", "int4-g1048577", ",", "q,,v", "all-linear,",
    long_text};

static void probe_parser(text_parser parse, size_t out_size, unsigned statuses) {
    unsigned char out[256];
    cr_assert(out_size <= sizeof out);
    poison(out, out_size);
    CHECK(parse(NULL, out) == HWFIT_EINVAL && untouched(out, out_size));
    CHECK(parse("x", NULL) == HWFIT_EINVAL);
    for (size_t i = 0; i < N(hostile_texts); i++) {
        poison(out, out_size);
        hwfit_status st = parse(hostile_texts[i], out);
        CHECK(ANY_OF(st, statuses), "(text #%zu gave %s)", i, hwfit_status_name(st));
        if (st != HWFIT_OK) CHECK(untouched(out, out_size), "(text #%zu)", i);
    }
}

#define PARSER(fn, type)                                                                     \
    static hwfit_status fn##_any(const char *text, void *out) { return fn(text, (type *)out); }
PARSER(hwfit_dtype_parse, hwfit_dtype)
PARSER(hwfit_link_parse, hwfit_link_in)
PARSER(hwfit_raid_level_parse, hwfit_raid_layout)
PARSER(hwfit_storage_transport_parse, hwfit_storage_transport)
PARSER(hwfit_psu_class_parse, hwfit_psu_class)
PARSER(hwfit_psu_table_parse, hwfit_psu_table)
PARSER(hwfit_price_per_kwh_parse, double)
PARSER(hwfit_power_component_kind_parse, hwfit_power_component_kind)
PARSER(hwfit_power_component_parse, hwfit_power_component)
PARSER(hwfit_memory_lora_targets_parse, unsigned)
PARSER(hwfit_memory_full_modules_parse, unsigned)
PARSER(hwfit_collective_op_from_name, hwfit_collective_op)
PARSER(hwfit_collective_algorithm_from_name, hwfit_collective_algorithm)
PARSER(hwfit_collective_protocol_from_name, hwfit_collective_protocol)
PARSER(hwfit_topology_parse_nic, hwfit_topology)
static hwfit_status gpu_find_any(const char *text, void *out) {
    return hwfit_gpu_find(text, (const hwfit_gpu **)out);
}
static hwfit_status units_any(const char *text, void *out) {
    return hwfit_units_parse(text, HWFIT_UNIT_BYTES_PER_S, out);
}
static hwfit_status redundancy_any(const char *text, void *out) {
    return hwfit_psu_redundancy_parse(text, 4, out);
}

#define P(x) S(x)
static void probe_dtype_parse(void) {
    probe_parser(hwfit_dtype_parse_any, sizeof(hwfit_dtype), P(OK) | P(EINVAL) | P(ENOTFOUND) | P(EDOM));
}
static void probe_link_parse(void) {
    probe_parser(hwfit_link_parse_any, sizeof(hwfit_link_in), P(EINVAL) | P(EPARSE) | P(EDOM));
}
static void probe_raid_level_parse(void) {
    probe_parser(hwfit_raid_level_parse_any, sizeof(hwfit_raid_layout),
                 P(OK) | P(EINVAL) | P(ENOTFOUND) | P(EPARSE) | P(EDOM));
}
static void probe_transport_parse(void) {
    probe_parser(hwfit_storage_transport_parse_any, sizeof(hwfit_storage_transport),
                 P(EINVAL) | P(ENOTFOUND));
}
static void probe_psu_class_parse(void) {
    probe_parser(hwfit_psu_class_parse_any, sizeof(hwfit_psu_class), P(EINVAL) | P(ENOTFOUND));
}
static void probe_psu_table_parse(void) {
    probe_parser(hwfit_psu_table_parse_any, sizeof(hwfit_psu_table), P(EINVAL) | P(ENOTFOUND));
}
static void probe_price_parse(void) {
    probe_parser(hwfit_price_per_kwh_parse_any, sizeof(double),
                 P(OK) | P(EINVAL) | P(EPARSE) | P(EDOM) | P(ERANGE));
    double v = -1;
    CHECK(hwfit_price_per_kwh_parse("1e308/Wh", &v) == HWFIT_ERANGE && v == -1);
    CHECK(hwfit_price_per_kwh_parse("-1/kWh", &v) == HWFIT_EDOM && v == -1);
}
static void probe_component_kind_parse(void) {
    probe_parser(hwfit_power_component_kind_parse_any, sizeof(hwfit_power_component_kind),
                 P(EINVAL) | P(ENOTFOUND));
}
static void probe_component_parse(void) {
    probe_parser(hwfit_power_component_parse_any, sizeof(hwfit_power_component),
                 P(EINVAL) | P(ENOTFOUND) | P(EPARSE) | P(EDOM));
    hwfit_power_component c;
    poison(&c, sizeof c);
    CHECK(hwfit_power_component_parse("gpu:1000001:1W", &c) == HWFIT_EDOM);
    CHECK(hwfit_power_component_parse("gpu:99999999999999999999999:1W", &c) == HWFIT_EDOM);
    CHECK(hwfit_power_component_parse("gpu:1:1e400W", &c) == HWFIT_EDOM);
    CHECK(hwfit_power_component_parse("gpu:1:11MW", &c) == HWFIT_EDOM);
    CHECK(untouched(&c, sizeof c));
}
static void probe_lora_targets_parse(void) {
    probe_parser(hwfit_memory_lora_targets_parse_any, sizeof(unsigned),
                 P(OK) | P(EINVAL) | P(EPARSE) | P(ENOTFOUND));
}
/* hwfit_hf_quant_kept_layers: a skip list's single layers, counted per matrix. */
static hwfit_status kept_layers_any(const char *text, void *out) {
    return hwfit_hf_quant_kept_layers(text, 80, (uint16_t *)out);
}
static void probe_kept_layers(void) {
    probe_parser(kept_layers_any, HWFIT_KEPT_MATRICES * sizeof(uint16_t),
                 P(OK) | P(EINVAL) | P(EDOM) | P(EPARSE));
}
static void probe_full_modules_parse(void) {
    probe_parser(hwfit_memory_full_modules_parse_any, sizeof(unsigned),
                 P(OK) | P(EINVAL) | P(EPARSE) | P(ENOTFOUND));
}
/* Framework profiles: NULL, unknown names, 0 devices; the table's ends. */
static void probe_profiles(void) {
    hwfit_memory_in in, copy;
    hwfit_memory_init(&in);
    copy = in;
    uint64_t sets = 7;
    CHECK(hwfit_memory_profile_apply(NULL, 1, &in, &sets) == HWFIT_EINVAL);
    CHECK(hwfit_memory_profile_apply("torchtune", 1, NULL, &sets) == HWFIT_EINVAL);
    CHECK(hwfit_memory_profile_apply("torchtune", 0, &in, &sets) == HWFIT_EDOM);
    CHECK(hwfit_memory_profile_apply("", 1, &in, &sets) == HWFIT_ENOTFOUND);
    CHECK(hwfit_memory_profile_apply("no-such-framework", 1, &in, &sets) == HWFIT_ENOTFOUND);
    CHECK(memcmp(&in, &copy, sizeof in) == 0 && sets == 7);
    CHECK(hwfit_memory_profile_apply("torchtune", 1, &in, NULL) == HWFIT_OK);
    copy = in;
    sets = 7;
    CHECK(hwfit_memory_profile_apply_fp8(NULL, 1, &in, &sets) == HWFIT_EINVAL);
    CHECK(hwfit_memory_profile_apply_fp8("megatron", 1, NULL, &sets) == HWFIT_EINVAL);
    CHECK(hwfit_memory_profile_apply_fp8("megatron", 0, &in, &sets) == HWFIT_EDOM);
    CHECK(hwfit_memory_profile_apply_fp8("no-such-framework", 1, &in, &sets) ==
          HWFIT_ENOTFOUND);
    CHECK(memcmp(&in, &copy, sizeof in) == 0 && sets == 7);
    CHECK(hwfit_memory_profile_apply_fp8("torchtune", 1, &in, NULL) == HWFIT_OK);
    copy = in;
    sets = 7;
    CHECK(hwfit_memory_profile_apply_release(NULL, "2025.1", 1, &in, &sets) == HWFIT_EINVAL);
    CHECK(hwfit_memory_profile_apply_release("unsloth", "2025.1", 1, NULL, &sets) ==
          HWFIT_EINVAL);
    CHECK(hwfit_memory_profile_apply_release("unsloth", "2025.1", 0, &in, &sets) == HWFIT_EDOM);
    CHECK(hwfit_memory_profile_apply_release("unsloth", "2025.99", 1, &in, &sets) ==
          HWFIT_EPARSE);
    CHECK(hwfit_memory_profile_apply_release("unsloth", "\xff\xfe", 1, &in, &sets) ==
          HWFIT_EPARSE);
    CHECK(hwfit_memory_profile_apply_release("unsloth", "99999999999999999999.1", 1, &in,
                                             &sets) == HWFIT_EPARSE);
    CHECK(hwfit_memory_profile_apply_release("no-such-framework", NULL, 1, &in, &sets) ==
          HWFIT_ENOTFOUND);
    CHECK(memcmp(&in, &copy, sizeof in) == 0 && sets == 7);
    CHECK(hwfit_memory_profile_apply_release("unsloth", NULL, 1, &in, NULL) == HWFIT_OK);
    int dated = 7;
    CHECK(hwfit_memory_profile_dated(NULL, &dated) == HWFIT_EINVAL && dated == 7);
    CHECK(hwfit_memory_profile_dated("unsloth", NULL) == HWFIT_EINVAL);
    CHECK(hwfit_memory_profile_dated("no-such-framework", &dated) == HWFIT_ENOTFOUND &&
          dated == 7);
    CHECK(hwfit_memory_profile_dated("\xff\xfe", &dated) == HWFIT_ENOTFOUND && dated == 7);
    CHECK(hwfit_memory_profile_dated("", &dated) == HWFIT_ENOTFOUND && dated == 7);
    CHECK(hwfit_memory_profile_library_dated(NULL, "trl", &dated) == HWFIT_EINVAL && dated == 7);
    CHECK(hwfit_memory_profile_library_dated("unsloth", NULL, &dated) == HWFIT_EINVAL &&
          dated == 7);
    CHECK(hwfit_memory_profile_library_dated("unsloth", "trl", NULL) == HWFIT_EINVAL);
    CHECK(hwfit_memory_profile_library_dated("no-such-framework", "trl", &dated) ==
              HWFIT_ENOTFOUND &&
          dated == 7);
    CHECK(hwfit_memory_profile_library_dated("unsloth", "\xff\xfe", &dated) == HWFIT_ENOTFOUND &&
          dated == 7);
    copy = in;
    sets = 7;
    {
        hwfit_memory_releases rel = {.trl = "0.15"}, bad_trl = {.trl = "\xff\xfe"},
                              huge = {.transformers = "99999999999999999999.1"},
                              trl_own = {.framework = "1.9", .trl = "1.9"};
        CHECK(hwfit_memory_profile_apply_releases(NULL, &rel, 1, &in, &sets) == HWFIT_EINVAL);
        CHECK(hwfit_memory_profile_apply_releases("unsloth", NULL, 1, &in, &sets) ==
              HWFIT_EINVAL);
        CHECK(hwfit_memory_profile_apply_releases("unsloth", &rel, 1, NULL, &sets) ==
              HWFIT_EINVAL);
        CHECK(hwfit_memory_profile_apply_releases("unsloth", &rel, 0, &in, &sets) == HWFIT_EDOM);
        CHECK(hwfit_memory_profile_apply_releases("unsloth", &bad_trl, 1, &in, &sets) ==
              HWFIT_EPARSE);
        CHECK(hwfit_memory_profile_apply_releases("unsloth", &huge, 1, &in, &sets) ==
              HWFIT_EPARSE);
        CHECK(hwfit_memory_profile_apply_releases("trl", &trl_own, 1, &in, &sets) ==
              HWFIT_EUNSUPPORTED);
        CHECK(hwfit_memory_profile_apply_releases("no-such-framework", &rel, 1, &in, &sets) ==
              HWFIT_ENOTFOUND);
    }
    CHECK(memcmp(&in, &copy, sizeof in) == 0 && sets == 7);
    CHECK(hwfit_memory_attention_flash(NULL, NULL) == 0);
    CHECK(hwfit_memory_attention(NULL, NULL) == HWFIT_ATTENTION_EAGER);
    {
        uint32_t rl[HWFIT_MEMORY_RECORDS] = {7};
        CHECK(hwfit_memory_record_lengths_parse(NULL, rl) == HWFIT_EINVAL && rl[0] == 7);
        CHECK(hwfit_memory_record_lengths_parse("1", NULL) == HWFIT_EINVAL);
        CHECK(hwfit_memory_record_lengths_parse("\xff", rl) == HWFIT_EPARSE && rl[0] == 7);
        CHECK(hwfit_memory_records_typical(1e300, 1e300, UINT64_MAX, UINT64_MAX, UINT64_MAX,
                                           rl) == HWFIT_OK);
        CHECK(hwfit_memory_records_typical(1e-300, 1e300, 1, 1, 1, rl) == HWFIT_OK &&
              rl[0] == 0);
        CHECK(hwfit_memory_records_typical(-0.0, 0, 1, 1, 1, rl) == HWFIT_EDOM);
    }
    {
        hwfit_memory_in bad;
        hwfit_memory_init(&bad);
        bad.flash_attention = INT_MIN; /* outside 0..3: not fused, and refused by estimates */
        CHECK(hwfit_memory_attention_flash(NULL, &bad) == 0);
        CHECK(hwfit_memory_attention(NULL, &bad) == HWFIT_ATTENTION_EAGER);
        bad.flash_attention = HWFIT_ATTENTION_SDPA;
        bad.card_no_flash = 1; /* no model: MHA without sinks, fused */
        CHECK(hwfit_memory_attention(NULL, &bad) == HWFIT_ATTENTION_FLASH);
    }
    CHECK(hwfit_memory_profile_summary(NULL) == NULL);
    CHECK(hwfit_memory_profile_summary("no-such-framework") == NULL);
    size_t n = 0;
    while (hwfit_memory_profile_name(n) != NULL) {
        CHECK(hwfit_memory_profile_summary(hwfit_memory_profile_name(n)) != NULL);
        n++;
    }
    CHECK(n > 0 && hwfit_memory_profile_name(SIZE_MAX) == NULL);
}
static void probe_op_from_name(void) {
    probe_parser(hwfit_collective_op_from_name_any, sizeof(hwfit_collective_op),
                 P(EINVAL) | P(ENOTFOUND));
}
static void probe_algorithm_from_name(void) {
    probe_parser(hwfit_collective_algorithm_from_name_any, sizeof(hwfit_collective_algorithm),
                 P(EINVAL) | P(ENOTFOUND));
}
static void probe_protocol_from_name(void) {
    probe_parser(hwfit_collective_protocol_from_name_any, sizeof(hwfit_collective_protocol),
                 P(EINVAL) | P(ENOTFOUND));
}
static void probe_parse_nic(void) {
    probe_parser(hwfit_topology_parse_nic_any, sizeof(hwfit_topology),
                 P(EINVAL) | P(EPARSE) | P(EDOM));
}
static void probe_gpu_find(void) {
    probe_parser(gpu_find_any, sizeof(const hwfit_gpu *), P(EINVAL) | P(ENOTFOUND));
}
static void probe_units_parse(void) {
    probe_parser(units_any, sizeof(double), P(OK) | P(EINVAL) | P(EPARSE) | P(EDOM) | P(ERANGE));
    double v = -1;
    static const int units[] = {-1, 8, 77, INT_MAX};
    for (size_t i = 0; i < N(units); i++)
        CHECK(hwfit_units_parse("1", (hwfit_unit)units[i], &v) == HWFIT_EINVAL && v == -1);
    CHECK(hwfit_units_parse("1e400GB", HWFIT_UNIT_BYTES, &v) == HWFIT_ERANGE && v == -1);
    CHECK(hwfit_units_parse("1e308EB", HWFIT_UNIT_BYTES, &v) == HWFIT_ERANGE && v == -1);
    CHECK(hwfit_units_parse("-1GB", HWFIT_UNIT_BYTES, &v) == HWFIT_EDOM && v == -1);
}
static void probe_redundancy_parse(void) {
    probe_parser(redundancy_any, sizeof(uint64_t), P(OK) | P(EINVAL) | P(EPARSE) | P(EDOM));
    uint64_t m = 7;
    hwfit_problem p;
    const uint64_t psus[] = {0, 1, UINT64_MAX};
    for (size_t i = 0; i < N(psus); i++) {
        hwfit_status st = hwfit_psu_redundancy_parse("1", psus[i], &m);
        CHECK(st == hwfit_psu_redundancy_validate("1", psus[i], &p) && p.status == st);
        st = hwfit_psu_redundancy_parse("2N", psus[i], &m);
        CHECK(st == hwfit_psu_redundancy_validate("2N", psus[i], &p) && p.status == st);
    }
    CHECK(hwfit_psu_redundancy_parse("1000000+1", UINT64_MAX, &m) == HWFIT_EDOM);
    CHECK(hwfit_psu_redundancy_validate(NULL, 4, &p) == HWFIT_EINVAL);
    CHECK(hwfit_psu_redundancy_validate("N+1", 4, NULL) == HWFIT_OK);
}

/* ---- dtype, units formatting, names, catalogs, status, readers --------------------------------- */

static void probe_dtype_values(void) {
    static const int ids[] = {-1, HWFIT_DTYPE_COUNT_, 77, INT_MAX};
    static const uint32_t groups[] = {1, 7, HWFIT_DTYPE_MAX_GROUP, HWFIT_DTYPE_MAX_GROUP + 1,
                                      UINT32_MAX};
    char buf[HWFIT_DTYPE_NAME_SIZE];
    hwfit_dtype_info info;
    double bits = -1;
    uint64_t bytes = 7;
    for (size_t i = 0; i < N(ids); i++) {
        hwfit_dtype d = {(hwfit_dtype_id)ids[i], 0};
        CHECK(hwfit_dtype_make(d.id).id == d.id); /* make only stores */
        CHECK(hwfit_dtype_format(d, buf, sizeof buf) == HWFIT_EINVAL);
        CHECK(hwfit_dtype_describe(d, &info) == HWFIT_EINVAL);
        CHECK(hwfit_dtype_bits(d, &bits) == HWFIT_EINVAL && bits == -1);
        CHECK(hwfit_dtype_bytes(d, 1, &bytes) == HWFIT_EINVAL && bytes == 7);
        CHECK(hwfit_dtype_matrix_bytes(d, 1, 1, &bytes) == HWFIT_EINVAL && bytes == 7);
    }
    for (size_t i = 0; i < N(groups); i++) {
        hwfit_dtype int4 = {HWFIT_DTYPE_INT4, groups[i]}, bf16 = {HWFIT_DTYPE_BF16, groups[i]};
        hwfit_status want = groups[i] <= HWFIT_DTYPE_MAX_GROUP ? HWFIT_OK : HWFIT_EDOM;
        CHECK(hwfit_dtype_bits(int4, &bits) == want);
        CHECK(hwfit_dtype_bits(bf16, &bits) == HWFIT_EDOM); /* only int4 takes a group */
        CHECK(hwfit_dtype_format(bf16, buf, sizeof buf) == HWFIT_EDOM);
    }
    hwfit_dtype fp32 = hwfit_dtype_make(HWFIT_DTYPE_FP32);
    CHECK(hwfit_dtype_format(fp32, NULL, 8) == HWFIT_EINVAL);
    CHECK(hwfit_dtype_format(fp32, buf, 0) == HWFIT_EBUFSIZE);
    CHECK(hwfit_dtype_format(fp32, buf, 2) == HWFIT_EBUFSIZE && strlen(buf) == 1);
    CHECK(hwfit_dtype_describe(fp32, NULL) == HWFIT_EINVAL);
    CHECK(hwfit_dtype_bits(fp32, NULL) == HWFIT_EINVAL);
    CHECK(hwfit_dtype_bytes(fp32, 1, NULL) == HWFIT_EINVAL);
    CHECK(hwfit_dtype_matrix_bytes(fp32, 1, 1, NULL) == HWFIT_EINVAL);
    /* Counts that overflow 64 bits of bytes. */
    bytes = 7;
    CHECK(hwfit_dtype_bytes(fp32, UINT64_MAX, &bytes) == HWFIT_ERANGE && bytes == 7);
    CHECK(hwfit_dtype_matrix_bytes(fp32, (uint64_t)1 << 40, (uint64_t)1 << 40, &bytes) ==
              HWFIT_ERANGE &&
          bytes == 7);
    hwfit_dtype nf4 = hwfit_dtype_make(HWFIT_DTYPE_NF4);
    CHECK(hwfit_dtype_matrix_bytes(nf4, UINT64_MAX, 2, &bytes) == HWFIT_ERANGE && bytes == 7);
    hwfit_dtype q4 = hwfit_dtype_make(HWFIT_DTYPE_Q4_K);
    CHECK(hwfit_dtype_bytes(q4, UINT64_MAX, &bytes) == HWFIT_OK); /* 4.5 bits: fits */
    CHECK(hwfit_dtype_bytes(q4, 0, &bytes) == HWFIT_OK && bytes == 0);
}

static void probe_dtype_listing(void) {
    hwfit_dtype d = {(hwfit_dtype_id)77, 77};
    CHECK(hwfit_dtype_count() > 0);
    CHECK(hwfit_dtype_at(0, NULL) == HWFIT_EINVAL);
    CHECK(hwfit_dtype_at(hwfit_dtype_count(), &d) == HWFIT_EDOM && d.id == (hwfit_dtype_id)77);
    CHECK(hwfit_dtype_at(SIZE_MAX, &d) == HWFIT_EDOM && d.group_size == 77);
}

static void probe_units_format(void) {
    char buf[48];
    static const double values[] = {NAN, INFINITY, -INFINITY};
    for (int u = 0; u <= (int)HWFIT_UNIT_FLOP; u++) {
        for (size_t i = 0; i < N(values); i++)
            CHECK(hwfit_units_format(values[i], (hwfit_unit)u, buf, sizeof buf) == HWFIT_EDOM);
        static const double big[] = {DBL_MAX, -DBL_MAX, DBL_MIN, 4.9e-324, -0.0, 0.0};
        for (size_t i = 0; i < N(big); i++) {
            CHECK(hwfit_units_format(big[i], (hwfit_unit)u, buf, sizeof buf) == HWFIT_OK);
            CHECK(strlen(buf) < sizeof buf);
        }
        CHECK(hwfit_units_format(1.0, (hwfit_unit)u, NULL, 8) == HWFIT_EINVAL);
        CHECK(hwfit_units_format(123456.0, (hwfit_unit)u, buf, 0) == HWFIT_EBUFSIZE);
        CHECK(hwfit_units_format(123456.0, (hwfit_unit)u, buf, 3) == HWFIT_EBUFSIZE &&
              strlen(buf) == 2);
    }
    CHECK(hwfit_units_format(1.0, (hwfit_unit)8, buf, sizeof buf) == HWFIT_EINVAL);
    CHECK(hwfit_units_format(1.0, (hwfit_unit)-1, buf, sizeof buf) == HWFIT_EINVAL);
}

static void probe_units_format_count(void) {
    char buf[27];
    CHECK(hwfit_units_format_count(UINT64_MAX, buf, sizeof buf) == HWFIT_OK);
    CHECK(strcmp(buf, "18,446,744,073,709,551,615") == 0);
    CHECK(hwfit_units_format_count(1, NULL, 8) == HWFIT_EINVAL);
    CHECK(hwfit_units_format_count(1000, buf, 0) == HWFIT_EBUFSIZE);
    CHECK(hwfit_units_format_count(1000, buf, 3) == HWFIT_EBUFSIZE && strcmp(buf, "1,") == 0);
}

/* Every _name function: any value, even outside its enum, gives a static non-NULL string. */
typedef const char *(*namer)(int);
#define NAMER(fn, type)                                                                      \
    static const char *fn##_int(int v) { return fn((type)v); }
NAMER(hwfit_status_name, hwfit_status)
NAMER(hwfit_status_str, hwfit_status)
NAMER(hwfit_raid_level_name, hwfit_raid_level)
NAMER(hwfit_storage_transport_name, hwfit_storage_transport)
NAMER(hwfit_power_component_kind_name, hwfit_power_component_kind)
NAMER(hwfit_psu_class_name, hwfit_psu_class)
NAMER(hwfit_psu_table_name, hwfit_psu_table)
NAMER(hwfit_cooling_name, hwfit_cooling)
NAMER(hwfit_gpu_vendor_name, hwfit_gpu_vendor)
NAMER(hwfit_gpu_form_factor_name, hwfit_gpu_form_factor)
NAMER(hwfit_gpu_peer_link_name, hwfit_gpu_peer_link)
NAMER(hwfit_gpu_peer_topology_name, hwfit_gpu_peer_topology)
NAMER(hwfit_link_kind_name, hwfit_link_kind)
NAMER(hwfit_collective_op_name, hwfit_collective_op)
NAMER(hwfit_collective_algorithm_name, hwfit_collective_algorithm)
NAMER(hwfit_collective_protocol_name, hwfit_collective_protocol)
NAMER(hwfit_collective_bottleneck_name, hwfit_collective_bottleneck)

static void probe_namer(namer fn, const char *unknown) {
    static const int values[] = {-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 77, INT_MAX,
                                 INT_MIN};
    for (size_t i = 0; i < N(values); i++) {
        const char *s = fn(values[i]);
        CHECK(s != NULL && strlen(s) > 0);
    }
    CHECK(strcmp(fn(-1), unknown) == 0 && strcmp(fn(INT_MAX), unknown) == 0);
}
#define NAMER_PROBE(fn, unknown)                                                             \
    static void probe_##fn(void) { probe_namer(fn##_int, unknown); }
NAMER_PROBE(hwfit_status_name, "HWFIT_UNKNOWN")
NAMER_PROBE(hwfit_status_str, "unknown status")
NAMER_PROBE(hwfit_raid_level_name, "unknown")
NAMER_PROBE(hwfit_storage_transport_name, "unknown")
NAMER_PROBE(hwfit_power_component_kind_name, "unknown")
NAMER_PROBE(hwfit_psu_class_name, "unknown")
NAMER_PROBE(hwfit_psu_table_name, "unknown")
NAMER_PROBE(hwfit_cooling_name, "unknown")
NAMER_PROBE(hwfit_gpu_vendor_name, "unknown")
NAMER_PROBE(hwfit_gpu_form_factor_name, "unknown")
NAMER_PROBE(hwfit_gpu_peer_link_name, "unknown")
NAMER_PROBE(hwfit_gpu_peer_topology_name, "unknown")
NAMER_PROBE(hwfit_link_kind_name, "unknown")
NAMER_PROBE(hwfit_collective_op_name, "unknown")
NAMER_PROBE(hwfit_collective_algorithm_name, "unknown")
NAMER_PROBE(hwfit_collective_protocol_name, "unknown")
NAMER_PROBE(hwfit_collective_bottleneck_name, "unknown")

static void probe_gpu_catalog(void) {
    CHECK(hwfit_gpu_count() > 0);
    CHECK(hwfit_gpu_at(hwfit_gpu_count()) == NULL && hwfit_gpu_at(SIZE_MAX) == NULL);
    for (size_t i = 0; i < hwfit_gpu_count(); i++) {
        const hwfit_gpu *g = hwfit_gpu_at(i), *found = NULL;
        CHECK(g != NULL && g->name != NULL && g->source != NULL);
        CHECK(hwfit_gpu_find(g->name, &found) == HWFIT_OK && found == g);
    }
}

/* Cards of one's own: NULLs, broken rows, hostile files; a refusal leaves the set alone. */
static void probe_gpu_set(void) {
    hwfit_problem p;
    CHECK(hwfit_gpu_validate(NULL, &p) == HWFIT_EINVAL && p.status == HWFIT_EINVAL);
    CHECK(hwfit_gpu_validate(hwfit_gpu_at(0), NULL) == HWFIT_OK);
    hwfit_gpu bad = *hwfit_gpu_at(0);
    bad.name = NULL;
    CHECK(hwfit_gpu_validate(&bad, &p) == HWFIT_EINVAL);
    bad = *hwfit_gpu_at(0);
    bad.memory_bandwidth_bytes_per_s = NAN;
    CHECK(hwfit_gpu_validate(&bad, &p) == HWFIT_EDOM);
    bad = *hwfit_gpu_at(0);
    bad.peer_topology = (hwfit_gpu_peer_topology)-1;
    CHECK(hwfit_gpu_validate(&bad, &p) == HWFIT_EINVAL);
    CHECK(hwfit_gpu_set_new(NULL) == HWFIT_EINVAL);
    hwfit_gpu_set_free(NULL);
    CHECK(hwfit_gpu_set_count(NULL) == 0 && hwfit_gpu_set_at(NULL, 0) == NULL);
    hwfit_gpu_set *set = NULL;
    CHECK(hwfit_gpu_set_new(&set) == HWFIT_OK && set != NULL);
    if (set == NULL) return;
    CHECK(hwfit_gpu_set_add(NULL, hwfit_gpu_at(0), &p) == HWFIT_EINVAL);
    CHECK(hwfit_gpu_set_add(set, NULL, &p) == HWFIT_EINVAL);
    CHECK(hwfit_gpu_set_add(set, hwfit_gpu_at(0), NULL) == HWFIT_EDOM); /* a built-in name */
    hwfit_gpu mine = *hwfit_gpu_at(0);
    mine.name = "mine";
    CHECK(hwfit_gpu_set_add(set, &mine, &p) == HWFIT_OK);
    CHECK(hwfit_gpu_set_add(set, &mine, &p) == HWFIT_EDOM);
    CHECK(hwfit_gpu_set_at(set, 1) == NULL && hwfit_gpu_set_at(set, SIZE_MAX) == NULL);
    const hwfit_gpu *g = (const hwfit_gpu *)&g, *sentinel = g;
    CHECK(hwfit_gpu_lookup(set, NULL, &g) == HWFIT_EINVAL && g == sentinel);
    CHECK(hwfit_gpu_lookup(set, "mine", NULL) == HWFIT_EINVAL);
    CHECK(hwfit_gpu_lookup(set, "", &g) == HWFIT_ENOTFOUND && g == sentinel);
    CHECK(hwfit_gpu_lookup(NULL, "mine", &g) == HWFIT_ENOTFOUND && g == sentinel);
    CHECK(hwfit_gpu_lookup(set, "mine", &g) == HWFIT_OK && g == hwfit_gpu_set_at(set, 0));
    hwfit_error e;
    CHECK(hwfit_gpu_file_load(NULL, set, &e) == HWFIT_EINVAL);
    CHECK(hwfit_gpu_file_load("x.json", NULL, &e) == HWFIT_EINVAL);
    CHECK(hwfit_gpu_file_load("/nonexistent/gpus.json", set, &e) == HWFIT_EIO);
    CHECK(hwfit_gpu_file_load("/", set, NULL) == HWFIT_EIO);
    CHECK(hwfit_gpu_file_parse(NULL, 0, NULL, set, &e) == HWFIT_EINVAL);
    CHECK(hwfit_gpu_file_parse("{}", 2, NULL, NULL, &e) == HWFIT_EINVAL);
    static const char *const hostile[] = {
        "", "[", "[1e999]", "{}", "[]", "null", "[[[[[[[[[[]]]]]]]]]]", "{\"name\": 3}",
        "{\"name\": \"x\", \"memory_bytes\": -1}", "{\"gpus\": [{}]}",
        "{\"name\": \"x\", \"memory_bytes\": \"1e400GB\", \"memory_bandwidth_bytes_per_s\": 1,"
        " \"tdp_w\": 1, \"fp32_flop_per_s\": 1, \"fp16_bf16_flop_per_s\": 1}",
        "{\"name\": \"x\", \"memory_bytes\": 1.5, \"memory_bandwidth_bytes_per_s\": 1,"
        " \"tdp_w\": 1, \"fp32_flop_per_s\": 1, \"fp16_bf16_flop_per_s\": 1}",
        "{\"name\": \"x\", \"memory_bytes\": \"\", \"int8_op_per_s\": \"OPSOPSOPSOPSOPS\"}"};
    for (size_t i = 0; i < N(hostile); i++) {
        CHECK(hwfit_gpu_file_parse(hostile[i], strlen(hostile[i]), "h.json", set, &e) != HWFIT_OK,
              "(%zu)", i);
        CHECK(hwfit_gpu_set_count(set) == 1, "(%zu)", i);
    }
    CHECK(hwfit_gpu_file_parse("[1e999]", 7, NULL, set, NULL) != HWFIT_OK);
    hwfit_gpu_set_free(set);
}

static void probe_version(void) {
    CHECK(hwfit_version_number() == HWFIT_VERSION_NUMBER);
    CHECK(strcmp(hwfit_version_string(), HWFIT_VERSION_STRING) == 0);
}

static void probe_clears(void) {
    hwfit_error_clear(NULL);
    hwfit_problem_clear(NULL);
    hwfit_error e;
    poison(&e, sizeof e);
    hwfit_error_clear(&e);
    CHECK(e.status == HWFIT_OK && e.message[0] == '\0' && e.line == 0);
    hwfit_problem p;
    poison(&p, sizeof p);
    hwfit_problem_clear(&p);
    CHECK(p.status == HWFIT_OK && p.field[0] == '\0' && p.rule[0] == '\0' && p.index == 0);
}

static void probe_psu_efficiency(void) {
    double e = -1;
    CHECK(hwfit_psu_efficiency(HWFIT_POWER_CLASS_GOLD, HWFIT_POWER_TABLE_AUTO, 0.5, NULL) ==
          HWFIT_EINVAL);
    static const double bad[] = {NAN, INFINITY, -INFINITY, -1.0, 100.0 + 1e-9, DBL_MAX};
    for (size_t i = 0; i < N(bad); i++)
        CHECK(hwfit_psu_efficiency(HWFIT_POWER_CLASS_GOLD, HWFIT_POWER_TABLE_AUTO, bad[i], &e) ==
                  HWFIT_EDOM &&
              e == -1);
    CHECK(hwfit_psu_efficiency((hwfit_psu_class)-1, HWFIT_POWER_TABLE_AUTO, 0.5, &e) ==
          HWFIT_EINVAL);
    CHECK(hwfit_psu_efficiency(HWFIT_POWER_CLASS_GOLD, (hwfit_psu_table)77, 0.5, &e) ==
          HWFIT_EINVAL);
    CHECK(hwfit_psu_efficiency(HWFIT_POWER_CLASS_NONE, HWFIT_POWER_TABLE_AUTO, 0.5, &e) ==
              HWFIT_EUNSUPPORTED &&
          e == -1);
    static const double odd[] = {0.0, DBL_MIN, 100.0};
    for (size_t i = 0; i < N(odd); i++) {
        CHECK(hwfit_psu_efficiency(HWFIT_POWER_CLASS_GOLD, HWFIT_POWER_TABLE_AUTO, odd[i], &e) ==
              HWFIT_OK);
        CHECK(e > 0.0 && e <= 1.0);
    }
}

static void probe_budget_add(void) {
    hwfit_power_budget_in in;
    hwfit_power_budget_init(&in);
    CHECK(hwfit_power_budget_add(NULL, HWFIT_POWER_COMPONENT_GPU, 1, 1) == HWFIT_EINVAL);
    hwfit_power_budget_in before = in;
    CHECK(hwfit_power_budget_add(&in, (hwfit_power_component_kind)-1, 1, 1) == HWFIT_EINVAL);
    CHECK(hwfit_power_budget_add(&in, (hwfit_power_component_kind)9, 1, 1) == HWFIT_EINVAL);
    static const double bad[] = {NAN, INFINITY, -INFINITY, -1.0, 1e7 + 1, DBL_MAX};
    for (size_t i = 0; i < N(bad); i++)
        CHECK(hwfit_power_budget_add(&in, HWFIT_POWER_COMPONENT_GPU, 1, bad[i]) == HWFIT_EDOM);
    CHECK(hwfit_power_budget_add(&in, HWFIT_POWER_COMPONENT_GPU, 1000001, 1) == HWFIT_EDOM);
    CHECK(hwfit_power_budget_add(&in, HWFIT_POWER_COMPONENT_GPU, UINT64_MAX, 1) == HWFIT_EDOM);
    CHECK(memcmp(&in, &before, sizeof in) == 0);
    for (int i = 0; i < HWFIT_POWER_MAX_COMPONENTS; i++)
        CHECK(hwfit_power_budget_add(&in, HWFIT_POWER_COMPONENT_GPU, 1000000, 1e7) == HWFIT_OK);
    before = in;
    CHECK(hwfit_power_budget_add(&in, HWFIT_POWER_COMPONENT_GPU, 1, 1) == HWFIT_EBUFSIZE);
    CHECK(memcmp(&in, &before, sizeof in) == 0);
    hwfit_power_budget_out o; /* the largest budget is finite */
    CHECK(hwfit_power_budget_evaluate(&in, &o) == HWFIT_OK && hwfit__finite(o.peak_dc_w));
}

static void probe_raid_min_drives(void) {
    hwfit_raid_layout l = {HWFIT_STORAGE_RAID6, 2, 0, 0, 0, 0};
    uint64_t n = 7;
    CHECK(hwfit_raid_min_drives(NULL, &n) == HWFIT_EINVAL);
    CHECK(hwfit_raid_min_drives(&l, NULL) == HWFIT_EINVAL);
    l.level = (hwfit_raid_level)77;
    CHECK(hwfit_raid_min_drives(&l, &n) == HWFIT_EINVAL && n == 7);
    l.level = HWFIT_STORAGE_RAID10;
    l.copies = 1;
    CHECK(hwfit_raid_min_drives(&l, &n) == HWFIT_EDOM && n == 7);
    l.level = HWFIT_STORAGE_RAID60;
    l.groups = (uint64_t)1 << 63; /* 4 drives per group x 2^63 groups */
    CHECK(hwfit_raid_min_drives(&l, &n) == HWFIT_ERANGE && n == 7);
    l.level = HWFIT_STORAGE_DRAID3;
    l.draid_spares = UINT64_MAX - 1;
    CHECK(hwfit_raid_min_drives(&l, &n) == HWFIT_ERANGE && n == 7);
    l.draid_spares = UINT64_MAX - 10;
    l.draid_data = UINT64_MAX;
    CHECK(hwfit_raid_min_drives(&l, &n) == HWFIT_ERANGE && n == 7);
}

static void probe_busbw_factor(void) {
    double f = -1;
    CHECK(hwfit_collective_busbw_factor(HWFIT_COLLECTIVE_ALLREDUCE, 8, NULL) == HWFIT_EINVAL);
    CHECK(hwfit_collective_busbw_factor((hwfit_collective_op)-1, 8, &f) == HWFIT_EINVAL);
    CHECK(hwfit_collective_busbw_factor((hwfit_collective_op)7, 8, &f) == HWFIT_EINVAL);
    CHECK(hwfit_collective_busbw_factor(HWFIT_COLLECTIVE_ALLREDUCE, 0, &f) == HWFIT_EDOM);
    CHECK(f == -1);
    for (int op = 0; op <= (int)HWFIT_COLLECTIVE_SENDRECV; op++) {
        CHECK(hwfit_collective_busbw_factor((hwfit_collective_op)op, UINT64_MAX, &f) == HWFIT_OK);
        CHECK(f >= 0.0 && f <= 2.0);
        CHECK(hwfit_collective_busbw_factor((hwfit_collective_op)op, 1, &f) == HWFIT_OK);
        CHECK(hwfit__finite(f));
    }
}

static void probe_topology_setters(void) {
    hwfit_topology t, before;
    const hwfit_gpu *g = hwfit_gpu_at(0);
    hwfit_topology_init(&t);
    before = t;
    CHECK(hwfit_topology_set_gpu(NULL, g) == HWFIT_EINVAL);
    CHECK(hwfit_topology_set_gpu(&t, NULL) == HWFIT_EINVAL);
    CHECK(hwfit_topology_set_cpu(NULL, HWFIT_CPU_AMD) == HWFIT_EINVAL);
    CHECK(hwfit_topology_set_cpu(&t, (hwfit_cpu_vendor)-1) == HWFIT_EINVAL);
    CHECK(hwfit_topology_set_cpu(&t, (hwfit_cpu_vendor)3) == HWFIT_EINVAL);
    CHECK(memcmp(&t, &before, sizeof t) == 0);
    for (size_t i = 0; i < hwfit_gpu_count(); i++) {
        hwfit_collective_in in;
        hwfit_collective_init(&in);
        CHECK(hwfit_topology_set_gpu(&in.topology, hwfit_gpu_at(i)) == HWFIT_OK);
        for (int v = 0; v <= (int)HWFIT_CPU_ARM; v++) {
            CHECK(hwfit_topology_set_cpu(&in.topology, (hwfit_cpu_vendor)v) == HWFIT_OK);
            hwfit_collective_out o;
            hwfit_status st = hwfit_collective_estimate(&in, &o);
            CHECK(st == HWFIT_OK || st == HWFIT_EDOM); /* e.g. a 72-GPU domain in 8 GPUs */
        }
    }
}

static void probe_hf_config(void) {
    static hwfit_model m, p;
    hwfit_error e;
    poison(&m, sizeof m);
    p = m;
    CHECK(hwfit_hf_config_parse(NULL, 0, NULL, &m, &e) == HWFIT_EINVAL);
    CHECK(hwfit_hf_config_parse("{}", 2, NULL, NULL, &e) == HWFIT_EINVAL);
    CHECK(hwfit_hf_config_load(NULL, &m, &e) == HWFIT_EINVAL);
    CHECK(hwfit_hf_config_load("x.json", NULL, &e) == HWFIT_EINVAL);
    CHECK(hwfit_hf_config_load("/nonexistent/config.json", &m, &e) == HWFIT_EIO);
    CHECK(e.status == HWFIT_EIO && strstr(e.message, "/nonexistent/config.json") != NULL);
    CHECK(hwfit_hf_config_load("/", &m, NULL) == HWFIT_EIO); /* a directory; err optional */
    CHECK(hwfit_hf_config_parse("", 0, NULL, &m, &e) == HWFIT_EPARSE);
    CHECK(hwfit_hf_config_parse("{}", 2, "c.json", &m, &e) == HWFIT_EPARSE);
    CHECK(hwfit_hf_config_parse("[1e999]", 7, NULL, &m, NULL) == HWFIT_ERANGE);
    CHECK(hwfit_hf_config_parse("{}", (size_t)HWFIT_HF_CONFIG_MAX_BYTES + 1, NULL, &m, &e) ==
          HWFIT_ERANGE);
    const char *huge = "{\"model_type\": \"llama\", \"num_hidden_layers\": 32, "
                       "\"hidden_size\": 1099511627776, \"intermediate_size\": 1099511627776, "
                       "\"num_attention_heads\": 32, \"vocab_size\": 1099511627776}";
    hwfit_status st = hwfit_hf_config_parse(huge, strlen(huge), NULL, &m, &e);
    CHECK(st == HWFIT_ERANGE || st == HWFIT_EPARSE, "(%s)", e.message);
    CHECK(memcmp(&m, &p, sizeof m) == 0);
}

/* The stored formats (hf_quant.h), the exact and stored weights (memory.h) and the
 * safetensors reader (safetensors.h): NULLs, empty and hostile input, outputs untouched. */
static void probe_quant(void) {
    static hwfit_model_stored s, ps;
    hwfit_error e;
    poison(&s, sizeof s);
    ps = s;
    CHECK(hwfit_hf_quant_parse(NULL, 0, NULL, &s, &e) == HWFIT_EINVAL);
    CHECK(hwfit_hf_quant_parse("{}", 2, NULL, NULL, &e) == HWFIT_EINVAL);
    CHECK(hwfit_hf_quant_parse("", 0, NULL, &s, &e) == HWFIT_EPARSE);
    CHECK(hwfit_hf_quant_parse("{}", (size_t)HWFIT_HF_QUANT_MAX_BYTES + 1, NULL, &s, &e) ==
          HWFIT_ERANGE);
    const char *q = "{\"quant_method\": \"gptq\", \"bits\": 4, \"group_size\": 1e300}";
    CHECK(hwfit_hf_quant_parse(q, strlen(q), NULL, &s, &e) == HWFIT_EPARSE, "(%s)", e.message);
    CHECK(memcmp(&s, &ps, sizeof s) == 0);
    char buf[8];
    CHECK(hwfit_hf_quant_describe(NULL, buf, sizeof buf) == HWFIT_EINVAL);
    CHECK(hwfit_hf_quant_describe(&s, buf, sizeof buf) == HWFIT_EINVAL); /* poisoned formats */
    CHECK(strcmp(hwfit_hf_quant_method_name((hwfit_model_quant)77), "unknown") == 0);
    CHECK(strcmp(hwfit_hf_quant_method_name(HWFIT_MODEL_QUANT_COMPRESSED),
                 "compressed-tensors") == 0);
    static hwfit_model m;
    hwfit_model_init(&m);
    hwfit_memory_in in;
    hwfit_memory_init(&in);
    hwfit_memory_out out;
    memset(&out, 0, sizeof out);
    int applied = 7;
    CHECK(hwfit_memory_use_stored(NULL, &in, &applied) == HWFIT_EINVAL && applied == 0);
    CHECK(hwfit_memory_use_stored(&m, NULL, NULL) == HWFIT_EINVAL);
    CHECK(hwfit_memory_use_stored(&m, &in, NULL) == HWFIT_OK);
    CHECK(hwfit_memory_use_exact(NULL, &in, 1, &out, &applied) == HWFIT_EINVAL);
    CHECK(hwfit_memory_use_exact(&m, &in, 1, NULL, NULL) == HWFIT_EINVAL);
    m.layers = 2;
    out.weights_bytes = 100; /* the other parts are smaller: not an estimate */
    CHECK(hwfit_memory_use_exact(&m, &in, 1, &out, &applied) == HWFIT_EDOM);
    hwfit_safetensors_info info, pi;
    hwfit_safetensors_init(NULL);
    hwfit_safetensors_init(&info);
    pi = info;
    CHECK(hwfit_safetensors_header_add(NULL, 0, 0, 0, NULL, &info, &e) == HWFIT_EINVAL);
    CHECK(hwfit_safetensors_header_add("{}", 2, 0, 0, NULL, NULL, &e) == HWFIT_EINVAL);
    CHECK(hwfit_safetensors_header_add("{}", (size_t)HWFIT_SAFETENSORS_MAX_HEADER + 1, 0, 0,
                                       NULL, &info, &e) == HWFIT_ERANGE);
    const char *h = "{\"a\": {\"dtype\": \"BF16\", \"shape\": [1e300], "
                    "\"data_offsets\": [0, 2]}}";
    CHECK(hwfit_safetensors_header_add(h, strlen(h), UINT64_MAX, 0, NULL, &info, &e) ==
          HWFIT_EPARSE);
    CHECK(memcmp(&info, &pi, sizeof info) == 0);
    CHECK(hwfit_safetensors_file_add(NULL, 0, &info, &e) == HWFIT_EINVAL);
    CHECK(hwfit_safetensors_file_add("/", 0, &info, &e) == HWFIT_EIO);
    CHECK(hwfit_safetensors_dir_read(NULL, 0, &info, &e) == HWFIT_EINVAL);
    CHECK(hwfit_safetensors_dir_read("/nonexistent", 0, &info, &e) == HWFIT_ENOTFOUND);
    CHECK(memcmp(&info, &pi, sizeof info) == 0);
}

#define SPECS HWFIT_TEST_DATA "/../../examples/specs/"
#define MODELS HWFIT_TEST_DATA "/models"

/* ---- shard, perf, node, node_spec, assess, svg, chart, report (merged from main) -------- */

/* A shard input that fits: Llama-3.1-8B inference on one 80 GB card. */
static void shard_base(hwfit_shard_in *in) {
    hwfit_shard_init(in);
    in->gpus = 1;
    in->capacity_bytes = 80e9;
}

/* Doubles of a shard input, with the documented status set of shard_estimate. */
#define SHARD_DOUBLES(T, p)                                                                  \
    F(T, p capacity_bytes, "capacity_bytes"), F(T, p utilization, "utilization"),            \
        F(T, p reserve_bytes, "reserve_bytes"), F(T, p comm_group_bytes, "comm_group_bytes"), \
        F(T, p bucket_bytes, "bucket_bytes"), F(T, p host_memory_bytes, "host_memory_bytes"), \
        F(T, p host_utilization, "host_utilization"),                                        \
        F(T, p host_buffer_factor, "host_buffer_factor"),                                    \
        F(T, p reduce_bucket_elements, "reduce_bucket_elements"),                            \
        F(T, p memory.overhead_bytes, "memory.overhead_bytes")
static const field shard_doubles[] = {SHARD_DOUBLES(hwfit_shard_in, )};
#define SHARD_STATUSES S(OK) | S(EINVAL) | S(EDOM) | S(ERANGE) | S(EUNSUPPORTED)

/* Every double of `fields` set to NaN, infinities, negatives and extremes: a documented
 * status, the output untouched unless OK. `run` computes into out. */
typedef hwfit_status (*runner)(const void *in, void *out);

/* What the last runner's _validate reported (runners with a companion set it): the sweep
 * checks that a NaN or infinity is refused naming its field ("utilization", or
 * "shard.utilization" where the shard input is nested). */
static hwfit_problem last_problem;
static int have_last_problem;
static int names_field(const char *got, const char *want) {
    size_t g = strlen(got), w = strlen(want);
    return g >= w && strcmp(got + g - w, want) == 0 && (g == w || got[g - w - 1] == '.');
}
static void sweep_doubles(const void *base, size_t in_size, size_t out_size, const field *fields,
                          size_t n, runner run, unsigned statuses, int nan_is_edom) {
    static const double vals[] = {NAN, INFINITY, -INFINITY, -1.0, -DBL_MAX, 0.0, 4.9e-324,
                                  1e-300, 1e300, DBL_MAX};
    void *work = malloc(in_size), *out = malloc(out_size);
    cr_assert(work && out);
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < N(vals); k++) {
            memcpy(work, base, in_size);
            memcpy((char *)work + fields[i].offset, &vals[k], sizeof(double));
            poison(out, out_size);
            hwfit_status st = run(work, out);
            CHECK(ANY_OF(st, statuses), "(%s = %g gave %s)", fields[i].name, vals[k],
                  hwfit_status_name(st));
            if (st != HWFIT_OK) CHECK(untouched(out, out_size), "(%s = %g)", fields[i].name, vals[k]);
            if (nan_is_edom && k < 3)
                CHECK(st == HWFIT_EDOM, "(%s = %g gave %s)", fields[i].name, vals[k],
                      hwfit_status_name(st));
            if (nan_is_edom && k < 3 && have_last_problem)
                CHECK(names_field(last_problem.field, fields[i].name), "(%s = %g named %s)",
                      fields[i].name, vals[k], last_problem.field);
        }
    }
    free(work);
    free(out);
}

static hwfit_model shard_model; /* Llama-3.1-8B, set by the probes before a sweep */
static hwfit_status shard_run(const void *in, void *out) {
    hwfit_status st = hwfit_shard_estimate(&shard_model, in, out);
    hwfit_status vst = hwfit_shard_validate(&shard_model, in, &last_problem);
    CHECK(vst == st && last_problem.status == st, "(_validate %s, call %s)",
          hwfit_status_name(vst), hwfit_status_name(st));
    have_last_problem = 1;
    return st;
}

static void probe_shard(void) {
    llama_8b(&shard_model);
    hwfit_shard_in in;
    shard_base(&in);
    hwfit_shard_out o;
    CHECK(hwfit_shard_estimate(&shard_model, &in, &o) == HWFIT_OK && o.fits);
    poison(&o, sizeof o);
    CHECK(hwfit_shard_estimate(NULL, &in, &o) == HWFIT_EINVAL && untouched(&o, sizeof o));
    CHECK(hwfit_shard_estimate(&shard_model, NULL, &o) == HWFIT_EINVAL && untouched(&o, sizeof o));
    CHECK(hwfit_shard_estimate(&shard_model, &in, NULL) == HWFIT_EINVAL);
    sweep_doubles(&in, sizeof in, sizeof o, shard_doubles, N(shard_doubles), shard_run,
                  SHARD_STATUSES, 1);
    /* Counts at their extremes: a documented status, never a crash. */
    static const uint64_t big[] = {0, 1, UINT32_MAX, (uint64_t)1 << 40, UINT64_MAX};
    for (size_t k = 0; k < N(big); k++) {
        hwfit_shard_in w = in;
        w.memory.batch = big[k];
        w.layout.micro_batch = big[k];
        w.layout.global_batch = big[k];
        w.gpus = (uint32_t)big[k];
        w.layout.tp = (uint32_t)big[k];
        poison(&o, sizeof o);
        hwfit_status st = shard_run(&w, &o);
        CHECK(ANY_OF(st, SHARD_STATUSES | S(ELAYOUT)), "(%s)", hwfit_status_name(st));
        if (st != HWFIT_OK) CHECK(untouched(&o, sizeof o));
    }
    /* Enums out of range: EINVAL naming the field. */
    hwfit_shard_in w = in;
    w.memory.mode = (hwfit_memory_mode)77;
    poison(&o, sizeof o);
    CHECK(shard_run(&w, &o) == HWFIT_EINVAL && untouched(&o, sizeof o));
    CHECK(strcmp(last_problem.field, "memory.mode") == 0);
    w = in;
    w.layout.recompute = (hwfit_memory_recompute)-1;
    CHECK(shard_run(&w, &o) == HWFIT_EINVAL && untouched(&o, sizeof o));
    CHECK(strcmp(last_problem.field, "layout.recompute") == 0);
    /* _validate: NULL arguments named, the report optional. */
    hwfit_problem vp;
    CHECK(hwfit_shard_validate(NULL, &in, &vp) == HWFIT_EINVAL && strcmp(vp.field, "model") == 0);
    CHECK(hwfit_shard_validate(&shard_model, NULL, &vp) == HWFIT_EINVAL &&
          strcmp(vp.field, "in") == 0);
    CHECK(hwfit_shard_validate(&shard_model, &in, NULL) == HWFIT_OK);
    CHECK(hwfit_shard_validate(&shard_model, &in, &vp) == HWFIT_OK && vp.status == HWFIT_OK);

    /* The batch entry point agrees with the single one and refuses NULL arrays. */
    hwfit_shard_in ins[3] = {in, in, in};
    ins[1].capacity_bytes = NAN;
    hwfit_shard_out outs[3];
    hwfit_status sts[3];
    poison(outs, sizeof outs);
    CHECK(hwfit_shard_estimate_batch(&shard_model, ins, 3, outs, sts) == HWFIT_EDOM);
    CHECK(sts[0] == HWFIT_OK && sts[1] == HWFIT_EDOM && sts[2] == HWFIT_OK);
    CHECK(untouched(&outs[1], sizeof outs[1]));
    CHECK(hwfit_shard_estimate_batch(NULL, ins, 3, outs, sts) == HWFIT_EINVAL);
    CHECK(hwfit_shard_estimate_batch(&shard_model, NULL, 3, outs, sts) == HWFIT_EINVAL);
    CHECK(hwfit_shard_estimate_batch(&shard_model, ins, 3, NULL, sts) == HWFIT_EINVAL);
    CHECK(hwfit_shard_estimate_batch(&shard_model, ins, 3, outs, NULL) == HWFIT_EINVAL);
    CHECK(hwfit_shard_estimate_batch(&shard_model, NULL, 0, NULL, NULL) == HWFIT_OK);

    /* The workspace variants: the same results bit for bit; a NULL, small or misaligned
     * workspace is refused before anything is written. */
    size_t wsz = hwfit_shard_workspace_size();
    CHECK(wsz > 0);
    unsigned char *ws = malloc(wsz + 1);
    cr_assert_not_null(ws);
    hwfit_shard_out outs_ws[3], one, one_ws;
    hwfit_status sts_ws[3];
    poison(outs_ws, sizeof outs_ws);
    CHECK(hwfit_shard_estimate_batch_ws(&shard_model, ins, 3, outs_ws, sts_ws, NULL, wsz) ==
          HWFIT_EINVAL);
    CHECK(hwfit_shard_estimate_batch_ws(&shard_model, ins, 3, outs_ws, sts_ws, ws, wsz - 1) ==
          HWFIT_EINVAL);
    CHECK(hwfit_shard_estimate_batch_ws(&shard_model, ins, 3, outs_ws, sts_ws, ws + 1, wsz) ==
          HWFIT_EINVAL);
    CHECK(hwfit_shard_estimate_batch_ws(NULL, ins, 3, outs_ws, sts_ws, ws, wsz) == HWFIT_EINVAL);
    CHECK(untouched(outs_ws, sizeof outs_ws));
    CHECK(hwfit_shard_estimate_batch_ws(&shard_model, ins, 3, outs_ws, sts_ws, ws, wsz) ==
          HWFIT_EDOM);
    CHECK(sts_ws[0] == HWFIT_OK && sts_ws[1] == HWFIT_EDOM && sts_ws[2] == HWFIT_OK);
    CHECK(memcmp(&outs_ws[0], &outs[0], sizeof outs[0]) == 0);
    CHECK(memcmp(&outs_ws[2], &outs[2], sizeof outs[2]) == 0);
    CHECK(untouched(&outs_ws[1], sizeof outs_ws[1]));
    CHECK(hwfit_shard_estimate_batch_ws(&shard_model, NULL, 0, NULL, NULL, ws, wsz) == HWFIT_OK);
    poison(&one_ws, sizeof one_ws);
    CHECK(hwfit_shard_estimate_ws(NULL, &in, &one_ws, ws, wsz) == HWFIT_EINVAL);
    CHECK(hwfit_shard_estimate_ws(&shard_model, NULL, &one_ws, ws, wsz) == HWFIT_EINVAL);
    CHECK(hwfit_shard_estimate_ws(&shard_model, &in, NULL, ws, wsz) == HWFIT_EINVAL);
    CHECK(hwfit_shard_estimate_ws(&shard_model, &in, &one_ws, NULL, wsz) == HWFIT_EINVAL);
    CHECK(hwfit_shard_estimate_ws(&shard_model, &in, &one_ws, ws, wsz - 1) == HWFIT_EINVAL);
    CHECK(hwfit_shard_estimate_ws(&shard_model, &in, &one_ws, ws + 1, wsz) == HWFIT_EINVAL);
    CHECK(untouched(&one_ws, sizeof one_ws));
    CHECK(hwfit_shard_estimate_ws(&shard_model, &ins[1], &one_ws, ws, wsz) == HWFIT_EDOM);
    CHECK(untouched(&one_ws, sizeof one_ws));
    CHECK(hwfit_shard_estimate(&shard_model, &in, &one) == HWFIT_OK);
    CHECK(hwfit_shard_estimate_ws(&shard_model, &in, &one_ws, ws, wsz) == HWFIT_OK);
    CHECK(memcmp(&one, &one_ws, sizeof one) == 0);
    free(ws);

    /* The prepared-model cache: refused when NULL, small, misaligned or never initialised
     * (nothing written); a refused input or model leaves the answer untouched. */
    CHECK(hwfit_shard_batch_workspace_size() >= hwfit_shard_workspace_size());
    size_t csz = hwfit_shard_cache_size();
    CHECK(csz > 0);
    unsigned char *cache = malloc(csz + 1);
    cr_assert_not_null(cache);
    poison(cache, csz + 1);
    CHECK(hwfit_shard_cache_init(NULL, csz) == HWFIT_EINVAL);
    CHECK(hwfit_shard_cache_init(cache, csz - 1) == HWFIT_EINVAL);
    CHECK(hwfit_shard_cache_init(cache + 1, csz) == HWFIT_EINVAL);
    poison(&one_ws, sizeof one_ws);
    CHECK(hwfit_shard_estimate_cached(&shard_model, &in, &one_ws, cache, csz) == HWFIT_EINVAL);
    CHECK(untouched(&one_ws, sizeof one_ws));
    CHECK(hwfit_shard_cache_init(cache, csz) == HWFIT_OK);
    CHECK(hwfit_shard_estimate_cached(NULL, &in, &one_ws, cache, csz) == HWFIT_EINVAL);
    CHECK(hwfit_shard_estimate_cached(&shard_model, NULL, &one_ws, cache, csz) == HWFIT_EINVAL);
    CHECK(hwfit_shard_estimate_cached(&shard_model, &in, NULL, cache, csz) == HWFIT_EINVAL);
    CHECK(hwfit_shard_estimate_cached(&shard_model, &in, &one_ws, NULL, csz) == HWFIT_EINVAL);
    CHECK(hwfit_shard_estimate_cached(&shard_model, &in, &one_ws, cache, csz - 1) ==
          HWFIT_EINVAL);
    CHECK(hwfit_shard_estimate_cached(&shard_model, &in, &one_ws, cache + 1, csz) ==
          HWFIT_EINVAL);
    CHECK(untouched(&one_ws, sizeof one_ws));
    CHECK(hwfit_shard_estimate_cached(&shard_model, &ins[1], &one_ws, cache, csz) == HWFIT_EDOM);
    CHECK(untouched(&one_ws, sizeof one_ws));
    hwfit_model broken = shard_model;
    broken.layers = 0;
    CHECK(hwfit_shard_estimate_cached(&broken, &in, &one_ws, cache, csz) != HWFIT_OK);
    CHECK(untouched(&one_ws, sizeof one_ws));
    CHECK(hwfit_shard_estimate_cached(&shard_model, &in, &one_ws, cache, csz) == HWFIT_OK);
    CHECK(memcmp(&one, &one_ws, sizeof one) == 0);
    free(cache);

    /* card_at: NULLs, a stage beyond the pipeline. */
    hwfit_shard_card c;
    poison(&c, sizeof c);
    CHECK(hwfit_shard_card_at(NULL, &in, 0, &c) == HWFIT_EINVAL && untouched(&c, sizeof c));
    CHECK(hwfit_shard_card_at(&shard_model, NULL, 0, &c) == HWFIT_EINVAL);
    CHECK(hwfit_shard_card_at(&shard_model, &in, 0, NULL) == HWFIT_EINVAL);
    hwfit_status st = hwfit_shard_card_at(&shard_model, &in, UINT32_MAX, &c);
    CHECK(st != HWFIT_OK && untouched(&c, sizeof c), "(%s)", hwfit_status_name(st));
    CHECK(hwfit_shard_card_at(&shard_model, &in, 0, &c) == HWFIT_OK);

    /* check: NULLs and a reason for an impossible layout. */
    hwfit_shard_reason r = HWFIT_SHARD_VALID;
    CHECK(hwfit_shard_check(NULL, &in, &r) == HWFIT_EINVAL);
    CHECK(hwfit_shard_check(&shard_model, NULL, &r) == HWFIT_EINVAL);
    w = in;
    w.layout.tp = 3; /* 32 heads */
    w.gpus = 3;
    st = hwfit_shard_check(&shard_model, &w, &r); /* OK: checked, and the reason says why not */
    CHECK(st == HWFIT_OK && r == HWFIT_SHARD_HEADS, "(%s, %s)", hwfit_status_name(st),
          hwfit_shard_reason_name(r));
    CHECK(hwfit_shard_check(&shard_model, &w, NULL) == HWFIT_EINVAL);
    /* ... and the estimate refuses it, output untouched. */
    poison(&o, sizeof o);
    CHECK(hwfit_shard_estimate(&shard_model, &w, &o) != HWFIT_OK && untouched(&o, sizeof o));
}

static void probe_shard_search(void) {
    llama_8b(&shard_model);
    hwfit_shard_in in;
    shard_base(&in);
    in.gpus = 8;
    hwfit_shard_space sp;
    hwfit_shard_space_init(&sp);
    hwfit_shard_result res[4];
    hwfit_shard_search_out sum;
    poison(res, sizeof res);
    poison(&sum, sizeof sum);
    CHECK(hwfit_shard_search(NULL, &in, &sp, res, 4, &sum) == HWFIT_EINVAL);
    CHECK(hwfit_shard_search(&shard_model, NULL, &sp, res, 4, &sum) == HWFIT_EINVAL);
    CHECK(hwfit_shard_search(&shard_model, &in, &sp, res, 4, NULL) == HWFIT_EINVAL);
    CHECK(untouched(res, sizeof res) && untouched(&sum, sizeof sum));
    hwfit_shard_in bad = in;
    bad.capacity_bytes = NAN;
    CHECK(hwfit_shard_search(&shard_model, &bad, &sp, res, 4, &sum) == HWFIT_EDOM);
    CHECK(untouched(res, sizeof res) && untouched(&sum, sizeof sum));
    CHECK(hwfit_shard_search(&shard_model, &in, &sp, res, 4, &sum) == HWFIT_OK);
    CHECK(sum.count <= 4 && sum.fitting <= sum.valid && sum.valid <= sum.visited);
    CHECK(hwfit_shard_search(&shard_model, &in, &sp, NULL, 0, &sum) == HWFIT_OK);

    hwfit_shard_iter it;
    hwfit_layout l;
    CHECK(hwfit_shard_iter_init(NULL, &shard_model, &in, &sp) == HWFIT_EINVAL);
    CHECK(hwfit_shard_iter_init(&it, NULL, &in, &sp) == HWFIT_EINVAL);
    CHECK(hwfit_shard_iter_init(&it, &shard_model, NULL, &sp) == HWFIT_EINVAL);
    CHECK(hwfit_shard_iter_next(NULL, &l) == 0);
    CHECK(hwfit_shard_iter_init(&it, &shard_model, &in, &sp) == HWFIT_OK);
    CHECK(hwfit_shard_iter_next(&it, NULL) == 0 || 1); /* documented either way: no crash */
    size_t n = 0;
    while (hwfit_shard_iter_next(&it, &l) && n < 100000) n++;
    CHECK(n > 0 && n < 100000);
    CHECK(hwfit_shard_iter_next(&it, &l) == 0); /* exhausted stays exhausted */

    uint32_t gpus = 0x5a5a5a5a;
    poison(&l, sizeof l);
    CHECK(hwfit_shard_min_gpus(NULL, &in, &sp, 64, &gpus, &l) == HWFIT_EINVAL);
    CHECK(hwfit_shard_min_gpus(&shard_model, &in, &sp, 64, NULL, &l) == HWFIT_EINVAL);
    CHECK(hwfit_shard_min_gpus(&shard_model, &bad, &sp, 64, &gpus, &l) == HWFIT_EDOM);
    CHECK(gpus == 0x5a5a5a5a && untouched(&l, sizeof l));
    CHECK(hwfit_shard_min_gpus(&shard_model, &in, &sp, 64, &gpus, &l) == HWFIT_OK && gpus == 1);
    hwfit_status st = hwfit_shard_min_gpus(&shard_model, &in, &sp, 0, &gpus, &l);
    CHECK(st != HWFIT_OK, "(max_gpus 0 gave %s)", hwfit_status_name(st));

    uint64_t v = 0x5a5a5a5a5a5a5a5aull;
    CHECK(hwfit_shard_max_context(NULL, &in, 0, &v) == HWFIT_EINVAL);
    CHECK(hwfit_shard_max_context(&shard_model, &in, 0, NULL) == HWFIT_EINVAL);
    CHECK(hwfit_shard_max_context(&shard_model, &bad, 0, &v) == HWFIT_EDOM);
    CHECK(hwfit_shard_max_batch(NULL, &in, 0, &v) == HWFIT_EINVAL);
    CHECK(hwfit_shard_max_batch(&shard_model, &in, 0, NULL) == HWFIT_EINVAL);
    CHECK(hwfit_shard_max_batch(&shard_model, &bad, 0, &v) == HWFIT_EDOM);
    CHECK(v == 0x5a5a5a5a5a5a5a5aull);
    const uint64_t limits[] = {0, 1, UINT32_MAX, UINT64_MAX};
    for (size_t i = 0; i < N(limits); i++) {
        st = hwfit_shard_max_context(&shard_model, &in, limits[i], &v);
        CHECK(ANY_OF(st, SHARD_STATUSES | S(ENOTFOUND) | S(ELAYOUT)), "(%s)", hwfit_status_name(st));
        if (st == HWFIT_OK && limits[i]) CHECK(v <= limits[i]);
        if (limits[i] == 0) CHECK(st == HWFIT_EDOM, "(limit 0 gave %s)", hwfit_status_name(st));
        st = hwfit_shard_max_batch(&shard_model, &in, limits[i], &v);
        CHECK(ANY_OF(st, SHARD_STATUSES | S(ENOTFOUND) | S(ELAYOUT)), "(%s)", hwfit_status_name(st));
        if (st == HWFIT_OK && limits[i]) CHECK(v <= limits[i]);
    }
}

static void probe_shard_small(void) {
    hwfit_layout_init(NULL);
    hwfit_shard_init(NULL);
    hwfit_shard_space_init(NULL);
    hwfit_layout l;
    poison(&l, sizeof l);
    hwfit_layout_init(&l);
    CHECK(l.tp == 1 && l.pp == 1 && l.dp == 1);
    unsigned off = 0x5a5a5a5a;
    CHECK(hwfit_shard_offload_parse(NULL, &off) == HWFIT_EINVAL);
    CHECK(hwfit_shard_offload_parse("none", NULL) == HWFIT_EINVAL);
    CHECK(hwfit_shard_offload_parse("", &off) != HWFIT_OK && off == 0x5a5a5a5a);
    CHECK(hwfit_shard_offload_parse("optimizer,bogus", &off) != HWFIT_OK && off == 0x5a5a5a5a);
    CHECK(hwfit_shard_offload_parse("optimizer", &off) == HWFIT_OK &&
          off == HWFIT_SHARD_OFFLOAD_OPTIMIZER);
}

static hwfit_status perf_run(const void *in, void *out) {
    hwfit_status st = hwfit_perf_estimate(&shard_model, in, out);
    hwfit_status vst = hwfit_perf_validate(&shard_model, in, &last_problem);
    CHECK(vst == st && last_problem.status == st, "(_validate %s, call %s)",
          hwfit_status_name(vst), hwfit_status_name(st));
    have_last_problem = 1;
    return st;
}

static void probe_perf(void) {
    llama_8b(&shard_model);
    hwfit_perf_in in;
    hwfit_perf_init(NULL);
    hwfit_perf_init(&in);
    const hwfit_gpu *g;
    cr_assert_eq(hwfit_gpu_find("h100-sxm", &g), HWFIT_OK);
    CHECK(hwfit_perf_set_gpu(NULL, g) == HWFIT_EINVAL && hwfit_perf_set_gpu(&in, NULL) == HWFIT_EINVAL);
    CHECK(hwfit_perf_set_gpu(&in, g) == HWFIT_OK);
    hwfit_perf_out o;
    CHECK(hwfit_perf_estimate(&shard_model, &in, &o) == HWFIT_OK);
    poison(&o, sizeof o);
    CHECK(hwfit_perf_estimate(NULL, &in, &o) == HWFIT_EINVAL && untouched(&o, sizeof o));
    CHECK(hwfit_perf_estimate(&shard_model, NULL, &o) == HWFIT_EINVAL && untouched(&o, sizeof o));
    CHECK(hwfit_perf_estimate(&shard_model, &in, NULL) == HWFIT_EINVAL);
    static const field perf_doubles[] = {
        F(hwfit_perf_in, memory_bandwidth_bytes_per_s, "memory_bandwidth_bytes_per_s"),
        F(hwfit_perf_in, tf32_flop_per_s, "tf32_flop_per_s"),
        F(hwfit_perf_in, bf16_flop_per_s, "bf16_flop_per_s"),
        F(hwfit_perf_in, fp8_flop_per_s, "fp8_flop_per_s"),
        F(hwfit_perf_in, fp4_flop_per_s, "fp4_flop_per_s"),
        F(hwfit_perf_in, int8_op_per_s, "int8_op_per_s"),
        F(hwfit_perf_in, prefill_efficiency, "prefill_efficiency"),
        F(hwfit_perf_in, decode_compute_efficiency, "decode_compute_efficiency"),
        F(hwfit_perf_in, memory_efficiency, "memory_efficiency"),
        F(hwfit_perf_in, training_efficiency, "training_efficiency"),
        F(hwfit_perf_in, step_overhead_s, "step_overhead_s"),
        F(hwfit_perf_in, tp_overlap, "tp_overlap"),
        F(hwfit_perf_in, pp_overlap, "pp_overlap"),
        F(hwfit_perf_in, dp_overlap, "dp_overlap"),
        F(hwfit_perf_in, ep_overlap, "ep_overlap"),
        F(hwfit_perf_in, target_tokens_per_s, "target_tokens_per_s"),
        F(hwfit_perf_in, low_precision_efficiency, "low_precision_efficiency"),
        F(hwfit_perf_in, moe_expert_overhead_s, "moe_expert_overhead_s"),
        F(hwfit_perf_in, power_limit_share, "power_limit_share"),
        F(hwfit_perf_in, power_exponent, "power_exponent"),
        F(hwfit_perf_in, activation_passes, "activation_passes"),
        F(hwfit_perf_in, selective_matmul_recompute, "selective_matmul_recompute"),
        SHARD_DOUBLES(hwfit_perf_in, shard.)};
    sweep_doubles(&in, sizeof in, sizeof o, perf_doubles, N(perf_doubles), perf_run,
                  SHARD_STATUSES, 1);
    hwfit_perf_in w = in;
    w.precision = (hwfit_perf_precision)77;
    poison(&o, sizeof o);
    CHECK(perf_run(&w, &o) == HWFIT_EINVAL && untouched(&o, sizeof o));
    CHECK(strcmp(last_problem.field, "precision") == 0);
    w = in;
    w.output_tokens = UINT64_MAX;
    hwfit_status st = perf_run(&w, &o);
    CHECK(ANY_OF(st, SHARD_STATUSES), "(%s)", hwfit_status_name(st));
    /* Counts at their extremes, the layout and several nodes without NICs: _validate
     * agrees with the estimate and names a field. */
    static const uint64_t big[] = {0, 1, UINT32_MAX, (uint64_t)1 << 40, UINT64_MAX};
    for (size_t k = 0; k < N(big); k++) {
        w = in;
        w.shard.gpus = (uint32_t)big[k];
        w.shard.layout.tp = (uint32_t)big[k];
        w.shard.layout.micro_batch = big[k];
        w.output_tokens = big[k];
        poison(&o, sizeof o);
        st = perf_run(&w, &o);
        CHECK(ANY_OF(st, SHARD_STATUSES | S(ELAYOUT)), "(%s)", hwfit_status_name(st));
        if (st != HWFIT_OK) CHECK(untouched(&o, sizeof o) && last_problem.field[0] != '\0');
    }
    w = in;
    w.shard.gpus = 16;
    w.shard.layout.tp = 16;
    w.shard.memory.batch = 16;
    w.topology.nics_per_node = 0;
    st = perf_run(&w, &o);
    CHECK(st == HWFIT_EDOM && strncmp(last_problem.field, "topology.", 9) == 0, "(%s %s)",
          hwfit_status_name(st), last_problem.field);
    hwfit_problem vp;
    CHECK(hwfit_perf_validate(NULL, &in, &vp) == HWFIT_EINVAL && strcmp(vp.field, "model") == 0);
    CHECK(hwfit_perf_validate(&shard_model, NULL, &vp) == HWFIT_EINVAL &&
          strcmp(vp.field, "in") == 0);
    CHECK(hwfit_perf_validate(&shard_model, &in, NULL) == HWFIT_OK);

    hwfit_shard_space sp;
    hwfit_shard_space_init(&sp);
    hwfit_perf_rank rank;
    CHECK(hwfit_perf_plan_rank(NULL, &sp, &rank) == HWFIT_EINVAL);
    CHECK(hwfit_perf_plan_rank(&in, &sp, NULL) == HWFIT_EINVAL);
    CHECK(hwfit_perf_plan_rank(&in, &sp, &rank) == HWFIT_OK);
    hwfit_perf_result res[2];
    hwfit_shard_search_out sum;
    poison(res, sizeof res);
    poison(&sum, sizeof sum);
    CHECK(hwfit_perf_plan(NULL, &in, &sp, res, 2, &sum) == HWFIT_EINVAL);
    CHECK(hwfit_perf_plan(&shard_model, NULL, &sp, res, 2, &sum) == HWFIT_EINVAL);
    CHECK(hwfit_perf_plan(&shard_model, &in, &sp, res, 2, NULL) == HWFIT_EINVAL);
    w = in;
    w.memory_efficiency = NAN;
    CHECK(hwfit_perf_plan(&shard_model, &w, &sp, res, 2, &sum) == HWFIT_EDOM);
    CHECK(untouched(res, sizeof res) && untouched(&sum, sizeof sum));
    in.shard.gpus = 2;
    CHECK(hwfit_perf_plan(&shard_model, &in, &sp, res, 2, &sum) == HWFIT_OK && sum.count <= 2);

    hwfit_perf_precision p = HWFIT_PERF_PRECISION_AUTO;
    CHECK(hwfit_perf_precision_from_name(NULL, &p) == HWFIT_EINVAL);
    CHECK(hwfit_perf_precision_from_name("bf16", NULL) == HWFIT_EINVAL);
    CHECK(hwfit_perf_precision_from_name("nonsense", &p) == HWFIT_ENOTFOUND);
    CHECK(p == HWFIT_PERF_PRECISION_AUTO);
}

static void probe_node(void) {
    hwfit_node_init(NULL);
    static hwfit_node n, m;
    hwfit_error e;
    poison(&n, sizeof n);
    m = n;
    CHECK(hwfit_node_load(NULL, &n, &e) == HWFIT_EINVAL);
    CHECK(hwfit_node_load("x.json", NULL, &e) == HWFIT_EINVAL);
    CHECK(hwfit_node_load("/nonexistent/node.json", &n, &e) == HWFIT_EIO);
    CHECK(hwfit_node_load("/", &n, NULL) == HWFIT_EIO);
    CHECK(hwfit_node_parse(NULL, 0, NULL, &n, &e) == HWFIT_EINVAL);
    CHECK(hwfit_node_parse("{}", 2, NULL, NULL, &e) == HWFIT_EINVAL);
    CHECK(hwfit_node_parse("", 0, NULL, &n, &e) == HWFIT_EPARSE);
    CHECK(hwfit_node_parse("[1e999]", 7, NULL, &n, NULL) != HWFIT_OK);
    CHECK(hwfit_node_parse("{\"gpus\": {\"count\": -1}}", 23, NULL, &n, &e) != HWFIT_OK);
    {
        hwfit_gpu_set *cards = NULL;
        CHECK(hwfit_gpu_set_new(&cards) == HWFIT_OK);
        CHECK(hwfit_node_load_cards(NULL, cards, &n, &e) == HWFIT_EINVAL);
        CHECK(hwfit_node_load_cards("x.json", NULL, &n, &e) == HWFIT_EINVAL);
        CHECK(hwfit_node_load_cards("x.json", cards, NULL, &e) == HWFIT_EINVAL);
        CHECK(hwfit_node_load_cards("/nonexistent/node.json", cards, &n, &e) == HWFIT_EIO);
        CHECK(hwfit_node_parse_cards(NULL, 0, NULL, cards, &n, &e) == HWFIT_EINVAL);
        CHECK(hwfit_node_parse_cards("{}", 2, NULL, NULL, &n, &e) == HWFIT_EINVAL);
        CHECK(hwfit_node_parse_cards("{}", 2, NULL, cards, NULL, &e) == HWFIT_EINVAL);
        CHECK(hwfit_node_parse_cards("", 0, NULL, cards, &n, &e) == HWFIT_EPARSE);
        CHECK(hwfit_node_parse_cards("{\"gpu\": {\"model\": {}}}", 22, NULL, cards, &n, NULL) !=
              HWFIT_OK);
        CHECK(hwfit_gpu_set_count(cards) == 0);
        hwfit_gpu_set_free(cards);
    }
    CHECK(memcmp(&n, &m, sizeof n) == 0);
    CHECK(hwfit_node_load(SPECS "seed-server.json", &n, &e) == HWFIT_OK, "(%s)", e.message);
    CHECK(hwfit_node_check(NULL, &e) == HWFIT_EINVAL);
    CHECK(hwfit_node_check(&n, NULL) == HWFIT_OK);
    static hwfit_node_eval ev;
    poison(&ev, sizeof ev);
    CHECK(hwfit_node_evaluate(NULL, &ev) == HWFIT_EINVAL && untouched(&ev, sizeof ev));
    CHECK(hwfit_node_evaluate(&n, NULL) == HWFIT_EINVAL);
    m = n;
    CHECK(hwfit_node_add_power(NULL, HWFIT_POWER_COMPONENT_FAN, 1, 100.0) == HWFIT_EINVAL);
    CHECK(hwfit_node_add_power(&m, HWFIT_POWER_COMPONENT_GPU, 1, 100.0) == HWFIT_EINVAL);
    CHECK(hwfit_node_add_power(&m, HWFIT_POWER_COMPONENT_FAN, UINT64_MAX, 1.0) == HWFIT_EDOM);
    CHECK(hwfit_node_add_power(&m, (hwfit_power_component_kind)77, 1, 100.0) == HWFIT_EINVAL);
    CHECK(hwfit_node_add_power(&m, HWFIT_POWER_COMPONENT_FAN, 1, NAN) == HWFIT_EDOM);
    CHECK(hwfit_node_add_power(&m, HWFIT_POWER_COMPONENT_FAN, 1, -1.0) == HWFIT_EDOM);
    CHECK(hwfit_node_add_power(&m, HWFIT_POWER_COMPONENT_FAN, 1, INFINITY) == HWFIT_EDOM);
    CHECK(memcmp(&m, &n, sizeof m) == 0);
    CHECK(hwfit_node_evaluate(&n, &ev) == HWFIT_OK);
    /* A node made inconsistent after loading is refused by evaluate, output untouched. */
    m = n;
    m.gpu.count = 0;
    poison(&ev, sizeof ev);
    hwfit_status st = hwfit_node_evaluate(&m, &ev);
    if (st != HWFIT_OK) CHECK(untouched(&ev, sizeof ev));
    CHECK(hwfit_node_check(&m, &e) == st, "(check %s)", e.message);

    hwfit_assess_workload_init(NULL);
    hwfit_assess_options_init(NULL);
    static hwfit_model model;
    hwfit_assess_workload wl;
    poison(&wl, sizeof wl);
    CHECK(hwfit_assess_workload_parse(NULL, MODELS, &wl, &model, &e) == HWFIT_EINVAL);
    CHECK(hwfit_assess_workload_parse("serve:llama-3.1-8b:bf16:8K", MODELS, NULL, &model, &e) ==
          HWFIT_EINVAL);
    CHECK(hwfit_assess_workload_parse("serve:llama-3.1-8b:bf16:8K", MODELS, &wl, NULL, &e) ==
          HWFIT_EINVAL);
    CHECK(hwfit_assess_workload_parse("", MODELS, &wl, &model, &e) != HWFIT_OK);
    CHECK(hwfit_assess_workload_parse("serve:no-such-model:bf16:8K", MODELS, &wl, &model, &e) !=
          HWFIT_OK);
    CHECK(hwfit_assess_workload_parse("serve:llama-3.1-8b:bf16:99999999999999999999", MODELS,
                                      &wl, &model, &e) != HWFIT_OK);
    CHECK(untouched(&wl, sizeof wl));
}

static void probe_assess(void) {
    static hwfit_node n;
    static hwfit_model model;
    static hwfit_finding f[256];
    hwfit_error e;
    cr_assert_eq(hwfit_node_load(SPECS "seed-server.json", &n, &e), HWFIT_OK);
    hwfit_assess_workload wl;
    cr_assert_eq(hwfit_assess_workload_parse("serve:llama-3.1-8b:bf16:8K", MODELS, &wl, &model, &e),
                 HWFIT_OK, "%s", e.message);
    size_t count = 0x5a5a;
    CHECK(hwfit_assess_max_findings(SIZE_MAX) > 0); /* saturates, never wraps to 0 */
    CHECK(hwfit_assess(NULL, &wl, 1, NULL, f, 256, &count) == HWFIT_EINVAL);
    CHECK(hwfit_assess(&n, NULL, 1, NULL, f, 256, &count) == HWFIT_EINVAL);
    CHECK(hwfit_assess(&n, &wl, 1, NULL, NULL, 256, &count) == HWFIT_EINVAL);
    CHECK(hwfit_assess(&n, &wl, 1, NULL, f, 256, NULL) == HWFIT_EINVAL);
    CHECK(count == 0x5a5a);
    hwfit_status st = hwfit_assess(&n, &wl, 1, NULL, f, 1, &count);
    CHECK(st == HWFIT_EBUFSIZE || st == HWFIT_OK, "(%s)", hwfit_status_name(st));
    CHECK(hwfit_assess(&n, &wl, 1, NULL, f, 256, &count) == HWFIT_OK && count > 0);
    /* The workspace variant: NULL, too small or misaligned workspaces are refused; a good
     * one gives the same findings. */
    size_t wsz = hwfit_assess_workspace_size();
    CHECK(wsz > 0);
    unsigned char *ws = malloc(wsz + 1);
    cr_assert_not_null(ws);
    size_t count2 = 0x5a5a;
    CHECK(hwfit_assess_ws(&n, &wl, 1, NULL, f, 256, &count2, NULL, wsz) == HWFIT_EINVAL);
    CHECK(hwfit_assess_ws(&n, &wl, 1, NULL, f, 256, &count2, ws, wsz - 1) == HWFIT_EINVAL);
    CHECK(hwfit_assess_ws(&n, &wl, 1, NULL, f, 256, &count2, ws + 1, wsz) == HWFIT_EINVAL);
    CHECK(hwfit_assess_ws(NULL, &wl, 1, NULL, f, 256, &count2, ws, wsz) == HWFIT_EINVAL);
    CHECK(count2 == 0x5a5a);
    CHECK(hwfit_assess_ws(&n, &wl, 1, NULL, f, 256, &count2, ws, wsz) == HWFIT_OK);
    CHECK(count2 == count);
    free(ws);
    for (size_t i = 0; i < count; i++) {
        for (size_t k = 0; k < f[i].figure_count; k++) {
            CHECK(hwfit__finite(f[i].figures[k].value), "(%s %s)", f[i].rule, f[i].figures[k].key);
            char buf[128];
            CHECK(hwfit_figure_format(&f[i].figures[k], buf, sizeof buf) == HWFIT_OK);
            CHECK(hwfit_figure_format(&f[i].figures[k], buf, 1) == HWFIT_EBUFSIZE);
            double v;
            CHECK(hwfit_finding_figure(&f[i], f[i].figures[k].key, &v) == HWFIT_OK);
        }
    }
    double v = 7.0;
    char buf[16];
    CHECK(hwfit_finding_figure(NULL, "x", &v) == HWFIT_EINVAL);
    CHECK(hwfit_finding_figure(&f[0], NULL, &v) == HWFIT_EINVAL);
    CHECK(hwfit_finding_figure(&f[0], "x", NULL) == HWFIT_EINVAL);
    CHECK(hwfit_finding_figure(&f[0], "no such figure", &v) == HWFIT_ENOTFOUND && v == 7.0);
    CHECK(hwfit_figure_format(NULL, buf, sizeof buf) == HWFIT_EINVAL);
    CHECK(hwfit_figure_format(&f[0].figures[0], NULL, 16) == HWFIT_EINVAL);

    /* the HTML report */
    hwfit_report_options_init(NULL);
    hwfit_report_options ro;
    hwfit_report_options_init(&ro);
    size_t needed = 12345;
    char small[8];
    memset(small, 0x5a, sizeof small);
    CHECK(hwfit_report_html(NULL, &wl, 1, f, count, &ro, small, sizeof small, &needed) ==
          HWFIT_EINVAL);
    CHECK(hwfit_report_html(&n, NULL, 1, f, count, &ro, small, sizeof small, &needed) ==
          HWFIT_EINVAL);
    CHECK(hwfit_report_html(&n, &wl, 1, NULL, count, &ro, small, sizeof small, &needed) ==
          HWFIT_EINVAL);
    CHECK(needed == 12345);
    st = hwfit_report_html(&n, &wl, 1, f, count, &ro, small, sizeof small, &needed);
    CHECK(st == HWFIT_EBUFSIZE && needed > sizeof small, "(%s)", hwfit_status_name(st));
    CHECK(untouched(small, sizeof small));
    char *html = malloc(needed);
    cr_assert_not_null(html);
    CHECK(hwfit_report_html(&n, &wl, 1, f, count, &ro, html, needed, &needed) == HWFIT_OK);
    /* needed counts the NUL */
    CHECK(strncmp(html, "<!DOCTYPE html>", 15) == 0 && strlen(html) + 1 == needed);
    free(html);
    CHECK(hwfit_report_html(&n, &wl, 1, f, count, &ro, NULL, 0, &needed) == HWFIT_EBUFSIZE);
}

static void probe_serve(void) {
    llama_8b(&shard_model);
    hwfit_serve_in in;
    hwfit_serve_init(NULL);
    hwfit_serve_init(&in);
    const hwfit_gpu *g;
    cr_assert_eq(hwfit_gpu_find("h100-sxm", &g), HWFIT_OK);
    CHECK(hwfit_serve_set_gpu(NULL, g) == HWFIT_EINVAL &&
          hwfit_serve_set_gpu(&in, NULL) == HWFIT_EINVAL);
    CHECK(hwfit_serve_set_gpu(&in, g) == HWFIT_OK);
    hwfit_serve_out o;
    CHECK(hwfit_serve_estimate(&shard_model, &in, &o) == HWFIT_OK);
    poison(&o, sizeof o);
    CHECK(hwfit_serve_estimate(NULL, &in, &o) == HWFIT_EINVAL && untouched(&o, sizeof o));
    CHECK(hwfit_serve_estimate(&shard_model, NULL, &o) == HWFIT_EINVAL && untouched(&o, sizeof o));
    CHECK(hwfit_serve_estimate(&shard_model, &in, NULL) == HWFIT_EINVAL);
    hwfit_problem vp;
    CHECK(hwfit_serve_validate(NULL, &in, &vp) == HWFIT_EINVAL && strcmp(vp.field, "model") == 0);
    CHECK(hwfit_serve_validate(&shard_model, NULL, &vp) == HWFIT_EINVAL &&
          strcmp(vp.field, "in") == 0);
    CHECK(hwfit_serve_validate(&shard_model, &in, NULL) == HWFIT_OK);
    const double bad[] = {-1.0, 2.0, NAN, INFINITY};
    for (size_t i = 0; i < N(bad); i++) {
        hwfit_serve_in x = in;
        x.utilization = bad[i];
        poison(&o, sizeof o);
        CHECK(hwfit_serve_estimate(&shard_model, &x, &o) == HWFIT_EDOM && untouched(&o, sizeof o));
        CHECK(hwfit_serve_validate(&shard_model, &x, &vp) == HWFIT_EDOM &&
              strcmp(vp.field, "utilization") == 0);
    }
    hwfit_serve_in x = in;
    x.engine = (hwfit_serve_engine)77;
    CHECK(hwfit_serve_estimate(&shard_model, &x, &o) == HWFIT_EINVAL);
    hwfit_serve_engine e = HWFIT_SERVE_SGLANG;
    CHECK(hwfit_serve_engine_from_name(NULL, &e) == HWFIT_EINVAL);
    CHECK(hwfit_serve_engine_from_name("vllm", NULL) == HWFIT_EINVAL);
    CHECK(hwfit_serve_engine_from_name("nonsense", &e) == HWFIT_ENOTFOUND && e == HWFIT_SERVE_SGLANG);
    CHECK(hwfit_serve_engine_from_name("llama.cpp", &e) == HWFIT_OK && e == HWFIT_SERVE_LLAMA_CPP);
    static const int values[] = {-1, 0, 1, 2, 3, 7, 77, INT_MAX, INT_MIN};
    for (size_t i = 0; i < N(values); i++) {
        const char *a = hwfit_serve_engine_name((hwfit_serve_engine)values[i]);
        const char *b = hwfit_serve_bound_name((hwfit_serve_bound)values[i]);
        CHECK(a != NULL && *a && b != NULL && *b, "(value %d)", values[i]);
    }
}

NAMER(hwfit_shard_reason_name, hwfit_shard_reason)
NAMER(hwfit_shard_reason_str, hwfit_shard_reason)
NAMER(hwfit_perf_rank_name, hwfit_perf_rank)
NAMER(hwfit_perf_precision_name, hwfit_perf_precision)
NAMER(hwfit_perf_bound_name, hwfit_perf_bound)
NAMER(hwfit_node_cooling_name, hwfit_node_cooling)
NAMER(hwfit_assess_topic_name, hwfit_assess_topic)
NAMER(hwfit_finding_kind_name, hwfit_finding_kind)
NAMER(hwfit_chart_metric_name, hwfit_chart_metric)
NAMER(hwfit_report_topic_title, hwfit_assess_topic)
static void probe_new_namers(void) {
    const namer fns[] = {hwfit_shard_reason_name_int,  hwfit_shard_reason_str_int,
                         hwfit_perf_rank_name_int,     hwfit_perf_precision_name_int,
                         hwfit_perf_bound_name_int,    hwfit_node_cooling_name_int,
                         hwfit_assess_topic_name_int,  hwfit_finding_kind_name_int,
                         hwfit_chart_metric_name_int,  hwfit_report_topic_title_int};
    static const int values[] = {-1, 0, 1, 2, 3, 7, 18, 19, 77, INT_MAX, INT_MIN};
    for (size_t f = 0; f < N(fns); f++)
        for (size_t i = 0; i < N(values); i++) {
            const char *s = fns[f](values[i]);
            CHECK(s != NULL && strlen(s) > 0, "(namer %zu value %d)", f, values[i]);
        }
    hwfit_chart_metric m = HWFIT_CHART_TIME;
    CHECK(hwfit_chart_metric_from_name(NULL, &m) == HWFIT_EINVAL);
    CHECK(hwfit_chart_metric_from_name("busbw", NULL) == HWFIT_EINVAL);
    CHECK(hwfit_chart_metric_from_name("nonsense", &m) == HWFIT_ENOTFOUND && m == HWFIT_CHART_TIME);
    CHECK(hwfit_chart_metric_from_name("busbw", &m) == HWFIT_OK && m == HWFIT_CHART_BUSBW);
}

/* A writer into a caller buffer: NULL in and NULL needed refused, too small a buffer gives
 * EBUFSIZE with *needed set, an exact buffer OK with a NUL-terminated document. */
typedef hwfit_status (*writer)(const void *in, char *buf, size_t size, size_t *needed);
static void probe_writer(writer w, const void *in, const char *start) {
    size_t needed = 12345;
    char small[4];
    memset(small, 0x5a, sizeof small);
    CHECK(w(NULL, small, sizeof small, &needed) == HWFIT_EINVAL && needed == 12345);
    CHECK(w(in, NULL, 16, &needed) == HWFIT_EINVAL);
    hwfit_status st = w(in, small, sizeof small, &needed);
    CHECK(st == HWFIT_EBUFSIZE && needed > sizeof small, "(%s)", hwfit_status_name(st));
    CHECK(untouched(small, sizeof small));
    CHECK(w(in, NULL, 0, &needed) == HWFIT_EBUFSIZE);
    char *buf = malloc(needed);
    cr_assert_not_null(buf);
    CHECK(w(in, buf, needed, NULL) == HWFIT_OK); /* needed is optional; it counts the NUL */
    CHECK(strncmp(buf, start, strlen(start)) == 0 && strlen(buf) + 1 == needed);
    free(buf);
}
static hwfit_status w_bars(const void *in, char *b, size_t s, size_t *n) {
    return hwfit_svg_stacked_bars(in, b, s, n);
}
static hwfit_status w_lines(const void *in, char *b, size_t s, size_t *n) {
    return hwfit_svg_lines(in, b, s, n);
}
static hwfit_status w_budget(const void *in, char *b, size_t s, size_t *n) {
    return hwfit_svg_budget(in, b, s, n);
}
static hwfit_status w_chart_collective(const void *in, char *b, size_t s, size_t *n) {
    return hwfit_chart_collective(in, b, s, n);
}
static hwfit_status w_chart_raid(const void *in, char *b, size_t s, size_t *n) {
    return hwfit_chart_raid(in, NULL, b, s, n);
}
static hwfit_status w_chart_memory(const void *in, char *b, size_t s, size_t *n) {
    return hwfit_chart_memory(in ? &shard_model : NULL, in, NULL, b, s, n);
}
typedef struct power_pair {
    hwfit_power_budget_in budget;
    hwfit_psu_in psu;
} power_pair;
static hwfit_status w_chart_power(const void *in, char *b, size_t s, size_t *n) {
    const power_pair *p = in;
    return hwfit_chart_power(p ? &p->budget : NULL, p ? &p->psu : NULL, NULL, b, s, n);
}

static void probe_svg(void) {
    hwfit_svg_stacked_bars_init(NULL);
    hwfit_svg_lines_init(NULL);
    hwfit_svg_budget_init(NULL);
    const char *labels[] = {"a", "b <&>"};
    const char *segs[] = {"x", "y\"'"};
    double values[] = {1.0, 2.0, 3.0, 4.0};
    hwfit_svg_stacked_bars_in bars;
    hwfit_svg_stacked_bars_init(&bars);
    bars.bar_count = 2;
    bars.bar_labels = labels;
    bars.segment_count = 2;
    bars.segment_labels = segs;
    bars.values = values;
    probe_writer(w_bars, &bars, "<?xml");
    /* NaN, infinities and negatives in the values: EDOM, the buffer untouched. */
    static const double bad[] = {NAN, INFINITY, -INFINITY, -1.0, 1e300};
    char buf[64];
    size_t needed;
    for (size_t i = 0; i < N(bad); i++) {
        double v[4] = {1.0, bad[i], 3.0, 4.0};
        hwfit_svg_stacked_bars_in b = bars;
        b.values = v;
        memset(buf, 0x5a, sizeof buf);
        hwfit_status st = hwfit_svg_stacked_bars(&b, buf, sizeof buf, &needed);
        CHECK(st == HWFIT_EDOM, "(value %g gave %s)", bad[i], hwfit_status_name(st));
        CHECK(untouched(buf, sizeof buf));
    }
    hwfit_svg_stacked_bars_in b = bars;
    b.values = NULL;
    CHECK(hwfit_svg_stacked_bars(&b, buf, sizeof buf, &needed) == HWFIT_EINVAL);
    b = bars;
    b.width_px = NAN;
    CHECK(hwfit_svg_stacked_bars(&b, buf, sizeof buf, &needed) == HWFIT_EDOM);
    b = bars;
    b.y.scale = (hwfit_svg_scale)77;
    CHECK(hwfit_svg_stacked_bars(&b, buf, sizeof buf, &needed) == HWFIT_EINVAL);

    double xs[] = {1.0, 2.0, 4.0}, ys[] = {1.0, 3.0, 2.0};
    hwfit_svg_series series = {"s <1>", xs, ys, 3};
    hwfit_svg_lines_in lines;
    hwfit_svg_lines_init(&lines);
    lines.series_count = 1;
    lines.series = &series;
    probe_writer(w_lines, &lines, "<?xml");
    for (size_t i = 0; i < N(bad); i++) {
        double y2[3] = {1.0, bad[i], 2.0};
        hwfit_svg_series s2 = {"s", xs, y2, 3};
        hwfit_svg_lines_in l = lines;
        l.series = &s2;
        hwfit_status st = hwfit_svg_lines(&l, buf, sizeof buf, &needed);
        CHECK(st == HWFIT_EDOM, "(y %g gave %s)", bad[i], hwfit_status_name(st));
    }

    hwfit_svg_budget_in bud;
    hwfit_svg_budget_init(&bud);
    bud.bar_count = 2;
    bud.bar_labels = labels;
    bud.values = values;
    probe_writer(w_budget, &bud, "<?xml");

    size_t n2 = 99;
    CHECK(hwfit_svg_escape(NULL, buf, sizeof buf, &n2) == HWFIT_EINVAL && n2 == 99);
    CHECK(hwfit_svg_escape("<&>\"'", buf, 4, &n2) == HWFIT_EBUFSIZE && n2 > 4);
    CHECK(hwfit_svg_escape("<&>\"'", buf, sizeof buf, &n2) == HWFIT_OK);
    CHECK(strchr(buf, '<') == NULL && strchr(buf, '"') == NULL);
    CHECK(hwfit_svg_color(0) != hwfit_svg_color(1));
    CHECK(hwfit_svg_color(SIZE_MAX) == hwfit_svg_color(SIZE_MAX % HWFIT_SVG_PALETTE_SIZE));
}

static void probe_chart(void) {
    hwfit_chart_options_init(NULL);
    hwfit_chart_collective_init(NULL);
    llama_8b(&shard_model);
    hwfit_shard_in in;
    shard_base(&in);
    probe_writer(w_chart_memory, &in, "<?xml");
    hwfit_shard_in bad = in;
    bad.capacity_bytes = NAN;
    char buf[64];
    size_t needed = 7;
    memset(buf, 0x5a, sizeof buf);
    CHECK(hwfit_chart_memory(&shard_model, &bad, NULL, buf, sizeof buf, &needed) == HWFIT_EDOM);
    CHECK(untouched(buf, sizeof buf) && needed == 7);
    hwfit_chart_options opt;
    hwfit_chart_options_init(&opt);
    opt.width_px = -1.0;
    CHECK(hwfit_chart_memory(&shard_model, &in, &opt, buf, sizeof buf, &needed) == HWFIT_EDOM);

    hwfit_collective_in lines[1];
    hwfit_collective_init(&lines[0]);
    hwfit_chart_collective_in cc;
    hwfit_chart_collective_init(&cc);
    cc.series_count = 1;
    cc.series = lines;
    probe_writer(w_chart_collective, &cc, "<?xml");
    hwfit_chart_collective_in c2 = cc;
    c2.min_bytes = NAN;
    CHECK(hwfit_chart_collective(&c2, buf, sizeof buf, &needed) == HWFIT_EDOM);
    c2 = cc;
    c2.min_bytes = 1e9;
    c2.max_bytes = 1.0; /* inverted range */
    CHECK(hwfit_chart_collective(&c2, buf, sizeof buf, &needed) != HWFIT_OK);
    c2 = cc;
    c2.metric = (hwfit_chart_metric)77;
    CHECK(hwfit_chart_collective(&c2, buf, sizeof buf, &needed) == HWFIT_EINVAL);
    c2 = cc;
    c2.series_count = HWFIT_CHART_MAX_SERIES + 1;
    CHECK(hwfit_chart_collective(&c2, buf, sizeof buf, &needed) != HWFIT_OK);
    CHECK(untouched(buf, sizeof buf));

    hwfit_raid_in raid;
    raid_base(&raid);
    probe_writer(w_chart_raid, &raid, "<?xml");
    raid.drive_bytes = NAN;
    CHECK(hwfit_chart_raid(&raid, NULL, buf, sizeof buf, &needed) == HWFIT_EDOM);

    power_pair pp;
    budget_base(&pp.budget);
    psu_base(&pp.psu);
    probe_writer(w_chart_power, &pp, "<?xml");
    CHECK(hwfit_chart_power(&pp.budget, NULL, NULL, buf, sizeof buf, &needed) == HWFIT_EINVAL);
    pp.psu.psu_rating_w = NAN;
    CHECK(hwfit_chart_power(&pp.budget, &pp.psu, NULL, buf, sizeof buf, &needed) == HWFIT_EDOM);
    CHECK(untouched(buf, sizeof buf));
}

static void probe_batches(void) {
    memory_block b;
    memory_infer_base(&b);
    hwfit_memory_in ins[3] = {b.in, b.in, b.in};
    ins[1].batch = 0;
    hwfit_memory_out outs[3], one;
    hwfit_status sts[3];
    poison(outs, sizeof outs);
    CHECK(hwfit_memory_estimate_batch(&b.model, ins, 3, outs, sts) == HWFIT_EDOM);
    CHECK(sts[0] == HWFIT_OK && sts[1] == HWFIT_EDOM && sts[2] == HWFIT_OK);
    CHECK(untouched(&outs[1], sizeof outs[1]));
    CHECK(hwfit_memory_estimate(&b.model, &ins[0], &one) == HWFIT_OK);
    CHECK(memcmp(&one, &outs[0], sizeof one) == 0);
    CHECK(hwfit_memory_estimate_batch(NULL, ins, 3, outs, sts) == HWFIT_EINVAL);
    CHECK(hwfit_memory_estimate_batch(&b.model, NULL, 3, outs, sts) == HWFIT_EINVAL);
    CHECK(hwfit_memory_estimate_batch(&b.model, ins, 3, NULL, sts) == HWFIT_EINVAL);
    CHECK(hwfit_memory_estimate_batch(&b.model, ins, 3, outs, NULL) == HWFIT_EINVAL);
    CHECK(hwfit_memory_estimate_batch(&b.model, NULL, 0, NULL, NULL) == HWFIT_OK);
    /* An invalid model: every element refused with the model's status. */
    b.model.heads = 0;
    poison(outs, sizeof outs);
    CHECK(hwfit_memory_estimate_batch(&b.model, ins, 3, outs, sts) == HWFIT_EDOM);
    CHECK(untouched(outs, sizeof outs));

    hwfit_collective_in cin[2];
    collective_base(&cin[0]);
    collective_base(&cin[1]);
    cin[1].bytes = NAN;
    hwfit_collective_out cout[2];
    poison(cout, sizeof cout);
    CHECK(hwfit_collective_estimate_batch(cin, 2, cout, sts) == HWFIT_OK ? 0 : 1);
    CHECK(sts[0] == HWFIT_OK && sts[1] == HWFIT_EDOM && untouched(&cout[1], sizeof cout[1]));
    CHECK(hwfit_collective_estimate_batch(NULL, 2, cout, sts) == HWFIT_EINVAL);
    CHECK(hwfit_collective_estimate_batch(cin, 2, NULL, sts) == HWFIT_EINVAL);
    CHECK(hwfit_collective_estimate_batch(cin, 2, cout, NULL) == HWFIT_EINVAL);
    CHECK(hwfit_collective_estimate_batch(NULL, 0, NULL, NULL) == HWFIT_OK);
}

/* ---- the table ------------------------------------------------------------------------------ */


/* ---- the request layer: every command, every option, hostile text ---------------------- */

#define REQ_STATUSES (S(OK) | S(EINVAL) | S(EDOM) | S(ERANGE) | S(ENOTFOUND) | S(EPARSE) | \
                      S(ENOMEM) | S(EIO) | S(EUNSUPPORTED) | S(EBUFSIZE) | S(ELAYOUT))

static void probe_request(void) {
    hwfit_request *r = (hwfit_request *)(uintptr_t)0x5a5a;
    CHECK(hwfit_request_new(NULL, &r) == HWFIT_EINVAL && r == (hwfit_request *)(uintptr_t)0x5a5a);
    CHECK(hwfit_request_new("units", NULL) == HWFIT_EINVAL);
    CHECK(hwfit_request_new("no-such", &r) == HWFIT_ENOTFOUND);
    CHECK(hwfit_request_new(long_text, &r) == HWFIT_ENOTFOUND);
    hwfit_request_free(NULL);
    CHECK(hwfit_request_set(NULL, "unit", "bytes") == HWFIT_EINVAL);
    CHECK(hwfit_request_run(NULL, HWFIT_FORMAT_JSON, NULL, 0, NULL) == HWFIT_EINVAL);
    CHECK(hwfit_request_run_record(NULL, NULL, 0, NULL) == HWFIT_EINVAL);
    CHECK(hwfit_request_set_all(NULL, NULL, 0) == HWFIT_EINVAL);
    CHECK(strcmp(hwfit_request_message(NULL), "") == 0 && hwfit_request_option(NULL) == NULL);
    CHECK(hwfit_request_option_name(NULL) == NULL);
    CHECK(hwfit_request_verdict(NULL) == 0 && hwfit_request_command(NULL) == NULL);
    size_t n = 99;
    CHECK(strcmp(hwfit_request_output(NULL, &n), "") == 0 && n == 0);
    CHECK(hwfit_command_by_name(NULL) == NULL && hwfit_command_by_name(long_text) == NULL);
    CHECK(hwfit_option_by_name(NULL, "unit") == NULL);
    CHECK(hwfit_option_next(NULL, NULL) == NULL);
    CHECK(hwfit_format_name((hwfit_format)99) == NULL && hwfit_format_name((hwfit_format)-1) == NULL);
    hwfit_command fake = {"units", "", "", 0};
    CHECK(hwfit_command_describe(&fake, NULL, 0, NULL) == HWFIT_EINVAL);
    CHECK(hwfit_command_describe(NULL, NULL, 5, NULL) == HWFIT_EINVAL);
    CHECK(hwfit_option_next(&fake, NULL) == NULL);
    char small[8];
    poison(small, sizeof small);
    size_t need = 0;
    CHECK(hwfit_command_describe(NULL, small, sizeof small, &need) == HWFIT_EBUFSIZE && need > 8);
    static const char *const texts[] = {"", "nan", "inf", "-1", "0", "1e400", "1e-400",
                                        "18446744073709551616", "99999999999999999999999K",
                                        "1,5", "\x01\xff", "true", "96GB"};
    /* The model cache: NULLs refused; every hostile request below reads through one. */
    CHECK(hwfit_model_cache_new(NULL) == HWFIT_EINVAL);
    CHECK(hwfit_request_use_cache(NULL, NULL) == HWFIT_EINVAL);
    CHECK(hwfit_request_reset(NULL) == HWFIT_EINVAL);
    hwfit_model_cache_free(NULL);
    hwfit_model_cache *cache = NULL;
    CHECK(hwfit_model_cache_new(&cache) == HWFIT_OK && cache != NULL);
    /* Its window: hostile values refused and the window left as it was. */
    CHECK(hwfit_model_cache_set_window(NULL, 1.0) == HWFIT_EINVAL);
    CHECK(hwfit_model_cache_window(NULL) == 0.0);
    static const double windows[] = {NAN, INFINITY, -INFINITY, -1e-300, -0.5, 86400.5, 1e300};
    for (size_t i = 0; i < N(windows); i++)
        CHECK(hwfit_model_cache_set_window(cache, windows[i]) == HWFIT_EDOM, "window %g",
              windows[i]);
    CHECK(hwfit_model_cache_window(cache) == 0.0);
    for (const hwfit_command *c = hwfit_command_next(NULL); c; c = hwfit_command_next(c)) {
        current = c->name;
        CHECK(hwfit_request_new(c->name, &r) == HWFIT_OK);
        CHECK(hwfit_request_use_cache(r, cache) == HWFIT_OK);
        CHECK(hwfit_request_command(r) == c);
        CHECK(hwfit_request_set(r, NULL, "1") == HWFIT_EINVAL);
        CHECK(hwfit_request_set(r, long_text, "1") == HWFIT_ENOTFOUND);
        CHECK(hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 3, NULL) == HWFIT_EINVAL);
        CHECK(hwfit_request_run(r, (hwfit_format)99, NULL, 0, NULL) == HWFIT_EUNSUPPORTED);
        for (const hwfit_option *o = hwfit_option_next(c, NULL); o; o = hwfit_option_next(c, o)) {
            for (size_t i = 0; i < N(texts); i++) {
                hwfit_status st = hwfit_request_set(r, o->name, texts[i]);
                CHECK(ANY_OF(st, REQ_STATUSES) && st != HWFIT_EBUFSIZE, "%s %s", o->name, texts[i]);
                CHECK(st == HWFIT_OK || hwfit_request_message(r)[0] != '\0', "%s", o->name);
            }
            hwfit_status st = hwfit_request_set(r, o->name, long_text);
            CHECK(ANY_OF(st, REQ_STATUSES), "%s long text", o->name);
            CHECK(strlen(hwfit_request_message(r)) < 512, "%s: message cut", o->name);
            if (o->kind != HWFIT_OPTION_FLAG)
                CHECK(hwfit_request_set(r, o->name, NULL) == HWFIT_EINVAL, "%s NULL", o->name);
        }
        /* Whatever the options now hold, a run answers or refuses with a message. */
        for (unsigned f = 0; f <= (unsigned)HWFIT_FORMAT_HTML; f++) {
            poison(small, sizeof small);
            hwfit_status st = hwfit_request_run(r, (hwfit_format)f, small, sizeof small, &need);
            CHECK(ANY_OF(st, REQ_STATUSES), "format %u", f);
            if (st != HWFIT_OK && st != HWFIT_EBUFSIZE)
                CHECK(hwfit_request_message(r)[0] != '\0', "format %u: no message", f);
            if (st != HWFIT_OK) CHECK(untouched(small, sizeof small), "format %u", f);
        }
        poison(small, sizeof small);
        hwfit_status rst = hwfit_request_run_record(r, small, sizeof small, &need);
        CHECK(ANY_OF(rst, REQ_STATUSES), "record");
        if (rst != HWFIT_OK) CHECK(untouched(small, sizeof small), "record");
        CHECK(hwfit_request_run_record(r, NULL, 3, NULL) == HWFIT_EINVAL);
        CHECK(hwfit_request_set_all(r, NULL, 1) == HWFIT_EINVAL);
        const char *const hostile_pairs[] = {long_text, "1"};
        CHECK(hwfit_request_set_all(r, hostile_pairs, 1) == HWFIT_ENOTFOUND);
        /* set and run in one: a refused option is not run and leaves needed and buf */
        size_t untold = 12345;
        poison(small, sizeof small);
        CHECK(hwfit_request_ask_record(r, hostile_pairs, 1, small, sizeof small, &untold) ==
              HWFIT_ENOTFOUND && untold == 12345 && untouched(small, sizeof small));
        CHECK(hwfit_request_message(r)[0] != '\0');
        CHECK(hwfit_request_ask_record(r, NULL, 1, small, sizeof small, NULL) == HWFIT_EINVAL);
        CHECK(hwfit_request_ask_record(r, NULL, 0, NULL, 3, NULL) == HWFIT_EINVAL);
        CHECK(hwfit_request_ask_record(NULL, NULL, 0, NULL, 0, NULL) == HWFIT_EINVAL);
        hwfit_status ast = hwfit_request_ask_record(r, NULL, 0, small, sizeof small, &need);
        CHECK(ANY_OF(ast, REQ_STATUSES), "ask_record");
        /* Reset after all that: every option back to its default, no message. */
        CHECK(hwfit_request_reset(r) == HWFIT_OK && hwfit_request_message(r)[0] == '\0');
        hwfit_request_free(r);
    }
    hwfit_model_cache_free(cache);
    current = "hwfit_request_*";
}


/* ---- model lookup (locate.h) ----------------------------------------------------------- */

static void probe_locate(void) {
    char path[HWFIT_LOCATE_PATH_SIZE];
    poison(path, sizeof path);
    CHECK(hwfit_model_locate(NULL, path, sizeof path) == HWFIT_EINVAL);
    CHECK(hwfit_model_locate("llama-3.1-8b", NULL, 8) == HWFIT_EINVAL);
    CHECK(hwfit_model_locate("", path, sizeof path) == HWFIT_EDOM);
    CHECK(hwfit_model_locate(long_text, path, sizeof path) == HWFIT_EDOM);
    CHECK(hwfit_model_locate("no/such-model-anywhere", path, sizeof path) == HWFIT_ENOTFOUND);
    CHECK(hwfit_model_locate("../../..//", path, sizeof path) != HWFIT_OK ||
          strlen(path) < sizeof path);
    CHECK(untouched(path, 8) || strlen(path) < sizeof path);
    CHECK(hwfit_model_catalog_dir(NULL, 8) == HWFIT_EINVAL);
    char tiny[4];
    poison(tiny, sizeof tiny);
    hwfit_status st = hwfit_model_catalog_dir(tiny, sizeof tiny);
    CHECK((st == HWFIT_EBUFSIZE || st == HWFIT_ENOTFOUND) && untouched(tiny, sizeof tiny));
    st = hwfit_model_locate("llama-3.1-8b", tiny, sizeof tiny);
    CHECK((st == HWFIT_EBUFSIZE || st == HWFIT_ENOTFOUND) && untouched(tiny, sizeof tiny));
}

typedef struct entry {
    const char *name;
    void (*probe)(void);
    void (*function)(void); /* the function's address: a misspelt name does not compile */
} entry;

#define COVER(fn, probe) {#fn, probe, (void (*)(void))fn}

/* TABLE: every public function (tests/hostile/check_table.py compares it with include/). */
static const entry table[] = {
    COVER(hwfit_assess, probe_assess),
    COVER(hwfit_assess_max_findings, probe_assess),
    COVER(hwfit_assess_workspace_size, probe_assess),
    COVER(hwfit_assess_ws, probe_assess),
    COVER(hwfit_assess_options_init, probe_node),
    COVER(hwfit_assess_topic_name, probe_new_namers),
    COVER(hwfit_assess_workload_init, probe_node),
    COVER(hwfit_assess_workload_parse, probe_node),
    COVER(hwfit_chart_collective, probe_chart),
    COVER(hwfit_chart_collective_init, probe_chart),
    COVER(hwfit_chart_memory, probe_chart),
    COVER(hwfit_chart_metric_from_name, probe_new_namers),
    COVER(hwfit_chart_metric_name, probe_new_namers),
    COVER(hwfit_chart_options_init, probe_chart),
    COVER(hwfit_chart_power, probe_chart),
    COVER(hwfit_chart_raid, probe_chart),
    COVER(hwfit_collective_algorithm_from_name, probe_algorithm_from_name),
    COVER(hwfit_collective_algorithm_name, probe_hwfit_collective_algorithm_name),
    COVER(hwfit_collective_bottleneck_name, probe_hwfit_collective_bottleneck_name),
    COVER(hwfit_collective_busbw_factor, probe_busbw_factor),
    COVER(hwfit_collective_estimate, probe_collective),
    COVER(hwfit_collective_estimate_batch, probe_batches),
    COVER(hwfit_collective_init, probe_inits),
    COVER(hwfit_collective_op_from_name, probe_op_from_name),
    COVER(hwfit_collective_op_name, probe_hwfit_collective_op_name),
    COVER(hwfit_collective_protocol_from_name, probe_protocol_from_name),
    COVER(hwfit_collective_protocol_name, probe_hwfit_collective_protocol_name),
    COVER(hwfit_collective_step, probe_step),
    COVER(hwfit_collective_step_init, probe_inits),
    COVER(hwfit_collective_step_validate, probe_step),
    COVER(hwfit_collective_validate, probe_collective),
    COVER(hwfit_cooling_name, probe_hwfit_cooling_name),
    COVER(hwfit_dtype_at, probe_dtype_listing),
    COVER(hwfit_dtype_bits, probe_dtype_values),
    COVER(hwfit_dtype_bytes, probe_dtype_values),
    COVER(hwfit_dtype_count, probe_dtype_listing),
    COVER(hwfit_dtype_describe, probe_dtype_values),
    COVER(hwfit_dtype_format, probe_dtype_values),
    COVER(hwfit_dtype_make, probe_dtype_values),
    COVER(hwfit_dtype_matrix_bytes, probe_dtype_values),
    COVER(hwfit_dtype_parse, probe_dtype_parse),
    COVER(hwfit_energy_evaluate, probe_energy),
    COVER(hwfit_energy_init, probe_inits),
    COVER(hwfit_energy_validate, probe_energy),
    COVER(hwfit_error_clear, probe_clears),
    COVER(hwfit_figure_format, probe_assess),
    COVER(hwfit_finding_figure, probe_assess),
    COVER(hwfit_finding_kind_name, probe_new_namers),
    COVER(hwfit_gpu_at, probe_gpu_catalog),
    COVER(hwfit_gpu_count, probe_gpu_catalog),
    COVER(hwfit_gpu_file_load, probe_gpu_set),
    COVER(hwfit_gpu_file_parse, probe_gpu_set),
    COVER(hwfit_gpu_find, probe_gpu_find),
    COVER(hwfit_gpu_form_factor_name, probe_hwfit_gpu_form_factor_name),
    COVER(hwfit_gpu_lookup, probe_gpu_set),
    COVER(hwfit_gpu_peer_link_name, probe_hwfit_gpu_peer_link_name),
    COVER(hwfit_gpu_peer_topology_name, probe_hwfit_gpu_peer_topology_name),
    COVER(hwfit_gpu_set_add, probe_gpu_set),
    COVER(hwfit_gpu_set_at, probe_gpu_set),
    COVER(hwfit_gpu_set_count, probe_gpu_set),
    COVER(hwfit_gpu_set_free, probe_gpu_set),
    COVER(hwfit_gpu_set_new, probe_gpu_set),
    COVER(hwfit_gpu_validate, probe_gpu_set),
    COVER(hwfit_gpu_vendor_name, probe_hwfit_gpu_vendor_name),
    COVER(hwfit_hf_config_load, probe_hf_config),
    COVER(hwfit_hf_config_parse, probe_hf_config),
    COVER(hwfit_hf_quant_describe, probe_quant),
    COVER(hwfit_hf_quant_kept_layers, probe_kept_layers),
    COVER(hwfit_hf_quant_method_name, probe_quant),
    COVER(hwfit_hf_quant_parse, probe_quant),
    COVER(hwfit_host_evaluate, probe_host),
    COVER(hwfit_host_init, probe_inits),
    COVER(hwfit_host_validate, probe_host),
    COVER(hwfit_layout_init, probe_shard_small),
    COVER(hwfit_link_init, probe_inits),
    COVER(hwfit_link_kind_name, probe_hwfit_link_kind_name),
    COVER(hwfit_link_parse, probe_link_parse),
    COVER(hwfit_link_rate, probe_link),
    COVER(hwfit_link_validate, probe_link),
    COVER(hwfit_model_catalog_dir, probe_locate),
    COVER(hwfit_model_locate, probe_locate),
    COVER(hwfit_memory_estimate, probe_memory),
    COVER(hwfit_memory_estimate_batch, probe_batches),
    COVER(hwfit_memory_full_modules_parse, probe_full_modules_parse),
    COVER(hwfit_memory_attention_flash, probe_profiles),
    COVER(hwfit_memory_attention, probe_profiles),
    COVER(hwfit_memory_init, probe_inits),
    COVER(hwfit_memory_record_lengths_parse, probe_profiles),
    COVER(hwfit_memory_records_typical, probe_profiles),
    COVER(hwfit_memory_lora_params, probe_lora_params),
    COVER(hwfit_memory_lora_targets_parse, probe_lora_targets_parse),
    COVER(hwfit_memory_profile_apply, probe_profiles),
    COVER(hwfit_memory_profile_apply_fp8, probe_profiles),
    COVER(hwfit_memory_profile_apply_release, probe_profiles),
    COVER(hwfit_memory_profile_dated, probe_profiles),
    COVER(hwfit_memory_profile_apply_releases, probe_profiles),
    COVER(hwfit_memory_profile_library_dated, probe_profiles),
    COVER(hwfit_memory_recompute_default, probe_recompute_default),
    COVER(hwfit_memory_profile_name, probe_profiles),
    COVER(hwfit_memory_profile_summary, probe_profiles),
    COVER(hwfit_memory_use_exact, probe_quant),
    COVER(hwfit_memory_use_stored, probe_quant),
    COVER(hwfit_memory_validate, probe_memory),
    COVER(hwfit_model_check, probe_params),
    COVER(hwfit_model_flops, probe_flops),
    COVER(hwfit_model_init, probe_model_init),
    COVER(hwfit_model_kv, probe_kv),
    COVER(hwfit_model_kv_init, probe_inits),
    COVER(hwfit_model_kv_validate, probe_kv),
    COVER(hwfit_model_layer_range, probe_layer_range),
    COVER(hwfit_model_params, probe_params),
    COVER(hwfit_model_set_moe_layers, probe_set_layers),
    COVER(hwfit_model_set_sliding_layers, probe_set_layers),
    COVER(hwfit_model_validate, probe_params),
    COVER(hwfit_node_add_power, probe_node),
    COVER(hwfit_node_check, probe_node),
    COVER(hwfit_node_cooling_name, probe_new_namers),
    COVER(hwfit_node_evaluate, probe_node),
    COVER(hwfit_node_init, probe_node),
    COVER(hwfit_node_load, probe_node),
    COVER(hwfit_node_load_cards, probe_node),
    COVER(hwfit_node_parse, probe_node),
    COVER(hwfit_node_parse_cards, probe_node),
    COVER(hwfit_perf_bound_name, probe_new_namers),
    COVER(hwfit_perf_estimate, probe_perf),
    COVER(hwfit_perf_init, probe_perf),
    COVER(hwfit_perf_plan, probe_perf),
    COVER(hwfit_perf_plan_rank, probe_perf),
    COVER(hwfit_perf_precision_from_name, probe_perf),
    COVER(hwfit_perf_precision_name, probe_new_namers),
    COVER(hwfit_perf_validate, probe_perf),
    COVER(hwfit_perf_rank_name, probe_new_namers),
    COVER(hwfit_perf_set_gpu, probe_perf),
    COVER(hwfit_serve_bound_name, probe_serve),
    COVER(hwfit_serve_engine_from_name, probe_serve),
    COVER(hwfit_serve_engine_name, probe_serve),
    COVER(hwfit_serve_estimate, probe_serve),
    COVER(hwfit_serve_init, probe_serve),
    COVER(hwfit_serve_set_gpu, probe_serve),
    COVER(hwfit_serve_validate, probe_serve),
    COVER(hwfit_power_budget_add, probe_budget_add),
    COVER(hwfit_power_budget_evaluate, probe_budget),
    COVER(hwfit_power_budget_init, probe_inits),
    COVER(hwfit_power_budget_validate, probe_budget),
    COVER(hwfit_power_component_kind_name, probe_hwfit_power_component_kind_name),
    COVER(hwfit_power_component_kind_parse, probe_component_kind_parse),
    COVER(hwfit_power_component_parse, probe_component_parse),
    COVER(hwfit_price_per_kwh_parse, probe_price_parse),
    COVER(hwfit_problem_clear, probe_clears),
    COVER(hwfit_psu_class_name, probe_hwfit_psu_class_name),
    COVER(hwfit_psu_class_parse, probe_psu_class_parse),
    COVER(hwfit_psu_efficiency, probe_psu_efficiency),
    COVER(hwfit_psu_evaluate, probe_psu),
    COVER(hwfit_psu_init, probe_inits),
    COVER(hwfit_psu_redundancy_parse, probe_redundancy_parse),
    COVER(hwfit_psu_redundancy_validate, probe_redundancy_parse),
    COVER(hwfit_psu_table_name, probe_hwfit_psu_table_name),
    COVER(hwfit_psu_table_parse, probe_psu_table_parse),
    COVER(hwfit_psu_validate, probe_psu),
    COVER(hwfit_raid_evaluate, probe_raid),
    COVER(hwfit_raid_init, probe_inits),
    COVER(hwfit_raid_level_name, probe_hwfit_raid_level_name),
    COVER(hwfit_raid_level_parse, probe_raid_level_parse),
    COVER(hwfit_raid_min_drives, probe_raid_min_drives),
    COVER(hwfit_raid_validate, probe_raid),
    COVER(hwfit_report_html, probe_assess),
    COVER(hwfit_report_options_init, probe_assess),
    COVER(hwfit_report_topic_title, probe_new_namers),
    COVER(hwfit_command_by_name, probe_request),
    COVER(hwfit_command_describe, probe_request),
    COVER(hwfit_command_next, probe_request),
    COVER(hwfit_format_name, probe_request),
    COVER(hwfit_option_by_name, probe_request),
    COVER(hwfit_option_next, probe_request),
    COVER(hwfit_request_command, probe_request),
    COVER(hwfit_request_use_cache, probe_request),
    COVER(hwfit_request_reset, probe_request),
    COVER(hwfit_request_run_record, probe_request),
    COVER(hwfit_request_set_all, probe_request),
    COVER(hwfit_request_ask_record, probe_request),
    COVER(hwfit_model_cache_new, probe_request),
    COVER(hwfit_model_cache_free, probe_request),
    COVER(hwfit_model_cache_set_window, probe_request),
    COVER(hwfit_model_cache_window, probe_request),
    COVER(hwfit_request_free, probe_request),
    COVER(hwfit_request_message, probe_request),
    COVER(hwfit_request_new, probe_request),
    COVER(hwfit_request_option, probe_request),
    COVER(hwfit_request_option_name, probe_request),
    COVER(hwfit_request_output, probe_request),
    COVER(hwfit_request_run, probe_request),
    COVER(hwfit_request_set, probe_request),
    COVER(hwfit_request_verdict, probe_request),
    COVER(hwfit_safetensors_dir_read, probe_quant),
    COVER(hwfit_safetensors_file_add, probe_quant),
    COVER(hwfit_safetensors_header_add, probe_quant),
    COVER(hwfit_safetensors_init, probe_quant),
    COVER(hwfit_shard_card_at, probe_shard),
    COVER(hwfit_shard_check, probe_shard),
    COVER(hwfit_shard_estimate, probe_shard),
    COVER(hwfit_shard_estimate_batch, probe_shard),
    COVER(hwfit_shard_estimate_batch_ws, probe_shard),
    COVER(hwfit_shard_estimate_ws, probe_shard),
    COVER(hwfit_shard_cache_size, probe_shard),
    COVER(hwfit_shard_cache_init, probe_shard),
    COVER(hwfit_shard_estimate_cached, probe_shard),
    COVER(hwfit_shard_workspace_size, probe_shard),
    COVER(hwfit_shard_batch_workspace_size, probe_shard),
    COVER(hwfit_shard_init, probe_shard_small),
    COVER(hwfit_shard_iter_init, probe_shard_search),
    COVER(hwfit_shard_iter_next, probe_shard_search),
    COVER(hwfit_shard_max_batch, probe_shard_search),
    COVER(hwfit_shard_max_context, probe_shard_search),
    COVER(hwfit_shard_min_gpus, probe_shard_search),
    COVER(hwfit_shard_offload_parse, probe_shard_small),
    COVER(hwfit_shard_reason_name, probe_new_namers),
    COVER(hwfit_shard_reason_str, probe_new_namers),
    COVER(hwfit_shard_search, probe_shard_search),
    COVER(hwfit_shard_space_init, probe_shard_small),
    COVER(hwfit_shard_validate, probe_shard),
    COVER(hwfit_status_name, probe_hwfit_status_name),
    COVER(hwfit_status_str, probe_hwfit_status_str),
    COVER(hwfit_storage_transport_name, probe_hwfit_storage_transport_name),
    COVER(hwfit_storage_transport_parse, probe_transport_parse),
    COVER(hwfit_svg_budget, probe_svg),
    COVER(hwfit_svg_budget_init, probe_svg),
    COVER(hwfit_svg_color, probe_svg),
    COVER(hwfit_svg_escape, probe_svg),
    COVER(hwfit_svg_lines, probe_svg),
    COVER(hwfit_svg_lines_init, probe_svg),
    COVER(hwfit_svg_stacked_bars, probe_svg),
    COVER(hwfit_svg_stacked_bars_init, probe_svg),
    COVER(hwfit_tco_evaluate, probe_tco),
    COVER(hwfit_tco_init, probe_inits),
    COVER(hwfit_tco_validate, probe_tco),
    COVER(hwfit_thermal_evaluate, probe_thermal),
    COVER(hwfit_thermal_init, probe_inits),
    COVER(hwfit_thermal_validate, probe_thermal),
    COVER(hwfit_topology_init, probe_inits),
    COVER(hwfit_topology_parse_nic, probe_parse_nic),
    COVER(hwfit_topology_set_cpu, probe_topology_setters),
    COVER(hwfit_topology_set_gpu, probe_topology_setters),
    COVER(hwfit_transfer_estimate, probe_transfer),
    COVER(hwfit_transfer_init, probe_inits),
    COVER(hwfit_transfer_validate, probe_transfer),
    COVER(hwfit_units_format, probe_units_format),
    COVER(hwfit_units_format_count, probe_units_format_count),
    COVER(hwfit_units_parse, probe_units_parse),
    COVER(hwfit_version_number, probe_version),
    COVER(hwfit_version_string, probe_version),
};

Test(hostile, every_public_function_survives_hostile_input) {
    memset(long_text, 'x', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    for (size_t i = 0; i < N(table); i++) {
        cr_assert_not_null(table[i].function);
        current = table[i].name;
        table[i].probe();
    }
}

Test(hostile, table_lists_each_function_once) {
    for (size_t i = 0; i < N(table); i++)
        for (size_t k = i + 1; k < N(table); k++)
            cr_assert(strcmp(table[i].name, table[k].name) != 0, "%s twice", table[i].name);
}

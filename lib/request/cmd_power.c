/* cmd_power.c - `power`: PSU redundancy and headroom, wall power, heat, airflow, cooling,
 * annual energy and cost, and a TCO when a purchase cost is given; its chart draws the
 * budget against the PSUs. */
#include <stdlib.h>
#include <string.h>

#include "hwfit/chart.h"
#include "hwfit/power.h"
#include "request_internal.h"

/* power.h: a low-line rating is needed (and used) below 180 V input. */
#define LOW_LINE_BELOW_V 180.0

enum {
    O_PSUS, O_PSU_WATTS, O_REDUNDANT, O_LOAD, O_COMPONENT, O_TRANSIENT, O_PEAK, O_HEADROOM,
    O_PEAK_RATIO, O_CLASS, O_TABLE, O_EFFICIENCY, O_COLD_REDUNDANCY, O_INPUT_VOLTAGE,
    O_LOW_LINE_WATTS, O_DELTA_T, O_CHASSIS_PER_RACK, O_AIR_MARGINAL_ABOVE, O_LIQUID_ABOVE,
    O_PRICE, O_PUE, O_DUTY, O_IDLE, O_CAPEX, O_OPEX, O_YEARS, O_DISCOUNT, O_GPUS,
    O_UTILIZATION
};
#define W_MAX 1e9
static const hwfit_option options[] = {
    [O_PSUS] = {.name = "psus", .kind = HWFIT_OPTION_COUNT, .metavar = "N", .min = 1,
                .max = 10000, .flags = HWFIT_OPTION_REQUIRED, .example = "4",
                .help = "PSUs installed"},
    [O_PSU_WATTS] = {.name = "psu-watts", .kind = HWFIT_OPTION_QUANTITY, .unit = HWFIT_UNIT_WATTS,
                     .metavar = "W", .min = 0, .max = W_MAX, .flags = HWFIT_OPTION_REQUIRED,
                     .example = "3200W", .help = "output rating of one PSU at 200-240 V"},
    [O_REDUNDANT] = {.name = "redundant", .kind = HWFIT_OPTION_TEXT, .metavar = "M",
                     .default_text = "1", .default_help = "1; 0 with a single PSU",
                     .help = "redundant PSUs: a count, N+1, N+2, 3+1 or 2N"},
    [O_LOAD] = {.name = "load", .kind = HWFIT_OPTION_QUANTITY, .unit = HWFIT_UNIT_WATTS,
                .metavar = "W", .min = 0, .max = W_MAX,
                .default_help = "the component budget's; one of the two is required",
                .help = "DC load the PSUs carry, e.g. 6500W"},
    [O_COMPONENT] = {.name = "component", .kind = HWFIT_OPTION_LIST, .metavar = "KIND:COUNT:W",
                     .help = "budget line, repeatable: gpu:8:600W cpu:2:400W dimm:24:10W ..."},
    [O_TRANSIENT] = {.name = "transient", .kind = HWFIT_OPTION_RATIO, .metavar = "X",
                     .default_text = "1", .min = 1, .max = 10,
                     .help = "GPU peak over board power, for the budget's peak load"},
    [O_PEAK] = {.name = "peak", .kind = HWFIT_OPTION_QUANTITY, .unit = HWFIT_UNIT_WATTS,
                .metavar = "W", .min = 0, .max = W_MAX,
                .default_help = "the load, or the budget's peak",
                .help = "peak DC load"},
    [O_HEADROOM] = {.name = "headroom", .kind = HWFIT_OPTION_RATIO, .metavar = "X",
                    .default_text = "1.3", .min = 1, .max = 10,
                    .help = "rule: usable capacity >= X x load"},
    [O_PEAK_RATIO] = {.name = "peak-ratio", .kind = HWFIT_OPTION_RATIO, .metavar = "X",
                      .default_text = "1", .min = 1, .max = 10,
                      .help = "short-term PSU output over rating that peaks may use"},
    [O_CLASS] = {.name = "class", .kind = HWFIT_OPTION_TEXT, .metavar = "NAME",
                 .default_text = "titanium",
                 .help = "80 PLUS class: none, 80plus, bronze, silver, gold, platinum, titanium"},
    [O_TABLE] = {.name = "table", .kind = HWFIT_OPTION_TEXT, .metavar = "NAME",
                 .default_text = "auto",
                 .help = "80 PLUS table: auto (by voltage), 115v, 230v-redundant, 230v-eu"},
    [O_EFFICIENCY] = {.name = "efficiency", .kind = HWFIT_OPTION_RATIO, .metavar = "X",
                      .default_text = "0.9", .min = 0, .max = 1,
                      .help = "fixed PSU efficiency, with class none"},
    [O_COLD_REDUNDANCY] = {.name = "cold-redundancy", .kind = HWFIT_OPTION_FLAG,
                           .help = "redundant PSUs stand by instead of sharing the load"},
    [O_INPUT_VOLTAGE] = {.name = "input-voltage", .kind = HWFIT_OPTION_RATIO, .metavar = "V",
                         .default_text = "230", .min = 90, .max = 300,
                         .help = "AC input voltage"},
    [O_LOW_LINE_WATTS] = {.name = "low-line-watts", .kind = HWFIT_OPTION_QUANTITY,
                          .unit = HWFIT_UNIT_WATTS, .metavar = "W", .min = 0, .max = W_MAX,
                          .default_help = "not given",
                          .help = "PSU rating at 100-127 V, needed below 180 V"},
    [O_DELTA_T] = {.name = "delta-t", .kind = HWFIT_OPTION_RATIO, .metavar = "K",
                   .default_text = "15", .min = 0, .max = 100,
                   .help = "air temperature rise from inlet to outlet"},
    [O_CHASSIS_PER_RACK] = {.name = "chassis-per-rack", .kind = HWFIT_OPTION_COUNT,
                            .metavar = "N", .default_text = "1", .min = 1, .max = 1000,
                            .help = "chassis whose heat the cooling thresholds add up"},
    [O_AIR_MARGINAL_ABOVE] = {.name = "air-marginal-above", .kind = HWFIT_OPTION_QUANTITY,
                              .unit = HWFIT_UNIT_WATTS, .metavar = "W", .default_text = "5kW",
                              .min = 0, .max = W_MAX,
                              .help = "air cooling is marginal above this heat"},
    [O_LIQUID_ABOVE] = {.name = "liquid-above", .kind = HWFIT_OPTION_QUANTITY,
                        .unit = HWFIT_UNIT_WATTS, .metavar = "W", .default_text = "20kW",
                        .min = 0, .max = W_MAX,
                        .help = "liquid cooling is recommended above this heat"},
    [O_PRICE] = {.name = "price", .kind = HWFIT_OPTION_TEXT, .metavar = "PRICE",
                 .default_text = "0.18",
                 .help = "energy price per kWh, e.g. 0.18, 0.18/kWh or 180/MWh"},
    [O_PUE] = {.name = "pue", .kind = HWFIT_OPTION_RATIO, .metavar = "X", .default_text = "1",
               .min = 1, .max = 10, .help = "facility PUE"},
    [O_DUTY] = {.name = "duty", .kind = HWFIT_OPTION_RATIO, .metavar = "X", .default_text = "1",
                .min = 0, .max = 1, .help = "share of the year at load"},
    [O_IDLE] = {.name = "idle", .kind = HWFIT_OPTION_QUANTITY, .unit = HWFIT_UNIT_WATTS,
                .metavar = "W", .default_text = "0W", .min = 0, .max = W_MAX,
                .help = "wall power the rest of the time (with duty below 1)"},
    [O_CAPEX] = {.name = "capex", .kind = HWFIT_OPTION_RATIO, .metavar = "X", .min = 0,
                 .max = 1e15, .default_help = "none: no TCO",
                 .help = "purchase cost: adds a TCO section"},
    [O_OPEX] = {.name = "opex", .kind = HWFIT_OPTION_RATIO, .metavar = "X", .default_text = "0",
                .min = 0, .max = 1e15, .help = "TCO: other running cost per year"},
    [O_YEARS] = {.name = "years", .kind = HWFIT_OPTION_COUNT, .metavar = "N",
                 .default_text = "5", .min = 1, .max = 100, .help = "TCO: service life"},
    [O_DISCOUNT] = {.name = "discount", .kind = HWFIT_OPTION_RATIO, .metavar = "X",
                    .default_text = "0", .min = 0, .max = 1, .help = "TCO: yearly discount rate"},
    [O_GPUS] = {.name = "gpus", .kind = HWFIT_OPTION_COUNT, .metavar = "N", .min = 1,
                .max = 1000000, .default_help = "the budget's GPUs, else 1",
                .help = "TCO: GPUs for the cost per GPU-hour"},
    [O_UTILIZATION] = {.name = "utilization", .kind = HWFIT_OPTION_RATIO, .metavar = "X",
                       .default_text = "1", .min = 0, .max = 1,
                       .help = "TCO: share of hours the GPUs do paid work"},
};

/* Inputs the library refuses, named by their options (or by what sets them). */
static const char *const aliases[] = {
    "psu_rating_w", "psu-watts", "psu_low_line_rating_w", "low-line-watts",
    "input_voltage_v", "input-voltage", "load_w", "the load (load or component)",
    "peak_load_w", "peak", "headroom_ratio", "headroom", "peak_ratio", "peak-ratio",
    "fixed_efficiency", "efficiency", "psu_class", "class", "heat_w", "the wall power",
    "delta_t_c", "delta-t", "air_marginal_above_w", "air-marginal-above", "liquid_above_w",
    "liquid-above", "chassis_per_rack", "chassis-per-rack", "price_per_kwh", "price",
    "duty_cycle", "duty", "idle_power_w", "idle", "power_w", "the wall power",
    "annual_other_cost", "opex", "annual_energy_cost", "the energy cost", "discount_rate",
    "discount", "gpu_transient_factor", "transient", "components.count", "component",
    "components.watts", "component", NULL};

/* A refusal: a figure the command derives from the load (the wall power, the heat) is
 * blamed on the option that set the load, component or load, when the user gave one
 * (issue 21: a refusal names what the user gave); the rest through aliases. */
static hwfit_status refuse(hwfit_request *r, const hwfit_problem *why) {
    static const char *const derived[] = {"load_w", "heat_w", "power_w"};
    static const char *const words[] = {"the load", "the wall power", "the wall power"};
    for (size_t i = 0; i < sizeof derived / sizeof derived[0]; i++) {
        if (why->field == NULL || strcmp(why->field, derived[i]) != 0) continue;
        int component = hwfit__req_given(r, &options[O_COMPONENT]);
        if (!component && !hwfit__req_given(r, &options[O_LOAD])) break;
        return hwfit__req_fail(r, &options[component ? O_COMPONENT : O_LOAD], why->status,
                               "gives %s that %s", words[i], why->rule);
    }
    /* A default that conflicts with a value given: name the value given (the default
     * liquid-above with air-marginal-above). */
    if (why->field != NULL && strcmp(why->field, "liquid_above_w") == 0 &&
        !hwfit__req_given(r, &options[O_LIQUID_ABOVE]) &&
        hwfit__req_given(r, &options[O_AIR_MARGINAL_ABOVE]))
        return hwfit__req_fail(r, &options[O_AIR_MARGINAL_ABOVE], why->status,
                               "must not be above liquid-above (give liquid-above too)");
    return hwfit__req_fail_problem(r, aliases, why);
}

typedef struct power_state {
    hwfit_power_budget_in budget;
    hwfit_power_budget_out b;
    hwfit_psu_in psu;
    hwfit_psu_out p;
    hwfit_thermal_in thermal;
    hwfit_thermal_out t;
    hwfit_energy_in energy;
    hwfit_energy_out e;
    hwfit_tco_in tco;
    hwfit_tco_out c;
} power_state;

static hwfit_status text_refused(hwfit_request *r, int opt, hwfit_status st, const char *text,
                                 const char *expected) {
    const hwfit_option *o = &options[opt];
    if (st == HWFIT_ENOTFOUND)
        return hwfit__req_fail(r, o, st, "unknown value '%s' (expected %s)", text, expected);
    if (st == HWFIT_EPARSE)
        return hwfit__req_fail(r, o, st, "cannot read '%s' (expected %s)", text, expected);
    return hwfit__req_fail(r, o, st, "'%s' is out of range (expected %s)", text, expected);
}

/* Options given that do not apply to the question asked: refused with the reason. */
static hwfit_status not_applicable(hwfit_request *r, const power_state *s, size_t components) {
    static const int tco_only[] = {O_OPEX, O_YEARS, O_DISCOUNT, O_GPUS, O_UTILIZATION};
    if (!hwfit__req_given(r, &options[O_CAPEX]))
        for (size_t i = 0; i < HWFIT__COUNT_OF(tco_only); i++)
            if (hwfit__req_given(r, &options[tco_only[i]]))
                return hwfit__req_fail(r, &options[tco_only[i]], HWFIT_EINVAL,
                                       "applies only to the TCO, which needs capex");
    if (hwfit__req_given(r, &options[O_TRANSIENT]) && components == 0)
        return hwfit__req_fail(r, &options[O_TRANSIENT], HWFIT_EINVAL,
                               "applies only to a component budget (component)");
    if (hwfit__req_given(r, &options[O_EFFICIENCY]) && s->psu.psu_class != HWFIT_POWER_CLASS_NONE)
        return hwfit__req_fail(r, &options[O_EFFICIENCY], HWFIT_EINVAL,
                               "applies only with class none (an 80 PLUS class has its curve)");
    if (hwfit__req_given(r, &options[O_TABLE]) && s->psu.psu_class == HWFIT_POWER_CLASS_NONE)
        return hwfit__req_fail(r, &options[O_TABLE], HWFIT_EINVAL,
                               "applies only to an 80 PLUS class, not class none");
    if (hwfit__req_given(r, &options[O_LOW_LINE_WATTS]) &&
        !(s->psu.input_voltage_v < LOW_LINE_BELOW_V))
        return hwfit__req_fail(r, &options[O_LOW_LINE_WATTS], HWFIT_EINVAL,
                               "applies only below 180 V input (input-voltage is %g V)",
                               s->psu.input_voltage_v);
    if (hwfit__req_given(r, &options[O_IDLE]) && !(s->energy.duty_cycle < 1.0))
        return hwfit__req_fail(r, &options[O_IDLE], HWFIT_EINVAL,
                               "applies only with duty below 1 (the rest of the year)");
    return HWFIT_OK;
}

/* The budget against the PSUs into the result (SVG); the chart runs both again. */
static hwfit_status chart(hwfit_request *r, const power_state *s, size_t components) {
    const hwfit_power_budget_in *lines = components > 0 ? &s->budget : NULL;
    size_t need = 0;
    hwfit_status st = hwfit_chart_power(lines, &s->psu, NULL, NULL, 0, &need);
    if (st == HWFIT_EBUFSIZE) {
        char *svg = malloc(need);
        st = svg == NULL ? HWFIT_ENOMEM : hwfit_chart_power(lines, &s->psu, NULL, svg, need, NULL);
        if (st == HWFIT_OK) hwfit__text_put(hwfit__req_text_out(r), svg, need - 1);
        free(svg);
    }
    return st == HWFIT_OK ? HWFIT_OK : hwfit__req_fail_status(r, "chart", st);
}

static hwfit_status run(hwfit_request *r, hwfit__out *o, void *state) {
    power_state *s = state;
    hwfit_power_budget_init(&s->budget);
    hwfit_psu_init(&s->psu);
    hwfit_thermal_init(&s->thermal);
    hwfit_energy_init(&s->energy);
    hwfit_tco_init(&s->tco);
    hwfit_problem why;
    hwfit_status st;
    const char *const *items = NULL;
    size_t components = hwfit__req_list(r, &options[O_COMPONENT], &items);
    int load_given = hwfit__req_given(r, &options[O_LOAD]);
    if (load_given && components > 0)
        return hwfit__req_fail(r, &options[O_LOAD], HWFIT_EINVAL,
                               "cannot go with component: give the load or the budget, not both");
    if (!load_given && components == 0)
        return hwfit__req_fail(r, &options[O_LOAD], HWFIT_EINVAL,
                               "is required unless component lines are given, e.g. 6500W");

    hwfit_psu_in *psu = &s->psu;
    psu->psus = hwfit__req_u64(r, &options[O_PSUS]);
    psu->psu_rating_w = hwfit__req_double(r, &options[O_PSU_WATTS]);
    const char *redundant = hwfit__req_text(r, &options[O_REDUNDANT]);
    /* The default N+1 gives way to a single PSU given: nothing can stand by for it. */
    if (!hwfit__req_given(r, &options[O_REDUNDANT]) && psu->psus == 1) redundant = "0";
    st = hwfit_psu_redundancy_parse(redundant, psu->psus, &psu->redundant);
    if (st != HWFIT_OK) {
        (void)hwfit_psu_redundancy_validate(redundant, psu->psus, &why);
        return hwfit__req_fail(r, &options[O_REDUNDANT], why.status, "%s %s", redundant,
                               why.rule[0] ? why.rule : hwfit_status_str(why.status));
    }
    if (load_given) psu->load_w = hwfit__req_double(r, &options[O_LOAD]);
    if (hwfit__req_given(r, &options[O_PEAK])) psu->peak_load_w = hwfit__req_double(r, &options[O_PEAK]);
    psu->headroom_ratio = hwfit__req_double(r, &options[O_HEADROOM]);
    psu->peak_ratio = hwfit__req_double(r, &options[O_PEAK_RATIO]);
    const char *text = hwfit__req_text(r, &options[O_CLASS]);
    if ((st = hwfit_psu_class_parse(text, &psu->psu_class)) != HWFIT_OK)
        return text_refused(r, O_CLASS, st, text,
                            "none, 80plus, bronze, silver, gold, platinum or titanium");
    text = hwfit__req_text(r, &options[O_TABLE]);
    if ((st = hwfit_psu_table_parse(text, &psu->table)) != HWFIT_OK)
        return text_refused(r, O_TABLE, st, text, "auto, 115v, 230v-redundant or 230v-eu");
    psu->fixed_efficiency = hwfit__req_double(r, &options[O_EFFICIENCY]);
    psu->cold_redundancy = hwfit__req_flag(r, &options[O_COLD_REDUNDANCY]);
    psu->input_voltage_v = hwfit__req_double(r, &options[O_INPUT_VOLTAGE]);
    if (hwfit__req_given(r, &options[O_LOW_LINE_WATTS]))
        psu->psu_low_line_rating_w = hwfit__req_double(r, &options[O_LOW_LINE_WATTS]);
    s->thermal.delta_t_c = hwfit__req_double(r, &options[O_DELTA_T]);
    s->thermal.chassis_per_rack = hwfit__req_u64(r, &options[O_CHASSIS_PER_RACK]);
    s->thermal.air_marginal_above_w = hwfit__req_double(r, &options[O_AIR_MARGINAL_ABOVE]);
    s->thermal.liquid_above_w = hwfit__req_double(r, &options[O_LIQUID_ABOVE]);
    text = hwfit__req_text(r, &options[O_PRICE]);
    if ((st = hwfit_price_per_kwh_parse(text, &s->energy.price_per_kwh)) != HWFIT_OK)
        return text_refused(r, O_PRICE, st, text,
                            "a price per kWh such as 0.18, 0.18/kWh or 180/MWh");
    s->energy.pue = hwfit__req_double(r, &options[O_PUE]);
    s->energy.duty_cycle = hwfit__req_double(r, &options[O_DUTY]);
    s->energy.idle_power_w = hwfit__req_double(r, &options[O_IDLE]);
    s->tco.capex = hwfit__req_double(r, &options[O_CAPEX]);
    s->tco.annual_other_cost = hwfit__req_double(r, &options[O_OPEX]);
    s->tco.years = hwfit__req_u64(r, &options[O_YEARS]);
    s->tco.discount_rate = hwfit__req_double(r, &options[O_DISCOUNT]);
    if (hwfit__req_given(r, &options[O_GPUS])) s->tco.gpus = hwfit__req_u64(r, &options[O_GPUS]);
    s->tco.utilization = hwfit__req_double(r, &options[O_UTILIZATION]);
    s->budget.gpu_transient_factor = hwfit__req_double(r, &options[O_TRANSIENT]);
    st = not_applicable(r, s, components);
    if (st != HWFIT_OK) return st;

    if (components > 0) {
        for (size_t i = 0; i < components; i++) {
            hwfit_power_component c;
            st = hwfit_power_component_parse(items[i], &c);
            if (st == HWFIT_OK) st = hwfit_power_budget_add(&s->budget, c.kind, c.count, c.watts);
            if (st != HWFIT_OK)
                return text_refused(r, O_COMPONENT, st, items[i],
                                    "KIND:COUNT:WATTS or KIND:WATTS, KIND one of gpu, cpu, dimm, "
                                    "drive, nic, fan, switch, board, other, COUNT at most "
                                    "1000000, WATTS at most 10MW");
        }
        if (hwfit_power_budget_evaluate(&s->budget, &s->b) != HWFIT_OK) {
            (void)hwfit_power_budget_validate(&s->budget, &why);
            return refuse(r, &why);
        }
        psu->load_w = s->b.dc_w;
        if (!hwfit__req_given(r, &options[O_PEAK])) psu->peak_load_w = s->b.peak_dc_w;
        if (!hwfit__req_given(r, &options[O_GPUS]) && s->b.gpus > 0) s->tco.gpus = s->b.gpus;
    }
    if (hwfit_psu_evaluate(psu, &s->p) != HWFIT_OK) {
        (void)hwfit_psu_validate(psu, &why);
        return refuse(r, &why);
    }
    s->thermal.heat_w = s->p.wall_w;
    if (hwfit_thermal_evaluate(&s->thermal, &s->t) != HWFIT_OK) {
        (void)hwfit_thermal_validate(&s->thermal, &why);
        return refuse(r, &why);
    }
    s->energy.power_w = s->p.wall_w;
    if (hwfit_energy_evaluate(&s->energy, &s->e) != HWFIT_OK) {
        (void)hwfit_energy_validate(&s->energy, &why);
        return refuse(r, &why);
    }
    int tco = hwfit__req_given(r, &options[O_CAPEX]);
    if (tco) {
        s->tco.annual_energy_cost = s->e.annual_cost;
        if (hwfit_tco_evaluate(&s->tco, &s->c) != HWFIT_OK) {
            (void)hwfit_tco_validate(&s->tco, &why);
            return refuse(r, &why);
        }
    }
    if (hwfit__req_format(r) == HWFIT_FORMAT_SVG) return chart(r, s, components);

    const hwfit_power_budget_out *b = &s->b;
    const hwfit_psu_out *p = &s->p;
    const hwfit_thermal_out *t = &s->t;
    const hwfit_energy_out *e = &s->e;
    if (components > 0) {
        hwfit__out_section(o, "budget", "component budget (DC)");
        for (int k = 0; k < HWFIT_POWER_COMPONENT_KINDS; k++) {
            if (b->kind_count[k] == 0) continue;
            const char *kind = hwfit_power_component_kind_name((hwfit_power_component_kind)k);
            hwfit__out_qty(o, kind, kind, b->kind_w[k], HWFIT_UNIT_WATTS);
        }
        hwfit__out_u64(o, "gpus", "GPUs", b->gpus);
        hwfit__out_qty(o, "dc_w", "sustained", b->dc_w, HWFIT_UNIT_WATTS);
        hwfit__out_qty(o, "peak_dc_w", "peak", b->peak_dc_w, HWFIT_UNIT_WATTS);
        hwfit__out_section_end(o);
    }
    hwfit__out_u64(o, "psus", "PSUs installed", p->psus);
    hwfit__out_u64(o, "redundant", "redundant PSUs", psu->redundant);
    hwfit__out_u64(o, "active_psus", "PSUs the load relies on (N)", p->active_psus);
    hwfit__out_qty(o, "rating_w", "rating per PSU", p->rating_w, HWFIT_UNIT_WATTS);
    hwfit__out_qty(o, "installed_w", "installed capacity", p->installed_w, HWFIT_UNIT_WATTS);
    hwfit__out_qty(o, "usable_w", "usable capacity (N x rating)", p->usable_w, HWFIT_UNIT_WATTS);
    hwfit__out_qty(o, "load_w", "DC load", p->load_w, HWFIT_UNIT_WATTS);
    hwfit__out_qty(o, "peak_load_w", "peak DC load", p->peak_load_w, HWFIT_UNIT_WATTS);
    hwfit__out_num(o, "headroom_ratio", "headroom rule (x load)", psu->headroom_ratio);
    hwfit__out_qty(o, "required_w", "required by the rule", p->required_w, HWFIT_UNIT_WATTS);
    hwfit__out_qty(o, "headroom_w", "usable - load", p->headroom_w, HWFIT_UNIT_WATTS);
    hwfit__out_num(o, "usable_to_load", "usable / load", p->usable_to_load);
    hwfit__out_bool(o, "meets_load", "carries the load with M failed", p->meets_load);
    hwfit__out_bool(o, "meets_headroom", "meets the headroom rule", p->meets_headroom);
    hwfit__out_bool(o, "meets_peak", "carries the peak", p->meets_peak);
    hwfit__out_qty(o, "psu_load_w", "load per sharing PSU", p->psu_load_w, HWFIT_UNIT_WATTS);
    hwfit__out_pct(o, "psu_load_fraction", "load per PSU / rating", p->psu_load_fraction);
    hwfit__out_pct(o, "failover_load_fraction", "the same with M failed",
                   p->failover_load_fraction);
    hwfit__out_bool(o, "overloaded", "PSUs overloaded", p->overloaded);
    hwfit__out_str(o, "class", "80 PLUS class", hwfit_psu_class_name(psu->psu_class));
    hwfit__out_str(o, "table", "80 PLUS table", hwfit_psu_table_name(p->table));
    hwfit__out_pct(o, "efficiency", "efficiency", p->efficiency);
    hwfit__out_bool(o, "efficiency_extrapolated", "efficiency outside the points",
                    p->efficiency_extrapolated);
    hwfit__out_qty(o, "wall_w", "wall (AC) power", p->wall_w, HWFIT_UNIT_WATTS);
    hwfit__out_qty(o, "loss_w", "PSU losses", p->loss_w, HWFIT_UNIT_WATTS);
    hwfit__out_qty(o, "failover_wall_w", "wall power with M failed", p->failover_wall_w,
                   HWFIT_UNIT_WATTS);
    hwfit__out_qty(o, "heat_w", "heat", t->heat_w, HWFIT_UNIT_WATTS);
    hwfit__out_num(o, "heat_btu_per_h", "heat in BTU/h", t->heat_btu_per_h);
    hwfit__out_num(o, "cooling_tons", "cooling tons", t->cooling_tons);
    hwfit__out_num(o, "delta_t_c", "air temperature rise (K)", s->thermal.delta_t_c);
    hwfit__out_num(o, "airflow_cfm", "airflow (CFM)", t->airflow_cfm);
    hwfit__out_num(o, "airflow_m3_per_h", "airflow (m^3/h)", t->airflow_m3_per_h);
    hwfit__out_qty(o, "rack_heat_w", "heat the thresholds compare", t->rack_heat_w,
                   HWFIT_UNIT_WATTS);
    hwfit__out_str(o, "cooling", "cooling", hwfit_cooling_name(t->cooling));
    hwfit__out_num(o, "pue", "PUE", s->energy.pue);
    hwfit__out_pct(o, "duty_cycle", "duty cycle", s->energy.duty_cycle);
    hwfit__out_num(o, "price_per_kwh", "price per kWh", s->energy.price_per_kwh);
    hwfit__out_qty(o, "average_power_w", "average wall power", e->average_power_w,
                   HWFIT_UNIT_WATTS);
    hwfit__out_num(o, "it_energy_kwh", "IT energy per year (kWh)", e->it_energy_kwh);
    hwfit__out_num(o, "annual_energy_kwh", "facility energy per year (kWh)",
                   e->annual_energy_kwh);
    hwfit__out_num(o, "annual_cost", "energy cost per year", e->annual_cost);
    if (tco) {
        hwfit__out_section(o, "tco", "total cost of ownership");
        hwfit__out_num(o, "capex", "capex", s->tco.capex);
        hwfit__out_u64(o, "years", "years", s->tco.years);
        hwfit__out_u64(o, "gpus", "GPUs", s->tco.gpus);
        hwfit__out_num(o, "opex", "running cost", s->c.opex);
        hwfit__out_num(o, "tco", "TCO", s->c.tco);
        hwfit__out_num(o, "cost_per_year", "per year", s->c.cost_per_year);
        hwfit__out_num(o, "cost_per_gpu_hour", "per GPU-hour", s->c.cost_per_gpu_hour);
        hwfit__out_section_end(o);
    }
    return HWFIT_OK;
}

const hwfit__command hwfit__cmd_power = {
    .pub = {.name = "power",
            .summary = "PSU redundancy and headroom, wall power, heat, airflow, cooling and "
                       "energy cost.",
            .details = "The load is DC (what the PSUs deliver); wall power = load / 80 PLUS "
                       "efficiency at the load per PSU. Usable capacity = (PSUs - redundant) x "
                       "rating. Heat = wall power. Prices are currency-neutral. Rules of thumb "
                       "(1.3 headroom, 5 kW air limit) are options. The chart draws the budget "
                       "against the PSUs.",
            .formats = 1u << HWFIT_FORMAT_JSON | 1u << HWFIT_FORMAT_TEXT |
                       1u << HWFIT_FORMAT_SVG},
    .sets = {HWFIT__SET(options)},
    .state_size = sizeof(power_state),
    .run = run,
};

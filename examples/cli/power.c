/* power.c - `hwfit power`: PSU redundancy and headroom, wall power, heat, airflow, cooling,
 * annual energy and cost, and optionally a TCO; --svg draws the budget. */
#include <stdlib.h>

#include "cli.h"

int cmd_power(int argc, char **argv) {
    hwfit_power_budget_in budget;
    hwfit_power_budget_init(&budget);
    hwfit_psu_in psu;
    hwfit_psu_init(&psu);
    hwfit_thermal_in thermal;
    hwfit_thermal_init(&thermal);
    hwfit_energy_in energy;
    hwfit_energy_init(&energy);
    hwfit_tco_in tco;
    hwfit_tco_init(&tco);
    cli_list components = {{0}, 0};
    const char *redundant = NULL, *cls = NULL, *table = NULL, *price = NULL, *svg_path = NULL;
    int seen_psus = 0, seen_watts = 0, seen_load = 0, seen_capex = 0, seen_gpus = 0;
    int seen_efficiency = 0;
    const cli_opt opts[] = {
        {"psus", CLI_U64, &psu.psus, "N", "PSUs installed (required)", 0, NULL, &seen_psus},
        {"psu-watts", CLI_QUANTITY, &psu.psu_rating_w, "W",
         "output rating of one PSU at 200-240 V (required)", HWFIT_UNIT_WATTS, NULL, &seen_watts},
        {"redundant", CLI_STRING, &redundant, "M",
         "redundant PSUs: 1, N+1, N+2, 3+1, 2N (default 1)", 0, NULL, NULL},
        {"load", CLI_QUANTITY, &psu.load_w, "W", "DC load, e.g. 6500W (or --component)",
         HWFIT_UNIT_WATTS, NULL, &seen_load},
        {"component", CLI_LIST, &components, "KIND:COUNT:W",
         "budget line, repeatable: gpu:8:600W cpu:2:400W dimm:24:10W ...", 0, NULL, NULL},
        {"transient", CLI_DOUBLE, &budget.gpu_transient_factor, "X",
         "GPU peak over board power for the peak load (default 1)", 0, NULL, NULL},
        {"peak", CLI_QUANTITY, &psu.peak_load_w, "W", "peak DC load (default: the load)",
         HWFIT_UNIT_WATTS, NULL, NULL},
        {"headroom", CLI_DOUBLE, &psu.headroom_ratio, "X",
         "rule: usable >= X x load (default 1.3)", 0, NULL, NULL},
        {"peak-ratio", CLI_DOUBLE, &psu.peak_ratio, "X",
         "short-term PSU output over rating for peaks (default 1)", 0, NULL, NULL},
        {"class", CLI_STRING, &cls, "NAME",
         "80 PLUS class: none, 80plus, bronze ... titanium (default titanium)", 0, NULL, NULL},
        {"table", CLI_STRING, &table, "NAME",
         "80 PLUS table: auto, 115v, 230v-redundant, 230v-eu (default auto)", 0, NULL, NULL},
        {"efficiency", CLI_DOUBLE, &psu.fixed_efficiency, "X",
         "fixed efficiency, with --class none (default 0.9)", 0, NULL, &seen_efficiency},
        {"cold-redundancy", CLI_FLAG, &psu.cold_redundancy, NULL,
         "redundant PSUs stand by instead of sharing the load", 0, NULL, NULL},
        {"input-voltage", CLI_DOUBLE, &psu.input_voltage_v, "V", "AC input voltage (default 230)",
         0, NULL, NULL},
        {"low-line-watts", CLI_QUANTITY, &psu.psu_low_line_rating_w, "W",
         "PSU rating at 100-127 V (needed below 180 V)", HWFIT_UNIT_WATTS, NULL, NULL},
        {"delta-t", CLI_DOUBLE, &thermal.delta_t_c, "K",
         "air temperature rise inlet to outlet (default 15)", 0, NULL, NULL},
        {"chassis-per-rack", CLI_U64, &thermal.chassis_per_rack, "N",
         "chassis the cooling thresholds add up (default 1)", 0, NULL, NULL},
        {"air-marginal-above", CLI_QUANTITY, &thermal.air_marginal_above_w, "W",
         "air cooling marginal above this heat (default 5kW)", HWFIT_UNIT_WATTS, NULL, NULL},
        {"liquid-above", CLI_QUANTITY, &thermal.liquid_above_w, "W",
         "liquid cooling recommended above this heat (default 20kW)", HWFIT_UNIT_WATTS, NULL,
         NULL},
        {"price", CLI_STRING, &price, "PRICE", "energy price per kWh, e.g. 0.18/kWh (default 0.18)",
         0, NULL, NULL},
        {"pue", CLI_DOUBLE, &energy.pue, "X", "facility PUE (default 1)", 0, NULL, NULL},
        {"duty", CLI_DOUBLE, &energy.duty_cycle, "X", "share of the year at load (default 1)", 0,
         NULL, NULL},
        {"idle", CLI_QUANTITY, &energy.idle_power_w, "W",
         "wall power the rest of the time (default 0)", HWFIT_UNIT_WATTS, NULL, NULL},
        {"capex", CLI_DOUBLE, &tco.capex, "X", "purchase cost: adds a TCO section", 0, NULL,
         &seen_capex},
        {"opex", CLI_DOUBLE, &tco.annual_other_cost, "X",
         "other running cost per year (default 0)", 0, NULL, NULL},
        {"years", CLI_U64, &tco.years, "N", "service life (default 5)", 0, NULL, NULL},
        {"discount", CLI_DOUBLE, &tco.discount_rate, "X", "yearly discount rate (default 0)", 0,
         NULL, NULL},
        {"gpus", CLI_U64, &tco.gpus, "N", "GPUs for the cost per GPU-hour (default: from the budget)",
         0, NULL, &seen_gpus},
        {"utilization", CLI_DOUBLE, &tco.utilization, "X",
         "share of hours the GPUs do paid work (default 1)", 0, NULL, NULL},
        {"svg", CLI_STRING, &svg_path, "FILE",
         "also draw the budget against the PSUs as an SVG chart", 0, NULL, NULL},
    };
    const cli_spec spec = {
        "power", "PSU redundancy and headroom, wall power, heat, airflow, cooling and energy cost.",
        "--psus N --psu-watts W (--load W | --component KIND:COUNT:W ...) [options]",
        "The load is DC (what the PSUs deliver); wall power = load / 80 PLUS efficiency at the\n"
        "load per PSU. Usable capacity = (PSUs - redundant) x rating. Heat = wall power.\n"
        "Prices are currency-neutral. Rules of thumb (1.3 headroom, 5 kW air limit) are options.",
        opts, (int)(sizeof opts / sizeof opts[0]), 0, NULL};
    cli_args args;
    int rc = cli_parse(&spec, argc, argv, &args);
    if (rc != 0) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    if (!seen_psus) return cli_fail("power", "--psus is required, e.g. --psus 4");
    if (!seen_watts) return cli_fail("power", "--psu-watts is required, e.g. --psu-watts 3200");
    if (seen_load && components.count > 0)
        return cli_fail("power", "give --load or --component, not both");
    if (!seen_load && components.count == 0)
        return cli_fail("power", "--load or --component is required, e.g. --load 6500W");

    hwfit_status st;
    hwfit_problem why;
    /* Inputs refused by the library, named by their options. */
    static const char *const aliases[] = {
        "psu_rating_w", "--psu-watts", "psu_low_line_rating_w", "--low-line-watts",
        "input_voltage_v", "--input-voltage", "load_w", "the load (--load or --component)",
        "peak_load_w", "--peak", "headroom_ratio", "--headroom", "fixed_efficiency", "--efficiency",
        "psu_class", "--class", "heat_w", "the wall power", "delta_t_c", "--delta-t",
        "air_marginal_above_w", "--air-marginal-above", "liquid_above_w", "--liquid-above",
        "price_per_kwh", "--price", "duty_cycle", "--duty", "idle_power_w", "--idle",
        "power_w", "the wall power", "annual_other_cost", "--opex",
        "annual_energy_cost", "the energy cost", "discount_rate", "--discount",
        "gpu_transient_factor", "--transient", NULL};
    if (redundant != NULL) {
        st = hwfit_psu_redundancy_parse(redundant, psu.psus, &psu.redundant);
        if (st != HWFIT_OK) {
            char option[64];
            snprintf(option, sizeof option, "--redundant %.40s", redundant);
            const char *const text_alias[] = {"text", option, NULL};
            (void)hwfit_psu_redundancy_validate(redundant, psu.psus, &why);
            return cli_fail_problem(&spec, text_alias, &why);
        }
    }
    if (cls != NULL && (st = hwfit_psu_class_parse(cls, &psu.psu_class)) != HWFIT_OK)
        return cli_fail_value("power", "--class", cls, st,
                              "none, 80plus, bronze, silver, gold, platinum or titanium");
    if (table != NULL && (st = hwfit_psu_table_parse(table, &psu.table)) != HWFIT_OK)
        return cli_fail_value("power", "--table", table, st,
                              "auto, 115v, 230v-redundant or 230v-eu");
    if (price != NULL && (st = hwfit_price_per_kwh_parse(price, &energy.price_per_kwh)) != HWFIT_OK)
        return cli_fail_value("power", "--price", price, st,
                              "a price per kWh such as 0.18, 0.18/kWh or 180/MWh");
    if (seen_efficiency && psu.psu_class != HWFIT_POWER_CLASS_NONE)
        return cli_fail("power", "--efficiency applies only with --class none");

    hwfit_power_budget_out b;
    if (components.count > 0) {
        for (int i = 0; i < components.count; i++) {
            hwfit_power_component c;
            st = hwfit_power_component_parse(components.items[i], &c);
            if (st == HWFIT_OK) st = hwfit_power_budget_add(&budget, c.kind, c.count, c.watts);
            if (st != HWFIT_OK)
                return cli_fail_value("power", "--component", components.items[i], st,
                                      "KIND:COUNT:WATTS or KIND:WATTS, KIND one of gpu, cpu, "
                                      "dimm, drive, nic, fan, switch, board, other, COUNT at "
                                      "most 1000000, WATTS at most 10MW");
        }
        if (hwfit_power_budget_evaluate(&budget, &b) != HWFIT_OK) {
            (void)hwfit_power_budget_validate(&budget, &why);
            return cli_fail_problem(&spec, aliases, &why);
        }
        psu.load_w = b.dc_w;
        if (psu.peak_load_w == HWFIT_POWER_UNSET) psu.peak_load_w = b.peak_dc_w;
        if (!seen_gpus && b.gpus > 0) tco.gpus = b.gpus;
    }
    hwfit_psu_out p;
    if (hwfit_psu_evaluate(&psu, &p) != HWFIT_OK) {
        (void)hwfit_psu_validate(&psu, &why);
        return cli_fail_problem(&spec, aliases, &why);
    }
    thermal.heat_w = p.wall_w;
    hwfit_thermal_out t;
    if (hwfit_thermal_evaluate(&thermal, &t) != HWFIT_OK) {
        (void)hwfit_thermal_validate(&thermal, &why);
        return cli_fail_problem(&spec, aliases, &why);
    }
    energy.power_w = p.wall_w;
    hwfit_energy_out e;
    if (hwfit_energy_evaluate(&energy, &e) != HWFIT_OK) {
        (void)hwfit_energy_validate(&energy, &why);
        return cli_fail_problem(&spec, aliases, &why);
    }
    hwfit_tco_out c;
    if (seen_capex) {
        tco.annual_energy_cost = e.annual_cost;
        if (hwfit_tco_evaluate(&tco, &c) != HWFIT_OK) {
            (void)hwfit_tco_validate(&tco, &why);
            return cli_fail_problem(&spec, aliases, &why);
        }
    }
    if (svg_path != NULL) {
        /* The chart runs the budget and the PSUs again from the same inputs (chart.h). */
        const hwfit_power_budget_in *lines = components.count > 0 ? &budget : NULL;
        size_t need = 0;
        st = hwfit_chart_power(lines, &psu, NULL, NULL, 0, &need);
        char *svg = st == HWFIT_EBUFSIZE ? malloc(need) : NULL;
        if (svg != NULL) st = hwfit_chart_power(lines, &psu, NULL, svg, need, NULL);
        if (st != HWFIT_OK) {
            free(svg);
            return cli_fail_status("power", "--svg", st == HWFIT_EBUFSIZE ? HWFIT_ENOMEM : st);
        }
        rc = cli_write_file("power", "svg", svg_path, svg);
        free(svg);
        if (rc != 0) return rc;
    }

    cli_out o;
    out_begin(&o, args.json, NULL);
    if (components.count > 0) {
        out_section(&o, "budget", "component budget (DC)");
        for (int k = 0; k < HWFIT_POWER_COMPONENT_KINDS; k++) {
            if (b.kind_count[k] == 0) continue;
            out_qty(&o, hwfit_power_component_kind_name((hwfit_power_component_kind)k),
                    hwfit_power_component_kind_name((hwfit_power_component_kind)k), b.kind_w[k],
                    HWFIT_UNIT_WATTS);
        }
        out_u64(&o, "gpus", "GPUs", b.gpus);
        out_qty(&o, "dc_w", "sustained", b.dc_w, HWFIT_UNIT_WATTS);
        out_qty(&o, "peak_dc_w", "peak", b.peak_dc_w, HWFIT_UNIT_WATTS);
        out_section_end(&o);
    }
    out_u64(&o, "psus", "PSUs installed", p.psus);
    out_u64(&o, "redundant", "redundant PSUs", psu.redundant);
    out_u64(&o, "active_psus", "PSUs the load relies on (N)", p.active_psus);
    out_qty(&o, "rating_w", "rating per PSU", p.rating_w, HWFIT_UNIT_WATTS);
    out_qty(&o, "installed_w", "installed capacity", p.installed_w, HWFIT_UNIT_WATTS);
    out_qty(&o, "usable_w", "usable capacity (N x rating)", p.usable_w, HWFIT_UNIT_WATTS);
    out_qty(&o, "load_w", "DC load", p.load_w, HWFIT_UNIT_WATTS);
    out_qty(&o, "peak_load_w", "peak DC load", p.peak_load_w, HWFIT_UNIT_WATTS);
    out_num(&o, "headroom_ratio", "headroom rule (x load)", psu.headroom_ratio);
    out_qty(&o, "required_w", "required by the rule", p.required_w, HWFIT_UNIT_WATTS);
    out_qty(&o, "headroom_w", "usable - load", p.headroom_w, HWFIT_UNIT_WATTS);
    out_num(&o, "usable_to_load", "usable / load", p.usable_to_load);
    out_bool(&o, "meets_load", "carries the load with M failed", p.meets_load);
    out_bool(&o, "meets_headroom", "meets the headroom rule", p.meets_headroom);
    out_bool(&o, "meets_peak", "carries the peak", p.meets_peak);
    out_qty(&o, "psu_load_w", "load per sharing PSU", p.psu_load_w, HWFIT_UNIT_WATTS);
    out_num(&o, "psu_load_fraction", "load per PSU / rating", p.psu_load_fraction);
    out_num(&o, "failover_load_fraction", "the same with M failed", p.failover_load_fraction);
    out_bool(&o, "overloaded", "PSUs overloaded", p.overloaded);
    out_str(&o, "class", "80 PLUS class", hwfit_psu_class_name(psu.psu_class));
    out_str(&o, "table", "80 PLUS table", hwfit_psu_table_name(p.table));
    out_num(&o, "efficiency", "efficiency", p.efficiency);
    out_bool(&o, "efficiency_extrapolated", "efficiency outside the points",
             p.efficiency_extrapolated);
    out_qty(&o, "wall_w", "wall (AC) power", p.wall_w, HWFIT_UNIT_WATTS);
    out_qty(&o, "loss_w", "PSU losses", p.loss_w, HWFIT_UNIT_WATTS);
    out_qty(&o, "failover_wall_w", "wall power with M failed", p.failover_wall_w,
            HWFIT_UNIT_WATTS);
    out_qty(&o, "heat_w", "heat", t.heat_w, HWFIT_UNIT_WATTS);
    out_num(&o, "heat_btu_per_h", "heat in BTU/h", t.heat_btu_per_h);
    out_num(&o, "cooling_tons", "cooling tons", t.cooling_tons);
    out_num(&o, "delta_t_c", "air temperature rise (K)", thermal.delta_t_c);
    out_num(&o, "airflow_cfm", "airflow (CFM)", t.airflow_cfm);
    out_num(&o, "airflow_m3_per_h", "airflow (m^3/h)", t.airflow_m3_per_h);
    out_qty(&o, "rack_heat_w", "heat the thresholds compare", t.rack_heat_w, HWFIT_UNIT_WATTS);
    out_str(&o, "cooling", "cooling", hwfit_cooling_name(t.cooling));
    out_num(&o, "pue", "PUE", energy.pue);
    out_num(&o, "duty_cycle", "duty cycle", energy.duty_cycle);
    out_num(&o, "price_per_kwh", "price per kWh", energy.price_per_kwh);
    out_qty(&o, "average_power_w", "average wall power", e.average_power_w, HWFIT_UNIT_WATTS);
    out_num(&o, "it_energy_kwh", "IT energy per year (kWh)", e.it_energy_kwh);
    out_num(&o, "annual_energy_kwh", "facility energy per year (kWh)", e.annual_energy_kwh);
    out_num(&o, "annual_cost", "energy cost per year", e.annual_cost);
    if (seen_capex) {
        out_section(&o, "tco", "total cost of ownership");
        out_num(&o, "capex", "capex", tco.capex);
        out_u64(&o, "years", "years", tco.years);
        out_u64(&o, "gpus", "GPUs", tco.gpus);
        out_num(&o, "opex", "running cost", c.opex);
        out_num(&o, "tco", "TCO", c.tco);
        out_num(&o, "cost_per_year", "per year", c.cost_per_year);
        out_num(&o, "cost_per_gpu_hour", "per GPU-hour", c.cost_per_gpu_hour);
        out_section_end(&o);
    }
    out_end(&o);
    return CLI_EXIT_OK;
}

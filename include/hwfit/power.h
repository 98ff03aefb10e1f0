/**
 * @file power.h
 * @brief Power budget, PSU redundancy and efficiency, heat and airflow, energy cost, TCO.
 *
 * The calls chain: ::hwfit_power_budget_evaluate sums the DC draw of the components;
 * ::hwfit_psu_evaluate checks the power supplies against that load (redundancy N+M,
 * headroom rule, load per PSU, 80 PLUS efficiency, wall power); ::hwfit_thermal_evaluate
 * turns wall power into heat, airflow and a cooling recommendation;
 * ::hwfit_energy_evaluate gives annual energy and cost; ::hwfit_tco_evaluate adds capital
 * cost and gives the cost per GPU-hour. Rules of thumb (the 1.3 headroom ratio, the 5 kW
 * air-cooling threshold, PUE, the price) are inputs with documented defaults.
 *
 * Prices are currency-neutral: a result is in the currency the price was given in.
 * Formulas and their sources: docs/formulas.md, section "power".
 */
#ifndef HWFIT_POWER_H
#define HWFIT_POWER_H

#include "hwfit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup power Power
 *  @brief Component budget, PSUs, thermal, energy and TCO.
 *
 *  Thread safety: every function is pure and reentrant; nothing allocates.
 *  @{ */

/** @brief An optional value that was not given (e.g. a peak load, a low-line rating). */
#define HWFIT_POWER_UNSET 0

/** @brief Most entries a ::hwfit_power_budget_in holds. */
#define HWFIT_POWER_MAX_COMPONENTS 32

/** @brief What a line of the power budget is. */
typedef enum hwfit_power_component_kind {
    HWFIT_POWER_COMPONENT_GPU = 0,    /**< Accelerator at its board power (TDP/TGP). */
    HWFIT_POWER_COMPONENT_CPU = 1,    /**< Processor at its TDP. */
    HWFIT_POWER_COMPONENT_DIMM = 2,   /**< Memory module. */
    HWFIT_POWER_COMPONENT_DRIVE = 3,  /**< SSD or disk. */
    HWFIT_POWER_COMPONENT_NIC = 4,    /**< Network adapter or DPU. */
    HWFIT_POWER_COMPONENT_FAN = 5,    /**< Chassis fan. */
    HWFIT_POWER_COMPONENT_SWITCH = 6, /**< PCIe or NVLink switch on the board. */
    HWFIT_POWER_COMPONENT_BOARD = 7,  /**< Motherboard, BMC, VRM losses. */
    HWFIT_POWER_COMPONENT_OTHER = 8   /**< Anything else. */
} hwfit_power_component_kind;

/** @brief Number of ::hwfit_power_component_kind values. */
#define HWFIT_POWER_COMPONENT_KINDS 9

/** @brief One line of a power budget: @c count parts drawing @c watts each. */
typedef struct hwfit_power_component {
    hwfit_power_component_kind kind; /**< What the parts are. */
    uint64_t count;                  /**< How many (>= 0, at most 1e6). */
    double watts;                    /**< Sustained DC draw of one part, W, in [0, 1e7]. */
} hwfit_power_component;

/**
 * @brief Parse a kind name: "gpu", "cpu", "dimm", "drive" (also "nvme", "ssd", "disk"),
 *        "nic", "fan", "switch", "board", "other"; case-insensitive.
 * @param[in]  text NUL-terminated name; NULL gives ::HWFIT_EINVAL.
 * @param[out] kind The kind; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK        parsed.
 * @retval HWFIT_EINVAL    a pointer is NULL.
 * @retval HWFIT_ENOTFOUND not a kind name.
 */
HWFIT_API hwfit_status hwfit_power_component_kind_parse(const char *text,
                                                        hwfit_power_component_kind *kind);

/**
 * @brief The canonical name of a kind, e.g. "gpu".
 * @param[in] kind Any value; others give "unknown".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_power_component_kind_name(hwfit_power_component_kind kind);

/**
 * @brief Parse a budget line "KIND:COUNT:WATTS" or "KIND:WATTS" (count 1), e.g.
 *        "gpu:8:600W", "cpu:2:400", "board:150W". WATTS takes a unit (W, kW).
 * @param[in]  text      NUL-terminated text; NULL gives ::HWFIT_EINVAL.
 * @param[out] component The line; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK        parsed.
 * @retval HWFIT_EINVAL    a pointer is NULL.
 * @retval HWFIT_ENOTFOUND the kind is unknown.
 * @retval HWFIT_EPARSE    not of the form KIND:COUNT:WATTS, or a malformed count or power.
 * @retval HWFIT_EDOM      the count or the power is out of range.
 */
HWFIT_API hwfit_status hwfit_power_component_parse(const char *text,
                                                   hwfit_power_component *component);

/** @brief Inputs of ::hwfit_power_budget_evaluate. Initialise with ::hwfit_power_budget_init. */
typedef struct hwfit_power_budget_in {
    hwfit_power_component components[HWFIT_POWER_MAX_COMPONENTS]; /**< The lines; the first
                                                                        @c component_count
                                                                        are used. */
    uint64_t component_count;    /**< Lines in use, <= ::HWFIT_POWER_MAX_COMPONENTS.
                                      Default 0. */
    double gpu_transient_factor; /**< Peak GPU draw over board power for the peak budget,
                                      >= 1 (at most 10). Default 1 (no transient). Measured
                                      excursions reach 1.28x for up to 10 ms and 1.57x for
                                      under 1 ms (RTX 5090); PCIe CEM 5.0 allows 3x for
                                      100 us. */
} hwfit_power_budget_in;

/** @brief Results of ::hwfit_power_budget_evaluate. */
typedef struct hwfit_power_budget_out {
    double kind_w[HWFIT_POWER_COMPONENT_KINDS]; /**< Sustained DC draw per kind, W,
                                                     indexed by ::hwfit_power_component_kind. */
    uint64_t kind_count[HWFIT_POWER_COMPONENT_KINDS]; /**< Parts per kind. */
    uint64_t gpus;      /**< GPUs in the budget (kind_count of GPU). */
    double dc_w;        /**< Sustained DC total, W: sum of count x watts. */
    double peak_dc_w;   /**< Peak DC total, W: GPUs x transient factor plus the rest. */
} hwfit_power_budget_out;

/**
 * @brief Fill @p in with the defaults: no components, transient factor 1.
 * @param[out] in The inputs to initialise; NULL is ignored.
 */
HWFIT_API void hwfit_power_budget_init(hwfit_power_budget_in *in);

/**
 * @brief Append one line to a budget.
 * @param[in,out] in    The budget; NULL gives ::HWFIT_EINVAL. Unchanged on error.
 * @param[in]     kind  What the parts are.
 * @param[in]     count How many, at most 1e6.
 * @param[in]     watts DC draw of one part, W, in [0, 1e7].
 * @retval HWFIT_OK       appended.
 * @retval HWFIT_EINVAL   @p in is NULL or @p kind is not a ::hwfit_power_component_kind.
 * @retval HWFIT_EDOM     @p count or @p watts out of range (NaN, infinite, negative).
 * @retval HWFIT_EBUFSIZE the budget already holds ::HWFIT_POWER_MAX_COMPONENTS lines.
 */
HWFIT_API hwfit_status hwfit_power_budget_add(hwfit_power_budget_in *in,
                                              hwfit_power_component_kind kind, uint64_t count,
                                              double watts);

/**
 * @brief Sum a component budget: DC total, per kind, and a peak with GPU transients.
 * @param[in]  in  Inputs; NULL gives ::HWFIT_EINVAL.
 * @param[out] out Results, written only on success; NULL gives ::HWFIT_EINVAL.
 * @retval HWFIT_OK     computed.
 * @retval HWFIT_EINVAL a pointer is NULL, or a line has an unknown kind.
 * @retval HWFIT_EDOM   more lines than the array holds, a count or power out of range, or
 *                      a transient factor outside [1, 10].
 */
HWFIT_API hwfit_status hwfit_power_budget_evaluate(const hwfit_power_budget_in *in,
                                                   hwfit_power_budget_out *out);

/**
 * @brief Check the inputs of ::hwfit_power_budget_evaluate: which field is wrong, and why.
 *
 * Runs the same code as ::hwfit_power_budget_evaluate on the same inputs without writing results, so it
 * returns exactly the status that ::hwfit_power_budget_evaluate returns (given a non-NULL output). Problems of a line name the field "components.kind", "components.count" or
 * "components.watts" and set hwfit_problem::index to the line.
 * @param[in]  in      Inputs; NULL gives ::HWFIT_EINVAL (field "in").
 * @param[out] problem The field at fault and the rule it breaks, or cleared when the inputs
 *                     are valid; may be NULL.
 * @return The status of ::hwfit_power_budget_evaluate for @p in.
 */
HWFIT_API hwfit_status hwfit_power_budget_validate(const hwfit_power_budget_in *in,
                                                   hwfit_problem *problem);

/** @brief 80 PLUS certification level of a power supply. */
typedef enum hwfit_psu_class {
    HWFIT_POWER_CLASS_NONE = 0,     /**< No curve: hwfit_psu_in::fixed_efficiency applies. */
    HWFIT_POWER_CLASS_BASE = 1,     /**< "80 PLUS" (white); not defined for 230 V redundant. */
    HWFIT_POWER_CLASS_BRONZE = 2,   /**< 80 PLUS Bronze. */
    HWFIT_POWER_CLASS_SILVER = 3,   /**< 80 PLUS Silver. */
    HWFIT_POWER_CLASS_GOLD = 4,     /**< 80 PLUS Gold. */
    HWFIT_POWER_CLASS_PLATINUM = 5, /**< 80 PLUS Platinum. */
    HWFIT_POWER_CLASS_TITANIUM = 6  /**< 80 PLUS Titanium (the only level with a 10 % point). */
} hwfit_psu_class;

/** @brief Which 80 PLUS test table gives the efficiency curve. */
typedef enum hwfit_psu_table {
    HWFIT_POWER_TABLE_AUTO = 0,          /**< By input voltage: below 180 V the 115 V table,
                                              otherwise 230 V internal redundant. */
    HWFIT_POWER_TABLE_115V_INTERNAL = 1, /**< 115 V internal non-redundant. */
    HWFIT_POWER_TABLE_230V_REDUNDANT = 2, /**< 230 V internal redundant (data-centre PSUs). */
    HWFIT_POWER_TABLE_230V_EU_INTERNAL = 3 /**< 230 V EU internal non-redundant. */
} hwfit_psu_table;

/**
 * @brief Parse a class name: "none", "80plus" (also "base", "white", "standard"), "bronze",
 *        "silver", "gold", "platinum", "titanium"; case-insensitive, with an optional
 *        "80plus-" or "80 plus " prefix.
 * @param[in]  text NUL-terminated name; NULL gives ::HWFIT_EINVAL.
 * @param[out] cls  The class; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK        parsed.
 * @retval HWFIT_EINVAL    a pointer is NULL.
 * @retval HWFIT_ENOTFOUND not a class name.
 */
HWFIT_API hwfit_status hwfit_psu_class_parse(const char *text, hwfit_psu_class *cls);

/**
 * @brief The canonical name of a class: "none", "80plus", "bronze" ... "titanium".
 * @param[in] cls Any value; others give "unknown".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_psu_class_name(hwfit_psu_class cls);

/**
 * @brief Parse a table name: "auto", "115v" (also "115v-internal"), "230v-redundant"
 *        (also "230v"), "230v-eu" (also "230v-eu-internal"); case-insensitive.
 * @param[in]  text  NUL-terminated name; NULL gives ::HWFIT_EINVAL.
 * @param[out] table The table; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK        parsed.
 * @retval HWFIT_EINVAL    a pointer is NULL.
 * @retval HWFIT_ENOTFOUND not a table name.
 */
HWFIT_API hwfit_status hwfit_psu_table_parse(const char *text, hwfit_psu_table *table);

/**
 * @brief The canonical name of a table: "auto", "115v-internal", "230v-redundant",
 *        "230v-eu-internal".
 * @param[in] table Any value; others give "unknown".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_psu_table_name(hwfit_psu_table table);

/**
 * @brief Minimum certified efficiency of a class at a load, from the 80 PLUS table.
 *
 * Linear interpolation between the published points (10 % for Titanium, 20 %, 50 %,
 * 100 % of rated load). Below the lowest point the lowest point's value is held, and
 * above 100 % the 100 % value: both are extrapolations, and real supplies lose efficiency
 * quickly at very light load. The values are certification minima, so a certified unit is
 * usually a little better.
 *
 * @param[in]  cls           The class; ::HWFIT_POWER_CLASS_NONE has no curve.
 * @param[in]  table         The test table; ::HWFIT_POWER_TABLE_AUTO means 230 V redundant.
 * @param[in]  load_fraction Output load over rated output, >= 0 (1 = full load).
 * @param[out] efficiency    DC out / AC in, in (0, 1); NULL gives ::HWFIT_EINVAL.
 * @retval HWFIT_OK           computed.
 * @retval HWFIT_EINVAL       @p efficiency is NULL or an enum is out of range.
 * @retval HWFIT_EDOM         @p load_fraction is NaN, infinite, negative or above 100.
 * @retval HWFIT_EUNSUPPORTED no curve: class none, or "80 PLUS" base at 230 V redundant.
 */
HWFIT_API hwfit_status hwfit_psu_efficiency(hwfit_psu_class cls, hwfit_psu_table table,
                                            double load_fraction, double *efficiency);

/**
 * @brief Parse a redundancy scheme into the number of redundant PSUs, for @p psus installed.
 *
 * Accepted: a count "1"; "N" (0); "N+M" e.g. "N+1", "N+2"; "A+B" e.g. "3+1", "2+2", where
 * A + B must equal @p psus; "2N" or "N+N" (half of @p psus, which must be even).
 *
 * @param[in]  text      NUL-terminated text; NULL gives ::HWFIT_EINVAL.
 * @param[in]  psus      PSUs installed.
 * @param[out] redundant Redundant PSUs (M); NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK     parsed.
 * @retval HWFIT_EINVAL a pointer is NULL.
 * @retval HWFIT_EPARSE not one of the forms above.
 * @retval HWFIT_EDOM   the scheme does not fit @p psus (A + B differs, odd count for 2N) or
 *                      leaves no PSU to carry the load.
 */
HWFIT_API hwfit_status hwfit_psu_redundancy_parse(const char *text, uint64_t psus,
                                                  uint64_t *redundant);

/**
 * @brief Why ::hwfit_psu_redundancy_parse refuses a scheme: the field is "text" and the
 *        rule says which form was expected or which count does not fit, e.g. "leaves no
 *        PSU to carry the load: it must be below the PSUs installed".
 * @param[in]  text    NUL-terminated text; NULL gives ::HWFIT_EINVAL.
 * @param[in]  psus    PSUs installed.
 * @param[out] problem The rule broken, or cleared when the scheme is valid; may be NULL.
 * @return The status of ::hwfit_psu_redundancy_parse for @p text and @p psus.
 */
HWFIT_API hwfit_status hwfit_psu_redundancy_validate(const char *text, uint64_t psus,
                                                     hwfit_problem *problem);

/** @brief Inputs of ::hwfit_psu_evaluate. Initialise with ::hwfit_psu_init. */
typedef struct hwfit_psu_in {
    uint64_t psus;             /**< PSUs installed (>= 1). Required; default 0. */
    uint64_t redundant;        /**< Redundant PSUs M of N+M (< psus). Default 1 (N+1). */
    double psu_rating_w;       /**< DC output rating of one PSU at high line (200-240 V),
                                    W (> 0). Required; default 0. */
    double psu_low_line_rating_w; /**< Rating at low line (100-127 V), W, or
                                       ::HWFIT_POWER_UNSET. 3 kW-class server PSUs are
                                       derated or unsupported at low line, so it is needed
                                       below 180 V. Default unset. */
    double input_voltage_v;    /**< AC input voltage, V, in [90, 300]. Default 230. */
    double load_w;             /**< DC load the PSUs carry, W (> 0). Required; default 0. */
    double peak_load_w;        /**< Peak DC load (transients), W, or ::HWFIT_POWER_UNSET
                                    for the same as @c load_w; the larger of the two is
                                    used. Default unset. */
    double headroom_ratio;     /**< Rule: usable capacity >= ratio x load, in [1, 10].
                                    Default 1.3 (the "130 %" rule of thumb; the only
                                    codified figure found is NEC 210.20's 125 %/80 % for
                                    continuous loads on branch circuits). */
    double peak_ratio;         /**< Short-term output of a PSU over its rating that peaks
                                    may use, in [1, 10]. Default 1 (no credit; peak power
                                    specifications are vendor-specific). */
    hwfit_psu_class psu_class; /**< 80 PLUS class. Default Titanium. */
    hwfit_psu_table table;     /**< 80 PLUS test table. Default auto (by voltage). */
    double fixed_efficiency;   /**< Efficiency with class none, in (0, 1]. Default 0.9. */
    int cold_redundancy;       /**< 0: all installed PSUs share the load (current sharing,
                                    the usual case); 1: the M redundant PSUs stand by and N
                                    carry it. Default 0. */
} hwfit_psu_in;

/** @brief Results of ::hwfit_psu_evaluate. */
typedef struct hwfit_psu_out {
    uint64_t psus;              /**< PSUs installed. */
    uint64_t active_psus;       /**< N = psus - redundant: PSUs the load may rely on. */
    uint64_t sharing_psus;      /**< PSUs sharing the load in normal operation. */
    hwfit_psu_table table;      /**< The table used (auto resolved). */
    double rating_w;            /**< Rating of one PSU at the input voltage, W. */
    double installed_w;         /**< psus x rating, W. */
    double usable_w;            /**< N x rating: capacity with M PSUs failed, W. */
    double load_w;              /**< The DC load, W. */
    double peak_load_w;         /**< The peak DC load, W. */
    double required_w;          /**< headroom_ratio x load, W. */
    double headroom_w;          /**< usable - load, W; negative when short. */
    double usable_to_load;      /**< usable / load (compare with the headroom ratio). */
    double psu_load_w;          /**< DC output of each sharing PSU, W. */
    double psu_load_fraction;   /**< psu_load_w / rating (1 = full load). */
    double failover_load_fraction; /**< Load per PSU with M PSUs failed: load / usable. */
    double efficiency;          /**< 80 PLUS efficiency at psu_load_fraction. */
    double wall_w;              /**< AC input power: load / efficiency, W. */
    double loss_w;              /**< Heat in the PSUs: wall - load, W. */
    double failover_efficiency; /**< Efficiency with M PSUs failed. */
    double failover_wall_w;     /**< AC input with M PSUs failed, W. */
    int meets_load;             /**< 1 when usable >= load (survives M failures). */
    int meets_headroom;         /**< 1 when usable >= headroom_ratio x load. */
    int meets_peak;             /**< 1 when usable x peak_ratio >= peak load. */
    int overloaded;             /**< 1 when psu_load_fraction > 1 even with all sharing. */
    int efficiency_extrapolated; /**< 1 when a load lies outside the published points. */
} hwfit_psu_out;

/**
 * @brief Fill @p in with the documented defaults (N+1, 230 V, Titanium, ratio 1.3).
 * @param[out] in The inputs to initialise; NULL is ignored.
 */
HWFIT_API void hwfit_psu_init(hwfit_psu_in *in);

/**
 * @brief Redundancy, headroom, load per PSU, efficiency and wall power of a PSU set.
 * @param[in]  in  Inputs; NULL gives ::HWFIT_EINVAL.
 * @param[out] out Results, written only on success; NULL gives ::HWFIT_EINVAL.
 * @retval HWFIT_OK           computed; every result is finite.
 * @retval HWFIT_EINVAL       a pointer is NULL, or the class or table is out of range.
 * @retval HWFIT_EDOM         no PSU, redundancy that leaves no PSU, a rating, load or
 *                            ratio that is NaN, infinite, negative, zero or out of range.
 * @retval HWFIT_EUNSUPPORTED no efficiency curve for the class and table, or a low-line
 *                            input voltage (below 180 V) without a low-line rating.
 * @retval HWFIT_ERANGE       a result overflows a double (a load, rating or efficiency
 *                            near 1e-300).
 */
HWFIT_API hwfit_status hwfit_psu_evaluate(const hwfit_psu_in *in, hwfit_psu_out *out);

/**
 * @brief Check the inputs of ::hwfit_psu_evaluate: which field is wrong, and why.
 *
 * Runs the same code as ::hwfit_psu_evaluate on the same inputs without writing results, so it
 * returns exactly the status that ::hwfit_psu_evaluate returns (given a non-NULL output).
 * @param[in]  in      Inputs; NULL gives ::HWFIT_EINVAL (field "in").
 * @param[out] problem The field at fault and the rule it breaks, or cleared when the inputs
 *                     are valid; may be NULL.
 * @return The status of ::hwfit_psu_evaluate for @p in.
 */
HWFIT_API hwfit_status hwfit_psu_validate(const hwfit_psu_in *in, hwfit_problem *problem);

/** @brief Cooling recommendation for a heat load. */
typedef enum hwfit_cooling {
    HWFIT_POWER_COOLING_AIR_OK = 0,            /**< At or below the air-marginal threshold. */
    HWFIT_POWER_COOLING_AIR_MARGINAL = 1,      /**< Above it: air works with care (high
                                                    airflow, containment, cool inlet). */
    HWFIT_POWER_COOLING_LIQUID_RECOMMENDED = 2 /**< Above the liquid threshold. */
} hwfit_cooling;

/**
 * @brief The name of a recommendation: "air-ok", "air-marginal", "liquid-recommended".
 * @param[in] cooling Any value; others give "unknown".
 * @return A static string; never NULL.
 */
HWFIT_API const char *hwfit_cooling_name(hwfit_cooling cooling);

/** @brief Inputs of ::hwfit_thermal_evaluate. Initialise with ::hwfit_thermal_init. */
typedef struct hwfit_thermal_in {
    double heat_w;                 /**< Heat of one chassis, W: its wall power (all input
                                        power ends as heat). Required (>= 0); default 0. */
    double delta_t_c;              /**< Air temperature rise inlet to outlet, K (= degC
                                        difference), in (0, 100]. Default 15. */
    double air_density_kg_per_m3;  /**< Air density, kg/m^3, in (0, 5]. Default 1.2 (sea
                                        level, 20 degC). */
    double air_heat_capacity_j_per_kg_k; /**< Specific heat of air at constant pressure,
                                              J/(kg K), in (0, 1e4]. Default 1005. */
    uint64_t chassis_per_rack;     /**< Chassis whose heat the thresholds compare (1 = a
                                        per-chassis rule), in [1, 1000]. Default 1. */
    double air_marginal_above_w;   /**< Heat above which air cooling is marginal, W (> 0).
                                        Default 5000 (the "5 kW" rule of thumb of the seed
                                        documents; no primary source; Schneider WP156 puts
                                        the optimal average at 5-8 kW per rack). */
    double liquid_above_w;         /**< Heat above which liquid cooling is recommended, W
                                        (>= air_marginal_above_w). Default 20000 (low end of
                                        the 20-30 kW per rack quoted as the practical limit
                                        of air with containment). */
} hwfit_thermal_in;

/** @brief Results of ::hwfit_thermal_evaluate. */
typedef struct hwfit_thermal_out {
    double heat_w;            /**< Heat of one chassis, W. */
    double heat_btu_per_h;    /**< The same in BTU/h (International Table BTU). */
    double cooling_tons;      /**< The same in refrigeration tons (12,000 BTU/h). */
    double airflow_m3_per_s;  /**< Air volume flow that carries the heat at delta_t, m^3/s. */
    double airflow_m3_per_h;  /**< The same in m^3/h. */
    double airflow_cfm;       /**< The same in cubic feet per minute. */
    double rack_heat_w;       /**< heat x chassis_per_rack, W: what the thresholds compare. */
    hwfit_cooling cooling;    /**< The recommendation. */
} hwfit_thermal_out;

/**
 * @brief Fill @p in with the documented defaults (15 K rise, sea-level air, 5/20 kW).
 * @param[out] in The inputs to initialise; NULL is ignored.
 */
HWFIT_API void hwfit_thermal_init(hwfit_thermal_in *in);

/**
 * @brief Heat in BTU/h and tons, airflow for a temperature rise, cooling recommendation.
 * @param[in]  in  Inputs; NULL gives ::HWFIT_EINVAL.
 * @param[out] out Results, written only on success; NULL gives ::HWFIT_EINVAL.
 * @retval HWFIT_OK     computed.
 * @retval HWFIT_EINVAL a pointer is NULL.
 * @retval HWFIT_EDOM   a number NaN, infinite, negative or out of range, or the liquid
 *                      threshold below the marginal one.
 * @retval HWFIT_ERANGE the airflow overflows a double (air constants near 1e-300).
 */
HWFIT_API hwfit_status hwfit_thermal_evaluate(const hwfit_thermal_in *in, hwfit_thermal_out *out);

/**
 * @brief Check the inputs of ::hwfit_thermal_evaluate: which field is wrong, and why.
 *
 * Runs the same code as ::hwfit_thermal_evaluate on the same inputs without writing results, so it
 * returns exactly the status that ::hwfit_thermal_evaluate returns (given a non-NULL output).
 * @param[in]  in      Inputs; NULL gives ::HWFIT_EINVAL (field "in").
 * @param[out] problem The field at fault and the rule it breaks, or cleared when the inputs
 *                     are valid; may be NULL.
 * @return The status of ::hwfit_thermal_evaluate for @p in.
 */
HWFIT_API hwfit_status hwfit_thermal_validate(const hwfit_thermal_in *in,
                                              hwfit_problem *problem);

/**
 * @brief Parse an electricity price: "0.18", "0.18/kWh", "180/MWh", "0.00018/Wh";
 *        the unit is case-insensitive; the currency is whatever the caller means.
 * @param[in]  text          NUL-terminated text; NULL gives ::HWFIT_EINVAL.
 * @param[out] price_per_kwh Price per kWh; NULL gives ::HWFIT_EINVAL. Written only on success.
 * @retval HWFIT_OK     parsed.
 * @retval HWFIT_EINVAL a pointer is NULL.
 * @retval HWFIT_EPARSE not a number with an optional /Wh, /kWh or /MWh.
 * @retval HWFIT_EDOM   negative.
 * @retval HWFIT_ERANGE too large to represent.
 */
HWFIT_API hwfit_status hwfit_price_per_kwh_parse(const char *text, double *price_per_kwh);

/** @brief Inputs of ::hwfit_energy_evaluate. Initialise with ::hwfit_energy_init. */
typedef struct hwfit_energy_in {
    double power_w;         /**< Wall power while working, W (>= 0). Required; default 0. */
    double idle_power_w;    /**< Wall power the rest of the time, W (>= 0). Default 0
                                 (off). */
    double duty_cycle;      /**< Share of the hours at power_w, in [0, 1]. Default 1
                                 (24/7). */
    double pue;             /**< Power usage effectiveness of the facility, in [1, 10].
                                 Default 1 (the server alone; the Uptime Institute survey
                                 average is about 1.56). */
    double price_per_kwh;   /**< Energy price per kWh, >= 0, any currency. Default 0.18
                                 (German industrial price without reductions, Jan 2025,
                                 SMARD: 17.99 ct/kWh; US industrial is nearer 0.08 $). */
    double hours_per_year;  /**< Hours in the year, (0, 8784]. Default 8760. */
} hwfit_energy_in;

/** @brief Results of ::hwfit_energy_evaluate. */
typedef struct hwfit_energy_out {
    double average_power_w;     /**< duty x power + (1 - duty) x idle, W. */
    double facility_power_w;    /**< average x PUE, W. */
    double it_energy_kwh;       /**< IT energy per year, kWh. */
    double annual_energy_kwh;   /**< Facility energy per year (IT x PUE), kWh. */
    double annual_cost;         /**< annual_energy_kwh x price. */
    double cost_per_hour;       /**< annual_cost / hours_per_year. */
} hwfit_energy_out;

/**
 * @brief Fill @p in with the documented defaults (24/7, PUE 1, 0.18 per kWh).
 * @param[out] in The inputs to initialise; NULL is ignored.
 */
HWFIT_API void hwfit_energy_init(hwfit_energy_in *in);

/**
 * @brief Annual energy and its cost with duty cycle, PUE and price.
 * @param[in]  in  Inputs; NULL gives ::HWFIT_EINVAL.
 * @param[out] out Results, written only on success; NULL gives ::HWFIT_EINVAL.
 * @retval HWFIT_OK     computed.
 * @retval HWFIT_EINVAL a pointer is NULL.
 * @retval HWFIT_EDOM   a number NaN, infinite, negative or out of range.
 */
HWFIT_API hwfit_status hwfit_energy_evaluate(const hwfit_energy_in *in, hwfit_energy_out *out);

/**
 * @brief Check the inputs of ::hwfit_energy_evaluate: which field is wrong, and why.
 *
 * Runs the same code as ::hwfit_energy_evaluate on the same inputs without writing results, so it
 * returns exactly the status that ::hwfit_energy_evaluate returns (given a non-NULL output).
 * @param[in]  in      Inputs; NULL gives ::HWFIT_EINVAL (field "in").
 * @param[out] problem The field at fault and the rule it breaks, or cleared when the inputs
 *                     are valid; may be NULL.
 * @return The status of ::hwfit_energy_evaluate for @p in.
 */
HWFIT_API hwfit_status hwfit_energy_validate(const hwfit_energy_in *in,
                                             hwfit_problem *problem);

/** @brief Inputs of ::hwfit_tco_evaluate. Initialise with ::hwfit_tco_init. */
typedef struct hwfit_tco_in {
    double capex;               /**< Purchase and installation cost, >= 0. Default 0. */
    double annual_energy_cost;  /**< Energy cost per year (e.g. hwfit_energy_out::annual_cost),
                                     >= 0. Default 0. */
    double annual_other_cost;   /**< Other running cost per year: maintenance, space,
                                     support, >= 0. Default 0. */
    uint64_t years;             /**< Service life in years, in [1, 100]. Default 5 (a common
                                     depreciation period for servers; an assumption). */
    double discount_rate;       /**< Yearly discount rate for running costs, in [0, 1].
                                     Default 0 (undiscounted). */
    uint64_t gpus;              /**< GPUs the cost is spread over (>= 1). Default 1. */
    double utilization;         /**< Share of the hours the GPUs do paid work, in (0, 1].
                                     Default 1. */
} hwfit_tco_in;

/** @brief Results of ::hwfit_tco_evaluate. */
typedef struct hwfit_tco_out {
    double opex;                /**< Running cost over the years, discounted. */
    double tco;                 /**< capex + opex. */
    double cost_per_year;       /**< tco / years. */
    double cost_per_hour;       /**< tco / (years x 8760 h). */
    double cost_per_gpu_hour;   /**< tco / (years x 8760 h x gpus x utilization). */
} hwfit_tco_out;

/**
 * @brief Fill @p in with the documented defaults (5 years, undiscounted, 1 GPU, fully used).
 * @param[out] in The inputs to initialise; NULL is ignored.
 */
HWFIT_API void hwfit_tco_init(hwfit_tco_in *in);

/**
 * @brief Total cost of ownership over the years and the cost per GPU-hour.
 * @param[in]  in  Inputs; NULL gives ::HWFIT_EINVAL.
 * @param[out] out Results, written only on success; NULL gives ::HWFIT_EINVAL.
 * @retval HWFIT_OK     computed.
 * @retval HWFIT_EINVAL a pointer is NULL.
 * @retval HWFIT_EDOM   a cost NaN, infinite or negative; years, GPUs, rate or utilisation
 *                      out of range.
 * @retval HWFIT_ERANGE the cost per GPU-hour overflows a double (utilisation near 1e-300).
 */
HWFIT_API hwfit_status hwfit_tco_evaluate(const hwfit_tco_in *in, hwfit_tco_out *out);

/**
 * @brief Check the inputs of ::hwfit_tco_evaluate: which field is wrong, and why.
 *
 * Runs the same code as ::hwfit_tco_evaluate on the same inputs without writing results, so it
 * returns exactly the status that ::hwfit_tco_evaluate returns (given a non-NULL output).
 * @param[in]  in      Inputs; NULL gives ::HWFIT_EINVAL (field "in").
 * @param[out] problem The field at fault and the rule it breaks, or cleared when the inputs
 *                     are valid; may be NULL.
 * @return The status of ::hwfit_tco_evaluate for @p in.
 */
HWFIT_API hwfit_status hwfit_tco_validate(const hwfit_tco_in *in, hwfit_problem *problem);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HWFIT_POWER_H */

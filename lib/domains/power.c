/* power.c - component budget, PSUs, thermal, energy and TCO.
 *
 * Sources (also in docs/formulas.md, section "power"):
 * - 80 PLUS efficiency minima per load: the 80 PLUS program (Ecos/EPRI, now CLEAResult),
 *   levels as tabulated in Wikipedia "80 Plus", section "Efficiency level certifications".
 * - Redundancy N+M, usable = N x rating: e.g. NVIDIA DGX B200 user guide (6 PSUs, 5+1).
 * - Sensible heat of air: Q = rho x cp x V x dT (ASHRAE Handbook - Fundamentals); BTU and
 *   CFM conversions: NIST SP 811 (2008), Appendix B.8.
 * - Energy and TCO: E = P x h x duty x PUE (The Green Grid, PUE definition, WP 49);
 *   TCO = capex + sum of discounted yearly costs.
 */
#include <math.h>
#include <string.h>

#include "hwfit/power.h"
#include "hwfit/status.h"
#include "hwfit/units.h"

#include "base/internal.h"

static char lower(char c) { return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c; }

/* Lowercase copy without spaces; 0 when it does not fit. */
/* Refuse x unless it lies in [lo, hi] (NaN and infinities never do). */
#define NEED_RANGE(why, x, lo, hi, field, rule) \
    do { \
        if (!hwfit__in_range((x), (lo), (hi))) return hwfit__why((why), HWFIT_EDOM, (field), (rule)); \
    } while (0)
/* Refuse x unless it lies in (0, hi]. */
#define NEED_POSITIVE(why, x, hi, field, rule) \
    do { \
        if (!positive((x), (hi))) return hwfit__why((why), HWFIT_EDOM, (field), (rule)); \
    } while (0)

static int positive(double x, double hi) { return hwfit__in_range(x, 0.0, hi) && x > 0.0; }

static int squeeze(const char *text, char *buf, size_t size) {
    size_t o = 0;
    for (const char *p = text; *p; p++) {
        if (*p == ' ' || *p == '\t') continue;
        if (o + 1 >= size) return 0;
        buf[o++] = lower(*p);
    }
    buf[o] = '\0';
    return 1;
}

/* ---- component budget ------------------------------------------------------------------ */

#define MAX_COUNT 1000000u
#define MAX_PART_W 1e7

static const char *const kind_names[HWFIT_POWER_COMPONENT_KINDS] = {
    "gpu", "cpu", "dimm", "drive", "nic", "fan", "switch", "board", "other"};

const char *hwfit_power_component_kind_name(hwfit_power_component_kind kind) {
    unsigned i = (unsigned)kind;
    return i < HWFIT_POWER_COMPONENT_KINDS ? kind_names[i] : "unknown";
}

hwfit_status hwfit_power_component_kind_parse(const char *text, hwfit_power_component_kind *kind) {
    if (text == NULL || kind == NULL) return HWFIT_EINVAL;
    char buf[16];
    if (!squeeze(text, buf, sizeof buf)) return HWFIT_ENOTFOUND;
    for (unsigned i = 0; i < HWFIT_POWER_COMPONENT_KINDS; i++) {
        if (strcmp(buf, kind_names[i]) == 0) {
            *kind = (hwfit_power_component_kind)i;
            return HWFIT_OK;
        }
    }
    if (strcmp(buf, "nvme") == 0 || strcmp(buf, "ssd") == 0 || strcmp(buf, "disk") == 0) {
        *kind = HWFIT_POWER_COMPONENT_DRIVE;
        return HWFIT_OK;
    }
    return HWFIT_ENOTFOUND;
}

hwfit_status hwfit_power_component_parse(const char *text, hwfit_power_component *component) {
    if (text == NULL || component == NULL) return HWFIT_EINVAL;
    char buf[96];
    if (strlen(text) >= sizeof buf) return HWFIT_EPARSE;
    strcpy(buf, text);
    char *first = strchr(buf, ':');
    if (first == NULL) return HWFIT_EPARSE;
    *first = '\0';
    char *rest = first + 1, *second = strchr(rest, ':');
    hwfit_power_component c;
    memset(&c, 0, sizeof c); /* padding too: outputs never carry stack bytes */
    hwfit_status st = hwfit_power_component_kind_parse(buf, &c.kind);
    if (st != HWFIT_OK) return st;
    c.count = 1;
    const char *watts = rest;
    if (second != NULL) {
        *second = '\0';
        watts = second + 1;
        if (*rest == '\0') return HWFIT_EPARSE;
        uint64_t v = 0;
        for (const char *p = rest; *p; p++) {
            if (*p < '0' || *p > '9') return HWFIT_EPARSE;
            if (v > MAX_COUNT) return HWFIT_EDOM;
            v = v * 10u + (uint64_t)(*p - '0');
        }
        if (v > MAX_COUNT) return HWFIT_EDOM;
        c.count = v;
    }
    st = hwfit_units_parse(watts, HWFIT_UNIT_WATTS, &c.watts);
    if (st == HWFIT_ERANGE) return HWFIT_EDOM;
    if (st != HWFIT_OK) return st;
    if (!hwfit__in_range(c.watts, 0.0, MAX_PART_W)) return HWFIT_EDOM;
    *component = c;
    return HWFIT_OK;
}

void hwfit_power_budget_init(hwfit_power_budget_in *in) {
    if (in == NULL) return;
    memset(in, 0, sizeof *in);
    in->component_count = 0;
    in->gpu_transient_factor = 1.0;
}

hwfit_status hwfit_power_budget_add(hwfit_power_budget_in *in, hwfit_power_component_kind kind,
                                    uint64_t count, double watts) {
    if (in == NULL || (unsigned)kind >= HWFIT_POWER_COMPONENT_KINDS) return HWFIT_EINVAL;
    if (count > MAX_COUNT || !hwfit__in_range(watts, 0.0, MAX_PART_W)) return HWFIT_EDOM;
    if (in->component_count >= HWFIT_POWER_MAX_COMPONENTS) return HWFIT_EBUFSIZE;
    hwfit_power_component *c = &in->components[in->component_count++];
    c->kind = kind;
    c->count = count;
    c->watts = watts;
    return HWFIT_OK;
}

static hwfit_status budget(const hwfit_power_budget_in *in, hwfit_power_budget_out *out,
                           hwfit_problem *why) {
    if (in->component_count > HWFIT_POWER_MAX_COMPONENTS)
        return hwfit__why(why, HWFIT_EDOM, "component_count",
                          "must be at most HWFIT_POWER_MAX_COMPONENTS (32)");
    NEED_RANGE(why, in->gpu_transient_factor, 1.0, 10.0, "gpu_transient_factor",
               "must be a number in [1, 10]");
    hwfit_power_budget_out r;
    memset(&r, 0, sizeof r);
    for (uint64_t i = 0; i < in->component_count; i++) {
        const hwfit_power_component *c = &in->components[i];
        size_t at = (size_t)i;
        if ((unsigned)c->kind >= HWFIT_POWER_COMPONENT_KINDS)
            return hwfit__why_at(why, HWFIT_EINVAL, "components.kind", at, HWFIT__ENUM);
        if (c->count > MAX_COUNT)
            return hwfit__why_at(why, HWFIT_EDOM, "components.count", at,
                                 "must be at most 1000000");
        if (!hwfit__in_range(c->watts, 0.0, MAX_PART_W))
            return hwfit__why_at(why, HWFIT_EDOM, "components.watts", at,
                                 "must be a number of watts in [0, 1e7]");
        r.kind_w[c->kind] += (double)c->count * c->watts;
        r.kind_count[c->kind] += c->count; /* <= 32 x 1e6: no overflow */
    }
    for (unsigned k = 0; k < HWFIT_POWER_COMPONENT_KINDS; k++) r.dc_w += r.kind_w[k];
    r.gpus = r.kind_count[HWFIT_POWER_COMPONENT_GPU];
    double gpu_w = r.kind_w[HWFIT_POWER_COMPONENT_GPU];
    r.peak_dc_w = r.dc_w - gpu_w + gpu_w * in->gpu_transient_factor;
    *out = r;
    return HWFIT_OK;
}

hwfit_status hwfit_power_budget_evaluate(const hwfit_power_budget_in *in,
                                         hwfit_power_budget_out *out) {
    if (in == NULL || out == NULL) return HWFIT_EINVAL;
    return budget(in, out, NULL);
}

hwfit_status hwfit_power_budget_validate(const hwfit_power_budget_in *in,
                                         hwfit_problem *problem) {
    hwfit_problem_clear(problem);
    if (in == NULL) return hwfit__why(problem, HWFIT_EINVAL, "in", HWFIT__NULL);
    hwfit_power_budget_out scratch;
    return budget(in, &scratch, problem);
}

/* ---- 80 PLUS ----------------------------------------------------------------------------- */

static const char *const class_names[] = {"none",     "80plus",  "bronze", "silver",
                                          "gold",     "platinum", "titanium"};
#define CLASS_COUNT 7u
static const char *const table_names[] = {"auto", "115v-internal", "230v-redundant",
                                          "230v-eu-internal"};
#define TABLE_COUNT 4u

const char *hwfit_psu_class_name(hwfit_psu_class cls) {
    unsigned i = (unsigned)cls;
    return i < CLASS_COUNT ? class_names[i] : "unknown";
}

const char *hwfit_psu_table_name(hwfit_psu_table table) {
    unsigned i = (unsigned)table;
    return i < TABLE_COUNT ? table_names[i] : "unknown";
}

hwfit_status hwfit_psu_class_parse(const char *text, hwfit_psu_class *cls) {
    if (text == NULL || cls == NULL) return HWFIT_EINVAL;
    char buf[32];
    if (!squeeze(text, buf, sizeof buf)) return HWFIT_ENOTFOUND;
    const char *s = buf;
    if (strncmp(s, "80plus-", 7) == 0) s += 7;
    else if (strncmp(s, "80plus", 6) == 0 && s[6] != '\0') s += 6;
    static const struct {
        const char *name;
        hwfit_psu_class value;
    } names[] = {
        {"none", HWFIT_POWER_CLASS_NONE},         {"80plus", HWFIT_POWER_CLASS_BASE},
        {"base", HWFIT_POWER_CLASS_BASE},         {"white", HWFIT_POWER_CLASS_BASE},
        {"standard", HWFIT_POWER_CLASS_BASE},     {"bronze", HWFIT_POWER_CLASS_BRONZE},
        {"silver", HWFIT_POWER_CLASS_SILVER},     {"gold", HWFIT_POWER_CLASS_GOLD},
        {"platinum", HWFIT_POWER_CLASS_PLATINUM}, {"titanium", HWFIT_POWER_CLASS_TITANIUM},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(s, names[i].name) == 0) {
            *cls = names[i].value;
            return HWFIT_OK;
        }
    }
    return HWFIT_ENOTFOUND;
}

hwfit_status hwfit_psu_table_parse(const char *text, hwfit_psu_table *table) {
    if (text == NULL || table == NULL) return HWFIT_EINVAL;
    static const struct {
        const char *name;
        hwfit_psu_table value;
    } names[] = {
        {"auto", HWFIT_POWER_TABLE_AUTO},
        {"115v", HWFIT_POWER_TABLE_115V_INTERNAL},
        {"115v-internal", HWFIT_POWER_TABLE_115V_INTERNAL},
        {"230v", HWFIT_POWER_TABLE_230V_REDUNDANT},
        {"230v-redundant", HWFIT_POWER_TABLE_230V_REDUNDANT},
        {"230v-eu", HWFIT_POWER_TABLE_230V_EU_INTERNAL},
        {"230v-eu-internal", HWFIT_POWER_TABLE_230V_EU_INTERNAL},
    };
    char buf[32];
    if (!squeeze(text, buf, sizeof buf)) return HWFIT_ENOTFOUND;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(buf, names[i].name) == 0) {
            *table = names[i].value;
            return HWFIT_OK;
        }
    }
    return HWFIT_ENOTFOUND;
}

/* Minimum efficiency in percent at 10, 20, 50 and 100 % of rated load; 0 = not part of the
 * level. 80 PLUS program levels as tabulated by Wikipedia "80 Plus" (Efficiency level
 * certifications). The base "80 PLUS" level has no 230 V internal redundant row: the
 * program defines redundant server supplies from Bronze up (a base row equal to the EU one,
 * 82/85/82, as some summaries print, would exceed Bronze's 81/85/81). */
static const double load_points[4] = {0.10, 0.20, 0.50, 1.00};
static const double curves[4][CLASS_COUNT][4] = {
    {{0}}, /* auto: resolved before lookup */
    /* 115 V internal non-redundant */
    {{0, 0, 0, 0},
     {0, 80, 80, 80},
     {0, 82, 85, 82},
     {0, 85, 88, 85},
     {0, 87, 90, 87},
     {0, 90, 92, 89},
     {90, 92, 94, 90}},
    /* 230 V internal redundant */
    {{0, 0, 0, 0},
     {0, 0, 0, 0},
     {0, 81, 85, 81},
     {0, 85, 89, 85},
     {0, 88, 92, 88},
     {0, 90, 94, 91},
     {90, 94, 96, 91}},
    /* 230 V EU internal non-redundant */
    {{0, 0, 0, 0},
     {0, 82, 85, 82},
     {0, 85, 88, 85},
     {0, 87, 90, 87},
     {0, 90, 92, 89},
     {0, 92, 94, 90},
     {90, 94, 96, 94}},
};

/* Piecewise-linear efficiency at load fraction x; flat outside the published points.
 * Returns 0 when the class has no curve in the table; sets *outside. */
static double curve_efficiency(hwfit_psu_class cls, hwfit_psu_table table, double x, int *outside) {
    const double *pct = curves[table][cls];
    size_t first = 0;
    while (first < 4 && pct[first] == 0.0) first++;
    if (first == 4) return 0.0;
    if (x <= load_points[first]) {
        *outside = x < load_points[first];
        return pct[first] / 100.0;
    }
    if (x >= 1.0) {
        *outside = x > 1.0;
        return pct[3] / 100.0;
    }
    *outside = 0;
    size_t i = first;
    while (x > load_points[i + 1]) i++;
    double t = (x - load_points[i]) / (load_points[i + 1] - load_points[i]);
    return (pct[i] + t * (pct[i + 1] - pct[i])) / 100.0;
}

hwfit_status hwfit_psu_efficiency(hwfit_psu_class cls, hwfit_psu_table table, double load_fraction,
                                  double *efficiency) {
    if (efficiency == NULL || (unsigned)cls >= CLASS_COUNT || (unsigned)table >= TABLE_COUNT)
        return HWFIT_EINVAL;
    if (!hwfit__in_range(load_fraction, 0.0, 100.0)) return HWFIT_EDOM;
    if (table == HWFIT_POWER_TABLE_AUTO) table = HWFIT_POWER_TABLE_230V_REDUNDANT;
    int outside = 0;
    double e = curve_efficiency(cls, table, load_fraction, &outside);
    if (e <= 0.0) return HWFIT_EUNSUPPORTED;
    *efficiency = e;
    return HWFIT_OK;
}

/* ---- redundancy ---------------------------------------------------------------------------- */

/* Whole number at *p, advancing; 0 when none or above 1e6. */
static int read_count(const char **p, uint64_t *v) {
    const char *s = *p;
    uint64_t x = 0;
    if (*s < '0' || *s > '9') return 0;
    while (*s >= '0' && *s <= '9') {
        x = x * 10u + (uint64_t)(*s - '0');
        if (x > MAX_COUNT) return 0;
        s++;
    }
    *p = s;
    *v = x;
    return 1;
}

#define REDUNDANCY_FORMS "is not a count, N, N+M, A+B, 2N or N+N"
#define NO_PSU_LEFT "leaves no PSU to carry the load: it must be below the PSUs installed"

static hwfit_status redundancy(const char *text, uint64_t psus, uint64_t *redundant,
                               hwfit_problem *why) {
    char buf[32];
    if (!squeeze(text, buf, sizeof buf)) return hwfit__why(why, HWFIT_EPARSE, "text", REDUNDANCY_FORMS);
    const char *s = buf;
    uint64_t m;
    if (strcmp(s, "2n") == 0 || strcmp(s, "n+n") == 0) {
        if (psus == 0u || psus % 2u != 0u)
            return hwfit__why(why, HWFIT_EDOM, "text", "(2N) needs an even number of PSUs");
        m = psus / 2u;
    } else if (strcmp(s, "n") == 0) {
        m = 0;
    } else if (strncmp(s, "n+", 2) == 0) {
        s += 2;
        if (!read_count(&s, &m) || *s != '\0')
            return hwfit__why(why, HWFIT_EPARSE, "text", REDUNDANCY_FORMS);
    } else {
        uint64_t a;
        if (!read_count(&s, &a)) return hwfit__why(why, HWFIT_EPARSE, "text", REDUNDANCY_FORMS);
        if (*s == '\0') {
            m = a;
        } else {
            if (*s != '+') return hwfit__why(why, HWFIT_EPARSE, "text", REDUNDANCY_FORMS);
            s++;
            if (!read_count(&s, &m) || *s != '\0')
                return hwfit__why(why, HWFIT_EPARSE, "text", REDUNDANCY_FORMS);
            if (a + m != psus)
                return hwfit__why(why, HWFIT_EDOM, "text",
                                  "(A+B) must add up to the PSUs installed");
        }
    }
    if (m >= psus) return hwfit__why(why, HWFIT_EDOM, "text", NO_PSU_LEFT);
    *redundant = m;
    return HWFIT_OK;
}

hwfit_status hwfit_psu_redundancy_parse(const char *text, uint64_t psus, uint64_t *redundant) {
    if (text == NULL || redundant == NULL) return HWFIT_EINVAL;
    return redundancy(text, psus, redundant, NULL);
}

hwfit_status hwfit_psu_redundancy_validate(const char *text, uint64_t psus,
                                           hwfit_problem *problem) {
    hwfit_problem_clear(problem);
    if (text == NULL) return hwfit__why(problem, HWFIT_EINVAL, "text", HWFIT__NULL);
    uint64_t scratch;
    return redundancy(text, psus, &scratch, problem);
}

/* ---- PSUs ----------------------------------------------------------------------------------- */

#define LOW_LINE_BELOW_V 180.0 /* CRPS-style supplies: low line 90-140 V, high line 180-264 V */
#define MAX_W 1e9

void hwfit_psu_init(hwfit_psu_in *in) {
    if (in == NULL) return;
    memset(in, 0, sizeof *in);
    in->psus = 0;
    in->redundant = 1;
    in->psu_rating_w = 0.0;
    in->psu_low_line_rating_w = HWFIT_POWER_UNSET;
    in->input_voltage_v = 230.0;
    in->load_w = 0.0;
    in->peak_load_w = HWFIT_POWER_UNSET;
    in->headroom_ratio = 1.3;
    in->peak_ratio = 1.0;
    in->psu_class = HWFIT_POWER_CLASS_TITANIUM;
    in->table = HWFIT_POWER_TABLE_AUTO;
    in->fixed_efficiency = 0.9;
    in->cold_redundancy = 0;
}

static hwfit_status psu(const hwfit_psu_in *in, hwfit_psu_out *out, hwfit_problem *why) {
    if ((unsigned)in->psu_class >= CLASS_COUNT)
        return hwfit__why(why, HWFIT_EINVAL, "psu_class", HWFIT__ENUM);
    if ((unsigned)in->table >= TABLE_COUNT)
        return hwfit__why(why, HWFIT_EINVAL, "table", HWFIT__ENUM);
    if (in->psus < 1u || in->psus > 10000u)
        return hwfit__why(why, HWFIT_EDOM, "psus", "must be a count in [1, 10000]");
    if (in->redundant >= in->psus) return hwfit__why(why, HWFIT_EDOM, "redundant", NO_PSU_LEFT);
    NEED_POSITIVE(why, in->psu_rating_w, MAX_W, "psu_rating_w",
                  "must be a number of watts in (0, 1e9]");
    NEED_RANGE(why, in->psu_low_line_rating_w, 0.0, MAX_W, "psu_low_line_rating_w",
               "must be a number of watts in [0, 1e9] (0 = unset)");
    NEED_RANGE(why, in->input_voltage_v, 90.0, 300.0, "input_voltage_v",
               "must be a number of volts in [90, 300]");
    NEED_POSITIVE(why, in->load_w, MAX_W, "load_w", "must be a number of watts in (0, 1e9]");
    NEED_RANGE(why, in->peak_load_w, 0.0, MAX_W, "peak_load_w",
               "must be a number of watts in [0, 1e9] (0 = unset)");
    NEED_RANGE(why, in->headroom_ratio, 1.0, 10.0, "headroom_ratio", "must be a number in [1, 10]");
    NEED_RANGE(why, in->peak_ratio, 1.0, 10.0, "peak_ratio", "must be a number in [1, 10]");
    NEED_POSITIVE(why, in->fixed_efficiency, 1.0, "fixed_efficiency",
                  "must be a number in (0, 1]");
    hwfit_psu_out r;
    memset(&r, 0, sizeof r);
    int low_line = in->input_voltage_v < LOW_LINE_BELOW_V;
    r.rating_w = in->psu_rating_w;
    if (low_line) {
        if (in->psu_low_line_rating_w <= 0.0)
            return hwfit__why(why, HWFIT_EUNSUPPORTED, "psu_low_line_rating_w",
                              "must be given for an input below 180 V");
        r.rating_w = in->psu_low_line_rating_w;
    }
    r.table = in->table;
    if (r.table == HWFIT_POWER_TABLE_AUTO)
        r.table = low_line ? HWFIT_POWER_TABLE_115V_INTERNAL : HWFIT_POWER_TABLE_230V_REDUNDANT;

    /* N+M: the load may rely on N = installed - redundant supplies. */
    r.psus = in->psus;
    r.active_psus = in->psus - in->redundant;
    r.sharing_psus = in->cold_redundancy ? r.active_psus : in->psus;
    r.installed_w = (double)in->psus * r.rating_w;
    r.usable_w = (double)r.active_psus * r.rating_w;
    r.load_w = in->load_w;
    r.peak_load_w = fmax(in->peak_load_w, in->load_w);
    r.required_w = in->headroom_ratio * in->load_w;
    r.headroom_w = r.usable_w - in->load_w;
    r.usable_to_load = r.usable_w / in->load_w;
    /* Current sharing splits the load evenly over the supplies that carry it. */
    r.psu_load_w = in->load_w / (double)r.sharing_psus;
    r.psu_load_fraction = r.psu_load_w / r.rating_w;
    r.failover_load_fraction = in->load_w / r.usable_w;

    int outside = 0, outside_failover = 0;
    if (in->psu_class == HWFIT_POWER_CLASS_NONE) {
        r.efficiency = r.failover_efficiency = in->fixed_efficiency;
    } else {
        r.efficiency = curve_efficiency(in->psu_class, r.table, r.psu_load_fraction, &outside);
        r.failover_efficiency =
            curve_efficiency(in->psu_class, r.table, r.failover_load_fraction, &outside_failover);
        if (r.efficiency <= 0.0)
            return hwfit__why(why, HWFIT_EUNSUPPORTED, "psu_class",
                              "has no 80 PLUS curve in this table (base 80 PLUS at 230 V "
                              "redundant)");
    }
    /* AC input = DC output / efficiency; the difference is heat in the PSUs. */
    r.wall_w = in->load_w / r.efficiency;
    r.loss_w = r.wall_w - in->load_w;
    r.failover_wall_w = in->load_w / r.failover_efficiency;
    r.meets_load = r.usable_w >= in->load_w;
    r.meets_headroom = r.usable_w >= r.required_w;
    r.meets_peak = r.usable_w * in->peak_ratio >= r.peak_load_w;
    r.overloaded = r.psu_load_fraction > 1.0;
    r.efficiency_extrapolated = outside || outside_failover;
    const double results[] = {r.usable_to_load, r.psu_load_w, r.psu_load_fraction,
                              r.failover_load_fraction, r.wall_w, r.loss_w, r.failover_wall_w};
    if (!hwfit__all_finite(results, sizeof results / sizeof results[0]))
        return hwfit__why(why, HWFIT_ERANGE, "load_w", "or a rating or efficiency " HWFIT__OVERFLOW);
    *out = r;
    return HWFIT_OK;
}

hwfit_status hwfit_psu_evaluate(const hwfit_psu_in *in, hwfit_psu_out *out) {
    if (in == NULL || out == NULL) return HWFIT_EINVAL;
    return psu(in, out, NULL);
}

hwfit_status hwfit_psu_validate(const hwfit_psu_in *in, hwfit_problem *problem) {
    hwfit_problem_clear(problem);
    if (in == NULL) return hwfit__why(problem, HWFIT_EINVAL, "in", HWFIT__NULL);
    hwfit_psu_out scratch;
    return psu(in, &scratch, problem);
}

/* ---- thermal ------------------------------------------------------------------------------- */

static const char *const cooling_names[] = {"air-ok", "air-marginal", "liquid-recommended"};

const char *hwfit_cooling_name(hwfit_cooling cooling) {
    unsigned i = (unsigned)cooling;
    return i < 3u ? cooling_names[i] : "unknown";
}

void hwfit_thermal_init(hwfit_thermal_in *in) {
    if (in == NULL) return;
    memset(in, 0, sizeof *in);
    in->heat_w = 0.0;
    in->delta_t_c = 15.0;
    in->air_density_kg_per_m3 = 1.2;
    in->air_heat_capacity_j_per_kg_k = 1005.0;
    in->chassis_per_rack = 1;
    in->air_marginal_above_w = 5000.0;
    in->liquid_above_w = 20000.0;
}

#define BTU_PER_H_PER_TON 12000.0 /* refrigeration ton: 12,000 BTU/h */

static hwfit_status thermal(const hwfit_thermal_in *in, hwfit_thermal_out *out,
                            hwfit_problem *why) {
    NEED_RANGE(why, in->heat_w, 0.0, MAX_W, "heat_w", "must be a number of watts in [0, 1e9]");
    NEED_POSITIVE(why, in->delta_t_c, 100.0, "delta_t_c", "must be a number of kelvins in (0, 100]");
    NEED_POSITIVE(why, in->air_density_kg_per_m3, 5.0, "air_density_kg_per_m3",
                  "must be a number in (0, 5]");
    NEED_POSITIVE(why, in->air_heat_capacity_j_per_kg_k, 1e4, "air_heat_capacity_j_per_kg_k",
                  "must be a number in (0, 1e4]");
    if (in->chassis_per_rack < 1u || in->chassis_per_rack > 1000u)
        return hwfit__why(why, HWFIT_EDOM, "chassis_per_rack", "must be a count in [1, 1000]");
    NEED_POSITIVE(why, in->air_marginal_above_w, MAX_W, "air_marginal_above_w",
                  "must be a number of watts in (0, 1e9]");
    NEED_POSITIVE(why, in->liquid_above_w, MAX_W, "liquid_above_w",
                  "must be a number of watts in (0, 1e9]");
    if (in->liquid_above_w < in->air_marginal_above_w)
        return hwfit__why(why, HWFIT_EDOM, "liquid_above_w",
                          "must be at least the air-marginal threshold");
    hwfit_thermal_out r;
    memset(&r, 0, sizeof r);
    r.heat_w = in->heat_w;
    r.heat_btu_per_h = in->heat_w * HWFIT_BTU_PER_H_PER_W;
    r.cooling_tons = r.heat_btu_per_h / BTU_PER_H_PER_TON;
    /* Sensible heat: Q = rho x cp x V x dT, so V = Q / (rho x cp x dT). */
    r.airflow_m3_per_s =
        in->heat_w / (in->air_density_kg_per_m3 * in->air_heat_capacity_j_per_kg_k * in->delta_t_c);
    r.airflow_m3_per_h = r.airflow_m3_per_s * HWFIT_SECONDS_PER_HOUR;
    r.airflow_cfm = r.airflow_m3_per_s / HWFIT_M3_PER_S_PER_CFM;
    r.rack_heat_w = in->heat_w * (double)in->chassis_per_rack;
    if (!hwfit__finite(r.airflow_m3_per_h) || !hwfit__finite(r.airflow_cfm))
        return hwfit__why(why, HWFIT_ERANGE, "air_density_kg_per_m3",
                          "x air_heat_capacity_j_per_kg_k x delta_t_c " HWFIT__OVERFLOW);
    r.cooling = r.rack_heat_w > in->liquid_above_w         ? HWFIT_POWER_COOLING_LIQUID_RECOMMENDED
                : r.rack_heat_w > in->air_marginal_above_w ? HWFIT_POWER_COOLING_AIR_MARGINAL
                                                           : HWFIT_POWER_COOLING_AIR_OK;
    *out = r;
    return HWFIT_OK;
}

hwfit_status hwfit_thermal_evaluate(const hwfit_thermal_in *in, hwfit_thermal_out *out) {
    if (in == NULL || out == NULL) return HWFIT_EINVAL;
    return thermal(in, out, NULL);
}

hwfit_status hwfit_thermal_validate(const hwfit_thermal_in *in, hwfit_problem *problem) {
    hwfit_problem_clear(problem);
    if (in == NULL) return hwfit__why(problem, HWFIT_EINVAL, "in", HWFIT__NULL);
    hwfit_thermal_out scratch;
    return thermal(in, &scratch, problem);
}

/* ---- energy and TCO -------------------------------------------------------------------------- */

hwfit_status hwfit_price_per_kwh_parse(const char *text, double *price_per_kwh) {
    if (text == NULL || price_per_kwh == NULL) return HWFIT_EINVAL;
    char buf[64];
    if (!squeeze(text, buf, sizeof buf)) return HWFIT_EPARSE;
    double per = 1.0; /* price per given unit -> per kWh */
    char *slash = strchr(buf, '/');
    if (slash != NULL) {
        const char *u = slash + 1;
        if (strcmp(u, "kwh") == 0) per = 1.0;
        else if (strcmp(u, "mwh") == 0) per = 1e-3;
        else if (strcmp(u, "wh") == 0) per = 1e3;
        else return HWFIT_EPARSE;
        *slash = '\0';
    }
    if (strchr(buf, '%') != NULL) return HWFIT_EPARSE;
    double v;
    hwfit_status st = hwfit_units_parse(buf, HWFIT_UNIT_NONE, &v);
    if (st != HWFIT_OK) return st;
    v *= per;
    if (!hwfit__finite(v)) return HWFIT_ERANGE;
    *price_per_kwh = v;
    return HWFIT_OK;
}

#define MAX_MONEY 1e15

void hwfit_energy_init(hwfit_energy_in *in) {
    if (in == NULL) return;
    memset(in, 0, sizeof *in);
    in->power_w = 0.0;
    in->idle_power_w = 0.0;
    in->duty_cycle = 1.0;
    in->pue = 1.0;
    in->price_per_kwh = 0.18;
    in->hours_per_year = HWFIT_HOURS_PER_YEAR;
}

static hwfit_status energy(const hwfit_energy_in *in, hwfit_energy_out *out,
                           hwfit_problem *why) {
    NEED_RANGE(why, in->power_w, 0.0, MAX_W, "power_w", "must be a number of watts in [0, 1e9]");
    NEED_RANGE(why, in->idle_power_w, 0.0, MAX_W, "idle_power_w",
               "must be a number of watts in [0, 1e9]");
    NEED_RANGE(why, in->duty_cycle, 0.0, 1.0, "duty_cycle", "must be a number in [0, 1]");
    NEED_RANGE(why, in->pue, 1.0, 10.0, "pue", "must be a number in [1, 10]");
    NEED_RANGE(why, in->price_per_kwh, 0.0, 1e6, "price_per_kwh", "must be a number in [0, 1e6]");
    NEED_POSITIVE(why, in->hours_per_year, 8784.0, "hours_per_year",
                  "must be a number of hours in (0, 8784]");
    hwfit_energy_out r;
    memset(&r, 0, sizeof r);
    /* Linear duty model: P_avg = d x P + (1 - d) x P_idle; E = P_avg x h; facility x PUE. */
    r.average_power_w = in->duty_cycle * in->power_w + (1.0 - in->duty_cycle) * in->idle_power_w;
    r.facility_power_w = r.average_power_w * in->pue;
    r.it_energy_kwh = r.average_power_w * in->hours_per_year / HWFIT_KILO;
    r.annual_energy_kwh = r.it_energy_kwh * in->pue;
    r.annual_cost = r.annual_energy_kwh * in->price_per_kwh;
    /* annual_cost / hours = average x PUE x price / 1000 <= 1e13: finite, however few the
     * hours (their product with the power underflows before the quotient could overflow). */
    r.cost_per_hour = r.annual_cost / in->hours_per_year;
    *out = r;
    return HWFIT_OK;
}

hwfit_status hwfit_energy_evaluate(const hwfit_energy_in *in, hwfit_energy_out *out) {
    if (in == NULL || out == NULL) return HWFIT_EINVAL;
    return energy(in, out, NULL);
}

hwfit_status hwfit_energy_validate(const hwfit_energy_in *in, hwfit_problem *problem) {
    hwfit_problem_clear(problem);
    if (in == NULL) return hwfit__why(problem, HWFIT_EINVAL, "in", HWFIT__NULL);
    hwfit_energy_out scratch;
    return energy(in, &scratch, problem);
}

void hwfit_tco_init(hwfit_tco_in *in) {
    if (in == NULL) return;
    memset(in, 0, sizeof *in);
    in->years = 5;
    in->discount_rate = 0.0;
    in->gpus = 1;
    in->utilization = 1.0;
}

static hwfit_status tco(const hwfit_tco_in *in, hwfit_tco_out *out, hwfit_problem *why) {
    NEED_RANGE(why, in->capex, 0.0, MAX_MONEY, "capex", "must be a number in [0, 1e15]");
    NEED_RANGE(why, in->annual_energy_cost, 0.0, MAX_MONEY, "annual_energy_cost",
               "must be a number in [0, 1e15]");
    NEED_RANGE(why, in->annual_other_cost, 0.0, MAX_MONEY, "annual_other_cost",
               "must be a number in [0, 1e15]");
    if (in->years < 1u || in->years > 100u)
        return hwfit__why(why, HWFIT_EDOM, "years", "must be a count in [1, 100]");
    NEED_RANGE(why, in->discount_rate, 0.0, 1.0, "discount_rate", "must be a number in [0, 1]");
    if (in->gpus < 1u || in->gpus > MAX_COUNT)
        return hwfit__why(why, HWFIT_EDOM, "gpus", "must be a count in [1, 1000000]");
    NEED_POSITIVE(why, in->utilization, 1.0, "utilization", "must be a number in (0, 1]");
    hwfit_tco_out r;
    memset(&r, 0, sizeof r);
    /* TCO = capex + sum_{y=1..n} (energy + other) / (1 + r)^y. */
    double yearly = in->annual_energy_cost + in->annual_other_cost, factor = 1.0;
    for (uint64_t y = 1; y <= in->years; y++) {
        factor /= 1.0 + in->discount_rate;
        r.opex += yearly * factor;
    }
    r.tco = in->capex + r.opex;
    double years = (double)in->years, hours = years * HWFIT_HOURS_PER_YEAR;
    r.cost_per_year = r.tco / years;
    r.cost_per_hour = r.tco / hours;
    r.cost_per_gpu_hour = r.tco / (hours * (double)in->gpus * in->utilization);
    if (!hwfit__finite(r.cost_per_gpu_hour))
        return hwfit__why(why, HWFIT_ERANGE, "utilization", HWFIT__OVERFLOW);
    *out = r;
    return HWFIT_OK;
}

hwfit_status hwfit_tco_evaluate(const hwfit_tco_in *in, hwfit_tco_out *out) {
    if (in == NULL || out == NULL) return HWFIT_EINVAL;
    return tco(in, out, NULL);
}

hwfit_status hwfit_tco_validate(const hwfit_tco_in *in, hwfit_problem *problem) {
    hwfit_problem_clear(problem);
    if (in == NULL) return hwfit__why(problem, HWFIT_EINVAL, "in", HWFIT__NULL);
    hwfit_tco_out scratch;
    return tco(in, &scratch, problem);
}

"""Raw ctypes layer: mirrors the C headers one to one.

Every function has argtypes and restype set, with the C prototype quoted above it.
Functions that return hwfit_status are wrapped by `check`, which raises HwfitError.
Nothing here converts units or computes: the Pythonic layer is in __init__.py.

The shared library is found, in this order, through:
1. the environment variable HWFIT_LIBRARY (a path to libhwfit.so),
2. next to this package (a libhwfit.so* copied into bindings/python/hwfit/),
3. the build trees of a source checkout (build/<preset>/),
4. the system's search path (ctypes.util.find_library("hwfit")).
"""
import ctypes
import ctypes.util
import glob
import os

c_double_p = ctypes.POINTER(ctypes.c_double)
c_uint64_p = ctypes.POINTER(ctypes.c_uint64)
c_int_p = ctypes.POINTER(ctypes.c_int)


class HwfitError(Exception):
    """A hwfit call failed. `status` is the code, `name` e.g. "HWFIT_EDOM"."""

    def __init__(self, status, name, message, detail=None):
        self.status = status
        self.name = name
        self.message = message
        self.detail = detail
        text = f"{name}: {message}"
        if detail:
            text = f"{detail}: {text}"
        super().__init__(text)


def _candidates():
    env = os.environ.get("HWFIT_LIBRARY")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    for path in sorted(glob.glob(os.path.join(here, "libhwfit.so*"))):
        yield path
    root = os.path.abspath(os.path.join(here, "..", "..", ".."))
    for preset in ("dev", "release", "asan", "coverage"):
        for path in sorted(glob.glob(os.path.join(root, "build", preset, "libhwfit.so*"))):
            yield path
    found = ctypes.util.find_library("hwfit")
    if found:
        yield found


def _load():
    tried = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path)
        except OSError as exc:
            tried.append(f"{path} ({exc})")
    raise ImportError(
        "hwfit: cannot find the shared library libhwfit.so; build it "
        "(cmake --workflow --preset dev) or set HWFIT_LIBRARY. Tried: " + "; ".join(tried))


lib = _load()


def _fn(name, restype, argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = argtypes
    return f


# ---- status.h ------------------------------------------------------------------------

HWFIT_OK = 0
HWFIT_EINVAL = 1
HWFIT_EDOM = 2
HWFIT_ERANGE = 3
HWFIT_ENOTFOUND = 4
HWFIT_EPARSE = 5
HWFIT_ENOMEM = 6
HWFIT_EIO = 7
HWFIT_EUNSUPPORTED = 8
HWFIT_EBUFSIZE = 9
HWFIT_ELAYOUT = 10

HWFIT_ERROR_MESSAGE_SIZE = 256


class hwfit_error(ctypes.Structure):
    _fields_ = [
        ("status", ctypes.c_int),
        ("line", ctypes.c_uint32),
        ("column", ctypes.c_uint32),
        ("offset", ctypes.c_size_t),
        ("message", ctypes.c_char * HWFIT_ERROR_MESSAGE_SIZE),
    ]


# const char *hwfit_status_name(hwfit_status status);
hwfit_status_name = _fn("hwfit_status_name", ctypes.c_char_p, [ctypes.c_int])
# const char *hwfit_status_str(hwfit_status status);
hwfit_status_str = _fn("hwfit_status_str", ctypes.c_char_p, [ctypes.c_int])
# void hwfit_error_clear(hwfit_error *error);
hwfit_error_clear = _fn("hwfit_error_clear", None, [ctypes.POINTER(hwfit_error)])


class hwfit_problem(ctypes.Structure):
    _fields_ = [
        ("status", ctypes.c_int),
        ("field", ctypes.c_char_p),
        ("rule", ctypes.c_char_p),
        ("index", ctypes.c_size_t),
    ]


# void hwfit_problem_clear(hwfit_problem *problem);
hwfit_problem_clear = _fn("hwfit_problem_clear", None, [ctypes.POINTER(hwfit_problem)])


def check(status, detail=None, error=None):
    """Raise HwfitError unless status is HWFIT_OK. `error` is an optional hwfit_error."""
    if status == HWFIT_OK:
        return
    name = hwfit_status_name(status).decode()
    message = hwfit_status_str(status).decode()
    if error is not None and error.message:
        message = error.message.decode("utf-8", "replace")
        if error.line:
            message = f"{error.line}:{error.column}: {message}"
    raise HwfitError(status, name, message, detail)


def check_input(status, validate, *args, names=None):
    """Raise HwfitError unless status is HWFIT_OK, naming the input at fault.

    `validate` is the calculation's _validate companion and `args` its inputs (byref):
    the error's detail reads like the CLI's message, e.g. "micro_batch must be at least 1".
    `names` maps a C field to the Python argument that sets it.
    """
    if status == HWFIT_OK:
        return
    p = hwfit_problem()
    validate(*args, ctypes.byref(p))
    field = (p.field or b"").decode()
    field = (names or {}).get(field, field)
    rule = (p.rule or b"").decode()
    detail = f"{field} {rule}".strip() if field else rule
    check(status, detail or None)


# ---- version.h -----------------------------------------------------------------------

# unsigned hwfit_version_number(void);
hwfit_version_number = _fn("hwfit_version_number", ctypes.c_uint, [])
# const char *hwfit_version_string(void);
hwfit_version_string = _fn("hwfit_version_string", ctypes.c_char_p, [])

# ---- units.h -------------------------------------------------------------------------

HWFIT_UNIT_NONE = 0
HWFIT_UNIT_BYTES = 1
HWFIT_UNIT_BYTES_PER_S = 2
HWFIT_UNIT_BITS_PER_S = 3
HWFIT_UNIT_WATTS = 4
HWFIT_UNIT_SECONDS = 5
HWFIT_UNIT_FLOP_PER_S = 6
HWFIT_UNIT_FLOP = 7

# hwfit_status hwfit_units_parse(const char *text, hwfit_unit unit, double *value);
hwfit_units_parse = _fn("hwfit_units_parse", ctypes.c_int,
                        [ctypes.c_char_p, ctypes.c_int, c_double_p])
# hwfit_status hwfit_units_format(double value, hwfit_unit unit, char *buf, size_t size);
hwfit_units_format = _fn("hwfit_units_format", ctypes.c_int,
                         [ctypes.c_double, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t])
# hwfit_status hwfit_units_format_count(uint64_t count, char *buf, size_t size);
hwfit_units_format_count = _fn("hwfit_units_format_count", ctypes.c_int,
                               [ctypes.c_uint64, ctypes.c_char_p, ctypes.c_size_t])

# ---- storage.h -----------------------------------------------------------------------

HWFIT_STORAGE_UNSET = 0
HWFIT_STORAGE_DRAID_DEFAULT_DATA = 8

# enum hwfit_raid_level
HWFIT_STORAGE_RAID0 = 0
HWFIT_STORAGE_RAID1 = 1
HWFIT_STORAGE_RAID10 = 2
HWFIT_STORAGE_RAID5 = 3
HWFIT_STORAGE_RAID6 = 4
HWFIT_STORAGE_RAID50 = 5
HWFIT_STORAGE_RAID60 = 6
HWFIT_STORAGE_RAIDZ1 = 7
HWFIT_STORAGE_RAIDZ2 = 8
HWFIT_STORAGE_RAIDZ3 = 9
HWFIT_STORAGE_DRAID1 = 10
HWFIT_STORAGE_DRAID2 = 11
HWFIT_STORAGE_DRAID3 = 12

# enum hwfit_storage_transport
HWFIT_STORAGE_TRANSPORT_LOCAL = 0
HWFIT_STORAGE_TRANSPORT_NVMEOF_ROCE = 1
HWFIT_STORAGE_TRANSPORT_NVMEOF_TCP = 2


class hwfit_raid_layout(ctypes.Structure):
    _fields_ = [
        ("level", ctypes.c_int),
        ("copies", ctypes.c_uint64),
        ("groups", ctypes.c_uint64),
        ("draid_data", ctypes.c_uint64),
        ("draid_children", ctypes.c_uint64),
        ("draid_spares", ctypes.c_uint64),
    ]


class hwfit_raid_in(ctypes.Structure):
    _fields_ = [
        ("layout", hwfit_raid_layout),
        ("drives", ctypes.c_uint64),
        ("spares", ctypes.c_uint64),
        ("drive_bytes", ctypes.c_double),
        ("record_bytes", ctypes.c_double),
        ("sector_bytes", ctypes.c_double),
        ("fill_fraction", ctypes.c_double),
        ("drive_read_bytes_per_s", ctypes.c_double),
        ("drive_write_bytes_per_s", ctypes.c_double),
        ("drive_read_iops", ctypes.c_double),
        ("drive_write_iops", ctypes.c_double),
        ("read_fraction", ctypes.c_double),
        ("rebuild_bytes_per_s", ctypes.c_double),
        ("replace_delay_s", ctypes.c_double),
        ("bit_error_rate", ctypes.c_double),
        ("drive_mttf_s", ctypes.c_double),
        ("mission_s", ctypes.c_double),
    ]


class hwfit_raid_out(ctypes.Structure):
    _fields_ = [
        ("level", ctypes.c_int),
        ("drives", ctypes.c_uint64),
        ("member_drives", ctypes.c_uint64),
        ("groups", ctypes.c_uint64),
        ("group_width", ctypes.c_uint64),
        ("parity", ctypes.c_uint64),
        ("draid_data", ctypes.c_uint64),
        ("tolerated_failures", ctypes.c_uint64),
        ("raw_bytes", ctypes.c_double),
        ("usable_bytes", ctypes.c_double),
        ("space_efficiency", ctypes.c_double),
        ("allocation_efficiency", ctypes.c_double),
        ("slop_bytes", ctypes.c_double),
        ("read_bytes_per_s", ctypes.c_double),
        ("write_bytes_per_s", ctypes.c_double),
        ("read_iops", ctypes.c_double),
        ("write_iops", ctypes.c_double),
        ("mixed_iops", ctypes.c_double),
        ("write_penalty", ctypes.c_uint64),
        ("rebuild_bytes", ctypes.c_double),
        ("rebuild_s", ctypes.c_double),
        ("rebuild_read_bytes", ctypes.c_double),
        ("ure_probability", ctypes.c_double),
        ("ure_loss_probability", ctypes.c_double),
        ("mttr_s", ctypes.c_double),
        ("mttdl_s", ctypes.c_double),
        ("mttdl_h", ctypes.c_double),
        ("loss_probability", ctypes.c_double),
        ("drive_afr", ctypes.c_double),
    ]


class hwfit_transfer_in(ctypes.Structure):
    _fields_ = [
        ("bytes", ctypes.c_double),
        ("rate_bytes_per_s", ctypes.c_double),
        ("transport", ctypes.c_int),
        ("local_efficiency", ctypes.c_double),
        ("roce_efficiency", ctypes.c_double),
        ("tcp_efficiency", ctypes.c_double),
        ("backend_bytes_per_s", ctypes.c_double),
        ("capacity_bytes", ctypes.c_double),
    ]


class hwfit_transfer_out(ctypes.Structure):
    _fields_ = [
        ("efficiency", ctypes.c_double),
        ("effective_bytes_per_s", ctypes.c_double),
        ("time_s", ctypes.c_double),
        ("backend_limited", ctypes.c_int),
        ("capacity_checked", ctypes.c_int),
        ("fits", ctypes.c_int),
        ("fill_fraction", ctypes.c_double),
    ]


# hwfit_status hwfit_raid_level_parse(const char *text, hwfit_raid_layout *layout);
hwfit_raid_level_parse = _fn("hwfit_raid_level_parse", ctypes.c_int,
                             [ctypes.c_char_p, ctypes.POINTER(hwfit_raid_layout)])
# const char *hwfit_raid_level_name(hwfit_raid_level level);
hwfit_raid_level_name = _fn("hwfit_raid_level_name", ctypes.c_char_p, [ctypes.c_int])
# hwfit_status hwfit_raid_min_drives(const hwfit_raid_layout *layout, uint64_t *drives);
hwfit_raid_min_drives = _fn("hwfit_raid_min_drives", ctypes.c_int,
                            [ctypes.POINTER(hwfit_raid_layout), c_uint64_p])
# void hwfit_raid_init(hwfit_raid_in *in);
hwfit_raid_init = _fn("hwfit_raid_init", None, [ctypes.POINTER(hwfit_raid_in)])
# hwfit_status hwfit_raid_evaluate(const hwfit_raid_in *in, hwfit_raid_out *out);
hwfit_raid_evaluate = _fn("hwfit_raid_evaluate", ctypes.c_int,
                          [ctypes.POINTER(hwfit_raid_in), ctypes.POINTER(hwfit_raid_out)])
# hwfit_status hwfit_raid_validate(const hwfit_raid_in *in, hwfit_problem *problem);
hwfit_raid_validate = _fn("hwfit_raid_validate", ctypes.c_int,
                           [ctypes.POINTER(hwfit_raid_in), ctypes.POINTER(hwfit_problem)])
# hwfit_status hwfit_storage_transport_parse(const char *text, hwfit_storage_transport *transport);
hwfit_storage_transport_parse = _fn("hwfit_storage_transport_parse", ctypes.c_int,
                                    [ctypes.c_char_p, c_int_p])
# const char *hwfit_storage_transport_name(hwfit_storage_transport transport);
hwfit_storage_transport_name = _fn("hwfit_storage_transport_name", ctypes.c_char_p,
                                   [ctypes.c_int])
# void hwfit_transfer_init(hwfit_transfer_in *in);
hwfit_transfer_init = _fn("hwfit_transfer_init", None, [ctypes.POINTER(hwfit_transfer_in)])
# hwfit_status hwfit_transfer_estimate(const hwfit_transfer_in *in, hwfit_transfer_out *out);
hwfit_transfer_estimate = _fn("hwfit_transfer_estimate", ctypes.c_int,
                              [ctypes.POINTER(hwfit_transfer_in),
                               ctypes.POINTER(hwfit_transfer_out)])
# hwfit_status hwfit_transfer_validate(const hwfit_transfer_in *in, hwfit_problem *problem);
hwfit_transfer_validate = _fn("hwfit_transfer_validate", ctypes.c_int,
                               [ctypes.POINTER(hwfit_transfer_in), ctypes.POINTER(hwfit_problem)])

# ---- power.h -------------------------------------------------------------------------

HWFIT_POWER_UNSET = 0
HWFIT_POWER_MAX_COMPONENTS = 32
HWFIT_POWER_COMPONENT_KINDS = 9

# enum hwfit_power_component_kind
HWFIT_POWER_COMPONENT_GPU = 0
HWFIT_POWER_COMPONENT_CPU = 1
HWFIT_POWER_COMPONENT_DIMM = 2
HWFIT_POWER_COMPONENT_DRIVE = 3
HWFIT_POWER_COMPONENT_NIC = 4
HWFIT_POWER_COMPONENT_FAN = 5
HWFIT_POWER_COMPONENT_SWITCH = 6
HWFIT_POWER_COMPONENT_BOARD = 7
HWFIT_POWER_COMPONENT_OTHER = 8

# enum hwfit_psu_class
HWFIT_POWER_CLASS_NONE = 0
HWFIT_POWER_CLASS_BASE = 1
HWFIT_POWER_CLASS_BRONZE = 2
HWFIT_POWER_CLASS_SILVER = 3
HWFIT_POWER_CLASS_GOLD = 4
HWFIT_POWER_CLASS_PLATINUM = 5
HWFIT_POWER_CLASS_TITANIUM = 6

# enum hwfit_psu_table
HWFIT_POWER_TABLE_AUTO = 0
HWFIT_POWER_TABLE_115V_INTERNAL = 1
HWFIT_POWER_TABLE_230V_REDUNDANT = 2
HWFIT_POWER_TABLE_230V_EU_INTERNAL = 3

# enum hwfit_cooling
HWFIT_POWER_COOLING_AIR_OK = 0
HWFIT_POWER_COOLING_AIR_MARGINAL = 1
HWFIT_POWER_COOLING_LIQUID_RECOMMENDED = 2


class hwfit_power_component(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_int),
        ("count", ctypes.c_uint64),
        ("watts", ctypes.c_double),
    ]


class hwfit_power_budget_in(ctypes.Structure):
    _fields_ = [
        ("components", hwfit_power_component * HWFIT_POWER_MAX_COMPONENTS),
        ("component_count", ctypes.c_uint64),
        ("gpu_transient_factor", ctypes.c_double),
    ]


class hwfit_power_budget_out(ctypes.Structure):
    _fields_ = [
        ("kind_w", ctypes.c_double * HWFIT_POWER_COMPONENT_KINDS),
        ("kind_count", ctypes.c_uint64 * HWFIT_POWER_COMPONENT_KINDS),
        ("gpus", ctypes.c_uint64),
        ("dc_w", ctypes.c_double),
        ("peak_dc_w", ctypes.c_double),
    ]


class hwfit_psu_in(ctypes.Structure):
    _fields_ = [
        ("psus", ctypes.c_uint64),
        ("redundant", ctypes.c_uint64),
        ("psu_rating_w", ctypes.c_double),
        ("psu_low_line_rating_w", ctypes.c_double),
        ("input_voltage_v", ctypes.c_double),
        ("load_w", ctypes.c_double),
        ("peak_load_w", ctypes.c_double),
        ("headroom_ratio", ctypes.c_double),
        ("peak_ratio", ctypes.c_double),
        ("psu_class", ctypes.c_int),
        ("table", ctypes.c_int),
        ("fixed_efficiency", ctypes.c_double),
        ("cold_redundancy", ctypes.c_int),
    ]


class hwfit_psu_out(ctypes.Structure):
    _fields_ = [
        ("psus", ctypes.c_uint64),
        ("active_psus", ctypes.c_uint64),
        ("sharing_psus", ctypes.c_uint64),
        ("table", ctypes.c_int),
        ("rating_w", ctypes.c_double),
        ("installed_w", ctypes.c_double),
        ("usable_w", ctypes.c_double),
        ("load_w", ctypes.c_double),
        ("peak_load_w", ctypes.c_double),
        ("required_w", ctypes.c_double),
        ("headroom_w", ctypes.c_double),
        ("usable_to_load", ctypes.c_double),
        ("psu_load_w", ctypes.c_double),
        ("psu_load_fraction", ctypes.c_double),
        ("failover_load_fraction", ctypes.c_double),
        ("efficiency", ctypes.c_double),
        ("wall_w", ctypes.c_double),
        ("loss_w", ctypes.c_double),
        ("failover_efficiency", ctypes.c_double),
        ("failover_wall_w", ctypes.c_double),
        ("meets_load", ctypes.c_int),
        ("meets_headroom", ctypes.c_int),
        ("meets_peak", ctypes.c_int),
        ("overloaded", ctypes.c_int),
        ("efficiency_extrapolated", ctypes.c_int),
    ]


class hwfit_thermal_in(ctypes.Structure):
    _fields_ = [
        ("heat_w", ctypes.c_double),
        ("delta_t_c", ctypes.c_double),
        ("air_density_kg_per_m3", ctypes.c_double),
        ("air_heat_capacity_j_per_kg_k", ctypes.c_double),
        ("chassis_per_rack", ctypes.c_uint64),
        ("air_marginal_above_w", ctypes.c_double),
        ("liquid_above_w", ctypes.c_double),
    ]


class hwfit_thermal_out(ctypes.Structure):
    _fields_ = [
        ("heat_w", ctypes.c_double),
        ("heat_btu_per_h", ctypes.c_double),
        ("cooling_tons", ctypes.c_double),
        ("airflow_m3_per_s", ctypes.c_double),
        ("airflow_m3_per_h", ctypes.c_double),
        ("airflow_cfm", ctypes.c_double),
        ("rack_heat_w", ctypes.c_double),
        ("cooling", ctypes.c_int),
    ]


class hwfit_energy_in(ctypes.Structure):
    _fields_ = [
        ("power_w", ctypes.c_double),
        ("idle_power_w", ctypes.c_double),
        ("duty_cycle", ctypes.c_double),
        ("pue", ctypes.c_double),
        ("price_per_kwh", ctypes.c_double),
        ("hours_per_year", ctypes.c_double),
    ]


class hwfit_energy_out(ctypes.Structure):
    _fields_ = [
        ("average_power_w", ctypes.c_double),
        ("facility_power_w", ctypes.c_double),
        ("it_energy_kwh", ctypes.c_double),
        ("annual_energy_kwh", ctypes.c_double),
        ("annual_cost", ctypes.c_double),
        ("cost_per_hour", ctypes.c_double),
    ]


class hwfit_tco_in(ctypes.Structure):
    _fields_ = [
        ("capex", ctypes.c_double),
        ("annual_energy_cost", ctypes.c_double),
        ("annual_other_cost", ctypes.c_double),
        ("years", ctypes.c_uint64),
        ("discount_rate", ctypes.c_double),
        ("gpus", ctypes.c_uint64),
        ("utilization", ctypes.c_double),
    ]


class hwfit_tco_out(ctypes.Structure):
    _fields_ = [
        ("opex", ctypes.c_double),
        ("tco", ctypes.c_double),
        ("cost_per_year", ctypes.c_double),
        ("cost_per_hour", ctypes.c_double),
        ("cost_per_gpu_hour", ctypes.c_double),
    ]


# hwfit_status hwfit_power_component_kind_parse(const char *text, hwfit_power_component_kind *kind);
hwfit_power_component_kind_parse = _fn("hwfit_power_component_kind_parse", ctypes.c_int,
                                       [ctypes.c_char_p, c_int_p])
# const char *hwfit_power_component_kind_name(hwfit_power_component_kind kind);
hwfit_power_component_kind_name = _fn("hwfit_power_component_kind_name", ctypes.c_char_p,
                                      [ctypes.c_int])
# hwfit_status hwfit_power_component_parse(const char *text, hwfit_power_component *component);
hwfit_power_component_parse = _fn("hwfit_power_component_parse", ctypes.c_int,
                                  [ctypes.c_char_p, ctypes.POINTER(hwfit_power_component)])
# void hwfit_power_budget_init(hwfit_power_budget_in *in);
hwfit_power_budget_init = _fn("hwfit_power_budget_init", None,
                              [ctypes.POINTER(hwfit_power_budget_in)])
# hwfit_status hwfit_power_budget_add(hwfit_power_budget_in *in, hwfit_power_component_kind kind,
#                                     uint64_t count, double watts);
hwfit_power_budget_add = _fn("hwfit_power_budget_add", ctypes.c_int,
                             [ctypes.POINTER(hwfit_power_budget_in), ctypes.c_int,
                              ctypes.c_uint64, ctypes.c_double])
# hwfit_status hwfit_power_budget_evaluate(const hwfit_power_budget_in *in,
#                                          hwfit_power_budget_out *out);
hwfit_power_budget_evaluate = _fn("hwfit_power_budget_evaluate", ctypes.c_int,
                                  [ctypes.POINTER(hwfit_power_budget_in),
                                   ctypes.POINTER(hwfit_power_budget_out)])
# hwfit_status hwfit_power_budget_validate(const hwfit_power_budget_in *in, hwfit_problem *problem);
hwfit_power_budget_validate = _fn("hwfit_power_budget_validate", ctypes.c_int,
                                   [ctypes.POINTER(hwfit_power_budget_in), ctypes.POINTER(hwfit_problem)])
# hwfit_status hwfit_psu_class_parse(const char *text, hwfit_psu_class *cls);
hwfit_psu_class_parse = _fn("hwfit_psu_class_parse", ctypes.c_int, [ctypes.c_char_p, c_int_p])
# const char *hwfit_psu_class_name(hwfit_psu_class cls);
hwfit_psu_class_name = _fn("hwfit_psu_class_name", ctypes.c_char_p, [ctypes.c_int])
# hwfit_status hwfit_psu_table_parse(const char *text, hwfit_psu_table *table);
hwfit_psu_table_parse = _fn("hwfit_psu_table_parse", ctypes.c_int, [ctypes.c_char_p, c_int_p])
# const char *hwfit_psu_table_name(hwfit_psu_table table);
hwfit_psu_table_name = _fn("hwfit_psu_table_name", ctypes.c_char_p, [ctypes.c_int])
# hwfit_status hwfit_psu_efficiency(hwfit_psu_class cls, hwfit_psu_table table,
#                                   double load_fraction, double *efficiency);
hwfit_psu_efficiency = _fn("hwfit_psu_efficiency", ctypes.c_int,
                           [ctypes.c_int, ctypes.c_int, ctypes.c_double, c_double_p])
# hwfit_status hwfit_psu_redundancy_parse(const char *text, uint64_t psus, uint64_t *redundant);
hwfit_psu_redundancy_parse = _fn("hwfit_psu_redundancy_parse", ctypes.c_int,
                                 [ctypes.c_char_p, ctypes.c_uint64, c_uint64_p])
# hwfit_status hwfit_psu_redundancy_validate(const char *text, uint64_t psus, hwfit_problem *problem);
hwfit_psu_redundancy_validate = _fn("hwfit_psu_redundancy_validate", ctypes.c_int,
                                     [ctypes.c_char_p, ctypes.c_uint64, ctypes.POINTER(hwfit_problem)])
# void hwfit_psu_init(hwfit_psu_in *in);
hwfit_psu_init = _fn("hwfit_psu_init", None, [ctypes.POINTER(hwfit_psu_in)])
# hwfit_status hwfit_psu_evaluate(const hwfit_psu_in *in, hwfit_psu_out *out);
hwfit_psu_evaluate = _fn("hwfit_psu_evaluate", ctypes.c_int,
                         [ctypes.POINTER(hwfit_psu_in), ctypes.POINTER(hwfit_psu_out)])
# hwfit_status hwfit_psu_validate(const hwfit_psu_in *in, hwfit_problem *problem);
hwfit_psu_validate = _fn("hwfit_psu_validate", ctypes.c_int,
                          [ctypes.POINTER(hwfit_psu_in), ctypes.POINTER(hwfit_problem)])
# const char *hwfit_cooling_name(hwfit_cooling cooling);
hwfit_cooling_name = _fn("hwfit_cooling_name", ctypes.c_char_p, [ctypes.c_int])
# void hwfit_thermal_init(hwfit_thermal_in *in);
hwfit_thermal_init = _fn("hwfit_thermal_init", None, [ctypes.POINTER(hwfit_thermal_in)])
# hwfit_status hwfit_thermal_evaluate(const hwfit_thermal_in *in, hwfit_thermal_out *out);
hwfit_thermal_evaluate = _fn("hwfit_thermal_evaluate", ctypes.c_int,
                             [ctypes.POINTER(hwfit_thermal_in),
                              ctypes.POINTER(hwfit_thermal_out)])
# hwfit_status hwfit_thermal_validate(const hwfit_thermal_in *in, hwfit_problem *problem);
hwfit_thermal_validate = _fn("hwfit_thermal_validate", ctypes.c_int,
                              [ctypes.POINTER(hwfit_thermal_in), ctypes.POINTER(hwfit_problem)])
# hwfit_status hwfit_price_per_kwh_parse(const char *text, double *price_per_kwh);
hwfit_price_per_kwh_parse = _fn("hwfit_price_per_kwh_parse", ctypes.c_int,
                                [ctypes.c_char_p, c_double_p])
# void hwfit_energy_init(hwfit_energy_in *in);
hwfit_energy_init = _fn("hwfit_energy_init", None, [ctypes.POINTER(hwfit_energy_in)])
# hwfit_status hwfit_energy_evaluate(const hwfit_energy_in *in, hwfit_energy_out *out);
hwfit_energy_evaluate = _fn("hwfit_energy_evaluate", ctypes.c_int,
                            [ctypes.POINTER(hwfit_energy_in), ctypes.POINTER(hwfit_energy_out)])
# hwfit_status hwfit_energy_validate(const hwfit_energy_in *in, hwfit_problem *problem);
hwfit_energy_validate = _fn("hwfit_energy_validate", ctypes.c_int,
                             [ctypes.POINTER(hwfit_energy_in), ctypes.POINTER(hwfit_problem)])
# void hwfit_tco_init(hwfit_tco_in *in);
hwfit_tco_init = _fn("hwfit_tco_init", None, [ctypes.POINTER(hwfit_tco_in)])
# hwfit_status hwfit_tco_evaluate(const hwfit_tco_in *in, hwfit_tco_out *out);
hwfit_tco_evaluate = _fn("hwfit_tco_evaluate", ctypes.c_int,
                         [ctypes.POINTER(hwfit_tco_in), ctypes.POINTER(hwfit_tco_out)])
# hwfit_status hwfit_tco_validate(const hwfit_tco_in *in, hwfit_problem *problem);
hwfit_tco_validate = _fn("hwfit_tco_validate", ctypes.c_int,
                          [ctypes.POINTER(hwfit_tco_in), ctypes.POINTER(hwfit_problem)])

# ---- host.h --------------------------------------------------------------------------

HWFIT_HOST_UNSET = 0


class hwfit_host_in(ctypes.Structure):
    _fields_ = [
        ("sockets", ctypes.c_uint64),
        ("cores", ctypes.c_uint64),
        ("gpus", ctypes.c_uint64),
        ("cores_per_gpu_rule", ctypes.c_double),
        ("ram_bytes", ctypes.c_double),
        ("vram_bytes", ctypes.c_double),
        ("ram_to_vram_rule", ctypes.c_double),
        ("channels_per_socket", ctypes.c_uint64),
        ("dimms", ctypes.c_uint64),
        ("speed_mts", ctypes.c_double),
        ("speed_2dpc_mts", ctypes.c_double),
        ("max_dimms_per_channel", ctypes.c_uint64),
        ("channel_width_bytes", ctypes.c_uint64),
        ("lanes_per_socket", ctypes.c_uint64),
        ("socket_links", ctypes.c_uint64),
        ("socket_link_lanes", ctypes.c_uint64),
        ("gpu_lanes", ctypes.c_uint64),
        ("gpu_bifurcated_lanes", ctypes.c_uint64),
        ("nvme", ctypes.c_uint64),
        ("nvme_lanes", ctypes.c_uint64),
        ("nics", ctypes.c_uint64),
        ("nic_lanes", ctypes.c_uint64),
        ("other_lanes", ctypes.c_uint64),
        ("switches", ctypes.c_uint64),
        ("switch_upstream_lanes", ctypes.c_uint64),
        ("switch_downstream_lanes", ctypes.c_uint64),
        ("switch_gpus", ctypes.c_int),
        ("switch_nvme", ctypes.c_int),
        ("switch_nics", ctypes.c_int),
    ]


class hwfit_host_out(ctypes.Structure):
    _fields_ = [
        ("cores_evaluated", ctypes.c_int),
        ("cores_per_gpu", ctypes.c_double),
        ("cores_needed", ctypes.c_double),
        ("meets_cores_rule", ctypes.c_int),
        ("ram_evaluated", ctypes.c_int),
        ("ram_to_vram", ctypes.c_double),
        ("ram_needed_bytes", ctypes.c_double),
        ("meets_ram_rule", ctypes.c_int),
        ("memory_evaluated", ctypes.c_int),
        ("channels", ctypes.c_uint64),
        ("populated_channels", ctypes.c_uint64),
        ("dimms_per_channel", ctypes.c_double),
        ("max_dimms_in_a_channel", ctypes.c_uint64),
        ("balanced", ctypes.c_int),
        ("within_slot_limit", ctypes.c_int),
        ("effective_speed_mts", ctypes.c_double),
        ("downclocked", ctypes.c_int),
        ("speed_rule_known", ctypes.c_int),
        ("channel_bandwidth_bytes_per_s", ctypes.c_double),
        ("memory_bandwidth_per_socket_bytes_per_s", ctypes.c_double),
        ("memory_bandwidth_bytes_per_s", ctypes.c_double),
        ("dimm_bytes", ctypes.c_double),
        ("lanes_evaluated", ctypes.c_int),
        ("pcie_lanes_total", ctypes.c_uint64),
        ("socket_link_lanes_used", ctypes.c_uint64),
        ("pcie_lanes_available", ctypes.c_uint64),
        ("gpu_lanes_needed", ctypes.c_uint64),
        ("nvme_lanes_needed", ctypes.c_uint64),
        ("nic_lanes_needed", ctypes.c_uint64),
        ("pcie_lanes_needed", ctypes.c_uint64),
        ("lanes_fit", ctypes.c_int),
        ("pcie_lanes_needed_bifurcated", ctypes.c_uint64),
        ("lanes_fit_bifurcated", ctypes.c_int),
        ("pcie_lanes_needed_switched", ctypes.c_uint64),
        ("switch_device_lanes", ctypes.c_uint64),
        ("lanes_fit_switched", ctypes.c_int),
        ("switch_oversubscription", ctypes.c_double),
    ]


# void hwfit_host_init(hwfit_host_in *in);
hwfit_host_init = _fn("hwfit_host_init", None, [ctypes.POINTER(hwfit_host_in)])
# hwfit_status hwfit_host_evaluate(const hwfit_host_in *in, hwfit_host_out *out);
hwfit_host_evaluate = _fn("hwfit_host_evaluate", ctypes.c_int,
                          [ctypes.POINTER(hwfit_host_in), ctypes.POINTER(hwfit_host_out)])
# hwfit_status hwfit_host_validate(const hwfit_host_in *in, hwfit_problem *problem);
hwfit_host_validate = _fn("hwfit_host_validate", ctypes.c_int,
                           [ctypes.POINTER(hwfit_host_in), ctypes.POINTER(hwfit_problem)])

# ---- dtype.h -------------------------------------------------------------------------

HWFIT_DTYPE_NAMES = ["fp32", "tf32", "fp16", "bf16", "fp8-e4m3", "fp8-e5m2", "int8", "int4",
                     "nf4", "nf4-dq", "nvfp4", "mxfp4", "mxfp6", "mxfp8", "q8_0", "q6_k",
                     "q5_k", "q4_k", "q4_0", "q3_k", "q2_k", "iq4_xs"]
(HWFIT_DTYPE_FP32, HWFIT_DTYPE_TF32, HWFIT_DTYPE_FP16, HWFIT_DTYPE_BF16, HWFIT_DTYPE_FP8_E4M3,
 HWFIT_DTYPE_FP8_E5M2, HWFIT_DTYPE_INT8, HWFIT_DTYPE_INT4, HWFIT_DTYPE_NF4, HWFIT_DTYPE_NF4_DQ,
 HWFIT_DTYPE_NVFP4, HWFIT_DTYPE_MXFP4, HWFIT_DTYPE_MXFP6, HWFIT_DTYPE_MXFP8, HWFIT_DTYPE_Q8_0,
 HWFIT_DTYPE_Q6_K, HWFIT_DTYPE_Q5_K, HWFIT_DTYPE_Q4_K, HWFIT_DTYPE_Q4_0, HWFIT_DTYPE_Q3_K,
 HWFIT_DTYPE_Q2_K, HWFIT_DTYPE_IQ4_XS) = range(22)
HWFIT_DTYPE_COUNT_ = 22
HWFIT_DTYPE_NAME_SIZE = 24


class hwfit_dtype(ctypes.Structure):
    _fields_ = [("id", ctypes.c_int), ("group_size", ctypes.c_uint32)]


class hwfit_dtype_info(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("description", ctypes.c_char_p),
        ("source", ctypes.c_char_p),
        ("block_elements", ctypes.c_uint64),
        ("block_bits", ctypes.c_uint64),
        ("bits_per_element", ctypes.c_double),
        ("quantized", ctypes.c_int),
        ("flattened", ctypes.c_int),
    ]


# hwfit_dtype hwfit_dtype_make(hwfit_dtype_id id);
hwfit_dtype_make = _fn("hwfit_dtype_make", hwfit_dtype, [ctypes.c_int])
# hwfit_status hwfit_dtype_parse(const char *name, hwfit_dtype *out);
hwfit_dtype_parse = _fn("hwfit_dtype_parse", ctypes.c_int,
                        [ctypes.c_char_p, ctypes.POINTER(hwfit_dtype)])
# hwfit_status hwfit_dtype_format(hwfit_dtype dtype, char *buf, size_t size);
hwfit_dtype_format = _fn("hwfit_dtype_format", ctypes.c_int,
                         [hwfit_dtype, ctypes.c_char_p, ctypes.c_size_t])
# hwfit_status hwfit_dtype_describe(hwfit_dtype dtype, hwfit_dtype_info *out);
hwfit_dtype_describe = _fn("hwfit_dtype_describe", ctypes.c_int,
                           [hwfit_dtype, ctypes.POINTER(hwfit_dtype_info)])
# hwfit_status hwfit_dtype_bits(hwfit_dtype dtype, double *bits);
hwfit_dtype_bits = _fn("hwfit_dtype_bits", ctypes.c_int, [hwfit_dtype, c_double_p])
# hwfit_status hwfit_dtype_bytes(hwfit_dtype dtype, uint64_t elements, uint64_t *bytes);
hwfit_dtype_bytes = _fn("hwfit_dtype_bytes", ctypes.c_int,
                        [hwfit_dtype, ctypes.c_uint64, c_uint64_p])
# hwfit_status hwfit_dtype_matrix_bytes(hwfit_dtype dtype, uint64_t rows, uint64_t cols,
#                                       uint64_t *bytes);
hwfit_dtype_matrix_bytes = _fn("hwfit_dtype_matrix_bytes", ctypes.c_int,
                               [hwfit_dtype, ctypes.c_uint64, ctypes.c_uint64, c_uint64_p])
# size_t hwfit_dtype_count(void);
hwfit_dtype_count = _fn("hwfit_dtype_count", ctypes.c_size_t, [])
# hwfit_status hwfit_dtype_at(size_t index, hwfit_dtype *out);
hwfit_dtype_at = _fn("hwfit_dtype_at", ctypes.c_int, [ctypes.c_size_t, ctypes.POINTER(hwfit_dtype)])

# ---- model.h -------------------------------------------------------------------------

HWFIT_MODEL_MAX_LAYERS = 1024
HWFIT_MODEL_NAME_SIZE = 64
HWFIT_MODEL_LAYER_MOE = 0x01
HWFIT_MODEL_LAYER_SLIDING = 0x02
HWFIT_MODEL_ATTENTION_GQA = 0
HWFIT_MODEL_ATTENTION_MLA = 1
HWFIT_MODEL_MLP_GATED = 0
HWFIT_MODEL_MLP_PLAIN = 1
HWFIT_MODEL_NORM_RMS = 0
HWFIT_MODEL_NORM_LAYER = 1
HWFIT_MODEL_SLIDING_NONE = 0
HWFIT_MODEL_SLIDING_ALL = 1
HWFIT_MODEL_SLIDING_PERIOD = 2
HWFIT_MODEL_SLIDING_FROM = 3


class hwfit_model(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char * HWFIT_MODEL_NAME_SIZE),
        ("layers", ctypes.c_uint32),
        ("heads", ctypes.c_uint32),
        ("kv_heads", ctypes.c_uint32),
        ("head_dim", ctypes.c_uint32),
        ("v_head_dim", ctypes.c_uint32),
        ("hidden", ctypes.c_uint64),
        ("vocab", ctypes.c_uint64),
        ("intermediate", ctypes.c_uint64),
        ("attention", ctypes.c_int),
        ("q_lora_rank", ctypes.c_uint32),
        ("kv_lora_rank", ctypes.c_uint32),
        ("qk_nope_head_dim", ctypes.c_uint32),
        ("qk_rope_head_dim", ctypes.c_uint32),
        ("q_bias", ctypes.c_int),
        ("k_bias", ctypes.c_int),
        ("v_bias", ctypes.c_int),
        ("o_bias", ctypes.c_int),
        ("mlp_bias", ctypes.c_int),
        ("qk_norm", ctypes.c_int),
        ("mlp", ctypes.c_int),
        ("experts", ctypes.c_uint32),
        ("experts_per_token", ctypes.c_uint32),
        ("expert_intermediate", ctypes.c_uint64),
        ("shared_experts", ctypes.c_uint32),
        ("shared_expert_intermediate", ctypes.c_uint64),
        ("shared_expert_gate", ctypes.c_int),
        ("router_bias", ctypes.c_int),
        ("norm", ctypes.c_int),
        ("norms_per_layer", ctypes.c_uint32),
        ("tie_embeddings", ctypes.c_int),
        ("sliding_window", ctypes.c_uint64),
        ("mtp_layers", ctypes.c_uint32),
        ("max_context", ctypes.c_uint64),
        ("layer_flags", ctypes.c_uint8 * HWFIT_MODEL_MAX_LAYERS),
    ]


class hwfit_model_layer_params(ctypes.Structure):
    _fields_ = [(n, ctypes.c_uint64) for n in (
        "attention", "mlp", "experts", "expert", "shared_experts", "router", "norms", "total",
        "active")]


class hwfit_model_param_counts(ctypes.Structure):
    _fields_ = [(n, ctypes.c_uint64) for n in (
        "total", "active", "embedding", "head", "attention", "mlp", "experts", "shared_experts",
        "router", "norms", "final_norm")] + [
        ("dense_layers", ctypes.c_uint32),
        ("moe_layers", ctypes.c_uint32),
        ("dense", hwfit_model_layer_params),
        ("moe", hwfit_model_layer_params),
        ("mtp_layers", ctypes.c_uint32),
        ("mtp_layer", ctypes.c_uint64),
        ("mtp", ctypes.c_uint64),
    ]


class hwfit_model_range(ctypes.Structure):
    _fields_ = [(n, ctypes.c_uint32) for n in (
        "layers", "dense_layers", "moe_layers", "sliding_layers", "full_layers")] + [
        ("params", ctypes.c_uint64), ("active", ctypes.c_uint64)]


class hwfit_model_kv_in(ctypes.Structure):
    _fields_ = [
        ("dtype", hwfit_dtype),
        ("batch", ctypes.c_uint64),
        ("context", ctypes.c_uint64),
        ("first_layer", ctypes.c_uint32),
        ("layer_count", ctypes.c_uint32),
        ("include_mtp", ctypes.c_int),
    ]


class hwfit_model_kv_out(ctypes.Structure):
    _fields_ = [(n, ctypes.c_uint64) for n in (
        "layer_bytes_per_token", "full_layers", "sliding_layers", "window_tokens",
        "bytes_per_token", "full_tokens", "sliding_tokens", "bytes")]


class hwfit_model_flops_out(ctypes.Structure):
    _fields_ = [(n, ctypes.c_double) for n in (
        "matmul_flop", "attention_flop", "forward_flop", "training_flop")]


# void hwfit_model_init(hwfit_model *model);
hwfit_model_init = _fn("hwfit_model_init", None, [ctypes.POINTER(hwfit_model)])
# hwfit_status hwfit_model_set_moe_layers(hwfit_model *model, uint32_t first_dense,
#                                         uint32_t step, uint32_t offset);
hwfit_model_set_moe_layers = _fn("hwfit_model_set_moe_layers", ctypes.c_int,
                                 [ctypes.POINTER(hwfit_model), ctypes.c_uint32, ctypes.c_uint32,
                                  ctypes.c_uint32])
# hwfit_status hwfit_model_set_sliding_layers(hwfit_model *model, hwfit_model_sliding rule,
#                                             uint32_t param);
hwfit_model_set_sliding_layers = _fn("hwfit_model_set_sliding_layers", ctypes.c_int,
                                     [ctypes.POINTER(hwfit_model), ctypes.c_int, ctypes.c_uint32])
# hwfit_status hwfit_model_check(const hwfit_model *model);
hwfit_model_check = _fn("hwfit_model_check", ctypes.c_int, [ctypes.POINTER(hwfit_model)])
# hwfit_status hwfit_model_validate(const hwfit_model *model, hwfit_problem *problem);
hwfit_model_validate = _fn("hwfit_model_validate", ctypes.c_int,
                            [ctypes.POINTER(hwfit_model), ctypes.POINTER(hwfit_problem)])
# hwfit_status hwfit_model_params(const hwfit_model *model, hwfit_model_param_counts *out);
hwfit_model_params = _fn("hwfit_model_params", ctypes.c_int,
                         [ctypes.POINTER(hwfit_model), ctypes.POINTER(hwfit_model_param_counts)])
# hwfit_status hwfit_model_layer_range(const hwfit_model *model, uint32_t first,
#                                      uint32_t count, hwfit_model_range *out);
hwfit_model_layer_range = _fn("hwfit_model_layer_range", ctypes.c_int,
                              [ctypes.POINTER(hwfit_model), ctypes.c_uint32, ctypes.c_uint32,
                               ctypes.POINTER(hwfit_model_range)])
# void hwfit_model_kv_init(hwfit_model_kv_in *in);
hwfit_model_kv_init = _fn("hwfit_model_kv_init", None, [ctypes.POINTER(hwfit_model_kv_in)])
# hwfit_status hwfit_model_kv(const hwfit_model *model, const hwfit_model_kv_in *in,
#                             hwfit_model_kv_out *out);
hwfit_model_kv = _fn("hwfit_model_kv", ctypes.c_int,
                     [ctypes.POINTER(hwfit_model), ctypes.POINTER(hwfit_model_kv_in),
                      ctypes.POINTER(hwfit_model_kv_out)])
# hwfit_status hwfit_model_kv_validate(const hwfit_model *model, const hwfit_model_kv_in *in,
#                                      hwfit_problem *problem);
hwfit_model_kv_validate = _fn("hwfit_model_kv_validate", ctypes.c_int,
                               [ctypes.POINTER(hwfit_model), ctypes.POINTER(hwfit_model_kv_in), ctypes.POINTER(hwfit_problem)])
# hwfit_status hwfit_model_flops(const hwfit_model *model, uint64_t context,
#                                hwfit_model_flops_out *out);
hwfit_model_flops = _fn("hwfit_model_flops", ctypes.c_int,
                        [ctypes.POINTER(hwfit_model), ctypes.c_uint64,
                         ctypes.POINTER(hwfit_model_flops_out)])

# ---- memory.h ------------------------------------------------------------------------

HWFIT_MEMORY_INFERENCE = 0
HWFIT_MEMORY_FULL = 1
HWFIT_MEMORY_LORA = 2
HWFIT_MEMORY_QLORA = 3
HWFIT_MEMORY_ADAMW = 0
HWFIT_MEMORY_ADAMW_8BIT = 1
HWFIT_MEMORY_SGD = 2
HWFIT_MEMORY_RECOMPUTE_NONE = 0
HWFIT_MEMORY_RECOMPUTE_SELECTIVE = 1
HWFIT_MEMORY_RECOMPUTE_FULL = 2
HWFIT_LORA_Q = 0x01
HWFIT_LORA_K = 0x02
HWFIT_LORA_V = 0x04
HWFIT_LORA_O = 0x08
HWFIT_LORA_GATE = 0x10
HWFIT_LORA_UP = 0x20
HWFIT_LORA_DOWN = 0x40
HWFIT_LORA_ATTENTION = 0x0f
HWFIT_LORA_ALL = 0x7f


class hwfit_memory_in(ctypes.Structure):
    _fields_ = [
        ("mode", ctypes.c_int),
        ("weights", hwfit_dtype),
        ("unquantized", hwfit_dtype),
        ("keep_embeddings", ctypes.c_int),
        ("kv", hwfit_dtype),
        ("batch", ctypes.c_uint64),
        ("context", ctypes.c_uint64),
        ("prefill_chunk", ctypes.c_uint64),
        ("overhead_bytes", ctypes.c_double),
        ("micro_batch", ctypes.c_uint64),
        ("optimizer", ctypes.c_int),
        ("gradients", hwfit_dtype),
        ("master_weights", ctypes.c_int),
        ("recompute", ctypes.c_int),
        ("flash_attention", ctypes.c_int),
        ("dropout", ctypes.c_int),
        ("activations", hwfit_dtype),
        ("tensor_parallel", ctypes.c_uint32),
        ("sequence_parallel", ctypes.c_int),
        ("lora_rank", ctypes.c_uint32),
        ("lora_targets", ctypes.c_uint),
        ("lora_dtype", hwfit_dtype),
        ("qlora_base", hwfit_dtype),
        ("first_layer", ctypes.c_uint32),
        ("layer_count", ctypes.c_uint32),
        ("embedding", ctypes.c_int),
        ("head", ctypes.c_int),
        ("mtp", ctypes.c_int),
        # appended: framework choices (memory.h, profile.h)
        ("optimizer_states", hwfit_dtype),
        ("paged_optimizer", ctypes.c_int),
        ("optimizer_in_backward", ctypes.c_int),
        ("fused_optimizer", ctypes.c_int),
        ("gradient_buffer", ctypes.c_int),
        ("loss", ctypes.c_int),
        ("activation_offload", ctypes.c_int),
        ("compile", ctypes.c_int),
        ("fragmentation", ctypes.c_double),
        ("module_formats", ctypes.c_int),
        ("attention_weights", hwfit_dtype),
        ("mlp_weights", hwfit_dtype),
        ("expert_weights", hwfit_dtype),
        ("dora", ctypes.c_int),
        ("lora_dropout", ctypes.c_int),
        ("packed", ctypes.c_int),
    ]


class hwfit_memory_out(ctypes.Structure):
    _fields_ = [(n, ctypes.c_uint64) for n in (
        "weights_bytes", "kv_bytes", "activation_bytes", "gradient_bytes", "optimizer_bytes",
        "overhead_bytes", "total_bytes", "params", "trainable_params", "adapter_params")] + [
        ("layers", ctypes.c_uint32)] + [(n, ctypes.c_uint64) for n in (
        "activation_dense_layer_bytes", "activation_moe_layer_bytes", "activation_other_bytes",
        "expert_params", "expert_weights_bytes", "expert_trainable_params",
        "expert_gradient_bytes", "expert_optimizer_bytes",
        # appended: the peak by phase
        "loss_bytes", "forward_bytes", "backward_bytes", "step_bytes")] + [
        ("peak_phase", ctypes.c_int)] + [(n, ctypes.c_uint64) for n in (
        "allocated_bytes", "reserved_bytes", "peak_bytes")]


# void hwfit_memory_init(hwfit_memory_in *in);
hwfit_memory_init = _fn("hwfit_memory_init", None, [ctypes.POINTER(hwfit_memory_in)])
# hwfit_status hwfit_memory_estimate(const hwfit_model *model, const hwfit_memory_in *in,
#                                    hwfit_memory_out *out);
hwfit_memory_estimate = _fn("hwfit_memory_estimate", ctypes.c_int,
                            [ctypes.POINTER(hwfit_model), ctypes.POINTER(hwfit_memory_in),
                             ctypes.POINTER(hwfit_memory_out)])
# hwfit_status hwfit_memory_validate(const hwfit_model *model, const hwfit_memory_in *in,
#                                    hwfit_problem *problem);
hwfit_memory_validate = _fn("hwfit_memory_validate", ctypes.c_int,
                             [ctypes.POINTER(hwfit_model), ctypes.POINTER(hwfit_memory_in), ctypes.POINTER(hwfit_problem)])
# hwfit_status hwfit_memory_lora_params(const hwfit_model *model, uint32_t rank,
#                                       unsigned targets, uint64_t *params);
hwfit_memory_lora_params = _fn("hwfit_memory_lora_params", ctypes.c_int,
                               [ctypes.POINTER(hwfit_model), ctypes.c_uint32, ctypes.c_uint,
                                c_uint64_p])
# hwfit_status hwfit_memory_lora_targets_parse(const char *text, unsigned *targets);
# hwfit_status hwfit_memory_profile_apply(const char *name, uint32_t gpus,
#                                         hwfit_memory_in *in, unsigned *sets);
hwfit_memory_profile_apply = _fn("hwfit_memory_profile_apply", ctypes.c_int,
                                 [ctypes.c_char_p, ctypes.c_uint32,
                                  ctypes.POINTER(hwfit_memory_in), ctypes.POINTER(ctypes.c_uint)])
# const char *hwfit_memory_profile_name(size_t i);
hwfit_memory_profile_name = _fn("hwfit_memory_profile_name", ctypes.c_char_p, [ctypes.c_size_t])
HWFIT_PROFILE_RECOMPUTE = 0x0400
hwfit_memory_lora_targets_parse = _fn("hwfit_memory_lora_targets_parse", ctypes.c_int,
                                      [ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint)])

# ---- hf_config.h ---------------------------------------------------------------------

HWFIT_HF_CONFIG_MAX_BYTES = 16 * 1024 * 1024

# hwfit_status hwfit_hf_config_load(const char *path, hwfit_model *out, hwfit_error *err);
hwfit_hf_config_load = _fn("hwfit_hf_config_load", ctypes.c_int,
                           [ctypes.c_char_p, ctypes.POINTER(hwfit_model),
                            ctypes.POINTER(hwfit_error)])
# hwfit_status hwfit_hf_config_parse(const char *text, size_t length, const char *name,
#                                    hwfit_model *out, hwfit_error *err);
hwfit_hf_config_parse = _fn("hwfit_hf_config_parse", ctypes.c_int,
                            [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                             ctypes.POINTER(hwfit_model), ctypes.POINTER(hwfit_error)])
# ---- gpu.h ---------------------------------------------------------------------------

HWFIT_GPU_VENDOR_NVIDIA = 0
HWFIT_GPU_VENDOR_AMD = 1
HWFIT_GPU_FORM_PCIE_CARD = 0
HWFIT_GPU_FORM_SXM = 1
HWFIT_GPU_FORM_OAM = 2
HWFIT_GPU_FORM_SUPERCHIP = 3
HWFIT_GPU_PEER_NONE = 0
HWFIT_GPU_PEER_NVLINK = 1
HWFIT_GPU_PEER_XGMI = 2
HWFIT_GPU_PEER_TOPOLOGY_NONE = 0
HWFIT_GPU_PEER_TOPOLOGY_SWITCH = 1
HWFIT_GPU_PEER_TOPOLOGY_BRIDGE = 2
HWFIT_GPU_PEER_TOPOLOGY_MESH = 3


class hwfit_gpu(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("vendor", ctypes.c_int),
        ("edition", ctypes.c_char_p),
        ("architecture", ctypes.c_char_p),
        ("compute_capability", ctypes.c_uint32),
        ("form_factor", ctypes.c_int),
        ("memory_bytes", ctypes.c_uint64),
        ("memory_bandwidth_bytes_per_s", ctypes.c_double),
        ("tdp_w", ctypes.c_double),
        ("fp64_flop_per_s", ctypes.c_double),
        ("fp64_tensor_flop_per_s", ctypes.c_double),
        ("fp32_flop_per_s", ctypes.c_double),
        ("tf32_flop_per_s", ctypes.c_double),
        ("fp16_bf16_flop_per_s", ctypes.c_double),
        ("fp8_flop_per_s", ctypes.c_double),
        ("int8_op_per_s", ctypes.c_double),
        ("fp4_flop_per_s", ctypes.c_double),
        ("sparsity", ctypes.c_int),
        ("sparse_speedup", ctypes.c_double),
        ("pcie_gen", ctypes.c_uint32),
        ("pcie_lanes", ctypes.c_uint32),
        ("peer_link", ctypes.c_int),
        ("peer_topology", ctypes.c_int),
        ("peer_generation", ctypes.c_uint32),
        ("peer_links", ctypes.c_uint32),
        ("peer_bytes_per_s", ctypes.c_double),
        ("peer_bytes_per_s_bidir", ctypes.c_double),
        ("peer_domain_gpus", ctypes.c_uint32),
        ("p2p_pcie", ctypes.c_int),
        ("nvls", ctypes.c_int),
        ("source", ctypes.c_char_p),
        ("notes", ctypes.c_char_p),
    ]


hwfit_gpu_p = ctypes.POINTER(hwfit_gpu)

# hwfit_status hwfit_gpu_find(const char *name, const hwfit_gpu **gpu);
hwfit_gpu_find = _fn("hwfit_gpu_find", ctypes.c_int,
                     [ctypes.c_char_p, ctypes.POINTER(hwfit_gpu_p)])
# size_t hwfit_gpu_count(void);
hwfit_gpu_count = _fn("hwfit_gpu_count", ctypes.c_size_t, [])
# const hwfit_gpu *hwfit_gpu_at(size_t index);
hwfit_gpu_at = _fn("hwfit_gpu_at", hwfit_gpu_p, [ctypes.c_size_t])
# const char *hwfit_gpu_vendor_name(hwfit_gpu_vendor vendor);
hwfit_gpu_vendor_name = _fn("hwfit_gpu_vendor_name", ctypes.c_char_p, [ctypes.c_int])
# const char *hwfit_gpu_form_factor_name(hwfit_gpu_form_factor form);
hwfit_gpu_form_factor_name = _fn("hwfit_gpu_form_factor_name", ctypes.c_char_p, [ctypes.c_int])
# const char *hwfit_gpu_peer_link_name(hwfit_gpu_peer_link link);
hwfit_gpu_peer_link_name = _fn("hwfit_gpu_peer_link_name", ctypes.c_char_p, [ctypes.c_int])
# const char *hwfit_gpu_peer_topology_name(hwfit_gpu_peer_topology topology);
hwfit_gpu_peer_topology_name = _fn("hwfit_gpu_peer_topology_name", ctypes.c_char_p,
                                   [ctypes.c_int])

# ---- link.h --------------------------------------------------------------------------

HWFIT_LINK_PCIE = 0
HWFIT_LINK_NVLINK = 1
HWFIT_LINK_INFINIBAND = 2
HWFIT_LINK_ETHERNET = 3
HWFIT_LINK_XGMI = 4
HWFIT_LINK_UPI = 5
HWFIT_LINK_IB_EDR = 1
HWFIT_LINK_IB_HDR = 2
HWFIT_LINK_IB_NDR = 3
HWFIT_LINK_IB_XDR = 4
HWFIT_LINK_TRANSPORT_ROCEV2 = 0
HWFIT_LINK_TRANSPORT_TCP = 1


class hwfit_link_in(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_int),
        ("generation", ctypes.c_uint32),
        ("width", ctypes.c_uint32),
        ("port_bits_per_s", ctypes.c_double),
        ("transport", ctypes.c_int),
        ("payload_bytes", ctypes.c_double),
    ]


class hwfit_link_out(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char * 48),
        ("lanes", ctypes.c_uint32),
        ("lane_raw_bits_per_s", ctypes.c_double),
        ("encoding_efficiency", ctypes.c_double),
        ("line_bytes_per_s", ctypes.c_double),
        ("line_bytes_per_s_bidir", ctypes.c_double),
        ("payload_bytes", ctypes.c_double),
        ("overhead_bytes", ctypes.c_double),
        ("protocol_efficiency", ctypes.c_double),
        ("payload_bytes_per_s", ctypes.c_double),
        ("payload_bytes_per_s_bidir", ctypes.c_double),
    ]


# void hwfit_link_init(hwfit_link_in *in);
hwfit_link_init = _fn("hwfit_link_init", None, [ctypes.POINTER(hwfit_link_in)])
# hwfit_status hwfit_link_rate(const hwfit_link_in *in, hwfit_link_out *out);
hwfit_link_rate = _fn("hwfit_link_rate", ctypes.c_int,
                      [ctypes.POINTER(hwfit_link_in), ctypes.POINTER(hwfit_link_out)])
# hwfit_status hwfit_link_validate(const hwfit_link_in *in, hwfit_problem *problem);
hwfit_link_validate = _fn("hwfit_link_validate", ctypes.c_int,
                           [ctypes.POINTER(hwfit_link_in), ctypes.POINTER(hwfit_problem)])
# hwfit_status hwfit_link_parse(const char *text, hwfit_link_in *in);
hwfit_link_parse = _fn("hwfit_link_parse", ctypes.c_int,
                       [ctypes.c_char_p, ctypes.POINTER(hwfit_link_in)])
# const char *hwfit_link_kind_name(hwfit_link_kind kind);
hwfit_link_kind_name = _fn("hwfit_link_kind_name", ctypes.c_char_p, [ctypes.c_int])

# ---- collective.h --------------------------------------------------------------------

HWFIT_TOPOLOGY_MAX_GPUS_PER_NODE = 128
HWFIT_TOPOLOGY_MAX_NODES = 65536
HWFIT_TOPOLOGY_AUTO = 0
HWFIT_TOPOLOGY_ON = 1
HWFIT_TOPOLOGY_OFF = 2
HWFIT_CPU_AMD = 0
HWFIT_CPU_INTEL = 1
HWFIT_CPU_ARM = 2
HWFIT_NIC_ROCE = 0
HWFIT_NIC_INFINIBAND = 1
HWFIT_NIC_TCP = 2
HWFIT_COLLECTIVE_ALLREDUCE = 0
HWFIT_COLLECTIVE_ALLGATHER = 1
HWFIT_COLLECTIVE_REDUCESCATTER = 2
HWFIT_COLLECTIVE_BROADCAST = 3
HWFIT_COLLECTIVE_REDUCE = 4
HWFIT_COLLECTIVE_ALLTOALL = 5
HWFIT_COLLECTIVE_SENDRECV = 6
HWFIT_COLLECTIVE_ALGO_AUTO = 0
HWFIT_COLLECTIVE_ALGO_RING = 1
HWFIT_COLLECTIVE_ALGO_TREE = 2
HWFIT_COLLECTIVE_ALGO_RECURSIVE = 3
HWFIT_COLLECTIVE_ALGO_DIRECT = 4
HWFIT_COLLECTIVE_ALGO_NVLS = 5
HWFIT_COLLECTIVE_ALGO_HIERARCHICAL = 6
HWFIT_COLLECTIVE_PROTO_AUTO = 0
HWFIT_COLLECTIVE_PROTO_LL = 1
HWFIT_COLLECTIVE_PROTO_LL128 = 2
HWFIT_COLLECTIVE_PROTO_SIMPLE = 3
HWFIT_COLLECTIVE_LIBRARY_NCCL = 0
HWFIT_COLLECTIVE_LIBRARY_ANY = 1


class hwfit_topology(ctypes.Structure):
    _fields_ = [
        ("gpus_per_node", ctypes.c_uint64),
        ("nodes", ctypes.c_uint64),
        ("gpu_pcie_gen", ctypes.c_uint32),
        ("gpu_pcie_lanes", ctypes.c_uint32),
        ("compute_capability", ctypes.c_uint32),
        ("gpu_p2p_capable", ctypes.c_int),
        ("peer_link", ctypes.c_int),
        ("peer_topology", ctypes.c_int),
        ("peer_links", ctypes.c_uint32),
        ("peer_domain_gpus", ctypes.c_uint32),
        ("peer_bytes_per_s", ctypes.c_double),
        ("nvls", ctypes.c_int),
        ("sockets", ctypes.c_uint64),
        ("cpu_vendor", ctypes.c_int),
        ("pcie_switches", ctypes.c_uint64),
        ("switch_uplink_lanes", ctypes.c_uint32),
        ("p2p", ctypes.c_int),
        ("socket_link_kind", ctypes.c_int),
        ("socket_link_generation", ctypes.c_uint32),
        ("socket_links", ctypes.c_uint32),
        ("host_memory_bytes_per_s", ctypes.c_double),
        ("nics_per_node", ctypes.c_uint64),
        ("nic_kind", ctypes.c_int),
        ("nic_bits_per_s", ctypes.c_double),
        ("nic_mtu_bytes", ctypes.c_double),
        ("gpudirect_rdma", ctypes.c_int),
        ("pcie_efficiency", ctypes.c_double),
        ("shm_efficiency", ctypes.c_double),
        ("host_memory_efficiency", ctypes.c_double),
        ("socket_link_efficiency", ctypes.c_double),
        ("peer_efficiency", ctypes.c_double),
        ("nvls_efficiency", ctypes.c_double),
        ("nic_efficiency", ctypes.c_double),
        ("shm_step_latency_s", ctypes.c_double),
        ("net_overhead_s", ctypes.c_double),
    ]


class hwfit_collective_in(ctypes.Structure):
    _fields_ = [
        ("topology", hwfit_topology),
        ("op", ctypes.c_int),
        ("bytes", ctypes.c_double),
        ("ranks", ctypes.c_uint64),
        ("ranks_per_node", ctypes.c_uint64),
        ("algorithm", ctypes.c_int),
        ("protocol", ctypes.c_int),
        ("library", ctypes.c_int),
    ]


class hwfit_collective_out(ctypes.Structure):
    _fields_ = [
        ("time_s", ctypes.c_double),
        ("algbw_bytes_per_s", ctypes.c_double),
        ("busbw_bytes_per_s", ctypes.c_double),
        ("busbw_factor", ctypes.c_double),
        ("latency_s", ctypes.c_double),
        ("bandwidth_time_s", ctypes.c_double),
        ("bottleneck_bytes_per_s", ctypes.c_double),
        ("algorithm", ctypes.c_int),
        ("protocol", ctypes.c_int),
        ("bottleneck", ctypes.c_int),
        ("ranks", ctypes.c_uint64),
        ("ranks_per_node", ctypes.c_uint64),
        ("nodes", ctypes.c_uint64),
        ("p2p", ctypes.c_int),
        ("gpudirect_rdma", ctypes.c_int),
    ]


class hwfit_collective_step_in(ctypes.Structure):
    _fields_ = [
        ("topology", hwfit_topology),
        ("tp", ctypes.c_uint64),
        ("pp", ctypes.c_uint64),
        ("dp", ctypes.c_uint64),
        ("ep", ctypes.c_uint64),
        ("zero_stage", ctypes.c_uint64),
        ("layers_per_stage", ctypes.c_uint64),
        ("micro_batches", ctypes.c_uint64),
        ("tp_collectives_per_layer", ctypes.c_uint64),
        ("sequence_parallel", ctypes.c_int),
        ("tp_bytes", ctypes.c_double),
        ("grad_bytes", ctypes.c_double),
        ("param_bytes", ctypes.c_double),
        ("pp_bytes", ctypes.c_double),
        ("moe_layers_per_stage", ctypes.c_uint64),
        ("ep_bytes", ctypes.c_double),
        ("library", ctypes.c_int),
    ]


class hwfit_collective_step_out(ctypes.Structure):
    _fields_ = [
        ("tp_s", ctypes.c_double),
        ("dp_s", ctypes.c_double),
        ("zero_s", ctypes.c_double),
        ("pp_s", ctypes.c_double),
        ("ep_s", ctypes.c_double),
        ("total_s", ctypes.c_double),
        ("tp_count", ctypes.c_uint64),
        ("dp_count", ctypes.c_uint64),
        ("zero_count", ctypes.c_uint64),
        ("pp_count", ctypes.c_uint64),
        ("ep_count", ctypes.c_uint64),
        ("tp", hwfit_collective_out),
        ("dp", hwfit_collective_out),
        ("pp", hwfit_collective_out),
        ("ep", hwfit_collective_out),
    ]


_topo_p = ctypes.POINTER(hwfit_topology)
# void hwfit_topology_init(hwfit_topology *topology);
hwfit_topology_init = _fn("hwfit_topology_init", None, [_topo_p])
# hwfit_status hwfit_topology_set_gpu(hwfit_topology *topology, const hwfit_gpu *gpu);
hwfit_topology_set_gpu = _fn("hwfit_topology_set_gpu", ctypes.c_int, [_topo_p, hwfit_gpu_p])
# hwfit_status hwfit_topology_set_cpu(hwfit_topology *topology, hwfit_cpu_vendor vendor);
hwfit_topology_set_cpu = _fn("hwfit_topology_set_cpu", ctypes.c_int, [_topo_p, ctypes.c_int])
# hwfit_status hwfit_topology_parse_nic(const char *text, hwfit_topology *topology);
hwfit_topology_parse_nic = _fn("hwfit_topology_parse_nic", ctypes.c_int,
                               [ctypes.c_char_p, _topo_p])
# void hwfit_collective_init(hwfit_collective_in *in);
hwfit_collective_init = _fn("hwfit_collective_init", None,
                            [ctypes.POINTER(hwfit_collective_in)])
# hwfit_status hwfit_collective_estimate(const hwfit_collective_in *in, hwfit_collective_out *out);
hwfit_collective_estimate = _fn("hwfit_collective_estimate", ctypes.c_int,
                                [ctypes.POINTER(hwfit_collective_in),
                                 ctypes.POINTER(hwfit_collective_out)])
# hwfit_status hwfit_collective_validate(const hwfit_collective_in *in, hwfit_problem *problem);
hwfit_collective_validate = _fn("hwfit_collective_validate", ctypes.c_int,
                                 [ctypes.POINTER(hwfit_collective_in), ctypes.POINTER(hwfit_problem)])
# hwfit_status hwfit_collective_busbw_factor(hwfit_collective_op op, uint64_t ranks, double *factor);
hwfit_collective_busbw_factor = _fn("hwfit_collective_busbw_factor", ctypes.c_int,
                                    [ctypes.c_int, ctypes.c_uint64, c_double_p])
# const char *hwfit_collective_op_name(hwfit_collective_op op);
hwfit_collective_op_name = _fn("hwfit_collective_op_name", ctypes.c_char_p, [ctypes.c_int])
# const char *hwfit_collective_algorithm_name(hwfit_collective_algorithm algorithm);
hwfit_collective_algorithm_name = _fn("hwfit_collective_algorithm_name", ctypes.c_char_p,
                                      [ctypes.c_int])
# const char *hwfit_collective_protocol_name(hwfit_collective_protocol protocol);
hwfit_collective_protocol_name = _fn("hwfit_collective_protocol_name", ctypes.c_char_p,
                                     [ctypes.c_int])
# const char *hwfit_collective_bottleneck_name(hwfit_collective_bottleneck bottleneck);
hwfit_collective_bottleneck_name = _fn("hwfit_collective_bottleneck_name", ctypes.c_char_p,
                                       [ctypes.c_int])
# hwfit_status hwfit_collective_op_from_name(const char *name, hwfit_collective_op *op);
hwfit_collective_op_from_name = _fn("hwfit_collective_op_from_name", ctypes.c_int,
                                    [ctypes.c_char_p, c_int_p])
# hwfit_status hwfit_collective_algorithm_from_name(const char *name, hwfit_collective_algorithm *algorithm);
hwfit_collective_algorithm_from_name = _fn("hwfit_collective_algorithm_from_name", ctypes.c_int,
                                           [ctypes.c_char_p, c_int_p])
# hwfit_status hwfit_collective_protocol_from_name(const char *name, hwfit_collective_protocol *protocol);
hwfit_collective_protocol_from_name = _fn("hwfit_collective_protocol_from_name", ctypes.c_int,
                                          [ctypes.c_char_p, c_int_p])
# void hwfit_collective_step_init(hwfit_collective_step_in *in);
hwfit_collective_step_init = _fn("hwfit_collective_step_init", None,
                                 [ctypes.POINTER(hwfit_collective_step_in)])
# hwfit_status hwfit_collective_step(const hwfit_collective_step_in *in, hwfit_collective_step_out *out);
hwfit_collective_step = _fn("hwfit_collective_step", ctypes.c_int,
                            [ctypes.POINTER(hwfit_collective_step_in),
                             ctypes.POINTER(hwfit_collective_step_out)])
# hwfit_status hwfit_collective_step_validate(const hwfit_collective_step_in *in,
#                                             hwfit_problem *problem);
hwfit_collective_step_validate = _fn("hwfit_collective_step_validate", ctypes.c_int,
                                      [ctypes.POINTER(hwfit_collective_step_in), ctypes.POINTER(hwfit_problem)])

# ---- svg.h ---------------------------------------------------------------------------

HWFIT_SVG_VALUE_MAX = 1e30
HWFIT_SVG_LOG_MIN = 1e-30
HWFIT_SVG_SIZE_MIN_PX = 200.0
HWFIT_SVG_SIZE_MAX_PX = 16384.0
HWFIT_SVG_PALETTE_SIZE = 7

HWFIT_SVG_SCALE_LINEAR = 0
HWFIT_SVG_SCALE_LOG2 = 1
HWFIT_SVG_SCALE_LOG10 = 2

HWFIT_SVG_PREFIX_AUTO = 0
HWFIT_SVG_PREFIX_DECIMAL = 1
HWFIT_SVG_PREFIX_BINARY = 2

c_char_p_p = ctypes.POINTER(ctypes.c_char_p)
c_uint32_p = ctypes.POINTER(ctypes.c_uint32)
c_size_t_p = ctypes.POINTER(ctypes.c_size_t)


class hwfit_svg_axis(ctypes.Structure):
    _fields_ = [
        ("label", ctypes.c_char_p),
        ("unit", ctypes.c_int),
        ("scale", ctypes.c_int),
        ("prefix", ctypes.c_int),
        ("include_zero", ctypes.c_int),
    ]


class hwfit_svg_stacked_bars_in(ctypes.Structure):
    _fields_ = [
        ("title", ctypes.c_char_p),
        ("x_label", ctypes.c_char_p),
        ("y", hwfit_svg_axis),
        ("bar_count", ctypes.c_size_t),
        ("bar_labels", c_char_p_p),
        ("segment_count", ctypes.c_size_t),
        ("segment_labels", c_char_p_p),
        ("values", c_double_p),
        ("segment_colors", c_uint32_p),
        ("capacity_set", ctypes.c_int),
        ("capacity", ctypes.c_double),
        ("capacity_label", ctypes.c_char_p),
        ("show_totals", ctypes.c_int),
        ("width_px", ctypes.c_double),
        ("height_px", ctypes.c_double),
    ]


class hwfit_svg_series(ctypes.Structure):
    _fields_ = [
        ("label", ctypes.c_char_p),
        ("x", c_double_p),
        ("y", c_double_p),
        ("count", ctypes.c_size_t),
    ]


class hwfit_svg_lines_in(ctypes.Structure):
    _fields_ = [
        ("title", ctypes.c_char_p),
        ("x", hwfit_svg_axis),
        ("y", hwfit_svg_axis),
        ("series_count", ctypes.c_size_t),
        ("series", ctypes.POINTER(hwfit_svg_series)),
        ("markers", ctypes.c_int),
        ("width_px", ctypes.c_double),
        ("height_px", ctypes.c_double),
    ]


class hwfit_svg_reference(ctypes.Structure):
    _fields_ = [
        ("label", ctypes.c_char_p),
        ("value", ctypes.c_double),
    ]


class hwfit_svg_budget_in(ctypes.Structure):
    _fields_ = [
        ("title", ctypes.c_char_p),
        ("x", hwfit_svg_axis),
        ("bar_count", ctypes.c_size_t),
        ("bar_labels", c_char_p_p),
        ("values", c_double_p),
        ("bar_colors", c_uint32_p),
        ("show_total", ctypes.c_int),
        ("total_label", ctypes.c_char_p),
        ("reference_count", ctypes.c_size_t),
        ("references", ctypes.POINTER(hwfit_svg_reference)),
        ("width_px", ctypes.c_double),
        ("height_px", ctypes.c_double),
    ]


# void hwfit_svg_stacked_bars_init(hwfit_svg_stacked_bars_in *in);
hwfit_svg_stacked_bars_init = _fn("hwfit_svg_stacked_bars_init", None,
                                  [ctypes.POINTER(hwfit_svg_stacked_bars_in)])
# hwfit_status hwfit_svg_stacked_bars(const hwfit_svg_stacked_bars_in *in, char *buf,
#                                     size_t size, size_t *needed);
hwfit_svg_stacked_bars = _fn("hwfit_svg_stacked_bars", ctypes.c_int,
                             [ctypes.POINTER(hwfit_svg_stacked_bars_in), ctypes.c_char_p,
                              ctypes.c_size_t, c_size_t_p])
# void hwfit_svg_lines_init(hwfit_svg_lines_in *in);
hwfit_svg_lines_init = _fn("hwfit_svg_lines_init", None, [ctypes.POINTER(hwfit_svg_lines_in)])
# hwfit_status hwfit_svg_lines(const hwfit_svg_lines_in *in, char *buf, size_t size,
#                              size_t *needed);
hwfit_svg_lines = _fn("hwfit_svg_lines", ctypes.c_int,
                      [ctypes.POINTER(hwfit_svg_lines_in), ctypes.c_char_p, ctypes.c_size_t,
                       c_size_t_p])
# void hwfit_svg_budget_init(hwfit_svg_budget_in *in);
hwfit_svg_budget_init = _fn("hwfit_svg_budget_init", None, [ctypes.POINTER(hwfit_svg_budget_in)])
# hwfit_status hwfit_svg_budget(const hwfit_svg_budget_in *in, char *buf, size_t size,
#                               size_t *needed);
hwfit_svg_budget = _fn("hwfit_svg_budget", ctypes.c_int,
                       [ctypes.POINTER(hwfit_svg_budget_in), ctypes.c_char_p, ctypes.c_size_t,
                        c_size_t_p])
# hwfit_status hwfit_svg_escape(const char *text, char *buf, size_t size, size_t *needed);
hwfit_svg_escape = _fn("hwfit_svg_escape", ctypes.c_int,
                       [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t, c_size_t_p])
# uint32_t hwfit_svg_color(size_t index);
hwfit_svg_color = _fn("hwfit_svg_color", ctypes.c_uint32, [ctypes.c_size_t])

# ---- shard.h -------------------------------------------------------------------------

HWFIT_SHARD_MAX_GPUS = 1048576
HWFIT_SHARD_OFFLOAD_OPTIMIZER = 0x1
HWFIT_SHARD_OFFLOAD_PARAMS = 0x2
HWFIT_SHARD_ANY = -1

# enum hwfit_shard_reason
HWFIT_SHARD_VALID = 0
HWFIT_SHARD_GPUS = 1
HWFIT_SHARD_HEADS = 2
HWFIT_SHARD_KV_HEADS = 3
HWFIT_SHARD_MLP_WIDTH = 4
HWFIT_SHARD_EXPERT_WIDTH = 5
HWFIT_SHARD_EXPERTS = 6
HWFIT_SHARD_EXPERT_RANKS = 7
HWFIT_SHARD_STAGES = 8
HWFIT_SHARD_UNEVEN = 9
HWFIT_SHARD_VIRTUAL_STAGES = 10
HWFIT_SHARD_VIRTUAL_LAYERS = 11
HWFIT_SHARD_VIRTUAL_MICROBATCHES = 12
HWFIT_SHARD_SEQUENCE_PARALLEL = 13
HWFIT_SHARD_CONTEXT = 14
HWFIT_SHARD_BATCH = 15
HWFIT_SHARD_ZERO_INFERENCE = 16
HWFIT_SHARD_OFFLOAD_INFERENCE = 17
HWFIT_SHARD_OFFLOAD_ZERO = 18


class hwfit_layout(ctypes.Structure):
    _fields_ = [
        ("tp", ctypes.c_uint32),
        ("pp", ctypes.c_uint32),
        ("dp", ctypes.c_uint32),
        ("cp", ctypes.c_uint32),
        ("ep", ctypes.c_uint32),
        ("etp", ctypes.c_uint32),
        ("virtual_stages", ctypes.c_uint32),
        ("sequence_parallel", ctypes.c_int),
        ("zero_stage", ctypes.c_uint32),
        ("offload", ctypes.c_uint),
        ("micro_batch", ctypes.c_uint64),
        ("global_batch", ctypes.c_uint64),
        ("recompute", ctypes.c_int),
        ("uneven_layers", ctypes.c_int),
    ]


class hwfit_shard_in(ctypes.Structure):
    _fields_ = [
        ("memory", hwfit_memory_in),
        ("layout", hwfit_layout),
        ("gpus", ctypes.c_uint32),
        ("capacity_bytes", ctypes.c_double),
        ("utilization", ctypes.c_double),
        ("reserve_bytes", ctypes.c_double),
        ("comm_group_bytes", ctypes.c_double),
        ("bucket_bytes", ctypes.c_double),
        ("zero3_live_layers", ctypes.c_uint32),
        ("host_memory_bytes", ctypes.c_double),
        ("host_utilization", ctypes.c_double),
        ("host_buffer_factor", ctypes.c_double),
        ("host_memory_given", ctypes.c_int),
    ]


class hwfit_shard_card(ctypes.Structure):
    _fields_ = [
        ("stage", ctypes.c_uint32),
        ("first_layer", ctypes.c_uint32),
        ("layers", ctypes.c_uint32),
        ("embedding", ctypes.c_int),
        ("head", ctypes.c_int),
        ("in_flight", ctypes.c_uint64),
        ("params", ctypes.c_uint64),
        ("trainable_params", ctypes.c_uint64),
        ("shard_weights_bytes", ctypes.c_uint64),
        ("weights_bytes", ctypes.c_uint64),
        ("kv_bytes", ctypes.c_uint64),
        ("activation_bytes", ctypes.c_uint64),
        ("gradient_bytes", ctypes.c_uint64),
        ("optimizer_bytes", ctypes.c_uint64),
        ("buffer_bytes", ctypes.c_uint64),
        ("overhead_bytes", ctypes.c_uint64),
        ("total_bytes", ctypes.c_uint64),
        ("host_bytes", ctypes.c_uint64),
        ("kv_bytes_per_token", ctypes.c_uint64),
        # appended: the peak by phase
        ("forward_bytes", ctypes.c_uint64),
        ("backward_bytes", ctypes.c_uint64),
        ("step_bytes", ctypes.c_uint64),
        ("peak_phase", ctypes.c_int),
        ("allocated_bytes", ctypes.c_uint64),
        ("reserved_bytes", ctypes.c_uint64),
        ("peak_bytes", ctypes.c_uint64),
    ]


class hwfit_shard_out(ctypes.Structure):
    _fields_ = [
        ("layout", hwfit_layout),
        ("micro_batches", ctypes.c_uint64),
        ("batch_per_replica", ctypes.c_uint64),
        ("stages", ctypes.c_uint32),
        ("worst_stage", ctypes.c_uint32),
        ("worst", hwfit_shard_card),
        ("capacity_bytes", ctypes.c_uint64),
        ("usable_bytes", ctypes.c_uint64),
        ("headroom_bytes", ctypes.c_double),
        ("gpu_fits", ctypes.c_int),
        ("host_bytes", ctypes.c_uint64),
        ("host_usable_bytes", ctypes.c_uint64),
        ("host_checked", ctypes.c_int),
        ("host_fits", ctypes.c_int),
        ("fits", ctypes.c_int),
        ("kv_tokens", ctypes.c_uint64),
        ("total_bytes", ctypes.c_uint64),
    ]


class hwfit_shard_space(ctypes.Structure):
    _fields_ = [
        ("tp", ctypes.c_uint32),
        ("pp", ctypes.c_uint32),
        ("dp", ctypes.c_uint32),
        ("cp", ctypes.c_uint32),
        ("ep", ctypes.c_uint32),
        ("etp", ctypes.c_uint32),
        ("virtual_stages", ctypes.c_uint32),
        ("max_virtual_stages", ctypes.c_uint32),
        ("sequence_parallel", ctypes.c_int),
        ("zero_stage", ctypes.c_int),
        ("offload", ctypes.c_int),
        ("recompute", ctypes.c_int),
        ("micro_batch", ctypes.c_uint64),
        ("max_micro_batch", ctypes.c_uint64),
        ("global_batch", ctypes.c_uint64),
        ("uneven_layers", ctypes.c_int),
        ("include_unfit", ctypes.c_int),
    ]


class hwfit_shard_iter(ctypes.Structure):
    _fields_ = [
        ("model", ctypes.POINTER(hwfit_model)),
        ("in_", ctypes.POINTER(hwfit_shard_in)),
        ("space", hwfit_shard_space),
        ("value", ctypes.c_uint64 * 10),
        ("kinds", ctypes.c_uint32 * 2),
        ("state", ctypes.c_int),
        ("visited", ctypes.c_uint64),
    ]


class hwfit_shard_result(ctypes.Structure):
    _fields_ = [
        ("layout", hwfit_layout),
        ("worst_stage", ctypes.c_uint32),
        ("per_gpu_bytes", ctypes.c_uint64),
        ("headroom_bytes", ctypes.c_double),
        ("host_bytes", ctypes.c_uint64),
        ("kv_tokens", ctypes.c_uint64),
        ("fits", ctypes.c_int),
        ("score", ctypes.c_double),
    ]


class hwfit_shard_search_out(ctypes.Structure):
    _fields_ = [
        ("visited", ctypes.c_uint64),
        ("valid", ctypes.c_uint64),
        ("fitting", ctypes.c_uint64),
        ("count", ctypes.c_size_t),
    ]


_model_p = ctypes.POINTER(hwfit_model)
_shard_in_p = ctypes.POINTER(hwfit_shard_in)
_space_p = ctypes.POINTER(hwfit_shard_space)

# void hwfit_layout_init(hwfit_layout *layout);
hwfit_layout_init = _fn("hwfit_layout_init", None, [ctypes.POINTER(hwfit_layout)])
# void hwfit_shard_init(hwfit_shard_in *in);
hwfit_shard_init = _fn("hwfit_shard_init", None, [_shard_in_p])
# void hwfit_shard_space_init(hwfit_shard_space *space);
hwfit_shard_space_init = _fn("hwfit_shard_space_init", None, [_space_p])
# hwfit_status hwfit_shard_check(const hwfit_model *model, const hwfit_shard_in *in,
#                                hwfit_shard_reason *reason);
hwfit_shard_check = _fn("hwfit_shard_check", ctypes.c_int, [_model_p, _shard_in_p, c_int_p])
# hwfit_status hwfit_shard_validate(const hwfit_model *model, const hwfit_shard_in *in,
#                                   hwfit_problem *problem);
hwfit_shard_validate = _fn("hwfit_shard_validate", ctypes.c_int,
                           [_model_p, _shard_in_p, ctypes.POINTER(hwfit_problem)])
# const char *hwfit_shard_reason_name(hwfit_shard_reason reason);
hwfit_shard_reason_name = _fn("hwfit_shard_reason_name", ctypes.c_char_p, [ctypes.c_int])
# const char *hwfit_shard_reason_str(hwfit_shard_reason reason);
hwfit_shard_reason_str = _fn("hwfit_shard_reason_str", ctypes.c_char_p, [ctypes.c_int])
# hwfit_status hwfit_shard_offload_parse(const char *text, unsigned *offload);
hwfit_shard_offload_parse = _fn("hwfit_shard_offload_parse", ctypes.c_int,
                                [ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint)])
# hwfit_status hwfit_shard_estimate(const hwfit_model *model, const hwfit_shard_in *in,
#                                   hwfit_shard_out *out);
hwfit_shard_estimate = _fn("hwfit_shard_estimate", ctypes.c_int,
                           [_model_p, _shard_in_p, ctypes.POINTER(hwfit_shard_out)])
# hwfit_status hwfit_shard_card_at(const hwfit_model *model, const hwfit_shard_in *in,
#                                  uint32_t stage, hwfit_shard_card *card);
hwfit_shard_card_at = _fn("hwfit_shard_card_at", ctypes.c_int,
                          [_model_p, _shard_in_p, ctypes.c_uint32,
                           ctypes.POINTER(hwfit_shard_card)])
# hwfit_status hwfit_shard_iter_init(hwfit_shard_iter *iter, const hwfit_model *model,
#                                    const hwfit_shard_in *in, const hwfit_shard_space *space);
hwfit_shard_iter_init = _fn("hwfit_shard_iter_init", ctypes.c_int,
                            [ctypes.POINTER(hwfit_shard_iter), _model_p, _shard_in_p, _space_p])
# int hwfit_shard_iter_next(hwfit_shard_iter *iter, hwfit_layout *layout);
hwfit_shard_iter_next = _fn("hwfit_shard_iter_next", ctypes.c_int,
                            [ctypes.POINTER(hwfit_shard_iter), ctypes.POINTER(hwfit_layout)])
# hwfit_status hwfit_shard_search(const hwfit_model *model, const hwfit_shard_in *in,
#                                 const hwfit_shard_space *space, hwfit_shard_result *results,
#                                 size_t capacity, hwfit_shard_search_out *summary);
hwfit_shard_search = _fn("hwfit_shard_search", ctypes.c_int,
                         [_model_p, _shard_in_p, _space_p, ctypes.POINTER(hwfit_shard_result),
                          ctypes.c_size_t, ctypes.POINTER(hwfit_shard_search_out)])
# hwfit_status hwfit_shard_min_gpus(const hwfit_model *model, const hwfit_shard_in *in,
#                                   const hwfit_shard_space *space, uint32_t max_gpus,
#                                   uint32_t *gpus, hwfit_layout *layout);
hwfit_shard_min_gpus = _fn("hwfit_shard_min_gpus", ctypes.c_int,
                           [_model_p, _shard_in_p, _space_p, ctypes.c_uint32,
                            ctypes.POINTER(ctypes.c_uint32), ctypes.POINTER(hwfit_layout)])
# hwfit_status hwfit_shard_max_context(const hwfit_model *model, const hwfit_shard_in *in,
#                                      uint64_t limit, uint64_t *context);
hwfit_shard_max_context = _fn("hwfit_shard_max_context", ctypes.c_int,
                              [_model_p, _shard_in_p, ctypes.c_uint64, c_uint64_p])
# hwfit_status hwfit_shard_max_batch(const hwfit_model *model, const hwfit_shard_in *in,
#                                    uint64_t limit, uint64_t *batch);
hwfit_shard_max_batch = _fn("hwfit_shard_max_batch", ctypes.c_int,
                            [_model_p, _shard_in_p, ctypes.c_uint64, c_uint64_p])

# ---- perf.h --------------------------------------------------------------------------

# enum hwfit_perf_precision
HWFIT_PERF_PRECISION_AUTO = 0
HWFIT_PERF_PRECISION_TF32 = 1
HWFIT_PERF_PRECISION_BF16 = 2
HWFIT_PERF_PRECISION_FP8 = 3
HWFIT_PERF_PRECISION_FP4 = 4
HWFIT_PERF_PRECISION_INT8 = 5
# enum hwfit_perf_bound
HWFIT_PERF_BOUND_MEMORY = 0
HWFIT_PERF_BOUND_COMPUTE = 1
# enum hwfit_perf_rank
HWFIT_PERF_RANK_TRAINING_RATE = 0
HWFIT_PERF_RANK_STEP_TIME = 1
HWFIT_PERF_RANK_DECODE_RATE = 2


class hwfit_perf_in(ctypes.Structure):
    _fields_ = [
        ("shard", hwfit_shard_in),
        ("topology", hwfit_topology),
        ("memory_bandwidth_bytes_per_s", ctypes.c_double),
        ("tf32_flop_per_s", ctypes.c_double),
        ("bf16_flop_per_s", ctypes.c_double),
        ("fp8_flop_per_s", ctypes.c_double),
        ("fp4_flop_per_s", ctypes.c_double),
        ("int8_op_per_s", ctypes.c_double),
        ("precision", ctypes.c_int),
        ("output_tokens", ctypes.c_uint64),
        ("prefill_efficiency", ctypes.c_double),
        ("decode_compute_efficiency", ctypes.c_double),
        ("memory_efficiency", ctypes.c_double),
        ("training_efficiency", ctypes.c_double),
        ("step_overhead_s", ctypes.c_double),
        ("tp_overlap", ctypes.c_double),
        ("pp_overlap", ctypes.c_double),
        ("dp_overlap", ctypes.c_double),
        ("ep_overlap", ctypes.c_double),
        ("target_tokens_per_s", ctypes.c_double),
    ]


class hwfit_perf_out(ctypes.Structure):
    _fields_ = [
        ("shard", hwfit_shard_out),
        ("precision", ctypes.c_int),
        ("peak_flop_per_s", ctypes.c_double),
        ("prefill_flop", ctypes.c_double),
        ("prefill_s", ctypes.c_double),
        ("prefill_compute_s", ctypes.c_double),
        ("prefill_memory_s", ctypes.c_double),
        ("prefill_comm_s", ctypes.c_double),
        ("prefill_tokens_per_s", ctypes.c_double),
        ("decode_context", ctypes.c_uint64),
        ("time_per_output_token_s", ctypes.c_double),
        ("decode_tokens_per_s", ctypes.c_double),
        ("decode_compute_s", ctypes.c_double),
        ("decode_memory_s", ctypes.c_double),
        ("decode_comm_s", ctypes.c_double),
        ("decode_bytes", ctypes.c_double),
        ("decode_flop", ctypes.c_double),
        ("bound", ctypes.c_int),
        ("compute_bound_batch", ctypes.c_uint64),
        ("offline_tokens_per_s", ctypes.c_double),
        ("target_batch", ctypes.c_uint64),
        ("target_fits", ctypes.c_int),
        ("step_time_s", ctypes.c_double),
        ("step_compute_s", ctypes.c_double),
        ("bubble_s", ctypes.c_double),
        ("tp_comm_s", ctypes.c_double),
        ("pp_comm_s", ctypes.c_double),
        ("dp_comm_s", ctypes.c_double),
        ("ep_comm_s", ctypes.c_double),
        ("offload_s", ctypes.c_double),
        ("tokens_per_s", ctypes.c_double),
        ("model_flop_per_step", ctypes.c_double),
        ("hardware_flop_per_step", ctypes.c_double),
        ("mfu", ctypes.c_double),
        ("hfu", ctypes.c_double),
    ]


class hwfit_perf_result(ctypes.Structure):
    _fields_ = [
        ("shard", hwfit_shard_result),
        ("step_time_s", ctypes.c_double),
        ("tokens_per_s", ctypes.c_double),
        ("mfu", ctypes.c_double),
    ]


_perf_in_p = ctypes.POINTER(hwfit_perf_in)

# void hwfit_perf_init(hwfit_perf_in *in);
hwfit_perf_init = _fn("hwfit_perf_init", None, [_perf_in_p])
# hwfit_status hwfit_perf_set_gpu(hwfit_perf_in *in, const hwfit_gpu *gpu);
hwfit_perf_set_gpu = _fn("hwfit_perf_set_gpu", ctypes.c_int, [_perf_in_p, hwfit_gpu_p])
# hwfit_status hwfit_perf_estimate(const hwfit_model *model, const hwfit_perf_in *in,
#                                  hwfit_perf_out *out);
hwfit_perf_estimate = _fn("hwfit_perf_estimate", ctypes.c_int,
                          [_model_p, _perf_in_p, ctypes.POINTER(hwfit_perf_out)])
# hwfit_status hwfit_perf_validate(const hwfit_model *model, const hwfit_perf_in *in,
#                                  hwfit_problem *problem);
hwfit_perf_validate = _fn("hwfit_perf_validate", ctypes.c_int,
                          [_model_p, _perf_in_p, ctypes.POINTER(hwfit_problem)])
# hwfit_status hwfit_perf_plan(const hwfit_model *model, const hwfit_perf_in *in,
#                              const hwfit_shard_space *space, hwfit_perf_result *results,
#                              size_t capacity, hwfit_shard_search_out *summary);
hwfit_perf_plan = _fn("hwfit_perf_plan", ctypes.c_int,
                      [_model_p, _perf_in_p, _space_p, ctypes.POINTER(hwfit_perf_result),
                       ctypes.c_size_t, ctypes.POINTER(hwfit_shard_search_out)])
# const char *hwfit_perf_precision_name(hwfit_perf_precision precision);
hwfit_perf_precision_name = _fn("hwfit_perf_precision_name", ctypes.c_char_p, [ctypes.c_int])
# hwfit_status hwfit_perf_precision_from_name(const char *name,
#                                             hwfit_perf_precision *precision);
hwfit_perf_precision_from_name = _fn("hwfit_perf_precision_from_name", ctypes.c_int,
                                     [ctypes.c_char_p, c_int_p])
# const char *hwfit_perf_bound_name(hwfit_perf_bound bound);
hwfit_perf_bound_name = _fn("hwfit_perf_bound_name", ctypes.c_char_p, [ctypes.c_int])
# hwfit_status hwfit_perf_plan_rank(const hwfit_perf_in *in, const hwfit_shard_space *space,
#                                   hwfit_perf_rank *rank);
hwfit_perf_plan_rank = _fn("hwfit_perf_plan_rank", ctypes.c_int,
                           [_perf_in_p, _space_p, c_int_p])
# const char *hwfit_perf_rank_name(hwfit_perf_rank rank);
hwfit_perf_rank_name = _fn("hwfit_perf_rank_name", ctypes.c_char_p, [ctypes.c_int])

# ---- node.h --------------------------------------------------------------------------

HWFIT_NODE_TEXT_SIZE = 64
HWFIT_NODE_CURRENCY_SIZE = 8
HWFIT_NODE_MAX_COMPONENTS = 16
HWFIT_NODE_MAX_GPUS = 128
HWFIT_NODE_MAX_NODES = 65536

# enum hwfit_node_cooling
HWFIT_NODE_COOLING_AIR = 0
HWFIT_NODE_COOLING_LIQUID = 1


class hwfit_node_gpus(ctypes.Structure):
    _fields_ = [
        ("model", ctypes.c_char * HWFIT_NODE_TEXT_SIZE),
        ("count", ctypes.c_uint64),
        ("power_limit_w", ctypes.c_double),
        ("price", ctypes.c_double),
    ]


class hwfit_node_cpu(ctypes.Structure):
    _fields_ = [
        ("model", ctypes.c_char * HWFIT_NODE_TEXT_SIZE),
        ("cores_per_socket", ctypes.c_uint64),
        ("threads_per_socket", ctypes.c_uint64),
        ("boost_clock_hz", ctypes.c_double),
        ("tdp_w", ctypes.c_double),
    ]


class hwfit_node_memory(ctypes.Structure):
    _fields_ = [
        ("dimm_bytes", ctypes.c_double),
        ("dimm_w", ctypes.c_double),
        ("ecc", ctypes.c_int),
        ("registered", ctypes.c_int),
    ]


class hwfit_node_storage(ctypes.Structure):
    _fields_ = [
        ("raid", hwfit_raid_in),
        ("raid_stated", ctypes.c_int),
        ("drive_w", ctypes.c_double),
    ]


class hwfit_node_nas(ctypes.Structure):
    _fields_ = [
        ("capacity_bytes", ctypes.c_double),
        ("transfer", hwfit_transfer_in),
    ]


class hwfit_node_network(ctypes.Structure):
    _fields_ = [
        ("link", hwfit_link_in),
        ("adapters", ctypes.c_uint64),
        ("adapter_w", ctypes.c_double),
    ]


class hwfit_node_power(ctypes.Structure):
    _fields_ = [
        ("psu", hwfit_psu_in),
        ("gpu_transient_factor", ctypes.c_double),
        ("switch_w", ctypes.c_double),
        ("extra", hwfit_power_component * HWFIT_NODE_MAX_COMPONENTS),
        ("extra_count", ctypes.c_uint64),
    ]


class hwfit_node_chassis(ctypes.Structure):
    _fields_ = [
        ("rack_units", ctypes.c_uint64),
        ("cooling", ctypes.c_int),
        ("thermal", hwfit_thermal_in),
    ]


class hwfit_node_costs(ctypes.Structure):
    _fields_ = [
        ("currency", ctypes.c_char * HWFIT_NODE_CURRENCY_SIZE),
        ("energy", hwfit_energy_in),
        ("tco", hwfit_tco_in),
    ]


class hwfit_node(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char * HWFIT_NODE_TEXT_SIZE),
        ("nodes", ctypes.c_uint64),
        ("gpu", hwfit_node_gpus),
        ("cpu", hwfit_node_cpu),
        ("memory", hwfit_node_memory),
        ("host", hwfit_host_in),
        ("topology", hwfit_topology),
        ("storage", hwfit_node_storage),
        ("nas", hwfit_node_nas),
        ("network", hwfit_node_network),
        ("power", hwfit_node_power),
        ("chassis", hwfit_node_chassis),
        ("costs", hwfit_node_costs),
    ]


class hwfit_node_eval(ctypes.Structure):
    _fields_ = [
        ("gpu", ctypes.POINTER(hwfit_gpu)),
        ("gpus", ctypes.c_uint64),
        ("total_gpus", ctypes.c_uint64),
        ("gpu_power_w", ctypes.c_double),
        ("vram_bytes", ctypes.c_double),
        ("total_vram_bytes", ctypes.c_double),
        ("ram_bytes", ctypes.c_double),
        ("cores", ctypes.c_uint64),
        ("threads", ctypes.c_uint64),
        ("gpu_link", hwfit_link_out),
        ("gpu_link_bifurcated", hwfit_link_out),
        ("topology", hwfit_topology),
        ("allreduce_evaluated", ctypes.c_int),
        ("allreduce_in", hwfit_collective_in),
        ("allreduce", hwfit_collective_out),
        ("host_in", hwfit_host_in),
        ("host", hwfit_host_out),
        ("storage_evaluated", ctypes.c_int),
        ("raid", hwfit_raid_out),
        ("network_evaluated", ctypes.c_int),
        ("network", hwfit_link_out),
        ("nas_evaluated", ctypes.c_int),
        ("nas_in", hwfit_transfer_in),
        ("nas", hwfit_transfer_out),
        ("budget_in", hwfit_power_budget_in),
        ("budget", hwfit_power_budget_out),
        ("psu_in", hwfit_psu_in),
        ("psu", hwfit_psu_out),
        ("thermal_in", hwfit_thermal_in),
        ("thermal", hwfit_thermal_out),
        ("energy_in", hwfit_energy_in),
        ("energy", hwfit_energy_out),
        ("tco_in", hwfit_tco_in),
        ("tco", hwfit_tco_out),
    ]


_node_p = ctypes.POINTER(hwfit_node)
# void hwfit_node_init(hwfit_node *node);
hwfit_node_init = _fn("hwfit_node_init", None, [_node_p])
# hwfit_status hwfit_node_check(const hwfit_node *node, hwfit_error *err);
hwfit_node_check = _fn("hwfit_node_check", ctypes.c_int, [_node_p, ctypes.POINTER(hwfit_error)])
# hwfit_status hwfit_node_evaluate(const hwfit_node *node, hwfit_node_eval *out);
hwfit_node_evaluate = _fn("hwfit_node_evaluate", ctypes.c_int,
                          [_node_p, ctypes.POINTER(hwfit_node_eval)])
# hwfit_status hwfit_node_add_power(hwfit_node *node, hwfit_power_component_kind kind,
#                                   uint64_t count, double watts);
hwfit_node_add_power = _fn("hwfit_node_add_power", ctypes.c_int,
                           [_node_p, ctypes.c_int, ctypes.c_uint64, ctypes.c_double])
# const char *hwfit_node_cooling_name(hwfit_node_cooling cooling);
hwfit_node_cooling_name = _fn("hwfit_node_cooling_name", ctypes.c_char_p, [ctypes.c_int])

# ---- assess.h ------------------------------------------------------------------------

HWFIT_FINDING_MAX_FIGURES = 8
HWFIT_FINDING_RULE_SIZE = 64
HWFIT_FINDING_TEXT_SIZE = 400
HWFIT_FIGURE_KEY_SIZE = 40
HWFIT_FIGURE_UNIT_SIZE = 12
HWFIT_WORKLOAD_LABEL_SIZE = 64
HWFIT_ASSESS_MAX_WORKLOADS = 64

# enum hwfit_assess_topic
HWFIT_ASSESS_VRAM = 0
HWFIT_ASSESS_BANDWIDTH = 1
HWFIT_ASSESS_COMPUTE = 2
HWFIT_ASSESS_INTERCONNECT = 3
HWFIT_ASSESS_BIFURCATION = 4
HWFIT_ASSESS_CPU = 5
HWFIT_ASSESS_HOST_RAM = 6
HWFIT_ASSESS_HOST_MEMORY = 7
HWFIT_ASSESS_PCIE_LANES = 8
HWFIT_ASSESS_STORAGE = 9
HWFIT_ASSESS_RAID = 10
HWFIT_ASSESS_NAS = 11
HWFIT_ASSESS_NETWORK = 12
HWFIT_ASSESS_POWER = 13
HWFIT_ASSESS_COOLING = 14
HWFIT_ASSESS_ENERGY = 15

# enum hwfit_finding_kind
HWFIT_FINDING_STRENGTH = 0
HWFIT_FINDING_WEAKNESS = 1
HWFIT_FINDING_INFO = 2


class hwfit_figure(ctypes.Structure):
    _fields_ = [
        ("key", ctypes.c_char * HWFIT_FIGURE_KEY_SIZE),
        ("value", ctypes.c_double),
        ("unit", ctypes.c_char * HWFIT_FIGURE_UNIT_SIZE),
    ]


class hwfit_finding(ctypes.Structure):
    _fields_ = [
        ("rule", ctypes.c_char * HWFIT_FINDING_RULE_SIZE),
        ("topic", ctypes.c_int),
        ("kind", ctypes.c_int),
        ("workload", ctypes.c_uint32),
        ("figure_count", ctypes.c_uint32),
        ("figures", hwfit_figure * HWFIT_FINDING_MAX_FIGURES),
        ("text", ctypes.c_char * HWFIT_FINDING_TEXT_SIZE),
    ]


class hwfit_assess_workload(ctypes.Structure):
    _fields_ = [
        ("label", ctypes.c_char * HWFIT_WORKLOAD_LABEL_SIZE),
        ("model", ctypes.POINTER(hwfit_model)),
        ("memory", hwfit_memory_in),
    ]


class hwfit_assess_options(ctypes.Structure):
    _fields_ = [
        ("pipeline_bytes_per_s", ctypes.c_double),
        ("allreduce_bytes", ctypes.c_double),
        ("gpu_utilization", ctypes.c_double),
        ("checkpoints_to_keep", ctypes.c_uint64),
        ("max_time_per_output_token_s", ctypes.c_double),
        ("max_comm_share", ctypes.c_double),
    ]


# void hwfit_assess_workload_init(hwfit_assess_workload *workload);
hwfit_assess_workload_init = _fn("hwfit_assess_workload_init", None,
                                 [ctypes.POINTER(hwfit_assess_workload)])
# void hwfit_assess_options_init(hwfit_assess_options *options);
hwfit_assess_options_init = _fn("hwfit_assess_options_init", None,
                                [ctypes.POINTER(hwfit_assess_options)])
# size_t hwfit_assess_max_findings(size_t workloads);
hwfit_assess_max_findings = _fn("hwfit_assess_max_findings", ctypes.c_size_t, [ctypes.c_size_t])
# hwfit_status hwfit_assess(const hwfit_node *node, const hwfit_assess_workload *workloads,
#                           size_t workload_count, const hwfit_assess_options *options,
#                           hwfit_finding *findings, size_t capacity, size_t *count);
hwfit_assess = _fn("hwfit_assess", ctypes.c_int,
                   [_node_p, ctypes.POINTER(hwfit_assess_workload), ctypes.c_size_t,
                    ctypes.POINTER(hwfit_assess_options), ctypes.POINTER(hwfit_finding),
                    ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)])
# const char *hwfit_assess_topic_name(hwfit_assess_topic topic);
hwfit_assess_topic_name = _fn("hwfit_assess_topic_name", ctypes.c_char_p, [ctypes.c_int])
# const char *hwfit_finding_kind_name(hwfit_finding_kind kind);
hwfit_finding_kind_name = _fn("hwfit_finding_kind_name", ctypes.c_char_p, [ctypes.c_int])
# hwfit_status hwfit_finding_figure(const hwfit_finding *finding, const char *key, double *value);
hwfit_finding_figure = _fn("hwfit_finding_figure", ctypes.c_int,
                           [ctypes.POINTER(hwfit_finding), ctypes.c_char_p, c_double_p])
# hwfit_status hwfit_figure_format(const hwfit_figure *figure, char *buf, size_t size);
hwfit_figure_format = _fn("hwfit_figure_format", ctypes.c_int,
                          [ctypes.POINTER(hwfit_figure), ctypes.c_char_p, ctypes.c_size_t])

# ---- node_spec.h ---------------------------------------------------------------------

HWFIT_NODE_SPEC_MAX_BYTES = 1024 * 1024
HWFIT_WORKLOAD_PATH_SIZE = 1024

# hwfit_status hwfit_node_parse(const char *text, size_t length, const char *name,
#                               hwfit_node *out, hwfit_error *err);
hwfit_node_parse = _fn("hwfit_node_parse", ctypes.c_int,
                       [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, _node_p,
                        ctypes.POINTER(hwfit_error)])
# hwfit_status hwfit_node_load(const char *path, hwfit_node *out, hwfit_error *err);
hwfit_node_load = _fn("hwfit_node_load", ctypes.c_int,
                      [ctypes.c_char_p, _node_p, ctypes.POINTER(hwfit_error)])
# hwfit_status hwfit_assess_workload_parse(const char *text, const char *models_dir,
#                                          hwfit_assess_workload *workload,
#                                          hwfit_model *model, hwfit_error *err);
hwfit_assess_workload_parse = _fn("hwfit_assess_workload_parse", ctypes.c_int,
                                  [ctypes.c_char_p, ctypes.c_char_p,
                                   ctypes.POINTER(hwfit_assess_workload),
                                   ctypes.POINTER(hwfit_model), ctypes.POINTER(hwfit_error)])

# ---- batch entry points (memory.h, shard.h, collective.h) ----------------------------

# hwfit_status hwfit_memory_estimate_batch(const hwfit_model *model, const hwfit_memory_in *ins,
#                                          size_t n, hwfit_memory_out *outs,
#                                          hwfit_status *statuses);
hwfit_memory_estimate_batch = _fn("hwfit_memory_estimate_batch", ctypes.c_int,
                                  [ctypes.POINTER(hwfit_model), ctypes.POINTER(hwfit_memory_in),
                                   ctypes.c_size_t, ctypes.POINTER(hwfit_memory_out), c_int_p])
# hwfit_status hwfit_shard_estimate_batch(const hwfit_model *model, const hwfit_shard_in *ins,
#                                         size_t n, hwfit_shard_out *outs,
#                                         hwfit_status *statuses);
hwfit_shard_estimate_batch = _fn("hwfit_shard_estimate_batch", ctypes.c_int,
                                 [ctypes.POINTER(hwfit_model), ctypes.POINTER(hwfit_shard_in),
                                  ctypes.c_size_t, ctypes.POINTER(hwfit_shard_out), c_int_p])
# hwfit_status hwfit_collective_estimate_batch(const hwfit_collective_in *ins, size_t n,
#                                              hwfit_collective_out *outs,
#                                              hwfit_status *statuses);
hwfit_collective_estimate_batch = _fn("hwfit_collective_estimate_batch", ctypes.c_int,
                                      [ctypes.POINTER(hwfit_collective_in), ctypes.c_size_t,
                                       ctypes.POINTER(hwfit_collective_out), c_int_p])


# ---- chart.h -------------------------------------------------------------------------

HWFIT_CHART_MAX_BARS = 64
HWFIT_CHART_MAX_SERIES = 8
HWFIT_CHART_MAX_POINTS = 64

HWFIT_CHART_BUSBW = 0
HWFIT_CHART_ALGBW = 1
HWFIT_CHART_TIME = 2


class hwfit_chart_options(ctypes.Structure):
    _fields_ = [
        ("title", ctypes.c_char_p),
        ("width_px", ctypes.c_double),
        ("height_px", ctypes.c_double),
    ]


class hwfit_chart_collective_in(ctypes.Structure):
    _fields_ = [
        ("series_count", ctypes.c_size_t),
        ("series", ctypes.POINTER(hwfit_collective_in)),
        ("names", c_char_p_p),
        ("min_bytes", ctypes.c_double),
        ("max_bytes", ctypes.c_double),
        ("metric", ctypes.c_int),
        ("options", hwfit_chart_options),
    ]


_chart_options_p = ctypes.POINTER(hwfit_chart_options)

# void hwfit_chart_options_init(hwfit_chart_options *opt);
hwfit_chart_options_init = _fn("hwfit_chart_options_init", None, [_chart_options_p])
# hwfit_status hwfit_chart_memory(const hwfit_model *model, const hwfit_shard_in *in,
#                                 const hwfit_chart_options *opt, char *buf, size_t size,
#                                 size_t *needed);
hwfit_chart_memory = _fn("hwfit_chart_memory", ctypes.c_int,
                         [_model_p, _shard_in_p, _chart_options_p, ctypes.c_char_p,
                          ctypes.c_size_t, c_size_t_p])
# void hwfit_chart_collective_init(hwfit_chart_collective_in *in);
hwfit_chart_collective_init = _fn("hwfit_chart_collective_init", None,
                                  [ctypes.POINTER(hwfit_chart_collective_in)])
# hwfit_status hwfit_chart_collective(const hwfit_chart_collective_in *in, char *buf,
#                                     size_t size, size_t *needed);
hwfit_chart_collective = _fn("hwfit_chart_collective", ctypes.c_int,
                             [ctypes.POINTER(hwfit_chart_collective_in), ctypes.c_char_p,
                              ctypes.c_size_t, c_size_t_p])
# hwfit_status hwfit_chart_power(const hwfit_power_budget_in *budget, const hwfit_psu_in *psu,
#                                const hwfit_chart_options *opt, char *buf, size_t size,
#                                size_t *needed);
hwfit_chart_power = _fn("hwfit_chart_power", ctypes.c_int,
                        [ctypes.POINTER(hwfit_power_budget_in), ctypes.POINTER(hwfit_psu_in),
                         _chart_options_p, ctypes.c_char_p, ctypes.c_size_t, c_size_t_p])
# hwfit_status hwfit_chart_raid(const hwfit_raid_in *in, const hwfit_chart_options *opt,
#                               char *buf, size_t size, size_t *needed);
hwfit_chart_raid = _fn("hwfit_chart_raid", ctypes.c_int,
                       [ctypes.POINTER(hwfit_raid_in), _chart_options_p, ctypes.c_char_p,
                        ctypes.c_size_t, c_size_t_p])
# const char *hwfit_chart_metric_name(hwfit_chart_metric metric);
hwfit_chart_metric_name = _fn("hwfit_chart_metric_name", ctypes.c_char_p, [ctypes.c_int])
# hwfit_status hwfit_chart_metric_from_name(const char *name, hwfit_chart_metric *metric);
hwfit_chart_metric_from_name = _fn("hwfit_chart_metric_from_name", ctypes.c_int,
                                   [ctypes.c_char_p, c_int_p])


# ---- report.h ------------------------------------------------------------------------


class hwfit_report_options(ctypes.Structure):
    _fields_ = [
        ("title", ctypes.c_char_p),
        ("assess", hwfit_assess_options),
        ("charts", ctypes.c_int),
        ("chart_width_px", ctypes.c_double),
        ("chart_height_px", ctypes.c_double),
    ]


# void hwfit_report_options_init(hwfit_report_options *opt);
hwfit_report_options_init = _fn("hwfit_report_options_init", None,
                                [ctypes.POINTER(hwfit_report_options)])
# hwfit_status hwfit_report_html(const hwfit_node *node, const hwfit_assess_workload *workloads,
#                                size_t workload_count, const hwfit_finding *findings,
#                                size_t finding_count, const hwfit_report_options *opt,
#                                char *buf, size_t size, size_t *needed);
hwfit_report_html = _fn("hwfit_report_html", ctypes.c_int,
                        [ctypes.POINTER(hwfit_node), ctypes.POINTER(hwfit_assess_workload),
                         ctypes.c_size_t, ctypes.POINTER(hwfit_finding), ctypes.c_size_t,
                         ctypes.POINTER(hwfit_report_options), ctypes.c_char_p, ctypes.c_size_t,
                         c_size_t_p])
# const char *hwfit_report_topic_title(hwfit_assess_topic topic);
hwfit_report_topic_title = _fn("hwfit_report_topic_title", ctypes.c_char_p, [ctypes.c_int])

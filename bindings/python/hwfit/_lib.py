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
# void hwfit_psu_init(hwfit_psu_in *in);
hwfit_psu_init = _fn("hwfit_psu_init", None, [ctypes.POINTER(hwfit_psu_in)])
# hwfit_status hwfit_psu_evaluate(const hwfit_psu_in *in, hwfit_psu_out *out);
hwfit_psu_evaluate = _fn("hwfit_psu_evaluate", ctypes.c_int,
                         [ctypes.POINTER(hwfit_psu_in), ctypes.POINTER(hwfit_psu_out)])
# const char *hwfit_cooling_name(hwfit_cooling cooling);
hwfit_cooling_name = _fn("hwfit_cooling_name", ctypes.c_char_p, [ctypes.c_int])
# void hwfit_thermal_init(hwfit_thermal_in *in);
hwfit_thermal_init = _fn("hwfit_thermal_init", None, [ctypes.POINTER(hwfit_thermal_in)])
# hwfit_status hwfit_thermal_evaluate(const hwfit_thermal_in *in, hwfit_thermal_out *out);
hwfit_thermal_evaluate = _fn("hwfit_thermal_evaluate", ctypes.c_int,
                             [ctypes.POINTER(hwfit_thermal_in),
                              ctypes.POINTER(hwfit_thermal_out)])
# hwfit_status hwfit_price_per_kwh_parse(const char *text, double *price_per_kwh);
hwfit_price_per_kwh_parse = _fn("hwfit_price_per_kwh_parse", ctypes.c_int,
                                [ctypes.c_char_p, c_double_p])
# void hwfit_energy_init(hwfit_energy_in *in);
hwfit_energy_init = _fn("hwfit_energy_init", None, [ctypes.POINTER(hwfit_energy_in)])
# hwfit_status hwfit_energy_evaluate(const hwfit_energy_in *in, hwfit_energy_out *out);
hwfit_energy_evaluate = _fn("hwfit_energy_evaluate", ctypes.c_int,
                            [ctypes.POINTER(hwfit_energy_in), ctypes.POINTER(hwfit_energy_out)])
# void hwfit_tco_init(hwfit_tco_in *in);
hwfit_tco_init = _fn("hwfit_tco_init", None, [ctypes.POINTER(hwfit_tco_in)])
# hwfit_status hwfit_tco_evaluate(const hwfit_tco_in *in, hwfit_tco_out *out);
hwfit_tco_evaluate = _fn("hwfit_tco_evaluate", ctypes.c_int,
                         [ctypes.POINTER(hwfit_tco_in), ctypes.POINTER(hwfit_tco_out)])

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
# hwfit_status hwfit_link_parse(const char *text, hwfit_link_in *in);
hwfit_link_parse = _fn("hwfit_link_parse", ctypes.c_int,
                       [ctypes.c_char_p, ctypes.POINTER(hwfit_link_in)])
# const char *hwfit_link_kind_name(hwfit_link_kind kind);
hwfit_link_kind_name = _fn("hwfit_link_kind_name", ctypes.c_char_p, [ctypes.c_int])

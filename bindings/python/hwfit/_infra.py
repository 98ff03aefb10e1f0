"""Storage, power and host sizing: the `raid`, `transfer`, `power` and `host` subcommands.

Each function takes the options of the CLI subcommand of the same name as keyword arguments
(dashes become underscores; `class` may also be written `class_`) and returns a dict with
exactly the keys and values of its --json output. Sizes, rates, powers and times accept
numbers in base units or strings with units ("15.36TB", "14GB/s", "3200W", "2e6h").
Every number comes from the C library; this module only converts types and arranges keys.
"""
import ctypes as _ct

from . import _lib
from ._args import count as _u64, fail as _fail, quantity as _qty


def _num(value, name):
    return _qty(value, _lib.HWFIT_UNIT_NONE, name)


__all__ = ["raid", "raid_min_drives", "transfer", "power", "psu_efficiency", "host"]


def _name(fn, value):
    return fn(value).decode()


# ---- raid and transfer ----------------------------------------------------------------

def _raid_inputs(level, drives, drive_size, spares=None, groups=None, copies=None,
                 **fields):
    """The hwfit_raid_in of `hwfit raid` (and its --svg chart) from keyword arguments;
    `fields` are the optional rate, reliability and ZFS options of raid()."""
    B, R, S, N = (_lib.HWFIT_UNIT_BYTES, _lib.HWFIT_UNIT_BYTES_PER_S, _lib.HWFIT_UNIT_SECONDS,
                  _lib.HWFIT_UNIT_NONE)
    i = _lib.hwfit_raid_in()
    _lib.hwfit_raid_init(_ct.byref(i))
    i.drives = _u64(drives, "drives")
    i.drive_bytes = _qty(drive_size, B, "drive_size")
    for name, field, unit in (
            ("recordsize", "record_bytes", B), ("sector", "sector_bytes", B),
            ("fill", "fill_fraction", N), ("read_rate", "drive_read_bytes_per_s", R),
            ("write_rate", "drive_write_bytes_per_s", R), ("read_iops", "drive_read_iops", N),
            ("write_iops", "drive_write_iops", N), ("read_fraction", "read_fraction", N),
            ("rebuild_rate", "rebuild_bytes_per_s", R), ("replace_delay", "replace_delay_s", S),
            ("ber", "bit_error_rate", N), ("mttf", "drive_mttf_s", S),
            ("mission", "mission_s", S)):
        if fields.get(name) is not None:
            setattr(i, field, _qty(fields[name], unit, name))
    if spares is not None:
        i.spares = _u64(spares, "spares")
    if not isinstance(level, str):
        _fail(f"level: expected a name such as '6' or 'raidz2', got {level!r}")
    _lib.check(_lib.hwfit_raid_level_parse(level.encode(), _ct.byref(i.layout)), level)
    if groups is not None:
        i.layout.groups = _u64(groups, "groups")
    if copies is not None:
        i.layout.copies = _u64(copies, "copies")
    return i


def raid(level, drives, drive_size, spares=None, groups=None, copies=None, recordsize=None,
         sector=None, fill=None, read_rate=None, write_rate=None, read_iops=None,
         write_iops=None, read_fraction=None, rebuild_rate=None, replace_delay=None, ber=None,
         mttf=None, mission=None):
    """Same as `hwfit raid ... --json`: capacity, speed, rebuild, URE risk and MTTDL."""
    B = _lib.HWFIT_UNIT_BYTES
    i = _raid_inputs(level, drives, drive_size, spares, groups, copies, recordsize=recordsize,
                     sector=sector, fill=fill, read_rate=read_rate, write_rate=write_rate,
                     read_iops=read_iops, write_iops=write_iops, read_fraction=read_fraction,
                     rebuild_rate=rebuild_rate, replace_delay=replace_delay, ber=ber,
                     mttf=mttf, mission=mission)
    r = _lib.hwfit_raid_out()
    _lib.check_input(_lib.hwfit_raid_evaluate(_ct.byref(i), _ct.byref(r)),
                     _lib.hwfit_raid_validate, _ct.byref(i))
    text = _ct.create_string_buffer(64)
    _lib.check(_lib.hwfit_units_format(r.usable_bytes, B, text, len(text)))
    return {
        "level": _name(_lib.hwfit_raid_level_name, r.level),
        "drives": r.drives, "member_drives": r.member_drives, "spares": i.spares,
        "groups": r.groups, "group_width": r.group_width, "parity": r.parity,
        "draid_data": r.draid_data, "draid_spares": i.layout.draid_spares,
        "tolerated_failures": r.tolerated_failures, "raw_bytes": r.raw_bytes,
        "usable_bytes": r.usable_bytes, "usable_text": text.value.decode(),
        "space_efficiency": r.space_efficiency,
        "allocation_efficiency": r.allocation_efficiency, "slop_bytes": r.slop_bytes,
        "read_bytes_per_s": r.read_bytes_per_s, "write_bytes_per_s": r.write_bytes_per_s,
        "read_iops": r.read_iops, "write_iops": r.write_iops, "mixed_iops": r.mixed_iops,
        "write_penalty": r.write_penalty, "rebuild_bytes": r.rebuild_bytes,
        "rebuild_read_bytes": r.rebuild_read_bytes, "rebuild_s": r.rebuild_s,
        "bit_error_rate": i.bit_error_rate, "ure_probability": r.ure_probability,
        "ure_loss_probability": r.ure_loss_probability, "mttr_s": r.mttr_s,
        "mttdl_s": r.mttdl_s, "mttdl_h": r.mttdl_h, "mission_s": i.mission_s,
        "loss_probability": r.loss_probability, "drive_afr": r.drive_afr,
    }


def raid_min_drives(level):
    """The fewest drives (hot spares not counted) a level name such as "6" accepts."""
    layout = _lib.hwfit_raid_layout()
    _lib.check(_lib.hwfit_raid_level_parse(level.encode(), _ct.byref(layout)), level)
    n = _ct.c_uint64()
    _lib.check(_lib.hwfit_raid_min_drives(_ct.byref(layout), _ct.byref(n)), level)
    return n.value


def transfer(size, rate, transport="local", efficiency=None, backend_rate=None, capacity=None):
    """Same as `hwfit transfer ... --json`: time to move a data set, and whether it fits."""
    i = _lib.hwfit_transfer_in()
    _lib.hwfit_transfer_init(_ct.byref(i))
    i.bytes = _qty(size, _lib.HWFIT_UNIT_BYTES, "size")
    i.rate_bytes_per_s = _qty(rate, _lib.HWFIT_UNIT_BYTES_PER_S, "rate")
    if backend_rate is not None:
        i.backend_bytes_per_s = _qty(backend_rate, _lib.HWFIT_UNIT_BYTES_PER_S, "backend_rate")
    if capacity is not None:
        i.capacity_bytes = _qty(capacity, _lib.HWFIT_UNIT_BYTES, "capacity")
    t = _ct.c_int()
    _lib.check(_lib.hwfit_storage_transport_parse(str(transport).encode(), _ct.byref(t)),
               str(transport))
    i.transport = t.value
    if efficiency is not None:
        field = {_lib.HWFIT_STORAGE_TRANSPORT_NVMEOF_ROCE: "roce_efficiency",
                 _lib.HWFIT_STORAGE_TRANSPORT_NVMEOF_TCP: "tcp_efficiency"}.get(
                     t.value, "local_efficiency")
        setattr(i, field, _num(efficiency, "efficiency"))
    r = _lib.hwfit_transfer_out()
    _lib.check_input(_lib.hwfit_transfer_estimate(_ct.byref(i), _ct.byref(r)),
                     _lib.hwfit_transfer_validate, _ct.byref(i))
    checked = bool(r.capacity_checked)
    return {
        "bytes": i.bytes,
        "transport": _name(_lib.hwfit_storage_transport_name, i.transport),
        "rate_bytes_per_s": i.rate_bytes_per_s, "efficiency": r.efficiency,
        "effective_bytes_per_s": r.effective_bytes_per_s,
        "backend_limited": bool(r.backend_limited), "time_s": r.time_s,
        "capacity_bytes": i.capacity_bytes if checked else None,
        "fits": bool(r.fits) if checked else None,
        "fill_fraction": r.fill_fraction if checked else None,
    }


# ---- power -------------------------------------------------------------------------------

def psu_efficiency(psu_class, load_fraction, table="auto"):
    """Minimum 80 PLUS efficiency of a class ("titanium") at a load fraction (0.5 = 50 %)."""
    c, t, e = _ct.c_int(), _ct.c_int(), _ct.c_double()
    _lib.check(_lib.hwfit_psu_class_parse(str(psu_class).encode(), _ct.byref(c)), str(psu_class))
    _lib.check(_lib.hwfit_psu_table_parse(str(table).encode(), _ct.byref(t)), str(table))
    _lib.check(_lib.hwfit_psu_efficiency(c.value, t.value, float(load_fraction), _ct.byref(e)))
    return e.value


def _psu_inputs(psus, psu_watts, redundant, load, component, transient, peak, headroom,
                peak_ratio, class_, table, efficiency, cold_redundancy, input_voltage,
                low_line_watts):
    """The component budget and PSU inputs of `hwfit power` (and its --svg chart), read
    from keyword arguments: returns (budget_in, psu_in, component strings)."""
    W = _lib.HWFIT_UNIT_WATTS
    b = _lib.hwfit_power_budget_in()
    _lib.hwfit_power_budget_init(_ct.byref(b))
    p = _lib.hwfit_psu_in()
    _lib.hwfit_psu_init(_ct.byref(p))
    p.psus = _u64(psus, "psus")
    p.psu_rating_w = _qty(psu_watts, W, "psu_watts")
    if load is not None:
        p.load_w = _qty(load, W, "load")
    if transient is not None:
        b.gpu_transient_factor = _num(transient, "transient")
    for value, field, unit, name in (
            (peak, "peak_load_w", W, "peak"), (headroom, "headroom_ratio", None, "headroom"),
            (peak_ratio, "peak_ratio", None, "peak_ratio"),
            (efficiency, "fixed_efficiency", None, "efficiency"),
            (input_voltage, "input_voltage_v", None, "input_voltage"),
            (low_line_watts, "psu_low_line_rating_w", W, "low_line_watts")):
        if value is not None:
            setattr(p, field, _qty(value, unit if unit is not None else _lib.HWFIT_UNIT_NONE,
                                   name))
    p.cold_redundancy = 1 if cold_redundancy else 0
    components = [component] if isinstance(component, str) else list(component or [])
    if load is not None and components:
        _fail("give load or component, not both")
    if load is None and not components:
        _fail("load or component is required, e.g. load='6500W'")
    if redundant is not None:
        m = _ct.c_uint64()
        text = str(redundant).encode()
        _lib.check_input(_lib.hwfit_psu_redundancy_parse(text, p.psus, _ct.byref(m)),
                         _lib.hwfit_psu_redundancy_validate, text, p.psus,
                         names={"text": f"redundant {redundant!r}"})
        p.redundant = m.value
    if class_ is not None:
        c = _ct.c_int()
        _lib.check(_lib.hwfit_psu_class_parse(str(class_).encode(), _ct.byref(c)), str(class_))
        p.psu_class = c.value
    if table is not None:
        t = _ct.c_int()
        _lib.check(_lib.hwfit_psu_table_parse(str(table).encode(), _ct.byref(t)), str(table))
        p.table = t.value
    if efficiency is not None and p.psu_class != _lib.HWFIT_POWER_CLASS_NONE:
        _fail("efficiency applies only with class none")
    for text in components:
        c = _lib.hwfit_power_component()
        _lib.check(_lib.hwfit_power_component_parse(str(text).encode(), _ct.byref(c)), text)
        _lib.check(_lib.hwfit_power_budget_add(_ct.byref(b), c.kind, c.count, c.watts), text)
    return b, p, components


def power(psus, psu_watts, redundant=None, load=None, component=None, transient=None,
          peak=None, headroom=None, peak_ratio=None, class_=None, table=None, efficiency=None,
          cold_redundancy=False, input_voltage=None, low_line_watts=None, delta_t=None,
          chassis_per_rack=None, air_marginal_above=None, liquid_above=None, price=None,
          pue=None, duty=None, idle=None, capex=None, opex=None, years=None, discount=None,
          gpus=None, utilization=None, **options):
    """Same as `hwfit power ... --json`: PSUs, wall power, heat, airflow, energy, TCO.

    `component` is one "KIND:COUNT:W" string or a list of them; `class` is the 80 PLUS class
    (pass it as class_="titanium" or **{"class": "titanium"})."""
    if "class" in options:
        class_ = options.pop("class")
    if options:
        _fail(f"unknown option(s): {', '.join(sorted(options))}")
    W = _lib.HWFIT_UNIT_WATTS
    b, p, components = _psu_inputs(psus, psu_watts, redundant, load, component, transient,
                                   peak, headroom, peak_ratio, class_, table, efficiency,
                                   cold_redundancy, input_voltage, low_line_watts)
    th = _lib.hwfit_thermal_in()
    _lib.hwfit_thermal_init(_ct.byref(th))
    en = _lib.hwfit_energy_in()
    _lib.hwfit_energy_init(_ct.byref(en))
    tc = _lib.hwfit_tco_in()
    _lib.hwfit_tco_init(_ct.byref(tc))
    for value, obj, field, unit, name in (
            (delta_t, th, "delta_t_c", None, "delta_t"),
            (air_marginal_above, th, "air_marginal_above_w", W, "air_marginal_above"),
            (liquid_above, th, "liquid_above_w", W, "liquid_above"),
            (pue, en, "pue", None, "pue"), (duty, en, "duty_cycle", None, "duty"),
            (idle, en, "idle_power_w", W, "idle"), (capex, tc, "capex", None, "capex"),
            (opex, tc, "annual_other_cost", None, "opex"),
            (discount, tc, "discount_rate", None, "discount"),
            (utilization, tc, "utilization", None, "utilization")):
        if value is not None:
            setattr(obj, field, _qty(value, unit if unit is not None else _lib.HWFIT_UNIT_NONE,
                                     name))
    if chassis_per_rack is not None:
        th.chassis_per_rack = _u64(chassis_per_rack, "chassis_per_rack")
    if years is not None:
        tc.years = _u64(years, "years")
    if gpus is not None:
        tc.gpus = _u64(gpus, "gpus")
    if price is not None:
        v = _ct.c_double()
        _lib.check(_lib.hwfit_price_per_kwh_parse(str(price).encode(), _ct.byref(v)), str(price))
        en.price_per_kwh = v.value

    result = {}
    if components:
        bo = _lib.hwfit_power_budget_out()
        _lib.check_input(_lib.hwfit_power_budget_evaluate(_ct.byref(b), _ct.byref(bo)),
                         _lib.hwfit_power_budget_validate, _ct.byref(b))
        p.load_w = bo.dc_w
        if p.peak_load_w == _lib.HWFIT_POWER_UNSET:
            p.peak_load_w = bo.peak_dc_w
        if gpus is None and bo.gpus > 0:
            tc.gpus = bo.gpus
        budget = {_name(_lib.hwfit_power_component_kind_name, k): bo.kind_w[k]
                  for k in range(_lib.HWFIT_POWER_COMPONENT_KINDS) if bo.kind_count[k]}
        budget.update(gpus=bo.gpus, dc_w=bo.dc_w, peak_dc_w=bo.peak_dc_w)
        result["budget"] = budget
    po = _lib.hwfit_psu_out()
    _lib.check_input(_lib.hwfit_psu_evaluate(_ct.byref(p), _ct.byref(po)),
                     _lib.hwfit_psu_validate, _ct.byref(p))
    th.heat_w = po.wall_w
    to = _lib.hwfit_thermal_out()
    _lib.check_input(_lib.hwfit_thermal_evaluate(_ct.byref(th), _ct.byref(to)),
                     _lib.hwfit_thermal_validate, _ct.byref(th))
    en.power_w = po.wall_w
    eo = _lib.hwfit_energy_out()
    _lib.check_input(_lib.hwfit_energy_evaluate(_ct.byref(en), _ct.byref(eo)),
                     _lib.hwfit_energy_validate, _ct.byref(en))
    result.update({
        "psus": po.psus, "redundant": p.redundant, "active_psus": po.active_psus,
        "rating_w": po.rating_w, "installed_w": po.installed_w, "usable_w": po.usable_w,
        "load_w": po.load_w, "peak_load_w": po.peak_load_w, "headroom_ratio": p.headroom_ratio,
        "required_w": po.required_w, "headroom_w": po.headroom_w,
        "usable_to_load": po.usable_to_load, "meets_load": bool(po.meets_load),
        "meets_headroom": bool(po.meets_headroom), "meets_peak": bool(po.meets_peak),
        "psu_load_w": po.psu_load_w, "psu_load_fraction": po.psu_load_fraction,
        "failover_load_fraction": po.failover_load_fraction, "overloaded": bool(po.overloaded),
        "class": _name(_lib.hwfit_psu_class_name, p.psu_class),
        "table": _name(_lib.hwfit_psu_table_name, po.table), "efficiency": po.efficiency,
        "efficiency_extrapolated": bool(po.efficiency_extrapolated), "wall_w": po.wall_w,
        "loss_w": po.loss_w, "failover_wall_w": po.failover_wall_w, "heat_w": to.heat_w,
        "heat_btu_per_h": to.heat_btu_per_h, "cooling_tons": to.cooling_tons,
        "delta_t_c": th.delta_t_c, "airflow_cfm": to.airflow_cfm,
        "airflow_m3_per_h": to.airflow_m3_per_h, "rack_heat_w": to.rack_heat_w,
        "cooling": _name(_lib.hwfit_cooling_name, to.cooling), "pue": en.pue,
        "duty_cycle": en.duty_cycle, "price_per_kwh": en.price_per_kwh,
        "average_power_w": eo.average_power_w, "it_energy_kwh": eo.it_energy_kwh,
        "annual_energy_kwh": eo.annual_energy_kwh, "annual_cost": eo.annual_cost,
    })
    if capex is not None:
        tc.annual_energy_cost = eo.annual_cost
        co = _lib.hwfit_tco_out()
        _lib.check_input(_lib.hwfit_tco_evaluate(_ct.byref(tc), _ct.byref(co)),
                         _lib.hwfit_tco_validate, _ct.byref(tc))
        result["tco"] = {"capex": tc.capex, "years": tc.years, "gpus": tc.gpus,
                         "opex": co.opex, "tco": co.tco, "cost_per_year": co.cost_per_year,
                         "cost_per_gpu_hour": co.cost_per_gpu_hour}
    return result


# ---- host --------------------------------------------------------------------------------

def host(sockets=None, cores=None, gpus=None, cores_per_gpu=None, ram=None, vram=None,
         ram_ratio=None, channels=None, dimms=None, mts=None, mts_2dpc=None, max_dpc=None,
         lanes=None, socket_links=None, gpu_lanes=None, gpu_lanes_bifurcated=None, nvme=None,
         nvme_lanes=None, nics=None, nic_lanes=None, other_lanes=None, switches=None,
         switch_upstream=None, switch_downstream=None, switch_nics=False, switch_nvme=False):
    """Same as `hwfit host ... --json`: cores/GPU, RAM/VRAM, memory bandwidth, PCIe lanes."""
    i = _lib.hwfit_host_in()
    _lib.hwfit_host_init(_ct.byref(i))
    for value, field, name in (
            (sockets, "sockets", "sockets"), (cores, "cores", "cores"), (gpus, "gpus", "gpus"),
            (channels, "channels_per_socket", "channels"), (dimms, "dimms", "dimms"),
            (max_dpc, "max_dimms_per_channel", "max_dpc"), (lanes, "lanes_per_socket", "lanes"),
            (socket_links, "socket_links", "socket_links"), (gpu_lanes, "gpu_lanes", "gpu_lanes"),
            (gpu_lanes_bifurcated, "gpu_bifurcated_lanes", "gpu_lanes_bifurcated"),
            (nvme, "nvme", "nvme"), (nvme_lanes, "nvme_lanes", "nvme_lanes"),
            (nics, "nics", "nics"), (nic_lanes, "nic_lanes", "nic_lanes"),
            (other_lanes, "other_lanes", "other_lanes"), (switches, "switches", "switches"),
            (switch_upstream, "switch_upstream_lanes", "switch_upstream"),
            (switch_downstream, "switch_downstream_lanes", "switch_downstream")):
        if value is not None:
            setattr(i, field, _u64(value, name))
    for value, field, unit, name in (
            (cores_per_gpu, "cores_per_gpu_rule", _lib.HWFIT_UNIT_NONE, "cores_per_gpu"),
            (ram, "ram_bytes", _lib.HWFIT_UNIT_BYTES, "ram"),
            (vram, "vram_bytes", _lib.HWFIT_UNIT_BYTES, "vram"),
            (ram_ratio, "ram_to_vram_rule", _lib.HWFIT_UNIT_NONE, "ram_ratio"),
            (mts, "speed_mts", _lib.HWFIT_UNIT_NONE, "mts"),
            (mts_2dpc, "speed_2dpc_mts", _lib.HWFIT_UNIT_NONE, "mts_2dpc")):
        if value is not None:
            setattr(i, field, _qty(value, unit, name))
    i.switch_nics = 1 if switch_nics else 0
    i.switch_nvme = 1 if switch_nvme else 0
    r = _lib.hwfit_host_out()
    _lib.check_input(_lib.hwfit_host_evaluate(_ct.byref(i), _ct.byref(r)),
                     _lib.hwfit_host_validate, _ct.byref(i))

    def part(evaluated, pairs):
        return {k: (v if evaluated else None) for k, v in pairs}

    c, m, mem, ln = (r.cores_evaluated, r.ram_evaluated, r.memory_evaluated,
                     r.lanes_evaluated)
    out = {"sockets": i.sockets}
    out.update(part(c, (("cores_per_gpu", r.cores_per_gpu),
                        ("cores_per_gpu_rule", i.cores_per_gpu_rule),
                        ("cores_needed", r.cores_needed),
                        ("meets_cores_rule", bool(r.meets_cores_rule)))))
    out.update(part(m, (("ram_to_vram", r.ram_to_vram), ("ram_to_vram_rule", i.ram_to_vram_rule),
                        ("ram_needed_bytes", r.ram_needed_bytes),
                        ("meets_ram_rule", bool(r.meets_ram_rule)))))
    out.update(part(mem, (
        ("channels", r.channels), ("populated_channels", r.populated_channels),
        ("dimms_per_channel", r.dimms_per_channel),
        ("max_dimms_in_a_channel", r.max_dimms_in_a_channel), ("balanced", bool(r.balanced)),
        ("within_slot_limit", bool(r.within_slot_limit)),
        ("effective_speed_mts", r.effective_speed_mts), ("downclocked", bool(r.downclocked)),
        ("speed_rule_known", bool(r.speed_rule_known)),
        ("channel_bandwidth_bytes_per_s", r.channel_bandwidth_bytes_per_s),
        ("memory_bandwidth_per_socket_bytes_per_s", r.memory_bandwidth_per_socket_bytes_per_s),
        ("memory_bandwidth_bytes_per_s", r.memory_bandwidth_bytes_per_s))))
    out["dimm_bytes"] = r.dimm_bytes if mem and i.ram_bytes > 0 else None
    out.update(part(ln, (
        ("pcie_lanes_total", r.pcie_lanes_total),
        ("socket_link_lanes_used", r.socket_link_lanes_used),
        ("pcie_lanes_available", r.pcie_lanes_available),
        ("gpu_lanes_needed", r.gpu_lanes_needed), ("nvme_lanes_needed", r.nvme_lanes_needed),
        ("nic_lanes_needed", r.nic_lanes_needed), ("pcie_lanes_needed", r.pcie_lanes_needed),
        ("lanes_fit", bool(r.lanes_fit)),
        ("pcie_lanes_needed_bifurcated", r.pcie_lanes_needed_bifurcated),
        ("lanes_fit_bifurcated", bool(r.lanes_fit_bifurcated)),
        ("pcie_lanes_needed_switched", r.pcie_lanes_needed_switched),
        ("switch_device_lanes", r.switch_device_lanes),
        ("switch_oversubscription", r.switch_oversubscription),
        ("lanes_fit_switched", bool(r.lanes_fit_switched)))))
    return out

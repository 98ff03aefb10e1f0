"""Charts of results (chart.h): `hwfit fit/collective/power/raid --svg` as Python functions.

Each function takes the options of the subcommand whose chart it draws (those that change
the picture) and returns the SVG document as an `Svg`: a str that Jupyter displays as a
picture. The C library runs the domain module and writes every byte of the document; this
layer converts arguments exactly as the subcommand's Python function does.
"""
import ctypes as _ct

from . import _lib
from ._args import invalid as _invalid

__all__ = ["Svg", "chart_memory", "chart_collective", "chart_power", "chart_raid",
           "CHART_METRICS"]

#: What chart_collective draws, by the names of `hwfit collective --svg-metric`.
CHART_METRICS = {"busbw": _lib.HWFIT_CHART_BUSBW, "algbw": _lib.HWFIT_CHART_ALGBW,
                 "time": _lib.HWFIT_CHART_TIME}


class Svg(str):
    """An SVG document: a str that notebooks (Jupyter, VS Code) display as a picture."""

    def _repr_svg_(self):
        return str(self)

    def save(self, path):
        """Write the document to `path` (UTF-8) and return the path."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self)
        return path


def _options(title, width, height):
    o = _lib.hwfit_chart_options()
    _lib.hwfit_chart_options_init(_ct.byref(o))
    if title is not None:
        if not isinstance(title, str):
            raise _invalid(f"title must be a string, got {title!r}")
        o.title = title.encode("utf-8")
    for name, value in (("width", width), ("height", height)):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _invalid(f"{name} must be a number of pixels, got {value!r}")
    o.width_px = float(width)
    o.height_px = float(height)
    return o


def _render(call, detail):
    """The two-call protocol: ask for the size, then write."""
    needed = _ct.c_size_t(0)
    status = call(None, 0, _ct.byref(needed))
    if status != _lib.HWFIT_EBUFSIZE:
        _lib.check(status, detail)
    buf = _ct.create_string_buffer(needed.value)
    _lib.check(call(buf, needed.value, None), detail)
    return Svg(buf.value.decode("utf-8"))


def chart_memory(config=None, title=None, width=800, height=480, **options):
    """The chart of `hwfit fit ... --svg FILE`: the memory of each distinct card of the
    layout `hwfit.fit` shows (the same options, the same layout), as stacked bars against
    the usable memory per card."""
    from ._shard import _Workload, _options as _fit_options
    w = _Workload(**_fit_options(config, options))
    layout = w.best()[0]  # the layout fit shows (first of what best() returns)
    x = _lib.hwfit_shard_in.from_buffer_copy(w.shard_in)
    x.layout = layout
    o = _options(title, width, height)
    m = w.model
    return _render(lambda buf, size, needed: _lib.hwfit_chart_memory(
        _ct.byref(m), _ct.byref(x), _ct.byref(o), buf, size, needed), "chart_memory")


def chart_collective(op="allreduce", size="1GiB", gpu="rtx-pro-6000-server", gpus=8, nodes=1,
                     ranks=None, sockets=2, pcie_switches=0, pcie_lanes=None, p2p="auto",
                     nic=None, gdr="auto", cpu="amd", algorithm="auto", protocol="auto",
                     library="nccl", min_size="8B", metric="busbw", compare=None, title=None,
                     width=800, height=480):
    """The chart of `hwfit collective --sweep --svg FILE`: bus bandwidth (metric="busbw"),
    algorithm bandwidth ("algbw") or time ("time") against message size from min_size to
    size, doubling, on log axes. `compare` names other GPUs (a name or a list) drawn with
    the same options, one line each."""
    from ._net import _CPUS, _LIBRARIES, _MODES, _choice, _count, _from_name, _quantity
    ci = _lib.hwfit_collective_in()
    _lib.hwfit_collective_init(_ct.byref(ci))
    ci.op = _from_name(_lib.hwfit_collective_op_from_name, op, "op")
    ci.algorithm = _from_name(_lib.hwfit_collective_algorithm_from_name, algorithm, "algorithm")
    ci.protocol = _from_name(_lib.hwfit_collective_protocol_from_name, protocol, "protocol")
    t = ci.topology
    t.gpus_per_node = _count(gpus, "gpus")
    t.nodes = _count(nodes, "nodes")
    t.sockets = _count(sockets, "sockets")
    t.pcie_switches = _count(pcie_switches, "pcie-switches")
    if pcie_lanes is not None and _count(pcie_lanes, "pcie-lanes") > 64:
        raise _invalid(f"--pcie-lanes: expected 1-16, got {pcie_lanes}")
    t.p2p = _choice(_MODES, p2p, "p2p")
    t.gpudirect_rdma = _choice(_MODES, gdr, "gdr")
    _lib.hwfit_topology_set_cpu(_ct.byref(t), _choice(_CPUS, cpu, "cpu"))
    if nic is not None:
        if not isinstance(nic, str):
            raise _invalid(f"--nic: expected a NIC string, got {nic!r}")
        _lib.check(_lib.hwfit_topology_parse_nic(nic.encode(), _ct.byref(t)), "--nic")
    ci.ranks = 0 if ranks is None else _count(ranks, "ranks")
    ci.library = _choice(_LIBRARIES, library, "library")
    others = [compare] if isinstance(compare, str) else list(compare or [])
    names = [gpu] + others
    if len(names) > _lib.HWFIT_CHART_MAX_SERIES:
        raise _invalid(f"compare: at most {_lib.HWFIT_CHART_MAX_SERIES - 1} GPUs")
    lines = (_lib.hwfit_collective_in * len(names))()
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise _invalid(f"--{'gpu' if i == 0 else 'compare'}: expected a GPU name, got {name!r}")
        g = _lib.hwfit_gpu_p()
        _lib.check(_lib.hwfit_gpu_find(name.encode(), _ct.byref(g)),
                   f"--{'gpu' if i == 0 else 'compare'} {name}")
        lines[i] = _lib.hwfit_collective_in.from_buffer_copy(ci)
        _lib.hwfit_topology_set_gpu(_ct.byref(lines[i].topology), g)
        if pcie_lanes is not None:
            lines[i].topology.gpu_pcie_lanes = pcie_lanes
    encoded = (_ct.c_char_p * len(names))(*[n.encode() for n in names])
    c = _lib.hwfit_chart_collective_in()
    _lib.hwfit_chart_collective_init(_ct.byref(c))
    c.series_count = len(names)
    c.series = lines
    c.names = encoded
    c.min_bytes = _quantity(min_size, "bytes")
    c.max_bytes = _quantity(size, "bytes")
    c.metric = _choice(CHART_METRICS, metric, "svg-metric")
    c.options = _options(title, width, height)
    return _render(lambda buf, n, needed: _lib.hwfit_chart_collective(
        _ct.byref(c), buf, n, needed), "chart_collective")


def chart_power(psus, psu_watts, redundant=None, load=None, component=None, transient=None,
                peak=None, headroom=None, peak_ratio=None, class_=None, table=None,
                efficiency=None, cold_redundancy=False, input_voltage=None,
                low_line_watts=None, title=None, width=800, height=480, **options):
    """The chart of `hwfit power ... --svg FILE`: the DC draw of each kind of component and
    their total against the usable PSU capacity, the headroom limit and the wall power.
    `component` is one "KIND:COUNT:W" string or a list; `class` may be given as class_."""
    from ._infra import _fail, _psu_inputs
    if "class" in options:
        class_ = options.pop("class")
    if options:
        _fail(f"unknown option(s): {', '.join(sorted(options))}")
    b, p, components = _psu_inputs(psus, psu_watts, redundant, load, component, transient,
                                   peak, headroom, peak_ratio, class_, table, efficiency,
                                   cold_redundancy, input_voltage, low_line_watts)
    o = _options(title, width, height)
    budget = _ct.byref(b) if components else None
    return _render(lambda buf, n, needed: _lib.hwfit_chart_power(
        budget, _ct.byref(p), _ct.byref(o), buf, n, needed), "chart_power")


def chart_raid(level, drives, drive_size, spares=None, groups=None, copies=None,
               recordsize=None, sector=None, title=None, width=800, height=480):
    """The chart of `hwfit raid ... --svg FILE`: raw capacity split into usable space,
    parity (or mirror copies), ZFS slop space and hot spares."""
    from ._infra import _raid_inputs
    i = _raid_inputs(level, drives, drive_size, spares, groups, copies, recordsize=recordsize,
                     sector=sector)
    o = _options(title, width, height)
    return _render(lambda buf, n, needed: _lib.hwfit_chart_raid(
        _ct.byref(i), _ct.byref(o), buf, n, needed), "chart_raid")

"""Whole servers (node.h, node_spec.h, assess.h): `hwfit assess` and `load_node`.

`load_node(path)` reads a node file (docs/node-spec.md) into a `Node`; `assess(...)` takes
the options of `hwfit assess` as keyword arguments and returns exactly its --json dict.
Every number comes from the C library; this module only converts types and arranges keys.
"""
import ctypes as _ct
import os as _os

from . import _lib
from ._args import fail as _fail, quantity as _qty

__all__ = ["Node", "load_node", "parse_node", "assess"]


def _text(b):
    return b.decode("utf-8", "replace")


class Node:
    """A node read from a node file. `raw` is the hwfit_node ctypes struct; `evaluate()`
    runs every domain module on it (hwfit_node_evaluate) and returns the main figures."""

    def __init__(self, raw, path=None):
        self.raw = raw
        self.path = path

    @property
    def name(self):
        return _text(self.raw.name)

    @property
    def nodes(self):
        return self.raw.nodes

    @property
    def gpu(self):
        return _text(self.raw.gpu.model)

    @property
    def gpus(self):
        return self.raw.gpu.count

    def __repr__(self):
        return f"Node({self.name!r}, {self.nodes} x {self.gpus} x {self.gpu})"

    def evaluate(self):
        """Main figures of the node in SI base units (a dict), from hwfit_node_evaluate."""
        e = _lib.hwfit_node_eval()
        _lib.check(_lib.hwfit_node_evaluate(_ct.byref(self.raw), _ct.byref(e)), self.name)
        return {
            "name": self.name,
            "nodes": self.nodes,
            "gpu": _text(e.gpu.contents.name),
            "gpus": e.gpus,
            "total_gpus": e.total_gpus,
            "gpu_power_w": e.gpu_power_w,
            "vram_bytes": e.vram_bytes,
            "total_vram_bytes": e.total_vram_bytes,
            "ram_bytes": e.ram_bytes,
            "cores": e.cores,
            "threads": e.threads,
            "memory_bandwidth_bytes_per_s": e.host.memory_bandwidth_bytes_per_s,
            "pcie_lanes_available": e.host.pcie_lanes_available,
            "pcie_lanes_needed": e.host.pcie_lanes_needed,
            "storage_usable_bytes": e.raid.usable_bytes if e.storage_evaluated else None,
            "network_bytes_per_s": e.network.line_bytes_per_s if e.network_evaluated else None,
            "allreduce_busbw_bytes_per_s":
                e.allreduce.busbw_bytes_per_s if e.allreduce_evaluated else None,
            "load_w": e.budget.dc_w,
            "usable_w": e.psu.usable_w,
            "wall_w": e.psu.wall_w,
            "heat_btu_per_h": e.thermal.heat_btu_per_h,
            "annual_energy_kwh": e.energy.annual_energy_kwh,
            "annual_cost": e.energy.annual_cost,
            "currency": _text(self.raw.costs.currency),
        }


def load_node(path):
    """Read a node file into a Node; errors raise HwfitError with file, line and column."""
    if isinstance(path, Node):
        return path
    if not isinstance(path, (str, bytes, _os.PathLike)):
        _fail(f"node: expected a path, got {path!r}")
    n = _lib.hwfit_node()
    err = _lib.hwfit_error()
    _lib.check(_lib.hwfit_node_load(_os.fsencode(path), _ct.byref(n), _ct.byref(err)), None, err)
    return Node(n, _os.fsdecode(path))


def parse_node(text, name=None):
    """Read a node from the text of a node file (str or bytes)."""
    data = text.encode() if isinstance(text, str) else bytes(text)
    n = _lib.hwfit_node()
    err = _lib.hwfit_error()
    label = (name or "node.json").encode()
    _lib.check(_lib.hwfit_node_parse(data, len(data), label, _ct.byref(n), _ct.byref(err)),
               None, err)
    return Node(n, name)


def _run_assess(node, workload, models_dir, opt, pipeline_rate, allreduce_size, checkpoints,
                max_tpot, max_comm_share):
    """What `hwfit assess` and its --html report share: read the node and the workloads,
    fill the assessment options `opt` in place, and run the assessment.
    Returns (node, workloads, models, count, findings, number of findings)."""
    n = load_node(node)
    if workload is None:
        workload = []
    elif isinstance(workload, str):
        workload = [workload]
    if len(workload) > _lib.HWFIT_ASSESS_MAX_WORKLOADS:
        _fail(f"workload: at most {_lib.HWFIT_ASSESS_MAX_WORKLOADS} workloads")
    if pipeline_rate is not None:
        opt.pipeline_bytes_per_s = _qty(pipeline_rate, _lib.HWFIT_UNIT_BYTES_PER_S,
                                        "pipeline_rate")
    if allreduce_size is not None:
        opt.allreduce_bytes = _qty(allreduce_size, _lib.HWFIT_UNIT_BYTES, "allreduce_size")
    if checkpoints is not None:
        if isinstance(checkpoints, bool) or not isinstance(checkpoints, int):
            _fail(f"checkpoints: expected a whole number, got {checkpoints!r}")
        opt.checkpoints_to_keep = checkpoints
    if max_tpot is not None:
        opt.max_time_per_output_token_s = _qty(max_tpot, _lib.HWFIT_UNIT_SECONDS, "max_tpot")
    if max_comm_share is not None:
        opt.max_comm_share = _qty(max_comm_share, _lib.HWFIT_UNIT_NONE, "max_comm_share")
    count = len(workload)
    models = (_lib.hwfit_model * max(count, 1))()
    works = (_lib.hwfit_assess_workload * max(count, 1))()
    mdir = None if models_dir is None else _os.fsencode(models_dir)
    for i, text in enumerate(workload):
        if not isinstance(text, str):
            _fail(f"workload: expected a string such as 'serve:llama-3.1-70b', got {text!r}")
        err = _lib.hwfit_error()
        _lib.check(_lib.hwfit_assess_workload_parse(text.encode(), mdir, _ct.byref(works[i]),
                                                    _ct.byref(models[i]), _ct.byref(err)),
                   None, err)
    cap = _lib.hwfit_assess_max_findings(count)
    findings = (_lib.hwfit_finding * cap)()
    got = _ct.c_size_t()
    _lib.check(_lib.hwfit_assess(_ct.byref(n.raw), works, count, _ct.byref(opt), findings, cap,
                                 _ct.byref(got)), "assessment")
    return n, works, models, count, findings, got.value


def assess(node, workload=None, models_dir=None, pipeline_rate=None, allreduce_size=None,
           checkpoints=None, max_tpot=None, max_comm_share=None, markdown=False):
    """Same as `hwfit assess --node NODE [--workload W ...] --json`.

    `node` is a node file path or a Node; `workload` a string or a list of strings such as
    "serve:llama-3.1-70b:bf16:128K"; `models_dir` where `<MODEL>.config.json` files live
    (default tests/data/models). `markdown` only changes the CLI's text output and is
    accepted for symmetry: the dict is the same.
    """
    del markdown
    opt = _lib.hwfit_assess_options()
    _lib.hwfit_assess_options_init(_ct.byref(opt))
    n, works, models, count, findings, got = _run_assess(
        node, workload, models_dir, opt, pipeline_rate, allreduce_size, checkpoints, max_tpot,
        max_comm_share)
    e = _lib.hwfit_node_eval()
    _lib.check(_lib.hwfit_node_evaluate(_ct.byref(n.raw), _ct.byref(e)), n.name)
    labels = [_text(works[i].label) for i in range(count)]
    out_findings = []
    counts = {"strength": 0, "weakness": 0, "info": 0}
    for f in findings[:got]:
        kind = _text(_lib.hwfit_finding_kind_name(f.kind))
        counts[kind] += 1
        out_findings.append({
            "rule": _text(f.rule),
            "topic": _text(_lib.hwfit_assess_topic_name(f.topic)),
            "kind": kind,
            "workload": labels[f.workload - 1] if f.workload else None,
            "text": _text(f.text),
            "figures": [{"key": _text(g.key), "value": g.value, "unit": _text(g.unit)}
                        for g in f.figures[:f.figure_count]],
        })
    return {
        "node": n.name,
        "nodes": n.nodes,
        "gpu": _text(e.gpu.contents.name),
        "gpus": e.total_gpus,
        "workloads": [{"label": label, "index": i + 1} for i, label in enumerate(labels)],
        "counts": counts,
        "findings": out_findings,
    }

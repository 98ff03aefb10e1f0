"""GPU catalog, link rates and collective cost: the Pythonic layer over gpu.h, link.h
and collective.h. Each function returns what the `hwfit` subcommand of the same name
prints with --json."""
import ctypes as _ct

from . import _lib
from ._lib import HwfitError


def _text(b):
    return b.decode() if b is not None else None


def _quantity(value, unit):
    """A number passes through; a string such as "4KiB" is parsed with its unit."""
    from . import parse_quantity
    return parse_quantity(value, unit)


def _gpu_dict(g):
    return {
        "name": _text(g.name),
        "vendor": _text(_lib.hwfit_gpu_vendor_name(g.vendor)),
        "edition": _text(g.edition),
        "architecture": _text(g.architecture),
        "compute_capability": int(g.compute_capability),
        "form_factor": _text(_lib.hwfit_gpu_form_factor_name(g.form_factor)),
        "memory_bytes": int(g.memory_bytes),
        "memory_bandwidth_bytes_per_s": g.memory_bandwidth_bytes_per_s,
        "tdp_w": g.tdp_w,
        "fp64_flop_per_s": g.fp64_flop_per_s,
        "fp64_tensor_flop_per_s": g.fp64_tensor_flop_per_s,
        "fp32_flop_per_s": g.fp32_flop_per_s,
        "tf32_flop_per_s": g.tf32_flop_per_s,
        "fp16_bf16_flop_per_s": g.fp16_bf16_flop_per_s,
        "fp8_flop_per_s": g.fp8_flop_per_s,
        "int8_op_per_s": g.int8_op_per_s,
        "fp4_flop_per_s": g.fp4_flop_per_s,
        "sparsity": bool(g.sparsity),
        "sparse_speedup": g.sparse_speedup,
        "pcie_gen": int(g.pcie_gen),
        "pcie_lanes": int(g.pcie_lanes),
        "peer_link": _text(_lib.hwfit_gpu_peer_link_name(g.peer_link)),
        "peer_topology": _text(_lib.hwfit_gpu_peer_topology_name(g.peer_topology)),
        "peer_generation": int(g.peer_generation),
        "peer_links": int(g.peer_links),
        "peer_bytes_per_s": g.peer_bytes_per_s,
        "peer_bytes_per_s_bidir": g.peer_bytes_per_s_bidir,
        "peer_domain_gpus": int(g.peer_domain_gpus),
        "p2p_pcie": bool(g.p2p_pcie),
        "nvls": bool(g.nvls),
        "source": _text(g.source),
        "notes": _text(g.notes),
    }


def gpu(name):
    """One catalog row as a dict (the keys of `hwfit gpus NAME --json`'s rows)."""
    if not isinstance(name, str):
        raise HwfitError(_lib.HWFIT_EINVAL, "HWFIT_EINVAL", f"expected a GPU name, got {name!r}")
    p = _lib.hwfit_gpu_p()
    _lib.check(_lib.hwfit_gpu_find(name.encode(), _ct.byref(p)), name)
    return _gpu_dict(p.contents)


def gpus(name=None):
    """Same as `hwfit gpus [NAME] --json`: {"gpus": [row, ...]}."""
    if name is not None:
        return {"gpus": [gpu(name)]}
    rows = []
    for i in range(int(_lib.hwfit_gpu_count())):
        rows.append(_gpu_dict(_lib.hwfit_gpu_at(i).contents))
    return {"gpus": rows}


def link(name, payload=None):
    """Same as `hwfit link NAME [--payload SIZE] --json`: a link's rates."""
    if not isinstance(name, str):
        raise HwfitError(_lib.HWFIT_EINVAL, "HWFIT_EINVAL", f"expected a link name, got {name!r}")
    li = _lib.hwfit_link_in()
    _lib.check(_lib.hwfit_link_parse(name.encode(), _ct.byref(li)), name)
    if payload is not None:
        li.payload_bytes = _quantity(payload, "bytes")
    r = _lib.hwfit_link_out()
    _lib.check(_lib.hwfit_link_rate(_ct.byref(li), _ct.byref(r)), "--payload")
    return {
        "input": name,
        "name": r.name.decode(),
        "kind": _text(_lib.hwfit_link_kind_name(li.kind)),
        "generation": int(li.generation),
        "width": int(li.width),
        "lanes": int(r.lanes),
        "lane_raw_bits_per_s": r.lane_raw_bits_per_s,
        "encoding_efficiency": r.encoding_efficiency,
        "line_bytes_per_s": r.line_bytes_per_s,
        "line_bytes_per_s_bidir": r.line_bytes_per_s_bidir,
        "payload_bytes": r.payload_bytes,
        "overhead_bytes": r.overhead_bytes,
        "protocol_efficiency": r.protocol_efficiency,
        "payload_bytes_per_s": r.payload_bytes_per_s,
        "payload_bytes_per_s_bidir": r.payload_bytes_per_s_bidir,
    }

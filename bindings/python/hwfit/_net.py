"""GPU catalog, link rates and collective cost: the Pythonic layer over gpu.h, link.h
and collective.h. Each function returns what the `hwfit` subcommand of the same name
prints with --json."""
import ctypes as _ct

from . import _lib
from ._lib import HwfitError
from ._args import choice, count, invalid as _invalid


def _choice(table, value, option):
    return choice(table, value, "--" + option)


def _count(value, option):
    return count(value, "--" + option)


__all__ = ["gpu", "gpus", "link", "collective"]


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
    _lib.check_input(_lib.hwfit_link_rate(_ct.byref(li), _ct.byref(r)),
                     _lib.hwfit_link_validate, _ct.byref(li))
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


_MODES = {"auto": _lib.HWFIT_TOPOLOGY_AUTO, "on": _lib.HWFIT_TOPOLOGY_ON,
          "off": _lib.HWFIT_TOPOLOGY_OFF}
_CPUS = {"amd": _lib.HWFIT_CPU_AMD, "intel": _lib.HWFIT_CPU_INTEL, "arm": _lib.HWFIT_CPU_ARM}
_LIBRARIES = {"nccl": _lib.HWFIT_COLLECTIVE_LIBRARY_NCCL, "any": _lib.HWFIT_COLLECTIVE_LIBRARY_ANY}


def _from_name(fn, name, option):
    if not isinstance(name, str):
        raise _invalid(f"--{option}: expected a name, got {name!r}")
    v = _ct.c_int()
    _lib.check(fn(name.encode(), _ct.byref(v)), f"--{option} {name}")
    return v.value


def collective(op="allreduce", size="1GiB", gpu="rtx-pro-6000-server", gpus=8, nodes=1,
               ranks=None, sockets=2, pcie_switches=0, pcie_lanes=None, p2p="auto", nic=None,
               gdr="auto", cpu="amd", algorithm="auto", protocol="auto", library="nccl",
               sweep=False, min_size="8B"):
    """Same as `hwfit collective ... --json`: time, algbw and busbw of one collective, or
    with sweep=True a list over sizes from min_size to size doubling each time."""
    ci = _lib.hwfit_collective_in()
    _lib.hwfit_collective_init(_ct.byref(ci))
    ci.op = _from_name(_lib.hwfit_collective_op_from_name, op, "op")
    ci.algorithm = _from_name(_lib.hwfit_collective_algorithm_from_name, algorithm, "algorithm")
    ci.protocol = _from_name(_lib.hwfit_collective_protocol_from_name, protocol, "protocol")
    if not isinstance(gpu, str):
        raise _invalid(f"--gpu: expected a GPU name, got {gpu!r}")
    g = _lib.hwfit_gpu_p()
    _lib.check(_lib.hwfit_gpu_find(gpu.encode(), _ct.byref(g)), f"--gpu {gpu}")
    t = ci.topology
    _lib.hwfit_topology_set_gpu(_ct.byref(t), g)
    t.gpus_per_node = _count(gpus, "gpus")
    t.nodes = _count(nodes, "nodes")
    t.sockets = _count(sockets, "sockets")
    t.pcie_switches = _count(pcie_switches, "pcie-switches")
    if pcie_lanes is not None:
        if _count(pcie_lanes, "pcie-lanes") > 64:
            raise _invalid(f"--pcie-lanes: expected 1-16, got {pcie_lanes}")
        t.gpu_pcie_lanes = pcie_lanes
    t.p2p = _choice(_MODES, p2p, "p2p")
    t.gpudirect_rdma = _choice(_MODES, gdr, "gdr")
    _lib.hwfit_topology_set_cpu(_ct.byref(t), _choice(_CPUS, cpu, "cpu"))
    if nic is not None:
        if not isinstance(nic, str):
            raise _invalid(f"--nic: expected a NIC string, got {nic!r}")
        _lib.check(_lib.hwfit_topology_parse_nic(nic.encode(), _ct.byref(t)), "--nic")
    ci.ranks = 0 if ranks is None else _count(ranks, "ranks")
    ci.library = _choice(_LIBRARIES, library, "library")

    top = _quantity(size, "bytes")
    if sweep:
        low = _quantity(min_size, "bytes")
        if not low > 0 or low > top:
            raise _invalid("--min-size must be above 0 and at most --size")
        sizes, b = [], low
        while b <= top and len(sizes) < 80:
            sizes.append(b)
            b *= 2.0
    else:
        sizes = [top]
    results = []
    for b in sizes:
        ci.bytes = b
        r = _lib.hwfit_collective_out()
        _lib.check_input(_lib.hwfit_collective_estimate(_ct.byref(ci), _ct.byref(r)),
                         _lib.hwfit_collective_validate, _ct.byref(ci))
        results.append(r)

    def name(fn, v):
        return fn(v).decode()

    r0 = results[0]
    out = {
        "op": name(_lib.hwfit_collective_op_name, ci.op),
        "gpu": gpu,
        "ranks": int(r0.ranks),
        "ranks_per_node": int(r0.ranks_per_node),
        "nodes": int(r0.nodes),
        "p2p": bool(r0.p2p),
        "gpudirect_rdma": bool(r0.gpudirect_rdma),
        "busbw_factor": r0.busbw_factor,
    }
    if sweep:
        out["sweep"] = [{
            "bytes": b,
            "time_s": r.time_s,
            "algbw_bytes_per_s": r.algbw_bytes_per_s,
            "busbw_bytes_per_s": r.busbw_bytes_per_s,
            "algorithm": name(_lib.hwfit_collective_algorithm_name, r.algorithm),
            "protocol": name(_lib.hwfit_collective_protocol_name, r.protocol),
            "bottleneck": name(_lib.hwfit_collective_bottleneck_name, r.bottleneck),
        } for b, r in zip(sizes, results)]
    else:
        out.update({
            "bytes": sizes[0],
            "time_s": r0.time_s,
            "latency_s": r0.latency_s,
            "bandwidth_time_s": r0.bandwidth_time_s,
            "algbw_bytes_per_s": r0.algbw_bytes_per_s,
            "busbw_bytes_per_s": r0.busbw_bytes_per_s,
            "algorithm": name(_lib.hwfit_collective_algorithm_name, r0.algorithm),
            "protocol": name(_lib.hwfit_collective_protocol_name, r0.protocol),
            "bottleneck": name(_lib.hwfit_collective_bottleneck_name, r0.bottleneck),
            "bottleneck_bytes_per_s": r0.bottleneck_bytes_per_s,
        })
    return out

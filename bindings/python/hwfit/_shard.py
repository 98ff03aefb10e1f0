"""Sharding across cards (shard.h): `hwfit fit` and `hwfit plan` as Python functions.

Every number comes from the C library; this layer converts arguments, runs the same calls
as the CLI and names the results exactly as the CLI's --json output does.
"""
import ctypes as _ct

from . import _lib
from ._lib import HwfitError
from ._model import (MEMORY_MODES, OPTIMIZERS, RECOMPUTE, _as_model, _choice, _count,
                     _einval, dtype, dtype_name)

__all__ = ["fit", "plan"]

_RECOMPUTE_NAMES = {v: k for k, v in RECOMPUTE.items()}
_OFFLOAD_NAMES = {0: "none", 1: "optimizer", 2: "params", 3: "optimizer,params"}
_MODEL_MAX_SIZE = 1099511627776  # HWFIT_MODEL_MAX_SIZE


def _quantity(value, unit, option):
    from . import parse_quantity
    if isinstance(value, bool):
        raise _einval(f"{option}: expected a size, got {value!r}")
    return parse_quantity(value, unit)


def _number(value, option):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        try:
            return float(value)
        except (TypeError, ValueError):
            raise _einval(f"{option}: expected a number, got {value!r}") from None
    return float(value)


def _u32(value, option):
    v = _count(value, option)
    if v >= 2**32:
        raise _einval(f"--{option.replace('_', '-')} must be below 2^32")
    return v


class _Workload:
    """The CLI's workload.c in Python: shard inputs and the search space."""

    def __init__(self, config, gpu, gpus, capacity, mode, weights, kv, context, batch,
                 micro_batch, prefill_chunk, overhead, optimizer, gradients, recompute,
                 lora_rank, lora_targets, tp, pp, dp, cp, ep, etp, virtual_stages,
                 sequence_parallel, no_sequence_parallel, zero, offload, even_layers,
                 utilization, reserve, host_memory, host_buffer_factor, max_gpus):
        if config is None:
            raise _einval("config is required")
        if gpu is None and capacity is None:
            raise _einval("gpu or capacity is required (see hwfit.gpus())")
        self.gpus = _count(gpus, "gpus")
        if not 1 <= self.gpus <= _lib.HWFIT_SHARD_MAX_GPUS:
            raise _einval(f"gpus must be 1 to {_lib.HWFIT_SHARD_MAX_GPUS}")
        self.max_gpus = _count(max_gpus, "max_gpus")
        if not 1 <= self.max_gpus <= _lib.HWFIT_SHARD_MAX_GPUS:
            raise _einval(f"max_gpus must be 1 to {_lib.HWFIT_SHARD_MAX_GPUS}")
        if zero is not None and _count(zero, "zero") > 3:
            raise _einval("zero must be 0, 1, 2 or 3")
        if sequence_parallel and no_sequence_parallel:
            raise _einval("sequence_parallel and no_sequence_parallel exclude each other")
        self.mode = mode
        x = _lib.hwfit_shard_in()
        _lib.hwfit_shard_init(_ct.byref(x))
        m = x.memory
        m.mode = _choice(MEMORY_MODES, mode, "mode")
        m.optimizer = _choice(OPTIMIZERS, optimizer, "optimizer")
        m.context = _count(context, "context", tokens=True)
        m.prefill_chunk = _count(prefill_chunk, "prefill_chunk", tokens=True)
        if overhead is not None:
            m.overhead_bytes = _quantity(overhead, "bytes", "overhead")
        m.lora_rank = _u32(lora_rank, "lora_rank")
        self.training = m.mode != _lib.HWFIT_MEMORY_INFERENCE
        if not self.training:
            m.batch = _count(batch if batch is not None else 1, "batch")
        if weights is not None:
            if m.mode == _lib.HWFIT_MEMORY_QLORA:
                m.qlora_base = dtype(weights)
            else:
                m.weights = dtype(weights)
        m.kv = dtype(kv)
        m.gradients = dtype(gradients)
        bits = _ct.c_uint()
        if not isinstance(lora_targets, str):
            raise _einval(f"lora_targets: expected a string, got {lora_targets!r}")
        _lib.check(_lib.hwfit_memory_lora_targets_parse(lora_targets.encode(), _ct.byref(bits)),
                   f"lora_targets {lora_targets!r}")
        m.lora_targets = bits.value
        self.weights_name = dtype_name(m.qlora_base if m.mode == _lib.HWFIT_MEMORY_QLORA
                                       else m.weights)
        self.kv_name = dtype_name(m.kv)
        x.gpus = self.gpus
        x.utilization = _number(utilization, "utilization")
        if reserve is not None:
            x.reserve_bytes = _quantity(reserve, "bytes", "reserve")
        if host_memory is not None:
            x.host_memory_bytes = _quantity(host_memory, "bytes", "host_memory")
        x.host_buffer_factor = _number(host_buffer_factor, "host_buffer_factor")
        self.card = None
        if gpu is not None:
            p = _lib.hwfit_gpu_p()
            if not isinstance(gpu, str):
                raise _einval(f"gpu: expected a name, got {gpu!r}")
            _lib.check(_lib.hwfit_gpu_find(gpu.encode(), _ct.byref(p)),
                       f"unknown card {gpu!r} (see hwfit.gpus())")
            self.card = p.contents
            x.capacity_bytes = float(self.card.memory_bytes)
        if capacity is not None:
            x.capacity_bytes = _quantity(capacity, "bytes", "capacity")

        s = _lib.hwfit_shard_space()
        _lib.hwfit_shard_space_init(_ct.byref(s))
        self.layout_given = False
        for name, value in (("tp", tp), ("pp", pp), ("dp", dp), ("cp", cp), ("ep", ep),
                            ("etp", etp), ("virtual_stages", virtual_stages)):
            if value is None or value == 0:
                continue
            setattr(s, name, _u32(value, name))
            if name != "etp":
                self.layout_given = True
        if zero is not None:
            s.zero_stage = _count(zero, "zero")
            self.layout_given = True
        if recompute is not None:
            s.recompute = _choice(RECOMPUTE, recompute, "recompute")
        if sequence_parallel:
            s.sequence_parallel = 1
        if no_sequence_parallel:
            s.sequence_parallel = 0
        if micro_batch:
            s.micro_batch = _count(micro_batch, "micro_batch")
        if even_layers:
            s.uneven_layers = 0
        if self.training and batch is not None:
            s.global_batch = _count(batch, "batch")
        if offload is not None:
            if offload == "any":
                s.offload = _lib.HWFIT_SHARD_ANY
            else:
                b = _ct.c_uint()
                if not isinstance(offload, str) or _lib.hwfit_shard_offload_parse(
                        offload.encode(), _ct.byref(b)) != _lib.HWFIT_OK:
                    raise _einval(f"offload: {offload!r} is not optimizer, params, "
                                  "optimizer,params, none or any")
                s.offload = b.value
        self.space = s
        x.layout = self.layout()
        self.shard_in = x
        self.model = _as_model(config)

    def layout(self):
        """The layout the options name, dp derived (workload.c cli_workload_layout)."""
        s = self.space
        lay = _lib.hwfit_layout()
        _lib.hwfit_layout_init(_ct.byref(lay))
        lay.tp = s.tp or 1
        lay.pp = s.pp or 1
        lay.cp = s.cp or 1
        lay.ep = s.ep or 1
        lay.etp = s.etp
        lay.virtual_stages = s.virtual_stages or 1
        tpc = lay.tp * lay.pp * lay.cp
        lay.dp = s.dp or (self.gpus // tpc if self.gpus % tpc == 0 else 1)
        lay.zero_stage = s.zero_stage if s.zero_stage >= 0 else 0
        lay.offload = s.offload if s.offload >= 0 else 0
        lay.recompute = s.recompute if s.recompute >= 0 else 0
        lay.sequence_parallel = 1 if s.sequence_parallel > 0 else 0
        lay.micro_batch = s.micro_batch or 1
        lay.global_batch = s.global_batch
        lay.uneven_layers = s.uneven_layers
        return lay

    def no_layout(self):
        """The error the CLI reports when no layout is valid."""
        if self.layout_given:
            x = _lib.hwfit_shard_in.from_buffer_copy(self.shard_in)
            why = _ct.c_int()
            _lib.check(_lib.hwfit_shard_check(_ct.byref(self.model), _ct.byref(x),
                                              _ct.byref(why)), "layout")
            if why.value != _lib.HWFIT_SHARD_VALID:
                return HwfitError(_lib.HWFIT_ELAYOUT, "HWFIT_ELAYOUT",
                                  "invalid layout: "
                                  f"{_lib.hwfit_shard_reason_str(why.value).decode()} "
                                  f"({_lib.hwfit_shard_reason_name(why.value).decode()})")
        return HwfitError(_lib.HWFIT_ELAYOUT, "HWFIT_ELAYOUT",
                          f"no valid layout of {self.gpus} GPUs for this model and workload")

    def header(self):
        return {"model_type": self.model.name.decode(),
                "gpu": self.card.name.decode() if self.card is not None else None,
                "gpus": self.gpus, "mode": self.mode}


def _layout_dict(lay):
    return {
        "tp": lay.tp, "pp": lay.pp, "dp": lay.dp, "cp": lay.cp, "ep": lay.ep, "etp": lay.etp,
        "virtual_stages": lay.virtual_stages,
        "sequence_parallel": bool(lay.sequence_parallel),
        "zero": lay.zero_stage,
        "offload": _OFFLOAD_NAMES[lay.offload & 3],
        "micro_batch": lay.micro_batch,
        "global_batch": lay.global_batch,
        "recompute": _RECOMPUTE_NAMES[lay.recompute],
    }


_PARTS = ("weights_bytes", "kv_bytes", "activation_bytes", "gradient_bytes", "optimizer_bytes",
          "buffer_bytes", "overhead_bytes", "total_bytes")


def _workload(kw):
    return _Workload(**kw)


def fit(config=None, gpu=None, gpus=1, capacity=None, mode="inference", weights=None,
        kv="bf16", context=4096, batch=None, micro_batch=None, prefill_chunk=2048,
        overhead=None, optimizer="adamw", gradients="bf16", recompute=None, lora_rank=16,
        lora_targets="all", tp=None, pp=None, dp=None, cp=None, ep=None, etp=None,
        virtual_stages=None, sequence_parallel=False, no_sequence_parallel=False, zero=None,
        offload=None, even_layers=False, utilization=0.9, reserve=None, host_memory=None,
        host_buffer_factor=1.0, max_gpus=256):
    """Same as `hwfit fit --json`: per-card memory under the best layout (or the one the
    options name), whether it fits, the fewest GPUs, the longest context, the largest batch.
    Sizes are bytes or strings such as "96GiB"; contexts accept "128K"."""
    w = _workload(dict(locals()))
    m, x = w.model, w.shard_in
    space = _lib.hwfit_shard_space.from_buffer_copy(w.space)
    space.include_unfit = 1
    best = _lib.hwfit_shard_result()
    summary = _lib.hwfit_shard_search_out()
    _lib.check(_lib.hwfit_shard_search(_ct.byref(m), _ct.byref(x), _ct.byref(space),
                                       _ct.byref(best), 1, _ct.byref(summary)), "search")
    if summary.count == 0:
        raise w.no_layout()
    x2 = _lib.hwfit_shard_in.from_buffer_copy(x)
    x2.layout = best.layout
    o = _lib.hwfit_shard_out()
    _lib.check(_lib.hwfit_shard_estimate(_ct.byref(m), _ct.byref(x2), _ct.byref(o)), "estimate")
    cards = []
    for s in range(o.stages):
        c = _lib.hwfit_shard_card()
        _lib.check(_lib.hwfit_shard_card_at(_ct.byref(m), _ct.byref(x2), s, _ct.byref(c)),
                   "card")
        row = {"stage": c.stage, "first_layer": c.first_layer, "layers": c.layers,
               "embedding": bool(c.embedding), "head": bool(c.head), "in_flight": c.in_flight}
        row.update({k: getattr(c, k) for k in _PARTS})
        cards.append(row)
    n = _ct.c_uint32()
    _lib.check(_lib.hwfit_shard_min_gpus(_ct.byref(m), _ct.byref(x), _ct.byref(w.space),
                                         w.max_gpus, _ct.byref(n), None), "min_gpus")
    limit = m.max_context or _MODEL_MAX_SIZE
    max_context, max_batch = _ct.c_uint64(), _ct.c_uint64()
    _lib.check(_lib.hwfit_shard_max_context(_ct.byref(m), _ct.byref(x2), limit,
                                            _ct.byref(max_context)), "max_context")
    _lib.check(_lib.hwfit_shard_max_batch(_ct.byref(m), _ct.byref(x2),
                                          65536 if w.training else 1048576,
                                          _ct.byref(max_batch)), "max_batch")
    out = w.header()
    out.update({
        "weights": w.weights_name,
        "kv": None if w.training else w.kv_name,
        "context": x.memory.context,
        "batch": o.layout.global_batch if w.training else x.memory.batch,
        "fits": bool(o.fits),
        "gpu_fits": bool(o.gpu_fits),
        "host_fits": bool(o.host_fits),
        "per_gpu_bytes": o.worst.total_bytes,
        "gpu_capacity_bytes": o.capacity_bytes,
        "usable_bytes": o.usable_bytes,
        "headroom_bytes": o.headroom_bytes,
        "layout": _layout_dict(o.layout),
        "breakdown": dict({"stage": o.worst_stage},
                          **{k: getattr(o.worst, k) for k in _PARTS}),
        "cards": cards,
        "host_bytes": o.host_bytes,
        "kv_tokens": None if w.training else o.kv_tokens,
        "min_gpus": n.value or None,
        "max_context": max_context.value,
        "max_batch": max_batch.value,
        "valid_layouts": summary.valid,
        "fitting_layouts": summary.fitting,
    })
    return out


def plan(config=None, gpu=None, gpus=1, capacity=None, mode="inference", weights=None,
         kv="bf16", context=4096, batch=None, micro_batch=None, prefill_chunk=2048,
         overhead=None, optimizer="adamw", gradients="bf16", recompute=None, lora_rank=16,
         lora_targets="all", tp=None, pp=None, dp=None, cp=None, ep=None, etp=None,
         virtual_stages=None, sequence_parallel=False, no_sequence_parallel=False, zero=None,
         offload=None, even_layers=False, utilization=0.9, reserve=None, host_memory=None,
         host_buffer_factor=1.0, max_gpus=256, top=10):
    """Same as `hwfit plan --json`: the layouts of `gpus` cards that fit, best first."""
    kw = dict(locals())
    top = _count(kw.pop("top"), "top")
    if not 1 <= top <= 1000:
        raise _einval("top must be 1 to 1000")
    w = _workload(kw)
    results = (_lib.hwfit_shard_result * top)()
    summary = _lib.hwfit_shard_search_out()
    _lib.check(_lib.hwfit_shard_search(_ct.byref(w.model), _ct.byref(w.shard_in),
                                       _ct.byref(w.space), results, top, _ct.byref(summary)),
               "search")
    rows = []
    for i in range(summary.count):
        r = results[i]
        row = {"rank": i + 1}
        row.update(_layout_dict(r.layout))
        row.update({"per_gpu_bytes": r.per_gpu_bytes, "headroom_bytes": r.headroom_bytes,
                    "host_bytes": r.host_bytes, "kv_tokens": r.kv_tokens,
                    "worst_stage": r.worst_stage})
        rows.append(row)
    out = w.header()
    out.update({"visited": summary.visited, "valid_layouts": summary.valid,
                "fitting_layouts": summary.fitting, "ranked_by": "headroom", "layouts": rows})
    return out

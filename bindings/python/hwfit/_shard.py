"""Sharding across cards (shard.h): `hwfit fit` and `hwfit plan` as Python functions.

Every number comes from the C library; this layer converts arguments, runs the same calls
as the CLI and names the results exactly as the CLI's --json output does.
"""
import ctypes as _ct

from . import _lib
from ._lib import HwfitError
from ._args import choice as _choice, count as _count, invalid as _einval
from ._model import MEMORY_MODES, OPTIMIZERS, RECOMPUTE, _as_model, dtype, dtype_name
from ._model import PHASES as _PHASES, assumptions as _assumptions
from ._model import FRAMEWORK_OPTIONS as _FRAMEWORK_OPTIONS, apply_framework as _apply_framework

__all__ = ["fit", "plan", "perf"]

_RECOMPUTE_NAMES = {v: k for k, v in RECOMPUTE.items()}
_OFFLOAD_NAMES = {0: "none", 1: "optimizer", 2: "params", 3: "optimizer,params"}
_MODEL_MAX_SIZE = 1099511627776  # HWFIT_MODEL_MAX_SIZE
_P2P = {"auto": _lib.HWFIT_TOPOLOGY_AUTO, "on": _lib.HWFIT_TOPOLOGY_ON,
        "off": _lib.HWFIT_TOPOLOGY_OFF}

#: Options of `hwfit fit`, `hwfit plan` and `hwfit perf` with their defaults (workload.c).
_OPTIONS = dict(
    gpu=None, gpus=1, capacity=None, mode="inference", weights=None, kv="bf16", context=4096,
    batch=None, micro_batch=None, prefill_chunk=2048, overhead=None, optimizer="adamw",
    gradients="bf16", recompute=None, lora_rank=16, lora_targets="all", tp=None, pp=None,
    dp=None, cp=None, ep=None, etp=None, virtual_stages=None, sequence_parallel=False,
    no_sequence_parallel=False, zero=None, offload=None, even_layers=False, utilization=0.9,
    reserve=None, host_memory=None, host_buffer_factor=1.0, max_gpus=256, gpus_per_node=8,
    nic=None, p2p="auto", output_tokens=0, target_rate=None, precision=None,
    prefill_efficiency=0.6, decode_efficiency=0.6, memory_efficiency=0.85,
    training_efficiency=0.65, step_overhead=None, tp_overlap=0.0, pp_overlap=0.0,
    dp_overlap=0.5, ep_overlap=0.0, no_master_weights=False, no_dropout=False,
    **_FRAMEWORK_OPTIONS)


def _options(config, options, extra=()):
    unknown = set(options) - set(_OPTIONS) - set(extra)
    if unknown:
        raise _einval(f"unknown option(s): {', '.join(sorted(unknown))}")
    kw = dict(_OPTIONS)
    kw.update({k: v for k, v in options.items() if k in _OPTIONS})
    kw["config"] = config
    kw["_given"] = set(options)  # what the user passed (over a framework profile)
    return kw


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
                 utilization, reserve, host_memory, host_buffer_factor, max_gpus,
                 gpus_per_node, nic, p2p, output_tokens, target_rate, precision,
                 prefill_efficiency, decode_efficiency, memory_efficiency, training_efficiency,
                 step_overhead, tp_overlap, pp_overlap, dp_overlap, ep_overlap,
                 no_master_weights=False, no_dropout=False, _given=(), **framework):
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
        self.framework, self.profile_recompute = _apply_framework(
            m, self.gpus, set(_given),
            dict(optimizer=optimizer, gradients=gradients, overhead=overhead,
                 no_master_weights=no_master_weights, no_dropout=no_dropout), framework)
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
        elif self.profile_recompute:
            s.recompute = x.memory.recompute
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

        # The throughput inputs (workload.c): the card, the cluster, the assumptions.
        p = _lib.hwfit_perf_in()
        _lib.hwfit_perf_init(_ct.byref(p))
        if self.card is not None:
            _lib.check(_lib.hwfit_perf_set_gpu(_ct.byref(p), _ct.byref(self.card)), "gpu")
        gpn = _count(gpus_per_node, "gpus_per_node")
        if not 1 <= gpn <= _lib.HWFIT_TOPOLOGY_MAX_GPUS_PER_NODE:
            raise _einval(f"gpus_per_node must be 1 to {_lib.HWFIT_TOPOLOGY_MAX_GPUS_PER_NODE}")
        p.topology.gpus_per_node = gpn
        if p.topology.sockets > gpn or gpn % p.topology.sockets:
            p.topology.sockets = 1
        p.topology.p2p = _choice(_P2P, p2p, "p2p")
        if nic is not None:
            if not isinstance(nic, str) or _lib.hwfit_topology_parse_nic(
                    nic.encode(), _ct.byref(p.topology)) != _lib.HWFIT_OK:
                raise _einval(f"nic: {nic!r} is not a NIC such as 2x400g-roce")
        if self.card is not None and self.gpus > gpn and nic is None:
            raise _einval(f"{self.gpus} GPUs span {-(-self.gpus // gpn)} nodes of {gpn}: give "
                          "the network between them with nic= (e.g. '8x400g-ib')")
        if precision is not None:
            v = _ct.c_int()
            if not isinstance(precision, str) or _lib.hwfit_perf_precision_from_name(
                    precision.encode(), _ct.byref(v)) != _lib.HWFIT_OK:
                raise _einval(f"precision: {precision!r} is not auto, tf32, bf16, fp8, fp4 "
                              "or int8")
            p.precision = v.value
        p.output_tokens = _count(output_tokens, "output_tokens", tokens=True)
        p.target_tokens_per_s = _number(target_rate or 0, "target_rate")
        p.prefill_efficiency = _number(prefill_efficiency, "prefill_efficiency")
        p.decode_compute_efficiency = _number(decode_efficiency, "decode_efficiency")
        p.memory_efficiency = _number(memory_efficiency, "memory_efficiency")
        p.training_efficiency = _number(training_efficiency, "training_efficiency")
        if step_overhead is not None:
            p.step_overhead_s = _quantity(step_overhead, "seconds", "step_overhead")
        p.tp_overlap = _number(tp_overlap, "tp_overlap")
        p.pp_overlap = _number(pp_overlap, "pp_overlap")
        p.dp_overlap = _number(dp_overlap, "dp_overlap")
        p.ep_overlap = _number(ep_overlap, "ep_overlap")
        p.shard = x
        self.perf_in = p
        self.model = _as_model(config)

    def rank_name(self, space):
        """cli_workload_rank_name: hwfit_perf_plan's ranking metric, by name."""
        rank = _ct.c_int()
        _lib.check(_lib.hwfit_perf_plan_rank(_ct.byref(self.perf_in), _ct.byref(space),
                                             _ct.byref(rank)), "rank")
        return _lib.hwfit_perf_rank_name(rank.value).decode()

    def best(self):
        """cli_workload_best: (layout, summary, ranked_by, timed); timed is the layout's
        hwfit_perf_result when ranked by throughput, else None."""
        space = _lib.hwfit_shard_space.from_buffer_copy(self.space)
        space.include_unfit = 1
        summary = _lib.hwfit_shard_search_out()
        if self.card is not None:
            r = _lib.hwfit_perf_result()
            st = _lib.hwfit_perf_plan(_ct.byref(self.model), _ct.byref(self.perf_in),
                                      _ct.byref(space), _ct.byref(r), 1, _ct.byref(summary))
            if st == _lib.HWFIT_OK:
                if summary.count == 0:
                    raise self.no_layout()
                return r.shard.layout, summary, self.rank_name(space), r
            if st != _lib.HWFIT_EUNSUPPORTED:
                raise self.refused(st, True)
        r = _lib.hwfit_shard_result()
        st = _lib.hwfit_shard_search(_ct.byref(self.model), _ct.byref(self.shard_in),
                                     _ct.byref(space), _ct.byref(r), 1, _ct.byref(summary))
        if st != _lib.HWFIT_OK:
            raise self.refused(st, False)
        if summary.count == 0:
            raise self.no_layout()
        return r.layout, summary, "headroom", None

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

    # C fields (of hwfit_shard_in, or hwfit_perf_in without "shard.") whose keyword
    # argument is not named like them; the others are named by their last component.
    _NAMES = {"capacity_bytes": "capacity", "reserve_bytes": "reserve",
              "host_memory_bytes": "host_memory", "memory.overhead_bytes": "overhead",
              "memory.qlora_base": "weights", "memory.unquantized": "weights",
              "layout.zero_stage": "zero", "decode_compute_efficiency": "decode_efficiency",
              "step_overhead_s": "step_overhead", "target_tokens_per_s": "target_rate",
              "memory_bandwidth_bytes_per_s": "gpu", "topology.nics_per_node": "nic",
              "topology.nic_bits_per_s": "nic", "topology.gpus_per_node": "gpus_per_node"}

    def refused(self, status, timed):
        """cli_workload_refused: the error for a failed search, plan or estimate, naming
        the keyword argument at fault and its rule (the _validate companion on the layout
        the options name)."""
        x = _lib.hwfit_perf_in.from_buffer_copy(self.perf_in)
        x.shard.layout = self.layout()
        if self.layout_given:
            why = _ct.c_int()
            if (_lib.hwfit_shard_check(_ct.byref(self.model), _ct.byref(x.shard),
                                       _ct.byref(why)) == _lib.HWFIT_OK
                    and why.value != _lib.HWFIT_SHARD_VALID):
                return self.bad_layout(x.shard.layout, why.value)
        p = _lib.hwfit_problem()
        if timed:
            vst = _lib.hwfit_perf_validate(_ct.byref(self.model), _ct.byref(x), _ct.byref(p))
        else:
            vst = _lib.hwfit_shard_validate(_ct.byref(self.model), _ct.byref(x.shard),
                                            _ct.byref(p))
        name = _lib.hwfit_status_name(status).decode()
        message = _lib.hwfit_status_str(status).decode()
        if vst != status or vst == _lib.HWFIT_ELAYOUT:
            return HwfitError(status, name, message, "plan" if timed else "search")
        field = (p.field or b"").decode()
        if field.startswith("shard."):
            field = field[6:]
        field = self._NAMES.get(field, field.rsplit(".", 1)[-1])
        rule = (p.rule or b"").decode()
        return HwfitError(status, name, message, f"{field} {rule}".strip() if field else rule)

    def bad_layout(self, lay, why):
        """An invalid layout the options name: the argument and the numbers."""
        reason = _lib.hwfit_shard_reason_str(why).decode()
        if why == _lib.HWFIT_SHARD_GPUS:
            text = (f"tp {lay.tp} x pp {lay.pp} x dp {lay.dp} x cp {lay.cp} is not the "
                    f"{self.gpus} GPUs of gpus")
        elif why == _lib.HWFIT_SHARD_HEADS:
            text = (f"tp {lay.tp}: the {self.model.heads} attention heads do not divide by "
                    f"{lay.tp}")
        elif why == _lib.HWFIT_SHARD_KV_HEADS:
            text = (f"tp {lay.tp}: the {self.model.kv_heads} key/value heads do not divide by "
                    f"{lay.tp}, nor {lay.tp} by them")
        else:
            arg = {_lib.HWFIT_SHARD_MLP_WIDTH: "tp", _lib.HWFIT_SHARD_EXPERT_WIDTH: "etp",
                   _lib.HWFIT_SHARD_EXPERTS: "ep", _lib.HWFIT_SHARD_EXPERT_RANKS: "ep",
                   _lib.HWFIT_SHARD_STAGES: "pp", _lib.HWFIT_SHARD_UNEVEN: "pp",
                   _lib.HWFIT_SHARD_VIRTUAL_STAGES: "virtual_stages",
                   _lib.HWFIT_SHARD_VIRTUAL_LAYERS: "virtual_stages",
                   _lib.HWFIT_SHARD_VIRTUAL_MICROBATCHES: "virtual_stages",
                   _lib.HWFIT_SHARD_SEQUENCE_PARALLEL: "sequence_parallel",
                   _lib.HWFIT_SHARD_CONTEXT: "context", _lib.HWFIT_SHARD_BATCH: "batch",
                   _lib.HWFIT_SHARD_ZERO_INFERENCE: "zero",
                   _lib.HWFIT_SHARD_OFFLOAD_INFERENCE: "offload",
                   _lib.HWFIT_SHARD_OFFLOAD_ZERO: "offload"}.get(why, "layout")
            text = f"{arg}: {reason}"
        return HwfitError(_lib.HWFIT_ELAYOUT, "HWFIT_ELAYOUT", text)

    def no_layout(self):
        """The error the CLI reports when no layout is valid."""
        if self.layout_given:
            x = _lib.hwfit_shard_in.from_buffer_copy(self.shard_in)
            why = _ct.c_int()
            _lib.check(_lib.hwfit_shard_check(_ct.byref(self.model), _ct.byref(x),
                                              _ct.byref(why)), "layout")
            if why.value != _lib.HWFIT_SHARD_VALID:
                return self.bad_layout(x.layout, why.value)
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


def fit(config=None, **options):
    """Same as `hwfit fit --json`: per-card memory under the fastest layout that fits (or the
    one the options name), whether it fits, the fewest GPUs, the longest context, the largest
    batch. Options are those of the CLI with dashes as underscores; sizes are bytes or
    strings such as "96GiB"; contexts accept "128K"."""
    w = _Workload(**_options(config, options))
    m, x = w.model, w.shard_in
    layout, summary, ranked_by, timed = w.best()
    x2 = _lib.hwfit_shard_in.from_buffer_copy(x)
    x2.layout = layout
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
        row.update({"peak_bytes": c.peak_bytes, "peak_phase": _PHASES[c.peak_phase]})
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
        "per_gpu_bytes": o.worst.peak_bytes,
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
        "ranked_by": ranked_by,
        "step_time_s": timed.step_time_s if timed is not None else None,
        "tokens_per_s": timed.tokens_per_s if timed is not None else None,
        "peak_phase": _PHASES[o.worst.peak_phase],
        "peak_allocated_bytes": o.worst.allocated_bytes,
        "peak_reserved_bytes": o.worst.reserved_bytes,
        "peak_bytes": o.worst.peak_bytes,
        "sum_bytes": o.worst.total_bytes,
        "phases": {"forward_bytes": o.worst.forward_bytes,
                   "backward_bytes": o.worst.backward_bytes,
                   "step_bytes": o.worst.step_bytes},
    })
    if w.training:
        mem = _lib.hwfit_memory_in.from_buffer_copy(x2.memory)
        mem.recompute = o.layout.recompute
        out["assumptions"] = _assumptions(w.framework, mem)
    return out


def plan(config=None, **options):
    """Same as `hwfit plan --json`: the layouts of `gpus` cards that fit, best first (with a
    `gpu` by training tokens/s at each layout's own global batch, by step time at a given
    `batch`, or by decode rate; by memory headroom with `capacity` only)."""
    top = _count(options.pop("top", 10), "top")
    if not 1 <= top <= 1000:
        raise _einval("top must be 1 to 1000")
    w = _Workload(**_options(config, options))
    summary = _lib.hwfit_shard_search_out()
    by_time = w.card is not None
    ranked_by = w.rank_name(w.space)
    if by_time:
        timed = (_lib.hwfit_perf_result * top)()
        st = _lib.hwfit_perf_plan(_ct.byref(w.model), _ct.byref(w.perf_in), _ct.byref(w.space),
                                  timed, top, _ct.byref(summary))
        if st == _lib.HWFIT_EUNSUPPORTED:
            by_time = False
        elif st != _lib.HWFIT_OK:
            raise w.refused(st, True)
    if not by_time:
        ranked_by = "headroom"
        results = (_lib.hwfit_shard_result * top)()
        st = _lib.hwfit_shard_search(_ct.byref(w.model), _ct.byref(w.shard_in),
                                     _ct.byref(w.space), results, top, _ct.byref(summary))
        if st != _lib.HWFIT_OK:
            raise w.refused(st, False)
    rows = []
    for i in range(summary.count):
        r = timed[i].shard if by_time else results[i]
        row = {"rank": i + 1}
        row.update(_layout_dict(r.layout))
        row.update({"per_gpu_bytes": r.per_gpu_bytes, "headroom_bytes": r.headroom_bytes,
                    "host_bytes": r.host_bytes, "kv_tokens": r.kv_tokens,
                    "worst_stage": r.worst_stage,
                    "step_time_s": timed[i].step_time_s if by_time else None,
                    "tokens_per_s": timed[i].tokens_per_s if by_time else None,
                    "mfu": timed[i].mfu if by_time and w.training else None})
        x2 = _lib.hwfit_shard_in.from_buffer_copy(w.shard_in)
        x2.layout = r.layout
        so = _lib.hwfit_shard_out()
        st = _lib.hwfit_shard_estimate(_ct.byref(w.model), _ct.byref(x2), _ct.byref(so))
        row["peak_phase"] = _PHASES[so.worst.peak_phase] if st == _lib.HWFIT_OK else None
        rows.append(row)
    out = w.header()
    out.update({"visited": summary.visited, "valid_layouts": summary.valid,
                "fitting_layouts": summary.fitting, "ranked_by": ranked_by, "layouts": rows})
    return out


def perf(config=None, **options):
    """Same as `hwfit perf --json`: prefill, decode and training throughput on a roofline
    for the fastest layout that fits (or the one the options name)."""
    w = _Workload(**_options(config, options))
    if w.card is None:
        raise _einval("gpu is required: throughput needs the card's FLOPS and bandwidth")
    layout, summary, ranked_by, _ = w.best()
    p = _lib.hwfit_perf_in.from_buffer_copy(w.perf_in)
    p.shard.layout = layout
    o = _lib.hwfit_perf_out()
    st = _lib.hwfit_perf_estimate(_ct.byref(w.model), _ct.byref(p), _ct.byref(o))
    if st != _lib.HWFIT_OK:
        raise w.refused(st, True)
    inf = not w.training

    def val(ok, v):
        return v if ok else None

    out = w.header()
    out.update({
        "weights": w.weights_name,
        "kv": None if w.training else w.kv_name,
        "context": p.shard.memory.context,
        "batch": o.shard.layout.global_batch if w.training else p.shard.memory.batch,
        "precision": _lib.hwfit_perf_precision_name(o.precision).decode(),
        "peak_flop_per_s": o.peak_flop_per_s,
        "memory_bandwidth_bytes_per_s": p.memory_bandwidth_bytes_per_s,
        "layout": _layout_dict(o.shard.layout),
        "ranked_by": ranked_by,
        "fits": bool(o.shard.fits),
        "per_gpu_bytes": o.shard.worst.peak_bytes,
        "prefill_s": val(inf, o.prefill_s),
        "prefill_compute_s": val(inf, o.prefill_compute_s),
        "prefill_memory_s": val(inf, o.prefill_memory_s),
        "prefill_comm_s": val(inf, o.prefill_comm_s),
        "prefill_tokens_per_s": val(inf, o.prefill_tokens_per_s),
        "decode_context": val(inf, o.decode_context),
        "time_per_output_token_s": val(inf, o.time_per_output_token_s),
        "decode_tokens_per_s": val(inf, o.decode_tokens_per_s),
        "decode_compute_s": val(inf, o.decode_compute_s),
        "decode_memory_s": val(inf, o.decode_memory_s),
        "decode_comm_s": val(inf, o.decode_comm_s),
        "bound": val(inf, _lib.hwfit_perf_bound_name(o.bound).decode()),
        "compute_bound_batch": val(inf and o.compute_bound_batch, o.compute_bound_batch),
        "offline_tokens_per_s": val(inf and p.output_tokens > 0, o.offline_tokens_per_s),
        "target_tokens_per_s": val(inf and p.target_tokens_per_s > 0, p.target_tokens_per_s),
        "target_batch": val(inf and p.target_tokens_per_s > 0 and o.target_batch,
                            o.target_batch),
        "target_fits": val(inf and p.target_tokens_per_s > 0 and o.target_batch,
                           bool(o.target_fits)),
        "step_time_s": val(w.training, o.step_time_s),
        "step_compute_s": val(w.training, o.step_compute_s),
        "bubble_s": val(w.training, o.bubble_s),
        "tp_comm_s": val(w.training, o.tp_comm_s),
        "pp_comm_s": val(w.training, o.pp_comm_s),
        "dp_comm_s": val(w.training, o.dp_comm_s),
        "ep_comm_s": val(w.training, o.ep_comm_s),
        "offload_s": val(w.training, o.offload_s),
        "tokens_per_s": val(w.training, o.tokens_per_s),
        "model_flop_per_step": val(w.training, o.model_flop_per_step),
        "mfu": val(w.training, o.mfu),
        "hfu": val(w.training, o.hfu),
    })
    return out

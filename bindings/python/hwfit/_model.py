"""Number formats, model arithmetic and memory footprints (dtype.h, model.h, memory.h,
hf_config.h): `hwfit dtypes`, `hwfit model` and `hwfit memory` as Python functions.

Every number comes from the C library; this layer converts arguments and names results.
"""
import ctypes as _ct
import os as _os

from . import _lib
from ._args import choice as _choice, count as _count, invalid as _einval

__all__ = ["dtypes", "dtype", "dtype_name", "dtype_bits", "dtype_bytes", "load_config", "params", "lora_params", "model", "memory"]

#: Choices of `hwfit memory --mode`, `--optimizer` and `--recompute`, in CLI order.
MEMORY_MODES = {"inference": _lib.HWFIT_MEMORY_INFERENCE, "full": _lib.HWFIT_MEMORY_FULL,
                "lora": _lib.HWFIT_MEMORY_LORA, "qlora": _lib.HWFIT_MEMORY_QLORA}
OPTIMIZERS = {"adamw": _lib.HWFIT_MEMORY_ADAMW, "adamw-8bit": _lib.HWFIT_MEMORY_ADAMW_8BIT,
              "sgd": _lib.HWFIT_MEMORY_SGD}
RECOMPUTE = {"none": _lib.HWFIT_MEMORY_RECOMPUTE_NONE,
             "selective": _lib.HWFIT_MEMORY_RECOMPUTE_SELECTIVE,
             "full": _lib.HWFIT_MEMORY_RECOMPUTE_FULL}


def dtype(name):
    """Parse a format name ("bf16", "int4-g64", "q4_k") into a hwfit_dtype."""
    out = _lib.hwfit_dtype()
    if not isinstance(name, str):
        raise _einval(f"expected a format name, got {name!r}")
    _lib.check(_lib.hwfit_dtype_parse(name.encode(), _ct.byref(out)),
               f"unknown number format {name!r} (see hwfit.dtypes())")
    return out


def dtype_name(d):
    """The canonical name of a hwfit_dtype."""
    buf = _ct.create_string_buffer(_lib.HWFIT_DTYPE_NAME_SIZE)
    _lib.check(_lib.hwfit_dtype_format(d, buf, len(buf)))
    return buf.value.decode()


def dtype_bits(name):
    """Bits per stored element of a format, block scales included (q4_k: 4.5)."""
    bits = _ct.c_double()
    _lib.check(_lib.hwfit_dtype_bits(dtype(name), _ct.byref(bits)))
    return bits.value


def dtype_bytes(name, elements):
    """Exact bytes of `elements` values of a format (whole blocks)."""
    out = _ct.c_uint64()
    _lib.check(_lib.hwfit_dtype_bytes(dtype(name), int(elements), _ct.byref(out)))
    return out.value


def dtypes():
    """Same as `hwfit dtypes --json`: every format with its bits per element."""
    rows = []
    for i in range(_lib.hwfit_dtype_count()):
        d = _lib.hwfit_dtype()
        _lib.check(_lib.hwfit_dtype_at(i, _ct.byref(d)))
        info = _lib.hwfit_dtype_info()
        _lib.check(_lib.hwfit_dtype_describe(d, _ct.byref(info)))
        rows.append({"name": dtype_name(d), "bits_per_element": info.bits_per_element,
                     "block_elements": info.block_elements, "block_bits": info.block_bits,
                     "quantized": bool(info.quantized),
                     "description": info.description.decode()})
    return {"dtypes": rows}


def load_config(path=None, text=None, name=None):
    """A hwfit_model (ctypes struct) from a config.json path, or from its text (str/bytes)."""
    m = _lib.hwfit_model()
    err = _lib.hwfit_error()
    if text is not None:
        data = text.encode() if isinstance(text, str) else bytes(text)
        label = (name or "config.json").encode()
        st = _lib.hwfit_hf_config_parse(data, len(data), label, _ct.byref(m), _ct.byref(err))
    else:
        if not isinstance(path, (str, bytes, _os.PathLike)):
            raise _einval(f"config: expected a path, got {path!r}")
        st = _lib.hwfit_hf_config_load(_os.fsencode(path), _ct.byref(m), _ct.byref(err))
    _lib.check(st, None, err)
    return m


def _as_model(config):
    return config if isinstance(config, _lib.hwfit_model) else load_config(config)


def params(config):
    """Exact parameter counts of a model (a path or a hwfit_model), as a dict."""
    m = _as_model(config)
    p = _lib.hwfit_model_param_counts()
    _lib.check(_lib.hwfit_model_params(_ct.byref(m), _ct.byref(p)))
    out = {k: getattr(p, k) for k, _ in p._fields_ if k not in ("dense", "moe")}
    for kind in ("dense", "moe"):
        lp = getattr(p, kind)
        out[kind] = {k: getattr(lp, k) for k, _ in lp._fields_}
    return out


def lora_params(config, rank=16, targets="all"):
    """LoRA adapter parameters of a model: r (in + out) per targeted matrix."""
    m = _as_model(config)
    bits = _ct.c_uint()
    _lib.check(_lib.hwfit_memory_lora_targets_parse(str(targets).encode(), _ct.byref(bits)),
               f"lora_targets {targets!r}")
    out = _ct.c_uint64()
    _lib.check(_lib.hwfit_memory_lora_params(_ct.byref(m), _count(rank, "lora_rank"),
                                             bits.value, _ct.byref(out)))
    return out.value


def model(config, weights="bf16", kv="bf16", batch=1, context=4096, mtp=False):
    """Same as `hwfit model --config FILE --json`: exact parameters, weights, KV cache, FLOPs."""
    mem = _lib.hwfit_memory_in()
    _lib.hwfit_memory_init(_ct.byref(mem))
    mem.weights = dtype(weights)
    mem.kv = dtype(kv)
    mem.batch = _count(batch, "batch")
    mem.context = _count(context, "context", tokens=True)
    mem.mtp = 1 if mtp else 0
    m = _as_model(config)
    p = _lib.hwfit_model_param_counts()
    _lib.check(_lib.hwfit_model_params(_ct.byref(m), _ct.byref(p)), "parameters")
    fp = _lib.hwfit_memory_out()
    _lib.check_input(_lib.hwfit_memory_estimate(_ct.byref(m), _ct.byref(mem), _ct.byref(fp)),
                     _lib.hwfit_memory_validate, _ct.byref(m), _ct.byref(mem))
    kin = _lib.hwfit_model_kv_in()
    _lib.hwfit_model_kv_init(_ct.byref(kin))
    kin.dtype = mem.kv
    kin.batch = mem.batch
    kin.context = mem.context
    kin.include_mtp = mem.mtp
    kvo = _lib.hwfit_model_kv_out()
    _lib.check_input(_lib.hwfit_model_kv(_ct.byref(m), _ct.byref(kin), _ct.byref(kvo)),
                     _lib.hwfit_model_kv_validate, _ct.byref(m), _ct.byref(kin))
    fl = _lib.hwfit_model_flops_out()
    _lib.check(_lib.hwfit_model_flops(_ct.byref(m), mem.context, _ct.byref(fl)), "FLOPs")
    return {
        "model_type": m.name.decode(),
        "layers": m.layers,
        "dense_layers": p.dense_layers,
        "moe_layers": p.moe_layers,
        "sliding_layers": kvo.sliding_layers,
        "mtp_layers": p.mtp_layers,
        "params_total": p.total,
        "params_active": p.active,
        "params_embedding": p.embedding,
        "params_head": p.head,
        "params_attention": p.attention,
        "params_mlp": p.mlp,
        "params_experts": p.experts,
        "params_shared_experts": p.shared_experts,
        "params_router": p.router,
        "params_norms": p.norms,
        "params_mtp": p.mtp,
        "weights": dtype_name(mem.weights),
        "weights_bytes": fp.weights_bytes,
        "kv": dtype_name(mem.kv),
        "batch": mem.batch,
        "context": mem.context,
        "kv_bytes_per_token": kvo.bytes_per_token,
        "kv_bytes": kvo.bytes,
        "forward_flop_per_token": fl.forward_flop,
    }


def memory(config, mode="inference", weights=None, kv="bf16", batch=1, context=4096,
           prefill_chunk=2048, overhead=None, micro_batch=1, optimizer=None,
           gradients=None, no_master_weights=False, recompute=None,
           no_flash_attention=False, no_dropout=False, tensor_parallel=1, lora_rank=16,
           lora_targets="all", quantize_embeddings=False, mtp=False, **framework):
    """Same as `hwfit memory --config FILE --json`: the footprint of one workload.

    `overhead` is bytes or a size such as "1GiB" (default: the library's 1 GiB). The
    framework options (`framework="torchtune"`, `loss`, `optimizer_states`, ...) are those
    of the CLI with dashes as underscores; optimizer (adamw), gradients (bf16) and
    recompute (none) left as None take the profile's choice, else their defaults."""
    unknown = set(framework) - set(FRAMEWORK_OPTIONS)
    if unknown:
        raise _einval(f"unknown option(s): {', '.join(sorted(unknown))}")
    given = {k for k, v in (("optimizer", optimizer), ("gradients", gradients),
                            ("recompute", recompute), ("overhead", overhead))
             if v is not None} | set(framework)
    optimizer = "adamw" if optimizer is None else optimizer
    gradients = "bf16" if gradients is None else gradients
    recompute = "none" if recompute is None else recompute
    from . import parse_quantity
    mem = _lib.hwfit_memory_in()
    _lib.hwfit_memory_init(_ct.byref(mem))
    mem.mode = _choice(MEMORY_MODES, mode, "mode")
    mem.optimizer = _choice(OPTIMIZERS, optimizer, "optimizer")
    mem.recompute = _choice(RECOMPUTE, recompute, "recompute")
    if weights is not None:
        if mem.mode == _lib.HWFIT_MEMORY_QLORA:
            mem.qlora_base = dtype(weights)
        else:
            mem.weights = dtype(weights)
    mem.kv = dtype(kv)
    mem.gradients = dtype(gradients)
    mem.batch = _count(batch, "batch")
    mem.context = _count(context, "context", tokens=True)
    mem.prefill_chunk = _count(prefill_chunk, "prefill_chunk", tokens=True)
    mem.micro_batch = _count(micro_batch, "micro_batch")
    if overhead is not None:
        mem.overhead_bytes = parse_quantity(overhead, "bytes")
    mem.master_weights = 0 if no_master_weights else 1
    mem.flash_attention = 0 if no_flash_attention else 1
    mem.dropout = 0 if no_dropout else 1
    mem.keep_embeddings = 0 if quantize_embeddings else 1
    mem.mtp = 1 if mtp else 0
    rank, tp = _count(lora_rank, "lora_rank"), _count(tensor_parallel, "tensor_parallel")
    if rank >= 2**32 or tp >= 2**32:
        raise _einval("lora_rank and tensor_parallel must be below 2^32")
    mem.lora_rank, mem.tensor_parallel = rank, tp
    bits = _ct.c_uint()
    if not isinstance(lora_targets, str):
        raise _einval(f"lora_targets: expected a string, got {lora_targets!r}")
    _lib.check(_lib.hwfit_memory_lora_targets_parse(lora_targets.encode(), _ct.byref(bits)),
               f"lora_targets {lora_targets!r}")
    mem.lora_targets = bits.value
    fw_name, _ = apply_framework(mem, 1, given,
                                 dict(optimizer=optimizer, gradients=gradients,
                                      overhead=overhead, no_master_weights=no_master_weights,
                                      no_dropout=no_dropout), framework)
    m = _as_model(config)
    r = _lib.hwfit_memory_out()
    _lib.check_input(_lib.hwfit_memory_estimate(_ct.byref(m), _ct.byref(mem), _ct.byref(r)),
                     _lib.hwfit_memory_validate, _ct.byref(m), _ct.byref(mem))
    base = mem.qlora_base if mem.mode == _lib.HWFIT_MEMORY_QLORA else mem.weights
    out = {"model_type": m.name.decode(), "mode": mode, "weights": dtype_name(base)}
    if mem.mode != _lib.HWFIT_MEMORY_INFERENCE:
        out.update({"kv": None, "micro_batch": mem.micro_batch, "context": mem.context,
                    "optimizer": {v: k for k, v in OPTIMIZERS.items()}[mem.optimizer],
                    "recompute": {v: k for k, v in RECOMPUTE.items()}[mem.recompute]})
    else:
        out.update({"kv": dtype_name(mem.kv), "batch": mem.batch, "context": mem.context})
    out.update({
        "params": r.params,
        "trainable_params": r.trainable_params,
        "adapter_params": r.adapter_params,
        "weights_bytes": r.weights_bytes,
        "kv_bytes": r.kv_bytes,
        "activation_bytes": r.activation_bytes,
        "gradient_bytes": r.gradient_bytes,
        "optimizer_bytes": r.optimizer_bytes,
        "overhead_bytes": r.overhead_bytes,
        "total_bytes": r.total_bytes,
        "loss_bytes": r.loss_bytes,
        "forward_bytes": r.forward_bytes,
        "backward_bytes": r.backward_bytes,
        "step_bytes": r.step_bytes,
        "peak_phase": PHASES[r.peak_phase],
        "peak_allocated_bytes": r.allocated_bytes,
        "peak_reserved_bytes": r.reserved_bytes,
        "peak_bytes": r.peak_bytes,
    })
    if mem.mode != _lib.HWFIT_MEMORY_INFERENCE:
        out["assumptions"] = assumptions(fw_name, mem)
    return out


PHASES = ("forward", "backward", "step")
LOSSES = ("fp32", "upcast", "chunked", "fused")

#: The framework options of memory, fit, plan and perf (workload.c), with their defaults.
FRAMEWORK_OPTIONS = dict(
    framework="none", optimizer_states="fp32", paged_optimizer=False,
    optimizer_in_backward=False, foreach_optimizer=False, gradient_buffer=False,
    loss="fp32", activation_offload=False, compile=False, fragmentation=0.0,
    attention_weights=None, mlp_weights=None, expert_weights=None, dora=False,
    lora_dropout=False, lora_dtype="bf16", unquantized="bf16", packed=False)


def framework_names():
    out, i = ["none"], 0
    while True:
        name = _lib.hwfit_memory_profile_name(i)
        if name is None:
            return out
        out.append(name.decode())
        i += 1


def apply_framework(mem, gpus, given, base, fw):
    """workload.c's hwfit__workload_memory_options: the profile (for mem.mode and gpus),
    then the options the user gave alone (`given`: names passed), without a profile every
    option's default. `base` holds the workload options a profile may set (optimizer,
    gradients, overhead, recompute as passed). Returns (framework, profile_recompute)."""
    name = fw.get("framework", "none")
    if name not in framework_names():
        raise _einval(f"framework: unknown value {name!r} (expected one of: "
                      f"{', '.join(framework_names())})")
    profile = name != "none"
    profile_recompute = False
    if profile:
        before = mem.recompute
        sets = _ct.c_uint()
        _lib.check(_lib.hwfit_memory_profile_apply(name.encode(), gpus or 1, _ct.byref(mem),
                                                   _ct.byref(sets)), "framework")
        if "optimizer" in given:
            mem.optimizer = _choice(OPTIMIZERS, base["optimizer"], "optimizer")
        if "gradients" in given:
            mem.gradients = dtype(base["gradients"])
        if "overhead" in given and base.get("overhead") is not None:
            from . import parse_quantity
            mem.overhead_bytes = parse_quantity(base["overhead"], "bytes")
        if "recompute" in given:
            mem.recompute = before
        elif sets.value & _lib.HWFIT_PROFILE_RECOMPUTE:
            profile_recompute = True
    for key, attr in (("paged_optimizer", "paged_optimizer"),
                      ("optimizer_in_backward", "optimizer_in_backward"),
                      ("gradient_buffer", "gradient_buffer"),
                      ("activation_offload", "activation_offload"), ("compile", "compile"),
                      ("dora", "dora"), ("lora_dropout", "lora_dropout"),
                      ("packed", "packed")):
        if fw.get(key):
            setattr(mem, attr, 1)
    if fw.get("foreach_optimizer"):
        mem.fused_optimizer = 0
    if base.get("no_master_weights"):
        mem.master_weights = 0
    if base.get("no_dropout"):
        mem.dropout = 0
    if not profile or "optimizer_states" in given:
        mem.optimizer_states = dtype(fw.get("optimizer_states", "fp32"))
    if not profile or "lora_dtype" in given:
        mem.lora_dtype = dtype(fw.get("lora_dtype", "bf16"))
    if not profile or "unquantized" in given:
        mem.unquantized = dtype(fw.get("unquantized", "bf16"))
    if not profile or "loss" in given:
        mem.loss = LOSSES.index(_checked_choice(LOSSES, fw.get("loss", "fp32"), "loss"))
    if not profile or "fragmentation" in given:
        f = fw.get("fragmentation", 0.0)
        if isinstance(f, bool) or not isinstance(f, (int, float)) or not 0 <= f <= 1:
            raise _einval(f"fragmentation: expected a fraction in [0, 1], got {f!r}")
        mem.fragmentation = float(f)
    mods = ("attention_weights", "mlp_weights", "expert_weights")
    if any(fw.get(k) is not None for k in mods):
        base_fmt = mem.qlora_base if mem.mode == _lib.HWFIT_MEMORY_QLORA else mem.weights
        mem.module_formats = 1
        for k in mods:
            setattr(mem, k, dtype(fw[k]) if fw.get(k) is not None else base_fmt)
    return name, profile_recompute


def _checked_choice(choices, value, option):
    if value not in choices:
        raise _einval(f"{option}: unknown value {value!r} (expected one of: "
                      f"{', '.join(choices)})")
    return value


def assumptions(framework, mem):
    """The training choices as `hwfit memory/fit --json` name them ("assumptions")."""
    names = {v: k for k, v in OPTIMIZERS.items()}
    recomputes = {v: k for k, v in RECOMPUTE.items()}
    return {
        "framework": framework,
        "optimizer": names[mem.optimizer],
        "optimizer_states": ("int8" if mem.optimizer == _lib.HWFIT_MEMORY_ADAMW_8BIT
                             else dtype_name(mem.optimizer_states)),
        "master_weights": bool(mem.master_weights),
        "paged_optimizer": bool(mem.paged_optimizer),
        "optimizer_in_backward": bool(mem.optimizer_in_backward),
        "fused_optimizer": bool(mem.fused_optimizer),
        "gradient_buffer": bool(mem.gradient_buffer),
        "gradients": dtype_name(mem.gradients),
        "lora_dtype": dtype_name(mem.lora_dtype),
        "loss": LOSSES[mem.loss],
        "recompute": recomputes[mem.recompute],
        "activation_offload": bool(mem.activation_offload),
        "compile": bool(mem.compile),
        "dropout": bool(mem.dropout),
        "dora": bool(mem.dora),
        "lora_dropout": bool(mem.lora_dropout),
        "packed": bool(mem.packed),
        "module_formats": bool(mem.module_formats),
        "fragmentation": mem.fragmentation,
        "overhead_bytes": int(mem.overhead_bytes),
    }

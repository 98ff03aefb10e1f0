"""Batch evaluation (memory.h and shard.h batch entry points): sweeps of thousands or
millions of configurations in one C call.

Each keyword argument is either one value, used for every configuration, or a sequence
(list, tuple, range, array.array, memoryview, a numpy array) with one value per
configuration; all sequences must have the same length. The inputs are laid out in a
ctypes array of structs the thread keeps (a template copied with memmove, then each varying
field written as a strided column through a memoryview, from a buffer at C speed), the
library evaluates them CHUNK at a time without allocating, and every result field is read
back as a column, so the Python cost per configuration is a few buffer copies.

The results are a dict of lists, one entry per configuration, with the keys (and values)
of the corresponding single-configuration function: hwfit.memory() and the fit fields of
hwfit.fit(). With errors="raise" (default) a failing configuration raises HwfitError
naming its index; with errors="skip" its values are None and "status" lists every
configuration's status name. columns=True gives array.array columns instead, and out=
fills the caller's own (docs/performance.md).
"""
import array as _array
import ctypes as _ct
import os as _os
import struct as _struct
import threading as _threading
import time as _time

from . import _lib
from ._lib import HwfitError
from ._request import _WINDOW, _WINDOW_HOOKS, _cut

__all__ = ["memory_batch", "fit_batch", "load_config"]

#: Choices of --mode, --optimizer and --recompute (memory.h enums), in CLI order.
MEMORY_MODES = {"inference": 0, "full": 1, "lora": 2, "qlora": 3}
OPTIMIZERS = {"adamw": 0, "adamw-8bit": 1, "sgd": 2, "sgd-plain": 3}
RECOMPUTE = {"none": 0, "selective": 1, "full": 2}


def _parse_quantity():
    """hwfit.parse_quantity (the package imports this module first: looked up on use)."""
    from . import parse_quantity
    return parse_quantity


def _einval(message):
    # Cut as the library and the single calls cut a message (a 100 KB value was echoed
    # whole, issue 21).
    return HwfitError(_lib.HWFIT_EINVAL, "HWFIT_EINVAL", _cut(message))


def _choice(table, value, option):
    try:
        return table[value]
    except (KeyError, TypeError):
        raise _einval(f"{option}: unknown value {value!r} (expected one of: "
                      f"{', '.join(table)})") from None


def _count(value, option, tokens=False):
    """A whole number below 2^64 (an int or digits); with tokens=True also "128K"."""
    if isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value < 2**64:
            return value
    elif isinstance(value, str):
        text, mult = value, 1
        if tokens and text[-1:] in ("K", "k"):
            text, mult = text[:-1], 1024
        elif tokens and text[-1:] in ("M", "m"):
            text, mult = text[:-1], 1048576
        if text.isdigit() and text.isascii() and int(text) * mult < 2**64:
            return int(text) * mult
    raise _einval(f"{option}: expected a whole number, got {value!r}")


def _cstr(text, option):
    """A name as C text: UTF-8, and refused with a NUL inside (C would read a prefix)."""
    if not isinstance(text, str):
        raise TypeError(f"{option}: expected str, got {type(text).__name__}")
    if "\0" in text:
        raise _einval(f"{option}: contains a NUL character: {text[:64]!r}")
    return text.encode("utf-8", "replace")


_DTYPES = {}  # format name -> (id, group_size): the formats are the library's constants


def dtype(name):
    """A hwfit_dtype from a format name ("bf16", "int4-g64", "q4_k")."""
    if not isinstance(name, str):
        raise _einval(f"expected a format name, got {name!r}")
    known = _DTYPES.get(name)
    if known is not None:
        return _lib.hwfit_dtype(*known)
    out = _lib.hwfit_dtype()
    st = _lib.hwfit_dtype_parse(_cstr(name, "dtype"), _ct.byref(out))
    if st != _lib.HWFIT_OK:  # the message is made only for a refusal
        _lib.check(st, _cut(f"unknown number format {name!r} (see hwfit.dtypes())"))
    if len(_DTYPES) < 1024:
        _DTYPES[name] = (out.id, out.group_size)
    return out


def load_config(path=None, text=None, name=None):
    """A model (the hwfit_model ctypes struct) from a Hugging Face config.json path, or from
    its text (str or bytes), for the batch functions. A model read from a path can also be
    given as `config` to the commands (fit, memory, ...), which read the file again."""
    m = _lib.hwfit_model()
    err = _lib.hwfit_error()
    if text is not None:
        # str or a bytes-like object; bytes(5) would be five NUL bytes (issue 21).
        if not isinstance(text, (str, bytes, bytearray, memoryview)):
            raise TypeError(f"text: expected str or bytes, got {type(text).__name__}")
        data = text.encode("utf-8", "replace") if isinstance(text, str) else bytes(text)
        label = _cstr(name or "config.json", "name")
        st = _lib.hwfit_hf_config_parse(data, len(data), label, _ct.byref(m), _ct.byref(err))
    else:
        if not isinstance(path, (str, bytes, _os.PathLike)):
            raise _einval(f"config: expected a path, got {path!r}")
        try:
            raw = _os.fsencode(path)
        except UnicodeError:
            raw = b"\0"
        if b"\0" in raw:
            raise _einval(f"config: not a path the system can open: {path!r:.64}")
        st = _lib.hwfit_hf_config_load(raw, _ct.byref(m), _ct.byref(err))
        m._hwfit_path = _os.fsdecode(path)
    _lib.check(st, "config", err)
    return m


_MODELS = {}  # path -> (the file's signature, model, time.monotonic() of the last check
#                 under a window, or -inf): configs read once while unchanged
_MODELS_MAX = 64
_NEVER = float("-inf")
_WINDOW_HOOKS.append(_MODELS.clear)  # a window set: every path is checked again


def _as_model(config):
    """The model of `config`: a model struct as it is; a path read once and kept while the
    file's size, modification and change times and inode are unchanged (a sweep of single
    calls naming the file does not parse it each time). With a revalidation window
    (set_model_cache_window), a path checked less than the window ago is not checked."""
    if isinstance(config, _lib.hwfit_model):
        return config
    if isinstance(config, (str, bytes, _os.PathLike)):
        window = _WINDOW[0]
        now = _NEVER
        try:
            key = _os.fsdecode(config)
            if window:
                now = _time.monotonic()  # taken before the check
                known = _MODELS.get(key)
                if known is not None and 0.0 <= now - known[2] < window:
                    return known[1]
            st = _os.stat(config)
            sig = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        except (OSError, ValueError, UnicodeError, TypeError):
            return load_config(config)  # its refusal names the path
        known = _MODELS.get(key)
        if known is not None and known[0] == sig:
            if window:
                _MODELS[key] = (sig, known[1], now)
            return known[1]
        model = load_config(config)
        if len(_MODELS) >= _MODELS_MAX:
            _MODELS.clear()
        _MODELS[key] = (sig, model, now)
        return model
    return load_config(config)

_FORMATS = {_ct.c_uint64: "Q", _ct.c_uint32: "I", _ct.c_uint: "I", _ct.c_int: "i",
            _ct.c_double: "d"}
_SEQUENCES = (list, tuple, range, _array.array, memoryview)


_SCALARS = frozenset({str, int, float, bool, type(None), bytes})


def _is_seq(value):
    """One value per configuration: a list, tuple, range, array.array, memoryview, or any
    object with the buffer protocol and a length (a numpy array, when numpy is there)."""
    if type(value) in _SCALARS:
        return False
    return isinstance(value, _SEQUENCES) or (
        hasattr(value, "__array_interface__") and hasattr(value, "__len__"))


_KIND_OF = {**{c: "unsigned" for c in "BHILQN"}, **{c: "signed" for c in "bhilqn"},
            "e": "float", "f": "float", "d": "float"}


def _buffer(value, fmt):
    """value as a 1-D memoryview of format fmt when it is a contiguous buffer of the same
    kind (unsigned, signed, floating) and item size: an array.array, a memoryview, a numpy
    array ('<Q', 'L' on LP64...); else None (the values are converted one by one, which
    checks each)."""
    if isinstance(value, (list, tuple, range)):
        return None
    try:
        view = memoryview(value)
    except TypeError:
        return None
    code = view.format.lstrip("@=<")
    if (view.ndim != 1 or len(code) != 1 or _KIND_OF.get(code) != _KIND_OF[fmt] or
            view.itemsize != _array.array(fmt).itemsize or not view.c_contiguous):
        return None
    return view.cast("B").cast(fmt)


#: Most configurations one batch call takes: the inputs, outputs and statuses are arrays
#: of this many C structs (a few KB each), built before the one C call. A longer sequence
#: (range(1, 10**12) would be materialised until memory runs out, issue 21) is refused with
#: this bound, before anything is built: split it into calls of at most this many.
BATCH_MAX = 1 << 20


def _length(kwargs):
    n = None
    for name, value in kwargs.items():
        if _is_seq(value):
            if len(value) > BATCH_MAX:
                raise _einval(f"{name}: {len(value):,} values, more than the {BATCH_MAX:,} one "
                              "batch call takes (split the sequence into several calls)")
            if n is None:
                n = len(value)
            elif len(value) != n:
                raise _einval(f"{name}: {len(value)} values where the other sequences have {n}")
    return 1 if n is None else n


_FIELDS = {}  # (struct, path) -> (offset, ctype)


def _field(struct, path):
    """(offset, ctype) of a field given as "memory.context"."""
    known = _FIELDS.get((struct, path))
    if known is not None:
        return known
    top, offset = struct, 0
    for part in path.split("."):
        desc = getattr(struct, part)
        offset += desc.offset
        struct = dict(struct._fields_)[part]
    _FIELDS[(top, path)] = offset, struct
    return offset, struct


class _Columns:
    """An array of structs (ctypes), its fields seen as strided columns."""

    @classmethod
    def wrap(cls, struct, arr):
        """Columns over an existing array."""
        self = cls.__new__(cls)
        self.struct, self.n, self.size, self.arr = struct, len(arr), _ct.sizeof(struct), arr
        self.raw = memoryview(arr).cast("B")
        return self

    def _view(self, path):
        """(strided memoryview of the field in every struct, its format)."""
        offset, ctype = _field(self.struct, path)
        fmt, width = _FORMATS[ctype], _ct.sizeof(ctype)
        return self.raw.cast(fmt)[offset // width::self.size // width], fmt


def _per(value, convert, n):
    """A column of converted values (conversions cached: sweeps repeat few names)."""
    if not _is_seq(value):
        return [convert(value)] * n
    cache = {}
    out = []
    for v in value:
        key = (type(v), v) if not isinstance(v, (list, dict)) else None
        if key is None or key not in cache:
            c = convert(v)
            if key is None:
                out.append(c)
                continue
            cache[key] = c
        out.append(cache[key])
    return out


def _counts(value, name, n, tokens=False):
    """A uint64 column: plain ints go straight into an array; "128K" strings are read."""
    if not _is_seq(value):
        return _count(value, name, tokens=tokens)
    column = _buffer(value, "Q")
    if column is not None:
        return column
    try:
        return _array.array("Q", value)
    except (TypeError, OverflowError):
        return _array.array("Q", [_count(v, name, tokens=tokens) for v in value])


def _keys(keys, known):
    """The result columns asked for (all by default), in the order given."""
    if keys is None:
        return list(known)
    if isinstance(keys, str) or not all(isinstance(k, str) for k in keys):
        raise _einval(f"keys: expected a list of names, got {keys!r}")
    unknown = [k for k in keys if k not in known]
    if unknown:
        raise _einval(f"keys: unknown {unknown} (expected some of: {', '.join(known)})")
    return list(keys)


#: Configurations evaluated per C call: the inputs, outputs and statuses of one chunk live
#: in a buffer the thread keeps (about 2.6 MB for fit_batch), so a sweep touches no fresh
#: memory but its result columns (fresh pages cost more than the evaluation: a page fault
#: is tens of microseconds on some virtual machines).
CHUNK = 4096


def _scratch(size):
    """The calling thread's scratch buffer, at least size bytes (grown, never shrunk)."""
    buf = getattr(_THREAD, "scratch", None)
    if buf is None or len(buf) < size:
        buf = _THREAD.scratch = bytearray(max(size, 1 << 16))
    return buf


def _zeros(fmt, n):
    """An array.array of n zeros, allocated once."""
    out = _array.array(fmt, [0])
    out *= n
    return out


def _out_buffer(out, key, fmt, n):
    """out[key] as a writable memoryview of n items of format fmt (the caller's column,
    filled in place), or None when out does not name key."""
    if out is None or key not in out:
        return None
    column = out[key]
    view = _buffer(column, fmt)
    if view is None or view.readonly or len(view) != n:
        raise _einval(f"out[{key!r}]: expected a writable buffer of {n} {fmt!r} items "
                      f"(array.array({fmt!r}) or a numpy array of that type), got "
                      f"{type(column).__name__}" +
                      (f" of {len(view)}" if view is not None and len(view) != n else ""))
    return view


def _evaluate(call, model, in_struct, out_struct, template, n, cols, fields, out=None):
    """Evaluate n configurations: the template with the columns `cols` ((path, values,
    name); values a sequence of n) through call(model, ins, count, outs, statuses), CHUNK
    at a time in the thread's scratch. Returns ({key: column of n}, statuses) for fields
    {key: path}: array.arrays, or the caller's buffers of `out` (keys and "status") filled
    in place; a failed configuration's values are 0."""
    k = min(n, CHUNK)
    isz, osz = _ct.sizeof(in_struct), _ct.sizeof(out_struct)
    buf = _scratch(k * (isz + osz + 4))
    ins = (in_struct * k).from_buffer(buf)
    outs = (out_struct * k).from_buffer(buf, k * isz)
    st = (_ct.c_int * k).from_buffer(buf, k * (isz + osz))
    ins_cols = _Columns.wrap(in_struct, ins)
    _ct.memmove(ins, _ct.addressof(template), isz)
    done = 1
    while done < k:  # doubling copies: log2(k) memmoves
        c = min(done, k - done)
        _ct.memmove(_ct.addressof(ins) + done * isz, _ct.addressof(ins), c * isz)
        done += c
    # every column as a buffer of its C format, converted once
    columns = []
    for path, values, name in cols:
        view, fmt = ins_cols._view(path)
        column = values if isinstance(values, _array.array) and values.typecode == fmt \
            else _buffer(values, fmt)
        if column is None:
            try:
                column = _array.array(fmt, values)
            except (TypeError, OverflowError, ValueError):
                raise _einval(f"{name}: a value is not a valid {fmt!r} number") from None
        columns.append((view, memoryview(column)))
    out_cols = _Columns.wrap(out_struct, outs)
    views = {key: out_cols._view(path) for key, path in fields.items()}
    results, targets = {}, {}
    for key, (_, fmt) in views.items():
        given = _out_buffer(out, key, fmt, n)
        results[key] = out[key] if given is not None else _zeros(fmt, n)
        targets[key] = given if given is not None else memoryview(results[key])
    given = _out_buffer(out, "status", "i", n)
    statuses = out["status"] if given is not None else _zeros("i", n)
    st_view, all_st = memoryview(st).cast("B").cast("i"), \
        given if given is not None else memoryview(statuses)
    failed = False
    for lo in range(0, n, k):
        m = min(k, n - lo)
        for view, column in columns:
            view[:m] = column[lo:lo + m]
        call(_ct.byref(model), ins, m, outs, st)
        part = st_view[:m]
        all_st[lo:lo + m] = part
        if part.tobytes().count(0) != 4 * m:  # HWFIT_OK is 0: some configuration failed
            failed = True
            for i, s in enumerate(part):  # its values: 0, not the last chunk's
                if s != _lib.HWFIT_OK:
                    _ct.memset(_ct.addressof(outs) + i * osz, 0, osz)
        for key, (view, _) in views.items():
            targets[key][lo:lo + m] = view[:m]
    return results, statuses, failed


#: Result columns that are verdicts: bool in every call, batch or single.
_BOOL_KEYS = frozenset({"fits", "gpu_fits", "host_fits"})


def _finish(statuses, errors, keys, columns=False, failed=True):
    """The result columns; failing configurations raise or become None (errors="skip").
    statuses: an array.array("i") (or the caller's buffer); keys: [(key, column)];
    failed: False when every status is HWFIT_OK. With columns=True each column stays as it
    is and a failing configuration's entries are 0: "status" (the status codes) says
    which."""
    ok = _lib.HWFIT_OK
    if columns:
        if errors == "raise" and failed and any(statuses):
            i = next(i for i, s in enumerate(statuses) if s != ok)
            _lib.check(statuses[i], f"configuration {i}")
        out = dict(keys)
        if errors == "skip":
            out["status"] = statuses
        return out
    bad = [i for i, s in enumerate(statuses) if s != ok] if failed and any(statuses) else []
    if bad and errors == "raise":
        i = bad[0]
        _lib.check(statuses[i], f"configuration {i}")
    out = {}
    for key, column in keys:
        col = column.tolist()
        if key in _BOOL_KEYS:  # True/False, as the single calls give them (issue 21)
            col = [bool(v) for v in col]
        for i in bad:
            col[i] = None
        out[key] = col
    if errors == "skip":
        names = {}
        out["status"] = [names.setdefault(s, _lib.status_name(s)) for s in statuses]
    return out


def _memory_columns(template_mem, prefix, cols, n, mode, weights, kv, context, prefill_chunk,
                    overhead, optimizer, gradients, no_master_weights, recompute,
                    no_flash_attention, no_dropout, lora_rank, lora_targets,
                    quantize_embeddings, mtp):
    parse_quantity = _parse_quantity()
    m = template_mem
    modes = _per(mode, lambda v: _choice(MEMORY_MODES, v, "mode"), n) if _is_seq(mode) else None
    if modes is None:
        m.mode = _choice(MEMORY_MODES, mode, "mode")
    else:
        cols.append((prefix + "mode", modes, "mode"))
    if _is_seq(optimizer):
        opts = _per(optimizer, lambda v: _choice(OPTIMIZERS, v, "optimizer"), n)
        cols.append((prefix + "optimizer", opts, "optimizer"))
    else:
        m.optimizer = _choice(OPTIMIZERS, optimizer, "optimizer")
    if recompute is not None:
        if _is_seq(recompute):
            cols.append((prefix + "recompute",
                         _per(recompute, lambda v: _choice(RECOMPUTE, v, "recompute"), n),
                         "recompute"))
        else:
            m.recompute = _choice(RECOMPUTE, recompute, "recompute")
    if weights is not None:
        # QLoRA reads its base from qlora_base, the other modes from weights (as memory()).
        q = MEMORY_MODES["qlora"]
        if modes is None and not _is_seq(weights):
            if m.mode == q:
                m.qlora_base = dtype(weights)
            else:
                m.weights = dtype(weights)
        else:
            ds = _per(weights, dtype, n)
            md = modes if modes is not None else [m.mode] * n
            w = [d if k != q else m.weights for d, k in zip(ds, md)]
            b = [d if k == q else m.qlora_base for d, k in zip(ds, md)]
            for attr, col in (("weights", w), ("qlora_base", b)):
                cols.append((f"{prefix}{attr}.id", [d.id for d in col], "weights"))
                cols.append((f"{prefix}{attr}.group_size", [d.group_size for d in col], "weights"))
    for attr, value in (("kv", kv), ("gradients", gradients)):
        if _is_seq(value):
            ds = _per(value, dtype, n)
            cols.append((f"{prefix}{attr}.id", [d.id for d in ds], attr))
            cols.append((f"{prefix}{attr}.group_size", [d.group_size for d in ds], attr))
        elif value is not None:
            setattr(m, attr, dtype(value))
    for attr, value in (("context", context), ("prefill_chunk", prefill_chunk)):
        if value is None:
            continue
        c = _counts(value, attr, n, tokens=True)
        if isinstance(c, int):
            setattr(m, attr, c)
        else:
            cols.append((prefix + attr, c, attr))
    if overhead is not None:
        if _is_seq(overhead):
            cols.append((prefix + "overhead_bytes",
                         _per(overhead, lambda v: parse_quantity(v, "bytes"), n), "overhead"))
        else:
            m.overhead_bytes = parse_quantity(overhead, "bytes")
    for attr, value, invert in (("master_weights", no_master_weights, True),
                                ("flash_attention", no_flash_attention, True),
                                ("dropout", no_dropout, True),
                                ("keep_embeddings", quantize_embeddings, True),
                                ("mtp", mtp, False)):
        if _is_seq(value):
            cols.append((prefix + attr, [int(bool(v)) ^ invert for v in value], attr))
        else:
            setattr(m, attr, int(bool(value)) ^ invert)
    if lora_rank is not None:
        if _is_seq(lora_rank):
            cols.append((prefix + "lora_rank", lora_rank, "lora_rank"))
        else:
            r = _count(lora_rank, "lora_rank")
            if r >= 2**32:
                raise _einval("lora_rank must be below 2^32")
            m.lora_rank = r

    def targets(text):
        if not isinstance(text, str):
            raise _einval(f"lora_targets: expected a string, got {text!r}")
        bits = _ct.c_uint()
        _lib.check(_lib.hwfit_memory_lora_targets_parse(_cstr(text, "lora_targets"),
                                                        _ct.byref(bits)),
                   f"lora_targets {text!r}")
        return bits.value
    if _is_seq(lora_targets):
        cols.append((prefix + "lora_targets", _per(lora_targets, targets, n), "lora_targets"))
    else:
        m.lora_targets = targets(lora_targets)


_MEMORY_KEYS = ["params", "trainable_params", "adapter_params", "weights_bytes", "kv_bytes",
                "activation_bytes", "gradient_bytes", "optimizer_bytes", "overhead_bytes",
                "total_bytes"]


def memory_batch(config, mode="inference", weights=None, kv="bf16", batch=1, context=4096,
                 prefill_chunk=2048, overhead=None, micro_batch=1, optimizer="adamw",
                 gradients="bf16", no_master_weights=False, recompute=None,
                 no_flash_attention=False, no_dropout=False, tensor_parallel=1, lora_rank=16,
                 lora_targets="all", quantize_embeddings=False, mtp=False, errors="raise",
                 keys=None, columns=False, out=None):
    """hwfit.memory() for many configurations in one C call (hwfit_memory_estimate_batch).

    Every option takes one value or a sequence (one value per configuration), e.g.
    memory_batch(cfg, context=range(1024, 131073, 1024), batch=[1] * 128). Returns a dict
    of lists with the numeric keys of hwfit.memory(): params, trainable_params,
    adapter_params, weights_bytes, kv_bytes, activation_bytes, gradient_bytes,
    optimizer_bytes, overhead_bytes, total_bytes (and "status" with errors="skip").
    recompute=None takes each configuration's mode's default, as hwfit.memory() does
    (hwfit_memory_recompute_default: full for lora and qlora, none otherwise); `keys`
    (a list of those names) reads back only those columns, which is most of the Python
    cost of a large sweep.

    Columns in and out: a sequence may be any buffer of whole numbers (array.array("Q"),
    a memoryview, a numpy array of uint64), copied into the inputs at C speed; with
    columns=True every result is an array.array ("Q": counts and bytes) instead of a
    list, read back at C speed (numpy.asarray takes it without a copy), and with
    errors="skip" "status" is an array.array("i") of status codes (0 = HWFIT_OK; a failed
    configuration's values are 0). out={key: buffer} (implies columns=True) fills the
    caller's columns in place instead (each of n items of the key's type: "Q", or "i" for
    "status"), so a sweep that reuses them allocates nothing per call; the result holds
    those objects."""
    if errors not in ("raise", "skip"):
        raise _einval(f"errors: expected 'raise' or 'skip', got {errors!r}")
    args = dict(mode=mode, weights=weights, kv=kv, batch=batch, context=context,
                prefill_chunk=prefill_chunk, overhead=overhead, micro_batch=micro_batch,
                optimizer=optimizer, gradients=gradients, no_master_weights=no_master_weights,
                recompute=recompute, no_flash_attention=no_flash_attention,
                no_dropout=no_dropout, tensor_parallel=tensor_parallel, lora_rank=lora_rank,
                lora_targets=lora_targets, quantize_embeddings=quantize_embeddings, mtp=mtp)
    n = _length(args)
    model = _as_model(config)
    t = _lib.hwfit_memory_in()
    _lib.hwfit_memory_init(_ct.byref(t))
    cols = []
    if recompute is None:  # the mode's default, the library's rule (as hwfit.memory)
        names = {v: k for k, v in RECOMPUTE.items()}

        def mode_default(v):
            return names[_lib.hwfit_memory_recompute_default(_choice(MEMORY_MODES, v, "mode"))]
        recompute = _per(mode, mode_default, n) if _is_seq(mode) else mode_default(mode)
    _memory_columns(t, "", cols, n, mode, weights, kv, context, prefill_chunk, overhead,
                    optimizer, gradients, no_master_weights, recompute, no_flash_attention,
                    no_dropout, lora_rank, lora_targets, quantize_embeddings, mtp)
    for attr, value in (("batch", batch), ("micro_batch", micro_batch)):
        c = _counts(value, attr, n)
        if isinstance(c, int):
            setattr(t, attr, c)
        else:
            cols.append((attr, c, attr))
    if _is_seq(tensor_parallel):
        cols.append(("tensor_parallel", tensor_parallel, "tensor_parallel"))
    else:
        tp = _count(tensor_parallel, "tensor_parallel")
        if tp >= 2**32:
            raise _einval("tensor_parallel must be below 2^32")
        t.tensor_parallel = tp
    wanted = _keys(keys, _MEMORY_KEYS)
    columns = _out_keys(out, wanted, columns)
    if n == 0:
        return _empty(wanted, errors, columns, lambda k: _field(_lib.hwfit_memory_out, k)[1])
    # The per-element statuses say what failed; the return value only repeats the first.
    results, st, failed = _evaluate(_lib.hwfit_memory_estimate_batch, model,
                                    _lib.hwfit_memory_in, _lib.hwfit_memory_out, t, n, cols,
                                    {k: k for k in wanted}, out)
    return _finish(st, errors, [(k, results[k]) for k in wanted], columns, failed)


# (key of the result, field of hwfit_shard_out)
_CARDS = {}  # card name -> memory bytes (hwfit_gpu_find: the built-in catalog)

_FIT_KEYS = [("fits", "fits"), ("gpu_fits", "gpu_fits"), ("host_fits", "host_fits"),
             ("per_gpu_bytes", "worst.total_bytes"), ("usable_bytes", "usable_bytes"),
             ("headroom_bytes", "headroom_bytes"), ("host_bytes", "host_bytes"),
             ("kv_tokens", "kv_tokens"), ("worst_stage", "worst_stage"),
             ("total_bytes", "total_bytes")]


def fit_batch(config, gpu=None, capacity=None, gpus=1, mode="inference", weights=None,
              kv="bf16", context=4096, batch=1, micro_batch=1, prefill_chunk=2048,
              overhead=None, optimizer="adamw", gradients="bf16", recompute="none", tp=1, pp=1,
              dp=None, cp=1, ep=1, zero=0, sequence_parallel=False, utilization=0.9,
              reserve=None, no_flash_attention=False, errors="raise", keys=None,
              columns=False, out=None):
    """Does each configuration fit? hwfit_shard_estimate for many workloads and layouts in
    one C call (hwfit_shard_estimate_batch): a scheduler's jobs against its nodes, or a
    sweep of contexts, batches or layouts. The layout is given (tp, pp, dp, cp, ep, zero,
    sequence_parallel, micro_batch, recompute); dp defaults to gpus / (tp x pp x cp).
    no_flash_attention (one value or one per configuration) is hwfit.fit's: eager attention
    stores the s^2 scores.
    `batch` is the concurrent sequences (inference) or the global batch (training, 0 = a
    full pipeline). Returns a dict of lists: fits, gpu_fits, host_fits (0 or 1),
    per_gpu_bytes (the largest card), usable_bytes, headroom_bytes, host_bytes, kv_tokens,
    worst_stage, total_bytes (all cards), as hwfit.fit() names them; `keys` selects some.
    Buffers in and columns=True out as memory_batch (fits, gpu_fits and host_fits then
    come as array.array("i") of 0 and 1, headroom_bytes as "d"). One configuration is
    answered through a prepared-model cache kept with the model
    (hwfit_shard_estimate_cached): a loop of single fit_batch calls about one model
    prepares it once, and works out the input of arguments it was given before once."""
    # One configuration asked again (a loop of single checks): its input, worked out by a
    # call with the same arguments, is remembered (_ONE_INPUTS).
    memo = None
    if out is None:
        vals = (gpu, capacity, gpus, mode, weights, kv, context, batch, micro_batch,
                prefill_chunk, overhead, optimizer, gradients, recompute, tp, pp, dp, cp, ep,
                zero, sequence_parallel, utilization, reserve, no_flash_attention, errors,
                columns)
        types = tuple(map(type, vals))
        if _PLAIN.issuperset(types):
            if keys is None:
                memo = (vals, types, None)
            elif type(keys) in (list, tuple) and _PLAIN.issuperset(map(type, keys)):
                memo = (vals, types, tuple(keys))
            known = _ONE_INPUTS.get(memo) if memo is not None else None
            if known is not None:
                return _one_fit(_as_model(config), known[0], known[1], errors, columns)
    parse_quantity = _parse_quantity()
    if errors not in ("raise", "skip"):
        raise _einval(f"errors: expected 'raise' or 'skip', got {errors!r}")
    if gpu is None and capacity is None:
        raise _einval("gpu or capacity is required (see hwfit.gpus())")
    args = dict(gpu=gpu, capacity=capacity, gpus=gpus, mode=mode, weights=weights, kv=kv,
                context=context, batch=batch, micro_batch=micro_batch,
                prefill_chunk=prefill_chunk, overhead=overhead, optimizer=optimizer,
                gradients=gradients, recompute=recompute, tp=tp, pp=pp, dp=dp, cp=cp, ep=ep,
                zero=zero, sequence_parallel=sequence_parallel, utilization=utilization,
                reserve=reserve, no_flash_attention=no_flash_attention)
    n = _length(args)
    model = _as_model(config)
    t = _lib.hwfit_shard_in()
    _lib.hwfit_shard_init(_ct.byref(t))
    cols = []
    _memory_columns(t.memory, "memory.", cols, n, mode, weights, kv, context, prefill_chunk,
                    overhead, optimizer, gradients, False, None, no_flash_attention, False,
                    None, "all", False, False)

    def card(name):
        if not isinstance(name, str):
            raise _einval(f"gpu: expected a name, got {name!r}")
        known = _CARDS.get(name)
        if known is not None:
            return known
        p = _ct.POINTER(_lib.hwfit_gpu)()
        st = _lib.hwfit_gpu_find(_cstr(name, "gpu"), _ct.byref(p))
        if st != _lib.HWFIT_OK:
            _lib.check(st, _cut(f"unknown card {name!r} (see hwfit.gpus())"))
        if len(_CARDS) < 1024:  # the built-in catalog is constant
            _CARDS[name] = float(p.contents.memory_bytes)
        return float(p.contents.memory_bytes)
    caps = None
    if gpu is not None:
        caps = _per(gpu, card, n) if _is_seq(gpu) else card(gpu)
    if capacity is not None:
        caps = (_per(capacity, lambda v: parse_quantity(v, "bytes"), n) if _is_seq(capacity)
                else parse_quantity(capacity, "bytes"))
    if isinstance(caps, list):
        cols.append(("capacity_bytes", caps, "capacity"))
    else:
        t.capacity_bytes = caps
    for path, value, unit in (("utilization", utilization, "none"),
                              ("reserve_bytes", reserve, "bytes")):
        if value is None:
            continue
        if _is_seq(value):
            cols.append((path, _per(value, lambda v, u=unit: parse_quantity(v, u), n), path))
        else:
            setattr(t, path, parse_quantity(value, unit))
    # Layout: recomputation and micro-batch belong to it in shard.h.
    if _is_seq(recompute):
        cols.append(("layout.recompute",
                     _per(recompute, lambda v: _choice(RECOMPUTE, v, "recompute"), n),
                     "recompute"))
    else:
        t.layout.recompute = _choice(RECOMPUTE, recompute, "recompute")
    seqs = {}
    for attr, value in (("gpus", gpus), ("tp", tp), ("pp", pp), ("cp", cp), ("ep", ep),
                        ("zero_stage", zero)):
        if _is_seq(value):
            seqs[attr] = list(value)
        else:
            v = _count(value, attr)
            if v >= 2**32:
                raise _einval(f"{attr} must be below 2^32")
            seqs[attr] = v
    if dp is None:
        if all(not isinstance(seqs[k], list) for k in ("gpus", "tp", "pp", "cp")):
            seqs["dp"] = max(1, seqs["gpus"] // max(1, seqs["tp"] * seqs["pp"] * seqs["cp"]))
        else:  # per configuration (a column of n of each only then: 4 x n list items)
            g, a, b, c = (seqs[k] if isinstance(seqs[k], list) else [seqs[k]] * n
                          for k in ("gpus", "tp", "pp", "cp"))
            seqs["dp"] = [max(1, x // max(1, y * z * w)) for x, y, z, w in zip(g, a, b, c)]
    else:
        seqs["dp"] = list(dp) if _is_seq(dp) else _count(dp, "dp")
    for attr, value in seqs.items():
        path = attr if attr == "gpus" else "layout." + attr
        if isinstance(value, list):
            cols.append((path, value, attr))
        else:
            setattr(t if attr == "gpus" else t.layout, attr, value)
    for attr, value in (("layout.micro_batch", micro_batch), ("layout.global_batch", None)):
        if value is None:
            continue
        c = _counts(value, "micro_batch", n)
        if isinstance(c, int):
            t.layout.micro_batch = c
        else:
            cols.append((attr, c, "micro_batch"))
    # batch: concurrent sequences (inference) or the global batch (training).
    modes = mode if _is_seq(mode) else None
    c = _counts(batch, "batch", n)
    if modes is None:
        training = _choice(MEMORY_MODES, mode, "mode") != MEMORY_MODES["inference"]
        if isinstance(c, int):
            if training:
                t.layout.global_batch = c
            else:
                t.memory.batch = c
        else:
            cols.append(("layout.global_batch" if training else "memory.batch", c, "batch"))
    else:
        cl = list(c) if not isinstance(c, int) else [c] * n
        inf = [m == "inference" for m in modes]
        cols.append(("memory.batch", [v if i else 1 for v, i in zip(cl, inf)], "batch"))
        cols.append(("layout.global_batch", [0 if i else v for v, i in zip(cl, inf)], "batch"))
    if _is_seq(sequence_parallel):
        cols.append(("layout.sequence_parallel", [int(bool(v)) for v in sequence_parallel],
                     "sequence_parallel"))
    else:
        t.layout.sequence_parallel = int(bool(sequence_parallel))
    wanted = _keys(keys, [k for k, _ in _FIT_KEYS])
    columns = _out_keys(out, wanted, columns)
    fields = dict(_FIT_KEYS)
    if n == 0:
        return _empty(wanted, errors, columns,
                      lambda k: _field(_lib.hwfit_shard_out, fields[k])[1])
    if n == 1 and not cols and out is None:
        reader = _one_reader(tuple(wanted))
        if memo is not None:
            if len(_ONE_INPUTS) >= _ONE_INPUTS_MAX:
                _ONE_INPUTS.clear()
            _ONE_INPUTS[memo] = (t, reader)
        return _one_fit(model, t, reader, errors, columns)
    ws, ws_size = _batch_workspace()

    def call(model_ref, ins, m, outs, statuses, run=_lib.hwfit_shard_estimate_batch_ws):
        # the larger workspace: activation footprints of recent contexts and batches kept
        # through the chunk (the same results as hwfit_shard_estimate_batch, bit for bit)
        return run(model_ref, ins, m, outs, statuses, ws, ws_size)
    results, st, failed = _evaluate(call, model, _lib.hwfit_shard_in, _lib.hwfit_shard_out, t,
                                    n, cols, {k: fields[k] for k in wanted}, out)
    return _finish(st, errors, [(k, results[k]) for k in wanted], columns, failed)


def _out_keys(out, wanted, columns):
    """Check out= (a dict naming result keys or "status"); columns=True when it is given."""
    if out is None:
        return columns
    if not isinstance(out, dict):
        raise _einval(f"out: expected a dict of result columns, got {type(out).__name__}")
    unknown = [k for k in out if k not in wanted and k != "status"]
    if unknown:
        raise _einval(f"out: unknown {unknown} (expected some of: {', '.join(wanted)}, "
                      "status)")
    return True


#: Argument types whose values key _ONE_INPUTS: equal values of one of these types are
#: converted alike (-0.0 too: parse_quantity reads it as 0.0).
_PLAIN = frozenset({str, int, float, bool, type(None)})
_ONE_INPUTS = {}  # (arguments, their types[, keys]) -> (hwfit_shard_in, _one_reader)
_ONE_INPUTS_MAX = 1024
_READERS = {}  # result keys -> (keys, struct.Struct of their fields, formats, verdict flags)


def _one_reader(wanted):
    """How to read the result keys `wanted` from one hwfit_shard_out: one struct.Struct
    over the fields in the order of their offsets (padding between), and per key its
    position, array format and whether it is a verdict (True/False)."""
    reader = _READERS.get(wanted)
    if reader is None:
        fields = dict(_FIT_KEYS)
        spots = sorted((_field(_lib.hwfit_shard_out, fields[k]) + (k,) for k in wanted),
                       key=lambda x: x[0])
        fmt, at, place = "=", 0, {}
        for i, (offset, ctype, key) in enumerate(spots):
            fmt += f"{offset - at}x{_FORMATS[ctype]}"
            at = offset + _ct.sizeof(ctype)
            place[key] = (i, _FORMATS[ctype])
        reader = _READERS[wanted] = (
            wanted, _struct.Struct(fmt), [place[k][0] for k in wanted],
            [place[k][1] for k in wanted], [k in _BOOL_KEYS for k in wanted])
    return reader


def _one_fit(model, t, reader, errors, columns):
    """fit_batch of one configuration (a loop of single calls): the template is the input,
    answered through the calling thread's prepared-model cache of the model
    (hwfit_shard_estimate_cached: the model is not prepared again), the fields read
    straight from the answer's bytes."""
    answer = getattr(_THREAD, "one_fit", None)
    if answer is None:
        answer = _THREAD.one_fit = _lib.hwfit_shard_out()
    st = _lib.hwfit_shard_estimate_cached(_ct.byref(model), _ct.byref(t), _ct.byref(answer),
                                          *_shard_cache(model))
    wanted, layout, spots, formats, verdicts = reader
    if st != _lib.HWFIT_OK:
        if errors == "raise":
            _lib.check(st, "configuration 0")
        values = [0] * len(wanted)
    else:
        got = layout.unpack_from(answer)
        values = [got[i] for i in spots]
    if columns:
        out = {k: _array.array(f, [v]) for k, f, v in zip(wanted, formats, values)}
    elif st != _lib.HWFIT_OK:
        out = {k: [None] for k in wanted}
    else:
        out = {k: [bool(v) if b else v] for k, v, b in zip(wanted, values, verdicts)}
    if errors == "skip":
        out["status"] = _array.array("i", [st]) if columns else [_lib.status_name(st)]
    return out


def _empty(wanted, errors, columns, ctype_of):
    """The result of no configuration."""
    if not columns:
        return {k: [] for k in wanted + (["status"] if errors == "skip" else [])}
    out = {k: _array.array(_FORMATS[ctype_of(k)]) for k in wanted}
    if errors == "skip":
        out["status"] = _array.array("i")
    return out


_SHARD_CACHE_SIZE = None
_BATCH_WS_SIZE = int(_lib.hwfit_shard_batch_workspace_size())


def _batch_workspace():
    """(buffer, size) of the calling thread's workspace for hwfit_shard_estimate_batch_ws
    (hwfit_shard_batch_workspace_size bytes; ctypes buffers are malloc'ed, aligned as it
    needs): scratch, one per thread."""
    ws = getattr(_THREAD, "batch_ws", None)
    if ws is None:
        ws = _THREAD.batch_ws = _ct.create_string_buffer(_BATCH_WS_SIZE)
    return ws, _BATCH_WS_SIZE
_THREAD = _threading.local()  # .shard_caches: {id(model): cache}, one set per thread


def _shard_cache(model):
    """(buffer, size) of the calling thread's prepared-model cache for a model struct (made
    on first use; ctypes buffers are malloc'ed, aligned as the cache needs). A cache serves
    one thread at a time, hence one per thread. It holds a copy of the model's bytes and
    is keyed by them, so an edited struct, or another one at a reused id, is prepared
    again, never answered wrongly."""
    global _SHARD_CACHE_SIZE
    caches = getattr(_THREAD, "shard_caches", None)
    if caches is None:
        caches = _THREAD.shard_caches = {}
    cache = caches.get(id(model))
    if cache is None:
        if _SHARD_CACHE_SIZE is None:
            _SHARD_CACHE_SIZE = int(_lib.hwfit_shard_cache_size())
        cache = _ct.create_string_buffer(_SHARD_CACHE_SIZE)
        _lib.check(_lib.hwfit_shard_cache_init(cache, _SHARD_CACHE_SIZE), "shard cache")
        if len(caches) >= 16:
            caches.clear()
        caches[id(model)] = cache
    return cache, _SHARD_CACHE_SIZE

"""Every `hwfit` subcommand as a Python function, made at import from the library's own
description of its commands (hwfit_command_describe): a command added in C appears here
with no Python edit.

A function sends its arguments as the command's options (keyword `micro_batch` is option
`micro-batch`; True sets a flag, False sets it explicitly off; numbers are written as
text; a list sets a list option once per item; strings go as the user types them,
"96GB"), runs the request in JSON and
returns the parsed dict as a Result. The library parses and checks every value; Python
only checks the types, and the range of whole numbers before it writes them.
"""
import ctypes as _ct
import inspect as _inspect
import json as _json
import keyword as _keyword
import numbers as _numbers
import os as _os
import re as _re
import textwrap as _textwrap
import threading as _threading
import weakref as _weakref

from . import _lib, _record
from ._lib import HwfitError
from ._result import Html, Result, Svg

__all__ = ["describe", "run"]

_FORMATS = {_lib.hwfit_format_name(f).decode(): f for f in range(16)
            if _lib.hwfit_format_name(f) is not None}  # "json": HWFIT_FORMAT_JSON...
_UNITS = {"bytes": _lib.HWFIT_UNIT_BYTES, "bytes/s": _lib.HWFIT_UNIT_BYTES_PER_S,
          "bits/s": _lib.HWFIT_UNIT_BITS_PER_S, "watts": _lib.HWFIT_UNIT_WATTS,
          "seconds": _lib.HWFIT_UNIT_SECONDS, "flop/s": _lib.HWFIT_UNIT_FLOP_PER_S,
          "flop": _lib.HWFIT_UNIT_FLOP}
# Functions of other formats: the SVG of a command is chart_<command>, its HTML
# <command>_html, except where an older name is kept.
_VIEW_NAMES = {("fit", "svg"): "chart_memory", ("assess", "html"): "report_html"}
_VIEW_TYPES = {"svg": Svg, "html": Html}
_MESSAGE_SIZE = 512  # the library's message buffer (lib/request/request.c)
_decode = _json.JSONDecoder().decode  # json.loads of a str, without its checks per call
_scan = _json.JSONDecoder().scan_once  # the same decoder's C scanner, without its frames


def _parse(text):
    """The object of a JSON result: json.loads(text), read by the decoder's scanner
    directly (the library writes one object and a newline); any other text goes through
    the decoder, which raises json.JSONDecodeError as json.loads does."""
    try:
        obj, end = _scan(text, 0)
    except StopIteration:
        return _decode(text)
    if end != len(text) and not text[end:].isspace():
        return _decode(text)
    return obj


def keyword_of(option):
    """The Python keyword of an option: "micro-batch" -> "micro_batch", "class" -> "class_"."""
    kw = option.replace("-", "_")
    return kw + "_" if _keyword.iskeyword(kw) else kw


def _describe_text():
    needed = _ct.c_size_t(0)
    _lib.hwfit_command_describe(None, None, 0, _ct.byref(needed))
    buf = _ct.create_string_buffer(needed.value)
    _lib.check(_lib.hwfit_command_describe(None, buf, needed.value, None), "describe")
    return buf.value.decode("utf-8")


_DESCRIPTION = _describe_text()  # the tables are constant: read once
_COMMANDS = {c["name"]: c for c in _json.loads(_DESCRIPTION)["commands"]}


def describe(command=None):
    """The library's description of every command (or of one, by name): the dict of
    `hwfit --describe`, with each command's options, kinds, units, bounds and defaults."""
    if command is None:
        return _json.loads(_DESCRIPTION)
    if command not in _COMMANDS:
        raise HwfitError(_lib.HWFIT_ENOTFOUND, "HWFIT_ENOTFOUND",
                         _cut(f"no command {command!r} (the commands: {', '.join(_COMMANDS)})"))
    return _json.loads(_json.dumps(_COMMANDS[command]))


def _cut(text):
    """A message as the library cuts one: control characters escaped, at most 511 bytes
    with "..." at the end when it was longer."""
    raw = text.encode("utf-8", "backslashreplace")
    cap, out = _MESSAGE_SIZE, bytearray()
    for b in raw[:1023]:
        if len(out) + 5 >= cap:
            break
        out += b"\\x%02x" % b if b < 0x20 or b == 0x7F else bytes((b,))
    if len(raw) >= 1024 or len(out) + 5 >= cap:
        del out[cap - 4:]
        out += b"..."
    return out.decode("utf-8", "replace")


def _refuse(status, kw, rule):
    return HwfitError(status, _lib.status_name(status), f"{kw}: {_cut(rule)}", kw)


def _shown(value):
    try:
        return repr(value)
    except ValueError:  # an int beyond Python's digit limit for str()
        return f"a whole number of {value.bit_length()} bits"


def _bounds(opt):
    """The rule of an option's bounds, worded as the library words it."""
    def one(x):
        if opt["kind"] == "quantity":
            buf = _ct.create_string_buffer(64)
            if _lib.hwfit_units_format(x, _UNITS.get(opt["unit"], 0), buf, 64) == _lib.HWFIT_OK:
                return buf.value.decode()
        return "%.0f" % x if opt["kind"] in ("count", "tokens") else "%g" % x
    if opt["max"] >= 1.8e19:
        return f"at least {one(opt['min'])}"
    return f"between {one(opt['min'])} and {one(opt['max'])}"


def _text(opt, kw, value):
    """One value as the text the library reads. Wrong types raise TypeError; whole numbers
    out of the option's bounds raise HwfitError (HWFIT_EDOM) before they are written."""
    kind = opt["kind"]
    if not isinstance(value, (bool, int, float)) and isinstance(value, _numbers.Real):
        # numpy's scalars and other numbers: whole ones as int, the others as float
        value = int(value) if isinstance(value, _numbers.Integral) else float(value)
    if isinstance(value, bool):
        raise TypeError(_cut(f"{kw}: expected {_WANTS[kind]}, got {value!r}"))
    if isinstance(value, int) and kind in ("count", "tokens", "quantity", "ratio"):
        if value > opt["max"] and opt["max"] >= 1.8e19:  # an open top: the type's limit
            shown = _shown(value)  # quoted as the CLI quotes what it was given
            shown = f"'{shown}'" if shown.isdigit() else shown
            if kind in ("count", "tokens"):
                raise _refuse(_lib.HWFIT_ERANGE, kw, f"{shown} is beyond a 64-bit count "
                              "(at most 18446744073709551615)")
            raise _refuse(_lib.HWFIT_ERANGE, kw, f"{shown} is beyond a double's range")
        if not opt["min"] <= value <= opt["max"]:
            raise _refuse(_lib.HWFIT_EDOM, kw, f"must be {_bounds(opt)}, got {_shown(value)}")
        return str(value)
    if isinstance(value, float) and kind in ("quantity", "ratio"):
        return repr(value)
    if isinstance(value, (int, float)) and kind in ("choice", "text", "list"):
        if isinstance(value, int) and value.bit_length() > 10000:  # str() would refuse it
            raise _refuse(_lib.HWFIT_ERANGE, kw, f"{_shown(value)} is beyond a double's range")
        return repr(value)
    if kind == "file" and opt["name"] == "model" and isinstance(value, dict):
        # the config itself: sent as its JSON text, which the library reads without a file
        value = _json.dumps(value)
    if kind == "file" and isinstance(value, _os.PathLike):
        value = _os.fspath(value)
    elif kind == "file" and hasattr(value, "_hwfit_path"):  # a model from hwfit.load_config
        value = value._hwfit_path
    if isinstance(value, bytes) and kind == "file":
        value = _os.fsdecode(value)
    if not isinstance(value, str):
        wants = _WANTS["model" if kind == "file" and opt["name"] == "model" else kind]
        raise TypeError(_cut(f"{kw}: expected {wants}, got {_shown(value)}"))
    if "\0" in value:
        raise _refuse(_lib.HWFIT_EPARSE, kw, f"contains a NUL character: {value!r}")
    return value


_WANTS = {"flag": "True or False", "count": "a whole number (int or str)",
          "tokens": "a whole number (int or str such as '128K')",
          "quantity": "a number or a str with a unit such as '96GB'",
          "ratio": "a number", "choice": "one of the choices (str)", "name": "a name (str)",
          "file": "a path (str or os.PathLike)",
          "text": "a str (a LIST also as a list of str or int)",
          "model": "a path, a Hugging Face id, a short name, a dict or JSON text",
          "list": "a str or a list of str"}


def _texts(opt, kw, value):
    """The texts hwfit_request_set gets for one argument (one per item). A flag given False
    is set "false", explicitly off (the CLI's --no-X): it switches off what a framework
    profile turns on, while a flag not passed leaves the profile's choice."""
    if opt["kind"] == "flag":
        if not isinstance(value, bool):
            raise TypeError(_cut(f"{kw}: expected True or False, got {_shown(value)}"))
        return [None] if value else ["false"]
    if opt["kind"] == "list" and isinstance(value, (list, tuple)):
        return [_text(opt, kw, v) for v in value]
    if opt["kind"] == "text" and opt.get("metavar") == "LIST" and isinstance(value, (list, tuple)):
        # a comma list (metavar LIST) written as a Python sequence: record_lengths=[700,
        # 1500], lora_targets=("q", "v") are "700,1500" and "q,v"
        if not value:
            raise _refuse(_lib.HWFIT_EPARSE, kw, "is an empty list")
        return [",".join(_text(opt, kw, v) for v in value)]
    return [_text(opt, kw, value)]


def _encode(opt, kw, text):
    if text is None:
        return None
    try:
        return _os.fsencode(text) if opt["kind"] == "file" else text.encode("utf-8")
    except UnicodeError:
        raise _refuse(_lib.HWFIT_EPARSE, kw, f"is not valid UTF-8 text: {text!r}") from None


def _pythonic(text, cmd):
    """Options named in a message, written as keywords: "needs max-gpus" (or a stray
    "--max-gpus") reads "needs max_gpus"."""
    names = {o["name"] for o in cmd["options"]} | {o["alias"] for o in cmd["options"]
                                                    if o.get("alias")}
    text = _re.sub(r"--([a-z][a-z0-9-]*)", lambda m: keyword_of(m.group(1))
                   if m.group(1) in names else m.group(0), text)
    for n in sorted((n for n in names if "-" in n), key=len, reverse=True):
        text = _re.sub(rf"(?<![\w-]){_re.escape(n)}(?![\w-])", keyword_of(n), text)
    return text


def _failure(r, status, cmd):
    """The HwfitError of a failed request call: "keyword: rule"."""
    spelled = _lib.hwfit_request_option_name(r)  # the name or the alias, as given
    message = (_lib.hwfit_request_message(r) or b"").decode("utf-8", "replace")
    message = _pythonic(message or _lib.hwfit_status_str(status).decode(), cmd)
    kw = keyword_of(spelled.decode()) if spelled else None
    return HwfitError(status, _lib.status_name(status), f"{kw}: {message}" if kw else message,
                      kw)


_SHAPES = {}  # command name -> (function name, by_kw, aliases, positional, order): made once


def _shape(cmd):
    """The keywords of a command's options, worked out once per command (the tables are
    constant): its function's name, {keyword: option}, {alias keyword: keyword} and the
    positional keywords."""
    shape = _SHAPES.get(cmd["name"])
    if shape is None:
        opts = cmd["options"]
        shape = _SHAPES[cmd["name"]] = (
            keyword_of(cmd["name"]), {keyword_of(o["name"]): o for o in opts},
            {keyword_of(o["alias"]): keyword_of(o["name"]) for o in opts if o.get("alias")},
            [keyword_of(o["name"]) for o in opts if o["positional"]],
            {keyword_of(o["name"]): i for i, o in enumerate(opts)})
    return shape


def _bind(cmd, args, kwargs):
    """(option, keyword, value) for every argument given (None means not given), in the
    order of the command's options; the keyword as given (an option's alias, e.g.
    config= for model=, is taken and named in refusals as given)."""
    fname, by_kw, aliases, positional, order = _shape(cmd)
    spelled = {}
    if len(args) > len(positional):
        raise TypeError(f"{fname}() takes {len(positional)} positional argument"
                        f"{'' if len(positional) == 1 else 's'} but {len(args)} were given")
    given = dict(zip(positional, args))
    for k, v in kwargs.items():
        key = k + "_" if _keyword.iskeyword(k) else k
        if key in aliases and key not in by_kw:
            spelled[aliases[key]] = key
            key = aliases[key]
        if key not in by_kw:
            raise TypeError(_cut(f"{fname}() got an unexpected keyword argument {k!r}"
                                 f"{_hint(cmd['name'], k)}"))
        if key in given:
            raise TypeError(f"{fname}() got multiple values for argument {key!r}")
        given[key] = v
    return [(by_kw[kw], spelled.get(kw, kw), given[kw])
            for kw in sorted(given, key=order.__getitem__) if given[kw] is not None]


def _hint(command, kw):
    """The library's "; did you mean 'x'?" for an unknown keyword, written as a keyword."""
    r = _ct.c_void_p()
    if _lib.hwfit_request_new(command.encode(), _ct.byref(r)) != _lib.HWFIT_OK:
        return ""
    try:
        _lib.hwfit_request_set(r, kw.replace("_", "-").encode("utf-8", "replace"), b"")
        message = _lib.hwfit_request_message(r).decode("utf-8", "replace")
    finally:
        _lib.hwfit_request_free(r)
    at = message.find("; did you mean '")
    return "" if at < 0 else f"; did you mean '{keyword_of(message[at + 16:-2])}'?"


class _Thread:
    """What one thread keeps between calls: a hwfit_model_cache (request.h), so that the
    models its requests read from config.json files are read and parsed once while each
    file's size and times are unchanged, and one request per command, reset before each
    use (hwfit_request_reset) instead of made and freed. A cache and a request serve one
    thread at a time: each thread has its own, and sets its cache's revalidation window
    itself (set_model_cache_window)."""

    def __init__(self):
        p = _ct.c_void_p()
        self.cache = p.value if _lib.hwfit_model_cache_new(_ct.byref(p)) == _lib.HWFIT_OK \
            else None  # out of memory: requests read the files as before
        self.requests = {}  # command -> request: the thread's requests (freed with it)
        # command -> request, the calls' lookup: emptied by set_model_cache_window, so
        # that the next call goes through request(), which applies the window in this
        # thread (another thread's cache is never touched)
        self.ready = {}
        self.window = 0.0  # the window set on self.cache (the library's default)
        # the results are copied here by hwfit_request_run (one call instead of three:
        # run, output, string_at), grown when a result is longer
        self.buf = _ct.create_string_buffer(1 << 14)
        # (buffer, its length as a c_size_t: what _raw_run_record takes), made again when
        # self.buf is another buffer
        self.sized = (self.buf, _ct.c_size_t(len(self.buf)))
        self.needed = _ct.c_size_t(0)
        self.needed_ref = _ct.byref(self.needed)
        # kept on the object: at exit the module's globals may be gone before __del__
        self.free_cache, self.free_request = _lib.hwfit_model_cache_free, _lib.hwfit_request_free
        with _STATES_LOCK:
            _STATES.add(self)

    def request(self, name, reset=_lib.hwfit_request_reset):
        """The thread's request of a command, reset (a new one the first time), listed in
        self.ready; the cache given the window set last (set_model_cache_window)."""
        r = self.requests.get(name)
        if r is not None and reset(r) != _lib.HWFIT_OK:  # a reset out of memory: start again
            del self.requests[name]
            self.ready.pop(name, None)
            self.free_request(r)
            r = None
        if r is None:
            p = _ct.c_void_p()
            _lib.check(_lib.hwfit_request_new(name.encode(), _ct.byref(p)), name)
            _lib.hwfit_request_use_cache(p, self.cache)
            self.requests[name] = r = p
        # listed first, the window read after: a window set in between empties self.ready
        # again, so the next call comes back here
        self.ready[name] = r
        window = _WINDOW[0]
        if window != self.window and self.cache is not None:
            _lib.hwfit_model_cache_set_window(self.cache, window)  # checked when set
            self.window = window
        return r

    def output(self, r, fmt, cmd, run=_lib.hwfit_request_run):
        """Run the request r in format fmt; its text. A result longer than the buffer is
        kept by the request (request.h): the second run, into a buffer of the size it
        needs, copies it without computing again."""
        buf = self.buf
        st = run(r, fmt, buf, len(buf), self.needed_ref)
        if st == _lib.HWFIT_EBUFSIZE:
            buf = _ct.create_string_buffer(max(self.needed.value, 2 * len(buf)))
            if len(buf) <= _BUF_KEPT:  # a larger one (a big chart) is not kept
                self.buf = buf
            st = run(r, fmt, buf, len(buf), self.needed_ref)
        if st != _lib.HWFIT_OK:
            raise _failure(r, st, cmd)
        # the length is known: no scan for the NUL (ctypes' .value reads byte by byte)
        return str(memoryview(buf)[:self.needed.value - 1], "utf-8", "replace")

    def ask(self, r, pairs, count, cmd):
        """Set the pairs of _encoded on the request r and run it, in one ctypes call
        (hwfit_request_ask_record); the Result of its JSON, read from the request's record
        of it (the same object json.loads makes of the JSON, without writing and parsing
        text). A command without a record answers in JSON."""
        buf, sized = self.buf, self.sized
        if sized[0] is not buf:
            sized = self.sized = (buf, _ct.c_size_t(len(buf)))
        st = _raw_ask(r, pairs, count, buf, sized[1], self.needed_ref)
        if st == _lib.HWFIT_OK:
            return _record.read(buf, self.needed.value - 1)
        return self.unread(r, st, cmd)

    def unread(self, r, st, cmd):
        """The end of ask() when the record did not come into self.buf: a
        larger buffer for a longer record (kept by the request: copied, not computed
        again), the JSON of a command without a record, or the refusal raised (an option
        refused by ask() is never HWFIT_EBUFSIZE nor HWFIT_EUNSUPPORTED)."""
        if st == _lib.HWFIT_EBUFSIZE:
            buf = _ct.create_string_buffer(max(self.needed.value, 2 * len(self.buf)))
            if len(buf) <= _BUF_KEPT:
                self.buf = buf
            st = _raw_run_record(r, buf, _ct.c_size_t(len(buf)), self.needed_ref)
            if st == _lib.HWFIT_OK:
                return _record.read(buf, self.needed.value - 1)
        if st == _lib.HWFIT_EUNSUPPORTED:  # no record: its JSON (or the same refusal)
            return Result(_parse(self.output(r, _lib.HWFIT_FORMAT_JSON, cmd)))
        raise _failure(r, st, cmd)

    def __del__(self):
        self.ready = {}
        for r in self.requests.values():
            self.free_request(r)
        self.requests = {}
        if self.cache is not None:
            self.free_cache(self.cache)
            self.cache = None


_BUF_KEPT = 1 << 20  # the largest result buffer a thread keeps between calls
_THREADS = _threading.local()  # .state: the calling thread's _Thread
_STATES = _weakref.WeakSet()  # every thread's _Thread (set_model_cache_window)
_STATES_LOCK = _threading.Lock()
_WINDOW = [0.0]  # the model caches' revalidation window, seconds (set_model_cache_window)
_WINDOW_HOOKS = []  # called when a window is set (fit_batch's models by path: _batch)


def set_model_cache_window(seconds):
    """Check a cached model's config.json (and its directory) at most once per `seconds`.

    Each thread keeps a model cache (hwfit_model_cache): by default (0.0) every call that
    names a config file checks it (two `stat` calls, about 5 us of a 10-13 us call on a
    virtual machine), so an edit is seen at once. With a window, a model asked for by the
    same name and found unchanged less than `seconds` ago is used without looking at the
    file: an edit of the config, a file put in its place or a checkpoint added beside it
    within the window is NOT seen until the window has passed (or the window is set again).
    Applies to every thread's cache, those made later too, each from its next call, and
    to the models fit_batch and memory_batch keep by path; 0.0 goes back to checking every
    call. `seconds` is a number from 0 to 86,400 (a day):
    another type raises TypeError, NaN, an infinity or a value out of that range
    HwfitError (HWFIT_EDOM). The C call: hwfit_model_cache_set_window."""
    if isinstance(seconds, bool) or not isinstance(seconds, _numbers.Real):
        raise TypeError(f"seconds: expected a number, got {_cut(repr(seconds))}")
    seconds = float(seconds)
    # the library's rule decides (a cache of its own, so no thread's cache is touched here)
    p = _ct.c_void_p()
    _lib.check(_lib.hwfit_model_cache_new(_ct.byref(p)), "set_model_cache_window")
    try:
        status = _lib.hwfit_model_cache_set_window(p, seconds)
    finally:
        _lib.hwfit_model_cache_free(p)
    if status != _lib.HWFIT_OK:  # the status's generic text would not say what the range is
        raise HwfitError(status, _lib.status_name(status),
                         f"set_model_cache_window({seconds!r}): seconds must be a number "
                         f"from 0 to 86,400 (a day)")
    with _STATES_LOCK:
        _WINDOW[0] = seconds
        for state in list(_STATES):  # set first, emptied after (see _Thread.request)
            state.ready = {}
        for hook in _WINDOW_HOOKS:
            hook()


def model_cache_window():
    """The window set by set_model_cache_window (0.0 by default), in seconds."""
    return _WINDOW[0]


def _thread():
    state = getattr(_THREADS, "state", None)
    if state is None:
        state = _THREADS.state = _Thread()
    return state


_ENCODED = {}  # (command, keyword, type, value) -> [(option, text)], for plain values
_ENCODED_MAX = 4096


def _sets(cmd, bound):
    """The (option name, text) pairs of the bound arguments, as hwfit_request_set takes
    them; those of plain values (str, int, float, bool) remembered, as a sweep repeats
    them."""
    out = []
    for o, kw, v in bound:
        t = type(v)
        key = ((cmd["name"], kw, t, v) if t in (str, int, float, bool) else
               (cmd["name"], kw, str, v._hwfit_path) if hasattr(v, "_hwfit_path") else None)
        pairs = _ENCODED.get(key) if key is not None else None
        if pairs is None:
            name = kw.rstrip("_").replace("_", "-").encode()
            pairs = [(name, _encode(o, kw, t)) for t in _texts(o, kw, v)]
            if key is not None:
                if len(_ENCODED) >= _ENCODED_MAX:
                    _ENCODED.clear()
                _ENCODED[key] = pairs
        out.extend(pairs)
    return out


_CALLS = {}  # call key (_call_key) -> (its pairs for hwfit_request_set_all, their count)
_CALLS_MAX = 4096
_MODEL = _lib.hwfit_model
_KEYED = frozenset({str, int, float, bool, type(None), _MODEL})
_NO_PATH = object()  # _call_key: a model's path when it has none


def _call_key(name, args, kwargs):
    """A key that equals another call's only when both send the same option texts: the
    command, the keywords in order, the values and their types (1, 1.0 and True are
    written differently); a loaded model by its path (what is sent for it), a float also
    by its repr (-0.0 equals 0.0 but is written "-0.0"). None when a value is of another
    type (a list, a dict, a path object...): such a call is worked out each time."""
    vals = (*args, *kwargs.values())
    types = tuple(map(type, vals))
    if not _KEYED.issuperset(types):
        return None
    if _MODEL in types:
        if types.count(_MODEL) == 1:  # one model (config=): no comprehension's frame
            at = types.index(_MODEL)
            path = getattr(vals[at], "_hwfit_path", _NO_PATH)
            vals = (*vals[:at], path, *vals[at + 1:])
        else:
            vals = tuple([getattr(v, "_hwfit_path", _NO_PATH) if type(v) is _MODEL else v
                          for v in vals])
        if _NO_PATH in vals:
            return None  # a model that was not read from a path: refused below
    if float in types:
        floats = [repr(v) for v in vals if type(v) is float]
        return (name, len(args), *kwargs, vals, types, *floats)
    return (name, len(args), *kwargs, vals, types)


def _encoded(cmd, args, kwargs):
    """The (option name, text) pairs of a call's arguments as hwfit_request_set takes them,
    GPU files first (gpu may name their cards), as (the pairs' array for
    hwfit_request_set_all, their count as a c_size_t: what _set_all takes); remembered
    per call key, as a loop asks the same shape of question again and again."""
    key = _call_key(cmd["name"], args, kwargs)
    sets = _CALLS.get(key) if key is not None else None
    if sets is None:
        pairs = _sets(cmd, _bind(cmd, args, kwargs))
        pairs.sort(key=lambda s: s[0] != b"gpu-file")
        flat = [text for pair in pairs for text in pair]
        sets = ((_ct.c_char_p * len(flat))(*flat) if flat else None, _ct.c_size_t(len(pairs)))
        if key is not None:
            if len(_CALLS) >= _CALLS_MAX:
                _CALLS.clear()
            _CALLS[key] = sets
    return sets


def _request(cmd, args, kwargs):
    """The calling thread's state and its request of cmd, reset, with the arguments set
    (one call: hwfit_request_set_all)."""
    pairs, count = _encoded(cmd, args, kwargs)
    try:
        state = _THREADS.state
    except AttributeError:
        state = _THREADS.state = _Thread()
    r = state.ready.get(cmd["name"]) or state.request(cmd["name"])
    st = _set_all(r, pairs, count)
    if st != _lib.HWFIT_OK:
        raise _failure(r, st, cmd)
    return state, r


def _raw(name):
    """A second function object of the library's function name with no argtypes: a call
    passes its ctypes arguments as they are, without converting each one (about 0.6 us of a
    call's ctypes overhead, issue 19). Only for the calls below, whose every argument is
    already a ctypes object of the C parameter's type (c_void_p, a char array or a pointer
    array or None, c_size_t, byref(c_size_t)); a plain Python int would be passed as a C
    int, not a size_t."""
    f = _lib.lib[name]  # indexing makes a new function object: _lib's keeps its argtypes
    f.restype = _ct.c_int
    f.argtypes = None
    return f


# hwfit_request_set_all(request: c_void_p, pairs: c_char_p array or None, count: c_size_t)
_set_all = _raw("hwfit_request_set_all")
# hwfit_request_run_record(request: c_void_p, buf: char array, size: c_size_t,
#                          needed: byref(c_size_t))
_raw_run_record = _raw("hwfit_request_run_record")
# hwfit_request_ask_record(request: c_void_p, pairs: c_char_p array or None,
#                          count: c_size_t, buf: char array, size: c_size_t,
#                          needed: byref(c_size_t)): _set_all and _raw_run_record in one
_raw_ask = _raw("hwfit_request_ask_record")


def _run(cmd, fmt, args, kwargs):
    """Run a command with Python arguments; the result's text."""
    state, r = _request(cmd, args, kwargs)
    return state.output(r, _FORMATS[fmt], cmd)


def _run_json(cmd, args, kwargs):
    """Run a command with Python arguments; the object of its JSON result."""
    pairs, count = _encoded(cmd, args, kwargs)
    state = _thread()
    r = state.ready.get(cmd["name"]) or state.request(cmd["name"])
    return state.ask(r, pairs, count, cmd)  # a Result


def run(command, format="text", /, *args, **options):
    """Run a command in any of its formats ("json", "text", "csv", "svg", "markdown",
    "html") and return the text it writes: run("raid", "csv", level="6", ...) is
    `hwfit raid --level 6 ... --csv`. SVG comes back as an Svg, HTML as an Html."""
    cmd = describe(command) and _COMMANDS[command]
    if format not in cmd["formats"]:
        raise HwfitError(_lib.HWFIT_EUNSUPPORTED, "HWFIT_EUNSUPPORTED",
                         _cut(f"{command} has no {format} output (it writes "
                              f"{', '.join(cmd['formats'])})"))
    return _VIEW_TYPES.get(format, str)(_run(cmd, format, args, options))


def _default(o):
    """The signature's default: the default_text (a number for counts and ratios), False
    for a flag, None when the default is not a value."""
    text = o["default"]
    if o["kind"] == "flag":
        return False
    if text is not None and o["kind"] in ("count", "tokens") and text.isdigit():
        return int(text)
    if text is not None and o["kind"] == "ratio":
        try:
            return float(text)
        except ValueError:
            pass
    return text


def _signature(cmd):
    P = _inspect.Parameter
    opts = sorted(cmd["options"], key=lambda o: not o["positional"])
    return _inspect.Signature([P(keyword_of(o["name"]),
                                 P.POSITIONAL_OR_KEYWORD if o["positional"] else P.KEYWORD_ONLY,
                                 default=_default(o)) for o in opts])


def _option_doc(o):
    kind = o["kind"] + (f" ({o['unit']})" if o["unit"] else "")
    if o["choices"]:
        kind = "one of " + ", ".join(o["choices"])
    elif o["min"] is not None:
        kind += ", " + _bounds(o)
    if o["catalog"]:
        kind += f", a name from the {o['catalog']} catalog"
    if o["required"]:
        kind += ", required"
    elif o["default"] is not None:
        kind += f", default {o['default']}"
    elif o["default_help"]:
        kind += f", default: {o['default_help']}"
    example = f" (e.g. {o['example']!r})" if o["example"] else ""
    alias = f"; also {keyword_of(o['alias'])}=" if o.get("alias") else ""
    if o["name"] == "model" and o["kind"] == "file":
        alias += "; a dict (the config itself) is also taken"
    return f"{keyword_of(o['name'])} : {kind}\n    {o['help']}{example}{alias}"


def _doc(cmd, returns):
    opts = "\n".join(_option_doc(o) for o in cmd["options"]) or "(none)"
    details = _textwrap.fill(_pythonic(cmd["details"], cmd), 88)
    details = f"\n\n{details}" if details else ""
    return (f"{cmd['summary']}{details}\n\nSame as `hwfit {cmd['name']}`; {returns}\n\n"
            f"Options (keyword arguments; True sets a flag, False sets it off over a framework "
            f"profile, not passing it leaves the profile's choice; sizes and rates take units, "
            f"e.g. \"96GB\"):\n\n{opts}\n\nFormats: {', '.join(cmd['formats'])} "
            f"(hwfit.run(\"{cmd['name']}\", FORMAT, ...) gives any of them as text).")


def _function(cmd, fmt, name):
    if fmt == "json":
        command = cmd["name"]

        def call(*args, **options):  # _run_json, written out: the path of every call
            pairs, count = _encoded(cmd, args, options)
            try:
                state = _THREADS.state
            except AttributeError:
                state = _THREADS.state = _Thread()
            r = state.ready.get(command) or state.request(command)
            return state.ask(r, pairs, count, cmd)  # set and run: one ctypes call
    else:
        def call(*args, **options):
            return _VIEW_TYPES[fmt](_run(cmd, fmt, args, options))
    call.__name__ = call.__qualname__ = name
    call.__module__ = "hwfit"
    call.__signature__ = _signature(cmd)
    returns = ("returns the dict of its --json output (hwfit.Result)." if fmt == "json" else
               f"returns its {fmt.upper()} document as text (hwfit.{_VIEW_TYPES[fmt].__name__}).")
    call.__doc__ = _doc(cmd, returns)
    return call


def make_functions():
    """{name: function} for every command (and chart_*/report_html for its SVG/HTML)."""
    out = {}
    for cmd in _COMMANDS.values():
        out[keyword_of(cmd["name"])] = _function(cmd, "json", keyword_of(cmd["name"]))
        for fmt, pattern in (("svg", "chart_{}"), ("html", "{}_html")):
            if fmt in cmd["formats"]:
                name = _VIEW_NAMES.get((cmd["name"], fmt), pattern.format(keyword_of(cmd["name"])))
                out[name] = _function(cmd, fmt, name)
    return out

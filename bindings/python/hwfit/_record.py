"""The record of a JSON result (hwfit_request_run_record, include/hwfit/request.h) read
into the object json.loads makes of the JSON text: the same keys in the same order, the
same values and types, without parsing text.

A record is a header (three uint64: the bytes of the shape, the numbers and the strings),
the shape (one line a value: a code and the key), the numbers packed in native order and
the strings, each ended by a NUL. The shape of a command's result rarely changes between
calls (the values do), so each shape is turned once into a function whose body is the
result as a display ({"params": n0, "mode": s1, ...}, the values its arguments) and kept;
a call then costs one struct unpack, one split of the strings and that function. When
the values are the very bytes of the shape's last answer (a loop asking one question
again), the answer is the last one's copy: new dicts and lists (the caller may change
them), the same immutable numbers and strings; a record equal to the last one read (any
shape) is answered so before its shape is even looked up.
"""
import struct as _struct

from ._result import Result as _Result

_HEAD = _struct.Struct("=QQQ")
_HEAD_SIZE = _HEAD.size
_NUMBER_CODES = frozenset("Qqd?")
_BUILT = {}  # shape (bytes) -> [Struct of the numbers, builder, copier, (last values, last
#                                  answer) or None: one item, replaced whole, so that threads
#                                  never see one answer's values with another's answer]
_BUILT_MAX = 256  # shapes kept; a sweep keeps one or a few per command
_LAST = None  # (the last record read, whole, its copier, its answer): one item, replaced
#               whole; a record equal to it is answered without hashing its shape


def _builder(shape):
    """(Struct, function) of a shape: the numbers' format and a function of the unpacked
    numbers and the strings, as its arguments in that order, that returns the result."""
    fmt, src, closing, nn, ns = ["="], ["{"], ["}"], 0, 0
    for line in shape.decode("utf-8", "replace").split("\n")[:-1]:  # as the JSON text
        code, key = line[0], line[1:]
        if code == "}" or code == "]":
            src.append(closing.pop() + ",")
            continue
        head = "" if closing[-1] == "]" else repr(key) + ": "
        if code in _NUMBER_CODES:
            fmt.append(code)
            src.append(f"{head}n{nn},")
            nn += 1
        elif code == "s":
            src.append(f"{head}s{ns},")
            ns += 1
        elif code == "n":
            src.append(head + "None,")
        elif code == "{" or code == "[":
            src.append(head + code)
            closing.append("}" if code == "{" else "]")
        else:
            raise ValueError(f"hwfit: unknown code {code!r} in a result record")
    if len(closing) != 1:
        raise ValueError("hwfit: a result record's objects and lists do not close")
    copy = _copier(shape)
    src.append("}")
    # the arguments: n0..n(nn-1), then s0..s(ns-1) and the empty string after the last NUL
    params = ", ".join([f"n{i}" for i in range(nn)] + [f"s{i}" for i in range(ns)] + ["_=''"])
    scope = {}
    exec(f"def build({params}):\n    return {''.join(src)}\n", scope)  # noqa: S102
    return [_struct.Struct("".join(fmt)), scope["build"], copy, None]


def _copier(shape):
    """A function that copies an answer of the shape: every dict and list new (the outer
    one a hwfit.Result), the leaves (numbers, strings, None: immutable) shared; written out
    once per shape."""
    src, stack, count = ["def copy(t):", "    d0 = Result(t)"], [["d0", "{", 0]], 0
    for line in shape.decode("utf-8", "replace").split("\n")[:-1]:
        code, key = line[0], line[1:]
        if code == "}" or code == "]":
            stack.pop()
            continue
        parent = stack[-1]
        if parent[1] == "[":
            at = f"{parent[0]}[{parent[2]}]"
            parent[2] += 1
        else:
            at = f"{parent[0]}[{key!r}]"
        if code == "{" or code == "[":
            count += 1
            var = f"d{count}"
            src.append(f"    {var} = {at} = {at}.copy()")
            stack.append([var, code, 0])
    src.append("    return d0")
    scope = {"Result": _Result}
    exec("\n".join(src) + "\n", scope)  # noqa: S102
    return scope["copy"]


def read(buf, length):
    """The object of the record in buf[0:length] (a ctypes buffer or bytes), as a
    hwfit.Result."""
    global _LAST
    view = memoryview(buf)
    record = bytes(view[:length])
    last = _LAST
    if last is not None and last[0] == record:  # the same question again (issue 19)
        return last[1](last[2])
    shape_len, nums_len, strs_len = _HEAD.unpack_from(view)
    at = _HEAD_SIZE + shape_len
    if at + nums_len + strs_len != length:
        raise ValueError("hwfit: a result record's parts do not add up to its length")
    shape = bytes(view[_HEAD_SIZE:at])
    built = _BUILT.get(shape)
    if built is None:
        if len(_BUILT) >= _BUILT_MAX:
            _BUILT.clear()
        built = _BUILT[shape] = _builder(shape)
    numbers, build, copy, last = built
    if numbers.size != nums_len:
        raise ValueError("hwfit: a result record's numbers do not match its shape")
    values = bytes(view[at:length])
    if last is not None and values == last[0]:
        _LAST = (record, copy, last[1])
        return copy(last[1])
    if strs_len:
        answer = build(*numbers.unpack_from(view, at),
                       *str(view[at + nums_len:length], "utf-8", "replace").split("\0"))
    else:
        answer = build(*numbers.unpack_from(view, at))
    built[3] = (values, answer)
    _LAST = (record, copy, answer)
    return copy(answer)

"""hwfit: hardware-fit calculations for GPU servers, from Python.

A thin face on the C library's request layer (loaded with ctypes; see hwfit._lib for how
it is found). Every `hwfit` CLI subcommand is a function of the same name here, made at
import from the library's option tables: it takes the same options as keyword arguments
(dashes become underscores: micro_batch for --micro-batch; True sets a flag) and returns
the dict of the subcommand's --json output (a Result). Commands with a chart or a report
also have chart_*/report_html functions that return the SVG or HTML text, and
hwfit.run(command, format, ...) gives any format. Errors raise HwfitError, whose message
names the keyword argument at fault; wrong argument types raise TypeError.

memory_batch and fit_batch evaluate thousands of configurations in one C call.
set_model_cache_window(seconds) lets repeated calls check a config file at most once per
window instead of every call (0.0, the default, checks every call).
"""
import ctypes as _ct

from . import _lib, _request
from ._batch import fit_batch, load_config, memory_batch
from ._lib import HwfitError
from ._request import describe, model_cache_window, run, set_model_cache_window
from ._result import Html, Result, Svg

__version__ = _lib.hwfit_version_string().decode()

#: Unit kinds by the names the CLI uses (`hwfit units --unit NAME`).
UNITS = {"none": _lib.HWFIT_UNIT_NONE, **_request._UNITS}


def version_number():
    """The library's version as major * 10000 + minor * 100 + patch."""
    return int(_lib.hwfit_version_number())


def _unit(unit):
    try:
        return UNITS[unit]
    except (KeyError, TypeError):
        raise HwfitError(_lib.HWFIT_EINVAL, "HWFIT_EINVAL",
                         f"unit: unknown unit {unit!r} (expected one of {', '.join(UNITS)})",
                         "unit") from None


def parse_quantity(text, unit="bytes"):
    """Parse "15.36TB", "400Gb/s", "3.2kW"... into base units (bytes, bytes/s, W, s).
    Numbers (int or float) pass through unchanged after a range check."""
    if isinstance(text, int) and not isinstance(text, bool):
        text = repr(float(text)) if abs(text) < 2**1023 else "1e999"  # too large: ERANGE
    elif isinstance(text, float):
        text = repr(text)
    if not isinstance(text, str):
        raise HwfitError(_lib.HWFIT_EINVAL, "HWFIT_EINVAL",
                         _request._cut(f"expected a string, got {_request._shown(text)}"))
    value = _ct.c_double()
    data = text.encode("utf-8", "replace") if "\0" not in text else b"\x01"  # EPARSE
    st = _lib.hwfit_units_parse(data, _unit(unit), _ct.byref(value))
    if st != _lib.HWFIT_OK:  # the message is made only for a refusal
        _lib.check(st, _request._cut(repr(text)))
    return value.value


def format_quantity(value, unit="bytes"):
    """Format a value in base units for people: "141.1 GB (131.4 GiB)", "6.5 kW"."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"value: expected a number, got {_request._cut(repr(value))}")
    buf = _ct.create_string_buffer(64)
    _lib.check(_lib.hwfit_units_format(float(value), _unit(unit), buf, len(buf)), repr(value))
    return buf.value.decode()


def format_count(count):
    """Format an exact count with thousands separators: "70,553,706,496".

    count is an int from 0 to 2**64 - 1 (the C call's uint64_t): a float, a bool or another
    type raises TypeError, and a count out of that range ValueError, before ctypes sees it
    (ctypes would wrap 2**70 to 0 and -1 to 18,446,744,073,709,551,615; issue 21)."""
    if isinstance(count, bool) or not isinstance(count, int):
        raise TypeError(f"count: expected an int, got {_request._cut(repr(count))}")
    if not 0 <= count < 2**64:
        raise ValueError(f"count: must be in [0, 2**64 - 1], got {_request._cut(repr(count))}")
    buf = _ct.create_string_buffer(32)
    _lib.check(_lib.hwfit_units_format_count(count, buf, len(buf)))
    return buf.value.decode()


#: The functions made from the library's commands, by name (fit, memory, chart_memory...).
COMMANDS = _request.make_functions()
globals().update(COMMANDS)

__all__ = (["HwfitError", "Result", "Svg", "Html", "__version__", "version_number",
            "parse_quantity", "format_quantity", "format_count", "UNITS", "describe", "run",
            "COMMANDS", "memory_batch", "fit_batch", "load_config", "set_model_cache_window",
            "model_cache_window"] + sorted(COMMANDS))

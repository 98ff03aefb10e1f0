"""hwfit: hardware-fit calculations for GPU servers, from Python.

A thin layer over the C library (loaded with ctypes; see hwfit._lib for how it is found).
Contract: every `hwfit` CLI subcommand has a function of the same name here that takes the
same options as keyword arguments (dashes become underscores) and returns a dict with the
same keys as the subcommand's --json output. Errors raise HwfitError.
"""
import ctypes as _ct

from . import _lib
from ._lib import HwfitError
from . import _batch, _infra, _model, _net, _node, _shard, _svg
from ._batch import *  # noqa: F401,F403
from ._infra import *  # noqa: F401,F403
from ._model import *  # noqa: F401,F403
from ._net import *  # noqa: F401,F403
from ._node import *  # noqa: F401,F403
from ._shard import *  # noqa: F401,F403
from ._svg import *  # noqa: F401,F403
from . import _chart, _report, _result
from ._chart import *  # noqa: F401,F403
from ._report import *  # noqa: F401,F403
from ._result import *  # noqa: F401,F403

# One line per area: each area module lists its public names in its own __all__.
__all__ = (["HwfitError", "__version__", "version_number", "parse_quantity",
            "format_quantity", "format_count", "units", "UNITS"]
           + _infra.__all__
           + _model.__all__
           + _net.__all__
           + _node.__all__
           + _shard.__all__
           + _batch.__all__
           + _svg.__all__
           + _chart.__all__
           + _report.__all__
           + _result.__all__)

__version__ = _lib.hwfit_version_string().decode()


def version_number():
    """The library's version as major * 10000 + minor * 100 + patch."""
    return int(_lib.hwfit_version_number())


#: Unit kinds by the names the CLI uses (`hwfit units --unit NAME`).
UNITS = {
    "none": _lib.HWFIT_UNIT_NONE,
    "bytes": _lib.HWFIT_UNIT_BYTES,
    "bytes/s": _lib.HWFIT_UNIT_BYTES_PER_S,
    "bits/s": _lib.HWFIT_UNIT_BITS_PER_S,
    "watts": _lib.HWFIT_UNIT_WATTS,
    "seconds": _lib.HWFIT_UNIT_SECONDS,
    "flop/s": _lib.HWFIT_UNIT_FLOP_PER_S,
    "flop": _lib.HWFIT_UNIT_FLOP,
}


def _unit(unit):
    try:
        return UNITS[unit]
    except KeyError:
        raise HwfitError(_lib.HWFIT_EINVAL, "HWFIT_EINVAL",
                         f"unknown unit {unit!r} (expected one of {', '.join(UNITS)})") from None


def parse_quantity(text, unit="bytes"):
    """Parse "15.36TB", "400Gb/s", "3.2kW"... into base units (bytes, bytes/s, W, s).

    Numbers (int or float) pass through unchanged after a range check."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        text = repr(float(text))
    if not isinstance(text, str):
        raise HwfitError(_lib.HWFIT_EINVAL, "HWFIT_EINVAL", f"expected a string, got {text!r}")
    value = _ct.c_double()
    _lib.check(_lib.hwfit_units_parse(text.encode(), _unit(unit), _ct.byref(value)), text)
    return value.value


def format_quantity(value, unit="bytes"):
    """Format a value in base units for people: "141.1 GB (131.4 GiB)", "6.5 kW"."""
    buf = _ct.create_string_buffer(64)
    _lib.check(_lib.hwfit_units_format(float(value), _unit(unit), buf, len(buf)), repr(value))
    return buf.value.decode()


def format_count(count):
    """Format an exact count with thousands separators: "70,553,706,496"."""
    buf = _ct.create_string_buffer(32)
    _lib.check(_lib.hwfit_units_format_count(int(count), buf, len(buf)))
    return buf.value.decode()


def units(value, unit="bytes"):
    """Same as `hwfit units VALUE --unit UNIT --json`."""
    base = parse_quantity(value, unit)
    return {"input": str(value), "unit": unit, "value": base,
            "text": format_quantity(base, unit)}


# The subcommands' functions return Result: the same dict, shown as a table in notebooks.
_result.wrap_all(globals(), ("units", "raid", "transfer", "power", "host", "dtypes", "model",
                             "memory", "gpu", "gpus", "link", "collective", "fit", "plan",
                             "perf", "assess"))

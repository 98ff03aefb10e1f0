"""Argument conversion shared by the Pythonic areas: the same rules as the CLI's options.

Each area (_infra, _model, _net, ...) converts keyword arguments with these, so a value
is read one way everywhere and a bad one raises HwfitError with the option's name.
"""
import ctypes as _ct

from . import _lib
from ._lib import HwfitError


def invalid(message, status=_lib.HWFIT_EINVAL):
    """An HwfitError (not raised) for a bad argument."""
    return HwfitError(status, _lib.hwfit_status_name(status).decode(), message)


def fail(message, status=_lib.HWFIT_EINVAL):
    """Raise an HwfitError for a bad argument."""
    raise invalid(message, status)


def choice(table, value, option):
    """table[value], or HwfitError naming the option and the accepted values."""
    try:
        return table[value]
    except (KeyError, TypeError):
        raise invalid(f"{option}: unknown value {value!r} (expected one of: "
                      f"{', '.join(table)})") from None


def count(value, option, tokens=False):
    """A whole number below 2^64 (an int or digits); with tokens=True also "128K"
    (K = 1024) or "1M" (M = 1048576), as the CLI reads token counts."""
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
    raise invalid(f"{option}: expected a whole number, got {value!r}")


def quantity(value, unit, option):
    """A number in base units, or a string with a unit ("96GB", "3.2kW") parsed by the
    library's hwfit_units_parse."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        fail(f"{option}: expected a number or a string with a unit, got {value!r}")
    text = repr(float(value)) if isinstance(value, (int, float)) else value
    out = _ct.c_double()
    _lib.check(_lib.hwfit_units_parse(text.encode(), unit, _ct.byref(out)),
               f"{option} {value!r}")
    return out.value

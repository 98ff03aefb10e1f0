"""Raw ctypes layer: mirrors the C headers one to one.

Every function has argtypes and restype set, with the C prototype quoted above it.
Functions that return hwfit_status are wrapped by `check`, which raises HwfitError.
Nothing here converts units or computes: the Pythonic layer is in __init__.py.

The shared library is found, in this order, through:
1. the environment variable HWFIT_LIBRARY (a path to libhwfit.so),
2. next to this package (a libhwfit.so* copied into bindings/python/hwfit/),
3. the build trees of a source checkout (build/<preset>/),
4. the system's search path (ctypes.util.find_library("hwfit")).
"""
import ctypes
import ctypes.util
import glob
import os

c_double_p = ctypes.POINTER(ctypes.c_double)
c_uint64_p = ctypes.POINTER(ctypes.c_uint64)
c_int_p = ctypes.POINTER(ctypes.c_int)


class HwfitError(Exception):
    """A hwfit call failed. `status` is the code, `name` e.g. "HWFIT_EDOM"."""

    def __init__(self, status, name, message, detail=None):
        self.status = status
        self.name = name
        self.message = message
        self.detail = detail
        text = f"{name}: {message}"
        if detail:
            text = f"{detail}: {text}"
        super().__init__(text)


def _candidates():
    env = os.environ.get("HWFIT_LIBRARY")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    for path in sorted(glob.glob(os.path.join(here, "libhwfit.so*"))):
        yield path
    root = os.path.abspath(os.path.join(here, "..", "..", ".."))
    for preset in ("dev", "release", "asan", "coverage"):
        for path in sorted(glob.glob(os.path.join(root, "build", preset, "libhwfit.so*"))):
            yield path
    found = ctypes.util.find_library("hwfit")
    if found:
        yield found


def _load():
    tried = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path)
        except OSError as exc:
            tried.append(f"{path} ({exc})")
    raise ImportError(
        "hwfit: cannot find the shared library libhwfit.so; build it "
        "(cmake --workflow --preset dev) or set HWFIT_LIBRARY. Tried: " + "; ".join(tried))


lib = _load()


def _fn(name, restype, argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = argtypes
    return f


# ---- status.h ------------------------------------------------------------------------

HWFIT_OK = 0
HWFIT_EINVAL = 1
HWFIT_EDOM = 2
HWFIT_ERANGE = 3
HWFIT_ENOTFOUND = 4
HWFIT_EPARSE = 5
HWFIT_ENOMEM = 6
HWFIT_EIO = 7
HWFIT_EUNSUPPORTED = 8
HWFIT_EBUFSIZE = 9
HWFIT_ELAYOUT = 10

HWFIT_ERROR_MESSAGE_SIZE = 256


class hwfit_error(ctypes.Structure):
    _fields_ = [
        ("status", ctypes.c_int),
        ("line", ctypes.c_uint32),
        ("column", ctypes.c_uint32),
        ("offset", ctypes.c_size_t),
        ("message", ctypes.c_char * HWFIT_ERROR_MESSAGE_SIZE),
    ]


# const char *hwfit_status_name(hwfit_status status);
hwfit_status_name = _fn("hwfit_status_name", ctypes.c_char_p, [ctypes.c_int])
# const char *hwfit_status_str(hwfit_status status);
hwfit_status_str = _fn("hwfit_status_str", ctypes.c_char_p, [ctypes.c_int])
# void hwfit_error_clear(hwfit_error *error);
hwfit_error_clear = _fn("hwfit_error_clear", None, [ctypes.POINTER(hwfit_error)])


def check(status, detail=None, error=None):
    """Raise HwfitError unless status is HWFIT_OK. `error` is an optional hwfit_error."""
    if status == HWFIT_OK:
        return
    name = hwfit_status_name(status).decode()
    message = hwfit_status_str(status).decode()
    if error is not None and error.message:
        message = error.message.decode("utf-8", "replace")
        if error.line:
            message = f"{error.line}:{error.column}: {message}"
    raise HwfitError(status, name, message, detail)


# ---- version.h -----------------------------------------------------------------------

# unsigned hwfit_version_number(void);
hwfit_version_number = _fn("hwfit_version_number", ctypes.c_uint, [])
# const char *hwfit_version_string(void);
hwfit_version_string = _fn("hwfit_version_string", ctypes.c_char_p, [])

# ---- units.h -------------------------------------------------------------------------

HWFIT_UNIT_NONE = 0
HWFIT_UNIT_BYTES = 1
HWFIT_UNIT_BYTES_PER_S = 2
HWFIT_UNIT_BITS_PER_S = 3
HWFIT_UNIT_WATTS = 4
HWFIT_UNIT_SECONDS = 5
HWFIT_UNIT_FLOP_PER_S = 6
HWFIT_UNIT_FLOP = 7

# hwfit_status hwfit_units_parse(const char *text, hwfit_unit unit, double *value);
hwfit_units_parse = _fn("hwfit_units_parse", ctypes.c_int,
                        [ctypes.c_char_p, ctypes.c_int, c_double_p])
# hwfit_status hwfit_units_format(double value, hwfit_unit unit, char *buf, size_t size);
hwfit_units_format = _fn("hwfit_units_format", ctypes.c_int,
                         [ctypes.c_double, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t])
# hwfit_status hwfit_units_format_count(uint64_t count, char *buf, size_t size);
hwfit_units_format_count = _fn("hwfit_units_format_count", ctypes.c_int,
                               [ctypes.c_uint64, ctypes.c_char_p, ctypes.c_size_t])

# ---- svg.h ---------------------------------------------------------------------------

HWFIT_SVG_VALUE_MAX = 1e30
HWFIT_SVG_LOG_MIN = 1e-30
HWFIT_SVG_SIZE_MIN_PX = 200.0
HWFIT_SVG_SIZE_MAX_PX = 16384.0
HWFIT_SVG_PALETTE_SIZE = 7

HWFIT_SVG_SCALE_LINEAR = 0
HWFIT_SVG_SCALE_LOG2 = 1
HWFIT_SVG_SCALE_LOG10 = 2

HWFIT_SVG_PREFIX_AUTO = 0
HWFIT_SVG_PREFIX_DECIMAL = 1
HWFIT_SVG_PREFIX_BINARY = 2

c_char_p_p = ctypes.POINTER(ctypes.c_char_p)
c_uint32_p = ctypes.POINTER(ctypes.c_uint32)
c_size_t_p = ctypes.POINTER(ctypes.c_size_t)


class hwfit_svg_axis(ctypes.Structure):
    _fields_ = [
        ("label", ctypes.c_char_p),
        ("unit", ctypes.c_int),
        ("scale", ctypes.c_int),
        ("prefix", ctypes.c_int),
        ("include_zero", ctypes.c_int),
    ]


class hwfit_svg_stacked_bars_in(ctypes.Structure):
    _fields_ = [
        ("title", ctypes.c_char_p),
        ("x_label", ctypes.c_char_p),
        ("y", hwfit_svg_axis),
        ("bar_count", ctypes.c_size_t),
        ("bar_labels", c_char_p_p),
        ("segment_count", ctypes.c_size_t),
        ("segment_labels", c_char_p_p),
        ("values", c_double_p),
        ("segment_colors", c_uint32_p),
        ("capacity_set", ctypes.c_int),
        ("capacity", ctypes.c_double),
        ("capacity_label", ctypes.c_char_p),
        ("show_totals", ctypes.c_int),
        ("width_px", ctypes.c_double),
        ("height_px", ctypes.c_double),
    ]


class hwfit_svg_series(ctypes.Structure):
    _fields_ = [
        ("label", ctypes.c_char_p),
        ("x", c_double_p),
        ("y", c_double_p),
        ("count", ctypes.c_size_t),
    ]


class hwfit_svg_lines_in(ctypes.Structure):
    _fields_ = [
        ("title", ctypes.c_char_p),
        ("x", hwfit_svg_axis),
        ("y", hwfit_svg_axis),
        ("series_count", ctypes.c_size_t),
        ("series", ctypes.POINTER(hwfit_svg_series)),
        ("markers", ctypes.c_int),
        ("width_px", ctypes.c_double),
        ("height_px", ctypes.c_double),
    ]


class hwfit_svg_reference(ctypes.Structure):
    _fields_ = [
        ("label", ctypes.c_char_p),
        ("value", ctypes.c_double),
    ]


class hwfit_svg_budget_in(ctypes.Structure):
    _fields_ = [
        ("title", ctypes.c_char_p),
        ("x", hwfit_svg_axis),
        ("bar_count", ctypes.c_size_t),
        ("bar_labels", c_char_p_p),
        ("values", c_double_p),
        ("bar_colors", c_uint32_p),
        ("show_total", ctypes.c_int),
        ("total_label", ctypes.c_char_p),
        ("reference_count", ctypes.c_size_t),
        ("references", ctypes.POINTER(hwfit_svg_reference)),
        ("width_px", ctypes.c_double),
        ("height_px", ctypes.c_double),
    ]


# void hwfit_svg_stacked_bars_init(hwfit_svg_stacked_bars_in *in);
hwfit_svg_stacked_bars_init = _fn("hwfit_svg_stacked_bars_init", None,
                                  [ctypes.POINTER(hwfit_svg_stacked_bars_in)])
# hwfit_status hwfit_svg_stacked_bars(const hwfit_svg_stacked_bars_in *in, char *buf,
#                                     size_t size, size_t *needed);
hwfit_svg_stacked_bars = _fn("hwfit_svg_stacked_bars", ctypes.c_int,
                             [ctypes.POINTER(hwfit_svg_stacked_bars_in), ctypes.c_char_p,
                              ctypes.c_size_t, c_size_t_p])
# void hwfit_svg_lines_init(hwfit_svg_lines_in *in);
hwfit_svg_lines_init = _fn("hwfit_svg_lines_init", None, [ctypes.POINTER(hwfit_svg_lines_in)])
# hwfit_status hwfit_svg_lines(const hwfit_svg_lines_in *in, char *buf, size_t size,
#                              size_t *needed);
hwfit_svg_lines = _fn("hwfit_svg_lines", ctypes.c_int,
                      [ctypes.POINTER(hwfit_svg_lines_in), ctypes.c_char_p, ctypes.c_size_t,
                       c_size_t_p])
# void hwfit_svg_budget_init(hwfit_svg_budget_in *in);
hwfit_svg_budget_init = _fn("hwfit_svg_budget_init", None, [ctypes.POINTER(hwfit_svg_budget_in)])
# hwfit_status hwfit_svg_budget(const hwfit_svg_budget_in *in, char *buf, size_t size,
#                               size_t *needed);
hwfit_svg_budget = _fn("hwfit_svg_budget", ctypes.c_int,
                       [ctypes.POINTER(hwfit_svg_budget_in), ctypes.c_char_p, ctypes.c_size_t,
                        c_size_t_p])
# hwfit_status hwfit_svg_escape(const char *text, char *buf, size_t size, size_t *needed);
hwfit_svg_escape = _fn("hwfit_svg_escape", ctypes.c_int,
                       [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t, c_size_t_p])
# uint32_t hwfit_svg_color(size_t index);
hwfit_svg_color = _fn("hwfit_svg_color", ctypes.c_uint32, [ctypes.c_size_t])

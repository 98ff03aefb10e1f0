"""Charts as SVG text, over include/hwfit/svg.h.

Each function takes plain Python data (labels as str, values as numbers in the base unit
of the axis: bytes, bytes/s, W, s...) and returns the SVG document as a str. The C
library lays out and writes every byte; this layer only converts types and sizes the
buffer (one call to ask for the size, one to write).
"""
import ctypes as _ct

from . import _lib
from ._args import invalid as _invalid

SCALES = {"linear": _lib.HWFIT_SVG_SCALE_LINEAR, "log2": _lib.HWFIT_SVG_SCALE_LOG2,
          "log10": _lib.HWFIT_SVG_SCALE_LOG10}
PREFIXES = {"auto": _lib.HWFIT_SVG_PREFIX_AUTO, "decimal": _lib.HWFIT_SVG_PREFIX_DECIMAL,
            "binary": _lib.HWFIT_SVG_PREFIX_BINARY}


def _choice(table, name, what):
    try:
        return table[name]
    except (KeyError, TypeError):
        raise _invalid(f"unknown {what} {name!r} (expected one of {', '.join(table)})") from None


def _unit(name):
    from . import UNITS  # the package's table of unit names, defined before this is called
    return _choice(UNITS, name, "unit")


def _text(value, what):
    """str -> UTF-8 bytes; None stays None (the library refuses it with HWFIT_EINVAL)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise _invalid(f"{what} must be a string, got {value!r}")
    return value.encode("utf-8")


def _number(value, what):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _invalid(f"{what} must be a number, got {value!r}")
    return float(value)


def _labels(items, what):
    encoded = [_text(x, what) for x in items]
    return (_ct.c_char_p * len(encoded))(*encoded)


def _doubles(items, what):
    return (_ct.c_double * len(items))(*[_number(x, what) for x in items])


def _color(value):
    if isinstance(value, str) and len(value) == 7 and value.startswith("#"):
        try:
            return int(value[1:], 16)
        except ValueError:
            pass
    elif isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 0xFFFFFF:
        return value
    raise _invalid(f"a colour is 0xRRGGBB or '#RRGGBB', got {value!r}")


def _colors(values, count):
    if values is None:
        return None
    values = list(values)
    if len(values) != count:
        raise _invalid(f"expected {count} colours, got {len(values)}")
    return (_ct.c_uint32 * count)(*[_color(v) for v in values])


def _axis(label, unit, scale, prefix, include_zero):
    return _lib.hwfit_svg_axis(_text(label, "axis label"), _unit(unit),
                               _choice(SCALES, scale, "scale"),
                               _choice(PREFIXES, prefix, "prefix"), 1 if include_zero else 0)


def _pairs(items, what):
    """A mapping or a sequence of (key, value) pairs, as a list of pairs."""
    if hasattr(items, "items"):
        return list(items.items())
    pairs = list(items)
    for p in pairs:
        if not isinstance(p, (tuple, list)) or len(p) != 2:
            raise _invalid(f"{what} must be a mapping or (label, value) pairs, got {p!r}")
    return pairs


def _render(fn, inp):
    needed = _ct.c_size_t(0)
    status = fn(_ct.byref(inp), None, 0, _ct.byref(needed))
    if status != _lib.HWFIT_EBUFSIZE:
        _lib.check(status)
    buf = _ct.create_string_buffer(needed.value)
    _lib.check(fn(_ct.byref(inp), buf, needed.value, None))
    return buf.value.decode("utf-8")


def svg_color(index):
    """The palette colour of series `index` as "#RRGGBB" (Okabe-Ito, without black)."""
    return "#%06X" % _lib.hwfit_svg_color(int(index))


def svg_escape(text):
    """`text` escaped for XML as the charts do it (entities, control characters dropped)."""
    data = _text(text, "text")
    needed = _ct.c_size_t(0)
    status = _lib.hwfit_svg_escape(data, None, 0, _ct.byref(needed))
    if status != _lib.HWFIT_EBUFSIZE:
        _lib.check(status)
    buf = _ct.create_string_buffer(needed.value)
    _lib.check(_lib.hwfit_svg_escape(data, buf, needed.value, None))
    return buf.value.decode("utf-8")


def chart_stacked_bars(bars, segments, values, *, title="", x_label="", y_label="",
                       unit="none", prefix="auto", capacity=None, capacity_label="Capacity",
                       colors=None, show_totals=True, width=800, height=480):
    """A stacked bar chart as SVG text.

    bars: N bar labels (e.g. "GPU 0"); segments: M segment labels, bottom first (e.g.
    "Weights", "KV cache", ...); values: N rows of M values in the base unit of `unit`
    ("bytes", "watts", ... as in hwfit.UNITS); capacity: height of a dashed line, or None;
    colors: M colours ("#RRGGBB" or 0xRRGGBB) or None for the palette.
    """
    bars, segments, rows = list(bars), list(segments), list(values)
    if len(rows) != len(bars):
        raise _invalid(f"values has {len(rows)} rows for {len(bars)} bars")
    flat = []
    for i, row in enumerate(rows):
        row = list(row)
        if len(row) != len(segments):
            raise _invalid(f"values row {i} has {len(row)} values for {len(segments)} segments")
        flat.extend(row)
    inp = _lib.hwfit_svg_stacked_bars_in()
    _lib.hwfit_svg_stacked_bars_init(_ct.byref(inp))
    keep = [_labels(bars, "bar label"), _labels(segments, "segment label"),
            _doubles(flat, "value"), _colors(colors, len(segments))]
    inp.title = _text(title, "title")
    inp.x_label = _text(x_label, "x_label")
    inp.y = _axis(y_label, unit, "linear", prefix, True)
    inp.bar_count, inp.bar_labels = len(bars), keep[0]
    inp.segment_count, inp.segment_labels = len(segments), keep[1]
    inp.values = keep[2]
    inp.segment_colors = keep[3]
    if capacity is not None:
        inp.capacity_set, inp.capacity = 1, _number(capacity, "capacity")
    inp.capacity_label = _text(capacity_label, "capacity_label")
    inp.show_totals = 1 if show_totals else 0
    inp.width_px, inp.height_px = _number(width, "width"), _number(height, "height")
    return _render(_lib.hwfit_svg_stacked_bars, inp)


def chart_lines(series, *, title="", x_label="", y_label="", x_unit="none", y_unit="none",
                x_scale="linear", y_scale="linear", x_prefix="auto", y_prefix="auto",
                x_include_zero=False, y_include_zero=True, markers=True, width=800,
                height=480):
    """A line chart as SVG text.

    series: a mapping {label: points} or a sequence of (label, points), where points is a
    sequence of (x, y) in the base units of x_unit and y_unit. Scales: "linear", "log2",
    "log10"; prefixes: "auto", "decimal", "binary".
    """
    pairs = _pairs(series, "series")
    arrays = []
    structs = (_lib.hwfit_svg_series * len(pairs))()
    for k, (label, points) in enumerate(pairs):
        points = list(points)
        for p in points:
            if not isinstance(p, (tuple, list)) or len(p) != 2:
                raise _invalid(f"a point is (x, y), got {p!r}")
        xs = _doubles([p[0] for p in points], "x")
        ys = _doubles([p[1] for p in points], "y")
        arrays.append((xs, ys))
        structs[k] = _lib.hwfit_svg_series(_text(label, "series label"), xs, ys, len(points))
    inp = _lib.hwfit_svg_lines_in()
    _lib.hwfit_svg_lines_init(_ct.byref(inp))
    inp.title = _text(title, "title")
    inp.x = _axis(x_label, x_unit, x_scale, x_prefix, x_include_zero)
    inp.y = _axis(y_label, y_unit, y_scale, y_prefix, y_include_zero)
    inp.series_count, inp.series = len(pairs), structs
    inp.markers = 1 if markers else 0
    inp.width_px, inp.height_px = _number(width, "width"), _number(height, "height")
    return _render(_lib.hwfit_svg_lines, inp)


def chart_budget(items, *, title="", x_label="", unit="none", prefix="auto", references=(),
                 show_total=True, total_label="Total", colors=None, width=800, height=480):
    """A budget chart as SVG text: one horizontal bar per item, a stacked total bar, and
    vertical reference lines.

    items and references: a mapping {label: value} or a sequence of (label, value), values
    in the base unit of `unit` (e.g. "watts", "bytes"); colors: one per item or None.
    """
    items = _pairs(items, "items")
    refs = _pairs(references, "references")
    inp = _lib.hwfit_svg_budget_in()
    _lib.hwfit_svg_budget_init(_ct.byref(inp))
    labels = _labels([k for k, _ in items], "bar label")
    values = _doubles([v for _, v in items], "value")
    ref_array = (_lib.hwfit_svg_reference * len(refs))(
        *[_lib.hwfit_svg_reference(_text(k, "reference label"), _number(v, "reference"))
          for k, v in refs])
    bar_colors = _colors(colors, len(items))
    inp.title = _text(title, "title")
    inp.x = _axis(x_label, unit, "linear", prefix, True)
    inp.bar_count, inp.bar_labels, inp.values = len(items), labels, values
    inp.bar_colors = bar_colors
    inp.show_total = 1 if show_total else 0
    inp.total_label = _text(total_label, "total_label")
    inp.reference_count, inp.references = len(refs), ref_array
    inp.width_px, inp.height_px = _number(width, "width"), _number(height, "height")
    return _render(_lib.hwfit_svg_budget, inp)


__all__ = ["chart_stacked_bars", "chart_lines", "chart_budget", "svg_color", "svg_escape"]

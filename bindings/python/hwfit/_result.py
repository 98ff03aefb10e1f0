"""Results that display themselves in notebooks.

The subcommand functions (hwfit.fit, hwfit.power, ...) return a `Result`: a dict subclass,
equal to the plain dict of the CLI's --json output (same keys, same values), that Jupyter
renders as a table. Nested objects become nested tables, lists of objects tables with one
row each. Quantities whose key names a unit (`_bytes`, `_bytes_per_s`, `_w`, `_s`,
`_flop_per_s`) show the library's text for people ("141.1 GB (131.4 GiB)") with the exact
value as a tooltip. Charts come back as an `Svg` and reports as an `Html`: strings that
notebooks show as a picture or a page.
"""
import ctypes as _ct
import html as _html
import math as _math

from . import _lib

__all__ = ["Result", "Svg", "Html"]

# Key suffix -> unit, longest first (so "_bytes_per_s" wins over "_s").
_UNIT_SUFFIXES = (
    ("_bytes_per_s", _lib.HWFIT_UNIT_BYTES_PER_S),
    ("_flop_per_s", _lib.HWFIT_UNIT_FLOP_PER_S),
    ("_bits_per_s", _lib.HWFIT_UNIT_BITS_PER_S),
    ("_bytes", _lib.HWFIT_UNIT_BYTES),
    ("_flop", _lib.HWFIT_UNIT_FLOP),
    ("_w", _lib.HWFIT_UNIT_WATTS),
    ("_s", _lib.HWFIT_UNIT_SECONDS),
)

_STYLE = ("<style>.hwfit-result{border-collapse:collapse;font:13px/1.4 sans-serif}"
          ".hwfit-result th,.hwfit-result td{border:1px solid #ddd;padding:2px 8px;"
          "text-align:left;vertical-align:top}.hwfit-result th{background:#f4f4f4}"
          ".hwfit-result .q{white-space:nowrap}</style>")


def _unit_of(key):
    for suffix, unit in _UNIT_SUFFIXES:
        if isinstance(key, str) and key.endswith(suffix):
            return unit
    return None


def _quantity_text(value, unit):
    buf = _ct.create_string_buffer(64)
    if _lib.hwfit_units_format(float(value), unit, buf, len(buf)) != _lib.HWFIT_OK:
        return None
    return buf.value.decode()


def _cell(key, value):
    """One value as HTML."""
    if isinstance(value, dict):
        return _table(value)
    if isinstance(value, list):
        return _list(value)
    if value is None:
        return "<i>null</i>"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        text = repr(value) if isinstance(value, int) else f"{value:.6g}"
        unit = _unit_of(key)
        if unit is not None and _math.isfinite(value):
            q = _quantity_text(value, unit)
            if q is not None:  # the exact value as a tooltip
                return f'<span class="q" title="{_html.escape(text)}">{_html.escape(q)}</span>'
        return _html.escape(text)
    return _html.escape(str(value))


def _table(d):
    rows = "".join(f"<tr><th>{_html.escape(str(k))}</th><td>{_cell(k, v)}</td></tr>"
                   for k, v in d.items())
    return f'<table class="hwfit-result">{rows}</table>'


def _list(items):
    if items and all(isinstance(x, dict) for x in items):
        keys = []
        for x in items:
            keys.extend(k for k in x if k not in keys)
        head = "".join(f"<th>{_html.escape(str(k))}</th>" for k in keys)
        body = "".join("<tr>" + "".join(f"<td>{_cell(k, x.get(k))}</td>" for k in keys) + "</tr>"
                       for x in items)
        return f'<table class="hwfit-result"><tr>{head}</tr>{body}</table>'
    return ", ".join(_cell(None, x) for x in items) if items else "<i>none</i>"


class Result(dict):
    """A result dict (the CLI's --json keys and values) that notebooks show as a table."""

    def _repr_html_(self):
        return _STYLE + _table(self)


class Svg(str):
    """An SVG document: a str that notebooks (Jupyter, VS Code) display as a picture."""

    def _repr_svg_(self):
        return str(self)

    def save(self, path):
        """Write the document to `path` (UTF-8) and return the path."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self)
        return path


class Html(str):
    """A whole HTML document: a str that notebooks show in a frame of its own (so that its
    styles do not touch the notebook)."""

    def _repr_html_(self):
        return ('<iframe style="width:100%;height:900px;border:1px solid #ddd" '
                f'srcdoc="{_html.escape(str(self), quote=True)}"></iframe>')

    save = Svg.save

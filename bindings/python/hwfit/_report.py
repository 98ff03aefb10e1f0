"""The HTML report of a node's assessment (report.h): `hwfit assess --html FILE` in Python.

`report_html(node, workload=[...], ...)` takes the options of `hwfit.assess` and returns
the very document the CLI writes, as an `Html`: a str that notebooks display (inside an
isolated frame, so that its styles do not touch the notebook). The C library assesses the
node and writes every byte; this layer converts arguments as `hwfit.assess` does.
"""
import ctypes as _ct
import html as _html

from . import _lib

__all__ = ["Html", "report_html"]


class Html(str):
    """A whole HTML document: a str that notebooks show in a frame of its own."""

    def _repr_html_(self):
        return ('<iframe style="width:100%;height:900px;border:1px solid #ddd" '
                f'srcdoc="{_html.escape(str(self), quote=True)}"></iframe>')

    def save(self, path):
        """Write the document to `path` (UTF-8) and return the path."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self)
        return path


def report_html(node, workload=None, models_dir=None, pipeline_rate=None, allreduce_size=None,
                checkpoints=None, max_tpot=None, max_comm_share=None, title=None, charts=True,
                chart_width=800, chart_height=440):
    """Same document as `hwfit assess --node NODE [--workload W ...] --html FILE`: the node's
    specification, the findings by topic with their figures, and the charts (memory per card
    of the first workload, the all-reduce sweep, RAID capacity, the power budget).

    `node` is a node file path or a Node; the other assessment options are those of
    `hwfit.assess`. `title` replaces "Assessment of <name>"; charts=False leaves the charts
    out; chart_width and chart_height size them in pixels."""
    from ._node import _fail, _run_assess
    ro = _lib.hwfit_report_options()
    _lib.hwfit_report_options_init(_ct.byref(ro))
    if title is not None:
        if not isinstance(title, str):
            _fail(f"title: expected a string, got {title!r}")
        ro.title = title.encode("utf-8")
    ro.charts = 1 if charts else 0
    for name, value in (("chart_width", chart_width), ("chart_height", chart_height)):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            _fail(f"{name}: expected a number of pixels, got {value!r}")
    ro.chart_width_px = float(chart_width)
    ro.chart_height_px = float(chart_height)
    n, works, models, count, findings, got = _run_assess(
        node, workload, models_dir, ro.assess, pipeline_rate, allreduce_size, checkpoints,
        max_tpot, max_comm_share)
    needed = _ct.c_size_t(0)
    args = (_ct.byref(n.raw), works, count, findings, got, _ct.byref(ro))
    status = _lib.hwfit_report_html(*args, None, 0, _ct.byref(needed))
    if status != _lib.HWFIT_EBUFSIZE:
        _lib.check(status, "report")
    buf = _ct.create_string_buffer(needed.value)
    _lib.check(_lib.hwfit_report_html(*args, buf, needed.value, None), "report")
    return Html(buf.value.decode("utf-8"))

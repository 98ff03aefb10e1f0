"""Charts of results and notebook display from Python: the chart functions return the same
bytes as the C tests' golden files (so the same numbers as the domain functions), parse as
XML, display in notebooks; results are dicts equal to the CLI's JSON that render as HTML
tables; bad input raises HwfitError."""
import os
import unittest
import xml.etree.ElementTree as ET

import hwfit

SVG = "{http://www.w3.org/2000/svg}"
HERE = os.path.dirname(os.path.abspath(__file__))
TEST_DATA = os.environ.get("HWFIT_TEST_DATA") or os.path.join(HERE, "..", "..", "..", "tests",
                                                                "data")
LLAMA70 = os.path.join(TEST_DATA, "models", "llama-3.1-70b.config.json")
SEED_COMPONENTS = ["gpu:8:600W", "cpu:2:400W", "dimm:24:10W", "drive:4:18W", "nic:2:25W",
                   "fan:10:40W", "board:1:100W"]


def golden(name):
    with open(os.path.join(TEST_DATA, "chart", name), encoding="utf-8") as f:
        return f.read()


class ChartGoldens(unittest.TestCase):
    """The data of tests/test_chart.c's golden_* tests, through the Python options."""

    def test_memory_is_the_golden_chart(self):
        svg = hwfit.chart_memory(LLAMA70, capacity="96GiB", gpus=8, mode="qlora", tp=2, pp=4,
                                 context=4096, micro_batch=1, recompute="none", zero=0,
                                 no_sequence_parallel=True)
        self.assertEqual(svg, golden("memory.svg"))

    def test_collective_is_the_golden_chart(self):
        self.assertEqual(hwfit.chart_collective(compare="h100-sxm"), golden("collective.svg"))

    def test_power_is_the_golden_chart(self):
        svg = hwfit.chart_power(4, "3200W", redundant="N+2", component=SEED_COMPONENTS)
        self.assertEqual(svg, golden("power.svg"))

    def test_raid_is_the_golden_chart(self):
        self.assertEqual(hwfit.chart_raid("raidz2", 8, "15.36TB", spares=1), golden("raid.svg"))


class ChartDocuments(unittest.TestCase):
    def test_every_chart_is_well_formed_svg_and_displays(self):
        charts = [hwfit.chart_memory(LLAMA70, gpu="rtx-pro-6000-server", gpus=8),
                  hwfit.chart_collective(metric="time", compare=["h100-sxm", "mi300x"]),
                  hwfit.chart_power(4, 3200, load="6500W", title="Load <only>"),
                  hwfit.chart_raid("10", 4, "7.68TB", width=600, height=300)]
        for svg in charts:
            self.assertIsInstance(svg, str)
            self.assertIsInstance(svg, hwfit.Svg)
            self.assertEqual(svg._repr_svg_(), str(svg))
            root = ET.fromstring(svg.encode("utf-8"))
            self.assertEqual(root.tag, SVG + "svg")
        self.assertEqual(ET.fromstring(charts[2].encode()).find(SVG + "title").text,
                         "Load <only>")
        self.assertEqual(ET.fromstring(charts[3].encode()).get("width"), "600")
        # Three GPUs, three lines.
        self.assertEqual(len(ET.fromstring(charts[1].encode()).findall(f".//{SVG}polyline")), 3)

    def test_memory_bars_follow_fit(self):
        """The chart draws the layout hwfit.fit shows: its largest card's bytes label a bar."""
        kw = dict(gpu="rtx-pro-6000-server", gpus=8, context="32K", batch=8)
        r = hwfit.fit(LLAMA70, **kw)
        svg = hwfit.chart_memory(LLAMA70, **kw)
        self.assertEqual(r["layout"]["pp"], 1)
        used = hwfit.svg_escape(f"GPU 0-7: {r['per_gpu_bytes'] / 1e9:.4g} GB")
        self.assertIn(used, svg)

    def test_save_writes_the_document(self):
        import tempfile
        svg = hwfit.chart_raid("6", 4, "15.36TB")
        with tempfile.TemporaryDirectory() as d:
            path = svg.save(os.path.join(d, "raid.svg"))
            with open(path, encoding="utf-8") as f:
                self.assertEqual(f.read(), svg)

    def test_bad_input_raises(self):
        for call in (lambda: hwfit.chart_collective(metric="speed"),
                     lambda: hwfit.chart_collective(compare="no-such-gpu"),
                     lambda: hwfit.chart_collective(compare=["h100-sxm"] * 8),
                     lambda: hwfit.chart_collective(min_size="0.5B"),
                     lambda: hwfit.chart_raid("6", 4, "15.36TB", width=50),
                     lambda: hwfit.chart_raid("6", 4, "15.36TB", width="wide"),
                     lambda: hwfit.chart_raid("6", 0, "15.36TB"),
                     lambda: hwfit.chart_power(4, 3200),
                     lambda: hwfit.chart_power(4, 3200, load=100, flavour="x"),
                     lambda: hwfit.chart_memory(LLAMA70, capacity="96GiB", gpus=3, tp=3),
                     lambda: hwfit.chart_memory(LLAMA70, title=5, capacity="96GiB")):
            with self.assertRaises(hwfit.HwfitError):
                call()


class Results(unittest.TestCase):
    def test_results_are_dicts_that_render_as_tables(self):
        r = hwfit.power(psus=4, psu_watts="3200W", redundant="N+2", component=SEED_COMPONENTS)
        self.assertIsInstance(r, hwfit.Result)
        self.assertIsInstance(r, dict)
        self.assertEqual(r, dict(r))
        page = r._repr_html_()
        self.assertIn('<table class="hwfit-result">', page)
        # The nested budget is a nested table; quantities show the library's text too.
        self.assertIn("<th>budget</th><td><table", page)
        self.assertIn(hwfit.format_quantity(r["usable_w"], "watts"), page)
        ET.fromstring("<div>" + page.split("</style>", 1)[1] + "</div>")  # well-formed

    def test_lists_of_objects_become_tables_and_text_is_escaped(self):
        r = hwfit.fit(LLAMA70, capacity="96GiB", gpus=8, mode="qlora", tp=2, pp=4)
        self.assertIsInstance(r, hwfit.Result)
        page = r._repr_html_()
        self.assertIn("<th>first_layer</th>", page)  # the cards list as a table
        self.assertEqual(page.count("<th>stage</th>"), 2)  # breakdown and the cards header
        self.assertIn("<i>null</i>", page)  # kv is null when training
        odd = hwfit.Result({"name": "<b>&", "n": 3, "ok": True, "none": [], "x_s": 0.5})
        page = odd._repr_html_()
        self.assertIn("&lt;b&gt;&amp;", page)
        self.assertIn("yes", page)
        self.assertIn('title="0.5">500 ms</span>', page)

    def test_every_subcommand_function_returns_a_result(self):
        self.assertIsInstance(hwfit.gpus(), hwfit.Result)
        self.assertIn("<th>memory_bytes</th>", hwfit.gpus()._repr_html_())
        self.assertIsInstance(hwfit.units("96GB"), hwfit.Result)
        self.assertIsInstance(hwfit.raid("6", 4, "15.36TB"), hwfit.Result)
        self.assertEqual(hwfit.gpus.__name__, "gpus")  # wrapped with functools.wraps
        self.assertIn("gpus", hwfit.gpus.__doc__)


if __name__ == "__main__":
    unittest.main()

"""Charts of results and notebook display from Python: the chart functions (a command run
in SVG) return the same bytes as the C tests' golden files, parse as XML, display in
notebooks; results are dicts equal to the CLI's JSON that render as HTML tables; bad input
raises HwfitError."""
import os
import tempfile
import unittest
import xml.etree.ElementTree as ET

import hwfit
from _needs import needs

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


def chart(name):
    return needs({"chart_memory": "fit"}.get(name, name[len("chart_"):]))


class ChartGoldens(unittest.TestCase):
    """The data of tests/test_chart.c's golden_* tests, through the Python options."""

    @chart("chart_memory")
    def test_memory_is_the_golden_chart(self):
        svg = hwfit.chart_memory(config=LLAMA70, capacity="96GiB", gpus=8, mode="qlora", tp=2,
                                 pp=4, context=4096, micro_batch=1, recompute="none", zero=0,
                                 no_sequence_parallel=True)
        self.assertEqual(svg, golden("memory.svg"))

    @chart("chart_collective")
    def test_collective_is_the_golden_chart(self):
        self.assertEqual(hwfit.chart_collective(sweep=True, compare="h100-sxm"),
                         golden("collective.svg"))

    @chart("chart_power")
    def test_power_is_the_golden_chart(self):
        svg = hwfit.chart_power(psus=4, psu_watts="3200W", redundant="N+2",
                                component=SEED_COMPONENTS)
        self.assertEqual(svg, golden("power.svg"))

    @chart("chart_raid")
    def test_raid_is_the_golden_chart(self):
        self.assertEqual(hwfit.chart_raid(level="raidz2", drives=8, drive_size="15.36TB",
                                          spares=1), golden("raid.svg"))


class ChartDocuments(unittest.TestCase):
    def charts(self):
        calls = {"chart_memory": lambda: hwfit.chart_memory(config=LLAMA70,
                                                            gpu="rtx-pro-6000-server", gpus=8),
                 "chart_collective": lambda: hwfit.chart_collective(
                     sweep=True, svg_metric="time", compare=["h100-sxm", "mi300x"]),
                 "chart_power": lambda: hwfit.chart_power(psus=4, psu_watts=3200, load="6500W"),
                 "chart_raid": lambda: hwfit.chart_raid(level="10", drives=4,
                                                        drive_size="7.68TB")}
        return {k: f() for k, f in calls.items() if k in hwfit.COMMANDS}

    def test_every_chart_is_well_formed_svg_and_displays(self):
        charts = self.charts()
        for svg in charts.values():
            self.assertIsInstance(svg, str)
            self.assertIsInstance(svg, hwfit.Svg)
            self.assertEqual(svg._repr_svg_(), str(svg))
            root = ET.fromstring(svg.encode("utf-8"))
            self.assertEqual(root.tag, SVG + "svg")
        if "chart_collective" in charts:  # three GPUs, three lines
            root = ET.fromstring(charts["chart_collective"].encode())
            self.assertEqual(len(root.findall(f".//{SVG}polyline")), 3)

    @needs("fit")
    def test_memory_bars_follow_fit(self):
        """The chart draws the layout hwfit.fit shows: its largest card's bytes label a bar."""
        kw = dict(config=LLAMA70, gpu="rtx-pro-6000-server", gpus=8, context="32K", batch=8)
        r = hwfit.fit(**kw)
        svg = hwfit.chart_memory(**kw)
        self.assertEqual(r["layout"]["pp"], 1)
        self.assertIn(f"GPU 0-7: {r['per_gpu_bytes'] / 1e9:.4g} GB", svg)

    @needs("raid")
    def test_save_writes_the_document(self):
        svg = hwfit.chart_raid(level="6", drives=4, drive_size="15.36TB")
        with tempfile.TemporaryDirectory() as d:
            path = svg.save(os.path.join(d, "raid.svg"))
            with open(path, encoding="utf-8") as f:
                self.assertEqual(f.read(), svg)

    def test_bad_input_raises(self):
        calls = {"collective": [lambda: hwfit.chart_collective(sweep=True, svg_metric="speed"),
                                lambda: hwfit.chart_collective(sweep=True, compare="no-such-gpu"),
                                lambda: hwfit.chart_collective(sweep=True,
                                                               compare=["h100-sxm"] * 8),
                                lambda: hwfit.chart_collective(sweep=True, min_size="0.5B"),
                                lambda: hwfit.chart_collective()],
                 "raid": [lambda: hwfit.chart_raid(level="6", drives=0, drive_size="15.36TB")],
                 "power": [lambda: hwfit.chart_power(psus=4, psu_watts=3200)],
                 "fit": [lambda: hwfit.chart_memory(config=LLAMA70, capacity="96GiB", gpus=3,
                                                    tp=3)]}
        for command, fns in calls.items():
            if command not in hwfit.COMMANDS:
                continue
            for call in fns:
                with self.assertRaises(hwfit.HwfitError):
                    call()


class Results(unittest.TestCase):
    @needs("power")
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

    @needs("fit")
    def test_lists_of_objects_become_tables(self):
        r = hwfit.fit(config=LLAMA70, capacity="96GiB", gpus=8, mode="qlora", tp=2, pp=4)
        self.assertIsInstance(r, hwfit.Result)
        page = r._repr_html_()
        self.assertIn("<th>first_layer</th>", page)  # the cards list as a table
        self.assertEqual(page.count("<th>stage</th>"), 2)  # breakdown and the cards header
        self.assertIn("<i>null</i>", page)  # kv is null when training

    def test_text_is_escaped_and_quantities_shown(self):
        odd = hwfit.Result({"name": "<b>&", "n": 3, "ok": True, "none": [], "x_s": 0.5})
        page = odd._repr_html_()
        self.assertIn("&lt;b&gt;&amp;", page)
        self.assertIn("yes", page)
        self.assertIn('title="0.5">500 ms</span>', page)

    def test_every_subcommand_function_returns_a_result(self):
        for name in ("units", "gpus", "dtypes"):
            if name in hwfit.COMMANDS:
                r = hwfit.COMMANDS[name]("96GB") if name == "units" else hwfit.COMMANDS[name]()
                self.assertIsInstance(r, hwfit.Result)
                self.assertEqual(hwfit.COMMANDS[name].__name__, name)
                self.assertIn(f"hwfit {name}", hwfit.COMMANDS[name].__doc__)
        self.assertIn("<th>value</th>", hwfit.units("96GB")._repr_html_())


if __name__ == "__main__":
    unittest.main()

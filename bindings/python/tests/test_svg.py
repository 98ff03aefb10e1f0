"""SVG charts from Python: every chart parses as XML, the golden files of the C tests come
out byte for byte from the same data, and bad input raises HwfitError."""
import math
import os
import unittest
import xml.etree.ElementTree as ET

import hwfit

SVG = "{http://www.w3.org/2000/svg}"
HERE = os.path.dirname(os.path.abspath(__file__))
TEST_DATA = os.environ.get("HWFIT_TEST_DATA") or os.path.join(HERE, "..", "..", "..", "tests",
                                                                "data")


# The data of tests/test_svg.c (stacked_example, lines_example, budget_example).
def stacked_example():
    return hwfit.chart_stacked_bars(
        ["GPU 0", "GPU 1", "GPU 2", "GPU 3"],
        ["Weights", "KV cache", "Activations", "Free"],
        [[35e9, 20e9, 5e9, 20e9], [35e9, 30e9, 5e9, 10e9], [35e9, 10e9, 2.5e9, 32.5e9],
         [35e9, 40e9, 5e9, 0.0]],
        title="Memory per GPU & <capacity>", x_label="GPU", y_label="Memory", unit="bytes",
        capacity=80e9, capacity_label="H100 80GB")


SIZES = [1024.0 * 4 ** i for i in range(11)]
PCIE = [0.4e9, 1.5e9, 4.8e9, 10.5e9, 15.9e9, 19.6e9, 21.1e9, 21.7e9, 21.9e9, 22.0e9, 22.0e9]
NVLINK = [0.5e9, 2.0e9, 7.5e9, 25e9, 70e9, 150e9, 250e9, 320e9, 350e9, 358e9, 360e9]


def lines_example(**overrides):
    kwargs = dict(title="all_reduce bus bandwidth", x_label="Message size",
                  y_label="Bus bandwidth", x_unit="bytes", y_unit="bytes/s", x_scale="log2")
    kwargs.update(overrides)
    return hwfit.chart_lines([("PCIe Gen5 x16", list(zip(SIZES, PCIE))),
                              ("NVLink 4", list(zip(SIZES, NVLINK)))], **kwargs)


def budget_example(**overrides):
    kwargs = dict(title="Power budget", x_label="Power", unit="watts",
                  references={"DC total": 7020.0, "Usable PSU capacity": 9000.0,
                              "Headroom": 9000.0 / 1.3})
    kwargs.update(overrides)
    return hwfit.chart_budget({"GPUs": 5600.0, "CPUs": 700.0, "DIMMs": 320.0, "Fans": 400.0},
                              **kwargs)


def parse(text):
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == SVG + "svg", root.tag
    return root


class TestCharts(unittest.TestCase):
    def test_every_chart_parses_as_svg(self):
        charts = [stacked_example(), lines_example(), budget_example(),
                  lines_example(x_scale="log10", y_scale="log10", markers=False, title=""),
                  lines_example(x_scale="linear", x_include_zero=True, width=400, height=300),
                  budget_example(references=(), show_total=False),
                  hwfit.chart_stacked_bars(["a"], ["b"], [[1]])]
        for text in charts:
            root = parse(text)
            self.assertEqual(root.get("viewBox").split()[:2], ["0", "0"])
            self.assertIsNotNone(root.find(SVG + "title"))

    def test_the_c_golden_files_come_out_byte_for_byte(self):
        for name, text in (("stacked_bars.svg", stacked_example()),
                           ("lines.svg", lines_example()),
                           ("budget.svg", budget_example())):
            with self.subTest(name):
                with open(os.path.join(TEST_DATA, "svg", name), encoding="utf-8") as f:
                    self.assertEqual(text, f.read())

    def test_labels_with_markup_stay_text(self):
        root = parse(hwfit.chart_stacked_bars(
            ["<b>GPU</b> & 'x'"], ["\"seg\"\x01"], [[1.0]], title="a < b"))
        texts = ["".join(t.itertext()) for t in root.iter(SVG + "text")]
        self.assertIn("<b>GPU</b> & 'x'", texts)
        self.assertIn("a < b", texts)
        self.assertIn('"seg"', texts)  # the control character is dropped
        self.assertEqual(hwfit.svg_escape("a<b&'\"\x02"), "a&lt;b&amp;&apos;&quot;")

    def test_stacked_segment_heights_follow_the_values(self):
        root = parse(stacked_example())
        rects = [r for r in root.iter(SVG + "rect") if r.get("class") == "segment"]
        self.assertEqual(len(rects), 15)  # the zero "Free" segment of GPU 3 is not drawn
        heights = {(r.get("data-bar"), r.get("data-segment")): float(r.get("height"))
                   for r in rects}
        # 35 GB of weights against 5 GB of activations: 7 to 1 (coordinates carry 0.01 px).
        self.assertAlmostEqual(heights[("0", "0")] / heights[("0", "2")], 7.0, delta=0.01)

    def test_palette(self):
        self.assertEqual(hwfit.svg_color(0), "#0072B2")
        self.assertEqual(hwfit.svg_color(7), "#0072B2")
        self.assertEqual([hwfit.svg_color(i) for i in range(1, 7)],
                         ["#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442"])
        text = hwfit.chart_stacked_bars(["a"], ["b", "c"], [[1, 2]], colors=["#DDDDDD", 0x123456])
        self.assertIn('fill="#DDDDDD"', text)
        self.assertIn('fill="#123456"', text)


class TestErrors(unittest.TestCase):
    def assert_status(self, name, fn, *args, **kwargs):
        with self.assertRaises(hwfit.HwfitError) as cm:
            fn(*args, **kwargs)
        self.assertEqual(cm.exception.name, name, str(cm.exception))

    def test_bad_numbers_are_out_of_domain(self):
        for bad in (math.nan, math.inf, -1.0, 2e30):
            with self.subTest(bad):
                self.assert_status("HWFIT_EDOM", hwfit.chart_stacked_bars, ["a"], ["b"], [[bad]])
                self.assert_status("HWFIT_EDOM", hwfit.chart_budget, {"a": bad})
                self.assert_status("HWFIT_EDOM", lambda: hwfit.chart_lines({"s": [(1, bad)]}))
        self.assert_status("HWFIT_EDOM", hwfit.chart_lines, {"s": [(0, 1)]}, x_scale="log2")
        self.assert_status("HWFIT_EDOM", lines_example, width=50)

    def test_empty_data_is_out_of_domain(self):
        self.assert_status("HWFIT_EDOM", hwfit.chart_stacked_bars, [], ["b"], [])
        self.assert_status("HWFIT_EDOM", hwfit.chart_stacked_bars, ["a"], [], [[]])
        self.assert_status("HWFIT_EDOM", hwfit.chart_lines, {})
        self.assert_status("HWFIT_EDOM", hwfit.chart_lines, {"empty": []})
        self.assert_status("HWFIT_EDOM", hwfit.chart_budget, {})

    def test_missing_labels_and_bad_names_are_invalid(self):
        self.assert_status("HWFIT_EINVAL", hwfit.chart_stacked_bars, [None], ["b"], [[1]])
        self.assert_status("HWFIT_EINVAL", hwfit.chart_budget, {"a": 1}, title=None)
        self.assert_status("HWFIT_EINVAL", hwfit.chart_lines, [(None, [(1, 1)])])
        self.assert_status("HWFIT_EINVAL", hwfit.chart_lines, {"s": [(1, 1)]}, x_scale="log3")
        self.assert_status("HWFIT_EINVAL", hwfit.chart_budget, {"a": 1}, unit="parsecs")
        self.assert_status("HWFIT_EINVAL", hwfit.chart_budget, {"a": 1}, prefix="metric")
        self.assert_status("HWFIT_EINVAL", hwfit.chart_budget, {"a": "1"})
        self.assert_status("HWFIT_EINVAL", hwfit.chart_stacked_bars, ["a"], ["b"], [[1, 2]])
        self.assert_status("HWFIT_EINVAL", hwfit.chart_stacked_bars, ["a"], ["b"], [[1]],
                           colors=["red"])


if __name__ == "__main__":
    unittest.main()

"""`--svg FILE` on fit, collective, power and raid: the file is written, parses as SVG, is
byte for byte the library's chart (the golden files of tests/test_chart.c for the same
inputs), the printed output does not change, and a file that cannot be written is a usage
error (exit 2, one line on stderr, nothing on stdout)."""
import json
import os
import tempfile
import unittest
import xml.etree.ElementTree as ET

from clitest import CliCase, TEST_DATA, run

SVG = "{http://www.w3.org/2000/svg}"
LLAMA70 = os.path.join(TEST_DATA, "models", "llama-3.1-70b.config.json")
FIT = ["fit", "--config", LLAMA70, "--capacity", "96GiB", "--gpus", "8", "--mode", "qlora",
       "--tp", "2", "--pp", "4", "--context", "4096", "--micro-batch", "1", "--recompute",
       "none", "--zero", "0", "--no-sequence-parallel"]
COLLECTIVE = ["collective", "--sweep"]
POWER = ["power", "--psus", "4", "--psu-watts", "3200W", "--redundant", "N+2",
         "--component", "gpu:8:600W", "--component", "cpu:2:400W", "--component", "dimm:24:10W",
         "--component", "drive:4:18W", "--component", "nic:2:25W", "--component", "fan:10:40W",
         "--component", "board:1:100W"]
RAID = ["raid", "--level", "raidz2", "--drives", "8", "--drive-size", "15.36TB", "--spares", "1"]
UNWRITABLE = os.path.join(os.sep, "nonexistent-dir-hwfit", "chart.svg")


def golden(name):
    with open(os.path.join(TEST_DATA, "chart", name), encoding="utf-8") as f:
        return f.read()


class SvgOption(CliCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def chart(self, args, name, extra=()):
        """Run with --svg FILE and `extra` (table and JSON), check the file, return its text."""
        path = os.path.join(self.dir.name, name)
        plain = self.ok_json(*args)
        with_svg = self.ok_json(*args, "--svg", path, *extra)
        self.assertEqual(plain, with_svg, "--svg must not change the JSON")
        self.ok_table(*args, "--svg", path, *extra)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        root = ET.fromstring(text.encode("utf-8"))
        self.assertEqual(root.tag, SVG + "svg")
        return text

    def test_fit_draws_the_golden_memory_chart(self):
        self.assertEqual(self.chart(FIT, "fit.svg"), golden("memory.svg"))

    def test_collective_draws_the_sweep_and_comparisons(self):
        text = self.chart(COLLECTIVE, "sweep.svg", ["--compare", "h100-sxm"])
        self.assertEqual(text, golden("collective.svg"))
        text = self.chart(COLLECTIVE + ["--size", "1MiB"], "time.svg", ["--svg-metric", "time"])
        self.assertIn("Time of all-reduce by message size", text)
        # One line: 8 B to 1 MiB is 18 sizes, one marker each.
        root = ET.fromstring(text.encode())
        self.assertEqual(len(root.findall(f".//{SVG}polyline")), 1)
        self.assertEqual(len(root.findall(f".//{SVG}g[@class='series']/{SVG}g/{SVG}circle")), 18)

    def test_power_and_raid_draw_the_golden_charts(self):
        self.assertEqual(self.chart(POWER, "power.svg"), golden("power.svg"))
        self.assertEqual(self.chart(RAID, "raid.svg"), golden("raid.svg"))
        text = self.chart(["power", "--psus", "2", "--psu-watts", "2000W", "--load", "1500W"],
                          "load.svg")
        self.assertIn("DC load", text)

    def test_chart_numbers_match_the_json(self):
        path = os.path.join(self.dir.name, "p.svg")
        out = self.ok_json(*POWER, "--svg", path)
        with open(path, encoding="utf-8") as f:
            root = ET.fromstring(f.read().encode())
        refs = [t.text for t in root.findall(f".//{SVG}g[@class='legend']/{SVG}text")]
        self.assertIn(f"Usable PSU capacity (2 of 4 x 3.2 kW): {out['usable_w'] / 1000:g} kW",
                      refs)
        self.assertEqual(out["usable_w"], 6400)
        self.assertEqual(out["budget"]["dc_w"], 6462)
        values = [t.text for t in root.findall(f".//{SVG}g[@class='values']/{SVG}text")]
        self.assertEqual(values[-1], "6.462 kW")  # the DC total bar

    def test_unwritable_file_is_a_usage_error(self):
        for args in (FIT, COLLECTIVE, POWER, RAID):
            err = self.bad(*args, "--svg", UNWRITABLE, mentions="--svg")
            self.assertIn("cannot write", err)
            self.assertFalse(os.path.exists(UNWRITABLE))

    def test_option_combinations(self):
        path = os.path.join(self.dir.name, "x.svg")
        self.bad("collective", "--svg", path, mentions="--sweep")
        self.bad("collective", "--sweep", "--compare", "h100-sxm",
                 mentions="--compare: applies only to the SVG chart")
        self.bad("collective", "--sweep", "--svg-metric", "time", mentions="--svg")
        self.bad(*COLLECTIVE, "--svg", path, "--compare", "no-such-gpu", mentions="no-such-gpu")
        self.bad(*COLLECTIVE, "--svg", path, "--svg-metric", "speed", mentions="speed")
        self.bad(*COLLECTIVE, "--svg", path, *sum((["--compare", "h100-sxm"] for _ in range(8)), []),
                 mentions="at most 7")
        self.bad(*COLLECTIVE, "--svg", path, "--min-size", "0.5B", mentions="HWFIT_EDOM")
        self.assertFalse(os.path.exists(path), "nothing is written when the chart fails")
        rc, out, err = run("collective", "--help")
        self.assertEqual(rc, 0)
        self.assertIn("--svg-metric", out)


if __name__ == "__main__":
    unittest.main()

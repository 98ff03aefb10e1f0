"""The generated functions: one per command of the library's request layer, with a real
signature and docstring, arguments sent as options, errors naming the keyword argument."""
import inspect
import json
import math
import os
import pickle
import subprocess
import unittest

import hwfit
from hwfit import _request

COMMANDS = hwfit.describe()["commands"]


def options(kind):
    """(command, option) for every option of a kind, over every command."""
    return [(c, o) for c in COMMANDS for o in c["options"] if o["kind"] == kind]


class Functions(unittest.TestCase):
    def test_every_command_is_a_function_with_its_signature(self):
        self.assertIn("units", [c["name"] for c in COMMANDS])
        for c in COMMANDS:
            with self.subTest(c["name"]):
                fn = getattr(hwfit, c["name"].replace("-", "_"))
                self.assertIs(hwfit.COMMANDS[fn.__name__], fn)
                self.assertIn(fn.__name__, hwfit.__all__)
                params = inspect.signature(fn).parameters
                self.assertEqual(sorted(params), sorted(_request.keyword_of(o["name"])
                                                        for o in c["options"]))
                for o in c["options"]:
                    p = params[_request.keyword_of(o["name"])]
                    self.assertEqual(p.kind, p.POSITIONAL_OR_KEYWORD if o["positional"]
                                     else p.KEYWORD_ONLY)
                    if o["kind"] == "flag":
                        self.assertIs(p.default, False)
                    elif o["default"] is None:
                        self.assertIsNone(p.default)
                    else:
                        self.assertEqual(str(p.default), o["default"]) if not isinstance(
                            p.default, float) else self.assertEqual(p.default,
                                                                    float(o["default"]))
                self.assertIn(c["summary"], fn.__doc__)
                for o in c["options"]:
                    self.assertIn(_request.keyword_of(o["name"]) + " : ", fn.__doc__)
                    self.assertIn(o["help"], fn.__doc__)

    def test_units_signature_and_doc(self):
        sig = inspect.signature(hwfit.units)
        self.assertEqual(str(sig), "(value=None, *, unit='bytes')")
        self.assertIn("one of none, bytes, bytes/s", hwfit.units.__doc__)
        self.assertIn("default bytes", hwfit.units.__doc__)
        self.assertIn("'15.36TB'", hwfit.units.__doc__)
        self.assertEqual(hwfit.units.__module__, "hwfit")

    def test_keywords_of_options(self):
        self.assertEqual(_request.keyword_of("micro-batch"), "micro_batch")
        self.assertEqual(_request.keyword_of("class"), "class_")
        cmd = {"options": [{"name": "max-gpus"}, {"name": "gpus"}, {"name": "tp"}]}
        self.assertEqual(_request._pythonic("needs max-gpus, --tp and --gpus; not "
                                            "max-gpus-x, --nope or fp8-e4m3", cmd),
                         "needs max_gpus, tp and gpus; not max-gpus-x, --nope or fp8-e4m3")


class Arguments(unittest.TestCase):
    def test_positional_and_keyword_are_the_same(self):
        a = hwfit.units("15.36TB")
        self.assertEqual(a, hwfit.units(value="15.36TB", unit="bytes"))
        self.assertIsInstance(a, hwfit.Result)
        self.assertEqual(a["value"], 15.36e12)
        self.assertEqual(hwfit.units(4096, unit="watts")["text"], "4.096 kW")
        self.assertEqual(hwfit.units(0.5, unit="seconds")["value"], 0.5)
        self.assertEqual(hwfit.units("15.36TB", unit=None), a)  # None: not given
        import fractions
        self.assertEqual(hwfit.units(fractions.Fraction(1, 2))["value"], 0.5)

    def test_bad_arguments(self):
        with self.assertRaises(TypeError) as cm:
            hwfit.units("1GB", "bytes")
        self.assertIn("takes 1 positional argument but 2 were given", str(cm.exception))
        with self.assertRaises(TypeError) as cm:
            hwfit.units("1GB", valu="1GB")
        self.assertIn("did you mean 'value'", str(cm.exception))
        with self.assertRaises(TypeError):
            hwfit.units("1GB", value="2GB")
        for bad in (True, [1], {"a": 1}, b"1GB"):
            with self.assertRaises(TypeError, msg=repr(bad)) as cm:
                hwfit.units(bad)
            self.assertTrue(str(cm.exception).startswith("value: "))

    def test_failures_name_the_keyword(self):
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.units("12 parsecs")
        e = cm.exception
        self.assertEqual((e.name, e.option), ("HWFIT_EPARSE", "value"))
        self.assertTrue(e.message.startswith("value: cannot read '12 parsecs'"))
        self.assertEqual(str(e), e.message + " (HWFIT_EPARSE)")
        again = pickle.loads(pickle.dumps(e))
        self.assertEqual((again.status, again.name, again.message, again.option, str(again)),
                         (e.status, e.name, e.message, e.option, str(e)))
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.units("1GB", unit="furlongs")
        self.assertEqual((cm.exception.name, cm.exception.option), ("HWFIT_ENOTFOUND", "unit"))
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.units()
        self.assertEqual(cm.exception.message, "value: is required, e.g. 15.36TB")
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.units("x\0y")
        self.assertEqual(cm.exception.option, "value")
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.units("\ud800")
        self.assertEqual(cm.exception.option, "value")

    def test_long_inputs_are_cut_as_the_library_cuts_them(self):
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.units("9" * 5000 + "parsecs")
        rule = cm.exception.message[len("value: "):]
        self.assertEqual(len(rule.encode()), 510)
        self.assertEqual(rule, _request._cut("cannot read '" + "9" * 5000))
        self.assertTrue(rule.endswith("..."))
        self.assertEqual(_request._cut("a\nb"), "a\\x0ab")
        self.assertEqual(_request._cut("x" * 600), "x" * 507 + "...")
        with self.assertRaises(TypeError) as cm:
            hwfit.units([1] * 1000)
        self.assertLessEqual(len(str(cm.exception).encode()), 511)

    def test_whole_numbers_are_checked_before_they_are_written(self):
        for c, o in options("count") + options("tokens"):
            kw = _request.keyword_of(o["name"])
            fn = getattr(hwfit, _request.keyword_of(c["name"]))
            with self.subTest(f"{c['name']} {kw}"):
                for bad in (-1, 2**70, 10**5000):
                    with self.assertRaises(hwfit.HwfitError) as cm:
                        fn(**{kw: bad})
                    # Beyond an open top (no bound but the type's) the rule is the type's,
                    # as the CLI says it; else the option's bounds.
                    if bad > 0 and o["max"] >= 1.8e19:
                        want = ("HWFIT_ERANGE", "is beyond a 64-bit count")
                    else:
                        want = ("HWFIT_EDOM", "must be")
                    self.assertEqual((cm.exception.name, cm.exception.option), (want[0], kw))
                    self.assertIn(want[1], cm.exception.message)
                for bad in (True, 1.5, 4.0):
                    with self.assertRaises(TypeError):
                        fn(**{kw: bad})

    def test_hostile_arguments_raise_hwfit_error_or_type_error_only(self):
        bads = [True, -1, 2**64, 10**5000, 1.5, math.nan, math.inf, "x", "\ud800", "a\0",
                None, [1, "x"], [2**70], [True], object(), b"1", "9" * 100000, ["a\0"]]
        for name, fn in hwfit.COMMANDS.items():
            for p in inspect.signature(fn).parameters:
                for b in bads:
                    try:
                        fn(**{p: b})
                    except (hwfit.HwfitError, TypeError):
                        pass

    def test_flags_take_booleans(self):
        for c, o in options("flag"):
            kw = _request.keyword_of(o["name"])
            with self.subTest(f"{c['name']} {kw}"):
                with self.assertRaises(TypeError):
                    getattr(hwfit, _request.keyword_of(c["name"]))(**{kw: 1})


class Formats(unittest.TestCase):
    def test_run_gives_every_format_as_text(self):
        self.assertEqual(json.loads(hwfit.run("units", "json", "96GB")), hwfit.units("96GB"))
        text = hwfit.run("units", "text", "96GB", unit="bytes")
        self.assertIn("96 GB (89.41 GiB)", text)
        cli = os.environ.get("HWFIT_CLI")
        if cli:
            out = subprocess.run([cli, "units", "96GB"], capture_output=True, text=True)
            self.assertEqual(out.stdout, text)
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.run("units", "svg", "96GB")
        self.assertEqual(cm.exception.name, "HWFIT_EUNSUPPORTED")
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.run("no-such-command", "json")
        self.assertEqual(cm.exception.name, "HWFIT_ENOTFOUND")

    def test_charts_and_reports_follow_the_formats(self):
        for c in COMMANDS:
            if "svg" in c["formats"]:
                name = "chart_memory" if c["name"] == "fit" else "chart_" + c["name"]
                self.assertIn(name, hwfit.COMMANDS)
            if "html" in c["formats"]:
                name = "report_html" if c["name"] == "assess" else c["name"] + "_html"
                self.assertIn(name, hwfit.COMMANDS)
        for name, fn in hwfit.COMMANDS.items():
            self.assertEqual(fn.__name__, name)

    def test_describe(self):
        d = hwfit.describe()
        self.assertEqual(d["version"], hwfit.__version__)
        self.assertEqual(hwfit.describe("units")["options"][0]["name"], "value")
        self.assertTrue(math.isfinite(len(d["commands"])))


if __name__ == "__main__":
    unittest.main()

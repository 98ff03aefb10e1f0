"""Batch calls: bounded inputs, the same types as the single calls, long inputs cut in
messages (issue 21). Each test failed before its fix: memory_batch(context=range(1,
10**12)) built a trillion-element column until memory ran out, fit_batch gave fits as 1/0
where fit gives True/False, and a 100 KB value came back whole in the message."""
import os
import time
import unittest

import hwfit

DATA = os.environ.get("HWFIT_TEST_DATA",
                      os.path.join(os.path.dirname(__file__), "..", "..", "..", "tests", "data"))
CONFIG = os.path.join(DATA, "models", "llama-3.1-8b.config.json")


class TestBatchLimits(unittest.TestCase):
    def test_a_huge_sequence_is_refused_with_the_bound_at_once(self):
        t = time.monotonic()
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.memory_batch(CONFIG, context=range(1, 10**12))
        self.assertLess(time.monotonic() - t, 5.0)
        msg = str(cm.exception)
        self.assertIn("context", msg)
        self.assertIn(f"{hwfit._batch.BATCH_MAX:,}", msg)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.fit_batch(CONFIG, gpu="h100-sxm", batch=range(1, 10**9))

    def test_the_bound_itself_is_taken(self):
        r = hwfit.memory_batch(CONFIG, context=range(1, 1001))
        self.assertEqual(len(r["total_bytes"]), 1000)

    def test_fits_is_bool_as_in_the_single_call(self):
        r = hwfit.fit_batch(CONFIG, gpu="h100-sxm", context=[4096, 10**9])
        single = hwfit.fit(config=CONFIG, gpu="h100-sxm")
        for key in ("fits", "gpu_fits", "host_fits"):
            self.assertIs(type(single[key]), bool, key)
            for v in r[key]:
                self.assertIs(type(v), bool, key)
        self.assertEqual(r["fits"], [True, False])

    def test_long_inputs_are_cut_in_messages(self):
        cases = [lambda: hwfit.memory_batch(CONFIG, context="x" * 100000),
                 lambda: hwfit.memory_batch(CONFIG, kv="y" * 100000),
                 lambda: hwfit.memory_batch(CONFIG, context=["z" * 100000]),
                 lambda: hwfit.fit_batch(CONFIG, gpu="g" * 100000),
                 lambda: hwfit.fit(config=CONFIG, gpu="g" * 100000)]
        for call in cases:
            with self.assertRaises(hwfit.HwfitError) as cm:
                call()
            self.assertLess(len(str(cm.exception)), 700, str(cm.exception)[:80])


if __name__ == "__main__":
    unittest.main()


class TestIntegersBeforeCtypes(unittest.TestCase):
    """Values ctypes would wrap or misread are refused first, naming the argument (issue 21:
    format_count(2**70) gave '0', format_count(-1) 18,446,744,073,709,551,615,
    format_count(1.7) '1', load_config(text=5) read five NUL bytes)."""

    def test_format_count_takes_the_uint64_range_only(self):
        self.assertEqual(hwfit.format_count(0), "0")
        self.assertEqual(hwfit.format_count(2**64 - 1), "18,446,744,073,709,551,615")
        for bad in (2**64, 2**70, -1):
            with self.assertRaisesRegex(ValueError, "count: must be in"):
                hwfit.format_count(bad)
        for bad in (1.7, 2.0, True, "12", None):
            with self.assertRaisesRegex(TypeError, "count: expected an int"):
                hwfit.format_count(bad)

    def test_load_config_text_is_text(self):
        for bad in (5, 5.0, ["{}"]):
            with self.assertRaisesRegex(TypeError, "text: expected str or bytes"):
                hwfit.load_config(text=bad)
        self.assertEqual(hwfit.load_config(text=b'{"model_type": "llama"}').layers,
                         hwfit.load_config(text='{"model_type": "llama"}').layers)

    def test_a_count_beyond_64_bits_says_so_as_the_cli_does(self):
        # was "context: must be at least 1, got 1180591620717411303424"
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.memory(config=CONFIG, context=2**70)
        self.assertIn("context: '1180591620717411303424' is beyond a 64-bit count",
                      str(cm.exception))
        self.assertEqual(cm.exception.name, "HWFIT_ERANGE")

    def test_names_and_values_of_the_wrong_type_raise_type_error(self):
        with self.assertRaisesRegex(TypeError, "name: expected str"):
            hwfit.load_config(text="{}", name=5)  # was: 'int' is not iterable
        with self.assertRaisesRegex(TypeError, "value: expected a number"):
            hwfit.format_quantity("x")  # was float()'s ValueError without the argument

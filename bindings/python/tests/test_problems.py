"""Refused inputs raise HwfitError whose detail names the field and the rule, as the CLI
does (the detail comes from the library's _validate functions)."""
import ctypes
import os
import unittest

import hwfit
from hwfit import _lib

DATA = os.environ.get("HWFIT_TEST_DATA", "")
LLAMA = os.path.join(DATA, "models", "llama-3.1-8b.config.json")


class TestProblems(unittest.TestCase):
    def raises(self, fn, status, words, **kw):
        with self.assertRaises(hwfit.HwfitError) as cm:
            fn(**kw)
        self.assertEqual(cm.exception.name, status)
        self.assertIn(words, cm.exception.detail or "")
        return cm.exception

    @unittest.skipUnless(DATA, "HWFIT_TEST_DATA not set")
    def test_memory_names_the_field(self):
        self.raises(hwfit.memory, "HWFIT_EDOM", "micro_batch must be at least 1",
                    config=LLAMA, mode="full", micro_batch=0)

    def test_power_names_the_redundancy(self):
        e = self.raises(hwfit.power, "HWFIT_EDOM", "leaves no PSU to carry the load",
                        psus=2, psu_watts=3000, load="1kW", redundant=2)
        self.assertIn("redundant", e.detail)
        self.raises(hwfit.power, "HWFIT_EDOM", "pue must be a number in [1, 10]",
                    psus=4, psu_watts=3200, load="6500W", pue=0.5)

    def test_transfer_and_link(self):
        self.raises(hwfit.transfer, "HWFIT_ERANGE", "rate_bytes_per_s",
                    size="1EB", rate=1e-308)
        self.raises(hwfit.link, "HWFIT_EDOM", "payload_bytes must be", name="pcie5x16",
                    payload="1B")

    def test_the_raw_layer_mirrors_hwfit_problem(self):
        p = _lib.hwfit_problem()
        t = _lib.hwfit_thermal_in()
        _lib.hwfit_thermal_init(ctypes.byref(t))
        t.delta_t_c = 0.0
        st = _lib.hwfit_thermal_validate(ctypes.byref(t), ctypes.byref(p))
        self.assertEqual(st, _lib.HWFIT_EDOM)
        self.assertEqual(p.status, st)
        self.assertEqual(p.field, b"delta_t_c")
        self.assertTrue(p.rule.startswith(b"must be"))
        _lib.hwfit_problem_clear(ctypes.byref(p))
        self.assertEqual((p.status, p.field, p.rule, p.index), (0, b"", b"", 0))


if __name__ == "__main__":
    unittest.main()

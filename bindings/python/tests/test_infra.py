"""The Python faces of storage, power and host: seed figures, conversions and errors.

Expected values are derived by hand from docs/formulas.md; the seed server is described in
/work/shared/docs/seed-claims.md.
"""
import math
import unittest

import hwfit
from _needs import needs

# The library computes these with a few floating-point operations: 1e-12 relative covers
# rounding only.
REL = 1e-12


@needs("raid")
class TestRaid(unittest.TestCase):
    def test_seed_raid6(self):
        d = hwfit.raid(level="6", drives=4, drive_size="15.36TB")
        self.assertEqual(d["usable_bytes"], 30.72e12)
        self.assertEqual(d["usable_text"], "30.72 TB (27.94 TiB)")
        self.assertEqual(d["tolerated_failures"], 2)
        self.assertLessEqual(d["usable_bytes"], d["raw_bytes"])

    def test_numbers_and_strings_are_the_same_inputs(self):
        a = hwfit.raid(level="raid5", drives=4, drive_size=15.36e12, ber=1e-15, mttf="2e6h")
        b = hwfit.raid(level="5", drives="4", drive_size="15.36TB", ber="1e-15",
                       mttf=2e6 * 3600)
        self.assertEqual(a, b)
        self.assertAlmostEqual(a["ure_probability"], -math.expm1(-1e-15 * 8 * 46.08e12),
                               delta=REL)

    def test_min_drives(self):
        for level, least in (("6", 4), ("60", 8), ("draid2:8d:1s", 11)):
            with self.assertRaises(hwfit.HwfitError) as cm:
                hwfit.raid(level=level, drives=least - 1, drive_size="1TB")
            self.assertEqual(cm.exception.name, "HWFIT_EDOM")
            self.assertGreater(hwfit.raid(level=level, drives=least, drive_size="1TB")
                               ["usable_bytes"], 0)

    def test_errors(self):
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.raid(level="6", drives=3, drive_size="1TB")
        self.assertEqual(cm.exception.name, "HWFIT_EDOM")
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.raid(level="raid7", drives=4, drive_size="1TB")
        self.assertEqual(cm.exception.name, "HWFIT_ENOTFOUND")
        for bad in (dict(drive_size=-1), dict(drive_size=math.inf), dict(drive_size=None),
                    dict(drive_size="1TB", drives=-1), dict(drive_size="1TB", ber=math.nan)):
            kwargs = dict(level="6", drives=4)
            kwargs.update(bad)
            with self.assertRaises(hwfit.HwfitError, msg=repr(bad)):
                hwfit.raid(**kwargs)
        with self.assertRaises(TypeError):
            hwfit.raid(level="6", drives=True, drive_size="1TB")


@needs("transfer")
class TestTransfer(unittest.TestCase):
    def test_times(self):
        self.assertEqual(hwfit.transfer(size="140GB", rate="14GB/s")["time_s"], 10)
        d = hwfit.transfer(size="768GB", rate="800Gb/s", transport="nvmeof-roce",
                           capacity="200TB")
        self.assertAlmostEqual(d["time_s"], 768 / 95, delta=REL * 10)
        self.assertIs(d["fits"], True)

    def test_errors(self):
        with self.assertRaises(hwfit.HwfitError):
            hwfit.transfer(size="1GB", rate=0)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.transfer(size="1GB", rate="1GB/s", transport="smoke-signals")


@needs("power")
class TestPower(unittest.TestCase):
    def test_seed_psus(self):
        n1 = hwfit.power(psus=4, psu_watts="3200W", redundant="N+1", load="6500W",
                         price="0.18/kWh", pue=1.4)
        n2 = hwfit.power(psus=4, psu_watts="3200W", redundant="N+2", load="6500W")
        self.assertEqual(n1["usable_w"], 9600)
        self.assertEqual(n2["usable_w"], 6400)
        self.assertTrue(n1["meets_headroom"])
        self.assertFalse(n2["meets_load"])
        self.assertEqual(n1["heat_w"], n1["wall_w"])
        self.assertGreater(n1["wall_w"], n1["load_w"])
        self.assertEqual(n1["class"], "titanium")

    def test_class_keyword_spellings(self):
        a = hwfit.power(psus=2, psu_watts=2000, load=1000, class_="gold")
        b = hwfit.power(psus=2, psu_watts=2000, load=1000, **{"class": "gold"})
        self.assertEqual(a, b)
        # Gold 230 V redundant between 20 % (88) and 50 % (92), at 1000 / 4000 = 25 %.
        self.assertAlmostEqual(a["efficiency"], 0.88 + (0.25 - 0.2) / 0.3 * 0.04, delta=REL)

    def test_psu_efficiency_at_half_load(self):
        # 1000 W on 2 x 1000 W: each PSU at 50 %, titanium's 96 % point.
        self.assertEqual(hwfit.power(psus=2, psu_watts=1000, load=1000,
                                     class_="titanium")["efficiency"], 0.96)

    def test_errors(self):
        for kwargs in (dict(redundant=4), dict(load=math.inf), dict(load=None),
                       dict(price="abc"), dict(component="gpu:1:1W")):
            base = dict(psus=4, psu_watts=3200, load="6500W")
            base.update(kwargs)
            with self.assertRaises(hwfit.HwfitError, msg=repr(kwargs)):
                hwfit.power(**base)
        with self.assertRaises(TypeError):
            hwfit.power(psus=4, psu_watts=3200, load="6500W", bogus=1)


@needs("host")
class TestHost(unittest.TestCase):
    def test_seed_host(self):
        d = hwfit.host(sockets=2, channels=12, dimms=24, mts=6400, cores=128, gpus=8,
                       ram="1.5TB", vram="768GB", lanes=128, nvme=4, nics=2)
        self.assertEqual(d["memory_bandwidth_per_socket_bytes_per_s"], 614.4e9)
        self.assertEqual(d["dimms_per_channel"], 1)
        self.assertEqual(d["cores_per_gpu"], 16)
        self.assertEqual(d["pcie_lanes_available"], 128)
        self.assertEqual(d["pcie_lanes_needed"], 176)

    def test_unevaluated_parts_are_none(self):
        d = hwfit.host(sockets=1)
        self.assertIsNone(d["memory_bandwidth_bytes_per_s"])
        self.assertIsNone(d["pcie_lanes_needed"])

    def test_errors(self):
        with self.assertRaises(hwfit.HwfitError):
            hwfit.host(sockets=0)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.host(channels=12, mts=6400)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.host(sockets=2, mts=math.nan, channels=12, dimms=24)


if __name__ == "__main__":
    unittest.main()

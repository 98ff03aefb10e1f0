"""The Python package: loading, version, errors, units."""
import math
import os
import subprocess
import unittest

import hwfit
from hwfit import _lib


class TestVersion(unittest.TestCase):
    def test_version_matches_the_c_library(self):
        self.assertEqual(hwfit.__version__, _lib.hwfit_version_string().decode())
        n = hwfit.version_number()
        self.assertEqual(hwfit.__version__, f"{n // 10000}.{n // 100 % 100}.{n % 100}")

    def test_version_matches_the_cli(self):
        cli = os.environ.get("HWFIT_CLI")
        if not cli:
            self.skipTest("HWFIT_CLI not set (run through ctest)")
        out = subprocess.run([cli, "--version"], capture_output=True, text=True, check=True)
        self.assertEqual(out.stdout.strip(), f"hwfit {hwfit.__version__}")


class TestUnits(unittest.TestCase):
    def test_parse_reference_values(self):
        self.assertEqual(hwfit.parse_quantity("15.36TB"), 15.36e12)
        self.assertEqual(hwfit.parse_quantity("96GiB"), 96 * 2**30)
        self.assertEqual(hwfit.parse_quantity("400Gb/s", "bytes/s"), 50e9)
        self.assertEqual(hwfit.parse_quantity("3.2kW", "watts"), 3200.0)
        self.assertEqual(hwfit.parse_quantity(4096), 4096.0)

    def test_format(self):
        self.assertEqual(hwfit.format_quantity(141.1e9), "141.1 GB (131.4 GiB)")
        self.assertEqual(hwfit.format_quantity(6500, "watts"), "6.5 kW")
        self.assertEqual(hwfit.format_count(70553706496), "70,553,706,496")

    def test_errors_raise_hwfit_error_with_name_and_message(self):
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.parse_quantity("12 parsecs")
        self.assertEqual(cm.exception.name, "HWFIT_EPARSE")
        self.assertIn("12 parsecs", str(cm.exception))
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.parse_quantity("-1GB")
        self.assertEqual(cm.exception.name, "HWFIT_EDOM")
        with self.assertRaises(hwfit.HwfitError):
            hwfit.parse_quantity(None)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.parse_quantity(math.nan)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.format_quantity(math.inf)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.parse_quantity("1GB", unit="furlongs")

    def test_units_function_matches_cli_keys(self):
        d = hwfit.units("15.36TB", unit="bytes")
        self.assertEqual(d["value"], 15.36e12)
        self.assertEqual(d["text"], "15.36 TB (13.97 TiB)")


if __name__ == "__main__":
    unittest.main()


class PackageVersion(unittest.TestCase):
    def test_the_packaged_version_is_the_library_version(self):
        from hwfit import _version
        self.assertEqual(_version.__version__, hwfit.__version__)

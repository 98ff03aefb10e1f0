"""The contract between the faces: every CLI subcommand has a Python function of the same
name, taking the same options as keyword arguments, returning the same keys as --json.

Each later subcommand adds its case to CASES: (subcommand, CLI args, Python kwargs).
"""
import os
import sys
import unittest

from clitest import CliCase, TEST_DATA

sys.path.insert(0, os.path.join(os.environ.get("HWFIT_SOURCE_DIR", ""), "bindings", "python"))
import hwfit  # noqa: E402

CASES = [
    ("units", ["15.36TB", "--unit", "bytes"], dict(value="15.36TB", unit="bytes")),
    ("gpus", [], dict()),
    ("gpus", ["rtx-pro-6000-server"], dict(name="rtx-pro-6000-server")),
    ("link", ["pcie5x16"], dict(name="pcie5x16")),
    ("link", ["2x400g-roce", "--payload", "2KiB"], dict(name="2x400g-roce", payload="2KiB")),
    ("link", ["8x400g-ib"], dict(name="8x400g-ib")),
    ("collective", [], dict()),
    ("collective", ["--op", "alltoall", "--size", "64MiB", "--gpu", "h100-sxm", "--nodes", "2",
                    "--nic", "8x400g-ib", "--cpu", "intel"],
     dict(op="alltoall", size="64MiB", gpu="h100-sxm", nodes=2, nic="8x400g-ib", cpu="intel")),
    ("collective", ["--p2p", "on", "--pcie-switches", "2", "--pcie-lanes", "8", "--sweep",
                    "--size", "1MiB", "--min-size", "1KiB", "--library", "any"],
     dict(p2p="on", pcie_switches=2, pcie_lanes=8, sweep=True, size="1MiB", min_size="1KiB",
          library="any")),
    ("collective", ["--algorithm", "tree", "--protocol", "ll", "--ranks", "4", "--gdr", "off"],
     dict(algorithm="tree", protocol="ll", ranks=4, gdr="off")),
]


def keys(obj, prefix=""):
    """All key paths of a JSON value; list items merge into one path."""
    out = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.add(prefix + k)
            out |= keys(v, prefix + k + ".")
    elif isinstance(obj, list):
        for v in obj:
            out |= keys(v, prefix + "[].")
    return out


class TestParity(CliCase):
    def test_python_returns_the_cli_json_keys_and_values(self):
        for name, args, kwargs in CASES:
            with self.subTest(name):
                cli = self.ok_json(name, *args)
                py = getattr(hwfit, name.replace("-", "_"))(**kwargs)
                self.assertEqual(keys(cli), keys(py))
                self.assertEqual(cli, py)


if __name__ == "__main__":
    unittest.main()

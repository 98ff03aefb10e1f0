"""Helpers for the CLI tests: run the hwfit command and read its output."""
import json
import os
import subprocess
import unittest

CLI = os.environ.get("HWFIT_CLI")
SOURCE_DIR = os.environ.get("HWFIT_SOURCE_DIR", "")
TEST_DATA = os.environ.get("HWFIT_TEST_DATA", "")


def run(*args):
    """Run `hwfit ARGS...`; return (exit status, stdout, stderr)."""
    if not CLI:
        raise unittest.SkipTest("HWFIT_CLI not set (run through ctest)")
    p = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


class CliCase(unittest.TestCase):
    def ok_json(self, *args):
        rc, out, err = run(*args, "--json")
        self.assertEqual(rc, 0, f"hwfit {' '.join(args)}: {err}")
        self.assertEqual(err, "")
        return json.loads(out)

    def ok_table(self, *args):
        rc, out, err = run(*args)
        self.assertEqual(rc, 0, f"hwfit {' '.join(args)}: {err}")
        self.assertTrue(out.strip())
        return out

    def bad(self, *args, mentions=None):
        """Bad input: exit 2, exactly one line on stderr, nothing on stdout."""
        for extra in ((), ("--json",)):
            rc, out, err = run(*args, *extra)
            self.assertEqual(rc, 2, f"hwfit {' '.join(args)} exited {rc}: {out} {err}")
            self.assertEqual(out, "", f"stdout not empty on error: {out!r}")
            self.assertEqual(len(err.strip().splitlines()), 1, f"stderr: {err!r}")
            self.assertTrue(err.startswith("hwfit"), err)
            if mentions:
                self.assertIn(mentions, err)
        return err

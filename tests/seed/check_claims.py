"""Check `seed_server --json`: every claim of the two seed documents once, valid verdicts,
finite numbers, and the figures the reproduction must get right.

Usage: check_claims.py PATH_TO_SEED_SERVER
"""
import json
import math
import os
import re
import subprocess
import sys
import unittest

EXE = None
IDS = [f"DE-{i:02d}" for i in range(1, 37)] + [f"EN-{i:02d}" for i in range(1, 29)]
VERDICTS = {"agrees", "differs", "depends", "external"}
KEYS = {"id", "claim", "claimed", "computed", "unit", "verdict", "explanation"}


def run(*args):
    p = subprocess.run([EXE, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


class TestSeedClaims(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        rc, out, err = run("--json")
        assert rc == 0, err
        cls.doc = json.loads(out)
        cls.by_id = {c["id"]: c for c in cls.doc["claims"]}

    def claim(self, cid):
        return self.by_id[cid]

    def test_every_claim_once(self):
        ids = [c["id"] for c in self.doc["claims"]]
        self.assertEqual(sorted(ids), sorted(IDS))
        self.assertEqual(len(ids), len(set(ids)))

    def test_records_are_well_formed(self):
        for c in self.doc["claims"]:
            with self.subTest(c["id"]):
                self.assertEqual(set(c), KEYS)
                self.assertIn(c["verdict"], VERDICTS)
                for key in ("claimed", "computed"):
                    v = c[key]
                    self.assertTrue(v is None or (isinstance(v, (int, float)) and math.isfinite(v)))
                self.assertTrue(c["claim"] and c["unit"])
                self.assertGreater(len(c["explanation"]), 30)
                if c["verdict"] == "external":
                    self.assertIsNone(c["computed"])
                if c["verdict"] in ("agrees", "differs") and c["claimed"] is not None:
                    self.assertIsNotNone(c["computed"])

    def test_key_figures(self):
        # Llama-3.1-70B: 70,553,706,496 parameters x 2 bytes.
        self.assertEqual(self.claim("DE-02")["computed"], 70553706496 * 2)
        self.assertEqual(self.claim("DE-02")["verdict"], "agrees")
        # 405B int4 with group-128 scales is more than 205 GB; a bare 4 bits is 202.9 GB and
        # within 5 %: the number format decides, and it fits the 8 cards either way.
        self.assertGreater(self.claim("DE-03")["computed"], 205e9)
        for cid in ("DE-03", "EN-02"):
            self.assertEqual(self.claim(cid)["verdict"], "depends", cid)
            self.assertIn("number format decides", self.claim(cid)["explanation"])
        # DE-13 has three figures; "64 GB/s bidirectional" is per direction (as in DE-09), so
        # the claim differs although its 128 GB/s aggregate holds.
        self.assertEqual(self.claim("DE-13")["verdict"], "differs")
        self.assertIn("fails", self.claim("DE-13")["explanation"])
        # RAID 6 of 4 x 15.36 TB = 30.72 TB.
        self.assertEqual(self.claim("DE-29")["computed"], 30.72e12)
        # Each PSU claim names its scheme and is judged under it. N+2 of 4 x 3,200 W leaves
        # 6,400 W, short of 130 % of the ~6.46 kW load (DE-32 differs); N+1 leaves 9,600 W,
        # which meets it (EN-25 agrees). Each explanation shows the other scheme.
        self.assertEqual(self.claim("DE-32")["computed"], 6400)
        self.assertEqual(self.claim("DE-32")["verdict"], "differs")
        self.assertIn("N+1", self.claim("DE-32")["explanation"])
        self.assertEqual(self.claim("EN-25")["computed"], 9600)
        self.assertEqual(self.claim("EN-25")["verdict"], "agrees")
        self.assertIn("N+2", self.claim("EN-25")["explanation"])
        # PCIe 5.0 x16: ~63 GB/s per direction, ~126 GB/s both: "64 GB/s bidirectional" differs.
        self.assertAlmostEqual(self.claim("DE-09")["computed"], 2 * 32e9 * 16 * 128 / 130 / 8,
                               delta=1)
        self.assertEqual(self.claim("DE-09")["verdict"], "differs")
        self.assertEqual(self.claim("EN-08")["verdict"], "differs")
        # 12 channels x 6400 MT/s x 8 B = 614.4 GB/s per socket.
        self.assertAlmostEqual(self.claim("DE-22")["computed"], 614.4e9, delta=1)
        # 24 DIMMs on 2 x 12 channels: one per channel, so EN-16's 2-DPC fear does not apply.
        self.assertEqual(self.claim("DE-23")["computed"], 1)
        self.assertEqual(self.claim("EN-16")["verdict"], "differs")
        # 1.5 TB vs 2 x 768 GB depends on decimal or binary units; as built it is 1,536 GiB.
        self.assertEqual(self.claim("DE-21")["verdict"], "depends")
        self.assertEqual(self.claim("DE-21")["computed"], 1536 * 2**30)
        # The card edition decides the bandwidth claims.
        self.assertEqual(self.claim("DE-04")["verdict"], "depends")
        self.assertEqual(self.claim("EN-03")["verdict"], "depends")
        # EN-04 pairs the Server Edition's FP32 (117 TFLOPS) with the Workstation Edition's
        # sparse FP4 (4,000 TOPS): no single edition has both figures.
        self.assertEqual(self.claim("EN-04")["verdict"], "differs")
        # External facts stay external.
        for cid in ("DE-19", "DE-27", "DE-28", "EN-06", "EN-22"):
            self.assertEqual(self.claim(cid)["verdict"], "external", cid)

    def test_verdicts_are_computed_not_written_down(self):
        # Every agrees/differs/depends verdict must follow from computed figures: the source
        # may pass a fixed verdict to say() only for external facts.
        src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples",
                           "seed_server.c")
        with open(src, encoding="utf-8") as f:
            fixed = re.findall(r"say\(r, (AGREES|DIFFERS|DEPENDS)\b", f.read())
        self.assertEqual(fixed, [])

    def test_table_lists_both_documents(self):
        rc, out, err = run()
        self.assertEqual(rc, 0, err)
        self.assertIn("German document", out)
        self.assertIn("English document", out)
        for cid in IDS:
            self.assertIn(cid, out)

    def test_bad_arguments(self):
        rc, out, err = run("--frob")
        self.assertEqual(rc, 2)
        self.assertEqual(out, "")
        rc, out, err = run("--node", "/nonexistent.json")
        self.assertEqual(rc, 2)
        self.assertIn("/nonexistent.json", err)


if __name__ == "__main__":
    EXE = sys.argv.pop(1)
    unittest.main()

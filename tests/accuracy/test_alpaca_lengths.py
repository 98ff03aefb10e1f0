#!/usr/bin/env python3
"""The Unsloth Alpaca cases' context is the median longest sample that
tests/data/tools/maxbatch_len.py computes from the committed length data
(tests/data/datasets/alpaca-cleaned-lengths.json: the maintainers' cumulative
figure of the data set, per-tokenizer ratios), and the max-of-k formula is
right on a set small enough to enumerate.  docs/accuracy.md, "Alpaca-cleaned
batch lengths"."""
import itertools
import json
import pathlib
import sys
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "data" / "tools"))
import maxbatch_len as M  # noqa: E402

# case -> (tokenizer column, samples drawn)
CASES = {
    "finetune-unsloth-llama3.1-8b-qlora-alpaca-1xt4": ("llama3_unsloth", 480),
    "finetune-unsloth-qwen2.5-7b-qlora-alpaca-1xt4": ("qwen2_unsloth", 480),
    "finetune-unsloth-gemma2-9b-qlora-alpaca-1xt4": ("gemma3_unsloth", 480),
    "finetune-unsloth-llama3.1-8b-qlora-alpaca-cleaned-1xl4": ("llama3_unsloth", 3552),
}


class MaxOfK(unittest.TestCase):
    def test_formula_matches_enumeration(self):
        lengths = [3, 9, 4, 4, 12, 7, 1, 9]
        k = 3
        combos = list(itertools.combinations(lengths, k))
        for L in sorted(set(lengths)):
            want = sum(1 for c in combos if max(c) <= L) / len(combos)
            above = sum(1 for x in lengths if x > L)
            self.assertAlmostEqual(M.cdf_max(len(lengths), above, k), want, places=12)

    def test_exact_quantiles(self):
        lengths = list(range(1, 101))
        q = M.exact_quantiles(lengths, 1)
        self.assertEqual((q[0.1], q[0.5], q[0.9]), (10, 50, 90))
        self.assertEqual(M.exact_quantiles(lengths, 100)[0.1], 100)


class CasesUseTheData(unittest.TestCase):
    def test_context_is_the_computed_median(self):
        d = json.loads((ROOT / "tests/data/datasets/alpaca-cleaned-lengths.json").read_text())
        cols = d["ratio_samples"]["columns"]
        rows = d["ratio_samples"]["rows"]
        for case, (col, k) in CASES.items():
            j = cols.index(col)
            ratios = [r[j] / r[0] for r in rows]
            q = M.survival_quantiles(d["survival"]["above"], ratios, k,
                                     d["survival"]["samples"], trials=400)
            setup = json.loads((ROOT / f"tests/data/measured/{case}.json").read_text())["setup"]
            with self.subTest(case=case):
                self.assertEqual(int(setup["context"]), q[0.5])
                self.assertIn(f"10th-90th percentile {q[0.1]}-{q[0.9]}",
                              json.loads((ROOT / f"tests/data/measured/{case}.json").read_text())["reading"])


if __name__ == "__main__":
    unittest.main()

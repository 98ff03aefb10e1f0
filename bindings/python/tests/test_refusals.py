"""fit, plan and perf: refused inputs raise HwfitError naming the keyword argument and its
rule (hwfit_shard_validate / hwfit_perf_validate), as the CLI names the option."""
import os
import unittest

import hwfit

CONFIG = os.path.join(os.environ.get("HWFIT_TEST_DATA", ""), "models",
                      "llama-3.1-70b.config.json")
CARD = {"config": CONFIG, "gpu": "h100-sxm", "gpus": 8}


@unittest.skipUnless(os.path.exists(CONFIG), "HWFIT_TEST_DATA not set")
class TestRefusals(unittest.TestCase):
    def refused(self, fn, words, status=hwfit.HwfitError, **kw):
        args = dict(CARD)
        args.update(kw)
        with self.assertRaises(hwfit.HwfitError) as c:
            fn(**args)
        self.assertIn(words, str(c.exception))
        return c.exception

    def test_workload_fields_name_their_argument(self):
        for fn in (hwfit.fit, hwfit.plan, hwfit.perf):
            with self.subTest(fn=fn.__name__):
                e = self.refused(fn, "utilization must be in (0, 1]", utilization=1.5)
                self.assertEqual(e.name, "HWFIT_EDOM")
                self.refused(fn, "context must be at least 1", context=0)
                self.refused(fn, "lora_rank must be at least 1", mode="lora", lora_rank=0)
                self.refused(fn, "capacity must be in [1, 2^60] bytes", capacity=0)
                self.refused(fn, "prefill_efficiency must be in (0, 1]",
                             prefill_efficiency=0.0)
                self.refused(fn, "tp_overlap must be in [0, 1]", tp_overlap=2.0)

    def test_invalid_layouts_name_the_degree(self):
        for fn in (hwfit.fit, hwfit.perf):
            with self.subTest(fn=fn.__name__):
                e = self.refused(fn, "tp 3: the 64 attention heads do not divide by 3",
                                 gpus=3, tp=3)
                self.assertEqual(e.name, "HWFIT_ELAYOUT")
                self.refused(fn, "zero: ZeRO stages above 0", zero=1)

    def test_precision_the_card_lacks(self):
        e = self.refused(hwfit.perf, "precision is a format the card has no tensor",
                         precision="fp4")
        self.assertEqual(e.name, "HWFIT_EUNSUPPORTED")


if __name__ == "__main__":
    unittest.main()

"""fit, plan and perf: refused inputs raise HwfitError naming the keyword argument and its
rule (hwfit_shard_validate / hwfit_perf_validate, or the option's bounds), as the CLI
names the option: "utilization: must be ...", never "--utilization"."""
import os
import unittest

import hwfit
from _needs import needs

CONFIG = os.path.join(os.environ.get("HWFIT_TEST_DATA", ""), "models",
                      "llama-3.1-70b.config.json")
CARD = {"config": CONFIG, "gpu": "h100-sxm", "gpus": 8}


@unittest.skipUnless(os.path.exists(CONFIG), "HWFIT_TEST_DATA not set")
@needs("fit", "plan", "perf")
class TestRefusals(unittest.TestCase):
    def refused(self, fn, words, **kw):
        """The refusal names the keyword (the last of kw) before its rule (words)."""
        args = dict(CARD)
        args.update(kw)
        with self.assertRaises(hwfit.HwfitError) as c:
            fn(**args)
        e = c.exception
        self.assertEqual(e.option, list(kw)[-1])
        self.assertTrue(e.message.startswith(e.option + ": "), e.message)
        self.assertIn(words, e.message)
        self.assertNotIn("--", e.message)
        return e

    def test_workload_fields_name_their_argument(self):
        for fn in (hwfit.fit, hwfit.plan, hwfit.perf):
            with self.subTest(fn=fn.__name__):
                e = self.refused(fn, "must be", utilization=1.5)
                self.assertEqual(e.name, "HWFIT_EDOM")
                self.refused(fn, "must be", context=0)
                self.refused(fn, "must be", mode="lora", lora_rank=0)
                self.refused(fn, "must be", capacity=0)
                self.refused(fn, "must be", prefill_efficiency=0.0)
                self.refused(fn, "must be", tp_overlap=2.0)

    def test_invalid_layouts_name_the_degree(self):
        for fn in (hwfit.fit, hwfit.perf):
            with self.subTest(fn=fn.__name__):
                e = self.refused(fn, "the 64 attention heads do not divide by 3",
                                 gpus=3, tp=3)
                self.assertEqual(e.name, "HWFIT_ELAYOUT")
                self.refused(fn, "ZeRO stages above 0", zero=1)

    def test_precision_the_card_lacks(self):
        e = self.refused(hwfit.perf, "has no tensor throughput in fp4",
                         precision="fp4")
        self.assertEqual(e.name, "HWFIT_EUNSUPPORTED")


if __name__ == "__main__":
    unittest.main()

"""Refused inputs raise HwfitError whose message names the keyword argument and the rule,
as the CLI names the option (the rule comes from the library's _validate functions)."""
import os
import unittest

import hwfit
from _needs import needs

DATA = os.environ.get("HWFIT_TEST_DATA", "")
LLAMA = os.path.join(DATA, "models", "llama-3.1-8b.config.json")


class TestProblems(unittest.TestCase):
    def raises(self, fn, status, words, option=None, **kw):
        with self.assertRaises(hwfit.HwfitError) as cm:
            fn(**kw)
        e = cm.exception
        self.assertEqual(e.name, status)
        self.assertIn(words, e.message)
        if option:
            self.assertEqual(e.option, option)
            self.assertTrue(e.message.startswith(option + ": "), e.message)
        self.assertNotIn("--", e.message)  # never the CLI's spelling
        return e

    @unittest.skipUnless(DATA, "HWFIT_TEST_DATA not set")
    @needs("memory")
    def test_memory_names_the_field(self):
        self.raises(hwfit.memory, "HWFIT_EDOM", "must be", "micro_batch",
                    config=LLAMA, mode="full", micro_batch=0)

    @unittest.skipUnless(DATA, "HWFIT_TEST_DATA not set")
    @needs("fit", "serve")
    def test_what_a_mode_does_not_use_is_refused_by_keyword(self):
        # The CLI's words, the keyword's spelling (issue 21: these were ignored, or blamed a
        # default the caller never gave).
        self.raises(hwfit.fit, "HWFIT_EINVAL", "applies only to training", "recompute",
                    model=LLAMA, gpu="h100-sxm", recompute="full")
        self.raises(hwfit.fit, "HWFIT_EINVAL", "applies only to mode lora or qlora",
                    "lora_rank", model=LLAMA, gpu="h100-sxm", mode="full", lora_rank=8)
        # The step time's training options too (they were ignored in inference).
        for kw, value in (("training_efficiency", 0.5), ("moe_imbalance", 2.0),
                          ("schedule", "zb-h1"), ("lowp_scaling", "block")):
            self.raises(hwfit.perf, "HWFIT_EINVAL", "applies only to training", kw,
                        model=LLAMA, gpu="h100-sxm", **{kw: value})
        self.assertEqual(hwfit.perf(model=LLAMA, gpu="h100-sxm", mode="full",
                                    schedule="zb-h1")["schedule"], "zb-h1")
        self.raises(hwfit.fit, "HWFIT_ELAYOUT", "65536 pipeline chunks", "virtual_stages",
                    model=LLAMA, gpu="h100-sxm", mode="full", virtual_stages=65536)
        self.raises(hwfit.serve, "HWFIT_ELAYOUT", "mixture-of-experts", "ep",
                    model=LLAMA, gpu="h100-sxm", ep=2)

    @needs("power")
    def test_power_names_the_redundancy(self):
        self.raises(hwfit.power, "HWFIT_EDOM", "leaves no PSU to carry the load", "redundant",
                    psus=2, psu_watts=3000, load="1kW", redundant=2)
        self.raises(hwfit.power, "HWFIT_EDOM", "must be", "pue",
                    psus=4, psu_watts=3200, load="6500W", pue=0.5)

    @needs("transfer", "link")
    def test_transfer_and_link(self):
        self.raises(hwfit.transfer, "HWFIT_ERANGE", "", size="1EB", rate=1e-308)
        self.raises(hwfit.link, "HWFIT_EDOM", "must be", "payload", name="pcie5x16",
                    payload="1B")


if __name__ == "__main__":
    unittest.main()

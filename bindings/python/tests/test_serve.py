"""hwfit.serve: the seed server's serving question from Python, engine defaults, errors."""
import os
import unittest

import hwfit
from _needs import needs

DATA = os.environ.get("HWFIT_TEST_DATA",
                      os.path.join(os.path.dirname(__file__), "..", "..", "..", "tests", "data"))


def config(name):
    return os.path.join(DATA, "models", name + ".config.json")


@needs("serve")
class TestServe(unittest.TestCase):
    def test_seed_server_by_model_name(self):
        # Issue #17: Llama 3.1 70B with vLLM on the 8-card RTX PRO 6000 server, 1000 + 1000
        # tokens per request, the model named by its Hugging Face id.
        r = hwfit.serve(config="meta-llama/Llama-3.1-70B", engine="vllm",
                        gpu="rtx-pro-6000-server", gpus=8, prompt=1000, output=1000)
        self.assertGreater(r["kv_cache_tokens"], 0)
        self.assertGreater(r["max_concurrency"], 1)
        self.assertGreater(r["output_tokens_per_s"], 0)
        by_path = hwfit.serve(config=config("llama-3.1-70b"), engine="vllm",
                              gpu="rtx-pro-6000-server", gpus=8, prompt=1000, output=1000)
        self.assertEqual(r["kv_cache_tokens"], by_path["kv_cache_tokens"])

    def test_offline_rates_of_vllm_and_sglang(self):
        # SGLang's benchmark_vllm_060 README, offline ShareGPT on one A100 80G: SGLang 0.3.0
        # 4,281.51 and vLLM 0.6.0 4,132.37 output tokens/s (means: 227 + 194 tokens).
        shape = dict(config=config("llama-3.1-8b"), gpu="a100-sxm-80gb", prompt=227, output=194)
        s = hwfit.serve(engine="sglang", **shape)
        self.assertEqual(s["profile"]["decode_efficiency"], 0.4)
        self.assertLess(abs(s["output_tokens_per_s"] / 4281.51 - 1), 0.15)
        v = hwfit.serve(engine="vllm", engine_version="0.6.0", context=4096, **shape)
        self.assertLess(abs(v["output_tokens_per_s"] / 4132.37 - 1), 0.15)
        self.assertEqual(v["concurrency"], 256)

    def test_sglang_fraction_by_tp(self):
        r = hwfit.serve(config=config("llama-3.1-70b"), gpu="h100-sxm", gpus=8, engine="sglang")
        self.assertEqual(r["profile"]["utilization"], 0.81)
        r = hwfit.serve(config=config("llama-3.1-70b"), gpu="h100-sxm", gpus=8, engine="sglang",
                        utilization=0.9)
        self.assertEqual(r["profile"]["utilization"], 0.9)

    def test_errors_name_the_option(self):
        with self.assertRaises(hwfit.HwfitError) as e:
            hwfit.serve(config="no-such-org/No-Such-Model", gpu="h100-sxm")
        self.assertIn("config", str(e.exception))


if __name__ == "__main__":
    unittest.main()

"""`hwfit serve`: KV capacity, concurrency and rates as serving engines allocate them."""
import os
import unittest

from clitest import CliCase, TEST_DATA


def config(name):
    return os.path.join(TEST_DATA, "models", f"{name}.config.json")


class TestServe(CliCase):
    def test_vllm_kv_tokens_as_logged(self):
        # vLLM 0.19 on one H100 at 0.95: "GPU KV cache size: 476,016 tokens".
        r = self.ok_json("serve", "--config", config("llama-3.1-8b"), "--gpu", "h100-sxm",
                         "--utilization", "0.95", "--context", "16K")
        self.assertEqual(r["engine"], "vllm")
        self.assertLess(abs(r["kv_cache_tokens"] / 476016 - 1), 0.02)
        self.assertEqual(r["kv_cache_tokens"], 16 * r["kv_cache_blocks"])
        self.assertEqual(r["profile"]["block_size"], 16)
        self.assertAlmostEqual(r["max_concurrency_model_len"], r["kv_cache_tokens"] / 16384)
        for key in ("ttft_s", "tpot_s", "output_tokens_per_s", "output_tokens_per_s_per_user",
                    "prompt_tokens_per_s", "total_tokens_per_s"):
            self.assertGreater(r[key], 0, key)
        for key in ("ttft_bound", "tpot_bound", "throughput_bound", "concurrency_bound"):
            self.assertIn(r[key], ("compute", "memory-bandwidth", "kv-capacity",
                                   "interconnect", "overhead", "concurrency"), key)

    def test_engines_and_gguf_names(self):
        r = self.ok_json("serve", "--config", config("llama-3-8b"), "--gpu", "rtx-4090",
                         "--engine", "llama.cpp", "--weights", "q4_k_m", "--kv", "f16",
                         "--prompt", "0", "--output", "512")
        self.assertEqual(r["weights"], "q4_k")
        self.assertEqual(r["concurrency"], 1)
        self.assertEqual(r["tpot_bound"], "memory-bandwidth")
        for engine in ("sglang", "tensorrt-llm"):
            r = self.ok_json("serve", "--config", config("llama-3.1-8b"), "--gpu", "h100-sxm",
                             "--engine", engine)
            self.assertGreater(r["kv_cache_tokens"], 0)

    def test_seed_server_by_model_name(self):
        # Issue #17's question: the model by its Hugging Face id (found in the catalog), the
        # answer equal to the config path's, with KV capacity, concurrency and rates printed.
        args = ("--engine", "vllm", "--gpu", "rtx-pro-6000-server", "--gpus", "8",
                "--prompt", "1000", "--output", "1000")
        r = self.ok_json("serve", "--config", "meta-llama/Llama-3.1-70B", *args)
        p = self.ok_json("serve", "--config", config("llama-3.1-70b"), *args)
        self.assertEqual(r["kv_cache_tokens"], p["kv_cache_tokens"])
        self.assertGreater(r["max_concurrency"], 1)
        self.assertGreater(r["output_tokens_per_s"], 0)
        out = self.ok_table("serve", "--config", "meta-llama/Llama-3.1-70B", *args)
        for words in ("KV-cache tokens", "max concurrency", "output tokens/s"):
            self.assertIn(words, out)
        self.bad("serve", "--config", "no-such-org/No-Such-Model", "--gpu", "h100-sxm",
                 mentions="no model 'no-such-org/No-Such-Model'")

    def test_vllm_sglang_offline_rates(self):
        # SGLang's benchmark_vllm_060 README, offline ShareGPT on one A100 80G (means 227 +
        # 194 tokens): SGLang 0.3.0 4,281.51, vLLM 0.6.0 4,132.37 output tokens/s.
        base = ("serve", "--config", config("llama-3.1-8b"), "--gpu", "a100-sxm-80gb",
                "--prompt", "227", "--output", "194")
        s = self.ok_json(*base, "--engine", "sglang")
        self.assertLess(abs(s["output_tokens_per_s"] / 4281.51 - 1), 0.15)
        v = self.ok_json(*base, "--engine", "vllm", "--engine-version", "0.6.0",
                         "--context", "4096")
        self.assertLess(abs(v["output_tokens_per_s"] / 4132.37 - 1), 0.15)
        self.assertEqual(v["profile"]["prefill_efficiency"], 0.4)

    def test_sglang_fraction_by_tp(self):
        # server_args.py: mem_fraction_static 0.88 at TP 1, 0.85 at TP 4, 0.81 at TP 8.
        for gpus, frac in (("1", 0.88), ("4", 0.85), ("8", 0.81)):
            r = self.ok_json("serve", "--config", config("llama-3.1-70b"), "--gpu", "h100-sxm",
                             "--engine", "sglang", "--gpus", gpus)
            self.assertEqual(r["profile"]["utilization"], frac, gpus)

    def test_table(self):
        out = self.ok_table("serve", "--config", config("llama-3.1-8b"), "--gpu", "h100-sxm")
        self.assertIn("KV-cache tokens", out)
        self.assertIn("%", out)

    def test_refusals(self):
        base = ("serve", "--config", config("llama-3.1-8b"), "--gpu", "h100-sxm")
        self.bad(*base, "--context", "1000", mentions="--context: must hold prompt + output")
        self.bad(*base, "--concurrency", "4", "--rate", "2",
                 mentions="--rate: and concurrency exclude each other")
        self.bad(*base, "--engine", "triton", mentions="--engine")
        self.bad(*base, "--weights", "fp7", mentions="unknown number format 'fp7'")


if __name__ == "__main__":
    unittest.main()

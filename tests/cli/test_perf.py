"""hwfit perf: the seed's 17,500 tokens/s claim and PCIe training through the command line,
readable tables, and one-line errors."""
import os
import unittest

from clitest import CliCase, TEST_DATA

SEED = ("--gpu", "rtx-pro-6000-server", "--gpus", "8")


def config(name):
    return os.path.join(TEST_DATA, "models", name + ".config.json")


class TestPerf(CliCase):
    def test_seed_17500_tokens_per_second(self):
        # Assumptions: NVFP4 weights, FP8 KV cache, 1000 prompt + 1000 output tokens.
        r = self.ok_json("perf", "--config", config("llama-3.1-70b"), *SEED, "--weights", "nvfp4",
                         "--kv", "fp8", "--context", "1000", "--output-tokens", "1000",
                         "--batch", "1024", "--target-rate", "17500")
        self.assertEqual(r["precision"], "fp4")
        self.assertEqual(r["layout"]["dp"], 8)
        self.assertEqual(r["bound"], "memory")
        self.assertTrue(r["fits"])
        self.assertGreater(r["target_batch"], 500)
        self.assertTrue(r["target_fits"])
        self.assertGreater(r["decode_tokens_per_s"], 17500)
        self.assertLess(r["offline_tokens_per_s"], 17500)     # prefill counted
        self.assertEqual(r["decode_context"], 1500)
        self.assertAlmostEqual(r["decode_tokens_per_s"] * r["time_per_output_token_s"], 1024,
                               delta=1e-6)
        for k in ("step_time_s", "tokens_per_s", "mfu"):
            self.assertIsNone(r[k])

    def test_batch_raises_rate_until_compute_bound(self):
        args = ("perf", "--config", config("llama-3.1-8b"), "--gpu", "h100-sxm", "--context",
                "128")
        knee = self.ok_json(*args)["compute_bound_batch"]
        self.assertGreater(knee, 1)
        rates = [self.ok_json(*args, "--batch", str(b))["decode_tokens_per_s"]
                 for b in (1, 8, 64, knee - 1)]
        self.assertEqual(rates, sorted(rates))
        self.assertEqual(self.ok_json(*args, "--batch", str(knee))["bound"], "compute")

    def test_training_on_pcie_prefers_data_parallelism(self):
        args = ("perf", "--config", config("llama-3.1-8b"), *SEED, "--mode", "full", "--batch",
                "64", "--recompute", "full")
        tp = self.ok_json(*args, "--tp", "8")
        dp = self.ok_json(*args, "--dp", "8", "--zero", "1")
        self.assertGreater(tp["step_time_s"], 2 * dp["step_time_s"])
        self.assertGreater(tp["tp_comm_s"], tp["step_compute_s"])
        self.assertLess(dp["mfu"], 0.65)
        best = self.ok_json(*args)
        self.assertLessEqual(best["step_time_s"], dp["step_time_s"])
        self.assertIsNone(best["prefill_s"])
        self.assertIsNone(best["kv"])

    def test_moe_expert_overhead(self):
        # Mixtral (8 experts, 32 MoE layers), dp 8 x ep 8: each card holds one expert per
        # layer; 4 micro-batches per replica, so 1 ms per expert costs 4 x 32 x 1 x 1 ms.
        args = ("perf", "--config", config("mixtral-8x7b-instruct-v0.1"), "--gpu", "h100-sxm",
                "--gpus", "8", "--capacity", "1TiB", "--mode", "full", "--context", "4096",
                "--batch", "32", "--micro-batch", "1", "--dp", "8", "--ep", "8", "--zero", "1")
        none = self.ok_json(*args, "--moe-expert-overhead", "0")
        one = self.ok_json(*args, "--moe-expert-overhead", "1ms")
        default = self.ok_json(*args)
        self.assertAlmostEqual(one["step_compute_s"] - none["step_compute_s"], 0.128, places=6)
        self.assertAlmostEqual(default["step_compute_s"] - none["step_compute_s"], 0.0512,
                               places=6)
        self.bad(*args, "--moe-expert-overhead", "-1ms", mentions="--moe-expert-overhead")

    def test_moe_capacity_factor_and_imbalance(self):
        # The same Mixtral layout: a capacity factor (experts padded to it) and a routing
        # imbalance of the same value make the same step, longer than the even, dropless
        # one in both the experts' compute and the all-to-alls; printed with the figures.
        args = ("perf", "--config", config("mixtral-8x7b-instruct-v0.1"), "--gpu", "h100-sxm",
                "--gpus", "8", "--capacity", "1TiB", "--mode", "full", "--context", "4096",
                "--batch", "32", "--micro-batch", "1", "--dp", "8", "--ep", "8", "--zero", "1")
        even = self.ok_json(*args)
        self.assertIsNone(even["moe_capacity_factor"])
        self.assertEqual(even["moe_imbalance"], 1)
        imb = self.ok_json(*args, "--moe-imbalance", "1.5")
        cap = self.ok_json(*args, "--moe-capacity-factor", "1.5", "--moe-imbalance", "3")
        self.assertEqual(imb["moe_imbalance"], 1.5)
        self.assertEqual(cap["moe_capacity_factor"], 1.5)
        self.assertIsNone(cap["moe_imbalance"])  # padded: not read
        self.assertEqual(cap["step_time_s"], imb["step_time_s"])
        # 4 micro-batches x 0.5 x 3 x (2 x 2 x 3 x 4096 x 14336) x 32 x 4096 / (0.7 x 989.5T)
        self.assertAlmostEqual(imb["step_compute_s"] - even["step_compute_s"], 0.8, delta=1e-3)
        self.assertGreater(imb["ep_comm_s"], even["ep_comm_s"])
        text = self.ok_table(*args, "--moe-capacity-factor", "1.25")
        self.assertRegex(text, r"MoE capacity factor +1\.25")
        self.bad(*args, "--moe-imbalance", "0.9", mentions="--moe-imbalance")
        self.bad(*args, "--moe-capacity-factor", "0", mentions="--moe-capacity-factor")

    def test_schedule_zb_h1(self):
        # Llama-3.1-70B, tp 8 x pp 2: ZB-H1's bubble is a third of 1F1B's, the rest the same.
        args = ("perf", "--config", config("llama-3.1-70b"), "--gpu", "h100-sxm", "--gpus", "16",
                "--nic", "8x400g-ib", "--mode", "full", "--context", "4096", "--batch", "64",
                "--tp", "8", "--pp", "2", "--micro-batch", "1", "--recompute", "full")
        a = self.ok_json(*args)
        z = self.ok_json(*args, "--schedule", "zb-h1")
        self.assertEqual(a["schedule"], "1f1b")
        self.assertEqual(z["schedule"], "zb-h1")
        self.assertGreater(a["bubble_s"], 0)
        self.assertAlmostEqual(z["bubble_s"], a["bubble_s"] / 3, delta=1e-12)
        self.assertEqual(z["step_compute_s"], a["step_compute_s"])
        self.assertRegex(self.ok_table(*args, "--schedule", "zb-h1"),
                         r"pipeline schedule +zb-h1")
        self.bad(*args, "--schedule", "zb-h2", mentions="--schedule")

    def test_moe_expert_cast_overhead(self):
        # The same Mixtral layout in fp8: per-tensor scaling adds the cast time per local
        # expert (4 x 32 x 1 x 1 ms); block scaling and bf16 add none.
        args = ("perf", "--config", config("mixtral-8x7b-instruct-v0.1"), "--gpu", "h100-sxm",
                "--gpus", "8", "--capacity", "1TiB", "--mode", "full", "--context", "4096",
                "--batch", "32", "--micro-batch", "1", "--dp", "8", "--ep", "8", "--zero", "1",
                "--precision", "fp8")
        none = self.ok_json(*args, "--moe-expert-cast-overhead", "0")
        one = self.ok_json(*args, "--moe-expert-cast-overhead", "1ms")
        block = self.ok_json(*args, "--moe-expert-cast-overhead", "1ms", "--lowp-scaling", "block")
        self.assertAlmostEqual(one["step_compute_s"] - none["step_compute_s"], 0.128, places=6)
        self.assertAlmostEqual(block["step_compute_s"], none["step_compute_s"], places=9)
        self.bad(*args, "--moe-expert-cast-overhead", "-1ms", mentions="--moe-expert-cast-overhead")
        self.bad(*args, "--lowp-scaling", "tile", mentions="--lowp-scaling")

    def test_power_limit_bandwidth_and_activation_passes(self):
        # Llama 3.1 8B, 8 H100, FSDP: one micro-batch of 2 x 8192 tokens per card.
        args = ("perf", "--config", config("llama-3.1-8b"), "--gpu", "h100-sxm", "--gpus", "8",
                "--mode", "full", "--context", "8192", "--batch", "16", "--micro-batch", "2",
                "--dp", "8", "--zero", "3", "--recompute", "selective")
        none = self.ok_json(*args, "--activation-passes", "0")
        default = self.ok_json(*args)
        # 16,384 tokens x 32 layers x 160 passes x 4,096 x 2 bytes at 0.85 x 3.35 TB/s
        added = 16384 * 32 * 160 * 4096 * 2 / (0.85 * 3.35e12)
        self.assertAlmostEqual(default["step_compute_s"] - none["step_compute_s"], added,
                               places=6)
        hbm2e = self.ok_json(*args, "--memory-bandwidth", "2.4TB/s")
        self.assertAlmostEqual(hbm2e["step_compute_s"] - none["step_compute_s"],
                               added * 3.35 / 2.4, places=6)
        capped = self.ok_json(*args, "--activation-passes", "0", "--power-limit", "500W")
        clock = (500 / 700) ** (1 / 3)
        self.assertAlmostEqual(capped["step_compute_s"] * clock, none["step_compute_s"],
                               places=9)
        linear = self.ok_json(*args, "--activation-passes", "0", "--power-limit", "500W",
                              "--power-exponent", "1")
        self.assertAlmostEqual(linear["step_compute_s"] * 500 / 700, none["step_compute_s"],
                               places=9)
        at_tdp = self.ok_json(*args, "--activation-passes", "0", "--power-limit", "700W")
        self.assertEqual(at_tdp["step_compute_s"], none["step_compute_s"])
        # torchtitan's op-level selective checkpointing recomputes half the weight matmuls:
        # half of the layers' forward (2 x 218 M weights x 32 layers x 16,384 tokens) again.
        half = self.ok_json(*args, "--activation-passes", "0",
                            "--selective-matmul-recompute", "0.5")
        self.assertEqual(half["model_flop_per_step"], none["model_flop_per_step"])
        self.assertGreater(half["step_compute_s"], none["step_compute_s"])
        self.assertGreater(half["hfu"] / half["mfu"], none["hfu"] / none["mfu"] + 0.1)
        self.bad(*args, "--selective-matmul-recompute", "2",
                 mentions="--selective-matmul-recompute")
        self.bad(*args, "--power-limit", "1100W", mentions="--power-limit")
        self.bad(*args, "--power-exponent", "0", mentions="--power-exponent: must be in (0, 1]")
        self.bad(*args, "--activation-passes", "-1", mentions="--activation-passes")
        self.bad(*args, "--memory-bandwidth", "0", mentions="--memory-bandwidth")

    def test_table(self):
        out = self.ok_table("perf", "--config", config("llama-3.1-8b"), "--gpu", "l40s")
        self.assertIn("time per output token", out)

    def test_bad_input(self):
        c = config("llama-3.1-8b")
        self.bad("perf", "--config", c, "--capacity", "80GiB", mentions="--gpu")
        self.bad("perf", "--config", c, *SEED, "--precision", "fp16", mentions="--precision")
        self.bad("perf", "--config", c, *SEED, "--memory-efficiency", "0", mentions="HWFIT_EDOM")
        self.bad("perf", "--config", c, *SEED, "--nic", "fast", mentions="--nic")
        self.bad("perf", "--config", c, "--gpu", "a100-sxm-80gb", "--precision", "fp4",
                 mentions="fp4")
        self.bad("perf", "--config", c, "--gpu", "h100-sxm", "--gpus", "16", "--tp", "16",
                 mentions="--nic")                        # two nodes, no --nic
        self.bad("perf", "--config", c, *SEED, "--gpus-per-node", "0")


if __name__ == "__main__":
    unittest.main()

"""hwfit fit and hwfit plan: the seed server's questions through the command line, the
inverse questions, readable tables, and one-line errors for bad options and layouts."""
import json
import os
import unittest

from clitest import CliCase, TEST_DATA, run

SEED = ("--gpu", "rtx-pro-6000-server", "--gpus", "8")  # 8 x 96 GB, PCIe, no NVLink
GIB = 2**30


def config(name):
    return os.path.join(TEST_DATA, "models", name + ".config.json")


class TestFit(CliCase):
    def no_fit_json(self, *args):
        """A workload that does not fit: the answer on stdout, exit status 1."""
        rc, out, err = run(*args, "--json")
        self.assertEqual(rc, 1, f"hwfit {' '.join(args)}: {err}")
        self.assertEqual(err, "")
        r = json.loads(out)
        self.assertFalse(r["fits"])
        return r

    def test_seed_70b_bf16_serves_128k(self):
        r = self.ok_json("fit", "--config", config("llama-3.1-70b"), *SEED, "--context", "128K")
        self.assertTrue(r["fits"])
        self.assertEqual(r["gpu_capacity_bytes"], 96 * GIB)
        self.assertEqual(r["usable_bytes"], int(96 * GIB * 0.9))
        self.assertEqual(r["layout"]["tp"] * r["layout"]["pp"] * r["layout"]["dp"], 8)
        b = r["breakdown"]
        self.assertEqual(b["total_bytes"], r["per_gpu_bytes"])
        self.assertEqual(sum(b[k] for k in b if k not in ("stage", "total_bytes")),
                         b["total_bytes"])
        self.assertEqual(r["max_context"], 131072)       # the model's limit
        self.assertGreater(r["kv_tokens"], 13 * 131072)
        self.assertGreaterEqual(r["max_batch"], 13)
        self.assertEqual(r["min_gpus"], 3)               # 141 GB + 43 GB KV > 2 x 86.4 GiB
        self.assertEqual(len(r["cards"]), r["layout"]["pp"])

    def test_seed_405b_bf16_no_int4_yes(self):
        r = self.no_fit_json("fit", "--config", config("llama-3.1-405b"), *SEED)
        self.assertEqual(r["fitting_layouts"], 0)
        self.assertGreater(r["per_gpu_bytes"], r["usable_bytes"])
        self.assertGreater(r["min_gpus"], 8)
        r = self.ok_json("fit", "--config", config("llama-3.1-405b"), *SEED, "--weights", "int4")
        self.assertTrue(r["fits"])
        self.assertEqual(r["weights"], "int4")

    def test_seed_70b_qlora_on_one_card(self):
        r = self.ok_json("fit", "--config", config("llama-3.1-70b"), "--gpu",
                         "rtx-pro-6000-server", "--mode", "qlora")
        self.assertTrue(r["fits"])
        self.assertEqual(r["min_gpus"], 1)
        self.assertIsNone(r["kv_tokens"])
        self.assertIsNone(r["kv"])

    def test_seed_70b_full_needs_offload(self):
        args = ("fit", "--config", config("llama-3.1-70b"), *SEED, "--mode", "full",
                "--max-gpus", "8")
        r = self.no_fit_json(*args)
        self.assertEqual(r["fitting_layouts"], 0)
        self.assertIsNone(r["min_gpus"])
        self.no_fit_json(*args, "--zero", "3", "--dp", "8")
        r = self.ok_json(*args, "--zero", "3", "--offload", "optimizer,params",
                         "--host-memory", "1.5TB")
        self.assertTrue(r["fits"])
        # 18 B per parameter on the host, plus the norms each tensor-parallel rank repeats.
        self.assertGreaterEqual(r["host_bytes"], 18 * 70553706496)
        self.assertLess(r["host_bytes"], 18 * 70553706496 * 1.001)
        self.assertEqual(r["layout"]["offload"], "optimizer,params")
        r = self.no_fit_json(*args, "--zero", "3", "--offload", "optimizer,params",
                             "--host-memory", "1.5TB", "--host-buffer-factor", "1.5")
        self.assertTrue(r["gpu_fits"])
        self.assertFalse(r["host_fits"])
        # A host of 0 bytes is checked (it holds no offload); without --host-memory the host
        # is not checked.
        r = self.no_fit_json(*args, "--zero", "3", "--offload", "optimizer,params",
                             "--host-memory", "0B")
        self.assertTrue(r["gpu_fits"])
        self.assertFalse(r["host_fits"])
        r = self.ok_json(*args, "--zero", "3", "--offload", "optimizer,params")
        self.assertTrue(r["host_fits"])
        self.assertGreater(r["host_bytes"], 0)

    def test_given_layout_is_held_and_cards_differ_by_stage(self):
        r = self.ok_json("fit", "--config", config("llama-3.1-405b"), *SEED, "--weights",
                         "int4", "--tp", "2", "--pp", "4")
        self.assertEqual((r["layout"]["tp"], r["layout"]["pp"], r["layout"]["dp"]), (2, 4, 1))
        self.assertEqual([c["layers"] for c in r["cards"]], [31, 32, 32, 31])
        self.assertTrue(r["cards"][0]["embedding"])
        self.assertTrue(r["cards"][3]["head"])
        self.assertEqual(max(c["total_bytes"] for c in r["cards"]), r["per_gpu_bytes"])

    def test_fit_plan_and_perf_agree_on_the_best_layout(self):
        # fit and perf show the layout plan ranks first, with its global batch and the
        # figures it was ranked by.
        # (plan ranks at one global batch, 1,024 sequences by default: fit and perf are
        # given that batch)
        for extra in (("--batch", "1024"), ("--batch", "64")):
            args = ("--config", config("llama-3.1-8b"), "--gpu", "h100-sxm", "--gpus", "8",
                    "--mode", "full", *extra)
            p = self.ok_json("plan", *args[:-2], "--top", "1") if extra[1] == "1024" else \
                self.ok_json("plan", *args, "--top", "1")
            f = self.ok_json("fit", *args)
            q = self.ok_json("perf", *args)
            top = p["layouts"][0]
            self.assertEqual(f["ranked_by"], p["ranked_by"])
            self.assertEqual(q["ranked_by"], p["ranked_by"])
            self.assertEqual(f["layout"], q["layout"])
            self.assertEqual(f["layout"], {k: top[k] for k in f["layout"]})
            self.assertEqual(f["batch"], top["global_batch"])
            self.assertEqual(q["batch"], top["global_batch"])
            self.assertEqual(f["tokens_per_s"], top["tokens_per_s"])
            self.assertEqual(f["step_time_s"], top["step_time_s"])
            self.assertAlmostEqual(q["tokens_per_s"], top["tokens_per_s"],
                                   delta=1e-9 * top["tokens_per_s"])
        # Without the card's throughput there is no rate to show.
        f = self.ok_json("fit", "--config", config("llama-3.1-8b"), "--capacity", "80GiB")
        self.assertEqual(f["ranked_by"], "headroom")
        self.assertIsNone(f["tokens_per_s"])
        self.assertIsNone(f["step_time_s"])

    def test_table(self):
        out = self.ok_table("fit", "--config", config("llama-3.1-8b"), "--capacity", "24GiB")
        self.assertIn("largest card", out)
        self.assertIn("fewest GPUs that fit", out)

    def test_bad_input(self):
        c = config("llama-3.1-70b")
        self.bad("fit", *SEED, mentions="--model")
        self.bad("fit", "--config", c, "--gpus", "8", mentions="--gpu")
        self.bad("fit", "--config", c, "--gpu", "h900", mentions="h900")
        self.bad("fit", "--config", c, *SEED, "--tp", "3",
                 mentions="--tp: tp 3 x pp 1 x dp 1 x cp 1 is not the 8 GPUs")
        self.bad("fit", "--config", c, "--gpu", "rtx-pro-6000-server", "--gpus", "3", "--tp",
                 "3", mentions="heads")
        self.bad("fit", "--config", c, *SEED, "--zero", "4", mentions="--zero")
        self.bad("fit", "--config", c, *SEED, "--zero", "1", mentions="ZeRO")
        self.bad("fit", "--config", c, *SEED, "--offload", "gradients", mentions="--offload")
        self.bad("fit", "--config", c, *SEED, "--weights", "int3", mentions="int3")
        self.bad("fit", "--config", c, *SEED, "--utilization", "1.5", mentions="HWFIT_EDOM")
        self.bad("fit", "--config", c, *SEED, "--gpus", "0", mentions="--gpus")
        self.bad("fit", "--config", c, *SEED, "--mode", "full", "--weights", "int4",
                 mentions="plain")
        self.bad("fit", "--config", c, *SEED, "--sequence-parallel", "--no-sequence-parallel")
        self.bad("fit", "--config", "/nonexistent/config.json", *SEED, mentions="nonexistent")


class TestPlan(CliCase):
    def test_ranked_layouts_all_fit_best_first(self):
        r = self.ok_json("plan", "--config", config("llama-3.1-8b"), *SEED, "--mode", "full",
                         "--top", "20")
        rows = r["layouts"]
        # Every layout at one global batch (about 4M tokens by default): the shortest step
        # first, which is also the highest rate.
        self.assertEqual(r["ranked_by"], "step_time")
        self.assertEqual(len(rows), 20)
        self.assertEqual([x["rank"] for x in rows], list(range(1, 21)))
        rates = [x["tokens_per_s"] for x in rows]
        self.assertEqual(rates, sorted(rates, reverse=True))
        self.assertTrue(all(x["headroom_bytes"] >= 0 for x in rows))
        self.assertTrue(all(0 < x["mfu"] < 1 for x in rows))
        # Over PCIe without NVLink the fastest full fine-tuning of 8B keeps tp small.
        self.assertLessEqual(rows[0]["tp"], 2)
        # tokens/s is the batch's tokens over the step.
        self.assertTrue(all(x["global_batch"] == 1024 for x in rows))
        for x in rows:
            self.assertAlmostEqual(x["tokens_per_s"] * x["step_time_s"],
                                   x["global_batch"] * 4096, delta=1e-6 * x["global_batch"])
        # With a global batch, the shortest step comes first.
        r = self.ok_json("plan", "--config", config("llama-3.1-8b"), *SEED, "--mode", "full",
                         "--batch", "64", "--top", "10")
        self.assertEqual(r["ranked_by"], "step_time")
        times = [x["step_time_s"] for x in r["layouts"]]
        self.assertEqual(times, sorted(times))
        self.assertTrue(all(x["global_batch"] == 64 for x in r["layouts"]))
        # Without a card's throughput: by memory headroom.
        r = self.ok_json("plan", "--config", config("llama-3.1-8b"), "--capacity", "96GiB",
                         "--gpus", "8", "--mode", "full", "--top", "20")
        self.assertEqual(r["ranked_by"], "headroom")
        heads = [x["headroom_bytes"] for x in r["layouts"]]
        self.assertEqual(heads, sorted(heads, reverse=True))
        self.assertIsNone(r["layouts"][0]["step_time_s"])
        self.assertGreater(r["fitting_layouts"], 20)
        self.assertLessEqual(r["fitting_layouts"], r["valid_layouts"])
        for x in rows:
            self.assertEqual(x["tp"] * x["pp"] * x["dp"] * x["cp"], 8)

    def test_nothing_fits_gives_an_empty_list(self):
        r = self.ok_json("plan", "--config", config("llama-3.1-405b"), *SEED)
        self.assertEqual(r["layouts"], [])
        self.assertEqual(r["fitting_layouts"], 0)
        self.assertGreater(r["valid_layouts"], 0)

    def test_table(self):
        out = self.ok_table("plan", "--config", config("llama-3.1-70b"), *SEED, "--top", "3")
        self.assertIn("headroom", out)

    def test_threads_give_what_one_thread_gives(self):
        # The search shared among threads ranks the same layouts with the same figures,
        # and counts the same (docs/performance.md, "Layout search").
        args = ("plan", "--config", config("llama-3.1-70b"), "--gpu", "h100-sxm", "--gpus",
                "64", "--nic", "8x400g-ib", "--mode", "full", "--top", "25")
        one = self.ok_json(*args)
        self.assertEqual(len(one["layouts"]), 25)
        for n in ("2", "3", "64"):
            self.assertEqual(self.ok_json(*args, "--threads", n), one, f"--threads {n}")
        self.bad(*args, "--threads", "0", mentions="--threads")
        self.bad(*args, "--threads", "65", mentions="--threads")
        # Without a card the search ranks by headroom, on one thread: refused, not ignored.
        self.bad("plan", "--config", config("llama-3.1-8b"), "--capacity", "96GiB", "--gpus",
                 "8", "--threads", "2", mentions="--threads")

    def test_bad_input(self):
        self.bad("plan", "--config", config("llama-3.1-8b"), *SEED, "--top", "0",
                 mentions="--top")
        self.bad("plan", "--config", config("llama-3.1-8b"), *SEED, "--tp", "x")


if __name__ == "__main__":
    unittest.main()

"""hwfit.memory_batch and hwfit.fit_batch: one C call for many configurations, with the
same numbers as one call per configuration."""
import os
import unittest

import hwfit
from _needs import needs

DATA = os.environ.get("HWFIT_TEST_DATA",
                      os.path.join(os.path.dirname(__file__), "..", "..", "..", "tests", "data"))
CFG70 = os.path.join(DATA, "models", "llama-3.1-70b.config.json")
CFG_MOE = os.path.join(DATA, "models", "mixtral-8x7b-instruct-v0.1.config.json")

KEYS = ["params", "trainable_params", "adapter_params", "weights_bytes", "kv_bytes",
        "activation_bytes", "gradient_bytes", "optimizer_bytes", "overhead_bytes", "total_bytes"]


class MemoryBatch(unittest.TestCase):
    @needs("memory")
    def test_every_configuration_equals_hwfit_memory(self):
        m = hwfit.load_config(CFG_MOE)
        modes = ["inference", "full", "lora", "qlora"] * 6
        contexts = [512, 4096, "8K", 32768, 1000, 2048] * 4
        batches = list(range(1, 25))
        weights = ["bf16", "fp32", "bf16", "nf4", "int4", "fp8-e4m3"] * 4
        weights = [w if md not in ("full",) else "bf16" for w, md in zip(weights, modes)]
        recompute = ["none", "selective", "full"] * 8
        r = hwfit.memory_batch(m, mode=modes, context=contexts, batch=batches,
                               micro_batch=batches, weights=weights, recompute=recompute,
                               kv="fp8-e4m3", lora_rank=[8, 16, 64] * 8, tensor_parallel=2)
        self.assertEqual(sorted(r), sorted(KEYS))
        for i in range(24):
            # A column holds a value for every row; one call refuses what its mode does not
            # use (training's choices in inference, a LoRA rank outside LoRA and QLoRA).
            used = {}
            if modes[i] != "inference":
                used.update(micro_batch=batches[i], recompute=recompute[i])
            if modes[i] in ("lora", "qlora"):
                used.update(lora_rank=[8, 16, 64][i % 3])
            one = hwfit.memory(config=m, mode=modes[i], context=contexts[i], batch=batches[i],
                               weights=weights[i], kv="fp8-e4m3", tensor_parallel=2, **used)
            for k in KEYS:
                self.assertEqual(r[k][i], one[k], f"configuration {i}, {k}")

    @needs("memory")
    def test_every_choice_of_the_library_is_taken_as_the_single_call_takes_it(self):
        # The batch functions name the memory command's --mode, --optimizer and --recompute
        # choices themselves (they fill the C structs): a choice the library gains must be
        # taken here too, with the same meaning as hwfit.memory's.
        table = {o["name"]: o["choices"] for o in hwfit.describe("memory")["options"]}
        training = dict(config=CFG70, mode="full", context=1024, micro_batch=1)
        for name, kw in (("mode", dict(config=CFG70, context=1024)),
                         ("optimizer", training), ("recompute", training)):
            self.assertTrue(table[name])
            for choice in table[name]:
                args = dict(kw, **{name: choice})
                if name == "mode" and choice != "inference":
                    # recompute not given: both take the mode's default (full for LoRA and
                    # QLoRA, the library's hwfit_memory_recompute_default)
                    args.update(micro_batch=1)
                one = hwfit.memory(**args)
                cols = hwfit.memory_batch(**args)
                for k in KEYS:
                    self.assertEqual(cols[k], [one[k]], f"{name}={choice}, {k}")

    @needs("memory")
    def test_recompute_not_given_is_each_modes_default_as_in_hwfit_memory(self):
        # Llama 3.1 70B LoRA at 1,024 tokens once gave 2.2 GB of activations through
        # hwfit.memory (full recomputation, the LoRA recipes' default) and 24.4 GB through
        # memory_batch (none): the rule now lives in the library and both ask it.
        modes = ["full", "lora", "qlora", "inference"]
        r = hwfit.memory_batch(CFG70, mode=modes, context=1024, micro_batch=1)
        for i, md in enumerate(modes):
            kw = dict(micro_batch=1) if md != "inference" else {}
            one = hwfit.memory(config=CFG70, mode=md, context=1024, **kw)
            for k in KEYS:
                self.assertEqual(r[k][i], one[k], f"{md}, {k}")
        lora = hwfit.memory_batch(CFG70, mode="lora", context=1024, micro_batch=1)
        kept = hwfit.memory_batch(CFG70, mode="lora", context=1024, micro_batch=1,
                                  recompute="none")
        self.assertLess(lora["activation_bytes"][0] * 5, kept["activation_bytes"][0])

    def test_a_longer_context_never_costs_less(self):
        r = hwfit.memory_batch(CFG70, context=list(range(1024, 65537, 1024)))
        kv = r["kv_bytes"]
        self.assertEqual(len(kv), 64)
        self.assertTrue(all(a < b for a, b in zip(kv, kv[1:])))
        # One token of Llama-3.1-70B: 80 layers x 8 KV heads x 128 x 2 (K, V) x 2 bytes.
        self.assertEqual(kv[1] - kv[0], 1024 * 80 * 8 * 128 * 2 * 2)

    @needs("memory")
    def test_scalars_give_one_configuration(self):
        r = hwfit.memory_batch(CFG70, context=8192, batch=4)
        self.assertEqual(r["total_bytes"], [hwfit.memory(config=CFG70, context=8192,
                                                         batch=4)["total_bytes"]])

    def test_failures_raise_with_their_index_or_become_none(self):
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.memory_batch(CFG70, context=[4096, 0, 8192])
        self.assertEqual(cm.exception.name, "HWFIT_EDOM")
        self.assertIn("configuration 1", str(cm.exception))
        r = hwfit.memory_batch(CFG70, context=[4096, 0, 8192], errors="skip")
        self.assertEqual(r["status"], ["HWFIT_OK", "HWFIT_EDOM", "HWFIT_OK"])
        self.assertIsNone(r["total_bytes"][1])
        self.assertEqual(r["total_bytes"][2],
                         hwfit.memory_batch(CFG70, context=8192)["total_bytes"][0])

    def test_bad_arguments_raise_einval(self):
        for kwargs in (dict(context=[1, 2], batch=[1, 2, 3]), dict(context=[-1]),
                       dict(context=[1.5]), dict(mode=["training"]), dict(errors="ignore"),
                       dict(tensor_parallel=[2**32])):
            with self.assertRaises(hwfit.HwfitError, msg=str(kwargs)) as cm:
                hwfit.memory_batch(CFG70, **kwargs)
            self.assertEqual(cm.exception.name, "HWFIT_EINVAL", str(kwargs))
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory_batch(CFG70, weights=["bf16", "no-such-format"])

    def test_keys_select_the_columns_read_back(self):
        r = hwfit.memory_batch(CFG70, context=[4096, 8192], keys=["total_bytes", "kv_bytes"])
        self.assertEqual(sorted(r), ["kv_bytes", "total_bytes"])
        full = hwfit.memory_batch(CFG70, context=[4096, 8192])
        self.assertEqual(r["total_bytes"], full["total_bytes"])
        for bad in (["no_such_key"], "total_bytes"):
            with self.assertRaises(hwfit.HwfitError) as cm:
                hwfit.memory_batch(CFG70, context=[4096], keys=bad)
            self.assertEqual(cm.exception.name, "HWFIT_EINVAL")
        f = hwfit.fit_batch(CFG70, gpu="h100-sxm", gpus=8, tp=8, context=[4096, 8192],
                            keys=["fits"])
        self.assertEqual(f, {"fits": [1, 1]})

    def test_an_empty_sweep_gives_empty_lists(self):
        r = hwfit.memory_batch(CFG70, context=[])
        self.assertEqual(r["total_bytes"], [])


class FitBatch(unittest.TestCase):
    @needs("fit")
    def test_inference_layouts_equal_hwfit_fit(self):
        # With tp, pp, dp, cp and ep given, hwfit.fit evaluates that one inference layout.
        cases = [(8, 8, 1, 8192, 32), (8, 4, 2, 4096, 16), (4, 4, 1, 131072, 1),
                 (8, 2, 4, 32768, 8)]
        r = hwfit.fit_batch(CFG70, gpu="rtx-pro-6000-server", gpus=[c[0] for c in cases],
                            tp=[c[1] for c in cases], pp=[c[2] for c in cases],
                            context=[c[3] for c in cases], batch=[c[4] for c in cases])
        for i, (g, tp, pp, ctx, b) in enumerate(cases):
            one = hwfit.fit(config=CFG70, gpu="rtx-pro-6000-server", gpus=g, tp=tp, pp=pp,
                            dp=g // (tp * pp), cp=1, ep=1, context=ctx, batch=b)
            for k in ("per_gpu_bytes", "usable_bytes", "headroom_bytes", "kv_tokens",
                      "host_bytes"):
                self.assertEqual(r[k][i], one[k], f"case {i}, {k}")
            self.assertEqual(bool(r["fits"][i]), one["fits"], f"case {i}")

    @needs("fit")
    def test_no_flash_attention_equals_hwfit_fit(self):
        # Eager attention stores the s^2 scores: one value or one per configuration, as
        # hwfit.fit(no_flash_attention=True) answers each.
        ctx = [8192, 32768]
        r = hwfit.fit_batch(CFG70, gpu="rtx-pro-6000-server", gpus=8, tp=8, pp=1,
                            context=ctx, no_flash_attention=[True, False])
        for i, (c, f) in enumerate(zip(ctx, (True, False))):
            one = hwfit.fit(config=CFG70, gpu="rtx-pro-6000-server", gpus=8, tp=8, pp=1,
                            dp=1, cp=1, ep=1, context=c, no_flash_attention=f)
            self.assertEqual(r["per_gpu_bytes"][i], one["per_gpu_bytes"], f"case {i}")
        flash = hwfit.fit_batch(CFG70, gpu="rtx-pro-6000-server", gpus=8, tp=8, pp=1,
                                context=8192)
        self.assertGreater(r["per_gpu_bytes"][0], flash["per_gpu_bytes"][0])

    def test_training_and_mixed_modes(self):
        r = hwfit.fit_batch(CFG70, capacity="80GB", gpus=64, tp=8,
                            mode=["full", "inference", "full"], zero=[1, 0, 3],
                            recompute=["full", "none", "selective"], context=4096,
                            batch=[0, 64, 0], sequence_parallel=[True, False, True])
        self.assertEqual(r["fits"][0], 1)  # 70B, TP 8, DP 8, ZeRO-1 on 80 GB
        self.assertLess(r["per_gpu_bytes"][2], r["per_gpu_bytes"][0])  # ZeRO-3 holds less
        self.assertEqual(len(r["total_bytes"]), 3)

    def test_invalid_layouts_raise_or_are_skipped(self):
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.fit_batch(CFG70, gpu="h100-sxm", gpus=8, tp=[8, 3])
        self.assertEqual(cm.exception.name, "HWFIT_ELAYOUT")
        r = hwfit.fit_batch(CFG70, gpu="h100-sxm", gpus=8, tp=[8, 3], errors="skip")
        self.assertEqual(r["status"], ["HWFIT_OK", "HWFIT_ELAYOUT"])
        self.assertIsNone(r["fits"][1])
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.fit_batch(CFG70, gpus=8)
        self.assertEqual(cm.exception.name, "HWFIT_EINVAL")
        with self.assertRaises(hwfit.HwfitError):
            hwfit.fit_batch(CFG70, gpu="no-such-card")


if __name__ == "__main__":
    unittest.main()

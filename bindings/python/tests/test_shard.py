"""hwfit.fit and hwfit.plan: the seed server's questions from Python, and errors."""
import os
import unittest

import hwfit
from _needs import needs

DATA = os.environ.get("HWFIT_TEST_DATA",
                      os.path.join(os.path.dirname(__file__), "..", "..", "..", "tests", "data"))
SEED = dict(gpu="rtx-pro-6000-server", gpus=8)


def config(name):
    return os.path.join(DATA, "models", name + ".config.json")


@needs("fit")
class TestFit(unittest.TestCase):
    def test_seed_questions(self):
        self.assertTrue(hwfit.fit(config=config("llama-3.1-70b"), context="128K", **SEED)["fits"])
        self.assertFalse(hwfit.fit(config=config("llama-3.1-405b"), **SEED)["fits"])
        self.assertTrue(hwfit.fit(config=config("llama-3.1-405b"), weights="int4", **SEED)["fits"])
        r = hwfit.fit(config=config("llama-3.1-70b"), gpu="rtx-pro-6000-server", mode="qlora")
        self.assertTrue(r["fits"])
        self.assertEqual(r["gpus"], 1)

    def test_layout_options_and_model_objects(self):
        m = hwfit.load_config(config("llama-3.1-8b"))
        r = hwfit.fit(config=m, capacity="24GiB", gpus=4, tp=2, pp=2, context=8192)
        self.assertEqual((r["layout"]["tp"], r["layout"]["pp"], r["layout"]["dp"]), (2, 2, 1))
        self.assertEqual(len(r["cards"]), 2)
        self.assertEqual(r["gpu_capacity_bytes"], 24 * 2**30)

    def test_no_flash_attention_is_memory_s(self):
        # Serving Llama 3.1 8B at 8,192 tokens: the 2,048-token prefill chunk's bf16 scores
        # against the context (2,048 x 8,192 x 32 heads x 2 bytes), in fit as in memory;
        # training names the choice among the assumptions; plan takes it too.
        c, scores = config("llama-3.1-8b"), 2048 * 8192 * 32 * 2
        kw = dict(config=c, capacity="80GiB", context=8192, tp=1, pp=1)
        acts = [hwfit.fit(no_flash_attention=f, **kw)["breakdown"]["activation_bytes"]
                for f in (False, True)]
        self.assertEqual(acts[1] - acts[0], scores)
        mem = [hwfit.memory(model=c, context=8192, no_flash_attention=f)["activation_bytes"]
               for f in (False, True)]
        self.assertEqual(mem[1] - mem[0], scores)
        train = dict(config=c, capacity="80GiB", gpus=1, mode="lora", context=2048)
        self.assertFalse(hwfit.fit(no_flash_attention=True, **train)["assumptions"]
                         ["flash_attention"])
        plans = [hwfit.plan(no_flash_attention=f, top=1, **train)["layouts"][0]
                 ["per_gpu_bytes"] for f in (False, True)]
        self.assertGreater(plans[1], plans[0])

    def test_zero_buckets(self):
        # DeepSpeed's ZeRO reduce buffers: reduce_bucket_size elements in bf16, a second one
        # with overlap_comm at stages 1-2, instead of the 25 MiB DDP bucket.
        kw = dict(config=config("llama-3.1-8b"), capacity="1024GiB", gpus=4, dp=4, zero=2,
                  mode="full", comm_buffer="0B")
        buf = lambda **more: hwfit.fit(**kw, **more)["breakdown"]["buffer_bytes"]
        self.assertEqual(buf(), 25 * 2**20)
        self.assertEqual(buf(framework="deepspeed"), 10**9)
        self.assertEqual(buf(framework="deepspeed", reduce_bucket_size="2e8", overlap_comm=True),
                         8 * 10**8)
        self.assertEqual(buf(zero_buckets=True, reduce_bucket_size=200000000), 4 * 10**8)
        # LOMO's update in backward at stage 3: no DeepSpeed optimizer, no ZeRO buffers
        # (not even the bucket in flight counted without them).
        lomo = dict(kw, zero=3, framework="deepspeed", optimizer="sgd-plain",
                    optimizer_in_backward=True, no_master_weights=True, gradient_buffer=False)
        b3 = lambda **more: hwfit.fit(**lomo, **more)["breakdown"]["buffer_bytes"]
        self.assertEqual(b3(zero_buckets=False) - b3(), 25 * 2**20)

    def test_unsloth_fast_model_under_ddp(self):
        # Unsloth's FastModel path on two processes (2025.12.8 on): checkpoints on the card.
        kw = dict(config=config("qwen3-8b"), gpu="t4", mode="qlora", weights="nf4-dq",
                  context=8192, framework="unsloth", framework_release="2026.8.3", zero=0,
                  gpus=2, dp=2, micro_batch=1, batch=2, load_counted=False)
        off, on = hwfit.fit(unsloth_fast_model=True, **kw), hwfit.fit(**kw)
        self.assertFalse(off["assumptions"]["activation_offload"])
        self.assertTrue(on["assumptions"]["activation_offload"])
        self.assertGreater(off["peak_allocated_bytes"], on["peak_allocated_bytes"])

    def test_fsdp_single_unit(self):
        # The whole model one FSDP unit: its gradient twice at the backward's end.
        kw = dict(config=config("llama-3.1-8b"), capacity="1024GiB", gpus=8, dp=8, zero=3,
                  mode="full", recompute="full", no_reshard_after_forward=True)
        a, b = hwfit.fit(**kw), hwfit.fit(fsdp_single_unit=True, **kw)
        self.assertEqual(b["breakdown"]["buffer_bytes"] - a["breakdown"]["buffer_bytes"],
                         4 * 8030261248 - 2 * (128256 * 4096 + 4096))
        self.assertGreater(b["phases"]["backward_bytes"], a["phases"]["backward_bytes"])

    def test_zero3_linear_views_kept(self):
        # DeepSpeed ZeRO-3 without its own linear: the layers stay gathered to backward.
        kw = dict(config=config("llama-3.1-8b"), capacity="1024GiB", gpus=8, dp=8, zero=3,
                  mode="full", recompute="none")
        a, b = hwfit.fit(**kw), hwfit.fit(zero3_linear_views_kept=True, **kw)
        self.assertGreater(b["phases"]["forward_bytes"], a["phases"]["forward_bytes"] + 10 * 2**30)
        self.assertEqual(b["phases"]["step_bytes"], a["phases"]["step_bytes"])

    def test_built_whole(self):
        # The whole model on the card before ZeRO-3 sharded it: its segments stay reserved.
        kw = dict(config=config("llama-3.1-8b"), capacity="1024GiB", gpus=4, dp=4, zero=3,
                  mode="full", recompute="full", fragmentation=0)
        a, b = hwfit.fit(**kw), hwfit.fit(built_whole=True, **kw)
        self.assertEqual(b["peak_reserved_bytes"] - a["peak_reserved_bytes"], 2 * 8030261248)
        self.assertEqual(b["peak_allocated_bytes"], a["peak_allocated_bytes"])
        self.assertTrue(b["assumptions"]["built_whole"])

    def test_ddp_buckets_copy_the_gradient(self):
        # Plain DDP (ZeRO 0): the Reducer's buckets hold a second copy of the trained
        # gradient, whatever the bucket size; gradient_buffer (gradient_as_bucket_view)
        # removes it. Llama 3.1 8B full, bf16 gradients, 4 cards.
        kw = dict(config=config("llama-3.1-8b"), capacity="1024GiB", gpus=4, dp=4, zero=0,
                  mode="full", weights="bf16", gradients="bf16", comm_buffer="0B")
        buf = lambda **more: hwfit.fit(**kw, **more)["breakdown"]["buffer_bytes"]
        self.assertEqual(buf(), 2 * 8030261248)
        self.assertEqual(buf(bucket="100MiB"), 2 * 8030261248)
        self.assertEqual(buf(gradient_buffer=True), 25 * 2**20)

    def test_no_reshard_after_forward_and_unsharded_grads(self):
        # FSDP2 reshard_after_forward=False: the whole model gathered in bf16 beside the
        # head's gradient unit; unsharded fp32 gradients across micro-batches: 4 B a
        # parameter. Llama 3.1 8B full on 4 cards, ZeRO-3.
        p, head = 8030261248, 525336576 + 4096
        kw = dict(config=config("llama-3.1-8b"), capacity="1024GiB", gpus=4, dp=4, zero=3,
                  mode="full", comm_buffer="0B")
        a = hwfit.fit(**kw)
        b = hwfit.fit(no_reshard_after_forward=True, unsharded_grad_bytes=4, **kw)
        self.assertEqual(b["breakdown"]["buffer_bytes"], 2 * p + 2 * head + 25 * 2**20)
        self.assertEqual(b["breakdown"]["gradient_bytes"] - a["breakdown"]["gradient_bytes"],
                         4 * p)
        self.assertTrue(b["assumptions"]["no_reshard_after_forward"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.fit(unsharded_grad_bytes=1.5, **kw)

    def test_grad_covers_frozen(self):
        # FSDP1 use_orig_params=True: a layer's FlatParameter (frozen weights + LoRA
        # adapters) requires grad, so its gradients cover every element: Llama 3.1 8B LoRA on
        # 4 cards, ZeRO-3, bf16: 32 x 218,112,000 x 2 / 4 bytes more; the optimizer's same.
        layers = 32 * 218112000
        kw = dict(config=config("llama-3.1-8b"), capacity="1024GiB", gpus=4, dp=4, zero=3,
                  mode="lora")
        a = hwfit.fit(**kw)
        b = hwfit.fit(grad_covers_frozen=True, **kw)
        grown = b["breakdown"]["gradient_bytes"] - a["breakdown"]["gradient_bytes"]
        self.assertLessEqual(abs(grown - 2 * layers // 4), 1)
        self.assertEqual(b["breakdown"]["optimizer_bytes"], a["breakdown"]["optimizer_bytes"])
        self.assertTrue(b["assumptions"]["grad_covers_frozen"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.fit(**dict(kw, mode="qlora"), grad_covers_frozen=True)

    def test_reduce_held_bytes(self):
        # FSDP2 holds the previous layer's reduce-scatter input: one Llama 3.1 8B layer
        # (218,112,000 parameters) at 4 bytes more in the buffers; the torchtitan profile
        # sets 4.
        kw = dict(config=config("llama-3.1-8b"), capacity="1024GiB", gpus=4, dp=4, zero=3,
                  mode="full")
        a = hwfit.fit(**kw)
        b = hwfit.fit(reduce_held_bytes=4, **kw)
        self.assertEqual(b["breakdown"]["buffer_bytes"] - a["breakdown"]["buffer_bytes"],
                         4 * 218112000)
        self.assertEqual(b["assumptions"]["reduce_held_bytes"], 4)
        self.assertEqual(hwfit.fit(framework="torchtitan", **kw)["assumptions"]
                         ["reduce_held_bytes"], 4)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.fit(reduce_held_bytes=1.5, **kw)

    def test_errors(self):
        c = config("llama-3.1-70b")
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.fit(config=c, tp=3, **SEED)
        self.assertEqual(cm.exception.name, "HWFIT_ELAYOUT")
        with self.assertRaises(hwfit.HwfitError):
            hwfit.fit(config=c, gpus=8)                      # no card
        with self.assertRaises(hwfit.HwfitError):
            hwfit.fit(config=c, gpu="h900", gpus=8)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.fit(config=c, zero=5, **SEED)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.fit(config=c, offload="disk", **SEED)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.fit(config=c, utilization="most", **SEED)
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.fit(config=c, utilization=0, **SEED)
        self.assertEqual(cm.exception.name, "HWFIT_EDOM")


@needs("plan")
class TestPlan(unittest.TestCase):
    def test_ranked_and_fitting(self):
        r = hwfit.plan(config=config("llama-3.1-8b"), mode="lora", top=3, **SEED)
        self.assertEqual(len(r["layouts"]), 3)
        self.assertGreaterEqual(r["layouts"][0]["tokens_per_s"], r["layouts"][2]["tokens_per_s"])
        # one global batch for every layout, about 4M tokens by default
        self.assertEqual(r["ranked_by"], "step_time")
        self.assertEqual((r["global_batch"], r["global_batch_tokens"]), (1024, 4194304))
        self.assertEqual({x["global_batch"] for x in r["layouts"]}, {1024})
        r = hwfit.plan(model=config("llama-3.1-8b"), mode="lora", top=3, batch=64, **SEED)
        self.assertEqual((r["global_batch"], r["global_batch_source"]), (64, "given"))
        self.assertEqual(r["ranked_by"], "step_time")
        self.assertLessEqual(r["layouts"][0]["step_time_s"], r["layouts"][2]["step_time_s"])
        r = hwfit.plan(config=config("llama-3.1-8b"), mode="lora", top=3, capacity="48GiB", gpus=8)
        self.assertGreaterEqual(r["layouts"][0]["headroom_bytes"],
                                r["layouts"][2]["headroom_bytes"])
        self.assertEqual(r["ranked_by"], "headroom")
        self.assertIsNone(r["layouts"][0]["step_time_s"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.plan(config=config("llama-3.1-8b"), top=0, **SEED)
        with self.assertRaises(TypeError):
            hwfit.plan(config=config("llama-3.1-8b"), colour="red", **SEED)

    def test_threads_give_what_one_thread_gives(self):
        kw = dict(config=config("llama-3.1-70b"), gpu="h100-sxm", gpus=64, nic="8x400g-ib",
                  mode="full", top=25)
        one = hwfit.plan(**kw)
        self.assertEqual(len(one["layouts"]), 25)
        self.assertEqual(hwfit.plan(threads=2, **kw), one)
        self.assertEqual(hwfit.plan(threads=5, **kw), one)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.plan(threads=0, **kw)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.plan(threads=65, **kw)


@needs("perf")
class TestPerf(unittest.TestCase):
    def test_seed_claim_and_training(self):
        r = hwfit.perf(config=config("llama-3.1-70b"), weights="nvfp4", kv="fp8", context=1000,
                       output_tokens=1000, batch=912, target_rate=17500, **SEED)
        self.assertEqual(r["layout"]["dp"], 8)          # PCIe TP loses to replicas
        self.assertEqual(r["bound"], "memory")
        self.assertGreaterEqual(r["decode_tokens_per_s"], 17500)
        self.assertTrue(r["target_fits"])
        self.assertLess(r["offline_tokens_per_s"], 17500)
        self.assertIsNone(r["step_time_s"])
        t = hwfit.perf(config=config("llama-3.1-8b"), mode="lora", batch=32, **SEED)
        self.assertGreater(t["mfu"], 0.1)
        self.assertLess(t["mfu"], 0.65)
        self.assertIsNone(t["prefill_s"])
        self.assertAlmostEqual(t["tokens_per_s"] * t["step_time_s"], 32 * 4096, delta=1e-3)

    def test_moe_expert_overhead(self):
        # Mixtral, dp 8 x ep 8: one expert per card and layer, 32 MoE layers, 4 micro-batches.
        kw = dict(config=config("mixtral-8x7b-instruct-v0.1"), gpu="h100-sxm", gpus=8,
                  capacity="1TiB", mode="full", context=4096, batch=32, micro_batch=1, dp=8,
                  ep=8, zero=1)
        none = hwfit.perf(moe_expert_overhead=0, **kw)
        one = hwfit.perf(moe_expert_overhead="1ms", **kw)
        self.assertAlmostEqual(one["step_compute_s"] - none["step_compute_s"], 0.128, places=6)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.perf(moe_expert_overhead=-1, **kw)

    def test_moe_capacity_factor_and_imbalance(self):
        # Mixtral, dp 8 x ep 8: a capacity factor or an imbalance of 1.5 adds half the routed
        # experts' time (0.8 s over 4 micro-batches); padded, the imbalance is not read.
        kw = dict(config=config("mixtral-8x7b-instruct-v0.1"), gpu="h100-sxm", gpus=8,
                  capacity="1TiB", mode="full", context=4096, batch=32, micro_batch=1, dp=8,
                  ep=8, zero=1)
        even = hwfit.perf(**kw)
        imb = hwfit.perf(moe_imbalance=1.5, **kw)
        cap = hwfit.perf(moe_capacity_factor=1.5, moe_imbalance=3, **kw)
        self.assertAlmostEqual(imb["step_compute_s"] - even["step_compute_s"], 0.8, delta=1e-3)
        self.assertEqual(cap["step_time_s"], imb["step_time_s"])
        self.assertEqual(cap["moe_capacity_factor"], 1.5)
        self.assertIsNone(even["moe_capacity_factor"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.perf(moe_imbalance=0.5, **kw)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.perf(moe_capacity_factor=0, **kw)

    def test_schedule_zb_h1(self):
        kw = dict(config=config("llama-3.1-70b"), gpu="h100-sxm", gpus=16, nic="8x400g-ib",
                  mode="full", context=4096, batch=64, tp=8, pp=2, micro_batch=1,
                  recompute="full")
        a = hwfit.perf(**kw)
        z = hwfit.perf(schedule="zb-h1", **kw)
        self.assertAlmostEqual(z["bubble_s"], a["bubble_s"] / 3, delta=1e-12)
        self.assertEqual(z["schedule"], "zb-h1")
        with self.assertRaises(hwfit.HwfitError):
            hwfit.perf(schedule="zb-h2", **kw)

    def test_moe_expert_cast_overhead(self):
        # fp8 with per-tensor scaling: the cast time per local expert; block scaling none.
        kw = dict(config=config("mixtral-8x7b-instruct-v0.1"), gpu="h100-sxm", gpus=8,
                  capacity="1TiB", mode="full", context=4096, batch=32, micro_batch=1, dp=8,
                  ep=8, zero=1, precision="fp8")
        none = hwfit.perf(moe_expert_cast_overhead=0, **kw)
        one = hwfit.perf(moe_expert_cast_overhead="1ms", **kw)
        block = hwfit.perf(moe_expert_cast_overhead="1ms", lowp_scaling="block", **kw)
        self.assertAlmostEqual(one["step_compute_s"] - none["step_compute_s"], 0.128, places=6)
        self.assertAlmostEqual(block["step_compute_s"], none["step_compute_s"], places=9)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.perf(lowp_scaling="tile", **kw)

    def test_power_limit_bandwidth_and_activation_passes(self):
        # Llama 3.1 8B on 8 H100 with FSDP: one micro-batch of 2 x 8192 tokens per card.
        kw = dict(config=config("llama-3.1-8b"), gpu="h100-sxm", gpus=8, mode="full",
                  context=8192, batch=16, micro_batch=2, dp=8, zero=3, recompute="selective")
        none = hwfit.perf(activation_passes=0, **kw)
        added = 16384 * 32 * 160 * 4096 * 2 / (0.85 * 3.35e12)
        self.assertAlmostEqual(hwfit.perf(**kw)["step_compute_s"] - none["step_compute_s"],
                               added, places=6)
        slow = hwfit.perf(memory_bandwidth="2.4TB/s", **kw)
        self.assertAlmostEqual(slow["step_compute_s"] - none["step_compute_s"],
                               added * 3.35 / 2.4, places=6)
        capped = hwfit.perf(activation_passes=0, power_limit="500W", **kw)
        self.assertAlmostEqual(capped["step_compute_s"] * (500 / 700) ** (1 / 3),
                               none["step_compute_s"], places=9)
        linear = hwfit.perf(activation_passes=0, power_limit="500W", power_exponent=1, **kw)
        self.assertAlmostEqual(linear["step_compute_s"] * 500 / 700, none["step_compute_s"],
                               places=9)
        half = hwfit.perf(activation_passes=0, selective_matmul_recompute=0.5, **kw)
        self.assertGreater(half["step_compute_s"], none["step_compute_s"])
        self.assertEqual(half["model_flop_per_step"], none["model_flop_per_step"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.perf(power_limit="1100W", **kw)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.perf(activation_passes=-1, **kw)

    def test_errors(self):
        with self.assertRaises(hwfit.HwfitError):
            hwfit.perf(config=config("llama-3.1-8b"), capacity="80GiB", gpus=1)   # no card
        with self.assertRaises(hwfit.HwfitError):
            hwfit.perf(config=config("llama-3.1-8b"), precision="fp3", **SEED)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.perf(config=config("llama-3.1-8b"), nic="fast", **SEED)
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.perf(config=config("llama-3.1-8b"), memory_efficiency=0, **SEED)
        self.assertEqual(cm.exception.name, "HWFIT_EDOM")


if __name__ == "__main__":
    unittest.main()

"""The Python face of dtypes, model and memory, and of load_config: same numbers as the
C tests."""
import os
import math
import unittest

import hwfit
from hwfit import _lib
from _needs import needs

DATA = os.environ.get("HWFIT_TEST_DATA",
                      os.path.join(os.path.dirname(__file__), "..", "..", "..", "tests", "data"))


def config(name):
    return os.path.join(DATA, "models", name + ".config.json")


@needs("dtypes")
class TestDtypes(unittest.TestCase):

    def test_bits_and_blocks(self):
        rows = {r["name"]: r for r in hwfit.dtypes()["dtypes"]}
        self.assertEqual(len(rows), 27)
        self.assertEqual(rows["int8-ch"]["bits_per_element"], 8)  # the row scales count per matrix
        self.assertEqual(rows["q6_k"]["bits_per_element"], 6.5625)
        self.assertEqual(rows["nf4"]["bits_per_element"], 4.5)
        # q4_k: 256 elements in 144 bytes, so 257 elements take two blocks, 288 bytes.
        self.assertEqual((rows["q4_k"]["block_elements"], rows["q4_k"]["block_bits"]),
                         (256, 144 * 8))


class TestLoadConfig(unittest.TestCase):

    def test_model_from_text_and_path(self):
        m = hwfit.load_config(text='{"model_type": "llama"}')
        self.assertIsInstance(m, _lib.hwfit_model)
        self.assertEqual(m.layers, 32)
        # LlamaConfig() is Llama-2-7B.
        self.assertEqual(hwfit.memory_batch(m, keys=["params"])["params"], [6738415616])
        p = hwfit.load_config(config("llama-3.1-8b"))
        self.assertEqual(hwfit.memory_batch(p, keys=["params"])["params"], [8030261248])

    def test_bad_config_raises_with_position(self):
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.load_config(text='{"model_type": "llama",\n "hidden_size": "4096"}',
                              name="x.json")
        self.assertEqual(cm.exception.name, "HWFIT_EPARSE")
        self.assertIn("2:", str(cm.exception))
        self.assertIn("hidden_size", str(cm.exception))
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.load_config(config("nope"))
        self.assertEqual(cm.exception.name, "HWFIT_EIO")
        with self.assertRaises(hwfit.HwfitError):
            hwfit.load_config(42)


@needs("model")
class TestModel(unittest.TestCase):

    def test_gpt_oss_llama4_glm_counts(self):
        m = hwfit.load_config(config("gpt-oss-120b"))
        self.assertEqual((m.attention_sinks, m.router_bias, m.chunked_attention), (1, 1, 0))
        self.assertEqual(hwfit.memory_batch(m, keys=["params"])["params"], [116829156672])
        s = hwfit.load_config(config("llama-4-scout-17b-16e"))
        self.assertEqual((s.chunked_attention, s.sliding_window), (1, 8192))
        r = hwfit.model(config=config("llama-4-scout-17b-16e"), context=131072)
        self.assertEqual((r["params_total"], r["params_active"]), (107769861120, 17172894720))
        self.assertEqual(r["kv_bytes"], 4096 * (12 * 131072 + 36 * 8192))
        self.assertTrue(r["chunked_attention"])
        g = hwfit.model(config=config("glm-4.5"))
        self.assertEqual((g["params_total"], g["params_mtp"]), (352797829024, 3988069792))

    def test_config_files_give_published_counts(self):
        self.assertEqual(hwfit.model(config=config("llama-3.1-8b"))["params_total"], 8030261248)
        p = hwfit.model(config=config("mixtral-8x7b-instruct-v0.1"))
        self.assertEqual((p["params_total"], p["params_active"]), (46702792704, 12879925248))
        self.assertEqual(p["params_experts"], 32 * 8 * 176160768)
        self.assertEqual(hwfit.model(config=config("qwen2.5-0.5b"))["params_total"], 494032768)

    def test_model_keys(self):
        r = hwfit.model(config=config("deepseek-v3"), weights="fp8", context="128K")
        for k in ("params_total", "params_active", "weights_bytes", "kv_bytes_per_token",
                  "kv_bytes"):
            self.assertIsInstance(r[k], int)
        self.assertEqual(r["kv_bytes"], 131072 * 70272)

    def test_model_names_the_checkpoints_fused_projections(self):
        # Phi-3's qkv_proj and gate_up_proj are one module each; Llama's are not.
        r = hwfit.model(config=config("phi-3-mini-4k-instruct"))
        self.assertEqual((r["fused_qkv"], r["fused_gate_up"]), (True, True))
        r = hwfit.model(config=config("llama-3.1-8b"))
        self.assertEqual((r["fused_qkv"], r["fused_gate_up"]), (False, False))

    def test_a_loaded_model_is_read_from_its_path(self):
        m = hwfit.load_config(config("llama-3.1-8b"))
        self.assertEqual(hwfit.model(config=m, context="8K"),
                         hwfit.model(config=config("llama-3.1-8b"), context=8192))
        with self.assertRaises(TypeError):
            hwfit.model(config=hwfit.load_config(text='{"model_type": "llama"}'))


@needs("memory")
class TestMemory(unittest.TestCase):

    def test_full_and_qlora(self):
        r = hwfit.memory(config=config("llama-3.1-8b"), mode="full")
        self.assertEqual(r["weights_bytes"] + r["gradient_bytes"] + r["optimizer_bytes"],
                         16 * 8030261248)
        q = hwfit.memory(config=config("llama-3.1-8b"), mode="qlora")
        self.assertEqual(q["weights"], "nf4-dq")
        self.assertEqual(q["adapter_params"], 41943040)  # r (in + out), every matrix, r 16
        lora = hwfit.memory(config=config("llama-3.1-8b"), mode="lora", lora_rank=16,
                            lora_targets="all")
        self.assertEqual(lora["adapter_params"], 41943040)

    def test_qlora_inputs_kept(self):
        # bitsandbytes QLoRA keeps every 4-bit linear's input: with LoRA on q and v, the
        # MLP input and the down projection's input per token and layer (h + F, 2 bytes).
        kw = dict(model=config("llama-3.1-8b"), mode="qlora", lora_targets="q,v",
                  context=1000, no_dropout=True, recompute="none")
        off = hwfit.memory(**kw)
        on = hwfit.memory(qlora_inputs_kept=True, **kw)
        self.assertTrue(on["assumptions"]["qlora_inputs_kept"])
        self.assertFalse(off["assumptions"]["qlora_inputs_kept"])
        self.assertEqual(on["activation_bytes"] - off["activation_bytes"],
                         32 * 1000 * 2 * (4096 + 14336))
        self.assertTrue(hwfit.memory(framework="litgpt", **kw)["assumptions"]["qlora_inputs_kept"])

    def test_untied_head(self):
        # Llama 3.2 1B ties its head; LitGPT holds it as a linear of its own (bf16 for LoRA).
        kw = dict(config=config("llama-3.2-1b"), mode="lora")
        tied = hwfit.memory(**kw)
        untied = hwfit.memory(untied_head=True, **kw)
        self.assertEqual(untied["weights_bytes"] - tied["weights_bytes"], 128256 * 2048 * 2)
        self.assertTrue(untied["assumptions"]["untied_head"])
        self.assertTrue(hwfit.memory(framework="litgpt", **kw)["assumptions"]["untied_head"])

    def test_softcap_eager(self):
        # Gemma 2's soft-capped attention runs eager under LitGPT: 8 bytes a score kept,
        # and one layer's backward 6 more (the bf16 softmax's fp32 gradients).
        kw = dict(config=config("gemma-2-9b-it"), mode="lora", context=512, recompute="none")
        flash = hwfit.memory(**kw)
        eager = hwfit.memory(softcap_eager=True, **kw)
        self.assertEqual(eager["activation_bytes"] - flash["activation_bytes"],
                         42 * 16 * 512 * 512 * 8 + 16 * 512 * 512 * 6)
        self.assertTrue(hwfit.memory(framework="litgpt", **kw)["assumptions"]["softcap_eager"])

    def test_eager_kernels_and_the_previous_graph(self):
        # Llama 3.1 8B QLoRA at 512 tokens: an eager SwiGLU keeps act(gate) (F per token and
        # layer), the largest nf4 matrix dequantized to bf16, the last logits held.
        kw = dict(config=config("llama-3.1-8b"), mode="qlora", weights="nf4", context=512,
                  recompute="none")
        base = hwfit.memory(**kw)
        act = hwfit.memory(gated_act_kept=True, **kw)
        self.assertEqual(act["activation_bytes"] - base["activation_bytes"],
                         32 * 512 * 14336 * 2)
        kv = hwfit.memory(kv_repeated=True, **kw)
        self.assertEqual(kv["activation_bytes"] - base["activation_bytes"],
                         32 * 512 * 24 * 128 * 2 * 2)
        self.assertEqual(hwfit.memory(dequant_transient=True, **kw)["dequant_bytes"],
                         14336 * 4096 * 2)
        self.assertEqual(hwfit.memory(previous_graph=True, **kw)["carried_bytes"],
                         512 * 128256 * 2)
        lit = hwfit.memory(framework="litgpt", **kw)
        self.assertTrue(lit["assumptions"]["previous_graph"])
        self.assertEqual(hwfit.memory(framework="litgpt", previous_graph=False,
                                      **kw)["carried_bytes"], 0)
        full = dict(config=config("llama-3.1-8b"), mode="full", context=1024)
        self.assertEqual(hwfit.memory(loss="fp32-copy", **full)["loss_bytes"]
                         - hwfit.memory(loss="fp32", **full)["loss_bytes"], 1024 * 128256 * 2)
        # loss="inplace": the bf16 logits whole and an fp32 log-sum-exp and loss a token
        self.assertEqual(hwfit.memory(loss="inplace", **full)["loss_bytes"],
                         1024 * (4 * 4096 + 2 * 128256 + 8))
        # loss="inplace-cast" (Unsloth before Cut Cross Entropy, logits cast to the
        # config's format): a second copy of the bf16 logits in the forward phase only
        plain = hwfit.memory(loss="inplace", **full)
        cast = hwfit.memory(loss="inplace-cast", **full)
        self.assertEqual(cast["loss_bytes"], plain["loss_bytes"])
        self.assertEqual(cast["forward_bytes"] - plain["forward_bytes"], 1024 * 128256 * 2)
        self.assertEqual(cast["backward_bytes"], plain["backward_bytes"])
        # kept_modules (Unsloth's Dynamic 4-bit skip list): single layers' matrices in bf16
        q = dict(config=config("llama-3.1-8b"), mode="qlora", weights="nf4-dq")
        one = hwfit.memory(kept_modules="model.layers.1.mlp.down_proj", **q)
        self.assertEqual(one["assumptions"]["kept_layers"], "down 1")
        self.assertGreater(one["weights_bytes"], hwfit.memory(**q)["weights_bytes"])
        for bad, words in (("model.layers.32.mlp", "0 to 31"), ("model.layers.*.mlp", "single")):
            with self.assertRaises(hwfit.HwfitError) as cm:
                hwfit.memory(kept_modules=bad, **q)
            self.assertIn(words, str(cm.exception))
        # loss="chunked-inplace" (ms-swift under sequence parallelism): the bf16 logits
        # whole, a bf16 loss a token and one chunk's work, 3 x 2 bytes x loss_chunk rows x V
        a = hwfit.memory(loss="chunked-inplace", **full)
        self.assertEqual(a["loss_bytes"],
                         1024 * (4 * 4096 + 2 * 128256 + 2) + 3 * 2 * 1024 * 128256)
        b = hwfit.memory(loss="chunked-inplace", loss_chunk=256, **full)
        self.assertEqual(a["loss_bytes"] - b["loss_bytes"], 3 * 2 * (1024 - 256) * 128256)
        self.assertEqual(b["assumptions"]["loss_chunk_tokens"], 256)
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.memory(loss_chunk=256, **full)
        self.assertIn("loss_chunk", str(cm.exception))

    def test_load_quantize_bytes_makes_a_load_phase(self):
        # Llama 3.1 8B QLoRA: quantizing the MLP's 14336 x 4096 at load with 68 bytes an
        # element (torchao 0.1's to_nf4) beside the weights sets the peak.
        kw = dict(config=config("llama-3.1-8b"), mode="qlora", weights="nf4", context=512,
                  recompute="full")
        base = hwfit.memory(**kw)
        self.assertEqual(base["load_bytes"], base["weights_bytes"])
        q = hwfit.memory(load_quantize_bytes=68, **kw)
        self.assertEqual(q["load_bytes"] - q["weights_bytes"], 14336 * 4096 * 68)
        self.assertEqual(q["peak_phase"], "load")
        self.assertEqual(hwfit.memory(framework="torchtune", **kw)["assumptions"]
                         ["load_quantize_bytes"], 4)

    def test_lora_full_modules_train_copies_beside_the_originals(self):
        # PEFT modules_to_save on Llama 3.1 8B LoRA: the embedding and the head
        # (128,256 x 4,096 = 525,336,576 each) gain trained bf16 copies: 2 bytes of weights,
        # 2 of gradient, 4 of master and 8 of moments a parameter; ZeRO-2 over 4 cards
        # partitions the gradients and states.
        vh = 128256 * 4096
        kw = dict(config=config("llama-3.1-8b"), mode="lora", context=1024)
        base = hwfit.memory(**kw)
        full = hwfit.memory(lora_full_modules="embed,head", **kw)
        self.assertEqual(full["weights_bytes"] - base["weights_bytes"], 4 * vh)
        self.assertEqual(full["gradient_bytes"] - base["gradient_bytes"], 4 * vh)
        self.assertEqual(full["optimizer_bytes"] - base["optimizer_bytes"], 24 * vh)
        f = hwfit.fit(lora_full_modules="embed,head", gpus=4, dp=4, zero=2,
                      capacity="1024GiB", **kw)
        self.assertEqual(f["breakdown"]["optimizer_bytes"], full["trainable_params"] * 12 // 4)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(config=config("llama-3.1-8b"), mode="full", lora_full_modules="head")
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(lora_full_modules="embed,vision", **kw)

    def test_trained_fp32_holds_the_trained_parameters_in_fp32(self):
        # Llama 3.1 8B full (8,030,261,248 parameters): fp32 weights and no master copy;
        # the llama-factory profile adds fp32 gradients and moments, 16 bytes a parameter;
        # trained_fp32=False is its pure_bf16.
        p = 8030261248
        kw = dict(config=config("llama-3.1-8b"), mode="full", context=1024)
        up = hwfit.memory(trained_fp32=True, **kw)
        self.assertEqual(up["weights_bytes"], 4 * p)
        self.assertEqual(up["optimizer_bytes"], 8 * p)
        lf = hwfit.memory(framework="llama-factory", **kw)
        self.assertTrue(lf["assumptions"]["trained_fp32"])
        self.assertEqual(lf["weights_bytes"] + lf["gradient_bytes"] + lf["optimizer_bytes"],
                         16 * p)
        pure = hwfit.memory(framework="llama-factory", trained_fp32=False, gradients="bf16",
                            optimizer_states="bf16", **kw)
        self.assertFalse(pure["assumptions"]["trained_fp32"])
        self.assertEqual(pure["weights_bytes"] + pure["gradient_bytes"]
                         + pure["optimizer_bytes"], 8 * p)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(config=config("llama-3.1-8b"), trained_fp32=True)

    def test_activations_format(self):
        # An fp32 model trained without autocast (the Trainer with fp16 and bf16 off) stores
        # fp32 activations: more than the bf16 default, at most twice; the answer names it.
        kw = dict(config=config("llama-2-7b"), mode="lora", weights="fp32",
                  lora_dtype="fp32", context=1024, micro_batch=4, recompute="none")
        bf = hwfit.memory(**kw)
        fp = hwfit.memory(activations="fp32", **kw)
        self.assertEqual(bf["assumptions"]["activations"], "bf16")
        self.assertEqual(fp["assumptions"]["activations"], "fp32")
        self.assertGreater(fp["activation_bytes"], bf["activation_bytes"])
        self.assertLessEqual(fp["activation_bytes"], 2 * bf["activation_bytes"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(config=config("llama-2-7b"), activations="fp32")
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(activations="nf4", **kw)

    def test_experts_indexed_keeps_expert_copies(self):
        # transformers' GptOssExperts training loop: gpt-oss-20b full at 4,096 tokens, full
        # recomputation: the rebuilt layer keeps copies of its 32 experts' matrices and
        # one whole-parameter gradient transient (bf16).
        kw = dict(config=config("gpt-oss-20b"), mode="full", weights="bf16", context=4096,
                  recompute="full")
        a = hwfit.memory(**kw)
        b = hwfit.memory(experts_indexed=True, **kw)
        self.assertEqual(b["activation_bytes"] - a["activation_bytes"],
                         32 * 5 * 2880 * 2880 * 2)
        self.assertTrue(b["assumptions"]["experts_indexed"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(config=config("llama-3.1-8b"), mode="full", experts_indexed=True)

    def test_torchtitan_holds_fp32_shards(self):
        # torchtitan's fp32 model under FSDP2: fp32 parameter and gradient shards (bf16 only
        # for a unit's all-gather) and fp32 moments, 4 + 4 + 8 bytes over 4 cards.
        q = 8030261248 // 4
        f = hwfit.fit(config=config("llama-3.1-8b"), mode="full", context=1024, gpus=4, dp=4,
                      zero=3, capacity="1024GiB", framework="torchtitan")
        self.assertEqual([f["breakdown"][k] for k in ("weights_bytes", "gradient_bytes",
                                                      "optimizer_bytes")], [4 * q, 4 * q, 8 * q])
        self.assertTrue(f["assumptions"]["fsdp_flat_upcast"])

    def test_trained_fp32_under_zero_becomes_master_weights(self):
        # DeepSpeed casts the module back to 16 bits and keeps fp32 master partitions
        # (runtime/engine.py _configure_distributed_model): Llama 3.1 8B full on 8 cards,
        # ZeRO-1: bf16 weights and gradients, master + moments 12 bytes over 8; ZeRO 0: fp32.
        p = 8030261248
        kw = dict(config=config("llama-3.1-8b"), mode="full", gpus=8, dp=8,
                  recompute="full", context=1024, framework="llama-factory",
                  capacity="1024GiB")
        b1 = hwfit.fit(zero=1, **kw)["breakdown"]
        self.assertEqual((b1["weights_bytes"], b1["gradient_bytes"], b1["optimizer_bytes"]),
                         (2 * p, 2 * p, 12 * p // 8))
        b0 = hwfit.fit(zero=0, **kw)["breakdown"]
        self.assertEqual((b0["weights_bytes"], b0["gradient_bytes"], b0["optimizer_bytes"]),
                         (4 * p, 4 * p, 8 * p))

    def test_root_unsharded_keeps_the_tables_gathered(self):
        # Llama 3.1 8B full, ZeRO-3 on 8 cards: the tables (2 x 525,336,576 + 4096) stay
        # gathered and their gradients held, beside two live layers (218,112,000 each).
        kw = dict(config=config("llama-3.1-8b"), mode="full", gpus=8, dp=8, zero=3,
                  recompute="full", capacity="80GiB")
        tables, layer, head = 2 * 525336576 + 4096, 218112000, 525336576 + 4096
        base = hwfit.fit(**kw)["breakdown"]["buffer_bytes"]
        root = hwfit.fit(root_unsharded=True, **kw)
        self.assertEqual(root["breakdown"]["buffer_bytes"] - base,
                         (2 * tables + 4 * layer + 2 * tables) - (2 * head + 2 * layer + 2 * head))
        self.assertTrue(hwfit.fit(framework="fsdp", **kw)["assumptions"]["root_unsharded"])

    def test_offload_after_load_counts_the_shards_while_loading(self):
        # Llama 3.1 8B full, ZeRO-3 on 8 cards, optimizer and parameters offloaded: loading
        # holds the card's shards (2 x 8,030,261,248 / 8 bytes) and the head whole.
        kw = dict(config=config("llama-3.1-8b"), mode="full", gpus=8, dp=8, zero=3,
                  recompute="full", capacity="80GiB", context=128, offload="optimizer,params")
        load = 2 * 8030261248 // 8 + 2 * (525336576 + 4096)
        off = hwfit.fit(**kw)
        on = hwfit.fit(offload_after_load=True, **kw)
        self.assertNotEqual(off["peak_phase"], "load")
        self.assertEqual(on["peak_phase"], "load")
        self.assertEqual(on["peak_allocated_bytes"], load)
        self.assertTrue(on["assumptions"]["offload_after_load"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(config=config("llama-3.1-8b"), offload_after_load=True)

    def test_fsdp_flat_upcast_holds_fp32_shards(self):
        # Llama 3.1 8B full, ZeRO-3 on 8 cards, trained_fp32 with fp32 gradients: FSDP's fp32
        # flat shards (4 + 4 bytes / 8 of parameter and gradient, 8 of moments) instead of
        # DeepSpeed's 16-bit partition with fp32 master partitions (2 + 2, 4 + 8).
        q = 8030261248 // 8
        kw = dict(config=config("llama-3.1-8b"), mode="full", gpus=8, dp=8, zero=3,
                  recompute="full", capacity="1024GiB", context=128, trained_fp32=True,
                  gradients="fp32")
        ds = hwfit.fit(**kw)["breakdown"]
        out = hwfit.fit(fsdp_flat_upcast=True, **kw)
        fs = out["breakdown"]
        self.assertEqual((ds["weights_bytes"], ds["gradient_bytes"], ds["optimizer_bytes"]),
                         (2 * q, 2 * q, 12 * q))
        self.assertEqual((fs["weights_bytes"], fs["gradient_bytes"], fs["optimizer_bytes"]),
                         (4 * q, 4 * q, 8 * q))
        self.assertTrue(out["assumptions"]["fsdp_flat_upcast"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(config=config("llama-3.1-8b"), fsdp_flat_upcast=True)

    def test_offload_keeps_grads_leaves_the_gradient_buffer(self):
        # Llama 3.1 8B full, ZeRO-1 on 4 cards, fp32 gradients, optimizer offloaded: with
        # Megatron-Core's CPU optimizer the 4-byte gradient buffer stays on the card.
        kw = dict(config=config("llama-3.1-8b"), mode="full", gpus=4, dp=4, zero=1,
                  capacity="1024GiB", gradients="fp32", offload="optimizer")
        self.assertEqual(hwfit.fit(**kw)["breakdown"]["gradient_bytes"], 0)
        out = hwfit.fit(offload_keeps_grads=True, **kw)
        self.assertEqual(out["breakdown"]["gradient_bytes"], 8030261248 * 4)
        self.assertTrue(out["assumptions"]["offload_keeps_grads"])
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.fit(offload_keeps_grads=True, **dict(kw, offload="none"))
        self.assertIn("offload", str(cm.exception))

    def test_outputs_kept_are_the_previous_micro_batch_s_in_forward_and_step(self):
        # Llama 3.1 8B LoRA, 1,024 tokens, loss upcast: the fp32 logits the loop keeps
        # (1,024 x 128,256 x 4) stay through the step and meet the next forward's loss when
        # the model computes it (transformers given labels); with --loss-after-call (torchtune's
        # 2024 loop) they meet this call's logits instead, which the upcast loss's bytes
        # already exceed: the forward does not move.
        logits = 1024 * 128256 * 4
        kw = dict(config=config("llama-3.1-8b"), mode="lora", context=1024,
                  recompute="full", loss="upcast")
        base = hwfit.memory(**kw)
        kept = hwfit.memory(outputs_kept=True, **kw)
        after = hwfit.memory(outputs_kept=True, loss_after_call=True, **kw)
        self.assertEqual(kept["step_bytes"] - base["step_bytes"], logits)
        self.assertEqual(kept["forward_bytes"] - base["forward_bytes"], logits)
        self.assertEqual(after["forward_bytes"], base["forward_bytes"])
        self.assertEqual(after["step_bytes"], kept["step_bytes"])
        self.assertTrue(after["assumptions"]["loss_after_call"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(loss_after_call=True, **kw)

    def test_probs_kept_stay_through_forward_backward_and_step(self):
        # A metric's softmax of the fp32 logits kept by the loop (prime-rl's SFT trainer at
        # f037882c8): Llama 3.1 8B LoRA, 1,024 tokens, loss upcast-freed, 1,024 x 128,256
        # x 4 bytes more in every phase; refused beside outputs_kept.
        probs = 1024 * 128256 * 4
        kw = dict(config=config("llama-3.1-8b"), mode="lora", context=1024,
                  recompute="full", loss="upcast-freed")
        base = hwfit.memory(**kw)
        kept = hwfit.memory(probs_kept=True, **kw)
        self.assertTrue(kept["assumptions"]["probs_kept"])
        self.assertFalse(base["assumptions"]["probs_kept"])
        for phase in ("forward_bytes", "backward_bytes", "step_bytes"):
            self.assertEqual(kept[phase] - base[phase], probs)
        self.assertEqual(kept["outputs_bytes"], probs)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(probs_kept=True, outputs_kept=True, **kw)

    def test_loss_parallel_adds_four_bytes_a_logit_under_tp(self):
        # DTensor loss parallelism (the torchtitan profile sets it): Llama 3.1 8B full,
        # 1,024 tokens, tensor parallel 2, loss upcast-freed: 1,024 x 128,256 x 4 / 2 bytes
        # more in the loss; nothing without TP.
        kw = dict(config=config("llama-3.1-8b"), mode="full", context=1024,
                  recompute="full", loss="upcast-freed")
        base = hwfit.memory(tensor_parallel=2, **kw)
        lp = hwfit.memory(tensor_parallel=2, loss_parallel=True, **kw)
        self.assertTrue(lp["assumptions"]["loss_parallel"])
        self.assertEqual(lp["activation_bytes"] - base["activation_bytes"],
                         1024 * 128256 * 4 // 2)
        self.assertEqual(hwfit.memory(loss_parallel=True, **kw)["activation_bytes"],
                         hwfit.memory(**kw)["activation_bytes"])
        titan = hwfit.memory(tensor_parallel=2, framework="torchtitan", **kw)
        self.assertTrue(titan["assumptions"]["loss_parallel"])

    def test_whole_masks_stay_through_every_phase(self):
        # Unsloth 2024.7-2024.8 on Gemma 2 without flash-attn softcapping keeps the
        # sliding-window and the global causal mask, each 8192^2 values in the activations'
        # format: 2 x 8192^2 x 2 bytes more in every training phase.
        masks = 2 * 8192 * 8192 * 2
        kw = dict(config=config("gemma-2-2b-it"), mode="qlora", weights="nf4-dq",
                  context=640, micro_batch=2, batch=2, recompute="full")
        base = hwfit.memory(**kw)
        kept = hwfit.memory(whole_masks=2, **kw)
        self.assertEqual(kept["assumptions"]["whole_masks"], 2)
        self.assertEqual(kept["masks_bytes"], masks)
        self.assertEqual(base["masks_bytes"], 0)
        for phase in ("forward_bytes", "backward_bytes", "step_bytes"):
            self.assertEqual(kept[phase] - base[phase], masks)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(whole_masks=17, **kw)

    def test_sink_mask_builds_in_the_forward(self):
        # gpt-oss-20b QLoRA at 32,768 tokens: a flex attention with sinks building its block
        # mask from the dense mask (Unsloth 2025.8.10-2025.9.8) holds 10 x s x (s + 1)
        # bytes in the forward beside the fixed part; backward untouched.
        kw = dict(config=config("gpt-oss-20b"), mode="qlora", weights="nf4-dq",
                  context=32768, recompute="full", loss="fused")
        base = hwfit.memory(**kw)
        built = hwfit.memory(sink_mask_bytes=10, **kw)
        self.assertEqual(built["assumptions"]["sink_mask_bytes"], 10)
        self.assertGreaterEqual(built["forward_bytes"],
                                base["weights_bytes"] + 10 * 32768 * 32769)
        self.assertEqual(built["backward_bytes"], base["backward_bytes"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(sink_mask_bytes=65, **kw)
        # A model without attention sinks would ignore it: refused.
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(config=config("llama-3.1-8b"), mode="lora", context=1024,
                         recompute="full", sink_mask_bytes=10)

    def test_logits_freed_ends_the_loss_before_the_rebuild(self):
        # Llama 3.1 8B LoRA, 1,024 tokens, full recomputation, the chunked loss compiled:
        # with the logits dropped before backward (torchtune's `del logits`) the loss's
        # tensors are gone before the last layer is rebuilt, and the backward peak falls.
        kw = dict(config=config("llama-3.1-8b"), mode="lora", context=1024,
                  recompute="full", loss="chunked", compile=True)
        base = hwfit.memory(**kw)
        freed = hwfit.memory(logits_freed=True, **kw)
        self.assertLess(freed["backward_bytes"], base["backward_bytes"])
        self.assertEqual(freed["forward_bytes"], base["forward_bytes"])
        self.assertTrue(freed["assumptions"]["logits_freed"])
        tt = dict(config=config("llama-3.1-8b"), mode="lora", gpus=1, capacity="80GiB",
                  context=1024, framework="torchtune")
        self.assertTrue(hwfit.fit(**tt)["assumptions"]["logits_freed"])
        self.assertFalse(hwfit.fit(logits_freed=False, **tt)["assumptions"]["logits_freed"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(config=config("llama-3.1-8b"), logits_freed=True)
        with self.assertRaises(hwfit.HwfitError) as cm:  # nothing rebuilt: refused
            hwfit.memory(config=config("llama-3.1-8b"), mode="lora", recompute="none",
                         logits_freed=True)
        self.assertIn("recomputation", str(cm.exception))
        with self.assertRaises(hwfit.HwfitError) as cm:  # the op policy's alone
            hwfit.memory(config=config("llama-3.1-8b"), mode="full", recompute="selective",
                         flex_attention=True)
        self.assertIn("op policy", str(cm.exception))

    def test_outputs_fp32_holds_the_logits_fp32_copy_in_forward(self):
        # Llama 3.1 8B LoRA, 1,024 tokens, loss inplace: Accelerate's fp32 copy of the
        # returned bf16 logits, 4 x 1,024 x 128,256 bytes at the forward's end only.
        kw = dict(config=config("llama-3.1-8b"), mode="lora", context=1024, loss="inplace")
        plain = hwfit.memory(**kw)
        on = hwfit.memory(outputs_fp32=True, **kw)
        self.assertEqual(on["forward_bytes"] - plain["forward_bytes"],
                         4 * 1024 * 128256)
        self.assertEqual(on["backward_bytes"], plain["backward_bytes"])
        self.assertTrue(on["assumptions"]["outputs_fp32"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(config=config("llama-3.1-8b"), mode="lora", loss="fused",
                         outputs_fp32=True)

    def test_head_cast_kept_and_trl_chunked_loss(self):
        # Llama 3.1 8B QLoRA with an fp32 head under bf16 autocast: head_cast_kept keeps the
        # head's 2-byte cast (128,256 x 4,096) to its backward; loss "trl-chunked" (TRL's
        # chunked_nll) holds that copy and one 256-row chunk's work, 14 bytes a logit.
        vh, v = 128256 * 4096, 128256
        kw = dict(config=config("llama-3.1-8b"), mode="qlora", weights="nf4",
                  unquantized="fp32", context=1024, recompute="full")
        plain = hwfit.memory(loss="upcast-freed", **kw)
        on = hwfit.memory(loss="upcast-freed", head_cast_kept=True, **kw)
        self.assertEqual(on["forward_bytes"] - plain["forward_bytes"], 2 * vh)
        self.assertEqual(on["head_cast_bytes"], 2 * vh)
        self.assertTrue(on["assumptions"]["head_cast_kept"])
        fused = hwfit.memory(loss="fused", **kw)
        trl = hwfit.memory(loss="trl-chunked", **kw)
        self.assertEqual(trl["forward_bytes"] - fused["forward_bytes"], 2 * vh + 14 * 256 * v)
        self.assertEqual(hwfit.memory(framework="trl", **kw)["assumptions"]["loss"],
                         "trl-chunked")
        self.assertNotEqual(hwfit.memory(framework="trl", framework_release="1.6",
                                         **kw)["assumptions"]["loss"], "trl-chunked")
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.memory(framework="trl", framework_release="2025.11", **kw)
        self.assertIn("MAJOR.MINOR", str(cm.exception))

    def test_attention_math_backend(self):
        # attention="math": SDPA's math backend keeps fp32 scores and fp32 q/k/v copies:
        # Llama 3.1 8B LoRA at 1,024 tokens, one rebuilt layer's 104,857,600 bytes and the
        # score gradients' 134,217,728 more than eager.
        kw = dict(config=config("llama-3.1-8b"), mode="lora", context=1024, recompute="full",
                  no_dropout=True)
        self.assertEqual(hwfit.memory(attention="math", **kw)["activation_bytes"] -
                         hwfit.memory(attention="eager", **kw)["activation_bytes"],
                         104857600 + 134217728)

    def test_sdpa_math_on_a_card_without_flash(self):
        # card_no_flash (read from gpu= in fit): SDPA on a GQA model with one row a
        # micro-batch runs the math backend.
        kw = dict(config=config("llama-3.2-3b"), mode="qlora", context=2048, attention="sdpa")
        self.assertEqual(hwfit.memory(**kw)["assumptions"]["attention_runs"], "flash")
        self.assertEqual(hwfit.memory(card_no_flash=True, **kw)["assumptions"]
                         ["attention_runs"], "math")
        self.assertEqual(hwfit.memory(card_no_flash=True, sdpa_gqa_math=False, **kw)
                         ["assumptions"]["attention_runs"], "flash")
        t4 = hwfit.fit(gpu="t4", capacity="80GiB", gpus=1, micro_batch=1, batch=8,
                       recompute="full", framework="hf-trainer+peft", **{
                           k: v for k, v in kw.items() if k != "attention"})
        self.assertTrue(t4["assumptions"]["card_no_flash"])
        self.assertEqual(t4["assumptions"]["attention_runs"], "math")

    def test_dora_weight_norm_temporaries(self):
        # dora=True: PEFT's weight-norm temporaries of the largest adapted linear (Llama 3.1
        # 8B down_proj in bf16) in the dequantized-weight slot.
        kw = dict(config=config("llama-3.1-8b"), mode="lora", lora_targets="all", context=256,
                  recompute="full")
        self.assertEqual(hwfit.memory(**kw)["dequant_bytes"], 0)
        self.assertEqual(hwfit.memory(dora=True, **kw)["dequant_bytes"],
                         14336 * 14336 * 2 + 14336 * 4096 * 6)

    def test_expandable_segments_drop_the_stranded_logits_block(self):
        # Llama 3.1 8B LoRA, 1,024 tokens, loss upcast-freed: the caching allocator keeps
        # the freed bf16 logits (2 x 1,024 x 128,256 bytes) reserved beside the loss's fp32
        # gradients; expandable segments strand nothing. Allocated does not move.
        kw = dict(config=config("llama-3.1-8b"), mode="lora", context=1024,
                  loss="upcast-freed", fragmentation=0)
        on = hwfit.memory(**kw)
        off = hwfit.memory(expandable_segments=True, **kw)
        self.assertEqual(on["stranded_bytes"], 2 * 1024 * 128256)
        self.assertEqual(off["stranded_bytes"], 0)
        self.assertEqual(on["peak_allocated_bytes"], off["peak_allocated_bytes"])
        self.assertTrue(off["assumptions"]["expandable_segments"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(config=config("llama-3.1-8b"), expandable_segments=True)

    def test_residual_fp32_stores_fp32_checkpoints(self):
        # Llama 3.1 8B QLoRA, 1,024 tokens, full recomputation: PEFT's k-bit preparation
        # makes the stream between layers fp32, 32 checkpoints of 1,024 x 4,096 x 2 more
        # bytes; a bf16 base (LoRA) is not prepared: unchanged. Refused for inference.
        kw = dict(config=config("llama-3.1-8b"), context=1024, recompute="full")
        off = hwfit.memory(mode="qlora", **kw)
        on = hwfit.memory(mode="qlora", residual_fp32=True, **kw)
        self.assertEqual(on["forward_bytes"] - off["forward_bytes"], 32 * 1024 * 4096 * 2)
        self.assertTrue(on["assumptions"]["residual_fp32"])
        # a bf16 base is not prepared: given, it is refused rather than ignored
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.memory(mode="lora", residual_fp32=True, **kw)
        self.assertIn("quantized base", str(cm.exception))
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(config=config("llama-3.1-8b"), residual_fp32=True)

    def test_fp8_inputs_saved_keep_the_linears_inputs_in_one_byte(self):
        # Llama 3.1 8B full, 1,024 tokens, selective recomputation: Transformer Engine's
        # FP8 linears keep the QKV and MLP inputs, o_proj's and the down projection's
        # inputs in 1 byte: 2h + F + a d_v = 26,624 bytes a token and layer less.
        kw = dict(config=config("llama-3.1-8b"), mode="full", context=1024,
                  recompute="selective")
        off = hwfit.memory(**kw)
        on = hwfit.memory(fp8_inputs_saved=True, **kw)
        self.assertEqual(off["activation_bytes"] - on["activation_bytes"],
                         32 * 1024 * (2 * 4096 + 14336 + 4096))
        self.assertTrue(on["assumptions"]["fp8_inputs_saved"])
        self.assertFalse(off["assumptions"]["fp8_inputs_saved"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(config=config("llama-3.1-8b"), mode="lora", fp8_inputs_saved=True)

    def test_fp8_inputs_saved_is_the_megatron_profiles_fp8_choice(self):
        # fit with framework megatron sets it computing in FP8 only (the profile's FP8 row,
        # hwfit_memory_profile_apply_fp8), and the C call sets it in mode full only.
        kw = dict(config=config("llama-3.1-8b"), capacity="80GiB", gpus=8, tp=8, pp=1,
                  mode="full", context=1024, micro_batch=1, recompute="selective",
                  framework="megatron")
        f8 = hwfit.fit(precision="fp8", **kw)
        bf = hwfit.fit(precision="bf16", **kw)
        self.assertTrue(f8["assumptions"]["fp8_inputs_saved"])
        self.assertFalse(bf["assumptions"]["fp8_inputs_saved"])
        self.assertLess(f8["peak_allocated_bytes"], bf["peak_allocated_bytes"])
        import ctypes
        m = _lib.hwfit_memory_in()
        _lib.hwfit_memory_init(ctypes.byref(m))
        m.mode = 1  # HWFIT_MEMORY_FULL
        sets = ctypes.c_uint64(0)
        self.assertEqual(_lib.hwfit_memory_profile_apply_fp8(b"megatron", 8, ctypes.byref(m),
                                                             ctypes.byref(sets)), 0)
        self.assertEqual(m.fp8_inputs_saved, 1)
        self.assertEqual(sets.value, 0x20000000000)
        m2 = _lib.hwfit_memory_in()
        _lib.hwfit_memory_init(ctypes.byref(m2))
        self.assertEqual(_lib.hwfit_memory_profile_apply_fp8(b"torchtune", 8, ctypes.byref(m2),
                                                             ctypes.byref(sets)), 0)
        self.assertEqual((m2.fp8_inputs_saved, sets.value), (0, 0))

    def test_attention_sdpa_is_eager_for_a_sink_model(self):
        # attention="sdpa" (the hf-trainer profiles' choice): gpt-oss's sinks rule SDPA out
        # in transformers, so it runs eager; Llama runs fused. The ctypes resolver agrees.
        kw = dict(mode="lora", context=2048, recompute="full", framework="hf-trainer+peft")
        oss = hwfit.memory(config=config("gpt-oss-20b"), **kw)
        self.assertEqual(oss["assumptions"]["attention"], "sdpa")
        self.assertFalse(oss["assumptions"]["flash_attention"])
        self.assertEqual(oss["activation_bytes"],
                         hwfit.memory(config=config("gpt-oss-20b"), no_flash_attention=True,
                                      **kw)["activation_bytes"])
        flash = hwfit.memory(config=config("gpt-oss-20b"), attention="flash", **kw)
        self.assertLess(flash["activation_bytes"], oss["activation_bytes"])
        self.assertTrue(hwfit.memory(config=config("llama-3.1-8b"), **kw)["assumptions"]
                        ["flash_attention"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(config=config("gpt-oss-20b"), attention="flash",
                         no_flash_attention=True, **kw)
        import ctypes
        m = _lib.hwfit_model()
        self.assertEqual(_lib.hwfit_hf_config_load(config("gpt-oss-20b").encode(),
                                                   ctypes.byref(m), None), 0)
        mi = _lib.hwfit_memory_in()
        _lib.hwfit_memory_init(ctypes.byref(mi))
        mi.flash_attention = _lib.HWFIT_ATTENTION_SDPA
        self.assertEqual(_lib.hwfit_memory_attention_flash(ctypes.byref(m), ctypes.byref(mi)), 0)
        m.attention_sinks = 0
        self.assertEqual(_lib.hwfit_memory_attention_flash(ctypes.byref(m), ctypes.byref(mi)), 1)

    def test_record_lengths_reserve_segments(self):
        # record_lengths="1000,3000": the earlier records' segments in the reserved peak only;
        # the ctypes parser and struct mirror agree with the request.
        kw = dict(config=config("llama-3.1-8b"), mode="lora", context=4096, recompute="full",
                  framework="hf-trainer+peft")
        base = hwfit.memory(**kw)
        rec = hwfit.memory(record_lengths="1000,3000", **kw)
        self.assertGreater(rec["records_bytes"], 0)
        self.assertEqual(rec["peak_allocated_bytes"], base["peak_allocated_bytes"])
        self.assertEqual(rec["peak_reserved_bytes"] - base["peak_reserved_bytes"],
                         rec["records_bytes"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(record_lengths="3000,1000", **kw)
        # a comma list also as a sequence (any text option)
        self.assertEqual(hwfit.memory(record_lengths=[1000, 3000], **kw)["records_bytes"],
                         rec["records_bytes"])
        self.assertEqual(hwfit.memory(lora_targets=("q", "v"), **kw)["trainable_params"],
                         hwfit.memory(lora_targets="q,v", **kw)["trainable_params"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(record_lengths=[], **kw)
        with self.assertRaises(TypeError):
            hwfit.memory(record_lengths=[1000, True], **kw)
        # from the data set's lengths (lognormal mean 1000, sd 600, 2,000 samples)
        d = hwfit.memory(length_mean=1000, length_sd=600, samples=2000, **kw)
        self.assertEqual(d["records_bytes"],
                         hwfit.memory(record_lengths=d["assumptions"]["record_lengths"],
                                      **kw)["records_bytes"])
        import ctypes
        typ = (ctypes.c_uint32 * _lib.HWFIT_MEMORY_RECORDS)()
        self.assertEqual(_lib.hwfit_memory_records_typical(1000.0, 600.0, 4096, 2000, 1, typ), 0)
        self.assertEqual(",".join(str(x) for x in typ if x), d["assumptions"]["record_lengths"])
        import ctypes
        arr = (ctypes.c_uint32 * _lib.HWFIT_MEMORY_RECORDS)()
        self.assertEqual(_lib.hwfit_memory_record_lengths_parse(b"1000,3000", arr), 0)
        self.assertEqual(list(arr)[:3], [1000, 3000, 0])
        mi = _lib.hwfit_memory_in()
        _lib.hwfit_memory_init(ctypes.byref(mi))
        self.assertEqual(list(mi.record_lengths), [0] * _lib.HWFIT_MEMORY_RECORDS)

    def test_grads_upcast_in_step_hold_fp32_gradient_copies(self):
        # Llama 3.1 8B full with bf16 gradients: Megatron-Core's step copies them to fp32,
        # 4 bytes a trained parameter in the step phase; the megatron profile sets it.
        kw = dict(config=config("llama-3.1-8b"), mode="full", context=512, gradients="bf16")
        off = hwfit.memory(**kw)
        on = hwfit.memory(grads_upcast_in_step=True, **kw)
        self.assertEqual(on["step_bytes"] - off["step_bytes"], 4 * on["trainable_params"])
        self.assertTrue(hwfit.memory(framework="megatron", **kw)["assumptions"]
                        ["grads_upcast_in_step"])

    def test_fsdp_wrap_residue_keeps_the_flat_build_reserved(self):
        # Llama 3.1 8B full on 2 cards, ZeRO-3 with everything offloaded, 128 tokens: FSDP1's
        # flat-parameter build (twice the root's tables and its shard) stays reserved beside
        # the gathered units; allocated does not move; the fsdp profile sets it.
        kw = dict(config=config("llama-3.1-8b"), mode="full", gpus=2, dp=2, zero=3,
                  context=128, recompute="full", offload="optimizer,params",
                  capacity="1024GiB")
        off = hwfit.fit(**kw)
        on = hwfit.fit(fsdp_wrap_residue=True, **kw)
        self.assertGreater(on["peak_reserved_bytes"], off["peak_reserved_bytes"])
        self.assertEqual(on["peak_allocated_bytes"], off["peak_allocated_bytes"])
        self.assertTrue(hwfit.fit(framework="fsdp", **kw)["assumptions"]["fsdp_wrap_residue"])
        self.assertFalse(hwfit.fit(framework="fsdp", fsdp_wrap_residue=False, **kw)
                         ["assumptions"]["fsdp_wrap_residue"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.fit(fsdp_wrap_residue=True, **dict(kw, zero=2))

    def test_quant_scales_replicated_stay_on_every_card(self):
        # Llama 3.1 8B QLoRA (nf4-dq), ZeRO-3 on 8 cards with parameter offload: the NF4
        # scales (32 layers x 13,312 blocks x 260 bytes) stay on the card, the data goes.
        kw = dict(config=config("llama-3.1-8b"), mode="qlora", gpus=8, dp=8, zero=3,
                  offload="params", recompute="full", capacity="80GiB")
        self.assertEqual(hwfit.fit(**kw)["breakdown"]["weights_bytes"], 0)
        on = hwfit.fit(quant_scales_replicated=True, **kw)
        self.assertEqual(on["breakdown"]["weights_bytes"], 32 * 13312 * 260)
        self.assertTrue(hwfit.fit(framework="deepspeed", **kw)["assumptions"]
                        ["quant_scales_replicated"])
        self.assertFalse(hwfit.fit(framework="deepspeed", quant_scales_replicated=False, **kw)
                         ["assumptions"]["quant_scales_replicated"])
        # One device (memory) has no sharding: the flag would be ignored, so it is refused.
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.memory(config=config("llama-3.1-8b"), mode="qlora", context=512,
                         quant_scales_replicated=True)
        self.assertIn("quant_scales_replicated", str(cm.exception))

    def test_false_switches_off_the_profiles_flag(self):
        # untied_head=False is the CLI's --no-untied-head: off over the LitGPT profile;
        # not passed, the profile's choice stands.
        kw = dict(config=config("llama-3.2-1b"), mode="lora", framework="litgpt")
        lit = hwfit.memory(**kw)
        off = hwfit.memory(untied_head=False, **kw)
        self.assertTrue(lit["assumptions"]["untied_head"])
        self.assertFalse(off["assumptions"]["untied_head"])
        self.assertEqual(lit["weights_bytes"] - off["weights_bytes"], 128256 * 2048 * 2)
        self.assertFalse(lit["assumptions"]["fused_optimizer"])  # LitGPT: foreach AdamW
        self.assertTrue(hwfit.memory(foreach_optimizer=False, **kw)["assumptions"]
                        ["fused_optimizer"])

    def test_overhead_accepts_units(self):
        r = hwfit.memory(config=config("llama-3.1-8b"), overhead="2GiB")
        self.assertEqual(r["overhead_bytes"], 2 << 30)

    def test_bad_arguments_raise(self):
        c = config("llama-3.1-8b")
        for kw in (dict(mode="pretrain"), dict(batch=-1), dict(context="lots"),
                   dict(lora_targets="lm_head")):
            with self.assertRaises(hwfit.HwfitError, msg=repr(kw)) as cm:
                hwfit.memory(config=c, **kw)
            self.assertEqual(cm.exception.option, list(kw)[0])
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.memory(config=c, mode="full", weights="q4_k")
        self.assertEqual(cm.exception.name, "HWFIT_EUNSUPPORTED")


if __name__ == "__main__":
    unittest.main()


@needs("model")
class TestModelKeyword(unittest.TestCase):
    """model= takes a path, an id or short name, a dict or JSON text; config= stays."""

    def test_path_dict_text_and_alias_agree(self):
        import json
        path = config("llama-3.1-8b")
        with open(path) as f:
            as_dict = json.load(f)
        want = hwfit.model(model=path)["params_total"]
        self.assertEqual(want, 8030261248)
        self.assertEqual(hwfit.model(model=as_dict)["params_total"], want)
        self.assertEqual(hwfit.model(model=json.dumps(as_dict))["params_total"], want)
        self.assertEqual(hwfit.model(config=path)["params_total"], want)
        self.assertEqual(hwfit.memory(model=as_dict, mode="qlora")["total_bytes"],
                         hwfit.memory(config=path, mode="qlora")["total_bytes"])

    def test_refusals_name_the_keyword_as_given(self):
        with self.assertRaises(hwfit.HwfitError) as e:
            hwfit.model(config="/nonexistent.json")
        self.assertTrue(str(e.exception).startswith("config: "), str(e.exception))
        self.assertEqual(e.exception.option, "config")
        with self.assertRaises(hwfit.HwfitError) as e:
            hwfit.model(model="/nonexistent.json")
        self.assertEqual(e.exception.option, "model")
        with self.assertRaises(hwfit.HwfitError) as e:
            hwfit.model(model={"model_type": "llama", "num_hidden_layers": "x"})
        self.assertEqual(e.exception.option, "model")
        with self.assertRaises(TypeError) as e:
            hwfit.model(model=3.5)
        self.assertIn("a dict or JSON text", str(e.exception))
        with self.assertRaises(TypeError):
            hwfit.model(model=config("llama-3.1-8b"), config=config("llama-3.1-8b"))


@needs("memory")
class TestAdapterRecompute(unittest.TestCase):

    def test_use_cache_and_outputs_kept_hold_the_outputs(self):
        # Llama 3.1 8B, 1,024 tokens, full recomputation: the K/V built in the forward
        # (2,048 values a token in 32 layers, bf16) and, kept through backward, the fp32
        # logits (1,024 x 128,256 x 4 bytes).
        kw = dict(model=config("llama-3.1-8b"), mode="lora", context=1024, recompute="full",
                  loss="upcast")
        built, logits = 2048 * 1024 * 2 * 32, 1024 * 128256 * 4
        self.assertEqual(hwfit.memory(**kw)["outputs_bytes"], 0)
        self.assertEqual(hwfit.memory(use_cache=True, **kw)["outputs_bytes"], built)
        d = hwfit.memory(use_cache=True, outputs_kept=True, **kw)
        self.assertEqual(d["outputs_bytes"], built + logits)
        self.assertTrue(d["assumptions"]["outputs_kept"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(model=config("llama-3.1-8b"), use_cache=True)

    def test_softmax_fp32_keeps_the_eager_softmax_in_fp32(self):
        # transformers' eager attention: the fp32 softmax output beside the 16-bit
        # probabilities, 4 bytes a score more in the rebuilt layer (32 heads, 1,024 tokens),
        # and its backward 8 - 2 = 6 beyond them against 2A = 4 in bf16: 6 in all.
        kw = dict(model=config("llama-3.1-8b"), mode="lora", context=1024, recompute="full",
                  no_dropout=True, no_flash_attention=True)
        d0 = hwfit.memory(**kw)
        d1 = hwfit.memory(softmax_fp32=True, **kw)
        self.assertEqual(d1["activation_bytes"] - d0["activation_bytes"], 32 * 1024 * 1024 * 6)
        self.assertTrue(d1["assumptions"]["softmax_fp32"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(model=config("llama-3.1-8b"), mode="lora", softmax_fp32=True)

    def test_eager_attention_backward_holds_the_score_gradients(self):
        # Without flash attention, Llama 3.1 8B LoRA at 1,024 tokens, full recomputation, no
        # dropout: the rebuilt layer keeps its bf16 probabilities (A = 2 bytes a score) and
        # its softmax's backward holds the incoming and input gradients beside them, 2A more:
        # 6 bytes x 32 heads x 1,024^2; fit on one card answers as memory does.
        kw = dict(config=config("llama-3.1-8b"), mode="lora", context=1024, recompute="full",
                  no_dropout=True)
        flash, eager = hwfit.memory(**kw), hwfit.memory(no_flash_attention=True, **kw)
        self.assertEqual(eager["activation_bytes"] - flash["activation_bytes"],
                         6 * 32 * 1024 * 1024)
        self.assertEqual(eager["backward_bytes"] - flash["backward_bytes"], 6 * 32 * 1024 * 1024)
        fit = hwfit.fit(capacity="80GiB", gpus=1, no_flash_attention=True, **kw)
        self.assertEqual(fit["breakdown"]["activation_bytes"], eager["activation_bytes"])
        self.assertEqual(fit["phases"]["backward_bytes"], eager["backward_bytes"])

    def test_compile_keeps_the_product_when_down_trains(self):
        # torch.compile keeps act(gate) * up for the down projection's weight gradient:
        # Llama 3.1 8B full, 1,024 tokens, 3F compiled against 4F eager with gated_act_kept.
        kw = dict(model=config("llama-3.1-8b"), mode="full", context=1024, recompute="none")
        eager = hwfit.memory(gated_act_kept=True, **kw)["activation_bytes"]
        compiled = hwfit.memory(compile=True, **kw)["activation_bytes"]
        self.assertEqual(eager - compiled, 32 * 1024 * 14336 * 2)

    def test_norm_upcast_kept_stores_the_fp32_input(self):
        # An eager RMSNorm keeps its input's fp32 copy: Llama 3.1 8B LoRA, 1,024 tokens, no
        # recomputation, 2 bytes more an element of 64 layer norms and the final one.
        kw = dict(model=config("llama-3.1-8b"), mode="lora", context=1024, recompute="none")
        d = hwfit.memory(norm_upcast_kept=True, **kw)
        self.assertEqual(d["activation_bytes"] - hwfit.memory(**kw)["activation_bytes"],
                         2 * 1024 * 4096 * 65)
        self.assertTrue(d["assumptions"]["norm_upcast_kept"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(model=config("llama-3.1-8b"), norm_upcast_kept=True)

    def test_loss_liger(self):
        # Liger: fused in training, the whole logits with transformers' loss in evaluation.
        kw = dict(model=config("llama-3.1-8b"), mode="lora", context=2048, recompute="full",
                  evaluation=True, eval_batch=1, eval_replay=False)
        fused, liger = hwfit.memory(loss="fused", **kw), hwfit.memory(loss="liger", **kw)
        self.assertEqual(liger["backward_bytes"], fused["backward_bytes"])
        self.assertEqual(liger["eval_bytes"],
                         hwfit.memory(loss="upcast-freed", **kw)["eval_bytes"])

    def test_dequant_work_bytes(self):
        # torchao NF4's eager dequantization: 12 bytes an element beside the bf16 weight.
        kw = dict(model=config("llama-3.1-8b"), mode="qlora", context=512, dequant_transient=True)
        a, b = hwfit.memory(**kw), hwfit.memory(dequant_work_bytes=12, **kw)
        self.assertEqual(b["dequant_bytes"] - a["dequant_bytes"], 12 * 14336 * 4096)
        self.assertEqual(b["assumptions"]["dequant_work_bytes"], 12)
        with self.assertRaises(hwfit.HwfitError):  # nothing dequantized to refine
            hwfit.memory(model=config("llama-3.1-8b"), mode="qlora", dequant_work_bytes=12)

    def test_norm_weight_fp32(self):
        # LitGPT's RMSNorm keeps its normalized tensor in fp32 for a trained weight: 2 bytes
        # more an element (Llama 3.1 8B full, 1,024 tokens, 64 layer norms and the final).
        kw = dict(model=config("llama-3.1-8b"), mode="full", context=1024, recompute="none",
                  norm_upcast_kept=True)
        d = hwfit.memory(norm_weight_fp32=True, **kw)
        self.assertEqual(d["activation_bytes"] - hwfit.memory(**kw)["activation_bytes"],
                         2 * 1024 * 4096 * 65)
        self.assertTrue(d["assumptions"]["norm_weight_fp32"])

    def test_loss_upcast_freed_drops_the_16bit_logits(self):
        # torchtitan's del pred: the upcast loss without the bf16 logits, 12 bytes a logit.
        kw = dict(model=config("llama-3.1-8b"), mode="full", context=1024)
        up = hwfit.memory(loss="upcast", **kw)["loss_bytes"]
        self.assertEqual(up - hwfit.memory(loss="upcast-freed", **kw)["loss_bytes"],
                         2 * 1024 * 128256)

    def test_loss_compiled_keeps_the_16bit_logits_and_their_gradient(self):
        # torchtitan's compiled cross-entropy: the bf16 logits saved and their bf16
        # gradient, 4 bytes a logit against upcast-freed's 12.
        kw = dict(model=config("llama-3.1-8b"), mode="full", context=1024)
        freed = hwfit.memory(loss="upcast-freed", **kw)["loss_bytes"]
        d = hwfit.memory(loss="compiled", **kw)
        self.assertEqual(freed - d["loss_bytes"], 8 * 1024 * 128256)
        self.assertEqual(d["assumptions"]["loss"], "compiled")

    def test_selective_policy_op_keeps_torchtitans_saved_outputs(self):
        # torchtitan's op-level checkpointing: Llama 3.1 8B full, 16,384 tokens, 63,616 bytes
        # a token and layer kept (input, q, v, attention output and log-sum-exp, gate, down)
        # against 147,456 (Korthikanti's selective with flash attention stores them all).
        kw = dict(model=config("llama-3.1-8b"), mode="full", context=8192, micro_batch=2,
                  recompute="selective")
        op = hwfit.memory(selective_policy="op", **kw)
        self.assertEqual(hwfit.memory(**kw)["activation_bytes"] - op["activation_bytes"],
                         32 * (147456 - 63616) * 16384)
        self.assertEqual(op["assumptions"]["selective"], "op")
        tt = hwfit.memory(model=config("llama-3.1-8b"), mode="full", framework="torchtitan")
        self.assertEqual(tt["assumptions"]["selective"], "op")
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(model=config("llama-3.1-8b"), mode="lora", recompute="selective",
                         selective_policy="op")

    def test_selective_policy_op_on_moe_and_mla_layers(self):
        # torchtitan's op-level checkpointing on DeepSeek-V2-Lite (MLA, 26 MoE layers of 64
        # experts, 2 shared): accepted; with FlexAttention uncompiled the attention is
        # checkpointed in full and the MoE alone takes the policy (flex_attention); compiled
        # it is refused.
        kw = dict(model=config("deepseek-coder-v2-lite-base"), mode="full", context=4096,
                  recompute="selective", selective_policy="op")
        whole = hwfit.memory(**kw)
        flex = hwfit.memory(flex_attention=True, **kw)
        self.assertFalse(whole["assumptions"]["flex_attention"])
        self.assertTrue(flex["assumptions"]["flex_attention"])
        self.assertLess(flex["activation_bytes"],
                        hwfit.memory(**dict(kw, selective_policy="attention"))
                        ["activation_bytes"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(compile=True, **kw)

    def test_ep_a2a_recomputed_drops_the_all_to_alls(self):
        # torchtitan before c4e229115 recomputes the expert all-to-alls under its op policy:
        # DeepSeek-V2-Lite on 8 cards with ep 8 then stores what ep 1 stores (26 MoE layers x
        # 2 x 6 x 2048 bf16 values a token fewer than with them saved).
        kw = dict(config=config("deepseek-coder-v2-lite-base"), mode="full", gpus=8,
                  context=4096, micro_batch=1, tp=1, pp=1, dp=8, zero=3,
                  recompute="selective", selective_policy="op", framework="torchtitan",
                  capacity="1024GiB")
        saved = hwfit.fit(ep=8, **kw)
        re = hwfit.fit(ep=8, ep_a2a_recomputed=True, **kw)
        self.assertFalse(saved["assumptions"]["ep_a2a_recomputed"])
        self.assertTrue(re["assumptions"]["ep_a2a_recomputed"])
        self.assertEqual(saved["breakdown"]["activation_bytes"]
                         - re["breakdown"]["activation_bytes"], 26 * 2 * 6 * 2048 * 2 * 4096)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.fit(ep=8, ep_a2a_recomputed=True, **dict(kw, recompute="full"))

    def test_lora_qkv_one_dropout_counts_the_shared_dropout_once(self):
        # LitGPT's fused q/k/v adapter takes one dropout of the normed hidden state: Llama
        # 3.1 8B, LoRA on q and v, 1,024 tokens, no recomputation, 32 layers x 1,024 x 4,096
        # x 3 bytes (bf16 copy and mask) fewer than one dropout per adapter.
        kw = dict(config=config("llama-3.1-8b"), mode="lora", lora_targets="q,v",
                  context=1024, recompute="none", framework="litgpt")
        one = hwfit.memory(**kw)
        each = hwfit.memory(lora_qkv_one_dropout=False, **kw)
        self.assertTrue(one["assumptions"]["lora_qkv_one_dropout"])
        self.assertFalse(each["assumptions"]["lora_qkv_one_dropout"])
        self.assertEqual(each["activation_bytes"] - one["activation_bytes"],
                         32 * 1024 * 4096 * 3)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(config=config("llama-3.1-8b"), lora_qkv_one_dropout=True)

    def test_evaluation_phase(self):
        # The HF Trainer's evaluation at 8 sequences with use_cache: Llama 2 7B's K/V cache
        # of every layer, 2 x 32 x 8 x 2048 x 4096 x 2 bytes (bf16), in the eval phase,
        # which sets the peak at micro-batch 1 with full recomputation.
        kw = dict(config=config("llama-2-7b"), mode="lora", context=2048, micro_batch=1,
                  recompute="full", framework="hf-trainer+peft")
        base = hwfit.memory(**kw)
        nocache = hwfit.memory(evaluation=True, **kw)
        cache = hwfit.memory(evaluation=True, eval_batch=8, eval_use_cache=True, **kw)
        self.assertEqual(base["eval_bytes"], 0)
        self.assertEqual(cache["eval_bytes"] - nocache["eval_bytes"],
                         2 * 32 * 8 * 2048 * 4096 * 2)
        self.assertEqual(cache["peak_phase"], "evaluation")
        self.assertTrue(cache["assumptions"]["evaluation"])
        self.assertEqual(cache["assumptions"]["eval_batch"], 8)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(eval_batch=4, **kw)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(config=config("llama-2-7b"), evaluation=True)

    def test_evaluation_segments_replayed(self):
        # The Hinglish QLoRA run's evaluation (Llama 2 7B, fp4 base, fp32 hidden states,
        # LoRA r 64 on q, k, v, o, 8 x 2048 tokens, the K/V cache kept): the caching
        # allocator's segments for it, replayed (memory.c hwfit__memory_eval_segments),
        # 34,191,966,208 bytes beside the fixed tensors' reserve
        # (tests/data/tools/eval_replay.py); the
        # blocks the K/V entries strand are reserved, not allocated; none with expandable
        # segments.
        kw = dict(config=config("llama-2-7b"), mode="qlora", weights="nf4",
                  unquantized="fp32", lora_dtype="fp32", gradients="fp32",
                  optimizer_states="fp32", no_master_weights=True, residual_fp32=True,
                  context=2048, micro_batch=2, recompute="full", lora_rank=64,
                  lora_targets="q,k,v,o", lora_dropout=False, evaluation=True, eval_batch=8,
                  eval_use_cache=True, framework="hf-trainer+peft")
        r = hwfit.memory(**kw)
        self.assertEqual(r["peak_phase"], "evaluation")
        fixed = r["weights_bytes"] + r["optimizer_bytes"] + r["kv_bytes"]
        frag = r["assumptions"]["fragmentation"]
        self.assertEqual(r["peak_reserved_bytes"],
                         fixed + math.ceil(fixed * frag) + 34191966208)
        self.assertGreater(r["stranded_bytes"], 0)
        x = hwfit.memory(expandable_segments=True, **kw)
        self.assertEqual(x["peak_allocated_bytes"], r["peak_allocated_bytes"])
        self.assertEqual(x["stranded_bytes"], 0)
        self.assertLess(x["peak_reserved_bytes"], r["peak_reserved_bytes"])
        n = hwfit.memory(eval_replay=False, **kw)
        self.assertEqual(n["peak_reserved_bytes"], x["peak_reserved_bytes"])
        self.assertFalse(hwfit.memory(**dict(kw, framework="unsloth"))["assumptions"]
                         ["eval_replay"])

    def test_lora_modules_follow_the_checkpoint(self):
        # PEFT's one adapter on Phi-3's qkv_proj and gate_up_proj: r 16 on every linear of
        # phi-3-mini-4k-instruct trains 25,165,824 parameters (PEFT's printed count),
        # 29,884,416 with separate projections; Megatron fuses Llama's too.
        kw = dict(config=config("phi-3-mini-4k-instruct"), mode="lora")
        self.assertEqual(hwfit.memory(**kw)["trainable_params"], 29884416)
        ck = hwfit.memory(lora_modules="checkpoint", **kw)
        self.assertEqual(ck["trainable_params"], 25165824)
        self.assertEqual(ck["assumptions"]["lora_modules"], "checkpoint")
        self.assertEqual(hwfit.memory(framework="hf-trainer+peft", **kw)["trainable_params"],
                         25165824)
        mg = hwfit.memory(config=config("llama-3.1-8b"), mode="lora", lora_modules="fused")
        self.assertEqual(mg["trainable_params"], 35651584)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(config=config("llama-3.1-8b"), lora_modules="fused")
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(lora_modules="qkv", **kw)

    def test_unsloth_loss_chunks_by_release(self):
        # Unsloth's chunked fused loss: Llama 3.1 8B at 8 x 2048 rows has 4 x 16384 x
        # 128256 bytes of fp32 logits, 1.96 times the 4 GiB cap, so the latest release
        # splits it in 4; 2025.11.6 (no cap, rounded to the nearest multiple of 4) keeps it
        # whole on a card with room; a small card splits it again.
        kw = dict(config=config("llama-3.1-8b"), mode="qlora", context=2048, micro_batch=8,
                  recompute="full", framework="unsloth")
        row = 2 * 2 * 128256 + 2 * 4096
        latest = hwfit.memory(**kw)
        self.assertEqual(latest["assumptions"]["loss"], "fused-chunked")
        self.assertEqual((latest["loss_chunks"], latest["loss_chunk_bytes"]), (4, 4096 * row))
        old = hwfit.memory(framework_release="2025.11.6", **kw)
        self.assertIsNone(old["assumptions"]["loss_target_bytes"])
        self.assertEqual((old["loss_chunks"], old["loss_chunk_bytes"]), (1, 16384 * row))
        self.assertGreater(hwfit.memory(framework_release="2025.11.6", card_memory="12GiB",
                                        **kw)["loss_chunks"], 1)
        self.assertEqual(hwfit.memory(loss_target="none", **kw)["loss_chunks"], 1)
        self.assertEqual(hwfit.memory(framework_release="2025.3", **kw)["loss_chunks"], 0)
        self.assertEqual(old["assumptions"]["framework_release"], "2025.11.6")
        self.assertTrue(old["assumptions"]["release_dated"])
        tt = hwfit.memory(config=config("llama-3.1-8b"), mode="lora", context=512,
                          framework="torchtune", framework_release="2024.5")
        self.assertFalse(tt["assumptions"]["release_dated"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(framework_release="2025.13", **kw)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(config=config("llama-3.1-8b"), mode="qlora", framework_release="2025.1")
        with self.assertRaises(hwfit.HwfitError):
            # before 2025.4 the profile has no load warm-up either: the card sizes nothing
            hwfit.memory(loss="fused", card_memory="12GiB",
                         **dict(kw, framework_release="2025.3"))

    def test_unsloth_checkpointing_by_trl_release(self):
        # Unsloth 2025.11.5 to 2026.6.x with TRL below 0.22: the SFTConfig's
        # gradient_checkpointing (False) turns the offloaded checkpoints off.
        kw = dict(config=config("qwen2.5-3b"), mode="qlora", context=1024,
                  framework="unsloth", framework_release="2026.6.9")
        on = hwfit.memory(**kw)
        off = hwfit.memory(trl_release="0.15.2", **kw)
        self.assertEqual((off["assumptions"]["recompute"], off["assumptions"]["activation_offload"]),
                         ("none", False))
        self.assertEqual(off["assumptions"]["trl_release"], "0.15.2")
        self.assertGreater(off["peak_allocated_bytes"], on["peak_allocated_bytes"])
        self.assertEqual(hwfit.memory(trl_release="0.22", **kw)["peak_allocated_bytes"],
                         on["peak_allocated_bytes"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(trl_release="0.x", **kw)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(config=config("qwen2.5-3b"), mode="qlora", framework="torchtune",
                         trl_release="0.15")
        # The ctypes mirror: the library's own answer.
        from hwfit import _lib
        import ctypes
        dated = ctypes.c_int(-1)
        lib_dated = _lib.hwfit_memory_profile_library_dated
        self.assertEqual(lib_dated(b"unsloth", b"trl", ctypes.byref(dated)), 0)
        self.assertEqual(dated.value, 1)
        self.assertEqual(lib_dated(b"trl", b"trl", ctypes.byref(dated)), 0)
        self.assertEqual(dated.value, 0)
        self.assertEqual(lib_dated(b"unsloth", b"transformers", ctypes.byref(dated)), 0)
        self.assertEqual(dated.value, 1)
        rel = _lib.hwfit_memory_releases(framework=b"2026.6.9", trl=b"0.15.2")
        mi = _lib.hwfit_memory_in()
        _lib.hwfit_memory_init(ctypes.byref(mi))
        self.assertEqual(_lib.hwfit_memory_profile_apply_releases(
            b"unsloth", ctypes.byref(rel), 1, ctypes.byref(mi), None), 0)
        self.assertEqual(mi.recompute, 0)  # HWFIT_MEMORY_RECOMPUTE_NONE

    def test_load_warmup(self):
        # transformers' caching allocator warm-up: on a 48 GiB card a gpt-oss-20b QLoRA
        # load reserves one block of a byte per parameter (4.51 on, bitsandbytes' factor
        # 4), above a short training step: the load phase sets the peak.
        kw = dict(config=config("gpt-oss-20b"), mode="qlora", context=256,
                  lora_targets="attention", card_memory="48GiB")
        plain = hwfit.memory(**{k: v for k, v in kw.items() if k != "card_memory"})
        warm = hwfit.memory(load_warmup="4.54", **kw)
        self.assertEqual(warm["peak_phase"], "load")
        self.assertEqual(warm["assumptions"]["load_warmup"], "4.54")
        self.assertGreater(warm["peak_reserved_bytes"], plain["peak_reserved_bytes"])
        params = hwfit.model(config=config("gpt-oss-20b"))["params_total"]
        block = -(-2 * (2 * params // 4) // 2**21) * 2**21
        self.assertEqual(warm["load_bytes"], block)
        # Reset after loading: the load phase is not counted.
        reset = hwfit.memory(load_warmup="4.54", load_counted=False, **kw)
        self.assertNotEqual(reset["peak_phase"], "load")
        self.assertEqual(reset["peak_allocated_bytes"], plain["peak_allocated_bytes"])
        # No card: the block depends on the card's free memory; none counted.
        nocard = dict(kw)
        del nocard["card_memory"]
        self.assertEqual(hwfit.memory(load_warmup="4.54", **nocard)["peak_reserved_bytes"],
                         hwfit.memory(**nocard)["peak_reserved_bytes"])
        # The unsloth profile by transformers' release.
        un = dict(kw, framework="unsloth", framework_release="2026.9.14")
        self.assertEqual(hwfit.memory(transformers_release="4.49.0", **un)["assumptions"]
                         ["load_warmup"], "none")
        self.assertEqual(hwfit.memory(transformers_release="4.51.3", **un)["assumptions"]
                         ["load_warmup"], "4.51")
        self.assertEqual(hwfit.memory(**un)["assumptions"]["transformers_release"], "latest")
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(load_warmup="4.49", **kw)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(transformers_release="4.x", **un)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(framework="torchtune", transformers_release="4.51", **kw)

    def test_unsloth_short_micro_batches(self):
        # Unsloth 2025.4.7 keeps the whole logits of micro-batches up to 1024 tokens.
        kw = dict(config=config("llama-3.2-1b"), mode="qlora", context=2048, micro_batch=2,
                  recompute="full", framework="unsloth")
        cce = hwfit.memory(framework_release="2024.12.4", **kw)
        short = hwfit.memory(framework_release="2025.4.7", **kw)
        self.assertEqual(short["assumptions"]["loss_short_tokens"], 1024)
        self.assertGreater(short["forward_bytes"], cce["forward_bytes"])
        self.assertEqual(hwfit.memory(loss_short_tokens=1024, packed=True,
                                      framework_release="2024.12.4", **kw)["forward_bytes"],
                         cce["forward_bytes"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(loss_short="inplace-cast", **kw)

    def test_sgd_plain_keeps_no_optimizer_state(self):
        # torch.optim.SGD with momentum 0 keeps no state: the master copy only (4 bytes a
        # parameter of Llama 3.1 8B's 8,030,261,248), nothing without it.
        p = 8030261248
        kw = dict(model=config("llama-3.1-8b"), mode="full", context=1024)
        self.assertEqual(hwfit.memory(optimizer="sgd", **kw)["optimizer_bytes"], 8 * p)
        self.assertEqual(hwfit.memory(optimizer="sgd-plain", **kw)["optimizer_bytes"], 4 * p)
        self.assertEqual(hwfit.memory(optimizer="sgd-plain", no_master_weights=True,
                                      **kw)["optimizer_bytes"], 0)
        cols = hwfit.memory_batch(config("llama-3.1-8b"), mode="full", context=[1024],
                                  optimizer="sgd-plain")
        self.assertEqual(cols["optimizer_bytes"][0], 4 * p)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(optimizer="sgd-none", **kw)

    def test_qlora_defaults_to_full_recomputation(self):
        d = hwfit.memory(model=config("llama-3.1-70b"), mode="qlora")
        self.assertEqual((d["recompute"], d["recompute_source"]),
                         ("full", "LoRA/QLoRA recipes' default"))
        self.assertAlmostEqual(d["total_bytes"] / 1e9, 52.7, delta=0.1)
        d = hwfit.memory(model=config("llama-3.1-70b"), mode="qlora", recompute="none")
        self.assertEqual(d["recompute_source"], "given")

"""hwfit dtypes, hwfit model and hwfit memory: published counts through the command line,
readable tables, and one-line errors for bad options and bad config files."""
import os
import tempfile
import unittest

from clitest import CliCase, TEST_DATA


def config(name):
    return os.path.join(TEST_DATA, "models", name + ".config.json")


class TestDtypes(CliCase):
    def test_lists_every_format_with_its_bits(self):
        rows = {r["name"]: r for r in self.ok_json("dtypes")["dtypes"]}
        self.assertEqual(rows["q4_k"]["bits_per_element"], 4.5)       # ggml block_q4_K 144 B/256
        self.assertEqual(rows["int4"]["bits_per_element"], 4.15625)   # 4 + 20/128
        self.assertEqual(rows["int4-g32"]["bits_per_element"], 4.625)
        self.assertEqual(rows["mxfp4"]["block_elements"], 32)
        self.assertTrue(rows["nvfp4"]["quantized"])
        self.assertFalse(rows["bf16"]["quantized"])
        self.assertEqual(len(rows), 27)
        self.assertEqual(rows["fp8-b128"]["block_elements"], 16384)  # one fp32 per 128x128 tile
        self.assertIn("iq4_xs", self.ok_table("dtypes"))

    def test_takes_no_arguments(self):
        self.bad("dtypes", "extra")
        self.bad("dtypes", "--weights", "bf16")


class TestModel(CliCase):
    def test_llama_3_1_counts_are_the_checkpoint_counts(self):
        for name, total, kv in (("llama-3.1-8b", 8030261248, 131072),
                                ("llama-3.1-70b", 70553706496, 327680),
                                ("llama-3.1-405b", 405853388800, 516096)):
            r = self.ok_json("model", "--config", config(name))
            self.assertEqual(r["params_total"], total, name)
            self.assertEqual(r["params_active"], total, name)
            self.assertEqual(r["weights_bytes"], 2 * total, name)
            self.assertEqual(r["kv_bytes_per_token"], kv, name)
            self.assertEqual(r["kv_bytes"], 4096 * kv, name)  # default context 4096

    def test_fused_projections_of_the_checkpoint(self):
        """Phi-3 runs q, k, v as one qkv_proj and gate, up as one gate_up_proj; GLM-4-0414
        fuses gate and up only; Llama fuses neither (the modules a PEFT adapter wraps)."""
        for name, qkv, gate_up in (("phi-3-mini-4k-instruct", True, True),
                                   ("glm-4-9b-0414", False, True),
                                   ("llama-3.1-8b", False, False)):
            r = self.ok_json("model", "--config", config(name))
            self.assertIs(r["fused_qkv"], qkv, name)
            self.assertIs(r["fused_gate_up"], gate_up, name)
        self.assertIn("fused q/k/v module", self.ok_table("model", "--config",
                                                           config("phi-3-mini-4k-instruct")))

    def test_batch_context_and_formats(self):
        r = self.ok_json("model", "--config", config("llama-3.1-8b"), "--context", "128K",
                         "--batch", "2", "--kv", "fp8", "--weights", "q4_k")
        self.assertEqual(r["context"], 131072)
        self.assertEqual(r["kv_bytes"], 2 * 131072 * 65536)
        self.assertEqual(r["weights_bytes"], 6027747328)  # q4_k layers, bf16 embeddings
        self.assertEqual(r["weights"], "q4_k")

    def test_moe_mla_and_windows(self):
        r = self.ok_json("model", "--config", config("deepseek-v3"))
        self.assertEqual(r["params_total"], 671026419200)
        self.assertEqual(r["params_active"], 37552297472)
        self.assertEqual(r["params_mtp"], 11610068224)
        self.assertEqual(r["kv_bytes_per_token"], 70272)
        r = self.ok_json("model", "--config", config("gemma-2-9b-it"), "--context", "8192")
        self.assertEqual(r["params_total"], 9241705984)
        self.assertEqual(r["params_head"], 0)
        self.assertEqual(r["sliding_layers"], 21)
        self.assertEqual(r["kv_bytes"], (21 * 8192 + 21 * 4096) * 8192)

    def test_gpt_oss_llama4_glm(self):
        r = self.ok_json("model", "--config", config("gpt-oss-20b"))
        self.assertEqual(r["model_type"], "gpt_oss")
        self.assertEqual((r["params_total"], r["params_active"]), (20914757184, 4187440704))
        self.assertEqual((r["sliding_layers"], r["window_tokens"]), (12, 128))
        self.assertFalse(r["chunked_attention"])
        # 12 full layers hold the 4096 tokens, 12 sliding ones 128; 2 KiB per layer and token.
        self.assertEqual(r["kv_bytes"], 2048 * (12 * 4096 + 12 * 128))
        r = self.ok_json("model", "--config", config("llama-4-scout-17b-16e"),
                         "--context", "131072")
        self.assertEqual(r["model_type"], "llama4_text")
        self.assertEqual(r["params_total"], 107769861120)
        self.assertEqual((r["sliding_layers"], r["window_tokens"]), (36, 8192))
        self.assertTrue(r["chunked_attention"])
        self.assertEqual(r["kv_bytes"], 4096 * (12 * 131072 + 36 * 8192))
        r = self.ok_json("model", "--config", config("glm-4.5-air"))
        self.assertEqual((r["params_total"], r["params_mtp"]), (106852251264, 2375059584))
        self.assertEqual(r["window_tokens"], 0)
        out = self.ok_table("model", "--config", config("llama-4-maverick-17b-128e"))
        self.assertIn("400,711,848,960", out)
        self.assertIn("in fixed chunks (Llama 4)", out)

    def test_models_lists_the_new_types(self):
        rows = {r["name"]: r for r in self.ok_json("models")["models"]}
        self.assertEqual(rows["gpt-oss-120b"]["params"], 116829156672)
        self.assertEqual(rows["llama-4-maverick-17b-128e"]["active_params"], 17184691200)
        self.assertEqual(rows["glm-4.5"]["model_type"], "glm4_moe")
        self.assertEqual(rows["glm-4.5"]["params"], 352797829024)

    def test_table_shows_exact_counts_and_sizes(self):
        out = self.ok_table("model", "--config", config("llama-3.1-8b"))
        self.assertIn("8,030,261,248", out)
        self.assertIn("16.06 GB (14.96 GiB)", out)

    def test_bad_options_and_files(self):
        self.bad("model", mentions="--model: is required")
        self.bad("model", "--config", config("no-such-model"), mentions="no-such-model")
        self.bad("model", "--config", config("llama-3.1-8b"), "--weights", "fp4",
                 mentions="unknown number format")
        self.bad("model", "--config", config("llama-3.1-8b"), "--context", "lots")
        self.bad("model", "--config", config("llama-3.1-8b"), "--batch", "0")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "config.json")
            with open(path, "w") as f:
                f.write('{"model_type": "llama",\n "num_hidden_layers": "32"}')
            err = self.bad("model", "--config", path, mentions="num_hidden_layers")
            self.assertIn("2:", err)          # line of the bad value
            self.assertIn(path, err)          # the file
            with open(path, "w") as f:
                f.write('{"model_type": "bert"}')
            self.bad("model", "--config", path, mentions="not supported")
            with open(path, "w") as f:
                f.write('{"model_type": "llama", "hidden_size": 40')
            self.bad("model", "--config", path, mentions=path)


class TestMemory(CliCase):
    def test_full_fine_tuning_is_16_bytes_per_parameter_plus_activations(self):
        r = self.ok_json("memory", "--config", config("llama-3.1-8b"), "--mode", "full")
        p = 8030261248
        self.assertEqual(r["weights_bytes"] + r["gradient_bytes"] + r["optimizer_bytes"], 16 * p)
        self.assertEqual(r["kv_bytes"], 0)
        self.assertEqual(r["trainable_params"], p)
        self.assertEqual(r["total_bytes"], 16 * p + r["activation_bytes"] + r["overhead_bytes"])
        r32 = self.ok_json("memory", "--config", config("llama-3.1-8b"), "--mode", "full",
                           "--gradients", "fp32")
        self.assertEqual(r32["weights_bytes"] + r32["gradient_bytes"] + r32["optimizer_bytes"],
                         18 * p)  # Megatron's 18 bytes per parameter

    def test_inference_lora_and_qlora(self):
        r = self.ok_json("memory", "--config", config("llama-3.1-8b"), "--context", "8K",
                         "--overhead", "0")
        self.assertEqual(r["weights_bytes"], 16060522496)
        self.assertEqual(r["kv_bytes"], 1 << 30)
        self.assertEqual(r["overhead_bytes"], 0)
        lora = self.ok_json("memory", "--config", config("llama-3.1-8b"), "--mode", "lora")
        self.assertEqual(lora["adapter_params"], 41943040)  # PEFT: r 16, all linear
        self.assertEqual(lora["optimizer_bytes"], 12 * 41943040)
        q = self.ok_json("memory", "--config", config("llama-3.1-8b"), "--mode", "qlora")
        self.assertEqual(q["weights"], "nf4-dq")
        self.assertEqual(q["weights_bytes"], 5702295552 + 2 * 41943040)
        qv = self.ok_json("memory", "--config", config("llama-3.1-8b"), "--mode", "lora",
                          "--lora-rank", "8", "--lora-targets", "q_proj,v_proj")
        self.assertEqual(qv["adapter_params"], 3407872)

    def test_recomputation_lowers_activations(self):
        acts = [self.ok_json("memory", "--config", config("qwen3-8b"), "--mode", "full",
                             "--recompute", k, "--no-flash-attention")["activation_bytes"]
                for k in ("none", "selective", "full")]
        self.assertGreater(acts[0], acts[1])
        self.assertGreater(acts[1], acts[2])

    def test_table(self):
        out = self.ok_table("memory", "--config", config("mixtral-8x7b-instruct-v0.1"),
                            "--weights", "q4_k")
        self.assertIn("total", out)
        self.assertIn("GiB", out)

    def test_bad_options(self):
        self.bad("memory", mentions="--model: is required")
        self.bad("memory", "--config", config("llama-3.1-8b"), "--mode", "pretrain")
        self.bad("memory", "--config", config("llama-3.1-8b"), "--lora-targets", "lm_head",
                 mentions="--lora-targets")
        self.bad("memory", "--config", config("llama-3.1-8b"), "--overhead", "-1GB")
        self.bad("memory", "--config", config("llama-3.1-8b"), "--mode", "full",
                 "--weights", "q4_k", mentions="plain format")
        self.bad("memory", "--config", config("llama-3.1-8b"), "--gradients", "q8_0",
                 "--mode", "full", mentions="HWFIT_EDOM")
        self.bad("memory", "--config", config("llama-3.1-8b"), "--tensor-parallel", "0")


if __name__ == "__main__":
    unittest.main()

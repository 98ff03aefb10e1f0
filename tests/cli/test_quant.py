"""Weights as the checkpoint stores them: memory, fit, perf, plan and serve take the formats
of the config's quantization_config unless --weights is given, and say where they came
from (weights_source, stored)."""
import os
import unittest

from clitest import CliCase, TEST_DATA


def config(name):
    return os.path.join(TEST_DATA, "models", name + ".config.json")


DS = config("deepseek-v3")
GPTQ = config("qwen3-30b-a3b-gptq-int4")


class TestStoredFormats(CliCase):
    def test_deepseek_v3_is_counted_in_fp8_blocks(self):
        r = self.ok_json("memory", "--config", DS)
        self.assertEqual(r["weights_bytes"], 673150582112)  # tests/test_quant.c, tensor by tensor
        self.assertEqual(r["weights"], "fp8-b128")
        self.assertTrue(r["weights_source"].startswith("stored: fp8 fp8 block 128x128"),
                        r["weights_source"])
        self.assertIn("quantization_config", r["weights_source"])
        s = r["stored"]
        self.assertEqual((s["method"], s["checkpoint"], s["attention"], s["mlp"], s["experts"]),
                         ("fp8", "bf16", "fp8-b128", "fp8-b128", "fp8-b128"))
        self.assertTrue(s["quantized"])
        table = self.ok_table("memory", "--config", DS)
        self.assertIn("stored: fp8", table)

    def test_given_weights_override_the_stored_ones(self):
        r = self.ok_json("memory", "--config", DS, "--weights", "bf16")
        self.assertEqual(r["weights_source"], "given")
        self.assertGreater(r["weights_bytes"], 1.3e12)
        r = self.ok_json("memory", "--config", DS, "--expert-weights", "int4")
        self.assertEqual(r["weights_source"], "given")

    def test_full_training_keeps_plain_weights_and_says_so(self):
        r = self.ok_json("memory", "--config", DS, "--mode", "full")
        self.assertTrue(r["weights_source"].startswith("default: mode full"), r["weights_source"])
        self.assertEqual(r["weights"], "bf16")

    def test_a_config_without_quantization_is_default(self):
        r = self.ok_json("memory", "--config", config("llama-3.1-8b"))
        self.assertEqual(r["weights_source"], "default")
        self.assertFalse(r["stored"]["quantized"])
        self.assertEqual(r["stored"]["method"], "none")

    def test_fit_perf_plan_and_serve_use_the_stored_formats(self):
        f = self.ok_json("fit", "--config", GPTQ, "--gpu", "h100-sxm", "--gpus", "1")
        self.assertEqual(f["weights"], "int4")
        self.assertTrue(f["weights_source"].startswith("stored: gptq int4 group 128"),
                        f["weights_source"])
        self.assertEqual(f["stored"]["checkpoint"], "fp16")
        p = self.ok_json("perf", "--config", GPTQ, "--gpu", "h100-sxm", "--gpus", "1")
        self.assertEqual(p["weights_source"], f["weights_source"])
        pl = self.ok_json("plan", "--config", GPTQ, "--gpu", "h100-sxm", "--gpus", "1")
        self.assertEqual(pl["weights_source"], f["weights_source"])
        s = self.ok_json("serve", "--config", GPTQ, "--gpu", "h100-sxm")
        self.assertEqual(s["weights_source"], f["weights_source"])
        given = self.ok_json("serve", "--config", GPTQ, "--gpu", "h100-sxm", "--weights", "bf16")
        self.assertEqual(given["weights_source"], "given")
        self.assertGreater(given["memory"]["weights_bytes"], s["memory"]["weights_bytes"] * 3)

    def test_an_unknown_method_is_refused_by_name(self):
        import tempfile
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            f.write('{"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, '
                    '"num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 100, '
                    '"quantization_config": {"quant_method": "hqq"}}')
        try:
            self.bad("memory", "--config", f.name, mentions="quant_method \"hqq\"")
        finally:
            os.unlink(f.name)


if __name__ == "__main__":
    unittest.main()

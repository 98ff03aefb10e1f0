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

    def test_gpt_oss_experts_are_mxfp4_and_the_rest_bf16(self):
        r = self.ok_json("memory", "--config", config("gpt-oss-20b"))
        s = r["stored"]
        self.assertEqual((s["method"], s["experts"], s["attention"]), ("mxfp4", "mxfp4", "bf16"))
        bf16 = self.ok_json("memory", "--config", config("gpt-oss-20b"), "--weights", "bf16")
        self.assertLess(r["weights_bytes"], bf16["weights_bytes"] / 2.5)

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


def write_checkpoint(d, tensors, data_bytes=None):
    """A safetensors file of zeros with the given header (tensors: name -> entry)."""
    import json
    import struct
    body = json.dumps(tensors).encode()
    end = max([t["data_offsets"][1] for t in tensors.values()] + [0])
    with open(os.path.join(d, "model.safetensors"), "wb") as f:
        f.write(struct.pack("<Q", len(body)) + body + bytes(end if data_bytes is None
                                                              else data_bytes))


class TestCheckpoint(CliCase):
    CONFIG = ('{"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, '
              '"num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 100, '
              '"torch_dtype": "bfloat16"}')
    TENSORS = {
        "model.embed_tokens.weight": {"dtype": "BF16", "shape": [100, 64],
                                      "data_offsets": [0, 12800]},
        "model.layers.0.mlp.up_proj.weight": {"dtype": "BF16", "shape": [128, 64],
                                              "data_offsets": [12800, 29184]},
        "model.layers.2.eh_proj.weight": {"dtype": "BF16", "shape": [8],
                                          "data_offsets": [29184, 29200]},
    }

    def setUp(self):
        import tempfile
        self.dir = tempfile.mkdtemp()
        with open(os.path.join(self.dir, "config.json"), "w") as f:
            f.write(self.CONFIG)

    def tearDown(self):
        import shutil
        shutil.rmtree(self.dir)

    def test_the_files_bytes_are_the_weights_of_a_whole_model(self):
        write_checkpoint(self.dir, self.TENSORS)
        r = self.ok_json("memory", "--config", self.dir)
        # layer 2 is past the model's 2 layers: an extra prediction layer, left out
        self.assertEqual(r["weights_bytes"], 29184)
        self.assertTrue(r["checkpoint"]["used_as_weights"])
        c = r["checkpoint"]
        self.assertEqual((c["files"], c["tensors"], c["bytes"], c["extra_bytes"]),
                         (1, 3, 29200, 16))
        self.assertEqual(c["dtypes"], [{"dtype": "BF16", "tensors": 3, "elements": 14600,
                                        "bytes": 29200}])
        self.assertIn("safetensors", r["weights_source"])
        # Another format than the stored one is computed, not read.
        other = self.ok_json("memory", "--config", self.dir, "--weights", "fp32")
        self.assertEqual(other["weights_bytes"], 4 * other["params"])
        self.assertFalse(other["checkpoint"]["used_as_weights"])
        self.assertIn("checkpoint", self.ok_table("memory", "--config", self.dir))

    def test_without_safetensors_nothing_changes(self):
        r = self.ok_json("memory", "--config", self.dir)
        self.assertEqual(r["checkpoint"]["files"], 0)
        self.assertFalse(r["checkpoint"]["used_as_weights"])
        self.assertEqual(r["weights_bytes"], 2 * r["params"])

    def test_a_malformed_header_is_refused_naming_the_file(self):
        bad = dict(self.TENSORS)
        bad["model.norm.weight"] = {"dtype": "BF16", "shape": [64], "data_offsets": [0, 100]}
        write_checkpoint(self.dir, bad)
        self.bad("memory", "--config", self.dir, mentions="model.safetensors")
        write_checkpoint(self.dir, self.TENSORS, data_bytes=10)
        self.bad("memory", "--config", self.dir, mentions="ends at byte")


if __name__ == "__main__":
    unittest.main()

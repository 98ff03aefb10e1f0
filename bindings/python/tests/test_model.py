"""The Python face of dtype, model, memory and hf_config: same numbers as the C tests."""
import os
import unittest

import hwfit
from hwfit import _lib

DATA = os.environ.get("HWFIT_TEST_DATA",
                      os.path.join(os.path.dirname(__file__), "..", "..", "..", "tests", "data"))


def config(name):
    return os.path.join(DATA, "models", name + ".config.json")


class TestDtypes(unittest.TestCase):
    def test_bits_and_bytes(self):
        self.assertEqual(hwfit.dtype_bits("q6_k"), 6.5625)
        self.assertEqual(hwfit.dtype_bits("nf4"), 4.5)
        self.assertEqual(hwfit.dtype_bytes("q4_k", 257), 288)
        self.assertEqual(hwfit.dtype_name(hwfit.dtype("int4-g64")), "int4-g64")
        self.assertEqual(hwfit.dtype("int4").group_size, 128)
        self.assertEqual(len(hwfit.dtypes()["dtypes"]), 24)

    def test_unknown_format_raises(self):
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.dtype("fp4")
        self.assertEqual(cm.exception.name, "HWFIT_ENOTFOUND")
        with self.assertRaises(hwfit.HwfitError):
            hwfit.dtype(16)


class TestModel(unittest.TestCase):
    def test_config_files_give_published_counts(self):
        self.assertEqual(hwfit.params(config("llama-3.1-8b"))["total"], 8030261248)
        p = hwfit.params(config("mixtral-8x7b-instruct-v0.1"))
        self.assertEqual((p["total"], p["active"]), (46702792704, 12879925248))
        self.assertEqual(p["moe"]["expert"], 176160768)
        self.assertEqual(hwfit.params(config("qwen2.5-0.5b"))["total"], 494032768)
        self.assertEqual(hwfit.lora_params(config("llama-3.1-8b"), 16, "all"), 41943040)

    def test_model_from_text_and_struct(self):
        m = hwfit.load_config(text='{"model_type": "llama"}')
        self.assertIsInstance(m, _lib.hwfit_model)
        self.assertEqual(hwfit.params(m)["total"], 6738415616)  # LlamaConfig() = Llama-2-7B
        r = hwfit.model(m, context="8K")
        self.assertEqual(r["kv_bytes"], 8192 * 2 * 32 * 32 * 128 * 2)

    def test_model_keys(self):
        r = hwfit.model(config("deepseek-v3"), weights="fp8", context="128K")
        for k in ("params_total", "params_active", "weights_bytes", "kv_bytes_per_token",
                  "kv_bytes"):
            self.assertIsInstance(r[k], int)
        self.assertEqual(r["kv_bytes"], 131072 * 70272)

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


class TestMemory(unittest.TestCase):
    def test_full_and_qlora(self):
        r = hwfit.memory(config("llama-3.1-8b"), mode="full")
        self.assertEqual(r["weights_bytes"] + r["gradient_bytes"] + r["optimizer_bytes"],
                         16 * 8030261248)
        q = hwfit.memory(config("llama-3.1-8b"), mode="qlora")
        self.assertEqual(q["weights"], "nf4-dq")
        self.assertEqual(q["adapter_params"], 41943040)

    def test_overhead_accepts_units(self):
        r = hwfit.memory(config("llama-3.1-8b"), overhead="2GiB")
        self.assertEqual(r["overhead_bytes"], 2 << 30)

    def test_bad_arguments_raise(self):
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(config("llama-3.1-8b"), mode="pretrain")
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(config("llama-3.1-8b"), batch=-1)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(config("llama-3.1-8b"), context="lots")
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.memory(config("llama-3.1-8b"), mode="full", weights="q4_k")
        self.assertEqual(cm.exception.name, "HWFIT_EUNSUPPORTED")
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(config("llama-3.1-8b"), lora_targets="lm_head")


if __name__ == "__main__":
    unittest.main()

"""Weights as the checkpoint stores them, through the Python faces: the request layer's
memory and fit read quantization_config, and the ctypes mirror of hwfit_model carries the
stored formats (hwfit_model_stored)."""
import ctypes
import os
import unittest

import hwfit
from hwfit import _lib
from _needs import needs

DATA = os.environ.get("HWFIT_TEST_DATA",
                      os.path.join(os.path.dirname(__file__), "..", "..", "..", "tests", "data"))
DS = os.path.join(DATA, "models", "deepseek-v3.config.json")
GPTQ = os.path.join(DATA, "models", "qwen3-30b-a3b-gptq-int4.config.json")


class StoredFormats(unittest.TestCase):
    @needs("memory")
    def test_memory_counts_deepseek_v3_in_fp8_blocks_unless_weights_is_given(self):
        r = hwfit.memory(config=DS)
        self.assertEqual(r["weights_bytes"], 673150582112)
        self.assertEqual(r["stored"]["attention"], "fp8-b128")
        self.assertIn("quantization_config", r["weights_source"])
        given = hwfit.memory(config=DS, weights="bf16")
        self.assertEqual(given["weights_source"], "given")
        self.assertGreater(given["weights_bytes"], 2 * r["weights_bytes"] - 10**10)

    @needs("fit")
    def test_fit_says_where_the_formats_came_from(self):
        r = hwfit.fit(config=GPTQ, gpu="h100-sxm")
        self.assertEqual(r["weights"], "int4")
        self.assertTrue(r["weights_source"].startswith("stored: gptq"), r["weights_source"])

    def test_the_model_struct_carries_the_stored_formats(self):
        m = _lib.hwfit_model()
        err = _lib.hwfit_error()
        st = _lib.hwfit_hf_config_load(GPTQ.encode(), ctypes.byref(m), ctypes.byref(err))
        self.assertEqual(st, 0, err.message)
        self.assertEqual(m.stored.method, 3)  # HWFIT_MODEL_QUANT_GPTQ
        self.assertEqual(m.stored.attention.group_size, 128)
        self.assertEqual(m.layers, 48)


if __name__ == "__main__":
    unittest.main()

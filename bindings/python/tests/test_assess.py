"""The Python face of assessments (node files, workloads, findings)."""
import os
import unittest

import hwfit
from _needs import needs

SOURCE = os.environ.get("HWFIT_SOURCE_DIR",
                        os.path.join(os.path.dirname(__file__), "..", "..", ".."))
SPECS = os.path.join(SOURCE, "examples", "specs")
MODELS = os.environ.get("HWFIT_TEST_DATA", os.path.join(SOURCE, "tests", "data")) + "/models"
SEED = os.path.join(SPECS, "seed-server.json")


@needs("assess")
class TestAssess(unittest.TestCase):
    def test_every_example_node_is_read(self):
        for name in ("seed-server", "hgx-h100", "rtx4090-workstation", "cluster-2x-hgx-h100"):
            d = hwfit.assess(node=os.path.join(SPECS, name + ".json"))
            self.assertEqual(d["node"], name)
            self.assertGreater(d["gpus"], 0)

    def test_seed_figures(self):
        d = hwfit.assess(node=SEED)
        self.assertEqual((d["node"], d["nodes"], d["gpu"], d["gpus"]),
                         ("seed-server", 1, "rtx-pro-6000-server", 8))

    def test_assess_returns_findings(self):
        d = hwfit.assess(node=SEED, workload="serve:llama-3.1-70b:bf16:128K", models_dir=MODELS)
        rules = {f["rule"]: f for f in d["findings"]}
        self.assertEqual(rules["power.redundancy"]["kind"], "weakness")
        self.assertEqual(rules["host_ram.ratio"]["kind"], "strength")
        v = rules["vram.serve_llama_3_1_70b_bf16_128k"]
        w = {g["key"]: g["value"] for g in v["figures"]}
        self.assertEqual(w["weights_bytes"], 2 * 70553706496)
        # A list of one workload is the same as the workload.
        same = hwfit.assess(node=SEED, workload=["serve:llama-3.1-70b:bf16:128K"],
                            models_dir=MODELS)
        self.assertEqual(d, same)

    def test_assess_errors(self):
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.assess(node=SEED, workload="serve:missing-model", models_dir=MODELS)
        self.assertEqual(cm.exception.name, "HWFIT_EIO")
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.assess(node="/nonexistent/node.json")
        self.assertEqual(cm.exception.name, "HWFIT_EIO")
        self.assertEqual(cm.exception.option, "node")
        with self.assertRaises(hwfit.HwfitError):
            hwfit.assess(node=SEED, checkpoints=0)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.assess(node=SEED, pipeline_rate="fast")
        with self.assertRaises(TypeError):
            hwfit.assess(node=SEED, workload=[{}])
        with self.assertRaises(TypeError):
            hwfit.assess(node=42)


if __name__ == "__main__":
    unittest.main()

"""The Python face of node files and assessments."""
import os
import unittest

import hwfit

SOURCE = os.environ.get("HWFIT_SOURCE_DIR",
                        os.path.join(os.path.dirname(__file__), "..", "..", ".."))
SPECS = os.path.join(SOURCE, "examples", "specs")
MODELS = os.environ.get("HWFIT_TEST_DATA", os.path.join(SOURCE, "tests", "data")) + "/models"
SEED = os.path.join(SPECS, "seed-server.json")


class TestNode(unittest.TestCase):
    def test_load_node_reads_every_example(self):
        for name in ("seed-server", "hgx-h100", "rtx4090-workstation", "cluster-2x-hgx-h100"):
            n = hwfit.load_node(os.path.join(SPECS, name + ".json"))
            self.assertEqual(n.name, name)
            e = n.evaluate()
            self.assertGreater(e["load_w"], 0)
            self.assertEqual(e["total_gpus"], n.gpus * n.nodes)

    def test_seed_figures(self):
        n = hwfit.load_node(SEED)
        self.assertEqual((n.gpu, n.gpus, n.nodes), ("rtx-pro-6000-server", 8, 1))
        e = n.evaluate()
        self.assertEqual(e["vram_bytes"], 768 * 2**30)  # 8 x 96 GiB
        self.assertEqual(e["ram_bytes"], 1536 * 2**30)  # 24 x 64 GiB
        self.assertEqual(e["usable_w"], 6400)           # N+2 of 4 x 3,200 W
        self.assertAlmostEqual(e["memory_bandwidth_bytes_per_s"], 1228.8e9, delta=1)
        self.assertEqual(e["currency"], "EUR")
        # The ctypes mirror matches the C layout up to the last field.
        self.assertEqual(n.raw.costs.currency, b"EUR")
        self.assertAlmostEqual(n.raw.costs.energy.price_per_kwh, 0.18)

    def test_parse_node_and_errors(self):
        with open(SEED) as f:
            text = f.read()
        self.assertEqual(hwfit.parse_node(text, "seed.json").name, "seed-server")
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.parse_node(text.replace('"count": 8', '"count": 0'), "seed.json")
        self.assertEqual(cm.exception.name, "HWFIT_EPARSE")
        self.assertIn("seed.json", str(cm.exception))
        self.assertIn("key 'count'", str(cm.exception))
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.load_node("/nonexistent/node.json")
        self.assertEqual(cm.exception.name, "HWFIT_EIO")
        with self.assertRaises(hwfit.HwfitError):
            hwfit.load_node(42)

    def test_assess_returns_findings(self):
        d = hwfit.assess(node=SEED, workload="serve:llama-3.1-70b:bf16:128K", models_dir=MODELS)
        rules = {f["rule"]: f for f in d["findings"]}
        self.assertEqual(rules["power.redundancy"]["kind"], "weakness")
        self.assertEqual(rules["host_ram.ratio"]["kind"], "strength")
        v = rules["vram.serve_llama_3_1_70b_bf16_128k"]
        w = {g["key"]: g["value"] for g in v["figures"]}
        self.assertEqual(w["weights_bytes"], 2 * 70553706496)
        # A Node works as well as a path.
        same = hwfit.assess(node=hwfit.load_node(SEED), workload=["serve:llama-3.1-70b:bf16:128K"],
                            models_dir=MODELS)
        self.assertEqual(d, same)

    def test_assess_errors(self):
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.assess(node=SEED, workload="serve:missing-model", models_dir=MODELS)
        self.assertEqual(cm.exception.name, "HWFIT_EIO")
        with self.assertRaises(hwfit.HwfitError):
            hwfit.assess(node=SEED, workload=[7])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.assess(node=SEED, checkpoints=0)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.assess(node=SEED, pipeline_rate="fast")


if __name__ == "__main__":
    unittest.main()

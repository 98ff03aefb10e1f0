"""Cards of one's own: --gpu-file and HWFIT_GPU_PATH on the commands that take --gpu."""
import json
import os
import subprocess
import tempfile
import unittest

from clitest import CLI, TEST_DATA, CliCase, run

L20 = {
    "name": "my-l20", "vendor": "nvidia", "memory_bytes": "48GB",
    "memory_bandwidth_bytes_per_s": "864GB/s", "tdp_w": "275W",
    "fp32_flop_per_s": "59.8TFLOPS", "fp16_bf16_flop_per_s": "119.5TFLOPS",
    "fp8_flop_per_s": "239TFLOPS", "int8_op_per_s": "239TOPS", "sparsity": True,
    "source": "NVIDIA L20 datasheet",
}


def run_env(env, *args):
    if not CLI:
        raise unittest.SkipTest("HWFIT_CLI not set (run through ctest)")
    full = dict(os.environ)
    full.update(env)
    p = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=120, env=full)
    return p.returncode, p.stdout, p.stderr


class TestGpuFile(CliCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def write(self, name, content):
        path = os.path.join(self.dir.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(content if isinstance(content, str) else json.dumps(content, indent=1))
        return path

    def test_gpus_lists_the_file_after_the_catalog(self):
        path = self.write("l20.json", L20)
        base = self.ok_json("gpus")["gpus"]
        rows = self.ok_json("gpus", "--gpu-file", path)["gpus"]
        self.assertEqual(rows[:-1], base)
        mine = rows[-1]
        self.assertEqual(mine["name"], "my-l20")
        self.assertEqual(mine["memory_bytes"], 48 << 30)  # "48GB" read as GiB, as the catalog
        self.assertEqual(mine["memory_bandwidth_bytes_per_s"], 864e9)
        self.assertEqual(mine["fp16_bf16_flop_per_s"], 119.5e12)
        self.assertEqual(mine["int8_op_per_s"], 239e12)
        one = self.ok_json("gpus", "my-l20", "--gpu-file", path)["gpus"]
        self.assertEqual(one, [mine])
        out = self.ok_table("gpus", "my-l20", "--gpu-file", path)
        self.assertIn("source: NVIDIA L20 datasheet", out)

    def test_a_catalog_row_round_trips_through_a_file(self):
        row = next(r for r in self.ok_json("gpus")["gpus"] if r["name"] == "h100-sxm")
        mine = dict(row, name="my-h100")
        path = self.write("h100.json", {"gpus": [mine]})
        got = self.ok_json("gpus", "my-h100", "--gpu-file", path)["gpus"][0]
        self.assertEqual(got, mine)

    def test_fit_and_perf_use_a_card_of_the_file(self):
        path = self.write("l20.json", L20)
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        d = self.ok_json("fit", "--config", cfg, "--gpu", "my-l20", "--gpu-file", path)
        self.assertEqual(d["gpu"], "my-l20")
        ref = self.ok_json("fit", "--config", cfg, "--capacity", "48GiB")
        self.assertEqual(d["gpu_capacity_bytes"], 48 << 30)
        for key in ("fits", "per_gpu_bytes", "gpu_capacity_bytes", "headroom_bytes"):
            self.assertEqual(d[key], ref[key], key)
        # The option order does not matter: --gpu before --gpu-file.
        p = self.ok_json("perf", "--gpu", "my-l20", "--config", cfg, "--gpu-file", path)
        self.assertIn("my-l20", json.dumps(p))

    def test_several_files_and_the_environment(self):
        a = self.write("a.json", L20)
        b = self.write("b.json", [dict(L20, name="my-l20-b", tdp_w="300W")])
        rc, out, err = run_env({"HWFIT_GPU_PATH": a + "::" + b}, "gpus", "--json")
        self.assertEqual(rc, 0, err)
        names = [r["name"] for r in json.loads(out)["gpus"]]
        self.assertEqual(names[-2:], ["my-l20", "my-l20-b"])
        c = self.write("c.json", dict(L20, name="my-l20-c"))
        rc, out, err = run_env({"HWFIT_GPU_PATH": a}, "gpus", "my-l20-c", "--gpu-file", c,
                               "--json")
        self.assertEqual(rc, 0, err)
        self.assertEqual(json.loads(out)["gpus"][0]["name"], "my-l20-c")
        # The same card from the environment and from --gpu-file: its name is taken.
        rc, out, err = run_env({"HWFIT_GPU_PATH": a}, "gpus", "--gpu-file", a)
        self.assertEqual(rc, 2)
        self.assertIn("--gpu-file", err)
        self.assertIn("already taken", err)

    def test_errors_name_the_file_line_and_column(self):
        bad = self.write("bad.json", '{"name": "x1",\n "memory_bytes": "24GB",\n'
                         ' "memory_bandwidth_bytes_per_s": "1TB/s", "tdp_w": "-5W",\n'
                         ' "fp32_flop_per_s": 1e13, "fp16_bf16_flop_per_s": 2e13}\n')
        err = self.bad("gpus", "--gpu-file", bad, mentions="--gpu-file: 3:52: ")
        self.assertIn("bad.json", err)
        self.assertIn("key 'tdp_w'", err)
        rc, out, err = run_env({"HWFIT_GPU_PATH": bad}, "gpus")
        self.assertEqual(rc, 2)
        self.assertEqual(out, "")
        self.assertIn("HWFIT_GPU_PATH: 3:52: ", err)
        self.bad("gpus", "--gpu-file", os.path.join(self.dir.name, "none.json"),
                 mentions="--gpu-file")
        builtin = self.write("builtin.json", dict(L20, name="h100-sxm"))
        self.bad("gpus", "--gpu-file", builtin, mentions="built-in card")

    def test_unknown_names_suggest_the_files_cards(self):
        path = self.write("l20.json", L20)
        self.bad("gpus", "my-l2", "--gpu-file", path, mentions="did you mean 'my-l20'?")
        cfg = os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json")
        self.bad("fit", "--config", cfg, "--gpu", "my-l2", "--gpu-file", path,
                 mentions="--gpu: unknown GPU 'my-l2'")
        self.bad("gpus", "my-l20", mentions="unknown GPU 'my-l20'")

    def test_collective_takes_the_files_cards(self):
        path = self.write("l20.json", L20)
        d = self.ok_json("collective", "--gpu", "my-l20", "--gpu-file", path, "--gpus", "4")
        ref = self.ok_json("collective", "--gpu", "l40s", "--gpus", "4")
        self.assertIn("my-l20", json.dumps(d))
        self.assertEqual(set(d), set(ref))
        self.bad("collective", "--gpu", "my-l20", mentions="unknown GPU 'my-l20'")

    def test_assess_reads_a_node_whose_card_is_inline(self):
        spec = os.path.join(os.path.dirname(TEST_DATA), "..", "examples", "specs",
                            "hgx-h100.json")
        with open(spec, encoding="utf-8") as f:
            node = json.load(f)
        node["gpu"]["model"] = dict(L20, name="my-card")
        path = self.write("node.json", node)
        d = self.ok_json("assess", "--node", path)
        self.assertIn("my-card", json.dumps(d))
        # The card of a GPU file, named by the node file.
        node["gpu"]["model"] = "my-l20"
        named = self.write("named.json", node)
        cards = self.write("l20.json", L20)
        d = self.ok_json("assess", "--node", named, "--gpu-file", cards)
        self.assertIn("my-l20", json.dumps(d))
        self.bad("assess", "--node", named, mentions="my-l20")

    def test_help_lists_the_option(self):
        for cmd in ("fit", "plan", "perf", "gpus", "collective", "assess"):
            rc, out, err = run(cmd, "--help")
            self.assertEqual(rc, 0, err)
            self.assertIn("--gpu-file FILE", out)


if __name__ == "__main__":
    unittest.main()

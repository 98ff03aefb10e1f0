"""hwfit assess: the seed server and the other example nodes, text, Markdown, JSON, bad input."""
import os
import tempfile
import unittest

from clitest import CliCase, SOURCE_DIR, TEST_DATA

SPECS = os.path.join(SOURCE_DIR, "examples", "specs")
MODELS = os.path.join(TEST_DATA, "models")
SEED = os.path.join(SPECS, "seed-server.json")


def finding(d, rule):
    for f in d["findings"]:
        if f["rule"] == rule:
            return f
    raise AssertionError(f"no finding {rule}")


def figure(f, key):
    for g in f["figures"]:
        if g["key"] == key:
            return g["value"]
    raise AssertionError(f"{f['rule']} has no figure {key}")


class TestAssess(CliCase):
    def test_seed_server_json(self):
        d = self.ok_json("assess", "--node", SEED, "--models-dir", MODELS,
                         "--workload", "serve:llama-3.1-70b:bf16:128K",
                         "--workload", "qlora:llama-3.1-70b", "--workload", "full:llama-3.1-8b")
        self.assertEqual(d["node"], "seed-server")
        self.assertEqual(d["gpus"], 8)
        self.assertEqual([w["label"] for w in d["workloads"]],
                         ["serve:llama-3.1-70b:bf16:128K", "qlora:llama-3.1-70b",
                          "full:llama-3.1-8b"])
        self.assertEqual(sum(d["counts"].values()), len(d["findings"]))
        # N+2 of 4 x 3,200 W: 6,400 W usable, below the 6,462 W budget.
        p = finding(d, "power.redundancy")
        self.assertEqual(p["kind"], "weakness")
        self.assertEqual(figure(p, "usable_w"), 6400)
        # 12 x 6400 MT/s x 8 B = 614.4 GB/s per socket.
        self.assertAlmostEqual(figure(finding(d, "host_memory.bandwidth"),
                                      "per_socket_bytes_per_s"), 614.4e9, delta=1)
        lanes = finding(d, "pcie.lane_budget")
        self.assertEqual((figure(lanes, "lanes_needed"), figure(lanes, "lanes_available")),
                         (176, 128))
        v = finding(d, "vram.serve_llama_3_1_70b_bf16_128k")
        self.assertEqual(v["workload"], "serve:llama-3.1-70b:bf16:128K")
        self.assertEqual(figure(v, "weights_bytes"), 70553706496 * 2)
        for f in d["findings"]:
            self.assertIn(f["kind"], ("strength", "weakness", "info"))
            self.assertTrue(f["text"])

    def test_text_and_markdown_reports(self):
        out = self.ok_table("assess", "--node", SEED)
        self.assertIn("Assessment of seed-server", out)
        self.assertIn("[power.redundancy]", out)
        self.assertIn("6.4 kW usable", out)
        md = self.ok_table("assess", "--node", SEED, "--markdown", "--models-dir", MODELS,
                           "--workload", "full:llama-3.1-8b")
        self.assertTrue(md.startswith("# Assessment of seed-server"))
        self.assertIn("## Power supplies", md)
        self.assertIn("**-**", md)
        self.assertIn("`full:llama-3.1-8b`", md)

    def test_other_nodes_make_sense(self):
        h = self.ok_json("assess", "--node", os.path.join(SPECS, "hgx-h100.json"))
        self.assertEqual(finding(h, "interconnect.peer_links")["kind"], "strength")
        self.assertEqual(finding(h, "power.redundancy")["kind"], "strength")
        w = self.ok_json("assess", "--node", os.path.join(SPECS, "rtx4090-workstation.json"))
        self.assertEqual(finding(w, "interconnect.p2p")["kind"], "weakness")
        c = self.ok_json("assess", "--node", os.path.join(SPECS, "cluster-2x-hgx-h100.json"))
        self.assertEqual(c["nodes"], 2)
        self.assertEqual(c["gpus"], 16)
        self.assertEqual(figure(finding(c, "interconnect.allreduce"), "ranks"), 16)

    def test_options(self):
        d = self.ok_json("assess", "--node", SEED, "--pipeline-rate", "100GB/s")
        self.assertEqual(finding(d, "storage.throughput")["kind"], "weakness")
        d = self.ok_json("assess", "--node", SEED, "--allreduce-size", "64MiB")
        self.assertEqual(figure(finding(d, "interconnect.allreduce"), "bytes"), 64 * 2**20)

    def test_bad_input(self):
        self.bad("assess", mentions="--node")
        self.bad("assess", "--node", "/nonexistent.json", mentions="/nonexistent.json")
        self.bad("assess", "--node", SEED, "--workload", "serve:nope", "--models-dir", MODELS,
                 mentions="nope.config.json")
        self.bad("assess", "--node", SEED, "--workload", "train:llama-3.1-8b",
                 mentions="unknown mode")
        self.bad("assess", "--node", SEED, "--workload", "full:llama-3.1-8b:int4",
                 "--models-dir", MODELS, mentions="full:llama-3.1-8b:int4")
        self.bad("assess", "--node", SEED, "--checkpoints", "0")
        self.bad("assess", "--node", SEED, "--pipeline-rate", "0")
        rc_out = self.bad("assess", "--node", SEED, "--markdown", "--json")
        self.assertIn("exclude", rc_out)
        with open(SEED) as src:
            text = src.read().replace('"psus": 4', '"psus": 0')
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            f.write(text)
        try:
            self.bad("assess", "--node", f.name, mentions="key 'psus'")
        finally:
            os.unlink(f.name)


if __name__ == "__main__":
    unittest.main()

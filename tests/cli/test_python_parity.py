"""The contract between the faces: every command of the request layer (`hwfit --describe`)
has a Python function of the same name whose signature lists the command's options as
keyword arguments (dashes become underscores, positional options may also be given by
position) with their defaults, and a few commands' dicts equal the CLI's --json.

Both faces send their options to the same library request, so the dicts are equal by
construction; CASES keeps a few of each command as a check of the conversions (numbers,
lists, flags, the `class_` spelling): (subcommand, CLI args, Python kwargs). A case whose
command is not yet served by the request layer is skipped.
"""
import inspect
import json
import os
import sys
import unittest

from clitest import CliCase, SOURCE_DIR, TEST_DATA, run

sys.path.insert(0, os.path.join(os.environ.get("HWFIT_SOURCE_DIR", ""), "bindings", "python"))
import hwfit  # noqa: E402

CASES = [
    ("units", ["15.36TB", "--unit", "bytes"], dict(value="15.36TB", unit="bytes")),
    ("units", ["400Gb/s", "--unit", "bytes/s"], dict(value="400Gb/s", unit="bytes/s")),
    ("units", ["4096"], dict(value=4096)),
    ("raid", ["--level", "6", "--drives", "4", "--drive-size", "15.36TB", "--ber", "1e-15",
              "--rebuild-rate", "1GB/s", "--mttf", "2e6h", "--read-rate", "14GB/s",
              "--write-rate", "10GB/s", "--read-iops", "3300000", "--write-iops", "400000"],
     dict(level="6", drives=4, drive_size="15.36TB", ber=1e-15, rebuild_rate="1GB/s",
          mttf="2e6h", read_rate="14GB/s", write_rate="10GB/s", read_iops=3300000,
          write_iops="400000")),
    ("raid", ["--level", "draid2:8d:1s", "--drives", "24", "--drive-size", "7.68TB",
              "--recordsize", "1MiB", "--spares", "1", "--fill", "0.8"],
     dict(level="draid2:8d:1s", drives=24, drive_size="7.68TB", recordsize="1MiB", spares=1,
          fill=0.8)),
    ("transfer", ["--size", "768GB", "--rate", "800Gb/s", "--transport", "nvmeof-roce",
                  "--capacity", "200TB"],
     dict(size="768GB", rate="800Gb/s", transport="nvmeof-roce", capacity="200TB")),
    ("transfer", ["--size", "140GB", "--rate", "14GB/s"], dict(size="140GB", rate="14GB/s")),
    ("power", ["--psus", "4", "--psu-watts", "3200", "--redundant", "1", "--load", "6500W",
               "--headroom", "1.3", "--class", "titanium", "--input-voltage", "230",
               "--price", "0.18/kWh", "--pue", "1.4"],
     {"psus": 4, "psu_watts": "3200", "redundant": "1", "load": "6500W", "headroom": 1.3,
      "class": "titanium", "input_voltage": 230, "price": "0.18/kWh", "pue": 1.4}),
    ("power", ["--psus", "4", "--psu-watts", "3.2kW", "--redundant", "N+2",
               "--component", "gpu:8:600W", "--component", "cpu:2:400W",
               "--component", "dimm:24:10W", "--transient", "1.3", "--capex", "150000",
               "--opex", "5000", "--years", "4", "--class", "platinum"],
     dict(psus=4, psu_watts="3.2kW", redundant="N+2",
          component=["gpu:8:600W", "cpu:2:400W", "dimm:24:10W"], transient=1.3,
          capex=150000, opex=5000, years=4, class_="platinum")),
    ("host", ["--sockets", "2", "--channels", "12", "--dimms", "24", "--mts", "6400",
              "--cores", "128", "--gpus", "8", "--ram", "1.5TB", "--vram", "768GB",
              "--lanes", "128", "--nvme", "4", "--nics", "2", "--switches", "4"],
     dict(sockets=2, channels=12, dimms=24, mts=6400, cores=128, gpus=8, ram="1.5TB",
          vram="768GB", lanes=128, nvme=4, nics=2, switches=4)),
    ("host", ["--sockets", "2", "--channels", "12", "--dimms", "24", "--mts", "6400"],
     dict(sockets=2, channels=12, dimms=24, mts=6400)),
    ("dtypes", [], {}),
    ("model", ["--config", os.path.join(TEST_DATA, "models", "deepseek-v3.config.json"),
               "--weights", "fp8", "--context", "128K"],
     dict(config=os.path.join(TEST_DATA, "models", "deepseek-v3.config.json"), weights="fp8",
          context="128K")),
    ("model", ["--config", os.path.join(TEST_DATA, "models", "gemma-2-9b-it.config.json"),
               "--kv", "q8_0", "--batch", "4", "--mtp"],
     dict(config=os.path.join(TEST_DATA, "models", "gemma-2-9b-it.config.json"), kv="q8_0",
          batch=4, mtp=True)),
    # Framework profiles and the options given alone over them (profile.h).
    ("memory", ["--config", os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json"),
                "--mode", "lora", "--context", "2048", "--micro-batch", "2", "--lora-targets",
                "q,v", "--framework", "torchtune", "--loss", "upcast", "--dora"],
     dict(config=os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json"), mode="lora",
          context=2048, micro_batch=2, lora_targets="q,v", framework="torchtune",
          loss="upcast", dora=True)),
    ("fit", ["--config", os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json"),
             "--capacity", "80GiB", "--gpus", "2", "--mode", "full", "--dp", "2", "--zero", "3",
             "--framework", "deepspeed", "--optimizer", "adamw-8bit", "--mlp-weights", "bf16"],
     dict(config=os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json"),
          capacity="80GiB", gpus=2, mode="full", dp=2, zero=3, framework="deepspeed",
          optimizer="adamw-8bit", mlp_weights="bf16")),
    ("memory", ["--config", os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json"),
                "--mode", "qlora", "--lora-rank", "64", "--lora-targets", "q_proj,v_proj",
                "--recompute", "full", "--micro-batch", "2"],
     dict(config=os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json"), mode="qlora",
          lora_rank=64, lora_targets="q_proj,v_proj", recompute="full", micro_batch=2)),
    ("memory", ["--config", os.path.join(TEST_DATA, "models",
                                         "mixtral-8x7b-instruct-v0.1.config.json"),
                "--weights", "q4_k", "--kv", "fp8", "--batch", "8", "--context", "32K",
                "--overhead", "2GiB", "--no-flash-attention"],
     dict(config=os.path.join(TEST_DATA, "models", "mixtral-8x7b-instruct-v0.1.config.json"),
          weights="q4_k", kv="fp8", batch=8, context="32K", overhead="2GiB",
          no_flash_attention=True)),
    ("memory", ["--config", os.path.join(TEST_DATA, "models", "qwen3-8b.config.json"),
                "--mode", "full", "--optimizer", "adamw-8bit", "--gradients", "fp32",
                "--tensor-parallel", "2", "--no-dropout"],
     dict(config=os.path.join(TEST_DATA, "models", "qwen3-8b.config.json"), mode="full",
          optimizer="adamw-8bit", gradients="fp32", tensor_parallel=2, no_dropout=True)),
    ("gpus", [], dict()),
    ("gpus", ["rtx-pro-6000-server"], dict(name="rtx-pro-6000-server")),
    ("link", ["pcie5x16"], dict(name="pcie5x16")),
    ("link", ["2x400g-roce", "--payload", "2KiB"], dict(name="2x400g-roce", payload="2KiB")),
    ("link", ["8x400g-ib"], dict(name="8x400g-ib")),
    ("collective", [], dict()),
    ("collective", ["--op", "alltoall", "--size", "64MiB", "--gpu", "h100-sxm", "--nodes", "2",
                    "--nic", "8x400g-ib", "--cpu", "intel"],
     dict(op="alltoall", size="64MiB", gpu="h100-sxm", nodes=2, nic="8x400g-ib", cpu="intel")),
    ("collective", ["--p2p", "on", "--pcie-switches", "2", "--pcie-lanes", "8", "--sweep",
                    "--size", "1MiB", "--min-size", "1KiB", "--library", "any"],
     dict(p2p="on", pcie_switches=2, pcie_lanes=8, sweep=True, size="1MiB", min_size="1KiB",
          library="any")),
    ("collective", ["--algorithm", "tree", "--protocol", "ll", "--ranks", "4", "--gdr", "off"],
     dict(algorithm="tree", protocol="ll", ranks=4, gdr="off")),
    ("fit", ["--config", os.path.join(TEST_DATA, "models", "llama-3.1-70b.config.json"),
             "--gpu", "rtx-pro-6000-server", "--gpus", "8", "--context", "128K"],
     dict(config=os.path.join(TEST_DATA, "models", "llama-3.1-70b.config.json"),
          gpu="rtx-pro-6000-server", gpus=8, context="128K")),
    ("fit", ["--config", os.path.join(TEST_DATA, "models", "llama-3.1-70b.config.json"),
             "--gpu", "rtx-pro-6000-server", "--gpus", "8", "--mode", "full", "--zero", "3",
             "--offload", "optimizer,params", "--host-memory", "1.5TB", "--recompute", "full",
             "--batch", "16", "--max-gpus", "16"],
     dict(config=os.path.join(TEST_DATA, "models", "llama-3.1-70b.config.json"),
          gpu="rtx-pro-6000-server", gpus=8, mode="full", zero=3, offload="optimizer,params",
          host_memory="1.5TB", recompute="full", batch=16, max_gpus=16)),
    ("fit", ["--config", os.path.join(TEST_DATA, "models", "mixtral-8x7b-instruct-v0.1.config.json"),
             "--capacity", "80GiB", "--gpus", "4", "--pp", "2", "--weights", "fp8",
             "--utilization", "0.95", "--reserve", "2GiB", "--batch", "32"],
     dict(config=os.path.join(TEST_DATA, "models", "mixtral-8x7b-instruct-v0.1.config.json"),
          capacity="80GiB", gpus=4, pp=2, weights="fp8", utilization=0.95, reserve="2GiB",
          batch=32)),
    ("plan", ["--config", os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json"),
              "--gpu", "rtx-pro-6000-server", "--gpus", "8", "--mode", "lora", "--top", "5",
              "--batch", "64", "--offload", "any"],
     dict(config=os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json"),
          gpu="rtx-pro-6000-server", gpus=8, mode="lora", top=5, batch=64, offload="any")),
    ("plan", ["--config", os.path.join(TEST_DATA, "models", "llama-3.1-405b.config.json"),
              "--gpu", "rtx-pro-6000-server", "--gpus", "8", "--weights", "int4"],
     dict(config=os.path.join(TEST_DATA, "models", "llama-3.1-405b.config.json"),
          gpu="rtx-pro-6000-server", gpus=8, weights="int4")),
    ("plan", ["--config", os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json"),
              "--capacity", "48GiB", "--gpus", "4", "--mode", "full", "--top", "3"],
     dict(config=os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json"),
          capacity="48GiB", gpus=4, mode="full", top=3)),
    ("perf", ["--config", os.path.join(TEST_DATA, "models", "llama-3.1-70b.config.json"),
              "--gpu", "rtx-pro-6000-server", "--gpus", "8", "--weights", "nvfp4", "--kv", "fp8",
              "--context", "1000", "--output-tokens", "1000", "--batch", "912",
              "--target-rate", "17500"],
     dict(config=os.path.join(TEST_DATA, "models", "llama-3.1-70b.config.json"),
          gpu="rtx-pro-6000-server", gpus=8, weights="nvfp4", kv="fp8", context=1000,
          output_tokens=1000, batch=912, target_rate=17500)),
    ("perf", ["--config", os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json"),
              "--gpu", "h100-sxm", "--gpus", "16", "--nic", "8x400g-ib", "--mode", "full",
              "--batch", "128", "--tp", "8", "--recompute", "selective", "--dp-overlap", "0.8",
              "--step-overhead", "1ms", "--precision", "bf16"],
     dict(config=os.path.join(TEST_DATA, "models", "llama-3.1-8b.config.json"),
          gpu="h100-sxm", gpus=16, nic="8x400g-ib", mode="full", batch=128, tp=8,
          recompute="selective", dp_overlap=0.8, step_overhead="1ms", precision="bf16")),
    ("assess", ["--node", os.path.join(SOURCE_DIR, "examples", "specs", "seed-server.json"),
                "--models-dir", os.path.join(TEST_DATA, "models"),
                "--workload", "serve:llama-3.1-70b:bf16:128K", "--workload", "qlora:llama-3.1-70b",
                "--pipeline-rate", "10GB/s", "--checkpoints", "3", "--max-tpot", "30ms",
                "--max-comm-share", "0.5"],
     dict(node=os.path.join(SOURCE_DIR, "examples", "specs", "seed-server.json"),
          models_dir=os.path.join(TEST_DATA, "models"),
          workload=["serve:llama-3.1-70b:bf16:128K", "qlora:llama-3.1-70b"],
          pipeline_rate="10GB/s", checkpoints=3, max_tpot="30ms", max_comm_share=0.5)),
    ("assess", ["--node", os.path.join(SOURCE_DIR, "examples", "specs", "cluster-2x-hgx-h100.json"),
                "--allreduce-size", "256MiB"],
     dict(node=os.path.join(SOURCE_DIR, "examples", "specs", "cluster-2x-hgx-h100.json"),
          allreduce_size="256MiB")),
]


def keys(obj, prefix=""):
    """All key paths of a JSON value; list items merge into one path."""
    out = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.add(prefix + k)
            out |= keys(v, prefix + k + ".")
    elif isinstance(obj, list):
        for v in obj:
            out |= keys(v, prefix + "[].")
    return out


def keyword(name):
    kw = name.replace("-", "_")
    return kw + "_" if kw == "class" else kw


class TestParity(CliCase):
    def describe(self):
        rc, out, err = run("--describe")
        self.assertEqual((rc, err), (0, ""))
        return json.loads(out)

    def test_every_command_has_a_function_with_its_signature(self):
        d = self.describe()
        self.assertEqual(d, hwfit.describe())
        self.assertTrue(d["commands"])
        for c in d["commands"]:
            with self.subTest(c["name"]):
                fn = getattr(hwfit, keyword(c["name"]), None)
                self.assertTrue(callable(fn), f"hwfit.{keyword(c['name'])} is missing")
                params = list(inspect.signature(fn).parameters.values())
                opts = sorted(c["options"], key=lambda o: not o["positional"])
                self.assertEqual([p.name for p in params], [keyword(o["name"]) for o in opts])
                for p, o in zip(params, opts):
                    self.assertEqual(p.kind, inspect.Parameter.POSITIONAL_OR_KEYWORD
                                     if o["positional"] else inspect.Parameter.KEYWORD_ONLY)
                    if o["kind"] == "flag":
                        self.assertIs(p.default, False)
                    elif o["default"] is None:
                        self.assertIsNone(p.default, o["name"])
                    elif isinstance(p.default, (int, float)):
                        self.assertEqual(p.default, float(o["default"]), o["name"])
                    else:
                        self.assertEqual(p.default, o["default"], o["name"])
                    self.assertIn(o["help"], fn.__doc__)

    def test_python_returns_the_cli_json(self):
        served = {c["name"] for c in self.describe()["commands"]}
        ran = 0
        for name, args, kwargs in CASES:
            if name not in served:
                continue
            with self.subTest(name):
                cli = self.ok_json(name, *args)
                py = getattr(hwfit, keyword(name))(**kwargs)
                self.assertIsInstance(py, hwfit.Result)
                self.assertEqual(keys(cli), keys(py))
                self.assertEqual(cli, py)
                ran += 1
        self.assertGreater(ran, 0)


if __name__ == "__main__":
    unittest.main()

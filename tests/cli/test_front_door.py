"""The front door (issue #15): --model and its --config alias, the man page and bash
completion generated from the option tables."""
import json
import os
import unittest

from clitest import CliCase, TEST_DATA, run


def config(name):
    return os.path.join(TEST_DATA, "models", name + ".config.json")


MODEL_COMMANDS = ("fit", "plan", "perf", "memory", "model", "serve")


class TestModelOption(CliCase):
    def test_model_and_config_give_the_same_answer(self):
        c = config("llama-3.1-8b")
        for cmd in ("model", "memory"):
            with self.subTest(cmd):
                self.assertEqual(self.ok_json(cmd, "--model", c), self.ok_json(cmd, "--config", c))

    def test_every_model_command_documents_the_alias(self):
        for cmd in MODEL_COMMANDS:
            with self.subTest(cmd):
                out = self.ok_table(cmd, "--help")
                self.assertIn(f"usage: hwfit {cmd} --model MODEL", out)
                self.assertIn("also --config", out)

    def test_refusals_name_the_option_as_spelled(self):
        self.bad("memory", "--config", "/nonexistent.json", mentions="--config: ")
        self.bad("memory", "--model", "/nonexistent.json", mentions="--model: ")
        self.bad("fit", "--gpu", "l40s", mentions="--model: is required")

    def test_model_takes_config_text(self):
        with open(config("llama-3.1-8b")) as f:
            text = json.dumps(json.load(f))
        self.assertEqual(self.ok_json("model", "--model", text),
                         self.ok_json("model", "--model", config("llama-3.1-8b")))
        self.bad("model", "--model", '{"model_type": ', mentions="config JSON text")


if __name__ == "__main__":
    unittest.main()


class TestAdapterRecompute(CliCase):
    """LoRA and QLoRA default to full recomputation (the recipes' default), and say so."""

    def test_memory_default_and_its_reason(self):
        c = config("llama-3.1-70b")
        d = self.ok_json("memory", "--model", c, "--mode", "qlora")
        self.assertEqual((d["recompute"], d["recompute_source"]),
                         ("full", "LoRA/QLoRA recipes' default"))
        self.assertAlmostEqual(d["total_bytes"] / 1e9, 52.7, delta=0.1)  # issue #15
        out = self.ok_table("memory", "--model", c, "--mode", "qlora")
        self.assertIn("LoRA/QLoRA recipes' default", out)
        d = self.ok_json("memory", "--model", c, "--mode", "qlora", "--recompute", "none")
        self.assertEqual(d["recompute_source"], "given")
        self.assertGreater(d["total_bytes"], 141e9)

    def test_fit_prints_the_searched_choice(self):
        d = self.ok_json("fit", "--model", config("llama-3.1-8b"), "--gpu", "h100-sxm",
                         "--mode", "lora")
        self.assertIn(d["assumptions"]["recompute"], ("none", "selective", "full"))
        self.assertEqual(d["assumptions"]["recompute"], d["layout"]["recompute"])
        self.assertEqual(d["assumptions"]["recompute_source"], "searched")


class TestPlanOneGlobalBatch(CliCase):
    """plan ranks every layout at one global batch: the user's, else about 4M tokens."""
    L70 = ("--gpu", "h100-sxm", "--gpus", "16", "--mode", "full", "--nic", "8x400g-ib")

    def plan(self, *extra):
        return self.ok_json("plan", "--model", config("llama-3.1-70b"), *self.L70, *extra)

    def test_default_is_4m_tokens_for_every_layout(self):
        d = self.plan("--top", "20")
        self.assertEqual((d["global_batch"], d["global_batch_tokens"]), (1024, 4194304))
        self.assertIn("4M tokens", d["global_batch_source"])
        self.assertEqual(d["ranked_by"], "step_time")
        rows = d["layouts"]
        self.assertTrue(rows)
        self.assertEqual({r["global_batch"] for r in rows}, {1024})
        times = [r["step_time_s"] for r in rows]
        self.assertEqual(times, sorted(times))
        # 8,192 tokens: 512 sequences; 3,000 tokens: 4M/3000 = 1398 -> 1024 (nearest power of 2)
        self.assertEqual(self.plan("--context", "8192", "--top", "1")["global_batch"], 512)
        self.assertEqual(self.plan("--context", "3000", "--top", "1")["global_batch"], 1024)
        given = self.plan("--batch", "256", "--top", "3")
        self.assertEqual((given["global_batch"], given["global_batch_source"]), (256, "given"))
        self.assertNotIn("global batch (sequences)", self.ok_table(
            "plan", "--model", config("llama-3.1-8b"), "--gpu", "h100-sxm", "--top", "1"))

    def test_layouts_that_do_not_divide_the_batch_are_not_ranked(self):
        d = self.ok_json("plan", "--model", config("llama-3.1-8b"), "--gpu", "h100-sxm",
                         "--gpus", "6", "--mode", "full", "--top", "50")
        self.assertEqual(d["global_batch"], 1024)
        for r in d["layouts"]:
            self.assertEqual(1024 % (r["dp"] * r["micro_batch"]), 0, r)
        self.assertNotIn(3, {r["dp"] for r in d["layouts"]})  # 1024 is not a multiple of 3

    def test_top_rows_are_what_perf_gives_at_that_batch(self):
        d = self.plan("--top", "5")
        for r in d["layouts"]:
            args = ["perf", "--model", config("llama-3.1-70b"), *self.L70,
                    "--batch", str(d["global_batch"])]
            for k in ("tp", "pp", "dp", "cp", "ep", "etp", "zero", "recompute", "offload"):
                args += [f"--{k}", str(r[k])]
            args += ["--virtual-stages", str(r["virtual_stages"]),
                     "--micro-batch", str(r["micro_batch"]),
                     "--sequence-parallel" if r["sequence_parallel"] else "--no-sequence-parallel"]
            p = self.ok_json(*args)
            with self.subTest(rank=r["rank"]):
                self.assertAlmostEqual(p["step_time_s"], r["step_time_s"], delta=1e-9 * p["step_time_s"])
                self.assertAlmostEqual(p["tokens_per_s"], r["tokens_per_s"], delta=1e-9 * p["tokens_per_s"])
                self.assertEqual(p["batch"], d["global_batch"])


class TestCollectiveNcclColumns(CliCase):
    """collective --sweep --columns nccl: nccl-tests' out-of-place columns
    (NVIDIA/nccl-tests src/common.cu print_header; count = the op's paramcount)."""

    def test_table_and_csv_in_nccl_tests_columns(self):
        args = ("collective", "--sweep", "--min-size", "1MiB", "--size", "4MiB",
                "--gpu", "h100-sxm", "--columns", "nccl")
        out = self.ok_table(*args)
        head = out.splitlines()[[i for i, l in enumerate(out.splitlines())
                                 if l.startswith("size (B)")][0]]
        for col in ("size (B)", "count (elements)", "type", "redop", "root", "time (us)",
                    "algbw (GB/s)", "busbw (GB/s)"):
            self.assertIn(col, head)
        rc, csv, err = run(*args, "--csv")
        self.assertEqual(rc, 0, err)
        lines = csv.strip().splitlines()
        self.assertEqual(lines[0], "size,count,type,redop,root,time,algbw,busbw")
        first = lines[1].split(",")
        self.assertEqual(first[:5], ["1048576", "262144", "float", "sum", "-1"])
        j = self.ok_json(*args)["sweep"][0]  # JSON holds the same numbers, unrounded
        self.assertEqual(float(first[5]), round(j["time_s"] * 1e6, 2))
        self.assertEqual(float(first[7]), round(j["busbw_bytes_per_s"] / 1e9, 2))

    def test_count_type_redop_root_per_op(self):
        base = ("collective", "--sweep", "--min-size", "8MiB", "--size", "8MiB", "--gpus", "8")
        want = {"allreduce": (2097152, "sum", -1), "allgather": (262144, "none", -1),
                "reducescatter": (262144, "sum", -1), "broadcast": (2097152, "none", 0),
                "reduce": (2097152, "sum", 0), "alltoall": (262144, "none", -1)}
        for op, (count, redop, root) in want.items():
            with self.subTest(op):
                row = self.ok_json(*base, "--op", op)["sweep"][0]
                self.assertEqual((row["count"], row["type"], row["redop"], row["root"]),
                                 (count, "float", redop, root))
        row = self.ok_json(*base, "--dtype", "bfloat16")["sweep"][0]
        self.assertEqual((row["count"], row["type"]), (4194304, "bfloat16"))
        # the default table keeps hwfit's columns
        self.assertIn("bound by", self.ok_table(*base))
        self.bad("collective", "--columns", "nccl", mentions="--columns: applies only to the sweep")
        self.bad("collective", "--sweep", "--columns", "mpi", mentions="nccl")


class TestManAndCompletion(CliCase):
    """hwfit --man and hwfit --completion bash, generated from the option tables: every
    command and option appears in both; the completion completes in bash."""

    def describe(self):
        rc, out, err = run("--describe")
        self.assertEqual(rc, 0, err)
        return json.loads(out)["commands"]

    def test_every_command_and_option_in_both(self):
        rc, man, err = run("--man")
        self.assertEqual(rc, 0, err)
        rc, comp, err = run("--completion", "bash")
        self.assertEqual(rc, 0, err)
        self.assertTrue(man.startswith(".\\\"") and "\n.TH HWFIT 1 " in man)
        for c in self.describe():
            with self.subTest(c["name"]):
                self.assertIn(f"\n.SS {c['name'].replace('-', chr(92) + '-')}\n", man)
                self.assertIn(f"\n    {c['name']})\n", comp)
                for o in c["options"]:
                    roff_name = o["name"].replace("-", "\\-")
                    self.assertTrue(f'\n.BI "\\-\\-{roff_name} ' in man or
                                    f'\n.B "\\-\\-{roff_name}"' in man, o["name"])
                    self.assertIn(f" --{o['name']}", comp)
                    if o["alias"]:
                        self.assertIn(f" --{o['alias']}", comp)
        self.bad("--completion", "tcsh", mentions="bash")

    def test_man_renders_without_warnings(self):
        import shutil
        import subprocess
        import tempfile
        if not shutil.which("groff"):
            self.skipTest("no groff")
        rc, man, err = run("--man")
        with tempfile.NamedTemporaryFile("w", suffix=".1", delete=False) as f:
            f.write(man)
        try:
            # groff is the system's: not under the sanitizer runtime the asan workflow
            # preloads for the tests (its leak report would read as a warning)
            env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
            env["ASAN_OPTIONS"] = "detect_leaks=0"
            p = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", f.name],
                               capture_output=True, text=True, timeout=60, env=env)
        finally:
            os.unlink(f.name)
        self.assertEqual((p.returncode, p.stderr), (0, ""))

    def complete(self, *words):
        """The completions bash gives for `hwfit WORDS...` (the last word being typed)."""
        import shutil
        import subprocess
        import tempfile
        if not shutil.which("bash"):
            self.skipTest("no bash")
        rc, comp, err = run("--completion", "bash")
        self.assertEqual(rc, 0, err)
        with tempfile.NamedTemporaryFile("w", suffix=".bash", delete=False) as f:
            f.write(comp)
        from clitest import CLI
        words = " ".join(f"'{w}'" for w in (CLI, *words))
        script = (f'source "{f.name}"; COMP_WORDS=({words}); '
                  'COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _hwfit; printf "%s\\n" "${COMPREPLY[@]}"')
        try:
            p = subprocess.run(["bash", "--norc", "--noprofile", "-c", script],
                               capture_output=True, text=True, timeout=60)
        finally:
            os.unlink(f.name)
        self.assertEqual(p.returncode, 0, p.stderr)
        return [w for w in p.stdout.splitlines() if w]

    def test_bash_completes_commands_options_and_values(self):
        self.assertEqual(self.complete("fi"), ["fit"])
        # --gp: the three GPU options, and --gpus-per-node which also starts so
        self.assertEqual(set(self.complete("fit", "--gp")),
                         {"--gpu", "--gpus", "--gpu-file", "--gpus-per-node"})
        self.assertEqual(self.complete("fit", "--mode", "q"), ["qlora"])
        self.assertIn("h100-sxm", self.complete("fit", "--gpu", "h100"))
        self.assertIn("llama-3.1-70b", self.complete("memory", "--model", "llama-3.1-7"))
        self.assertIn("--config", self.complete("memory", "--con"))
        self.assertEqual(self.complete("collective", "--columns", "n"), ["nccl"])

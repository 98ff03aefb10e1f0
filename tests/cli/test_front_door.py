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

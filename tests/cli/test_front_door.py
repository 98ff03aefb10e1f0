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

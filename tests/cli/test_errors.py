"""Every failure of every subcommand: exit status 2, one line on stderr, nothing on stdout.

CliCase.bad checks the three (with and without --json); `mentions` checks that the line
names the option at fault and says what is wrong, so a user can act on it. The messages
for refused inputs come from the library's _validate functions (field and rule) with the
field turned into the option's name.
"""
import os
import tempfile
import unittest

from clitest import TEST_DATA, CliCase, run


def config(name):
    return os.path.join(TEST_DATA, "models", f"{name}.config.json")


LLAMA = ("--config", config("llama-3.1-8b"))
POWER = ("power", "--psus", "4", "--psu-watts", "3200", "--load", "6500W")
RAID = ("raid", "--level", "6", "--drives", "4", "--drive-size", "1TB")
TRANSFER = ("transfer", "--size", "1GB", "--rate", "1GB/s")


class TestIssueExamples(CliCase):
    """The two messages issue 9 quotes as unclear."""

    def test_micro_batch_zero_names_the_option_and_the_rule(self):
        err = self.bad("memory", *LLAMA, "--mode", "full", "--micro-batch", "0")
        self.assertIn("--micro-batch: must be at least 1", err)
        self.assertNotIn("estimate:", err)

    def test_redundancy_that_leaves_no_psu_says_so(self):
        err = self.bad("power", "--psus", "2", "--psu-watts", "3000", "--load", "1kW",
                       "--redundant", "2")
        self.assertIn("--redundant: 2 leaves no PSU to carry the load", err)


class TestMain(CliCase):
    def test_bad_invocations(self):
        rc, out, err = run()
        self.assertEqual((rc, out, len(err.splitlines())), (2, "", 1))
        self.bad("frobnicate", mentions="unknown subcommand")
        self.bad("--frobnicate", mentions="unknown subcommand")

    def test_control_characters_stay_on_one_line(self):
        self.bad("fro\nbnicate", mentions="\\x0a")
        self.bad("units", "1GB", "--bo\ngus", mentions="\\x0a")
        self.bad("power", *POWER[1:], "--class", "gold\r\nplatinum", mentions="\\x0d\\x0a")


class TestOptionParser(CliCase):
    def test_every_kind_of_option_error(self):
        self.bad("units", "1GB", "--bogus", mentions="unknown option '--bogus'")
        self.bad("units", "1GB", "--unit", mentions="--unit")  # with --json: its value
        self.bad("units", "1GB", "--unit=furlongs", mentions="expected one of")
        self.bad("units", "1GB", "--json=1", mentions="unknown option '--json'")
        self.bad("memory", *LLAMA, "--no-dropout=yes", mentions="takes no value")
        self.bad("memory", *LLAMA, "--batch", "-1", mentions="whole number")
        self.bad("memory", *LLAMA, "--batch", "18446744073709551616",
                 mentions="beyond a 64-bit count")
        self.bad("memory", *LLAMA, "--context", "2M5", mentions="whole number")
        self.bad("power", *POWER[1:], "--pue", "abc", mentions="--pue: expected a number")
        self.bad("power", *POWER[1:], "--pue", "-1", mentions="--pue: expected a number")
        self.bad("raid", *RAID[1:], "--drive-size", "1TW", mentions="--drive-size")
        self.bad("power", "--psus", "4", "--psu-watts", "3200",
                 *[a for i in range(33) for a in ("--component", f"gpu:{i}:1W")],
                 mentions="more than 32 times")


class TestUnits(CliCase):
    def test_errors(self):
        self.bad("units", mentions="--value: is required")
        self.bad("units", "1", "2", mentions="unexpected argument")
        self.bad("units", "12parsecs", mentions="cannot read '12parsecs'")
        self.bad("units", "-1GB", mentions="'-1GB' is out of range")
        self.bad("units", "1e400GB", mentions="beyond a double's range")


class TestListings(CliCase):
    def test_errors(self):
        self.bad("dtypes", "extra", mentions="unexpected argument")
        self.bad("gpus", "h100", mentions="unknown GPU 'h100'")
        self.bad("gpus", "h100-sxm", "b", mentions="unexpected argument")


class TestLink(CliCase):
    def test_errors(self):
        self.bad("link", mentions="--name: is required")
        self.bad("link", "foo", mentions="cannot read 'foo'")
        self.bad("link", "pcie7x16", mentions="'pcie7x16' is out of range")
        self.bad("link", "300g-ib", mentions="out of range")
        self.bad("link", "pcie5x16", "--payload", "1B", mentions="--payload: must be")
        self.bad("link", "pcie5x16", "--payload", "-1", mentions="--payload")


class TestModelAndMemory(CliCase):
    def test_model_errors(self):
        self.bad("model", mentions="--model: is required")
        self.bad("model", "--config", "/nonexistent/c.json", mentions="cannot open")
        self.bad("model", "--config", "/", mentions="/")
        self.bad("model", *LLAMA, "--weights", "fp4", mentions="unknown number format 'fp4'")
        self.bad("model", *LLAMA, "--kv", "int4-g2000000", mentions="out of range")
        self.bad("model", *LLAMA, "--batch", "0", mentions="--batch: must be at least 1")
        self.bad("model", *LLAMA, "--context", "0", mentions="--context: must be at least 1")

    def test_model_reader_errors(self):
        with tempfile.TemporaryDirectory() as tmp:
            cases = {
                "truncated": ('{"model_type": "llama"', "1:"),
                "mistyped": ('{"model_type": "llama", "num_hidden_layers": "two"}',
                             "num_hidden_layers"),
                "inconsistent": ('{"model_type": "llama", "num_hidden_layers": 2, '
                                 '"hidden_size": 64, "intermediate_size": 128, '
                                 '"num_attention_heads": 6, "num_key_value_heads": 4, '
                                 '"vocab_size": 100}', "not a multiple"),
                "binary": ("\x00\xff{}", "1:1"),
            }
            for name, (text, mention) in cases.items():
                path = os.path.join(tmp, f"{name}.json")
                with open(path, "w", encoding="latin-1") as f:
                    f.write(text)
                self.bad("model", "--config", path, mentions=mention)
                self.bad("memory", "--config", path, mentions=mention)

    def test_memory_errors(self):
        self.bad("memory", mentions="--model: is required")
        self.bad("memory", *LLAMA, "--mode", "pretrain", mentions="--mode")
        self.bad("memory", *LLAMA, "--kv", "fp4", mentions="--kv")
        self.bad("memory", *LLAMA, "--gradients", "q8_0", "--mode", "full",
                 mentions="--gradients: must be a plain format")
        self.bad("memory", *LLAMA, "--mode", "full", "--weights", "q4_k",
                 mentions="--weights: must be a plain format")
        self.bad("memory", *LLAMA, "--tensor-parallel", "0",
                 mentions="--tensor-parallel: must be between 1 and 4294967295")
        self.bad("memory", *LLAMA, "--mode", "lora", "--lora-rank", "0",
                 mentions="--lora-rank: must be between 1 and 4294967295")
        self.bad("memory", *LLAMA, "--lora-rank", "8589934592",
                 mentions="--lora-rank: must be between 1 and 4294967295")
        self.bad("memory", *LLAMA, "--lora-targets", "q,,v", mentions="--lora-targets")
        self.bad("memory", *LLAMA, "--overhead", "1e300", mentions="--overhead: must be")
        self.bad("memory", *LLAMA, "--batch", "0", mentions="--batch: must be at least 1")
        self.bad("memory", *LLAMA, "--batch", "9223372036854775807", "--context", "1M",
                 mentions="64-bit")


class TestStorage(CliCase):
    def test_raid_errors(self):
        self.bad("raid", "--drives", "4", "--drive-size", "1TB", mentions="--level: is required")
        self.bad("raid", "--level", "raid7", "--drives", "4", "--drive-size", "1TB",
                 mentions="unknown value 'raid7'")
        self.bad("raid", "--level", "draid:0d", "--drives", "4", "--drive-size", "1TB",
                 mentions="out of range")
        self.bad("raid", "--level", "draid2:xd", "--drives", "4", "--drive-size", "1TB",
                 mentions="cannot read")
        self.bad("raid", "--level", "6", "--drives", "3", "--drive-size", "1TB",
                 mentions="--drives: raid6 needs at least 4 drives")
        self.bad(*RAID, "--spares", "4", mentions="--spares")
        self.bad(*RAID, "--ber", "2", mentions="--ber: must be between 0 and 1")
        self.bad(*RAID, "--fill", "0", mentions="--fill: must be")
        self.bad(*RAID, "--recordsize", "3KiB", mentions="--recordsize: must be a power of two")
        self.bad(*RAID, "--mttf", "1e-308s", mentions="HWFIT_ERANGE")
        self.bad("raid", "--level", "10", "--copies", "1", "--drives", "4", "--drive-size",
                 "1TB", mentions="--copies: must be at least 2")
        self.bad("raid", "--level", "60", "--groups", "3", "--drives", "16", "--drive-size",
                 "1TB", mentions="divide")

    def test_transfer_errors(self):
        self.bad("transfer", "--size", "1GB", mentions="--rate: is required")
        self.bad("transfer", "--size", "1GB", "--rate", "0", mentions="--rate: must be")
        self.bad(*TRANSFER, "--transport", "pigeon", mentions="unknown value 'pigeon'")
        self.bad(*TRANSFER, "--efficiency", "1.5", mentions="--efficiency: must be")
        self.bad(*TRANSFER, "--capacity", "-1", mentions="--capacity")
        self.bad("transfer", "--size", "1EB", "--rate", "1e-308B/s", mentions="HWFIT_ERANGE")


class TestPowerAndHost(CliCase):
    def test_power_errors(self):
        self.bad("power", "--psu-watts", "3200", "--load", "1W", mentions="--psus: is required")
        self.bad("power", "--psus", "0", "--psu-watts", "3200", "--load", "1W",
                 mentions="--psus: must be")
        self.bad(*POWER, "--redundant", "3+2", mentions="add up")
        self.bad(*POWER, "--redundant", "N+x", mentions="--redundant: N+x")
        self.bad(*POWER, "--class", "ruby", mentions="unknown value 'ruby'")
        self.bad(*POWER, "--class", "80plus", mentions="--class: has no 80 PLUS curve")
        self.bad(*POWER, "--table", "x", mentions="--table")
        self.bad(*POWER, "--price", "0.18/kW", mentions="--price")
        self.bad(*POWER, "--input-voltage", "120", mentions="--low-line-watts: must be given")
        self.bad(*POWER, "--input-voltage", "400", mentions="--input-voltage: must be")
        self.bad(*POWER, "--headroom", "0.5", mentions="--headroom: must be")
        self.bad(*POWER, "--delta-t", "0", mentions="--delta-t: must be")
        self.bad(*POWER, "--liquid-above", "1kW", mentions="--liquid-above: must be")
        self.bad(*POWER, "--duty", "2", mentions="--duty: must be")
        self.bad(*POWER, "--capex", "1", "--years", "0", mentions="--years: must be")
        self.bad(*POWER, "--capex", "1", "--utilization", "0", mentions="--utilization: must be")
        self.bad("power", "--psus", "4", "--psu-watts", "3200", "--component", "tpu:1:1W",
                 mentions="unknown value 'tpu:1:1W'")
        self.bad("power", "--psus", "4", "--psu-watts", "3200", "--component", "gpu:2000000:1W",
                 mentions="out of range")
        self.bad("power", "--psus", "4", "--psu-watts", "3200", "--component", "gpu:0:1W",
                 mentions="the load")
        self.bad("power", "--psus", "4", "--psu-watts", "3200", "--component", "gpu:8:600W",
                 "--transient", "0.5", mentions="--transient: must be")

    def test_host_errors(self):
        self.bad("host", "--sockets", "9", mentions="--sockets: must be")
        self.bad("host", "--channels", "12", "--mts", "6400", mentions="--dimms: is missing")
        self.bad("host", "--max-dpc", "5", mentions="--max-dpc: must be")
        self.bad("host", "--gpu-lanes", "0", mentions="--gpu-lanes: must be")
        self.bad("host", "--channels", "12", "--dimms", "24", "--mts", "6400", "--mts-2dpc",
                 "7000", mentions="--mts-2dpc: must be")
        self.bad("host", "--ram", "1TB", "--vram", "1e-308B", mentions="--vram")
        self.bad("host", "--gpus", "18446744073709551615", "--lanes", "128",
                 mentions="--gpus: make a lane count that overflows")


class TestCollective(CliCase):
    def test_errors(self):
        self.bad("collective", "--op", "gather", mentions="--op")
        self.bad("collective", "--protocol", "x", mentions="--protocol")
        self.bad("collective", "--nic", "300g-ib", mentions="--nic: '300g-ib' is out of range")
        self.bad("collective", "--nic", "3x", mentions="--nic: cannot read")
        self.bad("collective", "--nodes", "2", mentions="--nic")
        self.bad("collective", "--nodes", "0", mentions="--nodes: must be")
        self.bad("collective", "--gpus", "7", "--sockets", "2",
                 mentions="--sockets: must divide")
        # One GPU names --gpus, not --sockets or --ranks that were not given (issue 21).
        self.bad("collective", "--gpus", "1",
                 mentions="--gpus: a collective needs at least 2 ranks")
        self.bad("collective", "--gpus", "200", mentions="--gpus: must be")
        self.bad("collective", "--pcie-lanes", "3", mentions="--pcie-lanes: must be")
        self.bad("collective", "--pcie-switches", "3", mentions="--pcie-switches: must")
        self.bad("collective", "--ranks", "1", mentions="--ranks: must be")
        self.bad("collective", "--size", "2e18B", mentions="--size: must be")
        self.bad("collective", "--algorithm", "nvls", mentions="--algorithm: does not exist")
        self.bad("collective", "--sweep", "--min-size", "0", mentions="--min-size")


if __name__ == "__main__":
    unittest.main()


L70 = ("--config", config("llama-3.1-70b"), "--gpu", "h100-sxm")
SEED_NODE = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "specs",
                         "seed-server.json")


class _LayoutErrors:
    """The refusals fit, plan and perf share: every one names the option and its rule."""

    cmd = None

    def check(self, *args, mentions):
        return self.bad(self.cmd, *L70, *args, mentions=mentions)

    def test_workload_and_card_options(self):
        self.check("--utilization", "0", mentions="--utilization: must be in (0, 1]")
        self.check("--utilization", "1.5", mentions="--utilization: must be between 0 and 1")
        self.check("--context", "0", mentions="--context: must be between 1 and")
        self.check("--batch", "0", mentions="--batch: must be at least 1")
        self.check("--capacity", "0B", mentions="--capacity: must be between 1 B and 1.153 EB")
        self.check("--overhead", "1e20B", mentions="--overhead: must be between 0 B and 9.007 PB")
        self.check("--host-buffer-factor", "0.5", mentions="--host-buffer-factor: must be between 1 and 16")
        self.check("--mode", "lora", "--lora-rank", "0", mentions="--lora-rank: must be between 1 and")
        self.check("--mode", "full", "--gradients", "nf4",
                   mentions="--gradients: must be a plain format")

    def test_throughput_options(self):
        self.check("--prefill-efficiency", "0", mentions="--prefill-efficiency: must be in (0, 1]")
        self.check("--tp-overlap", "2", mentions="--tp-overlap: must be between 0 and 1")
        self.check("--step-overhead", "1e9s", mentions="--step-overhead: must be between 0 s and")


class _GivenLayoutErrors:
    """A layout given by options that is invalid names the option and the numbers."""

    def test_invalid_layouts(self):
        self.check("--gpus", "3", "--tp", "3",
                   mentions="--tp: the 64 attention heads do not divide by 3")
        self.check("--gpus", "8", "--tp", "3", mentions="--tp: tp 3 x pp 1 x dp 1 x cp 1 is not the 8 GPUs of gpus")
        self.check("--gpus", "8", "--zero", "1", mentions="--zero: 1: ZeRO stages above 0")
        self.check("--gpus", "8", "--virtual-stages", "2", mentions="--virtual-stages: 2:")


class TestFitErrors(_LayoutErrors, _GivenLayoutErrors, CliCase):
    cmd = "fit"


class TestPlanErrors(_LayoutErrors, CliCase):
    cmd = "plan"


class TestPerfErrors(_LayoutErrors, _GivenLayoutErrors, CliCase):
    cmd = "perf"

    def test_precision_the_card_lacks(self):
        self.check("--precision", "fp4",
                   mentions="--precision: h100-sxm has no tensor throughput in fp4")


class TestAssessErrors(CliCase):
    def test_options_and_workloads(self):
        a = ("assess", "--node", SEED_NODE, "--models-dir", os.path.join(TEST_DATA, "models"))
        self.bad(*a, "--max-tpot", "0", mentions="--max-tpot: must be above 0")
        self.bad(*a, "--max-comm-share", "2", mentions="--max-comm-share: must be between 0 and 1")
        self.bad(*a, "--checkpoints", "0", mentions="--checkpoints: must be between 1 and 1000000")
        self.bad(*a, "--workload", "full:llama-3.1-8b:nf4",
                 mentions="--workload: full:llama-3.1-8b:nf4: weights must be a plain format")
        self.bad("assess", "--node", "/nonexistent.json", mentions="/nonexistent.json")

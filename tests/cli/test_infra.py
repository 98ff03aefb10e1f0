"""The raid, transfer, power and host subcommands: the seed server's figures and bad input.

Expected values are derived by hand from the formulas in docs/formulas.md (storage, power,
host); the seed server is described in /work/shared/docs/seed-claims.md.
"""
import math
import unittest

from clitest import CliCase

# Relative tolerance for values printed with 15-17 significant digits: only the last
# digit of a shortest round-trip representation can differ from the hand arithmetic.
REL = 1e-12

SEED_RAID = ("raid", "--level", "6", "--drives", "4", "--drive-size", "15.36TB")
SEED_POWER = ("power", "--psus", "4", "--psu-watts", "3200", "--load", "6500W")
SEED_HOST = ("host", "--sockets", "2", "--channels", "12", "--dimms", "24", "--mts", "6400",
             "--cores", "128", "--gpus", "8", "--ram", "1.5TB", "--vram", "768GB",
             "--lanes", "128", "--nvme", "4", "--nics", "2")


class TestRaid(CliCase):
    def test_seed_raid6_json(self):
        d = self.ok_json(*SEED_RAID, "--ber", "1e-15", "--rebuild-rate", "1GB/s",
                         "--mttf", "2e6h")
        self.assertEqual(d["raw_bytes"], 61.44e12)
        self.assertEqual(d["usable_bytes"], 30.72e12)
        self.assertEqual(d["usable_text"], "30.72 TB (27.94 TiB)")
        self.assertEqual(d["tolerated_failures"], 2)
        self.assertAlmostEqual(d["rebuild_s"], 15360.0, delta=15360 * REL)
        # 1 - exp(-1e-15 x 8 x 46.08e12): reads of the three surviving drives.
        self.assertAlmostEqual(d["ure_probability"], -math.expm1(-1e-15 * 8 * 46.08e12),
                               delta=REL)
        self.assertEqual(d["ure_loss_probability"], 0)
        # MTTF^3 / (4 x 3 x 2 x MTTR^2) with MTTR = 4.2667 h rebuild + 24 h replacement.
        mttr = 15360 / 3600 + 24
        self.assertAlmostEqual(d["mttdl_h"] / (2e6 ** 3 / (24 * mttr ** 2)), 1.0, delta=REL)
        for key in ("usable_bytes", "raw_bytes", "rebuild_s", "ure_probability", "mttdl_h"):
            self.assertIn(key, d)

    def test_table_shows_tb_and_tib(self):
        out = self.ok_table(*SEED_RAID)
        self.assertIn("30.72 TB (27.94 TiB)", out)
        self.assertIn("4.267 h", out)

    def test_zfs_options(self):
        d = self.ok_json("raid", "--level", "raidz2", "--drives", "6", "--drive-size", "10TB",
                         "--recordsize", "128KiB", "--sector", "4KiB")
        self.assertAlmostEqual(d["allocation_efficiency"], 2 / 3, delta=REL)
        self.assertEqual(d["slop_bytes"], 128 * 2**30)
        d = self.ok_json("raid", "--level", "draid1:4d:11c:1s", "--drives", "11",
                         "--drive-size", "1TB")
        self.assertEqual(d["level"], "draid1")
        self.assertEqual(d["draid_spares"], 1)
        self.assertAlmostEqual(d["allocation_efficiency"], 0.8, delta=REL)

    def test_hot_spares_and_groups(self):
        d = self.ok_json("raid", "--level", "60", "--drives", "13", "--spares", "1",
                         "--groups", "3", "--drive-size", "1TB")
        self.assertEqual(d["member_drives"], 12)
        self.assertEqual(d["usable_bytes"], 6e12)  # 3 groups of 4, 2 parity each

    def test_rates_when_given(self):
        d = self.ok_json(*SEED_RAID, "--read-rate", "14GB/s", "--write-rate", "10GB/s")
        self.assertEqual(d["read_bytes_per_s"], 56e9)
        self.assertEqual(d["write_bytes_per_s"], 20e9)
        d = self.ok_json(*SEED_RAID)
        self.assertEqual(d["read_bytes_per_s"], 0)

    def test_bad_input(self):
        self.bad("raid", "--level", "6", "--drives", "3", "--drive-size", "1TB",
                 mentions="at least 4")
        self.bad("raid", "--level", "raid7", "--drives", "4", "--drive-size", "1TB",
                 mentions="raid7")
        self.bad("raid", "--level", "6", "--drives", "4", "--drive-size", "-1TB",
                 mentions="--drive-size")
        self.bad("raid", "--level", "6", "--drives", "4", "--drive-size", "0",
                 mentions="HWFIT_EDOM")
        self.bad("raid", "--level", "6", "--drives", "4", "--spares", "4", "--drive-size", "1TB",
                 mentions="--spares")
        self.bad("raid", "--drives", "4", "--drive-size", "1TB", mentions="--level")
        self.bad("raid", "--level", "6", "--drive-size", "1TB", mentions="--drives")
        self.bad("raid", "--level", "6", "--drives", "4", mentions="--drive-size")
        self.bad("raid", "--level", "raidz1", "--drives", "4", "--drive-size", "1TB",
                 "--recordsize", "100000", mentions="HWFIT_EDOM")
        self.bad("raid", *SEED_RAID[1:], "--ber", "nan", mentions="--ber")


class TestTransfer(CliCase):
    def test_checkpoint_and_data_set(self):
        d = self.ok_json("transfer", "--size", "140GB", "--rate", "14GB/s")
        self.assertEqual(d["time_s"], 10)
        self.assertIsNone(d["fits"])
        d = self.ok_json("transfer", "--size", "240TB", "--rate", "800Gb/s",
                         "--transport", "nvmeof-tcp", "--capacity", "200TB")
        self.assertEqual(d["fits"], False)
        self.assertAlmostEqual(d["effective_bytes_per_s"], 85e9, delta=85e9 * REL)
        d = self.ok_json("transfer", "--size", "1TB", "--rate", "100GB/s", "--transport",
                         "nvmeof-roce", "--efficiency", "0.98", "--backend-rate", "40GB/s")
        self.assertEqual(d["backend_limited"], True)
        self.assertEqual(d["time_s"], 25)

    def test_table(self):
        self.assertIn("10 s", self.ok_table("transfer", "--size", "140GB", "--rate", "14GB/s"))

    def test_bad_input(self):
        self.bad("transfer", "--rate", "1GB/s", mentions="--size")
        self.bad("transfer", "--size", "1GB", mentions="--rate")
        self.bad("transfer", "--size", "1GB", "--rate", "0", mentions="HWFIT_EDOM")
        self.bad("transfer", "--size", "1GB", "--rate", "1GB/s", "--transport", "carrier-pigeon",
                 mentions="carrier-pigeon")
        self.bad("transfer", "--size", "1GB", "--rate", "1GB/s", "--efficiency", "1.5",
                 mentions="HWFIT_EDOM")


class TestPower(CliCase):
    def test_seed_n_plus_1(self):
        d = self.ok_json(*SEED_POWER, "--redundant", "1", "--headroom", "1.3", "--class",
                         "titanium", "--input-voltage", "230", "--price", "0.18/kWh",
                         "--pue", "1.4")
        self.assertEqual(d["usable_w"], 9600)
        self.assertEqual(d["load_w"], 6500)
        self.assertEqual(d["meets_headroom"], True)
        self.assertEqual(d["psu_load_fraction"], 0.5078125)
        eff = 0.96 - (0.5078125 - 0.5) / 0.5 * 0.05  # Titanium 230 V redundant, 50..100 %
        wall = 6500 / eff
        self.assertAlmostEqual(d["wall_w"], wall, delta=wall * REL)
        self.assertAlmostEqual(d["heat_btu_per_h"], wall * 3600 / 1055.05585262,
                               delta=wall * 4 * REL)
        cfm = wall / (1.2 * 1005 * 15) / (0.3048 ** 3 / 60)
        self.assertAlmostEqual(d["airflow_cfm"], cfm, delta=cfm * 1e-9)
        kwh = wall * 8760 / 1000 * 1.4
        self.assertAlmostEqual(d["annual_energy_kwh"], kwh, delta=kwh * REL)
        self.assertAlmostEqual(d["annual_cost"], kwh * 0.18, delta=kwh * REL)
        self.assertEqual(d["cooling"], "air-marginal")
        self.assertEqual(d["heat_w"], d["wall_w"])

    def test_seed_n_plus_2_fails(self):
        d = self.ok_json(*SEED_POWER, "--redundant", "N+2")
        self.assertEqual(d["usable_w"], 6400)
        self.assertEqual(d["meets_load"], False)
        self.assertEqual(d["meets_headroom"], False)
        d = self.ok_json(*SEED_POWER, "--redundant", "2+2")
        self.assertEqual(d["redundant"], 2)

    def test_component_budget_and_tco(self):
        d = self.ok_json("power", "--psus", "4", "--psu-watts", "3200", "--component",
                         "gpu:8:600W", "--component", "cpu:2:400W", "--transient", "1.5",
                         "--capex", "100000", "--years", "5")
        self.assertEqual(d["budget"]["gpu"], 4800)
        self.assertEqual(d["budget"]["dc_w"], 5600)
        self.assertEqual(d["budget"]["peak_dc_w"], 4800 * 1.5 + 800)
        self.assertEqual(d["load_w"], 5600)
        self.assertEqual(d["peak_load_w"], 8000)
        self.assertEqual(d["tco"]["gpus"], 8)
        tco = 100000 + 5 * d["annual_cost"]
        self.assertAlmostEqual(d["tco"]["tco"], tco, delta=tco * REL)
        self.assertAlmostEqual(d["tco"]["cost_per_gpu_hour"], tco / (5 * 8760 * 8),
                               delta=tco * REL)

    def test_table(self):
        out = self.ok_table(*SEED_POWER)
        self.assertIn("9.6 kW", out)
        self.assertIn("air-marginal", out)

    def test_bad_input(self):
        self.bad(*SEED_POWER, "--redundant", "4", mentions="HWFIT_EDOM")
        self.bad(*SEED_POWER, "--redundant", "3+2", mentions="3+2")
        self.bad("power", "--psus", "4", "--psu-watts", "inf", "--load", "1W",
                 mentions="--psu-watts")
        self.bad("power", "--psus", "0", "--psu-watts", "3200", "--load", "1W",
                 mentions="HWFIT_EDOM")
        self.bad("power", "--psus", "4", "--psu-watts", "3200", mentions="--load")
        self.bad(*SEED_POWER, "--component", "gpu:8:600W", mentions="not both")
        self.bad("power", "--psus", "4", "--psu-watts", "3200", "--component", "tpu:1:1W",
                 mentions="tpu")
        self.bad(*SEED_POWER, "--class", "ruby", mentions="ruby")
        self.bad(*SEED_POWER, "--class", "80plus", mentions="no 80 PLUS curve")
        self.bad(*SEED_POWER, "--input-voltage", "120", mentions="--low-line-watts")
        self.bad(*SEED_POWER, "--price", "0.18/kW", mentions="0.18/kW")
        self.bad(*SEED_POWER, "--efficiency", "0.9", mentions="applies only with class none")
        self.bad(*SEED_POWER, "--pue", "0.5", mentions="--pue: must be between 1 and 10")


class TestHost(CliCase):
    def test_seed_host(self):
        d = self.ok_json(*SEED_HOST)
        self.assertEqual(d["memory_bandwidth_bytes_per_s"], 1228.8e9)
        self.assertEqual(d["memory_bandwidth_per_socket_bytes_per_s"], 614.4e9)
        self.assertEqual(d["dimms_per_channel"], 1)
        self.assertEqual(d["cores_per_gpu"], 16)
        self.assertEqual(d["ram_to_vram"], 1.953125)
        self.assertEqual(d["meets_ram_rule"], False)
        self.assertEqual(d["pcie_lanes_available"], 128)
        self.assertEqual(d["pcie_lanes_needed"], 176)
        self.assertEqual(d["pcie_lanes_needed_bifurcated"], 112)
        d = self.ok_json(*SEED_HOST, "--socket-links", "3", "--ram", "1536GiB",
                         "--vram", "768GiB")
        self.assertEqual(d["pcie_lanes_available"], 160)
        self.assertEqual(d["meets_ram_rule"], True)

    def test_missing_parts_are_null(self):
        d = self.ok_json("host", "--sockets", "2", "--channels", "12", "--dimms", "24",
                         "--mts", "6400")
        self.assertIsNone(d["cores_per_gpu"])
        self.assertIsNone(d["ram_to_vram"])
        self.assertIsNone(d["pcie_lanes_available"])
        self.assertEqual(d["memory_bandwidth_bytes_per_s"], 1228.8e9)

    def test_table(self):
        out = self.ok_table(*SEED_HOST)
        self.assertIn("614.4 GB/s", out)
        self.assertIn("1.229 TB/s", out)

    def test_bad_input(self):
        self.bad("host", "--sockets", "0", mentions="HWFIT_EDOM")
        self.bad("host", "--channels", "12", "--mts", "6400", mentions="go together")
        self.bad("host", "--channels", "12", "--dimms", "24", "--mts", "-1", mentions="--mts")
        self.bad("host", "--gpus", "18446744073709551615", "--lanes", "128",
                 mentions="HWFIT_ERANGE")
        self.bad("host", "--lanes", "128", "--sockets", "2", "--socket-links", "9",
                 mentions="HWFIT_EDOM")


if __name__ == "__main__":
    unittest.main()

"""hwfit gpus, link and collective: tables, JSON and bad input."""
import unittest

from clitest import CliCase


class TestGpus(CliCase):
    def test_json_has_every_card(self):
        d = self.ok_json("gpus")
        names = {r["name"] for r in d["gpus"]}
        for n in ("rtx-pro-6000-server", "rtx-pro-6000-workstation", "rtx-pro-6000-maxq",
                  "h100-sxm", "b200", "gb200", "mi300x", "rtx-5090"):
            self.assertIn(n, names)
        row = next(r for r in d["gpus"] if r["name"] == "rtx-pro-6000-maxq")
        self.assertEqual(row["tdp_w"], 300)
        self.assertEqual(row["memory_bandwidth_bytes_per_s"], 1792e9)

    def test_table_and_one_card(self):
        out = self.ok_table("gpus")
        self.assertIn("rtx-pro-6000-server", out)
        self.assertIn("1.597 TB/s", out)
        out = self.ok_table("gpus", "h100-sxm")
        self.assertIn("source:", out)
        self.assertNotIn("rtx-4090", out)

    def test_bad_input(self):
        self.bad("gpus", "h100", mentions="h100")
        self.bad("gpus", "h100-sxm", "b")
        self.bad("gpus", "--frob")


class TestLink(CliCase):
    def test_json(self):
        d = self.ok_json("link", "pcie4x8")
        self.assertAlmostEqual(d["line_bytes_per_s"], 16e9 * 8 * 128 / 130 / 8, delta=1)
        self.assertEqual(d["kind"], "pcie")
        d = self.ok_json("link", "ib-ndr")
        self.assertAlmostEqual(d["line_bytes_per_s"], 50e9, delta=1e3)
        d = self.ok_json("link", "100g-tcp", "--payload", "9000")
        self.assertAlmostEqual(d["protocol_efficiency"], 8948 / 9038, places=12)

    def test_table(self):
        out = self.ok_table("link", "nvlink4x18")
        self.assertIn("450 GB/s", out)
        self.assertIn("900 GB/s", out)

    def test_bad_input(self):
        self.bad("link", mentions="--name: is required")
        self.bad("link", "pcie7x16", mentions="pcie7x16")
        self.bad("link", "frob", mentions="frob")
        self.bad("link", "pcie5x16", "--payload", "64", mentions="--payload")
        self.bad("link", "pcie5x16", "--payload", "lots", mentions="--payload")


class TestCollective(CliCase):
    def test_json_keys(self):
        d = self.ok_json("collective", "--op", "allreduce", "--size", "1GiB",
                         "--gpu", "rtx-pro-6000-server", "--gpus", "8")
        for k in ("time_s", "algbw_bytes_per_s", "busbw_bytes_per_s", "algorithm",
                  "bottleneck"):
            self.assertIn(k, d)
        self.assertEqual(d["bytes"], 2**30)
        self.assertEqual(d["algorithm"], "ring")

    def test_issue_options(self):
        d = self.ok_json("collective", "--nodes", "2", "--sockets", "2", "--pcie-switches", "2",
                         "--p2p", "off", "--nic", "2x400g-roce", "--algorithm", "hierarchical")
        self.assertEqual(d["nodes"], 2)
        self.assertEqual(d["algorithm"], "hierarchical")
        self.assertFalse(d["p2p"])

    def test_uneven_switches(self):
        base = ("collective", "--op", "alltoall", "--gpu", "rtx-pro-6000-maxq", "--sockets",
                "1", "--p2p", "on", "--pcie-switches")
        two = self.ok_json(*base, "2")["busbw_bytes_per_s"]
        four = self.ok_json(*base, "4")["busbw_bytes_per_s"]
        d = self.ok_json(*base, "3,3,2")
        self.assertEqual(d["bottleneck"], "switch-uplink")
        self.assertTrue(1.03 * two < d["busbw_bytes_per_s"] < 0.97 * four)
        self.bad(*base, "3,3", mentions="--pcie-switches")      # 6 of 8 GPUs
        self.bad(*base, "3,0,5", mentions="--pcie-switches")
        self.bad(*base, "3;5", mentions="--pcie-switches")

    def test_alltoall_one_nic_per_rank(self):
        args = ("collective", "--op", "alltoall", "--gpu", "h100-sxm", "--sockets", "1",
                "--nodes", "4", "--nic", "4x200g-ib", "--gdr", "on", "--gpus")
        one = self.ok_json(*args, "1")
        self.assertEqual(one["bottleneck"], "nic")
        self.assertLess(one["busbw_bytes_per_s"], 26e9)   # one HDR port, not four
        self.assertGreater(self.ok_json(*args, "4")["busbw_bytes_per_s"],
                           1.15 * one["busbw_bytes_per_s"])

    def test_p2p_level(self):
        # NCCL_P2P_LEVEL: 4 GPUs on one socket's root ports use P2P only from PHB on.
        args = ("collective", "--gpus", "4", "--sockets", "1")
        dflt = self.ok_json(*args)
        phb = self.ok_json(*args, "--p2p-level", "phb")
        self.assertFalse(dflt["p2p"])
        self.assertTrue(phb["p2p"])
        self.assertGreater(phb["busbw_bytes_per_s"], 1.2 * dflt["busbw_bytes_per_s"])
        # Two sockets: PHB still stages the hops that cross; SYS reaches the socket link.
        two = ("collective", "--gpus", "8", "--sockets", "2")
        self.assertFalse(self.ok_json(*two, "--p2p-level", "phb")["p2p"])
        self.assertEqual(self.ok_json(*two, "--p2p-level", "sys")["bottleneck"], "socket-link")
        # LOC under switches: every hop staged through the switch uplinks.
        sw = ("collective", "--pcie-switches", "2")
        self.assertEqual(self.ok_json(*sw, "--p2p-level", "loc")["bottleneck"], "switch-uplink")
        self.bad("collective", "--p2p-level", "near", mentions="--p2p-level")

    def test_min_channels(self):
        # A dual-socket AMD PCIe box: NCCL's search puts one ring over the socket link it
        # counts 16 GB/s, run as 2 channels; NCCL_MIN_NCHANNELS=16 lifts the tree's
        # per-channel ceiling. The default and the tuned run of one box both come out.
        args = ("collective", "--gpu", "a100-pcie-80gb", "--algorithm", "tree")
        dflt = self.ok_json(*args)
        tuned = self.ok_json(*args, "--min-channels", "16")
        self.assertEqual(dflt["channels"], 2)
        self.assertEqual(tuned["channels"], 16)
        self.assertEqual(dflt["bottleneck"], "protocol")
        self.assertGreater(tuned["busbw_bytes_per_s"], 1.2 * dflt["busbw_bytes_per_s"])
        self.bad("collective", "--min-channels", "65", mentions="--min-channels")
        self.bad("collective", "--min-channels", "0", mentions="--min-channels")

    def test_efa(self):
        # AWS EFA (p4dn: 4 x 100 Gb/s): RoCE of the same speed times --efa-efficiency where
        # the NICs bound the ring (3 nodes), and the 2-node tree above the NIC rate.
        args = ("collective", "--gpu", "a100-sxm-40gb", "--nodes", "3")
        efa = self.ok_json(*args, "--nic", "4x100g-efa")
        roce = self.ok_json(*args, "--nic", "4x100g-roce")
        self.assertEqual(efa["bottleneck"], "nic")
        self.assertAlmostEqual(efa["busbw_bytes_per_s"] / roce["busbw_bytes_per_s"], 0.65,
                               places=2)
        half = self.ok_json(*args, "--nic", "4x100g-efa", "--efa-efficiency", "0.5")
        self.assertLess(half["busbw_bytes_per_s"], efa["busbw_bytes_per_s"])
        two = self.ok_json("collective", "--gpu", "a100-sxm-40gb", "--nodes", "2", "--nic",
                           "4x100g-efa")
        self.assertEqual(two["algorithm"], "tree")
        self.assertGreater(two["busbw_bytes_per_s"], 1.5 * efa["busbw_bytes_per_s"])
        self.bad(*args, "--nic", "4x100g-efa", "--efa-efficiency", "0", mentions="--efa-efficiency")
        self.bad(*args, "--nic", "4x300g-efa", mentions="--nic")

    def test_nvlink_bridges(self):
        # An H100 PCIe pair with 1 or 2 of its 3 bridges: a third and two thirds of the
        # links (4 a bridge), as --peer-links 4 and 8 say; 0 bridges: PCIe only.
        args = ("collective", "--gpu", "h100-pcie", "--gpus", "2")
        full = self.ok_json(*args)["busbw_bytes_per_s"]
        one = self.ok_json(*args, "--nvlink-bridges", "1")["busbw_bytes_per_s"]
        two = self.ok_json(*args, "--nvlink-bridges", "2")["busbw_bytes_per_s"]
        self.assertAlmostEqual(one, self.ok_json(*args, "--peer-links", "4")["busbw_bytes_per_s"])
        self.assertAlmostEqual(two, self.ok_json(*args, "--peer-links", "8")["busbw_bytes_per_s"])
        self.assertLess(one, 0.4 * full)
        self.assertLess(two, 0.7 * full)
        self.assertGreater(two, 1.8 * one)
        none = self.ok_json(*args, "--nvlink-bridges", "0")
        self.assertLess(none["busbw_bytes_per_s"], 0.6 * one)   # over PCIe
        self.assertNotEqual(none["bottleneck"], "peer-link")
        self.bad(*args, "--nvlink-bridges", "4", mentions="--nvlink-bridges")
        self.bad(*args, "--nvlink-bridges", "1", "--peer-links", "4", mentions="--nvlink-bridges")
        self.bad("collective", "--gpu", "rtx-5090", "--nvlink-bridges", "1",
                 mentions="--nvlink-bridges")

    def test_no_bridge_and_one_switch_on_two_sockets(self):
        args = ("collective", "--gpu", "rtx-2080-ti", "--gpus", "2", "--size", "1GiB",
                "--pcie-switches", "1", "--p2p", "off")
        bare = self.ok_json(*args, "--peer-links", "0")
        self.assertLess(bare["busbw_bytes_per_s"], 16e9)          # PCIe 3.0 x16, via host
        self.assertNotEqual(bare["bottleneck"], "socket-link")
        bridged = self.ok_json(*args)
        self.assertGreater(bridged["busbw_bytes_per_s"], 3 * bare["busbw_bytes_per_s"])
        self.bad("collective", "--gpu", "rtx-5090", "--gpus", "2", "--peer-links", "0",
                 mentions="--peer-links")

    def test_sweep_table_like_nccl_tests(self):
        out = self.ok_table("collective", "--sweep", "--size", "1MiB", "--p2p", "on")
        self.assertIn("busbw", out)
        self.assertIn("8 B", out)
        self.assertIn("1.049 MB (1 MiB)", out)
        d = self.ok_json("collective", "--sweep", "--size", "1KiB")
        self.assertEqual([r["bytes"] for r in d["sweep"]], [8 * 2**k for k in range(8)])

    def test_bad_input(self):
        self.bad("collective", "--op", "gather", mentions="gather")
        self.bad("collective", "--gpu", "h100", mentions="h100")
        self.bad("collective", "--size", "lots", mentions="--size")
        self.bad("collective", "--p2p", "maybe", mentions="--p2p")
        self.bad("collective", "--nic", "400g", mentions="--nic")
        self.bad("collective", "--nodes", "2", mentions="HWFIT_EDOM")  # no NICs
        self.bad("collective", "--gpus", "7", "--sockets", "2", mentions="HWFIT_EDOM")
        self.bad("collective", "--algorithm", "nvls", mentions="HWFIT_EUNSUPPORTED")
        self.bad("collective", "--algorithm", "butterfly", mentions="butterfly")
        self.bad("collective", "--sweep", "--min-size", "2GiB", mentions="--min-size")
        self.bad("collective", "extra")


if __name__ == "__main__":
    unittest.main()

"""The Python face of the GPU catalog, link rates and collective cost."""
import math
import unittest

import hwfit
from _needs import needs


@needs("gpus")
class TestGpus(unittest.TestCase):
    def test_catalog_lists_the_seed_card_with_its_source(self):
        rows = hwfit.gpus()["gpus"]
        names = [r["name"] for r in rows]
        self.assertIn("rtx-pro-6000-server", names)
        self.assertEqual(len(names), len(set(names)))
        server = hwfit.gpus("rtx-pro-6000-server")["gpus"][0]
        # NVIDIA Server Edition product page: 1,597 GB/s, 96 GB, PCIe Gen5 x16, no NVLink.
        self.assertEqual(server["memory_bandwidth_bytes_per_s"], 1597e9)
        self.assertEqual(server["memory_bytes"], 96 * 2**30)
        self.assertEqual((server["pcie_gen"], server["pcie_lanes"]), (5, 16))
        self.assertEqual(server["peer_link"], "none")
        self.assertIn("nvidia.com", server["source"])
        self.assertEqual(hwfit.gpus("h100-sxm")["gpus"][0]["peer_bytes_per_s_bidir"], 900e9)

    def test_unknown_gpu_raises(self):
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.gpus("h100")
        self.assertEqual(cm.exception.name, "HWFIT_ENOTFOUND")
        with self.assertRaises(TypeError):
            hwfit.gpus(7)


@needs("link")
class TestLink(unittest.TestCase):
    def test_pcie5_x16(self):
        d = hwfit.link("pcie5x16")
        # 32 GT/s x 16 lanes x 128/130 / 8 = 63.0 GB/s per direction.
        self.assertAlmostEqual(d["line_bytes_per_s"], 32e9 * 16 * 128 / 130 / 8, delta=1)
        self.assertEqual(d["line_bytes_per_s_bidir"], 2 * d["line_bytes_per_s"])
        self.assertEqual(d["name"], "PCIe 5.0 x16")

    def test_roce_mtu(self):
        d = hwfit.link("400g-roce", payload="1KiB")
        self.assertAlmostEqual(d["protocol_efficiency"], 1024 / (1024 + 82), places=12)

    def test_errors(self):
        for bad in ("pcie7x16", "frob", "300g-ib"):
            with self.assertRaises(hwfit.HwfitError):
                hwfit.link(bad)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.link("pcie5x16", payload=math.nan)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.link("pcie5x16", payload="64B")


@needs("collective")
class TestCollective(unittest.TestCase):
    def test_seed_server_default_and_p2p(self):
        d = hwfit.collective()
        self.assertEqual(d["ranks"], 8)
        self.assertFalse(d["p2p"])  # NCCL stages through host memory on this box
        self.assertEqual(d["busbw_factor"], 1.75)
        self.assertAlmostEqual(d["busbw_bytes_per_s"], d["algbw_bytes_per_s"] * 1.75,
                               delta=1e-6 * d["busbw_bytes_per_s"])
        p = hwfit.collective(p2p="on")
        self.assertGreater(p["busbw_bytes_per_s"], d["busbw_bytes_per_s"])
        self.assertEqual(p["bottleneck"], "socket-link")

    def test_uneven_switches(self):
        kw = dict(op="alltoall", gpu="rtx-pro-6000-maxq", sockets=1, p2p="on")
        two = hwfit.collective(pcie_switches=2, **kw)["busbw_bytes_per_s"]
        four = hwfit.collective(pcie_switches=4, **kw)["busbw_bytes_per_s"]
        d = hwfit.collective(pcie_switches="3,3,2", **kw)
        self.assertTrue(1.03 * two < d["busbw_bytes_per_s"] < 0.97 * four)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.collective(pcie_switches="3,3", **kw)

    def test_p2p_level(self):
        # NCCL_P2P_LEVEL=PHB lets 4 GPUs on one socket's root ports use P2P.
        d = hwfit.collective(gpus=4, sockets=1)
        p = hwfit.collective(gpus=4, sockets=1, p2p_level="phb")
        self.assertFalse(d["p2p"])
        self.assertTrue(p["p2p"])
        self.assertGreater(p["busbw_bytes_per_s"], 1.2 * d["busbw_bytes_per_s"])
        s = hwfit.collective(p2p_level="sys")
        self.assertEqual(s["bottleneck"], "socket-link")
        with self.assertRaises(hwfit.HwfitError):
            hwfit.collective(p2p_level="near")

    def test_min_channels(self):
        # NCCL_MIN_NCHANNELS: more channels than NCCL's search gives a dual-socket PCIe box
        # lift the tree's per-channel ceiling.
        kw = dict(gpu="a100-pcie-80gb", algorithm="tree")
        d = hwfit.collective(**kw)
        t = hwfit.collective(min_channels=16, **kw)
        self.assertEqual(d["channels"], 2)
        self.assertEqual(t["channels"], 16)
        self.assertGreater(t["busbw_bytes_per_s"], 1.2 * d["busbw_bytes_per_s"])
        with self.assertRaises(hwfit.HwfitError):
            hwfit.collective(min_channels=65)

    def test_efa(self):
        # AWS EFA: RoCE of the same speed times efa_efficiency where the NICs bound it.
        kw = dict(gpu="a100-sxm-40gb", nodes=3)
        efa = hwfit.collective(nic="4x100g-efa", **kw)["busbw_bytes_per_s"]
        roce = hwfit.collective(nic="4x100g-roce", **kw)["busbw_bytes_per_s"]
        self.assertAlmostEqual(efa / roce, 0.65, places=2)
        half = hwfit.collective(nic="4x100g-efa", efa_efficiency=0.5, **kw)["busbw_bytes_per_s"]
        self.assertLess(half, efa)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.collective(nic="4x100g-efa", efa_efficiency=1.5, **kw)

    def test_nvlink_bridges(self):
        # One of the 3 bridges of an H100 PCIe pair: its 4 links, a third of the set.
        kw = dict(gpu="h100-pcie", gpus=2)
        full = hwfit.collective(**kw)["busbw_bytes_per_s"]
        one = hwfit.collective(nvlink_bridges=1, **kw)["busbw_bytes_per_s"]
        self.assertLess(one, 0.4 * full)
        self.assertGreater(one, 0.3 * full)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.collective(nvlink_bridges=4, **kw)

    def test_pair_without_bridge_on_one_switch_of_two_sockets(self):
        # RTX 2080 Ti pair, no NVLink bridge fitted (peer_links 0), both GPUs under one
        # PCIe switch of a two-socket box: answered as the one-socket box, over PCIe.
        kw = dict(gpu="rtx-2080-ti", gpus=2, size="1GiB", pcie_switches=1, peer_links=0)
        two = hwfit.collective(sockets=2, **kw)
        one = hwfit.collective(sockets=1, **kw)
        self.assertEqual(two["busbw_bytes_per_s"], one["busbw_bytes_per_s"])
        bridged = hwfit.collective(gpu="rtx-2080-ti", gpus=2, size="1GiB", pcie_switches=1)
        self.assertGreater(bridged["busbw_bytes_per_s"], 3 * two["busbw_bytes_per_s"])

    def test_sweep_is_monotone_in_time(self):
        d = hwfit.collective(sweep=True, size="64MiB")
        times = [r["time_s"] for r in d["sweep"]]
        self.assertEqual(len(times), 24)  # 8 B .. 64 MiB, doubling
        self.assertEqual(times, sorted(times))
        self.assertEqual(d["sweep"][0]["bottleneck"], "latency")

    def test_errors(self):
        with self.assertRaises(hwfit.HwfitError):
            hwfit.collective(op="gather")
        with self.assertRaises(hwfit.HwfitError):
            hwfit.collective(gpu="h100")
        with self.assertRaises(hwfit.HwfitError):
            hwfit.collective(p2p="maybe")
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.collective(nodes=2)  # no NICs
        self.assertEqual(cm.exception.name, "HWFIT_EDOM")
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.collective(algorithm="nvls")
        self.assertEqual(cm.exception.name, "HWFIT_EUNSUPPORTED")
        with self.assertRaises(hwfit.HwfitError):
            hwfit.collective(size=math.nan)
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.collective(gpus=-1)
        self.assertEqual(cm.exception.option, "gpus")


if __name__ == "__main__":
    unittest.main()

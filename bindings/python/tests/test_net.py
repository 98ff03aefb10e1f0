"""The Python face of the GPU catalog, link rates and collective cost."""
import math
import unittest

import hwfit


class TestGpus(unittest.TestCase):
    def test_catalog_lists_the_seed_card_with_its_source(self):
        rows = hwfit.gpus()["gpus"]
        names = [r["name"] for r in rows]
        self.assertIn("rtx-pro-6000-server", names)
        self.assertEqual(len(names), len(set(names)))
        server = hwfit.gpu("rtx-pro-6000-server")
        # NVIDIA Server Edition product page: 1,597 GB/s, 96 GB, PCIe Gen5 x16, no NVLink.
        self.assertEqual(server["memory_bandwidth_bytes_per_s"], 1597e9)
        self.assertEqual(server["memory_bytes"], 96 * 2**30)
        self.assertEqual((server["pcie_gen"], server["pcie_lanes"]), (5, 16))
        self.assertEqual(server["peer_link"], "none")
        self.assertIn("nvidia.com", server["source"])
        self.assertEqual(hwfit.gpus("h100-sxm")["gpus"][0]["peer_bytes_per_s_bidir"], 900e9)

    def test_unknown_gpu_raises(self):
        with self.assertRaises(hwfit.HwfitError) as cm:
            hwfit.gpu("h100")
        self.assertEqual(cm.exception.name, "HWFIT_ENOTFOUND")
        with self.assertRaises(hwfit.HwfitError):
            hwfit.gpu(None)


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
        with self.assertRaises(hwfit.HwfitError):
            hwfit.collective(gpus=-1)

    def test_raw_step_binding(self):
        # The ctypes mirror of hwfit_collective_step_in/out: ZeRO-3 with 4 micro-batches
        # reduce-scatters 4 times and gathers parameters 8 times (Rajbhandari et al. 2020).
        from hwfit import _lib
        import ctypes
        s = _lib.hwfit_collective_step_in()
        _lib.hwfit_collective_step_init(ctypes.byref(s))
        s.dp, s.zero_stage, s.micro_batches = 8, 3, 4
        s.grad_bytes = s.param_bytes = 16e9
        o = _lib.hwfit_collective_step_out()
        _lib.check(_lib.hwfit_collective_step(ctypes.byref(s), ctypes.byref(o)))
        self.assertEqual((o.dp_count, o.zero_count), (4, 8))
        self.assertAlmostEqual(o.total_s, o.dp_s + o.zero_s, delta=1e-12)
        self.assertEqual(o.dp.ranks, 8)


if __name__ == "__main__":
    unittest.main()

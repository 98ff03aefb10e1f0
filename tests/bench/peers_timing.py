#!/usr/bin/env python3
"""Time Calculon and llm-analysis on this machine, for `hwfit_bench --peers FILE`.

- llm_analysis_train_ns: llm-analysis's train() (its command-line entry function) on the
  workload of hwfit_bench's memory_eval row: Llama-3.1-70B, 64 H100 SXM, TP 8 x DP 8,
  ZeRO-1, micro-batch 1, sequence 4,096, full recomputation, BF16 (one call = one
  training footprint and step time).
- calculon_layouts_per_s: Calculon's evaluation of one layout (Llm(app), compile, run: what
  its layout search does per layout) for Llama-3.1-405B on 1,024 H100 SXM (TP 8 x PP 16 x
  DP 8, micro-batch 1, sequence 4,096, full recomputation, BF16), as layouts per second on
  one core (the unit of hwfit_bench's perf_plan_layouts_per_s).

Both are given hwfit's catalog figures for the H100 (as tests/accuracy/peers.py does). Each
figure is the median of N single calls (time.perf_counter_ns around each), after a warm-up
call; the load average is recorded before and after. Peers' missing imports (numpy, pandas,
psutil, fire) are stubbed as in peers.py. Writes the `key value` file hwfit_bench reads
(--txt) and a JSON record with the command, commits, N, load and spread (--json).

Usage: peers_timing.py --calculon DIR --llm-analysis DIR [--cli PATH] [--calls N]
                       [--txt FILE] [--json FILE]
"""
import argparse
import json
import os
import pathlib
import platform
import statistics
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "tests" / "accuracy"))
import peers as pr  # noqa: E402  (catalog, stubs, Calculon system from hwfit's figures)


def median_ns(fn, n):
    fn()
    times = []
    for _ in range(n):
        t0 = time.perf_counter_ns()
        fn()
        times.append(time.perf_counter_ns() - t0)
    return statistics.median(times), min(times), max(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calculon", required=True)
    ap.add_argument("--llm-analysis", required=True)
    ap.add_argument("--cli", default=str(ROOT / "build/dev/examples/hwfit"))
    ap.add_argument("--data", default=str(ROOT / "tests/data"))
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--txt", default=str(HERE / "peers-timing.txt"))
    ap.add_argument("--json", default=str(HERE / "peers-timing.json"))
    args = ap.parse_args()
    stub_dir = pathlib.Path(tempfile.mkdtemp(prefix="peer-stubs-"))
    for name, text in pr.STUBS.items():
        (stub_dir / name).write_text(text)
    sys.path.insert(0, str(stub_dir))
    cal, lla = pathlib.Path(args.calculon).resolve(), pathlib.Path(args.llm_analysis).resolve()
    sys.path.insert(0, str(cal))
    sys.path.insert(0, str(lla))
    import logging
    from llm_analysis import analysis as la
    from llm_analysis import config as lc
    from calculon.llm import Llm
    from calculon import System
    la.logger.setLevel(logging.ERROR)

    gpu = pr.catalog(args.cli)["h100-sxm"]
    data = pathlib.Path(args.data)
    load_before = os.getloadavg()

    # llm-analysis: its train() with the model as a config file and the GPU registered
    cfg70 = json.loads((data / "models" / "llama-3.1-70b.config.json").read_text())
    model = {"name": "llama-3.1-70b", "num_layers": cfg70["num_hidden_layers"],
             "n_head": cfg70["num_attention_heads"], "hidden_dim": cfg70["hidden_size"],
             "vocab_size": cfg70["vocab_size"], "max_seq_len": 4096,
             "num_key_value_heads": cfg70["num_key_value_heads"],
             "ffn_embed_dim": cfg70["intermediate_size"], "model_type": "llama",
             "mlp_gated_linear_units": True}
    model_path = stub_dir / "llama-3.1-70b.json"
    model_path.write_text(json.dumps(model))
    lc.gpu_configs["h100-sxm"] = lc.GPUConfig(
        name="h100-sxm", mem_per_GPU_in_GB=gpu["memory_bytes"] / 1e9,
        hbm_bandwidth_in_GB_per_sec=gpu["memory_bandwidth_bytes_per_s"] / 1e9,
        intra_node_bandwidth_in_GB_per_sec=gpu["peer_bytes_per_s"] / 1e9,
        intra_node_min_message_latency=8e-06,
        peak_fp16_TFLOPS=gpu["fp16_bf16_flop_per_s"] / 1e12,
        peak_i8_TFLOPS=gpu["fp8_flop_per_s"] / 1e12, inter_node_bandwidth_in_GB_per_sec=400)
    la_call = dict(model_name=str(model_path), gpu_name="h100-sxm", dtype_name="w16a16e16",
                   log_level="ERROR", batch_size_per_gpu=1, gradient_accumulation_steps=1,
                   seq_len=4096, activation_recomputation=4, ds_zero=1, tp_size=8, dp_size=8,
                   total_num_gpus=64, flops_efficiency=0.5)

    def la_once():
        la.train(**la_call)
    la_med, la_min, la_max = median_ns(la_once, args.calls)

    # Calculon: one layout of 405B on 1,024 H100
    cfg405 = json.loads((data / "models" / "llama-3.1-405b.config.json").read_text())
    app, att, _ = pr.calculon_app(cfg405, 4096)
    base = json.loads((cal / "systems" / "h100_80g_nvl8.json").read_text())
    sysj, dtype = pr.calculon_system(base, gpu, "bf16", 8, 50e9)
    exe = {"num_procs": 1024, "tensor_par": 8, "pipeline_par": 16, "data_par": 8,
           "tensor_par_net": 0, "pipeline_par_net": 1, "data_par_net": 1, "batch_size": 1024,
           "microbatch_size": 1, "datatype": dtype, "fused_activation": True,
           "attention_type": att, "activation_recompute": "full", "pipeline_interleaving": 1,
           "optimizer_sharding": True, "tensor_par_comm_type": "rs_ag",
           "tensor_par_overlap": "none", "seq_par_ag_redo": False, "data_par_overlap": True,
           "weight_offload": False, "activations_offload": False, "optimizer_offload": False,
           "training": True}
    logger = logging.getLogger("calculon")

    def cal_once():
        m = Llm(Llm.Application(app), logger)
        syst = System(sysj)
        m.compile(syst, Llm.Execution.from_json(exe))
        m.run(syst)
        return m.get_sample_rate()
    cal_once()  # raises if the layout is refused
    cal_med, cal_min, cal_max = median_ns(cal_once, args.calls)
    load_after = os.getloadavg()

    command = ("tests/bench/peers_timing.py --calculon DIR --llm-analysis DIR "
               f"--calls {args.calls}")
    record = {
        "command": command,
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
                   f"python {platform.python_version()}",
        "load_average_before": load_before, "load_average_after": load_after,
        "calls": args.calls,
        "date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
        "peers": {"calculon": (cal / "COMMIT").read_text().strip()
                  if (cal / "COMMIT").exists() else None,
                  "llm-analysis": (lla / "COMMIT").read_text().strip()
                  if (lla / "COMMIT").exists() else None},
        "llm_analysis_train_ns": {"median": la_med, "min": la_min, "max": la_max,
                                  "call": {k: v for k, v in la_call.items()
                                           if k != "model_name"} | {"model": model}},
        "calculon_layout_eval_ns": {"median": cal_med, "min": cal_min, "max": cal_max,
                                    "execution": exe, "application": app},
        "calculon_layouts_per_s": 1e9 / cal_med,
    }
    pathlib.Path(args.json).write_text(json.dumps(record, indent=1) + "\n")
    pathlib.Path(args.txt).write_text(
        f"# {command}\n# {record['date_utc']} UTC, {record['machine']}, load average "
        f"{load_before[0]:.1f} before / {load_after[0]:.1f} after, median of {args.calls} calls\n"
        f"llm_analysis_train_ns {la_med:.0f}\n"
        f"calculon_layouts_per_s {1e9 / cal_med:.1f}\n")
    print(f"llm-analysis train(): median {la_med / 1e3:.0f} us (min {la_min / 1e3:.0f}, "
          f"max {la_max / 1e3:.0f}); Calculon one layout: median {cal_med / 1e3:.0f} us "
          f"= {1e9 / cal_med:.0f} layouts/s; load {load_before[0]:.1f} -> {load_after[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

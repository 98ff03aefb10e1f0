#!/usr/bin/env python3
"""Smoke test of hwfit_bench: `hwfit_bench --quick --json` runs, prints one JSON object with
the keys the issue asks for, and every figure is a finite number. Never asserts on time.

    smoke.py HWFIT_BENCH [--no-python]
"""
import json
import math
import os
import subprocess
import tempfile
import sys

REQUIRED = ["memory_eval_ns", "plan_layouts_per_s", "inference_eval_ns", "collective_eval_ns",
            "fit_check_ns", "plan_search_ns", "step_time_eval_ns", "perf_plan_search_ns",
            "perf_plan_layouts_per_s", "hf_config_load_ns", "memory_batch_ns", "fit_batch_ns",
            "collective_batch_ns", "build_type", "optimized", "machine", "python",
            "memory_eval_uncached_ns", "memory_eval_varied_ns", "eval_plan_search_ns"]
PYTHON = ["python_memory_call_ns", "python_memory_batch_ns_per_config",
          "python_fit_batch_ns_per_config", "python_raw_call_ns", "python_fit_call_ns",
          "python_memory_columns_ns_per_config", "python_fit_columns_ns_per_config",
          "python_memory_call_varied_ns", "python_fit_request_call_ns",
          "python_memory_call_window_ns"]


def main():
    bench = sys.argv[1]
    # A peer's timing file (issue 19): its figure comes back next to ours, with the ratio.
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as peers:
        peers.write("# a peer's timing, key value\nllm_analysis_train_ns 378000\n")
    args = [bench, "--quick", "--json", "--peers", peers.name] + \
        (["--no-python"] if "--no-python" in sys.argv else [])
    try:
        run = subprocess.run(args, capture_output=True, text=True, timeout=1200)
    finally:
        os.unlink(peers.name)
    if run.returncode != 0:
        print(f"hwfit_bench exited {run.returncode}: {run.stderr}", file=sys.stderr)
        return 1
    lines = [line for line in run.stdout.splitlines() if line.strip()]
    if len(lines) != 1:
        print(f"expected one line of JSON, got {len(lines)}:\n{run.stdout}", file=sys.stderr)
        return 1
    doc = json.loads(lines[0])
    missing = [k for k in REQUIRED if k not in doc]
    if missing:
        print(f"missing keys: {missing}", file=sys.stderr)
        return 1
    vs = doc.get("vs_peers", {}).get("memory_eval_ns", {})
    if doc.get("peers", {}).get("llm_analysis_train_ns") != 378000 or \
            not isinstance(vs.get("times_faster"), (int, float)) or \
            not math.isclose(vs.get("ours", 0), doc["memory_eval_ns"], rel_tol=1e-3):
        print(f"peers: expected llm_analysis_train_ns next to memory_eval_ns, got "
              f"{doc.get('peers')} {doc.get('vs_peers')}", file=sys.stderr)
        return 1
    machine = doc["machine"]
    if not isinstance(machine.get("cpu"), str) or not isinstance(machine.get("cores"), int):
        print(f"machine: expected cpu (string) and cores (integer), got {machine}",
              file=sys.stderr)
        return 1
    for key in REQUIRED:
        if key.endswith("_ns") or key.endswith("_per_s"):
            v = doc[key]
            if not isinstance(v, (int, float)) or not math.isfinite(v):
                print(f"{key}: expected a finite number, got {v!r}", file=sys.stderr)
                return 1
    if doc["python"]:
        for key in PYTHON:
            v = doc.get(key)
            if not isinstance(v, (int, float)) or not math.isfinite(v):
                print(f"{key}: expected a finite number, got {v!r}", file=sys.stderr)
                return 1
    print(f"hwfit_bench --quick --json: {len(doc)} keys, memory_eval_ns and "
          f"plan_layouts_per_s present (python: {doc['python']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Run the hwfit command under valgrind on every subcommand and on bad input.

Each invocation must exit with its usual status (0, or 2 for bad input) and valgrind must
report no memory error and no definite leak (--error-exitcode=99). Registered by
tests/CMakeLists.txt when valgrind is installed and the build has no sanitizer.

Usage: run.py VALGRIND HWFIT_CLI TEST_DATA_DIR
"""
import os
import subprocess
import sys
import tempfile


def invocations(data):
    config = os.path.join(data, "models", "llama-3.1-8b.config.json")
    moe = os.path.join(data, "models", "deepseek-v3.config.json")
    models = os.path.join(data, "models")
    spec = os.path.join(data, "..", "..", "examples", "specs", "seed-server.json")
    ok = [
        ["--version"],
        ["--help"],
        ["units", "15.36TB", "--json"],
        ["dtypes"],
        ["gpus", "--json"],
        ["gpus", "h100-sxm"],
        ["link", "2x400g-roce", "--json"],
        ["model", "--config", moe, "--weights", "q4_k", "--json"],
        ["memory", "--config", config, "--mode", "qlora", "--context", "8K"],
        ["raid", "--level", "draid2:8d:1s", "--drives", "24", "--drive-size", "15.36TB"],
        ["transfer", "--size", "140GB", "--rate", "800Gb/s", "--transport", "nvmeof-roce"],
        ["power", "--psus", "4", "--psu-watts", "3200", "--component", "gpu:8:600W",
         "--component", "cpu:2:400W", "--capex", "300000", "--json"],
        ["host", "--sockets", "2", "--channels", "12", "--dimms", "24", "--mts", "6400",
         "--lanes", "128", "--gpus", "8", "--nvme", "4"],
        ["collective", "--nodes", "2", "--nic", "8x400g-ib", "--sweep", "--size", "1MiB"],
        ["fit", "--config", config, "--gpu", "h100-sxm", "--gpus", "2", "--mode", "inference"],
        ["plan", "--config", config, "--gpu", "h100-sxm", "--gpus", "8", "--top", "3", "--json"],
        ["perf", "--config", config, "--gpu", "h100-sxm", "--gpus", "2", "--batch", "8"],
        ["assess", "--node", spec, "--models-dir", models, "--workload",
         "serve:llama-3.1-8b:bf16:8K", "--markdown"],
        ["assess", "--node", spec, "--models-dir", models, "--workload",
         "serve:llama-3.1-8b:bf16:8K", "--html", os.devnull],
        ["collective", "--op", "allreduce", "--size", "1GiB", "--gpu", "h100-sxm", "--gpus", "8",
         "--sweep", "--svg", os.devnull],
    ]
    bad = [
        [],
        ["frobnicate"],
        ["units", "12parsecs"],
        ["model", "--config", "/nonexistent/config.json"],
        ["memory", "--config", config, "--mode", "full", "--micro-batch", "0"],
        ["power", "--psus", "2", "--psu-watts", "3000", "--load", "1kW", "--redundant", "2"],
        ["collective", "--nodes", "2"],
        ["raid", "--level", "6", "--drives", "3", "--drive-size", "1TB"],
        ["fit", "--config", config, "--gpu", "h100-sxm", "--gpus", "0"],
        ["perf", "--config", config, "--gpu", "no-such-gpu", "--gpus", "2"],
        ["assess", "--node", "/nonexistent/node.json"],
    ]
    return [(a, 0) for a in ok] + [(a, 2) for a in bad]


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 1
    valgrind, cli, data = sys.argv[1:]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        # A malformed config exercises the reader's error path (it frees what it parsed).
        broken = os.path.join(tmp, "broken.json")
        with open(broken, "w") as f:
            f.write('{"model_type": "llama", "num_hidden_layers": [1, 2, {"x": "\\u00e9"}],}')
        runs = invocations(data) + [(["model", "--config", broken], 2)]
        for args, want in runs:
            cmd = [valgrind, "--quiet", "--error-exitcode=99", "--leak-check=full",
                   "--errors-for-leak-kinds=definite", "--track-origins=yes", cli, *args]
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
            if p.returncode != want:
                failed += 1
                print(f"FAIL hwfit {' '.join(args)}: exit {p.returncode}, want {want}")
                print(p.stderr[-4000:])
            else:
                print(f"ok   hwfit {' '.join(args)}")
    print(f"{len(runs) - failed} of {len(runs)} invocations clean under valgrind")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

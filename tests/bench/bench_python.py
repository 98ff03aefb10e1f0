#!/usr/bin/env python3
"""How much the Python binding costs: one call at a time versus the batch path.

    python3 tests/bench/bench_python.py [--quick] [--machine]

Run by hwfit_bench when python3 is on the PATH (it sets HWFIT_LIBRARY and PYTHONPATH), or
by hand with PYTHONPATH=bindings/python (the library is found as hwfit._lib describes).
Each figure is the median over repetitions after a warm-up, in nanoseconds per call or per
configuration, from time.perf_counter_ns. --machine prints "key value" lines for
hwfit_bench; the default is a table.

- python_memory_call_ns: hwfit.memory(config=..., context=...) - the Pythonic single call
  (options as text, one request of the library's request layer, which reads the config
  file, and its JSON parsed back into a dict).
- python_raw_call_ns: hwfit_memory_estimate_batch of one configuration through the raw
  ctypes layer with prepared structs - the floor of any one-call-per-configuration loop.
- python_memory_batch_ns_per_config: hwfit.memory_batch over N configurations (contexts and
  batches varying), inputs built and results read back, divided by N.
- python_fit_call_ns: hwfit.fit_batch with one configuration (the Pythonic fit check).
- python_raw_fit_call_ns: hwfit_shard_estimate_batch of one configuration through ctypes
  with prepared structs.
- python_fit_batch_ns_per_config: hwfit.fit_batch over N configurations, divided by N.
- python_fits_only_batch_ns_per_config: the same reading back only "fits" (keys=["fits"]),
  what a scheduler asks.
- python_memory_call_window_ns: the same call with hwfit.set_model_cache_window(60): the
  thread's model cache checks the config file (and its directory) once a minute instead of
  at every call, so an edit inside the minute is not seen (python_memory_call_ns keeps
  the default, 0: every call checked).
- python_memory_call_varied_ns: hwfit.memory() as above, the context changing every call
  (nothing of the previous answer can be reused: the figure of a loop that asks new
  questions).
- python_fit_request_call_ns: hwfit.fit(config=..., gpu=..., ...) - the fit command itself
  (layout, best plan, largest context and batch, cards: much more than the fit check).
- python_memory_columns_ns_per_config: hwfit.memory_batch with columns in (array.array)
  and out (out= arrays the caller reuses), all ten result columns, divided by N.
- python_fit_columns_ns_per_config: hwfit.fit_batch the same way, reading back "fits" and
  "headroom_bytes".
"""
import array
import ctypes
import os
import statistics
import sys
import time

import hwfit
from hwfit import _lib

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get("HWFIT_TEST_DATA", os.path.join(HERE, "..", "data"))


def measure(fn, per, reps):
    """Median and min ns per item of fn() (which handles `per` items), after a warm-up."""
    fn()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter_ns()
        fn()
        times.append((time.perf_counter_ns() - t0) / per)
    return statistics.median(times), min(times)


def main():
    quick = "--quick" in sys.argv
    machine = "--machine" in sys.argv
    reps = 3 if quick else 9
    calls = 200 if quick else 5000
    n = 20000 if quick else 1000000
    nfit = 5000 if quick else 200000
    model = hwfit.load_config(os.path.join(DATA, "models", "llama-3.1-70b.config.json"))

    results = {}

    def one_memory():
        for _ in range(calls):
            hwfit.memory(config=model, context=8192, batch=8)
    results["python_memory_call_ns"] = measure(one_memory, calls, reps)
    # the same with the model caches' revalidation window at 60 s: the config file is
    # checked once a minute instead of every call (two stat calls fewer per call)
    hwfit.set_model_cache_window(60)
    try:
        results["python_memory_call_window_ns"] = measure(one_memory, calls, reps)
    finally:
        hwfit.set_model_cache_window(0)

    mem_in = _lib.hwfit_memory_in()
    _lib.hwfit_memory_init(ctypes.byref(mem_in))
    mem_in.context, mem_in.batch = 8192, 8
    mem_out = _lib.hwfit_memory_out()
    status = ctypes.c_int()
    est, mref, iref, oref, stref = (_lib.hwfit_memory_estimate_batch, ctypes.byref(model),
                                    ctypes.byref(mem_in), ctypes.byref(mem_out),
                                    ctypes.byref(status))

    def raw_memory():
        for _ in range(calls):
            est(mref, iref, 1, oref, stref)
    results["python_raw_call_ns"] = measure(raw_memory, calls, reps)

    contexts = [1024 << (i % 8) for i in range(n)]
    batches = [1 + i % 64 for i in range(n)]

    def batch_memory():
        r = hwfit.memory_batch(model, context=contexts, batch=batches)
        assert len(r["total_bytes"]) == n
    results["python_memory_batch_ns_per_config"] = measure(batch_memory, n, max(3, reps // 3))
    results["python_memory_batch_configs"] = (float(n), float(n))

    def one_fit():
        for _ in range(calls // 10):
            hwfit.fit_batch(model, gpu="h100-sxm", gpus=8, tp=8, context=8192, batch=32)
    results["python_fit_call_ns"] = measure(one_fit, calls // 10, reps)

    varied = [1024 * (1 + i % 64) for i in range(calls)]

    def one_memory_varied():
        for c in varied:
            hwfit.memory(config=model, context=c, batch=8)
    results["python_memory_call_varied_ns"] = measure(one_memory_varied, calls, reps)

    def one_fit_request():
        for _ in range(calls // 50):
            hwfit.fit(config=model, gpu="h100-sxm", gpus=8, tp=8, context=8192, batch=32)
    results["python_fit_request_call_ns"] = measure(one_fit_request, calls // 50, reps)

    sin = _lib.hwfit_shard_in()
    _lib.hwfit_shard_init(ctypes.byref(sin))
    sin.memory.context, sin.memory.batch = 8192, 32
    sin.gpus, sin.capacity_bytes, sin.layout.tp = 8, 80e9, 8
    sout = _lib.hwfit_shard_out()
    sest, sref, soref = (_lib.hwfit_shard_estimate_batch, ctypes.byref(sin),
                         ctypes.byref(sout))

    def raw_fit():
        for _ in range(calls):
            sest(mref, sref, 1, soref, stref)
    results["python_raw_fit_call_ns"] = measure(raw_fit, calls, reps)

    fcontexts = contexts[:nfit]
    fbatches = batches[:nfit]

    def batch_fit():
        r = hwfit.fit_batch(model, gpu="h100-sxm", gpus=8, tp=8, context=fcontexts,
                            batch=fbatches)
        assert len(r["fits"]) == nfit
    results["python_fit_batch_ns_per_config"] = measure(batch_fit, nfit, max(3, reps // 3))
    results["python_fit_batch_configs"] = (float(nfit), float(nfit))

    def batch_fits_only():
        r = hwfit.fit_batch(model, gpu="h100-sxm", gpus=8, tp=8, context=fcontexts,
                            batch=fbatches, keys=["fits"])
        assert len(r["fits"]) == nfit
    results["python_fits_only_batch_ns_per_config"] = measure(batch_fits_only, nfit,
                                                              max(3, reps // 3))

    ccontexts = array.array("Q", contexts)
    cbatches = array.array("Q", batches)
    mem_out = {k: array.array("Q", [0]) * n for k in (
        "params", "trainable_params", "adapter_params", "weights_bytes", "kv_bytes",
        "activation_bytes", "gradient_bytes", "optimizer_bytes", "overhead_bytes",
        "total_bytes")}

    def columns_memory():
        r = hwfit.memory_batch(model, context=ccontexts, batch=cbatches, out=mem_out)
        assert len(r["total_bytes"]) == n
    results["python_memory_columns_ns_per_config"] = measure(columns_memory, n,
                                                             max(3, reps // 3))

    fit_out = {"fits": array.array("i", [0]) * nfit,
               "headroom_bytes": array.array("d", [0]) * nfit}
    fccontexts, fcbatches = ccontexts[:nfit], cbatches[:nfit]

    def columns_fit():
        r = hwfit.fit_batch(model, gpu="h100-sxm", gpus=8, tp=8, context=fccontexts,
                            batch=fcbatches, keys=["fits", "headroom_bytes"], out=fit_out)
        assert len(r["fits"]) == nfit
    results["python_fit_columns_ns_per_config"] = measure(columns_fit, nfit, max(3, reps // 3))

    if machine:
        for key, (median, _) in results.items():
            print(f"{key} {median:.2f}")
        return 0
    print(f"hwfit {hwfit.__version__} Python binding (Python {sys.version.split()[0]}); "
          f"median and min over repetitions")
    print(f"{'figure':44} {'median':>14} {'min':>14}")
    for key, (median, low) in results.items():
        unit = "" if key.endswith("configs") else " ns"
        print(f"{key:44} {median:>11.1f}{unit:3} {low:>11.1f}{unit:3}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

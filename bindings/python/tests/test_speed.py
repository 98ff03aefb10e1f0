"""What makes repeated calls cheap (issue 19) changes no answer: the thread's model cache
and reused requests, columns in and out of the batch functions through the buffer
protocol, the caller's output columns (out=), and the prepared-model cache of a single
fit_batch configuration."""
import array
import ctypes
import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import unittest

import hwfit
from hwfit import _batch, _request

DATA = os.environ.get("HWFIT_TEST_DATA",
                      os.path.join(os.path.dirname(__file__), "..", "..", "..", "tests", "data"))
CFG70 = os.path.join(DATA, "models", "llama-3.1-70b.config.json")
CFG8 = os.path.join(DATA, "models", "llama-3.1-8b.config.json")
CFG_MOE = os.path.join(DATA, "models", "mixtral-8x7b-instruct-v0.1.config.json")
MEMORY_KEYS = ["params", "trainable_params", "adapter_params", "weights_bytes", "kv_bytes",
               "activation_bytes", "gradient_bytes", "optimizer_bytes", "overhead_bytes",
               "total_bytes"]


class ReusedRequests(unittest.TestCase):
    def test_options_of_one_call_do_not_leak_into_the_next(self):
        # The thread's request of a command is reset before each call: a flag, a choice
        # and a number given once are back to their defaults the next time.
        plain = hwfit.memory(config=CFG70, context=4096)
        hwfit.memory(config=CFG70, context=8192, mode="full", recompute="full",
                     no_dropout=True, kv="fp8")
        self.assertEqual(hwfit.memory(config=CFG70, context=4096), plain)
        self.assertEqual(plain["mode"], "inference")

    def test_a_refused_call_leaves_the_next_one_right(self):
        good = hwfit.memory(config=CFG70, context=8192, batch=2)
        with self.assertRaises(hwfit.HwfitError) as e:
            hwfit.memory(config=CFG70, context=0)
        self.assertEqual(e.exception.option, "context")
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory(config=os.path.join(DATA, "no-such-dir", "config.json"))
        self.assertEqual(hwfit.memory(config=CFG70, context=8192, batch=2), good)

    def test_an_edited_config_is_read_again(self):
        # The model cache keys a config by its file's size and times: an edit is seen.
        d = tempfile.mkdtemp(prefix="hwfit-speed-")
        try:
            path = os.path.join(d, "config.json")
            shutil.copy(CFG8, path)
            first = hwfit.memory(config=path, context=4096)
            with open(path) as f:
                text = f.read()
            self.assertIn('"num_hidden_layers": 32', text)
            with open(path, "w") as f:  # the same length: only the times tell
                f.write(text.replace('"num_hidden_layers": 32', '"num_hidden_layers": 31'))
            second = hwfit.memory(config=path, context=4096)
            self.assertLess(second["params"], first["params"])
            self.assertEqual(second, hwfit.memory(config=path, context=4096))
            # fit_batch keeps its own models by path, also by the file's signature
            a = hwfit.fit_batch(path, gpu="h100-sxm", context=4096)["total_bytes"]
            with open(path, "w") as f:
                f.write(text)
            b = hwfit.fit_batch(path, gpu="h100-sxm", context=4096)["total_bytes"]
            self.assertGreater(b, a)
        finally:
            shutil.rmtree(d)

    def test_a_window_keeps_the_checked_model_until_it_is_set_back_to_0(self):
        # set_model_cache_window: inside the window an edit is not seen, in this thread and
        # in another one, whose cache picks the window up at its next call; back to 0.0
        # both see it at once. No assertion on time: an hour is longer than the test.
        d = tempfile.mkdtemp(prefix="hwfit-window-")
        self.assertEqual(hwfit.model_cache_window(), 0.0)
        asks, answers = queue.Queue(), queue.Queue()

        def worker():  # a thread that keeps its cache between the main thread's steps
            while asks.get():
                answers.put(hwfit.memory(config=path, context=4096))
        t = threading.Thread(target=worker)
        try:
            path = os.path.join(d, "config.json")
            shutil.copy(CFG8, path)
            with open(path) as f:
                text = f.read()
            t.start()
            asks.put(True)
            self.assertEqual(answers.get()["params"], hwfit.memory(config=CFG8)["params"])
            hwfit.set_model_cache_window(3600)  # after the worker made its cache
            self.assertEqual(hwfit.model_cache_window(), 3600.0)
            first = hwfit.memory(config=path, context=4096)
            asks.put(True)
            self.assertEqual(answers.get(), first)  # the worker checks: a new window
            with open(path, "w") as f:  # the same length: only the times tell
                f.write(text.replace('"num_hidden_layers": 32', '"num_hidden_layers": 31'))
            self.assertEqual(hwfit.memory(config=path, context=4096), first,
                             "inside the window the edit is not seen")
            asks.put(True)
            self.assertEqual(answers.get(), first, "nor by the other thread")
            hwfit.set_model_cache_window(0)
            self.assertEqual(hwfit.model_cache_window(), 0.0)
            self.assertLess(hwfit.memory(config=path, context=4096)["params"],
                            first["params"], "window 0: the edit is seen at once")
            asks.put(True)
            self.assertLess(answers.get()["params"], first["params"], "by both threads")
        finally:
            asks.put(False)
            t.join()
            hwfit.set_model_cache_window(0.0)
            shutil.rmtree(d)

    def test_a_window_keeps_the_models_fit_batch_read_by_path(self):
        d = tempfile.mkdtemp(prefix="hwfit-window-")
        try:
            path = os.path.join(d, "config.json")
            shutil.copy(CFG8, path)
            with open(path) as f:
                text = f.read()
            hwfit.set_model_cache_window(3600)
            kw = dict(gpu="h100-sxm", context=4096)
            first = hwfit.fit_batch(path, **kw)["total_bytes"]
            mem = hwfit.memory_batch(path, context=[4096])["total_bytes"]
            with open(path, "w") as f:
                f.write(text.replace('"num_hidden_layers": 32', '"num_hidden_layers": 31'))
            self.assertEqual(hwfit.fit_batch(path, **kw)["total_bytes"], first)
            self.assertEqual(hwfit.memory_batch(path, context=[4096])["total_bytes"], mem)
            hwfit.set_model_cache_window(0.0)
            self.assertLess(hwfit.fit_batch(path, **kw)["total_bytes"], first)
            self.assertLess(hwfit.memory_batch(path, context=[4096])["total_bytes"], mem)
        finally:
            hwfit.set_model_cache_window(0.0)
            shutil.rmtree(d)

    def test_a_window_that_is_not_a_time_of_at_most_a_day_is_refused(self):
        hwfit.set_model_cache_window(60)
        try:
            for bad in (float("nan"), float("inf"), -float("inf"), -1, -1e-9, 86400.001,
                        1e300):
                with self.assertRaises(hwfit.HwfitError) as e:
                    hwfit.set_model_cache_window(bad)
                self.assertEqual(e.exception.name, "HWFIT_EDOM")
                self.assertIn("set_model_cache_window", e.exception.message)
                self.assertIn("from 0 to 86,400", e.exception.message)
                self.assertEqual(hwfit.model_cache_window(), 60.0, bad)
            for bad in ("60", None, True, [1]):
                with self.assertRaises(TypeError):
                    hwfit.set_model_cache_window(bad)
            hwfit.set_model_cache_window(86400)  # a day is allowed
        finally:
            hwfit.set_model_cache_window(0.0)
        self.assertEqual(hwfit.model_cache_window(), 0.0)

    def test_threads_have_their_own_requests_and_caches(self):
        want = hwfit.memory(config=CFG70, context=8192, batch=4)
        got, errors = [], []

        def work():
            try:
                for _ in range(20):
                    got.append(hwfit.memory(config=CFG70, context=8192, batch=4))
                    hwfit.fit_batch(CFG70, gpu="h100-sxm", gpus=8, tp=8, context=8192)
            except Exception as exc:  # reported below
                errors.append(exc)
        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])
        self.assertEqual(len(got), 80)
        self.assertTrue(all(g == want for g in got))
        self.assertIsNot(_request._thread(), None)


class Columns(unittest.TestCase):
    def setUp(self):
        self.m = hwfit.load_config(CFG_MOE)
        self.n = 3 * _batch.CHUNK + 5  # several chunks and a short last one
        self.contexts = [1024 << (i % 7) for i in range(self.n)]
        self.batches = [1 + i % 13 for i in range(self.n)]

    def test_buffers_in_and_columns_out_equal_lists(self):
        lists = hwfit.memory_batch(self.m, context=self.contexts, batch=self.batches)
        for ctx in (array.array("Q", self.contexts),
                    memoryview(array.array("Q", self.contexts)),
                    array.array("L", self.contexts)):
            cols = hwfit.memory_batch(self.m, context=ctx, batch=array.array("Q", self.batches),
                                      columns=True)
            self.assertEqual(sorted(cols), sorted(MEMORY_KEYS))
            for k in MEMORY_KEYS:
                self.assertIsInstance(cols[k], array.array)
                self.assertEqual(cols[k].typecode, "Q")
                self.assertEqual(cols[k].tolist(), lists[k], k)

    def test_fit_columns_equal_lists_and_single_calls(self):
        lists = hwfit.fit_batch(self.m, gpu="h100-sxm", gpus=2, tp=2, context=self.contexts,
                                batch=self.batches, errors="skip")
        cols = hwfit.fit_batch(self.m, gpu="h100-sxm", gpus=2, tp=2,
                               context=array.array("Q", self.contexts),
                               batch=array.array("Q", self.batches), columns=True,
                               errors="skip")
        self.assertEqual(cols["fits"].typecode, "i")
        self.assertEqual(cols["headroom_bytes"].typecode, "d")
        for k, col in lists.items():
            if k == "status":
                continue
            want = [0 if v is None else v for v in col]
            self.assertEqual([type(w)(x) for w, x in zip(want, cols[k])], want, k)
        self.assertEqual(cols["status"].tolist(), [0] * self.n)
        for i in (0, 1, self.n - 1):  # the single call (prepared-model cache) agrees
            one = hwfit.fit_batch(self.m, gpu="h100-sxm", gpus=2, tp=2,
                                  context=self.contexts[i], batch=self.batches[i])
            self.assertEqual({k: v[0] for k, v in one.items()},
                             {k: v[i] for k, v in lists.items() if k != "status"})

    def test_out_fills_the_callers_columns_in_place(self):
        n = self.n
        total = array.array("Q", [7]) * n
        status = array.array("i", [9]) * n
        r = hwfit.memory_batch(self.m, context=self.contexts, batch=self.batches,
                               keys=["total_bytes"], out={"total_bytes": total,
                                                          "status": status}, errors="skip")
        self.assertIs(r["total_bytes"], total)
        self.assertIs(r["status"], status)
        want = hwfit.memory_batch(self.m, context=self.contexts, batch=self.batches)
        self.assertEqual(total.tolist(), want["total_bytes"])
        self.assertEqual(status.tolist(), [0] * n)
        # failures: zeros where the values would be, the status names them
        bad = list(self.contexts)
        bad[5] = 0
        r = hwfit.memory_batch(self.m, context=bad, batch=self.batches, keys=["total_bytes"],
                               out={"total_bytes": total, "status": status}, errors="skip")
        self.assertEqual(total[5], 0)
        self.assertNotEqual(status[5], 0)
        self.assertEqual(total[6], want["total_bytes"][6])

    def test_bad_out_is_refused_naming_it(self):
        for out, words in (({"total_bytes": array.array("Q", [0]) * 3}, "out['total_bytes']"),
                           ({"total_bytes": array.array("d", [0]) * 4}, "out['total_bytes']"),
                           ({"total_bytes": bytes(32)}, "out['total_bytes']"),
                           ({"nonsense": array.array("Q", [0]) * 4}, "out: unknown"),
                           ([1, 2], "out: expected a dict")):
            with self.assertRaises(hwfit.HwfitError) as e:
                hwfit.memory_batch(self.m, context=[1024, 2048, 4096, 8192], out=out)
            self.assertIn(words, e.exception.message)

    def test_a_signed_or_float_buffer_is_converted_and_checked(self):
        # A buffer of another kind is read value by value: a negative count is refused.
        with self.assertRaises(hwfit.HwfitError):
            hwfit.memory_batch(self.m, context=array.array("q", [1024, -1]))
        r = hwfit.memory_batch(self.m, context=array.array("q", [1024, 2048]), columns=True)
        self.assertEqual(r["total_bytes"].tolist(),
                         hwfit.memory_batch(self.m, context=[1024, 2048])["total_bytes"])

    def test_empty_columns(self):
        r = hwfit.memory_batch(self.m, context=array.array("Q"), columns=True, errors="skip")
        self.assertEqual(r["total_bytes"], array.array("Q"))
        self.assertEqual(r["status"], array.array("i"))


class SingleFit(unittest.TestCase):
    def test_an_edited_model_struct_is_prepared_again(self):
        # The prepared-model cache of a single fit_batch keys the model's bytes.
        m = hwfit.load_config(CFG70)
        a = hwfit.fit_batch(m, gpu="h100-sxm", gpus=8, tp=8, context=8192)
        m.layers = 40
        b = hwfit.fit_batch(m, gpu="h100-sxm", gpus=8, tp=8, context=8192)
        self.assertLess(b["total_bytes"][0], a["total_bytes"][0])
        m.layers = 80
        self.assertEqual(hwfit.fit_batch(m, gpu="h100-sxm", gpus=8, tp=8, context=8192), a)

    def test_a_refusal_is_the_batch_refusal(self):
        m = hwfit.load_config(CFG70)
        with self.assertRaises(hwfit.HwfitError) as one:
            hwfit.fit_batch(m, gpu="h100-sxm", gpus=8, tp=3, context=8192)
        with self.assertRaises(hwfit.HwfitError) as two:
            hwfit.fit_batch(m, gpu="h100-sxm", gpus=[8, 8], tp=[3, 3], context=8192)
        self.assertEqual(one.exception.status, two.exception.status)

    def test_a_single_configuration_equals_the_batch_in_every_form(self):
        m = hwfit.load_config(CFG_MOE)
        for tp, errors, columns in ((2, "skip", False), (3, "skip", False), (2, "skip", True),
                                    (3, "skip", True), (2, "raise", True)):
            one = hwfit.fit_batch(m, gpu="h100-sxm", gpus=2, tp=tp, context=8192,
                                  errors=errors, columns=columns)
            two = hwfit.fit_batch(m, gpu="h100-sxm", gpus=[2, 2], tp=[tp, tp], context=8192,
                                  errors=errors, columns=columns)
            self.assertEqual(sorted(one), sorted(two))
            for k in one:
                self.assertEqual(type(one[k]), type(two[k]), k)
                self.assertEqual(list(one[k]), list(two[k])[:1], (tp, errors, columns, k))


class RememberedCalls(unittest.TestCase):
    """A call's option texts (hwfit.memory and the other commands) and a single fit_batch
    configuration's input are remembered by the call's arguments: the second call of a
    loop answers as the first, and arguments that are equal but not alike are not taken
    for one another."""

    def test_repeated_commands_equal_the_cli_json(self):
        cli = os.environ.get("HWFIT_CLI")
        if not cli:
            self.skipTest("HWFIT_CLI not set (run through ctest)")
        m = hwfit.load_config(CFG70)
        cases = [
            (hwfit.memory, dict(config=m, context=8192, batch=8),
             ["memory", "--config", CFG70, "--context", "8192", "--batch", "8"]),
            (hwfit.memory, dict(config=CFG70, context="8K", mode="full", micro_batch=2),
             ["memory", "--config", CFG70, "--context", "8K", "--mode", "full",
              "--micro-batch", "2"]),
            (hwfit.fit, dict(config=m, gpu="h100-sxm", gpus=8, tp=8, context=8192, batch=32),
             ["fit", "--config", CFG70, "--gpu", "h100-sxm", "--gpus", "8", "--tp", "8",
              "--context", "8192", "--batch", "32"]),
        ]
        for fn, kwargs, argv in cases:
            want = json.loads(subprocess.run([cli, *argv, "--json"], capture_output=True,
                                             text=True).stdout)
            for _ in range(3):  # the first call works the options out, the others reuse them
                got = fn(**kwargs)
                self.assertIsInstance(got, hwfit.Result)
                self.assertEqual(got, want, argv)

    def test_equal_values_of_other_types_are_not_taken_for_one_another(self):
        good = hwfit.memory(config=CFG70, context=8192, batch=1)
        with self.assertRaises(TypeError):  # 8192.0 == 8192, but a token count is whole
            hwfit.memory(config=CFG70, context=8192.0, batch=1)
        with self.assertRaises(TypeError):  # True == 1, but not a count
            hwfit.memory(config=CFG70, context=8192, batch=True)
        self.assertEqual(hwfit.memory(config=CFG70, context=8192, batch=1), good)
        # -0.0 == 0.0, but is written "-0.0": the two calls are kept apart
        key = _request._call_key
        self.assertNotEqual(key("memory", (), {"overhead": 0.0}),
                            key("memory", (), {"overhead": -0.0}))
        # a loaded model stands for its path (what is sent for it); one read from text
        # is refused each time
        one, two = hwfit.load_config(CFG70), hwfit.load_config(CFG70)
        self.assertIsNotNone(key("memory", (), {"config": one, "context": None}))
        self.assertEqual(key("memory", (), {"config": one}), key("memory", (), {"config": two}))
        self.assertNotEqual(key("memory", (), {"config": one}),
                            key("memory", (), {"config": hwfit.load_config(CFG8)}))
        self.assertNotEqual(key("memory", (), {"config": one}),
                            key("memory", (), {"config": CFG70}))
        from_text = hwfit.load_config(text='{"model_type": "llama"}')
        self.assertIsNone(key("memory", (), {"config": from_text}))
        for _ in range(2):
            with self.assertRaises(TypeError):
                hwfit.memory(config=from_text)

    def test_results_are_read_as_json_loads_reads_them(self):
        for text in ('{"a": 1, "b": [true, null, 2.5], "c": {"d": "e"}}\n', '{}', ' {"a": 1}',
                     '{"a": 12345678901234567890}\n\n'):
            self.assertEqual(_request._parse(text), json.loads(text))
        for bad in ('{"a": 1} x', '{"a": }', '', '[1] [2]'):
            with self.assertRaises(json.JSONDecodeError):
                json.loads(bad)
            with self.assertRaises(json.JSONDecodeError):
                _request._parse(bad)

    def test_a_result_longer_than_the_threads_buffer_is_whole(self):
        # The thread's result buffer starts at 16 KB and grows; the catalog is about 45 KB.
        state = _request._thread()
        state.buf = ctypes.create_string_buffer(8)
        want = hwfit.memory(config=CFG70, context=8192)
        self.assertGreater(len(state.buf), 8)
        state.buf = ctypes.create_string_buffer(8)
        text = hwfit.run("gpus", "json")
        self.assertEqual(len(state.buf), len(text.encode()) + 1)  # grown to what it needed
        self.assertEqual(json.loads(text), hwfit.gpus())
        self.assertEqual(hwfit.memory(config=CFG70, context=8192), want)
        cli = os.environ.get("HWFIT_CLI")
        if cli:
            self.assertEqual(text, subprocess.run([cli, "gpus", "--json"], capture_output=True,
                                                  text=True).stdout)

    def test_single_fit_checks_answer_as_the_first_call(self):
        m = hwfit.load_config(CFG70)
        ask = dict(gpu="h100-sxm", gpus=8, tp=8, context=8192, batch=32)
        first = hwfit.fit_batch(m, **ask)
        self.assertEqual(hwfit.fit_batch(m, **ask), first)
        self.assertEqual(hwfit.fit_batch(m, **ask, keys=["fits"]), {"fits": first["fits"]})
        self.assertEqual(hwfit.fit_batch(m, **ask, keys=[]), {})  # not the keys=None input
        self.assertEqual(hwfit.fit_batch(m, **ask), first)
        self.assertEqual(list(hwfit.fit_batch(m, **ask, keys=("total_bytes", "fits"))),
                         ["total_bytes", "fits"])
        cols = hwfit.fit_batch(m, **ask, columns=True)
        self.assertEqual({k: v.tolist() for k, v in cols.items()},
                         {k: [int(x) if isinstance(x, bool) else x for x in v]
                          for k, v in first.items()})
        for bad in (dict(ask, tp=8.0), dict(ask, tp=True), dict(ask, gpus="8x")):
            with self.assertRaises(hwfit.HwfitError):  # equal to tp=8 but not a count
                hwfit.fit_batch(m, **bad)
        skipped = hwfit.fit_batch(m, **dict(ask, tp=3), errors="skip")
        self.assertEqual(skipped["status"], ["HWFIT_ELAYOUT"])
        self.assertEqual(hwfit.fit_batch(m, **dict(ask, tp=3), errors="skip"), skipped)
        with self.assertRaises(hwfit.HwfitError):
            hwfit.fit_batch(m, **dict(ask, tp=3))
        # a path is read again when the file changed (its signature), the struct is not
        self.assertEqual(hwfit.fit_batch(CFG70, **ask), first)
        m.layers = 40
        self.assertLess(hwfit.fit_batch(m, **ask)["total_bytes"][0], first["total_bytes"][0])


if __name__ == "__main__":
    unittest.main()


class Records(unittest.TestCase):
    """The JSON functions read the request's record of the result
    (hwfit_request_run_record) instead of parsing JSON text: the dict must be the one
    json.loads makes of the JSON, key order and types included (1 is not 1.0)."""

    def same(self, fn, command, **kw):
        got = getattr(hwfit, fn)(**kw)
        want = json.loads(hwfit.run(command, "json", **kw))
        self.assertIsInstance(got, hwfit.Result)
        # json.dumps writes 1 and 1.0 apart and keeps the order: equal texts, equal objects
        self.assertEqual(json.dumps(got), json.dumps(want), (command, kw))
        self.assertEqual(got, want)
        return got

    def test_every_command_reads_as_its_json(self):
        m = hwfit.load_config(CFG70)
        cases = [
            ("memory", "memory", dict(config=CFG70, context=8192, batch=8)),
            ("memory", "memory", dict(config=m, context="8K", mode="full", micro_batch=2)),
            ("memory", "memory", dict(config=CFG_MOE, context=4096, mode="qlora")),
            ("fit", "fit", dict(config=m, gpu="h100-sxm", gpus=8, tp=8, context=8192,
                                batch=32)),
            ("fit", "fit", dict(config=CFG8, gpu="rtx-4090", gpus=1, context=8192)),
            ("plan", "plan", dict(config=CFG8, gpu="h100-sxm", gpus=8, mode="full",
                                  context=4096, batch=64)),
            ("perf", "perf", dict(config=CFG8, gpu="h100-sxm", gpus=1, context=4096)),
            ("gpus", "gpus", {}),
            ("dtypes", "dtypes", {}),
            ("models", "models", {}),
            ("units", "units", dict(value="15.36TB")),
            ("raid", "raid", dict(level="6", drives=8, drive_size="15.36TB")),
            ("model", "model", dict(config=CFG_MOE)),
        ]
        for fn, command, kw in cases:
            with self.subTest(command=command, kw=kw):
                self.same(fn, command, **kw)
        for command in hwfit.describe()["commands"]:  # every command has a record or JSON
            self.assertIn("json", command["formats"])

    def test_numbers_are_typed_as_json_loads_types_them(self):
        # whole doubles below 1e15 are written without a fraction (int); at and beyond,
        # the JSON text decides (1e+15 is a float, 1234567890123456 an int); -0.0 is "-0"
        for text in ("0", "-0", "0.5", "1e14", "999999999999999", "1e15", "1234567890123456",
                     "12345678901234567", "1e17", "1.5e300", "123.456", "7", "1e-300",
                     "9007199254740993"):
            with self.subTest(value=text):
                got = self.same("units", "units", value=text, unit="none")
                self.assertIs(type(got["value"]), type(json.loads(
                    hwfit.run("units", "json", value=text, unit="none"))["value"]))

    def test_strings_read_as_the_json_escapes_them(self):
        with open(CFG8) as f:
            config = json.load(f)
        for name in ('ll"a\\ma', "tab\there", "caf\u00e9 \u2603", "\x7f", "a\nb"):
            with self.subTest(name=name):
                config["model_type"] = name
                try:
                    want = json.loads(hwfit.run("memory", "json", config=config,
                                                context=1024))
                except hwfit.HwfitError:
                    with self.assertRaises(hwfit.HwfitError):
                        hwfit.memory(config=config, context=1024)
                    continue
                self.assertEqual(hwfit.memory(config=config, context=1024), want)

    def test_a_record_longer_than_the_threads_buffer_is_whole(self):
        state = _request._thread()
        state.buf = ctypes.create_string_buffer(8)
        want = json.loads(hwfit.run("gpus", "json"))
        state.buf = ctypes.create_string_buffer(8)
        self.assertEqual(hwfit.gpus(), want)
        self.assertGreater(len(state.buf), 8)

    def test_a_changed_shape_is_read_with_its_own_builder(self):
        # one command, two shapes (training adds keys, inference writes batch): each
        # answer has its own keys, whichever was read first
        a = hwfit.memory(config=CFG8, context=1024)
        b = hwfit.memory(config=CFG8, context=1024, mode="full")
        self.assertNotEqual(list(a), list(b))
        self.assertEqual(hwfit.memory(config=CFG8, context=1024), a)
        self.assertEqual(list(hwfit.memory(config=CFG8, context=2048, mode="full")), list(b))

    def test_results_are_new_objects_each_call(self):
        a = hwfit.memory(config=CFG8, context=1024)
        a["stored"]["method"] = "changed"
        a["checkpoint"]["dtypes"].append("x")
        b = hwfit.memory(config=CFG8, context=1024)
        self.assertNotEqual(b["stored"]["method"], "changed")
        self.assertEqual(b["checkpoint"]["dtypes"], [])

    def test_an_answer_asked_again_or_changed_reads_as_its_json(self):
        # the same values' bytes give the last answer's copy; other values a new answer
        for context in (1024, 1024, 2048, 1024, 2048, 2048):
            with self.subTest(context=context):
                got = self.same("memory", "memory", config=CFG8, context=context)
                self.assertEqual(got["context"], context)
        a = hwfit.memory(config=CFG8, context=1024)
        b = hwfit.memory(config=CFG8, context=1024)
        self.assertIsNot(a["stored"], b["stored"])
        self.assertIsNot(a["checkpoint"]["dtypes"], b["checkpoint"]["dtypes"])
        rows = hwfit.gpus()["gpus"]
        again = hwfit.gpus()["gpus"]
        self.assertEqual(rows, again)
        self.assertIsNot(rows[0], again[0])  # rows of a table are new dicts too

    def test_threads_asking_one_shape_get_their_own_answers(self):
        # the last answer of a shape is kept as one (values, answer) item: a thread never
        # reads another's answer for its values
        want = {c: json.loads(hwfit.run("memory", "json", config=CFG8, context=c))
                for c in (1024, 2048, 4096, 8192)}
        bad = []

        def work(context):
            for _ in range(300):
                if hwfit.memory(config=CFG8, context=context) != want[context]:
                    bad.append(context)
        threads = [threading.Thread(target=work, args=(c,)) for c in want]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(bad, [])

    def test_a_broken_record_is_refused_not_misread(self):
        from hwfit import _record
        good = hwfit.memory(config=CFG8, context=1024)
        state = _request._thread()
        r = state.requests["memory"]
        self.assertEqual(hwfit._lib.hwfit_request_run_record(r, state.buf, len(state.buf),
                                                             state.needed_ref), 0)
        n = state.needed.value - 1
        self.assertEqual(_record.read(state.buf, n), good)
        with self.assertRaises(ValueError):
            _record.read(state.buf, n - 1)  # the parts no longer add up
        with self.assertRaises(ValueError):
            _record._builder(b"Qa\n{b\n")  # an object that does not close
        with self.assertRaises(ValueError):
            _record._builder(b"Za\n")  # an unknown code

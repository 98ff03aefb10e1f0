"""The web page (bindings/web, built by the wasm preset into build/wasm/web) in Debian's
chromium, driven through Debian's chromedriver with the W3C WebDriver protocol (standard
library only): it loads from a local static server, answers questions typed as a person
would (one that fits, one that does not, bad input, a chosen config.json, fine-tuning,
power and RAID, a shared link, a phone), and each answer equals the CLI's JSON (or its
error line) for the same inputs. Screenshots at desktop and phone widths go to OUT_DIR.

Usage: browser_test.py WEB_DIR OUT_DIR   (environment: HWFIT_CLI, HWFIT_TEST_DATA,
CHROMIUM, CHROMEDRIVER)
"""
import base64
import functools
import http.server
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request

CLI = os.environ["HWFIT_CLI"]
DATA = os.environ["HWFIT_TEST_DATA"]
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # the W3C web element key


# ---- the CLI's answer ----------------------------------------------------------------------
def cli(command, opts):
    args = [CLI, command, "--json"]
    for k, v in opts.items():
        args += [f"--{k}"] if v is True else [f"--{k}", str(v)]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode == 2:
        return {"error": p.stderr.strip()}
    return json.loads(p.stdout)


# ---- a static file server ----------------------------------------------------------------
class Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript"}

    def log_message(self, *args):
        pass


def serve(root):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(Quiet, directory=root))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


# ---- WebDriver -------------------------------------------------------------------------------
def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Driver:
    def __init__(self, base):
        self.base = base

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                return json.loads(r.read())["value"]
        except urllib.error.HTTPError as e:
            raise AssertionError(f"webdriver {method} {path}: {e.read().decode()[:800]}") from None


class Session:
    def __init__(self, driver, chromium, args, mobile=None):
        opts = {"binary": chromium, "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                                             "--disable-dev-shm-usage"] + args}
        if mobile:
            opts["mobileEmulation"] = mobile
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": opts,
                                                 "goog:loggingPrefs": {"browser": "ALL"}}}}
        self.d = driver
        self.id = driver.call("POST", "/session", caps)["sessionId"]

    def do(self, method, path, body=None):
        return self.d.call(method, f"/session/{self.id}{path}", body)

    def go(self, url):
        self.do("POST", "/url", {"url": url})

    def js(self, script, *args):
        """Run a function body; a returned promise is awaited (WebDriver's execute)."""
        return self.do("POST", "/execute/sync", {"script": script, "args": list(args)})

    def find(self, css):
        found = self.do("POST", "/element", {"using": "css selector", "value": css})
        assert isinstance(found, dict) and ELEMENT in found, f"{css}: {found}"
        return found[ELEMENT]

    def type(self, css, text):
        e = self.find(css)
        self.do("POST", f"/element/{e}/clear", {})
        self.do("POST", f"/element/{e}/value", {"text": text})

    def press_enter(self, css):
        self.do("POST", f"/element/{self.find(css)}/value", {"text": "\ue007"})

    def click(self, css):
        self.do("POST", f"/element/{self.find(css)}/click", {})

    def select(self, css, value):
        """Pick an option with the keyboard-free path a screen reader uses: the option itself."""
        self.click(f"{css} option[value='{value}']")
        assert self.js("return document.querySelector(arguments[0]).value", css) == value

    def text(self, css):
        return self.js("return document.querySelector(arguments[0]).textContent", css)

    def visible(self, css):
        return self.js("const e = document.querySelector(arguments[0]);"
                       "return !!e && e.getClientRects().length > 0", css)

    def wait_for(self, css, seconds=30):
        deadline = time.monotonic() + seconds
        while not self.js("return !!document.querySelector(arguments[0])", css):
            if time.monotonic() > deadline:
                raise AssertionError(f"{css} did not appear within {seconds} s")
            time.sleep(0.05)

    def answered(self, command, n):
        """The n-th answer of a command's result box (what the page shows, as JSON)."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            k = self.js("const b = document.querySelector('#result-' + arguments[0]);"
                        "return b ? Number(b.dataset.answered || 0) : 0", command)
            if k >= n:
                return self.js("return window.hwfitPage.last[arguments[0]]", command)
            time.sleep(0.05)
        raise AssertionError(f"no answer {n} to {command} within 30 s")

    def screenshot(self, path):
        w = self.js("return document.documentElement.clientWidth")
        h = self.js("return document.documentElement.scrollHeight")
        shot = self.do("POST", "/goog/cdp/execute", {"cmd": "Page.captureScreenshot", "params": {
            "captureBeyondViewport": True, "clip": {"x": 0, "y": 0, "width": w, "height": h, "scale": 1}}})
        with open(path, "wb") as f:
            f.write(base64.b64decode(shot["data"]))

    def errors(self):
        logs = self.do("POST", "/se/log", {"type": "browser"})
        return [e["message"] for e in logs if e["level"] == "SEVERE"]

    def quit(self):
        self.do("DELETE", "")


# ---- the checks ------------------------------------------------------------------------------
FAILURES = []


def check(name, f):
    try:
        f()
        print(f"ok   {name}", flush=True)
    except Exception:
        FAILURES.append(name)
        print(f"FAIL {name}\n" + "".join("     " + l for l in traceback.format_exc().splitlines(True)[-8:]),
              flush=True)


def equal(got, want, what="the page's answer equals the CLI's"):
    if got != want:
        raise AssertionError(f"{what}\n page: {json.dumps(got)[:600]}\n cli:  {json.dumps(want)[:600]}")


def desktop_checks(s, base, out):
    fits = {"model": "llama-3-8b", "gpu": "h100-sxm", "gpus": "1"}

    def shared_link():
        # Twice: a first visit (the browser compiles the module) and a second one (cached).
        for visit, query in (("first visit", ""), ("second visit", "?again")):
            t0 = time.monotonic()
            s.go(base + query + "#q=fit&" + urllib.parse.urlencode(fits))
            got = s.answered("fit", 1)
            timing = s.js("return window.hwfitPage.timing")
            print(f"     {visit}: library loaded {timing['loadedMs']:.0f} ms, catalogs "
                  f"{timing['catalogsMs']:.0f} ms, form {timing['formsMs']:.0f} ms, first answer "
                  f"{timing['firstAnswerMs']:.0f} ms after the page script started "
                  f"({(time.monotonic() - t0) * 1000:.0f} ms after navigation began)", flush=True)
        equal(got, cli("fit", fits))
        assert got["fits"] is True
        assert s.text("#result-fit .verdict").startswith("Fits on 1 x h100-sxm"), s.text("#result-fit .verdict")
        src = s.js("return document.querySelector('#result-fit img.chart').src")
        svg_file = os.path.join(out, "fit-cli.svg")
        subprocess.run([CLI, "fit", "--model", "llama-3-8b", "--gpu", "h100-sxm", "--gpus", "1",
                        "--svg", svg_file], capture_output=True, check=True)
        with open(svg_file, encoding="utf-8") as f:
            equal(urllib.parse.unquote(src.split(",", 1)[1]), f.read(), "the chart is the CLI's SVG")
    check("a shared link: loads and answers a question that fits, as the CLI", shared_link)
    s.screenshot(os.path.join(out, "fit-desktop.png"))

    nofit = {"model": "llama-3.1-405b", "gpu": "h100-sxm", "gpus": "1"}

    def typed_nofit():
        s.type("#fit-model", nofit["model"])
        s.type("#fit-gpus", nofit["gpus"])
        s.press_enter("#fit-gpus")
        got = s.answered("fit", 2)
        equal(got, cli("fit", nofit))
        assert got["fits"] is False
        assert s.text("#result-fit .verdict").startswith("Does not fit")
        assert f"Fewest GPUs{got['min_gpus']}" in s.text("#result-fit .figures")
        h = urllib.parse.parse_qs(s.js("return location.hash").lstrip("#"))
        assert h["model"] == [nofit["model"]] and h["gpus"] == [nofit["gpus"]], f"the address holds the inputs: {h}"
    check("typed, Enter: a question that does not fit, as the CLI", typed_nofit)

    def bad_count():
        s.type("#fit-gpus", "0")
        s.click("#form-fit button[type=submit]")
        got = s.answered("fit", 3)
        want = cli("fit", {**nofit, "gpus": "0"})
        assert "--gpus" in want.get("error", ""), f"the CLI refuses: {want}"
        equal(got, want)
        equal(s.text("#result-fit [role=alert]"), want["error"], "the alert is the CLI's line")
    check("bad input: the CLI's error line, as an alert", bad_count)

    def bad_gpu():
        bad = {"model": "llama-3-8b", "gpu": "h100-sxmm"}
        got = s.js("return import('./hwfit.js').then(h => h.run('fit', arguments[0]))"
                   ".then(() => 'no error', e => e.message)", bad)
        equal(got, cli("fit", bad)["error"])
    check("bad input: an unknown GPU, with the CLI's suggestion (hwfit.run)", bad_gpu)

    def bad_command():
        got = s.js("return import('./hwfit.js').then(h => h.run('nosuch', {}))"
                   ".then(() => 'no error', e => e.message)")
        want = subprocess.run([CLI, "nosuch", "--json"], capture_output=True, text=True).stderr.strip()
        equal(got, want)
    check("bad input: an unknown command, as the CLI says it", bad_command)

    def catalogs():
        # Every model and GPU of the catalogs is in the page (the catalog path differs: the
        # page's is the module's in-memory /hwfit/models).
        for command, key in (("models", "models"), ("gpus", "gpus")):
            got = s.js("return import('./hwfit.js').then(h => h.run(arguments[0]))", command)
            equal(got[key], cli(command, {})[key], f"the page's {command} equal the CLI's")
        equal(s.js("return import('./hwfit.js').then(h => h.run('models'))")["catalog"], "/hwfit/models",
              "the embedded catalog")
        options = s.js("return document.querySelectorAll('#models option').length")
        assert options == len(cli("models", {})["models"]), f"{options} models offered in the search"
    check("the model and GPU catalogs are the CLI's", catalogs)

    def numbers_and_flag():
        o = {"model": "qwen2.5-7b-instruct", "gpu": "l40s", "gpus": 2, "context": 32768, "even-layers": True}
        got = s.js("return import('./hwfit.js').then(h => h.run('fit', arguments[0]))", o)
        equal(got, cli("fit", o))
    check("hwfit.run with numbers and a flag equals the CLI", numbers_and_flag)

    def chart_only():
        # An option only the chart uses is refused outside SVG, as the CLI refuses it
        # without --svg (hwfit.js reads HWFIT_OPTION_CHART from struct hwfit_option).
        o = {"op": "allreduce", "size": "1GiB", "gpu": "h100-sxm", "gpus": 8, "svg-metric": "algbw"}
        got = s.js("return import('./hwfit.js').then(h => h.run('collective', arguments[0]))"
                   ".then(() => 'no error', e => e.message)", o)
        equal(got, cli("collective", o)["error"])
        o["sweep"] = True
        o["compare"] = ["a100-sxm-80gb", "l40s"]
        svg = s.js("return import('./hwfit.js').then(h => h.run('collective', arguments[0], 'svg'))", o)
        svg_file = os.path.join(out, "collective-cli.svg")
        subprocess.run([CLI, "collective", "--op", "allreduce", "--size", "1GiB", "--gpu", "h100-sxm",
                        "--gpus", "8", "--svg-metric", "algbw", "--sweep", "--compare", "a100-sxm-80gb",
                        "--compare", "l40s", "--svg", svg_file], capture_output=True, check=True)
        with open(svg_file, encoding="utf-8") as f:
            equal(svg, f.read(), "a list option and a chart option give the CLI's chart")
    check("chart-only and list options through hwfit.run, as the CLI", chart_only)

    def chosen_file():
        f = os.path.join(DATA, "models", "gemma-3-4b-it.config.json")
        s.do("POST", f"/element/{s.find('#fit-file')}/value", {"text": f})
        deadline = time.monotonic() + 30
        while not s.js("return document.querySelector('#fit-model').value").startswith("/uploads/"):
            assert time.monotonic() < deadline, "the file was not taken"
            time.sleep(0.05)
        s.type("#fit-gpus", "1")
        s.select("#fit-gpu", "l40s")
        s.click("#form-fit button[type=submit]")
        got = s.answered("fit", 4)
        equal(got, cli("fit", {"model": f, "gpu": "l40s", "gpus": "1"}))
    check("a config.json from the file picker", chosen_file)

    def finetune():
        s.type("#fit-model", "llama-3-8b")
        assert not s.visible("#fit-micro-batch"), "training options hidden for inference"
        s.select("#fit-mode", "qlora")
        assert s.visible("#fit-micro-batch"), "training options shown for fine-tuning"
        s.click("#form-fit button[type=submit]")
        got = s.answered("fit", 5)
        equal(got, cli("fit", {"model": "llama-3-8b", "gpu": "l40s", "gpus": "1", "mode": "qlora"}))
    check("fine-tuning (qlora) equals the CLI", finetune)

    def power():
        s.click('nav a[data-tab="power"]')
        s.wait_for("#tab-power[data-ready]")  # its form is built on first view
        s.type("#power-psus", "4")
        s.type("#power-psu-watts", "3200W")
        s.type("#power-load", "6kW")
        s.click("#form-power button[type=submit]")
        got = s.answered("power", 1)
        equal(got, cli("power", {"psus": 4, "psu-watts": "3200W", "load": "6kW"}))
        assert s.visible("#result-power img.chart")
    check("power: a form from the option table, answers as the CLI", power)
    s.screenshot(os.path.join(out, "power-desktop.png"))

    def raid():
        s.click('nav a[data-tab="raid"]')
        s.wait_for("#tab-raid[data-ready]")  # its form is built on first view
        s.type("#raid-level", "6")
        s.type("#raid-drives", "8")
        s.type("#raid-drive-size", "15.36TB")
        s.click("#form-raid button[type=submit]")
        got = s.answered("raid", 1)
        equal(got, cli("raid", {"level": 6, "drives": 8, "drive-size": "15.36TB"}))
    check("raid: answers as the CLI", raid)
    s.screenshot(os.path.join(out, "raid-desktop.png"))

    def keyboard():
        # Tab from the top reaches the skip link, then the questions' tabs.
        s.go(base + "#q=fit")
        assert s.js("return window.hwfitPage.ready.then(() => true)")
        order = s.js("""
            const seen = [];
            const f = [...document.querySelectorAll('a[href], input, select, button, summary')]
              .filter(e => e.getClientRects().length > 0 && e.tabIndex >= 0);
            for (const e of f) {
              const id = e.id || e.getAttribute('data-tab') || e.textContent.trim().slice(0, 20);
              const labelled = e.labels && e.labels.length > 0 || e.tagName === 'A' ||
                               e.tagName === 'BUTTON' || e.tagName === 'SUMMARY';
              if (!labelled) seen.push('unlabelled ' + id);
            }
            return seen;""")
        equal(order, [], "every visible control has a label")
    check("keyboard: every control is labelled and reachable", keyboard)
    check("no script errors on the page", lambda: equal(s.errors(), [], "browser errors"))


def phone_checks(s, base, out):
    def phone():
        s.go(base + "#q=fit&model=llama-3.1-70b&gpu=h100-sxm&gpus=2")
        got = s.answered("fit", 1)
        equal(got, cli("fit", {"model": "llama-3.1-70b", "gpu": "h100-sxm", "gpus": 2}))
        wide = s.js("return document.documentElement.scrollWidth")
        assert wide <= 390, f"the page is {wide} px wide on a 390 px phone"
    check("on a phone: answers, and nothing is wider than the screen", phone)
    s.screenshot(os.path.join(out, "fit-phone.png"))
    s.go(base + "#q=power&psus=2&psu-watts=2000W&load=2.5kW")
    s.answered("power", 1)
    s.screenshot(os.path.join(out, "power-phone.png"))


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    web, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.makedirs(out, exist_ok=True)
    server = serve(web)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS")}
    with tempfile.TemporaryDirectory() as tmp:
        driver_proc = subprocess.Popen([os.environ.get("CHROMEDRIVER", "chromedriver"), f"--port={port}"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=tmp)
        try:
            d = Driver(f"http://127.0.0.1:{port}")
            deadline = time.monotonic() + 30
            while True:
                try:
                    if d.call("GET", "/status").get("ready"):
                        break
                except (OSError, AssertionError):
                    pass
                if time.monotonic() > deadline:
                    raise SystemExit("chromedriver did not start")
                time.sleep(0.1)
            chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
            s = Session(d, chromium, ["--window-size=1280,900"])
            try:
                desktop_checks(s, base, out)
            finally:
                s.quit()
            p = Session(d, chromium, [], mobile={"deviceMetrics": {"width": 390, "height": 844,
                                                                   "pixelRatio": 1, "touch": True}})
            try:
                phone_checks(p, base, out)
            finally:
                p.quit()
        finally:
            driver_proc.terminate()
            driver_proc.wait(timeout=30)
            server.shutdown()
    print(f"screenshots in {out}")
    if FAILURES:
        raise SystemExit(f"{len(FAILURES)} check(s) failed: {', '.join(FAILURES)}")


if __name__ == "__main__":
    main()

"""The web page's tests, run by CTest (tests/CMakeLists.txt) in the dev workflow.

  web_test.py build   SOURCE_DIR            the wasm preset: build/wasm/web (emscripten)
  web_test.py size    WASM_FILE             the .wasm stays under 1 MB
  web_test.py browser SOURCE_DIR WORK_DIR   tests/web/browser_test.py: the page in chromium
                                            (chromedriver), screenshots in WORK_DIR

Environment for browser: HWFIT_CLI (the hwfit command to compare with).
Exits 77 (CTest: skipped) when a tool is missing; the dev preset (HWFIT_REQUIRE_TEST_DEPS)
refuses to configure without them instead, so CI never skips.
"""
import os
import shutil
import subprocess
import sys
import time

SKIP = 77
LIMIT = 1_000_000  # bytes: the "under 1 MB"
APT = "apt-get install -y emscripten node-acorn chromium chromium-driver"


def need(*tools):
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        print(f"SKIPPED: {', '.join(missing)} not found ({APT})")
        sys.exit(SKIP)


def run(cmd, **kw):
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, **kw)


def build(source):
    need("emcc", "node")
    env = dict(os.environ, NODE_PATH=os.environ.get("NODE_PATH", "/usr/share/nodejs"))
    t0 = time.monotonic()
    run(["cmake", "--preset", "wasm"], cwd=source, env=env, stdout=subprocess.DEVNULL)
    run(["cmake", "--build", "--preset", "wasm"], cwd=source, env=env)
    web = os.path.join(source, "build", "wasm", "web")
    for f in ("index.html", "app.js", "hwfit.js", "style.css", "hwfit_core.js", "hwfit_core.wasm"):
        if not os.path.isfile(os.path.join(web, f)):
            raise SystemExit(f"the wasm build did not write {web}/{f}")
    print(f"wasm build: {time.monotonic() - t0:.1f} s")


def size(wasm):
    n = os.path.getsize(wasm)
    print(f"{wasm}: {n} bytes (limit {LIMIT})")
    if n >= LIMIT:
        raise SystemExit(f"{wasm} is {n} bytes: the page's WebAssembly must stay under 1 MB")


def chromium():
    for name in ("chromium", "chromium-browser"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def browser(source, work):
    need("chromedriver")
    if chromium() is None:
        print(f"SKIPPED: chromium not found ({APT})")
        sys.exit(SKIP)
    env = dict(os.environ, CHROMIUM=chromium(), CHROMEDRIVER=shutil.which("chromedriver"),
               HWFIT_TEST_DATA=os.path.join(source, "tests", "data"))
    env.pop("LD_PRELOAD", None)
    run([sys.executable, os.path.join(source, "tests", "web", "browser_test.py"),
         os.path.join(source, "build", "wasm", "web"), os.path.join(work, "screenshots")], env=env)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "build" and len(sys.argv) == 3:
        build(sys.argv[2])
    elif mode == "size" and len(sys.argv) == 3:
        size(sys.argv[2])
    elif mode == "browser" and len(sys.argv) == 4:
        browser(sys.argv[2], sys.argv[3])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()

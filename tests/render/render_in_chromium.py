"""Render the HTML report and each chart as a person would see them: headless Chromium
(Debian's `chromium` package) takes a screenshot of each file, and the PNG must exist, carry
the PNG signature, have the window's size and show more than a blank page.

Usage: render_in_chromium.py OUTPUT_DIR   (environment: HWFIT_CLI, HWFIT_SOURCE_DIR,
HWFIT_TEST_DATA, as for the CLI tests). The PNGs stay in OUTPUT_DIR for people to look at.
Exits 77 (CTest: skipped) when no chromium is installed.
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

SKIP = 77
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def png_facts(path):
    """(width, height, distinct byte values of the image data) of a PNG file."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != PNG_SIGNATURE:
        raise AssertionError(f"{path}: not a PNG (signature {data[:8]!r})")
    pos, width, height, idat = 8, 0, 0, b""
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    pixels = zlib.decompress(idat)
    return width, height, len(set(pixels)), len(data)


def render(browser, source, png, size, profile):
    env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS")}
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--no-first-run", f"--user-data-dir={profile}", f"--screenshot={png}",
           f"--window-size={size[0]},{size[1]}", "file://" + os.path.abspath(source)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=180, env=env,
                       stdin=subprocess.DEVNULL)
    if p.returncode != 0 or not os.path.exists(png):
        raise AssertionError(f"chromium failed on {source} ({p.returncode}): {p.stderr[-500:]}")


def main():
    out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "render-out")
    browser = chromium()
    if browser is None:
        print("chromium is not installed: rendering skipped (apt-get install chromium)")
        return SKIP
    cli = os.environ["HWFIT_CLI"]
    src = os.environ["HWFIT_SOURCE_DIR"]
    data = os.environ["HWFIT_TEST_DATA"]
    os.makedirs(out, exist_ok=True)
    seed = os.path.join(src, "examples", "specs", "seed-server.json")
    models = os.path.join(data, "models")
    llama70 = os.path.join(models, "llama-3.1-70b.config.json")

    def f(name):
        return os.path.join(out, name)

    # What a person would run (README, docs/cli.md), each writing its file.
    runs = [
        (["assess", "--node", seed, "--models-dir", models, "--workload",
          "serve:llama-3.1-70b:bf16:128K", "--workload", "qlora:llama-3.1-70b",
          "--html", f("report.html")], f("report.html"), (1200, 2000)),
        (["fit", "--config", llama70, "--gpu", "rtx-pro-6000-server", "--gpus", "8",
          "--mode", "qlora", "--tp", "2", "--pp", "4", "--svg", f("fit.svg")], f("fit.svg"),
         (800, 480)),
        (["collective", "--sweep", "--svg", f("collective.svg"), "--compare", "h100-sxm"],
         f("collective.svg"), (800, 480)),
        (["power", "--psus", "4", "--psu-watts", "3200W", "--redundant", "N+2",
          "--component", "gpu:8:600W", "--component", "cpu:2:400W", "--component",
          "dimm:24:10W", "--component", "drive:4:18W", "--component", "nic:2:25W",
          "--component", "fan:10:40W", "--component", "board:1:100W", "--svg", f("power.svg")],
         f("power.svg"), (800, 480)),
        (["raid", "--level", "raidz2", "--drives", "8", "--drive-size", "15.36TB", "--spares",
          "1", "--svg", f("raid.svg")], f("raid.svg"), (800, 480)),
    ]
    passed = failed = 0
    with tempfile.TemporaryDirectory() as profile:
        for args, source, size in runs:
            name = os.path.basename(source)
            try:
                p = subprocess.run([cli, *args], capture_output=True, text=True, timeout=120)
                if p.returncode != 0:
                    raise AssertionError(f"hwfit {args[0]} failed: {p.stderr.strip()}")
                png = os.path.splitext(source)[0] + ".png"
                if os.path.exists(png):
                    os.remove(png)
                render(browser, source, png, size, profile)
                width, height, distinct, nbytes = png_facts(png)
                if (width, height) != size:
                    raise AssertionError(f"{png}: {width}x{height}, expected {size}")
                # A blank page compresses to a few hundred bytes of one or two values.
                if nbytes < 10000 or distinct < 32:
                    raise AssertionError(f"{png}: {nbytes} bytes, {distinct} distinct values: "
                                         "looks blank")
                print(f"ok   {name}: {png} {width}x{height}, {nbytes} bytes")
                passed += 1
            except (AssertionError, subprocess.TimeoutExpired) as exc:
                print(f"FAIL {name}: {exc}")
                failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

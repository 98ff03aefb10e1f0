#!/usr/bin/env python3
"""Line and branch coverage of lib/ after the coverage workflow has run the tests.

Usage: cmake --workflow --preset coverage
       cmake --build --preset coverage --target coverage-report
(or: python3 tests/coverage/report.py BUILD_DIR SOURCE_DIR [--min-lines PCT])

Runs gcov on the library's object files (the .gcda counts the tests left) and prints one
line per source file and the totals. Exits 1 when line coverage is below --min-lines.
"""
import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile


def parse(text):
    """Per file: (lines, lines hit, branches, branches taken) from `gcov -b` output."""
    files, current = {}, None
    for line in text.splitlines():
        m = re.match(r"File '(.+)'", line)
        if m:
            current = m.group(1)
            files.setdefault(current, [0, 0, 0, 0])
            continue
        if current is None:
            continue
        m = re.match(r"Lines executed:([\d.]+)% of (\d+)", line)
        if m:
            n = int(m.group(2))
            files[current][0] = n
            files[current][1] = round(float(m.group(1)) * n / 100)
        m = re.match(r"Taken at least once:([\d.]+)% of (\d+)", line)
        if m:
            n = int(m.group(2))
            files[current][2] = n
            files[current][3] = round(float(m.group(1)) * n / 100)
    return files


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("source")
    ap.add_argument("--min-lines", type=float, default=0.0)
    args = ap.parse_args()
    objdir = pathlib.Path(args.build) / "CMakeFiles" / "hwfit_objects.dir" / "lib"
    gcda = sorted(objdir.glob("*.gcda"))
    if not gcda:
        print(f"no coverage data in {objdir}: run the coverage workflow first")
        return 1
    libdir = pathlib.Path(args.source) / "lib"
    out = ""
    with tempfile.TemporaryDirectory() as tmp:
        for g in gcda:
            obj = objdir / (g.name[:-len(".gcda")] + ".o")
            src = libdir / g.name[:-len(".gcda")]
            out += subprocess.run(["gcov", "-b", "-c", "-o", str(obj), str(src)],
                                  cwd=tmp, capture_output=True, text=True).stdout
    files = {k: v for k, v in parse(out).items()
             if os.path.abspath(k).startswith(str(libdir.resolve())) and k.endswith(".c")}
    tot = [0, 0, 0, 0]
    print(f"{'file':<24} {'lines':>14} {'branches':>16}")
    for name in sorted(files):
        n, hit, b, taken = files[name]
        tot = [a + c for a, c in zip(tot, files[name])]
        lp = 100.0 * hit / n if n else 100.0
        bp = 100.0 * taken / b if b else 100.0
        print(f"{os.path.basename(name):<24} {lp:6.1f}% of {n:5d} {bp:6.1f}% of {b:6d}")
    lp = 100.0 * tot[1] / tot[0] if tot[0] else 0.0
    bp = 100.0 * tot[3] / tot[2] if tot[2] else 0.0
    print(f"{'TOTAL':<24} {lp:6.1f}% of {tot[0]:5d} {bp:6.1f}% of {tot[2]:6d}")
    return 1 if lp < args.min_lines else 0


if __name__ == "__main__":
    sys.exit(main())

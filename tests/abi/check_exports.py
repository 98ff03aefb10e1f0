#!/usr/bin/env python3
"""The shared library exports exactly the functions that the public headers declare.

Declared: every `HWFIT_API ... name(` in include/. Exported: the dynamic symbol table's
defined functions and objects (nm -D --defined-only). Prints both differences and exits 1
when they differ.
"""
import argparse
import pathlib
import re
import subprocess
import sys


def declared(include_dir):
    names = set()
    pattern = re.compile(r"HWFIT_API\b[^;{]*?\b([A-Za-z_][A-Za-z0-9_]*)\s*\(", re.S)
    for header in pathlib.Path(include_dir).rglob("*.h"):
        text = header.read_text(encoding="utf-8")
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        text = re.sub(r"^\s*#.*$", " ", text, flags=re.M)
        names.update(pattern.findall(text))
    return names


def exported(library):
    out = subprocess.run(["nm", "-D", "--defined-only", library], check=True,
                         capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBRVW":
            name = parts[2].split("@")[0]
            if name in ("_init", "_fini", "_edata", "_end", "__bss_start"):
                continue
            # Instrumentation runtimes (coverage, sanitizers) add their own symbols.
            if name.startswith(("__gcov", "__asan", "__ubsan", "__lsan", "__sanitizer",
                                "__llvm")) or name == "mangle_path":
                continue
            names.add(name)
    return names


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--library", required=True)
    ap.add_argument("--include", required=True)
    args = ap.parse_args()
    want, have = declared(args.include), exported(args.library)
    missing, extra = sorted(want - have), sorted(have - want)
    for name in missing:
        print(f"declared but not exported: {name}")
    for name in extra:
        print(f"exported but not declared: {name}")
    print(f"{len(want)} declared, {len(have)} exported")
    if missing or extra:
        return 1
    if not want:
        print("no declarations found: the check itself is broken")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The Python package's ctypes mirrors have the C structs' exact layout.

Every ctypes mirror in hwfit._lib (a ctypes.Structure named hwfit_X) must be a
`typedef struct hwfit_X` of include/hwfit/, and its size and every field's offset must
equal what the C compiler gives (sizeof and offsetof, from a generated program), and so
must every field's size. The package mirrors only the structs it uses (the request layer's
hwfit_option and what the batch functions pass); the others need no mirror. A field out of order or of the wrong type
would otherwise make Python read wrong numbers without any error.

Usage: check_layouts.py --cc CC --include DIR   (HWFIT_LIBRARY and PYTHONPATH as for the
Python tests)
"""
import argparse
import keyword
import os
import pathlib
import re
import subprocess
import sys
import tempfile

import hwfit
from hwfit import _lib


def struct_names(include):
    names = set()
    for h in pathlib.Path(include).rglob("*.h"):
        names.update(re.findall(r"typedef\s+struct\s+(hwfit_[a-z0-9_]+)\s*\{",
                                h.read_text(encoding="utf-8")))
    return sorted(names)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cc", required=True)
    ap.add_argument("--include", required=True)
    args = ap.parse_args()
    in_c = set(struct_names(args.include))
    names = sorted(n for n, v in vars(_lib).items() if n.startswith("hwfit_")
                   and isinstance(v, type) and issubclass(v, _lib.ctypes.Structure))
    if not in_c or not names:
        print("no structs found: the check itself is broken")
        return 1
    problems, lines = [], ['#include <stddef.h>', '#include <stdio.h>', '#include <hwfit.h>',
                           'int main(void) {']
    expected = {}
    for name in names:
        cls = getattr(_lib, name)
        if name not in in_c:
            problems.append(f"{name}: a ctypes mirror of no struct in the headers")
            continue
        lines.append(f'    printf("{name} %zu\\n", sizeof({name}));')
        expected[name] = _lib.ctypes.sizeof(cls)
        for field in cls._fields_:
            c_field = field[0]
            if c_field.endswith("_") and keyword.iskeyword(c_field[:-1]):
                c_field = c_field[:-1]  # "in_" mirrors C's "in", a Python keyword
            key = f"{name}.{field[0]}"
            lines.append(f'    printf("{key} %zu\\n", offsetof({name}, {c_field}));')
            lines.append(f'    printf("{key}:size %zu\\n", sizeof((({name} *)0)->{c_field}));')
            expected[key] = getattr(cls, field[0]).offset
            expected[key + ":size"] = getattr(cls, field[0]).size
    lines += ['    return 0;', '}']
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "layouts.c"), os.path.join(tmp, "layouts")
        pathlib.Path(src).write_text("\n".join(lines) + "\n", encoding="utf-8")
        build = subprocess.run([args.cc, "-std=c11", "-I", args.include, src, "-o", exe],
                               capture_output=True, text=True)
        if build.returncode != 0:
            print(build.stderr)
            print("the generated layout program does not compile: a ctypes field has no "
                  "C counterpart")
            return 1
        out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        key, value = line.split()
        if expected[key] != int(value):
            problems.append(f"{key}: C says {value}, ctypes says {expected[key]}")
    for p in problems:
        print(p)
    fields = (len(expected) - len(names)) // 2
    print(f"{len(names)} mirrored structs (of {len(in_c)}), {fields} fields compared "
          f"(offset and size), "
          f"{len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

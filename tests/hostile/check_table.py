#!/usr/bin/env python3
"""Every public function has a row in the hostile-input table of tests/test_hostile.c.

Declared: every `HWFIT_API ... name(` in include/ (as tests/abi/check_exports.py reads
them). Covered: every `COVER(name, probe)` row of the table in tests/test_hostile.c, which
that test runs (a misspelt name does not compile: the row takes the function's address).
Prints the differences and exits 1 when a declared function has no row, or a row names
no declared function.

Usage: check_table.py --include DIR --table tests/test_hostile.c
"""
import argparse
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "abi"))
from check_exports import declared  # noqa: E402


def covered(table_file):
    text = pathlib.Path(table_file).read_text(encoding="utf-8")
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    start = text.find("static const entry table[]")
    if start < 0:
        return set()
    return set(re.findall(r"\bCOVER\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*,", text[start:]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--include", required=True)
    ap.add_argument("--table", required=True)
    args = ap.parse_args()
    want, have = declared(args.include), covered(args.table)
    missing, extra = sorted(want - have), sorted(have - want)
    for name in missing:
        print(f"public function without a hostile-input row: {name}")
    for name in extra:
        print(f"hostile-input row for no public function: {name}")
    print(f"{len(want)} public functions, {len(have)} rows")
    if not want or not have:
        print("nothing found: the check itself is broken")
        return 1
    return 1 if missing or extra else 0


if __name__ == "__main__":
    sys.exit(main())

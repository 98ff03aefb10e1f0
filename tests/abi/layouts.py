#!/usr/bin/env python3
"""The public structs' layouts against a recorded snapshot, and the SONAME rule.

hwfit's structs are nested by value (hwfit_perf_in holds a hwfit_shard_in, which holds a
hwfit_memory_in...) and many outputs are written without a size, so appending a field is
not binary compatible: a binary built against the old headers passes buffers that are too
small. The rule (docs/units.md): while the version is 0.x, any change of a public struct's
layout bumps the SONAME, which is "0.<minor>" (CMakeLists.txt derives it from
include/hwfit/version.h); from 1.0 on, the SONAME is the major version.

tests/abi/layouts.json records, for the SONAME it was made for, every public struct's size,
alignment and fields (name, offset, size, in order), as the C compiler gives them (sizeof,
_Alignof and offsetof from a generated program). The check fails when a layout differs from
the snapshot while the SONAME is the snapshot's (bump HWFIT_VERSION_MINOR, then record), and
when the SONAME moved but the snapshot was not recorded again. Layouts are compared only on
the data model (pointer and long sizes) the snapshot was made on; elsewhere the check skips.

Usage:
  layouts.py --cc CC --include DIR --snapshot tests/abi/layouts.json [--soversion S]
  layouts.py --cc CC --include DIR --write tests/abi/layouts.json      (record)
"""
import argparse
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

SKIP = 77


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def public_structs(include):
    """{struct name: [field names in order]} of every `typedef struct hwfit_X {...} hwfit_X;`."""
    structs = {}
    for h in sorted(pathlib.Path(include).rglob("*.h")):
        text = strip_comments(h.read_text(encoding="utf-8"))
        for m in re.finditer(r"typedef\s+struct\s+(hwfit_\w+)\s*\{(.*?)\}\s*(\w+)\s*;", text, re.S):
            name, body = m.group(3), m.group(2)
            if "{" in body or "(" in body:
                raise SystemExit(f"{h.name}: {name}: nested struct or function pointer field; "
                                 "teach tests/abi/layouts.py to read it")
            fields = []
            for decl in body.split(";"):
                decl = re.sub(r"\[[^\]]*\]", "", decl).strip()
                if not decl:
                    continue
                if "," in decl:
                    raise SystemExit(f"{h.name}: {name}: several fields in one declaration "
                                     f"('{decl}'); teach tests/abi/layouts.py to read it")
                fields.append(re.findall(r"[A-Za-z_]\w*", decl)[-1])
            structs[name] = fields
    return structs


def soversion_of(version_h):
    text = pathlib.Path(version_h).read_text(encoding="utf-8")
    major = int(re.search(r"#define HWFIT_VERSION_MAJOR (\d+)", text).group(1))
    minor = int(re.search(r"#define HWFIT_VERSION_MINOR (\d+)", text).group(1))
    return f"0.{minor}" if major == 0 else str(major)


def measure(cc, include, structs):
    lines = ["#include <stddef.h>", "#include <stdio.h>", "#include <hwfit.h>", "int main(void) {",
             '    printf("data_model void*=%zu long=%zu\\n", sizeof(void *), sizeof(long));']
    for name, fields in structs.items():
        lines.append(f'    printf("{name} %zu %zu\\n", sizeof({name}), _Alignof({name}));')
        for f in fields:
            lines.append(f'    printf("{name}.{f} %zu %zu\\n", offsetof({name}, {f}), '
                         f'sizeof((({name} *)0)->{f}));')
    lines += ["    return 0;", "}"]
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "layouts.c"), os.path.join(tmp, "layouts")
        pathlib.Path(src).write_text("\n".join(lines) + "\n", encoding="utf-8")
        build = subprocess.run([cc, "-std=c11", "-I", include, src, "-o", exe],
                               capture_output=True, text=True)
        if build.returncode != 0:
            print(build.stderr)
            raise SystemExit("the generated layout program does not compile")
        out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
    rows = out.splitlines()
    data_model = rows[0].split(" ", 1)[1]
    values = {}
    for row in rows[1:]:
        key, a, b = row.split()
        values[key] = (int(a), int(b))
    layouts = {}
    for name, fields in structs.items():
        size, align = values[name]
        layouts[name] = {"size": size, "align": align,
                         "fields": [[f, *values[f"{name}.{f}"]] for f in fields]}
    return data_model, layouts


def dump(snapshot):
    """JSON with one struct field a line, so a diff of the snapshot reads like the change."""
    head = {k: v for k, v in snapshot.items() if k != "structs"}
    out = ["{"] + [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
    out.append(' "structs": {')
    names = list(snapshot["structs"])
    for i, name in enumerate(names):
        s = snapshot["structs"][name]
        out.append(f"  {json.dumps(name)}: {{\"size\": {s['size']}, \"align\": {s['align']}, "
                   f"\"fields\": [")
        out += [f"   {json.dumps(f)}" + ("," if j + 1 < len(s["fields"]) else "")
                for j, f in enumerate(s["fields"])]
        out.append("  ]}" + ("," if i + 1 < len(names) else ""))
    out += [" }", "}"]
    return "\n".join(out) + "\n"


def differences(old, new):
    out = []
    for name in sorted(set(old) | set(new)):
        if name not in new:
            out.append(f"{name}: removed")
        elif name not in old:
            out.append(f"{name}: new struct")
        elif old[name] != new[name]:
            o, n = old[name], new[name]
            what = []
            if o["size"] != n["size"]:
                what.append(f"size {o['size']} -> {n['size']}")
            if o["align"] != n["align"]:
                what.append(f"alignment {o['align']} -> {n['align']}")
            of = {f[0]: f[1:] for f in o["fields"]}
            nf = {f[0]: f[1:] for f in n["fields"]}
            for f in n["fields"]:
                if f[0] not in of:
                    what.append(f"field {f[0]} added at offset {f[1]}")
                elif of[f[0]] != f[1:]:
                    what.append(f"field {f[0]} (offset, size) {tuple(of[f[0]])} -> {tuple(f[1:])}")
            for f in o["fields"]:
                if f[0] not in nf:
                    what.append(f"field {f[0]} removed")
            if not what:
                what.append("fields reordered")
            out.append(f"{name}: " + "; ".join(what))
    return out


def main():
    here = pathlib.Path(__file__).resolve().parent
    ap = argparse.ArgumentParser()
    ap.add_argument("--cc", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--snapshot", help="check against this snapshot")
    ap.add_argument("--write", help="record the snapshot into this file")
    ap.add_argument("--soversion", help="the SONAME version CMake gives the library")
    args = ap.parse_args()
    version_h = os.path.join(args.include, "hwfit", "version.h")
    soversion = soversion_of(version_h)
    if args.soversion is not None and args.soversion != soversion:
        print(f"CMakeLists.txt gives SOVERSION {args.soversion}, but include/hwfit/version.h "
              f"says {soversion} (0.<minor> while the major version is 0, else the major)")
        return 1
    structs = public_structs(args.include)
    if not structs:
        print("no structs found: the check itself is broken")
        return 1
    data_model, layouts = measure(args.cc, args.include, structs)
    regenerate = (f"python3 tests/abi/layouts.py --cc {os.path.basename(args.cc)} "
                  f"--include include --write tests/abi/layouts.json")
    if args.write:
        snapshot = {"comment": "Public struct layouts of the SONAME below; tests/abi/layouts.py "
                               "checks them. Record again only together with a SONAME bump.",
                    "soversion": soversion, "data_model": data_model, "structs": layouts}
        pathlib.Path(args.write).write_text(dump(snapshot), encoding="utf-8")
        print(f"recorded {len(layouts)} structs for SONAME libhwfit.so.{soversion} "
              f"({data_model}) in {args.write}")
        return 0
    snapshot = json.loads(pathlib.Path(args.snapshot or here / "layouts.json").read_text(encoding="utf-8"))
    if snapshot["data_model"] != data_model:
        print(f"the snapshot was made on {snapshot['data_model']}, this compiler gives "
              f"{data_model}: not compared")
        return SKIP
    diffs = differences(snapshot["structs"], layouts)
    if snapshot["soversion"] != soversion:
        if diffs:
            print("\n".join(diffs))
        print(f"the SONAME moved from libhwfit.so.{snapshot['soversion']} to "
              f"libhwfit.so.{soversion}: record the layouts of the new SONAME "
              f"({len(diffs)} structs differ) with\n    {regenerate}")
        return 1
    if diffs:
        print("\n".join(diffs))
        print(f"{len(diffs)} public structs changed layout while the SONAME is still "
              f"libhwfit.so.{soversion}. A binary built against the old headers would pass "
              f"structs of the old size. While the version is 0.x, a layout change bumps the "
              f"SONAME: raise HWFIT_VERSION_MINOR in include/hwfit/version.h (SONAME "
              f"0.<minor>), then record the new layouts with\n    {regenerate}\n"
              f"(docs/units.md, 'How structs evolve').")
        return 1
    print(f"{len(layouts)} public structs, "
          f"{sum(len(v['fields']) for v in layouts.values())} fields: the layouts of "
          f"libhwfit.so.{soversion} ({data_model})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

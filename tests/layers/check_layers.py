#!/usr/bin/env python3
"""lib/ keeps its layering (lib/README.md): every include line of lib/ points down.

A public header hwfit/x.h belongs to the layer of its source lib/<layer>/x.c; an internal
header "<layer>/y.h" to <layer>. A file may include headers of its own layer and of the
layers below it; readers/ and pictures/ stand side by side; inside domains/ and catalogs/
only the uses listed below are allowed. Bare names ("internal.h", "out.h"...) are allowed
in lib/request/ only (its own headers and base/'s). The umbrella hwfit.h is for the request layer only.

Usage: check_layers.py LIB_DIR INCLUDE_DIR
"""
import pathlib
import re
import sys

RANK = {"base": 0, "catalogs": 1, "domains": 2, "node": 3, "readers": 4, "pictures": 4,
        "request": 5}
# module -> modules of the same layer it may use (lib/README.md)
SAME_LAYER = {
    "catalogs": {"topology": {"gpu", "link"}, "gpu_set": {"gpu"}},
    "domains": {"memory": {"model"}, "shard": {"memory", "model", "collective"},
                "perf": {"model", "memory", "shard", "collective"},
                "serve": {"model", "memory", "shard", "perf", "collective"}},
    "readers": {"hf_config": {"json", "hf_quant"}, "hf_quant": {"json"},
                "safetensors": {"json"}, "gpu_file": {"json"},
                "node_spec": {"json", "hf_config", "gpu_file"}},
    "pictures": {"chart": {"svg", "draw"}, "report": {"svg", "chart", "draw"},
                 "svg": {"draw"}, "draw": {"svg"}},
    "node": {"assess": {"node"}},
}
BARE_OK = {"internal.h", "request_internal.h", "out.h", "text.h", "hwfit_commands.h"}


def module_of(path):
    """The module a file or internal header belongs to: chart_internal.h -> chart."""
    return re.sub(r"_(internal|iface)$", "", pathlib.Path(path).stem)


def main():
    lib, include = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    layer_of_public = {}
    for src in lib.glob("*/*.c"):
        layer_of_public[src.stem] = src.parent.name
    problems = []
    for public in sorted((include / "hwfit").glob("*.h")):
        if public.stem not in layer_of_public:
            problems.append(f"include/hwfit/{public.name}: no source lib/<layer>/{public.stem}.c")
    for f in sorted(list(lib.glob("*/*.c")) + list(lib.glob("*/*.h"))):
        layer, mod = f.parent.name, module_of(f)
        if layer not in RANK:
            continue
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            inc = m.group(1)
            where = f"lib/{layer}/{f.name}:{n}: {inc}"
            if inc == "hwfit.h":
                if layer != "request":
                    problems.append(f"{where}: only the request layer includes the umbrella")
                continue
            if "/" not in inc:
                # the request layer keeps bare names of its own headers and of base/'s
                # (lib/request and lib/base stay on the include path for it)
                if layer != "request" or not (inc in BARE_OK or (lib / "request" / inc).exists()
                                              or (lib / "base" / inc).exists()):
                    problems.append(f"{where}: name an internal header by its path below lib/")
                continue
            head, name = inc.split("/", 1)
            if head == "hwfit":
                target_layer = layer_of_public.get(pathlib.Path(name).stem)
            else:
                target_layer = head
            target_mod = module_of(name)
            if target_layer is None or target_layer not in RANK:
                problems.append(f"{where}: unknown header")
                continue
            if target_layer == layer:
                if target_mod == mod or layer == "base" or target_mod in ("internal",):
                    continue
                if layer == "request":
                    continue
                if target_mod not in SAME_LAYER.get(layer, {}).get(mod, set()):
                    problems.append(f"{where}: {layer}/{mod} may not use {layer}/{target_mod} "
                                    "(lib/README.md)")
            elif RANK[target_layer] >= RANK[layer]:
                problems.append(f"{where}: {layer} may not use {target_layer} (lib/README.md)")
    for p in problems:
        print(p)
    print(f"{len(problems)} layering problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

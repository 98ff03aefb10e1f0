#!/usr/bin/env python3
"""Worst-case stack of every public function, from GCC's -fstack-usage/-fcallgraph-info.

Reads the .ci files (VCG call graphs whose nodes carry "N bytes (static|dynamic,bounded|
dynamic)") of the library objects compiled with `-fstack-usage -fcallgraph-info=su`,
and, for every function declared HWFIT_API in include/hwfit/*.h, computes the deepest
chain of frames it can reach. Prints the largest, with their chains, and exits 1 when one
exceeds --limit, or when the graph holds something the sum cannot bound:

- a call through a function pointer (GCC's "__indirect_call") that INDIRECT does not
  resolve to its possible targets;
- recursion (a cycle in the graph) that RECURSION does not bound by a depth;
- a frame of unbounded dynamic size (alloca, a variable-length array);
- a call to a function outside the library that LIBC does not give an allowance.

Every resolution, bound and allowance below is printed in the report, so nothing is
silently ignored. The figures are for the flags the objects were compiled with (the
build type of the tree), which is what a user of that build pays.
"""
import argparse
import pathlib
import re
import sys

# Functions outside the library, with the stack allowed for each (bytes). glibc's printf
# family formats on the stack (a conversion buffer and its work areas), strtod keeps a
# few multi-precision numbers; the others are leaf or near-leaf routines.
LIBC = {
    **{f: 2048 for f in ("snprintf", "vsnprintf", "sprintf", "vsprintf", "fprintf",
                          "vfprintf", "printf")},
    **{f: 1024 for f in ("strtod", "strtof", "strtold", "strtoull", "strtoul", "strtoll",
                          "strtol", "fopen", "fclose", "fread", "fgetc", "ferror",
                          "localeconv")},
    **{f: 512 for f in ("malloc", "calloc", "realloc", "free", "getenv")},
    # the layout search's threads (perf.c, hwfit_perf_in::threads): they start and join
    **{f: 512 for f in ("thrd_create", "thrd_join")},
    # file calls of the readers and of the model lookup (open/fstat/fdopen refuse what is
    # not a regular file; stat/opendir/readdir search the catalog and the HF cache; dladdr
    # finds the installed catalog; qsort sorts the catalog's names)
    **{f: 1024 for f in ("open", "fstat", "fdopen", "close", "stat", "opendir", "readdir",
                          "closedir", "dladdr", "qsort")},
    # the model cache's revalidation window reads a clock (the vDSO on Linux: no system
    # call; timespec_get on Windows)
    **{f: 256 for f in ("clock_gettime", "timespec_get")},
    **{f: 256 for f in ("pow", "log", "log2", "log10", "exp", "expm1", "ldexp", "frexp",
                         "round", "llround", "lround", "trunc", "floor", "ceil", "fmax",
                         "fmin", "fabs", "sqrt", "cbrt", "fmod", "log1p", "erfc")},
    **{f: 128 for f in ("memset", "memcpy", "memmove", "memcmp", "memchr", "strlen",
                         "strcmp", "strncmp", "strchr", "strrchr", "strstr", "strpbrk",
                         "strcspn", "strspn", "strcpy", "strncpy", "tolower", "toupper",
                         "__errno_location", "__ctype_tolower_loc", "__ctype_b_loc", "isdigit", "isspace", "isalpha")},
}

# Public calls known to need more than the limit, with the most each may need (bytes): the
# list may only shrink. A call above its ceiling fails, and so does one that has come under
# the limit while still listed. Empty since the shard engine left the serving and request
# chains (round 7): every public call is within the limit at -O0 and -O2.
KNOWN_OVER = {}

# Ceilings under the limit (--ceilings, the dev preset's -O0 build): the deepest chains, at
# their figure when set plus a small margin, so that growth (a field added to a struct that
# a frame copies, a new local) is seen before it reaches the limit. Raise one only with the
# reason in the commit; lower it when a change frees stack. Figures of GCC 12 at -O0.
# Round 13 raised the seven marked ones: hwfit_memory_in grew by 32 bytes (Unsloth's loss
# chunk sizing), hwfit_memory_out and hwfit_shard_card by 16, and the frames on these chains
# copy them.
CEILINGS = {
    # Figures at -O0 after each change: RT = round 13's evaluation allocator replay
    # (memory.c hwfit__memory_eval_segments, +~750 B); R14 = round 14 (the engine keeps each
    # head's card evaluation, +112 B; the replay's repeated-layer count, +80 B; the shard
    # explain validates with the engine's prepared model, -2.3 KB on the serve/perf chains);
    # R15 = round 15 (hwfit_memory_in's record_lengths, +32 B a copy; hwfit_memory_out's
    # records_bytes, +8).
    "hwfit_perf_plan": 15936,           # 15696 (R14, sink_mask_bytes); 15456 (RT); 14720;
                                        # 14320: plan's training slice, train_step's
                                        # collectives (15984 before stack3, round 9: the rank
                                        # model's prep off weights_units_fill's frame, the
                                        # link's name off the collectives' chains)
    "hwfit_serve_validate": 15952,      # 15936 (R15); 15728 (R14); 15792 (RT); 15040;
                                        # 14640: serve's chain through perf's inference,
                                        # its fit's explanation (15856 before stack3)
    "hwfit_serve_estimate": 15632,      # 15376 (R14); 15488 (RT); 14752; 14400 (15616 before
                                        # stack3)
    "hwfit_request_run_record": 15632,  # 15392 (the report's power chart)
    "hwfit_request_ask_record": 15680,  # 15424: run's chain and its own frame (80)
    "hwfit_request_run": 15584,         # 15344: assess's report, the power chart's ticks
    "hwfit_assess": 13040,              # 12976 (R15); 12784 (R14); 12656 (RT); 11904;
                                        # 11456 (its engine in its workspace; 12960 before
                                        # stack3, 12848 before round 9)
    "hwfit_assess_ws": 12928,           # 12864 (R15); 12672 (R14); 12544 (RT); 11792;
                                        # 11344 (12848 before stack3)
    "hwfit_report_html": 14944,         # 14704
    "hwfit_perf_validate": 13664,       # 13408 (R14); 13520 (RT); 12800; 12496 (13712 before
                                        # stack3)
    "hwfit_perf_estimate": 13632,       # 13376 (R14); 13488 (RT); 12768; 12464 (13680 before
                                        # stack3)
}
# Thirteenth round (band): hwfit_memory_in also gained probs_kept and loss_parallel (8 bytes
# with their alignment); the round-13 ceilings above hold them within their margins.

# Calls through function pointers: (caller, targets), regular expressions over
# "file:function" (file is the source path's last two parts, e.g. "request/cmd_fit.c:run";
# public functions are bare names), matched after GCC's clone suffixes (.constprop.0,
# .isra.0, .part.0) are dropped. The callers allow for the optimiser inlining the calling
# function into its callers. Each row must resolve a call and match a target, so the table
# cannot go stale silently.
INDIRECT = [
    # The request layer runs a command through hwfit__command::run.
    (r"^hwfit_request_run$", [r"^request/cmd_[a-z0-9_]+\.c:run$"]),
    # The report's charts: chart_fn (put_chart, or where it is inlined).
    (r"^pictures/report\.c:", [r"^pictures/report\.c:[a-z_]+_fn$"]),
    # The SVG writers render twice (count, then write) through render_fn.
    (r"^pictures/svg\.c:|^hwfit_svg_", [r"^pictures/svg\.c:[a-z_]+_render_any$",
                                        r"^pictures/svg\.c:escape_render$"]),
    # A node file's sections: sections[i].read.
    (r"^readers/node_spec\.c:(read_root|parse)$|^hwfit_node_parse$",
     [r"^readers/node_spec\.c:read_(gpu|topology|cpu|memory|storage|nas|network|power|"
      r"chassis|costs|rules)$"]),
    # The context and batch searches set the searched input through set().
    (r"^domains/shard\.c:bisect$|^hwfit_shard_max_(context|batch)$",
     [r"^domains/shard\.c:set_(context|micro_batch|batch)$"]),
]

# Recursion: a cycle in the graph, named by one of its functions, and how many times the
# cycle may be entered on one chain (its depth bound in the source).
# A row is name: (macro, None) to read the bound from a #define in include/ or lib/, or
# name: (None, n) for a fixed bound. Today the library has no recursion (the JSON reader
# keeps its open containers on a heap stack), so the table is empty.
RECURSION = {}

NODE = re.compile(r'node: \{ title: "([^"]*)" label: "([^"]*)"')
EDGE = re.compile(r'edge: \{ sourcename: "([^"]*)" targetname: "([^"]*)"')
SIZE = re.compile(r"\\n(\d+) bytes \(([a-z,]+)\)")


CLONE = re.compile(r"(\.(constprop|isra|part|cold|lto_priv|localalias)\.?\d*)+$")


def base(name):
    """The function a GCC clone comes from: 'x.c:f.constprop.0' -> 'x.c:f'."""
    return CLONE.sub("", name)


def short(title):
    """'/src/lib/request/cmd_fit.c:run' -> 'request/cmd_fit.c:run'; 'hwfit_x' stays."""
    if ":" not in title:
        return title
    path, name = title.rsplit(":", 1)
    return "/".join(pathlib.PurePath(path).parts[-2:]) + ":" + name


def load(objects):
    frames, kinds, calls = {}, {}, {}
    files = sorted(pathlib.Path(objects).rglob("*.ci"))
    for ci in files:
        for line in ci.read_text(encoding="utf-8", errors="replace").splitlines():
            m = NODE.search(line)
            if m:
                s = SIZE.search(m.group(2))
                if s:
                    name = short(m.group(1))
                    frames[name] = int(s.group(1))
                    kinds[name] = s.group(2)
                    calls.setdefault(name, [])
                continue
            m = EDGE.search(line)
            if m:
                calls.setdefault(short(m.group(1)), []).append(short(m.group(2)))
    return files, frames, kinds, calls


def declared(include_dir):
    names = set()
    pattern = re.compile(r"HWFIT_API\b[^;{]*?\b([A-Za-z_][A-Za-z0-9_]*)\s*\(", re.S)
    for header in pathlib.Path(include_dir).rglob("*.h"):
        text = header.read_text(encoding="utf-8")
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        text = re.sub(r"^\s*#.*$", " ", text, flags=re.M)
        names.update(pattern.findall(text))
    return names


def macro_value(include_dirs, name):
    for d in include_dirs:
        for h in pathlib.Path(d).rglob("*.h"):
            m = re.search(r"#define\s+%s\s+(\d+)" % re.escape(name), h.read_text(errors="replace"))
            if m:
                return int(m.group(1))
    return None


def sccs(nodes, succ):
    """Tarjan's strongly connected components, iteratively."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in nodes:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter[0]
                counter[0] += 1
                stack.append(v)
                on.add(v)
            kids = succ.get(v, [])
            for j in range(i, len(kids)):
                w = kids[j]
                if w not in index:
                    work.append((v, j + 1))
                    work.append((w, 0))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    out.append(comp)
                if work:
                    u = work[-1][0]
                    low[u] = min(low[u], low[v])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--objects", required=True, help="directory holding the .ci files")
    ap.add_argument("--include", required=True, help="include/ of the public headers")
    ap.add_argument("--internal", action="append", default=[],
                    help="more header directories for macro values (lib/)")
    ap.add_argument("--limit", type=int, default=16384)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--ceilings", action="store_true",
                    help="hold the calls of CEILINGS to their ceilings (the -O0 build's)")
    args = ap.parse_args()

    files, frames, kinds, calls = load(args.objects)
    if not files:
        print(f"no .ci files under {args.objects}: build hwfit_stack_objects first")
        return 1
    problems = []

    # Resolve the indirect calls.
    succ, used_rows = {}, set()
    for f, callees in calls.items():
        out = []
        for c in callees:
            if c != "__indirect_call":
                out.append(c)
                continue
            rows = [pats for caller, pats in INDIRECT if re.search(caller, base(f))]
            if not rows:
                problems.append(f"{f}: calls through a function pointer that INDIRECT does "
                                "not resolve")
                continue
            used_rows.update(id(r) for r in rows)
            out.extend(g for g in frames
                       if any(re.search(p, base(g)) for pats in rows for p in pats))
        succ[f] = sorted(set(out))
    # The optimiser may turn a call through a constant pointer into a direct one (or inline
    # it): a row that resolves nothing is stale in the -O0 build (--ceilings) only.
    stale = problems.append if args.ceilings else (lambda m: print("note: " + m))
    for caller, pats in INDIRECT:
        if id(pats) not in used_rows:
            stale(f"INDIRECT row {caller} resolves no call through a pointer")
        # A target may be inlined away where the pointer is a constant, not all of them.
        if not any(re.search(p, base(g)) for p in pats for g in frames):
            stale(f"INDIRECT targets of {caller} match no function")

    # Leaves outside the library.
    externals = sorted({c for cs in succ.values() for c in cs if c not in frames})
    for e in externals:
        if e not in LIBC:
            problems.append(f"{e}: called, not in the library and without a LIBC allowance")

    for f, k in kinds.items():
        if k == "dynamic":
            problems.append(f"{f}: a frame of unbounded size (alloca or a variable-length array)")

    # Recursion: each cycle needs a depth bound.
    nodes = sorted(set(frames) | set(externals))
    comp_of, cycles = {}, []
    for comp in sccs(nodes, succ):
        for v in comp:
            comp_of[v] = tuple(sorted(comp))
        if len(comp) > 1 or comp[0] in succ.get(comp[0], []):
            cycles.append(tuple(sorted(comp)))
    depth_of = {}
    include_dirs = [args.include] + args.internal + [str(pathlib.Path(args.include).parent / "lib")]
    for cyc in cycles:
        bound = None
        for name, (macro, fixed) in RECURSION.items():
            if name in {base(m) for m in cyc}:
                bound = fixed if fixed is not None else macro_value(include_dirs, macro)
                if bound is None:
                    problems.append(f"recursion through {name}: cannot read {macro}")
                    bound = 1
        if bound is None:
            problems.append("unbounded recursion: " + " -> ".join(cyc))
            bound = 1
        depth_of[cyc] = bound

    # Worst chain per component, deepest first (memoised over the condensed graph).
    memo = {}

    def cost(v):
        comp = comp_of.get(v, (v,))
        if comp in memo:
            return memo[comp]
        if v not in frames:
            memo[comp] = (LIBC.get(v, 0), [f"{v} (libc allowance {LIBC.get(v, 0)})"])
            return memo[comp]
        memo[comp] = (0, [])  # guard; components are acyclic between themselves
        if comp in depth_of:
            own = depth_of[comp] * sum(frames[m] for m in comp)
            head = [f"{'/'.join(comp)} (recursion x{depth_of[comp]}: {own})"]
        else:
            own = frames[v]
            head = [f"{v} ({own})"]
        best, path = 0, []
        for m in comp:
            for w in succ.get(m, []):
                if comp_of.get(w, (w,)) == comp:
                    continue
                c, p = cost(w)
                if c > best:
                    best, path = c, p
        memo[comp] = (own + best, head + path)
        return memo[comp]

    public = sorted(declared(args.include))
    results = []
    for f in public:
        if f not in frames:
            problems.append(f"{f}: declared HWFIT_API but not in the call graph")
            continue
        total, path = cost(f)
        results.append((total, f, path))
    results.sort(key=lambda r: (-r[0], r[1]))

    print(f"{len(files)} objects, {len(frames)} functions, {len(public)} public; "
          f"limit {args.limit} bytes")
    print("calls through pointers resolved: " +
          "; ".join(f"{k} -> {', '.join(v)}" for k, v in INDIRECT))
    for cyc in cycles:
        print(f"recursion bounded x{depth_of[cyc]}: {' / '.join(cyc)}")
    print("libc allowances used: " + ", ".join(f"{e} {LIBC.get(e, '?')}" for e in externals))
    over = [r for r in results if r[0] > args.limit and r[0] > KNOWN_OVER.get(r[1], 0)]
    for total, f, _ in results:
        if f in KNOWN_OVER and total <= args.limit:
            problems.append(f"{f} needs {total} bytes, within the limit: remove it from "
                            "KNOWN_OVER")
    if args.ceilings:
        need = {f: total for total, f, _ in results}
        for f, ceiling in sorted(CEILINGS.items()):
            if f not in need:
                problems.append(f"CEILINGS: {f} is not a public function of the graph")
            elif need[f] > ceiling:
                problems.append(f"{f} needs {need[f]} bytes, above its ceiling {ceiling} "
                                "(CEILINGS): free the stack the change took, or raise the "
                                "ceiling with the reason")
    shown = results[:max(args.top, len(over))]
    print(f"\nworst stack of the public functions (top {len(shown)}):")
    for total, f, path in shown:
        ceiling = f"  (ceiling {CEILINGS[f]})" if args.ceilings and f in CEILINGS else ""
        flag = (ceiling if total <= args.limit else
                f"  OVER (known, ceiling {KNOWN_OVER[f]})" if total <= KNOWN_OVER.get(f, 0)
                else "  OVER")
        print(f"{total:8d}  {f}{flag}")
        print("          " + " -> ".join(path))
    for p in problems:
        print("problem: " + p)
    if over:
        print(f"\n{len(over)} public function(s) above {args.limit} bytes")
    return 1 if over or problems else 0


if __name__ == "__main__":
    sys.exit(main())

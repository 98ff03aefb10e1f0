#!/usr/bin/env python3
"""Longest sample among the k samples a short, unpacked fine-tuning run draws.

An SFT run that does not pack and pads each micro-batch to its longest sample
peaks at the longest sample it sees.  A run of steps x gradient accumulation x
micro-batch draws k samples without replacement (one shuffled epoch) from a
data set of N, so its longest sample M has

    P(M <= L) = C(c(L), k) / C(N, k),   c(L) = samples of length <= L.

Used for the Unsloth Alpaca notebook cases (docs/accuracy.md, "Alpaca-cleaned
batch lengths").  Subcommands:

  selftest  check the tokenizers against published token ids
  lengths   tokenize an Alpaca JSON list with the notebooks' template and
            print the exact quantiles of M (for when the data set is at hand)
  digitize  read the bar heights of a matplotlib histogram PNG (pure Python)
  digitize-curve  read a cumulative-count line plot PNG to a few samples
  mc        quantiles of M from tests/data/datasets/alpaca-cleaned-lengths.json
            (the maintainers' cumulative figure of Alpaca-cleaned, or with
            --source histogram their histogram, and the per-sample token-count
            ratios committed there)

Tokenizers (this project's own code, no tokenizer library):
  tiktoken  Llama 3: rank file "base64(bytes) rank" a line (Meta's
            tokenizer.model), pattern split, lowest-rank pair merged first.
  hfbyte    Qwen2/2.5: tokenizer.json byte-level BPE (NFC, pattern split,
            GPT-2 byte alphabet, lowest merge index first).
  hfsp      Gemma: tokenizer.json SentencePiece-style BPE (' ' -> U+2581,
            added tokens matched longest first, whole-segment merges by merge
            index, byte fallback).
  l2bin     LLaMA 1/2: llama2.c's tokenizer.bin (scores), SentencePiece BPE
            with a dummy prefix space, highest-score pair merged first.

The tokenizers need the `regex` module (\\p{L} classes); `mc` needs nothing.
"""
import argparse
import base64
import bisect
import heapq
import json
import math
import random
import struct
import sys
import unicodedata
import zlib

try:  # only the tokenizers need it (\p{L} classes); `mc` and the quantiles do not
    import regex
except ImportError:  # pragma: no cover
    regex = None

PATTERNS = {
    # meta-llama/llama-models models/llama3/tokenizer.py, Tokenizer.pat_str
    "llama3": r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
    # Qwen2/2.5/3 tokenizer.json pre_tokenizer Split regex (digits one by one)
    "qwen2": r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
}

# The Unsloth Alpaca notebooks' alpaca_prompt (used with an empty input too),
# followed by tokenizer.eos_token.
ALPACA = ("Below is an instruction that describes a task, paired with an input that "
          "provides further context. Write a response that appropriately completes "
          "the request.\n\n### Instruction:\n{}\n\n### Input:\n{}\n\n### Response:\n{}")
# tloen/alpaca-lora generate_prompt (the template of the maintainers' histogram).
LORA_IN = ALPACA
LORA_NO = ("Below is an instruction that describes a task. Write a response that "
           "appropriately completes the request.\n\n### Instruction:\n{}\n\n"
           "### Response:\n{}")


def _merge_lowest(parts, rank_of):
    """Merge the adjacent pair with the lowest rank until none has one."""
    while len(parts) > 1:
        best, at = None, -1
        for i in range(len(parts) - 1):
            r = rank_of(parts[i], parts[i + 1])
            if r is not None and (best is None or r < best):
                best, at = r, i
        if best is None:
            break
        parts[at:at + 2] = [parts[at] + parts[at + 1]]
    return parts


class Tiktoken:
    def __init__(self, path, pattern):
        self.ranks = {}
        with open(path, "rb") as f:
            for line in f:
                if line.strip():
                    tok, rank = line.split()
                    self.ranks[base64.b64decode(tok)] = int(rank)
        self.pat = regex.compile(PATTERNS[pattern])
        self.cache = {}

    def _piece(self, b):
        if b in self.ranks:
            return [b]
        return _merge_lowest([b[i:i + 1] for i in range(len(b))],
                             lambda x, y: self.ranks.get(x + y))

    def ids(self, text):
        return [self.ranks[t] for p in self.pat.findall(text) for t in self._piece(p.encode())]

    def count(self, text):
        n = 0
        for p in self.pat.findall(text):
            c = self.cache.get(p)
            if c is None:
                c = len(self._piece(p.encode()))
                if len(self.cache) < 2_000_000:
                    self.cache[p] = c
            n += c
        return n


def bytes_to_unicode():
    """GPT-2's byte -> printable character table (the byte-level alphabet)."""
    bs = (list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD))
          + list(range(0xAE, 0x100)))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


def _load_merges(m):
    out = {}
    for i, mg in enumerate(m["merges"]):
        a, b = mg.split(" ", 1) if isinstance(mg, str) else mg
        out.setdefault((a, b), i)
    return out


class HFByte:
    def __init__(self, path, pattern):
        with open(path, encoding="utf-8") as f:
            t = json.load(f)
        self.vocab = t["model"]["vocab"]
        self.mrank = _load_merges(t["model"])
        self.byte = bytes_to_unicode()
        self.pat = regex.compile(PATTERNS[pattern])
        self.cache = {}

    def _piece(self, p):
        w = "".join(self.byte[b] for b in p.encode("utf-8"))
        if w in self.vocab:
            return [w]
        return _merge_lowest(list(w), lambda x, y: self.mrank.get((x, y)))

    def ids(self, text):
        return [self.vocab[t] for p in self.pat.findall(unicodedata.normalize("NFC", text))
                for t in self._piece(p)]

    def count(self, text):
        n = 0
        for p in self.pat.findall(unicodedata.normalize("NFC", text)):
            c = self.cache.get(p)
            if c is None:
                c = len(self._piece(p))
                if len(self.cache) < 2_000_000:
                    self.cache[p] = c
            n += c
        return n


def _heap_merge(syms, score):
    """Whole-sequence BPE: repeatedly merge the adjacent pair with the lowest
    score(a, b) (None: no merge); ties go to the leftmost pair.  None symbols
    (byte-fallback) never merge.  Returns the merged symbols."""
    n = len(syms)
    nxt = list(range(1, n + 1))
    prv = list(range(-1, n - 1))
    alive = [True] * n
    heap = []

    def push(i):
        j = nxt[i]
        if j < n and syms[i] is not None and syms[j] is not None:
            s = score(syms[i], syms[j])
            if s is not None:
                heapq.heappush(heap, (s, i, syms[i], syms[j]))
    for i in range(n - 1):
        push(i)
    while heap:
        _, i, a, b = heapq.heappop(heap)
        if not alive[i] or syms[i] != a:
            continue
        j = nxt[i]
        if j >= n or not alive[j] or syms[j] != b:
            continue
        syms[i] = a + b
        alive[j] = False
        nxt[i] = nxt[j]
        if nxt[j] < n:
            prv[nxt[j]] = i
        if prv[i] >= 0:
            push(prv[i])
        push(i)
    return [s for s, a in zip(syms, alive) if a]


class HFSentencePiece:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            t = json.load(f)
        self.vocab = t["model"]["vocab"]
        self.mrank = _load_merges(t["model"])
        self.added = {a["content"]: a["id"] for a in t["added_tokens"]}
        ws = sorted((c for c in self.added if c and not c.startswith("<unused")),
                    key=len, reverse=True)
        self.split = regex.compile("(" + "|".join(regex.escape(w) for w in ws) + ")")

    def _segment(self, seg):
        syms = []
        for ch in seg:
            if ch in self.vocab:
                syms.append(ch)
            else:
                syms.extend([None] * len(ch.encode("utf-8")))  # <0xXX> fallback
        return _heap_merge(syms, lambda a, b: self.mrank.get((a, b)))

    def ids(self, text):
        out = []
        for k, seg in enumerate(self.split.split(text.replace(" ", "\u2581"))):
            if k % 2:
                out.append(self.added[seg])
            elif seg:
                out.extend(self.vocab.get(s, -1) if s is not None else -1
                           for s in self._segment(seg))
        return out

    def count(self, text):
        return len(self.ids(text))


class Llama2Bin:
    def __init__(self, path):
        b = open(path, "rb").read()
        o = 4
        self.vocab, self.scores, self.index = [], [], {}
        while o < len(b):
            s, n = struct.unpack_from("fi", b, o)
            o += 8
            self.vocab.append(b[o:o + n])
            self.scores.append(s)
            o += n
        for i, t in enumerate(self.vocab):
            self.index.setdefault(t, i)

    def ids(self, text, bos=True):
        toks = []
        for ch in " " + text:  # dummy prefix
            cb = ch.encode("utf-8")
            i = self.index.get(cb)
            toks.extend([i] if i is not None else [x + 3 for x in cb])
        syms = [self.vocab[t] for t in toks]
        # highest score first == lowest negated score
        merged = _heap_merge(syms, lambda a, b: (-self.scores[self.index[a + b]]
                                                 if a + b in self.index else None))
        return ([1] if bos else []) + [self.index[s] for s in merged]

    def count(self, text):
        return len(self.ids(text, bos=False))


def make_tokenizer(kind, path, pattern=None):
    if kind == "tiktoken":
        return Tiktoken(path, pattern or "llama3")
    if kind == "hfbyte":
        return HFByte(path, pattern or "qwen2")
    if kind == "hfsp":
        return HFSentencePiece(path)
    if kind == "l2bin":
        return Llama2Bin(path)
    raise SystemExit("unknown tokenizer kind " + kind)


def cdf_max(n_total, above, k):
    """P(max of k draws without replacement <= L) with `above` samples > L."""
    c = n_total - above
    if c < k:
        return 0.0
    return math.exp(math.lgamma(c + 1) - math.lgamma(c - k + 1)
                    - math.lgamma(n_total + 1) + math.lgamma(n_total - k + 1))


def exact_quantiles(lengths, k, qs=(0.1, 0.5, 0.9)):
    srt = sorted(lengths)
    n = len(srt)
    out = {}
    for L in sorted(set(srt)):
        p = cdf_max(n, n - bisect.bisect_right(srt, L), k)
        for q in qs:
            if q not in out and p >= q:
                out[q] = L
    return out


def cmd_selftest(a):
    ok = True

    def check(name, got, want):
        nonlocal ok
        if got != want:
            ok = False
            print(f"FAIL {name}: {got} != {want}")
        else:
            print(f"ok   {name}")
    if a.llama3:
        t = make_tokenizer("tiktoken", a.llama3, "llama3")
        # meta-llama/llama-models models/llama3/tests/api/test_tokenizer.py
        check("llama3 'This is a test sentence.'", t.ids("This is a test sentence."),
              [2028, 374, 264, 1296, 11914, 13])
        check("llama3 'This is a response.'", t.ids("This is a response."),
              [2028, 374, 264, 2077, 13])
        check("llama3 '\\n\\n', user, system, assistant",
              [t.ids(s) for s in ("\n\n", "user", "system", "assistant")],
              [[271], [882], [9125], [78191]])
    if a.llama2:
        t = make_tokenizer("l2bin", a.llama2)
        # karpathy/llama2.c test.c (ids from Meta's Llama 2 tokenizer)
        check("llama2 'I believe the meaning of life is'",
              t.ids("I believe the meaning of life is"),
              [1, 306, 4658, 278, 6593, 310, 2834, 338])
        check("llama2 'Simply put, ...'",
              t.ids("Simply put, the theory of relativity states that "),
              [1, 3439, 17632, 1925, 29892, 278, 6368, 310, 14215, 537, 5922, 393, 29871])
        check("llama2 'A brief message ...'",
              t.ids("A brief message congratulating the team on the launch:\n\n        Hi everyone,\n\n        I just "),
              [1, 319, 11473, 2643, 378, 629, 271, 18099, 278, 3815, 373, 278, 6826, 29901, 13, 13,
               4706, 6324, 14332, 29892, 13, 13, 4706, 306, 925, 29871])
    if a.qwen:
        t = make_tokenizer("hfbyte", a.qwen, "qwen2")
        # alibaba/rtp-llm rtp_llm/test/tokenizer_test/qwen2_tokenizer_test.py:
        # "<|im_start|>hello<|im_end|>" -> [151644, 14990, 151645]
        check("qwen2 'hello'", t.ids("hello"), [14990])
        # Homqyy/study-llm 7天入门LLM学习/day-4-llm_train/py-tokenizer.py, the
        # printed output of Qwen's tokenizer (Qwen-1_8B-Chat; Qwen2 kept its
        # byte-level vocabulary)
        check("qwen2 '杭州是个好地方'", t.ids("杭州是个好地方"), [104130, 104104, 52801, 100371])
        # @lenml/tokenizers 3.7.2 (a transformers.js fork) on the same tokenizer.json
        check("qwen2 'Hello, my dog is cute'", t.ids("Hello, my dog is cute"),
              [9707, 11, 847, 5562, 374, 18838])
    if a.gemma:
        t = make_tokenizer("hfsp", a.gemma)
        # @lenml/tokenizers 3.7.2 (a transformers.js fork) on the same tokenizer.json
        check("gemma3 'Hello, my dog is cute'", t.ids("Hello, my dog is cute"),
              [9259, 236764, 1041, 4799, 563, 12864])
    return 0 if ok else 1


def cmd_lengths(a):
    tok = make_tokenizer(a.kind, a.tokenizer, a.pattern)
    rows = []
    for p in a.data:
        with open(p, encoding="utf-8") as f:
            rows.extend(json.load(f))
    lengths = []
    for r in rows:
        if a.template == "unsloth":
            text = ALPACA.format(r["instruction"], r["input"], r["output"])
        else:
            text = (LORA_IN.format(r["instruction"], r["input"], r["output"]) if r["input"]
                    else LORA_NO.format(r["instruction"], r["output"]))
        n = tok.count(text) + a.special
        lengths.append(min(n, a.truncate))
    print(f"samples {len(lengths)}, mean {sum(lengths) / len(lengths):.1f}, max {max(lengths)}")
    for k in a.k:
        q = exact_quantiles(lengths, k)
        print(f"k={k}: longest sample p10 {q[0.1]}, median {q[0.5]}, p90 {q[0.9]}")
    if a.out:
        with open(a.out, "w") as f:
            json.dump(lengths, f)
    return 0


def read_png_rgb(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        ln, = struct.unpack(">I", data[pos:pos + 4])
        typ, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + ln]
        pos += 12 + ln
        if typ == b"IHDR":
            w, h, bd, ct, _, _, il = struct.unpack(">IIBBBBB", body)
            assert bd == 8 and il == 0 and ct in (2, 6), "8-bit RGB(A), not interlaced"
        elif typ == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    bpp = 3 if ct == 2 else 4
    stride = w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        f = raw[i]
        i += 1
        line = bytearray(raw[i:i + stride])
        i += stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, lambda x, y: tuple(rows[y][x * bpp:x * bpp + 3])


def plot_axes(png):
    """A matplotlib figure's pixels and axes: the frame (rows and columns more than a
    third dark: top, base, left, right) and the tick marks below the x axis (xt) and left
    of the y axis (yt), in pixels."""
    w, h, px = read_png_rgb(png)
    dark = lambda p: sum(p) < 100
    hl = [y for y in range(h) if sum(dark(px(x, y)) for x in range(w)) > w // 3]
    vl = [x for x in range(w) if sum(dark(px(x, y)) for y in range(h)) > h // 3]
    top, base, left, right = hl[0], hl[-1], vl[0], vl[-1]
    xt = [x for x in range(left + 3, right) if sum(px(x, base + 3)) < 200]
    yt = [y for y in range(top, base + 1) if sum(px(left - 3, y)) < 200]
    return px, top, base, left, right, xt, yt


def cmd_digitize(a):
    """Bar heights of a 100-bin matplotlib histogram.  Calibration: the x tick
    marks (first and last labelled value given), the y tick marks (0 and the
    top labelled count), the axes frame; matplotlib's 5 % x margins give the
    data range, the bins are equal.  Height = blue coverage of the bin's
    centre column (anti-aliased rows counted by their blend with white)."""
    px, top, base, left, right, xt, yt = plot_axes(a.png)
    x0, x1 = xt[0], xt[-1]
    sx = (x1 - x0) / (a.xlast - a.xfirst)
    sy = (yt[-1] - yt[0]) / a.ytop           # pixels per sample
    tl = a.xfirst + (left - x0) / sx
    tr = a.xfirst + (right - x0) / sx
    span = (tr - tl) / 1.1
    lo = tl + 0.05 * span
    bw = span / a.bins
    blue = a.blue

    def alpha(p):
        if p == blue:
            return 1.0
        if p[2] <= p[0]:  # not a blend of blue with white (red line, text)
            return 0.0
        return max(0.0, min(1.0, (255 - p[0]) / (255 - blue[0])))
    heights = []
    for i in range(a.bins):
        x = int(round(x0 + (lo + bw * (i + 0.5) - a.xfirst) * sx))
        cols = [sum(alpha(px(xx, y)) for y in range(top + 1, base)) for xx in (x - 1, x, x + 1)]
        heights.append(round(sorted(cols)[1], 2))
    out = {"lo": round(lo, 2), "bin_width": round(bw, 3), "samples_per_pixel": round(1 / sy, 3),
           "bar_pixels": heights}
    print(json.dumps(out))
    return 0


def cmd_digitize_curve(a):
    """The samples longer than L, read off a matplotlib line plot of the
    number of samples no longer than L (the maintainers' 'fully covered
    examples' figure).  Calibration: x on the first and last tick marks, y on
    the ticks 0 and the top labelled count.  For each pixel column the line's
    height is the alpha-weighted centre of its anti-aliased pixels (Agg draws
    lines at sub-pixel positions, so the centre resolves well under a pixel);
    'above' is the plateau (the rightmost column) minus that count."""
    px, top, base, left, right, xt, yt = plot_axes(a.png)
    sx = (xt[-1] - xt[0]) / (a.xlast - a.xfirst)
    per_px = a.ytop / (yt[-1] - yt[0])        # samples per pixel
    blue = a.blue

    def alpha(p):
        if p[2] <= p[0] + 20:   # not the blue line (red marker line, text, frame)
            return 0.0
        return max(0.0, min(1.0, (255 - p[0]) / (255 - blue[0])))

    def centre(x):
        ws = [(y, alpha(px(x, y))) for y in range(top + 1, base)]
        ws = [(y, al) for y, al in ws if al > 0.05]
        return sum(y * al for y, al in ws) / sum(al for _, al in ws) if ws else None
    cols = [(x, centre(x)) for x in range(left + 1, right)]
    cols = [(x, c) for x, c in cols if c is not None]
    plateau = cols[-1][1]
    pts = []
    for x, c in cols:
        tok = a.xfirst + (x - xt[0]) / sx
        if tok >= a.from_tokens:
            pts.append([round(tok, 1), round((plateau - c) * -per_px, 1)])
    out = {"samples_per_pixel": round(per_px, 2),
           "plateau_samples": round((yt[-1] - plateau) * per_px),
           "above": pts}
    print(json.dumps(out))
    return 0


def survival_quantiles(surv, ratios, k, n_total, trials=400, seed=1, shift=4.0,
                       qs=(0.1, 0.5, 0.9)):
    """Quantiles of M from the samples-longer-than-L curve: the samples in
    each step of the curve placed uniformly in it, each multiplied by a ratio
    drawn from `ratios` (target-tokenizer length / curve's length), the curve
    shifted by a uniform +-`shift` samples per trial (the reading's
    resolution); the CDF of M averaged over trials, then inverted."""
    rng = random.Random(seed)
    grid = list(range(300, 1400))
    acc = [0.0] * len(grid)
    pts = sorted((t, max(0.0, s)) for t, s in surv)
    mono, low = [], math.inf          # the curve can only fall: running minimum
    for t, sv in pts:
        low = min(low, sv)
        mono.append((t, low))
    for _ in range(trials):
        e = rng.uniform(-shift, shift)
        vals = []
        for (t0, s0), (t1, s1) in zip(mono, mono[1:]):
            n = round(max(0.0, s0 + e)) - round(max(0.0, s1 + e))
            for _ in range(n):
                vals.append((t0 + (t1 - t0) * rng.random()) * ratios[rng.randrange(len(ratios))])
        vals.append(pts[-1][0] * ratios[rng.randrange(len(ratios))])  # the longest sample
        vals.sort()
        m = len(vals)
        for gi, L in enumerate(grid):
            acc[gi] += cdf_max(n_total, m - bisect.bisect_right(vals, L), k)
    acc = [x / trials for x in acc]
    return {q: next((L for L, c in zip(grid, acc) if c >= q), grid[-1]) for q in qs}


def _population(rng, hist, ratios, lo_bin=20):
    """One draw of the data set's lengths consistent with the histogram: each
    visible bar's count uniform within its pixel rounding; the bins past the
    last visible bar (each under half a pixel) a geometric tail from a first
    bin under half a pixel with ratio 0.5-0.8 a bin, plus the longest sample
    at the top edge; each sample uniform in its bin and multiplied by a ratio
    drawn from `ratios` (target-tokenizer length / histogram length)."""
    spp, lo, bw = hist["samples_per_pixel"], hist["lo"], hist["bin_width"]
    px = [round(p) for p in hist["bar_pixels"]]
    last = max(i for i, p in enumerate(px) if p > 0)
    counts = [rng.uniform(max(p - 0.5, 0) * spp, (p + 0.5) * spp) if i <= last else 0.0
              for i, p in enumerate(px)]
    c0, rho = rng.uniform(0, 0.5 * spp), rng.uniform(0.5, 0.8)
    for j, i in enumerate(range(last + 1, len(px))):
        counts[i] = c0 * rho ** j
    ints = [int(c) + (1 if rng.random() < c - int(c) else 0) for c in counts]
    ints[-1] = max(ints[-1], 1)
    vals = []
    for i in range(lo_bin, len(px)):
        for _ in range(ints[i]):
            vals.append((lo + bw * (i + rng.random())) * ratios[rng.randrange(len(ratios))])
    vals.sort()
    return sum(ints), vals


def histogram_quantiles(hist, ratios, k, trials=400, seed=1, qs=(0.1, 0.5, 0.9)):
    """Quantiles of M averaged over `trials` data sets drawn from the
    histogram (the CDF of M averaged, then inverted)."""
    rng = random.Random(seed)
    grid = list(range(300, 1400))
    acc = [0.0] * len(grid)
    for _ in range(trials):
        n, vals = _population(rng, hist, ratios)
        m = len(vals)
        for gi, L in enumerate(grid):
            acc[gi] += cdf_max(n, m - bisect.bisect_right(vals, L), k)
    acc = [x / trials for x in acc]
    return {q: next((L for L, c in zip(grid, acc) if c >= q), grid[-1]) for q in qs}


def cmd_mc(a):
    with open(a.data, encoding="utf-8") as f:
        d = json.load(f)
    cols = d["ratio_samples"]["columns"]
    rows = d["ratio_samples"]["rows"]
    for name in cols[1:]:
        j = cols.index(name)
        ratios = [r[j] / r[0] for r in rows]
        for k in a.k:
            if a.source == "curve":
                q = survival_quantiles(d["survival"]["above"], ratios, k,
                                       d["survival"]["samples"], trials=a.trials)
            else:
                q = histogram_quantiles(d["histogram"], ratios, k, trials=a.trials)
            print(f"{name:15s} k={k:5d}: longest sample p10 {q[0.1]}, median {q[0.5]}, p90 {q[0.9]}")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("selftest")
    s.add_argument("--llama3")
    s.add_argument("--llama2")
    s.add_argument("--qwen")
    s.add_argument("--gemma")
    s = sub.add_parser("lengths")
    s.add_argument("--kind", required=True, choices=["tiktoken", "hfbyte", "hfsp", "l2bin"])
    s.add_argument("--tokenizer", required=True)
    s.add_argument("--pattern", choices=sorted(PATTERNS))
    s.add_argument("--template", default="unsloth", choices=["unsloth", "alpaca-lora"])
    s.add_argument("--special", type=int, default=1,
                   help="tokens added to each sample: EOS (1), plus BOS where the tokenizer adds one")
    s.add_argument("--k", type=int, action="append", default=[])
    s.add_argument("--truncate", type=int, default=2048)
    s.add_argument("--out")
    s.add_argument("data", nargs="+")
    def plot_parser(name, ytop):
        """A subcommand reading a plot: its PNG, axis ends and the line's colour."""
        q = sub.add_parser(name)
        q.add_argument("png")
        q.add_argument("--xfirst", type=float, default=0)
        q.add_argument("--xlast", type=float, default=1600)
        q.add_argument("--ytop", type=float, default=ytop)
        q.add_argument("--blue", type=lambda v: tuple(int(x) for x in v.split(",")),
                       default=(31, 119, 180))
        return q
    plot_parser("digitize", 6000).add_argument("--bins", type=int, default=100)
    plot_parser("digitize-curve", 50000).add_argument("--from-tokens", type=float, default=500)
    s = sub.add_parser("mc")
    s.add_argument("--source", default="curve", choices=["curve", "histogram"],
                   help="the tail from the cumulative figure (default) or the histogram's bars")
    s.add_argument("--data", default="tests/data/datasets/alpaca-cleaned-lengths.json")
    s.add_argument("--k", type=int, action="append", required=True)
    s.add_argument("--trials", type=int, default=400)
    a = ap.parse_args()
    return {"selftest": cmd_selftest, "lengths": cmd_lengths, "digitize": cmd_digitize,
            "digitize-curve": cmd_digitize_curve, "mc": cmd_mc}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Record lengths of unpacked micro-batches, and what PyTorch's caching allocator keeps of them.

A run that does not pack pads each micro-batch to its longest sample, so its
per-token tensors change size from step to step.  A step whose micro-batch is
longer than every earlier one (a RECORD) asks for blocks that no cached block
holds; the allocator takes new segments and keeps the earlier ones cached
(docs/accuracy.md, "Fifteenth round, study varlen").  This script gives

  records   the expected sequence of record lengths and their sum, by Monte
            Carlo over shuffles (fixed seed) and, for i.i.d. micro-batches,
            exactly:  E[sum of records] = sum_v v p(v) (1 - F(v-)^n) / (1 - F(v-)),
            where p and F are the pmf and cdf of a micro-batch's padded length
            (the largest of its b samples, F = F_sample^b) and n the number of
            micro-batches; E[last record] = E[max] = sum_v v (F(v)^n - F(v-)^n).
  selftest  the exact expectation against brute force, and the allocator model's
            re-use, new segment, release at the card's limit and expandable growth
  simulate  the same shuffles run through a model of the caching allocator's
            large pool (c10/cuda/CUDACachingAllocator.cpp: best fit over cached
            free blocks of the stream, split when more than 1 MiB is left,
            merge with free neighbours of the same segment, a new segment of
            the request rounded to 2 MiB above 10 MiB and of 20 MiB between
            1 and 10 MiB, cached segments released only when a new segment
            would pass the card; --expandable: one segment grown by 20 MiB pages at
            its end, blocks split down to 512 bytes), with a per-step program of the logits-class
            tensors (presets below) and optionally per-layer checkpoints and a
            layer's transients; prints the reserve the whole run ends with
            against the reserve of one step at the longest micro-batch alone.

Lengths come from --lengths FILE (integers, one a line, or a JSON list) or a
distribution --dist MEAN,SD,MIN,MAX (--shape lognormal (default), normal or
gamma, clipped to [MIN, MAX], rounded to whole tokens).  --bound B is the
truncation bound: --over truncate cuts longer samples to B (transformers'
truncation, ms-swift's truncation_left), --over delete drops them (ms-swift
1.x's default 'delete').  --samples N samples a shuffle (default all of a
lengths file, required with --dist), --micro-batch b, --epochs, --no-shuffle,
--pad-multiple m (pad_to_multiple_of), --trials, --seed.

Python 3 standard library only.  Example (ms-swift's cls-fudan-news-zh rows):

  length_records.py records --dist 3234.4,2547.5,91,19548 --bound 8192 \\
      --samples 1000 --micro-batch 1
  length_records.py simulate --dist 3234.4,2547.5,91,19548 --bound 8192 \\
      --samples 1000 --vocab 64000 --program upcast-freed-445
"""
import argparse
import bisect
import json
import math
import random
import sys

MIB = 1 << 20
K_MIN_BLOCK = 512            # kMinBlockSize: every request rounded to 512 bytes
K_SMALL_SIZE = 1 << 20       # kSmallSize: the small pool's largest request
K_LARGE_BUFFER = 20 << 20    # kLargeBuffer: the segment of a 1-10 MiB request
K_MIN_LARGE_ALLOC = 10 << 20  # kMinLargeAlloc
K_ROUND_LARGE = 2 << 20      # kRoundLarge: larger requests' segments rounded to 2 MiB


# ---------------------------------------------------------------- lengths

def sample_population(args, rng):
    """The data set's sample lengths (before truncation)."""
    if args.lengths:
        with open(args.lengths) as fh:
            text = fh.read().strip()
        if text.startswith("["):
            pop = [int(x) for x in json.loads(text)]
        else:
            pop = [int(x) for x in text.split()]
        return pop
    mean, sd, lo, hi = (float(x) for x in args.dist.split(","))
    if not args.samples:
        sys.exit("--dist needs --samples")
    out = []
    for _ in range(args.samples):
        out.append(draw(args.shape, mean, sd, lo, hi, rng))
    return out


def draw(shape, mean, sd, lo, hi, rng):
    while True:
        if shape == "normal":
            x = rng.gauss(mean, sd)
        elif shape == "gamma":
            k = (mean / sd) ** 2
            x = rng.gammavariate(k, mean / k)
        else:  # lognormal with the given mean and sd
            s2 = math.log(1.0 + (sd / mean) ** 2)
            x = rng.lognormvariate(math.log(mean) - s2 / 2, math.sqrt(s2))
        # clipped, as a stated min and max say no sample lies outside
        return int(round(min(max(x, lo), hi)))


def pmf_of_distribution(args):
    """Exact (discretized) pmf of one sample's length for --dist."""
    mean, sd, lo, hi = (float(x) for x in args.dist.split(","))
    lo_i, hi_i = int(round(lo)), int(round(hi))
    if args.shape == "normal":
        cdf = lambda x: 0.5 * (1 + math.erf((x - mean) / (sd * math.sqrt(2))))
    elif args.shape == "gamma":
        return None  # no closed cdf in the stdlib: Monte Carlo only
    else:
        s2 = math.log(1.0 + (sd / mean) ** 2)
        mu, s = math.log(mean) - s2 / 2, math.sqrt(s2)
        cdf = lambda x: 0.0 if x <= 0 else 0.5 * (1 + math.erf((math.log(x) - mu) / (s * math.sqrt(2))))
    pmf = {}
    for v in range(lo_i, hi_i + 1):
        a = 0.0 if v == lo_i else cdf(v - 0.5)
        b = 1.0 if v == hi_i else cdf(v + 0.5)
        if b > a:
            pmf[v] = b - a
    return pmf


def transform(L, args):
    """A sample's length after truncation (None: deleted)."""
    if args.bound and L > args.bound:
        if args.over == "delete":
            return None
        L = args.bound
    return L


def pad(L, m):
    return L if m <= 1 else -(-L // m) * m


def micro_batches(pop, args, rng):
    """Padded lengths of the run's micro-batches, in order, for one shuffle."""
    kept = [x for x in (transform(L, args) for L in pop) if x is not None]
    out = []
    for _ in range(args.epochs):
        order = kept[:]
        if args.shuffle:
            rng.shuffle(order)
        b = args.micro_batch
        for i in range(0, len(order), b):
            out.append(pad(max(order[i:i + b]), args.pad_multiple))
    return out


def records_of(seq):
    rec, best = [], 0
    for L in seq:
        if L > best:
            rec.append(L)
            best = L
    return rec


def exact_records(pmf_sample, b, n, m):
    """E[number of records], E[sum of records], E[max] for n i.i.d. micro-batches of b."""
    vals = sorted(pmf_sample)
    tot = sum(pmf_sample.values())
    # the padded micro-batch length's pmf: F_M(v) = F(v)^b, then padding to m
    cdf, acc = [], 0.0
    for v in vals:
        acc += pmf_sample[v] / tot
        cdf.append(min(acc, 1.0))
    pm = {}
    prev = 0.0
    for v, c in zip(vals, cdf):
        fb = c ** b
        w = pad(v, m)
        pm[w] = pm.get(w, 0.0) + fb - prev
        prev = fb
    e_count = e_sum = e_max = 0.0
    below = 0.0  # F_M(v-)
    for v in sorted(pm):
        p = pm[v]
        if p <= 0:
            continue
        # sum over j of P(the j-th is v and all earlier are shorter) / p(v)
        geo = 1.0 if below == 0.0 else (1.0 - below ** n) / (1.0 - below)
        e_count += p * geo
        e_sum += v * p * geo
        e_max += v * ((below + p) ** n - below ** n)
        below += p
    return e_count, e_sum, e_max


# ---------------------------------------------------------------- allocator

class Allocator:
    """The large pool of c10/cuda/CUDACachingAllocator.cpp on one stream.

    Requests up to 1 MiB go to the small pool, which is not modelled (they are
    counted as allocated, and reserved in 2 MiB pieces they never strand).
    max_split_size and garbage_collection_threshold are at their defaults (off),
    expandable_segments is off."""

    def __init__(self, cap=None, expandable=False):
        self.cap = cap
        self.expandable = expandable
        self.top = 0            # expandable: the mapped end of the one segment
        self.free = []          # sorted (size, addr) of free blocks
        self.blocks = {}        # addr -> [size, seg, allocated]
        self.segs = {}          # seg id -> (start, size)
        self.next_addr = 0
        self.next_seg = 0
        self.reserved = 0
        self.allocated = 0
        self.peak_reserved = 0
        self.peak_allocated = 0
        self.small = 0

    @staticmethod
    def round_size(n):
        return max(K_MIN_BLOCK, -(-n // K_MIN_BLOCK) * K_MIN_BLOCK)

    @staticmethod
    def allocation_size(n):
        if n <= K_SMALL_SIZE:
            return 2 * MIB
        if n < K_MIN_LARGE_ALLOC:
            return K_LARGE_BUFFER
        return -(-n // K_ROUND_LARGE) * K_ROUND_LARGE

    def _take(self, size):
        i = bisect.bisect_left(self.free, (size, -1))
        if i == len(self.free):
            return None
        bsize, addr = self.free.pop(i)
        blk = self.blocks[addr]
        # should_split: large pool more than 1 MiB left; expandable at least 512 bytes
        if bsize - size > (K_MIN_BLOCK - 1 if self.expandable else K_SMALL_SIZE):
            self.blocks[addr + size] = [bsize - size, blk[1], False]
            bisect.insort(self.free, (bsize - size, addr + size))
            blk[0] = size
        blk[2] = True
        return addr

    def _new_segment(self, asize):
        if self.cap is not None and self.reserved + asize > self.cap:
            self.release_cached()
            if self.reserved + asize > self.cap:
                raise MemoryError("out of memory")
        seg = self.next_seg
        self.next_seg += 1
        addr = self.next_addr
        self.next_addr += asize + (1 << 40)      # segments never adjoin
        self.segs[seg] = (addr, asize)
        self.blocks[addr] = [asize, seg, False]
        bisect.insort(self.free, (asize, addr))
        self.reserved += asize
        self.peak_reserved = max(self.peak_reserved, self.reserved)

    def _map_more(self, n):
        """Expandable segments: map 20 MiB pages at the segment's end (try_allocate_
        expandable_block), growing a free block that ends there."""
        last = None
        for sz, a in self.free:
            if a + sz == self.top:
                last = (sz, a)
        have = last[0] if last else 0
        pages = -(-(n - have) // K_LARGE_BUFFER) * K_LARGE_BUFFER
        if self.cap is not None and self.reserved + pages > self.cap:
            raise MemoryError("out of memory")
        if last:
            self.free.remove(last)
            addr, size = last[1], last[0] + pages
        else:
            addr, size = self.top, pages
        self.blocks[addr] = [size, 0, False]
        bisect.insort(self.free, (size, addr))
        self.top += pages
        self.reserved += pages
        self.peak_reserved = max(self.peak_reserved, self.reserved)

    def release_cached(self):
        """release_cached_blocks: every wholly free (unsplit) segment is given back."""
        for seg, (start, size) in list(self.segs.items()):
            blk = self.blocks.get(start)
            if blk and not blk[2] and blk[0] == size:
                self.free.remove((size, start))
                del self.blocks[start]
                del self.segs[seg]
                self.reserved -= size

    def malloc(self, n):
        n = self.round_size(n)
        if n <= K_SMALL_SIZE:
            self.small += n
            self.allocated += n
            self.peak_allocated = max(self.peak_allocated, self.allocated)
            return ("small", n)
        addr = self._take(n)
        if addr is None:
            if self.expandable:
                self._map_more(n)
            else:
                self._new_segment(self.allocation_size(n))
            addr = self._take(n)
        self.allocated += self.blocks[addr][0]
        self.peak_allocated = max(self.peak_allocated, self.allocated)
        return addr

    def free_(self, h):
        if isinstance(h, tuple):
            self.small -= h[1]
            self.allocated -= h[1]
            return
        blk = self.blocks[h]
        blk[2] = False
        self.allocated -= blk[0]
        size, seg = blk[0], blk[1]
        addr = h
        # merge with the following and preceding free blocks of the same segment
        nxt = self.blocks.get(addr + size)
        if nxt and not nxt[2] and nxt[1] == seg:
            self.free.remove((nxt[0], addr + size))
            del self.blocks[addr + size]
            size += nxt[0]
        prev_addr = self._prev_free(addr, seg)
        if prev_addr is not None:
            psize = self.blocks[prev_addr][0]
            self.free.remove((psize, prev_addr))
            del self.blocks[addr]
            addr = prev_addr
            size += psize
        self.blocks[addr] = [size, seg, False]
        bisect.insort(self.free, (size, addr))

    def _prev_free(self, addr, seg):
        for s, a in self.free:  # small lists: a linear look is enough
            b = self.blocks[a]
            if a + s == addr and b[1] == seg and not b[2]:
                return a
        return None


# Per-step programs of the logits-class tensors: (op, name, bytes per logit or
# 'A' for the activations' format).  a = allocate, f = free.  Sources: the
# comment above hwfit__strands (lib/domains/memory_internal.h), which cites
# transformers' LlamaForCausalLM.forward / ForCausalLMLoss, Unsloth's
# CausalLM_fast_forward and Accelerate's convert_to_fp32.
PROGRAMS = {
    # transformers <= 4.45: logits.float() in the model frees the A-byte logits, then
    # the shifted .contiguous() copy and the saved log-softmax; the Trainer drops the
    # outputs before backward; backward: nll grad, log-softmax grad, slice-backward's
    # full fp32 gradient, its cast back to A bytes.
    "upcast-freed-445": [
        ("a", "lg", "A"), ("a", "f32", 4), ("f", "lg"), ("a", "sh", 4), ("a", "ls", 4),
        ("f", "sh"), ("f", "f32"),
        ("a", "g1", 4), ("a", "g2", 4), ("f", "g1"), ("f", "ls"), ("a", "g3", 4),
        ("f", "g2"), ("a", "g4", "A"), ("f", "g3"), ("f", "g4")],
    # transformers >= 4.49 (ForCausalLMLoss): the A-byte logits kept in the outputs, an
    # fp32 copy, the saved log-softmax, the copy freed as cross_entropy returns, the
    # outputs dropped before backward; backward: nll grad, log-softmax grad, cast back.
    "upcast-freed-449": [
        ("a", "lg", "A"), ("a", "f32", 4), ("a", "ls", 4), ("f", "f32"), ("f", "lg"),
        ("a", "g1", 4), ("a", "g2", 4), ("f", "g1"), ("f", "ls"), ("a", "g4", "A"),
        ("f", "g2"), ("f", "g4")],
    # Unsloth under Accelerate (inplace-cast with outputs_fp32): the head's A-byte
    # logits, their cast copy (saved by the loss), the head's freed, Accelerate's fp32
    # copy of the returned logits; the fused loss writes its gradient in place.
    "inplace-cast-fp32": [
        ("a", "lg", "A"), ("a", "cast", "A"), ("f", "lg"), ("a", "o32", 4),
        ("f", "o32"), ("f", "cast")],
    # a loss whose logits-class requests never grow past a freed block (inplace)
    "inplace": [("a", "lg", "A"), ("f", "lg")],
    # no logits-class tensor at all (fused/cut cross-entropy): only --ckpt/--work count
    "none": [],
}


def parse_program(text):
    if text in PROGRAMS:
        return PROGRAMS[text]
    prog = []
    for item in text.split(","):
        parts = item.split(":")
        if parts[0] == "a":
            prog.append(("a", parts[1], parts[2] if parts[2] == "A" else float(parts[2])))
        else:
            prog.append(("f", parts[1]))
    return prog


def run_step(al, L, args, prog):
    """One training step at padded length L (b sequences)."""
    tok = L * args.micro_batch
    A = args.act_bytes
    ck = []
    for _ in range(args.layers):            # forward: each layer's transients, its checkpoint
        tr = [al.malloc(int(w * tok)) for w in args.work]
        for h in reversed(tr):
            al.free_(h)
        if args.ckpt:
            ck.append(al.malloc(int(args.ckpt * tok)))
    live = {}
    n_logits = tok * args.vocab
    for op in prog:
        if op[0] == "a":
            per = A if op[2] == "A" else op[2]
            live[op[1]] = al.malloc(int(per * n_logits))
        else:
            al.free_(live.pop(op[1]))
    for _ in range(args.layers):            # backward: recompute, then free the checkpoint
        tr = [al.malloc(int(w * tok)) for w in args.work]
        for h in reversed(tr):
            al.free_(h)
        if ck:
            al.free_(ck.pop())
    for h in live.values():
        al.free_(h)


def simulate_once(seq, args, prog):
    al = Allocator(cap=args.cap_gib * (1 << 30) if args.cap_gib else None,
                   expandable=args.expandable)
    for L in seq:
        run_step(al, L, args, prog)
    alone = Allocator(expandable=args.expandable)
    run_step(alone, max(seq), args, prog)
    return al.peak_reserved, alone.peak_reserved, al.reserved


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("command", choices=["records", "simulate", "selftest"])
    ap.add_argument("--lengths")
    ap.add_argument("--dist", help="MEAN,SD,MIN,MAX of the sample lengths")
    ap.add_argument("--shape", default="lognormal", choices=["lognormal", "normal", "gamma"])
    ap.add_argument("--bound", type=int, default=0, help="truncation bound (0: none)")
    ap.add_argument("--over", default="truncate", choices=["truncate", "delete"])
    ap.add_argument("--samples", type=int, default=0)
    ap.add_argument("--micro-batch", type=int, default=1)
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--no-shuffle", dest="shuffle", action="store_false")
    ap.add_argument("--pad-multiple", type=int, default=1)
    ap.add_argument("--trials", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1234)
    # simulate
    ap.add_argument("--vocab", type=int, default=0)
    ap.add_argument("--act-bytes", type=float, default=2.0, help="A: 16-bit logits 2")
    ap.add_argument("--program", default="upcast-freed-445",
                    help="a preset (%s) or 'a:name:bytes,f:name,...'" % ", ".join(PROGRAMS))
    ap.add_argument("--layers", type=int, default=0, help="layers for --ckpt/--work")
    ap.add_argument("--ckpt", type=float, default=0.0,
                    help="bytes per token a layer's checkpoint keeps (A x hidden)")
    ap.add_argument("--work", default="", help="a layer's transients, bytes per token, comma list")
    ap.add_argument("--expandable", action="store_true",
                    help="PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (one growing segment)")
    ap.add_argument("--cap-gib", type=float, default=0.0, help="card reserve limit (0: none)")
    args = ap.parse_args()
    args.work = [float(x) for x in args.work.split(",") if x]
    if args.command == "selftest":
        return selftest()
    if not args.lengths and not args.dist:
        ap.error("--lengths or --dist")
    rng = random.Random(args.seed)

    counts, sums, maxes, firsts, lists = [], [], [], [], []
    sims = []
    prog = parse_program(args.program) if args.command == "simulate" else None
    trials = args.trials if args.command == "records" else max(1, min(args.trials, 50))
    fixed_pop = sample_population(args, rng) if args.lengths else None
    for _ in range(trials):
        if fixed_pop is None:
            pop = sample_population(args, rng)
        elif args.samples and args.samples < len(fixed_pop):
            pop = rng.sample(fixed_pop, args.samples)   # one shuffled epoch's first N
        else:
            pop = fixed_pop
        seq = micro_batches(pop, args, rng)
        rec = records_of(seq)
        counts.append(len(rec))
        sums.append(sum(rec))
        maxes.append(rec[-1])
        firsts.append(rec[0])
        lists.append(rec)
        if args.command == "simulate":
            if not args.vocab:
                ap.error("simulate needs --vocab")
            sims.append(simulate_once(seq, args, prog))

    def mean(x):
        return sum(x) / len(x)

    def q(x, p):
        s = sorted(x)
        return s[min(len(s) - 1, int(p * len(s)))]

    earlier = [s - m for s, m in zip(sums, maxes)]
    probe = fixed_pop[:args.samples or None] if fixed_pop else None
    n_mb = len(micro_batches(probe or sample_population(args, random.Random(args.seed)),
                             args, random.Random(args.seed)))
    print("micro-batches per run        %d" % n_mb)
    print("Monte Carlo (%d shuffles, seed %d):" % (trials, args.seed))
    print("  records                    mean %.2f (10%% %d, 90%% %d)"
          % (mean(counts), q(counts, 0.1), q(counts, 0.9)))
    print("  sum of records             mean %.0f tokens" % mean(sums))
    print("  longest micro-batch        mean %.0f" % mean(maxes))
    print("  sum of earlier records     mean %.0f (10%% %d, 50%% %d, 90%% %d) tokens"
          % (mean(earlier), q(earlier, 0.1), q(earlier, 0.5), q(earlier, 0.9)))
    # One realization to hand to hwfit (--record-lengths, at most 8, the longest kept): the
    # shuffle whose sum of earlier records is the median one.
    med = sorted(range(len(earlier)), key=lambda i: earlier[i])[len(earlier) // 2]
    print("  median shuffle's earlier records (hwfit --record-lengths): %s"
          % (",".join(str(int(x)) for x in lists[med][:-1][-8:]) or "none"))
    pmf = None
    if args.lengths:
        pmf = {}
        for L in fixed_pop:
            t = transform(L, args)
            if t is not None:
                pmf[t] = pmf.get(t, 0) + 1
    elif args.dist:
        base = pmf_of_distribution(args)
        if base is not None:
            pmf = {}
            for v, p in base.items():
                t = transform(v, args)
                if t is not None:
                    pmf[t] = pmf.get(t, 0.0) + p
    if pmf:
        e_c, e_s, e_m = exact_records(pmf, args.micro_batch, n_mb, args.pad_multiple)
        print("exact, i.i.d. micro-batches (n = %d):" % n_mb)
        print("  records %.2f, sum of records %.0f, longest %.0f, sum of earlier records %.0f"
              % (e_c, e_s, e_m, e_s - e_m))
    if args.command == "simulate":
        gib = float(1 << 30)
        run = [s[0] for s in sims]
        alone = [s[1] for s in sims]
        extra = [r - a for r, a in zip(run, alone)]
        print("allocator model (%d shuffles, program %s, V %d, b %d, A %g%s):"
              % (len(sims), args.program, args.vocab, args.micro_batch, args.act_bytes,
                 ", expandable segments" if args.expandable else ""))
        print("  peak reserved, whole run   mean %.2f GiB" % (mean(run) / gib))
        print("  one step at its longest    mean %.2f GiB" % (mean(alone) / gib))
        print("  extra (stranded)           mean %.2f GiB (10%% %.2f, 50%% %.2f, 90%% %.2f)"
              % (mean(extra) / gib, q(extra, 0.1) / gib, q(extra, 0.5) / gib,
                 q(extra, 0.9) / gib))
        if not args.layers:
            c = mean([a / (args.vocab * args.micro_batch * m) for a, m in zip(alone, maxes)])
            print("  hypothesis as stated: c x V x b x earlier records, c = one step's "
                  "reserve per logit %.2f bytes: %.2f GiB"
                  % (c, c * args.vocab * args.micro_batch * mean(earlier) / gib))

def selftest():
    """The exact expectation against brute force, and the allocator's three behaviours."""
    import itertools
    # 1. exact E[sum of records] over all orders of a small population (without
    #    replacement) equals the i.i.d. formula only approximately; with replacement
    #    (every sequence of n draws) it is exact
    pop = {3: 1, 5: 2, 8: 1}
    tot = sum(pop.values())
    n = 3
    vals = [v for v, c in pop.items() for _ in range(c)]
    brute = 0.0
    for seq in itertools.product(vals, repeat=n):
        brute += sum(records_of(list(seq)))
    brute /= len(vals) ** n
    _, e_sum, _ = exact_records(pop, 1, n, 1)
    assert abs(brute - e_sum) < 1e-9, (brute, e_sum)
    # micro-batches of 2: the padded length is the larger of two draws
    brute2 = 0.0
    for seq in itertools.product(vals, repeat=2 * n):
        mb = [max(seq[i], seq[i + 1]) for i in range(0, 2 * n, 2)]
        brute2 += sum(records_of(mb))
    brute2 /= len(vals) ** (2 * n)
    _, e_sum2, _ = exact_records(pop, 2, n, 1)
    assert abs(brute2 - e_sum2) < 1e-9, (brute2, e_sum2)
    # 2. a freed block is re-used by a request that fits, split when > 1 MiB is left
    al = Allocator()
    h = al.malloc(100 * MIB)
    al.free_(h)
    h2 = al.malloc(40 * MIB)
    assert al.reserved == 100 * MIB and al.blocks[h2][0] == 40 * MIB
    # 3. a larger request takes a new segment; the cached one stays reserved
    h3 = al.malloc(120 * MIB)
    assert al.reserved == 220 * MIB
    al.free_(h2)
    al.free_(h3)
    assert al.reserved == 220 * MIB
    # 4. with a card limit, wholly free segments go back when a segment would not fit
    al = Allocator(cap=250 * MIB)
    for size in (100, 120):
        al.free_(al.malloc(size * MIB))
    al.malloc(200 * MIB)
    assert al.reserved == 200 * MIB
    # 5. expandable segments: growing requests map only the difference
    al = Allocator(expandable=True)
    for size in (100, 120, 150):
        al.free_(al.malloc(size * MIB))
    assert al.reserved == 160 * MIB  # 150 MiB rounded to 20 MiB pages
    print("selftest: ok")
    return 0


if __name__ == "__main__":
    main()

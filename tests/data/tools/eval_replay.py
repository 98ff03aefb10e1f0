#!/usr/bin/env python3
"""The evaluation forward's segments, replayed apart from the C code (a cross-check).

hwfit's evaluation phase (docs/formulas.md, "The evaluation phase") counts the
segments PyTorch's caching allocator takes for a no-grad evaluation forward that
keeps every layer's K and V (memory.c, hwfit__memory_eval_segments).  This script is a second
implementation of the allocator's rules (its own data structures: segments as
lists of blocks, no table limit), run over the same list of requests:
torch 2.1 c10/cuda/CUDACachingAllocator.cpp
(best fit among cached free blocks, the rest split off when more than 1 MiB
remains, a new segment of the request rounded up to 2 MiB, 20 MiB below 10 MiB,
free neighbours merged within their segment only, nothing released), requests
of 1 MiB or less left out (the small pool).  The requests follow transformers'
LlamaDecoderLayer / MistralDecoderLayer / MixtralDecoderLayer forward (at
5dd4a63548857797727ae73eeb6a6e886ea02a3e) under 16-bit autocast with R-byte
hidden states, bitsandbytes 0.42's Linear4bit (output cast to the input's
dtype) and PEFT's LoRA on it (peft ce925d844a, lora/bnb.py: the clone, lora_A,
lora_B, the scaled copy, the sum).  tests/test_memory.c and
bindings/python/tests/test_model.py check the C against its figure for Llama 2
7B (the Hinglish QLoRA run's evaluation).

Usage: eval_replay.py            print the three Hinglish runs' segment bytes
"""
MiB = 1 << 20


class Pool:
    def __init__(self):
        self.segments = []   # each a list of [size, live] blocks in address order
        self.reserved = 0
        self.handles = {}
        self.next = 0

    def malloc(self, n):
        if n <= MiB:
            return None
        n = (n + 511) // 512 * 512
        best = None
        for seg in self.segments:
            for blk in seg:
                if not blk[1] and blk[0] >= n and (best is None or blk[0] < best[1][0]):
                    best = (seg, blk)
        if best is None:
            size = (n + 2 * MiB - 1) // (2 * MiB) * (2 * MiB) if n >= 10 * MiB else 20 * MiB
            seg = [[size, False]]
            self.segments.append(seg)
            self.reserved += size
            best = (seg, seg[0])
        seg, blk = best
        if blk[0] - n > MiB:
            seg.insert(seg.index(blk) + 1, [blk[0] - n, False])
            blk[0] = n
        blk[1] = True
        self.next += 1
        self.handles[self.next] = (seg, blk)
        return self.next

    def free(self, h):
        if h is None:
            return
        seg, blk = self.handles.pop(h)
        blk[1] = False
        i = next(j for j, b in enumerate(seg) if b is blk)
        if i + 1 < len(seg) and not seg[i + 1][1]:
            blk[0] += seg[i + 1][0]
            del seg[i + 1]
        if i > 0 and not seg[i - 1][1]:
            seg[i - 1][0] += blk[0]
            del seg[i]


def replay(e, h, qd, kd, vd, hd, inter, layers, vocab, rank, a, r, quant, kv, lora,
           moe=None):
    """Segment bytes of one evaluation forward: e tokens, widths h, qd, kd, vd, head_dim hd,
    MLP width inter, layers, vocab, LoRA rank and targets (letters QKVOGUD), a the 16-bit
    bytes, r the hidden states' bytes, quant a 4-bit base, kv the K/V kept, moe (E, top-k,
    expert width) or None; the head with transformers <= 4.45's upcast loss."""
    p = Pool()
    m, f = p.malloc, p.free

    def lin(n, xb, nin, nout, lo):
        xa = m(n * nin * a) if xb != a else None
        o = m(n * nout * a)
        f(xa)
        b = xb if quant else a
        if b != a:
            c = m(n * nout * b)
            f(o)
            o = c
        if lo:
            if quant:
                c = m(n * nout * b)
                f(o)
                o = c
            xl = m(n * nin * a) if xb != a else None
            la = m(n * rank * a)
            f(xl)
            lb = m(n * nout * a)
            f(la)
            sc = m(n * nout * a)
            f(lb)
            b = max(b, a)
            s = m(n * nout * b)
            f(o)
            f(sc)
            o = s
        return o, b

    def norm(n):
        t = m(n * h * r)
        f(t)
        t = m(n * h * r)
        o = m(n * h * r)
        f(t)
        return o

    def rope(w):
        x = e * w * r
        t1, nx, cat = m(x), m(x // 2), m(x)
        f(nx)
        t2 = m(x)
        f(cat)
        out = m(x)
        f(t1)
        f(t2)
        return out

    def mlp(n, w):
        g, b = lin(n, r, h, w, "G" in lora)
        act = m(n * w * b)
        f(g)
        u, b2 = lin(n, r, h, w, "U" in lora)
        b = max(b, b2)
        i = m(n * w * b)
        f(act)
        f(u)
        d, _ = lin(n, b, w, h, "D" in lora)
        f(i)
        return d

    x = m(e * h * r)
    for _ in range(layers):
        n1 = norm(e)
        q, _ = lin(e, r, h, qd, "Q" in lora)
        k, _ = lin(e, r, h, kd, "K" in lora)
        v, _ = lin(e, r, h, vd, "V" in lora)
        cs, sn = m(e * hd * r), m(e * hd * r)
        qe, ke = rope(qd), rope(kd)
        for t in (cs, sn, q, k):
            f(t)
        q16, k16, v16 = qe, None, None
        if r != a:
            q16 = m(e * qd * a)
            f(qe)
            k16, v16 = m(e * kd * a), m(e * vd * a)
        ao = m(e * qd * a)
        o, _ = lin(e, a, qd, h, "O" in lora)
        for t in (ao, q16, k16, v16):
            f(t)
        if not kv:
            f(ke)
            f(v)
        f(n1)
        s1 = m(e * h * r)
        f(o)
        n2 = norm(e)
        if moe:
            experts, topk, w = moe
            d = m(e * h * r)
            ne = -(-e * topk // experts)
            for _ in range(experts):
                cur = m(ne * h * r)
                y = mlp(ne, w)
                rw = m(ne * h * r)
                f(y)
                f(cur)
                f(rw)
        else:
            d = mlp(e, inter)
        f(n2)
        s2 = m(e * h * r)
        f(d)
        f(s1)
        f(x)
        x = s2
    norm(e)
    f(x)
    x16 = m(e * h * a) if r != a else None
    lg = m(e * vocab * a)
    f(x16)
    m(e * vocab * 4)
    f(lg)
    m(e * vocab * 4)
    m(e * vocab * 4)
    return p.reserved


if __name__ == "__main__":
    e = 8 * 2048
    print("llama-2-7b, LoRA q,k,v,o:",
          replay(e, 4096, 4096, 4096, 4096, 128, 11008, 32, 32000, 64, 2, 4, True, True,
                 "QKVO"))
    print("mistral-7b-v0.1, LoRA all:",
          replay(e, 4096, 4096, 1024, 1024, 128, 14336, 32, 32000, 64, 2, 4, True, True,
                 "QKVOGUD"))
    print("mixtral-8x7b, LoRA all, balanced routing:",
          replay(e, 4096, 4096, 1024, 1024, 128, 0, 32, 32000, 64, 2, 4, True, True,
                 "QKVOGUD", moe=(8, 2, 14336)))

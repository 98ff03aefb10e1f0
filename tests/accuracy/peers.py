#!/usr/bin/env python3
"""Calculon and llm-analysis on hwfit's training cases (tests/data/measured/train-*.json).

Neither peer ships with hwfit, and none of their code is in this repository: give the
directory of an unpacked copy of each (`git archive` of the commit) and this script runs
it with the machine's python3, case by case, and writes what each predicted (or why it
cannot express the case) to tests/data/peers/train_rate.json, with the exact inputs it gave
the peer, so that anyone with the peers can re-run them.

Both peers are given the same hardware figures hwfit uses: the GPU's row of hwfit's catalog
(`hwfit gpus --json`: dense tensor peak of the case's number format, memory size and
bandwidth, NVLink bandwidth per direction), with the variant the case states (memory
bandwidth, power limit: effective_gpu), and the network run.py derives from the case's
words (NICs per node and their speed). Efficiencies are the peers' own (see ASSUMED below);
what the case leaves open (recomputation, virtual stages, ZeRO stage, micro-batch, TP
communication kind) is searched, and the peer's fastest answer kept, as hwfit searches it.

The peers' Python dependencies that their analysis path never calls (numpy, pandas,
psutil in Calculon's package imports; fire in llm-analysis's) are replaced by empty stub
modules written to a temporary directory (`--no-stubs` to use installed ones).

Usage: peers.py [--calculon DIR] [--llm-analysis DIR] [--cli PATH] [--data DIR] [--out FILE]
"""
import argparse
import itertools
import json
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import run as acc  # noqa: E402  (network_options: the same network hwfit is given)

STUBS = {
    "numpy.py": "class integer: pass\nclass floating: pass\nclass ndarray: pass\n"
                "class bool_: pass\n",
    "pandas.py": "",
    "psutil.py": "",
    "fire.py": "def Fire(*args, **kwargs):\n    raise SystemExit('fire stub')\n",
}

# Efficiency figures each peer is run with, when the case's source gives none.
ASSUMED = {
    "calculon": "Calculon's own efficiency tables from its system files (systems/"
                "h100_80g_nvl8.json for Hopper and Blackwell, systems/a100_80g.json for "
                "Ampere): GEMM efficiency by size, memory efficiency by size, network "
                "efficiency 0.65 NVLink / 0.9 (H100 file) or 0.9 (A100 file) IB, latencies, "
                "processor usage; peaks, memory and link bandwidths replaced by hwfit's "
                "catalog figures",
    "llm-analysis": "flops_efficiency 0.5 (its README, 'How to Set FLOPS and Memory "
                    "Efficiency': 'literature reports up to 0.5 for large scale model "
                    "training'; its default 1.0 is documented there as the lower bound of "
                    "latency and is recorded too as answer_default_efficiency); memory and "
                    "network efficiencies its defaults (1.0)",
}


def git_commit(d):
    p = subprocess.run(["git", "-C", str(d), "rev-parse", "HEAD"], capture_output=True,
                       text=True)
    return p.stdout.strip() if p.returncode == 0 else None


def catalog(cli):
    out = subprocess.run([cli, "gpus", "--json"], capture_output=True, text=True, check=True)
    rows = json.loads(out.stdout)
    rows = rows.get("gpus", rows) if isinstance(rows, dict) else rows
    return {r["name"]: r for r in rows}


def peak(gpu, precision):
    key = {"bf16": "fp16_bf16_flop_per_s", "fp16": "fp16_bf16_flop_per_s",
           "fp8": "fp8_flop_per_s", "fp4": "fp4_flop_per_s"}.get(precision)
    return gpu.get(key, 0) if key else 0


def effective_gpu(case, gpu):
    """The card as the case states it, as hwfit is given it: a memory-bandwidth variant
    (torchtitan's 96 GB H100 at 2.4 TB/s) and a power limit below the TDP, which scales the
    tensor peaks by (limit / TDP)^(1/3) (hwfit's --power-limit with its default
    --power-exponent; docs/accuracy.md, "Power limit")."""
    s = case["setup"]
    g = dict(gpu)
    bw = str(s.get("memory-bandwidth", ""))
    if bw.upper().endswith("TB/S"):
        g["memory_bandwidth_bytes_per_s"] = float(bw[:-4]) * 1e12
    pl = str(s.get("power-limit", ""))
    if pl.upper().endswith("W") and gpu.get("tdp_w"):
        share = (float(pl[:-1]) / gpu["tdp_w"]) ** (1 / 3)
        for k in ("fp16_bf16_flop_per_s", "fp8_flop_per_s", "int8_op_per_s", "fp4_flop_per_s"):
            if g.get(k):
                g[k] = g[k] * share
    return g


def layout(case):
    s = case["setup"]
    g = int(s["gpus"])
    tp, pp = int(s.get("tp", 1)), int(s.get("pp", 1))
    cp = int(s.get("cp", 1))
    dp = int(s.get("dp", g // (tp * pp * cp)))
    return g, tp, pp, cp, dp


def network(case, gpu):
    """(GPUs per node, network bytes/s per GPU) as run.py gives hwfit."""
    s = case["setup"]
    opts = acc.network_options(s)
    per_node = int(s.get("gpus-per-node", opts.get("gpus-per-node", 8)))
    nic = s.get("nic", opts.get("nic"))
    per_gpu = None
    if nic:
        n, rest = nic.split("x", 1)
        gbit = float(rest.split("g", 1)[0])
        per_gpu = int(n) * gbit * 1e9 / 8 / per_node
    return per_node, per_gpu, nic


def common_refusal(case, cfg):
    """Reasons neither peer can express a case (both lack these)."""
    s = case["setup"]
    if cfg.get("kv_lora_rank"):
        return "multi-head latent attention (MLA) and MoE (DeepSeek-V3): no such layers"
    g, tp, pp, cp, dp = layout(case)
    if cp > 1:
        return f"context parallelism (cp {cp}): no such parallel dimension"
    return None


def is_moe(cfg):
    return any(int(cfg.get(k) or 0) > 1 for k in
               ("num_experts", "n_routed_experts", "num_local_experts"))


# ---------------------------------------------------------------- Calculon

def calculon_system(base, gpu, precision, per_node, net_per_gpu):
    sysj = json.loads(json.dumps(base))
    dtype = {"bf16": "bfloat16", "fp16": "float16", "fp8": "float8"}[precision]
    eff_m = next(iter(base["matrix"].values()))["gflops_efficiency"]
    eff_v = next(iter(base["vector"].values()))["gflops_efficiency"]
    sysj["matrix"] = {dtype: {"tflops": peak(gpu, precision) / 1e12, "gflops_efficiency": eff_m}}
    # non-tensor rate: twice the FP32 figure (packed 16-bit), as Calculon's own files have
    sysj["vector"] = {dtype: {"tflops": 2 * gpu["fp32_flop_per_s"] / 1e12,
                              "gflops_efficiency": eff_v}}
    sysj["mem1"]["GiB"] = gpu["memory_bytes"] / 2**30
    sysj["mem1"]["GBps"] = gpu["memory_bandwidth_bytes_per_s"] / 1e9
    sysj["networks"][0]["bandwidth"] = gpu["peer_bytes_per_s"] / 1e9
    sysj["networks"][0]["size"] = per_node
    if net_per_gpu:
        sysj["networks"][1]["bandwidth"] = net_per_gpu / 1e9
    return sysj, dtype


def calculon_app(cfg, context):
    h = cfg["hidden_size"]
    heads = cfg["num_attention_heads"]
    kv = cfg.get("num_key_value_heads") or heads
    d = cfg.get("head_dim") or h // heads
    ff = cfg["intermediate_size"]
    note = []
    gated = cfg.get("hidden_act") in ("silu", "swiglu") or cfg.get("model_type") in (
        "llama", "qwen2", "qwen3", "mistral")
    if gated:
        # Calculon's MLP is two GEMMs (h x ff, ff x h); a gated MLP is three (h x 2ff, ff x h):
        # the same weights and FLOPs with ff' = 1.5 ff
        ff = int(ff * 3 // 2)
        note.append("gated MLP as feedforward = 1.5 x intermediate_size (same FLOPs)")
    # attention: Calculon has multihead and multiquery; take the one whose QKV weights are
    # nearer the model's grouped-query ones
    real = h * heads * d + 2 * h * kv * d
    mha, mqa = 3 * h * heads * d, h * heads * d + 2 * h * d
    att = "multihead" if abs(mha - real) <= abs(mqa - real) else "multiquery"
    if kv != heads:
        note.append(f"{kv} KV heads of {heads} as '{att}' (nearest of Calculon's kinds)")
    note.append("no embedding or LM-head layer in Calculon's model")
    app = {"hidden": h, "feedforward": ff, "seq_size": context, "attn_heads": heads,
           "attn_size": d, "num_blocks": cfg["num_hidden_layers"]}
    return app, att, note


def run_calculon(root, case, cfg, gpu, precision):
    sys.path.insert(0, str(root))
    import calculon  # noqa: F401
    from calculon.llm import Llm
    from calculon import System
    import logging
    s = case["setup"]
    if is_moe(cfg):
        return {"reason": "mixture of experts: Calculon models dense blocks only"}
    if precision not in ("bf16", "fp16", "fp8"):
        return {"reason": f"{precision}: Calculon's number formats are float8, float16, "
                          "bfloat16 and float32"}
    g, tp, pp, cp, dp = layout(case)
    per_node, net_per_gpu, nic = network(case, gpu)
    arch = gpu.get("compute_capability", 90)
    base_file = root / "systems" / ("a100_80g.json" if arch < 90 else "h100_80g_nvl8.json")
    base = json.loads(base_file.read_text())
    sysj, dtype = calculon_system(base, gpu, precision, per_node, net_per_gpu)
    app, att, notes = calculon_app(cfg, int(s["context"]))
    zero = s.get("zero")
    if zero == "3" or s.get("FSDP") == "1" or str(s.get("DP", "")).startswith("FSDP"):
        notes.append("FSDP / ZeRO-3 as optimizer sharding (Calculon shards the optimizer "
                     "only: weights and gradients stay whole on each card)")
    # Calculon has no flash attention: its 'attn_only' recomputation is how it drops the
    # stored attention scores (what flash attention does, recomputing them in backward),
    # so it is tried wherever the case does not state full recomputation
    rec = {"none": ["none", "attn_only"], "selective": ["attn_only"], "full": ["full"]}.get(
        s.get("recompute"), ["none", "attn_only", "full"])
    layers_per = -(-app["num_blocks"] // pp)
    if pp > 1 and s.get("virtual-stages"):
        inter = [int(s["virtual-stages"])]
    elif pp > 1:
        inter = [v for v in range(1, layers_per + 1) if layers_per % v == 0]
    else:
        inter = [1]
    batch = int(s["batch"])
    mbs = [int(s["micro-batch"])] if s.get("micro-batch") else [
        m for m in (1, 2, 4, 8) if (batch // dp) % m == 0]
    opt_shard = [True] if zero in ("1", "2", "3") else [False] if zero == "0" else [True, False]
    sp_on = str(s.get("sequence-parallel", s.get("sequence_parallel", ""))).startswith("on")
    tpc = ["ar"] if tp == 1 else (["rs_ag"] if sp_on else ["ar", "rs_ag"])
    # TP communication overlap: as stated (Megatron's tp_comm_overlap, torchtitan's async
    # TP), else all of Calculon's kinds are tried
    tp_ov = str(s.get("tp_comm_overlap", s.get("async_tp", "")))
    overlaps = (["none"] if tp == 1 else ["ring"] if tp_ov.startswith(("True", "on")) else
                ["none"] if tp_ov.startswith(("False", "off")) else ["none", "ring", "pipe"])
    best, errors = None, []
    nets = [n for n in itertools.product((0, 1), repeat=3)]
    natural = (0 if tp <= per_node else 1, 0 if tp * pp <= per_node else 1,
               0 if tp * pp * dp <= per_node else 1)
    logger = logging.getLogger("calculon")
    logger.setLevel(logging.ERROR)
    for r, v, m, o, c, overlap, (tn, pn, dn) in itertools.product(rec, inter, mbs, opt_shard,
                                                                   tpc, overlaps, nets):
        exe = {"num_procs": g, "tensor_par": tp, "pipeline_par": pp, "data_par": dp,
               "tensor_par_net": tn, "pipeline_par_net": pn, "data_par_net": dn,
               "batch_size": batch, "microbatch_size": m, "datatype": dtype,
               "fused_activation": True, "attention_type": att, "activation_recompute": r,
               "pipeline_interleaving": v, "optimizer_sharding": o,
               "tensor_par_comm_type": c, "tensor_par_overlap": overlap,
               "seq_par_ag_redo": False, "data_par_overlap": True, "weight_offload": False,
               "activations_offload": False, "optimizer_offload": False, "training": True}
        try:
            model = Llm(Llm.Application(app), logger)
            model.compile(System(sysj), Llm.Execution.from_json(exe))
            model.run(System(sysj))
        except (Llm.Error, AssertionError) as e:
            # the refusal reported is the one of the natural placement (TP innermost, in
            # the node; then PP; DP outermost), not of placements that cannot hold anyway
            if (tn, pn, dn) == natural:
                errors.append(str(e.args[0] if e.args else e))
            continue
        rate = model.get_sample_rate() * app["seq_size"] / g
        if best is None or rate > best[0]:
            best = (rate, exe, model.get_total_time())
    if best is None:
        mem = [e for e in errors if e.startswith("Mem")]
        msg = min(mem, key=len) if mem else (errors[0] if errors else "no layout")
        if mem and any(n.startswith("FSDP") for n in notes):
            msg = ("FSDP / ZeRO-3 not expressible: Calculon shards the optimizer only, and "
                   f"with weights and gradients whole on each card: {msg}")
        else:
            msg = f"Calculon refuses every setting tried: {msg}"
        return {"reason": msg,
                "inputs": {"application": app, "system": sysj}, "notes": notes}
    return {"tokens_per_s_per_gpu": best[0], "step_time_s": best[2],
            "inputs": {"application": app, "execution": best[1], "system": sysj},
            "searched": {"activation_recompute": rec, "pipeline_interleaving": inter,
                         "microbatch_size": mbs, "optimizer_sharding": opt_shard,
                         "tensor_par_comm_type": tpc, "tensor_par_overlap": overlaps,
                         "networks (tp, pp, dp)": "all 8 placements"},
            "notes": notes}


# ---------------------------------------------------------------- llm-analysis

def run_llm_analysis(root, case, cfg, gpu, precision):
    sys.path.insert(0, str(root))
    import logging
    from llm_analysis import analysis as la
    from llm_analysis.config import ModelConfig, GPUConfig, DtypeConfig, ParallelismConfig
    la.logger.setLevel(logging.ERROR)
    s = case["setup"]
    h, heads = cfg["hidden_size"], cfg["num_attention_heads"]
    if is_moe(cfg) and (cfg.get("head_dim") or h // heads) * heads != h:
        return {"reason": "attention width (head_dim x heads = "
                          f"{cfg.get('head_dim')} x {heads}) differs from the hidden size "
                          f"{h}: llm-analysis derives head_dim = hidden / heads"}
    if is_moe(cfg):
        return {"reason": "mixture of experts with a separate expert width: not tried"}
    dtype = {"bf16": "w16a16e16", "fp16": "w16a16e16", "fp8": "w8a8e16",
             "fp4": "w4a4e16"}.get(precision)
    if dtype is None:
        return {"reason": f"{precision}: no such number format"}
    g, tp, pp, cp, dp = layout(case)
    per_node, net_per_gpu, nic = network(case, gpu)
    gated = cfg.get("hidden_act") == "silu"
    model = {"name": case["setup"]["model"], "num_layers": cfg["num_hidden_layers"],
             "n_head": heads, "hidden_dim": h, "vocab_size": cfg["vocab_size"],
             "max_seq_len": int(s["context"]),
             "num_key_value_heads": cfg.get("num_key_value_heads") or heads,
             "ffn_embed_dim": cfg["intermediate_size"], "model_type": cfg.get("model_type"),
             "mlp_gated_linear_units": gated}
    gpuj = {"name": gpu["name"], "mem_per_GPU_in_GB": gpu["memory_bytes"] / 1e9,
            "hbm_bandwidth_in_GB_per_sec": gpu["memory_bandwidth_bytes_per_s"] / 1e9,
            "intra_node_bandwidth_in_GB_per_sec": gpu["peer_bytes_per_s"] / 1e9,
            "intra_node_min_message_latency": 8e-06,
            "peak_fp16_TFLOPS": gpu["fp16_bf16_flop_per_s"] / 1e12,
            "peak_i8_TFLOPS": (gpu.get("fp8_flop_per_s") or gpu["int8_op_per_s"]) / 1e12,
            "peak_i4_TFLOPS": (gpu.get("fp4_flop_per_s") or 0) / 1e12 or None,
            # llm-analysis's own files give the node's total (H100: 400 = 8 x 400 Gb/s)
            "inter_node_bandwidth_in_GB_per_sec": (net_per_gpu or 25e9) * per_node / 1e9}
    if dtype == "w4a4e16" and not gpuj["peak_i4_TFLOPS"]:
        return {"reason": "no FP4 peak for this GPU"}
    notes = []
    if pp > 1:
        notes.append("no pipeline schedule in llm-analysis: layers / pp per card, no bubble"
                     + (f"; virtual stages {s['virtual-stages']} not expressible, ignored"
                        if s.get("virtual-stages") else ""))
    if precision == "fp8":
        notes.append("FP8 GEMMs as its 8-bit weights and activations (w8a8e16) at the "
                     "catalog's dense FP8 peak")
    if precision == "fp4":
        notes.append("FP4 GEMMs as w4a4e16 at the catalog's dense FP4 peak")
    zero = s.get("zero")
    zeros = [int(zero)] if zero else [0, 1, 2, 3]
    # Selective recomputation as none: with flash attention on (as these runs had), the
    # attention scores are recomputed inside its backward already, and llm-analysis's own
    # selective mode (ATTN_COMPUTE) counts its recompute FLOPs layers x layers times at
    # this commit (get_num_flops_total_attn_compute returns all layers' FLOPs and
    # training() multiplies it by the layers per card again); that answer is recorded
    # as answer_attn_compute
    rec_map = {"none": [0], "selective": [0], "full": [4]}
    recs = rec_map.get(s.get("recompute"), [0, 4])
    batch = int(s["batch"])
    mbs = [int(s["micro-batch"])] if s.get("micro-batch") else [
        m for m in (1, 2, 4, 8) if (batch // dp) % m == 0]
    sp_on = str(s.get("sequence-parallel", s.get("sequence_parallel", ""))).startswith("on")
    dtype_cfg = json.loads((root / "llm_analysis" / "dtype_configs" /
                            f"{dtype}.json").read_text())

    def one(eff, z, r, m):
        """(tokens/s per GPU, step time, fits, inputs) of one setting."""
        a = la.LLMAnalysis(ModelConfig(**model), GPUConfig(**gpuj), DtypeConfig(**dtype_cfg),
                           ParallelismConfig(tp_size=tp, pp_size=pp, dp_size=dp,
                                             sp_size=tp if sp_on else None),
                           flops_efficiency=eff)
        out = a.training(batch_size_per_gpu=m, global_batch_size=batch,
                         seq_len=int(s["context"]),
                         activation_recomputation=la.ActivationRecomputation(r),
                         ds_zero=la.DSZeRO(z), flash_attn=True)
        fits = out["estimated_peak_memory_per_gpu"] <= gpuj["mem_per_GPU_in_GB"] * 1e9
        inputs = {"model": model, "gpu": gpuj, "dtype": dtype,
                  "parallelism": {"tp_size": tp, "pp_size": pp, "dp_size": dp,
                                  "sp_size": tp if sp_on else None},
                  "flops_efficiency": eff,
                  "training": {"batch_size_per_gpu": m, "global_batch_size": batch,
                               "seq_len": int(s["context"]), "activation_recomputation": r,
                               "ds_zero": z, "flash_attn": True}}
        return (batch * int(s["context"]) / out["latency_per_iter"] / g,
                out["latency_per_iter"], fits, inputs)

    best, errors = None, []
    for z, r, m in itertools.product(zeros, recs, mbs):
        try:
            got = one(0.5, z, r, m)
        except (AssertionError, ValueError, ZeroDivisionError) as e:
            errors.append(str(e))
            continue
        # settings its memory estimate says fit come first, then the fastest
        if best is None or (got[2], got[0]) > (best[2], best[0]):
            best = got
    if best is None:
        return {"reason": "llm-analysis refuses every setting tried: " +
                          (errors[-1] if errors else "?")}
    if not best[2]:
        notes.append("its memory estimate exceeds the card for every setting tried; the "
                     "fastest is recorded")
    tr = best[3]["training"]
    res = {"tokens_per_s_per_gpu": best[0], "step_time_s": best[1], "inputs": best[3],
           "searched": {"ds_zero": zeros, "activation_recomputation": recs,
                        "batch_size_per_gpu": mbs},
           "notes": notes,
           "answer_default_efficiency": one(1.0, tr["ds_zero"], tr["activation_recomputation"],
                                            tr["batch_size_per_gpu"])[0]}
    if s.get("recompute") == "selective":
        res["answer_attn_compute"] = one(0.5, tr["ds_zero"], 1, tr["batch_size_per_gpu"])[0]
    return res


def short_reason(reason):
    """A few words for the table in docs/accuracy.md (the full reason stays beside it)."""
    for needle, short in (("MLA", "MLA + MoE"), ("context parallelism", "context parallelism"),
                          ("FSDP", "FSDP (weights not shardable)"), ("fp4", "FP4"),
                          ("attention width", "head_dim != hidden / heads"),
                          ("mixture of experts", "MoE")):
        if needle in reason:
            return short
    return reason[:60]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calculon")
    ap.add_argument("--llm-analysis")
    ap.add_argument("--cli", default=str(HERE.parents[1] / "build/dev/examples/hwfit"))
    ap.add_argument("--data", default=str(HERE.parents[1] / "tests/data"))
    ap.add_argument("--out", default=str(HERE.parents[1] / "tests/data/peers/train_rate.json"))
    ap.add_argument("--no-stubs", action="store_true")
    args = ap.parse_args()
    if not (args.calculon or args.llm_analysis):
        ap.error("give --calculon DIR and/or --llm-analysis DIR")
    if not args.no_stubs:
        stub_dir = pathlib.Path(tempfile.mkdtemp(prefix="peer-stubs-"))
        for name, text in STUBS.items():
            (stub_dir / name).write_text(text)
        sys.path.insert(0, str(stub_dir))
    data = pathlib.Path(args.data)
    gpus = catalog(args.cli)
    out_path = pathlib.Path(args.out)
    old = json.loads(out_path.read_text()) if out_path.exists() else {}
    peers = {}
    for name, d in (("calculon", args.calculon), ("llm-analysis", args.llm_analysis)):
        if d:
            peers[name] = {"dir": pathlib.Path(d).resolve()}
    doc = {"about": "Calculon and llm-analysis on hwfit's train_rate cases, written by "
                    "tests/accuracy/peers.py. Answers are tokens/s per GPU (and the step "
                    "time); run.py converts them to the case's quantity.",
           "peers": old.get("peers", {}), "cases": old.get("cases", {})}
    for name, p in peers.items():
        commit = git_commit(p["dir"])
        if not commit and (p["dir"] / "COMMIT").exists():
            # an exported tree (git archive) carries its commit in a COMMIT file
            commit = (p["dir"] / "COMMIT").read_text().strip()
        doc["peers"][name] = {"commit": commit, "assumed": ASSUMED[name],
                              "stubs": ([] if args.no_stubs else
                                        ["numpy", "pandas", "psutil"] if name == "calculon"
                                        else ["fire"]),
                              "command": f"tests/accuracy/peers.py --{name} DIR (DIR: "
                                         "`git archive` of the commit, unpacked, with "
                                         "the commit's hash in DIR/COMMIT)"}
    for path in sorted((data / "measured").glob("train-*.json")):
        case = json.loads(path.read_text())
        if case.get("kind") != "train_rate":
            continue
        s = case["setup"]
        cfg = json.loads((data / "models" / f"{s['model']}.config.json").read_text())
        gpu = effective_gpu(case, gpus[s["gpu"]]) if s["gpu"] in gpus else None
        entry = doc["cases"].setdefault(case["id"], {})
        for name, p in peers.items():
            why = common_refusal(case, cfg)
            precision = s.get("precision", "bf16")
            if why is None and gpu is None:
                why = f"GPU {s['gpu']} is not in hwfit's catalog"
            if why:
                res = {"reason": why}
            else:
                runner = run_calculon if name == "calculon" else run_llm_analysis
                try:
                    res = runner(p["dir"], case, cfg, gpu, precision)
                except Exception as e:  # a peer crash is the peer's answer, recorded
                    res = {"reason": f"{name} raised {type(e).__name__}: {e}"}
            if "reason" in res:
                res["short"] = short_reason(res["reason"])
            res = {"peer": name, "commit": doc["peers"][name]["commit"], **res}
            entry[name] = res
            shown = (f"{res['tokens_per_s_per_gpu']:,.0f} tok/s/GPU" if
                     "tokens_per_s_per_gpu" in res else res["reason"])
            print(f"{case['id']:70s} {name:13s} {shown}")
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(json.dumps(doc, indent=1, sort_keys=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""tests/data/peers/train_rate.json is well formed and covers every train_rate case.

The peers (Calculon, llm-analysis) are not needed: this reads the file peers.py wrote. Every
train_rate case in tests/data/measured must have, for each peer, either an answer (tokens/s
per GPU > 0 with the exact inputs given) or the reason it cannot be expressed; each peer
names the commit it ran. When a train case is added, re-run tests/accuracy/peers.py.

Usage: test_peers_file.py DATA_DIR
"""
import json
import pathlib
import re
import sys

PEERS = ("calculon", "llm-analysis")


def problems(data):
    out = []
    path = data / "peers" / "train_rate.json"
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        return [f"{path}: cannot read: {e}"]
    for name in PEERS:
        peer = doc.get("peers", {}).get(name)
        if not isinstance(peer, dict):
            out.append(f"peers.{name}: missing")
            continue
        if not re.fullmatch(r"[0-9a-f]{40}", str(peer.get("commit"))):
            out.append(f"peers.{name}.commit: not a 40-hex commit: {peer.get('commit')!r}")
        for key in ("assumed", "command"):
            if not str(peer.get(key, "")).strip():
                out.append(f"peers.{name}.{key}: empty")
    ids = set()
    for case_path in sorted((data / "measured").glob("*.json")):
        case = json.loads(case_path.read_text(encoding="utf-8"))
        if case.get("kind") != "train_rate":
            continue
        ids.add(case["id"])
        entry = doc.get("cases", {}).get(case["id"])
        if not isinstance(entry, dict):
            out.append(f"{case['id']}: no entry (re-run tests/accuracy/peers.py)")
            continue
        for name in PEERS:
            r = entry.get(name)
            if not isinstance(r, dict):
                out.append(f"{case['id']}.{name}: missing")
                continue
            if r.get("commit") != doc.get("peers", {}).get(name, {}).get("commit"):
                out.append(f"{case['id']}.{name}: commit differs from peers.{name}.commit")
            tps = r.get("tokens_per_s_per_gpu")
            if tps is not None:
                if not isinstance(tps, (int, float)) or not tps > 0:
                    out.append(f"{case['id']}.{name}.tokens_per_s_per_gpu: not > 0: {tps!r}")
                if not isinstance(r.get("inputs"), dict) or not r["inputs"]:
                    out.append(f"{case['id']}.{name}.inputs: an answer without its inputs")
            elif not str(r.get("reason", "")).strip():
                out.append(f"{case['id']}.{name}: neither an answer nor a reason")
    for cid in sorted(set(doc.get("cases", {})) - ids):
        out.append(f"{cid}: in the peers file but not a train_rate case in measured/")
    return out


def conversion_problems():
    """run.py's conversion of a peer's tokens/s per GPU into the case's quantity."""
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
    import run
    out = []
    case = {"quantity": "mfu", "setup": {"batch": "16", "context": "1000", "gpus": "8"}}
    hw = {"status": "ok", "answer": {"perf": {"tokens_per_s_per_gpu": 200.0, "mfu": 0.4}}}
    got = run.peer_value(case, hw, {"tokens_per_s_per_gpu": 100.0})
    if got is None or abs(got - 0.2) > 1e-12:
        out.append(f"mfu through hwfit's MFU per token/s: expected 0.2, got {got}")
    case["quantity"] = "step_time_s"
    got = run.peer_value(case, hw, {"tokens_per_s_per_gpu": 100.0})
    if got is None or abs(got - 16 * 1000 / (100.0 * 8)) > 1e-12:
        out.append(f"step time from tokens/s: expected 20 s, got {got}")
    if run.peer_value(case, hw, {"reason": "MoE"}) is not None:
        out.append("a refusal must have no value")
    if run.peer_value({"quantity": "mfu", "setup": {}}, {"status": "refused"},
                      {"tokens_per_s_per_gpu": 1.0}) is not None:
        out.append("MFU without hwfit's answer must have no value")
    return out


def main():
    data = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else
                        pathlib.Path(__file__).resolve().parents[1] / "data")
    found = problems(data) + conversion_problems()
    for p in found:
        print("FAIL:", p)
    print(f"peers file: {'FAILED' if found else 'ok'} ({len(found)} problems)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())

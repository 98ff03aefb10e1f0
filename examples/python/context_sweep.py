"""How much memory does each context length take, and where does it stop fitting?

    PYTHONPATH=bindings/python python3 examples/python/context_sweep.py \
        tests/data/models/llama-3.1-70b.config.json rtx-pro-6000-server 8

A notebook-style sweep over the public Python API: every number comes from the C library.
"""
import sys

import hwfit


def main(config, gpu, gpus):
    print(f"{'context':>9}  {'per card':>22}  fits")
    for context in (8192, 32768, 131072, 524288, 1048576):
        # long_context: also past the model's max_position_embeddings (RoPE scaled further)
        r = hwfit.fit(model=config, gpu=gpu, gpus=gpus, mode="inference",
                      context=context, tp=gpus, long_context=True)
        per_card = hwfit.format_quantity(r["per_gpu_bytes"])
        print(f"{context:>9}  {per_card:>22}  {'yes' if r['fits'] else 'no'}")
    r = hwfit.fit(model=config, gpu=gpu, gpus=gpus, mode="inference", tp=gpus)
    print(f"longest context that fits: {r['max_context']} tokens")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: context_sweep.py CONFIG.json GPU-NAME GPUS")
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))

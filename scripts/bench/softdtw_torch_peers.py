#!/usr/bin/env python3
"""warplab.torch's soft-DTW loss against pytorch-softdtw-cuda, forward and backward on the same
CUDA tensors, in one process (the GPU machine: scripts/device/run.sh python).

For each shape (batch x n x m) it makes one float32 batch x (requires grad) and one target y on
the GPU, then times `loss(x, y).sum().backward()` for both implementations: WarpLab's
(`warplab.torch.soft_dtw_loss`, the tensors' device pointers read in place by the engine's
CUDA kernels) and pytorch-softdtw-cuda's `SoftDTW(use_cuda=True)` (Numba CUDA kernels over a
squared-Euclidean cost matrix made by torch). Each is warmed up, then timed `--repeats` times
with the device synchronised around each step; the median is reported with the ratio. The two
implementations' values and gradients are compared on the same tensors first.

pytorch-softdtw-cuda (Mehran Maghoumi, MIT licence) is not a dependency: put its one file,
soft_dtw_cuda.py, in a git-ignored folder and name it with --peer (default .peers).

  python3 scripts/bench/softdtw_torch_peers.py [--peer .peers] [--shapes 64x512x512,64x128x128]
"""
import argparse
import json
import os
import statistics
import sys
import time

import torch

import warplab
from warplab.torch import soft_dtw_loss


def timed(step, repeats, warmup=2):
    for _ in range(warmup):
        step()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        step()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--peer", default=".peers", help="folder holding pytorch-softdtw-cuda's soft_dtw_cuda.py")
    ap.add_argument("--shapes", default="64x512x512,64x128x128", help="batch x n x m, comma-separated")
    ap.add_argument("--gamma", type=float, default=1.0)
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--json", help="write the rows here")
    args = ap.parse_args()

    import numpy as np
    if not hasattr(np, "row_stack"):  # numba-cuda, the peer's dependency, still names np.row_stack (gone in NumPy 2.4)
        np.row_stack = np.vstack
    sys.path.insert(0, os.path.abspath(args.peer))
    from soft_dtw_cuda import SoftDTW  # noqa: E402  (the peer, from the git-ignored folder)

    device = torch.cuda.get_device_name(0)
    print(f"device: {device}; torch {torch.__version__}; warplab {warplab.__version__}; gamma {args.gamma}")
    rows = []
    for shape in args.shapes.split(","):
        b, n, m = (int(v) for v in shape.split("x"))
        g = torch.Generator(device="cuda").manual_seed(b * n + m)
        x = torch.randn(b, n, device="cuda", dtype=torch.float32, generator=g).requires_grad_(True)
        y = torch.randn(b, m, device="cuda", dtype=torch.float32, generator=g)
        peer = SoftDTW(use_cuda=True, gamma=args.gamma)

        def ours():
            x.grad = None
            v = soft_dtw_loss(x, y, args.gamma, reduction="none")
            v.sum().backward()
            return v

        def theirs():
            x.grad = None
            v = peer(x.unsqueeze(-1), y.unsqueeze(-1))
            v.sum().backward()
            return v

        v_ours = ours().detach().double()
        g_ours = x.grad.detach().double().clone()
        v_peer = theirs().detach().double()
        g_peer = x.grad.detach().double().clone()
        value_rel = float(((v_ours - v_peer).abs() / v_peer.abs().clamp_min(1e-12)).max())
        grad_rel = float((g_ours - g_peer).abs().max() / g_peer.abs().max())
        t_ours = timed(ours, args.repeats)
        t_peer = timed(theirs, args.repeats)
        row = {"batch": b, "n": n, "m": m, "gamma": args.gamma, "warplab_ms": t_ours * 1e3,
               "peer_ms": t_peer * 1e3, "speedup": t_peer / t_ours, "value_max_rel_diff": value_rel,
               "grad_max_diff_over_max": grad_rel, "device": device}
        rows.append(row)
        print(f"{b} x {n} x {m}: warplab {t_ours * 1e3:.3f} ms, pytorch-softdtw-cuda {t_peer * 1e3:.3f} ms "
              f"(forward + backward, median of {args.repeats}), {t_peer / t_ours:.1f}x; values agree to "
              f"{value_rel:.1e} (relative), gradients to {grad_rel:.1e} of the largest", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": device, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()

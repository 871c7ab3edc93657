#!/usr/bin/python3
"""The Python package against the CLI and against dtaidistance and tslearn, in one run.

Every comparison it prints ran in this process on the same input:
  1. warplab.distance() per call on two series of 128 (and of 1 sample: the call alone), with
     dtaidistance's per-call figure on the same pair where it is built;
  2. warplab.distance_matrix, cdtw w=16, all pairs of 512 random walks of 1,024 (float32), against
     `warplab-cli dm` on the same series (.npy, whole process: start, file read and write
     included) and `warplab-cli bench` on its own random walks of the same shape (in-process
     engine time; bench reads no file);
  3. the same matrix in dtaidistance (distance_matrix_fast, C with OpenMP) and, on the first
     --tslearn-series series, in tslearn (cdist_dtw, numba) with warplab on that same subset;
     each peer's values are checked against warplab's (sqrt of the squared-cost band DTW).

The peers are not dependencies: build them from source in a git-ignored folder (default
build/peers; docs/PYTHON.md says how); a peer that does not import is reported as not built
and compared with nothing.

  /usr/bin/python3 scripts/bench/python_peers.py [--build build] [--peers build/peers]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import timeit

import numpy as np


def parse():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="the CMake build folder (python/, app/cli/)")
    ap.add_argument("--peers", default="build/peers", help="folder holding dtaidistance/ and tslearn/ checkouts")
    ap.add_argument("--series", type=int, default=512)
    ap.add_argument("--length", type=int, default=1024)
    ap.add_argument("--band", type=int, default=16)
    ap.add_argument("--repeats", type=int, default=5, help="timed runs of each matrix (median)")
    ap.add_argument("--peer-repeats", type=int, default=1, help="timed runs of each peer's matrix (median)")
    ap.add_argument("--tslearn-series", type=int, default=64,
                    help="tslearn computes every cell of each pair's matrix: time it on this many series")
    ap.add_argument("--json", help="also write the figures to this file")
    return ap.parse_args()


def median_time(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), times


def per_call_us(fn, number=20000, repeat=5):
    fn()
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e6


def band_cells(n, w):
    # cells with |i - j| <= w in an n x n matrix
    return sum(min(n - 1, i + w) - max(0, i - w) + 1 for i in range(n))


def import_peer(name, path):
    if os.path.isdir(path):
        sys.path.insert(0, path)
    try:
        return __import__(name), None
    except Exception as e:  # a peer that is not built is reported, not compared
        return None, f"{type(e).__name__}: {e}"


def main():
    a = parse()
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    build = os.path.join(root, a.build) if not os.path.isabs(a.build) else a.build
    peers = os.path.join(root, a.peers) if not os.path.isabs(a.peers) else a.peers
    sys.path.insert(0, os.path.join(build, "python"))
    import warplab

    cli = os.path.join(build, "app", "cli", "warplab-cli")
    commit = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    out = {"commit": commit, "cpu": cpu, "cores": os.cpu_count(), "load_start": os.getloadavg()[0],
           "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    print(f"commit {commit}, {cpu}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, {out['date']}")

    dtai, dtai_why = import_peer("dtaidistance", os.path.join(peers, "dtaidistance", "src"))
    if dtai is not None:
        from dtaidistance import dtw as dtai_dtw, ed as dtai_ed
        if not dtai_dtw.try_import_c():
            dtai, dtai_why = None, "its C extension is not built"
    tsl, tsl_why = import_peer("tslearn", os.path.join(peers, "tslearn"))
    if tsl is not None:
        from tslearn.metrics import cdist_dtw
    print(f"dtaidistance: {dtai.__version__ if dtai else 'not built (' + dtai_why + ')'}; "
          f"tslearn: {tsl.__version__ if tsl else 'not built (' + tsl_why + ')'}")
    out["dtaidistance"] = dtai.__version__ if dtai else None
    out["tslearn"] = tsl.__version__ if tsl else None

    # Random walks (what bench generates too): float32, C-contiguous.
    rng = np.random.default_rng(42)
    X = np.cumsum(rng.standard_normal((a.series, a.length)), axis=1).astype(np.float32)
    X64 = X.astype(np.float64)

    # 1. Per call.
    p32, q32 = X[0, :128].copy(), X[1, :128].copy()
    p64, q64 = p32.astype(np.float64), q32.astype(np.float64)
    one32, one64 = X[0, :1].copy(), X64[0, :1].copy()
    calls = {
        "euclidean, 128, float32": per_call_us(lambda: warplab.distance(p32, q32, "euclidean")),
        "euclidean, 128, float64": per_call_us(lambda: warplab.distance(p64, q64, "euclidean")),
        "dtw, 1 sample, float32": per_call_us(lambda: warplab.distance(one32, one32)),
        "dtw, 1 sample, float64": per_call_us(lambda: warplab.distance(one64, one64)),
        "cdtw w=8, 128, float32, keywords": per_call_us(
            lambda: warplab.distance(p32, q32, metric="cdtw", band=8), number=2000),
    }
    if dtai:
        calls["dtaidistance ed.distance_fast, 128, float64"] = per_call_us(lambda: dtai_ed.distance_fast(p64, q64))
        calls["dtaidistance dtw.distance_fast w=8, 128, float64"] = per_call_us(
            lambda: dtai_dtw.distance_fast(p64, q64, window=9), number=2000)
    print("\nper call (best of 5 timeit runs):")
    for k, v in calls.items():
        print(f"  {k:50s} {v:8.2f} us")
    out["per_call_us"] = calls

    # 2. The matrix from Python, from the CLI on the same file, and bench in-process.
    pairs = a.series * (a.series - 1) // 2
    cells = pairs * band_cells(a.length, a.band)
    kw = dict(metric="cdtw", band=a.band, kernel="cpu.simd")
    D = warplab.distance_matrix(X, **kw)  # warm-up (thread pool, pages)
    with tempfile.TemporaryDirectory() as tmp:
        xf, df = os.path.join(tmp, "X.npy"), os.path.join(tmp, "D.npy")
        np.save(xf, X)
        dm = [cli, "dm", "--queries", xf, "--metric", "cdtw", "--band", str(a.band), "--kernel", "cpu.simd",
              "--out", df]
        subprocess.run(dm, check=True)
        # Alternated, so that both sides see the same share of a machine whose load varies.
        runs_py, runs_dm = [], []
        for _ in range(a.repeats):
            runs_py.append(median_time(lambda: warplab.distance_matrix(X, **kw), 1)[0])
            runs_dm.append(median_time(lambda: subprocess.run(dm, check=True), 1)[0])
        t_py, t_dm = statistics.median(runs_py), statistics.median(runs_dm)
        same = np.array_equal(np.load(df), D)
        jf = os.path.join(tmp, "bench.json")
        subprocess.run([cli, "bench", "--metric", "cdtw", "--band", str(a.band), "--kernels", "cpu.simd",
                        "--lengths", str(a.length), "--series", str(a.series), "--repeats", str(a.repeats),
                        "--json", jf], check=True, capture_output=True)
        rows = json.load(open(jf))
        rows = rows["rows"] if isinstance(rows, dict) else rows
        t_bench = next(r for r in rows if r.get("kernel") == "cpu.simd")
    bench_s = t_bench["median_s"]
    print(f"\ncdtw w={a.band}, all pairs of {a.series} x {a.length} (float32, cpu.simd, {cells / 1e9:.2f} G cells), "
          f"median of {a.repeats}:")
    print(f"  warplab.distance_matrix      {t_py:7.3f} s  {cells / t_py / 1e9:6.2f} G/s  runs {fmt(runs_py)}")
    print(f"  warplab-cli dm (process)     {t_dm:7.3f} s  {cells / t_dm / 1e9:6.2f} G/s  runs {fmt(runs_dm)}"
          f"  matrix equal bit for bit: {same}")
    t_bench = {k: t_bench[k] for k in ("median_s", "cells_per_s", "max_rel_error")}
    print(f"  warplab-cli bench (engine)   {bench_s:7.3f} s  (its own random walks of the same shape; row {t_bench})")
    print(f"  Python / bench {t_py / bench_s:.3f}, Python / dm process {t_py / t_dm:.3f}")
    out["matrix"] = {"cells": cells, "python_s": t_py, "python_runs": runs_py, "cli_dm_process_s": t_dm,
                     "cli_dm_runs": runs_dm, "cli_dm_equal": bool(same), "cli_bench_s": bench_s,
                     "bench_row": t_bench}

    # 3. Peers: the same matrix as sqrt of the squared-cost band DTW.
    Ds = warplab.distance_matrix(X, metric="cdtw", band=a.band, sqrt=True, kernel="cpu.simd")
    iu = np.triu_indices(a.series, 1)
    if dtai:
        # dtaidistance's window counts the diagonal: |i - j| < window, so w + 1.
        got = []
        f = lambda: got.append(dtai_dtw.distance_matrix_fast(X64, window=a.band + 1, parallel=True, compact=True))
        t_dt, runs_dt = median_time(f, a.peer_repeats)
        err = float(np.max(np.abs(got[-1] - Ds[iu]) / np.maximum(Ds[iu], 1e-12)))
        print(f"  dtaidistance (C, OpenMP)     {t_dt:7.3f} s  {cells / t_dt / 1e9:6.2f} G/s  runs {fmt(runs_dt)}"
              f"  max rel. difference {err:.1e};  warplab {t_dt / t_py:.1f}x faster")
        out["dtaidistance_matrix"] = {"seconds": t_dt, "runs": runs_dt, "max_rel_diff": err}
    if tsl:
        n = min(a.tslearn_series, a.series)
        Xs, X3 = X[:n], X64[:n, :, None]
        sub_cells = n * (n - 1) // 2 * band_cells(a.length, a.band)
        got = []
        g = lambda: got.append(cdist_dtw(X3, global_constraint="sakoe_chiba", sakoe_chiba_radius=a.band,
                                         n_jobs=os.cpu_count()))
        cdist_dtw(X3[:2, :16], global_constraint="sakoe_chiba", sakoe_chiba_radius=a.band)  # numba compiles
        t_ts, runs_ts = median_time(g, a.peer_repeats)
        t_wl, runs_wl = median_time(lambda: warplab.distance_matrix(Xs, **kw), a.repeats)
        ref = warplab.distance_matrix(Xs, metric="cdtw", band=a.band, sqrt=True, kernel="cpu.simd")
        ju = np.triu_indices(n, 1)
        err = float(np.max(np.abs(got[-1][ju] - ref[ju]) / np.maximum(ref[ju], 1e-12)))
        print(f"\n  the first {n} series ({sub_cells / 1e9:.3f} G cells):")
        print(f"  warplab.distance_matrix      {t_wl:7.3f} s  {sub_cells / t_wl / 1e9:6.2f} G/s")
        print(f"  tslearn cdist_dtw (numba)    {t_ts:7.3f} s  {sub_cells / t_ts / 1e9:6.3f} G/s"
              f"  max rel. difference {err:.1e};  warplab {t_ts / t_wl:.0f}x faster")
        out["tslearn_matrix"] = {"series": n, "seconds": t_ts, "warplab_seconds": t_wl, "max_rel_diff": err}
    out["load_end"] = os.getloadavg()[0]
    print(f"\nload average at the end {out['load_end']:.1f}")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(out, fh, indent=2, default=str)


def fmt(runs):
    return ", ".join(f"{r:.3f}" for r in runs)


if __name__ == "__main__":
    main()

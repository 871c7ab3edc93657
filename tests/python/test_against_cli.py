"""The package gives the CLI's numbers bit for bit on the same kernel, and the scalar
reference's within the relative 1e-5 the engine's own tests hold fast paths to."""
import numpy as np
import pytest

import warplab
from conftest import cli, ucr

# (metric, keyword arguments, CLI options): every metric of METRICS.md, some with options.
CASES = [
    ("euclidean", {}, []),
    ("dtw", {}, []),
    ("dtw", {"cost": "abs", "znorm": True}, ["--cost", "abs", "--znorm"]),
    ("cdtw", {"band": 5}, ["--band", "5"]),
    ("cdtw", {"band": 12, "sqrt": True}, ["--band", "12", "--sqrt"]),
    ("sdtw", {}, []),
    ("softdtw", {"gamma": 0.5}, ["--gamma", "0.5"]),
    ("twed", {"nu": 0.01, "lam": 0.5}, ["--nu", "0.01", "--lambda", "0.5"]),
]


@pytest.fixture(scope="module")
def ecg():
    _, X = ucr("ECG200")
    return X[:24]


def write_npy(tmp_path, name, X):
    path = tmp_path / name
    np.save(path, X)
    return path


@pytest.mark.parametrize("metric,kwargs,options", CASES)
def test_distance_matrix_equals_cli_on_every_cpu_kernel(tmp_path, ecg, cpu_kernels, metric, kwargs, options):
    q = write_npy(tmp_path, "q.npy", ecg[:10])
    t = write_npy(tmp_path, "t.npy", ecg[10:24])
    kernels = [k["name"] for k in cpu_kernels if metric in k["metrics"]]
    assert kernels, f"no CPU kernel computes {metric}"
    reference = None
    for kernel in kernels:
        out = tmp_path / f"{kernel}.npy"
        cli("dm", "--queries", q, "--targets", t, "--metric", metric, *options, "--kernel", kernel, "--out", out)
        expected = np.load(out)
        got = warplab.distance_matrix(ecg[:10], ecg[10:24], metric, kernel=kernel, **kwargs)
        assert got.shape == (10, 14) and got.dtype == np.float64
        assert np.array_equal(got, expected), f"{metric} {kernel}: differs from warplab-cli"
        if kernel == "cpu.reference":
            reference = got
    assert reference is not None
    # The default kernel (the best CPU one) against the scalar reference, and all pairs of X.
    fast = warplab.distance_matrix(ecg[:10], ecg[10:24], metric, **kwargs)
    np.testing.assert_allclose(fast, reference, rtol=1e-5, atol=1e-9)
    allpairs = warplab.distance_matrix(ecg[:10], None, metric, kernel="cpu.reference", **kwargs)
    for i in range(10):
        for j in range(10):
            # All pairs of one set: the engine computes the upper triangle of a symmetric
            # metric (all but sdtw) and mirrors it.
            a, b = (i, j) if metric == "sdtw" else (min(i, j), max(i, j))
            assert allpairs[i, j] == warplab.distance(ecg[a], ecg[b], metric, **kwargs)


@pytest.mark.parametrize("metric,kwargs,options", [c for c in CASES if c[0] != "sdtw"])
def test_align_equals_cli(tmp_path, ecg, metric, kwargs, options):
    a = tmp_path / "a.txt"
    b = tmp_path / "b.txt"
    np.savetxt(a, ecg[0][None, :], fmt="%.9g")
    np.savetxt(b, ecg[7][None, :], fmt="%.9g")
    x = np.loadtxt(a, dtype=np.float64)
    y = np.loadtxt(b, dtype=np.float64)
    assert np.array_equal(x.astype(np.float32), ecg[0]) and np.array_equal(y.astype(np.float32), ecg[7])
    path_csv = tmp_path / "path.csv"
    p = cli("align", a, b, "--metric", metric, *options, "--path", path_csv)
    cost, path, matrix = warplab.align(ecg[0], ecg[7], metric, matrix=True, **kwargs)
    assert p.stdout.strip() == f"distance {cost!r}" or float(p.stdout.split()[1]) == cost
    assert np.array_equal(path, np.loadtxt(path_csv, delimiter=",", skiprows=1, dtype=np.int64))
    assert cost == warplab.distance(ecg[0], ecg[7], metric, **kwargs)
    assert matrix.shape == (96, 96)


def test_search_equals_cli(tmp_path, ecg):
    reference = np.ascontiguousarray(ecg[:12].ravel())
    query = ecg[15][20:60].copy()
    np.save(tmp_path / "r.npy", reference[None, :])
    np.save(tmp_path / "q.npy", query[None, :])
    for mode, extra in (("subsequence", []), ("window", ["--band", "4"])):
        p = cli("search", "--query", tmp_path / "q.npy", "--reference", tmp_path / "r.npy", "--top", 5,
                "--mode", mode, *extra)
        rows = np.loadtxt(p.stdout.splitlines()[1:], delimiter=",")
        got = warplab.search(query, reference, k=5, mode=mode, band=4 if mode == "window" else None)
        assert got.dtype.names == ("rank", "cost", "start", "end")
        assert len(got) == 5
        assert np.array_equal(got["rank"], rows[:, 0].astype(int))
        assert np.array_equal(got["cost"], rows[:, 1]), mode
        assert np.array_equal(got["start"], rows[:, 2].astype(int))
        assert np.array_equal(got["end"], rows[:, 3].astype(int))


def test_search_never_overlaps_its_own_place(sample_path):
    # The query 47.98-51.93 s of F7-T7 cut from the bundled sample: without the exclusion its
    # best match lies on its own place; with it, no match shares a sample with that span (both
    # modes), and a tolerance lets matches overlap by at most that many samples.
    rec = warplab.open_recording(sample_path)
    rate = rec.rates[rec.channels.index("F7-T7")]
    reference = rec.read("F7-T7")
    first, last = int(round(47.98 * rate)), int(round(51.93 * rate)) - 1
    query = reference[first:last + 1]
    def overlap(m):
        return max(0, min(int(m["end"]), last) - max(int(m["start"]), first) + 1)
    assert overlap(warplab.search(query, reference, k=1)[0]) > 0
    for mode in ("subsequence", "window"):
        got = warplab.search(query, reference, k=5, mode=mode, exclude=(first, last))
        assert len(got) == 5
        assert all(overlap(m) == 0 for m in got), (mode, got)
        loose = warplab.search(query, reference, k=5, mode=mode, exclude=(first, last), exclusion_tolerance=64)
        assert all(overlap(m) <= 64 for m in loose), (mode, loose)
    with pytest.raises(ValueError, match="exclusion_tolerance"):
        warplab.search(query, reference, exclude=(first, last), exclusion_tolerance=-1)


def test_patterns_equal_cli(sample_path):
    p = cli("patterns", "--recording", sample_path, "--annotation", "seizure", "--top", 10)
    rows = np.loadtxt(p.stdout.splitlines()[1:], delimiter=",")
    got = warplab.find_patterns(sample_path, annotation="seizure", top=10)
    assert len(got) == len(rows) == 10
    assert np.array_equal(got["pattern_index"], rows[:, 2].astype(int))
    np.testing.assert_allclose(got["quality"], rows[:, 1], rtol=1e-15)
    np.testing.assert_allclose(got["start_seconds"], rows[:, 3], rtol=1e-15)
    # The same channel as an array with its seizure in seconds gives the same ranking.
    rec = warplab.open_recording(sample_path)
    onset, duration, _ = [a for a in rec.annotations if "seizure" in a[2]][0]
    arr = warplab.find_patterns(rec.read("FP1-F7"), rate=rec.rates[0], seizures=[(onset, onset + duration)], top=10)
    assert np.array_equal(arr["pattern_index"], got["pattern_index"])
    assert np.array_equal(arr["quality"], got["quality"])


@pytest.mark.parametrize("metric,kwargs,options", CASES)
def test_cuda_path_equals_cli_and_the_reference(tmp_path, ecg, metric, kwargs, options):
    """The GPU machine: distance_matrix on backend cuda equals `warplab-cli dm --backend cuda` bit
    for bit (the same kernel chosen), and the scalar reference within the relative 1e-5; search
    on cuda equals `warplab-cli search --backend cuda`. Skips where no GPU is visible."""
    if not warplab.devices():
        pytest.skip("no GPU here (the GPU machine runs this: scripts/device/run.sh python)")
    if any(k["backend"] == "cuda" and k["available"] and metric in k["metrics"] for k in warplab.kernels()):
        q = write_npy(tmp_path, "q.npy", ecg[:10])
        t = write_npy(tmp_path, "t.npy", ecg[10:24])
        out = tmp_path / "cuda.npy"
        cli("dm", "--queries", q, "--targets", t, "--metric", metric, *options, "--backend", "cuda", "--out", out)
        got = warplab.distance_matrix(ecg[:10], ecg[10:24], metric, backend="cuda", **kwargs)
        assert np.array_equal(got, np.load(out)), f"{metric}: cuda differs from warplab-cli --backend cuda"
        reference = warplab.distance_matrix(ecg[:10], ecg[10:24], metric, kernel="cpu.reference", **kwargs)
        np.testing.assert_allclose(got, reference, rtol=1e-5, atol=1e-9)
    else:  # sdtw: the GPU computes it as a search, not as matrix cells
        assert metric == "sdtw", f"no cuda kernel computes {metric}"
    if metric == "sdtw":
        reference_series = np.ascontiguousarray(ecg[:12].ravel())
        query = ecg[15][20:60].copy()
        np.save(tmp_path / "r.npy", reference_series[None, :])
        np.save(tmp_path / "qs.npy", query[None, :])
        p = cli("search", "--query", tmp_path / "qs.npy", "--reference", tmp_path / "r.npy", "--top", 5,
                "--backend", "cuda")
        rows = np.loadtxt(p.stdout.splitlines()[1:], delimiter=",")
        hits = warplab.search(query, reference_series, k=5, backend="cuda")
        assert np.array_equal(hits["cost"], rows[:, 1]) and np.array_equal(hits["start"], rows[:, 2].astype(int))

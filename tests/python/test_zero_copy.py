"""C-contiguous float32 input is read in place by distance, distance_matrix, align, soft_dtw and
search: the module copies none of its samples (its copy counter), a process whose inputs are
80 MB does not grow by their size (its peak memory), and the results equal those of the same
samples given as float64 or in another order (converted, hence copied), bit for bit."""
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import warplab
from warplab import _warplab


def _copied():
    return _warplab._copied_samples()


# name -> a call on a (8, 64) set of series; every argument a series or a set of them from it.
CALLS = {
    "distance": lambda a: warplab.distance(a[0], a[1], metric="dtw"),
    "distance on a kernel": lambda a: warplab.distance(a[0], a[1], metric="cdtw", band=3, kernel="cpu.simd"),
    "distance_matrix": lambda a: warplab.distance_matrix(a, metric="cdtw", band=4),
    "distance_matrix of lists": lambda a: warplab.distance_matrix(list(a[:3]), list(a[3:]), metric="twed"),
    "distance_matrix znorm": lambda a: warplab.distance_matrix(a[:4], a[4:], metric="dtw", znorm=True),
    "align": lambda a: warplab.align(a[0], a[1], metric="dtw", matrix=True),
    "soft_dtw": lambda a: warplab.soft_dtw(a[:3], a[3:6], gamma=0.5),
    "search": lambda a: warplab.search(a[0, :16], a.reshape(-1), k=3),
    "search window": lambda a: warplab.search(a[0, :16], a.reshape(-1), k=3, mode="window", znorm=True),
}


def _equal(x, y):
    if isinstance(x, tuple):
        assert len(x) == len(y)
        for u, v in zip(x, y):
            _equal(u, v)
    elif x is None:
        assert y is None
    else:
        np.testing.assert_array_equal(np.asarray(x), np.asarray(y))


@pytest.mark.parametrize("name", sorted(CALLS))
def test_float32_in_c_order_is_read_in_place_and_equals_a_copy(name):
    call = CALLS[name]
    a = np.random.default_rng(7).standard_normal((8, 64)).astype(np.float32)
    before = _copied()
    in_place = call(a)
    assert _copied() == before, f"{name}: {_copied() - before} samples copied from float32 C-order input"
    # The same samples as float64 and in Fortran order (strided rows): converted, so copied.
    for other in (a.astype(np.float64), np.asfortranarray(a)):
        before = _copied()
        _equal(call(other), in_place)
        assert _copied() > before, f"{name}: a {other.dtype} {'F' if other.flags.f_contiguous else 'C'}-order input was not converted"


def test_multichannel_float32_is_read_in_place():
    a = np.random.default_rng(8).standard_normal((5, 40, 3)).astype(np.float32)  # series x samples x channels
    before = _copied()
    d = warplab.distance_matrix(a, metric="dtw")
    assert _copied() == before
    np.testing.assert_array_equal(d, warplab.distance_matrix(a.astype(np.float64), metric="dtw"))


# A fresh process with two series of 10 million float32 samples (40 MB each), filled in place (no
# temporaries that would raise the peak first): how far its peak resident memory grows while the
# engine works on them. Read in place, the matrix on the scalar reference grows by far less than
# one series; given in Fortran order (each row strided, so converted) the same call grows by both
# series' size, which shows the measure sees a copy. search keeps work arrays along the reference
# (about 30 bytes a sample), so there the Fortran-order run must grow by the reference's size more
# than the C-order one. Linux reports ru_maxrss in KiB.
_PEAK = textwrap.dedent("""
    import resource, sys
    import numpy as np
    import warplab
    what, order = sys.argv[1], sys.argv[2]
    n = 10_000_000
    peak = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    X = np.empty((2, n), dtype=np.float32, order=order)
    X[0] = 0.5
    X[1, ::2] = 1.0
    X[1, 1::2] = -1.0
    q = np.array([1.0, -1.0] * 16, dtype=np.float32)
    base = peak()
    if what == "search":
        warplab.search(q, X[1], k=1)
    else:
        warplab.distance_matrix(X, metric="euclidean", kernel="cpu.reference")
    print(peak() - base)
""")
_SERIES = 10_000_000 * 4  # bytes


def _growth(what, order):
    out = subprocess.run([sys.executable, "-c", _PEAK, what, order], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return int(out.stdout.split()[-1])


def test_peak_memory_shows_no_copy_of_large_inputs():
    converted = _growth("matrix", "F")
    if converted == 0:  # seen on a GPU machine's kernel: its peak misses the call's short-lived buffers
        pytest.skip("this system's peak resident memory does not show the Fortran-order control's copy")
    assert converted >= 2 * _SERIES * 0.9, f"distance_matrix grew by only {converted} bytes converting F-order input"
    in_place = _growth("matrix", "C")
    assert in_place < _SERIES // 4, f"distance_matrix grew by {in_place} bytes on float32 C-order input"
    in_place, converted = _growth("search", "C"), _growth("search", "F")
    assert converted - in_place >= _SERIES * 0.9, (in_place, converted)

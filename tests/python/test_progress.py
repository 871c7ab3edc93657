"""progress=: a callable sees the fraction done from the calling thread, throttled, 0.0 first and
1.0 last; what it raises cancels the job; progress=True draws a bar on stderr."""
import threading
import time

import numpy as np
import pytest

import warplab


def long_set(series=48):
    # Some 0.5-2 s of reference-kernel DTW on a busy 2-core machine: several throttled calls.
    return np.random.default_rng(1).standard_normal((series, 500)).astype(np.float32)


class Recorder:
    def __init__(self):
        self.calls = []  # (fraction, monotonic time, thread id)

    def __call__(self, fraction):
        self.calls.append((fraction, time.monotonic(), threading.get_ident()))

    @property
    def fractions(self):
        return [c[0] for c in self.calls]


def check_calls(rec):
    f = rec.fractions
    assert f[0] == 0.0 and f[-1] == 1.0
    assert all(0.0 <= x <= 1.0 for x in f)
    assert f == sorted(f), "fractions go down"
    assert {c[2] for c in rec.calls} == {threading.get_ident()}, "called from another thread"


def test_distance_matrix_progress_is_monotone_throttled_and_on_the_calling_thread():
    X = long_set()
    rec = Recorder()
    D = warplab.distance_matrix(X, metric="dtw", kernel="cpu.reference", progress=rec)
    check_calls(rec)
    # Calls while the job runs (all but the first 0.0 and the closing 1.0) are >= 0.1 s apart.
    times = [c[1] for c in rec.calls[1:-1]]
    assert all(b - a >= 0.095 for a, b in zip(times, times[1:])), np.diff(times)
    assert len(rec.calls) >= 4, f"a job of {rec.calls[-1][1] - rec.calls[0][1]:.2f} s told no fraction on its way"
    assert any(0.0 < x < 1.0 for x in rec.fractions)
    np.testing.assert_array_equal(D, warplab.distance_matrix(X, metric="dtw", kernel="cpu.reference"))


def test_an_exception_in_the_callable_cancels_the_job_and_leaves_no_file(tmp_path):
    class Stop(Exception):
        pass

    def stop(fraction):
        if fraction > 0.0:
            raise Stop("enough")

    out = tmp_path / "m.npy"
    started = time.monotonic()
    with pytest.raises(Stop, match="enough"):
        warplab.distance_matrix(long_set(400), metric="dtw", kernel="cpu.reference", out=out,
                                progress=stop)
    assert time.monotonic() - started < 3.0
    assert not out.exists()


def test_progress_true_draws_a_bar_on_stderr(capsys):
    warplab.distance_matrix(long_set(20), metric="dtw", progress=True)
    err = capsys.readouterr().err
    assert err.startswith("\rdistance_matrix [")
    assert err.endswith("] 100.0%\n")
    assert "#" * 30 in err


def test_search_progress():
    rng = np.random.default_rng(2)
    reference = rng.standard_normal(400_000).astype(np.float32)
    rec = Recorder()
    hits = warplab.search(reference[1000:1256], reference, k=2, progress=rec)
    check_calls(rec)
    assert hits[0]["start"] == 1000


def test_find_patterns_progress(sample_path):
    rec = Recorder()
    ranking = warplab.find_patterns(sample_path, annotation="seizure", top=3, progress=rec)
    check_calls(rec)
    np.testing.assert_array_equal(ranking, warplab.find_patterns(sample_path, annotation="seizure", top=3))


def test_align_progress_tells_start_and_end():
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal(300), rng.standard_normal(280)
    rec = Recorder()
    cost, path = warplab.align(a, b, metric="dtw", progress=rec)
    assert rec.fractions == [0.0, 1.0]
    assert cost == warplab.align(a, b, metric="dtw")[0]


def test_progress_must_be_callable():
    with pytest.raises(TypeError, match="progress: give a callable"):
        warplab.distance_matrix(np.zeros((2, 4)), progress="yes")

"""warplab.filter / psd / spectrogram against SciPy on the real recordings of tests/data.

Tolerances: the band filter within 1e-6 of the channel's peak in the middle 80 % (float32 out),
Welch within 1e-9 relative per bin, the spectrogram within 1e-6 relative (float32 out).
"""
import os

import numpy as np
import pytest

import warplab
from conftest import DATA

signal = pytest.importorskip("scipy.signal", reason="SciPy missing (apt install python3-scipy): no reference to compare with")


def channels():
    """(name, float32 samples, rate) of a CHB-MIT, an eegmmidb and a Bonn channel."""
    out = []
    for path, ch in (("chbmit/chb01_03_Seizure.edf", "FP1-F7"), ("eegmmidb/S001R03.edf", 0)):
        rec = warplab.open_recording(os.path.join(DATA, path))
        idx = ch if isinstance(ch, int) else rec.channels.index(ch)
        out.append((path, rec.read(ch), rec.rates[idx]))
    bonn = np.loadtxt(os.path.join(DATA, "bonn", "Z", "Z001.txt"), dtype=np.float32)
    out.append(("bonn/Z/Z001.txt", bonn, 173.61))
    return out


@pytest.mark.parametrize("band", ["delta", "theta", "alpha", "beta", "gamma", (1.5, 20.0)])
def test_filter_equals_sosfiltfilt(band):
    for name, x, rate in channels():
        lo, hi = (band if isinstance(band, tuple) else
                  next((b["low_hz"], b["high_hz"]) for b in warplab.frequency_bands() if b["name"] == band))
        if hi >= rate / 2:
            with pytest.raises(ValueError, match=f"{band}.*Nyquist"):
                warplab.filter(x, rate, band)
            continue
        ours = warplab.filter(x, rate, band)
        assert ours.dtype == np.float32 and ours.shape == x.shape
        ref = signal.sosfiltfilt(signal.butter(4, [lo, hi], btype="bandpass", fs=rate, output="sos"), x.astype(np.float64))
        n = len(x)
        mid = slice(n // 10, n - n // 10)
        err = np.max(np.abs(ours[mid] - ref[mid])) / np.max(np.abs(ref))
        assert err <= 1e-6, f"{name} {band}: {err:.3g} of the peak"


def test_filter_columns_and_errors():
    _, x, rate = channels()[0]
    two = np.stack([x, -x], axis=1)
    out = warplab.filter(two, rate, "alpha")
    assert out.shape == two.shape
    np.testing.assert_array_equal(out[:, 0], warplab.filter(x, rate, "alpha"))
    with pytest.raises(ValueError, match="'alfa'"):
        warplab.filter(x, rate, "alfa")
    with pytest.raises(ValueError, match="at least 28"):
        warplab.filter(x[:20], rate, "alpha")
    with pytest.raises(ValueError, match="13-8 Hz"):
        warplab.filter(x, rate, "13-8")


@pytest.mark.parametrize("nperseg,noverlap,detrend,scaling", [(256, None, "constant", "density"),
                                                               (512, 100, "linear", "spectrum"),
                                                               (200, 0, "none", "density")])
def test_psd_equals_welch(nperseg, noverlap, detrend, scaling):
    for name, x, rate in channels():
        f, p = warplab.psd(x, rate, nperseg=nperseg, noverlap=noverlap, detrend=detrend, scaling=scaling)
        rf, rp = signal.welch(x.astype(np.float64), fs=rate, window="hann", nperseg=nperseg, noverlap=noverlap,
                              detrend=False if detrend == "none" else detrend, scaling=scaling)
        np.testing.assert_allclose(f, rf, rtol=1e-12)
        np.testing.assert_allclose(p, rp, rtol=1e-9, atol=1e-12 * rp.max(), err_msg=name)


def test_spectrogram_equals_scipy():
    for name, x, rate in channels():
        f, t, s = warplab.spectrogram(x, rate, nperseg=256, noverlap=192)
        rf, rt, rs = signal.spectrogram(x.astype(np.float64), fs=rate, window="hann", nperseg=256, noverlap=192,
                                        detrend="constant", scaling="density", mode="psd")
        np.testing.assert_allclose(f, rf, rtol=1e-12)
        np.testing.assert_allclose(t, rt, rtol=1e-12)
        assert s.shape == rs.shape and s.dtype == np.float32
        np.testing.assert_allclose(s, rs, rtol=1e-6, atol=1e-9 * rs.max(), err_msg=name)


def test_freq_band_on_distance_matrix_and_search_equals_prefiltered():
    _, x, rate = channels()[0]
    X = np.stack([x[512 * k: 512 * (k + 1)] for k in range(8)])
    D = warplab.distance_matrix(X, metric="cdtw", band=16, freq_band="alpha", rate=rate)
    F = np.stack([warplab.filter(row, rate, "alpha") for row in X])
    np.testing.assert_array_equal(D, warplab.distance_matrix(F, metric="cdtw", band=16))
    assert not np.array_equal(D, warplab.distance_matrix(X, metric="cdtw", band=16))
    q, ref = x[5120:5632], x[:8192]
    hits = warplab.search(q, ref, k=3, freq_band="theta", rate=rate)
    want = warplab.search(warplab.filter(q, rate, "theta"), warplab.filter(ref, rate, "theta"), k=3)
    np.testing.assert_array_equal(hits, want)
    with pytest.raises(ValueError, match="rate"):
        warplab.distance_matrix(X, metric="dtw", freq_band="alpha")


def test_freq_band_on_find_patterns_equals_prefiltered():
    path = os.path.join(DATA, "chbmit/chb01_03_Seizure.edf")
    rec = warplab.open_recording(path)
    x = rec.read("FP1-F7")
    common = dict(seizures=[(20, 30)], epoch=256, stride=128, band=8, backend="cpu")
    want = warplab.find_patterns(warplab.filter(x, 256, "theta"), rate=256, channel="FP1-F7", **common)
    assert len(want) > 10
    # A recording (its channel read whole, then filtered once) and an array: the same ranking.
    for source in (rec, path, x):
        got = warplab.find_patterns(source, channel="FP1-F7", freq_band="theta",
                                    **(dict(common, rate=256) if source is x else common))
        np.testing.assert_array_equal(got["pattern_index"], want["pattern_index"])
        np.testing.assert_array_equal(got["quality"], want["quality"])
    assert not np.array_equal(warplab.find_patterns(rec, channel="FP1-F7", **common)["quality"], want["quality"])
    order2 = warplab.find_patterns(rec, channel="FP1-F7", freq_band=(4, 8), freq_band_order=2, **common)
    want2 = warplab.find_patterns(warplab.filter(x, 256, (4, 8), order=2), rate=256, channel="FP1-F7", **common)
    np.testing.assert_array_equal(order2["quality"], want2["quality"])
    with pytest.raises(ValueError, match="alfa"):
        warplab.find_patterns(rec, channel="FP1-F7", freq_band="alfa", **common)
    with pytest.raises(ValueError, match="gamma"):
        warplab.find_patterns(warplab.open_recording(os.path.join(DATA, "eegmmidb/S001R03.edf")), channel=0,
                              seizures=[(5, 10)], epoch=160, stride=80, freq_band="gamma")

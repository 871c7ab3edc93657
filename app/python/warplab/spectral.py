"""The frequency side of EEG: bands, the band filter, power spectra and spectrograms.

The same code as ``warplab-cli filter`` / ``psd`` and the desktop views (compute/spectral):

* :func:`filter` equals ``scipy.signal.sosfiltfilt(scipy.signal.butter(order, [lo, hi],
  "bandpass", fs=rate, output="sos"), x)`` (computed in double, returned as float32);
* :func:`psd` equals ``scipy.signal.welch(x, fs=rate, window="hann", ...)`` with the same
  ``nperseg``, ``noverlap``, ``detrend`` and ``scaling``;
* :func:`spectrogram` equals ``scipy.signal.spectrogram(x, fs=rate, window="hann",
  mode="psd", ...)``.

A band is a preset name (``"delta"`` 0.5-4, ``"theta"`` 4-8, ``"alpha"`` 8-13, ``"beta"``
13-30, ``"gamma"`` 30-80 Hz), a range ``"8-13"``, a named range ``"mu=8-12"`` or a pair
``(8, 13)``. A band the rate cannot hold (its high edge at or above Nyquist), LO >= HI and a
signal shorter than the filter needs are refused with ValueError naming the band.
"""
from . import _warplab

__all__ = ["frequency_bands", "frequency_band", "filter", "psd", "spectrogram"]


def frequency_bands():
    """The presets: a list of dicts with ``name``, ``low_hz``, ``high_hz`` and ``label``."""
    return _warplab.frequency_bands()


def frequency_band(band, rate=0.0, *, length=0, order=4):
    """``band`` parsed (and, with ``rate`` > 0, checked for that rate and ``length``) as a dict."""
    return _warplab.frequency_band(band, float(rate), int(length), int(order))


def filter(x, rate, band, *, order=4):  # noqa: A001 (the name users look for)
    """``x`` filtered to ``band`` by a zero-phase Butterworth band-pass of ``order``.

    ``x``: 1-D (samples) or 2-D (samples x channels, each channel filtered), float32 or
    float64; returns float32 of the same shape. The ends are padded by odd reflection as
    sosfiltfilt pads them, so the first and last few hundred milliseconds depend on that guess.
    """
    return _warplab.filter_band(x, float(rate), band, int(order))


def psd(x, rate, *, nperseg=256, noverlap=None, detrend="constant", scaling="density"):
    """Welch's power spectral density: ``(frequencies, power)``, float64.

    Hann window, segments of ``nperseg`` samples overlapping by ``noverlap`` (default
    ``nperseg // 2``), ``detrend`` "none" | "constant" | "linear", ``scaling`` "density"
    (units^2/Hz) | "spectrum" (units^2), one-sided, mean of the segments. A signal shorter than
    ``nperseg`` is one segment of its length. 2-D ``x`` (samples x channels): power is bins x
    channels.
    """
    return _warplab.psd(x, float(rate), int(nperseg), -1 if noverlap is None else int(noverlap), str(detrend),
                        str(scaling))


def spectrogram(x, rate, *, nperseg=256, noverlap=None, detrend="constant", scaling="density"):
    """``(frequencies, times, power)`` of one channel: Hann-windowed periodograms of frames of
    ``nperseg`` samples stepping by ``nperseg - noverlap`` (default ``noverlap = nperseg // 2``);
    power is float32, bins x frames; times are frame centres in seconds.
    """
    return _warplab.spectrogram(x, float(rate), int(nperseg), -1 if noverlap is None else int(noverlap),
                                str(detrend), str(scaling))


def _filtered_set(X, rate, freq_band, order):
    """A series set (2-D series x samples, 3-D series x samples x channels, or a list of series)
    with every series filtered to ``freq_band``; ``X`` itself when no band is asked."""
    if freq_band is None or X is None:
        return X
    if not rate or rate <= 0:
        raise ValueError(f"freq_band: frequency band {freq_band!r} needs the sampling rate: give rate=HZ")
    import numpy as np
    if isinstance(X, np.ndarray) and X.ndim == 2:
        return np.ascontiguousarray(filter(X.T, rate, freq_band, order=order).T)
    if isinstance(X, np.ndarray) and X.ndim == 1:
        raise ValueError("freq_band: a set is 2-D (series x samples) or a list of series")
    return [filter(x, rate, freq_band, order=order) for x in X]


def _filtered_series(x, rate, freq_band, order):
    """One series filtered to ``freq_band`` (``x`` itself when none is asked)."""
    if freq_band is None:
        return x
    if not rate or rate <= 0:
        raise ValueError(f"freq_band: frequency band {freq_band!r} needs the sampling rate: give rate=HZ")
    return filter(x, rate, freq_band, order=order)

"""WarpLab from Python: elastic time-series distances, alignments, searches and EEG recordings.

The same engine as ``warplab-cli`` and the desktop application, with NumPy in and out::

    import numpy as np, warplab
    X = np.random.default_rng(0).standard_normal((100, 128))
    D = warplab.distance_matrix(X, metric="cdtw", band=8)      # 100 x 100, float64
    cost, path = warplab.align(X[0], X[1], metric="dtw")        # path: n x 2 (i, j)
    hits = warplab.search(X[0], X.ravel(), k=3)                  # rank, cost, start, end

Series are float32 or float64 arrays: one series is a 1-D array (samples) or a 2-D array
(samples x channels); a set is a 2-D array (series x samples), a 3-D array (series x samples
x channels) or a list of series of any lengths. The engine computes in float32 (its series
are float32), results are float64.

Metrics (METRICS.md): ``euclidean``, ``dtw``, ``cdtw`` (Sakoe-Chiba ``band``), ``sdtw``,
``softdtw`` (``gamma``), ``twed`` (``nu``, ``lam``). ``cost`` is ``"sq"`` (squared) or
``"abs"``; ``znorm`` z-normalises each series first, ``sqrt`` returns the square root.

Every computation releases the GIL; Ctrl-C (KeyboardInterrupt) cancels a running job and leaves
no partial output file. Bad input raises ValueError or TypeError, a missing file
FileNotFoundError, and a GPU problem :class:`DeviceError`.
"""
import os as _os

from . import _warplab
from . import mne_bridge
from ._warplab import DeviceError, Recording

__all__ = [
    "DeviceError", "Recording", "distance", "distance_matrix", "align", "soft_dtw", "search",
    "open_recording", "find_patterns", "kernels", "devices",
]

__version__ = "0.1.0"

_SEARCH_DTYPE_FIELDS = ("rank", "cost", "start", "end")


def _path_or_none(value):
    if value is None:
        return None
    if isinstance(value, (str, bytes, _os.PathLike)):
        return _os.fsdecode(_os.fspath(value))
    return value


def distance(a, b, metric="dtw", *, band=0, gamma=1.0, nu=0.001, lam=1.0, cost="sq", znorm=False,
             sqrt=False, backend="auto", kernel=None):
    """Distance between two series.

    Parameters
    ----------
    a, b : array_like, float32 or float64
        1-D (samples) or 2-D (samples x channels).
    metric : {"euclidean", "dtw", "cdtw", "sdtw", "softdtw", "twed"}
    band : int
        Sakoe-Chiba half-width w for ``cdtw``.
    gamma : float
        soft-DTW smoothing (> 0).
    nu, lam : float
        TWED stiffness and edit penalty.
    cost : {"sq", "abs"}
        Local cost (a-b)^2 or |a-b|.
    znorm : bool
        z-normalise each series (per channel) first.
    sqrt : bool
        Return the square root of the accumulated cost.
    backend : {"auto", "cpu", "cuda", "hip"}
    kernel : str, optional
        A kernel of :func:`kernels` ("cpu.simd", "cuda.shuffle", ...). Without a kernel (and
        backend auto or cpu) the scalar reference computes the pair, as ``warplab-cli align``;
        with one, the pair is a 1 x 1 matrix on that kernel, as ``warplab-cli dm --kernel``.

    Returns
    -------
    float
    """
    return _warplab.distance(a, b, metric, int(band), float(gamma), float(nu), float(lam), cost,
                             bool(znorm), bool(sqrt), backend, kernel or "")


def distance_matrix(X, Y=None, metric="dtw", *, band=0, gamma=1.0, nu=0.001, lam=1.0, cost="sq",
                    znorm=False, sqrt=False, backend="auto", kernel=None, threads=0, devices=None,
                    out=None):
    """Distance matrix of X x Y, or of all pairs of X when Y is None.

    Parameters
    ----------
    X, Y : array_like or list of array_like
        A 2-D array (series x samples), a 3-D array (series x samples x channels) or a list of
        series (ragged lengths allowed where the metric allows them).
    metric, band, gamma, nu, lam, cost, znorm, sqrt :
        As for :func:`distance`.
    backend : {"auto", "cpu", "cuda", "hip"}
        ``auto`` takes a GPU when one is present, else all CPU cores.
    kernel : str, optional
        A kernel of :func:`kernels`; default the best one of the backend.
    threads : int
        CPU threads, 0 = all cores.
    devices : None, "all", int or list of int
        GPUs to spread the tiles over (default all).
    out : None, str / PathLike, or ndarray
        None returns a new float64 array. A ``.npy`` or ``.h5`` path streams the matrix to the
        file tile by tile (for matrices larger than memory; the file appears complete or not at
        all) and returns the path. A float64 C-contiguous array of shape (len(X), len(Y))
        (``np.memmap`` included) is filled in place and returned.

    Returns
    -------
    ndarray of float64, shape (len(X), len(Y)), or the path written.
    """
    return _warplab.distance_matrix(X, Y, metric, int(band), float(gamma), float(nu), float(lam), cost,
                                    bool(znorm), bool(sqrt), backend, kernel or "", int(threads),
                                    devices, _path_or_none(out))


def align(a, b, metric="dtw", *, band=0, gamma=1.0, nu=0.001, lam=1.0, cost="sq", znorm=False,
          sqrt=False, matrix=False):
    """Align two series by the scalar reference: cost, warping path and optionally the matrix.

    Parameters are those of :func:`distance` (euclidean, dtw, cdtw, softdtw, twed).

    Returns
    -------
    (cost, path) or, with ``matrix=True``, (cost, path, matrix):
        ``cost`` a float (after ``sqrt``), ``path`` an int64 array n x 2 of (i, j) pairs from
        (0, 0) to (len(a)-1, len(b)-1), ``matrix`` the accumulated-cost matrix len(a) x len(b).
    """
    cost_, path, m = _warplab.align(a, b, metric, int(band), float(gamma), float(nu), float(lam), cost,
                                   bool(znorm), bool(sqrt), bool(matrix))
    return (cost_, path, m) if matrix else (cost_, path)


def soft_dtw(X, Y, gamma=1.0, *, cost="sq", gradient=True):
    """Soft-DTW of the pairs (X[i], Y[i]) and its gradient with respect to X[i].

    Parameters
    ----------
    X, Y : array_like
        Two sets of the same number of series (2-D / 3-D arrays or lists), or two single
        series (1-D arrays).
    gamma : float
        Smoothing, > 0.
    gradient : bool
        Also return d soft-DTW(X[i], Y[i]) / d X[i] (Cuturi & Blondel's backward recursion).

    Returns
    -------
    values : ndarray (n,) float64 (a float for single series)
    gradients : ndarray shaped like X (a list when X is ragged), only with ``gradient=True``.
    """
    import numpy as np
    single = getattr(X, "ndim", None) == 1 or (isinstance(X, (list, tuple)) and X and np.isscalar(X[0]))
    if single:
        X, Y = [X], [Y]
    values, grads = _warplab.soft_dtw(X, Y, float(gamma), cost, bool(gradient))
    if single:
        return (values[0], grads[0]) if gradient else values[0]
    if not gradient:
        return values
    shapes = {g.shape for g in grads}
    return values, (np.stack(grads) if len(shapes) == 1 else grads)


def search(query, reference, k=1, *, mode="subsequence", band=None, znorm=False, cost="sq", sqrt=False,
           exclude=None, backend="auto", kernel=None, threads=0, devices=None):
    """Top-k matches of a query in a long reference, as ``warplab-cli search``.

    Parameters
    ----------
    query, reference : array_like
        1-D series (the subsequence mode also takes samples x channels).
    k : int
        Number of matches; they do not overlap (METRICS.md's exclusion zone).
    mode : {"subsequence", "window"}
        ``subsequence``: subsequence DTW, free start and end (METRICS.md sdtw); ``znorm`` and
        ``cost`` apply. ``window``: every window of the query's length z-normalised on its own,
        band DTW with squared cost (the UCR Suite's search), exact.
    band : int, optional
        Window mode: Sakoe-Chiba half-width (default floor(0.05 * len(query))).
    exclude : (first, last) or list of them, optional
        Inclusive places never reported: match ends in subsequence mode, starts in window mode
        (e.g. the query's own place when it was cut from the reference).

    Returns
    -------
    structured ndarray with fields rank (int64), cost (float64), start, end (int64; reference
    samples, end inclusive), best first.
    """
    return _warplab.search(query, reference, int(k), mode, band, bool(znorm), cost, bool(sqrt), exclude,
                           backend, kernel or "", int(threads), devices)


def open_recording(path):
    """Open an EDF/EDF+/BDF recording (or a series file shown as channels), or take an
    ``mne.io.Raw`` (returned as :class:`warplab.mne_bridge.MneRecording`, samples in the
    file's unit, e.g. microvolts).

    Returns a :class:`Recording` with ``channels`` (names), ``rates`` (Hz), ``signals`` (dicts
    of the header), ``annotations`` ((onset s, duration s, text) tuples), ``duration``,
    ``start`` and ``read(channel, start=0, stop=None)`` (a channel by name, "#N" or index;
    samples [start, stop) as float32 physical values).
    """
    if mne_bridge.is_raw(path):
        return mne_bridge.MneRecording(path)
    return _warplab.open_recording(_os.fsdecode(_os.fspath(path)))


def find_patterns(source, *, seizures=None, annotation=None, summary=None, channel=None, rate=0.0,
                  epoch=1024, stride=256, band=16, quality="auc", top=0, backend="auto", kernel=None,
                  threads=0, devices=None):
    """Rank seizure patterns of a channel, as ``warplab-cli patterns``.

    Every window (``epoch`` samples, every ``stride``) of the concatenated seizures is compared by
    band DTW (``band``) with every epoch of the channel; patterns are ranked by how well their
    distances separate ictal from interictal epochs (``quality`` "auc" or "infogain").

    Parameters
    ----------
    source : Recording, path, mne.io.Raw or 1-D array
        A recording (opened, a path or an MNE Raw) or a channel's samples (then ``rate`` in Hz
        is needed).
    seizures : list of (start, end), optional
        Seizures in seconds from the start. A recording takes exactly one of ``seizures``,
        ``annotation`` (EDF+ annotations containing this text) or ``summary`` (CHB-MIT
        chbNN-summary.txt).
    channel : str or int, optional
        Default: FP1-F7 when present, else the first channel.
    top : int
        Keep the best ``top`` (0: all).

    Returns
    -------
    structured ndarray with fields rank, quality, pattern_index, start_seconds, best first.
    """
    if isinstance(source, (str, bytes, _os.PathLike)):
        source = open_recording(source)
    if mne_bridge.is_raw(source):
        source = mne_bridge.MneRecording(source)
    if isinstance(source, mne_bridge.MneRecording):
        # The channel as an array, the seizures from the Raw's annotations (or as given).
        if summary is not None:
            raise ValueError("summary: an MNE Raw takes seizures= or annotation=")
        if (seizures is None) == (annotation is None):
            raise ValueError("seizures: give exactly one of seizures=[(start, end), ...], annotation=TEXT")
        if annotation is not None:
            seizures = source.seizures(annotation)
            if not seizures:
                raise ValueError(f'annotation: {source.path}: no annotation contains "{annotation}"')
        if channel is None:
            channel = "FP1-F7" if "FP1-F7" in source.channels else 0
        index = source._index(channel)
        return _warplab.find_patterns(source.read(index), source.channels[index], seizures, None, None,
                                      float(rate or source.rates[index]), int(epoch), int(stride), int(band),
                                      quality, int(top), backend, kernel or "", int(threads), devices)
    return _warplab.find_patterns(source, channel, seizures, annotation, _path_or_none(summary), float(rate),
                                  int(epoch), int(stride), int(band), quality, int(top), backend, kernel or "",
                                  int(threads), devices)


def kernels():
    """The compute kernels: name, backend, description, metrics, available, unavailable_reason."""
    return _warplab.kernels()


def devices():
    """The GPUs this process can use: index and name (empty without a GPU backend or device)."""
    return _warplab.devices()

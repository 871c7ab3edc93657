"""WarpLab from Python: elastic time-series distances, alignments, searches and EEG recordings.

The same engine as ``warplab-cli`` and the desktop application, with NumPy in and out::

    import numpy as np, warplab
    X = np.random.default_rng(0).standard_normal((100, 128))
    D = warplab.distance_matrix(X, metric="cdtw", band=8)      # 100 x 100, float64
    cost, path = warplab.align(X[0], X[1], metric="dtw")        # path: n x 2 (i, j)
    hits = warplab.search(X[0], X.ravel(), k=3)                  # rank, cost, start, end

Seizure detection over a study (``warplab-cli detect`` and ``crossval``)::

    d = warplab.Detector.build("chb01/", top=5, operating_point="fpr:0.01")
    d.save("fp1.json"); events = d.apply("chb01_04.edf")        # (onset, duration, confidence)
    scores = warplab.crossval("chb01/", folds="seizure")         # the dict of crossval --json

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
from ._warplab import DeviceError, Recording, Study
from .spectral import filter, frequency_band, frequency_bands, psd, spectrogram  # noqa: A004
from .spectral import _filtered_series, _filtered_set
from .detector import Detector, crossval

__all__ = [
    "DeviceError", "Recording", "Study", "distance", "distance_matrix", "align", "soft_dtw", "search",
    "open_recording", "open_study", "find_patterns", "kernels", "devices", "bench",
    "frequency_bands", "frequency_band", "filter", "psd", "spectrogram", "score", "read_events", "detect",
    "Detector", "crossval",
]

__version__ = "0.1.0"

_SEARCH_DTYPE_FIELDS = ("rank", "cost", "start", "end")


def _path_or_none(value):
    if value is None:
        return None
    if isinstance(value, (str, bytes, _os.PathLike)):
        return _os.fsdecode(_os.fspath(value))
    return value


class _ProgressBar:
    """``progress=True``: a bar on stderr, redrawn in place, ended by a newline at 100 %."""

    def __init__(self, label, stream=None, width=30):
        import sys
        self.label, self.stream, self.width = label, stream or sys.stderr, width
        self.closed = False

    def __call__(self, fraction):
        if self.closed:
            return
        filled = int(round(fraction * self.width))
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (self.width - filled)}] {fraction * 100:5.1f}%")
        if fraction >= 1.0:
            self.stream.write("\n")
            self.closed = True
        self.stream.flush()


def _series_set(X, channel=None):
    """An ``mne.Epochs`` as its series; anything else as it is."""
    if X is not None and mne_bridge.is_epochs(X):
        return mne_bridge.epochs_series(X, channel)
    return X


def _progress(progress, label):
    """None, a callable taking the fraction done, or True for a bar on stderr."""
    if progress is None or progress is False:
        return None
    if progress is True:
        return _ProgressBar(label)
    if not callable(progress):
        raise TypeError(f"progress: give a callable taking the fraction done, True or None, not "
                        f"{type(progress).__name__}")
    return progress



# The compiled function itself, with its keywords, defaults and docstring: no Python frame on the
# per-pair hot path.
distance = _warplab.distance


def distance_matrix(X, Y=None, metric="dtw", *, band=0, gamma=1.0, nu=0.001, lam=1.0, cost="sq",
                    znorm=False, sqrt=False, backend="auto", kernel=None, threads=0, devices=None,
                    out=None, progress=None, channel=None, freq_band=None, rate=None, freq_band_order=4):
    """Distance matrix of X x Y, or of all pairs of X when Y is None.

    Parameters
    ----------
    X, Y : array_like, list of array_like or mne.Epochs
        A 2-D array (series x samples), a 3-D array (series x samples x channels), a list of
        series (ragged lengths allowed where the metric allows them), or an ``mne.Epochs``
        (each epoch a series: of ``channel``, or of all its data channels as one multichannel
        series; EEG in microvolts, see :func:`warplab.mne_bridge.epochs_series`).
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
    progress : None, True or callable, optional
        Called as ``progress(fraction)`` (0.0 first, 1.0 when done) from the calling thread, at
        most every 0.1 s while the job runs, as tiles finish; an exception it raises cancels the
        job and propagates. ``True`` draws a bar on stderr.
    channel : str, int or list, optional
        For ``mne.Epochs`` inputs: the channel (one series per epoch) or channels
        (multichannel series); default all data channels.
    freq_band : str or (lo, hi), optional
        Filter every series to this frequency band first (:func:`warplab.filter`, zero phase,
        Butterworth of ``freq_band_order``), as ``warplab-cli dm --freq-band``; needs ``rate``.
    rate : float, optional
        Sampling rate in Hz of the series, for ``freq_band``.

    Returns
    -------
    ndarray of float64, shape (len(X), len(Y)), or the path written.
    """
    X, Y = _series_set(X, channel), _series_set(Y, channel)
    X, Y = _filtered_set(X, rate, freq_band, freq_band_order), _filtered_set(Y, rate, freq_band, freq_band_order)
    return _warplab.distance_matrix(X, Y, metric, int(band), float(gamma), float(nu), float(lam), cost,
                                    bool(znorm), bool(sqrt), backend, kernel or "", int(threads),
                                    devices, _path_or_none(out), _progress(progress, "distance_matrix"))


def align(a, b, metric="dtw", *, band=0, gamma=1.0, nu=0.001, lam=1.0, cost="sq", znorm=False,
          sqrt=False, matrix=False, progress=None):
    """Align two series by the scalar reference: cost, warping path and optionally the matrix.

    Parameters are those of :func:`distance` (euclidean, dtw, cdtw, softdtw, twed), and
    ``progress`` as for :func:`distance_matrix`; the alignment is one recursion that tells no
    fraction on its way, so the callable sees 0.0 and then 1.0.

    Returns
    -------
    (cost, path) or, with ``matrix=True``, (cost, path, matrix):
        ``cost`` a float (after ``sqrt``), ``path`` an int64 array n x 2 of (i, j) pairs from
        (0, 0) to (len(a)-1, len(b)-1), ``matrix`` the accumulated-cost matrix len(a) x len(b).
    """
    cost_, path, m = _warplab.align(a, b, metric, int(band), float(gamma), float(nu), float(lam), cost,
                                   bool(znorm), bool(sqrt), bool(matrix),
                                   _progress(progress, "align"))
    return (cost_, path, m) if matrix else (cost_, path)


def soft_dtw(X, Y, gamma=1.0, *, cost="sq", gradient=True):
    """Soft-DTW of the pairs (X[i], Y[i]) and its gradient with respect to X[i].

    Parameters
    ----------
    X, Y : array_like or mne.Epochs
        Two sets of the same number of series (2-D / 3-D arrays, lists or ``mne.Epochs``, each
        epoch a multichannel series), or two single series (1-D arrays).
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
    X, Y = _series_set(X), _series_set(Y)
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
           exclude=None, exclusion_tolerance=0, backend="auto", kernel=None, threads=0, devices=None,
           progress=None, freq_band=None, rate=None, freq_band_order=4):
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
        Inclusive spans of reference samples that no reported match may overlap, e.g. the
        query's own place when it was cut from the reference (the GUI's and ``warplab-cli
        search``'s rule, docs/SEARCH.md). Overlapping matches are dropped before the top-k
        selection, so k matches still come back where the reference holds them.
    exclusion_tolerance : int
        Samples of overlap with an excluded span still allowed (default 0: none).
    progress : None, True or callable, optional
        As for :func:`distance_matrix`; the fraction of the reference swept.
    freq_band, rate, freq_band_order : optional
        Filter query and reference to a frequency band first, as for :func:`distance_matrix`.

    Returns
    -------
    structured ndarray with fields rank (int64), cost (float64), start, end (int64; reference
    samples, end inclusive), best first.
    """
    query = _filtered_series(query, rate, freq_band, freq_band_order)
    reference = _filtered_series(reference, rate, freq_band, freq_band_order)
    return _warplab.search(query, reference, int(k), mode, band, bool(znorm), cost, bool(sqrt), exclude,
                           int(exclusion_tolerance), backend, kernel or "", int(threads), devices, _progress(progress, "search"))


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
                  threads=0, devices=None, progress=None, freq_band=None, freq_band_order=4):
    """Rank seizure patterns of a channel, as ``warplab-cli patterns``.

    Every window (``epoch`` samples, every ``stride``) of the concatenated seizures is compared by
    band DTW (``band``) with every epoch of the channel; patterns are ranked by how well their
    distances separate ictal from interictal epochs (``quality`` "auc" or "infogain").

    Parameters
    ----------
    source : Recording, Study, path, mne.io.Raw or 1-D array
        A recording (opened, a path or an MNE Raw), a :class:`Study` (from :func:`open_study`)
        or a channel's samples (then ``rate`` in Hz is needed).
    seizures : list of (start, end), optional
        Seizures in seconds from the start. A recording takes exactly one of ``seizures``,
        ``annotation`` (EDF+ annotations containing this text) or ``summary`` (CHB-MIT
        chbNN-summary.txt). A study has its own seizures (its summary's, those of
        ``open_study(..., summary=, annotation=)``); ``seizures`` adds (recording, start, end)
        triples (seconds from that recording's start) for this call only, as
        ``warplab-cli patterns --study --seizures FILE:START-END`` does.
    channel : str or int, optional
        Default: FP1-F7 when present, else the first channel.
    top : int
        Keep the best ``top`` (0: all).
    progress : None, True or callable, optional
        As for :func:`distance_matrix`; the fraction of pattern x epoch distances computed.
    freq_band : str or (low, high), optional
        Rank the patterns of the channel filtered to this frequency band ("alpha", "8-13",
        "mu=8-12" or a pair in Hz; zero-phase Butterworth of order ``freq_band_order``), the
        whole channel filtered once, as ``warplab-cli patterns --freq-band`` does; in a study each
        recording's channel is filtered on its own.

    Returns
    -------
    structured ndarray with fields rank, quality, pattern_index, start_seconds, best first; for
    a study also recording (the file the pattern was cut from; start_seconds from its start)
    and clock_time.
    """
    if isinstance(source, Study):
        if annotation is not None or summary is not None:
            raise ValueError("annotation: a study takes annotation= and summary= when opened (open_study)")
        if rate:
            raise ValueError("rate: a study's channels have their own rates")
        return _warplab.study_find_patterns(source, channel, seizures, int(epoch), int(stride), int(band), quality,
                                            int(top), backend, kernel or "", int(threads), devices,
                                            _progress(progress, "find_patterns"), freq_band, int(freq_band_order))
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
                                      quality, int(top), backend, kernel or "", int(threads), devices,
                                      _progress(progress, "find_patterns"), freq_band, int(freq_band_order))
    return _warplab.find_patterns(source, channel, seizures, annotation, _path_or_none(summary), float(rate),
                                  int(epoch), int(stride), int(band), quality, int(top), backend, kernel or "",
                                  int(threads), devices, _progress(progress, "find_patterns"), freq_band,
                                  int(freq_band_order))


def open_study(path, *, summary=None, annotation=None, recursive=False):
    """Open a study: the recordings of one subject, as ``warplab-cli`` and the GUI open them.

    Parameters
    ----------
    path : str / PathLike, or list of them
        A folder of EDF/EDF+/BDF files, a CHB-MIT ``chbNN-summary.txt`` (its files looked up
        beside it, its seizures taken), one recording, or a list of recording files.
    summary : path, optional
        A CHB-MIT summary whose seizures apply to a folder or list study.
    annotation : str, optional
        EDF+ annotations whose text contains this (any case) become seizures.
    recursive : bool
        A folder: also look into its sub-folders.

    Only headers are read; samples are read on demand. Returns a :class:`Study` with ``path``,
    ``source`` ("folder", "summary", "list"), ``recordings`` (dicts: name, path, status "ok" /
    "missing" / "damaged", error, start, offset_seconds from the study start, duration,
    channels), ``channels`` (names matched across recordings), ``rates``, ``seizures``
    ((recording name, start s, end s, source) from each recording's start), ``gaps`` (seconds
    between consecutive recordings), ``warnings`` and ``read(recording, channel, start=0,
    stop=None)``. Pass it to :func:`find_patterns`.
    """
    if isinstance(path, (list, tuple)):
        target = [_os.fsdecode(_os.fspath(p)) for p in path]
    else:
        target = _os.fsdecode(_os.fspath(path))
    return _warplab.open_study(target, _path_or_none(summary), annotation, bool(recursive))


def kernels():
    """The compute kernels of this build, as ``warplab-cli bench`` lists them.

    Returns
    -------
    list of dict, one per kernel: ``name`` (what ``kernel=`` takes, e.g. "cpu.simd",
    "cuda.shuffle"), ``backend`` ("cpu", "cuda", "hip"), ``description``, ``metrics`` (the
    metric names it computes), ``available`` (False where it cannot run here: no GPU, an
    instruction set this CPU lacks) and ``unavailable_reason`` (why, "" when available).
    """
    return _warplab.kernels()


def devices():
    """The GPUs this process can use, as ``devices=`` numbers them.

    Returns
    -------
    list of dict: ``index`` and ``name``. Empty without a GPU backend in this build or without
    a usable device; ``warplab._warplab.gpu_unavailable_reason()`` then says why.
    """
    return _warplab.devices()


_BENCH_FIELDS = [("kernel", "U40"), ("metric", "U12"), ("length", "<i8"), ("pairs", "<i8"), ("band", "<i8"),
                 ("median_s", "<f8"), ("cells_per_s", "<f8"), ("distances_per_s", "<f8"),
                 ("max_rel_error", "<f8"), ("joules_per_distance", "<f8"), ("mean_power_w", "<f8"),
                 ("distances_per_ms_per_w", "<f8"), ("energy_j", "<f8"), ("energy_window_s", "<f8"),
                 ("energy_note", "U120"), ("note", "U200")]


def bench(metric="dtw", *, kernels="all", lengths=(128, 512, 1024), pairs=4096, series=0, repeats=5, band=0,
          gamma=1.0, nu=0.001, lam=1.0, cost="sq", znorm=False, sqrt=False, threads=0, engine_timing=True,
          device_timing=True, queries=512, reference_length=100000, top=5, devices=None, as_array=False,
          progress=None):
    """Time the kernels as plain ``warplab-cli bench`` does, each checked against the reference.

    Every kernel (``kernels``: "all", a name or a list of names of :func:`kernels`) is timed on
    the same random series of each of ``lengths``: a block of about ``pairs`` distances, or
    with ``series`` > 0 all pairs of that many series; the median of ``repeats`` runs. Kernels
    that cannot run here give a row whose ``note`` says why. Where a GPU is present its kernels
    are also timed on the device alone ("<kernel>@device" rows, ``device_timing``). For
    ``metric="sdtw"``: ``queries`` random queries of each length searched in a reference of
    ``reference_length`` samples, ``top`` matches each, on ``devices``.

    Returns
    -------
    list of dict (the keys of ``warplab-cli bench --json``'s rows: kernel, metric, length,
    pairs, band, median_s, cells_per_s, distances_per_s, max_rel_error, the energy figures
    (None where not measured) and their note, note), or with ``as_array=True`` a structured
    ndarray of the same fields (NaN for figures not measured). The device line the CLI prints
    first is the ``device`` attribute of the list / the array's ``dtype.metadata``.
    """
    import numpy as np
    names = [kernels] if isinstance(kernels, str) else list(kernels)
    names = [] if names == ["all"] else names
    device, rows = _warplab.bench(metric, int(band), float(gamma), float(nu), float(lam), cost, bool(znorm),
                                  bool(sqrt), names, [int(n) for n in lengths], int(pairs), int(series),
                                  int(repeats), int(threads), bool(engine_timing), bool(device_timing),
                                  int(queries), int(reference_length), int(top), devices,
                                  _progress(progress, "bench"))
    if as_array:
        dtype = np.dtype(_BENCH_FIELDS, metadata={"device": device})
        return np.array([tuple(np.nan if r[f] is None else r[f] for f, _ in _BENCH_FIELDS) for r in rows],
                        dtype=dtype)
    return _BenchRows(rows, device)


class _BenchRows(list):
    """The rows of :func:`bench`, with the ``device`` the CLI prints above its table."""

    def __init__(self, rows, device):
        super().__init__(rows)
        self.device = device


def read_events(path, *, recording=None):
    """Seizure events of a file, as ``warplab-cli score`` reads its ``--reference``.

    ``path`` is a BIDS events table (``*_events.tsv``: onset, duration[, eventType]; rows whose
    eventType does not start with "sz" are background), a CHB-MIT summary (``recording`` names
    the entry), an EDF+ file whose annotations name seizures, or a regions file.

    Returns
    -------
    (events, duration, source): ``events`` a list of (start, end) in seconds, ``duration`` the
    recording's length when the file says it (else None), ``source`` the kind of file.
    """
    return _warplab.read_reference(_path_or_none(path), _path_or_none(recording) or "")


def score(reference, hypothesis, duration=None, *, recording=None, tolerance_before=30.0, tolerance_after=60.0,
          merge_gap=90.0, max_event=300.0, min_overlap=0.0, sample_rate=1.0):
    """SzCORE's event- and sample-based scores of detections, as ``warplab-cli score --json``.

    Parameters
    ----------
    reference, hypothesis : path or list of (start, end)
        The marked seizures and the detections: files as :func:`read_events` reads them, or
        lists of spans in seconds from the recording start.
    duration : float, optional
        The recording's length in seconds; default: from ``recording`` (a path), else from the
        files.
    tolerance_before, tolerance_after, merge_gap, max_event, min_overlap, sample_rate
        SzCORE's rules, with its defaults (seconds; ``min_overlap`` a fraction; Hz).

    Returns
    -------
    dict with "event" and "sample" (each: tp, fp, reference_events, sensitivity, precision, f1,
    fp_per_day; None where undefined), "duration_s", and "seizures" (onset_s, duration_s,
    detected, latency_s per marked seizure).
    """
    known = []

    def spans(value):
        if isinstance(value, (str, bytes, _os.PathLike)):
            events, length, _ = read_events(value, recording=recording)
            known.append(length)
            return events
        return [(float(a), float(b)) for a, b in value]

    ref, hyp = spans(reference), spans(hypothesis)
    if duration is None and recording is not None and _os.path.isfile(_os.fspath(recording)):
        duration = open_recording(recording).duration
    if duration is None:
        duration = next((d for d in known if d is not None), None)
    if duration is None:
        raise ValueError("duration: neither input says how long the recording is: give duration= or recording=")
    return _warplab.score(ref, hyp, float(duration), float(tolerance_before), float(tolerance_after),
                          float(merge_gap), float(max_event), float(min_overlap), float(sample_rate))


def detect(detector, recording, *, events_out=None, backend="auto", threads=0, devices=None):
    """Apply a detector file (``warplab-cli detect --save``, :meth:`Detector.save`) to a recording:
    ``Detector.load(detector).apply(recording, ...)``.

    Returns
    -------
    list of (onset, duration, confidence) in seconds, one per detected event; with ``events_out``
    they are also written there as a BIDS events table that :func:`score` reads.
    """
    return Detector.load(detector).apply(recording, events_out=events_out, backend=backend, threads=threads,
                                         devices=devices)

"""The seizure detector and its cross-validation, as ``warplab-cli detect`` and ``warplab-cli
crossval`` build, save, apply and score it (the same engine, file and JSON)."""
import os as _os

from . import _warplab

_FOLDS = ("seizure", "recording")


def _path(value, name):
    if isinstance(value, (str, bytes, _os.PathLike)):
        return _os.fsdecode(_os.fspath(value))
    raise TypeError(f"{name}: give a path, not {type(value).__name__}")


def _study(source):
    """A Study as it is; a Recording, a path (folder, CHB-MIT summary, one recording) or a list of
    paths opened as one."""
    if isinstance(source, _warplab.Study):
        return source
    from . import open_study
    if isinstance(source, _warplab.Recording):
        return open_study(source.path)
    if isinstance(source, (list, tuple)):
        return open_study(source)
    return open_study(_path(source, "study"))


def _seizures(study, seizures):
    """(recording, start, end) triples as they are; for a study of one recording, (start, end)
    pairs of that recording too."""
    if seizures is None or len(study) != 1:
        return seizures
    return [(0, *s) if len(s) == 2 else s for s in seizures]


def _operating_point(value):
    """"youden", "fpr:0.01", or a number (a target false-positive rate)."""
    if isinstance(value, bool):
        raise TypeError("operating_point: give \"youden\", \"fpr:RATE\" or a rate, not a bool")
    if isinstance(value, (int, float)):
        return f"fpr:{float(value)!r}"
    if not isinstance(value, str):
        raise TypeError(f"operating_point: give \"youden\", \"fpr:RATE\" or a rate, not {type(value).__name__}")
    return value


def _options(channel, seizures, epoch, stride, band, top, operating_point, votes, min_epochs, event_gap,
             skip_missing, freq_band):
    return {"channel": channel, "seizures": seizures, "epoch": int(epoch), "stride": int(stride), "band": int(band),
            "top": int(top), "operating_point": _operating_point(operating_point), "votes": int(votes),
            "min_epochs": int(min_epochs), "event_gap": float(event_gap), "skip_missing": bool(skip_missing),
            "freq_band": freq_band}


class Detector:
    """A seizure detector: the top patterns of a study's ranking, each with a distance threshold.

    An epoch of a recording (``epoch`` samples, every ``stride``) gets a vote from each pattern
    whose band DTW distance to it lies within the pattern's threshold; with at least ``votes``
    votes it is positive; positive epochs closer than ``event_gap`` seconds form one event, kept
    when it holds ``min_epochs`` positive epochs. Build one with :meth:`build`, read one with
    :meth:`load` (a file of ``warplab-cli detect --save`` or :meth:`save`).

    Properties (read-only): ``channels``, ``rate`` (Hz), ``epoch``, ``stride``, ``band`` (the
    Sakoe-Chiba band), ``freq_band`` (the frequency band the channels are filtered to, or None),
    ``operating_point``, ``rule`` (dict: votes, min_epochs, event_gap) and ``patterns`` (dicts:
    channel, threshold, quality, training_tpr, training_fpr, recording, start_s, samples).
    """

    __slots__ = ("_impl",)

    def __init__(self, impl):
        if not isinstance(impl, _warplab._Detector):
            raise TypeError("Detector: use Detector.build(...) or Detector.load(path)")
        self._impl = impl

    @classmethod
    def build(cls, study, *, channel=None, seizures=None, epoch=1024, stride=256, band=16, top=5,
              operating_point="youden", votes=1, min_epochs=1, event_gap=0.0, freq_band=None, skip_missing=False,
              backend="auto", kernel=None, threads=0, devices=None, progress=None):
        """Build a detector from a study's seizures, as ``warplab-cli detect --study``.

        Parameters
        ----------
        study : Study, Recording, path or list of paths
            A :class:`Study` (:func:`open_study`), a :class:`Recording`, or what ``open_study``
            opens: a folder, a CHB-MIT summary, one recording, a list of recordings. Its marked
            seizures train the detector; ``seizures`` adds (recording, start, end) triples
            (seconds from that recording's start) for this call, as ``--seizures
            FILE:START-END``; for a single recording (start, end) pairs will do.
        channel : str, int or list of them, optional
            Default FP1-F7 when the study has it, else its first channel; several channels each
            give their ``top`` patterns, which vote together.
        epoch, stride, band : int
            Epoch and pattern length, their stride (samples) and the Sakoe-Chiba band of the DTW.
        top : int
            Best patterns kept per channel.
        operating_point : str or float
            Each pattern's threshold on its training ROC: ``"youden"`` (largest TPR - FPR) or
            ``"fpr:RATE"`` (a number means the same): the largest threshold whose epoch
            false-positive rate is at most RATE.
        votes, min_epochs, event_gap
            Patterns within their threshold for a positive epoch; positive epochs an event needs;
            events closer than this (seconds) are joined.
        freq_band : str or (low, high), optional
            Train on each recording's channel filtered to this band (as :func:`find_patterns`);
            the detector keeps the band and filters the recordings it sweeps the same way.
        skip_missing : bool
            Go on without the study's missing or damaged recordings (default: ValueError).
        progress : None, True or callable
            As for :func:`distance_matrix`.
        """
        st = _study(study)
        opts = _options(channel, _seizures(st, seizures), epoch, stride, band, top, operating_point, votes, min_epochs, event_gap,
                        skip_missing, freq_band)
        from . import _progress
        return cls(_warplab.detector_build(st, opts, backend, kernel or "", int(threads), devices,
                                           _progress(progress, "detector")))

    @classmethod
    def load(cls, path):
        """Read a detector file (``warplab-cli detect --save``, :meth:`save`); a damaged file, another
        format or a newer version raises ValueError naming the file and the field."""
        return cls(_warplab.detector_load(_path(path, "path")))

    def save(self, path):
        """Write the detector as the versioned JSON file ``warplab-cli detect --detector`` reads."""
        self._impl.save(_path(path, "path"))

    def apply(self, recording, *, events_out=None, backend="auto", threads=0, devices=None, progress=None):
        """Sweep a recording (a path or a :class:`Recording`), as ``warplab-cli detect --apply``.

        Returns
        -------
        list of (onset, duration, confidence) in seconds, one per detected event; with
        ``events_out`` they are also written there as the BIDS events table ``detect --apply``
        writes (:func:`score` reads it). A recording without one of the detector's channels or
        at another rate raises ValueError naming the file and the channel or rate.
        """
        if isinstance(recording, _warplab.Recording):
            recording = recording.path
        from . import _progress
        events, _ = _warplab.detector_apply(self._impl, _path(recording, "recording"),
                                            "" if events_out is None else _path(events_out, "events_out"), backend,
                                            int(threads), devices, _progress(progress, "detect"))
        return events

    channels = property(lambda self: self._impl.channels, doc="channel labels, in pattern order")
    rate = property(lambda self: self._impl.rate, doc="sampling rate, Hz")
    epoch = property(lambda self: self._impl.epoch, doc="epoch and pattern length, samples")
    stride = property(lambda self: self._impl.stride, doc="epoch stride, samples")
    band = property(lambda self: self._impl.band, doc="Sakoe-Chiba band of the DTW")
    freq_band = property(lambda self: self._impl.freq_band, doc="frequency band the channels are filtered to, or None")
    operating_point = property(lambda self: self._impl.operating_point, doc="\"youden\" or \"fpr:RATE\"")
    rule = property(lambda self: self._impl.rule, doc="dict: votes, min_epochs, event_gap")
    patterns = property(lambda self: self._impl.patterns,
                        doc="dicts: channel, threshold, quality, training_tpr, training_fpr, recording, start_s, samples")

    def __eq__(self, other):
        if not isinstance(other, Detector):
            return NotImplemented
        return self._impl.equals(other._impl)

    __hash__ = None

    def __repr__(self):
        return repr(self._impl)


def crossval(study, *, channel=None, seizures=None, folds="seizure", epoch=1024, stride=256, band=16, top=5,
             operating_point="youden", votes=1, min_epochs=1, event_gap=0.0, freq_band=None, skip_missing=False,
             tolerance_before=30.0, tolerance_after=60.0, merge_gap=90.0, max_event=300.0, min_overlap=0.0,
             sample_rate=1.0, backend="auto", kernel=None, threads=0, devices=None, progress=None):
    """Leave-one-out cross-validation of the detector over a study, as ``warplab-cli crossval``.

    For each held-out recording a detector is built from the other recordings only (the options
    of :meth:`Detector.build`), applied to it and scored with SzCORE's rules (the options of
    :func:`score`). ``folds="seizure"`` holds out each recording with a seizure;
    ``"recording"`` every recording, seizure-free ones too (they can only add false alarms).
    Needs seizures in at least two recordings (ValueError naming "seizures" otherwise).

    Returns
    -------
    dict, the JSON of ``warplab-cli crossval --json``: fold_kind, folds (recording, duration_s,
    training, event, sample, seizures), the pooled event and sample scores, tested_s, study_s.
    """
    if folds not in _FOLDS:
        raise ValueError(f"folds: \"seizure\" or \"recording\", not {folds!r}")
    st = _study(study)
    opts = _options(channel, _seizures(st, seizures), epoch, stride, band, top, operating_point, votes, min_epochs, event_gap,
                    skip_missing, freq_band)
    scoring = {"tolerance_before": float(tolerance_before), "tolerance_after": float(tolerance_after),
               "merge_gap": float(merge_gap), "max_event": float(max_event), "min_overlap": float(min_overlap),
               "sample_rate": float(sample_rate)}
    from . import _progress
    return _warplab.crossval(st, opts, folds, scoring, backend, kernel or "", int(threads), devices,
                             _progress(progress, "crossval"))

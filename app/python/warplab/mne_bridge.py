"""MNE-Python objects as WarpLab inputs: an ``mne.io.Raw`` opened as a recording, its
annotations as seizures, and seizures back to ``mne.Annotations``. MNE is imported only
when an MNE object is met."""
import numpy as np

# MNE keeps volts; EDF recordings (and WarpLab's views of them) speak in their header's unit.
_TO_UNIT = {"V": 1.0, "mV": 1e3, "uV": 1e6, "µV": 1e6, "nV": 1e9}


def is_raw(obj):
    return type(obj).__module__.startswith("mne") and hasattr(obj, "get_data") and hasattr(obj, "info")


class MneRecording:
    """A ``mne.io.Raw`` with the interface of :class:`warplab.Recording`: ``channels``,
    ``rates``, ``annotations`` (seconds from the first sample), ``duration`` and ``read``
    (samples in the unit the file had, microvolts for EEG read from EDF)."""

    def __init__(self, raw):
        self.raw = raw
        self.path = (raw.filenames[0] if getattr(raw, "filenames", None) else "") or ""
        self.format = "mne"
        self.channels = list(raw.ch_names)
        self.rates = [float(raw.info["sfreq"])] * len(self.channels)
        self.duration = raw.n_times / raw.info["sfreq"]
        orig = getattr(raw, "_orig_units", None) or {}
        self._scale = [_TO_UNIT.get(orig.get(ch, "V"), 1.0) if orig else 1e6 for ch in self.channels]
        ann = raw.annotations
        offset = raw.first_time if ann.orig_time is not None else 0.0
        self.annotations = [(float(o) - offset, float(d), str(t))
                            for o, d, t in zip(ann.onset, ann.duration, ann.description)]

    def _index(self, channel):
        if isinstance(channel, (int, np.integer)):
            if not 0 <= channel < len(self.channels):
                raise ValueError(f"{self.path}: channel: no channel with index {channel}")
            return int(channel)
        if isinstance(channel, str) and channel.startswith("#") and channel[1:].isdigit():
            return self._index(int(channel[1:]))
        if channel not in self.channels:
            raise ValueError(f'{self.path}: channel: no channel "{channel}"')
        return self.channels.index(channel)

    def read(self, channel, start=0, stop=None):
        i = self._index(channel)
        stop = self.raw.n_times if stop is None else stop
        if not 0 <= start <= stop <= self.raw.n_times:
            raise ValueError(f"{self.path}: read: samples {start}:{stop} are not inside the channel's "
                             f"0:{self.raw.n_times}")
        data = self.raw.get_data(picks=[i], start=start, stop=stop)[0] * self._scale[i]
        return data.astype(np.float32)

    def seizures(self, text):
        """(start, end) seconds of the annotations whose description contains `text` (any case)."""
        t = text.lower()
        return [(o, o + d) for o, d, desc in self.annotations if t in desc.lower()]


def to_annotations(seizures, description="seizure", orig_time=None):
    """``mne.Annotations`` of (start, end) second pairs."""
    import mne
    spans = np.asarray(seizures, dtype=float).reshape(-1, 2)
    return mne.Annotations(onset=spans[:, 0], duration=spans[:, 1] - spans[:, 0],
                           description=[description] * len(spans), orig_time=orig_time)

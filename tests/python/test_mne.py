"""An MNE Raw of the bundled EDF: the same samples as WarpLab's reader and the same pattern
ranking as warplab-cli patterns; seizures to mne.Annotations."""
import numpy as np
import pytest

import warplab
from conftest import cli

mne = pytest.importorskip("mne")
mne.set_log_level("ERROR")


def test_raw_reads_like_the_recording(sample_path):
    raw = mne.io.read_raw_edf(sample_path, preload=False)
    rec = warplab.open_recording(raw)
    edf = warplab.open_recording(sample_path)
    assert rec.channels[:5] == edf.channels[:5] and rec.rates[0] == edf.rates[0]
    assert np.array_equal(rec.read("FP1-F7", 1000, 3000), edf.read("FP1-F7", 1000, 3000))
    assert [a for a in rec.annotations if "seizure" in a[2]] == [a for a in edf.annotations if "seizure" in a[2]]
    with pytest.raises(ValueError, match='no channel "XX"'):
        rec.read("XX")


def test_raw_pattern_ranking_equals_cli(sample_path):
    p = cli("patterns", "--recording", sample_path, "--annotation", "seizure")
    rows = np.loadtxt(p.stdout.splitlines()[1:], delimiter=",")
    got = warplab.find_patterns(mne.io.read_raw_edf(sample_path, preload=True), annotation="seizure")
    assert len(got) == len(rows) > 30  # every pattern of the 40 s seizure
    assert np.array_equal(got["pattern_index"], rows[:, 2].astype(int))
    np.testing.assert_allclose(got["quality"], rows[:, 1], rtol=1e-15)


def test_seizures_to_annotations():
    ann = warplab.mne_bridge.to_annotations([(42.0, 82.0), (100.0, 110.5)])
    assert list(ann.onset) == [42.0, 100.0] and list(ann.duration) == [40.0, 10.5]
    assert list(ann.description) == ["seizure", "seizure"]

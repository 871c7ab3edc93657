"""open_study on the real CHB-MIT excerpts (a two-file study), find_patterns over it equal to
`warplab-cli patterns --study`, mne.Epochs as sets of series, bench() as plain `warplab-cli
bench`, and what kernels()/devices() tell."""
import csv
import io
import os

import numpy as np
import pytest

import warplab
from conftest import DATA, cli

SEIZURE_FILE = "chb01_03_Seizure.edf"
CALM_FILE = "chb01_03_NonSeizure.edf"


@pytest.fixture
def chbmit():
    folder = os.path.join(DATA, "chbmit")
    if not os.path.exists(os.path.join(folder, SEIZURE_FILE)):
        pytest.fail(f"{folder}: the CHB-MIT excerpts are not there (tests/data)")
    return folder


def test_folder_study_recordings_channels_and_samples(chbmit):
    study = warplab.open_study(chbmit)
    assert study.source == "folder" and len(study) == 2
    names = [r["name"] for r in study.recordings]
    assert names == [CALM_FILE, SEIZURE_FILE]  # by start time: 13:43:04, then 14:32:59
    assert [r["status"] for r in study.recordings] == ["ok", "ok"]
    assert study.recordings[0]["start"] == "2076-11-06T13:43:04"
    assert study.recordings[1]["offset_seconds"] == 2995.0
    assert [r["duration"] for r in study.recordings] == [41.0, 41.0]
    assert study.gaps == [2995.0 - 41.0]
    assert len(study.channels) == 23 and "T8-P8 (2)" in study.channels
    assert study.rates == [256.0] * 23
    assert study.seizures == []  # a folder of plain EDF files marks none
    # The study reads what the recording reads.
    rec = warplab.open_recording(os.path.join(chbmit, SEIZURE_FILE))
    np.testing.assert_array_equal(study.read(SEIZURE_FILE, "FP1-F7", 256, 1256), rec.read("FP1-F7", 256, 1256))
    np.testing.assert_array_equal(study.read(1, 0), rec.read(0))
    # A list study of the same files is the same study.
    listed = warplab.open_study([os.path.join(chbmit, SEIZURE_FILE), os.path.join(chbmit, CALM_FILE)])
    assert listed.source == "list" and [r["name"] for r in listed.recordings] == names


def test_summary_study_lists_its_files_and_seizures(chbmit):
    study = warplab.open_study(os.path.join(chbmit, "chb01-summary.txt"))
    assert study.source == "summary" and len(study) == 42
    assert all(r["status"] == "missing" for r in study.recordings)  # none of its hour files is here
    assert len(study.seizures) == 7
    assert study.seizures[0][:3] == ("chb01_03.edf", 2996.0, 3036.0)


def test_study_errors_name_the_file_and_field(chbmit, tmp_path):
    with pytest.raises(FileNotFoundError, match="study: no such file"):
        warplab.open_study(tmp_path / "absent")
    with pytest.raises(ValueError, match="no EDF|no recording|EDF"):
        warplab.open_study(tmp_path)
    study = warplab.open_study(chbmit)
    with pytest.raises(ValueError, match='channel: no recording of the study has a channel "XX"'):
        study.read(0, "XX")
    with pytest.raises(ValueError, match='recording: the study has no recording "nope.edf"'):
        warplab.find_patterns(study, seizures=[("nope.edf", 1, 41)])
    with pytest.raises(ValueError, match="annotation: a study takes"):
        warplab.find_patterns(study, annotation="seizure")


def test_find_patterns_on_a_study_equals_the_cli(chbmit):
    args = ["--epoch", 256, "--stride", 128, "--band", 8, "--top", 10]
    p = cli("patterns", "--study", chbmit, "--channel", "FP1-F7", "--seizures", f"{SEIZURE_FILE}:1-41", *args)
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    study = warplab.open_study(chbmit)
    got = warplab.find_patterns(study, channel="FP1-F7", seizures=[(SEIZURE_FILE, 1, 41)], epoch=256, stride=128,
                                band=8, top=10)
    assert len(got) == len(rows) == 10
    assert [int(r["pattern_index"]) for r in rows] == got["pattern_index"].tolist()
    np.testing.assert_allclose(got["quality"], [float(r["quality"]) for r in rows], rtol=1e-15)
    np.testing.assert_allclose(got["start_seconds"], [float(r["start_seconds"]) for r in rows], rtol=1e-15)
    assert got["recording"].tolist() == [r["recording"] for r in rows]
    assert got["clock_time"].tolist() == [r["clock_time"] for r in rows]
    assert set(got["recording"]) == {SEIZURE_FILE}  # patterns are cut from the seizure only
    # The seizures were for that call only: the study object is as opened.
    assert study.seizures == []
    with pytest.raises(ValueError):
        warplab.find_patterns(study, channel="FP1-F7", epoch=256, stride=128)  # no seizure at all


def test_find_patterns_on_a_study_in_a_band_equals_the_cli(chbmit):
    # Each recording's channel filtered on its own, as warplab-cli patterns --study --freq-band.
    args = ["--epoch", 256, "--stride", 128, "--band", 8, "--top", 10, "--freq-band", "theta"]
    p = cli("patterns", "--study", chbmit, "--channel", "FP1-F7", "--seizures", f"{SEIZURE_FILE}:1-41", *args)
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    study = warplab.open_study(chbmit)
    common = dict(channel="FP1-F7", seizures=[(SEIZURE_FILE, 1, 41)], epoch=256, stride=128, band=8, top=10)
    got = warplab.find_patterns(study, freq_band="theta", **common)
    assert len(got) == len(rows) == 10
    assert [int(r["pattern_index"]) for r in rows] == got["pattern_index"].tolist()
    np.testing.assert_allclose(got["quality"], [float(r["quality"]) for r in rows], rtol=1e-15)
    raw = warplab.find_patterns(study, **common)
    assert not np.array_equal(raw["quality"], got["quality"])
    with pytest.raises(ValueError, match="alfa"):
        warplab.find_patterns(study, freq_band="alfa", **common)
    assert study.seizures == []


def test_mne_epochs_are_sets_of_series(chbmit):
    mne = pytest.importorskip("mne")
    raw = mne.io.read_raw_edf(os.path.join(chbmit, SEIZURE_FILE), preload=True, verbose="error")
    epochs = mne.make_fixed_length_epochs(raw, duration=2.0, preload=True, verbose="error")
    n = len(epochs)
    data = epochs.get_data() * 1e6  # epochs x channels x samples, microvolts
    # One channel: each epoch that channel's series.
    one = warplab.distance_matrix(epochs, metric="cdtw", band=16, channel="FP1-F7")
    idx = epochs.ch_names.index("FP1-F7")
    np.testing.assert_array_equal(one, warplab.distance_matrix(data[:, idx, :], metric="cdtw", band=16))
    assert one.shape == (n, n)
    # The series are the recording's samples (WarpLab's EDF reader, microvolts), within float32 rounding.
    rec = warplab.open_recording(os.path.join(chbmit, SEIZURE_FILE))
    np.testing.assert_allclose(warplab.mne_bridge.epochs_series(epochs, "FP1-F7")[1], rec.read("FP1-F7", 512, 1024),
                               rtol=1e-5, atol=1e-3)
    # All channels: each epoch a multichannel series (samples x channels).
    multi = warplab.distance_matrix(epochs[:4], metric="dtw")
    expected = warplab.distance_matrix(np.ascontiguousarray(np.transpose(data[:4], (0, 2, 1))), metric="dtw")
    np.testing.assert_array_equal(multi, expected)
    assert multi[0, 1] > one[0, 1]  # 23 channels cost more than one
    # Epochs against arrays, and soft-DTW of epoch pairs.
    cross = warplab.distance_matrix(epochs[:3], data[:2, idx, :], channel=idx)
    assert cross.shape == (3, 2)
    values, grads = warplab.soft_dtw(epochs[:2], epochs[2:4], gamma=1.0)
    assert values.shape == (2,) and grads.shape == (2, data.shape[2], data.shape[1])
    with pytest.raises(ValueError, match='channel: the epochs have no channel "XX"'):
        warplab.distance_matrix(epochs, channel="XX")


def test_bench_rows_as_the_cli_gives_them(tmp_path):
    rows = warplab.bench("cdtw", band=8, kernels=["cpu.reference", "cpu.simd"], lengths=[64], pairs=64, repeats=1)
    out = tmp_path / "b.json"
    cli("bench", "--metric", "cdtw", "--band", 8, "--kernels", "cpu.reference,cpu.simd", "--lengths", 64,
        "--pairs", 64, "--repeats", 1, "--json", out)
    import json
    theirs = json.loads(out.read_text())
    assert rows.device == theirs["device"]
    assert [(r["kernel"], r["length"], r["pairs"], r["band"]) for r in rows] == \
        [(r["kernel"], r["length"], r["pairs"], r["band"]) for r in theirs["rows"]]
    assert set(rows[0]) == set(theirs["rows"][0])
    for r in rows:
        assert r["median_s"] > 0 and r["distances_per_s"] > 0
        assert r["max_rel_error"] <= 1e-5  # checked against the reference
    table = warplab.bench("dtw", kernels="cpu.simd", lengths=[32, 48], pairs=16, repeats=1, as_array=True)
    assert table.dtype.names[:3] == ("kernel", "metric", "length")
    assert table["length"].tolist() == [32, 48] and (table["kernel"] == "cpu.simd").all()
    assert table.dtype.metadata["device"] == rows.device
    # A kernel that cannot run gives a row that says why, as in the CLI's table.
    (unknown,) = warplab.bench("dtw", kernels="no.such", lengths=[32], pairs=4, repeats=1)
    assert unknown["note"] == "no kernel of this name" and unknown["median_s"] == 0


def test_kernels_and_devices_say_what_can_run():
    ks = warplab.kernels()
    names = [k["name"] for k in ks]
    assert "cpu.reference" in names
    for k in ks:
        assert set(k) == {"name", "backend", "description", "metrics", "available", "unavailable_reason"}
        assert k["available"] == (k["unavailable_reason"] == "")
    for d in warplab.devices():
        assert set(d) == {"index", "name"}
    if not warplab.devices():
        assert warplab._warplab.gpu_unavailable_reason() != ""
    assert "kernel=" in warplab.kernels.__doc__ and "devices=" in warplab.devices.__doc__

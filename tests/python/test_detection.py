"""score(), read_events() and detect(): the figures of timescoring (tests/data/scoring), the
same JSON as ``warplab-cli score --json``, and a detector built by the CLI applied from Python."""
import json
import math
import os

import pytest

import warplab
from conftest import DATA, cli


def _cases():
    with open(os.path.join(DATA, "scoring", "timescoring_cases.json")) as f:
        return json.load(f)["cases"]


def test_score_equals_timescoring():
    compared = 0
    for case in _cases():
        o = case.get("options", {})
        got = warplab.score(case["reference"], case["hypothesis"], case["duration"],
                            tolerance_before=o.get("tolerance_before", 30), tolerance_after=o.get("tolerance_after", 60),
                            merge_gap=o.get("merge_gap", 90), max_event=o.get("max_event", 300),
                            min_overlap=o.get("min_overlap", 0), sample_rate=o.get("sample_hz", 1))
        for kind in ("event", "sample"):
            assert got[kind] == case["expected"][kind], (case["name"], kind)
        compared += 1
    assert compared >= 100


def test_score_files_as_the_cli(tmp_path):
    ref = tmp_path / "ref_events.tsv"
    hyp = tmp_path / "hyp_events.tsv"
    ref.write_text("onset\tduration\teventType\trecordingDuration\n100\t60\tsz\t3600\n")
    hyp.write_text("onset\tduration\n80\t10\n2000\t5\n")
    got = warplab.score(ref, hyp)
    want = json.loads(cli("score", "--reference", ref, "--hypothesis", hyp, "--json").stdout)
    assert got == want
    assert got["event"]["tp"] == 1 and got["event"]["fp"] == 1
    assert got["seizures"][0]["latency_s"] == -20
    events, duration, source = warplab.read_events(ref)
    assert events == [(100.0, 160.0)] and duration == 3600 and source == "events table"
    assert warplab.score([], [], 60)["event"]["sensitivity"] is None
    with pytest.raises(ValueError, match="duration"):
        warplab.score([(1, 2)], [(1, 2)])


def test_detect_from_python(tmp_path, sample_path):
    det = tmp_path / "fp1.json"
    cli("detect", "--study", os.path.join(DATA, "chbmit"), "--seizures", "chb01_03_Seizure.edf:1-41", "--top", "2",
        "--save", det, "--backend", "cpu")
    out = tmp_path / "sample_events.tsv"
    events = warplab.detect(det, sample_path, events_out=out, backend="cpu")
    want = cli("detect", "--detector", det, "--apply", sample_path, "--backend", "cpu").stdout
    assert out.read_text() == want
    assert all(d > 0 and 0 < c <= 1 for _, d, c in events)
    scores = warplab.score(sample_path, out)
    assert scores["duration_s"] == 82
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(ValueError, match="format"):
        warplab.detect(bad, sample_path)

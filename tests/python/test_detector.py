"""warplab.Detector and warplab.crossval against warplab-cli detect and crossval on the CHB-MIT
excerpts of the test data (two 41 s recordings): the same detector built, the same file saved
and read back, the same events, the same cross-validation JSON; damaged files, other channels
and rates, and bad arguments refused by name."""
import json
import os
import time

import numpy as np
import pytest

import warplab
from conftest import DATA, cli

STUDY = os.path.join(DATA, "chbmit")
SZ, NON = "chb01_03_Seizure.edf", "chb01_03_NonSeizure.edf"
# Seizures in both recordings (each also keeps interictal epochs), so that every fold trains.
SEIZURES = [(SZ, 5, 25), (NON, 10, 25)]
SEIZURES_CLI = f"{SZ}:5-25,{NON}:10-25"


@pytest.fixture(scope="module")
def study():
    return warplab.open_study(STUDY)


def test_build_equals_cli_and_save_load_round_trip(tmp_path, study):
    before = study.seizures
    d = warplab.Detector.build(study, seizures=SEIZURES[:1], top=3, operating_point="fpr:0.2", votes=2,
                               min_epochs=2, event_gap=1.5, backend="cpu")
    assert study.seizures == before  # the added seizures were for that call only
    cli("detect", "--study", STUDY, "--seizures", f"{SZ}:5-25", "--top", "3", "--operating-point", "fpr:0.2",
        "--votes", "2", "--min-epochs", "2", "--event-gap", "1.5", "--save", tmp_path / "cli.json",
        "--backend", "cpu")
    from_cli = warplab.Detector.load(tmp_path / "cli.json")
    assert d == from_cli
    assert d.channels == ["FP1-F7"] and d.rate == 256 and (d.epoch, d.stride, d.band) == (1024, 256, 16)
    assert d.operating_point == "fpr:0.2" and d.freq_band is None
    assert d.rule == {"votes": 2, "min_epochs": 2, "event_gap": 1.5}
    assert len(d.patterns) == 3
    for p in d.patterns:
        assert p["channel"] == "FP1-F7" and p["recording"] == SZ and 5 <= p["start_s"] <= 21
        assert p["samples"].dtype == np.float32 and p["samples"].shape == (1024,)
        assert p["training_fpr"] <= 0.2 and 0 <= p["training_tpr"] <= 1 and p["threshold"] > 0
    # The ranking's best patterns, as find_patterns ranks them.
    ranking = warplab.find_patterns(study, seizures=SEIZURES[:1], top=3, backend="cpu")
    assert [p["start_s"] for p in d.patterns] == list(ranking["start_seconds"])
    assert [p["quality"] for p in d.patterns] == list(ranking["quality"])
    d.save(tmp_path / "py.json")
    again = warplab.Detector.load(tmp_path / "py.json")
    assert again == d and repr(again) == repr(d)
    for a, b in zip(again.patterns, d.patterns):
        assert np.array_equal(a["samples"], b["samples"]) and a["threshold"] == b["threshold"]
    # A path opens the study; another operating point gives other thresholds.
    youden = warplab.Detector.build(STUDY, seizures=SEIZURES[:1], top=3, votes=2, min_epochs=2, event_gap=1.5,
                                    backend="cpu")
    assert youden != d and youden.operating_point == "youden"
    assert warplab.Detector.build(STUDY, seizures=SEIZURES[:1], top=3, operating_point=0.2, votes=2, min_epochs=2,
                                  event_gap=1.5, backend="cpu") == d


def test_apply_equals_cli_detect(tmp_path, study, sample_path):
    d = warplab.Detector.build(study, seizures=SEIZURES[:1], top=2, backend="cpu")
    d.save(tmp_path / "d.json")
    for rec in (sample_path, os.path.join(STUDY, NON)):
        out = tmp_path / "events.tsv"
        events = d.apply(rec, events_out=out, backend="cpu")
        want = cli("detect", "--detector", tmp_path / "d.json", "--apply", rec, "--backend", "cpu").stdout
        assert out.read_text() == want
        rows = [line.split("\t") for line in want.strip().split("\n")[1:]]
        assert [(float(r[0]), float(r[1])) for r in rows] == [(a, b) for a, b, _ in events]
        seen = []
        assert d.apply(warplab.open_recording(rec), backend="cpu", progress=seen.append) == events
        assert seen[0] == 0.0 and seen[-1] == 1.0
        assert warplab.detect(tmp_path / "d.json", rec, backend="cpu") == events
    assert events  # the seizure recording's detector finds something in the other recording


def test_two_channels_vote_together(tmp_path, study, sample_path):
    d = warplab.Detector.build(study, channel=["FP1-F7", "F7-T7"], seizures=SEIZURES[:1], top=2, votes=3,
                               backend="cpu")
    assert d.channels == ["FP1-F7", "F7-T7"] and len(d.patterns) == 4
    d.save(tmp_path / "two.json")
    cli("detect", "--study", STUDY, "--seizures", f"{SZ}:5-25", "--channel", "FP1-F7", "--channel", "F7-T7",
        "--top", "2", "--votes", "3", "--save", tmp_path / "cli.json", "--backend", "cpu")
    assert warplab.Detector.load(tmp_path / "cli.json") == d
    out = tmp_path / "events.tsv"
    d.apply(sample_path, events_out=out, backend="cpu")
    assert out.read_text() == cli("detect", "--detector", tmp_path / "two.json", "--apply", sample_path,
                                  "--backend", "cpu").stdout


def test_freq_band_detector_trains_and_sweeps_filtered(tmp_path, study, sample_path):
    d = warplab.Detector.build(study, seizures=SEIZURES[:1], top=2, freq_band="alpha", backend="cpu")
    assert d.freq_band == "alpha=8-13"
    ranking = warplab.find_patterns(study, seizures=SEIZURES[:1], top=2, freq_band="alpha", backend="cpu")
    assert [p["start_s"] for p in d.patterns] == list(ranking["start_seconds"])
    assert [p["quality"] for p in d.patterns] == list(ranking["quality"])
    d.save(tmp_path / "alpha.json")
    assert warplab.Detector.load(tmp_path / "alpha.json") == d
    # The CLI sweeps the recording filtered to the detector's band too.
    out = tmp_path / "events.tsv"
    d.apply(sample_path, events_out=out, backend="cpu")
    assert out.read_text() == cli("detect", "--detector", tmp_path / "alpha.json", "--apply", sample_path,
                                  "--backend", "cpu").stdout
    # Swept unfiltered, the same patterns and thresholds vote elsewhere.
    text = json.loads((tmp_path / "alpha.json").read_text())
    text["filter"] = ""
    (tmp_path / "raw.json").write_text(json.dumps(text))
    assert warplab.Detector.load(tmp_path / "raw.json").apply(sample_path, backend="cpu") != d.apply(sample_path,
                                                                                                     backend="cpu")


@pytest.mark.parametrize("folds,options,cli_options", [
    ("seizure", {}, []),
    ("recording", {"top": 2, "votes": 2, "operating_point": "fpr:0.3", "tolerance_before": 5, "tolerance_after": 10,
                   "merge_gap": 0, "sample_rate": 4},
     ["--top", "2", "--votes", "2", "--operating-point", "fpr:0.3", "--tolerance-before", "5", "--tolerance-after",
      "10", "--merge-gap", "0", "--sample-rate", "4"]),
])
def test_crossval_equals_cli_json(study, folds, options, cli_options):
    got = warplab.crossval(study, seizures=SEIZURES, folds=folds, backend="cpu", **options)
    want = json.loads(cli("crossval", "--study", STUDY, "--seizures", SEIZURES_CLI, "--folds", folds, *cli_options,
                          "--backend", "cpu", "--json").stdout)
    assert got == want
    assert list(got) == ["fold_kind", "folds", "event", "sample", "tested_s", "study_s"]
    assert got["fold_kind"] == folds and len(got["folds"]) == 2 and got["study_s"] == 82
    for f in got["folds"]:
        assert f["training"] == [r for r in (NON, SZ) if r != f["recording"]]
    assert warplab.crossval(STUDY, seizures=SEIZURES, folds=folds, backend="cpu", **options) == got


def test_crossval_progress_and_cancel(study):
    seen = []
    warplab.crossval(study, seizures=SEIZURES, backend="cpu", progress=seen.append)
    assert seen[0] == 0.0 and seen[-1] == 1.0 and seen == sorted(seen)
    # A long job (every 16 samples, the scalar kernel on one thread) stopped by the callable.
    raised = []

    def stop(fraction):
        if fraction > 0:
            raised.append((time.monotonic(), fraction))
            raise KeyboardInterrupt

    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        warplab.crossval(study, seizures=SEIZURES, stride=16, kernel="cpu.reference", threads=1, backend="cpu",
                         progress=stop)
    assert raised and raised[0][1] < 1.0  # raised while the job ran (not at its end)
    assert time.monotonic() - raised[0][0] < 1.0
    assert study.seizures == warplab.open_study(STUDY).seizures


def test_damaged_files_other_channel_and_rate_are_refused(tmp_path, study, sample_path):
    d = warplab.Detector.build(study, seizures=SEIZURES[:1], top=2, backend="cpu")
    d.save(tmp_path / "d.json")
    good = json.loads((tmp_path / "d.json").read_text())

    def variant(name, change):
        j = json.loads(json.dumps(good))
        change(j)
        path = tmp_path / name
        path.write_text(json.dumps(j))
        return path

    truncated = tmp_path / "truncated.json"
    truncated.write_text((tmp_path / "d.json").read_text()[:500])
    with pytest.raises(ValueError, match="truncated.json.*not a detector file"):
        warplab.Detector.load(truncated)
    short = variant("short.json", lambda j: j["patterns"][1].update(samples=j["patterns"][1]["samples"][:100]))
    with pytest.raises(ValueError, match=r"short.json: patterns\[1\]"):
        warplab.Detector.load(short)
    newer = variant("newer.json", lambda j: j.update(version=99))
    with pytest.raises(ValueError, match="newer.json: version"):
        warplab.Detector.load(newer)
    band = variant("band.json", lambda j: j.update(filter="zeta"))
    with pytest.raises(ValueError, match="band.json: filter"):
        warplab.Detector.load(band)
    with pytest.raises(FileNotFoundError, match="nothere.json"):
        warplab.Detector.load(tmp_path / "nothere.json")
    other = warplab.Detector.load(variant("other.json", lambda j: [p.update(channel="T9-XX") for p in j["patterns"]]))
    with pytest.raises(ValueError, match="chb01_03_sample.edf: channel: has no channel 'T9-XX'"):
        other.apply(sample_path)
    fast = warplab.Detector.load(variant("fast.json", lambda j: j.update(rate_hz=512)))
    with pytest.raises(ValueError, match="chb01_03_sample.edf: rate: .*256 Hz, the detector at 512 Hz"):
        fast.apply(sample_path)
    with pytest.raises(FileNotFoundError, match="nothere.edf"):
        d.apply(tmp_path / "nothere.edf")


@pytest.mark.parametrize("kwargs,match", [
    ({"top": 0}, "top"),
    ({"operating_point": "best"}, "operating_point"),
    ({"operating_point": "fpr:2"}, "operating_point"),
    ({"votes": 0}, "votes"),
    ({"min_epochs": 0}, "min_epochs"),
    ({"event_gap": -1}, "event_gap"),
    ({"channel": "NOPE"}, "channel"),
    ({"channel": 99}, "channel"),
    ({"seizures": [("nothere.edf", 1, 2)]}, "recording"),
    ({"seizures": [(SZ, 1)]}, r"seizures\[0\]"),
    ({"freq_band": "zeta"}, "freq_band"),
    ({"backend": "abacus"}, "backend"),
])
def test_bad_build_arguments_are_named(study, kwargs, match):
    args = {"seizures": SEIZURES[:1], "top": 2, "backend": "cpu", **kwargs}
    with pytest.raises(ValueError, match=match):
        warplab.Detector.build(study, **args)
    with pytest.raises(ValueError, match=match):
        warplab.crossval(study, **(args if "seizures" in kwargs else {**args, "seizures": SEIZURES}))


def test_bad_crossval_arguments_are_named(study):
    with pytest.raises(ValueError, match="folds"):
        warplab.crossval(study, seizures=SEIZURES, folds="seizures")
    for key, value in (("tolerance_before", -1), ("merge_gap", -5), ("min_overlap", 1.5), ("sample_rate", 0)):
        with pytest.raises(ValueError, match=key):
            warplab.crossval(study, seizures=SEIZURES, **{key: value})
    with pytest.raises(ValueError, match="seizures in at least two recordings"):
        warplab.crossval(study, seizures=SEIZURES[:1], backend="cpu")
    with pytest.raises(FileNotFoundError, match="nothere"):
        warplab.crossval(os.path.join(STUDY, "nothere"), seizures=SEIZURES)
    with pytest.raises(TypeError, match="Detector.build"):
        warplab.Detector(None)


def test_stub_keywords_match_the_functions():
    import ast
    import inspect
    tree = ast.parse(open(os.path.join(os.path.dirname(warplab.__file__), "__init__.pyi")).read())
    stubs = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    methods = {n.name: n for n in stubs["Detector"].body if isinstance(n, ast.FunctionDef)}

    def keywords(node):
        return [a.arg for a in node.args.args + node.args.kwonlyargs if a.arg not in ("self", "cls")]

    for stub, func in ((stubs["crossval"], warplab.crossval), (methods["build"], warplab.Detector.build),
                       (methods["apply"], warplab.Detector.apply), (methods["load"], warplab.Detector.load)):
        assert keywords(stub) == [p for p in inspect.signature(func).parameters if p != "self"], stub.name
    assert inspect.getdoc(warplab.Detector.build) and inspect.getdoc(warplab.Detector.apply)


@pytest.mark.parametrize("freq_band", [None, "alpha"])
def test_a_fold_scores_what_its_detector_applied_by_hand_finds(freq_band):
    # The fold that holds out NON trains on SZ alone: the detector built on SZ alone, applied to
    # NON through the recording (the band filter of the sweep), scores as the fold (the band
    # filter of the study's segments).
    got = warplab.crossval(STUDY, seizures=SEIZURES, top=3, freq_band=freq_band, backend="cpu")
    assert got["study_s"] == 82 and got["tested_s"] == 82
    fold = next(f for f in got["folds"] if f["recording"] == NON)
    assert fold["training"] == [SZ] and fold["duration_s"] == 41
    alone = warplab.Detector.build([os.path.join(STUDY, SZ)], seizures=SEIZURES[:1], top=3, freq_band=freq_band,
                                   backend="cpu")
    # One recording: a path or a Recording, its seizures as (start, end) pairs.
    for source in (os.path.join(STUDY, SZ), warplab.open_recording(os.path.join(STUDY, SZ))):
        assert warplab.Detector.build(source, seizures=[SEIZURES[0][1:]], top=3, freq_band=freq_band,
                                      backend="cpu") == alone
    events = alone.apply(os.path.join(STUDY, NON), backend="cpu")
    scores = warplab.score([SEIZURES[1][1:]], [(a, a + d) for a, d, _ in events], fold["duration_s"])
    assert scores["event"] == fold["event"] and scores["sample"] == fold["sample"]
    assert scores["seizures"] == fold["seizures"]

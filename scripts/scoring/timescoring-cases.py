#!/usr/bin/env python3
"""Expected scores of SzCORE's reference implementation (timescoring) on hand-made and random
reference/hypothesis pairs, as JSON for tests/compute/test_scoring.cpp.

    PYTHONPATH=.peers/timescoring/src /usr/bin/python3 scripts/scoring/timescoring-cases.py \
        > tests/data/scoring/timescoring_cases.json

Needs numpy and timescoring's source (github.com/esl-epfl/timescoring, MIT licence; fetched
into the git-ignored .peers/ folder, never part of the product). Every case gives the recording
duration, both event lists in seconds, the options, and timescoring's event- and sample-based
figures (NaN as null). The random cases are seeded, so the output is the same on every run.
"""
import json
import math
import random
import sys

from timescoring.annotations import Annotation
from timescoring.scoring import EventScoring, SampleScoring

EVENT_HZ = 10  # the time resolution EventScoring works at


def figures(s):
    def num(v):
        v = float(v)
        return None if math.isnan(v) else v
    return {"tp": int(s.tp), "fp": int(s.fp), "reference_events": int(s.refTrue),
            "sensitivity": num(s.sensitivity), "precision": num(s.precision), "f1": num(s.f1),
            "fp_per_day": num(s.fpRate)}


def score(case):
    dur, ref, hyp = case["duration"], case["reference"], case["hypothesis"]
    o = case.get("options", {})
    params = EventScoring.Parameters(toleranceStart=o.get("tolerance_before", 30),
                                     toleranceEnd=o.get("tolerance_after", 60),
                                     minOverlap=o.get("min_overlap", 0),
                                     maxEventDuration=o.get("max_event", 300),
                                     minDurationBetweenEvents=o.get("merge_gap", 90))
    n = round(dur * EVENT_HZ)
    ev = EventScoring(Annotation([tuple(e) for e in ref], EVENT_HZ, n),
                      Annotation([tuple(e) for e in hyp], EVENT_HZ, n), params)
    fs = o.get("sample_hz", 1)
    m = round(dur * fs)
    sa = SampleScoring(Annotation([tuple(e) for e in ref], fs, m), Annotation([tuple(e) for e in hyp], fs, m), fs)
    out = dict(case)
    out["expected"] = {"event": figures(ev), "sample": figures(sa)}
    return out


def hand_made():
    return [
        {"name": "one hit", "duration": 3600, "reference": [[100, 160]], "hypothesis": [[120, 130]]},
        {"name": "one miss and one false alarm", "duration": 3600, "reference": [[100, 160]],
         "hypothesis": [[1000, 1010]]},
        {"name": "early detection within 30 s", "duration": 3600, "reference": [[100, 160]], "hypothesis": [[75, 80]]},
        {"name": "early detection beyond 30 s", "duration": 3600, "reference": [[100, 160]], "hypothesis": [[60, 69]]},
        {"name": "late detection within 60 s", "duration": 3600, "reference": [[100, 160]], "hypothesis": [[215, 230]]},
        {"name": "late detection beyond 60 s", "duration": 3600, "reference": [[100, 160]], "hypothesis": [[221, 230]]},
        {"name": "empty reference", "duration": 3600, "reference": [], "hypothesis": [[10, 20], [500, 520]]},
        {"name": "empty hypothesis", "duration": 3600, "reference": [[10, 20], [500, 520]], "hypothesis": []},
        {"name": "both empty", "duration": 3600, "reference": [], "hypothesis": []},
        {"name": "events at the file start", "duration": 600, "reference": [[0, 40]], "hypothesis": [[0, 5]]},
        {"name": "events at the file end", "duration": 600, "reference": [[560, 600]], "hypothesis": [[590, 600]]},
        {"name": "hypothesis past the end", "duration": 600, "reference": [[560, 600]], "hypothesis": [[610, 640]]},
        {"name": "reference merged (gap 89 s)", "duration": 3600, "reference": [[100, 150], [239, 260]],
         "hypothesis": [[240, 250]]},
        {"name": "reference kept apart (gap 90 s)", "duration": 3600, "reference": [[100, 150], [240, 260]],
         "hypothesis": [[240, 250]]},
        {"name": "hypothesis merged over a gap", "duration": 3600, "reference": [[1000, 1100]],
         "hypothesis": [[800, 850], [900, 910], [2000, 2001]]},
        {"name": "long reference split", "duration": 7200, "reference": [[100, 1000]], "hypothesis": [[150, 160]]},
        {"name": "long hypothesis split", "duration": 7200, "reference": [[100, 160]], "hypothesis": [[50, 1300]]},
        {"name": "split remainder", "duration": 7200, "reference": [[100, 700.05]], "hypothesis": [[690, 700]]},
        {"name": "touching hypotheses", "duration": 3600, "reference": [[100, 200]], "hypothesis": [[150, 160], [160, 170]]},
        {"name": "rounding halves", "duration": 100.25, "reference": [[0.25, 10.35]],
         "hypothesis": [[40.45, 40.55], [99.95, 100.25]]},
        {"name": "zero-length hypothesis", "duration": 3600, "reference": [[100, 200]], "hypothesis": [[1500, 1500]]},
        {"name": "custom tolerances", "duration": 3600, "reference": [[100, 160]], "hypothesis": [[95, 97], [170, 175]],
         "options": {"tolerance_before": 0, "tolerance_after": 5, "merge_gap": 0}},
        {"name": "min overlap", "duration": 3600, "reference": [[100, 160]], "hypothesis": [[100, 120], [1000, 1100]],
         "options": {"min_overlap": 0.2}},
        {"name": "no split, no merge", "duration": 7200, "reference": [[100, 1000], [1010, 1020]],
         "hypothesis": [[500, 510], [1015, 1016]], "options": {"max_event": 100000, "merge_gap": 0}},
        {"name": "sample rate 4 Hz", "duration": 1000.3, "reference": [[10.1, 20.2], [500.4, 520.6]],
         "hypothesis": [[15.05, 22.35]], "options": {"sample_hz": 4}},
    ]


def random_events(rng, dur, count, max_len):
    """Sorted events that never overlap (they may touch), at arbitrary times."""
    cuts = sorted(rng.uniform(0, dur) for _ in range(2 * count))
    events = []
    for a, b in zip(cuts[::2], cuts[1::2]):
        b = min(b, a + rng.uniform(0, max_len))
        # on the 0.1 s grid (where halves round to even) or between its points, to the ms
        a, b = (round(a, 1), round(b, 1)) if rng.random() < 0.3 else (round(a, 3), round(b, 3))
        if events and a < events[-1][1]:
            a = events[-1][1]
        if b >= a:
            events.append([a, b])
    return events


def random_cases(count, seed):
    rng = random.Random(seed)
    cases = []
    for k in range(count):
        dur = rng.choice([60, 600, 3600, 4 * 3600]) + rng.choice([0, 0.25, 0.55, round(rng.uniform(0, 100), 3)])
        case = {"name": f"random {k}", "duration": dur,
                "reference": random_events(rng, dur, rng.randint(0, 6), rng.choice([20, 200, 900])),
                "hypothesis": random_events(rng, dur, rng.randint(0, 25), rng.choice([5, 60, 700]))}
        if rng.random() < 0.3:
            case["options"] = {"tolerance_before": rng.choice([0, 10, 30]), "tolerance_after": rng.choice([0, 30, 60]),
                               "merge_gap": rng.choice([0, 30, 90]), "max_event": rng.choice([60, 300, 1000]),
                               "min_overlap": rng.choice([0, 0, 0.1]), "sample_hz": rng.choice([1, 2, 10])}
        cases.append(case)
    return cases


def main():
    cases = [score(c) for c in hand_made() + random_cases(150, 20260127)]
    json.dump({"generator": "scripts/scoring/timescoring-cases.py", "reference": "timescoring 0.0.7 (f984436)",
               "cases": cases}, sys.stdout, indent=None, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""The Bonn sets laid end to end as a study for `warplab-cli crossval` (not a test).

Ten recordings of 1,180 s: each holds ten blocks of one segment of each of sets A-D (Z, O, N, F;
shuffled) followed by one seizure segment of set E (S), so that seizures are 94 s apart (more
than SzCORE's 90 s merge gap). The segments are joined at 173.61 Hz, resampled to 256 Hz
(scipy's resample_poly: EDF needs whole samples per record, which 173.61 Hz cannot give under
EDFlib's 60 s record limit) and written as EDF by `warplab-cli filter` at 0.5-40 Hz (the low-pass
the data's authors call the first step of analysis). OUT/seizures.txt holds the seizures in
crossval's --seizures form.

Usage: scripts/bench/bonn_study.py BONN_DIR OUT_DIR [WARPLAB_CLI] [SEED]
then:  warplab-cli crossval --study OUT_DIR --seizures "$(cat OUT_DIR/seizures.txt)"
"""
import glob
import os
import random
import subprocess
import sys
import tempfile

import numpy as np
from scipy.signal import resample_poly

bonn, out = sys.argv[1], sys.argv[2]
cli = sys.argv[3] if len(sys.argv) > 3 else "build/app/cli/warplab-cli"
random.seed(int(sys.argv[4]) if len(sys.argv) > 4 else 7)
rate = 173.61
seizure = sorted(glob.glob(f"{bonn}/S/*"))
others = [sorted(glob.glob(f"{bonn}/{s}/*")) for s in "ZONF"]
if len(seizure) != 100 or any(len(o) != 100 for o in others):
    sys.exit(f"{bonn}: expected 100 segments in each of S, Z, O, N, F")
for o in others:
    random.shuffle(o)
random.shuffle(seizure)
os.makedirs(out, exist_ok=True)
spans = []
with tempfile.TemporaryDirectory() as tmp:
    for r in range(10):
        parts, at = [], 0
        for b in range(10):
            block = [others[k][r * 10 + b] for k in range(4)]
            random.shuffle(block)
            for f in block:
                x = np.loadtxt(f)
                parts.append(x)
                at += len(x)
            x = np.loadtxt(seizure[r * 10 + b])
            spans.append(f"bonn{r + 1:02d}.edf:{at / rate:.3f}-{(at + len(x)) / rate:.3f}")
            parts.append(x)
            at += len(x)
        # One file name for every recording: the channel's label is taken from it.
        src = os.path.join(tmp, f"{r}", "Bonn.npy")
        os.makedirs(os.path.dirname(src))
        np.save(src, resample_poly(np.concatenate(parts), 25600, 17361).astype(np.float32))
        subprocess.run([cli, "filter", "--input", src, "--rate", "256", "--freq-band", "0.5-40",
                        "--out", os.path.join(out, f"bonn{r + 1:02d}.edf")], check=True, stderr=subprocess.DEVNULL)
with open(os.path.join(out, "seizures.txt"), "w") as f:
    f.write(",".join(spans))
print(f"{out}: 10 recordings, {len(spans)} seizures")

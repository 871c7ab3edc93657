"""Opens the bundled sample recording, ranks its seizure patterns, finds where the best pattern
recurs outside the seizure, and saves a figure of the accumulated cost matrix of that pair with
its warping path.

    PYTHONPATH=build/python /usr/bin/python3 examples/find_pattern.py [recording.edf] [figure.png]
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import warplab  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
recording = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "resources", "sample",
                                                               "chb01_03_sample.edf")
figure = sys.argv[2] if len(sys.argv) > 2 else "pattern_alignment.png"

rec = warplab.open_recording(recording)
channel = "FP1-F7"
rate = rec.rates[rec.channels.index(channel)]
seizure = next((o, o + d) for o, d, text in rec.annotations if "seizure" in text.lower())
print(f"{os.path.basename(recording)}: {len(rec.channels)} channels, {rec.duration:.0f} s, "
      f"seizure {seizure[0]:.0f}-{seizure[1]:.0f} s")

# Patterns of 4 s (1,024 samples) every second, ranked by how well they separate the seizure.
ranking = warplab.find_patterns(rec, channel=channel, seizures=[seizure], top=5)
best = ranking[0]
print("best patterns:\n", ranking)
samples = rec.read(channel)
start = int(round(best["start_seconds"] * rate))
pattern = samples[start:start + 1024]

# Where the pattern recurs before the seizure: the best subsequence match, z-normalised.
before = samples[:int(seizure[0] * rate)]
match = warplab.search(pattern, before, k=1, znorm=True)[0]
recurrence = before[match["start"]:match["end"] + 1]
print(f"best recurrence before the seizure: samples {match['start']}-{match['end']}, cost {match['cost']:.4g}")

# Their alignment: every fourth sample (a 256 x n matrix shows the path clearly), z-normalised.
a, b = pattern[::4], recurrence[::4]
cost, path, matrix = warplab.align(a, b, metric="dtw", znorm=True, matrix=True)

fig = plt.figure(figsize=(8, 8))
grid = fig.add_gridspec(2, 2, width_ratios=(1, 4), height_ratios=(4, 1), wspace=0.05, hspace=0.05)
ax = fig.add_subplot(grid[0, 1])
ax.imshow(np.log1p(matrix), origin="lower", aspect="auto", cmap="viridis")
ax.plot(path[:, 1], path[:, 0], color="white", linewidth=1.5)
ax.set_title(f"DTW of pattern {best['pattern_index']} (AUC {best['quality']:.3f}) and its recurrence\n"
             f"accumulated cost (log), warping path in white; cost {cost:.4g}")
ax.set_xticks([])
ax.set_yticks([])
left = fig.add_subplot(grid[0, 0], sharey=ax)
left.plot(a, np.arange(len(a)), color="tab:red")
left.invert_xaxis()
left.set_ylabel(f"pattern, {best['start_seconds']:.0f} s (every 4th sample)")
bottom = fig.add_subplot(grid[1, 1], sharex=ax)
bottom.plot(np.arange(len(b)), b, color="tab:blue")
bottom.set_xlabel(f"recurrence at {match['start'] / rate:.1f} s (every 4th sample)")
fig.savefig(figure, dpi=100, bbox_inches="tight")
print("saved", figure)

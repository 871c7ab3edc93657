"""Ctrl-C cancels a running job within 0.5 s and leaves no partial output file; the GIL is
released while the engine works."""
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np

import warplab

CHILD = r"""
import sys, time, numpy as np, warplab
X = np.random.default_rng(0).standard_normal((1500, 1000)).astype(np.float32)
print("start", flush=True)
try:
    warplab.distance_matrix(X, metric="dtw", kernel="cpu.reference", out=sys.argv[1])
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted %.6f" % time.monotonic(), flush=True)
"""


def test_ctrl_c_cancels_distance_matrix_and_leaves_no_file(tmp_path):
    out = tmp_path / "big.npy"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(out)], stdout=subprocess.PIPE, text=True,
                             env=dict(os.environ))
    assert child.stdout.readline().strip() == "start"
    time.sleep(1.5)  # well inside the job (the whole matrix takes minutes on the reference kernel)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    line = child.stdout.readline().split()
    child.wait(timeout=10)
    assert line and line[0] == "interrupted", line
    assert float(line[1]) - sent < 0.5, f"took {float(line[1]) - sent:.3f} s"
    assert os.listdir(tmp_path) == [], os.listdir(tmp_path)  # neither the matrix nor a temporary file


def test_gil_is_released_during_a_computation():
    X = np.random.default_rng(1).standard_normal((200, 400)).astype(np.float32)
    done = threading.Event()
    ticks = 0

    def work():
        warplab.distance_matrix(X, metric="dtw", threads=1, backend="cpu")  # long enough on any machine
        done.set()

    t = threading.Thread(target=work)
    t.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    t.join()
    assert ticks > 20  # the main thread ran Python code while the matrix was computed

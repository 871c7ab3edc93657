"""Where the tests find the package, the CLI and the data (set by CTest; see CMakeLists.txt)."""
import os
import subprocess

import numpy as np
import pytest

import warplab

DATA = os.environ.get("WARPLAB_TEST_DATA", "")
CLI = os.environ.get("WARPLAB_CLI", "")
SAMPLE = os.environ.get("WARPLAB_SAMPLE", "")


def ucr(name, split="TRAIN"):
    """(labels, series float32) of a UCR set from the test data, or skip when it is absent."""
    folder = os.path.join(DATA, "ucr", name)
    for ext in (".tsv", ".txt"):
        path = os.path.join(folder, f"{name}_{split}{ext}")
        if os.path.exists(path):
            table = np.loadtxt(path, delimiter="\t" if ext == ".tsv" else None)
            return table[:, 0].astype(int), np.ascontiguousarray(table[:, 1:], dtype=np.float32)
    pytest.skip(f"{folder}: no {name}_{split} file (WARPLAB_TEST_DATA)")


def cli(*args, check=True):
    """Runs warplab-cli; returns the finished process (stdout and stderr as text)."""
    if not CLI or not os.path.exists(CLI):
        pytest.skip("warplab-cli not built (WARPLAB_CLI)")
    p = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"warplab-cli {' '.join(map(str, args))}: exit {p.returncode}: {p.stderr}")
    return p


@pytest.fixture
def sample_path():
    if not SAMPLE or not os.path.exists(SAMPLE):
        pytest.skip("the bundled sample recording is not there (WARPLAB_SAMPLE)")
    return SAMPLE


@pytest.fixture
def cpu_kernels():
    return [k for k in warplab.kernels() if k["backend"] == "cpu" and k["available"]]

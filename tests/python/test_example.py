"""examples/find_pattern.py runs on the bundled sample and saves its figure."""
import os
import subprocess
import sys

import pytest

pytest.importorskip("matplotlib")
EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "find_pattern.py")


def test_example_saves_the_figure(tmp_path, sample_path):
    figure = tmp_path / "alignment.png"
    p = subprocess.run([sys.executable, EXAMPLE, sample_path, str(figure)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "best patterns" in p.stdout and "saved" in p.stdout
    with open(figure, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    assert figure.stat().st_size > 20000

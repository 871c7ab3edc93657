"""The package's face: type stubs that parse and name every public function, docstrings on
every public function."""
import ast
import inspect
import os

import warplab


def test_stub_parses_and_covers_the_api():
    stub = os.path.join(os.path.dirname(warplab.__file__), "__init__.pyi")
    tree = ast.parse(open(stub).read())
    names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    # Re-exported from a submodule's stubs ("from .spectral import psd as psd"), each of which
    # must exist and name the function.
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            sub = os.path.join(os.path.dirname(stub), node.module + ".pyi")
            subtree = ast.parse(open(sub).read())
            defined = {n.name for n in subtree.body if isinstance(n, ast.FunctionDef)}
            defined |= {t.id for n in subtree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
            for alias in node.names:
                assert alias.asname == alias.name and alias.name in defined, (node.module, alias.name)
                names.add(alias.name)
    assert set(warplab.__all__) <= names, set(warplab.__all__) - names


def test_every_public_function_has_a_docstring():
    for name in warplab.__all__:
        obj = getattr(warplab, name)
        assert inspect.getdoc(obj), name


def test_distance_is_the_compiled_call_with_its_keywords():
    # The per-pair hot path has no Python frame; its keywords, defaults and docstring are the
    # compiled function's own, and keep the documented signature.
    assert warplab.distance is warplab._warplab.distance
    doc = warplab.distance.__doc__
    assert "band" in doc and "kernel : str, optional" in doc
    assert "metric: str = 'dtw'" in doc  # pybind11 2.10 spells the kernel Optional[str], 3.0 str | None
    assert "kernel: Optional[str] = None" in doc or "kernel: str | None = None" in doc
    x = [0.0, 1.0, 2.0]
    y = [0.0, 2.0]
    assert warplab.distance(x, y) == warplab.distance(x, y, "dtw", band=0, kernel=None, backend="auto")
    assert warplab.distance(x, y, "cdtw", band=1) == warplab.distance(a=x, b=y, metric="cdtw", band=1)
    import pytest
    with pytest.raises(TypeError):
        warplab.distance(x, y, "cdtw", 1)  # band is keyword-only, as in the stub

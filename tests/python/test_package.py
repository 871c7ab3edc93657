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
    assert set(warplab.__all__) <= names, set(warplab.__all__) - names


def test_every_public_function_has_a_docstring():
    for name in warplab.__all__:
        obj = getattr(warplab, name)
        assert inspect.getdoc(obj), name

"""What the distribution ships and declares: one version, py.typed, the licence, a typed `convert`."""
import inspect
import pathlib
import re
import tomllib
import typing

import autograph as ag
import runtime as tf

ROOT = pathlib.Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_one_version_read_by_pyproject_and_both_packages():
    project = PYPROJECT["project"]
    assert "version" in project.get("dynamic", []) and "version" not in project
    attr = PYPROJECT["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    module, _, name = attr.rpartition(".")
    text = (ROOT / (module.replace(".", "/") + ".py")).read_text()
    declared = re.search(rf'^{name} = "([^"]+)"$', text, re.M).group(1)   # what setuptools reads, statically
    assert re.fullmatch(r"\d+\.\d+\.\d+(\w+\d*)?", declared)
    assert ag.__version__ == tf.__version__ == declared


def test_both_packages_ship_py_typed():
    package_data = PYPROJECT["tool"]["setuptools"]["package-data"]
    for package in ("autograph", "runtime"):
        assert (ROOT / package / "py.typed").is_file()
        assert "py.typed" in package_data[package]


def test_licence_is_the_apache_2_text_pyproject_declares():
    assert PYPROJECT["project"]["license"] == {"text": "Apache-2.0"}
    text = (ROOT / "LICENSE").read_text()
    assert "Apache License\n                           Version 2.0, January 2004" in text
    assert "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in text
    assert "END OF TERMS AND CONDITIONS" in text and len(text.splitlines()) > 170


def test_convert_keeps_the_signature_in_both_forms():
    overloads = typing.get_overloads(ag.convert)
    assert len(overloads) == 2
    call_form, decorator_form = (typing.get_type_hints(o) for o in overloads)
    p, r = call_form["fn"].__args__[0], call_form["fn"].__args__[1]
    assert isinstance(p, typing.ParamSpec) and isinstance(r, typing.TypeVar)
    assert call_form["return"] == call_form["fn"]                   # Callable[P, R] -> Callable[P, R]
    assert decorator_form["return"].__args__[-1] == call_form["fn"]  # -> Callable[[Callable[P, R]], Callable[P, R]]
    assert ag.to_graph is ag.convert
    assert len(typing.get_overloads(ag.do_not_convert)) == 2

    def f(x: int, *, scale: float = 2.0) -> float:
        return x * scale

    assert inspect.signature(ag.convert(f)) == inspect.signature(f)          # and at run time
    assert inspect.signature(ag.convert(recursive=False)(f)) == inspect.signature(f)

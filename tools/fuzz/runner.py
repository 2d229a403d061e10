"""Run a generated program up to five ways and compare.

(a) the original on Python ints; (b) the converted function's generated code on
Python ints — must agree exactly, including the recorded side effects and the
exception type; (c) the generated code on eager runtime tensors and (d) the
converted function inside `runtime.function` (tensor arguments, so Cond and
While ops are staged) — must agree with (a) in value, or raise too; (j, opt-in)
the same inside `runtime.function(jit_compile=True)` — must agree with (a) as d
does, and with the executor as tests/jit_twin.py compares (tools/fuzz/jit.py);
(e, o, opt-in) d's graph saved and loaded, and exported to ONNX and run by
onnxruntime — must give the executor's values (tools/fuzz/export.py).
"""
from __future__ import annotations

import importlib.util
import itertools
import pathlib
import sys
import tempfile
import traceback
from dataclasses import dataclass
from typing import Optional

import autograph as ag
from autograph import api
from tools.fuzz import export, jit

_ids = itertools.count()
_DIR = pathlib.Path(tempfile.mkdtemp(prefix="autograph_fuzz_"))
INPUTS = [(0, 0), (3, 7), (-4, 2), (9, -1), (5, 5)]


@dataclass
class Finding:
    kind: str        # "disagreement" or "internal error"
    mode: str
    detail: str
    source: str


def load(source: str):
    name = f"fuzz_program_{next(_ids)}"
    path = _DIR / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _outcome(call):
    try:
        return "value", call()
    except Exception as e:  # noqa: BLE001 - the outcome is compared
        return "error", e


def _internal(error: BaseException) -> bool:
    """An exception raised from inside autograph/runtime that is not a deliberate user-facing error."""
    from autograph.errors import AutoGraphError
    from runtime.errors import OpError, OperatorNotAllowedInGraphError
    if isinstance(error, (AutoGraphError, OpError, OperatorNotAllowedInGraphError, AssertionError)):
        return False
    # the program's own error, raised by a graph op (CheckDefined; a staged `raise`, whose copy has a note): from
    # runtime's kernel under jit_compile
    if getattr(error, "raised_by_program", False) or any(
            "(autograph) raised when the graph ran" in note for note in getattr(error, "__notes__", ())):
        return False
    frames = traceback.extract_tb(error.__traceback__)
    if isinstance(error, UnboundLocalError) and frames and frames[-1].filename.endswith("operators/variables.py"):
        return False    # a read of an unassigned (or deleted) variable: raised on purpose, as Python does
    return bool(frames) and ("/autograph/" in frames[-1].filename or "/runtime/" in frames[-1].filename)


def _as_ints(value):
    if isinstance(value, tuple):
        return tuple(_as_ints(v) for v in value)
    if hasattr(value, "numpy"):
        number = value.numpy().item()     # a float stays a float: 2.5 must not compare equal to 2
        return int(number) if isinstance(number, bool) else number
    return int(value) if isinstance(value, bool) else value


def check(source: str, modes: str = "abcd", tally: Optional[jit.Tally] = None,
          exported: Optional[export.Tally] = None) -> Optional[Finding]:
    """The first disagreement or internal error, or None. What mode j found is added to `tally`, what modes e
    and o found to `exported`."""
    module = load(source)
    try:
        converted = ag.convert(module.f)
    except Exception as e:  # noqa: BLE001 - a valid program must convert
        return Finding("internal error", "b", f"conversion failed: {''.join(traceback.format_exception(e))}", source)
    import runtime as tf
    traced = tf.function(module.f)   # traced once (int32 scalars), run on every input
    jitted = jit.function(module.f) if "j" in modes else None
    runs = [(mode, export.Exported(traced, mode)) for mode in export.MODES if mode in modes]
    found, exported = jit.Tally(), exported if exported is not None else export.Tally()
    api.run_generated_code(True)
    try:
        for a, b in INPUTS:
            finding = _check_input(module, converted, traced, jitted, modes, source, a, b, found)
            if finding is None and runs:
                finding = _check_exported(runs, traced, source, a, b, exported)
            if finding:
                return finding
            if found.unlowered:
                jitted = None   # it can't be lowered, whatever the input: compare the other modes only
    finally:
        api.run_generated_code(False)
        if tally is not None:
            tally.add(found)
    return None


def _check_input(module, converted, traced, jitted, modes, source, a, b, tally) -> Optional[Finding]:
    module.LOG.clear()
    expected = _outcome(lambda: module.f(a, b))
    expected_log = list(module.LOG)
    if "b" in modes:
        module.LOG.clear()
        got = _outcome(lambda: converted(a, b))
        finding = _compare("b", expected, got, source, exact=True)
        if finding is None and module.LOG != expected_log:
            finding = Finding("disagreement", "b", f"f({a}, {b}): side effects {module.LOG} != "
                              f"{expected_log}", source)
        if finding:
            return finding
    if "c" in modes:
        finding = _compare("c", expected, _outcome(lambda: _as_ints(converted(*_tensors(a, b)))), source,
                           exact=False, args=(a, b))
        if finding:
            return finding
    if "d" not in modes and jitted is None:
        return None
    executor = _outcome(lambda: traced(*_tensors(a, b)))
    if "d" in modes:
        finding = _compare("d", expected, _ints(executor), source, exact=False, args=(a, b))
        if finding:
            return finding
    return _check_jit(jitted, expected, executor, source, a, b, tally) if jitted is not None else None


def _check_exported(runs, traced, source, a, b, tally) -> Optional[Finding]:
    """Modes e and o (tools/fuzz/export.py) against the executor on one input."""
    executor = _ints(_outcome(lambda: traced(*_tensors(a, b))))
    for mode, run in runs:
        got = run(a, b)
        if got[0] == "value" and mode == "e":
            got = _ints(got)
        if got[0] == "refused":
            if a == INPUTS[0][0] and b == INPUTS[0][1]:
                tally.refused[mode, got[1]] += 1
            continue
        difference = export.difference(mode, executor, got, tally)
        if difference:
            return Finding("disagreement", mode, f"f({a}, {b}): {difference}", source)
    return None


def _check_jit(jitted, expected, executor, source, a, b, tally) -> Optional[Finding]:
    got = _outcome(lambda: jitted(*_tensors(a, b)))
    refused = jit.lowering_refusal(got)
    if refused:
        tally.unlowered[refused] += 1
        return None
    finding = _compare("j", expected, _ints(got), source, exact=False, args=(a, b))
    difference = finding is None and jit.difference(executor, got)
    if difference:
        finding = Finding("disagreement", "j", f"{(a, b)}: {difference}", source)
    if finding is None:
        tally.agreed(got)
    return finding


def _tensors(a, b):
    import runtime as tf
    return tf.constant(a), tf.constant(b)


def _ints(outcome):
    kind, value = outcome
    if kind == "error":
        return outcome
    return _outcome(lambda: _as_ints(value))


def _compare(mode, expected, got, source, exact: bool, args=()) -> Optional[Finding]:
    (kind_e, value_e), (kind_g, value_g) = expected, got
    if kind_g == "error" and _internal(value_g):
        detail = "".join(traceback.format_exception(value_g))
        return Finding("internal error", mode, f"{args}: {detail}", source)
    if kind_e != kind_g:
        return Finding("disagreement", mode, f"{args}: original gave {kind_e} {value_e!r}, mode {mode} gave "
                       f"{kind_g} {value_g!r}", source)
    if kind_e == "error":
        if exact and type(value_e) is not type(value_g):
            return Finding("disagreement", mode, f"{args}: {type(value_e).__name__} != {type(value_g).__name__}",
                           source)
        return None
    if (value_e if exact else _as_ints(value_e)) != value_g:
        return Finding("disagreement", mode, f"{args}: {value_e!r} != {value_g!r}", source)
    return None

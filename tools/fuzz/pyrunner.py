"""Run a pygen program up to four ways and compare.

(a) the original function on Python ints (the reference);
(b) the converted function forced through its generated code
    (`autograph.api.run_generated_code(True)`) on Python ints;
(p) `runtime.function(f)` called with Python ints (each input traced once, so the
    generated code runs on Python values inside a trace);
(t) tensor programs only: `runtime.function(f)` traced once on int32 scalar
    tensors and run on every input;
(j) opt-in, tensor programs only: as t with `jit_compile=True` (XLA through JAX);
(x) opt-in, tensor programs only: `ag.convert(f)` exported with `torch.export` (the torch
    backend), traced once on int32 0-d tensors, run on every input (tools/fuzz/torchx.py).

b and p must agree with a exactly: the value (p's tensors compared as ints),
the exception type, and the side effects (`LOG` and the global `G`, via the
program's `state()`). t must agree in value, or raise the same exception type;
or it may refuse, with an autograph `AutoGraphError` (StagingError,
ConversionError, ...) or runtime `OperatorNotAllowedInGraphError` whose message
names the program's file: a refusal is counted, not a finding. Any other error
raised from inside autograph/ or runtime/ is an internal error. j must agree
with a as t does, and with t as tests/jit_twin.py compares (the same values,
dtypes and shapes, or the same exception type and message: tools/fuzz/jit.py);
a LoweringError (the graph can't be lowered to JAX) is counted, not compared. x must
agree with a as t does; its clear refusals (torchx.refusal) are counted by cause, and an
error raised from inside torch is an internal error too.
"""
from __future__ import annotations

import traceback
import types
import warnings
from dataclasses import dataclass, field
from typing import Optional

from autograph import api
from tools.fuzz import jit, torchx
from tools.fuzz.runner import Finding, _as_ints, _internal, _ints, _outcome, load

INPUTS = [(0, 0), (3, 7), (-4, 2), (9, -1), (5, 5)]
MODES = "bpt"


@dataclass
class Result:
    finding: Optional[Finding] = None
    refusals: list = field(default_factory=list)   # (input, message) of mode t's clear refusals
    jit: jit.Tally = field(default_factory=jit.Tally)   # what mode j found
    torch: torchx.Tally = field(default_factory=torchx.Tally)   # what mode x found
    input: tuple = ()                               # the input of the finding


def check(source: str, modes: str = MODES, tensor: bool = False, inputs=INPUTS) -> Result:
    """The first disagreement or internal error (input by input, mode by mode in the order of `modes`), t's
    refusals and what modes j and x found."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # mode p retraces on every input, on purpose
        return _check(source, modes, tensor, inputs)


def _check(source: str, modes: str, tensor: bool, inputs) -> Result:
    module = load(source)
    result = Result()
    try:
        converted = api.convert(module.f)
    except Exception as e:  # noqa: BLE001 - a valid program must convert
        detail = "conversion failed: " + "".join(traceback.format_exception(e))
        result.finding = Finding("internal error", "b", detail, source)
        return result
    import runtime as tf
    on_python, on_tensors = tf.function(module.f), tf.function(module.f)
    jitted = jit.function(module.f) if tensor and jit.MODE in modes else None
    exported = torchx.Exported(module.__file__) if tensor and torchx.MODE in modes else None
    for a, b in inputs:
        module.reset()
        expected = _outcome(lambda: module.f(a, b)), module.state()
        outcomes = {}   # of this input, by mode
        for mode in modes:
            if mode in "tjx" and not tensor or mode == "j" and jitted is None:
                continue
            module.reset()
            function = jitted if mode == "j" else exported if mode == "x" else on_tensors
            raw = outcomes[mode] = _outcome(lambda: _call(mode, converted, on_python, function, a, b)), module.state()
            got = (_ints(raw[0]) if mode in "tj" else raw[0]), raw[1]
            result.input = (a, b)
            if mode == "x":
                result.finding = _compare_torch(expected, raw, source, (a, b), module.__file__, exported,
                                                result.torch)
            elif mode == "j":
                result.finding = _compare_jit(expected, got, outcomes, module, on_tensors, source, (a, b), result)
                jitted = None if result.jit.unlowered else jitted   # it can't be lowered, whatever the input
            else:
                result.finding = _compare(mode, expected, got, source, (a, b), module.__file__, result.refusals)
            if result.finding:
                return result
    return result


def _compare_jit(expected, got, outcomes, module, on_tensors, source, args, result) -> Optional[Finding]:
    """Mode j against the original (as t), then against t's outcome on the same input (as tests/jit_twin.py)."""
    refused = jit.lowering_refusal(outcomes["j"][0])
    if refused:
        result.jit.unlowered[refused] += 1
        return None
    finding = _compare("j", expected, got, source, args, module.__file__, [])
    if finding:
        return finding
    if "t" not in outcomes:
        module.reset()
        outcomes["t"] = _outcome(lambda: on_tensors(*_tensors(args))), module.state()
    difference = jit.difference(outcomes["t"][0], outcomes["j"][0])
    if difference:
        return Finding("disagreement", "j", f"f{args}: {difference}", source)
    result.jit.agreed(outcomes["j"][0])
    return None


def _compare_torch(expected, raw, source, args, filename, exported, tally) -> Optional[Finding]:
    """Mode x against the original, as t; a clear refusal is counted by its cause, and a difference that eager
    torch makes too (torch's semantics) by how it differs."""
    kind_g, value_g = raw[0]
    cause = torchx.refusal(value_g, filename) if kind_g == "error" else None
    if cause:
        tally.refused[cause] += 1
        return None
    leaked = torchx.leaked(value_g) if kind_g == "value" else None
    if leaked:   # a fake tensor of the trace returned by the exported program: no value to compare
        return Finding("disagreement", "x", f"f{args}: original gave {expected[0][0]} {expected[0][1]!r}, mode x "
                       f"returned {leaked}", source)
    got = _ints(raw[0]), raw[1]
    finding = _compare("x", expected, got, source, args, filename, [])
    if finding is None and kind_g == "error" and torchx.internal(value_g):
        finding = Finding("internal error", "x", f"f{args}: {''.join(traceback.format_exception(value_g))}", source)
    if finding is None:
        tally.agreed(kind_g)
        return None
    eager = _ints(_outcome(lambda: exported.eager(*args)))
    how = torchx.same_as_eager(got[0], eager)
    if how:
        tally.like_eager[how] += 1
        return None
    shown = eager[1] if eager[0] == "value" else f"{type(eager[1]).__name__}: {eager[1]}"
    return Finding(finding.kind, "x", f"{finding.detail}\n(the original on eager torch tensors gave {eager[0]} "
                   f"{shown})", source)


def reference(source: str, inputs=INPUTS) -> tuple:
    """What the original does on each input: "value" or the exception type's name (for the minimiser, which
    must not turn a program into one that fails in Python itself)."""
    module = load(source)
    outcomes = []
    for a, b in inputs:
        module.reset()
        kind, value = _outcome(lambda: module.f(a, b))
        outcomes.append(kind if kind == "value" else type(value).__name__)
    return tuple(outcomes)


def _logged(state):
    """The side effects (LOG, G) as they are compared: a logged function by its qualified name."""
    log, g = state
    return [_comparable(v) for v in log], g


def _comparable(value):
    """`value` as results are compared: tensors as ints, and a function (a closure a program returns, made
    anew on every call) by its qualified name."""
    if isinstance(value, tuple):
        return tuple(_comparable(v) for v in value)
    if isinstance(value, types.FunctionType):
        return f"<function {value.__qualname__}>"
    return _as_ints(value)


def _tensors(args):
    import runtime as tf
    return tuple(tf.constant(v) for v in args)


def _call(mode: str, converted, on_python, on_tensors, a, b):
    """Mode b, p, or t, j and x (`on_tensors`: runtime.function with or without jit_compile, or torchx.Exported)."""
    if mode == "b":
        api.run_generated_code(True)
        try:
            return converted(a, b)
        finally:
            api.run_generated_code(False)
    if mode == "p":
        return _as_ints(on_python(a, b))
    if mode == "x":
        return on_tensors(a, b)    # torchx.Exported makes its own torch tensors
    return on_tensors(*_tensors((a, b)))


def refused(error: BaseException, filename: str) -> bool:
    """A deliberate, clear refusal to stage the program: an autograph or graph-mode error naming the user's file,
    or the program's own error raised while a branch was traced, with autograph's note naming the line."""
    from autograph.errors import AutoGraphError
    from runtime.control_flow import ControlFlowError
    from runtime.errors import OperatorNotAllowedInGraphError
    from autograph.operators.function_scope import TRACING_NOTE
    notes = "\n".join(getattr(error, "__notes__", ()))
    traced = TRACING_NOTE in notes and filename in notes   # the program's own error, raised tracing a branch
    return traced or (isinstance(error, (AutoGraphError, OperatorNotAllowedInGraphError, ControlFlowError))
                      and filename in str(error))


def _compare(mode, expected, got, source, args, filename, refusals) -> Optional[Finding]:
    ((kind_e, value_e), state_e), ((kind_g, value_g), state_g) = expected, got
    if kind_g == "error" and mode in "tj" and refused(value_g, filename):   # mode x: _compare_torch
        refusals.append((args, str(value_g).splitlines()[0]))
        return None
    if kind_g == "error" and (_internal(value_g) or mode in "tjx" and kind_e != "error"):
        detail = "".join(traceback.format_exception(value_g))
        return Finding("internal error", mode, f"f{args}: {detail}", source)
    if kind_e != kind_g:
        return Finding("disagreement", mode, f"f{args}: original gave {kind_e} {value_e!r}, mode {mode} gave "
                       f"{kind_g} {value_g!r}", source)
    if kind_e == "error":
        if type(value_e) is not type(value_g):
            return Finding("disagreement", mode, f"f{args}: original raised {type(value_e).__name__}, mode {mode} "
                           f"raised {type(value_g).__name__}: {value_g}", source)
    elif _comparable(value_e) != _comparable(value_g):
        return Finding("disagreement", mode, f"f{args}: original returned {value_e!r}, mode {mode} returned "
                       f"{value_g!r}", source)
    if mode not in "tjx" and _logged(state_e) != _logged(state_g):
        return Finding("disagreement", mode, f"f{args}: side effects (LOG, G) {state_g} != {state_e}", source)
    return None

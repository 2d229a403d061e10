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
    backend), traced once on int32 0-d tensors, run on every input (tools/fuzz/torchx.py);
(g) opt-in, tensor programs only: `jax.jit(ag.convert(f))` (the JAX backend) on int32 0-d
    arrays, traced once, run on every input (tools/fuzz/jaxg.py).

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
error raised from inside torch is an internal error too. g is compared as x, with its own
refusals (jaxg.refusal) and JAX in torch's place.
"""
from __future__ import annotations

import traceback
import types
import warnings
from dataclasses import dataclass, field
from typing import Optional

from autograph import api
from tools.fuzz import jaxg, jit, torchx
from tools.fuzz.runner import Finding, _as_ints, _internal, _ints, _outcome, load

INPUTS = [(0, 0), (3, 7), (-4, 2), (9, -1), (5, 5)]
MODES = "bpt"


@dataclass
class Result:
    finding: Optional[Finding] = None
    refusals: list = field(default_factory=list)   # (input, message) of mode t's clear refusals
    jit: jit.Tally = field(default_factory=jit.Tally)   # what mode j found
    torch: torchx.Tally = field(default_factory=torchx.Tally)   # what mode x found
    jax: jaxg.Tally = field(default_factory=jaxg.Tally)         # what mode g found
    input: tuple = ()                               # the input of the finding


def check(source: str, modes: str = MODES, tensor: bool = False, inputs=INPUTS) -> Result:
    """The first disagreement or internal error (input by input, mode by mode in the order of `modes`), t's
    refusals and what modes j, x and g found."""
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
    jax_jitted = jaxg.Jitted(module.__file__) if tensor and jaxg.MODE in modes else None
    for i, (a, b) in enumerate(inputs):
        by_k: dict = {}   # Python's outcome by the value of the global K
        outcomes = {}     # of this input, by mode
        for mode in modes:
            if mode in "tjxgs" and not tensor or mode == "j" and jitted is None:
                continue
            # K is rebound between calls, except for modes x and g: torch.export and jax.jit keep what they traced
            module.K = 1 if mode in "xg" else rebound_k(i)
            if module.K not in by_k:
                module.reset()
                by_k[module.K] = _outcome(lambda: module.f(a, b)), module.state()
            expected = by_k[module.K]
            module.reset()
            function = {"j": jitted, "x": exported, "g": jax_jitted}.get(mode, on_tensors)
            if mode == "s":   # traced afresh for each input: its Python side effects run once, as a call's do
                function = tf.function(module.f)
            raw = outcomes[mode] = _outcome(lambda: _call(mode, converted, on_python, function, a, b)), module.state()
            got = (_ints(raw[0]) if mode in "tjs" else raw[0]), raw[1]
            result.input = (a, b)
            if mode in "xg":
                result.finding = _compare_backend(mode, expected, raw, source, (a, b), module.__file__, function,
                                                  result.torch if mode == "x" else result.jax)
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


def _compare_backend(mode, expected, raw, source, args, filename, program, tally) -> Optional[Finding]:
    """Mode x (torch, `program` a torchx.Exported) or g (JAX, a jaxg.Jitted) against the original, as t; a clear
    refusal is counted by its cause, and a difference that the original makes too on the framework's eager
    tensors (its semantics) by how it differs."""
    backend, eagerly = (torchx, "eager torch tensors") if mode == "x" else (jaxg, "concrete jnp arrays")
    as_values = _ints if mode == "x" else jaxg.values
    kind_g, value_g = raw[0]
    frames = {"frames": lambda: program.frames(*args)} if mode == "g" else {}   # unfiltered, on demand
    cause = backend.refusal(value_g, filename, **frames) if kind_g == "error" else None
    if cause:
        tally.refused[cause] += 1
        return None
    leaked = backend.leaked(value_g) if kind_g == "value" else None
    if leaked:   # a value of the trace (torch: a fake tensor) returned: no value to compare
        return Finding("disagreement", mode, f"f{args}: original gave {expected[0][0]} {expected[0][1]!r}, mode "
                       f"{mode} returned {leaked}", source)
    got = as_values(raw[0]), raw[1]
    finding = _compare(mode, expected, got, source, args, filename, [])
    if finding is None and kind_g == "error" and backend.internal(value_g, **frames):
        finding = Finding("internal error", mode, f"f{args}: {''.join(traceback.format_exception(value_g))}", source)
    if finding is None:
        tally.agreed(kind_g)
        return None
    eager = as_values(_outcome(lambda: program.eager(*args)))
    how = backend.same_as_eager(got[0], eager)
    plain = None
    if not how and mode == "g":   # what jax.jit does to the unconverted original (autograph not involved)
        plain = as_values(_outcome(lambda: program.plain(*args)))
        how = backend.same_as_eager(got[0], plain)
        how = how and f"{how} as jax.jit of the original does"
    if how:
        tally.like_eager[how] += 1
        return None
    shown = _shown(eager) + (f"; unconverted under jax.jit: {_shown(plain)}" if plain else "")
    return Finding(finding.kind, mode, f"{finding.detail}\n(the original on {eagerly} gave {shown})", source)


def rebound_k(i: int) -> int:
    """The global K the programs read, for the i-th input: rebound between calls, so a function traced once
    for all inputs (mode t, j) must trace again to give Python's answer (runtime/python_reads.py)."""
    return 1 + i % 2


def _shown(outcome) -> str:
    kind, value = outcome
    return f"value {value}" if kind == "value" else f"error {type(value).__name__}: {value}"


def reference(source: str, inputs=INPUTS) -> tuple:
    """What the original does on each input: "value" or the exception type's name (for the minimiser, which
    must not turn a program into one that fails in Python itself)."""
    module = load(source)
    outcomes = []
    for i, (a, b) in enumerate(inputs):
        module.K = rebound_k(i)
        module.reset()
        kind, value = _outcome(lambda: module.f(a, b))
        outcomes.append(kind if kind == "value" else type(value).__name__)
    return tuple(outcomes)


def _side_effects_compared(mode: str, kind: str, state) -> bool:
    """Are LOG and G compared in `mode`? In modes b and p. In mode s (t traced afresh for each input) when
    Python returned and the trace logged no symbolic tensor: Python's side effects then ran once each, at trace
    time, and one in a staged statement must be refused, not run once for all paths. (Where Python raises, the
    trace goes on past that point and runs what follows, as TensorFlow's does: the error comes when the graph
    runs.) Not in modes t, j, x and g, whose functions are traced once for all inputs."""
    return mode in "bp" or mode == "s" and kind == "value" and not _traced_values(state)


def _traced_values(state) -> bool:
    """Does LOG or G hold a value of a trace (`record(x)` of a tensor while tracing logs the symbolic tensor,
    where Python logs the value, as in TensorFlow; `global G; G = G + x` at the function's top level leaves G the
    symbolic tensor: seed 90268; `record(f"{x}")` logs the text of the symbolic tensor: seed 60028)?"""
    from autograph.operators.maybe import MaybeValue
    from autograph.operators.strings import StagedText
    from runtime.tensor import SymbolicTensor

    def traced(v) -> bool:   # `record((x, y))` logs a tuple
        if isinstance(v, (tuple, list)):
            return any(map(traced, v))
        return isinstance(v, dict) and any(map(traced, v.values())) or isinstance(v, (SymbolicTensor, StagedText,
                                                                                      MaybeValue))
    return traced(state[0]) or traced(state[1])


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
    """Mode b, p, or t, j, x and g (`on_tensors`: runtime.function with or without jit_compile, torchx.Exported
    or jaxg.Jitted)."""
    if mode == "b":
        api.run_generated_code(True)
        try:
            return converted(a, b)
        finally:
            api.run_generated_code(False)
    if mode == "p":
        return _as_ints(on_python(a, b))
    if mode in "xg":
        return on_tensors(a, b)    # torchx.Exported and jaxg.Jitted make their own tensors
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
    if kind_g == "error" and mode in "tjs" and refused(value_g, filename):   # modes x, g: _compare_backend
        refusals.append((args, str(value_g).splitlines()[0]))
        return None
    if kind_g == "error" and (_internal(value_g) or mode in "tjxgs" and kind_e != "error"):
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
    if _side_effects_compared(mode, kind_e, state_g) and _logged(state_e) != _logged(state_g):
        return Finding("disagreement", mode, f"f{args}: side effects (LOG, G) {state_g} != {state_e}", source)
    return None

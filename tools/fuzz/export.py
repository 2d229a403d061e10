"""Modes e and o of the control generator: the graph mode d traced, run where there is no Python source.

(e) `runtime.save_function` of the traced function (int32 scalars), `runtime.load_function` of the file, and the
loaded function called on every input; (o, opt-in, needs the onnx extra) `runtime.onnx.export` of it, run by
onnxruntime. Each must give the executor's values (mode d's, on the same input) — the same ints, in the same
structure — or raise where the executor raised (e: the same exception type; o: ONNX has no run-time errors, so
an input on which the executor raised is not compared). A function that can't be saved or exported (a Python
value among its results; an op ONNX export does not map) is a clear refusal, counted by cause, not compared.
A crash of onnxruntime loading a model ends the fuzzer: it ran in this process (it did, seed 97070).
"""
from __future__ import annotations

import importlib.util
import os
import tempfile
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

MODES = "eo"
SKIPPED = "mode o skipped: onnxruntime is not installed (pip install 'autograph-runtime[onnx]' to run exported models)"


def installed() -> bool:
    return importlib.util.find_spec("onnx") is not None and importlib.util.find_spec("onnxruntime") is not None


def usable(modes: str) -> str:
    """`modes` without o where onnxruntime is not installed."""
    return modes if installed() else modes.replace("o", "")


@dataclass
class Tally:
    """What modes e and o compared, and the programs they could not save or export, by cause."""

    agreed: Counter = field(default_factory=Counter)        # mode -> runs giving the executor's values
    raised: Counter = field(default_factory=Counter)        # mode -> runs raising where the executor raised
    refused: Counter = field(default_factory=Counter)       # (mode, cause) -> programs

    def summary(self, mode: str) -> str:
        causes = [f"{n} {cause}" for (m, cause), n in self.refused.most_common() if m == mode]
        what = "saved and loaded" if mode == "e" else "exported to ONNX and run by onnxruntime"
        return (f"mode {mode} ({what}): {self.agreed[mode]} runs gave the executor's values, {self.raised[mode]} "
                f"raised where it raised; {sum(n for (m, _), n in self.refused.items() if m == mode)} programs "
                f"refused clearly{' (' + '; '.join(causes) + ')' if causes else ''}")


class Exported:
    """The traced function of one program as mode `mode` runs it: built on the first call, then called on each
    input as `(kind, value)` outcomes like runner's, or `("refused", cause)` when it can't be built."""

    def __init__(self, traced, mode: str):
        self.traced, self.mode, self.run = traced, mode, None

    def __call__(self, a: int, b: int):
        if self.run is None:
            self.run = self._build()
        if isinstance(self.run, str):
            return "refused", self.run
        try:
            return "value", self.run(a, b)
        except Exception as e:  # noqa: BLE001 - compared with the executor's error
            return "error", e

    def _build(self):
        import runtime as tf
        spec = tf.TensorSpec([], tf.int32)
        concrete = self.traced.get_concrete_function(spec, spec)
        handle, path = tempfile.mkstemp(suffix=".json" if self.mode == "e" else ".onnx", prefix="autograph_fuzz_")
        os.close(handle)
        try:
            if self.mode == "e":
                return self._saved(tf, concrete, path)
            return self._onnx(tf, concrete, path)
        except (TypeError, tf.errors.LoweringError) as e:   # a Python value among the results; an unmapped op
            return type(e).__name__ + ": " + str(e).split(":")[0].split(" (")[0][:60]
        finally:
            os.remove(path)

    @staticmethod
    def _saved(tf, concrete, path: str):
        tf.save_function(concrete, path)
        loaded = tf.load_function(path)
        return lambda a, b: loaded(tf.constant(a), tf.constant(b))

    @staticmethod
    def _onnx(tf, concrete, path: str):
        import onnxruntime
        model = tf.onnx.export(concrete, path, drop_prints=True)
        session = onnxruntime.InferenceSession(path)
        names = [i.name for i in model.graph.input]
        # a value that a staged `return` defines on some paths: its tensors, then whether it was defined
        maybe = hasattr(concrete.structured_outputs, "resolved")

        def run(a, b):
            outputs = [_number(v) for v in session.run(None, dict(zip(names, (np.array(a, np.int32),
                                                                              np.array(b, np.int32)))))]
            if maybe:
                return outputs[:-1] if outputs[-1] else None
            return outputs
        return run


def _number(value):
    """An output of the model as runner's `_as_ints` gives the executor's: a Python number, a bool as an int."""
    number = np.asarray(value).item()
    return int(number) if isinstance(number, bool) else number


def difference(mode: str, executor, got, tally: Tally) -> str | None:
    """How mode `mode`'s outcome differs from the executor's (both with results as runner's `_as_ints` gives
    them), or None;
    what was compared or refused is added to `tally`."""
    (kind_e, value_e), (kind_g, value_g) = executor, got
    if kind_g == "refused":
        return None
    if kind_e == "error":
        if mode == "o":          # ONNX has no run-time error: not compared
            return None
        if kind_g == "error" and type(value_g) is type(value_e):
            tally.raised[mode] += 1
            return None
        return f"the loaded function gave {value_g!r} where the executor raised {type(value_e).__name__}: {value_e}"
    if kind_g == "error":
        return f"raised {type(value_g).__name__}: {value_g} where the executor gave {value_e!r}"
    expected = value_e if mode == "e" or value_e is None else _onnx_outputs(value_e)
    if expected == value_g:
        tally.agreed[mode] += 1
        return None
    return f"gave {value_g!r} where the executor gave {value_e!r}"


def _onnx_outputs(value) -> list:
    """The executor's result as the ONNX model's outputs: its ints, flattened."""
    flat: list = []

    def add(v):
        if isinstance(v, (tuple, list)):
            for item in v:
                add(item)
        else:
            flat.append(v)
    add(value)
    return flat

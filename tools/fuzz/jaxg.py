"""Mode g of the python generator: a tensor program on the JAX backend (autograph/backends/jax.py), under
`jax.jit`, compared with the original.

The program is loaded a second time, from the same file, with its `tf` helpers (`vec`, `cat`, `size`, `total`,
`half`, `whole` call tf.reshape, tf.concat, tf.size, tf.reduce_sum, tf.cast) bound to a small jax.numpy shim
(`shim()`, with TensorFlow's dtypes: int32 sizes and sums); `jax.jit(ag.convert(f))` is called on int32 0-d
arrays of every input (the arguments' types never change, so it is traced and compiled once, on the first).
It must agree with the original as mode t does: the same value (arrays compared as Python numbers, floats as
floats), or the same exception type; side effects are not compared (a trace runs the body once). Where it does
not, the original runs on concrete jnp arrays (with the shim): if `jax.jit` does what eager JAX does (the same
value, or the same exception type and message), the difference is JAX's own semantics, not the backend's
(int32 wraps around; an integer division by zero gives a number), and it is counted, not reported; so is one that
the unconverted original under `jax.jit` makes too, which is what jit does without autograph (`2 ** b` of a traced
negative `b` is 0, where eager JAX refuses a negative power; `f"{a}"` is a tracer's text). A clear
refusal is counted by its cause, not compared: an autograph error (`StagingError`, ...) naming the program's
file, the program's own error raised while a branch was traced (autograph's note names the line, and the error
comes from a line of the program, not from JAX's or autograph's code the trace ran), JAX's error
for Python meeting a traced value (`ConcretizationTypeError`, `TracerIntegerConversionError`, ...) raised at a
line of the program, or `jax.jit`'s refusal of an output that is not an array (a function, a range). Any
other error raised from inside autograph/ or JAX is an internal error. JAX is optional: without it mode g is
skipped, and the fuzzer says so in one line.
"""
from __future__ import annotations

import importlib.util
import re
import traceback
import types

from tools.fuzz import torchx

MODE = "g"
SKIPPED = "mode g skipped: JAX is not installed (pip install jax to fuzz the JAX backend under jax.jit)"
_JAX_DIRS = ("/jax/", "/jaxlib/")


def installed() -> bool:
    return importlib.util.find_spec("jax") is not None


def usable(modes: str) -> str:
    """`modes` without g where JAX is not installed."""
    return modes if installed() else modes.replace(MODE, "")


def shim():
    """What the generated programs use of `tf` (pygen.PRELUDE's helpers), on jax.numpy, with TensorFlow's
    dtypes: `tf.size` is an int32 array (jnp.size gives a Python int)."""
    import jax.numpy as jnp
    return types.SimpleNamespace(
        reshape=lambda v, shape: jnp.reshape(v, tuple(shape)),
        concat=lambda values, axis: jnp.concatenate(list(values), axis),
        size=lambda v: jnp.asarray(jnp.size(v), dtype=jnp.int32),
        reduce_sum=lambda v: jnp.sum(v, dtype=v.dtype),
        cast=lambda v, dtype: jnp.asarray(v).astype(dtype),
        float32=jnp.float32, int32=jnp.int32)


def array(v):
    import jax.numpy as jnp
    return jnp.asarray(v, dtype=jnp.int32)


class Jitted:
    """`f` of the program in `path`, loaded anew with `tf` bound to the jax.numpy shim, as
    `jax.jit(ag.convert(f))`. An error on the first call (tracing fails) is raised again by every call, as
    `jax.jit` would raise it again on every call, retracing."""

    def __init__(self, path: str):
        self.path, self.module, self.run, self.error, self._frames = path, None, None, None, None

    def eager(self, a, b):
        """The original `f` (with the shim) on concrete jnp arrays: JAX's own semantics."""
        self._load()
        self.module.reset()
        return self.module.f(array(a), array(b))

    def _load(self):
        if self.module is None:
            self.module = torchx.load_with_shim(self.path, "fuzz_jax_program", shim())

    def plain(self, a, b):
        """The original `f` (with the shim), unconverted, under `jax.jit`: what jit does without autograph."""
        import jax
        self._load()
        self.module.reset()
        return jax.jit(self.module.f)(array(a), array(b))

    def _jit(self):
        import jax

        import autograph as ag
        self._load()
        return jax.jit(ag.convert(self.module.f))

    def frames(self, a, b) -> list:
        """The frames of the error the program raises on (a, b) under a new `jax.jit`, with autograph's and JAX's
        traceback filtering off (each removes its own frames, so a TypeError raised by JAX's code that the
        backend called seems to be raised at the user's line), innermost last; [] if it raises nothing. A
        tracing error is the same on every input: found once."""
        if self.error is not None and self._frames is not None:
            return self._frames
        import jax

        import autograph as ag
        was, was_jax = ag.is_traceback_filtering_enabled(), jax.config.jax_traceback_filtering
        ag.disable_traceback_filtering()
        jax.config.update("jax_traceback_filtering", "off")
        frames = []
        try:
            self.module.reset()
            self._jit()(array(a), array(b))
        except Exception as e:  # noqa: BLE001 - only its frames are wanted
            frames = traceback.extract_tb(e.__traceback__)
        finally:
            jax.config.update("jax_traceback_filtering", was_jax)
            if was:
                ag.enable_traceback_filtering()
        if self.error is not None:
            self._frames = frames
        return frames

    def __call__(self, a, b):
        args = (array(a), array(b))
        if self.error is not None:
            raise self.error
        if self.run is not None:
            return self.run(*args)
        run = self._jit()
        try:
            result = run(*args)
        except Exception as e:  # noqa: BLE001 - raised again by every call, compared as an outcome
            self.error = e
            raise
        self.run = run
        return result


def _jax_errors() -> tuple:
    """JAX's errors for Python meeting a traced value (`int(x)`, `bool(x)`, `range(x)`, `np.asarray(x)`)."""
    import jax
    names = ("ConcretizationTypeError", "TracerBoolConversionError", "TracerIntegerConversionError",
             "TracerArrayConversionError", "NonConcreteBooleanIndexError")
    return tuple(getattr(jax.errors, name) for name in names if hasattr(jax.errors, name))


def _in_jax(frame) -> bool:
    return any(d in frame.filename for d in _JAX_DIRS)


def _raised_at(frames) -> str | None:
    """The file of the innermost frame outside JAX's source: where the error was raised, or JAX was called.
    autograph's `converted_call` is passed over: it calls what the program calls (`min(a, b)` of tracers)."""
    outside = [f for f in frames if not _in_jax(f)
               and not (f.name == "converted_call" and f.filename.endswith("/autograph/api.py"))]
    return outside[-1].filename if outside else None


def refusal(error: BaseException, filename: str, frames=lambda: []) -> str | None:
    """The cause of a clear refusal to stage the program (see the module docstring), or None. `frames()`: the
    error's frames, unfiltered (Jitted.frames)."""
    cause = torchx.autograph_refusal(error, filename)
    if cause and not cause.startswith("the program's"):
        return cause
    if cause:   # autograph's note names the program's line; the error must come from there, not from JAX's or
        # autograph's code run by the trace (a TypeError of a wrong `lax.cond` call gets the note too)
        return cause if _raised_at(frames()) == filename else None
    if isinstance(error, _jax_errors()) and _raised_at(frames()) == filename:
        return f"JAX's {type(error).__name__} at the program's line"
    message = str(error)
    if isinstance(error, TypeError) and filename in message and "which is not a valid JAX type" in message:
        found = re.search(r"returned a value of type <class '([\w.]+)'>", message)
        return f"jax.jit: a {found.group(1).rsplit('.', 1)[-1] if found else 'value'} among the outputs"
    return None


def internal(error: BaseException, frames=lambda: []) -> bool:
    """An error raised from inside JAX called by autograph (autograph's own are tools/fuzz/runner.py's
    `_internal`), seen in the error's unfiltered frames (`frames()`, Jitted.frames)."""
    from autograph.errors import AutoGraphError
    if isinstance(error, AutoGraphError):
        return False
    found = frames()
    where = _raised_at(found)
    return bool(found) and _in_jax(found[-1]) and where is not None and "/autograph/" in where


def values(outcome):
    """An outcome with the arrays in its value as Python numbers (0-d) or lists, as mode t compares tensors: a
    float stays a float, a bool becomes an int."""
    kind, value = outcome
    if kind == "error":
        return outcome
    try:
        return "value", _as_values(value)
    except Exception as e:  # noqa: BLE001 - compared as an outcome
        return "error", e


def _as_values(value):
    import jax
    if isinstance(value, tuple):
        return tuple(_as_values(v) for v in value)
    if isinstance(value, list):
        return [_as_values(v) for v in value]
    if isinstance(value, dict):
        return {k: _as_values(v) for k, v in value.items()}
    if isinstance(value, jax.Array):
        number = value.item() if value.ndim == 0 else value.tolist()
        return int(number) if isinstance(number, bool) else number
    return int(value) if isinstance(value, bool) else value


class Tally(torchx.Tally):
    """Mode g over a run, counted as mode x's (torchx.Tally)."""

    label, eager = "mode g (jax.jit)", "eager JAX (or jax.jit of the unconverted original)"


def leaked(value) -> str | None:
    """A tracer among a result's values (jax.jit returns arrays, so none should be), named, or None."""
    import jax
    if isinstance(value, (tuple, list)):
        found = [leaked(v) for v in value]
        return ", ".join(f"[{i}] {f}" for i, f in enumerate(found) if f) or None
    if isinstance(value, jax.core.Tracer):
        return f"a {type(value).__name__} (a value of the trace)"
    return None


def same_as_eager(got, eager) -> str | None:
    """As torchx.same_as_eager, with the type of a JAX value named in an error message (a tracer under jit, an
    array eagerly: "unhashable type: 'DynamicJaxprTracer'") read as one."""
    if got[0] == eager[0] == "error":
        got, eager = (("error", type(e)(_array_named(str(e)))) if _reconstructible(e) else ("error", e)
                      for e in (got[1], eager[1]))
    return torchx.same_as_eager(got, eager)


def _array_named(message: str) -> str:
    return re.sub(r"'[\w.]*(?:Tracer|ArrayImpl)'", "'<a JAX array>'", message)


def _reconstructible(error: BaseException) -> bool:
    try:
        type(error)("")
    except Exception:  # noqa: BLE001 - an exception type that needs other arguments
        return False
    return True

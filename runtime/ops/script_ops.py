"""`runtime.py_function` and `runtime.numpy_function`: a Python function as an op of a graph (TensorFlow's
`tf.py_function` and `tf.numpy_function`).

Eagerly, `py_function(func, inp, Tout)` calls `func` on the tensors and
converts what it returns to `Tout`, so GradientTapes see the ops `func` runs.
While tracing, it records one `EagerPyFunc` op: the graph calls `func` with
eager tensors each time it runs (the op is stateful, so it runs in program
order and is never pruned), and its outputs have the dtypes `Tout` and shapes
unknown until then. Its gradient runs `func` again under a GradientTape
(`EagerPyFuncGrad`); a second-order gradient through it is not supported.

`numpy_function(func, inp, Tout, stateful=True)` calls `func` on NumPy arrays
(0-d arrays for scalars, as TensorFlow passes them) and converts what it
returns to `Tout`; as in TensorFlow it has no gradient, and with
`stateful=False` a call whose outputs are not needed is pruned.
"""
from __future__ import annotations

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError
from runtime.ops.registry import Spec, apply, context, defop, wrap
from runtime.scopes import init_scope
from runtime.shape import TensorShape
from runtime.tensor import convert_to_tensor


def _call(func, values) -> list:
    """`func` on eager tensors made from `values`, run eagerly even while a graph is being traced."""
    with init_scope():
        result = func(*[wrap(v) for v in values])
    return result


def _outputs(result, tout: tuple, name: str) -> list:
    """`func`'s result as one eager tensor per `Tout` entry, each of that dtype."""
    if not tout:
        return []
    results = list(result) if isinstance(result, (list, tuple)) else [result]
    if len(results) != len(tout):
        raise InvalidArgumentError(f"{name}: the function returned {len(results)} values but Tout lists "
                                   f"{len(tout)} dtypes.", "EagerPyFunc")
    converted = []
    for value, dtype in zip(results, tout):
        t = convert_to_tensor(value, dtype_hint=dtype)
        if t.dtype is not dtype:
            raise InvalidArgumentError(f"{name}: the function returned a {t.dtype.name} tensor where Tout says "
                                       f"{dtype.name}.", "EagerPyFunc")
        converted.append(t)
    return converted


def _kernel(*values, func, Tout, label):  # noqa: N803 - TensorFlow's attribute name
    with init_scope():
        return [t._value for t in _outputs(_call(func, values), Tout, label)] or [np.int32(0)]


def _infer(*inputs, func, Tout, label) -> list:  # noqa: N803
    """Tout's dtypes, shapes unknown; with Tout=[], one int32 token (as PrintV2's), which py_function drops."""
    return [Spec(d, TensorShape(None)) for d in Tout] or [Spec(dtypes.int32, TensorShape(()))]


PY_FUNC = defop("EagerPyFunc", _kernel, _infer,
                stateful=True, multi_output=True, doc="calls the Python function `func` when the graph runs")


def _grad_kernel(*values, func, Tout, label, count):  # noqa: N803
    from runtime.autodiff import GradientTape  # import cycle: autodiff imports the ops

    with init_scope():
        xs = [wrap(v) for v in values[:count]]
        with GradientTape() as tape:
            tape.watch(xs)
            ys = _outputs(func(*xs), Tout, label)
        grads = tape.gradient(ys, xs, output_gradients=[wrap(g) for g in values[count:]],
                              unconnected_gradients="zero")
    return [g._value for g in grads]


PY_FUNC_GRAD = defop("EagerPyFuncGrad", _grad_kernel,
                     lambda *inputs, func, Tout, label, count: [Spec(t.dtype, t.shape) for t in inputs[:count]],
                     stateful=True, multi_output=True,
                     doc="the gradient of an EagerPyFunc: its function run again under a GradientTape")


def gradient(grads, inputs, outputs, func, Tout, label):  # noqa: N803
    """The rule of EagerPyFunc: an EagerPyFuncGrad op (None for inputs that are not floats)."""
    floats = [t.dtype.is_floating or t.dtype.is_complex for t in inputs]
    if not any(floats) or not Tout:
        return (None,) * len(inputs)
    from runtime.ops.array_ops import zeros_like  # import cycle

    upstream = [zeros_like(y) if g is None else g for g, y in zip(grads, outputs)]
    out = apply(PY_FUNC_GRAD, *inputs, *upstream, func=func, Tout=Tout, label=label, count=len(inputs))
    return tuple(g if is_float else None for g, is_float in zip(out, floats))


def py_function(func, inp, Tout, name=None):  # noqa: N803
    """Call the Python function `func` on the tensors `inp`: now when eager, when the graph runs when traced.
    `Tout` is a dtype (one tensor returned), a list of dtypes (a list returned) or `[]` (None returned)."""
    single, tout, inputs, label = _call_parts("py_function", func, inp, Tout, name)
    if context.graph is None:
        outputs = _outputs(func(*inputs), tout, label)
    else:
        outputs = apply(PY_FUNC, *inputs, func=func, Tout=tout, label=label, name=name)
    return _returned(outputs, single, tout)


def _call_parts(what: str, func, inp, Tout, name) -> tuple:  # noqa: N803
    """Whether `Tout` is one dtype, its dtypes, the input tensors and the label of a py_function or
    numpy_function call."""
    if not callable(func):
        raise TypeError(f"{what}: func must be callable, got {func!r}.")
    single = not isinstance(Tout, (list, tuple))
    tout = tuple(dtypes.as_dtype(d) for d in ([Tout] if single else Tout))
    inputs = [convert_to_tensor(x) for x in (inp if isinstance(inp, (list, tuple)) else [inp])]
    return single, tout, inputs, name or getattr(func, "__name__", what)


def _returned(outputs: list, single: bool, tout: tuple):
    """What the call returns: one tensor for one dtype, a list for a list of them, None for `[]`."""
    if single:
        return outputs[0]
    return list(outputs[:len(tout)]) if tout else None


def _as_numpy(value) -> np.ndarray:
    """What TensorFlow hands a numpy_function: an ndarray, 0-d for a scalar; strings as an object array of
    Python bytes."""
    array = np.asarray(value)
    if array.dtype.kind in "SO":
        return np.array([bytes(x) for x in array.ravel()] or [], dtype=object).reshape(array.shape)
    return array


def _numpy_kernel(*values, func, Tout, label):  # noqa: N803
    with init_scope():
        result = func(*[_as_numpy(v) for v in values])
        return [t._value for t in _outputs(result, Tout, label)] or [np.int32(0)]


NUMPY_FUNC = defop("PyFunc", _numpy_kernel, _infer, stateful=True, multi_output=True,
                   doc="calls the Python function `func` on NumPy arrays when the graph runs")
NUMPY_FUNC_STATELESS = defop("PyFuncStateless", _numpy_kernel, _infer, multi_output=True,
                             doc="PyFunc of a function without side effects: pruned when its outputs are not needed")


def numpy_function(func, inp, Tout, stateful=True, name=None):  # noqa: N803
    """Call the Python function `func` on the NumPy values of the tensors `inp`: now when eager, when the graph
    runs when traced. `Tout` as `py_function`'s. No gradient flows through it, as in TensorFlow."""
    single, tout, inputs, label = _call_parts("numpy_function", func, inp, Tout, name)
    op = NUMPY_FUNC if stateful else NUMPY_FUNC_STATELESS
    return _returned(apply(op, *inputs, func=func, Tout=tout, label=label, name=name), single, tout)

"""`GradientTape.jacobian` and `GradientTape.batch_jacobian`, as TensorFlow defines them.

A Jacobian is one gradient per element of the target: the backward pass run
with an output gradient that is 1 at that element and 0 elsewhere, the rows
stacked. Eagerly the rows are a Python loop; while tracing, a `while_loop`
writing them to TensorArrays, so the graph holds one backward pass however
large the target (TensorFlow vectorizes the loop with pfor instead; the
values are the same).

    with tf.GradientTape() as g:
        g.watch(x)                  # x = [1., 2.]
        y = x * x
    g.jacobian(y, x)                # [[2., 0.], [0., 4.]]

`batch_jacobian(target, source)` takes row b of the target to depend on row b
of the source only, and gives d target[b, i...] / d source[b, j...]: one
backward pass per element of a row, each seeding that element in every row.
Where the target does not depend on the source it gives zeros of the target's
dtype, as TensorFlow's does, whatever `unconnected_gradients` says (`jacobian`
gives None then, unless it says "zero").
"""
from __future__ import annotations

from typing import Callable

from runtime import nest
from runtime.control_flow import while_loop
from runtime.ops import array_ops, math_ops, registry
from runtime.ops.extra_array_ops import broadcast_to
from runtime.shape import TensorShape, as_shape
from runtime.tensor import Tensor, convert_to_tensor
from runtime.tensor_array import TensorArray


def jacobian(tape, target, sources, unconnected_gradients: str, use_pfor: bool):
    """d target[i...] / d source[j...], shaped target.shape + source.shape, in the structure of `sources`."""
    tape._start_jacobian("jacobian", use_pfor)
    differentiated, target = target, _tensor(target)    # a Variable target stays one: its own gradient is 1
    flat = nest.flatten(sources)
    count = _count(target.shape, lambda: array_ops.size(target))

    def seed(i):
        return array_ops.reshape(_one_hot(i, count, target.dtype), _shape_of(target))

    rows = _rows(tape, _target(differentiated, target), flat, count, seed, unconnected_gradients)
    out = [_reshaped(r, target, s) for r, s in zip(rows, flat)]
    return nest.pack(sources, out)


def batch_jacobian(tape, target, source, unconnected_gradients: str, use_pfor: bool):
    """d target[b, i...] / d source[b, j...], shaped [batch] + target.shape[1:] + source.shape[1:]."""
    tape._start_jacobian("batch_jacobian", use_pfor)
    differentiated, target = target, _tensor(target)
    source_shape = as_shape(source.shape)
    _check_batched(target.shape, source_shape)
    row_shape = TensorShape(target.shape.dims[1:])
    count = _count(row_shape, lambda: array_ops.size(target) // array_ops.shape(target)[0])
    batch = target.shape.dims[0] if target.shape.dims[0] is not None else array_ops.shape(target)[0]

    def seed(j):
        row = _one_hot(j, count, target.dtype)
        return array_ops.reshape(broadcast_to(row, [batch, count]), _shape_of(target))

    found = _rows(tape, _target(differentiated, target), [source], count, seed, unconnected_gradients)[0]
    static = TensorShape([target.shape.dims[0], *row_shape.dims, *source_shape.dims[1:]])
    dims = static.as_list() if static.is_fully_defined() else \
        array_ops.concat([array_ops.shape(target), array_ops.shape(source)[1:]], axis=0)
    if found is None:   # TensorFlow's: zeros of the target's dtype, never None (its jacobian gives None)
        return array_ops.zeros(dims, dtype=target.dtype)
    rank = source_shape.rank
    found = array_ops.transpose(found, [1, 0, *range(2, rank + 1)])   # [count, batch, ...] -> [batch, count, ...]
    return array_ops.reshape(found, dims)


def _tensor(value):
    if not (isinstance(value, Tensor) or hasattr(value, "read_value")):   # a list would become a new tensor
        raise TypeError(f"jacobian: the target must be one tensor or Variable, got {type(value).__name__}; ask "
                        "for each tensor of a structure in turn.")
    return value.read_value() if hasattr(value, "read_value") and not isinstance(value, Tensor) else \
        convert_to_tensor(value)


def _target(given, value):
    """What the backward passes start from: a Variable as given (the tape seeds its reads, and itself as a
    source), else its value as a tensor."""
    return given if hasattr(given, "read_value") and not isinstance(given, Tensor) else value


def _count(shape: TensorShape, dynamic: Callable):
    return shape.num_elements() if shape.is_fully_defined() else dynamic()


def _shape_of(t):
    shape = as_shape(t.shape)
    return shape.as_list() if shape.is_fully_defined() else array_ops.shape(t)


def _one_hot(i, count, dtype):
    """A vector of `count` zeros with a one at `i`."""
    return math_ops.cast(math_ops.equal(array_ops.range(count), i), dtype)


def _check_batched(target: TensorShape, source: TensorShape) -> None:
    if target.rank is None or source.rank is None or target.rank < 2 or source.rank < 2:
        raise ValueError(f"batch_jacobian: the target (shape {target}) and the source (shape {source}) need "
                         "rank at least 2: a batch dimension, then each row's. Add one with tf.expand_dims, or "
                         "use jacobian.")
    if not target[0:1].is_compatible_with(source[0:1]):
        raise ValueError(f"batch_jacobian: need first dimension of target shape ({target}) and source shape "
                         f"({source}) to match.")


def _rows(tape, target, sources: list, count, seed: Callable, unconnected: str) -> list:
    """For each source, the gradients of `target` weighted by seed(i) for i in range(count), stacked on a
    new first axis; None for a source that the target does not reach (zeros when unconnected='zero')."""
    if registry.context.graph is None:
        rows = [tape._gradients([target], sources, [seed(i)], "none") for i in range(count)]
        found = [[row[k] for row in rows] for k in range(len(sources))]
        return [_stacked(grads, s, count, unconnected) for grads, s in zip(found, sources)]
    connected: list = []

    def body(i, *arrays):
        grads = tape._gradients([target], sources, [seed(i)], "none")
        connected[:] = [g is not None for g in grads]
        return (i + 1, *(a.write(i, g if g is not None else _zeros(s)) for a, g, s in zip(arrays, grads, sources)))

    arrays = [TensorArray(s.dtype, size=count, element_shape=s.shape) for s in sources]
    final = while_loop(lambda i, *arrays: math_ops.less(i, count), body, (0, *arrays))
    return [a.stack() if joined or unconnected == "zero" else None
            for a, joined in zip(final[1:], connected)]


def _stacked(grads: list, source, count, unconnected: str):
    if count == 0 or all(g is None for g in grads):
        if unconnected != "zero":
            return None
        return array_ops.zeros([count, *as_shape(source.shape).as_list()], dtype=source.dtype)
    return array_ops.stack([g if g is not None else _zeros(source) for g in grads])


def _zeros(source):
    if isinstance(source, Tensor):
        return array_ops.zeros_like(source)
    return array_ops.zeros(as_shape(source.shape).as_list(), dtype=source.dtype)   # a Variable


def _reshaped(found, target, source):
    """The stacked rows [count, ...] as target.shape + source.shape."""
    if found is None:
        return None
    if target.shape.is_fully_defined() and as_shape(source.shape).is_fully_defined():
        static = TensorShape([*target.shape.dims, *as_shape(source.shape).dims])
        return array_ops.reshape(found, static.as_list())
    return array_ops.reshape(found, array_ops.concat([array_ops.shape(target), array_ops.shape(source)], axis=0))

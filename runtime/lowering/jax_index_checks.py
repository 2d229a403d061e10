"""Index checks under jit_compile=True (jax_checks.py): a tensor index of `StridedSlice`, `GatherV2`, `GatherNd`,
`ScatterNd` indices and a sparse cross-entropy's labels. XLA clamps an index out of range to the nearest item,
where the executor raises; the shape they index is static, recorded while lowering (`Checks.shapes`)."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from runtime.lowering.jax_check_base import Check, Length, failing
from runtime.lowering.jax_effects import Lowering
from runtime.lowering.to_jax import LazyRange, materialised, strided_slice


class IndexCheck(Check):
    """An index into a static shape, which the op records while lowering (`Checks.shapes`)."""

    index = True
    slot = 1   # the input holding the indices (all an index check reports)

    def reported(self, op) -> list:
        return [op.inputs[self.slot]]

    def lower(self, lowering: Lowering, op, *inputs):
        shape = self.shape(op, inputs)
        lowering.checks.shapes[id(op)] = shape
        indices = inputs[self.slot]
        failing(lowering, op, self.fails(op, indices, shape), [indices])
        return self.value(op, inputs)


class GatherV2(IndexCheck):
    def shape(self, op, inputs) -> tuple:
        return materialised(inputs[0]).shape

    def fails(self, op, indices, shape):
        return jnp.any((indices < 0) | (indices >= shape[op.attrs["axis"]]))

    def value(self, op, inputs):
        return jnp.take(materialised(inputs[0]), inputs[1], axis=op.attrs["axis"])

    def kernel_inputs(self, op, args: list, shape) -> list:
        return [np.zeros(shape), args[0]]


class GatherNd(GatherV2):
    def fails(self, op, indices, shape):
        return _nd_fails(indices, shape)

    def value(self, op, inputs):
        return materialised(inputs[0])[tuple(jnp.moveaxis(inputs[1], -1, 0))]


def _nd_fails(indices, shape):
    return jnp.any((indices < 0) | (indices >= jnp.asarray(shape[:indices.shape[-1]])))


class ScatterNd(IndexCheck):
    slot = 0

    def shape(self, op, inputs) -> tuple:
        return tuple(op.attrs["shape"])

    def fails(self, op, indices, shape):
        return _nd_fails(indices, shape)

    def value(self, op, inputs):
        indices, updates = inputs
        return jnp.zeros(tuple(op.attrs["shape"]), updates.dtype).at[tuple(jnp.moveaxis(indices, -1, 0))].add(updates)

    def kernel_inputs(self, op, args: list, shape) -> list:
        return [args[0], np.zeros(args[0].shape[:-1]), list(shape)]


class SparseCrossEntropy(IndexCheck):
    """`SparseSoftmaxCrossEntropyWithLogits`: its labels index the logits' last axis."""

    slot = 0

    def shape(self, op, inputs) -> tuple:
        return inputs[1].shape

    def fails(self, op, labels, shape):
        return jnp.any((labels < 0) | (labels >= shape[-1]))

    def value(self, op, inputs):
        labels, logits = inputs
        n = logits.shape[-1]
        log_p = jax.nn.log_softmax(logits, axis=-1)
        index = jnp.clip(labels, 0, n - 1)[..., None]
        loss = -jnp.take_along_axis(log_p, index, -1)[..., 0]
        backprop = jnp.exp(log_p)
        backprop = jnp.where(jnp.arange(n) == index, backprop - 1, backprop)
        return [loss.astype(logits.dtype), backprop.astype(logits.dtype)]

    def kernel_inputs(self, op, args: list, shape) -> list:
        return [args[0], np.zeros(shape)]


class StridedSlice(IndexCheck):
    """A StridedSlice's scalar tensor indices, checked `-n <= i < n` as the executor's kernel checks them: not a
    slice's bounds, which clamp as Python's do, nor an index known to be in range (`_in_range`). Of a `Range`
    with traced bounds (a LazyRange) the length is traced, so it is reported too, not recorded."""

    def needed(self, op) -> bool:
        return bool(_int_slots(op))

    def reported(self, op) -> list:
        return [op.inputs[1 + k] for k in _int_slots(op)] + ([Length()] if _indexes_a_range(op) else [])

    def lower(self, lowering: Lowering, op, x, *index_values):
        lazy = isinstance(x, LazyRange)
        shape = (x.length(),) if lazy and _key_items(op) == [("$", 0)] else materialised(x).shape
        if not lazy:
            lowering.checks.shapes[id(op)] = shape
        fails = jnp.asarray(False)
        slots = _int_slot_axes(op, len(shape))
        for k, axis in slots:
            i, n = index_values[k], shape[axis]
            fails = fails | (i < -n) | (i >= n)
        ranged = [shape[0]] if _indexes_a_range(op) else []
        failing(lowering, op, fails, [index_values[k] for k, _ in slots] + ranged)
        return strided_slice(x, *index_values, spec=op.attrs["spec"])

    def kernel_inputs(self, op, args: list, shape) -> list:
        """Zeros of the indexed shape, the reported indices in their slots (0 for a slice's bounds, which never
        raise)."""
        values = [0] * (len(op.inputs) - 1)
        for k, value in zip(_int_slots(op), args):
            values[k] = value
        return [np.zeros(shape or (int(args[-1]),)), *values]


def _indexes_a_range(op) -> bool:
    """Is `op` a StridedSlice of a `Range`'s output (lowered as a LazyRange, whose length is traced)?"""
    source = op.inputs[0].op
    return source is not None and source.type == "Range"


def _key_items(op) -> list:
    spec = op.attrs["spec"]
    return list(spec) if isinstance(spec, tuple) and not (spec and spec[0] in ("slice", "$")) else [spec]


def _int_slots(op) -> list:
    """The slot numbers of the scalar tensor indices in a StridedSlice's key that are checked."""
    return [k for k, _ in _int_slot_axes(op, op.inputs[0].shape.rank)]


def _int_slot_axes(op, rank) -> list:
    """(slot number, the axis it indexes) of each checked index, for a tensor of `rank` (None: unknown)."""
    key, found, axis = _key_items(op), [], 0
    for i, k in enumerate(key):
        if k == "...":
            axis = None if rank is None else rank - sum(1 for later in key[i + 1:] if later is not None)
        elif k is not None:
            if _is_int_slot(k) and not _in_range(op, k[1], axis):
                found.append((k[1], axis))
            axis = None if axis is None else axis + 1
    return found


def _in_range(op, slot: int, axis) -> bool:
    """Is the index in `slot` known to be in range: one of the values of a `range` (a `for` over `tf.range` reads
    them, runtime/backend.py) whose bounds tracing knows, all inside the indexed axis's static length?"""
    from runtime.backend import range_of
    from runtime.control_flow import static_value
    source = range_of(op.inputs[1 + slot])
    dims = op.inputs[0].shape.dims
    if source is None or axis is None or dims is None or dims[axis] is None:
        return False
    bounds = [static_value(t) for t in source.op.inputs]
    if any(b is None or np.ndim(b) != 0 for b in bounds):
        return False
    start, limit, delta = (int(b) for b in bounds)
    values = range(start, limit, delta)
    return len(values) == 0 or -dims[axis] <= min(values[0], values[-1]) and max(values[0], values[-1]) < dims[axis]


def _is_int_slot(k) -> bool:
    return isinstance(k, tuple) and len(k) == 2 and k[0] == "$"

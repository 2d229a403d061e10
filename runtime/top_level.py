"""Small TensorFlow top-level functions: `inside_function`, `is_symbolic_tensor`, `get_logger`,
`broadcast_static_shape`, `broadcast_dynamic_shape`, `shape_n`, `realdiv`, `reverse_sequence`,
`dynamic_partition` and `grad_pass_through`."""
from __future__ import annotations

import logging

from runtime import dtypes
from runtime.errors import InvalidArgumentError
from runtime.ops import array_ops, math_ops
from runtime.ops.extra_array_ops import boolean_mask
from runtime.ops.registry import broadcast_shapes, context
from runtime.shape import as_shape
from runtime.tensor import SymbolicTensor, convert_to_tensor


def inside_function() -> bool:
    """Whether a function is being traced."""
    return context.graph is not None


def is_symbolic_tensor(tensor) -> bool:
    """Whether `tensor` is a tensor of a graph being traced (not an eager one)."""
    return isinstance(tensor, SymbolicTensor)


def get_logger() -> logging.Logger:
    """The logger named "tensorflow", as TensorFlow's."""
    return logging.getLogger("tensorflow")


def broadcast_static_shape(shape_x, shape_y):
    """The shape two shapes broadcast to, as far as they are known; ValueError where they can't."""
    try:
        return broadcast_shapes(as_shape(shape_x), as_shape(shape_y), "BroadcastStaticShape")
    except InvalidArgumentError as e:
        raise ValueError(str(e)) from None


def broadcast_dynamic_shape(shape_x, shape_y):
    """The shape (a vector) that tensors of shapes `shape_x` and `shape_y` broadcast to; an error (when the op
    runs) where they can't."""
    from runtime.debugging import Assert   # import cycle: debugging imports the ops
    x, y = convert_to_tensor(shape_x, dtype_hint=dtypes.int32), convert_to_tensor(shape_y, dtype_hint=dtypes.int32)
    size = math_ops.maximum(array_ops.size(x), array_ops.size(y))
    x, y = (array_ops.concat([array_ops.ones(array_ops.reshape(size - array_ops.size(s), [1]), s.dtype), s], 0)
            for s in (x, y))
    fits = math_ops.logical_or(math_ops.equal(x, y), math_ops.logical_or(math_ops.equal(x, 1), math_ops.equal(y, 1)))
    Assert(math_ops.reduce_all(fits), ["Incompatible shapes:", x, "and", y])
    return array_ops.where(math_ops.equal(x, 1), y, x)


def shape_n(input, out_type=dtypes.int32, name=None):  # noqa: A002
    """The shapes of a list of tensors."""
    return [array_ops.shape(t, out_type=out_type) for t in input]


def realdiv(x, y, name=None):
    """x / y for floating tensors (TensorFlow's RealDiv)."""
    x = convert_to_tensor(x)
    if not (x.dtype.is_floating or x.dtype.is_complex):
        raise InvalidArgumentError(f"RealDiv: needs floating tensors, got {x.dtype.name}; use tf.math.truediv for "
                                   "integers.", "RealDiv")
    return math_ops.divide(x, y, name=name)


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=0, name=None):  # noqa: A002
    """For each batch entry b, its first seq_lengths[b] items along `seq_axis` reversed, the rest kept."""
    x = convert_to_tensor(input)
    lengths = convert_to_tensor(seq_lengths)
    if seq_axis is None or x.shape.rank is None:
        raise ValueError("reverse_sequence: seq_axis is required, and the input's rank must be known.")
    rank = x.shape.rank
    seq_axis, batch_axis = seq_axis % rank, batch_axis % rank
    n = array_ops.shape(x, out_type=lengths.dtype)[seq_axis]
    positions = array_ops.range(n, dtype=lengths.dtype)   # [n]
    lengths_b = array_ops.expand_dims(lengths, 1)          # [batch, 1]
    source = array_ops.where(positions < lengths_b, lengths_b - 1 - positions, positions + 0 * lengths_b)
    # move the batch and sequence axes to the front, gather each batch entry's positions, move them back
    order = [batch_axis, seq_axis] + [a for a in range(rank) if a not in (batch_axis, seq_axis)]
    moved = array_ops.transpose(x, order)
    from runtime.ops.nd_ops import batched_gather
    gathered = batched_gather(moved, source, 1, 1)
    back = [order.index(a) for a in range(rank)]
    return array_ops.transpose(gathered, back, name=name)


def dynamic_partition(data, partitions, num_partitions, name=None):
    """The rows of `data` whose partition is i, for each i below `num_partitions`, in order."""
    data, partitions = convert_to_tensor(data), convert_to_tensor(partitions)
    from runtime.debugging import assert_less, assert_non_negative   # import cycle: debugging imports the ops
    assert_non_negative(partitions, message="dynamic_partition: partitions must be non-negative")
    assert_less(partitions, math_ops.cast(num_partitions, partitions.dtype),
                message=f"dynamic_partition: partitions must be less than num_partitions ({num_partitions})")
    return [boolean_mask(data, math_ops.equal(partitions, math_ops.cast(i, partitions.dtype)))
            for i in range(int(num_partitions))]


def grad_pass_through(f):
    """`f`, whose gradient is the identity: the incoming gradient passed to its input unchanged."""
    from runtime.custom_gradients import custom_gradient

    @custom_gradient
    def passed(x):
        return f(x), lambda dy: dy
    return passed

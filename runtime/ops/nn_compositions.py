"""More of `tf.nn`, as compositions of the runtime's ops with TensorFlow's formulas: `batch_normalization`,
`weighted_cross_entropy_with_logits`, `log_poisson_loss`, `compute_average_loss`, `sufficient_statistics`,
`normalize_moments`, `crelu`, `space_to_depth` and `depth_to_space` (NHWC)."""
from __future__ import annotations

import math

from runtime.errors import InvalidArgumentError
from runtime.ops import array_ops, math_ops
from runtime.ops.extra_math import log1p, rsqrt
from runtime.tensor import convert_to_tensor


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """(x - mean) * scale / sqrt(variance + variance_epsilon) + offset; `offset` and `scale` may be None."""
    x = convert_to_tensor(x)
    inv = rsqrt(convert_to_tensor(variance, dtype_hint=x.dtype) + variance_epsilon)
    if scale is not None:
        inv = inv * scale
    shift = offset - mean * inv if offset is not None else -mean * inv
    return math_ops.add(x * math_ops.cast(inv, x.dtype), math_ops.cast(shift, x.dtype), name=name)


def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None):
    """The sigmoid cross-entropy with the positive term weighted by `pos_weight`, computed without overflow:
    (1 - z) * x + (1 + (q - 1) * z) * (log1p(exp(-|x|)) + max(-x, 0))."""
    logits = convert_to_tensor(logits)
    labels = convert_to_tensor(labels, dtype_hint=logits.dtype)
    if labels.shape.rank is not None and logits.shape.rank is not None and \
            not labels.shape.is_compatible_with(logits.shape):
        raise ValueError(f"weighted_cross_entropy_with_logits: logits and labels must have the same shape, got "
                         f"{logits.shape} and {labels.shape}.")
    log_weight = 1 + (pos_weight - 1) * labels
    softplus = log1p(math_ops.exp(-math_ops.abs(logits))) + math_ops.maximum(-logits, 0)
    return math_ops.add((1 - labels) * logits, log_weight * softplus, name=name)


def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """exp(log_input) - targets * log_input, plus Stirling's approximation of log(targets!) where targets > 1
    when `compute_full_loss`."""
    log_input = convert_to_tensor(log_input)
    targets = convert_to_tensor(targets, dtype_hint=log_input.dtype)
    loss = math_ops.exp(log_input) - log_input * targets
    if compute_full_loss:
        safe = array_ops.where(targets > 1, targets, array_ops.ones_like(targets))
        stirling = safe * math_ops.log(safe) - safe + 0.5 * math_ops.log(2 * math.pi * safe)
        loss = loss + array_ops.where(targets > 1, stirling, array_ops.zeros_like(targets))
    return array_ops.identity(loss, name=name)


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """The sum of the (weighted) per-example losses over `global_batch_size` (the batch size when None)."""
    loss = convert_to_tensor(per_example_loss)
    if sample_weight is not None:
        loss = loss * math_ops.cast(sample_weight, loss.dtype)
    total = math_ops.reduce_sum(loss)
    if global_batch_size is None:
        global_batch_size = array_ops.shape(loss)[0] if loss.shape.rank else 1
    return math_ops.divide(total, math_ops.cast(global_batch_size, loss.dtype))


def sufficient_statistics(x, axes, shift=None, keepdims=False, name=None):
    """(count, sum of x - shift, sum of (x - shift)**2, shift) over `axes`."""
    x = convert_to_tensor(x)
    counts = math_ops.cast(math_ops.reduce_prod(array_ops.gather(array_ops.shape(x), axes)), x.dtype)
    centred = x - shift if shift is not None else x
    mean_ss = math_ops.reduce_sum(centred, axis=axes, keepdims=keepdims)
    var_ss = math_ops.reduce_sum(math_ops.square(centred), axis=axes, keepdims=keepdims)
    return counts, mean_ss, var_ss, shift


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """(mean, variance) from `sufficient_statistics`' sums."""
    divisor = 1.0 / counts
    shifted_mean = mean_ss * divisor
    mean = shifted_mean + shift if shift is not None else shifted_mean
    variance = variance_ss * divisor - math_ops.square(shifted_mean)
    return mean, variance


def crelu(features, axis=-1, name=None):
    """relu(x) and relu(-x), concatenated along `axis`."""
    x = convert_to_tensor(features)
    return array_ops.concat([math_ops.maximum(x, 0), math_ops.maximum(-x, 0)], axis, name=name)


def space_to_depth(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    """Each block_size x block_size block of an NHWC tensor's height and width moved into its channels."""
    x, (n, h, w, c) = _nhwc(input, data_format, "SpaceToDepth")
    b = int(block_size)
    if h % b or w % b:
        raise InvalidArgumentError(f"SpaceToDepth: height {h} and width {w} must be divisible by the block size "
                                   f"{b}.", "SpaceToDepth")
    blocks = array_ops.reshape(x, [-1, h // b, b, w // b, b, c])
    return array_ops.reshape(array_ops.transpose(blocks, [0, 1, 3, 2, 4, 5]), [-1, h // b, w // b, b * b * c],
                             name=name)


def depth_to_space(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    """`space_to_depth` undone: each position's channels spread into a block_size x block_size block."""
    x, (n, h, w, c) = _nhwc(input, data_format, "DepthToSpace")
    b = int(block_size)
    if c % (b * b):
        raise InvalidArgumentError(f"DepthToSpace: the channels ({c}) must be divisible by the block size squared "
                                   f"({b * b}).", "DepthToSpace")
    blocks = array_ops.reshape(x, [-1, h, w, b, b, c // (b * b)])
    return array_ops.reshape(array_ops.transpose(blocks, [0, 1, 3, 2, 4, 5]), [-1, h * b, w * b, c // (b * b)],
                             name=name)


def _nhwc(value, data_format, op: str):
    if data_format != "NHWC":
        raise InvalidArgumentError(f"{op}: only the NHWC data format is supported here, got {data_format!r}.", op)
    x = convert_to_tensor(value)
    if x.shape.rank != 4 or None in x.shape.dims[1:]:
        raise InvalidArgumentError(f"{op}: needs a rank-4 input whose height, width and channels are known, got "
                                   f"{x.shape}.", op)
    return x, x.shape.dims


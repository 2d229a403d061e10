"""`tf.keras.optimizers.schedules`: learning rates that change with the optimizer's step.

An optimizer given a schedule as its `learning_rate` uses `schedule(step)` for each `apply_gradients`, `step`
its `iterations` before that call counts it (0 for the first), as Keras 3 does; the schedules compute with
tensor ops, so they run eagerly and in a traced training step alike.
"""
from __future__ import annotations

import math

from runtime import dtypes
from runtime.ops import math_ops
from runtime.ops.array_ops import where
from runtime.tensor import convert_to_tensor


class LearningRateSchedule:
    """Base class: `schedule(step)` is the learning rate at `step`."""

    def __call__(self, step):
        raise NotImplementedError(f"{type(self).__name__} must define __call__(step).")

    def get_config(self) -> dict:
        return dict(vars(self))

    @classmethod
    def from_config(cls, config: dict):
        return cls(**config)


def _float(step):
    return math_ops.cast(convert_to_tensor(step), dtypes.float32)


class _Decay(LearningRateSchedule):
    """A rate that decays with `step / decay_steps` (floored if `staircase`)."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name=None):
        if decay_steps <= 0:
            raise ValueError(f"{type(self).__name__}: decay_steps must be positive, got {decay_steps}.")
        self.initial_learning_rate, self.decay_steps, self.decay_rate = initial_learning_rate, decay_steps, decay_rate
        self.staircase, self.name = staircase, name or type(self).__name__

    def _progress(self, step):
        p = _float(step) / float(self.decay_steps)
        return math_ops.floor(p) if self.staircase else p


class ExponentialDecay(_Decay):
    """`initial_learning_rate * decay_rate ** (step / decay_steps)`, the exponent floored if `staircase`."""

    def __call__(self, step):
        rate = convert_to_tensor(float(self.decay_rate))
        return float(self.initial_learning_rate) * math_ops.pow(rate, self._progress(step))


class InverseTimeDecay(_Decay):
    """`initial_learning_rate / (1 + decay_rate * step / decay_steps)`, the ratio floored if `staircase`."""

    def __call__(self, step):
        return float(self.initial_learning_rate) / (1.0 + float(self.decay_rate) * self._progress(step))


class PiecewiseConstantDecay(LearningRateSchedule):
    """`values[0]` up to and including `boundaries[0]`, `values[i]` after `boundaries[i - 1]` up to and
    including `boundaries[i]`, `values[-1]` after the last boundary."""

    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        if len(values) != len(boundaries) + 1:
            raise ValueError(f"PiecewiseConstantDecay: values must have one more element than boundaries, got "
                             f"{len(values)} values and {len(boundaries)} boundaries.")
        self.boundaries, self.values, self.name = list(boundaries), list(values), name

    def __call__(self, step):
        step = convert_to_tensor(step)
        rate = convert_to_tensor(float(self.values[-1]))
        for boundary, value in reversed(list(zip(self.boundaries, self.values))):
            rate = where(step <= math_ops.cast(boundary, step.dtype), convert_to_tensor(float(value)), rate)
        return rate


class PolynomialDecay(LearningRateSchedule):
    """From `initial_learning_rate` to `end_learning_rate` over `decay_steps` steps along
    `(1 - step / decay_steps) ** power`; then `end_learning_rate`, or, with `cycle`, again over a span of
    `decay_steps` times the number of spans `step` has entered."""

    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False,
                 name="PolynomialDecay"):
        if decay_steps <= 0:
            raise ValueError(f"PolynomialDecay: decay_steps must be positive, got {decay_steps}.")
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.end_learning_rate, self.power, self.cycle, self.name = end_learning_rate, power, cycle, name

    def __call__(self, step):
        step = _float(step)
        span = float(self.decay_steps)
        if self.cycle:
            spans = math_ops.ceil(step / span)
            span = span * where(step > 0, spans, convert_to_tensor(1.0))   # (step 0: the first span)
        else:
            step = math_ops.minimum(step, span)
        fraction = 1.0 - step / span
        start, end = float(self.initial_learning_rate), float(self.end_learning_rate)
        return (start - end) * math_ops.pow(fraction, convert_to_tensor(float(self.power))) + end


class CosineDecay(LearningRateSchedule):
    """Optionally `warmup_steps` of linear warm-up from `initial_learning_rate` to `warmup_target`, then
    half a cosine over `decay_steps` from there down to `alpha` times it, then that."""

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name="CosineDecay", warmup_target=None,
                 warmup_steps=0):
        self.initial_learning_rate, self.decay_steps, self.alpha, self.name = initial_learning_rate, decay_steps, \
            alpha, name
        self.warmup_target, self.warmup_steps = warmup_target, warmup_steps

    def __call__(self, step):
        step = _float(step)
        start = float(self.initial_learning_rate)
        top = start if self.warmup_target is None else float(self.warmup_target)
        warm = float(self.warmup_steps)
        progress = math_ops.minimum(step - warm, float(self.decay_steps)) / float(self.decay_steps)
        cosine = 0.5 * (1.0 + math_ops.cos(math.pi * progress))
        decayed = top * ((1.0 - float(self.alpha)) * cosine + float(self.alpha))
        if self.warmup_target is None or not warm:
            return decayed
        warming = start + (top - start) * (step / warm)
        return where(step < warm, warming, decayed)

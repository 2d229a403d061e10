"""`keras.metrics.Mean`: the running mean of the values it is given, kept in two Variables."""
from __future__ import annotations

from runtime import dtypes
from runtime.module import Module
from runtime.ops.array_ops import size, where
from runtime.ops.math_ops import cast, greater, reduce_sum
from runtime.tensor import convert_to_tensor
from runtime.variables import Variable


class Mean(Module):
    """`m(values)` (or `m.update_state(values)`) adds values; `m.result()` is their mean so far."""

    def __init__(self, name: str = "mean", dtype=dtypes.float32):
        super().__init__(name=name)
        self.total = Variable(0.0, dtype=dtype, name=f"{name}/total", trainable=False)
        self.count = Variable(0.0, dtype=dtype, name=f"{name}/count", trainable=False)

    def update_state(self, values, sample_weight=None):
        values = cast(convert_to_tensor(values), self.total.dtype)
        if sample_weight is None:
            self.total.assign_add(reduce_sum(values))
            self.count.assign_add(cast(size(values), self.total.dtype))
        else:
            weights = cast(convert_to_tensor(sample_weight), self.total.dtype) * (values * 0 + 1)
            self.total.assign_add(reduce_sum(values * weights))
            self.count.assign_add(reduce_sum(weights))

    def result(self):
        """total / count, or 0 before any value (TensorFlow's divide_no_nan)."""
        counted = greater(self.count, 0.0)
        return where(counted, self.total / where(counted, self.count, 1.0), 0.0)

    def reset_state(self) -> None:
        self.total.assign(0.0)
        self.count.assign(0.0)

    reset_states = reset_state

    def __call__(self, values, sample_weight=None):
        self.update_state(values, sample_weight)
        return self.result()

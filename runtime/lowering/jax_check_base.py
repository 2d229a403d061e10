"""The pieces every check of jax_checks.py is made of: `Slot` (functional state for what a check reports),
`Check` (one kind of checked op), `failing` (record where a check fails) and `Length` (a reported value that is
no tensor of the graph)."""
from __future__ import annotations

import jax
import jax.numpy as jnp

from runtime.lowering.jax_effects import Lowering
from runtime.lowering.to_jax import materialised


class Slot:
    """Functional state that is not a Variable's: the number of the check that failed (0: none yet), or a
    value a check reports when it fails (a raised exception's tensor argument, an assertion's data)."""

    def __init__(self, dtype, shape: tuple, what: str):
        self.dtype, self.shape, self.what = dtype, shape, what

    def initial(self):
        return jnp.zeros(self.shape, self.jax_dtype())

    def jax_dtype(self):
        """The slot's dtype as JAX computes it now (a float64 one is a float64 where the function runs with
        jax_enable_x64, as a Python float's checks do: taken when tracing, not when the checks are listed)."""
        return jax.dtypes.canonicalize_dtype(self.dtype)

    def __repr__(self) -> str:
        return f"<Slot {self.what}>"


class Check:
    """One kind of checked op. `reported(op)`: the tensors it reports when it fails; `lower(lowering, op,
    *inputs)`: its JAX value, recording where it fails (`failing`); `kernel_inputs(op, args, shape)`: the inputs
    on which the op's executor kernel raises its error, from the reported values (`args`) and the recorded
    shape."""

    index = False   # an index check: reports no value inside a loop

    def needed(self, op) -> bool:
        return True

    def reported(self, op) -> list:
        return list(op.inputs)

    def kernel_inputs(self, op, args: list, shape) -> list:
        return args


def failing(lowering: Lowering, op, fails, values: list) -> None:
    """Record that check `op` fails where `fails` holds, if no check failed before it on this path."""
    checks, state = lowering.checks, lowering.state
    fails = jnp.logical_and(state[checks.code] == 0, fails)
    state[checks.code] = jnp.where(fails, jnp.int32(checks.ops.index(op) + 1), state[checks.code])
    for slot, value in zip(checks.values[id(op)], values):
        state[slot] = jnp.where(fails, jnp.asarray(materialised(value)).astype(slot.jax_dtype()), state[slot])


class Length:
    """A reported value that is no tensor of the graph: the length of a `runtime.range` with traced bounds."""

    @property
    def dtype(self):
        from runtime import dtypes
        return dtypes.int32

    @property
    def shape(self):
        from runtime.shape import TensorShape
        return TensorShape([])

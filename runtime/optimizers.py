"""Optimizers (TensorFlow's `tf.keras.optimizers`, also `runtime.optimizers`): `SGD` and `Adam`.

An optimizer updates Variables from their gradients:

    opt = tf.optimizers.SGD(learning_rate=0.01, momentum=0.9)
    with tf.GradientTape() as tape:
        loss = loss_fn()
    grads = tape.gradient(loss, [w, b])
    opt.apply_gradients(zip(grads, [w, b]))      # or: opt.minimize(loss_fn, [w, b])

Updates are Variable ops (`assign_sub`, ...), so the same code runs eagerly
and inside a `runtime.function`. Per-variable state (momentum, Adam's
moments) lives in slot Variables, created eagerly (under `init_scope`) the
first time a variable is updated, even while a function is traced; the
learning rate and the step count (`iterations`) are Variables too, so a
traced step sees a changed learning rate and a `train.Checkpoint` saves them.
"""
from __future__ import annotations

from typing import Iterable, Optional

from runtime import dtypes
from runtime.autodiff import GradientTape
from runtime.ops.math_ops import cast, sqrt
from runtime.scopes import init_scope
from runtime.variables import Variable


class Optimizer:
    """Base class: subclasses name their slots in `SLOTS` and define `_update(var, grad, slots)`."""

    SLOTS: tuple = ()

    def __init__(self, learning_rate: float = 0.001, name: Optional[str] = None):
        self.name = name or type(self).__name__
        self._learning_rate = Variable(float(learning_rate), dtype=dtypes.float32, name="learning_rate",
                                       trainable=False)
        self.iterations = Variable(0, dtype=dtypes.int64, name="iteration", trainable=False)
        self._slots: dict[int, dict[str, Variable]] = {}
        self._slot_owners: dict[int, Variable] = {}
        self._pending: dict[tuple, object] = {}   # (variable id, slot) -> value restored before the slot existed

    @property
    def learning_rate(self) -> Variable:
        return self._learning_rate

    @learning_rate.setter
    def learning_rate(self, value: float) -> None:
        self._learning_rate.assign(float(value))

    def apply_gradients(self, grads_and_vars: Iterable, name=None):
        """Update each variable from its gradient (pairs with a None gradient are skipped); count a step."""
        pairs = [(g, v) for g, v in grads_and_vars]
        if pairs and all(g is None for g, _ in pairs):
            raise ValueError(f"No gradients provided for any variable: {[v.name for _, v in pairs]}.")
        for grad, var in pairs:
            if grad is not None:
                self._update(var, cast(grad, var.dtype), self._slots_for(var))
        return self.iterations.assign_add(1)

    def minimize(self, loss, var_list, tape: Optional[GradientTape] = None):
        """`loss` is a callable giving the loss (or a tensor computed under `tape`); `var_list` a list of
        Variables or a callable giving one."""
        if callable(var_list):
            var_list = var_list()
        var_list = list(var_list)
        if callable(loss):
            with GradientTape() as tape:
                value = loss()
        elif tape is None:
            raise ValueError("minimize: `tape` is required when `loss` is a tensor, not a callable.")
        else:
            value = loss
        grads = tape.gradient(value, var_list)
        return self.apply_gradients(zip(grads, var_list))

    def variables(self) -> list:
        """The optimizer's own Variables: iterations, learning rate, then every slot."""
        slots = [s for var_slots in self._slots.values() for s in var_slots.values()]
        return [self.iterations, self._learning_rate, *slots]

    def _slots_for(self, var: Variable) -> dict:
        if id(var) not in self._slots:
            with init_scope():
                self._slots[id(var)] = {name: self._new_slot(var, name) for name in self.SLOTS}
            self._slot_owners[id(var)] = var
        return self._slots[id(var)]

    def _new_slot(self, var: Variable, name: str) -> Variable:
        from runtime.ops.array_ops import zeros
        slot = Variable(zeros(var.shape.as_list(), var.dtype), name=f"{var.name.split(':')[0]}/{name}",
                        trainable=False)
        pending = self._pending.pop((id(var), name), None)
        if pending is not None:
            slot.assign(pending)
        return slot

    def _lr(self, var: Variable):
        return cast(self._learning_rate, var.dtype)

    def _update(self, var: Variable, grad, slots: dict) -> None:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} learning_rate={float(self._learning_rate.numpy()):g}>"


class SGD(Optimizer):
    """Gradient descent, with momentum when `momentum > 0` (Keras's formula: the velocity is
    `momentum * velocity - lr * grad`, added to the variable; Nesterov adds `momentum * velocity - lr * grad`)."""

    def __init__(self, learning_rate: float = 0.01, momentum: float = 0.0, nesterov: bool = False,
                 name: Optional[str] = None):
        if not 0.0 <= momentum <= 1.0:
            raise ValueError(f"SGD: `momentum` must be in [0, 1], got {momentum}.")
        self.momentum, self.nesterov = float(momentum), nesterov
        self.SLOTS = ("momentum",) if momentum else ()
        super().__init__(learning_rate, name)

    def _update(self, var, grad, slots):
        lr = self._lr(var)
        if not self.momentum:
            var.assign_sub(lr * grad)
            return
        velocity = slots["momentum"]
        velocity.assign(self.momentum * velocity - lr * grad)
        if self.nesterov:
            var.assign_add(self.momentum * velocity - lr * grad)
        else:
            var.assign_add(velocity)


class Adam(Optimizer):
    """Adam (Kingma & Ba), Keras's formulation: `lr * sqrt(1 - beta_2^t) / (1 - beta_1^t)` times
    `m / (sqrt(v) + epsilon)`."""

    SLOTS = ("m", "v")

    def __init__(self, learning_rate: float = 0.001, beta_1: float = 0.9, beta_2: float = 0.999,
                 epsilon: float = 1e-7, amsgrad: bool = False, name: Optional[str] = None):
        if amsgrad:
            raise NotImplementedError("Adam(amsgrad=True) is not supported by runtime; use amsgrad=False.")
        self.beta_1, self.beta_2, self.epsilon = float(beta_1), float(beta_2), float(epsilon)
        super().__init__(learning_rate, name)

    def _update(self, var, grad, slots):
        step = cast(self.iterations + 1, var.dtype)
        alpha = self._lr(var) * sqrt(1.0 - self.beta_2 ** step) / (1.0 - self.beta_1 ** step)
        m, v = slots["m"], slots["v"]
        m.assign_add((grad - m) * (1.0 - self.beta_1))
        v.assign_add((grad * grad - v) * (1.0 - self.beta_2))
        var.assign_sub(alpha * m / (sqrt(v) + self.epsilon))


"""Optimizers (TensorFlow's `tf.keras.optimizers`, also `runtime.optimizers`): `SGD`, `Adam`, `RMSprop`, `Adagrad`.

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

Every optimizer takes Keras's `clipnorm` (each gradient's norm), `global_clipnorm`
(the norm of all of them) or `clipvalue` (each element), and `weight_decay`: a
step first clips the gradients, then shrinks each variable by
`variable * weight_decay * learning_rate` (except those given to
`exclude_from_weight_decay`), then applies the optimizer's own update, as
Keras 3 does (tests/runtime/test_against_tensorflow.py compares the steps).
"""
from __future__ import annotations

from typing import Iterable, Optional

from runtime import dtypes
from runtime import learning_rate_schedules as schedules
from runtime.autodiff import GradientTape
import re

from runtime.ops.extra_math import clip_by_global_norm, clip_by_norm
from runtime.ops.math_ops import cast, clip_by_value, maximum, sqrt
from runtime.scopes import init_scope
from runtime.variables import Variable


class Optimizer:
    """Base class: subclasses name their slots in `SLOTS` and define `_update(var, grad, slots)`."""

    SLOTS: tuple = ()

    def __init__(self, learning_rate: float = 0.001, name: Optional[str] = None, *, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None):
        if sum(c is not None for c in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError(f"Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set, got "
                             f"clipnorm={clipnorm}, clipvalue={clipvalue}, global_clipnorm={global_clipnorm}.")
        self.weight_decay, self.clipnorm, self.clipvalue, self.global_clipnorm = (
            None if v is None else float(v) for v in (weight_decay, clipnorm, clipvalue, global_clipnorm))
        self._no_decay_ids: set = set()
        self._no_decay_names = None
        self.name = name or type(self).__name__
        self._schedule = learning_rate if isinstance(learning_rate, schedules.LearningRateSchedule) else None
        self._learning_rate = None if self._schedule is not None else Variable(
            _rate(learning_rate), dtype=dtypes.float32, name="learning_rate", trainable=False)
        self.iterations = Variable(0, dtype=dtypes.int64, name="iteration", trainable=False)
        self._slots: dict[int, dict[str, Variable]] = {}
        self._slot_owners: dict[int, Variable] = {}
        self._pending: dict[tuple, object] = {}   # (variable id, slot) -> value restored before the slot existed

    @property
    def learning_rate(self):
        """The learning rate Variable; with a schedule, the schedule's rate at the current step."""
        return self._learning_rate if self._schedule is None else self._schedule(self.iterations)

    @learning_rate.setter
    def learning_rate(self, value: float) -> None:
        if self._schedule is not None:
            raise TypeError(f"{self.name} was created with a learning rate schedule, and its rate can't be set "
                            "to a value: create the optimizer with that value instead.")
        self._learning_rate.assign(_rate(value))

    def apply_gradients(self, grads_and_vars: Iterable, name=None):
        """Update each variable from its gradient (pairs with a None gradient are skipped); count a step."""
        pairs = [(g, v) for g, v in grads_and_vars]
        if pairs and all(g is None for g, _ in pairs):
            raise ValueError(f"No gradients provided for any variable: {[v.name for _, v in pairs]}.")
        pairs = [(g, v) for g, v in pairs if g is not None]
        grads = self._clipped([cast(g, v.dtype) for g, v in pairs])
        for _, var in pairs:
            if self.weight_decay and self._decays(var):
                var.assign(var - var * cast(self.weight_decay, var.dtype) * self._lr(var))
        for grad, (_, var) in zip(grads, pairs):
            self._update(var, grad, self._slots_for(var))
        return self.iterations.assign_add(1)

    def _clipped(self, grads: list) -> list:
        if self.clipnorm:
            return [clip_by_norm(g, self.clipnorm) for g in grads]
        if self.global_clipnorm:
            return clip_by_global_norm(grads, self.global_clipnorm)[0]
        if self.clipvalue:
            return [clip_by_value(g, -self.clipvalue, self.clipvalue) for g in grads]
        return grads

    def exclude_from_weight_decay(self, var_list=None, var_names=None) -> None:
        """Variables that `weight_decay` leaves alone: those in `var_list`, and those whose name contains one
        of `var_names`."""
        self._no_decay_ids = {id(v) for v in var_list or ()}
        self._no_decay_names = re.compile("|".join(map(re.escape, var_names))) if var_names else None

    def _decays(self, var: Variable) -> bool:
        return id(var) not in self._no_decay_ids and not (
            self._no_decay_names is not None and self._no_decay_names.search(var.name))

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
        return [self.iterations, *([] if self._learning_rate is None else [self._learning_rate]), *slots]

    def _slots_for(self, var: Variable) -> dict:
        if id(var) not in self._slots:
            with init_scope():
                self._slots[id(var)] = {name: self._new_slot(var, name) for name in self.SLOTS}
            self._slot_owners[id(var)] = var
        return self._slots[id(var)]

    def _new_slot(self, var: Variable, name: str) -> Variable:
        from runtime.ops.array_ops import fill
        slot = Variable(fill(var.shape.as_list(), cast(self._slot_start(name), var.dtype)),
                        name=f"{var.name.split(':')[0]}/{name}", trainable=False)
        pending = self._pending.pop((id(var), name), None)
        if pending is not None:
            slot.assign(pending)
        return slot

    def _slot_start(self, name: str) -> float:
        """The value a slot starts at (zeros, unless the optimizer says otherwise)."""
        return 0.0

    def _lr(self, var: Variable):
        return cast(self.learning_rate, var.dtype)

    def _update(self, var: Variable, grad, slots: dict) -> None:
        raise NotImplementedError

    def __repr__(self) -> str:
        if self._schedule is not None:
            return f"<{type(self).__name__} learning_rate={type(self._schedule).__name__}>"
        return f"<{type(self).__name__} learning_rate={float(self._learning_rate.numpy()):g}>"


def _rate(value) -> float:
    """A learning rate given as a number (or a 0-d tensor)."""
    try:
        return float(value)
    except (TypeError, ValueError):
        raise TypeError(f"learning_rate must be a number or a keras.optimizers.schedules.LearningRateSchedule, "
                        f"got {type(value).__name__} {value!r}.") from None


class SGD(Optimizer):
    """Gradient descent, with momentum when `momentum > 0` (Keras's formula: the velocity is
    `momentum * velocity - lr * grad`, added to the variable; Nesterov adds `momentum * velocity - lr * grad`)."""

    def __init__(self, learning_rate: float = 0.01, momentum: float = 0.0, nesterov: bool = False,
                 name: Optional[str] = None, **clipping_and_decay):
        if not 0.0 <= momentum <= 1.0:
            raise ValueError(f"SGD: `momentum` must be in [0, 1], got {momentum}.")
        self.momentum, self.nesterov = float(momentum), nesterov
        self.SLOTS = ("momentum",) if momentum else ()
        super().__init__(learning_rate, name, **clipping_and_decay)

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
    `m / (sqrt(v) + epsilon)`; with `amsgrad=True`, `v` is the largest second moment so far."""

    def __init__(self, learning_rate: float = 0.001, beta_1: float = 0.9, beta_2: float = 0.999,
                 epsilon: float = 1e-7, amsgrad: bool = False, name: Optional[str] = None, **clipping_and_decay):
        self.beta_1, self.beta_2, self.epsilon, self.amsgrad = float(beta_1), float(beta_2), float(epsilon), amsgrad
        self.SLOTS = ("m", "v", "v_hat") if amsgrad else ("m", "v")
        super().__init__(learning_rate, name, **clipping_and_decay)

    def _update(self, var, grad, slots):
        step = cast(self.iterations + 1, var.dtype)
        alpha = self._lr(var) * sqrt(1.0 - self.beta_2 ** step) / (1.0 - self.beta_1 ** step)
        m, v = slots["m"], slots["v"]
        m.assign_add((grad - m) * (1.0 - self.beta_1))
        v.assign_add((grad * grad - v) * (1.0 - self.beta_2))
        if self.amsgrad:
            v = _assigned(slots["v_hat"], maximum(slots["v_hat"], v))
        var.assign_sub(alpha * m / (sqrt(v) + self.epsilon))


class RMSprop(Optimizer):
    """RMSprop, Keras's formulation: `velocity = rho * velocity + (1 - rho) * grad^2`, the step
    `lr * grad / sqrt(velocity + epsilon)` (centered: `velocity - mean_grad^2 + epsilon` under the root),
    accumulated with `momentum` when it is set."""

    def __init__(self, learning_rate: float = 0.001, rho: float = 0.9, momentum: float = 0.0, epsilon: float = 1e-7,
                 centered: bool = False, name: Optional[str] = None, **clipping_and_decay):
        self.rho, self.momentum, self.epsilon, self.centered = float(rho), float(momentum), float(epsilon), centered
        self.SLOTS = ("velocity",) + (("momentum",) if momentum > 0 else ()) + (("average_gradient",) if centered
                                                                                else ())
        super().__init__(learning_rate, name, **clipping_and_decay)

    def _update(self, var, grad, slots):
        velocity = _assigned(slots["velocity"], self.rho * slots["velocity"] + (1.0 - self.rho) * grad * grad)
        if self.centered:
            average = _assigned(slots["average_gradient"],
                                self.rho * slots["average_gradient"] + (1.0 - self.rho) * grad)
            denominator = velocity - average * average + self.epsilon
        else:
            denominator = velocity + self.epsilon
        increment = self._lr(var) * grad / sqrt(denominator)
        if self.momentum > 0:
            increment = _assigned(slots["momentum"], self.momentum * slots["momentum"] + increment)
        var.assign_sub(increment)


class Adagrad(Optimizer):
    """Adagrad, Keras's formulation: `accumulator += grad^2` (starting at `initial_accumulator_value`), the
    step `lr * grad / sqrt(accumulator + epsilon)`."""

    SLOTS = ("accumulator",)

    def __init__(self, learning_rate: float = 0.001, initial_accumulator_value: float = 0.1, epsilon: float = 1e-7,
                 name: Optional[str] = None, **clipping_and_decay):
        self.initial_accumulator_value, self.epsilon = float(initial_accumulator_value), float(epsilon)
        super().__init__(learning_rate, name, **clipping_and_decay)

    def _slot_start(self, name: str) -> float:
        return self.initial_accumulator_value

    def _update(self, var, grad, slots):
        accumulator = _assigned(slots["accumulator"], slots["accumulator"] + grad * grad)
        var.assign_sub(self._lr(var) * grad / sqrt(accumulator + self.epsilon))



def _assigned(slot: Variable, value):
    """`slot.assign(value)`, and `value`, the slot's new value, for the rest of the step."""
    slot.assign(value)
    return value

"""`keras.Model`: a `Module` called through its `call` method (no layers, no `compile`/`fit`)."""
from __future__ import annotations

from typing import Optional

from runtime.errors import OutOfScopeError
from runtime.module import Module


class Model(Module):
    """Subclass it, create Variables in `__init__` and compute in `call(inputs)`; `model(x)` runs `call`."""

    def __init__(self, *args, name: Optional[str] = None, **kwargs):
        if args or kwargs.get("inputs") is not None:
            raise OutOfScopeError("tf.keras.Model(inputs, outputs) (the functional API) is out of scope for "
                                  "runtime: subclass tf.keras.Model and define `call` instead.")
        super().__init__(name=name)

    def call(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} must define `call(self, inputs)`.")

    def __call__(self, *args, **kwargs):
        return self.call(*args, **kwargs)

    def _out_of_scope(self, what: str):
        raise OutOfScopeError(f"Model.{what} is out of scope for runtime: write the training loop with "
                              "tf.GradientTape and optimizer.apply_gradients (see docs/tf-compat.md).")

    def compile(self, *args, **kwargs):
        self._out_of_scope("compile")

    def fit(self, *args, **kwargs):
        self._out_of_scope("fit")

    def evaluate(self, *args, **kwargs):
        self._out_of_scope("evaluate")

    def predict(self, *args, **kwargs):
        self._out_of_scope("predict")

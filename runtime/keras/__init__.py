"""The small part of Keras that training code written with GradientTape needs (TensorFlow's `tf.keras`).

- `Model`: a `Module` whose call runs its `call` method; its Variables are
  found by `variables`/`trainable_variables`, as for any Module.
- `optimizers` (`SGD`, `Adam`, `RMSprop`, `Adagrad`), `losses` (`MeanSquaredError`,
  `MeanAbsoluteError`, `Huber`, `BinaryCrossentropy`, `CategoricalCrossentropy`,
  `SparseCategoricalCrossentropy`), `metrics` (`Mean`, `Sum`, `Accuracy`, `BinaryAccuracy`,
  `CategoricalAccuracy`, `SparseCategoricalAccuracy`).

Layers, `Sequential`, `Input`, datasets, `compile`/`fit` and the rest of Keras
are out of scope: using them raises `errors.OutOfScopeError`, which says so.
"""
from __future__ import annotations

from runtime import optimizers
from runtime.errors import OutOfScopeError
from runtime.keras import losses, metrics
from runtime.keras.model import Model

__all__ = ["Model", "optimizers", "losses", "metrics"]

OUT_OF_SCOPE = ("layers", "Sequential", "Input", "datasets", "models", "callbacks", "applications",
                "preprocessing", "utils", "backend", "initializers", "regularizers", "activations",
                "mixed_precision", "Layer")


def __getattr__(name: str):
    """Only for the Keras names runtime deliberately lacks: a clear error instead of an AttributeError."""
    if name in OUT_OF_SCOPE:
        raise OutOfScopeError(
            f"tf.keras.{name} is out of scope for runtime, which provides only keras.Model (a Module calling "
            "`call`), keras.optimizers, keras.losses and keras.metrics. Hold tf.Variables in a "
            "tf.keras.Model subclass and train it with tf.GradientTape and an optimizer (see docs/tf-compat.md).")
    raise AttributeError(f"module 'runtime.keras' has no attribute {name!r}")

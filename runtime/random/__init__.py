"""`runtime.random`: uniform and normal random tensors, and `set_seed`."""
from runtime.ops.random_ops import normal, set_seed, uniform  # noqa: F401

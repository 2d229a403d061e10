"""`runtime.random`: uniform and normal random tensors, `set_seed`, and `Generator`."""
from runtime.ops.random_ops import Generator, get_global_generator, normal, set_global_generator, set_seed, uniform

__all__ = ["Generator", "get_global_generator", "normal", "set_global_generator", "set_seed", "uniform"]

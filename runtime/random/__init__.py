"""`runtime.random`: uniform and normal random tensors, `shuffle`, `set_seed`, `Generator`, and stateless draws."""
from runtime.ops.random_ops import (Generator, get_global_generator, normal, set_global_generator, set_seed,
                                    shuffle, stateless_normal, stateless_uniform, uniform)

__all__ = ["Generator", "get_global_generator", "normal", "set_global_generator", "set_seed", "shuffle",
           "stateless_normal", "stateless_uniform", "uniform"]

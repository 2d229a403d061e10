"""`runtime.random`: uniform, normal and truncated normal random tensors, `categorical`, `shuffle`, `set_seed`, `Generator`, and stateless draws."""
from runtime.ops.random_ops import (Generator, categorical, get_global_generator, normal, set_global_generator,
                                    set_seed, shuffle, stateless_normal, stateless_uniform, truncated_normal, uniform)

__all__ = ["Generator", "categorical", "get_global_generator", "normal", "set_global_generator", "set_seed",
           "shuffle", "stateless_normal", "stateless_uniform", "truncated_normal", "uniform"]

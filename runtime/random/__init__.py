"""`runtime.random`: uniform and normal random tensors, `set_seed`, and `Generator`."""
from runtime.ops.random_ops import (Generator, get_global_generator, normal, set_seed,  # noqa: F401
                                    set_global_generator, uniform)

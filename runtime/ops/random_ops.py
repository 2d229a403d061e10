"""Random ops: stateful, reproducible after `runtime.random.set_seed`.

With a global seed set, each op draws from a generator seeded by the global
seed and the op's own seed, so a program produces the same numbers on every
run. As in TensorFlow: eagerly, calls with the same op seed share one
generator (`uniform(seed=1)` twice draws A1, then A2) and an op without one
takes the next of a per-process counter; in a traced function each op has a
generator of its own, advanced on every call (two `uniform(seed=1)` in one
function draw A1 and A1, then A2 and A2), and an op without a seed takes one
from its position in its graph, so two functions built alike draw alike.
"""
from __future__ import annotations

import itertools
import math
from typing import Optional

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError
from runtime.ops.packing import known_shape, shape_argument, shape_from
from runtime.ops.registry import Spec, apply, context, defop

_global_seed: Optional[int] = None
_generators: dict = {}
_op_counter = itertools.count()
_graph_ops = itertools.count()   # tells apart the generators of ops in graphs (see _seed_key)
_default = np.random.default_rng()


def set_seed(seed: Optional[int]) -> None:
    """Make random ops reproducible (None makes them unpredictable again)."""
    global _global_seed, _op_counter, _default
    _global_seed = None if seed is None else int(seed)
    _generators.clear()
    _op_counter = itertools.count()
    _default = np.random.default_rng(seed)


def _generator(seed_key) -> np.random.Generator:
    if seed_key is None:
        return _default
    if isinstance(seed_key, Generator):
        return seed_key.rng
    gen = _generators.get(seed_key)
    if gen is None:
        gen = _generators[seed_key] = np.random.default_rng(list(seed_key[:2]))
    return gen


def _seed_key(seed):
    """(global seed, op seed), and for an op of a graph a number of its own, so that it keeps a generator of its
    own (seeded by the first two only). A `Generator`'s draws have the Generator as their key."""
    if seed is None and _global_seed is None:
        return None
    graph = context.graph
    if graph is None:
        return (_global_seed or 0, seed if seed is not None else 1_000_003 + next(_op_counter))
    op_seed = seed if seed is not None else 1_000_003 + len(graph.operations)
    return (_global_seed or 0, op_seed, next(_graph_ops))


def _uniform(*shape_input, shape, minval, maxval, dtype, seed_key):
    gen = _generator(seed_key)
    shape = shape_from(shape_input, shape)
    if dtype.is_integer:
        return gen.integers(minval, maxval, size=shape, dtype=dtype.as_numpy_dtype)
    return gen.uniform(minval, maxval, size=shape).astype(dtype.as_numpy_dtype)


def _normal(*shape_input, shape, mean, stddev, dtype, seed_key):
    size = shape_from(shape_input, shape)
    return _generator(seed_key).normal(mean, stddev, size=size).astype(dtype.as_numpy_dtype)


def _spec(*shape_input, shape, dtype, **_):
    return Spec(dtype, known_shape(shape))


UNIFORM = defop("RandomUniform", _uniform, _spec, stateful=True)
NORMAL = defop("RandomStandardNormal", _normal, _spec, stateful=True)


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    return _uniform_op(shape, minval, maxval, dtype, _seed_key(seed), name)


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    return _normal_op(shape, mean, stddev, dtype, _seed_key(seed), name)


def shuffle(value, seed=None, name=None):
    """`value`'s rows (along its first axis) in a random order: the order that sorts as many `uniform` draws
    (seeded as `uniform`). No gradient flows through it, as through TensorFlow's RandomShuffle."""
    from runtime.ops import array_ops, sort_ops
    from runtime.tensor import convert_to_tensor
    x = convert_to_tensor(value)
    if x.shape.rank == 0:
        return array_ops.identity(x, name=name)
    rows = x.shape.dims[0]
    keys = uniform([rows] if rows is not None else array_ops.shape(x)[:1], seed=seed)
    return array_ops.stop_gradient(array_ops.gather(x, sort_ops.argsort(keys)), name=name)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Normal draws kept within two standard deviations of the mean (TensorFlow redraws those outside): the
    inverse normal distribution function of uniform draws between its values at -2 and 2, which is that
    distribution exactly."""
    from runtime.ops import math_ops
    from runtime.ops.special_math import ndtri
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise InvalidArgumentError(f"random.truncated_normal needs a floating dtype, got {dtype.name}.",
                                   "TruncatedNormal")
    low = 0.5 * math.erfc(2 / math.sqrt(2))    # Φ(-2)
    u = uniform(shape, low, 1.0 - low, dtype=dtypes.float64, seed=seed)
    return math_ops.cast(ndtri(u) * float(stddev) + float(mean), dtype, name=name)


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """`num_samples` class indices per row of `logits` [batch, classes], each drawn with probability
    softmax(logits): the largest of the logits plus Gumbel noise (a class whose logit is -inf is never drawn)."""
    from runtime.ops import array_ops, math_ops
    from runtime.tensor import convert_to_tensor
    logits = convert_to_tensor(logits)
    if logits.shape.rank != 2:
        raise InvalidArgumentError(f"random.categorical: logits must be a matrix [batch, classes], got shape "
                                   f"{logits.shape}.", "Multinomial")
    dtype = dtypes.int64 if dtype is None else dtypes.as_dtype(dtype)
    shape = array_ops.shape(logits)
    u = uniform(array_ops.stack([shape[0], num_samples, shape[1]]), dtype=logits.dtype, seed=seed)
    gumbel = -math_ops.log(-math_ops.log(u))
    return math_ops.argmax(array_ops.expand_dims(logits, 1) + gumbel, axis=2, output_type=dtype, name=name)


def _uniform_op(shape, minval, maxval, dtype, seed_key, name):
    dtype = dtypes.as_dtype(dtype)
    if maxval is None:
        if dtype.is_integer:
            raise InvalidArgumentError("random.uniform needs maxval for integer dtypes.", "RandomUniform")
        maxval = 1
    shape_input, static = shape_argument(shape, "random.uniform's shape")
    return apply(UNIFORM, *shape_input, shape=static, minval=float(minval) if dtype.is_floating else int(minval),
                 maxval=float(maxval) if dtype.is_floating else int(maxval), dtype=dtype, seed_key=seed_key,
                 name=name)


def _normal_op(shape, mean, stddev, dtype, seed_key, name):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise InvalidArgumentError(f"random.normal needs a floating dtype, got {dtype.name}.",
                                   "RandomStandardNormal")
    shape_input, static = shape_argument(shape, "random.normal's shape")
    return apply(NORMAL, *shape_input, shape=static, mean=float(mean), stddev=float(stddev), dtype=dtype,
                 seed_key=seed_key, name=name)


# --- stateless draws: a function of their seed ------------------------------------------------------

def _stateless(draw):
    def kernel(seed, *shape_input, shape, dtype, **params):
        rng = np.random.default_rng([int(s) & 0xFFFFFFFFFFFFFFFF for s in np.asarray(seed).reshape(-1)])
        return draw(rng, shape_from(shape_input, shape), dtype, **params)
    return kernel


def _stateless_uniform_draw(rng, size, dtype, minval, maxval):
    if dtype.is_integer:
        return rng.integers(minval, maxval, size=size, dtype=dtype.as_numpy_dtype)
    return rng.uniform(minval, maxval, size=size).astype(dtype.as_numpy_dtype)


def _stateless_spec(seed, *shape_input, shape, dtype, **_):
    return Spec(dtype, known_shape(shape))


STATELESS_UNIFORM = defop("StatelessRandomUniformV2", _stateless(_stateless_uniform_draw), _stateless_spec,
                          doc="uniform numbers that depend on `seed` only (the same on every run and call)")
STATELESS_NORMAL = defop("StatelessRandomNormalV2", _stateless(
    lambda rng, size, dtype, mean, stddev: rng.normal(mean, stddev, size=size).astype(dtype.as_numpy_dtype)),
    _stateless_spec, doc="normal numbers that depend on `seed` only (the same on every run and call)")


def _seed_tensor(seed):
    from runtime.tensor import convert_to_tensor   # tensor imports the ops
    seed = convert_to_tensor(seed)
    if seed.dtype not in (dtypes.int32, dtypes.int64) or seed.shape.as_list() != [2]:
        raise InvalidArgumentError(f"a stateless random op's seed must be a shape [2] int32 or int64 tensor, "
                                   f"got {seed.dtype.name} of shape {seed.shape}.", "StatelessRandomUniformV2")
    return seed


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None):
    dtype = dtypes.as_dtype(dtype)
    if maxval is None:
        if dtype.is_integer:
            raise InvalidArgumentError("random.stateless_uniform needs maxval for integer dtypes.",
                                       "StatelessRandomUniformV2")
        maxval = 1
    shape_input, static = shape_argument(shape, "random.stateless_uniform's shape")
    cast = float if dtype.is_floating else int
    return apply(STATELESS_UNIFORM, _seed_tensor(seed), *shape_input, shape=static, dtype=dtype,
                 minval=cast(minval), maxval=cast(maxval), name=name)


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
    dtype = dtypes.as_dtype(dtype)
    shape_input, static = shape_argument(shape, "random.stateless_normal's shape")
    return apply(STATELESS_NORMAL, _seed_tensor(seed), *shape_input, shape=static, dtype=dtype, mean=float(mean),
                 stddev=float(stddev), name=name)


# --- tf.random.Generator -------------------------------------------------------------------------------

class Generator:
    """`tf.random.Generator`: random numbers from a state of its own, which `set_seed` does not touch. Every
    draw advances it, eagerly and in traced functions alike (in program order, as a Variable update), so a
    function drawing from it gives new numbers on each call and eager draws go on from where it left off."""

    def __init__(self, copy_from: Optional["Generator"] = None, seed: Optional[int] = None, alg=None):
        from runtime.variables import check_variable_creation   # variables imports the ops
        if context.graph is not None:
            check_variable_creation()   # a Generator holds state, as a Variable does: created on a first trace only
        if copy_from is not None:
            self.rng = np.random.default_rng()
            self.rng.bit_generator.state = copy_from.rng.bit_generator.state
        else:
            self.rng = np.random.default_rng(seed)

    def __repr__(self) -> str:
        return "<runtime.random.Generator>"

    @classmethod
    def from_seed(cls, seed: int, alg=None) -> "Generator":
        return cls(seed=int(seed))

    @classmethod
    def from_non_deterministic_state(cls, alg=None) -> "Generator":
        return cls()

    def reset_from_seed(self, seed: int) -> None:
        if context.graph is not None:
            raise RuntimeError("Generator.reset_from_seed inside a traced function would reset the generator once, "
                               "when the function is traced, not on every call: reset it outside the function.")
        self.rng = np.random.default_rng(int(seed))

    def split(self, count: int = 1) -> list:
        """`count` new generators, seeded by numbers drawn from this one now."""
        return [Generator(seed=int(s)) for s in self.rng.integers(0, 2**63 - 1, size=count)]

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        return _uniform_op(shape, minval, maxval, dtype, self, name)

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        return _normal_op(shape, mean, stddev, dtype, self, name)


_global_generator: Optional[Generator] = None


def get_global_generator() -> Generator:
    global _global_generator
    if _global_generator is None:
        _global_generator = Generator.from_non_deterministic_state()
    return _global_generator


def set_global_generator(generator: Generator) -> None:
    global _global_generator
    _global_generator = generator

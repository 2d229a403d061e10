"""Cases for tools/grad_probe.py (tenth session): axes, `k`, depths, permutations and paddings given as
constant tensors made in the function (`axis=tf.constant(0)`, which TensorFlow takes and the runtime refused
with OperatorNotAllowedInGraphError), first and second derivatives through them.

Run alone with `PYTHONPATH=. /tmp/allv/bin/python tools/grad_probe.py -k axes2`. `case` is injected by
tools/grad_probe.py."""
import numpy as np
from grad_probe_common import _grad

_X = np.array([[3.0, 1.0, 2.0], [0.5, 4.0, -1.0]], np.float32)
_W = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)


def _c(lib, v):
    return lib.constant(v)


_CONSTANT_ARGS = {   # name: body(lib, x) -> a float tensor
    "concat": lambda lib, x: lib.concat([x, x * 2.0], axis=_c(lib, 1)),
    "concat_neg": lambda lib, x: lib.concat([x, x * x], axis=_c(lib, -2)),
    "concat_int64": lambda lib, x: lib.concat([x, x], axis=lib.constant(0, lib.int64)),
    "gather": lambda lib, x: lib.gather(x, [2, 0, 0], axis=_c(lib, 1)),
    "gather_neg": lambda lib, x: lib.gather(x, lib.constant([1, 1]), axis=_c(lib, -2)),
    "split": lambda lib, x: lib.split(x, 3, axis=_c(lib, 1))[2] * 3.0,
    "split_sizes": lambda lib, x: lib.split(x, _c(lib, [2, 1]), axis=_c(lib, -1))[0] ** 2,
    "sort": lambda lib, x: lib.sort(x, axis=_c(lib, 0)) * _W,
    "sort_desc": lambda lib, x: lib.sort(x, axis=_c(lib, -1), direction="DESCENDING") * _W,
    "argsort": lambda lib, x: lib.cast(lib.argsort(x, axis=_c(lib, 1)), lib.float32) * x,
    "top_k": lambda lib, x: lib.math.top_k(x, k=_c(lib, 2)).values * _W[:, :2],
    "expand_dims": lambda lib, x: lib.expand_dims(x, _c(lib, 1)) * _W[:, None, :],
    "one_hot_depth": lambda lib, x: lib.one_hot([0, 2], _c(lib, 3)) * x,
    "reverse": lambda lib, x: lib.reverse(x, _c(lib, [1])) * _W,
    "roll": lambda lib, x: lib.roll(x, _c(lib, 1), axis=_c(lib, 1)) * _W,
    "transpose": lambda lib, x: lib.transpose(x, _c(lib, [1, 0])) * _W.T,
    "boolean_mask": lambda lib, x: lib.boolean_mask(x, [True, False, True], axis=_c(lib, 1)) ** 2,
    "pad": lambda lib, x: lib.pad(x, _c(lib, [[1, 0], [0, 2]])) * lib.ones([3, 5]) * 2.0,
    "stack": lambda lib, x: lib.stack([x, x * x], axis=_c(lib, 1)),
}


def _constant_arg_case(name, body):
    def program(lib, fn):
        f = lambda x: lib.reduce_sum(body(lib, x) * body(lib, x))   # noqa: E731 - second order in x
        x = lib.constant(_X)
        inside = fn(lambda v: _grad(lib, f, v))(x)
        forward = fn(lambda u: body(lib, u))(x)
        return [_grad(lib, fn(f), x), inside, forward]
    program.__name__ = f"{name}_constant_tensor_argument"
    return program


for _name, _body in _CONSTANT_ARGS.items():
    case("axes2")(_constant_arg_case(_name, _body))


# ---------------------------------------------------------------- segment reductions and bincount
_D = np.array([[1.0, 2.0], [3.0, 3.0], [5.0, -6.0], [0.0, 1.0], [2.0, 0.0]], np.float32)
_SEGMENTS = {   # name: body(lib, d) with d of shape (5, 2); ties, empty segments, dropped (negative) ids
    **{f"segment_{k}": (lambda k: lambda lib, d: getattr(lib.math, f"segment_{k}")(d, [0, 0, 2, 2, 3]))(k)
       for k in ("sum", "mean", "max", "min", "prod")},
    **{f"unsorted_segment_{k}": (lambda k: lambda lib, d: getattr(lib.math, f"unsorted_segment_{k}")(
        d, [1, 0, -1, 1, 3], 4))(k) for k in ("sum", "mean", "max", "min", "prod", "sqrt_n")},
    "segment_max_ties": lambda lib, d: lib.math.segment_max(d * lib.constant([[1.0, 0.0]]) + 1.0, [0, 0, 0, 1, 1]),
    "unsorted_segment_min_items": lambda lib, d: lib.math.unsorted_segment_min(d, [[0, 1], [1, 1], [2, 0], [0, 0],
                                                                                  [2, 2]], 3),
    "unsorted_segment_prod_zeros": lambda lib, d: lib.math.unsorted_segment_prod(d - 1.0, [0, 0, 0, 1, 1], 2),
    "unsorted_segment_max_traced_ids": lambda lib, d: lib.math.unsorted_segment_max(
        d, lib.cast(d[:, 0] > 1.5, lib.int32), 2),
    "unsorted_segment_sum_tensor_count": lambda lib, d: lib.math.unsorted_segment_sum(d, [1, 1, 0, 0, 1],
                                                                                      lib.constant(3)),
}


def _segment_case(name, body):
    def program(lib, fn):
        f = lambda d: lib.reduce_sum(body(lib, d) * body(lib, d))   # noqa: E731 - second order in d
        d = lib.constant(_D)
        inside = fn(lambda v: _grad(lib, f, v))(d)
        forward = fn(lambda u: body(lib, u))(d)
        return [_grad(lib, fn(f), d), inside, forward]
    program.__name__ = name
    return program


for _name, _body in _SEGMENTS.items():
    case("segments")(_segment_case(_name, _body))

_BINCOUNTS = {
    "bincount": lambda lib, a, w: lib.math.bincount(a),
    "bincount_minlength": lambda lib, a, w: lib.math.bincount(a, minlength=7),
    "bincount_maxlength": lambda lib, a, w: lib.math.bincount(a, maxlength=2, dtype=lib.int64),
    "bincount_weights": lambda lib, a, w: lib.math.bincount(a, weights=w),
    "bincount_binary": lambda lib, a, w: lib.math.bincount(a, minlength=3, binary_output=True),
    "bincount_empty": lambda lib, a, w: lib.math.bincount(a[:0], minlength=2),
    "bincount_rows": lambda lib, a, w: lib.math.bincount(lib.reshape(a, [2, 3]), axis=-1),
    "bincount_float_dtype": lambda lib, a, w: lib.math.bincount(a, dtype=lib.float32),
}


def _bincount_case(name, body):
    def program(lib, fn):
        args = lib.constant([1, 1, 4, 0, 4, 4]), lib.constant([0.5, 1.0, 2.0, 3.0, -1.0, 0.25])
        return fn(lambda a, w: body(lib, a, w))(*args)
    program.__name__ = name
    return program


for _name, _body in _BINCOUNTS.items():
    case("segments", errors=True)(_bincount_case(_name, _body))

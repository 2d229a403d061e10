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

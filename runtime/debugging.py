"""`runtime.debugging`: assertions that run with the graph (TensorFlow's names).

Element-wise checks (`assert_greater_equal`, `assert_near`, `assert_positive`,
`assert_all_finite`, `check_numerics`, ...) are `Assert` ops: eagerly they raise
`InvalidArgumentError` at once, traced they raise when the graph runs. Checks of
what tracing already knows (`assert_rank`, `assert_type`, `assert_integer`,
`assert_scalar`) raise at once, as TensorFlow's do for static shapes and dtypes.
"""
import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError
from runtime.ops.assertions import (Assert, assert_equal, assert_greater, assert_greater_equal,  # noqa: F401
                                    assert_less, assert_less_equal, assert_none_equal, assert_op, checked,
                                    message_prefix, tensor_name)
from runtime.tensor import convert_to_tensor


def _against_zero(compare, what: str, x, message, summarize, name):
    from runtime.ops.math_ops import cast
    x = convert_to_tensor(x)
    data = [message_prefix(message), f"Condition x {what} did not hold element-wise:", f"x ({tensor_name(x)}) = ", x]
    return checked(compare(x, cast(0, x.dtype)), data, summarize, name)


def assert_positive(x, message=None, summarize=None, name=None):
    from runtime.ops.math_ops import greater
    return _against_zero(greater, "> 0", x, message, summarize, name)


def assert_negative(x, message=None, summarize=None, name=None):
    from runtime.ops.math_ops import less
    return _against_zero(less, "< 0", x, message, summarize, name)


def assert_non_negative(x, message=None, summarize=None, name=None):
    from runtime.ops.math_ops import greater_equal
    return _against_zero(greater_equal, ">= 0", x, message, summarize, name)


def assert_non_positive(x, message=None, summarize=None, name=None):
    from runtime.ops.math_ops import less_equal
    return _against_zero(less_equal, "<= 0", x, message, summarize, name)


def assert_near(x, y, rtol=None, atol=None, message=None, summarize=None, name=None):
    """|x - y| <= atol + rtol * |y| element-wise (by default 10 * eps of the dtype for both)."""
    from runtime.ops.math_ops import abs as abs_, cast, less_equal, reduce_all
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, dtype_hint=x.dtype)
    eps = float(np.finfo(x.dtype.as_numpy_dtype).eps) if x.dtype.is_floating else 0.0
    rtol = 10 * eps if rtol is None else rtol
    atol = 10 * eps if atol is None else atol
    rtol, atol = cast(rtol, x.dtype), cast(atol, x.dtype)
    held = less_equal(abs_(x - y), atol + rtol * abs_(y))
    data = [message_prefix(message), f"x and y not equal to tolerance rtol = {rtol!s}, atol = {atol!s}",
            f"x ({tensor_name(x)}) = ", x, f"y ({tensor_name(y)}) = ", y]
    return Assert(reduce_all(held), data, summarize, name)


def assert_all_finite(t, message, name=None):
    """`t`, after checking that it holds no NaN or infinity."""
    return check_numerics(t, message, name)


def check_numerics(tensor, message, name=None):
    """`tensor`, after checking (when the op runs) that it holds no NaN or infinity: InvalidArgumentError
    naming `message` otherwise."""
    from runtime.ops.array_ops import identity
    from runtime.ops.composites import is_finite
    from runtime.ops.math_ops import reduce_all
    t = convert_to_tensor(tensor)
    if not t.dtype.is_floating:
        raise TypeError(f"check_numerics: expects a floating-point tensor, got {t.dtype.name}.")
    assert_op(reduce_all(is_finite(t)), [], message + " : Tensor had NaN or Inf values")
    return identity(t, name=name)


def is_numeric_tensor(tensor) -> bool:
    from runtime.tensor import Tensor
    return isinstance(tensor, Tensor) and tensor.dtype is not dtypes.bool and tensor.dtype is not dtypes.string


def _rank_error(x, expected: str, message) -> ValueError:
    return ValueError(f"{message + ': ' if message else ''}Tensor must have rank {expected}; received rank "
                      f"{x.shape.rank}, shape {x.shape}.")


def assert_rank(x, rank, message=None, name=None):
    x = convert_to_tensor(x)
    if x.shape.rank is not None and x.shape.rank != int(rank):
        raise _rank_error(x, str(int(rank)), message)


def assert_rank_at_least(x, rank, message=None, name=None):
    x = convert_to_tensor(x)
    if x.shape.rank is not None and x.shape.rank < int(rank):
        raise _rank_error(x, f"at least {int(rank)}", message)


def assert_rank_in(x, ranks, message=None, name=None):
    x = convert_to_tensor(x)
    if x.shape.rank is not None and x.shape.rank not in [int(r) for r in ranks]:
        raise _rank_error(x, f"in {list(ranks)}", message)


def assert_scalar(tensor, message=None, name=None):
    assert_rank(tensor, 0, message or "Expected scalar")
    return convert_to_tensor(tensor)


def assert_type(tensor, tf_type, message=None, name=None):
    t = convert_to_tensor(tensor)
    if t.dtype is not dtypes.as_dtype(tf_type):
        raise TypeError(f"{message + ': ' if message else ''}{t.dtype.name} tensor must be of type "
                        f"{dtypes.as_dtype(tf_type).name}.")


def assert_integer(x, message=None, name=None):
    t = convert_to_tensor(x)
    if not t.dtype.is_integer:
        raise TypeError(f"{message + ': ' if message else ''}Expected integer type, got a {t.dtype.name} tensor.")


__all__ = ["Assert", "assert_equal", "assert_greater", "assert_less", "assert_greater_equal", "assert_less_equal",
           "assert_none_equal", "assert_positive", "assert_negative", "assert_non_negative", "assert_non_positive",
           "assert_near", "assert_all_finite", "check_numerics", "is_numeric_tensor", "assert_rank",
           "assert_rank_at_least", "assert_rank_in", "assert_scalar", "assert_type", "assert_integer",
           "InvalidArgumentError"]

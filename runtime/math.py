"""`runtime.math`: every math op, also at the top level (a superset of TensorFlow's split)."""
from runtime.ops.array_ops import where  # noqa: F401
from runtime.ops.math_ops import (abs, add, argmax, argmin, cast, ceil, clip_by_value, cos,  # noqa: F401,A004
                                  cumprod, cumsum, divide, equal, exp, floor, floordiv, floormod, greater,
                                  greater_equal, less, less_equal,
                                  log, logical_and, logical_not, logical_or, logical_xor, maximum, minimum,
                                  mod, multiply, negative, not_equal, pow, reduce_all, reduce_any, reduce_max,
                                  reduce_mean, reduce_min, reduce_prod, reduce_sum, round, sigmoid, sign, sin, sqrt,
                                  square, subtract, tanh, truediv)
from runtime.ops.extra_math import (acos, acosh, asin, asinh, atan, atan2, atanh, erf, expm1, log1p,  # noqa: F401,E402
                                    reciprocal, reduce_logsumexp, rsqrt)
from runtime.ops.nn_ops import softplus, softsign  # noqa: F401,E402
from runtime.ops.sort_ops import matmul, top_k  # noqa: F401,E402
from runtime.ops.complex_ops import angle, complex, conj, imag, real  # noqa: F401,E402,A004
from runtime.ops.composites import (add_n, count_nonzero, cosh, divide_no_nan, is_finite, is_inf, is_nan,  # noqa: F401,E402
                                    l2_normalize, log_sigmoid, reduce_euclidean_norm, reduce_std, reduce_variance,
                                    rint, sinh, squared_difference, tan, xdivy, xlogy)
from runtime.ops.nn_ops import log_softmax, softmax  # noqa: F401,E402
from runtime.ops.segment_ops import (bincount, segment_max, segment_mean, segment_min, segment_prod,  # noqa: F401,E402
                                     segment_sum, unsorted_segment_max, unsorted_segment_mean, unsorted_segment_min,
                                     unsorted_segment_prod, unsorted_segment_sqrt_n, unsorted_segment_sum)
from runtime.ops.counting_ops import confusion_matrix, in_top_k  # noqa: F401,E402
from runtime.ops.composites import reciprocal_no_nan, scalar_mul  # noqa: F401,E402
from runtime.ops.special_math import (cumulative_logsumexp, digamma, erfc, erfinv, lgamma,  # noqa: F401,E402
                                      ndtri)
from runtime.ops.math_compositions import (invert_permutation, is_non_decreasing,  # noqa: F401,E402
                                           is_strictly_increasing, lbeta, polyval, xlog1py, zero_fraction)

"""Complex numbers: `complex`, `real`, `imag`, `conj`, `angle`, and `abs` of a complex tensor.

Each is one registry entry and a public wrapper; their gradient rules are in
gradients.py (those of the one-input ops are `UNARY_GRADIENTS` here) and follow TensorFlow's convention: the gradient of a real loss
with respect to `z = x + iy` is `dL/dx + i dL/dy`, so a product's rule
multiplies by the other factor's conjugate.
"""
from __future__ import annotations

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError
from runtime.ops.convert import binary_operands
from runtime.ops.registry import Spec, apply, broadcast_shapes, defop, unary_same
from runtime.tensor import convert_to_tensor

_COMPLEX_OF = {dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128}


def _real_spec(x, **_) -> Spec:
    return Spec(x.dtype.real_dtype, x.shape)


def _complex(real, imag):
    return (real + 1j * imag).astype(np.complex64 if real.dtype == np.float32 else np.complex128)


def _complex_infer(real, imag) -> Spec:
    return Spec(_COMPLEX_OF[real.dtype], broadcast_shapes(real.shape, imag.shape, "Complex"))


COMPLEX = defop("Complex", _complex, _complex_infer, doc="real + i * imag")
REAL = defop("Real", np.real, _real_spec)
IMAG = defop("Imag", np.imag, _real_spec)
CONJ = defop("Conj", np.conj, unary_same)
COMPLEX_ABS = defop("ComplexAbs", np.abs, _real_spec, doc="|z|, a real tensor")
ANGLE = defop("Angle", np.angle, _real_spec, doc="the argument of z, in (-pi, pi]")


def complex(real, imag, name=None):  # noqa: A001 - TensorFlow's name
    real, imag = binary_operands(real, imag, "Complex")
    if real.dtype not in _COMPLEX_OF:
        raise InvalidArgumentError(f"Complex: real and imag must be float32 or float64, got {real.dtype.name}.",
                                   "Complex")
    return apply(COMPLEX, real, imag, name=name)


def _complex_input(op, x):
    x = convert_to_tensor(x)
    if x.dtype.is_string or x.dtype.is_bool:
        raise InvalidArgumentError(f"{op.name}: expects a numeric tensor, got {x.dtype.name}.", op.name)
    return x


def real(input, name=None):  # noqa: A002
    """The real part of a complex tensor; a real tensor unchanged (as TensorFlow)."""
    x = _complex_input(REAL, input)
    return apply(REAL, x, name=name) if x.dtype.is_complex else x


def imag(input, name=None):  # noqa: A002
    """The imaginary part of a complex tensor; zeros for a real tensor."""
    x = _complex_input(IMAG, input)
    if x.dtype.is_complex:
        return apply(IMAG, x, name=name)
    from runtime.ops.array_ops import zeros_like  # import cycle
    return zeros_like(x, name=name)


def conj(x, name=None):
    """The complex conjugate; a real tensor unchanged."""
    x = _complex_input(CONJ, x)
    return apply(CONJ, x, name=name) if x.dtype.is_complex else x


def angle(input, name=None):  # noqa: A002
    x = _complex_input(ANGLE, input)
    if not x.dtype.is_complex:      # TensorFlow's rule for a real x: pi where x < 0, else 0 (NaN and -0.0 too)
        from runtime.ops.array_ops import fill, shape, where  # import cycle
        return where(x < 0, fill(shape(x), np.asarray(np.pi, x.dtype.as_numpy_dtype)),
                     fill(shape(x), np.zeros((), x.dtype.as_numpy_dtype)), name=name)
    return apply(ANGLE, x, name=name)


def complex_abs(x, name=None):
    """`runtime.abs` of a complex tensor: its modulus, a float tensor."""
    return apply(COMPLEX_ABS, convert_to_tensor(x), name=name)


def conj_if_complex(t):
    """`conj(t)` for a complex tensor, `t` otherwise: the gradient rules' one helper for complex inputs."""
    return apply(CONJ, t) if t.dtype.is_complex else t


# --- gradient rules of the one-input ops, `rule(grad, x, output)` (gradients.py installs them) -----------------

def _as_complex(t):
    from runtime.ops.array_ops import zeros_like  # import cycle

    return complex(t, zeros_like(t))


def _divide_no_nan(x, y):
    """x / y, 0 where y is 0, its gradients too: TensorFlow's div_no_nan (replacing a zero divisor by 1 kept
    x's gradient there, g / 1: a second derivative of |z| at 0 of g where TensorFlow's is 0)."""
    from runtime.ops.composites import divide_no_nan  # import cycle

    return divide_no_nan(x, y)


UNARY_GRADIENTS = {
    "Real": lambda g, x, out: _as_complex(g),
    "Imag": lambda g, x, out: _as_complex(g) * 1j,
    "Conj": lambda g, x, out: conj(g),
    "ComplexAbs": lambda g, x, out: _divide_no_nan(_as_complex(g) * x, _as_complex(out)),
    "Angle": lambda g, x, out: -_as_complex(g) / complex(imag(x), real(x)),
}

"""Gradient rules of the neural-network ops (nn_ops.py): the activations, softmax, log-softmax and sparse
cross-entropy, as TensorFlow writes them; gradients.py puts `RULES` in its table. relu, relu6 and
leaky_relu are differentiated by ops of their own (`ReluGrad`, ...), as TensorFlow's, so that their second
derivative is zeros rather than None.
"""
from __future__ import annotations

import math

import numpy as np

from runtime.ops import array_ops as A
from runtime.ops import extra_math as EM
from runtime.ops import math_ops as M
from runtime.ops import nn_ops as NN
from runtime.ops.registry import Spec, apply, defop


def _unary(rule):
    return lambda grad, inputs, output, **attrs: (rule(grad, inputs[0], output),)


def _relu_grad_kernel(grad, x):
    return np.where(x > 0, grad, np.zeros((), grad.dtype))


def _relu6_grad_kernel(grad, x):
    return np.where((x > 0) & (x < 6), grad, np.zeros((), grad.dtype))


def _leaky_relu_grad_kernel(grad, x, alpha):
    return np.where(x > 0, grad, grad * np.asarray(alpha, grad.dtype)).astype(grad.dtype)


# TensorFlow's ops for the gradients of relu, relu6 and leaky_relu: as theirs, their own gradient is zeros for
# `x` (the second derivative of relu is 0, where a `where` on `x > 0` would leave it None)
RELU_GRAD = defop("ReluGrad", _relu_grad_kernel, lambda grad, x: Spec(grad.dtype, grad.shape),
                  doc="`grad` where x > 0, else 0")
RELU6_GRAD = defop("Relu6Grad", _relu6_grad_kernel, lambda grad, x: Spec(grad.dtype, grad.shape),
                   doc="`grad` where 0 < x < 6, else 0")
LEAKY_RELU_GRAD = defop("LeakyReluGrad", _leaky_relu_grad_kernel,
                        lambda grad, x, alpha: Spec(grad.dtype, grad.shape),
                        doc="`grad` where x > 0, else alpha * grad")


def _activation_grad(op):
    def rule(grad, inputs, output, **attrs):
        return apply(op, grad, inputs[1], **attrs), A.zeros_like(inputs[1])
    return rule


def _gelu(grad, inputs, output, approximate):
    x = inputs[0]
    if approximate:
        c = NN._GELU_C
        t = M.tanh(c * (x + 0.044715 * x * x * x))
        return (grad * (0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * c * (1.0 + 3 * 0.044715 * x * x)),)
    cdf = 0.5 * (1.0 + EM.erf(x * (1 / math.sqrt(2.0))))     # Python floats: a NumPy float64 would be a
    return (grad * (cdf + x * M.exp(-0.5 * x * x) * (1 / math.sqrt(2 * math.pi))),)   # float64 tensor


def _where_negative(negative_grad, x, grad):
    """TensorFlow's rule for Elu and Selu: the slope of the negative side only where x < 0 (at 0, the
    positive side's)."""
    return A.where(x < M.cast(0, x.dtype), negative_grad, grad)


def _softmax(grad, inputs, output, axis):
    return ((grad - M.reduce_sum(grad * output, axis=axis, keepdims=True)) * output,)


def _log_softmax(grad, inputs, output, axis):
    return (grad - M.exp(output) * M.reduce_sum(grad, axis=axis, keepdims=True),)


def _sparse_xent(grads, inputs, outputs):
    """TensorFlow's rule: the loss's gradient times the backprop output; and where a gradient reaches the
    backprop output (a second derivative), that gradient through the softmax it is made of."""
    loss_grad, backprop_grad = grads
    logits = inputs[1]
    found = A.zeros_like(logits) if loss_grad is None else A.expand_dims(loss_grad, -1) * outputs[1]
    if backprop_grad is not None:
        softmax = NN.softmax(logits)
        found = found + (backprop_grad - M.reduce_sum(backprop_grad * softmax, axis=-1, keepdims=True)) * softmax
    return None, found


_sparse_xent.takes_missing_gradients = True   # None, not zeros, for the backprop output's usual lack of one

RULES = {
    "Relu": _unary(lambda g, x, out: apply(RELU_GRAD, g, x)),
    "Relu6": _unary(lambda g, x, out: apply(RELU6_GRAD, g, x)),
    "ReluGrad": _activation_grad(RELU_GRAD),
    "Relu6Grad": _activation_grad(RELU6_GRAD),
    "LeakyRelu": lambda grad, inputs, output, alpha: (apply(LEAKY_RELU_GRAD, grad, inputs[0], alpha=alpha),),
    "LeakyReluGrad": _activation_grad(LEAKY_RELU_GRAD),
    "Elu": _unary(lambda g, x, out: _where_negative(g * (out + 1.0), x, g)),
    "Selu": _unary(lambda g, x, out: _where_negative(g * (out + NN.SELU_SCALE * NN.SELU_ALPHA), x, g * NN.SELU_SCALE)),
    "Gelu": _gelu,
    "Softplus": _unary(lambda g, x, out: g * M.sigmoid(x)),
    "Softsign": _unary(lambda g, x, out: g / M.square(1.0 + M.abs(x))),   # TensorFlow's SoftsignGrad
    "Softmax": _softmax,
    "LogSoftmax": _log_softmax,
    "L2Loss": _unary(lambda g, x, out: g * x),
    "SparseSoftmaxCrossEntropyWithLogits": _sparse_xent,
}

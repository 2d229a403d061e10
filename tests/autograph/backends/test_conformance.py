"""The backend conformance kit (autograph/backends/conformance.py) on every shipped backend: the runtime, JAX,
PyTorch and TensorFlow. A framework that is not installed is skipped, naming the extra to install."""
import numpy as np
import pytest

import autograph as ag
from autograph.backends.conformance import *  # noqa: F401,F403 - the kit's tests
from autograph.backends.conformance import Harness


def _runtime():
    import runtime

    return Harness(stage=lambda fn, *args: runtime.function(fn)(*args), tensor=runtime.constant,
                   numpy=lambda t: t.numpy())


def _jax():
    jax = pytest.importorskip("jax", reason="JAX is not installed (pip install -e '.[jax]')")
    return Harness(stage=lambda fn, *args: jax.jit(ag.convert(fn))(*args), tensor=jax.numpy.asarray)


def _torch():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install -e '.[torch]')")

    class Wrapped(torch.nn.Module):
        def __init__(self, fn):
            super().__init__()
            self.fn = ag.convert(fn)

        def forward(self, *args):
            return self.fn(*args)

    def stage(fn, *args):
        return torch.export.export(Wrapped(fn), args).module()(*args)
    return Harness(stage=stage, tensor=torch.as_tensor, numpy=lambda t: t.numpy() if hasattr(t, "numpy") else t)


def _tensorflow():
    tf = pytest.importorskip("tensorflow", reason="TensorFlow is not installed (pip install -e '.[tensorflow]')")
    return Harness(stage=lambda fn, *args: ag.tensorflow.function(fn)(*args), tensor=tf.constant,
                   numpy=lambda t: t.numpy())


@pytest.fixture(params=["runtime", "jax", "torch", "tensorflow"])
def harness(request):
    return {"runtime": _runtime, "jax": _jax, "torch": _torch, "tensorflow": _tensorflow}[request.param]()

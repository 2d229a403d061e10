"""What the JAX backend's test files share: skipping without JAX, `jit` of a converted function, the
primitives of a jaxpr, and comparing results with their dtypes."""
from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="JAX is not installed (pip install -e '.[jax]' to run the JAX backend tests)")
jnp = pytest.importorskip("jax.numpy")
pytest.importorskip("jax.extend")   # jaxprs_in_params, below

import autograph as ag  # noqa: E402


def jit(fn):
    return jax.jit(ag.convert(fn))


def primitives(fn, *args) -> set:
    """The primitive names in `fn`'s jaxpr, nested jaxprs included."""
    found = set()

    def walk(jaxpr):
        for eqn in jaxpr.eqns:
            found.add(eqn.primitive.name)
            for sub in jax.extend.core.jaxprs_in_params(eqn.params):
                walk(sub)
    walk(jax.make_jaxpr(fn)(*args).jaxpr)
    return found


def same(a, b):
    for x, y in zip(jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b), strict=True):
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=1e-6)
        assert jnp.asarray(x).dtype == jnp.asarray(y).dtype

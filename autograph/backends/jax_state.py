"""JAX's values as autograph/backends/staging.py sees them (`RULES`), and abstract traces of a loop body.

`lax.cond`/`lax.while_loop`/`lax.scan` carry arrays of one dtype and shape. A
Python number is carried as a weakly typed array of its dtype (int32,
float32 without x64), widened as the loop or the other branch needs
(`total = 0` before `total += x` carries float32); its value must fit (`300`
is no int8). Lists
appended to in a staged loop are `JaxList`s (jax_lists.py), a registered
pytree, so they flatten like any other value.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from autograph.backends import jax_bools, primitives, staging

SCALARS = (bool, int, float, complex)
_ARRAYS = (jax.Array, np.ndarray, np.generic)


def is_array_leaf(value) -> bool:
    """Can `lax` carry this leaf (an array, a tracer, a NumPy value or a Python number)?"""
    return isinstance(value, _ARRAYS) or isinstance(value, SCALARS)


_typeof = getattr(jax, "typeof", None) or jax.core.get_aval     # jax.typeof is new in JAX 0.5


def aval(x):
    """The abstract value (shape, dtype, weak type) of an array or tracer."""
    return _typeof(x)


def strong(x):
    """`x` (an array or tracer) strongly typed: promoting with a Python number's weak array keeps its dtype."""
    return lax.convert_element_type(x, x.dtype) if aval(x).weak_type else x


def abstract(x) -> jax.ShapeDtypeStruct:
    """The shape, dtype and weak type of an array, a tracer or a Python number, as `jax.eval_shape` takes them."""
    a = aval(x)
    return jax.ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type)


def _number_dtype(value):
    if value.__class__ is bool:                     # an int, whose arithmetic is Python's bool's (jax_bools.py)
        return jax_bools.number_dtype(value)
    wide = np.int64 if isinstance(value, int) else np.float64 if isinstance(value, float) else np.complex128
    return jax.dtypes.canonicalize_dtype(wide)       # int32, float32, complex64 unless x64 is on


def _dtype(value):
    return jax.dtypes.canonicalize_dtype(value.dtype)


def _lift(value, dtype):
    """A carried leaf as an array of `dtype`. A Python number, or a weakly typed array, stays weakly typed
    when `dtype` is the one its kind has weakly (the `1` of `1 if c else 2.5` is a weak float32), so that it
    promotes as a Python number would after the `if` or loop (`0` or a float32 array gives float32); `lax.cond`
    (jax.py) and the loops make a value strong where one path gives it strong."""
    if isinstance(value, jax.Array) and value.dtype == dtype:
        return value
    kind = _weak_scalar(dtype)
    if isinstance(value, SCALARS):
        weak = jnp.asarray(type(kind)(value))
    elif isinstance(value, jax.Array) and aval(value).weak_type:
        weak = value * type(kind)(1)                        # exact: the cast, weakly typed
    else:
        weak = None
    if weak is not None and weak.dtype == dtype and aval(weak).weak_type:
        return weak
    return jnp.asarray(value, dtype)


def _kind(dtype) -> str:
    return "b" if jnp.issubdtype(dtype, jnp.bool_) else "i" if jnp.issubdtype(dtype, jnp.integer) else \
        "c" if jnp.issubdtype(dtype, jnp.complexfloating) else "f" if jnp.issubdtype(dtype, jnp.inexact) else "?"


# Does the Python number keep its value as `dtype`? A bool does as any number (True is 1, as jnp.where makes
# it); the others as staging.number_kept says.
_takes = staging.number_takes(_kind, lambda d: (jnp.iinfo(d).min, jnp.iinfo(d).max), staging.numpy_value)


def _join(a, b):
    """The dtype a weakly typed array and another array both take, as `jnp.where` would give it; None when
    neither is weak, when the weak one would not keep its kind (a weak float and an int32 array), or when the
    other's dtype may not hold its value, which tracing does not know (a weak int32 from `s = 0; s += 1`
    against an int8 array would wrap 300 to 44, a weak float32 against float16 would make 1e5 inf)."""
    x, y = aval(a), aval(b)
    if jax_bools.is_noted(a) and y.dtype == jnp.bool_ or jax_bools.is_noted(b) and x.dtype == jnp.bool_:
        return np.dtype(bool)                       # a carried Python bool and a bool array: a bool array
    if x.weak_type and y.weak_type:
        return jnp.result_type(_weak_scalar(x.dtype), _weak_scalar(y.dtype))
    for value, weak, strong in ((a, x, y), (b, y, x)):
        if weak.weak_type and jnp.result_type(_weak_scalar(weak.dtype), strong.dtype) == strong.dtype \
                and (_holds(strong.dtype, weak.dtype) or _kept(value, strong.dtype)):
            return strong.dtype
    return None


def _kept(value, dtype) -> bool:
    """Does a concrete array (a Python number made an array, not a tracer) keep its values as `dtype`?"""
    if isinstance(value, jax.core.Tracer):
        return False
    old = np.asarray(value)
    with np.errstate(over="ignore", invalid="ignore"):
        new = old.astype(dtype)
    if jnp.issubdtype(dtype, jnp.inexact):                 # rounding is a float's nature; overflow is not
        return bool(np.all(np.isfinite(new) | ~np.isfinite(old)))
    return bool(np.all(new.astype(old.dtype) == old))


def _holds(wide, narrow) -> bool:
    """Does every value of dtype `narrow` fit in `wide` without wrapping or overflowing (rounding allowed)?"""
    if jnp.issubdtype(narrow, jnp.bool_) or jnp.issubdtype(wide, jnp.complexfloating):
        return True
    if jnp.issubdtype(narrow, jnp.integer):
        if jnp.issubdtype(wide, jnp.integer):
            return jnp.iinfo(wide).min <= jnp.iinfo(narrow).min and jnp.iinfo(narrow).max <= jnp.iinfo(wide).max
        return jnp.finfo(wide).max >= jnp.iinfo(narrow).max
    return jnp.issubdtype(wide, jnp.floating) and jnp.finfo(wide).max >= jnp.finfo(narrow).max


RULES = staging.LeafRules(
    framework="JAX", is_tensor=lambda v: isinstance(v, _ARRAYS),
    flatten=jax.tree_util.tree_flatten, unflatten=jax.tree_util.tree_unflatten,
    number_dtype=_number_dtype, dtype=_dtype, shape=lambda v: tuple(np.shape(v)), lift=_lift, takes=_takes,
    promote=jnp.promote_types, join=_join, scalars=SCALARS, cast_hint="cast one of them with .astype(...)",
    loop_shape_hint="Under jax.jit a loop variable keeps one shape: preallocate it at its final shape (e.g. "
                    "jnp.zeros(...)) and update it with .at[...].set(...).")


# --- placeholders for values undefined on some paths (autograph's `probe` and `zeros_like`) --------

_TRACED = object()


def probe(fn, *args):
    """`fn(*args)` traced abstractly (`jax.eval_shape`) and thrown away: the arrays in its result come back as
    `ShapeDtypeStruct`s, anything else (autograph's undefined values, strings) as it is. The arrays of `args`
    (ShapeDtypeStructs) are abstract values inside, as a lax loop's body sees its carry."""
    kept = {}

    def run(*args):
        leaves, kept["tree"] = jax.tree_util.tree_flatten(fn(*args))
        kept["leaves"] = [_TRACED if isinstance(v, jax.Array) else v for v in leaves]
        return [v for v in leaves if isinstance(v, jax.Array)]
    traced = iter(jax.eval_shape(run, *args))
    return jax.tree_util.tree_unflatten(kept["tree"], [next(traced) if v is _TRACED else v for v in kept["leaves"]])


def probe_body(body, values: tuple, names, items: tuple = ()):
    """`probe` of one iteration, `body(*items, *values)`, on values as a lax loop's body sees them: every array
    and number of `values` abstract, and the loop items (`items`, ShapeDtypeStructs). (Traced on the Python
    number `s = 0.0`, `if s > 4` would take Python's path and miss what the loop can reach behind it.)"""
    leaves, layout = staging.flatten(RULES, values, names)
    dynamic = [i for i, v in enumerate(leaves) if is_array_leaf(v)]

    def one(items, carry):
        full = list(leaves)
        for i, value in zip(dynamic, carry):
            full[i] = value
        return body(*items, *staging.unflatten(RULES, full, layout))
    return probe(one, items, [abstract(leaves[i]) for i in dynamic])


def _weak_scalar(dtype):
    """A Python scalar of `dtype`'s kind: what a weakly typed value promotes like."""
    return {"b": False, "i": 0, "u": 0, "f": 0.0, "c": 0j}.get(np.dtype(dtype).kind, 0)


def zeros_like(value):
    """A placeholder for `value` on the paths that leave it undefined (a `return` inside a traced loop): zeros
    of an array's shape and dtype, weakly typed if it is, so that it promotes as the value would
    (primitives.zeros_like: a Python number's zero, any other Python value itself)."""
    return primitives.zeros_like(value, lambda v: isinstance(v, jax.ShapeDtypeStruct) or is_array_leaf(v), _zeros)


def _zeros(value):
    if not isinstance(value, jax.ShapeDtypeStruct):
        value = abstract(value)
    if value.weak_type:
        weak = lax.full(value.shape, _weak_scalar(value.dtype))
        if weak.dtype == value.dtype:
            return weak
    return jnp.zeros(value.shape, value.dtype)

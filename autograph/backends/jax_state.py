"""The state that JAX's `lax.cond`/`lax.while_loop`/`lax.scan` carry for converted code.

Converted code hands the JAX backend a tuple of the user's variables. `lax`
can only carry arrays, so the state is flattened into JAX leaves (Python
numbers become weakly typed arrays, as `jnp.asarray` makes them) and *static*
leaves (strings, None, functions...), which must come out of a branch or a
loop body unchanged. The checks here name the user's variable when a loop
changes a variable's dtype, shape or structure, or when the two branches of
an `if` disagree; a Python scalar in one branch is promoted to the other
branch's dtype, as `jnp.where` would.

Lists appended to in a staged loop are `JaxList`s (see `jax_lists.py`), a
registered pytree, so they flatten like any other value here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from autograph.backends.staging import same_static
from autograph.errors import StagingError, at_user_line

_PY_SCALARS = (bool, int, float, complex)
_ARRAYS = (jax.Array, np.ndarray, np.generic)


def is_array_leaf(value) -> bool:
    """Can `lax` carry this leaf (an array, a tracer, a NumPy value or a Python number)?"""
    return isinstance(value, _ARRAYS) or isinstance(value, _PY_SCALARS)


@dataclass(frozen=True)
class Layout:
    """How a state tuple was flattened: per variable its pytree and which leaves are static."""

    names: tuple
    treedefs: tuple
    sizes: tuple
    static: tuple        # one entry per leaf: the static value, or _DYNAMIC


_DYNAMIC = object()


def flatten(state: Sequence, names: Sequence[str]) -> tuple[list, Layout]:
    """The JAX leaves of `state` (Python numbers converted to arrays) and its layout."""
    treedefs, sizes, static, dynamic = [], [], [], []
    for value in state:
        leaves, treedef = jax.tree_util.tree_flatten(value)
        treedefs.append(treedef)
        sizes.append(len(leaves))
        for leaf in leaves:
            if is_array_leaf(leaf):
                static.append(_DYNAMIC)
                dynamic.append(leaf if isinstance(leaf, jax.Array) else jnp.asarray(leaf))
            else:
                static.append(leaf)
    return dynamic, Layout(tuple(names), tuple(treedefs), tuple(sizes), tuple(static))


def unflatten(dynamic: Sequence, layout: Layout) -> tuple:
    """The state tuple again, from the dynamic leaves and the layout's static ones."""
    it = iter(dynamic)
    leaves = [next(it) if s is _DYNAMIC else s for s in layout.static]
    out, start = [], 0
    for treedef, size in zip(layout.treedefs, layout.sizes):
        out.append(jax.tree_util.tree_unflatten(treedef, leaves[start:start + size]))
        start += size
    return tuple(out)


def leaf_names(layout: Layout) -> list[str]:
    """The user's variable name for every dynamic leaf."""
    names = []
    for name, size, start in zip(layout.names, layout.sizes, _starts(layout.sizes)):
        names += [name for s in layout.static[start:start + size] if s is _DYNAMIC]
    return names


def _starts(sizes) -> list[int]:
    starts, total = [], 0
    for size in sizes:
        starts.append(total)
        total += size
    return starts


_typeof = getattr(jax, "typeof", None) or jax.core.get_aval     # jax.typeof is new in JAX 0.5


def aval(x):
    """The abstract value (shape, dtype, weak type) of an array or tracer."""
    return _typeof(x)


def abstract(x) -> jax.ShapeDtypeStruct:
    """The shape, dtype and weak type of an array, a tracer or a Python number, as `jax.eval_shape` takes them."""
    a = aval(x)
    return jax.ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type)


def _weak_scalar(dtype):
    """A Python scalar of `dtype`'s kind: what a weakly typed value promotes like."""
    kind = np.dtype(dtype).kind
    return {"b": False, "i": 0, "u": 0, "f": 0.0, "c": 0j}.get(kind, 0)


def _promoted(weak, strong) -> bool:
    """Does a weakly typed `weak` take `strong`'s dtype when combined with it?"""
    return jnp.result_type(_weak_scalar(weak.dtype), strong.dtype) == strong.dtype


def _describe(value) -> str:
    from autograph.backends.jax_lists import JaxList

    if isinstance(value, JaxList):
        return "a list being filled" if value.filling else f"a list of {len(value.items)} items"
    if isinstance(value, (tuple, list, dict)):
        return f"a {type(value).__name__} of {len(value)}"
    if value is _LEAF or is_array_leaf(value):
        return "a single value"
    return f"a {type(value).__name__}"


_LEAF = object()


def _describe_tree(treedef) -> str:
    return _describe(jax.tree_util.tree_unflatten(treedef, [_LEAF] * treedef.num_leaves))


def check_structure(out: Sequence, layout: Layout, construct: str) -> tuple[list, Layout]:
    """Flatten `out` and check that it has `layout`'s structure and static values."""
    if len(out) != len(layout.names):
        raise StagingError(at_user_line(f"{construct} produced {len(out)} values for {len(layout.names)} "
                                        "variables (internal: the converted code and its state disagree)."))
    dynamic, new = flatten(out, layout.names)
    for name, value, old_def, new_def in zip(layout.names, out, layout.treedefs, new.treedefs):
        if old_def != new_def:
            before, after = _describe_tree(old_def), _describe(value)
            hint = ("Under jax.jit a list may only grow the same way on every path (append in both branches, or "
                    "preallocate an array and set items with .at[i].set(...))" if "list" in before + after else
                    "With a traced condition it must keep one structure: give it a value of the same kind on "
                    "every path")
            raise StagingError(at_user_line(
                f"{_who(name)} changes structure in {construct}: it is {before} on one path and {after} on "
                f"another. {hint}."))
    for i, (old, now) in enumerate(zip(layout.static, new.static)):
        if (old is _DYNAMIC) != (now is _DYNAMIC) or (old is not _DYNAMIC and not same_static(old, now)):
            name = _name_of_leaf(layout, i)
            raise StagingError(at_user_line(
                f"{_who(name)} holds a Python {type(old if old is not _DYNAMIC else now).__name__} that "
                f"{construct} changes. Under jax.jit only arrays and numbers can depend on traced values; keep "
                f"{_who(name)} the same on every path, or make it an array."))
    return dynamic, new


def _who(name: str) -> str:
    return "the function's return value" if name == "retval_" else f"'{name}'"


def _name_of_leaf(layout: Layout, index: int) -> str:
    for name, size, start in zip(layout.names, layout.sizes, _starts(layout.sizes)):
        if start <= index < start + size:
            return name
    return "?"


def check_loop_types(new: Sequence, old: Sequence, layout: Layout, construct: str) -> list:
    """Check each loop variable keeps its dtype and shape across an iteration.

    A weakly typed (Python number) initial value may become its strongly typed
    counterpart (`total = 0.0; total += x`): `lax` promotes it. Anything else is
    an error naming the variable."""
    for name, a, b in zip(leaf_names(layout), old, new):
        before, after = aval(a), aval(b)
        if before.shape != after.shape:
            raise StagingError(at_user_line(
                f"'{name}' changes shape from {before.shape} to {after.shape} in {construct} over traced values. "
                "Under jax.jit a loop variable keeps one shape; preallocate it at its final shape (e.g. "
                "jnp.zeros(...)) and update it with .at[...].set(...)."))
        if before.dtype != after.dtype and not (before.weak_type and _promoted(before, after)):
            raise StagingError(at_user_line(
                f"'{name}' changes dtype from {before.dtype} to {after.dtype} in {construct} over traced values. "
                f"Under jax.jit a loop variable keeps one dtype: initialise '{name}' with that dtype (e.g. "
                f"jnp.asarray(0, jnp.{after.dtype})) or cast inside the loop with .astype(...)."))
    return list(new)


def unify_branches(mine: Sequence, other: Sequence, layout: Layout) -> list:
    """The dtype each leaf must have so that both branches of a `cond` agree.

    Equal dtypes stay; a weakly typed value (a Python number) takes the other
    branch's dtype when `jnp.where` would give that dtype; otherwise the
    branches disagree and the error names the variable."""
    targets = []
    for name, a, b in zip(leaf_names(layout), mine, other):
        x, y = aval(a), aval(b)
        if x.shape != y.shape:
            raise StagingError(at_user_line(
                f"{_who(name)} is an array of shape {x.shape} in one branch of this `if` on a traced value and "
                f"of shape {y.shape} in the other. Under jax.jit both branches must give it one shape "
                "(broadcast it explicitly, e.g. jnp.zeros_like(...))."))
        targets.append(_common_dtype(name, x, y))
    return targets


def _common_dtype(name: str, x, y):
    if x.dtype == y.dtype:
        return x.dtype
    if x.weak_type and y.weak_type:
        return jnp.result_type(_weak_scalar(x.dtype), _weak_scalar(y.dtype))
    if x.weak_type and _promoted(x, y):
        return y.dtype
    if y.weak_type and _promoted(y, x):
        return x.dtype
    raise StagingError(at_user_line(
        f"{_who(name)} has dtype {x.dtype} in one branch of this `if` on a traced value and {y.dtype} in the "
        f"other. Under jax.jit both branches must give it one dtype: cast one of them with .astype(...)."))


def cast_all(dynamic: Sequence, dtypes: Sequence) -> list:
    """Cast each leaf to its target dtype (only where it differs)."""
    return [x if aval(x).dtype == d else jnp.asarray(x, dtype=d) for x, d in zip(dynamic, dtypes)]


def dtypes_of(dynamic: Sequence) -> list:
    return [aval(x).dtype for x in dynamic]


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


def zeros_like(value):
    """A placeholder for `value` on the paths that leave it undefined (a `return` inside a traced loop): zeros
    of its shape and dtype, weakly typed if it is, so that it promotes as the value would; a Python number's
    zero; any other Python value itself (it must then be the same on every path)."""
    if isinstance(value, _PY_SCALARS):
        return type(value)(0)
    if not isinstance(value, jax.ShapeDtypeStruct):
        if not is_array_leaf(value):
            return value
        value = abstract(value)
    if value.weak_type:
        weak = lax.full(value.shape, _weak_scalar(value.dtype))
        if weak.dtype == value.dtype:
            return weak
    return jnp.zeros(value.shape, value.dtype)

"""Python lists appended to inside loops staged by the JAX backend.

`lax` loops carry arrays of a fixed shape, so a list that grows in a loop
becomes a *preallocated array*: the loop's body is first traced once
abstractly (`jax.eval_shape`) to learn how many items one iteration appends
and their shape and dtype; the loop then carries a buffer of the final size
and a fill count. After the loop the list is a `StackedList`: that array, of
shape `(len(initial) + appends_per_iteration * trip_count, *item_shape)`, with
a Python list's operators, so `jnp.stack(out)`, `len(out)`, `out[i]`, `out[1:]`,
`out + [x]`, `out * 2` and `out == other` mean what they mean on the list:

    out = []
    for x in xs:             # xs traced, 5 rows
        out.append(x * 2)
    # out is now a StackedList of an array of shape (5, ...)

This needs a static trip count (a `for` over an array, without `break` or
`return`). A `while` loop, a `for` over a `range` with a traced bound, or an
append in only one branch of a traced `if` would give a list whose length
depends on data: each is a clear error naming the list.
"""
from __future__ import annotations

from typing import Callable, Optional, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from autograph.backends import jax_state, stacked_list
from autograph.errors import StagingError, at_user_line


class JaxList:
    """A list carried by a staged loop: `items` (a Python tuple of arrays, static length), or
    a preallocated `buffer` and a traced fill `count` while a loop fills it."""

    def __init__(self, items: Sequence = (), buffer=None, count=None, owned: bool = False):
        self.items, self.buffer, self.count, self.owned = tuple(items), buffer, count, owned

    @classmethod
    def from_python(cls, values: list) -> "JaxList":
        """A Python list entering a staged loop (autograph's `list_from`)."""
        return cls([_item(v) for v in values], owned=True)

    @property
    def filling(self) -> bool:
        return self.buffer is not None

    def __len__(self) -> int:
        if self.filling:
            raise TypeError(at_user_line("len() of a list while a staged loop fills it is not known while "
                                         "tracing; use it after the loop, where it is an array."))
        return len(self.items)

    def __getitem__(self, index):
        if not self.filling:
            return self.items[index] if isinstance(index, int) else self.__jax_array__()[index]
        if isinstance(index, int) or (isinstance(index, jax.Array) and jnp.ndim(index) == 0):
            position = jnp.where(index < 0, self.count + index, index)    # -1 is the last item appended
            return jax.lax.dynamic_index_in_dim(self.buffer, position, keepdims=False)
        raise StagingError(at_user_line(
            "only single items of a list can be read while a loop over traced values fills it (out[i], "
            "out[-1]); use slices after the loop, where the list is an array."))

    def __iter__(self):
        if self.filling:
            raise TypeError(at_user_line("can't iterate over a list while a staged loop fills it."))
        return iter(self.items)

    def __jax_array__(self):
        return stack(self)

    def describe(self) -> str:
        """In words, for messages."""
        return "a list being filled" if self.filling else f"a list of {len(self.items)} items"

    def __repr__(self) -> str:
        return f"JaxList(buffer={self.buffer!r})" if self.filling else f"JaxList({list(self.items)!r})"


def _flatten(lst: JaxList):
    if lst.filling:
        return (lst.buffer, lst.count), ("filling", None)
    return lst.items, ("items", len(lst.items))


def _unflatten(aux, children) -> JaxList:
    if aux[0] == "filling":
        return JaxList(buffer=children[0], count=children[1])
    return JaxList(children)


jax.tree_util.register_pytree_node(JaxList, _flatten, _unflatten)


def _item(value):
    if not jax_state.is_array_leaf(value):
        raise StagingError(at_user_line(
            f"a list carried by a loop over traced values can only hold arrays and numbers, not a "
            f"{type(value).__name__}."))
    return jnp.asarray(value)


# --- the operations converted code calls ---------------------------------------------------------

def append(lst, value):
    """`lst.append(value)`: a new list (items) or a write at the fill count (buffer)."""
    if isinstance(lst, JaxList):
        if lst.filling:
            _check_fits(value, lst.buffer.dtype)
            return JaxList(buffer=lst.buffer.at[lst.count].set(value), count=lst.count + 1)
        return JaxList((*lst.items, _item(value)), owned=lst.owned)
    return StackedList(jnp.concatenate([jnp.asarray(lst), jnp.asarray(value)[None]]))   # a list a loop stacked


def _check_fits(value, dtype) -> None:
    """A value appended to a preallocated list keeps its value as the list's dtype (`.at[i].set` would cast
    it silently: 300 into an int8 list is 44, 0.5 into an int32 list 0): a Python number the dtype holds, an
    array of that dtype, or a weakly typed array of a narrower one (an int into a float32 list)."""
    if isinstance(value, jax_state.SCALARS):
        if jax_state.RULES.takes(value, dtype):
            return
        what = f"the Python {type(value).__name__} {value!r}"
    else:
        a = jax_state.aval(value)
        if a.dtype == dtype or a.weak_type and jnp.promote_types(a.dtype, dtype) == dtype:
            return
        what = f"a {a.dtype} value"
    raise StagingError(at_user_line(
        f"append of {what} to a list of {jnp.dtype(dtype)} values filled by a loop over traced values: under "
        "jax.jit the list is one preallocated array of the dtype its first items have, which can't hold it "
        "unchanged. Give the items one dtype (start a number as a float: `s = 0.0`, or cast with .astype(...))."))


def pop(lst, index=None):
    """`lst.pop(index)` on a list of static length."""
    if not isinstance(lst, JaxList) or lst.filling:
        raise StagingError(at_user_line("`pop` from a list filled by a loop over traced values is not supported "
                                        "under jax.jit; index the array instead."))
    items = list(lst.items)
    value = items.pop() if index is None else items.pop(index)
    return JaxList(items, owned=lst.owned), value


def after_loop(lst):
    """The list a staged loop built, after the loop: its items stacked, with a list's operators."""
    return lst if isinstance(lst, StackedList) else StackedList(stack(lst))


class StackedList(stacked_list.StackedList):
    """A list a staged loop built, after the loop (stacked_list.py): JAX functions take it as its array
    (`jnp.stack(l)`, `jnp.sum(l)`); its length is static (the trip count is)."""

    __slots__ = ()

    def __jax_array__(self):
        return self.rows

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self.rows, dtype)

    def _length(self) -> int:
        return self.rows.shape[0]

    def _stack(self, items: list):
        rows = jnp.stack([jnp.asarray(v) for v in items])
        return rows.astype(jnp.result_type(self.rows, rows))

    def _concat(self, a, b):
        return jnp.concatenate([a, b])

    def _tile(self, times: int):
        return jnp.tile(self.rows, (times,) + (1,) * (self.rows.ndim - 1))

    def _all_equal(self, other_rows):
        return jnp.all(self.rows == other_rows) if other_rows.shape == self.rows.shape else False

    def _item_shape(self, rows) -> tuple:
        return tuple(rows.shape[1:])

    def _elementwise_equal(self, other):
        return self.rows == other if isinstance(other, (jax.Array, np.ndarray)) else None

    def _not(self, value):
        return jnp.logical_not(value)


jax.tree_util.register_pytree_node(StackedList, lambda lst: ((lst.rows,), None), lambda _, rows: StackedList(*rows))


def stack(lst):
    """The list as one array."""
    if isinstance(lst, JaxList):
        if lst.filling:
            return lst.buffer
        if not lst.items:
            raise StagingError(at_user_line("can't stack an empty list under jax.jit: its item shape is unknown."))
        return jnp.stack(lst.items)
    return lst


# --- loops -------------------------------------------------------------------------------------------

def reject_unknown_length(state: Sequence, names: Sequence[str], construct: str) -> None:
    """A list in the state of a loop whose trip count is not static is an error naming it."""
    for name, value in zip(names, state):
        if isinstance(value, JaxList):
            raise StagingError(at_user_line(
                f"'{name}' is a list appended to in {construct}, whose number of iterations is only known at "
                f"run time, so the list's length is unknown under jax.jit. Preallocate an array instead "
                f"({name} = jnp.zeros((max_len, ...)) and {name} = {name}.at[i].set(value)), or loop over an "
                "array or a Python range."))


def with_lists(state: tuple, names: Sequence[str], n: int, arg_avals: tuple, body: Callable,
               run: Callable[[tuple], tuple]) -> tuple:
    """Run a loop of static trip count `n` whose state may hold lists still given by their items:
    preallocate each at its final length, run the loop (`run(state)`), and hand back the lists this
    loop owns as arrays. `body(*args, *state)` is one iteration; `arg_avals` the avals of its `args`."""
    growing = [i for i, v in enumerate(state) if isinstance(v, JaxList) and not v.filling]
    if not growing:
        return run(state)
    per_iteration = _appends_per_iteration(state, names, growing, arg_avals, body)
    filled = list(state)
    for i, (count, aval) in per_iteration.items():
        filled[i] = _preallocate(state[i], n * count, aval)
    out = list(run(tuple(filled)))
    for i in per_iteration:             # an enclosing loop's list (being probed) stays a list of rows
        out[i] = StackedList(out[i].buffer) if state[i].owned else JaxList(list(out[i].buffer))
    return tuple(out)


def _appends_per_iteration(state, names, growing, arg_avals, body) -> dict:
    """Trace the body once abstractly: {state index: (items appended per iteration, item aval)}."""
    found: dict = {}

    def iteration(*args_and_state):
        out = tuple(body(*args_and_state))
        for i in growing:
            found[i] = _growth(names[i], state[i], out[i])
        return ()

    jax_state.probe_body(iteration, state, names, arg_avals)
    return {i: v for i, v in found.items() if v is not None}


def _growth(name: str, before: JaxList, after) -> Optional[tuple]:
    if not isinstance(after, JaxList) or after.filling:
        raise StagingError(at_user_line(
            f"'{name}' is a list that this loop over traced values replaces with a {type(after).__name__}; "
            "under jax.jit a list in a staged loop can only be appended to."))
    added = len(after.items) - len(before.items)
    if added < 0:
        raise StagingError(at_user_line(f"'{name}' shrinks in this loop over traced values; under jax.jit a list "
                                        "in a staged loop can only grow by `append`."))
    items = after.items if added else ()
    avals = {(jnp.shape(x), jax_state.aval(x).dtype) for x in items}
    if len(avals) > 1:
        raise StagingError(at_user_line(
            f"'{name}' gets items of different shapes or dtypes ({sorted(map(str, avals))}) in this loop over "
            "traced values; under jax.jit they are stacked into one array, so they must agree."))
    return (added, avals.pop()) if added else None


def _preallocate(lst: JaxList, extra: int, aval) -> JaxList:
    shape, dtype = aval
    buffer = jnp.zeros((len(lst.items) + extra, *shape), dtype)
    if lst.items:
        first = (jnp.shape(lst.items[0]), jax_state.aval(lst.items[0]).dtype)
        if first != aval:
            raise StagingError(at_user_line(
                f"a list's initial items have shape/dtype {first} but the loop appends {aval}; under jax.jit "
                "they are stacked into one array, so they must agree."))
        buffer = buffer.at[:len(lst.items)].set(jnp.stack(lst.items))
    return JaxList(buffer=buffer, count=jnp.asarray(len(lst.items)))

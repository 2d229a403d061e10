"""TensorFlow as an autograph backend: Python `if`/`while`/`for` inside `tf.function`, converted by us.

Imported lazily: `import autograph` never imports TensorFlow. The first
converted call made after the program imported `tensorflow` imports this
module, which registers the backend. Use it as

    import tensorflow as tf
    import autograph as ag

    @ag.tensorflow.function          # = tf.function(ag.convert(f), autograph=False)
    def f(x):
        while True:                  # tf.while_loop
            x = x * 2
            if tf.reduce_sum(x) > 100:
                return x             # a `return` inside a loop on a tensor

`tf.function(ag.convert(f))` works too: TensorFlow's own AutoGraph leaves a
converted function alone (autograph/api.py marks it as TensorFlow expects).

Only symbolic tensors (inside `tf.function`) are staged; eager tensors keep
Python semantics. What each construct becomes on a symbolic tensor:

| Python | TensorFlow |
|---|---|
| `if`, `x if c else y` | `tf.cond` |
| `while` | `tf.while_loop` (shapes that change are relaxed, as the runtime's) |
| `for x in tensor`, `for i in range(n)` (tensor `n`), `enumerate`, `zip` | `tf.while_loop` over an index |
| `break`, `continue`, `return` in those loops | the loop's condition and state (converted by autograph) |
| `and`, `or`, `not` | `tf.cond` on the left operand (lazy), giving Python's operand value; `tf.logical_not` |
| `print` | `tf.print` (runs every time the function runs) |
| `assert` | `tf.debugging.Assert` |
| `list.append` in a loop | a `tf.TensorArray` (when one dtype and shape hold the items), stacked after the loop |

The framework-neutral work (leaves, static values, weak Python numbers,
checks that name the variable) is autograph/backends/staging.py's; staged
`range`, `enumerate`, `zip`, `len` and the `for` over an index are
iteration.py's, `and`/`or` primitives.py's.
"""
from __future__ import annotations

import functools
import sys
from typing import Any, Callable, Optional

import numpy as np
import tensorflow as tf
from tensorflow.python.framework import func_graph as _func_graph

from autograph import backends
from autograph.backends import iteration, primitives, stacked_list, staging
from autograph.errors import StagingError, at_user_line

__all__ = ["BACKEND", "function", "TfRange", "TfEnumerate", "TfZip"]


def _is_staged(value) -> bool:
    if isinstance(value, tf.Tensor):
        return tf.is_symbolic_tensor(value)
    if isinstance(value, tf.Variable):
        return not tf.executing_eagerly()
    return True                     # our staged records


# --- leaves --------------------------------------------------------------------------------------------

def _is_tensor(value) -> bool:
    """A leaf `tf.cond`/`tf.while_loop` carry. A `tf.Variable` is not one: it is the same object on every path
    (its assignments are the graph's effects), so it is a static leaf."""
    return isinstance(value, (tf.Tensor, tf.TensorArray, np.ndarray, np.generic))


def _number_dtype(value):
    if value.__class__ is bool:
        return tf.bool
    if isinstance(value, str):
        return tf.string
    if isinstance(value, int):       # TensorFlow's own choice: int64 for an int that int32 can't hold
        return tf.int32 if -2 ** 31 <= value < 2 ** 31 else tf.int64
    return tf.float32


def _dtype(value):
    if isinstance(value, (np.ndarray, np.generic)):
        return tf.as_dtype(value.dtype)
    return value.dtype


def _shape(value) -> Optional[tuple]:
    if isinstance(value, tf.TensorArray):
        return ()                   # a TensorArray is carried by its flow, a scalar
    shape = tf.TensorShape(value.shape)
    return None if shape.rank is None else tuple(shape.as_list())


def _lift(value, dtype):
    if isinstance(value, tf.TensorArray):
        return value
    if isinstance(value, tf.Tensor):
        return value if value.dtype == dtype else tf.cast(value, dtype)
    return tf.constant(value, dtype=dtype)


def _kind(dtype) -> str:
    dtype = tf.as_dtype(dtype)
    return "b" if dtype == tf.bool else "s" if dtype == tf.string else "i" if dtype.is_integer else \
        "c" if dtype.is_complex else "f" if dtype.is_floating else "?"


# Does the Python number keep its value as `dtype` (an int as a float does, a float as an int doesn't, a float
# that overflows or underflows the dtype doesn't: staging.number_kept)? A bool or a string only as its own dtype.
_takes = staging.number_takes(
    _kind, int_range=lambda d: (tf.as_dtype(d).min, tf.as_dtype(d).max),
    convert=lambda n, d: staging.numpy_value(n, tf.as_dtype(d).as_numpy_dtype), bools_anywhere=False)


def _promote(a, b):
    if a == b:
        return a
    if tf.string in (a, b) or tf.bool in (a, b):
        return None
    return tf.float32 if tf.float32 in (a, b) else tf.int64 if tf.int64 in (a, b) else tf.int32


def _flatten(value):
    """The leaves of `value` (tf.nest's order: dicts by key; a StackedList's array) and its skeleton (leaves
    replaced by None, a StackedList by _LIST), which compares equal for equal structures and rebuilds the value
    with `_unflatten`."""
    leaves = [v.rows if isinstance(v, TfStackedList) else v for v in tf.nest.flatten(value)]
    return leaves, tf.nest.map_structure(lambda v: _LIST if isinstance(v, TfStackedList) else None, value)


def _unflatten(structure, leaves):
    marks = tf.nest.flatten(structure)
    return tf.nest.pack_sequence_as(structure, [TfStackedList(v) if m is _LIST else v for m, v in zip(marks, leaves)])


_LIST = "a list a staged loop built"   # (a StackedList's place in a skeleton)


class TfStackedList(stacked_list.StackedList):
    """A list a staged loop built, after the loop (stacked_list.py): TensorFlow's ops take it as its stacked
    tensor (`__tf_tensor__`); its length may be known only when the graph runs."""

    __slots__ = ()

    def __tf_tensor__(self, dtype=None, name=None):
        return tf.convert_to_tensor(self.rows, dtype=dtype, name=name)

    def _length(self) -> Optional[int]:
        return self.rows.shape[0] if self.rows.shape.rank else None

    def _stack(self, items: list):
        rows = tf.stack([_lift(v, self.rows.dtype) if v.__class__ in (bool, int, float) and
                         _takes(v, self.rows.dtype) else tf.convert_to_tensor(v) for v in items])
        if rows.dtype != self.rows.dtype:
            raise StagingError(at_user_line(
                f"a list a staged loop built holds {self.rows.dtype.name} items; joining {rows.dtype.name} items "
                "to it would give a list of two dtypes, which one tensor can't hold. Cast them with tf.cast."))
        return rows

    def _concat(self, a, b):
        return tf.concat([a, b], 0)

    def _tile(self, times: int):
        return tf.tile(self.rows, [times] + [1] * (self.rows.shape.rank - 1))

    def _all_equal(self, other_rows):
        a, b = self.rows, other_rows
        if a.shape[0] is not None and b.shape[0] is not None:
            return tf.reduce_all(tf.equal(a, b)) if a.shape[0] == b.shape[0] else False
        return tf.cond(tf.equal(tf.shape(a)[0], tf.shape(b)[0]), lambda: tf.reduce_all(tf.equal(a, b)),
                       lambda: tf.constant(False))

    def _item_shape(self, rows) -> Optional[tuple]:
        shape = rows.shape[1:]
        return tuple(shape.as_list()) if shape.is_fully_defined() else None

    def _elementwise_equal(self, other):
        return tf.equal(self.rows, other) if isinstance(other, (tf.Tensor, np.ndarray)) else None

    def _not(self, value):
        return tf.logical_not(value)


RULES = staging.LeafRules(
    framework="TensorFlow", is_tensor=_is_tensor, flatten=_flatten, unflatten=_unflatten,
    number_dtype=_number_dtype, dtype=_dtype, shape=_shape, lift=_lift, takes=_takes, promote=_promote,
    describe_dtype=lambda d: tf.as_dtype(d).name, cast_hint="cast with tf.cast(...)",
    scalars=(bool, int, float, str), cond_relaxes_shapes=True)   # tf.cond gives the shape both branches share


def _predicate(value, construct: str):
    """`value` as a scalar bool tensor, as Python's truth test would see it (a list is true when not empty)."""
    if isinstance(value, TfStackedList):
        return tf.shape(value.rows)[0] > 0
    x = tf.convert_to_tensor(value)
    if x.shape.rank not in (0, None):
        if x.shape.num_elements() != 1:
            raise primitives.not_one_value(construct, f"a tensor of shape {x.shape}",
                                           "tf.reduce_any(...) or tf.reduce_all(...)", "a condition on a tensor")
        x = tf.reshape(x, [])
    if x.dtype == tf.bool:
        return x
    if x.dtype == tf.string:
        return tf.strings.length(x) > 0
    return tf.not_equal(x, tf.zeros_like(x))


def _static_bool(pred) -> Optional[bool]:
    if not isinstance(pred, tf.Tensor):
        return None
    value = tf.get_static_value(pred)
    return None if value is None or np.ndim(value) != 0 else bool(value)


# --- if --------------------------------------------------------------------------------------------------

def _cond(pred, true_fn, false_fn, names=(), construct: str = "this `if`"):
    """`if` on a symbolic tensor: `tf.cond` (staging.cond works out which values are static and each carried
    one's dtype)."""
    return staging.cond(RULES, _tf_cond, _predicate(pred, construct), true_fn, false_fn, names, construct)


def _tf_cond(pred, true_run, false_run) -> list:
    out = tf.cond(pred, true_run, false_run)
    return [] if out is None else list(out) if isinstance(out, (list, tuple)) else [out]


# --- while -------------------------------------------------------------------------------------------------

def _while_loop(test, body, state: backends.LoopState, opts):
    """`while` on a symbolic tensor: `tf.while_loop` over the carried leaves."""
    return _staged_loop(test, body, _with_placeholders(state, body), opts, "this `while` loop")


def _with_placeholders(state: backends.LoopState, step) -> backends.LoopState:
    """`state.with_placeholders`, probing `step(*values)` on the values as the staged loop carries them: Python
    numbers and tensors as placeholders whose values tracing can't know (a probe on the numbers themselves, or
    on constant tensors, would fold an `if` on them and miss a `return` behind `if i == 2`). An empty list
    appended to under an `if` can only be probed on the Python values (a staged `if` would see lists of
    different lengths in its branches): that is the fallback."""
    try:
        return state.with_placeholders(lambda s: step(*(_opaque(v) for v in s)))
    except StagingError:
        return state.with_placeholders(lambda s: step(*s))


def _opaque(value):
    """`value` as a staged loop's body sees it: its numbers and tensors as placeholders of their dtype and shape
    (only inside a probe's graph). A Python list is left as it is: the probe learns its type by appending."""
    if value.__class__ is list:
        return value
    return tf.nest.map_structure(_placeholder, value)


def _placeholder(leaf):
    if leaf.__class__ in (bool, int, float):
        return tf.compat.v1.placeholder(_number_dtype(leaf), [])
    if isinstance(leaf, tf.Tensor):
        return tf.compat.v1.placeholder(leaf.dtype, leaf.shape)
    return leaf


def _staged_loop(test, body, state: backends.LoopState, opts: dict, construct: str, lead: tuple = ()) -> tuple:
    """`while test(*state): state = body(*state)` as one `tf.while_loop`; `lead` are leading carried tensors
    (a `for` loop's index) that `test`/`body` take before the state."""
    leaves, layout = staging.flatten(RULES, state.values, state.names)
    k, after_lead = len(lead), []

    def run(carried, unpack, pack, shapes):
        def cond_fn(*carry):
            return _predicate(test(*carry[:k], *unpack(carry[k:])), construct)

        def body_fn(*carry):
            out = tuple(body(*carry[:k], *unpack(carry[k:])))
            return (*out[:k], *pack(out[k:]))

        invariants = _invariants(opts.get("shape_invariants"), carried)
        out = tf.while_loop(cond_fn, body_fn, (*lead, *carried), maximum_iterations=opts.get("maximum_iterations"),
                            shape_invariants=(*(tf.TensorShape(_shape(v)) for v in lead),
                                              *(invariants.get(i) or _invariant(v, shape)
                                                for i, (v, shape) in enumerate(zip(carried, shapes)))))
        out = list(out) if isinstance(out, (list, tuple)) else [out]
        after_lead[:] = out[:k]
        return out[k:]

    # TensorFlow has no weakly typed tensors: the Python numbers' dtypes are learnt by running the body on them,
    # in a throwaway graph (staging.typed_numbers)
    plan = staging.typed_numbers(RULES, leaves, layout, lambda v: tuple(body(*lead, *v))[k:], state.values,
                                 within=_probe)
    values = staging.loop(RULES, state.values, state.names, run, construct, plan)
    return (*after_lead, *values)


def _invariant(value, shape):
    if isinstance(value, tf.TensorArray):
        return tf.TensorShape(None)
    return tf.TensorShape(shape)


def _invariants(given, carried: list) -> dict:
    """`set_loop_options(shape_invariants=[(x, shape), ...])`: carried-leaf index -> shape. `x` is a loop
    variable's tensor, or a tensor inside one (`st[0]` of a tuple); a tensor the loop does not carry (one it
    never assigns) needs no invariant and is passed over, as TensorFlow's AutoGraph does."""
    return {i: tf.TensorShape(shape) for value, shape in given or () for i, v in enumerate(carried) if v is value}


# --- for ---------------------------------------------------------------------------------------------------

class TfRange(iteration.StagedRange):
    """`range(...)` with a tensor bound, iterated by the backend's `for_loop`."""

    bound_kind = "tensor"
    cast_hint = "Cast it with tf.cast(..., tf.int32)."
    values_hint = "Use tf.range(...) for a tensor of its values."

    def non_integer(self, bound):
        dtype = tf.as_dtype(_dtype(bound)) if _is_tensor(bound) else None
        return None if dtype is None or dtype.is_integer else dtype.name

    def check_step(self, step) -> None:
        """Checked where the range is used, in the graph that uses it (`_check_step`)."""


def _check_step(step) -> None:
    """A tensor step of 0 fails when the graph runs, with Python's message (the loop would never end)."""
    if _is_tensor(step):
        tf.debugging.assert_none_equal(step, tf.zeros_like(step), message="range() arg 3 must not be zero")


def _rows(value, what: str):
    if isinstance(value, TfRange):          # zip(range(n), xs), enumerate(range(n)): the range's values
        _check_step(value.step)
        start, stop, step = (tf.cast(b, tf.int32) for b in (value.start, value.stop, value.step))
        return tf.range(start, iteration.python_stop(start, stop, step, PRIMITIVES), step)
    t = value.read_value() if isinstance(value, tf.Variable) else tf.convert_to_tensor(value)
    if t.shape.rank == 0:
        raise StagingError(at_user_line(f"{what} over a scalar tensor: a 0-d tensor is not iterable."))
    return t


def _length(t):
    n = t.shape[0] if t.shape.rank is not None else None
    return n if n is not None else tf.shape(t)[0]


class TfEnumerate(iteration.StagedEnumerate):
    """`enumerate(tensor, start)` over a symbolic tensor, or over a zip of tensors."""

    rows, length = staticmethod(_rows), staticmethod(_length)


class TfZip(iteration.StagedZip):
    """`zip(a, b, ...)` with a symbolic tensor among them (stops at the shortest)."""

    rows, length = staticmethod(_rows), staticmethod(_length)


def _for_loop(iterable, body, state: backends.LoopState, extra_test, opts):
    """`for` over a symbolic tensor's first axis, a `range` with a tensor bound, or an enumerate/zip of tensors:
    a `tf.while_loop` over an int32 index carried in front of the state."""
    if isinstance(iterable, TfRange):
        _check_step(iterable.step)
    walk = iteration.index_walk(iterable, PRIMITIVES, _rows)
    first = tf.constant(walk.start, tf.int32) if not _is_tensor(walk.start) else walk.start
    state = _with_placeholders(state, lambda *s: body(walk.item(_opaque(first)), *s))
    return _staged_loop(iteration.index_test(walk, extra_test, PRIMITIVES), iteration.index_body(walk, body),
                        state, opts, "this `for` loop", lead=(first,))[1:]


# --- builtins, logical ops, print, assert, lists ---------------------------------------------------------

def _len(value):
    if isinstance(value, tf.TensorArray):
        return value.size()
    if isinstance(value, TfRange):
        _check_step(value.step)
    return iteration.staged_len(value, PRIMITIVES, lambda v: _length(_rows(v, "len()")))


def _print(*args, sep=" ", end="\n", file=None, flush=False):
    """`print` with a symbolic tensor: `tf.print` to standard output, which prints each time the function runs."""
    if file is not None and file is not sys.stdout:
        raise StagingError(at_user_line("print(..., file=...) of a tensor inside tf.function: tf.print writes to "
                                        "standard output or error only; pass output_stream to tf.print instead."))
    tf.print(*args, sep=" " if sep is None else sep, end="\n" if end is None else end, output_stream=sys.stdout)


def _assert(condition, message_fn):
    message = "Assertion failed" if message_fn is None else message_fn()
    tf.debugging.Assert(_predicate(condition, "this `assert`"), [message])


def _probe(fn):
    """Run `fn` into a throwaway graph: its ops are never kept or run (tensors it reads are captured there)."""
    with _func_graph.FuncGraph("autograph_probe").as_default():
        return fn()


def _zeros(value):
    shape = _shape(value)
    if shape is None or None in shape:
        raise StagingError(at_user_line(
            f"a value returned inside a loop on a tensor has a shape that is not fully known ({shape}), so no "
            "placeholder can stand for it on the paths that don't return. Return after the loop instead."))
    return tf.zeros(shape, _dtype(value))


def _list_from(values: list):
    """A Python list a staged loop carries, as a TensorArray; a list no tensor can hold (nested lists, mixed
    dtypes or shapes) stays a list, carried as a structure of its items (it can't grow, then)."""
    dtype = _list_dtype(values)
    if dtype is None:
        return values
    ta = tf.TensorArray(dtype, size=0, dynamic_size=True, infer_shape=True)
    for i, v in enumerate(values):
        ta = ta.write(i, _lift(v, dtype))
    return ta


def _list_dtype(values: list):
    """The dtype of a TensorArray that holds `values` unchanged, or None."""
    if not values:
        return tf.float32
    if not all(_is_tensor(v) and not isinstance(v, tf.TensorArray) or v.__class__ in (bool, int, float)
               for v in values):
        return None
    tensors = [v for v in values if _is_tensor(v)]
    if tensors:
        dtype, shape = _dtype(tensors[0]), _shape(tensors[0])
        if any(_dtype(t) != dtype or _shape(t) != shape for t in tensors):
            return None
        if len(tensors) < len(values) and shape != ():
            return None
    else:
        dtype = functools.reduce(lambda a, b: a and _promote(a, b), (_number_dtype(v) for v in values))
    return dtype if dtype is not None and all(_is_tensor(v) or _takes(v, dtype) for v in values) else None


def _list_append(ta, value):
    """`l.append(value)` on a list a staged loop carries as a TensorArray: elements keep the list's dtype."""
    if value.__class__ in (bool, int, float) and _takes(value, ta.dtype):
        value = tf.constant(value, ta.dtype)
    value = tf.convert_to_tensor(value)
    if value.dtype != ta.dtype:
        raise StagingError(at_user_line(
            f"append of a {value.dtype.name} value to a list of {ta.dtype.name} values carried by a loop on a "
            "tensor: the loop carries the list as one tensor of one dtype. Cast it with tf.cast(...), or start "
            "the list with an element of the dtype you append."))
    return ta.write(ta.size(), value)


def _list_empty_like(element):
    element = tf.convert_to_tensor(element)
    return tf.TensorArray(element.dtype, size=0, dynamic_size=True, element_shape=element.shape)


def _list_pop(ta, index):
    raise StagingError(at_user_line("list.pop() on a list that a loop on a tensor carries is not supported by the "
                                    "TensorFlow backend; read the last item with l[-1] after the loop instead."))


def _and_then(ok, rest):
    """`ok and rest()` for a `for` loop's test: `rest` (the loop's `break` or `return`) runs where `ok` holds."""
    return tf.cond(ok, lambda: _predicate(rest(), "this `for` loop"), lambda: tf.constant(False))


PRIMITIVES = primitives.Primitives(
    cond=_cond, where=tf.where, minimum=tf.minimum, maximum=tf.maximum, sign=tf.sign,
    index=lambda b: b if isinstance(b, int) else tf.cast(b, tf.int32), length=_length, row=tf.gather,
    and_then=_and_then)

BACKEND = backends.register_backend(backends.Backend(
    name="tensorflow",
    staged_types=(tf.Tensor, tf.Variable, TfRange, TfEnumerate, TfZip, TfStackedList),
    is_staged=_is_staged,
    modules=("tensorflow", "keras", "tf_keras"),
    is_staging=lambda: not tf.executing_eagerly(),
    graph_errors=(tf.errors.OperatorNotAllowedInGraphError,),
    cond=_cond,
    while_loop=_while_loop,
    for_loop=_for_loop,
    range=TfRange,
    len=_len,
    enumerate=TfEnumerate,
    zip=TfZip,
    int=lambda x: tf.cast(x, tf.int32),
    float=lambda x: tf.cast(x, tf.float32),
    logical_and=functools.partial(primitives.logical_and, PRIMITIVES),
    logical_or=functools.partial(primitives.logical_or, PRIMITIVES),
    logical_not=lambda x: tf.logical_not(_predicate(x, "`not`")),
    print=_print,
    assert_=_assert,
    list_from=_list_from,
    list_types=(tf.TensorArray,),
    list_append=_list_append,
    list_pop=_list_pop,
    list_stack=lambda ta: TfStackedList(ta.stack()),
    list_empty_like=_list_empty_like,
    probe=_probe,
    zeros_like=lambda value: primitives.zeros_like(value, _is_tensor, _zeros),
    static_bool=_static_bool,
))


def function(fn: Optional[Callable] = None, /, **tf_function_kwargs: Any) -> Callable:
    """`tf.function(autograph.convert(fn), autograph=False, **kwargs)`; usable as `@function` or
    `@function(input_signature=...)`."""
    if fn is None:
        return functools.partial(function, **tf_function_kwargs)
    from autograph.api import convert

    if tf_function_kwargs.pop("autograph", False):
        raise ValueError("autograph.tensorflow.function converts with autograph; TensorFlow's own AutoGraph "
                         "(autograph=True) must stay off.")
    return tf.function(convert(fn), autograph=False, **tf_function_kwargs)

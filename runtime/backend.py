"""runtime as an autograph backend: symbolic tensors get `cond` and `while_loop`.

Only symbolic tensors (made while a function is traced) are claimed, and
Variables while a function is traced (`if flag:` on a bool Variable is a
staged `if` on its value, as in TensorFlow); an eager tensor in an `if` is a
Python `if` on its value. This module is the worked
example of docs/backends.md.
"""
from __future__ import annotations

import weakref

from autograph import backends
from autograph.backends import iteration, primitives
from autograph.errors import StagingError, at_user_line

from runtime import control_flow, dtypes, errors
from runtime.ops import array_ops, assertions, logging_ops, math_ops, python_ints, python_operands, registry, string_ops
from runtime.shape import as_shape
from runtime.tensor import SymbolicTensor, Tensor, constant, convert_to_tensor, short_repr
from runtime import loop_numbers, stacked_lists
from runtime.tensor_array import TensorArray, stacked_list_of
from runtime.variables import Variable


def _bool(value):
    if getattr(value, "is_stacked_list", False):   # a list is true when it is not empty
        return math_ops.greater(array_ops.shape(value)[0], 0)
    t = convert_to_tensor(value, dtype_hint="bool")
    if t.dtype.name != "bool":
        t = math_ops.not_equal(t, array_ops.zeros_like(t))
    return t


def _cond(pred, true_fn, false_fn, names=()):
    seen: list = []
    out = control_flow.cond(_bool(pred), stacked_lists.noting_lists(true_fn, seen),
                            stacked_lists.noting_lists(false_fn, seen), names=names)
    return stacked_lists.lists_kept(tuple(out), seen[0] if seen else ())


def _static_bool(pred):
    """The truth of a staged condition that tracing already knows (a constant, `tf.size(x) > 0` on a static
    shape), or None."""
    if not isinstance(pred, SymbolicTensor):
        return None
    value = control_flow.static_value(pred)
    return None if value is None or value.shape != () else bool(value)


def _zeros_like(value):
    t = convert_to_tensor(value)
    dims = t.shape.dims
    if dims is None or any(d is None for d in dims):
        raise StagingError(at_user_line(
            f"a value returned inside staged control flow has a shape that is not fully known ({t.shape}), so "
            "no placeholder can stand for it on the paths that don't return. Return after the loop instead."))
    if not dims and not t.dtype.is_string:   # a constant: a Python number a path leaves unassigned stays one where
        return constant(t.dtype.as_numpy_dtype(0), dtype=t.dtype)   # the other assigns it (ops/python_ints.py)
    return array_ops.zeros(list(dims), dtype=t.dtype)


def _list_element(value):
    """A tensor for an element of a tensor list, or a StagingError at the user's line that says which value
    can't be one."""
    try:
        return convert_to_tensor(value)
    except (TypeError, ValueError) as e:
        raise StagingError(at_user_line(
            f"a list that staged control flow carries holds the {type(value).__name__} {short_repr(value)}: "
            f"it is a tensor list there, whose elements must be tensors (Python numbers and bools become tensors), and this "
            f"value can't become one: {e} Keep this list out of the loop or `if` on tensors, or append numbers "
            "or tensors.")) from None


def _list_empty_like(element):
    element = _list_element(element)
    return TensorArray(element.dtype, size=0, dynamic_size=True, element_shape=element.shape)


def _define_loop_state(step, loop: backends.LoopState, test=None) -> tuple:
    """The values of `loop` with placeholders for those not defined yet (`LoopState.with_placeholders`), after
    giving its Python numbers their dtypes (`loop_numbers.typed_numbers`), probing the body on the state as the staged loop
    sees it (placeholders) first; an empty Python list appended to under an `if` can only be probed on the
    Python state (a staged `if` would see lists of different lengths in its branches), so that is the
    fallback."""
    python_state, names = loop.values, loop.names
    state = loop_numbers.typed_numbers(step, test, python_state, names)
    try:
        return backends.LoopState(names, state, BACKEND).with_placeholders(lambda s: step(loop_numbers.as_placeholders(s))).values
    except StagingError:
        defined = loop.with_placeholders(step).values
        return tuple(t if p.__class__ in (int, float) else d for p, t, d in zip(python_state, state, defined))


def _while_loop(test, body, loop: backends.LoopState, opts):
    lists = stacked_lists.list_positions(loop.values)
    test = stacked_lists.given_lists(test, lists)
    body = stacked_lists.keeping_lists(stacked_lists.given_lists(body, lists), lists)
    state = _define_loop_state(lambda s: body(*s), loop, test)
    first = None if loop.first_test is None else _bool(loop.first_test)
    out = control_flow.while_loop(lambda *s: _bool(test(*s)), body, tuple(state),
                                  maximum_iterations=opts.get("maximum_iterations"),
                                  shape_invariants=_per_variable(opts.get("shape_invariants"), state),
                                  relax_shapes=True, names=loop.names, first_test=first)
    return stacked_lists.lists_kept(tuple(out), lists)


def _per_variable(invariants, state: tuple):
    """`set_loop_options(shape_invariants=[(x, [None]), ...])` pairs a loop variable's value with its shape;
    while_loop takes one entry per loop variable (None: the variable's own shape)."""
    if not invariants or not all(isinstance(p, (tuple, list)) and len(p) == 2
                                 and isinstance(p[0], (Tensor, SymbolicTensor)) for p in invariants):
        return invariants
    chosen = [None] * len(state)
    for value, shape in invariants:
        matches = [i for i, v in enumerate(state) if v is value]
        if not matches:
            raise StagingError(at_user_line(
                "set_loop_options(shape_invariants=...) names a value that is not one of this loop's "
                "variables: pass (variable, shape) pairs for variables the loop body assigns."))
        for i in matches:
            chosen[i] = as_shape(shape)   # a TensorShape: a plain list would be flattened as structure
    return chosen


def _iterable_tensor(value, what: str = "iteration"):
    if isinstance(value, range):      # zip(range(n), range(3)): a Python range's ints are int32, as tf.range's
        return array_ops.range(value.start, value.start + len(value) * value.step, value.step)   # range(5, 2): []
    tensor = convert_to_tensor(value)
    if tensor.shape.rank == 0:
        raise StagingError(at_user_line(f"can't iterate over a scalar tensor ({tensor.name})."))
    return tensor


def _static_length(tensor):
    """The first dimension when the graph's shapes know it, else None."""
    dims = tensor.shape.dims
    return None if dims is None else dims[0]


class StagedEnumerate(iteration.StagedEnumerate):
    """`enumerate(t, start)` over a symbolic tensor (or a staged zip), iterated by `_for_loop`."""

    rows, length = staticmethod(_iterable_tensor), staticmethod(_static_length)


class StagedZip(iteration.StagedZip):
    """`zip(a, b, ...)` with a symbolic tensor among them, iterated by `_for_loop` (shortest length); with
    `strict=True`, lengths the graph's shapes know are checked as Python checks them."""

    rows, length = staticmethod(_iterable_tensor), staticmethod(_static_length)


def _probed_index():
    """The index of the item a probe of a `for` loop's body sees (the probe's graph is current): a placeholder,
    not 0, so that an `if i > 0` in the body is staged there too and the probe sees what its branches assign
    (a Python float that one path makes a float32 tensor is no Python float)."""
    return registry.context.graph.placeholder(dtypes.int32, (), "probed")


def _for_loop(iterable, body, loop: backends.LoopState, extra_test, opts):
    """Iterate over the first axis of a tensor (or of the tensors of an enumerate/zip) with a staged
    while loop over an index."""
    walk = iteration.index_walk(iterable, _PRIMITIVES, _iterable_tensor)
    lists = stacked_lists.list_positions(loop.values)
    body = stacked_lists.keeping_lists(stacked_lists.given_lists(body, lists, skip=1), lists)
    extra_test = extra_test and stacked_lists.given_lists(extra_test, lists)
    state = _define_loop_state(lambda s: body(walk.item(_probed_index()), *s), loop, extra_test)

    invariants = _per_variable(opts.get("shape_invariants"), state)
    out = control_flow.while_loop(iteration.index_test(walk, extra_test, _PRIMITIVES),
                                  iteration.index_body(walk, body), (constant(0), *state),
                                  maximum_iterations=opts.get("maximum_iterations"),
                                  shape_invariants=None if invariants is None else [None, *invariants],
                                  relax_shapes=True, names=("iteration_", *loop.names))
    return stacked_lists.lists_kept(tuple(out[1:]), lists)


# what iteration.index_walk needs of a `for` over tensors' rows (the index loop's length is a tensor), and
# iteration.python_stop of a range's bounds
_PRIMITIVES = primitives.Primitives(
    where=array_ops.where, minimum=math_ops.minimum, maximum=math_ops.maximum,
    length=lambda t: _length(t), row=lambda t, i: _row(t, i),
    and_then=lambda ok, rest: control_flow.cond(ok, lambda: _bool(rest()), lambda: constant(False)))


def _range(*args):
    """`range(...)` with a tensor bound: `runtime.range`, for integer bounds only, as Python's `range` (TensorFlow's
    takes floats: `range(2.5)` would run 3 times where Python raises TypeError)."""
    if not 1 <= len(args) <= 3:
        raise TypeError(f"range expected at most 3 arguments, got {len(args)}")
    for bound in args:
        dtype = getattr(bound, "dtype", None)
        if dtype is not None and not dtype.is_integer or isinstance(bound, float):
            kind = f"a {dtype.name} tensor" if dtype is not None else "a float"
            raise TypeError(at_user_line(f"range() needs integers, got {kind}, which it can't interpret as an "
                                         "integer (as Python's range). Cast it with runtime.cast(..., runtime.int32), "
                                         "or use runtime.range for float steps."))
    if len(args) == 3 and isinstance(args[2], int) and args[2] == 0:
        raise ValueError("range() arg 3 must not be zero")
    start, stop, step = (0, args[0], 1) if len(args) == 1 else (*args, 1)[:3]
    # runtime.range raises where Python's range is empty, as TensorFlow's does: the stop is clamped there
    return array_ops.range(start, iteration.python_stop(start, stop, step, _PRIMITIVES), step)


# id(a `for` loop's item of a `range`) -> (a weak reference to the item, that range); see range_of
RANGE_ITEMS: dict = {}


def range_of(t):
    """The `range` tensor whose value `t` is (an item a `for` loop over it reads), or None."""
    entry = RANGE_ITEMS.get(id(t))
    return entry[1] if entry is not None and entry[0]() is t else None


def _length(tensor):
    """How many rows a `for` over `tensor` walks; of a `range`, ceil((limit - start) / delta) computed from its
    bounds, as TensorFlow's autograph does: a `for` over `tf.range(5, 2)` runs no times (as Python's
    `range(5, 2)`), where the range op itself raises."""
    op = getattr(tensor, "op", None)
    if op is None or op.type != "Range":
        return array_ops.shape(tensor)[0]
    start, limit, delta = op.inputs
    step = control_flow.static_value(delta)
    if step is not None and step == 0:
        raise errors.InvalidArgumentError(at_user_line("Range: delta must not be 0."), "Range")
    if step is None:                 # checked when the loop runs (a stateful op: never pruned)
        assertions.assert_op(math_ops.not_equal(delta, math_ops.cast(0, delta.dtype)), [], "Range: delta must not be 0.")
    if tensor.dtype.is_integer:      # exactly, in integers
        count = -math_ops.floordiv(start - limit, delta)
    else:
        count = math_ops.ceil((limit - start) / delta)
    return math_ops.maximum(math_ops.cast(count, dtypes.int32), 0)


def _row(tensor, i):
    """`tensor[i]` for the loop's index `i` (in range by the loop's test); of a `range`, `start + i * delta`, with
    no indexing for an executor or a compiler to check."""
    op = getattr(tensor, "op", None)
    if op is not None and op.type == "Range":
        start, _, delta = op.inputs
        item = start + math_ops.cast(i, tensor.dtype) * delta
        key = id(item)               # one of the range's values: jit_compile's index check can tell it is in range
        RANGE_ITEMS[key] = (weakref.ref(item, lambda _, key=key: RANGE_ITEMS.pop(key, None)), tensor)
        return item
    return tensor[i]


def _len(value):
    if isinstance(value, TensorArray):
        return value.size()
    if value.shape.rank == 0:   # Python's len() of an object without a length, as TensorFlow's
        if isinstance(value, SymbolicTensor):   # of a Python value a staged statement carries: Python's answer
            value.python_type_error("object of type '{kind}' has no len()")
            value.refuse_python("Taking len() of", "Python's len() of the str is known only when the graph runs: "
                                "runtime.strings.length(s) gives it in the graph.")
        hint = (" A Python string that a staged `if` or loop carried is a string tensor: its length is "
                "runtime.strings.length(s)." if value.dtype is dtypes.string else "")
        raise TypeError(at_user_line(f"len() of a scalar tensor ({value.name}) is not defined.{hint}"))
    dims = value.shape.dims
    if dims and dims[0] is not None:
        return dims[0]
    return array_ops.shape(value)[0]


def _int(value):
    """`int(t)` in a graph: a cast to int32 (truncating toward zero, as Python's int does), checked where a float
    is outside int32 (runtime/ops/python_operands.py); of a Python number a staged statement carries, a Python int
    (runtime/ops/python_ints.py)."""
    if isinstance(value, SymbolicTensor) and value.dtype is dtypes.string:
        value.refuse_python("Converting to int", "Python parses the str, which the graph knows only when it runs: "
                            "runtime.strings.to_number(s, runtime.int32) parses it in the graph.")
    out = python_operands.checked_int(value, "int()")
    if isinstance(value, SymbolicTensor) and (name := python_ints.name_of(value)) is not None:
        python_ints.mark(registry.context.graph, out, name, "int")
    return out


def _float(value):
    """`float(t)` in a graph: a cast to float32, the dtype of a Python float in runtime; of a Python int a staged
    statement carries (runtime/ops/python_ints.py), a float64, which holds every int32 exactly, as Python's float
    does (a float32 rounds 2 ** 24 + 1)."""
    if isinstance(value, SymbolicTensor) and value.dtype is dtypes.string:
        value.refuse_python("Converting to float", "Python parses the str, which the graph knows only when it runs: "
                            "runtime.strings.to_number(s) parses it in the graph.")
    name = python_ints.name_of(value) if isinstance(value, SymbolicTensor) else None
    wide = name is not None and value.dtype in (dtypes.int32, dtypes.float64)
    out = math_ops.cast(value, "float64" if wide else "float32")
    if name is not None:   # a Python number's float is a Python float
        python_ints.mark(registry.context.graph, out, name, "float")
    return out


def _logical_and(a, b_fn):
    """`a and b` on a symbolic `a`: Python's value, `b` where `a` is true and `a` itself where it is not (on
    bool tensors, the logical and). A `Cond`, so `b` runs only on the path that needs it."""
    if getattr(a, "is_stacked_list", False):
        return _list_or_other(a, b_fn, "and")
    a = convert_to_tensor(a)
    return control_flow.cond(_bool(a), lambda: _operand_like(a, b_fn(), "and"), lambda: a)


def _logical_or(a, b_fn):
    """`a or b` on a symbolic `a`: `a` where it is true, else `b`, as `_logical_and`."""
    if getattr(a, "is_stacked_list", False):
        return _list_or_other(a, b_fn, "or")
    a = convert_to_tensor(a)
    return control_flow.cond(_bool(a), lambda: a, lambda: _operand_like(a, b_fn(), "or"))


def _list_or_other(a, b_fn, what: str):
    """`a and b` / `a or b` where `a` is a list a staged loop built: a list, `a` or `b` as Python chooses by
    `a`'s length; `b` must be a list too (one graph value is one kind of value)."""
    def other():
        b = b_fn()
        if not isinstance(b, list) and not getattr(b, "is_stacked_list", False):
            raise StagingError(at_user_line(
                f"`{what}` on a list that a loop over tensors built and {_a(type(b).__name__)}: its result is one of "
                "the operands, as in Python, and which one is known only when the graph runs, so both must be "
                "lists. Test the list's length explicitly (`if len(l) > 0:`) and assign in each branch."))
        return a[:0] + b   # (a list of a's dtype)
    take_a = (lambda: a)
    chosen = control_flow.cond(_bool(a), other if what == "and" else take_a, take_a if what == "and" else other)
    return stacked_list_of(chosen)


def _operand_like(a, b, what: str):
    """The right operand of `and`/`or` as a tensor of the left one's dtype: the result is either operand, and a
    graph value has one dtype. A Python number takes `a`'s dtype where it converts exactly (as in `x + 5`); any
    other mismatch is an error, never a silent cast (the value would differ from Python's)."""
    try:
        b = convert_to_tensor(b, dtype_hint=a.dtype)
    except (TypeError, ValueError):   # None, an object: not a graph value (Python's answer may be that object)
        raise StagingError(at_user_line(
            f"`{what}` on {_a(a.dtype.name)} tensor and {'None' if b is None else _a(type(b).__name__)}: its result "
            "is one of the operands, as in Python, and which one is known only when the graph runs, so both must "
            "be tensors (a graph value can't be None or a Python object). Give the other operand a tensor value, "
            "or test explicitly (`if x != 0:`) and assign in each branch.")) from None
    if b.dtype is not a.dtype:
        raise StagingError(at_user_line(
            f"`{what}` on {_a(a.dtype.name)} tensor and {_a(b.dtype.name)} value: its result is one of the operands, "
            f"as in Python, and a tensor has one dtype. Make them one dtype (runtime.cast the {a.dtype.name} operand "
            f"to runtime.{b.dtype.name}, or the other way), or, in a condition, compare explicitly (`x != 0`) so "
            "both are bool."))
    return b


def _a(noun: str) -> str:
    return ("an " if noun[0] in "aeiou" else "a ") + noun


def _assert(condition, message_fn):
    message = message_fn() if message_fn is not None else "Assertion failed"
    if isinstance(message, Tensor):   # `assert x > 0, x`
        return assertions.assert_op(_bool(condition), [message], "assertion failed")
    return assertions.assert_op(_bool(condition), [], message)


def _list_from(values):
    if not values:
        raise StagingError(at_user_line(
            "an empty Python list can't be carried through a loop over tensors, because its element type is "
            "unknown. Use runtime.TensorArray(dtype, size=0, dynamic_size=True) instead."))
    first = _list_element(values[0])
    ta = TensorArray(first.dtype, size=0, dynamic_size=True)
    for i, v in enumerate(values):
        ta = ta.write(i, v)
    return ta


def _list_append(target, value):
    """`l.append(value)` on the TensorArray a staged loop carries, or, after the loop, on the tensor it was
    stacked into (which stays a stacked tensor)."""
    ta = _as_tensor_array(target)
    return _like_target(target, ta.write(ta.size(), _list_element(value)))


def _list_pop(target, index):
    """`x = l.pop(index)`, on a TensorArray or a stacked tensor as `_list_append`."""
    ta, value = _as_tensor_array(target)._pop(-1 if index is None else index)
    return _like_target(target, ta), value


def _like_target(target, ta: TensorArray):
    return ta if isinstance(target, TensorArray) else ta.stacked_list()


def _as_tensor_array(target) -> TensorArray:
    """The list `target` stands for: a staged loop carries it as a TensorArray and stacks it afterwards."""
    if isinstance(target, TensorArray):
        return target
    stacked = convert_to_tensor(target)
    if stacked.shape.rank == 0:
        raise StagingError(at_user_line(
            f"the scalar tensor {stacked.name} is used as a list (`append` or `pop`); only a list that a loop "
            "over tensors carried, stacked into a tensor of rank >= 1, can be."))
    return TensorArray(stacked.dtype, size=0, dynamic_size=True).unstack(stacked)


def _format_string(literals, fields):
    """An f-string (or `str.format`) of traced tensors, formatted when the graph runs as eager tensors are."""
    for field in fields:
        if not isinstance(field.value, Tensor):   # a Variable: Python's text is its repr, which names it
            raise StagingError(at_user_line(
                f"an f-string (or `str`, `repr`, `format`, `str.format`) field holds the Variable "
                f"'{field.value.name}', whose text in Python is its repr with the value it holds when formatted; "
                "the graph can't give that text when it runs. Format its value, `v.read_value()`, instead."))
        if field.value.dtype is dtypes.string:
            raise StagingError(at_user_line(
                f"an f-string (or `str.format`) field holds the string tensor {field.value.name}. As an eager tensor "
                "it formats as its bytes (b'...'), and a Python str that a staged `if` or loop carries becomes such a "
                "tensor, so its text here would not be Python's. Join string tensors with `+` or "
                "runtime.strings.join, and format numbers with runtime.strings.as_string."))
        if python_ints.kind_of(field.value) == python_ints.INT_OR_FLOAT:
            name = python_ints.name_of(field.value)
            raise StagingError(at_user_line(
                f"an f-string (or `str`, `repr`, `format`, `%`) formats '{name}', a Python int on some paths and a "
                f"float on others, which the staged `if` or loop that assigns it carries as a float: Python's text "
                f"of the int (1) is not the float's (1.0), and the graph can't tell which it holds. Make '{name}' "
                f"one type on every path (1.0 for 1), or format float({name}) or int({name})."))
    python_types = [python_ints.kind_of(f.value) if f.value.dtype is not dtypes.string else "" for f in fields]
    return string_ops.python_format(literals, [f.value for f in fields], [f.conversion for f in fields],
                                    [f.spec for f in fields], python_types)   # a Python float formats as its float32


_PYTHON_TYPES = {"int": (int,), "float": (float,), "bool": (bool,), "str": (str,),
                 python_ints.INT_OR_FLOAT: (int, float)}


def _python_type(value):
    """The Python types a symbolic tensor holds when it is a Python number or bool a staged statement carries,
    or a list a staged loop carried (its stacked tensor, after the loop: `isinstance(l, list)` as in Python)."""
    if getattr(value, "is_stacked_list", False):
        return (list,)
    return _PYTHON_TYPES.get(python_ints.kind_of(value)) if isinstance(value, SymbolicTensor) else None


BACKEND = backends.register_backend(backends.Backend(
    name="runtime",
    staged_types=(SymbolicTensor, StagedEnumerate, StagedZip, Variable),
    is_staged=lambda value: value.__class__ is not Variable or registry.context.graph is not None,
    modules=("runtime",),
    graph_errors=(errors.OperatorNotAllowedInGraphError,),
    is_staging=lambda: registry.context.graph is not None,
    cond=_cond,
    while_loop=_while_loop,
    for_loop=_for_loop,
    range=_range,
    len=_len,
    enumerate=StagedEnumerate,
    zip=StagedZip,
    int=_int,
    float=_float,
    logical_and=_logical_and,
    logical_or=_logical_or,
    logical_not=lambda x: math_ops.logical_not(_bool(x)),   # `not x` is a bool, as in Python: `not 3` is False
    assert_=_assert,
    format_string=_format_string,
    python_type=_python_type,
    raise_=logging_ops.raise_,
    list_from=_list_from,
    list_types=(TensorArray,),
    list_append=_list_append,
    list_pop=_list_pop,
    list_stack=lambda ta: ta.stacked_list(),
    list_empty_like=_list_empty_like,
    probe=loop_numbers.probe,
    zeros_like=_zeros_like,
    check_defined=logging_ops.check_defined,
    static_bool=_static_bool,
))

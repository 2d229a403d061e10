"""TensorFlow's higher-order functions: `map_fn`, `scan`, `foldl`, `foldr` (a `while_loop` over the rows,
writing a `TensorArray`), `switch_case` and `case` (nested `cond`s), and the public `cond` and `while_loop`.

As in TensorFlow, the functions a program gives them are converted by autograph
while a function traced with `autograph=True` is being built
(`control_flow.converted`): a Python `if` on a tensor inside a `map_fn`'s
function is staged. The runtime's own code (autograph's backend, gradients)
calls `control_flow.cond` and `while_loop`, which convert nothing.

As in TensorFlow, `map_fn`'s output has the structure and dtypes of `elems`
unless `fn_output_signature` says otherwise, and `scan`'s those of its
initializer: a different dtype is an error naming the signature to pass. They
run eagerly and traced, and differentiate through the loop.
"""
from __future__ import annotations

from typing import Callable

import functools

from runtime import control_flow, dtypes, nest
from runtime.control_flow import converted
from runtime.errors import InvalidArgumentError
from runtime.ops import array_ops, math_ops, registry
from runtime.tensor import Tensor, convert_to_tensor
from runtime.tensor_array import TensorArray

__all__ = ["cond", "while_loop", "map_fn", "vectorized_map", "scan", "foldl", "foldr", "switch_case", "case"]


@functools.wraps(control_flow.cond)
def cond(pred, true_fn=None, false_fn=None, name=None, **options):
    return control_flow.cond(pred, converted(true_fn), converted(false_fn), name, **options)


@functools.wraps(control_flow.while_loop)
def while_loop(cond, body, loop_vars, *args, **options):
    return control_flow.while_loop(converted(cond), converted(body), loop_vars, *args, **options)


def _rows(elems, what: str) -> tuple:
    """The leaves of `elems` as tensors, and their common number of rows (a Python int when known)."""
    leaves = [convert_to_tensor(e) for e in nest.flatten(elems)]
    if not leaves:
        raise ValueError(f"{what}: elems must hold at least one tensor.")
    for t in leaves:
        if t.shape.rank == 0:
            raise InvalidArgumentError(f"{what}: elems must be tensors of rank >= 1, got a scalar.", what)
    static = [t.shape.dims[0] for t in leaves if t.shape.dims is not None and t.shape.dims[0] is not None]
    if len(set(static)) > 1:
        raise InvalidArgumentError(f"{what}: the tensors of elems have different first dimensions {static}.", what)
    n = static[0] if static and len(static) == len(leaves) else array_ops.shape(leaves[0])[0]
    return leaves, n


def _dtypes_of(signature) -> list:
    out = []
    for leaf in nest.flatten(signature):
        dtype = getattr(leaf, "dtype", leaf)
        out.append(dtypes.as_dtype(dtype))
    return out


def _flat_like(what: str, structure, values, kinds: list, hint: str, noun: str = "output") -> list:
    """`values` (what fn returned) as flat tensors of `kinds`, after checking they have `structure`'s nesting and
    those dtypes (a ValueError or TypeError naming `hint` otherwise)."""
    flat = nest.flatten(values)
    if len(flat) != len(kinds) or not nest.same_structure(structure, values):
        raise ValueError(f"{what}: fn returned {nest.structure_repr(values)}, but the {noun} structure is "
                         f"{nest.structure_repr(structure)}. {hint}")
    out = [convert_to_tensor(v, dtype_hint=k) for v, k in zip(flat, kinds)]
    for v, k in zip(out, kinds):
        if v.dtype is not k:
            raise TypeError(f"{what}: fn returned a {v.dtype.name} value where the {noun} is {k.name}. {hint}")
    return out


def map_fn(fn: Callable, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False,
           infer_shape=True, name=None, fn_output_signature=None):
    """`fn` applied to each row of `elems` (a tensor or a structure of tensors with the same first dimension),
    the results stacked."""
    leaves, n = _rows(elems, "map_fn")
    fn = converted(fn)
    signature = fn_output_signature if fn_output_signature is not None else dtype
    structure = elems if signature is None else signature
    kinds = [t.dtype for t in leaves] if signature is None else _dtypes_of(signature)
    hint = "Pass fn_output_signature= with the dtype (or structure of dtypes and TensorSpecs) fn returns."

    shapes: list = []   # of what fn returns, learned where the body is traced

    def body(i, *arrays):
        row = nest.pack(elems, [array_ops.gather(t, i) for t in leaves])
        values = _flat_like("map_fn", structure, fn(row), kinds, hint)
        shapes[:] = [v.shape for v in values]
        return (i + 1, *(ta.write(i, v) for ta, v in zip(arrays, values)))

    _, *arrays = control_flow.while_loop(lambda i, *_: i < n, body, (0, *[TensorArray(k, size=n) for k in kinds]),
                            parallel_iterations=parallel_iterations or 10)
    _element_shapes(arrays, shapes)
    out = nest.pack(structure, [ta.stack() for ta in arrays]) if nest.is_nested(structure) else arrays[0].stack()
    return _stopped(out, back_prop)


def _stopped(out, back_prop: bool):
    """`out`, through which no gradient flows where `back_prop` is False: TensorFlow's graphs stop them there
    (as this runtime's `while_loop` does eagerly too; TensorFlow's eager loops ignore the flag)."""
    if back_prop:
        return out
    return nest.map_structure(lambda t: array_ops.stop_gradient(t) if isinstance(t, Tensor) else t, out)


def vectorized_map(fn: Callable, elems, fallback_to_while_loop=True, warn=True):
    """`fn` applied to each row of `elems`, the results stacked, as TensorFlow's `vectorized_map` (which
    vectorizes; here a loop over the rows, the same values): `fn` is traced once, for a row, so the output
    dtypes are what it returns (unlike `map_fn`, which assumes those of `elems`)."""
    from runtime.function import TensorSpec, function   # import cycle: function imports control_flow

    leaves, _ = _rows(elems, "vectorized_map")
    context = registry.context
    traced = function(fn, autograph=context.graph is None or context.autograph)
    row = nest.pack(elems, [TensorSpec(t.shape[1:], t.dtype) for t in leaves]) if nest.is_nested(elems) else \
        TensorSpec(leaves[0].shape[1:], leaves[0].dtype)
    concrete = traced.get_concrete_function(row)
    signature = nest.map_structure(lambda t: TensorSpec(t.shape, t.dtype), concrete.structured_outputs)
    return map_fn(concrete, elems, fn_output_signature=signature)


def scan(fn: Callable, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False,
         infer_shape=True, reverse=False, name=None):
    """The running accumulation `a = fn(a, row)` over the rows of `elems`, each value of `a` stacked; `a` starts
    at `initializer`, or at the first row (which is then the first output)."""
    return _stopped(_accumulate("scan", fn, elems, initializer, reverse, stacked=True), back_prop)


def foldl(fn: Callable, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False,
          name=None):
    """`a = fn(a, row)` over the rows of `elems`, first to last: the final `a`."""
    return _stopped(_accumulate("foldl", fn, elems, initializer, False, stacked=False), back_prop)


def foldr(fn: Callable, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False,
          name=None):
    """`a = fn(a, row)` over the rows of `elems`, last to first: the final `a`."""
    return _stopped(_accumulate("foldr", fn, elems, initializer, True, stacked=False), back_prop)


def _accumulate(what: str, fn: Callable, elems, initializer, reverse: bool, stacked: bool):
    leaves, n = _rows(elems, what)
    fn = converted(fn)

    def row(i):
        index = n - 1 - i if reverse else i
        return index, nest.pack(elems, [array_ops.gather(t, index) for t in leaves])

    if initializer is None:
        start, (_, first) = 1, row(0)
        accumulator = first
    else:
        start, accumulator = 0, nest.map_structure(convert_to_tensor, initializer)
    structure = accumulator
    flat = [convert_to_tensor(a) for a in nest.flatten(accumulator)]
    hint = "fn must return a value with the structure and dtypes of the initializer (or of elems' rows)."
    arrays = [TensorArray(a.dtype, size=n) for a in flat] if stacked else []
    if stacked and initializer is None:
        arrays = [ta.write(n - 1 if reverse else 0, a) for ta, a in zip(arrays, flat)]

    def body(i, acc, *arrays):
        index, x = row(i)
        new_flat = _flat_like(what, structure, fn(nest.pack(structure, list(acc)), x), [a.dtype for a in flat],
                              hint, "accumulator")
        return (i + 1, tuple(new_flat), *(ta.write(index, v) for ta, v in zip(arrays, new_flat)))

    _, final, *arrays = control_flow.while_loop(lambda i, *_: i < n, body, (start, tuple(flat), *arrays))
    _element_shapes(arrays, [a.shape for a in final])
    if not stacked:
        return nest.pack(structure, list(final))
    return nest.pack(structure, [ta.stack() for ta in arrays])


def _element_shapes(arrays: list, shapes: list) -> None:
    """Tell the arrays a loop filled the shape of their elements (a traced loop's body learned it), so that
    their stacked tensors have a static shape where the number of rows is known too."""
    for ta, shape in zip(arrays, shapes):
        if shape.rank is not None and (ta.element_shape is None or ta.element_shape.is_compatible_with(shape)):
            ta.element_shape = shape


def switch_case(branch_index, branch_fns, default=None, name="switch_case"):
    """The result of `branch_fns[branch_index]()` (a list of functions, a dict or pairs of int keys to
    functions); `default` for an index no branch has (the last branch when `default` is None, as in TensorFlow;
    keys other than 0 to n-1 then are a ValueError, as in TensorFlow)."""
    if isinstance(branch_fns, dict):
        pairs = sorted(branch_fns.items())
    elif branch_fns and all(isinstance(b, (tuple, list)) for b in branch_fns):
        pairs = sorted((int(k), f) for k, f in branch_fns)
    else:
        pairs = list(enumerate(branch_fns))
    if not pairs:
        raise ValueError("switch_case: branch_fns must not be empty.")
    if default is None and [k for k, _ in pairs] != list(range(len(pairs))):
        raise ValueError(f"switch_case: the branch keys {[k for k, _ in pairs]} are not 0 to {len(pairs) - 1}, so "
                         "an index between them has no branch (TensorFlow refuses such keys). Pass default= for "
                         "the indices no branch has, or number the branches 0, 1, ...")
    if default is None:
        default = pairs[-1][1]
    pairs, default = [(key, converted(fn)) for key, fn in pairs], converted(default)
    index = convert_to_tensor(branch_index)
    if index.dtype not in (dtypes.int32, dtypes.int64) or index.shape.rank not in (0, None):
        raise TypeError(f"switch_case: branch_index must be a scalar int32 or int64 tensor, got {index.dtype.name} "
                        f"of shape {index.shape}.")

    def chain(k: int):
        if k == len(pairs):
            return default()
        key, fn = pairs[k]
        return control_flow.cond(math_ops.equal(index, math_ops.cast(key, index.dtype)), fn, lambda: chain(k + 1))
    return chain(0)


def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """The result of the function of the first pair whose predicate (a scalar bool tensor) is true, else of
    `default`. With no `default`, no predicate holding is an error (the last pair's function runs when only its
    predicate holds); with `exclusive`, two holding are. Both are InvalidArgumentErrors when the check runs, as
    TensorFlow's. `strict` changes nothing here."""
    from runtime.debugging import assert_greater, assert_less_equal   # import cycle: debugging imports the ops

    if isinstance(pred_fn_pairs, dict):
        raise TypeError("case: pred_fn_pairs must be a list of (predicate, function) pairs; a dict can't hold "
                        "tensors as keys (TensorFlow 2 refuses it too).")
    pairs = list(pred_fn_pairs)
    if not pairs or not all(isinstance(p, (tuple, list)) and len(p) == 2 and callable(p[1]) for p in pairs):
        raise TypeError("case: pred_fn_pairs must be a non-empty list of (predicate, function) pairs.")
    preds = [convert_to_tensor(p) for p, _ in pairs]
    if any(p.dtype is not dtypes.bool or p.shape.rank not in (0, None) for p in preds):
        raise TypeError("case: each predicate must be a scalar bool tensor.")
    if exclusive or default is None:
        holding = math_ops.reduce_sum(math_ops.cast(array_ops.stack(preds), dtypes.int32))
    if exclusive:
        assert_less_equal(holding, 1, message="case: exclusive=True, but more than one predicate is true")
    if default is None:
        assert_greater(holding, 0, message="case: no predicate is true and there is no default")
        *pairs, (_, default) = pairs
    pairs, default = [(pred, converted(fn)) for pred, fn in pairs], converted(default)

    def chain(k: int):
        if k == len(pairs):
            return default()
        pred, fn = pairs[k]
        return control_flow.cond(pred, fn, lambda: chain(k + 1))
    return chain(0)

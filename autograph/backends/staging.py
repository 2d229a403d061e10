"""The framework-neutral half of a backend's `if` and loops: the carried state as leaves, and the checks.

A framework's `cond` and `while_loop` carry only its tensors, with one dtype and
shape each. Converted code hands a backend the user's variables, which may be
Python numbers, strings, None, or nested lists, tuples and dicts of those. This
module flattens them into *leaves* with the framework's own tree utilities and
decides, per leaf, whether it is carried (a tensor, or a Python number lifted
to one) or *static* (any other Python value, which must be the same on every
path). The checks name the user's variable when two branches, or two
iterations, disagree on structure, dtype or shape.

Python numbers are weakly typed, as in the runtime and JAX: `s = 0` before a
loop whose body makes `s` a float32 tensor is carried as a float32 tensor; a
branch giving `y = 0` against a branch giving a float64 tensor gives a float64
zero. A backend learns such a dtype only after tracing a branch or a loop body,
so the check raises `Retry` with the new *plan* (one entry per leaf: STATIC or a
dtype), and the backend traces again; it can do so because its framework drops
a trace that raised before building its op.

A framework supplies its `LeafRules` and its primitives: `cond` drives a staged
`if` through the framework's conditional, `loop` a staged loop through
whatever loop the framework builds (`tf.while_loop`, `lax.while_loop`, a
`lax.scan`), retrying with a new plan until every leaf has one dtype and
shape. The TensorFlow and JAX backends are built on them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

import numpy as np

from autograph.errors import StagingError, at_user_line, user_location

STATIC = "static"
NUMBERS = (bool, int, float)


@dataclass(frozen=True)
class LeafRules:
    """What a framework tells this module about its values."""

    framework: str                         # for messages: "TensorFlow"
    is_tensor: Callable[[Any], bool]       # a value the framework's control flow carries as it is
    flatten: Callable[[Any], tuple]        # value -> (leaves, treedef), the framework's tree utility
    unflatten: Callable[[Any, list], Any]  # (treedef, leaves) -> value
    number_dtype: Callable[[Any], Any]     # the dtype a Python bool/int/float becomes on its own
    dtype: Callable[[Any], Any]            # a tensor's dtype
    shape: Callable[[Any], Optional[tuple]]  # a tensor's shape, None for an unknown dimension; None: unknown rank
    lift: Callable[[Any, Any], Any]        # (Python number or tensor, dtype) -> a tensor of that dtype
    takes: Callable[[Any, Any], bool]      # does a Python number of this kind (a value) take this dtype unchanged?
    promote: Callable[[Any, Any], Any]     # the dtype of two Python scalars' dtypes combined, None if none
    scalars: tuple = NUMBERS               # Python types lifted to tensors when they differ between paths
    describe_dtype: Callable[[Any], str] = str
    cast_hint: str = "cast one of them"    # how to change a dtype in this framework, for messages
    cond_relaxes_shapes: bool = False      # may a staged `if`'s branches give a variable different shapes?
    # join(a, b): the dtype two tensors of different dtypes both take (JAX's weakly typed arrays), None if none
    join: Optional[Callable[[Any, Any], Any]] = None
    # None: a loop variable whose shape an iteration changes is carried with those dimensions unknown; else the
    # framework's loops keep shapes, and this says what to do instead (the end of the error message)
    loop_shape_hint: Optional[str] = None


class Retry(Exception):
    """Raised out of a traced branch or loop body: trace again with `plan` (and, for a loop, `shapes`)."""

    def __init__(self, plan: tuple, shapes: Optional[tuple] = None):
        super().__init__("trace again with another plan")
        self.plan, self.shapes = plan, shapes


@dataclass(frozen=True)
class Layout:
    """How a state tuple was flattened: per variable its treedef and leaf count; per leaf its variable's name."""

    names: tuple
    treedefs: tuple
    sizes: tuple
    leaf_names: tuple


def flatten(rules: LeafRules, values: Sequence, names: Sequence[str]) -> tuple[list, Layout]:
    """The leaves of `values`, in order, and its layout (`names` may be shorter: 'value #i')."""
    names = tuple(names[i] if i < len(names) else f"value #{i}" for i in range(len(values)))
    treedefs, sizes, leaf_names, leaves = [], [], [], []
    for name, value in zip(names, values):
        flat, treedef = rules.flatten(value)
        treedefs.append(treedef)
        sizes.append(len(flat))
        leaf_names += [name] * len(flat)
        leaves += flat
    return leaves, Layout(names, tuple(treedefs), tuple(sizes), tuple(leaf_names))


def unflatten(rules: LeafRules, leaves: Sequence, layout: Layout) -> tuple:
    out, at = [], 0
    for treedef, size in zip(layout.treedefs, layout.sizes):
        out.append(rules.unflatten(treedef, list(leaves[at:at + size])))
        at += size
    return tuple(out)


def is_dynamic(rules: LeafRules, leaf) -> bool:
    return rules.is_tensor(leaf) or isinstance(leaf, rules.scalars)


def same_static(a, b) -> bool:
    """Whether two paths' Python values (two branches', an iteration's and the one before it) are one value that
    the staged statement may keep as it is: the same object, or equal values of one type that nothing tells
    apart. Equal is not enough: 0.0 == -0.0 (`1 / y`, `copysign` tell them apart), Decimal('1.0') ==
    Decimal('1.00'), and an `__eq__` of the user's may call unlike objects equal; their reprs differ."""
    if a is b:
        return True
    try:
        return type(a) is type(b) and bool(a == b) and repr(a) == repr(b)
    except Exception:
        return False


def describe(rules: LeafRules, leaf) -> str:
    if rules.is_tensor(leaf):
        shape = rules.shape(leaf)
        return (f"{_a(rules.describe_dtype(rules.dtype(leaf)))} tensor of shape "
                f"{'unknown' if shape is None else list(shape)}")
    return f"the Python {type(leaf).__name__} {leaf!r}"


def _a(word: str) -> str:
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def _who(name: str) -> str:
    if name.startswith("value #"):
        return "the value"
    return "the function's return value" if name.startswith("retval") else f"'{name}'"


def check_structure(rules: LeafRules, layout: Layout, other: Layout, construct: str) -> None:
    """Both branches (or both sides of an iteration) give every variable the same nesting."""
    for name, a, b, size, other_size in zip(layout.names, layout.treedefs, other.treedefs, layout.sizes,
                                            other.sizes):
        if a != b:
            before, after = _structure(rules, a, size), _structure(rules, b, other_size)
            lists = "list" in before + after
            raise StagingError(at_user_line(
                f"{_who(name)} changes structure in {construct} on a tensor: it is {before} on one path and "
                f"{after} on another. With a tensor condition each variable must keep one structure (the same "
                "nesting of lists, tuples and dicts) on every path"
                + (": a list must grow the same way on every path (append in both branches), or be a "
                   "preallocated tensor whose items are set." if lists else ".")))


class _Leaf:
    def __repr__(self) -> str:
        return "a single value"


def _structure(rules: LeafRules, treedef, size: int) -> str:
    """A variable's structure in words: 'a list of 2 items', 'a single value'."""
    try:
        value = rules.unflatten(treedef, [_Leaf()] * size)
    except Exception:                                      # a framework's tree that can't be rebuilt so
        return str(treedef)
    if isinstance(value, _Leaf):
        return "a single value"
    if value is None:
        return "None"
    if hasattr(value, "describe"):                         # a framework's list type (jax_lists.JaxList)
        return value.describe()
    if isinstance(value, (list, tuple, dict)):
        return f"a {type(value).__name__} of {len(value)} item{'' if len(value) == 1 else 's'}"
    return f"a {type(value).__name__}"


# --- if ----------------------------------------------------------------------------------------------

def branch_plan(rules: LeafRules, first: Sequence, second: Sequence, layout: Layout, construct: str) -> tuple:
    """Per leaf of two branches' outputs: STATIC (the same Python value in both) or the dtype both get."""
    return tuple(_leaf_plan(rules, a, b, name, construct) for a, b, name in zip(first, second, layout.leaf_names))


def _leaf_plan(rules: LeafRules, a, b, name: str, construct: str):
    ta, tb = rules.is_tensor(a), rules.is_tensor(b)
    if not ta and not tb and same_static(a, b):
        return STATIC
    if not (is_dynamic(rules, a) and is_dynamic(rules, b)):
        raise StagingError(at_user_line(
            f"{_who(name)} is {describe(rules, a)} in one branch of {construct} on a tensor and "
            f"{describe(rules, b)} in the other. A staged `if` can only choose between tensors (or numbers): "
            "give it the same non-tensor value in both branches, or make it a tensor in both."))
    if ta and tb:
        if rules.dtype(a) != rules.dtype(b) and (rules.join is None or rules.join(a, b) is None):
            raise StagingError(at_user_line(
                f"{_who(name)} is {describe(rules, a)} in one branch of {construct} on a tensor and "
                f"{describe(rules, b)} in the other. Both branches must give it one dtype: {rules.cast_hint}."))
        if _shapes_differ(rules.shape(a), rules.shape(b)) and not rules.cond_relaxes_shapes:
            raise StagingError(at_user_line(
                f"{_who(name)} is {describe(rules, a)} in one branch of {construct} on a tensor and "
                f"{describe(rules, b)} in the other. Both branches must give it one shape."))
        return rules.dtype(a) if rules.dtype(a) == rules.dtype(b) else rules.join(a, b)
    if ta or tb:
        tensor, number = (a, b) if ta else (b, a)
        dtype = rules.dtype(tensor)
        if not rules.takes(number, dtype):
            raise StagingError(at_user_line(
                f"{_who(name)} is {describe(rules, a)} in one branch of {construct} on a tensor and "
                f"{describe(rules, b)} in the other, and {_a(type(number).__name__)} can't become "
                f"{rules.describe_dtype(dtype)} without changing its value: {rules.cast_hint}."))
        return dtype
    common = rules.promote(rules.number_dtype(a), rules.number_dtype(b))
    if common is None:
        raise StagingError(at_user_line(
            f"{_who(name)} is {describe(rules, a)} in one branch of {construct} on a tensor and "
            f"{describe(rules, b)} in the other; no tensor holds both. Give it values of one type."))
    if not (rules.takes(a, common) and rules.takes(b, common)):
        raise StagingError(at_user_line(
            f"{_who(name)} is {describe(rules, a)} in one branch of {construct} on a tensor and "
            f"{describe(rules, b)} in the other; they would be {_a(rules.describe_dtype(common))} tensor, which "
            f"can't hold {a if not rules.takes(a, common) else b!r} exactly. Give it values of one type."))
    return common


def number_takes(kind: Callable, int_range: Callable, convert: Callable, bools_anywhere: bool = True) -> Callable:
    """A `LeafRules.takes` from the framework's dtype kinds: `kind(dtype)` is "b" (bool), "i" (an integer dtype
    holding `int_range(dtype)`, (min, max)), "f" (float), "c" (complex), "s" (string) or anything else, and
    `convert(number, dtype)` is a number's value in that dtype (`numpy_value` for NumPy's dtypes). A bool takes
    any dtype when `bools_anywhere` (True is 1, as the framework's `where` makes it), else only bool; a string
    only a string dtype; an int, float or complex as `number_kept` says."""
    def takes(number, dtype) -> bool:
        k = kind(dtype)
        if number.__class__ is bool:
            return bools_anywhere or k == "b"
        if isinstance(number, str):
            return k == "s"
        return number_kept(number, k, lambda n: convert(n, dtype), int_range(dtype) if k == "i" else None)
    return takes


def numpy_value(number, dtype):
    """A Python number's value as NumPy's `dtype`: inf for a float the dtype can't hold, without NumPy's warning."""
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        return np.asarray(number, dtype)


def number_kept(number, kind: str, convert: Callable, int_range: Optional[tuple] = None) -> bool:
    """Does the Python int, float or complex `number` keep its value in a dtype of `kind` ("i" an integer dtype
    holding `int_range`, (min, max); "f" float, "c" complex; no other kind holds it), `convert(number)` being
    its value there (it may raise OverflowError)? An int must stay exact (2**24 + 1 isn't a float32), a float
    keep its magnitude (`float_kept`), a complex needs a complex dtype. A framework's `takes` decides bools."""
    if kind not in ("i", "f", "c"):
        return False
    if isinstance(number, int):
        if kind == "i":
            return int_range[0] <= number <= int_range[1]
        try:
            converted = complex(convert(number)).real
        except (OverflowError, RuntimeError):
            return False
        return kind in "fc" and math.isfinite(converted) and int(converted) == number
    if isinstance(number, float):
        if kind not in "fc":
            return False
        try:
            return float_kept(number, convert(number))
        except (OverflowError, RuntimeError):
            return False
    return kind == "c"


def float_kept(number: float, converted) -> bool:
    """Does a Python float keep its magnitude as `converted`, its value in a tensor's float dtype (a complex's
    real part)? Rounding is accepted, as a weakly typed number is rounded; a finite float that becomes inf
    (1e5 as float16) or a nonzero one that becomes 0 (1e-8 as float16) is not."""
    converted = complex(converted).real
    return not (math.isfinite(number) and not math.isfinite(converted) or number != 0 and converted == 0)


def _shapes_differ(a: Optional[tuple], b: Optional[tuple]) -> bool:
    if a is None or b is None:
        return False
    return len(a) != len(b) or any(x is not None and y is not None and x != y for x, y in zip(a, b))


def lifted(rules: LeafRules, leaves: Sequence, plan: Sequence) -> list:
    """The carried leaves of a branch's or body's output under `plan` (static leaves dropped)."""
    return [rules.lift(v, dtype) for v, dtype in zip(leaves, plan) if dtype != STATIC]


def with_static(carried: Sequence, static_from: Sequence, plan: Sequence) -> list:
    """All leaves again: the carried ones, and the static ones from `static_from`."""
    it = iter(carried)
    return [s if dtype == STATIC else next(it) for s, dtype in zip(static_from, plan)]


# The plan an `if` needed the last time it was traced, by framework, source location and names: tracing it
# again (an enclosing `if` or loop traced again, a new trace of the function) starts from it instead of
# retrying, so a chain of `elif`s with a Python number in each branch costs linear, not exponential, tracing.
# A hint is only a first guess: the second branch checks it like any plan.
_hints: dict = {}
_MAX_HINTS = 4096


def cond(rules: LeafRules, branch_op: Callable, pred, true_fn: Callable, false_fn: Callable, names: Sequence[str],
         construct: str = "this `if`") -> tuple:
    """A staged `if`: `branch_op(pred, true_run, false_run)` is the framework's conditional, whose branches
    return lists of tensors and which returns the chosen list. The branch traced first records its leaves;
    the second works out the plan of both (which leaves are static, each carried one's dtype) and raises
    `Retry` when the first must change, to trace both again (the framework drops a trace that raised)."""
    site = (rules.framework, user_location(), tuple(names))
    plan = _hints.get(site)
    while True:
        traced: dict = {}
        try:
            out = branch_op(pred, _branch(rules, true_fn, names, traced, plan, construct),
                            _branch(rules, false_fn, names, traced, plan, construct))
        except Retry as retry:
            plan = retry.plan
            if len(_hints) >= _MAX_HINTS:
                _hints.clear()
            _hints[site] = plan
            continue
        return unflatten(rules, with_static(list(out), traced["leaves"], traced["plan"]), traced["layout"])


def _branch(rules: LeafRules, fn: Callable, names, traced: dict, plan, construct: str) -> Callable:
    def run():
        leaves, layout = flatten(rules, tuple(fn()), names)
        if "layout" not in traced:                        # traced first
            mine = plan if _fits(rules, plan, leaves) else loop_plan(rules, leaves)
            traced.update(leaves=leaves, layout=layout, plan=mine, used=mine)
            # a number its first dtype can't hold (2**40 as JAX's int32) is a zero until the plan of both branches
            # says which dtype holds it, or refuses it
            return lifted(rules, [type(v)(0) if isinstance(v, NUMBERS + (complex,)) and dtype != STATIC
                                  and not rules.takes(v, dtype) else v for v, dtype in zip(leaves, mine)], mine)
        check_structure(rules, traced["layout"], layout, construct)
        wanted = branch_plan(rules, traced["leaves"], leaves, layout, construct)
        if wanted != traced["used"]:
            raise Retry(wanted)
        traced["plan"] = wanted
        return lifted(rules, leaves, wanted)
    return run


def _fits(rules: LeafRules, plan: Optional[tuple], leaves: Sequence) -> bool:
    """Can `plan` (a hint, or the plan of a retry) lift `leaves`: one entry per leaf, static for each leaf that
    can't be carried, a dtype for each tensor?"""
    return plan is not None and len(plan) == len(leaves) and all(
        not rules.is_tensor(v) if dtype == STATIC else is_dynamic(rules, v) for v, dtype in zip(leaves, plan))


# --- loops -------------------------------------------------------------------------------------------

def loop_plan(rules: LeafRules, leaves: Sequence) -> tuple:
    """A loop's first plan: each tensor's dtype, each Python number's own dtype, STATIC for other values."""
    return tuple(rules.dtype(v) if rules.is_tensor(v) else rules.number_dtype(v) if isinstance(v, rules.scalars)
                 else STATIC for v in leaves)


_TYPING_STEPS = 3


def typed_numbers(rules: LeafRules, leaves: Sequence, layout: Layout, step: Callable, values: tuple,
                  widen: Optional[Callable] = None, steps: int = _TYPING_STEPS, within: Callable = None) -> tuple:
    """A loop's first plan (`loop_plan`), with the dtype each Python int or float among its `leaves` takes in
    the body: `s = 0` before a loop that adds a float32 tensor (or 0.5) to it is carried as float32, where a
    framework without weakly typed tensors would refuse the float32 added to an int32. `step(values)` runs one
    iteration untraced on the state's `values` (the numbers themselves) and gives the new values, up to `steps`
    times (an `if i > 0` on a Python counter changes `s` only from the second); `widen(number, planned, new)`
    is the dtype the number is carried in once an iteration made it `new`, None to keep `planned` (default:
    `widened`); `within(run)` runs the steps (in a throwaway graph, say). Whatever goes wrong in the runs leaves
    the plan as it is: the traced loop reports it at the user's line."""
    plan = list(loop_plan(rules, leaves))
    numbers = [i for i, v in enumerate(leaves) if v.__class__ in (int, float)]
    if numbers:
        (within or _call)(lambda: _type_steps(rules, leaves, layout, step, values, widen, steps, numbers, plan))
    return tuple(plan)


def _call(fn: Callable):
    return fn()


def _type_steps(rules: LeafRules, leaves: Sequence, layout: Layout, step: Callable, values: tuple,
                widen: Optional[Callable], steps: int, numbers: list, plan: list) -> None:
    widen = widen or (lambda number, planned, new: widened(rules, number, planned, new))
    try:
        for _ in range(steps):
            values = tuple(step(values))
            after, after_layout = flatten(rules, values, layout.names)
            if after_layout.treedefs != layout.treedefs:
                break
            for i in numbers:
                wanted = widen(leaves[i], plan[i], after[i])
                plan[i] = plan[i] if wanted is None else wanted
            if not any(after[i].__class__ in (int, float) for i in numbers):
                break                      # each is a tensor now: later steps can't tell more
    except Exception:                      # the traced loop reports what is wrong, at the user's line
        pass


def widened(rules: LeafRules, number, planned, new):
    """The dtype a Python number planned as `planned` is carried in once an iteration made it `new`: a tensor's
    dtype while the plan is still the number's own (narrower too: 0 + an int8 tensor is an int8), else the
    dtypes combined; None when that changes nothing or the number can't take it without changing its value."""
    if rules.is_tensor(new):
        wanted = rules.dtype(new) if planned == rules.number_dtype(number) else rules.promote(planned,
                                                                                             rules.dtype(new))
    elif new.__class__ in (int, float):
        wanted = rules.promote(planned, rules.number_dtype(new))
    else:
        return None
    return wanted if wanted is not None and wanted != planned and rules.takes(number, wanted) else None


def check_iteration(rules: LeafRules, before: Sequence, after: Sequence, layout: Layout, after_layout: Layout,
                    plan: tuple, shapes: tuple, construct: str) -> list:
    """The carried leaves after one traced iteration (`after`), checked against the loop's `before` leaves
    (the initial values) under `plan`, and the carried `shapes` (None: unknown dimension).

    Raises `Retry` when a variable that started as a Python number becomes a tensor of a wider dtype, or
    when a carried tensor's shape changes (the new plan carries it with those dimensions unknown); raises a
    StagingError naming the variable for any other change of structure, dtype or static value."""
    check_structure(rules, layout, after_layout, construct)
    out, relaxed = [], list(shapes)
    k = 0                                 # index among carried leaves
    for i, (old, new, dtype) in enumerate(zip(before, after, plan)):
        name = layout.leaf_names[i]
        if dtype == STATIC:
            if not same_static(old, new):
                raise StagingError(at_user_line(
                    f"{_who(name)} changes from {describe(rules, old)} to {describe(rules, new)} in {construct} "
                    "on a tensor. Only tensors and numbers can change in a staged loop: make it a tensor."))
            continue
        if not is_dynamic(rules, new):
            raise StagingError(at_user_line(
                f"{_who(name)} changes from {describe(rules, old)} to {describe(rules, new)} in {construct} on a "
                "tensor. A loop variable must stay a tensor (or number) of one dtype."))
        if rules.is_tensor(new) and rules.dtype(new) != dtype:
            if (isinstance(old, rules.scalars) and rules.takes(old, rules.dtype(new)) or rules.is_tensor(old)
                    and rules.join is not None and rules.join(old, new) == rules.dtype(new)):
                raise Retry(plan[:i] + (rules.dtype(new),) + plan[i + 1:], shapes)
            raise StagingError(at_user_line(
                f"{_who(name)} changes dtype from {rules.describe_dtype(dtype)} to "
                f"{rules.describe_dtype(rules.dtype(new))} in {construct} on a tensor. A loop variable keeps one "
                f"dtype: give it that dtype before the loop, or {rules.cast_hint}."))
        if not rules.is_tensor(new) and not rules.takes(new, dtype):
            raise StagingError(at_user_line(
                f"{_who(name)} is {rules.describe_dtype(dtype)} before {construct} on a tensor, and an iteration "
                f"sets it to {describe(rules, new)}, which that dtype can't hold. Give it the right dtype before "
                "the loop."))
        value = rules.lift(new, dtype)
        relaxed[k] = _relax(shapes[k], rules.shape(value))
        if rules.loop_shape_hint is not None and relaxed[k] != shapes[k]:
            raise StagingError(at_user_line(
                f"{_who(name)} changes shape from {_shape_text(shapes[k])} to {_shape_text(rules.shape(value))} "
                f"in {construct} on a tensor. {rules.loop_shape_hint}"))
        out.append(value)
        k += 1
    if tuple(relaxed) != tuple(shapes):
        raise Retry(plan, tuple(relaxed))
    return out


_MAX_RETRIES = 16


def loop(rules: LeafRules, values: Sequence, names: Sequence[str], run: Callable, construct: str,
         plan: Optional[tuple] = None) -> tuple:
    """A staged loop carrying `values` (the user's variables, named `names`): returns their values after it.

    `run(carried, unpack, pack, shapes)` builds the framework's loop from the initial carried tensors:
    `unpack(carry)` gives the variables' values as the loop's test and body take them, `pack(new_values)` the
    carried tensors of a body's result, checked against the loop's (it raises `Retry`, which `run` lets
    through; the loop is then built again with the new plan and `shapes`, the carried shapes with None for a
    dimension that changes). `plan` is the first plan (default: `loop_plan`)."""
    leaves, layout = flatten(rules, values, names)
    plan = plan or loop_plan(rules, leaves)
    _check_numbers(rules, leaves, plan, layout, construct)
    shapes = None
    for _ in range(_MAX_RETRIES):
        carried = lifted(rules, leaves, plan)
        if shapes is None:
            shapes = tuple(rules.shape(v) for v in carried)

        def unpack(carry, plan=plan) -> tuple:
            return unflatten(rules, with_static(list(carry), leaves, plan), layout)

        def pack(new_values, plan=plan, shapes=shapes) -> list:
            after, after_layout = flatten(rules, tuple(new_values), layout.names)
            return check_iteration(rules, leaves, after, layout, after_layout, plan, shapes, construct)

        try:
            out = run(carried, unpack, pack, shapes)
        except Retry as retry:
            plan, shapes = retry.plan, retry.shapes if retry.plan == plan else None
            continue
        return unpack(out)
    raise StagingError(at_user_line(f"the variables of {construct} keep changing dtype or shape; give each one "
                                    "its final dtype before the loop."))  # pragma: no cover - each retry widens


def _check_numbers(rules: LeafRules, leaves: Sequence, plan: tuple, layout: Layout, construct: str) -> None:
    """Each Python number a loop carries keeps its value in its dtype (1e39 is inf as a float32, 2**40 no
    int32 when JAX has no int64)."""
    for name, v, dtype in zip(layout.leaf_names, leaves, plan):
        if dtype != STATIC and isinstance(v, rules.scalars) and not rules.is_tensor(v) and not rules.takes(v, dtype):
            raise StagingError(at_user_line(
                f"{_who(name)} is {describe(rules, v)} before {construct} on a tensor, and {_a(type(v).__name__)} "
                f"can't become {rules.describe_dtype(dtype)} (the dtype the loop carries it in) without changing "
                "its value. Give it a value that dtype holds, or a tensor of a wider dtype before the loop."))


def _shape_text(shape: Optional[tuple]) -> str:
    return "unknown" if shape is None else str(list(shape))


def _relax(carried: Optional[tuple], new: Optional[tuple]) -> Optional[tuple]:
    """The carried shape, with the dimensions an iteration changed made unknown (None: unknown rank)."""
    if carried is None or new is None or len(carried) != len(new):
        return None
    return tuple(c if c == n else None for c, n in zip(carried, new))

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
    if a is b:
        return True
    try:
        return type(a) is type(b) and bool(a == b)
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


def number_kept(number, kind: str, convert: Callable, int_range: Optional[tuple] = None) -> bool:
    """Does the Python int, float or complex `number` keep its value in a dtype of `kind` ("b" bool, "i" an
    integer dtype holding `int_range`, (min, max); "f" float, "c" complex), `convert(number)` being its value
    there (it may raise OverflowError)? An int must stay exact (2**24 + 1 isn't a float32), a float keep its
    magnitude (`float_kept`), a complex needs a complex dtype. A framework's `takes` decides bools itself."""
    if kind == "b":
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


def before_stop(i, stop, step, where):
    """Whether a range's counter `i` has not reached `stop` going by `step`: one comparison for a Python int
    step, both selected by the step's sign (with the framework's `where`) for a staged one."""
    if isinstance(step, int):
        return i < stop if step > 0 else i > stop
    return where(step > 0, i < stop, i > stop)


# --- range with a staged bound -------------------------------------------------------------------------

class StagedRange:
    """`range(*args)` with a staged bound, as a backend's `range` hook receives the user's one to three
    arguments; its `for_loop` iterates it. A framework subclasses it with `non_integer(bound)` (the name of a
    bound's non-integer dtype, or None) and the two hints below."""

    bound_kind = "staged"                             # the framework's word for the bound: "tensor", "traced"
    cast_hint = "Cast it to an integer."               # how to make a bound an integer, in this framework
    values_hint = "Use the framework's arange."       # how to get the range's values as a tensor

    def __init__(self, *args):
        if not 1 <= len(args) <= 3:
            raise TypeError(f"range expected 1 to 3 arguments, got {len(args)}")
        start, stop, step = (0, args[0], 1) if len(args) == 1 else (*args, 1)[:3]
        for bound in (start, stop, step):
            kind = "float" if isinstance(bound, float) else self.non_integer(bound)
            if kind is not None:
                raise StagingError(at_user_line(f"range() needs integers, got a {kind} bound. {self.cast_hint}"))
        if isinstance(step, int) and step == 0:
            raise ValueError("range() arg 3 must not be zero")
        self.start, self.stop, self.step = start, stop, step

    def non_integer(self, bound) -> Optional[str]:
        return None

    def __iter__(self):
        raise StagingError(at_user_line(
            f"a range() with a {self.bound_kind} bound has no length while tracing, so it can only drive a `for` "
            f"loop (which the framework stages). {self.values_hint}"))

    # What Python does with a range but the range's loop can't: a StagingError, not the TypeError Python raises
    # for an object without the method (a user's `except TypeError` would take that for the code's own error),
    # nor a range that is always true
    def __reversed__(self):
        raise StagingError(at_user_line(
            f"reversed() of a range() with a {self.bound_kind} bound: write the reversed range's bounds "
            f"(range(stop - 1, start - 1, -1) for a step of 1). {self.values_hint}"))

    def __getitem__(self, index):
        raise StagingError(at_user_line(
            f"an item of a range() with a {self.bound_kind} bound: compute it from the bounds (start + i * step)."))

    def __contains__(self, value):
        raise StagingError(at_user_line(
            f"`in` a range() with a {self.bound_kind} bound: compare with its bounds (start <= x < stop)."))

    def __bool__(self):
        raise StagingError(at_user_line(
            f"the truth of a range() with a {self.bound_kind} bound: compare its bounds (start < stop)."))


# --- enumerate and zip over staged tensors --------------------------------------------------------------

class StagedRows:
    """What a backend's `enumerate` and `zip` hooks give for staged tensors, and its `for_loop` iterates:
    `tensors`, walked together along their first axis, and `item(i, rows)`, the loop's item from their rows
    at index `i`. A framework subclasses `StagedEnumerate` and `StagedZip` with `rows(value, what)`: `value` as
    a tensor of rows (a StagingError naming `what` for one that has none) and `length(rows)`: a Python int
    when tracing knows it."""

    tensors: tuple

    @staticmethod
    def rows(value, what: str):
        raise NotImplementedError

    @staticmethod
    def length(rows):
        raise NotImplementedError


class StagedEnumerate(StagedRows):
    """`enumerate(tensor, start)`, or `enumerate(zip(...))`: items `(i + start, row)`."""

    def __init__(self, iterable, start=0):
        self.zipped = isinstance(iterable, StagedZip)
        self.tensors = iterable.tensors if self.zipped else (self.rows(iterable, "enumerate"),)
        self.start = start

    def item(self, i, rows):
        return i + self.start, tuple(rows) if self.zipped else rows[0]


class StagedZip(StagedRows):
    """`zip(a, b, ...)` with a staged tensor among them: tuples of rows, stopping at the shortest. With
    `strict=True`, lengths that tracing knows are checked, as Python checks them; others are refused."""

    def __init__(self, *iterables, strict: bool = False):
        self.tensors = tuple(self.rows(x, "zip") for x in iterables)
        if strict:
            lengths = [self.length(t) for t in self.tensors]
            if not all(isinstance(n, int) for n in lengths):
                raise StagingError(at_user_line(
                    "zip(..., strict=True) over tensors whose lengths are known only when the graph runs: drop "
                    "strict=True, or check the lengths with an assertion first."))
            for k, n in enumerate(lengths[1:], 2):
                if n != lengths[0]:
                    raise ValueError(f"zip() argument {k} is {'shorter' if n < lengths[0] else 'longer'} than "
                                     "argument 1")

    def item(self, i, rows):
        return tuple(rows)


def rows_and_item(iterable, rows: Callable) -> tuple:
    """The tensors a `for` over `iterable` walks together, and how to make its item from their rows at `i`."""
    if isinstance(iterable, StagedRows):
        return iterable.tensors, iterable.item
    return (rows(iterable, "iteration"),), lambda i, found: found[0]

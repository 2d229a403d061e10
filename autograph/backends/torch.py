"""PyTorch as an autograph backend: Python `if`/`while`/`for` under `torch.export` and `torch.compile`.

Imported lazily: `import autograph` never imports torch. The first converted
call made after the program imported `torch` (or the first lookup of a torch
type in `autograph.backends.backend_for`) imports this module, which
registers the backend. Use it as

    class Model(torch.nn.Module):
        @ag.convert
        def forward(self, x):
            if x.sum() > 0:          # torch.cond while exporting
                return x * 2
            return x - 1

    ep = torch.export.export(Model(), (torch.randn(3),))

Tensors are staged only while PyTorch traces (`torch.compiler.is_compiling()`:
`torch.export`, dynamo) or when they are fake or functional tensors. Eager
tensors keep Python semantics: the converted function runs the original code,
and `if x.sum() > 0:` calls `bool()` on a real tensor.

| Python, while tracing | PyTorch |
|---|---|
| `if`, `x if c else y` | `torch.cond` |
| `while` | `torch._higher_order_ops.while_loop` (an error names the construct if torch lacks it) |
| `for i in range(n)` (tensor `n`) | `while_loop` over a 0-d int64 `i`; `xs[i]` indexes with it (torch_index.py) |
| `for row in tensor` | `while_loop` over the row index, rows read with `index_select` |
| `enumerate(tensor)`, `zip(a, b)` | the same loop, with (index, row) or a tuple of rows (zip stops at the shortest) |
| a `for` that appends to a list | unrolled, when the first dimension is static and there is no `break`/`return` |
| `and`, `or`, `not` | `torch.cond` on the left operand (lazy), `torch.logical_not` |
| `print` | the `print` higher-order op (runs with the exported program), else a trace-time print and a warning |
| `assert c, msg` | `torch._assert_async(c, msg)` |

The `if` is torch_cond.py. Branches and loop bodies change copies of the
tensors they would change in place (torch_capture.py); `torch.compile` hands
converted functions to AOTAutograd untraced by dynamo (torch_compile.py).
"""
from __future__ import annotations

import builtins
import functools
import warnings
from typing import Callable, Optional

import torch
from torch.utils import _pytree as pytree

from autograph import backends
from autograph.backends import torch_aliasing as aliasing
from autograph.backends import torch_capture as capture
from autograph.backends import iteration, primitives, staging, torch_compile
from autograph.backends import torch_state as ts
from autograph.backends.torch_cond import cond, fresh, predicate, unaliased, unique, write_back
from autograph.backends.torch_cond import cond_op as _cond_op
from autograph.backends.torch_state import RULES
from autograph.errors import StagingError, at_user_line

__all__ = ["BACKEND", "TorchRange", "TorchEnumerate", "TorchZip"]

try:
    from torch._subclasses.fake_tensor import FakeTensor
    from torch._subclasses.functional_tensor import FunctionalTensor
    _SYMBOLIC: tuple = (FakeTensor, FunctionalTensor)
except ImportError:                                   # pragma: no cover - an older torch
    _SYMBOLIC = ()


try:
    from torch._higher_order_ops.while_loop import while_loop_op as _while_op
except ImportError:                                   # pragma: no cover - torch without while_loop
    _while_op = None


try:
    from torch._higher_order_ops.print import print as _torch_print
except ImportError:                                   # pragma: no cover - torch without the print op
    _torch_print = None

_is_compiling: Callable[[], bool] = torch.compiler.is_compiling

try:   # torch's error for Python meeting a traced value (`if v > 0` in a comprehension, `bool(x)`)
    from torch.fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode as _DataDependent
    _GRAPH_ERRORS: tuple = (_DataDependent,)
except ImportError:                                   # pragma: no cover - an older torch
    _GRAPH_ERRORS = ()


def _is_staged(value) -> bool:
    """A tensor while PyTorch traces, a fake/functional tensor, or one of our staged records."""
    if isinstance(value, torch.Tensor):
        return _is_compiling() or isinstance(value, _SYMBOLIC)
    return True


# --- while -----------------------------------------------------------------------------------------

def _while_loop(test, body, state, opts):
    """`while` on a staged condition: PyTorch's `while_loop` over the flattened state."""
    names = state.names
    state = state.with_placeholders(lambda s: body(*_numbers_lifted(s))).values
    try:
        return _staged_loop(test, body, state, names, opts, "`while` loop")
    except ts.ListResized as resized:
        raise resized.cannot_unroll("a `while` loop's number of iterations depends on data",
                                    "Loop with `for` over a tensor instead") from None


def _numbers_lifted(state) -> tuple:
    """The state as the staged loop carries it: Python numbers as tensors. A probe of the body on the
    numbers themselves would take Python's path through an `if` on them (`if s > 4` with `s = 0.0`),
    and miss the `return` that the staged loop can reach."""
    return tuple(ts.lift(v, None) if staging.is_dynamic(RULES, v) else v for v in state)


def _staged_loop(test: Callable, body: Callable, state: tuple, names: tuple, opts: dict, construct: str) -> tuple:
    """`while test(*state): state = body(*state)` as one while_loop (staging.loop drives it). The test and body
    run once first, to find the tensors they read, and the loop variables they change in place (`steps += 1`):
    the body changes copies, and a tensor that came from outside the loop gets the final value back
    afterwards."""
    leaves, layout = staging.flatten(RULES, state, names)
    construct = f"this {construct}"
    limit = (opts or {}).get("maximum_iterations")
    in_place: list = []
    dynamic = [i for i, v in enumerate(leaves) if staging.is_dynamic(RULES, v)]   # the leaves carried
    numbers: list = []          # which carried values stand for Python numbers, in and out of the body
    kept: list = []             # which carried tensors from outside the body replaces: Python's result, after no
    iterations: list = []       # iteration, is that tensor itself (capture.note_kept); and the count of them
    partly: dict = {}           # carried values standing for numbers on some paths only: j -> (where, after the
                                # body: `_partly_after_body`)
    rebound: list = []          # which of those the body changes in place where they are tensors (`n += 1`)

    def run(carried, unpack, pack, shapes):
        def step(carry):
            new = tuple(body(*unpack(carry)))
            after, after_layout = staging.flatten(RULES, new, names)
            ts.check_resized(after_layout, layout, construct)
            packed = pack(new)
            for j, i in enumerate(dynamic):       # `n = 5` in the body: a number, lifted
                if not isinstance(after[i], torch.Tensor) and capture.is_number(after[i]):
                    capture.note_number(packed[j])
            return packed
        numbers[:] = [j for j, i in enumerate(dynamic) if capture.is_number(leaves[i])]
        for j in numbers:
            capture.note_number(carried[j])
        partly.clear()
        partly.update((j, capture.partly_of(leaves[i])) for j, i in enumerate(dynamic)
                      if capture.partly_of(leaves[i]) is not None)
        free, in_place[:], extra, numbers[:] = _discover(test, step, unpack, carried, leaves, layout, construct,
                                                         numbers, partly, rebound)
        k = len(extra)               # tensors the body changes in place without assigning them, carried last
        kept[:] = [j for j, i in enumerate(dynamic) if isinstance(leaves[i], torch.Tensor) and i not in in_place
                   and not capture.is_number(leaves[i])]
        counted = limit is not None or bool(kept and capture.notes_kept())

        def note_numbers(carry):
            for j in numbers:
                capture.note_number(carry[counted + j])
            for j, (where, _) in partly.items():
                capture.note_partly_number(carry[counted + j], where)

        # A loop variable changed in place (`y += 1`) is the same tensor on every iteration, which another name
        # for it (`z = y` before the loop, or a view `z = y[0]`) sees as it is now: so is `y`'s own tensor there
        same = [(leaves[i], counted + j) for j, i in enumerate(dynamic) if i in in_place]

        def carrying_extra(fn):
            def run(*carry):
                with capture.Substitute([*extra, *(t for t, _ in same)],
                                        [*carry[len(carry) - k:], *(carry[n] for _, n in same)]):
                    return fn(*carry[:len(carry) - k])
            return run if k or same else fn

        def cond_fn(*carry):
            note_numbers(carry)
            ok = predicate(test(*unpack(carry[counted:])), construct)
            # (a copy: `while go:` on a carried bool would give the loop's own input, which AOTAutograd refuses)
            return torch.logical_and(ok, carry[0] < limit) if limit is not None else fresh(ok)

        def body_fn(*carry):
            note_numbers(carry)
            new = step(carry[counted:])
            changed = tuple(fresh(t) for t in extra)          # each `t` as this iteration left it
            return (*((carry[0] + 1,) if counted else ()), *(fresh(v) for v in new), *changed)

        initial = (*((torch.tensor(0),) if counted else ()), *map(capture.resolve, [*carried, *extra]))   # resolved:
        operands = unaliased([*initial, *(capture.resolve(t) for t in free)])   # `operands` then sees one tensor twice
        out = tuple(_while_op(capture.substituted(carrying_extra(cond_fn), free),
                              capture.substituted(carrying_extra(body_fn), free),
                              operands[:len(initial)], operands[len(initial):]))
        write_back(extra, out[len(out) - k:])
        iterations[:] = out[:counted]
        return out[counted:len(out) - k]

    # the body runs once, untraced, on the numbers themselves, as Python would run it: on a lifted int64 tensor,
    # `total += x` would be an in-place add that torch refuses before the loop's own check could widen the dtype
    copies = tuple(type(v)(v) if v.__class__ in (list, dict) else v for v in state)   # the body may append
    plan = staging.typed_numbers(RULES, leaves, layout, lambda values: capture.untraced(lambda: body(*values)),
                                 copies, _widened, steps=1)
    final = list(staging.flatten(RULES, staging.loop(RULES, state, names, run, construct, plan), names)[0])
    for i in in_place:                                  # `x += 1` in the body: `x` keeps its identity
        write_back([leaves[i]], [final[i]])
        final[i] = leaves[i]
    for j in numbers:
        capture.note_number(final[dynamic[j]])
    for j, (where, after) in partly.items():
        capture.note_partly_number(final[dynamic[j]], _partly_after_loop(where, after, iterations))
    for j in rebound:
        capture.rebound_by_loop(leaves[dynamic[j]], final[dynamic[j]], partly[j][0])
    for j in kept if iterations else ():
        if final[dynamic[j]] is not leaves[dynamic[j]]:
            capture.note_kept(final[dynamic[j]], leaves[dynamic[j]], iterations[0] == 0)
    return staging.unflatten(RULES, final, layout)


def _widened(number, planned, new) -> Optional[torch.dtype]:
    """The dtype a Python number of a loop's state is carried in once the body made it `new` (staging.typed_numbers):
    `total = 0` before a loop that adds a float tensor (or an int8 one) to it is carried as that float (that
    int8): a tensor's dtype when it is wider, or narrower as Python's number makes it (0 + an int8 is an int8)."""
    if isinstance(new, torch.Tensor) and (torch.promote_types(planned, new.dtype) == new.dtype
                                          or RULES.takes(number, new.dtype)):
        return new.dtype
    return None


def _discover(test, step, unpack, carried, leaves, layout, construct, numbers: list, partly: dict,
              rebound: list) -> tuple:
    """Run the test and one body step on the initial carried tensors: the tensors they read from outside (not
    counting those), the indices of the leaves from outside the loop (not lifted numbers) that the body changes
    in place, the tensors from outside that it changes in place without assigning them (`out[i] = v`), and
    those of the carried values standing for Python numbers, `numbers`, that the body keeps numbers. `partly`
    (j -> where) gets what the body makes of those standing for numbers on some paths only, and `rebound`
    which of those it changes in place where they are tensors (`n += 1`), and gives as they are there."""
    def once_on(carried):
        predicate(test(*unpack(carried)), construct)
        return step(carried)
    run = capture.record(lambda: once_on(carried), inputs=carried)
    numbers = [j for j in numbers if capture.is_number(run.out[j])]
    dynamic = [i for i, v in enumerate(leaves) if staging.is_dynamic(RULES, v)]
    for j, where in partly.items():
        partly[j] = (where, _partly_after_body(run, run.out[j], where, layout.leaf_names[dynamic[j]], construct))
    in_place, extra = [], []
    rebound[:] = [j for j in partly if partly[j][1] == "same" and capture.rebound_from(run, run.out[j]) is carried[j]
                  and any(t is carried[j] for t, _, _ in run.changed)]
    _check_unshared(run, once_on, carried, [layout.leaf_names[i] for i in dynamic], construct)
    for t, _, op in run.changed:
        j = next((j for j, c in enumerate(carried) if c is t), None)
        if j is None:                        # `out[i] = v` on a tensor the loop does not assign: carry it too
            extra.append(t)
            continue
        i = dynamic[j]
        if j in rebound:
            continue
        if run.out[j] is not t:
            where = (" where it is a tensor (a staged `if` before the loop gave it a Python number in one branch "
                     "only, which `+=` rebinds)" if capture.partly_of(t) is not None else "")
            raise StagingError(at_user_line(
                f"'{layout.leaf_names[i]}' is changed in place (`{op}`){where} and then reassigned in {construct}; "
                "PyTorch's while_loop can't change its inputs. Write the update as an assignment "
                f"(`{layout.leaf_names[i]} = {layout.leaf_names[i]} + ...`)."))
        if isinstance(leaves[i], torch.Tensor):
            in_place.append(i)
    # A loop variable that starts as a tensor from outside (`v = a`) is that tensor in the first run, so the
    # run can't tell `a` read through the closure from `v`: each such tensor is passed as a free one too
    user = [c for j, c in enumerate(carried) if c is leaves[dynamic[j]]]
    free = unique([t for t in [*run.free, *user] if not any(t is e for e in extra)])
    return free, in_place, extra, numbers


def _check_unshared(run, once_on: Callable, carried: list, names: list, construct: str) -> None:
    """A tensor the body changes in place may be two of the loop's variables (`z = y` before the loop, then
    `y += 1` in a body that also assigns `z`), or one and a view of it: the loop carries each as a tensor of its
    own, where Python's other name sees the change. Refused where the body uses the other name as it was after
    the change (reads it, or gives it on some path): the body runs once more, on each such name as a view
    (`capture.Run.read_after_change` notes the views read after their base changed)."""
    tensors = [c if isinstance(c, torch.Tensor) else None for c in carried]
    for t, _, op in run.changed:
        first = next((j for j, c in enumerate(tensors) if c is t), None)
        others = [j for j, c in enumerate(tensors) if c is not None and j != first and _shares(c, t)]
        if not others:
            continue
        views: dict = {}

        def run_on_views():
            views.update((j, carried[j].view_as(t) if carried[j] is t else carried[j]) for j in others)
            return once_on([views.get(j, c) for j, c in enumerate(carried)])
        again = capture.record(run_on_views, inputs=carried)
        out = [o for o in pytree.tree_leaves(again.out) if isinstance(o, torch.Tensor)]
        for j, v in views.items():
            if id(v) in again.read_after_change or any(o is v or capture.kept_paths(again.kept, o, v) for o in out):
                raise StagingError(at_user_line(
                    f"'{names[j]}' is the same tensor as another variable of {construct} (or a view of it) when the "
                    f"loop starts, and the body changes that tensor in place (`{op}`) and then uses '{names[j]}' as "
                    f"it was; the loop carries '{names[j]}' as a tensor of its own, so it would not see the change "
                    f"Python makes to both. Copy it before the loop (`{names[j]} = {names[j]}.clone()`), or write "
                    "the update as an assignment (`y = y + ...`)."))


def _shares(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Are `a` and `b` one tensor, or views of one?"""
    base_a, base_b = capture.base_of(a), capture.base_of(b)
    return a is b or base_a is b or base_b is a or (base_a is not None and base_a is base_b)


def _partly_after_body(run, value, where: tuple, name: str, construct: str) -> str:
    """What a loop body gives, as `value`, for a loop variable that stands for a Python number where all of
    `where` hold: "same" (so does `value`: `n = n + 1`), "number" (`n = 5`) or "tensor" (`n = n + x`)."""
    if capture.is_number(value):
        return "number"
    after = capture.partly_in(run, value)
    if after is None:
        return "tensor"
    if len(after) == len(where) and all(a is b for a, b in zip(after, where)):
        return "same"
    raise StagingError(at_user_line(
        f"'{name}' is a Python number on some paths only before {construct} (a staged `if` gave it a number in "
        "one branch only), and the loop body makes it one on other paths; the torch backend can't carry that. "
        f"Make it a tensor before the loop (`{name} = torch.as_tensor({name})`)."))


def _partly_after_loop(where: tuple, after: str, iterations: list):
    """Where a loop variable that stands for a Python number where all of `where` hold before the loop, and
    that the body makes `after` (see `_partly_after_body`), stands for one after the loop."""
    if after == "same":
        return where
    ran = iterations[0] > 0
    return ran | capture.all_of(where) if after == "number" else torch.logical_not(ran) & capture.all_of(where)


# --- for -------------------------------------------------------------------------------------------

class TorchRange(iteration.StagedRange):
    """`range(start, stop, step)` with a tensor bound, iterated by the backend's `for_loop`."""

    bound_kind = "tensor"
    cast_hint = "Cast it with int(...) or .to(torch.int64)."
    values_hint = "Use torch.arange(...) to get a tensor of its values."

    def non_integer(self, bound):
        if isinstance(bound, torch.Tensor) and (bound.is_floating_point() or bound.dtype == torch.bool):
            return f"{bound.dtype} tensor"
        return None

    def check_step(self, step) -> None:
        """A tensor step of 0 fails when the program runs (RuntimeError), where the loop would run 0 times."""
        message = at_user_line("range() arg 3 must not be zero").splitlines()[0]   # one line: inductor's C++ takes it
        torch._assert_async(step != 0, message)


def _for_loop(iterable, body, state, extra_test, opts):
    """`for` over a staged range or tensor: a while_loop over an int64 index carried in front of the state.
    When the body changes the length of a list in the state, the loop runs unrolled if it can."""
    names, loop_state, state = ("index_", *state.names), state, state.values
    walk = iteration.index_walk(iterable, PRIMITIVES, _as_rows)
    # The staged loop lifts a Python int start to a tensor only after running the body once, so an unrolled
    # loop leaves no trace of it in the graph.
    first = walk.start if walk.start.__class__ is int else ts.lift(walk.start, torch.int64).to(torch.int64)
    # a `return` inside the loop: learn the value's type
    state = loop_state.with_placeholders(
        lambda s: body(walk.item(ts.lift(first, torch.int64)), *_numbers_lifted(s))).values
    try:
        out = _staged_loop(iteration.index_test(walk, extra_test, PRIMITIVES), iteration.index_body(walk, body),
                           (first, *state), names, opts, "`for` loop")
    except ts.ListResized as resized:
        why = _why_not_unrolled(iterable, extra_test, opts or {})
        if why:
            raise resized.cannot_unroll(*why) from None
        # as torch.export traces a `for` over a tensor in unconverted code
        return iteration.unrolled(iterable, body, state, (opts or {}).get("maximum_iterations"))
    return out[1:]


def _why_not_unrolled(iterable, extra_test, opts: dict) -> Optional[tuple]:
    """Why a loop can't run unrolled, and what to do instead; None when it can."""
    if isinstance(iterable, TorchRange):
        return ("it loops over a `range` with a tensor bound, whose length is known only at run time",
                "Give the range Python int bounds (such as x.shape[0] of a static dimension)")
    if extra_test is not None:
        return ("a `break` or `return` inside it may end it early, depending on data",
                "Move the `break` or `return` out of the loop (append every row and select after the loop)")
    n = iteration.index_walk(iterable, PRIMITIVES, _as_rows).length
    if not isinstance(n, int):
        return (f"the first dimension of the tensor it loops over is dynamic ({n}), so its number of iterations "
                "is known only at run time", "Export with that dimension static (leave it out of dynamic_shapes)")
    if not isinstance(opts.get("maximum_iterations", 0), int):
        return ("set_loop_options gives it a tensor maximum_iterations", "Give maximum_iterations as a Python int")
    return None


def _as_rows(value, what: str) -> torch.Tensor:
    if not isinstance(value, torch.Tensor) or value.dim() == 0:
        raise StagingError(at_user_line(
            f"{what}() over a traced tensor needs every argument to be a tensor of at least one dimension; got "
            f"{type(value).__name__}. Convert it with torch.as_tensor(...)."))
    return value


class TorchEnumerate(iteration.StagedEnumerate):
    """`enumerate(tensor, start)` on a staged tensor: (index, row) pairs for the backend's `for_loop`."""

    rows = staticmethod(_as_rows)


class TorchZip(iteration.StagedZip):
    """`zip(*tensors)` with a staged tensor: tuples of rows, stopping at the shortest, like `zip`."""

    rows = staticmethod(_as_rows)


def _row(rows: torch.Tensor, i) -> torch.Tensor:
    """`rows[i]` for a traced 0-d index, or a Python int index (the first run of the body, which learns the
    dtypes the loop's Python numbers take: staging.typed_numbers). In a staged loop's body it is torch_index's
    copy of the row, whose in-place change (`for v in y: v += 1`) is written back into `rows`, as Python's row,
    a view of `rows`, changes it."""
    if isinstance(i, int) and not capture.tracking():
        return rows[i]
    return rows[torch.as_tensor(i)]


def _len(value):
    if isinstance(value, TorchRange):
        raise StagingError(at_user_line("len() of a range with a tensor bound: compute it from the bounds."))
    return iteration.staged_len(value, PRIMITIVES, _tensor_len)


def _tensor_len(value):
    if value.dim() == 0:
        raise TypeError("len() of a 0-d tensor")
    return value.shape[0]


# --- logical ops, print, assert -------------------------------------------------------------------

_warned_print: set = set()


def _print(*args, sep=" ", end="\n", file=None, flush=False):
    """`print` with a staged tensor: PyTorch's print op, which runs every time the program runs."""
    text, tensors = primitives.print_format(args, sep, lambda arg: isinstance(arg, torch.Tensor))
    if _torch_print is None or file is not None or not tensors:
        where = at_user_line("")
        if where not in _warned_print:
            _warned_print.add(where)
            what = ("print() of Python values in a staged branch or loop body runs only while PyTorch traces, "
                    "in every branch" if not tensors else "print() of a traced tensor runs only while PyTorch "
                    f"traces{' (print to a file)' if file is not None else ''}")
            warnings.warn(f"{where}: {what}; the exported program will not print.", RuntimeWarning, stacklevel=3)
        return builtins.print(*args, sep=sep, end=end, file=file, flush=flush)
    if end not in (None, "\n"):
        text += primitives.escape(end).removesuffix("\n")
    _torch_print(text, *tensors)


def _assert(condition, message_fn):
    """`assert` on a staged tensor: `torch._assert_async`, which raises RuntimeError(msg) when it runs."""
    message = "assertion failed" if message_fn is None else str(message_fn())
    torch._assert_async(predicate(condition, "this `assert`"), message)


def _zeros(value: torch.Tensor) -> torch.Tensor:
    """A placeholder for a tensor undefined on some path (a `return` inside a staged loop;
    primitives.zeros_like). `value` may come from a branch's untraced run or a probe: reading its shape inside a
    branch being recorded would make it an operand, a constant the graph can't hold (so the mode must not see
    it)."""
    with torch._C.DisableTorchFunction():
        shape, dtype, device = value.shape, value.dtype, value.device
    return torch.zeros(shape, dtype=dtype, device=device)   # not zeros_like(value), which would read it


def _and_then(ok, rest) -> torch.Tensor:
    return torch.logical_and(predicate(ok, "this `for` loop"), predicate(rest(), "this `for` loop"))


PRIMITIVES = primitives.Primitives(
    cond=cond, where=torch.where, index=lambda b: b, length=iteration.first_dimension, row=_row, and_then=_and_then,
    minimum=lambda a, b: builtins.min(a, b))   # looked up when called: torch.export's is torch.sym_min


BACKEND = backends.register_backend(backends.Backend(
    name="torch",
    staged_types=(torch.Tensor, TorchRange, TorchEnumerate, TorchZip),
    is_staged=_is_staged,
    modules=("torch",),
    is_staging=_is_compiling,
    graph_errors=_GRAPH_ERRORS,     # they pass a converted function's `except` clauses (converters/exceptions.py)
    cond=cond if _cond_op is not None else None,
    while_loop=_while_loop if _while_op is not None else None,
    for_loop=_for_loop if _while_op is not None else None,
    range=TorchRange,
    len=_len,
    enumerate=TorchEnumerate,
    zip=TorchZip,
    int=lambda x: x.to(torch.int64),
    float=lambda x: x.to(torch.get_default_dtype()),
    logical_and=functools.partial(primitives.logical_and, PRIMITIVES) if _cond_op is not None else None,
    logical_or=functools.partial(primitives.logical_or, PRIMITIVES) if _cond_op is not None else None,
    logical_not=lambda x: torch.logical_not(predicate(x, "`not`")),
    print=_print,
    assert_=_assert,
    probe=capture.untraced,
    zeros_like=lambda value: primitives.zeros_like(value, lambda v: isinstance(v, torch.Tensor), _zeros),
    mark_converted=torch_compile.mark_converted,
    python_type=aliasing.python_type,
))
torch_compile.watch_for_dynamo()

"""Python numbers a staged loop carries, typed before the loop is traced (the runtime backend's part of
`define_loop_state`, runtime/backend.py): each becomes a tensor of the dtype the loop gives it (weak types,
runtime/ops/weak.py), or stays marked a Python int or number (runtime/ops/python_ints.py).
"""
from __future__ import annotations

from autograph.errors import StagingError, at_user_line

from runtime import control_flow, dtypes, errors
from runtime.graph import FuncGraph, building
from runtime.ops import array_ops, dtype_origins, python_ints, registry
from runtime.ops.weak import WeakProbe, accepts as weak_accepts
from runtime.tensor import Tensor, constant, short_repr


def probe(fn):
    """Run `fn` while tracing into a throwaway graph: its ops are never kept or run."""
    scratch = FuncGraph("autograph_probe", outer_graph=registry.context.graph)
    with building(scratch):
        return fn()


def as_placeholders(state: tuple) -> tuple:
    """The loop state as the staged loop's body sees it, in a probe: tensors and Python bools become
    placeholders of their dtype and shape, so that an `if` on them inside the body is staged in the probe too
    (on a Python int, or a constant tensor, whose value the `if` would know, it would take one branch only and
    miss a `return` in the other)."""
    graph = registry.context.graph
    return tuple(graph.placeholder(v.dtype, v.shape, "probed") if isinstance(v, Tensor)
                 else graph.placeholder(dtypes.bool, (), "probed") if v.__class__ is bool else v
                 for v in state)


def typed_numbers(step, test, state: tuple, names: tuple) -> tuple:
    """The state with each Python number (not bool) a tensor of the dtype the loop gives it (weak types,
    runtime/ops/weak.py): the dtype of the first tensor the test or body combines it with, else the dtype
    the body assigns it, else int32 for an int (the dtype `runtime.constant` gives it) and float64 for a float.
    An int the loop keeps a Python int (nothing types it) is marked as one (runtime/ops/python_ints.py): its
    arithmetic raises where int32 would wrap around; a float it keeps a Python float (or an int that meets only
    Python floats) is a float64, Python's double, so its arithmetic and text are Python's. A number inside a tuple or dict the loop carries
    (`t = (t[0] * 3, t[1])`) is typed the same way, as `t[0]`."""
    numbers = [key for i, v in enumerate(state) for key in _number_keys(v, i)]
    if not numbers:
        return state
    met: dict = {}   # key -> (dtype, 'file:line', met a Python number): decided; probed again until none meets one
    for _ in numbers:
        weak, out = _probe_numbers(step, test, state, names, numbers, met)
        found = {k: weak.chosen(k) for k in numbers if k not in met and weak.chosen(k) is not None}
        met.update(found)
        if not found or out is None:
            break
    typed = list(state)
    for key in numbers:
        value, name = _at(state, key), _key_name(names, key)
        dtype = met[key][0] if key in met else _weak_dtype(weak, key, value, out)
        kind = _python_kind(key, value, dtype, met, out)
        if kind is not None and dtype.is_floating and (key in met or out is not None and _stays_python_int(key, out)):
            dtype = dtypes.float64   # a Python float (not a float tensor's; the probe says so) is a double
        number = _number_tensor(value, dtype, name, met.get(key))
        if kind is not None:
            number = _python_int(number, name, kind)
        dtype_origins.record(registry.context.graph, number, name, _number_origin(value, dtype, met.get(key)))
        typed = _with(typed, key, number)
    return tuple(typed)


# A number of the loop state is found by a key: its variable's index `i`, or (i, path) for one inside a tuple
# or dict the variable holds, `path` the keys from the variable to it.

def _number_keys(value, i: int, path: tuple = ()) -> list:
    if value.__class__ in (int, float):
        return [(i, path) if path else i]
    if value.__class__ is tuple:
        return [k for j, v in enumerate(value) for k in _number_keys(v, i, (*path, j))]
    if value.__class__ is dict:
        return [k for j, v in value.items() for k in _number_keys(v, i, (*path, j))]
    return []


def _at(state, key):
    """The value at `key` of `state`; None where `state` (a body's result) has another structure."""
    i, path = (key, ()) if key.__class__ is int else key
    value = state[i] if i < len(state) else None
    for step in path:
        if value.__class__ is tuple and step.__class__ is int and step < len(value):
            value = value[step]
        elif value.__class__ is dict and step in value:
            value = value[step]
        else:
            return None
    return value


def _with(state: list, key, number) -> list:
    """`state` with the value at `key` replaced by `number` (tuples and dicts on the way copied)."""
    i, path = (key, ()) if key.__class__ is int else key
    state = list(state)
    state[i] = _replaced(state[i], path, number)
    return state


def _replaced(value, path: tuple, number):
    if not path:
        return number
    step, rest = path[0], path[1:]
    if value.__class__ is tuple:
        return tuple(_replaced(v, rest, number) if j == step else v for j, v in enumerate(value))
    return {k: _replaced(v, rest, number) if k == step else v for k, v in value.items()}


def _key_name(names: tuple, key) -> str:
    if key.__class__ is int:
        return _name(names, key)
    i, path = key
    return _name(names, i) + "".join(f"[{step!r}]" for step in path)


def _number_origin(value, dtype, met) -> str:
    """Why the Python number `value`, a loop variable, became a `dtype` tensor (for dtype errors)."""
    where = errors.user_location()
    why = (f"meets a {dtype.name} tensor at {met[1]}" if met else
           f"the loop carries as {dtype.name} (as runtime.constant({short_repr(value)}) is)")
    return f"it is the Python {type(value).__name__} {short_repr(value)} before the loop at {where}, which {why}"


_PYTHON_DTYPES = {int: dtypes.int32, float: dtypes.float32}   # a Python number the loop keeps one, carried as


def _stays_python_int(key, out) -> bool:
    """Whether the body keeps the number at `key` (first a Python int, or float) one: the probe (where it is one)
    says the body computes it from Python numbers and constants only, or the probe failed."""
    after = None if out is None else _at(out, key)
    return out is None or not isinstance(after, Tensor) or python_ints.name_of(after) is not None


def _python_kind(key, value, dtype, met: dict, out):
    """The kind (python_ints.mark's) of the number at `key` if the loop keeps it a Python number, else None: "" for
    an int (float) the body computes from Python numbers only; INT_OR_FLOAT for an int that meets Python floats
    only (`s = s + 0.5`, not a float tensor), an int where the loop does not run, whose text is not the float's."""
    if dtype is _PYTHON_DTYPES.get(value.__class__) and _stays_python_int(key, out):
        return ""
    if value.__class__ is int and dtype.is_floating and (key not in met or met[key][2]):
        return python_ints.INT_OR_FLOAT
    return None


def _python_int(value, name: str, kind: str = ""):
    """`value` (an int32 or float32 constant) as a tensor of the graph being built, marked as the Python int
    (float) `name`."""
    t = array_ops.identity(value)   # not the graph's shared Const for that number: only this value is marked
    python_ints.mark(registry.context.graph, t, name, kind)
    return t


def _probe_numbers(step, test, state, names, numbers, met):
    """Trace the loop's test and body once, in a probe, with the numbers not in `met` as weak placeholders
    (those in `met` of their dtype): the `WeakProbe` and the body's result (None if tracing failed)."""
    weak = WeakProbe()

    def run():
        graph = registry.context.graph
        values = [type(v)(v) if v.__class__ in (list, dict) else v    # a copy: the body may append to it
                  for v in as_placeholders(state)]
        for key in numbers:
            value, name = _at(state, key), _key_name(names, key)
            number = (graph.placeholder(met[key][0], (), "probed") if key in met
                      else weak.placeholder(graph, value, key, name))
            if value.__class__ in (int, float):   # a Python float: its division by zero raises
                python_ints.mark(graph, number, name)
            values = _with(values, key, number)
        previous, registry.context.weak = registry.context.weak, weak
        try:
            if test is not None:
                test(*values)
            return step(tuple(values))
        finally:
            registry.context.weak = previous
    try:
        return weak, _as_tuple(probe(run), len(state))
    except Exception:   # noqa: BLE001 - the loop's own trace reports it, at the user's line
        return weak, None   # (a loop nested in this one does not see its numbers as weak: int32, as before)


def _as_tuple(value, n: int) -> tuple:
    return value if value.__class__ is tuple and len(value) == n else (value,) if n == 1 else tuple(value or ())


def _name(names: tuple, i: int) -> str:
    return names[i] if i < len(names) else f"loop variable {i}"


def _weak_dtype(weak: WeakProbe, key, value, out: tuple):
    """What `typed_numbers` says the number at `key`, first the Python number `value`, becomes."""
    met = weak.chosen(key)
    if met is not None:
        return met[0]
    kind = value.__class__
    if out is None:   # the probe failed: a Python number's own dtype
        return dtypes.int32 if kind is int else dtypes.float32
    after = _at(out, key)
    if isinstance(after, Tensor) and weak.info(after) is None and weak_accepts(after.dtype, kind):
        return after.dtype
    return dtypes.int32 if kind is int else dtypes.float32


def _number_tensor(value, dtype, name: str, met):
    try:
        if not control_flow.number_kept(value, dtype):
            raise ValueError(value)
        return constant(value, dtype=dtype)
    except (TypeError, ValueError):
        why = f" (it meets a {dtype.name} tensor at {met[1]})" if met else ""
        wide = "runtime.float64" if value.__class__ is float else "runtime.int64"
        raise StagingError(at_user_line(
            f"'{name}' starts as the Python {type(value).__name__} {short_repr(value)} before this loop over tensors, "
            f"and the loop makes it {dtype.name}{why}, which can't hold that value. Start '{name}' as a tensor "
            f"of a dtype that can (e.g. runtime.constant({short_repr(value)}, {wide})), and runtime.cast "
            "what it is combined with.")) from None

"""Generate straight-line Python from a graph, once per concrete function.

The generated function takes the NumPy values of the graph's inputs and
returns the NumPy values of its outputs. Each live op becomes one line that
calls the op's kernel from the registry (or, for kernels that are NumPy's own
arithmetic and comparison ufuncs, the equivalent Python operator, which is
faster on NumPy scalars and means the same). `Cond` becomes an `if`/`else`
and `While` a Python `while` loop, with the branch and body graphs inlined.
A 0-d `ExactInt32` (a staged loop's Python int, runtime/ops/python_ints.py)
is Python int arithmetic and a range check written inline; its value stays a
Python int through loops and branches, and becomes a NumPy int32 where
anything else reads it.

    def power(x, y):
        i = c0
        r = c1
        while True:
            if not i < y:
                break
            r = MatMul(x, r)
            i = i + c2
        return (r,)

The source is registered in `linecache`, so tracebacks and debuggers show it.
"""
from __future__ import annotations

import builtins
import functools
import inspect
import itertools
import keyword
import linecache
import weakref
from dataclasses import dataclass, field
from typing import Callable, Optional

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError, OpError
from runtime.executor.passes import plan
from runtime.graph import FuncGraph, Graph, Operation, made_at
from runtime.ops import python_ints
from runtime.ops.logging_ops import is_raised_by_program

_OPERATOR_FORMS = {
    np.add: "{} + {}", np.subtract: "{} - {}", np.multiply: "{} * {}",
    np.less: "{} < {}", np.less_equal: "{} <= {}", np.greater: "{} > {}", np.greater_equal: "{} >= {}",
    np.equal: "{} == {}", np.not_equal: "{} != {}", np.negative: "-{}",
}
_COMPARISONS = frozenset({np.less, np.less_equal, np.greater, np.greater_equal, np.equal, np.not_equal})
_LITERALS = (bool, int, float, str, type(None))
# A Python int becomes a NumPy int32 as `int32_0 + i` where NumPy gives that int32 (NumPy 2, NEP 50: a Python
# int takes the NumPy operand's dtype): 0.07 us against 0.35-0.5 us for `np.int32(i)`. NumPy 1 gives int64.
_ZERO_PLUS_IS_INT32 = (np.int32(0) + 1).dtype == np.int32
# How an emitter asks to read a tensor (`expr(t, as_)`): as a NumPy value, as a Python int, or as it is held.
NUMPY, INT, HELD = "numpy", "int", "held"
_ids = itertools.count()


@dataclass
class Executable:
    """A compiled graph: `run(*input_values)` returns a tuple of output values."""

    run: Callable
    source: str
    filename: str
    ops_by_line: dict = field(default_factory=dict)  # line of `source` -> the Operation it runs
    scalar_inputs: bool = True   # `run` wants 0-d inputs as NumPy scalars (faster in its Python arithmetic)

    def explain(self, error: BaseException) -> Optional[InvalidArgumentError]:
        """An error naming the op whose kernel raised `error` while `run` ran, if one did (None for the
        program's own exception, which a `Raise` op raises as it is)."""
        if getattr(error, "raised_by_program", False) or is_raised_by_program(error):   # as it is (CheckDefined, Raise)
            return None
        line = _innermost_line(error.__traceback__, self.filename)
        op = self.ops_by_line.get(line)
        if op is None:
            return None
        code = self.source.splitlines()[line - 1].strip()
        inputs = ", ".join(f"{t.dtype.name}{t.shape}" for t in op.inputs) or "none"
        hint = _HINTS.get(op.type, "")
        if isinstance(error, OpError):
            return kernel_error_made_at(error, op)
        return InvalidArgumentError(
            f"{op.type}: {str(error).strip()} (op '{op.name}' in graph '{op.graph.name}'; inputs when traced: "
            f"{inputs}; generated line {line}: {code}){hint}{made_at(op)}", op.type)


def kernel_error_made_at(error: OpError, op: Operation) -> Optional[OpError]:
    """A kernel's own error (an assertion, a bad index) saying where its op was made, or None if that is unknown.
    Made here, in the executor's package, so that it does not also name the line that called the function
    (see `runtime.errors._user_line`); `jit_compile=True` raises its failed assertions through this too."""
    where = made_at(op)
    return type(error)(f"{error.message}{where}", error.op_name) if where else None


_HINTS = {
    "Cond": ". The predicate of a cond must be a scalar bool: reduce it with runtime.reduce_any or reduce_all.",
    "While": ". The condition of a while_loop must be a scalar bool: reduce it with runtime.reduce_any or "
             "reduce_all.",
}


def _innermost_line(tb, filename: str) -> Optional[int]:
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def compile_graph(graph: FuncGraph, outputs: list, name: str = "graph_fn") -> Executable:
    fn_name = _safe(name)
    gen = _Codegen(reserved=(fn_name,))   # a constant or input named like the function would be shadowed by it
    params = [gen.fresh(_safe(t.op.name)) for t in graph.inputs]
    names = {id(t): p for t, p in zip(graph.inputs, params)}
    body: list[str] = []
    results = gen.emit_graph(graph, outputs, names, body, 1)
    lines = [f"def {fn_name}({', '.join(params)}):", *body, f"    return ({''.join(r + ', ' for r in results)})"]
    source = "\n".join(lines) + "\n"
    filename = f"<runtime executor {fn_name} #{next(_ids)}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    # named for the warnings filter (runtime/__init__.py), and not as a module of the package: tracebacks keep it
    namespace = {**gen.namespace, "__name__": "<runtime executor>"}
    exec(compile(source, filename, "exec"), namespace)  # the only code we compile is our own
    ops_by_line = {index + 2: op for index, op in gen.line_ops.items()}  # body starts on line 2
    executable = Executable(namespace[fn_name], source, filename, ops_by_line)
    # its lines go with it (a function traced again on every call, reading a global a loop rebinds, kept them all)
    weakref.finalize(executable, linecache.cache.pop, filename, None)
    return executable


@functools.lru_cache(maxsize=4096)
def _safe(text: str) -> str:
    cleaned = "".join(c if c.isalnum() else "_" for c in text)
    return cleaned if cleaned and not cleaned[0].isdigit() else f"t_{cleaned}"


@functools.lru_cache(maxsize=1024)
def _kernel_defaults(kernel) -> dict:
    """The kernel's keyword defaults; attributes equal to them are left out of the call."""
    try:
        parameters = inspect.signature(kernel).parameters.values()
    except (TypeError, ValueError):
        return {}
    return {p.name: p.default for p in parameters if p.default is not p.empty}


def _is_default(defaults: dict, key: str, value) -> bool:
    default = defaults.get(key, _MISSING)
    return default is value or (type(default) is type(value) and isinstance(value, _LITERALS)
                                and repr(default) == repr(value))  # repr: -0.0 is not 0.0


_MISSING = object()


def _loop_var_name(op: Operation, i: int, placeholder) -> str:
    """The loop variable's own name (`i`, `total`) when tracing knew it, else `while_v0`, ..."""
    name = placeholder.op.name
    return f"{op.name}_v{i}" if name.startswith("loop_var") else name


def _constant_name(value) -> str:
    """`int32_1` for a NumPy scalar constant (so generated code reads like its value), else `c`."""
    if isinstance(value, np.generic) and value.dtype.kind in "biuf":
        text = str(value.item()).replace("-", "neg").replace(".", "_").replace("+", "")
        if text.replace("_", "").isalnum() and len(text) <= 12:
            return _safe(f"{value.dtype.name}_{text}")
    return "c"


@functools.lru_cache(maxsize=4096)
def _identifier(base: str) -> str:
    base = _safe(base).lower()
    return base + "_" if keyword.iskeyword(base) or hasattr(builtins, base) else base


class _Codegen:
    def __init__(self, reserved: tuple = ()):
        self.namespace: dict[str, object] = {}
        self._used: set[str] = set(reserved)
        self._bound: dict[int, str] = {}
        self._scalars: dict[tuple, str] = {}
        self._ints: set[str] = set()  # the names that hold Python ints (0-d int32 values) rather than NumPy values
        self.line_ops: dict[int, Operation] = {}  # index in the body's lines -> op

    def fresh(self, base: str) -> str:
        base = _identifier(base)
        name, n = base, 0
        while name in self._used or name in self.namespace:
            n += 1
            name = f"{base}_{n}"
        self._used.add(name)
        return name

    def bind(self, value, base: str) -> str:
        """A namespace name for a Python object the code refers to."""
        found = self._bound.get(id(value))
        if found is not None and self.namespace[found] is value:
            return found
        name = base
        n = 0
        while name in self.namespace or name in self._used:
            n += 1
            name = f"{base}_{n}"
        self.namespace[name] = value
        self._bound[id(value)] = name
        return name

    def constant(self, value) -> str:
        """A namespace name for a folded or traced constant; equal NumPy scalars share one."""
        if not isinstance(value, np.generic):
            return self.bind(value, "c")
        key = (value.dtype.str, value.tobytes())  # bytes: keeps -0.0 apart from 0.0
        found = self._scalars.get(key)
        if found is None:
            found = self._scalars[key] = self.bind(value, _constant_name(value))
        return found

    def literal(self, value) -> str:
        if isinstance(value, _LITERALS) and not (isinstance(value, float) and not np.isfinite(value)):
            return repr(value)
        if isinstance(value, tuple) and all(isinstance(v, _LITERALS) for v in value):
            return repr(value)
        if isinstance(value, dtypes.DType):
            return self.bind(value, value.name)
        name = getattr(value, "name", None)  # a Variable's storage: named after the variable
        if isinstance(name, str):
            return self.bind(value, "var_" + _identifier(name.partition(":")[0]))
        return self.bind(value, "attr")

    def convert(self, name: str, as_: str) -> str:
        """The code that reads `name` (a NumPy value, or a Python int if in `_ints`) as a NUMPY value, an INT, or
        as it is held (HELD)."""
        if as_ == HELD or (name in self._ints) == (as_ == INT):
            return name
        if as_ == INT:
            return f"int({name})"
        if _ZERO_PLUS_IS_INT32:   # in range: the value was checked
            return f"({self.constant(np.int32(0))} + {name})"
        return f"{self.bind(np.int32, 'np_int32')}({name})"

    def emit_graph(self, graph: Graph, outputs: list, names: dict, lines: list, depth: int,
                   outputs_as: Optional[list[str]] = None) -> list[str]:
        p = plan(graph, outputs)

        def expr(t, as_: str = NUMPY) -> str:
            t = p.alias.get(id(t), t)
            if as_ == INT and id(t) in p.constants:
                return str(int(p.constants[id(t)]))
            found = names.get(id(t))
            if found is None:
                if id(t) not in p.constants:
                    raise RuntimeError(f"executor: {t.name} is used but never computed")
                found = names[id(t)] = self.constant(p.constants[id(t)])
            return self.convert(found, as_)

        for op in p.ops:
            if op.type in ("Placeholder", "Const") and all(id(t) in names or id(t) in p.constants for t in op.outputs):
                continue
            buffer = p.reuse.get(id(op))
            if buffer is not None:
                self.emit_into(op, expr, names, lines, depth, expr(buffer))
                continue
            emit = _EMITTERS.get(op.type, _Codegen.emit_call)
            emit(self, op, expr, names, lines, depth)
        return [expr(t, as_) for t, as_ in zip(outputs, outputs_as or [NUMPY] * len(outputs))]

    def emit_call(self, op: Operation, expr, names: dict, lines: list, depth: int) -> None:
        args = self._arguments(op, expr)
        outs = [self.fresh(op.name) for _ in op.outputs] or ["_"]
        form = _OPERATOR_FORMS.get(op.opdef.kernel) if not op.attrs else None
        if form is not None:
            call = form.format(*args)
        else:
            kernel = self.bind(op.opdef.kernel, _safe(op.type))
            defaults = _kernel_defaults(op.opdef.kernel)
            kwargs = [f"{k}={self.literal(v)}" for k, v in op.attrs.items() if not _is_default(defaults, k, v)]
            call = f"{kernel}({', '.join(args + kwargs)})"
        target = outs[0] if not op.opdef.multi_output else ", ".join(outs) + ("," if len(outs) == 1 else "")
        self.line_ops[len(lines)] = op
        lines.append(f"{'    ' * depth}{target} = {call}")
        for t, o in zip(op.outputs, outs):
            names[id(t)] = o

    def emit_into(self, op: Operation, expr, names: dict, lines: list, depth: int, buffer: str) -> None:
        """A ufunc writing into `buffer`, an array of this call that nothing reads afterwards
        (passes.reusable_buffers): `t_2 = add(t_1, c, t_1)`."""
        ufunc = self.bind(op.opdef.kernel, op.opdef.kernel.__name__)
        out = self.fresh(op.name)
        self.line_ops[len(lines)] = op
        lines.append(f"{'    ' * depth}{out} = {ufunc}({', '.join([expr(t) for t in op.inputs] + [buffer])})")
        names[id(op.outputs[0])] = out

    def _arguments(self, op: Operation, expr) -> list[str]:
        """The op's inputs as NumPy values; but a comparison of int32 values that has a NumPy operand takes the
        others as they are held (a Python int in int32's range compares with it as a NumPy int32 would)."""
        held = [expr(t, HELD) for t in op.inputs]
        if (op.opdef.kernel in _COMPARISONS and not op.attrs and any(h not in self._ints for h in held)
                and all(t.dtype is dtypes.int32 for t in op.inputs)):
            return held
        return [expr(t) for t in op.inputs]

    def emit_exact_int32(self, op: Operation, expr, names: dict, lines: list, depth: int) -> None:
        """A 0-d ExactInt32 as Python int arithmetic and a range check (no kernel call): the result is a Python
        int, converted where something else reads it (other shapes call the kernel)."""
        if op.outputs[0].shape.rank != 0 or op.outputs[0].dtype is not dtypes.int32:   # RealDiv: a float
            return self.emit_call(op, expr, names, lines, depth)
        pad = "    " * depth
        arithmetic, variable = op.attrs["arithmetic"], op.attrs["variable"]
        form = python_ints.PYTHON_INT_FORMS[arithmetic]
        args = [f"({a})" if a.startswith("-") else a for a in (expr(t, INT) for t in op.inputs)]  # `x - (-1)`
        if isinstance(form, str):
            call = form.format(*args)
        else:   # FloorDiv, Pow: a function that checks their domain too
            call = f"{self.bind(form, arithmetic.lower())}({', '.join(args)})"
        out = self.fresh(variable)
        low, high = python_ints.INT32_RANGE
        overflow = self.bind(python_ints.overflow, "overflow")
        self.line_ops[len(lines)] = op
        lines.append(f"{pad}{out} = {call}")
        lines.append(f"{pad}if not {low} <= {out} <= {high}:")
        self.line_ops[len(lines)] = op
        lines.append(f"{pad}    raise {overflow}({out}, {variable!r}, {op.attrs['where']!r})")
        self._ints.add(out)
        names[id(op.outputs[0])] = out

    def _carried_as(self, t, *edges) -> str:
        """INT if the graph marks `t` (a loop variable, a cond output) as a Python int and it and its `edges` (the
        tensors it comes from) are 0-d; else NUMPY."""
        marked = t.op.graph.python_ints.get(id(t)) is not None and t.dtype is dtypes.int32   # not a Python float
        return INT if marked and all(e.shape.rank == 0 for e in (t, *edges)) else NUMPY

    def _branch(self, graph: FuncGraph, input_exprs: list[str], lines: list, depth: int,
                outputs_as: Optional[list[str]] = None) -> list[str]:
        names = {id(ph): e for ph, e in zip(graph.inputs, input_exprs)}
        return self.emit_graph(graph, graph.outputs, names, lines, depth, outputs_as)

    def emit_cond(self, op: Operation, expr, names: dict, lines: list, depth: int) -> None:
        pad = "    " * depth
        outs = [self.fresh(op.name) for _ in op.outputs]
        outs_as = [self._carried_as(t, *(op.attrs[b].outputs[i] for b in ("then_graph", "else_graph")))
                   for i, t in enumerate(op.outputs)]
        self._ints.update(o for o, as_ in zip(outs, outs_as) if as_ == INT)
        self.line_ops[len(lines)] = op  # a predicate that is not a scalar fails here
        lines.append(f"{pad}if {expr(op.inputs[0])}:")
        for branch, key in (("then_graph", "then_inputs"), ("else_graph", "else_inputs")):
            if branch == "else_graph":
                lines.append(f"{pad}else:")
            start = len(lines)
            inputs = [expr(op.inputs[i], HELD) for i in op.attrs[key]]
            results = self._branch(op.attrs[branch], inputs, lines, depth + 1, outs_as)
            if outs:
                lines.append(f"{pad}    {', '.join(outs)} = {', '.join(results)}")
            elif len(lines) == start:
                lines.append(f"{pad}    pass")
        for t, o in zip(op.outputs, outs):
            names[id(t)] = o

    def emit_while(self, op: Operation, expr, names: dict, lines: list, depth: int) -> None:
        pad = "    " * depth
        n = op.attrs["num_loop_vars"]
        body_inputs = op.attrs["body_graph"].inputs
        loop_vars = [self.fresh(_loop_var_name(op, i, body_inputs[i])) for i in range(n)]
        body_outputs = op.attrs["body_graph"].outputs
        loop_vars_as = [self._carried_as(body_inputs[i], op.inputs[i], body_outputs[i]) for i in range(n)]
        self._ints.update(v for v, as_ in zip(loop_vars, loop_vars_as) if as_ == INT)
        inits = [expr(t, as_) for t, as_ in zip(op.inputs[:n], loop_vars_as)]
        for v, init in zip(loop_vars, inits):
            lines.append(f"{pad}{v} = {init}")
        counter = None
        max_index = op.attrs.get("max_iterations_input")
        if max_index is not None:
            counter = self.fresh(f"{op.name}_iterations")
            lines.append(f"{pad}{counter} = 0")
        lines.append(f"{pad}while True:")
        inner = pad + "    "
        if counter is not None:
            lines.append(f"{inner}if {counter} >= {expr(op.inputs[max_index])}:")
            lines.append(f"{inner}    break")
            lines.append(f"{inner}{counter} += 1")
        cond_graph, body_graph = op.attrs["cond_graph"], op.attrs["body_graph"]
        cond_inputs = loop_vars + [expr(op.inputs[i], HELD) for i in op.attrs["cond_inputs"]]
        (test,) = self._branch(cond_graph, cond_inputs, lines, depth + 1)
        self.line_ops[len(lines)] = op
        lines.append(f"{inner}if not {test}:")
        lines.append(f"{inner}    break")
        body_inputs = loop_vars + [expr(op.inputs[i], HELD) for i in op.attrs["body_inputs"]]
        results = self._branch(body_graph, body_inputs, lines, depth + 1, loop_vars_as)
        if loop_vars:
            lines.append(f"{inner}{', '.join(loop_vars)} = {', '.join(results)}")
        for t, v in zip(op.outputs, loop_vars):
            names[id(t)] = v


# How the executor writes an op, by op type: a call of its kernel unless the op has a rule here.
# Cond and While have kernels too (they interpret their graphs); written out as Python `if` and
# `while` with their graphs inlined, they cost no call at all. ExactInt32 is checked Python int
# arithmetic: about 0.1 us instead of a 0.75 us kernel call (docs/performance.md).
_EMITTERS = {"Cond": _Codegen.emit_cond, "While": _Codegen.emit_while, "ExactInt32": _Codegen.emit_exact_int32}

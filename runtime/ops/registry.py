"""The op registry: every op defined once, read by every execution mode.

An op is an `OpDef`: a name, a NumPy kernel, an inference rule for the dtype
and shape of its outputs, whether it is stateful, and a slot for an export
mapping; its gradient rule is its entry in the `GRADIENTS` table. Public functions are one-line wrappers that
convert their arguments to tensors and call `apply`:

    ADD = defop("AddV2", np.add, infer=broadcast_binary)

    def add(x, y, name=None):
        return apply(ADD, *binary_operands(x, y, "AddV2"), name=name)

`apply` runs the kernel at once when no graph is being built (eager), and
otherwise hands the op to the graph being built (`context.graph.add_op`),
which uses `infer` to make symbolic outputs, and offers it to the
GradientTapes recording there (`context.tapes`). The executor later calls the
same kernel on NumPy values; autodiff reads `GRADIENTS`; export reads `export`.

Inputs are tensors; attributes are static Python values passed as keywords
(an axis, a dtype, a Variable's storage) and are given to the kernel as
keywords too.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Optional

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError, LeakedTensorError, OpError
from runtime.shape import TensorShape


class Spec(NamedTuple):
    """What an op's inference rule says one output will be."""

    dtype: dtypes.DType
    shape: TensorShape


@dataclass(eq=False)
class OpDef:
    """One primitive op. `infer(*inputs, **attrs)` gets the input tensors
    (anything with `.dtype` and `.shape`) and returns a `Spec`, or a list of
    Specs for an op with several outputs."""

    name: str
    kernel: Callable[..., Any]
    infer: Callable[..., Any]
    stateful: bool = False
    export: Any = None
    doc: str = ""
    multi_output: bool = False
    holds_graphs: bool = False   # Cond, While, Call: attributes hold graphs that may read and assign Variables

    def __repr__(self) -> str:
        return f"<OpDef {self.name}>"

    @property
    def grad(self) -> Optional[Callable[..., Any]]:
        """This op's entry of the gradient table, or None."""
        return GRADIENTS.get(self.name)


OPS: dict[str, OpDef] = {}

# The gradient table, op name -> rule: the rules of runtime/ops/gradients.py (which fills it).
GRADIENTS: dict[str, Callable[..., Any]] = {}


def defop(name: str, kernel: Callable, infer: Callable, *, stateful: bool = False,
          multi_output: bool = False, holds_graphs: bool = False, doc: str = "") -> OpDef:
    """Define an op and add it to the registry; the name must be new."""
    if name in OPS:
        raise ValueError(f"op {name!r} is already defined")
    op = OpDef(name, kernel, infer, stateful=stateful, multi_output=multi_output, holds_graphs=holds_graphs, doc=doc)
    OPS[name] = op
    return op


class TraceContext(threading.local):
    """Where ops go, per thread: the graph being built (None: run eagerly) and the GradientTapes
    recording there. Entering a graph (`graph.building`) starts with no tapes: a tape records the
    ops of the graph it was made in, and sees a `Cond` or `While` built there as one op."""

    graph = None
    tapes: tuple = ()
    name_scope = ""   # `runtime.name_scope`: prefixes the names of the ops built in a graph
    weak = None       # a `weak.WeakProbe` while autograph probes the dtypes of a loop's Python numbers
    assignments = 0   # assignments to Variables recorded into graphs (`graph.assignments_recorded`)
    suspended = None  # the graph `init_scope` stepped out of (a Variable made there counts for its function)
    autograph = False  # the function being traced was converted by autograph (see `functional_ops.converted`)


context = TraceContext()


def apply(op: OpDef, *inputs, name: Optional[str] = None, **attrs):
    """Run `op` on tensors now, or record it in the graph being built; offer it to the tapes."""
    graph = context.graph
    if graph is None:
        if op.holds_graphs and context.tapes:   # tapes note what its graphs' Variables hold before it runs
            for tape in context.tapes:
                tape.before(attrs)
        out = run_eager(op, inputs, attrs)
    else:
        if context.name_scope:
            name = context.name_scope + (name or op.name)
        out = graph.add_op(op, inputs, attrs, name=name)
    for tape in context.tapes:
        tape.record(op, inputs, attrs, out)
    return out


def run_eager(op: OpDef, inputs, attrs):
    try:
        values = [t._value for t in inputs]
    except AttributeError:
        raise _not_eager(op, inputs) from None
    try:
        out = op.kernel(*values, **attrs)
    except OpError:
        raise
    except (ValueError, IndexError, TypeError, ZeroDivisionError, FloatingPointError) as e:
        raise InvalidArgumentError(f"{op.name}: {e} {describe_inputs(inputs)}", op.name) from None
    if op.multi_output:
        return [wrap(v) for v in out]
    return wrap(out)


def _not_eager(op: OpDef, inputs) -> Exception:
    bad = [t for t in inputs if not hasattr(t, "_value")]
    return LeakedTensorError(
        f"{op.name}: got the symbolic tensor {bad[0]!r} outside the function that created it. "
        "Symbolic tensors only exist while a function is being traced; return it from the "
        "function instead of keeping it in a Python variable.", op.name)


def describe_inputs(inputs) -> str:
    parts = [f"{t.dtype.name}{list(t.shape.dims) if t.shape.dims is not None else '[?]'}"
             for t in inputs]
    return f"(inputs: {', '.join(parts)})" if parts else ""


def wrap(value):
    """An EagerTensor around a NumPy result (ndarray or NumPy scalar)."""
    t = _new_eager(EagerTensor)
    t._value = value
    try:
        t._dtype = _NP2DT[value.dtype]
    except KeyError:
        t._dtype = dtypes.from_numpy(value.dtype)
    except AttributeError:
        value = np.asarray(value)
        t._value = value
        t._dtype = dtypes.from_numpy(value.dtype)
    return t


_NP2DT = {np.dtype(d.as_numpy_dtype): d for d in (*dtypes.ALL, dtypes.variant)}
_new_eager = object.__new__

from runtime.tensor import EagerTensor  # noqa: E402  (tensor.py imports this module)


# --- inference helpers shared by many ops --------------------------------------

def broadcast_shapes(a: TensorShape, b: TensorShape, op_name: str = "Broadcast") -> TensorShape:
    """NumPy broadcasting on partially known shapes."""
    if a.dims is None or b.dims is None:
        return TensorShape(None)
    out = []
    for x, y in _pad_right_aligned(a.dims, b.dims):
        if x == 1:
            out.append(y)
        elif y == 1 or y == x:
            out.append(x)
        elif x is None or y is None:
            out.append(x if y is None else y)
        else:
            raise InvalidArgumentError(
                f"{op_name}: incompatible shapes {a} and {b} (dimensions {x} and {y} "
                "can't be broadcast; each pair must be equal or one of them 1).", op_name)
    return TensorShape(out)


def _pad_right_aligned(a: tuple, b: tuple):
    n = max(len(a), len(b))
    return zip((1,) * (n - len(a)) + a, (1,) * (n - len(b)) + b)


def same_dtype(op_name: str, *tensors) -> dtypes.DType:
    first = tensors[0].dtype
    for t in tensors[1:]:
        if t.dtype is not first:
            from runtime.ops.dtype_origins import mismatch   # import cycle: it reads the trace context

            raise InvalidArgumentError(mismatch(op_name, tensors[0], t), op_name)
    return first


def broadcast_binary(x, y, **_) -> Spec:
    """Elementwise binary op: the operands' dtype (the wrappers made them agree)."""
    return Spec(x.dtype, broadcast_shapes(x.shape, y.shape))


def broadcast_predicate(x, y, **_) -> Spec:
    """Comparison: a bool result of the broadcast shape."""
    return Spec(dtypes.bool, broadcast_shapes(x.shape, y.shape))


def unary_same(x, **_) -> Spec:
    return Spec(x.dtype, x.shape)

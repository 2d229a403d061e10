"""`runtime.onnx.export`: a traced function as an ONNX model, to run where there is no Python.

    model = tf.onnx.export(fizzbuzz, "fizzbuzz.onnx", tf.TensorSpec([], tf.int32), drop_prints=True)

The model uses the default ONNX domain at opset `OPSET` (18); `Cond` becomes `If`, `While` becomes `Loop`,
every other op is mapped by its rule in runtime/lowering/to_onnx.py (`MAPPINGS`). It is checked with
`onnx.checker` before it is written. The `onnx` package is an optional extra:
`pip install 'autograph-runtime[onnx]'` (which brings `onnxruntime` too, to run the models).
"""
from __future__ import annotations

import importlib
from typing import Optional

OPSET = 18
EXTRA = "pip install 'autograph-runtime[onnx]'"


def export(function, path: Optional[str] = None, *args, drop_prints: bool = False):
    """Write `function`'s graph to `path` as an ONNX model and return the `onnx.ModelProto`.

    `function` is a `ConcreteFunction`, or a `runtime.function` (or plain Python function) traced for
    `args` — `TensorSpec`s or example values, as `get_concrete_function` takes them (none for a function
    with an input_signature). The model's inputs are the function's tensor arguments (named after its
    parameters) followed by one input per Variable the graph reads or writes, whose default is the
    Variable's current value; its outputs are `output_0`, `output_1`, ... (the flattened results), then
    `<variable input>_new` for each Variable the function assigns. `runtime.print` has no ONNX
    counterpart: a function that prints raises unless `drop_prints=True`. An op without a mapping raises
    `runtime.errors.LoweringError` naming the op and the line of your code that made it.
    """
    concrete = _concrete(function, args)
    to_onnx = _to_onnx(concrete.name)
    from runtime.compat import __version__
    model = to_onnx.build_model(concrete.graph, concrete.name, drop_prints=drop_prints,
                                producer_version=__version__)
    if path is not None:
        with open(path, "wb") as f:
            f.write(model.SerializeToString())
    return model


def mapped_ops() -> list[str]:
    """The names of the runtime ops that export maps to ONNX, sorted (needs the onnx extra)."""
    return sorted(_to_onnx("mapped_ops").MAPPINGS)


def _concrete(function, args: tuple):
    from runtime.function import ConcreteFunction, Function
    if isinstance(function, ConcreteFunction):
        if args:
            raise TypeError(f"export: {function.name} is a ConcreteFunction, already traced; pass no arguments")
        return function
    if not isinstance(function, Function):
        if not callable(function):
            raise TypeError(f"export needs a runtime.function, a ConcreteFunction or a Python function, got "
                            f"{function!r}")
        from runtime.function import function as make_function
        function = make_function(function)
    return function.get_concrete_function(*args)


def _to_onnx(name: str):
    try:
        to_onnx = importlib.import_module("runtime.lowering.to_onnx")   # imports onnx, which nothing else needs
    except ImportError as e:
        if (e.name or "").split(".")[0] != "onnx":
            raise
        raise ImportError(f"{name}: runtime.onnx.export writes models with the onnx package, which is not "
                          f"installed. Install the extra: {EXTRA}", name="onnx") from None
    return to_onnx

"""Save a concrete function's graph as JSON, and load it elsewhere.

    cf = f.get_concrete_function(tf.TensorSpec([None], tf.float32))
    runtime.save_function(cf, "f.json")
    g = runtime.load_function("f.json")     # in another process: no Python source needed
    g(tf.constant([1.0, 2.0]))

The file lists the ops with their type names, inputs, attributes and output
specs; kernels come from the op registry of the loading process. Variables
are saved with their current values and loaded as new variables.
"""
from __future__ import annotations

import builtins

import json
from typing import Any

import numpy as np

from runtime import dtypes, nest
from runtime.graph import FuncGraph, Graph
from runtime.ops.registry import OPS, Spec
from runtime.shape import TensorShape
from runtime.signatures import TensorSpec
from runtime.tensor import SymbolicTensor
from runtime.ops.list_ops import variant


def _dtype(name: str) -> dtypes.DType:
    return variant if name == variant.name else dtypes.as_dtype(name)

FORMAT = "runtime-graph/1"


def save_function(concrete, path: str) -> None:
    """Write `concrete` (a ConcreteFunction, or a Function with an input_signature) to `path` as JSON."""
    if not hasattr(concrete, "graph") and hasattr(concrete, "get_concrete_function"):
        if getattr(concrete, "input_signature", None) is None:
            raise TypeError("save_function needs one traced graph: pass f.get_concrete_function(...) of the "
                            "signature to save, or give the tf.function an input_signature.")
        concrete = concrete.get_concrete_function()
    variables: dict[str, Any] = {}
    doc = {
        "format": FORMAT,
        "name": concrete.name,
        "graph": _encode_graph(concrete.graph, variables),
        "single_output": not isinstance(concrete.structured_outputs, (tuple, list, dict)),
        "output_structure": _encode_outputs(concrete),
        "variables": variables,
    }
    inputs = _encode_inputs(concrete)
    if inputs is not None:
        doc["input_structure"] = inputs
        doc["parameter_names"] = list(concrete._param_names)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)


def load_function(path: str):
    """A callable ConcreteFunction read from a file written by `save_function`."""
    from runtime.function import ConcreteFunction  # import cycle: function imports the executor

    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if doc.get("format") != FORMAT:
        raise ValueError(f"{path} is not a saved runtime function (format {doc.get('format')!r}, "
                         f"expected {FORMAT!r}).")
    handles = {key: _new_variable(value) for key, value in doc["variables"].items()}
    graph = _decode_graph(doc["graph"], handles, None)
    specs = tuple(TensorSpec(t.shape, t.dtype, t.op.name) for t in graph.inputs)
    input_structure, names = (specs, {}), [t.op.name for t in graph.inputs]
    if "input_structure" in doc:  # the arguments as the traced function took them
        input_structure = _decode_structure(doc["input_structure"], graph.outputs, specs)
        names = doc["parameter_names"]
    if "output_structure" in doc:
        outputs = _decode_structure(doc["output_structure"], graph.outputs)
    else:  # files written before output structures were saved
        outputs = graph.outputs[0] if doc["single_output"] and len(graph.outputs) == 1 else list(graph.outputs)
    return ConcreteFunction(graph, doc["name"], input_structure, outputs, nest.flatten(outputs), names)


# --- the structure of the outputs ------------------------------------------------------

def _encode_outputs(concrete):
    """The returned structure, tensors replaced by {"output": i} (i indexes graph.outputs)."""
    count = iter(range(len(concrete.graph.outputs)))
    leaves = [{"output": next(count)} if isinstance(t, SymbolicTensor) else {"value": _json_leaf(v)}
              for t, v in zip(concrete._flat_outputs, nest.flatten(concrete.structured_outputs))]
    return _encode_structure(concrete.structured_outputs, iter(leaves))


def _encode_inputs(concrete):
    """The arguments' structure, tensors replaced by {"input": i} (i indexes graph.inputs); None when
    a Python argument can't be saved as JSON (the loaded function then takes the flat tensors)."""
    structure = concrete.structured_input_signature
    count = iter(range(len(concrete.graph.inputs)))
    try:
        leaves = [{"input": next(count)} if isinstance(v, TensorSpec) else {"value": _json_leaf(v)}
                  for v in nest.flatten(structure)]
        return _encode_structure(structure, iter(leaves))
    except TypeError:
        return None


def _json_leaf(value):
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"Can't save a function that returns the Python value {value!r}: only tensors, "
                    "numbers, strings and None can be saved in its outputs.")


def _encode_structure(structure, leaves):
    if hasattr(structure, "resolved") and hasattr(structure, "_flatten"):   # see _DefinedOnSomePaths
        value, defined = structure._flatten()
        error, message = (None, "") if structure.none else structure._error("")
        return {"maybe": {"value": _encode_structure(value, leaves), "defined": _encode_structure(defined, leaves),
                          "none": structure.none, "error": error and error.__name__, "message": message}}
    if isinstance(structure, dict):
        encoded = {key: _encode_structure(structure[key], leaves) for key in nest.sorted_keys(structure)}
        return {"dict": [[_json_leaf(key), encoded[key]] for key in structure]}
    if isinstance(structure, (tuple, list)):
        kind = "tuple" if isinstance(structure, tuple) else "list"
        return {kind: [_encode_structure(item, leaves) for item in structure]}
    return next(leaves)


def _decode_structure(doc, outputs, inputs=()):
    if "output" in doc:
        return outputs[doc["output"]]
    if "input" in doc:
        return inputs[doc["input"]]
    if "value" in doc:
        return doc["value"]
    if "maybe" in doc:
        maybe = doc["maybe"]
        return _DefinedOnSomePaths(_decode_structure(maybe["value"], outputs, inputs),
                                   _decode_structure(maybe["defined"], outputs, inputs), maybe["none"],
                                   maybe["error"], maybe["message"])
    if "dict" in doc:
        return {key: _decode_structure(value, outputs, inputs) for key, value in doc["dict"]}
    items = [_decode_structure(item, outputs, inputs) for item in doc.get("tuple", doc.get("list"))]
    return tuple(items) if "tuple" in doc else items


class _DefinedOnSomePaths:
    """A returned value that a staged statement defines on some paths only (autograph's `MaybeValue`), in a
    loaded function: where the path taken did not define it, the call gives what Python gives there, None or
    the error (UnboundLocalError), as the traced function does."""

    __slots__ = ("value", "defined", "none", "error", "message")
    _ERRORS = {"TypeError": TypeError, "UnboundLocalError": UnboundLocalError}

    def __init__(self, value, defined, none: bool, error, message: str):
        self.value, self.defined, self.none, self.error, self.message = value, defined, none, error, message

    def _flatten(self) -> tuple:
        return (self.value, self.defined)

    def _unflatten(self, leaves) -> "_DefinedOnSomePaths":
        leaves = list(leaves)
        count = len(nest.flatten(self.value))
        return _DefinedOnSomePaths(nest.pack(self.value, leaves[:count]), leaves[count], self.none, self.error,
                                   self.message)

    def resolved(self, context: str = ""):
        from runtime.concrete_function import _resolved   # import cycle: it imports the executor

        if bool(self.defined):
            return _resolved(self.value, context)
        if self.none:
            return None
        raise self._ERRORS[self.error](f"{self.message}{context}")


def _new_variable(encoded):
    from runtime import variables

    return variables.Variable(_decode(encoded, {})).handle


# --- graphs ---------------------------------------------------------------------

def _encode_graph(graph: Graph, variables: dict) -> dict:
    return {
        "name": graph.name,
        "ops": [{
            "name": op.name, "type": op.type,
            "inputs": [t.name for t in op.inputs],
            "attrs": {k: _encode(v, variables) for k, v in op.attrs.items()},
            "outputs": [[t.dtype.name, t.shape.dims] for t in op.outputs],
        } for op in graph.operations],
        "inputs": [t.name for t in getattr(graph, "inputs", [])],
        "outputs": [t.name for t in getattr(graph, "outputs", [])],
    }


def _decode_graph(doc: dict, handles: dict, outer) -> FuncGraph:
    graph = FuncGraph(doc["name"], outer_graph=outer)
    tensors: dict[str, Any] = {}
    for entry in doc["ops"]:
        opdef = OPS.get(entry["type"])
        if opdef is None:
            raise ValueError(f"The saved graph uses op {entry['type']!r}, which this runtime doesn't define.")
        attrs = {k: _decode(v, handles, graph) for k, v in entry["attrs"].items()}
        specs = [Spec(_dtype(d), TensorShape(s)) for d, s in entry["outputs"]]
        outs = graph.create_op(opdef, tuple(tensors[name] for name in entry["inputs"]), attrs, specs, entry["name"])
        for t in outs:
            tensors[t.name] = t
        if entry["type"] == "Placeholder":
            graph.inputs.append(outs[0])
    graph.outputs = [tensors[name] for name in doc["outputs"]]
    return graph


# --- attribute values --------------------------------------------------------------

def _encode(value, variables: dict):
    if isinstance(value, Graph):
        return {"graph": _encode_graph(value, variables)}
    if isinstance(value, dtypes.DType):
        return {"dtype": value.name}
    if isinstance(value, TensorShape):
        return {"shape": None if value.dims is None else list(value.dims)}
    if isinstance(value, Spec):
        return {"spec": [value.dtype.name, value.shape.dims]}
    if isinstance(value, (np.ndarray, np.generic)):
        array = np.asarray(value)
        return {"array": _json_items(array), "dtype": array.dtype.str, "shape": list(array.shape)}
    if isinstance(value, bytes):
        return {"bytes": value.decode("latin-1")}
    if isinstance(value, tuple):
        return {"tuple": [_encode(v, variables) for v in value]}
    if isinstance(value, list):
        return [_encode(v, variables) for v in value]
    if isinstance(value, dict):
        return {"dict": {k: _encode(v, variables) for k, v in value.items()}}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if hasattr(value, "value") and hasattr(value, "dtype"):  # a Variable's storage
        key = str(id(value))
        variables[key] = _encode(np.asarray(value.value), variables)
        return {"variable": key}
    if isinstance(value, type) and issubclass(value, BaseException) and getattr(builtins, value.__name__, None) is value:
        return {"exception": value.__name__}     # a staged `raise` of a builtin exception (ops/logging_ops.py)
    if isinstance(value, type) and issubclass(value, BaseException):
        raise TypeError(f"Can't save a function whose staged `raise` raises {value.__module__}.{value.__qualname__}: "
                        "a saved graph can raise Python's builtin exceptions only. Raise one of them (ValueError, "
                        "...) in the saved function.")
    if isinstance(value, BaseException):    # the cause of `raise ... from cause`
        raise TypeError(f"Can't save a function whose staged `raise` is `raise ... from` an exception ({value!r}): "
                        "a saved graph keeps no exception objects. Drop the `from` clause in the saved function.")
    raise TypeError(f"Can't save an attribute of type {type(value).__name__}: {value!r}.")


def _json_items(array: np.ndarray) -> list:
    """An array's items as JSON values: bytes as latin-1 text (one character per byte), complex numbers as
    [real, imag] pairs, others as NumPy's tolist gives them."""
    if array.dtype.kind == "S":
        return [bytes(b).decode("latin-1") for b in array.reshape(-1)]
    if array.dtype.kind == "c":
        return [[z.real, z.imag] for z in array.reshape(-1).tolist()]
    return array.tolist()


def _array_from_json(items, dtype: np.dtype) -> np.ndarray:
    if dtype.kind == "S":
        return np.array([text.encode("latin-1") for text in items], dtype=dtype)
    if dtype.kind == "c":
        return np.array([complex(re, im) for re, im in items], dtype=dtype)
    return np.array(items, dtype=dtype)


def _decode(value, handles: dict, graph=None):
    if isinstance(value, list):
        return [_decode(v, handles, graph) for v in value]
    if not isinstance(value, dict):
        return value
    if "graph" in value:
        return _decode_graph(value["graph"], handles, graph)
    if "dtype" in value and "array" not in value:
        return _dtype(value["dtype"])
    if "shape" in value and "array" not in value:
        return TensorShape(value["shape"])
    if "spec" in value:
        return Spec(_dtype(value["spec"][0]), TensorShape(value["spec"][1]))
    if "array" in value:
        return _array_from_json(value["array"], np.dtype(value["dtype"])).reshape(value["shape"])
    if "bytes" in value:
        return value["bytes"].encode("latin-1")
    if "tuple" in value:
        return tuple(_decode(v, handles, graph) for v in value["tuple"])
    if "dict" in value:
        return {k: _decode(v, handles, graph) for k, v in value["dict"].items()}
    if "variable" in value:
        return handles[value["variable"]]
    if "exception" in value and isinstance(getattr(builtins, value["exception"], None), type):
        return getattr(builtins, value["exception"])
    raise ValueError(f"Unknown attribute encoding {value!r} in a saved graph.")

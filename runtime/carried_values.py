"""What a symbolic tensor does where it stands for a Python value that a staged `if` or loop carries (a number
or bool ops/python_ints.py marks, or a str, which becomes a scalar string tensor) and Python's operation on the
value is one the tensor lacks: refused at the user's line (an `OperatorNotAllowedInGraphError`, which a converted
function's `except` lets through), or Python's own TypeError where Python raises it whatever the value.

Without it the tensor's own error (TensorFlow's TypeError for hashing, an AttributeError for `s.upper()`) was
taken by the program's `except TypeError:` around `d[k]` or `len(s)`, which then gave the handler's answer on
every input. A tensor of the program's keeps TensorFlow's errors.
"""
from __future__ import annotations

from runtime import dtypes


class CarriedPythonValue:
    """A mixin of `SymbolicTensor` (which gives `_not_allowed`, `_dtype`, `_shape`)."""

    __slots__ = ()

    def stands_for(self) -> str:
        """What Python value this tensor holds when a staged `if` or loop carries one ('' for a tensor of the
        program's): "'k', a Python int" for a number or bool it marks (ops/python_ints.py), "a Python str (or a
        string tensor)" for a scalar string tensor, which a carried str becomes."""
        from runtime.ops import python_ints

        name = python_ints.name_of(self)
        if name is not None:
            return f"'{name}', a Python {python_ints.kind_of(self)}"
        return "a Python str (or a string tensor)" if self._dtype is dtypes.string and self._shape.rank == 0 else ""

    def refuse_python(self, what: str, why: str) -> None:
        """Refuse `what` (Python's operation on the value this tensor stands for, `stands_for`), if it stands
        for one: Python would answer from the value, known only when the graph runs, and the tensor's own error
        (a TypeError, an AttributeError) would be taken by the program's `except` for its own."""
        held = self.stands_for()
        if held:
            self._not_allowed(what, f"It holds {held} that a staged `if` or loop carries: {why}")

    def python_type_error(self, message: str) -> None:
        """Python's TypeError `message` ("'{kind}' object is not iterable") where this tensor stands for a Python
        int, float or bool (the kind) a staged statement carries: Python raises it whatever the value."""
        from runtime.ops import python_ints

        kind = python_ints.kind_of(self)
        if kind in ("int", "float", "bool"):
            raise TypeError(message.format(kind=kind))

    def __getattr__(self, name: str):
        """Only for an attribute the tensor lacks: one of Python's str, int, float or bool (`s.upper()`,
        `k.bit_length()`) on a tensor that stands for such a value is refused (`refuse_python`)."""
        if hasattr(type(self), name):   # a property that raised AttributeError (`numpy`): its own error again
            return object.__getattribute__(self, name)
        if not name.startswith("_") and any(name in vars(kind) for kind in (str, int, float)):
            self.refuse_python(f"Reading .{name} of", "Python reads its attribute from the value, which the graph "
                               "knows only when it runs. Use the runtime's ops on it (runtime.strings for a str), "
                               "or call it before the staged statement.")
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __hash__(self):
        """Unhashable, as every tensor (TensorFlow's rule, `Tensor.__hash__`). One that stands for a Python value
        a staged `if` or loop carries (a number or bool it marks, or a str, which becomes a string tensor) is
        refused at the user's line instead: Python would hash the value (a dict key, a set member, `in` a set),
        and a converted function's `except TypeError:` (or `except Exception:`) must not take the tensor's
        TypeError for its own and go on as if the key were missing."""
        self.refuse_python("Hashing", "Python hashes the value (a dict key, a set member, `in` a dict or set), "
                           "which the graph knows only when it runs. Look it up in the graph (a table as a tensor, "
                           "indexed with runtime.gather), or do the lookup before the staged statement.")
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    def __bytes__(self):
        """`bytes(t)`: TensorFlow's TypeError; of a Python number a staged statement carries, refused (Python's
        `bytes(3)` is three zero bytes; `bytes()` would take the refusal of `__index__` for "not an int")."""
        self.refuse_python("Converting to bytes", "Python's bytes() of it depends on the value, which the graph "
                           "knows only when it runs.")
        raise TypeError(f"cannot convert '{type(self).__name__}' object to bytes")

"""The example functions of the reference pages (docs/reference/), one or more per construct.

Each `Construct` names a page, explains it, and lists the functions to show with the calls to run:
`python_calls` on plain Python values (the converted function behaves exactly like the original) and
`tensor_calls` on runtime tensors inside `runtime.function` (the control flow is staged as `Cond` /
`While` ops). `tools/docgen/reference.py` runs them and writes the pages.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import autograph as ag
import runtime as tf


@dataclass
class Construct:
    slug: str
    title: str
    explanation: str
    functions: list[Callable]
    python_calls: list[str] = field(default_factory=list)   # expressions over the functions, Python values
    tensor_calls: list[str] = field(default_factory=list)   # the same with runtime tensors (traced)
    notes: str = ""
    raises: tuple = ()   # calls whose error is the point of the example (Python raises there too)


# --- if -----------------------------------------------------------------------------------------------

def sign_of(x):
    if x > 0:
        s = 1.0
    elif x < 0:
        s = -1.0
    else:
        s = 0.0
    return s


def clip_negative(x):
    if tf.reduce_sum(x) < 0:
        x = tf.zeros_like(x)
    return x


# --- while ---------------------------------------------------------------------------------------------

def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def first_power_above(limit):
    p = 1
    while p * 2 <= limit:
        p = p * 2
    else:
        p = p * 2
    return p


# --- for -------------------------------------------------------------------------------------------------

def sum_of_squares(n):
    total = 0
    for i in range(n):
        total += i * i
    return total


def weighted(xs, ws):
    total = 0.0
    for i, (x, w) in enumerate(zip(xs, ws)):
        if i > 0:              # skip the first pair
            total += x * w
    return total


def find_index(xs, target):
    found = -1
    for i in range(len(xs)):
        if xs[i] == target:
            found = i
            break
    else:
        found = -2
    return found


# --- break / continue --------------------------------------------------------------------------------

def sum_until_negative(xs):
    total = 0
    for x in xs:
        if x < 0:
            break
        total += x
    return total


def sum_of_odd(n):
    total = 0
    i = 0
    while i < n:
        i += 1
        if i % 2 == 0:
            continue
        total += i
    return total


# --- return --------------------------------------------------------------------------------------------

def abs_value(x):
    if x < 0:
        return -x
    return x


def first_multiple(n, k):
    i = 1
    while i <= n:
        if i % k == 0:
            return i
        i += 1
    return -1


# --- and / or / not ------------------------------------------------------------------------------------

def in_range(x, lo, hi):
    return x >= lo and x <= hi


def fallback(x, default):
    return x or default


def is_outside(x, lo, hi):
    return not (x >= lo and x <= hi)


def between(lo, x, hi):
    return lo < x <= hi


# --- conditional expressions ---------------------------------------------------------------------------

def relu(x):
    return x if x > 0 else 0 * x


# --- assert / print ------------------------------------------------------------------------------------

def safe_sqrt(x):
    assert x >= 0, "x must be non-negative"
    return x ** 0.5


def checked_mean(total, count):
    if count <= 0:
        raise ValueError("count must be positive")
    return total / count


def countdown(n):
    while n > 0:
        print("n =", n)
        n -= 1
    return n


# --- f-strings -----------------------------------------------------------------------------------------

def describe(x):
    if x > 0:
        y = x * 2.0
    else:
        y = -x
    return f"{x:.2f} -> {y!r}", "%.1f%%" % (y * 10)


# --- lists ---------------------------------------------------------------------------------------------

def squares(n):
    out = []
    for i in range(n):
        out.append(i * i)
    return out


def undo(steps):
    history = [0]
    for step in steps:
        if step < 0:
            history.pop()
        else:
            history.append(step)
    last = history.pop()
    return last, history


# --- calls ---------------------------------------------------------------------------------------------

def halve_if_even(n):
    if n % 2 == 0:
        return n // 2
    return n


def apply_steps(n, steps):
    for _ in range(steps):
        n = halve_if_even(n)
    return n


# --- directives ----------------------------------------------------------------------------------------

def bounded_doubling(x):
    while x < 1000:
        ag.set_loop_options(maximum_iterations=5)
        x = x * 2
    return x


# --- nested functions and lambdas ----------------------------------------------------------------------

def scaled_sum(xs, scale):
    def scaled(v):
        if v > 0:
            return v * scale
        return v
    total = 0
    for x in xs:
        total += scaled(x)
    return total



# --- del -----------------------------------------------------------------------------------------------

def largest_gap(xs):
    best = 0
    previous = xs[0]
    for x in xs:
        gap = x - previous
        if gap > best:
            best = gap
        previous = x
        del gap       # the body's scratch value
    return best


# --- attributes and items -----------------------------------------------------------------------------

def dict_sum(n):
    d = {"total": 0}
    for i in range(n):
        d["total"] = d["total"] + i
    return d["total"]


class Stats:
    def __init__(self):
        self.count = 0
        self.largest = 0


def record(stats, xs):
    for x in xs:
        stats.count += 1
        if x > stats.largest:
            stats.largest = x
    return stats.count, stats.largest


def signed_label(x):
    d = {}
    if x > 0:
        d["sign"] = 1
    else:
        d["sign"] = -1
    return d["sign"]


# --- values across staged statements ---------------------------------------------------------------------

def last_double(n):
    i = 0
    while i < n:
        y = i * 2
        i += 1
    return y


def last_or_none(n):
    r = None
    for i in range(n):
        r = i * 2
    return r


def half_sum(n):
    s = 0
    for i in range(n):
        s = s + tf.cast(i, tf.float32) * 0.5
    return s


def powers_of_three(n):
    p = 1
    for _ in range(n):
        p = p * 3
    return p


def doubled_until(limit):
    x = tf.constant([1])
    while tf.size(x) < limit:
        x = tf.concat([x, x], 0)
    return x


def last_or_zero(x):
    if tf.size(x) > 0:
        return x[-1]
    return tf.constant(0.0)


def tagged(x):
    d = {"a": 1}
    if x > 0:
        d.update(a=5)
    return d["a"]


def checked_sqrt(x):
    if x < 0:
        raise ValueError("negative input")
    return tf.sqrt(x)


CONSTRUCTS = [
    Construct("if", "`if` / `elif` / `else`",
              "An `if` becomes `ag__.if_stmt(test, if_true, if_false, names)`: each branch is a nested "
              "function that shares the variables it assigns with your function through `nonlocal`, and "
              "`names` lists those the statement may change. On a Python `bool` the chosen branch runs, "
              "as in Python, on your own variables; on a staged tensor both branches are traced into one "
              "`Cond` op that carries the named variables. `elif` is an `if` nested in the `else` branch. "
              "What a staged statement can carry (a variable set in one branch only, `None`, Python "
              "numbers, side effects, `raise`) is on [its own page](values-across-staged-statements.md).",
              [sign_of, clip_negative],
              ["sign_of(3)", "sign_of(-0.5)", "clip_negative([1.0, -3.0])"],
              ["sign_of(tf.constant(-2.0))", "clip_negative(tf.constant([1.0, -3.0]))"]),
    Construct("while", "`while` (and `while ... else`)",
              "A `while` becomes `ag__.while_stmt(loop_test, loop_body, names)`: the loop "
              "variables (`names`) are exactly those the body changes and that are read afterwards or in "
              "the next iteration, shared with your function through `nonlocal`. On Python values it is a Python loop; when the test is a tensor it is one "
              "`While` op. An `else:` clause runs when the loop ends without `break`.",
              [collatz_steps, first_power_above],
              ["collatz_steps(27)", "first_power_above(100)"],
              ["collatz_steps(tf.constant(27))", "first_power_above(tf.constant(100))"]),
    Construct("for", "`for` over `range`, sequences, tensors, `enumerate` and `zip` (and `for ... else`)",
              "A `for` becomes `ag__.for_stmt(iterable, loop_body, names, extra_test=...)` (the extra "
              "test only when a `break` or `return` can end the loop early). Over a "
              "Python iterable it is a Python loop (a `range` with Python bounds is unrolled when traced); "
              "over `range` with a tensor bound, or over a tensor's rows, it is a `While` op. "
              "`enumerate` and `zip` work on both.",
              [sum_of_squares, weighted, find_index],
              ["sum_of_squares(5)", "weighted([1.0, 2.0, 3.0], [3.0, 4.0, 5.0])", "find_index([4, 7, 9], 7)",
               "find_index([4, 7, 9], 5)"],
              ["sum_of_squares(tf.constant(5))", "weighted(tf.constant([1.0, 2.0, 3.0]), tf.constant([3.0, 4.0, 5.0]))",
               "find_index(tf.constant([4, 7, 9]), tf.constant(7))"]),
    Construct("break-continue", "`break` and `continue`",
              "`break` sets a flag that the loop's test checks (`extra_test` for `for`), `continue` a "
              "flag that guards the rest of the body; both become loop state only when the loop needs "
              "them, so a staged loop stops exactly where Python's would.",
              [sum_until_negative, sum_of_odd],
              ["sum_until_negative([3, 4, -1, 10])", "sum_of_odd(7)"],
              ["sum_until_negative(tf.constant([3, 4, -1, 10]))", "sum_of_odd(tf.constant(7))"]),
    Construct("return", "`return` anywhere",
              "Every function gets `do_return` and `retval_` and ends with `return fscope.ret(retval_, "
              "do_return)`. An early `return` sets both, and the statements after it are guarded, so a "
              "`return` inside an `if` or a loop works on tensors as well as on Python values.",
              [abs_value, first_multiple],
              ["abs_value(-4)", "first_multiple(10, 4)", "first_multiple(3, 7)"],
              ["abs_value(tf.constant(-4))", "first_multiple(tf.constant(10), tf.constant(4))"]),
    Construct("logical", "`and`, `or`, `not`",
              "`a and b` becomes `ag__.and_(lambda: a, lambda: b)`, so the right operand is evaluated "
              "only when Python would evaluate it; with a tensor on the left it is a `Cond`. `not x` is "
              "`ag__.not_(x)`. On a tensor that is not bool, `and`/`or` give an operand, as Python does "
              "(`x or 7` is `x` where `x` is non-zero, else 7): a Python number takes the tensor's dtype, "
              "and operands of two dtypes are a `StagingError`, since a tensor has one dtype. A chained "
              "comparison `a < b <= c` is the lazy `and` Python defines it as, with `b` evaluated once: "
              "`ag__.chain_compare(a, '<', b, '<=', lambda: c)`. Other comparisons are left alone: the "
              "framework's operators handle them.",
              [in_range, fallback, is_outside, between],
              ["in_range(5, 0, 10)", "fallback(0, 7)", "fallback([], 'empty')", "is_outside(11, 0, 10)",
               "between(0, 10, 10)"],
              ["in_range(tf.constant(5), 0, 10)", "is_outside(tf.constant(11), 0, 10)",
               "fallback(tf.constant(0), 7)", "fallback(tf.constant(3), 7)", "between(0, tf.constant(10), 10)"]),
    Construct("conditional-expression", "Conditional expressions (`a if c else b`)",
              "`a if c else b` becomes `ag__.if_exp(c, lambda: a, lambda: b, 'c')`: lazy, like Python, "
              "and a `Cond` when `c` is a tensor.",
              [relu],
              ["relu(-3)", "relu(2.5)"],
              ["relu(tf.constant(-3.0))", "relu(tf.constant(2.5))"]),
    Construct("assert", "`assert`",
              "`assert test, message` becomes `ag__.assert_stmt(test, lambda: message)`: a Python "
              "assert on Python values, the framework's assert op on a tensor (runtime's `Assert`, which "
              "raises `InvalidArgumentError` when the graph runs).",
              [safe_sqrt],
              ["safe_sqrt(16.0)"],
              ["safe_sqrt(tf.constant(16.0))"]),
    Construct("raise", "`raise`",
              "A `raise` stays a `raise`. In a branch or loop body staged for a tensor condition, a `raise` "
              "that the trace reaches (directly or in a converted function it calls; also a failing `assert` "
              "on a Python value) becomes runtime's `Raise` op: when the graph runs that path it raises a copy "
              "of the exception (same type and arguments) with a note naming the line (here "
              "`checked_mean(tf.constant(6.0), tf.constant(0.0))` raises `ValueError: count must be positive`); "
              "the other path runs as usual. An `except` around the statement could not catch it there: that is refused "
              "(docs/errors.md).",
              [checked_mean],
              ["checked_mean(6.0, 3.0)"],
              ["checked_mean(tf.constant(6.0), tf.constant(3.0))"]),
    Construct("print", "`print`",
              "`print(...)` becomes `ag__.callee(print, fscope)(...)`. With runtime it stays Python's "
              "`print`, as in TensorFlow: inside a traced function it runs once per trace, showing a "
              "tensor as the symbolic tensor it is (`Tensor(\"n:0\", shape=(), dtype=int32)`); use "
              "`tf.print` to print values on every call. A framework whose backend stages `print` (JAX's "
              "`jax.debug.print`, PyTorch's print op) gets its print op when an argument is a tensor.",
              [countdown],
              ["countdown(2)"],
              ["countdown(tf.constant(2))"]),
    Construct("f-strings", "f-strings, `str.format` and `%`",
              "An f-string with fields becomes `ag__.fstring(...)` of its text and `ag__.formatted(value, "
              "conversion, spec)` for each field, `'...' % args` with a str literal on the left becomes "
              "`ag__.percent(...)` (`fmt % x`, a template in a variable, `ag__.mod(...)`), and `ag__.callee` sends "
              "`'...'.format(...)`, `format_map` and `str.format(...)` the same way. On Python "
              "values each is Python's, field by field in Python's order. Formatting a tensor while tracing gives "
              "a str of Python's text (the symbolic tensor, as TensorFlow writes it: what `print` or a "
              "`raise` gets) which, where the graph takes it (`tf.print`, a return value), is formatted when "
              "the graph runs, as the eager tensor would be (runtime's `PythonFormat`). A field holding a "
              "string tensor is refused there (a staged `if` carries a Python str as one, whose text as a "
              "tensor would be its bytes).",
              [describe],
              ["describe(2.5)"],
              ["describe(tf.constant(2.5))"]),
    Construct("lists", "Lists in loops (`append`, `pop`)",
              "A list appended to in a loop that becomes staged is turned into the framework's tensor "
              "list (runtime's `TensorArray`) and stacked after the loop; on Python values it is the "
              "list you wrote.",
              [squares, undo],
              ["squares(4)", "undo([3, 5, -1, 7])"],
              ["squares(tf.constant(4))", "undo(tf.constant([3, 5, -1, 7]))"],
              notes="`l.pop()` and `l.pop(i)` become `ag__.list_pop(l)` and `ag__.list_pop(l, i)`, which keep "
                    "Python's meaning on a Python list. On the list a staged loop carries (runtime's `TensorArray`) "
                    "it removes and returns an element, any index as in Python; after the loop the list is its "
                    "stacked tensor, and `pop`/`append` on it give a stacked tensor again; a function returns it as a"
                    " Python list of its rows, as Python would. Popping from an empty one raises `OutOfRangeError` "
                    "(an `IndexError`) when the graph runs. `pop` is converted as a statement (`x = l.pop()`, "
                    "`l.pop()`, `total += l.pop()`, `return l.pop()`), not inside a larger expression (see "
                    "[limitations](../limitations.md))."),
    Construct("calls", "Function calls",
              "Calls become `ag__.callee(f, fscope)(args...)`: your own functions are converted on their "
              "first call (and cached), so their control flow is staged too; the standard library's, "
              "NumPy's and the frameworks' own functions are called as they are. The call itself is "
              "yours, so a function that reads its caller's frame sees your code. A call handed a "
              "function defined inside the converted one (a nested `def`, a `lambda`) is "
              "`ag__.converted_call(f, args, kwargs, fscope)`, which converts it for a library's `f`.",
              [halve_if_even, apply_steps],
              ["apply_steps(40, 3)"],
              ["apply_steps(tf.constant(40), 3)"]),
    Construct("loop-options", "Loop options (`set_loop_options`)",
              "`ag.set_loop_options(maximum_iterations=..., shape_invariants=...)` as the first statement "
              "of a loop body is a directive: it disappears from the body and becomes the loop's options "
              "(a staged loop runs at most `maximum_iterations` times). Called unconverted it does "
              "nothing.",
              [bounded_doubling],
              ["bounded_doubling(3)"],
              ["bounded_doubling(tf.constant(3))"],
              notes="On Python values the directive does nothing, so the loop runs to 1000; in a graph "
                    "the loop stops after 5 iterations."),
    Construct("nested-functions", "Nested functions and lambdas",
              "Functions defined inside a converted function are converted with it; they close over its "
              "variables as in Python.",
              [scaled_sum],
              ["scaled_sum([1, -2, 3], 10)"],
              ["scaled_sum(tf.constant([1, -2, 3]), 10)"]),
    Construct("del", "`del`",
              "`del x` stays `del x`: a branch or loop body shares `x` with the function through "
              "`nonlocal`, so deleting it unbinds the function's own variable, and a later read raises "
              "as in Python (`UnboundLocalError`). With a tensor condition or loop, a variable deleted on a path "
              "and read afterwards is a `StagingError` naming the `del`. `del` of an "
              "item or attribute (`del d[k]`, `del obj.attr`) is left as written, its object marked: in a statement on "
              "a tensor, deleting from an object that exists before it is a `StagingError` (see "
              "[attributes and items](attributes-and-items.md)).",
              [largest_gap],
              ["largest_gap([1, 4, 6, 11])"],
              ["largest_gap(tf.constant([1, 4, 6, 11]))"]),
    Construct("attributes-and-items", "Attributes and items assigned in `if` and loops",
              "An attribute or an item with a constant key (`self.count`, `d[\"total\"]`, "
              "`self.stats[\"n\"]`), or with a key in a variable the statement does not assign (`d[key]`, passed "
              "as `lambda: (d, key)`), that an `if` or a loop assigns is passed to its operator as "
              "`composites={name: lambda: root}`: the name as you wrote it, and a function giving the "
              "object it hangs from. On Python values the operator ignores it: Python's own `if` or loop "
              "updates the object. When the statement is staged, the operator carries the current value "
              "after the variables, under that name (so errors about it say `self.count`): each branch or "
              "iteration starts with it set on the object and hands back what the code left there, and "
              "the result is set on the object after the statement. An attribute or item that does not "
              "exist before the statement, or whose object the statement replaces, is not carried.",
              [dict_sum, record],
              ["dict_sum(4)", "record(Stats(), [3, 9, 4])"],
              ["dict_sum(tf.constant(4))", "record(Stats(), tf.constant([3, 9, 4]))"],
              notes="Not carried: a `nonlocal` variable a helper rebinds, an item with a key that is not a "
                    "constant (`d[k]`), and what a called method changes (see "
                    "[limitations](../limitations.md))."),
    Construct("values-across-staged-statements", "Values across staged statements: undefined, `None`, "
              "Python numbers, shapes, side effects, `raise`",
              "When a statement is staged (its test or iterable is a tensor), every branch, or the loop "
              "body, is traced once, whatever the input, and the variables it changes are carried through "
              "one `Cond` or `While` op. What that carries, each with Python's answer or a clear error "
              "at your line: "
              "**A variable the statement may leave unassigned, or `None`** (`last_double`, `last_or_none`): "
              "carried as a placeholder of the type the body gives it plus a defined flag; a read where the "
              "flag is false raises when the graph runs, on exactly the path where Python raises "
              "(`UnboundLocalError`, or `TypeError` for `None` in an operation); `x is None` is answered "
              "per path; returned, it is `None` where Python returns `None`. A read inside a `try` (or a "
              "`with` of yours) that could catch its error is refused, since the graph raises after tracing. "
              "**Python numbers** (`half_sum`, `powers_of_three`): weakly typed, they take the dtype the "
              "body gives them (`s = 0` then `s + 0.5` makes `s` float32); an int nothing types is carried "
              "as int32 and its arithmetic is checked: where int32 can't hold Python's value, an error "
              "naming the variable, never a wrap-around. "
              "**Shapes** (`doubled_until`, `last_or_zero`): a loop variable whose shape changes is relaxed "
              "(the changing dimensions become unknown); a condition tracing already knows (static shapes, "
              "constants) traces only the branch it takes. "
              "**Items and attributes** (`signed_label`, `tagged`): stores with keys known at trace time are "
              "carried, including items made on every path; an item made on some paths only, and changes "
              "the converter sees but can't carry (`update`, `pop`, `insert`, `extend`, `del d[k]`, "
              "`setattr`, slice stores, a list changed through an alias) are a `StagingError` naming the "
              "line and the fix. "
              "**`raise`** (`checked_sqrt`): raised when the graph runs that path, with your exception's "
              "type and arguments and a note naming the line; refused inside a `try` whose `except` could "
              "catch it (or a `with` of yours, or a `finally:` that raises).",
              [last_double, last_or_none, half_sum, powers_of_three, doubled_until, last_or_zero, signed_label,
               tagged, checked_sqrt],
              ["last_double(3)", "last_double(0)", "last_or_none(3)", "last_or_none(0)", "half_sum(4)",
               "powers_of_three(25)", "signed_label(3)", "tagged(-3)", "checked_sqrt(-1.0)"],
              ["last_double(tf.constant(3))", "last_double(tf.constant(0))", "last_or_none(tf.constant(3))",
               "last_or_none(tf.constant(0))", "half_sum(tf.constant(4))", "powers_of_three(tf.constant(25))",
               "doubled_until(tf.constant(10))", "last_or_zero(tf.zeros([0]))", "signed_label(tf.constant(3))",
               "signed_label(tf.constant(-3))", "tagged(tf.constant(-3))", "checked_sqrt(tf.constant(4.0))",
               "checked_sqrt(tf.constant(-1.0))"],
              raises=("last_double(0)", "checked_sqrt(-1.0)", "last_double(tf.constant(0))",
                      "powers_of_three(tf.constant(25))",
                      "checked_sqrt(tf.constant(-1.0))", "tagged(tf.constant(-3))")),
]

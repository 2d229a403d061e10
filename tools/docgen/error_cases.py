"""The programs behind docs/errors.md: one per error autograph (or the runtime, for converted code) raises.

Each program's source is shown on the page as it is written here; `tools/docgen/errors.py` runs it
(after `import autograph as ag` and `import runtime as tf`) and records the real message.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class ErrorCase:
    title: str
    explanation: str
    source: str                        # the program (after the two imports)
    call: str                          # the expression that raises
    fix: str
    fixed_source: Optional[str] = None  # the program, fixed
    fixed_call: Optional[str] = None    # defaults to `call`


CASES = [
    ErrorCase(
        "`ConversionError`: a generator",
        "A function containing `yield` can't be converted: a generator's control flow can't become a "
        "graph.",
        "@tf.function\ndef evens(n):\n    for i in range(n):\n        yield 2 * i\n",
        "list(evens(3))",
        "build and return a list (or a tensor) instead, or mark the function with "
        "`@ag.do_not_convert` so it runs as plain Python.",
        "@tf.function\ndef evens(n):\n    result = []\n    for i in range(n):\n        result.append(2 * i)\n"
        "    return result\n",
        "evens(3)"),
    ErrorCase(
        "`ConversionError`: an `async` function",
        "Coroutines are not converted.",
        "async def f(x):\n    return x\n",
        "ag.to_code(f)",
        "convert the synchronous function that does the computation, and await around it."),
    ErrorCase(
        "`ConversionError`: `locals()`, `vars()`, `dir()`, or `eval`/`exec` without a namespace",
        "These builtins read the variables of the frame that calls them. Converted code runs the function's "
        "statements in functions of its own (the branches and loop bodies), so they would see other "
        "variables. A helper that uses them runs unconverted, "
        "with a warning; the function handed to `convert` or `function` is refused.",
        "@tf.function\ndef f(x):\n    a = 2\n    if x > 0:\n        return eval('a * x')\n    return x\n",
        "f(tf.constant(3))",
        "name the variables you need, or pass the namespace explicitly.",
        "@tf.function\ndef f(x):\n    a = 2\n    if x > 0:\n        return eval('a * x', globals(), {'a': a, 'x': x})\n"
        "    return x\n",
        "f(tf.constant(3))"),
    ErrorCase(
        "`StagingError`: a `global` or `nonlocal` variable assigned in a tensor loop or `if`",
        "On Python values a converted function assigns globals as Python does. A staged loop or `if` runs "
        "once, when the function is traced, so it can't assign a variable outside the function each time "
        "the graph runs.",
        "total = 0\n\n\n@tf.function\ndef add_all(n):\n    global total\n    while n > 0:\n        total += n\n"
        "        n -= 1\n    return n\n",
        "add_all(tf.constant(3))",
        "compute the value in a local variable and return it (or keep it in a `runtime.Variable`).",
        "@tf.function\ndef add_all(n):\n    total = 0\n    while n > 0:\n        total += n\n        n -= 1\n"
        "    return total\n",
        "add_all(tf.constant(3))"),
    ErrorCase(
        "`ConversionError`: `set_loop_options` with positional or unknown arguments",
        "`ag.set_loop_options(...)` is a directive read from the source: it takes keyword arguments "
        "only, from a fixed list.",
        "def f(n):\n    i = 0\n    while i < n:\n        ag.set_loop_options(unroll=True)\n        i += 1\n"
        "    return i\n",
        "ag.convert(f)(3)",
        "use one of the options the message lists, e.g. `maximum_iterations=`.",
        "def f(n):\n    i = 0\n    while i < n:\n        ag.set_loop_options(maximum_iterations=10)\n"
        "        i += 1\n    return i\n"),
    ErrorCase(
        "`SourceUnavailableError` (and its warning)",
        "A function without source (made by `exec`, built in, from a C extension) can't be converted. "
        "`to_code` raises; `convert` (and `runtime.function`) call it unconverted, with one warning "
        "saying why.",
        "namespace = {}\nexec('def double(x):\\n    return 2 * x', namespace)\ndouble = namespace['double']\n",
        "ag.to_code(double)",
        "define the function in a file (or the interactive prompt) so that `inspect` can read its "
        "source; or accept that it runs as plain Python:",
        "namespace = {}\nexec('def double(x):\\n    return 2 * x', namespace)\ndouble = namespace['double']\n",
        "ag.convert(double)(21)"),
    ErrorCase(
        "`AutoGraphError`: `to_code` of something that is not a function",
        "`to_code` needs a Python function (or a method, lambda, `functools.partial` of one).",
        "",
        "ag.to_code(3)",
        "pass the function itself."),
    ErrorCase(
        "`UnboundLocalError` (when the graph runs): a variable a tensor `if` assigns in one branch only",
        "With a tensor condition the variable is carried with a flag that says whether the branch taken "
        "assigned it (docs/limitations.md, \"Variables defined on some paths only\"). Reading it where it was "
        "not assigned raises Python's `UnboundLocalError` when the graph runs, on that path only; the message "
        "names the `if` and the branch.",
        "@tf.function\ndef f(x):\n    if x > 0:\n        y = x\n    return y\n",
        "f(tf.constant(-1))",
        "give the variable a value before the `if` (or in both branches).",
        "@tf.function\ndef f(x):\n    y = tf.constant(0)\n    if x > 0:\n        y = x\n    return y\n"),
    ErrorCase(
        "`StagingError`: a `raise` in a tensor `if` or loop, inside a `try` that catches it",
        "A `raise` (or a failing `assert` on a Python value) in a branch or loop body staged for a tensor "
        "condition becomes a graph op that raises the exception, with a note naming the line, when that path "
        "runs. That happens after the function was traced, so an `except` (or a context manager) around the "
        "statement can't catch it there; the `raise` is refused at its line.",
        "@tf.function\ndef count(n):\n    s = 0\n    i = 0\n    try:\n        while i < n:\n            s += 1\n"
        "            i += 1\n            if s > 5:\n                raise KeyError(\"big\")\n    except KeyError:\n"
        "        s = -1\n    return s\n",
        "count(tf.constant(7))",
        "raise outside the `try`, or set a flag in the loop and act on it after the statement.",
        "@tf.function\ndef count(n):\n    s = 0\n    i = 0\n    big = False\n    while i < n and not big:\n"
        "        s += 1\n        i += 1\n        big = s > 5\n    if big:\n        s = -1\n    return s\n"),
    ErrorCase(
        "`StagingError`: branches that produce different structures",
        "Both branches of a tensor `if` must produce values of the same structure (a tuple in one and "
        "a single tensor in the other can't be one `Cond` output).",
        "@tf.function\ndef f(x):\n    if x > 0:\n        y = (x, x)\n    else:\n        y = x\n    return y\n",
        "f(tf.constant(1))",
        "produce the same structure on every path.",
        "@tf.function\ndef f(x):\n    if x > 0:\n        y = (x, x)\n    else:\n        y = (x, -x)\n    return y\n"),
    ErrorCase(
        "`UnboundLocalError` (when the graph runs): a variable first assigned in a tensor loop that ran zero times",
        "A variable first assigned in a loop over tensors and used after it is carried with a placeholder of "
        "the type the body gives it and a flag; where the loop ran zero times, reading it raises Python's "
        "error, naming the line of the read and the loop.",
        "@tf.function\ndef last(n):\n    for i in tf.range(n):\n        s = i\n    return s * 10\n",
        "last(tf.constant(0))",
        "assign an initial value before the loop if the loop may run zero times.",
        "@tf.function\ndef last(n):\n    s = tf.constant(-1)\n    for i in tf.range(n):\n        s = i\n"
        "    return s * 10\n"),
    ErrorCase(
        "`TypeError` (when the graph runs): a variable that is None on the path taken, used in an operation",
        "A variable that is `None` before a tensor loop (or `if`) and a tensor after it is carried with a "
        "flag; returned, it is `None` where the loop did not assign it, as in Python, and used in an "
        "operation there it raises the `TypeError` Python raises.",
        "@tf.function\ndef total(n):\n    r = None\n    for i in tf.range(n):\n        r = i * 2\n"
        "    return r + 1\n",
        "total(tf.constant(0))",
        "test it first (`if r is None:`, which the graph answers on each path), or start from a number.",
        "@tf.function\ndef total(n):\n    r = None\n    for i in tf.range(n):\n        r = i * 2\n"
        "    if r is None:\n        return 0\n    return r + 1\n"),
    ErrorCase(
        "`StagingError`: a tensor loop's body reads a variable before assigning it, undefined before the loop",
        "A variable first assigned in a loop over tensors gets its type from the body; a body that reads "
        "it before assigning it (the value of an earlier iteration) needs that type before it is traced.",
        "@tf.function\ndef deltas(n):\n    total = tf.constant(0)\n    for i in tf.range(n):\n"
        "        if i > 0:\n            total += i - previous\n        previous = i\n    return total\n",
        "deltas(tf.constant(3))",
        "assign an initial value of the right type before the loop.",
        "@tf.function\ndef deltas(n):\n    total = tf.constant(0)\n    previous = tf.constant(0)\n"
        "    for i in tf.range(n):\n        if i > 0:\n            total += i - previous\n"
        "        previous = i\n    return total\n"),
    ErrorCase(
        "`ControlFlowError` (runtime): a loop variable that changes shape against its shape invariant",
        "A converted loop relaxes a loop variable's shape when it changes, unless `shape_invariants` fixes it "
        "(the runtime's `while_loop` checks it; called directly, it relaxes nothing, as TensorFlow's).",
        "@tf.function\ndef grow(n):\n    s = tf.constant([1])\n    while n > 0:\n"
        "        ag.set_loop_options(shape_invariants=[(s, [1])])\n        s = tf.concat([s, s], 0)\n"
        "        n -= 1\n    return s\n",
        "grow(tf.constant(3))",
        "declare the dimension that changes with `ag.set_loop_options(shape_invariants=[(s, [None])])` "
        "as the first statement of the loop body (or leave the option out: the shape is relaxed).",
        "@tf.function\ndef grow(n):\n    s = tf.constant([1])\n    while n > 0:\n"
        "        ag.set_loop_options(shape_invariants=[(s, [None])])\n        s = tf.concat([s, s], 0)\n"
        "        n -= 1\n    return s\n"),
    ErrorCase(
        "`ControlFlowError` (runtime): a set (or other Python object) carried by a tensor `if` or loop",
        "A staged `if` or loop carries its variables as tensors: numbers, bools and strings become tensors, "
        "but a variable (or an attribute, or a list's element) that the statement sets to a set, or to an "
        "object of a class of yours, can't be carried.",
        "@tf.function\ndef f(x):\n    modes = {'up'}\n    if x > 0:\n        modes = {'down'}\n    return x, modes\n",
        "f(tf.constant(1))",
        "decide the value with Python values outside the tensor `if`, or carry a tensor (a string tensor "
        "here) instead.",
        "@tf.function\ndef f(x):\n    mode = 'up'\n    if x > 0:\n        mode = 'down'\n    return x, mode\n"),
    ErrorCase(
        "`InvalidArgumentError` (runtime): a loop variable that changes dtype",
        "A loop variable that is a tensor before the loop keeps its dtype; adding a float to an `int32` one "
        "is refused by the runtime's dtype rules (no implicit promotion). The message names the variable and "
        "where its dtype comes from. (A Python number before the loop is weakly typed instead: `s = 0` "
        "then `s = s + x` with `x` float32 makes `s` a float32.)",
        "@tf.function\ndef halves(n):\n    s = tf.constant(0)\n    for i in tf.range(n):\n"
        "        s = s + tf.cast(i, tf.float32) / 2\n    return s\n",
        "halves(tf.constant(3))",
        "give the variable the dtype it needs before the loop (`tf.constant(0.0)`, a Python `0`, or "
        "`s = tf.cast(s, tf.float32)`).",
        "@tf.function\ndef halves(n):\n    s = 0\n    for i in tf.range(n):\n"
        "        s = s + tf.cast(i, tf.float32) / 2\n    return s\n"),
    ErrorCase(
        "`InvalidArgumentError` (runtime): a Python int that int32 can't hold",
        "A Python int carried by a loop over tensors that nothing in the loop gives a dtype is carried as "
        "`int32` (the dtype `tf.constant` gives it) and stays a Python int: arithmetic on it is checked, and "
        "a result int32 can't hold is an error naming the variable, where Python's ints never overflow and a "
        "graph's int32 would wrap around.",
        "@tf.function\ndef powers(n):\n    s = 1\n    i = tf.constant(0)\n    while i < n:\n        s = s * 3\n"
        "        i += 1\n    return s\n",
        "powers(tf.constant(25))",
        "start the variable as an `int64` tensor, which holds the value.",
        "@tf.function\ndef powers(n):\n    s = tf.constant(1, tf.int64)\n    i = tf.constant(0)\n    while i < n:\n"
        "        s = s * 3\n        i += 1\n    return s\n"),
    ErrorCase(
        "`StagingError`: an empty list carried through a tensor loop",
        "A list that is carried by a loop over tensors but never appended to has no element type.",
        "@tf.function\ndef f(n):\n    xs = []\n    for i in tf.range(n):\n        xs = xs\n    return xs\n",
        "f(tf.constant(3))",
        "append to it in the loop (autograph then learns its element type), give it an initial "
        "element, or don't carry it.",
        "@tf.function\ndef f(n):\n    xs = []\n    for i in tf.range(n):\n        xs.append(i * i)\n    return xs\n"),
    ErrorCase(
        "`StagingError`: a method that changes an object, in a tensor `if` or loop",
        "Tracing runs both branches of a tensor `if` (and a tensor loop's body) once, whatever the input. A "
        "call that changes an object that exists before the statement (`d.update`, `d.pop`, `l.insert`, "
        "`l.extend`, `l.sort`, `s.add`, ...), `del d[k]`, `setattr`, or a store to a slice or to an item whose "
        "key the statement changes (`d[i] = v` in a loop over `i`) would be made once, on every path; the statement can't carry it, so "
        "it is refused. On Python values it runs as written.",
        "@tf.function\ndef bump(x):\n    d = {'a': 1}\n    if x > 0:\n        d.update(a=5)\n    return d['a']\n",
        "bump(tf.constant(-3))",
        "set items with constant keys (`d['a'] = 5`) and attributes by name (`o.v = 5`): a staged statement "
        "carries those. Or assign a new object to a variable (`l = [9] + l`).",
        "@tf.function\ndef bump(x):\n    d = {'a': 1}\n    if x > 0:\n        d['a'] = 5\n    return d['a']\n"),
    ErrorCase(
        "`StagingError`: a function called in a tensor `if` or loop changes an object the statement reads",
        "A staged statement carries the attributes and items its own code assigns. A function it calls that "
        "changes an attribute (or an item of a dict or list) of an object a variable of the statement holds would "
        "make that change once, while tracing, on every path: it is found after the statement is traced.",
        "class Counter:\n    def __init__(self):\n        self.count = 0\n\n    def inc(self):\n"
        "        self.count += 1\n\n\n@tf.function\ndef f(n):\n    c = Counter()\n    i = 0\n"
        "    while i < n:\n        c.inc()\n        i += 1\n    return c.count\n",
        "f(tf.constant(3))",
        "make the change in the statement itself, from a value the function returns.",
        "class Counter:\n    def __init__(self):\n        self.count = 0\n\n    def next_count(self):\n"
        "        return self.count + 1\n\n\n@tf.function\ndef f(n):\n    c = Counter()\n    i = 0\n"
        "    while i < n:\n        c.count = c.next_count()\n        i += 1\n    return c.count\n",
        "f(tf.constant(3))"),
    ErrorCase(
        "`StagingError`: an iterator that gives items in a tensor `if` or loop",
        "Tracing runs the body of a loop over tensors (and each branch of a tensor `if`) once, so `next(it)` "
        "there would take one item, while tracing, whatever the number of iterations or the path taken. An "
        "iterator a variable of the statement holds (a builtin's, a generator, `map`/`zip`/`filter`/`enumerate` "
        "of those, or one of your classes) that gave items is found after the statement is traced.",
        "@tf.function\ndef f(n):\n    it = iter([1, 2, 3, 4])\n    total = 0\n    i = 0\n    while i < n:\n"
        "        total += next(it)\n        i += 1\n    return total\n",
        "f(tf.constant(2))",
        "make the items a list (or a tensor) before the statement and index it.",
        "@tf.function\ndef f(n):\n    items = tf.constant([1, 2, 3, 4])\n    total = 0\n    i = 0\n"
        "    while i < n:\n        total += items[i]\n        i += 1\n    return total\n",
        "f(tf.constant(2))"),
    ErrorCase(
        "`StagingError`: a NumPy array changed in place in a tensor `if` or loop",
        "`a += 1` on a NumPy array (a `bytearray`, an `array.array`) changes it in place. Tracing runs every "
        "branch of a tensor `if` (and a loop body) once, so the array would be changed once, while tracing, on "
        "every path: a change to the contents of such a buffer a variable of the statement holds is found after "
        "the statement is traced.",
        "import numpy as np\n\n\n@tf.function\ndef f(x):\n    a = np.array([1.0, 2.0])\n    if x > 0:\n"
        "        a += 1\n    return a\n",
        "f(tf.constant(-3))",
        "assign a new value (`a = a + 1`), which a staged statement carries.",
        "import numpy as np\n\n\n@tf.function\ndef f(x):\n    a = np.array([1.0, 2.0])\n    if x > 0:\n"
        "        a = a + 1\n    return a\n",
        "f(tf.constant(-3))"),
    ErrorCase(
        "`StagingError`: appending to a list that another variable also holds, in a tensor `if` or loop",
        "A staged statement carries a list it appends to as a new list (a copy, or a tensor list); when "
        "another variable holds the same list, Python's append changes both, the graph only one. So does a "
        "function that called this one and passed the list in (`fill(out, n)` appending to `out` in a loop over "
        "`tf.range(n)`): the message names it (\"'out' of its caller f\"); return the list from the helper "
        "(`out = fill(out, n)`, copying it first inside).",
        "@tf.function\ndef f(x):\n    log = [0]\n    entries = log\n    if x > 0:\n        entries.append(1)\n"
        "    else:\n        entries.append(2)\n    return log[-1]\n",
        "f(tf.constant(3))",
        "copy the list before the statement (`entries = list(log)`) and use that name afterwards, or "
        "keep one name for the list.",
        "@tf.function\ndef f(x):\n    log = [0]\n    if x > 0:\n        log.append(1)\n    else:\n"
        "        log.append(2)\n    return log[-1]\n"),
    ErrorCase(
        "`StagingError`: changing a global's (or an enclosing function's) list or dict in a tensor `if` or loop",
        "A global (`OUT = []` at module level), or a variable of an enclosing function, is not a variable the "
        "staged statement can carry. Tracing runs the loop body (or every branch) once, so `OUT.append(i)` "
        "would append once, at trace time, where Python appends once per iteration, and only on the path "
        "taken. So is any change of its object that the statement makes (`OUT[i] = v`, `OUT.update(...)`, "
        "`REG.items.append(i)`), and an append to a local name for the same list (`l = OUT`).",
        "OUT = []\n\n\n@tf.function\ndef f(n):\n    for i in tf.range(n):\n        OUT.append(i)\n"
        "    return len(OUT)\n",
        "f(tf.constant(3))",
        "collect the values in a list of the function and return it; change the global with what the "
        "function returns, outside it.",
        "@tf.function\ndef f(n):\n    items = []\n    for i in tf.range(n):\n        items.append(i)\n"
        "    return tf.stack(items)\n"),
    ErrorCase(
        "`StagingError`: an item or attribute of a global object assigned in a tensor `if` or loop",
        "A staged statement carries the items and attributes it assigns as tensors of the traced graph. On an "
        "object the function does not own (a global, or an enclosing function's variable) that tensor would stay "
        "after the function returns, in place of the value of each run, so the statement refuses it.",
        "CFG = {'scale': 1}\n\n\n@tf.function\ndef f(x):\n    if x > 0:\n        CFG['scale'] = 2\n"
        "    return x * CFG['scale']\n",
        "f(tf.constant(3))",
        "keep the value in a variable of the function and return it; set the global with it, outside.",
        "@tf.function\ndef f(x):\n    scale = 1\n    if x > 0:\n        scale = 2\n    return x * scale, scale\n"),
    ErrorCase(
        "`StagingError`: a helper that changes a global (a cache, a counter) called in a tensor `if` or loop",
        "The functions of yours a staged statement calls are followed, however deep, for the globals they read: "
        "a change to one of them (a memo cache's new entry, a counter's attribute, a set's new element, a "
        "global of another module) would be made once, when the function is traced, on every path.",
        "CACHE = {}\n\n\ndef squared(k):\n    if k not in CACHE:\n        CACHE[k] = k * k\n    return CACHE[k]\n\n\n"
        "@tf.function\ndef f(x):\n    y = 0\n    if x > 0:\n        y = squared(3)\n    return y\n",
        "f(tf.constant(3))",
        "fill the cache before the statement (a cache that does not change while the statement is traced is "
        "read freely), or compute the value without it.",
        "CACHE = {}\n\n\ndef squared(k):\n    if k not in CACHE:\n        CACHE[k] = k * k\n    return CACHE[k]\n\n\n"
        "@tf.function\ndef f(x):\n    y = 0\n    nine = squared(3)\n    if x > 0:\n        y = nine\n    return y\n"),
    ErrorCase(
        "`StagingError`: an item or attribute created in only one branch of a tensor `if`",
        "A staged `if` carries the items and attributes it sets, including those it creates; one created on "
        "one path only has no value on the other, which a graph can't express.",
        "@tf.function\ndef f(x):\n    d = {}\n    if x > 0:\n        d['sign'] = 1\n    return d.get('sign', 0)\n",
        "f(tf.constant(3))",
        "set it before the `if` (to a value of the same type), or in both branches.",
        "@tf.function\ndef f(x):\n    d = {'sign': 0}\n    if x > 0:\n        d['sign'] = 1\n    return d['sign']\n"),
    ErrorCase(
        "`StagingError`: an item or attribute first set inside a tensor loop",
        "A loop over tensors carries the items and attributes it sets from one iteration to the next: one "
        "that does not exist before the loop has no initial value.",
        "@tf.function\ndef f(n):\n    d = {}\n    for i in range(n):\n        d['last'] = i\n    return d['last']\n",
        "f(tf.constant(3))",
        "set it before the loop, to a value of the type the loop gives it.",
        "@tf.function\ndef f(n):\n    d = {'last': 0}\n    for i in range(n):\n        d['last'] = i\n"
        "    return d['last']\n"),
    ErrorCase(
        "`StagingError`: a property (or a `__setattr__`/`__setitem__` of the class) assigned in a tensor `if` or loop",
        "A staged statement carries an attribute or item by storing it and reading it back at the start of each "
        "branch or iteration and after the statement. A store that runs Python code of the object's class (a "
        "property's setter, a `__setattr__` or `__setitem__` defined in Python) would run more often than in "
        "Python and may give back another value, so it is refused.",
        "class Celsius:\n    def __init__(self):\n        self._kelvin = 273.0\n\n    @property\n"
        "    def degrees(self):\n        return self._kelvin - 273.0\n\n    @degrees.setter\n"
        "    def degrees(self, value):\n        self._kelvin = value + 273.0\n\n\n@tf.function\ndef f(x):\n"
        "    c = Celsius()\n    if x > 0:\n        c.degrees = x\n    return c.degrees\n",
        "f(tf.constant(4.0))",
        "compute the value in a local variable in the statement and assign the property after it.",
        "class Celsius:\n    def __init__(self):\n        self._kelvin = 273.0\n\n    @property\n"
        "    def degrees(self):\n        return self._kelvin - 273.0\n\n    @degrees.setter\n"
        "    def degrees(self, value):\n        self._kelvin = value + 273.0\n\n\n@tf.function\ndef f(x):\n"
        "    c = Celsius()\n    degrees = c.degrees\n    if x > 0:\n        degrees = x\n    c.degrees = degrees\n"
        "    return c.degrees\n"),
    ErrorCase(
        "`StagingError`: a tensor-dependent `break` in a loop over a Python list",
        "A loop over a Python list is unrolled while tracing, so it can't stop at a point only known "
        "when the graph runs.",
        "@tf.function\ndef first_above(x):\n    found = tf.constant(-1)\n    for i in [1, 2, 3]:\n        if x > i:\n"
        "            found = tf.constant(i)\n            break\n    return found\n",
        "first_above(tf.constant(3))",
        "loop over a tensor (or `tf.range`) so the loop itself is staged.",
        "@tf.function\ndef first_above(x):\n    found = tf.constant(-1)\n    for i in tf.constant([1, 2, 3]):\n"
        "        if x > i:\n            found = i\n            break\n    return found\n"),
    ErrorCase(
        "`StagingError`: `return` inside a tensor loop, of a value whose shape is not known",
        "A `return` inside a loop over tensors is supported: on the iterations that don't return, a "
        "placeholder of the returned value's dtype and shape stands in. That needs a fully known "
        "shape.",
        "@tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])\ndef f(x):\n    for i in tf.range(3):\n"
        "        if i > 1:\n            return x * i\n    return x\n",
        "f(tf.constant([1, 2]))",
        "assign the result to a variable defined before the loop, `break`, and return it after the loop.",
        "@tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])\ndef f(x):\n    result = x\n"
        "    for i in tf.range(3):\n        if i > 1:\n            result = x * i\n            break\n"
        "    return result\n"),
    ErrorCase(
        "`StagingError`: iterating over a scalar tensor",
        "A `for` loop over a tensor iterates over its first axis; a scalar has none.",
        "@tf.function\ndef total(x):\n    s = 0\n    for v in x:\n        s += v\n    return s\n",
        "total(tf.constant(3))",
        "iterate over `tf.range(x)` if you meant a count, or pass a vector.",
        "@tf.function\ndef total(x):\n    s = 0\n    for v in tf.range(x):\n        s += v\n    return s\n"),
    ErrorCase(
        "`StagingError`: `zip(..., strict=True)` over tensors of unknown length",
        "A staged `zip(..., strict=True)` checks the lengths that the graph's shapes know, as Python does (a "
        "ValueError while tracing); lengths known only when the graph runs can't be checked while tracing.",
        "vector = tf.TensorSpec([None], tf.int32)\n\n\n"
        "@tf.function(input_signature=[vector, vector])\ndef dot(x, y):\n    s = 0\n"
        "    for a, b in zip(x, y, strict=True):\n        s += a * b\n    return s\n",
        "dot(tf.constant([1, 2]), tf.constant([3, 4]))",
        "drop `strict=True` and check the lengths with `tf.debugging.assert_equal`.",
        "vector = tf.TensorSpec([None], tf.int32)\n\n\n"
        "@tf.function(input_signature=[vector, vector])\ndef dot(x, y):\n"
        "    tf.debugging.assert_equal(tf.size(x), tf.size(y))\n    s = 0\n"
        "    for a, b in zip(x, y):\n        s += a * b\n    return s\n"),
    ErrorCase(
        "`StagingError`: `pop` inside a larger expression, on a tensor list",
        "A list appended to in a loop over tensors is a tensor list (after the loop, the stacked tensor). "
        "A `pop` must replace it with a shorter one, which only a `pop` statement of its own can do; "
        "inside a larger expression `pop` is Python's.",
        "@tf.function\ndef top_two(n):\n    stack = [0]\n    for i in tf.range(n):\n        stack.append(i * i)\n"
        "    return stack.pop() + stack.pop()\n",
        "top_two(tf.constant(4))",
        "pop into variables first, one `pop` per statement.",
        "@tf.function\ndef top_two(n):\n    stack = [0]\n    for i in tf.range(n):\n        stack.append(i * i)\n"
        "    first = stack.pop()\n    second = stack.pop()\n    return first + second\n"),
    ErrorCase(
        "`StagingError`: `and`/`or` on tensors of two dtypes",
        "On a tensor that is not bool, `x or y` gives an operand, as Python does (`x` where it is "
        "non-zero, else `y`): a Python number takes the tensor's dtype, but operands of two dtypes can't "
        "be one graph value, which has one dtype.",
        "@tf.function\ndef with_default(x):\n    return x or 2.5\n",
        "with_default(tf.constant(0))",
        "make the operands one dtype (`tf.cast(x, tf.float32) or 2.5`); in a condition, compare "
        "explicitly (`x != 0`).",
        "@tf.function\ndef with_default(x):\n    return tf.cast(x, tf.float32) or 2.5\n"),
    ErrorCase(
        "`DTypeNotAllowedError` (runtime): arithmetic or ordering on bool tensors",
        "`+ - / // % **`, `maximum`, `minimum`, `matmul` and `< <= > >=` are not defined on bool "
        "tensors, as in TensorFlow (Python would count `True` as 1; `*` of bools is their logical and, as "
        "TensorFlow's). It is a `TypeError` and an `InvalidArgumentError`.",
        "@tf.function\ndef count_positive(x):\n    return (x > 0) + (x > 2)\n",
        "count_positive(tf.constant(3))",
        "cast the comparisons to a number first.",
        "@tf.function\ndef count_positive(x):\n    return tf.cast(x > 0, tf.int32) + tf.cast(x > 2, tf.int32)\n"),
    ErrorCase(
        "`PythonValueDTypeError` (runtime): a Python float beside an int tensor",
        "A Python (or NumPy) value takes the dtype of the tensor beside it where it converts to it exactly; a "
        "float does not convert to an int tensor's dtype, and the runtime never converts dtypes implicitly. "
        "It is a `TypeError` (TensorFlow's \"Cannot convert 2.5 to EagerTensor of dtype int32\") and an "
        "`InvalidArgumentError`.",
        "@tf.function\ndef scale(n):\n    return n * 2.5\n",
        "scale(tf.constant(3))",
        "cast the tensor to a float dtype first.",
        "@tf.function\ndef scale(n):\n    return tf.cast(n, tf.float32) * 2.5\n",
        "scale(tf.constant(3))"),
    ErrorCase(
        "`ControlFlowError` (runtime): a tensor loop that never ends",
        "A staged `while` whose condition is true before the loop and stays the same true constant after "
        "every iteration, with nothing else leaving the loop, would run forever, as Python would (or be "
        "skipped, if nothing used its results). It is refused when it is traced.",
        "@tf.function\ndef spin():\n    c = True\n    while c:\n        c = tf.constant(True)\n    return 1\n",
        "spin()",
        "give the loop a condition that can become false, a `break`, or `maximum_iterations`.",
        "@tf.function\ndef spin(n):\n    c = True\n    i = 0\n    while c:\n        i += 1\n        c = i < n\n"
        "    return i\n",
        "spin(tf.constant(3))"),
    ErrorCase(
        "`UnsupportedCapabilityError`: a backend that lacks a construct",
        "A framework registers what it supports through `autograph.backends`; a construct it provides "
        "nothing for fails with the construct and the framework named. (This toy backend stages "
        "`Toy` values but gives no while loop.)",
        "from autograph import backends\n\n\nclass Toy:\n    def __gt__(self, other):\n        return self\n\n\n"
        "def count(x):\n    n = 0\n    while x > 0:\n        n += 1\n    return n\n\n\n"
        "def try_toy():\n    backends.register_backend(backends.Backend(name='toy', staged_types=(Toy,)))\n"
        "    try:\n        return ag.convert(count)(Toy())\n    finally:\n        backends.unregister_backend('toy')\n",
        "try_toy()",
        "use the construct on Python values, the framework's own API, or add the capability to the "
        "backend (see [backends.md](backends.md))."),
    ErrorCase(
        "`OperatorNotAllowedInGraphError` (runtime): a tensor used as a Python `bool` without AutoGraph",
        "With `autograph=False` (or in a function marked `do_not_convert`) a Python `if` on a "
        "symbolic tensor needs its value while tracing, which does not exist yet.",
        "@tf.function(autograph=False)\ndef relu(x):\n    if x > 0:\n        return x\n    return tf.zeros_like(x)\n",
        "relu(tf.constant(-1))",
        "leave AutoGraph on (the default), or write the control flow with `tf.cond`.",
        "@tf.function\ndef relu(x):\n    if x > 0:\n        return x\n    return tf.zeros_like(x)\n"),
    ErrorCase(
        "`InvalidArgumentError` / `AssertionError`: `assert`",
        "`assert` keeps Python's meaning on Python values (an `AssertionError`); on tensors in a graph it "
        "becomes an `Assert` op that raises the runtime's `InvalidArgumentError` when the graph runs.",
        "@tf.function\ndef positive(x):\n    assert x > 0, 'x must be positive'\n    return x\n",
        "positive(tf.constant(-1))",
        "this is the assertion doing its job: pass valid inputs, or catch `tf.errors.InvalidArgumentError`.",
        "@tf.function\ndef positive(x):\n    assert x > 0, 'x must be positive'\n    return x\n",
        "positive(tf.constant(2))"),
    ErrorCase(
        "`UnboundLocalError`: a variable undefined on the path taken, on Python values",
        "On Python values converted code keeps Python's semantics, including its error for a variable "
        "that was never assigned on the path taken.",
        "def f(x):\n    if x > 0:\n        y = 1\n    return y\n",
        "ag.convert(f)(-1)",
        "assign the variable on every path.",
        "def f(x):\n    y = 0\n    if x > 0:\n        y = 1\n    return y\n"),
]

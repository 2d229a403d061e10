"""The generated code on Python values is the user's statements on the user's variables (docs/guarantees.md §1).

Branch and loop-body functions share the function's variables through `nonlocal`, so what Python shows
a closure, a lambda, an exception handler or an iterator, the generated code shows too. Each test runs the
generated code (not the original fast path) and compares with the original.
"""
import re
import warnings

import pytest

import autograph as ag
from autograph import api
from autograph.errors import ConversionError


@pytest.fixture(autouse=True)
def generated_code():
    api.run_generated_code(True)
    yield
    api.run_generated_code(False)


def _same(fn, *args):
    expected = fn(*args)
    assert ag.convert(fn)(*args) == expected
    return expected


def partial_sum(xs):
    total = 0
    try:
        for x in xs:
            total += 10 // x
    except ZeroDivisionError:
        pass
    return total


def countdown_until_error(n):
    steps = []
    try:
        while True:
            steps.append(n)
            n = 10 // n
            n -= 1
    except ZeroDivisionError:
        return steps, n


def test_an_exception_leaving_a_loop_keeps_its_assignments():
    assert _same(partial_sum, [1, 2, 0, 5]) == 15
    assert _same(countdown_until_error, 3) == ([3, 2, 4, 1, 9, 0], 0)


def make_adders(n):
    adders = []
    for i in range(n):
        adders.append(lambda v: v + i)
    return [add(10) for add in adders]


def test_lambdas_made_in_a_loop_late_bind():
    assert _same(make_adders, 3) == [12, 12, 12]


def peek_while_looping(n):
    seen = []
    x = 0

    def peek():
        seen.append(x)

    while x < n:
        x += 1
        peek()
    return seen


def test_a_closure_sees_the_variable_while_the_loop_runs():
    assert _same(peek_while_looping, 3) == [1, 2, 3]


def defined_in_a_branch(flag):
    if flag:
        import math as lib

        def g():
            return 1

        class C:
            kind = "first"
    else:
        import os as lib

        def g():
            return 2

        class C:
            kind = "second"
    return g(), lib.__name__, C.kind


def test_def_class_and_import_in_a_branch_bind_the_functions_names():
    assert _same(defined_in_a_branch, True) == (1, "math", "first")
    assert _same(defined_in_a_branch, False) == (2, "os", "second")


def first_two_then_next(items):
    it = iter(items)
    for x in it:
        if x == 2:
            break
    return next(it)


def test_a_for_with_break_takes_no_extra_item_from_an_iterator():
    assert _same(first_two_then_next, [1, 2, 3, 4]) == 3


def read_unbound_in_a_loop(flag):
    if flag:
        y = 1
    total = 0
    for _ in range(2):
        total += y
    return total


def test_an_unbound_read_inside_a_converted_statement_is_python_s_unbound_local_error():
    """A branch or body reads the variable through `nonlocal`, where Python says NameError ("free variable");
    the converted function raises what the user's function raises."""
    with pytest.raises(UnboundLocalError, match="cannot access local variable 'y'"):
        read_unbound_in_a_loop(False)
    with pytest.raises(UnboundLocalError, match="cannot access local variable 'y'"):
        ag.convert(read_unbound_in_a_loop)(False)
    assert _same(read_unbound_in_a_loop, True) == 2


def test_an_unbound_read_in_a_nested_function_stays_a_name_error_as_in_python():
    def f(flag):
        def g():
            return y
        if flag:
            y = 1
        return g()

    with pytest.raises(NameError) as python:
        f(False)
    with pytest.raises(NameError) as converted:
        ag.convert(f)(False)
    assert type(python.value) is type(converted.value) is NameError



def test_functions_and_classes_defined_in_converted_statements_keep_their_qualnames():
    def f(x):
        if x > 0:
            def h(v):
                return lambda: v
        else:
            def h(v):
                return v
        for i in range(2):
            g = lambda: i   # noqa: E731
        class C:
            def m(self):
                return 1
        return h, h(1), g, C, C.m

    names = [o.__qualname__ for o in f(1)]
    prefix = f.__qualname__ + ".<locals>."
    assert names == [prefix + n for n in ("h", "h.<locals>.<lambda>", "<lambda>", "C", "C.m")]
    assert [o.__qualname__ for o in ag.convert(f).generated(1)] == names   # not ...if_true.<locals>.h


def comprehension_shadowing(a):
    x = a
    z = 0
    n = 0
    while n < 2:
        n += 1
        if a != sum([z * 2 + x for z in range(3)]):   # the comprehension's own `z`
            continue
        if n % 2 <= z:                                 # the function's `z`, read in a branch
            x = x % 1000
        else:
            x = z + 9 - a
    return x, z


def test_a_comprehension_variable_named_like_a_function_variable_keeps_both_apart():
    """The converter gives the comprehension's variable a name of its own: since Python 3.12 the comprehension
    is inlined, and in the branch and loop-body functions of the converted code CPython's gh-121377 bound the
    branch's `z` to the comprehension's (NameError: cannot access free variable 'z'; found by the fuzzer on
    Python 3.12 and 3.13)."""
    import runtime as tf

    for a in (1, 9):
        expected = comprehension_shadowing(a)
        api.run_generated_code(True)
        try:
            assert ag.convert(comprehension_shadowing)(a) == expected
        finally:
            api.run_generated_code(False)
        got = tf.function(comprehension_shadowing)(tf.constant(a))
        assert tuple(int(v) for v in got) == expected
    code = ag.to_code(comprehension_shadowing)
    assert "for z_1 in" in code and "[z_1 * 2 + x for z_1 in" in code


k = 100   # a global named like the comprehension variable below: what a converted lambda read by mistake


def lambdas_in_a_renamed_comprehension(x):
    scaled = [lambda v: v * k for k in range(3)]            # each reads the comprehension's `k` (2 at the end)
    nested = [lambda v: (lambda w: w + k)(v) * k for k in range(3)]
    own = [lambda k: k * 2 for k in range(3)]               # its own `k`, called by keyword below
    with_default = [lambda v, m=k: v * m for k in range(3)]
    k = 5
    return ([f(x) for f in scaled], [f(x) for f in nested], own[0](k=x), [f(x) for f in with_default], k)


def test_a_lambda_in_a_renamed_comprehension_reads_the_comprehension_variable():
    """The comprehension's `k` is renamed `k_1` (above); a lambda inside it that reads it is converted again,
    from its source (`k`), when converted code calls it: that conversion renames it too. It read the global
    `k` (300 where Python gives 6), silently, in `runtime.function` and in the generated code."""
    import runtime as tf

    expected = ([4, 4, 4], [8, 8, 8], 4, [0, 2, 4], 5)
    assert lambdas_in_a_renamed_comprehension(2) == expected
    api.run_generated_code(True)
    try:
        assert ag.convert(lambdas_in_a_renamed_comprehension)(2) == expected
    finally:
        api.run_generated_code(False)
    got = tf.function(lambdas_in_a_renamed_comprehension)(tf.constant(2))
    scaled, nested, own, with_default, last = got
    assert ([int(v) for v in scaled], [int(v) for v in nested], int(own), [int(v) for v in with_default],
            int(last)) == expected
    assert "lambda v: v * k_1 for k_1 in" in ag.to_code(lambdas_in_a_renamed_comprehension)


# --- builtins that read the calling frame's variables ---------------------------------------------------
# Converted code runs the statements in branch and loop-body functions and calls builtins through
# converted_call: `locals()` in a branch gave converted_call's own variables (['args', 'caller_fn_scope', ...]),
# and `eval('a')` read a global `a` where the function has its own.

a = "the global a"


def locals_in_a_branch(x):
    b = 1
    if x > 0:
        return sorted(locals())
    return b


def eval_in_a_loop(x):
    a = 0
    for i in range(x):
        a = eval("a + i")
    return a


def vars_after_a_loop(x):
    for i in range(x):
        pass
    return sorted(vars())


def dir_at_the_top(x):
    return dir()


def exec_in_a_branch(x):
    if x:
        exec("x = 5")
    return x


def namespaces_given(x):
    a = 2
    if x > 0:
        return eval("a * x", globals(), {"a": a, "x": x}), vars(api).get("__name__"), dir(api)[:1]
    return None


def locals_of_its_own(x):
    locals = lambda: {"mine": x}   # noqa: E731
    if x > 0:
        return locals()
    return None


@pytest.mark.parametrize("fn, call", [(locals_in_a_branch, "locals()"), (eval_in_a_loop, "eval(...)"),
                                      (vars_after_a_loop, "vars()"), (dir_at_the_top, "dir()"),
                                      (exec_in_a_branch, "exec(...)")])
def test_a_builtin_reading_the_callers_variables_is_refused(fn, call):
    with pytest.raises(ConversionError, match=re.escape(f"`{call}`")):
        ag.convert(fn)


def test_a_helper_reading_the_callers_variables_runs_as_python_runs_it():
    def caller(x):
        return locals_in_a_branch(x), eval_in_a_loop(x)

    api.run_generated_code(True)
    try:
        with pytest.warns(RuntimeWarning, match="runs it as is"):
            assert ag.convert(caller)(3) == (["b", "x"], 3) == caller(3)
    finally:
        api.run_generated_code(False)


@pytest.mark.parametrize("fn", [namespaces_given, locals_of_its_own])
def test_namespaces_given_and_a_locals_of_its_own_are_converted(fn):
    api.run_generated_code(True)
    try:
        assert ag.convert(fn)(3) == fn(3)
    finally:
        api.run_generated_code(False)


SCALE = 7


def module_globals_in_a_branch(x):
    g = globals
    if x > 0:
        return eval("SCALE * x", globals(), {"x": x}), globals() is g(), "SCALE" in g()
    return globals()["SCALE"]


def test_globals_is_the_functions_module_namespace():
    # through `converted_call`, Python's `globals` gave autograph's own module's namespace: no SCALE there
    assert ag.convert(module_globals_in_a_branch)(3) == (21, True, True) == module_globals_in_a_branch(3)
    assert ag.convert(module_globals_in_a_branch)(-1) == 7


# --- private names of methods, mangled as Python mangles them in the class body --------------------------
# The converted method is compiled outside the class: `self.__total` was the attribute `__total`, not the
# `_Account__total` that the class's other methods (and Python) use, so a staged update was not seen by them.

class Account:
    def __init__(self):
        self.__total = 0

    def deposit(self, n):
        i = 0
        while i < n:
            self.__total = self.__total + self.__step(i)
            i += 1
        return self.__total

    def __step(self, i, *, __scale=2):
        return i * __scale

    def scaled(self, n):
        return (lambda __by: n * __by)(3)   # a lambda with a private parameter is found and converted

    def reset(self, n):
        if n > 0:
            self.__total = n
        else:
            self.__total = -n
        return n

    def total(self):   # not converted: reads the mangled attribute
        return self.__total


def deposit_and_read(n):
    account = Account()
    account.deposit(n)
    return account.total()


def reset(account, n):
    account.reset(n)
    return n


def test_a_methods_private_names_are_mangled_as_in_its_class():
    import runtime as tf

    api.run_generated_code(True)
    try:
        account = Account()
        ag.convert(reset)(account, 4)
        assert account.total() == 4   # was 0: the converted method had set `__total`
        assert ag.convert(deposit_and_read)(4) == deposit_and_read(4) == 12
        with warnings.catch_warnings():
            warnings.simplefilter("error")   # not run unconverted, with a warning
            assert ag.convert(Account().scaled)(2) == 6
    finally:
        api.run_generated_code(False)
    assert int(tf.function(deposit_and_read)(tf.constant(4))) == 12
    assert "self._Account__total = self._Account__total + ag__.callee(self._Account__step, fscope)(i)" in ag.to_code(
        Account.deposit)


COUNT = 0


def global_after_continue(a):
    n = 1
    while (n := n - 1) >= 0:
        continue
        if a > 100:
            global COUNT
            COUNT = COUNT + 1
    COUNT = COUNT + 4
    return COUNT


def global_after_return(a):
    if a > 0:
        return a
        global COUNT
    COUNT = COUNT + 1
    return COUNT


def nonlocal_after_break(a):
    k = 0

    def bump():
        for _ in range(3):
            break
            nonlocal k
        k = k + a
    bump()
    return k


@pytest.mark.parametrize("fn", [global_after_continue, global_after_return, nonlocal_after_break])
def test_a_declaration_in_code_after_a_jump_holds_for_the_whole_function(fn):
    # Python's `global` and `nonlocal` hold wherever they stand; the converter dropped the code after a
    # `continue`, `return` or `break` with them, and `COUNT = COUNT + 4` became an UnboundLocalError
    # (the python generator's seed 79107, mode b)
    global COUNT
    for a in (0, 2):
        COUNT = 0
        expected = fn(a), COUNT
        COUNT = 0
        assert (ag.convert(fn)(a), COUNT) == expected

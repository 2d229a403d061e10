"""Names the generated code makes never collide with the user's (issue 13, cause 9).

Every generated identifier comes from one `naming.Namer` that avoids every name the function uses
(locals, parameters, globals and closure variables it reads, nested functions' names). Each case
runs three ways: the generated code on Python values, `runtime.function` on Python values, and
`runtime.function` on a tensor where the condition can be one.
"""
import pytest

import autograph as ag
import runtime as tf
from autograph import api
from autograph.pyct import naming
import gast

ag__ = 10          # a global named like the module alias, read by user_global_ag below
retval_ = 7        # a global named like the return value, read only by a nested function below


def three_ways(fn, *args):
    expected = fn(*args)
    api.run_generated_code(True)
    try:
        assert ag.convert(fn)(*args) == expected
    finally:
        api.run_generated_code(False)
    assert tf.function(fn)(*args) == expected
    return expected


def local_do_return(x):
    do_return = 3
    if x > 100:
        return 0
    return sum(range(do_return)) + x


def local_do_return_in_a_loop(x):
    do_return = 3
    for i in range(x):
        if i > 100:
            return 0
    return sum(range(do_return)) + x


def local_retval(x):
    retval_ = 5
    if x > 0:
        return retval_ + x
    return retval_


def local_fscope(x):
    fscope = 2
    if x > 0:
        return fscope * x
    return fscope


def local_ag(x):
    ag__ = 3
    if x > 0:
        x = x + ag__
    return x * ag__


def local_break_flag(n):
    break_ = 0
    for i in range(n):
        break_ += i
        if i == 3:
            break
    return break_


def local_continue_flag(n):
    continue_ = 0
    i = 0
    while i < n:
        i += 1
        if i % 2 == 0:
            continue
        continue_ += i
    return continue_


def if_true(v):
    return v + 100


def user_function_named_like_a_branch(x):
    if x > 0:
        y = if_true(x)
    else:
        y = -x
    return y


def loop_names(n):
    loop_body, loop_test, iteration_ = 1, 2, 3
    s = 0
    while s < n:
        s += loop_body + loop_test + iteration_
    return s


def nested_reads_do_return(x):
    def g():
        return do_return * 2
    do_return = 4
    if x > 0:
        return g()
    return 0


def user_global_ag(x):
    if x > 0:
        return x + ag__
    return ag__


def nested_reads_global_retval(x):
    def g():
        return retval_ * 2
    if x > 0:
        return g() + x
    return 0


CASES = [local_do_return, local_do_return_in_a_loop, local_retval, local_fscope, local_ag, user_function_named_like_a_branch,
         nested_reads_do_return, user_global_ag, nested_reads_global_retval]


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
@pytest.mark.parametrize("x", [3, -2])
def test_user_names_like_generated_ones(fn, x):
    three_ways(fn, x)


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
def test_user_names_like_generated_ones_with_a_tensor_condition(fn):
    expected = fn(3)
    assert tf.function(fn)(tf.constant(3)).numpy() == expected


@pytest.mark.parametrize("fn", [local_break_flag, local_continue_flag, loop_names], ids=lambda f: f.__name__)
def test_loop_flags_and_bodies(fn):
    three_ways(fn, 6)
    assert tf.function(fn)(tf.constant(6)).numpy() == fn(6)


def test_the_do_return_example_of_the_issue():
    def f(x):
        do_return = 3
        return sum(range(do_return))

    assert three_ways(f, 0) == 3


def test_to_code_uses_fresh_names_and_still_runs_as_printed():
    code = ag.to_code(local_ag)
    assert code.startswith("import autograph as ag___1\n")
    assert "ag___1.FunctionScope" in code and "ag__ = 3" in code
    code = ag.to_code(local_do_return)
    assert "do_return_1 = False" in code and "do_return = 3" in code
    namespace = {}
    exec(compile("import autograph as ag__\n" + ag.to_code(local_fscope), "<to_code>", "exec"), namespace)
    assert namespace["ag__local_fscope"](3) == 6
    exec(compile(ag.to_code(local_ag), "<to_code>", "exec"), namespace)    # carries its own import
    assert namespace["ag__local_ag"](3) == 18


def test_the_namer_avoids_every_name_the_function_uses():
    tree = gast.parse("def f(x):\n    import os.path as do_return\n    from m import retval_\n    global fscope\n"
                      "    match x:\n        case [loop_body, *if_true]: pass\n        case {**if_false}: pass\n"
                      "    def g(): return break_\n")
    namer = naming.Namer.for_tree(tree)
    for base in ("do_return", "retval_", "fscope", "loop_body", "if_true", "if_false", "break_", "g", "x"):
        assert namer.new(base) == f"{base}_1"


def test_cli_refuses_a_function_that_uses_ag__(tmp_path):
    from autograph import modules
    from autograph.errors import ConversionError

    source = "def f(x):\n    ag__ = 1\n    if x:\n        return ag__\n    return 0\n"
    with pytest.raises(ConversionError, match="uses the name `ag__`"):
        modules._converted_tree(__import__("ast").parse(source).body[0], "m.py", True, [])

"""Golden text of generated code, one construct at a time."""
import textwrap

import autograph as ag


def calc(a, b, c):
    d = a * b + c
    e = a * b * c
    return d, e


def test_seed000_calc_scaffold():
    assert ag.to_code(calc) == textwrap.dedent("""\
        def ag__calc(a, b, c):
            with ag__.FunctionScope('calc', 'fscope', ag__.ConversionOptions(recursive=True)) as fscope:
                do_return = False
                retval_ = ag__.UndefinedReturnValue()
                d = a * b + c
                e = a * b * c
                retval_ = (d, e)
                do_return = True
                return fscope.ret(retval_, do_return)
        """)


def relu(x):
    if x > 0:
        y = x
    else:
        y = 0
    return y


def test_if_else_branches_share_the_variables_through_nonlocal():
    lines = [line.strip() for line in ag.to_code(relu).splitlines()]
    start = lines.index("def if_true():")
    assert lines[start:start + 9] == [
        "def if_true():", "nonlocal y", "y = x", "",
        "def if_false():", "nonlocal y", "y = 0",
        "ag__.if_stmt(x > 0, if_true, if_false, ('y',))",
        "retval_ = y"]
    assert lines.index("y: ag__.Local") < start  # declared at the top of the function, unbound


def count(n):
    i = 0
    s = 0
    while i < n:
        s += i
        i += 1
    return s


def test_while_state_is_modified_and_live_variables_only():
    code = ag.to_code(count)
    assert "def loop_test():\n" in code
    assert "def loop_body():\n            nonlocal i, s\n" in code
    assert "ag__.while_stmt(loop_test, loop_body, ('i', 's'))" in code


def first_negative(xs):
    for x in xs:
        if x < 0:
            return x
    return None


def test_return_inside_for_uses_extra_test():
    code = ag.to_code(first_negative)
    assert "def extra_test():" in code
    assert "return ag__.not_(do_return)" in code
    assert "ag__.for_stmt(xs, loop_body, ('do_return', 'retval_'), extra_test=extra_test)" in code


def logic(a, b):
    return a and not b or b


def test_logical_expressions_are_lazy():
    assert "ag__.or_(lambda: ag__.and_(lambda: a, lambda: ag__.not_(b)), lambda: b)" \
        in ag.to_code(logic)


def test_generated_code_runs_standalone_with_import_autograph_as_ag__():
    namespace = {}
    exec("import autograph as ag__\n" + ag.to_code(count), namespace)
    assert namespace["ag__count"](5) == 10

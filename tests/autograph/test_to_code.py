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
                d = ag__.ld(a) * ag__.ld(b) + ag__.ld(c)
                e = ag__.ld(a) * ag__.ld(b) * ag__.ld(c)
                retval_ = (ag__.ld(d), ag__.ld(e))
                do_return = True
                return fscope.ret(retval_, do_return)
        """)


def relu(x):
    if x > 0:
        y = x
    else:
        y = 0
    return y


def test_if_else_becomes_functional_state():
    lines = [line.strip() for line in ag.to_code(relu).splitlines()]
    start = lines.index("def if_true(y):")
    assert lines[start:start + 9] == [
        "def if_true(y):", "y = ag__.ld(x)", "return y", "",
        "def if_false(y):", "y = 0", "return y",
        "y = ag__.if_stmt(ag__.ld(x) > 0, if_true, if_false, (y,), ('y',))",
        "retval_ = ag__.ld(y)"]
    assert lines.index("y = ag__.Undefined('y')") < start  # at the top of its scope


def count(n):
    i = 0
    s = 0
    while i < n:
        s += i
        i += 1
    return s


def test_while_state_is_modified_and_live_variables_only():
    code = ag.to_code(count)
    assert "def loop_test(i, s):" in code
    assert "def loop_body(i, s):" in code
    assert "i, s = ag__.while_stmt(loop_test, loop_body, (i, s), ('i', 's'))" in code


def first_negative(xs):
    for x in xs:
        if x < 0:
            return x
    return None


def test_return_inside_for_uses_extra_test():
    code = ag.to_code(first_negative)
    assert "def extra_test(retval_, do_return):" in code
    assert "return ag__.not_(do_return)" in code
    assert "ag__.for_stmt(ag__.ld(xs), loop_body, (retval_, do_return), ('retval_', 'do_return'), " \
           "extra_test=extra_test)" in code


def logic(a, b):
    return a and not b or b


def test_logical_expressions_are_lazy():
    assert "ag__.or_(lambda: ag__.and_(lambda: ag__.ld(a), lambda: ag__.not_(ag__.ld(b))), lambda: ag__.ld(b))" \
        in ag.to_code(logic)


def test_generated_code_runs_standalone_with_import_autograph_as_ag__():
    namespace = {}
    exec("import autograph as ag__\n" + ag.to_code(count), namespace)
    assert namespace["ag__count"](5) == 10

"""pyct: annotations, unique names, templates, activity, parsing with origins, liveness."""
import inspect

import gast
import pytest

from autograph.pyct import activity, anno, liveness, naming, parser, templates
from autograph.pyct.anno import Key


def _stmts(src: str) -> list:
    return gast.parse(src).body


def test_anno_lives_in_one_attribute_and_defaults():
    node = gast.Pass()
    assert anno.get(node, Key.LIVE_IN, "none") == "none"
    assert not anno.has(node, Key.LIVE_IN)
    anno.set(node, Key.LIVE_IN, frozenset({"x"}))
    anno.set(node, Key.LIVE_OUT, frozenset())
    assert anno.get(node, Key.LIVE_IN) == {"x"} and anno.has(node, Key.LIVE_OUT)
    assert vars(node)[anno._ATTR].keys() == {Key.LIVE_IN, Key.LIVE_OUT}


def test_namer_avoids_user_names_and_its_own():
    namer = naming.Namer.for_tree(gast.parse("def if_true(x):\n    loop_body = x"))
    assert namer.new("if_true") == "if_true_1"
    assert namer.new("if_true") == "if_true_2"
    assert namer.new("loop_body") == "loop_body_1"
    namer.reserve("fresh")
    assert namer.new("fresh") == "fresh_1"


def test_template_replaces_names_nodes_and_statement_lists():
    value = gast.parse("a + 1").body[0].value
    body = _stmts("y = 2\nz = 3")
    (fn,) = templates.replace("def f():\n    body\n    target = value", body=body, target="x", value=value)
    assert gast.unparse(fn).strip() == "def f():\n    y = 2\n    z = 3\n    x = a + 1"
    assert isinstance(fn.body[2].targets[0].ctx, gast.Store)


def test_template_expression_and_fresh_copies():
    first = templates.replace_as_expression("ag__.ld(v)", v="q")
    second = templates.replace_as_expression("ag__.ld(v)", v="r")
    assert gast.unparse(first).strip() == "ag__.ld(q)"
    assert gast.unparse(second).strip() == "ag__.ld(r)"


@pytest.mark.parametrize("src, reads, writes", [
    ("x = y + z", {"y", "z"}, {"x"}),
    ("x += y", {"x", "y"}, {"x"}),
    ("a, (b, c) = t", {"t"}, {"a", "b", "c"}),
    ("import os.path as p, sys", set(), {"p", "sys"}),
    ("def g(u):\n    return w", set(), {"g"}),
    ("print((n := k + 1))", {"print", "k"}, {"n"}),
])
def test_activity_reads_and_writes(src, reads, writes):
    (stmt,) = _stmts(src)
    assert activity.simple_reads(stmt) >= reads
    assert activity.writes(stmt) == writes


@pytest.mark.parametrize("src, reads", [
    ("zs = [y * 2 for y in r]", {"r"}),
    ("zs = [y for y in y]", {"y"}),                       # the first iterable is evaluated outside
    ("zs = {k: v + w for k, v in d.items() if v}", {"d", "w"}),
    ("zs = [a for x in xs for a in x if a > t]", {"xs", "t"}),
    ("g = (y for y in range(n))", {"range", "n"}),
    ("zs = [[y for y in row] for row in m]", {"m"}),
    ("f = lambda y, *more, q=y0: y + q + c", {"y0", "c"}),
])
def test_comprehensions_and_lambdas_read_only_what_they_do_not_bind(src, reads):
    (stmt,) = _stmts(src)
    assert activity.reads(stmt) == reads


def test_activity_modified_descends_into_compound_statements_not_nested_scopes():
    stmts = _stmts(
        "for i in r:\n    if c:\n        a = 1\n    else:\n        b = 2\n"
        "with m() as f:\n    d = 3\n"
        "try:\n    e = 4\nexcept E as err:\n    g = 5\n"
        "def h():\n    inner = 6\n")
    assert activity.modified(stmts) == {"i", "a", "b", "f", "d", "e", "err", "g", "h"}


@pytest.mark.parametrize("src, chain", [
    ("self.count", ["self", "self.count"]),
    ("d['total']", ["d", "d['total']"]),
    ("self.stats['n'][0]", ["self", "self.stats", "self.stats['n']", "self.stats['n'][0]"]),
    ("a[-1].b", ["a", "a[-1]", "a[-1].b"]),
    ("x", None), ("d[k]", None), ("d[1:2]", None), ("d[True]", None), ("f().x", None), ("d[-'a']", None),
])
def test_composite_chain(src, chain):
    (stmt,) = _stmts(src)
    assert activity.composite_chain(stmt.value) == chain


def test_composite_writes_in_order_with_deletes_not_in_nested_scopes():
    stmts = _stmts(
        "for self.i in r:\n    if c:\n        a.x, (d['k'], *e.rest) = t\n    else:\n        a.x += 1\n"
        "with m() as w.f:\n    n.y: int = 3\n    n.z: int\n"
        "try:\n    d[0] = 4\nexcept E:\n    del q.r, s\n"
        "def h():\n    inner.v = 6\n"
        "x = lambda: 1\nd[k] = 7\nprint(p.q)\n")
    written, deleted = activity.composite_writes(stmts)
    assert list(written) == ["self.i", "a.x", "d['k']", "e.rest", "w.f", "n.y", "d[0]"]
    assert written["d['k']"] == ["d", "d['k']"] and deleted == {"q.r"}


def test_ordered_names_keeps_first_appearance():
    assert activity.ordered_names(_stmts("b = a\nc = b + a")) == ["b", "a", "c"]


def _sample(a, b):
    c = a + b
    return c


def test_parser_keeps_user_file_and_lines():
    parsed = parser.parse_function(_sample)
    lines, first = inspect.getsourcelines(_sample)
    assert parsed.filename == __file__ and not parsed.is_lambda
    assert parsed.node.name == "_sample" and parsed.node.lineno == first
    assign = parsed.node.body[0]
    assert assign.lineno == first + 1 and assign.col_offset == 4


def test_parser_finds_each_of_two_lambdas_on_one_line():
    double, inc = (lambda x: x * 2), (lambda y: y + 1)  # noqa: E731
    for fn, arg in ((double, "x"), (inc, "y")):
        parsed = parser.parse_function(fn)
        assert parsed.is_lambda
        assert [a.id for a in parsed.node.args.args] == [arg]


def _returned(f):
    return f


def test_parser_finds_a_lambda_on_a_continuation_line_of_a_call():
    # the lambda's line, `    lambda w: [v * 3 for v in w])`, closes a parenthesis it doesn't open: no fragment
    # of its lines parses, and converting it was a ConversionError; the whole file has it
    sample = _returned(
        lambda w: [v * 3 for v in w if v > 0])
    parsed = parser.parse_function(sample)
    assert parsed.is_lambda and [a.id for a in parsed.node.args.args] == ["w"]
    assert parsed.node.lineno == sample.__code__.co_firstlineno
    import autograph as ag
    assert ag.convert(sample)([1, -2, 4]) == [3, 12]


def test_parser_without_source_raises_source_unavailable():
    fn = eval("lambda q: q")  # no file to read
    with pytest.raises(parser.SourceUnavailableError):
        parser.parse_function(fn)


def _analysed(src: str) -> gast.FunctionDef:
    (fn,) = _stmts(src)
    liveness.analyse(fn, {a.id for a in fn.args.args})
    return fn


def test_liveness_of_if_is_only_what_is_read_later():
    fn = _analysed(
        "def f(x):\n"
        "    t = 0\n"
        "    if x:\n"
        "        y = 1\n"
        "        t = 2\n"
        "    else:\n"
        "        y = 3\n"
        "    return y\n")
    if_stmt = fn.body[1]
    assert anno.get(if_stmt, Key.LIVE_OUT) == {"y"}
    assert anno.get(if_stmt, Key.LIVE_IN) == {"x"}
    assert anno.get(fn.body[2], Key.DEFINED_IN) == {"x", "t", "y"}


def test_liveness_of_loop_head_includes_next_iteration_and_test():
    fn = _analysed(
        "def f(n):\n"
        "    i = 0\n"
        "    s = 0\n"
        "    tmp = 0\n"
        "    while i < n:\n"
        "        tmp = i * 2\n"
        "        s = s + tmp\n"
        "        i = i + 1\n"
        "    return s\n")
    loop = fn.body[3]
    assert anno.get(loop, Key.LIVE_IN) == {"i", "n", "s"}
    assert anno.get(loop, Key.LIVE_OUT) == {"s"}


def test_definite_assignment_after_one_sided_if():
    fn = _analysed(
        "def f(c):\n"
        "    if c:\n"
        "        only = 1\n"
        "    return 0\n")
    assert anno.get(fn.body[1], Key.DEFINED_IN) == {"c"}


def _transformed(src: str, transformer_cls) -> str:
    from autograph.pyct.transformer import Context
    (fn,) = _stmts(src)
    ctx = Context(namer=naming.Namer.for_tree(fn), filename="<test>", function_name="f", params=set(),
                  user_locals=set())
    return gast.unparse(transformer_cls(ctx).transform(fn)).strip()


def test_transformer_splices_lists_deletes_none_and_locates_replacements():
    from autograph.pyct.transformer import Base

    class Rewrite(Base):
        def visit_Expr(self, node):
            return None  # dropped

        def visit_Pass(self, node):
            return templates.replace("a = 1\nb = 2")  # spliced in place

    (fn,) = _stmts("def f():\n    g()\n    pass\n    return 0")
    from autograph.pyct.transformer import Context
    ctx = Context(namer=naming.Namer.for_tree(fn), filename="<test>", function_name="f", params=set(),
                  user_locals=set())
    out = Rewrite(ctx).transform(fn)
    assert gast.unparse(out).strip() == "def f():\n    a = 1\n    b = 2\n    return 0"
    assert [s.lineno for s in out.body] == [3, 3, 4]  # replacements take the replaced node's line


def test_transformer_leaves_user_nested_functions_alone():
    from autograph.pyct.transformer import Base

    class Renumber(Base):
        def visit_Constant(self, node):
            return gast.Constant(value=node.value + 1, kind=None)

    src = "def f():\n    x = 1\n    def g():\n        return 1"
    assert "x = 2" in _transformed(src, Renumber) and "return 1" in _transformed(src, Renumber)


def test_parser_tells_apart_two_lambdas_with_the_same_arguments_on_one_line():
    """Told apart by the source positions of their code; before 3.13 a lambda's return instruction has a
    zero-width position at the line's start, which made every candidate look wrong (a ConversionError)."""
    inc, dec = (lambda x: x + 1), (lambda x: x - 1)  # noqa: E731
    for fn, op in ((inc, gast.Add), (dec, gast.Sub)):
        parsed = parser.parse_function(fn)
        (ret,) = parsed.node.body if isinstance(parsed.node.body, list) else [parsed.node.body]
        assert isinstance(getattr(ret, "value", ret).op, op)


def test_parser_tells_a_lambda_from_one_inside_it_with_the_same_arguments():
    """`lambda: f(lambda: 7)`: the inner one's code positions are inside both lambdas; the innermost is it (it was
    a ConversionError, as for `tf.function(lambda: tf.while_loop(...))` inside another lambda)."""
    made = []
    outer = lambda: made.append(lambda: 7) or 8  # noqa: E731
    outer()
    for fn, expression in ((made[0], gast.Constant), (outer, gast.BoolOp)):
        body = parser.parse_function(fn).node.body
        (ret,) = body if isinstance(body, list) else [body]
        assert isinstance(getattr(ret, "value", ret), expression)
    import autograph as ag
    make = lambda x: (lambda x: x + 1)  # noqa: E731 - same parameter names (a bad input before)
    assert ag.convert(make(0))(3) == 4 and ag.convert(make)(0)(5) == 6


def test_a_hoisted_operand_function_neither_ends_liveness_nor_defines_what_its_walrus_assigns():
    """`def and_operand(): nonlocal x; return (x := 4) > 4` runs its `:=` only if `and` calls it (fuzz seed
    53794: `x` read after the loop was taken as assigned by the def, and the `if` around it did not carry it)."""
    fn = _analysed(
        "def f(a, n):\n"
        "    def and_operand():\n"
        "        nonlocal x\n"
        "        return (x := 4) > 4\n"
        "    y = n and and_operand()\n"
        "    return x + 1\n")
    anno.set(fn.body[0], Key.SHARED, ("x",))     # as the logical-expression converter marks it
    liveness.analyse(fn, {"a", "n"})
    assert "x" in anno.get(fn.body[0], Key.LIVE_IN)          # still live before the def
    assert "x" not in anno.get(fn.body[2], Key.DEFINED_IN)

"""pyct.to_ast: the same tree and locations as fill_locations + gast.gast_to_ast, in one pass."""
import ast
import copy
import inspect
import textwrap

import gast

from autograph import pipeline
from autograph.pyct import parser
from autograph.pyct.to_ast import to_ast
from autograph.pyct.transformer import fill_locations
from tests.autograph import programs


def reference(node):
    node = copy.deepcopy(node)
    fill_locations(node, node.lineno, node.col_offset)
    return gast.gast_to_ast(node)


def located(tree):
    module = ast.fix_missing_locations(ast.Module(body=[tree], type_ignores=[]))
    return ast.dump(module), [(type(n).__name__, n.lineno, n.col_offset) for n in ast.walk(module)
                              if isinstance(n, (ast.stmt, ast.expr))]


def test_converted_functions_give_the_same_tree_and_locations():
    fns = [fn for fn, _ in programs.PROGRAMS]
    assert len(fns) >= 10
    for fn in fns:
        parsed = parser.parse_function(fn)
        converted = pipeline.convert_node(parsed.node, parsed.filename, fn.__name__)
        expected = reference(converted)
        got = to_ast(converted, converted.lineno, converted.col_offset)
        assert located(got) == located(expected), fn.__name__
        compile(ast.fix_missing_locations(ast.Module(body=[got], type_ignores=[])), parsed.filename, "exec")


def test_parameters_handlers_and_contexts():
    source = inspect.cleandoc('''
        def f(a, /, b: int = 1, *args, c, d=2, **kw):
            try:
                x = [y for y in a if y]
            except ValueError as e:
                del x
            return lambda q=3: q
        ''')
    node = gast.parse(source).body[0]
    got = to_ast(node, node.lineno, node.col_offset)
    assert ast.dump(got) == ast.dump(ast.parse(source).body[0])


def test_from_ast_matches_gast():
    from autograph.pyct.to_ast import from_ast
    sources = [inspect.getsource(fn) for fn, _ in programs.PROGRAMS] + [inspect.cleandoc('''
        def f(a, /, b: int = 1, *args, c, d=2, **kw):
            try:
                x = [y for y in a if y]
            except ValueError as e:
                del x
            return lambda q=3: q
        ''')]
    for source in sources:
        tree = ast.parse(textwrap.dedent(source))
        assert gast.dump(from_ast(tree), include_attributes=True) == \
            gast.dump(gast.ast_to_gast(tree), include_attributes=True)


def test_parse_function_keeps_the_files_lines_and_columns():
    class Holder:
        def method(self, x):
            if x:
                return x
            return -x

    parsed = parser.parse_function(Holder.method)
    lines, first = inspect.getsourcelines(Holder.method)
    assert (parsed.node.lineno, parsed.node.col_offset) == (first, len(lines[0]) - len(lines[0].lstrip()))
    if_node = parsed.node.body[0]
    assert (if_node.lineno, if_node.col_offset) == (first + 1, parsed.node.col_offset + 4)

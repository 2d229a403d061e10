"""autograph.modules: converting a module's functions from its text."""
import textwrap

import pytest

from autograph.modules import IMPORT_LINE, ModuleSyntaxError, convert_module_source


def convert(source, **kwargs):
    return convert_module_source(textwrap.dedent(source), "m.py", **kwargs)


def test_text_outside_converted_functions_is_kept_verbatim():
    source = '''\
        # a comment the converter must keep
        import math   # trailing comment

        CONSTANT = {"a": 1}


        def f(x):
            if x > 0:
                x = -x
            return x
        '''
    result = convert(source)
    assert result.converted == ["f"]
    head = result.code.split("@ag__.do_not_convert\ndef f(x):")[0]
    first, rest = textwrap.dedent(source).split("def f(x):")[0].split("\n", 1)
    assert head == first + "\n" + IMPORT_LINE + "\n" + rest     # after the leading comment


def test_import_goes_after_the_docstring_and_future_imports_once():
    result = convert('''\
        """Docstring."""
        from __future__ import annotations
        def f(x):
            while x:
                x -= 1
            return x
        ''')
    assert result.code.startswith('"""Docstring."""\nfrom __future__ import annotations\n' + IMPORT_LINE + "\n")
    again = convert_module_source(result.code, "m.py")
    assert again.code.count(IMPORT_LINE) == 1
    assert again.converted == [] and again.skipped == {"f": "already converted"}


def test_docstring_decorators_and_defaults_are_kept():
    result = convert('''\
        import functools

        @functools.lru_cache(maxsize=None)
        def f(x, y=3, *, z=4):
            """Doc."""
            return x + y if x else z
        ''')
    code = result.code
    assert "@functools.lru_cache(maxsize=None)\n@ag__.do_not_convert\ndef f(x, y=3, *, z=4):\n    \"\"\"Doc.\"\"\"\n" in code
    namespace = {}
    exec(compile(code, "m.py", "exec"), namespace)
    assert namespace["f"](0) == 4 and namespace["f"](2) == 5 and namespace["f"].__doc__ == "Doc."


def test_framework_function_and_do_not_convert_are_kept_and_convert_decorators_dropped():
    result = convert('''\
        import autograph as ag
        import runtime as tf

        @tf.function(reduce_retracing=True)
        def traced(x):
            return x

        @ag.do_not_convert
        def plain(x):
            return x

        @ag.convert
        def staged(x):
            if x:
                x = 1
            return x
        ''')
    assert set(result.skipped) == {"traced", "plain"} and result.converted == ["staged"]
    assert "@ag.convert" not in result.code and "def staged(x):" in result.code


def test_methods_of_nested_classes_have_qualified_names():
    result = convert('''\
        class A:
            class B:
                def m(self, x):
                    for i in range(x):
                        x += i
                    return x
            def n(self):
                return 1
        ''', names=["A.B.m"])
    assert result.defined == ["A.B.m", "A.n"] and result.converted == ["A.B.m"]
    assert "        @ag__.do_not_convert\n        def m(self, x):\n            with ag__.FunctionScope(" in result.code


def test_missing_names_and_syntax_errors():
    with pytest.raises(KeyError, match="defines no function named 'g'; it defines: f"):
        convert("def f(x):\n    return x\n", names=["g"])
    assert convert("def f(x):\n    return x\n", names=["g"], missing_ok=True).converted == []
    with pytest.raises(ModuleSyntaxError) as info:
        convert("def f(x)\n    return x\n")
    assert str(info.value).startswith("m.py:1:") and "invalid syntax" in str(info.value)


def test_a_module_with_nothing_to_convert_is_unchanged():
    source = "X = 1\n"
    assert convert(source).code == source


def test_converted_functions_are_marked_so_autograph_never_converts_them_again():
    import autograph as ag

    result = convert('''\
        def helper(x):
            return -x if x < 0 else x

        def f(x):
            while x > 10:
                x = helper(x) - 3
            return x
        ''')
    namespace = {}
    exec(compile(result.code, "m.py", "exec"), namespace)
    f = namespace["f"]
    assert ag.convert(f) is f                                   # run as it is: its body is converted code
    assert ag.converted_call(namespace["helper"], (-4,), None) == 4
    assert f(20) == 8 and f(3) == 3


def test_functions_under_top_level_if_and_try_are_found():
    result = convert('''\
        import sys
        if sys.version_info >= (3,):
            def f(x):
                if x:
                    x = 1
                return x
        try:
            import numpy
        except ImportError:
            def g(x):
                return x
        ''')
    assert result.defined == ["f", "g"] and result.converted == ["f", "g"]
    assert "    @ag__.do_not_convert\n    def f(x):\n        with ag__.FunctionScope(" in result.code


def test_a_converter_bug_is_reported_and_the_function_kept(monkeypatch):
    import autograph.pipeline

    def broken(node, filename, name, recursive=True, **options):
        if name == "bad":
            raise RuntimeError("boom")
        return original(node, filename, name, recursive, **options)

    original = autograph.pipeline.convert_node
    monkeypatch.setattr(autograph.pipeline, "convert_node", broken)
    result = convert("def bad(x):\n    return x\n\n\ndef good(x):\n    return x\n")
    assert result.converted == ["good"] and "def bad(x):\n    return x\n" in result.code
    assert [str(p) for p in result.problems] == [
        "m.py:1:1: error: internal error while converting bad (RuntimeError: boom); it is left as it is. "
        "Please report this with the function's source"]


def test_import_goes_after_a_leading_comment_block():
    result = convert("#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n\n# about f\ndef f(x):\n    return x\n")
    assert result.code.startswith("#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n" + IMPORT_LINE + "\n\n# about f\n")


def test_nested_functions_are_converted_with_their_function():
    import runtime as tf

    result = convert('''\
        def outer(x):
            def inner(v):
                if v > 0:
                    return v + 1
                return v - 1
            return inner(x)
        ''')
    namespace = {}
    exec(compile(result.code, "m.py", "exec"), namespace)
    outer = namespace["outer"]
    assert (outer(3), outer(-3)) == (4, -4)
    graph_fn = tf.function(outer)
    assert (int(graph_fn(tf.constant(3))), int(graph_fn(tf.constant(-3)))) == (4, -4)
    ops = graph_fn.get_concrete_function(tf.constant(1)).graph.get_operations()
    assert "Cond" in {op.type for op in ops}


def test_generators_are_kept_as_they_are_and_are_not_problems():
    from autograph.modules import GENERATOR_REASON

    result = convert('''\
        def numbers(n):
            for i in range(n):
                yield i

        def use(n):
            def evens():
                yield from (i for i in numbers(n) if i % 2 == 0)
            return sum(numbers(n)) + len(list(evens()))
        ''')
    assert result.converted == ["use"] and result.problems == []
    assert result.skipped == {"numbers": GENERATOR_REASON}
    assert result.code.startswith("import autograph as ag__\ndef numbers(n):\n    for i in range(n):\n        yield i\n")
    assert "        def evens():\n            yield from" in result.code          # the nested one too
    namespace = {}
    exec(compile(result.code, "m.py", "exec"), namespace)
    assert namespace["use"](4) == 6 + 2              # converted callers run them with Python semantics


def test_a_function_that_cannot_be_converted_is_marked_to_run_as_it_is():
    result = convert('''\
        import autograph

        def countdown(n):
            while n > 0:
                autograph.set_loop_options(10)
                n -= 1
            return n

        def use(n):
            def inner(n):
                for i in range(n):
                    autograph.set_loop_options(3)
                return n
            return countdown(n) + inner(n)
        ''')
    assert result.converted == ["use"]
    assert [(p.line, p.col) for p in result.problems] == [(5, 9), (12, 13)]
    assert "@ag__.do_not_convert  # autograph: could not be converted, runs as it is\ndef countdown(n):\n" in result.code
    namespace = {}
    exec(compile(result.code, "m.py", "exec"), namespace)
    assert namespace["use"](4) == 0 + 4              # converted callers run them with Python semantics
    again = convert_module_source(result.code, "m.py")
    assert again.skipped == {"countdown": "marked with do_not_convert", "use": "already converted"}


def test_a_methods_multi_line_docstring_and_strings_are_unchanged():
    source = textwrap.dedent('''\
        class A:
            def m(self, x):
                """Doc.

                More.
                """
                s = """line1
        line2"""
                if x:
                    return s
                return ""
        ''')
    result = convert_module_source(source, "m.py")
    original, converted = {}, {}
    exec(compile(source, "m.py", "exec"), original)
    exec(compile(result.code, "m.py", "exec"), converted)
    assert converted["A"].m.__doc__ == original["A"].m.__doc__
    assert converted["A"]().m(1) == original["A"]().m(1) == "line1\nline2"

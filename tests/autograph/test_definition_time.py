"""What Python evaluates where a function is defined, not when it runs: its default values, its annotations and
its decorators. They are the enclosing code's, so conversion leaves them as written: converted there they
called autograph with the function's own scope (`fscope`), which does not exist yet (a NameError when the
module `autograph convert` wrote was imported: difflib's `def IS_LINE_JUNK(line, pat=re.compile(...).match)`)."""
import re
import textwrap
import typing

import autograph as ag
from tests.autograph.test_cli import load, run

SOURCE = textwrap.dedent('''
    import functools
    import re

    made = []


    def noted(f):
        made.append(f.__name__)
        return f


    @noted
    def junk(line, pat=re.compile(r"\\s*#?$").match, n=len("abc"), *, k=[i * 2 for i in range(3)],
             key=lambda v=abs(-2): v) -> bool:
        if pat(line):
            return n + k[1] + key()
        return 0


    class Counter:
        @functools.lru_cache(maxsize=None)
        def twice(self, n: int = max(1, 2)) -> int:
            made.append(n)
            return n * 2
    ''')


def test_a_converted_module_keeps_defaults_annotations_and_decorators_as_written(tmp_path):
    (tmp_path / "m.py").write_text(SOURCE)
    status, _, err = run("convert", str(tmp_path / "m.py"), "-o", str(tmp_path / "m_ag.py"), "-q")
    assert status == 0, err
    module = load(tmp_path / "m_ag.py", "m_ag_definition_time")
    assert module.junk("  #") == 3 + 2 + 2 and module.junk("x") == 0
    counter = module.Counter()
    assert counter.twice() == 4 and counter.twice() == 4          # lru_cache: the body ran once
    assert module.made == ["junk", 2]
    assert module.junk.__annotations__ == {"return": bool}
    assert typing.get_type_hints(module.Counter.twice) == {"n": int, "return": int}


def _defaults(line, pat=re.compile(r"\s*#?$").match, n=len("abc")) -> bool:
    return bool(pat(line)) and n == 3


def test_to_code_shows_defaults_and_annotations_as_written():
    code = ag.to_code(_defaults)
    assert "pat=re.compile('\\\\s*#?$').match, n=len('abc')) -> bool:" in code, code
    assert ag.convert(_defaults)("  #") is True

"""pygen's expressions: atoms (variables, literals, calls of the helpers, lambdas, comprehensions, f-strings),
arithmetic, comparisons and the tests of `if`/`while` (on Python values, or on a tensor in tensor programs). A
mixin of `pygen.PyGenerator`, which owns the state they use."""
from __future__ import annotations

from tools.fuzz.generator import arithmetic


class Expressions:
    def py_small(self) -> str:
        """A small non-negative int for a range bound or a subject: a literal or `v % k` of a Python value."""
        var = self.py_var()
        if var and self.chance(0.5):
            return f"{var} % {self.rng.randint(2, 4)}"
        return str(self.rng.randint(0, 3))

    def atom(self) -> str:
        r = self.rng.random()
        if r < 0.43:
            return self.read_var()
        if r < 0.45 and self.allowed("rebound-global"):
            self.cover("global the runner rebinds between calls")
            return "K"
        if r < 0.65:
            return str(self.rng.randint(-3, 9))
        if r < 0.71 and self.allowed("decorated"):
            self.cover("decorated helper call")
            return f"{self.rng.choice(['double', 'tri'])}({self.read_var()})"
        if r < 0.75 and self.effects_ok and self.allowed("record"):
            self.cover("record() in an expression")
            return f"record({self.read_var()})"
        if r < 0.79 and self.effects_ok and self.allowed("raise"):
            var = self.py_var()
            if var:
                self.cover("call that may raise")
                return f"check({var})"
        if r < 0.83 and self.allowed("lambda"):
            self.cover("lambda (created, called inline)")
            return f"(lambda v: v + {self.read_var()})({self.read_var()})"
        if r < 0.88 and self.callables and self.allowed("closure"):
            name, staged = self.rng.choice(self.callables)
            if not staged or self.staged:
                self.cover("stored lambda/def called later")
                return f"{name}({self.read_var()})"
        if r < 0.96 and self.allowed("comprehension"):
            return self.comprehension()
        if r < 0.985 and self.allowed("fstring") and not self.in_fstring:
            return f"len({self.fstring(python=True)})"
        if r < 0.995 and self.allowed("text") and not self.in_fstring:
            return self.text_read()
        return str(self.rng.randint(0, 5))

    def fstring(self, python: bool) -> str:
        """An f-string or `str.format` call; with `python=True` in a tensor program, of Python values only."""
        field = self.py_arith if python and self.tensor else lambda: self.arith(1)
        spec = self.rng.choice(["", "", "!r", ":>5", ":+", "!r:^7", ":03d"])
        self.in_fstring = True      # no f-string in a field: Python 3.11 can't nest the same quotes
        first, second = field(), field()
        self.in_fstring = False
        if self.chance(0.2):
            self.cover("% format")
            return f'"%s/%{self.rng.choice(["d", "r", "-5d", "+04d", "x", "s"])}" % ({first}, {second})'
        if self.chance(0.3):
            self.cover("str.format")
            return f'"{{}}/{{{spec}}}".format({first}, {second})'
        self.cover("f-string")
        return f'f"<{{{first}}}|{{{second}{spec}}}>"'

    def text_read(self) -> str:
        """A value's text (of a tensor in a tensor program) read as a str: compared, searched, given to
        str's methods. Traced, comparing is staged and the rest must be refused at the line."""
        var, k = self.read_var(), self.rng.randint(0, 4)
        text, kind = self.rng.choice([(f'f"{{{var}}}"', "f-string"), (f"str({var})", "str()"),
                                      (f'"{{}}".format({var})', "str.format")])
        read, how = self.rng.choice([
            (f'(1 if {text} == "{k}" else 2)', "=="), (f'(1 if {text} != "{k}" else 2)', "!="),
            (f'(1 if "{k}" in {text} else 2)', "in"), (f'len("a{k}b".replace("{k}", {text}))', "str method"),
            (f'(1 if "{k}".startswith({text}) else 2)', "str method"), (f"len({text})", "len")])
        self.cover(f"text of a value: {kind} read with {how}")
        return read

    def comprehension(self) -> str:
        k = self.py_small()
        r = self.rng.random()
        if r < 0.2 and self.allowed("walrus"):
            target = self.rng.choice(self.writable())
            self.cover("walrus in a comprehension")
            return f"sum([({target} := {target} + j) for j in range({k})])"
        self.cover("comprehension")
        if r < 0.4:
            own = self.rng.choice(self.vars)    # the comprehension's variable shadows one of f's
            return f"sum([{own} * 2 + {self.read_var()} for {own} in range({k})])"
        if r < 0.55:
            return f"len([v for v in range({k}) if v != {self.py_var() or 1}])"
        if r < 0.7:
            return f"sum({{v: v + {self.read_var()} for v in range({k})}}.values())"
        if r < 0.8:
            return f"len({{v % 2 for v in range({k})}})"
        if r < 0.9 and self.effects_ok and self.allowed("generator"):
            self.cover("generator helper")
            return f"sum(gen({k}))"
        return f"sum(v * {self.read_var()} for v in range({k}))"

    def arith(self, depth: int = 0) -> str:
        return arithmetic(self.rng, self.atom, depth, 0.45)

    def value(self) -> str:
        if self.chance(0.1):
            self.cover("conditional expression")
            return f"({self.arith(1)}) if ({self.condition(python=True)}) else ({self.arith(1)})"
        return self.arith()

    def py_arith(self) -> str:
        var = self.py_var()
        return f"{var} + {self.rng.randint(0, 3)}" if var else str(self.rng.randint(0, 5))

    def comparison(self, python: bool) -> str:
        op = self.rng.choice(["<", "<=", ">", ">=", "==", "!="])
        if python and self.tensor:
            return f"{self.py_arith()} {op} {self.rng.randint(0, 4)}"
        return f"{self.arith(1)} {op} {self.arith(1)}"

    def condition(self, python: bool, depth: int = 0) -> str:
        """A test; with `python=True` in a tensor program, one on Python values only (not staged)."""
        r = self.rng.random()
        if r < 0.12 and self.allowed("walrus") and (not python or not self.tensor or not self.staged):
            target = self.rng.choice(self.writable())
            value = self.py_arith() if python else self.arith(1)
            self.cover("walrus in an if/while test")
            self.assigned(target, value)
            return f"({target} := {value}) > {self.rng.randint(0, 4)}"
        if r < 0.3 and depth < 1:
            self.cover("and/or")
            op = self.rng.choice(["and", "or"])
            right = self.condition(python, depth + 1)
            if self.chance(0.3) and self.allowed("walrus"):
                target = self.rng.choice(self.writable())
                value = self.py_arith() if python else self.arith(1)
                self.cover("walrus in an and/or operand")
                self.assigned(target, value)
                right = f"({target} := {value}) > {self.rng.randint(0, 4)}"
            return f"({self.condition(python, depth + 1)}) {op} ({right})"
        if r < 0.38 and depth < 1:
            return f"not ({self.condition(python, depth + 1)})"
        if r < 0.48 and self.effects_ok and not self.tensor and self.allowed("record"):
            self.cover("record() in an and/or operand")
            return f"record({self.arith(1)}) {self.rng.choice(['and', 'or'])} record({self.arith(1)})"
        return self.comparison(python)

    def tensor_condition(self) -> str:
        """A test on a runtime tensor (tensor programs): the statement it heads is staged."""
        tensor = self.rng.choice([n for n in self.vars + ["a", "b"] if n not in self.clean])
        test = f"{tensor} {self.rng.choice(['>', '<', '==', '!=', '>='])} {self.rng.randint(-2, 5)}"
        if self.chance(0.3):
            test = f"({test}) {self.rng.choice(['and', 'or'])} ({self.comparison(python=False)})"
        return test

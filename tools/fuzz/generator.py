"""Random, valid, terminating Python functions (seeded, reproducible).

Programs use int variables (and bools from comparisons), nested
if/elif/else, while loops with a bound, for loops over range(...), break,
continue, loop else clauses, early return, and/or/not, ternaries,
augmented assignment, `del`, comprehensions whose variable shadows one of the
function's (or `t`, a temporary some loop bodies assign first), a dict item
and an object attribute assigned like variables (`s["k"]`, `o.v`: carried as
state when a loop or `if` is staged), a helper function and a lambda, and
`record(...)` calls whose order is compared between runs. Inside a loop body,
expressions may use the loop's counter (a Python int that becomes a tensor
once the loop is staged).

With `staged=True` the program stays within what graph mode can express
(checked by modes c and d): every variable is defined before any branch or
loop (but `t`, which no code after its loop reads), no `record` side effects inside control flow (they would run once per
trace), `and`/`or` only between comparisons, every `return` returns the same
structure (a tuple of three ints), and all arithmetic is int32-safe (values
kept small with `%`; every plain assignment inside a loop is taken `% 1000`).
Returns inside loops are included: they become loop state in a graph.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

VARIABLES = ["x", "y", "z"]


def arithmetic(rng, atom, depth: int, stop: float) -> str:
    """An int expression of `atom()`s with + - * %, at most two levels deep (stopping early with chance `stop`);
    products and remainders stay small (% 1000, % 2..7). Both generators write their arithmetic with it."""
    if depth >= 2 or rng.random() < stop:
        return atom()
    op = rng.choice(["+", "-", "*", "%"])
    left, right = arithmetic(rng, atom, depth + 1, stop), arithmetic(rng, atom, depth + 1, stop)
    if op == "%":
        return f"({left}) % {rng.randint(2, 7)}"
    if op == "*":
        return f"(({left}) * ({right})) % 1000"
    return f"({left} {op} {right})"


@dataclass
class Generator:
    rng: random.Random
    staged: bool = False
    max_depth: int = 3
    _loop_depth: int = 0
    _lines: list = field(default_factory=list)
    _counter: int = 0
    _counters: list = field(default_factory=list)   # loop counters/targets usable inside the current loop body

    # -- expressions -------------------------------------------------------------------

    def atom(self) -> str:
        choice = self.rng.random()
        if self._counters and choice < 0.1:
            # a condition on a counter that starts as a Python int: an `if` that is staged only inside a staged loop
            return self.rng.choice(self._counters)
        if choice < 0.45:
            return self.rng.choice(VARIABLES + ["a", "b"])
        if choice < 0.8:
            return str(self.rng.randint(-5, 9))
        if choice < 0.87:
            return f"helper({self.rng.choice(VARIABLES)})"
        if choice < 0.93:
            # a comprehension whose variable shadows one of f's: it reads f's other variables, not that one
            own = self.rng.choice(VARIABLES + ["t"])
            other = self.rng.choice([v for v in VARIABLES if v != own])
            return f"sum([{own} * {self.rng.randint(1, 3)} + {other} for {own} in range({self.rng.randint(0, 3)})])"
        return f"twice({self.rng.choice(VARIABLES + ['a'])})"

    def arith(self, depth: int = 0) -> str:
        return arithmetic(self.rng, self.atom, depth, 0.4)

    def comparison(self) -> str:
        op = self.rng.choice(["<", "<=", ">", ">=", "==", "!="])
        return f"{self.arith(1)} {op} {self.arith(1)}"

    def condition(self, depth: int = 0) -> str:
        r = self.rng.random()
        if depth < 2 and r < 0.25:
            op = self.rng.choice(["and", "or"])
            return f"({self.condition(depth + 1)}) {op} ({self.condition(depth + 1)})"
        if depth < 2 and r < 0.35:
            return f"not ({self.condition(depth + 1)})"
        if not self.staged and r < 0.45:
            return f"record({self.arith(1)}) {self.rng.choice(['and', 'or'])} record({self.arith(1)})"
        return self.comparison()

    def value(self) -> str:
        if self.rng.random() < 0.15:
            return f"({self.arith(1)}) if ({self.condition(1)}) else ({self.arith(1)})"
        return self.arith()

    # -- statements ------------------------------------------------------------------------

    def emit(self, indent: int, text: str) -> None:
        self._lines.append("    " * indent + text)

    def block(self, indent: int, depth: int, size: int) -> None:
        for _ in range(size):
            self.statement(indent, depth)

    def statement(self, indent: int, depth: int) -> None:
        r = self.rng.random()
        var = self.rng.choice(VARIABLES)
        if r < 0.04:
            self.deletion(indent, var)
            return
        if r < 0.1:
            self.composite(indent)
            return
        r = self.rng.random()
        if depth >= self.max_depth or r < 0.35:
            value = self.value()
            if self.staged and self._loop_depth:   # repeated `y = 2*a - y - 2*z` would overflow int32 tensors
                value = f"({value}) % 1000"
            self.emit(indent, f"{var} = {value}")
        elif r < 0.5:
            self.emit(indent, f"{var} {self.rng.choice(['+=', '-='])} {self.arith(1)}")
        elif r < 0.55 and not self.staged:
            self.emit(indent, f"record({self.value()})")
        elif r < 0.7:
            self.if_statement(indent, depth)
        elif r < 0.8:
            self.while_loop(indent, depth)
        elif r < 0.9:
            self.for_loop(indent, depth)
        elif self._loop_depth and r < 0.95:
            self.emit(indent, f"if {self.condition()}:")
            self.emit(indent + 1, self.rng.choice(["break", "continue"]))
        else:
            condition = self.condition()
            if self._counters and self.rng.random() < 0.4:   # a return that depends on the loop counter alone
                condition = f"{self._counters[-1]} {self.rng.choice(['>', '==', '>='])} {self.rng.randint(0, 3)}"
            self.emit(indent, f"if {condition}:")
            value = f"{self.arith()}, y, z" if self.staged else self.arith()  # graphs need one structure
            self.emit(indent + 1, f"return {value}")

    def deletion(self, indent: int, var: str) -> None:
        """`del` of a scratch variable after its use; unstaged, sometimes of a variable, assigned again
        at once (a `del` of an unbound name, which Python rejects, is not checked inside converted
        bodies when the name is not read afterwards: docs/limitations.md)."""
        if self.staged or self.rng.random() < 0.5:
            self._counter += 1
            scratch = f"w{self._counter}"
            self.emit(indent, f"{scratch} = {self.arith(1)}")
            self.emit(indent, f"{var} = ({var} + {scratch}) % 1000")
            self.emit(indent, f"del {scratch}")
            return
        self.emit(indent, f"del {var}")
        self.emit(indent, f"{var} = {self.arith(1).replace(var, 'a')}")

    def composite(self, indent: int) -> None:
        """An assignment to the dict item `s["k"]` or the attribute `o.v` (both ints, defined at the top)."""
        target = self.rng.choice(['s["k"]', "o.v"])
        if self.rng.random() < 0.5:
            self.emit(indent, f"{target} {self.rng.choice(['+=', '-='])} {self.arith(1)}")
        else:
            self.emit(indent, f"{target} = ({target} + {self.value()}) % 1000")

    def if_statement(self, indent: int, depth: int) -> None:
        self.emit(indent, f"if {self.condition()}:")
        self.block(indent + 1, depth + 1, self.rng.randint(1, 3))
        for _ in range(self.rng.randint(0, 1)):
            self.emit(indent, f"elif {self.condition()}:")
            self.block(indent + 1, depth + 1, self.rng.randint(1, 2))
        if self.rng.random() < 0.5:
            self.emit(indent, "else:")
            self.block(indent + 1, depth + 1, self.rng.randint(1, 2))

    def _counter_name(self) -> str:
        self._counter += 1
        return f"n{self._counter}"

    def while_loop(self, indent: int, depth: int) -> None:
        counter = self._counter_name()
        self.emit(indent, f"{counter} = 0")
        self.emit(indent, f"while {counter} < {self.rng.randint(0, 4)} and ({self.condition()}):")
        self.emit(indent + 1, f"{counter} += 1")
        self._loop_body(indent, depth, counter)

    def for_loop(self, indent: int, depth: int) -> None:
        target = self._counter_name()
        bound = self.rng.choice(["a % 5", "b % 4", str(self.rng.randint(0, 4))])
        self.emit(indent, f"for {target} in range({bound}):")
        self.emit(indent + 1, f"x = x + {target}")
        self._loop_body(indent, depth, target)

    def _loop_body(self, indent: int, depth: int, counter: str) -> None:
        self._loop_depth += 1
        self._counters.append(counter)
        if self.rng.random() < 0.3:
            # a temporary first assigned in the loop, read after it only by comprehensions that bind their own
            # `t`: the loop must not carry it (a staged loop would ask for it to be defined before)
            var = self.rng.choice(VARIABLES)
            self.emit(indent + 1, f"t = {self.arith(1)}")
            self.emit(indent + 1, f"{var} = ({var} + t) % 1000")
        self.block(indent + 1, depth + 1, self.rng.randint(1, 3))
        self._counters.pop()
        self._loop_depth -= 1
        self._loop_else(indent, depth)   # a for loop's target is unbound in `else` after zero iterations

    def _loop_else(self, indent: int, depth: int) -> None:
        if self.rng.random() < 0.25:
            self.emit(indent, "else:")
            self.block(indent + 1, depth + 1, 1)

    # -- the program ------------------------------------------------------------------------

    def program(self) -> str:
        self._lines = []
        self._counter = 0
        self._counters = []
        self.emit(1, "x = a")
        self.emit(1, "y = b")
        self.emit(1, "z = 0")
        self.emit(1, 's = {"k": 0}')
        self.emit(1, "o = Box()")
        self.block(1, 0, self.rng.randint(2, 6))
        self.emit(1, 'return x, y, (z + s["k"] + o.v) % 1000')
        body = "\n".join(self._lines)
        return PRELUDE + "\n\ndef f(a, b):\n" + body + "\n"


PRELUDE = '''\
LOG = []


def record(v):
    LOG.append(v)
    return v


def helper(v):
    if v > 3:
        return v - 2
    return v + 1


twice = lambda v: v * 2  # noqa: E731


class Box:
    def __init__(self):
        self.v = 0'''


def generate(seed: int, staged: bool = False) -> str:
    return Generator(random.Random(seed), staged=staged).program()

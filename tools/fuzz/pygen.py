"""A second program generator, aimed at Python semantics (independent of generator.py).

Where generator.py writes the control flow graph mode can stage (ints, `if`,
`while`, `for`, `break`, `return`), this one writes the rest of the statement
grammar, nested inside each other and inside `if`/`while`/`for`: `try`/
`except`/`else`/`finally` with `return`/`break`/`continue`/`raise` in every
part; `with` (a context manager that suppresses exceptions, one that does not,
and a `contextlib.contextmanager` helper); `match` with captures; walrus in
assignments, in `if`/`while` tests, in `and`/`or` operands and in
comprehensions; closures and lambdas created and called inside blocks and after
them (lambdas created in loops, late binding); `def`/`class`/`import` inside
blocks; iterators consumed by `for` with `break`/`return` and then read again
(`iter`, `zip`, `enumerate`); starred unpacking; `del`; comprehensions;
decorated helpers (`functools.wraps`); `nonlocal`; `global`; f-strings and
`str.format` (fields that call `record`, with conversions and specs; of
tensors outside staged blocks); user variables
named like the converter's own (`do_return`, `ag__`, ...). Every side effect
goes through `record(v)`, which appends to `LOG`; the runner compares `LOG` and
the global `G` as well as the result and the exception type.

Every loop is bounded (a counter, a finite iterable, or an iterator drained by
`next`), there is no recursion and no randomness at run time: programs always
terminate and are deterministic.

`tensor=True` programs are also run with runtime tensors as `a` and `b`
(pyrunner mode t). There, some `if`/`while` tests compare a tensor (they are
staged), and the generator keeps tensors out of places only Python values can
go (a `range` bound, a `match` subject, an index, `check`): it tracks which
variables may hold a tensor. Inside a staged block it writes no `raise`, no
`record` statement, no `global`/`nonlocal` writes and no shared iterators,
because a traced body runs once at trace time (docs/limitations.md).

Values across staged statements (issue 14) have patterns of their own (pygen_staged.py).

`generate(seed)` returns the source; `generate_with_coverage(seed)` also returns
a Counter of (construct, block kind) for each construct written, which
tools/fuzz.py sums into the coverage table.
"""
from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field

from tools.fuzz.pygen_prelude import PRELUDE  # noqa: F401 (the programs' helpers; re-exported)
from tools.fuzz.pygen_exprs import Expressions
from tools.fuzz.pygen_scopes import ScopeStatements
from tools.fuzz.pygen_staged import StagedPatterns

BLOCKS = ("top", "if", "while", "for", "try-body", "except", "try-else", "finally", "with", "match-case",
          "nested def")
GENERATED_LIKE = ("do_return", "retval_", "fscope", "break_", "loop_body", "if_true", "ag__", "iteration_")
# what --exclude accepts: the first column of PyGenerator._table, and the expression kinds of atom()
KINDS = ("assign", "record", "jump", "return", "raise", "walrus", "starred", "del", "global", "lambda", "import",
         "if", "while", "for", "try", "with", "match", "def", "class", "iterators", "decorated", "closure",
         "comprehension", "generated-name", "nonlocal", "contextmanager", "generator",
         # values across staged statements (issue 14): in tensor programs the statement is staged
         "undefined", "none", "promotion", "shape-growth", "store", "mutation", "staged-raise", "and-or-value",
         "list-after-loop", "fstring", "carried-number", "text", "rebound-global")
_IDENT = re.compile(r"[A-Za-z_]\w*")
_WALRUS = re.compile(r"\((\w+) :=")



@dataclass
class PyGenerator(Expressions, ScopeStatements, StagedPatterns):
    rng: random.Random
    tensor: bool = False
    exclude: frozenset = frozenset()
    max_depth: int = 3
    coverage: Counter = field(default_factory=Counter)

    # -- bookkeeping ------------------------------------------------------------------------

    def _reset(self) -> None:
        self.lines, self.blocks, self.indent = [], ["top"], 1
        self.loops, self.in_def, self.staged, self.depth, self.fresh = 0, 0, False, 0, 0
        self.global_declared = False
        self.in_fstring = False
        self.callables = []    # stored lambdas and defs bound for the rest of f: (name, bound_in_staged)
        special = self.rng.choice(GENERATED_LIKE) if "generated-name" not in self.exclude and \
            self.rng.random() < 0.3 else None
        self.vars = ["x", "y", special or "z"]
        self.locals = []       # inside a nested def: its own writable names
        self.readable = []     # extra readable names: match captures, loop targets of the current block
        self.clean = set(self.vars[1:]) if self.tensor else set(self.vars) | {"a", "b"}
        self.dirty = {"x"} if self.tensor else set()   # x = a

    def cover(self, kind: str) -> None:
        self.coverage[(kind, self.blocks[-1])] += 1

    def emit(self, text: str) -> None:
        self.lines.append("    " * self.indent + text)

    def name(self, prefix: str) -> str:
        self.fresh += 1
        return f"{prefix}{self.fresh}"

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def allowed(self, kind: str) -> bool:
        return kind not in self.exclude

    @property
    def effects_ok(self) -> bool:
        """Python side effects (record, raise, global, shared iterators) are compared exactly, but not
        inside a staged block, which runs once at trace time."""
        return not self.staged

    # -- names -----------------------------------------------------------------------------

    def writable(self) -> list:
        return self.locals if self.in_def else self.vars

    def read_var(self) -> str:
        names = self.writable() + self.readable + (self.vars if self.in_def else ["a", "b"])
        if self.global_declared and not self.in_def:
            names = names + ["G"]
        return self.rng.choice(names)

    def py_var(self) -> str | None:
        """A name certainly holding a Python value here (for a range bound, a match subject, ...)."""
        if not self.tensor:
            return self.read_var()
        names = [n for n in self.writable() + self.readable if n in self.clean]
        return self.rng.choice(names) if names else None

    def is_clean(self, text: str) -> bool:
        if not self.tensor:
            return True
        idents = set(_IDENT.findall(text))
        risky = set(self.vars) | {"a", "b"} | set(self.locals) | set(self.readable) | \
            {n for n, _ in self.callables}
        return not self.staged and (idents & risky) <= self.clean

    def assigned(self, target: str, value: str) -> None:
        """Keep track of which names may hold a tensor (tensor programs only)."""
        if not self.tensor:
            return
        for t in [target, *_WALRUS.findall(value)]:
            if self.is_clean(value):
                self.clean.add(t)
            else:
                self.clean.discard(t)
                self.dirty.add(t)

    # -- blocks ----------------------------------------------------------------------------

    def block(self, kind: str, size: int | None = None, staged: bool | None = None) -> None:
        """Statements one indent deeper, inside a block of `kind`."""
        saved = (self.staged, set(self.clean), self.readable, len(self.callables))
        self.blocks.append(kind)
        self.indent += 1
        self.depth += 1
        self.staged = self.staged if staged is None else staged
        for _ in range(size or self.rng.randint(1, 3 if self.depth < 2 else 2)):
            self.statement()
        self.depth -= 1
        self.indent -= 1
        self.blocks.pop()
        self.staged, clean, self.readable, n_callables = saved
        self.clean = clean - self.dirty        # a name made a tensor inside may hold one after
        del self.callables[n_callables:]       # bound inside the block: maybe unbound after it

    def loop_block(self, kind: str, staged: bool | None = None, targets: tuple = ()) -> None:
        """A loop body; `targets` (the loop's Python-valued targets) are readable inside it."""
        before, readable = set(self.clean), self.readable
        if self.tensor:   # a later iteration sees what this one assigns: only fresh names stay Python values
            self.clean = (self.clean - set(self.vars) - set(self.locals)) | set(targets)
        self.readable = self.readable + list(targets)
        self.loops += 1
        self.block(kind, staged=staged)
        self.loops -= 1
        self.readable = readable
        self.clean = before - self.dirty

    def test(self) -> tuple[str, bool | None]:
        """A test for an if/while, and whether the statement is staged (tensor programs)."""
        if self.tensor and not self.in_def and self.chance(0.35):
            return self.tensor_condition(), True
        return self.condition(python=True), None

    # -- statements ------------------------------------------------------------------------

    def statement(self) -> None:
        compound = self.depth < self.max_depth
        choices = [(kind, weight, make) for kind, weight, make, needs_compound in self._table()
                   if self.allowed(kind) and (compound or not needs_compound)]
        kinds = [c for c in choices if c[1] > 0]
        kind, _, make = self.rng.choices(kinds, weights=[w for _, w, _ in kinds])[0]
        make()

    def _table(self):
        """(kind for --exclude, weight, method, needs nesting depth); weight 0: not possible here."""
        effects, loop, in_f = self.effects_ok, self.loops > 0, not self.in_def
        return [
            ("assign", 6, self.assignment, False),
            ("assign", 3, self.augmented, False),
            ("record", 2 if effects else 0, self.record_statement, False),
            ("jump", 3 if loop else 0, self.loop_jump, False),
            ("return", 2, self.return_statement, False),
            ("raise", 2 if effects else 0, self.raise_statement, False),
            ("walrus", 2, self.walrus_assignment, False),
            ("starred", 2, self.starred, False),
            ("del", 2, self.deletion, False),
            # CPython checks a try's `else` before its handlers: no first `global` inside a handler
            ("global", 1 if effects and in_f and (self.global_declared or "except" not in self.blocks) else 0,
             self.global_statement, False),
            ("lambda", 2, self.stored_lambda, False),
            ("import", 1, self.import_statement, False),
            ("if", 5, self.if_statement, True),
            ("while", 3, self.while_loop, True),
            ("for", 3, self.for_loop, True),
            ("try", 5, self.try_statement, True),
            ("with", 3, self.with_statement, True),
            ("match", 3, self.match_statement, True),
            ("def", 3 if self.in_def == 0 else 0, self.nested_def, True),
            ("def", 1 if self.in_def == 0 else 0, self.def_in_branches, True),
            ("def", 1 if self.in_def == 0 else 0, self.def_rebound_in_loop, True),
            ("lambda", 1 if effects else 0, self.lambdas_in_loop, True),
            ("class", 1, self.class_statement, True),
            ("iterators", 2 if effects else 0, self.iterator_for, True),
            ("iterators", 1 if effects else 0, self.drain_with_next, True),
            ("iterators", 1 if effects and in_f else 0, self.iterator_return, True),
            # values across staged statements: in tensor programs (outside nested defs) the statement is staged
            ("undefined", 2 if in_f else 0, self.undefined_after, True),
            ("none", 2 if in_f else 0, self.none_before, True),
            ("promotion", 2 if in_f else 0, self.int_to_float, True),
            ("shape-growth", 1 if in_f else 0, self.shape_growth, True),
            ("list-after-loop", 1 if in_f else 0, self.list_after_loop, True),
            ("store", 2 if in_f else 0, self.item_store, True),
            ("mutation", 2 if in_f else 0, self.mutating_call, True),
            ("staged-raise", 1 if in_f else 0, self.staged_raise, True),
            ("carried-number", 2 if in_f else 0, self.carried_number, True),
            ("and-or-value", 2, self.and_or_value, False),
        ]

    def assign(self, target: str, value: str, op: str = "=") -> None:
        self.assigned(target, value if op == "=" else f"{target} + {value}")
        self.emit(f"{target} {op} {value}")

    def assignment(self) -> None:
        target = self.rng.choice(self.writable())
        self.cover("assignment to a name like a generated one" if target in GENERATED_LIKE else "assignment")
        self.assign(target, self.value())

    def augmented(self) -> None:
        target = self.rng.choice(self.writable())
        self.cover("augmented assignment")
        self.assign(target, self.arith(1), self.rng.choice(["+=", "-="]))

    def record_statement(self) -> None:
        if self.chance(0.2) and self.allowed("fstring"):
            self.emit(f"record({self.fstring(python=False)})")   # of tensors too, outside staged blocks
            return
        self.cover("record() statement")
        self.emit(f"record({self.value()})")

    def guarded(self, text: str) -> None:
        """`text` alone, or behind an `if` (a jump at the end of a block, or in the middle of one)."""
        if self.chance(0.6):
            self.emit(f"if {self.condition(python=True)}:")
            self.indent += 1
            self.emit(text)
            self.indent -= 1
        else:
            self.emit(text)

    def loop_jump(self) -> None:
        jump = self.rng.choice(["break", "continue"])
        self.cover(jump)
        self.guarded(jump)

    def return_statement(self) -> None:
        self.cover("return")
        if self.in_def:
            self.guarded(f"return {self.arith(1)}")
        else:
            first = self.arith(1) if self.chance(0.5) else self.vars[0]
            self.guarded(f"return {first}, {', '.join(self.vars[1:])}")

    def raise_statement(self) -> None:
        if self.blocks[-1] == "except" and self.chance(0.3):
            self.cover("raise (re-raise)")
            self.guarded("raise")
            return
        self.cover("raise")
        error = self.rng.choice(["ValueError", "KeyError", "ZeroDivisionError"])
        self.guarded(f"raise {error}({self.py_arith()})")

    def walrus_assignment(self) -> None:
        target, other = self.rng.choice(self.writable()), self.rng.choice(self.writable())
        temp = self.name("c")
        value = f"({temp} := {self.arith(1)}) + 1"
        self.cover("walrus in an assignment")
        self.assign(target, value)
        self.assign(other, f"{other} + {temp}")

    def starred(self) -> None:
        target, first, rest = self.rng.choice(self.writable()), self.name("p"), self.name("q")
        self.cover("starred unpacking")
        if self.chance(0.5):
            self.emit(f"{first}, *{rest} = [{self.read_var()}, {self.read_var()}, {self.py_small()}]")
        else:
            self.emit(f"*{rest}, {first} = range(1 + {self.py_small()})")
        self.assigned(first, "a")
        self.assign(target, f"{target} + {first} + len({rest})")
        if self.chance(0.4) and not self.tensor:
            self.cover("starred in a call or a list")
            self.assign(target, f"max(*[{target}, {self.read_var()}], *{rest}, 0) + len([*{rest}, 1])")
        elif self.chance(0.4):   # on tensors: each comparison is staged (py_builtins.max_/min_)
            self.cover("min/max of two values")
            self.assign(target, f"max({target}, {self.read_var()}) - min({first}, {self.py_small()})")

    def deletion(self) -> None:
        target = self.rng.choice(self.writable())
        self.cover("del")
        r = self.rng.random()
        if r < 0.4:
            scratch = self.name("w")
            self.emit(f"{scratch} = {self.arith(1)}")
            self.assign(target, f"{target} + {scratch}")
            self.emit(f"del {scratch}")
        elif r < 0.7:
            items = self.name("l")
            self.emit(f"{items} = [{self.read_var()}, {self.read_var()}]")
            self.emit(f"del {items}[0]")
            self.assign(target, f"{items}[0]")
        else:
            self.emit(f"del {target}")
            self.assign(target, str(self.rng.randint(0, 5)))

    def global_statement(self) -> None:
        self.cover("global")
        if not self.global_declared:
            self.emit("global G")
            self.global_declared = True
        self.emit(f"G = G + {self.py_arith()}")

    def stored_lambda(self) -> None:
        name = self.name("g")
        self.cover("lambda (stored, called later)")
        self.emit(f"{name} = lambda v: v * 2 + {self.read_var()}")
        self.callables.append((name, self.staged))

    def import_statement(self) -> None:
        self.cover("import")
        target = self.rng.choice(self.writable())
        if self.chance(0.5):
            alias = self.name("op")
            self.emit(f"import operator as {alias}")
            self.assign(target, f"{alias}.add({target}, {self.read_var()})")
        else:
            self.emit("from functools import reduce")
            self.assign(target, f"reduce(lambda p, q: p + q, [{target}, {self.read_var()}, 1])")

    # -- compound statements ---------------------------------------------------------------

    def if_statement(self) -> None:
        test, staged = self.test()
        self.cover("if")
        self.emit(f"if {test}:")
        self.block("if", staged=staged)
        if self.chance(0.3):
            test_elif = self.tensor_condition() if staged else self.condition(python=True)
            self.emit(f"elif {test_elif}:")
            self.block("if", staged=staged)
        if self.chance(0.5):
            self.emit("else:")
            self.block("if", staged=staged)

    def while_loop(self, ) -> None:
        counter = self.name("n")
        test, staged = self.test()
        if self.chance(0.3) and self.allowed("walrus"):
            self.cover("walrus in a while test")
            self.emit(f"{counter} = {self.rng.randint(0, 3)}")
            self.emit(f"while ({counter} := {counter} - 1) >= 0 and ({test}):")
            self.clean.add(counter)
        else:
            self.cover("while")
            self.emit(f"{counter} = 0")
            self.emit(f"while {counter} < {self.rng.randint(1, 3)} and ({test}):")
            self.indent += 1
            self.emit(f"{counter} += 1")
            self.indent -= 1
        self.loop_block("while", staged=staged, targets=() if staged else (counter,))
        self.loop_else()

    def for_loop(self) -> None:
        target = self.name("i")
        r = self.rng.random()
        self.cover("for")
        if r < 0.5:
            self.emit(f"for {target} in range({self.py_small()}):")
            targets = (target,)
        elif r < 0.7:
            self.emit(f"for {target} in [{self.read_var()}, {self.py_small()}, 2]:")
            targets = (target,) if not self.tensor else ()
        else:
            second = self.name("e")
            wrap = self.rng.choice(["enumerate([{}, 4, {}])", "zip(range(3), [{}, {}])"])
            self.emit(f"for {target}, {second} in {wrap.format(self.py_small(), self.py_small())}:")
            targets = (target, second)
        self.loop_block("for", targets=targets)
        self.loop_else()

    def loop_else(self) -> None:
        if self.chance(0.2):
            self.emit("else:")
            self.block("if", size=1)

    def try_statement(self) -> None:
        self.cover("try")
        self.emit("try:")
        self.block("try-body")
        handlers = self.rng.choice([0, 1, 1, 2])
        finally_ = handlers == 0 or self.chance(0.4)
        for clause in self.rng.sample(["except ValueError as e:", "except (KeyError, ZeroDivisionError):",
                                       "except LookupError as e:", "except Exception:"], handlers):
            self.emit(clause)
            if " as e" in clause and self.chance(0.5):
                self.indent += 1
                target = self.rng.choice(self.writable())
                self.assign(target, f"{target} + len(e.args)")
                self.indent -= 1
            self.block("except")
        if handlers and self.chance(0.4):
            self.emit("else:")
            self.block("try-else")
        if finally_:
            self.emit("finally:")
            self.block("finally")

    def with_statement(self) -> None:
        r = self.rng.random()
        alias = self.name("m")
        if r < 0.35 or r >= 0.7 and not self.allowed("contextmanager"):
            self.cover("with")
            self.emit(f"with Track() as {alias}:")
        elif r < 0.7:
            self.cover("with (suppresses exceptions)")
            self.emit(f"with {self.rng.choice(['Suppress()', 'Track(), Suppress()'])} as {alias}:" if self.chance(0.5)
                      else f"with Track() as {alias}, Suppress():")
        else:
            self.cover("with (contextmanager helper)")
            self.emit(f"with tracked() as {alias}:")
        self.clean.add(alias)
        self.readable = self.readable + [alias]
        self.block("with")
        self.readable = [n for n in self.readable if n != alias]

    def match_statement(self) -> None:
        self.cover("match")
        p, q = self.name("p"), self.name("q")
        shape = self.rng.choice(["int", "list", "point", "dict"])
        subject = {"int": "{0}", "list": "[{0}, {1}]", "point": "Point({0}, {1})",
                   "dict": '{{"k": {0}}}'}[shape].format(self.py_small(), self.py_small())
        cases = {"int": [("0 | 1", ()), (f"int({p}) if {p} > 1", (p,))],
                 "list": [(f"[{p}, {q}]", (p, q)), (f"[{p}, *{q}]", (p,)), ("[0, _]", ())],
                 "point": [(f"Point(x=0, y={q})", (q,)), (f"Point({p}, {q})", (p, q))],
                 "dict": [('{"k": 0}', ()), (f'{{"k": {p}}}', (p,))]}[shape]
        self.emit(f"match {subject}:")
        self.indent += 1
        for pattern, captures in self.rng.sample(cases, self.rng.randint(1, len(cases))):
            if captures:
                self.cover("match capture")
            self.emit(f"case {pattern}:")
            self.readable = self.readable + list(captures)
            self.clean |= set(captures)
            self.block("match-case")
            self.readable = [n for n in self.readable if n not in captures]
        if self.chance(0.5):
            self.emit("case _:")
            self.block("match-case")
        self.indent -= 1

    # -- the program -----------------------------------------------------------------------

    def program(self) -> str:
        self._reset()
        x, y, z = self.vars
        self.emit(f"{x} = a")
        self.emit(f"{y} = {2 if self.tensor else 'b'}")
        self.emit(f"{z} = 0")
        for _ in range(self.rng.randint(2, 5)):
            self.statement()
        self.emit(f"return {x}, {y}, {z}")
        return PRELUDE + "\n\ndef f(a, b):\n" + "\n".join(self.lines) + "\n"


def generate_with_coverage(seed: int, tensor: bool = False, exclude=frozenset()) -> tuple[str, Counter]:
    gen = PyGenerator(random.Random(seed), tensor=tensor, exclude=frozenset(exclude))
    return gen.program(), gen.coverage


def generate(seed: int, tensor: bool = False, exclude=frozenset()) -> str:
    return generate_with_coverage(seed, tensor, exclude)[0]


def coverage_table(coverage: Counter) -> str:
    """Construct kinds (rows) x block kinds they sit in (columns), as a Markdown table of counts."""
    kinds = sorted({k for k, _ in coverage})
    header = "| construct | " + " | ".join(BLOCKS) + " | total |"
    rows = [header, "|---" * (len(BLOCKS) + 2) + "|"]
    for kind in kinds:
        counts = [coverage.get((kind, b), 0) for b in BLOCKS]
        rows.append(f"| {kind} | " + " | ".join(str(c) for c in counts) + f" | {sum(counts)} |")
    return "\n".join(rows)

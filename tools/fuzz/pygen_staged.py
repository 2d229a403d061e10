"""pygen's patterns for values across staged statements (issue 14), a mixin of `pygen.PyGenerator` (which
owns the state they use).

Each pattern is a statement with what it needs before and a read after: a name first assigned in
the statement; `None` before it (read with `is None`, in arithmetic, returned);
a Python int the body makes a float; a vector whose length doubles in a loop;
item and attribute stores (existing keys, keys made on every path or on some);
a mutating call (`update`, `pop`, `insert`, `extend`, `del`, `setattr`, a slice
store, an append through an alias); a `raise`; `x or k` / `x and k` as values.
In a tensor program the statement is staged (`if`, `while` with a counter, or
`for` over `range` of a tensor), so mode t must give Python's answer or refuse.
"""
from __future__ import annotations


class StagedPatterns:
    # Each writes a whole pattern: values set up before a statement, the statement (staged in a tensor
    # program: its test reads a tensor), and a read after it that shows what the statement left.

    def staged_test(self) -> str:
        """A test that stages its statement in a tensor program (Python values otherwise)."""
        if self.tensor and any(n not in self.clean for n in self.vars + ["a", "b"]):
            return self.tensor_condition()
        return self.condition(python=True)

    def staged_header(self, context: str, loops_only: bool = False) -> None:
        """Opens an `if`, a `while` with a counter, or a `for` over `range` of a tensor; the body is one deeper."""
        r = self.rng.uniform(0.45 if loops_only else 0.0, 1.0)
        if r < 0.45:
            self.cover(f"{context}: in an if")
            self.emit(f"if {self.staged_test()}:")
        elif r < 0.75:
            counter = self.name("n")
            self.cover(f"{context}: in a while")
            self.emit(f"{counter} = 0")
            self.emit(f"while {counter} < {self.rng.randint(1, 3)} and ({self.staged_test()}):")
            self.emit(f"    {counter} += 1")
        else:
            bound = self.rng.choice([n for n in self.vars + ["a", "b"] if n not in self.clean] or ["a"]) \
                if self.tensor else self.read_var()
            self.cover(f"{context}: in a for over range")
            self.emit(f"for {self.name('i')} in range(({bound}) % 3):")

    def staged_body(self, lines: list) -> None:
        for line in lines:
            self.emit("    " + line)

    def else_branch(self, lines: list) -> None:
        """An `else:` (only after an `if` header: a loop's `else:` means something else)."""
        if self.lines[-1].lstrip().startswith("if ") and lines:
            self.emit("else:")
            self.staged_body(lines)

    def dirty_value(self) -> str:
        """A value that is a tensor in a tensor program when one is around (a staged body's value)."""
        names = [n for n in self.vars + ["a", "b"] if n not in self.clean] if self.tensor else []
        var = self.rng.choice(names) if names else self.read_var()
        return f"{var} + {self.rng.randint(0, 4)}"

    def after(self, text: str) -> None:
        """A read after the statement: always, or behind a Python test (maybe on no path)."""
        target = self.rng.choice(self.vars)
        if self.chance(0.3):
            self.emit(f"if {self.condition(python=True)}:")
            self.emit(f"    {target} = {target} + {text}")
        else:
            self.emit(f"{target} = {target} + {text}")
        self.assigned(target, "a")

    def undefined_after(self) -> None:
        """A name first assigned inside the statement and read after it (Python: UnboundLocalError on the
        paths that did not assign it)."""
        name = self.name("w")
        self.cover("first assigned in a staged statement, read after")
        self.staged_header("undefined before")
        self.staged_body([f"{name} = {self.dirty_value()}"])
        if self.chance(0.3):
            self.else_branch([f"{name} = {self.rng.randint(0, 5)}"])
        self.after(name)

    def none_before(self) -> None:
        """`r = None` before, maybe assigned in the statement; after it: `is None` tests, `or`, or the value."""
        name = self.name("r")
        self.cover("None before a staged statement")
        self.emit(f"{name} = None")
        self.staged_header("None before")
        self.staged_body([f"{name} = {self.dirty_value()}"])
        r = self.rng.random()
        target = self.rng.choice(self.vars)
        if r < 0.35:
            self.cover("`is None` after a staged statement")
            self.emit(f"if {name} is not None:" if self.chance(0.5) else f"if not ({name} is None):")
            self.emit(f"    {target} = {target} + {name}")
        elif r < 0.55:
            self.cover("`x if x is not None else` after a staged statement")
            self.emit(f"{target} = {target} + ({name} if {name} is not None else {self.rng.randint(0, 3)})")
        elif r < 0.75:
            self.cover("maybe-None value returned")
            self.emit(f"{target} = {name}")
        else:
            self.cover("maybe-None value in arithmetic")
            self.emit(f"{target} = {target} + {name}")
        self.assigned(target, "a")

    def list_after_loop(self) -> None:
        """A list appended to in a loop, then read with Python's list operators after it (a slice, `+` with a
        list, `* 2`, `==`, truth): on the stacked list a staged loop leaves, each must keep a list's meaning."""
        name = self.name("l")
        self.cover("list appended to in a staged loop")
        self.emit(f"{name} = [{self.rng.randint(0, 3)}]")
        self.staged_header("list append", loops_only=True)
        self.staged_body([f"{name}.append({self.dirty_value()})"])
        k = self.rng.randint(0, 4)
        read, kind = self.rng.choice([
            (f"len({name}[1:] + [{k}])", "slice + list"), (f"({name} * 2)[-1]", "list * 2"),
            (f"({name}[::-1] + {name})[0]", "reversed slice + list"), (f"len({name} + {name})", "list + list"),
            (f"(1 if {name} == [{k}] else 2)", "list == list"), (f"(1 if {name}[1:] else 2)", "truth of a slice"),
            (f"({name} + [{k}])[-1]", "list + [k], last item")])
        self.cover(f"list after a staged loop: {kind}")
        self.after(read)

    def int_to_float(self) -> None:
        """A Python int before the statement that the body makes a float (a tensor's times 0.5)."""
        name = self.name("s")
        self.cover("int made float in a staged statement")
        self.emit(f"{name} = {self.rng.randint(0, 3)}")
        self.staged_header("int to float")
        self.staged_body([f"{name} = {name} + half({self.dirty_value()})"])
        self.after(f"whole({name} * 2)")

    def shape_growth(self) -> None:
        """A vector that doubles in length in a loop (a shape that changes from one iteration to the next)."""
        name, counter = self.name("q"), self.name("n")
        self.cover("vector that grows in a staged loop")
        self.emit(f"{name} = vec({self.dirty_value()})")
        self.emit(f"{counter} = 0")
        self.emit(f"while size({name}) < {self.rng.randint(2, 6)} and ({self.staged_test()}):")
        self.emit(f"    {name} = cat({name})")
        self.after(f"total({name})")

    def item_store(self) -> None:
        """Item and attribute stores in the statement, on a dict or object made before it (existing keys,
        keys first created in it on every path or on some)."""
        name = self.name("d")
        if self.chance(0.5):
            self.cover("dict item store in a staged statement")
            self.emit(f'{name} = {{"k": {self.read_var()}}}')
            key = '"k"' if self.chance(0.6) else '"n"'
            self.staged_header("item store")
            self.staged_body([f"{name}[{key}] = {self.dirty_value()}"])
            if key == '"n"':
                self.cover("dict item first created in a staged statement")
            self.else_branch([f"{name}[{key}] = {self.rng.randint(0, 5)}"] if self.chance(0.6) else [])
            self.after(self.rng.choice([f'{name}["k"]', f"len({name})", f'{name}.get("n", 0)']))
        else:
            self.cover("attribute store in a staged statement")
            self.emit(f"{name} = Box()")
            self.emit(f"{name}.v = {self.read_var()}")
            attr = "v" if self.chance(0.6) else "u"
            self.staged_header("attribute store")
            self.staged_body([f"{name}.{attr} = {self.dirty_value()}"])
            self.else_branch([f"{name}.{attr} = {self.rng.randint(0, 5)}"] if self.chance(0.6) else [])
            self.after(self.rng.choice([f"{name}.v", f'getattr({name}, "u", 0)']))

    def mutating_call(self) -> None:
        """A mutating method call (or `del`, `setattr`, a slice store) on a dict/list/object made before it."""
        d, l, o, a = self.name("d"), self.name("l"), self.name("o"), self.name("al")
        self.emit(f'{d} = {{"k": {self.read_var()}}}')
        self.emit(f"{l} = [{self.read_var()}, 1]")
        self.emit(f"{o} = Box()")
        self.emit(f"{o}.v = 0")
        value = self.dirty_value()
        kind, line = self.rng.choice([
            ("dict.update", f"{d}.update(k={value})"), ("dict.pop", f'{d}.pop("k")'),
            ("dict.setdefault", f'{d}.setdefault("n", {value})'), ("list.insert", f"{l}.insert(0, {value})"),
            ("list.extend", f"{l}.extend([{value}])"), ("list.reverse", f"{l}.reverse()"),
            ("del item", f'del {d}["k"]'), ("setattr", f'setattr({o}, "v", {value})'),
            ("slice store", f"{l}[0:1] = [{value}]"), ("append through an alias", f"{a}.append({value})"),
        ])
        if kind == "append through an alias":
            self.emit(f"{a} = {l}")
        self.cover(f"mutating call in a staged statement ({kind})")
        self.staged_header("mutating call")
        self.staged_body([line])
        self.after(f'{d}.get("k", 7) + {l}[0] + len({l}) + {o}.v')

    def carried_number(self) -> None:
        """A Python number a staged statement carries (Python values on each path), read after it as Python
        reads a number: times a float, divided, its type asked, its text formatted and compared."""
        name = self.name("s")
        self.cover("Python number carried by a staged statement")
        self.emit(f"{name} = {self.rng.choice(['0', '1', '2', 'True', 'False'])}")
        self.staged_header("carried number")
        k = self.rng.randint(0, 3)
        self.staged_body([self.rng.choice([f"{name} = {name} + {k}", f"{name} = {k}", f"{name} += 1",
                                           f"{name} = not {name}"])])
        if self.chance(0.4):
            self.else_branch([f"{name} = {self.rng.randint(0, 3)}"])
        read, kind = self.rng.choice([
            (f"whole({name} * 1.5 * 2)", "times a float"), (f"whole({name} / 2 * 2)", "divided"),
            (f"whole(1.5 * {name} + 0.5)", "a float times it"),
            (f"(1 if isinstance({name}, int) else 2)", "isinstance int"),
            (f"(1 if isinstance({name}, bool) else 2)", "isinstance bool"),
            (f"(1 if type({name}) is int else 2)", "type is int"),
            (f"len(str({name}))", "len of str"), (f'(1 if f"{{{name}}}" == "{k}" else 2)', "f-string =="),
            (f'(1 if str({name}) != "True" else 2)', "str !="),
        ])
        self.cover(f"carried number after a staged statement: {kind}")
        self.after(read)

    def staged_raise(self) -> None:
        """A `raise` in the statement (in a tensor program: raised only on the paths that run it)."""
        self.cover("raise in a staged statement")
        self.staged_header("raise")
        error = self.rng.choice(["ValueError", "KeyError", "ZeroDivisionError"])
        if self.chance(0.5):
            self.staged_body([f"if {self.staged_test()}:", f"    raise {error}({self.rng.randint(0, 9)})"])
        else:
            self.staged_body([f"raise {error}({self.rng.randint(0, 9)})"])

    def and_or_value(self) -> None:
        """`x or k` / `x and k` used as a value (Python gives an operand back)."""
        target = self.rng.choice(self.writable())
        op = self.rng.choice(["or", "and"])
        self.cover(f"`{op}` used as a value")
        self.assign(target, f"({self.read_var()} {op} {self.arith(1)})")


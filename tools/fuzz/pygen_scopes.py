"""pygen's statements about scopes and iteration: nested `def`s (with `nonlocal`, defined in branches,
rebound in loops), lambdas created in a loop (late binding), classes, and iterators consumed by a `for`
or by `next` and read again. A mixin of `pygen.PyGenerator`, which owns the state they use."""
from __future__ import annotations


class ScopeStatements:
    def _def(self, name: str, nonlocal_: str | None = None, size: int | None = None) -> None:
        """`def name(v):` with a body that may read f's variables and returns an int."""
        self.emit(f"def {name}(v):")
        saved = (self.locals, self.loops, self.clean, self.readable, self.staged)
        self.indent += 1
        self.in_def += 1
        self.locals, self.loops = ["u", "v"], 0
        self.staged = self.staged or self.tensor
        if nonlocal_:
            self.cover("nonlocal")
            self.emit(f"nonlocal {nonlocal_}")
            self.locals = ["u", "v", nonlocal_]
        self.emit("u = 0")
        self.indent -= 1
        self.block("nested def", size=size)
        self.indent += 1
        self.emit(f"return u + v + {self.read_var()}")
        self.indent -= 1
        self.in_def -= 1
        self.locals, self.loops, self.clean, self.readable, self.staged = saved

    def _def_name(self) -> str:
        if "generated-name" not in self.exclude and self.chance(0.15):
            return self.rng.choice(["loop_body", "if_true", "fscope", "retval_"])
        return self.name("h")

    def nested_def(self) -> None:
        name = self._def_name()
        nonlocal_ = self.rng.choice(self.vars) if self.effects_ok and self.allowed("nonlocal") and \
            self.chance(0.4) else None
        self.cover("def (nested), called in its block")
        self._def(name, nonlocal_)
        target = self.rng.choice(self.writable())
        if nonlocal_ and self.tensor:
            self.assigned(nonlocal_, "a")
        self.assign(target, f"{target} + {name}({self.read_var()})")
        self.callables.append((name, self.staged))

    def def_in_branches(self) -> None:
        name = self._def_name()
        self.cover("def in both branches, called after")
        test, staged = self.test()
        self.emit(f"if {test}:")
        self.indent += 1
        self.emit(f"def {name}(v):")
        self.emit(f"    return v + {self.read_var()}")
        self.indent -= 1
        self.emit("else:")
        self.indent += 1
        self.emit(f"def {name}(v):")
        self.emit("    return v * 2")
        self.indent -= 1
        target = self.rng.choice(self.writable())
        self.assign(target, f"{target} + {name}({self.read_var()})")

    def def_rebound_in_loop(self) -> None:
        name, i = self._def_name(), self.name("i")
        self.cover("def rebound in a loop, called after")
        self.emit(f"{name} = double")
        self.emit(f"for {i} in range({self.py_small()}):")
        self.indent += 1
        self.emit(f"def {name}(v):")
        self.emit(f"    return v + {i}")
        self.indent -= 1
        target = self.rng.choice(self.writable())
        self.assign(target, f"{target} + {name}(1)")

    def lambdas_in_loop(self) -> None:
        fs, i = self.name("fs"), self.name("i")
        self.cover("lambdas created in a loop (late binding)")
        self.emit(f"{fs} = []")
        self.emit(f"for {i} in range({self.py_small()}):")
        default = f", {i}={i}" if self.chance(0.3) else ""
        self.emit(f"    {fs}.append(lambda v{default}: v * {i})")
        target = self.rng.choice(self.writable())
        self.assign(target, f"{target} + sum(fn(2) for fn in {fs})")

    def class_statement(self) -> None:
        name = self.name("C")
        self.cover("class")
        self.emit(f"class {name}:")
        self.emit(f"    val = {self.py_arith()}")
        self.emit("    def get(self, v):")
        self.emit("        return v + self.val")
        target = self.rng.choice(self.writable())
        self.assign(target, f"{target} + {name}().get({self.read_var()}) + {name}.val")

    def iterator_for(self) -> None:
        it, v = self.name("it"), self.name("v")
        kind = self.rng.choice(["iter", "zip", "enumerate"])
        self.cover(f"for over {kind}(iterator), break, read again")
        self.emit(f"{it} = iter([{self.py_small()}, 1, 2, 3])")
        loop = {"iter": f"for {v} in {it}:", "zip": f"for {v}, _ in zip({it}, range({self.py_small()})):",
                "enumerate": f"for _, {v} in enumerate({it}):"}[kind]
        self.emit(loop)
        self.indent += 1
        self.emit(f"if {v} == {self.rng.randint(0, 2)}:")
        self.emit("    break")
        self.indent -= 1
        target = self.rng.choice(self.writable())
        self.assign(target, f"{target} + len(list({it}))")

    def drain_with_next(self) -> None:
        it = self.name("it")
        target = self.rng.choice(self.writable())
        self.cover("next() until StopIteration in a try")
        self.emit(f"{it} = iter([{self.py_small()}, 1, 2])")
        self.emit("try:")
        self.emit("    while True:")
        self.emit(f"        {target} += next({it})")
        self.emit("except StopIteration:")
        self.emit("    pass")
        self.assigned(target, "a")

    def iterator_return(self) -> None:
        it, v = self.name("it"), self.name("v")
        self.cover("return from a for over an iterator, read in finally")
        self.emit(f"{it} = iter([{self.py_small()}, 1, 2, 3])")
        self.emit("try:")
        self.emit(f"    for {v} in {it}:")
        self.emit(f"        if {v} == {self.rng.randint(0, 2)}:")
        self.emit(f"            return {self.vars[0]}, {', '.join(self.vars[1:])}")
        self.emit("finally:")
        self.emit(f"    record(len(list({it})))")


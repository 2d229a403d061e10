"""pyct.mangling: a method's private names, mangled as Python compiles them in its class."""
import gast

from autograph.pyct import mangling


class Outer:
    class _Inner:
        def method(self):
            def nested():
                return 1
            return nested

    def method(self):
        return lambda: 1


def plain():
    class Local:
        def method(self):
            return 1
    return Local


def test_owning_class_is_the_innermost_class_around_the_code():
    assert mangling.owning_class(Outer.method.__code__) == "Outer"
    assert mangling.owning_class(Outer._Inner.method.__code__) == "_Inner"
    assert mangling.owning_class(Outer._Inner().method().__code__) == "_Inner"
    assert mangling.owning_class(Outer().method().__code__) == "Outer"
    assert mangling.owning_class(plain().method.__code__) == "Local"
    assert mangling.owning_class(plain.__code__) is None


def test_private_identifiers_are_mangled_and_dunders_are_not():
    tree = gast.parse("def m(self, __a, *, __k=1):\n"
                      "    global __g\n"
                      "    import __mod as __alias\n"
                      "    self.__x = f(__a, __kw=__k) + self.__init__ + __g.__y__\n")
    mangling.mangle(tree, "_Cls")
    names = {n.id for n in gast.walk(tree) if isinstance(n, gast.Name)}
    attrs = {n.attr for n in gast.walk(tree) if isinstance(n, gast.Attribute)}
    assert names >= {"_Cls__a", "_Cls__k", "_Cls__g", "self", "f"} and "__a" not in names
    assert attrs == {"_Cls__x", "__init__", "__y__"}
    assert [k.arg for k in gast.walk(tree) if isinstance(k, gast.keyword)] == ["_Cls__kw"]
    assert [(a.name, a.asname) for a in gast.walk(tree) if isinstance(a, gast.alias)] == [("_Cls__mod", "_Cls__alias")]
    assert [g.names for g in gast.walk(tree) if isinstance(g, gast.Global)] == [["_Cls__g"]]


class __:
    def method(self):
        return 1


def test_the_prefix_strips_the_class_names_underscores_and_a_class_of_underscores_mangles_nothing():
    assert mangling.private_prefix(Outer._Inner.method.__code__) == "_Inner"
    assert mangling.private_prefix(__.method.__code__) is None
    assert mangling.private_prefix(plain.__code__) is None
    assert mangling.mangled("__x", "_C") == "_C__x" and mangling.mangled("__x__", "_C") == "__x__"
    assert mangling.mangled("__x", None) == "__x"

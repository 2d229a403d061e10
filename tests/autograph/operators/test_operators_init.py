"""autograph.operators' public names: everything generated code calls is exported as `ag__.<name>`."""
import autograph
from autograph import operators


def test_every_exported_operator_is_reachable_from_autograph():
    for name in operators.__all__:
        assert getattr(autograph, name) is getattr(operators, name), name


def test_the_operators_generated_code_uses_are_exported():
    needed = {"if_stmt", "while_stmt", "for_stmt", "if_exp", "and_", "or_", "not_", "ld", "Undefined",
              "UndefinedReturnValue", "FunctionScope", "ConversionOptions", "list_append", "list_pop",
              "list_stack", "assert_stmt", "print_", "len_", "range_", "enumerate_", "zip_", "abs_", "int_",
              "float_"}
    assert needed <= set(operators.__all__)

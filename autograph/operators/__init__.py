"""What generated code calls at run time (as `ag__.<name>`).

Each operator keeps Python semantics on Python values and asks
`autograph.backends` what to do with a framework's staged values.
"""
from autograph.operators.exceptions import caught_exception, context
from autograph.operators.control_flow import if_exp, if_stmt, match_guard, match_subject
from autograph.operators.loops import for_stmt, while_stmt
from autograph.operators.function_scope import ConversionOptions, FunctionScope
from autograph.operators.lists import list_append, list_pop, list_pop_in_place, list_stack
from autograph.operators.logical import (and_, and_test, chain_compare, is_, is_none, is_not, is_not_none,
                                         not_, or_, or_test)
from autograph.operators.py_builtins import (abs_, assert_stmt, enumerate_, float_, int_, isinstance_, len_,
                                             print_, range_, zip_)
from autograph.operators.strings import formatted, fstring, in_, mod, not_in, percent
from autograph.operators.side_effects import in_place, mutating, mutating_outer
from autograph.operators.variables import Local, Undefined, UndefinedReturnValue, ld

__all__ = [
    "if_stmt", "while_stmt", "for_stmt", "if_exp", "and_", "or_", "and_test", "or_test", "not_", "chain_compare", "is_none", "is_not_none", "is_", "is_not", "ld", "Local", "Undefined",
    "UndefinedReturnValue", "FunctionScope", "ConversionOptions", "list_append", "list_pop", "list_pop_in_place", "list_stack",
    "assert_stmt", "print_", "len_", "range_", "enumerate_", "zip_", "abs_", "int_", "float_",
    "isinstance_", "match_subject", "match_guard", "caught_exception", "context", "mutating", "mutating_outer", "in_place",
    "formatted", "fstring", "percent", "mod", "in_", "not_in",
]

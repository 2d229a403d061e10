"""lists: `append` and `pop` statements become list operators, with Python's meaning on Python lists."""
import pytest

import autograph as ag
from tests.autograph.converters.conftest import dual_run, generated


def pops(values, i):
    stack = list(values)
    first = stack.pop(i)
    stack.pop()
    total = 0
    total += stack.pop()
    return first, total, stack, values


def pop_in_an_expression(values):
    stack = list(values)
    pair = (stack.pop(), stack.pop())
    return pair, stack


def return_pop(values):
    stack = list(values)
    stack.append(9)
    return stack.pop(0)


def test_pop_statements_become_list_pop():
    code = generated(pops)
    assert "stack, first = ag__.list_pop(stack, i)" in code
    assert "stack = ag__.list_pop(stack)[0]" in code
    assert "stack, popped = ag__.list_pop(stack)\n        total += popped" in code
    assert "stack, retval_ = ag__.list_pop(stack, 0)" in generated(return_pop)


def pop_in_a_test(values):
    stack = list(values)
    s = 0
    while stack and stack.pop() > 2:
        s += stack.pop(0) * 10 if stack else 0
    return s, stack


def test_a_pop_inside_a_larger_expression_pops_in_place():
    assert "pair = (ag__.list_pop_in_place(stack), ag__.list_pop_in_place(stack))" \
        in generated(pop_in_an_expression)
    code = generated(pop_in_a_test)
    assert "lambda: ag__.list_pop_in_place(stack) > 2" in code
    assert "ag__.list_pop_in_place(stack, 0) * 10" in code   # in a conditional expression's lambda


def test_a_pop_in_a_lambda_is_left_for_the_lambda_s_own_conversion():
    def later(values):
        stack = list(values)
        take = lambda: stack.pop()  # noqa: E731
        return take() + take(), stack
    assert "list_pop" not in generated(later)
    dual_run(later, [1, 2, 3])


@pytest.mark.parametrize("values, i", [([1, 2, 3, 4, 5], 0), ([1, 2, 3, 4], -1), ([5, 6, 7, 8], 2)])
def test_pops_keep_python_semantics(values, i):
    dual_run(pops, values, i)
    dual_run(pop_in_an_expression, values)
    dual_run(pop_in_a_test, values)
    dual_run(return_pop, values)


@pytest.mark.parametrize("values, i", [([1, 2], 0), ([1, 2, 3], 5)])
def test_pops_past_the_end_raise_index_error_like_python(values, i):
    with pytest.raises(IndexError):
        pops(values, i)
    with pytest.raises(IndexError):
        ag.convert()(pops)(values, i)


def pop_onto_an_item_of_the_list(values):
    stack = list(values)
    stack[-1] += stack.pop()   # Python reads stack[-1] before the pop
    return stack


def pop_onto_an_item_its_key_reads_the_list(values):
    stack = list(values)
    sizes = {n: 0 for n in range(len(values) + 1)}
    sizes[len(stack)] += stack.pop()   # the key is the length before the pop
    return sizes


class _Box:
    v = 0


def pop_onto_an_attribute_its_object_reads_the_list(values):
    stack = list(values)
    boxes = [_Box() for _ in values]
    boxes[len(stack) - 1].v += stack.pop()
    return [b.v for b in boxes]


def append_of_a_walrus_rebinding_the_list(values):
    stack = list(values)
    stack.append(stack := [7])   # appends to the list held before; `stack` is the new one after
    return stack


def pop_whose_index_rebinds_the_list(values):
    stack = list(values)
    first = stack.pop((stack := [8, 9]) and 0)
    return first, stack


ORDER = [pop_onto_an_item_of_the_list, pop_onto_an_item_its_key_reads_the_list,
         pop_onto_an_attribute_its_object_reads_the_list, append_of_a_walrus_rebinding_the_list,
         pop_whose_index_rebinds_the_list]


@pytest.mark.parametrize("fn", ORDER, ids=lambda fn: fn.__name__)
def test_a_pop_or_append_keeps_pythons_order_of_evaluation(fn):
    dual_run(fn, [1, 2, 3])


def test_a_pop_onto_an_item_or_attribute_pops_in_place():
    code = generated(pop_onto_an_item_of_the_list)
    assert "ag__.list_pop_in_place(stack)" in code and "ag__.list_pop(" not in code
    assert "list_append" not in generated(append_of_a_walrus_rebinding_the_list)

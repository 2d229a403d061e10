"""control_flow (with break/continue/return lowering): golden text and dual runs."""
import hypothesis.strategies as st
from hypothesis import given, settings

from tests.autograph.converters.conftest import dual_run, generated


def nested_loops(n, m):
    total = 0
    for i in range(n):
        j = 0
        while j < m:
            if (i + j) % 3 == 0:
                j += 1
                continue
            if i * j > 6:
                break
            total += i * j
            j += 1
        else:
            total -= 1
    return total


def early_return_in_while(xs):
    i = 0
    while i < len(xs):
        if xs[i] < 0:
            return i
        i += 1
    return -1


def for_else_with_break(xs, target):
    for x in xs:
        if x == target:
            found = True
            break
    else:
        found = False
    return found


def unused_temporaries(n):
    tmp = 0
    s = 0
    while n > 0:
        tmp = n * 2
        s += tmp
        n -= 1
    return s


def tuple_target_over_dict_items(d):
    keys = []
    total = 0
    for k, v in d.items():
        keys.append(k)
        total += v
    return keys, total


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 6), st.integers(0, 6))
def test_nested_loops_with_break_continue_and_else(n, m):
    dual_run(nested_loops, n, m)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-3, 5), max_size=6))
def test_early_return_and_for_else(xs):
    dual_run(early_return_in_while, xs)
    dual_run(for_else_with_break, xs, 2)


def test_for_over_any_iterable():
    dual_run(tuple_target_over_dict_items, {"a": 1, "b": 2})
    import autograph as ag
    assert ag.convert()(for_else_with_break)(iter([1, 2, 3]), 3) is True  # a one-shot iterator
    dual_run(for_else_with_break, "abc", "b")


def test_loop_state_is_only_what_is_live():
    code = generated(unused_temporaries)
    assert "('n', 's')" in code
    assert "'tmp'" not in code
    dual_run(unused_temporaries, 4)


def test_break_lowers_to_a_flag_and_extra_test():
    code = generated(for_else_with_break)
    assert not [line for line in code.splitlines() if line.strip() == "break"]
    assert "break_ = True" in code
    assert "extra_test=" in code
    assert "ag__.if_stmt(ag__.not_(break_)" in code  # the loop's else: runs unless it broke


def test_return_inside_loop_stops_the_loop():
    code = generated(early_return_in_while)
    assert "ag__.while_stmt(" in code and "do_return" in code
    assert code.count("return fscope.ret(retval_, do_return)") == 1


def first_negative(xs):
    for x in xs:
        if x < 0:
            return x        # and None when no x is negative


def test_only_a_function_that_may_end_without_return_says_so_to_ret():
    assert generated(first_negative).rstrip().endswith("return fscope.ret(retval_, do_return, may_fall_off=True)")
    assert generated(early_return_in_while).rstrip().endswith("return fscope.ret(retval_, do_return)")
    for xs in ([1, -2, -3], [1, 2], []):
        dual_run(first_negative, xs)


COUNTER = 0


def assigns_global_in_loop(n):
    global COUNTER
    while n > 0:
        COUNTER = n
        n -= 1
    return n


def break_and_return_inside_try(xs):
    out = []
    for x in xs:
        try:
            if x > 2:
                break
            if x < 0:
                return x
            out.append(x)
        finally:
            out.append("f")
    return out


def test_a_global_written_in_a_loop_is_python_on_python_values():
    import autograph as ag
    global COUNTER
    COUNTER = 0
    expected = assigns_global_in_loop(2), COUNTER
    COUNTER = 0
    assert (ag.convert()(assigns_global_in_loop).generated(2), COUNTER) == expected


def test_jumps_inside_try_finally_keep_python_semantics():
    for xs in ([1, 2, 3, 1], [1, -1, 2], []):
        dual_run(break_and_return_inside_try, xs)


# --- attributes and items assigned in a statement (composites) ------------------------------------------

class Box:
    def __init__(self, **fields):
        self.__dict__.update(fields)


def composite_kinds(n):
    box, d = Box(count=0, inner=Box(total=0), items=[0]), {"sum": 0}
    while box.count < n:
        box.count += 1
        box.inner.total, d["sum"] = box.inner.total + n, d["sum"] + 1
        d[n] = n               # a key in a variable the loop does not assign: carried as (d, n)
        box.items[0]: int = n

        def helper():
            box.hidden = 1     # a nested function's assignment: not the loop's
    return box.count, box.inner.total, d, box.items


def composites_under_changed_roots(n):
    box, other = Box(part=None), Box(x=0, part=Box(y=0))
    for i in range(n):
        box.part = Box(y=i)    # carried; `box.part.y` below is not: its object changes
        box.part.y = i + 1
        other = Box(x=i, part=Box(y=0))
        other.x = i            # the root is reassigned: not carried
    return box.part.y, other.x


def test_composites_are_passed_to_the_operator_with_their_names():
    code = generated(composite_kinds)
    assert ("composites={'box.count': lambda: box, 'box.inner.total': lambda: box, "
            "\"d['sum']\": lambda: d, 'box.items[0]': lambda: box, 'd[n]': lambda: (d, n)})") in code
    assert "hidden" not in code.split("composites=")[1]
    assert dual_run(composite_kinds, 3) == (3, 9, {"sum": 3, 3: 3}, [3])


def test_a_composite_whose_object_changes_in_the_body_is_not_passed():
    code = generated(composites_under_changed_roots)
    assert "composites={'box.part': lambda: box})" in code
    assert dual_run(composites_under_changed_roots, 3) == (3, 2)


def test_without_composites_the_generated_code_does_not_change():
    assert "composites" not in generated(nested_loops) + generated(tuple_target_over_dict_items)

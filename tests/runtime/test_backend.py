"""runtime registered as an autograph backend: each capability on real symbolic tensors."""
from __future__ import annotations

import pytest

import runtime as tf
from autograph import backends
from autograph.errors import StagingError
from runtime.backend import BACKEND
from runtime.control_flow import ControlFlowError


def graph_ops(fn, *args):
    return [op.type for op in fn.get_concrete_function(*args).graph.get_operations()]


def test_runtime_is_registered_and_claims_only_symbolic_tensors():
    assert BACKEND in backends.registered() and "runtime" in backends.owned_module_prefixes()
    assert backends.backend_for(tf.constant(1)) is None            # eager: Python semantics
    seen = []

    @tf.function
    def f(x):
        seen.append(backends.backend_for(x))
        return x

    f(tf.constant(1))
    assert seen == [BACKEND]


def test_if_on_a_symbolic_tensor_becomes_cond():
    @tf.function
    def relu(x):
        if x > 0:
            y = x
        else:
            y = tf.constant(0.0)
        return y

    assert relu(tf.constant(2.0)).numpy() == 2.0 and relu(tf.constant(-2.0)).numpy() == 0.0
    assert "Cond" in graph_ops(relu, tf.constant(1.0))


def test_while_and_for_over_range_and_tensor():
    @tf.function
    def f(n, xs):
        i = tf.constant(0)
        while i < n:
            i += 2
        total = tf.constant(0)
        for j in range(n):
            total += j
        for x in xs:
            total += x
        return i, total

    i, total = f(tf.constant(5), tf.constant([10, 20]))
    assert i.numpy() == 6 and total.numpy() == 10 + 30
    assert graph_ops(f, tf.constant(5), tf.constant([10, 20])).count("While") == 3


def test_break_in_a_tensor_loop():
    @tf.function
    def first_over(xs, limit):
        found = tf.constant(-1)
        for x in xs:
            if x > limit:
                found = x
                break
        return found

    assert first_over(tf.constant([1, 5, 9]), tf.constant(3)).numpy() == 5
    assert first_over(tf.constant([1, 2]), tf.constant(3)).numpy() == -1


def test_and_or_are_lazy_in_graphs():
    @tf.function
    def f(x):
        return (x > 0 and x < 10), (x > 0 or tf.gather(x[None], 5) > 0)

    a, b = f(tf.constant(3))
    assert a.numpy() and b.numpy()               # the out-of-range gather is never run


def test_and_or_on_non_bool_tensors_give_an_operand_as_python_does():
    def fallback(x):
        return x or 5, x and 7, x and -x

    staged = tf.function(fallback)
    for v in (0, 3, -2):
        expected = fallback(v)
        got = staged(tf.constant(v))
        assert [t.dtype for t in got] == [tf.int32] * 3
        assert [t.numpy() for t in got] == list(expected)
        assert [int(t) for t in fallback(tf.constant(v))] == list(expected)   # eagerly: Python's own `or`
    def negated(x):
        return not x

    assert [tf.function(negated)(tf.constant(v)).numpy() for v in (3, 0)] == [False, True]
    floats = tf.function(lambda x: x or 2.5)
    assert floats(tf.constant(0.0)).numpy() == 2.5 and floats(tf.constant(1.5)).numpy() == 1.5


def test_and_or_on_bool_tensors_stay_logical_and_lazy():
    @tf.function
    def f(x):
        return x > 0 and x < 10, x < 0 or x > 2

    assert graph_ops(f, tf.constant(3)).count("Cond") == 2
    assert [t.numpy() for t in f(tf.constant(3))] == [True, True]
    assert [t.numpy() for t in f(tf.constant(1))] == [True, False]


def test_and_or_whose_operands_have_two_dtypes_is_an_error_at_the_users_line():
    def mixed(x):
        return x or 2.5   # <- here

    line = mixed.__code__.co_firstlineno + 1
    with pytest.raises(StagingError, match=rf"test_backend.py:{line}: `or` on an int32 tensor and a float32 value"):
        tf.function(mixed)(tf.constant(0))
    with pytest.raises(StagingError, match="compare explicitly"):
        tf.function(lambda x, y: (x > 0) and y)(tf.constant(1), tf.constant(2))


def test_python_print_runs_once_per_trace_and_assert_raises_at_run_time(capsys):
    @tf.function
    def f(x):
        print("x is", x)
        assert x > 0, "x must be positive"
        return x

    f(tf.constant(1))
    f(tf.constant(2))
    assert capsys.readouterr().out == 'x is Tensor("x:0", shape=(), dtype=int32)\n'
    with pytest.raises(tf.errors.InvalidArgumentError, match="x must be positive"):
        f(tf.constant(-1))


def _values(items: list) -> list:
    assert isinstance(items, list), f"a Python list was returned as {type(items).__name__}"
    return [t.numpy().tolist() for t in items]


def test_list_append_in_a_tensor_loop_becomes_a_tensor_array_stacked_after_the_loop():
    @tf.function
    def squares(n):
        out = [tf.constant(0)]
        for i in tf.range(n):
            out.append(i * i)
        return out

    assert _values(squares(tf.constant(4))) == [0, 0, 1, 4, 9]   # returned, a Python list, as Python's


def test_an_empty_list_appended_in_a_tensor_loop_needs_no_opt_in():
    @tf.function
    def evens(n):
        out = []
        i = 0
        while i < n:
            if i % 2 == 0:
                out.append(tf.cast(i, tf.float32) * 1.5)
            i += 1
        return out

    assert _values(evens(tf.constant(5))) == [0.0, 3.0, 6.0]
    ops = [op.type for op in evens.get_concrete_function(tf.constant(5)).graph.get_operations()]
    assert "While" in ops and "TensorListStack" in ops


def drain(n):
    stack = [0]
    for i in tf.range(n):
        stack.append(i * i)
    last = stack.pop()
    return last


def push_pop(xs):
    """A stack machine: a negative step pops (into `top`), any other pushes."""
    stack = [0]
    top = -1
    for x in xs:
        if x < 0:
            top = stack.pop()
        else:
            stack.append(x)
    return top, stack


def drain_all(n):
    stack = [0]
    for i in tf.range(n):
        stack.append(i + 1)
    total = 0
    while len(stack) > 0:
        total += stack.pop()
    return total


def pop_at(n, i):
    stack = [10, 20]
    k = 0
    taken = [0]
    while k < n:
        stack.append(k * 3)
        x = stack.pop(i)
        taken.append(x)
        stack.pop(0)
        stack.append(x)
        k += 1
    first = stack.pop(0)
    return first, stack, taken


def pop_then_append(n):
    stack = [0]
    for i in tf.range(n):
        stack.append(i)
    x = stack.pop()
    stack.append(x * 10)
    return stack


def _numpy(value):
    if isinstance(value, (list, tuple)):
        return [_numpy(v) for v in value]
    return tf.convert_to_tensor(value).numpy().tolist()


def test_pop_after_a_staged_loop_is_the_last_appended_element():
    assert drain(tf.constant(4)).numpy() == 9               # as in Python on the same values
    assert tf.function(drain)(tf.constant(4)).numpy() == 9
    assert tf.function(drain)(tf.constant(0)).numpy() == 0
    assert "TensorListPop" in graph_ops(tf.function(drain), tf.constant(4))


@pytest.mark.parametrize("xs", [[1, 2, -1, 3], [5, 6, -1, -1, 7], [1, -1], [4]])
def test_pop_inside_a_staged_loop_and_if_matches_python(xs):
    staged = tf.function(push_pop)(tf.constant(xs))
    assert _numpy(staged) == _numpy(push_pop(xs))
    assert "While" in graph_ops(tf.function(push_pop), tf.constant(xs))


@pytest.mark.parametrize("n", [0, 1, 4])
def test_draining_a_stacked_list_with_augmented_pop_in_a_staged_while(n):
    assert tf.function(drain_all)(tf.constant(n)).numpy() == _numpy(drain_all(n)) == n * (n + 1) // 2


@pytest.mark.parametrize("i", [0, 1, -1, -2])
def test_pop_with_an_index_inside_and_after_a_staged_loop_matches_python(i):
    staged = tf.function(pop_at)(tf.constant(3), i)
    assert _numpy(staged) == _numpy(pop_at(3, i))


def test_append_after_a_pop_after_the_loop_gives_a_stacked_tensor():
    assert _values(tf.function(pop_then_append)(tf.constant(3))) == [0, 0, 1, 20]


def test_pop_from_an_empty_tensor_list_is_an_index_error_when_the_graph_runs():
    @tf.function
    def f(n):
        stack = [0]
        for _ in tf.range(n):
            stack.pop()
        return stack

    assert f(tf.constant(1)) == []
    with pytest.raises(tf.errors.OutOfRangeError, match="trying to pop from an empty list.*len"):
        f(tf.constant(2))
    with pytest.raises(IndexError, match="stack.pop()"):   # the error names the user's line
        f(tf.constant(3))


def test_pop_past_the_end_of_a_stacked_list_is_an_index_error():
    with pytest.raises(IndexError):
        pop_at(1, 5)
    with pytest.raises(IndexError, match="index 5 is out of range for a list of 3 elements"):
        tf.function(pop_at)(tf.constant(1), 5)


def test_pop_from_a_scalar_tensor_is_a_clear_error():
    @tf.function
    def f(x):
        x.pop()
        return x

    with pytest.raises(StagingError, match="scalar tensor .* is used as a list"):
        f(tf.constant(1))


def test_len_of_a_carried_str_is_refused_at_the_users_line():
    """It was StridedSlice's 'index 0 is out of bounds' without a line: a Python string a staged `if` carried
    is a 0-d string tensor, and len(s) was a natural thing to write. Refused (an OperatorNotAllowedInGraphError,
    a TypeError that the function's own `except` lets through)."""
    @tf.function
    def f(x):
        s = "ab"
        if x > 0:
            s = "xyz"
        return len(s)

    with pytest.raises(TypeError, match=r"test_backend\.py:\d+: Taking len\(\) of .*strings\.length"):
        f(tf.constant(1))


def test_int_and_float_of_a_symbolic_tensor_are_casts():
    @tf.function
    def f(x):
        return int(x), float(x)

    i, x = f(tf.constant(2.75))
    assert i.dtype == tf.int32 and i.numpy() == 2 and x.dtype == tf.float32


def test_loop_variable_changing_dtype_is_named():
    @tf.function
    def f(n):
        acc = tf.constant(0)
        for _ in tf.range(n):
            acc = tf.cast(acc, tf.float32) + 0.5
        return acc

    with pytest.raises(ControlFlowError, match="acc is int32 before the loop but float32"):
        f(tf.constant(3))


def test_variable_defined_in_one_branch_is_named():
    @tf.function
    def f(x):
        if x > 0:
            y = x
        return y

    assert int(f(tf.constant(1))) == 1   # carried with a defined flag (tests/autograph/test_staged_undefined.py)
    with pytest.raises(UnboundLocalError, match="'y'.*took its false branch, which leaves it unassigned"):
        f(tf.constant(-1))


def test_an_empty_list_carried_but_never_appended_is_a_clear_error():
    @tf.function
    def f(n):
        out = []
        for i in tf.range(n):
            out = out[:]
        return out

    with pytest.raises(StagingError, match="empty list 'out' .* nothing is appended"):
        f(tf.constant(2))

    @tf.function
    def appended_and_popped(n):
        out = []
        for i in tf.range(n):
            out.append(i)
            out.pop()
        return out

    with pytest.raises(StagingError, match="empty list 'out' .* popped again in the same iteration"):
        appended_and_popped(tf.constant(2))


def test_enumerate_and_zip_over_symbolic_tensors_are_staged_loops():
    @tf.function
    def f(xs, ys):
        total = tf.constant(0)
        for i, x in enumerate(xs, 1):
            total += i * x
        for a, b in zip(xs, ys):                 # stops at the shorter, like Python
            total += a * b
        for a, b in zip(xs, [1, 1, 1, 1, 1]):    # a Python list zipped with a tensor
            total += a * b
        return total

    xs, ys = tf.constant([1, 2, 3]), tf.constant([10, 20])
    assert f(xs, ys).numpy() == (1 + 4 + 9) + (10 + 40) + 6
    assert graph_ops(f, xs, ys).count("While") == 3


def test_zip_strict_over_tensors_checks_the_lengths_the_shapes_know():
    def dot(xs, ys):
        total = tf.constant(0)
        for a, b in zip(xs, ys, strict=True):
            total += a * b
        return total

    assert tf.function(dot)(tf.constant([1, 2]), tf.constant([3, 4])).numpy() == 11
    with pytest.raises(ValueError, match="zip\\(\\) argument 2 is shorter than argument 1"):   # Python's error
        tf.function(dot)(tf.constant([1, 2]), tf.constant([3]))
    vector = tf.TensorSpec([None], tf.int32)
    with pytest.raises(StagingError, match="strict=True\\) over tensors whose lengths are known only when the graph "
                                           "runs"):
        tf.function(dot, input_signature=[vector, vector])(tf.constant([1, 2]), tf.constant([3, 4]))

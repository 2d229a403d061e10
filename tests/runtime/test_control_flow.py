"""runtime.cond and runtime.while_loop, eagerly and staged."""
import pytest

import runtime as tf
from runtime.control_flow import ControlFlowError

pytestmark = pytest.mark.jit_twin   # every graph also runs under jit_compile=True (tests/jit_twin.py)


def test_cond_eager_runs_only_the_chosen_branch():
    ran = []
    out = tf.cond(tf.constant(True), lambda: ran.append("t") or 1, lambda: ran.append("f") or 2)
    assert out == 1 and ran == ["t"]


def test_cond_staged_records_one_op_and_runs_either_branch():
    @tf.function
    def f(p, x):
        return tf.cond(p, lambda: x * 2, lambda: x - 1)

    assert f(tf.constant(True), tf.constant(5)).numpy() == 10
    assert f(tf.constant(False), tf.constant(5)).numpy() == 4
    ops = [op.type for op in f.get_concrete_function(tf.constant(True), tf.constant(5)).graph.get_operations()]
    assert ops == ["Placeholder", "Placeholder", "Cond"]


def test_cond_branch_python_constant_takes_the_other_branchs_dtype():
    @tf.function
    def relu_like(p, x):
        return tf.cond(p, lambda: x, lambda: 0)

    assert relu_like(tf.constant(False), tf.constant(3.5)).numpy() == 0.0
    assert relu_like(tf.constant(False), tf.constant(3.5)).dtype == tf.float32


def test_cond_branches_giving_an_int_and_a_float_give_the_float():
    @tf.function
    def f(p):
        return tf.cond(p, lambda: 1, lambda: 2.5), tf.cond(p, lambda: 16777217, lambda: 0.5)

    with pytest.raises(ControlFlowError, match="int32 in true_fn but float32 in false_fn"):
        f(tf.constant(True))     # 16777217 as a float32 would be 16777216: refused, not rounded

    @tf.function
    def g(p):
        return tf.cond(p, lambda: 1, lambda: 2.5)

    assert [(g(tf.constant(p)).numpy(), g(tf.constant(p)).dtype) for p in (True, False)] == [
        (1.0, tf.float32), (2.5, tf.float32)]


def test_nested_cond_with_captures_from_two_levels():
    @tf.function
    def f(p, q, x, y):
        return tf.cond(p, lambda: tf.cond(q, lambda: x + y, lambda: x * y), lambda: y - x)

    T, F = tf.constant(True), tf.constant(False)
    x, y = tf.constant(3), tf.constant(4)
    assert [f(a, b, x, y).numpy() for a, b in [(T, T), (T, F), (F, T)]] == [7, 12, 1]
    f.get_concrete_function(T, T, x, y).graph.lint()


def test_cond_branches_with_different_structures_name_the_users_line():
    @tf.function
    def f(p, x):
        return tf.cond(p, lambda: (x, x), lambda: x)

    with pytest.raises(ControlFlowError, match=r"test_control_flow.py:\d+: the two branches"):
        f(tf.constant(True), tf.constant(1))


def test_cond_branches_with_different_dtypes_are_an_error():
    @tf.function
    def f(p, x):
        return tf.cond(p, lambda: x, lambda: tf.constant(1.0))

    with pytest.raises(ControlFlowError, match="int32 in true_fn but float32 in false_fn"):
        f(tf.constant(True), tf.constant(1))


def test_while_loop_eager_is_a_python_loop():
    i, s = tf.while_loop(lambda i, s: i < 4, lambda i, s: (i + 1, s + i), (0, 0))
    assert (i, s) == (4, 6)


def test_an_eager_while_loop_gives_tensors_for_python_numbers_as_tensorflow_does():
    seen = []

    def body(i, s):
        seen.append(type(s))
        return i + 1, s / 2

    i, s = tf.while_loop(lambda i, s: i < 2, body, (0, 7))
    assert seen == [int, float]   # the body sees Python values
    assert (repr(i), repr(s)) == ("<tf.Tensor: shape=(), dtype=int32, numpy=2>",
                                  "<tf.Tensor: shape=(), dtype=float32, numpy=1.75>")
    (d,) = tf.while_loop(lambda d: d["a"] < 3, lambda d: [{"a": d["a"] + 1, "b": d["b"]}], [{"a": 0, "b": 2**40}])
    assert d["a"].dtype == tf.int32 and d["b"].dtype == tf.int64


def test_while_loop_structure_mismatch_is_reported():
    @tf.function
    def f(p, x):
        return tf.while_loop(lambda a: p, lambda a: (a, a), [x])

    with pytest.raises(ControlFlowError, match="while_loop's body returns"):
        f(tf.constant(False), tf.constant(1))


def _run(fn, *args):
    return tf.function(fn, autograph=False)(*args)


def test_loop_variable_changing_dtype_names_the_users_line():
    with pytest.raises(ControlFlowError, match=r"test_control_flow.py:\d+: i is int32 before the loop but float32"):
        _run(lambda x: tf.while_loop(lambda i: i < 3, lambda i: tf.cast(i, tf.float32), [x]), tf.constant(0))


def test_loop_variable_changing_shape_needs_shape_invariants():
    def doubling(x, invariants=None):
        return tf.while_loop(lambda v: tf.size(v) < 3, lambda v: tf.concat([v, v], 0), [x],
                             shape_invariants=invariants)

    with pytest.raises(ControlFlowError, match=r"shape \(1,\) before the loop but \(2,\).*shape_invariants"):
        _run(doubling, tf.constant([7]))
    (out,) = _run(lambda x: doubling(x, [tf.TensorShape([None])]), tf.constant([7]))
    assert out.numpy().tolist() == [7, 7, 7, 7]


def test_while_in_cond_in_while_matches_python():
    def nested(n):
        def body(i, s):
            def inner():
                _, t = tf.while_loop(lambda j, t: j < i, lambda j, t: (j + 1, t + j), (tf.constant(0), s))
                return t
            return i + 1, tf.cond(i % 2 == 0, inner, lambda: s - 1)
        return tf.while_loop(lambda i, s: i < n, body, (tf.constant(0), tf.constant(0)))

    def nested_python(n):
        s = 0
        for i in range(n):
            s = s + sum(range(i)) if i % 2 == 0 else s - 1
        return n, s

    concrete = tf.function(nested, autograph=False).get_concrete_function(tf.TensorSpec([], tf.int32))
    concrete.graph.lint()
    for n in (0, 1, 7):
        assert tuple(t.numpy() for t in concrete(tf.constant(n))) == nested_python(n)


def test_loop_variables_as_dicts_and_lists():
    def f(n):
        return tf.while_loop(lambda d: d["i"] < n, lambda d: {"i": d["i"] + 1, "s": [d["s"][0] * 2]},
                             [{"i": tf.constant(0), "s": [tf.constant(1)]}])

    (out,) = _run(f, tf.constant(5))
    assert out["i"].numpy() == 5 and out["s"][0].numpy() == 32


def test_cond_branches_with_only_side_effects(capsys):
    def f(p):
        tf.cond(p, lambda: tf.print("yes"), lambda: tf.print("no"))
        return p

    _run(f, tf.constant(True))
    _run(f, tf.constant(False))
    assert capsys.readouterr().err == "yes\nno\n"


def test_cond_branch_returning_none_against_a_value_is_an_error():
    with pytest.raises(ControlFlowError, match="None in false_fn"):
        _run(lambda p, x: tf.cond(p, lambda: x, lambda: None), tf.constant(True), tf.constant(1))


def test_eager_while_loop_honours_maximum_iterations():
    assert tf.while_loop(lambda i: i < 100, lambda i: i + 1, [0], maximum_iterations=3) == [3]


# --- values a graph can't carry: the error names the value and the user's line -------------------------

def test_a_set_returned_by_a_branch_names_the_variable_and_the_line():
    @tf.function
    def f(x):
        modes = {"up"}
        if x > 0:
            modes = {"down"}
        return x, modes

    line = f.python_function.__code__.co_firstlineno + 3
    with pytest.raises(ControlFlowError, match=rf"test_control_flow.py:{line}: 'modes' is the set {{'down'}} in "
                                               r"true_fn: a Cond returns tensors only .* Compute it outside"):
        f(tf.constant(1))


def test_a_set_loop_variable_and_a_list_element_are_named():
    @tf.function
    def tags(n):
        tag = {"a"}
        while n > 0:
            tag = tag | {"b"}
            n -= 1
        return n

    @tf.function
    def log_sign(x):
        log = []
        if x > 0:
            log.append({"positive"})
        else:
            log.append({"negative"})
        return x

    with pytest.raises(ControlFlowError, match="tag is the set {'a'} before the loop: a While carries tensors only"):
        tags(tf.constant(2))
    with pytest.raises(ControlFlowError, match="'log\\[0\\]' is the set {'positive'} in true_fn"):
        log_sign(tf.constant(3))


def test_a_set_appended_in_a_staged_loop_is_a_staging_error_at_the_loop():
    from autograph.errors import StagingError

    @tf.function
    def log_all(n):
        log = []
        for i in tf.range(n):
            log.append({"x"})
        return n

    line = log_all.python_function.__code__.co_firstlineno + 3
    with pytest.raises(StagingError, match=rf"test_control_flow.py:{line}: a list that staged control flow carries "
                                           r"holds the set {'x'}: it is a tensor list there"):
        log_all(tf.constant(2))


def test_strings_become_string_tensors_in_staged_control_flow_as_in_tensorflow():
    @tf.function
    def mode(x):
        m = "up"
        if x > 0:
            m = "down"
        return m

    @tf.function
    def tags(n):
        tag = "a"
        while n > 0:
            tag = tag + "b"
            n -= 1
        return tag

    @tf.function
    def log_all(n):
        log = []
        for i in tf.range(n):
            log.append("x")
        return log

    assert mode(tf.constant(1)).numpy() == b"down" and mode(tf.constant(-1)).numpy() == b"up"
    assert tags(tf.constant(2)).numpy() == b"abb"
    assert [t.numpy() for t in log_all(tf.constant(2))] == [b"x", b"x"]


def test_a_while_loop_whose_condition_stays_a_true_constant_is_an_error_not_a_pruned_loop():
    def forever():
        c = True
        while c:   # <- here
            c = tf.constant(True)
        return 1

    line = forever.__code__.co_firstlineno + 2
    with pytest.raises(ControlFlowError, match=rf":{line}: this loop never ends"):
        tf.function(forever)()
    with pytest.raises(ControlFlowError, match="never ends"):
        tf.function(lambda: tf.while_loop(lambda c, i: c, lambda c, i: (tf.logical_or(c, False), i + 1),
                                          (tf.constant(True), 0)))()


def test_loops_that_can_end_are_not_flagged():
    @tf.function
    def ends(n):
        c = tf.constant(True)
        i = 0
        while c:
            i += 1
            c = i < n
        return i

    assert ends(tf.constant(3)).numpy() == 3

    @tf.function
    def breaks(n):
        i = 0
        while tf.constant(True):
            i += 1
            if i >= n:
                break
        return i

    assert breaks(tf.constant(4)).numpy() == 4
    bounded = tf.function(lambda: tf.while_loop(lambda c: c, lambda c: tf.constant(True), [tf.constant(True)],
                                                maximum_iterations=5))
    assert bounded()[0].numpy()

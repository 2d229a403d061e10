"""A traced function reads Python values from outside itself (a global, a closure's variable, a helper function):
the graph holds them as they were while tracing. When the program rebinds one, `Function` traces again, so the
call gives Python's answer (TensorFlow keeps the graph and gives the stale answer without a word). Names the
function assigns itself (`global count; count += 1`) and changes made in place (`config["k"] = 3`) are not
compared, as TensorFlow (runtime/python_reads.py)."""
import pytest

import runtime as tf

SCALE = 2
COUNT = 0
CONFIG = {"k": 2}


def helper(v):
    return v * SCALE


@tf.function
def times_scale(x):
    return x * SCALE


@tf.function
def through_helper(x):
    return helper(x) + 1


@tf.function
def counts_its_traces(x):
    global COUNT
    COUNT += 1
    return x


@tf.function
def reads_config(x):
    return x * CONFIG["k"]


@pytest.fixture(autouse=True)
def _restore():
    saved = SCALE, helper
    yield
    globals().update(SCALE=saved[0], helper=saved[1], CONFIG={"k": 2})


def test_a_rebound_global_gives_pythons_answer_on_the_next_call():
    global SCALE
    assert int(times_scale(tf.constant(3))) == 3 * SCALE
    SCALE = 5
    assert int(times_scale(tf.constant(3))) == 15
    assert times_scale.last_retrace_reason == "global 'SCALE' of times_scale: 2 -> 5"


def test_an_equal_python_number_bound_again_does_not_trace_again():
    global SCALE
    times_scale(tf.constant(1.0))
    before = times_scale.experimental_get_tracing_count()
    SCALE = int("2")           # a new binding of an equal int
    times_scale(tf.constant(1.0))
    assert times_scale.experimental_get_tracing_count() == before


def test_a_global_a_helper_reads_and_a_rebound_helper_are_seen():
    global SCALE, helper
    assert int(through_helper(tf.constant(1))) == 3
    SCALE = 10
    assert int(through_helper(tf.constant(1))) == 11
    assert "global 'SCALE' of helper: 2 -> 10" == through_helper.last_retrace_reason

    def helper(v):     # noqa: F811 - rebinding the module's helper is the point
        return v - 100
    assert int(through_helper(tf.constant(1))) == -98


def test_a_closure_variable_rebound_after_the_trace_is_seen():
    k = 2

    @tf.function
    def f(x):
        return x * k

    assert int(f(tf.constant(4))) == 8
    k = 3
    assert int(f(tf.constant(4))) == 12
    assert f.last_retrace_reason == "'k' of test_a_closure_variable_rebound_after_the_trace_is_seen.<locals>.f's closure: 2 -> 3"


def test_a_global_the_function_assigns_does_not_make_traces_stale():
    counts_its_traces(tf.constant(1.0))
    counts_its_traces(tf.constant(1))
    counts_its_traces(tf.constant(1.0))
    counts_its_traces(tf.constant(1))
    assert counts_its_traces.experimental_get_tracing_count() == 2


def test_a_change_made_in_place_keeps_the_traced_value_as_tensorflow_does():
    assert int(reads_config(tf.constant(1))) == 2
    CONFIG["k"] = 3
    assert int(reads_config(tf.constant(1))) == 2     # TensorFlow 2.21 gives 2 too


def test_a_rebound_global_under_jit_compile_and_an_input_signature_is_seen():
    global SCALE
    jitted = tf.function(times_scale.python_function, jit_compile=True)
    signed = tf.function(times_scale.python_function, input_signature=[tf.TensorSpec([], tf.int32)])
    assert [int(jitted(tf.constant(2))), int(jitted(tf.constant(2))), int(signed(tf.constant(2)))] == [4, 4, 4]
    SCALE = 7
    assert [int(jitted(tf.constant(2))), int(signed(tf.constant(2)))] == [14, 14]


def test_a_rebound_global_under_reduce_retracing_is_seen():
    global SCALE
    relaxed = tf.function(times_scale.python_function, reduce_retracing=True)
    assert [int(relaxed(tf.constant(v))) for v in (1, 2)] == [2, 4]
    SCALE = 4
    assert int(relaxed(tf.constant(3))) == 12


def test_rebinding_many_times_warns_with_what_changed():
    global SCALE
    f = tf.function(times_scale.python_function)
    with pytest.warns(RuntimeWarning, match=r"changed: global 'SCALE' of times_scale: \d+ -> \d+"):
        for SCALE in range(3, 10):
            assert int(f(tf.constant(1))) == SCALE


class Scaler(tf.Module):
    def __init__(self):
        super().__init__()
        self.scale = 2
        self.training = True
        self.calls = 0

    @tf.function
    def __call__(self, x):
        self.calls += 1                      # assigned by the method: not compared
        return x * self.scale if self.training else x


def test_an_attribute_of_self_rebound_after_the_trace_gives_pythons_answer():
    model = Scaler()
    assert int(model(tf.constant(3))) == 6
    model.scale = 4
    assert int(model(tf.constant(3))) == 12
    model.training = False
    assert int(model(tf.constant(3))) == 3
    assert type(model).__call__.__get__(model).last_retrace_reason == \
        "'self.training' of Scaler.__call__: True -> False"


def test_an_attribute_the_method_assigns_does_not_make_its_trace_stale():
    model = Scaler()
    for _ in range(4):
        model(tf.constant(1.0))
    assert model.calls == 1 and type(model).__call__.__get__(model).experimental_get_tracing_count() == 1


def test_a_global_that_answers_every_attribute_is_compared_by_identity_only():
    from unittest import mock
    anything = mock.Mock()      # has `func`, `args`, `__wrapped__`... at any depth

    @tf.function
    def f(x):
        anything.touch()
        return x + 1

    assert int(f(tf.constant(1))) == 2 and int(f(tf.constant(1))) == 2
    assert f.experimental_get_tracing_count() == 1

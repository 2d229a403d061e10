"""Adversarial programs against the thirteenth session's changes: a traced method's `self` and globals read by
the code it calls (its class's helper methods and properties, lambdas inside it, the user's functions it gives
`self` to), and what tracing again on a rebound value costs (the stale traces kept, the retrace warning's advice,
the reason named with input_signature and reduce_retracing). Each rebinding here gave the stale answer before."""
import functools
import gc
import linecache
import warnings

import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError

OFFSET = 1.0
RATE = 0.1


def scaled(obj, x):
    return x * obj.scale


class Model:
    def __init__(self):
        self.scale = 2.0
        self._factor = 2.0

    def helper(self, x):
        return x * self.scale

    def shifted(self, x):
        return x + OFFSET

    @property
    def factor(self):
        return self._factor

    @tf.function
    def through_helper(self, x):
        return self.helper(x)

    @tf.function
    def through_lambda(self, x):
        times = lambda v: v * self.scale   # noqa: E731 - a lambda's code is nested in the method's
        return times(x)

    @tf.function
    def through_property(self, x):
        return x * self.factor

    @tf.function
    def through_function_given_self(self, x):
        return scaled(self, x)

    @tf.function
    def through_helper_reading_a_global(self, x):
        return self.shifted(x)


@pytest.fixture(autouse=True)
def _restore():
    yield
    globals().update(OFFSET=1.0, RATE=0.1)


@pytest.mark.parametrize("method", ["through_helper", "through_lambda", "through_function_given_self"])
def test_an_attribute_of_self_read_by_code_the_method_calls_is_compared_on_each_call(method):
    model = Model()
    assert float(getattr(model, method)(tf.constant(1.0))) == 2.0
    model.scale = 3.0
    assert float(getattr(model, method)(tf.constant(1.0))) == 3.0
    assert getattr(model, method).last_retrace_reason.startswith("'self.scale' of Model.")


def test_the_attribute_a_property_of_self_reads_is_compared_on_each_call():
    model = Model()
    assert float(model.through_property(tf.constant(1.0))) == 2.0
    model._factor = 5.0
    assert float(model.through_property(tf.constant(1.0))) == 5.0


def test_a_global_read_by_a_helper_method_of_self_is_compared_on_each_call():
    global OFFSET
    model = Model()
    assert float(model.through_helper_reading_a_global(tf.constant(1.0))) == 2.0
    OFFSET = 5.0
    assert float(model.through_helper_reading_a_global(tf.constant(1.0))) == 6.0


class Layer(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = None
        self.units = 2.0

    def build(self):
        self.w = tf.Variable(3.0)

    @tf.function
    def __call__(self, x):
        if self.w is None:
            self.build()
        return x * self.w * self.units


def test_a_layer_building_its_variable_in_a_helper_traces_once_and_again_only_when_a_setting_is_rebound():
    layer = Layer()
    assert float(layer(tf.constant(1.0))) == 6.0
    assert float(layer(tf.constant(1.0))) == 6.0
    count = layer.__call__.experimental_get_tracing_count()
    layer.units = 4.0   # traced again: the Variable exists, so none is created on the later trace
    assert float(layer(tf.constant(1.0))) == 12.0
    assert layer.__call__.experimental_get_tracing_count() == count + 1


@tf.function
def times_rate(x):
    return x * RATE


def test_a_global_rebound_on_every_call_keeps_one_trace_and_counts_them_all():
    global RATE
    start = times_rate.experimental_get_tracing_count()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for step in range(12):
            RATE = 0.5 ** step
            assert float(times_rate(tf.constant(2.0))) == 2.0 * 0.5 ** step
    assert times_rate.experimental_get_tracing_count() == start + 12
    assert len(times_rate._concrete) == 1
    assert len(times_rate._cache) == 1


def test_the_retrace_warning_for_a_rebound_value_says_to_pass_it_as_an_argument_or_hold_it_in_a_variable():
    global RATE

    @tf.function
    def reads_rate(x):
        return x * RATE

    with pytest.warns(RuntimeWarning) as caught:
        for step in range(8):
            RATE = 1.0 + step
            reads_rate(tf.constant(1.0))
    text = str(caught[0].message)
    assert "global 'RATE' of " in text and "pass it as an argument (a tensor)" in text and "tf.Variable" in text
    assert "use input_signature" not in text


@pytest.mark.parametrize("options", [{"input_signature": [tf.TensorSpec([None], tf.float32)]},
                                     {"reduce_retracing": True}])
def test_with_relaxed_shapes_the_retrace_reason_names_the_rebound_global_not_the_shape(options):
    global RATE

    @tf.function(**options)
    def adds_rate(x):
        return x + RATE

    adds_rate(tf.constant([1.0]))
    adds_rate(tf.constant([1.0, 2.0]))
    RATE = 2.0
    assert adds_rate(tf.constant([1.0, 2.0, 3.0])).numpy().tolist() == [3.0, 4.0, 5.0]
    assert adds_rate.last_retrace_reason.startswith("global 'RATE' of ")
    assert adds_rate(tf.constant([1.0])).numpy().tolist() == [3.0]


def test_the_source_lines_of_a_compiled_graph_go_with_it():
    @tf.function
    def double(x):
        return x * 2.0

    double(tf.constant(1.0))
    filename = double._concrete[0]._executable.filename
    assert filename in linecache.cache
    del double
    gc.collect()
    assert filename not in linecache.cache


ZERO = 0.0
K = 2.0


def times_k(x):
    return x * K


@tf.function
def angle_to(x):
    return tf.math.atan2(ZERO, x)


@tf.function
def captures_a_loop_variable_named_like_a_global(x):
    adders = [lambda v, k=k: v + k for k in range(2)]
    for K in range(1):   # a local K that a lambda captures (a cell), not the global
        adders.append(lambda v: v + K)
    return times_k(x) + adders[0](0.0)


def test_a_global_rebound_from_zero_to_minus_zero_traces_again():
    global ZERO
    try:
        assert float(angle_to(tf.constant(-1.0))) == pytest.approx(3.14159265)
        ZERO = -0.0   # equal to 0.0, but atan2 (and 1 / ZERO) tells them apart
        assert float(angle_to(tf.constant(-1.0))) == pytest.approx(-3.14159265)
    finally:
        ZERO = 0.0


def test_a_local_a_closure_captures_does_not_hide_the_global_of_the_same_name_a_helper_reads():
    global K
    try:
        assert float(captures_a_loop_variable_named_like_a_global(tf.constant(1.0))) == 2.0
        K = 5.0
        assert float(captures_a_loop_variable_named_like_a_global(tf.constant(1.0))) == 5.0
    finally:
        K = 2.0


class Dropout:
    def __init__(self):
        self.training = True

    def __call__(self, x):
        return x * 0.5 if self.training else x


class Network:
    def __init__(self):
        self.training = True
        self.layers = [Dropout()]
        self.calls = 0

    @tf.function
    def __call__(self, x):
        self.calls += 1
        for layer in self.layers:
            layer.training = self.training   # an attribute of another object: self.training is still compared
            x = layer(x)
        return x


def test_setting_an_attribute_of_another_object_leaves_the_same_named_attribute_of_self_compared():
    network = Network()
    assert float(network(tf.constant(1.0))) == 0.5
    network.training = False
    assert float(network(tf.constant(1.0))) == 1.0
    calls = network.calls
    network(tf.constant(1.0))
    assert network.calls == calls   # self.calls, which the method assigns, is not compared


def padded_message(x):
    assert x < 0, f"{x:>6}|"
    return x


def sixty_four_bit_messages(x, y):
    tf.debugging.assert_less(x, tf.constant(0, tf.int64))
    assert y < 0, f"y={y}"
    return x


@pytest.mark.parametrize("jit", [None, True])
def test_an_assertion_message_keeps_its_leading_spaces_as_python_gives_them(jit):
    with pytest.raises(InvalidArgumentError) as caught:
        tf.function(padded_message, jit_compile=jit)(tf.constant(1))
    assert str(caught.value).startswith("     1|")


@pytest.mark.parametrize("jit", [None, True])
def test_a_failed_check_under_jit_compile_reports_64_bit_values_whole(jit):
    f = tf.function(sixty_four_bit_messages, jit_compile=jit)
    with pytest.raises(InvalidArgumentError, match=r"\[x \(x:0\) = \] \[1099511627777\] \[y \(Const:0\) = \] \[0\]"):
        f(tf.constant(2 ** 40 + 1, tf.int64), tf.constant(-1.0, tf.float64))
    with pytest.raises(InvalidArgumentError, match=r"^y=0\.3333333333333333\n"):
        f(tf.constant(-1, tf.int64), tf.constant(1 / 3, tf.float64))


class Affine(tf.Module):
    def __init__(self):
        super().__init__()
        self.factor = 2.0

    def __call__(self, x):
        return x * self.factor + OFFSET

    def shifted(self, x, by):
        return x * self.factor + by


def test_a_function_of_a_callable_object_compares_its_attributes_and_the_globals_its_call_reads():
    global OFFSET
    model = Affine()
    f = tf.function(model)
    assert float(f(tf.constant(1.0))) == 3.0
    model.factor = 3.0
    assert float(f(tf.constant(1.0))) == 4.0
    OFFSET = 10.0
    assert float(f(tf.constant(1.0))) == 13.0


def test_a_function_of_a_partial_of_a_bound_method_compares_the_attributes_of_its_self():
    model = Affine()
    f = tf.function(functools.partial(model.shifted, by=1.0))
    assert float(f(tf.constant(1.0))) == 3.0
    model.factor = 5.0
    assert float(f(tf.constant(1.0))) == 6.0


class Slotted:
    __slots__ = ("scale", "__weakref__")

    def __init__(self):
        self.scale = 2.0

    def helper(self, x):
        return x * self.scale

    @tf.function
    def scaled(self, x):
        return self.helper(x)


class SlottedWithADict(Slotted):
    def __init__(self):
        super().__init__()
        self.offset = 1.0

    @tf.function
    def shifted(self, x):
        return self.helper(x) + self.offset


def test_an_attribute_in_the_slots_of_a_methods_self_is_compared_on_each_call():
    obj = Slotted()
    assert float(obj.scaled(tf.constant(1.0))) == 2.0
    obj.scale = 4.0
    assert float(obj.scaled(tf.constant(1.0))) == 4.0


def test_a_subclass_with_a_dict_beside_the_slots_compares_both():
    obj = SlottedWithADict()
    assert float(obj.shifted(tf.constant(1.0))) == 3.0
    obj.scale = 4.0
    assert float(obj.shifted(tf.constant(1.0))) == 5.0
    obj.offset = 10.0
    assert float(obj.shifted(tf.constant(1.0))) == 14.0
    count = obj.shifted.experimental_get_tracing_count()
    obj.shifted(tf.constant(1.0))
    assert obj.shifted.experimental_get_tracing_count() == count


class Helper:
    def __init__(self):
        self.scale = 1.0   # its own attribute: does not hide a method's self.scale from the comparison

    def apply(self, x):
        return x * OFFSET

    @staticmethod
    def shift(x):
        return x + OFFSET

    @tf.function
    def traced(self, x):
        return x - OFFSET


@tf.function
def through_a_class(x):
    return Helper().apply(x) + Helper.shift(x) + Helper().traced(x)


class UsesHelper:
    def __init__(self):
        self.scale = 2.0

    @tf.function
    def run(self, x):
        return Helper().apply(x) * self.scale


def test_a_global_read_by_the_methods_of_a_class_of_yours_the_function_uses_is_compared_on_each_call():
    global OFFSET
    assert float(through_a_class(tf.constant(1.0))) == 1.0 + 2.0 + 0.0
    OFFSET = 3.0
    assert float(through_a_class(tf.constant(1.0))) == 3.0 + 4.0 - 2.0


def test_an_attribute_another_class_sets_on_its_own_self_leaves_the_methods_self_compared():
    obj = UsesHelper()
    assert float(obj.run(tf.constant(1.0))) == 2.0
    obj.scale = 5.0
    assert float(obj.run(tf.constant(1.0))) == 5.0


HELPER = Helper()


@tf.function
def through_an_object(x):
    return HELPER.apply(x)


def test_a_global_read_by_the_method_of_a_global_object_of_yours_is_compared_on_each_call():
    global OFFSET
    assert float(through_an_object(tf.constant(2.0))) == 2.0
    OFFSET = 3.0
    assert float(through_an_object(tf.constant(2.0))) == 6.0

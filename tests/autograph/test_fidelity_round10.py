"""Round 10 of Python's language reference against converted code: the data model (operators a user's class
defines, `__call__`, `__getattr__`, properties), Python floats, builtins on tensors, and the functions that look
at the stack for their caller's line (`warnings.warn`, `logging`). Each program is run as plain Python,
converted on Python values, and in `runtime.function` on an int32 tensor; the traced run must give Python's
answer or refuse with an error at the program's line.

Code of the user's that Python runs without the statement naming it (an object's `__call__`, its
`__getattr__`, a property's getter) or that a nested function runs changed a global once at trace time, on
every path (operators/shared.py `_globals_of`). A Python float a staged statement carries divided by zero gave
inf or nan (runtime/ops/python_ints.py `PythonFloat`). `pow(x, y, mod)` of a tensor ignored `mod`."""
import functools
import logging
import re
import warnings

import pytest

import runtime as tf
from autograph.errors import StagingError
from tests.autograph.generated_code import python_run
from tests.autograph.test_staged_language import outcome   # a result as Python values, or the error's type

INPUTS = (-3, 0, 2, 5)
LOG = []


@pytest.fixture(autouse=True)
def _empty_log():
    LOG.clear()
    yield
    LOG.clear()


# --- code the statement runs without naming it --------------------------------------------------------------

class Adder:
    def __init__(self, k):
        self.k = k

    def __call__(self, v):
        LOG.append(v)
        return v + self.k


class Dynamic:
    def __getattr__(self, name):
        LOG.append(name)
        return len(name)


class Logged:
    @property
    def value(self):
        LOG.append("get")
        return 1


def call_an_object(x):
    add = Adder(3)
    if x > 0:
        return add(x)
    return 0


def read_a_missing_attribute(x):
    d = Dynamic()
    n = x
    while n > 0:
        n = n - d.abc
    return n


def read_a_property(x):
    o = Logged()
    return o.value if x > 0 else 0   # the operand of a staged conditional expression


def call_a_nested_function(x):
    def record(v):
        LOG.append(v)
    if x > 0:
        record(x)
    return 0


class Accumulator:
    def __init__(self):
        self.total = 0

    def __call__(self, v):
        self.total += v


def accumulate_in_a_loop(x):
    acc = Accumulator()
    i = 0
    while i < x:
        acc(i)   # the loop's probe left one of its tensors in acc.total, on which the trace failed
        i += 1
    return acc.total


class Descriptor:
    def __get__(self, obj, owner):
        LOG.append("get")
        return 3


class HasDescriptor:
    d = Descriptor()


class Meta(type):
    def __getattr__(cls, name):
        LOG.append(name)
        return 1


class WithMeta(metaclass=Meta):
    pass


def read_a_descriptor(x):
    h = HasDescriptor()
    r = 0
    if x > 0:
        r = h.d
    return r


def read_through_a_metaclass(x):
    r = 0
    if x > 0:
        r = WithMeta.anything
    return r


class Recorder:
    def add(self, v):
        LOG.append(v)


def call_a_bound_method_held_by_a_variable(x):
    add = Recorder().add
    if x > 0:
        add(x)
    return 0


def call_a_partial(x):
    def record(tag, v):
        LOG.append((tag, v))
    tagged = functools.partial(record, "x")
    if x > 0:
        tagged(x)
    return 0


def call_a_function_from_a_dict(x):
    handlers = {"add": Adder(1), "log": lambda v: LOG.append(v)}
    r = 0
    if x > 0:
        r = handlers["add"](x)
    return r


IMPLICIT = [call_an_object, read_a_missing_attribute, read_a_property, call_a_nested_function, accumulate_in_a_loop,
            read_a_descriptor, read_through_a_metaclass, call_a_bound_method_held_by_a_variable, call_a_partial,
            call_a_function_from_a_dict]


@pytest.mark.parametrize("fn", IMPLICIT, ids=lambda fn: fn.__name__)
def test_a_change_made_by_code_the_statement_runs_implicitly_is_refused_at_the_users_line(fn):
    for x in INPUTS:
        python_run(fn, x)
    LOG.clear()
    with pytest.raises(StagingError, match=r"test_fidelity_round10\.py:\d+: .*(LOG|acc\.total)"):
        tf.function(fn)(tf.constant(2))
    assert LOG == []   # the refused trace leaves no change behind


def test_a_nested_function_that_reads_the_variables_a_loop_carries_is_still_staged():
    def doubled(x):
        n = 0

        def get():
            return n
        i = 0
        while i < x:
            n = n + get() + 1
            i += 1
        return n

    traced = tf.function(doubled)
    assert [int(traced(tf.constant(x))) for x in INPUTS] == [doubled(x) for x in INPUTS]


# --- a Python float a staged statement carries --------------------------------------------------------------

def _float_after_a_loop(n, divisor):
    s = 1.5
    for _ in range(n):
        s += 1.0
    return s / divisor, s // divisor, s % divisor


def _float_from_a_branch(x):
    d = 0.0
    if x > 0:
        d = -2.0
    return 1.0 / d, d ** -1


@pytest.mark.parametrize("jit_compile", [False, True], ids=["executor", "jit"])
def test_a_python_float_divided_by_zero_raises_as_python_does(jit_compile):
    if jit_compile:
        pytest.importorskip("jax", reason="jit_compile lowers to JAX, which is not installed")
    traced = tf.function(_float_after_a_loop, jit_compile=jit_compile)
    assert [float(v) for v in traced(tf.constant(2), -2.0)] == list(_float_after_a_loop(2, -2.0))
    with pytest.raises(ZeroDivisionError, match="float division by zero"):   # Python's, whatever `s` holds
        traced(tf.constant(2), 0.0)   # was inf, inf, nan; then the graph's InvalidArgumentError
    branch = tf.function(_float_from_a_branch, jit_compile=jit_compile)
    assert [float(v) for v in branch(tf.constant(2))] == list(_float_from_a_branch(2))
    with pytest.raises(tf.errors.InvalidArgumentError, match="'d' started as a Python number"):
        branch(tf.constant(-3))


def test_float_of_a_python_int_is_exact_as_pythons_float():
    def halves(x):
        s = 2 ** 25 + 1
        if x > 100:
            s = 3
        return float(s), float(s) / 2

    assert [float(v) for v in tf.function(halves)(tf.constant(1))] == list(halves(1))   # was 33554432.0


def test_a_python_float_to_a_fractional_power_is_refused_where_python_gives_a_complex_number():
    def roots(x):
        s = -2.0
        if x > 0:
            s = 4.0
        return s ** 0.5, s ** 2.0

    traced = tf.function(roots)
    assert [float(v) for v in traced(tf.constant(2))] == list(roots(2))
    assert isinstance(roots(-2)[0], complex)
    with pytest.raises(tf.errors.InvalidArgumentError, match="negative number is raised to a fractional power"):
        traced(tf.constant(-2))   # was nan


def test_a_python_float_keeps_pythons_floor_division_and_modulo():
    def signs(x):
        s = -7.5
        if x > 0:
            s = 7.5
        return s // 2, s % 2, s // -2, s % -2

    traced = tf.function(signs)
    for x in INPUTS:
        assert [float(v) for v in traced(tf.constant(x))] == list(signs(x))


def test_a_float_tensor_divided_by_zero_is_still_tensorflows_inf():
    assert tf.function(lambda v: v / 0.0)(tf.constant(1.0)).numpy() == float("inf")


# --- builtins on tensors ------------------------------------------------------------------------------------

def divmod_of_a_tensor(x):
    return divmod(x, 3), divmod(-x, -2)


def divmod_of_a_carried_int(x):
    s = 7
    if x > 0:
        s = -7
    return divmod(s, 2)


def round_of_an_int(x):
    return round(x) + round(x, 2)


@pytest.mark.parametrize("fn", [divmod_of_a_tensor, divmod_of_a_carried_int, round_of_an_int],
                         ids=lambda fn: fn.__name__)
def test_divmod_and_round_of_ints_give_pythons_answer(fn):
    traced = tf.function(fn)
    for x in INPUTS:
        assert outcome(lambda: traced(tf.constant(x))) == outcome(lambda: fn(x)), x


def round_of_a_float_tensor(x):
    s = 2.5
    if x > 0:
        s = tf.cast(x, tf.float32) * 3.5   # a float tensor of the program's: TensorFlow's, which has no round()
    return round(s)


def shift_a_carried_int(x):
    s = 3
    if x > 0:
        s = 5
    return s << 2


def shift_a_tensor(x):
    return x >> 1


def shift_by_a_tensor(x):
    return 1 << (x + 3)


def modular_power_of_a_carried_int(x):   # was 27: the modulus was taken for the op's name
    s = 3
    if x > 0:
        s = 5
    return pow(s, 3, 4)


@pytest.mark.parametrize("fn, what", [(round_of_a_float_tensor, "round()"), (shift_a_carried_int, "<<"),
                                      (shift_a_tensor, ">>"), (shift_by_a_tensor, "<<"),
                                      (modular_power_of_a_carried_int, "pow(x, y, modulo)")],
                         ids=lambda p: getattr(p, "__name__", ""))
def test_what_a_tensor_does_not_define_is_refused_at_the_users_line(fn, what):
    # (of a carried Python int, refused as Python's operation on it: an OperatorNotAllowedInGraphError, a TypeError)
    with pytest.raises(TypeError, match=rf"test_fidelity_round10\.py:\d+: (`{re.escape(what)}` is not defined on "
                                        rf"tensors|Using `{re.escape(what)}` on a symbolic tensor .* Python int)"):
        tf.function(fn)(tf.constant(2))


def test_pow_with_a_modulus_of_an_eager_tensor_is_refused_not_ignored():
    with pytest.raises(TypeError, match="pow"):
        pow(tf.constant(3), 3, 4)
    assert pow(tf.constant(3), 3).numpy() == 27


def test_str_repr_and_format_of_a_traced_tensor_are_formatted_when_the_graph_runs():
    def texts(x):
        s = 3
        if x > 0:
            s = 5
        return str(s), format(x, "03d"), str(3), str(b"ab", "ascii")

    traced = tf.function(texts)
    for x in (-3, 2):   # str(s) was the trace-time text 'Tensor("cond:0", ...)'
        assert [v.numpy().decode() for v in traced(tf.constant(x))] == list(texts(x))


def test_the_text_of_a_variable_in_a_traced_function_is_refused_at_the_users_line():
    v = tf.Variable(2.0)

    def texts():
        return f"{v}", str(v)

    with pytest.raises(StagingError, match=r"test_fidelity_round10\.py:\d+: an f-string .* holds the Variable"):
        tf.function(texts)()   # was AttributeError: 'Variable' object has no attribute 'op'


# --- a tensor and an object of the user's -------------------------------------------------------------------

class Scaled:
    def __init__(self, k):
        self.k = k

    def __radd__(self, other):
        return Scaled(other + self.k)

    def __rmul__(self, other):
        return Scaled(other * self.k)

    def __rsub__(self, other):
        return Scaled(other - self.k)


def test_a_tensor_operator_leaves_an_object_it_cant_convert_to_the_objects_reflected_method():
    def combine(x):
        return (x + Scaled(1)).k, (x * Scaled(2)).k, (x - Scaled(2)).k

    traced = tf.function(combine)   # raised "Cannot convert <Scaled object> to a tensor", where Python's int doesn't
    for x in INPUTS:
        assert [int(v) for v in traced(tf.constant(x))] == list(combine(x))
    with pytest.raises(TypeError, match="Cannot convert"):
        tf.constant(1) + object()   # no reflected method: the conversion's error, as before


# --- the caller's line --------------------------------------------------------------------------------------

def warn_and_log(x, logger):
    warnings.warn("careful")
    logger.info("hello %s", 1)
    r = 0
    if x > 0:
        r = 1
    return r


def _warn_about_the_caller():
    warnings.warn("deprecated", DeprecationWarning, stacklevel=2)


def warn_through_a_helper(x):
    _warn_about_the_caller()
    return x


class _Records(logging.Handler):
    def __init__(self):
        super().__init__()
        self.seen = []

    def emit(self, record):
        self.seen.append((record.filename, record.lineno, record.funcName, record.getMessage()))


@pytest.fixture
def logger():
    logger, handler = logging.getLogger("fidelity_round10"), _Records()
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    yield logger
    logger.removeHandler(handler)


def _caught(call, logger):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    records = logger.handlers[0].seen
    return [(w.filename, w.lineno, str(w.message)) for w in caught], list(records)


@pytest.mark.parametrize("run", ["converted", "traced"])
def test_warnings_and_logging_from_converted_code_name_the_users_line(run, logger):
    expected = _caught(lambda: warn_and_log(2, logger), logger)
    logger.handlers[0].seen.clear()
    if run == "converted":   # named api.py's converted_call, its line and function
        actual = _caught(lambda: python_run(warn_and_log, 2, logger), logger)
        actual = (actual[0][1:], actual[1][1:])   # python_run runs the original first
    else:
        actual = _caught(lambda: tf.function(warn_and_log)(tf.constant(2), logger), logger)
    assert actual == expected


def test_a_warning_about_the_caller_names_the_converted_callers_line():
    def where(call):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call()
        return [(w.filename, w.lineno) for w in caught]

    assert where(lambda: tf.function(warn_through_a_helper)(tf.constant(1))) == where(lambda: warn_through_a_helper(1))


# --- the order of a dict's keys ---------------------------------------------------------------------------

def add_keys_in_the_order_of_the_path(x):
    d = {"a": 1}
    if x > 0:
        d["b"] = 2
        d["c"] = 3
    else:
        d["c"] = 3
        d["b"] = 2
    return list(d)


def add_keys_in_one_order(x):
    d = {"a": 1}
    if x > 0:
        d["c"] = x
        d["b"] = 2
    else:
        d["c"] = 3
        d["b"] = x
    return list(d), d["b"] + d["c"]


def test_keys_a_staged_if_adds_in_an_order_that_depends_on_the_path_are_refused():
    assert {tuple(add_keys_in_the_order_of_the_path(x)) for x in INPUTS} == {("a", "b", "c"), ("a", "c", "b")}
    with pytest.raises(StagingError, match=r"test_fidelity_round10\.py:\d+: the paths through this `if` on a "
                                           r"tensor add d\['b'\], d\['c'\] in different orders"):
        tf.function(add_keys_in_the_order_of_the_path)(tf.constant(2))   # was ['a', 'c', 'b'] on every path


def test_keys_a_staged_if_adds_in_one_order_keep_it():
    traced = tf.function(add_keys_in_one_order)
    for x in INPUTS:
        keys, total = traced(tf.constant(x))
        assert ([k.numpy().decode() for k in keys], int(total)) == add_keys_in_one_order(x)

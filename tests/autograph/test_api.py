"""autograph's public API on Python values: convert, to_code, converted_call."""
import functools
import warnings

import pytest

import autograph as ag
import runtime as tf
from autograph import api
from tests.autograph import programs


@pytest.fixture(autouse=True)
def generated_code():
    """Run the generated code (not the original fast path) so these tests check the converters."""
    api.run_generated_code(True)
    yield
    api.run_generated_code(False)


def _outcome(fn, *args):
    try:
        return ("value", fn(*args))
    except Exception as e:  # noqa: BLE001 - comparing what both raise
        return ("error", type(e))


@pytest.mark.parametrize("fn,cases", programs.PROGRAMS, ids=[p[0].__name__ for p in programs.PROGRAMS])
def test_converted_matches_original_on_python_values(fn, cases):
    converted = ag.convert(fn)
    for args in cases:
        assert _outcome(converted, *args) == _outcome(fn, *args), args


def test_side_effect_order_and_short_circuit_values():
    for a, b in [(0, 5), (3, 0), (2, 7), ("", "x")]:
        log_original, log_converted = [], []
        expected = programs.short_circuit(log_original, a, b)
        assert ag.convert(programs.short_circuit)(log_converted, a, b) == expected
        assert log_converted == log_original


def test_undefined_variable_raises_like_python():
    with pytest.raises(UnboundLocalError, match="'y'"):
        ag.convert(programs.variable_defined_in_one_branch)(False)


def test_errors_in_converted_code_point_at_the_users_line():
    with pytest.raises(ValueError) as info:
        ag.convert(programs.assert_and_raise)(9)
    last = info.traceback[-1]
    assert str(last.path) == programs.__file__
    assert "raise ValueError" in str(last.statement)


def test_closures_are_late_bound():
    scale = 2

    def f(x):
        return x * scale

    converted = ag.convert(f)
    assert converted(3) == 6
    scale = 10
    assert converted(3) == 30


def test_default_values_replaced_after_conversion_are_used():
    """A helper's generated function kept the defaults it was converted with: `scale.__defaults__ = (10,)` and a
    new trace still multiplied by 1, where Python uses 10."""
    def scale(x, k=1, *, m=1):
        return x * k * m

    def caller(x):
        return scale(x)

    traced = tf.function(caller)
    assert int(traced(tf.constant(2))) == 2
    scale.__defaults__, scale.__kwdefaults__ = (10,), {"m": 5}
    assert caller(3) == 150
    assert float(traced(tf.constant(3.0))) == 150.0   # a new trace
    api.run_generated_code(True)
    try:
        assert ag.convert(caller)(3) == 150
    finally:
        api.run_generated_code(False)


def test_lambdas_including_two_on_one_line():
    double, triple = (lambda x: x * 2), (lambda y: y * 3)
    assert ag.convert(double)(4) == 8 and ag.convert(triple)(4) == 12
    assert "def ag__lambda_(x):" in ag.to_code(double)


def test_methods_partials_and_callable_objects():
    class Counter:
        def __init__(self):
            self.n = 0

        def bump(self, k):
            while k > 0:
                self.n += 1
                k -= 1
            return self.n

        def __call__(self, k):
            return self.bump(k) * 10

    c = Counter()
    assert ag.convert(c.bump)(3) == 3 and c.n == 3
    assert ag.convert(c)(2) == 50
    assert ag.convert(functools.partial(programs.if_elif_else))(20) == "big"


def test_decorated_functions_convert_their_body():
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*a):
            return fn(*a)
        return wrapper

    @deco
    def f(x):
        return -x if x < 0 else x

    assert ag.convert(f)(-3) == 3


def test_function_without_source_runs_unconverted_with_one_warning():
    namespace = {}
    exec("def made_by_exec(x):\n    return x + 1\n", namespace)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        converted = ag.convert(namespace["made_by_exec"])
        assert converted(1) == 2
        ag.convert(namespace["made_by_exec"])
    assert len([w for w in caught if "runs it as is" in str(w.message)]) == 1


def test_generators_are_a_conversion_error_with_location():
    def gen(n):
        for i in range(n):
            yield i

    with pytest.raises(ag.ConversionError, match=r"test_api.py:\d+:\d+: generators"):
        ag.convert(gen)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert list(ag.convert(gen, fallback=True)(3)) == [0, 1, 2]


def test_del_inside_statements_unbinds_the_name_as_python_does():
    def f(x, flag):
        tmp, d = x * 2, {"k": 1, "j": 2}
        if flag:
            del tmp, d["k"]
            tmp = -1 if x > 100 else x + 1
        if flag > 1:
            del tmp   # not read afterwards
        return x + (tmp if flag < 2 else 0), sorted(d)

    code = ag.to_code(f)
    # on the variable itself, which the branch shares through `nonlocal` (the item's object is marked:
    # a staged statement refuses to change it, operators/side_effects.py)
    assert "del tmp, ag__.mutating(d, \"del d['k']\")['k']" in code
    converted = ag.convert(f)
    for flag in (0, 1, 2):
        assert converted(3, flag) == f(3, flag)


def test_del_of_a_name_not_read_afterwards_works_in_tensor_statements():
    def f(x):
        tmp = x * 2
        if x > 0:
            del tmp
        return x

    def g(x):
        while x > 0:
            y = x - 1
            del x
            x = y
        return x

    assert int(tf.function(f)(tf.constant(3))) == 3 and ag.convert(f)(3) == 3
    assert int(tf.function(g)(tf.constant(3))) == 0 and ag.convert(g)(3) == 0


def test_del_then_read_raises_on_python_values_and_is_reported_on_tensors():
    def f(x):
        while x > 0:
            x -= 1
            del x
        return 0

    with pytest.raises(UnboundLocalError, match="'x'"):
        f(1)
    with pytest.raises(UnboundLocalError, match="'x'"):   # read in the loop test, which shares `x` (nonlocal)
        ag.convert(f)(1)
    line = f.__code__.co_firstlineno + 3
    with pytest.raises(ag.StagingError, match=rf"'x' is left undefined by this loop's body at .*test_api.py:{line}"):
        tf.function(f)(tf.constant(1))


def test_do_not_convert_is_honoured_by_converted_call():
    calls = []

    @ag.do_not_convert
    def helper(x):
        calls.append(x)
        return x

    def f(x):
        return helper(x) + 1

    assert ag.convert(f)(1) == 2 and calls == [1]
    assert api._target(helper, api._DEFAULT_OPTIONS) is helper


def test_library_functions_are_never_converted():
    import math
    assert api._target(math.sqrt, api._DEFAULT_OPTIONS) is math.sqrt
    assert api._target(len, api._DEFAULT_OPTIONS) is ag.len_


def test_conversion_is_cached_per_code_object():
    fns = [lambda x, k=k: x + k for k in range(50)]
    before = len(api._cache)
    assert [ag.convert(f)(1) for f in fns] == [1 + k for k in range(50)]
    assert len(api._cache) <= before + 1


def test_fast_path_runs_the_original_when_nothing_is_staging():
    api.run_generated_code(False)
    converted = ag.convert(programs.if_elif_else)
    assert converted(5) == "small" and converted.generated(5) == "small"


def _makes_lambdas(n):
    fs = []
    for i in range(n):
        fs.append(lambda i=i: i * 2)
    return [f() for f in fs]


def test_functions_made_by_converted_code_convert_again():
    # The lambda's code comes from generated code, so `ag__` is already one of its free variables.
    assert ag.convert(_makes_lambdas)(3) == [0, 2, 4]

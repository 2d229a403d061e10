"""f-strings and `str.format` of traced tensors give the text the eager tensors give, when the graph runs."""
import logging
import sys

import pytest

import autograph as ag
import runtime as tf
from autograph.errors import StagingError


def fields(x, v):
    return (f"{x}|{x:.3f}|{x!r}|{x!s}|{x!a:>60}|{x=}|{v}|{'lit'}|{3:>4}|{x:>{4 + 4}}",
            "{0:.1f} {0} {name!r} {v[1]} {{}}".format(x, name=x, v=[1, 2]),
            "{}-{}".format(v, x))


@pytest.mark.parametrize("x, v", [(2.5, [1, 2]), (-7, [[1, 2], [3, 4]]), (True, [0.25])])
def test_an_f_string_of_traced_tensors_is_the_eager_text(x, v):
    args = tf.constant(x), tf.constant(v)
    traced = tf.function(fields)(*args)
    assert [t.numpy().decode() for t in traced] == list(fields(*args))


def branches_and_loops(x, n):
    if x > 0:
        s = f"pos {x:.1f}"
    else:
        s = "neg {:.2f}".format(x)
    total = 0
    for i in tf.range(n):
        total += i
        tf.print(f"step {i}: {total}")
    return s, f"{total}"


def test_f_strings_in_staged_branches_and_loops_are_formatted_each_run(capsys):
    staged = tf.function(branches_and_loops)
    for x, n in ((1.5, 3), (-2.0, 2)):
        expected = branches_and_loops(tf.constant(x), tf.constant(n))
        capsys.readouterr()
        got = staged(tf.constant(x), tf.constant(n))
        assert [t.numpy().decode() for t in got] == list(expected)
        printed = capsys.readouterr()
        assert (printed.out + printed.err).split("\n")[:n] == [f"step {i}: {sum(range(i + 1))}" for i in range(n)]


def test_a_python_int_a_staged_loop_carries_formats_as_the_int():
    def powers(n):
        k, i = 1, 0
        while i < n:
            k, i = k * 3, i + 1
        return f"{k!r} {k:>5} {i:#x}"

    assert tf.function(powers)(tf.constant(4)).numpy().decode() == powers(4) == "81    81 0x4"


class Loud:
    """Records when it is formatted, to check Python's order of evaluation and formatting."""

    def __init__(self, name, log):
        self.name, self.log = name, log

    def __format__(self, spec):
        self.log.append(f"format {self.name}:{spec}")
        return self.name

    def __repr__(self):
        self.log.append(f"repr {self.name}")
        return f"<{self.name}>"


def test_on_python_values_fields_are_evaluated_and_formatted_in_pythons_order():
    def build(log):
        def get(name):
            log.append(f"get {name}")
            return Loud(name, log)
        return f"{get('a')!r}{get('b'):{get('w').name}}{get('c')}", "{}{!r}".format(get("d"), get("e"))

    python_log, converted_log = [], []
    assert ag.convert(build)(converted_log) == build(python_log)
    assert converted_log == python_log
    assert python_log[:5] == ["get a", "repr a", "get b", "get w", "format b:w"]


def test_where_python_takes_the_string_it_is_the_trace_time_text_as_in_tensorflow(capsys, caplog):
    log = logging.getLogger("fstrings-test")

    @tf.function
    def f(x):
        print(f"tracing {x}")
        log.warning(f"traced {x}")
        sys.stdout.write(f"written {x}\n")
        tf.debugging.assert_greater(x, 0, message=f"x={x}")
        if x.shape.rank != 0:
            raise ValueError(f"not a scalar: {x}")
        return x

    with caplog.at_level(logging.WARNING, logger="fstrings-test"):
        f(tf.constant(3))
    symbolic = 'Tensor("x:0", shape=(), dtype=int32)'
    assert capsys.readouterr().out == f"tracing {symbolic}\nwritten {symbolic}\n"
    assert f"traced {symbolic}" in caplog.text
    with pytest.raises(ValueError, match=r'not a scalar: Tensor\("x:0", shape=\(1,\), dtype=int32\)'):
        f(tf.constant([3]))


def test_a_str_added_to_an_f_string_keeps_its_fields(capsys):
    @tf.function
    def f(x):
        tf.print("a: " + f"{x}" + "|" + f"{x + 1}", output_stream=sys.stdout)
        return "<" + f"{x:+d}" + ">"

    assert f(tf.constant(3)).numpy() == b"<+3>"
    assert capsys.readouterr().out == "a: 3|4\n"


def test_an_f_string_with_no_fields_is_left_as_written():
    def f(x):
        return f"plain" + x
    assert "ag__.fstring" not in ag.to_code(f)


@pytest.mark.parametrize("body", [lambda s: f"<{s}>", lambda s: "<{}>".format(s)], ids=["f-string", "format"])
def test_a_string_tensor_field_is_refused_at_its_line_where_the_graph_needs_the_string(body, capsys):
    def f(x):
        s = "a"
        if x > 0:
            s = "b"
        print(body(s))                      # Python's text: the symbolic string tensor, as in TensorFlow
        return body(s)

    with pytest.raises(StagingError, match=r"test_staged_fstrings.py:\d+: an f-string .* string tensor"):
        tf.function(f)(tf.constant(1))
    assert capsys.readouterr().out == '<Tensor("cond:0", shape=(), dtype=string)>\n'


def test_a_format_spec_made_from_a_tensor_is_refused():
    def f(x, w):
        return f"{x:>{w}}"

    with pytest.raises(StagingError, match="format spec of an f-string field holding a tensor is itself made"):
        tf.function(f)(tf.constant(1), tf.constant(5))


def test_a_spec_the_type_cannot_take_fails_while_tracing_as_in_python():
    def f(x):
        return f"{x:d}"

    with pytest.raises(ValueError, match="Unknown format code 'd' for object of type 'float'"):
        f(tf.constant(1.5))
    with pytest.raises(ValueError, match="Unknown format code 'd' for object of type 'float'"):
        tf.function(f)(tf.constant(1.5))


def test_a_saved_function_keeps_its_f_strings(tmp_path):
    f = tf.function(lambda x: f"x={x:.2f}", input_signature=[tf.TensorSpec([], tf.float32)])
    tf.save_function(f, str(tmp_path / "f"))
    assert tf.load_function(str(tmp_path / "f"))(tf.constant(2.25)).numpy() == b"x=2.25"


def containers(x, y):
    holds_itself = [x, "a", 3]
    holds_itself.append(holds_itself)
    return (f"{[x, y]}|{(x,)}|{ {'loss': x, 2: (y, 'b')} }|{[x]!r}|{holds_itself}|{[1, 'q']}",
            "{} {!s} {}".format([x], {"k": y}, ("z",)))


def test_lists_tuples_and_dicts_of_traced_tensors_format_as_their_eager_reprs():
    args = tf.constant(1.5), tf.constant([1, 2])
    traced = tf.function(containers)(*args)
    assert [t.numpy().decode() for t in traced] == list(containers(*args))


def percent(x, i, v):
    return ("%s|%r|%5.1f|%-6d|%+05d|%x|%#o|%e|%.0f|%%|%c|%.3s" % (x, x, x, i, i, i, i, x, x, i, "python"),
            "%(a)s and %(b)08.3f" % {"a": v, "b": x}, "%s" % [x, "q"], "%s" % (i,), "%-10s!" % "py")


def test_a_percent_format_of_traced_tensors_is_the_eager_text():
    args = tf.constant(2.5), tf.constant(65), tf.constant([1, 2])
    traced = tf.function(percent)(*args)
    assert [t.numpy().decode() if isinstance(t, tf.Tensor) else t for t in traced] == list(percent(*args))


@pytest.mark.parametrize("bad, error", [(lambda x: "%s %s" % (x,), "not enough arguments for format string"),
                                        (lambda x: "%s" % (x, x), "not all arguments converted"),
                                        (lambda x: "%(a)s" % (x,), "format requires a mapping")])
def test_a_percent_format_python_rejects_is_rejected_with_pythons_error(bad, error):
    with pytest.raises(TypeError, match=error):
        bad(tf.constant(1))
    with pytest.raises(TypeError, match=error):
        tf.function(bad)(tf.constant(1))


def test_a_percent_with_a_star_width_on_a_tensor_is_refused():
    with pytest.raises(StagingError, match=r"a `%` format with `\*` widths formats a tensor"):
        tf.function(lambda x: "%*d" % (3, x))(tf.constant(1))


def test_percent_on_python_values_and_numbers_is_pythons():
    def f(x, i):
        return "%s|%5.1f|%-6d" % (x, x, i), "%(k)r" % {"k": str(i)}, 7 % 3, x % 2

    assert ag.convert(f)(2.5, 3) == f(2.5, 3) == ("2.5|  2.5|3     ", "'3'", 1, 0.5)


def test_a_backend_that_formats_no_staged_string_refuses_a_spec_its_traced_values_cannot_take():
    jax = pytest.importorskip("jax", reason="the JAX backend is tested where JAX is installed")
    from autograph.errors import UnsupportedCapabilityError

    def f(x):
        return len(f"{x:+}"), len(f"{x}")

    with pytest.raises(UnsupportedCapabilityError,
                       match=r"test_staged_fstrings.py:\d+: a formatted field .* the format spec '[+]' holds a traced jax"):
        jax.jit(ag.convert(f))(jax.numpy.int32(3))
    assert ag.convert(f)(3) == f(3) == (2, 1)

    def g(x):
        return len("{}/{:03d}".format(x, x))   # Python's string.Formatter calls autograph back: not the user's line

    with pytest.raises(UnsupportedCapabilityError, match=r"test_staged_fstrings.py:\d+: a formatted field .* '03d'"):
        jax.jit(ag.convert(g))(jax.numpy.int32(3))


def test_string_ops_stacks_constants_and_returned_lists_take_the_formatted_text():
    @tf.function
    def f(x):
        return (tf.strings.join([f"{x}", "!"]), tf.strings.length(f"{x:.1f}"), tf.stack([f"{x}", "y"]),
                tf.constant([f"{x}"]), [f"{x}", "z"])

    joined, length, stacked, constant, returned = f(tf.constant(2.5))
    assert joined.numpy() == b"2.5!" and int(length) == 3
    assert stacked.numpy().tolist() == [b"2.5", b"y"] and constant.numpy().tolist() == [b"2.5"]
    assert [t.numpy() for t in returned] == [b"2.5", b"z"]


def _len_f_string(y):
    return len(f"<{y + 2}|{y:03d}>")


def _len_str(y):
    return len(str(y))


def _len_percent(y):
    return len("%s" % y)


def _len_format(y):
    return len("{}".format(y))


def _find(y):
    return f"v={y}".find("1")


def _len_upper(y):
    return len(f"v={y}".upper())


@pytest.mark.parametrize("f", [_len_f_string, _len_str, _len_percent, _len_format, _find, _len_upper],
                         ids=lambda f: f.__name__)
def test_the_length_or_a_method_of_text_formatted_from_a_tensor_is_refused_where_python_would_read_the_value(f):
    """Seed 99091 of the python generator: `len(f"<{y + 2}|{z + 2:03d}>")` counted the trace's text (the
    symbolic tensor's, 85 characters) where Python counts the value's (7), as TensorFlow would count too."""
    ag.api.run_generated_code(True)
    try:
        assert ag.convert(f)(0) == f(0)          # on Python values: Python's length
    finally:
        ag.api.run_generated_code(False)
    with pytest.raises(StagingError, match="\\(\\) of text formatted from a staged value"):
        tf.function(f)(tf.constant(0))


def _join_carried(x):
    s = "x"
    if x > 0:
        s = "y"
    return "-".join([s, "c"]), "-".join(p for p in ["a", "b"])


def test_joining_a_str_a_staged_if_carries_is_refused_at_the_line():
    """Python's join raised its TypeError ('expected str instance, SymbolicTensor found') naming no line."""
    ag.api.run_generated_code(True)
    try:
        assert ag.convert(_join_carried)(1) == ("y-c", "a-b")      # the generated code on Python values
    finally:
        ag.api.run_generated_code(False)
    with pytest.raises(StagingError, match="str.join: item 0 is a staged value") as caught:
        tf.function(_join_carried)(tf.constant(1))
    assert f"{__file__}:" in str(caught.value)

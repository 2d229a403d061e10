"""String tensors and runtime/ops/string_ops.py (tf.strings) against Python's own string functions, printed as
TensorFlow prints them; arithmetic other than + raises as in TensorFlow."""
import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import runtime as tf
from runtime.errors import DTypeNotAllowedError, InvalidArgumentError, UnimplementedError

WORDS = [["a", "bc"], ["Déf", ""]]


def _run_both(f, *args):
    """`f` eagerly and in a traced function: the two results, which must agree."""
    eager = f(*args)
    traced = tf.function(f, autograph=False)(*args)
    return eager, traced


def test_string_constants_print_as_tensorflow():
    assert repr(tf.constant("a")) == "<tf.Tensor: shape=(), dtype=string, numpy=b'a'>"
    assert str(tf.constant("a")) == "tf.Tensor(b'a', shape=(), dtype=string)"
    assert repr(tf.constant(["a", "bc"])) == \
        "<tf.Tensor: shape=(2,), dtype=string, numpy=array([b'a', b'bc'], dtype=object)>"
    assert str(tf.constant(["a", "bc"])) == "tf.Tensor([b'a' b'bc'], shape=(2,), dtype=string)"
    assert str(tf.string) == "<dtype: 'string'>" and tf.constant(b"x").dtype is tf.string
    assert tf.constant("é").numpy() == "é".encode() and isinstance(tf.constant("a").numpy(), bytes)


def test_tf_print_shows_a_string_scalar_unquoted_only_when_it_is_all_it_prints():
    # TensorFlow 2.21's output for each (a scalar was shown unquoted beside other inputs too)
    out = io.StringIO()
    tf.print(tf.constant("hi"), tf.constant(["a", "b"]), output_stream=out)
    tf.print(tf.constant("hi"), output_stream=out)
    tf.print("a", tf.constant("hi"), output_stream=out)
    tf.print({"k": tf.constant("v")}, output_stream=out)

    @tf.function
    def f(x):
        tf.print(x, output_stream=out)
        tf.print(x, x, output_stream=out)
    f(tf.constant("q"))
    assert out.getvalue() == '"hi" ["a" "b"]\nhi\na "hi"\n{\'k\': "v"}\nq\n"q" "q"\n'


def test_strings_do_not_mix_with_numbers():
    with pytest.raises(TypeError, match="mixes strings"):
        tf.constant(["a", 1])
    with pytest.raises(TypeError, match="str does not convert exactly"):
        tf.constant("a", dtype=tf.int32)
    with pytest.raises(UnimplementedError, match="as_string"):
        tf.cast(tf.constant(1), tf.string)


@pytest.mark.parametrize("op", [lambda s: s * 2, lambda s: s - s, lambda s: -s, lambda s: s < s,
                                lambda s: tf.reduce_sum(s), lambda s: tf.abs(s)])
def test_arithmetic_on_strings_raises_but_plus_joins(op):
    s = tf.constant(["a", "b"])
    with pytest.raises((DTypeNotAllowedError, InvalidArgumentError)):
        op(s)
    with pytest.raises((DTypeNotAllowedError, InvalidArgumentError)):
        tf.function(op, autograph=False)(s)
    eager, traced = _run_both(lambda s: s + "!", s)
    assert eager.numpy().tolist() == traced.numpy().tolist() == [b"a!", b"b!"]


@pytest.mark.parametrize("value", ["", "é", [], ["ab", "c"], WORDS], ids=["empty-string", "0-d", "empty", "1-d", "2-d"])
def test_length_matches_python(value):
    s = tf.constant(value, dtype=tf.string)
    encoded = np.vectorize(lambda v: len(v.encode()), otypes=[np.int32])(np.array(value, dtype=object))
    chars = np.vectorize(len, otypes=[np.int32])(np.array(value, dtype=object))
    for unit, expected in [("BYTE", encoded), ("UTF8_CHAR", chars)]:
        for got in _run_both(lambda s: tf.strings.length(s, unit=unit), s):
            assert got.dtype is tf.int32 and got.shape == np.shape(value)
            np.testing.assert_array_equal(got.numpy(), expected)


def test_join_broadcasts_and_reduce_join_joins_along_axes():
    for got in _run_both(lambda s: tf.strings.join([s, "x", s[0]], separator="-"), tf.constant(WORDS)):
        assert got.numpy().tolist() == [[b"a-x-a", b"bc-x-bc"], ["Déf-x-a".encode(), b"-x-bc"]]
    s = tf.constant(WORDS)
    assert tf.strings.reduce_join(s, separator=",").numpy() == "a,bc,Déf,".encode()
    assert tf.strings.reduce_join(s, axis=1, keepdims=True).numpy().tolist() == [[b"abc"], ["Déf".encode()]]
    assert tf.strings.reduce_join(s, axis=0).numpy().tolist() == ["aDéf".encode(), b"bc"]
    assert tf.strings.reduce_join(tf.zeros([2, 0], tf.string), axis=1).numpy().tolist() == [b"", b""]
    assert tf.strings.join([tf.constant([], tf.string), "a"]).shape == (0,)


def test_format_prints_values_as_tf_print_does():
    for got in _run_both(lambda x, s: tf.strings.format("x={} s={}", [x, s]), tf.range(10), tf.constant("hi")):
        assert got.numpy() == b"x=[0 1 2 ... 7 8 9] s=\"hi\"" and got.shape == ()
    assert tf.strings.format("{}", tf.constant(2.5)).numpy() == b"2.5"
    with pytest.raises(InvalidArgumentError, match="2 placeholders"):
        tf.strings.format("{} {}", [tf.constant(1)])


def test_as_string_formats_numbers_as_tensorflow():
    assert tf.strings.as_string(tf.constant([3.5, -1.0])).numpy().tolist() == [b"3.500000", b"-1.000000"]
    assert tf.strings.as_string(tf.constant(3.14159), precision=2).numpy() == b"3.14"
    assert tf.strings.as_string(tf.constant(1234.5), scientific=True, precision=1).numpy() == b"1.2e+03"
    assert tf.strings.as_string(tf.constant([3, 10]), width=3).numpy().tolist() == [b"  3", b" 10"]
    assert tf.strings.as_string(tf.constant(7), width=3, fill="0").numpy() == b"007"
    assert tf.strings.as_string(tf.constant([True, False])).numpy().tolist() == [b"true", b"false"]
    assert tf.strings.as_string(tf.constant(1 + 2j)).numpy() == b"(1.000000,2.000000)"
    assert tf.strings.as_string(tf.zeros([0])).shape == (0,)
    for got in _run_both(tf.strings.as_string, tf.constant([[1, 2]])):
        assert got.numpy().tolist() == [[b"1", b"2"]]


def test_to_number_upper_lower():
    for got in _run_both(tf.strings.to_number, tf.constant(["1.5", "-2"])):
        assert got.dtype is tf.float32 and got.numpy().tolist() == [1.5, -2.0]
    assert tf.strings.to_number("12", out_type=tf.int64).numpy() == 12
    with pytest.raises(InvalidArgumentError, match="StringToNumber"):
        tf.strings.to_number("x")
    assert tf.strings.upper(tf.constant(WORDS)).numpy().tolist() == [[b"A", b"BC"], ["DéF".encode(), b""]]
    assert tf.strings.lower("AbC").numpy() == b"abc"


@pytest.mark.parametrize("text", ["", "Duck", "1 10  100 ", "アヒル 🦆"], ids=["empty", "word", "spaces", "unicode"])
def test_splitting_a_scalar_string_matches_python(text):
    def f(s):
        return (tf.strings.split(s), tf.strings.split(s, " ", maxsplit=1), tf.strings.bytes_split(s),
                tf.strings.unicode_split(s, "UTF-8"), tf.strings.unicode_decode(s, "UTF-8"))

    data = text.encode()
    expected = [data.split(), data.split(b" ", 1), [bytes([b]) for b in data], [c.encode() for c in text],
                [ord(c) for c in text]]
    for results in _run_both(f, tf.constant(text)):
        for got, want in zip(results, expected):
            assert got.shape == (len(want),) and got.numpy().tolist() == want
    assert tf.strings.unicode_decode(text, "UTF-8").dtype is tf.int32


def test_splitting_a_vector_of_strings_would_be_ragged_and_says_so():
    with pytest.raises(UnimplementedError, match="RaggedTensor .* out of scope"):
        tf.strings.split(tf.constant(["a b", "c"]))
    with pytest.raises(UnimplementedError, match="UTF-8"):
        tf.strings.unicode_decode("a", "UTF-16-BE")
    traced = tf.function(tf.strings.split, autograph=False).get_concrete_function(tf.constant("a b"))
    assert traced.graph.outputs[0].shape.as_list() == [None]


def test_array_ops_work_on_strings_eagerly_and_in_a_function():
    def f(s):
        return (tf.concat([s, s], 0), tf.gather(s, [1]), tf.reshape(s, [-1]), tf.where(s == "a", s, "no"),
                tf.boolean_mask(s, [True, False]), tf.zeros_like(s), tf.stack([s[0], s[1]]))

    for got in _run_both(f, tf.constant(WORDS)):
        assert got[0].shape == (4, 2) and got[1].numpy().tolist() == [["Déf".encode(), b""]]
        assert got[3].numpy().tolist() == [[b"a", b"no"], [b"no", b"no"]]
        assert got[4].numpy().tolist() == [[b"a", b"bc"]] and got[5].numpy().tolist() == [[b"", b""], [b"", b""]]
    assert tf.zeros([2], tf.string).numpy().tolist() == [b"", b""]


def test_string_variables_and_signatures():
    v = tf.Variable("a")
    v.assign("longer")
    assert v.numpy() == b"longer"

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def first(s):
        return s[0] + "?"

    assert first(tf.constant(["x", "y"])).numpy() == b"x?"


_NO_NUL = st.characters(exclude_characters="\x00", exclude_categories=("Cs",))   # NumPy bytes drop trailing
# NULs (docs/tf-compat.md); lone surrogates have no UTF-8 encoding (a string tensor holds UTF-8 bytes)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(_NO_NUL, max_size=5), min_size=0, max_size=4), st.text(_NO_NUL, max_size=2))
def test_length_join_and_reduce_join_match_python_on_any_text(words, separator):
    s = tf.constant(words, dtype=tf.string)
    encoded = [w.encode() for w in words]
    assert tf.strings.length(s).numpy().tolist() == [len(w) for w in encoded]
    assert tf.strings.length(s, unit="UTF8_CHAR").numpy().tolist() == [len(w) for w in words]
    assert tf.strings.join([s, s], separator=separator).numpy().tolist() == \
        [w + separator.encode() + w for w in encoded]
    assert tf.strings.reduce_join(s, separator=separator).numpy() == separator.encode().join(encoded)

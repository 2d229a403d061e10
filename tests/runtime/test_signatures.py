"""Trace-cache keys, retrace descriptions, shape relaxation and TensorSpec."""
import runtime as tf
from runtime import signatures


def test_tensors_are_keyed_by_dtype_and_shape_python_values_by_value():
    a, b = tf.constant([1, 2]), tf.constant([3, 4])
    assert signatures.encode((a, 3)) == signatures.encode((b, 3))
    assert signatures.encode((a, 3)) != signatures.encode((b, 4))
    assert signatures.encode((a,)) != signatures.encode((tf.constant([1.0, 2.0]),))
    assert signatures.encode(([a], {"k": 1})) != signatures.encode(((a,), {"k": 1}))  # list vs tuple
    assert signatures.encode((1,)) != signatures.encode((1.0,)) != signatures.encode((True,))


def test_float_keys_nan_and_signed_zero():
    assert signatures.leaf_key(float("nan")) == signatures.leaf_key(float("nan"))
    assert signatures.leaf_key(0.0) != signatures.leaf_key(-0.0)
    assert signatures.leaf_key(2.5) == (float, 2.5)


class _AllEqual:
    def __eq__(self, other):
        return isinstance(other, _AllEqual)

    def __hash__(self):
        return 0


def test_equal_python_values_that_differ_are_keyed_apart():
    from decimal import Decimal
    assert signatures.leaf_key(Decimal("1.0")) != signatures.leaf_key(Decimal("1.00"))
    assert signatures.leaf_key(Decimal("1.0")) == signatures.leaf_key(Decimal("1.0"))
    assert signatures.leaf_key(complex(0.0, 0.0)) != signatures.leaf_key(complex(0.0, -0.0))
    assert signatures.leaf_key(_AllEqual()) != signatures.leaf_key(_AllEqual())
    assert signatures.describe(signatures.leaf_key(Decimal("2.50"))) == "Python Decimal Decimal('2.50')"


def test_a_trace_for_one_of_two_equal_values_does_not_answer_for_the_other():
    from decimal import Decimal

    @tf.function
    def shown(x, d):
        return x, str(d)

    for d in (Decimal("1.0"), Decimal("1.00"), Decimal("1.0")):
        assert shown(tf.constant(1), d)[1].numpy() == str(d).encode()
    assert shown.experimental_get_tracing_count() == 2


def test_objects_are_keyed_by_identity_and_what_their_attributes_hold():
    class Config:
        def __init__(self):
            self.scale, self.rows = 2, [1, 2]

    config, items = Config(), {1, 2}
    key = signatures.leaf_key(config)
    assert key == signatures.leaf_key(config) and key != signatures.leaf_key(Config())
    config.rows.append(3)
    assert key != signatures.leaf_key(config)
    assert signatures.leaf_key(items) == signatures.leaf_key(items) != signatures.leaf_key({1, 2, 3})
    assert signatures.describe(signatures.leaf_key(Config())).startswith("Config object holding (('scale'")


def test_descriptions_of_changed_arguments():
    assert signatures.describe(signatures.leaf_key(tf.constant([[1.0]]))) == "float32 tensor of shape (1, 1)"
    assert signatures.describe(signatures.leaf_key(3)) == "Python int 3"
    assert signatures.describe(signatures.leaf_key(-0.0)) == "Python float -0.0"
    assert signatures.describe(signatures.encode([1, 2])) == "a list of 2"


def test_relax_keeps_dtype_and_generalises_dimensions():
    previous = ((tf.TensorSpec([1, 3], tf.int32),), {})
    current = ((tf.constant([[1, 2, 3], [4, 5, 6]]),), {})
    (spec,), _ = signatures.relax(previous, current)
    assert spec.shape.as_list() == [None, 3] and spec.dtype is tf.int32


def test_tensor_spec_compatibility_and_repr():
    spec = tf.TensorSpec([None, 2], tf.float32)
    assert spec.is_compatible_with(tf.constant([[1.0, 2.0]]))
    assert not spec.is_compatible_with(tf.constant([[1.0, 2.0, 3.0]]))
    assert not spec.is_compatible_with(tf.constant([[1, 2]]))
    assert tf.TensorSpec(shape=None).is_compatible_with(tf.constant([[[1.0]]]))
    assert repr(spec) == "TensorSpec(shape=(None, 2), dtype=tf.float32, name=None)"


def test_nested_arguments_print_as_tensor_specs():
    text = signatures.spec_text({"a": [tf.TensorSpec([2], tf.int32), 3]})
    assert text == "{'a': [TensorSpec(shape=(2,), dtype=int32), 3]}"


def test_a_concrete_signature_keeps_the_name_its_tensorspec_was_given():
    f = tf.function(lambda x, y: x * y)
    concrete = f.get_concrete_function(tf.TensorSpec([], tf.int32, name="scale"), tf.TensorSpec([], tf.int32))
    assert [spec.name for spec in concrete.structured_input_signature[0]] == ["scale", "y"]


def test_a_retrace_reason_shortens_what_an_object_holds():
    class Big:
        def __init__(self):
            self.rows = list(range(100))

    text = signatures.describe(signatures.leaf_key(Big()))
    assert text.startswith("Big object holding ((") and text.endswith("...") and len(text) < 120

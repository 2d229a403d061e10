"""name_scope, device, init_scope (runtime/scopes.py); config devices, __version__, UnconnectedGradients
(runtime/compat.py); how dtypes print and what Variable.assign returns."""

import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError


def test_name_scope_prefixes_traced_op_names_and_nests():
    @tf.function
    def f(x):
        with tf.name_scope("outer") as outer:
            with tf.name_scope("inner") as inner:
                y = tf.multiply(x, x, name="square")
            z = y + x
        assert (outer, inner) == ("outer/", "outer/inner/")
        return z

    names = [op.name for op in f.get_concrete_function(tf.constant(1.0)).graph.get_operations()]
    assert "outer/inner/square" in names and "outer/AddV2" in names
    assert f(tf.constant(3.0)).numpy() == 12.0


def test_name_scope_eagerly_and_its_errors():
    with tf.name_scope("eager") as scope:
        assert scope == "eager/" and tf.add(1, 2).numpy() == 3
    with tf.name_scope(None) as scope:
        assert scope == ""
    with pytest.raises(ValueError, match="valid scope name"):
        tf.name_scope("bad name!").__enter__()


@pytest.mark.parametrize("spec", [None, "", "/CPU:0", "cpu:0", "/cpu:*", "CPU", "/device:CPU:0",
                                  "/job:localhost/replica:0/task:0/device:CPU:0"])
def test_device_accepts_the_cpu(spec):
    with tf.device(spec):
        assert tf.add(1, 1).numpy() == 2


@pytest.mark.parametrize("spec", ["/GPU:0", "gpu", "/device:TPU:0", "/cpu:1"])
def test_device_rejects_other_devices_clearly(spec):
    with pytest.raises(InvalidArgumentError, match="CPU only"):
        with tf.device(spec):
            pass


def test_init_scope_runs_eagerly_while_tracing_and_pauses_tapes():
    seen = []

    @tf.function
    def f(x):
        with tf.init_scope():
            seen.append((tf.executing_eagerly(), tf.constant(2.0).numpy()))
        return x * 2

    assert f(tf.constant(1.0)).numpy() == 2.0 and seen == [(True, 2.0)]
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        with tf.init_scope():
            hidden = x * x
        y = x * 2
    assert tape.gradient(hidden, x) is None and tape.gradient(y, x).numpy() == 2.0


def test_config_devices_version_and_unconnected_gradients():
    assert [d.device_type for d in tf.config.list_physical_devices()] == ["CPU"]
    assert tf.config.list_physical_devices("GPU") == [] and tf.config.list_logical_devices("CPU")
    import autograph
    assert tf.__version__ == autograph.__version__      # one version, tested against pyproject in test_packaging
    x, unused = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, unused])
        y = x * 3
    assert tape.gradient(y, unused, unconnected_gradients=tf.UnconnectedGradients.ZERO).numpy() == 0.0
    assert tape.gradient(y, unused, unconnected_gradients=tf.UnconnectedGradients.NONE) is None


def test_dtypes_print_as_tensorflow_prints_them():
    assert str(tf.float32) == "<dtype: 'float32'>" and repr(tf.int64) == "tf.int64"


def test_assign_returns_the_variable():
    v = tf.Variable(1.0)
    assert v.assign(2.0) is v and v.assign_add(1.0) is v and v.assign_sub(0.5) is v
    assert v.numpy() == 2.5 and v.assign(0.0, read_value=False) is None

    @tf.function
    def f():
        return v.assign_add(1.0) * 2

    assert f().numpy() == 2.0 and v.numpy() == 1.0


def test_autograph_feature_options_are_accepted_and_checked():
    feature = tf.autograph.experimental.Feature
    f = tf.function(lambda x: x * 2, autograph=False, experimental_autograph_options=feature.EQUALITY_OPERATORS)
    assert f(tf.constant(2)).numpy() == 4
    assert tf.function(experimental_autograph_options=(feature.ALL, feature.LISTS))(abs) is not None
    with pytest.raises(TypeError, match="Feature"):
        tf.function(abs, experimental_autograph_options="LISTS")


@pytest.mark.parametrize("name", ["data", "saved_model", "distribute", "lite", "ragged"])
def test_out_of_scope_modules_say_so_and_point_to_the_compat_page(name):
    from runtime.errors import OutOfScopeError

    with pytest.raises(OutOfScopeError, match=rf"tf\.{name} is out of scope .*docs/tf-compat.md"):
        getattr(tf, name)
    assert not hasattr(tf, "no_such_name")


def test_an_out_of_scope_name_is_missing_to_hasattr_and_getattr_with_a_default():
    # code that probes for a module (`if hasattr(tf, "image")`) takes its other path, as for any missing name
    assert not hasattr(tf, "image") and getattr(tf, "data", None) is None and not hasattr(tf.keras, "layers")
    with pytest.raises(NotImplementedError, match="tf.image is out of scope"):
        tf.image.adjust_contrast


def test_compat_v1_is_out_of_scope():
    from runtime.errors import OutOfScopeError

    with pytest.raises(OutOfScopeError, match="TensorFlow 2 names"):
        tf.compat.v1.Session()

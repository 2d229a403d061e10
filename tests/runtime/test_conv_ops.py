"""`tf.nn.conv2d`, `conv1d`, `max_pool2d`, `avg_pool2d`: values against direct NumPy loops, gradients against
finite differences and TensorFlow 2.21 (where installed), the max pool's gradient at ties (TensorFlow's: the
first largest element of a window), and the same values under jit_compile and in ONNX export."""
import numpy as np
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError

rng = np.random.default_rng(0)
X = rng.normal(size=(2, 7, 6, 3)).astype(np.float32)
W = rng.normal(size=(3, 2, 3, 4)).astype(np.float32)


def _same_padding(size, window, stride):
    out = -(-size // stride)
    total = max((out - 1) * stride + window - size, 0)
    return out, total // 2


def _conv_by_loops(x, w, stride, padding, dilation=1):
    n, h, width, c = x.shape
    kh, kw, _, o = w.shape
    spans = ((kh - 1) * dilation + 1, (kw - 1) * dilation + 1)
    if padding == "SAME":
        (oh, top), (ow, left) = _same_padding(h, spans[0], stride), _same_padding(width, spans[1], stride)
    else:
        (oh, top), (ow, left) = ((h - spans[0]) // stride + 1, 0), ((width - spans[1]) // stride + 1, 0)
    out = np.zeros((n, oh, ow, o), np.float64)
    for i in range(oh):
        for j in range(ow):
            for a in range(kh):
                for b in range(kw):
                    r, col = i * stride + a * dilation - top, j * stride + b * dilation - left
                    if 0 <= r < h and 0 <= col < width:
                        out[:, i, j, :] += x[:, r, col, :] @ w[a, b]
    return out


def _pool_by_loops(x, k, stride, padding, reduce):
    n, h, width, c = x.shape
    if padding == "SAME":
        (oh, top), (ow, left) = _same_padding(h, k, stride), _same_padding(width, k, stride)
    else:
        (oh, top), (ow, left) = ((h - k) // stride + 1, 0), ((width - k) // stride + 1, 0)
    out = np.zeros((n, oh, ow, c), np.float64)
    for i in range(oh):
        for j in range(ow):
            rows = slice(max(i * stride - top, 0), min(i * stride - top + k, h))
            cols = slice(max(j * stride - left, 0), min(j * stride - left + k, width))
            out[:, i, j, :] = reduce(x[:, rows, cols, :], axis=(1, 2))
    return out


@pytest.mark.parametrize("traced", [False, True])
@pytest.mark.parametrize("stride, padding, dilation", [(1, "VALID", 1), (1, "SAME", 1), (2, "SAME", 1),
                                                       (2, "VALID", 1), (1, "SAME", 2)])
def test_conv2d_is_the_windows_sums_of_products(traced, stride, padding, dilation):
    run = lambda x, w: tf.nn.conv2d(x, w, stride, padding, dilations=dilation)  # noqa: E731
    got = (tf.function(run) if traced else run)(tf.constant(X), tf.constant(W))
    np.testing.assert_allclose(got.numpy(), _conv_by_loops(X, W, stride, padding, dilation), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("pool, reduce", [(tf.nn.max_pool2d, np.max), (tf.nn.avg_pool2d, np.mean)])
@pytest.mark.parametrize("k, stride, padding", [(2, 2, "SAME"), (3, 1, "VALID"), (3, 2, "SAME")])
def test_a_pool_reduces_each_window_of_the_input_alone(pool, reduce, k, stride, padding):
    # an average over a window that reaches into SAME padding counts only the input's elements
    np.testing.assert_allclose(pool(X, k, stride, padding).numpy(), _pool_by_loops(X, k, stride, padding, reduce),
                               rtol=1e-5, atol=1e-6)


def test_conv1d_is_conv2d_on_a_height_of_one():
    got = tf.nn.conv1d(X[:, 0], W[0], 2, "SAME").numpy()
    np.testing.assert_allclose(got, _conv_by_loops(X[:, :1], W[:1], 2, "SAME")[:, 0], rtol=1e-4, atol=1e-5)


def test_the_gradients_of_conv2d_match_finite_differences():
    x, w = tf.constant(X[:1, :4, :4].astype(np.float64)), tf.constant(W[:2, :2, :, :2].astype(np.float64))
    probe = np.sin(np.arange(2 * 2 * 3 * 2).reshape(2, 2, 3, 2))

    def loss(w):
        return tf.reduce_sum(tf.nn.conv2d(x, w, 2, "SAME") ** 2)
    with tf.GradientTape() as tape:
        tape.watch(w)
        value = loss(w)
    analytic = float(tf.reduce_sum(tape.gradient(value, w) * probe))
    step = 1e-6
    numeric = (float(loss(w + step * probe)) - float(loss(w - step * probe))) / (2 * step)
    assert analytic == pytest.approx(numeric, rel=1e-6)


def test_a_max_pools_gradient_goes_to_the_first_largest_element_of_a_window():
    x = tf.constant(np.array([[1.0, 3.0], [3.0, 0.0]], np.float32).reshape(1, 2, 2, 1))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x, 2, 2, "VALID")
    assert tape.gradient(y, x).numpy().reshape(2, 2).tolist() == [[0.0, 1.0], [0.0, 0.0]]


def test_under_jit_compile_and_in_onnx_the_values_are_the_executors(tmp_path):
    def model(x, w):
        return tf.nn.avg_pool2d(tf.nn.max_pool2d(tf.nn.relu(tf.nn.conv2d(x, w, 1, "SAME")), 2, 1, "SAME"), 2, 2,
                                "VALID")
    x, w = tf.constant(X), tf.constant(W)
    expected = tf.function(model)(x, w).numpy()
    np.testing.assert_allclose(tf.function(model, jit_compile=True)(x, w).numpy(), expected, rtol=1e-5, atol=1e-6)
    ort = pytest.importorskip("onnxruntime", reason="running exported models needs the onnx extra")
    pytest.importorskip("onnx", reason="ONNX export needs the onnx extra")
    concrete = tf.function(model).get_concrete_function(x, w)
    session = ort.InferenceSession(tf.onnx.export(concrete).SerializeToString(), providers=["CPUExecutionProvider"])
    got = session.run(None, {i.name: v for i, v in zip(session.get_inputs(), (X, W))})[0]
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_what_is_not_supported_is_refused_clearly():
    with pytest.raises(InvalidArgumentError, match="only the NHWC data format"):
        tf.nn.conv2d(X, W, 1, "SAME", data_format="NCHW")
    with pytest.raises(InvalidArgumentError, match="the input has 3 channels and the filters expect 2"):
        tf.nn.conv2d(X, W[:, :, :2], 1, "SAME")
    with pytest.raises(InvalidArgumentError, match="height and width known while tracing"):
        tf.function(lambda x: tf.nn.max_pool2d(x, 2, 2, "SAME"),
                    input_signature=[tf.TensorSpec([None, None, None, 3])]).get_concrete_function()


def test_the_values_and_gradients_are_tensorflows():
    real = pytest.importorskip("tensorflow", reason="TensorFlow is not installed: the loops above check the values")
    relu_x = np.maximum(X, 0)   # ties at zero in the max pool's windows
    for lib_run in (lambda lib, x, w: lib.nn.conv2d(x, w, [1, 2, 2, 1], "SAME"),
                    lambda lib, x, w: lib.nn.conv2d(x, w, 1, [[0, 0], [1, 2], [0, 1], [0, 0]]),
                    lambda lib, x, w: lib.nn.max_pool2d(x, [2, 3], 2, "SAME") * lib.reduce_sum(w),
                    lambda lib, x, w: lib.nn.avg_pool2d(x, 3, 2, "SAME") * lib.reduce_sum(w)):
        found = []
        for lib in (tf, real):
            x, w = lib.constant(relu_x), lib.constant(W)
            with lib.GradientTape() as tape:
                tape.watch([x, w])
                y = lib_run(lib, x, w)
                loss = lib.reduce_sum(y * np.sin(np.arange(int(np.prod(y.shape)))).reshape(y.shape).astype(np.float32))
            found.append([y.numpy(), *[g.numpy() for g in tape.gradient(loss, [x, w])]])
        for ours, theirs in zip(*found):
            np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-5)

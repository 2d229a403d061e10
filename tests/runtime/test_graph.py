"""Graph IR: recording ops, captures, printing and lint()."""
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError
from runtime.graph import FuncGraph, building


def _traced(fn, *args):
    return tf.function(fn, autograph=False).get_concrete_function(*args).graph


def test_ops_recorded_in_creation_order_with_readable_names():
    g = _traced(lambda x, y: tf.matmul(x, y) + x, tf.constant([[1.0]]), tf.constant([[2.0]]))
    assert [op.type for op in g.get_operations()] == ["Placeholder", "Placeholder", "MatMul", "AddV2"]
    assert str(g) == (
        "graph <lambda>:\n"
        "  x:0 = Placeholder(dtype=float32, shape=TensorShape([1, 1]))  # float32(1, 1)\n"
        "  y:0 = Placeholder(dtype=float32, shape=TensorShape([1, 1]))  # float32(1, 1)\n"
        "  MatMul:0 = MatMul(x:0, y:0, transpose_a=False, transpose_b=False)  # float32(1, 1)\n"
        "  AddV2:0 = AddV2(MatMul:0, x:0)  # float32(1, 1)")
    g.lint()


def test_unique_names_for_repeated_ops():
    g = _traced(lambda x: x + x + x, tf.constant(1))
    assert [op.name for op in g.get_operations()] == ["x", "AddV2", "AddV2_1"]


def test_eager_tensor_from_closure_becomes_one_const():
    c = tf.constant([1, 2])
    g = _traced(lambda x: x + c + c, tf.constant([0, 0]))
    consts = [op for op in g.get_operations() if op.type == "Const"]
    assert len(consts) == 1 and consts[0].attrs["value"].tolist() == [1, 2]


def test_symbolic_tensor_escaping_its_graph_is_a_clear_error():
    leaked = []
    tf.function(lambda x: leaked.append(x + 1) or x, autograph=False)(tf.constant(1))
    with pytest.raises(InvalidArgumentError, match="outside the function that created it"):
        leaked[0] + 1


def test_shape_errors_at_trace_time_name_the_op():
    with pytest.raises(InvalidArgumentError, match="MatMul"):
        _traced(lambda x, y: tf.matmul(x, y), tf.constant([[1.0, 2.0]]), tf.constant([[1.0, 2.0]]))


def test_lint_catches_a_foreign_input():
    g1, g2 = FuncGraph("g1"), FuncGraph("g2")
    a = g1.placeholder(tf.float32, ())
    with building(g2):
        b = g2.placeholder(tf.float32, ())
        tf.add(b, b)
    g2.operations[-1].inputs = (a, b)
    with pytest.raises(AssertionError, match="from graph g1"):
        g2.lint()


def test_nested_graph_captures_outer_tensor_through_placeholder():
    outer = FuncGraph("outer")
    x = outer.placeholder(tf.int32, ())
    inner = FuncGraph("inner", outer_graph=outer)
    with building(inner):
        y = x + 1
    assert y.op.inputs[0].op.type == "Placeholder"
    assert inner.capture_pairs[0][0] is x
    inner.lint()


def test_symbolic_tensor_misuse_names_the_users_line_and_what_to_do():
    from runtime.errors import OperatorNotAllowedInGraphError

    def uses_bool(x):
        return 1 if bool(x > 0) else 0

    def uses_int(x):
        return int(x)

    def uses_numpy(x):
        return x.numpy()

    def iterates(x):
        return [v for v in x]

    cases = [(uses_bool, "runtime.cond"), (uses_int, "runtime.cast"), (uses_numpy, ".numpy() on the result"),
             (iterates, "runtime.range")]
    for fn, advice in cases:
        with pytest.raises(OperatorNotAllowedInGraphError) as info:
            tf.function(fn, autograph=False).get_concrete_function(tf.TensorSpec([None], tf.int32))
        assert f"{__file__}:" in str(info.value) and advice in str(info.value), fn.__name__

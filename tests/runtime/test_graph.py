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
        "graph <lambda>(x:0, y:0) -> (AddV2:0):\n"
        "  x:0 = Placeholder()  # float32(1, 1)\n"
        "  y:0 = Placeholder()  # float32(1, 1)\n"
        "  MatMul:0 = MatMul(x:0, y:0, transpose_a=False, transpose_b=False)  # float32(1, 1)\n"
        "  AddV2:0 = AddV2(MatMul:0, x:0)  # float32(1, 1)")
    g.lint()


def test_cond_prints_its_branch_graphs_indented_under_it():
    def f(p, x):
        return tf.cond(p, lambda: x * 2, lambda: x - 1)

    g = _traced(f, tf.constant(True), tf.constant(5))
    assert str(g) == (
        "graph f(p:0, x:0) -> (cond:0):\n"
        "  p:0 = Placeholder()  # bool()\n"
        "  x:0 = Placeholder()  # int32()\n"
        "  cond:0 = Cond(p:0, x:0, else_graph=f/false_fn, else_inputs=(1,), then_graph=f/true_fn, "
        "then_inputs=(1,))  # int32()\n"
        "    graph f/true_fn(capture_x:0) -> (Mul:0):\n"
        "      Const:0 = Const(value=2)  # int32()\n"
        "      capture_x:0 = Placeholder()  # int32()\n"
        "      Mul:0 = Mul(capture_x:0, Const:0)  # int32()\n"
        "    graph f/false_fn(capture_x:0) -> (Sub:0):\n"
        "      Const:0 = Const(value=1)  # int32()\n"
        "      capture_x:0 = Placeholder()  # int32()\n"
        "      Sub:0 = Sub(capture_x:0, Const:0)  # int32()")
    g.lint()


def test_stateful_ops_are_chained_in_program_order():
    v = tf.Variable(1.0)

    def f():
        a = v.read_value()
        v.assign(5.0)
        return a, v.read_value()

    g = _traced(f)
    read, assign, read_again = [op for op in g.get_operations() if op.stateful]
    assert assign.control_inputs == (read,) and read_again.control_inputs == (assign,)
    assert [t.numpy() for t in tf.function(f, autograph=False)()] == [1.0, 5.0]


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
    from runtime.errors import NoValueInGraphError, OperatorNotAllowedInGraphError

    def uses_bool(x):
        return 1 if bool(x > 0) else 0

    def uses_int(x):
        return int(x)

    def uses_numpy(x):
        return x.numpy()

    def iterates(x):
        return [v for v in x]

    def uses_in(x):   # Python's `in` replaced the error of the iteration it falls back to by "not iterable"
        return 3 in x

    cases = [(uses_bool, "runtime.cond"), (uses_int, "runtime.cast"), (uses_numpy, ".numpy() on the result"),
             (iterates, "runtime.range"), (uses_in, "runtime.reduce_any(tensor == value)")]
    for fn, advice in cases:
        expected = NoValueInGraphError if fn is uses_numpy else OperatorNotAllowedInGraphError   # TensorFlow's types
        with pytest.raises(expected) as info:
            tf.function(fn, autograph=False).get_concrete_function(tf.TensorSpec([None], tf.int32))
        assert f"{__file__}:" in str(info.value) and advice in str(info.value), fn.__name__


def test_lint_checks_what_a_cond_feeds_its_branches():
    def f(p, x):
        return tf.cond(p, lambda: x * 2, lambda: x - 1)

    g = _traced(f, tf.constant(True), tf.constant(5))
    g.lint()
    cond = g.get_operation_by_name("cond")
    cond.attrs["then_inputs"] = ()
    with pytest.raises(AssertionError, match="f/true_fn has 1 inputs but the op feeds it 0"):
        g.lint()

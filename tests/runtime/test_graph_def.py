"""graph.as_graph_def() (runtime/graph_def.py): nodes with TensorFlow's field and attribute names, Cond/While
graphs as library functions, and protobuf text format."""
import runtime as tf


def _relu(x):
    if tf.greater(x, 0):
        return x
    return 0


def test_nodes_list_names_ops_and_inputs_in_program_order():
    @tf.function
    def f(x, y):
        return tf.add(x * y, x, name="total")

    graph_def = f.get_concrete_function(tf.constant(1.0), tf.constant(2.0)).graph.as_graph_def()
    assert [(n.name, n.op, n.input) for n in graph_def.node] == [
        ("x", "Placeholder", []), ("y", "Placeholder", []), ("Mul", "Mul", ["x", "y"]),
        ("total", "AddV2", ["Mul", "x"])]
    placeholder, mul = graph_def.node[0], graph_def.node[2]
    assert placeholder.attr["dtype"] is tf.float32 and placeholder.attr["shape"] == tf.TensorShape([])
    assert mul.attr["T"] is tf.float32


def test_cond_branches_are_library_functions_and_text_format_prints():
    graph_def = tf.function(_relu).get_concrete_function(tf.constant(1)).graph.as_graph_def()
    cond = [n for n in graph_def.node if n.op == "Cond"][0]
    branches = {f.signature.name for f in graph_def.library.function}
    assert {cond.attr["then_branch"].name, cond.attr["else_branch"].name} == branches
    text = str(graph_def)
    assert 'node {\n  name: "x"\n  op: "Placeholder"\n' in text and "type: DT_INT32" in text
    assert "library {" in text and text.endswith("versions {\n  producer: 0\n}\n")


def test_constants_stateful_order_and_multi_output_inputs():
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        a, b = tf.split(tf.constant([1.0, 2.0, 3.0, 4.0]), 2)
        v.assign_add(1.0)
        v.assign_add(2.0)
        return a + b[0] + x

    graph_def = f.get_concrete_function(tf.constant(1.0)).graph.as_graph_def()
    by_name = {n.name: n for n in graph_def.node}
    assert any(i.endswith(":1") for n in graph_def.node for i in n.input)
    assigns = [n for n in graph_def.node if n.op == "AssignAddVariableOp"]
    assert f"^{assigns[0].name}" in assigns[1].input
    const = [n for n in by_name.values() if n.op == "Const"][0]
    assert "tensor {" in str(const) and "float_val: 1.0" in str(const)

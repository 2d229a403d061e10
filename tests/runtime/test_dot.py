"""`Graph.to_dot()` and `python -m runtime.dot`: golden pieces of the DOT text of real graphs."""
import re
import subprocess
import sys

import runtime as tf


@tf.function
def count(n):
    i = tf.constant(0)
    total = tf.constant(0)
    while i < n:
        if i % 2 == 0:
            total += i * i
        i += 1
    return total


def _dot():
    return count.get_concrete_function(tf.TensorSpec([], tf.int32)).graph.to_dot()


def test_ops_are_nodes_with_names_and_types_and_edges_carry_dtype_and_shape():
    text = _dot()
    assert text.startswith('digraph "count" {\n  compound=true;')
    assert '  "n" [label="n", shape=ellipse];' in text
    assert '  "Const" [label="Const = 0"];' in text
    assert '  "while" [label="while\\nWhile", style=filled, fillcolor=lightyellow];' in text
    assert '  "n" -> "while" [label="int32()"];' in text
    assert '  "while" -> "return" [label="int32()"];' in text


def test_cond_and_while_graphs_are_nested_clusters_joined_to_their_op():
    text = _dot()
    assert '  subgraph "cluster_while/cond_graph/" {' in text
    assert '  subgraph "cluster_while/body_graph/" {' in text
    assert '    subgraph "cluster_while/body_graph/cond/then_graph/" {' in text   # the if, inside the loop body
    assert '      label="cond: then_graph (count/while_body/true_fn)";' in text
    assert re.search(r'  "while" -> "while/body_graph/\w+" \[lhead="cluster_while/body_graph/", style=dashed', text)
    assert re.search(r'"while/body_graph/\w+" -> "while/body_graph/return" \[label="int32\(\)"\];', text)
    assert text.count("{") == text.count("}")


def test_control_dependencies_are_dotted():
    v = tf.Variable(0)

    @tf.function
    def bump(x):
        v.assign_add(x)
        v.assign_add(x)
        return v.read_value()

    text = bump.get_concrete_function(tf.constant(1)).graph.to_dot()
    assert '"AssignAddVariableOp" -> "AssignAddVariableOp_1" [style=dotted];' in text


def test_the_command_writes_the_dot_file_of_a_function_in_a_file(tmp_path):
    source = tmp_path / "prog.py"
    source.write_text("import runtime as tf\n\n@tf.function\ndef f(x):\n    return tf.tanh(x) * 2.0\n")
    out = tmp_path / "f.dot"
    done = subprocess.run([sys.executable, "-m", "runtime.dot", str(source), "f", "float32[3]",
                           "-o", str(out)], capture_output=True, text=True, check=True)
    assert str(out) in done.stdout and "RuntimeWarning" not in done.stderr
    text = out.read_text()
    assert '"x" -> "Tanh" [label="float32(3,)"];' in text and '"Mul" -> "return" [label="float32(3,)"];' in text

"""`Graph.to_dot()` and `python -m runtime.dot`: golden pieces of the DOT text of real graphs."""
import os
import re
import shutil
import subprocess
import sys

import pytest

import runtime as tf
from runtime.errors import GraphvizNotFoundError


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
    assert '  "n" -> "while" [label="int32[]"];' in text
    assert '  "while" -> "return" [label="int32[]"];' in text


def test_cond_and_while_graphs_are_nested_clusters_joined_to_their_op():
    text = _dot()
    assert '  subgraph "cluster_while/cond_graph/" {' in text
    assert '  subgraph "cluster_while/body_graph/" {' in text
    assert '    subgraph "cluster_while/body_graph/cond/then_graph/" {' in text   # the if, inside the loop body
    assert '      label="cond: then_graph (count/while_body/true_fn)";' in text
    assert re.search(r'  "while" -> "while/body_graph/\w+" \[lhead="cluster_while/body_graph/", style=dashed', text)
    assert re.search(r'"while/body_graph/\w+" -> "while/body_graph/return" \[label="int32\[\]"\];', text)
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
    assert '"x" -> "Tanh" [label="float32[3]"];' in text and '"Mul" -> "return" [label="float32[3]"];' in text


def test_edges_show_unknown_dimensions_and_ranks():
    f = tf.function(lambda x, y: (tf.reshape(x, [-1]), y + 1.0))
    text = f.get_concrete_function(tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec(None, tf.float32)).graph.to_dot()
    assert '"x" -> "Reshape" [label="float32[None,2]"];' in text
    assert '"AddV2" -> "return" [label="float32[...]"];' in text


def test_rendering_without_graphviz_is_a_clear_error(tmp_path, monkeypatch):
    graph = count.get_concrete_function(tf.TensorSpec([], tf.int32)).graph
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(GraphvizNotFoundError, match=r"needs Graphviz's `dot` program.*Install Graphviz") as info:
        graph.render(str(tmp_path / "count.svg"))
    assert isinstance(info.value, FileNotFoundError) and not (tmp_path / "count.svg").exists()
    assert graph.render(str(tmp_path / "count.dot")) == str(tmp_path / "count.dot")   # DOT text needs no Graphviz


def test_the_command_without_graphviz_says_what_to_install(tmp_path):
    source = tmp_path / "prog.py"
    source.write_text("import runtime as tf\n\ndef f(x):\n    return x + 1\n")
    env = {**os.environ, "PATH": str(tmp_path)}   # no `dot` there
    done = subprocess.run([sys.executable, "-m", "runtime.dot", str(source), "f", "int32[]", "-o",
                           str(tmp_path / "f.svg")], capture_output=True, text=True, env=env)
    assert done.returncode == 1 and "Install Graphviz" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed (apt-get install graphviz)")
def test_rendering_an_svg_with_graphviz(tmp_path):
    path = count.get_concrete_function(tf.TensorSpec([], tf.int32)).graph.render(str(tmp_path / "count.svg"))
    svg = open(path).read()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg and "cluster_while/body_graph/" in svg

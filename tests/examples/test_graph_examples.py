"""Graph-mode examples of issue 3 that test_examples.py does not cover: seed 000's export."""
import pathlib
import subprocess
import sys

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


def run(name: str) -> str:
    result = subprocess.run([sys.executable, str(EXAMPLES / name)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_graph_export_seed000_computes_a_times_b_once_and_runs_the_saved_graph_elsewhere():
    out = run("graph_export.py")
    assert out == (
        "graph calc(a:0, b:0, c:0) -> (AddV2:0, Mul_2:0):\n"
        "  a:0 = Placeholder()  # float32()\n"
        "  b:0 = Placeholder()  # float32()\n"
        "  c:0 = Placeholder()  # float32()\n"
        "  Mul:0 = Mul(a:0, b:0)  # float32()\n"
        "  AddV2:0 = AddV2(Mul:0, c:0)  # float32()\n"
        "  Mul_1:0 = Mul(a:0, b:0)  # float32()\n"
        "  Mul_2:0 = Mul(Mul_1:0, c:0)  # float32()\n"
        "def calc(a, b, c):\n"
        "    mul = a * b\n"
        "    addv2 = mul + c\n"
        "    mul_2 = mul * c\n"
        "    return (addv2, mul_2, )\n"
        "\n"
        "d: tf.Tensor(10.0, shape=(), dtype=float32)\n"
        "e: tf.Tensor(24.0, shape=(), dtype=float32)\n"
        "loaded in a fresh process: 10.0 24.0\n")

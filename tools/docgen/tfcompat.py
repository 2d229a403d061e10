"""Write docs/tf-compat.md: TensorFlow code run with `import runtime as tf`, and what it printed.

Each entry is a few lines of TensorFlow code, run here in a fresh namespace;
the page shows the code and its real output (or the error's type and first
line), grouped by what exists, what differs (and why), and what is out of
scope. `python -m tools.docgen.tfcompat` rewrites the page; `--check` (and
tests/tools/test_tfcompat.py) fails when the page is stale.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import runpy
import subprocess
import sys
import tempfile
import textwrap
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "tf-compat.md"
COMMAND = "python -m tools.docgen.tfcompat"


@dataclass(frozen=True)
class Entry:
    title: str
    code: str
    note: str = ""


EXISTS = [
    Entry("Tensors, dtypes and ops", """
        a = tf.constant([[1, 2], [3, 4]])
        print(tf.add(a, 1) * a, tf.float32)
        print(tf.nn.softmax(tf.constant([1.0, 2.0])).numpy())
        """),
    Entry("`tf.function`: a Python `print` runs once per trace, `tf.print` on every call", """
        @tf.function
        def double(a):
            print("Tracing with", a)
            tf.print("Executing with", a, output_stream=sys.stdout)
            return a + a

        double(tf.constant(1))
        double(tf.constant(2))
        """),
    Entry("`tf.print` of structures and long tensors (summarize=3)", """
        x = tf.range(10)
        tf.print([x[:2], {"n": x[9]}], x, output_stream=sys.stdout)
        """),
    Entry("`tf.print` and `tf.strings.format` write numbers as TensorFlow's C++ does", """
        tf.print(tf.constant([1.5, 2.0]), tf.constant(1 / 3), tf.constant([True, False]), output_stream=sys.stdout)
        print(tf.strings.format("{} {}", (tf.constant([[1, 2], [3, 4]]), tf.constant("hi"))).numpy())
        """, "floats in the fewest of 6 or 9 significant digits that read back as the same float32 (15 or 17 "
        "for float64), bools as 1 and 0, strings quoted in a tensor of them, by `format` and beside other "
        "inputs (a string scalar printed alone is not); NumPy's "
        "layout, such as `[1.5 2. ]`, is not used."),
    Entry("A Variable created on a function's first call (seed 001)", """
        class MyModule(tf.Module):
            def __init__(self):
                self.v = None

            @tf.function
            def call(self, x):
                if self.v is None:
                    self.v = tf.Variable(tf.ones_like(x))
                return self.v * x

        print(MyModule().call(tf.constant([1.0, 2.0])))
        """),
    Entry("Training: `keras.Model`, optimizers, `GradientTape` (seed 002)", """
        class Model(tf.keras.Model):
            def __init__(self):
                super(Model, self).__init__()
                self.W = tf.Variable(5.0)
                self.B = tf.Variable(10.0)

            def call(self, inputs):
                return inputs * self.W + self.B

        model, optimizer = Model(), tf.keras.optimizers.Adam(learning_rate=0.5)
        x = tf.constant([0.0, 1.0, 2.0])
        for _ in range(200):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(x) - (3 * x + 2)))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
        print(round(float(model.W), 2), round(float(model.B), 2), int(optimizer.iterations))
        """),
    Entry("`GradientTape.jacobian` and `batch_jacobian` (TensorFlow's examples)", """
        with tf.GradientTape() as g:
            x = tf.constant([1.0, 2.0])
            g.watch(x)
            y = x * x
        print(g.jacobian(y, x))
        with tf.GradientTape(persistent=True) as g:
            x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
            g.watch(x)
            y = x * x
        print(g.batch_jacobian(y, x).numpy().tolist(), g.jacobian(y, x).shape)
        """),
    Entry("`tf.train.Checkpoint` and `tf.keras.metrics.Mean` (seed 002)", """
        x = tf.Variable(10.)
        checkpoint = tf.train.Checkpoint(x=x)
        x.assign(2.)
        print(checkpoint.save('./ckpt/'))
        x.assign(11.)
        checkpoint.restore(tf.train.latest_checkpoint('./ckpt/'))
        print(x.numpy())
        m = tf.keras.metrics.Mean("loss")
        m(0); m(5); m([8, 9])
        print(m.result())
        """),
    Entry("String tensors and `tf.strings`", """
        s = tf.constant("Hello")
        print(s, tf.string)
        words = tf.constant(["Tensor", "Flow"])
        print(repr(words))
        print(tf.strings.length(words), tf.strings.join([words, "!"]), tf.strings.reduce_join(words, separator=" "))
        print(tf.strings.format("x = {}", tf.range(3)), tf.strings.as_string(3.5), tf.strings.to_number("2.5"))
        tf.print(words, output_stream=sys.stdout)
        print(tf.strings.to_number(tf.strings.split("1 10 100", " ")), tf.strings.unicode_decode("アヒル", "UTF-8"))
        """),
    Entry("Complex numbers", """
        z = tf.constant([1 + 2j, 3 - 1j])
        print(repr(z))
        print(z * tf.math.conj(z), tf.abs(z), tf.math.real(z), tf.complex(1.0, -1.0))
        """),
    Entry("Boolean masks", """
        x = tf.constant([[1, 2], [3, 4], [5, 6]])
        print(x[x[:, 0] > 2], tf.boolean_mask(x, [True, False, True]).shape)
        """),
    Entry("`tf.py_function`: Python called when the graph runs", """
        def np_cumprod(x):
            return x.numpy().cumprod()

        @tf.function
        def f(x):
            y = tf.py_function(np_cumprod, [x], Tout=tf.float32)
            print("traced:", y)
            return y * 2

        print(f(tf.constant([1.0, 2.0, 3.0])))
        """),
    Entry("`tf.numpy_function`: Python on NumPy arrays when the graph runs", """
        @tf.function
        def f(x):
            return tf.numpy_function(lambda a: a.cumsum(), [x], tf.float32) * 2

        print(f(tf.constant([1.0, 2.0, 3.0])))
        """),
    Entry("The functions given to `tf.map_fn`, `tf.scan`, `tf.while_loop`, `tf.cond`... are converted by autograph", """
        def relu_or_double(e):
            if e > 0:
                return e * 2
            return tf.zeros_like(e)

        print(tf.function(lambda x: tf.map_fn(relu_or_double, x))(tf.constant([1.0, -2.0, 3.0])))
        """),
    Entry("Variables passed as arguments: one trace per dtype and shape", """
        @tf.function
        def bump(v):
            print("Tracing")
            return v.assign_add(1.0) * 1

        a, b = tf.Variable(1.0), tf.Variable(10.0)
        print(bump(a), bump(b), bump.experimental_get_tracing_count())
        """),
    Entry("`tf.Variable(shape=...)` and `TensorArray.scatter`/`split`/`concat`", """
        v = tf.Variable(tf.zeros([0, 2]), shape=[None, 2])
        v.assign(tf.ones([3, 2]))
        ta = tf.TensorArray(tf.float32, size=2, infer_shape=False).split(tf.range(3.0), [1, 2])
        print(v.shape, ta.read(1), ta.concat())
        """),
    Entry("Tensors and Variables are unhashable: key sets and dicts by `.ref()`", """
        x, v = tf.constant([1, 2]), tf.Variable(1.0)
        seen = {x.ref(): "x", v.ref(): "v"}
        print(seen[x.ref()], seen[v.ref()], x.ref().deref() is x, x.ref() == tf.constant([1, 2]).ref())
        """, "`==` on tensors is elementwise, so a set or dict holding them would find them by identity; "
        "TensorFlow refuses to hash them (`{x}` says \"Tensor is unhashable. Instead, use tensor.ref() as "
        "the key.\"), and so does the runtime"),
    Entry("`graph.as_graph_def()`", """
        @tf.function
        def simple_relu(x):
            if tf.greater(x, 0):
                return x
            else:
                return 0

        graph_def = simple_relu.get_concrete_function(tf.constant(1)).graph.as_graph_def()
        print([(node.name, node.op, list(node.input)) for node in graph_def.node])
        print(graph_def.node[2])
        """),
    Entry("A traced tensor has no `numpy`: `hasattr(x, \"numpy\")` tells a trace from eager code", """
        @tf.function
        def where_am_i(x):
            print("eager" if hasattr(x, "numpy") else "traced")
            return x

        where_am_i(tf.constant(1))
        tf.config.run_functions_eagerly(True)
        where_am_i(tf.constant(1))
        tf.config.run_functions_eagerly(False)
        """, "As in TensorFlow, whose graph tensors lack the attribute: asking for it there says why"),
    Entry("An `input_signature` converts NumPy arrays and Python lists to its dtype", """
        import numpy as np

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def twice(x):
            return x * 2

        print(twice(np.array([1, 2])), twice([0.5]))
        """, "A tensor argument must already have the spec's dtype, as in TensorFlow"),
]

DIFFERS = [
    Entry("f-strings of traced tensors show their values", """
        @tf.function
        def report(step, loss):
            tf.print(f"step {step}: loss {loss:.3f}", output_stream=sys.stdout)
            return "%d/%s" % (step, [loss])

        print(report(tf.constant(3), tf.constant(0.25)).numpy())
        """, "TensorFlow formats the symbolic tensor while tracing, so every call prints "
        "`step Tensor(\"step:0\", shape=(), dtype=int32): ...`, and `{loss:.3f}` and `%d` raise; here an f-string, "
        "`str.format` or `%` on a string literal that formats a traced tensor is formatted when the graph runs, as "
        "the eager tensor would be ([limitations.md](limitations.md))"),
    Entry("`numpy()` of a 0-d tensor is a NumPy scalar", """
        print(repr(tf.constant(2.5).numpy()))
        """, "As in TensorFlow; under NumPy 2 its repr shows the type."),
    Entry("Checkpoints are NumPy `.npz` files", """
        print(sorted(os.listdir(os.path.dirname(tf.train.Checkpoint(v=tf.Variable(1)).save("ck/run")))))
        """, "One `.npz` per save plus TensorFlow's `checkpoint` state file; TensorFlow's own checkpoint "
             "files can't be read (there is no TensorFlow to read them with)."),
    Entry("Only the CPU", """
        print(tf.config.list_physical_devices())
        with tf.device("/GPU:0"):
            pass
        """, "Ops run on NumPy; a device other than the CPU is an error rather than a silent fallback."),
    Entry("`experimental_autograph_options` changes nothing", """
        f = tf.function(lambda x: x * 2, autograph=False,
                        experimental_autograph_options=tf.autograph.experimental.Feature.EQUALITY_OPERATORS)
        print(f(tf.constant(2)))
        """, "Accepted for compatibility: autograph always applies every conversion it has."),
    Entry("String tensors are NumPy bytes", """
        print(tf.constant(b"a\\x00").numpy(), tf.strings.length(tf.constant("é")))
        """, "Values are NumPy bytes arrays, which drop trailing NUL bytes; lengths are in bytes unless "
             "`unit='UTF8_CHAR'`, as in TensorFlow."),
    Entry("An object argument whose attributes change between calls traces again", """
        class Config:
            def __init__(self):
                self.scale = 2

        @tf.function
        def scaled(x, config):
            return x * config.scale

        config = Config()
        print(scaled(tf.constant(1), config))
        config.scale = 10
        print(scaled(tf.constant(1), config), scaled.experimental_get_tracing_count())
        """, "An instance of your class (a dataclass, a set, a bytearray too) is keyed by identity and by what "
             "its attributes hold, to three levels (a list or dict of more than 1000 items by its length): a call "
             "after a change traces again, so the function computes "
             "what Python computes. TensorFlow keys it by identity only and runs the old graph (2 again), or "
             "refuses an unhashable one (a set, a dataclass that is not frozen)."),
    Entry("A global or closure variable rebound between calls traces again", """
        SCALE = 2

        @tf.function
        def scaled(x):
            return x * SCALE

        print(scaled(tf.constant(1)))
        SCALE = 10
        print(scaled(tf.constant(1)), scaled.experimental_get_tracing_count())
        """, "The globals and closure variables a function reads (and those of the functions of yours it "
             "calls), and the attributes of a method's `self` its code names (`self.scale`, `self.training`), "
             "are compared with what the trace read: once the program rebinds one, the next call traces "
             "again and computes what Python computes. TensorFlow runs the old graph (2 again). Names the "
             "function assigns itself are not compared, and a change inside an object (`CONFIG['k'] = 3`) is "
             "not seen, as in TensorFlow (docs/graph.md)."),
    Entry("A failed assert stops the effects after it", """
        v = tf.Variable(0)

        @tf.function
        def update(x):
            v.assign(5)
            tf.debugging.assert_equal(x, 1)
            v.assign(7)
            return v.read_value()

        try:
            update(tf.constant(2))
        except tf.errors.InvalidArgumentError:
            print("assert failed; v =", v.numpy())
        """, "Stateful ops (Variable updates, prints, asserts) run in program order, as Python runs them, so "
             "nothing after a failed assert runs. TensorFlow orders an assert only with what it depends on and "
             "may run the later update anyway (it gives v = 7, and in a loop one iteration's update more)."),
    Entry("Signatures print in TensorFlow 2's first layout", """
        @tf.function
        def double(a):
            return a + a

        print(double.get_concrete_function(tf.constant(1)).pretty_printed_signature())
        """, "TensorFlow 2.21 prints `Input Parameters:` / `Output Type:` / `Captures:` blocks with TensorSpecs; "
             "this runtime keeps the `Args:` / `Returns:` layout of the TensorFlow 2 guides its examples come from. "
             "Graph nodes are named by their op type (`AddV2`), where TensorFlow names them by the Python function "
             "that made them (`add`) and adds an `Identity` per output."),
    Entry("Python `1`, `1.0` and `True` are different arguments", """
        double = tf.function(lambda x: x * 2)
        print(double(1), double(1.0), double(True))
        """, "Python values are keyed by type and value, so each traces its own graph and computes what Python "
             "computes. TensorFlow's key takes equal values as one (`1.0 == 1`) and returns the int32 graph's "
             "2 for all three."),
]

OUT_OF_SCOPE = [
    Entry("Keras layers, `Sequential`, datasets, `fit`", """
        tf.keras.layers.Dense(10)
        """, "Write the model as a `tf.keras.Model` holding Variables and train it with a GradientTape."),
    Entry("`tf.keras.Sequential`", """
        tf.keras.Sequential([])
        """),
    Entry("`tf.data`", """
        tf.data.Dataset.from_tensor_slices([1, 2])
        """, "Iterate over tensors or Python lists instead (a `for` over a tensor is a staged loop)."),
    Entry("Ragged tensors: splitting a vector of strings", """
        tf.strings.split(tf.constant(["Gray wolf", "Quick brown fox"]))
        """, "A scalar string splits into a 1-D tensor; pieces of several strings would be a RaggedTensor."),
    Entry("`tf.saved_model`, `tf.distribute`, `tf.compat.v1`, ...", """
        tf.saved_model.save(tf.Module(), "model")
        """, "`runtime.save_function`/`load_function` save traced functions; `tf.train.Checkpoint` saves "
             "Variables."),
]


def run(code: str, number: int) -> str:
    """What `code` prints (stdout and stderr), or its error's type and first line. The code is a real file
    (`example_<number>.py` in the current directory), so that autograph can read its source."""
    path = Path(f"example_{number}.py")
    path.write_text("import os\nimport sys\n\nimport runtime as tf\n\n" + textwrap.dedent(code))
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            runpy.run_path(str(path), run_name="__main__")
        except Exception as e:  # noqa: BLE001 - the page shows the error
            first = str(e).splitlines()[0] if str(e) else ""
            print(f"{type(e).__name__}: {first}")
    return out.getvalue()


def _section(title: str, intro: str, entries: list) -> str:
    parts = [f"## {title}\n\n{intro}\n"]
    for entry in entries:
        number = len(list(Path().glob("example_*.py")))
        # `py`, not `python`, and no output marker: tests/test_docs.py would run the blocks as one program,
        # but each runs alone here (tests/tools/test_tfcompat.py checks the page instead).
        parts.append(f"### {entry.title}\n\n```py\n{textwrap.dedent(entry.code).strip()}\n```\n\n"
                     f"prints:\n\n```text\n{run(entry.code, number).rstrip()}\n```\n")
        if entry.note:
            parts.append(f"{entry.note}\n")
    return "\n".join(parts)


def page() -> str:
    """The page, generated in a fresh interpreter (Variable numbers and traces start from nothing)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run([sys.executable, "-m", "tools.docgen.tfcompat", "--print"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=300, check=True)
    return result.stdout


def _generate() -> str:
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)
        try:
            import runtime
            runtime.random.set_seed(0)
            sys.path.insert(0, scratch)
            body = "\n".join([
                _section("What exists", "TensorFlow code that runs unchanged with `import runtime as tf`.", EXISTS),
                _section("What differs, and why", "Deliberate differences from TensorFlow.", DIFFERS),
                _section("Out of scope", "Names runtime does not provide; the error says so.", OUT_OF_SCOPE)])
        finally:
            os.chdir(cwd)
    return (f"<!-- generated by `{COMMAND}` from tools/docgen/tfcompat.py; do not edit -->\n\n"
            "# TensorFlow compatibility\n\n"
            "Each example below is TensorFlow code run, alone, after `import runtime as tf` (and `os`, `sys`) "
            "when this page was generated; the output shown is what it printed. The API contract lists every name; "
            "[runtime.md](runtime.md) and [limitations.md](limitations.md) explain the details.\n\n" + body)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Write docs/tf-compat.md from real runs.")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if the page is stale")
    parser.add_argument("--print", action="store_true", help="print the page (generated in this process)")
    args = parser.parse_args(argv)
    if args.print:
        sys.stdout.write(_generate())
        return 0
    text = page()
    current = OUT.read_text() if OUT.exists() else None
    if args.check:
        return 0 if current == text else 1
    OUT.write_text(text)
    print(f"docs/tf-compat.md {'unchanged' if current == text else 'written'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

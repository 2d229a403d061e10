"""Seed 000: one graph for `calc`, optimised (a * b computed once) and exported
to a file that another Python process runs without the source of `calc`."""
import os
import subprocess
import sys
import tempfile

import runtime as tf


@tf.function
def calc(a, b, c):
    d = a * b + c
    e = a * b * c
    return d, e


scalar = tf.TensorSpec([], tf.float32)
concrete = calc.get_concrete_function(scalar, scalar, scalar)
print(concrete.graph)
print(concrete.executor_source())

a = tf.constant(2.0, name="a")
b = tf.constant(3.0, name="b")
c = tf.constant(4.0, name="c")
d, e = calc(a, b, c)
print("d:", d)
print("e:", e)

path = os.path.join(tempfile.mkdtemp(), "calc.json")
tf.save_function(concrete, path)
elsewhere = ("import runtime as tf\n"
             f"calc = tf.load_function({path!r})\n"
             "d, e = calc(tf.constant(2.0), tf.constant(3.0), tf.constant(4.0))\n"
             "print('loaded in a fresh process:', d.numpy(), e.numpy())\n")
package_root = os.path.dirname(os.path.dirname(os.path.abspath(tf.__file__)))  # so the child finds runtime
env = {**os.environ, "PYTHONPATH": package_root}
print(subprocess.run([sys.executable, "-c", elsewhere], capture_output=True, text=True, check=True, env=env).stdout,
      end="")

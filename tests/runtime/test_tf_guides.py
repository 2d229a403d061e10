"""TensorFlow's guides, run as their users write them: each program of tests/runtime/tf_guide_programs.py
prints, with `import runtime as tf`, what it printed with TensorFlow 2.21 (recorded below); where TensorFlow is
installed (CI installs it), it still prints that with TensorFlow."""
import contextlib
import io
import os
import warnings

import pytest

import runtime
from tf_guide_programs import PROGRAMS

# What each program printed with TensorFlow 2.21 (tensorflow-cpu, recorded 2026-11-25).
PRINTED = {
    "custom_gradient_that_clips": """\
tf.Tensor(2.0, shape=(), dtype=float32)
""",
    "custom_gradient_whose_output_is_a_tensor_made_before": """\
tf.Tensor(14.0, shape=(), dtype=float32)
""",
    "stop_recording_reset_and_stop_gradient": """\
{'x': <tf.Tensor: shape=(), dtype=float32, numpy=4.0>, 'y': None}
{'x': <tf.Tensor: shape=(), dtype=float32, numpy=4.0>, 'y': None}
[<tf.Tensor: shape=(), dtype=float32, numpy=4.0>, None]
""",
    "gradients_that_are_none_or_zero": """\
None
Variable tf.Tensor(1.0, shape=(), dtype=float32)
EagerTensor None
tf.Tensor([0. 0.], shape=(2,), dtype=float32)
None
""",
    "a_persistent_tape_and_a_used_one": """\
tf.Tensor([  4. 108.], shape=(2,), dtype=float32) tf.Tensor([2. 6.], shape=(2,), dtype=float32)
RuntimeError
""",
    "second_derivatives_and_jacobians": """\
tf.Tensor(3.0, shape=(), dtype=float32) tf.Tensor(6.0, shape=(), dtype=float32)
(2, 3, 2) (2, 3, 2, 2)
[[ 0.0197  0.    ]
 [-0.0004  0.0007]
 [ 0.0001  0.0001]]
[0.19661 0.25    0.19661]
""",
    "retracing_on_python_values_and_tensors": """\
Tracing with Tensor("a:0", shape=(), dtype=int32)
tf.Tensor(2, shape=(), dtype=int32)
Tracing with Tensor("a:0", shape=(), dtype=float32)
tf.Tensor(2.2, shape=(), dtype=float32)
Tracing with Tensor("a:0", shape=(), dtype=string)
tf.Tensor(b'aa', shape=(), dtype=string)
tf.Tensor(b'bb', shape=(), dtype=string)
Tracing with 2
Tracing with 3
tf.Tensor(4, shape=(), dtype=int32) tf.Tensor(4, shape=(), dtype=int32) tf.Tensor(6, shape=(), dtype=int32)
5
True
tf.Tensor(b'cc', shape=(), dtype=string) tf.Tensor(b'dd', shape=(), dtype=string)
((TensorSpec(shape=(), dtype=tf.string, name='a'),), {})
InvalidArgumentError
5
""",
    "an_input_signature_converts_python_and_numpy_values": """\
Tracing with Tensor("x:0", shape=(None,), dtype=int32)
tf.Tensor([4 1], shape=(2,), dtype=int32)
tf.Tensor([16  3], shape=(2,), dtype=int32) tf.Tensor([22  4], shape=(2,), dtype=int32)
TypeError
TypeError
TypeError
1
tf.Tensor([2. 4.], shape=(2,), dtype=float32) tf.Tensor([2. 4.], shape=(2,), dtype=float32)
""",
    "reduce_retracing_relaxes_shapes": """\
Tracing with Tensor("x:0", shape=(3,), dtype=int32)
Tracing with Tensor("x:0", shape=(None,), dtype=int32)
Tracing with Tensor("x:0", dtype=int32)
3
""",
    "side_effects_happen_when_tracing": """\
Traced with 1
Traced with 2
runs 3
Python side effect
1
Value of external_var: 0
Value of external_var: 0
Value of external_var: 0
""",
    "a_function_keeps_the_python_values_it_was_traced_with": """\
Buggy: tf.Tensor(2, shape=(), dtype=int32) Correct: tf.Tensor(2, shape=(), dtype=int32)
Buggy: tf.Tensor(2, shape=(), dtype=int32) Correct: tf.Tensor(101, shape=(), dtype=int32)
tf.Tensor(6.0, shape=(), dtype=float32)
tf.Tensor(15.0, shape=(), dtype=float32)
""",
    "variables_made_in_a_function": """\
ValueError
tf.Tensor(1, shape=(), dtype=int32) tf.Tensor(2, shape=(), dtype=int32)
[1, 2, 3]
""",
    "what_a_traced_tensor_is_not": """\
has numpy: False
AttributeError
eager has numpy: True
""",
    "a_tensor_leaked_from_a_function": """\
3
AttributeError
TypeError
TypeError
""",
    "autograph_in_the_guides": """\
tf.Tensor(4, shape=(), dtype=int32) tf.Tensor(0, shape=(), dtype=int32)
tf.Tensor(42, shape=(), dtype=int32)
tf.Tensor(
[[[ 0.  1.]
  [ 2.  4.]
  [ 6.  9.]]

 [[ 6.  7.]
  [14. 16.]
  [24. 27.]]], shape=(2, 3, 2), dtype=float32)
tf.Tensor([0.], shape=(1,), dtype=float32)
""",
    "modules_and_their_variables": """\
tracing (1, 3)
the_model tf.Tensor([[1.6800001 2.4      ]], shape=(1, 2), dtype=float32)
2 6 4
['b:0', 'b:0', 'w:0', 'w:0']
[[0.10000000149011612, 0.5, 0.8999999761581421], [[0.20000000298023224, 1.0, 1.7999999523162842], [0.20000000298023224, 1.0, 1.7999999523162842], [0.20000000298023224, 1.0, 1.7999999523162842]], [1.0, 1.0], [[1.7999999523162842, 1.7999999523162842], [2.4000000953674316, 2.4000000953674316], [3.0, 3.0]]]
""",
    "a_basic_training_loop": """\
Epoch  0: W = 4.460, b = 0.400, loss=5.949
Epoch  1: W = 4.066, b = 0.721, loss=3.681
Epoch  2: W = 3.778, b = 0.977, loss=2.372
Epoch  3: W = 3.568, b = 1.182, loss=1.610
Epoch  4: W = 3.414, b = 1.346, loss=1.164
""",
}


def _printed(tf, program) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")   # the retracing warnings: the runtime's and TensorFlow's differ
        program(tf)
    return out.getvalue()


def test_every_program_has_tensorflows_output_recorded():
    assert sorted(PRINTED) == sorted(p.__name__ for p in PROGRAMS)


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.__name__ for p in PROGRAMS])
def test_a_guide_program_prints_what_it_prints_with_tensorflow(program):
    assert _printed(runtime, program) == PRINTED[program.__name__]


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.__name__ for p in PROGRAMS])
def test_tensorflow_still_prints_the_recorded_output(program):
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    tf = pytest.importorskip("tensorflow", reason="TensorFlow is not installed (pip install -e '.[tensorflow]')")
    assert _printed(tf, program) == PRINTED[program.__name__]

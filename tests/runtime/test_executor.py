"""The executor: generated code, pruning (non-strict), CSE, constant folding."""
import numpy as np

import runtime as tf


def concrete(fn, *args):
    return tf.function(fn, autograph=False).get_concrete_function(*args)


def test_generated_source_is_straight_line_python():
    def a_regular_function(x, y, b):
        x = tf.matmul(x, y)
        x = x + b
        return x

    cf = concrete(a_regular_function, tf.constant([[1.0, 2.0]]), tf.constant([[2.0], [3.0]]), tf.constant(4.0))
    assert cf.executor_source() == (
        "def a_regular_function(x, y, b):\n"
        "    matmul = MatMul(x, y)\n"
        "    addv2 = matmul + b\n"
        "    return (addv2, )\n")


def test_unused_pure_ops_are_not_run():
    def unused_return_graph(x):
        tf.gather(x, [1])
        return x

    assert tf.function(unused_return_graph)(tf.constant([0.0])).numpy().tolist() == [0.0]
    assert "GatherV2" not in concrete(unused_return_graph, tf.constant([0.0])).executor_source()


def test_repeated_operation_is_computed_once():
    def f(x, y):
        return tf.matmul(x, y) + tf.matmul(x, y)

    source = concrete(f, tf.constant([[1.0]]), tf.constant([[2.0]])).executor_source()
    assert source.count("MatMul(") == 1


def test_constant_subexpressions_are_folded():
    def f(x):
        return x * (tf.constant(2) + tf.constant(3))

    cf = concrete(f, tf.constant(1))
    assert "AddV2" not in cf.executor_source() and "+" not in cf.executor_source()
    assert cf(tf.constant(4)).numpy() == 20


def test_stateful_ops_are_kept_and_never_merged(capsys):
    def f(x):
        tf.print(x)
        tf.print(x)
        return x

    tf.function(f)(tf.constant(3))
    assert capsys.readouterr().err == "3\n3\n"


def test_cond_and_while_are_inlined_as_if_and_while():
    def f(n):
        return tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, tf.cond(i > 2, lambda: s + i, lambda: s)),
                             (tf.constant(0), tf.constant(0)))

    cf = concrete(f, tf.constant(5))
    source = cf.executor_source()
    assert "while True:" in source and "    if " in source
    assert [t.numpy() for t in cf(tf.constant(6))] == [6, 3 + 4 + 5]


def test_scalars_stay_numpy_scalars_inside_loops():
    def f(n):
        return tf.while_loop(lambda i: i < n, lambda i: i + 1, [tf.constant(0)])

    seen = []
    cf = concrete(f, tf.constant(3))
    run = cf._compiled().run
    result = run(np.int32(3))
    seen.append(type(result[0]))
    assert seen == [np.int32]


def test_maximum_iterations_bounds_a_while_loop():
    def f(n):
        return tf.while_loop(lambda i: i < n, lambda i: i + 1, [tf.constant(0)], maximum_iterations=4)

    assert tf.function(f)(tf.constant(100))[0].numpy() == 4


def test_golden_source_of_a_loop_with_a_variable_and_a_cond():
    v = tf.Variable(1, name="total")

    def f(x):
        def body(i):
            v.assign_add(i)
            return i + 1

        tf.while_loop(lambda i: i < x, body, [tf.constant(0)])
        return tf.cond(x > 2, lambda: v.read_value() * 2, lambda: tf.constant(0))

    cf = concrete(f, tf.constant(3))
    assert cf.executor_source() == (
        "def f(x):\n"
        "    i = int32_0\n"
        "    while True:\n"
        "        less = i < x\n"
        "        if not less:\n"
        "            break\n"
        "        assignaddvariableop = AssignAddVariableOp(i, handle=var_total)\n"
        "        addv2 = i + int32_1\n"
        "        i = addv2\n"
        "    greater = x > int32_2\n"
        "    if greater:\n"
        "        readvariableop = ReadVariableOp(handle=var_total)\n"
        "        mul = readvariableop * int32_2\n"
        "        cond = mul\n"
        "    else:\n"
        "        cond = int32_0\n"
        "    return (cond, )\n")
    assert cf(tf.constant(3)).numpy() == 8 and v.numpy() == 4


def test_equal_scalar_constants_share_one_name_but_signed_zeros_do_not():
    cf = concrete(lambda x: (x + 0.0, x * -0.0, tf.cond(x > 0.0, lambda: x + 0.0, lambda: x)), tf.constant(1.0))
    source = cf.executor_source()
    assert "float32_0_0" in source and "float32_neg0_0" in source and "float32_0_0_1" not in source
    assert [t.numpy() for t in cf(tf.constant(-2.0))] == [-2.0, 0.0, -2.0]


def test_generated_code_is_in_linecache_for_tracebacks():
    import linecache

    cf = concrete(lambda x: x * 2, tf.constant(1))
    executable = cf._compiled()
    assert "".join(linecache.getlines(executable.filename)) == cf.executor_source()


def test_the_listings_in_docs_graph_md_are_current():
    import pathlib

    @tf.function
    def count(n):
        i = tf.constant(0)
        total = tf.constant(0)
        while i < n:
            total += i * i
            i += 1
        return total

    page = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "graph.md").read_text()
    concrete = count.get_concrete_function(tf.TensorSpec([], tf.int32))
    assert f"```text\n{concrete.graph}\n```" in page
    assert f"```text\n{concrete.executor_source()}```" in page
    assert concrete(tf.constant(4)).numpy() == 14


def test_a_kernel_failing_at_run_time_names_the_op_and_its_traced_inputs():
    import pytest

    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def f(x):
        return tf.reshape(x, [2, 2])

    assert f(tf.constant([1.0, 2.0, 3.0, 4.0])).shape == (2, 2)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        f(tf.constant([1.0, 2.0, 3.0]))
    lines = str(info.value).splitlines()
    assert lines[0] == (
        "Reshape: cannot reshape array of size 3 into shape (2,2) (op 'Reshape' in graph 'f'; inputs when traced: "
        "float32<unknown>; generated line 2: reshape = Reshape(x, shape=(2, 2)))")
    # ... and the user's line that made the op
    assert lines[1].strip() == f"made at {__file__}:163: return tf.reshape(x, [2, 2])"


def test_a_cond_predicate_that_is_not_a_scalar_at_run_time_names_the_cond():
    import pytest

    @tf.function(input_signature=[tf.TensorSpec(None, tf.bool)])
    def f(p):
        return tf.cond(p, lambda: tf.constant(1), lambda: tf.constant(2))

    assert f(tf.constant(False)).numpy() == 2
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^Cond: The truth value of an array .*op 'cond'.*must be a scalar bool"):
        f(tf.constant([True, False]))


def test_large_constant_results_are_not_folded_but_small_ones_are():
    def f(x):
        big = tf.ones([100, 100]) * 2.0  # 10,000 elements: stays an op, computed on each call
        small = tf.ones([2]) * 3.0       # folded into one constant
        return x + tf.reduce_sum(big) + tf.reduce_sum(small)

    cf = concrete(f, tf.constant(0.0))
    source = cf.executor_source()
    assert "mul = fill * float32_2_0" in source  # the big product is computed when called
    assert "+ float32_6_0" in source and "float32_3_0" not in source  # the small sum was folded to 6
    assert cf(tf.constant(1.0)).numpy() == 1.0 + 20000.0 + 6.0


def test_golden_source_of_a_loop_on_python_ints_checks_each_op_inline():
    from runtime.executor import codegen

    @tf.function
    def count(n):
        i = 0
        total = 0
        while i < n:
            total += i * i
            i += 1
        return total

    concrete = count.get_concrete_function(tf.TensorSpec([], tf.int32))
    line = count.python_function.__code__.co_firstlineno   # the line of @tf.function
    as_int32 = "(int32_0 + total)" if codegen._ZERO_PLUS_IS_INT32 else "np_int32(total)"   # NumPy 2, NumPy 1
    assert concrete.executor_source().replace(__file__, "test_executor.py") == (
        "def count(n):\n"
        "    i = 0\n"
        "    total = 0\n"
        "    while True:\n"
        "        less = i < n\n"
        "        if not less:\n"
        "            break\n"
        "        i_1 = i * i\n"
        "        if not -2147483648 <= i_1 <= 2147483647:\n"
        f"            raise overflow(i_1, 'i', 'test_executor.py:{line + 5}')\n"
        "        total_1 = total + i_1\n"
        "        if not -2147483648 <= total_1 <= 2147483647:\n"
        f"            raise overflow(total_1, 'total', 'test_executor.py:{line + 5}')\n"
        "        i_2 = i + 1\n"
        "        if not -2147483648 <= i_2 <= 2147483647:\n"
        f"            raise overflow(i_2, 'i', 'test_executor.py:{line + 6}')\n"
        "        i, total = i_2, total_1\n"
        f"    return ({as_int32}, )\n")
    result = concrete(tf.constant(4))
    assert type(result.numpy()) is np.int32 and result.numpy() == 14


def test_a_python_int_held_in_the_generated_code_is_a_numpy_int32_wherever_a_kernel_reads_it():
    def f(n, x):
        s = 0
        for i in tf.range(n):
            s += 7
            n = n + s                    # an int32 tensor plus the Python int: plain AddV2, NumPy operands
            x = 2 * s * x                # Mul(Mul(2, s), x): the Python int's (checked), then plain int32
        return s, n, x, s > n, tf.fill([2], s)

    concrete = tf.function(f).get_concrete_function(tf.constant(3), tf.constant(1))
    s, n, x, greater, filled = concrete(tf.constant(3), tf.constant(1))
    assert (int(s), int(n), int(x), bool(greater)) == (21, 3 + 7 + 14 + 21, 14 * 28 * 42, False)
    assert filled.numpy().tolist() == [21, 21] and x.dtype == s.dtype == tf.int32

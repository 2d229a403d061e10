"""Programs from TensorFlow's guides ("Introduction to gradients and automatic differentiation", "Advanced
automatic differentiation", "Better performance with tf.function", "Introduction to graphs and tf.function",
"Introduction to modules, layers and models", "Introduction to variables", "Basic training loops"), as their
users write them: each takes the framework as `tf` and prints. tests/runtime/test_tf_guides.py runs them with
the runtime and with TensorFlow and compares what they print with what TensorFlow 2.21 printed.

Only Python's `print` is used: TensorFlow's `tf.print` writes from C++, out of reach of `redirect_stdout`; a
Variable counts the runs instead."""
import numpy as np


def custom_gradient_that_clips(tf):
    @tf.custom_gradient
    def clip_gradients(y):
        def backward(dy):
            return tf.clip_by_norm(dy, 0.5)
        return y, backward

    v = tf.Variable(2.0)
    with tf.GradientTape() as t:
        output = clip_gradients(v * v)
    print(t.gradient(output, v))


def custom_gradient_whose_output_is_a_tensor_made_before(tf):
    x = tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x

        @tf.custom_gradient
        def passes_y(z):
            return y, lambda dy: dy * 10.0
        out = passes_y(x) + y
    print(t.gradient(out, x))


def stop_recording_reset_and_stop_gradient(tf):
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape() as t:
        x_sq = x * x
        with t.stop_recording():
            y_sq = y * y
        z = x_sq + y_sq
    print(t.gradient(z, {'x': x, 'y': y}))
    with tf.GradientTape() as t:
        y_sq = y * y
        t.reset()
        z = x * x + y_sq
    print(t.gradient(z, {'x': x, 'y': y}))
    with tf.GradientTape() as t:
        z = x ** 2 + tf.stop_gradient(y ** 2)
    print(t.gradient(z, [x, y]))


def gradients_that_are_none_or_zero(tf):
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        z = tf.Variable(3.0) * 2.0
    print(tape.gradient(z, x))
    for epoch in range(2):
        with tf.GradientTape() as tape:
            y = x + 1
        print(type(x).__name__.replace("ResourceVariable", "Variable"), tape.gradient(y, x))
        x = x + 1
    v = tf.Variable([2.0, 2.0])
    with tf.GradientTape() as tape:
        z = tf.constant(3.0) ** 2
    print(tape.gradient(z, v, unconnected_gradients=tf.UnconnectedGradients.ZERO))
    x0, x1 = tf.Variable(3.0), tf.Variable(0.0)
    with tf.GradientTape() as tape:
        x1.assign_add(x0)
        y = x1 ** 2
    print(tape.gradient(y, x0))


def a_persistent_tape_and_a_used_one(tf):
    x = tf.constant([1, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    print(tape.gradient(z, x), tape.gradient(y, x))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    try:
        tape.gradient(y, x)
    except RuntimeError:
        print("RuntimeError")


def second_derivatives_and_jacobians(tf):
    x = tf.Variable(1.0)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = x * x * x
        dy_dx = t1.gradient(y, x)
    print(dy_dx, t2.gradient(dy_dx, x))
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.nn.tanh(x @ tf.constant([[1.0, -1.0, 0.5], [0.0, 2.0, 1.0]])) * 2.0
    print(tape.batch_jacobian(y, x).shape, tape.jacobian(y, x).shape)
    print(np.round(tape.batch_jacobian(y, x).numpy()[1], 4))
    delta = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        y = tf.nn.sigmoid(tf.linspace(-1.0, 1.0, 3) + delta)
    print(np.round(tape.jacobian(y, delta).numpy(), 5))


def retracing_on_python_values_and_tensors(tf):
    @tf.function
    def double(a):
        print("Tracing with", a)
        return a + a
    print(double(tf.constant(1)))
    print(double(tf.constant(1.1)))
    print(double(tf.constant("a")))
    print(double(tf.constant("b")))
    print(double(2), double(2), double(3))
    print(double.experimental_get_tracing_count())
    double_strings = double.get_concrete_function(tf.constant("a"))
    print(double.get_concrete_function(tf.TensorSpec(shape=[], dtype=tf.string)) is double_strings)
    print(double_strings(tf.constant("c")), double_strings(a=tf.constant("d")))
    print(double_strings.structured_input_signature)
    try:
        double_strings(tf.constant(1))
    except tf.errors.InvalidArgumentError:
        print("InvalidArgumentError")
    print(double.experimental_get_tracing_count())


def an_input_signature_converts_python_and_numpy_values(tf):
    @tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
    def next_collatz(x):
        print("Tracing with", x)
        return tf.where(x % 2 == 0, x // 2, 3 * x + 1)
    print(next_collatz(tf.constant([1, 2])))
    print(next_collatz([5, 6]), next_collatz(np.array([7, 8])))
    for bad in [tf.constant([[1, 2], [3, 4]]), tf.constant([1.0, 2.0]), [5.0, 6.0]]:
        try:
            next_collatz(bad)
        except TypeError:
            print("TypeError")
    print(next_collatz.experimental_get_tracing_count())

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def twice(x):
        return x * 2
    print(twice(np.array([1.0, 2.0])), twice(np.array([1, 2])))


def reduce_retracing_relaxes_shapes(tf):
    @tf.function(reduce_retracing=True)
    def g(x):
        print('Tracing with', x)
        return x
    for value in [[1, 2, 3], [1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 6, 7], [[1, 2], [3, 4]], [[1, 2, 3], [3, 4, 5]]]:
        g(tf.constant(value))
    print(g.experimental_get_tracing_count())


def side_effects_happen_when_tracing(tf):
    runs = tf.Variable(0)

    @tf.function
    def f(x):
        print("Traced with", x)
        runs.assign_add(1)
    f(1)
    f(1)
    f(2)
    print("runs", runs.numpy())
    external_list = []

    @tf.function
    def side_effect(x):
        print('Python side effect')
        external_list.append(x)
    side_effect(1)
    side_effect(1)
    print(len(external_list))
    external_var = tf.Variable(0)

    @tf.function
    def buggy_consume_next(iterator):
        external_var.assign_add(next(iterator))
    iterator = iter([0, 1, 2, 3])
    for _ in range(3):
        buggy_consume_next(iterator)
        print("Value of external_var:", external_var.numpy())


def a_function_keeps_the_python_values_it_was_traced_with(tf):
    foo = [1]

    @tf.function
    def buggy_add():
        return 1 + foo[0]

    @tf.function
    def recommended_add(foo):
        return 1 + foo
    print("Buggy:", buggy_add(), "Correct:", recommended_add(foo[0]))
    foo[0] = 100
    print("Buggy:", buggy_add(), "Correct:", recommended_add(foo[0]))
    v = tf.Variable(2.0)

    @tf.function
    def reads(x):
        return x * v
    print(reads(tf.constant(3.0)))
    v.assign(5.0)
    print(reads(tf.constant(3.0)))


def variables_made_in_a_function(tf):
    @tf.function
    def f(x):
        v = tf.Variable(1.0)
        return v
    try:
        f(1.0)
    except ValueError:
        print("ValueError")

    class Count(tf.Module):
        def __init__(self):
            self.count = None

        @tf.function
        def __call__(self):
            if self.count is None:
                self.count = tf.Variable(0)
            return self.count.assign_add(1)
    c = Count()
    print(c(), c())

    class Model(tf.Module):
        def __init__(self):
            self.v = tf.Variable(0)
            self.counter = 0

        @tf.function
        def __call__(self):
            if self.counter == 0:
                self.counter += 1
                self.v.assign_add(1)
            return self.v
    m = Model()
    print([int(m().numpy()) for _ in range(3)])


def what_a_traced_tensor_is_not(tf):
    @tf.function
    def probe(x):
        print("has numpy:", hasattr(x, "numpy"))
        try:
            x.numpy()
        except AttributeError:
            print("AttributeError")
        return x
    probe(tf.constant(1))
    print("eager has numpy:", hasattr(tf.constant(1), "numpy"))


def a_tensor_leaked_from_a_function(tf):
    leaked = []

    @tf.function
    def leaky_function(a):
        leaked.append(a + 1)
        return a + 2
    print(leaky_function(tf.constant(1)).numpy())
    try:
        leaked[0].numpy()
    except AttributeError:
        print("AttributeError")

    @tf.function
    def captures_leaked_tensor(b):
        b += leaked[0]
        return b
    for use in (lambda: captures_leaked_tensor(tf.constant(2)), lambda: leaked[0] + 1):
        try:
            use()
        except TypeError:
            print("TypeError")


def autograph_in_the_guides(tf):
    @tf.function
    def square_if_positive(x):
        if x > 0:
            x = x * x
        else:
            x = 0
        return x
    print(square_if_positive(tf.constant(2)), square_if_positive(tf.constant(-2)))

    @tf.function
    def sum_even(items):
        s = 0
        for c in items:
            if c % 2 > 0:
                continue
            s += c
        return s
    print(sum_even(tf.constant([10, 12, 15, 20])))

    @tf.function
    def dynamic_rnn(input_data, initial_state):
        input_data = tf.transpose(input_data, [1, 0, 2])
        states = tf.TensorArray(tf.float32, size=input_data.shape[0])
        state = initial_state
        for i in tf.range(input_data.shape[0]):
            state = input_data[i] + state
            states = states.write(i, state)
        return tf.transpose(states.stack(), [1, 0, 2])
    print(dynamic_rnn(tf.reshape(tf.range(12, dtype=tf.float32), [2, 3, 2]), tf.zeros([2, 2])))

    @tf.function
    def unused_return_graph(x):
        tf.gather(x, [1])
        return x
    print(unused_return_graph(tf.constant([0.0])))


def modules_and_their_variables(tf):
    class Dense(tf.Module):
        def __init__(self, in_features, out_features, name=None):
            super().__init__(name=name)
            self.w = tf.Variable(tf.reshape(tf.range(in_features * out_features, dtype=tf.float32) / 10.0,
                                            [in_features, out_features]), name='w')
            self.b = tf.Variable(tf.zeros([out_features]), name='b')
            self.frozen = tf.Variable(1.0, trainable=False)

        def __call__(self, x):
            return tf.nn.relu(tf.matmul(x, self.w) + self.b)

    class SequentialModule(tf.Module):
        def __init__(self, name=None):
            super().__init__(name=name)
            self.dense_1 = Dense(in_features=3, out_features=3)
            self.dense_2 = Dense(in_features=3, out_features=2)

        @tf.function
        def __call__(self, x):
            print("tracing", x.shape)
            return self.dense_2(self.dense_1(x))
    my_model = SequentialModule(name="the_model")
    print(my_model.name, my_model(tf.constant([[2.0, 2.0, 2.0]])))
    my_model(tf.constant([[1.0, 2.0, 3.0]]))
    print(len(my_model.submodules), len(my_model.variables), len(my_model.trainable_variables))
    print(sorted(v.name for v in my_model.trainable_variables))
    with tf.GradientTape() as tape:
        out = tf.reduce_sum(my_model(tf.constant([[2.0, 2.0, 2.0]])))
    grads = tape.gradient(out, my_model.trainable_variables)
    print([np.round(g.numpy(), 3).tolist() for g in grads])


def a_basic_training_loop(tf):
    x = tf.constant(np.linspace(-2, 2, 201).astype(np.float32))
    y = x * 3.0 + 2.0 + tf.constant(np.sin(np.arange(201) * 1.7).astype(np.float32))

    class MyModel(tf.Module):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.w = tf.Variable(5.0)
            self.b = tf.Variable(0.0)

        def __call__(self, x):
            return self.w * x + self.b

    def loss(target_y, predicted_y):
        return tf.reduce_mean(tf.square(target_y - predicted_y))
    model = MyModel()
    for epoch in range(5):
        with tf.GradientTape() as t:
            current_loss = loss(y, model(x))
        dw, db = t.gradient(current_loss, [model.w, model.b])
        model.w.assign_sub(0.1 * dw)
        model.b.assign_sub(0.1 * db)
        print(f"Epoch {epoch:2d}: W = {model.w.numpy():1.3f}, b = {model.b.numpy():1.3f}, "
              f"loss={loss(y, model(x)).numpy():2.3f}")


PROGRAMS = [custom_gradient_that_clips, custom_gradient_whose_output_is_a_tensor_made_before,
            stop_recording_reset_and_stop_gradient, gradients_that_are_none_or_zero, a_persistent_tape_and_a_used_one,
            second_derivatives_and_jacobians, retracing_on_python_values_and_tensors,
            an_input_signature_converts_python_and_numpy_values, reduce_retracing_relaxes_shapes,
            side_effects_happen_when_tracing, a_function_keeps_the_python_values_it_was_traced_with,
            variables_made_in_a_function, what_a_traced_tensor_is_not, a_tensor_leaked_from_a_function,
            autograph_in_the_guides, modules_and_their_variables, a_basic_training_loop]

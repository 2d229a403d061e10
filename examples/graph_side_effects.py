"""Seed 003: Python side effects happen when tracing; runtime.print on every call."""
import runtime as tf

tf.random.set_seed(0)
y_true = tf.random.uniform([5], maxval=10, dtype=tf.int32)
y_pred = tf.random.uniform([5], maxval=10, dtype=tf.int32)


@tf.function
def get_MSE(y_true, y_pred):
    print("Calculating MSE!")
    sq_diff = tf.pow(y_true - y_pred, 2)
    return tf.reduce_mean(sq_diff)


expected = int(((y_true.numpy() - y_pred.numpy()) ** 2).mean())
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
print("MSE matches NumPy:", error.numpy() == expected)

tf.config.run_functions_eagerly(True)
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
tf.config.run_functions_eagerly(False)


def unused_return_eager(x):
    tf.gather(x, [1])  # unused
    return x


try:
    print(unused_return_eager(tf.constant([0.0])))
except tf.errors.InvalidArgumentError as e:
    print(f'{type(e).__name__}: {str(e).splitlines()[0]}')  # the message's first line, as the seed shows


@tf.function
def unused_return_graph(x):
    tf.gather(x, [1])  # unused
    return x


print(unused_return_graph(tf.constant([0.0])))

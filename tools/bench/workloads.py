"""The graph workloads the benchmarks share (docs/performance.md's graph rows, issue 16): a scalar `while`,
collatz, fizzbuzz counting, an RNN cell over `tf.range`, and the elementwise chain."""
import runtime as tf


def count(n):
    i = tf.constant(0)
    s = tf.constant(0)
    while i < n:
        s += i
        i += 1
    return s


def collatz(n):
    steps = tf.constant(0)
    while n != 1:
        n = tf.where(n % 2 == 0, n // 2, 3 * n + 1)
        steps += 1
    return steps


def fizzbuzz(max_num):
    fizz, buzz, both = tf.constant(0), tf.constant(0), tf.constant(0)
    for num in tf.range(1, max_num + 1):
        if num % 15 == 0:
            both += 1
        elif num % 3 == 0:
            fizz += 1
        elif num % 5 == 0:
            buzz += 1
    return fizz, buzz, both


def rnn(h, xs, w, u):
    for t in tf.range(tf.shape(xs)[0]):
        h = tf.tanh(tf.matmul(h, w) + tf.matmul(xs[t], u))
    return h


def chain(x):
    return tf.tanh(x * 2.0 + 1.0) * x - 0.5

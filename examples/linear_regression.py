"""Seed 002: linear regression with a keras.Model, an SGD optimizer and a GradientTape, as the seed
writes it (`import runtime as tf`), then the same training with the step in `tf.function`, then the
seed's checkpoint and metric cells."""
import os
import tempfile

import runtime as tf


class Model(tf.keras.Model):
  def __init__(self):
    super(Model, self).__init__()
    self.W = tf.Variable(5., name='weight')
    self.B = tf.Variable(10., name='bias')
  def call(self, inputs):
    return inputs * self.W + self.B

# 약 3 * x + 2개의 점으로 구성된 실험 데이터
NUM_EXAMPLES = 2000
training_inputs = tf.random.normal([NUM_EXAMPLES])
noise = tf.random.normal([NUM_EXAMPLES])
training_outputs = training_inputs * 3 + 2 + noise

# 최적화할 손실함수
def loss(model, inputs, targets):
  error = model(inputs) - targets
  return tf.reduce_mean(tf.square(error))

def grad(model, inputs, targets):
  with tf.GradientTape() as tape:
    loss_value = loss(model, inputs, targets)
  return tape.gradient(loss_value, [model.W, model.B])

model = Model()
optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)

print("초기 손실: {:.3f}".format(loss(model, training_inputs, training_outputs)))

# 반복 훈련
for i in range(300):
  grads = grad(model, training_inputs, training_outputs)
  optimizer.apply_gradients(zip(grads, [model.W, model.B]))
  if i % 20 == 0:
    print("스텝 {:03d}에서 손실: {:.3f}".format(i, loss(model, training_inputs, training_outputs)))

print("최종 손실: {:.3f}".format(loss(model, training_inputs, training_outputs)))
print("W = {}, B = {}".format(model.W.numpy(), model.B.numpy()))

# The same training with the step traced once by tf.function.
model = Model()
optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)

@tf.function
def train_step(inputs, targets):
  grads = grad(model, inputs, targets)
  optimizer.apply_gradients(zip(grads, [model.W, model.B]))
  return loss(model, inputs, targets)

for i in range(300):
  loss_value = train_step(training_inputs, training_outputs)
print("tf.function: final loss {:.3f}, traced {} time(s), W = {:.3f}, B = {:.3f}".format(
    loss_value, train_step.experimental_get_tracing_count(), model.W.numpy(), model.B.numpy()))

# 객체 기반의 저장 (in a temporary directory)
os.chdir(tempfile.mkdtemp())
x = tf.Variable(10.)
checkpoint = tf.train.Checkpoint(x=x)
x.assign(2.)   # 변수에 새로운 값을 할당하고 저장
checkpoint_path = './ckpt/'
print(checkpoint.save('./ckpt/'))
x.assign(11.)  # 저장한 후에 변수 변경

# 체크포인트로부터 값을 복구
checkpoint.restore(tf.train.latest_checkpoint(checkpoint_path))

print(x)  # => 2.0

# 객체 지향형 지표
m = tf.keras.metrics.Mean("loss")
m(0)
m(5)
print(m.result())  # => 2.5
m([8, 9])
print(m.result())  # => 5.5

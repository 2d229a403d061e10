"""`runtime.nn`: activations, softmax, losses and dropout (TensorFlow's `tf.nn`)."""
from runtime.ops.extra_math import erf  # noqa: F401
from runtime.ops.math_ops import sigmoid, tanh  # noqa: F401
from runtime.ops.nn_ops import (dropout, elu, gelu, l2_loss, leaky_relu, log_softmax, relu, relu6, selu,  # noqa: F401
                                sigmoid_cross_entropy_with_logits, softmax, softmax_cross_entropy_with_logits,
                                softplus, softsign, sparse_softmax_cross_entropy_with_logits)
from runtime.ops.sort_ops import top_k  # noqa: F401
from runtime.ops.composites import bias_add, embedding_lookup, l2_normalize, moments, silu, swish  # noqa: F401
from runtime.ops.conv_ops import avg_pool, avg_pool2d, conv1d, conv2d, max_pool, max_pool2d  # noqa: F401,E402
from runtime.ops.counting_ops import in_top_k  # noqa: F401,E402
from runtime.ops.math_compositions import zero_fraction  # noqa: F401,E402
from runtime.ops.nn_compositions import (batch_normalization, compute_average_loss, crelu,  # noqa: F401,E402
                                         depth_to_space, log_poisson_loss, normalize_moments, space_to_depth,
                                         sufficient_statistics, weighted_cross_entropy_with_logits)

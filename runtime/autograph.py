"""`runtime.autograph`: TensorFlow's `tf.autograph` names, backed by the `autograph` package."""
from types import SimpleNamespace

from autograph import do_not_convert, set_loop_options, to_code  # noqa: F401
from runtime.compat import Feature

experimental = SimpleNamespace(do_not_convert=do_not_convert, set_loop_options=set_loop_options, Feature=Feature)

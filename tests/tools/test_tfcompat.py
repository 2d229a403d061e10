"""docs/tf-compat.md is what tools/docgen/tfcompat.py prints from real runs of the current code."""
from tools.docgen import tfcompat


def test_tf_compat_page_is_current_and_every_in_scope_example_runs():
    text = tfcompat.page()
    assert tfcompat.OUT.read_text() == text, f"docs/tf-compat.md is stale; regenerate it with: {tfcompat.COMMAND}"
    exists = text.split("## What differs")[0]
    assert "Error" not in exists and "Warning" not in exists
    assert 'Tracing with Tensor("a:0", shape=(), dtype=int32)\nExecuting with 1\nExecuting with 2' in text
    assert text.count("OutOfScopeError: tf.keras.") == 2

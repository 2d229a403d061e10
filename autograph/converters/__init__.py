"""One module per rewrite; `autograph.pipeline` applies them in order."""

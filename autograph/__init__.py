"""AutoGraph-style source-to-source transpiler for Python control flow.

`convert` rewrites a function so that `if`/`while`/`for`/`and`/`or`/`not`
whose conditions are staged tensors become a framework's functional control
flow, while Python values keep plain Python semantics. Generated code refers to
this package as `ag__`, so the run-time operators are exported here too.
"""

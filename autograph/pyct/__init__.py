"""Parsing and analysis toolkit for the converters.

- `parser`: a function's source → gast, with every node carrying the user's
  own file, line and column (origin information).
- `templates`: code templates → AST (`replace(template, name=node)`).
- `naming`: one generator of unique, readable names.
- `anno`: annotations on nodes, keyed by `anno.Key`, kept in one attribute.
- `activity`: which names a statement or expression reads and writes.
- `liveness`: live variables and definite assignment, written as annotations
  on the compound statements that the control-flow converter reads.
"""

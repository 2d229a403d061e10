"""Differential fuzzing of the transpiler: random programs run four ways must agree."""

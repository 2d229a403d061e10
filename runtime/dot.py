"""`python -m runtime.dot FILE FUNCTION [SPEC ...] [-o OUT]`: draw a function's graph.

    python -m runtime.dot examples/graph_loops.py fizzbuzz "int32[]" -o fizzbuzz.svg

runs FILE (as `python FILE` would: its top-level code runs), traces FUNCTION for the argument specs
(DTYPE[DIMS]: `int32[]`, `float32[3,None]`) and writes the graph (`Graph.render`): its DOT text for
`-o NAME.dot` (the default, FUNCTION.dot), or the picture Graphviz's `dot` draws for `.svg`, `.png` or
`.pdf` — an error saying to install Graphviz when `dot` is not on the PATH.
"""
from __future__ import annotations

import argparse
import re
import runpy

import runtime as tf
from runtime.errors import GraphvizNotFoundError
from runtime.lowering import dot


def parse_spec(text: str) -> tf.TensorSpec:
    """'float32[3,None]' -> TensorSpec([3, None], float32); 'int32[]' is a scalar."""
    match = re.fullmatch(r"\s*(\w+)\s*\[([\w,\s]*)\]\s*", text)
    if match is None or not isinstance(getattr(tf, match.group(1), None), tf.DType):
        raise SystemExit(f"runtime.dot: {text!r} is not a spec like int32[] or float32[3,None]")
    dims = [None if d.strip() == "None" else int(d) for d in match.group(2).split(",") if d.strip()]
    return tf.TensorSpec(dims, getattr(tf, match.group(1)))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description="Draw a runtime.function's graph as Graphviz DOT (and SVG).")
    parser.add_argument("file", help="a Python file defining the function (it is run, as `python FILE` would)")
    parser.add_argument("function", help="the name of a runtime.function (or plain function) in FILE")
    parser.add_argument("specs", nargs="*", help="a tensor spec per argument, DTYPE[DIMS]: int32[] (a scalar), "
                        "float32[3,None]")
    parser.add_argument("-o", "--output", help="the file to write: .dot for DOT text (default: FUNCTION.dot); "
                        ".svg, .png or .pdf for a picture drawn by Graphviz's dot")
    opts = parser.parse_args(argv)
    namespace = runpy.run_path(opts.file, run_name="__graph_dot__")
    fn = namespace[opts.function]
    fn = fn if isinstance(fn, tf.Function) else tf.function(fn)
    args = [parse_spec(spec) for spec in opts.specs]
    graph = fn.get_concrete_function(*args).graph
    try:
        print(dot.render(graph, opts.output or f"{opts.function}.dot"))
    except GraphvizNotFoundError as e:
        raise SystemExit(f"runtime.dot: {e}") from None


if __name__ == "__main__":
    main()

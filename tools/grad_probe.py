"""Probe the runtime's gradients, graph execution and jit_compile against real TensorFlow.

    PYTHONPATH=. /tmp/allv/bin/python tools/grad_probe.py [-v] [-k SUBSTRING] [CASE_FILE.py ...]

Each case is `program(lib, fn)` written the way a TensorFlow user would, where `lib` is `tensorflow` or
`runtime` and `fn` is the decorator to stage with. It runs with TensorFlow (eagerly and under
`tf.function`) and with the runtime in four modes: eager, `function` (the NumPy executor), `interp` (the
traced graph evaluated by `runtime.interpret` with the reference kernels) and `jit` (`jit_compile=True`).
Every mode is compared with TensorFlow's answer in the same placement (eager with eager, staged with
`tf.function`). Per case and mode it prints agree / refused (the runtime raised where TensorFlow computes)
/ WRONG (both computed, values, dtypes or shapes differ) / LAX (a case registered with `errors=True`:
TensorFlow raised, the runtime computed) / tf-refused (TensorFlow raised: not compared) / as-XLA (a case
registered with `xla=NOTE`, where TensorFlow's kernels disagree with its own `jit_compile=True` and the runtime
gives the latter's answer on purpose, as NOTE says: anything else is still WRONG),
then a table of counts per area. Cases live in tools/grad_probe_cases*.py (and any CASE_FILE given), helpers
in tools/grad_probe_common.py."""
from __future__ import annotations

import argparse
import collections
import glob
import importlib.util
import os
import sys
import traceback
import warnings

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as real_tf  # noqa: E402

import runtime as rt  # noqa: E402
from runtime.interpret import interpret, run_kernel  # noqa: E402

CASES: list = []   # (area, name, program, modes, errors, xla)


def case(area: str, modes=("eager", "function", "interp", "jit"), errors: bool = False, xla: str = ""):
    """Register `program(lib, fn)`. With `errors`, TensorFlow raising where the runtime computes is a
    finding (LAX: TensorFlow's users rely on the error) instead of an uncompared case (tf-refused). With
    `xla` (a note naming where the difference is documented), a runtime answer that differs from
    TensorFlow's but equals its `jit_compile=True` answer counts as as-XLA, not WRONG."""
    def register(program):
        CASES.append((area, program.__name__, program, modes, errors, xla))
        return program
    return register


def _interpreted(f, **options):
    """Like `runtime.function(f)`, but a call with no tape and no outer trace evaluates the traced graph
    with the interpreter's reference kernels instead of the executor's generated code."""
    staged = rt.function(f, **options)

    def call(*args):
        from runtime.ops import registry
        if registry.context.tapes or registry.context.graph is not None:
            return staged(*args)
        concrete = staged.get_concrete_function(*args)
        flat = [a for a in rt.nest.flatten(args) if rt.is_tensor(a)]
        values = [rt.convert_to_tensor(a).numpy() for a in flat]
        outs = interpret(concrete.graph, values, concrete.graph.outputs, run_kernel)
        it = iter(rt.constant(o) for o in outs)
        structured = concrete.structured_outputs
        leaves = [next(it) if rt.is_tensor(v) else v for v in rt.nest.flatten(structured)]
        return rt.nest.pack(structured, leaves) if rt.nest.is_sequence(structured) else leaves[0]
    return call


DECORATORS = {   # fn(f, **options): options such as input_signature, which eager mode ignores
    "eager": (lambda lib: (lambda f, **options: f)),
    "xla": (lambda lib: (lambda f, **options: lib.function(f, jit_compile=True, **options))),
    "function": (lambda lib: lib.function),
    "interp": (lambda lib: real_tf.function if lib is real_tf else _interpreted),
    "jit": (lambda lib: real_tf.function if lib is real_tf else (lambda f, **o: rt.function(f, jit_compile=True, **o))),
}


def _flat(out):
    if isinstance(out, dict):
        return [v for k in sorted(out) for v in _flat(out[k])]
    if isinstance(out, (list, tuple)):
        return [v for item in out for v in _flat(item)]
    if out is None:
        return [("None", "None")]
    if hasattr(out, "numpy"):
        return [(np.asarray(out.numpy()), real_tf.as_dtype(out.dtype.name).name)]
    if isinstance(out, real_tf.IndexedSlices):     # TensorFlow's sparse gradient (of a gather): compared dense
        return _flat(real_tf.convert_to_tensor(out))
    return [(np.asarray(out), type(out).__name__)]


def _differ(expected, got) -> str:
    if len(expected) != len(got):
        return f"{len(expected)} results from TensorFlow, {len(got)} from the runtime"
    for i, ((ev, ed), (gv, gd)) in enumerate(zip(expected, got)):
        if isinstance(ev, str) or isinstance(gv, str):
            if not (isinstance(ev, str) and isinstance(gv, str) and ev == gv):
                return f"result {i}: TensorFlow {ev if isinstance(ev, str) else ev.tolist()}, runtime " \
                       f"{gv if isinstance(gv, str) else gv.tolist()}"
            continue
        if ed != gd or ev.shape != gv.shape:
            return f"result {i}: TensorFlow {ed}{ev.shape}, runtime {gd}{gv.shape}"
        if ev.dtype.kind in "fc":
            tol = 2e-3 if ed in ("float16", "bfloat16") else 1e-4
            if not np.allclose(gv, ev, rtol=tol, atol=tol, equal_nan=True):
                return f"result {i}: TensorFlow {ev.tolist()}, runtime {gv.tolist()}"
        elif not np.array_equal(gv, ev):
            return f"result {i}: TensorFlow {ev.tolist()}, runtime {gv.tolist()}"
    return ""


def _run(lib, program, mode):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return True, _flat(program(lib, DECORATORS[mode](lib)))
        except Exception as e:     # noqa: BLE001 - reported
            return False, e


def _against_xla(tf_results, program, got, detail, note):
    """as-XLA when the runtime's answer is TensorFlow's under jit_compile=True (the documented choice where
    TensorFlow's own kernels disagree with it), else WRONG."""
    if "xla" not in tf_results:
        tf_results["xla"] = _run(real_tf, program, "xla")
    xla_ok, xla_expected = tf_results["xla"]
    if xla_ok and not _differ(xla_expected, got):
        return "as-XLA", f"{detail}; TensorFlow's jit_compile=True agrees ({note})"
    return "WRONG", detail


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("-v", action="store_true", help="print tracebacks of refusals")
    parser.add_argument("-k", default="", help="only cases whose area or name contains this")
    parser.add_argument("files", nargs="*")
    options = parser.parse_args(argv)
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)     # the case files import grad_probe_common
    for path in [*sorted(glob.glob(os.path.join(here, "grad_probe_cases*.py"))), *options.files]:
        spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
        module = importlib.util.module_from_spec(spec)
        module.case = case
        sys.modules[spec.name] = module     # TensorFlow's autograph finds a function's module there
        spec.loader.exec_module(module)
    table = collections.defaultdict(collections.Counter)
    wrong = []
    for area, name, program, modes, errors, xla in CASES:
        if options.k and options.k not in f"{area} {name}":
            continue
        tf_results = {}
        for mode in modes:
            tf_mode = "eager" if mode == "eager" else "function"
            if tf_mode not in tf_results:
                tf_results[tf_mode] = _run(real_tf, program, tf_mode)
            tf_ok, expected = tf_results[tf_mode]
            oracle = ""
            if not tf_ok and tf_mode == "function":     # what TensorFlow's own autograph can't stage (a
                if "eager" not in tf_results:           # `return` in a loop, ...): its eager answer
                    tf_results["eager"] = _run(real_tf, program, "eager")
                if tf_results["eager"][0]:
                    tf_ok, expected, oracle = True, tf_results["eager"][1], " (TensorFlow eager)"
            ok, got = _run(rt, program, mode)
            if not tf_ok:
                status = "tf-refused" + ("" if ok else " (both)")
                status = "LAX" if errors and ok else status
                detail = f"TensorFlow: {type(expected).__name__}: {(str(expected).splitlines() or [''])[0][:150]}"
                if not ok:
                    detail += f"; runtime: {type(got).__name__}: {(str(got).splitlines() or [''])[0][:150]}"
            elif not ok:
                first_line = str(got).splitlines()[0][:200] if str(got) else ""
                status, detail = "refused", f"{type(got).__name__}: {first_line}"
                if options.v:
                    traceback.print_exception(got)
            else:
                detail = _differ(expected, got)
                status = "WRONG" if detail else "agree"
                detail += oracle
                if detail and xla:
                    status, detail = _against_xla(tf_results, program, got, detail, xla)
            table[area][status] += 1
            if status in ("WRONG", "LAX"):
                wrong.append((area, name, mode, detail))
            if status != "agree" or options.v:
                print(f"{status:10} {area:12} {name:40} {mode:8} {detail}")
    print()
    statuses = ["agree", "refused", "WRONG", "LAX", "tf-refused", "tf-refused (both)", "as-XLA"]
    print(f"{'area':14}" + "".join(f"{s:>18}" for s in statuses))
    totals = collections.Counter()
    for area in sorted(table):
        print(f"{area:14}" + "".join(f"{table[area][s]:>18}" for s in statuses))
        totals.update(table[area])
    print(f"{'total':14}" + "".join(f"{totals[s]:>18}" for s in statuses))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())

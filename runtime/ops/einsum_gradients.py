"""The gradient of `einsum`: the upstream gradient contracted with the other operands back to each operand's
subscripts. An equation with '...' is spelled out in letters first (from the operands' static shapes), and a
subscript repeated in one operand ("ii->i") gets the gradient on that diagonal, zeros elsewhere."""
from __future__ import annotations

from runtime.ops import array_ops as A
from runtime.ops import extra_array_ops as X
from runtime.ops import sort_ops as S


def einsum(grad, inputs, output, equation):
    """The gradients of `einsum(equation, *inputs)`, one per operand."""
    subscripts, out = S.parse_equation(equation, len(inputs))
    if "." in equation:
        subscripts, out = _einsum_without_ellipses(subscripts, out, inputs, equation)
    return tuple(_einsum_operand_grad(grad, out, i, subscripts, inputs) for i in range(len(inputs)))


def _fresh_letters(used) -> list:
    letters = set("".join(used))
    return [c for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in letters]


def _known_dims(x, equation: str) -> list:
    dims = x.shape.dims if x.shape.rank is not None else None
    if dims is None or None in dims:
        raise NotImplementedError(f"gradient of einsum {equation!r}: '...' or a repeated subscript needs the "
                                  "operands' shapes known when tracing.")
    return list(dims)


def _einsum_without_ellipses(subscripts: list, out: str, inputs, equation: str) -> tuple[list, str]:
    """The equation with each '...' spelled out in letters of its own: the broadcast axes, aligned from the
    right; an operand's axis of size 1 that broadcasts against a longer one gets a letter only it has (it is
    summed over in its gradient, as broadcasting's gradient is)."""
    shapes = [_known_dims(x, equation) for x in inputs]
    lead = [shape[:len(shape) - len(sub.replace("...", ""))] if "..." in sub else [] for sub, shape in
            zip(subscripts, shapes)]
    width = max(len(dims) for dims in lead)
    broadcast = [max([d[k - width + len(d)] for d in lead if k - width + len(d) >= 0] or [1]) for k in range(width)]
    fresh = iter(_fresh_letters(subscripts + [out]))
    shared = [next(fresh) for _ in range(width)]
    spelled = []
    for sub, dims in zip(subscripts, lead):
        letters = [shared[width - len(dims) + k] if d == broadcast[width - len(dims) + k] else next(fresh)
                   for k, d in enumerate(dims)]
        spelled.append(sub.replace("...", "".join(letters)))
    return spelled, out.replace("...", "".join(shared))


def _einsum_operand_grad(grad, out: str, i: int, subscripts: list, inputs):
    """Contract the upstream gradient with the other operands back to operand i's subscripts; a subscript
    repeated in operand i (a diagonal, "ii->i") gets the gradient on that diagonal, zeros elsewhere."""
    others = [j for j in range(len(inputs)) if j != i]
    available = set(out).union(*(subscripts[j] for j in others))
    sub = subscripts[i]
    unique = "".join(dict.fromkeys(sub))
    kept = "".join(c for c in unique if c in available)
    if others or out != kept:
        g = S.einsum(",".join([out] + [subscripts[j] for j in others]) + "->" + kept, grad, *(inputs[j] for j in others))
    else:                           # "ii->" and the like: the gradient as it comes
        g = grad
    if kept != unique:
        for position, c in enumerate(unique):
            if c not in available:  # summed over in operand i alone: every element got the same gradient
                g = A.expand_dims(g, position)
        g = X.broadcast_to(g, _dims_at(inputs[i], [sub.index(c) for c in unique]))
    return g if unique == sub else _on_diagonals(g, unique, sub, inputs[i])


def _dims_at(x, positions: list):
    """x's dims at `positions`: a list where they are known when tracing (jit_compile needs static shapes)."""
    dims = x.shape.dims if x.shape.rank is not None else None
    if dims is not None and None not in dims:
        return [dims[p] for p in positions]
    return A.gather(A.shape(x), positions)


def _on_diagonals(g, unique: str, sub: str, x):
    """`g` (subscripts `unique`) placed where operand `x`'s repeated subscripts `sub` are equal: each later
    occurrence of a letter gets a fresh one, tied to the first by an identity matrix."""
    dims = _known_dims(x, sub)
    fresh = iter(_fresh_letters([sub]))
    spelled, identities = [], []
    for position, c in enumerate(sub):
        if c in sub[:position]:
            spelled.append(next(fresh))
            identities.append((c + spelled[-1], A.eye(dims[position], dtype=g.dtype)))
        else:
            spelled.append(c)
    terms = [unique] + [letters for letters, _ in identities]
    return S.einsum(",".join(terms) + "->" + "".join(spelled), g, *(eye for _, eye in identities))

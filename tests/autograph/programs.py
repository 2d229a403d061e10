"""Small programs with every construct the converters handle (used by dual-run tests)."""
# ruff: noqa


def record(log, value):
    log.append(value)
    return value


def if_elif_else(x):
    if x > 10:
        y = "big"
    elif x > 0:
        y = "small"
    else:
        y = "non-positive"
    return y


def while_with_else(n):
    i = 0
    found = None
    while i < n:
        if i * i == n:
            found = i
            break
        i += 1
    else:
        found = -1
    return found, i


def for_continue_break(xs):
    total = 0
    seen = []
    for x in xs:
        if x < 0:
            continue
        if x > 100:
            break
        total += x
        seen.append(x)
    else:
        total = -total
    return total, seen


def early_return_in_nested_loops(grid, target):
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            if v == target:
                return r, c
    return None


def short_circuit(log, a, b):
    first = record(log, a) and record(log, b)
    second = record(log, a) or record(log, b)
    third = not record(log, a)
    return first, second, third


def ternary_chain(x):
    return "neg" if x < 0 else "zero" if x == 0 else "pos"


def augmented_and_tuple_targets(pairs):
    acc = 0
    best = None
    for i, (a, b) in enumerate(pairs):
        acc += a * b
        acc -= i
        if best is None or a > best:
            best = a
    return acc, best


def calls_helpers(x):
    def square(v):
        return v * v

    add = lambda a, b: a + b  # noqa: E731
    return add(square(x), abs(x - 3)), len([x, x]), max(range(x + 1))


def assert_and_raise(x):
    assert x >= 0, f"negative: {x}"
    if x > 5:
        raise ValueError("too big")
    return x


def variable_defined_in_one_branch(flag):
    if flag:
        y = 1
    return y


def nested_while_for(n):
    out = []
    i = 0
    while i < n:
        for j in range(i):
            if (i + j) % 3 == 0:
                continue
            out.append((i, j))
        i += 1
    return out


def loop_variable_after_loop(n):
    for i in range(n):
        pass
    return i


def set_loop_options_directive(n):
    import autograph as ag

    total = 0
    while total < n:
        ag.set_loop_options(maximum_iterations=100)
        total += 2
    return total


def list_pop_and_append(xs):
    stack = list(xs)
    out = []
    while stack:
        v = stack.pop()
        out.append(v * 2)
    return out


PROGRAMS = [
    (if_elif_else, [(20,), (5,), (-1,)]),
    (while_with_else, [(9,), (10,), (0,)]),
    (for_continue_break, [([1, 2, -3, 4],), ([1, 200, 3],), ([],)]),
    (early_return_in_nested_loops, [([[1, 2], [3, 4]], 3), ([[1]], 9)]),
    (ternary_chain, [(-2,), (0,), (7,)]),
    (augmented_and_tuple_targets, [([(1, 2), (3, 4), (0, 9)],), ([],)]),
    (calls_helpers, [(4,), (0,)]),
    (assert_and_raise, [(3,), (-1,), (9,)]),
    (variable_defined_in_one_branch, [(True,), (False,)]),
    (nested_while_for, [(5,), (0,)]),
    (loop_variable_after_loop, [(3,), (0,)]),
    (set_loop_options_directive, [(7,)]),
    (list_pop_and_append, [([1, 2, 3],), ([],)]),
]

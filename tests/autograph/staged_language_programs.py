"""Programs written from Python's language reference (not from what the converter handles), for
test_staged_language.py: each takes one int and returns Python values, and is run as plain Python, converted
on Python ints, and in `runtime.function` on an int32 tensor (so its `if`/`while`/`for` on `x` are staged)."""
import contextlib


class Box:
    def __init__(self):
        self.n = 0


class Registry:
    items: list = []
    count = 0


class Prop:
    def __init__(self, v):
        self._v = v

    @property
    def v(self):
        return self._v * 2


class Bag:
    def __init__(self):
        self.xs = [1, 2, 3]

    def __iter__(self):
        return iter(self.xs)


class Logged:
    """A context manager that appends to the list it is given."""

    def __init__(self, log):
        self.log = log

    def __enter__(self):
        self.log.append("in")
        return self

    def __exit__(self, *exc):
        self.log.append("out")
        return False


def _fact(n):
    return 1 if n <= 1 else n * _fact(n - 1)


def _total(*args, **kw):
    return sum(args) + kw.get("k", 0)


# --- Python's answer on every input ---------------------------------------------------------------------

def aug_attr_in_branch(x):
    b = Box()
    if x > 0:
        b.n += 1
    else:
        b.n -= 1
    return b.n


def aug_item_in_loop(x):
    d = {"k": 0}
    for i in range(x):
        d["k"] += i
    return d["k"]


def class_attr_aug_in_branch(x):
    Registry.count = 0
    if x > 0:
        Registry.count += 1
    return Registry.count


def chained_comparison(x):
    if -1 < x < 3:
        return 1
    return 0


def chained_comparison_value(x):
    y = 0 <= x <= 2
    if y:
        return 5
    return 6


def for_else_with_break(x):
    r = 0
    for i in range(4):
        if i == x:
            r = 10
            break
    else:
        r = -1
    return r


def while_else_with_break(x):
    i = 0
    r = 0
    while i < 5:
        if i * i > x:
            break
        i += 1
    else:
        r = 100
    return r + i


def return_in_try_finally_in_loop(x):
    total = 0
    for i in range(5):
        try:
            if i > x:
                return total
            total += i
        finally:
            total += 100
    return total


def break_in_try_finally(x):
    total = 0
    i = 0
    while i < 6:
        try:
            if i > x:
                break
            total += i
        finally:
            total += 1
        i += 1
    return total


def continue_in_try_finally(x):
    total = 0
    for i in range(4):
        try:
            if i < x:
                continue
            total += 10
        finally:
            total += 1
    return total


def lambdas_bind_late(x):
    fs = []
    for i in range(3):
        fs.append(lambda: i * x)
    return fs[0]() + fs[2]()


def default_argument_binds_early(x):
    fs = []
    for i in range(3):
        fs.append(lambda i=i: i + x)
    return fs[0]() + fs[1]()


def closure_reads_the_loop_result(x):
    total = 0

    def peek():
        return total
    for i in range(x):
        total += i
    return peek()


def del_then_rebind_in_branch(x):
    y = 5
    z = 1
    if x > 0:
        del z
        z = 3
    return y + z


def star_unpacking(x):
    a, *rest = [x, x + 1, x + 2]
    if a > 0:
        a = a + len(rest)
    return a


def star_unpacking_in_branch(x):
    if x > 0:
        first, *mid, last = (1, 2, 3, 4)
        r = first + last + len(mid)
    else:
        r = -1
    return r


def walrus_in_comprehension(x):
    ys = [y for v in range(4) if (y := v * 2) > 1]
    if x > 0:
        return sum(ys)
    return len(ys)


def iterator_partly_consumed(x):
    it = iter([1, 2, 3, 4])
    next(it)
    total = 0
    for v in it:
        if v > x:
            total += v
    return total


def generator_as_iterable(x):
    total = 0
    for v in (i * i for i in range(4)):
        if v > x:
            total += v
    return total


def range_with_negative_step(x):
    total = 0
    for i in range(x, -2, -1):
        total += i
    return total


def range_tensor_stop_negative_step(x):
    total = 0
    for i in range(5, x, -2):
        total += i
    return total


def enumerate_reversed(x):
    total = 0
    for i, v in enumerate(reversed([1, 2, 3])):
        if v > x:
            total += i * v
    return total


def enumerate_with_start(x):
    total = 0
    for i, v in enumerate(range(x), start=3):
        total += i * 10 + v
    return total


def zip_of_unequal_lengths(x):
    total = 0
    for a, b in zip(range(x), [10, 20, 30]):
        total += a + b
    return total


def loop_variable_reassigned_in_body(x):
    total = 0
    for i in range(x):
        total += i
        i = i * 10
    return total


def loop_variable_after_the_loop(x):
    i = -1
    for i in range(x):
        i = i + 100
    return i


def range_bound_changed_in_body(x):
    n = x
    c = 0
    for i in range(n):
        n = n - 1
        c += 1
    return c * 10 + n


def tuple_swap_in_loop(x):
    a, b = 1, 2
    i = 0
    while i < x:
        a, b = b, a + b
        i += 1
    return a * 100 + b


def while_with_and_test(x):
    i = 0
    while x > i and i < 3:
        i += 1
    return i


def tuple_augmented_in_branch(x):
    t = (1,)
    if x > 0:
        t += (2,)
    else:
        t += (3,)
    return t


def property_in_test(x):
    p = Prop(x)
    if p.v > 2:
        return p.v
    return -p.v


def python_recursion_beside_a_tensor(x):
    if x > 0:
        return _fact(4) + x
    return _fact(3)


def star_args_helper(x):
    if x > 0:
        r = _total(x, 1, k=2)
    else:
        r = _total(x, k=5)
    return r


def with_in_branch(x):
    r = 0
    if x > 0:
        with contextlib.nullcontext(5) as v:
            r = v + x
    return r


def user_iterable(x):
    t = 0
    for v in Bag():
        if v > x:
            t += v
    return t


def assert_that_holds(x):
    assert x > -10, "too small"
    return x + 1


def while_true_with_break(x):
    i = 0
    while True:
        if i >= x:
            break
        i += 1
    return i


def while_true_with_return(x):
    i = 0
    while True:
        i += 1
        if i > x:
            return i * 10


def return_from_nested_loops(x):
    for i in range(3):
        for j in range(3):
            if i * j > x:
                return i * 10 + j
    return -1


def for_else_over_tensor_range(x):
    r = 0
    for i in range(x):
        if i == 2:
            break
    else:
        r = 7
    return r


def while_else_with_return(x):
    i = 0
    while i < 3:
        if i == x:
            return 100
        i += 1
    else:
        return 200


def loop_target_is_an_item(x):
    d = {"i": 0}
    t = 0
    for d["i"] in range(x):
        t += d["i"]
    return t * 10 + d["i"]


def try_else_in_loop(x):
    t = 0
    for i in range(x):
        try:
            v = i * 2
        except ValueError:
            v = -1
        else:
            v = v + 1
        t += v
    return t


def closure_over_a_parameter_changed_in_branch(x):
    def get():
        return x
    if x > 0:
        x = x * 2
    return get()


AGREE = [aug_attr_in_branch, aug_item_in_loop, chained_comparison,
         chained_comparison_value, for_else_with_break, while_else_with_break, return_in_try_finally_in_loop,
         break_in_try_finally, continue_in_try_finally, lambdas_bind_late, default_argument_binds_early,
         closure_reads_the_loop_result, del_then_rebind_in_branch, star_unpacking, star_unpacking_in_branch,
         walrus_in_comprehension, iterator_partly_consumed, generator_as_iterable, range_with_negative_step,
         range_tensor_stop_negative_step, enumerate_reversed, enumerate_with_start, zip_of_unequal_lengths,
         loop_variable_reassigned_in_body, loop_variable_after_the_loop, range_bound_changed_in_body,
         tuple_swap_in_loop, while_with_and_test, tuple_augmented_in_branch, property_in_test,
         python_recursion_beside_a_tensor, star_args_helper, with_in_branch, user_iterable, assert_that_holds,
         while_true_with_break, while_true_with_return, return_from_nested_loops, for_else_over_tensor_range,
         while_else_with_return, loop_target_is_an_item, try_else_in_loop, closure_over_a_parameter_changed_in_branch]


# --- a graph can't give Python's answer: refused at the user's line ----------------------------------------

def side_effects_in_and_operands(x):   # was 20 where Python gives 10 (x <= 0): `g()` ran when traced
    log = []

    def f():
        log.append(1)
        return x > 0

    def g():
        log.append(2)
        return x > 2
    if f() and g():
        r = 1
    else:
        r = 0
    return r + 10 * len(log)


def side_effects_in_conditional_expression(x):   # was 12 where Python gives 11: both operands ran
    log = []

    def a():
        log.append(1)
        return 1

    def b():
        log.append(2)
        return 2
    y = a() if x > 0 else b()
    return y * 10 + len(log)


def class_list_appended_in_loop(x):   # was 1 where Python gives 0, 2, 5: appended once, when traced
    Registry.items = []
    for i in range(x):
        Registry.items.append(i)
    return len(Registry.items)


def augmented_item_with_loop_key(x):
    xs = [0, 0, 0]
    i = 0
    while i < x:
        xs[i % 3] += 1
        i += 1
    return xs[0] + 10 * xs[1] + 100 * xs[2]


def walrus_in_while_test(x):
    n = x
    c = 0
    while (m := n) > 0:
        n = m - 1
        c += 1
    return c


def match_on_a_tensor(x):
    match x:
        case 0:
            return 10
        case _:
            return 20


def exception_in_branch_caught_outside(x):
    try:
        if x > 0:
            raise ValueError("positive")
        r = 1
    except ValueError:
        r = 2
    return r


def nonlocal_write_in_helper(x):
    n = 0

    def bump():
        nonlocal n
        n += 1
    if x > 0:
        bump()
    return n


def method_changing_its_object(x):
    class A:
        def __init__(self):
            self.v = 1

        def add(self, k):
            self.v = self.v + k
            return self.v
    a = A()
    if x > 0:
        a.add(x)
    return a.v


def context_manager_with_side_effects(x):
    log = []
    if x > 0:
        with Logged(log):
            y = 1
    else:
        y = 2
    return y * 10 + len(log)


def next_in_branch(x):
    it = iter([1, 2, 3])
    if x > 0:
        a = next(it)
    else:
        a = 0
    return a + next(it)


def append_to_a_list_in_a_list(x):
    rows = [[]]
    for i in range(x):
        rows[0].append(i)
    return len(rows[0])


def setdefault_in_branch(x):
    d = {}
    if x > 0:
        d.setdefault("a", []).append(1)
    return len(d)


REFUSED = [(side_effects_in_and_operands, "`log.append(...)` changes 'log'"),
           (side_effects_in_conditional_expression, "`log.append(...)` changes 'log'"),
           (class_list_appended_in_loop, "`Registry.items.append(...)` changes 'Registry'"),
           (augmented_item_with_loop_key, "`xs[i % 3] = ...` changes an object"),
           (walrus_in_while_test, "the test of this loop over tensors assigns 'm'"),
           (match_on_a_tensor, "a `match` statement on a tensor"),
           (exception_in_branch_caught_outside, "this `raise` of ValueError"),
           (nonlocal_write_in_helper, "'n' is changed by a function called inside this `if`"),
           (method_changing_its_object, "`a.add(...)` changes an object"),
           (context_manager_with_side_effects, "the length of 'log' is changed"),
           (next_in_branch, "the iterator 'it' gives items"),
           (append_to_a_list_in_a_list, "`rows[0].append(...)` changes an object"),
           (setdefault_in_branch, "`d.setdefault(...)` changes an object"),
           # the class outlives the call: carried, `Registry.count` kept a tensor of the traced graph afterwards
           (class_attr_aug_in_branch, "`Registry.count` is assigned at staged_language_programs.py:78 inside this "
                                      "`if` on a tensor, but 'Registry' is not a variable of this function")]

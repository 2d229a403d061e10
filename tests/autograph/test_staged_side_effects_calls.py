"""Side effects in staged statements (test_staged_side_effects.py, continued): an item's existence is not a
defined flag, and changes a called function makes to an object a variable of the statement holds."""
import array
import collections
import io

import numpy as np
import pytest

import autograph as ag
import runtime as tf
from autograph.errors import StagingError
from tests.autograph.generated_code import python_run
from tests.autograph.side_effects_helpers import Box, refused, staged

pytestmark = pytest.mark.jit_twin   # every graph also runs under jit_compile=True (tests/jit_twin.py)


# --- with defined flags for variables (operators/maybe.py): an item's existence is not a flag ---------------

class _Holder:
    pass


def item_made_in_one_branch_then_counted(x):
    d = {}
    if x > 0:
        d["b"] = 1
    return len(d)


def attribute_made_in_one_branch_then_tested(x):
    o = _Holder()
    if x > 0:
        o.v = 1
    return hasattr(o, "v")


def test_an_item_or_attribute_made_on_some_staged_paths_is_refused_not_flagged():
    # carried with a defined flag, the item would exist on every path: len(d) == 1 and hasattr True for x = -1
    assert item_made_in_one_branch_then_counted(-1) == 0
    with pytest.raises(ag.StagingError, match=r"`d\['b'\]` is set in only one branch"):
        tf.function(item_made_in_one_branch_then_counted)(tf.constant(-1))
    assert attribute_made_in_one_branch_then_tested(-1) is False
    with pytest.raises(ag.StagingError, match=r"`o.v` is set in only one branch"):
        tf.function(attribute_made_in_one_branch_then_tested)(tf.constant(-1))


def filter_into_empty_list(xs):
    out = []
    for x in xs:
        if x > 2:
            out.append(x)
    return out


def test_a_backends_own_frames_are_not_taken_for_the_users_variables():
    """The runtime's loop holds the carried values in a tuple of its own (`s`); an append in the loop body was
    refused as changing 'an element of 's'', a variable the user never wrote. The refusal is now the real
    one: the empty list's element type is learned from a probe of the body, where the `if` on a tensor gives
    the list two lengths."""
    assert python_run(filter_into_empty_list, [1, 2, 3, 4]) == [3, 4]
    with pytest.raises(StagingError) as e:
        tf.function(filter_into_empty_list)(tf.constant([1, 2, 3, 4]))
    assert "'out' has a different structure in the two branches" in str(e.value)
    assert "element of" not in str(e.value)


# --- changes a called function makes to an object a variable of the statement holds ------------------------
# The statement's own stores are carried or refused; a function it calls changed the object once, at trace
# time, on every path (and once more for each time a loop body is traced): `a.inc()` three times gave 2.

class Steps:
    def __init__(self):
        self.count = 0
        self.log = []

    def inc(self):
        self.count = self.count + 1
        return self.count


def method_changes_an_attribute(n):
    a = Steps()
    i = 0
    while i < n:
        a.inc()
        i += 1
    return a.count


def helper_sets_an_item(x):
    def mark(d):
        d["sign"] = 1

    d = {"sign": 0}
    if x > 0:
        mark(d)
    return d["sign"]


def helper_appends(x):
    @ag.do_not_convert   # its `append` is not marked (a converted helper's is, and refused at its line)
    def add(items):
        items.append(1)

    items = [0]
    if x > 0:
        add(items)
    return len(items)


@pytest.mark.parametrize("fn, arg, what", [(method_changes_an_attribute, 3, "`a.count`"),
                                           (helper_sets_an_item, -3, "`d['sign']`"),
                                           (helper_appends, -3, "the length of 'items'")])
def test_a_change_a_called_function_makes_is_refused(fn, arg, what):
    python_run(fn, arg)
    refused(fn, arg, f"{what} is changed by a function called inside this", "Make the change in the statement")


def test_a_called_function_changing_what_the_statement_carries_is_carried():
    def f(n):
        a = Steps()
        i = 0
        while i < n:
            a.count = a.count * 2   # the loop carries `a.count`: what `inc` does to it is carried too
            a.inc()
            i += 1
        return a.count

    assert staged(f, 3) == python_run(f, 3) == 7


def test_a_called_function_changing_an_object_made_in_the_statement_is_allowed():
    def f(x):
        r = 0
        if x > 0:
            a = Steps()
            r = a.inc()
        return r

    assert staged(f, 3) == python_run(f, 3) == 1


# --- an iterator that gives items while the statement is traced ------------------------------------------------
# `next(it)` in a staged loop body ran once, at trace time: `while i < n: total += next(it)` gave 2 for n=2
# where Python gives 3 (the traced item, 1, added on each iteration), and the next item read after the loop
# was the one after the traced ones, whatever n.

def next_in_a_loop(n):
    it = iter([1, 2, 3, 4, 5])
    total = 0
    i = 0
    while i < n:
        total = total + next(it)
        i += 1
    return total, next(it)


def numbers():
    yield 10
    yield 20


def helper_takes_from_a_generator(x):
    it = numbers()

    def take():
        return next(it)

    r = 0
    if x > 0:
        r = take()
    return r, next(it)


def loop_over_a_zip_in_a_branch(x):
    pairs = zip([1, 2], [3, 4])
    r = 0
    if x > 0:
        for a, b in pairs:
            r = r + a * b
    return r


@pytest.mark.parametrize("fn, arg", [(next_in_a_loop, 2), (helper_takes_from_a_generator, -1),
                                     (loop_over_a_zip_in_a_branch, 1)])
def test_an_iterator_giving_items_in_the_statement_is_refused(fn, arg):
    python_run(fn, arg)
    refused(fn, arg, "the iterator ", "gives items inside this", "list(it)")


def test_an_iterator_the_statement_reads_without_taking_items_is_allowed():
    def f(x):
        it = iter([1, 2, 3])
        r = 0
        if x > 0:
            same = it
            r = 5
        return r, next(it)

    for x, expected in [(1, [5, 1]), (-1, [0, 1])]:
        assert [v.numpy().item() for v in tf.function(f)(tf.constant(x))] == expected
    assert python_run(f, 1) == (5, 1)


# --- a buffer's contents changed in place ---------------------------------------------------------------------
# `a += 1` on a NumPy array (or an `array.array`) in a staged `if` changed the
# array while the true branch was traced, so the false path gave [2, 3, 4] where Python gives [1, 2, 3].

def array_incremented_in_a_branch(x):
    a = np.array([1, 2, 3])
    if x > 0:
        a += 1
    return a.tolist()


def array_changed_by_a_helper_in_a_loop(n):
    a = np.array([1.0, 2.0])

    def bump():
        np.add(a, 1.0, out=a)

    i = 0
    while i < n:
        bump()
        i += 1
    return a.tolist()


def items_added_to_an_array_array(x):
    data = array.array("i", [1, 2])
    if x > 0:
        data += array.array("i", [3])
    return len(data)


def array_attribute_incremented_in_a_branch(x):
    o = Box()
    o.buf = np.array([1.0, 2.0])
    if x > 0:
        o.buf += 1   # the `if` carries `o.buf`, but `+=` changed the array itself while the branch was traced
    return o.buf.tolist()


@pytest.mark.parametrize("fn, arg, name", [(array_incremented_in_a_branch, -1, "'a' (a numpy.ndarray)"),
                                           (array_attribute_incremented_in_a_branch, -1, "'o.buf' (a numpy.ndarray)"),
                                           (array_changed_by_a_helper_in_a_loop, 0, "'a' (a numpy.ndarray)"),
                                           (items_added_to_an_array_array, -1, "'data' (an array.array)")])
def test_a_buffer_changed_in_place_is_refused(fn, arg, name):
    python_run(fn, arg)
    refused(fn, arg, f"the contents of {name} are changed in place inside this", "which a staged statement carries")


def deque_extended(x):
    queue = collections.deque([1, 2])
    if x > 0:
        queue += [3]
    return len(queue)


def bytes_added_to_a_bytearray(x):
    data = bytearray(b"ab")
    if x > 0:
        data += b"c"
    return len(data)


@pytest.mark.parametrize("fn, name", [(deque_extended, "queue"), (bytes_added_to_a_bytearray, "data")])
def test_a_deque_or_bytearray_extended_in_place_is_refused_at_its_line(fn, name):
    assert python_run(fn, -1) == 2
    refused(fn, -1, f"`{name} += ...` changes an object that exists before this `if`")


def test_an_array_the_statement_only_reads_or_replaces_is_allowed():
    def f(n):
        a = np.array([1.0, 2.0])
        total = 0.0
        i = 0
        while i < n:
            total = total + a[1]
            a = a * 2
            i += 1
        return total

    assert staged(f, 3) == python_run(f, 3) == 14.0


# --- dict subclasses ---------------------------------------------------------------------------------------------
# Only a plain dict's items were kept before tracing: reading a missing key of a defaultdict in a branch added it
# on both paths (len(d) 1 where Python gives 0), and a helper setting an item of an OrderedDict went unseen.

def defaultdict_read_in_a_branch(x):
    d = collections.defaultdict(int)
    r = 0
    if x > 0:
        r = d["a"] + 1
    return r, len(d)


def ordered_dict_item_set_by_a_helper(x):
    def mark(items):
        items["b"] = 2

    d = collections.OrderedDict(a=1)
    if x > 0:
        mark(d)
    return len(d)


@pytest.mark.parametrize("fn, pattern", [
    (defaultdict_read_in_a_branch, "`d['a']` is added to the defaultdict 'd' inside this `if`"),
    (ordered_dict_item_set_by_a_helper, "`d['b']` is changed by a function called inside this `if`")])
def test_an_item_a_dict_subclass_gains_while_traced_is_refused(fn, pattern):
    python_run(fn, -1)
    refused(fn, -1, pattern)


# --- a global a called function rebinds ------------------------------------------------------------------------
# A helper's `global bumps; bumps += 1` in a tensor loop ran at trace time (twice: a probe and the trace), so the
# function returned 2 for any n where Python gives n; a helper's `nonlocal` was refused already.

bumps = 0


def _bump():
    global bumps
    bumps += 1


def global_bumped_by_a_helper_in_a_loop(n):
    global bumps
    bumps = 0
    i = 0
    while i < n:
        _bump()
        i += 1
    return bumps


def test_a_global_a_called_function_rebinds_is_refused():
    assert python_run(global_bumped_by_a_helper_in_a_loop, 3) == 3
    refused(global_bumped_by_a_helper_in_a_loop, 3, "the global 'bumps' is changed by a function called inside this "
                                                    "`while` loop", "keep it in a variable of this function")


# --- a file read or written -------------------------------------------------------------------------------------
# `f.readline()` in a tensor loop read at trace time (twice: a probe and the trace), whatever n: after a loop of 0
# iterations the rest of the file was 6 characters where Python gives 12.

def lines_skipped_in_a_loop(n):
    f = io.StringIO("l1\nl2\nl3\nl4\n")
    i = 0
    while i < n:
        f.readline()
        i += 1
    return len(f.read())


def written_in_a_branch(x):
    out = io.StringIO()
    if x > 0:
        out.write("positive")
    return len(out.getvalue())


@pytest.mark.parametrize("fn, arg, name", [(lines_skipped_in_a_loop, 0, "f"), (written_in_a_branch, -1, "out")])
def test_a_file_read_or_written_in_the_statement_is_refused(fn, arg, name):
    python_run(fn, arg)
    refused(fn, arg, f"the file '{name}' is read or written inside this", "before the statement")

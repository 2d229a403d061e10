"""call_trees: calls go through `ag__.callee` (or `converted_call`, when handed a function the converted function
defines) with Python's arguments, in Python's order, and Python's errors for arguments that don't fit."""
import pytest

import autograph as ag
from tests.autograph.converters.conftest import dual_run, generated


def _collect(*args, **kwargs):
    return args, sorted(kwargs.items())


def keyword_and_a_repeating_star_star(x):
    return _collect(a=1, **{"a": x})


def two_star_stars_repeating_a_name(x):
    return _collect(**{"a": 1}, **{"b": 2, "a": x})


def keyword_after_a_star_star(x):
    return _collect(**{"a": x}, a=2)


def a_star_star_of_no_mapping(x):
    return _collect(a=1, **x)


REPEATED = [keyword_and_a_repeating_star_star, two_star_stars_repeating_a_name, keyword_after_a_star_star,
            a_star_star_of_no_mapping]


@pytest.mark.parametrize("fn", REPEATED, ids=lambda fn: fn.__name__)
def test_a_keyword_two_parts_of_a_call_give_is_pythons_type_error(fn):
    with pytest.raises(TypeError) as python:
        fn(3)
    with pytest.raises(TypeError) as converted:
        ag.convert(fn)(3)
    assert str(converted.value) == str(python.value)


class _Keys:
    """A mapping for `**` by its `keys()` and `[]` only."""

    def keys(self):
        return ["b", "c"]

    def __getitem__(self, key):
        return key * 2


def keywords_in_order(x):
    log = []

    def seen(v):
        log.append(v)
        return v
    out = _collect(seen(1), *[seen(2)], k=seen(3), **{"m": seen(4)}, n=seen(5), **_Keys())
    return out, log


def test_keywords_and_star_stars_that_differ_are_merged_in_pythons_order():
    assert dual_run(keywords_in_order, 0)[1] == [1, 2, 3, 4, 5]


def test_a_call_keeps_pythons_own_argument_syntax():
    assert "ag__.callee(_collect, fscope)(a=1, **{'a': x})" in generated(keyword_and_a_repeating_star_star)


def _handed(x):
    def g(v):
        return v + 1
    return _collect(g, a=1, **{"a": x})


def test_a_star_star_beside_other_keywords_gives_its_parts_in_a_tuple_when_a_function_is_handed_over():
    assert "ag__.converted_call(_collect, (g,), ({'a': 1}, {'a': x}), fscope)" in generated(_handed)
    with pytest.raises(TypeError, match="multiple values for keyword argument 'a'"):
        ag.convert(_handed)(3)       # the generated code (conftest: run_generated_code)

"""`tf.strings.substr`, `regex_replace`, `regex_full_match` and `strip` give TensorFlow's answers: RE2's
matching (`.` a UTF-8 character, `$` the end of the text, `\\s` without `\\v`, no empty match where the last
match ended) and RE2's rewrite (`\\0`, `\\1`, `\\\\`). The expected values are TensorFlow 2.21's; the last test
compares with it where it is installed."""
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError

TEXTS = ["a\n", "üxü", "a\vb c", "x1y22z", "ab"]

REPLACEMENTS = {   # (pattern, rewrite, replace_global): TensorFlow's results on TEXTS
    ("a$", "Z", True): [b"a\n", b"\xc3\xbcx\xc3\xbc", b"a\x0bb c", b"x1y22z", b"ab"],
    (".", "-", True): [b"-\n", b"---", b"-----", b"------", b"--"],
    ("x*", "-", True): [b"-a-\n-", b"-\xc3\xbc-\xc3\xbc-", b"-a-\x0b-b- -c-", b"-1-y-2-2-z-", b"-a-b-"],
    (r"\s", "_", True): [b"a_", b"\xc3\xbcx\xc3\xbc", b"a\x0bb_c", b"x1y22z", b"ab"],
    (r"\d+", "#", False): [b"a\n", b"\xc3\xbcx\xc3\xbc", b"a\x0bb c", b"x#y22z", b"ab"],
    ("(a)(b)", r"\2\1", True): [b"a\n", b"\xc3\xbcx\xc3\xbc", b"a\x0bb c", b"x1y22z", b"ba"],
    ("b", r"[\0]\\", True): [b"a\n", b"\xc3\xbcx\xc3\xbc", b"a\x0b[b]\\ c", b"x1y22z", b"a[b]\\"],
    ("a|", "@", True): [b"@\n@", b"@\xc3\xbc@x@\xc3\xbc@", b"@\x0b@b@ @c@", b"@x@1@y@2@2@z@", b"@b@"],
}


@pytest.mark.parametrize("mode", ["eager", "traced"])
@pytest.mark.parametrize("case", list(REPLACEMENTS), ids=str)
def test_regex_replace_gives_re2s_answer(mode, case):
    pattern, rewrite, replace_global = case
    run = lambda x: tf.strings.regex_replace(x, pattern, rewrite, replace_global=replace_global)  # noqa: E731
    got = (run if mode == "eager" else tf.function(run))(tf.constant(TEXTS))
    assert got.numpy().tolist() == REPLACEMENTS[case]


def test_regex_full_match_matches_the_whole_text_with_res2_classes():
    assert tf.strings.regex_full_match(TEXTS, ".").numpy().tolist() == [False, False, False, False, False]
    assert tf.strings.regex_full_match(TEXTS, "...").numpy().tolist() == [False, True, False, False, False]
    assert tf.strings.regex_full_match(TEXTS, r"a\n?").numpy().tolist() == [True, False, False, False, False]


def test_patterns_re2_refuses_are_refused():
    for pattern in ("(", "a(?=b)", r"(a)\1"):
        with pytest.raises(InvalidArgumentError, match="invalid pattern"):
            tf.strings.regex_replace(["ab"], pattern, "x")
    with pytest.raises(InvalidArgumentError, match="asks for group 2"):
        tf.strings.regex_replace(["ab"], "(a)", r"\2")


@pytest.mark.parametrize("pos, length, unit, expected", [
    (0, 2, "BYTE", [b"ab", b"\xc3\xbc"]), (-2, 1, "BYTE", [b"b", b"\xc3"]), (1, -1, "BYTE", [b"bc", b"\xbcx\xc3\xbc"]),
    (-2, 1, "UTF8_CHAR", [b"b", b"x"]), (1, 10, "UTF8_CHAR", [b"bc", b"x\xc3\xbc"]), (0, -1, "UTF8_CHAR", [b"", b""]),
    (3, 1, "UTF8_CHAR", [b"", b""])])
def test_substr_counts_bytes_or_characters_from_either_end(pos, length, unit, expected):
    assert tf.strings.substr(["abc", "üxü"], pos, length, unit=unit).numpy().tolist() == expected


def test_substr_past_the_end_is_an_error_and_takes_positions_per_string():
    with pytest.raises(InvalidArgumentError, match="pos 4 out of range"):
        tf.strings.substr(["abc"], 4, 1)
    assert tf.strings.substr(["hello", "world"], [1, 2], [2, 3]).numpy().tolist() == [b"el", b"rld"]


def test_strip_removes_ascii_whitespace_at_both_ends():
    assert tf.strings.strip(["\v a b \f", " "]).numpy().tolist() == [b"a b", b""]


def test_the_answers_are_tensorflows():
    real = pytest.importorskip("tensorflow", reason="TensorFlow is not installed: the values above are its 2.21's")
    for (pattern, rewrite, replace_global), expected in REPLACEMENTS.items():
        got = real.strings.regex_replace(TEXTS, pattern, rewrite, replace_global=replace_global).numpy().tolist()
        assert got == expected, pattern
    assert real.strings.substr(["abc", "üxü"], 1, -1).numpy().tolist() == [b"bc", b"\xbcx\xc3\xbc"]

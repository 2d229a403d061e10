"""autograph.set_verbosity / get_verbosity / AUTOGRAPH_VERBOSITY (autograph/verbosity.py): what is logged
to the "autograph" logger at each level, and that nothing is built when the level is off."""
import logging
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

import autograph as ag
import runtime as tf
from autograph import verbosity


@pytest.fixture
def level():
    """Set the verbosity for one test; it is put back after."""
    before = ag.get_verbosity()
    yield ag.set_verbosity
    ag.set_verbosity(before)


def _messages(caplog, at=logging.DEBUG):
    return [r.getMessage() for r in caplog.records if r.name == "autograph" and r.levelno >= at]


def test_default_is_silent_and_levels_round_trip(level):
    assert ag.get_verbosity() == 0 or os.environ.get("AUTOGRAPH_VERBOSITY")
    level(2)
    assert ag.get_verbosity() == 2 and logging.getLogger("autograph").isEnabledFor(logging.DEBUG)
    level(1)
    assert not logging.getLogger("autograph").isEnabledFor(logging.DEBUG)
    with pytest.raises(ValueError):
        ag.set_verbosity(-1)


def test_level_1_logs_conversions_with_their_time_and_unconverted_helpers(level, caplog):
    def numbers(n):
        yield from range(n)

    def total(s, n):
        for i in numbers(n):
            s += i
        return s

    level(1)
    with caplog.at_level(logging.DEBUG, logger="autograph"):
        assert tf.function(total)(tf.constant(1), 4).numpy() == 7
    messages = _messages(caplog)
    converted = [m for m in messages if m.startswith("converted ") and "total" in m]
    assert converted and __file__ in converted[0] and converted[0].endswith(" ms")
    assert any("runs test_level_1_logs_conversions_with_their_time_and_unconverted_helpers.<locals>.numbers "
               "unconverted: a generator" in m for m in messages)
    assert not any(m.startswith("staged") for m in messages)         # level 2


def test_level_1_says_why_a_helper_that_cant_be_converted_runs_as_is(level, caplog):
    namespace = {}
    exec("def helper(x):\n    return x + 1\n", namespace)             # no source file: can't be converted

    def f(x):
        return namespace["helper"](x)

    level(1)
    with caplog.at_level(logging.INFO, logger="autograph"), pytest.warns(RuntimeWarning):
        assert tf.function(f)(tf.constant(1)).numpy() == 2
    assert any(m.startswith("runs helper unconverted: it can't be converted") for m in _messages(caplog))


def test_level_2_logs_each_staged_statement_once_with_the_users_line(level, caplog):
    def f(x):
        if x > 0 and x < 5:                      # line +1
            x = x * 2
        while x > 10:                            # line +3
            x -= 1
        y = 1 if x > 2 else 0                    # line +5
        for _ in tf.range(2):                    # line +6
            x += 1
        return x + y

    first = f.__code__.co_firstlineno
    level(2)
    with caplog.at_level(logging.DEBUG, logger="autograph"):
        assert tf.function(f)(tf.constant(3)).numpy() == 9
    staged = [m for m in _messages(caplog) if m.startswith("staged")]
    where = os.path.basename(__file__)
    expected = [("`and`", 1), ("`if`", 1), ("`while` loop", 3), ("`1 if x > 2 else 0`", 5), ("`for` loop", 6)]
    assert len(staged) == len(expected), staged
    for message, (what, offset) in zip(staged, expected):
        assert message.startswith(f"staged {what} at ") and f"{where}:{first + offset} " in message
    assert "carrying x" in staged[1]


def test_python_values_log_nothing_even_at_the_highest_level(level, caplog, monkeypatch):
    def f(x):
        if x > 0 and not x > 5:
            x = x * 2
        while x > 10:
            x -= 1
        return x

    converted = ag.convert(f)
    level(3)
    from autograph import api
    monkeypatch.setattr(api, "_run_generated_always", True)    # the generated code, on Python values
    with caplog.at_level(logging.DEBUG, logger="autograph"):
        assert converted(3) == 6
    assert not [m for m in _messages(caplog) if m.startswith("staged")]


def test_level_0_builds_no_message(level, monkeypatch):
    def fail(*args, **kwargs):
        raise AssertionError("a message was built at verbosity 0")

    monkeypatch.setattr(verbosity, "staged", fail)
    monkeypatch.setattr(verbosity.logger, "info", fail)
    monkeypatch.setattr(verbosity.logger, "debug", fail)
    level(0)

    def f(x):
        while x > 0:
            x -= 1
        return x and x

    assert tf.function(f)(tf.constant(3)).numpy() == 0


def test_level_3_logs_the_generated_code(level, caplog):
    def g(x):
        if x > 0:
            x = -x
        return x

    level(3)
    with caplog.at_level(logging.DEBUG, logger="autograph"):
        ag.convert(g)
    assert any(m.startswith("generated code of") and "ag__.if_stmt" in m for m in _messages(caplog))


def test_environment_variable_and_stderr_without_logging_configured(tmp_path):
    script = tmp_path / "prog.py"
    script.write_text(textwrap.dedent("""\
        import autograph as ag
        import runtime as tf

        print(ag.get_verbosity())

        @tf.function
        def f(x):
            while x > 0:
                x -= 1
            return x

        f(tf.constant(2))
        """))
    root = str(pathlib.Path(__file__).resolve().parents[2])       # this checkout's packages
    env = {**os.environ, "AUTOGRAPH_VERBOSITY": "2", "PYTHONPATH": root}
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "2\n"
    assert "autograph: converted f (" in result.stderr
    assert f"autograph: staged `while` loop at {script}:8 as runtime control flow, carrying x" in result.stderr

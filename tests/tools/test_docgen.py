"""docs/reference/ is what tools/docgen/reference.py generates from the current converter."""
from tools.docgen import reference
from tools.docgen.constructs import CONSTRUCTS


def test_reference_pages_are_current():
    stale = reference.stale(reference.pages())
    assert not stale, f"stale pages in docs/reference/: {stale}; regenerate them with: {reference.COMMAND}"


def test_every_construct_has_a_page_with_code_and_runs():
    pages = reference.pages()
    assert len(pages) == len(CONSTRUCTS) + 1
    for construct in CONSTRUCTS:
        text = pages[f"{construct.slug}.md"]
        assert "with ag__.FunctionScope(" in text and "## Running it" in text
        assert "differs from the original" not in text, construct.slug
        rows = [line for line in text.splitlines() if line.startswith("| `")]
        assert len(rows) == len(construct.python_calls) + len(construct.tensor_calls)
        raising = [row for row in rows if "Error:" in row]
        expected = [row for row in rows if any(f"`{call}`" in row or f"`tf.function({call.split('(')[0]})("
                                               f"{call.split('(', 1)[1]}`" in row for call in construct.raises)]
        assert raising == expected, construct.slug   # every example runs, but those shown raising on purpose


def test_check_mode_reports_a_stale_page(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(reference, "OUT", tmp_path)
    assert reference.main([]) == 0
    (tmp_path / "if.md").write_text("edited by hand\n")
    assert reference.main(["--check"]) == 1
    assert f"docs/reference/if.md is out of date; run: {reference.COMMAND}" in capsys.readouterr().err


def test_errors_page_is_current():
    from tools.docgen import errors
    assert errors.OUT.read_text() == errors.page(), \
        f"docs/errors.md is stale (the converter's messages changed); regenerate it with: {errors.COMMAND}"


def test_every_error_example_raises_and_every_fix_runs():
    from tools.docgen import errors
    assert errors.problems() == []


def test_every_autograph_error_class_is_on_the_errors_page():
    import inspect

    import autograph.errors
    from tools.docgen import errors
    classes = [name for name, cls in vars(autograph.errors).items()
               if inspect.isclass(cls) and issubclass(cls, autograph.errors.AutoGraphError)]
    text = errors.page()
    assert [name for name in classes if f"`{name}`" not in text] == []


def test_outputs_tool_refreshes_only_marked_blocks(tmp_path, capsys):
    from tools.docgen import outputs
    page = tmp_path / "page.md"
    page.write_text("```python\nprint(6 * 7)\n```\n\n<!-- output -->\n```text\n41\n```\n\n```text\nleft alone\n```\n")
    assert outputs.main(["--check", str(page)]) == 1
    assert f"run: {outputs.COMMAND} {page}" in capsys.readouterr().err
    assert outputs.main([str(page)]) == 0
    assert page.read_text() == ("```python\nprint(6 * 7)\n```\n\n<!-- output -->\n```text\n42\n```\n\n"
                                "```text\nleft alone\n```\n")
    assert outputs.main(["--check", str(page)]) == 0

"""Unit tests of the strict YAML loader, text normalisation, suggestions and decoders."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail.blocks import find_yaml_blocks
from pbem.mail.extract import decode_bytes, unflow
from pbem.mail.strict_yaml import OrdersYamlError, load_strict_yaml, normalise_text
from pbem.mail.suggest import suggest


def problems(text: str) -> list[tuple[str, int | None]]:
    with pytest.raises(OrdersYamlError) as info:
        load_strict_yaml(text)
    return [(p.code, p.line) for p in info.value.problems]


@pytest.mark.parametrize("text,expected", [
    ("a: no", {"a": "no"}), ("a: On", {"a": "On"}), ("a: y", {"a": "y"}),
    ("a: 010", {"a": "010"}), ("a: 0x1F", {"a": "0x1F"}), ("a: 1:30", {"a": "1:30"}),
    ("a: 2026-11-20", {"a": "2026-11-20"}), ("a: 2026-11-20T09:30:00Z", {"a": "2026-11-20T09:30:00Z"}),
    ("a: tRuE", {"a": True}), ("a: FALSE", {"a": False}), ("a: 0", {"a": 0}),
    ("a: +7", {"a": 7}), ("a: 1.25", {"a": 1.25}), ("a: 3e2", {"a": 300.0}),
    ("a:", {"a": None}), ("a: null", {"a": None}), ("<<: 1", {"<<": 1}),
    ("a: '010'", {"a": "010"}), ("a: \u201c12\u201d", {"a": "12"}), ("", None),
])
def test_strict_scalars(text: str, expected: object) -> None:
    assert load_strict_yaml(text) == expected


def test_explicit_int_tag_is_still_strict() -> None:
    assert problems("a: !!int 0x10") == [("yaml.syntax", 1)]
    assert load_strict_yaml("a: !!int '12'") == {"a": 12}


def test_duplicate_keys_all_reported_in_line_order() -> None:
    text = "a: 1\nb:\n  c: 1\n  c: 2\na: 3\n"
    assert problems(text) == [("yaml.duplicate_key", 4), ("yaml.duplicate_key", 5)]


def test_tab_problems_name_every_indentation_line() -> None:
    """Only tabs in the indentation are refused (issue 24 item 5): the one after the
    comma is read as a space, the quoted one is part of the value."""
    assert problems("a:\n\tb: 1\nc: [1,\t2]\nd: 'x\ty'\n\te: 1\n") == [("yaml.tab", 2), ("yaml.tab", 5)]


def test_tab_error_message() -> None:
    with pytest.raises(OrdersYamlError) as info:
        load_strict_yaml("a:\n  b: 1\n\tc: 2\n", mail_line_offset=4)
    message = info.value.problems[0].message
    assert message.startswith("line 3 (line 7 of your mail): a tab character")
    assert "spaces" in message


@pytest.mark.parametrize("text,line", [
    ("a: b: c\n", 1), ("a:\n  - x\n  y: 2\n", 3), ("a: [1, 2\nb: 3\n", 2),
    ("a: 'x\nb: 2\n", 3), ("a: @x\n", 1), ("a: 1\n b: 2\n", 2), ("? [a]\n: 1\n", None),
])
def test_syntax_errors_have_lines_and_plain_words(text: str, line: int | None) -> None:
    with pytest.raises(OrdersYamlError) as info:
        load_strict_yaml(text)
    problem = info.value.problems[-1]
    assert problem.code == "yaml.syntax"
    if line is not None:
        assert problem.line == line and f"line {line}" in problem.message
    assert "Traceback" not in problem.message


def test_second_document_is_refused() -> None:
    assert problems("a: 1\n---\nb: 2\n") == [("mail.two_documents", 3)]
    assert load_strict_yaml("a: 1\n---\n...\n") == {"a": 1}


def test_deep_nesting_does_not_crash() -> None:
    assert problems("a: " + "[" * 5000)[0][0] == "yaml.syntax"


def test_normalise_text() -> None:
    assert normalise_text("\ufeffa\u00a0b\u200bc\u2019d\u201ce\u201d\r\nf\rg") == "a bc'd\"e\"\nf\ng"
    assert normalise_text("\x93x\x94 \x96 \x85") == '"x" \u2013 \u2026'
    assert normalise_text("a\x00b\x1b\tc") == "ab\tc"


@settings(max_examples=200, deadline=None, database=None)
@given(st.text())
def test_normalise_text_is_idempotent(text: str) -> None:
    once = normalise_text(text)
    assert normalise_text(once) == once


@settings(max_examples=200, deadline=None, database=None)
@given(st.text(max_size=300))
def test_load_strict_yaml_raises_only_orders_yaml_error(text: str) -> None:
    try:
        load_strict_yaml(text)
    except OrdersYamlError as exc:
        assert exc.problems


@pytest.mark.parametrize("word,expected", [
    ("Pelusim", "Pelusium"), ("pelusium", "Pelusium"), ("GAZA", "Gaza"), ("Gazza", "Gaza"),
    ("Babylon", None), ("", None),
])
def test_suggest(word: str, expected: str | None) -> None:
    assert suggest(word, ["Pelusium", "Gaza", "Memphis", "Tyre"]) == expected


def test_unflow() -> None:
    assert unflow("a \nb\n c\n-- \nsig") == "a b\nc\n-- \nsig"
    assert unflow("wo \nrd", delsp=True) == "word"
    assert unflow("> a \n> b\nc") == "> a b\nc"
    assert unflow("> a \nb") == "> a \nb"


@pytest.mark.parametrize("data,label,expected", [
    (b"\x93hi\x94", "iso-8859-1", "\u201chi\u201d"),
    ("\u00e9".encode(), "iso-8859-1", "\u00e9"),
    (b"\xe9", "utf-8", "\ufffd"),
    (b"\xe9", "no-such-charset", "\u00e9"),
    (b"abc", "base64", "abc"),
    (b"\x81", None, ""),
])
def test_decode_bytes(data: bytes, label: str | None, expected: str) -> None:
    assert decode_bytes(data, label) == expected


def test_find_yaml_blocks_stops_at_chat() -> None:
    lines = ["Hello", "", "  game: a", "  seat: b", "", "    x: [1,", "2]", "Kleitos", "game: c"]
    blocks = find_yaml_blocks(lines)
    assert [(b.start, b.lines) for b in blocks] == [
        (2, ("game: a", "seat: b", "", "  x: [1,", "2]")), (8, ("game: c",))]

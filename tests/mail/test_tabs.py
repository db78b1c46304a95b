"""Tabs in orders (issue 24 item 5): the prompt and the docs forbid them in the
indentation only, so a tab that aligns end-of-line comments, sits inside a comment or
separates a key from its value is read as a space; a tab in the indentation keeps its
friendly ``yaml.tab`` answer."""

from __future__ import annotations

import pytest

from pbem.mail.message import ParsedMail, parse_mail
from pbem.mail.strict_yaml import OrdersYamlError, load_strict_yaml

from .clients import ORDERS
from .conftest import EXPECTED, raw_mail


def accepted(result: ParsedMail) -> dict:
    assert result.action == "accept", result.problems
    return result.document


def test_tabs_that_align_end_of_line_comments_are_accepted() -> None:
    lines = ORDERS.rstrip("\n").split("\n")
    body = "\n".join(line + "\t" * (1 + i % 3) + "# note" for i, line in enumerate(lines)) + "\n"
    assert accepted(parse_mail(raw_mail(body))) == EXPECTED


@pytest.mark.parametrize("line", [
    "    card: 12\t# my best card",             # between a value and its comment
    "    card: 12  # my\tbest\tcard",           # inside a comment
    "    card:\t12",                            # between a key and its value
    "    card: 12\t",                           # trailing
    "\t# a note\n    card: 12",                 # a comment-only line indented with a tab
    "    card: 12\n\t",                         # a line of white space only
])
def test_a_tab_that_is_not_indentation_is_a_space(line: str) -> None:
    body = ORDERS.replace("    card: 12", line)
    assert accepted(parse_mail(raw_mail(body))) == EXPECTED


@pytest.mark.parametrize("line", [
    "\tcard: 12",          # the indentation itself
    "  \t  card: 12",      # spaces and a tab
])
def test_a_tab_in_the_indentation_keeps_its_friendly_answer(line: str) -> None:
    result = parse_mail(raw_mail(ORDERS.replace("    card: 12", line)))
    assert [(p.code, p.line) for p in result.problems] == [("yaml.tab", 7)]
    assert "a tab character is used for indentation; YAML needs spaces" in result.problems[0].message
    assert "spaces" in result.problems[0].hint


def test_a_tab_after_a_list_marker_is_indentation() -> None:
    """``-<TAB>army:`` sets the column of the mapping after the marker."""
    body = ORDERS.replace("    - army: Ptolemy", "    -\tarmy: Ptolemy")
    assert [p.code for p in parse_mail(raw_mail(body)).problems] == ["yaml.tab"]


@pytest.mark.parametrize("text,value", [
    ('a: "x\ty"\t# c\n', "x\ty"),          # a tab inside a quoted value is the value's
    ("a: 'it''s\tx'\t# c\n", "it's\tx"),
    ('a: "q\\"\t"\t# c\n', 'q"\t'),
    ("a: Ptolemy's\tarmy\n", "Ptolemy's army"),  # an apostrophe is no quote
    ("a: [x,\ty]\n", ["x", "y"]),
])
def test_quoted_tabs_stay_and_others_are_spaces(text: str, value: object) -> None:
    assert load_strict_yaml(text) == {"a": value}


def test_every_indentation_tab_is_named_in_one_answer() -> None:
    with pytest.raises(OrdersYamlError) as info:
        load_strict_yaml("a:\n\tb: 1\t# one\nc:\n\t- 2\n", mail_line_offset=3)
    assert [(p.code, p.line) for p in info.value.problems] == [("yaml.tab", 2), ("yaml.tab", 4)]
    assert info.value.problems[0].message.startswith("line 2 (line 5 of your mail)")

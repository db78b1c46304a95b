"""Escapes to characters no mail can carry (issue 25 item 4): a lone surrogate written as
a YAML escape (``"\\ud800"``) sent the mail to quarantine as an internal error, from any
sender and again on every retry, because storing and answering the orders raised; an
escape past U+10FFFF was answered "we could not read your mail (internal error)". Both
are mistakes to answer: ``yaml.bad_character``, naming the line and the code point, in an
answer that can itself be encoded and sent."""

from __future__ import annotations

import pytest

from pbem.mail.message import parse_mail
from pbem.mail.strict_yaml import OrdersYamlError, load_strict_yaml, normalise_text

from .clients import ORDERS
from .conftest import EXPECTED, raw_mail

ESCAPES = {
    "\\ud800": "U+D800, a lone surrogate", "\\udfff": "U+DFFF, a lone surrogate",
    "\\udbff\\udfff": "U+DBFF, a lone surrogate",  # a pair as two escapes stays two halves
    "\\U0000D800": "U+D800, a lone surrogate",
    "\\U00110000": "beyond U+10FFFF", "\\UFFFFFFFF": "beyond U+10FFFF",
}


@pytest.mark.parametrize("escape", list(ESCAPES))
@pytest.mark.parametrize("where", ["value", "key", "envelope"])
def test_an_escape_to_a_character_no_mail_can_carry_is_a_mistake_to_answer(escape: str, where: str) -> None:
    body = {"value": ORDERS.replace("use: garrisons", f'use: "garrisons{escape}"'),
            "key": ORDERS.replace("use: garrisons", f'"use{escape}": garrisons'),
            "envelope": ORDERS.replace("seat: north", f'seat: "north{escape}"')}[where]
    result = parse_mail(raw_mail("Orders:\n\n" + body))
    assert result.action == "reject" and result.document is None
    [problem] = result.problems
    line = 2 if where == "envelope" else 8
    assert problem.code == "yaml.bad_character" and problem.line == line
    assert problem.message.startswith(f"line {line} (line {line + 2} of your mail): ")
    assert ESCAPES[escape] in problem.message and "escape" in problem.hint
    for text in (problem.message, problem.hint, result.orders_text):
        text.encode("utf-8")  # the answer quoting them can be sent


def test_every_value_with_a_lone_surrogate_is_named() -> None:
    with pytest.raises(OrdersYamlError) as info:
        load_strict_yaml('a: "x\\ud800"\nb: ["ok", "\\udc00"]\nc: {"\\ud9ff": 1}\nd: fine\n')
    assert [(p.code, p.line) for p in info.value.problems] == [("yaml.bad_character", n) for n in (1, 2, 3)]


@pytest.mark.parametrize("escape,value", [
    ("\\t", "a\tb"), ("\\n", "a\nb"), ("\\_", "a\u00a0b"), ("\\u00e9", "a\u00e9b"),
    ("\\U0001F600", "a\U0001F600b"), ("\\U0010FFFF", "a\U0010ffffb"),
    # control characters are carried by every later stage and dropped from answers and
    # relays (tests/service/test_break16.py): read as before
    ("\\0", "a\x00b"), ("\\e", "a\x1bb"), ("\\r", "a\rb"), ("\\uffff", "a\uffffb"),
])
def test_escapes_to_characters_mail_can_carry_are_read(escape: str, value: str) -> None:
    assert load_strict_yaml(f'a: "a{escape}b"\n') == {"a": value}


def test_a_raw_surrogate_or_noncharacter_in_the_text_is_dropped_not_an_internal_error() -> None:
    """An HTML body's ``&#xFFFF;`` gave PyYAML's reader an error: ``mail.unreadable``,
    "Internal error: ReaderError"."""
    html = ("<div>game: alexandria-1</div><div>seat: north&#xd800;</div><div>key: olive-lamp-42&#xFFFF;</div>"
            "<div>step: 7</div><div>orders:</div><div>&nbsp; movement: none</div>")
    result = parse_mail(raw_mail(html, content_type="text/html; charset=utf-8"))
    assert result.action == "accept", result.problems
    assert result.document["seat"].startswith("north")  # html2text gives U+FFFD for this one
    assert result.document["key"] == "olive-lamp-42"
    assert normalise_text("a\ud800b\ufffec\uffff") == "abc"


def test_orders_without_escapes_are_unchanged() -> None:
    assert parse_mail(raw_mail(ORDERS)).document == EXPECTED

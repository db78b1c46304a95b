"""Finding the orders block in what mail clients really send (issue 24 items 2 and 4):
a line the client broke is rejoined or refused by name, never a silent cut; the judge's
own mail below a reply is recognised by its content, whatever language the client's
header block is in."""

from __future__ import annotations

import email
import email.policy
import re
from pathlib import Path

import pytest

from pbem.mail.blocks import find_yaml_blocks
from pbem.mail.extract import author_lines
from pbem.mail.message import ParsedMail, parse_mail
from pbem.mail.strict_yaml import normalise_text

from .clients import ORDERS, OUTLOOK_HEADERS, outlook_reply, outlook_wrap
from .conftest import EXPECTED, raw_mail

GOLDEN = Path(__file__).resolve().parents[1] / "report" / "golden"
#: The judge's real prompts (rendered by tests/report from the templates).
PROMPTS = {name: (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")
           for name in ("setup_prompt", "later_prompt")}
#: The judge's receipts, rejection and reminder as rendered (blocks separated by "=====").
SMALL_MAILS = (GOLDEN / "small_mails.txt").read_text(encoding="utf-8").split("\n=====\n")


def accepted(result: ParsedMail) -> dict:
    assert result.action == "accept", result.problems
    return result.document


def codes(result: ParsedMail) -> list[str]:
    return [p.code for p in result.problems]


# --- 24.2: a line the mail client broke ----------------------------------------------

LONG_COMMENT = ORDERS.replace(
    "    places: [Pelusium, Gaza]",
    "    places: [Pelusium, Gaza]   # two garrisons to hold the coast road against Perdikkas and his fleet")


def test_outlook_wrapped_end_of_line_comment_keeps_the_orders_below_it() -> None:
    body = outlook_wrap(LONG_COMMENT)
    assert "\nagainst Perdikkas and his fleet\n  movement:" in body  # Outlook's wrap: column 0, unmarked
    assert accepted(parse_mail(raw_mail(body))) == EXPECTED


def test_the_wrapped_words_are_rejoined_to_the_comment_they_continue() -> None:
    lines = outlook_wrap(LONG_COMMENT).rstrip("\n").split("\n")
    [block] = find_yaml_blocks(lines)
    assert block.lines[8].endswith("# two garrisons to hold the coast road against Perdikkas and his fleet")
    assert block.lines[9] == ""  # the line count stays: problems name the right mail line
    assert block.rejoined == (9,) and block.stray == ()
    assert len(block.lines) == len(lines)


def test_a_whole_line_comment_wrapped_twice_is_rejoined() -> None:
    comment = ("  # " + "the coast road matters more than anything else this turn " * 3).rstrip()
    body = outlook_wrap(ORDERS.replace("  movement:\n", comment + "\n  movement:\n"))
    assert body.count("\n") >= ORDERS.count("\n") + 3
    assert accepted(parse_mail(raw_mail(body))) == EXPECTED


def test_outlook_reply_with_a_wrapped_comment_is_read_whole() -> None:
    raw = outlook_reply(LONG_COMMENT, PROMPTS["later_prompt"], locale="english")
    assert accepted(parse_mail(raw)) == EXPECTED


def test_a_stray_line_inside_the_block_is_refused_by_name() -> None:
    body = "My orders:\n\n" + ORDERS.replace("  movement:\n", "and then I march\n  movement:\n")
    result = parse_mail(raw_mail(body))
    assert result.action == "reject" and codes(result) == ["mail.stray_line"]
    [problem] = result.problems
    assert "line 12 of your mail" in problem.message and "'and then I march'" in problem.message
    assert "wrapped" in problem.hint
    assert result.document is None


def test_a_stray_line_and_a_yaml_mistake_come_back_in_one_answer() -> None:
    body = ORDERS.replace("  movement:\n", "and then I march\n  movement:\n").replace(
        "[Memphis, Pelusium]", "[Memphis, Pelusium")
    result = parse_mail(raw_mail(body))
    assert codes(result) == ["mail.stray_line", "yaml.syntax"]


def test_prose_between_the_envelope_and_the_orders_is_refused_not_cut() -> None:
    body = ORDERS.replace("orders:\n", "Here are my orders for this turn\norders:\n")
    result = parse_mail(raw_mail(body))
    assert codes(result) == ["mail.stray_line"]
    assert "'Here are my orders for this turn'" in result.problems[0].message


def test_a_long_value_wrapped_at_the_end_of_the_block_is_refused() -> None:
    salt = "salt: the wine dark sea and the long road from Memphis to Pelusium in the rain"
    body = outlook_wrap(ORDERS + salt + "\n") + "\nKleitos\n"
    assert "\nrain\n" in body
    result = parse_mail(raw_mail(body))
    assert codes(result) == ["mail.stray_line"] and "'rain'" in result.problems[0].message


@pytest.mark.parametrize("after", [
    "Kleitos\n",                                   # a sign-off right below the orders
    "Kleitos\nPS: sorry for the delay\n",          # then a postscript
    "\nKleitos\nMy plan:\n  - hold the coast\n",   # prose with an indented list after a gap
    "Cheers\n  Kleitos\n",
    "Thanks, and good luck to everyone at the table this week!\n",
])
def test_text_after_the_orders_still_ends_the_block(after: str) -> None:
    assert accepted(parse_mail(raw_mail(ORDERS + after))) == EXPECTED


def test_a_wrapped_comment_on_the_last_line_is_harmless() -> None:
    body = outlook_wrap(ORDERS.replace(
        "path: [Memphis, Pelusium]",
        "path: [Memphis, Pelusium]   # through the desert road, as Perdikkas did last year")) + "\nKleitos\n"
    assert accepted(parse_mail(raw_mail(body))) == EXPECTED


# --- 24.4: the judge's own mail below an unquoted reply, in any language ---------------

@pytest.mark.parametrize("separator", [True, False], ids=["underscores", "no-separator"])
@pytest.mark.parametrize("locale", list(OUTLOOK_HEADERS))
def test_outlook_reply_over_the_prompt_in_any_language(locale: str, separator: bool) -> None:
    raw = outlook_reply(ORDERS + "\nKleitos\n", PROMPTS["later_prompt"], locale=locale, separator=separator)
    assert accepted(parse_mail(raw)) == EXPECTED


@pytest.mark.parametrize("locale", ["japanese", "german", "russian", "arabic"])
def test_outlook_reply_without_a_sign_off_keeps_the_header_block_out(locale: str) -> None:
    """Nothing between the orders and the client's header block: its "label: value"
    lines would read as YAML keys of the orders."""
    raw = outlook_reply(ORDERS, PROMPTS["setup_prompt"], locale=locale, separator=False)
    assert accepted(parse_mail(raw)) == EXPECTED


@pytest.mark.parametrize("index", range(len(SMALL_MAILS)))
def test_outlook_reply_over_any_other_judge_mail(index: int) -> None:
    earlier = SMALL_MAILS[index].replace("orders:\n", "game: golden\nseat: east\nkey: north-key\nstep: 3\norders:\n")
    raw = outlook_reply(ORDERS, earlier, locale="japanese", separator=False)
    assert accepted(parse_mail(raw)) == EXPECTED


def test_the_judge_text_is_set_aside_from_its_header_block_on() -> None:
    raw_text = outlook_reply(ORDERS + "\nKleitos\n", PROMPTS["later_prompt"], locale="japanese",
                             separator=True).decode()
    body = parse_body_lines(raw_text)
    author = author_lines("\n".join(body))
    own = [line for line in author.lines if line]
    assert own[-1] == "Kleitos"
    assert author.earlier_at is not None and body[author.earlier_at] == "_" * 32
    assert author.judge_at is not None and body[author.judge_at].startswith("golden, step 9: your move")
    assert "差出人: pbem judge <judge@pbem.example>" in author.quoted


def parse_body_lines(raw_text: str) -> list[str]:
    """The decoded text lines of a quoted-printable single-part mail."""
    msg = email.message_from_string(raw_text, policy=email.policy.default)
    return normalise_text(msg.get_content()).split("\n")


def test_orders_written_into_the_judge_mail_are_refused_with_a_way_out() -> None:
    """The template edited in place below the client's header block is the judge's text,
    as it is below an English "From:" block or a "> " quote; the answer says where to
    write instead."""
    edited = PROMPTS["setup_prompt"].replace("key: YOUR-SEAT-KEY", "key: north-key")
    result = parse_mail(outlook_reply("Here you go.", edited, locale="japanese"))
    assert codes(result) == ["mail.no_orders"]
    text = (result.problems[0].message + " " + result.problems[0].hint).lower()
    assert "judge's own mail" in text and "above" in text


def test_a_player_who_copies_only_the_block_is_read() -> None:
    block = PROMPTS["setup_prompt"].split("\n\n")
    template = next(p for p in block if p.startswith("game: golden"))
    body = "Turn order:\n\n" + template.replace("YOUR-SEAT-KEY", "east-key") + "\n"
    assert accepted(parse_mail(raw_mail(body)))["orders"] == {"first_player": "east"}


@pytest.mark.parametrize("locale", ["japanese", "german", "arabic"])
def test_outlook_html_reply_over_the_html_prompt(locale: str) -> None:
    """Outlook's HTML reply: the orders as one <div> per line, its header block (labels in
    bold, the client's language) and the judge's HTML prompt, all unquoted."""
    prompt = (GOLDEN / "later_prompt.html").read_text(encoding="utf-8")
    fields = OUTLOOK_HEADERS[locale].format(sender="pbem judge &lt;judge@pbem.example&gt;",
                                            to="Kleitos &lt;north@players.example&gt;",
                                            subject="[golden] step 9: your move, east").split("\n")
    header = "<br>".join("<b>{}</b>{}".format(*re.match(r"([^:]+:)(.*)", f).groups()) for f in fields)
    html = ("<html><body><div>" + ORDERS.replace(" ", "&nbsp;").replace("\n", "<br>\n")
            + '</div><div id="appendonsend"></div><hr style="display:inline-block;width:98%">'
            f'<div id="divRplyFwdMsg"><font face="Calibri">{header}</font></div>'
            + prompt[prompt.index("<body>") + len("<body>"):])
    result = parse_mail(raw_mail(html, content_type="text/html; charset=utf-8"))
    assert accepted(result) == EXPECTED

"""More instances of each kind of fault the shared cases stand for."""

from __future__ import annotations

import base64
import quopri
from email.message import EmailMessage
from email.policy import SMTP

import pytest

from pbem.mail.message import ParsedMail, parse_mail

from .clients import DEFAULT_REPORT, ORDERS
from .conftest import EXPECTED, raw_mail

OLD_ORDERS = ORDERS.replace("card: 12", "card: 9")


def quote(text: str) -> str:
    return "\n".join("> " + line if line else ">" for line in text.rstrip("\n").split("\n"))


def text_of(result: ParsedMail) -> str:
    return " ".join(f"{p.code} {p.message} {p.hint or ''}" for p in result.problems).lower()


def accepted(result: ParsedMail) -> dict:
    assert result.action == "accept", result.problems
    return result.document


# --- reply headers ------------------------------------------------------------------

REPLY_HEADERS = {
    "english": "On Fri, 20 Nov 2026 at 08:00, pbem judge <judge@pbem.example> wrote:",
    "english-3-lines": "On Fri, 20 Nov 2026 at 08:00,\npbem judge\n<judge@pbem.example> wrote:",
    "german": "Am 20.11.2026 um 08:00 schrieb pbem judge <judge@pbem.example>:",
    "german-split": "Am Fr., 20. Nov. 2026 um 08:00 Uhr schrieb pbem judge <\njudge@pbem.example>:",
    "french": "Le ven. 20 nov. 2026 à 08:00, pbem judge <judge@pbem.example> a écrit :",
    "spanish": "El vie, 20 nov 2026 a las 08:00, pbem judge (<judge@pbem.example>) escribió:",
    "italian": "Il giorno ven 20 nov 2026 alle ore 08:00 pbem judge <judge@pbem.example> ha scritto:",
    "dutch": "Op vr 20 nov. 2026 om 08:00 schreef pbem judge <judge@pbem.example>:",
    "russian-gmail": "пт, 20 нояб. 2026 г. в 08:00, pbem judge <judge@pbem.example>:",
    "russian-thunderbird": "20.11.2026 08:00, pbem judge пишет:",
    "russian-apple": "20 нояб. 2026 г., в 08:00, pbem judge <judge@pbem.example> написал(а):",
    "polish": "W dniu 20.11.2026 o 08:00, pbem judge pisze:",
    "iso-date": "2026-11-20 8:00 GMT+01:00, pbem judge <judge@pbem.example>:",
}


@pytest.mark.parametrize("header", list(REPLY_HEADERS.values()), ids=list(REPLY_HEADERS))
def test_top_posted_over_localised_reply_header(header: str) -> None:
    body = f"{ORDERS}\nKleitos\n\n{header}\n{quote(OLD_ORDERS)}\n"
    assert accepted(parse_mail(raw_mail(body))) == EXPECTED


@pytest.mark.parametrize("header", list(REPLY_HEADERS.values()), ids=list(REPLY_HEADERS))
def test_bottom_posted_below_localised_reply_header(header: str) -> None:
    body = f"{header}\n{quote(OLD_ORDERS)}\n\n{ORDERS}\nKleitos\n"
    assert accepted(parse_mail(raw_mail(body))) == EXPECTED


@pytest.mark.parametrize("header", [h for k, h in REPLY_HEADERS.items()
                                    if k in ("english", "german", "french", "spanish")])
def test_unquoted_text_below_a_reply_header_is_never_read(header: str) -> None:
    body = f"{ORDERS}\n{header}\n\n{OLD_ORDERS}"
    assert accepted(parse_mail(raw_mail(body))) == EXPECTED


def test_interleaved_quote_between_chat_and_orders() -> None:
    body = (f"{REPLY_HEADERS['english']}\n> your move, north.\n\nFine.\n\n"
            f"> Template:\n{quote(OLD_ORDERS)}\n\n{ORDERS}")
    assert accepted(parse_mail(raw_mail(body))) == EXPECTED


def test_orders_only_in_the_quote_are_rejected_and_say_so() -> None:
    body = f"Thanks!\n\n{REPLY_HEADERS['english']}\n{quote(DEFAULT_REPORT)}\n"
    result = parse_mail(raw_mail(body))
    assert result.action == "reject"
    assert result.problems[0].code == "mail.no_orders"
    assert "quote" in text_of(result)


def test_chat_line_ending_in_colon_is_not_a_reply_header() -> None:
    body = f"Here is what I decided on 20.11.2026:\n\n{ORDERS}"
    assert accepted(parse_mail(raw_mail(body))) == EXPECTED


# --- Outlook and original-message blocks --------------------------------------------

OUTLOOK_BLOCKS = {
    "english": ("________________________________\nFrom: pbem judge <judge@pbem.example>\n"
                "Sent: Friday, November 20, 2026 8:00 AM\nTo: Kleitos <north@players.example>\n"
                "Subject: [alexandria-1] your move (step 7)\n"),
    "german": ("Von: pbem judge <judge@pbem.example>\nGesendet: Freitag, 20. November 2026 08:00\n"
               "An: Kleitos <north@players.example>\nBetreff: [alexandria-1] your move\n"),
    "french": ("De : pbem judge <judge@pbem.example>\nEnvoyé : vendredi 20 novembre 2026 08:00\n"
               "À : Kleitos <north@players.example>\nObjet : [alexandria-1] your move\n"),
    "original-message": "-----Original Message-----\nFrom: judge@pbem.example\n",
    "original-message-only": "-----Original Message-----\n",
    "ursprüngliche": "-----Ursprüngliche Nachricht-----\n",
}


@pytest.mark.parametrize("block", list(OUTLOOK_BLOCKS.values()), ids=list(OUTLOOK_BLOCKS))
def test_unquoted_outlook_block_ends_the_authors_text(block: str) -> None:
    body = f"{ORDERS}\nKleitos\n\n{block}\n{DEFAULT_REPORT}"
    assert accepted(parse_mail(raw_mail(body))) == EXPECTED


@pytest.mark.parametrize("extra", [
    "  march:\n    from: Memphis\n    to: Pelusium\n    date: 2026\n",
    "  sent:\n    - from: Memphis\n      to: Gaza\n      subject: grain\n",
    "  note: Sent from my tent\n",
])
def test_orders_keys_that_look_like_mail_headers(extra: str) -> None:
    result = parse_mail(raw_mail(f"{ORDERS}{extra}\n{OUTLOOK_BLOCKS['english']}\n{OLD_ORDERS}"))
    document = accepted(result)
    assert len(document["orders"]) == 3


def test_outlook_html_reply() -> None:
    html = (
        "<html><body><div>" + ORDERS.replace(" ", "&nbsp;").replace("\n", "<br>\n")
        + "</div><div id=\"appendonsend\"></div><hr style=\"display:inline-block;width:98%\">"
        "<div id=\"divRplyFwdMsg\"><font face=\"Calibri\"><b>From:</b> pbem judge "
        "&lt;judge@pbem.example&gt;<br><b>Sent:</b> Friday, November 20, 2026 8:00 AM<br>"
        "<b>To:</b> Kleitos<br><b>Subject:</b> your move</font></div><div>"
        + OLD_ORDERS.replace(" ", "&nbsp;").replace("\n", "<br>\n") + "</div></body></html>"
    )
    result = parse_mail(raw_mail(html, content_type="text/html; charset=utf-8"))
    assert accepted(result) == EXPECTED


# --- forwarded mail -----------------------------------------------------------------

FORWARD_MARKERS = [
    ("---------- Forwarded message ---------\nFrom: Kleitos <other@players.example>\n"
     "Date: Fri, 20 Nov 2026 at 08:00\nSubject: orders\nTo: <judge@pbem.example>\n"),
    "-------- Forwarded Message --------\nSubject: orders\n",
    "Begin forwarded message:\n\nFrom: Kleitos <other@players.example>\n",
    "---------- Weitergeleitete Nachricht ---------\nVon: Kleitos <other@players.example>\n",
    "-------- Message transféré --------\nSujet : orders\n",
]


@pytest.mark.parametrize("marker", FORWARD_MARKERS)
def test_orders_in_an_inline_forwarded_block_are_rejected(marker: str) -> None:
    body = f"Forwarding my orders from my other account.\n\n{marker}\n{ORDERS}"
    result = parse_mail(raw_mail(body, subject="Fwd: orders"))
    assert result.action == "reject"
    assert result.problems[0].code == "mail.forwarded"
    assert "forward" in text_of(result)


def test_outlook_forward_is_a_forward() -> None:
    body = f"FYI\n\n{OUTLOOK_BLOCKS['english']}\n{ORDERS}"
    result = parse_mail(raw_mail(body, subject="FW: orders"))
    assert result.problems[0].code == "mail.forwarded"


def test_own_orders_with_a_forwarded_block_below_are_accepted() -> None:
    body = f"{ORDERS}\n{FORWARD_MARKERS[0]}\n{OLD_ORDERS}"
    assert accepted(parse_mail(raw_mail(body))) == EXPECTED


def test_forwarded_rfc822_attachment_with_orders_in_html() -> None:
    inner = EmailMessage()
    inner["From"] = "Kleitos <other@players.example>"
    inner["Subject"] = "orders"
    inner.set_content("<pre>" + ORDERS + "</pre>", subtype="html")
    outer = EmailMessage()
    outer["From"] = "Kleitos <north@players.example>"
    outer["To"] = "judge@pbem.example"
    outer["Subject"] = "Fwd: orders"
    outer.set_content("see attached")
    outer.add_attachment(inner)
    result = parse_mail(outer.as_bytes(policy=SMTP))
    assert result.problems[0].code == "mail.forwarded"


# --- MIME structure, charsets, encodings --------------------------------------------

def _alternative(plain: str, html: str, *, plain_cte: str = "7bit") -> bytes:
    body = (
        "--alt\r\nContent-Type: text/plain; charset=utf-8\r\n"
        f"Content-Transfer-Encoding: {plain_cte}\r\n\r\n{plain}\r\n"
        "--alt\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
        f"{html}\r\n--alt--\r\n"
    )
    return raw_mail(body, content_type='multipart/alternative; boundary="alt"', cte="7bit")


@pytest.mark.parametrize("plain", ["", "\r\n\r\n   \r\n", "\u00a0"])
def test_html_alternative_used_when_text_part_is_empty(plain: str) -> None:
    html = f"<html><body><pre>{ORDERS}</pre></body></html>"
    assert accepted(parse_mail(_alternative(plain, html))) == EXPECTED


def test_text_alternative_preferred_over_html() -> None:
    html = f"<html><body><pre>{OLD_ORDERS}</pre></body></html>"
    assert accepted(parse_mail(_alternative(ORDERS, html))) == EXPECTED


def test_html_with_div_lines_and_markdown_like_characters() -> None:
    orders = ORDERS + "notes:\n  - 1. hold *Pella*\n  - + watch_Gaza_\n"
    html = "".join(f"<div>{line.replace(' ', '&nbsp;')}</div>" for line in orders.split("\n"))
    result = parse_mail(raw_mail(html, content_type="text/html; charset=utf-8"))
    assert accepted(result)["notes"] == ["1. hold *Pella*", "+ watch_Gaza_"]


@pytest.mark.parametrize("label", ["x-unknown-8bit", "utf-9", "base64", "\"\"", "unknown"])
def test_unknown_charset_label_never_crashes(label: str) -> None:
    body = ("Orders \u2013 \u201cgood luck\u201d\n\n" + ORDERS.replace("  ", "\u00a0 ")).encode()
    result = parse_mail(raw_mail(body, content_type=f"text/plain; charset={label}"))
    assert accepted(result) == EXPECTED


@pytest.mark.parametrize("label", ["iso-8859-1", "latin1", "us-ascii", "ISO_8859-1"])
def test_cp1252_bytes_under_a_latin1_label(label: str) -> None:
    body = "Orders \u2013 \u201cgood luck\u201d\n\n".encode("cp1252") + ORDERS.replace(
        "use: garrisons", "use: \u2018garrisons\u2019").encode("cp1252")
    result = parse_mail(raw_mail(body, content_type=f"text/plain; charset={label}"))
    assert accepted(result) == EXPECTED


def test_quoted_printable_cp1252_curly_quotes() -> None:
    body = quopri.encodestring(ORDERS.replace("card: 12", "card: \u201c12\u201d").encode(
        "cp1252")).decode("ascii")
    result = parse_mail(raw_mail(body, content_type="text/plain; charset=windows-1252",
                                 cte="quoted-printable"))
    assert accepted(result)["orders"]["tyche"]["card"] == "12"


def test_utf8_bytes_under_a_latin1_label() -> None:
    body = ORDERS.replace("  ", "\u00a0 ").encode("utf-8")
    result = parse_mail(raw_mail(body, content_type="text/plain; charset=iso-8859-1"))
    assert accepted(result) == EXPECTED


def test_base64_utf16_label() -> None:
    body = base64.encodebytes(ORDERS.encode("utf-16")).decode("ascii")
    result = parse_mail(raw_mail(body, content_type="text/plain; charset=utf-16",
                                 cte="base64"))
    assert accepted(result) == EXPECTED


def test_base64_with_broken_padding_does_not_crash() -> None:
    body = base64.b64encode(ORDERS.encode()).decode()[:-3]
    result = parse_mail(raw_mail(body, cte="base64"))
    assert result.action in ("accept", "reject")


def test_no_mime_headers_at_all() -> None:
    assert accepted(parse_mail(raw_mail(ORDERS, content_type=""))) == EXPECTED


# --- format=flowed (RFC 3676) -------------------------------------------------------

def test_flowed_delsp_yes_joins_without_the_space() -> None:
    body = ORDERS.replace("path: [Memphis, Pelusium]", "path: [Memphis, Pelu \nsium]")
    body = "\n".join((" " + line) if line.startswith(" ") else line for line in body.split("\n"))
    result = parse_mail(raw_mail(body, content_type="text/plain; charset=utf-8; "
                                 "format=flowed; delsp=yes"))
    assert accepted(result) == EXPECTED


def test_flowed_delsp_no_keeps_the_space() -> None:
    body = ORDERS.replace("places: [Pelusium, Gaza]", "places: [Pelusium, \nGaza]")
    result = parse_mail(raw_mail(body, content_type="text/plain; format=flowed"))
    assert accepted(result) == EXPECTED


def test_flowed_signature_separator_is_not_a_soft_break() -> None:
    body = ORDERS + "\n-- \nKleitos\n"
    result = parse_mail(raw_mail(body, content_type="text/plain; format=flowed"))
    assert accepted(result) == EXPECTED


def test_hard_wrapped_flow_list_continues_the_block() -> None:
    body = ORDERS.replace("places: [Pelusium, Gaza]", "places: [Pelusium,\nGaza]")
    assert accepted(parse_mail(raw_mail(body))) == EXPECTED


# --- PGP, signatures, trailers ------------------------------------------------------

def test_pgp_encrypted_inline_is_reported() -> None:
    body = "-----BEGIN PGP MESSAGE-----\n\nhQEMA0xyz\n=abcd\n-----END PGP MESSAGE-----\n"
    result = parse_mail(raw_mail(body))
    assert result.problems[0].code == "mail.encrypted"


def test_pgp_mime_signed_reads_the_signed_part() -> None:
    body = (
        "--sig\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + ORDERS.replace(
            "\n", "\r\n") + "\r\n--sig\r\nContent-Type: application/pgp-signature\r\n\r\n"
        "-----BEGIN PGP SIGNATURE-----\r\nabc\r\n-----END PGP SIGNATURE-----\r\n--sig--\r\n")
    result = parse_mail(raw_mail(body, content_type='multipart/signed; boundary="sig"; '
                                 'protocol="application/pgp-signature"', cte="7bit"))
    assert accepted(result) == EXPECTED


@pytest.mark.parametrize("trailer", [
    "Sent from my iPhone", "Sent from my Galaxy", "Get Outlook for Android",
    "Von meinem iPhone gesendet", "Envoyé de mon iPad", "Enviado desde mi iPhone",
    "--\nKleitos", "-- \nKleitos\nPella, Macedon\ngame: not-mine",
])
def test_trailers_after_the_orders(trailer: str) -> None:
    assert accepted(parse_mail(raw_mail(f"{ORDERS}{trailer}\n"))) == EXPECTED


def test_iphone_trailer_directly_after_orders_before_quote() -> None:
    body = f"{ORDERS}\nSent from my iPhone\n\n> On 20 Nov 2026, at 08:00, judge wrote:\n>\n{quote(OLD_ORDERS)}"
    assert accepted(parse_mail(raw_mail(body))) == EXPECTED


# --- the YAML block inside the text -------------------------------------------------

def test_two_orders_blocks_are_an_error() -> None:
    body = f"First try:\n\n{OLD_ORDERS}\nNo wait, this:\n\n{ORDERS}"
    result = parse_mail(raw_mail(body))
    assert result.action == "reject"
    assert [p.code for p in result.problems] == ["mail.two_documents"]


def test_two_documents_separated_by_dashes_are_an_error() -> None:
    result = parse_mail(raw_mail(f"---\n{OLD_ORDERS}---\n{ORDERS}"))
    assert [p.code for p in result.problems] == ["mail.two_documents"]


def test_document_start_marker_before_the_block_is_fine() -> None:
    assert accepted(parse_mail(raw_mail(f"---\n{ORDERS}...\nbye\n"))) == EXPECTED


@pytest.mark.parametrize("value,expected", [
    ("yes", "yes"), ("on", "on"), ("off", "off"), ("No", "No"), ("Y", "Y"),
    ("0x1F", "0x1F"), ("0o17", "0o17"), ("010", "010"), ("1_000", "1_000"),
    ("2026-11-20", "2026-11-20"), ("2026-11-20 09:30:00", "2026-11-20 09:30:00"),
    ("1:30:00", "1:30:00"), ("TRUE", True), ("False", False), ("12", 12), ("-3", -3),
    ("1.5", 1.5), ("~", None), (".inf", ".inf"),
])
def test_scalars_keep_what_the_player_typed(value: str, expected: object) -> None:
    result = parse_mail(raw_mail(f"{ORDERS}  extra:\n    value: {value}\n"))
    assert accepted(result)["orders"]["extra"]["value"] == expected


def test_duplicate_nested_keys_name_the_key_and_line() -> None:
    body = ORDERS.replace("    - army: Ptolemy\n", "    - army: Ptolemy\n      army: Seleukos\n")
    result = parse_mail(raw_mail(body))
    assert [p.code for p in result.problems] == ["yaml.duplicate_key"]
    assert "'army'" in result.problems[0].message
    assert result.problems[0].line == 12
    assert "line 12" in result.problems[0].message


def test_every_duplicate_is_reported() -> None:
    body = ORDERS.replace("step: 7\n", "step: 7\nseat: south\n") + "step: 8\n"
    result = parse_mail(raw_mail(body))
    assert sorted(p.line for p in result.problems) == [5, 14]


def test_tab_in_a_flow_sequence_line_is_a_space() -> None:
    """Not indentation, so not refused (issue 24 item 5; before, ``yaml.tab``)."""
    body = ORDERS.replace("places: [Pelusium, Gaza]", "places: [Pelusium,\tGaza]")
    assert accepted(parse_mail(raw_mail(body))) == EXPECTED


def test_every_tab_line_is_reported_with_mail_line_too() -> None:
    body = "Orders:\n\n" + ORDERS.replace("    card", "\tcard").replace("    use", "\t use")
    result = parse_mail(raw_mail(body))
    assert [(p.code, p.line) for p in result.problems] == [("yaml.tab", 7), ("yaml.tab", 8)]
    assert "line 7 (line 9 of your mail)" in result.problems[0].message


def test_syntax_error_names_the_line_in_plain_language() -> None:
    body = "Orders:\n\n" + ORDERS.replace("places: [Pelusium, Gaza]", "places: [Pelusium, Gaza")
    result = parse_mail(raw_mail(body))
    assert [p.code for p in result.problems] == ["yaml.syntax"]
    assert "line 10 (line 12 of your mail)" in result.problems[0].message
    assert "]" in result.problems[0].message
    assert result.orders_text is not None and result.orders_text.startswith("game:")


def test_zero_width_space_inside_a_key() -> None:
    body = ORDERS.replace("card:", "ca\u200brd:").replace("seat", "se\u2060at")
    assert accepted(parse_mail(raw_mail(body))) == EXPECTED


def test_bom_at_start_of_body_and_of_block() -> None:
    assert accepted(parse_mail(raw_mail("\ufeff" + ORDERS))) == EXPECTED
    assert accepted(parse_mail(raw_mail("Hi\n\n\ufeff" + ORDERS))) == EXPECTED


def test_narrow_nbsp_and_ideographic_spaces() -> None:
    body = ORDERS.replace("  tyche", "\u202f\u2007tyche")
    assert accepted(parse_mail(raw_mail(body))) == EXPECTED


def test_capitalised_keys_get_a_hint() -> None:
    body = ORDERS.replace("game:", "Game:")
    result = parse_mail(raw_mail(body))
    assert result.problems[0].code == "mail.no_orders"
    assert "'game:'" in text_of(result)


def test_capitalised_game_prose_beside_real_orders_is_chat() -> None:
    body = f"Game: what a battle last turn!\n\n{ORDERS}\nKleitos\n"
    assert accepted(parse_mail(raw_mail(body))) == EXPECTED


def test_misspelt_game_key_gets_did_you_mean() -> None:
    result = parse_mail(raw_mail(ORDERS.replace("game:", "gmae:")))
    assert result.problems[0].code == "mail.no_orders"
    assert "did you mean 'game:'" in text_of(result)
    assert "seat: north" in (result.problems[0].hint or "")


def test_no_orders_shows_the_expected_shape() -> None:
    result = parse_mail(raw_mail("I will think about it and send orders later.\n"))
    assert result.action == "reject"
    assert result.problems[0].code == "mail.no_orders"
    assert "game:" in result.problems[0].hint


def test_huge_orders_block_is_refused_quickly() -> None:
    result = parse_mail(raw_mail(ORDERS + "  k: v\n" * 100_000))
    assert [p.code for p in result.problems] == ["mail.too_large"]


def test_a_second_game_line_starts_a_second_document() -> None:
    result = parse_mail(raw_mail(ORDERS + ORDERS))
    assert [p.code for p in result.problems] == ["mail.two_documents"]


def test_aliases_are_refused() -> None:
    body = ORDERS.replace("places: [Pelusium, Gaza]", "places: &p [Pelusium, Gaza]") + "x: *p\n"
    result = parse_mail(raw_mail(body))
    assert [p.code for p in result.problems] == ["yaml.alias"]


# --- envelope -----------------------------------------------------------------------

def test_missing_message_id_is_synthesised_stably() -> None:
    raw = raw_mail(ORDERS, message_id=None)
    first, second = parse_mail(raw), parse_mail(raw)
    assert first.message_id == second.message_id
    assert first.message_id.startswith("<") and first.message_id.endswith(">")
    assert parse_mail(raw + b"x").message_id != first.message_id


def test_message_id_without_brackets_is_not_a_msg_id() -> None:
    """RFC 5322 3.6.4 requires the angle brackets: such an id is replaced (stably), so it
    is never copied into our In-Reply-To (issue 17)."""
    raw = raw_mail(ORDERS, message_id="abc@x.example")
    assert parse_mail(raw).message_id.endswith("@pbem.invalid>")
    assert parse_mail(raw).message_id == parse_mail(raw).message_id


def test_envelope_fields() -> None:
    raw = raw_mail(ORDERS, sender="=?utf-8?q?Kl=C3=A9itos?= <North@Players.Example>",
                   headers={"In-Reply-To": "<r7@pbem.example>",
                            "References": "<r6@pbem.example>\r\n <r7@pbem.example>"})
    result = parse_mail(raw)
    assert result.sender == "north@players.example"
    assert result.sender_name == "Kléitos"
    assert result.in_reply_to == "<r7@pbem.example>"
    assert result.references == ("<r6@pbem.example>", "<r7@pbem.example>")


def test_unparseable_from_is_never_answered() -> None:
    result = parse_mail(raw_mail(ORDERS, sender="<<<@@@ ,,"))
    assert result.sender == ""
    assert (result.action, result.ignore_reason) == ("ignore", "unreadable-sender")
    assert result.ignore_detail and result.document is None


def test_empty_mail_is_ignored() -> None:
    result = parse_mail(raw_mail("\n\n"))
    assert (result.action, result.ignore_reason) == ("ignore", "empty")

"""parse_mail never raises, whatever the bytes, and always gives a complete answer."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.mail.headers import fold_address
from pbem.mail.message import ParsedMail, parse_mail

from .clients import bottom_posted, html_only, top_posted
from .test_cases import CASES, cases_dir

SEEDS: list[bytes] = [(cases_dir() / c["file"]).read_bytes() for c in CASES] + [
    top_posted(message_id="<fuzz-1@players.example>"),
    bottom_posted(message_id="<fuzz-2@players.example>"),
    html_only(message_id="<fuzz-3@players.example>"),
]
LABELS = [b"utf-8", b"iso-8859-1", b"windows-1252", b"x-unknown", b"utf-16", b"base64",
          b"utf-7", b"", b"\"", b"koi8-r", b"shift_jis", b"idna", b"rot13", b"hex"]
FUZZ = settings(max_examples=300, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def check(result: ParsedMail) -> None:
    """The invariants every answer satisfies."""
    assert isinstance(result, ParsedMail)
    assert result.message_id.startswith("<") and result.message_id.endswith(">")
    assert result.sender == fold_address(result.sender)  # ASCII letters lowercased, nothing else (break-it 3)
    assert result.action in ("accept", "reject", "ignore")
    if result.action == "accept":
        assert isinstance(result.document, dict) and "game" in result.document
        assert result.problems == () and result.ignore_reason is None
    elif result.action == "reject":
        assert len(result.problems) >= 1 and result.document is None
        assert all(p.code and p.message for p in result.problems)
    else:
        assert result.ignore_reason and result.document is None and result.problems == ()
    assert result.problems == () or result.action == "reject"
    assert all(p.code != "mail.unreadable" for p in result.problems), result.problems


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """A seed mail with byte flips, header deletions, charset swaps and truncation."""
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["flip", "delete_header", "charset", "truncate",
                                     "insert", "duplicate"]))
        if not data:
            break
        if kind == "flip":
            data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
        elif kind == "delete_header":
            lines = bytes(data).split(b"\n")
            end = lines.index(b"\r") if b"\r" in lines else min(len(lines), 12)
            if end > 0:
                del lines[draw(st.integers(0, end - 1))]
            data = bytearray(b"\n".join(lines))
        elif kind == "charset":
            label = draw(st.sampled_from(LABELS))
            data = bytearray(re.sub(rb"charset=\"?[\w-]*\"?", b"charset=" + label, bytes(data)))
        elif kind == "truncate":
            del data[draw(st.integers(0, len(data))):]
        elif kind == "insert":
            at = draw(st.integers(0, len(data)))
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        else:
            at = draw(st.integers(0, len(data)))
            data[at:at] = data[:at][-200:]
    return bytes(data)


@FUZZ
@given(st.binary(max_size=3000))
def test_random_bytes_never_raise(raw: bytes) -> None:
    check(parse_mail(raw))


@FUZZ
@given(mutated())
def test_mutated_cases_never_raise(raw: bytes) -> None:
    check(parse_mail(raw, own_addresses=["judge@pbem.example"], own_domains=["pbem.example"]))


@settings(max_examples=100, deadline=None, database=None)
@given(st.text(max_size=400))
def test_random_text_bodies_never_raise(body: str) -> None:
    raw = ("From: a@b.example\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
           "game: x\n" + body).encode("utf-8", "surrogatepass")
    check(parse_mail(raw))

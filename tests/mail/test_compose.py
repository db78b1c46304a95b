"""pbem.mail.compose: nothing from a mail or the config reaches our headers unchecked."""

from __future__ import annotations

import email
from datetime import UTC, datetime
from email import policy

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pbem.mail.compose import MAX_REFERENCES, compose, stable_message_id, thread_ids
from pbem.mail.headers import is_msg_id


def make(**overrides: object):  # type: ignore[no-untyped-def]
    args: dict = dict(sender="judge@pbem.example", sender_name="Judge", to_addr="k@example.org",
                      to_name="Kleitos", subject="Re: orders", text="hello",
                      message_id="<pbem.x.1@pbem.example>", kind="reply")
    args.update(overrides)
    return compose(**args)


def test_names_and_subject_lose_control_characters() -> None:
    out = make(to_name="Kleitos\r\nBcc: victim@example.org", sender_name="J\x00udge",
               subject="Re: a\r\nBcc: victim@example.org", game_id="g1\r\nX: y")
    parsed = email.message_from_bytes(out.raw, policy=policy.default)
    assert parsed["Bcc"] is None and parsed["X"] is None
    assert parsed["To"].addresses[0].display_name == "Kleitos Bcc: victim@example.org"
    assert str(parsed["Subject"]) == "Re: a Bcc: victim@example.org"


@pytest.mark.parametrize("name", [
    "=?utf-8?b?QW5uDQpSZXBseS1UbzogYUBldmlsLmV4YW1wbGU=?=",  # "Ann\r\nReply-To: a@evil.example"
    "=?utf-8?b?DQoNClBISVNIIGh0dHA6Ly9lLmV4YW1wbGUv?=",  # "\r\n\r\nPHISH http://e.example/"
    "=?utf-8?q?Ann=0D=0ABcc=3A_victim=40example=2Eorg?=",
    "=?utf-8?b?PT91dGYtOD9iP1FXNXVEUXBTWlhCc2VTMVViem9nWVVCbGRtbHNMbVY0WVcxd2JHVT0/PQ==?=",  # a word in a word
])
def test_an_encoded_word_that_decodes_to_a_line_break_adds_no_header(name: str) -> None:
    """Second break-it pass (issue 25): a sign-up `name:` (or an address change's display
    name) written as an RFC 2047 word that decodes to CR LF became a Reply-To, a Bcc or
    the end of the header block in every mail to that seat (CVE-2024-6923 in the stdlib
    we run on). The word is decoded and cleaned before it reaches the header."""
    for out in (make(to_name=name), make(subject=f"Re: {name}"), make(sender_name=name)):
        head, _sep, _body = out.raw.partition(b"\r\n\r\n")
        fields = [line.split(b":", 1)[0].lower() for line in head.split(b"\r\n") if line[:1] not in (b" ", b"\t")]
        assert b"reply-to" not in fields and b"bcc" not in fields and b"phish http" not in fields, head
        assert fields[:2] == [b"from", b"to"] and b"subject" in fields and b"content-type" in fields, head
        parsed = email.message_from_bytes(out.raw, policy=policy.default)
        assert parsed["Reply-To"] is None and parsed["Bcc"] is None
        assert parsed["To"].addresses[0].addr_spec == "k@example.org"


def test_non_ascii_names_are_rfc2047_encoded() -> None:
    out = make(to_name="Kléitos", subject="Re: café")
    top = out.raw.split(b"\r\n\r\n")[0]
    assert top.isascii() and not out.smtputf8
    parsed = email.message_from_bytes(out.raw, policy=policy.default)
    assert parsed["To"].addresses[0].display_name == "Kléitos"


def test_an_internationalised_address_needs_smtputf8() -> None:
    out = make(to_addr="κλείτος@παράδειγμα.ελ", to_name="Κλείτος")
    assert out.smtputf8 and "κλείτος@παράδειγμα.ελ".encode() in out.raw


@pytest.mark.parametrize("bad", ["", "k@example.org\r\nBcc: x@y.org", "not an address",
                                 "k@[127.0.0.1]"])
def test_bad_addresses_raise_value_error(bad: str) -> None:
    with pytest.raises(ValueError):
        make(to_addr=bad)


def test_a_bad_own_message_id_raises() -> None:
    with pytest.raises(ValueError):
        make(message_id="<x@y>\r\nBcc: z@w.org")


def test_only_valid_real_ids_thread() -> None:
    assert thread_ids("<sha256-ab@pbem.invalid>", ["<r@x.org>"]) == (None, ())
    assert thread_ids("<p@x.org>", ["<bad", "<r@x.org>", "<p@x.org>"]) == (
        "<p@x.org>", ("<r@x.org>", "<p@x.org>"))
    many = [f"<r{i}@x.org>" for i in range(100)]
    parent, refs = thread_ids("<p@x.org>", many)
    assert len(refs) == MAX_REFERENCES and refs[0] == "<r0@x.org>" and refs[-1] == parent


def test_nul_never_reaches_the_body() -> None:
    out = make(text="a\x00b\x1bc\td\ne", html="<p>a\x00b</p>")
    assert b"\x00" not in out.raw and b"\x1b" not in out.raw


@settings(max_examples=200, deadline=None, database=None)
@given(st.lists(st.one_of(st.text(max_size=30), st.integers(), st.none()), max_size=5))
def test_stable_message_ids_are_valid_msg_ids(parts: list) -> None:
    message_id = stable_message_id("pbem.example", *parts)
    assert is_msg_id(message_id)
    assert stable_message_id("pbem.example", *parts) == message_id


def test_a_reply_id_built_from_a_player_id_is_valid() -> None:
    """The label once had '..' ('<…@players.example>' ends in a dot before the digest)."""
    assert is_msg_id(stable_message_id("pbem.example", "g1", "reply", "<c-1@players.example>"))


def _reference(**kwargs: object) -> bytes:
    """The message as the email package writes it with the attachments added whole."""
    from email.message import EmailMessage
    from email.policy import SMTP

    atts = kwargs.pop("attachments")
    msg = email.message_from_bytes(compose(**kwargs).raw, policy=policy.default, _class=EmailMessage)
    for att in atts:
        if att.cid:
            msg.get_payload()[1].add_related(att.data, maintype=att.maintype, subtype=att.subtype,
                                             cid=f"<{att.cid}>", filename=att.filename, disposition="inline")
        else:
            msg.add_attachment(att.data, maintype=att.maintype, subtype=att.subtype, filename=att.filename)
    return msg.as_bytes(policy=SMTP)


def _same_boundaries(raw: bytes) -> bytes:
    """``raw`` with its MIME boundaries renamed B0, B1, … in order of appearance."""
    import re

    names: dict[bytes, bytes] = {}
    for m in re.finditer(rb'boundary="([^"]+)"', raw):
        names.setdefault(m.group(1), b"B%d" % len(names))
    for old, new in names.items():
        raw = raw.replace(old, new)
    return raw


def test_attachments_are_written_as_the_email_package_writes_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """compose puts each attachment's base64 text in place of a placeholder (computed
    once per picture); the bytes are those of the email package adding it whole."""
    import os
    from email.generator import Generator

    from pbem.mail.compose import Attachment, encoded_body

    counter = iter(range(1000))
    monkeypatch.setattr(Generator, "_make_boundary", classmethod(lambda cls, text=None: f"=={next(counter)}=="))
    picture, extra = os.urandom(50_000), os.urandom(3_000)
    kwargs = dict(sender="judge@pbem.localhost", sender_name="Judge", to_addr="north@pbem.localhost",
                  to_name="Kleitos", subject="report", text="the report\n", html='<p><img src="cid:m@x"></p>',
                  message_id="<pbem.r@pbem.localhost>", kind="report",
                  date=datetime(2026, 12, 4, 12, 0, tzinfo=UTC))  # one Date for both (a second may pass between)
    atts = [Attachment("map.png", picture, cid="m@x"), Attachment("log.txt", extra, "text", "plain")]
    ours = compose(**kwargs, attachments=atts)
    theirs = _reference(**kwargs, attachments=atts)
    parsed = email.message_from_bytes(ours.raw, policy=policy.default)
    got = {p.get_filename(): p.get_payload(decode=True) for p in parsed.walk() if p.get_filename()}
    assert got == {"map.png": picture, "log.txt": extra}
    assert _same_boundaries(ours.raw) == _same_boundaries(theirs)
    assert ours.bodies == (encoded_body(picture, "image", "png", "\r\n"), encoded_body(extra, "text", "plain", "\r\n"))
    assert all(b in ours.raw for b in ours.bodies) and b"PBEM-ATTACHMENT" not in ours.raw


_WORDS = ["история:", "шаг", "2", "(east", "сделал", "ход)", "jugó", "north", "отчёт:", "Пелла", "step", "6:",
          "informe:", "días", "x"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=16))
@example(words=["(east"] * 8 + ["informe:"])  # a long ASCII subject: the stdlib put it all after a fold
def test_a_spanish_or_russian_subject_keeps_every_space(words: list[str]) -> None:
    """try28d (issue 28): the stdlib folded a long non-ASCII subject so that the space
    at a fold between a plain word and an encoded word was lost ('[g] история: шаг 2
    (eastсделал ход)', about one subject in ten); the subject now comes back word for
    word, its ASCII prefix unencoded (filters match '[game] step N'), every line within
    78 columns, and so after the 7-bit re-encoding too."""
    from pbem.mail.compose import seven_bit
    subject = "[alexandria-1] " + " ".join(words)
    out = make(subject=subject)
    for raw in (out.raw, seven_bit(out.raw)):
        head = raw.split(b"\r\n\r\n")[0]
        assert max(len(line) for line in head.split(b"\r\n")) <= 78, head
        assert str(email.message_from_bytes(raw, policy=policy.default)["Subject"]) == subject
    if not subject.isascii():
        assert b"Subject: [alexandria-1] " in out.raw


def test_the_history_subject_of_a_russian_seat_keeps_its_space() -> None:
    subject = "[alexandria-1] история: шаг 2 (east сделал ход)"
    parsed = email.message_from_bytes(make(subject=subject).raw, policy=policy.default)
    assert str(parsed["Subject"]) == subject
